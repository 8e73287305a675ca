/* dot/dot.h: what the dot variants' kernels (dot.cu) share with their CPU twins and descriptors
 * (dot.c): which member a descriptor is (its impl), the launch defaults, the workspace layout, and
 * the per-element steps (host and device code, so the twins call the kernels' own arithmetic). */
#ifndef SL_DOT_H
#define SL_DOT_H
#include <math.h>
#include <stdint.h>
#include "sumlab/types.h"
#include "sl_layout.h"
#include "sl_variants.h"
#include "exact/limbs.h"

typedef enum {
    SL_DOT_NAIVE = 0,    /* s += fl(x y) in the accumulator (naive, f64-acc, half-acc) */
    SL_DOT_KAHAN,        /* Kahan-compensated sum of the rounded products */
    SL_DOT_DOT2,         /* Ogita-Rump-Oishi Dot2: TwoProduct by explicit fma, TwoSum */
    SL_DOT_CORRECT,      /* exact products into the superaccumulator, one rounding */
    SL_DOT_REPRO         /* the exact products' pieces into exact/binned.h's 3-fold binned state */
} sl_dot_kind;

/* Grid-stride engine (as the moments family's): block 256 by default, grid = sm_count waves of
 * SL_DOT_THREADS_PER_SM threads, fewer for small n. */
#define SL_DOT_BLOCK 256u
#define SL_DOT_ITEMS 4u
#define SL_DOT_THREADS_PER_SM 1024u
#define SL_DOT_MAX_GRID (1u << 20)

/* Workspace: sl_layout.h's single-launch finish (ticket counter at 0, one partial per block from
 * SL_WS_HEADER: a pair (s, e) of doubles per block, whatever the accumulator; a float32
 * accumulator's values are held in them exactly). `correct`: the superaccumulator's limbs. */

#if defined(__CUDACC__)
#define SL_DOT_FN static __host__ __device__ __forceinline__
#else
#define SL_DOT_FN static inline
#endif

/* The float64 steps (the float32 ones are the same with fmaf and floats; dot.c's twin runs them
 * on doubles rounded once per operation). Kahan keeps c, the running compensation, Dot2 e, the
 * sum of the errors; both leave the pair (s, e) with s + e the value, e = -c for Kahan. */
SL_DOT_FN void sl_dot_kahan_d(double *s, double *c, double p)
{
    const double yk = p - *c;
    const double t = *s + yk;
    *c = (t - *s) - yk;
    *s = t;
}
SL_DOT_FN void sl_dot_dot2_d(double *s, double *e, double x, double y)
{
    const double p = x * y;
    const double pe = fma(x, y, -p);        /* TwoProduct: explicit fma (no contraction elsewhere) */
    const double t = *s + p;                /* TwoSum(s, p) */
    const double z = t - *s;
    const double q = (*s - (t - z)) + (p - z);
    *e = *e + (q + pe);
    *s = t;
}

SL_DOT_FN void sl_dot_kahan_f(float *s, float *c, float p)
{
    const float yk = p - *c;
    const float t = *s + yk;
    *c = (t - *s) - yk;
    *s = t;
}
SL_DOT_FN void sl_dot_dot2_f(float *s, float *e, float x, float y)
{
    const float p = x * y;
    const float pe = fmaf(x, y, -p);
    const float t = *s + p;
    const float z = t - *s;
    const float q = (*s - (t - z)) + (p - z);
    *e = *e + (q + pe);
    *s = t;
}

/* ---- correct, float64: the scaled windows of products outside [2^-968, 2^1000) ----------------
 * A product of finite non-zero doubles is summed exactly as TwoProduct pieces in one of three
 * limb arrays (exact/limbs.h's split and limbs; the reference's three windows, reference/sl_dot.c):
 *   main: 2^-968 <= |p| < 2^1000 (p = fl(x y)), p and fma(x, y, -p) unscaled, limb 0 at 2^-1074
 *         (SL_SACC_LIMBS_F64 limbs); also every zero factor and every special;
 *   low:  |p| < 2^-968: the factor of smaller magnitude times 2^1184 (exact: it is below 2^-484,
 *         at least 2^-1074, so in [2^110, 2^700) after), TwoProduct of the scaled pair (exact: the
 *         scaled product lies in [2^-964, 2^216)), both pieces split with scale 1074: limb 0 at
 *         2^(-1074-1184); 44 limbs hold 2^216 with 40 bits of carries (n < 2^40) and the sign;
 *   high: |p| >= 2^1000 (an overflowed p too): the factor of larger magnitude times 2^-1184
 *         (exact: it is at least 2^500, so in [2^-684, 2^-160) after), the scaled product lies in
 *         [2^-184, 2^864) and its pieces are multiples of 2^-289 (x y's lowest bit is at least
 *         2^(1000-105)), split with scale 306: limb 0 at 2^(1184-306) = 2^878; 40 limbs.
 * 1184 = 37 x 32 and 878 + 2258 = 98 x 32: the three arrays are windows of one array with limb 0
 * at 2^-2258 (low at limb 0, main at 37, high at 98), rounded once there (sl_sacc_round_scaled).
 * A product in no window's range cannot be exact in the main array: below 2^-968 its TwoProduct
 * error may have bits under 2^-1074; at 2^1000 and above the limbs would need to hold 2^2048. */
#define SL_DOT_LOW 0x1p-968
#define SL_DOT_BIG 0x1p1000
#define SL_DOT_LO_LIMBS 44
#define SL_DOT_HI_LIMBS 40
#define SL_DOT_HI_SCALE 306        /* the high window's split scale */
#define SL_DOT_MAIN_AT 37          /* main limb 0 in the combined array (1184 / 32) */
#define SL_DOT_HI_AT 98            /* high limb 0 in the combined array */
#define SL_DOT_ALL_LIMBS (SL_DOT_HI_AT + SL_DOT_HI_LIMBS)
#define SL_DOT_ALL_LSB (-1074 - 1184)
#define SL_DOT_FL_LOW 0x100u       /* beside exact/limbs.h's flags: the low window holds pieces */
#define SL_DOT_FL_HIGH 0x200u      /* the high window holds pieces */

/* 1 when the float64 product p = fl(a b) of a and b belongs to the low or the high window. */
SL_DOT_FN int sl_dot_scaled_window(double a, double b, double p)
{
    return !(fabs(p) >= SL_DOT_LOW && fabs(p) < SL_DOT_BIG) && isfinite(a) && isfinite(b) && a != 0.0 &&
           b != 0.0;
}

/* The scaled TwoProduct (*hi, *lo) of a product in a scaled window; returns 1 for the high window
 * (scaled by 2^-1184), 0 for the low one (scaled by 2^1184). */
SL_DOT_FN int sl_dot_scaled_product(double a, double b, double *hi, double *lo)
{
    const int big = !(fabs(a * b) < SL_DOT_LOW);
    const int first = big ? fabs(a) >= fabs(b) : fabs(a) <= fabs(b);   /* a is the factor to scale */
    const double k = big ? 0x1p-592 : 0x1p592;
    const double f = ((first ? a : b) * k) * k, g = first ? b : a;       /* exact: powers of two */
    *hi = f * g;
    *lo = fma(f, g, -*hi);
    return big;
}

/* The combined array all[0..SL_DOT_ALL_LIMBS) (the three windows added at their limbs, any carry
 * state, |limb| < 2^63) rounded once to float64, to nearest even: correct's float64 result when a
 * scaled window holds pieces. */
SL_DOT_FN double sl_dot_round_all(int64_t *all, unsigned flags)
{
    return sl_sacc_round_scaled(all, SL_DOT_ALL_LIMBS, SL_DOT_ALL_LSB, SL_F64, flags, 0);
}

/* Row-wise: 1 when member impl runs its row kernel on rows of n values (dot.cu), 0 when the 1-D
 * launcher runs on each pair: every member but reproducible and correct, rows too few to fill
 * the GPU a block each (sl_rows_few_long), and for correct rows of 2^29 values or more (its exact
 * pass's shared limbs) or 2^32 rows or more (its list). correct's workspace: the list's 16-byte
 * header (its length and ticket, zero between calls) and 4 bytes a row. */
#define SL_DOT_ROWS_WS_BYTES(rows) (16u + 4u * (uint64_t)(rows))
#define SL_DOT_ROWS_EXACT_MAX_N ((uint64_t)1 << 29)
/* SUMLAB_DOT_CORRECT_ROWS (the CMake option of that name, kernels/README.md): 1 gives correct its
 * row kernel; 0 (the default until a GPU run has checked it), the 1-D launcher on each pair. */
#ifndef SUMLAB_DOT_CORRECT_ROWS
#define SUMLAB_DOT_CORRECT_ROWS 0
#endif
static inline int sl_dot_rows_kernel(int impl, uint64_t rows, uint64_t n, uint32_t sm_count)
{
    if (sl_rows_few_long(rows, n, sm_count)) return 0;
    if (impl == SL_DOT_REPRO) return 1;
    return SUMLAB_DOT_CORRECT_ROWS && impl == SL_DOT_CORRECT && n < SL_DOT_ROWS_EXACT_MAX_N &&
           rows <= 0xffffffffull;
}

#ifdef __cplusplus
extern "C" {
#endif
/* dot.cu's one workspace() and gpu2() entry, shared by every member (v->impl says which). */
sl_workspace_fn sl_dot_workspace;
sl_gpu2_fn sl_dot_gpu;
/* dot.cu's row-wise entry (rows/rows.h; reproducible's and correct's row kernels, the other
 * members the 1-D launcher on each pair of rows; the workspace: dot.c's). */
sl_rows_gpu2_fn sl_dot_rows_gpu;
/* cublas.cu: the cuBLAS anchor (cublasSdot / cublasDdot / cublasDotEx). */
sl_workspace_fn sl_dot_cublas_workspace;
sl_gpu2_fn sl_dot_cublas_gpu;
#ifdef __cplusplus
}
#endif

#endif

/* moments_exact/moments_exact.h: what the `correct` (and `reproducible`) mean/var/std kernels
 * (moments_exact.cu) share with their CPU twins and descriptors (moments_exact.c): the exact
 * square of an input as parts for the squares' superaccumulator (host and device), the launch
 * defaults, the workspace layout and the GPU entry. The final rounding is mx_round.h's. */
#ifndef SL_MOMENTS_EXACT_H
#define SL_MOMENTS_EXACT_H
#include "moments_exact/mx_round.h"
#include "exact/binned.h"

/* Launch defaults of the one-launch kernel: block 256, grid sm_count x 4 (fewer for small n);
 * float64 var/std (the cheap pass mxd_kernel, then the gated exact kernel): block 1024, grid
 * sm_count x 2, 0.903x CUB against 0.830x at 256 x 4 and 0.880x at 512 x 4 (H200, 2^28,
 * BENCHMARKS.md). float32/16-bit input keeps 256: its certified passes take at most 512. */
#define SL_MX_BLOCK 256u
#define SL_MX_BLOCKS_PER_SM 4u
#define SL_MX_BLOCK_F64 1024u
#define SL_MX_BLOCKS_PER_SM_F64 2u
/* Elements a block reads between normalisations of its shared limbs: every element adds at most
 * two chunks below 2^32 to one limb of S2 and one to S1 (2^28 x 2^33 < 2^62). */
#define SL_MX_NORM_EVERY ((uint64_t)1 << 28)
/* Workspace: [0,4) the ticket counter, [4,8) the flags, then S1's limbs (L1 int64) and S2's
 * (L2 int64): zero at allocation, left zero by every launch. */
#define SL_MX_WS_HEADER 16u

/* x^2 of a finite input as parts d[k] to add at scale sc[k] (each d[k] a multiple of 2^-sc[k],
 * so exact/limbs.h's sl_sacc_split_f64(d[k], sc[k]) adds it exactly into the squares' limbs,
 * units 2^-2s). float32 and 16-bit input (x widened to double): one part, x*x exact in float64
 * (48 bits). float64: p = x*x and e = fma(x, x, -p) (TwoProduct: x^2 = p + e exactly while no
 * step over- or underflows), on x scaled into range: |x| >= 2^500 by 2^-600 (the parts then
 * count 2^1200 times: scale 2148 + 1200), |x| < 2^-400 by 2^600 (scale 2148 - 1200); the parts
 * are multiples of 2^-sc since the scaled square is. Returns the number of parts. */
#ifdef __CUDACC__
static __host__ __device__ __forceinline__
#else
static inline
#endif
int sl_mx_square_parts(double x, int f64, double *d, int *sc)
{
    if (!f64) {
        d[0] = x * x;
        sc[0] = SL_MX_S2_SCALE_F32;
        return 1;
    }
    const double ax = fabs(x);
    double xs = x;
    int s = SL_MX_S2_SCALE_F64;
    if (ax >= 0x1p500) { xs = x * 0x1p-600; s += 1200; }
    else if (ax < 0x1p-400) { xs = x * 0x1p600; s -= 1200; }
    const double p = xs * xs;
    d[0] = p;
    d[1] = fma(xs, xs, -p);
    sc[0] = sc[1] = s;
    return 2;
}

/* ---- `reproducible`: binned S1 and S2 (exact/binned.h's float64 binned sum, 3 folds), the
 * textbook formula on their float64 values. Bits independent of order, split and launch. */
#define SL_MXR_BLOCK 256u        /* the kernels' block (their launch bound) */
/* Values a thread takes a step as groups (moments_exact.cu's mxr_walk: U 16-byte vectors): the
 * default grid gives each thread one step at least (moments_exact.c's mxr_resolve). */
#define SL_MXR_STEP(dt) ((dt) == SL_F64 ? 8u : 16u)

/* x^2 as binned inputs: float32 and 16-bit input: x*x, exact in float64; float64: p = x*x and
 * e = fma(x, x, -p) (exact while p neither overflows nor underflows; e = 0 when p is Inf: S2 is
 * then +Inf and the variance Inf or NaN, the textbook form's overflow). */
#ifdef __CUDACC__
static __host__ __device__ __forceinline__
#else
static inline
#endif
int sl_mxr_square_parts(double x, int f64, double *d)
{
    const double p = x * x;
    d[0] = p;
    if (!f64) return 1;
    d[1] = isinf(p) ? 0.0 : fma(x, x, -p);
    return 2;
}

/* SL_RSUM_GROUP values v[] (widened to float64) into the binned S1 (a1) and, sq set, their
 * squares' parts (sl_mxr_square_parts) into S2 (a2) through exact/binned.h's group path (one
 * capacity check for SL_RSUM_GROUP deposits, else one by one): the kernels' fast path. The sums
 * are those of sl_rsum_take1 value by value (a binned sum is a function of the multiset of its
 * inputs). The squares are sl_rsum_take_products_f64's of (a, b) = (v, v); a non-finite value,
 * which the twins leave out of S2, as (-0, +0): its product and tail are -0, which changes no
 * binned sum (a sum of -0s stays -0). */
#ifdef __CUDACC__
static __host__ __device__ __forceinline__
#else
static inline
#endif
void sl_mxr_take_group(sl_rsum_thr_f64 *a1, sl_rsum_thr_f64 *a2, const double *v, int sq, int f64)
{
    sl_rsum_take_group_f64(a1, v);
    if (!sq) return;
    double a[SL_RSUM_GROUP], b[SL_RSUM_GROUP];
    for (int k = 0; k < SL_RSUM_GROUP; k++) {
        const int fin = v[k] - v[k] == 0.0;
        a[k] = fin ? v[k] : -0.0;
        b[k] = fin ? v[k] : 0.0;
    }
    sl_rsum_take_products_f64(a2, a, b, f64);
}

/* The epilogue, host and device: S1, S2 the binned states rounded once to float64, N = n and
 * D = n - ddof exact in float64: mean S1 / N; var (S2 - (S1 * S1) / N) / D (n <= ddof: NaN);
 * std the square root of that variance, a negative one taken as 0; rounded once to dt. var/std of
 * an input with NaN or Inf: NaN (moments.md's semantics; S2 leaves non-finite inputs out). */
#ifdef __CUDACC__
static inline __host__ __device__ __noinline__
#else
static inline
#endif
double sl_mxr_final(int what, uint64_t n, uint32_t ddof, const sl_rsum_state *st1,
                    const sl_rsum_state *st2, sl_dtype dt)
{
    const double s1 = sl_rsum_state_round(st1, SL_F64), N = (double)n;
    double r;
    if (what == SL_MX_MEAN) {
        r = s1 / N;
    } else if (n <= (uint64_t)ddof || (st1->flags & (SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF))) {
        r = NAN;                                     /* n <= ddof; a NaN or Inf input */
    } else {
        const double s2 = sl_rsum_state_round(st2, SL_F64);
        double t = s1 * s1;
        t = t / N;
        t = s2 - t;
        r = t / (double)(n - ddof);
        if (what == SL_MX_STD) r = sqrt(r < 0.0 ? 0.0 : r);
    }
    return sl_mx_round_double(r, dt);
}

#ifdef __cplusplus
extern "C" {
#endif
/* moments_exact.cu's entries, shared by every member (v->impl: SL_MX_MEAN, _VAR, _STD). */
sl_workspace_fn sl_mx_workspace;
sl_gpu_fn sl_mx_gpu;
sl_workspace_fn sl_mxr_workspace;   /* reproducible */
sl_gpu_fn sl_mxr_gpu;
/* `correct` mean/var/std row-wise (rows/rows.h's dedicated entry, listed in rows.c): a warp or a
 * block per row running the cheap pass (float32 and 16-bit: mx_fast.h's box and its float64
 * test, or the mean's interval; float64: mx_fast64.h's pairs, their double-double test and, for
 * var/std, the box's two ends rounded on two lanes), the rows it cannot decide summed exactly
 * after; rows too few to fill the GPU a block each (sl_layout.h's sl_rows_few_long) by the 1-D
 * launcher on each row.
 * Workspace (the row kernels): SL_MX_ROWS_WS_BYTES(rows), zero before the first call (the kernels
 * leave it zero). */
#define SL_MX_ROWS_WS_HEADER 16u
#define SL_MX_ROWS_WS_BYTES(rows) (SL_MX_ROWS_WS_HEADER + (size_t)(rows) * sizeof(unsigned))
sl_rows_gpu_fn sl_mx_rows_gpu;
/* `reproducible` mean/var/std row-wise, every format: a block per row (moments_exact.cu's
 * mxrrow_kernel), the 1-D kernel's binned states merged through the block; no workspace. */
sl_rows_gpu_fn sl_mxr_rows_gpu;
/* The reproducible twin's binned states of x[0..n) (moments_exact.c): st1 of every input, st2 of
 * the finite inputs' squares (when sq). States of pieces merge exactly (sl_rsum_state_merge)
 * into the whole's; sl_mxr_final on them is the twin's result. */
void sl_mxr_states(const void *x, uint64_t n, sl_dtype dt, int sq, sl_rsum_state *st1,
                   sl_rsum_state *st2);
#ifdef __cplusplus
}
#endif
#endif

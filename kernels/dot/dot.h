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

#ifdef __cplusplus
extern "C" {
#endif
/* dot.cu's one workspace() and gpu2() entry, shared by every member (v->impl says which). */
sl_workspace_fn sl_dot_workspace;
sl_gpu2_fn sl_dot_gpu;
/* cublas.cu: the cuBLAS anchor (cublasSdot / cublasDdot / cublasDotEx). */
sl_workspace_fn sl_dot_cublas_workspace;
sl_gpu2_fn sl_dot_cublas_gpu;
#ifdef __cplusplus
}
#endif

#endif

/* moments/moments.h: what the moment variants' kernels (moments.cu) share with their CPU twins and
 * descriptors (moments.c): which member a descriptor is (its impl), the launch defaults, and the
 * workspace layout of the two launches of the two-pass forms. */
#ifndef SL_MOMENTS_H
#define SL_MOMENTS_H
#include <math.h>
#include <stdint.h>
#include "sumlab/types.h"
#include "sl_layout.h"
#include "sl_variants.h"

/* impl = algorithm | SL_MOM_STD when the result is the square root (op "std"). */
typedef enum {
    SL_MOM_MEAN = 0,     /* S1 / n */
    SL_MOM_TEXTBOOK,     /* (S2 - S1*S1/n) / (n - ddof), sums of x */
    SL_MOM_SHIFTED,      /* the same over x - K, K = x[0] */
    SL_MOM_TWO_PASS,     /* m = S1/n; D2 / (n - ddof), D2 = sum (x - m)^2 */
    SL_MOM_CORRECTED     /* m = S1/n; (D2 - D1*D1/n) / (n - ddof), D1 = sum (x - m) */
} sl_mom_kind;
#define SL_MOM_STD 0x10
#define SL_MOM_KIND(impl) ((sl_mom_kind)((impl) & 0x0f))
#define SL_MOM_IS_STD(impl) (((impl) & SL_MOM_STD) != 0)

/* Grid-stride engine (as the accuracy family's): block 256 by default, grid = sm_count waves of
 * SL_MOM_THREADS_PER_SM threads, fewer for small n. */
#define SL_MOM_BLOCK 256u
#define SL_MOM_ITEMS 4u
#define SL_MOM_THREADS_PER_SM 1024u
#define SL_MOM_MAX_GRID (1u << 20)

/* Workspace: sl_layout.h's single-launch finish (ticket counter at 0, one partial per block from
 * SL_WS_HEADER: a pair (s1, s2) in the accumulator format, float32 for 16-bit accumulation), and
 * the two-pass forms' mean m (an accumulator value) at byte SL_MOM_WS_MEAN of the header, written
 * by the first launch's last block and read by every block of the second. */
#define SL_MOM_WS_MEAN 64u

/* The epilogue, shared by the kernels (moments.cu) and the twins (moments.c): S1, S2 (of the
 * second read for two-pass and corrected) in the epilogue format T (float or double), N = n and
 * D = n - ddof converted once to T:
 *   mean: S1 / N;  two-pass: S2 / D;  textbook, shifted, corrected: (S2 - (S1 * S1) / N) / D;
 *   std: the square root of the variance in T; var/std with n <= ddof: NaN. */
#if defined(__CUDACC__)
#define SL_MOM_FN static __host__ __device__ __forceinline__
#else
#define SL_MOM_FN static inline
#endif
#define SL_MOM_FINAL_FN(NAME, T, SQRT)                                                       \
    SL_MOM_FN T NAME(int impl, uint64_t n, uint32_t ddof, T s1, T s2)                        \
    {                                                                                        \
        const int kind = SL_MOM_KIND(impl);                                                  \
        const T N = (T)n;                                                                    \
        T r;                                                                                 \
        if (kind == SL_MOM_MEAN) return s1 / N;                                              \
        if (n <= (uint64_t)ddof) return (T)NAN;                                              \
        const T D = (T)(n - ddof);                                                           \
        if (kind == SL_MOM_TWO_PASS) {                                                       \
            r = s2 / D;                                                                      \
        } else {                                                                             \
            T t = s1 * s1;                                                                   \
            t = t / N;                                                                       \
            t = s2 - t;                                                                      \
            r = t / D;                                                                       \
        }                                                                                    \
        if (SL_MOM_IS_STD(impl)) r = SQRT(r < (T)0 ? (T)0 : r); /* a negative var: std 0 */ \
        return r;                                                                            \
    }
SL_MOM_FINAL_FN(sl_mom_final_f, float, sqrtf)
SL_MOM_FINAL_FN(sl_mom_final_d, double, sqrt)

#ifdef __cplusplus
extern "C" {
#endif
/* moments.cu's one workspace() and gpu() entry, shared by every member (v->impl says which). */
sl_workspace_fn sl_moments_workspace;
sl_gpu_fn sl_moments_gpu;
#ifdef __cplusplus
}
#endif

#endif

/* extrema/extrema.h: what the max/min variants and the fused sum/sum-of-squares/max kernel
 * (extrema.cu) share with their CPU twins and descriptors (extrema.c): which member a descriptor
 * is, the sizes that decide an order of operations, the family's GPU entry points, and the
 * comparisons themselves as host/device functions (the twins call the kernels' own code). */
#ifndef SL_EXTREMA_H
#define SL_EXTREMA_H
#include <math.h>
#include <stdint.h>
#include "sl_variants.h"
#include "sl_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* v->impl = kind | output. */
#define SL_EX_BLOCK_REDUCE 0x00 /* identity -inf / +inf, IEEE 754-2019 maximum / minimum */
#define SL_EX_ZERO_FILL 0x10    /* the same comparison, accumulators and padding start at 0 */
#define SL_EX_FMAX 0x20         /* CUDA's fmaxf / fminf (NaN-ignoring), identity -inf / +inf */
#define SL_EX_FUSED 0x30        /* one read: sum, sum of squares, maximum */
#define SL_EX_KIND_MASK 0xf0
#define SL_EX_OUT_MAX 0         /* max/min kinds: the maximum; fused: its maximum */
#define SL_EX_OUT_MIN 1         /* max/min kinds only */
#define SL_EX_OUT_MEAN 2        /* fused: S1 / n */
#define SL_EX_OUT_VAR 3         /* fused: (S2 - S1 * S1 / n) / (n - ddof) */
#define SL_EX_OUT_STD 4         /* fused: the square root of that, in the accumulator */
#define SL_EX_OUT_MASK 0x0f

#define SL_EX_BLOCK 256u            /* default threads per block (any multiple of 32 <= 1024) */
#define SL_EX_THREADS_PER_SM 1024u  /* default grid = sm_count * (this / block) */
#define SL_EX_ITEMS 4u              /* vectors per thread used to size a small grid */
#define SL_EX_MAX_GRID (1u << 20)   /* requested grids are clamped to this */
#define SL_EX_STATE_BYTES 24u       /* one block partial: fused float64 (S1, S2, max) */

sl_workspace_fn sl_extrema_workspace;  /* extrema.cu */
sl_gpu_fn sl_extrema_gpu;

/* max/min row-wise (rows/rows.h's entries on the max/min descriptors): a warp of the block's
 * SL_EX_ROW_BLOCK threads a row up to SL_EX_WARP_ROW_MAX values, a block a row above; rows that
 * are few and long (sl_ex_rows_split) are split: S blocks a row, each over a contiguous part,
 * the last of them (a ticket a row) combining the S parts. A row's result is a function of its values alone (NaN payloads aside).
 * fused has no row kernel. */
#define SL_EX_ROW_BLOCK 256u
#define SL_EX_WARP_ROW_MAX 8192u
sl_rows_gpu_fn sl_extrema_rows_gpu;     /* extrema.cu */
/* The blocks a row when rows of n values are split (extrema.cu's exsplit_kernel): few long rows
 * (sl_layout.h's sl_rows_few_long) take ceil(4 sm_count / rows) blocks a row (at most one per 2^14 values), so that the rows fill the
 * GPU; 1 otherwise (a warp or a block a row). */
static inline uint32_t sl_ex_rows_split(uint64_t rows, uint64_t n, uint32_t sm_count)
{
    const uint64_t sms = sm_count ? sm_count : SL_DEFAULT_SM_COUNT;
    if (!sl_rows_few_long(rows, n, sm_count)) return 1u;
    uint64_t S = (4u * sms + rows - 1) / rows;
    if (S > n >> 14) S = n >> 14;
    return S > 1u ? (uint32_t)S : 1u;
}
/* The split rows' scratch: a counter a row (zero between launches: the last block of a row
 * resets it), then, from the next multiple of 8 bytes, S partials of 8 bytes a row. */
static inline size_t sl_ex_rows_split_ws(uint64_t rows, uint32_t S)
{
    return S > 1u ? (((size_t)rows * sizeof(unsigned) + 7u) & ~(size_t)7u) + (size_t)rows * 8u * S : 0u;
}

/* ---- the comparisons (host and device) -------------------------------------------------------
 * IEEE 754-2019 maximum/minimum: a NaN operand gives a NaN; -0 < +0. The NaN-ignoring forms
 * (CUDA's fmaxf/fminf, C's fmax/fmin): a NaN operand gives the other operand (NaN only when both
 * are); written out here with -0 < +0 so that kernel and twin agree on the sign of a zero. */
#ifdef __CUDACC__
#define SL_EX_HD static __host__ __device__ __forceinline__
#else
#define SL_EX_HD static inline
#endif
SL_EX_HD float sl_ex_max_f(float a, float b)
{
    return (a > b || a != a) ? a : (b > a || b != b) ? b : (signbit(a) ? b : a);
}
SL_EX_HD float sl_ex_min_f(float a, float b)
{
    return (a < b || a != a) ? a : (b < a || b != b) ? b : (signbit(a) ? a : b);
}
SL_EX_HD double sl_ex_max_d(double a, double b)
{
    return (a > b || a != a) ? a : (b > a || b != b) ? b : (signbit(a) ? b : a);
}
SL_EX_HD double sl_ex_min_d(double a, double b)
{
    return (a < b || a != a) ? a : (b < a || b != b) ? b : (signbit(a) ? a : b);
}
SL_EX_HD float sl_ex_fmax_f(float a, float b) { return a != a ? b : b != b ? a : sl_ex_max_f(a, b); }
SL_EX_HD float sl_ex_fmin_f(float a, float b) { return a != a ? b : b != b ? a : sl_ex_min_f(a, b); }
SL_EX_HD double sl_ex_fmax_d(double a, double b) { return a != a ? b : b != b ? a : sl_ex_max_d(a, b); }
SL_EX_HD double sl_ex_fmin_d(double a, double b) { return a != a ? b : b != b ? a : sl_ex_min_d(a, b); }

/* fused's maximum: order-preserving unsigned keys of the bit patterns (the IEEE order with
 * -0 < +0: a positive pattern with its sign bit set, a negative one inverted), so the running
 * maximum is one integer max per value; NaN keys mean nothing: S2 (a sum of squares, never NaN
 * without a NaN input: its terms are +0..+Inf) is NaN exactly when an input is, and then the
 * maximum is NaN. Key of -inf: the lanes' start. */
SL_EX_HD uint32_t sl_ex_key_f(uint32_t b) { return b ^ ((0u - (b >> 31)) | 0x80000000u); }
SL_EX_HD uint32_t sl_ex_unkey_f(uint32_t k) { return k ^ ((0u - ((k >> 31) ^ 1u)) | 0x80000000u); }
SL_EX_HD uint64_t sl_ex_key_d(uint64_t b)
{
    return b ^ ((0ull - (b >> 63)) | 0x8000000000000000ull);
}
SL_EX_HD uint64_t sl_ex_unkey_d(uint64_t k)
{
    return k ^ ((0ull - ((k >> 63) ^ 1ull)) | 0x8000000000000000ull);
}
#define SL_EX_KEY_NEG_INF_F 0x007fffffu
#define SL_EX_KEY_NEG_INF_D 0x000fffffffffffffull

#ifdef __cplusplus
}
#endif
#endif

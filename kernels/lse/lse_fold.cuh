/* lse/lse_fold.cuh: the device side of reproducible lse's register folds (lse.h's
 * sl_lse_rep1_fold: the one-pass terms of 16-bit values in [-16, 16] in two float64 registers
 * instead of exact/bins.cuh's shared-memory exponent bins): their warp-collective drain into the
 * block's (or the row's) float32 limbs, beside the bins' own drain. Used by the 1-D one pass
 * (lse.cu's lse_rep1_kernel) and the row kernels (rows/rows.cu's lse_row_exact).
 * SUMLAB_LSE_REP1_BINS (a CMake option, kernels/README.md), for measuring: 1 sends every term
 * of 16-bit input into the bins, as before the folds; 0, the default: the folds.
 * SUMLAB_LSE_REP1_FOLDS_F32 (the same), for measuring: 1 gives float32 input's 1-D one pass and
 * rows (rows.cu's lse_row_exact) the folds too (its terms, sl_lm_expf_core's, lie in the same
 * float32 range for |x| <= 16: multiples of 2^-47 below 2^24); 0, the default: float32 terms all
 * into the bins. */
#ifndef SL_LSE_FOLD_CUH
#define SL_LSE_FOLD_CUH
#include "exact/bins.cuh"
#include "lse/lse.h"

#ifndef SUMLAB_LSE_REP1_BINS
#define SUMLAB_LSE_REP1_BINS 0
#endif
#define SL_LSE_REP1_FOLDS (!SUMLAB_LSE_REP1_BINS)
#ifndef SUMLAB_LSE_REP1_FOLDS_F32
#define SUMLAB_LSE_REP1_FOLDS_F32 0
#endif
/* the folds' integers (sl_lse_rep1_fold_units): their units' positions from limb 0's 2^-149 */
#define SL_LSE_REP1_POS_F1 139    /* h: 2^-10 */
#define SL_LSE_REP1_POS_F2 102    /* l: 2^-47 */
static_assert(SACC_BIN_FLUSH + 1u <= SL_LSE_REP1_FOLD_MAX, "the folds' bounds hold between two drains");

/* The warp's sum of the lanes' k (|k| < 2^52: exact/bins.cuh's sacc_warp_sum_i64), added by
 * lane 0 into the limbs s_acc at position pos. */
__device__ __forceinline__ void lse_fold_spill_warp(long long k, int pos, unsigned mask,
                                                    unsigned long long *s_acc)
{
    const long long w = sacc_warp_sum_i64(mask, k);
    if ((threadIdx.x & 31u) == 0u) sacc_spill_i64(w, pos, s_acc);
}

/* Warp-collective (every lane of mask, at a warp-uniform point): the folds f1, f2 as integers
 * (exact) into the limbs s_acc, and reset. */
__device__ __forceinline__ void lse_fold_drain(double &f1, double &f2, unsigned mask,
                                               unsigned long long *s_acc)
{
    int64_t h, l;
    sl_lse_rep1_fold_units(f1, f2, &h, &l);
    f1 = SL_LSE_REP1_FOLD_C;
    f2 = 0.0;
    if (__any_sync(mask, (h | l) != 0)) {
        lse_fold_spill_warp(h, SL_LSE_REP1_POS_F1, mask, s_acc);
        lse_fold_spill_warp(l, SL_LSE_REP1_POS_F2, mask, s_acc);
    }
}

/* A vector of values v[0..W) (16-bit input widened, H16 = 1; float32 input, H16 = 0): their terms
 * (sl_lse_rep1_termx's) into the folds when `in` (every one within +-SL_LSE_REP1_FOLD_X,
 * sl_lse_rep1_fold_in: a NaN is not; the caller tests them as it widens them), else each into its
 * exponent bin (my, stride B). */
template <int W, int H16 = 1>
__device__ __forceinline__ void lse_fold_or_bins(const float (&v)[W], bool in, double &f1, double &f2,
                                                 double *my, unsigned B, unsigned &sg)
{
    if (in) {
#pragma unroll
        for (int k = 0; k < W; k++) sl_lse_rep1_fold(&f1, &f2, (double)sl_lse_rep1_termx_in(v[k], H16));
    } else {
#pragma unroll
        for (int k = 0; k < W; k++) sacc_bin_take(sl_lse_rep1_termx(v[k], H16), my, B, sg);
    }
}
#endif

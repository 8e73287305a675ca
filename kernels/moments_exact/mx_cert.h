/* moments_exact/mx_cert.h: the certified form of `correct` on float32 and 16-bit input, host and
 * device: S1 = sum x and S2 = sum x^2 as 4-fold binned states (exact/binned.h's float64 bins,
 * x and x^2 exact doubles), each an exact value V with the exact sum within n units of its
 * lowest fold (sl_rsum_state_certify_f64's bound: one deposit per input, each dropping less
 * than a unit), and the mean, variance or standard deviation rounded at the two ends of what
 * those intervals allow (mx_round.h's exact rational rounding on the folds as limbs). When both
 * ends round to the same bits, so does the exact result (the rounding is monotone): certified.
 * Else the caller computes exactly (moments_exact.cu: the exact kernel runs after).
 * Assumptions: as exact/binned.h and mx_round.h; n < 2^40; the input format is not float64
 * (x^2 of a float32 is below 2^256 and exact in a double: one deposit per input).
 *
 * Why two ends suffice: mean = S1 / n is increasing in S1; var = (n S2 - S1^2) / (n (n - ddof))
 * is increasing in S2 and decreasing in |S1|, so over the box its least value is at the lower
 * S2 with the S1 end of larger |S1|, its largest at the upper S2 with the least |S1| (0 when the
 * S1 interval holds 0); std = sqrt(var) is increasing in var. A corner outside what the
 * formulas allow (n S2 < S1^2, a negative S2) rounds to NaN and so fails the agreement, never
 * passes it. NaN/Inf inputs, n <= ddof and n = 1 (var exactly 0) decide the result alone.
 * Limbs: one scale s per call, S1 = A 2^-s, S2 = B 2^-2s, s the least that keeps both lowest
 * folds integral: a few limbs each (the folds span ~200 bits), so the last block's two lanes
 * round quickly. */
#ifndef SL_MX_CERT_H
#define SL_MX_CERT_H
#include "moments_exact/mx_round.h"
#include "exact/binned.h"

#define SL_MXC_K 4          /* folds of each state */

/* The state's folds (K = 4, W = 40: fold at position p weighs 2^(40 p - 1074) a unit) plus adj
 * units of the lowest fold, as signed 32-bit limbs limb[0..L) of units 2^-sc (sc chosen so that
 * every offset is >= 0); returns L (<= Lmax). Carries deferred (sl_mx_finish normalises). */
SL_MX_HD int sl_mxc_limbs(const sl_rsum_state *st, int sc, int64_t adj, int64_t *limb, int Lmax)
{
    int L = (SL_RSUM_F64_W * st->top - SL_SACC_SCALE_F64 + sc + 96) / 32 + 2;
    if (L > Lmax) L = Lmax;
    for (int i = 0; i < L; i++) limb[i] = 0;
    for (int k = 0; k < SL_MXC_K; k++) {
        const int off = SL_RSUM_F64_W * (st->top - k) - SL_SACC_SCALE_F64 + sc;
        sl_rsum_limbs_add(limb, off, st->lo[k]);
        sl_rsum_limbs_add(limb, off + 32, st->hi[k]);
    }
    sl_rsum_limbs_add(limb, SL_RSUM_F64_W * (st->top - (SL_MXC_K - 1)) - SL_SACC_SCALE_F64 + sc, adj);
    return L;
}

/* The sign (-1, 0, 1) of the limbs limb[0..L) (normalised in place). */
SL_MX_HD int sl_mxc_sign(int64_t *limb, int L)
{
    sl_sacc_normalise(limb, L);
    if (limb[L - 1] < 0) return -1;
    for (int i = 0; i < L; i++)
        if (limb[i]) return 1;
    return 0;
}

/* The exact sums' bound in units of the lowest fold: n (one deposit per input), 0 when the
 * lowest fold is position 0 (nothing dropped). */
SL_MX_HD int64_t sl_mxc_bound(const sl_rsum_state *st, uint64_t n)
{
    return st->top - (SL_MXC_K - 1) >= 1 ? (int64_t)n : 0;
}

/* One end of the certified interval, rounded to dt: side < 0 the least value the intervals allow,
 * side > 0 the largest. st1: the state of every input (its flags are the inputs'); st2: of the
 * finite inputs' squares (unused for the mean). */
SL_MX_HDN double sl_mxc_end(int what, const sl_rsum_state *st1, const sl_rsum_state *st2,
                            uint64_t n, uint32_t ddof, sl_dtype dt, int side)
{
    int64_t s1[SL_SACC_LIMBS_MAX], s2[SL_MX_S2_LIMBS_F64];
    const int low1 = st1->top - (SL_MXC_K - 1), low2 = st2->top - (SL_MXC_K - 1);
    const int64_t b1 = sl_mxc_bound(st1, n), b2 = sl_mxc_bound(st2, n);
    const unsigned special = SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF;
    if (what == SL_MX_MEAN) {
        const int sc = SL_SACC_SCALE_F64 - SL_RSUM_F64_W * low1;
        const int L1 = sl_mxc_limbs(st1, sc, side < 0 ? -b1 : b1, s1, SL_SACC_LIMBS_MAX);
        return sl_mx_finish(what, s1, L1, s2, 1, sc, n, ddof, st1->flags, dt);
    }
    if ((st1->flags & special) || n <= (uint64_t)ddof || n == 1) {   /* n = 1: var exactly 0 */
        s1[0] = s2[0] = 0;                           /* decided by the flags or n alone */
        return sl_mx_finish(what, s1, 1, s2, 1, 0, n, ddof, st1->flags, dt);
    }
    const int c1 = SL_SACC_SCALE_F64 - SL_RSUM_F64_W * low1;
    const int c2 = (SL_SACC_SCALE_F64 - SL_RSUM_F64_W * low2 + 1) >> 1;   /* ceil, both signs */
    const int sc = c1 > c2 ? c1 : c2;
    int L1;
    if (side < 0) {                                  /* S1's end of larger |S1| */
        L1 = sl_mxc_limbs(st1, sc, 0, s1, SL_SACC_LIMBS_MAX);
        const int sg = sl_mxc_sign(s1, L1);
        L1 = sl_mxc_limbs(st1, sc, sg < 0 ? -b1 : b1, s1, SL_SACC_LIMBS_MAX);
    } else {                                         /* S1's end of least |S1|, or 0 */
        L1 = sl_mxc_limbs(st1, sc, -b1, s1, SL_SACC_LIMBS_MAX);
        const int lo = sl_mxc_sign(s1, L1);
        L1 = sl_mxc_limbs(st1, sc, b1, s1, SL_SACC_LIMBS_MAX);
        const int hi = sl_mxc_sign(s1, L1);
        if (lo > 0) L1 = sl_mxc_limbs(st1, sc, -b1, s1, SL_SACC_LIMBS_MAX);
        else if (hi >= 0) for (int i = 0; i < L1; i++) s1[i] = 0;
    }
    /* S2 in units 2^-2sc */
    const int L2 = sl_mxc_limbs(st2, 2 * sc, side < 0 ? -b2 : b2, s2, SL_MX_S2_LIMBS_F64);
    return sl_mx_finish(what, s1, L1, s2, L2, sc, n, ddof, st1->flags, dt);
}

/* The states of x[0..n) (float32, float16 or bfloat16) as the kernel builds them (both are
 * functions of the multiset of inputs alone): st1 of every x, st2 of every x^2 (when sq). */
static inline void sl_mxc_states(const void *x, uint64_t n, sl_dtype dt, int sq, sl_rsum_state *st1,
                                 sl_rsum_state *st2)
{
    sl_rsum_thr_f64k4 a1, a2;
    sl_rsum_init_f64k4(&a1);
    sl_rsum_init_f64k4(&a2);
    for (uint64_t i = 0; i < n; i++) {
        const double v = dt == SL_F32 ? (double)((const float *)x)[i]
                                      : sl_half_to_double(((const uint16_t *)x)[i], dt);
        sl_rsum_take1_f64k4(&a1, v);
        if (sq) sl_rsum_take1_f64k4(&a2, v * v);
    }
    sl_rsum_to_state_f64k4(&a1, st1);
    sl_rsum_to_state_f64k4(&a2, st2);
}

/* The kernel's decision on x[0..n) (n >= 1): 1 with *r the correctly rounded result when the
 * certificate holds, 0 when the exact kernel runs. */
static inline int sl_mxc_certify(int what, const void *x, uint64_t n, uint32_t ddof, sl_dtype dt,
                                 double *r)
{
    sl_rsum_state st1, st2;
    sl_mxc_states(x, n, dt, what != SL_MX_MEAN, &st1, &st2);
    return sl_rsum_certify_agree(sl_mxc_end(what, &st1, &st2, n, ddof, dt, -1),
                                 sl_mxc_end(what, &st1, &st2, n, ddof, dt, 1), r);
}
#endif

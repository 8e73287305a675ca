/* moments_exact/mx_fast64.h: the cheap certified first pass of the `correct` mean, variance and
 * standard deviation on float64 input, host and device: shifted sums kept as float64 pairs with
 * every addition's error captured (TwoSum), a rigorous error box around them, a double-double
 * test of the box, and mx_round.h's exact rounding at the box's two ends (var/std: mx_cert.h's
 * argument, as mx_fast.h for the narrower formats); when neither settles it the caller runs the
 * exact kernel.
 *
 * Sums. c = the first input; each input x gives x - c = dh + dl exactly (Fast2Sum with the
 * larger magnitude first), and the pairs
 *   (s1, c1): Fast2Sum(s1, dh) -> (s1, e), c1 = (c1 + e) + dl;
 *   (s2, c2): p = dh dh, pe = dh dh - p (exact but for underflow), t = fl(2 dh dl + fl(pe)) by
 *             two fmas, Fast2Sum(s2, p) -> (s2, e2), c2 = (c2 + e2) + t;
 * two pairs merge by TwoSum of their s and two plain additions into c. Every Fast2Sum (the
 * operands ordered by magnitude, three operations, against TwoSum's six) and TwoSum is exact, so
 * by telescoping S1d = sum (x - c) = s1 + sum e + sum dl and sum p = s2 + sum e2 exactly; only
 * the c's are rounded. The variance is shift-invariant: var = (n S2d - S1d^2) / (n (n - ddof)),
 * S2d = sum (x - c)^2, mx_cert.h's formula (increasing in S2, decreasing in |S1|).
 * Box (u = 2^-53; n < 2^40 and h < 2^24, h >= the steps of any term: a thread's elements after it
 * plus every merge above it; every sum finite):
 *  - |dl| <= u |dh|. Each TwoSum error |e| <= u |s_new| and |s_new| <= (1 + gamma_h) times the
 *    sum of |dh| below it; each dh lies below at most h TwoSums, so sum |e| <= u (1 + gamma_h) h A1,
 *    A1 = sum |dh|; c1 is a rounded sum of the e and dl terms in which a term meets at most 3h
 *    additions: |c1 - sum(e + dl)| <= gamma_3h u (h (1 + gamma_h) + 1) A1 <= 4 (h + 1)^2 u^2 A1.
 *  - A1 <= sqrt(n Q) (Cauchy-Schwarz), Q = sum dh^2 <= sum p (1 + u) + n 2^-1074 (p + pe equals dh^2
 *    within 2^-1075: the fma's result is the exact remainder rounded, absolute error at most half
 *    the least subnormal, 0 above 2^-969; |pe| <= u p + 2^-1075), and sum p <= s2 / (1 - 2^-28)
 *    (its TwoSum chain): Q <= Qb = s2 (1 + 2^-20) + n 2^-1073.
 *  - S2d = sum (p + t) + R: |t - (2 dh dl + pe)| <= u |2 dh dl + pe| + 2^-1075 <= 3.01 u^2 dh^2
 *    + 2^-1074 (|2 dh dl| <= 2 u dh^2, |pe| <= u dh^2 + 2^-1075), dl^2 <= u^2 dh^2, so
 *    |R| <= 4.01 u^2 Q + n 2^-1073 (with the 2^-1075 of pe). The c2 terms: sum |e2| <= u (1 + gamma_h)
 *    h sum p and |t| <= 3.01 u p + 2^-1074; each meets at most 3h additions:
 *    |S2d - (s2 + c2)| <= 4 (h + 3)^2 u^2 sum p + 1.4 n 2^-1072.
 *  - e1 = fl(6 (h + 1)^2 2^-106 fl(sqrt(n Qb))) and e2 = fl(6 (h + 3)^2 2^-106 Qb) + n 2^-1070 (each
 *    sum and root one step up; 6 / 4 covers the few roundings of the products). Every end s1 + c1 -+ e1 and
 *    s2 + c2 -+ e2 is a sum of three doubles, formed exactly in the limbs of mx_round.h's float64
 *    scales (2^-1074 for S1, 2^-2148 for S2): no outward rounding needed. The least S2 end is
 *    clipped at 0; the S1 ends give the largest |S1| (an end, the one of larger magnitude when
 *    the interval holds 0) and the least (0 when the interval holds 0).
 * Not certified: non-finite sums (a NaN or Inf input, or an overflow: the exact kernel decides),
 * n < 2 or n <= ddof (var/std), n >= 2^40, h >= 2^24. The mean takes its own decision on the
 * pairs' S1 (sl_mxd_mean_decide, below).
 * Assumptions: IEEE 754 binary64, round to nearest even, gradual underflow, fma correctly rounded
 * (C99 fma, CUDA's), no contraction (-ffp-contract=off, --fmad=false). */
#ifndef SL_MX_FAST64_H
#define SL_MX_FAST64_H
#include "moments_exact/mx_round.h"

typedef struct {
    double s1, c1, s2, c2;
} sl_mxd_acc;

SL_MX_HD void sl_mxd_init(sl_mxd_acc *a)
{
    a->s1 = a->c1 = a->s2 = a->c2 = 0.0;
}

/* a + b = *s + *e exactly (Knuth's TwoSum; no overflow). */
SL_MX_HD void sl_mxd_two_sum(double a, double b, double *s, double *e)
{
    const double t = a + b, bb = t - a;
    *e = (a - (t - bb)) + (b - bb);
    *s = t;
}

/* a + b = *s + *e exactly, the larger magnitude first (Dekker's Fast2Sum; no overflow). */
SL_MX_HD void sl_mxd_fast_two_sum(double a, double b, double *s, double *e)
{
    const int sw = fabs(b) > fabs(a);
    const double big = sw ? b : a, small = sw ? a : b;
    const double t = big + small;
    *e = small - (t - big);
    *s = t;
}

/* One input x with the shift c. */
SL_MX_HD void sl_mxd_take(sl_mxd_acc *a, double x, double c)
{
    double dh, dl, e, e2;
    sl_mxd_fast_two_sum(x, -c, &dh, &dl);
    sl_mxd_fast_two_sum(a->s1, dh, &a->s1, &e);
    a->c1 = (a->c1 + e) + dl;
    const double p = dh * dh, t = fma(dh + dh, dl, fma(dh, dh, -p));
    sl_mxd_fast_two_sum(a->s2, p, &a->s2, &e2);
    a->c2 = (a->c2 + e2) + t;
}

/* b into a (one step of every term's chain). */
SL_MX_HD void sl_mxd_merge(sl_mxd_acc *a, const sl_mxd_acc *b)
{
    double e, e2;
    sl_mxd_two_sum(a->s1, b->s1, &a->s1, &e);
    a->c1 = (a->c1 + b->c1) + e;
    sl_mxd_two_sum(a->s2, b->s2, &a->s2, &e2);
    a->c2 = (a->c2 + b->c2) + e2;
}

/* The error bounds e1 (of s1 + c1) and e2 (of s2 + c2) for chain length h; 0 when the pass cannot
 * decide (see above; the mean takes n >= 1 and e1 alone: sl_mxd_mean_decide). */
SL_MX_HD int sl_mxd_bounds(int what, const sl_mxd_acc *a, uint64_t n, uint64_t h, uint32_t ddof,
                           double *e1, double *e2)
{
    if (n == 0 || (what != SL_MX_MEAN && (n < 2 || n <= (uint64_t)ddof))) return 0;
    if (n >= ((uint64_t)1 << 40) || h >= ((uint64_t)1 << 24)) return 0;
    if (!isfinite(a->s1) || !isfinite(a->c1) || !isfinite(a->s2) || !isfinite(a->c2)) return 0;
    if (!(a->s2 >= 0.0)) return 0;                               /* not reached: a sum of squares */
    const double qb = nextafter(a->s2 * (1.0 + 0x1p-20) + (double)n * 0x1p-1073, HUGE_VAL);
    const double a1 = nextafter(sqrt((double)n * qb), HUGE_VAL);   /* >= sqrt(n Q) */
    const double k1 = (double)(h + 1) * (double)(h + 1) * 6.0 * 0x1p-106;
    const double k3 = (double)(h + 3) * (double)(h + 3) * 6.0 * 0x1p-106;
    *e1 = k1 * a1;
    *e2 = nextafter(k3 * qb + (double)n * 0x1p-1070, HUGE_VAL);
    return isfinite(*e1) && isfinite(*e2);
}

/* v (a double: a multiple of 2^-1074) added into limbs at units 2^-sc, times sg (+1 or -1). */
SL_MX_HD void sl_mxd_add(int64_t *limb, double v, int sc, int sg)
{
    int idx = 0, neg = 0;
    uint64_t c[3] = {0, 0, 0};
    if (!sl_sacc_split_f64(v, sc, &idx, c, &neg)) return;
    const int64_t m = (neg ^ (sg < 0)) ? -1 : 0;
    for (int j = 0; j < 3; j++) limb[idx + j] += ((int64_t)c[j] ^ m) - m;
}

/* The sign of normalised limbs: -1, 0 or 1. */
SL_MX_HD int sl_mxd_sign(const int64_t *limb, int L)
{
    if (limb[L - 1] < 0) return -1;
    for (int i = 0; i < L; i++)
        if (limb[i]) return 1;
    return 0;
}

/* The box end rounded to float64 (side < 0: the least value, > 0: the largest), exactly
 * (sl_mx_finish on the end's limbs). */
SL_MX_HDN double sl_mxd_end(int what, const sl_mxd_acc *a, double e1, double e2, int side,
                            uint64_t n, uint32_t ddof)
{
    int64_t lo[SL_SACC_LIMBS_F64], hi[SL_SACC_LIMBS_F64], s2[SL_MX_S2_LIMBS_F64];
    for (int i = 0; i < SL_SACC_LIMBS_F64; i++) lo[i] = hi[i] = 0;
    for (int i = 0; i < SL_MX_S2_LIMBS_F64; i++) s2[i] = 0;
    sl_mxd_add(lo, a->s1, SL_SACC_SCALE_F64, 1);
    sl_mxd_add(lo, a->c1, SL_SACC_SCALE_F64, 1);
    for (int i = 0; i < SL_SACC_LIMBS_F64; i++) hi[i] = lo[i];
    sl_mxd_add(lo, e1, SL_SACC_SCALE_F64, -1);
    sl_mxd_add(hi, e1, SL_SACC_SCALE_F64, 1);
    sl_sacc_normalise(lo, SL_SACC_LIMBS_F64);
    sl_sacc_normalise(hi, SL_SACC_LIMBS_F64);
    const int slo = sl_mxd_sign(lo, SL_SACC_LIMBS_F64), shi = sl_mxd_sign(hi, SL_SACC_LIMBS_F64);
    int64_t *s1;
    if (slo >= 0) {                                  /* S1 >= 0: |S1| from lo up to hi */
        s1 = side < 0 ? hi : lo;
    } else if (shi <= 0) {                           /* S1 <= 0: |S1| from |hi| up to |lo| */
        s1 = side < 0 ? lo : hi;
    } else if (side > 0) {                           /* 0 inside: the least |S1| is 0 */
        for (int i = 0; i < SL_SACC_LIMBS_F64; i++) lo[i] = 0;
        s1 = lo;
    } else {                                         /* the end of larger magnitude: lo + hi's sign */
        for (int i = 0; i < SL_SACC_LIMBS_F64; i++) s2[i] = lo[i] + hi[i];
        sl_sacc_normalise(s2, SL_SACC_LIMBS_F64);
        s1 = sl_mxd_sign(s2, SL_SACC_LIMBS_F64) >= 0 ? hi : lo;
        for (int i = 0; i < SL_SACC_LIMBS_F64; i++) s2[i] = 0;
    }
    sl_mxd_add(s2, a->s2, SL_MX_S2_SCALE_F64, 1);
    sl_mxd_add(s2, a->c2, SL_MX_S2_SCALE_F64, 1);
    sl_mxd_add(s2, e2, SL_MX_S2_SCALE_F64, side < 0 ? -1 : 1);
    sl_sacc_normalise(s2, SL_MX_S2_LIMBS_F64);
    if (sl_mxd_sign(s2, SL_MX_S2_LIMBS_F64) < 0)     /* S2 >= 0: the least end clipped at 0 */
        for (int i = 0; i < SL_MX_S2_LIMBS_F64; i++) s2[i] = 0;
    const double r = sl_mx_finish(what, s1, SL_SACC_LIMBS_F64, s2, SL_MX_S2_LIMBS_F64,
                                  SL_SACC_SCALE_F64, n, ddof, 0u, SL_F64);
    /* a negative n S2 - S1^2 at the least corner (NaN): the variance is >= 0 */
    return side < 0 && r != r ? 0.0 : r;
}


/* 1 when every real of [h + l - e, h + l + e] rounds to h (h positive, normal, below 2^1000;
 * e >= 0): with 2^k <= h < 2^(k+1), the midpoint above h lies 2^(k-53) from it, the one below
 * 2^(k-53) too, or 2^(k-54) when h is a power of two; the interval must stay strictly between
 * them: l + e and l - e (each rounded once, within a relative 2^-53) against the half spacings
 * shrunk by 2^-40. */
SL_MX_HD int sl_mxd_inside(double h, double l, double e)
{
    if (!(h >= 0x1p-1000 && h < 0x1p1000)) return 0;
    uint64_t b;
    memcpy(&b, &h, sizeof b);
    const int k = (int)((b >> 52) & 0x7ffu) - 1023;
    const double above = sl_pow2_f64(k - 53) * (1.0 - 0x1p-40);
    const double below = (b & 0xfffffffffffffull) ? above : 0.5 * above;
    return l + e < above && l - e > -below;
}

/* The quick decision, before sl_mxd_end's exact rounding of the box's two ends: the variance
 * from the pairs in double-double arithmetic with a rigorous bound on its error, in a few dozen
 * float64 operations. u = 2^-53; every operation rounds to nearest, fma is exact before its one
 * rounding, and the range checks keep every product and quotient normal, so a rounding's
 * error is at most u times its result's magnitude.
 *  - A = S1's pair (Ah, Al) and B = S2's (Bh, Bl), by TwoSum: exact, |Al| <= u |Ah|,
 *    |Bl| <= u Bh. The exact S1 lies within e1 of A and S2 within e2 of B (sl_mxd_bounds).
 *  - P = A^2 / n: ph = fl(Ah Ah), pl = fma(Ah, Ah, -ph) exact; m = fl(pl + fl(2 Ah Al)) leaves
 *    |A^2 - (ph + m)| <= Al^2 + 2.01 u^2 ph + 3.01 u^2 ph <= 6.1 u^2 ph; qh = fl(ph / n) and its
 *    remainder rq = fma(-qh, n, ph) exact (|rq| <= u |qh| n); ql = fl(fl(rq + m) / n) is within
 *    2.01 u |rq + m| / n <= 8.1 u^2 |qh| of (rq + m) / n: |A^2 / n - (qh + ql)| <= 14.2 u^2 |qh|.
 *  - N = B - P: (nh, ne) = TwoSum(Bh, -qh) exact, nl = fl(fl(ne + Bl) - ql), within
 *    u^2 (2.01 |nh| + 2.01 Bh + 4.03 |qh|) of ne + Bl - ql. With S1's and S2's ranges, the exact
 *    numerator S2 - S1^2 / n lies within
 *      E_N = e2 + (2 |A| e1 + e1^2) / n + u^2 (2.01 |nh| + 2.01 Bh + 18.3 |qh|)
 *    of nh + nl, which E_N's float64 form bounds (2^-104 = 4 u^2 per term, 24 u^2 for qh; the
 *    factor 1 + 2^-40 covers its own dozen roundings). The numerator is renormalised by TwoSum
 *    into (Nh, Nl) and must exceed 2 E_N (a variance near 0 goes to the exact ends).
 *  - v = N / (n - ddof): vq = fl(Nh / d), rv = fma(-vq, d, Nh) exact, and (vh, vl) = TwoSum(vq,
 *    fl(fl(rv + Nl) / d)) (exact: vh the double nearest vh + vl): the exact variance lies within
 *    E_v = E_N / d + 4.05 u^2 vh of vh + vl (2^-103 = 8 u^2).
 *  - std: sq = sqrt(vh) correctly rounded, its remainder dr = fma(-sq, sq, vh) exact; with
 *    w = dr + vl (|w| <= 3.01 u vh), sqrt(vh + vl) = sq + w / (2 sq) - w^2 / (8 sq^3) + ..., and
 *    fl(fl(w) / (2 sq)) is within 3.03 u^2 sq of w / (2 sq), the rest within 1.14 u^2 sq; (sh, sl)
 *    their TwoSum (exact); E_v moves the root by at most E_v / sh (E_v <= 2^-55 vh):
 *    E_s = E_v / sh + 8 u^2 sh.
 * When every value of the final interval rounds to its head (sl_mxd_inside), the head is the
 * correctly rounded var or std: 1 with *r; else 0 (sl_mxd_end decides). The range checks: |Ah|
 * in [2^-300, 2^300] or 0, Bh in [2^-600, 2^600], the result normal. */
SL_MX_HDN int sl_mxd_quick(int what, const sl_mxd_acc *a, double e1, double e2, uint64_t n, uint32_t ddof,
                          double *r)
{
    if (what == SL_MX_MEAN) return 0;                /* sl_mxd_mean_decide */
    const double nd = (double)n, dd = (double)(n - ddof), up = 1.0 + 0x1p-40;
    double Ah, Al, Bh, Bl;
    sl_mxd_two_sum(a->s1, a->c1, &Ah, &Al);
    sl_mxd_two_sum(a->s2, a->c2, &Bh, &Bl);
    const double aA = fabs(Ah);
    if (!(aA == 0.0 || (aA >= 0x1p-300 && aA <= 0x1p300)) || !(Bh >= 0x1p-600 && Bh <= 0x1p600)) return 0;
    if (!(e1 >= 0.0 && e1 <= 0x1p300 && e2 >= 0.0 && e2 <= 0x1p600)) return 0;
    const double ph = Ah * Ah, pl = fma(Ah, Ah, -ph);
    const double m = pl + (2.0 * Ah) * Al;
    const double qh = ph / nd, rq = fma(-qh, nd, ph);
    const double ql = (rq + m) / nd;
    double nh, ne;
    sl_mxd_two_sum(Bh, -qh, &nh, &ne);
    const double nl = (ne + Bl) - ql;
    const double eN = (e2 + (2.0 * (aA + fabs(Al)) * e1 + e1 * e1) / nd +
                       0x1p-104 * (fabs(nh) + Bh + 6.0 * qh)) * up;
    double Nh, Nl;
    sl_mxd_two_sum(nh, nl, &Nh, &Nl);
    if (!(Nh > 2.0 * eN) || !(Nh >= 0x1p-900)) return 0;
    const double vq = Nh / dd, rv = fma(-vq, dd, Nh);
    double vh, vl;
    sl_mxd_two_sum(vq, (rv + Nl) / dd, &vh, &vl);
    const double ev = (eN / dd + 0x1p-103 * vh) * up;
    if (what == SL_MX_VAR) {
        if (!sl_mxd_inside(vh, vl, ev)) return 0;
        *r = vh;
        return 1;
    }
    if (!(ev <= 0x1p-55 * vh)) return 0;
    const double sq = sqrt(vh), dr = fma(-sq, sq, vh);
    double sh, sl;
    sl_mxd_two_sum(sq, (dr + vl) / (2.0 * sq), &sh, &sl);
    const double es = (ev / sh + 0x1p-103 * sh) * up;
    if (!sl_mxd_inside(sh, sl, es)) return 0;
    *r = sh;
    return 1;
}

/* The mean's decision on the same pairs (mxd_kernel and the row kernels of `correct` mean on
 * float64; c the shift, the first input): the exact mean is c + S1 / n with S1 within e1 of
 * A = s1 + c1 (sl_mxd_bounds). In double-double arithmetic (u = 2^-53; the range checks keep
 * every quotient normal and |Mh| >= 2^-960, so an underflowing operation's error, at most 2^-1075,
 * stays below the bound's slack):
 *  - (Ah, Al) = TwoSum(s1, c1); qh = fl(Ah / n), rq = fma(-qh, n, Ah) exact, ql = fl(fl(rq + Al)
 *    / n): |A / n - (qh + ql)| <= 2.01 u |rq + Al| / n <= 4.05 u^2 |qh| (|rq| <= u |qh| n,
 *    |Al| <= u |Ah|);
 *  - (mh, me) = TwoSum(c, qh) exact; fl(me + ql) within u^2 (|mh| + 2.01 |qh|) of me + ql; (Mh, Ml)
 *    their TwoSum (exact);
 *  - E_M = e1 / n + u^2 (|mh| + 6.06 |qh|) <= (e1 / n + 2^-104 (|mh| + 2 |qh|)) (1 + 2^-40).
 * When every real within E_M of Mh + Ml rounds to Mh (sl_mxd_inside on |Mh|: rounding to nearest
 * even is symmetric), Mh is the correctly rounded mean: 1 with *r; else 0 (the exact kernel). An
 * exact zero mean (-0 and +0 differ) and a non-finite sum are never decided here. */
SL_MX_HDN int sl_mxd_mean_decide(const sl_mxd_acc *a, double c, uint64_t n, uint64_t h, double *r)
{
    double e1, e2;
    if (!isfinite(c) || !sl_mxd_bounds(SL_MX_MEAN, a, n, h, 0, &e1, &e2)) return 0;
    const double nd = (double)n;
    double Ah, Al, mh, me, Mh, Ml;
    sl_mxd_two_sum(a->s1, a->c1, &Ah, &Al);
    const double aA = fabs(Ah);
    if (!(aA == 0.0 || (aA >= 0x1p-900 && aA <= 0x1p1000)) || !(fabs(c) <= 0x1p1000) || !(e1 <= 0x1p1000))
        return 0;
    const double qh = Ah / nd, rq = fma(-qh, nd, Ah);
    const double ql = (rq + Al) / nd;
    sl_mxd_two_sum(c, qh, &mh, &me);
    sl_mxd_two_sum(mh, me + ql, &Mh, &Ml);
    const double em = (e1 / nd + 0x1p-104 * (fabs(mh) + 2.0 * fabs(qh))) * (1.0 + 0x1p-40);
    const double sg = Mh < 0.0 ? -1.0 : 1.0;
    if (!(fabs(Mh) >= 0x1p-960) || !sl_mxd_inside(sg * Mh, sg * Ml, em)) return 0;
    *r = Mh;
    return 1;
}

/* The decision on the final pairs (chain length h): 1 with *r the correctly rounded var or std
 * when the quick decision settles it or both ends of the box round alike, else 0 (the caller
 * runs the exact kernel; the mean: sl_mxd_mean_decide). */
SL_MX_HDN int sl_mxd_certify(int what, const sl_mxd_acc *a, uint64_t n, uint64_t h,
                             uint32_t ddof, double *r)
{
    double e1, e2;
    if (what == SL_MX_MEAN || !sl_mxd_bounds(what, a, n, h, ddof, &e1, &e2)) return 0;
    if (sl_mxd_quick(what, a, e1, e2, n, ddof, r)) return 1;
    const double lo = sl_mxd_end(what, a, e1, e2, -1, n, ddof);
    const double hi = sl_mxd_end(what, a, e1, e2, 1, n, ddof);
    uint64_t bl, bh;
    memcpy(&bl, &lo, sizeof bl);
    memcpy(&bh, &hi, sizeof bh);
    if (bl != bh) return 0;
    *r = lo;
    return 1;
}

/* The twin's form on x[0..n) (float64, n >= 1): chunks of SL_MXD_CHUNK summed from 0, their pairs
 * merged in order; returns the chain length h = chunk + chunks + 1. */
#define SL_MXD_CHUNK 4096u
static inline uint64_t sl_mxd_sums_host(const double *x, uint64_t n, sl_mxd_acc *out)
{
    const double c = x[0];
    sl_mxd_acc tot, part;
    sl_mxd_init(&tot);
    for (uint64_t i = 0; i < n; i += SL_MXD_CHUNK) {
        const uint64_t e = n - i < SL_MXD_CHUNK ? n : i + SL_MXD_CHUNK;
        sl_mxd_init(&part);
        for (uint64_t k = i; k < e; k++) sl_mxd_take(&part, x[k], c);
        sl_mxd_merge(&tot, &part);
    }
    *out = tot;
    return SL_MXD_CHUNK + (n + SL_MXD_CHUNK - 1) / SL_MXD_CHUNK + 1;
}
static inline int sl_mxd_certify_host(int what, const double *x, uint64_t n, uint32_t ddof,
                                      double *r)
{
    if (n == 0) return 0;
    sl_mxd_acc tot;
    const uint64_t h = sl_mxd_sums_host(x, n, &tot);
    return sl_mxd_certify(what, &tot, n, h, ddof, r);
}
#endif

/* moments_exact/mx_fast.h: the cheap certified first pass of the `correct` variance and standard
 * deviation on float32 and 16-bit input, host and device: shifted plain float64 sums, a rigorous
 * error box around them, and mx_round.h's exact rounding at the box's two ends (mx_cert.h's
 * argument); when the ends round apart the caller runs the binned certified pass, then exact.
 *
 * Sums. c = the first input (exact in a double); each input x gives d' = fl((double)x - c), and
 * s1' = sum d', a1' = sum |d'|, s2' = sum fma(d', d', .) in float64, in any order in which no
 * term goes through more than h roundings (per-thread chain, tree levels, the final combine;
 * the fma counts once). The variance is shift-invariant: with S1d = sum (x - c), S2d =
 * sum (x - c)^2 (exact), var = (n S2d - S1d^2) / (n (n - ddof)), mx_cert.h's formula, so its
 * two-ends argument (increasing in S2, decreasing in |S1|; std = sqrt(var) increasing) holds
 * over any box that contains (S1d, S2d).
 * Box (u = 2^-53, gamma_k = k u / (1 - k u), every x finite, n < 2^40 and h < 2^39 so k u < 2^-13
 * for every k <= h + 3 below):
 *  - d' = d (1 + e) and d = d' (1 + e'), |e|, |e'| <= u (round to nearest; d is a multiple of
 *    2^-149, so d' = 0 iff d = 0 and a nonzero |d'| >= 2^-149 is normal in double).
 *  - Additions in round to nearest: fl(a + b) = (a + b)(1 + t), |t| <= u, with no underflow
 *    term; each term of s1' carries at most h factors: |s1' - sum d'| <= gamma_h A1, A1 = sum |d'|.
 *    So |s1' - S1d| <= gamma_h A1 + u A1 <= gamma_{h+1} A1.
 *  - The squares: d'^2 >= 2^-298 when d' != 0, every partial sum of s2' is 0 or >= 2^-298 (normal
 *    in double: the relative model holds for the fma too); |d'| < 2^129 so d'^2 < 2^258 and every
 *    sum < 2^298 (no overflow; a1' < 2^169). With Q = sum d'^2: |s2' - Q| <= gamma_h Q, and
 *    |Q - S2d| <= sum d'^2 |(1 + e')^2 - 1| <= gamma_2 Q, so |s2' - S2d| <= gamma_{h+2} Q
 *    <= gamma_{h+3} Q.
 *  - A1 and Q from the computed nonnegative sums: each term scaled by a factor >= (1 - u)^h >=
 *    1 - gamma_h, so A1 <= a1' / (1 - gamma_h) <= a1' (1 + 2^-11) (gamma_h < 2^-12), Q likewise.
 *  - gamma_k <= k u (1 + 2^-12) for k u <= 2^-13. So e1 = fl(fl(k u 1.001) a1') with k = h + 1
 *    (k u exact; the constant and two roundings: a factor >= 1.001 (1 - 2^-53)^3 > 1.0008 >
 *    (1 + 2^-12)(1 + 2^-11))
 *    bounds |s1' - S1d|, and e2 likewise with k = h + 3 and s2'.
 *  - Outward: fl(s1' -+ e1) then nextafter away (the exact difference lies within the rounded
 *    one's neighbours), then floor/ceil to a multiple of 2^-149 (S1) or 2^-298 (S2) (exact:
 *    ldexp and floor of doubles), so the ends are exact limbs at mx_round.h's float32 scales;
 *    the S2 box is clipped below at 0 (S2d >= 0). Ends of |S1| >= 2^200 or S2 >= 2^300 (beyond
 *    the limbs' room) are not certified; nor are non-finite sums (a NaN or Inf input makes a1'
 *    NaN or Inf: the existing path decides NaN/Inf), the mean, n < 2 or n <= ddof. Two NaN ends
 *    never agree: the largest corner (least |S1|, upper S2) has n S2 - S1^2 >= n S2d - S1d^2 >= 0.
 * Assumptions: IEEE 754 binary64, round to nearest even, fma correctly rounded (C99 fma, CUDA's),
 * no contraction (-ffp-contract=off, --fmad=false); the input format is not float64. */
#ifndef SL_MX_FAST_H
#define SL_MX_FAST_H
#include "moments_exact/mx_round.h"
#include "exact/binned.h"

/* One thread's sums: s1 = sum d, a1 = sum |d|, s2 = sum d^2 (fma), d = (double)x - c. */
typedef struct {
    double s1, a1, s2;
} sl_mxf_acc;

SL_MX_HD void sl_mxf_init(sl_mxf_acc *a)
{
    a->s1 = 0.0;
    a->a1 = 0.0;
    a->s2 = 0.0;
}

/* One input v (the input widened to double) with the shift c: one rounding per sum. */
SL_MX_HD void sl_mxf_take(sl_mxf_acc *a, double v, double c)
{
    const double d = v - c;
    a->s1 = a->s1 + d;
    a->a1 = a->a1 + fabs(d);
    a->s2 = fma(d, d, a->s2);
}

/* b's sums into a (one rounding per sum: one level of the chain). */
SL_MX_HD void sl_mxf_merge(sl_mxf_acc *a, const sl_mxf_acc *b)
{
    a->s1 = a->s1 + b->s1;
    a->a1 = a->a1 + b->a1;
    a->s2 = a->s2 + b->s2;
}

/* v to a multiple of 2^-sc: down (up > 0: up), after stepping v one double outward. */
SL_MX_HD double sl_mxf_grid(double v, int sc, int up)
{
    v = nextafter(v, up ? 0x1.fffffffffffffp+1023 : -0x1.fffffffffffffp+1023);   /* |v| < 2^301 */
    const double t = ldexp(v, sc);
    return ldexp(up ? ceil(t) : floor(t), -sc);
}

/* The box end rounded to dt (side < 0 the least value, > 0 the largest): S1 = e1v, S2 = e2v
 * (multiples of 2^-149 and 2^-298, |e1v| < 2^200, 0 <= e2v < 2^300) as limbs, mx_round.h. */
SL_MX_HDN double sl_mxf_end(int what, double e1v, double e2v, uint64_t n, uint32_t ddof,
                            sl_dtype dt)
{
    int64_t s1[SL_SACC_LIMBS_F32], s2[SL_MX_S2_LIMBS_F32];
    for (int i = 0; i < SL_SACC_LIMBS_F32; i++) s1[i] = 0;
    for (int i = 0; i < SL_MX_S2_LIMBS_F32; i++) s2[i] = 0;
    int idx, neg;
    uint64_t c[3];
    if (sl_sacc_split_f64(e1v, SL_SACC_SCALE_F32, &idx, c, &neg)) {
        const int64_t sg = -(int64_t)neg;
        for (int j = 0; j < 3; j++) s1[idx + j] += ((int64_t)c[j] ^ sg) - sg;
    }
    if (sl_sacc_split_f64(e2v, SL_MX_S2_SCALE_F32, &idx, c, &neg))
        for (int j = 0; j < 3; j++) s2[idx + j] += (int64_t)c[j];
    return sl_mx_finish(what, s1, SL_SACC_LIMBS_F32, s2, SL_MX_S2_LIMBS_F32, SL_SACC_SCALE_F32,
                        n, ddof, 0u, dt);
}

/* The box's corners from the final sums (chain length h): *lo (least value: the S1 end of
 * larger |S1| with the lower S2) and *hi (largest: the S1 end of least |S1|, 0 when the interval
 * holds 0, with the upper S2), each {S1, S2}; 0 when the pass cannot decide (see above). */
SL_MX_HD int sl_mxf_box(int what, const sl_mxf_acc *a, uint64_t n, uint64_t h, uint32_t ddof,
                        sl_dtype dt, double lo[2], double hi[2])
{
    if (what == SL_MX_MEAN || dt == SL_F64 || n < 2 || n <= (uint64_t)ddof) return 0;
    if (n >= ((uint64_t)1 << 40) || h >= ((uint64_t)1 << 39)) return 0;
    if (!isfinite(a->s1) || !isfinite(a->a1) || !isfinite(a->s2)) return 0;
    const double e1 = ((double)(h + 1) * 0x1p-53 * 1.001) * a->a1;
    const double e2 = ((double)(h + 3) * 0x1p-53 * 1.001) * a->s2;
    const double lo1 = sl_mxf_grid(a->s1 - e1, SL_SACC_SCALE_F32, 0);
    const double hi1 = sl_mxf_grid(a->s1 + e1, SL_SACC_SCALE_F32, 1);
    double lo2 = sl_mxf_grid(a->s2 - e2, SL_MX_S2_SCALE_F32, 0);
    const double hi2 = sl_mxf_grid(a->s2 + e2, SL_MX_S2_SCALE_F32, 1);
    if (lo2 < 0.0) lo2 = 0.0;
    if (!(fabs(lo1) < 0x1p200) || !(fabs(hi1) < 0x1p200) || !(hi2 < 0x1p300)) return 0;
    lo[0] = fabs(lo1) > fabs(hi1) ? lo1 : hi1;
    lo[1] = lo2;
    hi[0] = lo1 > 0.0 ? lo1 : hi1 < 0.0 ? hi1 : 0.0;
    hi[1] = hi2;
    return 1;
}

/* One float64 operation's exact value lies within one step of its rounded-to-nearest result r:
 * these step it outward (below: towards -Inf, above: towards +Inf). */
SL_MX_HD double sl_mxf_dn(double r) { return nextafter(r, -HUGE_VAL); }
SL_MX_HD double sl_mxf_up(double r) { return nextafter(r, HUGE_VAL); }

/* The quick decision on the box's corners (sl_mxf_box): the variance
 * (S2 - S1^2 / n) / (n - ddof) evaluated in float64 at both corners with every operation stepped
 * outward (sl_mxf_dn / sl_mxf_up), so [vlo, vhi] holds the exact variance of every point of the
 * box (increasing in S2, decreasing in |S1|; the true numerator n S2d - S1d^2 >= 0, so a negative
 * lower end is raised to +0); std: the correctly rounded sqrt stepped outward. Rounding to
 * nearest even in dt is monotone, so when both ends round to the same value that is the correctly
 * rounded var or std: 1 with *r, else 0 (the ends' exact rounding decides, sl_mxf_end). n < 2^40:
 * n and n - ddof are exact doubles; |S1| < 2^200 and S2 < 2^300: no overflow. A few float64
 * operations, against sl_mxf_end's multi-limb products and divisions; it fails only where
 * cancellation in S2 - S1^2 / n leaves fewer bits than the format needs, or near a rounding
 * boundary. */
SL_MX_HD int sl_mxf_quick(int what, const double lo[2], const double hi[2], uint64_t n,
                          uint32_t ddof, sl_dtype dt, double *r)
{
    const double nd = (double)n, den = (double)(n - ddof);
    const double q_lo = sl_mxf_up(sl_mxf_up(lo[0] * lo[0]) / nd);   /* >= S1^2 / n, largest |S1| */
    double t = sl_mxf_dn(hi[0] * hi[0]);
    if (!(t > 0.0)) t = 0.0;
    double q_hi = sl_mxf_dn(t / nd);                                /* <= S1^2 / n, least |S1| */
    if (!(q_hi > 0.0)) q_hi = 0.0;
    double v_lo = sl_mxf_dn(sl_mxf_dn(lo[1] - q_lo) / den);
    double v_hi = sl_mxf_up(sl_mxf_up(hi[1] - q_hi) / den);
    if (!(v_lo > 0.0)) v_lo = 0.0;
    if (!(v_hi >= v_lo)) return 0;                                  /* not reached */
    if (what == SL_MX_STD) {
        v_lo = sl_mxf_dn(sqrt(v_lo));
        if (!(v_lo > 0.0)) v_lo = 0.0;
        v_hi = sl_mxf_up(sqrt(v_hi));
    }
    return sl_rsum_certify_agree(sl_mx_round_double(v_lo, dt), sl_mx_round_double(v_hi, dt), r);
}

/* The mean's decision on the shifted sums (the row kernels of `correct` mean; c the shift, the
 * first input): the exact mean is c + S1d / n with S1d within e1 of s1' (the box's argument
 * above, the same e1), so [m_lo, m_hi] holds it when m_lo = dn(fl(c + dn(fl(lo1 / n)))) and m_hi
 * likewise upward, lo1 = dn(fl(s1' - e1)) and hi1 = up(fl(s1' + e1)) (each float64 operation's
 * exact value within one step of its result, subnormal results included; |S1d| < 2^169 and c
 * finite: no overflow). Rounding to nearest even in dt is monotone: both ends rounding to the
 * same bits give the correctly rounded mean: 1 with *r, else 0 (the exact kernel). An exact zero
 * mean is never decided here (m_lo < 0 < m_hi: -0 and +0 differ), nor a non-finite sum (a NaN
 * or Inf input), n = 0 or float64 input. */
SL_MX_HD int sl_mxf_mean_decide(const sl_mxf_acc *a, double c, uint64_t n, uint64_t h, sl_dtype dt,
                                double *r)
{
    if (dt == SL_F64 || n == 0 || n >= ((uint64_t)1 << 40) || h >= ((uint64_t)1 << 39)) return 0;
    if (!isfinite(a->s1) || !isfinite(a->a1) || !isfinite(c)) return 0;
    const double e1 = ((double)(h + 1) * 0x1p-53 * 1.001) * a->a1;
    const double lo1 = sl_mxf_dn(a->s1 - e1), hi1 = sl_mxf_up(a->s1 + e1), nd = (double)n;
    const double m_lo = sl_mxf_dn(c + sl_mxf_dn(lo1 / nd)), m_hi = sl_mxf_up(c + sl_mxf_up(hi1 / nd));
    return sl_rsum_certify_agree(sl_mx_round_double(m_lo, dt), sl_mx_round_double(m_hi, dt), r);
}

/* The decision on the final sums (chain length h): 1 with *r the correctly rounded var or std
 * when both ends of the box round alike (the quick float64 test first, then the ends' exact
 * rounding), else 0 (the caller runs the next pass). */
SL_MX_HDN int sl_mxf_certify(int what, const sl_mxf_acc *a, uint64_t n, uint64_t h,
                             uint32_t ddof, sl_dtype dt, double *r)
{
    double lo[2], hi[2];
    if (!sl_mxf_box(what, a, n, h, ddof, dt, lo, hi)) return 0;
    if (sl_mxf_quick(what, lo, hi, n, ddof, dt, r)) return 1;
    return sl_rsum_certify_agree(sl_mxf_end(what, lo[0], lo[1], n, ddof, dt),
                                 sl_mxf_end(what, hi[0], hi[1], n, ddof, dt), r);
}

/* The twin's sums of x[0..n) (float32, float16 or bfloat16, n >= 1): chunks of SL_MXF_CHUNK
 * summed from 0, their sums added in order; returns the chain length h = chunk + chunks + 1. */
#define SL_MXF_CHUNK 4096u
static inline uint64_t sl_mxf_sums_host(const void *x, uint64_t n, sl_dtype dt, sl_mxf_acc *out)
{
    const double c = dt == SL_F32 ? (double)((const float *)x)[0]
                                  : sl_half_to_double(((const uint16_t *)x)[0], dt);
    sl_mxf_acc tot, part;
    sl_mxf_init(&tot);
    for (uint64_t i = 0; i < n; i += SL_MXF_CHUNK) {
        const uint64_t e = n - i < SL_MXF_CHUNK ? n : i + SL_MXF_CHUNK;
        sl_mxf_init(&part);
        for (uint64_t k = i; k < e; k++) {
            const double v = dt == SL_F32 ? (double)((const float *)x)[k]
                                          : sl_half_to_double(((const uint16_t *)x)[k], dt);
            sl_mxf_take(&part, v, c);
        }
        sl_mxf_merge(&tot, &part);
    }
    *out = tot;
    return SL_MXF_CHUNK + (n + SL_MXF_CHUNK - 1) / SL_MXF_CHUNK + 1;
}

/* The mean's decision on x[0..n) from sl_mxf_sums_host's sums (the tests' model of the rows). */
static inline int sl_mxf_mean_decide_host(const void *x, uint64_t n, sl_dtype dt, double *r)
{
    if (n == 0) return 0;
    sl_mxf_acc tot;
    const uint64_t h = sl_mxf_sums_host(x, n, dt, &tot);
    const double c = dt == SL_F32 ? (double)((const float *)x)[0]
                                  : sl_half_to_double(((const uint16_t *)x)[0], dt);
    return sl_mxf_mean_decide(&tot, c, n, h, dt, r);
}

/* The twin's decision on x[0..n) (sl_mxf_certify on sl_mxf_sums_host's sums). */
static inline int sl_mxf_certify_host(int what, const void *x, uint64_t n, uint32_t ddof,
                                      sl_dtype dt, double *r)
{
    if (n == 0) return 0;
    sl_mxf_acc tot;
    const uint64_t h = sl_mxf_sums_host(x, n, dt, &tot);
    return sl_mxf_certify(what, &tot, n, h, ddof, dt, r);
}
#endif

/* sl_lse.h: the exact reference of the log-sum-exp operation `lse` (sl_lse.c): log(sum exp(x_i))
 * correctly rounded to the input format, filling an sl_reference as the sum's reference does. */
#ifndef SL_LSE_REF_H
#define SL_LSE_REF_H
#include "sl_reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* lse = log(sum exp(x_i)) of n values of dt, correctly rounded (nearest, ties to even) to dt.
 * Special values: any NaN -> NaN; else any +Inf -> +Inf; -Inf inputs are ignored (their exp is
 * 0); all -Inf and n = 0 -> -Inf. ref needs no initialisation; release it with
 * sl_reference_clear after every call. Fields:
 *   rounded      lse rounded once to dt (the `exact` row)
 *   sum          lse correctly rounded to the most bits that the interval which decided the
 *                rounding certifies (the largest q at which both ends round alike; q >= the
 *                format's precision p: about 42 bits on the fast path, p + 64 on the MPFR path),
 *                at precision q: every bit of it is a bit of lse's correct rounding, so a
 *                printout of sum shows no uncertain digit; +-Inf / NaN as above; exact (M) for
 *                one counted value
 *   rounded_f64, rounded_f32  the interval's midpoint rounded to double / float (certain only
 *                where dt is that format)
 *   finite       1 when rounded is finite; overflow 0 (lse <= max + log n never overflows)
 *   cond         Blanchard, Higham & Higham's condition number of lse:
 *                sum |x_i| exp(x_i) / (sum exp(x_i) |lse|) (+Inf for lse = 0 with a non-zero x_i,
 *                0 when every counted x_i is 0); NaN when the result is not finite
 *   maxabs       max |x_i| over the values other than -Inf (the bounds' spread term); abssum and
 *                sumabs as the sum's reference gives them (+Inf with an Inf input)
 * Method: M = the exact maximum; fast path: t_i = exp(x_i - M) in double (libm exp, assumed within
 * 2 ulps, argument rounded once) summed in double-double, per chunk of 2^16 values (on up to
 * `threads` threads), the chunks' sums merged in order (the same bits for every thread count);
 * |S - sum t_i| <= S (D 2^-53 + 2^-51 + n' 2^-104) + n 2^-1073 (D = max |x_i - M| of the terms;
 * n' = n + 2c for c > 1 chunks: each merge's adds, n' = n for one); M + log of both ends of S's interval
 * in MPFR with directed roundings; when both round to the same value in dt, that is the result.
 * Otherwise (float64 input nearly always) the same in x87 extended precision where long double
 * has 64 bits (expl assumed within 2 ulps, TwoSum in long double, chunked alike: |S - sum t_i| <=
 * S (Aw 2^-64 + 2^-62 + n' 2^-126), Aw = sum |x_i - M| t_i / S). Then (rarely) Ziv's strategy on MPFR: every term at
 * working precision w = p + 64 + log2 n, the error bound of the same form in 2^-w, w raised by 64
 * until both ends round alike. An exact lse (one counted value: lse = M) is returned as such.
 * Cost: the double path ~10 ns per value, the long double path ~30 ns; the MPFR path ~1.4 us per
 * value per round (2^24 values: about 25 s). 0, or -1 with err (bad dtype, x NULL with n > 0, memory). */
int sl_reference_lse(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                     sl_err *err);

/* The same at a given Ziv start precision (0: the default) with the fast path disabled when
 * mpfr_only is 1: the tests compare both paths. */
int sl_reference_lse_ex(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                        int mpfr_only, long start_prec, sl_err *err);

/* The softmax figures beside an lse result v computed elsewhere (a variant's, an anchor's), from
 * the reference ref of the same x (sl_reference_lse): the lse L (ref->sum, within 2^-q |L| of the
 * exact lse, q its precision) and the maximum M of x. Fields (from L, each rounded once to double,
 * so denom within 2^-q |L| (1.01) + 2^-53 relative of the exact denominator, and the others
 * within 2^-q |L| absolute of their own exact value before that rounding; NaN where the
 * reference is not finite):
 *   denom     the softmax denominator sum exp(x_i - M) = exp(L - M), in [1, n]
 *   p_rel     |expm1(L - v)|: the relative error of EVERY normalised output p_i = exp(x_i - v)
 *             (computed exactly from v) against the exact exp(x_i - L) (their ratio is exp(L - v))
 *   p_abs     the largest absolute error of the p_i: p_max p_rel, p_max = exp(M - L) the largest
 *             exact p_i
 *   sum_p_err sum_i p_i - 1 = exp(L - v) - 1: how far the outputs' sum is from 1 (signed)
 * v = +Inf makes every p_i 0 (p_rel 1, sum_p_err -1); v = -Inf every p_i +Inf; v NaN: NaN. Returns 0, or -1 with err (x NULL with n > 0). */
typedef struct {
    double denom, p_rel, p_abs, sum_p_err;
} sl_lse_softmax;
int sl_lse_softmax_of(const sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, double v,
                      sl_lse_softmax *out, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

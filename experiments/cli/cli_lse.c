/* cli_lse.c: what `sumlab reduce --op lse` and `sumlab judge --op lse` print under the table,
 * after S: what S is for lse, the softmax denominator, and each result's error in the normalised
 * outputs p_i = exp(x_i - result) (reference/sl_lse.h's sl_lse_softmax_of). */
#include <math.h>
#include <mpfr.h>
#include "sl_cli.h"
#include "sl_lse.h"

int sl_cli_lse_head(FILE *f, const sl_reference *ref, const void *x, sl_err *err)
{
    sl_lse_softmax sm;
    if (sl_lse_softmax_of(ref, x, ref->n, ref->dtype, ref->rounded, &sm, err)) return -1;
    if (ref->finite && mpfr_number_p(ref->sum))
        fprintf(f, "  (lse: S is log(sum exp(x_i)) correctly rounded to a precision of %ld bits, all\n"
                   "   that the reference's error interval certifies; the exact value is irrational)\n",
                (long)mpfr_get_prec(ref->sum));
    /* the denominator exp(L - M) inherits S's error: |S - L| <= 2^-q |L| (q its precision), so
     * its relative error is below 2^-q |L| (1.01) and its rounding to double's 2^-53: the digits
     * shown are the ones that error leaves certain */
    const double rel = ldexp(fabs(ref->rounded_f64), -(int)mpfr_get_prec(ref->sum)) * 1.01 + 0x1p-53;
    int digits = isfinite(sm.denom) ? (int)floor(-log10(rel)) : 17;
    digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
    fprintf(f, "\nsoftmax denominator sum exp(x_i - max) = %#.*g (%d significant digits: its relative "
               "error is below %.2g)\n"
               "normalised outputs p_i = exp(x_i - result), computed exactly from each result:\n",
            digits, sm.denom, digits, rel);
    fflush(f);
    return 0;
}

int sl_cli_lse_line(FILE *f, const sl_reference *ref, const void *x, const char *name, double v,
                    sl_err *err)
{
    sl_lse_softmax sm;
    if (sl_lse_softmax_of(ref, x, ref->n, ref->dtype, v, &sm, err)) return -1;
    fprintf(f, "  %s: every p_i off by %.3g (relative), largest |p_i - exact p_i| = %.3g, "
               "sum p_i - 1 = %.3g\n", name, sm.p_rel, sm.p_abs, sm.sum_p_err);
    return 0;
}

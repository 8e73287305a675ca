/* cli_lse.c: what `sumlab reduce --op lse` and `sumlab judge --op lse` print under the table,
 * after S: what S is for lse, the softmax denominator, and each result's error in the normalised
 * outputs p_i = exp(x_i - result) (reference/sl_lse.h's sl_lse_softmax_of). */
#include <math.h>
#include <mpfr.h>
#include "sl_cli.h"
#include "sl_lse.h"
#include "sumlab/half.h"

/* The values of x other than -Inf and NaN: one makes lse that value exactly; more make it
 * irrational (Lindemann-Weierstrass: a sum of exponentials of two or more values is no single
 * exponential of a rational). Stops counting at 2. */
static int counted(const void *x, uint64_t n, sl_dtype dt)
{
    int k = 0;
    for (uint64_t i = 0; i < n && k < 2; i++) {
        const double v = dt == SL_F64 ? ((const double *)x)[i]
                       : dt == SL_F32 ? (double)((const float *)x)[i]
                                      : sl_half_to_double(((const uint16_t *)x)[i], dt);
        k += v == v && v != -INFINITY;
    }
    return k;
}

int sl_cli_lse_head(FILE *f, const sl_reference *ref, const void *x, sl_err *err)
{
    if (!x && ref->n > 0) return sl_err_set(err, "lse softmax: no values");
    if (!ref->finite) {
        fprintf(f, "\nsoftmax: no normalised outputs: the exact lse is %s\n",
                isnan(ref->rounded) ? "NaN (a NaN input)" : ref->rounded > 0 ? "+Inf (a +Inf input)"
                                                         : "-Inf (no value other than -Inf)");
        fflush(f);
        return 0;
    }
    sl_lse_softmax sm;
    if (sl_lse_softmax_of(ref, x, ref->n, ref->dtype, ref->rounded, &sm, err)) return -1;
    if (counted(x, ref->n, ref->dtype) == 1)
        fprintf(f, "  (lse: S is exact: one value other than -Inf, and lse is that value)\n");
    else
        fprintf(f, "  (lse: S is log(sum exp(x_i)) correctly rounded to a precision of %ld bits, all\n"
                   "   that the reference's error interval certifies; the exact value is irrational)\n",
                (long)mpfr_get_prec(ref->sum));
    /* the denominator exp(L - M) inherits S's error: |S - L| <= 2^-q |L| (q its precision), so
     * its relative error is below 2^-q |L| (1.01) and its rounding to double's 2^-53: the digits
     * shown are the ones that error leaves certain */
    const double rel = ldexp(fabs(ref->rounded_f64), -(int)mpfr_get_prec(ref->sum)) * 1.01 + 0x1p-53;
    int digits = (int)floor(-log10(rel));
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
    if (!ref->finite) return 0;   /* (the head said why there is none) */
    sl_lse_softmax sm;
    if (sl_lse_softmax_of(ref, x, ref->n, ref->dtype, v, &sm, err)) return -1;
    fprintf(f, "  %s: every p_i off by %.3g (relative), largest |p_i - exact p_i| = %.3g, "
               "sum p_i - 1 = %.3g\n", name, sm.p_rel, sm.p_abs, sm.sum_p_err);
    return 0;
}

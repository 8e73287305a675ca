/* sl_norm.c: the exact reference of norm2 (sl_norm.h): the exact S2 = sum x^2 of sl_moments.c, its
 * square root rounded once to the input format by Ziv's loop.
 *
 * Implementation assumptions: as sl_moments.c (IEEE 754 binary32/binary64, round to nearest even,
 * no contraction, MPFR's default exponent range). S2 is exact at SL_MOM_PREC bits (an integer
 * multiple of 2^-2148 below 2^2089). The root is bracketed by sqrt rounded down and up at 128,
 * 256, ... bits until both ends round to the same value of the format: a rounding boundary (a
 * midpoint, the overflow threshold) is a binary number, and the root of S2 is one only when S2 is
 * its square; then the root has at most half S2's bits plus one and is computed exactly once the
 * precision reaches them, so the loop ends (an exact tie is met exactly and rounded to even). */
#include <math.h>
#include <string.h>
#include "sl_exact_impl.h"
#include "sl_norm.h"

#define SL_NORM_SUM_PREC 256      /* ref->sum of a root that is not a binary number */
#define SL_NORM_MAX_PREC 20000    /* Ziv's loop: far above any exact root's bits */

static int same_double(double a, double b)
{
    if (a != a || b != b) return a != a && b != b;
    return !memcmp(&a, &b, sizeof a);
}

/* sqrt(s2) (s2 >= 0, exact) rounded once to dt (Ziv's loop, see the header). */
static double round_root(mpfr_srcptr s2, sl_dtype dt)
{
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    double r = NAN;
    for (mpfr_prec_t P = 128; P <= SL_NORM_MAX_PREC; P *= 2) {
        mpfr_set_prec(lo, P);
        mpfr_set_prec(hi, P);
        mpfr_sqrt(lo, s2, MPFR_RNDD);
        mpfr_sqrt(hi, s2, MPFR_RNDU);
        const double a = sl_round_mpfr(lo, dt), b = sl_round_mpfr(hi, dt);
        if (same_double(a, b)) {
            r = a;
            break;
        }
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    SL_EXACT_REQUIRE(r == r, "Ziv's loop did not settle the norm's rounding");
    return r;
}

static void set_special(sl_reference *ref, double v)
{
    mpfr_set_prec(ref->sum, 64);
    mpfr_set_d(ref->sum, v, MPFR_RNDN);
    ref->rounded = ref->rounded_f64 = ref->rounded_f32 = v;
    ref->finite = ref->overflow = 0;
    ref->cond = NAN;
}

int sl_reference_norm2(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                       sl_err *err)
{
    if (!ref) return sl_err_set(err, "sl_reference_norm2: ref is NULL");
    mpfr_t s2;
    mpfr_init2(s2, 4608);
    unsigned flags = 0;
    if (sl_reference_sumsq(ref, x, n, dt, threads ? threads : 1, s2, &flags, err)) {
        mpfr_clear(s2);
        return -1;
    }
    if (flags & SL_NORM_IN_INF) {           /* Inf wins over NaN (hypot, dnrm2) */
        set_special(ref, INFINITY);
        ref->s2 = INFINITY;
    } else if (flags & SL_NORM_IN_NAN) {
        set_special(ref, NAN);
        ref->s2 = NAN;
    } else {
        if (mpfr_zero_p(s2)) mpfr_set_zero(s2, 1);    /* +0 (n = 0, zeros of either sign) */
        ref->s2 = mpfr_get_d(s2, MPFR_RNDU);
        /* ref->sum: the root itself when exact (at most half S2's bits plus one), else 256 bits */
        const mpfr_prec_t need = mpfr_zero_p(s2) ? MPFR_PREC_MIN : mpfr_min_prec(s2);
        mpfr_set_prec(ref->sum, need / 2 + 2 > SL_NORM_SUM_PREC ? need / 2 + 2 : SL_NORM_SUM_PREC);
        if (mpfr_sqrt(ref->sum, s2, MPFR_RNDN) != 0) {
            mpfr_set_prec(ref->sum, SL_NORM_SUM_PREC);
            mpfr_sqrt(ref->sum, s2, MPFR_RNDN);
            ref->sum_relerr = ldexp(1.0, -SL_NORM_SUM_PREC);   /* rounded to nearest once */
        }
        ref->rounded_f64 = round_root(s2, SL_F64);
        ref->rounded_f32 = round_root(s2, SL_F32);
        ref->rounded = dt == SL_F64 ? ref->rounded_f64 : dt == SL_F32 ? ref->rounded_f32
                                                                       : round_root(s2, dt);
        ref->finite = isfinite(ref->rounded) != 0;
        ref->overflow = !ref->finite;
        ref->cond = ref->finite ? 1.0 : NAN;
    }
    mpfr_clear(s2);
    return 0;
}

/* tlse_ref.c: the lse reference (reference/sl_lse.c) against a plain MPFR computation at two
 * precisions (200 and 400 bits: sum exp(x_i - max) with exact differences, log, + max, rounded to
 * the format), in every format, on random data of several spreads and sizes and on edge data
 * (n = 0, 1, all equal, -Inf masks, +Inf, NaN, huge and very negative values); the fast path and the
 * MPFR-only path give the same bits; the approximation `sum` holds lse correctly rounded to its own
 * precision (no uncertain bit); the condition number against its formula. */
#include <math.h>
#include <mpfr.h>
#include "sl_lse.h"
#include "sl_test.h"
#include "sumlab/half.h"

static const sl_dtype dts[4] = {SL_F32, SL_F64, SL_F16, SL_BF16};

static double val(const void *x, sl_dtype dt, size_t i)
{
    if (dt == SL_F64) return ((const double *)x)[i];
    if (dt == SL_F32) return ((const float *)x)[i];
    return sl_half_to_double(((const uint16_t *)x)[i], dt);
}
static void put(void *x, sl_dtype dt, size_t i, double v)
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else if (dt == SL_F32) ((float *)x)[i] = (float)v;
    else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
}
static double round_to(mpfr_srcptr v, sl_dtype dt)
{
    if (dt == SL_F64) return mpfr_get_d(v, MPFR_RNDN);
    if (dt == SL_F32) return (double)mpfr_get_flt(v, MPFR_RNDN);
    return sl_round_mpfr_half(v, dt);
}

static int prec_of(sl_dtype dt) { return dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8; }

/* log sum exp(x) at precision P, rounded to dt (specials as the reference's rules); q (when not
 * NULL and the value is finite) gets the value at P bits, rounded to q's precision */
static double plain_q(const void *x, size_t n, sl_dtype dt, mpfr_prec_t P, mpfr_ptr q)
{
    double M = -INFINITY;
    int nan = 0, pinf = 0;
    for (size_t i = 0; i < n; i++) {
        double v = val(x, dt, i);
        if (isnan(v)) nan = 1;
        else if (v == INFINITY) pinf = 1;
        else if (v > M) M = v;
    }
    if (nan) return NAN;
    if (pinf) return INFINITY;
    if (M == -INFINITY) return -INFINITY;
    mpfr_t S, d, t;
    mpfr_inits2(P, S, t, (mpfr_ptr)0);
    mpfr_init2(d, 2200);
    mpfr_set_zero(S, 1);
    for (size_t i = 0; i < n; i++) {
        double v = val(x, dt, i);
        if (v == -INFINITY) continue;
        mpfr_set_d(d, v, MPFR_RNDN);
        mpfr_sub_d(d, d, M, MPFR_RNDN); /* exact at 2200 bits */
        mpfr_exp(t, d, MPFR_RNDN);
        mpfr_add(S, S, t, MPFR_RNDN);
    }
    mpfr_log(S, S, MPFR_RNDN);
    mpfr_add_d(S, S, M, MPFR_RNDN);
    if (q) mpfr_set(q, S, MPFR_RNDN);
    double r = round_to(S, dt);
    mpfr_clears(S, d, t, (mpfr_ptr)0);
    return r;
}

static double plain(const void *x, size_t n, sl_dtype dt, mpfr_prec_t P) { return plain_q(x, n, dt, P, NULL); }

static int same(double a, double b) { return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b)); }

static void check_array(const void *x, size_t n, sl_dtype dt, const char *what)
{
    sl_reference ref, ref2;
    sl_err err = {0};
    int rc = sl_reference_lse(&ref, x, n, dt, 1, &err);
    CHECK(rc == 0, "%s: %s", what, err.msg);
    int rc2 = sl_reference_lse_ex(&ref2, x, n, dt, 1, 1, 0, &err);
    CHECK(rc2 == 0, "%s (mpfr only): %s", what, err.msg);
    mpfr_t v400;   /* the plain value at 400 bits (within 2^-390 of lse) */
    mpfr_init2(v400, 400);
    const double p200 = plain(x, n, dt, 200), p400 = plain_q(x, n, dt, 400, v400);
    CHECK(same(p200, p400), "%s dt %d n %zu: the plain computation disagrees with itself", what, dt, n);
    CHECK(same(ref.rounded, p400), "%s dt %d n %zu: reference %a, MPFR at 400 bits %a", what, dt, n,
          ref.rounded, p400);
    CHECK(same(ref2.rounded, p400), "%s dt %d n %zu: MPFR-only reference %a, expected %a", what, dt,
          n, ref2.rounded, p400);
    CHECK(ref.finite == (isfinite(p400) != 0), "%s: finite %d for %a", what, ref.finite, p400);
    /* sum holds certain bits only: lse correctly rounded to its precision, at least the format's
     * (both paths; 400 bits round to it as lse does: the plain value is within 2^-390 of lse) */
    for (int k = 0; k < 2 && isfinite(p400); k++) {
        const sl_reference *r = k ? &ref2 : &ref;
        mpfr_t q;
        mpfr_init2(q, mpfr_get_prec(r->sum));
        mpfr_set(q, v400, MPFR_RNDN);
        CHECK(mpfr_equal_p(q, r->sum) && mpfr_get_prec(r->sum) >= prec_of(dt) &&
                  mpfr_get_prec(r->sum) < 400,
              "%s dt %d n %zu%s: sum %s at %ld bits is not lse correctly rounded to them (%s)", what,
              dt, n, k ? " (mpfr only)" : "", mpfr_get_str(NULL, NULL, 16, 0, r->sum, MPFR_RNDN),
              (long)mpfr_get_prec(r->sum), mpfr_get_str(NULL, NULL, 16, 0, q, MPFR_RNDN));
        mpfr_clear(q);
    }
    mpfr_clear(v400);
    sl_reference_clear(&ref);
    sl_reference_clear(&ref2);
}

static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }
static double gauss(void)
{
    double u = unif() + 0x1p-60, v = unif();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    static unsigned char buf[8 * 5000];
    const size_t sizes[] = {1, 2, 3, 31, 1000, 4099};
    const double sigmas[] = {0.1, 1.0, 5.0, 30.0};
    for (int f = 0; f < 4; f++) {
        const sl_dtype dt = dts[f];
        const double smax = dt == SL_F16 ? 8.0 : 1e9;
        for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
            for (size_t b = 0; b < sizeof sigmas / sizeof sigmas[0]; b++) {
                const size_t n = sizes[a];
                if (sigmas[b] > smax) continue;
                for (size_t i = 0; i < n; i++) put(buf, dt, i, gauss() * sigmas[b]);
                check_array(buf, n, dt, "normal");
                /* shifted far negative and far positive (naive's underflow / overflow) */
                const double shift = dt == SL_F16 ? 1000.0 : dt == SL_BF16 ? 1e4 : 2e4;
                for (size_t i = 0; i < n; i++) put(buf, dt, i, gauss() * sigmas[b] - shift);
                check_array(buf, n, dt, "very negative");
                for (size_t i = 0; i < n; i++) put(buf, dt, i, gauss() * sigmas[b] + shift);
                check_array(buf, n, dt, "very positive");
                /* -Inf masks on a third of the values */
                for (size_t i = 0; i < n; i++)
                    put(buf, dt, i, (sl_test_rand64() % 3 == 0) ? -INFINITY : gauss() * sigmas[b]);
                check_array(buf, n, dt, "masked");
            }
        /* edge data */
        sl_reference ref;
        sl_err err = {0};
        CHECK(sl_reference_lse(&ref, buf, 0, dt, 1, &err) == 0 && ref.rounded == -INFINITY,
              "n = 0 gives -Inf (got %a)", ref.rounded);
        sl_reference_clear(&ref);
        for (size_t i = 0; i < 7; i++) put(buf, dt, i, -INFINITY);
        check_array(buf, 7, dt, "all -Inf");
        put(buf, dt, 3, 1.5);
        check_array(buf, 7, dt, "one value among -Inf");
        CHECK(sl_reference_lse(&ref, buf, 7, dt, 1, &err) == 0 && ref.rounded == 1.5,
              "one value among -Inf is that value (got %a)", ref.rounded);
        sl_reference_clear(&ref);
        put(buf, dt, 5, INFINITY);
        check_array(buf, 7, dt, "+Inf");
        put(buf, dt, 1, NAN);
        check_array(buf, 7, dt, "NaN and +Inf");
        for (size_t n = 1; n <= 64; n *= 2) {     /* all equal: c + log n */
            for (size_t i = 0; i < n; i++) put(buf, dt, i, 0.75);
            check_array(buf, n, dt, "all equal 0.75");
            for (size_t i = 0; i < n; i++) put(buf, dt, i, 0.0);
            check_array(buf, n, dt, "all zero");
        }
        put(buf, dt, 0, dt == SL_F16 ? 60000.0 : dt == SL_F64 ? 1e300 : 1e38);
        put(buf, dt, 1, dt == SL_F16 ? 60000.0 : dt == SL_F64 ? 1e300 : 1e38);
        check_array(buf, 2, dt, "two huge");
        /* one dominant logit */
        for (size_t i = 0; i < 500; i++) put(buf, dt, i, gauss());
        put(buf, dt, 17, 40.0);
        check_array(buf, 500, dt, "dominant");
    }
    /* several chunks of the fast paths (2^16 values each, merged in order): the correctly rounded
     * value, and the same bits (value, its approximation, cond) for 1, 2 and 3 threads */
    {
        const size_t n = 3 * ((size_t)1 << 16) + 5;
        unsigned char *big = malloc(n * 8);
        CHECK(big != NULL, "out of memory");
        for (int f = 0; big && f < 2; f++) {
            const sl_dtype dt = f ? SL_F64 : SL_F32;
            for (int m = 0; m < 2; m++) {
                for (size_t i = 0; i < n; i++)
                    put(big, dt, i, m && sl_test_rand64() % 4 == 0 ? -INFINITY : gauss() * 5.0 + (m ? 30.0 : -3.0));
                check_array(big, n, dt, m ? "chunks, masked" : "chunks");
                sl_reference r1, rt;
                sl_err err = {0};
                CHECK(sl_reference_lse(&r1, big, n, dt, 1, &err) == 0, "%s", err.msg);
                for (unsigned th = 2; th <= 3; th++) {
                    CHECK(sl_reference_lse(&rt, big, n, dt, th, &err) == 0, "%s", err.msg);
                    CHECK(same(rt.rounded, r1.rounded) && same(rt.rounded_f64, r1.rounded_f64) &&
                              same(rt.cond, r1.cond) && mpfr_equal_p(rt.sum, r1.sum),
                          "dt %d: %u threads give %a (cond %a), 1 thread %a (cond %a)", dt, th, rt.rounded_f64,
                          rt.cond, r1.rounded_f64, r1.cond);
                    sl_reference_clear(&rt);
                }
                sl_reference_clear(&r1);
            }
        }
        free(big);
    }
    /* cond: sum |x| e^x / (sum e^x |lse|) against a direct evaluation */
    {
        double x[3] = {1.0, -2.0, 0.5};
        sl_reference ref;
        sl_err err = {0};
        CHECK(sl_reference_lse(&ref, x, 3, SL_F64, 1, &err) == 0, "%s", err.msg);
        double S = exp(1.0) + exp(-2.0) + exp(0.5), l = log(S);
        double k = (exp(1.0) + 2.0 * exp(-2.0) + 0.5 * exp(0.5)) / (S * fabs(l));
        CHECK(fabs(ref.cond - k) <= 1e-12 * k, "cond %.17g, expected %.17g", ref.cond, k);
        CHECK(ref.maxabs == 2.0, "maxabs %g", ref.maxabs);
        sl_reference_clear(&ref);
    }
    return sl_test_done("tlse_ref");
}

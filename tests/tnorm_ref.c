/* tnorm_ref.c: the exact reference of norm2 (reference/sl_norm.c) against plain MPFR: the exact
 * sum of squares (every square and add exact at 4500 bits, checked), its root rounded once at the
 * precision the format has at that magnitude (subnormal results at fewer bits), +Inf past the
 * largest finite value; every format, random data, the cases (2^20 values of 1e20 in
 * float32 finite, 1e-25 values nonzero, subnormals, float16 values > 256 whose squares overflow
 * float16, float64 1e+-200 and the range ends), exact roots, specials (Inf wins over NaN) and the
 * thread count. */
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>
#include "sl_norm.h"
#include "sl_test.h"
#include "sumlab/half.h"

static const sl_dtype fmts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};

static void fmt_params(sl_dtype dt, int *p, int *emin, int *emax)
{
    if (dt == SL_F64) { *p = 53; *emin = -1022; *emax = 1023; }
    else if (dt == SL_F32) { *p = 24; *emin = -126; *emax = 127; }
    else { *p = sl_half_prec(dt); *emin = sl_half_emin(dt); *emax = sl_half_emax(dt); }
}

static void store(void *buf, size_t i, double v, sl_dtype dt)
{
    if (dt == SL_F64) ((double *)buf)[i] = v;
    else if (dt == SL_F32) ((float *)buf)[i] = (float)v;
    else ((uint16_t *)buf)[i] = sl_half_from_double(v, dt);
}

static double load(const void *buf, size_t i, sl_dtype dt)
{
    if (dt == SL_F64) return ((const double *)buf)[i];
    if (dt == SL_F32) return (double)((const float *)buf)[i];
    return sl_half_to_double(((const uint16_t *)buf)[i], dt);
}

/* The oracle: sqrt(sum x^2) of n finite values of dt rounded once to `to` (plain MPFR). */
static double oracle(const void *x, size_t n, sl_dtype dt, sl_dtype to)
{
    int p, emin, emax;
    fmt_params(to, &p, &emin, &emax);
    mpfr_t s, t, r;
    mpfr_inits2(4500, s, (mpfr_ptr)0);
    mpfr_init2(t, 120);
    mpfr_set_zero(s, 1);
    for (size_t i = 0; i < n; i++) {
        int tern = mpfr_set_d(t, load(x, i, dt), MPFR_RNDN);
        tern |= mpfr_sqr(t, t, MPFR_RNDN);
        tern |= mpfr_add(s, s, t, MPFR_RNDN);
        if (tern) {
            fprintf(stderr, "oracle: inexact sum of squares\n");
            abort();
        }
    }
    double out;
    if (mpfr_zero_p(s)) out = 0.0;
    else {
        mpfr_init2(r, 8);
        mpfr_sqrt(r, s, MPFR_RNDZ);              /* the exponent: |root| in [2^(e-1), 2^e) */
        const long e = mpfr_get_exp(r);
        long q = e - p;                          /* quantum of the result */
        if (q < emin - p + 1) q = emin - p + 1;
        const long prec = e - q;       /* < 1 only below the least subnormal (float64 data) */
        if (prec < 1) {                /* root < 2^(q-1) -> 0; above it (e = q) -> 2^q; a tie -> 0 */
            mpfr_set_prec(r, 200);
            mpfr_set_ui_2exp(r, 1, 2 * (q - 1), MPFR_RNDN);
            out = e == q && mpfr_cmp(s, r) > 0 ? ldexp(1.0, (int)q) : 0.0;
        } else {
            mpfr_set_prec(r, prec);
            mpfr_sqrt(r, s, MPFR_RNDN);
            out = mpfr_get_d(r, MPFR_RNDN);      /* exact: a value of dt's grid, or 2^(emax+1) */
        }
        if (out > ldexp(2.0 - ldexp(1.0, 1 - p), emax)) out = INFINITY;
        mpfr_clear(r);
    }
    mpfr_clears(s, t, (mpfr_ptr)0);
    return out;
}

static int same_bits(double a, double b)
{
    if (a != a || b != b) return a != a && b != b;
    return !memcmp(&a, &b, sizeof a);
}

/* The reference of x against the oracle (finite inputs), and its fields. */
static void check(const char *what, const void *x, size_t n, sl_dtype dt, unsigned threads)
{
    sl_reference ref;
    sl_err err = {0};
    const int rc = sl_reference_norm2(&ref, x, n, dt, threads, &err);
    CHECK(rc == 0, "%s: %s", what, err.msg);
    if (rc == 0) {
        const double want = oracle(x, n, dt, dt);
        CHECK(same_bits(ref.rounded, want), "%s (%s, n %zu): reference %a, MPFR %a", what,
              sl_dtype_name(dt), n, ref.rounded, want);
        CHECK(ref.finite == (isfinite(want) != 0) && ref.overflow == !isfinite(want),
              "%s (%s): finite %d overflow %d", what, sl_dtype_name(dt), ref.finite, ref.overflow);
        CHECK(!ref.finite || ref.cond == 1.0, "%s: cond %g", what, ref.cond);
        const double w64 = oracle(x, n, dt, SL_F64), w32 = oracle(x, n, dt, SL_F32);
        CHECK(same_bits(ref.rounded_f64, w64) && same_bits(ref.rounded_f32, w32),
              "%s (%s): rounded_f64 %a (MPFR %a), rounded_f32 %a (MPFR %a)", what,
              sl_dtype_name(dt), ref.rounded_f64, w64, ref.rounded_f32, w32);
        /* ref->sum rounds to rounded_f64 */
        CHECK(same_bits(mpfr_get_d(ref.sum, MPFR_RNDN), w64) || isinf(w64), "%s: sum %a", what,
              mpfr_get_d(ref.sum, MPFR_RNDN));
        if (dt != SL_F64 && ref.finite) {
            CHECK(same_bits(ref.rounded, sl_dtype_is_half(dt) ? sl_half_round(ref.rounded, dt)
                                                             : (double)(float)ref.rounded),
                  "%s: rounded is not a %s value", what, sl_dtype_name(dt));
        }
        CHECK(isinf(ref.s2) || ref.s2 >= ref.rounded_f64 * ref.rounded_f64 * (1 - 0x1p-50),
              "%s: s2 %a below the norm's square", what, ref.s2);
    }
    sl_reference_clear(&ref);
}

static void *alloc(size_t n, sl_dtype dt) { return calloc(n ? n : 1, sl_dtype_size(dt)); }

static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }

/* A special input: the reference's value. */
static void check_special(const char *what, const double *v, size_t n, sl_dtype dt, double want)
{
    void *x = alloc(n, dt);
    for (size_t i = 0; i < n; i++) store(x, i, v[i], dt);
    sl_reference ref;
    sl_err err = {0};
    CHECK(sl_reference_norm2(&ref, x, n, dt, 1, &err) == 0, "%s: %s", what, err.msg);
    CHECK(same_bits(ref.rounded, want) && same_bits(ref.rounded_f64, want), "%s (%s): %a, want %a",
          what, sl_dtype_name(dt), ref.rounded, want);
    CHECK(!ref.finite && !ref.overflow, "%s: finite %d overflow %d", what, ref.finite, ref.overflow);
    sl_reference_clear(&ref);
    free(x);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    char what[96];
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        const sl_dtype dt = fmts[f];
        int p, emin, emax;
        fmt_params(dt, &p, &emin, &emax);
        const double maxv = ldexp(2.0 - ldexp(1.0, 1 - p), emax), minsub = ldexp(1.0, emin - p + 1);
        /* random data of several sizes and spreads */
        static const size_t sizes[] = {0, 1, 2, 3, 31, 1000, 4099};
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int spread = 0; spread < 3; spread++) {
                const size_t n = sizes[s];
                void *x = alloc(n, dt);
                for (size_t i = 0; i < n; i++) {
                    double v = (2 * unif() - 1);
                    if (spread == 1) v = ldexp(v, (int)(unif() * 20) - 10);
                    if (spread == 2) v = ldexp(v, (int)(unif() * (emax - emin)) + emin);
                    store(x, i, v, dt);
                }
                snprintf(what, sizeof what, "random n %zu spread %d", n, spread);
                check(what, x, n, dt, 1);
                free(x);
            }
        /* the range ends: least subnormals, the largest values (overflow of the norm), both */
        {
            const size_t n = 5;
            void *x = alloc(n, dt);
            for (size_t i = 0; i < n; i++) store(x, i, minsub * (double)(i + 1), dt);
            check("subnormals", x, n, dt, 1);
            store(x, 0, minsub, dt);
            check("one least subnormal", x, 1, dt, 1);
            for (size_t i = 0; i < n; i++) store(x, i, i % 2 ? -maxv : maxv, dt);
            check("largest values (overflow)", x, n, dt, 1);
            check("one largest value", x, 1, dt, 1);
            store(x, 1, minsub, dt);
            check("largest and least", x, 2, dt, 1);
            for (size_t i = 0; i < n; i++) store(x, i, ldexp(1.0, emax / 2 + 1), dt);
            check("squares beyond the format", x, n, dt, 1);
            for (size_t i = 0; i < n; i++) store(x, i, -0.0, dt);
            check("negative zeros", x, n, dt, 1);
            free(x);
        }
        /* exact roots: (3, 4) -> 5 in every format, 4 equal values -> 2|v| */
        {
            const double v[] = {3.0, -4.0};
            void *x = alloc(4, dt);
            for (size_t i = 0; i < 2; i++) store(x, i, v[i], dt);
            check("3, 4", x, 2, dt, 1);
            for (size_t i = 0; i < 4; i++) store(x, i, -1.5, dt);
            check("four times -1.5", x, 4, dt, 1);
            sl_reference ref;
            sl_err err = {0};
            sl_reference_norm2(&ref, x, 4, dt, 1, &err);
            CHECK(ref.rounded == 3.0 && mpfr_cmp_d(ref.sum, 3.0) == 0, "exact root %a", ref.rounded);
            sl_reference_clear(&ref);
            free(x);
        }
        /* specials: Inf wins over NaN; -Inf -> +Inf; NaN alone -> NaN */
        {
            const double a[] = {1.0, NAN, INFINITY}, b[] = {NAN, -INFINITY, 2.0}, c[] = {1.0, NAN, 3.0};
            check_special("NaN and Inf", a, 3, dt, INFINITY);
            check_special("NaN and -Inf", b, 3, dt, INFINITY);
            check_special("NaN", c, 3, dt, NAN);
        }
        /* the thread count does not change anything */
        {
            const size_t n = 300001;
            void *x = alloc(n, dt);
            for (size_t i = 0; i < n; i++) store(x, i, ldexp(2 * unif() - 1, (int)(unif() * 16) - 8), dt);
            sl_reference r1, r4;
            sl_err err = {0};
            CHECK(sl_reference_norm2(&r1, x, n, dt, 1, &err) == 0, "%s", err.msg);
            CHECK(sl_reference_norm2(&r4, x, n, dt, 4, &err) == 0, "%s", err.msg);
            CHECK(same_bits(r1.rounded, r4.rounded) && mpfr_equal_p(r1.sum, r4.sum),
                  "threads: %a vs %a", r1.rounded, r4.rounded);
            sl_reference_clear(&r1);
            sl_reference_clear(&r4);
            check("large n", x, 20000, dt, 1);
            free(x);
        }
    }
    /* the cases */
    {
        const size_t n = (size_t)1 << 20;
        float *x = malloc(n * sizeof *x);
        for (size_t i = 0; i < n; i++) x[i] = 1e20f;
        sl_reference ref;
        sl_err err = {0};
        CHECK(sl_reference_norm2(&ref, x, n, SL_F32, 2, &err) == 0, "%s", err.msg);
        CHECK(ref.finite && ref.rounded == (double)(float)(1024.0 * (double)1e20f),
              "2^20 x 1e20 float32: %a", ref.rounded);
        sl_reference_clear(&ref);
        for (size_t i = 0; i < n; i++) x[i] = 1e-25f;
        CHECK(sl_reference_norm2(&ref, x, n, SL_F32, 2, &err) == 0, "%s", err.msg);
        CHECK(ref.finite && ref.rounded == (double)(float)(1024.0 * (double)1e-25f),
              "2^20 x 1e-25 float32: %a", ref.rounded);
        sl_reference_clear(&ref);
        check("1e-25 float32", x, 4096, SL_F32, 1);
        free(x);
    }
    {
        uint16_t h[64];
        for (int i = 0; i < 64; i++) h[i] = sl_half_from_double(260.0 + i, SL_F16);
        check("float16 values > 256", h, 64, SL_F16, 1);
        sl_reference ref;
        sl_err err = {0};
        sl_reference_norm2(&ref, h, 64, SL_F16, 1, &err);
        CHECK(ref.finite && ref.rounded > 2000.0, "float16 > 256: %a", ref.rounded);
        sl_reference_clear(&ref);
    }
    {
        double d[200];
        for (int i = 0; i < 200; i++) d[i] = (i % 2 ? 1e200 : 1e-200) * (1 + i * 1e-3);
        check("float64 1e+-200", d, 200, SL_F64, 1);
        for (int i = 0; i < 200; i++) d[i] = 0x1p-1074 * (i + 1);
        check("float64 subnormals", d, 200, SL_F64, 1);
    }
    return sl_test_done("tnorm_ref");
}

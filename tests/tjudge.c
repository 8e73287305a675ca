/* tjudge.c: the exact sum written out exactly (sl_reference_exact_text: its hex form parses
 * back to S bit for bit, its decimal identifies S at S's precision, including subnormal,
 * huge and wide-range sums), the other operations' values that are no binary number (a
 * quotient, root or logarithm) as roundings within the stated bound of the value computed
 * here with MPFR, and values judged against it (sl_judge_value) on hand-computed cases. */
#include <float.h>
#include <math.h>
#include "sl_measure.h"
#include "sl_test.h"

/* S's text for x[0..n) of dtype dt: hex parses back exactly, decimal at b bits gives S, the
 * digit count is 1 + ceil(b log10 2); want_hex (may be NULL) the expected hex. */
static void check_text(const char *what, const void *x, uint64_t n, sl_dtype dt, const char *want_hex)
{
    sl_reference ref;
    sl_err err = {{0}};
    CHECK(sl_reference_compute(&ref, x, n, dt, &err) == 0, "%s: %s", what, err.msg);
    sl_exact_text S;
    CHECK(sl_reference_exact_text(&ref, &S) == 0, "%s: out of memory", what);
    if (want_hex) CHECK(!strcmp(S.hex, want_hex), "%s: hex %s, want %s", what, S.hex, want_hex);
    if (mpfr_number_p(ref.sum)) {
        mpfr_t h, d;
        mpfr_init2(h, 4096);
        char *end = NULL;
        int tern = mpfr_strtofr(h, S.hex, &end, 0, MPFR_RNDN);
        CHECK(tern == 0 && end && !*end, "%s: '%s' not read exactly (tern %d)", what, S.hex, tern);
        CHECK(mpfr_equal_p(h, ref.sum) && mpfr_signbit(h) == mpfr_signbit(ref.sum),
              "%s: hex '%s' is not S", what, S.hex);
        /* C's strtod reads the same text to S rounded to double */
        double sd = strtod(S.hex, NULL);
        CHECK(sd == ref.rounded_f64 || (sd == 0 && ref.rounded_f64 == 0), "%s: strtod('%s') = %a, S rounded %a",
              what, S.hex, sd, ref.rounded_f64);
        if (S.bits > 0) {
            mpfr_init2(d, (mpfr_prec_t)S.bits);
            mpfr_strtofr(d, S.dec, &end, 10, MPFR_RNDN);
            CHECK(mpfr_equal_p(d, ref.sum), "%s: decimal '%s' at %ld bits is not S", what, S.dec, S.bits);
            long want_digits = 1 + (long)ceil((double)S.bits * log10(2.0));
            CHECK(S.digits == want_digits, "%s: %ld digits, want %ld", what, S.digits, want_digits);
            /* the number of significant bits is right: S fits b bits, not b - 1 */
            CHECK(mpfr_min_prec(ref.sum) == (mpfr_prec_t)S.bits, "%s: bits %ld, mpfr_min_prec %ld", what,
                  S.bits, (long)mpfr_min_prec(ref.sum));
            mpfr_clear(d);
        }
        mpfr_clear(h);
    }
    sl_exact_text_free(&S);
    sl_reference_clear(&ref);
}

static void exact_text_cases(void)
{
    const double tiny = 0x1p-1074;
    double a[] = {1.0, 0x1p-60, -1.0};
    check_text("{1, 2^-60, -1}", a, 3, SL_F64, "0x1p-60");
    double sub[] = {tiny, 2 * tiny};
    check_text("f64 subnormal 3*2^-1074", sub, 2, SL_F64, "0x1.8p-1073");
    double sub1[] = {tiny};
    check_text("f64 2^-1074", sub1, 1, SL_F64, "0x1p-1074");
    double big[] = {DBL_MAX, DBL_MAX};
    check_text("f64 2 * DBL_MAX (beyond double)", big, 2, SL_F64, "0x1.fffffffffffffp+1024");
    double wide[] = {0x1p1000, 0x1p-1000, tiny, -0x1p-1060};
    check_text("f64 2^1000 + 2^-1000 + ... (2075 bits)", wide, 4, SL_F64, NULL);
    float fb[] = {FLT_MAX, FLT_MAX, FLT_MAX};
    check_text("f32 3 * FLT_MAX", fb, 3, SL_F32, NULL);
    float fs[] = {0x1p-149f, -0x1p-148f};
    check_text("f32 -2^-149", fs, 2, SL_F32, "-0x1p-149");
    float f3[] = {1.0f, 0x1p-24f, 0x1p-40f};
    check_text("f32 1 + 2^-24 + 2^-40", f3, 3, SL_F32, "0x1.0000010001p+0");
    double z[] = {1.0, -1.0};
    check_text("zero", z, 2, SL_F64, "0x0p+0");
    double nz[] = {-0.0};
    check_text("-0", nz, 1, SL_F64, "-0x0p+0");
    double in[] = {1.0, INFINITY};
    check_text("inf", in, 2, SL_F64, "inf");
    double na[] = {1.0, NAN};
    check_text("nan", na, 2, SL_F64, "nan");
    /* random inputs with a seed: normal-range and wide-range values, both signs */
    sl_test_rng = sl_test_seed();
    for (int k = 0; k < 20; k++) {
        double r[200];
        float rf[200];
        for (int i = 0; i < 200; i++) {
            uint64_t u = sl_test_rand64();
            double m = (double)(u >> 11) * 0x1p-53 + 0.5;
            int e = k < 10 ? (int)(u % 40) - 20 : (int)(u % 2000) - 1000;
            r[i] = ldexp(u & 1 ? -m : m, e);
            rf[i] = (float)ldexp(m, (int)(u % 60) - 30);
        }
        char what[64];
        snprintf(what, sizeof what, "random f64 #%d", k);
        check_text(what, r, 200, SL_F64, NULL);
        snprintf(what, sizeof what, "random f32 #%d", k);
        check_text(what, rf, 200, SL_F32, NULL);
    }
}

/* Operation op's text on x[0..n) (float64, ddof 1): approx as want_approx; exact values parse
 * back to ref.sum; roundings lie within 2^-rel_exp of want (computed here at 1024 bits). */
static void check_op_text(const char *opname, const double *x, uint64_t n, int want_approx, mpfr_srcptr want)
{
    const sl_operation *op = sl_op_find(opname);
    CHECK(op != NULL, "operation %s", opname);
    if (!op) return;
    sl_reference ref;
    sl_err err = {{0}};
    const void *in[2] = {x, NULL};
    const sl_op_params p = sl_op_params_default();
    CHECK(op->reference(&ref, in, n, SL_F64, &p, 1, &err) == 0, "%s: %s", opname, err.msg);
    sl_exact_text S;
    CHECK(sl_reference_exact_text(&ref, &S) == 0, "%s: out of memory", opname);
    CHECK(S.approx == want_approx, "%s: approx %d, want %d (hex %s)", opname, S.approx, want_approx, S.hex);
    mpfr_t h, d;
    mpfr_inits2(4096, h, d, (mpfr_ptr)0);
    char *end = NULL;
    CHECK(mpfr_strtofr(h, S.hex, &end, 0, MPFR_RNDN) == 0 && end && !*end, "%s: hex '%s'", opname, S.hex);
    if (!want_approx) {
        CHECK(S.rel_exp == 0 && mpfr_equal_p(h, ref.sum), "%s: hex '%s' is not the value", opname, S.hex);
    } else {
        CHECK(S.rel_exp >= 40, "%s: only 2^-%ld", opname, S.rel_exp);
        CHECK(S.bits >= 2 && S.bits <= S.rel_exp + 2, "%s: %ld bits shown for 2^-%ld", opname, S.bits, S.rel_exp);
        mpfr_sub(d, h, want, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_div(d, d, want, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        CHECK(mpfr_cmp_si_2exp(d, 1, -S.rel_exp) <= 0, "%s: '%s' is %.3g off (relative), stated 2^-%ld", opname,
              S.hex, mpfr_get_d(d, MPFR_RNDN), S.rel_exp);
        /* and the decimal reads back to the hex at the bits shown */
        mpfr_t b;
        mpfr_init2(b, (mpfr_prec_t)S.bits);
        mpfr_strtofr(b, S.dec, &end, 10, MPFR_RNDN);
        CHECK(mpfr_equal_p(b, h), "%s: decimal '%s' is not '%s'", opname, S.dec, S.hex);
        mpfr_clear(b);
    }
    mpfr_clears(h, d, (mpfr_ptr)0);
    sl_exact_text_free(&S);
    sl_reference_clear(&ref);
}

static void op_text_cases(void)
{
    mpfr_t w;
    mpfr_init2(w, 1024);
    const double a[] = {0.0, 0.0, 1.0};
    mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_div_ui(w, w, 3, MPFR_RNDN);                 /* mean 1/3 */
    check_op_text("mean", a, 3, 1, w);
    check_op_text("var", a, 3, 1, w);                /* (3 * 1 - 1) / (3 * 2) = 1/3 */
    mpfr_sqrt(w, w, MPFR_RNDN);
    check_op_text("std", a, 3, 1, w);
    mpfr_set_ui(w, 1, MPFR_RNDN);
    check_op_text("norm2", a, 3, 0, w);              /* sqrt(1) = 1: a binary number */
    const double b[] = {1.0, 3.0};
    mpfr_set_ui(w, 2, MPFR_RNDN);
    check_op_text("var", b, 2, 0, w);                /* ((1 - 2)^2 + (3 - 2)^2) / 1 = 2 */
    check_op_text("mean", b, 2, 0, w);
    mpfr_sqrt(w, w, MPFR_RNDN);
    check_op_text("std", b, 2, 1, w);
    check_op_text("norm2", (const double[]){1.0, 1.0}, 2, 1, w);
    mpfr_log(w, w, MPFR_RNDN);
    mpfr_mul_ui(w, w, 2, MPFR_RNDN);
    mpfr_add_d(w, w, 0.5, MPFR_RNDN);                /* log(e^0.5 + e^0.5) = 0.5 + log 2 */
    check_op_text("lse", (const double[]){0.5, 0.5}, 2, 1, w);
    mpfr_set_d(w, 3.0, MPFR_RNDN);
    check_op_text("max", b, 2, 0, w);
    mpfr_clear(w);
}

/* {1, 2^-60, -1}: S = 2^-60, judged at 0 and at 2^-60, by hand. */
static void judge_cases(void)
{
    double a[] = {1.0, 0x1p-60, -1.0};
    sl_reference ref;
    sl_err err = {{0}};
    CHECK(sl_reference_compute(&ref, a, 3, SL_F64, &err) == 0, "%s", err.msg);
    sl_value_judgement j;
    sl_judge_value(&ref, NULL, 0.0, &j);
    /* |0 - 2^-60| = 2^-60; relative 1; ulp(2^-60) in f64 = 2^-112: 2^52 ulps */
    CHECK(j.err.abs_err == 0x1p-60, "abs_err %a", j.err.abs_err);
    CHECK(j.err.rel_err == 1.0, "rel_err %a", j.err.rel_err);
    CHECK(j.err.ulps == 0x1p52, "ulps %a", j.err.ulps);
    CHECK(j.ulps_f64 == 0x1p52, "ulps_f64 %a", j.ulps_f64);
    CHECK(isnan(j.bound) && isnan(j.bound_ratio), "no bound asked: %a %a", j.bound, j.bound_ratio);
    sl_judge_value(&ref, NULL, 0x1p-60, &j);
    CHECK(j.err.abs_err == 0 && j.err.rel_err == 0 && j.err.ulps == 0 && j.ulps_f64 == 0,
          "at S: %a %a %a %a", j.err.abs_err, j.err.rel_err, j.err.ulps, j.ulps_f64);
    /* serial's bound on this input: gamma_2 * sum|x| > 0, so 0's ratio is 2^-60 / bound */
    const sl_variant *serial = sl_variant_find("serial");
    if (serial) {
        sl_judge_value(&ref, serial, 0.0, &j);
        CHECK(j.bound > 0 && isfinite(j.bound), "serial bound %a", j.bound);
        CHECK(j.bound_ratio == j.err.abs_err / j.bound, "ratio %a", j.bound_ratio);
    }
    sl_judge_value(&ref, NULL, INFINITY, &j);
    CHECK(isinf(j.err.abs_err) && isinf(j.err.ulps), "inf against finite S: %a", j.err.abs_err);
    sl_reference_clear(&ref);
    /* f32 input judged by a float64 value: ulps in f32 and in f64 differ by 2^29 */
    float f[] = {1.0f, 0x1p-24f, 0x1p-24f};   /* S = 1 + 2^-23 */
    CHECK(sl_reference_compute(&ref, f, 3, SL_F32, &err) == 0, "%s", err.msg);
    sl_judge_value(&ref, NULL, 1.0, &j);
    CHECK(j.err.ulps == 1.0 && j.ulps_f64 == 0x1p29, "f32: ulps %a, ulps_f64 %a", j.err.ulps, j.ulps_f64);
    sl_reference_clear(&ref);
}

int main(void)
{
    sl_test_seed();
    exact_text_cases();
    op_text_cases();
    judge_cases();
    return sl_test_done("tjudge");
}

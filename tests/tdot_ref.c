/* tdot_ref.c: the exact dot reference (reference/sl_dot.c) against MPFR: every product formed
 * exactly at 2p bits, mpfr_sum at a precision that holds the sum exactly, then rounded by MPFR
 * (float64/float32) or sl_round_mpfr_half; the exact value, the roundings, sum|x y|, cond, and the
 * IEEE special values, in every format and for every data family (float64: products in all three
 * exponent windows). */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include "sl_dot.h"
#include "tdot_common.h"

#define ORACLE_PREC 4800

/* The oracle: exact sum (out, ORACLE_PREC bits) and exact sum |x y| (outa). 0 when finite, else 1
 * with the IEEE special value in *special. */
static int oracle(const void *x, const void *y, uint64_t n, sl_dtype dt, mpfr_t out, mpfr_t outa,
                  double *special)
{
    const int p = dt == SL_F64 ? 53 : 24;
    mpfr_t *t = malloc((n ? n : 1) * sizeof *t), *ta = malloc((n ? n : 1) * sizeof *ta);
    mpfr_ptr *pp = malloc((n ? n : 1) * sizeof *pp), *pa = malloc((n ? n : 1) * sizeof *pa);
    int nan = 0, pinf = 0, ninf = 0, allneg0 = 1;
    for (uint64_t i = 0; i < n; i++) {
        const double a = td_load(x, dt, i), b = td_load(y, dt, i);
        const double ieee = a * b;
        if (isnan(ieee)) nan = 1;
        else if (isinf(ieee) && (!isfinite(a) || !isfinite(b))) { if (ieee > 0) pinf = 1; else ninf = 1; }
        if (!(ieee == 0 && signbit(ieee))) allneg0 = 0;
        mpfr_inits2(2 * p, t[i], ta[i], (mpfr_ptr)0);
        if (isfinite(a) && isfinite(b)) {
            mpfr_set_d(t[i], a, MPFR_RNDN);
            if (mpfr_mul_d(t[i], t[i], b, MPFR_RNDN) != 0) { fprintf(stderr, "oracle: inexact product\n"); abort(); }
        } else {
            mpfr_set_zero(t[i], 1);
        }
        mpfr_abs(ta[i], t[i], MPFR_RNDN);
        pp[i] = t[i];
        pa[i] = ta[i];
    }
    mpfr_set_prec(out, ORACLE_PREC);
    mpfr_set_prec(outa, ORACLE_PREC);
    CHECK(mpfr_sum(out, pp, n, MPFR_RNDN) == 0, "oracle sum exact at %d bits", ORACLE_PREC);
    CHECK(mpfr_sum(outa, pa, n, MPFR_RNDN) == 0, "oracle abs sum exact");
    if (mpfr_zero_p(out)) mpfr_set_zero(out, n && allneg0 ? -1 : 1);
    for (uint64_t i = 0; i < n; i++) mpfr_clears(t[i], ta[i], (mpfr_ptr)0);
    free(t); free(ta); free(pp); free(pa);
    if (nan || (pinf && ninf)) { *special = NAN; return 1; }
    if (pinf) { *special = INFINITY; return 1; }
    if (ninf) { *special = -INFINITY; return 1; }
    return 0;
}

static double round_oracle(mpfr_srcptr s, sl_dtype dt)
{
    if (dt == SL_F64) return mpfr_get_d(s, MPFR_RNDN);
    if (dt == SL_F32) return (double)mpfr_get_flt(s, MPFR_RNDN);
    return sl_round_mpfr_half(s, dt);
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static void check_case(const void *x, const void *y, uint64_t n, sl_dtype dt, const char *what)
{
    sl_reference ref;
    sl_err err = {{0}};
    const int rc = sl_reference_dot(&ref, x, y, n, dt, 1, &err);
    CHECK(rc == 0, "%s %s n=%llu: %s", what, sl_dtype_name(dt), (unsigned long long)n, err.msg);
    mpfr_t o, oa;
    mpfr_inits2(ORACLE_PREC, o, oa, (mpfr_ptr)0);
    double sp = 0;
    const int special = oracle(x, y, n, dt, o, oa, &sp);
    if (special) {
        CHECK(same(ref.rounded, sp), "%s %s n=%llu: special %a, want %a", what, sl_dtype_name(dt),
              (unsigned long long)n, ref.rounded, sp);
        CHECK(!ref.finite && !ref.overflow && isnan(ref.cond), "%s: special flags", what);
    } else {
        CHECK(mpfr_equal_p(ref.sum, o) && mpfr_signbit(ref.sum) == mpfr_signbit(o),
              "%s %s n=%llu: exact sum differs (ref %a, oracle %a)", what, sl_dtype_name(dt),
              (unsigned long long)n, mpfr_get_d(ref.sum, MPFR_RNDN), mpfr_get_d(o, MPFR_RNDN));
        CHECK(mpfr_equal_p(ref.sumabs, oa), "%s %s: sum |x y| differs", what, sl_dtype_name(dt));
        const double want = round_oracle(o, dt);
        CHECK(same(ref.rounded, want), "%s %s n=%llu: rounded %a, want %a", what, sl_dtype_name(dt),
              (unsigned long long)n, ref.rounded, want);
        CHECK(same(ref.rounded_f64, mpfr_get_d(o, MPFR_RNDN)), "%s: rounded_f64", what);
        CHECK(same(ref.rounded_f32, (double)mpfr_get_flt(o, MPFR_RNDN)), "%s: rounded_f32", what);
        CHECK(ref.finite == (isfinite(want) != 0) && ref.overflow == !isfinite(want), "%s: finite/overflow", what);
        CHECK(ref.abssum == mpfr_get_d(oa, MPFR_RNDU), "%s: abssum rounded upward", what);
        if (ref.finite && !mpfr_zero_p(o)) {   /* cond = 2 sum|xy| / |sum xy|, rounded upward */
            mpfr_t c;
            mpfr_init2(c, 64);
            mpfr_abs(c, o, MPFR_RNDN);
            mpfr_div(c, oa, c, MPFR_RNDU);
            mpfr_mul_2si(c, c, 1, MPFR_RNDU);
            CHECK(ref.cond == mpfr_get_d(c, MPFR_RNDU), "%s %s: cond %g, want %g", what,
                  sl_dtype_name(dt), ref.cond, mpfr_get_d(c, MPFR_RNDU));
            mpfr_clear(c);
        } else if (ref.finite) {
            CHECK(ref.cond == (mpfr_zero_p(oa) ? 1.0 : INFINITY), "%s: cond of a zero dot", what);
        }
    }
    mpfr_clears(o, oa, (mpfr_ptr)0);
    sl_reference_clear(&ref);
}

static void edge_cases(sl_dtype dt)
{
    const double inf = INFINITY;
    double xv[4], yv[4];
    unsigned char x[32], y[32];
#define CASE(n_, what, ...)                                                                     \
    do {                                                                                        \
        const double v_[] = {__VA_ARGS__};                                                      \
        for (int i_ = 0; i_ < (n_); i_++) { xv[i_] = v_[2 * i_]; yv[i_] = v_[2 * i_ + 1]; }     \
        for (int i_ = 0; i_ < (n_); i_++) { td_store(x, dt, i_, xv[i_]); td_store(y, dt, i_, yv[i_]); } \
        check_case(x, y, (n_), dt, what);                                                       \
    } while (0)
    check_case(x, y, 0, dt, "n = 0");
    CASE(2, "Inf * 0", inf, 0.0, 1.0, 1.0);
    CASE(2, "+Inf and -Inf products", inf, 1.0, -inf, 1.0);
    CASE(2, "Inf product", 2.0, 3.0, -inf, 2.0);
    CASE(2, "NaN", NAN, 1.0, 1.0, 1.0);
    CASE(2, "all products -0", -0.0, 1.0, 0.0, -2.0);
    CASE(2, "-0 and +0 products", -0.0, 1.0, 0.0, 2.0);
    CASE(2, "exact cancellation", 3.0, 5.0, -3.0, 5.0);
    CASE(3, "tie", 1.0, 1.0, 0x1p-60, 1.0, 0x1p-60, 1.0);
#undef CASE
    /* the largest values: products overflow the format (exact in the reference), the dot does not */
    const double big = dt == SL_F64 ? 0x1p1000 : dt == SL_F32 ? 0x1p120 : dt == SL_F16 ? 32768.0 : 0x1p120;
    td_store(x, dt, 0, big); td_store(y, dt, 0, big);
    td_store(x, dt, 1, -big); td_store(y, dt, 1, big);
    td_store(x, dt, 2, 1.5); td_store(y, dt, 2, 2.0);
    check_case(x, y, 3, dt, "overflowing products, finite dot");
    /* the smallest: products below the format's range */
    const double tiny = dt == SL_F64 ? 0x1p-1074 : dt == SL_F32 ? 0x1p-149 : dt == SL_F16 ? 0x1p-24 : 0x1p-133;
    td_store(x, dt, 0, tiny); td_store(y, dt, 0, tiny);
    td_store(x, dt, 1, 3 * tiny); td_store(y, dt, 1, -0.75);
    td_store(x, dt, 2, tiny); td_store(y, dt, 2, 1.0);
    check_case(x, y, 3, dt, "underflowing products");
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const uint64_t ns[] = {1, 2, 3, 31, 1000, 5000};
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        edge_cases(dt);
        void *x = malloc(5000 * 8), *y = malloc(5000 * 8);
        for (int f = 0; f < TD_NFAM; f++)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                td_fill(x, y, ns[k], dt, f);
                check_case(x, y, ns[k], dt, td_fam_name[f]);
            }
        free(x);
        free(y);
    }
    return sl_test_done("tdot_ref");
}

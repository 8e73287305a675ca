/* tref_oracle.h: the MPFR oracle of the reference tests: mpfr_sum of an array, exactly and
 * correctly rounded to binary32/binary64 (IEEE range emulated with mpfr_check_range and
 * mpfr_subnormalize), and the comparison of the superaccumulator against it, bit for bit.
 *
 * Implementation assumptions: IEEE 754 binary32/binary64, round to nearest even, two's
 * complement 64-bit integers; MPFR's default exponent range on entry (restored on exit). */
#ifndef TREF_ORACLE_H
#define TREF_ORACLE_H
#include <math.h>
#include <mpfr.h>
#include "sl_reference.h"
#include "sl_test.h"

#define TREF_EXACT_PREC 2400 /* > 2^1102 .. 2^-1074: every sum here is exact at this precision */

typedef struct {
    mpfr_t *v;
    mpfr_ptr *p;
    uint64_t cap;
    mpfr_t exact, y53, y24;
} tref_oracle;

static void tref_oracle_init(tref_oracle *o)
{
    memset(o, 0, sizeof *o);
    mpfr_init2(o->exact, TREF_EXACT_PREC);
    mpfr_init2(o->y53, 53);
    mpfr_init2(o->y24, 24);
}

static void tref_oracle_clear(tref_oracle *o)
{
    for (uint64_t i = 0; i < o->cap; i++) mpfr_clear(o->v[i]);
    free(o->v);
    free(o->p);
    mpfr_clears(o->exact, o->y53, o->y24, (mpfr_ptr)0);
}

static void tref_fatal(const char *what)
{
    fprintf(stderr, "FATAL [seed %" PRIu64 "]: %s\n", sl_test_seed(), what);
    abort();
}

/* Rounds the mpfr_sum result y (already rounded to its precision with ternary t, in the wide
 * default range) into the IEEE range [emin, emax] of its format, subnormals included. */
static double tref_ieee_range(mpfr_t y, int t, mpfr_exp_t emin, mpfr_exp_t emax, int is53)
{
    mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    t = mpfr_check_range(y, t, MPFR_RNDN);
    t = mpfr_subnormalize(y, t, MPFR_RNDN);
    double r = is53 ? mpfr_get_d(y, MPFR_RNDN) : (double)mpfr_get_flt(y, MPFR_RNDN);
    mpfr_set_emin(old_min);
    mpfr_set_emax(old_max);
    return r;
}

/* mpfr_sum of x (n values of dtype dt, appended after `have` values already loaded when
 * have > 0, so mixed-dtype arrays can be built): fills o->exact and returns r32/r64. */
static uint64_t tref_oracle_load(tref_oracle *o, uint64_t have, const void *x, uint64_t n, sl_dtype dt)
{
    if (have + n > o->cap) {
        uint64_t cap = (have + n) * 2 + 16;
        o->v = realloc(o->v, cap * sizeof *o->v);
        o->p = realloc(o->p, cap * sizeof *o->p);
        if (!o->v || !o->p) tref_fatal("out of memory");
        for (uint64_t i = o->cap; i < cap; i++) mpfr_init2(o->v[i], 53);
        o->cap = cap;
    }
    for (uint64_t i = 0; i < n; i++) {
        int t = dt == SL_F64 ? mpfr_set_d(o->v[have + i], ((const double *)x)[i], MPFR_RNDN)
                             : mpfr_set_flt(o->v[have + i], ((const float *)x)[i], MPFR_RNDN);
        if (t) tref_fatal("mpfr_set_d/flt inexact");
        o->p[have + i] = o->v[have + i];
    }
    return have + n;
}

static void tref_oracle_sum(tref_oracle *o, uint64_t n, double *r32, double *r64)
{
    if (mpfr_sum(o->exact, o->p, n, MPFR_RNDN) != 0) tref_fatal("exact mpfr_sum was inexact");
    int t = mpfr_sum(o->y53, o->p, n, MPFR_RNDN);
    *r64 = tref_ieee_range(o->y53, t, -1073, 1024, 1);
    t = mpfr_sum(o->y24, o->p, n, MPFR_RNDN);
    *r32 = tref_ieee_range(o->y24, t, -148, 128, 0);
}

static int tref_same(double a, double b) /* same bits, or both NaN */
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    uint64_t ua, ub;
    memcpy(&ua, &a, 8);
    memcpy(&ub, &b, 8);
    return ua == ub;
}

static int tref_mpfr_same(mpfr_t a, mpfr_t b) /* equal values, same zero sign, or both NaN */
{
    if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
    if (!mpfr_equal_p(a, b)) return 0;
    return !mpfr_zero_p(a) || mpfr_signbit(a) == mpfr_signbit(b);
}

/* Compares acc (holding the n values loaded in o) with the oracle; returns failures. */
static int tref_check_acc(tref_oracle *o, uint64_t n, const sl_exact *acc, const char *what)
{
    double r32, r64;
    tref_oracle_sum(o, n, &r32, &r64);
    double g32 = sl_exact_round(acc, SL_F32), g64 = sl_exact_round(acc, SL_F64);
    mpfr_t g;
    mpfr_init2(g, 53);
    int sp = sl_exact_get(acc, g);
    int bad = 0;
    CHECK(tref_same(g32, r32), "%s n=%" PRIu64 ": f32 %a, mpfr_sum %a", what, n, g32, r32);
    CHECK(tref_same(g64, r64), "%s n=%" PRIu64 ": f64 %a, mpfr_sum %a", what, n, g64, r64);
    CHECK(tref_mpfr_same(g, o->exact), "%s n=%" PRIu64 ": exact value differs from mpfr_sum", what, n);
    CHECK((sp != 0) == !mpfr_number_p(o->exact), "%s: sl_exact_get returned %d", what, sp);
    bad = !tref_same(g32, r32) || !tref_same(g64, r64) || !tref_mpfr_same(g, o->exact);
    mpfr_clear(g);
    return bad;
}
#endif

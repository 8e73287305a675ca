/* tmoments_twins.c: the moment variants' CPU twins (kernels/moments: mean, var, std) against exact
 * values computed here with MPFR (sums of x, x^2 and (x - x[0])^2 at 4600 bits: exact for every
 * input below), in every format, ddof 0 and 1, n = 0, 1, 2, 31, 32, 33, 1000, 2^16 + 3, on random
 * and edge data and several launch configurations: each result within a generous a-priori error
 * (the textbook form's k u S2 / (n - ddof), which every member's error is below), NaN exactly where
 * the semantics ask (n <= ddof, NaN input, Inf input for var/std, n = 0 for the mean), small
 * cases bit for bit, and the float64-accumulated and two-pass forms finite where the squares
 * overflow float32. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_measure.h"
#include "sl_reference.h"
#include "sl_variants.h"
#include "sumlab/half.h"
#include "sumlab/rng.h"

#define PREC 4600

static void put(void *x, sl_dtype dt, uint64_t i, double v)
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else if (dt == SL_F32) ((float *)x)[i] = (float)v;
    else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
}

static double get(const void *x, sl_dtype dt, uint64_t i)
{
    if (dt == SL_F64) return ((const double *)x)[i];
    if (dt == SL_F32) return ((const float *)x)[i];
    return sl_half_to_double(((const uint16_t *)x)[i], dt);
}

static double unit(sl_dtype dt) /* unit roundoff */
{
    return dt == SL_F64 ? 0x1p-53 : dt == SL_F32 ? 0x1p-24 : dt == SL_F16 ? 0x1p-11 : 0x1p-8;
}
static double tiny(sl_dtype dt) /* smallest subnormal */
{
    return dt == SL_F64 ? 0x1p-1074 : dt == SL_F32 ? 0x1p-149 : dt == SL_F16 ? 0x1p-24 : 0x1p-133;
}
static double big(sl_dtype dt)
{
    return dt == SL_F64 ? DBL_MAX : dt == SL_F32 ? FLT_MAX : dt == SL_F16 ? 65504.0 : 0x1.fep127;
}

/* The exact moments of x (finite inputs) as doubles (each rounded once from the exact value). */
typedef struct {
    int nan, pinf, ninf;
    double mean, abssum, s2, s2k, var[2], sd[2];
} exact_t;

static void exact_moments(const void *x, uint64_t n, sl_dtype dt, exact_t *e)
{
    memset(e, 0, sizeof *e);
    mpfr_t s1, s2, s2k, a, t, d;
    mpfr_inits2(PREC, s1, s2, s2k, a, t, d, (mpfr_ptr)0);
    mpfr_set_zero(s1, 1);
    mpfr_set_zero(s2, 1);
    mpfr_set_zero(s2k, 1);
    mpfr_set_zero(a, 1);
    const double x0 = n ? get(x, dt, 0) : 0.0;
    for (uint64_t i = 0; i < n; i++) {
        const double v = get(x, dt, i);
        if (isnan(v)) { e->nan = 1; continue; }
        if (isinf(v)) { if (v > 0) e->pinf = 1; else e->ninf = 1; continue; }
        int inex = mpfr_add_d(s1, s1, v, MPFR_RNDN);
        inex |= mpfr_set_d(t, v, MPFR_RNDN);
        inex |= mpfr_sqr(t, t, MPFR_RNDN);
        inex |= mpfr_add(s2, s2, t, MPFR_RNDN);
        inex |= mpfr_set_d(t, v, MPFR_RNDN);
        inex |= mpfr_sub_d(t, t, x0, MPFR_RNDN);
        inex |= mpfr_sqr(t, t, MPFR_RNDN);
        inex |= mpfr_add(s2k, s2k, t, MPFR_RNDN);
        inex |= mpfr_add_d(a, a, fabs(v), MPFR_RNDN);
        if (inex) { fprintf(stderr, "tmoments_twins: inexact reference step\n"); abort(); }
    }
    e->abssum = mpfr_get_d(a, MPFR_RNDN);
    e->s2 = mpfr_get_d(s2, MPFR_RNDN);
    e->s2k = mpfr_get_d(s2k, MPFR_RNDN);
    if (n == 0) {
        e->mean = NAN;
        mpfr_clears(s1, s2, s2k, a, t, d, (mpfr_ptr)0);
        return;
    }
    mpfr_div_ui(t, s1, (unsigned long)n, MPFR_RNDN);
    e->mean = mpfr_get_d(t, MPFR_RNDN);
    for (unsigned ddof = 0; ddof < 2; ddof++) {
        if (n <= ddof) { e->var[ddof] = e->sd[ddof] = NAN; continue; }
        mpfr_mul_ui(t, s2, (unsigned long)n, MPFR_RNDN);   /* n S2 - S1^2, exact */
        mpfr_sqr(d, s1, MPFR_RNDN);
        mpfr_sub(t, t, d, MPFR_RNDN);
        mpfr_div_ui(t, t, (unsigned long)n, MPFR_RNDN);
        mpfr_div_ui(t, t, (unsigned long)(n - ddof), MPFR_RNDN);
        e->var[ddof] = mpfr_get_d(t, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        e->sd[ddof] = mpfr_get_d(t, MPFR_RNDN);
    }
    mpfr_clears(s1, s2, s2k, a, t, d, (mpfr_ptr)0);
}

static int is_std(const sl_variant *v) { return !strcmp(v->op, "std"); }
static int is_mean(const sl_variant *v) { return !strcmp(v->op, "mean"); }

static long runs, bounded, finite_bounds;

/* One twin run; returns its result (NaN with a failed check when the twin fails). */
static double run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt, sl_launch cfg,
                  uint32_t ddof, sl_launch *used)
{
    sl_err err;
    double r = NAN;
    cfg.ddof = ddof;
    sl_variant_resolve(v, &cfg, n, dt);
    if (used) *used = cfg;
    runs++;
    CHECK(sl_variant_cpu(v, x, n, dt, &cfg, &r, &err) == 0, "%s/%s: %s", v->op, v->name, err.msg);
    return r;
}

/* r against e within the generous error (header), or NaN exactly where it must be. */
static void judge(const sl_variant *v, const exact_t *e, const sl_reference *ref, double r,
                  uint64_t n, sl_dtype dt, uint32_t ddof, const sl_launch *cfg, const char *what)
{
    const sl_dtype acc = sl_variant_acc(v, dt);
    const double ua = unit(acc), uo = unit(dt);
    const double k = sl_variant_depth(v, n, dt, cfg) + 4.0;
    const int mean = is_mean(v);
    const char *tag = v->name;
    if (e->nan || (e->pinf && e->ninf) || (!mean && (e->pinf || e->ninf)) || (mean && n == 0) ||
        (!mean && n <= ddof)) {
        CHECK(isnan(r), "%s/%s %s %s n=%" PRIu64 " ddof=%u: %a, not NaN", v->op, tag, what,
              sl_dtype_name(dt), n, ddof, r);
        return;
    }
    if (mean && (e->pinf || e->ninf)) {
        CHECK(r == (e->pinf ? INFINITY : -INFINITY), "%s/%s %s %s n=%" PRIu64 ": %a, not %cInf",
              v->op, tag, what, sl_dtype_name(dt), n, r, e->pinf ? '+' : '-');
        return;
    }
    /* accumulator overflow: a non-finite result is the variant's legitimate failure */
    const double top = big(acc) / 4.0;
    if (!isfinite(r) && (mean ? e->abssum > top : (double)n * fmax(e->s2, e->s2k) > top)) return;
    double want, tol;
    if (mean) {
        want = e->mean;
        tol = 2.0 * k * ua * e->abssum / (double)n + 2.0 * uo * fabs(want) + 2.0 * tiny(dt);
    } else {
        const double var = e->var[ddof];
        const double base = fmax(e->s2, e->s2k) / (double)(n - ddof);
        double tv = 4.0 * k * ua * base + 4.0 * tiny(acc) * (double)n / (double)(n - ddof);
        if (is_std(v)) {
            want = e->sd[ddof];
            /* the square root of a computed variance that may be negative (cancellation) */
            if (isnan(r) && tv >= var) return;
            tol = fmin(sqrt(tv), want > 0 ? tv / want : INFINITY) + 2.0 * (ua + uo) * want +
                  2.0 * tiny(dt);
        } else {
            want = var;
            tol = tv + 2.0 * uo * var + 2.0 * tiny(dt);
        }
    }
    CHECK(fabs(r - want) <= tol, "%s/%s %s %s n=%" PRIu64 " ddof=%u (block %u grid %u addr_mod %u): "
          "%a, exact %a, error %g > %g", v->op, tag, what, sl_dtype_name(dt), n, ddof, cfg->block,
          cfg->grid, cfg->addr_mod, r, want, fabs(r - want), tol);
    /* and within the variant's a-priori bound (experiments/measure/bounds_moments.c) of the
     * operation's exact reference (reference/), for the configuration it ran */
    const double b = sl_variant_bound(v, ref, n, dt, cfg);
    const sl_errors er = sl_reference_errors(ref, r, dt);
    bounded++;
    CHECK(b >= 0 && er.abs_err <= b, "%s/%s %s %s n=%" PRIu64 " ddof=%u (block %u grid %u addr_mod %u): "
          "%a, error %g above the bound %g", v->op, tag, what, sl_dtype_name(dt), n, ddof, cfg->block,
          cfg->grid, cfg->addr_mod, r, er.abs_err, b);
    if (b < INFINITY) finite_bounds++;
}

static const sl_variant *mine[64];
static size_t nmine;

/* Every member on x, ddof 0 and 1, the default launch and a few others. */
static void check_all(const void *x, uint64_t n, sl_dtype dt, const char *what, int cfgs)
{
    static const sl_launch cf[] = {{0}, {.block = 32, .grid = 1}, {.block = 64, .grid = 3},
                                   {.block = 1024, .addr_mod = 4}, {.block = 96, .addr_mod = 8, .grid = 5}};
    exact_t e;
    exact_moments(x, n, dt, &e);
    /* the operations' exact references: mean, var and std with ddof 0 and 1 */
    sl_reference refs[5];
    int have[5];
    for (int j = 0; j < 5; j++) {
        sl_err err = {{0}};
        const sl_moment m = j == 0 ? SL_MOMENT_MEAN : j <= 2 ? SL_MOMENT_VAR : SL_MOMENT_STD;
        have[j] = sl_reference_moment(&refs[j], m, x, n, dt, j ? (uint32_t)(j - 1) % 2u : 0u, 1, &err) == 0;
        CHECK(have[j], "reference %d %s n=%" PRIu64 ": %s", j, sl_dtype_name(dt), n, err.msg);
    }
    for (size_t i = 0; i < nmine; i++) {
        const sl_variant *v = mine[i];
        if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        for (int c = 0; c < cfgs; c++) {
            sl_launch base = cf[c];
            /* addr_mod must be a multiple of the element size */
            base.addr_mod -= base.addr_mod % (uint32_t)sl_dtype_size(dt);
            for (uint32_t ddof = 0; ddof < (is_mean(v) ? 1u : 2u); ddof++) {
                sl_launch used;
                const double r = run(v, x, n, dt, base, ddof, &used);
                const int j = is_mean(v) ? 0 : (is_std(v) ? 3 : 1) + (int)ddof;
                if (have[j]) judge(v, &e, &refs[j], r, n, dt, ddof, &used, what);
            }
        }
    }
    for (int j = 0; j < 5; j++)
        if (have[j]) sl_reference_clear(&refs[j]);
}

static double normal(void) /* Box-Muller from the test RNG */
{
    const double u1 = ((double)(sl_test_rand64() >> 11) + 0.5) * 0x1p-53;
    const double u2 = (double)(sl_test_rand64() >> 11) * 0x1p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Random and edge data of every format at every n. */
static void check_sizes(void)
{
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    static const uint64_t ns[] = {0, 1, 2, 31, 32, 33, 1000, ((uint64_t)1 << 16) + 3};
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
            const uint64_t n = ns[k];
            void *x = malloc((size_t)(n ? n : 1) * sl_dtype_size(dt));
            if (!x) { CHECK(0, "out of memory"); return; }
            const int cfgs = n > 2000 ? 2 : 5;
            /* mean 0, spread 1 (kappa ~ 1) */
            for (uint64_t i = 0; i < n; i++) put(x, dt, i, normal());
            check_all(x, n, dt, "normal(0,1)", cfgs);
            /* large mean, small spread (kappa ~ 100 in 16-bit, 1e3 in 32-bit, 1e6 in 64-bit) */
            const double off = dt == SL_F64 ? 1e6 : dt == SL_F32 ? 1e3 : 100.0;
            for (uint64_t i = 0; i < n; i++) put(x, dt, i, off + normal());
            check_all(x, n, dt, "offset-normal", cfgs);
            /* constant: the variance is exactly 0 */
            for (uint64_t i = 0; i < n; i++) put(x, dt, i, 0.1);
            check_all(x, n, dt, "constant", cfgs);
            /* tiny values (16-bit: near the subnormals) */
            const double sc = dt == SL_F64 ? 1e-150 : dt == SL_F32 ? 1e-19 : dt == SL_F16 ? 1e-3 : 1e-30;
            for (uint64_t i = 0; i < n; i++) put(x, dt, i, sc * (1.0 + normal()));
            check_all(x, n, dt, "tiny", cfgs);
            /* specials at random places */
            if (n >= 1) {
                for (uint64_t i = 0; i < n; i++) put(x, dt, i, normal());
                const uint64_t at = sl_test_rand64() % n;
                put(x, dt, at, NAN);
                check_all(x, n, dt, "one NaN", 1);
                put(x, dt, at, INFINITY);
                check_all(x, n, dt, "one +Inf", 1);
                put(x, dt, at, -INFINITY);
                check_all(x, n, dt, "one -Inf", 1);
                if (n >= 2) {
                    put(x, dt, n - 1 - (at == n - 1), INFINITY);
                    check_all(x, n, dt, "+Inf and -Inf", 1);
                }
            }
            free(x);
        }
    }
}

/* Small cases bit for bit: x = {1, 2, 3, 4}: mean 5/2, var 5/4 (ddof 0) and 5/3 (ddof 1), each
 * rounded once to the format; std with ddof 0: sqrt(5/4) rounded once to the format (every member
 * forms S1 = 10, S2 = 30 or D2 = 5 exactly). n = 1, ddof 0: var and std exactly +0. Constant
 * input: shifted's variance exactly +0. */
static void check_exact_small(void)
{
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        const mpfr_prec_t p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
        unsigned char buf[64];
        for (int i = 0; i < 4; i++) put(buf, dt, (uint64_t)i, i + 1.0);
        mpfr_t q;
        mpfr_init2(q, p);
        double want_var[2], want_sd0;
        mpfr_set_ui(q, 5, MPFR_RNDN);
        mpfr_div_ui(q, q, 4, MPFR_RNDN);
        want_var[0] = mpfr_get_d(q, MPFR_RNDN);
        mpfr_set_ui(q, 5, MPFR_RNDN);
        mpfr_div_ui(q, q, 3, MPFR_RNDN);
        want_var[1] = mpfr_get_d(q, MPFR_RNDN);
        mpfr_set_prec(q, 200);
        mpfr_set_d(q, 1.25, MPFR_RNDN);
        mpfr_sqrt(q, q, MPFR_RNDN);
        mpfr_prec_round(q, p, MPFR_RNDN);
        want_sd0 = mpfr_get_d(q, MPFR_RNDN);
        mpfr_clear(q);
        for (size_t i = 0; i < nmine; i++) {
            const sl_variant *v = mine[i];
            if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            const sl_launch c0 = {0};
            for (uint32_t ddof = 0; ddof < 2; ddof++) {
                const double r = run(v, buf, 4, dt, c0, ddof, NULL);
                const double want = is_mean(v) ? 2.5 : is_std(v) ? (ddof ? NAN : want_sd0) : want_var[ddof];
                if (isnan(want)) continue; /* std of 5/3: the sqrt of a rounded value */
                CHECK(r == want, "%s/%s %s {1,2,3,4} ddof=%u: %a, want %a", v->op, v->name,
                      sl_dtype_name(dt), ddof, r, want);
            }
            unsigned char one[16];
            put(one, dt, 0, 3.0);
            const double r0 = run(v, one, 1, dt, c0, 0, NULL);
            if (!is_mean(v))
                CHECK(r0 == 0.0 && !signbit(r0), "%s/%s %s n=1 ddof=0: %a, want +0", v->op, v->name,
                      sl_dtype_name(dt), r0);
            else
                CHECK(r0 == 3.0, "%s/%s %s n=1: %a, want 3", v->op, v->name, sl_dtype_name(dt), r0);
            if (!is_mean(v))
                CHECK(isnan(run(v, one, 1, dt, c0, 1, NULL)), "%s/%s n=1 ddof=1 not NaN", v->op, v->name);
        }
        /* shifted: constant input gives exactly +0, on any launch */
        const uint64_t n = 1000;
        void *x = malloc(n * sl_dtype_size(dt));
        if (!x) { CHECK(0, "out of memory"); return; }
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, 0.1);
        for (size_t i = 0; i < nmine; i++) {
            const sl_variant *v = mine[i];
            if (strcmp(v->name, "shifted") || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            const sl_launch c1 = {.block = 64, .grid = 3};
            for (uint32_t ddof = 0; ddof < 2; ddof++) {
                const double r = run(v, x, n, dt, c1, ddof, NULL);
                CHECK(r == 0.0, "%s/shifted %s constant ddof=%u: %a, want 0", v->op, sl_dtype_name(dt), ddof, r);
            }
        }
        free(x);
    }
}

/* float32 values near 1e20 (squares overflow float32; the variance, ~1e34, does not): the
 * float64-accumulated forms and the two-pass forms are finite and accurate; textbook overflows. */
static void check_square_overflow(void)
{
    const uint64_t n = 1000;
    float *x = malloc(n * sizeof *x);
    if (!x) { CHECK(0, "out of memory"); return; }
    for (uint64_t i = 0; i < n; i++) x[i] = (float)(1e20 * (1.0 + 1e-3 * normal()));
    exact_t e;
    exact_moments(x, n, SL_F32, &e);
    for (size_t i = 0; i < nmine; i++) {
        const sl_variant *v = mine[i];
        if (is_mean(v) || !(v->dtypes & SL_DTYPE_MASK(SL_F32))) continue;
        const sl_launch c0 = {0};
        const double r = run(v, x, n, SL_F32, c0, 1, NULL);
        const double want = is_std(v) ? e.sd[1] : e.var[1];
        const int must = v->acc_wide || !strcmp(v->name, "two-pass") || !strcmp(v->name, "corrected");
        if (must)
            CHECK(isfinite(r) && fabs(r - want) <= 1e-3 * want, "%s/%s float32 1e20: %a, exact %a",
                  v->op, v->name, r, want);
        if (!strcmp(v->name, "textbook"))
            CHECK(!isfinite(r), "%s/textbook float32 1e20: %a, expected the squares' overflow", v->op, r);
    }
    free(x);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (!strcmp(v->family, "moments") && nmine < 64) mine[nmine++] = v;
    }
    /* the members the design names, each for mean / var and std */
    static const char *const want[][2] = {
        {"mean", "naive"}, {"mean", "f64-acc"}, {"var", "textbook"}, {"var", "shifted"},
        {"var", "two-pass"}, {"var", "corrected"}, {"var", "textbook-f64"}, {"var", "two-pass-f64"},
        {"var", "half-acc"}, {"std", "textbook"}, {"std", "shifted"}, {"std", "two-pass"},
        {"std", "corrected"}, {"std", "textbook-f64"}, {"std", "two-pass-f64"}, {"std", "half-acc"},
        {"var", "shifted-f64"}, {"var", "corrected-f64"}, {"std", "shifted-f64"}, {"std", "corrected-f64"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const sl_variant *v = sl_variant_find_op(want[i][0], want[i][1]);
        CHECK(v && v->cpu && !strcmp(v->family, "moments"), "%s/%s missing", want[i][0], want[i][1]);
    }
    CHECK(nmine == sizeof want / sizeof *want, "%zu moments variants", nmine);
    check_exact_small();
    check_square_overflow();
    check_sizes();
    printf("tmoments_twins: %ld twin runs, %ld checked against their bound (%ld finite)\n", runs,
           bounded, finite_bounds);
    /* the bounds are not vacuous on this data (most inputs are easy) */
    CHECK(finite_bounds > bounded / 2, "%ld of %ld bounds finite", finite_bounds, bounded);
    mpfr_free_cache();
    return sl_test_done("tmoments_twins");
}

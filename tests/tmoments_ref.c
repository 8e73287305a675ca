/* tmoments_ref.c: the exact references of mean, var, std, max and min (reference/sl_moments.c)
 * against GMP rationals: S1 = sum x and S2 = sum x^2 as mpq, the moment as mpq, and each
 * correctly rounded result checked by bracketing (the value lies between the midpoints to its
 * neighbours in the format, on a midpoint only when the result is even), in every format, on
 * random data and on the edges (n = 0, 1, 2; constants; squares that overflow or underflow the
 * format; the float64 scaling ranges; ties; specials; ddof), and on the study's sweeps of the
 * moment families (offset-normal's kappa to each format's reach, squares over- and underflowing). */
#include <float.h>
#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_test.h"
#include "sl_test_half.h"
#include "sumlab/half.h"

static const sl_dtype fmts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
static const char *const moment_name[] = {"mean", "var", "std", "max", "min"};

static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }

/* ---- values in a format --------------------------------------------------------------------- */
static double round_to(double v, sl_dtype dt)
{
    if (dt == SL_F64) return v;
    if (dt == SL_F32) return (double)(float)v;
    return sl_half_round(v, dt);
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

static void fmt_params(sl_dtype dt, int *p, int *emin, int *emax)
{
    if (dt == SL_F64) { *p = 53; *emin = -1022; *emax = 1023; }
    else if (dt == SL_F32) { *p = 24; *emin = -126; *emax = 127; }
    else { *p = sl_half_prec(dt); *emin = sl_half_emin(dt); *emax = sl_half_emax(dt); }
}

/* The significand's last bit of a finite value r of dt (0 for zero). */
static int odd_in(double r, sl_dtype dt)
{
    if (r == 0) return 0;
    int p, emin, emax;
    fmt_params(dt, &p, &emin, &emax);
    int e;
    frexp(r, &e);                     /* |r| in [2^(e-1), 2^e) */
    int q = e - p;                    /* quantum */
    if (q < emin - p + 1) q = emin - p + 1;
    const double m = ldexp(fabs(r), -q);   /* an integer */
    return fmod(m, 2.0) != 0;
}

/* v as a rational; +-Inf stands for +-2^(emax+1) of dt (whose midpoint with the largest finite
 * value is the overflow threshold). */
static void set_q(mpq_t q, double v, sl_dtype dt)
{
    if (!isinf(v)) {
        mpq_set_d(q, v);
        return;
    }
    int p, emin, emax;
    fmt_params(dt, &p, &emin, &emax);
    mpq_set_ui(q, 1, 1);
    mpq_mul_2exp(q, q, (mp_bitcnt_t)(emax + 1));
    if (v < 0) mpq_neg(q, q);
}

/* The neighbour of a finite r in dt towards +Inf (dir > 0) or -Inf (+-Inf past the largest
 * finite value). */
static double next_in(double r, sl_dtype dt, int dir)
{
    int p, emin, emax;
    fmt_params(dt, &p, &emin, &emax);
    const double minsub = ldexp(1.0, emin - p + 1), max = ldexp(2.0 - ldexp(1.0, 1 - p), emax);
    if (r == 0) return dir > 0 ? minsub : -minsub;
    if (r == max && dir > 0) return INFINITY;
    if (r == -max && dir < 0) return -INFINITY;
    /* step of the binade moved into (below, for a power of two going towards zero) */
    const double a = fabs(r);
    const int towards_zero = (r > 0) != (dir > 0);
    int e;
    frexp(a, &e);
    int q = e - p;
    if (towards_zero && a == ldexp(1.0, e - 1)) q--;      /* a power of two: the binade below */
    if (q < emin - p + 1) q = emin - p + 1;
    const double step = ldexp(1.0, q);
    return r + (dir > 0 ? step : -step);
}

/* 1 when r is the correct rounding of v (root = 0) or of sqrt(v) (root = 1, v >= 0) to dt. */
static int brackets(const mpq_t v, int root, double r, sl_dtype dt)
{
    if (r != r) return 0;
    int p, emin, emax;
    fmt_params(dt, &p, &emin, &emax);
    const double max = ldexp(2.0 - ldexp(1.0, 1 - p), emax);
    mpq_t m, t;
    mpq_inits(m, t, NULL);
    int ok = 1;
    double lo_n, hi_n;
    if (isinf(r)) {                  /* the value is at least the threshold (beyond -threshold) */
        lo_n = r > 0 ? max : -INFINITY;
        hi_n = r > 0 ? INFINITY : -max;
    } else {
        lo_n = next_in(r, dt, -1);
        hi_n = next_in(r, dt, 1);
    }
    for (int side = 0; side < 2 && ok; side++) {
        if (isinf(r) && ((r > 0) == (side == 1))) continue;   /* no bound beyond Inf */
        set_q(m, side ? hi_n : lo_n, dt);
        set_q(t, r, dt);
        mpq_add(m, m, t);
        mpq_div_2exp(m, m, 1);       /* midpoint */
        int c;                       /* sign of (value - midpoint) */
        if (root) {
            if (mpq_sgn(m) <= 0) c = mpq_sgn(v) == 0 && mpq_sgn(m) == 0 ? 0 : 1;
            else {
                mpq_mul(t, m, m);
                c = mpq_cmp(v, t);
            }
        } else {
            c = mpq_cmp(v, m);
        }
        const int tie_ok = isinf(r) ? 1 : !odd_in(r, dt);    /* beyond the threshold: Inf */
        ok = side == 0 ? (c > 0 || (c == 0 && tie_ok)) : (c < 0 || (c == 0 && tie_ok));
    }
    mpq_clears(m, t, NULL);
    return ok;
}

/* ---- the oracle: the moment of buf as a rational ---------------------------------------------- */
typedef struct {
    int nan, pinf, ninf;
    mpq_t s1, s2, sabs;
    double mx, mn;                  /* IEEE maximum/minimum of the finite and infinite values */
    int has_pos0, has_neg0;
} oracle;

static void oracle_of(oracle *o, const void *buf, size_t n, sl_dtype dt)
{
    mpq_inits(o->s1, o->s2, o->sabs, NULL);
    o->nan = o->pinf = o->ninf = o->has_pos0 = o->has_neg0 = 0;
    o->mx = -INFINITY;
    o->mn = INFINITY;
    mpq_t x;
    mpq_init(x);
    for (size_t i = 0; i < n; i++) {
        const double v = load(buf, i, dt);
        if (v != v) { o->nan = 1; continue; }
        if (v > o->mx) o->mx = v;
        if (v < o->mn) o->mn = v;
        if (v == 0) { if (signbit(v)) o->has_neg0 = 1; else o->has_pos0 = 1; }
        if (isinf(v)) { if (v > 0) o->pinf = 1; else o->ninf = 1; continue; }
        mpq_set_d(x, v);
        mpq_add(o->s1, o->s1, x);
        mpq_mul(x, x, x);
        mpq_add(o->s2, o->s2, x);
        mpq_set_d(x, fabs(v));
        mpq_add(o->sabs, o->sabs, x);
    }
    mpq_clear(x);
}

static void oracle_clear(oracle *o) { mpq_clears(o->s1, o->s2, o->sabs, NULL); }

/* |a - b| <= 2^-e |b| (b the exact rational). */
static int close_to(mpfr_srcptr a, const mpq_t b, int e)
{
    if (!mpfr_number_p(a)) return 0;
    mpq_t qa, d;
    mpq_inits(qa, d, NULL);
    mpfr_get_q(qa, a);
    mpq_sub(d, qa, b);
    mpq_abs(d, d);
    mpq_abs(qa, b);
    mpq_div_2exp(qa, qa, (mp_bitcnt_t)e);
    const int ok = mpq_cmp(d, qa) <= 0;
    mpq_clears(qa, d, NULL);
    return ok;
}

static int same_bits(double a, double b) { return (a != a && b != b) || !memcmp(&a, &b, sizeof a); }

/* One reference against the oracle. */
static void check_one(const char *what, const void *buf, size_t n, sl_dtype dt, sl_moment m, uint32_t ddof,
                      unsigned threads)
{
    sl_reference ref;
    sl_err err = {{0}};
    const int rc = sl_reference_moment(&ref, m, buf, n, dt, ddof, threads, &err);
    CHECK(rc == 0, "%s: %s", what, err.msg);
    if (rc) { sl_reference_clear(&ref); return; }
    oracle o;
    oracle_of(&o, buf, n, dt);
    const char *mn = moment_name[m];
    const char *dn = sl_dtype_name(dt);
    CHECK(n == 0 ? isnan(ref.first) : same_bits(ref.first, load(buf, 0, dt)), "%s %s %s: first", what, mn, dn);
    if (m == SL_MOMENT_MAX || m == SL_MOMENT_MIN) {
        double want;
        if (n == 0 || o.nan) want = NAN;
        else if (m == SL_MOMENT_MAX) want = o.mx == 0 ? (o.has_pos0 ? 0.0 : -0.0) : o.mx;
        else want = o.mn == 0 ? (o.has_neg0 ? -0.0 : 0.0) : o.mn;
        CHECK(same_bits(ref.rounded, want) && same_bits(ref.rounded_f64, want), "%s %s %s: %a, want %a", what,
              mn, dn, ref.rounded, want);
        CHECK(isnan(want) ? mpfr_nan_p(ref.sum) : mpfr_cmp_d(ref.sum, want) == 0 &&
              !mpfr_signbit(ref.sum) == !signbit(want), "%s %s %s: sum", what, mn, dn);
        CHECK(ref.finite == (isfinite(want) != 0), "%s %s %s: finite %d", what, mn, dn, ref.finite);
        CHECK(ref.finite ? ref.cond == 1.0 : 1, "%s %s %s: cond %g", what, mn, dn, ref.cond);
    } else if (m == SL_MOMENT_MEAN) {
        if (n == 0 || o.nan || (o.pinf && o.ninf)) {
            CHECK(isnan(ref.rounded) && mpfr_nan_p(ref.sum) && !ref.finite, "%s mean %s: %a, want NaN", what, dn,
                  ref.rounded);
        } else if (o.pinf || o.ninf) {
            CHECK(ref.rounded == (o.pinf ? INFINITY : -INFINITY) && !ref.finite, "%s mean %s: %a", what, dn,
                  ref.rounded);
        } else {
            mpq_t v;
            mpq_init(v);
            mpq_set_ui(v, (unsigned long)n, 1);
            mpq_div(v, o.s1, v);
            CHECK(brackets(v, 0, ref.rounded, dt), "%s mean %s n=%zu: %a is not the rounding", what, dn, n,
                  ref.rounded);
            CHECK(brackets(v, 0, ref.rounded_f64, SL_F64), "%s mean %s: f64 %a", what, dn, ref.rounded_f64);
            CHECK(brackets(v, 0, ref.rounded_f32, SL_F32), "%s mean %s: f32 %a", what, dn, ref.rounded_f32);
            CHECK(close_to(ref.sum, v, 250), "%s mean %s: sum", what, dn);
            if (mpq_sgn(v) == 0)
                CHECK(!signbit(ref.rounded) == (o.has_pos0 || n == 0 || mpq_sgn(o.sabs) != 0),
                      "%s mean %s: zero's sign", what, dn);
            CHECK(ref.finite, "%s mean %s: not finite", what, dn);
            mpq_clear(v);
        }
    } else {                        /* var, std */
        const int root = m == SL_MOMENT_STD;
        CHECK(ref.ddof == ddof, "%s: ddof %u", what, ref.ddof);
        if (o.nan || o.pinf || o.ninf || n <= ddof) {
            CHECK(isnan(ref.rounded) && isnan(ref.rounded_f64) && mpfr_nan_p(ref.sum) && !ref.finite &&
                  !ref.overflow, "%s %s %s n=%zu ddof=%u: %a, want NaN", what, mn, dn, n, ddof, ref.rounded);
        } else {
            mpq_t v, t;
            mpq_inits(v, t, NULL);
            mpq_set_ui(t, (unsigned long)n, 1);
            mpq_mul(v, o.s2, t);              /* n S2 */
            mpq_mul(t, o.s1, o.s1);
            mpq_sub(v, v, t);                 /* N */
            mpq_set_ui(t, (unsigned long)n * (unsigned long)(n - ddof), 1);
            mpq_div(v, v, t);                 /* the variance */
            CHECK(brackets(v, root, ref.rounded, dt), "%s %s %s n=%zu ddof=%u: %a is not the rounding", what, mn,
                  dn, n, ddof, ref.rounded);
            CHECK(brackets(v, root, ref.rounded_f64, SL_F64), "%s %s %s: f64 %a", what, mn, dn, ref.rounded_f64);
            CHECK(brackets(v, root, ref.rounded_f32, SL_F32), "%s %s %s: f32 %a", what, mn, dn, ref.rounded_f32);
            if (mpq_sgn(v) == 0) {
                CHECK(ref.rounded == 0 && !signbit(ref.rounded) && mpfr_zero_p(ref.sum), "%s %s %s: zero is %a",
                      what, mn, dn, ref.rounded);
            } else if (root) {
                mpfr_t sq;
                mpfr_init2(sq, 2 * mpfr_get_prec(ref.sum));
                mpfr_sqr(sq, ref.sum, MPFR_RNDN);
                CHECK(close_to(sq, v, 248), "%s std %s: sum", what, dn);
                mpfr_clear(sq);
            } else {
                CHECK(close_to(ref.sum, v, 250), "%s var %s: sum", what, dn);
            }
            CHECK(ref.finite == (isfinite(ref.rounded) != 0) && ref.overflow == !ref.finite, "%s %s %s: finite",
                  what, mn, dn);
            /* the bounds' fields: s2 rounded upward, m2 = N / n to nearest (within a few ulps) */
            if (!isinf(ref.s2)) mpq_set_d(t, ref.s2);
            CHECK(isinf(ref.s2) || mpq_cmp(t, o.s2) >= 0, "%s %s %s: s2 %a below S2", what, mn, dn, ref.s2);
            const double s2 = mpq_get_d(o.s2), m2 = mpq_get_d(v) * (double)(n - ddof);
            CHECK(isinf(ref.s2) || ref.s2 <= s2 * (1 + 0x1p-50) + DBL_TRUE_MIN, "%s: s2 %a for %a", what, ref.s2, s2);
            CHECK(!isfinite(m2) || fabs(ref.m2 - m2) <= 0x1p-48 * m2 + 0x1p-1000, "%s: m2 %a for %a", what,
                  ref.m2, m2);
            /* kappa = sqrt(n S2 / N) */
            if (mpq_sgn(o.s2) == 0) CHECK(ref.cond == 1.0, "%s: cond %g for all zeros", what, ref.cond);
            else if (mpq_sgn(v) == 0) CHECK(isinf(ref.cond), "%s: cond %g for a constant", what, ref.cond);
            else {
                mpq_set_ui(t, (unsigned long)n * (unsigned long)(n - ddof), 1);
                mpq_mul(t, t, v);             /* N */
                mpq_div(t, o.s2, t);
                mpq_set_ui(v, (unsigned long)n, 1);
                mpq_mul(t, t, v);
                const double k2 = mpq_get_d(t);
                CHECK(!isfinite(k2) || fabs(ref.cond * ref.cond - k2) <= 1e-12 * k2, "%s %s %s: cond %g, kappa^2 %g",
                      what, mn, dn, ref.cond, k2);
            }
            mpq_clears(v, t, NULL);
        }
    }
    if (!o.nan && !o.pinf && !o.ninf && n > 0 && m != SL_MOMENT_MAX && m != SL_MOMENT_MIN) {
        const double s1 = mpq_get_d(o.s1);
        CHECK(same_bits(ref.s1, s1) || (fabs(ref.s1 - s1) <= 0x1p-52 * fabs(s1)), "%s: s1 %a, want %a", what,
              ref.s1, s1);
    }
    oracle_clear(&o);
    sl_reference_clear(&ref);
}

/* Every moment (and ddof 0, 1, 2 for var/std) of buf. */
static void check_all(const char *what, const void *buf, size_t n, sl_dtype dt)
{
    for (int m = SL_MOMENT_MEAN; m <= SL_MOMENT_MIN; m++) {
        if (m == SL_MOMENT_VAR || m == SL_MOMENT_STD)
            for (uint32_t d = 0; d <= 2; d++) check_one(what, buf, n, dt, (sl_moment)m, d, 1);
        else
            check_one(what, buf, n, dt, (sl_moment)m, 1, 1);
    }
}

static void *fill(const double *v, size_t n, sl_dtype dt)
{
    void *b = malloc(n ? n * sl_dtype_size(dt) : 1);
    for (size_t i = 0; i < n; i++) store(b, i, v[i], dt);
    return b;
}

static void check_values(const char *what, const double *v, size_t n, sl_dtype dt)
{
    void *b = fill(v, n, dt);
    check_all(what, b, n, dt);
    free(b);
}

/* ---- random data ------------------------------------------------------------------------------ */
typedef double gen_fn(sl_dtype dt, size_t i);
static double g_uniform(sl_dtype dt, size_t i) { (void)i; return round_to(unif(), dt); }
static double g_offset(sl_dtype dt, size_t i)   /* large mean, small spread */
{
    (void)i;
    const double mu = dt == SL_F64 ? 1e8 : dt == SL_F32 ? 1e4 : 100;
    return round_to(mu + (unif() - 0.5), dt);
}
static double g_wide(sl_dtype dt, size_t i)     /* every binade of the format, both signs */
{
    (void)i;
    int p, emin, emax;
    fmt_params(dt, &p, &emin, &emax);
    const int e = emin - p + (int)(sl_test_rand64() % (uint64_t)(emax - emin + p + 1));
    const double v = ldexp(1.0 + unif(), e);
    return round_to(sl_test_rand64() & 1 ? -v : v, dt);
}
static double g_big(sl_dtype dt, size_t i)      /* squares overflow (or nearly) the format */
{
    (void)i;
    const double b = dt == SL_F64 ? 1e200 : dt == SL_F32 ? 1e20 : dt == SL_F16 ? 300 : 1e20;
    return round_to(b * (1 + 1e-3 * (unif() - 0.5)), dt);
}
static double g_small(sl_dtype dt, size_t i)    /* squares underflow the format */
{
    (void)i;
    const double b = dt == SL_F64 ? 1e-200 : dt == SL_F32 ? 1e-25 : dt == SL_F16 ? 1e-3 : 1e-25;
    return round_to(b * (1 + unif()), dt);
}
static double g_subnormal(sl_dtype dt, size_t i)
{
    (void)i;
    int p, emin, emax;
    fmt_params(dt, &p, &emin, &emax);
    return round_to(ldexp((double)(sl_test_rand64() % 1000) - 300, emin - p + 1), dt);
}
static double g_ranges(sl_dtype dt, size_t i)   /* float64: around 2^500 and 2^-400, mixed */
{
    static const double c[] = {0x1p500, 0x1p-400, 1.0, 0x1p-1000, 0x1p1000};
    const double v = c[i % 5] * (1 + (unif() - 0.5) * 1e-3) * (sl_test_rand64() & 1 ? -1 : 1);
    return round_to(v, dt);
}

static double g_blocks(sl_dtype dt, size_t i)   /* a narrow block of 2048, then wide values */
{
    return i < 2048 ? g_offset(dt, i) : i < 4096 ? g_uniform(dt, i) : g_wide(dt, i);
}

static void random_cases(void)
{
    static const struct { const char *name; gen_fn *g; } gens[] = {
        {"uniform", g_uniform}, {"offset", g_offset}, {"wide", g_wide}, {"big", g_big},
        {"small", g_small}, {"subnormal", g_subnormal}, {"ranges", g_ranges}, {"blocks", g_blocks}};
    static const size_t sizes[] = {1, 2, 3, 17, 1000, 6200};
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
        for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                const sl_dtype dt = fmts[f];
                const size_t n = sizes[s];
                double *v = malloc(n * sizeof *v);
                for (size_t i = 0; i < n; i++) v[i] = gens[g].g(dt, i);
                char what[64];
                snprintf(what, sizeof what, "%s n=%zu", gens[g].name, n);
                check_values(what, v, n, dt);
                free(v);
            }
}

/* ---- edges ------------------------------------------------------------------------------------ */
static double expect(sl_moment m, const double *v, size_t n, sl_dtype dt, uint32_t ddof)
{
    void *b = fill(v, n, dt);
    sl_reference ref;
    sl_err err = {{0}};
    CHECK(sl_reference_moment(&ref, m, b, n, dt, ddof, 1, &err) == 0, "%s", err.msg);
    const double r = ref.rounded;
    sl_reference_clear(&ref);
    free(b);
    return r;
}

static void edge_cases(void)
{
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        const sl_dtype dt = fmts[f];
        const char *dn = sl_dtype_name(dt);
        check_values("n=0", NULL, 0, dt);
        const double one[] = {3.0}, two[] = {1.0, -1.0};
        check_values("n=1", one, 1, dt);
        check_values("n=2", two, 2, dt);
        /* documented semantics, spelled out */
        CHECK(isnan(expect(SL_MOMENT_MEAN, NULL, 0, dt, 0)), "%s: mean of nothing", dn);
        CHECK(isnan(expect(SL_MOMENT_MAX, NULL, 0, dt, 0)), "%s: max of nothing", dn);
        CHECK(isnan(expect(SL_MOMENT_VAR, one, 1, dt, 1)), "%s: var n=1 ddof=1", dn);
        CHECK(same_bits(expect(SL_MOMENT_VAR, one, 1, dt, 0), 0.0), "%s: var n=1 ddof=0", dn);
        CHECK(isnan(expect(SL_MOMENT_STD, two, 2, dt, 2)), "%s: std n=2 ddof=2", dn);
        CHECK(expect(SL_MOMENT_VAR, two, 2, dt, 1) == 2.0 && expect(SL_MOMENT_VAR, two, 2, dt, 0) == 1.0,
              "%s: var of +-1", dn);
        /* constants: variance exactly +0, std +0 */
        double c[100];
        for (int i = 0; i < 100; i++) c[i] = round_to(0.1, dt);
        check_values("constant", c, 100, dt);
        CHECK(same_bits(expect(SL_MOMENT_VAR, c, 100, dt, 1), 0.0) && same_bits(expect(SL_MOMENT_STD, c, 100, dt, 1), 0.0),
              "%s: constant", dn);
        for (int i = 0; i < 100; i++) c[i] = -0.0;
        CHECK(same_bits(expect(SL_MOMENT_MEAN, c, 100, dt, 0), -0.0), "%s: mean of -0s", dn);
        CHECK(same_bits(expect(SL_MOMENT_VAR, c, 100, dt, 0), 0.0), "%s: var of -0s", dn);
        CHECK(same_bits(expect(SL_MOMENT_MAX, c, 100, dt, 0), -0.0), "%s: max of -0s", dn);
        /* max(-0, +0) = +0, min = -0, either order */
        const double z1[] = {-0.0, 0.0, -0.0}, z2[] = {0.0, -0.0};
        CHECK(same_bits(expect(SL_MOMENT_MAX, z1, 3, dt, 0), 0.0) && same_bits(expect(SL_MOMENT_MAX, z2, 2, dt, 0), 0.0),
              "%s: max(-0, +0)", dn);
        CHECK(same_bits(expect(SL_MOMENT_MIN, z1, 3, dt, 0), -0.0) && same_bits(expect(SL_MOMENT_MIN, z2, 2, dt, 0), -0.0),
              "%s: min(-0, +0)", dn);
        /* all negative: max is the largest negative, not 0 */
        const double neg[] = {-5.0, -3.0, -4.0};
        CHECK(expect(SL_MOMENT_MAX, neg, 3, dt, 0) == -3.0 && expect(SL_MOMENT_MIN, neg, 3, dt, 0) == -5.0, "%s: neg", dn);
        /* specials */
        const double sn[] = {1.0, NAN, 2.0}, spi[] = {1.0, INFINITY, 2.0}, sni[] = {-INFINITY, 1.0},
                     sboth[] = {INFINITY, -INFINITY, 1.0};
        check_values("nan", sn, 3, dt);
        check_values("+inf", spi, 3, dt);
        check_values("-inf", sni, 2, dt);
        check_values("+-inf", sboth, 3, dt);
        for (int m = SL_MOMENT_MEAN; m <= SL_MOMENT_MIN; m++)
            CHECK(isnan(expect((sl_moment)m, sn, 3, dt, 0)), "%s %s: NaN input", dn, moment_name[m]);
        CHECK(expect(SL_MOMENT_MEAN, spi, 3, dt, 0) == INFINITY && expect(SL_MOMENT_MEAN, sni, 2, dt, 0) == -INFINITY &&
              isnan(expect(SL_MOMENT_MEAN, sboth, 3, dt, 0)), "%s: mean of Inf", dn);
        CHECK(isnan(expect(SL_MOMENT_VAR, spi, 3, dt, 0)) && isnan(expect(SL_MOMENT_STD, sni, 2, dt, 1)), "%s: var of Inf",
              dn);
        CHECK(expect(SL_MOMENT_MAX, spi, 3, dt, 0) == INFINITY && expect(SL_MOMENT_MIN, spi, 3, dt, 0) == 1.0 &&
              expect(SL_MOMENT_MIN, sni, 2, dt, 0) == -INFINITY && expect(SL_MOMENT_MAX, sni, 2, dt, 0) == 1.0,
              "%s: max/min with Inf", dn);
        /* std of an exact square: var = 4 -> std = 2 */
        const double sq[] = {0.0, 2.0, 4.0};
        CHECK(expect(SL_MOMENT_VAR, sq, 3, dt, 1) == 4.0 && expect(SL_MOMENT_STD, sq, 3, dt, 1) == 2.0, "%s: std 2", dn);
        /* exact ties of std: {1 + 2^(1-p), -1}, ddof 0: std = 1 + 2^-p, the midpoint of 1 and its
         * successor: even is 1; {1 + 3 2^(1-p), -1}: 1 + 3 2^-p, even is 1 + 2^(2-p) */
        int p, emin, emax;
        fmt_params(dt, &p, &emin, &emax);
        const double t1[] = {1 + ldexp(1, 1 - p), -1.0}, t3[] = {1 + 3 * ldexp(1, 1 - p), -1.0};
        CHECK(expect(SL_MOMENT_STD, t1, 2, dt, 0) == 1.0, "%s: std tie to 1: %a", dn, expect(SL_MOMENT_STD, t1, 2, dt, 0));
        CHECK(expect(SL_MOMENT_STD, t3, 2, dt, 0) == 1 + ldexp(1, 2 - p), "%s: std tie up: %a", dn,
              expect(SL_MOMENT_STD, t3, 2, dt, 0));
        check_values("std tie", t1, 2, dt);
        check_values("std tie up", t3, 2, dt);
        /* a tie of var: {1 + 2^-h, -1}, ddof 0, var = (1 + 2^-(h+1))^2 = 1 + 2^-h + 2^-(2h+2), the
         * midpoint after 1 + 2^-h when 2h + 2 = p (float32 h = 11, bfloat16 h = 3; float16 and
         * float64 have odd p: none) */
        if (p % 2 == 0) {
            const int h = (p - 2) / 2;
            const double tv[] = {1 + ldexp(1, -h), -1.0};
            CHECK(expect(SL_MOMENT_VAR, tv, 2, dt, 0) == 1 + ldexp(1, -h), "%s: var tie: %a", dn,
                  expect(SL_MOMENT_VAR, tv, 2, dt, 0));
            check_values("var tie", tv, 2, dt);
        }
        /* ddof beyond n: NaN; ddof = n - 1 */
        const double five[] = {1, 2, 3, 4, 5};
        CHECK(isnan(expect(SL_MOMENT_VAR, five, 5, dt, 5)) && isnan(expect(SL_MOMENT_VAR, five, 5, dt, 9)), "%s: ddof", dn);
        CHECK(expect(SL_MOMENT_VAR, five, 5, dt, 4) == 10.0, "%s: var ddof 4", dn);
    }
    /* squares that overflow or underflow the format, not the reference */
    const double b20[] = {1e20, 1.001e20, 0.999e20}, s25[] = {1e-25, 2e-25, 3e-25};
    check_values("1e20", b20, 3, SL_F32);
    check_values("1e-25", s25, 3, SL_F32);
    /* float32 1e20: the variance is finite in float32; 1e-25: below float32's range (+0) but not
     * in the reference (its float64 rounding is the exact variance's) */
    CHECK(isfinite(expect(SL_MOMENT_VAR, b20, 3, SL_F32, 1)), "float32 1e20: var %a", expect(SL_MOMENT_VAR, b20, 3, SL_F32, 1));
    {
        void *b = fill(s25, 3, SL_F32);
        sl_reference ref;
        sl_err err = {{0}};
        CHECK(sl_reference_moment(&ref, SL_MOMENT_VAR, b, 3, SL_F32, 1, 1, &err) == 0, "%s", err.msg);
        CHECK(same_bits(ref.rounded, 0.0) && ref.rounded_f64 > 1e-51 && ref.rounded_f64 < 1e-49 && ref.finite,
              "float32 1e-25: var %a (f64 %a)", ref.rounded, ref.rounded_f64);
        sl_reference_clear(&ref);
        free(b);
    }
    const double h300[] = {300, 310, 290, 305};
    check_values("f16 > 256", h300, 4, SL_F16);
    CHECK(isfinite(expect(SL_MOMENT_VAR, h300, 4, SL_F16, 1)), "float16 > 256: var");
    /* float64: the scaled ranges, their edges and subnormals */
    const double r64[] = {0x1p500, -0x1.fffffffffffffp499, 0x1p-400, 0x1.fffffffffffffp-401, 1e-310, 4.9e-324,
                          1e200, -1e-200, 1.0, 0x1.fffffffffffffp1023};
    check_values("f64 ranges", r64, 10, SL_F64);
    /* ref->sum is the value itself when it is a binary number: var of {3a, 3b, 0} (ddof 0, D = 9) is
     * 2 (a^2 - a b + b^2), 1202 bits for a = 2^300, b = 2^-300; std of {2a, -2b} is a + b */
    {
        const double w3[] = {3 * 0x1p300, 3 * 0x1p-300, 0.0}, w2[] = {0x1p301, -0x1p-299};
        mpfr_t want;
        mpfr_init2(want, 1300);
        sl_reference ref;
        sl_err err = {{0}};
        CHECK(sl_reference_moment(&ref, SL_MOMENT_VAR, w3, 3, SL_F64, 0, 1, &err) == 0, "%s", err.msg);
        mpfr_set_ui_2exp(want, 1, 600, MPFR_RNDN);
        mpfr_sub_ui(want, want, 1, MPFR_RNDN);
        mpfr_add_d(want, want, 0x1p-600, MPFR_RNDN);
        mpfr_mul_2ui(want, want, 1, MPFR_RNDN);
        CHECK(mpfr_equal_p(ref.sum, want), "var 2 (a^2 - ab + b^2): ref.sum is not exact (%ld bits)",
              (long)mpfr_get_prec(ref.sum));
        sl_reference_clear(&ref);
        CHECK(sl_reference_moment(&ref, SL_MOMENT_STD, w2, 2, SL_F64, 0, 1, &err) == 0, "%s", err.msg);
        mpfr_set_ui_2exp(want, 1, 300, MPFR_RNDN);
        mpfr_add_d(want, want, 0x1p-300, MPFR_RNDN);
        CHECK(mpfr_equal_p(ref.sum, want), "std a + b: ref.sum is not exact (%ld bits)", (long)mpfr_get_prec(ref.sum));
        CHECK(ref.rounded == 0x1p300, "std a + b: %a", ref.rounded);
        sl_reference_clear(&ref);
        mpfr_clear(want);
    }
    const double sub[] = {4.9e-324, 1e-323, 0.0, 2.2e-308};
    check_values("f64 subnormals", sub, 4, SL_F64);
    {   /* (2/3) 2^-2148: +0 in every format, positive in the reference */
        sl_reference ref;
        sl_err err = {{0}};
        CHECK(sl_reference_moment(&ref, SL_MOMENT_VAR, sub, 3, SL_F64, 0, 1, &err) == 0, "%s", err.msg);
        CHECK(same_bits(ref.rounded, 0.0) && mpfr_sgn(ref.sum) > 0 && mpfr_get_exp(ref.sum) == -2148,
              "f64 subnormal var %a", ref.rounded);
        sl_reference_clear(&ref);
    }
    /* overflow: float64 values whose variance passes DBL_MAX: +Inf, overflow flagged */
    const double ov[] = {1e300, -1e300};
    CHECK(expect(SL_MOMENT_VAR, ov, 2, SL_F64, 1) == INFINITY && expect(SL_MOMENT_STD, ov, 2, SL_F64, 1) < INFINITY,
          "f64 var overflow");
    const double ov16[] = {300, -300};
    CHECK(expect(SL_MOMENT_VAR, ov16, 2, SL_F16, 1) == INFINITY && expect(SL_MOMENT_STD, ov16, 2, SL_F16, 1) < INFINITY,
          "f16 var overflow");
}

/* The same reference on 1 and 3 threads (pieces of >= 2^16), every field. */
static void thread_cases(void)
{
    const size_t n = 200003;
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        const sl_dtype dt = fmts[f];
        double *v = malloc(n * sizeof *v);
        for (size_t i = 0; i < n; i++) v[i] = (i % 3 ? g_wide : g_offset)(dt, i);
        void *b = fill(v, n, dt);
        for (int m = SL_MOMENT_MEAN; m <= SL_MOMENT_MIN; m++) {
            sl_reference r1, r3;
            sl_err err = {{0}};
            CHECK(sl_reference_moment(&r1, (sl_moment)m, b, n, dt, 1, 1, &err) == 0, "%s", err.msg);
            CHECK(sl_reference_moment(&r3, (sl_moment)m, b, n, dt, 1, 3, &err) == 0, "%s", err.msg);
            CHECK(same_bits(r1.rounded, r3.rounded) && same_bits(r1.cond, r3.cond) && same_bits(r1.s2, r3.s2) &&
                  same_bits(r1.m2, r3.m2) && same_bits(r1.abssum, r3.abssum) &&
                  (mpfr_equal_p(r1.sum, r3.sum) || (mpfr_nan_p(r1.sum) && mpfr_nan_p(r3.sum))),
                  "%s %s: threads differ", sl_dtype_name(dt), moment_name[m]);
            sl_reference_clear(&r1);
            sl_reference_clear(&r3);
        }
        check_one("threads", b, n, dt, SL_MOMENT_VAR, 1, 3);
        free(b);
        free(v);
    }
}

/* Every dataset family of the registry, every format, default parameters (16-bit: sl_test_params). */
static void dataset_cases(void)
{
    static const uint64_t sizes[] = {2, 1000, 5000};
    void *buf = malloc(5000 * 8);
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                const sl_dtype dt = fmts[f];
                sl_params p;
                sl_err err = {{0}};
                if (sl_test_params(ds, dt, &p, &err)) continue;
                const int rc = sl_dataset_generate(ds, dt, sl_test_seed() + s, sizes[s], &p, 0, sizes[s], buf, &err);
                if (sl_test_half_overflow(dt, rc, &err)) continue;
                CHECK(rc == 0, "%s %s: %s", ds->name, sl_dtype_name(dt), err.msg);
                if (rc) continue;
                char what[96];
                snprintf(what, sizeof what, "dataset %s n=%llu", ds->name, (unsigned long long)sizes[s]);
                check_all(what, buf, sizes[s], dt);
            }
    }
    free(buf);
}

/* The study's parameter sweeps of the moment families, each value in every format it reaches:
 * offset-normal's kappa from 1 to the format's reach (mean/sd up to 1e7 in float32, 1e15 in
 * float64), square-range's squares overflowing (the default) and underflowing the format, both
 * signs of the mean, ddof 0, 1 and 2 (check_all). */
static void sweep_cases(void)
{
    static const double kappas[] = {1, 1.5, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e10, 1e12, 1e15};
    static const double reach[] = {1e7, 1e15, 1e3, 1e2};              /* f32, f64, f16, bf16 */
    static const char *const under[] = {"scale=1e-25", "scale=1e-170", "scale=1e-4", "scale=1e-25"};
    const uint64_t n = 1000;
    void *buf = malloc(n * 8);
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        const sl_dtype dt = fmts[f];
        const sl_dataset *on = sl_dataset_find("offset-normal"), *sq = sl_dataset_find("square-range");
        for (size_t k = 0; k < sizeof kappas / sizeof kappas[0] && kappas[k] <= reach[dt]; k++)
            for (int neg = 0; neg < 2; neg++) {
                char kv[48], what[96];
                snprintf(kv, sizeof kv, "kappa=%.17g", kappas[k]);
                sl_params p;
                sl_err err = {{0}};
                sl_params_defaults(on, &p);
                CHECK(sl_params_set(on, &p, kv, &err) == 0 && sl_params_set(on, &p, neg ? "sign=neg" : "sign=pos",
                                                                             &err) == 0, "%s: %s", kv, err.msg);
                const int rc = sl_dataset_generate(on, dt, sl_test_seed() + k, n, &p, 0, n, buf, &err);
                CHECK(rc == 0, "offset-normal %s %s: %s", sl_dtype_name(dt), kv, err.msg);
                snprintf(what, sizeof what, "offset-normal %s%s", kv, neg ? " sign=neg" : "");
                if (!rc) check_all(what, buf, n, dt);
            }
        for (int u = 0; u < 2; u++) {
            sl_params p;
            sl_err err = {{0}};
            sl_params_defaults(sq, &p);
            CHECK(!u || sl_params_set(sq, &p, under[dt], &err) == 0, "%s: %s", under[dt], err.msg);
            if (u && sl_params_set(sq, &p, "rel=0.1", &err)) continue;
            const int rc = sl_dataset_generate(sq, dt, sl_test_seed(), n, &p, 0, n, buf, &err);
            CHECK(rc == 0, "square-range %s %s: %s", sl_dtype_name(dt), u ? under[dt] : "default", err.msg);
            if (!rc) check_all(u ? "square-range (squares underflow)" : "square-range (squares overflow)", buf, n, dt);
        }
    }
    free(buf);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    sweep_cases();
    edge_cases();
    random_cases();
    dataset_cases();
    thread_cases();
    /* a bad call fails with a message */
    sl_reference ref;
    sl_err err = {{0}};
    CHECK(sl_reference_moment(&ref, SL_MOMENT_VAR, NULL, 5, SL_F32, 1, 1, &err) == -1 && err.msg[0], "NULL x");
    sl_reference_clear(&ref);
    return sl_test_done("tmoments_ref");
}

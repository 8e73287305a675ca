/* tmoments_bound.c: the bounds of mean, var, std, max and min (experiments/measure/
 * bounds_moments.c): hand-computed cases give the documented formulas' values; a variance computed
 * correctly (two-pass in long double) lies inside every model's bound; sequential CPU models of each
 * algorithm (textbook, shifted, two-pass, corrected, Welford; float32 and float64 accumulators,
 * 16-bit input in float32 and in its own format) stay inside their model's bound on every data family, and the bound is
 * finite where it must be; the textbook, two-pass and Welford bounds grow in kappa and n as their
 * published forms do (within a constant of them). */
#include <float.h>
#include <math.h>
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_ops.h"
#include "sl_test.h"
#include "sl_test_half.h"
#include "sumlab/half.h"

/* A sequential chain: depth = n (the sum's default). */
static double depth_n(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)dt; (void)cfg;
    return (double)n;
}

#define MODEL(id, opn, b, wide)                                                                   \
    static const sl_variant id = {.name = #id, .op = opn, .family = "test", .bound = b,         \
                                  .acc_wide = wide, .dtypes = SL_DTYPES_ALL, .depth = depth_n}
MODEL(v_textbook, "var", SL_BOUND_VAR_TEXTBOOK, 0);
MODEL(v_shifted, "var", SL_BOUND_VAR_SHIFTED, 0);
MODEL(v_two_pass, "var", SL_BOUND_VAR_TWO_PASS, 0);
MODEL(v_corrected, "var", SL_BOUND_VAR_CORRECTED, 0);
MODEL(v_welford, "var", SL_BOUND_VAR_WELFORD, 0);
MODEL(v_textbook64, "var", SL_BOUND_VAR_TEXTBOOK, 1);
MODEL(s_textbook, "std", SL_BOUND_VAR_TEXTBOOK, 0);
MODEL(m_naive, "mean", SL_BOUND_RECURSIVE, 0);
MODEL(m_welford, "mean", SL_BOUND_VAR_WELFORD, 0);
MODEL(x_block, "max", SL_BOUND_EXACT, 0);
MODEL(x_textbook, "max", SL_BOUND_VAR_TEXTBOOK, 0);

static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }

static double round_to(double v, sl_dtype dt)
{
    if (dt == SL_F64) return v;
    if (dt == SL_F32) return (double)(float)v;
    return sl_half_round(v, dt);
}

static void *pack(const double *v, size_t n, sl_dtype dt)
{
    void *b = malloc(n * sl_dtype_size(dt) + 1);
    for (size_t i = 0; i < n; i++) {
        if (dt == SL_F64) ((double *)b)[i] = v[i];
        else if (dt == SL_F32) ((float *)b)[i] = (float)v[i];
        else ((uint16_t *)b)[i] = sl_half_from_double(v[i], dt);
    }
    return b;
}

static int ref_of(sl_reference *ref, sl_moment m, const double *v, size_t n, sl_dtype dt, uint32_t ddof)
{
    void *b = pack(v, n, dt);
    sl_err err = {{0}};
    const int rc = sl_reference_moment(ref, m, b, n, dt, ddof, 1, &err);
    CHECK(rc == 0, "%s", err.msg);
    free(b);
    return rc;
}

static double bound_of(const sl_variant *v, const sl_reference *ref)
{
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ddof = ref->ddof;
    return sl_moment_bound(v, ref, ref->n, ref->dtype, &cfg);
}

static int near(double got, double want) { return fabs(got - want) <= 1e-9 * fabs(want); }

/* ---- the documented formulas on {1, 2, 3, 4} (float32, ddof 1, k = n = 4) ---------------------- */
static void hand_cases(void)
{
    const double x[] = {1, 2, 3, 4};
    const double u = 0x1p-24, eta = 0x1p-150, n = 4, m = 3, A = 10, S1 = 10, S2 = 30, M2 = 5, V = 5.0 / 3;
#define G(j) ((j) * u / (1 - (j) * u))
    sl_reference ref;
    if (ref_of(&ref, SL_MOMENT_VAR, x, 4, SL_F32, 1)) return;
    /* textbook */
    double e1 = G(4) * A, e2 = G(5) * S2 + n * eta, s = S1 + e1;
    double ep = e1 * (2 * S1 + e1) / n + G(3) * s * s / n + 2 * eta;
    const double tb = (e2 + ep) * (1 + G(3)) / m + G(3) * V + eta;
    CHECK(near(bound_of(&v_textbook, &ref), tb), "textbook %a, formula %a", bound_of(&v_textbook, &ref), tb);
    /* two-pass: e_m = G(4) A / n + G(2) (|mean| + G(4) A / n) + eta */
    const double em = G(4) * A / n + G(2) * (S1 / n + G(4) * A / n) + eta, q = M2 + n * em * em;
    const double tp = (n * em * em + G(7) * q + n * eta) * (1 + G(2)) / m + G(2) * V + eta;
    CHECK(near(bound_of(&v_two_pass, &ref), tp), "two-pass %a, formula %a", bound_of(&v_two_pass, &ref), tp);
    /* corrected */
    const double ad = (1 + u) * sqrt(n * q), es = G(6) * ad, sd = n * em + es;
    const double ec = es * (2 * n * em + es) / n + G(3) * sd * sd / n + 2 * eta;
    const double co = (G(7) * q + n * eta + ec) * (1 + G(3)) / m + G(3) * V + eta;
    CHECK(near(bound_of(&v_corrected, &ref), co), "corrected %a, formula %a", bound_of(&v_corrected, &ref), co);
    /* shifted by any input value K (a permuted input reads another first value): Sy2 = M2 +
     * n (|mean| + max|x|)^2 = 5 + 4 * 6.5^2 = 174 */
    const double sy2 = 174, ay = (1 + u) * sqrt(n * sy2), dm2 = u * sqrt(sy2) * (2 * sqrt(M2) + u * sqrt(sy2));
    const double s2y = (1 + u) * (1 + u) * sy2, vy = V + dm2 / m;
    e1 = G(4) * ay; e2 = G(5) * s2y + n * eta; s = ay + e1;
    ep = e1 * (2 * ay + e1) / n + G(3) * s * s / n + 2 * eta;
    const double sh = dm2 / m + (e2 + ep) * (1 + G(3)) / m + G(3) * vy + eta;
    CHECK(near(bound_of(&v_shifted, &ref), sh), "shifted %a, formula %a", bound_of(&v_shifted, &ref), sh);
    {   /* the same values in another order give the same bound (it was K = x[0]'s: a permuted
         * input's shifted result fell outside the bound of the unpermuted reference) */
        const double y[4] = {x[3], x[2], x[1], x[0]};
        sl_reference r2;
        if (!ref_of(&r2, SL_MOMENT_VAR, y, 4, SL_F32, 1)) {
            CHECK(bound_of(&v_shifted, &r2) == bound_of(&v_shifted, &ref), "shifted bound depends on the order: %a %a",
                  bound_of(&v_shifted, &r2), bound_of(&v_shifted, &ref));
            sl_reference_clear(&r2);
        }
    }
    /* Welford (estimate): 6 k u (M sqrt(n M2) + M2) + n eta, M = 4 */
    const double we = (6 * 4 * u * (4 * sqrt(n * M2) + M2) + n * eta) * (1 + G(3)) / m + G(3) * V + eta;
    CHECK(near(bound_of(&v_welford, &ref), we), "welford %a, formula %a", bound_of(&v_welford, &ref), we);
    /* textbook accumulated in float64, float32 output: + u_o (V + E) + eta_o */
    {
        const double u8 = 0x1p-53;
#define G8(j) ((j) * u8 / (1 - (j) * u8))
        const double f1 = G8(4) * A, f2 = G8(5) * S2 + n * 0x1p-1074, t = S1 + f1;
        const double fp = f1 * (2 * S1 + f1) / n + G8(3) * t * t / n + 2 * 0x1p-1074;
        double e = (f2 + fp) * (1 + G8(3)) / m + G8(3) * V + 0x1p-1074;
        e += u * (V + e) + eta;
        CHECK(near(bound_of(&v_textbook64, &ref), e), "textbook f64 %a, formula %a", bound_of(&v_textbook64, &ref), e);
    }
    sl_reference_clear(&ref);
    /* std from textbook: min(E_V / sqrt(V), sqrt(E_V)) + u (sqrt(V) + that) */
    if (ref_of(&ref, SL_MOMENT_STD, x, 4, SL_F32, 1)) return;
    const double es_ = fmin(tb / sqrt(V), sqrt(tb));
    const double sb = es_ + u * (sqrt(V) + es_);
    CHECK(near(bound_of(&s_textbook, &ref), sb), "std textbook %a, formula %a", bound_of(&s_textbook, &ref), sb);
    sl_reference_clear(&ref);
    /* mean, naive: G(4) A / n + G(2) (|mean| + G(4) A / n) + eta */
    if (ref_of(&ref, SL_MOMENT_MEAN, x, 4, SL_F32, 0)) return;
    CHECK(near(bound_of(&m_naive, &ref), em), "mean %a, formula %a", bound_of(&m_naive, &ref), em);
    CHECK(near(bound_of(&m_welford, &ref), 2 * 6 * u * 4 + eta), "welford mean %a", bound_of(&m_welford, &ref));
    sl_reference_clear(&ref);
    /* max: exact (0); the exact rows: half an ulp */
    if (ref_of(&ref, SL_MOMENT_MAX, x, 4, SL_F32, 0)) return;
    CHECK(bound_of(&x_block, &ref) == 0, "max bound %g", bound_of(&x_block, &ref));
    CHECK(isnan(bound_of(&x_textbook, &ref)), "a variance model on max is no bound");
    CHECK(isnan(bound_of(&v_textbook, &ref)), "a variance bound on max's reference");
    sl_reference_clear(&ref);
    if (ref_of(&ref, SL_MOMENT_VAR, x, 4, SL_F32, 1)) return;
    const sl_variant *ex = sl_variant_find_op("var", "exact");
    CHECK(ex && bound_of(ex, &ref) == 0x1p-24, "exact var bound %a (V = 5/3: ulp 2^-23)", bound_of(ex, &ref));
    sl_reference_clear(&ref);
    /* vacuous and undefined: n - ddof <= 0 -> NaN; float32 S2 overflow -> +Inf (textbook) */
    if (ref_of(&ref, SL_MOMENT_VAR, x, 1, SL_F32, 1)) return;
    CHECK(isnan(bound_of(&v_textbook, &ref)), "n = 1, ddof = 1: bound %g", bound_of(&v_textbook, &ref));
    sl_reference_clear(&ref);
    const double big[] = {1e20, 1.001e20, 0.999e20};
    if (ref_of(&ref, SL_MOMENT_VAR, big, 3, SL_F32, 1)) return;
    CHECK(isinf(bound_of(&v_textbook, &ref)), "float32 1e20 textbook: bound %g", bound_of(&v_textbook, &ref));
    CHECK(isfinite(bound_of(&v_textbook64, &ref)), "float32 1e20 textbook-f64: bound %g", bound_of(&v_textbook64, &ref));
    sl_reference_clear(&ref);
#undef G
#undef G8
}

/* ---- sequential models of the algorithms, in the accumulator format ---------------------------- */
/* Every operation is done in double and rounded to the accumulator by R (float32, float64 or a
 * 16-bit format): for +, -, *, / and sqrt, rounding the double result again is the correct
 * rounding in the narrower format (53 >= 2 p + 2), so this is the accumulator's arithmetic. */
static sl_dtype acc_dt;
static double R(double v) { return acc_dt == SL_F64 ? v : acc_dt == SL_F32 ? (double)(float)v : sl_half_round(v, acc_dt); }

static double finish(double t, int root) { return root ? (t < 0 ? 0 : R(sqrt(t))) : t; }

static double textbook_m(const double *x, size_t n, uint32_t d, int root, int shift)
{
    const double k = shift ? R(x[0]) : 0;
    double s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) {
        const double v = shift ? R(R(x[i]) - k) : R(x[i]);
        s1 = R(s1 + v);
        s2 = R(s2 + R(v * v));
    }
    double t = R(s1 * s1);
    t = R(t / R((double)n));
    t = R(s2 - t);
    return finish(R(t / R((double)(n - d))), root);
}

static double two_pass_m(const double *x, size_t n, uint32_t d, int root, int corr)
{
    double s1 = 0, q = 0, c = 0;
    for (size_t i = 0; i < n; i++) s1 = R(s1 + R(x[i]));
    const double mu = R(s1 / R((double)n));
    for (size_t i = 0; i < n; i++) {
        const double dd = R(R(x[i]) - mu);
        q = R(q + R(dd * dd));
        c = R(c + dd);
    }
    double t = q;
    if (corr) t = R(q - R(R(c * c) / R((double)n)));
    return finish(R(t / R((double)(n - d))), root);
}

static double welford_m(const double *x, size_t n, uint32_t d, int root)
{
    double mu = 0, m2 = 0;
    for (size_t i = 0; i < n; i++) {
        const double v = R(x[i]), dl = R(v - mu);
        mu = R(mu + R(dl / R((double)(i + 1))));
        m2 = R(m2 + R(dl * R(v - mu)));
    }
    return finish(R(m2 / R((double)(n - d))), root);
}

/* One model's result on x (values of dt) in the accumulator acc, rounded to dt. */
static double run_model_acc(sl_bound_model b, sl_dtype acc, const double *x, size_t n, sl_dtype dt, uint32_t d,
                            int root)
{
    acc_dt = acc;
    double r;
    switch (b) {
    case SL_BOUND_VAR_TEXTBOOK: r = textbook_m(x, n, d, root, 0); break;
    case SL_BOUND_VAR_SHIFTED: r = textbook_m(x, n, d, root, 1); break;
    case SL_BOUND_VAR_TWO_PASS: r = two_pass_m(x, n, d, root, 0); break;
    case SL_BOUND_VAR_CORRECTED: r = two_pass_m(x, n, d, root, 1); break;
    default: r = welford_m(x, n, d, root); break;
    }
    return round_to(r, dt);
}

/* wide: float64 accumulation; else float64 for float64 input, float32 otherwise. */
static double run_model(sl_bound_model b, int wide, const double *x, size_t n, sl_dtype dt, uint32_t d, int root)
{
    return run_model_acc(b, wide || dt == SL_F64 ? SL_F64 : SL_F32, x, n, dt, d, root);
}

typedef double gen_fn(sl_dtype dt);
static double g_uniform(sl_dtype dt) { return round_to(unif(), dt); }
static double g_offset3(sl_dtype dt) { return round_to(1e3 + unif(), dt); }
static double g_offset6(sl_dtype dt) { return round_to(1e6 + (unif() - 0.5) * 2, dt); }
static double g_normalish(sl_dtype dt) { return round_to((unif() + unif() + unif() - 1.5) * 10, dt); }
static double g_big(sl_dtype dt) { return round_to((dt == SL_F64 ? 1e150 : dt == SL_F16 ? 300 : 1e20) * (1 + 1e-3 * unif()), dt); }
static double g_small(sl_dtype dt) { return round_to((dt == SL_F64 ? 1e-200 : dt == SL_F16 ? 1e-4 : 1e-25) * (1 + unif()), dt); }
static double g_outlier(sl_dtype dt) { return round_to(sl_test_rand64() % 64 ? unif() : 3e3 * unif(), dt); }
static double g_constant(sl_dtype dt) { return round_to(0.3, dt); }
static double g_wide(sl_dtype dt)
{
    const double v = ldexp(1 + unif(), (int)(sl_test_rand64() % 40) - 20);
    return round_to(sl_test_rand64() & 1 ? v : -v, dt);
}

static void model_cases(void)
{
    static const struct { const char *name; gen_fn *g; } gens[] = {
        {"uniform", g_uniform}, {"offset1e3", g_offset3}, {"offset1e6", g_offset6}, {"normalish", g_normalish},
        {"big", g_big}, {"small", g_small}, {"outlier", g_outlier}, {"constant", g_constant}, {"wide", g_wide}};
    static const sl_bound_model models[] = {SL_BOUND_VAR_TEXTBOOK, SL_BOUND_VAR_SHIFTED, SL_BOUND_VAR_TWO_PASS,
                                            SL_BOUND_VAR_CORRECTED, SL_BOUND_VAR_WELFORD};
    static const sl_dtype fmts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    static const size_t sizes[] = {2, 3, 33, 1000, 20000};
    long checked = 0, finite_easy = 0, finite_half = 0;
    for (size_t f = 0; f < 4; f++)
        for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                const sl_dtype dt = fmts[f];
                const size_t n = sizes[s];
                double *x = malloc(n * sizeof *x);
                for (size_t i = 0; i < n; i++) x[i] = gens[g].g(dt);
                for (uint32_t d = 0; d <= 1; d++)
                    for (int root = 0; root <= 1; root++) {
                        sl_reference ref;
                        if (ref_of(&ref, root ? SL_MOMENT_STD : SL_MOMENT_VAR, x, n, dt, d)) continue;
                        for (size_t mi = 0; mi < 5; mi++)
                            for (int wide = 0; wide <= (dt == SL_F64 ? 0 : sl_dtype_is_half(dt) ? 2 : 1); wide++) {
                                /* wide 2: 16-bit input accumulated in its own format (acc_input) */
                                const sl_variant v = {.name = "model", .op = root ? "std" : "var", .family = "test",
                                                      .bound = models[mi], .acc_wide = wide == 1, .acc_input = wide == 2,
                                                      .dtypes = SL_DTYPES_ALL, .depth = depth_n};
                                const double b = bound_of(&v, &ref);
                                const double r = run_model_acc(models[mi], sl_variant_acc(&v, dt), x, n, dt, d, root);
                                const sl_errors e = sl_reference_errors(&ref, r, dt);
                                checked++;
                                finite_half += wide == 2 && b < INFINITY;
                                CHECK(!(b < INFINITY) || e.abs_err <= b,
                                      "%s %s n=%zu ddof=%u %s model %zu wide %d: error %a above bound %a (result %a, "
                                      "exact %a)", gens[g].name, sl_dtype_name(dt), n, d, root ? "std" : "var", mi,
                                      wide, e.abs_err, b, r, ref.rounded_f64);
                                /* easy data: every bound is finite (a bound that is always vacuous
                                 * would pass the check above) */
                                if ((g == 0 || g == 3) && wide < 2) {
                                    CHECK(b < INFINITY && b > 0, "%s %s n=%zu model %zu: bound %g on easy data",
                                          gens[g].name, sl_dtype_name(dt), n, mi, b);
                                    finite_easy++;
                                }
                            }
                        sl_reference_clear(&ref);
                    }
                free(x);
            }
    CHECK(checked > 1000 && finite_easy > 100 && finite_half > 50, "%ld checks, %ld on easy data, %ld finite with "
          "16-bit accumulators", checked, finite_easy, finite_half);
}

/* Every model inside its bound on x (values of dt): var and std, ddof 1, both accumulators. */
static long models_on(const char *what, const double *x, size_t n, sl_dtype dt)
{
    static const sl_bound_model models[] = {SL_BOUND_VAR_TEXTBOOK, SL_BOUND_VAR_SHIFTED, SL_BOUND_VAR_TWO_PASS,
                                            SL_BOUND_VAR_CORRECTED, SL_BOUND_VAR_WELFORD};
    long finite = 0;
    for (int root = 0; root <= 1; root++) {
        sl_reference ref;
        if (ref_of(&ref, root ? SL_MOMENT_STD : SL_MOMENT_VAR, x, n, dt, 1)) continue;
        for (size_t mi = 0; mi < 5; mi++)
            for (int wide = 0; wide <= (dt == SL_F64 ? 0 : 1); wide++) {
                const sl_variant v = {.name = "model", .op = root ? "std" : "var", .family = "test", .bound = models[mi],
                                      .acc_wide = wide, .dtypes = SL_DTYPES_ALL, .depth = depth_n};
                const double b = bound_of(&v, &ref);
                const double r = run_model(models[mi], wide, x, n, dt, 1, root);
                const double e = sl_reference_errors(&ref, r, dt).abs_err;
                CHECK(!ref.finite || !(b < INFINITY) || e <= b, "%s %s %s model %zu wide %d: error %a above bound %a",
                      what, sl_dtype_name(dt), root ? "std" : "var", mi, wide, e, b);
                finite += b < INFINITY;
            }
        sl_reference_clear(&ref);
    }
    return finite;
}

/* Every dataset family of the registry, every format, default parameters. */
static void dataset_cases(void)
{
    static const sl_dtype fmts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    static const uint64_t sizes[] = {1000, 30000};
    void *buf = malloc(30000 * 8);
    double *x = malloc(30000 * sizeof *x);
    long finite = 0;
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        for (size_t f = 0; f < 4; f++)
            for (size_t s = 0; s < 2; s++) {
                const sl_dtype dt = fmts[f];
                const uint64_t n = sizes[s];
                sl_params p;
                sl_err err = {{0}};
                if (sl_test_params(ds, dt, &p, &err)) continue;
                const int rc = sl_dataset_generate(ds, dt, sl_test_seed() + s, n, &p, 0, n, buf, &err);
                if (sl_test_half_overflow(dt, rc, &err)) continue;
                CHECK(rc == 0, "%s %s: %s", ds->name, sl_dtype_name(dt), err.msg);
                if (rc) continue;
                for (uint64_t j = 0; j < n; j++)
                    x[j] = dt == SL_F64 ? ((double *)buf)[j] : dt == SL_F32 ? (double)((float *)buf)[j]
                                                                            : sl_half_to_double(((uint16_t *)buf)[j], dt);
                finite += models_on(ds->name, x, n, dt);
            }
    }
    CHECK(finite > 100, "only %ld finite bounds over the dataset families", finite);
    free(buf);
    free(x);
}

/* A correctly computed variance (two-pass in long double, rounded to the format) lies inside
 * every model's bound. */
static void correct_inside(void)
{
    static const sl_dtype fmts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    static const sl_bound_model models[] = {SL_BOUND_VAR_TEXTBOOK, SL_BOUND_VAR_SHIFTED, SL_BOUND_VAR_TWO_PASS,
                                            SL_BOUND_VAR_CORRECTED, SL_BOUND_VAR_WELFORD};
    for (size_t f = 0; f < 4; f++) {
        const sl_dtype dt = fmts[f];
        const size_t n = 5000;
        double x[5000];
        for (size_t i = 0; i < n; i++) x[i] = g_normalish(dt);
        long double mu = 0, q = 0;
        for (size_t i = 0; i < n; i++) mu += x[i];
        mu /= n;
        for (size_t i = 0; i < n; i++) q += (x[i] - mu) * (x[i] - mu);
        const double var = round_to((double)(q / (n - 1)), dt);
        sl_reference ref;
        if (ref_of(&ref, SL_MOMENT_VAR, x, n, dt, 1)) continue;
        const double err = sl_reference_errors(&ref, var, dt).abs_err;
        for (size_t mi = 0; mi < 5; mi++) {
            const sl_variant v = {.name = "model", .op = "var", .family = "test", .bound = models[mi],
                                  .dtypes = SL_DTYPES_ALL, .depth = depth_n};
            const double b = bound_of(&v, &ref);
            CHECK(b < INFINITY && err <= b, "%s model %zu: long double two-pass error %a, bound %a", sl_dtype_name(dt),
                  mi, err, b);
        }
        sl_reference_clear(&ref);
    }
}

/* The published forms (Chan, Golub and LeVeque 1983; Higham ch. 1.9), relative to the variance,
 * with n the chain k of the sums: textbook one-pass k kappa^2 u, two-pass k u + k^2 kappa^2 u^2,
 * Welford k kappa u. On offset-normal data over kappa (the reference's cond is the realised
 * kappa), each model's bound over the variance lies within a constant of its published form: the
 * rigorous bound grows in kappa and n as the published one and no faster (SL_PUB_LO .. SL_PUB_HI). */
#define SL_PUB_LO 0.5
#define SL_PUB_HI 16.0
static void published_forms(void)
{
    static const double kappas[] = {10, 100, 1e3, 1e4, 1e5, 1e6, 1e8, 1e10};
    static const uint64_t sizes[] = {1024, 65536};
    const sl_dataset *ds = sl_dataset_find("offset-normal");
    for (int f = 0; f < 2; f++) {
        const sl_dtype dt = f ? SL_F64 : SL_F32;
        const double u = f ? 0x1p-53 : 0x1p-24;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const uint64_t n = sizes[s];
            void *buf = malloc(n * 8);
            for (size_t k = 0; k < sizeof kappas / sizeof kappas[0] && kappas[k] <= (f ? 1e10 : 1e6); k++) {
                char kv[40];
                snprintf(kv, sizeof kv, "kappa=%g", kappas[k]);
                sl_params p;
                sl_err err = {{0}};
                sl_params_defaults(ds, &p);
                if (sl_params_set(ds, &p, kv, &err) ||
                    sl_dataset_generate(ds, dt, sl_test_seed() + k, n, &p, 0, n, buf, &err)) {
                    CHECK(0, "offset-normal %s %s: %s", sl_dtype_name(dt), kv, err.msg);
                    continue;
                }
                sl_reference ref;
                if (sl_reference_moment(&ref, SL_MOMENT_VAR, buf, n, dt, 1, 1, &err)) {
                    CHECK(0, "%s", err.msg);
                    sl_reference_clear(&ref);
                    continue;
                }
                const double kap = ref.cond, V = ref.m2 / (double)(n - 1), kn = (double)n;
                const struct { const sl_variant *v; double pub; } m[] = {
                    {&v_textbook, kn * kap * kap * u},
                    {&v_two_pass, kn * u + kn * kn * kap * kap * u * u},
                    {&v_welford, kn * kap * u},
                };
                for (size_t j = 0; j < sizeof m / sizeof m[0]; j++) {
                    const double b = bound_of(m[j].v, &ref) / V, q = b / m[j].pub;
                    /* a bound of 1 relative or more says nothing more than "no digit": no ratio */
                    if (!(b < 1) || m[j].pub >= 1) continue;
                    CHECK(q >= SL_PUB_LO && q <= SL_PUB_HI, "%s %s n=%llu kappa %.3g: bound / V = %.3g, published "
                          "form %.3g (ratio %.3g)", m[j].v->name, sl_dtype_name(dt), (unsigned long long)n, kap, b,
                          m[j].pub, q);
                    if (getenv("SUMLAB_VERBOSE"))
                        printf("%-11s %s n=%-6llu kappa %-9.3g bound/V %-10.3g published %-10.3g ratio %.3g\n",
                               m[j].v->name, sl_dtype_name(dt), (unsigned long long)n, kap, b, m[j].pub, q);
                }
                sl_reference_clear(&ref);
            }
            free(buf);
        }
    }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    published_forms();
    hand_cases();
    correct_inside();
    model_cases();
    dataset_cases();
    return sl_test_done("tmoments_bound");
}

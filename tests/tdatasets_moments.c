/* tdatasets_moments.c: tests of the moment families (offset-normal, square-range, constant,
 * two-values, outliers, student-t, negative): opt-in flag, parameter ranges and refusals, purity across
 * slices, threads and every format, and the property each promises (kappa, overflowing
 * squares, exact counts, tail probabilities), measured exactly with MPFR where a sum is. */
#include "sl_test.h"
#include "sl_ds_impl.h"
#include <float.h>
#include <math.h>
#include <mpfr.h>

static const char *const MOMENT_FAMILIES[] = {"offset-normal", "square-range", "constant",
                                              "two-values", "outliers", "student-t", "negative"};
#define NFAM (sizeof MOMENT_FAMILIES / sizeof MOMENT_FAMILIES[0])
static const sl_dtype ALL_DT[4] = {SL_F32, SL_F64, SL_F16, SL_BF16};

/* Value k of a buffer of dt, as a double (exact). */
static double val(const void *buf, sl_dtype dt, uint64_t k)
{
    if (dt == SL_F64) return ((const double *)buf)[k];
    if (dt == SL_F32) return (double)((const float *)buf)[k];
    return sl_half_to_double(((const uint16_t *)buf)[k], dt);
}

/* Generates n values with params from "k=v" strings (NULL-terminated); NULL when refused, with
 * the message in *err (a refusal is not a failure here: callers check what they expect). */
static void *try_gen(const char *family, sl_dtype dt, uint64_t seed, uint64_t n, const char *const *kv,
                     sl_err *err)
{
    const sl_dataset *ds = sl_dataset_find(family);
    sl_params p;
    sl_params_defaults(ds, &p);
    for (; kv && *kv; kv++)
        if (sl_params_set(ds, &p, *kv, err)) return NULL;
    void *buf = malloc(n ? n * sl_dtype_size(dt) : 1);
    if (buf && sl_dataset_generate_threads(ds, dt, seed, n, &p, 0, n, buf, 2, err) == 0) return buf;
    free(buf);
    return NULL;
}

/* try_gen that must succeed. */
static void *gen(const char *family, sl_dtype dt, uint64_t seed, uint64_t n, const char *const *kv)
{
    sl_err err = {{0}};
    void *buf = try_gen(family, dt, seed, n, kv, &err);
    CHECK(buf != NULL, "%s %s n=%llu: %s", family, sl_dtype_name(dt), (unsigned long long)n, err.msg);
    return buf;
}

/* kappa = ||x||_2 / sqrt(sum (x - mean)^2), the variance (ddof 1) and its square root, exactly
 * up to 2^-300 relative (400-bit sums, mpfr_sum rounds once; the mean and each x - mean at 400
 * bits), each rounded once to a double (so a variance may overflow or underflow a double while
 * its square root does not). */
static void moments(const void *buf, sl_dtype dt, uint64_t n, double *kappa, double *var, double *sd)
{
    mpfr_t *v = malloc(n * sizeof *v), s, m, sq, dev;
    mpfr_ptr *pv = malloc(n * sizeof *pv);
    mpfr_inits2(400, s, m, sq, dev, (mpfr_ptr)0);
    for (uint64_t k = 0; k < n; k++) {
        mpfr_init2(v[k], 400);
        mpfr_set_d(v[k], val(buf, dt, k), MPFR_RNDN);
        pv[k] = v[k];
    }
    mpfr_sum(s, pv, (unsigned long)n, MPFR_RNDN);
    mpfr_div_ui(m, s, (unsigned long)n, MPFR_RNDN);
    for (uint64_t k = 0; k < n; k++) mpfr_sqr(v[k], v[k], MPFR_RNDN);
    mpfr_sum(sq, pv, (unsigned long)n, MPFR_RNDN);
    for (uint64_t k = 0; k < n; k++) {
        mpfr_set_d(v[k], val(buf, dt, k), MPFR_RNDN);
        mpfr_sub(v[k], v[k], m, MPFR_RNDN);
        mpfr_sqr(v[k], v[k], MPFR_RNDN);
    }
    mpfr_sum(dev, pv, (unsigned long)n, MPFR_RNDN);
    *var = *sd = NAN;
    if (n > 1) {
        mpfr_div_ui(s, dev, (unsigned long)(n - 1), MPFR_RNDN);
        *var = mpfr_get_d(s, MPFR_RNDN);
        mpfr_sqrt(s, s, MPFR_RNDN);
        *sd = mpfr_get_d(s, MPFR_RNDN);
    }
    if (mpfr_zero_p(dev)) *kappa = INFINITY;
    else {
        mpfr_div(sq, sq, dev, MPFR_RNDN);
        mpfr_sqrt(sq, sq, MPFR_RNDN);
        *kappa = mpfr_get_d(sq, MPFR_RNDN);
    }
    for (uint64_t k = 0; k < n; k++) mpfr_clear(v[k]);
    mpfr_clears(s, m, sq, dev, (mpfr_ptr)0);
    free(v);
    free(pv);
}

static void test_registry(void)
{
    for (size_t f = 0; f < NFAM; f++) {
        const sl_dataset *ds = sl_dataset_find(MOMENT_FAMILIES[f]);
        CHECK(ds != NULL, "family %s missing", MOMENT_FAMILIES[f]);
        if (ds) CHECK(ds->flags & SL_DS_OPT_IN, "%s: not opt-in (it would join every summation study)", ds->name);
    }
    /* the summation families stay in the every-family sweeps */
    size_t opt_in = 0;
    for (size_t i = 0; i < sl_dataset_count(); i++) opt_in += (sl_dataset_at(i)->flags & SL_DS_OPT_IN) != 0;
    /* and the five log-sum-exp families (logits, logits-dominant, lse-masked, logits-low,
     * logits-high: tlse_datasets), the four norm2 families (nrm2-table, huge, tiny, sq-overflow:
     * tnorm_twins) and the three dot pair families (dot-random, dot-cond, dot-overflow: tdot_twins) */
    CHECK(opt_in == NFAM + 5 + 4 + 3, "%zu opt-in families, expected %zu", opt_in,
          (size_t)NFAM + 5 + 4 + 3);
    CHECK(!(sl_dataset_find("normal")->flags & SL_DS_OPT_IN) && !(sl_dataset_find("cauchy")->flags & SL_DS_OPT_IN),
          "normal/cauchy are opt-in");
}

static void expect_param_error(const char *family, const char *kv, const char *must_contain)
{
    const sl_dataset *ds = sl_dataset_find(family);
    sl_params p;
    sl_err err = {{0}};
    sl_params_defaults(ds, &p);
    CHECK(sl_params_set(ds, &p, kv, &err) != 0, "%s: '%s' accepted", family, kv);
    CHECK(strstr(err.msg, must_contain) != NULL, "%s '%s': message '%s' lacks '%s'", family, kv, err.msg,
          must_contain);
}

/* A generation that must be refused, with a message naming `must_contain`. */
static void expect_gen_error(const char *family, sl_dtype dt, const char *const *kv, const char *must_contain)
{
    sl_err err = {{0}};
    void *buf = try_gen(family, dt, sl_test_seed(), 100, kv, &err);
    CHECK(buf == NULL, "%s %s %s: accepted", family, sl_dtype_name(dt), kv && kv[0] ? kv[0] : "(defaults)");
    CHECK(strstr(err.msg, must_contain) != NULL, "%s %s: message '%s' lacks '%s'", family, sl_dtype_name(dt),
          err.msg, must_contain);
    free(buf);
}

static void test_params(void)
{
    expect_param_error("offset-normal", "kappa=0.5", "outside");
    expect_param_error("offset-normal", "kappa=1e16", "outside");
    expect_param_error("offset-normal", "sd=0", "outside");
    expect_param_error("offset-normal", "sign=up", "pos|neg");
    expect_param_error("square-range", "scale=-1", "outside");
    expect_param_error("square-range", "rel=2", "outside");
    expect_param_error("constant", "value=1e301", "outside");
    expect_param_error("constant", "value=nan", "finite");
    expect_param_error("two-values", "share=1.5", "outside");
    expect_param_error("two-values", "order=zigzag", "random|spread");
    expect_param_error("outliers", "fraction=0.6", "outside");
    expect_param_error("outliers", "factor=0.5", "outside");
    expect_param_error("outliers", "row=1.5", "whole");
    expect_param_error("student-t", "df=0.5", "outside");
    expect_param_error("student-t", "scale=0", "outside");
    expect_param_error("student-t", "nu=3", "df, scale");
    expect_param_error("negative", "scale=0", "outside");

    /* refused by the format: values beyond its range, a spread it cannot hold */
    static const char *const c39[] = {"value=1e39", NULL}, *const a7e4[] = {"a=7e4", NULL},
                             *const s39[] = {"scale=1e39", NULL}, *const s50[] = {"scale=1e-50", NULL},
                             *const k8[] = {"kappa=1e8", NULL}, *const k3[] = {"kappa=1e3", NULL},
                             *const k6[] = {"kappa=1e6", NULL}, *const f5[] = {"factor=1e5", NULL},
                             *const sd[] = {"sd=1e-20", "kappa=1.5", NULL};
    expect_gen_error("constant", SL_F32, c39, "f32");
    expect_gen_error("two-values", SL_F16, a7e4, "65504");
    expect_gen_error("square-range", SL_F32, s39, "largest");
    expect_gen_error("square-range", SL_F32, s50, "rounds to 0");
    expect_gen_error("offset-normal", SL_F32, k8, "out of reach");
    expect_gen_error("offset-normal", SL_BF16, k3, "out of reach");
    expect_gen_error("offset-normal", SL_F16, k6, "largest");
    expect_gen_error("offset-normal", SL_F16, sd, "out of reach");
    expect_gen_error("outliers", SL_F16, f5, "largest");
    static const char *const n5[] = {"scale=4e4", NULL}, *const n_tiny[] = {"scale=1e-20", NULL};
    expect_gen_error("negative", SL_F16, n5, "largest");
    expect_gen_error("negative", SL_F16, n_tiny, "rounds to 0");
    /* the reach: just inside it in every format */
    static const char *const k_in32[] = {"kappa=3.3e7", NULL}, *const k_in16[] = {"kappa=2000", NULL},
                             *const k_inbf[] = {"kappa=200", NULL}, *const k_cross[] = {"kappa=33554420", NULL};
    expect_gen_error("offset-normal", SL_F32, k_cross, "out of reach"); /* mean + 13 sd crosses 2^25 */
    free(gen("offset-normal", SL_F32, 1, 10, k_in32));
    free(gen("offset-normal", SL_F16, 1, 10, k_in16));
    free(gen("offset-normal", SL_BF16, 1, 10, k_inbf));
}

/* Every family, every format, defaults: threads and slices give the single call's bytes, the
 * seed matters (constant aside), every value is finite, tiny n work. */
static void test_purity(void)
{
    const uint64_t seed = sl_test_seed(), n = 3 * SL_GEN_MIN_PER_THREAD + 5;
    for (size_t f = 0; f < NFAM; f++) {
        const sl_dataset *ds = sl_dataset_find(MOMENT_FAMILIES[f]);
        for (int t = 0; t < 4; t++) {
            const sl_dtype dt = ALL_DT[t];
            const size_t sz = sl_dtype_size(dt);
            sl_err err = {{0}};
            void *a = malloc(n * sz), *b = malloc(n * sz), *c = malloc(n * sz);
            int rc = sl_dataset_generate(ds, dt, seed, n, NULL, 0, n, a, &err);
            CHECK(rc == 0, "%s %s: %s", ds->name, sl_dtype_name(dt), err.msg);
            if (rc) {
                free(a), free(b), free(c);
                continue;
            }
            for (unsigned th = 2; th <= 4; th++) {
                memset(b, 0x5A, n * sz);
                rc = sl_dataset_generate_threads(ds, dt, seed, n, NULL, 0, n, b, th, &err);
                CHECK(rc == 0 && !memcmp(a, b, n * sz), "%s %s: %u threads differ", ds->name, sl_dtype_name(dt), th);
            }
            for (uint64_t r = 0; r < 6; r++) {
                uint64_t h = sl_rng_u64(seed, 500 + f * 4 + (uint64_t)t, r);
                uint64_t start = (h >> 32) % n, count = (h & 0xFFFFFFFFu) % (n - start + 1);
                rc = sl_dataset_generate(ds, dt, seed, n, NULL, start, count, b, &err);
                CHECK(rc == 0 && !memcmp(b, (char *)a + start * sz, count * sz), "%s %s: slice [%llu,+%llu) differs",
                      ds->name, sl_dtype_name(dt), (unsigned long long)start, (unsigned long long)count);
            }
            rc = sl_dataset_generate(ds, dt, seed + 1, n, NULL, 0, n, c, &err);
            const int seedless = !strcmp(ds->name, "constant");
            CHECK(rc == 0 && (seedless ? !memcmp(a, c, n * sz) : memcmp(a, c, n * sz) != 0),
                  "%s %s: seeds %llu and +1 %s", ds->name, sl_dtype_name(dt), (unsigned long long)seed,
                  seedless ? "differ" : "agree");
            uint64_t bad = 0;
            for (uint64_t k = 0; k < n; k++) bad += !isfinite(val(a, dt, k));
            CHECK(bad == 0, "%s %s: %llu non-finite values", ds->name, sl_dtype_name(dt), (unsigned long long)bad);
            for (uint64_t m = 0; m <= 3; m++) /* n = 1: one value (a variance with ddof 1 is NaN) */
                CHECK(sl_dataset_generate(ds, dt, seed, m, NULL, 0, m, b, &err) == 0, "%s %s n=%llu: %s", ds->name,
                      sl_dtype_name(dt), (unsigned long long)m, err.msg);
            free(a), free(b), free(c);
        }
    }
}

/* offset-normal: the measured kappa within 25 % of the asked one at n = 2^16 (the sample's
 * spread, about sqrt(2/n) = 0.6 %, and the rounding's, under 10 % at half an ulp), the mean's
 * sign as asked. */
static void test_kappa(void)
{
    const uint64_t n = (uint64_t)1 << 16;
    static const double k32[] = {1, 10, 1e3, 1e5, 1e6, 1e7, 3e7}, k64[] = {1, 10, 1e3, 1e6, 1e8, 1e12, 1e15},
                        k16[] = {1, 10, 100, 1000}, kbf[] = {1, 10, 100};
    struct { sl_dtype dt; const double *k; size_t nk; } cases[] = {
        {SL_F32, k32, 7}, {SL_F64, k64, 7}, {SL_F16, k16, 4}, {SL_BF16, kbf, 3}};
    for (size_t c = 0; c < 4; c++)
        for (size_t j = 0; j < cases[c].nk; j++)
            for (int neg = 0; neg < 2; neg++) {
                char kv[64];
                snprintf(kv, sizeof kv, "kappa=%.17g", cases[c].k[j]);
                const char *const params[] = {kv, neg ? "sign=neg" : "sign=pos", NULL};
                void *a = gen("offset-normal", cases[c].dt, sl_test_seed() + j, n, params);
                if (!a) continue;
                double kappa, var, sd, sum = 0;
                moments(a, cases[c].dt, n, &kappa, &var, &sd);
                for (uint64_t k = 0; k < n; k++) sum += val(a, cases[c].dt, k);
                const double want = cases[c].k[j];
                CHECK(kappa >= want / 1.25 && kappa <= want * 1.25 && (want == 1 || (neg ? sum < 0 : sum > 0)),
                      "offset-normal %s %s: measured kappa %.6g, mean %s", sl_dtype_name(cases[c].dt), kv, kappa,
                      sum < 0 ? "negative" : "positive");
                if (getenv("SUMLAB_VERBOSE"))
                    printf("offset-normal %-4s kappa %-6g sign %s: measured %.6g (ratio %.4f)\n",
                           sl_dtype_name(cases[c].dt), want, neg ? "neg" : "pos", kappa, kappa / want);
                free(a);
            }
}

/* The square of x in dt's arithmetic (the product rounded once to dt). */
static double square_in(double x, sl_dtype dt)
{
    if (dt == SL_F64) return x * x;
    if (dt == SL_F32) return (double)((float)x * (float)x);
    return sl_half_round(x * x, dt); /* x*x is exact in double for a 16-bit x */
}

/* square-range: by default every square overflows the format (and a float32 sum of squares is
 * inf) while every value and the exact variance are finite; a tiny scale makes every square
 * 0 while the values and the standard deviation are normal numbers. */
static void test_square_range(void)
{
    const uint64_t n = (uint64_t)1 << 16;
    static const char *const tiny32[] = {"scale=1e-25", NULL}, *const tiny64[] = {"scale=1e-170", NULL},
                             *const tiny16[] = {"scale=1e-4", NULL};
    for (int t = 0; t < 4; t++) {
        const sl_dtype dt = ALL_DT[t];
        void *a = gen("square-range", dt, sl_test_seed(), n, NULL);
        if (a) {
            uint64_t nonfinite = 0, finite_sq = 0;
            float sq32 = 0;
            for (uint64_t k = 0; k < n; k++) {
                const double x = val(a, dt, k);
                nonfinite += !isfinite(x);
                finite_sq += isfinite(square_in(x, dt));
                sq32 += (float)x * (float)x;
            }
            double kappa, var, sd;
            moments(a, dt, n, &kappa, &var, &sd);
            CHECK(nonfinite == 0 && finite_sq == 0, "square-range %s: %llu values non-finite, %llu squares finite",
                  sl_dtype_name(dt), (unsigned long long)nonfinite, (unsigned long long)finite_sq);
            CHECK(dt == SL_F16 || isinf(sq32), "square-range %s: float32 sum of squares %g is finite",
                  sl_dtype_name(dt), (double)sq32);
            CHECK(var > 0 && var <= sl_fmt_max(dt), "square-range %s: exact variance %g is not a finite positive %s",
                  sl_dtype_name(dt), var, sl_dtype_name(dt));
            free(a);
        }
        const char *const *tiny = dt == SL_F64 ? tiny64 : dt == SL_F16 ? tiny16 : tiny32;
        if ((a = gen("square-range", dt, sl_test_seed(), n, tiny))) {
            uint64_t not_normal = 0, nonzero_sq = 0;
            for (uint64_t k = 0; k < n; k++) {
                const double x = val(a, dt, k);
                not_normal += !(fabs(x) >= sl_pow2(sl_fmt_emin(dt)));
                nonzero_sq += square_in(x, dt) != 0;
            }
            double kappa, var, sd;
            moments(a, dt, n, &kappa, &var, &sd);
            CHECK(not_normal == 0 && nonzero_sq == 0, "square-range %s %s: %llu values not normal, %llu squares not 0",
                  sl_dtype_name(dt), tiny[0], (unsigned long long)not_normal, (unsigned long long)nonzero_sq);
            /* float16's 40 binades hold no such pair: there the standard deviation is subnormal */
            CHECK(sd >= sl_pow2(dt == SL_F16 ? sl_fmt_esub(dt) : sl_fmt_emin(dt)),
                  "square-range %s %s: standard deviation %g below the %s range", sl_dtype_name(dt), tiny[0], sd,
                  dt == SL_F16 ? "subnormal" : "normal");
            free(a);
        }
    }
}

/* constant: every value is the parameter rounded once, bit for bit (-0 kept). */
static void test_constant(void)
{
    static const char *const vals[] = {"value=0.1", "value=-3.75", "value=-0", "value=1e-30", NULL};
    const double want[] = {0.1, -3.75, -0.0, 1e-30};
    const uint64_t n = 4099;
    for (int t = 0; t < 4; t++)
        for (int v = 0; vals[v]; v++) {
            const char *const kv[] = {vals[v], NULL};
            void *a = gen("constant", ALL_DT[t], sl_test_seed(), n, kv);
            if (!a) continue;
            const double w = sl_round_fmt(want[v], ALL_DT[t]);
            uint64_t bad = 0;
            for (uint64_t k = 0; k < n; k++) {
                const double x = val(a, ALL_DT[t], k);
                bad += !(x == w && signbit(x) == signbit(w));
            }
            double kappa, var, sd;
            moments(a, ALL_DT[t], n, &kappa, &var, &sd);
            CHECK(bad == 0 && var == 0, "constant %s %s: %llu values differ from %a, variance %g",
                  sl_dtype_name(ALL_DT[t]), vals[v], (unsigned long long)bad, w, var);
            free(a);
        }
}

/* two-values: exactly round(share n) values are b, the others a; spread at 0.5 alternates. */
static void test_two_values(void)
{
    static const double shares[] = {0, 0.001, 0.3, 0.5, 0.999, 1};
    static const uint64_t ns[] = {1, 2, 7, 1000, 4097};
    for (int order = 0; order < 2; order++)
        for (size_t s = 0; s < sizeof shares / sizeof shares[0]; s++)
            for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
                char kv[64];
                snprintf(kv, sizeof kv, "share=%.17g", shares[s]);
                const char *const p[] = {kv, "a=-0.1", "b=7", order ? "order=spread" : "order=random", NULL};
                const uint64_t n = ns[j];
                void *a = gen("two-values", SL_F32, sl_test_seed(), n, p);
                if (!a) continue;
                uint64_t nb = 0, other = 0;
                for (uint64_t k = 0; k < n; k++) {
                    const double x = val(a, SL_F32, k);
                    nb += x == 7.0;
                    other += x != 7.0 && x != (double)-0.1f;
                }
                const uint64_t want = (uint64_t)floor(shares[s] * (double)n + 0.5);
                CHECK(nb == want && other == 0, "two-values %s n=%llu %s: %llu b (want %llu), %llu neither", kv,
                      (unsigned long long)n, p[3], (unsigned long long)nb, (unsigned long long)want,
                      (unsigned long long)other);
                free(a);
            }
    const uint64_t n = 1000;
    static const char *const alt[] = {"order=spread", NULL};
    void *a = gen("two-values", SL_F64, sl_test_seed(), n, alt), *r = gen("two-values", SL_F64, sl_test_seed(), n, NULL);
    if (a && r) {
        uint64_t bad = 0, same = 0;
        for (uint64_t k = 0; k < n; k++) {
            bad += val(a, SL_F64, k) != ((k & 1) ? 2.0 : 1.0);
            same += val(a, SL_F64, k) == val(r, SL_F64, k);
        }
        CHECK(bad == 0, "two-values spread 0.5: %llu values break a, b, a, b", (unsigned long long)bad);
        CHECK(same < n * 3 / 4, "two-values random order matches the spread one at %llu of %llu",
              (unsigned long long)same, (unsigned long long)n);
    }
    free(a), free(r);
}

/* outliers: exactly round(fraction n) values lie factor or more from the mean, the others
 * within 12.1 of it; with row = N the same columns hold them in every row. */
static void test_outliers(void)
{
    for (int t = 0; t < 4; t++) {
        const sl_dtype dt = ALL_DT[t];
        const uint64_t n = 100003;
        static const char *const mean[] = {"mean=20", "factor=1e3", NULL};
        void *a = gen("outliers", dt, sl_test_seed(), n, mean);
        if (!a) continue;
        uint64_t out = 0, mid = 0;
        for (uint64_t k = 0; k < n; k++) {
            const double d = fabs(val(a, dt, k) - 20.0);
            out += d >= 1e3;
            mid += d >= 12.1 && d < 1e3;
        }
        CHECK(out == 100 && mid == 0, "outliers %s: %llu outliers (want 100), %llu between", sl_dtype_name(dt),
              (unsigned long long)out, (unsigned long long)mid);
        free(a);
    }
    const uint64_t row = 1000, rows = 40, n = row * rows;
    static const char *const ch[] = {"row=1000", "fraction=0.004", "factor=1e4", NULL};
    void *a = gen("outliers", SL_F32, sl_test_seed(), n, ch);
    if (a) {
        uint64_t cols = 0, mismatch = 0;
        for (uint64_t c = 0; c < row; c++) {
            const int first = fabs(val(a, SL_F32, c)) >= 1e4;
            cols += first;
            for (uint64_t r = 1; r < rows; r++) mismatch += (fabs(val(a, SL_F32, r * row + c)) >= 1e4) != first;
        }
        CHECK(cols == 4 && mismatch == 0, "outliers row=1000: %llu outlier columns (want 4), %llu rows disagree",
              (unsigned long long)cols, (unsigned long long)mismatch);
        free(a);
    }
}

/* Student t CDF at 1 for df 1 and 3 (closed forms) and the normal limit: P(|T| < 1). */
static void test_student_t(void)
{
    const uint64_t n = (uint64_t)1 << 16;
    const double pi = 3.14159265358979323846;
    struct { const char *df; double p; } cases[] = {
        {"df=1", 0.5},
        {"df=3", 2.0 * (1.0 / pi) * (atan(1.0 / sqrt(3.0)) + (1.0 / sqrt(3.0)) / (1.0 + 1.0 / 3.0))},
        {"df=1e6", erf(1.0 / sqrt(2.0))},
    };
    const double se4 = 4.0 * sqrt(0.25 / (double)n); /* 4 standard errors of a share */
    for (int t = 0; t < 2; t++)
        for (size_t c = 0; c < 3; c++) {
            const char *const kv[] = {cases[c].df, NULL};
            void *a = gen("student-t", ALL_DT[t], sl_test_seed(), n, kv);
            if (!a) continue;
            uint64_t below = 0;
            for (uint64_t k = 0; k < n; k++) below += fabs(val(a, ALL_DT[t], k)) < 1.0;
            const double got = (double)below / (double)n;
            CHECK(fabs(got - cases[c].p) < se4, "student-t %s %s: P(|T| < 1) = %.4f, want %.4f", cases[c].df,
                  sl_dtype_name(ALL_DT[t]), got, cases[c].p);
            free(a);
        }
    /* df = 10: the variance df/(df-2) = 1.25 within 5 % */
    static const char *const d10[] = {"df=10", NULL};
    void *a = gen("student-t", SL_F64, sl_test_seed(), n, d10);
    if (a) {
        double kappa, var, sd;
        moments(a, SL_F64, n, &kappa, &var, &sd);
        CHECK(fabs(var / 1.25 - 1.0) < 0.05, "student-t df=10: variance %.4f, want 1.25", var);
        free(a);
    }
    /* clamping: float16 values are the float64 ones clamped to +-65504 then rounded; without the
     * clamp, the registry would refuse these parameters (a value overflowing float16) */
    static const char *const wide[] = {"df=1", "scale=1e3", NULL};
    void *h = gen("student-t", SL_F16, sl_test_seed(), n, wide), *d = gen("student-t", SL_F64, sl_test_seed(), n, wide);
    if (h && d) {
        uint64_t bad = 0, clamped = 0;
        for (uint64_t k = 0; k < n; k++) {
            const double x = val(d, SL_F64, k), m = 65504.0;
            const double want = sl_half_round(x > m ? m : x < -m ? -m : x, SL_F16);
            bad += val(h, SL_F16, k) != want;
            clamped += fabs(x) > m;
        }
        CHECK(bad == 0 && clamped > 0, "student-t f16 clamp: %llu values differ, %llu clamped", (unsigned long long)bad,
              (unsigned long long)clamped);
    }
    free(h), free(d);
}

/* The deterministic exp and expm1 against libm. */
static void test_det_exp(void)
{
    double worst = 0, worst_m1 = 0;
    for (uint64_t i = 0; i < 20000; i++) {
        const double u = sl_rng_unit(sl_test_seed(), 7, i);
        const double y = -700.0 + 1400.0 * u, ys = (u - 0.5) * sl_pow2(-(int)(i % 40));
        double r = fabs(sl_det_exp(y) - exp(y)) / exp(y);
        if (r > worst) worst = r;
        r = fabs(sl_det_expm1(ys) - expm1(ys)) / fabs(expm1(ys));
        if (ys != 0 && r > worst_m1) worst_m1 = r;
        r = fabs(sl_det_expm1(y / 100) - expm1(y / 100)) / fabs(expm1(y / 100));
        if (y != 0 && r > worst_m1) worst_m1 = r;
    }
    CHECK(worst < 1e-15 && worst_m1 < 1e-15, "sl_det_exp relative error %g, sl_det_expm1 %g", worst, worst_m1);
    CHECK(sl_det_exp(0) == 1.0 && sl_det_expm1(0) == 0.0 && sl_det_exp(-800) == 0.0, "exp(0), expm1(0), exp(-800)");
}

/* negative: every value in [-2 scale, -scale] (rounding may reach -2 scale) and below 0 in every
 * format, so the maximum is negative; values spread over the interval (both halves hit). */
static void test_negative(void)
{
    static const char *const scales[] = {"scale=1", "scale=1e-3", "scale=1000", NULL};
    const double sc[] = {1, 1e-3, 1000};
    const uint64_t n = 4099;
    for (int t = 0; t < 4; t++)
        for (int s = 0; scales[s]; s++) {
            const char *const kv[] = {scales[s], NULL};
            void *a = gen("negative", ALL_DT[t], sl_test_seed(), n, kv);
            if (!a) continue;
            const double lo = -2.0 * sl_round_fmt(sc[s], ALL_DT[t]) * (1 + 0x1p-7), hi = -sl_round_fmt(sc[s], ALL_DT[t]);
            uint64_t out = 0, low = 0;
            double mx = -INFINITY;
            for (uint64_t k = 0; k < n; k++) {
                const double x = val(a, ALL_DT[t], k);
                out += !(x >= lo && x <= hi && x < 0);
                low += x < 1.5 * hi;
                if (x > mx) mx = x;
            }
            CHECK(out == 0 && mx < 0 && low > n / 4 && low < 3 * n / 4,
                  "negative %s %s: %llu values outside [%g, %g], max %g, %llu in the lower half",
                  sl_dtype_name(ALL_DT[t]), scales[s], (unsigned long long)out, lo, hi, mx,
                  (unsigned long long)low);
            free(a);
        }
}

int main(void)
{
    test_registry();
    test_params();
    test_purity();
    test_kappa();
    test_square_range();
    test_constant();
    test_two_values();
    test_outliers();
    test_student_t();
    test_negative();
    test_det_exp();
    return sl_test_done("tdatasets_moments");
}

/* tdatasets.c: tests of the dataset registry, parameter parsing and every generator family:
 * purity (same seed, slices), finiteness, and each family's defining property, measured
 * exactly with MPFR where a sum is involved. */
#include "sl_test.h"
#include "sl_ds_impl.h"
#include <float.h>
#include <math.h>
#include <mpfr.h>

static const sl_dtype DTS[2] = {SL_F32, SL_F64};

static double val(const void *buf, sl_dtype dt, uint64_t k)
{
    return dt == SL_F64 ? ((const double *)buf)[k] : (double)((const float *)buf)[k];
}

/* Generates values [start, start+count) of an n-element dataset; NULL (and a failed check) on error. */
static void *gen(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n, const sl_params *p,
                 uint64_t start, uint64_t count)
{
    sl_err err = {{0}};
    void *buf = malloc(count ? count * sl_dtype_size(dt) : 1);
    int rc = sl_dataset_generate(ds, dt, seed, n, p, start, count, buf, &err);
    CHECK(rc == 0, "%s %s n=%llu: %s", ds->name, sl_dtype_name(dt), (unsigned long long)n, err.msg);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Parameters of ds from "k=v" strings (NULL-terminated); a bad string fails the test. */
static sl_params params(const sl_dataset *ds, const char *const *kv)
{
    sl_params p;
    sl_err err;
    sl_params_defaults(ds, &p);
    for (; kv && *kv; kv++) {
        int rc = sl_params_set(ds, &p, *kv, &err);
        CHECK(rc == 0, "%s %s: %s", ds->name, *kv, err.msg);
    }
    return p;
}

/* Exact sum and sum of magnitudes with MPFR (mpfr_sum is correctly rounded at any precision). */
static void exact_sums(const void *buf, sl_dtype dt, uint64_t n, mpfr_t sum, mpfr_t sumabs)
{
    mpfr_t *v = malloc((n ? n : 1) * sizeof *v);
    mpfr_ptr *pv = calloc(n ? n : 1, sizeof *pv);
    for (uint64_t k = 0; k < n; k++) {
        mpfr_init2(v[k], 53);
        mpfr_set_d(v[k], val(buf, dt, k), MPFR_RNDN); /* exact: every value is a double */
        pv[k] = v[k];
    }
    mpfr_sum(sum, pv, (unsigned long)n, MPFR_RNDN);
    for (uint64_t k = 0; k < n; k++) mpfr_abs(v[k], v[k], MPFR_RNDN);
    mpfr_sum(sumabs, pv, (unsigned long)n, MPFR_RNDN);
    for (uint64_t k = 0; k < n; k++) mpfr_clear(v[k]);
    free(v);
    free(pv);
}

/* sum|x| / |sum x| computed exactly then rounded (inf when the sum is 0). */
static double cond_of(const void *buf, sl_dtype dt, uint64_t n)
{
    mpfr_t s, a;
    mpfr_inits2(128, s, a, (mpfr_ptr)0);
    exact_sums(buf, dt, n, s, a);
    double c = INFINITY;
    if (!mpfr_zero_p(s)) {
        mpfr_abs(s, s, MPFR_RNDN);
        mpfr_div(a, a, s, MPFR_RNDN);
        c = mpfr_get_d(a, MPFR_RNDN);
    }
    mpfr_clears(s, a, (mpfr_ptr)0);
    return c;
}

/* Recursive sum in the format's own arithmetic. */
static double recursive_sum(const void *buf, sl_dtype dt, uint64_t n)
{
    if (dt == SL_F64) {
        double s = 0;
        for (uint64_t k = 0; k < n; k++) s += ((const double *)buf)[k];
        return s;
    }
    float s = 0;
    for (uint64_t k = 0; k < n; k++) s += ((const float *)buf)[k];
    return s;
}

static int kebab(const char *s)
{
    if (!*s || *s == '-') return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-')) return 0;
    return 1;
}

static void test_registry(void)
{
    const char *required[] = {"uniform", "uniform-sym", "normal", "log-uniform", "ill-conditioned",
                              "absorption", "cancellation", "sorted-inc", "sorted-dec", "alternating",
                              "cauchy", "subnormal", "overflow", "special"};
    for (size_t k = 0; k < sizeof required / sizeof required[0]; k++)
        CHECK(sl_dataset_find(required[k]) != NULL, "family %s missing", required[k]);
    CHECK(sl_dataset_find("no-such-family") == NULL, "unknown name found");
    CHECK(sl_dataset_find(NULL) == NULL, "NULL name found");
    CHECK(sl_dataset_at(sl_dataset_count()) == NULL, "at(count) not NULL");
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        CHECK(ds && ds->fill && ds->name && ds->description && *ds->description, "entry %zu incomplete", i);
        if (!ds) continue;
        CHECK(kebab(ds->name), "name '%s' is not kebab-case", ds->name);
        CHECK(sl_dataset_find(ds->name) == ds, "find(%s) is not entry %zu", ds->name, i);
        CHECK(ds->nparams >= 0 && ds->nparams <= SL_MAX_PARAMS, "%s: nparams %d", ds->name, ds->nparams);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(sl_dataset_at(j)->name, ds->name) != 0, "duplicate name %s", ds->name);
        for (int k = 0; k < ds->nparams; k++) {
            const sl_param_desc *d = &ds->params[k];
            CHECK(d->name && kebab(d->name) && d->description && *d->description, "%s: param %d", ds->name, k);
            CHECK(d->min <= d->def && d->def <= d->max, "%s.%s: default outside range", ds->name, d->name);
            CHECK(d->type == SL_PARAM_REAL || d->def == floor(d->def), "%s.%s: default not whole", ds->name,
                  d->name);
            CHECK((d->type == SL_PARAM_ENUM) == (d->choices != NULL), "%s.%s: choices", ds->name, d->name);
        }
    }
}

static void expect_param_error(const char *family, const char *kv, const char *must_contain)
{
    const sl_dataset *ds = sl_dataset_find(family);
    sl_params p, before;
    sl_err err = {{0}};
    sl_params_defaults(ds, &p);
    before = p;
    int rc = sl_params_set(ds, &p, kv, &err);
    CHECK(rc != 0, "%s: '%s' accepted", family, kv);
    CHECK(!memcmp(&p, &before, sizeof p), "%s: '%s' changed params on failure", family, kv);
    CHECK(strlen(err.msg) > 0, "%s: '%s' left no message", family, kv);
    if (must_contain) CHECK(strstr(err.msg, must_contain) != NULL, "'%s': message '%s' lacks '%s'", kv, err.msg, must_contain);
}

static void test_params(void)
{
    const sl_dataset *ic = sl_dataset_find("ill-conditioned"), *lu = sl_dataset_find("log-uniform"),
                     *sp = sl_dataset_find("special"), *un = sl_dataset_find("uniform");
    sl_params p;
    sl_err err;
    sl_params_defaults(ic, &p);
    CHECK(sl_params_get(ic, &p, "cond") == ic->params[0].def, "default cond");
    CHECK(sl_params_set(ic, &p, "cond=1e8", &err) == 0, "%s", err.msg);
    CHECK(sl_params_get(ic, &p, "cond") == 1e8, "cond=%g", sl_params_get(ic, &p, "cond"));
    CHECK(isnan(sl_params_get(ic, &p, "nope")), "unknown key not NaN");
    expect_param_error("ill-conditioned", "cond=1e8x", "not a number");
    expect_param_error("ill-conditioned", "cond=", "not a number");
    expect_param_error("ill-conditioned", "cond= 5", "not a number");
    expect_param_error("ill-conditioned", "cond", "key=value");
    expect_param_error("ill-conditioned", "cond=nan", "finite");
    expect_param_error("ill-conditioned", "cond=inf", "finite");
    expect_param_error("ill-conditioned", "cond=0.5", "outside");
    expect_param_error("ill-conditioned", "cond=1e400", "range");
    expect_param_error("ill-conditioned", "bogus=1", "cond");
    expect_param_error("log-uniform", "bogus=1", "emin, emax, pneg, subnormals");
    expect_param_error("log-uniform", "emin=1.5", "whole");
    expect_param_error("log-uniform", "pneg=1.0001", "outside");
    expect_param_error("uniform", "x=1", "no parameters");
    expect_param_error("special", "kind=foo", "nan|inf");
    expect_param_error("special", "kind=7", "outside");
    expect_param_error("special", "count=0", "outside");
    sl_params_defaults(lu, &p);
    CHECK(sl_params_set(lu, &p, "emin=-3", &err) == 0 && sl_params_get(lu, &p, "emin") == -3, "emin=-3");
    sl_params_defaults(sp, &p);
    CHECK(sl_params_set(sp, &p, "kind=posneg-inf", &err) == 0, "%s", err.msg);
    char buf[32];
    const char *nm = sl_param_choice(&sp->params[0], p.v[0], buf, sizeof buf);
    CHECK(nm && !strcmp(nm, "posneg-inf"), "choice name %s", nm ? nm : "(null)");
    CHECK(sl_params_set(sp, &p, "kind=2", &err) == 0 && p.v[0] == 2, "kind=2");
    CHECK(sl_params_set(sp, &p, "count=11", &err) == 0, "%s", err.msg);
    {
        float g[10];
        CHECK(sl_dataset_generate(sp, SL_F32, 1, 10, &p, 0, 10, g, &err) != 0 && strstr(err.msg, "count"),
              "special count > n accepted: %s", err.msg);
        CHECK(sl_params_set(sp, &p, "count=10", &err) == 0 &&
                  sl_dataset_generate(sp, SL_F32, 1, 10, &p, 0, 10, g, &err) == 0,
              "special count == n refused: %s", err.msg);
    }
    CHECK(sl_param_choice(&lu->params[0], 0, buf, sizeof buf) == NULL, "choice of a non-enum");

    /* Checked entry point. */
    float f[4];
    sl_params_defaults(un, &p);
    CHECK(sl_dataset_generate(un, SL_F32, 1, 10, &p, 8, 3, f, &err) != 0, "slice past n accepted");
    CHECK(sl_dataset_generate(un, SL_F32, 1, 10, &p, UINT64_MAX, 2, f, &err) != 0, "wrapping slice accepted");
    CHECK(sl_dataset_generate(un, SL_F32, 1, 10, &p, 0, 3, NULL, &err) != 0, "NULL out accepted");
    CHECK(sl_dataset_generate(un, (sl_dtype)7, 1, 10, &p, 0, 3, f, &err) != 0, "bad dtype accepted");
    CHECK(sl_dataset_generate(un, SL_F32, 1, 10, &p, 10, 0, NULL, &err) == 0, "empty slice: %s", err.msg);
    CHECK(sl_dataset_generate(un, SL_F32, 1, 10, NULL, 0, 4, f, &err) == 0, "NULL params: %s", err.msg);
    sl_params_defaults(ic, &p);
    p.v[0] = 0.5;
    CHECK(sl_dataset_generate(ic, SL_F64, 1, 10, &p, 0, 3, f, &err) != 0, "out-of-range struct value accepted");
    sl_params_defaults(lu, &p);
    p.v[0] = 10, p.v[1] = -10;
    CHECK(sl_dataset_generate(lu, SL_F64, 1, 2, &p, 0, 2, f, &err) != 0 && strstr(err.msg, "emin"),
          "emin > emax accepted: %s", err.msg);
    p.v[0] = 200, p.v[1] = 300; /* entirely above the f32 range */
    CHECK(sl_dataset_generate(lu, SL_F32, 1, 2, &p, 0, 2, f, &err) != 0, "range outside f32 accepted");
    sl_params_defaults(ic, &p);
    p.v[0] = 1e200;
    CHECK(sl_dataset_generate(ic, SL_F32, 1, 1000, &p, 0, 2, f, &err) != 0 && strstr(err.msg, "f32"),
          "cond=1e200 in f32 accepted: %s", err.msg);
}

static void test_rng(void)
{
    uint64_t s = sl_test_seed();
    int same_stream = 0, same_seed = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        double u = sl_rng_unit(s, 5, i);
        CHECK(u >= 0.0 && u < 1.0, "unit %g", u);
        CHECK(sl_rng_u64(s, 5, i) == sl_rng_u64(s, 5, i), "not pure");
        same_stream += sl_rng_u64(s, 5, i) == sl_rng_u64(s, 6, i);
        same_seed += sl_rng_u64(s, 5, i) == sl_rng_u64(s + 1, 5, i);
    }
    CHECK(same_stream == 0 && same_seed == 0, "streams/seeds collide %d %d", same_stream, same_seed);
    /* The Feistel permutation is a bijection of [0,n). */
    const uint64_t ns[] = {1, 2, 3, 7, 64, 1000, 65537};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        sl_perm pm;
        sl_perm_init(&pm, ns[t], s, 9);
        unsigned char *seen = calloc(ns[t], 1);
        uint64_t bad = 0, fixed = 0;
        for (uint64_t i = 0; i < ns[t]; i++) {
            uint64_t q = sl_perm_apply(&pm, i);
            if (q >= ns[t] || seen[q]) bad++;
            else seen[q] = 1;
            fixed += q == i;
        }
        CHECK(bad == 0, "perm n=%llu not a bijection (%llu bad)", (unsigned long long)ns[t], (unsigned long long)bad);
        CHECK(ns[t] < 1000 || fixed < ns[t] / 100, "perm n=%llu keeps %llu fixed points", (unsigned long long)ns[t],
              (unsigned long long)fixed);
        free(seen);
    }
    /* sl_det_log against libm. */
    double worst = 0;
    for (uint64_t i = 0; i < 2000; i++) {
        double x = sl_pow2((int)(sl_rng_u64(s, 1, i) % 2000) - 1000) * sl_mant(sl_rng_u64(s, 2, i), SL_F64);
        double r = fabs(sl_det_log(x) - log(x)) / fmax(fabs(log(x)), 1e-300);
        if (r > worst) worst = r;
    }
    CHECK(worst < 4e-16, "sl_det_log relative error %g", worst);
}

/* Purity: same seed same bits, another seed other bits, slices equal the whole; all finite. */
/* Threads: every family, both dtypes, thread counts 1..9 give the single call's bytes. */
static void test_threads(void)
{
    const uint64_t seed = sl_test_seed(), n = 5 * SL_GEN_MIN_PER_THREAD + 333;
    for (size_t f = 0; f < sl_dataset_count(); f++) {
        const sl_dataset *ds = sl_dataset_at(f);
        for (int t = 0; t < 2; t++) {
            sl_dtype dt = DTS[t];
            size_t sz = sl_dtype_size(dt);
            void *a = gen(ds, dt, seed, n, NULL, 0, n), *b = malloc(n * sz);
            if (!a || !b) {
                free(a);
                free(b);
                continue;
            }
            for (unsigned th = 2; th <= 9; th++) {
                sl_err err = {{0}};
                memset(b, 0xA5, n * sz);
                int rc = sl_dataset_generate_threads(ds, dt, seed, n, NULL, 0, n, b, th, &err);
                CHECK(rc == 0 && !memcmp(a, b, n * sz), "%s %s: %u threads differ (rc %d: %s)", ds->name,
                      sl_dtype_name(dt), th, rc, err.msg);
            }
            free(a);
            free(b);
        }
    }
    sl_err err = {{0}};
    float one;
    CHECK(sl_dataset_generate_threads(sl_dataset_find("uniform"), SL_F32, 0, 10, NULL, 5, 10, &one, 4, &err) != 0 &&
              strstr(err.msg, "outside"),
          "a bad slice through the threaded path: one clear error (got '%s')", err.msg);
}

static void test_purity(void)
{
    const uint64_t seed = sl_test_seed(), n = 4099;
    for (size_t f = 0; f < sl_dataset_count(); f++) {
        const sl_dataset *ds = sl_dataset_at(f);
        /* lse-masked: -Inf masks by design */
        const int special = !strcmp(ds->name, "special") || !strcmp(ds->name, "lse-masked");
        for (int t = 0; t < 2; t++) {
            sl_dtype dt = DTS[t];
            size_t sz = sl_dtype_size(dt);
            void *a = gen(ds, dt, seed, n, NULL, 0, n), *b = gen(ds, dt, seed, n, NULL, 0, n);
            void *c = gen(ds, dt, seed + 1, n, NULL, 0, n);
            if (!a || !b || !c) continue;
            CHECK(!memcmp(a, b, n * sz), "%s %s: same seed differs", ds->name, sl_dtype_name(dt));
            /* constant's values are its parameter alone: the one family the seed does not move */
            const int seedless = !strcmp(ds->name, "constant");
            CHECK(seedless ? !memcmp(a, c, n * sz) : memcmp(a, c, n * sz) != 0, "%s %s: seeds %llu and +1 %s",
                  ds->name, sl_dtype_name(dt), (unsigned long long)seed, seedless ? "differ" : "agree");
            uint64_t nonfinite = 0;
            for (uint64_t k = 0; k < n; k++) nonfinite += !isfinite(val(a, dt, k));
            CHECK(special ? nonfinite > 0 : nonfinite == 0, "%s %s: %llu non-finite values", ds->name,
                  sl_dtype_name(dt), (unsigned long long)nonfinite);
            for (uint64_t r = 0; r < 8; r++) {
                uint64_t h = sl_rng_u64(seed, 100 + f * 2 + (uint64_t)t, r);
                uint64_t start = (h >> 32) % n, count = (h & 0xFFFFFFFFu) % (n - start + 1);
                void *s = gen(ds, dt, seed, n, NULL, start, count);
                if (!s) continue;
                CHECK(!memcmp(s, (char *)a + start * sz, count * sz), "%s %s: slice [%llu,+%llu) differs",
                      ds->name, sl_dtype_name(dt), (unsigned long long)start, (unsigned long long)count);
                free(s);
            }
            /* Sizes beyond 32 bits: overlapping slices near the end of n = 2^33 + 7 agree. */
            const uint64_t big = (1ull << 33) + 7, s0 = big - 300;
            void *x = gen(ds, dt, seed, big, NULL, s0, 300), *y = gen(ds, dt, seed, big, NULL, s0 + 100, 50);
            if (x && y)
                CHECK(!memcmp((char *)x + 100 * sz, y, 50 * sz), "%s %s: slices of n=2^33+7 differ", ds->name,
                      sl_dtype_name(dt));
            free(x), free(y);
            for (uint64_t m = 0; m <= 3; m++) free(gen(ds, dt, seed, m, NULL, 0, m)); /* tiny n work */
            free(a), free(b), free(c);
        }
    }
}

/* Extreme parameters still give finite values. */
static void test_extremes_finite(void)
{
    static const char *const lu[] = {"emin=-1100", "emax=1100", "subnormals=1", NULL};
    static const char *const so[] = {"emin=-1100", "emax=1100", NULL};
    static const char *const ic[] = {"cond=1e30", NULL};
    static const char *const ca[] = {"scale=1e20", NULL};
    static const char *const no[] = {"sd=1e20", "mean=1e6", NULL};
    static const char *const ov[] = {"peak=1000", NULL};
    static const char *const ab[] = {"big=100", "frac=0.5", NULL};
    static const char *const ab2[] = {"big=-100", NULL};
    static const char *const cc[] = {"espan=100", "rem=1", NULL};
    struct { const char *name; const char *const *kv; } cases[] = {
        {"log-uniform", lu}, {"sorted-inc", so}, {"sorted-dec", so}, {"ill-conditioned", ic},
        {"cauchy", ca}, {"normal", no}, {"overflow", ov}, {"absorption", ab}, {"absorption", ab2},
        {"cancellation", cc},
    };
    const uint64_t n = 20000;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const sl_dataset *ds = sl_dataset_find(cases[c].name);
        sl_params p = params(ds, cases[c].kv);
        for (int t = 0; t < 2; t++) {
            void *a = gen(ds, DTS[t], sl_test_seed(), n, &p, 0, n);
            if (!a) continue;
            uint64_t bad = 0;
            for (uint64_t k = 0; k < n; k++) bad += !isfinite(val(a, DTS[t], k));
            CHECK(bad == 0, "%s case %zu %s: %llu non-finite", cases[c].name, c, sl_dtype_name(DTS[t]),
                  (unsigned long long)bad);
            free(a);
        }
    }
}

static void test_cond(void)
{
    const sl_dataset *ds = sl_dataset_find("ill-conditioned");
    const double targets[] = {1, 1e3, 1e8, 1e16, 1e24, 1e30};
    const uint64_t ns[] = {1000, 1001, 30000};
    for (size_t c = 0; c < sizeof targets / sizeof targets[0]; c++)
        for (int t = 0; t < 2; t++)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
                for (uint64_t s = 0; s < 3; s++) {
                    sl_params p;
                    sl_params_defaults(ds, &p);
                    p.v[0] = targets[c];
                    uint64_t seed = sl_test_seed() + s;
                    void *a = gen(ds, DTS[t], seed, ns[k], &p, 0, ns[k]);
                    if (!a) continue;
                    double got = cond_of(a, DTS[t], ns[k]);
                    CHECK(got >= targets[c] / 10 && got <= targets[c] * 10,
                          "cond target %g %s n=%llu seed %llu: measured %g", targets[c], sl_dtype_name(DTS[t]),
                          (unsigned long long)ns[k], (unsigned long long)seed, got);
                    if (getenv("SUMLAB_VERBOSE"))
                        printf("cond %-6g %s n=%-6llu measured %.4g (ratio %.3f)\n", targets[c],
                               sl_dtype_name(DTS[t]), (unsigned long long)ns[k], got, got / targets[c]);
                    free(a);
                }
}

static void exp_range(const void *a, sl_dtype dt, uint64_t n, int *lo, int *hi)
{
    *lo = INT32_MAX, *hi = INT32_MIN;
    for (uint64_t k = 0; k < n; k++) {
        double x = val(a, dt, k);
        if (x == 0) continue;
        int e = ilogb(x);
        if (e < *lo) *lo = e;
        if (e > *hi) *hi = e;
    }
}

static void test_log_uniform(void)
{
    const sl_dataset *ds = sl_dataset_find("log-uniform");
    static const char *const narrow[] = {"emin=-30", "emax=25", NULL};
    static const char *const full_sub[] = {"emin=-1100", "emax=1100", "subnormals=1", NULL};
    static const char *const full[] = {"emin=-1100", "emax=1100", NULL};
    static const char *const pos[] = {"pneg=0", NULL};
    static const char *const neg[] = {"pneg=1", NULL};
    for (int t = 0; t < 2; t++) {
        sl_dtype dt = DTS[t];
        int lo, hi;
        uint64_t n = 20000;
        sl_params p = params(ds, narrow);
        void *a = gen(ds, dt, sl_test_seed(), n, &p, 0, n);
        if (a) {
            exp_range(a, dt, n, &lo, &hi);
            CHECK(lo == -30 && hi == 25, "%s narrow: exponents [%d, %d]", sl_dtype_name(dt), lo, hi);
            free(a);
        }
        n = 300000;
        p = params(ds, full_sub);
        if ((a = gen(ds, dt, sl_test_seed(), n, &p, 0, n))) {
            exp_range(a, dt, n, &lo, &hi);
            CHECK(lo == sl_fmt_esub(dt) && hi == sl_fmt_emax(dt), "%s full+sub: exponents [%d, %d]",
                  sl_dtype_name(dt), lo, hi);
            free(a);
        }
        p = params(ds, full);
        if ((a = gen(ds, dt, sl_test_seed(), n, &p, 0, n))) {
            exp_range(a, dt, n, &lo, &hi);
            CHECK(lo == sl_fmt_emin(dt) && hi == sl_fmt_emax(dt), "%s full: exponents [%d, %d]",
                  sl_dtype_name(dt), lo, hi);
            free(a);
        }
        n = 5000;
        uint64_t npos = 0, nneg = 0;
        p = params(ds, pos);
        if ((a = gen(ds, dt, sl_test_seed(), n, &p, 0, n))) {
            for (uint64_t k = 0; k < n; k++) npos += val(a, dt, k) > 0;
            free(a);
        }
        p = params(ds, neg);
        if ((a = gen(ds, dt, sl_test_seed(), n, &p, 0, n))) {
            for (uint64_t k = 0; k < n; k++) nneg += val(a, dt, k) < 0;
            free(a);
        }
        CHECK(npos == n && nneg == n, "pneg=0: %llu positive, pneg=1: %llu negative", (unsigned long long)npos,
              (unsigned long long)nneg);
        if ((a = gen(ds, dt, sl_test_seed(), n, NULL, 0, n))) { /* default: both signs */
            npos = 0;
            for (uint64_t k = 0; k < n; k++) npos += val(a, dt, k) > 0;
            CHECK(npos > n * 2 / 5 && npos < n * 3 / 5, "default pneg: %llu positive", (unsigned long long)npos);
            free(a);
        }
    }
}

static int is_subnormal(double x, sl_dtype dt)
{
    return dt == SL_F64 ? fpclassify(x) == FP_SUBNORMAL : fpclassify((float)x) == FP_SUBNORMAL;
}

static void test_subnormal(void)
{
    const sl_dataset *ds = sl_dataset_find("subnormal");
    static const char *const mixed[] = {"pnormal=0.5", NULL};
    const uint64_t n = 10000;
    for (int t = 0; t < 2; t++) {
        sl_dtype dt = DTS[t];
        void *a = gen(ds, dt, sl_test_seed(), n, NULL, 0, n);
        if (a) {
            uint64_t sub = 0;
            for (uint64_t k = 0; k < n; k++) sub += is_subnormal(val(a, dt, k), dt);
            CHECK(sub == n, "%s: %llu of %llu subnormal", sl_dtype_name(dt), (unsigned long long)sub,
                  (unsigned long long)n);
            free(a);
        }
        sl_params p = params(ds, mixed);
        if ((a = gen(ds, dt, sl_test_seed(), n, &p, 0, n))) {
            uint64_t sub = 0, nrm = 0;
            for (uint64_t k = 0; k < n; k++) {
                double x = val(a, dt, k);
                sub += is_subnormal(x, dt);
                nrm += (dt == SL_F64 ? fpclassify(x) : fpclassify((float)x)) == FP_NORMAL;
            }
            CHECK(sub + nrm == n && nrm > n * 2 / 5 && nrm < n * 3 / 5, "%s mixed: %llu subnormal %llu normal",
                  sl_dtype_name(dt), (unsigned long long)sub, (unsigned long long)nrm);
            free(a);
        }
    }
}

static void test_overflow(void)
{
    const sl_dataset *ds = sl_dataset_find("overflow");
    const uint64_t ns[] = {64, 1000, 4097, 100000};
    for (int t = 0; t < 2; t++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            sl_dtype dt = DTS[t];
            void *a = gen(ds, dt, sl_test_seed(), ns[k], NULL, 0, ns[k]);
            if (!a) continue;
            double r = recursive_sum(a, dt, ns[k]);
            mpfr_t s, sa;
            mpfr_inits2(64, s, sa, (mpfr_ptr)0);
            exact_sums(a, dt, ns[k], s, sa);
            mpfr_abs(s, s, MPFR_RNDN);
            CHECK(isinf(r), "%s n=%llu: recursive sum %a did not overflow", sl_dtype_name(dt),
                  (unsigned long long)ns[k], r);
            CHECK(mpfr_cmp_d(s, sl_fmt_max(dt)) <= 0, "%s n=%llu: exact sum %g not finite in format",
                  sl_dtype_name(dt), (unsigned long long)ns[k], mpfr_get_d(s, MPFR_RNDN));
            mpfr_clears(s, sa, (mpfr_ptr)0);
            free(a);
        }
}

static void test_special(void)
{
    const sl_dataset *ds = sl_dataset_find("special");
    const uint64_t n = 1000;
    for (int kind = 0; kind < 5; kind++)
        for (int t = 0; t < 2; t++) {
            sl_params p;
            sl_params_defaults(ds, &p);
            p.v[0] = kind;
            p.v[1] = 4;
            void *a = gen(ds, DTS[t], sl_test_seed(), n, &p, 0, n);
            if (!a) continue;
            uint64_t nan = 0, pinf = 0, ninf = 0;
            for (uint64_t k = 0; k < n; k++) {
                double x = val(a, DTS[t], k);
                nan += isnan(x);
                pinf += isinf(x) && x > 0;
                ninf += isinf(x) && x < 0;
            }
            int ok = kind == 0 ? nan == 4 && pinf + ninf == 0
                   : kind == 1 ? pinf == 4 && nan + ninf == 0
                   : kind == 2 ? ninf == 4 && nan + pinf == 0
                   : kind == 3 ? pinf == 2 && ninf == 2 && nan == 0
                               : nan == 2 && pinf == 2 && ninf == 0;
            CHECK(ok, "kind %d %s: %llu NaN, %llu +Inf, %llu -Inf", kind, sl_dtype_name(DTS[t]),
                  (unsigned long long)nan, (unsigned long long)pinf, (unsigned long long)ninf);
            free(a);
        }
}

static void test_absorption(void)
{
    const sl_dataset *ds = sl_dataset_find("absorption");
    const uint64_t n = 5000;
    for (int t = 0; t < 2; t++) {
        sl_dtype dt = DTS[t];
        void *a = gen(ds, dt, sl_test_seed(), n, NULL, 0, n);
        if (!a) continue;
        double big = val(a, dt, 0);
        CHECK(big == 1.0, "%s: x_0 = %g", sl_dtype_name(dt), big);
        CHECK(recursive_sum(a, dt, n) == big, "%s: recursive sum %a is not x_0", sl_dtype_name(dt),
              recursive_sum(a, dt, n));
        mpfr_t s, sa;
        mpfr_inits2(128, s, sa, (mpfr_ptr)0);
        exact_sums(a, dt, n, s, sa);
        double exact = dt == SL_F64 ? mpfr_get_d(s, MPFR_RNDN) : (double)mpfr_get_flt(s, MPFR_RNDN);
        CHECK(exact > big, "%s: exact sum rounds to x_0: nothing absorbed", sl_dtype_name(dt));
        mpfr_clears(s, sa, (mpfr_ptr)0);
        free(a);
    }
}

static void test_cancellation(void)
{
    const sl_dataset *ds = sl_dataset_find("cancellation");
    const uint64_t ns[] = {1000, 1001, 2};
    const double rems[] = {0, 1e-3, -0x1p-30};
    for (int t = 0; t < 2; t++)
        for (size_t k = 0; k < 3; k++)
            for (size_t r = 0; r < 3; r++) {
                sl_dtype dt = DTS[t];
                sl_params p;
                sl_params_defaults(ds, &p);
                p.v[1] = rems[r];
                void *a = gen(ds, dt, sl_test_seed(), ns[k], &p, 0, ns[k]);
                if (!a) continue;
                mpfr_t s, sa;
                mpfr_inits2(128, s, sa, (mpfr_ptr)0);
                exact_sums(a, dt, ns[k], s, sa);
                double want = sl_round_fmt(rems[r], dt);
                CHECK(mpfr_cmp_d(s, want) == 0, "%s n=%llu rem=%g: exact sum %g", sl_dtype_name(dt),
                      (unsigned long long)ns[k], rems[r], mpfr_get_d(s, MPFR_RNDN));
                if (ns[k] > 2 || want == 0) /* n = 2 with a remainder has room for no pair */
                    CHECK(mpfr_cmp_d(sa, fabs(want)) > 0, "%s n=%llu: no pairs", sl_dtype_name(dt),
                      (unsigned long long)ns[k]);
                mpfr_clears(s, sa, (mpfr_ptr)0);
                free(a);
            }
    /* bug20261206: a nonzero rem that rounds to 0 in the format (1e-50 in float32, 1e-9 in
     * float16) planted nothing: the exact sum was 0, silently, instead of the asked remainder.
     * It is refused, naming the format; the same rem in float64 still plants it. */
    {
        static const struct { sl_dtype dt; double rem; } tiny[] = {
            {SL_F32, 1e-50}, {SL_BF16, -1e-50}, {SL_F16, 1e-9}};
        sl_params p;
        sl_params_defaults(ds, &p);
        uint16_t h[8];
        float g[8];
        for (size_t k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
            sl_err err = {{0}};
            p.v[1] = tiny[k].rem;
            void *o = tiny[k].dt == SL_F32 ? (void *)g : (void *)h;
            CHECK(sl_dataset_generate(ds, tiny[k].dt, 1, 8, &p, 0, 8, o, &err) != 0 &&
                      strstr(err.msg, "rounds to 0"),
                  "cancellation rem=%g in %s: accepted (exact sum 0): '%s'", tiny[k].rem,
                  sl_dtype_name(tiny[k].dt), err.msg);
        }
        double d[8];
        sl_err err = {{0}};
        p.v[1] = 1e-50;
        CHECK(sl_dataset_generate(ds, SL_F64, 1, 8, &p, 0, 8, d, &err) == 0, "f64 rem=1e-50: %s", err.msg);
        mpfr_t s, sa;
        mpfr_inits2(128, s, sa, (mpfr_ptr)0);
        exact_sums(d, SL_F64, 8, s, sa);
        CHECK(mpfr_cmp_d(s, 1e-50) == 0, "f64 rem=1e-50: exact sum %g", mpfr_get_d(s, MPFR_RNDN));
        mpfr_clears(s, sa, (mpfr_ptr)0);
    }
}

static void test_sorted(void)
{
    static const char *const kv[] = {"emin=-10", "emax=30", NULL};
    const uint64_t n = 10000;
    for (int dec = 0; dec < 2; dec++) {
        const sl_dataset *ds = sl_dataset_find(dec ? "sorted-dec" : "sorted-inc");
        sl_params p = params(ds, kv);
        for (int t = 0; t < 2; t++) {
            sl_dtype dt = DTS[t];
            void *a = gen(ds, dt, sl_test_seed(), n, &p, 0, n);
            if (!a) continue;
            uint64_t bad = 0, neg = 0;
            for (uint64_t k = 1; k < n; k++) {
                double x0 = fabs(val(a, dt, k - 1)), x1 = fabs(val(a, dt, k));
                bad += dec ? x1 > x0 : x1 < x0;
                neg += val(a, dt, k) < 0;
            }
            CHECK(bad == 0, "%s %s: %llu order violations", ds->name, sl_dtype_name(dt), (unsigned long long)bad);
            CHECK(neg > n / 3 && neg < 2 * n / 3, "%s: %llu negative", ds->name, (unsigned long long)neg);
            int lo, hi;
            exp_range(a, dt, n, &lo, &hi);
            CHECK(lo == -10 && hi == 29, "%s %s: exponents [%d, %d]", ds->name, sl_dtype_name(dt), lo, hi);
            free(a);
        }
    }
}

static void test_alternating_and_basic(void)
{
    const uint64_t n = 20001;
    const sl_dataset *al = sl_dataset_find("alternating");
    static const char *const harm[] = {"harmonic=1", NULL};
    for (int t = 0; t < 2; t++) {
        sl_dtype dt = DTS[t];
        for (int h = 0; h < 2; h++) {
            sl_params p = params(al, h ? harm : NULL);
            void *a = gen(al, dt, sl_test_seed(), n, &p, 0, n);
            if (!a) continue;
            uint64_t bad = 0;
            for (uint64_t k = 0; k < n; k++) {
                double x = val(a, dt, k);
                bad += (k & 1) ? !(x < 0) : !(x > 0);
                if (h) bad += fabs(x) != sl_round_fmt(1.0 / (double)(k + 1), dt);
            }
            CHECK(bad == 0, "alternating harmonic=%d %s: %llu bad", h, sl_dtype_name(dt), (unsigned long long)bad);
            free(a);
        }
        /* uniform, uniform-sym: ranges and both halves hit. */
        const char *uni[] = {"uniform", "uniform-sym"};
        for (int u = 0; u < 2; u++) {
            void *a = gen(sl_dataset_find(uni[u]), dt, sl_test_seed(), n, NULL, 0, n);
            if (!a) continue;
            uint64_t out = 0, low = 0;
            double lo = u ? -1.0 : 0.0, mid = u ? 0.0 : 0.5;
            for (uint64_t k = 0; k < n; k++) {
                double x = val(a, dt, k);
                out += !(x >= lo && x < 1.0);
                low += x < mid;
            }
            CHECK(out == 0 && low > n * 9 / 20 && low < n * 11 / 20, "%s %s: %llu outside, %llu low", uni[u],
                  sl_dtype_name(dt), (unsigned long long)out, (unsigned long long)low);
            free(a);
        }
        /* normal: mean and variance; cauchy: median of |x| is the scale (1). */
        void *a = gen(sl_dataset_find("normal"), dt, sl_test_seed(), n, NULL, 0, n);
        if (a) {
            double m = 0, v = 0;
            for (uint64_t k = 0; k < n; k++) m += val(a, dt, k);
            m /= (double)n;
            for (uint64_t k = 0; k < n; k++) v += (val(a, dt, k) - m) * (val(a, dt, k) - m);
            v /= (double)(n - 1);
            CHECK(fabs(m) < 5.0 / sqrt((double)n) && fabs(v - 1.0) < 0.05, "normal %s: mean %g var %g",
                  sl_dtype_name(dt), m, v);
            free(a);
        }
        if ((a = gen(sl_dataset_find("cauchy"), dt, sl_test_seed(), n, NULL, 0, n))) {
            uint64_t below = 0;
            for (uint64_t k = 0; k < n; k++) below += fabs(val(a, dt, k)) < 1.0;
            CHECK(below > n * 47 / 100 && below < n * 53 / 100, "cauchy %s: %llu of %llu below 1",
                  sl_dtype_name(dt), (unsigned long long)below, (unsigned long long)n);
            free(a);
        }
    }
}

/* uniform-sym is symmetric about 0 in every format (issue 29: the 16-bit grid k 2^(1-p) - 1 had
 * mean -2^-p): the mean of 2^24 values within 4 standard errors of 0, and in the 16-bit formats,
 * whose 2^p grid points 2^24 draws all hit, the smallest value is minus the largest. */
static void test_uniform_sym_mean(void)
{
    const uint64_t n = (uint64_t)1 << 24;
    const sl_dataset *us = sl_dataset_find("uniform-sym");
    const sl_dtype all[4] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    for (int t = 0; t < 4; t++) {
        const sl_dtype dt = all[t];
        void *a = malloc(n * sl_dtype_size(dt));
        sl_err err = {{0}};
        if (!a || sl_dataset_generate_threads(us, dt, sl_test_seed(), n, NULL, 0, n, a, 2, &err)) {
            CHECK(0, "uniform-sym %s: %s", sl_dtype_name(dt), err.msg);
            free(a);
            continue;
        }
        double sum = 0, sq = 0, lo = 2, hi = -2;
        for (uint64_t k = 0; k < n; k++) {
            double x = dt == SL_F64 ? ((double *)a)[k] : dt == SL_F32 ? (double)((float *)a)[k]
                                                        : sl_half_to_double(((uint16_t *)a)[k], dt);
            sum += x;
            sq += x * x;
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        const double mean = sum / (double)n, se = sqrt(sq / (double)n - mean * mean) / sqrt((double)n);
        CHECK(fabs(mean) < 4 * se, "uniform-sym %s: mean %.3g of 2^24 values is %.1f standard errors (%.3g) from 0",
              sl_dtype_name(dt), mean, fabs(mean) / se, se);
        CHECK(lo >= -1 && hi < 1, "uniform-sym %s: values in [-1, 1) (min %a, max %a)", sl_dtype_name(dt), lo, hi);
        if (sl_dtype_is_half(dt))
            CHECK(lo == -hi, "uniform-sym %s: the grid is symmetric about 0 (min %a, max %a)", sl_dtype_name(dt), lo, hi);
        free(a);
    }
}

int main(void)
{
    test_registry();
    test_params();
    test_rng();
    test_purity();
    test_threads();
    test_extremes_finite();
    test_cond();
    test_log_uniform();
    test_subnormal();
    test_overflow();
    test_special();
    test_absorption();
    test_cancellation();
    test_sorted();
    test_alternating_and_basic();
    test_uniform_sym_mean();
    return sl_test_done("tdatasets");
}

/* twelford_twins.c: the CPU twins of kernels/welford (welford, welford-ln, welford-f64 of mean,
 * var, std) and kernels/extrema (block-reduce, zero-fill, fmax/fmin of max/min; fused of mean,
 * var, std, max) against the exact references of reference/sl_moments.c: every format, ddof 0
 * and 1, n = 0, 1, 2, 31, 32, 33, 1000, 2^16 + 3, random and edge data, two launch shapes.
 * max/min bit for bit (NaN propagation, -0 < +0; zero-fill = maximum(+0, max); fmax ignores
 * NaN), the statistics within their algorithms' error estimates and within the variants' bounds
 * (experiments/measure/bounds_moments.c), NaN where the semantics say. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_reference.h"
#include "sl_variants.h"
#include "sumlab/half.h"

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static int same_bits(double a, double b) { return (isnan(a) && isnan(b)) || dbits(a) == dbits(b); }

static double urand(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }

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

enum { K_NORMAL, K_UNIFORM, K_NEG, K_POS, K_ZEROS, K_CONST, K_NAN, K_INF, K_COUNT };
static const char *kind_name[K_COUNT] = {"normal(10,1)", "uniform(-1,1)", "negative", "positive",
                                         "zeros(+-0)", "constant", "with-NaN", "with-Inf"};

static void fill(void *x, sl_dtype dt, uint64_t n, int kind)
{
    for (uint64_t i = 0; i < n; i++) {
        double v;
        switch (kind) {
        case K_NORMAL: v = 10.0 + (urand() + urand() + urand() - 1.5) * 2.0; break;
        case K_NEG: v = -(1.0 + 3.0 * urand()); break;
        case K_POS: v = 0.5 + 3.0 * urand(); break;
        case K_ZEROS: v = (sl_test_rand64() & 1) ? -0.0 : 0.0; break;
        case K_CONST: v = 3.5; break;
        default: v = 2.0 * urand() - 1.0; break;
        }
        put(x, dt, i, v);
    }
    if (n && kind == K_NAN) put(x, dt, sl_test_rand64() % n, NAN);
    if (n && kind == K_INF) put(x, dt, sl_test_rand64() % n, INFINITY);
}

/* Unit roundoff of a format. */
static double unit(sl_dtype dt)
{
    return dt == SL_F64 ? 0x1p-53 : dt == SL_F32 ? 0x1p-24 : dt == SL_F16 ? 0x1p-11 : 0x1p-8;
}

static sl_moment moment_of(const char *op)
{
    return !strcmp(op, "mean") ? SL_MOMENT_MEAN : !strcmp(op, "var") ? SL_MOMENT_VAR
         : !strcmp(op, "std") ? SL_MOMENT_STD : !strcmp(op, "max") ? SL_MOMENT_MAX : SL_MOMENT_MIN;
}

static const struct { const char *op, *name; } members[] = {
    {"mean", "welford"}, {"var", "welford"}, {"std", "welford"}, {"var", "welford-ln"},
    {"std", "welford-ln"}, {"var", "welford-f64"}, {"std", "welford-f64"},
    {"max", "block-reduce"}, {"min", "block-reduce"}, {"max", "zero-fill"}, {"min", "zero-fill"},
    {"max", "fmax"}, {"min", "fmin"},
    {"mean", "fused"}, {"var", "fused"}, {"std", "fused"}, {"max", "fused"},
};
#define NMEMBERS (sizeof members / sizeof members[0])

static long twin_runs, bound_checks;

/* The exact reference of op on x (n values), ddof. */
static int exact_of(sl_reference *ref, const char *op, const void *x, uint64_t n, sl_dtype dt,
                    uint32_t ddof)
{
    sl_err e;
    const int rc = sl_reference_moment(ref, moment_of(op), x, n, dt, ddof, 1, &e);
    CHECK(rc == 0, "reference %s n=%llu: %s", op, (unsigned long long)n, e.msg);
    return rc;
}

/* The maximum/minimum of x without its NaN values, from -inf/+inf (fmax/fmin's result), by the
 * exact reference over the NaN-free values. */
static double nan_free_extreme(const void *x, uint64_t n, sl_dtype dt, int mn)
{
    const size_t es = sl_dtype_size(dt);
    unsigned char *y = malloc((size_t)(n ? n : 1) * es);
    uint64_t m = 0;
    for (uint64_t i = 0; y && i < n; i++)
        if (!isnan(get(x, dt, i))) memcpy(y + m++ * es, (const unsigned char *)x + i * es, es);
    double r = mn ? INFINITY : -INFINITY;
    sl_reference ref;
    if (y && m && exact_of(&ref, mn ? "min" : "max", y, m, dt, 0) == 0) r = ref.rounded;
    if (y && m) sl_reference_clear(&ref);
    free(y);
    return r;
}

static void check_member(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt, int kind,
                         uint32_t ddof, const sl_launch *req, const sl_reference *ref)
{
    sl_launch cfg = *req;
    cfg.ddof = ddof;
    sl_variant_resolve(v, &cfg, n, dt);
    double r = NAN;
    sl_err e;
    const int rc = sl_variant_cpu(v, x, n, dt, &cfg, &r, &e);
    twin_runs++;
    CHECK(rc == 0, "%s/%s: %s", v->op, v->name, e.msg);
    if (rc) return;
    const double want = ref->rounded;
    char what[200];
    snprintf(what, sizeof what, "%s/%s %s %s n=%llu ddof=%u (block %u grid %u addr_mod %u)", v->op,
             v->name, sl_dtype_name(dt), kind_name[kind], (unsigned long long)n, ddof, cfg.block,
             cfg.grid, cfg.addr_mod);
    const int is_max = !strcmp(v->op, "max"), is_min = !strcmp(v->op, "min");
    if (is_max || is_min) {
        if (!strcmp(v->name, "zero-fill")) {
            /* accumulators start at +0: maximum(+0, max) / minimum(+0, min); NaN for n = 0 */
            const double z = n == 0 ? NAN : is_max ? (isnan(want) ? want : want > 0 ? want : 0.0)
                                                   : (isnan(want) ? want : want < 0 ? want
                                                      : signbit(want) && want == 0 ? want : 0.0);
            CHECK(same_bits(r, z), "%s: %a, expected %a (exact %a)", what, r, z, want);
        } else if (!strcmp(v->name, "fmax") || !strcmp(v->name, "fmin")) {
            const double z = n == 0 ? NAN : nan_free_extreme(x, n, dt, is_min);
            CHECK(same_bits(r, z), "%s: %a, expected %a (exact %a)", what, r, z, want);
        } else { /* block-reduce, fused: exact (bound 0) */
            CHECK(same_bits(r, want), "%s: %a, exact %a", what, r, want);
            if (ref->finite) {
                const double b = sl_variant_bound(v, ref, n, dt, &cfg);
                bound_checks++;
                CHECK(b == 0.0 || (ref->overflow && b == INFINITY), "%s: bound %g, expected 0", what, b);
            }
        }
        return;
    }
    /* mean, var, std */
    if (isnan(want)) {
        CHECK(isnan(r), "%s: %a, exact NaN", what, r);
        return;
    }
    if (isinf(want)) {
        /* a mean with an Inf input: fused's S1 / n is that Inf; Welford's mean is NaN once its
         * state (Inf) meets another value (Inf - Inf), the Inf only when no value follows it in
         * the tree (PyTorch's Welford likewise) */
        if (!strcmp(v->name, "welford"))
            CHECK(isnan(r) || same_bits(r, want), "%s: %a, exact %a", what, r, want);
        else CHECK(same_bits(r, want), "%s: %a, exact %a", what, r, want);
        return;
    }
    const sl_errors er = sl_reference_errors(ref, r, dt);
    const double depth = sl_variant_depth(v, n, dt, &cfg);
    const double ua = unit(sl_variant_acc(v, dt)), uo = unit(dt);
    const double kappa = !strcmp(v->op, "mean") ? 1.0 : ref->cond;
    /* error estimates, with a margin of 8: Welford ~ depth kappa u; the textbook formula
     * ~ depth kappa^2 u (the mean: depth u cond); plus the final rounding */
    const double mcond = !strcmp(v->op, "mean") ? ref->cond : 1.0;
    const double k = !strcmp(v->name, "fused") ? kappa * kappa : kappa;
    const double tol = 8.0 * (depth + 4.0) * k * mcond * ua + 2.0 * uo;
    CHECK(er.rel_err <= tol, "%s: %a, exact %a: relative error %g > %g (kappa %g)", what, r, want,
          er.rel_err, tol, ref->cond);
    /* and within the variant's bound (experiments/measure/bounds_moments.c) */
    const double b = sl_variant_bound(v, ref, n, dt, &cfg);
    bound_checks++;
    CHECK(!isnan(b) && er.abs_err <= b, "%s: %a, exact %a: error %g > bound %g", what, r, want,
          er.abs_err, b);
}

/* Edge cases with their exact bits. */
static void check_edges(void)
{
    const sl_variant *bmax = sl_variant_find_op("max", "block-reduce");
    const sl_variant *bmin = sl_variant_find_op("min", "block-reduce");
    const sl_variant *zmax = sl_variant_find_op("max", "zero-fill");
    const sl_variant *fmx = sl_variant_find_op("max", "fmax");
    const sl_variant *fumax = sl_variant_find_op("max", "fused");
    const sl_variant *wvar = sl_variant_find_op("var", "welford");
    const sl_variant *wmean = sl_variant_find_op("mean", "welford");
    const sl_variant *fumean = sl_variant_find_op("mean", "fused");
    const sl_variant *fuvar = sl_variant_find_op("var", "fused");
    CHECK(bmax && bmin && zmax && fmx && fumax && wvar && wmean && fumean && fuvar, "registered");
    if (!(bmax && bmin && zmax && fmx && fumax && wvar && wmean && fumean && fuvar)) return;
    sl_launch cfg;
    sl_err e;
    double r;
#define RUN(V, X, N, DDOF)                                                                      \
    (memset(&cfg, 0, sizeof cfg), cfg.ddof = (DDOF), sl_variant_resolve((V), &cfg, (N), SL_F32), \
     sl_variant_cpu((V), (X), (N), SL_F32, &cfg, &r, &e) == 0 ? r : -12345.0)
    const float z1[2] = {-0.0f, 0.0f}, z2[2] = {0.0f, -0.0f}, zn[3] = {-0.0f, -0.0f, -0.0f};
    CHECK(dbits(RUN(bmax, z1, 2, 0)) == dbits(0.0), "max(-0, +0) = +0");
    CHECK(dbits(RUN(bmax, z2, 2, 0)) == dbits(0.0), "max(+0, -0) = +0");
    CHECK(dbits(RUN(bmin, z1, 2, 0)) == dbits(-0.0), "min(-0, +0) = -0");
    CHECK(dbits(RUN(bmin, z2, 2, 0)) == dbits(-0.0), "min(+0, -0) = -0");
    CHECK(dbits(RUN(bmax, zn, 3, 0)) == dbits(-0.0), "max(-0, -0, -0) = -0");
    CHECK(dbits(RUN(fumax, zn, 3, 0)) == dbits(-0.0), "fused max(-0, -0, -0) = -0");
    CHECK(dbits(RUN(zmax, zn, 3, 0)) == dbits(0.0), "zero-fill max(-0, -0, -0) = +0 (wrong sign)");
    const float nn[3] = {NAN, 1.0f, NAN}, an[2] = {NAN, NAN};
    CHECK(isnan(RUN(bmax, nn, 3, 0)), "max(NaN, 1, NaN) = NaN");
    CHECK(RUN(fmx, nn, 3, 0) == 1.0, "fmax(NaN, 1, NaN) = 1 (NaN ignored)");
    CHECK(RUN(fmx, an, 2, 0) == -INFINITY, "fmax of NaN only: its -inf start");
    const float neg[4] = {-3.0f, -1.5f, -2.0f, -7.0f};
    CHECK(RUN(bmax, neg, 4, 0) == -1.5, "max of all-negative: -1.5");
    CHECK(dbits(RUN(zmax, neg, 4, 0)) == dbits(0.0), "zero-fill max of all-negative: 0");
    CHECK(isnan(RUN(bmax, neg, 0, 0)), "max of nothing: NaN");
    const float one[1] = {5.0f};
    CHECK(isnan(RUN(wvar, one, 1, 1)), "welford var n = 1 ddof = 1: NaN");
    CHECK(dbits(RUN(wvar, one, 1, 0)) == dbits(0.0), "welford var n = 1 ddof = 0: +0");
    CHECK(isnan(RUN(fuvar, one, 1, 1)), "fused var n = 1 ddof = 1: NaN");
    CHECK(isnan(RUN(wmean, one, 0, 0)), "welford mean n = 0: NaN");
    const float two[2] = {1.0f, 4.0f};
    CHECK(RUN(wvar, two, 2, 1) == 4.5 && RUN(wvar, two, 2, 0) == 2.25, "welford var {1, 4}");
    CHECK(RUN(fuvar, two, 2, 1) == 4.5 && RUN(fuvar, two, 2, 0) == 2.25, "fused var {1, 4}");
    const float inf2[3] = {INFINITY, 1.0f, 2.0f};
    CHECK(RUN(fumean, inf2, 3, 0) == INFINITY, "fused mean with +Inf: +Inf");
    CHECK(isnan(RUN(wmean, inf2, 3, 0)), "welford mean with +Inf then values: NaN (as PyTorch)");
    CHECK(isnan(RUN(wvar, inf2, 3, 0)) && isnan(RUN(fuvar, inf2, 3, 0)), "var with Inf: NaN");
#undef RUN
}

/* Welford against the textbook formula where the latter cancels: float32 values 1e3 + U(-1, 1)
 * (kappa ~ 1.7e3): the fused (textbook) variance loses every digit, Welford keeps two or more. */
static void check_cancellation(void)
{
    const uint64_t n = ((uint64_t)1 << 16) + 3;
    float *x = malloc(n * sizeof *x);
    CHECK(x != NULL, "out of memory");
    if (!x) return;
    for (uint64_t i = 0; i < n; i++) x[i] = (float)(1000.0 + (2.0 * urand() - 1.0));
    sl_reference ref;
    if (exact_of(&ref, "var", x, n, SL_F32, 1) == 0) {
        double w = NAN, f = NAN;
        sl_err e;
        sl_launch c1 = {0}, c2 = {0};
        c1.ddof = c2.ddof = 1;
        sl_variant_resolve(sl_variant_find_op("var", "welford"), &c1, n, SL_F32);
        sl_variant_resolve(sl_variant_find_op("var", "fused"), &c2, n, SL_F32);
        CHECK(sl_variant_cpu(sl_variant_find_op("var", "welford"), x, n, SL_F32, &c1, &w, &e) == 0, "%s", e.msg);
        CHECK(sl_variant_cpu(sl_variant_find_op("var", "fused"), x, n, SL_F32, &c2, &f, &e) == 0, "%s", e.msg);
        const double ew = sl_reference_errors(&ref, w, SL_F32).rel_err;
        const double ef = sl_reference_errors(&ref, f, SL_F32).rel_err;
        printf("twelford_twins: float32 1e3 + U(-1,1), n = 2^16 + 3: welford var rel. error %.3g, "
               "fused (textbook) %.3g\n", ew, ef);
        CHECK(ew < 1e-2, "welford var relative error %g", ew);
        CHECK(!(ef < 1e-1), "fused (textbook) var relative error %g: expected to cancel", ef);
        sl_reference_clear(&ref);
    }
    free(x);
}

/* Every dataset family of the registry (default parameters; 16-bit: sl_test_params), every
 * format, n = 1000 and 2^16 + 3, ddof 1: each statistic within its variant's bound, max/min
 * exact where the family's values are finite. */
static long family_runs;
static void check_families(void)
{
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    static const uint64_t ns[] = {1000, ((uint64_t)1 << 16) + 3};
    for (size_t d = 0; d < 4; d++)
        for (size_t di = 0; di < sl_dataset_count(); di++)
            for (size_t k = 0; k < 2; k++) {
                const sl_dataset *ds = sl_dataset_at(di);
                const sl_dtype dt = dts[d];
                const uint64_t n = ns[k];
                sl_params p;
                sl_err err;
                CHECK(sl_test_params(ds, dt, &p, &err) == 0, "%s", err.msg);
                void *x = malloc((size_t)n * sl_dtype_size(dt));
                if (!x) { CHECK(0, "out of memory"); return; }
                const int rc = sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, x, &err);
                if (sl_test_half_overflow(dt, rc, &err)) { free(x); continue; }
                CHECK(rc == 0, "dataset %s %s: %s", ds->name, sl_dtype_name(dt), err.msg);
                for (size_t m = 0; rc == 0 && m < NMEMBERS; m++) {
                    const sl_variant *v = sl_variant_find_op(members[m].op, members[m].name);
                    if (!v || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                    if (!strcmp(v->name, "zero-fill") || !strcmp(v->name, "fmax") ||
                        !strcmp(v->name, "fmin"))
                        continue;             /* teaching rows: their own checks above */
                    const uint32_t ddof = !strcmp(v->op, "var") || !strcmp(v->op, "std") ? 1u : 0u;
                    sl_reference ref;
                    if (exact_of(&ref, v->op, x, n, dt, ddof)) continue;
                    sl_launch cfg;
                    memset(&cfg, 0, sizeof cfg);
                    cfg.ddof = ddof;
                    sl_variant_resolve(v, &cfg, n, dt);
                    double r = NAN;
                    CHECK(sl_variant_cpu(v, x, n, dt, &cfg, &r, &err) == 0, "%s: %s", v->name, err.msg);
                    family_runs++;
                    if (ref.finite) {
                        const double b = sl_variant_bound(v, &ref, n, dt, &cfg);
                        const sl_errors er = sl_reference_errors(&ref, r, dt);
                        CHECK(er.abs_err <= b, "%s/%s %s %s n=%llu: %a, exact %a: error %g > bound %g",
                              v->op, v->name, ds->name, sl_dtype_name(dt), (unsigned long long)n, r,
                              ref.rounded, er.abs_err, b);
                    } else {
                        CHECK(isnan(ref.rounded) ? isnan(r) : 1, "%s/%s %s: %a, exact NaN", v->op,
                              v->name, ds->name, r);
                    }
                    sl_reference_clear(&ref);
                }
                free(x);
            }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    for (size_t m = 0; m < NMEMBERS; m++)
        CHECK(sl_variant_find_op(members[m].op, members[m].name) != NULL, "%s/%s is not registered",
              members[m].op, members[m].name);
    check_edges();
    check_cancellation();
    check_families();
    static const uint64_t ns[] = {0, 1, 2, 31, 32, 33, 1000, ((uint64_t)1 << 16) + 3};
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    for (size_t d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        const size_t es = sl_dtype_size(dt);
        /* the default shape; a small ragged one (many blocks, a head of one element, the finish's
         * threads taking several partials) */
        sl_launch shapes[2];
        memset(shapes, 0, sizeof shapes);
        shapes[1].block = 32;
        shapes[1].grid = 40;
        shapes[1].addr_mod = (uint32_t)(16 - es);
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
            const uint64_t n = ns[k];
            void *x = malloc((size_t)(n ? n : 1) * es);
            CHECK(x != NULL, "out of memory");
            if (!x) continue;
            for (int kind = 0; kind < K_COUNT; kind++) {
                fill(x, dt, n, kind);
                for (uint32_t ddof = 0; ddof < 2; ddof++) {
                    const char *last_op = NULL;
                    sl_reference ref;
                    int have = 0;
                    for (size_t m = 0; m < NMEMBERS; m++) {
                        const sl_variant *v = sl_variant_find_op(members[m].op, members[m].name);
                        if (!v || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                        const int uses_ddof = !strcmp(v->op, "var") || !strcmp(v->op, "std");
                        if (ddof && !uses_ddof) continue;
                        if (!last_op || strcmp(last_op, v->op)) {
                            if (have) sl_reference_clear(&ref);
                            have = exact_of(&ref, v->op, x, n, dt, uses_ddof ? ddof : 0) == 0;
                            last_op = v->op;
                        }
                        if (!have) continue;
                        for (int s = 0; s < 2; s++) check_member(v, x, n, dt, kind, ddof, &shapes[s], &ref);
                    }
                    if (have) sl_reference_clear(&ref);
                }
            }
            free(x);
        }
    }
    printf("twelford_twins: %ld twin runs, %ld bound checks, %ld runs on the dataset families\n",
           twin_runs, bound_checks, family_runs);
    return sl_test_done("twelford_twins");
}

/* tdot_twins.c: every dot twin (kernels/dot/) against the exact reference: within its a-priori
 * bound (sl_dot_bound) in every format, data family, length and several launch configurations;
 * `correct` equal to the reference's bits on every input (float64 products below 2^-968 and at or
 * above 2^1000 too: td_window_case; overflow, NaN and the sign of a zero sum) and invariant under
 * one permutation applied to both inputs; IEEE specials (NaN, Inf * 0) in every variant; the two-input wrapper's checks. */
#include <float.h>
#include <math.h>
#include "sl_dot.h"
#include "sl_measure.h"
#include "sl_datasets.h"
#include "tdot_common.h"
#include "dot/dot.h"
#include "exact/pairsum.h"

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static double run(const sl_variant *v, const void *x, const void *y, uint64_t n, sl_dtype dt,
                  sl_launch *cfg, int *ok)
{
    sl_variant_resolve(v, cfg, n, dt);
    const void *const in[2] = {x, y};
    double r = NAN;
    sl_err err = {{0}};
    *ok = sl_variant_cpu_in(v, in, n, dt, cfg, &r, &err) == 0;
    CHECK(*ok, "%s %s n=%llu: %s", v->name, sl_dtype_name(dt), (unsigned long long)n, err.msg);
    return r;
}

static void check_input(const void *x, const void *y, uint64_t n, sl_dtype dt, const char *fam)
{
    sl_reference ref;
    sl_err err = {{0}};
    CHECK(sl_reference_dot(&ref, x, y, n, dt, 1, &err) == 0, "reference: %s", err.msg);
    const sl_launch cfgs[] = {{0}, {.block = 64, .grid = 3}, {.block = 32, .grid = 1, .addr_mod = 4}};
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (strcmp(v->op, "dot") || !v->cpu2 || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
            sl_launch cfg = cfgs[c];
            int ok;
            const double r = run(v, x, y, n, dt, &cfg, &ok);
            if (!ok) continue;
            if (v->bound == SL_BOUND_CORRECTLY_ROUNDED)   /* overflow, NaN and signed zeros too */
                CHECK(same(r, ref.rounded), "correct %s %s n=%llu cfg %zu: %a, the reference %a",
                      sl_dtype_name(dt), fam, (unsigned long long)n, c, r, ref.rounded);
            if (!ref.finite) {
                if (isnan(ref.rounded)) CHECK(isnan(r), "%s %s %s: NaN expected, got %a", v->name, sl_dtype_name(dt), fam, r);
                /* an Inf product beside small finite ones: that Inf in every variant (Kahan's
                 * compensation would give NaN: the variant must not) */
                else if (!ref.overflow) CHECK(same(r, ref.rounded), "%s %s %s cfg %zu: %a expected, got %a",
                                              v->name, sl_dtype_name(dt), fam, c, ref.rounded, r);
                continue;
            }
            const double b = sl_dot_bound(v, &ref, n, dt, &cfg);
            const sl_errors e = sl_reference_errors(&ref, r, dt);
            CHECK(!isnan(b), "%s %s %s: bound NaN on a finite reference", v->name, sl_dtype_name(dt), fam);
            if (isfinite(b))
                CHECK(e.abs_err <= b, "%s %s %s n=%llu cfg %zu: error %g above the bound %g (result %a, "
                      "exact %a)", v->name, sl_dtype_name(dt), fam, (unsigned long long)n, c, e.abs_err, b,
                      r, ref.rounded);
        }
    }
    sl_reference_clear(&ref);
}

/* correct and reproducible are the same bits after one permutation of both inputs (Fisher-Yates
 * from the seed) and another launch configuration. */
static void check_permutation(void *x, void *y, uint64_t n, sl_dtype dt)
{
    const sl_variant *v = sl_variant_find_op("dot", "correct"), *w = sl_variant_find_op("dot", "reproducible");
    CHECK(v != NULL && w != NULL, "dot has the correct and reproducible variants");
    if (!v || !w) return;
    sl_launch a = {0}, b = {.block = 96, .grid = 5}, a2 = {0}, b2 = {.block = 64, .grid = 7};
    int ok;
    const double r0 = run(v, x, y, n, dt, &a, &ok);
    const double q0 = run(w, x, y, n, dt, &a2, &ok);
    const size_t es = sl_dtype_size(dt);
    unsigned char t[8];
    for (uint64_t i = n; i > 1; i--) {
        const uint64_t j = sl_test_rand64() % i;
        memcpy(t, (char *)x + (i - 1) * es, es); memcpy((char *)x + (i - 1) * es, (char *)x + j * es, es); memcpy((char *)x + j * es, t, es);
        memcpy(t, (char *)y + (i - 1) * es, es); memcpy((char *)y + (i - 1) * es, (char *)y + j * es, es); memcpy((char *)y + j * es, t, es);
    }
    const double r1 = run(v, x, y, n, dt, &b, &ok);
    CHECK(same(r0, r1), "correct %s n=%llu: %a before the permutation, %a after", sl_dtype_name(dt),
          (unsigned long long)n, r0, r1);
    const double q1 = run(w, x, y, n, dt, &b2, &ok);
    CHECK(same(q0, q1), "reproducible %s n=%llu: %a before the permutation, %a after", sl_dtype_name(dt),
          (unsigned long long)n, q0, q1);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    /* the GPU launcher dispatches on .impl: each variant names the member its name says (correct
     * once ran the naive kernel on the GPU for want of it, while its twin was right) */
    const struct { const char *name; int impl; } members[] = {
        {"naive", SL_DOT_NAIVE}, {"f64-acc", SL_DOT_NAIVE}, {"half-acc", SL_DOT_NAIVE},
        {"kahan", SL_DOT_KAHAN}, {"dot2", SL_DOT_DOT2}, {"correct", SL_DOT_CORRECT},
        {"reproducible", SL_DOT_REPRO}};
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
        const sl_variant *v = sl_variant_find_op("dot", members[i].name);
        CHECK(v && v->impl == members[i].impl, "dot/%s: impl %d, expected %d", members[i].name,
              v ? v->impl : -1, members[i].impl);
    }
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const uint64_t ns[] = {0, 1, 2, 31, 32, 33, 1000, (1u << 16) + 3};
    void *x = malloc(((1u << 16) + 3) * 8), *y = malloc(((1u << 16) + 3) * 8);
    for (int d = 0; d < 4; d++)
        for (int f = 0; f < TD_NFAM; f++)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                if (ns[k] > 1000 && f != TD_RANDOM && f != TD_ILL) continue;
                td_fill(x, y, ns[k], dts[d], f);
                check_input(x, y, ns[k], dts[d], td_fam_name[f]);
                if (ns[k] >= 2) check_permutation(x, y, ns[k], dts[d]);
            }
    /* the pair families of datasets/gen_dot.c: dot-cond over its range per format, dot-overflow,
     * dot-random */
    const int cond_emax[4] = {30, 40, 3, 30};
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        const char *fams[] = {"dot-random", "dot-cond", "dot-overflow"};
        for (int f = 0; f < 3; f++) {
            const sl_dataset *ds = sl_dataset_find(fams[f]);
            CHECK(ds && (ds->flags & SL_DS_PAIR) && (ds->flags & SL_DS_OPT_IN), "%s: an opt-in pair family", fams[f]);
            if (!ds) continue;
            for (int e = 0; e <= (f == 1 ? cond_emax[d] : 2); e += (f == 1 ? 3 : 1)) {
                sl_params p;
                sl_params_defaults(ds, &p);
                char kv[64];
                if (f == 1) snprintf(kv, sizeof kv, "cond=1e%d", e);
                else snprintf(kv, sizeof kv, "%s=%d", f == 0 ? "dist" : "kind", e % (f == 0 ? 2 : 3));
                sl_err err = {{0}};
                CHECK(sl_params_set(ds, &p, kv, &err) == 0, "%s %s: %s", fams[f], kv, err.msg);
                const uint64_t n = 1000 + (uint64_t)e;
                CHECK(sl_dataset_generate_pair(ds, dt, sl_test_seed() + (uint64_t)e, n, &p, x, y, 1, &err) == 0,
                      "%s %s %s: %s", fams[f], kv, sl_dtype_name(dt), err.msg);
                check_input(x, y, n, dt, fams[f]);
                if (f == 1) {   /* the realised condition number lies near the target */
                    sl_reference ref;
                    sl_reference_dot(&ref, x, y, n, dt, 1, &err);
                    const double target = pow(10.0, e);
                    if (e >= 2 && ref.finite)
                        CHECK(ref.cond > target / 100 && ref.cond < target * 1e4,
                              "dot-cond %s cond=1e%d: realised %g", sl_dtype_name(dt), e, ref.cond);
                    sl_reference_clear(&ref);
                }
            }
        }
        /* the low targets too, below the random products' own condition number (about
         * 1.5 sqrt(n / 2), 470 here): 1 gives the least, 2 (every product >= 0), and 3 .. 100
         * within a factor 2 */
        const sl_dataset *dc = sl_dataset_find("dot-cond");
        const double lows[] = {1, 2, 3, 10, 30, 100};
        for (size_t k = 0; dc && k < sizeof lows / sizeof lows[0]; k++) {
            sl_params p;
            sl_params_defaults(dc, &p);
            char kv[64];
            snprintf(kv, sizeof kv, "cond=%g", lows[k]);
            sl_err err = {{0}};
            CHECK(sl_params_set(dc, &p, kv, &err) == 0, "dot-cond %s: %s", kv, err.msg);
            const uint64_t n = 200000;
            void *lx = malloc(n * 8), *ly = malloc(n * 8);
            sl_reference ref;
            CHECK(lx && ly && sl_dataset_generate_pair(dc, dt, sl_test_seed() + k, n, &p, lx, ly, 1, &err) == 0 &&
                  sl_reference_dot(&ref, lx, ly, n, dt, 1, &err) == 0, "dot-cond %s %s: %s", kv,
                  sl_dtype_name(dt), err.msg);
            const double want = lows[k] < 2 ? 2 : lows[k];
            CHECK(ref.cond >= 2 && ref.cond > want / 2 && ref.cond < want * 2, "dot-cond %s %s: realised %g",
                  kv, sl_dtype_name(dt), ref.cond);
            if (lows[k] <= 2) CHECK(ref.cond < 2 * (1 + 1e-6), "dot-cond %s %s: every product >= 0 gives 2, "
                                    "realised %.17g", kv, sl_dtype_name(dt), ref.cond);
            sl_reference_clear(&ref);
            free(lx);
            free(ly);
        }
    }
    /* float64 products outside [2^-968, 2^1000) (correct's scaled windows): correct equals the
     * reference on each case, and after a permutation; then with two products of 2^1200 that
     * cancel appended (their Inf in float64 makes the certified first pass decline: the exact path
     * decides every case) */
    int by_exact = 0;
    for (int k = 0; k < TD_NWIN; k++) {
        const char *what;
        double *dx = x, *dy = y;
        uint64_t n = td_window_case(k, dx, dy, &what);
        double r;
        by_exact += !sl_psum_certify_host(x, y, n, SL_F64, &r);
        check_input(x, y, n, SL_F64, what);
        if (n >= 2) check_permutation(x, y, n, SL_F64);
        n = td_window_case(k, dx, dy, &what);
        n = td_append_cancelling_huge(dx, dy, n);
        CHECK(!sl_psum_certify_host(x, y, n, SL_F64, &r), "%s with 2^1200 products: not certified", what);
        check_input(x, y, n, SL_F64, what);
    }
    CHECK(by_exact >= TD_NWIN / 2, "the exact path decides most window cases as they are (%d of %d)",
          by_exact, TD_NWIN);
    /* specials: NaN, Inf * 0 -> NaN; an Inf product -> that Inf in every variant */
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        td_fill(x, y, 100, dt, TD_RANDOM);
        td_store(x, dt, 7, NAN);
        check_input(x, y, 100, dt, "nan");
        td_fill(x, y, 100, dt, TD_RANDOM);
        td_store(x, dt, 50, INFINITY);
        td_store(y, dt, 50, 0.0);
        check_input(x, y, 100, dt, "inf*0");
        td_fill(x, y, 100, dt, TD_RANDOM);
        td_store(x, dt, 50, -INFINITY);
        td_store(y, dt, 50, 1.5);
        check_input(x, y, 100, dt, "-inf");
        td_fill(x, y, 4099, dt, TD_RANDOM);
        td_store(x, dt, 4000, INFINITY);
        td_store(y, dt, 4000, 0.75);
        check_input(x, y, 4099, dt, "inf");
    }
    /* the wrapper: a two-input variant without its second array is an error, not a crash */
    const sl_variant *v = sl_variant_find_op("dot", "naive");
    const void *const in[2] = {x, NULL};
    sl_launch cfg = {0};
    sl_variant_resolve(v, &cfg, 10, SL_F32);
    double r;
    sl_err err = {{0}};
    CHECK(sl_variant_cpu_in(v, in, 10, SL_F32, &cfg, &r, &err) != 0 && strstr(err.msg, "second"),
          "missing second input: '%s'", err.msg);
    free(x);
    free(y);
    return sl_test_done("tdot_twins");
}

/* tladder.c: CPU-twin tests of the optimisation ladder (atomic-thread .. vec4): results within
 * gamma_k * sum|x| of the exact (MPFR) sum for k = depth(), repeatable bits for the
 * deterministic rungs, seed-dependent bits for atomic-thread, n = 0 -> +0, n = 1 -> x[0].
 * The exact sum is accumulated in MPFR at a precision where every add is exact (checked). */
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include "sl_test.h"
#include "ladder.h"
#include "sl_variants.h"

/* The rungs: the registry's entries of family "ladder", in registry order. */
static const sl_variant *rungs[32];
static size_t nrungs;
static void find_rungs(void)
{
    for (size_t i = 0; i < sl_variant_count() && nrungs < 32; i++)
        if (!strcmp(sl_variant_at(i)->family, "ladder")) rungs[nrungs++] = sl_variant_at(i);
}
#define NRUNGS nrungs

static const sl_variant *must_find(const char *name)
{
    const sl_variant *v = sl_variant_find(name);
    if (!v) {
        fprintf(stderr, "tladder: variant '%s' is not in the registry\n", name);
        abort();
    }
    return v;
}

static uint64_t rnd64(void) { return sl_test_rand64(); }
static double rnd_unit(void) { return (double)(rnd64() >> 11) * 0x1p-53; } /* [0, 1) */

/* kind 0: uniform [-1, 1); kind 1: cancellation-heavy (+-magnitudes over 2^-20..2^20 in
 * pairs that nearly cancel, plus small noise). */
static void fill(void *x, uint64_t n, sl_dtype dt, int kind)
{
    for (uint64_t i = 0; i < n; i++) {
        double v;
        if (kind == 0) {
            v = 2.0 * rnd_unit() - 1.0;
        } else {
            double mag = ldexp(1.0 + rnd_unit(), (int)(rnd64() % 41) - 20);
            v = (i & 1) ? -mag : mag * (1.0 + 0x1p-10 * rnd_unit());
        }
        if (dt == SL_F64) ((double *)x)[i] = v;
        else ((float *)x)[i] = (float)v;
    }
}

/* Exact sum (and sum of |x|) in MPFR; every add must be exact. */
static void exact_sums(const void *x, uint64_t n, sl_dtype dt, mpfr_t s, mpfr_t sa)
{
    mpfr_set_zero(s, 1);
    mpfr_set_zero(sa, 1);
    for (uint64_t i = 0; i < n; i++) {
        double v = dt == SL_F64 ? ((const double *)x)[i] : (double)((const float *)x)[i];
        if (mpfr_add_d(s, s, v, MPFR_RNDN) != 0 || mpfr_add_d(sa, sa, fabs(v), MPFR_RNDN) != 0) {
            fprintf(stderr, "tladder: inexact MPFR step in the exact reference (bug)\n");
            abort();
        }
    }
}

static uint64_t bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* |r - S| <= gamma_k * sum|x| with k = depth; returns the ratio error / bound. */
static double bound_ratio(double r, mpfr_t s, mpfr_t sa, double k, sl_dtype dt)
{
    mpfr_t e;
    mpfr_init2(e, 4096);
    mpfr_sub_d(e, s, r, MPFR_RNDN); /* exact at 4096 bits for our inputs */
    mpfr_abs(e, e, MPFR_RNDN);
    double err = mpfr_get_d(e, MPFR_RNDU), abssum = mpfr_get_d(sa, MPFR_RNDU);
    mpfr_clear(e);
    double u = dt == SL_F64 ? 0x1p-53 : 0x1p-24, ku = k * u;
    double bound = ku / (1.0 - ku) * abssum * (1.0 + 0x1p-40);
    if (ku >= 1.0) return 0.0; /* bound vacuous */
    if (err == 0.0) return 0.0;
    return bound > 0.0 ? err / bound : INFINITY;
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    find_rungs();
    CHECK(nrungs == 7, "the registry lists %zu ladder rungs, 7 expected", nrungs);
    for (size_t ri = 0; ri < nrungs; ri++)
        CHECK(rungs[ri]->cpu && rungs[ri]->resolve && (uint32_t)rungs[ri]->impl == ri,
              "rung %zu (%s): twin, resolve and impl %d expected", ri, rungs[ri]->name,
              rungs[ri]->impl);
    const uint64_t sizes[] = {0, 1, 31, 1000, ((uint64_t)1 << 20) + 3};
    const uint32_t mods[] = {0, 4, 8};
    void *x = malloc((((size_t)1 << 20) + 3) * sizeof(double));
    if (!x) return 1;
    mpfr_t s, sa;
    mpfr_init2(s, 4096);
    mpfr_init2(sa, 4096);
    for (int dti = 0; dti < 2; dti++) {
        sl_dtype dt = dti ? SL_F64 : SL_F32;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int kind = 0; kind < 2; kind++) {
                uint64_t n = sizes[si];
                fill(x, n, dt, kind);
                exact_sums(x, n, dt, s, sa);
                for (size_t ri = 0; ri < NRUNGS; ri++)
                    for (size_t mi = 0; mi < 3; mi++) {
                        const sl_variant *R = rungs[ri];
                        sl_launch cfg = {0};
                        cfg.sm_count = SL_DEFAULT_SM_COUNT;
                        cfg.addr_mod = mods[mi];
                        if (dt == SL_F64 && cfg.addr_mod == 4) cfg.addr_mod = 8 + 16 * 3;
                        cfg.order_seed = 7;
                        sl_variant_resolve(R, &cfg, n, dt);
                        sl_err err = {{0}};
                        double r1 = NAN, r2 = NAN;
                        int rc1 = sl_variant_cpu(R, x, n, dt, &cfg, &r1, &err);
                        CHECK(rc1 == 0, "%s %s n=%llu: %s", R->name, sl_dtype_name(dt),
                              (unsigned long long)n, err.msg);
                        int rc2 = sl_variant_cpu(R, x, n, dt, &cfg, &r2, &err);
                        CHECK(rc2 == 0, "%s: %s", R->name, err.msg);
                        if (rc1 || rc2) continue;
                        CHECK(isfinite(r1), "%s %s n=%llu: result %a", R->name,
                              sl_dtype_name(dt), (unsigned long long)n, r1);
                        if (dt == SL_F32)
                            CHECK((double)(float)r1 == r1, "%s: f32 result %a not a float",
                                  R->name, r1);
                        if (R->determinism != SL_DET_NONDETERMINISTIC || cfg.order_seed == 7)
                            CHECK(bits(r1) == bits(r2), "%s %s n=%llu: %a then %a", R->name,
                                  sl_dtype_name(dt), (unsigned long long)n, r1, r2);
                        if (n == 0)
                            CHECK(bits(r1) == 0, "%s n=0: %a is not +0", R->name, r1);
                        if (n == 1) {
                            double x0 = dt == SL_F64 ? ((double *)x)[0] : ((float *)x)[0];
                            CHECK(bits(r1) == bits(x0), "%s n=1: %a for x[0] = %a", R->name,
                                  r1, x0);
                        }
                        double k = sl_variant_depth(R, n, dt, &cfg);
                        double ratio = bound_ratio(r1, s, sa, k, dt);
                        CHECK(ratio <= 1.0, "%s %s n=%llu kind %d addr_mod %u: error/bound %g "
                              "(depth %g, result %a)", R->name, sl_dtype_name(dt),
                              (unsigned long long)n, kind, cfg.addr_mod, ratio, k, r1);
                    }
            }
    }
    /* Coverage: small integers sum exactly in every order, so every element must be added
     * exactly once (any config: odd block sizes, explicit grids, items, misalignment). */
    const uint32_t blocks[] = {0, 32, 100, 1024};
    const uint32_t grids[] = {0, 1, 7};
    const uint32_t items[] = {0, 1, 2, 8};
    for (int dti = 0; dti < 2; dti++) {
        sl_dtype dt = dti ? SL_F64 : SL_F32;
        const uint64_t nn[] = {2, 33, 515, 4099, 200003};
        for (size_t si = 0; si < sizeof nn / sizeof nn[0]; si++) {
            uint64_t n = nn[si];
            double exact = 0;
            for (uint64_t i = 0; i < n; i++) {
                double v = (double)((int)(rnd64() % 17) - 8);
                exact += v;
                if (dt == SL_F64) ((double *)x)[i] = v;
                else ((float *)x)[i] = (float)v;
            }
            for (size_t ri = 0; ri < NRUNGS; ri++)
                for (size_t bi = 0; bi < 4; bi++)
                    for (size_t gi = 0; gi < 3; gi++) {
                        const sl_variant *R = rungs[ri];
                        sl_launch cfg = {0};
                        cfg.block = blocks[bi];
                        cfg.grid = grids[gi];
                        cfg.items = items[(bi + gi) % 4];
                        cfg.addr_mod = (uint32_t)(sl_dtype_size(dt) * (si + gi) % 16);
                        cfg.order_seed = si;
                        sl_variant_resolve(R, &cfg, n, dt);
                        double r = NAN;
                        sl_err err = {{0}};
                        int rc = sl_variant_cpu(R, x, n, dt, &cfg, &r, &err);
                        CHECK(rc == 0 && r == exact, "%s %s n=%llu block %u grid %u items %u "
                              "addr_mod %u: %a, exact %a (%s)", R->name, sl_dtype_name(dt),
                              (unsigned long long)n, cfg.block, cfg.grid, cfg.items,
                              cfg.addr_mod, r, exact, rc ? err.msg : "");
                    }
        }
    }

    /* atomic-thread: the sampled commit order depends on order_seed; every order obeys the
     * bound. Cancellation-heavy float32 input, 4 blocks and 4096 blocks. */
    const sl_variant *at = must_find("atomic-thread");
    const uint64_t an[] = {1000, (uint64_t)1 << 20};
    for (size_t ai = 0; ai < 2; ai++) {
        uint64_t n = an[ai];
        fill(x, n, SL_F32, 1);
        exact_sums(x, n, SL_F32, s, sa);
        double first = 0;
        int distinct = 0;
        for (uint64_t seed = 1; seed <= 8; seed++) {
            sl_launch cfg = {0};
            cfg.order_seed = seed;
            sl_variant_resolve(at, &cfg, n, SL_F32);
            double r = NAN;
            sl_err err = {{0}};
            CHECK(sl_variant_cpu(at, x, n, SL_F32, &cfg, &r, &err) == 0, "%s", err.msg);
            double ratio = bound_ratio(r, s, sa, sl_variant_depth(at, n, SL_F32, &cfg), SL_F32);
            CHECK(ratio <= 1.0, "atomic-thread seed %llu: error/bound %g",
                  (unsigned long long)seed, ratio);
            if (seed == 1) first = r;
            else if (bits(r) != bits(first)) distinct = 1;
        }
        CHECK(distinct, "atomic-thread n=%llu: 8 order seeds gave the same bits %a",
              (unsigned long long)n, first);
    }

    /* vec4's block ranges tile [0, nv) in block order, start on unit boundaries and differ in
     * length by at most one unit (the last block's may be shorter: the ragged end). */
    {
        const uint64_t nvs[] = {0, 1, 31, 32, 33, 1000, 4096, 4097, 100003, (uint64_t)1 << 26,
                                ((uint64_t)1 << 31) + 5};
        const uint64_t grids[] = {1, 2, 3, 7, 132, 264, 1000, 100000};
        for (size_t i = 0; i < sizeof nvs / sizeof nvs[0]; i++)
            for (size_t j = 0; j < sizeof grids / sizeof grids[0]; j++) {
                uint64_t nv = nvs[i], G = grids[j], prev = 0, mn = UINT64_MAX, mx = 0;
                int ok = 1;
                for (uint64_t b = 0; b < G && ok; b++) {
                    uint64_t lo, hi;
                    sl_ladder_vec_range(nv, G, b, &lo, &hi);
                    ok = lo == prev && hi >= lo && hi <= nv &&
                         (lo % SL_LADDER_VEC_UNIT == 0 || lo == nv);
                    prev = hi;
                    if (hi < nv) {
                        if (hi - lo < mn) mn = hi - lo;
                        if (hi - lo > mx) mx = hi - lo;
                    }
                }
                CHECK(ok && prev == nv && (mx == 0 || mx - mn <= SL_LADDER_VEC_UNIT),
                      "vec4 ranges nv=%llu grid=%llu: not a balanced tiling",
                      (unsigned long long)nv, (unsigned long long)G);
            }
    }

    /* Bad configurations are refused with a message, never run. */
    {
        const sl_variant *vec4 = must_find("vec4");
        sl_launch cfg = {0};
        cfg.addr_mod = 2; /* not a multiple of 4 */
        sl_variant_resolve(vec4, &cfg, 100, SL_F32);
        double r;
        sl_err err = {{0}};
        CHECK(sl_variant_cpu(vec4, x, 100, SL_F32, &cfg, &r, &err) == -1 && strstr(err.msg, "vec4"),
              "misaligned addr_mod accepted: '%s'", err.msg);
    }

    mpfr_clear(s);
    mpfr_clear(sa);
    free(x);
    return sl_test_done("tladder");
}

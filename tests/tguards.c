/* tguards.c: issue 15's judge and launch guards as units: the grid of every twin resolved
 * against n (a huge request on a tiny input gives one block, the default launch is unchanged,
 * the clamped result equals the unclamped one), bounds vacuous at the overflow edge and for an
 * overflowing exact sum, and the bound self-check `sum` and `bench` share. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_reference.h"
#include "sl_variants.h"
#include "sl_measure.h"

static double bound_of(const char *name, const void *x, uint64_t n, sl_dtype dt, double *result)
{
    const sl_variant *v = sl_variant_find(name);
    sl_reference ref;
    sl_err e = {{0}};
    CHECK(v && !sl_reference_compute(&ref, x, n, dt, &e), "%s: %s", name, e.msg);
    sl_launch c = {0};
    sl_variant_resolve(v, &c, n, dt);
    double b = sl_variant_bound(v, &ref, n, dt, &c);
    if (result) CHECK(!sl_variant_cpu(v, x, n, dt, &c, result, &e), "%s: %s", name, e.msg);
    sl_reference_clear(&ref);
    return b;
}

int main(void)
{
    sl_test_seed();
    /* ---- 5. the grid resolved against n: a huge request gives the blocks that have work ---- */
    static const char *const gs[] = {"atomic-block", "kahan", "fp64-acc", "superacc", "multipass",
                                     "grid-stride", "vec4"};
    float four[4] = {1, 2, 3, 4};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
        const sl_variant *v = sl_variant_find(gs[i]);
        CHECK(v != NULL, "%s in the registry", gs[i]);
        if (!v) continue;
        sl_launch c = {0};
        c.grid = 1u << 20;
        sl_variant_resolve(v, &c, 4, SL_F32);
        CHECK(c.grid == 1, "%s: --grid 2^20 on 4 values resolves to %u blocks", gs[i], c.grid);
        double r = 0;
        sl_err e = {{0}};
        CHECK(!sl_variant_cpu(v, four, 4, SL_F32, &c, &r, &e) && r == 10.0, "%s: %a (%s)", gs[i], r, e.msg);
    }
    /* the default launch is what it was (never above the blocks with work), and a clamped
     * explicit grid gives the unclamped sum bit for bit on random data */
    const uint64_t n = (1u << 20) + 3;
    float *x = malloc(n * sizeof *x);
    sl_test_rng = sl_test_seed();
    for (uint64_t i = 0; i < n; i++) x[i] = (float)((double)(sl_test_rand64() >> 11) * 0x1p-53 - 0.5);
    static const char *const eng[] = {"atomic-block", "kahan", "fp64-acc"};
    for (size_t i = 0; i < 3; i++) {
        const sl_variant *v = sl_variant_find(eng[i]);
        sl_launch d = {0}, big = {0}, need = {0};
        sl_variant_resolve(v, &d, n, SL_F32);
        CHECK(d.block == 256 && d.grid >= 1 && (uint64_t)d.grid * d.block <= n, "%s: default grid %u", eng[i], d.grid);
        big.grid = 1u << 20;                 /* far more blocks than have work */
        sl_variant_resolve(v, &big, n, SL_F32);
        need.grid = (uint32_t)((n / 4 + 255) / 256);
        sl_variant_resolve(v, &need, n, SL_F32);
        CHECK(big.grid == need.grid, "%s: grid 2^20 -> %u, the blocks with work %u", eng[i], big.grid, need.grid);
        double a = 0, b = 0;
        sl_err e = {{0}};
        big.order_seed = need.order_seed = 1;
        CHECK(!sl_variant_cpu(v, x, n, SL_F32, &big, &a, &e) && !sl_variant_cpu(v, x, n, SL_F32, &need, &b, &e) &&
              !memcmp(&a, &b, sizeof a), "%s: clamped %a vs %a", eng[i], a, b);
    }
    free(x);

    /* ---- 7. a bound is vacuous where the final conversion can overflow -------------------- */
    float edge[3] = {0x1.fffffep+127f, 0x1p+103f, -0x1p-149f};
    double r = 0;
    double b = bound_of("fp64-acc", edge, 3, SL_F32, &r);
    CHECK(isinf(r) && isinf(b), "fp64-acc at the float32 tie: result %a, bound %a (must be inf)", r, b);
    /* far from the edge the same variant keeps its finite bound */
    b = bound_of("fp64-acc", four, 4, SL_F32, NULL);
    CHECK(b > 0 && b < 1e-5, "fp64-acc on {1,2,3,4}: bound %a", b);
    {
        sl_reference ref;
        sl_err e = {{0}};
        float big2[2] = {0x1p127f, 0x1p126f};   /* S = 1.5 * 2^127: finite, 2^103 below the edge */
        sl_reference_compute(&ref, big2, 2, SL_F32, &e);
        CHECK(sl_bound_reach(&ref, 0x1p100, SL_F32) == 0x1p100, "a small bound stays");
        CHECK(isinf(sl_bound_reach(&ref, 0x1p126, SL_F32)), "a bound reaching 2^128 - 2^103 is vacuous");
        /* the self-check: outside the bound fails, on or within it passes, NaN bound: no model */
        CHECK(sl_bound_violated(&ref, 2.0, 1.0), "error 2 above bound 1");
        CHECK(!sl_bound_violated(&ref, 1.0, 1.0) && !sl_bound_violated(&ref, INFINITY, INFINITY),
              "within the bound (inf within a vacuous bound)");
        CHECK(sl_bound_violated(&ref, INFINITY, 1e30), "an Inf result with a finite bound fails");
        CHECK(sl_bound_violated(&ref, NAN, 1.0), "a NaN error fails");
        CHECK(!sl_bound_violated(&ref, 5.0, NAN), "no bound model: nothing to check");
        sl_reference_clear(&ref);
    }

    /* ---- 9. an exact sum that overflows with finite input: bound inf, cond NaN ------------- */
    double ovf[2] = {1e308, 1e308};
    static const char *const all[] = {"serial", "pairwise", "kahan", "multipass", "superacc", "vec4"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        b = bound_of(all[i], ovf, 2, SL_F64, NULL);
        CHECK(isinf(b) && b > 0, "%s on [1e308, 1e308]: bound %a (documented: inf)", all[i], b);
    }
    {
        sl_reference ref;
        sl_err e = {{0}};
        sl_reference_compute(&ref, ovf, 2, SL_F64, &e);
        CHECK(ref.overflow == 1 && ref.finite == 0 && isnan(ref.cond), "overflow flagged, cond NaN");
        sl_reference_clear(&ref);
        double inf2[2] = {INFINITY, 1.0};
        sl_reference_compute(&ref, inf2, 2, SL_F64, &e);
        CHECK(ref.overflow == 0 && isnan(bound_of("serial", inf2, 2, SL_F64, NULL)), "Inf input: NaN bound");
        sl_reference_clear(&ref);
    }
    return sl_test_done("tguards");
}

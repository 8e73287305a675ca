/* tladder.c: CPU-twin tests of the optimisation ladders (registry family "ladder": the first
 * text's atomic-thread .. vec4, the second text's smem-strided .. block-reduce): results within
 * gamma_k * sum|x| of the exact (MPFR) sum for k = depth(), repeatable bits for the
 * deterministic rungs, seed-dependent bits for atomic-thread, n = 0 -> +0, n = 1 -> x[0]; the
 * second text's rungs against the rungs they must equal bit for bit and against independent
 * element-order references of their own order.
 * The exact sum is accumulated in MPFR at a precision where every add is exact (checked). */
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include "sl_test.h"
#include "ladder/ladder2.h"
#include "sl_twin.h"
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

/* ---- the second text's rungs: references of their orders from the elements' side ----
 * Each visits x[0..n) in index order and adds every element into the accumulator the rung's
 * indexing gives it; a thread's elements arrive in increasing index, the order the rung adds
 * them. Then the shared twin pieces (trees, block sum, finish) the kernels mirror. */

/* multi-load / warp-unrolled / full-unroll: element e is in block e / (BK), thread
 * (e mod BK) mod B; each column a = +0 + ..; the block's sequential tree; the finish. */
static double ref_tiles(const void *x, uint64_t n, sl_dtype dt, const sl_launch *c)
{
    const uint64_t B = c->block, K = c->items, G = c->grid;
    double *col = calloc(G * B, sizeof *col), *parts = malloc(G * sizeof *parts);
    if (!col || !parts) abort();
    for (uint64_t e = 0; e < n; e++) {
        double *a = &col[e / (B * K) * B + e % (B * K) % B];
        *a = sl_tw_add(*a, sl_tw_load(x, dt, e), dt);
    }
    for (uint64_t b = 0; b < G; b++) parts[b] = sl_tw_tree_sequential(&col[b * B], c->block, dt);
    double r = sl_tw_finish(parts, G, c->block, dt);
    free(col);
    free(parts);
    return r;
}

/* block-reduce: element e goes to thread e mod BG; the block sums; the finish. */
static double ref_grid_stride(const void *x, uint64_t n, sl_dtype dt, const sl_launch *c)
{
    const uint64_t B = c->block, G = c->grid;
    double *acc = calloc(G * B, sizeof *acc), *parts = malloc(G * sizeof *parts);
    if (!acc || !parts) abort();
    for (uint64_t e = 0; e < n; e++)
        acc[e % (B * G)] = sl_tw_add(acc[e % (B * G)], sl_tw_load(x, dt, e), dt);
    for (uint64_t b = 0; b < G; b++) parts[b] = sl_tw_block_sum(&acc[b * B], c->block, dt);
    double r = sl_tw_finish(parts, G, c->block, dt);
    free(acc);
    free(parts);
    return r;
}

/* packed: head scalars e to thread e lane 0, then tail scalars e to thread e - tail0 lane 0,
 * then pack elements e to thread ((e - head) / W) mod BG, lane (e - head) mod W; PackReduce
 * +0 + lane 0 + .. + lane W-1; the block sums; the finish. */
static double ref_packed(const void *x, uint64_t n, sl_dtype dt, const sl_launch *c)
{
    const uint64_t B = c->block, G = c->grid, S = B * G, W = sl_vec_width(dt);
    uint64_t head, nv;
    sl_vec_split(n, dt, c->addr_mod, &head, &nv);
    const uint64_t tail0 = head + nv * W;
    double *l = calloc(S * W, sizeof *l), *vals = malloc(S * sizeof *vals);
    double *parts = malloc(G * sizeof *parts);
    if (!l || !vals || !parts) abort();
    for (uint64_t e = 0; e < head; e++) l[e * W] = sl_tw_add(l[e * W], sl_tw_load(x, dt, e), dt);
    for (uint64_t e = tail0; e < n; e++)
        l[(e - tail0) * W] = sl_tw_add(l[(e - tail0) * W], sl_tw_load(x, dt, e), dt);
    for (uint64_t e = head; e < tail0; e++) {
        double *a = &l[(e - head) / W % S * W + (e - head) % W];
        *a = sl_tw_add(*a, sl_tw_load(x, dt, e), dt);
    }
    for (uint64_t g = 0; g < S; g++) {
        double r = 0.0;
        for (uint64_t k = 0; k < W; k++) r = sl_tw_add(r, l[g * W + k], dt);
        vals[g] = r;
    }
    for (uint64_t b = 0; b < G; b++) parts[b] = sl_tw_block_sum(&vals[b * B], c->block, dt);
    double r = sl_tw_finish(parts, G, c->block, dt);
    free(l);
    free(vals);
    free(parts);
    return r;
}

/* v's twin with cfg (resolved here; *out gets the resolved copy when not NULL). */
static double twin(const char *name, const void *x, uint64_t n, sl_dtype dt, sl_launch cfg,
                   sl_launch *out)
{
    const sl_variant *v = must_find(name);
    sl_variant_resolve(v, &cfg, n, dt);
    if (out) *out = cfg;
    double r = NAN;
    sl_err err = {{0}};
    int rc = sl_variant_cpu(v, x, n, dt, &cfg, &r, &err);
    CHECK(rc == 0, "%s %s n=%llu block %u: %s", name, sl_dtype_name(dt), (unsigned long long)n,
          cfg.block, err.msg);
    return r;
}

/* The second text's rungs: which must agree bit for bit with which (same n, same requested
 * block), and each against its element-order reference. Cancellation-heavy input, so that
 * different orders give different bits (checked: the trees do differ somewhere). */
static void check_text2(void *x)
{
    const uint64_t ns[] = {0, 1, 31, 33, 1000, 4097, 200003};
    const uint32_t blocks[] = {0, 32, 64, 128, 1024};
    int trees_differ = 0;
    for (int dti = 0; dti < 2; dti++) {
        const sl_dtype dt = dti ? SL_F64 : SL_F32;
        for (size_t si = 0; si < sizeof ns / sizeof *ns; si++) {
            const uint64_t n = ns[si];
            fill(x, n, dt, 1);
            for (size_t bi = 0; bi < sizeof blocks / sizeof *blocks; bi++) {
                sl_launch c0 = {0}, c;
                c0.block = blocks[bi];
#define SAME(a, b, what)                                                                    \
    CHECK(bits(a) == bits(b), "%s %s n=%llu block %u: %a != %a", what, sl_dtype_name(dt),  \
          (unsigned long long)n, blocks[bi], a, b)
                /* v1 == v0: the strided index visits the interleaved tree's pairs */
                double r0 = twin("smem-interleaved", x, n, dt, c0, NULL);
                double r1 = twin("smem-strided", x, n, dt, c0, NULL);
                SAME(r1, r0, "smem-strided vs smem-interleaved");
                /* v4 == v5 == v3 == v6 (items 2): per-thread two loads, the sequential tree */
                double r3 = twin("two-load", x, n, dt, c0, NULL);
                double r4 = twin("warp-unrolled", x, n, dt, c0, &c);
                SAME(r4, r3, "warp-unrolled vs two-load");
                SAME(r4, ref_tiles(x, n, dt, &c), "warp-unrolled vs element-order reference");
                double r5 = twin("full-unroll", x, n, dt, c0, NULL);
                SAME(r5, r3, "full-unroll vs two-load");
                sl_launch ck = c0;
                ck.items = 2;
                double r6 = twin("multi-load", x, n, dt, ck, NULL);
                SAME(r6, r3, "multi-load items 2 vs two-load");
                /* v6 items 1 == smem-sequential (+0 + x[i] == x[i]: the input has no -0) */
                ck.items = 1;
                r6 = twin("multi-load", x, n, dt, ck, NULL);
                SAME(r6, twin("smem-sequential", x, n, dt, c0, NULL),
                     "multi-load items 1 vs smem-sequential");
                if (bits(r3) != bits(r0)) trees_differ = 1;
                const uint32_t ks[] = {0, 3, 8, 64};
                for (size_t ki = 0; ki < 4; ki++) {
                    ck.items = ks[ki];
                    r6 = twin("multi-load", x, n, dt, ck, &c);
                    SAME(r6, ref_tiles(x, n, dt, &c), "multi-load vs element-order reference");
                }
                /* block-reduce: one block == grid-stride's one block; any grid == reference */
                sl_launch cg = c0;
                cg.grid = 1;
                SAME(twin("block-reduce", x, n, dt, cg, NULL), twin("grid-stride", x, n, dt, cg, NULL),
                     "block-reduce vs grid-stride, grid 1");
                const uint32_t gs[] = {0, 1, 7};
                for (size_t gi = 0; gi < 3; gi++) {
                    cg.grid = gs[gi];
                    double rb = twin("block-reduce", x, n, dt, cg, &c);
                    SAME(rb, ref_grid_stride(x, n, dt, &c), "block-reduce vs element-order reference");
                }
                /* packed: every alignment of x[0] (head 0..W-1), GetNumBlocks and given grids */
                for (uint32_t am = 0; am < 16; am += (uint32_t)sl_dtype_size(dt))
                    for (size_t gi = 0; gi < 3; gi++) {
                        sl_launch cp = c0;
                        cp.addr_mod = am + 32u * (uint32_t)gi;
                        cp.grid = gs[gi];
                        double rp = twin("packed", x, n, dt, cp, &c);
                        SAME(rp, ref_packed(x, n, dt, &c), "packed vs element-order reference");
                    }
#undef SAME
            }
        }
    }
    CHECK(trees_differ, "two-load and smem-interleaved never differed: the agreements above "
                        "prove nothing on this input");

    /* GetNumBlocks: max(1, min(ceil(nv / 256), 132 * 2048 / 256 * 32)) */
    {
        const sl_variant *p = must_find("packed");
        const uint64_t nn[] = {0, 3, 1024, 1025, (uint64_t)1 << 24, (uint64_t)5 << 32};
        for (size_t i = 0; i < sizeof nn / sizeof *nn; i++) {
            sl_launch c = {0};
            sl_variant_resolve(p, &c, nn[i], SL_F32);
            uint64_t need = (nn[i] / 4 + 255) / 256, cap = 132u * 2048u / 256u * 32u;
            uint64_t want = need < cap ? need : cap;
            CHECK(c.block == 256 && c.grid == (want ? want : 1), "packed n=%llu: block %u grid %u",
                  (unsigned long long)nn[i], c.block, c.grid);
        }
    }
    /* n >= 2^32: every rung resolves to a shape its check accepts (tile rungs: the grid covers
     * n), or refuses it with a message; depth stays finite. */
    for (size_t ri = 0; ri < nrungs; ri++) {
        const sl_variant *R = rungs[ri];
        if (R->impl < SL_RUNG2_SMEM_STRIDED) continue;
        const uint64_t n = ((uint64_t)5 << 32) + 7;
        sl_launch c = {0};
        sl_variant_resolve(R, &c, n, SL_F32);
        sl_err err = {{0}};
        int rc = sl_ladder2_check(R, n, SL_F32, &c, &err);
        CHECK(rc == 0, "%s n=5*2^32+7: %s", R->name, err.msg);
        CHECK(isfinite(sl_variant_depth(R, n, SL_F32, &c)), "%s: depth not finite", R->name);
        sl_launch small = {0};
        small.block = 32;
        small.items = 1;
        sl_variant_resolve(R, &small, (uint64_t)1 << 39, SL_F32);
        rc = sl_ladder2_check(R, (uint64_t)1 << 39, SL_F32, &small, &err);
        if (R->impl == SL_RUNG2_SMEM_STRIDED || R->impl == SL_RUNG2_MULTI_LOAD)
            CHECK(rc == -1 && strstr(err.msg, R->name), "%s: 2^39 in blocks of 32 x 1 accepted",
                  R->name);
    }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    find_rungs();
    CHECK(nrungs == 13, "the registry lists %zu ladder rungs, 13 expected", nrungs);
    for (size_t ri = 0; ri < nrungs; ri++)
        CHECK(rungs[ri]->cpu && rungs[ri]->resolve && (uint32_t)rungs[ri]->impl == ri,
              "rung %zu (%s): twin, resolve and impl %d expected", ri, rungs[ri]->name,
              rungs[ri]->impl);
    const uint64_t sizes[] = {0, 1, 31, 33, 1000, 4097, ((uint64_t)1 << 20) + 3};
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

    check_text2(x);

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

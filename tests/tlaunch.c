/* tlaunch.c: the launch-config experiment's points on the CPU twins (label cpu): every point the
 * experiment sweeps, for every swept variant, float32 and bfloat16, several datasets and n (one
 * not a multiple of the vector width), gives a twin result within the a-priori bound of that
 * configuration's tree; the point's request is what the twin resolves (block, items, offset; the
 * grid never above the request); the aligned points give one result for a config-independent
 * variant (multipass) and, for every other one, different results on some input (the sweep
 * changes the summation tree); invalid requests are refused with a message naming the variant
 * and the value; labels round-trip; the experiment is opt-in. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_study.h"
#include "sl_twin.h"
#include "ladder/ladder.h"
#include "accuracy/accuracy.h"

#define MAXP 160

static long points_checked;

/* The twin at point p on x (n values of dt), judged against ref; its result in *out. */
static void check_point(const sl_variant *v, const sl_lc_point *p, const void *x, uint64_t n,
                        sl_dtype dt, const sl_reference *ref, const char *dsname, double *out)
{
    *out = NAN;
    char label[96];
    sl_lc_label(p, label, sizeof label);
    sl_err err = {{0}};
    CHECK(sl_lc_point_check(v, n, dt, p, &err) == 0, "%s %s %s: swept point refused: %s", v->name,
          sl_dtype_name(dt), label, err.msg);
    sl_launch cfg;
    sl_lc_request(v, p, 1, &cfg, dt);
    /* the offset is a byte address of x[0]: the twin reads the same values whatever it is */
    sl_variant_resolve(v, &cfg, n, dt);
    double r = NAN;
    int rc = sl_variant_cpu(v, x, n, dt, &cfg, &r, &err);
    CHECK(rc == 0, "%s %s %s n=%llu: twin failed: %s", v->name, sl_dtype_name(dt), label,
          (unsigned long long)n, err.msg);
    if (rc) return;
    *out = r;
    points_checked++;
    /* the request is honoured: block and items as asked, the grid never above the request */
    if (p->block) CHECK(cfg.block == p->block, "%s %s: block resolved to %u", v->name, label, cfg.block);
    if (p->items) CHECK(cfg.items == p->items, "%s %s: items resolved to %u", v->name, label, cfg.items);
    if (p->accs)
        CHECK(cfg.accs == p->accs, "%s %s: accumulators resolved to %u", v->name, label, cfg.accs);
    if (p->width)
        CHECK(cfg.width == (p->width == 1 ? sl_dtype_size(dt) : p->width), "%s %s %s: width resolved to %u",
              v->name, sl_dtype_name(dt), label, cfg.width);
    if (p->grid) CHECK(cfg.grid <= p->grid && cfg.grid >= 1, "%s %s: grid resolved to %u", v->name, label, cfg.grid);
    CHECK(cfg.addr_mod == p->offset, "%s %s: addr_mod %u", v->name, label, cfg.addr_mod);
    const double b = sl_variant_bound(v, ref, n, dt, &cfg);
    const sl_errors e = sl_reference_errors(ref, r, dt);
    CHECK(isfinite(b) && e.abs_err <= b,
          "%s %s %s %s n=%llu (block %u grid %u items %u addr_mod %u, depth %g): error %g > bound %g "
          "(result %a)", v->name, dsname, sl_dtype_name(dt), label, (unsigned long long)n, cfg.block,
          cfg.grid, cfg.items, cfg.addr_mod, sl_variant_depth(v, n, dt, &cfg), e.abs_err, b, r);
}

static int tree_varies[16];   /* per swept variant: some input's results differ across configs */

static void sweep_twins(void)
{
    static const char *const dsn[] = {"uniform", "uniform-sym", "ill-conditioned"};
    static const sl_dtype dts[] = {SL_F32, SL_BF16};
    static const uint64_t ns[] = {4099, (uint64_t)1 << 15};
    static const uint32_t sms[] = {132, 4};   /* the H200's grids, and grids of many waves */
    sl_lc_point pts[MAXP];
    for (size_t d = 0; d < sizeof dsn / sizeof dsn[0]; d++) {
        const sl_dataset *ds = sl_dataset_find(dsn[d]);
        CHECK(ds != NULL, "dataset %s missing", dsn[d]);
        if (!ds) continue;
        for (size_t t = 0; t < 2; t++)
            for (size_t k = 0; k < 2; k++) {
                const sl_dtype dt = dts[t];
                const uint64_t n = ns[k];
                void *x = malloc(n * sl_dtype_size(dt));
                sl_err err = {{0}};
                if (!x || sl_dataset_generate(ds, dt, sl_test_seed() + d, n, NULL, 0, n, x, &err)) {
                    CHECK(0, "%s %s n=%llu not generated: %s", dsn[d], sl_dtype_name(dt),
                          (unsigned long long)n, err.msg);
                    free(x);
                    continue;
                }
                for (size_t vi = 0; sl_lc_variant_name(vi); vi++) {
                    const sl_variant *v = sl_variant_find_op("sum", sl_lc_variant_name(vi));
                    CHECK(v != NULL, "variant %s not in the registry", sl_lc_variant_name(vi));
                    if (!v || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                    /* the aligned points of this input: a launch configuration is a tree, so
                     * they differ somewhere, except for a config-independent variant */
                    double first = NAN;
                    int have_first = 0, differ = 0;
                    for (size_t s = 0; s < 2; s++) {
                        size_t np = sl_lc_points(v->name, sms[s], pts, MAXP);
                        CHECK(np > 0 && np <= MAXP, "%s: %zu points", v->name, np);
                        if (np > MAXP) np = MAXP;
                        for (size_t i = 0; i < np; i++) {
                            /* the tail point: the same values, n - 1 of them */
                            const uint64_t m = pts[i].tail ? n - 1 : n;
                            sl_reference ref;
                            if (sl_reference_compute(&ref, x, m, dt, &err)) {
                                CHECK(0, "reference failed: %s", err.msg);
                                continue;
                            }
                            double r;
                            check_point(v, &pts[i], x, m, dt, &ref, dsn[d], &r);
                            sl_reference_clear(&ref);
                            if (pts[i].offset || pts[i].tail || isnan(r)) continue;
                            if (!have_first) { first = r; have_first = 1; }
                            else if (memcmp(&r, &first, sizeof r)) differ = 1;
                        }
                    }
                    if (v->determinism >= SL_DET_CONFIG_INDEPENDENT)
                        CHECK(!differ, "%s (%s) %s %s n=%llu: results differ across launch "
                              "configurations", v->name, sl_determinism_name(v->determinism), dsn[d],
                              sl_dtype_name(dt), (unsigned long long)n);
                    else if (differ)
                        tree_varies[vi] = 1;
                }
                free(x);
            }
    }
}

/* Every sweep the issue names is there, for the variants that take it. */
static void sweeps_present(void)
{
    sl_lc_point pts[MAXP];
    static const struct { const char *v, *sweep; } need[] = {
        {"warp-shuffle", "block"}, {"grid-stride", "grid"}, {"vec4", "accumulators"},
        {"multi-load", "items"},   {"packed", "align"},     {"block-reduce", "grid"},
        {"kahan", "items"},        {"multipass", "grid"},   {"vec4", "align"},
        {"vec4", "width"},         {"vec4", "items"},       {"kahan", "accumulators"},
    };
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++) {
        size_t np = sl_lc_points(need[k].v, 132, pts, MAXP), hit = 0;
        uint32_t offs = 0;
        int tail = 0;
        for (size_t i = 0; i < np; i++) {
            hit += !strcmp(pts[i].sweep, need[k].sweep);
            offs |= 1u << pts[i].offset;
            tail |= pts[i].tail;
        }
        CHECK(hit > 0, "%s has no %s sweep", need[k].v, need[k].sweep);
        if (!strcmp(need[k].sweep, "align") || !strcmp(need[k].sweep, "width"))
            CHECK(offs == ((1u << 0) | (1u << 4) | (1u << 8) | (1u << 12)) && tail,
                  "%s: offsets 0/4/8/12 and the n - 1 point (offsets mask %#x, tail %d)", need[k].v, offs, tail);
    }
    /* block 32 .. 1024 for the rungs, accumulators 1 .. 8 for vec4 */
    size_t np = sl_lc_points("grid-stride", 132, pts, MAXP);
    unsigned blocks = 0;
    for (size_t i = 0; i < np; i++)
        if (!strcmp(pts[i].sweep, "block")) blocks |= pts[i].block;
    CHECK(blocks == (32u | 64u | 128u | 256u | 512u | 1024u), "grid-stride blocks %#x", blocks);
    static const char *const with_accs[] = {"vec4", "grid-stride", "kahan"};
    for (int g = 0; g < 3; g++) {
        np = sl_lc_points(with_accs[g], 132, pts, MAXP);
        unsigned accs = 0, cells = 0;
        for (size_t i = 0; i < np; i++)
            if (!strcmp(pts[i].sweep, "accumulators")) { accs |= pts[i].accs; cells++; }
        CHECK(accs == (1u | 2u | 4u | 8u) && cells == 16, "%s accumulators %#x in %u points", with_accs[g],
              accs, cells);
    }
    /* vec4: scalar, 8- and 16-byte loads, each at every offset and n - 1; items x accumulators
     * with at most one accumulator per load */
    np = sl_lc_points("vec4", 132, pts, MAXP);
    unsigned widths = 0, cells = 0, wpts = 0;
    for (size_t i = 0; i < np; i++) {
        if (!strcmp(pts[i].sweep, "width")) { widths |= pts[i].width; wpts++; }
        else CHECK(pts[i].width == 0, "vec4 %s point with width %u", pts[i].sweep, pts[i].width);
        if (!strcmp(pts[i].sweep, "items")) {
            CHECK(pts[i].accs <= pts[i].items, "vec4 items %u accumulators %u", pts[i].items, pts[i].accs);
            cells++;
        }
    }
    CHECK(widths == (1u | 8u | 16u) && wpts == 3 * 4 * 2, "vec4 widths %#x in %u points", widths, wpts);
    CHECK(cells == 10, "vec4 items x accumulators: %u cells", cells);
    CHECK(sl_lc_points("exact", 132, pts, MAXP) == 0, "exact is not swept");
}

/* A request the variant cannot take is refused, its message naming variant and value. */
static void invalid_requests(void)
{
    static const struct {
        const char *v;
        sl_dtype dt;
        sl_lc_point p;
        const char *want;
    } bad[] = {
#define P(sw, b, g, i, a, o) {sw, b, g, i, a, o, 0, 0}
#define PW(w) {"width", 0, 0, 0, 0, 0, 0, w}
        {"grid-stride", SL_F32, P("block", 48, 0, 0, 0, 0), "block 48 is not a power of two"},
        {"vec4", SL_F32, P("block", 2048, 0, 0, 0, 0), "block 2048 out of range [32, 1024]"},
        {"packed", SL_F32, P("block", 16, 0, 0, 0, 0), "block 16 out of range [32, 1024]"},
        {"kahan", SL_F32, P("block", 100, 0, 0, 0, 0), "block 100 is not a multiple of 32"},
        {"kahan", SL_F32, P("grid", 256, 2000000, 0, 0, 0), "grid 2000000 out of range [1, 1048576]"},
        {"multipass", SL_F32, P("block", 128, 0, 0, 0, 0), "block 128 requested; its block is part of the algorithm"},
        {"warp-shuffle", SL_F32, P("grid", 256, 132, 0, 0, 0), "grid 132 requested; its grid follows n"},
        {"vec4", SL_F32, P("accumulators", 256, 0, 0, 3, 0), "accumulators 3 not in {1, 2, 4, 8}"},
        {"grid-stride", SL_F32, P("accumulators", 256, 0, 0, 16, 0), "accumulators 16 not in {1, 2, 4, 8}"},
        {"packed", SL_F32, P("accumulators", 256, 0, 0, 2, 0), "takes no accumulators per thread"},
        {"kahan", SL_BF16, P("accumulators", 256, 0, 0, 6, 0), "accumulators 6 not in {1, 2, 4, 8}"},
        {"multipass", SL_F32, P("accumulators", 0, 0, 0, 2, 0), "takes no accumulators per thread"},
        {"vec4", SL_F32, P("items", 256, 0, 2, 4, 0), "accumulators 4 more than its items 2"},
        {"vec4", SL_F32, P("items", 256, 0, 3, 0, 0), "items 3 not in {1, 2, 4, 8}"},
        {"vec4", SL_F32, PW(4), "load width 4 not 1 (the f32 element size), 8 or 16 bytes"},
        {"vec4", SL_F32, PW(32), "load width 32 not 1"},
        {"packed", SL_F32, PW(8), "takes no load width (requested 8 bytes)"},
        {"grid-stride", SL_BF16, PW(16), "takes no load width"},
        {"multi-load", SL_F32, P("items", 256, 0, 65, 0, 0), "items 65 out of range [1, 64]"},
        {"block-reduce", SL_F32, P("items", 256, 0, 2, 0, 0), "takes no items per thread"},
        {"vec4", SL_F32, P("align", 0, 0, 0, 0, 2), "offset 2 bytes is not a multiple of the f32 element size"},
        {"packed", SL_BF16, P("align", 0, 0, 0, 0, 16), "offset 16 bytes is not a multiple"},
        {"exact", SL_F32, P("block", 256, 0, 0, 0, 0), "not a variant of the launch-config experiment"},
#undef P
#undef PW
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const sl_variant *v = sl_variant_find_op("sum", bad[k].v);
        CHECK(v != NULL, "%s missing", bad[k].v);
        if (!v) continue;
        sl_err err = {{0}};
        int rc = sl_lc_point_check(v, 4096, bad[k].dt, &bad[k].p, &err);
        CHECK(rc == -1, "%s: request %zu accepted", bad[k].v, k);
        CHECK(strstr(err.msg, bad[k].v) == err.msg && strstr(err.msg, bad[k].want) != NULL,
              "%s: message '%s' lacks '%s'", bad[k].v, err.msg, bad[k].want);
    }
}

static void labels_and_registration(void)
{
    sl_lc_point pts[MAXP], q;
    char label[96], sweep[32];
    size_t np = sl_lc_points("vec4", 132, pts, MAXP);
    for (size_t i = 0; i < np; i++) {
        sl_lc_label(&pts[i], label, sizeof label);
        CHECK(sl_lc_parse_label(label, &q, sweep, sizeof sweep) == 0, "label %s not parsed", label);
        CHECK(!strcmp(sweep, pts[i].sweep) && q.block == pts[i].block && q.grid == pts[i].grid &&
                  q.items == pts[i].items && q.accs == pts[i].accs && q.offset == pts[i].offset &&
                  q.tail == pts[i].tail && q.width == pts[i].width,
              "label %s does not round-trip", label);
    }
    CHECK(sl_lc_parse_label("cfg:block128", &q, sweep, sizeof sweep) == -1, "a foreign label parsed");
    CHECK(sl_lc_parse_label("lc:width:b0:g0:i0:a0:o4:t1:w8", &q, sweep, sizeof sweep) == 0 && q.width == 8 &&
              q.offset == 4 && q.tail == 1, "a width label not parsed");
    CHECK(sl_lc_parse_label("lc:block:b32:g0:i0:a0:o0:t0", &q, sweep, sizeof sweep) == 0 && q.width == 0,
          "a label without width not parsed");
    CHECK(sl_lc_parse_label("lc:width:b0:g0:i0:a0:o0:t0:w8x", &q, sweep, sizeof sweep) == -1 &&
              sl_lc_parse_label("lc:width:b0:g0:i0:a0:o0:t0:w0", &q, sweep, sizeof sweep) == -1,
          "a malformed width parsed");
    /* a label read back from a damaged results.csv: a field past 2^32 - 1, a sign, a tail not 0 or 1 */
    CHECK(sl_lc_parse_label("lc:block:b4294967295:g0:i0:a0:o0:t1", &q, sweep, sizeof sweep) == 0 &&
              q.block == 4294967295u && q.tail == 1,
          "a label with block 2^32 - 1 not parsed");
    CHECK(sl_lc_parse_label("lc:block:b4294967296:g0:i0:a0:o0:t0", &q, sweep, sizeof sweep) == -1 &&
              sl_lc_parse_label("lc:block:b99999999999999999999:g0:i0:a0:o0:t0", &q, sweep, sizeof sweep) == -1 &&
              sl_lc_parse_label("lc:block:b-1:g0:i0:a0:o0:t0", &q, sweep, sizeof sweep) == -1 &&
              sl_lc_parse_label("lc:block:b 1:g0:i0:a0:o0:t0", &q, sweep, sizeof sweep) == -1 &&
              sl_lc_parse_label("lc:align:b0:g0:i0:a0:o4:t2", &q, sweep, sizeof sweep) == -1 &&
              sl_lc_parse_label("lc:width:b0:g0:i0:a0:o0:t0:w4294967296", &q, sweep, sizeof sweep) == -1,
          "a label with a field past 2^32 - 1, a sign, a space or a tail of 2 parsed");
    const sl_experiment *e = sl_experiment_find("launch-config");
    CHECK(e != NULL, "launch-config not in the experiment table");
    CHECK(e && sl_experiment_opt_in(e), "launch-config is not opt-in");
    CHECK(!sl_experiment_opt_in(sl_experiment_find("ladder")), "ladder became opt-in");
}

/* grid-stride's accumulators (sl_launch.accs), against a model written here from the order the
 * kernel documents: step s of a thread adds x[i], x[i + B] into accumulator s mod A, then the
 * pairwise combine, the block sum and the finish (float32, so every add is a float add). The
 * twin must give the model's bits for A = 1, 2, 4, 8; A = 1 must be the default launch's bits;
 * the depth must follow the tree (fewer chained adds per accumulator as A grows); the rungs
 * without accumulators refuse accs > 1. */
static double gs_model(const float *x, uint64_t n, uint32_t B, uint32_t G, uint32_t A)
{
    double *parts = malloc(G * sizeof *parts), vals[1024];
    const uint64_t S = 2ull * B * G;
    for (uint32_t b = 0; b < G; b++) {
        for (uint32_t t = 0; t < B; t++) {
            float acc[8] = {0};
            uint64_t s = 0;
            for (uint64_t i = 2ull * B * b + t; i < n; i += S, s++) {
                acc[s % A] = acc[s % A] + x[i];
                if (i + B < n) acc[s % A] = acc[s % A] + x[i + B];
            }
            for (uint32_t w = A / 2; w >= 1; w /= 2)
                for (uint32_t k = 0; k < w; k++) acc[k] = acc[k] + acc[k + w];
            vals[t] = acc[0];
        }
        parts[b] = sl_tw_block_sum(vals, B, SL_F32);
    }
    double r = sl_tw_finish(parts, G, B, SL_F32);
    free(parts);
    return r;
}

static void grid_stride_accumulators(void)
{
    const sl_variant *v = sl_variant_find_op("sum", "grid-stride");
    const sl_dataset *ds = sl_dataset_find("uniform-sym");
    CHECK(v && ds, "grid-stride or uniform-sym missing");
    if (!v || !ds) return;
    const uint64_t n = 50003;
    float *x = malloc(n * sizeof *x);
    sl_err err = {{0}};
    CHECK(sl_dataset_generate(ds, SL_F32, sl_test_seed(), n, NULL, 0, n, x, &err) == 0, "%s", err.msg);
    int differ = 0;
    double r1 = NAN;
    for (uint32_t A = 1; A <= 8; A *= 2) {
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.block = 64;
        cfg.grid = 5;
        cfg.accs = A;
        double r = NAN;
        CHECK(sl_variant_cpu(v, x, n, SL_F32, &cfg, &r, &err) == 0, "A=%u: %s", A, err.msg);
        const double m = gs_model(x, n, 64, 5, A);
        CHECK(memcmp(&r, &m, sizeof r) == 0, "grid-stride accs %u: twin %a != model %a", A, r, m);
        if (A == 1) r1 = r;
        else differ += memcmp(&r, &r1, sizeof r) != 0;
        sl_launch c0 = cfg, c1 = cfg;
        c0.accs = 0;
        if (A == 1) {
            double d = NAN;
            CHECK(sl_variant_cpu(v, x, n, SL_F32, &c0, &d, &err) == 0 && memcmp(&d, &r, sizeof d) == 0,
                  "accs 0 (%a) is not accs 1 (%a)", d, r);
        } else {
            c1.accs = A / 2;
            CHECK(sl_variant_depth(v, n, SL_F32, &cfg) < sl_variant_depth(v, n, SL_F32, &c1),
                  "depth with %u accumulators (%g) not below %u's (%g)", A,
                  sl_variant_depth(v, n, SL_F32, &cfg), A / 2, sl_variant_depth(v, n, SL_F32, &c1));
        }
    }
    CHECK(differ > 0, "no accumulator count changed the bits: the order did not change");
    static const char *const none[] = {"warp-shuffle", "multi-load", "packed", "block-reduce"};
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
        const sl_variant *w = sl_variant_find_op("sum", none[k]);
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.accs = 2;
        double r;
        err.msg[0] = 0;
        CHECK(w && sl_variant_cpu(w, x, n, SL_F32, &cfg, &r, &err) == -1 &&
                  strstr(err.msg, "takes no accumulators per thread"),
              "%s with accs 2: '%s'", none[k], err.msg);
    }
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.accs = 3;
    double r;
    CHECK(sl_variant_cpu(v, x, n, SL_F32, &cfg, &r, &err) == -1 &&
              strstr(err.msg, "grid-stride: accumulators 3 not in {1, 2, 4, 8}"), "accs 3: '%s'", err.msg);
    free(x);
}

/* vec4's load width and accumulators (sl_launch.width, .accs), against a model written here from
 * the order the kernel documents: W = width / 4 lanes a load; the head up to the first width-byte
 * boundary and the tail (one scalar each per thread, into accumulator 0); block b's vectors
 * [lo, hi); step s, load k (vector lo + s I B + k B + t) into accumulator k mod C, its lanes in
 * order; the pairwise combine over C, the block sum, the finish. The twin must give the model's
 * bits at every width, offset and (items, accumulators); the default (accs 0, width 0) must be
 * accs = items, width 16; the width and the accumulators must change the bits somewhere; fewer
 * accumulators must mean a deeper tree. */
static double vec4_model(const float *x, uint64_t n, uint32_t B, uint32_t G, uint32_t I, uint32_t C,
                         uint32_t wb, uint32_t off)
{
    const uint64_t W = wb / 4;
    uint64_t head = ((wb - off % wb) % wb) / 4;
    if (head > n) head = n;
    const uint64_t nv = (n - head) / W, tail0 = head + nv * W;
    double *parts = malloc(G * sizeof *parts), vals[1024];
    for (uint32_t b = 0; b < G; b++) {
        uint64_t lo, hi;
        sl_ladder_vec_range(nv, G, b, &lo, &hi);
        for (uint32_t t = 0; t < B; t++) {
            float acc[8] = {0};
            const uint64_t g = (uint64_t)b * B + t;
            if (g < head) acc[0] = acc[0] + x[g];
            if (tail0 + g < n) acc[0] = acc[0] + x[tail0 + g];
            for (uint64_t s = 0; lo + s * I * B + t < hi; s++)
                for (uint32_t k = 0; k < I; k++) {
                    const uint64_t j = lo + s * I * B + (uint64_t)k * B + t;
                    if (j >= hi) break;
                    for (uint64_t l = 0; l < W; l++) acc[k % C] = acc[k % C] + x[head + j * W + l];
                }
            for (uint32_t w = C / 2; w >= 1; w /= 2)
                for (uint32_t k = 0; k < w; k++) acc[k] = acc[k] + acc[k + w];
            vals[t] = acc[0];
        }
        parts[b] = sl_tw_block_sum(vals, B, SL_F32);
    }
    double r = sl_tw_finish(parts, G, B, SL_F32);
    free(parts);
    return r;
}

static void vec4_width_accumulators(void)
{
    const sl_variant *v = sl_variant_find_op("sum", "vec4");
    const sl_dataset *ds = sl_dataset_find("uniform-sym");
    CHECK(v && ds, "vec4 or uniform-sym missing");
    if (!v || !ds) return;
    const uint64_t n = 50003;
    float *x = malloc(n * sizeof *x);
    sl_err err = {{0}};
    CHECK(sl_dataset_generate(ds, SL_F32, sl_test_seed(), n, NULL, 0, n, x, &err) == 0, "%s", err.msg);
    static const uint32_t shapes[][2] = {{1, 1}, {2, 1}, {4, 4}, {8, 1}, {8, 2}, {8, 8}};
    static const uint32_t wbs[] = {4, 8, 16};
    int wdiff = 0, adiff = 0;
    for (uint32_t off = 0; off < 16; off += 4)
        for (size_t w = 0; w < 3; w++)
            for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
                sl_launch cfg;
                memset(&cfg, 0, sizeof cfg);
                cfg.block = 64;
                cfg.grid = 5;
                cfg.items = shapes[k][0];
                cfg.accs = shapes[k][1];
                cfg.width = wbs[w];
                cfg.addr_mod = off;
                double r = NAN;
                CHECK(sl_variant_cpu(v, x, n, SL_F32, &cfg, &r, &err) == 0, "vec4 w%u i%u a%u o%u: %s",
                      wbs[w], cfg.items, cfg.accs, off, err.msg);
                const double m = vec4_model(x, n, 64, 5, shapes[k][0], shapes[k][1], wbs[w], off);
                CHECK(memcmp(&r, &m, sizeof r) == 0, "vec4 width %u items %u accs %u offset %u: twin %a != "
                      "model %a", wbs[w], shapes[k][0], shapes[k][1], off, r, m);
                if (wbs[w] != 16) {
                    const double m16 = vec4_model(x, n, 64, 5, shapes[k][0], shapes[k][1], 16, off);
                    wdiff += memcmp(&m16, &r, sizeof r) != 0;
                }
                if (shapes[k][1] != shapes[k][0]) {
                    const double mi = vec4_model(x, n, 64, 5, shapes[k][0], shapes[k][0], wbs[w], off);
                    adiff += memcmp(&mi, &r, sizeof r) != 0;
                }
            }
    CHECK(wdiff > 0 && adiff > 0, "the width (%d) or the accumulators (%d) never changed the bits", wdiff, adiff);
    /* the defaults: accs = items, width 16 (the bits before either parameter existed) */
    sl_launch c0, c1;
    memset(&c0, 0, sizeof c0);
    c0.block = 64;
    c0.grid = 5;
    c0.items = 4;
    c1 = c0;
    c1.accs = 4;
    c1.width = 16;
    double d0 = NAN, d1 = NAN;
    CHECK(sl_variant_cpu(v, x, n, SL_F32, &c0, &d0, &err) == 0 && sl_variant_cpu(v, x, n, SL_F32, &c1, &d1, &err) == 0 &&
              memcmp(&d0, &d1, sizeof d0) == 0, "vec4 default (%a) is not accs = items, width 16 (%a)", d0, d1);
    sl_variant_resolve(v, &c0, n, SL_F32);
    CHECK(c0.accs == 4 && c0.width == 16, "vec4 resolved accs %u width %u", c0.accs, c0.width);
    memset(&c0, 0, sizeof c0);
    c0.accs = 8;
    sl_variant_resolve(v, &c0, n, SL_F32);
    CHECK(c0.items == 8 && c0.accs == 8, "vec4 accs 8 without items: items %u accs %u", c0.items, c0.accs);
    /* depth follows the tree: one accumulator for 8 loads is deeper than 8 */
    memset(&c0, 0, sizeof c0);
    c0.block = 64;
    c0.grid = 5;
    c0.items = 8;
    c0.accs = 1;
    c1 = c0;
    c1.accs = 8;
    CHECK(sl_variant_depth(v, n, SL_F32, &c0) > sl_variant_depth(v, n, SL_F32, &c1), "vec4 depth with 1 "
          "accumulator (%g) not above 8's (%g)", sl_variant_depth(v, n, SL_F32, &c0), sl_variant_depth(v, n, SL_F32, &c1));
    /* refusals of the resolved launch: accumulators above items, a width that is not a load */
    static const struct { uint32_t items, accs, width; sl_dtype dt; const char *want; } bad[] = {
        {2, 4, 16, SL_F32, "vec4: accumulators 4 more than its items 2"},
        {4, 3, 16, SL_F32, "vec4: accumulators 3 not in {1, 2, 4, 8}"},
        {4, 4, 4, SL_BF16, "vec4: load width 4 bytes is not the bf16 element size, 8 or 16"},
        {4, 4, 2, SL_F32, "vec4: load width 2 bytes is not the f32 element size, 8 or 16"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.items = bad[k].items;
        cfg.accs = bad[k].accs;
        cfg.width = bad[k].width;
        double r;
        err.msg[0] = 0;
        CHECK(sl_variant_cpu(v, x, 4096, bad[k].dt, &cfg, &r, &err) == -1 && strstr(err.msg, bad[k].want),
              "vec4 refusal %zu: '%s'", k, err.msg);
    }
    const sl_variant *h = sl_variant_find_op("sum", "half-acc");
    if (h) {
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.width = 8;
        double r;
        CHECK(sl_variant_cpu(h, x, 4096, SL_BF16, &cfg, &r, &err) == -1 &&
                  strstr(err.msg, "takes only 16-byte loads"), "half-acc width 8: '%s'", err.msg);
    }
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.width = 8;
    const sl_variant *gs = sl_variant_find_op("sum", "grid-stride");
    double r;
    CHECK(gs && sl_variant_cpu(gs, x, n, SL_F32, &cfg, &r, &err) == -1 && strstr(err.msg, "takes no load width"),
          "grid-stride width 8: '%s'", err.msg);
    free(x);
}

/* kahan's accumulators (sl_launch.accs), against a model written here from the order the kernel
 * documents (float32, W = 4 lanes a 16-byte vector): the head scalars (to the first 16-byte
 * boundary) and the tail into set 0 lane 0; step s of a thread (vector g + s T) into set s mod A,
 * lane k its element k, each a Kahan update y = x - c, t = s + y, c = (t - s) - y, s = t; a lane
 * leaves as (s, -c); a set's lanes combine (l0 + l1) + (l2 + l3) and the sets pairwise (for w =
 * A/2 .. 1: p_q = p_q + p_{q+w}), + the compensated TwoSum merge; then the block tree and the
 * finish; the result s + e. The twin must give the model's bits for A = 1, 2, 4, 8 at every
 * base offset; A = 1 must be the default launch's bits (the bits before accs existed); the
 * accumulators must change the bits somewhere; the depth must fall as A grows; accs 3 is
 * refused; atomic-block and fp64-acc ignore accs. */
typedef struct { float s, e; } kpair;
static kpair kp_add(kpair x, kpair y)
{
    const float S = x.s + y.s, bp = S - x.s, er = (x.s - (S - bp)) + (y.s - bp), ee = x.e + y.e;
    return (kpair){S, er + ee};
}

static double kahan_model(const float *x, uint64_t n, uint32_t B, uint32_t G, uint32_t A, uint32_t off)
{
    const uint64_t T = (uint64_t)B * G;
    uint64_t head = ((16u - off % 16u) % 16u) / 4u;
    if (head > n) head = n;
    const uint64_t nv = (n - head) / 4, ts = head + nv * 4;
    sl_tw_pair *tp = malloc(T * sizeof *tp), *bp = malloc(G * sizeof *bp);
    if (!tp || !bp) {
        free(tp);
        free(bp);
        return NAN;
    }
    for (uint64_t g = 0; g < T; g++) {
        float su[8][4] = {{0}}, co[8][4] = {{0}};
#define KADD(q, k, xv)                                                                              \
    do {                                                                                            \
        const float y_ = (xv) - co[q][k], t_ = su[q][k] + y_;                                       \
        co[q][k] = (t_ - su[q][k]) - y_;                                                            \
        su[q][k] = t_;                                                                              \
    } while (0)
        if (g < head) KADD(0, 0, x[g]);
        uint64_t st = 0;
        for (uint64_t j = g; j < nv; j += T, st++)
            for (int k = 0; k < 4; k++) KADD(st % A, k, x[head + 4 * j + (uint64_t)k]);
        if (g < n - ts) KADD(0, 0, x[ts + g]);
#undef KADD
        kpair p[8];
        for (uint32_t q = 0; q < A; q++) {
            kpair l[4];
            for (int k = 0; k < 4; k++) l[k] = (kpair){su[q][k], -co[q][k]};
            p[q] = kp_add(kp_add(l[0], l[1]), kp_add(l[2], l[3]));
        }
        for (uint32_t w = A / 2; w >= 1; w /= 2)
            for (uint32_t q = 0; q < w; q++) p[q] = kp_add(p[q], p[q + w]);
        tp[g] = (sl_tw_pair){p[0].s, p[0].e};
    }
    for (uint32_t b = 0; b < G; b++) bp[b] = sl_tw_pair_block(tp + (uint64_t)b * B, B, SL_F32);
    const sl_tw_pair r = sl_tw_pair_finish(bp, G, B, SL_F32);
    free(tp);
    free(bp);
    return (double)((float)r.s + (float)r.e);
}

static void kahan_accumulators(void)
{
    const sl_variant *v = sl_variant_find_op("sum", "kahan");
    /* cancelling pairs over many binades: Kahan's result depends on the order there */
    const sl_dataset *ds = sl_dataset_find("ill-conditioned");
    CHECK(v && ds, "kahan or ill-conditioned missing");
    if (!v || !ds) return;
    const uint64_t n = 50003;   /* 39 steps a thread at block 64 x grid 5: every remainder mod 8 */
    float *x = malloc(n * sizeof *x);
    sl_err err = {{0}};
    CHECK(x && sl_dataset_generate(ds, SL_F32, sl_test_seed(), n, NULL, 0, n, x, &err) == 0, "%s", err.msg);
    if (!x) return;
    static const uint32_t shapes[][2] = {{64, 5}, {96, 3}};   /* block, grid */
    int differ = 0;
    for (size_t sh = 0; sh < 2; sh++)
        for (uint32_t off = 0; off < 16; off += 4) {
            double r1 = NAN;
            for (uint32_t A = 1; A <= 8; A *= 2) {
                sl_launch cfg;
                memset(&cfg, 0, sizeof cfg);
                cfg.block = shapes[sh][0];
                cfg.grid = shapes[sh][1];
                cfg.accs = A;
                cfg.addr_mod = off;
                sl_variant_resolve(v, &cfg, n, SL_F32);
                CHECK(cfg.block == shapes[sh][0] && cfg.grid == shapes[sh][1] && cfg.accs == A,
                      "kahan resolved block %u grid %u accs %u", cfg.block, cfg.grid, cfg.accs);
                double r = NAN;
                CHECK(sl_variant_cpu(v, x, n, SL_F32, &cfg, &r, &err) == 0, "kahan A=%u: %s", A, err.msg);
                const double m = kahan_model(x, n, cfg.block, cfg.grid, A, off);
                CHECK(memcmp(&r, &m, sizeof r) == 0, "kahan block %u grid %u accs %u offset %u: twin %a != "
                      "model %a", cfg.block, cfg.grid, A, off, r, m);
                if (A == 1) {
                    r1 = r;
                    sl_launch c0 = cfg;
                    c0.accs = 0;
                    double d = NAN;
                    CHECK(sl_variant_cpu(v, x, n, SL_F32, &c0, &d, &err) == 0 && memcmp(&d, &r, sizeof d) == 0,
                          "kahan accs 0 (%a) is not accs 1 (%a)", d, r);
                } else {
                    differ += memcmp(&r, &r1, sizeof r) != 0;
                    sl_launch c1 = cfg;
                    c1.accs = A / 2;
                    CHECK(sl_variant_depth(v, n, SL_F32, &cfg) < sl_variant_depth(v, n, SL_F32, &c1),
                          "kahan depth with %u accumulators (%g) not below %u's (%g)", A,
                          sl_variant_depth(v, n, SL_F32, &cfg), A / 2, sl_variant_depth(v, n, SL_F32, &c1));
                }
            }
        }
    CHECK(differ > 0, "kahan: no accumulator count changed the bits: the order did not change");
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.accs = 3;
    sl_variant_resolve(v, &cfg, n, SL_F32);
    double r;
    err.msg[0] = 0;
    CHECK(sl_variant_cpu(v, x, n, SL_F32, &cfg, &r, &err) == -1 &&
              strstr(err.msg, "kahan: accumulators 3 not in {1, 2, 4, 8}"), "kahan accs 3: '%s'", err.msg);
#ifndef SUMLAB_HAVE_CUDA
    /* no kernel to ask in a build without CUDA: a message, not attributes */
    int regs, blocks;
    double occ;
    err.msg[0] = 0;
    CHECK(sl_accuracy_kernel_attrs(v, n, SL_F32, &cfg, &regs, &blocks, &occ, &err) == -1 &&
              strstr(err.msg, "kahan: no kernel attributes"),
          "kahan attributes without CUDA: '%s'", err.msg);
#endif
    /* the other members of the engine take one set whatever accs says */
    static const char *const one[] = {"fp64-acc", "atomic-block"};
    for (size_t k = 0; k < 2; k++) {
        const sl_variant *w = sl_variant_find_op("sum", one[k]);
        CHECK(w != NULL, "%s missing", one[k]);
        if (!w) continue;
        sl_launch c0, c8;
        memset(&c0, 0, sizeof c0);
        sl_variant_resolve(w, &c0, n, SL_F32);
        c8 = c0;
        c8.accs = 8;
        double d0 = NAN, d8 = NAN;
        CHECK(sl_variant_cpu(w, x, n, SL_F32, &c0, &d0, &err) == 0 && sl_variant_cpu(w, x, n, SL_F32, &c8, &d8, &err) == 0 &&
                  memcmp(&d0, &d8, sizeof d0) == 0, "%s: accs 8 (%a) changed its bits (%a)", one[k], d8, d0);
    }
    free(x);
}

/* Every swept point of kahan (accumulators included), at the H200's grids and at grids of many
 * waves, on the data built against summation (ill-conditioned, absorption, cancellation), in
 * every format kahan takes, at n not a multiple of the vector width: the error lies within the
 * bound of that configuration's tree (depth with its accumulators). */
static void kahan_adversarial(void)
{
    const sl_variant *v = sl_variant_find_op("sum", "kahan");
    CHECK(v != NULL, "kahan missing");
    if (!v) return;
    static const char *const dsn[] = {"ill-conditioned", "absorption", "cancellation"};
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    static const uint32_t sms[] = {132, 4};
    const uint64_t n = 20011;
    sl_lc_point pts[MAXP];
    long judged = 0, accs_judged = 0;
    for (size_t d = 0; d < sizeof dsn / sizeof dsn[0]; d++) {
        const sl_dataset *ds = sl_dataset_find(dsn[d]);
        CHECK(ds != NULL, "dataset %s missing", dsn[d]);
        if (!ds) continue;
        for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++) {
            const sl_dtype dt = dts[t];
            CHECK(v->dtypes & SL_DTYPE_MASK(dt), "kahan does not take %s", sl_dtype_name(dt));
            void *x = malloc(n * sl_dtype_size(dt));
            sl_err err = {{0}};
            sl_params par;
            sl_params_defaults(ds, &par);
            /* float16 reaches a condition number of 1e3 at this n (its default 1e16 needs 3e17) */
            if (dt == SL_F16 && !strcmp(dsn[d], "ill-conditioned") && sl_params_set(ds, &par, "cond=1e3", &err))
                CHECK(0, "cond=1e3 refused: %s", err.msg);
            if (!x || sl_dataset_generate(ds, dt, sl_test_seed() + 7 * d, n, &par, 0, n, x, &err)) {
                CHECK(0, "%s %s not generated: %s", dsn[d], sl_dtype_name(dt), err.msg);
                free(x);
                continue;
            }
            sl_reference ref[2];
            int have[2];
            for (int tl = 0; tl < 2; tl++) {
                have[tl] = sl_reference_compute(&ref[tl], x, tl ? n - 1 : n, dt, &err) == 0;
                CHECK(have[tl], "reference failed: %s", err.msg);
            }
            for (size_t s = 0; s < 2; s++) {
                size_t np = sl_lc_points("kahan", sms[s], pts, MAXP);
                if (np > MAXP) np = MAXP;
                for (size_t i = 0; i < np; i++) {
                    /* offsets that are no multiple of the element size: not swept (lc_walk) */
                    if (!have[pts[i].tail] || pts[i].offset % sl_dtype_size(dt)) continue;
                    double r;
                    const long before = points_checked;
                    check_point(v, &pts[i], x, pts[i].tail ? n - 1 : n, dt, &ref[pts[i].tail], dsn[d], &r);
                    judged += points_checked > before;
                    accs_judged += points_checked > before && pts[i].accs > 1;
                }
            }
            for (int tl = 0; tl < 2; tl++)
                if (have[tl]) sl_reference_clear(&ref[tl]);
            free(x);
        }
    }
    /* 3 datasets x 4 formats x 2 grids, 12 points with 2..8 accumulators each */
    CHECK(accs_judged == 3 * 4 * 2 * 12, "kahan: %ld points with accumulators judged", accs_judged);
    printf("tlaunch: kahan on adversarial data: %ld points judged (%ld with 2..8 accumulators)\n", judged,
           accs_judged);
}

int main(void)
{
    sl_test_seed();
    sweeps_present();
    invalid_requests();
    labels_and_registration();
    grid_stride_accumulators();
    vec4_width_accumulators();
    kahan_accumulators();
    kahan_adversarial();
    sweep_twins();
    for (size_t vi = 0; sl_lc_variant_name(vi); vi++) {
        const sl_variant *v = sl_variant_find_op("sum", sl_lc_variant_name(vi));
        if (v && v->determinism < SL_DET_CONFIG_INDEPENDENT)
            CHECK(tree_varies[vi], "%s: the same bits at every launch configuration of every input: "
                  "the sweep does not change its summation tree", v->name);
    }
    printf("tlaunch: %ld twin points judged\n", points_checked);
    CHECK(points_checked > 2000, "only %ld points judged", points_checked);
    return sl_test_done("tlaunch");
}

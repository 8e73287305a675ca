/* exp_launch.c: the `launch-config` experiment (opt-in: `sumlab run launch-config`, never part
 * of `all`): the first text's tuning claims measured. For the rungs and variants that take launch
 * parameters it sweeps block size, grid size, items per thread, accumulators per thread, load
 * width (vec4: scalar, 8-byte, 16-byte loads) and input alignment (base offset 0, 4, 8, 12
 * bytes; n not a multiple of the vector width), at
 * 2^20, 2^24, 2^28 on the GPU (smaller on the CPU backend), float32 and bfloat16. Each point is
 * one results.csv row (its request in `config`, the resolved block, grid and items in their
 * columns): time and GB/s on the GPU, and everywhere the error against the exact sum beside the
 * a-priori bound of that configuration's tree (the twins give it on the CPU backend). CUB and
 * the streaming-read kernel are measured on the same input (GPU); launch.csv (sl_lc_write_csv)
 * gathers every point with its ratios for the charts and the report. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"
#include "ladder/ladder.h"
#include "accuracy/accuracy.h"

/* The variants swept, and what each takes (kinds decide the sweeps of sl_lc_points). */
typedef enum {
    LC_TILE = 0,    /* one tile per block, the grid follows n: block sweep */
    LC_MULTI,       /* tile with items per thread (multi-load): block and items sweeps */
    LC_PERSISTENT,  /* requested grid: block sweep, block x grid map, alignment */
    LC_VEC_ACC,     /* vec4: persistent, plus accumulators x block, items x accumulators, load
                       width x alignment */
    LC_GS_ITEMS,    /* kahan: persistent (blocks multiples of 32), items size its default grid;
                       accumulators x block */
    LC_FIXED_BLOCK  /* multipass: the block is part of the algorithm; grid and alignment only */
} lc_kind;

typedef struct {
    const char *name;
    lc_kind kind;
    int vector;        /* 16-byte loads (the alignment sweep's subjects; the others for contrast) */
    int accs;          /* takes independent accumulators per thread (1, 2, 4, 8) */
} lc_variant;

static const lc_variant lc_vars[] = {
    {"warp-shuffle", LC_TILE, 0, 0},      {"grid-stride", LC_PERSISTENT, 0, 1},
    {"vec4", LC_VEC_ACC, 1, 1},           {"multi-load", LC_MULTI, 0, 0},
    {"packed", LC_PERSISTENT, 1, 0},      {"block-reduce", LC_PERSISTENT, 0, 0},
    {"kahan", LC_GS_ITEMS, 1, 1},         {"multipass", LC_FIXED_BLOCK, 1, 0},
};
#define LC_NVARS (sizeof lc_vars / sizeof lc_vars[0])

const char *sl_lc_variant_name(size_t i) { return i < LC_NVARS ? lc_vars[i].name : NULL; }

static const lc_variant *lc_find(const char *name)
{
    for (size_t i = 0; i < LC_NVARS; i++)
        if (!strcmp(lc_vars[i].name, name)) return &lc_vars[i];
    return NULL;
}

/* Grids of the maps, as multiples of the SM count: one wave of one block per SM up to 64. */
static const uint32_t grid_mult[] = {1, 2, 4, 8, 16, 32, 64};
static const uint32_t map_blocks[] = {64, 128, 256, 512, 1024};
static const uint32_t all_blocks[] = {32, 64, 128, 256, 512, 1024};
static const uint32_t offsets[] = {0, 4, 8, 12};
#define NELEM(a) (sizeof a / sizeof a[0])

static size_t add_point(sl_lc_point *out, size_t k, size_t max, const char *sweep, uint32_t block,
                        uint32_t grid, uint32_t items, uint32_t accs, uint32_t offset, int tail)
{
    if (k < max) out[k] = (sl_lc_point){sweep, block, grid, items, accs, offset, tail, 0};
    return k + 1;
}

/* vec4's load widths: 1 stands for the element size (scalar loads), whatever the format. */
static const uint32_t widths[] = {1, 8, 16};

size_t sl_lc_points(const char *variant, uint32_t sm_count, sl_lc_point *out, size_t max)
{
    const lc_variant *lv = lc_find(variant);
    if (!lv) return 0;
    const uint32_t sm = sm_count ? sm_count : SL_DEFAULT_SM_COUNT;
    size_t k = 0;
    /* block: 32 .. 1024 at the variant's own grid and items (multipass: its one block) */
    if (lv->kind != LC_FIXED_BLOCK)
        for (size_t b = 0; b < NELEM(all_blocks); b++)
            k = add_point(out, k, max, "block", all_blocks[b], 0, 0, 0, 0, 0);
    /* block x grid: one wave (a block per SM) to 64 blocks per SM */
    if (lv->kind == LC_PERSISTENT || lv->kind == LC_VEC_ACC || lv->kind == LC_GS_ITEMS)
        for (size_t b = 0; b < NELEM(map_blocks); b++)
            for (size_t g = 0; g < NELEM(grid_mult); g++)
                k = add_point(out, k, max, "grid", map_blocks[b], grid_mult[g] * sm, 0, 0, 0, 0);
    if (lv->kind == LC_FIXED_BLOCK) {
        k = add_point(out, k, max, "grid", 0, 0, 0, 0, 0, 0);
        for (size_t g = 0; g < 4; g++) k = add_point(out, k, max, "grid", 0, grid_mult[g] * sm, 0, 0, 0, 0);
    }
    /* items per thread (multi-load: elements strided by the block, 1 .. 64) */
    if (lv->kind == LC_MULTI)
        for (uint32_t i = 1; i <= 64; i *= 2)
            for (size_t b = 1; b < NELEM(map_blocks); b++)
                k = add_point(out, k, max, "items", map_blocks[b], 0, i, 0, 0, 0);
    /* kahan: vectors per thread that size its default grid */
    if (lv->kind == LC_GS_ITEMS)
        for (uint32_t i = 1; i <= 8; i *= 2) k = add_point(out, k, max, "items", 256, 0, i, 0, 0, 0);
    /* vec4, grid-stride, kahan: independent accumulators per thread x block (vec4 at 8 loads a
     * step, so only the accumulators change; kahan: sets of per-lane Kahan accumulators) */
    if (lv->accs)
        for (uint32_t a = 1; a <= 8; a *= 2)
            for (size_t b = 1; b < NELEM(map_blocks); b++)
                k = add_point(out, k, max, "accumulators", map_blocks[b], 0,
                              lv->kind == LC_VEC_ACC ? 8 : 0, a, 0, 0);
    /* vec4: loads a step x accumulators (at most one per load), its own block and grid */
    if (lv->kind == LC_VEC_ACC)
        for (uint32_t i = 1; i <= 8; i *= 2)
            for (uint32_t a = 1; a <= i; a *= 2) k = add_point(out, k, max, "items", 0, 0, i, a, 0, 0);
    /* alignment: base offset 0, 4, 8, 12 bytes; n - 1 elements (not a multiple of the width) */
    if (lv->kind != LC_TILE && lv->kind != LC_MULTI)
        for (size_t o = 0; o < NELEM(offsets); o++)
            for (int t = 0; t < 2; t++) k = add_point(out, k, max, "align", 0, 0, 0, 0, offsets[o], t);
    /* vec4: load width (scalar, 8, 16 bytes) x the same alignments, its own launch otherwise */
    if (lv->kind == LC_VEC_ACC)
        for (size_t w = 0; w < NELEM(widths); w++)
            for (size_t o = 0; o < NELEM(offsets); o++)
                for (int t = 0; t < 2; t++) {
                    const size_t k0 = k;
                    k = add_point(out, k, max, "width", 0, 0, 0, 0, offsets[o], t);
                    if (k0 < max) out[k0].width = widths[w];
                }
    return k;
}

void sl_lc_label(const sl_lc_point *p, char *buf, size_t len)
{
    int m = snprintf(buf, len, "lc:%s:b%u:g%u:i%u:a%u:o%u:t%d", p->sweep, p->block, p->grid, p->items,
                     p->accs, p->offset, p->tail);
    if (p->width && m >= 0 && (size_t)m < len) snprintf(buf + m, len - (size_t)m, ":w%u", p->width);
}

/* One ":KDIGITS" field of a label at *c: decimal digits below 2^32, no sign or space, as
 * sl_lc_label writes them (a label read back from results.csv may be damaged: sscanf's %u of
 * 99999999999 would be undefined behaviour). 0 with *c past it, or -1. */
static int label_field(const char **c, char key, uint32_t *out)
{
    const char *q = *c;
    if (q[0] != ':' || q[1] != key || q[2] < '0' || q[2] > '9') return -1;
    uint64_t v = 0;
    for (q += 2; *q >= '0' && *q <= '9'; q++)
        if ((v = v * 10 + (uint64_t)(*q - '0')) > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    *c = q;
    return 0;
}

int sl_lc_parse_label(const char *s, sl_lc_point *p, char *sweep, size_t sweep_len)
{
    char sw[32];
    uint32_t b, g, i, a, o, t, w = 0;
    if (strncmp(s, "lc:", 3)) return -1;
    const char *c = strchr(s + 3, ':');
    if (!c || (size_t)(c - (s + 3)) >= sizeof sw || (size_t)(c - (s + 3)) >= sweep_len) return -1;
    memcpy(sw, s + 3, (size_t)(c - (s + 3)));
    sw[c - (s + 3)] = '\0';
    if (label_field(&c, 'b', &b) || label_field(&c, 'g', &g) || label_field(&c, 'i', &i) ||
        label_field(&c, 'a', &a) || label_field(&c, 'o', &o) || label_field(&c, 't', &t) || t > 1)
        return -1;
    if (*c && (label_field(&c, 'w', &w) || *c || !w)) return -1;   /* a width, or nothing */
    snprintf(sweep, sweep_len, "%s", sw);
    *p = (sl_lc_point){sweep, b, g, i, a, o, (int)t, w};
    return 0;
}

int sl_lc_point_check(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_lc_point *p,
                      sl_err *err)
{
    const lc_variant *lv = lc_find(v->name);
    const char *nm = v->name;
    if (!lv) return sl_err_set(err, "%s: not a variant of the launch-config experiment", nm);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", nm, sl_dtype_name(dt));
    const uint32_t b = p->block;
    if (lv->kind == LC_FIXED_BLOCK) {
        if (b != 0 && b != 256)
            return sl_err_set(err, "%s: block %u requested; its block is part of the algorithm "
                                   "(256 threads)", nm, b);
    } else if (b != 0) {
        if (b < 32 || b > 1024)
            return sl_err_set(err, "%s: block %u out of range [32, 1024]", nm, b);
        if (lv->kind == LC_GS_ITEMS ? (b % 32) != 0 : (b & (b - 1)) != 0)
            return sl_err_set(err, "%s: block %u is not %s", nm, b,
                              lv->kind == LC_GS_ITEMS ? "a multiple of 32" : "a power of two");
    }
    if (p->grid != 0 && (lv->kind == LC_TILE || lv->kind == LC_MULTI))
        return sl_err_set(err, "%s: grid %u requested; its grid follows n (one tile per block)",
                          nm, p->grid);
    const uint32_t gmax = lv->kind == LC_GS_ITEMS ? (1u << 20) : 0x7fffffffu;
    if (p->grid > gmax)
        return sl_err_set(err, "%s: grid %u out of range [1, %u]", nm, p->grid, gmax);
    const uint32_t it = p->items;
    if (it != 0) {
        if (lv->kind == LC_MULTI && it > 64)
            return sl_err_set(err, "%s: items %u out of range [1, 64]", nm, it);
        if (lv->kind == LC_GS_ITEMS && it > 64)
            return sl_err_set(err, "%s: items %u out of range [1, 64]", nm, it);
        if (lv->kind == LC_VEC_ACC && it != 1 && it != 2 && it != 4 && it != 8)
            return sl_err_set(err, "%s: items %u not in {1, 2, 4, 8}", nm, it);
        if (lv->kind != LC_MULTI && lv->kind != LC_GS_ITEMS && lv->kind != LC_VEC_ACC)
            return sl_err_set(err, "%s: takes no items per thread (requested %u)", nm, it);
    }
    const uint32_t a = p->accs;
    if (a != 0 && !lv->accs)
        return sl_err_set(err, "%s: takes no accumulators per thread (requested %u)", nm, a);
    if (a != 0 && a != 1 && a != 2 && a != 4 && a != 8)
        return sl_err_set(err, "%s: accumulators %u not in {1, 2, 4, 8}", nm, a);
    if (lv->kind == LC_VEC_ACC && a != 0 && it != 0 && a > it)
        return sl_err_set(err, "%s: accumulators %u more than its items %u (loads a step)", nm, a, it);
    const uint32_t es = (uint32_t)sl_dtype_size(dt);
    if (p->width != 0 && lv->kind != LC_VEC_ACC)
        return sl_err_set(err, "%s: takes no load width (requested %u bytes)", nm, p->width);
    if (p->width != 0 && p->width != 1 && p->width != 8 && p->width != 16)
        return sl_err_set(err, "%s: load width %u not 1 (the %s element size), 8 or 16 bytes", nm,
                          p->width, sl_dtype_name(dt));
    if (p->width > 1 && p->width < es)
        return sl_err_set(err, "%s: load width %u bytes is below the %s element size", nm,
                          p->width, sl_dtype_name(dt));
    if (p->offset >= 16 || p->offset % es)
        return sl_err_set(err, "%s: offset %u bytes is not a multiple of the %s element size "
                               "below 16", nm, p->offset, sl_dtype_name(dt));
    if (p->tail && n < 2)
        return sl_err_set(err, "%s: n = %llu too small for the n - 1 point", nm,
                          (unsigned long long)n);
    return 0;
}

void sl_lc_request(const sl_variant *v, const sl_lc_point *p, uint64_t seed, sl_launch *req, sl_dtype dt)
{
    (void)v;
    memset(req, 0, sizeof *req);
    req->block = p->block;
    req->grid = p->grid;
    req->items = p->items;
    req->accs = p->accs;
    /* width 1 is the element size, which the kernel takes in bytes */
    req->width = p->width == 1 ? (uint32_t)sl_dtype_size(dt) : p->width;
    req->addr_mod = p->offset;
    req->order_seed = seed;
}

/* ---- the walk ----------------------------------------------------------------------------- */
static const sl_dtype lc_dtypes[] = {SL_F32, SL_BF16};

static int lc_ns(const sl_run *run, uint64_t *ns)
{
    uint64_t d[3];
    int k;
    if (run->on_gpu) {
        if (run->preset == SL_PRESET_TINY) { d[0] = (uint64_t)1 << 16; k = 1; }
        else if (run->preset == SL_PRESET_QUICK) { d[0] = (uint64_t)1 << 20; d[1] = (uint64_t)1 << 24; k = 2; }
        else { d[0] = (uint64_t)1 << 20; d[1] = (uint64_t)1 << 24; d[2] = (uint64_t)1 << 28; k = 3; }
    } else {
        if (run->preset == SL_PRESET_TINY) { d[0] = (uint64_t)1 << 12; k = 1; }
        else if (run->preset == SL_PRESET_QUICK) { d[0] = (uint64_t)1 << 16; k = 1; }
        else { d[0] = (uint64_t)1 << 16; d[1] = (uint64_t)1 << 18; k = 2; }
    }
    return sl_exp_ns(run, d, k, ns, SL_SWEEP_MAX);
}

#define LC_MAX_POINTS 128

/* The resource use of a ladder rung's or kahan's kernel at a measured point (registers per
 * thread, resident blocks per SM, theoretical occupancy), appended to DIR/launch_attrs.csv
 * (variant, dtype, n, config: the key of its results.csv row); launch.csv joins it. A kernel whose
 * attributes cannot be read leaves a note; multipass has no such entry yet. */
static void lc_attrs_row(sl_run *run, const sl_rowctx *c, const sl_variant *v, const sl_launch *cfg)
{
    const int ladder = !strcmp(v->family, "ladder");
    if (!ladder && strcmp(v->name, "kahan")) return;
    sl_kernel_attrs a;
    sl_err e = {{0}};
    if (ladder ? sl_ladder_kernel_attrs(v, c->n, c->dt, cfg, &a, &e)
               : sl_accuracy_kernel_attrs(v, c->n, c->dt, cfg, &a.regs, &a.blocks_per_sm, &a.occupancy, &e)) {
        sl_notes_add(&run->notes, "launch-config: %s", e.msg);
        return;
    }
    char path[sizeof run->dir + 32];
    snprintf(path, sizeof path, "%s/launch_attrs.csv", run->dir);
    FILE *f = fopen(path, "a");
    if (!f) {
        sl_notes_add(&run->notes, "launch-config: %s not written: %s", path, strerror(errno));
        return;
    }
    if (ftell(f) == 0) fputs("variant,dtype,n,config,regs,blocks_per_sm,occupancy\n", f);
    fprintf(f, "%s,%s,%llu,%s,%d,%d,%.4f\n", v->name, sl_dtype_name(c->dt), (unsigned long long)c->n,
            c->config, a.regs, a.blocks_per_sm, a.occupancy);
    if (fclose(f) != 0) sl_notes_add(&run->notes, "launch-config: %s: write failed", path);
}

/* One (variant, point) row on session s (context c), unless results.csv has it. */
static int lc_row(sl_run *run, sl_session *s, const sl_rowctx *c, const sl_variant *v,
                  const sl_launch *req, int reps, sl_err *err)
{
    if (sl_study_has(run, c, v->name) || sl_run_stopped(run)) return 0;
    sl_row row;
    int status = 0;
    sl_err e = {{0}};
    const uint64_t twin_max = run->twin_check_max_n ? run->twin_check_max_n : ((uint64_t)1 << 22);
    const int check = run->on_gpu && c->n <= twin_max;
    const double t0 = sl_now_s();
    sl_measure_list(s, &v, 1, req, &reps, check, &run->sweep_budget, &row, &status, &e);
    run->phases.measure += sl_now_s() - t0;
    if (status < 0) {
        sl_row_free(&row);
        return sl_err_set(err, "launch-config: %s %s n=%llu %s: %s", v->name, sl_dtype_name(c->dt),
                          (unsigned long long)c->n, c->config, e.msg);
    }
    const char *note = status == 1 ? e.msg
                       : (row.twin_checked && !row.twin_match) ? "GPU result differs from its CPU twin" : "";
    sl_record r = sl_study_record(run, c, v, status == 1 ? "skipped" : "ok", &row, note);
    int rc = sl_study_write(run, &r, 0, err);
    if (!rc && status == 0 && !strcmp(row.backend, "gpu")) lc_attrs_row(run, c, v, &row.cfg);
    sl_row_free(&row);
    return rc;
}

/* Every point of every variant at one (offset, tail) on x (n values of dt). */
static int lc_session(sl_run *run, sl_rowctx *c, const void *x, uint64_t n, uint32_t offset,
                      int tail, const sl_reference *ref, int reps, sl_err *err)
{
    const sl_dtype dt = c->dt;
    const uint64_t m = tail ? n - 1 : n;
    c->n = m;
    /* what this session still has to do */
    size_t left = 0;
    char label[96];
    sl_lc_point pts[LC_MAX_POINTS];
    for (size_t i = 0; i < LC_NVARS; i++) {
        const sl_variant *v = sl_variant_find_op("sum", lc_vars[i].name);
        if (!v || !sl_exp_variant_on(run, v) || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        size_t np = sl_lc_points(v->name, run->gpu_sm_count, pts, LC_MAX_POINTS);
        if (np > LC_MAX_POINTS) np = LC_MAX_POINTS;
        for (size_t k = 0; k < np; k++) {
            if (pts[k].offset != offset || pts[k].tail != tail) continue;
            sl_lc_label(&pts[k], label, sizeof label);
            c->config = label;
            left += !sl_study_has(run, c, v->name);
        }
    }
    const int anchors = run->on_gpu && offset == 0 && !tail;
    if (anchors) {
        c->config = "lc:anchor";
        const sl_variant *cub = sl_variant_find_op("sum", "cub");
        left += (cub && cub->gpu && !sl_study_has(run, c, "cub")) + !sl_study_has(run, c, "read-ceiling");
    }
    if (!left) return 0;
    if (sl_study_flush(run, err)) return -1;
    const uint32_t es = (uint32_t)sl_dtype_size(dt);
    sl_session *s = NULL;
    sl_session_opts o = {run->backend, offset / es, run->threads ? run->threads : 1,
                         tail ? NULL : ref, 1, run->op, &run->params, NULL};
    const double t0 = sl_now_s();
    if (sl_session_open_opts(&s, x, m, dt, &o, NULL, 0, err)) return -1;
    if (tail) run->phases.reference += sl_now_s() - t0;
    int rc = 0;
    for (size_t i = 0; i < LC_NVARS && !rc; i++) {
        const sl_variant *v = sl_variant_find_op("sum", lc_vars[i].name);
        if (!v || !sl_exp_variant_on(run, v) || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        size_t np = sl_lc_points(v->name, run->gpu_sm_count, pts, LC_MAX_POINTS);
        if (np > LC_MAX_POINTS) np = LC_MAX_POINTS;
        for (size_t k = 0; k < np && !rc && !sl_run_stopped(run); k++) {
            if (pts[k].offset != offset || pts[k].tail != tail) continue;
            if (sl_lc_point_check(v, m, dt, &pts[k], err)) { rc = -1; break; }
            sl_lc_label(&pts[k], label, sizeof label);
            c->config = label;
            sl_launch req;
            sl_lc_request(v, &pts[k], run->seed, &req, dt);
            rc = lc_row(run, s, c, v, &req, reps, err);
        }
    }
    if (!rc && anchors) {
        c->config = "lc:anchor";
        const sl_variant *cub = sl_variant_find_op("sum", "cub");
        sl_launch req;
        memset(&req, 0, sizeof req);
        if (cub && cub->gpu) rc = lc_row(run, s, c, cub, &req, reps, err);
    }
    sl_session_close(s);
    if (!rc && anchors) rc = sl_exp_ceiling_row(run, c, x, reps, err);
    c->n = n;
    return rc;
}

static int lc_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    /* the swept variants are sums: another operation (or a --variants list without them) has
     * nothing to sweep */
    int any = 0;
    for (size_t i = 0; i < LC_NVARS && !any; i++) {
        const sl_variant *v = sl_variant_find_op("sum", lc_vars[i].name);
        any = v && sl_exp_variant_on(run, v);
    }
    if (!any) {
        if (exec)
            sl_notes_add(&run->notes, "launch-config skipped: it sweeps the sum's rungs and variants (warp-shuffle, "
                         "grid-stride, vec4, multi-load, packed, block-reduce, kahan, multipass), and this run "
                         "(--op %s%s) has none of them", (run->op ? run->op : sl_op_default())->name,
                         run->sweep.nv ? ", --variants" : "");
        return 0;
    }
    const sl_dataset *ds = run->sweep.nds ? run->sweep.ds[0] : sl_dataset_find("uniform");
    if (!ds) return exec ? sl_err_set(err, "launch-config: no dataset 'uniform'") : 0;
    sl_params p;
    sl_params_defaults(ds, &p);
    sl_exp_user_params(run, ds, &p);
    uint64_t ns[SL_SWEEP_MAX];
    const int nn = lc_ns(run, ns);
    const int reps = run->on_gpu ? sl_exp_reps(run, run->preset == SL_PRESET_FULL ? 10 : 5) : sl_exp_reps(run, 1);
    if (exec && sl_exp_instances(run) > 1)
        sl_notes_add(&run->notes, "launch-config: one input per point (instance 0, seed %llu); --seeds %d "
                     "does not apply to it", (unsigned long long)run->seed, sl_exp_instances(run));
    for (size_t t = 0; t < NELEM(lc_dtypes); t++) {
        const sl_dtype dt = lc_dtypes[t];
        if (run->sweep.dtypes && !sl_exp_dtype_on(run, dt)) continue;
        for (int k = 0; k < nn; k++) {
            const uint64_t n = ns[k];
            /* some 300 rows of one input: a step of ~ 300 / variants' work units of n */
            const double w = sl_exp_work(n, reps) * 300.0 / (double)sl_variant_count() *
                             sl_exp_gpu_weight(run, "launch-config");
            if (!exec) { *work += w; run->plan_steps += 1; continue; }
            if (sl_run_stopped(run)) return 0;
            char what[160];
            snprintf(what, sizeof what, "launch-config %s %s n=%llu", ds->name, sl_dtype_name(dt),
                     (unsigned long long)n);
            sl_progress_step(run->prog, what, w);
            sl_rowctx c = {.op = run->op, .experiment = "launch-config", .ds = ds, .dt = dt, .n = n,
                           .config = "lc:anchor", .sweep = "n", .sweep_value = NAN};
            sl_rowctx_params(&c, ds, &p);
            sl_err ge = {{0}};
            void *x = sl_exp_generate(run, ds, &p, dt, n, &ge);
            if (!x) {
                sl_notes_add(&run->notes, "launch-config: %s %s n=%llu not generated: %s", ds->name,
                             sl_dtype_name(dt), (unsigned long long)n, ge.msg);
                sl_progress_done(run->prog);
                continue;
            }
            sl_reference ref;
            int rc = sl_exp_reference(run, &c, x, &ref, err);
            const int have_ref = !rc;
            for (size_t o = 0; o < NELEM(offsets) && !rc; o++)
                for (int tl = 0; tl < 2 && !rc; tl++) {
                    if (offsets[o] % sl_dtype_size(dt)) continue;
                    rc = lc_session(run, &c, x, n, offsets[o], tl, &ref, reps, err);
                }
            if (have_ref) sl_reference_clear(&ref);
            sl_hostbuf_put(run, x);
            sl_progress_done(run->prog);
            if (rc) return -1;
        }
    }
    return 0;
}

double sl_exp_launch_plan(sl_run *run)
{
    double w = 0;
    lc_walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_launch(sl_run *run, sl_err *err) { return lc_walk(run, 1, NULL, err); }

/* ---- launch.csv ---------------------------------------------------------------------------- */
/* Accumulators per thread of a point: vec4's accs (its items when not requested), grid-stride's
 * and kahan's accs (1 when not requested; kahan's are sets of one Kahan accumulator per element
 * of a vector); the per-lane accumulators of the other 16-byte loaders (packed, multipass: one
 * per element of a vector); 1 for the scalar ones. */
static unsigned lc_accumulators(const char *variant, sl_dtype dt, unsigned items, unsigned accs)
{
    const lc_variant *lv = lc_find(variant);
    if (!lv) return 0;
    if (lv->kind == LC_VEC_ACC) return accs ? accs : items;
    if (lv->accs) return accs ? accs : 1u;
    return lv->vector ? (unsigned)(16 / sl_dtype_size(dt)) : 1u;
}

/* Bytes per load: a vec4 point's width (1: the element size; 0: 16), 16 for the other vector
 * loaders, the element size for the scalar ones. */
static unsigned lc_load_width(const char *variant, sl_dtype dt, unsigned width)
{
    const lc_variant *lv = lc_find(variant);
    if (lv && lv->kind == LC_VEC_ACC && width) return width == 1 ? (unsigned)sl_dtype_size(dt) : width;
    return lv && lv->vector ? 16u : (unsigned)sl_dtype_size(dt);
}

/* The anchor row (cub or read-ceiling) of dtype and n, or -1. */
static int lc_anchor(const sl_csv *t, const char *dtype, const char *n, const char *variant, int cexp,
                     int cdt, int cn, int cvar, int ccfg, int cstat)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (!strcmp(sl_csv_get(t, r, cexp), "launch-config") && !strcmp(sl_csv_get(t, r, cdt), dtype) &&
            !strcmp(sl_csv_get(t, r, cn), n) && !strcmp(sl_csv_get(t, r, cvar), variant) &&
            !strcmp(sl_csv_get(t, r, ccfg), "lc:anchor") && !strcmp(sl_csv_get(t, r, cstat), "ok"))
            return (int)r;
    return -1;
}

int sl_lc_write_csv(const char *dir, sl_err *err)
{
    char path[1100], tmp[1110];
    if (snprintf(path, sizeof path, "%s/results.csv", dir) >= (int)sizeof path)
        return sl_err_set(err, "launch-config: run directory name too long");
    sl_csv t;
    if (sl_csv_read(path, &t, NULL, err)) return -1;
    const int cexp = sl_csv_col(&t, "experiment"), cdt = sl_csv_col(&t, "dtype"),
              cn = sl_csv_col(&t, "n"), cvar = sl_csv_col(&t, "variant"),
              ccfg = sl_csv_col(&t, "config"), cstat = sl_csv_col(&t, "status"),
              cb = sl_csv_col(&t, "block"), cg = sl_csv_col(&t, "grid"), ci = sl_csv_col(&t, "items"),
              cms = sl_csv_col(&t, "time_ms_median"), cgb = sl_csv_col(&t, "gbps"),
              cbe = sl_csv_col(&t, "backend"), cae = sl_csv_col(&t, "abs_err"),
              cre = sl_csv_col(&t, "rel_err"), cul = sl_csv_col(&t, "ulps"),
              cba = sl_csv_col(&t, "bound_abs"), cbr = sl_csv_col(&t, "bound_ratio"),
              ctw = sl_csv_col(&t, "twin_match");
    size_t nl = 0;
    for (size_t r = 0; cexp >= 0 && r < t.nrows; r++) nl += !strcmp(sl_csv_get(&t, r, cexp), "launch-config");
    if (!nl || cdt < 0 || cn < 0 || cvar < 0 || ccfg < 0 || cstat < 0) {
        sl_csv_free(&t);
        return 0;
    }
    /* the kernels' resource use measured beside the rows (GPU backend, ladder rungs) */
    sl_csv at;
    int have_at = 0;
    snprintf(path, sizeof path, "%s/launch_attrs.csv", dir);
    FILE *probe = fopen(path, "r");
    if (probe) {
        fclose(probe);
        sl_err ae = {{0}};
        have_at = sl_csv_read(path, &at, NULL, &ae) == 0;
    }
    const int av = have_at ? sl_csv_col(&at, "variant") : -1, ad = have_at ? sl_csv_col(&at, "dtype") : -1,
              an = have_at ? sl_csv_col(&at, "n") : -1, ac = have_at ? sl_csv_col(&at, "config") : -1,
              ar = have_at ? sl_csv_col(&at, "regs") : -1, ab = have_at ? sl_csv_col(&at, "blocks_per_sm") : -1,
              ao = have_at ? sl_csv_col(&at, "occupancy") : -1;
    snprintf(path, sizeof path, "%s/launch.csv", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        sl_csv_free(&t);
        if (have_at) sl_csv_free(&at);
        return sl_err_set(err, "%s: cannot write: %s", tmp, strerror(errno));
    }
    fprintf(f, "variant,dtype,n,backend,sweep,block_req,grid_req,block,grid,items,accumulators,"
               "load_width,offset,tail,time_ms,gbps,ratio_cub,ratio_read,abs_err,rel_err,ulps,"
               "bound_abs,bound_ratio,twin_match,regs,blocks_per_sm,occupancy\n");
    for (size_t r = 0; r < t.nrows; r++) {
        if (strcmp(sl_csv_get(&t, r, cexp), "launch-config") || strcmp(sl_csv_get(&t, r, cstat), "ok")) continue;
        sl_lc_point p;
        char sweep[32];
        if (sl_lc_parse_label(sl_csv_get(&t, r, ccfg), &p, sweep, sizeof sweep)) continue;
        const char *var = sl_csv_get(&t, r, cvar), *dts = sl_csv_get(&t, r, cdt);
        sl_dtype dt;
        if (sl_dtype_parse(dts, &dt)) continue;
        /* the anchors were measured on the aligned input of n (n + 1 for a tail point) */
        char nbuf[32];
        const unsigned long long n = strtoull(sl_csv_get(&t, r, cn), NULL, 10);
        snprintf(nbuf, sizeof nbuf, "%llu", p.tail ? n + 1 : n);
        const int rcub = lc_anchor(&t, dts, nbuf, "cub", cexp, cdt, cn, cvar, ccfg, cstat);
        const int rrd = lc_anchor(&t, dts, nbuf, "read-ceiling", cexp, cdt, cn, cvar, ccfg, cstat);
        const double ms = sl_csv_num(&t, r, cms);
        const double rc = rcub >= 0 ? sl_csv_num(&t, (size_t)rcub, cms) / ms : NAN;
        const double rr = rrd >= 0 ? sl_csv_num(&t, (size_t)rrd, cms) / ms : NAN;
        /* items: a count (the data check admits up to 2^53, an edited file anything): 0 where it
         * is none an unsigned holds, so the conversion stays defined */
        const double iv = sl_csv_num(&t, r, ci);
        const unsigned items = iv >= 0 && iv <= (double)UINT_MAX ? (unsigned)iv : 0u;
        fprintf(f, "%s,%s,%llu,%s,%s,%u,%u,%s,%s,%s,%u,%u,%u,%d,%s,%s,", var, dts, n,
                sl_csv_get(&t, r, cbe), sweep, p.block, p.grid, sl_csv_get(&t, r, cb),
                sl_csv_get(&t, r, cg), sl_csv_get(&t, r, ci), lc_accumulators(var, dt, items, p.accs),
                lc_load_width(var, dt, p.width), p.offset, p.tail, sl_csv_get(&t, r, cms), sl_csv_get(&t, r, cgb));
        if (isnan(rc)) fputs(",", f); else fprintf(f, "%.4f,", rc);
        if (isnan(rr)) fputs(",", f); else fprintf(f, "%.4f,", rr);
        fprintf(f, "%s,%s,%s,%s,%s,%s,", sl_csv_get(&t, r, cae), sl_csv_get(&t, r, cre),
                sl_csv_get(&t, r, cul), sl_csv_get(&t, r, cba), sl_csv_get(&t, r, cbr),
                sl_csv_get(&t, r, ctw));
        long ka = -1;   /* the last attributes line of this row's key */
        for (size_t q = 0; have_at && q < at.nrows; q++)
            if (!strcmp(sl_csv_get(&at, q, av), var) && !strcmp(sl_csv_get(&at, q, ad), dts) &&
                strtoull(sl_csv_get(&at, q, an), NULL, 10) == n && !strcmp(sl_csv_get(&at, q, ac), sl_csv_get(&t, r, ccfg)))
                ka = (long)q;
        if (ka >= 0) {
            const double regs = sl_csv_num(&at, (size_t)ka, ar), nb = sl_csv_num(&at, (size_t)ka, ab),
                         oc = sl_csv_num(&at, (size_t)ka, ao);
            if (isnan(regs) || isnan(nb) || isnan(oc)) fputs(",,\n", f);
            else fprintf(f, "%.0f,%.0f,%.4f\n", regs, nb, oc);
        } else {
            fputs(",,\n", f);
        }
    }
    sl_csv_free(&t);
    if (have_at) sl_csv_free(&at);
    int bad = ferror(f) != 0;
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return sl_err_set(err, "%s: write failed: %s", path, strerror(e ? e : EIO));
    }
    return 0;
}

/* exp_ladder.c: both source texts' optimisation ladders, rung for rung, on the GPU: every rung's
 * time, GB/s, fraction of the read ceiling and speedup over its ladder's first rung, at 2^25
 * float32 with 256 threads per block (the scale such tables are published at) and at 2^28 with
 * each rung's own launch, CUB and the streaming-read kernel in the same run; each rung's result
 * checked against its CPU twin (GPU only: on the CPU backend it is skipped with a note). The
 * texts' rungs and published figures are the table below; the report and ladder.csv (written
 * before the charts are rendered, from results.csv alone) put the measured table beside them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"

/* Text 1 (../seeds, lesson 21): V0-V6, its prediction is an order of gains (each rung faster
 * than the one before, V5/V6 near the DRAM limit), no figures. Text 2 (the PyTorch/OneFlow
 * article): v0-v6 with the speedups and "bandwidth utilisation" it publishes, then OneFlow's
 * packed v8 and PyTorch's BlockReduceSum, for which it gives no figure. */
static const sl_ladder_rung text1[] = {
    {"V0", "atomic-thread", NAN, NAN}, {"V1", "smem-interleaved", NAN, NAN},
    {"V2", "smem-sequential", NAN, NAN}, {"V3", "two-load", NAN, NAN},
    {"V4", "warp-shuffle", NAN, NAN}, {"V5", "grid-stride", NAN, NAN},
    {"V6", "vec4", NAN, NAN},
};
static const sl_ladder_rung text2[] = {
    {"v0", "smem-interleaved", 1.00, 40.97}, {"v1", "smem-strided", 1.56, 90.72},
    {"v2", "smem-sequential", 2.10, 85.79},  {"v3", "two-load", 3.83, 81.72},
    {"v4", "warp-unrolled", 4.46, 43.47},    {"v5", "full-unroll", 4.49, 44.06},
    {"v6", "multi-load", 4.81, 33.83},       {"v8", "packed", NAN, NAN},
    {"PyTorch", "block-reduce", NAN, NAN},
};
static const sl_ladder_text texts[] = {
    /* (each source cited by its title, in the original and in English) */
    {"text 1", "\"第二十一课：从低效 Reduction Kernel 到高性能归约\" "
               "(Lesson 21: from an inefficient reduction kernel to a high-performance reduction): V0-V6", text1,
     sizeof text1 / sizeof text1[0]},
    {"text 2", "\"PyTorch与OneFlow深度解析Reduce算子优化的向量化访存与Warp原语实战\" "
               "(PyTorch and OneFlow in depth: vectorised memory access and warp primitives in reduce operators): "
               "v0-v6, OneFlow v8, PyTorch BlockReduceSum", text2,
     sizeof text2 / sizeof text2[0]},
};

const sl_ladder_text *sl_ladder_texts(size_t *count)
{
    *count = sizeof texts / sizeof texts[0];
    return texts;
}

/* The points of the experiment: n and launch request (block 256 at 2^25, own launch at 2^28;
 * smaller on the quick and tiny presets, which keep the shape of the table). */
typedef struct {
    uint64_t n;
    uint32_t block;
    const char *config;
} ladder_point;

static int ladder_points(const sl_run *run, ladder_point *pt)
{
    const uint64_t a = run->preset == SL_PRESET_FULL ? 25 : run->preset == SL_PRESET_QUICK ? 22 : 16;
    const uint64_t b = run->preset == SL_PRESET_FULL ? 28 : run->preset == SL_PRESET_QUICK ? 24 : 18;
    pt[0] = (ladder_point){(uint64_t)1 << a, 256, "block256"};
    pt[1] = (ladder_point){(uint64_t)1 << b, 0, "default"};
    return 2;
}

/* Whether v is a rung of either text or the CUB anchor. */
int sl_ladder_has(const sl_variant *v)
{
    if (!strcmp(v->name, "cub")) return 1;
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
        for (int k = 0; k < texts[t].nrungs; k++)
            if (!strcmp(texts[t].rungs[k].variant, v->name)) return 1;
    return 0;
}

static int ladder_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    if (!run->on_gpu) {
        if (exec) sl_notes_add(&run->notes, "ladder skipped: the CPU backend has no GPU timings "
                                            "(run on a GPU: `sumlab run ladder --backend gpu`)");
        return 0;
    }
    /* the rungs are sums: an operation without one (lse, dot ...) has no ladder to run */
    const sl_operation *op = run->op ? run->op : sl_op_default();
    int rungs = 0;
    for (size_t i = 0; i < sl_variant_count() && !rungs; i++)
        rungs = sl_op_of(sl_variant_at(i)) == op && sl_ladder_has(sl_variant_at(i));
    if (!rungs) {
        if (exec) sl_notes_add(&run->notes, "ladder skipped: %s has no variant of the source texts' ladders", op->name);
        return 0;
    }
    if (!sl_exp_dtype_on(run, SL_F32)) {   /* the texts' tables are float32's */
        if (exec) sl_notes_add(&run->notes, "ladder skipped: its rungs run on float32, which --dtype does not select");
        return 0;
    }
    const sl_dataset *ds = sl_dataset_find("uniform");
    if (!ds) return exec ? sl_err_set(err, "ladder: no dataset 'uniform'") : 0;
    sl_params p;
    sl_params_defaults(ds, &p);
    ladder_point pt[2];
    const int np = ladder_points(run, pt);
    const int reps = sl_exp_reps(run, run->preset == SL_PRESET_FULL ? 10 : 5);
    const int reps_nondet = sl_exp_reps(run, 3);
    if (exec && sl_exp_instances(run) > 1)
        sl_notes_add(&run->notes, "ladder: one input per point (instance 0, seed %llu); --seeds %d does not "
                     "apply to it", (unsigned long long)run->seed, sl_exp_instances(run));
    for (int k = 0; k < np; k++) {
        double w = sl_exp_work(pt[k].n, reps) / 4 * sl_exp_gpu_weight(run, "ladder");
        if (!exec) { *work += w; run->plan_steps += 1; continue; }
        if (sl_run_stopped(run)) return 0;
        sl_rowctx c = {.op = run->op, .experiment = "ladder", .ds = ds, .dt = SL_F32, .n = pt[k].n,
                       .config = pt[k].config, .sweep = "n", .sweep_value = NAN};
        sl_rowctx_params(&c, ds, &p);
        sl_pending all, todo = {0};
        if (sl_exp_pending(run, &c, &all, err)) return -1;
        for (size_t i = 0; i < all.n; i++)
            if (sl_ladder_has(all.v[i])) todo.v[todo.n++] = all.v[i];
        const int need_ceiling = !sl_study_has(run, &c, "read-ceiling");
        if (!todo.n && !need_ceiling) continue;
        sl_progress_step(run->prog, pt[k].block ? "ladder f32 (block 256)" : "ladder f32 (own launch)", w);
        sl_err ge = {{0}};
        void *x = sl_exp_generate(run, ds, &p, c.dt, c.n, &ge);
        if (!x) return sl_err_set(err, "ladder: %s", ge.msg);
        sl_launch req;
        memset(&req, 0, sizeof req);
        req.block = pt[k].block;
        req.order_seed = run->seed;
        /* every rung checked against its twin, at every size (the table's "twin" column) */
        const uint64_t twin_max = run->twin_check_max_n;
        run->twin_check_max_n = UINT64_MAX;
        int rc = sl_exp_measure(run, &c, &todo, x, NULL, &req, reps, reps_nondet, 0, err);
        run->twin_check_max_n = twin_max;
        if (!rc && need_ceiling) rc = sl_exp_ceiling_row(run, &c, x, reps, err);
        sl_hostbuf_put(run, x);
        sl_progress_done(run->prog);
        if (rc) return -1;
    }
    return 0;
}

double sl_exp_ladder_plan(sl_run *run)
{
    double w = 0;
    ladder_walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_ladder(sl_run *run, sl_err *err) { return ladder_walk(run, 1, NULL, err); }

/* ---- the measured table ------------------------------------------------------------------ */
static int find_row(const sl_csv *t, const char *config, const char *variant, int cexp, int ccfg,
                    int cvar, int cstat)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (!strcmp(sl_csv_get(t, r, cexp), "ladder") && !strcmp(sl_csv_get(t, r, ccfg), config) &&
            !strcmp(sl_csv_get(t, r, cvar), variant) && !strcmp(sl_csv_get(t, r, cstat), "ok"))
            return (int)r;
    return -1;
}

size_t sl_ladder_table(const sl_csv *t, const char *config, sl_ladder_cell *out, size_t max,
                       uint64_t *n_out)
{
    const int cexp = sl_csv_col(t, "experiment"), ccfg = sl_csv_col(t, "config"),
              cvar = sl_csv_col(t, "variant"), cstat = sl_csv_col(t, "status"),
              cms = sl_csv_col(t, "time_ms_median"), cgb = sl_csv_col(t, "gbps"),
              cn = sl_csv_col(t, "n"), ctw = sl_csv_col(t, "twin_match");
    if (cexp < 0 || ccfg < 0 || cvar < 0 || cstat < 0 || cms < 0) return 0;
    const int rc = find_row(t, config, "read-ceiling", cexp, ccfg, cvar, cstat);
    const double ceil_ms = rc >= 0 ? sl_csv_num(t, (size_t)rc, cms) : NAN;
    const int rcub = find_row(t, config, "cub", cexp, ccfg, cvar, cstat);
    const double cub_ms = rcub >= 0 ? sl_csv_num(t, (size_t)rcub, cms) : NAN;
    size_t k = 0;
    *n_out = 0;
    for (size_t ti = 0; ti < sizeof texts / sizeof texts[0]; ti++) {
        double first = NAN;
        for (int j = 0; j < texts[ti].nrungs && k < max; j++) {
            const sl_ladder_rung *g = &texts[ti].rungs[j];
            const int r = find_row(t, config, g->variant, cexp, ccfg, cvar, cstat);
            sl_ladder_cell *e = &out[k++];
            memset(e, 0, sizeof *e);
            e->text = &texts[ti];
            e->rung = g;
            e->ms = r >= 0 ? sl_csv_num(t, (size_t)r, cms) : NAN;
            e->gbps = r >= 0 ? sl_csv_num(t, (size_t)r, cgb) : NAN;
            e->twin_match = r >= 0 ? sl_csv_get(t, (size_t)r, ctw) : "";
            if (j == 0) first = e->ms;
            e->speedup = first / e->ms;
            e->frac_read = ceil_ms / e->ms;
            e->ratio_cub = cub_ms / e->ms;
            if (r >= 0 && !*n_out) *n_out = strtoull(sl_csv_get(t, (size_t)r, cn), NULL, 10);
        }
    }
    return k;
}

int sl_ladder_write_csv(const char *dir, sl_err *err)
{
    char path[1100], tmp[1110];
    if (snprintf(path, sizeof path, "%s/results.csv", dir) >= (int)sizeof path)
        return sl_err_set(err, "ladder: run directory name too long");
    sl_csv t;
    if (sl_csv_read(path, &t, NULL, err)) return -1;
    const int cexp = sl_csv_col(&t, "experiment");
    size_t nl = 0;
    for (size_t r = 0; r < t.nrows; r++) nl += !strcmp(sl_csv_get(&t, r, cexp), "ladder");
    if (!nl) {
        sl_csv_free(&t);
        return 0;
    }
    snprintf(path, sizeof path, "%s/ladder.csv", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        sl_csv_free(&t);
        return sl_err_set(err, "%s: cannot write: %s", tmp, strerror(errno));
    }
    fprintf(f, "config,n,text,rung,variant,time_ms,gbps,frac_read,ratio_cub,speedup,"
               "published_speedup,published_bw_pct,twin_match\n");
    static const char *const configs[] = {"block256", "default"};
    for (int c = 0; c < 2; c++) {
        sl_ladder_cell cell[64];
        uint64_t n = 0;
        size_t m = sl_ladder_table(&t, configs[c], cell, 64, &n);
        for (size_t i = 0; i < m; i++) {
            const sl_ladder_cell *e = &cell[i];
            if (isnan(e->ms)) continue;
            fprintf(f, "%s,%llu,%s,%s,%s,%.6g,%.6g,%.4f,%.4f,%.4f,", configs[c], (unsigned long long)n,
                    e->text->name, e->rung->rung, e->rung->variant, e->ms, e->gbps, e->frac_read,
                    e->ratio_cub, e->speedup);
            if (isnan(e->rung->published_speedup)) fprintf(f, ",,");
            else fprintf(f, "%.2f,%.2f,", e->rung->published_speedup, e->rung->published_bw_pct);
            fprintf(f, "%s\n", e->twin_match);
        }
    }
    sl_csv_free(&t);
    int bad = ferror(f) != 0;
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return sl_err_set(err, "%s: write failed: %s", path, strerror(e));
    }
    return 0;
}

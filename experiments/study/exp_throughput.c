/* exp_throughput.c: how fast? throughput-vs-n times every GPU variant (CUB included, as a
 * registry row) and the device's streaming-read ceiling on the same input in the same
 * process (GPU only: on the CPU backend the twins' wall clock says nothing about a GPU, so it
 * is skipped with a note). tradeoff measures error and throughput of every variant on a few
 * families at one n (one point per variant in the chart); on the CPU backend it runs too, at
 * small n, and its throughput axis is the CPU twin's wall clock (variants without a twin,
 * such as cub, get `skipped` rows), which the chart and the report label as such. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"

static const sl_dtype dtypes[] = {SL_F32, SL_F64};
/* throughput-vs-n's formats: float16 and bfloat16 too (a 16-bit chart of its own; in the full
 * preset every other size, 2^10 .. 2^28 by 4x, a few seconds of the study) */
static const sl_dtype tp_dtypes[] = {SL_F32, SL_F64, SL_F16, SL_BF16};

/* The read-ceiling row of context c: its own upload of x, R timed streaming reads. */
int sl_exp_ceiling_row(sl_run *run, const sl_rowctx *c, const void *x, int reps, sl_err *err)
{
    if (sl_study_has(run, c, "read-ceiling") || sl_run_stopped(run)) return 0;
    if (sl_study_flush(run, err)) return -1;   /* the GPU is this row's alone */
    sl_row row;
    sl_err e = {{0}};
    const void *y = sl_rowctx_op(c)->inputs == 2   /* dot: both arrays are read */
                        ? (const char *)x + c->n * sl_dtype_size(c->dt) : NULL;
    if (sl_measure_read_ceiling2(x, y, c->n, c->dt, reps, &row, &e))
        return sl_err_set(err, "read ceiling at n=%llu %s: %.400s", (unsigned long long)c->n,
                          sl_dtype_name(c->dt), e.msg);
    sl_record r = {.ctx = c, .variant = "read-ceiling", .family = "ceiling", .det_class = "",
                   .status = "ok", .note = "streaming-read kernel: 16-byte loads, minimal work",
                   .seed = run->seed, .row = &row, .instances = 1};
    int rc = sl_study_write(run, &r, 0, err);
    sl_row_free(&row);
    return rc;
}

/* ---- throughput-vs-n -------------------------------------------------------------------- */
static int tp_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    if (!run->on_gpu) {
        if (exec) sl_notes_add(&run->notes, "throughput-vs-n skipped: the CPU backend has no GPU timings "
                                   "(run on a GPU: `sumlab run throughput-vs-n --backend gpu`)");
        return 0;
    }
    /* --datasets replaces the one input family: uniform, or the first of the operation's own
     * accuracy-vs-n families (lse: logits, the data its benchmarks and kernels' windows are for) */
    const sl_operation *op = run->op ? run->op : sl_op_default();
    const int nd = run->sweep.nds ? run->sweep.nds : 1;
    for (int di = 0; di < nd; di++) {
    const sl_dataset *ds = run->sweep.nds ? run->sweep.ds[di]
                         : sl_dataset_find(op->n_families ? op->n_families[0] : "uniform");
    if (!ds) ds = sl_dataset_at(0);
    uint64_t dns[32], ns[SL_SWEEP_MAX];
    int ndn = run->preset == SL_PRESET_FULL ? sl_exp_sizes(1024, (uint64_t)1 << 28, 1, dns, 32)
             : run->preset == SL_PRESET_QUICK ? sl_exp_sizes((uint64_t)1 << 16, (uint64_t)1 << 26, 2, dns, 32)
                                              : sl_exp_sizes((uint64_t)1 << 12, (uint64_t)1 << 16, 2, dns, 32);
    int nn = sl_exp_ns(run, dns, ndn, ns, SL_SWEEP_MAX);
    int reps = sl_exp_reps(run, run->preset == SL_PRESET_FULL ? 10 : 5);
    sl_params p;
    sl_params_defaults(ds, &p);
    sl_exp_user_params(run, ds, &p);
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < nn && sl_exp_dtype_on(run, tp_dtypes[t]); k++) {
            if (sl_dtype_is_half(tp_dtypes[t]) && run->preset == SL_PRESET_FULL && !run->sweep.nn && k % 2) continue;
            double w = sl_exp_work(ns[k], reps) / 8 * sl_exp_gpu_weight(run, "throughput-vs-n");   /* no reference per rep: cheaper per element */
            if (!exec) { *work += w; run->plan_steps += sl_exp_instances(run); continue; }
            if (sl_run_stopped(run)) return 0;
            sl_rowctx c = {.op = run->op, .experiment = "throughput-vs-n", .ds = ds, .dt = tp_dtypes[t], .n = ns[k],
                           .config = "default", .sweep = "n", .sweep_value = NAN};
            sl_rowctx_params(&c, ds, &p);
            if (sl_exp_step(run, &c, &p, NULL, reps, reps, 0, w, err)) return -1;
            if (!sl_study_has(run, &c, "read-ceiling") && !sl_run_stopped(run)) {
                sl_err ge = {{0}};
                void *x = sl_exp_generate(run, ds, &p, c.dt, c.n, &ge);
                if (!x) return sl_err_set(err, "%s", ge.msg);
                int rc = sl_exp_ceiling_row(run, &c, x, reps, err);
                sl_hostbuf_put(run, x);
                if (rc) return -1;
            }
        }
    }
    return 0;
}

double sl_exp_tp_plan(sl_run *run)
{
    double w = 0;
    tp_walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_tp(sl_run *run, sl_err *err) { return tp_walk(run, 1, NULL, err); }

/* ---- tradeoff ----------------------------------------------------------------------------- */
static const char *const tradeoff_datasets[] = {"uniform", "uniform-sym", "normal", "log-uniform",
                                                "sorted-inc", "alternating"};

/* n of the tradeoff. GPU: large enough to saturate the device. CPU: the twins emulate the GPU's
 * order on one core (about 8 ns per element for the slowest: atomic-thread, superacc), so small:
 * tiny (2^12) is a smoke run of the code path, quick (2^20) about 2 s in all. */
static uint64_t to_n(const sl_run *run)
{
    if (run->on_gpu)
        return run->preset == SL_PRESET_FULL ? (uint64_t)1 << 26
               : run->preset == SL_PRESET_QUICK ? (uint64_t)1 << 22 : (uint64_t)1 << 16;
    return run->preset == SL_PRESET_TINY ? (uint64_t)1 << 12 : (uint64_t)1 << 20;
}

static int to_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    if (run->files) {          /* --files: one point per file, at its n and dtype */
        for (int f = 0; f < run->files->count; f++) {
            const sl_file_input *fi = &run->files->f[f];
            int reps = run->on_gpu ? sl_exp_reps(run, run->preset == SL_PRESET_FULL ? 10 : 5)
                                   : sl_exp_reps(run, run->preset == SL_PRESET_TINY ? 3 : 5);
            double w = run->on_gpu ? sl_exp_work(fi->n, reps) / 4 * sl_exp_gpu_weight(run, "tradeoff")
                                   : sl_exp_work(fi->n, reps);
            if (!exec) { *work += w; run->plan_steps += sl_exp_instances(run); continue; }
            if (sl_run_stopped(run)) return 0;
            if (!run->on_gpu && f == 0)
                sl_notes_add(&run->notes, "tradeoff on the CPU backend: its throughput is the wall clock of each "
                                          "CPU twin on one core, not of a GPU; variants without a twin (cub) are skipped");
            sl_params p;
            memset(&p, 0, sizeof p);
            sl_rowctx c = {.op = run->op, .experiment = "tradeoff", .ds = &fi->ds, .dt = fi->dt, .n = fi->n,
                           .config = "default", .sweep = "n", .sweep_value = NAN};
            sl_rowctx_params(&c, &fi->ds, &p);
            if (sl_exp_step(run, &c, &p, NULL, reps, reps, 0, w, err)) return -1;
        }
        return 0;
    }
    uint64_t dn = to_n(run), ns[SL_SWEEP_MAX];
    const int nn = sl_exp_ns(run, &dn, 1, ns, SL_SWEEP_MAX);
    for (int k = 0; k < nn; k++) {
    const uint64_t n = ns[k];
    int reps = run->on_gpu ? sl_exp_reps(run, run->preset == SL_PRESET_FULL ? 10 : 5)
                           : sl_exp_reps(run, run->preset == SL_PRESET_TINY ? 3 : 5);
    if (exec && !run->on_gpu)
        sl_notes_add(&run->notes, "tradeoff on the CPU backend: its throughput is the wall clock of each CPU twin "
                         "on one core (n = %llu), not of a GPU; variants without a twin (cub) are skipped",
                    (unsigned long long)n);
    /* --datasets replaces the tradeoff's families */
    const size_t nd = run->sweep.nds ? (size_t)run->sweep.nds : sizeof tradeoff_datasets / sizeof tradeoff_datasets[0];
    for (size_t d = 0; d < nd; d++) {
        const sl_dataset *ds = run->sweep.nds ? run->sweep.ds[d] : sl_dataset_find(tradeoff_datasets[d]);
        if (!ds) continue;
        sl_params p;
        sl_params_defaults(ds, &p);
        sl_exp_user_params(run, ds, &p);
        for (int t = 0; t < 2; t++) {
            if (!sl_exp_dtype_on(run, dtypes[t])) continue;
            double w = run->on_gpu ? sl_exp_work(n, reps) / 4 * sl_exp_gpu_weight(run, "tradeoff") : sl_exp_work(n, reps);
            if (!exec) { *work += w; run->plan_steps += sl_exp_instances(run); continue; }
            if (sl_run_stopped(run)) return 0;
            sl_rowctx c = {.op = run->op, .experiment = "tradeoff", .ds = ds, .dt = dtypes[t], .n = n,
                           .config = "default", .sweep = "n", .sweep_value = NAN};
            sl_rowctx_params(&c, ds, &p);
            if (sl_exp_step(run, &c, &p, NULL, reps, reps, 0, w, err)) return -1;
        }
    }
    }
    return 0;
}

double sl_exp_tradeoff_plan(sl_run *run)
{
    double w = 0;
    to_walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_tradeoff(sl_run *run, sl_err *err) { return to_walk(run, 1, NULL, err); }

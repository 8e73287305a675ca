/* exp_throughput.c: how fast? throughput-vs-n times every GPU variant (CUB included, as a
 * registry row) and the device's streaming-read ceiling on the same input in the same
 * process (GPU only: on the CPU backend the twins' wall clock says nothing about a GPU, so it
 * is skipped with a note). The operation's PyTorch call (sl_operation.torch_call, timed on the
 * same GPU by experiments/anchors/throughput_torch.py RUN_DIR, run before the study) joins as
 * a series of rows named for the call when DIR/throughput_torch.csv is there: read as data,
 * every field validated, the whole file left out (with a note) when anything in it is not what
 * that script writes for this run. tradeoff measures error and throughput of every variant on
 * a few families at one n (one point per variant in the chart); on the CPU backend it runs too,
 * at small n, and its throughput axis is the CPU twin's wall clock (variants without a twin,
 * such as cub, get `skipped` rows), which the chart and the report label as such. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_ops.h"
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

/* throughput-vs-n's sizes of format dt into ns (at least SL_SWEEP_MAX): --n's, else the preset's
 * (full: 2^10 .. 2^28 by 2x, float16 and bfloat16 every other size; quick: 2^16 .. 2^26 by 4x;
 * tiny: 2^12 .. 2^16 by 4x; experiments/anchors/throughput_torch.py keeps the same list). */
static int tp_sizes(const sl_run *run, sl_dtype dt, uint64_t *ns)
{
    uint64_t dns[32], all[SL_SWEEP_MAX];
    const int ndn = run->preset == SL_PRESET_FULL ? sl_exp_sizes(1024, (uint64_t)1 << 28, 1, dns, 32)
                  : run->preset == SL_PRESET_QUICK ? sl_exp_sizes((uint64_t)1 << 16, (uint64_t)1 << 26, 2, dns, 32)
                                                   : sl_exp_sizes((uint64_t)1 << 12, (uint64_t)1 << 16, 2, dns, 32);
    const int nn = sl_exp_ns(run, dns, ndn, all, SL_SWEEP_MAX);
    int k = 0;
    for (int i = 0; i < nn; i++)
        if (!(sl_dtype_is_half(dt) && run->preset == SL_PRESET_FULL && !run->sweep.nn && i % 2)) ns[k++] = all[i];
    return k;
}

/* ---- the PyTorch call's rows: DIR/throughput_torch.csv (throughput_torch.py's columns) ------ */
static const char *const torch_cols[] = {"op", "variant", "dataset", "dtype", "n", "ddof", "seed", "reps",
                                         "time_ms_median", "time_ms_min", "time_ms_max", "gbps", "torch"};
#define NTORCHCOL (sizeof torch_cols / sizeof torch_cols[0])

/* One row of the file, parsed. */
typedef struct {
    const sl_dataset *ds;
    sl_dtype dt;
    uint64_t n, seed, reps;
    double ms_med, ms_min, ms_max, gbps;
} torch_tp;

/* A time in ms as the script writes it: a finite decimal in (0, 1e7]. */
static int torch_ms(const char *s, double *v)
{
    char *end = NULL;
    if (!s[0] || strspn(s, "0123456789.e+-") != strlen(s)) return 0;
    *v = strtod(s, &end);
    return !*end && isfinite(*v) && *v > 0 && *v <= 1e7;
}

/* Row r of t checked field by field against run (its operation, ddof and formats); its values
 * in *o. 1 when valid, else 0 with *why naming the field. */
static int torch_row(const sl_run *run, const sl_csv *t, size_t r, torch_tp *o, const char **why)
{
    const sl_operation *op = run->op ? run->op : sl_op_default();
    const char *const *f = (const char *const *)t->cell[r];
    uint64_t ddof;
    if (strcmp(f[0], op->name)) return *why = "op (another operation than this run's)", 0;
    if (strcmp(f[1], op->torch_call)) return *why = "variant (not the operation's PyTorch call)", 0;
    if (!(o->ds = sl_dataset_find(f[2])) || (strcmp(f[2], "normal") && strcmp(f[2], "logits")))
        return *why = "dataset (normal or logits)", 0;
    if (sl_dtype_parse(f[3], &o->dt) || !sl_exp_dtype_on(run, o->dt)) return *why = "dtype (a format of this run)", 0;
    if (!sl_exp_decimal(f[4], 13, &o->n) || o->n < 1 || o->n > ((uint64_t)1 << 40)) return *why = "n", 0;
    const int has_ddof = !strcmp(op->name, "var") || !strcmp(op->name, "std");
    if (has_ddof ? !sl_exp_decimal(f[5], 7, &ddof) || ddof != run->params.ddof : f[5][0] != '\0')
        return *why = "ddof (this run's, for var and std; else empty)", 0;
    if (!sl_exp_decimal(f[6], 20, &o->seed)) return *why = "seed", 0;
    if (!sl_exp_decimal(f[7], 7, &o->reps) || o->reps < 1 || o->reps > 1000000) return *why = "reps", 0;
    if (!torch_ms(f[8], &o->ms_med)) return *why = "time_ms_median", 0;
    if (!torch_ms(f[9], &o->ms_min) || o->ms_min > o->ms_med) return *why = "time_ms_min", 0;
    if (!torch_ms(f[10], &o->ms_max) || o->ms_max < o->ms_med) return *why = "time_ms_max", 0;
    /* GB/s: the bytes of every input read over the median time, as the study's rows */
    const double gb = (double)o->n * (double)sl_dtype_size(o->dt) * (op->inputs == 2 ? 2.0 : 1.0) / (o->ms_med * 1e6);
    if (!torch_ms(f[11], &o->gbps) || fabs(o->gbps - gb) > 1e-5 * gb) return *why = "gbps (bytes read / median time)", 0;
    o->gbps = gb;
    const size_t vl = strlen(f[12]);
    if (vl < 1 || vl > 40 || strspn(f[12], "0123456789abcdefghijklmnopqrstuvwxyz.+_") != vl)
        return *why = "torch (PyTorch's version)", 0;
    for (size_t q = 0; q < r; q++)
        if (!strcmp(t->cell[q][3], f[3]) && !strcmp(t->cell[q][4], f[4])) return *why = "n (a format and n twice)", 0;
    return 1;
}

/* Writes DIR/throughput_torch.csv's rows not yet in results.csv as throughput-vs-n rows of the
 * operation's PyTorch call (backend gpu: the script measures on a CUDA device). Absent: nothing.
 * Not a regular file (a link is not followed), over 1 MiB, another header or any invalid row: a
 * note, and none of it. 0, or -1 (err) when a row cannot be written. */
static int torch_join(sl_run *run, sl_err *err)
{
    const sl_operation *op = run->op ? run->op : sl_op_default();
    sl_csv t;
    if (!sl_exp_read_joined(run, "throughput-vs-n", "throughput_torch.csv", torch_cols, NTORCHCOL, &t)) return 0;
    if (!op->torch_call) {
        sl_notes_add(&run->notes, "throughput-vs-n: throughput_torch.csv left out (%s has no PyTorch call)", op->name);
        sl_csv_free(&t);
        return 0;
    }
    /* a row per format and size: at most 4 x SL_SWEEP_MAX */
    const size_t cap = sizeof tp_dtypes / sizeof tp_dtypes[0] * SL_SWEEP_MAX;
    torch_tp *o = t.nrows <= cap ? malloc(t.nrows * sizeof *o) : NULL;
    if (!o) {
        sl_notes_add(&run->notes, "throughput-vs-n: throughput_torch.csv left out: %s", t.nrows > cap
                     ? "more rows than formats times sizes" : "out of memory");
        sl_csv_free(&t);
        return 0;
    }
    const char *why = NULL;
    size_t bad = 0;
    for (size_t r = 0; !why && r < t.nrows; r++)
        if (!torch_row(run, &t, r, &o[r], &why)) bad = r + 1;
    if (why) {
        sl_notes_add(&run->notes, "throughput-vs-n: throughput_torch.csv left out: row %zu, field %s is not "
                     "what throughput_torch.py writes for this run", bad, why);
        free(o);
        sl_csv_free(&t);
        return 0;
    }
    /* each format's sizes against the experiment's: another list (the script's and this file's out
     * of step, or a file made for other settings) is said; its rows still join */
    for (size_t k = 0; k < sizeof tp_dtypes / sizeof tp_dtypes[0]; k++) {
        uint64_t ns[SL_SWEEP_MAX];
        const int nn = sl_exp_dtype_on(run, tp_dtypes[k]) ? tp_sizes(run, tp_dtypes[k], ns) : 0;
        size_t rows = 0, in = 0;
        for (size_t r = 0; r < t.nrows; r++) {
            if (o[r].dt != tp_dtypes[k]) continue;
            rows++;
            for (int i = 0; i < nn; i++) in += o[r].n == ns[i];
        }
        if (rows && (in != rows || in != (size_t)nn))
            sl_notes_add(&run->notes, "throughput-vs-n: throughput_torch.csv holds %zu sizes of %s, %zu of them among "
                         "this run's %d (throughput_torch.py RUN_DIR measures the run's sizes)", rows,
                         sl_dtype_name(tp_dtypes[k]), in, nn);
    }
    int rc = 0;
    for (size_t r = 0; r < t.nrows && !rc && !sl_run_stopped(run); r++) {
        const torch_tp *q = &o[r];
        sl_params p;
        sl_params_defaults(q->ds, &p);
        sl_rowctx c = {.op = run->op, .experiment = "throughput-vs-n", .ds = q->ds, .dt = q->dt, .n = q->n,
                       .config = "default", .sweep = "n", .sweep_value = NAN};
        sl_rowctx_params(&c, q->ds, &p);
        if (sl_study_has(run, &c, op->torch_call)) continue;
        sl_row row;
        sl_row_empty(&row, "gpu", q->dt, q->n);
        row.have_run = 1;
        row.reps = row.reps_asked = (int)q->reps;
        row.time_ms_median = q->ms_med;
        row.time_ms_min = q->ms_min;
        row.time_ms_max = q->ms_max;
        row.gbps = q->gbps;
        char note[256];
        snprintf(note, sizeof note, "PyTorch %s on a CUDA device (throughput_torch.py): its own input of this "
                 "family (torch.randn; seed %llu); CUDA events; L2 flushed; median of %llu", t.cell[r][12],
                 (unsigned long long)q->seed, (unsigned long long)q->reps);
        sl_record rec = {.ctx = &c, .variant = op->torch_call, .family = "pytorch", .det_class = "",
                         .status = "ok", .note = note, .seed = q->seed, .row = &row, .instances = 1};
        rc = sl_study_write(run, &rec, 0, err);
    }
    free(o);
    sl_csv_free(&t);
    return rc ? -1 : 0;
}

/* ---- throughput-vs-n -------------------------------------------------------------------- */
static int tp_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    if (!run->on_gpu) {
        if (!exec) return 0;
        sl_notes_add(&run->notes, "throughput-vs-n skipped: the CPU backend has no GPU timings "
                                  "(run on a GPU: `sumlab run throughput-vs-n --backend gpu`)");
        return torch_join(run, err);   /* the PyTorch call's rows, measured on a GPU, stand alone */
    }
    /* --datasets replaces the one input family: uniform, or the first of the operation's own
     * accuracy-vs-n families (lse: logits, the data its benchmarks and kernels' windows are for) */
    const sl_operation *op = run->op ? run->op : sl_op_default();
    const int nd = run->sweep.nds ? run->sweep.nds : 1;
    for (int di = 0; di < nd; di++) {
    const sl_dataset *ds = run->sweep.nds ? run->sweep.ds[di]
                         : sl_dataset_find(op->n_families ? op->n_families[0] : "uniform");
    if (!ds) ds = sl_dataset_at(0);
    uint64_t ns[SL_SWEEP_MAX];
    int reps = sl_exp_reps(run, run->preset == SL_PRESET_FULL ? 10 : 5);
    sl_params p;
    sl_params_defaults(ds, &p);
    sl_exp_user_params(run, ds, &p);
    for (int t = 0; t < 4; t++) {
        const int nn = sl_exp_dtype_on(run, tp_dtypes[t]) ? tp_sizes(run, tp_dtypes[t], ns) : 0;
        for (int k = 0; k < nn; k++) {
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
    }
    return exec ? torch_join(run, err) : 0;
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

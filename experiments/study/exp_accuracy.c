/* exp_accuracy.c: the accuracy sweeps: error of every variant vs n (every dataset family that is
 * not opt-in, or the operation's own list, every dtype of the preset's list: f32, f64, and f16,
 * bf16 beyond tiny), vs the condition number (the operation's family: ill-conditioned for sum; lse
 * sweeps the logits' spread sigma instead) and vs the dynamic range in binades (log-uniform
 * family). Each measurement row carries the variant's a-priori bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"

/* The presets' dtype list of the accuracy sweeps: the first acc_ndt(run) of these (tiny: f32
 * and f64, the tests' preset, unless --dtype names others; quick and full: all four). */
static const sl_dtype dtypes[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
static int acc_ndt(const sl_run *run) { return run->preset == SL_PRESET_TINY && !run->sweep.dtypes ? 2 : 4; }

/* Parameters that fit the 16-bit formats where a family's default does not: ill-conditioned's
 * cond 1e16 needs magnitudes near 1e16 (float16 reaches 65504, bfloat16 has 8 bits):
 * float16 takes cond 100, bfloat16 1e4. */
static void fit_params(const sl_dataset *ds, sl_dtype dt, sl_params *p)
{
    if (!sl_dtype_is_half(dt) || strcmp(ds->name, "ill-conditioned")) return;
    sl_params_set(ds, p, dt == SL_F16 ? "cond=100" : "cond=1e4", NULL);
}


/* Repetitions of the accuracy sweeps: on the CPU a deterministic twin is a pure function, so
 * one run is its answer; nondeterministic twins and GPU runs repeat (a deterministic GPU variant
 * twice: a second run shows a run-to-run difference; the determinism experiment counts them). */
static void acc_reps(const sl_run *run, int *det, int *nondet)
{
    int nd = run->preset == SL_PRESET_TINY ? 3 : run->preset == SL_PRESET_QUICK ? 5 : 10;
    *det = sl_exp_reps(run, run->on_gpu ? 2 : 1);
    *nondet = sl_exp_reps(run, nd);
}

/* ---- accuracy-vs-n ------------------------------------------------------------------------ */
static int acc_n_preset_sizes(const sl_run *run, sl_dtype dt, uint64_t *ns)
{
    const uint64_t K = 1024;
    const sl_operation *op = run->op ? run->op : sl_op_default();
    /* the GPU's largest n: 2^24, or the operation's own (lse: 2^22) */
    const uint64_t gmax = (uint64_t)1 << (op->n_log2max_gpu ? op->n_log2max_gpu : 24);
    switch (run->preset) {
    case SL_PRESET_TINY: return sl_exp_sizes(K, 4 * K, 2, ns, 32);
    /* the GPU sweeps step by 4x (host-side generation and reference dominate at 2^28); the quick
     * CPU sweep of the 16-bit formats too (their twins cost most; 2^20 stays, the size of the
     * report's float16 paragraph) */
    case SL_PRESET_QUICK: return run->on_gpu ? sl_exp_sizes(K, gmax, 2, ns, 32)
                                             : sl_exp_sizes(K, (uint64_t)1 << 20, sl_dtype_is_half(dt) ? 2 : 1, ns, 32);
    /* full, GPU: 2^10 .. 2^24 by 4x, SL_FULL_ACC_INSTANCES instances per point: at 2^26 the
     * one-thread chains (serial, atomic-thread: 0.34 s a run, a warm-up and one timed run each)
     * alone would take about 110 s of the study's 3 minutes; throughput-vs-n and the ladder keep
     * 2^28. */
    default: return run->on_gpu ? sl_exp_sizes(K, gmax, 2, ns, 32)
                                : sl_exp_sizes(K, (uint64_t)1 << 22, 1, ns, 32);
    }
}

/* The preset's sizes for dt, or --n's. */
static int acc_n_sizes(const sl_run *run, sl_dtype dt, uint64_t *ns)
{
    uint64_t d[32];
    int nd = acc_n_preset_sizes(run, dt, d);
    return sl_exp_ns(run, d, nd, ns, SL_SWEEP_MAX);
}

/* Whether accuracy-vs-n sweeps family ds: --datasets' list, else the operation's own (its
 * n_families, or every family that is not opt-in). */
static int acc_n_family(const sl_run *run, const sl_dataset *ds)
{
    const sl_operation *op = run->op ? run->op : sl_op_default();
    if (run->sweep.nds || !op->n_families) return sl_exp_dataset_on(run, ds);
    for (const char *const *f = op->n_families; *f; f++)
        if (!strcmp(*f, ds->name)) return 1;
    return 0;
}

static int acc_n_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    int rd, rn;
    acc_reps(run, &rd, &rn);
    for (size_t d = 0; d < sl_dataset_count(); d++) {
        const sl_dataset *ds = sl_dataset_at(d);
        if (!acc_n_family(run, ds)) continue;
        for (int t = 0; t < acc_ndt(run); t++) {
            uint64_t ns[SL_SWEEP_MAX];
            const int nn = acc_n_sizes(run, dtypes[t], ns);
            for (int k = 0; k < nn && sl_exp_dtype_on(run, dtypes[t]); k++) {
                sl_params p;
                sl_params_defaults(ds, &p);
                fit_params(ds, dtypes[t], &p);
                sl_exp_user_params(run, ds, &p);
                /* (a step's work covers its instances) */
                double w = sl_exp_work(ns[k], rd > rn ? rd : rn) * sl_exp_instances_of(run, "accuracy-vs-n");
                if (!exec) { *work += w; run->plan_steps += sl_exp_instances_of(run, "accuracy-vs-n"); continue; }
                if (sl_run_stopped(run)) return 0;
                sl_rowctx c = {.op = run->op, .experiment = "accuracy-vs-n", .ds = ds, .dt = dtypes[t], .n = ns[k],
                               .config = "default", .sweep = "n", .sweep_value = NAN};
                sl_rowctx_params(&c, ds, &p);
                if (sl_exp_step(run, &c, &p, NULL, rd, rn, 0, w, err)) return -1;
            }
        }
    }
    return 0;
}

double sl_exp_acc_n_plan(sl_run *run)
{
    double w = 0;
    acc_n_walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_acc_n(sl_run *run, sl_err *err) { return acc_n_walk(run, 1, NULL, err); }

/* n of the parameter sweeps (cond, range) in the preset. */
static uint64_t sweep_preset_n(const sl_run *run)
{
    switch (run->preset) {
    case SL_PRESET_TINY: return 1024;
    case SL_PRESET_QUICK: return run->on_gpu ? (uint64_t)1 << 20 : (uint64_t)1 << 16;
    default: return run->on_gpu ? (uint64_t)1 << 20 : (uint64_t)1 << 16;   /* (5 instances: see above) */
    }
}

/* The sizes of the parameter sweeps: the preset's one n, or --n's list. */
static int sweep_ns(const sl_run *run, uint64_t *ns)
{
    uint64_t d = sweep_preset_n(run);
    return sl_exp_ns(run, &d, 1, ns, SL_SWEEP_MAX);
}

/* A sweep's family left out by --datasets: a note (once, when exec) and 1. */
static int family_off(sl_run *run, int exec, const sl_dataset *ds, const char *exp)
{
    if (sl_exp_dataset_on(run, ds)) return 0;
    if (exec) {
        sl_notes_add(&run->notes, "%s skipped: --datasets does not name its family '%s'", exp, ds->name);
        if (!run->sweep_off[0])
            snprintf(run->sweep_off, sizeof run->sweep_off, "%s cannot run on the chosen datasets: it sweeps the "
                     "family '%s', which --datasets does not name", exp, ds->name);
    }
    return 1;
}

static int param_index(const sl_dataset *ds, const char *name)
{
    for (int k = 0; ds && k < ds->nparams; k++)
        if (!strcmp(ds->params[k].name, name)) return k;
    return -1;
}

/* ---- accuracy-vs-cond ------------------------------------------------------------------- */
/* The values of op's sweep parameter in format dt for the run's preset: the decades 10^0 ..
 * 10^cond_emax[dt] by the preset's step (full every one, quick every other, tiny every tenth),
 * or op's own list (its values up to cond_max[dt] when that is set) thinned alike (full: all;
 * quick: every other one; tiny: the first), its last value always kept. Returns the count (at
 * most max). */
static int cond_values(const sl_run *run, const sl_operation *op, sl_dtype dt, double *out, int max)
{
    const int step = run->preset == SL_PRESET_FULL ? 1 : run->preset == SL_PRESET_QUICK ? 2 : 10;
    int k = 0;
    if (!op->cond_values) {
        for (int e = 0; e <= op->cond_emax[dt] && k < max; e += step) out[k++] = pow(10.0, e);
        return k;
    }
    int last = op->cond_nvalues - 1;
    while (last > 0 && op->cond_max[dt] > 0 && op->cond_values[last] > op->cond_max[dt]) last--;
    for (int i = 0; i <= last && k < max; i++)
        if (i % step == 0 || i == last) out[k++] = op->cond_values[i];
    return k;
}

static int acc_cond_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    const sl_operation *op = run->op ? run->op : sl_op_default();
    if (!op->cond_family) {
        if (exec) sl_notes_add(&run->notes, "accuracy-vs-cond skipped: %s has no condition number to sweep", op->name);
        return 0;
    }
    const sl_dataset *ds = sl_dataset_find(op->cond_family);
    int pi = param_index(ds, op->cond_param);
    if (!ds || pi < 0) {
        if (exec) sl_notes_add(&run->notes, "accuracy-vs-cond skipped: no dataset '%s' with a '%s' parameter",
                               op->cond_family, op->cond_param);
        return 0;
    }
    /* the operation's own sweep family runs unless --datasets leaves it out (an opt-in family
     * such as offset-normal is named by the operation here) */
    if (run->sweep.nds && family_off(run, exec, ds, "accuracy-vs-cond")) return 0;
    uint64_t ns[SL_SWEEP_MAX];
    int nn = sweep_ns(run, ns);
    int rd, rn;
    acc_reps(run, &rd, &rn);
    for (int k = 0; k < nn; k++)
    for (int t = 0; t < acc_ndt(run); t++) {
        double vals[64];
        const int nv = sl_exp_dtype_on(run, dtypes[t]) ? cond_values(run, op, dtypes[t], vals, 64) : 0;
        for (int e = 0; e < nv; e++) {
            const uint64_t n = ns[k];
            const double cond = vals[e];
            if (cond < ds->params[pi].min || cond > ds->params[pi].max) continue;
            double w = sl_exp_work(n, rd > rn ? rd : rn) * sl_exp_gpu_weight(run, "accuracy-vs-cond") *
                       sl_exp_instances_of(run, "accuracy-vs-cond");
            if (!exec) { *work += w; run->plan_steps += sl_exp_instances_of(run, "accuracy-vs-cond"); continue; }
            if (sl_run_stopped(run)) return 0;
            sl_params p;
            sl_params_defaults(ds, &p);
            sl_exp_user_params(run, ds, &p);
            p.v[pi] = cond;
            /* the sweep column names the parameter: cond, or lse's sigma */
            sl_rowctx c = {.op = run->op, .experiment = "accuracy-vs-cond", .ds = ds, .dt = dtypes[t], .n = n,
                           .config = "default", .sweep = op->cond_param, .sweep_value = cond};
            sl_rowctx_params(&c, ds, &p);
            if (sl_exp_step(run, &c, &p, NULL, rd, rn, 0, w, err)) return -1;
        }
    }
    return 0;
}

double sl_exp_acc_cond_plan(sl_run *run)
{
    double w = 0;
    acc_cond_walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_acc_cond(sl_run *run, sl_err *err) { return acc_cond_walk(run, 1, NULL, err); }

/* ---- accuracy-vs-range: log-uniform with emax - emin = R binades, centred on 2^0 ----------- */
static int range_list(const sl_run *run, sl_dtype dt, int *out)
{
    /* from 1 binade (one exponent range [0,1]) upward, roughly log-spaced for a log2 axis */
    static const int tiny[] = {1, 16, 64, 200};
    static const int quick[] = {1, 2, 4, 8, 16, 32, 64, 128, 200, 400, 1000, 2000};
    static const int full[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 200, 240,
                               320, 400, 600, 800, 1000, 1400, 2000};
    const int *l = run->preset == SL_PRESET_TINY ? tiny : run->preset == SL_PRESET_QUICK ? quick : full;
    int nl = run->preset == SL_PRESET_TINY ? 4 : run->preset == SL_PRESET_QUICK ? 12 : 24;
    /* float32 and bfloat16 span 2^-126 .. 2^127 (normals), float16 2^-14 .. 2^15 */
    int cap = dt == SL_F64 ? 2000 : dt == SL_F16 ? 28 : 240;
    int k = 0;
    for (int i = 0; i < nl; i++)
        if (l[i] <= cap) out[k++] = l[i];
    return k;
}

static int acc_range_walk(sl_run *run, int exec, double *work, sl_err *err)
{
    const sl_dataset *ds = sl_dataset_find("log-uniform");
    int lo = param_index(ds, "emin"), hi = param_index(ds, "emax");
    if (!ds || lo < 0 || hi < 0) {
        if (exec) sl_notes_add(&run->notes, "accuracy-vs-range skipped: no dataset 'log-uniform' with emin/emax parameters");
        return 0;
    }
    if (family_off(run, exec, ds, "accuracy-vs-range")) return 0;
    uint64_t ns[SL_SWEEP_MAX];
    int nn = sweep_ns(run, ns);
    int rd, rn;
    acc_reps(run, &rd, &rn);
    for (int k = 0; k < nn; k++)
    for (int t = 0; t < acc_ndt(run); t++) {
        int rs[32];
        int nr = sl_exp_dtype_on(run, dtypes[t]) ? range_list(run, dtypes[t], rs) : 0;
        const uint64_t n = ns[k];
        for (int i = 0; i < nr; i++) {
            double w = sl_exp_work(n, rd > rn ? rd : rn) * sl_exp_gpu_weight(run, "accuracy-vs-range") *
                       sl_exp_instances_of(run, "accuracy-vs-range");
            if (!exec) { *work += w; run->plan_steps += sl_exp_instances_of(run, "accuracy-vs-range"); continue; }
            if (sl_run_stopped(run)) return 0;
            sl_params p;
            sl_params_defaults(ds, &p);
            sl_exp_user_params(run, ds, &p);
            p.v[lo] = -(rs[i] / 2);
            p.v[hi] = rs[i] - rs[i] / 2;
            sl_rowctx c = {.op = run->op, .experiment = "accuracy-vs-range", .ds = ds, .dt = dtypes[t], .n = n,
                           .config = "default", .sweep = "binades", .sweep_value = rs[i]};
            sl_rowctx_params(&c, ds, &p);
            if (sl_exp_step(run, &c, &p, NULL, rd, rn, 0, w, err)) return -1;
        }
    }
    return 0;
}

double sl_exp_acc_range_plan(sl_run *run)
{
    double w = 0;
    acc_range_walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_acc_range(sl_run *run, sl_err *err) { return acc_range_walk(run, 1, NULL, err); }

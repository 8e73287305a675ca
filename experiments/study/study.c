/* study.c: the experiment table and presets of `sumlab run`, the signals that stop a run
 * after its current measurement, and the sizes, repetitions and work units of a step. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sl_study.h"

int sl_preset_parse(const char *s, sl_preset *out)
{
    if (!s) return -1;
    if (!strcmp(s, "tiny")) { *out = SL_PRESET_TINY; return 0; }
    if (!strcmp(s, "quick")) { *out = SL_PRESET_QUICK; return 0; }
    if (!strcmp(s, "full")) { *out = SL_PRESET_FULL; return 0; }
    return -1;
}

const char *sl_preset_name(sl_preset p)
{
    return p == SL_PRESET_TINY ? "tiny" : p == SL_PRESET_QUICK ? "quick" : "full";
}

static const sl_experiment experiments[] = {
    {"accuracy-vs-n", "error of every variant vs n, per dataset family and dtype, with its a-priori bound",
     sl_exp_acc_n_plan, sl_exp_acc_n, 1.0},
    {"accuracy-vs-cond", "error vs condition number (ill-conditioned family, cond 1 .. 1e30; lse: the logits' "
                         "spread sigma)",
     sl_exp_acc_cond_plan, sl_exp_acc_cond, 2.0},
    {"accuracy-vs-range", "error vs dynamic range in binades (log-uniform family)",
     sl_exp_acc_range_plan, sl_exp_acc_range, 1.9},
    {"determinism", "R repetitions, >= 5 launch configurations and 4 input permutations per variant; "
                    "claimed determinism class checked", sl_exp_det_plan, sl_exp_det, 6.4},
    {"throughput-vs-n", "GB/s vs n per variant with CUB and the read ceiling (GPU only)",
     sl_exp_tp_plan, sl_exp_tp, 13.0},
    {"tradeoff", "one point per variant: median error vs throughput (on the CPU backend: the twins' wall clock)",
     sl_exp_tradeoff_plan, sl_exp_tradeoff, 6.0},
    {"ladder", "both source texts' ladders rung for rung at 2^25 f32 (block 256) and 2^28, with CUB and the "
               "read ceiling, beside the texts' published tables (GPU only)", sl_exp_ladder_plan, sl_exp_ladder, 8.0},
    /* rows: batch invariance (exp_batch.c) */
    {"batch-invariance", "distinct bits of rows 0, 1, 15, 1023 of X[:B] over 17 batch sizes, per operation, "
                         "variant and format, with throughput (opt-in on the quick CPU preset)",
     sl_exp_batch_plan, sl_exp_batch, 1.0},
    /* launch-config (exp_launch.c): opt-in, its sweep would break the full study's budget */
    {"launch-config", "block, grid, items, accumulators and alignment swept per rung: time, GB/s and "
                      "error against the bound of each tree (opt-in: never part of `all`)",
     sl_exp_launch_plan, sl_exp_launch, 1.0},
};

int sl_experiment_opt_in(const sl_experiment *e)
{
    return e && !strcmp(e->name, "launch-config");
}

size_t sl_experiment_count(void) { return sizeof experiments / sizeof experiments[0]; }
const sl_experiment *sl_experiment_at(size_t i)
{
    return i < sl_experiment_count() ? &experiments[i] : NULL;
}
const sl_experiment *sl_experiment_find(const char *name)
{
    for (size_t i = 0; name && i < sl_experiment_count(); i++)
        if (!strcmp(experiments[i].name, name)) return &experiments[i];
    return NULL;
}

/* ---- signals: finish the current measurement, then stop (a second one aborts) ----------- */
static volatile sig_atomic_t g_signal;
static int g_quiet;
static struct sigaction g_old_int, g_old_term;

static void on_signal(int sig)
{
    if (g_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    g_signal = sig;
    static const char msg[] = "\nsumlab run: stopping after the current measurement "
                              "(signal again to abort); rows so far are saved\n";
    if (!g_quiet) {
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
    }
}

void sl_study_signals_catch(int quiet)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    g_signal = 0;
    g_quiet = quiet;
    sigaction(SIGINT, &sa, &g_old_int);
    sigaction(SIGTERM, &sa, &g_old_term);
}

int sl_study_signals_restore(void)
{
    int sig = g_signal;
    sigaction(SIGINT, &g_old_int, NULL);
    sigaction(SIGTERM, &g_old_term, NULL);
    return sig;
}

int sl_run_stopped(const sl_run *run) { return run->stop || g_signal != 0; }

/* ---- sizes, repetitions, work ------------------------------------------------------------ */
int sl_exp_reps(const sl_run *run, int preset_default)
{
    return run->reps_override > 0 ? run->reps_override : preset_default;
}

int sl_exp_decimal(const char *s, size_t max_digits, uint64_t *v)
{
    const size_t len = strlen(s);
    if (len < 1 || len > max_digits) return 0;
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        const uint64_t d = (uint64_t)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10u) return 0;   /* past 2^64 - 1 */
        x = x * 10u + d;
    }
    *v = x;
    return 1;
}

int sl_exp_sizes(uint64_t lo, uint64_t hi, unsigned log2_step, uint64_t *out, int max)
{
    int k = 0;
    for (uint64_t n = lo; n <= hi && k < max; n <<= log2_step) {
        out[k++] = n;
        if (n > (UINT64_MAX >> log2_step)) break;
    }
    return k;
}

int sl_exp_read_joined(sl_run *run, const char *experiment, const char *name, const char *const *cols,
                       size_t ncols, sl_csv *t)
{
    char path[SL_DIR_MAX + 64];
    struct stat st;
    if (sl_path_join(path, sizeof path, run->dir, name, NULL) || lstat(path, &st)) return 0;
    if (!S_ISREG(st.st_mode) || st.st_size > (1 << 20)) {
        sl_notes_add(&run->notes, "%s: %s left out (not a regular file of at most 1 MiB)", experiment, name);
        return 0;
    }
    sl_err e = {{0}};
    int truncated = 0;
    if (sl_csv_read(path, t, &truncated, &e)) {
        sl_notes_add(&run->notes, "%s: %s left out: %s", experiment, name, e.msg);
        return 0;
    }
    const char *why = NULL;
    if (truncated) why = "a last line without its newline";
    else if (t->ncols != (int)ncols) why = "the header";
    for (size_t c = 0; !why && c < ncols; c++)
        if (strcmp(t->header[c], cols[c])) why = "the header";
    if (!why && !t->nrows) why = "no rows";
    if (!why) return 1;
    sl_notes_add(&run->notes, "%s: %s left out: %s", experiment, name, why);
    sl_csv_free(t);
    return 0;
}

/* A step also costs what does not grow with n (allocations, launches, L2 flushes, judging):
 * counted as SL_WORK_STEP_ELEMS more elements, so small steps do not make the ETA hours. */
#define SL_WORK_STEP_ELEMS 32768.0
double sl_exp_work(uint64_t n, int reps)
{
    return ((double)n + SL_WORK_STEP_ELEMS) * (double)sl_variant_count() * (reps + 2);
}

/* On the GPU backend the device-time budgets, not the repetitions asked for, set what a step
 * costs, and each experiment's units price it differently: in the H200 full study at 018f6fc
 * (progress log against the planned units) accuracy-vs-n took 59 % of the time for 84 % of
 * the units, determinism 14 % for 3 %, throughput-vs-n 5 % for 0.6 %, so the ETA read 23 % low
 * (132 s predicted from 5 % on, 171 s taken). These factors (time share / unit share, relative
 * to accuracy-vs-n) weight each experiment's units there (the table's gpu_weight); the CPU
 * backend keeps 1. Checked at
 * 4d105aa: unit shares 59 / 10 / 6 / 14 / 5 / 4 / 2 % (accuracy-vs-n, -cond, -range,
 * determinism, throughput, tradeoff, ladder) for time shares 59 / 9 / 6 / 14 / 5 / 3.5 / 1.6 %. */
double sl_exp_gpu_weight(const sl_run *run, const char *experiment)
{
    const sl_experiment *e = run->on_gpu ? sl_experiment_find(experiment) : NULL;
    return e && e->gpu_weight > 0 ? e->gpu_weight : 1.0;
}

/* ---- the user's sweep ------------------------------------------------------------------- */
int sl_exp_dtype_on(const sl_run *run, sl_dtype dt)
{
    return !run->sweep.dtypes || (run->sweep.dtypes & SL_DTYPE_MASK(dt));
}

int sl_exp_dataset_on(const sl_run *run, const sl_dataset *ds)
{
    if (!run->sweep.nds) return !(ds->flags & SL_DS_OPT_IN);   /* opt-in families: named only */
    for (int i = 0; i < run->sweep.nds; i++)
        if (run->sweep.ds[i] == ds) return 1;
    return 0;
}

int sl_exp_variant_on(const sl_run *run, const sl_variant *v)
{
    if (sl_op_of(v) != (run->op ? run->op : sl_op_default())) return 0;   /* another operation's */
    if (!run->sweep.nv || sl_op_is_exact(v)) return 1;
    for (int i = 0; i < run->sweep.nv; i++)
        if (run->sweep.v[i] == v) return 1;
    return 0;
}

int sl_exp_ns(const sl_run *run, const uint64_t *dflt, int ndflt, uint64_t *out, int max)
{
    const uint64_t *src = run->sweep.nn ? run->sweep.n : dflt;
    int k = run->sweep.nn ? run->sweep.nn : ndflt;
    if (k > max) k = max;
    for (int i = 0; i < k; i++) out[i] = src[i];
    return k;
}

int sl_exp_instances(const sl_run *run) { return run->sweep.seeds > 1 ? run->sweep.seeds : 1; }

/* The full preset's accuracy sweeps (accuracy-vs-*) run at least SL_FULL_ACC_INSTANCES
 * instances per point, so a chart's median and min-max band and a table's [min-max] rest on
 * several inputs, not one (a one-off spike read as a trend); --seeds K above it raises it.
 * launch-config and the ladder measure one input per point (instance 0, whatever --seeds). */
int sl_exp_instances_of(const sl_run *run, const char *experiment)
{
    if (experiment && (!strcmp(experiment, "launch-config") || !strcmp(experiment, "ladder"))) return 1;
    int k = sl_exp_instances(run);
    if (run->preset == SL_PRESET_FULL && experiment && !strncmp(experiment, "accuracy-", 9) &&
        k < SL_FULL_ACC_INSTANCES)
        k = SL_FULL_ACC_INSTANCES;
    return k;
}
uint64_t sl_exp_instance_seed(const sl_run *run, int instance) { return run->seed + (uint64_t)instance; }

/* ---- --param K=V: the user's dataset parameters --------------------------------------------- */
/* The i-th item of a comma-separated list into buf; 0 when there is none. */
static int list_item(const char *list, int i, char *buf, size_t cap)
{
    const char *p = list;
    for (int k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p) p++;
    }
    if (!p || !*p) return 0;
    size_t l = strcspn(p, ",");
    if (l >= cap) l = cap - 1;
    memcpy(buf, p, l);
    buf[l] = '\0';
    return 1;
}

void sl_exp_user_params(const sl_run *run, const sl_dataset *ds, sl_params *p)
{
    char kv[sizeof run->sweep.params];   /* an item is never longer than the list */
    for (int i = 0; list_item(run->sweep.params, i, kv, sizeof kv); i++) {
        sl_params q = *p;
        if (!sl_params_set(ds, &q, kv, NULL)) *p = q;   /* (a key ds lacks: not its parameter) */
    }
}

int sl_exp_user_params_check(const sl_sweep *sw, sl_err *err)
{
    char kv[sizeof sw->params], prev[sizeof sw->params];
    for (int i = 0; list_item(sw->params, i, kv, sizeof kv); i++) {
        const size_t k = strcspn(kv, "=");
        for (int j = 0; j < i && list_item(sw->params, j, prev, sizeof prev); j++)
            if (strcspn(prev, "=") == k && !strncmp(prev, kv, k))
                return sl_err_set(err, "--param %.*s is given twice ('%s' and '%s'): give each parameter once",
                                  (int)k, kv, prev, kv);
        int ok = 0;
        sl_err last = {{0}};
        const size_t nd = sw->nds ? (size_t)sw->nds : sl_dataset_count();
        for (size_t d = 0; d < nd && !ok; d++) {
            const sl_dataset *ds = sw->nds ? sw->ds[d] : sl_dataset_at(d);
            sl_params p;
            sl_params_defaults(ds, &p);
            sl_err e = {{0}};
            if (!sl_params_set(ds, &p, kv, &e)) ok = 1;
            else if (!last.msg[0]) last = e;
        }
        if (!ok)
            return sl_err_set(err, "--param %s: no dataset of the run takes it (%s)", kv,
                              last.msg[0] ? last.msg : "no such parameter");
    }
    return 0;
}

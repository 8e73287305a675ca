/* study.c: the experiment table and presets of `sumlab run`, the signals that stop a run
 * after its current measurement, and the sizes, repetitions and work units of a step. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
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
     sl_exp_acc_n_plan, sl_exp_acc_n},
    {"accuracy-vs-cond", "error vs condition number (ill-conditioned family, cond 1 .. 1e30)",
     sl_exp_acc_cond_plan, sl_exp_acc_cond},
    {"accuracy-vs-range", "error vs dynamic range in binades (log-uniform family)",
     sl_exp_acc_range_plan, sl_exp_acc_range},
    {"determinism", "R repetitions, >= 5 launch configurations and 4 input permutations per variant; "
                    "claimed determinism class checked", sl_exp_det_plan, sl_exp_det},
    {"throughput-vs-n", "GB/s vs n per variant with CUB and the read ceiling (GPU only)",
     sl_exp_tp_plan, sl_exp_tp},
    {"tradeoff", "one point per variant: median error vs throughput (on the CPU backend: the twins' wall clock)",
     sl_exp_tradeoff_plan, sl_exp_tradeoff},
    {"ladder", "both source texts' ladders rung for rung at 2^25 f32 (block 256) and 2^28, with CUB and the "
               "read ceiling, beside the texts' published tables (GPU only)", sl_exp_ladder_plan, sl_exp_ladder},
};

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

int sl_exp_sizes(uint64_t lo, uint64_t hi, unsigned log2_step, uint64_t *out, int max)
{
    int k = 0;
    for (uint64_t n = lo; n <= hi && k < max; n <<= log2_step) {
        out[k++] = n;
        if (n > (UINT64_MAX >> log2_step)) break;
    }
    return k;
}

double sl_exp_work(uint64_t n, int reps) { return (double)n * (double)sl_variant_count() * (reps + 2); }

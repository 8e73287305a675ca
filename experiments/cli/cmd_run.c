/* cmd_run.c: `sumlab run EXPERIMENT`: its options and environment (SUMLAB_SEED, SUMLAB_MAX_ROWS,
 * SUMLAB_REP_BUDGET_MS) into an sl_run_opts for sl_study_run (study/run.c); its status as the exit code. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_cli.h"
#include "sl_ops.h"
#include "sl_mpi.h"
#include "sumlab/pool.h"
#include "sl_report.h"
#include "sl_study.h"

#define CMD "run"
#define SL_RUN_DEFAULT_SEED 20261129ull

static void usage(FILE *f)
{
    fputs("usage: sumlab run EXPERIMENT [-o DIR] [--backend auto|cpu|gpu] [--preset tiny|quick|full]\n"
          "                  [--resume] [--report-only] [--quiet] [--seed S] [--reps R]\n"
          "                  [--n LIST] [--datasets LIST] [--variants LIST] [--dtype LIST]\n"
          "                  [--seeds K] [--baseline VARIANT] [--threads N] [--op OP]\n"
          "                  [--files A.npy,B.npy]\n\n"
          "Runs one experiment of the study (or `all`) into a results directory:\n"
          "  results.csv (a row per measurement, written as each finishes), distribution.csv\n"
          "  (each distinct result of the repetition rows with its count), meta.json (provenance),\n"
          "  charts/ (gnuplot PNG+SVG) and report.md.\n\nexperiments:\n", f);
    for (size_t i = 0; i < sl_experiment_count(); i++)
        if (!sl_experiment_opt_in(sl_experiment_at(i)))
            fprintf(f, "  %-18s %s\n", sl_experiment_at(i)->name, sl_experiment_at(i)->description);
    fputs("  all                every experiment above into one directory (the default study)\n", f);
    for (size_t i = 0; i < sl_experiment_count(); i++)   /* opt-in: by name only */
        if (sl_experiment_opt_in(sl_experiment_at(i)))
            fprintf(f, "  %-18s %s\n", sl_experiment_at(i)->name, sl_experiment_at(i)->description);
    fputs("  ranks              under mpirun: sums across K = 1 .. P ranks ('sumlab run ranks --help')\n\n"
          "options:\n"
          "  -o, --output DIR   run directory (default results/<date>-<experiment>); an existing\n"
          "                     run is refused unless --resume is given; a name of printable\n"
          "                     characters, each part at most 255 bytes\n"
          "  --backend B        auto (GPU when present), cpu (the CPU twins), gpu\n"
          "  --preset P         tiny (tests), quick (minutes on a CPU), full (the GPU study);\n"
          "                     default: full on a GPU, quick on the CPU backend\n"
          "  --resume           continue DIR where it stopped, with its settings (no duplicate rows;\n"
          "                     EXPERIMENT may be left out)\n"
          "  --report-only      re-render DIR's charts, rewrite its report.md and report.html;\n"
          "                     measure nothing (EXPERIMENT may be left out)\n"
          "  -q, --quiet        no progress output\n"
          "  --seed S           dataset seed (default $SUMLAB_SEED or 20261129)\n"
          "  --reps R           repetitions per measurement for every experiment (default: the\n"
          "                     preset's; determinism uses 100 in the full preset)\n"
          "  --n LIST           sizes for every experiment (accuracy-vs-n sweeps them; the\n"
          "                     cond/range sweeps, determinism and tradeoff run at each)\n"
          "  --datasets LIST    accuracy-vs-n: only these families; determinism, tradeoff and\n"
          "                     throughput: these instead of their own; accuracy-vs-cond/-range\n"
          "                     run only when their family (ill-conditioned/log-uniform) is named\n"
          "  --variants LIST    only these variants (`exact` is always measured)\n"
          "  --dtype LIST       any of f32, f64, f16, bf16, comma-separated (default: the\n"
          "                     preset's list)\n"
          "  --seeds K          K independent instances per point (instance i: dataset seed S+i;\n"
          "                     instance 0 is the run without --seeds); tables give medians and\n"
          "                     spread over them (the full preset's accuracy sweeps: at least 5)\n"
          "  --op OP            the operation studied: its variants (default sum; 'sumlab list ops')\n"
          "  --ddof N           var/std: divide by n - N (default 1; kept in run.conf)\n"
          "  --baseline V       the variant the report's sweep tables compare with (default\n"
          "                     pairwise)\n"
          "  --param K=V        a dataset parameter for every dataset of the run that has K\n"
          "                     (repeatable, each key once; e.g. --datasets normal --param mean=1000;\n"
          "                     kept in run.conf)\n"
          "  --files LIST       the user's 1-D .npy arrays as the inputs of determinism and tradeoff,\n"
          "                     each at its own n and dtype (dataset label file:NAME, NAME.npy of\n"
          "                     letters, digits, '.', '_', '-'); two-input operations (dot) take\n"
          "                     them as X,Y pairs in order; experiments that sweep n, cond or range\n"
          "                     skip them; run.conf keeps the names and content hashes: --resume\n"
          "                     needs the same files, unchanged; not with --n/--datasets/--dtype/--param\n"
          "  --figures F        screen (default) or paper: charts also as PDF (gnuplot's pdfcairo),\n"
          "                     sized and lettered for a 3.5-inch column; with --report-only,\n"
          "                     --variants picks the variants the charts draw\n"
          "  --threads N        host threads for generating, the reference, the CPU twins, judging\n"
          "                     and the charts (default $SUMLAB_THREADS or every core); every\n"
          "                     count gives the same rows and bits (only timing columns differ)\n"
          "The sweep options are kept in run.conf; --resume continues with them.\n\n"
          "GPU: a row's repetitions stop at a device-time budget (accuracy sweeps: 20 ms\n"
          "deterministic, 25 ms nondeterministic, a variant warmed up once per process; other\n"
          "sweeps: 50/60 ms; at least 1; determinism: 300/500 ms, at least 3; the row's note says\n"
          "so); SUMLAB_REP_BUDGET_MS=MS sets every budget (0: every repetition runs).\n\n"
          "Ctrl-C (SIGINT/SIGTERM) stops after the current measurement; --resume continues.\n"
          "Exit status: 0 done, 1 runtime failure or nothing measured (every row skipped, e.g. out\n"
          "of memory), 2 bad usage, 3 stopped by SUMLAB_MAX_ROWS, 130/143 stopped by a signal.\n", f);
}

/* ---- options ---------------------------------------------------------------------------- */
typedef struct {
    const char *backend_s, *preset_s, *seed_s, *reps_s, *threads_s;
    const char *n_s, *datasets_s, *variants_s, *dtype_s, *seeds_s, *baseline_s;
    const char *figures_s;
    const char *files_s;
    char params[512];          /* --param K=V (repeatable), joined by ',' */
    int params_bad;
} run_args;

/* Reads argv into o (and the option texts into a). Returns -1 to go on, else the exit code
 * (0 after --help). */
static int parse_args(int argc, char **argv, sl_run_opts *o, run_args *a)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"backend", required_argument, NULL, 'b'},
        {"preset", required_argument, NULL, 'p'}, {"resume", no_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},        {"seed", required_argument, NULL, 's'},
        {"reps", required_argument, NULL, 'R'},   {"help", no_argument, NULL, 'h'},
        {"report-only", no_argument, NULL, 'P'},
        {"n", required_argument, NULL, 'N'},      {"datasets", required_argument, NULL, 'D'},
        {"variants", required_argument, NULL, 'V'}, {"dtype", required_argument, NULL, 'T'},
        {"seeds", required_argument, NULL, 'K'},  {"baseline", required_argument, NULL, 'L'},
        {"threads", required_argument, NULL, 'H'}, {"op", required_argument, NULL, 'O'},
        {"ddof", required_argument, NULL, 'F'},
        {"figures", required_argument, NULL, 'G'},
        {"param", required_argument, NULL, 'A'},
        {"files", required_argument, NULL, 'I'},
        {NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->out_dir = optarg; break;
        case 'b': a->backend_s = optarg; break;
        case 'p': a->preset_s = optarg; break;
        case 'r': o->resume = 1; break;
        case 'q': o->quiet = 1; break;
        case 's': a->seed_s = optarg; break;
        case 'R': a->reps_s = optarg; break;
        case 'P': o->report_only = 1; break;
        case 'N': a->n_s = optarg; break;
        case 'D': a->datasets_s = optarg; break;
        case 'V': a->variants_s = optarg; break;
        case 'T': a->dtype_s = optarg; break;
        case 'K': a->seeds_s = optarg; break;
        case 'L': a->baseline_s = optarg; break;
        case 'H': a->threads_s = optarg; break;
        case 'G': a->figures_s = optarg; break;
        case 'I': a->files_s = optarg; break;
        case 'A':
            {
                size_t l = strlen(a->params);
                const char *eq = strchr(optarg, '=');
                if (!eq || eq == optarg || !eq[1] || strchr(optarg, ',') ||
                    strspn(optarg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.=+-") != strlen(optarg) ||
                    l + strlen(optarg) + 2 > sizeof a->params) {
                    sl_cli_msg(CMD, "--param: '%s' is not K=V (a dataset parameter and its value)", optarg);
                    return 2;
                }
                snprintf(a->params + l, sizeof a->params - l, "%s%s", l ? "," : "", optarg);
            }
            break;
        case 'O':
            {
                sl_err e = {{0}};
                if (sl_op_parse(optarg, &o->op, &e)) {
                    sl_cli_msg(CMD, "--op: %s", e.msg);
                    return 2;
                }
            }
            break;
        case 'F':
            {
                sl_op_params pp;
                if (sl_cli_ddof(CMD, optarg, &pp)) return 2;
                o->ddof = (long)pp.ddof;
                o->ddof_given = 1;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: return sl_cli_bad_option(CMD, c, argv, optind, optopt, longopts);
        }
    }
    const sl_op_params given = {(uint32_t)o->ddof, o->ddof_given};
    if (sl_cli_ddof_check(CMD, &given, o->op) >= 0) return 2;
    if (optind + 1 < argc) {
        sl_cli_msg(CMD, "unexpected argument '%s' (one experiment per run; `all` runs every one)", argv[optind + 1]);
        return 2;
    }
    if (optind < argc) o->experiment = argv[optind];
    else if (!o->report_only && !o->resume) {  /* with either, the experiment is DIR's (run.conf) */
        sl_cli_msg(CMD, "which experiment? (accuracy-vs-n, accuracy-vs-cond, accuracy-vs-range, "
                        "determinism, throughput-vs-n, tradeoff, all; see 'sumlab run --help')");
        return 2;
    }
    return -1;
}

/* --n's sizes (sl_parse_u64's grammar) into ns; -1 to go on, else 2 after one message. */
static int parse_n(const char *list, uint64_t *ns, int *nn)
{
    if (!*list) { sl_cli_msg(CMD, "--n: empty list"); return 2; }
    for (const char *p = list;; ) {
        size_t len = strcspn(p, ",");
        char item[128];
        if (len == 0 || len >= sizeof item) { sl_cli_msg(CMD, "--n: malformed list '%s'", list); return 2; }
        if (*nn >= SL_SWEEP_MAX) { sl_cli_msg(CMD, "--n: at most %d sizes", SL_SWEEP_MAX); return 2; }
        memcpy(item, p, len);
        item[len] = '\0';
        sl_err e = {{0}};
        if (sl_parse_u64(item, &ns[*nn], &e)) { sl_cli_msg(CMD, "--n: %s", e.msg); return 2; }
        (*nn)++;
        if (!p[len]) return -1;
        p += len + 1;
    }
}

/* Checks and converts the option values and the environment. Returns -1 to go on, else the
 * exit code. */
static int check_args(sl_run_opts *o, const run_args *a)
{
    if (o->experiment && strcmp(o->experiment, "all") && !sl_experiment_find(o->experiment)) {
        sl_cli_msg(CMD, "unknown experiment '%s' (accuracy-vs-n, accuracy-vs-cond, accuracy-vs-range, "
                        "determinism, throughput-vs-n, tradeoff, all)", o->experiment);
        return 2;
    }
    sl_err e = {{0}};
    if (o->out_dir && sl_run_dir_check(o->out_dir, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 2; }
    o->preset = SL_PRESET_QUICK;
    o->preset_given = a->preset_s != NULL;
    if (a->preset_s && sl_preset_parse(a->preset_s, &o->preset)) {
        sl_cli_msg(CMD, "unknown preset '%s' (tiny, quick or full)", a->preset_s);
        return 2;
    }
    o->backend = SL_BACKEND_AUTO;
    o->backend_given = a->backend_s != NULL;
    if (a->backend_s && sl_backend_parse(a->backend_s, &o->backend)) {
        sl_cli_msg(CMD, "unknown backend '%s' (auto, cpu or gpu)", a->backend_s);
        return 2;
    }
    o->seed = SL_RUN_DEFAULT_SEED;
    const char *env_seed = getenv("SUMLAB_SEED");
    if (a->seed_s) {
        if (sl_parse_u64(a->seed_s, &o->seed, &e)) { sl_cli_msg(CMD, "--seed: %s", e.msg); return 2; }
        o->seed_given = 1;
    } else if (env_seed && *env_seed) {
        if (sl_parse_u64(env_seed, &o->seed, &e)) { sl_cli_msg(CMD, "SUMLAB_SEED: %s", e.msg); return 2; }
        o->seed_given = 1;
    }
    o->reps = 0;
    if (a->reps_s && sl_parse_int(a->reps_s, 1, 1000000, &o->reps, &e)) { sl_cli_msg(CMD, "--reps: %s", e.msg); return 2; }
    uint64_t ns[SL_SWEEP_MAX];
    int nn = 0, rc;
    if (a->n_s && (rc = parse_n(a->n_s, ns, &nn)) >= 0) return rc;
    long seeds = 0;
    if (a->seeds_s && sl_parse_int(a->seeds_s, 1, 1000, &seeds, &e)) { sl_cli_msg(CMD, "--seeds: %s", e.msg); return 2; }
    if (sl_sweep_parse(&o->sweep, ns, nn, a->datasets_s, a->variants_s, a->dtype_s, seeds, a->baseline_s, &e)) {
        sl_cli_msg(CMD, "%s", e.msg);
        return 2;
    }
    snprintf(o->sweep.sweep.params, sizeof o->sweep.sweep.params, "%s", a->params);
    o->params_given = a->params[0] != '\0';
    if (sl_exp_user_params_check(&o->sweep.sweep, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 2; }
    o->sweep_given = (a->n_s ? SL_GIVEN_N : 0) | (a->datasets_s ? SL_GIVEN_DATASETS : 0) |
                     (a->variants_s ? SL_GIVEN_VARIANTS : 0) | (a->dtype_s ? SL_GIVEN_DTYPES : 0) |
                     (a->seeds_s ? SL_GIVEN_SEEDS : 0) | (a->baseline_s ? SL_GIVEN_BASELINE : 0);
    if (sl_threads_choose(a->threads_s, &o->threads, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 2; }
    /* --files: the files give each input's n and dtype, and are the only inputs */
    if (a->files_s) {
        const char *clash = a->n_s ? "--n" : a->datasets_s ? "--datasets" : a->dtype_s ? "--dtype"
                          : a->params[0] ? "--param" : NULL;
        if (clash) {
            sl_cli_msg(CMD, "--files and %s do not go together (the files give the inputs, their n and dtype)", clash);
            return 2;
        }
        o->files = a->files_s;
    }
    /* --figures paper: plots/render.sh's publication mode (SUMLAB_FIGURES); with --report-only,
     * --variants chooses the variants the charts draw (SUMLAB_FIGURE_VARIANTS; names checked above) */
    if (a->figures_s) {
        if (strcmp(a->figures_s, "paper") && strcmp(a->figures_s, "screen")) {
            sl_cli_msg(CMD, "--figures: '%s' is not 'paper' or 'screen'", a->figures_s);
            return 2;
        }
        setenv("SUMLAB_FIGURES", a->figures_s, 1);
    }
    if (o->report_only && a->variants_s) setenv("SUMLAB_FIGURE_VARIANTS", a->variants_s, 1);
    const char *mr = getenv("SUMLAB_MAX_ROWS");
    if (mr && *mr && sl_parse_int(mr, 1, LONG_MAX, &o->max_rows, &e)) {
        sl_cli_msg(CMD, "SUMLAB_MAX_ROWS: %s", e.msg);
        return 2;
    }
    /* GPU repetition budgets: one value for all (SUMLAB_NONDET_BUDGET_MS, its older name, too) */
    const char *nb = getenv("SUMLAB_REP_BUDGET_MS");
    const char *nb_name = "SUMLAB_REP_BUDGET_MS";
    if (!nb || !*nb) { nb = getenv("SUMLAB_NONDET_BUDGET_MS"); nb_name = "SUMLAB_NONDET_BUDGET_MS"; }
    if (nb && *nb) {
        if (sl_parse_double(nb, &o->rep_budget_ms, &e) || !isfinite(o->rep_budget_ms) || o->rep_budget_ms < 0) {
            sl_cli_msg(CMD, "%s: '%s' is not a number of milliseconds (0: no budget)", nb_name, nb);
            return 2;
        }
        o->rep_budget_given = 1;
    }
    return -1;
}

/* The report steps sl_study_run calls at the end of a run (report/ sits above study/). */
static void render_charts(const char *dir, int quiet, unsigned threads, sl_notes *notes)
{
    char th[16];
    snprintf(th, sizeof th, "%u", threads);
    setenv("SUMLAB_THREADS", th, 1);  /* render.sh: one gnuplot per thread */
    sl_charts_render(dir, quiet, notes);
}

int sl_cmd_run(int argc, char **argv)
{
    /* `ranks` runs under mpirun with its own files (experiments/mpi/exp_ranks.c) */
    for (int i = 1; i < argc; i++) {
        const char *prev = argv[i - 1];   /* "ranks" as an option's value is no experiment */
        int valued = i > 1 && prev[0] == '-' && strcmp(prev, "-q") && strcmp(prev, "--quiet") &&
                     strcmp(prev, "--resume") && strcmp(prev, "--report-only") && !strchr(prev, '=');
        if (!strcmp(argv[i], "ranks") && !valued) return sl_mpi_cmd_ranks(argc, argv);
    }
    sl_run_opts o;
    run_args a;
    memset(&o, 0, sizeof o);
    memset(&a, 0, sizeof a);
    int code = parse_args(argc, argv, &o, &a);
    if (code < 0) code = check_args(&o, &a);
    if (code >= 0) return code;
    o.argc = sl_cli_argv ? sl_cli_argc : argc;
    o.argv = sl_cli_argv ? sl_cli_argv : argv;
    o.hooks.charts = render_charts;
    o.hooks.report = sl_report_write;
    sl_err e = {{0}};
    const sl_run_status st = sl_study_run(&o, &e);
    if (st != SL_RUN_DONE && e.msg[0]) sl_cli_msg(CMD, "%s", e.msg);
    switch (st) {
    case SL_RUN_DONE: return 0;
    case SL_RUN_BAD_INPUT: return 2;
    case SL_RUN_ROW_LIMIT: return 3;
    case SL_RUN_SIGINT: return 130;
    case SL_RUN_SIGTERM: return 143;
    case SL_RUN_FAILED:
    case SL_RUN_NOTHING_MEASURED:
    default: return 1;
    }
}

/* cmd_run.c: `sumlab run EXPERIMENT`: creates (or resumes) a run directory, writes run.conf
 * and meta.json, runs the experiments of the study table (study/) row by row into results.csv
 * (each row flushed as it finishes), then renders the charts and writes report.md (report/). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "sl_cli.h"
#include "sl_gpu.h"
#include "sl_mpi.h"
#include "sumlab/pool.h"
#include "sl_provenance.h"
#include "sl_report.h"
#include "sl_study.h"

#define CMD "run"
#define SL_RUN_DEFAULT_SEED 20261129ull
/* GPU: a variant's repetitions stop once they would pass this much device time in all (its
 * first timed run tells): in the sweeps a deterministic variant's after 50 ms (they give the
 * same bits and only time it; serial at 2^26 takes ~0.34 s a run), a nondeterministic one's
 * after 60 ms (its spread is measured where runs are cheap: atomic-thread at 2^22 gets 8, at
 * 2^24 2, at 2^28 ~0.47 s one; 150 ms, 5 at 2^24, cost the H200 study 19 s more); at least one
 * run. The determinism experiment counts distinct results: 300 ms / 500 ms, at least 3.
 * SUMLAB_REP_BUDGET_MS sets every budget to one value (0: none, every repetition runs;
 * SUMLAB_NONDET_BUDGET_MS, its older name, too). */
static const sl_rep_budget sweep_budget = {50.0, 60.0, 1};
static const sl_rep_budget det_budget = {300.0, 500.0, 3};

/* ---- directories ------------------------------------------------------------------------ */
static int mkdir_p(const char *path)
{
    char *buf = strdup(path);
    if (!buf) { errno = ENOMEM; return -1; }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) && errno != EEXIST) { free(buf); return -1; }
        *p = '/';
    }
    int rc = mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
    int e = errno;
    free(buf);
    errno = e;
    return rc;
}

static int dir_state(const char *path) /* 0 missing, 1 empty dir, 2 non-empty dir, 3 not a dir */
{
    struct stat st;
    if (stat(path, &st)) return 0;
    if (!S_ISDIR(st.st_mode)) return 3;
    char probe[SL_DIR_MAX + 64];
    static const char *const files[] = {"results.csv", "run.conf", "meta.json", "report.md", NULL};
    for (int i = 0; files[i]; i++) {
        if (sl_path_join(probe, sizeof probe, path, files[i], NULL)) return 2;
        if (!stat(probe, &st)) return 2;
    }
    return 1;
}

/* 1 when dir holds run.conf or results.csv: a sumlab run was started there. */
static int run_marks(const char *dir)
{
    char p[SL_DIR_MAX + 64];
    struct stat st;
    return (!sl_path_join(p, sizeof p, dir, "run.conf", NULL) && !stat(p, &st)) ||
           (!sl_path_join(p, sizeof p, dir, "results.csv", NULL) && !stat(p, &st));
}

/* ---- the command ------------------------------------------------------------------------ */
static void usage(FILE *f)
{
    fputs("usage: sumlab run EXPERIMENT [-o DIR] [--backend auto|cpu|gpu] [--preset tiny|quick|full]\n"
          "                  [--resume] [--report-only] [--quiet] [--seed S] [--reps R]\n"
          "                  [--n LIST] [--datasets LIST] [--variants LIST] [--dtype LIST]\n"
          "                  [--seeds K] [--baseline VARIANT] [--threads N]\n\n"
          "Runs one experiment of the study (or `all`) into a results directory:\n"
          "  results.csv (a row per measurement, written as each finishes), distribution.csv\n"
          "  (each distinct result of the repetition rows with its count), meta.json (provenance),\n"
          "  charts/ (gnuplot PNG+SVG) and report.md.\n\nexperiments:\n", f);
    for (size_t i = 0; i < sl_experiment_count(); i++)
        fprintf(f, "  %-18s %s\n", sl_experiment_at(i)->name, sl_experiment_at(i)->description);
    fputs("  all                every experiment above into one directory (the default study)\n"
          "  ranks              under mpirun: sums across K = 1 .. P ranks ('sumlab run ranks --help')\n\n"
          "options:\n"
          "  -o, --output DIR   run directory (default results/<date>-<experiment>); an existing\n"
          "                     run is refused unless --resume is given\n"
          "  --backend B        auto (GPU when present), cpu (the CPU twins), gpu\n"
          "  --preset P         tiny (tests), quick (minutes on a CPU), full (the GPU study);\n"
          "                     default: full on a GPU, quick on the CPU backend\n"
          "  --resume           continue DIR where it stopped, with its settings (no duplicate rows)\n"
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
          "                     spread over them\n"
          "  --baseline V       the variant the report's sweep tables compare with (default\n"
          "                     pairwise)\n"
          "  --threads N        host threads for generating, the reference, the CPU twins, judging\n"
          "                     and the charts (default $SUMLAB_THREADS or every core); every\n"
          "                     count gives the same rows and bits (only timing columns differ)\n"
          "The sweep options are kept in run.conf; --resume continues with them.\n\n"
          "GPU: a row's repetitions stop at a device-time budget (sweeps: 50 ms deterministic,\n"
          "60 ms nondeterministic, at least 1; determinism: 300/500 ms, at least 3; the row's\n"
          "note says so); SUMLAB_REP_BUDGET_MS=MS sets every budget (0: every repetition runs).\n\n"
          "Ctrl-C (SIGINT/SIGTERM) stops after the current measurement; --resume continues.\n"
          "Exit status: 0 done, 1 runtime failure, 2 bad usage, 3 stopped by SUMLAB_MAX_ROWS,\n"
          "130/143 stopped by a signal.\n", f);
}

static void now_iso(char *b, size_t len, int compact)
{
    time_t t = time(NULL);
    struct tm tm;
    if (compact) {
        localtime_r(&t, &tm);
        strftime(b, len, "%Y%m%d-%H%M%S", &tm);
    } else {
        gmtime_r(&t, &tm);
        strftime(b, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
}

/* ---- options ---------------------------------------------------------------------------- */
typedef struct {
    const char *out_dir, *backend_s, *preset_s, *seed_s, *reps_s, *env_seed, *exp_name, *threads_s;
    unsigned threads;
    const char *n_s, *datasets_s, *variants_s, *dtype_s, *seeds_s, *baseline_s;
    sl_sweep sweep;
    char n_c[1024], datasets_c[1024], variants_c[1024], dtype_c[32], baseline_c[64];
    int resume, quiet, report_only;
    sl_preset preset;
    sl_backend backend;
    uint64_t seed;
    long reps, max_rows;
} run_opts;

/* Reads argv into o. Returns -1 to go on, else the exit code (0 after --help). */
static int parse_args(int argc, char **argv, run_opts *o)
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
        {"threads", required_argument, NULL, 'H'},
        {NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->out_dir = optarg; break;
        case 'b': o->backend_s = optarg; break;
        case 'p': o->preset_s = optarg; break;
        case 'r': o->resume = 1; break;
        case 'q': o->quiet = 1; break;
        case 's': o->seed_s = optarg; break;
        case 'R': o->reps_s = optarg; break;
        case 'P': o->report_only = 1; break;
        case 'N': o->n_s = optarg; break;
        case 'D': o->datasets_s = optarg; break;
        case 'V': o->variants_s = optarg; break;
        case 'T': o->dtype_s = optarg; break;
        case 'K': o->seeds_s = optarg; break;
        case 'L': o->baseline_s = optarg; break;
        case 'H': o->threads_s = optarg; break;
        case 'h': usage(stdout); return 0;
        default: return sl_cli_bad_option(CMD, c, argv, optind, optopt);
        }
    }
    if (optind >= argc && o->report_only) return -1;   /* the experiment is DIR's (run.conf) */
    if (optind >= argc) {
        sl_cli_msg(CMD, "which experiment? (accuracy-vs-n, accuracy-vs-cond, accuracy-vs-range, "
                        "determinism, throughput-vs-n, tradeoff, all; see 'sumlab run --help')");
        return 2;
    }
    if (optind + 1 < argc) {
        sl_cli_msg(CMD, "unexpected argument '%s' (one experiment per run; `all` runs every one)", argv[optind + 1]);
        return 2;
    }
    o->exp_name = argv[optind];
    return -1;
}

/* ---- the sweep: each list parsed into o->sweep and its canonical text (for run.conf) ------- */
static void join(char *out, size_t len, const char *item)
{
    size_t l = strlen(out);
    snprintf(out + l, len - l, "%s%s", l ? "," : "", item);
}

/* The items of a comma-separated list one by one: f(item) returns 0 or the exit code. */
static int each_item(const char *opt, const char *list, int (*f)(run_opts *, const char *), run_opts *o)
{
    if (!*list) { sl_cli_msg(CMD, "%s: empty list", opt); return 2; }
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[128];
        if (len == 0 || len >= sizeof item) {
            sl_cli_msg(CMD, "%s: malformed list '%s'", opt, list);
            return 2;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        int rc = f(o, item);
        if (rc) return rc;
        if (!p[len]) return 0;
        p += len + 1;
    }
}

static int n_item(run_opts *o, const char *s)
{
    sl_err e = {{0}};
    uint64_t v;
    if (sl_parse_u64(s, &v, &e)) { sl_cli_msg(CMD, "--n: %s", e.msg); return 2; }
    if (v < 1) { sl_cli_msg(CMD, "--n: n must be at least 1 (got '%s')", s); return 2; }
    if (o->sweep.nn >= SL_SWEEP_MAX) { sl_cli_msg(CMD, "--n: at most %d sizes", SL_SWEEP_MAX); return 2; }
    for (int i = 0; i < o->sweep.nn; i++)
        if (o->sweep.n[i] == v) { sl_cli_msg(CMD, "--n: %s given twice", s); return 2; }
    o->sweep.n[o->sweep.nn++] = v;
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    join(o->n_c, sizeof o->n_c, b);
    return 0;
}

static int ds_item(run_opts *o, const char *s)
{
    const sl_dataset *ds = sl_dataset_find(s);
    if (!ds) { sl_cli_msg(CMD, "--datasets: unknown dataset '%s' (see 'sumlab list datasets')", s); return 2; }
    if (o->sweep.nds >= SL_SWEEP_MAX) { sl_cli_msg(CMD, "--datasets: at most %d", SL_SWEEP_MAX); return 2; }
    for (int i = 0; i < o->sweep.nds; i++)
        if (o->sweep.ds[i] == ds) { sl_cli_msg(CMD, "--datasets: '%s' given twice", s); return 2; }
    o->sweep.ds[o->sweep.nds++] = ds;
    join(o->datasets_c, sizeof o->datasets_c, ds->name);
    return 0;
}

static int v_item(run_opts *o, const char *s)
{
    const sl_variant *v = sl_variant_find(s);
    if (!v) { sl_cli_msg(CMD, "--variants: unknown variant '%s' (see 'sumlab list variants')", s); return 2; }
    if (o->sweep.nv >= SL_SWEEP_MAX) { sl_cli_msg(CMD, "--variants: at most %d", SL_SWEEP_MAX); return 2; }
    for (int i = 0; i < o->sweep.nv; i++)
        if (o->sweep.v[i] == v) { sl_cli_msg(CMD, "--variants: '%s' given twice", s); return 2; }
    o->sweep.v[o->sweep.nv++] = v;
    join(o->variants_c, sizeof o->variants_c, v->name);
    return 0;
}

static int dt_item(run_opts *o, const char *s)
{
    sl_dtype dt;
    if (sl_dtype_parse(s, &dt)) { sl_cli_msg(CMD, "--dtype: unsupported dtype '%s' (f32, f64, f16 or bf16)", s); return 2; }
    if (o->sweep.dtypes & SL_DTYPE_MASK(dt)) { sl_cli_msg(CMD, "--dtype: '%s' given twice", s); return 2; }
    o->sweep.dtypes |= SL_DTYPE_MASK(dt);
    o->dtype_c[0] = '\0';      /* canonical order: f32, f64, f16, bf16 */
    for (int k = 0; k < SL_NDTYPES; k++)
        if (o->sweep.dtypes & SL_DTYPE_MASK(k)) join(o->dtype_c, sizeof o->dtype_c, sl_dtype_name((sl_dtype)k));
    return 0;
}

/* Parses the sweep options (strings from the command line or run.conf, NULL when absent). */
static int parse_sweep(run_opts *o, const char *n, const char *ds, const char *vs, const char *dt,
                       const char *seeds, const char *baseline)
{
    memset(&o->sweep, 0, sizeof o->sweep);
    o->n_c[0] = o->datasets_c[0] = o->variants_c[0] = o->dtype_c[0] = o->baseline_c[0] = '\0';
    int rc = 0;
    if (n && (rc = each_item("--n", n, n_item, o))) return rc;
    if (ds && (rc = each_item("--datasets", ds, ds_item, o))) return rc;
    if (vs && (rc = each_item("--variants", vs, v_item, o))) return rc;
    if (dt && (rc = each_item("--dtype", dt, dt_item, o))) return rc;
    o->sweep.seeds = 1;
    if (seeds) {
        long k;
        sl_err e = {{0}};
        if (sl_parse_int(seeds, 1, 1000, &k, &e)) { sl_cli_msg(CMD, "--seeds: %s", e.msg); return 2; }
        o->sweep.seeds = (int)k;
    }
    if (baseline) {
        if (!sl_variant_find(baseline)) {
            sl_cli_msg(CMD, "--baseline: unknown variant '%s' (see 'sumlab list variants')", baseline);
            return 2;
        }
        snprintf(o->baseline_c, sizeof o->baseline_c, "%s", baseline);
    }
    return 0;
}

/* Checks and converts the option values. Returns -1 to go on, else the exit code. */
static int check_args(run_opts *o)
{
    if (o->exp_name && strcmp(o->exp_name, "all") && !sl_experiment_find(o->exp_name)) {
        sl_cli_msg(CMD, "unknown experiment '%s' (accuracy-vs-n, accuracy-vs-cond, accuracy-vs-range, "
                        "determinism, throughput-vs-n, tradeoff, all)", o->exp_name);
        return 2;
    }
    o->preset = SL_PRESET_QUICK;
    if (o->preset_s && sl_preset_parse(o->preset_s, &o->preset)) {
        sl_cli_msg(CMD, "unknown preset '%s' (tiny, quick or full)", o->preset_s);
        return 2;
    }
    o->backend = SL_BACKEND_AUTO;
    if (o->backend_s && sl_backend_parse(o->backend_s, &o->backend)) {
        sl_cli_msg(CMD, "unknown backend '%s' (auto, cpu or gpu)", o->backend_s);
        return 2;
    }
    sl_err e = {{0}};
    o->seed = SL_RUN_DEFAULT_SEED;
    o->env_seed = getenv("SUMLAB_SEED");
    if (o->seed_s) {
        if (sl_parse_u64(o->seed_s, &o->seed, &e)) { sl_cli_msg(CMD, "--seed: %s", e.msg); return 2; }
    } else if (o->env_seed && *o->env_seed) {
        if (sl_parse_u64(o->env_seed, &o->seed, &e)) { sl_cli_msg(CMD, "SUMLAB_SEED: %s", e.msg); return 2; }
    }
    o->reps = 0;
    if (o->reps_s && sl_parse_int(o->reps_s, 1, 1000000, &o->reps, &e)) { sl_cli_msg(CMD, "--reps: %s", e.msg); return 2; }
    int src = parse_sweep(o, o->n_s, o->datasets_s, o->variants_s, o->dtype_s, o->seeds_s, o->baseline_s);
    if (src) return src;
    if (sl_threads_choose(o->threads_s, &o->threads, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 2; }
    o->max_rows = 0;
    const char *mr = getenv("SUMLAB_MAX_ROWS");
    if (mr && *mr && sl_parse_int(mr, 1, LONG_MAX, &o->max_rows, &e)) {
        sl_cli_msg(CMD, "SUMLAB_MAX_ROWS: %s", e.msg);
        return 2;
    }
    return -1;
}

/* --report-only: charts and report.md of an existing run, measuring nothing (e.g. here, with
 * gnuplot, for a run made on a GPU machine without it). */
static int report_only(const run_opts *o)
{
    if (!o->out_dir) { sl_cli_msg(CMD, "--report-only needs -o DIR (the run to report)"); return 2; }
    sl_err le = {{0}};
    if (sl_check_dir_len(o->out_dir, &le)) { sl_cli_msg(CMD, "-o: %s", le.msg); return 2; }
    sl_runconf rc0;
    if (sl_runconf_read(o->out_dir, &rc0)) { sl_cli_msg(CMD, "'%s' is not a sumlab run directory (no run.conf)", o->out_dir); return 2; }
    int lock = -1, lr = sl_run_lock(o->out_dir, &lock, &le);   /* held until exit */
    if (lr) { sl_cli_msg(CMD, "%s", le.msg); return lr == 1 ? 2 : 1; }
    sl_notes notes;
    memset(&notes, 0, sizeof notes);
    sl_err e = {{0}};
    char th[16];
    snprintf(th, sizeof th, "%u", o->threads);
    setenv("SUMLAB_THREADS", th, 1);  /* render.sh: one gnuplot per thread */
    sl_charts_render(o->out_dir, o->quiet, &notes);
    if (sl_report_write(o->out_dir, &notes, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 1; }
    if (!o->quiet) fprintf(stderr, "sumlab run: report: %s/report.md, %s/report.html\n", o->out_dir, o->out_dir);
    return 0;
}

/* The run directory: -o DIR, or results/<date>-<experiment>[-K] (no trailing '/'). */
static int choose_dir(const run_opts *o, char *dir, size_t len)
{
    char stamp[32];
    if (o->out_dir) {
        sl_err e = {{0}};
        if (strlen(o->out_dir) >= len || sl_check_dir_len(o->out_dir, &e)) {
            if (!e.msg[0]) sl_check_dir_len(o->out_dir, &e);
            sl_cli_msg(CMD, "-o: %s", e.msg);
            return 2;
        }
        snprintf(dir, len, "%s", o->out_dir);
    } else {
        if (o->resume) { sl_cli_msg(CMD, "--resume needs -o DIR (the run to continue)"); return 2; }
        now_iso(stamp, sizeof stamp, 1);
        snprintf(dir, len, "results/%s-%s", stamp, o->exp_name);
        for (int k = 2; dir_state(dir) != 0 && k < 100; k++)
            snprintf(dir, len, "results/%s-%s-%d", stamp, o->exp_name, k);
    }
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/') dir[--dl] = '\0';
    return -1;
}

/* --resume: the settings of run.conf, checked against the options given, replace them. */
static int resume_settings(run_opts *o, const char *dir, int st, sl_runconf *conf)
{
    int cr = st == 3 ? -1 : sl_runconf_read(dir, conf);
    if (cr == -1) {
        sl_cli_msg(CMD, "cannot resume '%s': %s", dir,
                   st == 0 ? "no such directory" : st == 3 ? "not a directory" : "no run.conf there (not a sumlab run directory)");
        return 2;
    }
    if (cr == -2) {
        if (!sl_run_has_rows(dir))
            sl_cli_msg(CMD, "cannot resume '%s': run.conf is malformed and no row was measured there; "
                            "start the run over (the same command without --resume)", dir);
        else
            sl_cli_msg(CMD, "cannot resume '%s': run.conf is malformed", dir);
        return 2;
    }
    if (strcmp(conf->experiment, o->exp_name)) {
        sl_cli_msg(CMD, "'%s' holds a run of '%s', not '%s'", dir, conf->experiment, o->exp_name);
        return 2;
    }
    if (o->preset_s && strcmp(conf->preset, sl_preset_name(o->preset))) {
        sl_cli_msg(CMD, "'%s' was started with --preset %s; resume it with the same preset (or none)", dir, conf->preset);
        return 2;
    }
    if ((o->seed_s || (o->env_seed && *o->env_seed)) && conf->seed != o->seed) {
        sl_cli_msg(CMD, "'%s' was started with seed %llu, not %llu", dir, conf->seed, (unsigned long long)o->seed);
        return 2;
    }
    if (o->reps_s && conf->reps != o->reps) {
        sl_cli_msg(CMD, "'%s' was started with --reps %ld; resume it with the same value (or none)", dir, conf->reps);
        return 2;
    }
    if (o->backend_s && o->backend != SL_BACKEND_AUTO &&
        strcmp(conf->backend, o->backend == SL_BACKEND_GPU ? "gpu" : "cpu")) {
        sl_cli_msg(CMD, "'%s' was run on the %s backend; resume it there", dir, conf->backend);
        return 2;
    }
    /* the sweep: what is given must be what the run was started with */
    char given_seeds[32];
    snprintf(given_seeds, sizeof given_seeds, "%d", o->sweep.seeds);
    const struct { const char *opt, *given, *canon, *stored; } sw[] = {
        {"--n", o->n_s, o->n_c, conf->n},                 {"--datasets", o->datasets_s, o->datasets_c, conf->datasets},
        {"--variants", o->variants_s, o->variants_c, conf->variants}, {"--dtype", o->dtype_s, o->dtype_c, conf->dtypes},
        {"--baseline", o->baseline_s, o->baseline_c, conf->baseline},
    };
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++)
        if (sw[i].given && strcmp(sw[i].canon, sw[i].stored)) {
            sl_cli_msg(CMD, "'%s' was started with %s '%s'; resume it with the same value (or none)", dir,
                       sw[i].opt, sw[i].stored[0] ? sw[i].stored : "(none)");
            return 2;
        }
    if (o->seeds_s && o->sweep.seeds != conf->seeds) {
        sl_cli_msg(CMD, "'%s' was started with --seeds %ld; resume it with the same value (or none)", dir, conf->seeds);
        return 2;
    }
    char cs[32];
    snprintf(cs, sizeof cs, "%ld", conf->seeds);
    int prc = parse_sweep(o, conf->n[0] ? conf->n : NULL, conf->datasets[0] ? conf->datasets : NULL,
                          conf->variants[0] ? conf->variants : NULL, conf->dtypes[0] ? conf->dtypes : NULL, cs,
                          conf->baseline[0] ? conf->baseline : NULL);
    if (prc) { sl_cli_msg(CMD, "run.conf of '%s' holds a sweep this sumlab cannot read", dir); return 2; }
    (void)given_seeds;
    if (sl_preset_parse(conf->preset, &o->preset)) { sl_cli_msg(CMD, "run.conf: unknown preset '%s'", conf->preset); return 2; }
    o->seed = conf->seed;
    o->reps = conf->reps;
    o->backend = !strcmp(conf->backend, "gpu") ? SL_BACKEND_GPU : SL_BACKEND_CPU;
    return -1;
}

/* The backend and the run's settings; a new run's directory and run.conf. */
static int start_run(run_opts *o, const char *dir, sl_runconf *conf, sl_run *run, sl_gpu_info *gi,
                     sl_err *why)
{
    memset(run, 0, sizeof *run);
    if (pthread_mutex_init(&run->buf_mu, NULL)) {
        sl_cli_msg(CMD, "cannot create a lock (pthread_mutex_init failed)");
        return 1;
    }
    snprintf(run->dir, sizeof run->dir, "%s", dir);
    memset(gi, 0, sizeof *gi);
    int gpu = o->backend != SL_BACKEND_CPU && sl_gpu_available(gi, why) == 1;
    if (o->backend == SL_BACKEND_GPU && !gpu) {
        sl_cli_msg(CMD, "--backend gpu: no usable GPU (%s)", why->msg[0] ? why->msg : "unknown reason");
        return o->resume ? 1 : 2;
    }
    run->on_gpu = gpu;
    run->backend = gpu ? SL_BACKEND_GPU : SL_BACKEND_CPU;
    run->gpu_sm_count = gpu && gi->sm_count > 0 ? (uint32_t)gi->sm_count : SL_DEFAULT_SM_COUNT;
    if (!o->resume && !o->preset_s) o->preset = gpu ? SL_PRESET_FULL : SL_PRESET_QUICK;
    run->preset = o->preset;
    run->seed = o->seed;
    run->reps_override = (int)o->reps;
    run->quiet = o->quiet;
    run->max_rows = o->max_rows;
    run->sweep = o->sweep;
    run->threads = o->threads;
    if (gpu) {
        run->sweep_budget = sweep_budget;
        run->det_budget = det_budget;
    }
    const char *nb = getenv("SUMLAB_REP_BUDGET_MS");
    if (!nb || !*nb) nb = getenv("SUMLAB_NONDET_BUDGET_MS");
    if (gpu && nb && *nb) {
        const double ms = atof(nb);
        run->sweep_budget = (sl_rep_budget){ms, ms, ms > 0 ? 1 : 0};
        run->det_budget = (sl_rep_budget){ms, ms, ms > 0 ? 3 : 0};
    }
    if (o->resume) return -1;
    snprintf(conf->experiment, sizeof conf->experiment, "%s", o->exp_name);
    snprintf(conf->preset, sizeof conf->preset, "%s", sl_preset_name(o->preset));
    snprintf(conf->backend, sizeof conf->backend, "%s", gpu ? "gpu" : "cpu");
    conf->seed = (unsigned long long)o->seed;
    conf->reps = o->reps;
    snprintf(conf->n, sizeof conf->n, "%s", o->n_c);
    snprintf(conf->datasets, sizeof conf->datasets, "%s", o->datasets_c);
    snprintf(conf->variants, sizeof conf->variants, "%s", o->variants_c);
    snprintf(conf->dtypes, sizeof conf->dtypes, "%s", o->dtype_c);
    snprintf(conf->baseline, sizeof conf->baseline, "%s", o->baseline_c);
    conf->seeds = o->sweep.seeds;
    now_iso(conf->started, sizeof conf->started, 0);
    sl_err e = {{0}};
    if (sl_runconf_write(dir, conf, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 1; }
    return -1;
}

/* Plans and runs the experiments of o->exp_name; 0, or -1 with err. */
static int run_experiments(const run_opts *o, sl_run *run, double *secs, sl_err *err)
{
    const sl_experiment *todo[16];
    size_t ntodo = 0;
    for (size_t i = 0; i < sl_experiment_count() && ntodo < 16; i++)
        if (!strcmp(o->exp_name, "all") || !strcmp(o->exp_name, sl_experiment_at(i)->name))
            todo[ntodo++] = sl_experiment_at(i);
    double total = 0;
    for (size_t i = 0; i < ntodo; i++) total += todo[i]->plan(run);
    run->prog = sl_progress_new(o->quiet, total);
    sl_progress_set_steps(run->prog, run->plan_steps);
    sl_study_signals_catch(o->quiet);
    int rc = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < ntodo && !rc && !sl_run_stopped(run); i++) {
        int erc = todo[i]->exec(run, err);
        if (erc) {             /* the rows of the input still in flight are written all the same */
            sl_err fe = {{0}};
            sl_study_flush(run, &fe);
        } else {
            erc = sl_study_flush(run, err);
        }
        if (erc) {
            sl_progress_msg(run->prog, "error: %s", err->msg);
            rc = -1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    run->phases.total = *secs;
    sl_study_pipe_end(run);
    sl_hostbuf_end(run);
    sl_progress_free(run->prog);
    run->prog = NULL;
    return rc;
}

/* Notes, charts, report.md and the last lines; returns the exit code. */
static int finish_run(const run_opts *o, const char *dir, sl_run *run, int rc, int sig, double secs,
                      const sl_err *e)
{
    int stopped = sig || run->stop;
    if (stopped)
        sl_notes_add(&run->notes, "this run is incomplete (stopped after %ld new rows%s); continue it with "
                                  "`sumlab run %s -o %s --resume`", run->rows_written,
                     sig ? " by a signal" : " by SUMLAB_MAX_ROWS", o->exp_name, dir);
    if (rc) sl_notes_add(&run->notes, "this run stopped on an error: %s", e->msg);
    char th[16];
    snprintf(th, sizeof th, "%u", o->threads);
    setenv("SUMLAB_THREADS", th, 1);  /* render.sh: one gnuplot per thread */
    double t0 = sl_now_s();
    sl_charts_render(dir, o->quiet, &run->notes);
    run->phases.render = sl_now_s() - t0;
    sl_err re = {{0}};
    t0 = sl_now_s();
    int rep = sl_report_write(dir, &run->notes, &re);
    run->phases.report = sl_now_s() - t0;
    if (rep) sl_cli_msg(CMD, "report not written: %s", re.msg);
    sl_err pe = {{0}};
    if (sl_phases_report(run, o->quiet, &pe)) sl_cli_msg(CMD, "timing not recorded: %s", pe.msg);
    if (!o->quiet) {
        fprintf(stderr, "sumlab run: %ld rows written (%ld from before) in %.1f s\n", run->rows_written,
                run->res.rows_before, secs);
        if (!rep) fprintf(stderr, "sumlab run: report: %s/report.md, %s/report.html\n", dir, dir);
        if (stopped)
            fprintf(stderr, "sumlab run: incomplete; continue with: sumlab run %s -o %s --resume\n", o->exp_name, dir);
    }
    if (rc) return 1;
    if (sig) return 128 + sig;
    if (run->stop) return 3;
    return rep ? 1 : 0;
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
    run_opts o;
    memset(&o, 0, sizeof o);
    int code = parse_args(argc, argv, &o);
    if (code < 0) code = check_args(&o);
    if (code >= 0) return code;
    if (o.report_only) return report_only(&o);

    char dir[SL_DIR_MAX + 1];
    if ((code = choose_dir(&o, dir, sizeof dir)) >= 0) return code;
    sl_runconf conf;
    memset(&conf, 0, sizeof conf);
    int st = dir_state(dir);
    if (!o.resume && st == 3) { sl_cli_msg(CMD, "'%s' exists and is not a directory", dir); return 2; }
    if (!o.resume && st == 0 && mkdir_p(dir)) { sl_cli_msg(CMD, "cannot create '%s': %s", dir, strerror(errno)); return 1; }
    /* The directory is this run's until it ends: a second run or resume is refused here, so
     * two writers never share results.csv. */
    int lock = -1;
    sl_err le = {{0}};
    if (!o.resume || st == 1 || st == 2) {
        int lr = sl_run_lock(dir, &lock, &le);
        if (lr) { sl_cli_msg(CMD, "%s", le.msg); return lr == 1 ? 2 : 1; }
    }
    st = dir_state(dir);
    if (o.resume) {
        if ((code = resume_settings(&o, dir, st, &conf)) >= 0) { sl_run_unlock(lock); return code; }
    } else if (st == 2) {
        if (sl_run_has_rows(dir) || !run_marks(dir)) {   /* rows, or not a run's files */
            sl_cli_msg(CMD, "'%s' already holds a run: add --resume to continue it, or -o a new directory", dir);
            sl_run_unlock(lock);
            return 2;
        }
        /* started before, but not one row measured (killed in its first moments): start over */
        if (sl_run_clear(dir, &le)) { sl_cli_msg(CMD, "%s", le.msg); sl_run_unlock(lock); return 1; }
        if (!o.quiet) fprintf(stderr, "sumlab run: '%s' holds no measured row: starting it over\n", dir);
    }
    sl_run run;
    sl_gpu_info gi;
    sl_err why = {{0}}, e = {{0}};
    if ((code = start_run(&o, dir, &conf, &run, &gi, &why)) >= 0) { sl_run_unlock(lock); return code; }
    sl_provenance prov;
    if (sl_cli_argv) sl_provenance_collect(&prov, sl_cli_argc, sl_cli_argv);
    else sl_provenance_collect(&prov, argc, argv);
    if (sl_meta_write(dir, &conf, o.resume, &prov, &e)) { sl_cli_msg(CMD, "%s", e.msg); sl_run_unlock(lock); return 1; }
    if (sl_results_open(&run.res, dir, o.resume, o.quiet, &e)) {
        sl_cli_msg(CMD, "%s", e.msg);
        sl_results_close(&run.res, NULL);
        sl_keyset_free(&run.res.keys);
        sl_run_unlock(lock);
        return o.resume ? 2 : 1;
    }
    if (!o.quiet) {
        fprintf(stderr, "sumlab run: %s -> %s (%s backend%s%s, preset %s, seed %llu, %u threads)%s\n", o.exp_name, dir,
                run.on_gpu ? "GPU" : "CPU", run.on_gpu ? ": " : "", run.on_gpu ? gi.name : "",
                sl_preset_name(o.preset), (unsigned long long)o.seed, o.threads, o.resume ? ", resuming" : "");
        if (!run.on_gpu && o.backend == SL_BACKEND_AUTO && why.msg[0])
            fprintf(stderr, "sumlab run: no GPU (%s): running the CPU twins\n", why.msg);
        if (o.resume) fprintf(stderr, "sumlab run: %ld rows already done\n", run.res.rows_before);
    }
    if (!run.on_gpu && o.preset == SL_PRESET_FULL) {
        char why[600];
        snprintf(why, sizeof why, "preset full on the CPU backend keeps %s; the GPU study's 2^28 is left "
                 "out because the CPU twins replay the GPU's order of operations one value at a time on one "
                 "core, for every variant and repetition, which at 2^28 takes hours per point",
                 run.sweep.nn ? "the sizes --n gives" : "accuracy-vs-n at n = 2^10 .. 2^22, the cond and range "
                 "sweeps at n = 2^16, determinism at 2^18 and the tradeoff at 2^20 (--n chooses others)");
        if (!o.quiet) fprintf(stderr, "sumlab run: %s\n", why);
        sl_notes_add(&run.notes, "%s", why);
    }
    if (!run.on_gpu)
        sl_notes_add(&run.notes, "CPU backend: a deterministic variant's twin is a pure function of the input and "
                                 "the launch configuration, so it runs once per input and configuration (its rows "
                                 "have reps 1 and say so); nondeterministic twins run every repetition, each with "
                                 "its own commit order");
    double secs = 0;
    int rc = run_experiments(&o, &run, &secs, &e);
    sl_err ce = {{0}};
    if (sl_results_close(&run.res, &ce) && !rc) {
        rc = -1;
        e = ce;
        sl_cli_msg(CMD, "%s", ce.msg);
    }
    int sig = sl_study_signals_restore();
    code = finish_run(&o, dir, &run, rc, sig, secs, &e);
    sl_keyset_free(&run.res.keys);
    sl_run_unlock(lock);
    return code;
}

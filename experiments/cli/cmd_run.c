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
#include "sl_provenance.h"
#include "sl_report.h"
#include "sl_study.h"

#define CMD "run"
#define SL_RUN_DEFAULT_SEED 20261129ull

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
          "                  [--resume] [--report-only] [--quiet] [--seed S] [--reps R]\n\n"
          "Runs one experiment of the study (or `all`) into a results directory:\n"
          "  results.csv (a row per measurement, written as each finishes), distribution.csv\n"
          "  (each distinct result of the repetition rows with its count), meta.json (provenance),\n"
          "  charts/ (gnuplot PNG+SVG) and report.md.\n\nexperiments:\n", f);
    for (size_t i = 0; i < sl_experiment_count(); i++)
        fprintf(f, "  %-18s %s\n", sl_experiment_at(i)->name, sl_experiment_at(i)->description);
    fputs("  all                every experiment above into one directory (the default study)\n\n"
          "options:\n"
          "  -o, --output DIR   run directory (default results/<date>-<experiment>); an existing\n"
          "                     run is refused unless --resume is given\n"
          "  --backend B        auto (GPU when present), cpu (the CPU twins), gpu\n"
          "  --preset P         tiny (tests), quick (minutes on a CPU), full (the GPU study);\n"
          "                     default: full on a GPU, quick on the CPU backend\n"
          "  --resume           continue DIR where it stopped, with its settings (no duplicate rows)\n"
          "  --report-only      re-render DIR's charts and rewrite its report.md; measure nothing\n"
          "  -q, --quiet        no progress output\n"
          "  --seed S           dataset seed (default $SUMLAB_SEED or 20261129)\n"
          "  --reps R           repetitions per measurement for every experiment (default: the\n"
          "                     preset's; determinism uses 100 in the full preset)\n\n"
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
    const char *out_dir, *backend_s, *preset_s, *seed_s, *reps_s, *env_seed, *exp_name;
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
        case 'h': usage(stdout); return 0;
        default: return sl_cli_bad_option(CMD, c, argv, optind, optopt);
        }
    }
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

/* Checks and converts the option values. Returns -1 to go on, else the exit code. */
static int check_args(run_opts *o)
{
    if (strcmp(o->exp_name, "all") && !sl_experiment_find(o->exp_name)) {
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
    sl_charts_render(o->out_dir, o->quiet, &notes);
    if (sl_report_write(o->out_dir, &notes, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 1; }
    if (!o->quiet) fprintf(stderr, "sumlab run: report: %s/report.md\n", o->out_dir);
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
    if (o->resume) return -1;
    snprintf(conf->experiment, sizeof conf->experiment, "%s", o->exp_name);
    snprintf(conf->preset, sizeof conf->preset, "%s", sl_preset_name(o->preset));
    snprintf(conf->backend, sizeof conf->backend, "%s", gpu ? "gpu" : "cpu");
    conf->seed = (unsigned long long)o->seed;
    conf->reps = o->reps;
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
    sl_study_signals_catch(o->quiet);
    int rc = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < ntodo && !rc && !sl_run_stopped(run); i++) {
        if (todo[i]->exec(run, err)) {
            sl_progress_msg(run->prog, "error: %s", err->msg);
            rc = -1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
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
    sl_charts_render(dir, o->quiet, &run->notes);
    sl_err re = {{0}};
    int rep = sl_report_write(dir, &run->notes, &re);
    if (rep) sl_cli_msg(CMD, "report not written: %s", re.msg);
    if (!o->quiet) {
        fprintf(stderr, "sumlab run: %ld rows written (%ld from before) in %.1f s\n", run->rows_written,
                run->res.rows_before, secs);
        if (!rep) fprintf(stderr, "sumlab run: report: %s/report.md\n", dir);
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
        fprintf(stderr, "sumlab run: %s -> %s (%s backend%s%s, preset %s, seed %llu)%s\n", o.exp_name, dir,
                run.on_gpu ? "GPU" : "CPU", run.on_gpu ? ": " : "", run.on_gpu ? gi.name : "",
                sl_preset_name(o.preset), (unsigned long long)o.seed, o.resume ? ", resuming" : "");
        if (!run.on_gpu && o.backend == SL_BACKEND_AUTO && why.msg[0])
            fprintf(stderr, "sumlab run: no GPU (%s): running the CPU twins\n", why.msg);
        if (o.resume) fprintf(stderr, "sumlab run: %ld rows already done\n", run.res.rows_before);
    }
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

/* run.c: `sumlab run EXPERIMENT`: the study runner. Creates (or resumes) a run directory,
 * writes meta.json, runs the experiments of sl_experiment table row by row into
 * results.csv (each row flushed as it finishes), then renders the charts (plots/render.sh)
 * and writes report.md. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sl_cli.h"
#include "sl_experiments.h"
#include "sl_format.h"
#include "sl_gpu.h"
#include "sl_provenance.h"

extern char **environ;

#define CMD "run"
#define SL_RUN_DEFAULT_SEED 20261129ull

/* ---- presets and the experiment table --------------------------------------------------- */
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

int sl_run_stopped(const sl_run *run) { return run->stop || g_signal != 0; }

/* ---- helpers shared by the experiments ---------------------------------------------------- */
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

void *sl_exp_generate(const sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt,
                      uint64_t n, sl_err *err)
{
    size_t bytes = (size_t)n * sl_dtype_size(dt);
    void *x = malloc(bytes ? bytes : 1);
    if (!x) {
        sl_err_set(err, "out of memory for %llu values", (unsigned long long)n);
        return NULL;
    }
    if (sl_dataset_generate(ds, dt, run->seed, n, p, 0, n, x, err)) {
        free(x);
        return NULL;
    }
    return x;
}

/* Largest n for which a GPU result is also checked against its CPU twin (the twin emulates
 * the GPU's order on one core: beyond this it costs more than the whole GPU sweep). */
#define SL_TWIN_CHECK_MAX_N ((uint64_t)1 << 22)

int sl_exp_measure_all(sl_run *run, const sl_rowctx *c, const void *x, const sl_launch *req,
                       int reps_det, int reps_nondet, int dist, sl_err *err)
{
    int todo = 0;
    for (size_t i = 0; i < sl_variant_count(); i++)
        todo += !sl_run_has(run, c, sl_variant_at(i)->name);
    if (!todo) return 0;
    sl_session *s = NULL;
    if (sl_session_open(&s, x, c->n, c->dt, run->backend, 0, NULL, 0, err)) return -1;
    const sl_reference *ref = sl_session_reference(s);
    int rc = 0;
    for (size_t i = 0; i < sl_variant_count() && !sl_run_stopped(run); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (sl_run_has(run, c, v->name)) continue;
        int reps = v->determinism == SL_DET_NONDETERMINISTIC ? reps_nondet : reps_det;
        sl_row row;
        sl_err e = {{0}};
        int m = sl_measure(s, v, req, reps, run->on_gpu && c->n <= SL_TWIN_CHECK_MAX_N, &row, &e);
        if (m == 1) {
            rc = sl_run_write(run, c, v, v->name, "skipped", NULL, ref, 0, e.msg, err);
        } else if (m < 0) {
            rc = sl_err_set(err, "%s: %s on %s %s n=%llu (%s): %s", c->experiment, v->name,
                      c->ds ? c->ds->name : "-", sl_dtype_name(c->dt), (unsigned long long)c->n,
                      c->config, e.msg);
        } else {
            const char *note = (row.twin_checked && !row.twin_match) ? "GPU result differs from its CPU twin" : "";
            rc = sl_run_write(run, c, v, v->name, "ok", &row, ref, dist, note, err);
            sl_row_free(&row);
        }
        if (rc) break;
    }
    sl_session_close(s);
    return rc;
}

/* ---- run.conf: the settings a run was started with (so --resume continues alike) --------- */
typedef struct {
    char experiment[64], preset[16], backend[16], started[40];
    unsigned long long seed;
    long reps;
} run_conf;

static int conf_read(const char *dir, run_conf *c)
{
    char path[1100], line[256];
    snprintf(path, sizeof path, "%s/run.conf", dir);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    memset(c, 0, sizeof *c);
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = '\0';
        const char *k = line, *v = eq + 1;
        if (!strcmp(k, "experiment")) { snprintf(c->experiment, sizeof c->experiment, "%s", v); seen |= 1; }
        else if (!strcmp(k, "preset")) { snprintf(c->preset, sizeof c->preset, "%s", v); seen |= 2; }
        else if (!strcmp(k, "backend")) { snprintf(c->backend, sizeof c->backend, "%s", v); seen |= 4; }
        else if (!strcmp(k, "seed")) { c->seed = strtoull(v, NULL, 10); seen |= 8; }
        else if (!strcmp(k, "reps")) { c->reps = strtol(v, NULL, 10); seen |= 16; }
        else if (!strcmp(k, "started")) snprintf(c->started, sizeof c->started, "%s", v);
    }
    fclose(f);
    return seen == 31 ? 0 : -2;
}

static int conf_write(const char *dir, const run_conf *c)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/run.conf", dir);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "# sumlab run settings (read by --resume)\nexperiment=%s\npreset=%s\nbackend=%s\n"
               "seed=%llu\nreps=%ld\nstarted=%s\n",
            c->experiment, c->preset, c->backend, c->seed, c->reps, c->started);
    return fclose(f);
}

static int write_meta(const sl_run *run, const run_conf *c, int resumed, const sl_provenance *p,
                      sl_err *err)
{
    char path[1100], tmp[1200];
    snprintf(path, sizeof path, "%s/meta.json", run->dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return sl_err_set(err, "cannot write %s: %s", tmp, strerror(errno));
    fputs("{\n  \"tool\": \"sumlab run\",\n  \"experiment\": ", f);
    sl_json_string(f, c->experiment);
    fputs(",\n  \"preset\": ", f);
    sl_json_string(f, c->preset);
    fputs(",\n  \"backend\": ", f);
    sl_json_string(f, c->backend);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"reps_override\": %ld,\n  \"started\": ", c->seed, c->reps);
    sl_json_string(f, c->started);
    fprintf(f, ",\n  \"resumed\": %s,\n  \"cpu_sm_count_assumed\": %u,\n  \"files\": "
               "{\"results\": \"results.csv\", \"distribution\": \"distribution.csv\", "
               "\"report\": \"report.md\", \"charts\": \"charts/\"},\n  \"provenance\": ",
            resumed ? "true" : "false", SL_DEFAULT_SM_COUNT);
    sl_provenance_write_json(p, f, 2);
    fputs("\n}\n", f);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        return sl_err_set(err, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* ---- directories ------------------------------------------------------------------------ */
static int mkdir_p(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    return 0;
}

static int dir_state(const char *path) /* 0 missing, 1 empty dir, 2 non-empty dir, 3 not a dir */
{
    struct stat st;
    if (stat(path, &st)) return 0;
    if (!S_ISDIR(st.st_mode)) return 3;
    char probe[1100];
    static const char *const files[] = {"results.csv", "run.conf", "meta.json", "report.md", NULL};
    for (int i = 0; files[i]; i++) {
        snprintf(probe, sizeof probe, "%s/%s", path, files[i]);
        if (!stat(probe, &st)) return 2;
    }
    return 1;
}

/* ---- charts: plots/render.sh DIR ---------------------------------------------------------- */
static int find_render(char *out, size_t len)
{
    struct stat st;
    const char *env = getenv("SUMLAB_PLOTS_DIR");
    if (env && *env) {
        snprintf(out, len, "%s/render.sh", env);
        if (!stat(out, &st)) return 0;
    }
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        snprintf(out, len, "%s/plots/render.sh", exe);
        if (!stat(out, &st)) return 0;
        snprintf(out, len, "%s/../plots/render.sh", exe);
        if (!stat(out, &st)) return 0;
    }
#ifdef SUMLAB_SOURCE_DIR
    snprintf(out, len, "%s/plots/render.sh", SUMLAB_SOURCE_DIR);
    if (!stat(out, &st)) return 0;
#endif
    return -1;
}

/* Returns render.sh's exit code (3: gnuplot missing), or -1 when it could not be started. */
static int render_charts(sl_run *run)
{
    char script[PATH_MAX + 32];
    const char *off = getenv("SUMLAB_NO_CHARTS");
    if (off && *off && strcmp(off, "0")) {
        sl_run_note(run, "charts not rendered (SUMLAB_NO_CHARTS is set); render with `plots/render.sh %s`", run->dir);
        return 0;
    }
    if (find_render(script, sizeof script)) {
        sl_run_note(run, "charts not rendered: plots/render.sh not found (set SUMLAB_PLOTS_DIR)");
        return -1;
    }
    char *argv[] = {"bash", script, run->quiet ? "-q" : "-v", run->dir, NULL};
    pid_t pid;
    if (posix_spawnp(&pid, "bash", NULL, NULL, argv, environ) != 0) {
        sl_run_note(run, "charts not rendered: cannot start bash");
        return -1;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    if (code == 3) sl_run_note(run, "charts not rendered: gnuplot is not installed here; "
                                    "render later with `plots/render.sh %s`", run->dir);
    else if (code != 0) sl_run_note(run, "plots/render.sh failed (exit %d); see its messages", code);
    return code;
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
        fprintf(f, "  %-18s %s\n", experiments[i].name, experiments[i].description);
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

int sl_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"backend", required_argument, NULL, 'b'},
        {"preset", required_argument, NULL, 'p'}, {"resume", no_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},        {"seed", required_argument, NULL, 's'},
        {"reps", required_argument, NULL, 'R'},   {"help", no_argument, NULL, 'h'},
        {"report-only", no_argument, NULL, 'P'},
        {NULL, 0, NULL, 0}};
    const char *out_dir = NULL, *backend_s = NULL, *preset_s = NULL, *seed_s = NULL, *reps_s = NULL;
    int resume = 0, quiet = 0, report_only = 0, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out_dir = optarg; break;
        case 'b': backend_s = optarg; break;
        case 'p': preset_s = optarg; break;
        case 'r': resume = 1; break;
        case 'q': quiet = 1; break;
        case 's': seed_s = optarg; break;
        case 'R': reps_s = optarg; break;
        case 'P': report_only = 1; break;
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
    const char *exp_name = argv[optind];
    if (strcmp(exp_name, "all") && !sl_experiment_find(exp_name)) {
        sl_cli_msg(CMD, "unknown experiment '%s' (accuracy-vs-n, accuracy-vs-cond, accuracy-vs-range, "
                        "determinism, throughput-vs-n, tradeoff, all)", exp_name);
        return 2;
    }
    sl_preset preset = SL_PRESET_QUICK;
    if (preset_s && sl_preset_parse(preset_s, &preset)) {
        sl_cli_msg(CMD, "unknown preset '%s' (tiny, quick or full)", preset_s);
        return 2;
    }
    sl_backend backend = SL_BACKEND_AUTO;
    if (backend_s && sl_backend_parse(backend_s, &backend)) {
        sl_cli_msg(CMD, "unknown backend '%s' (auto, cpu or gpu)", backend_s);
        return 2;
    }
    sl_err e = {{0}};
    uint64_t seed = SL_RUN_DEFAULT_SEED;
    const char *env_seed = getenv("SUMLAB_SEED");
    if (seed_s) {
        if (sl_parse_u64(seed_s, &seed, &e)) { sl_cli_msg(CMD, "--seed: %s", e.msg); return 2; }
    } else if (env_seed && *env_seed) {
        if (sl_parse_u64(env_seed, &seed, &e)) { sl_cli_msg(CMD, "SUMLAB_SEED: %s", e.msg); return 2; }
    }
    long reps = 0;
    if (reps_s && sl_parse_int(reps_s, 1, 1000000, &reps, &e)) { sl_cli_msg(CMD, "--reps: %s", e.msg); return 2; }
    long max_rows = 0;
    const char *mr = getenv("SUMLAB_MAX_ROWS");
    if (mr && *mr && sl_parse_int(mr, 1, LONG_MAX, &max_rows, &e)) {
        sl_cli_msg(CMD, "SUMLAB_MAX_ROWS: %s", e.msg);
        return 2;
    }

    /* --report-only: charts and report.md of an existing run, measuring nothing (e.g. here,
     * with gnuplot, for a run made on a GPU machine without it) */
    if (report_only) {
        if (!out_dir) { sl_cli_msg(CMD, "--report-only needs -o DIR (the run to report)"); return 2; }
        run_conf rc0;
        if (conf_read(out_dir, &rc0)) { sl_cli_msg(CMD, "'%s' is not a sumlab run directory (no run.conf)", out_dir); return 2; }
        sl_run run;
        memset(&run, 0, sizeof run);
        snprintf(run.dir, sizeof run.dir, "%s", out_dir);
        run.quiet = quiet;
        render_charts(&run);
        const char *notes[20];
        for (int i = 0; i < run.nnotes; i++) notes[i] = run.notes[i];
        if (sl_report_write(out_dir, notes, run.nnotes, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 1; }
        if (!quiet) fprintf(stderr, "sumlab run: report: %s/report.md\n", out_dir);
        return 0;
    }

    /* the directory */
    char dir[1024], stamp[32];
    if (out_dir) {
        snprintf(dir, sizeof dir, "%s", out_dir);
    } else {
        if (resume) { sl_cli_msg(CMD, "--resume needs -o DIR (the run to continue)"); return 2; }
        now_iso(stamp, sizeof stamp, 1);
        snprintf(dir, sizeof dir, "results/%s-%s", stamp, exp_name);
        for (int k = 2; dir_state(dir) != 0 && k < 100; k++)
            snprintf(dir, sizeof dir, "results/%s-%s-%d", stamp, exp_name, k);
    }
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/') dir[--dl] = '\0';

    run_conf conf;
    memset(&conf, 0, sizeof conf);
    int st = dir_state(dir);
    if (resume) {
        int cr = st == 3 ? -1 : conf_read(dir, &conf);
        if (cr == -1) {
            sl_cli_msg(CMD, "cannot resume '%s': %s", dir,
                       st == 0 ? "no such directory" : st == 3 ? "not a directory" : "no run.conf there (not a sumlab run directory)");
            return 2;
        }
        if (cr == -2) { sl_cli_msg(CMD, "cannot resume '%s': run.conf is malformed", dir); return 2; }
        if (strcmp(conf.experiment, exp_name)) {
            sl_cli_msg(CMD, "'%s' holds a run of '%s', not '%s'", dir, conf.experiment, exp_name);
            return 2;
        }
        if (preset_s && strcmp(conf.preset, sl_preset_name(preset))) {
            sl_cli_msg(CMD, "'%s' was started with --preset %s; resume it with the same preset (or none)", dir, conf.preset);
            return 2;
        }
        if ((seed_s || (env_seed && *env_seed)) && conf.seed != seed) {
            sl_cli_msg(CMD, "'%s' was started with seed %llu, not %llu", dir, conf.seed, (unsigned long long)seed);
            return 2;
        }
        if (reps_s && conf.reps != reps) {
            sl_cli_msg(CMD, "'%s' was started with --reps %ld; resume it with the same value (or none)", dir, conf.reps);
            return 2;
        }
        if (backend_s && backend != SL_BACKEND_AUTO && strcmp(conf.backend, backend == SL_BACKEND_GPU ? "gpu" : "cpu")) {
            sl_cli_msg(CMD, "'%s' was run on the %s backend; resume it there", dir, conf.backend);
            return 2;
        }
        if (sl_preset_parse(conf.preset, &preset)) { sl_cli_msg(CMD, "run.conf: unknown preset '%s'", conf.preset); return 2; }
        seed = conf.seed;
        reps = conf.reps;
        backend = !strcmp(conf.backend, "gpu") ? SL_BACKEND_GPU : SL_BACKEND_CPU;
    } else {
        if (st == 2) {
            sl_cli_msg(CMD, "'%s' already holds a run: add --resume to continue it, or -o a new directory", dir);
            return 2;
        }
        if (st == 3) { sl_cli_msg(CMD, "'%s' exists and is not a directory", dir); return 2; }
    }

    /* the backend */
    sl_run run;
    memset(&run, 0, sizeof run);
    snprintf(run.dir, sizeof run.dir, "%s", dir);
    sl_gpu_info gi;
    memset(&gi, 0, sizeof gi);
    sl_err why = {{0}};
    int gpu = backend != SL_BACKEND_CPU && sl_gpu_available(&gi, &why) == 1;
    if (backend == SL_BACKEND_GPU && !gpu) {
        sl_cli_msg(CMD, "--backend gpu: no usable GPU (%s)", why.msg[0] ? why.msg : "unknown reason");
        return resume ? 1 : 2;
    }
    run.on_gpu = gpu;
    run.backend = gpu ? SL_BACKEND_GPU : SL_BACKEND_CPU;
    run.gpu_sm_count = gpu && gi.sm_count > 0 ? (uint32_t)gi.sm_count : SL_DEFAULT_SM_COUNT;
    if (!resume && !preset_s) preset = gpu ? SL_PRESET_FULL : SL_PRESET_QUICK;
    run.preset = preset;
    run.seed = seed;
    run.reps_override = (int)reps;
    run.quiet = quiet;
    run.max_rows = max_rows;

    if (!resume) {
        if (mkdir_p(dir)) { sl_cli_msg(CMD, "cannot create '%s': %s", dir, strerror(errno)); return 1; }
        snprintf(conf.experiment, sizeof conf.experiment, "%s", exp_name);
        snprintf(conf.preset, sizeof conf.preset, "%s", sl_preset_name(preset));
        snprintf(conf.backend, sizeof conf.backend, "%s", gpu ? "gpu" : "cpu");
        conf.seed = (unsigned long long)seed;
        conf.reps = reps;
        now_iso(conf.started, sizeof conf.started, 0);
        if (conf_write(dir, &conf)) { sl_cli_msg(CMD, "cannot write %s/run.conf: %s", dir, strerror(errno)); return 1; }
    }
    sl_provenance prov;
    if (sl_cli_argv) sl_provenance_collect(&prov, sl_cli_argc, sl_cli_argv);
    else sl_provenance_collect(&prov, argc, argv);
    if (write_meta(&run, &conf, resume, &prov, &e)) { sl_cli_msg(CMD, "%s", e.msg); return 1; }
    if (sl_run_open_files(&run, resume, &e)) {
        sl_cli_msg(CMD, "%s", e.msg);
        sl_run_close_files(&run);
        sl_keyset_free(&run.keys);
        return resume ? 2 : 1;
    }
    if (!quiet) {
        fprintf(stderr, "sumlab run: %s -> %s (%s backend%s%s, preset %s, seed %llu)%s\n", exp_name, dir,
                gpu ? "GPU" : "CPU", gpu ? ": " : "", gpu ? gi.name : "", sl_preset_name(preset),
                (unsigned long long)seed, resume ? ", resuming" : "");
        if (!gpu && backend == SL_BACKEND_AUTO && why.msg[0])
            fprintf(stderr, "sumlab run: no GPU (%s): running the CPU twins\n", why.msg);
        if (resume) fprintf(stderr, "sumlab run: %ld rows already done\n", run.rows_skipped_resume);
    }

    /* plan, then run */
    const sl_experiment *todo[16];
    size_t ntodo = 0;
    for (size_t i = 0; i < sl_experiment_count(); i++)
        if (!strcmp(exp_name, "all") || !strcmp(exp_name, experiments[i].name)) todo[ntodo++] = &experiments[i];
    double total = 0;
    for (size_t i = 0; i < ntodo; i++) total += todo[i]->plan(&run);
    run.prog = sl_progress_new(quiet, total);

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    g_signal = 0;
    g_quiet = quiet;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    int rc = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < ntodo && !rc && !sl_run_stopped(&run); i++) {
        if (todo[i]->exec(&run, &e)) {
            sl_progress_msg(run.prog, "error: %s", e.msg);
            rc = 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sl_progress_free(run.prog);
    run.prog = NULL;
    sl_run_close_files(&run);
    int sig = g_signal;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);

    int stopped = sig || run.stop;
    if (stopped)
        sl_run_note(&run, "this run is incomplete (stopped after %ld new rows%s); continue it with "
                          "`sumlab run %s -o %s --resume`", run.rows_written,
                    sig ? " by a signal" : " by SUMLAB_MAX_ROWS", exp_name, dir);
    if (rc) sl_run_note(&run, "this run stopped on an error: %s", e.msg);

    render_charts(&run);
    const char *notes[20];
    for (int i = 0; i < run.nnotes; i++) notes[i] = run.notes[i];
    sl_err re = {{0}};
    int rep = sl_report_write(dir, notes, run.nnotes, &re);
    if (rep) sl_cli_msg(CMD, "report not written: %s", re.msg);

    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (!quiet) {
        fprintf(stderr, "sumlab run: %ld rows written (%ld from before) in %.1f s\n", run.rows_written,
                run.rows_skipped_resume, secs);
        if (!rep) fprintf(stderr, "sumlab run: report: %s/report.md\n", dir);
        if (stopped)
            fprintf(stderr, "sumlab run: incomplete; continue with: sumlab run %s -o %s --resume\n", exp_name, dir);
    }
    sl_keyset_free(&run.keys);
    if (rc) return 1;
    if (sig) return 128 + sig;
    if (run.stop) return 3;
    return rep ? 1 : 0;
}

/* run.c: the life of a run (sl_study_run): the run directory chosen, checked, created and
 * locked; a resume's settings from run.conf; run.conf and meta.json; the experiments row by row
 * into results.csv; the notes, charts and report (the caller's hooks); the run's status. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "sl_gpu.h"
#include "sl_provenance.h"
#include "sl_study.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* GPU: a variant's repetitions stop once they would pass this much device time in all (its
 * first timed run tells): in the sweeps a deterministic variant's after 50 ms (they give the
 * same bits and only time it; serial at 2^26 takes ~0.34 s a run), a nondeterministic one's
 * after 60 ms (its spread is measured where runs are cheap: atomic-thread at 2^22 gets 8, at
 * 2^24 2, at 2^28 ~0.47 s one; 150 ms, 5 at 2^24, cost the H200 study 19 s more); at least one
 * run. The accuracy sweeps judge results, not times: 20 ms / 25 ms (atomic-thread gets 3 at
 * 2^22 and one at 2^24), and a variant warmed up once in the process runs no warm-up per input
 * (the H200 study spent about a third of its device time on warm-ups and repetitions of the
 * one-thread rungs there). The determinism experiment counts distinct results: 300 ms /
 * 500 ms, at least 3. sl_run_opts.rep_budget_ms replaces every budget with one value (0: none,
 * every repetition runs). */
static const sl_rep_budget sweep_budget = {50.0, 60.0, 1, 0};
static const sl_rep_budget acc_budget = {20.0, 25.0, 1, 1};
static const sl_rep_budget det_budget = {300.0, 500.0, 3, 0};

/* A line on stderr: progress and warnings of the run (errors that end it go to err). */
static void say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("sumlab run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Where the report is: report.md, and report.html where this build wrote one. */
static void say_report(const char *dir)
{
    char html[SL_DIR_MAX + 32];
    struct stat st;
    int have = !sl_path_join(html, sizeof html, dir, "report.html", NULL) && !stat(html, &st);
    if (have) say("report: %s/report.md, %s", dir, html);
    else say("report: %s/report.md", dir);
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

/* ---- the run directory --------------------------------------------------------------------- */
int sl_run_dir_check(const char *dir, sl_err *err)
{
    if (!dir || !*dir) return sl_err_set(err, "-o: the run directory's name is empty");
    for (const unsigned char *p = (const unsigned char *)dir; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return sl_err_set(err, "-o: the run directory's name holds a control character (byte 0x%02x at "
                                   "offset %zu); choose a name of printable characters", *p,
                              (size_t)(p - (const unsigned char *)dir));
    for (const char *p = dir; *p;) {
        size_t len = strcspn(p, "/");
        if (len > NAME_MAX)
            return sl_err_set(err, "-o: the name '%.24s...' in the run directory's path is %zu bytes long; a "
                                   "file name may have at most %d here", p, len, NAME_MAX);
        p += len;
        p += strspn(p, "/");
    }
    if (strlen(dir) > SL_DIR_MAX)
        return sl_err_set(err, "-o: the run directory's name is %zu bytes, longer than the %d this sumlab "
                               "handles", strlen(dir), SL_DIR_MAX);
    return 0;
}

/* Creates dir and its parents. SL_RUN_DONE, or the status with err. */
static sl_run_status mkdir_p(const char *dir, sl_err *err)
{
    char buf[SL_DIR_MAX + 1];
    snprintf(buf, sizeof buf, "%s", dir);
    size_t len = strlen(buf);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        const char c = buf[i];
        buf[i] = '\0';
        struct stat st;
        if (mkdir(buf, 0777) && errno != EEXIST) {
            const int e = errno;
            if (e == ENOTDIR)
                sl_err_set(err, "cannot create the run directory '%s': a part of its path is not a directory", dir);
            else if (strcmp(buf, dir))
                sl_err_set(err, "cannot create the run directory '%s': at '%s': %s", dir, buf, strerror(e));
            else
                sl_err_set(err, "cannot create the run directory '%s': %s", dir, strerror(e));
            return e == ENOTDIR ? SL_RUN_BAD_INPUT : SL_RUN_FAILED;
        }
        if (!stat(buf, &st) && !S_ISDIR(st.st_mode)) {
            sl_err_set(err, "cannot create the run directory '%s': '%s' exists and is not a directory", dir, buf);
            return SL_RUN_BAD_INPUT;
        }
        buf[i] = c;
    }
    return SL_RUN_DONE;
}

static int dir_state(const char *path) /* 0 missing, 1 empty dir, 2 non-empty dir, 3 not a dir */
{
    struct stat st;
    if (stat(path, &st)) return 0;
    if (!S_ISDIR(st.st_mode)) return 3;
    char probe[SL_DIR_MAX + 64];
    static const char *const files[] = {"results.csv", "run.conf", "meta.json", "report.md", SL_NOTES_FILE, NULL};
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

/* The run directory: o->out_dir, or results/<date>-<experiment>[-K] (no trailing '/'). */
static sl_run_status choose_dir(const sl_run_opts *o, const char *exp, char *dir, size_t len, sl_err *err)
{
    if (o->out_dir) {
        if (sl_run_dir_check(o->out_dir, err)) return SL_RUN_BAD_INPUT;
        snprintf(dir, len, "%s", o->out_dir);
    } else {
        if (o->resume) { sl_err_set(err, "--resume needs -o DIR (the run to continue)"); return SL_RUN_BAD_INPUT; }
        char stamp[32];
        now_iso(stamp, sizeof stamp, 1);
        snprintf(dir, len, "results/%s-%s", stamp, exp);
        for (int k = 2; dir_state(dir) != 0 && k < 100; k++)
            snprintf(dir, len, "results/%s-%s-%d", stamp, exp, k);
    }
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/') dir[--dl] = '\0';
    return SL_RUN_DONE;
}

/* ---- the settings a run goes with: the options, or on --resume run.conf's ------------------ */
typedef struct {
    char exp[64];
    sl_preset preset;
    sl_backend backend;        /* asked for: auto, cpu, gpu */
    const sl_operation *op;    /* run.conf's on resume (NULL: --op's, or the default) */
    long ddof;                 /* run.conf's on resume (-1: --ddof's, or the default) */
    uint64_t seed;
    long reps;
    sl_sweep_spec sweep;
    char files[1400];          /* --files' run.conf text (sl_files_conf; "" none) */
} settings;

static sl_run_status resume_settings(const sl_run_opts *o, const char *dir, int st, sl_runconf *conf,
                                     settings *s, sl_err *err)
{
    int cr = st == 3 ? -1 : sl_runconf_read(dir, conf);
    if (cr == -1) {
        sl_err_set(err, "cannot resume '%s': %s", dir,
                   st == 0 ? "no such directory" : st == 3 ? "not a directory" : "no run.conf there (not a sumlab run directory)");
        return SL_RUN_BAD_INPUT;
    }
    if (cr) {                  /* -2: a required key missing (or any other refusal of the reader) */
        const char *why = conf->error[0] ? conf->error : "run.conf is malformed";
        if (!sl_run_has_rows(dir))
            sl_err_set(err, "cannot resume '%s': %s; no row was measured there; start the run over "
                            "(the same command without --resume)", dir, why);
        else
            sl_err_set(err, "cannot resume '%s': %s", dir, why);
        return SL_RUN_BAD_INPUT;
    }
    if (strcmp(conf->experiment, "all") && !sl_experiment_find(conf->experiment)) {
        sl_err_set(err, "cannot resume '%s': run.conf names an unknown experiment '%s'", dir, conf->experiment);
        return SL_RUN_BAD_INPUT;
    }
    if (o->experiment && strcmp(conf->experiment, o->experiment)) {
        sl_err_set(err, "'%s' holds a run of '%s', not '%s'", dir, conf->experiment, o->experiment);
        return SL_RUN_BAD_INPUT;
    }
    if (o->preset_given && strcmp(conf->preset, sl_preset_name(o->preset))) {
        sl_err_set(err, "'%s' was started with --preset %s; resume it with the same preset (or none)", dir, conf->preset);
        return SL_RUN_BAD_INPUT;
    }
    if (o->seed_given && conf->seed != o->seed) {
        sl_err_set(err, "'%s' was started with seed %llu, not %llu", dir, conf->seed, (unsigned long long)o->seed);
        return SL_RUN_BAD_INPUT;
    }
    if (o->reps > 0 && conf->reps != o->reps) {
        sl_err_set(err, "'%s' was started with --reps %ld; resume it with the same value (or none)", dir, conf->reps);
        return SL_RUN_BAD_INPUT;
    }
    if (o->backend_given && o->backend != SL_BACKEND_AUTO &&
        strcmp(conf->backend, o->backend == SL_BACKEND_GPU ? "gpu" : "cpu")) {
        sl_err_set(err, "'%s' was run on the %s backend; resume it there", dir, conf->backend);
        return SL_RUN_BAD_INPUT;
    }
    /* the sweep: what is given must be what the run was started with */
    const sl_sweep_spec *g = &o->sweep;
    const struct { unsigned bit; const char *opt, *canon, *stored; } sw[] = {
        {SL_GIVEN_N, "--n", g->n, conf->n},
        {SL_GIVEN_DATASETS, "--datasets", g->datasets, conf->datasets},
        {SL_GIVEN_VARIANTS, "--variants", g->variants, conf->variants},
        {SL_GIVEN_DTYPES, "--dtype", g->dtypes, conf->dtypes},
        {SL_GIVEN_BASELINE, "--baseline", g->baseline, conf->baseline},
    };
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++)
        if ((o->sweep_given & sw[i].bit) && strcmp(sw[i].canon, sw[i].stored)) {
            sl_err_set(err, "'%s' was started with %s '%s'; resume it with the same value (or none)", dir,
                       sw[i].opt, sw[i].stored[0] ? sw[i].stored : "(none)");
            return SL_RUN_BAD_INPUT;
        }
    if (o->params_given && strcmp(g->sweep.params, conf->params)) {
        sl_err_set(err, "'%s' was started with --param '%s'; resume it with the same value (or none)", dir,
                   conf->params[0] ? conf->params : "(none)");
        return SL_RUN_BAD_INPUT;
    }
    if ((o->sweep_given & SL_GIVEN_SEEDS) && g->sweep.seeds != conf->seeds) {
        sl_err_set(err, "'%s' was started with --seeds %ld; resume it with the same value (or none)", dir, conf->seeds);
        return SL_RUN_BAD_INPUT;
    }
    sl_err pe = {{0}};
    if (sl_sweep_parse_conf(&s->sweep, conf->n[0] ? conf->n : NULL, conf->datasets[0] ? conf->datasets : NULL,
                            conf->variants[0] ? conf->variants : NULL, conf->dtypes[0] ? conf->dtypes : NULL,
                            conf->seeds, conf->baseline[0] ? conf->baseline : NULL, &pe)) {
        sl_err_set(err, "run.conf of '%s' holds a sweep this sumlab cannot read (%s)", dir, pe.msg);
        return SL_RUN_BAD_INPUT;
    }
    snprintf(s->sweep.sweep.params, sizeof s->sweep.sweep.params, "%s", conf->params);
    if (sl_exp_user_params_check(&s->sweep.sweep, &pe)) {
        sl_err_set(err, "run.conf of '%s': %s", dir, pe.msg);
        return SL_RUN_BAD_INPUT;
    }
    if (sl_preset_parse(conf->preset, &s->preset)) {
        sl_err_set(err, "run.conf: unknown preset '%s'", conf->preset);
        return SL_RUN_BAD_INPUT;
    }
    const sl_operation *cop = conf->op[0] ? sl_op_find(conf->op) : sl_op_default();
    if (o->op && o->op != cop) {
        sl_err_set(err, "'%s' was started with --op %s; resume it with the same value (or none)", dir, cop->name);
        return SL_RUN_BAD_INPUT;
    }
    s->op = cop;
    if (o->ddof_given && o->ddof != (conf->ddof >= 0 ? conf->ddof : (long)SL_DDOF_DEFAULT)) {
        sl_err_set(err, "'%s' was started with --ddof %ld; resume it with the same value (or none)", dir, conf->ddof >= 0 ? conf->ddof : (long)SL_DDOF_DEFAULT);
        return SL_RUN_BAD_INPUT;
    }
    s->ddof = conf->ddof;
    snprintf(s->exp, sizeof s->exp, "%s", conf->experiment);
    s->seed = conf->seed;
    s->reps = conf->reps;
    s->backend = !strcmp(conf->backend, "gpu") ? SL_BACKEND_GPU : SL_BACKEND_CPU;
    return SL_RUN_DONE;
}

/* --files read for operation op into a new set (*out) and its run.conf text. */
static sl_run_status load_files(const char *list, const sl_operation *op, sl_file_set **out, char *text,
                                size_t len, sl_err *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out) { sl_err_set(err, "out of memory"); return SL_RUN_FAILED; }
    if (sl_files_load(list, op, *out, err)) return SL_RUN_BAD_INPUT;
    sl_files_conf(*out, text, len);
    return SL_RUN_DONE;
}

/* On resume: the run's files (run.conf's labels and hashes) must be given again, unchanged. */
static sl_run_status resume_files(const sl_run_opts *o, const char *dir, const sl_runconf *conf,
                                  settings *s, sl_file_set **files, sl_err *err)
{
    if (!conf->files[0] && !o->files) return SL_RUN_DONE;
    if (!o->files) {
        sl_err_set(err, "'%s' was started with --files; resume it with the same files (--files ...)", dir);
        return SL_RUN_BAD_INPUT;
    }
    if (!conf->files[0]) {
        sl_err_set(err, "'%s' was started without --files; resume it without them", dir);
        return SL_RUN_BAD_INPUT;
    }
    sl_run_status st = load_files(o->files, s->op ? s->op : sl_op_default(), files, s->files, sizeof s->files, err);
    if (st) return st;
    if (strcmp(s->files, conf->files)) {
        sl_err_set(err, "'%s' was started with other --files contents (run.conf: %.300s; now: %.300s): a file "
                        "changed or another was given; start a new run", dir, conf->files, s->files);
        return SL_RUN_BAD_INPUT;
    }
    return SL_RUN_DONE;
}

/* The backend and the run's settings into run; a new run's run.conf. */
static sl_run_status start_run(const sl_run_opts *o, settings *s, const char *dir, sl_runconf *conf,
                               sl_run *run, sl_gpu_info *gi, sl_err *why, sl_err *err)
{
    snprintf(run->dir, sizeof run->dir, "%s", dir);
    memset(gi, 0, sizeof *gi);
    int gpu = s->backend != SL_BACKEND_CPU && sl_gpu_available(gi, why) == 1;
    if (s->backend == SL_BACKEND_GPU && !gpu) {
        sl_err_set(err, "--backend gpu: no usable GPU (%s)", why->msg[0] ? why->msg : "unknown reason");
        return o->resume ? SL_RUN_FAILED : SL_RUN_BAD_INPUT;
    }
    run->on_gpu = gpu;
    run->backend = gpu ? SL_BACKEND_GPU : SL_BACKEND_CPU;
    run->gpu_sm_count = gpu && gi->sm_count > 0 ? (uint32_t)gi->sm_count : SL_DEFAULT_SM_COUNT;
    if (!o->resume && !o->preset_given) s->preset = gpu ? SL_PRESET_FULL : SL_PRESET_QUICK;
    run->preset = s->preset;
    run->named_alone = strcmp(s->exp, "all") != 0;
    run->seed = s->seed;
    run->op = s->op ? s->op : o->op ? o->op : sl_op_default();
    run->params = sl_op_params_default();
    if (s->ddof >= 0) run->params.ddof = (uint32_t)s->ddof;
    else if (o->ddof_given) run->params.ddof = (uint32_t)o->ddof;
    run->reps_override = (int)s->reps;
    run->quiet = o->quiet;
    run->max_rows = o->max_rows;
    run->sweep = s->sweep.sweep;
    /* --variants named before the operation was known: each name is the operation's variant */
    for (int i = 0; i < run->sweep.nv; i++) {
        const sl_variant *v = sl_variant_find_op(run->op->name, run->sweep.v[i]->name);
        if (!v) {
            sl_err_set(err, "--variants: '%s' is no variant of %s (see 'sumlab list variants --op %s')",
                       run->sweep.v[i]->name, run->op->name, run->op->name);
            return SL_RUN_BAD_INPUT;
        }
        run->sweep.v[i] = v;
    }
    run->threads = o->threads;
    if (gpu) {
        run->sweep_budget = sweep_budget;
        run->acc_budget = acc_budget;
        run->det_budget = det_budget;
        if (o->rep_budget_given) {
            const double ms = o->rep_budget_ms;
            run->sweep_budget = (sl_rep_budget){ms, ms, ms > 0 ? 1 : 0, 0};
            run->acc_budget = (sl_rep_budget){ms, ms, ms > 0 ? 1 : 0, 1};
            run->det_budget = (sl_rep_budget){ms, ms, ms > 0 ? 3 : 0, 0};
        }
    }
    if (o->resume) return SL_RUN_DONE;
    snprintf(conf->experiment, sizeof conf->experiment, "%s", s->exp);
    snprintf(conf->preset, sizeof conf->preset, "%s", sl_preset_name(s->preset));
    snprintf(conf->backend, sizeof conf->backend, "%s", gpu ? "gpu" : "cpu");
    conf->seed = (unsigned long long)s->seed;
    conf->reps = s->reps;
    snprintf(conf->n, sizeof conf->n, "%s", s->sweep.n);
    snprintf(conf->datasets, sizeof conf->datasets, "%s", s->sweep.datasets);
    snprintf(conf->variants, sizeof conf->variants, "%s", s->sweep.variants);
    snprintf(conf->dtypes, sizeof conf->dtypes, "%s", s->sweep.dtypes);
    snprintf(conf->baseline, sizeof conf->baseline, "%s", s->sweep.baseline);
    snprintf(conf->op, sizeof conf->op, "%s", run->op->name);
    conf->ddof = (long)run->params.ddof;
    conf->seeds = s->sweep.sweep.seeds;
    snprintf(conf->params, sizeof conf->params, "%s", s->sweep.sweep.params);
    snprintf(conf->files, sizeof conf->files, "%s", s->files);
    now_iso(conf->started, sizeof conf->started, 0);
    return sl_runconf_write(dir, conf, err) ? SL_RUN_FAILED : SL_RUN_DONE;
}

/* Plans and runs the experiments of exp; 0, or -1 (shown on the progress line). */
static int run_experiments(const sl_run_opts *o, const char *exp, sl_run *run, double *secs, sl_err *err)
{
    const sl_experiment *todo[16];
    size_t ntodo = 0;
    for (size_t i = 0; i < sl_experiment_count() && ntodo < 16; i++)
        if ((!strcmp(exp, "all") && !sl_experiment_opt_in(sl_experiment_at(i))) || !strcmp(exp, sl_experiment_at(i)->name)) {
            const char *name = sl_experiment_at(i)->name;
            if (run->files && !sl_files_exp_uses(name)) {   /* --files: only the experiments at one n */
                if (!o->quiet)
                    say("%s skips the --files inputs: it sweeps its own sizes or dataset parameters (the "
                        "files run in determinism and tradeoff, each at its own n)", name);
                sl_notes_add(&run->notes, "%s skipped: it sweeps its own sizes or dataset parameters, and --files "
                                          "gives inputs of one n each (they run in determinism and tradeoff)", name);
                if (!run->sweep_off[0])
                    snprintf(run->sweep_off, sizeof run->sweep_off, "%s cannot run on the --files inputs: it "
                             "sweeps its own sizes or dataset parameters", name);
                continue;
            }
            todo[ntodo++] = sl_experiment_at(i);
        }
    double total = 0;
    for (size_t i = 0; i < ntodo; i++) {
        const double before = run->plan_steps;
        total += todo[i]->plan(run);
        /* an experiment that plans nothing under this run's settings (a GPU-only one on the CPU
         * backend says so itself): the report must not call it "not reached" */
        if (run->plan_steps == before && !(!run->on_gpu && strstr(todo[i]->description, "(GPU only)"))) {
            char dts[64] = "";
            for (int k = 0; k < SL_NDTYPES; k++)
                if (run->sweep.dtypes & SL_DTYPE_MASK(k))
                    snprintf(dts + strlen(dts), sizeof dts - strlen(dts), "%s%s", dts[0] ? "," : "",
                             sl_dtype_name((sl_dtype)k));
            char why[160];
            snprintf(why, sizeof why, "nothing to measure under this run's settings (preset %s%s%s%s)",
                     sl_preset_name(run->preset), dts[0] ? ", --dtype " : "", dts, run->sweep.nds ? ", --datasets" : "");
            sl_notes_add(&run->notes, "%s: %s: no rows by design, not an interrupted run", todo[i]->name, why);
            if (!o->quiet) say("%s: %s", todo[i]->name, why);
        }
    }
    run->prog = sl_progress_new(o->quiet, total);
    sl_progress_set_steps(run->prog, run->plan_steps);
    sl_study_signals_catch(o->quiet);
    int rc = 0;
    const double t0 = sl_now_s();
    for (size_t i = 0; i < ntodo && !rc && !sl_run_stopped(run); i++) {
        int erc = todo[i]->exec(run, err);
        if (erc) {             /* the rows of the input still in flight are written all the same */
            sl_err fe = {{0}};
            sl_study_flush(run, &fe);
        } else {
            erc = sl_study_flush(run, err);
        }
        if (erc) {             /* said under -q as well: the one line that says why the exit is 1 */
            if (o->quiet) say("error: %s", err->msg);
            else sl_progress_msg(run->prog, "error: %s", err->msg);
            rc = -1;
        }
    }
    *secs = sl_now_s() - t0;
    run->phases.total = *secs;
    sl_study_pipe_end(run);
    sl_hostbuf_end(run);
    sl_progress_free(run->prog);
    run->prog = NULL;
    return rc;
}

/* 1 when results.csv holds a row that is not `skipped` (the rows of this run, and on resume
 * those from before); the note of the first skipped row into why. */
static int any_measured(const sl_run *run, char *why, size_t len)
{
    if (run->rows_measured > 0) return 1;
    snprintf(why, len, "%s", run->first_skip);
    if (run->res.rows_before <= 0) return 0;
    char path[SL_DIR_MAX + 64];
    sl_csv t;
    sl_err e = {{0}};
    if (sl_path_join(path, sizeof path, run->dir, "results.csv", NULL) || sl_csv_read(path, &t, NULL, &e))
        return 1;              /* unreadable: not this check's to judge */
    const int cs = sl_csv_col(&t, "status"), cn = sl_csv_col(&t, "note");
    int found = cs < 0;
    for (size_t r = 0; r < t.nrows && !found; r++) {
        if (strcmp(sl_csv_get(&t, r, cs), "skipped")) found = 1;
        else if (!why[0]) snprintf(why, len, "%s", sl_csv_get(&t, r, cn));
    }
    sl_csv_free(&t);
    return found;
}

/* Notes, charts, report.md and the last lines; the run's status. */
static sl_run_status finish_run(const sl_run_opts *o, const char *exp, const char *dir, sl_run *run, int rc,
                                int sig, double secs, const sl_err *e, sl_err *err)
{
    int stopped = sig || run->stop;
    if (stopped)
        sl_notes_add(&run->notes, "this run is incomplete (stopped after %ld new rows%s); continue it with "
                                  "`sumlab run %s -o %s --resume`", run->rows_written,
                     sig ? " by a signal" : " by SUMLAB_MAX_ROWS", exp, dir);
    if (rc) sl_notes_add(&run->notes, "this run stopped on an error: %s", e->msg);
    char skip_why[256] = "";
    const long rows = run->rows_written + run->res.rows_before;
    const int nothing = !rc && !stopped && rows > 0 && !any_measured(run, skip_why, sizeof skip_why);
    if (nothing)
        sl_notes_add(&run->notes, "nothing was measured: all %ld rows were skipped%s%s", rows,
                     skip_why[0] ? "; the first because: " : "", skip_why);
    sl_err ne = {{0}};   /* before the charts' notes, which a re-render writes anew */
    if (sl_notes_write(dir, &run->notes, &ne)) say("notes not kept for --report-only: %s", ne.msg);
    double t0 = sl_now_s();
    if (o->hooks.charts) o->hooks.charts(dir, o->quiet, o->threads, &run->notes);
    run->phases.render = sl_now_s() - t0;
    sl_err re = {{0}};
    t0 = sl_now_s();
    int rep = o->hooks.report ? o->hooks.report(dir, &run->notes, &re) : 0;
    run->phases.report = sl_now_s() - t0;
    if (rep) say("report not written: %s", re.msg);
    sl_err pe = {{0}};
    if (sl_phases_report(run, o->quiet, &pe)) say("timing not recorded: %s", pe.msg);
    if (!o->quiet) {
        say("%ld rows written (%ld from before) in %.1f s", run->rows_written, run->res.rows_before, secs);
        if (!rep && o->hooks.report) say_report(dir);
        if (stopped) say("incomplete; continue with: sumlab run %s -o %s --resume", exp, dir);
    }
    /* an experiment whose sweep cannot run on the chosen datasets: a warning; and exit 2 when
     * the run measured nothing at all (`accuracy-vs-cond --datasets normal`) */
    if (run->sweep_off[0] && !rc && !stopped) {
        if (!o->quiet && rows) say("warning: %s", run->sweep_off);
        if (!rows) {
            sl_err_set(err, "%s: no rows (%s)", run->sweep_off,
                       run->files ? "the --files inputs run in determinism and tradeoff"
                                  : "add the family to --datasets");
            return SL_RUN_BAD_INPUT;
        }
    }
    if (rc) return SL_RUN_FAILED;
    if (sig) return sig == SIGTERM ? SL_RUN_SIGTERM : SL_RUN_SIGINT;
    if (run->stop) return SL_RUN_ROW_LIMIT;
    if (nothing) {
        sl_err_set(err, "nothing was measured: all %ld rows were skipped%s%s%s", rows, skip_why[0] ? " (" : "",
                   skip_why, skip_why[0] ? ")" : "");
        return SL_RUN_NOTHING_MEASURED;
    }
    return rep ? SL_RUN_FAILED : SL_RUN_DONE;
}

/* --report-only: charts and report.md of an existing run, measuring nothing (e.g. here, with
 * gnuplot, for a run made on a GPU machine without it). */
static sl_run_status report_only(const sl_run_opts *o, sl_err *err)
{
    if (!o->out_dir) { sl_err_set(err, "--report-only needs -o DIR (the run to report)"); return SL_RUN_BAD_INPUT; }
    if (sl_run_dir_check(o->out_dir, err)) return SL_RUN_BAD_INPUT;
    sl_runconf rc0;
    int cr = sl_runconf_read(o->out_dir, &rc0);
    if (cr == -1) {
        sl_err_set(err, "'%s' is not a sumlab run directory (no run.conf)", o->out_dir);
        return SL_RUN_BAD_INPUT;
    }
    if (cr) {
        sl_err_set(err, "'%s': %s", o->out_dir, rc0.error[0] ? rc0.error : "run.conf is malformed");
        return SL_RUN_BAD_INPUT;
    }
    int lock = -1, lr = sl_run_lock(o->out_dir, &lock, err);   /* held while charts and report are written */
    if (lr) return lr == 1 ? SL_RUN_BAD_INPUT : SL_RUN_FAILED;
    sl_run_status status = SL_RUN_DONE;
    sl_notes notes;   /* the measuring run's (run_notes.txt), then the charts' */
    if (sl_notes_read(o->out_dir, &notes, err)) {
        sl_run_unlock(lock);
        return SL_RUN_BAD_INPUT;
    }
    if (o->hooks.charts) o->hooks.charts(o->out_dir, o->quiet, o->threads, &notes);
    if (o->hooks.report && o->hooks.report(o->out_dir, &notes, err)) status = SL_RUN_FAILED;
    else if (!o->quiet) say_report(o->out_dir);
    sl_run_unlock(lock);
    return status;
}

/* The opening lines and notes of a run that starts measuring. */
static void announce(const sl_run_opts *o, const settings *s, const char *dir, sl_run *run,
                     const sl_gpu_info *gi, const sl_err *why)
{
    if (!o->quiet) {
        say("%s -> %s (%s backend%s%s, preset %s, seed %llu, %u threads)%s", s->exp, dir, run->on_gpu ? "GPU" : "CPU",
            run->on_gpu ? ": " : "", run->on_gpu ? gi->name : "", sl_preset_name(s->preset),
            (unsigned long long)s->seed, o->threads, o->resume ? ", resuming" : "");
        if (!run->on_gpu && s->backend == SL_BACKEND_AUTO && why->msg[0])
            say("no GPU (%s): running the CPU twins", why->msg);
        if (o->resume) say("%ld rows already done", run->res.rows_before);
    }
    if (!run->on_gpu && s->preset == SL_PRESET_FULL) {
        char line[600];
        snprintf(line, sizeof line, "preset full on the CPU backend keeps %s; the GPU study's 2^28 is left "
                 "out because the CPU twins replay the GPU's order of operations one value at a time on one "
                 "core, for every variant and repetition, which at 2^28 takes hours per point",
                 run->sweep.nn ? "the sizes --n gives" : "accuracy-vs-n at n = 2^10 .. 2^22, the cond and range "
                 "sweeps at n = 2^16, determinism at 2^18 and the tradeoff at 2^20 (--n chooses others)");
        if (!o->quiet) say("%s", line);
        sl_notes_add(&run->notes, "%s", line);
    }
    if (!run->on_gpu)
        sl_notes_add(&run->notes, "CPU backend: a deterministic variant's twin is a pure function of the input and "
                                  "the launch configuration, so it runs once per input and configuration (its rows "
                                  "have reps 1 and say so); nondeterministic twins run every repetition, each with "
                                  "its own commit order");
}

sl_run_status sl_study_run(const sl_run_opts *o, sl_err *err)
{
    sl_err scratch = {{0}};
    if (!err) err = &scratch;
    if (o->report_only) return report_only(o, err);
    if (!o->experiment && !o->resume) {
        sl_err_set(err, "which experiment? (see 'sumlab run --help')");
        return SL_RUN_BAD_INPUT;
    }
    if (o->experiment && strcmp(o->experiment, "all") && !sl_experiment_find(o->experiment)) {
        sl_err_set(err, "unknown experiment '%s'", o->experiment);
        return SL_RUN_BAD_INPUT;
    }
    settings s;
    memset(&s, 0, sizeof s);
    s.ddof = -1;
    snprintf(s.exp, sizeof s.exp, "%s", o->experiment ? o->experiment : "");
    s.preset = o->preset_given ? o->preset : SL_PRESET_QUICK;
    s.backend = o->backend_given ? o->backend : SL_BACKEND_AUTO;
    s.seed = o->seed;
    s.reps = o->reps;
    s.sweep = o->sweep;
    if (!s.sweep.sweep.seeds) s.sweep.sweep.seeds = 1;

    /* what the cleanup below undoes: the lock, the buffers' mutex, results files, keys */
    int lock = -1, mutex_ready = 0, res_open = 0, st, rc, sig;
    sl_run *run = calloc(1, sizeof *run);
    sl_runconf conf;
    sl_gpu_info gi;
    sl_provenance prov;
    sl_err why = {{0}}, e = {{0}}, ce = {{0}};
    char dir[SL_DIR_MAX + 1];
    double secs = 0;
    sl_run_status status;
    sl_file_set *files = NULL;
    memset(&conf, 0, sizeof conf);
    if (!run) { sl_err_set(err, "out of memory"); return SL_RUN_FAILED; }
    if (o->files && !o->resume) {   /* before the directory: a bad file leaves nothing behind */
        if ((status = load_files(o->files, o->op ? o->op : sl_op_default(), &files, s.files, sizeof s.files, err)))
            goto out;
    }
    if ((status = choose_dir(o, s.exp, dir, sizeof dir, err))) goto out;
    st = dir_state(dir);
    if (!o->resume && st == 3) {
        sl_err_set(err, "'%s' exists and is not a directory", dir);
        status = SL_RUN_BAD_INPUT;
        goto out;
    }
    if (!o->resume && st == 0 && (status = mkdir_p(dir, err))) goto out;
    /* The directory is this run's until it ends: a second run or resume is refused here, so
     * two writers never share results.csv. */
    if (!o->resume || st == 1 || st == 2) {
        int lr = sl_run_lock(dir, &lock, err);
        if (lr) { status = lr == 1 ? SL_RUN_BAD_INPUT : SL_RUN_FAILED; goto out; }
    }
    st = dir_state(dir);
    if (o->resume) {
        if ((status = resume_settings(o, dir, st, &conf, &s, err))) goto out;
        if ((status = resume_files(o, dir, &conf, &s, &files, err))) goto out;
    } else if (st == 2) {
        if (sl_run_has_rows(dir) || !run_marks(dir)) {   /* rows, or not a run's files */
            sl_err_set(err, "'%s' already holds a run: add --resume to continue it, or -o a new directory", dir);
            status = SL_RUN_BAD_INPUT;
            goto out;
        }
        /* started before, but not one row measured (killed in its first moments): start over */
        if (sl_run_clear(dir, err)) { status = SL_RUN_FAILED; goto out; }
        if (!o->quiet) say("'%s' holds no measured row: starting it over", dir);
    }
    if (pthread_mutex_init(&run->buf_mu, NULL)) {
        sl_err_set(err, "cannot create a lock (pthread_mutex_init failed)");
        status = SL_RUN_FAILED;
        goto out;
    }
    mutex_ready = 1;
    if ((status = start_run(o, &s, dir, &conf, run, &gi, &why, err))) goto out;
    run->files = files;
    sl_provenance_collect(&prov, o->argc, o->argv);
    if (sl_meta_write(dir, &conf, o->resume, &prov, err)) { status = SL_RUN_FAILED; goto out; }
    res_open = 1;
    if (sl_results_open(&run->res, dir, o->resume, o->quiet, err)) {
        status = o->resume ? SL_RUN_BAD_INPUT : SL_RUN_FAILED;
        goto out;
    }
    announce(o, &s, dir, run, &gi, &why);
    rc = run_experiments(o, s.exp, run, &secs, &e);
    res_open = 0;
    if (sl_results_close(&run->res, &ce) && !rc) {
        rc = -1;
        e = ce;
        say("%s", ce.msg);
    }
    sig = sl_study_signals_restore();
    status = finish_run(o, s.exp, dir, run, rc, sig, secs, &e, err);
out:
    if (res_open) sl_results_close(&run->res, NULL);
    sl_keyset_free(&run->res.keys);
    if (mutex_ready) pthread_mutex_destroy(&run->buf_mu);
    sl_run_unlock(lock);
    free(run);
    if (files) sl_files_free(files);
    free(files);
    return status;
}

/* tstudy_run.c: sl_study_run (study/run.c) as a library, without the command line: its
 * statuses (done, bad input, row limit, nothing measured, failed report), the report hooks, a
 * resume that takes run.conf's experiment, the run directory checks and the sweep parser. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sl_study.h"
#include "sl_test.h"

/* Under AddressSanitizer a 4 PiB malloc returns NULL, as it does without (the "nothing
 * measured" case); ASAN_OPTIONS still overrides. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static int charts_calls, report_calls, report_fails;
static char notes_seen[4096];
static void hook_charts(const char *dir, int quiet, unsigned threads, sl_notes *notes)
{
    (void)dir, (void)quiet, (void)threads, (void)notes;
    charts_calls++;
}
static int hook_report(const char *dir, const sl_notes *notes, sl_err *err)
{
    (void)dir;
    report_calls++;
    notes_seen[0] = '\0';
    for (int i = 0; i < notes->n; i++) strncat(notes_seen, notes->line[i], sizeof notes_seen - strlen(notes_seen) - 1);
    return report_fails ? sl_err_set(err, "planted report failure") : 0;
}

/* A tiny CPU run of exp at sizes n[0..nn) (serial and kahan, f32) into dir. */
static sl_run_opts opts(const char *exp, const char *dir, const uint64_t *n, int nn)
{
    sl_run_opts o;
    memset(&o, 0, sizeof o);
    o.experiment = exp;
    o.out_dir = dir;
    o.preset = SL_PRESET_TINY;
    o.preset_given = 1;
    o.backend = SL_BACKEND_CPU;
    o.backend_given = 1;
    o.seed = 20261129;
    o.threads = 1;
    o.quiet = 1;
    o.hooks.charts = hook_charts;
    o.hooks.report = hook_report;
    sl_err e = {{0}};
    if (sl_sweep_parse(&o.sweep, n, nn, NULL, "serial,kahan", "f32", 0, NULL, &e))
        fprintf(stderr, "sweep: %s\n", e.msg);
    return o;
}

static long rows(const char *dir)
{
    char p[2048];
    snprintf(p, sizeof p, "%s/results.csv", dir);
    FILE *f = fopen(p, "r");
    if (!f) return -1;
    long k = -1;
    for (int c; (c = fgetc(f)) != EOF;) k += c == '\n';
    fclose(f);
    return k;
}

int main(void)
{
    char tmpl[] = "/tmp/tstudy_run.XXXXXX";
    const char *tmp = getenv("TMPDIR");
    char base[1024];
    snprintf(base, sizeof base, "%s/tstudy_run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *root = mkdtemp(base);
    if (!root) root = mkdtemp(tmpl);
    if (!root) { perror("mkdtemp"); return 1; }
    char d[1200];
    sl_err e = {{0}};
    const uint64_t n16[] = {16}, nbig[] = {(uint64_t)1 << 50}, nboth[] = {16, (uint64_t)1 << 50};

    /* a run: done, both hooks once, run.conf names the experiment */
    snprintf(d, sizeof d, "%s/a", root);
    sl_run_opts o = opts("accuracy-vs-cond", d, n16, 1);
    sl_run_status st = sl_study_run(&o, &e);
    CHECK(st == SL_RUN_DONE, "status %d (%s)", (int)st, e.msg);
    CHECK(charts_calls == 1 && report_calls == 1, "hooks called %d/%d times", charts_calls, report_calls);
    const long full = rows(d);
    CHECK(full > 0, "%ld rows", full);

    /* the same run stopped by the row limit, then resumed without the experiment's name */
    snprintf(d, sizeof d, "%s/r", root);
    o = opts("accuracy-vs-cond", d, n16, 1);
    o.max_rows = 4;
    st = sl_study_run(&o, &e);
    CHECK(st == SL_RUN_ROW_LIMIT, "status %d (%s)", (int)st, e.msg);
    CHECK(strstr(notes_seen, "--resume") != NULL, "the notes tell how to continue: %s", notes_seen);
    sl_run_opts r;
    memset(&r, 0, sizeof r);
    r.out_dir = d;
    r.resume = 1;
    r.quiet = 1;
    r.threads = 1;
    st = sl_study_run(&r, &e);
    CHECK(st == SL_RUN_DONE, "resume without the experiment: status %d (%s)", (int)st, e.msg);
    CHECK(rows(d) == full, "resumed: %ld rows, uninterrupted %ld", rows(d), full);
    r.experiment = "determinism";
    memset(&e, 0, sizeof e);
    st = sl_study_run(&r, &e);
    CHECK(st == SL_RUN_BAD_INPUT && strstr(e.msg, "holds a run of 'accuracy-vs-cond'"), "status %d (%s)", (int)st, e.msg);

    /* nothing measured: every row skipped; some measured: done */
    snprintf(d, sizeof d, "%s/big", root);
    o = opts("accuracy-vs-n", d, nbig, 1);
    memset(&e, 0, sizeof e);
    st = sl_study_run(&o, &e);
    CHECK(st == SL_RUN_NOTHING_MEASURED, "status %d (%s)", (int)st, e.msg);
    CHECK(strstr(e.msg, "nothing was measured") && strstr(e.msg, "out of memory"), "why: %s", e.msg);
    CHECK(strstr(notes_seen, "nothing was measured") != NULL, "the report's notes say so: %s", notes_seen);
    snprintf(d, sizeof d, "%s/both", root);
    o = opts("accuracy-vs-n", d, nboth, 2);
    st = sl_study_run(&o, &e);
    CHECK(st == SL_RUN_DONE, "measured and skipped rows: status %d (%s)", (int)st, e.msg);

    /* a failed report is a failed run */
    snprintf(d, sizeof d, "%s/rep", root);
    o = opts("accuracy-vs-cond", d, n16, 1);
    report_fails = 1;
    st = sl_study_run(&o, &e);
    report_fails = 0;
    CHECK(st == SL_RUN_FAILED, "status %d (%s)", (int)st, e.msg);

    /* directories that cannot be a run's: bad input, nothing created */
    const char *bad[] = {"", "two\nlines", "x\x7f", NULL};
    for (int i = 0; bad[i]; i++) {
        o = opts("accuracy-vs-n", bad[i], n16, 1);
        memset(&e, 0, sizeof e);
        st = sl_study_run(&o, &e);
        CHECK(st == SL_RUN_BAD_INPUT && e.msg[0], "-o '%s': status %d (%s)", bad[i], (int)st, e.msg);
    }
    char longname[1400];
    int k = snprintf(longname, sizeof longname, "%s/", root);
    memset(longname + k, 'a', 256);
    longname[k + 256] = '\0';
    CHECK(sl_run_dir_check(longname, &e) == -1 && strstr(e.msg, "256 bytes"), "256-byte name: %s", e.msg);
    longname[k + 255] = '\0';
    CHECK(sl_run_dir_check(longname, &e) == 0, "255-byte name refused: %s", e.msg);
    snprintf(d, sizeof d, "%s/file", root);
    FILE *f = fopen(d, "w");
    if (f) fclose(f);
    snprintf(d, sizeof d, "%s/file/sub", root);
    o = opts("accuracy-vs-n", d, n16, 1);
    st = sl_study_run(&o, &e);
    CHECK(st == SL_RUN_BAD_INPUT && strstr(e.msg, "is not a directory"), "status %d (%s)", (int)st, e.msg);
    o = opts(NULL, NULL, n16, 1);
    st = sl_study_run(&o, &e);
    CHECK(st == SL_RUN_BAD_INPUT, "no experiment, no resume: status %d", (int)st);

    /* the sweep parser: canonical text, and each bad list named */
    sl_sweep_spec s;
    const uint64_t ns[] = {1024, 16};
    CHECK(sl_sweep_parse(&s, ns, 2, "normal,uniform", NULL, "bf16,f32", 3, "kahan", &e) == 0, "%s", e.msg);
    CHECK(!strcmp(s.n, "1024,16") && !strcmp(s.datasets, "normal,uniform") && !strcmp(s.dtypes, "f32,bf16") &&
          s.sweep.seeds == 3 && !strcmp(s.baseline, "kahan"), "canonical: n=%s ds=%s dt=%s", s.n, s.datasets, s.dtypes);
    CHECK(sl_sweep_parse_conf(&s, "1024,16", NULL, NULL, "f32,bf16", 0, NULL, &e) == 0 && s.sweep.nn == 2 &&
          s.sweep.n[1] == 16 && s.sweep.seeds == 1, "run.conf text: %s", e.msg);
    const uint64_t dup[] = {16, 16}, zero[] = {0};
    CHECK(sl_sweep_parse(&s, dup, 2, NULL, NULL, NULL, 0, NULL, &e) == -1 && strstr(e.msg, "--n:"), "%s", e.msg);
    CHECK(sl_sweep_parse(&s, zero, 1, NULL, NULL, NULL, 0, NULL, &e) == -1 && strstr(e.msg, "--n:"), "%s", e.msg);
    CHECK(sl_sweep_parse(&s, NULL, 0, "nope", NULL, NULL, 0, NULL, &e) == -1 && strstr(e.msg, "--datasets:"), "%s", e.msg);
    CHECK(sl_sweep_parse(&s, NULL, 0, NULL, "serial,", NULL, 0, NULL, &e) == -1 && strstr(e.msg, "--variants:"), "%s", e.msg);
    CHECK(sl_sweep_parse(&s, NULL, 0, NULL, NULL, "f128", 0, NULL, &e) == -1 && strstr(e.msg, "--dtype:"), "%s", e.msg);
    CHECK(sl_sweep_parse(&s, NULL, 0, NULL, NULL, NULL, 1001, NULL, &e) == -1 && strstr(e.msg, "--seeds:"), "%s", e.msg);
    CHECK(sl_sweep_parse_conf(&s, "16,x", NULL, NULL, NULL, 0, NULL, &e) == -1 && strstr(e.msg, "--n:"), "%s", e.msg);

    /* the ladder (GPU only; its plan touches no device) runs float32 alone: a --dtype without f32
     * plans nothing and says so (f32 rows were measured under --dtype f64) */
    {
        sl_run lr;
        memset(&lr, 0, sizeof lr);
        lr.on_gpu = 1;
        lr.preset = SL_PRESET_FULL;
        CHECK(sl_exp_ladder_plan(&lr) > 0 && lr.plan_steps == 2, "ladder plan without --dtype: %g steps", lr.plan_steps);
        memset(&lr, 0, sizeof lr);
        lr.on_gpu = 1;
        lr.preset = SL_PRESET_FULL;
        lr.sweep.dtypes = SL_DTYPE_MASK(SL_F64);
        CHECK(sl_exp_ladder_plan(&lr) == 0 && lr.plan_steps == 0, "ladder plan under --dtype f64: %g steps", lr.plan_steps);
        CHECK(sl_exp_ladder(&lr, &e) == 0 && lr.notes.n == 1 && strstr(lr.notes.line[0], "float32, which --dtype does not select"),
              "ladder under --dtype f64: %d notes (%s)", lr.notes.n, lr.notes.n ? lr.notes.line[0] : "");
    }

    char cmd[1400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd)) fprintf(stderr, "tstudy_run: could not remove %s\n", root);
    return sl_test_done("tstudy_run");
}

/* report.c: DIR/report.md from DIR/results.csv alone (so a resumed or copied run reports
 * the same): the run, the headline (headline.c), the determinism verdicts (verdicts.c),
 * throughput against CUB and the read ceiling, the tradeoff, twin self-checks, skipped rows,
 * the charts (charts.c), the run's notes and the files. One function per section. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "anchors.h"
#include "charts.h"
#include "check.h"
#include "headline.h"
#include "findings.h"
#include "tightness.h"
#include "range.h"
#include "html.h"
#include "latex.h"
#include "sweeps.h"
#include "ladder.h"
#include "launch.h"
#include "sl_ops.h"
#include "table.h"
#include "sl_study.h"


/* The batch-invariance experiment's own table, DIR/batch_invariance.md (exp_batch.c writes it
 * from measured counts), as the report takes it: a regular file (no link followed) of at most
 * 1 MiB holding only what that generator writes (printable ASCII, no '<', '>', '&', '\\', '`', no
 * link "]("), its own title line dropped. NULL when absent or anything else: a planted file
 * never becomes report text. */
static char *batch_table(const sl_report_ctx *R)
{
    char path[SL_DIR_MAX + 64];
    struct stat st;
    if (sl_path_join(path, sizeof path, R->dir, "batch_invariance.md", NULL) || lstat(path, &st) ||
        !S_ISREG(st.st_mode) || st.st_size > (1 << 20))
        return NULL;
    FILE *in = fopen(path, "r");
    if (!in) return NULL;
    char *t = malloc((size_t)st.st_size + 1);
    size_t n = t ? fread(t, 1, (size_t)st.st_size, in) : 0;
    fclose(in);
    if (!t) return NULL;
    t[n] = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)t[i];
        if ((c != '\n' && (c < 0x20 || c > 0x7e)) || strchr("<>&\\`", c) || (c == ']' && t[i + 1] == '(')) {
            free(t);
            return NULL;
        }
    }
    if (!strncmp(t, "# ", 2)) {                 /* the file's title: the section has its own */
        const char *nl = strchr(t, '\n');
        memmove(t, nl ? nl + 1 : t + n, strlen(nl ? nl + 1 : t + n) + 1);
    }
    return t;
}

static void sec_batch(FILE *f, const sl_report_ctx *R)
{
    char *t = batch_table(R);
    if (!t) return;
    fputs("## Batch invariance\n\nFrom `batch_invariance.md` (its CSV: `batch_invariance.csv`).\n", f);
    fputs(t, f);
    fputs("\n", f);
    free(t);
    sl_report_charts_at(f, R->dir, "batch_invariance_", R->on_gpu);
}

/* The title and the run: backend, preset, seed, dates, commit, rows per experiment. */
static size_t table_ops(const sl_csv *t, const sl_operation **out, size_t max);
static int ops_have_ladder(const sl_csv *t);
static int ops_have_cond(const sl_csv *t);

/* 1 when the run's notes say that experiment en had nothing to measure under its settings
 * (run.c's plan: "EN: nothing to measure ..."). */
static int notes_say_nothing(const sl_notes *notes, const char *en)
{
    const size_t k = strlen(en);
    for (int i = 0; notes && i < notes->n; i++)
        if (!strncmp(notes->line[i], en, k) && !strncmp(notes->line[i] + k, ": nothing to measure", 20)) return 1;
    return 0;
}

static void sec_header(FILE *f, const sl_report_ctx *R, const sl_notes *notes)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const char *exp = R->exp, *dirty = R->meta.git_dirty;
    const int on_gpu = R->on_gpu;
    fprintf(f, "# sumlab study: `%s`\n\n", R->exp);
    /* meta.json's strings are data that no check reads: Markdown text, each on its line */
    fprintf(f, "- backend: **%s**", on_gpu ? "GPU" : "CPU twins (same order of operations as the GPU kernels, bit for bit)");
    if (on_gpu) {
        fputs(" (", f);
        sl_report_md_text(f, R->meta.gpu_name);
        fputc(')', f);
    }
    fprintf(f, "\n- preset: %s, seed %s, started %s (last written ", R->preset, R->seed, R->started);
    sl_report_md_text(f, R->meta.date_utc);
    fputs(")\n- commit: ", f);
    sl_report_md_text(f, R->meta.git_sha);
    fprintf(f, "%s\n- rows: %zu in `results.csv`%s; provenance in `meta.json`\n",
            !strcmp(dirty, "yes") || !strcmp(dirty, "1") || !strcmp(dirty, "true") ? " (dirty tree)" : "", t->nrows,
            R->truncated ? " (**its last line, without a newline, left out**: an interrupted write, or an "
                           "edit that dropped the final newline)" : "");
    sl_report_sweep_line(f, R);
    /* which experiments have rows: one missing from an `all` run was skipped by design (GPU
     * only, on the CPU backend) or not reached (the run stopped before it) */
    fputs("- experiments:", f);
    int first = 1;
    for (size_t i = 0; i < sl_experiment_count(); i++) {
        const char *en = sl_experiment_at(i)->name;
        if (strcmp(exp, "all") ? strcmp(exp, en) != 0 : sl_experiment_opt_in(sl_experiment_at(i))) continue;
        long nr = 0;
        for (size_t r = 0; r < t->nrows; r++) nr += IS(r, exp, en);
        fprintf(f, "%s %s (", first ? "" : ";", en);
        char *own = nr || strcmp(en, "batch-invariance") ? NULL : batch_table(R);
        if (nr) fprintf(f, "%ld rows)", nr);
        else if (own)
            fputs("its own table: the section Batch invariance below)", f);
        else if (!strcmp(en, "batch-invariance") && !on_gpu && !strcmp(R->preset, "quick"))
            fputs("skipped: opt-in on the quick CPU preset; `sumlab run batch-invariance`)", f);
        else if (!strcmp(en, "ladder") && !ops_have_ladder(R->t))
            fputs("skipped: the operation has no variant of the source texts' ladders)", f);
        else if (!strcmp(en, "accuracy-vs-cond") && !ops_have_cond(R->t))
            fputs("skipped: the operation has no condition number to sweep)", f);
        else if (!on_gpu && strstr(sl_experiment_at(i)->description, "(GPU only)"))
            fputs("skipped: GPU only, the CPU backend has no GPU timings)", f);
        else if (notes_say_nothing(notes, en))
            fputs("no rows: nothing to measure under this run's settings, see Notes)", f);
        else fputs("**no rows: not reached, the run stopped before it**)", f);
        free(own);
        first = 0;
    }
    fputs("\n\n", f);
    const sl_operation *ops[16];
    const size_t nops = table_ops(R->t, ops, 16);
    if (nops == 1 && ops[0] != sl_op_default()) {
        /* one other operation: its own reference; the tables' S is its exact value */
        fprintf(f, "Errors are against the exact value of `%s`, S: %s. ulps are units in the last "
                   "place of S correctly rounded to the input format (rows with S = 0 are reported "
                   "apart: see the headline's notes); bound ratio = |error| / the variant's "
                   "a-priori bound (<= 1 expected).\n\n", ops[0]->name, ops[0]->reference_text);
        return;
    }
    fputs(nops > 1 ? "Errors are against the exact value S of each row's operation (the sum's: a "
                     "superaccumulator, checked against MPFR). ulps are "
                   : "Errors are against the exact sum S (superaccumulator, checked against MPFR). ulps are "
          , f);
    fputs("units in the last place of S correctly rounded to the input format (rows with S = 0 are "
          "reported apart: see the headline's notes); bound ratio = |error| / a-priori bound "
          "(Higham ch. 4; <= 1 expected).\n\n", f);
}

/* ## Determinism: every verdict, and the rules behind them. */
static void sec_determinism(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const int on_gpu = R->on_gpu;
    (void)t;
    (void)c;
    fputs("## Determinism (claimed class checked)\n\n", f);
    if (!R->nverd) {
        fputs("The determinism experiment was not run.\n\n", f);
    } else {
        fputs("| variant | claimed | verdict | observed | distinct over reps | spread (ulps) | detail |\n"
              "|---|---|---|---|---:|---:|---|\n", f);
        for (size_t q = 0; q < R->nverd; q++) {
            char sp[32], dist[32];
            sl_report_num(sp, sizeof sp, R->verd[q].spread_ulps);
            if (R->verd[q].reps_distinct >= 0) snprintf(dist, sizeof dist, "%ld", R->verd[q].reps_distinct);
            else snprintf(dist, sizeof dist, "-");
            fprintf(f, "| %s | %s | **%s** | %s | %s | %s | ", R->verd[q].variant, R->verd[q].claimed,
                    R->verd[q].verdict, R->verd[q].observed, dist, sp);
            sl_report_md_cell(f, R->verd[q].detail);   /* may quote results.csv's note: data */
            fputs(" |\n", f);
        }
        fputs("\nRules: nondeterministic claims pass trivially; run-to-run needs 1 distinct result over "
              "the repetitions of every row; config-independent also the same bits under every launch "
              "configuration (block 128/512/1024, grid 37, SM count 66/114); order-independent and "
              "correctly-rounded also under every permutation (reversed, sorted, shuffled, split = halves "
              "interleaved); `observed` is the strongest class whose every requirement was measured and held (a "
              "requirement without rows caps it). The claimed class is the variant's documentation: a claim "
              "that a measurement contradicts (several results over the repetitions of any experiment's rows, "
              "other bits under another configuration or order) FAILs, whatever the documentation says; PASS* "
              "where what was measured held but a requirement has no rows. ", f);
        if (!on_gpu)
            fputs("On the CPU backend this checks the twins, which model the GPU order; the GPU run "
                  "checks the hardware (atomics).", f);
        fputs("\n\n", f);
    }

}

/* The throughput table of dtype dt at its largest complete n: GB/s, / CUB, / read ceiling. */
static void tp_table(FILE *f, const sl_report_ctx *R, const char *dt)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    uint64_t nmax = sl_report_tp_n(t, &c, dt), nlast = 0;
    if (!nmax) return;
    for (size_t r = 0; r < t->nrows; r++)
        if (IS(r, exp, "throughput-vs-n") && IS(r, dtype, dt) && IS(r, status, "ok")) {
            uint64_t n = strtoull(GET(r, n), NULL, 10);
            if (n > nlast) nlast = n;
        }
    double cub = NAN, ceil = NAN;
    char nb[32];
    snprintf(nb, sizeof nb, "%llu", (unsigned long long)nmax);
    for (size_t r = 0; r < t->nrows; r++)
        if (IS(r, exp, "throughput-vs-n") && IS(r, dtype, dt) && IS(r, n, nb) && IS(r, status, "ok")) {
            if (IS(r, variant, "cub")) cub = NUM(r, gbps);
            if (IS(r, variant, "read-ceiling")) ceil = NUM(r, gbps);
        }
    fprintf(f, "### %s, n = %llu\n\n", dt, (unsigned long long)nmax);
    if (nlast > nmax)
        fprintf(f, "The largest n measured, %llu, is incomplete (the run stopped part-way through it): "
                   "this table is the largest complete n.\n\n", (unsigned long long)nlast);
    fputs("| variant | GB/s | / CUB | / read ceiling |\n|---|---:|---:|---:|\n", f);
    int cpu_rows = 0;
    const char *torch = NULL;   /* the PyTorch call's name (sl_operation.torch_call) when it has a row */
    for (size_t r = 0; r < t->nrows; r++) {
        if (!IS(r, exp, "throughput-vs-n") || !IS(r, dtype, dt) || !IS(r, n, nb) || !IS(r, status, "ok")) continue;
        double g = NUM(r, gbps);
        char a[32], b[32], cc[32];
        sl_report_num(a, sizeof a, g);
        /* a variant without a GPU kernel runs its CPU twin even on a GPU run: its wall
         * clock is no GPU throughput, so it is marked and not compared */
        int cpu = IS(r, backend, "cpu");
        cpu_rows += cpu;
        if (sl_op_is_torch_call(GET(r, variant))) torch = GET(r, variant);
        sl_report_num(b, sizeof b, cpu ? NAN : g / cub);
        sl_report_num(cc, sizeof cc, cpu ? NAN : g / ceil);
        fprintf(f, "| %s%s | %s | %s | %s |\n", GET(r, variant), cpu ? " (CPU twin, wall clock)" : "", a, b, cc);
    }
    fputc('\n', f);
    if (cpu_rows)
        fputs("(CPU twin, wall clock): the variant has no GPU kernel, so the run timed its CPU twin "
              "on one core; not a GPU throughput, not compared.\n\n", f);
    if (torch)
        fprintf(f, "%s: the operation's PyTorch call on CUDA tensors, timed by "
                   "experiments/anchors/throughput_torch.py on its own input (throughput_torch.csv in this "
                   "directory): CUDA events, L2 flushed before each call, the median of its repetitions, as "
                   "the study's GPU rows.%s\n\n", torch,
                isnan(ceil) && isnan(cub) ? " This run has no GPU rows of its own to compare it with (the "
                                            "CPU backend, or the run stopped before): run throughput-vs-n on "
                                            "the GPU for sumlab's variants and the read ceiling beside it." : "");
    char stem[64];
    snprintf(stem, sizeof stem, "throughput_vs_n_%s", dt);
    sl_report_charts_at(f, R->dir, stem, R->on_gpu);
}

/* ## Throughput (GPU rows of throughput-vs-n), or why there is none. */
static void sec_throughput(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const char *exp = R->exp;
    const int on_gpu = R->on_gpu;
    fputs("## Throughput\n\n", f);
    int any_tp = 0;
    for (size_t r = 0; r < t->nrows && !any_tp; r++) any_tp = IS(r, exp, "throughput-vs-n") && IS(r, status, "ok");
    const int tp_planned = !strcmp(exp, "all") || !strcmp(exp, "throughput-vs-n");
    if (!any_tp) {
        if (!on_gpu)
            fputs("throughput-vs-n skipped: it needs a GPU (the CPU backend's wall clock times the twins, "
                  "not a GPU); see the tradeoff below for the twins' wall clock.\n\n", f);
        else if (tp_planned)
            fputs("throughput-vs-n: not measured: results.csv has no throughput-vs-n rows (the run stopped "
                  "before reaching it).\n\n", f);
        else
            fputs("throughput-vs-n was not part of this run.\n\n", f);
    } else {
        for (int d = 0; d < SL_REPORT_NDTYPES; d++) tp_table(f, R, sl_report_dtypes[d]);
    }
}

/* ### Tradeoff: per dtype and variant, the median error and the median GB/s. */
static void sec_tradeoff(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const char *exp = R->exp, *dir = R->dir;
    const int on_gpu = R->on_gpu;
    double *buf = R->buf, *buf2 = R->buf2;
    int any_to = 0;
    for (size_t r = 0; r < t->nrows && !any_to; r++) any_to = IS(r, exp, "tradeoff") && IS(r, status, "ok");
    const int to_planned = !strcmp(exp, "all") || !strcmp(exp, "tradeoff");
    fputs("### Tradeoff: error vs throughput, one point per variant\n\n", f);
    if (!any_to) {
        if (to_planned) {
            /* the command as a code span whose fence is longer than any run of backticks in the
             * directory's name (a name is the user's, any bytes but '/' and NUL) */
            size_t run = 0, most = 0;
            for (const char *p = dir; *p; p++) {
                run = *p == '`' ? run + 1 : 0;
                if (run > most) most = run;
            }
            fputs("Not measured: results.csv has no tradeoff rows. The run stopped before the tradeoff "
                  "experiment (it runs last), so this report has no tradeoff table and no tradeoff chart; ", f);
            for (size_t k = 0; k <= most; k++) fputc('`', f);
            fprintf(f, " sumlab run %s -o ", exp);
            for (const char *p = dir; *p; p++) fputc(*p == '\n' || *p == '\r' ? '?' : *p, f);
            fputs(" --resume ", f);
            for (size_t k = 0; k <= most; k++) fputc('`', f);
            fputs(" on the same backend measures it.\n\n", f);
        }
        else
            fputs("tradeoff was not part of this run (no tradeoff table or chart).\n\n", f);
    } else {
        const char *be = on_gpu ? "gpu" : "cpu";
        uint64_t ton = 0;
        for (size_t r = 0; r < t->nrows && !ton; r++)
            if (IS(r, exp, "tradeoff")) ton = strtoull(GET(r, n), NULL, 10);
        if (on_gpu)
            fprintf(f, "n = %llu; medians over the tradeoff datasets (uniform, uniform-sym, normal, log-uniform, "
                       "sorted-inc, alternating). GB/s: GPU rows only (input bytes / median time of the timed "
                       "repetitions).\n\n", (unsigned long long)ton);
        else
            fprintf(f, "**CPU twins: wall-clock throughput of the twin, not of a GPU.** n = %llu; medians over "
                       "the tradeoff datasets (uniform, uniform-sym, normal, log-uniform, sorted-inc, "
                       "alternating). GB/s is input bytes / median wall-clock time of the CPU twin on one core: "
                       "it ranks the twins on this machine and says nothing about GPU speed. Variants without "
                       "a twin (cub) are not measured.\n\n", (unsigned long long)ton);
        fprintf(f, "| dtype | variant | median err (ulps), S != 0 | median GB/s%s |\n|---|---|---:|---:|\n",
                on_gpu ? "" : " (CPU twin, wall clock)");
        for (int d = 0; d < SL_REPORT_NDTYPES; d++)
            for (size_t i = 0; i < R->nv; i++) {
                size_t k = 0, k2 = 0;
                for (size_t r = 0; r < t->nrows; r++)
                    if (IS(r, exp, "tradeoff") && IS(r, dtype, sl_report_dtypes[d]) && IS(r, variant, R->names[i]) && IS(r, status, "ok")) {
                        double u = NUM(r, ulps), g = NUM(r, gbps);
                        if (!isnan(u) && !isinf(u) && !sl_report_exact_zero(t, &c, r)) buf[k++] = u;
                        if (!isnan(g) && IS(r, backend, be)) buf2[k2++] = g;
                    }
                if (!k && !k2) continue;
                char a[32], b[32];
                sl_report_num(a, sizeof a, sl_median(buf, k));
                sl_report_num(b, sizeof b, sl_median(buf2, k2));
                fprintf(f, "| %s | %s | %s | %s |\n", sl_report_dtypes[d], R->names[i], a, b);
            }
        fputc('\n', f);
    }
    sl_report_charts_at(f, R->dir, "tradeoff_", R->on_gpu);

}

/* ## GPU vs CPU twin: how many GPU rows were compared, and those that differ. */
static void sec_twin(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const int on_gpu = R->on_gpu;
    long checked = 0, mism = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (IS(r, twin_checked, "1")) { checked++; if (IS(r, twin_match, "0")) mism++; }
    if (on_gpu || checked) {
        fprintf(f, "## GPU vs CPU twin\n\n%ld GPU rows were compared with their CPU twin (n <= 2^22): "
                   "%ld differ%s\n\n", checked, mism, mism ? " (rows with note `GPU result differs from its CPU twin`)" : ".");
        long shown = 0;
        for (size_t r = 0; r < t->nrows && shown < 20; r++)
            if (IS(r, twin_match, "0")) {
                fprintf(f, "- %s %s %s n=%s %s (%s)\n", GET(r, exp), GET(r, ds), GET(r, dtype), GET(r, n),
                        GET(r, variant), GET(r, config));
                shown++;
            }
        if (shown) fputc('\n', f);
    }

}

/* ## Self-checks: the one verdict (sl_verdict.h) the run decided for every measured row, as its
 * `check` column holds it: rows checked, and the rows that failed. */
static void sec_checks(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    if (c.check < 0) return;
    long checked = 0, failed = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (IS(r, status, "ok") && *GET(r, check)) { checked++; failed += IS(r, check, "FAILED"); }
    fprintf(f, "## Self-checks\n\n%ld measured rows were checked (twin equality, one result from a "
               "deterministic variant, the result within its a-priori bound, a correctly rounded "
               "variant equal to the exact result rounded once): %ld failed%s\n\n", checked, failed,
            failed ? " (the run's stderr names each failed check):" : ".");
    long shown = 0;
    for (size_t r = 0; r < t->nrows && shown < 50; r++)
        if (IS(r, check, "FAILED")) {
            fprintf(f, "- %s %s %s n=%s %s (%s, %s)\n", GET(r, exp), GET(r, ds), GET(r, dtype), GET(r, n),
                    GET(r, variant), GET(r, config), GET(r, backend));
            shown++;
        }
    if (shown) fputc('\n', f);
}

/* ## Skipped measurements: counted, one reason per variant. */
static void sec_skipped(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    long nskip = 0;
    for (size_t r = 0; r < t->nrows; r++) nskip += IS(r, status, "skipped");
    if (nskip) {
        fprintf(f, "## Skipped measurements\n\n%ld rows are `skipped` (the variant cannot run that input "
                   "here); reasons, one per variant:\n\n", nskip);
        for (size_t i = 0; i < R->nv; i++) {
            long cnt = 0;
            const char *why = NULL;
            for (size_t r = 0; r < t->nrows; r++)
                if (IS(r, variant, R->names[i]) && IS(r, status, "skipped")) { cnt++; if (!why) why = GET(r, note); }
            if (!cnt) continue;
            fprintf(f, "- %s: %ld rows, e.g. \"", R->names[i], cnt);
            sl_report_md_text(f, why ? why : "");   /* results.csv's text: data */
            fputs("\"\n", f);
        }
        fputc('\n', f);
    }
}

/* ## Notes (the run's) and ## Files. */
static void sec_notes_files(FILE *f, const sl_notes *notes)
{
    if (notes && notes->n > 0) {
        fputs("## Notes\n\n", f);
        for (int i = 0; i < notes->n; i++) {   /* text, also when read back from run_notes.txt */
            fputs("- ", f);
            sl_report_md_text(f, notes->line[i]);
            fputc('\n', f);
        }
        fputc('\n', f);
    }
    fputs("## Files\n\n- `results.csv`: one row per measurement (key: experiment, dataset, params, dtype, n, "
          "variant, config); bit patterns as C99 `%a` hex in `result_hex`/`exact_hex`\n"
          "- `distribution.csv`: every distinct result of the determinism repetitions, with its count and "
          "signed distance from the exact sum in ulps\n- `meta.json`: provenance (commit, compiler, CUDA, GPU, "
          "MPFR, date, argv); `run.conf`: settings used by `--resume`; `run_notes.txt`: the run's notes, "
          "for `--report-only`\n- `report.html`: this report as one "
          "page (charts inline as SVG up to 1.5 MB, the others linked from `charts/`: keep the directory "
          "together; sortable tables, provenance)\n- `charts/`: PNG and SVG, rendered by "
          "`plots/render.sh DIR` from the CSV alone\n", f);
}

/* The run's settings from run.conf ("?" for what it lacks) and meta.json. */
static void read_settings(sl_report_ctx *R)
{
    sl_runconf conf;
    sl_err ignored;
    /* each setting's room is run.conf's own: copied whole */
    _Static_assert(sizeof R->exp >= sizeof conf.experiment && sizeof R->preset >= sizeof conf.preset &&
                       sizeof R->backend >= sizeof conf.backend && sizeof R->started >= sizeof conf.started &&
                       sizeof R->variants >= sizeof conf.variants,
                   "the report's settings hold run.conf's");
    sl_runconf_read(R->dir, &conf);
    snprintf(R->exp, sizeof R->exp, "%s", conf.seen & SL_CONF_EXPERIMENT ? conf.experiment : "?");
    snprintf(R->preset, sizeof R->preset, "%s", conf.seen & SL_CONF_PRESET ? conf.preset : "?");
    snprintf(R->backend, sizeof R->backend, "%s", conf.seen & SL_CONF_BACKEND ? conf.backend : "?");
    if (conf.seen & SL_CONF_SEED) snprintf(R->seed, sizeof R->seed, "%llu", conf.seed);
    else snprintf(R->seed, sizeof R->seed, "?");
    snprintf(R->started, sizeof R->started, "%s", conf.seen & SL_CONF_STARTED ? conf.started : "?");
    snprintf(R->variants, sizeof R->variants, "%s", conf.variants);
    sl_meta_read(R->dir, &R->meta, &ignored);
    R->on_gpu = !strcmp(R->backend, "gpu");
}

/* R->verd into the order of R->names (stable). */
static void order_verdicts(sl_report_ctx *R)
{
    static sl_det_verdict tmp[SL_REPORT_MAX_VARIANTS];   /* as many as R->verd holds */
    size_t k = 0;
    for (size_t i = 0; i < R->nv; i++)
        for (size_t q = 0; q < R->nverd && k < SL_REPORT_MAX_VARIANTS; q++)
            if (!strcmp(R->verd[q].variant, R->names[i])) tmp[k++] = R->verd[q];
    for (size_t q = 0; q < R->nverd && k < SL_REPORT_MAX_VARIANTS; q++) {   /* (every verdict's variant is a name) */
        size_t i = 0;
        while (i < R->nv && strcmp(R->verd[q].variant, R->names[i])) i++;
        if (i == R->nv) tmp[k++] = R->verd[q];
    }
    memcpy(R->verd, tmp, k * sizeof *tmp);
    R->nverd = k;
}

/* The sections of one operation's rows (R->t holds only them). */
static void write_op_sections(FILE *f, const sl_report_ctx *R)
{
    sl_report_headline(f, R);
    sl_report_findings(f, R);
    sl_report_sweeps(f, R);
    sl_report_tightness(f, R);
    sl_report_zero_results(f, R);
    sl_report_nonfinite(f, R);
    sl_report_range(f, R);
    sl_report_advice(f, R);
    sl_report_anchors(f, R);
    sec_determinism(f, R);
    sl_report_det_inputs(f, R);
    sec_throughput(f, R);
    sl_report_ladders(f, R);
    sl_report_launch(f, R);
    sec_tradeoff(f, R);
    sec_twin(f, R);
    sec_checks(f, R);
    sec_skipped(f, R);
}

/* The operations t holds, in registry order (a table without an op column holds sums). */
static size_t table_ops(const sl_csv *t, const sl_operation **out, size_t max)
{
    const int col = sl_csv_col(t, "op");
    size_t k = 0;
    for (size_t i = 0; i < sl_op_count() && k < max; i++) {
        const sl_operation *op = sl_op_at(i);
        int have = col < 0 && op == sl_op_default();
        for (size_t r = 0; col >= 0 && r < t->nrows && !have; r++) have = !strcmp(sl_csv_get(t, r, col), op->name);
        if (have) out[k++] = op;
    }
    return k;
}

/* 1 when an operation t holds has a variant of the source texts' ladders (the sum) */
static int ops_have_ladder(const sl_csv *t)
{
    const sl_operation *ops[16];
    const size_t nops = table_ops(t, ops, 16);
    for (size_t i = 0; i < sl_variant_count(); i++)
        for (size_t k = 0; k < nops; k++)
            if (sl_op_of(sl_variant_at(i)) == ops[k] && sl_ladder_has(sl_variant_at(i))) return 1;
    return 0;
}

/* 1 when an operation t holds has a parameter for accuracy-vs-cond to sweep (norm2, max, min have
 * none: cond is 1 for every input, or no condition number is defined) */
static int ops_have_cond(const sl_csv *t)
{
    const sl_operation *ops[16];
    const size_t nops = table_ops(t, ops, 16);
    for (size_t k = 0; k < nops; k++)
        if (ops[k]->cond_family) return 1;
    return 0;
}

/* R's per-table figures (variant names, determinism verdicts) for the rows R->t holds. */
static void ctx_rows(sl_report_ctx *R)
{
    R->nv = sl_report_variant_names(R->t, R->names, SL_REPORT_MAX_VARIANTS);
    R->nverd = sl_det_verdicts(R->t, R->verd, SL_REPORT_MAX_VARIANTS);
    /* every table in the order `run --variants` named them (registry order for all) */
    sl_report_order_names(R->variants, R->names, R->nv);
    order_verdicts(R);
}

/* Every section into f: the run's header, the sections of each operation (under its own heading
 * when the run holds several), the charts and the notes. -1 when out of memory. */
static int write_sections(FILE *f, sl_report_ctx *R, const sl_notes *notes)
{
    const sl_csv *all = R->t;
    const sl_operation *ops[16];
    const size_t nops = table_ops(all, ops, 16);
    sec_header(f, R, notes);
    if (nops <= 1) {
        write_op_sections(f, R);
    } else {
        const int col = sl_csv_col(all, "op");
        sl_csv view = *all;                       /* the op's rows: the table's cells, shared */
        view.cell = malloc((all->nrows + 1) * sizeof *view.cell);
        if (!view.cell) return -1;
        for (size_t k = 0; k < nops; k++) {
            view.nrows = 0;
            for (size_t r = 0; r < all->nrows; r++)
                if (!strcmp(sl_csv_get(all, r, col), ops[k]->name)) view.cell[view.nrows++] = all->cell[r];
            fprintf(f, "# Operation `%s`: %s\n\n", ops[k]->name, ops[k]->description);
            R->t = &view;
            ctx_rows(R);
            write_op_sections(f, R);
        }
        free(view.cell);
        R->t = all;
        ctx_rows(R);
    }
    sec_batch(f, R);
    sl_report_user_anchors(f, R);
    sl_report_charts(f, R->dir, R->on_gpu);
    sec_notes_files(f, notes);
    return 0;
}

int sl_report_write(const char *dir, const sl_notes *notes, sl_err *err)
{
    char rpath[SL_DIR_MAX + 64];
    if (sl_check_dir_len(dir, err) || sl_path_join(rpath, sizeof rpath, dir, "results.csv", err)) return -1;
    sl_csv t;
    int truncated = 0;
    if (sl_csv_read(rpath, &t, &truncated, err)) return -1;
    if (truncated)
        fprintf(stderr, "sumlab: %s: its last line has no newline (an interrupted write?): left out of the "
                        "report (%zu rows)\n", rpath, t.nrows);
    /* every field checked before any reaches report.md or report.html */
    if (sl_check_run_dir(dir, &t, err)) {
        sl_csv_free(&t);
        return -1;
    }
    static sl_report_ctx R;
    memset(&R, 0, sizeof R);
    R.dir = dir;
    R.t = &t;
    R.truncated = truncated;
    sl_report_cols(&t, &R.c);
    if (R.c.exp < 0 || R.c.variant < 0 || R.c.ulps < 0) {
        sl_csv_free(&t);
        return sl_err_set(err, "%s lacks the sumlab columns", rpath);
    }
    /* composed in memory, then written whole (write, fsync, rename): a failed write names its
     * real reason, and no partial report or .tmp is left */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) { sl_csv_free(&t); return sl_err_set(err, "cannot compose report.md: %s", strerror(errno)); }
    read_settings(&R);
    ctx_rows(&R);
    R.buf = malloc((t.nrows + 1) * sizeof *R.buf);
    R.buf2 = malloc((t.nrows + 1) * sizeof *R.buf2);
    if (!R.buf || !R.buf2) {
        free(R.buf); free(R.buf2); fclose(f); free(text); sl_csv_free(&t);
        return sl_err_set(err, "out of memory");
    }
    int bad = write_sections(f, &R, notes) != 0;
    free(R.buf);
    free(R.buf2);
    bad |= ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        free(text);
        sl_csv_free(&t);
        return sl_err_set(err, "cannot compose report.md: out of memory");
    }
    sl_path_join(rpath, sizeof rpath, dir, "report.md", NULL);
    /* report.html: the same text as one page (R's strings point into t) */
    int rc = sl_write_atomic(rpath, text, len, err);
    if (!rc) rc = sl_report_latex_write(dir, text, len, err);   /* the tables as LaTeX */
    if (!rc) rc = sl_report_html_write(&R, text, len, err);
    free(text);
    sl_csv_free(&t);
    if (rc) return -1;
    return 0;
}

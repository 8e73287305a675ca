/* report.c: DIR/report.md from DIR/results.csv alone (so a resumed or copied run reports
 * the same): the headline table per variant and dtype, the determinism verdicts against each
 * variant's claimed class, throughput against CUB and the read ceiling, twin self-checks,
 * and links to the charts that plots/render.sh produced. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "sl_experiments.h"

typedef struct {
    int exp, ds, dtype, n, variant, config, det_class, status, result_hex, exact_hex, distinct,
        spread, ulps, bound_ratio, gbps, backend, reps, twin_checked, twin_match, note, params;
} cols;

static void find_cols(const sl_csv *t, cols *c)
{
    c->exp = sl_csv_col(t, "experiment");
    c->ds = sl_csv_col(t, "dataset");
    c->params = sl_csv_col(t, "params");
    c->dtype = sl_csv_col(t, "dtype");
    c->n = sl_csv_col(t, "n");
    c->variant = sl_csv_col(t, "variant");
    c->config = sl_csv_col(t, "config");
    c->det_class = sl_csv_col(t, "det_class");
    c->status = sl_csv_col(t, "status");
    c->result_hex = sl_csv_col(t, "result_hex");
    c->exact_hex = sl_csv_col(t, "exact_hex");
    c->distinct = sl_csv_col(t, "distinct");
    c->spread = sl_csv_col(t, "spread_ulps");
    c->ulps = sl_csv_col(t, "ulps");
    c->bound_ratio = sl_csv_col(t, "bound_ratio");
    c->gbps = sl_csv_col(t, "gbps");
    c->backend = sl_csv_col(t, "backend");
    c->reps = sl_csv_col(t, "reps");
    c->twin_checked = sl_csv_col(t, "twin_checked");
    c->twin_match = sl_csv_col(t, "twin_match");
    c->note = sl_csv_col(t, "note");
}

#define GET(r, col) sl_csv_get(t, (r), c.col)
#define NUM(r, col) sl_csv_num(t, (r), c.col)
#define IS(r, col, s) (!strcmp(GET(r, col), (s)))

/* ---- variant names: registry order, then any other names in the table ------------------ */
static size_t variant_names(const sl_csv *t, const char **out, size_t max)
{
    cols c;
    find_cols(t, &c);
    size_t k = 0;
    for (size_t i = 0; i < sl_variant_count() && k < max; i++) {
        const char *name = sl_variant_at(i)->name;
        for (size_t r = 0; r < t->nrows; r++)
            if (IS(r, variant, name)) { out[k++] = name; break; }
    }
    for (size_t r = 0; r < t->nrows && k < max; r++) {
        const char *name = GET(r, variant);
        size_t j = 0;
        while (j < k && strcmp(out[j], name)) j++;
        if (j == k) out[k++] = name;
    }
    return k;
}

static int class_rank(const char *s)
{
    static const char *const names[] = {"nondeterministic", "run-to-run", "config-independent",
                                        "order-independent", "correctly-rounded"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) return i;
    return -1;
}
static const char *class_name(int r)
{
    static const char *const names[] = {"nondeterministic", "run-to-run", "config-independent",
                                        "order-independent", "correctly-rounded"};
    return r >= 0 && r < 5 ? names[r] : "unknown";
}

size_t sl_det_verdicts(const sl_csv *t, sl_det_verdict *out, size_t max)
{
    cols c;
    find_cols(t, &c);
    const char *names[64];
    size_t nv = variant_names(t, names, 64), k = 0;
    for (size_t i = 0; i < nv && k < max; i++) {
        sl_det_verdict *v = &out[k];
        memset(v, 0, sizeof *v);
        snprintf(v->variant, sizeof v->variant, "%s", names[i]);
        v->reps_distinct = -1;
        v->spread_ulps = NAN;
        long nrows = 0, nok = 0, ndef = 0, ncfg = 0, nperm = 0, cfg_diff = 0, perm_diff = 0,
             rep_diff = 0, cr_diff = 0;
        const char *skip_note = NULL;
        long reps_max = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            if (!IS(r, exp, "determinism") || !IS(r, variant, names[i])) continue;
            nrows++;
            if (!v->claimed[0]) snprintf(v->claimed, sizeof v->claimed, "%s", GET(r, det_class));
            if (!IS(r, status, "ok")) { if (!skip_note) skip_note = GET(r, note); continue; }
            nok++;
            long d = (long)NUM(r, distinct);
            if (d != 1) rep_diff++;
            if (strcmp(GET(r, result_hex), GET(r, exact_hex))) cr_diff++;
            const char *cfg = GET(r, config);
            if (!strcmp(cfg, "default")) {
                ndef++;
                if (d > v->reps_distinct) v->reps_distinct = d;
                long rp = (long)NUM(r, reps);
                if (rp > reps_max) reps_max = rp;
                double sp = NUM(r, spread);
                if (!isnan(sp) && (isnan(v->spread_ulps) || sp > v->spread_ulps)) v->spread_ulps = sp;
                continue;
            }
            /* the default row of the same input */
            const char *base = NULL;
            for (size_t q = 0; q < t->nrows && !base; q++)
                if (IS(q, exp, "determinism") && IS(q, variant, names[i]) && IS(q, config, "default") &&
                    IS(q, status, "ok") && !strcmp(GET(q, ds), GET(r, ds)) &&
                    !strcmp(GET(q, dtype), GET(r, dtype)) && !strcmp(GET(q, n), GET(r, n)) &&
                    !strcmp(GET(q, params), GET(r, params)))
                    base = GET(q, result_hex);
            int differs = !base || strcmp(base, GET(r, result_hex));
            if (!strncmp(cfg, "cfg:", 4)) { ncfg++; cfg_diff += differs; }
            else if (!strncmp(cfg, "perm:", 5)) { nperm++; perm_diff += differs; }
        }
        if (!nrows) continue;     /* no determinism rows for this variant */
        k++;
        if (!v->claimed[0]) snprintf(v->claimed, sizeof v->claimed, "unknown");
        if (!nok) {
            snprintf(v->verdict, sizeof v->verdict, "n/a");
            snprintf(v->observed, sizeof v->observed, "-");
            snprintf(v->detail, sizeof v->detail, "not run on this backend: %s", skip_note ? skip_note : "");
            continue;
        }
        int obs;
        if (rep_diff) obs = 0;
        else if (cfg_diff) obs = 1;
        else if (perm_diff) obs = 2;
        else if (cr_diff) obs = 3;
        else obs = 4;
        snprintf(v->observed, sizeof v->observed, "%s", class_name(obs));
        int claimed = class_rank(v->claimed);
        int complete = ndef > 0 && ncfg > 0 && nperm > 0;
        if (claimed == 0) snprintf(v->verdict, sizeof v->verdict, "PASS");
        else if (obs >= claimed) snprintf(v->verdict, sizeof v->verdict, complete ? "PASS" : "PASS*");
        else snprintf(v->verdict, sizeof v->verdict, "FAIL");
        snprintf(v->detail, sizeof v->detail,
                 "%s%ld distinct of %ld reps (max over inputs); %ld/%ld configs and %ld/%ld "
                 "permutations gave other bits than the default%s",
                 claimed == 0 ? "claim is trivially met; " : "", v->reps_distinct, reps_max, cfg_diff,
                 ncfg, perm_diff, nperm, complete ? "" : " (*incomplete run)");
    }
    return k;
}

/* ---- small statistics ------------------------------------------------------------------ */
static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(double *v, size_t n)
{
    if (!n) return NAN;
    qsort(v, n, sizeof *v, cmpd);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void fmt_num(char *b, size_t len, double v)
{
    if (isnan(v)) snprintf(b, len, "-");
    else if (isinf(v)) snprintf(b, len, "inf");
    else if (v == 0) snprintf(b, len, "0");
    else if (fabs(v) >= 1e5 || fabs(v) < 1e-3) snprintf(b, len, "%.2e", v);
    else snprintf(b, len, "%.3g", v);
}

/* ---- meta: a few strings from run.conf / meta.json ----------------------------------------- */
static void conf_value(const char *dir, const char *key, char *out, size_t len)
{
    char path[1100], line[512];
    snprintf(out, len, "?");
    snprintf(path, sizeof path, "%s/run.conf", dir);
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == '=') {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(out, len, "%s", line + kl + 1);
        }
    fclose(f);
}

static void meta_value(const char *dir, const char *key, char *out, size_t len)
{
    char path[1100], pat[96];
    snprintf(out, len, "?");
    snprintf(path, sizeof path, "%s/meta.json", dir);
    FILE *f = fopen(path, "r");
    if (!f) return;
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    snprintf(pat, sizeof pat, "\"%s\":", key);
    char *p = strstr(buf, pat);
    if (!p) return;
    p += strlen(pat);
    while (*p == ' ') p++;
    size_t k = 0;
    if (*p == '"') {
        p++;
        while (*p && *p != '"' && k + 1 < len) out[k++] = *p++;
    } else {
        while (*p && *p != ',' && *p != '\n' && *p != '}' && k + 1 < len) out[k++] = *p++;
    }
    out[k] = '\0';
}

/* ---- charts ------------------------------------------------------------------------------- */
static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void write_charts(FILE *f, const char *dir)
{
    char cdir[1100];
    snprintf(cdir, sizeof cdir, "%s/charts", dir);
    fputs("## Charts\n\n", f);
    DIR *d = opendir(cdir);
    char *names[512];
    size_t nn = 0;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && nn < 512) {
            size_t l = strlen(e->d_name);
            if (l > 4 && !strcmp(e->d_name + l - 4, ".png")) names[nn++] = strdup(e->d_name);
        }
        closedir(d);
    }
    qsort(names, nn, sizeof *names, cmpstr);
    static const struct { const char *prefix, *title; } kinds[] = {
        {"error_vs_n", "Error vs n (relative error, log-log; dashed: a-priori bounds; dotted: unit roundoff)"},
        {"error_vs_cond", "Error vs condition number"},
        {"error_vs_range", "Error vs dynamic range (binades)"},
        {"throughput_vs_n", "Throughput vs n (CUB and the read ceiling as reference lines)"},
        {"tradeoff", "Accuracy vs throughput (one point per variant)"},
        {"distribution", "Distribution of results of the nondeterministic variants"},
    };
    if (!nn) fputs("No charts in charts/ (see the notes below).\n\n", f);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int header = 0;
        for (size_t i = 0; i < nn; i++) {
            if (strncmp(names[i], kinds[k].prefix, strlen(kinds[k].prefix))) continue;
            if (!header) { fprintf(f, "### %s\n\n", kinds[k].title); header = 1; }
            char stem[256];
            snprintf(stem, sizeof stem, "%.*s", (int)(strlen(names[i]) - 4), names[i]);
            fprintf(f, "![%s](charts/%s.png)\n[PNG](charts/%s.png) | [SVG](charts/%s.svg)\n\n", stem, stem, stem, stem);
        }
    }
    for (size_t i = 0; i < nn; i++) free(names[i]);
    char npath[1200], line[1024];
    snprintf(npath, sizeof npath, "%s/notes.txt", cdir);
    FILE *nf = fopen(npath, "r");
    if (nf) {
        int any = 0;
        while (fgets(line, sizeof line, nf)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (!*line) continue;
            if (!any) { fputs("Chart notes (from plots/render.sh):\n\n", f); any = 1; }
            fprintf(f, "- %s\n", line);
        }
        if (any) fputc('\n', f);
        fclose(nf);
    }
}

/* ---- the report ------------------------------------------------------------------------- */
int sl_report_write(const char *dir, const char *const *notes, int nnotes, sl_err *err)
{
    char path[1100], rpath[1100];
    snprintf(rpath, sizeof rpath, "%s/results.csv", dir);
    sl_csv tt, *t = &tt;
    if (sl_csv_read(rpath, t, NULL, err)) return -1;
    cols c;
    find_cols(t, &c);
    if (c.exp < 0 || c.variant < 0 || c.ulps < 0) {
        sl_csv_free(t);
        return sl_err_set(err, "%s lacks the sumlab columns", rpath);
    }
    snprintf(path, sizeof path, "%s/report.md.tmp", dir);
    FILE *f = fopen(path, "w");
    if (!f) { sl_csv_free(t); return sl_err_set(err, "cannot write %s: %s", path, strerror(errno)); }

    char exp[64], preset[16], backend[16], seed[32], started[40], sha[64], dirty[8], gpu[256], date[40];
    conf_value(dir, "experiment", exp, sizeof exp);
    conf_value(dir, "preset", preset, sizeof preset);
    conf_value(dir, "backend", backend, sizeof backend);
    conf_value(dir, "seed", seed, sizeof seed);
    conf_value(dir, "started", started, sizeof started);
    meta_value(dir, "git_sha", sha, sizeof sha);
    meta_value(dir, "git_dirty", dirty, sizeof dirty);
    meta_value(dir, "gpu_name", gpu, sizeof gpu);
    meta_value(dir, "date_utc", date, sizeof date);
    const int on_gpu = !strcmp(backend, "gpu");

    fprintf(f, "# sumlab study: `%s`\n\n", exp);
    fprintf(f, "- backend: **%s**%s%s%s\n- preset: %s, seed %s, started %s (last written %s)\n"
               "- commit: %s%s\n- rows: %zu in `results.csv`; provenance in `meta.json`\n\n",
            on_gpu ? "GPU" : "CPU twins (same order of operations as the GPU kernels, bit for bit)",
            on_gpu ? " (" : "", on_gpu ? gpu : "", on_gpu ? ")" : "", preset, seed, started, date,
            sha, !strcmp(dirty, "yes") || !strcmp(dirty, "1") || !strcmp(dirty, "true") ? " (dirty tree)" : "", t->nrows);
    fputs("Errors are against the exact sum (superaccumulator, checked against MPFR). ulps are "
          "units in the last place of the correctly rounded exact sum in the input format; "
          "bound ratio = |error| / a-priori bound (Higham ch. 4; <= 1 expected).\n\n", f);

    const char *names[64];
    size_t nv = variant_names(t, names, 64);
    sl_det_verdict verd[64];
    size_t nverd = sl_det_verdicts(t, verd, 64);
    double *buf = malloc((t->nrows + 1) * sizeof *buf);
    double *buf2 = malloc((t->nrows + 1) * sizeof *buf2);
    if (!buf || !buf2) { free(buf); free(buf2); fclose(f); sl_csv_free(t); return sl_err_set(err, "out of memory"); }

    /* headline */
    static const char *const dts[] = {"f32", "f64"};
    int any_acc = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (!strncmp(GET(r, exp), "accuracy-", 9) && IS(r, status, "ok")) any_acc = 1;
    fputs("## Headline\n\n", f);
    if (!any_acc) fputs("No accuracy rows in this run (accuracy-vs-* experiments not run).\n\n", f);
    for (int d = 0; d < 2; d++) {
        int any = 0;
        for (size_t r = 0; r < t->nrows && !any; r++) any = IS(r, dtype, dts[d]);
        if (!any) continue;
        fprintf(f, "### %s input\n\n", dts[d]);
        fputs("| variant | class | median err (ulps) | max err (ulps) | non-finite | max bound ratio "
              "| distinct (reps) | determinism | GB/s |\n|---|---|---:|---:|---:|---:|---:|---|---:|\n", f);
        for (size_t i = 0; i < nv; i++) {
            if (!strcmp(names[i], "read-ceiling")) continue;
            size_t k = 0, nonfin = 0;
            double br_max = NAN;
            const char *cls = "";
            uint64_t best_n = 0;
            double gb = NAN;
            for (size_t r = 0; r < t->nrows; r++) {
                if (!IS(r, variant, names[i]) || !IS(r, dtype, dts[d])) continue;
                if (!*cls) cls = GET(r, det_class);
                if (!IS(r, status, "ok")) continue;
                if (!strncmp(GET(r, exp), "accuracy-", 9)) {
                    double u = NUM(r, ulps);
                    if (isinf(u)) nonfin++;
                    else if (!isnan(u)) buf[k++] = u;
                    double br = NUM(r, bound_ratio);
                    if (!isnan(br) && !isinf(br) && (isnan(br_max) || br > br_max)) br_max = br;
                }
                if (IS(r, exp, "throughput-vs-n") && IS(r, backend, "gpu")) {
                    uint64_t n = strtoull(GET(r, n), NULL, 10);
                    if (n >= best_n) { best_n = n; gb = NUM(r, gbps); }
                }
            }
            double mx = k ? buf[0] : NAN;
            for (size_t q = 1; q < k; q++) if (buf[q] > mx) mx = buf[q];
            double med = median(buf, k);
            const sl_det_verdict *v = NULL;
            for (size_t q = 0; q < nverd; q++) if (!strcmp(verd[q].variant, names[i])) v = &verd[q];
            char a[32], b[32], br[48], g[32], dist[48];
            fmt_num(a, sizeof a, med);
            fmt_num(b, sizeof b, mx);
            fmt_num(br, sizeof br, br_max);
            if (br_max > 1) strncat(br, " **VIOLATED**", sizeof br - strlen(br) - 1);
            fmt_num(g, sizeof g, gb);
            if (v && v->reps_distinct >= 0) snprintf(dist, sizeof dist, "%ld", v->reps_distinct);
            else snprintf(dist, sizeof dist, "-");
            fprintf(f, "| %s | %s | %s | %s | %zu | %s | %s | %s | %s |\n", names[i], *cls ? cls : "-",
                    k ? a : "-", k ? b : "-", nonfin, br, dist, v ? v->verdict : "-", g);
        }
        fputc('\n', f);
    }
    fputs("`non-finite`: rows where the variant returned Inf/NaN against a finite or different "
          "exact sum (overflow and special-value families). `distinct`: most distinct results over "
          "the determinism experiment's repetitions. GB/s: throughput-vs-n at its largest n.\n\n", f);

    /* determinism */
    fputs("## Determinism (claimed class checked)\n\n", f);
    if (!nverd) {
        fputs("The determinism experiment was not run.\n\n", f);
    } else {
        fputs("| variant | claimed | verdict | observed | distinct over reps | spread (ulps) | detail |\n"
              "|---|---|---|---|---:|---:|---|\n", f);
        for (size_t q = 0; q < nverd; q++) {
            char sp[32], dist[32];
            fmt_num(sp, sizeof sp, verd[q].spread_ulps);
            if (verd[q].reps_distinct >= 0) snprintf(dist, sizeof dist, "%ld", verd[q].reps_distinct);
            else snprintf(dist, sizeof dist, "-");
            fprintf(f, "| %s | %s | **%s** | %s | %s | %s | %s |\n", verd[q].variant, verd[q].claimed,
                    verd[q].verdict, verd[q].observed, dist, sp, verd[q].detail);
        }
        fputs("\nRules: nondeterministic claims pass trivially; run-to-run needs 1 distinct result over "
              "the repetitions of every row; config-independent also the same bits under every launch "
              "configuration (block 128/512/1024, grid 37, SM count 66/114); order-independent and "
              "correctly-rounded also under every permutation (reversed, sorted, shuffled, split = halves "
              "interleaved); `observed` is the strongest class the rows support. ", f);
        if (!on_gpu)
            fputs("On the CPU backend this checks the twins, which model the GPU order; the GPU run "
                  "checks the hardware (atomics).", f);
        fputs("\n\n", f);
    }

    /* throughput */
    fputs("## Throughput\n\n", f);
    int any_tp = 0;
    for (size_t r = 0; r < t->nrows && !any_tp; r++) any_tp = IS(r, exp, "throughput-vs-n") && IS(r, status, "ok");
    if (!any_tp) {
        fprintf(f, "%s\n\n", on_gpu ? "throughput-vs-n was not run." :
                "Skipped: throughput-vs-n and tradeoff need a GPU (the CPU backend's wall clock times "
                "the twins, not a GPU).");
    } else {
        for (int d = 0; d < 2; d++) {
            uint64_t nmax = 0;
            for (size_t r = 0; r < t->nrows; r++)
                if (IS(r, exp, "throughput-vs-n") && IS(r, dtype, dts[d]) && IS(r, status, "ok")) {
                    uint64_t n = strtoull(GET(r, n), NULL, 10);
                    if (n > nmax) nmax = n;
                }
            if (!nmax) continue;
            double cub = NAN, ceil = NAN;
            char nb[32];
            snprintf(nb, sizeof nb, "%llu", (unsigned long long)nmax);
            for (size_t r = 0; r < t->nrows; r++)
                if (IS(r, exp, "throughput-vs-n") && IS(r, dtype, dts[d]) && IS(r, n, nb) && IS(r, status, "ok")) {
                    if (IS(r, variant, "cub")) cub = NUM(r, gbps);
                    if (IS(r, variant, "read-ceiling")) ceil = NUM(r, gbps);
                }
            fprintf(f, "### %s, n = %llu\n\n| variant | GB/s | / CUB | / read ceiling |\n|---|---:|---:|---:|\n",
                    dts[d], (unsigned long long)nmax);
            for (size_t r = 0; r < t->nrows; r++) {
                if (!IS(r, exp, "throughput-vs-n") || !IS(r, dtype, dts[d]) || !IS(r, n, nb) || !IS(r, status, "ok")) continue;
                double g = NUM(r, gbps);
                char a[32], b[32], cc[32];
                fmt_num(a, sizeof a, g);
                fmt_num(b, sizeof b, g / cub);
                fmt_num(cc, sizeof cc, g / ceil);
                fprintf(f, "| %s | %s | %s | %s |\n", GET(r, variant), a, b, cc);
            }
            fputc('\n', f);
        }
    }
    int any_to = 0;
    for (size_t r = 0; r < t->nrows && !any_to; r++) any_to = IS(r, exp, "tradeoff") && IS(r, status, "ok");
    if (any_to) {
        fputs("### Tradeoff (median over the tradeoff datasets)\n\n| dtype | variant | median err (ulps) | median GB/s |\n|---|---|---:|---:|\n", f);
        for (int d = 0; d < 2; d++)
            for (size_t i = 0; i < nv; i++) {
                size_t k = 0, k2 = 0;
                for (size_t r = 0; r < t->nrows; r++)
                    if (IS(r, exp, "tradeoff") && IS(r, dtype, dts[d]) && IS(r, variant, names[i]) && IS(r, status, "ok")) {
                        double u = NUM(r, ulps), g = NUM(r, gbps);
                        if (!isnan(u)) buf[k++] = u;
                        if (!isnan(g)) buf2[k2++] = g;
                    }
                if (!k && !k2) continue;
                char a[32], b[32];
                fmt_num(a, sizeof a, median(buf, k));
                fmt_num(b, sizeof b, median(buf2, k2));
                fprintf(f, "| %s | %s | %s | %s |\n", dts[d], names[i], a, b);
            }
        fputc('\n', f);
    }

    /* twin self-checks */
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

    /* skipped measurements, summarised */
    long nskip = 0;
    for (size_t r = 0; r < t->nrows; r++) nskip += IS(r, status, "skipped");
    if (nskip) {
        fprintf(f, "## Skipped measurements\n\n%ld rows are `skipped` (the variant cannot run that input "
                   "here); reasons, one per variant:\n\n", nskip);
        for (size_t i = 0; i < nv; i++) {
            long cnt = 0;
            const char *why = NULL;
            for (size_t r = 0; r < t->nrows; r++)
                if (IS(r, variant, names[i]) && IS(r, status, "skipped")) { cnt++; if (!why) why = GET(r, note); }
            if (cnt) fprintf(f, "- %s: %ld rows, e.g. \"%s\"\n", names[i], cnt, why ? why : "");
        }
        fputc('\n', f);
    }

    write_charts(f, dir);
    if (nnotes > 0) {
        fputs("## Notes\n\n", f);
        for (int i = 0; i < nnotes; i++) fprintf(f, "- %s\n", notes[i]);
        fputc('\n', f);
    }
    fputs("## Files\n\n- `results.csv`: one row per measurement (key: experiment, dataset, params, dtype, n, "
          "variant, config); bit patterns as C99 `%a` hex in `result_hex`/`exact_hex`\n"
          "- `distribution.csv`: every distinct result of the determinism repetitions, with its count and "
          "signed distance from the exact sum in ulps\n- `meta.json`: provenance (commit, compiler, CUDA, GPU, "
          "MPFR, date, argv); `run.conf`: settings used by `--resume`\n- `charts/`: PNG and SVG, rendered by "
          "`plots/render.sh DIR` from the CSV alone\n", f);
    free(buf);
    free(buf2);
    sl_csv_free(t);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return sl_err_set(err, "cannot write %s", path);
    snprintf(rpath, sizeof rpath, "%s/report.md", dir);
    if (rename(path, rpath)) return sl_err_set(err, "cannot write %s: %s", rpath, strerror(errno));
    return 0;
}

/* report.c: DIR/report.md from DIR/results.csv alone (so a resumed or copied run reports
 * the same): the headline table per variant and dtype, the determinism verdicts against each
 * variant's claimed class, throughput against CUB and the read ceiling, twin self-checks,
 * and links to the charts that plots/render.sh produced. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "sl_experiments.h"
#include "sl_format.h"

typedef struct {
    int exp, ds, dtype, n, variant, config, det_class, status, result_hex, exact_hex, distinct,
        spread, ulps, bound_ratio, gbps, backend, reps, twin_checked, twin_match, note, params,
        abs_err, abssum, bound_abs;
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
    c->abs_err = sl_csv_col(t, "abs_err");
    c->abssum = sl_csv_col(t, "abssum");
    c->bound_abs = sl_csv_col(t, "bound_abs");
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

static void fmt_num(char *b, size_t len, double v)
{
    if (isnan(v)) snprintf(b, len, "-");
    else if (isinf(v)) snprintf(b, len, "inf");
    else if (v == 0) snprintf(b, len, "0");
    else if (fabs(v) >= 1e5 || fabs(v) < 1e-3) snprintf(b, len, "%.2e", v);
    else snprintf(b, len, "%.3g", v);
}

/* ---- accuracy statistics of one variant and dtype (the headline) ------------------------- */
/* The exact sum S of row r is 0 (its rounded value is +-0: a non-zero exact sum of floats is
 * a multiple of the smallest subnormal, so it never rounds to 0). */
static int exact_zero(const sl_csv *t, const cols *cp, size_t r)
{
    const char *h = sl_csv_get(t, r, cp->exact_hex);
    if (*h == '-') h++;
    return !strcmp(h, "0x0p+0");
}

typedef struct {
    size_t k;             /* rows with S != 0 and a finite error in ulps (their ulps in buf) */
    size_t nonfin;        /* rows with a non-finite result against a finite or different S */
    size_t nzero;         /* rows with S = 0 and a finite result */
    double zero_rel_max;  /* max |result - S| / sum|x| over those */
    size_t nbound;        /* rows with a finite a-priori bound (in br_max) */
    size_t nvac_range;    /* rows without a finite bound: sum|x| beyond the accumulator's range */
    size_t nvac_ku;       /* rows without a finite bound: k u >= 1 (gamma_k undefined) */
    double br_max;        /* max |result - S| / bound over the finite-bound rows */
    const char *br_max_ds, *br_max_n;   /* dataset and n of that row */
    double ulps_max;      /* max of buf[0..k) */
    const char *ulps_max_ds;   /* the dataset of that row */
} acc_stats;

/* Largest finite value of the accumulator of variant `name` on dtype dt (the range beyond
 * which sl_variant_bound returns +inf: no finite bound holds once a partial sum may overflow). */
static double acc_max(const char *name, const char *dt)
{
    const sl_variant *v = sl_variant_find(name);
    if (!strcmp(dt, "f32") && !(v && v->acc_wide)) return FLT_MAX;
    return DBL_MAX;
}

/* Why row's a-priori bound b is no finite bound: -1 there is none (NaN: the variant has no bound
 * model or S is not finite), 0 it is finite, 1 sum|x| exceeds the accumulator's largest finite
 * value amax (sl_variant_bound's +inf: a partial sum may overflow; rows written before it said
 * so carry a finite bound there, which is treated alike), 2 +inf otherwise: the chain of k
 * roundings is too long, k u >= 1, and gamma_k = k u / (1 - k u) is undefined. */
static int vacuous_bound(double b, double abssum, double amax)
{
    if (isnan(b)) return -1;
    if (!isnan(abssum) && abssum > amax) return 1;
    return isinf(b) ? 2 : 0;
}

static void accuracy_stats(const sl_csv *t, const cols *cp, const char *variant, const char *dt,
                           double *buf, acc_stats *st, const char **cls)
{
    const cols c = *cp;
    memset(st, 0, sizeof *st);
    st->zero_rel_max = NAN;
    st->br_max = NAN;
    st->ulps_max = NAN;
    st->ulps_max_ds = st->br_max_ds = st->br_max_n = "";
    const double amax = acc_max(variant, dt);
    for (size_t r = 0; r < t->nrows; r++) {
        if (!IS(r, variant, variant) || !IS(r, dtype, dt)) continue;
        if (cls && !**cls) *cls = GET(r, det_class);
        if (!IS(r, status, "ok") || strncmp(GET(r, exp), "accuracy-", 9)) continue;
        double u = NUM(r, ulps);
        const char *rh = GET(r, result_hex);
        if (strstr(rh, "inf") || strstr(rh, "nan")) {
            /* a non-finite result: right only when S is the same Inf/NaN (0 ulps) */
            if (u == 0) {
                buf[st->k++] = 0;
                if (isnan(st->ulps_max)) st->ulps_max = 0;
            } else {
                st->nonfin++;
            }
        } else if (exact_zero(t, cp, r)) {
            /* S = 0: its ulp is the smallest subnormal, so judge |result| against sum|x| */
            double ae = NUM(r, abs_err), as = NUM(r, abssum);
            double z = ae == 0 ? 0 : ae / as;
            if (!isnan(z)) {
                st->nzero++;
                if (isnan(st->zero_rel_max) || z > st->zero_rel_max) st->zero_rel_max = z;
            }
        } else if (!isnan(u)) {
            buf[st->k++] = u;
            if (isnan(st->ulps_max) || u > st->ulps_max) { st->ulps_max = u; st->ulps_max_ds = GET(r, ds); }
        }
        /* the bound: +inf is no bound at all, never a violation (its ratio is 0, or inf/inf
         * for an infinite result) */
        double b = NUM(r, bound_abs), br = NUM(r, bound_ratio), as = NUM(r, abssum);
        int why = vacuous_bound(b, as, amax);
        if (why < 0) continue;                        /* no a-priori bound for this variant/input */
        if (why == 1) { st->nvac_range++; continue; }
        if (why == 2) { st->nvac_ku++; continue; }
        if (isnan(br)) continue;
        st->nbound++;
        if (isnan(st->br_max) || br > st->br_max) {
            st->br_max = br;
            st->br_max_ds = GET(r, ds);
            st->br_max_n = GET(r, n);
        }
    }
}

/* The dataset families (kinds 0, 1) or variants (kind 2), up to 4, in backquotes, of the ok
 * accuracy rows of dtype dt whose exact sum is 0 (kind 0) or whose bound is no finite bound for
 * reason 1 or 2 of vacuous_bound (kinds 1, 2). */
static void row_families(const sl_csv *t, const cols *cp, const char *dt, int kind, char *out, size_t len)
{
    const cols c = *cp;
    int nf = 0;
    out[0] = '\0';
    for (size_t r = 0; r < t->nrows && nf < 4; r++) {
        if (!IS(r, dtype, dt) || !IS(r, status, "ok") || strncmp(GET(r, exp), "accuracy-", 9)) continue;
        if (kind == 0) {
            const char *rh = GET(r, result_hex);
            if (!exact_zero(t, cp, r) || strstr(rh, "inf") || strstr(rh, "nan")) continue;
        } else if (vacuous_bound(NUM(r, bound_abs), NUM(r, abssum), acc_max(GET(r, variant), dt)) != kind) {
            continue;
        }
        char tok[80];
        snprintf(tok, sizeof tok, "`%s`", kind == 2 ? GET(r, variant) : GET(r, ds));
        if (strstr(out, tok)) continue;
        size_t l = strlen(out);
        snprintf(out + l, len - l, "%s%s", nf ? ", " : "", tok);
        nf++;
    }
}

/* n of the throughput table of dtype dt: the largest n of throughput-vs-n whose step finished
 * (its read-ceiling row is written last), else the largest n with ok rows; 0 when none. A run
 * stopped part-way through an n then reports the last complete one. */
static uint64_t tp_n(const sl_csv *t, const cols *cp, const char *dt)
{
    const cols c = *cp;
    uint64_t done = 0, any = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (!IS(r, exp, "throughput-vs-n") || !IS(r, dtype, dt) || !IS(r, status, "ok")) continue;
        uint64_t n = strtoull(GET(r, n), NULL, 10);
        if (n > any) any = n;
        if (IS(r, variant, "read-ceiling") && n > done) done = n;
    }
    return done ? done : any;
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

static void write_charts(FILE *f, const char *dir, int on_gpu)
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
    const struct { const char *prefix, *title; } kinds[] = {
        {"error_vs_n", "Error vs n (relative error, log-log; dashed: a-priori bounds; dotted: unit roundoff)"},
        {"error_vs_cond", "Error vs condition number"},
        {"error_vs_range", "Error vs dynamic range (binades)"},
        {"throughput_vs_n", "Throughput vs n (CUB and the read ceiling as reference lines)"},
        {"tradeoff", on_gpu ? "Accuracy vs throughput (one point per variant)"
                            : "Accuracy vs throughput (one point per variant; CPU twins: wall-clock "
                              "throughput of the twin, not of a GPU)"},
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
               "- commit: %s%s\n- rows: %zu in `results.csv`; provenance in `meta.json`\n",
            on_gpu ? "GPU" : "CPU twins (same order of operations as the GPU kernels, bit for bit)",
            on_gpu ? " (" : "", on_gpu ? gpu : "", on_gpu ? ")" : "", preset, seed, started, date,
            sha, !strcmp(dirty, "yes") || !strcmp(dirty, "1") || !strcmp(dirty, "true") ? " (dirty tree)" : "", t->nrows);
    /* which experiments have rows: one missing from an `all` run was skipped by design (GPU
     * only, on the CPU backend) or not reached (the run stopped before it) */
    fputs("- experiments:", f);
    int first = 1;
    for (size_t i = 0; i < sl_experiment_count(); i++) {
        const char *en = sl_experiment_at(i)->name;
        if (strcmp(exp, "all") && strcmp(exp, en)) continue;
        long nr = 0;
        for (size_t r = 0; r < t->nrows; r++) nr += IS(r, exp, en);
        fprintf(f, "%s %s (", first ? "" : ";", en);
        if (nr) fprintf(f, "%ld rows)", nr);
        else if (!on_gpu && !strcmp(en, "throughput-vs-n")) fputs("skipped: GPU only)", f);
        else fputs("**no rows: not reached, the run stopped before it**)", f);
        first = 0;
    }
    fputs("\n\n", f);
    fputs("Errors are against the exact sum S (superaccumulator, checked against MPFR). ulps are "
          "units in the last place of S correctly rounded to the input format (rows with S = 0 are "
          "reported apart: see the headline's notes); bound ratio = |error| / a-priori bound "
          "(Higham ch. 4; <= 1 expected).\n\n", f);

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
        const uint64_t tpn = tp_n(t, &c, dts[d]);
        char tpnb[32];
        snprintf(tpnb, sizeof tpnb, "%llu", (unsigned long long)tpn);
        fprintf(f, "### %s input\n\n", dts[d]);
        fputs("| variant | class | median err (ulps), S != 0 | max err (ulps), S != 0 | S = 0: rows "
              "| S = 0: max \\|err\\| / sum\\|x\\| | non-finite | max bound ratio | distinct (reps) "
              "| determinism | GB/s |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n", f);
        size_t vac_range = 0, vac_ku = 0, zero_rows = 0;
        uint64_t ku_nmin = 0;
        for (size_t i = 0; i < nv; i++) {
            if (!strcmp(names[i], "read-ceiling")) continue;
            const char *cls = "";
            acc_stats st;
            accuracy_stats(t, &c, names[i], dts[d], buf, &st, &cls);
            vac_range += st.nvac_range;
            vac_ku += st.nvac_ku;
            zero_rows += st.nzero;
            double gb = NAN;
            for (size_t r = 0; r < t->nrows && tpn; r++)
                if (IS(r, exp, "throughput-vs-n") && IS(r, backend, "gpu") && IS(r, variant, names[i]) &&
                    IS(r, dtype, dts[d]) && IS(r, n, tpnb) && IS(r, status, "ok"))
                    gb = NUM(r, gbps);
            double med = sl_median(buf, st.k);
            const sl_det_verdict *v = NULL;
            for (size_t q = 0; q < nverd; q++) if (!strcmp(verd[q].variant, names[i])) v = &verd[q];
            char a[32], b[128], z[32], br[160], g[32], dist[48];
            fmt_num(a, sizeof a, med);
            fmt_num(b, sizeof b, st.ulps_max);
            if (st.ulps_max > 1 && *st.ulps_max_ds) {   /* where the worst row comes from */
                size_t l = strlen(b);
                snprintf(b + l, sizeof b - l, " (%s)", st.ulps_max_ds);
            }
            fmt_num(z, sizeof z, st.zero_rel_max);
            fmt_num(br, sizeof br, st.br_max);
            if (st.br_max > 1) {
                size_t l = strlen(br);
                snprintf(br + l, sizeof br - l, " **VIOLATED** (%s, n=%s)", st.br_max_ds, st.br_max_n);
            }
            fmt_num(g, sizeof g, gb);
            if (v && v->reps_distinct >= 0) snprintf(dist, sizeof dist, "%ld", v->reps_distinct);
            else snprintf(dist, sizeof dist, "-");
            fprintf(f, "| %s | %s | %s | %s | %zu | %s | %zu | %s | %s | %s | %s |\n", names[i], *cls ? cls : "-",
                    a, b, st.nzero, st.nzero ? z : "-", st.nonfin, br, dist, v ? v->verdict : "-", g);
        }
        fputc('\n', f);
        for (size_t r = 0; r < t->nrows && vac_ku; r++)
            if (IS(r, dtype, dts[d]) && IS(r, status, "ok") && !strncmp(GET(r, exp), "accuracy-", 9) &&
                vacuous_bound(NUM(r, bound_abs), NUM(r, abssum), acc_max(GET(r, variant), dts[d])) == 2) {
                uint64_t n = strtoull(GET(r, n), NULL, 10);
                if (!ku_nmin || n < ku_nmin) ku_nmin = n;
            }
        if (zero_rows || vac_range || vac_ku || tpn) {
            fprintf(f, "%s:", dts[d]);
            if (zero_rows) {
                char fams[256];
                row_families(t, &c, dts[d], 0, fams, sizeof fams);
                fprintf(f, " %zu rows (family %s) have an exact sum S of 0: they are in the `S = 0` columns, "
                           "not in the ulps.", zero_rows, fams);
            }
            if (vac_range || vac_ku) {
                char fr[256], fk[256];
                row_families(t, &c, dts[d], 1, fr, sizeof fr);
                row_families(t, &c, dts[d], 2, fk, sizeof fk);
                fprintf(f, " No finite a-priori bound (bound = +inf) for %zu rows, not counted as violations "
                           "and left out of `max bound ratio`:", vac_range + vac_ku);
                if (vac_range)
                    fprintf(f, " %zu rows (family %s) where sum|x| exceeds the accumulator's largest finite "
                               "value, so a partial sum may overflow and Higham's bound does not apply%s",
                            vac_range, fr, vac_ku ? ";" : ".");
                if (vac_ku)
                    fprintf(f, " %zu rows (variant %s, n >= %llu) whose chain of k roundings is too long for "
                               "the bound: k u >= 1, where gamma_k = k u / (1 - k u) is undefined.",
                            vac_ku, fk, (unsigned long long)ku_nmin);
            }
            if (tpn) fprintf(f, " GB/s: throughput-vs-n at n = %llu.", (unsigned long long)tpn);
            fputs("\n\n", f);
        }
    }
    fputs("Columns: every `ok` row of the accuracy-vs-* experiments of that variant and dtype. "
          "`median/max err (ulps), S != 0`: over rows whose exact sum S is not 0 and whose result is "
          "finite, in ulps of S rounded to the input format; in parentheses the family of the worst row "
          "(`ill-conditioned` inputs, condition number up to 1e30, are many ulps off because S is tiny "
          "next to sum|x|). `S = 0`: rows whose exact sum is exactly 0 (e.g. the `cancellation` "
          "family), where an ulp is the smallest subnormal and any non-zero result "
          "would read as ~1e45 (f32) or ~1e323 (f64) ulps; they are counted apart (`rows`) with their "
          "largest |result - S| / sum|x| (0: every such result was exactly 0). `non-finite`: rows where "
          "the variant returned Inf/NaN against a finite or different exact sum (overflow and "
          "special-value families). `max bound ratio`: largest |result - S| / a-priori bound over the "
          "rows with a finite bound (**VIOLATED** above 1, with the family and n of the worst row; inf: a "
          "non-finite result against a finite bound); rows whose bound is +inf (their ratio is 0, or inf/inf for an infinite result) are "
          "no violations: they are left out and counted under each table. `distinct`: most distinct results over the determinism "
          "experiment's repetitions. GB/s: throughput-vs-n (GPU rows only) at the n named under the "
          "table.\n\n", f);

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
        for (int d = 0; d < 2; d++) {
            uint64_t nmax = tp_n(t, &c, dts[d]), nlast = 0;
            if (!nmax) continue;
            for (size_t r = 0; r < t->nrows; r++)
                if (IS(r, exp, "throughput-vs-n") && IS(r, dtype, dts[d]) && IS(r, status, "ok")) {
                    uint64_t n = strtoull(GET(r, n), NULL, 10);
                    if (n > nlast) nlast = n;
                }
            double cub = NAN, ceil = NAN;
            char nb[32];
            snprintf(nb, sizeof nb, "%llu", (unsigned long long)nmax);
            for (size_t r = 0; r < t->nrows; r++)
                if (IS(r, exp, "throughput-vs-n") && IS(r, dtype, dts[d]) && IS(r, n, nb) && IS(r, status, "ok")) {
                    if (IS(r, variant, "cub")) cub = NUM(r, gbps);
                    if (IS(r, variant, "read-ceiling")) ceil = NUM(r, gbps);
                }
            fprintf(f, "### %s, n = %llu\n\n", dts[d], (unsigned long long)nmax);
            if (nlast > nmax)
                fprintf(f, "The largest n measured, %llu, is incomplete (the run stopped part-way through it): "
                           "this table is the largest complete n.\n\n", (unsigned long long)nlast);
            fputs("| variant | GB/s | / CUB | / read ceiling |\n|---|---:|---:|---:|\n", f);
            int cpu_rows = 0;
            for (size_t r = 0; r < t->nrows; r++) {
                if (!IS(r, exp, "throughput-vs-n") || !IS(r, dtype, dts[d]) || !IS(r, n, nb) || !IS(r, status, "ok")) continue;
                double g = NUM(r, gbps);
                char a[32], b[32], cc[32];
                fmt_num(a, sizeof a, g);
                /* a variant without a GPU kernel runs its CPU twin even on a GPU run: its wall
                 * clock is no GPU throughput, so it is marked and not compared */
                int cpu = IS(r, backend, "cpu");
                cpu_rows += cpu;
                fmt_num(b, sizeof b, cpu ? NAN : g / cub);
                fmt_num(cc, sizeof cc, cpu ? NAN : g / ceil);
                fprintf(f, "| %s%s | %s | %s | %s |\n", GET(r, variant), cpu ? " (CPU twin, wall clock)" : "", a, b, cc);
            }
            fputc('\n', f);
            if (cpu_rows)
                fputs("(CPU twin, wall clock): the variant has no GPU kernel, so the run timed its CPU twin "
                      "on one core; not a GPU throughput, not compared.\n\n", f);
        }
    }

    /* tradeoff */
    int any_to = 0;
    for (size_t r = 0; r < t->nrows && !any_to; r++) any_to = IS(r, exp, "tradeoff") && IS(r, status, "ok");
    const int to_planned = !strcmp(exp, "all") || !strcmp(exp, "tradeoff");
    fputs("### Tradeoff: error vs throughput, one point per variant\n\n", f);
    if (!any_to) {
        if (to_planned)
            fprintf(f, "Not measured: results.csv has no tradeoff rows. The run stopped before the tradeoff "
                       "experiment (it runs last), so this report has no tradeoff table and no tradeoff chart; "
                       "`sumlab run %s -o %s --resume` on the same backend measures it.\n\n", exp, dir);
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
        for (int d = 0; d < 2; d++)
            for (size_t i = 0; i < nv; i++) {
                size_t k = 0, k2 = 0;
                for (size_t r = 0; r < t->nrows; r++)
                    if (IS(r, exp, "tradeoff") && IS(r, dtype, dts[d]) && IS(r, variant, names[i]) && IS(r, status, "ok")) {
                        double u = NUM(r, ulps), g = NUM(r, gbps);
                        if (!isnan(u) && !isinf(u) && !exact_zero(t, &c, r)) buf[k++] = u;
                        if (!isnan(g) && IS(r, backend, be)) buf2[k2++] = g;
                    }
                if (!k && !k2) continue;
                char a[32], b[32];
                fmt_num(a, sizeof a, sl_median(buf, k));
                fmt_num(b, sizeof b, sl_median(buf2, k2));
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

    write_charts(f, dir, on_gpu);
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

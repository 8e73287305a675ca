/* sweeps.c: the report's answers to a chosen sweep (sweeps.h), from results.csv (and the
 * anchors.csv that experiments/anchors/anchors.py leaves) alone. A cell is a median over the
 * point's instances (`run --seeds K`; at least 5 in the full preset's accuracy sweeps) with their
 * range when K > 1, per n (accuracy-vs-n), cond or range; results exactly 0 or
 * non-finite against a non-zero exact sum stay in the medians and are counted and marked. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_datasets.h"
#include "sl_variants.h"
#include "sweeps.h"
#include "charts.h"

/* ---- small helpers ------------------------------------------------------------------------ */
/* Distinct values v[0..n) sorted in place; returns their count. */
static size_t uniq(double *v, size_t n)
{
    qsort(v, n, sizeof *v, sl_cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || v[i] != v[k - 1]) v[k++] = v[i];
    return k;
}

static int hex_zero(const char *h)
{
    if (*h == '-') h++;
    return !strcmp(h, "0x0p+0");
}
static int hex_nonfinite(const char *h) { return strstr(h, "inf") || strstr(h, "nan"); }

/* A row of the accuracy sweeps. */
static int accuracy_exp(const char *e)
{
    return !strcmp(e, "accuracy-vs-n") || !strcmp(e, "accuracy-vs-cond") || !strcmp(e, "accuracy-vs-range");
}

/* The run's instances per point and the baseline variant (run.conf; defaults 1, pairwise). */
static void sweep_conf(const char *dir, long *seeds, char *baseline, size_t len)
{
    sl_runconf conf;
    sl_runconf_read(dir, &conf);
    *seeds = conf.seeds > 0 ? conf.seeds : 1;
    snprintf(baseline, len, "%s", conf.baseline[0] ? conf.baseline : "pairwise");
}

/* How a row's result stands against its exact sum S. */
typedef enum { R_OK = 0, R_S0, R_ZERO, R_NONFINITE } rclass;
static rclass classify(const sl_csv *t, const cols *cp, size_t r)
{
    const cols c = *cp;
    const char *rh = GET(r, result_hex), *eh = GET(r, exact_hex);
    double u = NUM(r, ulps);
    if (hex_nonfinite(rh)) return u == 0 ? R_OK : R_NONFINITE;   /* the same Inf/NaN as S: right */
    if (sl_report_exact_zero(t, cp, r)) return R_S0;
    if (hex_zero(rh) && !hex_zero(eh)) return R_ZERO;
    return R_OK;
}

/* One cell's statistics over the instance rows of a point. */
typedef struct {
    size_t k, zero, nonfin, s0;
    double med, mn, mx;
} cell_stats;

/* rows[0..nrows): the table's ok rows of the experiment, dtype and n at the default config
 * (sweep_table selects them once), in file order. */
static void cell_of(const sl_report_ctx *R, const size_t *rows, size_t nrows,
                    const char *variant, int sv_col, double sv, cell_stats *st)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    double *buf = R->buf;
    memset(st, 0, sizeof *st);
    for (size_t ri = 0; ri < nrows; ri++) {
        const size_t r = rows[ri];
        if (!IS(r, variant, variant) || sl_csv_num(t, r, sv_col) != sv) continue;
        /* a result exactly 0 or non-finite against S != 0 stays in the median (its error is
         * |S| or inf: every instance counts) and is marked; S = 0 rows have no ulps */
        rclass k = classify(t, &c, r);
        if (k == R_S0) { st->s0++; continue; }
        st->zero += k == R_ZERO;
        st->nonfin += k == R_NONFINITE;
        double u = k == R_NONFINITE ? INFINITY : NUM(r, ulps);
        if (!isnan(u)) buf[st->k++] = u;
    }
    sl_stats(buf, st->k, &st->med, &st->mn, &st->mx);
}

/* ---- ## Sweeps ---------------------------------------------------------------------------- */
/* The instances per point of rows[0..nrows) (their `instances` column; 1 without one; the data
 * check admits counts up to 2^53 only, and the clamp keeps the cast defined regardless). */
static long rows_instances(const sl_csv *t, const size_t *rows, size_t nrows)
{
    const int ic = sl_csv_col(t, "instances");
    double m = 1;
    for (size_t i = 0; ic >= 0 && i < nrows; i++) {
        double v = sl_csv_num(t, rows[i], ic);
        if (v > m) m = v;
    }
    return m < 2147483647.0 ? (long)m : 2147483647L;
}

/* The parameter accuracy-vs-cond swept in t: its rows' `sweep` column ("cond", lse's "sigma"),
 * "cond" where there is none; *ds the family it belongs to ("" unknown). */
static const char *cond_sweep(const sl_csv *t, const cols *cp, const char **ds)
{
    const cols c = *cp;
    const int sc = sl_csv_col(t, "sweep");
    *ds = "";
    for (size_t r = 0; r < t->nrows; r++)
        if (IS(r, exp, "accuracy-vs-cond")) {
            const char *s = sl_csv_get(t, r, sc);
            *ds = GET(r, ds);
            return *s ? s : "cond";
        }
    return "cond";
}

/* One table of experiment exp in dtype dt: a row per variant, a column per distinct value of
 * column sv_col (the swept parameter, or n), over the rows of dataset ds (NULL: any) at size nb
 * (NULL: any). Each cell: the median over the point's instances [min-max]. */
static void sweep_table(FILE *f, const sl_report_ctx *R, const char *exp, const char *what, const char *ds,
                        const char *dt, const char *nb, const char *baseline, int sv_col)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    double *vals = R->buf2;
    size_t nvals = 0;
#define SWEEP_ROW(r) (IS(r, exp, exp) && IS(r, dtype, dt) && (!nb || IS(r, n, nb)) && (!ds || IS(r, ds, ds)) && \
                      IS(r, status, "ok"))
    for (size_t r = 0; r < t->nrows; r++)
        if (SWEEP_ROW(r)) {
            double v = sl_csv_num(t, r, sv_col);
            if (!isnan(v)) vals[nvals++] = v;
        }
    nvals = uniq(vals, nvals);
    if (!nvals) return;
    if (nvals > 64) {   /* (a table of more columns is no table to read): said, not dropped */
        if (nb) fprintf(f, "### %s, %s, n = %s\n\n", exp, dt, nb);
        else fprintf(f, "### %s, %s, %s\n\n", exp, ds ? ds : "", dt);
        fprintf(f, "%zu distinct values swept: beyond the 64 columns a table here holds; not tabulated "
                   "(`results.csv` has every row).\n\n", nvals);
        return;
    }
    double sv[64];
    memcpy(sv, vals, nvals * sizeof *sv);
    size_t *rows = malloc(t->nrows * sizeof *rows), nrows = 0;
    if (!rows) {
        fprintf(f, "### %s, %s: table not written (out of memory)\n\n", exp, dt);
        return;
    }
    for (size_t r = 0; r < t->nrows; r++)
        if (SWEEP_ROW(r) && IS(r, config, "default")) rows[nrows++] = r;
#undef SWEEP_ROW
    const long seeds = rows_instances(t, rows, nrows);
    if (nb) fprintf(f, "### %s, %s, n = %s, %ld instance%s per point\n\n", exp, dt, nb, seeds, seeds == 1 ? "" : "s");
    else fprintf(f, "### %s, %s, %s, %ld instance%s per point\n\n", exp, ds ? ds : "", dt, seeds, seeds == 1 ? "" : "s");
    /* the parameter sweeps give ratios to the baseline; the tables by n (one per family and
     * dtype, many) leave them out: the baseline's own row is there */
    const int ratios = nb != NULL;
    if (ratios)
        fprintf(f, "Median error in ulps%s, by %s; `(xR)`: ratio to the baseline `%s`'s median.\n\n",
                seeds > 1 ? " over the instances [min-max]" : "", what, baseline);
    else
        fprintf(f, "Median error in ulps%s, by %s.\n\n", seeds > 1 ? " over the instances [min-max]" : "", what);
    const char *cds, *csw = !strcmp(exp, "accuracy-vs-cond") ? cond_sweep(t, &c, &cds) : "cond";
    fputs("| variant |", f);
    for (size_t j = 0; j < nvals; j++) {
        /* (a decade of a positive finite cond; lround of log10(0), of a negative or of inf has no
         * value an int holds) */
        if (!strcmp(exp, "accuracy-vs-cond") && !strcmp(csw, "cond") && sv[j] > 0 && isfinite(sv[j]))
            fprintf(f, " cond 1e%d |", (int)lround(log10(sv[j])));
        else if (!strcmp(exp, "accuracy-vs-cond") && !strcmp(csw, "cond")) fprintf(f, " cond %g |", sv[j]);
        else if (!strcmp(exp, "accuracy-vs-cond")) fprintf(f, " %s %g |", csw, sv[j]);
        else if (!nb) {   /* by n: 2^k where n is a power of two */
            int e2;
            double m = frexp(sv[j], &e2);
            if (m == 0.5) fprintf(f, " 2^%d |", e2 - 1);
            else fprintf(f, " %.0f |", sv[j]);
        } else fprintf(f, " %g binades |", sv[j]);
    }
    fputs("\n|---|", f);
    for (size_t j = 0; j < nvals; j++) fputs("---:|", f);
    fputc('\n', f);
    cell_stats base[64];
    int have_base = 0;
    for (size_t j = 0; j < nvals; j++) {
        cell_of(R, rows, nrows, baseline, sv_col, sv[j], &base[j]);
        have_base |= base[j].k > 0;
    }
    size_t marks_zero = 0, marks_nf = 0, marks_s0 = 0;
    for (size_t i = 0; i < R->nv; i++) {
        const char *name = R->names[i];
        if (sl_report_tp_reference(name)) continue;
        /* the row composed in memory (every cell: a fixed line cut the last ones off), written
         * when it has any */
        char *line = NULL;
        size_t used = 0;
        int any = 0;
        FILE *lf = open_memstream(&line, &used);
        if (!lf) {
            fprintf(f, "| %s | (out of memory) |\n", name);
            continue;
        }
        fprintf(lf, "| %s%s |", name, ratios && !strcmp(name, baseline) ? " (baseline)" : "");
        for (size_t j = 0; j < nvals; j++) {
            cell_stats st;
            cell_of(R, rows, nrows, name, sv_col, sv[j], &st);
            any |= st.k || st.zero || st.nonfin || st.s0;
            char a[32], lo[32], hi[32], cell[200];
            size_t cu = 0;
            sl_report_num(a, sizeof a, st.med);
            cu += (size_t)snprintf(cell + cu, sizeof cell - cu, "%s", st.k ? a : "-");
            if (st.k && seeds > 1) {
                sl_report_num(lo, sizeof lo, st.mn);
                sl_report_num(hi, sizeof hi, st.mx);
                cu += (size_t)snprintf(cell + cu, sizeof cell - cu, " [%s-%s]", lo, hi);
            }
            if (ratios && st.k && have_base && base[j].k && strcmp(name, baseline)) {
                double q = base[j].med > 0 ? st.med / base[j].med : (st.med == 0 ? 1 : INFINITY);
                sl_report_num(a, sizeof a, q);
                cu += (size_t)snprintf(cell + cu, sizeof cell - cu, " (x%s)", a);
            }
            if (st.zero) { cu += (size_t)snprintf(cell + cu, sizeof cell - cu, " **0!x%zu**", st.zero); marks_zero += st.zero; }
            if (st.nonfin) { cu += (size_t)snprintf(cell + cu, sizeof cell - cu, " **NF x%zu**", st.nonfin); marks_nf += st.nonfin; }
            if (st.s0) { cu += (size_t)snprintf(cell + cu, sizeof cell - cu, " S=0 x%zu", st.s0); marks_s0 += st.s0; }
            fprintf(lf, " %s |", cell);
        }
        const int ok = fclose(lf) == 0 && line;
        if (any && ok) fprintf(f, "%s\n", line);
        else if (any) fprintf(f, "| %s | (out of memory) |\n", name);
        free(line);
    }
    fputc('\n', f);
    if (ratios && !have_base) fprintf(f, "The baseline `%s` has no rows here: no ratios.\n\n", baseline);
    if (marks_zero || marks_nf || marks_s0)
        fprintf(f, "Marked: **0!xK** %zu results exactly 0 against a non-zero exact sum (their error, |S|, is "
                   "in the median); **NF xK** %zu non-finite results against a finite or different S (inf in "
                   "the median); S=0 xK %zu rows whose exact sum is 0, left out (ulps are undefined there).\n\n",
                marks_zero, marks_nf, marks_s0);
    free(rows);
    /* the chart of this table, beside it (cond and range: one chart per dtype, after its first table) */
    char stem[160];
    if (!strcmp(exp, "accuracy-vs-n")) snprintf(stem, sizeof stem, "error_vs_n_%s__%s", ds ? ds : "", dt);
    else snprintf(stem, sizeof stem, "error_vs_%s_%s", !strcmp(exp, "accuracy-vs-cond") ? "cond" : "range", dt);
    sl_report_charts_at(f, R->dir, stem, R->on_gpu);
}

void sl_report_sweeps(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    static const char *const exps[] = {"accuracy-vs-cond", "accuracy-vs-range"};
    const char *whats[] = {"condition-number decade (sum|x| / |S|)",
                           "dynamic range (binades spanned by the inputs' exponents)"};
    int sv_col = sl_csv_col(t, "sweep_value");
    if (sv_col < 0) return;
    /* accuracy-vs-cond of an operation that sweeps another parameter (lse: the logits' sigma) */
    const char *cds, *csw = cond_sweep(t, &c, &cds);
    /* the sentence whole with the longest sweep and family names a checked file holds (a file
     * pair's dataset is up to 145 bytes) */
    char cwhat[SL_REPORT_NAME_MAX + SL_REPORT_DATASET_MAX + 128], chead[128];
    snprintf(chead, sizeof chead, "%s", "condition number");
    if (strcmp(csw, "cond")) {
        snprintf(cwhat, sizeof cwhat, "`%s`, the parameter of the `%s` family that the sweep varies (each row's "
                 "`cond` column holds that input's condition number)", csw, cds);
        whats[0] = cwhat;
        snprintf(chead, sizeof chead, "%s", csw);
    } else if (!strcmp(cds, "dot-cond")) {   /* dot: the target, Ogita, Rump and Oishi's measure */
        whats[0] = "decade of the target condition number 2 sum|x y| / |x'y| (the `dot-cond` family's `cond`; "
                   "each row's `cond` column holds its input's realised one, near the target)";
    }
    long seeds;
    char baseline[64];
    sweep_conf(R->dir, &seeds, baseline, sizeof baseline);
    int header = 0;
    /* accuracy-vs-n: one table per dataset family and dtype, a column per n */
    const int n_col = sl_csv_col(t, "n");
    for (size_t d = 0; d < sl_dataset_count() && n_col >= 0; d++)
        for (int k = 0; k < SL_REPORT_NDTYPES; k++) {
            const char *dsn = sl_dataset_at(d)->name, *dt = sl_report_dtypes[k];
            size_t r = 0;
            while (r < t->nrows && !(IS(r, exp, "accuracy-vs-n") && IS(r, ds, dsn) && IS(r, dtype, dt) && IS(r, status, "ok"))) r++;
            if (r == t->nrows) continue;
            if (!header) {
                fputs("## Accuracy vs n: median error per size\n\n", f);
                header = 1;
            }
            sweep_table(f, R, "accuracy-vs-n", "n", dsn, dt, NULL, baseline, n_col);
        }
    header = 0;
    for (int e = 0; e < 2; e++)
        for (int d = 0; d < SL_REPORT_NDTYPES; d++) {
            /* one table per n the sweep ran at */
            double *ns = R->buf2;
            size_t nn = 0;
            for (size_t r = 0; r < t->nrows; r++)
                if (IS(r, exp, exps[e]) && IS(r, dtype, sl_report_dtypes[d]) && IS(r, status, "ok") &&
                    !isnan(NUM(r, n)))                /* (qsort needs a total order: no NaN) */
                    ns[nn++] = NUM(r, n);
            nn = uniq(ns, nn);
            double nl[64];
            const size_t all_n = nn;
            if (nn > 64) nn = 64;
            memcpy(nl, ns, nn * sizeof *nl);
            if (all_n > nn) {
                if (!header) {
                    fprintf(f, "## Sweeps: error by %s and by dynamic range\n\n", chead);
                    header = 1;
                }
                fprintf(f, "%s, %s: %zu sizes; the tables of the first 64 below (`results.csv` has every "
                           "row).\n\n", exps[e], sl_report_dtypes[d], all_n);
            }
            for (size_t k = 0; k < nn; k++) {
                if (!header) {
                    fprintf(f, "## Sweeps: error by %s and by dynamic range\n\n", chead);
                    header = 1;
                }
                char nb[32];
                snprintf(nb, sizeof nb, "%.0f", nl[k]);
                sweep_table(f, R, exps[e], whats[e], NULL, sl_report_dtypes[d], nb, baseline, sv_col);
            }
        }
}

/* ---- ### Determinism per input -------------------------------------------------------------- */
void sl_report_det_inputs(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    int ic = sl_csv_col(t, "instance");
    /* the inputs: distinct (dataset, dtype, n, params, instance) of the default rows; a table of
     * the first 64 (a 65th is said, not dropped) */
    size_t in_row[64], nin = 0;
    int more = 0;
    for (size_t r = 0; r < t->nrows && !more; r++) {
        if (!IS(r, exp, "determinism") || !IS(r, config, "default")) continue;
        size_t q = 0;
        for (; q < nin; q++) {
            size_t s = in_row[q];
            if (!strcmp(GET(s, ds), GET(r, ds)) && !strcmp(GET(s, dtype), GET(r, dtype)) &&
                !strcmp(GET(s, n), GET(r, n)) && !strcmp(GET(s, params), GET(r, params)) &&
                !strcmp(sl_csv_get(t, s, ic), sl_csv_get(t, r, ic)))
                break;
        }
        if (q < nin) continue;
        if (nin == 64) more = 1;
        else in_row[nin++] = r;
    }
    if (!nin) return;
    fputs("### Determinism per input\n\n`distinct/reps, spread in ulps` of the repetitions at the default launch "
          "configuration, for every input (the verdict table above keeps only the maximum over inputs).", f);
    if (!R->on_gpu)
        fputs(" **CPU backend: the spreads of nondeterministic variants (marked `model`) come from the CPU "
              "twin's model of the GPU (commit orders of the atomics sampled from a seed), not from "
              "hardware; only a GPU run measures the hardware.**", f);
    if (more)
        fputs("\n\nMore than 64 inputs: beyond the 64 columns a table here holds; the first 64 below "
              "(`results.csv` has every row).", f);
    fputs("\n\n| variant |", f);
    for (size_t q = 0; q < nin; q++) {
        size_t s = in_row[q];
        const char *inst = sl_csv_get(t, s, ic);
        fprintf(f, " %s %s n=%s%s%s |", GET(s, ds), GET(s, dtype), GET(s, n), *inst && strcmp(inst, "0") ? " #" : "",
                *inst && strcmp(inst, "0") ? inst : "");
    }
    fputs("\n|---|", f);
    for (size_t q = 0; q < nin; q++) fputs("---:|", f);
    fputc('\n', f);
    for (size_t i = 0; i < R->nv; i++) {
        const char *name = R->names[i];
        char line[4096];
        size_t used = 0;
        line[0] = '\0';
        int any = 0, nondet = 0;
        for (size_t q = 0; q < nin && used < sizeof line - 100; q++) {
            size_t s = in_row[q], hit = (size_t)-1;
            for (size_t r = 0; r < t->nrows && hit == (size_t)-1; r++)
                if (IS(r, exp, "determinism") && IS(r, config, "default") && IS(r, variant, name) &&
                    IS(r, status, "ok") && !strcmp(GET(s, ds), GET(r, ds)) && !strcmp(GET(s, dtype), GET(r, dtype)) &&
                    !strcmp(GET(s, n), GET(r, n)) && !strcmp(GET(s, params), GET(r, params)) &&
                    !strcmp(sl_csv_get(t, s, ic), sl_csv_get(t, r, ic)))
                    hit = r;
            if (hit == (size_t)-1) { used += (size_t)snprintf(line + used, sizeof line - used, " - |"); continue; }
            any = 1;
            nondet |= IS(hit, det_class, "nondeterministic");
            char sp[32];
            sl_report_num(sp, sizeof sp, NUM(hit, spread));
            used += (size_t)snprintf(line + used, sizeof line - used, " %s/%s, %s |", GET(hit, distinct),
                                     GET(hit, reps), sp);
        }
        if (!any) continue;
        /* on the CPU a nondeterministic variant's spread is the twin's model of the GPU */
        fprintf(f, "| %s%s |%s\n", name, nondet && !R->on_gpu ? " (model)" : "", line);
    }
    fputc('\n', f);
    sl_report_charts_at(f, R->dir, "distribution_", R->on_gpu);
}

/* ---- ## Results exactly 0 or non-finite against a non-zero S ---------------------------------- */
void sl_report_zero_results(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    size_t tz = 0, tn = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (!IS(r, status, "ok") || !*GET(r, result_hex)) continue;
        rclass k = classify(t, &c, r);
        tz += k == R_ZERO;
        tn += k == R_NONFINITE;
    }
    fputs("## Results exactly 0 or non-finite against a non-zero exact sum\n\n", f);
    if (!tz && !tn) {
        fputs("None: every `ok` row whose exact sum S is not 0 has a non-zero result, and every non-finite "
              "result matches a non-finite S.\n\n", f);
        return;
    }
    fprintf(f, "%zu results are exactly 0 and %zu non-finite where S is not 0 (or S is finite / a different "
               "special value): an answer with no correct digit. The sweep tables keep them in their medians and "
               "mark them (**0!**, **NF**).\n\n| variant | exactly 0, S != 0 | non-finite | e.g. |\n"
               "|---|---:|---:|---|\n", tz, tn);
    for (size_t i = 0; i < R->nv; i++) {
        size_t z = 0, nf = 0, ex = (size_t)-1;
        for (size_t r = 0; r < t->nrows; r++) {
            if (!IS(r, variant, R->names[i]) || !IS(r, status, "ok") || !*GET(r, result_hex)) continue;
            rclass k = classify(t, &c, r);
            if (k == R_ZERO || k == R_NONFINITE) {
                z += k == R_ZERO;
                nf += k == R_NONFINITE;
                if (ex == (size_t)-1) ex = r;
            }
        }
        if (!z && !nf) continue;
        fprintf(f, "| %s | %zu | %zu | %s %s %s n=%s: %s against S rounded = %s |\n", R->names[i], z, nf, GET(ex, exp),
                GET(ex, ds), GET(ex, dtype), GET(ex, n), GET(ex, result_hex), GET(ex, exact_hex));
    }
    fputc('\n', f);
}

/* ---- ## Non-finite results where the exact value is finite ------------------------------------ */

/* The kind of a non-finite result's hex: 0 +Inf, 1 -Inf, 2 NaN (either sign); -1 finite or empty. */
static int nonfinite_kind(const char *h)
{
    if (!*h || !hex_nonfinite(h)) return -1;
    if (strstr(h, "nan")) return 2;
    return *h == '-' ? 1 : 0;
}

/* One (variant, format) cell of the table: its counts and the datasets where they happened. */
typedef struct {
    size_t kind[3], finite;        /* +Inf, -Inf, NaN results; rows whose exact value is finite */
    const char *ds[16];            /* the datasets of those results, first seen first */
    size_t dsn[16], nds, ds_more;  /* their counts; results on datasets past the 16th */
} nonfin_cell;

void sl_report_nonfinite(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const int op_col = sl_csv_col(t, "op");
    nonfin_cell *cell = calloc(R->nv * SL_REPORT_NDTYPES + 1, sizeof *cell);
    fputs("## Non-finite results where the exact value is finite\n\n", f);
    if (!cell) {
        fputs("Not written: out of memory.\n\n", f);
        return;
    }
    size_t total = 0;
    const char *op = "sum";   /* (a table without an op column holds sums) */
    for (size_t r = 0; r < t->nrows; r++) {
        if (!IS(r, status, "ok") || !accuracy_exp(GET(r, exp))) continue;
        const char *eh = GET(r, exact_hex);
        if (!*eh || hex_nonfinite(eh)) continue;
        size_t v = 0, d = 0;
        while (v < R->nv && !IS(r, variant, R->names[v])) v++;
        while (d < SL_REPORT_NDTYPES && !IS(r, dtype, sl_report_dtypes[d])) d++;
        if (v == R->nv || d == SL_REPORT_NDTYPES) continue;
        nonfin_cell *q = &cell[v * SL_REPORT_NDTYPES + d];
        q->finite++;
        const int k = nonfinite_kind(GET(r, result_hex));
        if (k < 0) continue;
        q->kind[k]++;
        total++;
        if (op_col >= 0) op = sl_csv_get(t, r, op_col);
        const char *ds = GET(r, ds);
        size_t j = 0;
        while (j < q->nds && strcmp(q->ds[j], ds)) j++;
        if (j < q->nds) q->dsn[j]++;
        else if (q->nds < 16) { q->ds[q->nds] = ds; q->dsn[q->nds++] = 1; }
        else q->ds_more++;
    }
    if (!total) {
        fputs("None: no row of the accuracy sweeps returned +Inf, -Inf or NaN where the exact value is "
              "finite.\n\n", f);
        free(cell);
        return;
    }
    fprintf(f, "%zu rows of the accuracy sweeps (accuracy-vs-n, -cond, -range) returned +Inf, -Inf or NaN "
               "where the exact value (`exact`) is finite: per variant and format, their counts, the rows "
               "with a finite exact value, and the datasets where it happened (rows of each).\n\n"
               "| variant | op | dtype | +Inf | -Inf | NaN | rows, exact finite | datasets |\n"
               "|---|---|---|---:|---:|---:|---:|---|\n", total);
    for (size_t v = 0; v < R->nv; v++)
        for (int d = 0; d < SL_REPORT_NDTYPES; d++) {
            const nonfin_cell *q = &cell[v * SL_REPORT_NDTYPES + d];
            if (!q->kind[0] && !q->kind[1] && !q->kind[2]) continue;
            fprintf(f, "| %s | %s | %s | %zu | %zu | %zu | %zu | ", R->names[v], op, sl_report_dtypes[d],
                    q->kind[0], q->kind[1], q->kind[2], q->finite);
            for (size_t j = 0; j < q->nds; j++) fprintf(f, "%s`%s` (%zu)", j ? ", " : "", q->ds[j], q->dsn[j]);
            if (q->ds_more) fprintf(f, ", %zu more on other datasets", q->ds_more);
            fputs(" |\n", f);
        }
    fputc('\n', f);
    free(cell);
}

/* ---- ## What to use, per format ----------------------------------------------------------------- */
/* One variant's figures in one format: the accuracy sweeps' rows (worst ulps, rows with no correct
 * digit, failed self-checks) and the throughput rows at the largest n measured. */
typedef struct {
    size_t rows, bad, nonfinite, failed;
    double worst, gbps;
    const char *det;
} advice_fig;

static void advice_of(const sl_report_ctx *R, const char *variant, const char *dt, double tp_n, advice_fig *a)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    memset(a, 0, sizeof *a);
    a->worst = a->gbps = NAN;
    a->det = "";
    for (size_t r = 0; r < t->nrows; r++) {
        if (!IS(r, variant, variant) || !IS(r, dtype, dt) || !IS(r, status, "ok")) continue;
        if (c.det_class >= 0 && !*a->det) a->det = GET(r, det_class);
        if (IS(r, exp, "throughput-vs-n") && NUM(r, n) == tp_n) {
            const double g = NUM(r, gbps);
            if (!isnan(g) && (isnan(a->gbps) || g > a->gbps)) a->gbps = g;
            continue;
        }
        if (!accuracy_exp(GET(r, exp)) || !*GET(r, result_hex)) continue;
        rclass k = classify(t, &c, r);
        if (k == R_S0) continue;
        a->rows++;
        a->bad += k == R_ZERO || k == R_NONFINITE;
        a->nonfinite += k == R_NONFINITE;
        a->failed += c.check >= 0 && IS(r, check, "FAILED");
        const double u = k == R_NONFINITE ? INFINITY : NUM(r, ulps);
        if (!isnan(u) && (isnan(a->worst) || u > a->worst)) a->worst = u;
    }
}

/* Reference rows (the exact value) are what the others are judged by, not a choice here. */
static int reference_variant(const char *name)
{
    const sl_variant *v = sl_variant_find(name);
    return !v || !strcmp(v->family, "reference");
}

static int order_independent(const char *det)
{
    return !strcmp(det, "order-independent") || !strcmp(det, "correctly-rounded");
}

/* The condition sweep's answer for one format: per variant, the largest swept value up to which
 * every row of accuracy-vs-cond was faithful (within 1 ulp; a result 0 or non-finite against an
 * exact value that is neither is not), the variants grouped by it: "up to kappa 100 (not at
 * 1e+03): `textbook`".
 * Nothing when the format has no accuracy-vs-cond rows. */
static void advice_by_cond(FILE *f, const sl_report_ctx *R, const char *dt)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const int sv = sl_csv_col(t, "sweep_value"), sw = sl_csv_col(t, "sweep");
    if (sv < 0 || sw < 0) return;
    double *vals = R->buf2;   /* every value swept, ascending (none left out: a variant unfaithful
                               * only at a value past a fixed room read as faithful at every one) */
    size_t nv = 0;
    const char *param = NULL;
    for (size_t r = 0; r < t->nrows; r++) {
        if (!IS(r, exp, "accuracy-vs-cond") || !IS(r, dtype, dt) || !IS(r, status, "ok")) continue;
        const double x = sl_csv_num(t, r, sv);
        if (!param) param = sl_csv_get(t, r, sw);
        if (!isnan(x)) vals[nv++] = x;
    }
    nv = uniq(vals, nv);
    if (!nv) return;
    /* upto[i]: the index of the last value of the faithful prefix, -1 none, -2 no rows */
    int *upto = malloc((R->nv + 1) * sizeof *upto);
    if (!upto) return;
    for (size_t i = 0; i < R->nv; i++) {
        upto[i] = -2;
        if (reference_variant(R->names[i])) continue;
        int first_bad = (int)nv, any = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            if (!IS(r, exp, "accuracy-vs-cond") || !IS(r, dtype, dt) || !IS(r, status, "ok") ||
                !IS(r, variant, R->names[i]) || !*GET(r, result_hex))
                continue;
            const rclass k = classify(t, &c, r);
            if (k == R_S0) continue;
            any = 1;
            if (k == R_OK && NUM(r, ulps) <= 1) continue;
            const double x = sl_csv_num(t, r, sv);
            const double *at = isnan(x) ? NULL : bsearch(&x, vals, nv, sizeof *vals, sl_cmp_double);
            if (at && at - vals < first_bad) first_bad = (int)(at - vals);
        }
        if (any) upto[i] = first_bad - 1;
    }
    char top[32];
    sl_report_num(top, sizeof top, vals[nv - 1]);
    fprintf(f, "- Faithful (within 1 ulp on every row) as `%s` grows, from accuracy-vs-cond:", param);
    int groups = 0;
    for (int j = (int)nv - 1; j >= -1; j--) {
        int n = 0;
        for (size_t i = 0; i < R->nv; i++) {
            if (upto[i] != j) continue;
            if (!n++) {
                char v[32], w[32];
                sl_report_num(v, sizeof v, j >= 0 ? vals[j] : vals[0]);
                sl_report_num(w, sizeof w, vals[j + 1 < (int)nv ? j + 1 : j]);
                if (j == (int)nv - 1) fprintf(f, "%s at every %s swept (to %s): ", groups ? ";" : "", param, top);
                else if (j >= 0) fprintf(f, "%s up to %s %s (not at %s): ", groups ? ";" : "", param, v, w);
                else fprintf(f, "%s not even at %s %s: ", groups ? ";" : "", param, v);
                groups++;
            }
            fprintf(f, "%s`%s`", n > 1 ? ", " : "", R->names[i]);
        }
    }
    fputs(".\n", f);
    free(upto);
}

void sl_report_advice(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    int any = 0;
    for (int d = 0; d < SL_REPORT_NDTYPES; d++) {
        const char *dt = sl_report_dtypes[d];
        double tp_n = NAN;                        /* the largest n of this format's throughput rows */
        for (size_t r = 0; r < t->nrows; r++)
            if (IS(r, dtype, dt) && IS(r, exp, "throughput-vs-n") && IS(r, status, "ok") &&
                (isnan(tp_n) || NUM(r, n) > tp_n))
                tp_n = NUM(r, n);
        const char *acc = NULL, *fast = NULL, *fast_oi = NULL;
        advice_fig best = {0}, bf = {0}, bo = {0};
        char avoid[1024] = "";
        size_t used = 0, nrow = 0;
        for (size_t i = 0; i < R->nv; i++) {
            if (reference_variant(R->names[i])) continue;
            advice_fig a;
            advice_of(R, R->names[i], dt, tp_n, &a);
            if (!a.rows) continue;
            if (!nrow++) {
                if (!any++) fputs("## What to use, per format\n\nFrom the accuracy sweeps' rows of this run (worst "
                                  "error in ulps over every family, n and condition number measured; rows where "
                                  "the exact value is 0 left out) and, on the GPU, the throughput at the largest n. "
                                  "\"Faithful\": within 1 ulp on every row. \"No correct digit\": a result 0 or "
                                  "non-finite where the exact value is neither; at a high condition number that is "
                                  "the algorithm's limit (within its bound), not a fault.\n\n", f);
                fprintf(f, "### %s\n\n| variant | determinism | worst ulps | rows | no correct digit | non-finite | "
                           "self-check failed |", dt);
                if (!isnan(tp_n)) fprintf(f, " GB/s at n = %.0f |", tp_n);
                fprintf(f, "\n|---|---|---:|---:|---:|---:|---:|%s\n", isnan(tp_n) ? "" : "---:|");
            }
            char w[32], g[32];
            sl_report_num(w, sizeof w, a.worst);
            sl_report_num(g, sizeof g, a.gbps);
            fprintf(f, "| %s | %s | %s | %zu | %zu | %zu | %zu |", R->names[i], a.det, w, a.rows, a.bad, a.nonfinite,
                    a.failed);
            if (!isnan(tp_n)) fprintf(f, " %s |", g);
            fputc('\n', f);
            if (a.failed) {
                int wr = snprintf(avoid + used, sizeof avoid - used, "%s`%s`", used ? ", " : "", R->names[i]);
                if (wr > 0 && (size_t)wr < sizeof avoid - used) used += (size_t)wr;
                continue;
            }
            if (!acc || a.worst < best.worst || (a.worst == best.worst && a.gbps > best.gbps)) { acc = R->names[i]; best = a; }
            if (a.worst <= 1 && !isnan(a.gbps) && (!fast || a.gbps > bf.gbps)) { fast = R->names[i]; bf = a; }
            if (a.worst <= 1 && order_independent(a.det) && (!fast_oi || (!isnan(a.gbps) && a.gbps > bo.gbps)))
                { fast_oi = R->names[i]; bo = a; }
        }
        if (!nrow) continue;
        fputc('\n', f);
        char w[32], g[32];
        if (acc) {
            sl_report_num(w, sizeof w, best.worst);
            fprintf(f, "- Most accurate: `%s` (worst %s ulps).\n", acc, w);
        }
        if (fast) {
            sl_report_num(g, sizeof g, bf.gbps);
            fprintf(f, "- Fastest faithful: `%s` (%s GB/s).\n", fast, g);
        }
        if (fast_oi) {
            sl_report_num(g, sizeof g, bo.gbps);
            fprintf(f, "- Faithful and the same bits for any order or split: `%s`%s%s%s.\n", fast_oi,
                    isnan(bo.gbps) ? "" : " (", isnan(bo.gbps) ? "" : g, isnan(bo.gbps) ? "" : " GB/s)");
        }
        if (!fast && !fast_oi) fputs("- No variant was faithful on every row in this format.\n", f);
        advice_by_cond(f, R, dt);
        if (used) fprintf(f, "- Avoid here: %s (a result outside its a-priori bound: a self-check failed).\n", avoid);
        fputc('\n', f);
    }
}

/* ---- ## Anchors ------------------------------------------------------------------------------- */
void sl_report_anchors(FILE *f, const sl_report_ctx *R)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/anchors.csv", R->dir);
    sl_csv A;
    sl_err e = {{0}};
    FILE *probe = fopen(path, "r");
    if (!probe) return;
    fclose(probe);
    fputs("## Anchors: sums computed elsewhere, judged by `sumlab judge`\n\n", f);
    if (sl_csv_read(path, &A, NULL, &e)) {
        fprintf(f, "`anchors.csv` could not be read: %s\n\n", e.msg);
        return;
    }
    const int aexp = sl_csv_col(&A, "experiment"), ads = sl_csv_col(&A, "dataset"), apar = sl_csv_col(&A, "params"),
              adt = sl_csv_col(&A, "dtype"), an = sl_csv_col(&A, "n"), ainst = sl_csv_col(&A, "instance"),
              aname = sl_csv_col(&A, "anchor"), au = sl_csv_col(&A, "ulps"), alib = sl_csv_col(&A, "library"),
              ares = sl_csv_col(&A, "result_hex"), aex = sl_csv_col(&A, "exact_sum_hex");
    if (aname < 0 || au < 0 || adt < 0) {
        fputs("`anchors.csv` lacks the anchor, dtype or ulps columns.\n\n", f);
        sl_csv_free(&A);
        return;
    }
    const sl_csv *t = R->t;
    const cols c = R->c;
    int ic = sl_csv_col(t, "instance");
    fprintf(f, "%zu rows in `anchors.csv` (written by `experiments/anchors/anchors.py`): each anchor summed the "
               "same inputs as the study (same dataset, params, n, seed), and `sumlab judge` judged it against "
               "the exact sum. Medians over those inputs; sumlab's variants over the same inputs beside them, "
               "for comparison (S != 0; results exactly 0 or non-finite counted apart).\n\n", A.nrows);
    double *buf = R->buf;
    double *buf2 = malloc((A.nrows + 1) * sizeof *buf2);
    const char **names = malloc((A.nrows + 1) * sizeof *names);   /* every anchor of a format: a row each */
    if (!buf2 || !names) {
        fputs("The anchors' table was not written (out of memory).\n\n", f);
        free(buf2);
        free(names);
        sl_csv_free(&A);
        return;
    }
    for (int d = 0; d < SL_REPORT_NDTYPES; d++) {
        const char *dt = sl_report_dtypes[d];
        size_t nn = 0;
        for (size_t r = 0; r < A.nrows; r++) {
            if (strcmp(sl_csv_get(&A, r, adt), dt)) continue;
            const char *nm = sl_csv_get(&A, r, aname);
            size_t q = 0;
            while (q < nn && strcmp(names[q], nm)) q++;
            if (q == nn) names[nn++] = nm;
        }
        if (!nn) continue;
        fprintf(f, "### %s input\n\n| sum | from | inputs | median err (ulps) | max err (ulps) | exactly 0 / non-finite |\n"
                   "|---|---|---:|---:|---:|---:|\n", dt);
        for (size_t q = 0; q < nn; q++) {
            size_t k = 0, bad = 0, rows = 0;
            const char *lib = "";
            for (size_t r = 0; r < A.nrows; r++) {
                if (strcmp(sl_csv_get(&A, r, adt), dt) || strcmp(sl_csv_get(&A, r, aname), names[q])) continue;
                rows++;
                lib = sl_csv_get(&A, r, alib);
                const char *rh = sl_csv_get(&A, r, ares), *eh = sl_csv_get(&A, r, aex);
                double u = sl_csv_num(&A, r, au);
                if ((hex_nonfinite(rh) && u != 0) || (hex_zero(rh) && !hex_zero(eh))) { bad++; continue; }
                if (hex_zero(eh) || isnan(u)) continue;
                buf2[k++] = u;
            }
            double med, mn, mx;
            sl_stats(buf2, k, &med, &mn, &mx);
            char a[32], b[32];
            sl_report_num(a, sizeof a, med);
            sl_report_num(b, sizeof b, mx);
            /* anchors.csv's names: data that no check reads */
            fputs("| ", f);
            sl_report_md_cell(f, names[q]);
            fputs(" | ", f);
            sl_report_md_cell(f, *lib ? lib : "-");
            fprintf(f, " | %zu | %s | %s | %zu |\n", rows, a, b, bad);
        }
        /* sumlab's variants over the same inputs */
        for (size_t i = 0; i < R->nv; i++) {
            if (sl_report_tp_reference(R->names[i])) continue;
            size_t k = 0, bad = 0, rows = 0;
            for (size_t ar = 0; ar < A.nrows; ar++) {
                if (strcmp(sl_csv_get(&A, ar, adt), dt) || strcmp(sl_csv_get(&A, ar, aname), names[0])) continue;
                for (size_t r = 0; r < t->nrows; r++) {
                    if (!IS(r, variant, R->names[i]) || !IS(r, status, "ok") || !IS(r, config, "default") ||
                        !IS(r, dtype, dt) || strcmp(GET(r, exp), sl_csv_get(&A, ar, aexp)) ||
                        strcmp(GET(r, ds), sl_csv_get(&A, ar, ads)) || strcmp(GET(r, params), sl_csv_get(&A, ar, apar)) ||
                        strcmp(GET(r, n), sl_csv_get(&A, ar, an)))
                        continue;
                    const char *ri = sl_csv_get(t, r, ic), *ai = sl_csv_get(&A, ar, ainst);
                    if (strcmp(*ri ? ri : "0", *ai ? ai : "0")) continue;
                    rows++;
                    rclass cl = classify(t, &c, r);
                    if (cl == R_ZERO || cl == R_NONFINITE) bad++;
                    else if (cl == R_OK && !isnan(NUM(r, ulps))) buf[k++] = NUM(r, ulps);
                    break;
                }
            }
            if (!rows) continue;
            double med, mn, mx;
            sl_stats(buf, k, &med, &mn, &mx);
            char a[32], b[32];
            sl_report_num(a, sizeof a, med);
            sl_report_num(b, sizeof b, mx);
            fprintf(f, "| %s | sumlab | %zu | %s | %s | %zu |\n", R->names[i], rows, a, b, bad);
        }
        fputc('\n', f);
    }
    free(buf2);
    free(names);
    sl_csv_free(&A);
}

/* ---- the sweep line of the header ---------------------------------------------------------- */
void sl_report_sweep_line(FILE *f, const sl_report_ctx *R)
{
    sl_runconf conf;
    sl_runconf_read(R->dir, &conf);
    const long seeds = conf.seeds > 0 ? conf.seeds : 1;
    /* the full preset's accuracy sweeps run more instances than --seeds (their rows say) */
    const sl_csv *t = R->t;
    const int ic = sl_csv_col(t, "instances"), ec = sl_csv_col(t, "experiment");
    double acc = 0, most = 0;   /* (launch-config and the ladder measure one input, whatever --seeds) */
    for (size_t r = 0; ic >= 0 && ec >= 0 && r < t->nrows; r++) {
        const double k = sl_csv_num(t, r, ic);
        if (!strncmp(sl_csv_get(t, r, ec), "accuracy-", 9) && k > acc) acc = k;
        if (k > most) most = k;
    }
    char inst[96];
    if (acc > (double)seeds)
        snprintf(inst, sizeof inst, "%.0f instances per accuracy point, %ld per other point", acc, seeds);
    else if (seeds > 1 && most >= 1 && most < (double)seeds)
        snprintf(inst, sizeof inst, "%.0f instance%s per point (--seeds %ld does not apply: see the notes)", most,
                 most > 1 ? "s" : "", seeds);
    else
        snprintf(inst, sizeof inst, "%ld instance%s per point", seeds, seeds > 1 ? "s" : "");
    fprintf(f, "- sweep: n %s; datasets %s; variants %s; dtypes %s; **%s** "
               "(instance i: dataset seed %s + i); baseline `%s`\n",
            conf.n[0] ? conf.n : "as the preset", conf.datasets[0] ? conf.datasets : "as each experiment",
            conf.variants[0] ? conf.variants : "all", conf.dtypes[0] ? conf.dtypes : "the preset's",
            inst, R->seed, conf.baseline[0] ? conf.baseline : "pairwise");
}

/* anchors.c: the "Repeatability of the frameworks' sums" section: DIR/anchors/anchors.csv
 * (study_anchors.py: torch.sum, cupy.sum, jax.numpy.sum, numpy.sum on the study's inputs, each
 * repeated and judged by `sumlab judge`) as two tables, a row per framework (over the inputs) and
 * a row per input (a column per framework), and the anchors chart (plots/render.sh); every field
 * checked against the characters that script writes. */
#define _POSIX_C_SOURCE 200809L
#include "anchors.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "charts.h"
#include <sys/stat.h>
#include "sl_results.h"

#define ANCHORS_MAX_BYTES (4 << 20)

static const char *const shown[] = {"dataset", "params", "n", "anchor", "reps", "distinct",
                                    "spread_ulps", "ulps_max", "cond"};
#define NSHOWN (sizeof shown / sizeof *shown)

/* A field as study_anchors.py writes it: names (torch.sum(cuda;det=off)), parameters (k=v,...),
 * numbers; nothing that is markup in markdown or HTML ('<', '>', '&', '|', '`', '[', ']', '\\'). */
static int field_ok(const char *s)
{
    if (strlen(s) > 120) return 0;
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              strchr("._-+=;:(),^ /", c)))
            return 0;
    }
    return 1;
}

enum { C_DS, C_PAR, C_N, C_ANCHOR, C_REPS, C_DIST, C_SPREAD, C_UMAX, C_COND };

/* Columns read where the table has them (older tables lack them): the exact sum and the least
 * and greatest result, C99 hex. */
typedef struct { int exact, lo, hi; } zcols;

/* A hex (or decimal) number of a checked field; NaN when absent or not wholly a number. */
static double hexnum(const sl_csv *t, size_t r, int col)
{
    if (col < 0) return NAN;
    const char *s = sl_csv_get(t, r, col);
    char *end;
    if (!*s || !field_ok(s)) return NAN;
    const double v = strtod(s, &end);
    return *end ? NAN : v;
}

/* Row r's exact sum is 0 and its largest error is not: an ulp of 0 is the smallest subnormal, so
 * the error in ulps (~1e46 in float32) is no scale for it; its largest |result| is given instead. */
static int zero_sum_off(const sl_csv *t, size_t r, const int *col, const zcols *z)
{
    return hexnum(t, r, z->exact) == 0 && sl_csv_num(t, r, col[C_UMAX]) > 0;
}

static double largest_result(const sl_csv *t, size_t r, const zcols *z)
{
    const double a = fabs(hexnum(t, r, z->lo)), b = fabs(hexnum(t, r, z->hi));
    return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

/* The frameworks of the table in the order of their first row (at most 32). */
static size_t frameworks(const sl_csv *t, const int *col, const char **fw)
{
    size_t nf = 0;
    for (size_t r = 0; r < t->nrows && nf < 32; r++) {
        const char *a = sl_csv_get(t, r, col[C_ANCHOR]);
        size_t q = 0;
        while (q < nf && strcmp(fw[q], a)) q++;
        if (q == nf) fw[nf++] = a;
    }
    return nf;
}

/* Per framework, over the inputs: how many, the repetitions, how many inputs gave more than one
 * result, the most distinct results and the widest spread, the median and largest error (each
 * input's worst repetition) and the input of the largest. */
static void anchors_summary(FILE *f, const sl_csv *t, const int *col, const zcols *z)
{
    const char *fw[32];
    const size_t nf = frameworks(t, col, fw);
    double *v = malloc((t->nrows + 1) * sizeof *v);
    if (!v) return;
    fputs("### Per framework, over the inputs\n\n| framework | inputs | reps | inputs with > 1 result | "
          "most distinct | widest spread (ulps) | median error (ulps) | max error (ulps) | max at |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---|\n", f);
    for (size_t q = 0; q < nf; q++) {
        size_t k = 0, nondet = 0, rmax = (size_t)-1;
        double reps_lo = INFINITY, reps_hi = 0, dmax = 0, smax = 0, umax = -1;
        for (size_t r = 0; r < t->nrows; r++) {
            if (strcmp(sl_csv_get(t, r, col[C_ANCHOR]), fw[q])) continue;
            const double reps = sl_csv_num(t, r, col[C_REPS]), d = sl_csv_num(t, r, col[C_DIST]),
                         sp = sl_csv_num(t, r, col[C_SPREAD]), u = sl_csv_num(t, r, col[C_UMAX]);
            if (reps < reps_lo) reps_lo = reps;
            if (reps > reps_hi) reps_hi = reps;
            nondet += d > 1;
            if (d > dmax) dmax = d;
            if (sp > smax) smax = sp;
            if (!isnan(u) && !zero_sum_off(t, r, col, z)) {
                v[k++] = u;
                if (u > umax) { umax = u; rmax = r; }
            }
        }
        qsort(v, k, sizeof *v, sl_cmp_double);
        char reps[48], sp[32], med[32], mx[32], at[160] = "-";
        if (reps_lo == reps_hi) snprintf(reps, sizeof reps, "%.0f", reps_hi);
        else snprintf(reps, sizeof reps, "%.0f-%.0f", reps_lo, reps_hi);
        sl_report_num(sp, sizeof sp, smax);
        sl_report_num(med, sizeof med, k ? (k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2) : NAN);
        sl_report_num(mx, sizeof mx, k ? umax : NAN);
        if (rmax != (size_t)-1) {
            const char *par = sl_csv_get(t, rmax, col[C_PAR]);
            snprintf(at, sizeof at, "%s%s%s%s", sl_csv_get(t, rmax, col[C_DS]), *par ? " (" : "", par, *par ? ")" : "");
        }
        size_t inputs = 0;
        for (size_t r = 0; r < t->nrows; r++) inputs += !strcmp(sl_csv_get(t, r, col[C_ANCHOR]), fw[q]);
        fprintf(f, "| %s | %zu | %s | %s%zu%s | %.0f | %s | %s | %s | %s |\n", fw[q], inputs, reps,
                nondet ? "**" : "", nondet, nondet ? "**" : "", dmax, sp, med, mx, at);
    }
    fputc('\n', f);
    free(v);
    /* the inputs left out of the error columns */
    size_t nz = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (!zero_sum_off(t, r, col, z)) continue;
        size_t p = 0;
        while (p < r && !(zero_sum_off(t, p, col, z) && !strcmp(sl_csv_get(t, p, col[C_DS]), sl_csv_get(t, r, col[C_DS])) &&
                          !strcmp(sl_csv_get(t, p, col[C_PAR]), sl_csv_get(t, r, col[C_PAR]))))
            p++;
        if (p < r) continue;
        fprintf(f, "%s`%s`", nz++ ? ", " : "The errors of the inputs whose exact sum is 0 are left out of the error columns (", sl_csv_get(t, r, col[C_DS]));
    }
    if (nz)
        fputs("): an ulp of 0 is the smallest subnormal, so any other result would read as ~1e46 ulps in float32; "
              "the table per input gives their largest absolute result (`abs`).\n\n", f);
}

/* Per input (a row) and framework (a column): the largest error in ulps, and where the
 * repetitions differed, how many distinct results and their spread. */
static void anchors_matrix(FILE *f, const sl_csv *t, const int *col, const zcols *z)
{
    const char *fw[32];
    const size_t nf = frameworks(t, col, fw);
    /* one n for all inputs: said in the heading, no column; a dataset's parameters named only
     * where the table holds it with several */
    int one_n = 1;
    for (size_t r = 1; r < t->nrows && one_n; r++) one_n = !strcmp(sl_csv_get(t, r, col[C_N]), sl_csv_get(t, 0, col[C_N]));
    fprintf(f, "### Per input: largest error in ulps (where the repetitions differed: distinct results, spread "
               "in ulps)%s%s%s\n\n| input |%s cond |", one_n ? ", n = " : "", one_n ? sl_csv_get(t, 0, col[C_N]) : "",
            one_n ? "" : "", one_n ? "" : " n |");
    for (size_t q = 0; q < nf; q++) fprintf(f, " %s |", fw[q]);
    fprintf(f, "\n|---|%s---:|", one_n ? "" : "---:|");
    for (size_t q = 0; q < nf; q++) fputs("---:|", f);
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        /* an input: the first row of its (dataset, params, n) */
        size_t p = 0;
        while (p < r && !(!strcmp(sl_csv_get(t, p, col[C_DS]), sl_csv_get(t, r, col[C_DS])) &&
                          !strcmp(sl_csv_get(t, p, col[C_PAR]), sl_csv_get(t, r, col[C_PAR])) &&
                          !strcmp(sl_csv_get(t, p, col[C_N]), sl_csv_get(t, r, col[C_N]))))
            p++;
        if (p < r) continue;
        const char *par = sl_csv_get(t, r, col[C_PAR]);
        int several = 0;
        for (size_t s = 0; s < t->nrows && !several; s++)
            several = !strcmp(sl_csv_get(t, s, col[C_DS]), sl_csv_get(t, r, col[C_DS])) &&
                      strcmp(sl_csv_get(t, s, col[C_PAR]), par);
        char cond[32];
        sl_report_num(cond, sizeof cond, sl_csv_num(t, r, col[C_COND]));
        fprintf(f, "| %s%s%s%s |", sl_csv_get(t, r, col[C_DS]), several && *par ? " (" : "", several ? par : "",
                several && *par ? ")" : "");
        if (!one_n) fprintf(f, " %s |", sl_csv_get(t, r, col[C_N]));
        fprintf(f, " %s |", cond);
        for (size_t q = 0; q < nf; q++) {
            size_t s = r;
            while (s < t->nrows && !(!strcmp(sl_csv_get(t, s, col[C_ANCHOR]), fw[q]) &&
                                     !strcmp(sl_csv_get(t, s, col[C_DS]), sl_csv_get(t, r, col[C_DS])) &&
                                     !strcmp(sl_csv_get(t, s, col[C_PAR]), par) &&
                                     !strcmp(sl_csv_get(t, s, col[C_N]), sl_csv_get(t, r, col[C_N]))))
                s++;
            if (s == t->nrows) { fputs(" - |", f); continue; }
            char u[64], sp[32];
            sl_report_num(u, sizeof u, sl_csv_num(t, s, col[C_UMAX]));
            if (zero_sum_off(t, s, col, z)) {
                char a[32];
                sl_report_num(a, sizeof a, largest_result(t, s, z));
                snprintf(u, sizeof u, "abs %s (S = 0)", a);
            }
            const double d = sl_csv_num(t, s, col[C_DIST]);
            if (d > 1) {
                sl_report_num(sp, sizeof sp, sl_csv_num(t, s, col[C_SPREAD]));
                fprintf(f, " %s (**%.0f**, %s) |", u, d, sp);
            } else fprintf(f, " %s |", u);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

void sl_report_user_anchors(FILE *f, const sl_report_ctx *R)
{
    char sub[SL_DIR_MAX + 16], path[SL_DIR_MAX + 64];
    struct stat sd, st;
    if (sl_path_join(sub, sizeof sub, R->dir, "anchors", NULL) || lstat(sub, &sd) ||
        sl_path_join(path, sizeof path, sub, "anchors.csv", NULL) || lstat(path, &st))
        return;                                           /* no anchors run: no section */
    fputs("## Repeatability of the frameworks' sums\n\n", f);
    sl_csv t = {0};
    sl_err e;
    int col[NSHOWN], ok = S_ISDIR(sd.st_mode) && S_ISREG(st.st_mode) && st.st_size <= ANCHORS_MAX_BYTES &&
                          !sl_csv_read(path, &t, NULL, &e);
    for (size_t k = 0; ok && k < NSHOWN; k++)
        if ((col[k] = sl_csv_col(&t, shown[k])) < 0) ok = 0;
    for (size_t r = 0; ok && r < t.nrows; r++)
        for (size_t k = 0; ok && k < NSHOWN; k++) ok = field_ok(sl_csv_get(&t, r, col[k]));
    if (!ok || !t.nrows) {
        fputs("`anchors/anchors.csv` was left out: it is not the table `study_anchors.py` writes "
              "(a regular file of at most 4 MiB in a folder that is not a link, its columns, names and "
              "numbers only).\n\n", f);
        sl_csv_free(&t);
        return;
    }
    fputs("The sums users get from their frameworks on this study's float32 inputs, each call "
          "repeated (`experiments/anchors/study_anchors.py`, judged by `sumlab judge`): how many "
          "distinct results the repetitions gave, their spread and the largest error, in ulps of "
          "the exact sum rounded to float32; `cond` is the input's condition number. From "
          "`anchors/anchors.csv`.\n\n", f);
    const zcols z = {sl_csv_col(&t, "exact_sum_hex"), sl_csv_col(&t, "min_hex"), sl_csv_col(&t, "max_hex")};
    anchors_summary(f, &t, col, &z);
    anchors_matrix(f, &t, col, &z);
    sl_report_charts_at(f, R->dir, "anchors_", R->on_gpu);
    sl_csv_free(&t);
}

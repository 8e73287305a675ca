/* tightness.c: the Bound tightness section: the statistics of the tightness charts' ECDFs (plots/
 * render.sh extract_ti) as tables, from the same rows: accuracy rows with status ok, a finite
 * bound_ratio (|error| / a-priori bound), a finite positive bound_abs and a finite exact sum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "charts.h"
#include "tightness.h"

static int finite_field(const char *s) { return *s && !strstr(s, "inf") && !strstr(s, "nan"); }

/* Row r is one of the chart's: an accuracy row with a finite ratio to a finite positive bound
 * (as numbers: the data check admits NaN, INF and 1e999, and a NaN would leave qsort no order). */
static int tight_row(const sl_csv *t, const cols *cp, size_t r)
{
    const cols c = *cp;
    return !strncmp(GET(r, exp), "accuracy-", 9) && IS(r, status, "ok") && isfinite(NUM(r, bound_ratio)) &&
           isfinite(NUM(r, bound_abs)) && NUM(r, bound_abs) > 0 && finite_field(GET(r, exact_hex));
}

void sl_report_tightness(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    if (c.bound_ratio < 0 || c.bound_abs < 0) return;
    const int opc = sl_csv_col(t, "op");
    const char *op = "sum";
    size_t first = 0;
    while (first < t->nrows && !tight_row(t, &c, first)) first++;
    if (first == t->nrows) return;
    if (opc >= 0 && *sl_csv_get(t, first, opc)) op = sl_csv_get(t, first, opc);
    fputs("## Bound tightness\n\nThe ratio |error| / a-priori bound of every accuracy row with a finite bound (each "
          "instance, size, condition number and range of the accuracy sweeps): 1 is the bound, above 1 a "
          "violation; exact results have ratio 0 and are in the quantiles. The 90th percentile is the "
          "nearest-rank one. The chart below each table draws the same rows as ECDFs.\n\n", f);
    double *v = R->buf;
    for (int d = 0; d < SL_REPORT_NDTYPES; d++) {
        const char *dt = sl_report_dtypes[d];
        int header = 0;
        size_t all = 0, allover = 0;
        for (size_t i = 0; i < R->nv; i++) {
            size_t k = 0, zero = 0, over = 0;
            for (size_t r = first; r < t->nrows; r++) {
                if (!IS(r, dtype, dt) || !IS(r, variant, R->names[i]) || !tight_row(t, &c, r)) continue;
                const double q = NUM(r, bound_ratio);
                v[k++] = q;
                zero += q == 0;
                over += q > 1;
            }
            if (!k) continue;
            if (!header) {
                fprintf(f, "### %s, %s, |error| / bound\n\n| variant | rows | error 0 | median | 90th pct | max | "
                           "over the bound |\n|---|---:|---:|---:|---:|---:|---:|\n", op, dt);
                header = 1;
            }
            qsort(v, k, sizeof *v, sl_cmp_double);
            const double med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
            const size_t i90 = (size_t)ceil(0.9 * (double)k) - 1;
            char a[32], b[32], m[32];
            sl_report_num(a, sizeof a, med);
            sl_report_num(b, sizeof b, v[i90]);
            sl_report_num(m, sizeof m, v[k - 1]);
            fprintf(f, "| %s | %zu | %zu | %s | %s | %s | %s%zu%s |\n", R->names[i], k, zero, a, b, m,
                    over ? "**" : "", over, over ? "**" : "");
            all += k;
            allover += over;
        }
        if (!header) continue;
        fprintf(f, "\n%zu rows, %zu over the bound%s.\n\n", all, allover,
                allover ? " (in bold: a variant's result outside its a-priori bound; see Findings)" : "");
        char stem[96];
        if (!strcmp(op, "sum")) snprintf(stem, sizeof stem, "tightness_%s", dt);
        else snprintf(stem, sizeof stem, "tightness_%s__%s", op, dt);
        sl_report_charts_at(f, R->dir, stem, R->on_gpu);
    }
}

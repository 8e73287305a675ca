/* range.c: the Overflow and underflow section of norm2 and dot (issue 32's table: which variants
 * return Inf or 0 where the exact norm is finite): the accuracy rows (status ok, the default
 * launch configuration) whose exact value is finite and not 0, a table row per dataset family and
 * format where some variant failed there, a column per variant: `ok`, or its counts of +Inf,
 * -Inf, NaN and 0 results. Names and formats come from checked fields of results.csv. */
#include <stdlib.h>
#include <string.h>
#include "range.h"

/* 0 finite non-zero, 1 +Inf, 2 -Inf, 3 NaN, 4 zero (either sign); -1 empty */
static int kind_of(const char *h)
{
    if (!*h) return -1;
    if (strstr(h, "nan")) return 3;
    if (strstr(h, "inf")) return *h == '-' ? 2 : 1;
    return !strcmp(h, "0x0p+0") || !strcmp(h, "-0x0p+0") ? 4 : 0;
}

static int row_in(const sl_csv *t, const cols *cp, size_t r)
{
    const cols c = *cp;
    return !strncmp(GET(r, exp), "accuracy-", 9) && IS(r, status, "ok") && IS(r, config, "default") &&
           kind_of(GET(r, exact_hex)) == 0;
}

void sl_report_range(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const int opc = sl_csv_col(t, "op");
    const char *op = opc >= 0 && t->nrows ? sl_csv_get(t, 0, opc) : "sum";
    if (strcmp(op, "norm2") && strcmp(op, "dot")) return;
    /* the (family, format) pairs of the rows, first seen first; then each variant's counts there */
    const char **fam = malloc((t->nrows + 1) * sizeof *fam), **fdt = malloc((t->nrows + 1) * sizeof *fdt);
    size_t *pair = malloc((t->nrows + 1) * sizeof *pair), np = 0;
    fputs("## Overflow and underflow\n\n", f);
    for (size_t r = 0; fam && fdt && pair && r < t->nrows; r++) {
        if (!row_in(t, &c, r)) continue;
        size_t p = 0;
        while (p < np && !(!strcmp(fam[p], GET(r, ds)) && !strcmp(fdt[p], GET(r, dtype)))) p++;
        if (p == np) { fam[np] = GET(r, ds); fdt[np++] = GET(r, dtype); }
        pair[r] = p;
    }
    size_t *cnt = calloc(np * R->nv * 5 + 1, sizeof *cnt), *rows = calloc(np + 1, sizeof *rows);
    if (!fam || !fdt || !pair || !cnt || !rows) {
        fputs("Not written: out of memory.\n\n", f);
        free(fam); free(fdt); free(pair); free(cnt); free(rows);
        return;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        if (!row_in(t, &c, r)) continue;
        size_t v = 0;
        while (v < R->nv && !IS(r, variant, R->names[v])) v++;
        const int k = kind_of(GET(r, result_hex));
        if (v == R->nv || k < 0) continue;
        cnt[(pair[r] * R->nv + v) * 5 + (size_t)k]++;
        if (!strcmp(R->names[v], "exact")) rows[pair[r]]++;
    }
    free(pair);
    size_t bad = 0;
    for (size_t p = 0; p < np; p++)
        for (size_t v = 0; v < R->nv; v++)
            for (int k = 1; k < 5; k++) bad += cnt[(p * R->nv + v) * 5 + (size_t)k];
    fprintf(f, "The accuracy sweeps' rows whose exact value is finite and not 0 (the default launch configuration), per "
               "dataset family and format: where a variant returned +Inf, -Inf, NaN or 0 there, how often (`+Inf 3`: "
               "three rows); `ok`: never; `-`: no row. %s\n\n",
            !strcmp(op, "norm2") ? "For the norm: squares that overflow the accumulator give +Inf, squares that "
                                   "underflow it 0, while the exact norm is an ordinary number."
                                 : "For the dot: products that overflow the accumulator give +-Inf or NaN (Inf - Inf), "
                                   "products below its range 0, while the exact dot is an ordinary number.");
    if (!bad) {
        fprintf(f, "None: every variant returned a finite, non-zero result on the %zu family and format pairs "
                   "measured.\n\n", np);
        free(fam); free(fdt); free(cnt); free(rows);
        return;
    }
    /* the variants' columns (not the reference's own: exact) and the pairs in print order: the
     * families as first seen, each family's formats in sl_report_dtypes' order */
    fputs("| family | dtype | inputs |", f);
    for (size_t v = 0; v < R->nv; v++)
        if (strcmp(R->names[v], "exact")) fprintf(f, " %s |", R->names[v]);
    fputs("\n|---|---|---:|", f);
    for (size_t v = 0; v < R->nv; v++)
        if (strcmp(R->names[v], "exact")) fputs("---|", f);
    fputc('\n', f);
    size_t *order = malloc((np + 1) * sizeof *order), no = 0;
    for (size_t p = 0; order && p < np; p++) {
        int done = 0;   /* (a family already placed: its formats went with it) */
        for (size_t q = 0; q < p && !done; q++) done = !strcmp(fam[q], fam[p]);
        for (int d = 0; !done && d < SL_REPORT_NDTYPES; d++)
            for (size_t q = p; q < np; q++)
                if (!strcmp(fam[q], fam[p]) && !strcmp(fdt[q], sl_report_dtypes[d])) order[no++] = q;
    }
    static const char *const kname[5] = {"", "+Inf", "-Inf", "NaN", "0"};
    size_t clean = 0;
    for (size_t i = 0; order && i < no; i++) {
        const size_t p = order[i];
        size_t pb = 0;
        for (size_t v = 0; v < R->nv; v++)
            for (int k = 1; k < 5; k++) pb += cnt[(p * R->nv + v) * 5 + (size_t)k];
        if (!pb) { clean++; continue; }
        fprintf(f, "| `%s` | %s | %zu |", fam[p], fdt[p], rows[p]);
        for (size_t v = 0; v < R->nv; v++) {
            if (!strcmp(R->names[v], "exact")) continue;
            const size_t *q = &cnt[(p * R->nv + v) * 5];
            if (!q[0] && !q[1] && !q[2] && !q[3] && !q[4]) { fputs(" - |", f); continue; }
            int any = 0;
            for (int k = 1; k < 5; k++)
                if (q[k]) { fprintf(f, "%s**%s %zu**", any ? ", " : " ", kname[k], q[k]); any = 1; }
            fputs(any ? " |" : " ok |", f);
        }
        fputc('\n', f);
    }
    if (!order) fputs("(rows not written: out of memory)\n", f);
    if (clean) fprintf(f, "\nOn the other %zu family and format pairs every variant's result was finite and not 0.\n", clean);
    fputc('\n', f);
    free(order); free(fam); free(fdt); free(cnt); free(rows);
}

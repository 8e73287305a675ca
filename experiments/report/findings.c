/* findings.c: the report's Findings section, generated from results.csv (and ladder.csv): what a
 * reader should not miss, each finding with the row that shows it. Generic over operations
 * and variants: it reads the rows' verdict columns (bound_ratio, result_hex, exact_hex). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "findings.h"

static int hex_nonfinite(const char *h) { return strstr(h, "inf") || strstr(h, "nan"); }
static int hex_zero(const char *h) { return !strcmp(h[0] == '-' ? h + 1 : h, "0x0p+0"); }

/* The row that shows a finding: where it was measured and what it gave. */
static void row_line(FILE *f, const sl_csv *t, const cols *cp, size_t r)
{
    const cols c = *cp;
    char u[32], b[32];
    sl_report_num(u, sizeof u, NUM(r, ulps));
    sl_report_num(b, sizeof b, c.bound_ratio >= 0 ? NUM(r, bound_ratio) : NAN);
    fprintf(f, "`%s` %s %s n=%s%s%s (%s): result `%s`, exact `%s`, %s ulps, bound ratio %s", GET(r, variant),
            GET(r, exp), GET(r, ds), GET(r, n), *GET(r, params) ? " " : "", GET(r, params), GET(r, dtype),
            GET(r, result_hex), GET(r, exact_hex), u, b);
}

/* Per variant: how many rows match `kind` and the worst one (largest key). */
typedef struct {
    size_t count, worst;
    double key;
} tally;

enum { K_BOUND, K_ZERO, K_SIGN };

static int matches(const sl_csv *t, const cols *cp, size_t r, int kind, double *key)
{
    const cols c = *cp;
    if (!IS(r, status, "ok")) return 0;
    const char *rh = GET(r, result_hex), *eh = GET(r, exact_hex);
    if (!*rh || !*eh || hex_nonfinite(eh)) return 0;
    switch (kind) {
    case K_BOUND: {
        double q = c.bound_ratio >= 0 ? NUM(r, bound_ratio) : NAN;
        if (!(q > 1)) return 0;   /* (NaN: no bound) */
        *key = q;
        return 1;
    }
    case K_ZERO:
        if (!hex_zero(rh) || hex_zero(eh)) return 0;
        *key = 1;
        return 1;
    default: /* K_SIGN: a finite non-zero result of the other sign than a non-zero exact result */
        if (hex_nonfinite(rh) || hex_zero(rh) || hex_zero(eh) || (rh[0] == '-') == (eh[0] == '-')) return 0;
        *key = NUM(r, ulps);
        if (isnan(*key)) *key = 0;
        return 1;
    }
}

static size_t findings_of(FILE *f, const sl_report_ctx *R, int kind, const char *what)
{
    const sl_csv *t = R->t;
    tally tl[SL_REPORT_MAX_VARIANTS];   /* one per name of R->names */
    memset(tl, 0, sizeof tl);
    size_t total = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double key = 0;
        if (!matches(t, &R->c, r, kind, &key)) continue;
        const char *v = sl_csv_get(t, r, R->c.variant);
        size_t i = 0;
        while (i < R->nv && strcmp(R->names[i], v)) i++;
        if (i == R->nv) continue;
        total++;
        if (!tl[i].count || key > tl[i].key) { tl[i].worst = r; tl[i].key = key; }
        tl[i].count++;
    }
    if (!total) return 0;
    fprintf(f, "- **%s**: %zu row%s.\n", what, total, total == 1 ? "" : "s");
    for (size_t i = 0; i < R->nv; i++)
        if (tl[i].count) {
            fprintf(f, "  - `%s`, %zu row%s; %s: ", R->names[i], tl[i].count, tl[i].count == 1 ? "" : "s",
                    kind == K_BOUND ? "the worst" : kind == K_SIGN ? "the largest error" : "e.g.");
            row_line(f, t, &R->c, tl[i].worst);
            fputc('\n', f);
        }
    return total;
}

/* Non-monotone ladders: a rung slower than the rung before it, at the same configuration. */
static size_t ladder_findings(FILE *f, const sl_report_ctx *R)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/ladder.csv", R->dir);
    FILE *probe = fopen(path, "r");
    if (!probe) return 0;
    fclose(probe);
    sl_csv L;
    sl_err e = {{0}};
    if (sl_csv_read(path, &L, NULL, &e)) return 0;
    const int cc = sl_csv_col(&L, "config"), ct = sl_csv_col(&L, "text"), cr = sl_csv_col(&L, "rung"),
              cv = sl_csv_col(&L, "variant"), cs = sl_csv_col(&L, "speedup"), cn = sl_csv_col(&L, "n");
    size_t k = 0;
    if (cc >= 0 && ct >= 0 && cr >= 0 && cv >= 0 && cs >= 0)
        for (size_t r = 1; r < L.nrows; r++) {
            if (strcmp(sl_csv_get(&L, r, cc), sl_csv_get(&L, r - 1, cc)) ||
                strcmp(sl_csv_get(&L, r, ct), sl_csv_get(&L, r - 1, ct)))
                continue;
            double a = sl_csv_num(&L, r - 1, cs), b = sl_csv_num(&L, r, cs);
            if (!(b < a)) continue;
            if (!k++) fputs("- **Non-monotone ladders** (a rung slower than the one before it, ladder.csv):\n", f);
            fprintf(f, "  - %s, %s, n=%s: %s `%s` speedup %.3g after %s `%s` %.3g\n", sl_csv_get(&L, r, ct),
                    sl_csv_get(&L, r, cc), cn >= 0 ? sl_csv_get(&L, r, cn) : "?", sl_csv_get(&L, r, cr),
                    sl_csv_get(&L, r, cv), b, sl_csv_get(&L, r - 1, cr), sl_csv_get(&L, r - 1, cv), a);
        }
    sl_csv_free(&L);
    return k;
}

void sl_report_findings(FILE *f, const sl_report_ctx *R)
{
    fputs("## Findings\n\n", f);
    fputs("Generated from the rows (each with the row that shows it; `exact` is the exact result "
          "rounded once).\n\n", f);
    size_t n = 0;
    n += findings_of(f, R, K_BOUND, "Bound violations (error above the variant's a-priori bound, bound ratio > 1)");
    n += findings_of(f, R, K_ZERO, "Results exactly 0 where the exact result is not");
    n += findings_of(f, R, K_SIGN, "Results of the wrong sign (finite, non-zero, against a non-zero exact result)");
    n += ladder_findings(f, R);
    if (!n) fputs("- No bound violation, no result 0 or of the wrong sign against a non-zero exact result, "
                  "no non-monotone ladder in these rows.\n", f);
    fputs("- **What to use**: the fastest variant meeting each accuracy and reproducibility requirement, per "
          "format, is in [What to use, per format](#what-to-use-per-format) below, with its rows.\n\n", f);
}

/* half.c: the report's float16 paragraph: how many ulps a float16 sum of 2^20 values
 * (accuracy-vs-n, uniform-sym: |S| stays far below 65504) is off when accumulated in float16
 * (half-acc), in float32 (vec4 and the other float32-accumulating variants) and exactly (exact),
 * read from results.csv alone. */
#include <math.h>
#include <string.h>
#include "table.h"

#define HALF_N "1048576"
#define HALF_DS "uniform-sym"

/* ulps of variant `name` in the f16 accuracy-vs-n row at n = 2^20 of uniform-sym, instance 0 of
 * the default config (NaN when absent or not ok). */
static double half_ulps(const sl_report_ctx *R, const char *name)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    for (size_t r = 0; r < t->nrows; r++)
        if (IS(r, exp, "accuracy-vs-n") && IS(r, ds, HALF_DS) && IS(r, dtype, "f16") && IS(r, n, HALF_N) &&
            IS(r, variant, name) && IS(r, config, "default") && IS(r, status, "ok"))
            return NUM(r, ulps);
    return NAN;
}

void sl_report_half(FILE *f, const sl_report_ctx *R)
{
    const double h = half_ulps(R, "half-acc"), v = half_ulps(R, "vec4"), e = half_ulps(R, "exact");
    if (isnan(h) && isnan(v) && isnan(e)) return;   /* no float16 rows at n = 2^20 in this run */
    /* the largest error over every variant accumulating in float32 */
    double w = NAN;
    const char *wn = "-";
    for (size_t i = 0; i < R->nv; i++) {
        const sl_variant *var = sl_variant_find(R->names[i]);
        if (!var || sl_variant_acc(var, SL_F16) != SL_F32) continue;
        const double u = half_ulps(R, R->names[i]);
        if (!isnan(u) && (isnan(w) || u > w)) { w = u; wn = R->names[i]; }
    }
    char hb[32], vb[32], eb[32], wb[32];
    sl_report_num(hb, sizeof hb, h);
    sl_report_num(vb, sizeof vb, v);
    sl_report_num(eb, sizeof eb, e);
    sl_report_num(wb, sizeof wb, w);
    fprintf(f, "### float16, n = 2^20\n\n"
               "A float16 sum of 2^20 values (`%s`, accuracy-vs-n; ulps of the exact sum rounded to "
               "float16) is off by **%s ulps accumulated in float16** (`half-acc`), **%s ulps "
               "accumulated in float32** (`vec4`; the worst float32-accumulating variant: %s ulps, "
               "`%s`) and **%s ulps computed exactly** (`exact`: the correctly rounded sum, at most "
               "0.5). `-`: not measured in this run.\n\n",
            HALF_DS, hb, vb, wb, wn, eb);
}

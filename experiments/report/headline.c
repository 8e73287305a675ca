/* headline.c: the report's headline: per dtype, one row per variant over the ok rows of the
 * accuracy-vs-* experiments (median/max ulps where S != 0, S = 0 rows apart, non-finite
 * results, the largest bound ratio, distinct results, the verdict, GB/s), and its notes. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "headline.h"

/* ---- accuracy statistics of one variant and dtype (the headline) ------------------------- */
typedef struct {
    size_t k;             /* rows with S != 0 and a finite error in ulps (their ulps in buf) */
    size_t nonfin;        /* rows with a non-finite result against a finite or different S */
    size_t nzero;         /* rows with S = 0 and a finite result */
    double zero_rel_max;  /* max |result - S| / sum|x| over those */
    size_t nbound;        /* rows with a finite a-priori bound (in br_max) */
    size_t nvac_range;    /* rows without a finite bound: sum|x| beyond the accumulator's range */
    size_t nvac_ku;       /* rows without a finite bound: k u >= 1 (gamma_k undefined) */
    size_t nvac_lse;      /* rows of op lse without a finite bound (its model's own reasons) */
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
    sl_dtype d;
    if (sl_dtype_parse(dt, &d)) return DBL_MAX;
    const sl_dtype acc = v ? sl_variant_acc(v, d) : sl_dtype_acc(d);
    return acc == SL_F64 ? DBL_MAX : acc == SL_F16 ? 65504.0 : acc == SL_BF16 ? 0x1.fep127 : FLT_MAX;
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

/* vacuous_bound of row r of dtype dt, and 3 for a row of op lse whose bound is +inf: its model
 * (docs/lse.md, Bounds) has reasons of its own, and sum|x| (+Inf beside -Inf masks) is none of
 * them. opc: the op column (-1: none). */
static int row_vacuous(const sl_csv *t, const cols *cp, int opc, size_t r, const char *dt)
{
    const cols c = *cp;
    const double b = NUM(r, bound_abs);
    if (opc >= 0 && !strcmp(sl_csv_get(t, r, opc), "lse")) return isnan(b) ? -1 : isinf(b) ? 3 : 0;
    return vacuous_bound(b, NUM(r, abssum), acc_max(GET(r, variant), dt));
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
    const int opc = sl_csv_col(t, "op");
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
        } else if (sl_report_exact_zero(t, cp, r)) {
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
        double br = NUM(r, bound_ratio);
        int why = row_vacuous(t, cp, opc, r, dt);
        if (why < 0) continue;                        /* no a-priori bound for this variant/input */
        if (why == 1) { st->nvac_range++; continue; }
        if (why == 2) { st->nvac_ku++; continue; }
        if (why == 3) { st->nvac_lse++; continue; }
        if (isnan(br)) continue;
        st->nbound++;
        if (isnan(st->br_max) || br > st->br_max) {
            st->br_max = br;
            st->br_max_ds = GET(r, ds);
            st->br_max_n = GET(r, n);
        }
    }
}

/* Room for row_families' list: 4 names in backquotes, ", " between them. */
#define FAMILIES_LEN (4 * (SL_REPORT_DATASET_MAX + 4) + 1)

/* The dataset families (kinds 0, 1, 4) or variants (kinds 2, 3), up to 4, in backquotes, of the
 * ok accuracy rows of dtype dt whose exact sum is 0 (kind 0) or whose bound is no finite bound for
 * reason 1, 2 or 3 of row_vacuous (kinds 1, 2; 3 and 4 both reason 3). */
static void row_families(const sl_csv *t, const cols *cp, const char *dt, int kind, char *out, size_t len)
{
    const cols c = *cp;
    const int opc = sl_csv_col(t, "op"), why = kind == 4 ? 3 : kind;
    int nf = 0;
    out[0] = '\0';
    for (size_t r = 0; r < t->nrows && nf < 4; r++) {
        if (!IS(r, dtype, dt) || !IS(r, status, "ok") || strncmp(GET(r, exp), "accuracy-", 9)) continue;
        if (kind == 0) {
            const char *rh = GET(r, result_hex);
            if (!sl_report_exact_zero(t, cp, r) || strstr(rh, "inf") || strstr(rh, "nan")) continue;
        } else if (row_vacuous(t, cp, opc, r, dt) != why) {
            continue;
        }
        char tok[SL_REPORT_DATASET_MAX + 3];   /* a dataset name whole (a file pair's is 134 bytes) */
        snprintf(tok, sizeof tok, "`%s`", kind == 2 || kind == 3 ? GET(r, variant) : GET(r, ds));
        if (strstr(out, tok)) continue;
        size_t l = strlen(out);
        snprintf(out + l, len - l, "%s%s", nf ? ", " : "", tok);
        nf++;
    }
}

/* n of the throughput table of dtype dt: the largest n of throughput-vs-n whose step finished
 * (its read-ceiling row is written last), else the largest n with ok rows; 0 when none. A run
 * stopped part-way through an n then reports the last complete one. */
uint64_t sl_report_tp_n(const sl_csv *t, const cols *cp, const char *dt)
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

/* Counts over a dtype's table that its notes report. */
typedef struct {
    size_t vac_range, vac_ku, vac_lse, zero_rows;
} headline_sums;

/* One variant's row of the headline table of dtype dt. */
static void headline_row(FILE *f, const sl_report_ctx *R, const char *name, const char *dt,
                         uint64_t tpn, const char *tpnb, headline_sums *sum)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    double *buf = R->buf;
    const char *cls = "";
    acc_stats st;
    accuracy_stats(t, &c, name, dt, buf, &st, &cls);
    sum->vac_range += st.nvac_range;
    sum->vac_ku += st.nvac_ku;
    sum->vac_lse += st.nvac_lse;
    sum->zero_rows += st.nzero;
    double gb = NAN;
    for (size_t r = 0; r < t->nrows && tpn; r++)
        if (IS(r, exp, "throughput-vs-n") && IS(r, backend, "gpu") && IS(r, variant, name) &&
            IS(r, dtype, dt) && IS(r, n, tpnb) && IS(r, status, "ok"))
            gb = NUM(r, gbps);
    double med = sl_median(buf, st.k);
    const sl_det_verdict *v = NULL;
    for (size_t q = 0; q < R->nverd; q++) if (!strcmp(R->verd[q].variant, name)) v = &R->verd[q];
    /* the worst row's dataset whole in b and br (a file pair's name is 134 bytes) */
    char a[32], b[32 + SL_REPORT_DATASET_MAX + 4], z[32], br[64 + SL_REPORT_DATASET_MAX + 32], g[32], dist[48];
    sl_report_num(a, sizeof a, med);
    sl_report_num(b, sizeof b, st.ulps_max);
    if (st.ulps_max > 1 && *st.ulps_max_ds) {   /* where the worst row comes from */
        size_t l = strlen(b);
        snprintf(b + l, sizeof b - l, " (%s)", st.ulps_max_ds);
    }
    sl_report_num(z, sizeof z, st.zero_rel_max);
    sl_report_num(br, sizeof br, st.br_max);
    if (st.br_max > 1) {
        size_t l = strlen(br);
        snprintf(br + l, sizeof br - l, " **VIOLATED** (%s, n=%s)", st.br_max_ds, st.br_max_n);
    }
    sl_report_num(g, sizeof g, gb);
    if (v && v->reps_distinct >= 0) snprintf(dist, sizeof dist, "%ld", v->reps_distinct);
    else snprintf(dist, sizeof dist, "-");
    /* the documented class is a claim: where the determinism rows contradict it, it says so */
    char clsb[96];
    snprintf(clsb, sizeof clsb, "%s%s", *cls ? cls : "-", v && !strcmp(v->verdict, "FAIL") ? " (claim failed)" : "");
    fprintf(f, "| %s | %s | %s | %s | %zu | %s | %zu | %s | %s | %s | %s |\n", name, clsb,
            a, b, st.nzero, st.nzero ? z : "-", st.nonfin, br, dist, v ? v->verdict : "-", g);
}

/* The notes under the headline table of dtype dt: S = 0 rows, rows without a finite bound,
 * the n of the GB/s column. */
static void headline_notes(FILE *f, const sl_report_ctx *R, const char *dt, uint64_t tpn,
                           const headline_sums *sum)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
    const size_t vac_range = sum->vac_range, vac_ku = sum->vac_ku, vac_lse = sum->vac_lse;
    const size_t zero_rows = sum->zero_rows;
    const int opc = sl_csv_col(t, "op");   /* (R->t holds one operation's rows) */
    const char *op = opc >= 0 && t->nrows ? sl_csv_get(t, 0, opc) : "sum";
    uint64_t ku_nmin = 0;
    for (size_t r = 0; r < t->nrows && vac_ku; r++)
        if (IS(r, dtype, dt) && IS(r, status, "ok") && !strncmp(GET(r, exp), "accuracy-", 9) &&
            row_vacuous(t, &c, opc, r, dt) == 2) {
            uint64_t n = strtoull(GET(r, n), NULL, 10);
            if (!ku_nmin || n < ku_nmin) ku_nmin = n;
        }
    if (zero_rows || vac_range || vac_ku || vac_lse || tpn) {
        fprintf(f, "%s:", dt);
        if (zero_rows) {
            char fams[FAMILIES_LEN];
            row_families(t, &c, dt, 0, fams, sizeof fams);
            /* a dot of products below the format's range rounds to 0 while not 0 itself */
            fprintf(f, " %zu rows (family %s) have an exact %s: they are in the `S = 0` columns, "
                       "not in the ulps.", zero_rows, fams, !strcmp(op, "dot") ?
                    "dot S that is 0 or rounds to 0 in the format (products below its range)"
                    : !strcmp(op, "sum") ? "sum S of 0" : "value S of 0");
        }
        if (vac_range || vac_ku || vac_lse) {
            char fr[FAMILIES_LEN], fk[FAMILIES_LEN], lv[FAMILIES_LEN], lf[FAMILIES_LEN];
            row_families(t, &c, dt, 1, fr, sizeof fr);
            row_families(t, &c, dt, 2, fk, sizeof fk);
            row_families(t, &c, dt, 3, lv, sizeof lv);
            row_families(t, &c, dt, 4, lf, sizeof lf);
            fprintf(f, " No finite a-priori bound (bound = +inf) for %zu rows, not counted as violations "
                       "and left out of `max bound ratio`:", vac_range + vac_ku + vac_lse);
            if (vac_range)
                fprintf(f, " %zu rows (family %s) where sum|x| exceeds the accumulator's largest finite "
                           "value, so a partial sum may overflow and Higham's bound does not apply%s",
                        vac_range, fr, vac_ku || vac_lse ? ";" : ".");
            /* norm2 and dot: their models give +inf on their range failures too (bounds_norm.c,
             * bounds_dot.c) */
            if (vac_ku && (!strcmp(op, "norm2") || !strcmp(op, "dot")))
                fprintf(f, " %zu rows (variant %s) where the variant's bound model gives +inf: %s that may "
                           "overflow the accumulator, %s below its range that outweigh the bound (the variant "
                           "may return +Inf or 0 where the exact value is finite), an exact value near the "
                           "format's top, or a chain of k roundings too long (k u >= 1)%s",
                        vac_ku, fk, !strcmp(op, "dot") ? "products or partial sums" : "squares or partial sums",
                        !strcmp(op, "dot") ? "products" : "squares", vac_lse ? ";" : ".");
            else if (vac_ku)
                fprintf(f, " %zu rows (variant %s, n >= %llu) whose chain of k roundings is too long for "
                           "the bound: k u >= 1, where gamma_k = k u / (1 - k u) is undefined%s",
                        vac_ku, fk, (unsigned long long)ku_nmin, vac_lse ? ";" : ".");
            if (vac_lse)
                fprintf(f, " %zu lse rows (variant %s; family %s) where the log-sum-exp bound has no "
                           "finite value: the unshifted sum of naive and half-acc overflows or underflows "
                           "their accumulator (exp(lse) out of its range), or the shifted forms' bound on "
                           "the sum's relative error reaches 1/2 (its argument term W u, W <= cond |lse| + "
                           "max|x|, as max|x| nears 1/u) (docs/lse.md, Bounds).",
                        vac_lse, lv, lf);
        }
        if (tpn) fprintf(f, " GB/s: throughput-vs-n at n = %llu.", (unsigned long long)tpn);
        fputs("\n\n", f);
    }
}

void sl_report_headline(FILE *f, const sl_report_ctx *R)
{
    const sl_csv *t = R->t;
    const cols c = R->c;
        int any_acc = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (!strncmp(GET(r, exp), "accuracy-", 9) && IS(r, status, "ok")) any_acc = 1;
    fputs("## Headline\n\n", f);
    if (!any_acc) fputs("No accuracy rows in this run (accuracy-vs-* experiments not run).\n\n", f);
    for (int d = 0; d < SL_REPORT_NDTYPES; d++) {
        int any = 0;
        for (size_t r = 0; r < t->nrows && !any; r++) any = IS(r, dtype, sl_report_dtypes[d]);
        if (!any) continue;
        const uint64_t tpn = sl_report_tp_n(t, &c, sl_report_dtypes[d]);
        char tpnb[32];
        snprintf(tpnb, sizeof tpnb, "%llu", (unsigned long long)tpn);
        fprintf(f, "### %s input\n\n", sl_report_dtypes[d]);
        fputs("| variant | class | median err (ulps), S != 0 | max err (ulps), S != 0 | S = 0: rows "
              "| S = 0: max \\|err\\| / sum\\|x\\| | non-finite | max bound ratio | distinct (reps) "
              "| determinism | GB/s |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n", f);
        headline_sums sum = {0, 0, 0, 0};
        for (size_t i = 0; i < R->nv; i++)
            if (!sl_report_tp_reference(R->names[i])) headline_row(f, R, R->names[i], sl_report_dtypes[d], tpn, tpnb, &sum);
        fputc('\n', f);
        headline_notes(f, R, sl_report_dtypes[d], tpn, &sum);
    }
    sl_report_half(f, R);
    /* the legend in the words of the table's operation (R->t holds one operation's rows) */
    const int opc = sl_csv_col(t, "op");
    const char *op = opc >= 0 && t->nrows ? sl_csv_get(t, 0, opc) : "sum";
    const int is_sum = !strcmp(op, "sum");
    fprintf(f, "Columns: every `ok` row of the accuracy-vs-* experiments of that variant and dtype. "
               "`median/max err (ulps), S != 0`: over rows whose exact %s S is not 0 and whose result is "
               "finite, in ulps of S rounded to the input format; in parentheses the family of the worst "
               "row%s. `S = 0`: rows whose exact %s is exactly 0%s, where an ulp is the smallest "
               "subnormal and any non-zero result would read as ~1e45 (f32) or ~1e323 (f64) ulps; they are "
               "counted apart (`rows`) with their largest |result - S| / sum|x| (sum|x| over the input; 0: "
               "every such result was exactly 0). `non-finite`: rows where the variant returned Inf/NaN "
               "against a finite or different exact %s (overflow and special-value families). `max bound "
               "ratio`: largest |result - S| / a-priori bound over the rows with a finite bound (**VIOLATED** "
               "above 1, with the family and n of the worst row; inf: a non-finite result against a finite "
               "bound); rows whose bound is +inf (their ratio is 0, or inf/inf for an infinite result) are "
               "no violations: they are left out and counted under each table. `distinct`: most distinct "
               "results over the determinism experiment's repetitions. GB/s: throughput-vs-n (GPU rows "
               "only) at the n named under the table.\n\n",
            is_sum ? "sum" : "value", is_sum ? " (`ill-conditioned` inputs, condition number up to 1e30, are "
            "many ulps off because S is tiny next to sum|x|)" : " (ill-conditioned inputs are many ulps off "
            "because S is tiny next to the terms it is computed from)", is_sum ? "sum" : "value",
            is_sum ? " (e.g. the `cancellation` family)" : "", is_sum ? "sum" : "value");
}

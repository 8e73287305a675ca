/* compare.c: `sumlab compare DIR_A DIR_B`: per-variant differences in error and throughput
 * between two runs, over the measurements both hold (matched by key: experiment, dataset,
 * params, dtype, n, variant, config). Table (or CSV/JSON) to stdout. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sl_cli.h"
#include "sl_measure.h"
#include "sl_results.h"

#define CMD "compare"

typedef struct {
    char *key;
    size_t row;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

/* The rows' keys, sorted; NULL when out of memory, or (*long_row = its data row, from 1) when a
 * row's key is longer than SL_KEY_LEN - 1 bytes. */
static keyed *make_keys(const sl_csv *t, size_t *long_row)
{
    *long_row = 0;
    keyed *k = calloc(t->nrows + 1, sizeof *k);
    if (!k) return NULL;
    for (size_t r = 0; r < t->nrows; r++) {
        char buf[SL_KEY_LEN];
        const int too_long = sl_csv_key(t, r, buf, sizeof buf) != 0;
        if (too_long || !(k[r].key = strdup(buf))) {
            if (too_long) *long_row = r + 1;
            for (size_t q = 0; q < r; q++) free(k[q].key);
            free(k);
            return NULL;
        }
        k[r].row = r;
    }
    qsort(k, t->nrows, sizeof *k, cmp_keyed);
    return k;
}

static void free_keys(keyed *k, size_t n)
{
    for (size_t i = 0; k && i < n; i++) free(k[i].key);
    free(k);
}


static int load(const char *dir, sl_csv *t)
{
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        sl_cli_msg(CMD, "'%s' is not a directory", dir);
        return 2;
    }
    char path[SL_DIR_MAX + 64];
    sl_err pe = {{0}};
    if (sl_check_dir_len(dir, &pe) || sl_path_join(path, sizeof path, dir, "results.csv", &pe)) {
        sl_cli_msg(CMD, "%s", pe.msg);
        return 2;
    }
    if (stat(path, &st)) {
        sl_cli_msg(CMD, "'%s' holds no results.csv (not a sumlab run directory)", dir);
        return 2;
    }
    sl_err e = {{0}};
    int truncated = 0;
    if (sl_csv_read(path, t, &truncated, &e)) {
        sl_cli_msg(CMD, "%s", e.msg);
        return 2;
    }
    if (truncated)
        sl_cli_msg(CMD, "%s: its last line has no newline (an interrupted write?): left out of the comparison", path);
    /* the key's columns (op may be absent: a file written before the operation axis) */
    for (int i = 1; i < SL_KEY_FIELDS; i++)
        if (sl_csv_col(t, sl_key_columns[i]) < 0) {
            sl_cli_msg(CMD, "%s: not a sumlab results file (no column '%s')", path, sl_key_columns[i]);
            sl_csv_free(t);
            return 2;
        }
    if (sl_csv_col(t, "ulps") < 0 || sl_csv_col(t, "gbps") < 0 || sl_csv_col(t, "status") < 0) {
        sl_cli_msg(CMD, "%s: not a sumlab results file (no ulps/gbps/status columns)", path);
        sl_csv_free(t);
        return 2;
    }
    return 0;
}

/* The columns compare reads, in A and in B. */
typedef struct {
    int ua, ub, ga, gb, sa, sb, ha, hb, ba, bb, ea, eb, va;
} cmp_cols;

/* As the report judges a row: S = 0 (ulps undefined: its ulp is the smallest subnormal) and
 * non-finite results against a finite or different S (ulps inf) are counted apart. */
static int exact_zero(const char *h)
{
    if (*h == '-') h++;
    return !strcmp(h, "0x0p+0");
}
static int nonfinite_wrong(const sl_csv *t, size_t r, int hcol, double u)
{
    const char *h = sl_csv_get(t, r, hcol);
    return (strstr(h, "inf") || strstr(h, "nan")) && u != 0;
}

/* One variant's row: over the matched ok pairs of that variant, ulps median/max in A and B,
 * results whose bits differ, better/worse in B, and the median GB/s of GPU rows. x*, y*:
 * scratch for np values each. */
static void compare_variant(sl_table *tab, const sl_csv *A, const sl_csv *B, const size_t *pa,
                            const size_t *pb, size_t np, const char *name, const cmp_cols *cc,
                            double *xa, double *xb, double *ya, double *yb)
{
    size_t k = 0, kg = 0, rows = 0, differ = 0, better = 0, worse = 0, s0 = 0, nfa = 0, nfb = 0;
    double maxa = NAN, maxb = NAN;
    for (size_t p = 0; p < np; p++) {
        size_t ra = pa[p], rb = pb[p];
        if (strcmp(sl_csv_get(A, ra, cc->va), name)) continue;
        if (strcmp(sl_csv_get(A, ra, cc->sa), "ok") || strcmp(sl_csv_get(B, rb, cc->sb), "ok")) continue;
        rows++;
        if (strcmp(sl_csv_get(A, ra, cc->ha), sl_csv_get(B, rb, cc->hb))) differ++;
        double u1 = sl_csv_num(A, ra, cc->ua), u2 = sl_csv_num(B, rb, cc->ub);
        int f1 = nonfinite_wrong(A, ra, cc->ha, u1), f2 = nonfinite_wrong(B, rb, cc->hb, u2);
        nfa += f1;
        nfb += f2;
        if (exact_zero(sl_csv_get(A, ra, cc->ea)) || exact_zero(sl_csv_get(B, rb, cc->eb))) s0++;
        else if (!f1 && !f2 && !isnan(u1) && !isnan(u2)) {
            xa[k] = u1; xb[k] = u2; k++;
            if (u2 < u1) better++;
            if (u2 > u1) worse++;
            if (isnan(maxa) || u1 > maxa) maxa = u1;
            if (isnan(maxb) || u2 > maxb) maxb = u2;
        }
        double g1 = sl_csv_num(A, ra, cc->ga), g2 = sl_csv_num(B, rb, cc->gb);
        if (!isnan(g1) && !isnan(g2) && !strcmp(sl_csv_get(A, ra, cc->ba), "gpu") &&
            !strcmp(sl_csv_get(B, rb, cc->bb), "gpu")) {
            ya[kg] = g1; yb[kg] = g2; kg++;
        }
    }
    if (!rows) return;
    double gma = sl_median(ya, kg), gmb = sl_median(yb, kg);
    sl_table_row(tab);
    sl_table_str(tab, name);
    sl_table_u64(tab, rows);
    sl_table_num(tab, sl_median(xa, k), 4);
    sl_table_num(tab, sl_median(xb, k), 4);
    sl_table_num(tab, maxa, 4);
    sl_table_num(tab, maxb, 4);
    sl_table_u64(tab, differ);
    sl_table_u64(tab, better);
    sl_table_u64(tab, worse);
    if (kg) { sl_table_num(tab, gma, 4); sl_table_num(tab, gmb, 4); sl_table_num(tab, gmb / gma, 3); }
    else { sl_table_null(tab); sl_table_null(tab); sl_table_null(tab); }
    sl_table_u64(tab, s0);
    sl_table_u64(tab, nfa);
    sl_table_u64(tab, nfb);
}

static void usage(FILE *f)
{
    fputs("usage: sumlab compare DIR_A DIR_B [--format table|csv|json]\n\n"
          "Per variant, over the measurements both runs hold (same experiment, dataset, params,\n"
          "dtype, n, variant, config): median and max error in ulps in A and B, how many results\n"
          "differ in their bits, how many got better/worse in B, and the median GB/s of GPU rows\n"
          "with the ratio B/A. As in report.md, the ulps figures leave out rows whose exact sum\n"
          "is 0 (counted in S0_rows: an ulp there is the smallest subnormal) and non-finite\n"
          "results against a finite or different S (counted in nonfinite_A / nonfinite_B).\n", f);
}

int sl_cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                              {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    sl_out_format fmt = SL_OUT_TABLE;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (sl_out_format_parse(optarg, &fmt)) {
                sl_cli_msg(CMD, "unknown format '%s' (table, csv or json)", optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: return sl_cli_bad_option(CMD, c, argv, optind, optopt, longopts);
        }
    }
    if (argc - optind != 2) {
        sl_cli_msg(CMD, "needs two run directories: sumlab compare DIR_A DIR_B");
        return 2;
    }
    const char *da = argv[optind], *db = argv[optind + 1];
    sl_csv A, B;
    int rc = load(da, &A);
    if (rc) return rc;
    if ((rc = load(db, &B))) { sl_csv_free(&A); return rc; }

    size_t la = 0, lb = 0;
    keyed *ka = make_keys(&A, &la), *kb = ka ? make_keys(&B, &lb) : NULL;
    if (!ka || !kb) {
        if (la || lb)
            sl_cli_msg(CMD, "%s/results.csv: data row %zu has a key longer than %d bytes", la ? da : db,
                       la ? la : lb, SL_KEY_LEN - 1);
        else sl_cli_msg(CMD, "out of memory");
        free_keys(ka, A.nrows); free_keys(kb, B.nrows);
        sl_csv_free(&A); sl_csv_free(&B);
        return la || lb ? 2 : 1;
    }
    /* matched pairs by merging the sorted keys */
    size_t *pa = malloc((A.nrows + 1) * sizeof *pa), *pb = malloc((A.nrows + 1) * sizeof *pb);
    size_t np = 0, only_a = 0, only_b = 0;
    for (size_t i = 0, j = 0; pa && pb && (i < A.nrows || j < B.nrows);) {
        int s = i >= A.nrows ? 1 : j >= B.nrows ? -1 : strcmp(ka[i].key, kb[j].key);
        if (s == 0) { pa[np] = ka[i].row; pb[np] = kb[j].row; np++; i++; j++; }
        else if (s < 0) { only_a++; i++; }
        else { only_b++; j++; }
    }
    const cmp_cols cc = {sl_csv_col(&A, "ulps"), sl_csv_col(&B, "ulps"), sl_csv_col(&A, "gbps"),
                         sl_csv_col(&B, "gbps"), sl_csv_col(&A, "status"), sl_csv_col(&B, "status"),
                         sl_csv_col(&A, "result_hex"), sl_csv_col(&B, "result_hex"),
                         sl_csv_col(&A, "backend"), sl_csv_col(&B, "backend"),
                         sl_csv_col(&A, "exact_hex"), sl_csv_col(&B, "exact_hex"),
                         sl_csv_col(&A, "variant")};   /* (load checked it: a file's own column order) */

    /* variant names in order of first appearance among the pairs (registry order first) */
    const char *names[128];
    size_t nv = 0;
    for (size_t i = 0; i <= sl_variant_count() && nv < 128; i++) {
        const char *want = i < sl_variant_count() ? sl_variant_at(i)->name : NULL;
        for (size_t p = 0; p < np && nv < 128; p++) {
            const char *name = sl_csv_get(&A, pa[p], cc.va);
            if (want && strcmp(name, want)) continue;
            size_t q = 0;
            while (q < nv && strcmp(names[q], name)) q++;
            if (q == nv) names[nv++] = name;
            if (want) break;
        }
    }
    static const char *const hdr[] = {"variant", "rows", "ulps_med_A", "ulps_med_B", "ulps_max_A",
                                      "ulps_max_B", "bits_differ", "B_better", "B_worse",
                                      "gbps_med_A", "gbps_med_B", "gbps_B/A", "S0_rows",
                                      "nonfinite_A", "nonfinite_B"};
    sl_table *tab = sl_table_new(15, hdr);
    double *xa = malloc((np + 1) * sizeof *xa), *xb = malloc((np + 1) * sizeof *xb);
    double *ya = malloc((np + 1) * sizeof *ya), *yb = malloc((np + 1) * sizeof *yb);
    if (!tab || !pa || !pb || !xa || !xb || !ya || !yb) {
        sl_cli_msg(CMD, "out of memory");
        rc = 1;
        goto done;
    }
    for (size_t i = 0; i < nv; i++) compare_variant(tab, &A, &B, pa, pb, np, names[i], &cc, xa, xb, ya, yb);
    fprintf(stderr, "sumlab compare: A = %s (%zu rows), B = %s (%zu rows): %zu matched keys, %zu only in A, "
                    "%zu only in B\n", da, A.nrows, db, B.nrows, np, only_a, only_b);
    if (!np) {   /* nothing to compare: bad input, not a runtime failure */
        sl_runconf ca, cb;
        if (!sl_runconf_read(da, &ca) && !sl_runconf_read(db, &cb) && strcmp(ca.experiment, cb.experiment))
            sl_cli_msg(CMD, "'%s' is a run of '%s' and '%s' a run of '%s': they share no measurement", da,
                       ca.experiment, db, cb.experiment);
        else
            sl_cli_msg(CMD, "the two runs share no measurement (different experiments, presets or dtypes?)");
        rc = 2;
        goto done;
    }
    if (sl_table_write(tab, fmt, stdout)) rc = 1;
done:
    sl_table_free(tab);
    free(xa); free(xb); free(ya); free(yb); free(pa); free(pb);
    free_keys(ka, A.nrows);
    free_keys(kb, B.nrows);
    sl_csv_free(&A);
    sl_csv_free(&B);
    return rc;
}

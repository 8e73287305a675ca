/* schema.c: the one column table (sl_results.h): every column's name, unit, JSON type, formatter
 * and one line of help, in one line each, so a column is added in one place; the column lists of
 * results.csv and distribution.csv are names from it, and the commands' --columns choose from it.
 * The formatters only format figures of the record (measure/ computed them); an absent figure is
 * an empty field. Decimal figures of the judgement carry 17 significant digits (they round-trip;
 * a command's table asks fewer through record.digits; times and GB/s 6); bit patterns C99 %a. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sl_format.h"
#include "sl_results.h"

/* ---- value helpers ---------------------------------------------------------------------- */
static const char *num(char *b, size_t len, double v, int prec)
{
    if (isnan(v)) return "";
    return sl_fmt_double(b, len, v, prec);
}

static const char *u64(char *b, size_t len, uint64_t v)
{
    snprintf(b, len, "%llu", (unsigned long long)v);
    return b;
}

#define DIG (r->digits > 0 ? r->digits : 17)  /* judged figures' significant digits */
#define ROW (r->row)
#define CTX (r->ctx)
#define JUDGED(expr) (ROW->judged ? (expr) : "")
#define EXACT(expr) (ROW->have_exact ? (expr) : "")
#define CFG(expr) (ROW->have_cfg ? (expr) : "")
#define TIMED(expr) ((ROW->have_run && ROW->reps > 0 && !isnan(ROW->time_ms_median)) ? (expr) : "")
/* One formatter per column: F(name, expression of r, i, b, len). */
#define F(name, expr) \
    static const char *f_##name(const sl_record *r, size_t i, char *b, size_t len) \
    { (void)i; (void)b; (void)len; return (expr); }

/* ---- the key and the context ------------------------------------------------------------ */
F(op, sl_rowctx_op(CTX)->name)
F(experiment, CTX->experiment)
F(dataset, CTX->ds ? CTX->ds->name : "-")
F(params, CTX->params)
F(dtype, sl_dtype_name(CTX->dt))
F(n, u64(b, len, CTX->n))
F(variant, r->variant)
F(config, CTX->config)
F(sweep, CTX->sweep ? CTX->sweep : "n")
F(sweep_value, CTX->sweep && !isnan(CTX->sweep_value) ? num(b, len, CTX->sweep_value, 17) : u64(b, len, CTX->n))
F(family, r->family)
F(det_class, r->det_class)
F(backend, ROW->backend)
F(block, CFG(u64(b, len, ROW->cfg.block)))
F(grid, CFG(u64(b, len, ROW->cfg.grid)))
F(sm_count, CFG(u64(b, len, ROW->cfg.sm_count)))
F(items, CFG(u64(b, len, ROW->cfg.items)))
F(seed, u64(b, len, r->seed))
F(reps, ROW->have_run ? u64(b, len, (uint64_t)ROW->reps) : "")
F(status, r->status)
/* ---- results and their judgement -------------------------------------------------------- */
F(result, JUDGED(sl_fmt_result(b, len, ROW->result, CTX->dt)))
F(result_hex, JUDGED(sl_fmt_hex(b, len, ROW->result)))
F(exact, EXACT(sl_fmt_result(b, len, ROW->exact, CTX->dt)))
F(exact_hex, EXACT(sl_fmt_hex(b, len, ROW->exact)))
F(distinct, JUDGED(u64(b, len, ROW->distinct)))
F(min_hex, JUDGED(sl_fmt_hex(b, len, ROW->min_result)))
F(max_hex, JUDGED(sl_fmt_hex(b, len, ROW->max_result)))
F(spread_ulps, JUDGED(num(b, len, ROW->spread_ulps, DIG)))
F(abs_err, JUDGED(num(b, len, ROW->err.abs_err, DIG)))
F(rel_err, JUDGED(num(b, len, ROW->err.rel_err, DIG)))
F(ulps, JUDGED(num(b, len, ROW->err.ulps, DIG)))
F(ulps_median, JUDGED(num(b, len, ROW->ulps_median, DIG)))
F(ulps_max, JUDGED(num(b, len, ROW->ulps_max, DIG)))
/* a human-readable table (digits > 0: sum's and judge's) gives the a-priori bound 3 significant
 * digits, its order of magnitude and more; sum's default float64 table then fits 120 columns */
F(bound_abs, JUDGED(num(b, len, ROW->bound, r->digits > 0 ? (r->digits < 3 ? r->digits : 3) : 17)))
F(bound_rel, JUDGED(num(b, len, ROW->bound_rel, DIG)))
F(bound_ratio, JUDGED(num(b, len, ROW->bound_ratio, DIG)))
F(cond, EXACT(num(b, len, ROW->cond, DIG)))
F(abssum, EXACT(num(b, len, ROW->abssum, DIG)))
F(unit_roundoff, num(b, len, sl_unit_roundoff(CTX->dt), 17))   /* of the input/output format */
/* ---- times and the twin check ----------------------------------------------------------- */
F(time_ms_median, TIMED(num(b, len, ROW->time_ms_median, 6)))
F(time_ms_min, TIMED(num(b, len, ROW->time_ms_min, 6)))
F(time_ms_max, TIMED(num(b, len, ROW->time_ms_max, 6)))
F(gbps, TIMED(num(b, len, ROW->gbps, 6)))
F(twin_checked, CFG(u64(b, len, (uint64_t)ROW->twin_checked)))
F(twin_match, ROW->have_cfg && ROW->twin_checked ? u64(b, len, (uint64_t)ROW->twin_match) : "")

F(instance, u64(b, len, (uint64_t)CTX->instance))
F(instances, u64(b, len, (uint64_t)(r->instances > 0 ? r->instances : 1)))

/* The note on one CSV line: commas become ';', line breaks and quotes spaces. */
static const char *f_note(const sl_record *r, size_t i, char *b, size_t len)
{
    (void)i;
    const char *s = r->note ? r->note : "";
    if (strlen(s) >= len) return NULL;
    size_t k = 0;
    for (; s[k]; k++)
        b[k] = s[k] == ',' ? ';' : (s[k] == '\n' || s[k] == '\r' || s[k] == '"') ? ' ' : s[k];
    b[k] = '\0';
    return b;
}

/* ---- the commands' columns: the exact value exactly, float64 ulps, bench and ranks -------- */
#define EXTRA(expr) (r->x ? (expr) : "")
#define RANKS(expr) (r->x && r->x->ranks > 0 ? (expr) : "")
F(ulps_f64, JUDGED(r->ref ? num(b, len, sl_reference_errors(r->ref, ROW->result, SL_F64).ulps, DIG) : ""))
F(exact_sum_hex, r->S ? r->S->hex : "")
F(exact_sum_dec, r->S ? r->S->dec : "")
F(exact_sum_bits, r->S ? u64(b, len, (uint64_t)r->S->bits) : "")
F(ratio_cub, EXTRA(num(b, len, r->x->ratio_cub, 4)))
F(ratio_read, EXTRA(num(b, len, r->x->ratio_read, 4)))
F(cub_ms_median, EXTRA(num(b, len, r->x->cub_ms_median, 6)))
F(read_ms_median, EXTRA(num(b, len, r->x->read_ms_median, 6)))
F(abs_err_max, EXTRA(num(b, len, r->x->abs_err_max, DIG)))
F(check, EXTRA(r->x->check ? r->x->check : ""))
F(bound_of, EXTRA(r->x->bound_of ? r->x->bound_of : ""))
F(value_as, EXTRA(r->x->value_as ? r->x->value_as : ""))
F(ranks, RANKS(u64(b, len, (uint64_t)r->x->ranks)))
F(combine, RANKS(r->x->combine ? r->x->combine : ""))
F(local_ms_max, RANKS(num(b, len, r->x->local_ms_max, 6)))
F(combine_ms, RANKS(num(b, len, r->x->combine_ms, 6)))
F(allreduce1_ms, RANKS(num(b, len, r->x->allreduce1_ms, 6)))
/* rows (kernels/rows) */
F(row, r->x && r->x->row >= 0 ? u64(b, len, (uint64_t)r->x->row) : "")
F(rows, r->x && r->x->rows > 0 ? u64(b, len, r->x->rows) : "")
F(rows_ulps_median, r->x && r->x->rows > 0 ? num(b, len, r->x->rows_ulps_median, 6) : "")
F(rows_ulps_max, r->x && r->x->rows > 0 ? num(b, len, r->x->rows_ulps_max, 6) : "")

void sl_record_extra_init(sl_record_extra *x)
{
    memset(x, 0, sizeof *x);
    x->ratio_cub = x->ratio_read = x->cub_ms_median = x->read_ms_median = x->abs_err_max = NAN;
    x->local_ms_max = x->combine_ms = x->allreduce1_ms = NAN;
    x->row = -1;                                           /* rows */
    x->rows_ulps_median = x->rows_ulps_max = NAN;
}

/* ---- distribution.csv: one row per distinct result --------------------------------------- */
F(value, sl_fmt_result(b, len, ROW->values[i].value, CTX->dt))
F(value_hex, sl_fmt_hex(b, len, ROW->values[i].value))
F(count, u64(b, len, ROW->values[i].count))
F(ulps_signed, num(b, len, ROW->values[i].ulps_signed, 17))

/* Every column: X(kind, name, unit, help); kind S string, N number, B boolean (JSON type). */
#define SL_COLUMN_LIST(X) \
    X(S, op, "", "the operation (sum, ...)") \
    X(S, experiment, "", "the study's experiment (sum, bench: the command)") \
    X(S, dataset, "", "the dataset generator ('-': a file)") \
    X(S, params, "", "its parameters, key=value;...") \
    X(S, dtype, "", "the input's format: f32, f64, f16, bf16") \
    X(N, n, "", "number of values") \
    X(S, variant, "", "how it is computed (sumlab list variants)") \
    X(S, config, "", "launch configuration or input order of the row") \
    X(S, sweep, "", "the swept quantity: n, cond, binades") \
    X(N, sweep_value, "", "its value") \
    X(S, family, "", "the variant's family") \
    X(S, det_class, "", "its documented determinism class") \
    X(S, backend, "", "gpu, cpu (the twin) or reference") \
    X(N, block, "threads", "threads per block") \
    X(N, grid, "blocks", "blocks") \
    X(N, sm_count, "", "SMs the configuration was resolved for") \
    X(N, items, "", "the variant's work per thread") \
    X(N, seed, "", "the dataset seed") \
    X(N, reps, "", "repetitions run") \
    X(S, status, "", "ok or skipped") \
    X(S, result, "", "the first repetition's result, round-trip decimal") \
    X(S, result_hex, "", "the same, every bit (C99 hex)") \
    X(S, exact, "", "the exact result rounded once to the format") \
    X(S, exact_hex, "", "the same, every bit") \
    X(N, distinct, "", "distinct bit patterns over the repetitions") \
    X(S, min_hex, "", "the smallest result") \
    X(S, max_hex, "", "the largest result") \
    X(N, spread_ulps, "ulps", "max - min in ulps of the exact result") \
    X(N, abs_err, "", "|result - S|, S the exact value") \
    X(N, rel_err, "", "|result - S| / |S|") \
    X(N, ulps, "ulps", "|result - S| in ulps of S rounded to the format") \
    X(N, ulps_median, "ulps", "the median over the repetitions") \
    X(N, ulps_max, "ulps", "the largest over the repetitions") \
    X(N, bound_abs, "", "the variant's a-priori absolute error bound on this input") \
    X(N, bound_rel, "", "bound_abs / |S|") \
    X(N, bound_ratio, "", "abs_err / bound_abs") \
    X(N, cond, "", "condition number: sum|x| / |sum x|") \
    X(N, abssum, "", "sum |x|") \
    X(N, unit_roundoff, "", "u of the format") \
    X(N, time_ms_median, "ms", "median time of a run (GPU: device events)") \
    X(N, time_ms_min, "ms", "fastest run") \
    X(N, time_ms_max, "ms", "slowest run") \
    X(N, gbps, "GB/s", "input bytes / median time") \
    X(B, twin_checked, "", "the GPU result was compared with the CPU twin") \
    X(B, twin_match, "", "every GPU result equals the twin bit for bit") \
    X(S, note, "", "why a row is as it is") \
    X(N, instance, "", "which of the point's instances (run --seeds)") \
    X(N, instances, "", "instances per point") \
    X(S, value, "", "a distinct result (distribution.csv)") \
    X(S, value_hex, "", "the same, every bit") \
    X(N, count, "", "repetitions that gave it") \
    X(N, ulps_signed, "ulps", "its signed distance from S") \
    X(N, ulps_f64, "ulps", "|result - S| in ulps of float64") \
    X(S, exact_sum_hex, "", "S itself, every bit (C99 hex)") \
    X(S, exact_sum_dec, "", "S as the shortest identifying decimal") \
    X(N, exact_sum_bits, "", "significant bits of S") \
    X(N, ratio_cub, "", "CUB's median time / the variant's (bench)") \
    X(N, ratio_read, "", "a streaming read's median time / the variant's (bench)") \
    X(N, cub_ms_median, "ms", "CUB's median time on the same buffer (bench)") \
    X(N, read_ms_median, "ms", "the streaming read's median time (bench)") \
    X(N, abs_err_max, "", "the largest |result - S| over every run (bench)") \
    X(S, check, "", "the self-check verdict: ok or FAILED") \
    X(S, bound_of, "", "judge: the variant whose a-priori bound the row carries") \
    X(S, value_as, "", "judge: how the value was read (exact hex, or the format's nearest of a decimal)") \
    X(N, ranks, "", "MPI ranks the input was split over") \
    X(S, combine, "", "how their partial results combined") \
    X(N, local_ms_max, "ms", "the slowest rank's local time") \
    X(N, combine_ms, "ms", "the combine's time") \
    X(N, allreduce1_ms, "ms", "an MPI_Allreduce of one double, for scale") \
    /* rows (kernels/rows) */ \
    X(N, row, "", "the reduced row's index (--axis)") \
    X(N, rows, "", "rows reduced (bench --axis)") \
    X(N, rows_ulps_median, "ulps", "the median over rows of a row's error (bench --axis)") \
    X(N, rows_ulps_max, "ulps", "the largest over rows of a row's error (bench --axis)")
#define SL_COL_KIND_S SL_COL_STR
#define SL_COL_KIND_N SL_COL_NUM
#define SL_COL_KIND_B SL_COL_BOOL
#define COL_ENTRY(k, name, unit, help) {#name, unit, SL_COL_KIND_##k, f_##name, help},
static const sl_column columns[] = {SL_COLUMN_LIST(COL_ENTRY)};
#define COL_INDEX(k, name, unit, help) col_##name,
enum { SL_COLUMN_LIST(COL_INDEX) col_count_ };

size_t sl_column_count(void) { return sizeof columns / sizeof columns[0]; }
const sl_column *sl_column_at(size_t i) { return i < sl_column_count() ? &columns[i] : NULL; }
const sl_column *sl_column_find(const char *name)
{
    for (size_t i = 0; name && i < sl_column_count(); i++)
        if (!strcmp(columns[i].name, name)) return &columns[i];
    return NULL;
}

int sl_colset_names(sl_colset *cs, const char *const *names, size_t n, sl_err *err)
{
    cs->n = 0;
    for (size_t i = 0; i < n; i++) {
        const sl_column *c = sl_column_find(names[i]);
        if (!c) return sl_err_set(err, "unknown column '%s'", names[i]);
        if (sl_colset_has(cs, names[i])) return sl_err_set(err, "column '%s' named twice", names[i]);
        if (cs->n >= SL_COLSET_MAX) return sl_err_set(err, "too many columns (at most %d)", SL_COLSET_MAX);
        cs->col[cs->n++] = c;
    }
    return 0;
}

int sl_colset_parse(sl_colset *cs, const char *list, sl_err *err)
{
    const char *names[SL_COLSET_MAX + 1];
    char buf[2048];
    size_t n = 0;
    if (!list || !*list) return sl_err_set(err, "empty column list");
    if (strlen(list) >= sizeof buf) return sl_err_set(err, "column list longer than %zu bytes", sizeof buf - 1);
    strcpy(buf, list);
    for (char *p = buf;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (!*p) return sl_err_set(err, "malformed column list '%s'", list);
        if (n > SL_COLSET_MAX) return sl_err_set(err, "too many columns (at most %d)", SL_COLSET_MAX);
        names[n++] = p;
        if (!comma) break;
        p = comma + 1;
    }
    return sl_colset_names(cs, names, n, err);
}

int sl_colset_has(const sl_colset *cs, const char *name)
{
    for (size_t i = 0; i < cs->n; i++)
        if (!strcmp(cs->col[i]->name, name)) return 1;
    return 0;
}

sl_table *sl_colset_table(const sl_colset *cs)
{
    const char *h[SL_COLSET_MAX];
    for (size_t i = 0; i < cs->n; i++) h[i] = cs->col[i]->name;
    return sl_table_new((int)cs->n, h);
}

int sl_colset_row(sl_table *t, const sl_colset *cs, const sl_record *r, size_t i, sl_err *err)
{
    char b[2048];
    if (sl_table_row(t)) return sl_err_set(err, "out of memory");
    for (size_t c = 0; c < cs->n; c++) {
        const sl_column *col = cs->col[c];
        const char *text = col->fmt(r, i, b, sizeof b);
        if (!text)
            return sl_err_set(err, "the %s field of %s is longer than %zu bytes", col->name, r->variant,
                              sizeof b - 1);
        int rc;
        if (!*text) rc = sl_table_null(t);
        else if (col->kind == SL_COL_BOOL) rc = sl_table_bool(t, strcmp(text, "0") != 0);
        else if (col->kind == SL_COL_NUM) rc = sl_table_numtext(t, text);
        else rc = sl_table_str(t, text);
        if (rc) return sl_err_set(err, "out of memory");
    }
    return 0;
}

/* results.csv and distribution.csv: names from the table, in their files' order */
#define RESULTS_COLS(X) X(experiment) X(dataset) X(params) X(dtype) X(n) X(variant) X(config) \
    X(sweep) X(sweep_value) X(family) X(det_class) X(backend) X(block) X(grid) X(sm_count) \
    X(items) X(seed) X(reps) X(status) X(result) X(result_hex) X(exact) X(exact_hex) X(distinct) \
    X(min_hex) X(max_hex) X(spread_ulps) X(abs_err) X(rel_err) X(ulps) X(ulps_median) X(ulps_max) \
    X(bound_abs) X(bound_rel) X(bound_ratio) X(cond) X(abssum) X(unit_roundoff) X(time_ms_median) \
    X(time_ms_min) X(time_ms_max) X(gbps) X(twin_checked) X(twin_match) X(note) X(instance) \
    X(instances) X(op) X(check)
#define DIST_COLS(X) X(experiment) X(dataset) X(params) X(dtype) X(n) X(variant) X(config) \
    X(backend) X(value) X(value_hex) X(count) X(ulps_signed) X(instance) X(op)
#define COL_PTR(name) &columns[col_##name],
static const sl_column *const results_cols[] = {RESULTS_COLS(COL_PTR)};
static const sl_column *const dist_cols[] = {DIST_COLS(COL_PTR)};
const sl_schema sl_results_schema = {"results.csv", results_cols, sizeof results_cols / sizeof results_cols[0]};
const sl_schema sl_dist_schema = {"distribution.csv", dist_cols, sizeof dist_cols / sizeof dist_cols[0]};

/* ---- the CSV writer ------------------------------------------------------------------------ */
int sl_schema_write_header(FILE *f, const sl_schema *s)
{
    for (size_t i = 0; i < s->ncols; i++) {
        fputs(s->cols[i]->name, f);
        fputc(i + 1 < s->ncols ? ',' : '\n', f);
    }
    return (fflush(f) != 0 || ferror(f)) ? -1 : 0;
}

int sl_schema_write_row(FILE *f, const sl_schema *s, const sl_record *r, size_t i, sl_err *err)
{
    char b[2048];
    for (size_t c = 0; c < s->ncols; c++) {
        const char *text = s->cols[c]->fmt(r, i, b, sizeof b);
        if (!text)
            return sl_err_set(err, "%s: the %s field of %s is longer than %zu bytes", s->file,
                              s->cols[c]->name, r->variant, sizeof b - 1);
        sl_csv_field(f, text);
        fputc(c + 1 < s->ncols ? ',' : '\n', f);
    }
    return 0;
}

int sl_schema_matches(const sl_schema *s, const sl_csv *t)
{
    if ((size_t)t->ncols != s->ncols) return 0;
    for (size_t i = 0; i < s->ncols; i++)
        if (strcmp(t->header[i], s->cols[i]->name)) return 0;
    return 1;
}

/* schema.c: the column tables of results.csv and distribution.csv: each column's name, unit
 * and formatter in one line, so a column is added in one place. The formatters only format
 * figures of the record (measure/ computed them); an absent figure is an empty field.
 * Decimal figures of the judgement carry 17 significant digits (they round-trip; times and
 * GB/s 6); bit patterns are C99 %a hex. */
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
F(spread_ulps, JUDGED(num(b, len, ROW->spread_ulps, 17)))
F(abs_err, JUDGED(num(b, len, ROW->err.abs_err, 17)))
F(rel_err, JUDGED(num(b, len, ROW->err.rel_err, 17)))
F(ulps, JUDGED(num(b, len, ROW->err.ulps, 17)))
F(ulps_median, JUDGED(num(b, len, ROW->ulps_median, 17)))
F(ulps_max, JUDGED(num(b, len, ROW->ulps_max, 17)))
F(bound_abs, JUDGED(num(b, len, ROW->bound, 17)))
F(bound_rel, JUDGED(num(b, len, ROW->bound_rel, 17)))
F(bound_ratio, JUDGED(num(b, len, ROW->bound_ratio, 17)))
F(cond, EXACT(num(b, len, ROW->cond, 17)))
F(abssum, EXACT(num(b, len, ROW->abssum, 17)))
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

/* ---- distribution.csv: one row per distinct result --------------------------------------- */
F(value, sl_fmt_result(b, len, ROW->values[i].value, CTX->dt))
F(value_hex, sl_fmt_hex(b, len, ROW->values[i].value))
F(count, u64(b, len, ROW->values[i].count))
F(ulps_signed, num(b, len, ROW->values[i].ulps_signed, 17))

#define C(name, unit) {#name, unit, f_##name}
static const sl_column results_cols[] = {
    C(experiment, ""), C(dataset, ""), C(params, ""), C(dtype, ""), C(n, ""), C(variant, ""),
    C(config, ""), C(sweep, ""), C(sweep_value, ""), C(family, ""), C(det_class, ""),
    C(backend, ""), C(block, "threads"), C(grid, "blocks"), C(sm_count, ""), C(items, ""),
    C(seed, ""), C(reps, ""), C(status, ""), C(result, ""), C(result_hex, ""), C(exact, ""),
    C(exact_hex, ""), C(distinct, ""), C(min_hex, ""), C(max_hex, ""), C(spread_ulps, "ulps"),
    C(abs_err, ""), C(rel_err, ""), C(ulps, "ulps"), C(ulps_median, "ulps"), C(ulps_max, "ulps"),
    C(bound_abs, ""), C(bound_rel, ""), C(bound_ratio, ""), C(cond, ""), C(abssum, ""),
    C(unit_roundoff, ""), C(time_ms_median, "ms"), C(time_ms_min, "ms"), C(time_ms_max, "ms"),
    C(gbps, "GB/s"), C(twin_checked, ""), C(twin_match, ""), C(note, ""), C(instance, ""),
    C(instances, ""), C(op, ""),
};
static const sl_column dist_cols[] = {
    C(experiment, ""), C(dataset, ""), C(params, ""), C(dtype, ""), C(n, ""), C(variant, ""),
    C(config, ""), C(backend, ""), C(value, ""), C(value_hex, ""), C(count, ""),
    C(ulps_signed, "ulps"), C(instance, ""), C(op, ""),
};
#undef C
const sl_schema sl_results_schema = {"results.csv", results_cols, sizeof results_cols / sizeof results_cols[0]};
const sl_schema sl_dist_schema = {"distribution.csv", dist_cols, sizeof dist_cols / sizeof dist_cols[0]};

/* ---- the CSV writer ------------------------------------------------------------------------ */
int sl_schema_write_header(FILE *f, const sl_schema *s)
{
    for (size_t i = 0; i < s->ncols; i++) {
        fputs(s->cols[i].name, f);
        fputc(i + 1 < s->ncols ? ',' : '\n', f);
    }
    return (fflush(f) != 0 || ferror(f)) ? -1 : 0;
}

int sl_schema_write_row(FILE *f, const sl_schema *s, const sl_record *r, size_t i, sl_err *err)
{
    char b[2048];
    for (size_t c = 0; c < s->ncols; c++) {
        const char *text = s->cols[c].fmt(r, i, b, sizeof b);
        if (!text)
            return sl_err_set(err, "%s: the %s field of %s is longer than %zu bytes", s->file,
                              s->cols[c].name, r->variant, sizeof b - 1);
        sl_csv_field(f, text);
        fputc(c + 1 < s->ncols ? ',' : '\n', f);
    }
    return 0;
}

int sl_schema_matches(const sl_schema *s, const sl_csv *t)
{
    if ((size_t)t->ncols != s->ncols) return 0;
    for (size_t i = 0; i < s->ncols; i++)
        if (strcmp(t->header[i], s->cols[i].name)) return 0;
    return 1;
}

/* table.c: what every section of report.md reads results.csv with: the column lookup, the
 * variant list (registry order first), the input formats, the Markdown number format, and data
 * escaped as Markdown text or as a table cell. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "table.h"
#include "sl_ops.h"

const char *const sl_report_dtypes[SL_REPORT_NDTYPES] = {"f32", "f64", "f16", "bf16"};

void sl_report_cols(const sl_csv *t, cols *c)
{
    c->exp = sl_csv_col(t, "experiment");
    c->ds = sl_csv_col(t, "dataset");
    c->params = sl_csv_col(t, "params");
    c->dtype = sl_csv_col(t, "dtype");
    c->n = sl_csv_col(t, "n");
    c->variant = sl_csv_col(t, "variant");
    c->config = sl_csv_col(t, "config");
    c->det_class = sl_csv_col(t, "det_class");
    c->status = sl_csv_col(t, "status");
    c->result_hex = sl_csv_col(t, "result_hex");
    c->exact_hex = sl_csv_col(t, "exact_hex");
    c->distinct = sl_csv_col(t, "distinct");
    c->spread = sl_csv_col(t, "spread_ulps");
    c->ulps = sl_csv_col(t, "ulps");
    c->bound_ratio = sl_csv_col(t, "bound_ratio");
    c->abs_err = sl_csv_col(t, "abs_err");
    c->abssum = sl_csv_col(t, "abssum");
    c->bound_abs = sl_csv_col(t, "bound_abs");
    c->gbps = sl_csv_col(t, "gbps");
    c->backend = sl_csv_col(t, "backend");
    c->reps = sl_csv_col(t, "reps");
    c->twin_checked = sl_csv_col(t, "twin_checked");
    c->twin_match = sl_csv_col(t, "twin_match");
    c->check = sl_csv_col(t, "check");     /* -1 in runs written before it: no verdicts to show */
    c->note = sl_csv_col(t, "note");
}

/* ---- variant names: registry order, then any other names in the table ------------------ */
size_t sl_report_variant_names(const sl_csv *t, const char **out, size_t max)
{
    cols c;
    sl_report_cols(t, &c);
    size_t k = 0;
    for (size_t i = 0; i < sl_variant_count() && k < max; i++) {
        const char *name = sl_variant_at(i)->name;
        size_t seen = 0;                 /* a name several operations use (exact): once */
        while (seen < k && strcmp(out[seen], name)) seen++;
        if (seen < k) continue;
        for (size_t r = 0; r < t->nrows; r++)
            if (IS(r, variant, name)) { out[k++] = name; break; }
    }
    for (size_t r = 0; r < t->nrows && k < max; r++) {
        const char *name = GET(r, variant);
        size_t j = 0;
        while (j < k && strcmp(out[j], name)) j++;
        if (j == k) out[k++] = name;
    }
    return k;
}

int sl_report_tp_reference(const char *name)
{
    return !strcmp(name, "read-ceiling") || sl_op_is_torch_call(name);
}

/* Where name stands in the comma-separated list: its index, or a large number when absent. */
static size_t list_pos(const char *list, const char *name)
{
    size_t k = 0, nl = strlen(name);
    for (const char *p = list; *p; k++) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == nl && !strncmp(p, name, l)) return k;
        if (!e) break;
        p = e + 1;
    }
    return (size_t)-1;
}

void sl_report_order_names(const char *list, const char **names, size_t n)
{
    if (!list || !*list || !strcmp(list, "all")) return;
    for (size_t i = 1; i < n; i++) {      /* insertion sort: stable, n <= 64 */
        const char *x = names[i];
        size_t px = list_pos(list, x), j = i;
        while (j > 0 && list_pos(list, names[j - 1]) > px) { names[j] = names[j - 1]; j--; }
        names[j] = x;
    }
}

int sl_report_fit(char *buf, size_t len, const char *fmt, ...)
{
    static const char mark[] = SL_REPORT_CUT;
    if (len < sizeof mark) return -1;
    va_list ap;
    va_start(ap, fmt);
    const int w = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (w >= 0 && (size_t)w < len) return 0;
    if (w < 0) { snprintf(buf, len, "(unprintable text)"); return -1; }
    /* keep buf[0..k): k on a character's first byte, never inside its continuation bytes */
    size_t k = len - sizeof mark;
    while (k && ((unsigned char)buf[k] & 0xc0) == 0x80) k--;
    memcpy(buf + k, mark, sizeof mark);
    return -1;
}

void sl_report_num(char *b, size_t len, double v)
{
    if (isnan(v)) snprintf(b, len, "-");
    else if (isinf(v)) snprintf(b, len, "inf");
    else if (v == 0) snprintf(b, len, "0");
    else if (fabs(v) >= 1e5 || fabs(v) < 1e-3) snprintf(b, len, "%.2e", v);
    else snprintf(b, len, "%.3g", v);
}

/* The exact sum S of row r is 0 (its rounded value is +-0: a non-zero exact sum of floats is
 * a multiple of the smallest subnormal, so it never rounds to 0). */
int sl_report_exact_zero(const sl_csv *t, const cols *cp, size_t r)
{
    const char *h = sl_csv_get(t, r, cp->exact_hex);
    if (*h == '-') h++;
    return !strcmp(h, "0x0p+0");
}

static size_t backtick_run(const char *s)
{
    size_t k = 0;
    while (s[k] == '`') k++;
    return k;
}

/* s[0..n) into f as it is, but a control character (C0, DEL: a line break would end the
 * paragraph or the table row) as a space and, in a table cell, '|' as "\|": GFM splits a row at
 * every other '|', code spans included, and drops the backslash of "\|" before reading the cell. */
static void md_put(FILE *f, const char *s, size_t n, int cell)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (cell && c == '|') fputc('\\', f);
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
}

/* sl_report_md_text (cell 0) and sl_report_md_cell (cell 1): one escaping, two places. */
static void md_escape(FILE *f, const char *s, int cell)
{
    /* what would start a block at the start of a line (a heading, quote, list, rule, fence,
     * table) is escaped there: the text stays one line of text, also as a list item (a table
     * cell holds no block: nothing to escape) */
    size_t i = 0;
    const size_t digits = cell ? 0 : strspn(s, "0123456789");
    if (digits && (s[digits] == '.' || s[digits] == ')')) {
        fwrite(s, 1, digits, f);
        fputc('\\', f);
        i = digits;
    } else if (!cell && s[0] && (strchr("#>+-*=_~|", s[0]) || !strncmp(s, "```", 3))) {
        fputc('\\', f);
        fputc(s[i++], f);
    }
    while (s[i]) {
        if (s[i] != '`') {
            if (strchr("<>[]&\\", s[i])) fputc('\\', f);
            md_put(f, s + i++, 1, cell);
            continue;
        }
        const size_t k = backtick_run(s + i);
        size_t j = i + k;                 /* the closer: the next run of exactly k backticks */
        for (;;) {
            while (s[j] && s[j] != '`') j++;
            const size_t m = s[j] ? backtick_run(s + j) : k;
            if (m == k) break;
            j += m;
        }
        const size_t end = s[j] ? j + k : i + k;   /* the span, closer included; else the run alone */
        md_put(f, s + i, end - i, cell);
        i = end;
    }
}

void sl_report_md_text(FILE *f, const char *s) { md_escape(f, s, 0); }
void sl_report_md_cell(FILE *f, const char *s) { md_escape(f, s, 1); }

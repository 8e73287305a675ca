/* table.h: shared by the files of report/ only (defined in table.c): the results.csv columns
 * the report reads, the accessors GET/NUM/IS (over `t` and `c` in scope), the sections' context
 * and small helpers. */
#ifndef SL_REPORT_TABLE_H
#define SL_REPORT_TABLE_H
#include <stdio.h>
#include "sl_report.h"

typedef struct {
    int exp, ds, dtype, n, variant, config, det_class, status, result_hex, exact_hex, distinct,
        spread, ulps, bound_ratio, gbps, backend, reps, twin_checked, twin_match, note, params,
        abs_err, abssum, bound_abs, check;
} cols;

/* table.c: the columns, the input formats, the variant list and the number format. */
void sl_report_cols(const sl_csv *t, cols *c);
#define SL_REPORT_NDTYPES 4
extern const char *const sl_report_dtypes[SL_REPORT_NDTYPES];   /* "f32", "f64", "f16", "bf16" */

#define GET(r, col) sl_csv_get(t, (r), c.col)
#define NUM(r, col) sl_csv_num(t, (r), c.col)
#define IS(r, col, s) (!strcmp(GET(r, col), (s)))

/* Variant names of the table: registry order, then any other names in the table. */
/* room for the distinct variant names a checked results.csv can hold: the registry's (50 names
 * over its 105 variants today), its operations' PyTorch calls and read-ceiling, with margin for
 * the registry to grow (it was 64, which 60 names nearly filled) */
#define SL_REPORT_MAX_VARIANTS 256
size_t sl_report_variant_names(const sl_csv *t, const char **out, size_t max);
/* 1 for a row name of throughput-vs-n's references, no variant of sumlab's: the read ceiling and
 * the operations' PyTorch calls (their GB/s are in the throughput tables, not the headline's). */
int sl_report_tp_reference(const char *name);
/* Reorders names[0..n) into the order of `list` (run.conf's `--variants`, comma-separated);
 * names not in it keep their order after those that are. "" or "all": unchanged. */
void sl_report_order_names(const char *list, const char **names, size_t n);
/* printf into buf[len]: a text that does not fit is cut on a UTF-8 character boundary and ends
 * in SL_REPORT_CUT, never silently (len at least sizeof SL_REPORT_CUT). 0, or -1 when cut. A
 * buffer sized for its longest content (a checked file's fields) is never cut: this only makes
 * a cut explicit where a caller passes what no check has read. */
#define SL_REPORT_CUT "[...]"
int sl_report_fit(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A figure for a Markdown cell: "-" for NaN, "inf", 0, %.2e or %.3g. */
void sl_report_num(char *b, size_t len, double v);
/* s, text read as data (a note), into Markdown as text: < > [ ] & and the backslash escaped
 * outside code spans, so it makes no link, image, autolink, raw HTML or character reference
 * (*emphasis* stays), nor a block (a leading # > + - * = _ ~ | ``` or "1." is escaped); a code
 * span (a run of backticks closed by a run of the same length, as CommonMark reads it) is kept
 * as it is, since Markdown reads nothing inside one as markup. A control character (C0, DEL) is
 * a space: the text stays on its line. */
void sl_report_md_text(FILE *f, const char *s);
/* s, text read as data (a note in a verdict's detail, a name from a file no check has read),
 * into a GFM table cell: as sl_report_md_text, and '|' as "\|" everywhere (in a code span too,
 * where GFM drops the backslash), no leading escape (a cell holds no block); one line, so the
 * row keeps its cells. The caller writes the cell's own "| ". */
void sl_report_md_cell(FILE *f, const char *s);
/* The exact sum S of row r is 0. */
int sl_report_exact_zero(const sl_csv *t, const cols *cp, size_t r);

/* What the sections of report.md read: the table, its columns and the run's settings. */
typedef struct {
    const char *dir;
    const sl_csv *t;
    int truncated;             /* results.csv's last line had no newline: left out (said in the header) */
    cols c;
    char exp[64], preset[16], backend[16], seed[32], started[40], variants[SL_CONF_LIST];
    sl_meta meta;
    int on_gpu;
    const char *names[SL_REPORT_MAX_VARIANTS];   /* variants, registry order first */
    size_t nv;
    sl_det_verdict verd[SL_REPORT_MAX_VARIANTS];
    size_t nverd;
    double *buf, *buf2;        /* t->nrows + 1 doubles each */
} sl_report_ctx;

#endif

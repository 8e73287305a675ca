/* sl_format.h: output formatting shared by the writers and the `sumlab` commands: values (hex
 * bits, round-trip decimal), CSV/JSON escaping, and a small table model written as an aligned
 * table, CSV or JSON. Formats only: every figure comes computed. */
#ifndef SL_FORMAT_H
#define SL_FORMAT_H
#include <stdint.h>
#include <stdio.h>
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- values ---------------------------------------------------------------------------- */
#define SL_FMT_LEN 64   /* enough for any string these helpers produce */

/* C99 %a of v (a float32 result as the double holding it); "inf", "-inf", "nan". */
const char *sl_fmt_hex(char *buf, size_t len, double v);
/* Round-trippable decimal of a value of format dt: %.9g (f32) / %.17g (f64); inf/-inf/nan. */
const char *sl_fmt_result(char *buf, size_t len, double v, sl_dtype dt);
/* %.*g with inf/-inf/nan spelled so (prec <= 0: 17). */
const char *sl_fmt_double(char *buf, size_t len, double v, int prec);
/* Raw bit pattern "0x%016llx" of the double holding the value. */
const char *sl_fmt_bits(char *buf, size_t len, double v);

/* ---- CSV and JSON primitives (for writers that stream one row at a time) ------------------ */
void sl_csv_field(FILE *f, const char *s);          /* quoted only when it must be */
void sl_json_string(FILE *f, const char *s);        /* "..." with RFC 8259 escapes */
void sl_json_double(FILE *f, double v, int prec);   /* null for NaN/Inf (valid JSON) */
/* The length of the well-formed UTF-8 sequence at p (1-4), or 0 when the bytes there are no
 * UTF-8 (a stray continuation byte, an overlong form, a surrogate, > U+10FFFF, cut short by
 * a NUL or any other byte that is no continuation). */
int sl_utf8_len(const unsigned char *p);

/* ---- tables: one data model, three writers ------------------------------------------------ */
typedef enum { SL_OUT_TABLE = 0, SL_OUT_CSV, SL_OUT_JSON } sl_out_format;
int sl_out_format_parse(const char *s, sl_out_format *out);  /* table|csv|json; -1 otherwise */
const char *sl_out_format_name(sl_out_format f);

typedef struct sl_table sl_table;
sl_table *sl_table_new(int ncols, const char *const *headers); /* NULL on allocation failure */
void sl_table_free(sl_table *t);
/* Starts a new row; the cell appenders below fill it left to right (missing cells: null). */
int sl_table_row(sl_table *t);
int sl_table_str(sl_table *t, const char *s);       /* JSON string */
int sl_table_num(sl_table *t, double v, int prec);  /* JSON number, null when not finite */
int sl_table_u64(sl_table *t, uint64_t v);
int sl_table_numtext(sl_table *t, const char *text); /* a number already written as text */
int sl_table_i64(sl_table *t, int64_t v);
int sl_table_bool(sl_table *t, int v);              /* 1 true, 0 false, <0 null ("-" / empty) */
int sl_table_null(sl_table *t);                     /* "-" in tables, empty in CSV, null in JSON */
/* Table: aligned columns under a header and a rule. CSV: header row, then rows. JSON: an
 * array of objects keyed by the headers, one object per line. Returns 0, or -1 on a
 * write error. */
int sl_table_write(const sl_table *t, sl_out_format fmt, FILE *f);
/* errno of the first failed flush of a table writer (0: none), for the caller's message. */
extern int sl_out_errno;
/* CSV header line only / CSV rows only (for writers that stream rows as they finish). */
int sl_table_write_csv_header(const sl_table *t, FILE *f);
int sl_table_write_csv_rows(const sl_table *t, FILE *f);
void sl_table_clear_rows(sl_table *t);              /* keeps the columns */
/* A table too long to hold, written in parts (tables of the same columns, each cleared and
 * refilled): the output is sl_table_write's for all their rows in one table. Table and JSON
 * formats measure every part first (column widths; JSON's UTF-8 check, which prints its message
 * and returns -1 before anything is written), then write the same parts in the same order:
 * init, measure each part (CSV: none), begin (the header), write each part, end; free. */
typedef struct {
    sl_out_format fmt;
    size_t *w, ncols;          /* the widths so far */
    size_t measured, written;  /* rows so far */
} sl_table_parts;
void sl_table_parts_init(sl_table_parts *p, sl_out_format fmt);
int sl_table_parts_measure(sl_table_parts *p, const sl_table *t);
int sl_table_parts_begin(sl_table_parts *p, const sl_table *t, FILE *f);
int sl_table_parts_write(sl_table_parts *p, const sl_table *t, FILE *f);
int sl_table_parts_end(sl_table_parts *p, FILE *f);
void sl_table_parts_free(sl_table_parts *p);

#ifdef __cplusplus
}
#endif
#endif

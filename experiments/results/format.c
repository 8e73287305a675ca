/* format.c: output formatting (sl_format.h): values (hex, round-trip decimal), CSV and JSON
 * primitives, and the table model with its three writers. Non-finite numbers are spelled
 * inf/-inf/nan in text and null in JSON. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_format.h"

int sl_out_errno;

/* fflush + ferror; the reason of the first failed flush is kept in sl_out_errno. */
static int flush_checked(FILE *f)
{
    errno = 0;
    if (fflush(f) != 0 && !sl_out_errno) sl_out_errno = errno ? errno : EIO;
    return ferror(f) ? -1 : 0;
}

/* ---- values ---------------------------------------------------------------------------- */
static const char *special(double v)
{
    if (isnan(v)) return "nan";
    if (isinf(v)) return v > 0 ? "inf" : "-inf";
    return NULL;
}

const char *sl_fmt_hex(char *buf, size_t len, double v)
{
    const char *sp = special(v);
    if (sp) snprintf(buf, len, "%s", sp);
    else snprintf(buf, len, "%a", v);
    return buf;
}

const char *sl_fmt_result(char *buf, size_t len, double v, sl_dtype dt)
{
    /* the digits that identify any value of the format: 9, 17, 5 (float16), 4 (bfloat16) */
    return sl_fmt_double(buf, len, v, dt == SL_F32 ? 9 : dt == SL_F16 ? 5 : dt == SL_BF16 ? 4 : 17);
}

const char *sl_fmt_double(char *buf, size_t len, double v, int prec)
{
    const char *sp = special(v);
    if (sp) snprintf(buf, len, "%s", sp);
    else snprintf(buf, len, "%.*g", prec > 0 ? prec : 17, v);
    return buf;
}

const char *sl_fmt_bits(char *buf, size_t len, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    snprintf(buf, len, "0x%016llx", (unsigned long long)u);
    return buf;
}

/* ---- CSV and JSON primitives ------------------------------------------------------------ */
/* 1 when s is a number as the tables print them (decimal, hex float, raw bits, inf/nan), so
 * that a leading '-' or '+' is its sign and not a spreadsheet formula. */
static int csv_numeric(const char *s)
{
    if (!*s || *s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') return 0;
    char *end;
    errno = 0;
    (void)strtod(s, &end);
    return end != s && !*end;
}

/* A text cell of a CSV that a spreadsheet may open: a field starting with = + - @ TAB or CR
 * that is no number gets a leading ' (OWASP's rule against formula injection). */
static void csv_text_field(FILE *f, const char *s)
{
    if (s && strchr("=+-@\t\r", s[0]) && s[0] && !csv_numeric(s)) {
        size_t n = strlen(s);
        char *q = malloc(n + 2);
        if (q) {
            q[0] = '\'';
            memcpy(q + 1, s, n + 1);
            sl_csv_field(f, q);
            free(q);
            return;
        }
        fputs("\"'", f);   /* (out of memory: the same bytes, quoted) */
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
        return;
    }
    sl_csv_field(f, s);
}

void sl_csv_field(FILE *f, const char *s)
{
    if (!s) s = "";
    if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[0] != '#') {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int sl_utf8_len(const unsigned char *p)
{
    const unsigned c = p[0];
    int k;
    unsigned cp, min;
    if (c < 0x80) return 1;
    if ((c & 0xe0) == 0xc0) { k = 1; cp = c & 0x1f; min = 0x80; }
    else if ((c & 0xf0) == 0xe0) { k = 2; cp = c & 0x0f; min = 0x800; }
    else if ((c & 0xf8) == 0xf0) { k = 3; cp = c & 0x07; min = 0x10000; }
    else return 0;
    for (int i = 1; i <= k; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;   /* (also stops at the terminating NUL) */
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return k + 1;
}

/* The offset of the first byte of s that is no well-formed UTF-8, or -1 when there is none. */
static long utf8_bad(const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    for (const unsigned char *q = p; *q;) {
        int k = sl_utf8_len(q);
        if (!k) return (long)(q - p);
        q += k;
    }
    return -1;
}

/* A JSON string: the escapes JSON needs; a byte that is no UTF-8 becomes U+FFFD (the table
 * writer refuses such text before it gets here, so that no value is changed silently). */
void sl_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        const int k = sl_utf8_len(p);
        if (k == 0) { fputs("\\ufffd", f); continue; }
        if (k > 1) { fwrite(p, 1, (size_t)k, f); p += k - 1; continue; }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

void sl_json_double(FILE *f, double v, int prec)
{
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    char b[SL_FMT_LEN];
    fputs(sl_fmt_double(b, sizeof b, v, prec), f);
}

/* ---- tables ---------------------------------------------------------------------------- */
typedef enum { CELL_NULL = 0, CELL_STR, CELL_NUM, CELL_BOOL } cell_kind;
typedef struct {
    cell_kind kind;
    int bval;
    char *text;            /* display text (CELL_STR: the string; CELL_NUM: the number) */
} cell;

struct sl_table {
    int ncols;
    char **headers;
    cell *cells;           /* rows * ncols */
    size_t rows, cap;
    int col;               /* next column of the current row */
};

int sl_out_format_parse(const char *s, sl_out_format *out)
{
    if (!s) return -1;
    if (!strcmp(s, "table")) *out = SL_OUT_TABLE;
    else if (!strcmp(s, "csv")) *out = SL_OUT_CSV;
    else if (!strcmp(s, "json")) *out = SL_OUT_JSON;
    else return -1;
    return 0;
}

const char *sl_out_format_name(sl_out_format f)
{
    return f == SL_OUT_CSV ? "csv" : f == SL_OUT_JSON ? "json" : "table";
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s ? s : "", n);
    return d;
}

sl_table *sl_table_new(int ncols, const char *const *headers)
{
    sl_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ncols = ncols;
    t->headers = calloc((size_t)ncols, sizeof *t->headers);
    if (!t->headers) { free(t); return NULL; }
    for (int i = 0; i < ncols; i++)
        if (!(t->headers[i] = dupstr(headers[i]))) { sl_table_free(t); return NULL; }
    t->col = ncols;
    return t;
}

void sl_table_free(sl_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->rows * (size_t)t->ncols; i++) free(t->cells[i].text);
    free(t->cells);
    if (t->headers)
        for (int i = 0; i < t->ncols; i++) free(t->headers[i]);
    free(t->headers);
    free(t);
}

int sl_table_row(sl_table *t)
{
    if (t->rows == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 16;
        cell *c = realloc(t->cells, nc * (size_t)t->ncols * sizeof *c);
        if (!c) return -1;
        t->cells = c;
        t->cap = nc;
    }
    memset(&t->cells[t->rows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof(cell));
    t->rows++;
    t->col = 0;
    return 0;
}

static cell *next_cell(sl_table *t)
{
    if (t->rows == 0 || t->col >= t->ncols) return NULL;
    return &t->cells[(t->rows - 1) * (size_t)t->ncols + (size_t)t->col++];
}

int sl_table_str(sl_table *t, const char *s)
{
    cell *c = next_cell(t);
    if (!c) return -1;
    c->kind = CELL_STR;
    return (c->text = dupstr(s)) ? 0 : -1;
}

int sl_table_num(sl_table *t, double v, int prec)
{
    cell *c = next_cell(t);
    if (!c) return -1;
    char b[SL_FMT_LEN];
    c->kind = CELL_NUM;
    return (c->text = dupstr(sl_fmt_double(b, sizeof b, v, prec))) ? 0 : -1;
}

int sl_table_numtext(sl_table *t, const char *text)
{
    cell *c = next_cell(t);
    if (!c) return -1;
    c->kind = CELL_NUM;
    return (c->text = dupstr(text)) ? 0 : -1;
}

int sl_table_u64(sl_table *t, uint64_t v)
{
    cell *c = next_cell(t);
    if (!c) return -1;
    char b[SL_FMT_LEN];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    c->kind = CELL_NUM;
    return (c->text = dupstr(b)) ? 0 : -1;
}

int sl_table_i64(sl_table *t, int64_t v)
{
    cell *c = next_cell(t);
    if (!c) return -1;
    char b[SL_FMT_LEN];
    snprintf(b, sizeof b, "%lld", (long long)v);
    c->kind = CELL_NUM;
    return (c->text = dupstr(b)) ? 0 : -1;
}

int sl_table_bool(sl_table *t, int v)
{
    if (v < 0) return sl_table_null(t);
    cell *c = next_cell(t);
    if (!c) return -1;
    c->kind = CELL_BOOL;
    c->bval = v != 0;
    return 0;
}

int sl_table_null(sl_table *t)
{
    cell *c = next_cell(t);
    if (!c) return -1;
    c->kind = CELL_NULL;
    return 0;
}

/* The table format's text for a terminal: a control character (C0, DEL, or C1 as UTF-8) is shown
 * as \xNN / \u00NN instead of sent (a name read from a file could otherwise move the cursor,
 * recolour or retitle the terminal). ctrl_at: the bytes of the control character at p, or 0. */
static int ctrl_at(const unsigned char *p)
{
    if (p[0] < 0x20 || p[0] == 0x7f) return 1;
    return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}
static size_t shown_len(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const int c = ctrl_at(p);
        n += c == 1 ? 4 : c == 2 ? 6 : 1;
        p += c ? c : 1;
    }
    return n;
}
/* s shown, padded with spaces to width w (right-aligned when right) */
static void put_shown(FILE *f, const char *s, size_t w, int right)
{
    const size_t l = shown_len(s);
    for (size_t k = l; right && k < w; k++) fputc(' ', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const int c = ctrl_at(p);
        if (c == 1) fprintf(f, "\\x%02x", p[0]);
        else if (c == 2) fprintf(f, "\\u%04x", p[1]);
        else fputc(*p, f);
        p += c ? c : 1;
    }
    for (size_t k = l; !right && k < w; k++) fputc(' ', f);
}

static const char *cell_text(const cell *c, sl_out_format fmt)
{
    switch (c->kind) {
    case CELL_STR:
    case CELL_NUM: return c->text;
    case CELL_BOOL:
        if (fmt == SL_OUT_JSON) return c->bval ? "true" : "false";
        if (fmt == SL_OUT_CSV) return c->bval ? "1" : "0";
        return c->bval ? "yes" : "no";
    case CELL_NULL: break;
    }
    return fmt == SL_OUT_TABLE ? "-" : fmt == SL_OUT_JSON ? "null" : "";
}

int sl_table_write_csv_header(const sl_table *t, FILE *f)
{
    for (int j = 0; j < t->ncols; j++) {
        if (j) fputc(',', f);
        sl_csv_field(f, t->headers[j]);
    }
    fputc('\n', f);
    return flush_checked(f);
}

int sl_table_write_csv_rows(const sl_table *t, FILE *f)
{
    size_t nc = (size_t)t->ncols;
    for (size_t i = 0; i < t->rows; i++) {
        for (size_t j = 0; j < nc; j++) {
            if (j) fputc(',', f);
            const cell *c = &t->cells[i * nc + j];
            if (c->kind == CELL_STR) csv_text_field(f, c->text);
            else sl_csv_field(f, cell_text(c, SL_OUT_CSV));
        }
        fputc('\n', f);
    }
    return flush_checked(f);
}

void sl_table_clear_rows(sl_table *t)
{
    for (size_t i = 0; i < t->rows * (size_t)t->ncols; i++) free(t->cells[i].text);
    t->rows = 0;
    t->col = t->ncols;
}

void sl_table_parts_init(sl_table_parts *p, sl_out_format fmt)
{
    memset(p, 0, sizeof *p);
    p->fmt = fmt;
}

void sl_table_parts_free(sl_table_parts *p)
{
    free(p->w);
    p->w = NULL;
}

int sl_table_parts_measure(sl_table_parts *p, const sl_table *t)
{
    const size_t nc = (size_t)t->ncols;
    if (!p->w) {
        if (!(p->w = calloc(nc ? nc : 1, sizeof *p->w))) return -1;
        p->ncols = nc;
        for (size_t j = 0; j < nc; j++) p->w[j] = strlen(t->headers[j]);
        /* JSON is UTF-8: a name that is not (e.g. the bytes ff fe read from a file) is refused,
         * with the row and field, before anything is written */
        if (p->fmt == SL_OUT_JSON)
            for (size_t j = 0; j < nc; j++)
                if (utf8_bad(t->headers[j]) >= 0) {
                    fprintf(stderr, "sumlab: JSON output refused: column name %zu is not valid UTF-8\n", j + 1);
                    return -1;
                }
    }
    for (size_t i = 0; i < t->rows; i++)
        for (size_t j = 0; j < nc; j++) {
            const cell *c = &t->cells[i * nc + j];
            if (p->fmt == SL_OUT_JSON) {
                long at = c->kind == CELL_STR ? utf8_bad(c->text) : -1;
                if (at < 0) continue;
                fprintf(stderr, "sumlab: JSON output refused: row %zu, field '%s': not valid UTF-8 (byte 0x%02x at "
                                "offset %ld); use --format csv or table for this input\n",
                        p->measured + i + 1, t->headers[j], (unsigned char)c->text[at], at);
                return -1;
            }
            const char *text = cell_text(c, p->fmt);
            size_t l = p->fmt == SL_OUT_TABLE ? shown_len(text) : strlen(text);
            if (l > p->w[j]) p->w[j] = l;
        }
    p->measured += t->rows;
    return 0;
}

int sl_table_parts_begin(sl_table_parts *p, const sl_table *t, FILE *f)
{
    const size_t nc = (size_t)t->ncols;
    if (!p->w && sl_table_parts_measure(p, t)) return -1;   /* no rows measured: the headers */
    if (p->fmt == SL_OUT_CSV) return sl_table_write_csv_header(t, f);
    if (p->fmt == SL_OUT_JSON) {
        fputs("[", f);
        return flush_checked(f);
    }
    size_t total = 0;
    for (size_t j = 0; j < nc; j++) {
        fprintf(f, "%s%-*s", j ? "  " : "", j + 1 < nc ? (int)p->w[j] : 0, t->headers[j]);
        total += p->w[j] + (j ? 2 : 0);
    }
    fputc('\n', f);
    for (size_t k = 0; k < total; k++) fputc('-', f);
    fputc('\n', f);
    return flush_checked(f);
}

int sl_table_parts_write(sl_table_parts *p, const sl_table *t, FILE *f)
{
    const size_t nc = (size_t)t->ncols;
    if (p->fmt == SL_OUT_CSV) {
        p->written += t->rows;
        return sl_table_write_csv_rows(t, f);
    }
    for (size_t i = 0; i < t->rows; i++) {
        if (p->fmt == SL_OUT_JSON) {
            fputs(p->written + i ? ",\n {" : "\n {", f);
            for (size_t j = 0; j < nc; j++) {
                const cell *c = &t->cells[i * nc + j];
                if (j) fputs(", ", f);
                sl_json_string(f, t->headers[j]);
                fputs(": ", f);
                if (c->kind == CELL_STR) sl_json_string(f, c->text);
                else if (c->kind == CELL_NUM)
                    fputs(strcmp(c->text, "nan") && strcmp(c->text, "inf") &&
                          strcmp(c->text, "-inf") ? c->text : "null", f);
                else fputs(cell_text(c, p->fmt), f);
            }
            fputs("}", f);
            continue;
        }
        for (size_t j = 0; j < nc; j++) {
            const cell *c = &t->cells[i * nc + j];
            const char *s = cell_text(c, p->fmt);
            int num = c->kind == CELL_NUM;
            if (j) fputs("  ", f);
            put_shown(f, s, j + 1 == nc && !num ? 0 : p->w[j], num);
        }
        fputc('\n', f);
    }
    p->written += t->rows;
    return flush_checked(f);
}

int sl_table_parts_end(sl_table_parts *p, FILE *f)
{
    if (p->fmt == SL_OUT_JSON) fputs(p->written ? "\n]\n" : "]\n", f);
    return flush_checked(f);
}

int sl_table_write(const sl_table *t, sl_out_format fmt, FILE *f)
{
    sl_table_parts p;
    sl_table_parts_init(&p, fmt);
    int rc = (fmt != SL_OUT_CSV && sl_table_parts_measure(&p, t)) || sl_table_parts_begin(&p, t, f) ||
             sl_table_parts_write(&p, t, f) || sl_table_parts_end(&p, f) ? -1 : 0;
    sl_table_parts_free(&p);
    return rc;
}

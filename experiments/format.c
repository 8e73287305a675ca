/* format.c: output and option-parsing helpers shared by the `sumlab` commands (sl_format.h).
 * Non-finite numbers are spelled inf/-inf/nan in text and null in JSON. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "sl_format.h"

int sl_cli_argc;
char **sl_cli_argv;

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
    return sl_fmt_double(buf, len, v, dt == SL_F32 ? 9 : 17);
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

void sl_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
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
    fflush(f);
    return ferror(f) ? -1 : 0;
}

int sl_table_write_csv_rows(const sl_table *t, FILE *f)
{
    size_t nc = (size_t)t->ncols;
    for (size_t i = 0; i < t->rows; i++) {
        for (size_t j = 0; j < nc; j++) {
            if (j) fputc(',', f);
            sl_csv_field(f, cell_text(&t->cells[i * nc + j], SL_OUT_CSV));
        }
        fputc('\n', f);
    }
    fflush(f);
    return ferror(f) ? -1 : 0;
}

void sl_table_clear_rows(sl_table *t)
{
    for (size_t i = 0; i < t->rows * (size_t)t->ncols; i++) free(t->cells[i].text);
    t->rows = 0;
    t->col = t->ncols;
}

int sl_table_write(const sl_table *t, sl_out_format fmt, FILE *f)
{
    size_t nc = (size_t)t->ncols;
    if (fmt == SL_OUT_CSV) {
        if (sl_table_write_csv_header(t, f)) return -1;
        return sl_table_write_csv_rows(t, f);
    } else if (fmt == SL_OUT_JSON) {
        fputs("[", f);
        for (size_t i = 0; i < t->rows; i++) {
            fputs(i ? ",\n {" : "\n {", f);
            for (size_t j = 0; j < nc; j++) {
                const cell *c = &t->cells[i * nc + j];
                if (j) fputs(", ", f);
                sl_json_string(f, t->headers[j]);
                fputs(": ", f);
                if (c->kind == CELL_STR) sl_json_string(f, c->text);
                else if (c->kind == CELL_NUM)
                    fputs(strcmp(c->text, "nan") && strcmp(c->text, "inf") &&
                          strcmp(c->text, "-inf") ? c->text : "null", f);
                else fputs(cell_text(c, fmt), f);
            }
            fputs("}", f);
        }
        fputs(t->rows ? "\n]\n" : "]\n", f);
    } else {
        size_t *w = calloc(nc ? nc : 1, sizeof *w);
        if (!w) return -1;
        for (size_t j = 0; j < nc; j++) w[j] = strlen(t->headers[j]);
        for (size_t i = 0; i < t->rows; i++)
            for (size_t j = 0; j < nc; j++) {
                size_t l = strlen(cell_text(&t->cells[i * nc + j], fmt));
                if (l > w[j]) w[j] = l;
            }
        size_t total = 0;
        for (size_t j = 0; j < nc; j++) {
            fprintf(f, "%s%-*s", j ? "  " : "", j + 1 < nc ? (int)w[j] : 0, t->headers[j]);
            total += w[j] + (j ? 2 : 0);
        }
        fputc('\n', f);
        for (size_t k = 0; k < total; k++) fputc('-', f);
        fputc('\n', f);
        for (size_t i = 0; i < t->rows; i++) {
            for (size_t j = 0; j < nc; j++) {
                const cell *c = &t->cells[i * nc + j];
                const char *s = cell_text(c, fmt);
                int num = c->kind == CELL_NUM;
                if (j + 1 == nc && !num) fprintf(f, "%s%s", j ? "  " : "", s);
                else fprintf(f, num ? "%s%*s" : "%s%-*s", j ? "  " : "", (int)w[j], s);
            }
            fputc('\n', f);
        }
        free(w);
    }
    fflush(f);
    return ferror(f) ? -1 : 0;
}

/* ---- parsers ---------------------------------------------------------------------------- */
static int perr(sl_err *err, const char *fmt, const char *s)
{
    if (err) snprintf(err->msg, sizeof err->msg, fmt, s);
    return -1;
}

static int mul_ok(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_mul_overflow(a, b, r); }

/* number := 0x HEX | DIGITS [. DIGITS] [e DIGITS]  (exact integers only) */
static int parse_number(const char **pp, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        if (!isxdigit((unsigned char)*p)) return -1;
        for (; isxdigit((unsigned char)*p); p++) {
            int d = isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10);
            if (v >> 60) return -2;
            v = v * 16 + (uint64_t)d;
        }
        *pp = p;
        *out = v;
        return 0;
    }
    if (!isdigit((unsigned char)*p)) return -1;
    /* v: the significant digits without their trailing zeros, which are counted in `zeros`
     * (so 1.000000000000000000000 and 0e2000 are read exactly, not as overflows) */
    long zeros = 0, frac = 0;
    int overflow = 0, in_frac = 0;
    for (;;) {
        if (*p == '.' && !in_frac) {
            in_frac = 1;
            p++;
            if (!isdigit((unsigned char)*p)) return -1;
            continue;
        }
        if (!isdigit((unsigned char)*p)) break;
        int d = *p++ - '0';
        if (in_frac) frac++;
        if (d == 0) {
            zeros++;
            continue;
        }
        for (long z = 0; z <= zeros && !overflow; z++)
            if (!mul_ok(v, 10, &v)) overflow = 1;
        if (!overflow && __builtin_add_overflow(v, (uint64_t)d, &v)) overflow = 1;
        zeros = 0;
    }
    long e = 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+') p++;
        if (!isdigit((unsigned char)*p)) return -1;
        for (; isdigit((unsigned char)*p); p++)
            if (e < 1000000) e = e * 10 + (*p - '0');
    }
    if (!overflow && v == 0) {    /* zero, whatever the exponent */
        *pp = p;
        *out = 0;
        return 0;
    }
    long shift = zeros + e - frac; /* value = v * 10^shift, v ending in a nonzero digit */
    if (shift < 0) return -3;      /* not an integer */
    if (overflow) return -2;
    for (; shift > 0; shift--)
        if (!mul_ok(v, 10, &v)) return -2;
    *pp = p;
    *out = v;
    return 0;
}

int sl_parse_u64(const char *s, uint64_t *out, sl_err *err)
{
    if (!s || !*s) return perr(err, "empty number%s", "");
    if (*s == '-') return perr(err, "'%s' is negative (a count must be >= 0)", s);
    const char *p = s;
    uint64_t acc = 1;
    for (;;) {
        uint64_t base, ex;
        int rc = parse_number(&p, &base);
        if (rc == -2) return perr(err, "number '%s' is too large", s);
        if (rc == -3) return perr(err, "'%s' is not a whole number", s);
        if (rc) return perr(err, "malformed number '%s' (use e.g. 1000000, 1e6 or 2^20)", s);
        if (*p == '^') {
            p++;
            rc = parse_number(&p, &ex);
            if (rc == -2 || (rc == 0 && ex > 64)) return perr(err, "number '%s' is too large", s);
            if (rc) return perr(err, "malformed number '%s' (use e.g. 1000000, 1e6 or 2^20)", s);
            uint64_t r = 1;
            for (uint64_t i = 0; i < ex; i++)
                if (!mul_ok(r, base, &r)) return perr(err, "number '%s' is too large", s);
            base = r;
        }
        if (!mul_ok(acc, base, &acc)) return perr(err, "number '%s' is too large", s);
        if (*p == '*') { p++; continue; }
        break;
    }
    if (*p) return perr(err, "malformed number '%s' (use e.g. 1000000, 1e6 or 2^20)", s);
    *out = acc;
    return 0;
}

int sl_parse_u64_list(const char *s, uint64_t *out, size_t max, size_t *count, sl_err *err)
{
    *count = 0;
    if (!s || !*s) return perr(err, "empty list%s", "");
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char item[128];
        if (len == 0 || len >= sizeof item) return perr(err, "malformed list '%s'", s);
        memcpy(item, p, len);
        item[len] = '\0';
        if (*count >= max) {
            if (err) snprintf(err->msg, sizeof err->msg, "too many values in '%s' (at most %zu)", s, max);
            return -1;
        }
        if (sl_parse_u64(item, &out[*count], err)) return -1;
        (*count)++;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

int sl_parse_int(const char *s, long min, long max, long *out, sl_err *err)
{
    if (!s || !*s) return perr(err, "empty number%s", "");
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return perr(err, "malformed integer '%s'", s);
    for (; isdigit((unsigned char)*p); p++) {}
    if (*p) return perr(err, "malformed integer '%s'", s);
    char *end;
    long long v = strtoll(s, &end, 10);
    if (v < min || v > max || (long long)(long)v != v) {
        if (err) snprintf(err->msg, sizeof err->msg, "'%s' is out of range [%ld, %ld]", s, min, max);
        return -1;
    }
    *out = (long)v;
    return 0;
}

int sl_cli_launch_opt(const char *cmd, const char *opt, const char *s, uint32_t *out)
{
    uint64_t lo = 1, hi = 0x7fffffffu, v;
    sl_err err = {{0}};
    if (!strcmp(opt, "--block")) lo = 32, hi = 1024;
    else if (!strcmp(opt, "--items")) hi = 1u << 20;
    if (sl_parse_u64(s, &v, &err)) {
        sl_cli_msg(cmd, "%s: %s", opt, err.msg);
        return -1;
    }
    if (v < lo || v > hi) {
        sl_cli_msg(cmd, "%s %s is out of range [%llu, %llu]", opt, s, (unsigned long long)lo,
                   (unsigned long long)hi);
        return -1;
    }
    if (!strcmp(opt, "--block") && (v & (v - 1))) {
        sl_cli_msg(cmd, "--block %s is not a power of two", s);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

void sl_cli_msg(const char *cmd, const char *fmt, ...)
{
    /* One line whatever the message quotes (a file name, an option value, bytes of a file):
     * control characters are written as \n, \r, \t or \xNN; UTF-8 passes unchanged. The
     * message is cut at 4 KiB and written with one call. */
    char msg[4096], line[4096 * 4 + 64];
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(msg, sizeof msg, fmt, ap) < 0) snprintf(msg, sizeof msg, "(unprintable message)");
    va_end(ap);
    int k = cmd && *cmd ? snprintf(line, sizeof line, "sumlab %s: ", cmd)
                        : snprintf(line, sizeof line, "sumlab: ");
    size_t o = k > 0 && (size_t)k < sizeof line ? (size_t)k : 0;
    static const char hex[] = "0123456789abcdef";
    for (const unsigned char *p = (const unsigned char *)msg; *p && o + 5 < sizeof line; p++) {
        if (*p >= 0x20 && *p != 0x7f) { line[o++] = (char)*p; continue; }
        line[o++] = '\\';
        if (*p == '\n') line[o++] = 'n';
        else if (*p == '\r') line[o++] = 'r';
        else if (*p == '\t') line[o++] = 't';
        else line[o++] = 'x', line[o++] = hex[*p >> 4], line[o++] = hex[*p & 15];
    }
    line[o++] = '\n';
    fflush(stdout);
    fwrite(line, 1, o, stderr);
}

int sl_cli_bad_option(const char *cmd, int c, char *const *argv, int optind_, int optopt_)
{
    char opt[128];
    if (optopt_ > 0 && optopt_ < 128 && optopt_ != '?' &&
        !(optind_ > 0 && argv[optind_ - 1] && !strncmp(argv[optind_ - 1], "--", 2)))
        snprintf(opt, sizeof opt, "-%c", optopt_);
    else if (optind_ > 0 && argv[optind_ - 1])
        snprintf(opt, sizeof opt, "%s", argv[optind_ - 1]);
    else
        snprintf(opt, sizeof opt, "?");
    opt[strcspn(opt, "=")] = '\0';
    if (c == ':') sl_cli_msg(cmd, "option '%s' needs a value (see 'sumlab %s --help')", opt, cmd);
    else sl_cli_msg(cmd, "unknown option '%s' (see 'sumlab %s --help')", opt, cmd);
    return 2;
}

/* ---- order statistics ------------------------------------------------------------------- */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sl_median(double *v, size_t n)
{
    if (!v || n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void sl_stats(const double *v, size_t n, double *med, double *mn, double *mx)
{
    *med = *mn = *mx = NAN;
    if (!v || n == 0) return;
    double *c = malloc(n * sizeof *c);
    if (!c) return;
    memcpy(c, v, n * sizeof *c);
    *med = sl_median(c, n);
    *mn = c[0];
    *mx = c[n - 1];
    free(c);
}

/* npy.c: the .npy reader (versions 1.0/2.0/3.0, any shape, '<f4' '>f4' '<f8' '>f8' '<f2' '>f2', '<V2' (bfloat16), C or
 * Fortran order): its header is read as NumPy's reader does (Python literal syntax). */
#define _POSIX_C_SOURCE 200809L
#include "sl_io_impl.h"
#include <stdlib.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_HEADER_MAX (1u << 20) /* longer headers are refused (numpy writes < 200 bytes) */
#define PY_MAX_DEPTH 100          /* nested parentheses / unary signs (CPython stops at 200) */
#define PY_STR_MAX 64             /* longer strings are kept truncated (never a key or descr) */

/* ---- a Python literal parser, for the subset a .npy header can hold ------------------------
 * NumPy reads the header with ast.literal_eval and then requires a dict with exactly the keys
 * 'descr' (a str), 'fortran_order' (a bool) and 'shape' (a tuple of ints). So the parser knows
 * str (both quotes, triple quotes, u/r prefixes, escapes, implicit concatenation), bytes (to
 * refuse them), int (decimal, 0x/0o/0b, underscores, unary +/-, Python 2's 3L in versions
 * 1.0/2.0 as NumPy's fallback filter allows), True/False, tuples and grouping parentheses,
 * comments, and the tokenizer's whitespace and line joining. Anything else (lists, floats,
 * None, names, ...) can never make a valid header: parsing stops there with an error. */
typedef enum { PV_STR, PV_BYTES, PV_INT, PV_BOOL, PV_TUPLE, PV_OTHER } pv_type;

typedef struct {
    pv_type type;
    char str[PY_STR_MAX];     /* PV_STR/PV_BYTES: NUL-terminated; non-ASCII code points as 0x80 */
    size_t slen;              /* full decoded length (str holds at most PY_STR_MAX - 1) */
    uint64_t mag;             /* PV_INT: |value|, or PV_BOOL: 0/1 */
    int neg, big;             /* PV_INT: negative; beyond 2^64 - 1 */
    /* PV_TUPLE: its items when all are ints (ints == 1) */
    int nitems, ints, anyneg, anybig;
    uint64_t items[SL_ARRAY_MAX_DIMS];
} pyval;

typedef struct {
    const char *s, *end;
    int allow_long; /* Python 2 longs (3L): versions 1.0 and 2.0 */
    int too_deep;
} cursor;

static int is_name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || (unsigned char)ch >= 0x80;
}

/* Whitespace between tokens inside brackets: blanks, newlines, comments, backslash-newline. */
static void skip_ws(cursor *c)
{
    while (c->s < c->end) {
        char ch = *c->s;
        if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\n' || ch == '\r') {
            c->s++;
        } else if (ch == '#') {
            while (c->s < c->end && *c->s != '\n' && *c->s != '\r') c->s++;
        } else if (ch == '\\' && c->s + 1 < c->end && (c->s[1] == '\n' || c->s[1] == '\r')) {
            c->s += 2;
            if (c->s[-1] == '\r' && c->s < c->end && *c->s == '\n') c->s++;
        } else {
            break;
        }
    }
}

static int eat(cursor *c, char ch)
{
    skip_ws(c);
    if (c->s < c->end && *c->s == ch) {
        c->s++;
        return 1;
    }
    return 0;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static void str_put(pyval *v, unsigned long cp)
{
    if (v->slen + 1 < PY_STR_MAX) v->str[v->slen] = cp < 0x80 ? (char)cp : (char)0x80;
    v->slen++;
}

/* Length of a string prefix at s (u, r, b, br, rb in any case) followed by a quote; 0 if none.
 * *raw / *bytes tell which. */
static size_t str_prefix(const cursor *c, int *raw, int *bytes)
{
    *raw = *bytes = 0;
    size_t k = 0;
    while (k < 2 && c->s + k < c->end && strchr("uUrRbB", c->s[k]) && c->s[k]) k++;
    if (c->s + k >= c->end || (c->s[k] != '\'' && c->s[k] != '"')) return k == 0 ? 0 : (size_t)-1;
    int u = 0;
    for (size_t i = 0; i < k; i++) {
        char ch = (char)(c->s[i] | 0x20);
        if (ch == 'u') u++;
        if (ch == 'r') (*raw)++;
        if (ch == 'b') (*bytes)++;
    }
    if (u > 1 || *raw > 1 || *bytes > 1 || (u && k > 1)) return (size_t)-1; /* uu, ur, bu... */
    return k;
}

/* One string literal (after its prefix) appended to v. 0 on success, -1 on a syntax error. */
static int parse_one_str(cursor *c, pyval *v, int raw, int bytes)
{
    char q = *c->s;
    int triple = c->end - c->s >= 3 && c->s[1] == q && c->s[2] == q;
    c->s += triple ? 3 : 1;
    for (;;) {
        if (c->s >= c->end) return -1;
        char ch = *c->s;
        if (ch == q && (!triple || (c->end - c->s >= 3 && c->s[1] == q && c->s[2] == q))) {
            c->s += triple ? 3 : 1;
            return 0;
        }
        /* A raw newline ends a one-quote string in Python (a syntax error); it is kept here so
         * that the message can quote the key or dtype: such a string is never valid anyway. */
        if (ch != '\\') {
            str_put(v, (unsigned char)ch);
            c->s++;
            continue;
        }
        if (c->s + 1 >= c->end) return -1;
        char e = c->s[1];
        if (raw) { /* \ quotes the next character but stays */
            str_put(v, '\\');
            str_put(v, (unsigned char)e);
            c->s += 2;
            continue;
        }
        c->s += 2;
        switch (e) {
        case '\n': break;
        case '\r': if (c->s < c->end && *c->s == '\n') c->s++; break;
        case '\\': case '\'': case '"': str_put(v, (unsigned char)e); break;
        case 'a': str_put(v, 7); break;
        case 'b': str_put(v, 8); break;
        case 'f': str_put(v, 12); break;
        case 'n': str_put(v, 10); break;
        case 'r': str_put(v, 13); break;
        case 't': str_put(v, 9); break;
        case 'v': str_put(v, 11); break;
        case 'x': case 'u': case 'U': {
            int nd = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            if (e != 'x' && bytes) { /* bytes keep \u literally */
                str_put(v, '\\');
                str_put(v, (unsigned char)e);
                break;
            }
            unsigned long cp = 0;
            for (int i = 0; i < nd; i++) {
                int h = c->s < c->end ? hexval(*c->s) : -1;
                if (h < 0) return -1;
                cp = cp * 16 + (unsigned long)h;
                c->s++;
            }
            if (cp > 0x10FFFF) return -1;
            str_put(v, cp);
            break;
        }
        case 'N':
            return -1; /* \N{name}: not supported (NumPy never writes it) */
        default:
            if (e >= '0' && e <= '7') {
                unsigned long cp = (unsigned long)(e - '0');
                for (int i = 0; i < 2 && c->s < c->end && *c->s >= '0' && *c->s <= '7'; i++)
                    cp = cp * 8 + (unsigned long)(*c->s++ - '0');
                str_put(v, cp);
            } else { /* an unknown escape stays as it is */
                str_put(v, '\\');
                str_put(v, (unsigned char)e);
            }
        }
    }
}

/* Python's integer literal at c->s (digits first). 0, or -1 on a syntax error. */
static int parse_int(cursor *c, pyval *v)
{
    const char *s = c->s;
    unsigned base = 10;
    v->type = PV_INT;
    v->mag = 0;
    v->big = v->neg = 0;
    if (*s == '0' && s + 1 < c->end && strchr("xXoObB", s[1]) && s[1]) {
        base = (s[1] | 0x20) == 'x' ? 16 : (s[1] | 0x20) == 'o' ? 8 : 2;
        s += 2;
        int ndig = 0;
        for (;;) {
            if (s < c->end && *s == '_') s++; /* one underscore before each digit */
            int d = s < c->end ? hexval(*s) : -1;
            if (d < 0 || (unsigned)d >= base) {
                if (ndig == 0 || s[-1] == '_') return -1;
                break;
            }
            if (v->mag > (UINT64_MAX - (unsigned)d) / base) v->big = 1;
            v->mag = v->mag * base + (unsigned)d;
            ndig++;
            s++;
        }
    } else {
        int zero = *s == '0';
        for (;;) {
            unsigned d = (unsigned)(*s - '0');
            if (zero && d != 0) return -1; /* "010": octal 8 to Python 2, an error to Python 3 */
            if (v->mag > (UINT64_MAX - d) / 10) v->big = 1;
            v->mag = v->mag * 10 + d;
            s++;
            if (s < c->end && *s == '_' && s + 1 < c->end && s[1] >= '0' && s[1] <= '9') s++;
            if (s >= c->end || *s < '0' || *s > '9') break;
        }
    }
    if (s < c->end && (*s == '.' || *s == 'e' || *s == 'E' || *s == 'j' || *s == 'J') && base == 10) {
        v->type = PV_OTHER; /* a float or complex: never valid in a .npy header */
        c->s = s;
        return -1;
    }
    if (s < c->end && *s == 'L' && c->allow_long) s++; /* NumPy's filter for Python 2 headers */
    if (s < c->end && is_name_char(*s)) return -1;      /* "3x", "0x1g" */
    c->s = s;
    return 0;
}

/* One value. 0 on success; -1 on a syntax error or a value no header may hold (c->s stays at
 * the offending text for the message). */
static int parse_value(cursor *c, pyval *v, int depth)
{
    skip_ws(c);
    memset(v, 0, offsetof(pyval, items));
    v->type = PV_OTHER;
    if (depth > PY_MAX_DEPTH) {
        c->too_deep = 1;
        return -1;
    }
    if (c->s >= c->end) return -1;
    char ch = *c->s;
    int raw, bytes;
    size_t pl = str_prefix(c, &raw, &bytes);
    if (ch == '\'' || ch == '"' || (pl != 0 && pl != (size_t)-1)) {
        int first = 1, was_bytes = bytes;
        for (;;) { /* 'a' "b" is "ab"; str and bytes do not mix */
            if (!first) {
                const char *save = c->s;
                skip_ws(c);
                pl = c->s < c->end ? str_prefix(c, &raw, &bytes) : (size_t)-1;
                if (pl == (size_t)-1 || c->s + pl >= c->end || (c->s[pl] != '\'' && c->s[pl] != '"')) {
                    c->s = save;
                    break;
                }
                if (bytes != was_bytes) return -1;
            }
            c->s += pl;
            if (parse_one_str(c, v, raw, bytes)) return -1;
            first = 0;
        }
        v->str[v->slen < PY_STR_MAX ? v->slen : PY_STR_MAX - 1] = '\0';
        v->type = was_bytes ? PV_BYTES : PV_STR;
        return 0;
    }
    if (ch >= '0' && ch <= '9') return parse_int(c, v);
    if (ch == '-' || ch == '+') {
        const char *at = c->s++;
        pyval inner;
        if (parse_value(c, &inner, depth + 1)) return -1;
        if (inner.type != PV_INT) { /* -'a', -(1,); also -True, valid Python but absurd here */
            c->s = at;
            return -1;
        }
        *v = inner;
        if (ch == '-' && v->mag) v->neg = !v->neg;
        return 0;
    }
    if (ch == '(') {
        const char *at = c->s++;
        if (eat(c, ')')) {
            v->type = PV_TUPLE;
            v->ints = 1;
            return 0;
        }
        pyval item;
        if (parse_value(c, &item, depth + 1)) return -1;
        if (eat(c, ')')) { /* grouping: (x) is x */
            memcpy(v, &item, sizeof item);
            return 0;
        }
        v->type = PV_TUPLE;
        v->ints = 1;
        for (;;) {
            if (item.type != PV_INT) {
                c->s = at; /* a tuple of something else: never a valid header value */
                v->type = PV_OTHER;
                return -1;
            }
            if (v->nitems < SL_ARRAY_MAX_DIMS) v->items[v->nitems] = item.mag;
            v->nitems++;
            v->anyneg |= item.neg;
            v->anybig |= item.big;
            if (!eat(c, ',')) {
                if (!eat(c, ')')) return -1;
                return 0;
            }
            if (eat(c, ')')) return 0; /* trailing comma */
            if (parse_value(c, &item, depth + 1)) return -1;
        }
    }
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_') {
        const char *w = c->s;
        while (w < c->end && is_name_char(*w)) w++;
        size_t l = (size_t)(w - c->s);
        if ((l == 4 && !memcmp(c->s, "True", 4)) || (l == 5 && !memcmp(c->s, "False", 5))) {
            v->type = PV_BOOL;
            v->mag = l == 4;
            c->s = w;
            return 0;
        }
    }
    return -1; /* lists, sets, dicts, None, names, ...: nothing a header may hold */
}

/* UTF-8 validity (a version 3.0 header is decoded as UTF-8 before parsing). */
static int utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned ch = s[i];
        size_t k;
        uint32_t cp, min;
        if (ch < 0x80) {
            i++;
            continue;
        } else if ((ch & 0xE0) == 0xC0) {
            k = 1, cp = ch & 0x1Fu, min = 0x80;
        } else if ((ch & 0xF0) == 0xE0) {
            k = 2, cp = ch & 0x0Fu, min = 0x800;
        } else if ((ch & 0xF8) == 0xF0) {
            k = 3, cp = ch & 0x07u, min = 0x10000;
        } else {
            return 0;
        }
        if (n - i <= k) return 0;
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return 0;
            cp = cp << 6 | (s[i + j] & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += k + 1;
    }
    return 1;
}

typedef struct {
    sl_dtype dt;
    int big_endian, fortran_order, ndim;
    uint64_t shape[SL_ARRAY_MAX_DIMS];
} npy_desc;

/* Parses the header dict as NumPy's reader does; on success fills d. */
static int parse_npy_header(const char *path, const char *h, size_t hl, int major, npy_desc *d,
                            sl_err *err)
{
    cursor c = {h, h + hl, major <= 2, 0};
    int have_descr = 0, have_fo = 0, have_shape = 0;
    char show[160];
    pyval key, val, descr;
    memset(d, 0, sizeof *d);
    if (major == 3 && !utf8_valid((const unsigned char *)h, hl)) {
        return sl_err_set(err, "%s: .npy 3.0 header is not valid UTF-8", path);
    }
    /* literal_eval strips leading blanks; blank and comment lines may come first; the line of
     * the dict itself must not be indented (an IndentationError to Python) */
    while (c.s < c.end && (*c.s == ' ' || *c.s == '\t')) c.s++;
    for (;;) {
        int col = 0;
        while (c.s < c.end && (*c.s == ' ' || *c.s == '\t' || *c.s == '\f')) col = *c.s++ == '\f' ? 0 : col + 1;
        if (c.s < c.end && *c.s == '#')
            while (c.s < c.end && *c.s != '\n' && *c.s != '\r') c.s++;
        if (c.s < c.end && (*c.s == '\n' || *c.s == '\r')) {
            c.s++;
            continue;
        }
        if (col > 0 && c.s < c.end) {
            return sl_err_set(err, "%s: .npy header is indented (NumPy cannot parse it)", path);
        }
        break;
    }
    int parens = 0; /* ({...}) is the dict too */
    while (c.s < c.end && *c.s == '(') {
        c.s++;
        skip_ws(&c);
        if (++parens > PY_MAX_DEPTH) {
            return sl_err_set(err, "%s: .npy header is nested too deeply", path);
        }
    }
    if (c.s >= c.end || *c.s != '{') {
        return sl_err_set(err, "%s: .npy header is not a dict", path);
    }
    c.s++;
    for (;;) {
        if (eat(&c, '}')) break;
        const char *at = c.s;
        if (parse_value(&c, &key, 0) || key.type != PV_STR || !eat(&c, ':')) {
            if (c.too_deep) return sl_err_set(err, "%s: .npy header is nested too deeply", path);
            if (key.type != PV_STR && key.type != PV_OTHER) c.s = at;
            return sl_err_set(err, "%s: malformed .npy header near \"%s\"", path,
                              sl_printable(show, sizeof show, c.s, c.end, 30));
        }
        int which = key.slen < PY_STR_MAX ? (!strcmp(key.str, "descr") ? 1 : !strcmp(key.str, "fortran_order") ? 2
                                                 : !strcmp(key.str, "shape") ? 3 : 0) : 0;
        if (!which) {
            return sl_err_set(err, "%s: unexpected key '%s%s' in .npy header", path,
                              sl_printable(show, sizeof show, key.str, key.str + strlen(key.str), 40),
                              key.slen >= 40 ? "..." : "");
        }
        /* numpy would keep the last of two values; two values for a key mean a damaged file */
        if ((which == 1 && have_descr) || (which == 2 && have_fo) || (which == 3 && have_shape)) {
            return sl_err_set(err, "%s: key '%s' appears twice in the .npy header", path, key.str);
        }
        if (parse_value(&c, &val, 0)) {
            if (c.too_deep) return sl_err_set(err, "%s: .npy header is nested too deeply", path);
            return sl_err_set(err, "%s: malformed .npy header in the value of '%s' near \"%s\"", path,
                              key.str, sl_printable(show, sizeof show, c.s, c.end, 30));
        }
        if (which == 1) {
            if (val.type != PV_STR) {
                return sl_err_set(err, "%s: .npy 'descr' is not a simple dtype string", path);
            }
            descr = val;
            have_descr = 1;
        } else if (which == 2) {
            if (val.type != PV_BOOL) {
                return sl_err_set(err, "%s: .npy 'fortran_order' is not True or False", path);
            }
            d->fortran_order = (int)val.mag;
            have_fo = 1;
        } else {
            if (val.type != PV_TUPLE) {
                return sl_err_set(err, "%s: .npy 'shape' is not a tuple of integers", path);
            }
            if (val.anybig) {
                return sl_err_set(err, "%s: .npy 'shape' has a dimension beyond 2^64 - 1", path);
            }
            if (val.anyneg) {
                return sl_err_set(err, "%s: .npy 'shape' has a negative dimension", path);
            }
            if (val.nitems > SL_ARRAY_MAX_DIMS) {
                return sl_err_set(err, "%s: .npy 'shape' has %d dimensions; at most %d are supported", path,
                                  val.nitems, SL_ARRAY_MAX_DIMS);
            }
            d->ndim = val.nitems;
            memcpy(d->shape, val.items, sizeof(uint64_t) * (size_t)val.nitems);
            have_shape = 1;
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}')) {
                return sl_err_set(err, "%s: malformed .npy header near \"%s\"", path,
                                  sl_printable(show, sizeof show, c.s, c.end, 30));
            }
            break;
        }
    }
    for (; parens > 0; parens--)
        if (!eat(&c, ')')) {
            skip_ws(&c);
            if (c.s < c.end && *c.s == ',') return sl_err_set(err, "%s: .npy header is not a dict", path);
            return sl_err_set(err, "%s: malformed .npy header near \"%s\"", path,
                              sl_printable(show, sizeof show, c.s, c.end, 30));
        }
    /* after the dict: blanks, newlines and comments only (no dangling backslash) */
    while (c.s < c.end) {
        if (*c.s == ' ' || *c.s == '\t' || *c.s == '\f' || *c.s == '\n' || *c.s == '\r') c.s++;
        else if (*c.s == '#')
            while (c.s < c.end && *c.s != '\n' && *c.s != '\r') c.s++;
        else break;
    }
    if (c.s != c.end) {
        return sl_err_set(err, "%s: unexpected text after the .npy header dict: \"%s\"", path,
                          sl_printable(show, sizeof show, c.s, c.end, 30));
    }
    if (!have_descr || !have_fo || !have_shape) {
        return sl_err_set(err, "%s: .npy header lacks '%s'", path,
                          !have_descr ? "descr" : !have_fo ? "fortran_order" : "shape");
    }
    /* the spellings NumPy writes for float32/float64/float16 (dtype.str), and '<V2', what np.save
     * writes for ml_dtypes.bfloat16; NumPy reads others ('=f4', '|f8', 'float32', 'd') but never
     * writes them: refused as not from NumPy */
    static const struct { const char *s; sl_dtype dt; int be; } ok[] = {
        {"<f4", SL_F32, 0}, {">f4", SL_F32, 1}, {"<f8", SL_F64, 0}, {">f8", SL_F64, 1},
        {"<f2", SL_F16, 0}, {">f2", SL_F16, 1}, {"<V2", SL_BF16, 0}};
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++)
        if (descr.slen == 3 && !strcmp(descr.str, ok[k].s)) {
            d->dt = ok[k].dt;
            d->big_endian = ok[k].be;
            return 0;
        }
    return sl_err_set(err, "%s: unsupported dtype '%s%s' (only float32/float64/float16 as NumPy "
                      "writes them and bfloat16 as np.save writes ml_dtypes.bfloat16: '<f4', '>f4', "
                      "'<f8', '>f8', '<f2', '>f2', '<V2')", path,
                      sl_printable(show, sizeof show, descr.str, descr.str + strlen(descr.str), 40),
                      descr.slen >= 40 ? "..." : "");
}

/* Reads n elements from s into a new buffer and checks the stream's end. */
static int read_values(sl_src *s, uint64_t n, sl_dtype dt, int swap, void **data, sl_err *err)
{
    const size_t sz = sl_dtype_size(dt);
    if (n > SIZE_MAX / sz) {
        return sl_err_set(err, "%s: %llu elements do not fit in memory", s->label, (unsigned long long)n);
    }
    unsigned char *buf = malloc(n ? (size_t)n * sz : 1);
    if (!buf) {
        return sl_err_set(err, "%s: out of memory for %llu elements", s->label, (unsigned long long)n);
    }
    uint64_t left = n * sz, done = 0;
    while (left > 0) {
        size_t chunk = left > sl_src_chunk() ? sl_src_chunk() : (size_t)left, got;
        if (sl_src_read(s, buf + done, chunk, &got, err)) {
            free(buf);
            return -1;
        }
        done += got;
        left -= got;
        if (got != chunk) {
            sl_err_set(err, "%s: %s is truncated: expected %llu bytes of data, found %llu", s->label, s->kind,
                       (unsigned long long)(n * sz), (unsigned long long)done);
            free(buf);
            return -1;
        }
    }
    if (sl_src_finish(s, err)) {
        free(buf);
        return -1;
    }
    if (swap) sl_swap_elems(buf, (size_t)n, sz);
    *data = buf;
    return 0;
}

/* Exactly len bytes, or a "truncated" error naming `what`. */
static int read_exact(sl_src *s, void *buf, size_t len, const char *what, sl_err *err)
{
    size_t got;
    if (sl_src_read(s, buf, len, &got, err)) return -1;
    if (got != len) return sl_err_set(err, "%s: truncated .npy header (%s)", s->label, what);
    return 0;
}

/* Reads magic, version and header of the .npy image in s and checks the data's size against it:
 * fills *d, the version, the data's byte offset and the number of values. The caller frees
 * nothing; on failure err is set. */
static int npy_header(sl_src *s, npy_desc *dp, unsigned *majorp, unsigned *minorp, uint64_t *offp,
                      uint64_t *countp, sl_err *err)
{
    const char *path = s->label;
    unsigned char pre[12];
    size_t got;
    if (sl_src_read(s, pre, 8, &got, err)) return -1;
    if (got < NPY_MAGIC_LEN || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
        return sl_err_set(err, "%s: not a .npy file (bad magic)", path);
    }
    if (got < 8) return sl_err_set(err, "%s: truncated .npy header (no version)", path);
    unsigned major = pre[6], minor = pre[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0) {
        return sl_err_set(err, "%s: unsupported .npy version %u.%u (1.0, 2.0 and 3.0 are)", path, major, minor);
    }
    size_t lenbytes = major == 1 ? 2 : 4;
    if (read_exact(s, pre + 8, lenbytes, "no header length", err)) return -1;
    uint64_t hl = major == 1 ? (uint64_t)pre[8] | (uint64_t)pre[9] << 8
                             : (uint64_t)pre[8] | (uint64_t)pre[9] << 8 | (uint64_t)pre[10] << 16 |
                                   (uint64_t)pre[11] << 24;
    if (hl > NPY_HEADER_MAX) {
        return sl_err_set(err, "%s: .npy header length %llu is implausibly large", path, (unsigned long long)hl);
    }
    if (8 + lenbytes + hl > s->size) {
        return sl_err_set(err, "%s: truncated .npy header (%llu bytes announced, %s has %llu)", path,
                          (unsigned long long)hl, s->kind, (unsigned long long)s->size);
    }
    char *hdr = malloc((size_t)hl + 1);
    if (!hdr) return sl_err_set(err, "%s: out of memory", path);
    npy_desc d;
    int rc = -1;
    if (read_exact(s, hdr, (size_t)hl, "header text", err)) goto out;
    hdr[hl] = '\0';
    if (memchr(hdr, '\0', (size_t)hl)) {
        sl_err_set(err, "%s: .npy header contains a NUL byte", path);
        goto out;
    }
    if (parse_npy_header(path, hdr, (size_t)hl, (int)major, &d, err)) goto out;
    /* the number of values: 1 for shape (), 0 when a dimension is 0 */
    uint64_t count = 1;
    int zero = 0, over = 0;
    for (int k = 0; k < d.ndim; k++) {
        if (d.shape[k] == 0) zero = 1;
        else if (count > UINT64_MAX / d.shape[k]) over = 1;
        else count *= d.shape[k];
    }
    if (zero) count = 0;
    else if (over) {
        sl_err_set(err, "%s: .npy 'shape' has more than 2^64 - 1 elements", path);
        goto out;
    }
    uint64_t off = 8 + lenbytes + hl, avail = s->size - off, sz = sl_dtype_size(d.dt);
    if (count > avail / sz) {
        sl_err_set(err, "%s: %s is shorter than its header says: %llu elements announced, %llu bytes of "
                   "data present%s", path, s->kind, (unsigned long long)count, (unsigned long long)avail,
                   s->z ? " (or the archive's sizes are wrong)" : "");
        goto out;
    }
    if (avail != count * sz) {
        sl_err_set(err, "%s: trailing garbage: %llu bytes after the %llu elements of data%s", path,
                   (unsigned long long)(avail - count * sz), (unsigned long long)count,
                   s->z ? " (or the archive's sizes are wrong)" : "");
        goto out;
    }
    *dp = d;
    *majorp = major;
    *minorp = minor;
    *offp = off;
    *countp = count;
    rc = 0;
out:
    free(hdr);
    return rc;
}

int sl_npy_layout_src(sl_src *s, sl_array_layout *lay, sl_err *err)
{
    npy_desc d;
    unsigned major, minor;
    uint64_t off, count;
    if (npy_header(s, &d, &major, &minor, &off, &count, err)) return -1;
    lay->format = SL_ARRAY_NPY;
    lay->offset = off;
    lay->n = count;
    lay->dt = d.dt;
    lay->swap = d.big_endian == sl_host_is_le();
    return 0;
}

int sl_npy_read_src(sl_src *s, void **data, uint64_t *n, sl_dtype *dt, sl_array_info *info,
                    sl_err *err)
{
    npy_desc d;
    unsigned major, minor;
    uint64_t off, count;
    *data = NULL;
    if (npy_header(s, &d, &major, &minor, &off, &count, err)) return -1;
    (void)off;
    *dt = d.dt;
    int swap = d.big_endian == sl_host_is_le();
    if (read_values(s, count, d.dt, swap, data, err)) return -1;
    *n = count;
    if (info) {
        info->format = SL_ARRAY_NPY;
        info->npy_major = (int)major;
        info->npy_minor = (int)minor;
        info->ndim = d.ndim;
        memcpy(info->shape, d.shape, sizeof(uint64_t) * (size_t)d.ndim);
        info->n = count;
        info->fortran_order = d.fortran_order;
        info->big_endian = d.big_endian;
        info->byte_swapped = swap;
    }
    return 0;
}

/* ---- the shape path: rows along one axis (sl_datasets.h) ----------------------------------- */
const char *sl_shape_text(const uint64_t *shape, int ndim, char *buf, size_t len)
{
    size_t used = 0;
    if (!len) return buf;
    buf[0] = '\0';
    int w = snprintf(buf, len, "(");
    if (w > 0) used = (size_t)w;
    for (int k = 0; k < ndim && used < len; k++) {
        w = snprintf(buf + used, len - used, "%s%llu", k ? ", " : "", (unsigned long long)shape[k]);
        if (w > 0) used += (size_t)w;
    }
    if (used < len) snprintf(buf + used, len - used, "%s)", ndim == 1 ? "," : "");
    return buf;
}

const char *sl_array_shape_text(const sl_array_info *info, char *buf, size_t len)
{
    return sl_shape_text(info->shape, info->ndim, buf, len);
}

int sl_array_rows(const sl_array_info *info, sl_dtype dt, long axis, void **data, uint64_t *rows,
                  uint64_t *n, int *moved, sl_err *err)
{
    char shp[256];
    const int nd = info->ndim;
    *moved = 0;
    if (nd <= 1) {
        if (axis != 0 && axis != -1)
            return sl_err_set(err, "--axis %ld is out of range for a %d-d array %s (0 or -1)", axis, nd,
                              sl_array_shape_text(info, shp, sizeof shp));
        *rows = 1;
        *n = info->n;
        if (*n == 0)
            return sl_err_set(err, "shape %s cannot be reduced along an axis: the axis has length 0",
                              sl_array_shape_text(info, shp, sizeof shp));
        return 0;
    }
    if (axis < -(long)nd || axis >= (long)nd)
        return sl_err_set(err, "--axis %ld is out of range for the %d-d array %s (%d .. %d)", axis, nd,
                          sl_array_shape_text(info, shp, sizeof shp), -nd, nd - 1);
    const int a = axis < 0 ? (int)(axis + nd) : (int)axis;
    const uint64_t N = info->shape[a];
    uint64_t B = 1;
    for (int k = 0; k < nd; k++)
        if (k != a) B *= info->shape[k];
    if (N == 0 || B == 0)
        return sl_err_set(err, "shape %s cannot be reduced along axis %d: %s", sl_array_shape_text(info, shp, sizeof shp),
                          a, N == 0 ? "the axis has length 0" : "another axis has length 0 (no rows)");
    *rows = B;
    *n = N;
    /* element strides of the logical axes in memory */
    uint64_t st[SL_ARRAY_MAX_DIMS];
    uint64_t s = 1;
    if (info->fortran_order)
        for (int k = 0; k < nd; k++) { st[k] = s; s *= info->shape[k]; }
    else
        for (int k = nd - 1; k >= 0; k--) { st[k] = s; s *= info->shape[k]; }
    /* already [B, N] in C order: the axis is the last in memory and the others in C order */
    int contiguous = st[a] == 1;
    if (contiguous) {
        uint64_t want = N;
        for (int k = nd - 1; k >= 0; k--) {
            if (k == a) continue;
            if (info->shape[k] != 1 && st[k] != want) contiguous = 0;
            want *= info->shape[k];
        }
    }
    if (contiguous) return 0;
    const size_t es = sl_dtype_size(dt);
    char *out = malloc((size_t)(B * N) * es);
    if (!out) return sl_err_set(err, "out of memory moving axis %d of %s to the last place", a,
                                sl_array_shape_text(info, shp, sizeof shp));
    const char *src = *data;
    uint64_t idx[SL_ARRAY_MAX_DIMS] = {0};
    uint64_t base = 0;                       /* memory offset of the current row's first value */
    for (uint64_t r = 0; r < B; r++) {
        for (uint64_t k = 0; k < N; k++)
            memcpy(out + (r * N + k) * es, src + (base + k * st[a]) * es, es);
        /* the next position of the other axes, in C order (last other axis fastest) */
        for (int k = nd - 1; k >= 0; k--) {
            if (k == a) continue;
            if (++idx[k] < info->shape[k]) { base += st[k]; break; }
            base -= (info->shape[k] - 1) * st[k];
            idx[k] = 0;
        }
    }
    free(*data);
    *data = out;
    *moved = 1;
    return 0;
}

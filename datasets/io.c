/* io.c: .npy (v1.0/2.0/3.0, 1-D, '<f4'/'<f8', C order) and raw little-endian readers and
 * writers. Every malformed input is an error naming the path and the reason; sizes are 64-bit. */
#define _POSIX_C_SOURCE 200809L
#include "sl_ds_impl.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_HEADER_MAX (1u << 20) /* longer headers are refused (numpy writes < 200 bytes) */
#define IO_CHUNK ((size_t)1 << 24)

static int host_is_le(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Reverses each element's bytes in place (only on big-endian hosts). */
static void swap_elems(unsigned char *p, size_t nelem, size_t sz)
{
    for (size_t k = 0; k < nelem; k++, p += sz)
        for (size_t a = 0, b = sz - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* Writes n elements little-endian, in chunks. */
static int write_data(FILE *f, const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err)
{
    const size_t sz = sl_dtype_size(dt);
    const unsigned char *src = data;
    unsigned char *tmp = NULL;
    int le = host_is_le();
    if (!le && !(tmp = malloc(IO_CHUNK))) {
        return sl_err_set(err, "%s: out of memory", path);
    }
    uint64_t left = n * sz;
    while (left > 0) {
        size_t chunk = left > IO_CHUNK ? IO_CHUNK : (size_t)left;
        const unsigned char *p = src;
        if (!le) {
            memcpy(tmp, src, chunk);
            swap_elems(tmp, chunk / sz, sz);
            p = tmp;
        }
        if (fwrite(p, 1, chunk, f) != chunk) {
            sl_err_set(err, "%s: write failed: %s", path, strerror(errno));
            free(tmp);
            return -1;
        }
        src += chunk;
        left -= chunk;
    }
    free(tmp);
    return 0;
}

static int close_written(FILE *f, const char *path, int rc, sl_err *err)
{
    if (fclose(f) != 0 && rc == 0) {
        return sl_err_set(err, "%s: write failed on close: %s", path, strerror(errno));
    }
    return rc;
}

static int check_write_args(const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err)
{
    if (!path) {
        return sl_err_set(err, "write: NULL path");
    }
    if (dt != SL_F32 && dt != SL_F64) {
        return sl_err_set(err, "%s: unknown dtype %d", path, (int)dt);
    }
    if (n > 0 && !data) {
        return sl_err_set(err, "%s: NULL data", path);
    }
    if (n > (UINT64_MAX >> 4)) {
        return sl_err_set(err, "%s: n=%llu too large", path, (unsigned long long)n);
    }
    return 0;
}

int sl_npy_write_header(FILE *f, uint64_t n, sl_dtype dt)
{
    char hdr[256];
    int len = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }",
                       dt == SL_F64 ? "<f8" : "<f4", (unsigned long long)n);
    /* Pad with spaces so magic(6) + version(2) + length(2) + header ends on a 64-byte line. */
    size_t total = 10 + (size_t)len + 1;
    size_t padded = (total + 63) / 64 * 64;
    memset(hdr + len, ' ', padded - total);
    hdr[padded - 10 - 1] = '\n';
    size_t hlen = padded - 10;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xFF),
                             (unsigned char)(hlen >> 8)};
    return fwrite(pre, 1, 10, f) == 10 && fwrite(hdr, 1, hlen, f) == hlen ? 0 : -1;
}

int sl_npy_write(const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err)
{
    if (check_write_args(path, data, n, dt, err)) return -1;
    FILE *f = fopen(path, "wb");
    if (!f) {
        return sl_err_set(err, "%s: cannot open for writing: %s", path, strerror(errno));
    }
    int rc = 0;
    if (sl_npy_write_header(f, n, dt)) {
        sl_err_set(err, "%s: write failed: %s", path, strerror(errno));
        rc = -1;
    }
    if (!rc) rc = write_data(f, path, data, n, dt, err);
    return close_written(f, path, rc, err);
}

int sl_raw_write(const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err)
{
    if (check_write_args(path, data, n, dt, err)) return -1;
    FILE *f = fopen(path, "wb");
    if (!f) {
        return sl_err_set(err, "%s: cannot open for writing: %s", path, strerror(errno));
    }
    return close_written(f, path, write_data(f, path, data, n, dt, err), err);
}

/* ---- reading ---------------------------------------------------------------------------- */
/* Opens path for reading and returns its size (regular files only). O_NONBLOCK: a FIFO is
 * refused at once instead of blocking in open() until some writer appears. */
static FILE *open_read(const char *path, uint64_t *size, sl_err *err)
{
    if (!path) {
        sl_err_set(err, "read: NULL path");
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        sl_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        sl_err_set(err, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        sl_err_set(err, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        sl_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    return f;
}

/* Up to `max` bytes of s (stopping at NUL or end) as one printable ASCII line: other bytes
 * become \n, \r, \t or \xNN, so a message quoting a damaged header stays one line. */
static const char *printable(char *buf, size_t len, const char *s, const char *end, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (size_t i = 0; s + i < end && s[i] && i < max; i++) {
        unsigned char ch = (unsigned char)s[i];
        char esc[5] = {0};
        if (ch >= 0x20 && ch < 0x7f && ch != '\\') esc[0] = (char)ch;
        else if (ch == '\\') esc[0] = '\\', esc[1] = '\\';
        else if (ch == '\n') esc[0] = '\\', esc[1] = 'n';
        else if (ch == '\r') esc[0] = '\\', esc[1] = 'r';
        else if (ch == '\t') esc[0] = '\\', esc[1] = 't';
        else esc[0] = '\\', esc[1] = 'x', esc[2] = hex[ch >> 4], esc[3] = hex[ch & 15];
        size_t el = strlen(esc);
        if (k + el + 1 > len) break;
        memcpy(buf + k, esc, el);
        k += el;
    }
    buf[k] = '\0';
    return buf;
}

/* Reads exactly n elements after the current position into a new buffer, then checks EOF. */
static int read_data(FILE *f, const char *path, uint64_t n, sl_dtype dt, void **data, sl_err *err)
{
    const size_t sz = sl_dtype_size(dt);
    if (n > SIZE_MAX / sz) {
        return sl_err_set(err, "%s: %llu elements do not fit in memory", path, (unsigned long long)n);
    }
    unsigned char *buf = malloc(n ? (size_t)n * sz : 1);
    if (!buf) {
        return sl_err_set(err, "%s: out of memory for %llu elements", path, (unsigned long long)n);
    }
    uint64_t left = n * sz, done = 0;
    while (left > 0) {
        size_t chunk = left > IO_CHUNK ? IO_CHUNK : (size_t)left;
        size_t got = fread(buf + done, 1, chunk, f);
        done += got;
        left -= got;
        if (got != chunk) {
            if (ferror(f))
                sl_err_set(err, "%s: read error: %s", path, strerror(errno));
            else
                sl_err_set(err, "%s: file is truncated: expected %llu bytes of data, found %llu", path,
                        (unsigned long long)(n * sz), (unsigned long long)done);
            free(buf);
            return -1;
        }
    }
    if (fgetc(f) != EOF) { /* the size checks passed: the file grew, or stat gave no size */
        sl_err_set(err, "%s: more data than the file size said (%llu elements expected): it changed "
                "while being read, or is not an ordinary file", path, (unsigned long long)n);
        free(buf);
        return -1;
    }
    if (!host_is_le()) swap_elems(buf, (size_t)n, sz);
    *data = buf;
    return 0;
}

/* Tiny parser for the .npy header, a Python dict literal. */
typedef struct {
    const char *s, *end;
} cursor;

static void skip_ws(cursor *c)
{
    /* Python's whitespace inside a dict literal (numpy reads the header with literal_eval) */
    while (c->s < c->end && (*c->s == ' ' || *c->s == '\t' || *c->s == '\n' || *c->s == '\r' ||
                             *c->s == '\f'))
        c->s++;
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

/* Quoted string ('...' or "...") into buf; 0 on failure. */
static int parse_str(cursor *c, char *buf, size_t len)
{
    skip_ws(c);
    if (c->s >= c->end || (*c->s != '\'' && *c->s != '"')) return 0;
    char q = *c->s++;
    size_t k = 0;
    while (c->s < c->end && *c->s != q) {
        if (*c->s == '\\' || k + 1 >= len) return 0;
        buf[k++] = *c->s++;
    }
    if (c->s >= c->end) return 0;
    c->s++;
    buf[k] = '\0';
    return 1;
}

static int parse_word(cursor *c, const char *w)
{
    skip_ws(c);
    size_t l = strlen(w);
    if ((size_t)(c->end - c->s) >= l && !strncmp(c->s, w, l)) {
        c->s += l;
        return 1;
    }
    return 0;
}

/* Shape tuple: fills dims (up to 8), returns the number of dims, -1 (malformed) or -2 (a
 * dimension beyond 2^64 - 1). */
static int parse_shape(cursor *c, uint64_t *dims, int *trailing_comma)
{
    if (!eat(c, '(')) return -1;
    int nd = 0;
    *trailing_comma = 0;
    for (;;) {
        skip_ws(c);
        if (eat(c, ')')) return nd;
        if (c->s >= c->end || *c->s < '0' || *c->s > '9') return -1;
        /* "010": octal 8 to Python 2, a syntax error to Python 3; never written by numpy */
        if (*c->s == '0' && c->s + 1 < c->end && c->s[1] >= '0' && c->s[1] <= '9') return -1;
        uint64_t v = 0;
        while (c->s < c->end && *c->s >= '0' && *c->s <= '9') {
            unsigned d = (unsigned)(*c->s++ - '0');
            if (v > (UINT64_MAX - d) / 10) return -2;
            v = v * 10 + d;
        }
        if (c->s < c->end && *c->s == 'L') c->s++; /* Python 2 longs */
        if (nd < 8) dims[nd] = v;
        nd++;
        *trailing_comma = eat(c, ',');
        if (!*trailing_comma) {
            if (!eat(c, ')')) return -1;
            return nd;
        }
    }
}

/* Parses the header dict; on success sets n and dt. */
static int parse_npy_header(const char *path, const char *h, size_t hl, uint64_t *n, sl_dtype *dt,
                            sl_err *err)
{
    cursor c = {h, h + hl};
    int have_descr = 0, have_fo = 0, have_shape = 0;
    char key[64], descr[64], show[128];
    uint64_t dims[8];
    int nd = 0;
    if (!eat(&c, '{')) {
        return sl_err_set(err, "%s: .npy header is not a dict", path);
    }
    for (;;) {
        if (eat(&c, '}')) break;
        if (!parse_str(&c, key, sizeof key) || !eat(&c, ':')) {
            return sl_err_set(err, "%s: malformed .npy header near \"%s\"", path,
                    printable(show, sizeof show, c.s, c.end, 30));
        }
        /* numpy would keep the last of two values; two values for a key mean a damaged file */
        if ((!strcmp(key, "descr") && have_descr) || (!strcmp(key, "fortran_order") && have_fo) ||
            (!strcmp(key, "shape") && have_shape)) {
            return sl_err_set(err, "%s: key '%s' appears twice in the .npy header", path, key);
        }
        if (!strcmp(key, "descr")) {
            if (!parse_str(&c, descr, sizeof descr)) {
                return sl_err_set(err, "%s: .npy 'descr' is not a simple dtype string", path);
            }
            have_descr = 1;
        } else if (!strcmp(key, "fortran_order")) {
            if (parse_word(&c, "False")) have_fo = 1;
            else if (parse_word(&c, "True")) {
                return sl_err_set(err, "%s: fortran_order True is not supported (1-D C-order arrays only)", path);
            } else {
                return sl_err_set(err, "%s: .npy 'fortran_order' is not True or False", path);
            }
        } else if (!strcmp(key, "shape")) {
            int tc;
            nd = parse_shape(&c, dims, &tc);
            if (nd == -2) {
                return sl_err_set(err, "%s: .npy 'shape' has a dimension beyond 2^64 - 1", path);
            }
            if (nd < 0 || (nd == 1 && !tc)) {
                return sl_err_set(err, "%s: .npy 'shape' is not a tuple of integers", path);
            }
            have_shape = 1;
        } else {
            return sl_err_set(err, "%s: unexpected key '%s' in .npy header", path,
                    printable(show, sizeof show, key, key + strlen(key), 40));
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}')) {
                return sl_err_set(err, "%s: malformed .npy header near \"%s\"", path,
                        printable(show, sizeof show, c.s, c.end, 30));
            }
            break;
        }
    }
    skip_ws(&c);
    if (c.s != c.end) {
        return sl_err_set(err, "%s: unexpected text after the .npy header dict", path);
    }
    if (!have_descr || !have_fo || !have_shape) {
        return sl_err_set(err, "%s: .npy header lacks '%s'", path,
                !have_descr ? "descr" : !have_fo ? "fortran_order" : "shape");
    }
    if (!strcmp(descr, "<f4")) *dt = SL_F32;
    else if (!strcmp(descr, "<f8")) *dt = SL_F64;
    else {
        return sl_err_set(err, "%s: unsupported dtype '%s' (only '<f4' and '<f8')", path,
                printable(show, sizeof show, descr, descr + strlen(descr), 40));
    }
    if (nd != 1) {
        return sl_err_set(err, "%s: array has %d dimensions; only 1-D arrays are supported", path, nd);
    }
    *n = dims[0];
    return 0;
}

int sl_npy_read(const char *path, void **data, uint64_t *n, sl_dtype *dt, sl_err *err)
{
    uint64_t size;
    if (!data || !n || !dt) {
        return sl_err_set(err, "sl_npy_read: NULL output argument");
    }
    *data = NULL;
    FILE *f = open_read(path, &size, err);
    if (!f) return -1;
    int rc = -1;
    char *hdr = NULL;
    unsigned char pre[12];
    size_t got = fread(pre, 1, 8, f);
    if (got < NPY_MAGIC_LEN || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
        sl_err_set(err, "%s: not a .npy file (bad magic)", path);
        goto out;
    }
    if (got < 8) {
        sl_err_set(err, "%s: truncated .npy header (no version)", path);
        goto out;
    }
    unsigned major = pre[6], minor = pre[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0) {
        sl_err_set(err, "%s: unsupported .npy version %u.%u (1.0, 2.0 and 3.0 are)", path, major, minor);
        goto out;
    }
    size_t lenbytes = major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, lenbytes, f) != lenbytes) {
        sl_err_set(err, "%s: truncated .npy header (no header length)", path);
        goto out;
    }
    uint64_t hl = major == 1 ? (uint64_t)pre[8] | (uint64_t)pre[9] << 8
                             : (uint64_t)pre[8] | (uint64_t)pre[9] << 8 | (uint64_t)pre[10] << 16 |
                                   (uint64_t)pre[11] << 24;
    if (hl > NPY_HEADER_MAX) {
        sl_err_set(err, "%s: .npy header length %llu is implausibly large", path, (unsigned long long)hl);
        goto out;
    }
    if (8 + lenbytes + hl > size) {
        sl_err_set(err, "%s: truncated .npy header (%llu bytes announced, file has %llu)", path,
                (unsigned long long)hl, (unsigned long long)size);
        goto out;
    }
    hdr = malloc((size_t)hl + 1);
    if (!hdr) {
        sl_err_set(err, "%s: out of memory", path);
        goto out;
    }
    if (fread(hdr, 1, (size_t)hl, f) != (size_t)hl) {
        sl_err_set(err, "%s: truncated .npy header", path);
        goto out;
    }
    hdr[hl] = '\0';
    if (memchr(hdr, '\0', (size_t)hl)) {
        sl_err_set(err, "%s: .npy header contains a NUL byte", path);
        goto out;
    }
    if (parse_npy_header(path, hdr, (size_t)hl, n, dt, err)) goto out;
    uint64_t off = 8 + lenbytes + hl, avail = size - off, sz = sl_dtype_size(*dt);
    if (*n > avail / sz) {
        sl_err_set(err, "%s: file is shorter than its header says: %llu elements announced, %llu bytes of "
                "data present", path, (unsigned long long)*n, (unsigned long long)avail);
        goto out;
    }
    if (avail != *n * sz) {
        sl_err_set(err, "%s: trailing garbage: %llu bytes after the %llu elements of data", path,
                (unsigned long long)(avail - *n * sz), (unsigned long long)*n);
        goto out;
    }
    rc = read_data(f, path, *n, *dt, data, err);
out:
    free(hdr);
    fclose(f);
    return rc;
}

int sl_raw_read(const char *path, sl_dtype dt, void **data, uint64_t *n, sl_err *err)
{
    uint64_t size;
    if (!data || !n) {
        return sl_err_set(err, "sl_raw_read: NULL output argument");
    }
    *data = NULL;
    if (dt != SL_F32 && dt != SL_F64) {
        return sl_err_set(err, "%s: unknown dtype %d", path ? path : "(null)", (int)dt);
    }
    FILE *f = open_read(path, &size, err);
    if (!f) return -1;
    const uint64_t sz = sl_dtype_size(dt);
    int rc = -1;
    if (size % sz != 0) {
        sl_err_set(err, "%s: raw file size %llu is not a multiple of the %s element size %llu", path,
                (unsigned long long)size, sl_dtype_name(dt), (unsigned long long)sz);
    } else {
        *n = size / sz;
        rc = read_data(f, path, *n, dt, data, err);
    }
    fclose(f);
    return rc;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

int sl_array_load(const char *path, int have_raw_dtype, sl_dtype raw_dtype, void **data,
                  uint64_t *n, sl_dtype *dt, sl_err *err)
{
    uint64_t size;
    FILE *f = open_read(path, &size, err);
    if (!f) return -1;
    unsigned char magic[NPY_MAGIC_LEN];
    size_t got = fread(magic, 1, NPY_MAGIC_LEN, f);
    fclose(f);
    if ((got == NPY_MAGIC_LEN && !memcmp(magic, NPY_MAGIC, NPY_MAGIC_LEN)) || has_suffix(path, ".npy"))
        return sl_npy_read(path, data, n, dt, err); /* a .npy name without the magic: bad magic */
    if (!have_raw_dtype) {
        return sl_err_set(err, "%s: not a .npy file and no dtype given for a raw file", path);
    }
    if (sl_raw_read(path, raw_dtype, data, n, err)) return -1;
    *dt = raw_dtype;
    return 0;
}

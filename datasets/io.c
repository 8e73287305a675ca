/* io.c: .npy and raw little-endian writers, the raw reader, the file-type dispatch of
 * sl_array_load[_ex] and its one-line note; .npy reading is in npy.c, .npz in npz.c. */
#define _POSIX_C_SOURCE 200809L
#include "sl_io_impl.h"
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define IO_CHUNK SL_IO_CHUNK

/* Writes n elements little-endian, in chunks. */
static int write_data(FILE *f, const char *path, const void *data, uint64_t n, sl_dtype dt, sl_err *err)
{
    const size_t sz = sl_dtype_size(dt);
    const unsigned char *src = data;
    unsigned char *tmp = NULL;
    int le = sl_host_is_le();
    if (!le && !(tmp = malloc(IO_CHUNK))) {
        return sl_err_set(err, "%s: out of memory", path);
    }
    uint64_t left = n * sz;
    while (left > 0) {
        size_t chunk = left > IO_CHUNK ? IO_CHUNK : (size_t)left;
        const unsigned char *p = src;
        if (!le) {
            memcpy(tmp, src, chunk);
            sl_swap_elems(tmp, chunk / sz, sz);
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
    if (!sl_dtype_valid(dt)) {
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

const char *sl_npy_descr(sl_dtype dt)
{
    switch (dt) {
    case SL_F64: return "<f8";
    case SL_F16: return "<f2";
    case SL_BF16: return "<V2";
    default: return "<f4";
    }
}

int sl_npy_write_header(FILE *f, uint64_t n, sl_dtype dt)
{
    return sl_npy_write_header_shape(f, &n, 1, dt);
}

int sl_npy_write_header_shape(FILE *f, const uint64_t *shape, int ndim, sl_dtype dt)
{
    if (ndim < 1 || ndim > SL_NPY_WRITE_MAX_DIMS) {
        errno = EINVAL;
        return -1;
    }
    char dims[SL_NPY_WRITE_MAX_DIMS * 22 + 4];   /* "(a,)", "(a, b, ...)": 20 digits and ", " an axis */
    char hdr[sizeof dims + 128];
    int len = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                       sl_npy_descr(dt), sl_shape_text(shape, ndim, dims, sizeof dims));
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

/* Reads exactly n elements of a raw file after the current position, then checks EOF. */
static int read_raw_data(FILE *f, const char *path, uint64_t n, sl_dtype dt, void **data, sl_err *err)
{
    sl_src s = {f, path, "file", n * sl_dtype_size(dt), 0, NULL, NULL, NULL};
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
        size_t chunk = left > sl_src_chunk() ? sl_src_chunk() : (size_t)left, got;
        if (sl_src_read(&s, buf + done, chunk, &got, err)) {
            free(buf);
            return -1;
        }
        done += got;
        left -= got;
        if (got != chunk) {
            sl_err_set(err, "%s: file is truncated: expected %llu bytes of data, found %llu", path,
                       (unsigned long long)(n * sz), (unsigned long long)done);
            free(buf);
            return -1;
        }
    }
    if (sl_src_finish(&s, err)) {
        free(buf);
        return -1;
    }
    if (!sl_host_is_le()) sl_swap_elems(buf, (size_t)n, sz);
    *data = buf;
    return 0;
}

int sl_raw_read(const char *path, sl_dtype dt, void **data, uint64_t *n, sl_err *err)
{
    uint64_t size;
    if (!data || !n) {
        return sl_err_set(err, "sl_raw_read: NULL output argument");
    }
    *data = NULL;
    if (!sl_dtype_valid(dt)) {
        return sl_err_set(err, "%s: unknown dtype %d", path ? path : "(null)", (int)dt);
    }
    FILE *f = sl_open_read(path, &size, err);
    if (!f) return -1;
    const uint64_t sz = sl_dtype_size(dt);
    int rc = -1;
    if (size % sz != 0) {
        sl_err_set(err, "%s: raw file size %llu is not a multiple of the %s element size %llu", path,
                (unsigned long long)size, sl_dtype_name(dt), (unsigned long long)sz);
    } else {
        *n = size / sz;
        rc = read_raw_data(f, path, *n, dt, data, err);
    }
    fclose(f);
    return rc;
}


/* ---- sl_array_load ----------------------------------------------------------------------- */
static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* Appends printf output at *k in buf; 1 when it did not fit. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int note_add(char *buf, size_t len, size_t *k, const char *fmt, ...)
{
    if (*k >= len) return 1;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *k, len - *k, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= len - *k) {
        *k = len;
        return 1;
    }
    *k += (size_t)w;
    return 0;
}

/* The one-line note of sl_array_info (empty for a plainly named 1-D array). */
static int make_note(const char *path, sl_array_info *info, sl_err *err)
{
    info->note[0] = '\0';
    if (info->ndim == 1 && !info->member_implicit) return 0;
    char *b = info->note, esc[4 * SL_ARRAY_MEMBER_MAX];
    size_t len = sizeof info->note, k = 0;
    int full = note_add(b, len, &k, "%s", path);
    if (info->format == SL_ARRAY_NPZ) {
        const char *m = info->member;
        sl_printable(esc, sizeof esc, m, m + strlen(m), SL_ARRAY_MEMBER_MAX);
        full |= note_add(b, len, &k, ":%s%s", esc, info->member_implicit ? " (the archive's only member)" : "");
    }
    full |= note_add(b, len, &k, ": %d-%s array (", info->ndim, info->ndim ? "D" : "d");
    for (int d = 0; d < info->ndim; d++)
        full |= note_add(b, len, &k, "%s%llu", d ? ", " : "", (unsigned long long)info->shape[d]);
    full |= note_add(b, len, &k, "%s), %s order", info->ndim == 1 ? "," : "",
                     info->fortran_order ? "Fortran" : "C");
    if (info->big_endian) full |= note_add(b, len, &k, ", big-endian");
    full |= note_add(b, len, &k, ": summed in memory order%s (%llu value%s)",
                     info->fortran_order && info->ndim > 1 ? ", column-major" : "",
                     (unsigned long long)info->n, info->n == 1 ? "" : "s");
    if (full) {
        return sl_err_set(err, "%s: path of %zu bytes too long for the array note (%d bytes)", path,
                          strlen(path), SL_ARRAY_NOTE_MAX);
    }
    return 0;
}

/* "FILE.npz:KEY" when no file has the whole name: the first ".npz:" whose prefix exists (else
 * the last one, so that opening the prefix gives the error). 1: split into *file / *key (both
 * malloc'ed), 0: not such a name, -1: out of memory. */
static int split_npz_key(const char *path, char **file, char **key)
{
    struct stat st;
    if (stat(path, &st) == 0) return 0;
    const char *pick = NULL;
    for (const char *p = strstr(path, ".npz:"); p; p = strstr(p + 1, ".npz:")) {
        size_t fl = (size_t)(p - path) + 4;
        char *f = malloc(fl + 1);
        if (!f) return -1;
        memcpy(f, path, fl);
        f[fl] = '\0';
        int exists = stat(f, &st) == 0;
        free(f);
        pick = p;
        if (exists) break;
    }
    if (!pick) return 0;
    size_t fl = (size_t)(pick - path) + 4;
    *file = malloc(fl + 1);
    *key = strdup(pick + 5);
    if (!*file || !*key) {
        free(*file);
        free(*key);
        return -1;
    }
    memcpy(*file, path, fl);
    (*file)[fl] = '\0';
    return 1;
}

int sl_array_load_ex(const char *path, int have_raw_dtype, sl_dtype raw_dtype, void **data,
                     uint64_t *n, sl_dtype *dt, sl_array_info *info, sl_err *err)
{
    if (!data || !n || !dt) {
        return sl_err_set(err, "sl_array_load: NULL output argument");
    }
    *data = NULL;
    if (!path) {
        return sl_err_set(err, "read: NULL path");
    }
    if (info) {
        memset(info, 0, sizeof *info);
        info->zip_method = -1;
    }
    char *zfile = NULL, *zkey = NULL;
    int sp = split_npz_key(path, &zfile, &zkey);
    if (sp < 0) {
        return sl_err_set(err, "%s: out of memory", path);
    }
    int rc;
    if (sp == 1) {
        rc = sl_npz_read(zfile, zkey, data, n, dt, info, err);
    } else {
        uint64_t size;
        FILE *f = sl_open_read(path, &size, err);
        if (!f) return -1;
        unsigned char magic[16];
        size_t got = fread(magic, 1, sizeof magic, f);
        fclose(f);
        int is_zip = got >= 4 && (!memcmp(magic, "PK\x03\x04", 4) || !memcmp(magic, "PK\x05\x06", 4));
        int is_npy = got >= NPY_MAGIC_LEN && !memcmp(magic, NPY_MAGIC, NPY_MAGIC_LEN);
        if (is_zip || (!is_npy && has_suffix(path, ".npz"))) {
            rc = sl_npz_read(path, NULL, data, n, dt, info, err); /* no zip magic: "not a zip" */
        } else if (is_npy || has_suffix(path, ".npy")) {
            /* a .npy name without the magic: "bad magic" */
            FILE *g = sl_open_read(path, &size, err);
            if (!g) return -1;
            sl_src s = {g, path, "file", size, 0, NULL, NULL, NULL};
            rc = sl_npy_read_src(&s, data, n, dt, info, err);
            fclose(g);
            if (!rc && info) info->format = SL_ARRAY_NPY;
        } else if (!have_raw_dtype) {
            /* a safetensors file: an 8-byte little-endian header length, then a JSON object */
            if (got >= 9 && magic[8] == '{')
                return sl_err_set(err, "%s: not a NumPy file: a safetensors file (save the tensor with numpy.save, "
                                  "e.g. numpy.save('x.npy', tensor.float().numpy()))", path);
            return sl_err_set(err, "%s: not a .npy or .npz file and no dtype given for a raw file", path);
        } else {
            rc = sl_raw_read(path, raw_dtype, data, n, err);
            if (!rc) {
                *dt = raw_dtype;
                if (info) {
                    info->format = SL_ARRAY_RAW;
                    info->ndim = 1;
                    info->shape[0] = info->n = *n;
                }
            }
        }
    }
    if (!rc && info && make_note(sp == 1 ? zfile : path, info, err)) {
        free(*data);
        *data = NULL;
        rc = -1;
    }
    free(zfile);
    free(zkey);
    return rc;
}

int sl_array_load(const char *path, int have_raw_dtype, sl_dtype raw_dtype, void **data,
                  uint64_t *n, sl_dtype *dt, sl_err *err)
{
    return sl_array_load_ex(path, have_raw_dtype, raw_dtype, data, n, dt, NULL, err);
}

int sl_array_layout_get(const char *path, int have_raw_dtype, sl_dtype raw_dtype,
                        sl_array_layout *lay, sl_err *err)
{
    if (!path || !lay) return sl_err_set(err, "sl_array_layout_get: NULL argument");
    memset(lay, 0, sizeof *lay);
    char *zfile = NULL, *zkey = NULL;
    int sp = split_npz_key(path, &zfile, &zkey);
    free(zfile);
    free(zkey);
    if (sp < 0) return sl_err_set(err, "%s: out of memory", path);
    if (sp == 1) return sl_err_set(err, "%s: an .npz member has no byte layout (read it whole)", path);
    uint64_t size;
    FILE *f = sl_open_read(path, &size, err);
    if (!f) return -1;
    unsigned char magic[NPY_MAGIC_LEN];
    size_t got = fread(magic, 1, NPY_MAGIC_LEN, f);
    int is_zip = got >= 4 && (!memcmp(magic, "PK\x03\x04", 4) || !memcmp(magic, "PK\x05\x06", 4));
    int is_npy = got == NPY_MAGIC_LEN && !memcmp(magic, NPY_MAGIC, NPY_MAGIC_LEN);
    int rc;
    if (is_zip || (!is_npy && has_suffix(path, ".npz"))) {
        rc = sl_err_set(err, "%s: an .npz archive has no byte layout (read it whole)", path);
    } else if (is_npy || has_suffix(path, ".npy")) {
        rewind(f);
        sl_src s = {f, path, "file", size, 0, NULL, NULL, NULL};
        rc = sl_npy_layout_src(&s, lay, err);
    } else if (!have_raw_dtype) {
        rc = sl_err_set(err, "%s: not a .npy or .npz file and no dtype given for a raw file", path);
    } else if (size % sl_dtype_size(raw_dtype)) {
        rc = sl_err_set(err, "%s: raw file size %llu is not a multiple of %zu bytes (%s)", path,
                        (unsigned long long)size, sl_dtype_size(raw_dtype), sl_dtype_name(raw_dtype));
    } else {
        lay->format = SL_ARRAY_RAW;
        lay->n = size / sl_dtype_size(raw_dtype);
        lay->dt = raw_dtype;
        lay->swap = !sl_host_is_le();
        rc = 0;
    }
    fclose(f);
    return rc;
}

int sl_npy_read(const char *path, void **data, uint64_t *n, sl_dtype *dt, sl_err *err)
{
    uint64_t size;
    if (!data || !n || !dt) {
        return sl_err_set(err, "sl_npy_read: NULL output argument");
    }
    *data = NULL;
    FILE *f = sl_open_read(path, &size, err);
    if (!f) return -1;
    sl_src s = {f, path, "file", size, 0, NULL, NULL, NULL};
    int rc = sl_npy_read_src(&s, data, n, dt, NULL, err);
    fclose(f);
    return rc;
}

/* files.c: `sumlab run --files A.npy,B.npy`: the user's .npy arrays as inputs of the experiments
 * that do not sweep n (determinism, tradeoff): each file read once, held as a dataset whose
 * values are the file's (label "file:NAME", NAME checked against a safe set), hashed so that a
 * resumed run can tell a changed file. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"

#define SAFE_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"

/* The file's values [start, start + count): the dataset is the file (seed and params unused). */
static int file_fill(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n, const sl_params *p,
                     uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)seed;
    (void)p;
    const sl_file_input *f = (const sl_file_input *)ds;   /* ds is f's first member */
    const uint64_t total = f->n * (uint64_t)f->inputs;
    if (dt != f->dt || n != total || start > total || count > total - start)
        return sl_err_set(err, "%s holds %llu %s values; asked for %llu %s values", f->label,
                          (unsigned long long)total, sl_dtype_name(f->dt), (unsigned long long)n,
                          sl_dtype_name(dt));
    const size_t es = sl_dtype_size(dt);
    memcpy(out, (const char *)f->data + start * es, (size_t)count * es);
    return 0;
}

/* FNV-1a (64 bits) of the values' bytes, after the dtype and n. */
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* NAME of a path: its last component less ".npy"; -1 with err unless it is 1..64 safe characters. */
static int file_name(const char *path, char *name, size_t len, sl_err *err)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl > 4 && !strcmp(base + bl - 4, ".npy")) bl -= 4;
    if (bl == 0 || bl > 64 || bl >= len || strspn(base, SAFE_CHARS) < bl || !isalnum((unsigned char)base[0])) {
        char shown[68];        /* the name as shown: bytes outside printable ASCII as '?' */
        size_t k = 0;
        for (; base[k] && k < 64; k++)
            shown[k] = base[k] > 0x20 && base[k] < 0x7f ? base[k] : base[k] == ' ' ? ' ' : '?';
        shown[k] = '\0';
        return sl_err_set(err, "--files: the file name '%s%s' cannot label rows: use a name of 1 to 64 "
                               "letters, digits, '.', '_' or '-', starting with a letter or digit (then .npy)",
                          shown, strlen(base) > 64 ? "..." : "");
    }
    memcpy(name, base, bl);
    name[bl] = '\0';
    return 0;
}

/* One .npy file: values, dtype and n; -1 with err (one line naming the file). */
static int file_read(const char *path, void **data, uint64_t *n, sl_dtype *dt, sl_err *err)
{
    unsigned char magic[6] = {0};
    FILE *fp = fopen(path, "rb");
    if (!fp) return sl_err_set(err, "--files: cannot open '%.200s': %s", path, strerror(errno));
    size_t got = fread(magic, 1, sizeof magic, fp);
    fclose(fp);
    if (got != sizeof magic || memcmp(magic, "\x93NUMPY", 6))
        return sl_err_set(err, "--files: '%.200s' is not a NumPy .npy file (no .npy header; save the array "
                               "with numpy.save)", path);
    sl_array_info info;
    sl_err e = {{0}};
    if (sl_array_load_ex(path, 0, SL_F64, data, n, dt, &info, &e))
        return sl_err_set(err, "--files: %.400s", e.msg);
    if (info.ndim > 1) {
        char shp[128];
        free(*data);
        *data = NULL;
        return sl_err_set(err, "--files: '%.200s' holds a %d-D array %s; `run` takes 1-D arrays (reduce along "
                               "one axis with `sumlab sum FILE --axis K`, or save each row as its own file)",
                          path, info.ndim, sl_array_shape_text(&info, shp, sizeof shp));
    }
    if (*n == 0) {
        free(*data);
        *data = NULL;
        return sl_err_set(err, "--files: '%.200s' holds no values", path);
    }
    return 0;
}

void sl_files_free(sl_file_set *s)
{
    for (int i = 0; i < s->count; i++) free(s->f[i].data);
    memset(s, 0, sizeof *s);
}

int sl_files_load(const char *list, const sl_operation *op, sl_file_set *s, sl_err *err)
{
    memset(s, 0, sizeof *s);
    const int inputs = op && op->inputs == 2 ? 2 : 1;
    char *paths[SL_FILES_MAX * 2];
    int np = 0;
    char *copy = strdup(list ? list : "");
    if (!copy) return sl_err_set(err, "out of memory");
    for (char *p = copy, *save = NULL, *t; (t = strtok_r(p, ",", &save)); p = NULL) {
        if (np == SL_FILES_MAX * 2) { free(copy); return sl_err_set(err, "--files: at most %d files", SL_FILES_MAX * 2); }
        paths[np++] = t;
    }
    if (np == 0) { free(copy); return sl_err_set(err, "--files: empty list"); }
    if (inputs == 2 && np % 2) {
        free(copy);
        return sl_err_set(err, "--files: %s takes the files as X,Y pairs in order; %d files is an odd count",
                          op->name, np);
    }
    int rc = 0;
    for (int i = 0; i < np && !rc; i += inputs) {
        sl_file_input *f = &s->f[s->count];
        char names[2][72];
        void *d[2] = {NULL, NULL};
        uint64_t n[2] = {0, 0};
        sl_dtype dt[2] = {SL_F32, SL_F32};
        for (int k = 0; k < inputs && !rc; k++)
            rc = file_name(paths[i + k], names[k], sizeof names[k], err) ||
                 file_read(paths[i + k], &d[k], &n[k], &dt[k], err) ? -1 : 0;
        if (!rc && inputs == 2 && (n[0] != n[1] || dt[0] != dt[1]))
            rc = sl_err_set(err, "--files: the pair '%.100s', '%.100s' holds %llu %s and %llu %s values; X and Y "
                                 "need the same length and dtype", paths[i], paths[i + 1],
                            (unsigned long long)n[0], sl_dtype_name(dt[0]), (unsigned long long)n[1],
                            sl_dtype_name(dt[1]));
        if (!rc) {
            if (inputs == 2) snprintf(f->label, sizeof f->label, "file:%s+%s", names[0], names[1]);
            else snprintf(f->label, sizeof f->label, "file:%s", names[0]);
            for (int j = 0; j < s->count; j++)
                if (!strcmp(s->f[j].label, f->label))
                    rc = sl_err_set(err, "--files: two inputs are named '%s'; each file needs its own name", f->label);
        }
        if (!rc && inputs == 2) {   /* one buffer: x then y, as a pair family's dataset */
            const size_t es = sl_dtype_size(dt[0]);
            void *xy = realloc(d[0], (size_t)n[0] * 2 * es);
            if (!xy) rc = sl_err_set(err, "out of memory for %.100s", paths[i]);
            else {
                d[0] = xy;
                memcpy((char *)xy + (size_t)n[0] * es, d[1], (size_t)n[0] * es);
            }
        }
        free(d[1]);
        if (rc) { free(d[0]); break; }
        f->data = d[0];
        f->n = n[0];
        f->dt = dt[0];
        f->inputs = inputs;
        uint64_t h = 0xcbf29ce484222325ull;
        const uint64_t hdr[2] = {(uint64_t)f->dt, f->n};
        h = fnv(h, hdr, sizeof hdr);
        f->hash = fnv(h, f->data, (size_t)(f->n * (uint64_t)inputs) * sl_dtype_size(f->dt));
        f->ds = (sl_dataset){.name = f->label, .description = "the user's file (sumlab run --files)",
                             .params = NULL, .nparams = 0, .fill = file_fill, .flags = SL_DS_OPT_IN};
        s->count++;
    }
    free(copy);
    if (rc) sl_files_free(s);
    return rc;
}

void sl_files_conf(const sl_file_set *s, char *buf, size_t len)
{
    size_t l = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->count && l < len; i++) {
        int w = snprintf(buf + l, len - l, "%s%s:%016llx", i ? "," : "", s->f[i].label,
                         (unsigned long long)s->f[i].hash);
        if (w < 0) break;
        l += (size_t)w;
    }
}

int sl_files_exp_uses(const char *experiment)
{
    return !strcmp(experiment, "determinism") || !strcmp(experiment, "tradeoff");
}

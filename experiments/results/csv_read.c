/* csv_read.c: the one CSV reader (sl_results.h): a whole file into rows of fields, RFC 4180
 * quoting, '#' comment lines, an interrupted last line dropped and reported; FILE.gz (gzip,
 * zlib) is read in FILE's place when FILE is absent, as committed measurements keep it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include "sl_results.h"

/* ---- CSV reader ------------------------------------------------------------------------- */
/* Splits one line (no '\n') into fields in place; quoted fields per RFC 4180. Returns the
 * field count (fields stored up to max). */
int sl_csv_split(char *line, char **fields, int max)
{
    int nf = 0;
    char *p = line;
    for (;;) {
        char *start = p, *w = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p) break;
                if (*p == '"') {
                    if (p[1] == '"') { *w++ = '"'; p += 2; continue; }
                    p++;
                    break;
                }
                *w++ = *p++;
            }
            while (*p && *p != ',') p++;
        } else {
            while (*p && *p != ',') p++;
            w = p;
        }
        char sep = *p;
        *w = '\0';
        if (nf < max) fields[nf] = start;
        nf++;
        if (sep != ',') break;
        p++;
    }
    return nf;
}

char *sl_slurp(const char *path, size_t *len, sl_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        sl_err_set(err, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) { free(buf); buf = NULL; break; }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        sl_err_set(err, "cannot read %s: %s", path, bad ? "read error" : "out of memory");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The whole of a gzip file, inflated, NUL-terminated. A damaged or truncated stream (zlib's
 * Z_DATA_ERROR, Z_BUF_ERROR "unexpected end of file") and a file that is not gzip at all are
 * errors: never fewer rows than were written. */
static char *slurp_gz(const char *path, size_t *len, sl_err *err)
{
    errno = 0;
    gzFile g = gzopen(path, "rb");
    if (!g) {
        sl_err_set(err, "cannot read %s: %s", path, errno ? strerror(errno) : "out of memory");
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    int bad = 0;
    while (buf) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
        size_t want = cap - n;
        if (want > (1u << 30)) want = 1u << 30;
        int got = gzread(g, buf + n, (unsigned)want);
        if (got < 0) { bad = 1; break; }
        if (got == 0) break;
        n += (size_t)got;
    }
    int zerr = Z_OK;
    char why[128];
    const char *zm = gzerror(g, &zerr);     /* "PATH: message" */
    size_t pl = strlen(path);
    if (!strncmp(zm, path, pl) && !strncmp(zm + pl, ": ", 2)) zm += pl + 2;
    snprintf(why, sizeof why, "%s", zm);
    int direct = gzdirect(g);
    int cr = gzclose(g);
    if (!buf) {
        sl_err_set(err, "cannot read %s: out of memory", path);
        return NULL;
    }
    if (bad || zerr != Z_OK || cr != Z_OK || direct) {
        free(buf);
        if (direct) sl_err_set(err, "cannot read %s: not a gzip file", path);
        else sl_err_set(err, "cannot read %s: damaged or truncated gzip stream (%s)", path,
                        zerr != Z_OK && why[0] ? why : cr == Z_BUF_ERROR ? "unexpected end of file" : "zlib error");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* path, or path.gz when path does not exist and path.gz does; name: the file read. */
static char *slurp_csv(const char *path, size_t *len, char *name, size_t nlen, sl_err *err)
{
    struct stat st;
    snprintf(name, nlen, "%s", path);
    if (stat(path, &st) && errno == ENOENT) {
        int w = snprintf(name, nlen, "%s.gz", path);
        if (w > 0 && (size_t)w < nlen && !stat(name, &st)) return slurp_gz(name, len, err);
        snprintf(name, nlen, "%s", path);
    }
    return sl_slurp(path, len, err);
}

int sl_csv_read(const char *path_asked, sl_csv *t, int *truncated, sl_err *err)
{
    memset(t, 0, sizeof *t);
    if (truncated) *truncated = 0;
    size_t len = 0;
    char path[4096 + 8];
    char *buf = slurp_csv(path_asked, &len, path, sizeof path, err);
    if (!buf) return -1;
    if (len > 0 && buf[len - 1] != '\n') {          /* an interrupted write: drop it */
        char *nl = strrchr(buf, '\n');
        if (nl) nl[1] = '\0';
        else buf[0] = '\0';
        if (truncated) *truncated = 1;
    }
    size_t cap = 0;
    long lineno = 0;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r') line[--ll] = '\0';
        if (!ll || line[0] == '#') continue;
        char *f[128];
        int nf = sl_csv_split(line, f, 128);
        if (nf > 128) { sl_csv_free(t); free(buf); return sl_err_set(err, "%s:%ld: too many fields", path, lineno); }
        if (!t->header) {
            t->ncols = nf;
            t->header = calloc((size_t)nf, sizeof *t->header);
            if (!t->header) { free(buf); return sl_err_set(err, "out of memory"); }
            for (int c = 0; c < nf; c++)
                if (!(t->header[c] = strdup(f[c]))) { sl_csv_free(t); free(buf); return sl_err_set(err, "out of memory"); }
            continue;
        }
        if (nf != t->ncols) {
            int nc = t->ncols;
            sl_csv_free(t);
            free(buf);
            return sl_err_set(err, "%s:%ld: %d fields where the header has %d (malformed CSV file)",
                        path, lineno, nf, nc);
        }
        if (t->nrows == cap) {
            cap = cap ? cap * 2 : 256;
            char ***nc = realloc(t->cell, cap * sizeof *nc);
            if (!nc) { sl_csv_free(t); free(buf); return sl_err_set(err, "out of memory"); }
            t->cell = nc;
        }
        char **row = malloc((size_t)nf * sizeof *row);
        if (!row) { sl_csv_free(t); free(buf); return sl_err_set(err, "out of memory"); }
        t->cell[t->nrows++] = row;
        for (int c = 0; c < nf; c++) row[c] = NULL;
        for (int c = 0; c < nf; c++)
            if (!(row[c] = strdup(f[c]))) { sl_csv_free(t); free(buf); return sl_err_set(err, "out of memory"); }
    }
    free(buf);
    if (!t->header) return sl_err_set(err, "%s: empty (no header line)", path);
    return 0;
}

void sl_csv_free(sl_csv *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) free(t->cell[r][c]);
        free(t->cell[r]);
    }
    free(t->cell);
    if (t->header)
        for (int c = 0; c < t->ncols; c++) free(t->header[c]);
    free(t->header);
    memset(t, 0, sizeof *t);
}

int sl_csv_col(const sl_csv *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->header[c], name)) return c;
    return -1;
}

const char *sl_csv_get(const sl_csv *t, size_t r, int col)
{
    if (col < 0 || r >= t->nrows || col >= t->ncols) return "";
    return t->cell[r][col] ? t->cell[r][col] : "";
}

double sl_csv_num(const sl_csv *t, size_t r, int col)
{
    const char *s = sl_csv_get(t, r, col);
    if (!*s) return NAN;
    char *end;
    double v = strtod(s, &end);
    return (end == s || *end) ? NAN : v;
}

/* files.c: the results files of a run directory (sl_results.h): opened fresh or resumed (an
 * interrupted last line cut, the keys loaded, orphan distribution rows dropped), one flushed
 * line per record, the key set kept in step. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sl_format.h"
#include "sl_results.h"

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Cuts path after its last '\n' (drops an interrupted last line). */
static int cut_after_last_newline(const char *path, sl_err *err)
{
    size_t len;
    char *buf = sl_slurp(path, &len, err);
    if (!buf) return -1;
    char *nl = NULL;
    for (size_t i = len; i > 0; i--)
        if (buf[i - 1] == '\n') { nl = buf + i - 1; break; }
    off_t keep = nl ? (off_t)(nl - buf + 1) : 0;
    free(buf);
    if (truncate(path, keep) != 0) return sl_err_set(err, "cannot repair %s: %s", path, strerror(errno));
    return 0;
}

/* Loads the keys of an existing results.csv (cutting an interrupted last line). */
static int load_results(sl_results *res, const char *rpath, int quiet, sl_err *err)
{
    sl_csv t;
    int truncated = 0;
    if (sl_csv_read(rpath, &t, &truncated, err)) return -1;
    if (!sl_schema_matches(&sl_results_schema, &t)) {
        sl_csv_free(&t);
        return sl_err_set(err, "%s has other columns than this sumlab writes: cannot resume into it", rpath);
    }
    if (truncated) {
        if (cut_after_last_newline(rpath, err)) { sl_csv_free(&t); return -1; }
        if (!quiet) fprintf(stderr, "sumlab run: dropped an interrupted last line of %s\n", rpath);
    }
    char key[SL_KEY_LEN];
    for (size_t r = 0; r < t.nrows; r++) {
        if (sl_csv_key(&t, r, key, sizeof key)) {
            sl_csv_free(&t);
            return sl_err_set(err, "%s: row %zu has a key longer than %d bytes", rpath, r + 1, SL_KEY_LEN - 1);
        }
        if (sl_keyset_add(&res->keys, key) < 0) { sl_csv_free(&t); return sl_err_set(err, "out of memory"); }
    }
    res->rows_before = (long)t.nrows;
    sl_csv_free(&t);
    return 0;
}

/* distribution.csv: keeps only rows whose results row exists (it is written before it). */
static int prune_dist(sl_results *res, const char *dpath, sl_err *err)
{
    sl_csv d;
    int truncated = 0;
    if (sl_csv_read(dpath, &d, &truncated, err)) return -1;
    if (!sl_schema_matches(&sl_dist_schema, &d)) {
        sl_csv_free(&d);
        return sl_err_set(err, "%s has other columns than this sumlab writes: cannot resume into it", dpath);
    }
    char tmp[1200], key[SL_KEY_LEN];
    snprintf(tmp, sizeof tmp, "%s.tmp", dpath);
    FILE *o = fopen(tmp, "w");
    if (!o) { sl_csv_free(&d); return sl_err_set(err, "cannot write %s: %s", tmp, strerror(errno)); }
    int bad = sl_schema_write_header(o, &sl_dist_schema);
    for (size_t r = 0; r < d.nrows && !bad; r++) {
        if (sl_csv_key(&d, r, key, sizeof key) || !sl_keyset_has(&res->keys, key)) continue;
        for (int c = 0; c < d.ncols; c++) {
            sl_csv_field(o, d.cell[r][c]);
            fputc(c == d.ncols - 1 ? '\n' : ',', o);
        }
    }
    sl_csv_free(&d);
    bad |= ferror(o);
    if (fclose(o) != 0 || bad || rename(tmp, dpath) != 0)
        return sl_err_set(err, "cannot rewrite %s: %s", dpath, strerror(errno));
    return 0;
}

int sl_results_open(sl_results *res, const char *dir, int resume, int quiet, sl_err *err)
{
    char rpath[1100], dpath[1100];
    memset(res, 0, sizeof *res);
    snprintf(res->dir, sizeof res->dir, "%s", dir);
    snprintf(rpath, sizeof rpath, "%s/%s", dir, sl_results_schema.file);
    snprintf(dpath, sizeof dpath, "%s/%s", dir, sl_dist_schema.file);
    const int have_results = resume && file_exists(rpath);
    if (have_results && load_results(res, rpath, quiet, err)) return -1;
    if (have_results && file_exists(dpath) && prune_dist(res, dpath, err)) return -1;
    const int new_results = !have_results;
    const int new_dist = !(have_results && file_exists(dpath));
    res->csv = fopen(rpath, new_results ? "w" : "a");
    if (!res->csv) return sl_err_set(err, "cannot write %s: %s", rpath, strerror(errno));
    res->dist = fopen(dpath, new_dist ? "w" : "a");
    if (!res->dist) return sl_err_set(err, "cannot write %s: %s", dpath, strerror(errno));
    if (new_results && sl_schema_write_header(res->csv, &sl_results_schema)) return sl_err_set(err, "cannot write %s", rpath);
    if (new_dist && sl_schema_write_header(res->dist, &sl_dist_schema)) return sl_err_set(err, "cannot write %s", dpath);
    return 0;
}

int sl_results_has(const sl_results *res, const sl_rowctx *c, const char *variant)
{
    char key[SL_KEY_LEN];
    if (sl_rowctx_key(c, variant, key, sizeof key)) return 0;
    return sl_keyset_has(&res->keys, key);
}

static int flushed(FILE *f, const char *dir, const char *file, sl_err *err)
{
    if (fflush(f) != 0 || ferror(f)) return sl_err_set(err, "cannot write %s/%s: %s", dir, file, strerror(errno));
    return 0;
}

int sl_results_write(sl_results *res, const sl_record *r, int dist, sl_err *err)
{
    char key[SL_KEY_LEN];
    if (sl_rowctx_key(r->ctx, r->variant, key, sizeof key))
        return sl_err_set(err, "the key of %s is longer than %d bytes", r->variant, SL_KEY_LEN - 1);
    if (dist && r->row->values && res->dist) {
        for (size_t i = 0; i < r->row->nvalues; i++)
            if (sl_schema_write_row(res->dist, &sl_dist_schema, r, i, err)) return -1;
        if (flushed(res->dist, res->dir, sl_dist_schema.file, err)) return -1;
    }
    if (sl_schema_write_row(res->csv, &sl_results_schema, r, 0, err) ||
        flushed(res->csv, res->dir, sl_results_schema.file, err))
        return -1;
    if (sl_keyset_add(&res->keys, key) < 0) return sl_err_set(err, "out of memory");
    return 0;
}

int sl_results_close(sl_results *res, sl_err *err)
{
    int bad = 0;
    if (res->csv && fclose(res->csv) != 0) bad = 1;
    if (res->dist && fclose(res->dist) != 0) bad = 1;
    res->csv = res->dist = NULL;
    if (bad) return sl_err_set(err, "cannot write the results files in %s: %s", res->dir, strerror(errno));
    return 0;
}

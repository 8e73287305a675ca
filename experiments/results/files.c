/* files.c: the results files of a run directory (sl_results.h): opened fresh or resumed (an
 * interrupted last line cut, the keys loaded, duplicated keys refused, distribution.csv
 * repaired), created whole (header written, fsync'ed, renamed), one flushed line per record,
 * the key set kept in step. */
#define _POSIX_C_SOURCE 200809L  /* open_memstream, strndup */
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

/* Loads the keys of an existing results.csv (cutting an interrupted last line). A key seen
 * twice (two runs wrote into one directory) is refused: the file is not one run's rows. */
static int load_results(sl_results *res, const char *rpath, int quiet, sl_err *err)
{
    sl_csv t;
    int truncated = 0;
    if (sl_csv_read(rpath, &t, &truncated, err)) return -1;
    if (!sl_schema_matches(&sl_results_schema, &t)) {
        sl_csv_free(&t);
        return sl_err_set(err, "%s has other columns than this sumlab writes: cannot resume into it", rpath);
    }
    char key[SL_KEY_LEN];
    size_t dups = 0, first_dup = 0;
    for (size_t r = 0; r < t.nrows; r++) {
        if (sl_csv_key(&t, r, key, sizeof key)) {
            sl_csv_free(&t);
            return sl_err_set(err, "%s: row %zu has a key longer than %d bytes", rpath, r + 1, SL_KEY_LEN - 1);
        }
        int a = sl_keyset_add(&res->keys, key);
        if (a < 0) { sl_csv_free(&t); return sl_err_set(err, "out of memory"); }
        if (a == 0 && dups++ == 0) first_dup = r + 1;
    }
    if (dups) {
        sl_csv_free(&t);
        return sl_err_set(err, "%s holds %zu duplicated rows (the first is data row %zu): two runs "
                               "wrote into this directory, so it is not one run's results; cannot "
                               "resume into it", rpath, dups, first_dup);
    }
    if (truncated) {
        if (cut_after_last_newline(rpath, err)) { sl_csv_free(&t); return -1; }
        if (!quiet) fprintf(stderr, "sumlab run: dropped an interrupted last line of %s\n", rpath);
    }
    res->rows_before = (long)t.nrows;
    sl_csv_free(&t);
    return 0;
}

/* The header line of schema s, as sl_schema_write_header writes it, in a malloc'ed string. */
static char *header_text(const sl_schema *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    int bad = sl_schema_write_header(m, s);
    if (fclose(m) != 0 || bad) { free(buf); return NULL; }
    return buf;
}

/* distribution.csv: rewritten whole with its header and only the rows whose results row
 * exists (it is written before it); lines that are not one of its rows (an interrupted write
 * the next run appended to, a missing or damaged header) are dropped and counted. */
static int repair_dist(sl_results *res, const char *dpath, int quiet, sl_err *err)
{
    size_t len;
    char *buf = sl_slurp(dpath, &len, err);
    if (!buf) return -1;
    char *hdr = header_text(&sl_dist_schema);
    if (!hdr) { free(buf); return sl_err_set(err, "cannot rewrite %s: out of memory", dpath); }
    size_t hl = strlen(hdr);
    char *out = NULL;
    size_t olen = 0;
    FILE *o = open_memstream(&out, &olen);
    if (!o) { free(buf); free(hdr); return sl_err_set(err, "cannot rewrite %s: out of memory", dpath); }
    fputs(hdr, o);
    const int nc = (int)sl_dist_schema.ncols;
    int kcol[SL_KEY_FIELDS];           /* where each key field stands in a distribution row */
    for (int i = 0; i < SL_KEY_FIELDS; i++)
        for (kcol[i] = 0; kcol[i] < nc && strcmp(sl_dist_schema.cols[kcol[i]]->name, sl_key_columns[i]); kcol[i]++) {}
    size_t damaged = 0, orphans = 0;
    char *p = buf, *endbuf = buf + len;
    while (p < endbuf) {
        char *nl = memchr(p, '\n', (size_t)(endbuf - p));
        if (!nl) { damaged++; break; }           /* an interrupted last line */
        size_t ll = (size_t)(nl - p) + 1;
        char *line = p;
        p = nl + 1;
        if (ll == hl && !memcmp(line, hdr, hl)) continue;
        if (line[0] == '#' || ll == 1) continue;
        char *copy = strndup(line, ll - 1);
        if (!copy) { damaged = (size_t)-1; break; }
        if (ll > 1 && copy[ll - 2] == '\r') copy[ll - 2] = '\0';
        char *f[128];
        char key[SL_KEY_LEN];
        int nf = sl_csv_split(copy, f, 128);
        const char *kf[SL_KEY_FIELDS];
        int ok = nf == nc;
        for (int i = 0; ok && i < SL_KEY_FIELDS; i++) kf[i] = f[kcol[i]];
        if (!ok || sl_row_key(key, sizeof key, kf)) damaged++;
        else if (!sl_keyset_has(&res->keys, key)) orphans++;
        else fwrite(line, 1, ll, o);
        free(copy);
    }
    free(buf);
    free(hdr);
    int bad = fclose(o) != 0 || damaged == (size_t)-1;
    int rc = bad ? sl_err_set(err, "cannot rewrite %s: out of memory", dpath)
                 : sl_write_atomic(dpath, out, olen, err);
    free(out);
    if (!rc && damaged && !quiet)
        fprintf(stderr, "sumlab run: dropped %zu damaged line%s of %s\n", damaged, damaged == 1 ? "" : "s", dpath);
    (void)orphans;   /* rows of a measurement whose results row was never written: measured again */
    return rc;
}

/* A new file holding only the header of s, created whole. */
static int create_with_header(const char *path, const sl_schema *s, sl_err *err)
{
    char *hdr = header_text(s);
    if (!hdr) return sl_err_set(err, "cannot write %s: out of memory", path);
    int rc = sl_write_atomic(path, hdr, strlen(hdr), err);
    free(hdr);
    return rc;
}

int sl_results_open(sl_results *res, const char *dir, int resume, int quiet, sl_err *err)
{
    char rpath[SL_DIR_MAX + 64], dpath[SL_DIR_MAX + 64];
    memset(res, 0, sizeof *res);
    if (sl_check_dir_len(dir, err)) return -1;
    snprintf(res->dir, sizeof res->dir, "%s", dir);
    if (sl_path_join(rpath, sizeof rpath, dir, sl_results_schema.file, err) ||
        sl_path_join(dpath, sizeof dpath, dir, sl_dist_schema.file, err))
        return -1;
    const int have_results = resume && file_exists(rpath) && sl_run_has_rows(dir);
    if (have_results && load_results(res, rpath, quiet, err)) return -1;
    if (have_results && file_exists(dpath) && repair_dist(res, dpath, quiet, err)) return -1;
    if (!have_results && create_with_header(rpath, &sl_results_schema, err)) return -1;
    if (!(have_results && file_exists(dpath)) && create_with_header(dpath, &sl_dist_schema, err)) return -1;
    res->csv = fopen(rpath, "a");
    if (!res->csv) return sl_err_set(err, "cannot write %s: %s", rpath, strerror(errno));
    res->dist = fopen(dpath, "a");
    if (!res->dist) return sl_err_set(err, "cannot write %s: %s", dpath, strerror(errno));
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
    errno = 0;
    if (fflush(f) != 0 || ferror(f))
        return sl_err_set(err, "cannot write %s/%s: %s", dir, file, strerror(errno ? errno : EIO));
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
    char rpath[SL_DIR_MAX + 64], dpath[SL_DIR_MAX + 64];
    sl_path_join(rpath, sizeof rpath, res->dir, sl_results_schema.file, NULL);
    sl_path_join(dpath, sizeof dpath, res->dir, sl_dist_schema.file, NULL);
    int bad = 0;
    if (res->csv && sl_fclose_checked(res->csv, rpath, 1, err)) bad = 1;
    if (res->dist && sl_fclose_checked(res->dist, dpath, 1, bad ? NULL : err)) bad = 1;
    res->csv = res->dist = NULL;
    return bad ? -1 : 0;
}

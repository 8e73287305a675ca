/* run_csv.c: the results.csv / distribution.csv schema, the row writer (one flushed line per
 * measurement), the key set behind --resume, and a small CSV reader used by resume, the
 * report and `sumlab compare`. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sl_experiments.h"
#include "sl_format.h"

const char *const sl_results_columns[] = {
    "experiment", "dataset", "params", "dtype", "n", "variant", "config", "sweep", "sweep_value",
    "family", "det_class", "backend", "block", "grid", "sm_count", "items", "seed", "reps",
    "status", "result", "result_hex", "exact", "exact_hex", "distinct", "min_hex", "max_hex",
    "spread_ulps", "abs_err", "rel_err", "ulps", "ulps_median", "ulps_max", "bound_abs",
    "bound_rel", "bound_ratio", "cond", "abssum", "unit_roundoff", "time_ms_median", "time_ms_min",
    "time_ms_max", "gbps", "twin_checked", "twin_match", "note", NULL};

const char *const sl_dist_columns[] = {
    "experiment", "dataset", "params", "dtype", "n", "variant", "config",
    "backend", "value", "value_hex", "count", "ulps_signed", NULL};

/* ---- key set: open addressing over strdup'ed keys ---------------------------------------- */
static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return h;
}

int sl_keyset_has(const sl_keyset *k, const char *key)
{
    if (!k->cap) return 0;
    for (size_t i = hash_str(key) & (k->cap - 1);; i = (i + 1) & (k->cap - 1)) {
        if (!k->slot[i]) return 0;
        if (!strcmp(k->slot[i], key)) return 1;
    }
}

int sl_keyset_add(sl_keyset *k, const char *key)
{
    if (sl_keyset_has(k, key)) return 0;
    if ((k->count + 1) * 2 > k->cap) {
        size_t ncap = k->cap ? k->cap * 2 : 256;
        char **ns = calloc(ncap, sizeof *ns);
        if (!ns) return -1;
        for (size_t i = 0; i < k->cap; i++) {
            if (!k->slot[i]) continue;
            size_t j = hash_str(k->slot[i]) & (ncap - 1);
            while (ns[j]) j = (j + 1) & (ncap - 1);
            ns[j] = k->slot[i];
        }
        free(k->slot);
        k->slot = ns;
        k->cap = ncap;
    }
    char *dup = strdup(key);
    if (!dup) return -1;
    size_t i = hash_str(key) & (k->cap - 1);
    while (k->slot[i]) i = (i + 1) & (k->cap - 1);
    k->slot[i] = dup;
    k->count++;
    return 1;
}

void sl_keyset_free(sl_keyset *k)
{
    for (size_t i = 0; i < k->cap; i++) free(k->slot[i]);
    free(k->slot);
    memset(k, 0, sizeof *k);
}

/* ---- CSV reader ------------------------------------------------------------------------- */
/* Splits one line (no '\n') into fields in place; quoted fields per RFC 4180. Returns the
 * field count (fields stored up to max). */
static int split_line(char *line, char **fields, int max)
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

static char *slurp(const char *path, size_t *len, sl_err *err)
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

int sl_csv_read(const char *path, sl_csv *t, int *truncated, sl_err *err)
{
    memset(t, 0, sizeof *t);
    if (truncated) *truncated = 0;
    size_t len = 0;
    char *buf = slurp(path, &len, err);
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
        int nf = split_line(line, f, 128);
        if (nf > 128) { sl_csv_free(t); free(buf); return sl_err_set(err, "%s:%ld: too many fields", path, lineno); }
        if (!t->header) {
            t->ncols = nf;
            t->header = calloc((size_t)nf, sizeof *t->header);
            if (!t->header) { free(buf); return sl_err_set(err, "out of memory"); }
            for (int c = 0; c < nf; c++) t->header[c] = strdup(f[c]);
            continue;
        }
        if (nf != t->ncols) {
            int nc = t->ncols;
            sl_csv_free(t);
            free(buf);
            return sl_err_set(err, "%s:%ld: %d fields where the header has %d (malformed results file)",
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
        for (int c = 0; c < nf; c++) row[c] = strdup(f[c]);
        t->cell[t->nrows++] = row;
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

/* ---- row context and keys -------------------------------------------------------------- */
void sl_rowctx_params(sl_rowctx *c, const sl_dataset *ds, const sl_params *p)
{
    size_t used = 0;
    c->params[0] = '\0';
    for (int k = 0; ds && k < ds->nparams && used < sizeof c->params; k++) {
        char choice[64];
        const char *name = sl_param_choice(&ds->params[k], p->v[k], choice, sizeof choice);
        int w = name ? snprintf(c->params + used, sizeof c->params - used, "%s%s=%s",
                                k ? ";" : "", ds->params[k].name, name)
                     : snprintf(c->params + used, sizeof c->params - used, "%s%s=%.6g",
                                k ? ";" : "", ds->params[k].name, p->v[k]);
        if (w < 0) break;
        used += (size_t)w;
    }
    for (char *q = c->params; *q; q++)
        if (*q == ',') *q = ';';
}

void sl_rowctx_key(const sl_rowctx *c, const char *variant, char *buf, size_t len)
{
    char n[32];
    snprintf(n, sizeof n, "%llu", (unsigned long long)c->n);
    snprintf(buf, len, SL_KEY_FMT, c->experiment, c->ds ? c->ds->name : "-", c->params,
             sl_dtype_name(c->dt), n, variant, c->config);
}

int sl_run_has(const sl_run *run, const sl_rowctx *c, const char *variant)
{
    char key[1024];
    sl_rowctx_key(c, variant, key, sizeof key);
    return sl_keyset_has(&run->keys, key);
}

void sl_run_note(sl_run *run, const char *fmt, ...)
{
    if (run->nnotes >= (int)(sizeof run->notes / sizeof run->notes[0])) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->notes[run->nnotes], sizeof run->notes[0], fmt, ap);
    va_end(ap);
    for (int i = 0; i < run->nnotes; i++)      /* the same note twice (resume) once */
        if (!strcmp(run->notes[i], run->notes[run->nnotes])) return;
    run->nnotes++;
}

/* ---- writing ------------------------------------------------------------------------ */
static void put(FILE *f, const char *s, int last)
{
    sl_csv_field(f, s ? s : "");
    fputc(last ? '\n' : ',', f);
}

static void putd(FILE *f, double v, int prec)
{
    char b[SL_FMT_LEN];
    if (isnan(v)) b[0] = '\0';
    else sl_fmt_double(b, sizeof b, v, prec);
    put(f, b, 0);
}

static void putu(FILE *f, uint64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    put(f, b, 0);
}

static int cmp_double_bits(const void *a, const void *b)
{
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    double dx = *(const double *)a, dy = *(const double *)b;
    if (dx < dy) return -1;
    if (dx > dy) return 1;
    return x < y ? -1 : x > y;
}

static void key_fields(FILE *f, const sl_rowctx *c, const char *vname)
{
    char n[32];
    snprintf(n, sizeof n, "%llu", (unsigned long long)c->n);
    put(f, c->experiment, 0);
    put(f, c->ds ? c->ds->name : "-", 0);
    put(f, c->params, 0);
    put(f, sl_dtype_name(c->dt), 0);
    put(f, n, 0);
    put(f, vname, 0);
    put(f, c->config, 0);
}

/* Signed distance of value from the exact sum, in ulps of the rounded exact sum. */
static double signed_ulps(const sl_reference *ref, double value, sl_dtype dt)
{
    if (!ref || isnan(value)) return NAN;
    sl_errors e = sl_reference_errors(ref, value, dt);
    if (!ref->finite) return e.ulps;
    int s = mpfr_cmp_d(ref->sum, value);     /* > 0: value below the exact sum */
    return s > 0 ? -e.ulps : e.ulps;
}

int sl_run_write(sl_run *run, const sl_rowctx *c, const sl_variant *v, const char *vname,
                 const char *status, const sl_row *row, const sl_reference *ref, int dist,
                 const char *note, sl_err *err)
{
    FILE *f = run->csv;
    char b[SL_FMT_LEN], b2[SL_FMT_LEN];
    const int have = row != NULL;
    sl_dtype dt = c->dt;
    sl_dtype out_dt = dt;

    if (dist && have && row->results && row->reps > 0 && run->dist) {
        double *vals = malloc((size_t)row->reps * sizeof *vals);
        if (!vals) return sl_err_set(err, "out of memory");
        memcpy(vals, row->results, (size_t)row->reps * sizeof *vals);
        qsort(vals, (size_t)row->reps, sizeof *vals, cmp_double_bits);
        for (int i = 0; i < row->reps;) {
            int j = i + 1;
            while (j < row->reps && !memcmp(&vals[j], &vals[i], sizeof(double))) j++;
            key_fields(run->dist, c, vname);
            put(run->dist, row->backend, 0);
            put(run->dist, sl_fmt_result(b, sizeof b, vals[i], out_dt), 0);
            put(run->dist, sl_fmt_hex(b2, sizeof b2, vals[i]), 0);
            snprintf(b, sizeof b, "%d", j - i);
            put(run->dist, b, 0);
            double su = signed_ulps(ref, vals[i], out_dt);
            if (isnan(su)) b[0] = '\0';
            else sl_fmt_double(b, sizeof b, su, 6);
            put(run->dist, b, 1);
            i = j;
        }
        free(vals);
        fflush(run->dist);
    }

    key_fields(f, c, vname);
    put(f, c->sweep ? c->sweep : "n", 0);
    if (c->sweep && !isnan(c->sweep_value)) putd(f, c->sweep_value, 17);
    else putu(f, c->n);
    put(f, v ? v->family : (vname && !strcmp(vname, "read-ceiling") ? "ceiling" : ""), 0);
    put(f, v ? sl_determinism_name(v->determinism) : "", 0);
    put(f, have ? row->backend : (run->on_gpu ? "gpu" : "cpu"), 0);
    if (have && v) {
        putu(f, row->cfg.block);
        putu(f, row->cfg.grid);
        putu(f, row->cfg.sm_count);
        putu(f, row->cfg.items);
    } else {
        put(f, "", 0); put(f, "", 0); put(f, "", 0); put(f, "", 0);
    }
    putu(f, run->seed);
    if (have) putu(f, (uint64_t)row->reps); else put(f, "", 0);
    put(f, status, 0);

    double ulps_med = NAN, ulps_max = NAN;
    if (have && v && row->results && row->reps > 0 && ref) {
        double *u = malloc((size_t)row->reps * sizeof *u);
        if (!u) return sl_err_set(err, "out of memory");
        for (int r = 0; r < row->reps; r++) u[r] = sl_reference_errors(ref, row->results[r], out_dt).ulps;
        ulps_med = sl_median(u, (size_t)row->reps);
        ulps_max = u[row->reps - 1];
        free(u);
    }
    const int judged = have && v && ref;
    if (judged) {
        put(f, sl_fmt_result(b, sizeof b, row->result, out_dt), 0);
        put(f, sl_fmt_hex(b, sizeof b, row->result), 0);
    } else { put(f, "", 0); put(f, "", 0); }
    if (ref) {
        put(f, sl_fmt_result(b, sizeof b, ref->rounded, dt), 0);
        put(f, sl_fmt_hex(b, sizeof b, ref->rounded), 0);
    } else { put(f, "", 0); put(f, "", 0); }
    if (judged) {
        putu(f, row->distinct);
        put(f, sl_fmt_hex(b, sizeof b, row->min_result), 0);
        put(f, sl_fmt_hex(b, sizeof b, row->max_result), 0);
        putd(f, row->spread_ulps, 6);
        putd(f, row->err.abs_err, 6);
        putd(f, row->err.rel_err, 6);
        putd(f, row->err.ulps, 6);
        putd(f, ulps_med, 6);
        putd(f, ulps_max, 6);
        putd(f, row->bound, 6);
        double s = fabs(ref->rounded_f64);
        putd(f, isnan(row->bound) ? NAN : (s > 0 ? row->bound / s : INFINITY), 6);
        double ratio = NAN;
        if (row->bound > 0) ratio = row->err.abs_err / row->bound;
        else if (row->bound == 0) ratio = row->err.abs_err == 0 ? 0 : INFINITY;
        putd(f, ratio, 6);
    } else {
        for (int i = 0; i < 12; i++) put(f, "", 0);
    }
    if (ref) { putd(f, ref->cond, 6); putd(f, ref->abssum, 6); }
    else { put(f, "", 0); put(f, "", 0); }
    putd(f, sl_unit_roundoff(dt), 6);   /* of the input/output format */
    if (have && row->reps > 0 && !isnan(row->time_ms_median)) {
        putd(f, row->time_ms_median, 6);
        putd(f, row->time_ms_min, 6);
        putd(f, row->time_ms_max, 6);
        putd(f, row->gbps, 6);
    } else {
        put(f, "", 0); put(f, "", 0); put(f, "", 0); put(f, "", 0);
    }
    if (have && v) {
        putu(f, (uint64_t)row->twin_checked);
        if (row->twin_checked) putu(f, (uint64_t)row->twin_match); else put(f, "", 0);
    } else { put(f, "", 0); put(f, "", 0); }
    char clean[512];
    snprintf(clean, sizeof clean, "%s", note ? note : "");
    for (char *q = clean; *q; q++)
        if (*q == ',' || *q == '\n' || *q == '\r' || *q == '"') *q = (*q == ',') ? ';' : ' ';
    put(f, clean, 1);
    if (fflush(f) != 0 || ferror(f)) return sl_err_set(err, "cannot write %s/results.csv: %s", run->dir, strerror(errno));

    char key[1024];
    sl_rowctx_key(c, vname, key, sizeof key);
    if (sl_keyset_add(&run->keys, key) < 0) return sl_err_set(err, "out of memory");
    run->rows_written++;
    if (run->max_rows > 0 && run->rows_written >= run->max_rows) run->stop = 1;
    return 0;
}

/* ---- opening the files (fresh or resumed) --------------------------------------------- */
static int write_header(FILE *f, const char *const *cols)
{
    for (int i = 0; cols[i]; i++) {
        fputs(cols[i], f);
        fputc(cols[i + 1] ? ',' : '\n', f);
    }
    return fflush(f);
}

static int header_matches(const sl_csv *t, const char *const *cols)
{
    int i = 0;
    for (; cols[i]; i++)
        if (i >= t->ncols || strcmp(t->header[i], cols[i])) return 0;
    return i == t->ncols;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Cuts path after its last '\n' (drops an interrupted last line). */
static int cut_after_last_newline(const char *path, sl_err *err)
{
    size_t len;
    char *buf = slurp(path, &len, err);
    if (!buf) return -1;
    char *nl = NULL;
    for (size_t i = len; i > 0; i--)
        if (buf[i - 1] == '\n') { nl = buf + i - 1; break; }
    off_t keep = nl ? (off_t)(nl - buf + 1) : 0;
    free(buf);
    if (truncate(path, keep) != 0) return sl_err_set(err, "cannot repair %s: %s", path, strerror(errno));
    return 0;
}

int sl_run_open_files(sl_run *run, int resume, sl_err *err)
{
    char rpath[1100], dpath[1100];
    snprintf(rpath, sizeof rpath, "%s/results.csv", run->dir);
    snprintf(dpath, sizeof dpath, "%s/distribution.csv", run->dir);
    int have_results = resume && file_exists(rpath);
    if (have_results) {
        sl_csv t;
        int truncated = 0;
        if (sl_csv_read(rpath, &t, &truncated, err)) return -1;
        if (!header_matches(&t, sl_results_columns)) {
            sl_csv_free(&t);
            return sl_err_set(err, "%s has other columns than this sumlab writes: cannot resume into it", rpath);
        }
        if (truncated) {
            if (cut_after_last_newline(rpath, err)) { sl_csv_free(&t); return -1; }
            if (!run->quiet) fprintf(stderr, "sumlab run: dropped an interrupted last line of %s\n", rpath);
        }
        char key[1024];
        for (size_t r = 0; r < t.nrows; r++) {
            snprintf(key, sizeof key, SL_KEY_FMT, t.cell[r][0], t.cell[r][1], t.cell[r][2],
                     t.cell[r][3], t.cell[r][4], t.cell[r][5], t.cell[r][6]);
            if (sl_keyset_add(&run->keys, key) < 0) { sl_csv_free(&t); return sl_err_set(err, "out of memory"); }
        }
        run->rows_skipped_resume = (long)t.nrows;
        sl_csv_free(&t);
    }
    /* distribution.csv: keep only rows whose results row exists (written before it). */
    if (have_results && file_exists(dpath)) {
        sl_csv d;
        int truncated = 0;
        if (sl_csv_read(dpath, &d, &truncated, err)) return -1;
        if (!header_matches(&d, sl_dist_columns)) {
            sl_csv_free(&d);
            return sl_err_set(err, "%s has other columns than this sumlab writes: cannot resume into it", dpath);
        }
        char tmp[1200];
        snprintf(tmp, sizeof tmp, "%s.tmp", dpath);
        FILE *o = fopen(tmp, "w");
        if (!o) { sl_csv_free(&d); return sl_err_set(err, "cannot write %s: %s", tmp, strerror(errno)); }
        write_header(o, sl_dist_columns);
        char key[1024];
        for (size_t r = 0; r < d.nrows; r++) {
            snprintf(key, sizeof key, SL_KEY_FMT, d.cell[r][0], d.cell[r][1], d.cell[r][2],
                     d.cell[r][3], d.cell[r][4], d.cell[r][5], d.cell[r][6]);
            if (!sl_keyset_has(&run->keys, key)) continue;
            for (int c = 0; c < d.ncols; c++) put(o, d.cell[r][c], c == d.ncols - 1);
        }
        sl_csv_free(&d);
        if (fclose(o) != 0 || rename(tmp, dpath) != 0)
            return sl_err_set(err, "cannot rewrite %s: %s", dpath, strerror(errno));
    }
    int new_results = !have_results;
    int new_dist = !(have_results && file_exists(dpath));
    run->csv = fopen(rpath, new_results ? "w" : "a");
    if (!run->csv) return sl_err_set(err, "cannot write %s: %s", rpath, strerror(errno));
    run->dist = fopen(dpath, new_dist ? "w" : "a");
    if (!run->dist) return sl_err_set(err, "cannot write %s: %s", dpath, strerror(errno));
    if (new_results && write_header(run->csv, sl_results_columns)) return sl_err_set(err, "cannot write %s", rpath);
    if (new_dist && write_header(run->dist, sl_dist_columns)) return sl_err_set(err, "cannot write %s", dpath);
    return 0;
}

void sl_run_close_files(sl_run *run)
{
    if (run->csv) fclose(run->csv);
    if (run->dist) fclose(run->dist);
    run->csv = run->dist = NULL;
}

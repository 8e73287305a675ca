/* sl_results.h: the results of a study on disk: the row key, the column tables of results.csv
 * and distribution.csv (name, unit, formatter), their writer and the one CSV reader, the key
 * set behind --resume, run.conf, meta.json (cJSON) and the notes a run leaves for its report. */
#ifndef SL_RESULTS_H
#define SL_RESULTS_H
#include <stdio.h>
#include "sl_datasets.h"
#include "sl_format.h"
#include "sl_measure.h"
#include "sl_provenance.h"
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest run directory name accepted (its files' paths then fit every buffer). */
#define SL_DIR_MAX 900

/* ---- a CSV file read whole (results.csv, distribution.csv) ------------------------------- */
typedef struct {
    int ncols;
    char **header;
    size_t nrows;
    char ***cell;          /* cell[r][c]; rows with a wrong field count are rejected */
} sl_csv;
/* Reads path (or path.gz, gzip, when path does not exist: a damaged or truncated stream is an
 * error); '#' lines are comments. A last line without '\n' is dropped and reported in
 * *truncated (may be NULL). Returns 0, or -1 with err naming the file and line. */
int sl_csv_read(const char *path, sl_csv *t, int *truncated, sl_err *err);
void sl_csv_free(sl_csv *t);
/* Splits one line (no '\n') into fields in place (RFC 4180 quotes); returns the field count
 * (fields stored up to max). */
int sl_csv_split(char *line, char **fields, int max);
int sl_csv_col(const sl_csv *t, const char *name);            /* index or -1 */
const char *sl_csv_get(const sl_csv *t, size_t r, int col);   /* "" when col < 0 */
double sl_csv_num(const sl_csv *t, size_t r, int col);        /* NaN when empty/unparsable */
/* The whole file in a malloc'ed, NUL-terminated buffer; NULL with err on failure. */
char *sl_slurp(const char *path, size_t *len, sl_err *err);

/* ---- the row key: op experiment dataset params dtype n variant config ---------------------- */
#define SL_KEY_FIELDS 8
#define SL_KEY_LEN 1024
/* The one key function: the fields joined by '|'. Returns 0, or -1 when buf is too short. */
int sl_row_key(char *buf, size_t len, const char *const fields[SL_KEY_FIELDS]);
/* The names of the key's columns, in key order. */
extern const char *const sl_key_columns[SL_KEY_FIELDS];
/* The key of row r of a results/distribution table (its columns op, experiment, dataset,
 * params, dtype, n, variant, config, and "|i=K" when its `instance` column holds K > 0). A table
 * without an `op` column was written before the operation axis: its rows are sums. */
int sl_csv_key(const sl_csv *t, size_t r, char *buf, size_t len);

/* A set of row keys (for --resume). */
typedef struct {
    char **slot;
    size_t cap, count;
} sl_keyset;
int sl_keyset_add(sl_keyset *k, const char *key);      /* 1 added, 0 present, -1 no memory */
int sl_keyset_has(const sl_keyset *k, const char *key);
void sl_keyset_free(sl_keyset *k);

/* ---- one row: its context (the key and the swept quantity) and its figures ----------------- */
typedef struct {
    const char *experiment;
    const sl_operation *op;    /* the operation of the row's variants (NULL: sl_op_default()) */
    const sl_dataset *ds;
    char params[256];          /* "key=value;key=value" (no commas) */
    sl_dtype dt;
    uint64_t n;
    const char *config;        /* "default", "cfg:block128", "perm:reversed", ... */
    const char *sweep;         /* swept quantity ("n", "cond", "binades", lse's "sigma"; NULL: n) */
    double sweep_value;        /* its value (NaN: n) */
    int instance;              /* which of the point's instances (`run --seeds K`): 0 .. K-1;
                                  part of the key only when > 0 (so default runs keep theirs) */
} sl_rowctx;
void sl_rowctx_params(sl_rowctx *c, const sl_dataset *ds, const sl_params *p);
const sl_operation *sl_rowctx_op(const sl_rowctx *c);     /* c->op, or the default operation */
int sl_rowctx_key(const sl_rowctx *c, const char *variant, char *buf, size_t len);

/* Figures a command adds to a row: the bench's comparison with CUB and the read ceiling, and a
 * sum across MPI ranks. NaN / NULL / 0 for what is absent (sl_record_extra_init). */
typedef struct {
    double ratio_cub, ratio_read;      /* CUB's (read's) median time / the variant's */
    double cub_ms_median, read_ms_median;
    double abs_err_max;                /* the largest |result - S| over every run */
    const char *check;                 /* the self-check verdict: "ok" or "FAILED" */
    const char *bound_of;              /* judge: the variant whose bound the row carries */
    const char *value_as;              /* judge: how the value was read (exact hex, nearest of) */
    int ranks;                         /* MPI ranks (0: not a sum across ranks) */
    const char *combine;               /* how their partial results combined */
    double local_ms_max, combine_ms, allreduce1_ms;
    /* rows (a reduction along an axis, kernels/rows): the row's index (-1: not a row), and the
     * bench's summary over rows: rows reduced, median and largest ulps over them (NaN: none) */
    int64_t row;
    uint64_t rows;
    double rows_ulps_median, rows_ulps_max;
} sl_record_extra;
void sl_record_extra_init(sl_record_extra *x);

/* What a writer formats: the context, the names, the status and the measured figures. */
typedef struct {
    const sl_rowctx *ctx;
    const char *variant;       /* name in the key */
    const char *family;        /* "" when none */
    const char *det_class;     /* "" when none */
    const char *status;        /* ok, skipped */
    const char *note;          /* NULL or "" when none */
    uint64_t seed;             /* the dataset seed of this row's instance */
    const sl_row *row;         /* every figure (the have_* flags say which are there) */
    int instances;             /* instances per point of the run (0: 1) */
    /* for the commands' columns (NULL/0 in the study's files): */
    const sl_reference *ref;   /* the input's reference (ulps_f64) */
    const sl_exact_text *S;    /* the exact value written out exactly (exact_sum_*) */
    int digits;                /* significant digits of judged figures (0: 17, round trip) */
    const sl_record_extra *x;  /* the bench's and the ranks' figures (NULL: none) */
} sl_record;

/* ---- the one column table ------------------------------------------------------------------ */
/* Every column any output has: results.csv, distribution.csv, and the tables, CSV and JSON of
 * `sum`/`reduce`, `bench` and `judge`, which print subsets of it by name (--columns), so a name
 * means one thing everywhere. A formatter writes column text of record r (i: which distinct
 * value, for distribution rows) into buf and returns it, or returns a string of the record
 * itself; "" for an empty field; NULL when the text does not fit in len. */
typedef const char *(*sl_col_fmt)(const sl_record *r, size_t i, char *buf, size_t len);
typedef enum { SL_COL_STR = 0, SL_COL_NUM, SL_COL_BOOL } sl_col_kind;  /* JSON type */
typedef struct {
    const char *name;
    const char *unit;          /* "" for counts, names and ratios */
    sl_col_kind kind;
    sl_col_fmt fmt;
    const char *help;          /* one line, for --help and docs */
} sl_column;
size_t sl_column_count(void);
const sl_column *sl_column_at(size_t i);
const sl_column *sl_column_find(const char *name);        /* NULL when unknown */

/* A choice of columns, in order. */
#define SL_COLSET_MAX 96
typedef struct {
    const sl_column *col[SL_COLSET_MAX];
    size_t n;
} sl_colset;
/* From names (each known, none twice); -1 with err naming the first bad one. */
int sl_colset_names(sl_colset *cs, const char *const *names, size_t n, sl_err *err);
/* From "a,b,c" (--columns); -1 with err naming the first bad one. */
int sl_colset_parse(sl_colset *cs, const char *list, sl_err *err);
int sl_colset_has(const sl_colset *cs, const char *name);
/* A table (sl_format.h) with these columns, and one row of record r appended to it (an empty
 * field is null; numbers and booleans typed for JSON). -1 (err) when a field does not fit or
 * memory runs out. */
sl_table *sl_colset_table(const sl_colset *cs);
int sl_colset_row(sl_table *t, const sl_colset *cs, const sl_record *r, size_t i, sl_err *err);

typedef struct {
    const char *file;          /* "results.csv", "distribution.csv" */
    const sl_column *const *cols;
    size_t ncols;
} sl_schema;
extern const sl_schema sl_results_schema;   /* one row per measurement */
extern const sl_schema sl_dist_schema;      /* one row per distinct result of a measurement */

int sl_schema_write_header(FILE *f, const sl_schema *s);
/* One CSV line of record r (value i for the distribution). 0, or -1 (err) on a field too long;
 * the caller checks the stream (fflush, ferror). */
int sl_schema_write_row(FILE *f, const sl_schema *s, const sl_record *r, size_t i, sl_err *err);
int sl_schema_matches(const sl_schema *s, const sl_csv *t);   /* 1 when t has exactly its columns */

/* ---- the results files of a run directory ----------------------------------------------- */
typedef struct {
    char dir[SL_DIR_MAX + 1];
    FILE *csv, *dist;
    sl_keyset keys;            /* rows present in results.csv */
    long rows_before;          /* rows found there when resuming */
} sl_results;
/* Opens DIR/results.csv and DIR/distribution.csv for appending (header when new); when
 * resuming, drops a truncated last line (a line on stderr unless quiet), loads the keys and
 * drops distribution rows whose results row is missing. */
int sl_results_open(sl_results *res, const char *dir, int resume, int quiet, sl_err *err);
int sl_results_has(const sl_results *res, const sl_rowctx *c, const char *variant);
/* Writes the distribution rows of r (when dist and r has distinct values) and then its results
 * row, each file flushed, and adds its key. 0 or -1 (err). */
int sl_results_write(sl_results *res, const sl_record *r, int dist, sl_err *err);
/* Closes both files; -1 (err) when a close failed. */
int sl_results_close(sl_results *res, sl_err *err);

/* ---- the file-system habits of a run directory (fsio.c) ------------------------------------ */
#define SL_LOCK_FILE ".sumlab.lock"
/* 0, or -1 (err) when dir is longer than SL_DIR_MAX. */
int sl_check_dir_len(const char *dir, sl_err *err);
/* "dir/file" into buf; -1 (err names it) when it does not fit. */
int sl_path_join(char *buf, size_t len, const char *dir, const char *file, sl_err *err);
/* fflush (+ fsync when sync) + fclose; -1 with "cannot write PATH: reason" on any failure. */
int sl_fclose_checked(FILE *f, const char *path, int sync, sl_err *err);
/* Creates path whole: text into path.tmp, fsync, rename (the .tmp removed on failure). */
int sl_write_atomic(const char *path, const char *text, size_t len, sl_err *err);
/* Locks dir for this process and its children (flock on dir/.sumlab.lock, which names the
 * holder). 0 (*fd set), 1 held by another run (err names it), -1 error. */
int sl_run_lock(const char *dir, int *fd, sl_err *err);
void sl_run_unlock(int fd);
/* 1 when dir/results.csv holds at least one complete row after its header (or cannot be read). */
int sl_run_has_rows(const char *dir);
/* Removes a run's files (results, distribution, run.conf, meta.json, report.md, run_notes.txt,
 * their .tmp). */
int sl_run_clear(const char *dir, sl_err *err);

/* ---- run.conf: the settings a run was started with (so --resume continues alike) ----------- */
enum { SL_CONF_EXPERIMENT = 1, SL_CONF_PRESET = 2, SL_CONF_BACKEND = 4, SL_CONF_SEED = 8,
       SL_CONF_REPS = 16, SL_CONF_STARTED = 32, SL_CONF_REQUIRED = 31, SL_CONF_SWEEP = 64 };
/* the sweep lists' room (run.conf's lines hold up to 1,599 characters; 64 sizes of 20 digits
 * take 1,343): a longer list is refused when the run starts, never cut */
#define SL_CONF_LIST 1400
typedef struct {
    char experiment[64], preset[16], backend[16], started[40];
    unsigned long long seed;
    long reps;
    /* the sweep chosen (`run --n/--datasets/--variants/--dtype/--seeds/--baseline`): the
     * lists as given, comma-separated ("" = the experiments' own); seeds: instances per point
     * (1 when absent); baseline: the report's reference variant ("" = pairwise) */
    char n[SL_CONF_LIST], datasets[SL_CONF_LIST], variants[SL_CONF_LIST], dtypes[32], baseline[64];
    char params[512];          /* --param K=V,... ("" none; absent in runs made before it) */
    char files[1400];          /* --files: "file:NAME:HASH16,..." (labels and content hashes; "" none) */
    char op[32];               /* the operation studied ("" in runs before the operation axis: sum) */
    long ddof;                 /* var/std's ddof (-1 when absent: runs before it, the default) */
    long seeds;
    unsigned seen;             /* SL_CONF_* of the keys read */
    char error[1536];          /* after -2: what is wrong, naming the file and the field */
} sl_runconf;
/* 0; -1 no run.conf in dir; -2 a required key missing, or a line or a field malformed (c->error
 * says which; the keys read before it are filled). Every field is read strictly: seed an unsigned
 * decimal, reps 0 (the preset's) to 10^6, seeds 1 to 1000, the lists as `run` writes them (known
 * names, no repeats), backend/preset from their sets. */
int sl_runconf_read(const char *dir, sl_runconf *c);
int sl_runconf_write(const char *dir, const sl_runconf *c, sl_err *err);

/* ---- meta.json: the run's settings and provenance, written and read with cJSON --------------- */
int sl_meta_write(const char *dir, const sl_runconf *c, int resumed, const sl_provenance *p,
                  sl_err *err);
/* What the report shows of meta.json's provenance; "?" for what is absent. */
typedef struct {
    char git_sha[64], git_dirty[8], gpu_name[256], date_utc[40];
} sl_meta;
/* 0, or -1 (err) when meta.json is missing or no JSON (m then holds "?" everywhere). */
int sl_meta_read(const char *dir, sl_meta *m, sl_err *err);

/* ---- notes a run leaves for its report (skipped experiments, charts, interruptions) ---------- */
#define SL_NOTES_MAX 16
typedef struct {
    char line[SL_NOTES_MAX][SL_ERRLEN + 512];
    int n;
} sl_notes;
void sl_notes_add(sl_notes *notes, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The measuring run's notes kept in DIR/run_notes.txt (SL_NOTES_FILE: a header line, then one
 * note a line), so that `run --report-only` renders the Notes the run wrote. A note is printable
 * UTF-8 text (sl_notes_add writes a control byte as a space, a byte of no UTF-8 as '?'); the
 * report escapes it for Markdown where it prints it. Write: 0, or -1 (err); the file is written
 * whole (write, fsync, rename). Read: 0 with *notes filled (empty when the file is absent: a run
 * from before the file), or -1 (err, naming the file and line) when the file is not one this
 * writes: another header, a line longer than a note or without its end, a control character or
 * no UTF-8, more than SL_NOTES_MAX notes, a link or not a regular file. Nothing is cut. */
#define SL_NOTES_FILE "run_notes.txt"
int sl_notes_write(const char *dir, const sl_notes *notes, sl_err *err);
int sl_notes_read(const char *dir, sl_notes *notes, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

/* sl_experiments.h: internals of `sumlab run` and `sumlab compare`: the run context, the
 * results.csv schema (one row per measurement, keyed for --resume), a small CSV reader, the
 * experiment table and the report writer. Not a library: only the CLI uses it. */
#ifndef SL_EXPERIMENTS_H
#define SL_EXPERIMENTS_H
#include <signal.h>
#include <stdio.h>
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_types.h"
#include "sl_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- presets ---------------------------------------------------------------------------- */
/* tiny: tests and smoke checks (seconds); quick: the CPU study (minutes on 2 cores);
 * full: the GPU study (n up to 2^28). Each experiment reads its sizes from sl_exp_sizes. */
typedef enum { SL_PRESET_TINY = 0, SL_PRESET_QUICK, SL_PRESET_FULL } sl_preset;
int sl_preset_parse(const char *s, sl_preset *out);   /* tiny|quick|full; -1 otherwise */
const char *sl_preset_name(sl_preset p);

/* ---- a set of row keys (for --resume) --------------------------------------------------- */
typedef struct {
    char **slot;
    size_t cap, count;
} sl_keyset;
int sl_keyset_add(sl_keyset *k, const char *key);      /* 1 added, 0 present, -1 no memory */
int sl_keyset_has(const sl_keyset *k, const char *key);
void sl_keyset_free(sl_keyset *k);

/* ---- a CSV file read whole (results.csv, distribution.csv) ------------------------------- */
typedef struct {
    int ncols;
    char **header;
    size_t nrows;
    char ***cell;          /* cell[r][c]; rows with a wrong field count are rejected */
} sl_csv;
/* Reads path; '#' lines are comments. A last line without '\n' is dropped and reported in
 * *truncated (may be NULL). Returns 0, or -1 with err naming the file and line. */
int sl_csv_read(const char *path, sl_csv *t, int *truncated, sl_err *err);
void sl_csv_free(sl_csv *t);
int sl_csv_col(const sl_csv *t, const char *name);            /* index or -1 */
const char *sl_csv_get(const sl_csv *t, size_t r, int col);   /* "" when col < 0 */
double sl_csv_num(const sl_csv *t, size_t r, int col);        /* NaN when empty/unparsable */

/* ---- the schema ------------------------------------------------------------------------- */
extern const char *const sl_results_columns[];   /* NULL-terminated */
extern const char *const sl_dist_columns[];
/* The columns that identify a row (its key): experiment dataset params dtype n variant config. */
#define SL_KEY_FMT "%s|%s|%s|%s|%s|%s|%s"

/* ---- the run -------------------------------------------------------------------------- */
typedef struct sl_progress sl_progress;

typedef struct {
    char dir[1024];
    sl_preset preset;
    sl_backend backend;        /* resolved: CPU or GPU */
    int on_gpu;
    uint32_t gpu_sm_count;     /* device SMs (GPU) or SL_DEFAULT_SM_COUNT */
    uint64_t seed;
    int reps_override;         /* 0: preset defaults */
    int quiet;
    FILE *csv, *dist;
    sl_keyset keys;            /* rows present in results.csv */
    long rows_written, rows_skipped_resume;
    long max_rows;             /* SUMLAB_MAX_ROWS (tests): stop after this many new rows */
    int stop;                  /* 1 after a signal or the row limit */
    sl_progress *prog;
    char notes[16][512];       /* skipped experiments etc., for the report */
    int nnotes;
} sl_run;

/* Context of one row: everything in the key plus the dataset description. */
typedef struct {
    const char *experiment;
    const sl_dataset *ds;
    char params[256];          /* "key=value;key=value" (no commas) */
    sl_dtype dt;
    uint64_t n;
    const char *config;        /* "default", "cfg:block128", "perm:reversed", ... */
    const char *sweep;         /* swept quantity ("n", "cond", "binades"; NULL: n) */
    double sweep_value;        /* its value (NaN: n) */
} sl_rowctx;

void sl_rowctx_params(sl_rowctx *c, const sl_dataset *ds, const sl_params *p);
void sl_rowctx_key(const sl_rowctx *c, const char *variant, char *buf, size_t len);
int sl_run_has(const sl_run *run, const sl_rowctx *c, const char *variant);
/* Writes one results.csv row (row may be NULL for a skipped/error row with `note`) and the
 * row's distinct values into distribution.csv when dist is set. Flushes. Counts toward
 * SUMLAB_MAX_ROWS. Returns 0 or -1 (write error, err set). */
int sl_run_write(sl_run *run, const sl_rowctx *c, const sl_variant *v, const char *vname,
                 const char *status, const sl_row *row, const sl_reference *ref, int dist,
                 const char *note, sl_err *err);
void sl_run_note(sl_run *run, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int sl_run_stopped(const sl_run *run);

/* Opens results.csv / distribution.csv in run->dir for appending (header when new); when
 * resuming, drops a truncated last line, loads the keys and drops distribution rows whose
 * results row is missing. */
int sl_run_open_files(sl_run *run, int resume, sl_err *err);
void sl_run_close_files(sl_run *run);

/* ---- progress (stderr: a bar with ETA on a terminal, one line per step otherwise) ----- */
sl_progress *sl_progress_new(int quiet, double total_work);
void sl_progress_step(sl_progress *p, const char *what, double work);  /* announce a step */
void sl_progress_done(sl_progress *p);                                  /* step finished */
void sl_progress_msg(sl_progress *p, const char *fmt, ...);              /* a line above the bar */
void sl_progress_free(sl_progress *p);

/* ---- experiments ---------------------------------------------------------------------- */
typedef struct {
    const char *name;
    const char *description;
    /* work units this experiment will do (for the ETA); 0 when it will be skipped */
    double (*plan)(sl_run *run);
    int (*exec)(sl_run *run, sl_err *err);   /* 0, or -1 (err set) on a failure */
} sl_experiment;
size_t sl_experiment_count(void);
const sl_experiment *sl_experiment_at(size_t i);
const sl_experiment *sl_experiment_find(const char *name);

/* Helpers shared by the experiment files (run.c). */
int sl_exp_reps(const sl_run *run, int preset_default);
/* Generates dataset ds (params p) into a malloc'ed buffer; NULL with err on failure. */
void *sl_exp_generate(const sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt,
                      uint64_t n, sl_err *err);
/* Measures every registry variant on one input into rows of context c. reps_det: reps for
 * deterministic variants, reps_nondet for nondeterministic ones. Skips keys already done. */
int sl_exp_measure_all(sl_run *run, const sl_rowctx *c, const void *x, const sl_launch *req,
                       int reps_det, int reps_nondet, int dist, sl_err *err);
/* One step: generates the input of c (dataset c->ds with params p), announces it on the
 * progress line with `work` units, and measures every variant not yet in results.csv. A
 * generator failure becomes a `skipped` row per variant carrying its message. req NULL: the
 * default launch request (every field derived by the variant; order seed = the run's seed). */
int sl_exp_step(sl_run *run, const sl_rowctx *c, const sl_params *p, const sl_launch *req,
                int reps_det, int reps_nondet, int dist, double work, sl_err *err);
/* Work units of one step (for the ETA): n x variants x (reps + 2). */
double sl_exp_work(uint64_t n, int reps);
/* Steps of n: lo, lo*step, ... <= hi. */
int sl_exp_sizes(uint64_t lo, uint64_t hi, unsigned log2_step, uint64_t *out, int max);

/* The experiment bodies (exp_*.c). */
double sl_exp_acc_n_plan(sl_run *run);
int sl_exp_acc_n(sl_run *run, sl_err *err);
double sl_exp_acc_cond_plan(sl_run *run);
int sl_exp_acc_cond(sl_run *run, sl_err *err);
double sl_exp_acc_range_plan(sl_run *run);
int sl_exp_acc_range(sl_run *run, sl_err *err);
double sl_exp_det_plan(sl_run *run);
int sl_exp_det(sl_run *run, sl_err *err);
double sl_exp_tp_plan(sl_run *run);
int sl_exp_tp(sl_run *run, sl_err *err);
double sl_exp_tradeoff_plan(sl_run *run);
int sl_exp_tradeoff(sl_run *run, sl_err *err);

/* ---- report ---------------------------------------------------------------------------- */
/* Writes DIR/report.md from DIR/results.csv (+ distribution.csv, charts/). notes: lines for a
 * "Notes" section. Returns 0 or -1 with err. */
int sl_report_write(const char *dir, const char *const *notes, int nnotes, sl_err *err);

/* Determinism verdict of one variant over the `determinism` rows of a results table. */
typedef struct {
    char variant[64];
    char claimed[32];
    char verdict[16];          /* PASS, FAIL, n/a */
    char observed[32];         /* strongest class the data supports */
    char detail[256];
    long reps_distinct;        /* distinct results over the reps row(s) (max); -1 none */
    double spread_ulps;        /* max over reps rows */
} sl_det_verdict;
/* Fills up to max verdicts, one per variant seen in the table (registry order first). */
size_t sl_det_verdicts(const sl_csv *t, sl_det_verdict *out, size_t max);

#ifdef __cplusplus
}
#endif
#endif

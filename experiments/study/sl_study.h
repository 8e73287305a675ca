/* sl_study.h: the study engine behind `sumlab run`: presets, the experiment table, the run
 * (its settings, results files, progress and notes) and the steps the experiments share
 * (generate an input, measure the variants not yet done, write their rows). */
#ifndef SL_STUDY_H
#define SL_STUDY_H
#include <pthread.h>
#include <stdio.h>
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_results.h"
#include "sumlab/types.h"
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

/* ---- the run -------------------------------------------------------------------------- */
typedef struct sl_progress sl_progress;
typedef struct sl_step_job sl_step_job;

/* Inputs measured or waiting to be measured while the walk generates the next: up to this
 * many, and at most SL_PIPE_MAX_BYTES of them beyond the oldest (a slow generator then keeps
 * the device busy with the inputs it made while a short job ran). */
#define SL_PIPE_DEPTH 2
#define SL_PIPE_MAX_BYTES ((uint64_t)4 << 30)

/* The sweep a user chose (`sumlab run --n/--datasets/--variants/--dtype/--seeds`); zero
 * counts mean each experiment's own choice, so a default run is the study as designed. */
#define SL_SWEEP_MAX 64
typedef struct {
    uint64_t n[SL_SWEEP_MAX];  /* --n: every experiment's sizes (nn = 0: the preset's) */
    int nn;
    const sl_dataset *ds[SL_SWEEP_MAX];  /* --datasets (nds = 0: each experiment's own) */
    int nds;
    const sl_variant *v[SL_SWEEP_MAX];   /* --variants, `exact` always measured (nv = 0: all) */
    int nv;
    unsigned dtypes;           /* --dtype: SL_DTYPE_MASK bits (0: f32 and f64) */
    int seeds;                 /* --seeds K: instances per point (instance i: dataset seed + i) */
    char params[512];          /* --param K=V,...: dataset parameters ("" none), each applied to every
                                * dataset of the run that has parameter K (sl_exp_user_params) */
} sl_sweep;

/* Seconds of a run by phase: the wall clock of each phase's calls, summed. With several
 * threads the pipeline generates the next input (and its reference) while earlier ones are
 * measured, so the phases overlap and their sum can exceed `total`; `wait` is the time the walk
 * waited for the measuring threads (GPU-bound when large, host-bound when small). */
typedef struct {
    double generate;           /* dataset generation (and the determinism permutations) */
    double reference;          /* exact references */
    double measure;            /* the variants' runs: GPU launches, CPU twins, twin checks */
    double judge;              /* every figure of the rows against the reference */
    double write;              /* formatting and writing rows */
    double wait;               /* the walk waiting for the measuring thread */
    double render;             /* charts (plots/render.sh) */
    double report;             /* report.md */
    double total;              /* the experiments, start to last row */
} sl_phase_times;

/* A cached input buffer (hostbuf.c). */
#define SL_HOSTBUF_SLOTS 6
typedef struct {
    void *p;
    size_t cap;
    int pinned;                /* from sl_gpu_host_alloc, else malloc */
    int busy;                  /* handed out by sl_hostbuf_get, not yet put back */
} sl_hostbuf;

/* The user's arrays (`run --files`, files.c): each input a dataset whose values are the file's
 * (ds first, so the fill finds the rest), labelled "file:NAME" (a dot's X,Y pair: "file:X+Y"). */
#define SL_FILES_MAX 8
typedef struct {
    sl_dataset ds;             /* name = label; fill copies the file's values */
    char label[160];
    void *data;                /* n values (a pair: x then y, 2n), host order */
    uint64_t n;                /* values per input array */
    sl_dtype dt;
    int inputs;                /* 1, or 2 for a two-input operation's pair */
    uint64_t hash;             /* FNV-1a 64 of dtype, n and the values' bytes */
} sl_file_input;
typedef struct {
    sl_file_input f[SL_FILES_MAX];
    int count;
} sl_file_set;
/* Reads the comma-separated .npy paths of list for operation op (two inputs: X,Y pairs in
 * order). Each must be a NumPy .npy file of a 1-D (or 0-d) array of at least one value, named
 * NAME.npy with NAME 1 to 64 of [A-Za-z0-9._-], the names distinct. 0, or -1 with err (one
 * line) and nothing held. */
int sl_files_load(const char *list, const sl_operation *op, sl_file_set *s, sl_err *err);
void sl_files_free(sl_file_set *s);
/* run.conf's text of a set: "LABEL:HASH16,..." (labels and hex hashes only, no paths). */
void sl_files_conf(const sl_file_set *s, char *buf, size_t len);
/* 1 when the experiment takes the files as its inputs (one n: determinism, tradeoff). */
int sl_files_exp_uses(const char *experiment);

typedef struct {
    char dir[1024];
    sl_preset preset;
    int named_alone;           /* the run names one experiment (not all): an opt-in one runs */
    sl_backend backend;        /* resolved: CPU or GPU */
    int on_gpu;
    uint32_t gpu_sm_count;     /* device SMs (GPU) or SL_DEFAULT_SM_COUNT */
    uint64_t seed;
    const sl_operation *op;    /* the operation studied (NULL: the default, sum): its variants */
    sl_op_params params;       /* its parameters (ddof), as run.conf keeps them */
    int reps_override;         /* 0: preset defaults */
    int quiet;
    sl_results res;            /* results.csv, distribution.csv and the keys they hold */
    long rows_written;
    long rows_measured;        /* rows written with a status other than `skipped` */
    char first_skip[256];      /* the note of the first skipped row written ("" when none) */
    char sweep_off[256];       /* the first experiment --datasets left nothing to sweep ("" none) */
    long max_rows;             /* SUMLAB_MAX_ROWS (tests): stop after this many new rows */
    int stop;                  /* 1 after the row limit */
    sl_progress *prog;
    sl_notes notes;            /* skipped experiments etc., for the report */
    sl_sweep sweep;            /* what the user chose to sweep */
    const sl_file_set *files;  /* --files: the inputs of determinism and tradeoff (NULL: none) */
    unsigned threads;          /* host threads (--threads); 0 or 1: no pipeline, one thread */
    sl_rep_budget sweep_budget;  /* GPU: device-time budget of a variant's repetitions in the
                                    sweeps, and in the determinism experiment (all zero: none) */
    sl_rep_budget acc_budget;    /* GPU: the accuracy sweeps' (warm-up once per variant) */
    sl_rep_budget det_budget;
    uint64_t twin_check_max_n; /* GPU rows up to this n are checked against their twin (0: 2^22) */
    /* the pipeline (step.c): up to SL_PIPE_DEPTH inputs in flight, oldest first, measured one
     * after another (pipe_turn: the sequence number of the job whose turn it is) */
    sl_step_job *inflight[SL_PIPE_DEPTH];
    int n_inflight;
    int pipe_ready;            /* pipe_mu and pipe_cv initialised */
    pthread_mutex_t pipe_mu;
    pthread_cond_t pipe_cv;
    uint64_t pipe_seq, pipe_turn;
    sl_phase_times phases;     /* where the time went (step.c; render/report by the caller) */
    double plan_steps;         /* progress steps the experiments' plans count (for the ETA) */
    pthread_mutex_t buf_mu;    /* the input buffers (hostbuf.c); sl_run_init sets it up */
    sl_hostbuf bufs[SL_HOSTBUF_SLOTS];
} sl_run;

/* ---- the run's life (run.c, sweep.c): what `sumlab run` asks, and the one entry -------------- */
/* The sweep lists parsed (sl_sweep) with their canonical text, as run.conf keeps them (a list
 * longer than SL_CONF_LIST - 1 characters is refused, never cut). */
typedef struct {
    sl_sweep sweep;
    char n[SL_CONF_LIST], datasets[SL_CONF_LIST], variants[SL_CONF_LIST], dtypes[32], baseline[64];
} sl_sweep_spec;
/* Fills s from the sweep options: n[0..nn) the sizes (nn 0: none given; each >= 1, no
 * repeats, at most SL_SWEEP_MAX); ds, vs, dt comma-separated dataset names, variant names and
 * dtypes (f32, f64, f16, bf16), NULL when absent; seeds the instances per point (0: absent,
 * else 1 .. 1000); baseline a variant or NULL. 0, or -1 with err naming the option
 * ("--datasets: unknown dataset 'x' ..."). */
int sl_sweep_parse(sl_sweep_spec *s, const uint64_t *n, int nn, const char *ds, const char *vs,
                   const char *dt, long seeds, const char *baseline, sl_err *err);
/* The same from run.conf's text (n: its canonical decimal list). */
int sl_sweep_parse_conf(sl_sweep_spec *s, const char *n, const char *ds, const char *vs,
                        const char *dt, long seeds, const char *baseline, sl_err *err);
/* Which sweep options were given (sl_run_opts.sweep_given): on --resume each must equal
 * run.conf's. */
enum { SL_GIVEN_N = 1, SL_GIVEN_DATASETS = 2, SL_GIVEN_VARIANTS = 4, SL_GIVEN_DTYPES = 8,
       SL_GIVEN_SEEDS = 16, SL_GIVEN_BASELINE = 32 };

/* The caller's report steps, run at the end of a run (the study sits below report/):
 * charts renders DIR's charts (notes: what it could not draw), report writes report.md and
 * report.html (0, or -1 with err). Either may be NULL (nothing done). */
typedef struct {
    void (*charts)(const char *dir, int quiet, unsigned threads, sl_notes *notes);
    int (*report)(const char *dir, const sl_notes *notes, sl_err *err);
} sl_run_hooks;

/* Everything a run is asked (the command line and the environment, read by the caller). */
typedef struct {
    const char *experiment;    /* a name of the experiment table or "all"; NULL only with resume
                                  or report_only (then run.conf's) */
    const char *out_dir;       /* the run directory; NULL: results/<local date>-<experiment> */
    const sl_operation *op;    /* --op (NULL: run.conf's on resume, else the default, sum) */
    long ddof;                 /* --ddof when ddof_given (else run.conf's on resume, or SL_DDOF_DEFAULT) */
    int ddof_given;
    sl_preset preset;          /* when preset_given; else full on a GPU, quick on the CPU */
    int preset_given;
    sl_backend backend;        /* auto, cpu or gpu (backend_given: asked for) */
    int backend_given;
    uint64_t seed;             /* the dataset seed (seed_given: --seed or SUMLAB_SEED) */
    int seed_given;
    long reps;                 /* repetitions for every experiment; 0: the presets' */
    sl_sweep_spec sweep;       /* sl_sweep_parse'd options (an empty spec: seeds 1) */
    unsigned sweep_given;      /* SL_GIVEN_* */
    int params_given;          /* --param given (sweep.sweep.params) */
    const char *files;         /* --files A.npy,B.npy (NULL: none; on resume: the same files again) */
    unsigned threads;          /* host threads (sl_threads_choose) */
    long max_rows;             /* stop after this many new rows (0: no limit; tests) */
    int rep_budget_given;      /* GPU: every repetition budget set to rep_budget_ms (0: none) */
    double rep_budget_ms;
    int resume, report_only, quiet;
    int argc;                  /* the command line, for meta.json's provenance */
    char **argv;
    sl_run_hooks hooks;
} sl_run_opts;

/* What became of a run; the caller maps it to an exit code (0, 1, 2, 3, 1, 130, 143). */
typedef enum {
    SL_RUN_DONE = 0,
    SL_RUN_FAILED,             /* a runtime failure: err says why, or it was said on stderr */
    SL_RUN_BAD_INPUT,          /* bad options, a directory that cannot be run, resumed or
                                  reported, a run.conf that disagrees (err) */
    SL_RUN_ROW_LIMIT,          /* stopped by max_rows; --resume continues */
    SL_RUN_NOTHING_MEASURED,   /* results.csv holds rows and every one is `skipped` (err: why) */
    SL_RUN_SIGINT,             /* stopped by SIGINT / SIGTERM after the current measurement */
    SL_RUN_SIGTERM
} sl_run_status;

/* A run's whole life: the directory chosen, checked, created and locked for the run; on
 * resume, run.conf's settings (checked against the options given); run.conf and meta.json;
 * the experiments, row by row into results.csv; the notes, charts and report (hooks); the
 * status. Progress (unless quiet) and warnings go to stderr. err->msg holds the reason of a
 * failed status, or is empty when the reason was already shown on stderr. report_only: the
 * charts and report of an existing run, measuring nothing. */
sl_run_status sl_study_run(const sl_run_opts *o, sl_err *err);
/* The check of a run directory's name: not empty, no control characters, each name in the
 * path within NAME_MAX bytes, SL_DIR_MAX in all. 0, or -1 with err (one line). */
int sl_run_dir_check(const char *dir, sl_err *err);

/* An input buffer of at least `bytes` (hostbuf.c: large ones reused, page-locked on the GPU
 * backend), NULL when out of memory; give it back with sl_hostbuf_put (any thread). The cache
 * is freed by sl_hostbuf_end, after the last step. */
void *sl_hostbuf_get(sl_run *run, size_t bytes);
void sl_hostbuf_put(sl_run *run, void *p);
void sl_hostbuf_end(sl_run *run);

/* The phases on one stderr line ("sumlab run: seconds by phase (T threads): ...", unless
 * quiet) and as the "timing" member of DIR/meta.json (rewritten atomically). 0, or -1 with err
 * (meta.json unreadable or not written). */
int sl_phases_report(const sl_run *run, int quiet, sl_err *err);
/* The line itself (for the tests and the caller). */
void sl_phases_line(const sl_phase_times *t, unsigned threads, char *buf, size_t len);
double sl_now_s(void);         /* a monotonic clock in seconds */

/* Signals: SIGINT/SIGTERM make the run stop after the current measurement (a second one
 * aborts). sl_study_signals_restore gives back the previous handlers and the signal seen (0). */
void sl_study_signals_catch(int quiet);
int sl_study_signals_restore(void);
int sl_run_stopped(const sl_run *run);

/* Whether results.csv holds the row of c and variant. */
int sl_study_has(const sl_run *run, const sl_rowctx *c, const char *variant);
/* The record of a registry variant's row (family and class from v). */
sl_record sl_study_record(const sl_run *run, const sl_rowctx *c, const sl_variant *v,
                          const char *status, const sl_row *row, const char *note);
/* Writes one record (and its distinct values into distribution.csv when dist); counts toward
 * SUMLAB_MAX_ROWS. The rows of an input still in flight are written first. 0 or -1 (err). */
int sl_study_write(sl_run *run, const sl_record *r, int dist, sl_err *err);
/* Waits for the inputs in flight (if any) and writes their rows, oldest first. Call before
 * anything else uses the GPU or writes a row outside sl_exp_step/sl_exp_measure/sl_study_write,
 * and after the last experiment. 0 or -1 (err). */
int sl_study_flush(sl_run *run, sl_err *err);
/* Releases the pipeline's lock and condition (after the last flush; nothing if a job is still
 * in flight). */
void sl_study_pipe_end(sl_run *run);

/* ---- progress (stderr: a bar with ETA on a terminal, one line per step otherwise) ----- */
sl_progress *sl_progress_new(int quiet, double total_work);
/* The steps the run will finish (sl_run.plan_steps): with them the ETA models a step's time
 * as a fixed cost plus a cost per work unit (sl_eta_fit); without, work left / rate. */
void sl_progress_set_steps(sl_progress *p, double steps);
void sl_progress_step(sl_progress *p, const char *what, double work);  /* announce a step */
void sl_progress_done(sl_progress *p);                                  /* step finished */
void sl_progress_add(sl_progress *p, double work);   /* work of a step finished out of turn */
/* A step with nothing to do (its rows are there from before): counted, not timed. */
void sl_progress_skip(sl_progress *p, double work);
void sl_progress_done_skipped(sl_progress *p);       /* the announced step, likewise */

/* The ETA's model: a finished step of w work units took a + b w seconds (a: what every step
 * costs whatever its size, launches, allocations, judging; b: the cost per unit), fitted by
 * least squares over the finished steps with a, b >= 0 (steps all of one size: b alone, the
 * plain rate). The first finished step, which carries the start-up, is not observed. */
typedef struct {
    double n, sw, st, sww, swt;
} sl_eta_fit;
void sl_eta_observe(sl_eta_fit *f, double work, double secs);
void sl_eta_coeffs(const sl_eta_fit *f, double *a, double *b);
/* Seconds for steps_left steps holding work_left units in all; -1 before any observation. */
double sl_eta_left(const sl_eta_fit *f, double steps_left, double work_left);
/* The ETA shown: the fit's (fit_s) early, the plain rate's (rate_s: work left at the rate of
 * the timed work so far) once half the work is done, a linear mix in between (frac: the done
 * fraction). On the GPU backend the experiments' units follow their device time
 * (sl_exp_gpu_weight), so the rate is right once the small first steps weigh little, while the
 * fit, which charges the few large steps of the later experiments only its per-unit cost, read
 * 8-11 % low through the H200 full study at 4d105aa. A negative rate_s: the fit's alone. */
double sl_eta_mix(double fit_s, double rate_s, double frac);
void sl_progress_msg(sl_progress *p, const char *fmt, ...);              /* a line above the bar */
void sl_progress_free(sl_progress *p);

/* ---- experiments ---------------------------------------------------------------------- */
typedef struct {
    const char *name;
    const char *description;
    /* work units this experiment will do (for the ETA); 0 when it will be skipped */
    double (*plan)(sl_run *run);
    int (*exec)(sl_run *run, sl_err *err);   /* 0, or -1 (err set) on a failure */
    double gpu_weight;         /* its units' price on the GPU backend (sl_exp_gpu_weight) */
} sl_experiment;
size_t sl_experiment_count(void);
/* 1 when e runs by its name only, never as part of `all` (launch-config: its sweep would break
 * the full study's time budget). */
int sl_experiment_opt_in(const sl_experiment *e);
const sl_experiment *sl_experiment_at(size_t i);
const sl_experiment *sl_experiment_find(const char *name);

/* ---- the user's sweep (sl_sweep) --------------------------------------------------------- */
int sl_exp_dtype_on(const sl_run *run, sl_dtype dt);            /* --dtype keeps dt */
int sl_exp_dataset_on(const sl_run *run, const sl_dataset *ds); /* --datasets keeps ds */
int sl_exp_variant_on(const sl_run *run, const sl_variant *v);  /* --variants keeps v */
/* The sizes of an experiment: --n's list, else its own dflt[0..ndflt); returns the count. */
int sl_exp_ns(const sl_run *run, const uint64_t *dflt, int ndflt, uint64_t *out, int max);
/* Instances per point (>= 1) and the dataset (and commit-order) seed of instance i. */
int sl_exp_instances(const sl_run *run);
/* Instances per point of an experiment: sl_exp_instances, and at least SL_FULL_ACC_INSTANCES
 * for the full preset's accuracy sweeps. */
#define SL_FULL_ACC_INSTANCES 5
int sl_exp_instances_of(const sl_run *run, const char *experiment);
/* --param's K=V onto p, for each K that dataset ds has (the swept parameter is set after). */
void sl_exp_user_params(const sl_run *run, const sl_dataset *ds, sl_params *p);
/* Checks --param's list (given, or run.conf's on resume): each K=V a valid value of a parameter
 * of some dataset in scope (the --datasets list, or the registry), each K once. 0, or -1 with
 * err. */
int sl_exp_user_params_check(const sl_sweep *sw, sl_err *err);
uint64_t sl_exp_instance_seed(const sl_run *run, int instance);

/* ---- steps shared by the experiment files ------------------------------------------------ */
int sl_exp_reps(const sl_run *run, int preset_default);
/* Generates dataset ds (params p) into a malloc'ed buffer; NULL with err on failure. */
void *sl_exp_generate(sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt,
                      uint64_t n, sl_err *err);
/* n values of dataset ds (one array, whatever the run's operation) with the given seed. */
void *sl_exp_generate_seed(sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt, uint64_t n,
                           uint64_t seed, sl_err *err);
/* The input of context c (its dataset, dtype and n) with the seed of its instance. */
void *sl_exp_generate_ctx(sl_run *run, const sl_rowctx *c, const sl_params *p, sl_err *err);
/* The exact reference of x (the input of context c), timed as the run's reference phase. */
int sl_exp_reference(sl_run *run, const sl_rowctx *c, const void *x, sl_reference *ref, sl_err *err);
/* The registry variants whose row of context c is not yet in results.csv (checked once per
 * step). -1 (err) when the registry has more than SL_STUDY_MAX_VARIANTS variants. */
#define SL_STUDY_MAX_VARIANTS 256
typedef struct {
    size_t n;
    const sl_variant *v[SL_STUDY_MAX_VARIANTS];
} sl_pending;
int sl_exp_pending(const sl_run *run, const sl_rowctx *c, sl_pending *todo, sl_err *err);
/* Measures the variants of todo on one input into rows of context c (on this thread, after
 * the input in flight is written). reps_det: reps for deterministic variants, reps_nondet for
 * nondeterministic ones. ref: x's reference (sl_exp_reference; a permutation of an input has
 * its reference), or NULL to compute it here. On the CPU a deterministic twin runs once
 * (sl_session_opts.twin_once; its row says so). */
int sl_exp_measure(sl_run *run, const sl_rowctx *c, const sl_pending *todo, const void *x,
                   const sl_reference *ref, const sl_launch *req, int reps_det, int reps_nondet,
                   int dist, sl_err *err);
/* One step: generates the input of c (dataset c->ds with params p) and its reference,
 * announces it on the progress line with `work` units, and measures every variant not yet in
 * results.csv, for each instance of the point (c->instance 0 .. sl_exp_instances - 1; `work`
 * covers them all; with run->threads > 1 on the pipeline's thread: its rows are written when
 * the next step or sl_study_flush comes; the rows and their order are the same). A
 * generator failure becomes a `skipped` row per variant carrying its message. req NULL: the
 * default launch request (every field derived by the variant; order seed = the run's seed). */
int sl_exp_step(sl_run *run, const sl_rowctx *c, const sl_params *p, const sl_launch *req,
                int reps_det, int reps_nondet, int dist, double work, sl_err *err);
/* Work units of one step (for the ETA): (n + a per-step share) x variants x (reps + 2). */
double sl_exp_work(uint64_t n, int reps);
/* The factor of an experiment's work units on the GPU backend (1 on the CPU backend). */
double sl_exp_gpu_weight(const sl_run *run, const char *experiment);
/* Steps of n: lo, lo*step, ... <= hi. */
int sl_exp_sizes(uint64_t lo, uint64_t hi, unsigned log2_step, uint64_t *out, int max);
/* A field of a file another program wrote into the run directory: 1 .. max_digits decimal
 * digits and nothing else, below 2^64: its value in *v (1), or 0. */
int sl_exp_decimal(const char *s, size_t max_digits, uint64_t *v);
/* DIR/name, a file another program wrote for experiment to join (batch_torch.csv,
 * throughput_torch.csv), read as data: 1 with *t (sl_csv_free it) when it is a regular file (a
 * link is not followed) of at most 1 MiB, whole lines, the header cols[0 .. ncols) and at least one
 * row; absent: 0; anything else: 0 and a note "EXPERIMENT: NAME left out: WHY". The caller checks
 * the rows. */
int sl_exp_read_joined(sl_run *run, const char *experiment, const char *name, const char *const *cols,
                       size_t ncols, sl_csv *t);

/* The read-ceiling row of context c (exp_throughput.c): its own upload of x, reps timed reads. */
int sl_exp_ceiling_row(sl_run *run, const sl_rowctx *c, const void *x, int reps, sl_err *err);

/* ---- the two source texts' ladders (exp_ladder.c) ------------------------------------------ */
typedef struct {
    const char *rung;          /* the text's name for it: "V3", "v4", "PyTorch" */
    const char *variant;       /* registry name */
    double published_speedup;  /* over the text's first rung, as published (NaN: none) */
    double published_bw_pct;   /* the text's bandwidth-utilisation column (NaN: none) */
} sl_ladder_rung;
typedef struct {
    const char *name;          /* "text 1", "text 2" */
    const char *source;        /* one line: which text */
    const sl_ladder_rung *rungs;
    int nrungs;
} sl_ladder_text;
const sl_ladder_text *sl_ladder_texts(size_t *count);
/* 1 when variant v is a rung of either text's ladder or the CUB anchor (an operation without such
 * a variant has no ladder to run) */
int sl_ladder_has(const sl_variant *v);
/* One measured rung of config ("block256" or "default") from the ladder rows of t: times from
 * time_ms_median, speedup over the text's first rung, fraction of the read ceiling (ceiling time
 * / rung time) and ratio to CUB of the same config; NaN where a row is missing. */
typedef struct {
    const sl_ladder_text *text;
    const sl_ladder_rung *rung;
    double ms, gbps, speedup, frac_read, ratio_cub;
    const char *twin_match;    /* "1", "0" or "" (not checked) */
} sl_ladder_cell;
size_t sl_ladder_table(const sl_csv *t, const char *config, sl_ladder_cell *out, size_t max,
                       uint64_t *n);
/* DIR/ladder.csv (for the chart) from DIR/results.csv's ladder rows, written atomically;
 * nothing when there are none. */
int sl_ladder_write_csv(const char *dir, sl_err *err);

/* ---- launch-config (exp_launch.c): the first text's tuning claims ------------------------ */
/* One point of the sweep: the launch request (0: the variant's own), the base offset of x in
 * bytes and whether n is cut to n - 1 (not a multiple of the vector width). */
typedef struct {
    const char *sweep;         /* "block", "grid", "items", "accumulators", "align", "width" */
    uint32_t block, grid, items;
    uint32_t accs;             /* accumulators per thread (cfg accs: grid-stride, vec4) */
    uint32_t offset;
    int tail;
    uint32_t width;            /* bytes per load (vec4: the element size, 8, 16; 0: its own) */
} sl_lc_point;
/* The i-th variant of the experiment (NULL past the last). */
const char *sl_lc_variant_name(size_t i);
/* The points of a variant for a device of sm_count SMs (grids are multiples of it); the count
 * (0 for a name that is not swept; at most max stored). */
size_t sl_lc_points(const char *variant, uint32_t sm_count, sl_lc_point *out, size_t max);
/* A point's config label ("lc:grid:b256:g528:i0:a0:o0:t0", then ":w8" when it has a width)
 * and back (sweep copied into sweep). */
void sl_lc_label(const sl_lc_point *p, char *buf, size_t len);
int sl_lc_parse_label(const char *s, sl_lc_point *p, char *sweep, size_t sweep_len);
/* Checks a point's request for v before anything is resolved (no silent rounding): block in
 * [32, 1024] (a power of two for the ladder rungs, a multiple of 32 for kahan; multipass's
 * fixed 256), no grid for the rungs whose grid follows n, grid within the variant's range,
 * items and accumulators (1, 2, 4, 8: grid-stride, vec4; vec4's at most its items) the variant
 * takes, a load width only for vec4 (its element size, 8 or 16 bytes), offset a multiple of the
 * element size below 16, dtype accepted. 0, or -1 with err naming the variant and the value. */
int sl_lc_point_check(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_lc_point *p,
                      sl_err *err);
/* The launch request of a point for input dt (addr_mod = its offset; items, accs and width as
 * the point's, width 1 turned into dt's element size). */
void sl_lc_request(const sl_variant *v, const sl_lc_point *p, uint64_t seed, sl_launch *req,
                   sl_dtype dt);
/* DIR/launch.csv from DIR/results.csv's launch-config rows (one line per point with its
 * accumulators, load width, offset and ratios to CUB and the read ceiling), written
 * atomically; nothing when there are none. */
int sl_lc_write_csv(const char *dir, sl_err *err);

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
double sl_exp_ladder_plan(sl_run *run);
int sl_exp_ladder(sl_run *run, sl_err *err);
/* rows: the batch-invariance experiment (exp_batch.c) */
double sl_exp_batch_plan(sl_run *run);
int sl_exp_batch(sl_run *run, sl_err *err);
double sl_exp_launch_plan(sl_run *run);
int sl_exp_launch(sl_run *run, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

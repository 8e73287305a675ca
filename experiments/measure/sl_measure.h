/* sl_measure.h: measuring and judging (a library; knows no command line and no file format).
 * One measurement = one variant summing one input R times on one backend; its judgement
 * against the exact reference fills every figure of the row (sl_row). Shared by `sumlab sum`,
 * `sumlab bench`, the study and the tests. */
#ifndef SL_MEASURE_H
#define SL_MEASURE_H
#include <stddef.h>
#include "sumlab/types.h"
#include "sl_variants.h"
#include "sl_reference.h"
#include "sl_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SL_BACKEND_AUTO = 0, SL_BACKEND_CPU, SL_BACKEND_GPU } sl_backend;
int sl_backend_parse(const char *s, sl_backend *out);          /* auto|cpu|gpu */

/* An input prepared once: the reference computed, and (GPU backend) uploaded once. */
typedef struct sl_session sl_session;
/* backend AUTO picks the GPU when one is present, else the CPU twins; *chosen_msg (may be
 * NULL) receives a one-line note saying which, for stderr. GPU requested but absent: error.
 * offset: element offset of the device copy (1 = misaligned input). The session keeps a
 * pointer to x (the caller keeps x alive until sl_session_close). */
int sl_session_open(sl_session **s, const void *x, uint64_t n, sl_dtype dt, sl_backend backend,
                    uint32_t offset, char *chosen_msg, size_t msg_len, sl_err *err);
/* The same with every setting: threads: host threads for the reference, the CPU twins and
 * judging (0 or 1: the caller's thread alone; results are the same for every count).
 * ref: NULL, or the reference of exactly this x already computed (e.g. while the previous
 * input was measured): the session borrows it (the caller keeps it alive and clears it after
 * sl_session_close). */
typedef struct {
    sl_backend backend;
    uint32_t offset;
    unsigned threads;
    const sl_reference *ref;
    /* 1: on the CPU, a deterministic variant's twin runs once whatever reps asks (it is a pure
     * function of the input and the launch configuration: every repetition gives the same
     * bits); its row has reps 1 and reps_asked the count asked. Nondeterministic twins (a new
     * order seed per repetition) and GPU runs still repeat. */
    int twin_once;
    /* the operation measured (NULL: sl_op_default(), the sum): its reference is computed (or
     * borrowed from ref, which must then be this operation's), and only its variants run */
    const sl_operation *op;
    /* the operation's parameters (NULL: sl_op_params_default()): the reference is computed with
     * them and every launch configuration carries them (sl_launch.ddof) */
    const sl_op_params *params;
    /* a two-input operation's second array (dot: y of the same n and dt as x; the caller keeps it
     * alive until sl_session_close); NULL for a one-input operation, an error for a two-input one */
    const void *y;
} sl_session_opts;
int sl_session_open_opts(sl_session **s, const void *x, uint64_t n, sl_dtype dt,
                         const sl_session_opts *o, char *chosen_msg, size_t msg_len, sl_err *err);
void sl_session_close(sl_session *s);
const sl_reference *sl_session_reference(const sl_session *s);
/* Seconds the session spent so far in sl_measure_list: running the variants (GPU runs, CPU
 * twins, twin checks) and judging their results (wall clock of those phases). */
void sl_session_times(const sl_session *s, double *run_s, double *judge_s);
/* Inside run_s (GPU backend): seconds of the GPU runs, of waiting for the twins that ran beside
 * them, and of the twin checks after them (each may be NULL). */
void sl_session_phases(const sl_session *s, double *gpu_s, double *side_s, double *check_s);
int sl_session_on_gpu(const sl_session *s);                    /* 1 GPU, 0 CPU */
const sl_operation *sl_session_op(const sl_session *s);        /* the operation measured */
const sl_op_params *sl_session_params(const sl_session *s);    /* its parameters */
/* fn (NULL: none) is called with arg by each later sl_measure_list on s as soon as its GPU runs
 * are done, before the twin checks and judging: a caller that orders sessions on one device may
 * hand the device to the next session from there while this one checks its results. */
void sl_session_on_gpu_done(sl_session *s, void (*fn)(void *arg), void *arg);

/* ---- a row's repetitions folded as they arrive (stats.c) ---------------------------------
 * A row keeps no array of its repetitions: each result and time is folded into running
 * aggregates, so a row's memory is bounded whatever the repetitions. Exact up to fixed caps:
 * - the distinct bit patterns with their counts, up to SL_AGG_DISTINCT_CAP patterns: beyond,
 *   a result of a new pattern is counted apart (its error folded into the maxima and into a
 *   log-binned histogram), the row's distinct becomes a lower bound and the row is flagged
 *   (sl_row.capped);
 * - the times, up to SL_AGG_TIMES_CAP samples for an exact median: beyond, every time goes
 *   into a log-binned histogram (sl_row.times_binned) whose bins are 2^-SL_HIST_BITS of an
 *   octave wide, so the median it gives (a bin's middle, clamped to the exact min and max) is
 *   within a relative 2^-(SL_HIST_BITS+1) (0.05 %) of the exact one; min and max stay exact.
 * Memory of one aggregate: at most 2 MiB of pattern table (2 x SL_AGG_DISTINCT_CAP slots of
 * 16 bytes), 32 KiB of time samples, and 8 KiB per octave a histogram's values touch. */
#define SL_AGG_DISTINCT_CAP 65536
#define SL_AGG_TIMES_CAP 4096
#define SL_HIST_BITS 10

/* Order statistics of a stream of non-negative values (times, ulps): exact samples up to a
 * cap, then the log-binned histogram. Zero it (memset) to start; sl_sketch_free. */
typedef struct sl_hist sl_hist;
typedef struct {
    double *v;                 /* the samples while exact */
    size_t n, cap;
    size_t limit;              /* samples kept exactly at most (0: SL_AGG_TIMES_CAP) */
    sl_hist *h;                /* past the limit: every sample binned (v freed) */
    uint64_t count;
    double mn, mx;             /* exact */
} sl_sketch;
int sl_sketch_add(sl_sketch *k, double x);              /* -1 out of memory */
/* median, min, max (NaN when empty or out of memory); *binned (may be NULL): 1 when the
 * median came from the histogram */
void sl_sketch_stats(const sl_sketch *k, double *med, double *mn, double *mx, int *binned);
void sl_sketch_free(sl_sketch *k);

/* The running aggregate of one row's results and times. sl_rep_agg_init, sl_rep_agg_add per
 * repetition in order, sl_judge_row_agg (or the accessors below), sl_rep_agg_free. ref (may be
 * NULL: no errors of results past the cap) and dt: what a result past the distinct cap is
 * judged against as it arrives. */
typedef struct {
    const sl_reference *ref;
    sl_dtype dt;
    uint64_t reps;             /* results folded */
    double first;              /* the first result */
    int anynan;
    double mn, mx;             /* smallest and largest non-NaN result, in order of arrival */
    uint64_t *keys, *counts;   /* the distinct raw bit patterns (open addressing; count 0: free) */
    size_t slots, used;
    uint64_t table_distinct;   /* patterns in the table, every NaN as one */
    int table_nan;             /* a NaN in the table */
    /* results whose pattern was new once the table was full */
    uint64_t other;
    int other_nan, other_num;  /* some of them NaN / not NaN */
    int other_nonfinite;
    double other_abs_max, other_ulps_max;
    sl_hist *other_ulps;       /* their errors in ulps */
    sl_sketch times;
    int oom;                   /* an allocation failed: the figures are not to be trusted */
} sl_rep_agg;
void sl_rep_agg_init(sl_rep_agg *a, const sl_reference *ref, sl_dtype dt);
/* Folds one repetition's result and time (time NaN: none, e.g. the reference row). -1 when
 * out of memory (a->oom set). */
int sl_rep_agg_add(sl_rep_agg *a, double result, double time_ms);
/* Distinct patterns (NaNs as one); a lower bound when sl_rep_agg_capped. */
uint64_t sl_rep_agg_distinct(const sl_rep_agg *a);
int sl_rep_agg_capped(const sl_rep_agg *a);
/* 1 when every result has the bit pattern of v (every NaN as one pattern). */
int sl_rep_agg_all_equal(const sl_rep_agg *a, double v);
void sl_rep_agg_free(sl_rep_agg *a);

/* One distinct result of a row's repetitions (bit patterns compared as they are). */
typedef struct {
    double value;
    uint64_t count;            /* repetitions that gave it */
    double ulps_signed;        /* value - S in ulps of S rounded (NaN for a NaN value) */
} sl_row_value;

/* Every figure of one row. Which groups hold figures is said by the have_* flags; the
 * writers print an empty field for a group that has none. */
typedef struct {
    const sl_variant *variant; /* NULL for rows that are no variant (the read ceiling) */
    const char *backend;       /* "gpu", "cpu" (twin), or "reference" for the exact row */
    sl_dtype dt;
    uint64_t n;
    int have_run;              /* it ran: reps and times (none for a skipped row) */
    int have_cfg;              /* a variant ran: its launch configuration and twin check */
    int have_exact;            /* the reference is known: exact, cond, abssum */
    int judged;                /* the results were judged: result .. bound_ratio */
    sl_launch cfg;             /* the resolved launch configuration used */
    int reps;
    int reps_asked;            /* repetitions requested; more than reps when a time budget
                                  capped a GPU variant (sl_measure_list) or a
                                  deterministic twin ran once (sl_session_opts.twin_once) */
    double result;             /* the first repetition's result */
    uint64_t distinct;         /* distinct bit patterns over the R results (NaNs as one); a
                                  lower bound when capped */
    double min_result, max_result;   /* over the R results (NaN-aware: NaN if any NaN) */
    double spread_ulps;        /* (max - min) in ulps of the rounded exact sum */
    sl_errors err;             /* of `result` against the exact sum */
    double ulps_median, ulps_max;    /* error in ulps over the R results */
    double abs_err_max;        /* the largest |result - S| over the R results */
    int nonfinite;             /* 1 when some result is Inf or NaN */
    double bound;              /* the variant's a-priori absolute error bound (NaN: none) */
    double bound_rel;          /* bound / |S rounded| (inf for S = 0) */
    double bound_ratio;        /* abs_err / bound */
    double exact, cond, abssum;      /* S rounded to dt, sum|x|/|S|, sum|x| */
    double time_ms_median, time_ms_min, time_ms_max; /* GPU: device events; CPU: wall clock */
    double gbps;               /* n * sizeof(dtype) / median time */
    int twin_checked;          /* 1 when a GPU result was compared with the CPU twin */
    int twin_match;            /* 1 when every GPU result equals the twin bit for bit */
    sl_row_value *values;      /* the distinct results in increasing order, NaNs last (owned) */
    size_t nvalues;
    /* 1: more than SL_AGG_DISTINCT_CAP distinct results: values holds the first
     * SL_AGG_DISTINCT_CAP patterns met, values_other counts the repetitions left out of it,
     * distinct is a lower bound and ulps_median comes from the log-binned histogram (ulps_max,
     * abs_err_max, min and max stay exact); sl_row_capped_note says so in one line */
    int capped;
    uint64_t values_other;
    int times_binned;          /* 1: time_ms_median from the log-binned histogram (stats.c) */
} sl_row;

/* One line (no comma; at most 420 bytes) saying what a capped or binned row's figures are
 * (empty when neither), e.g. for stderr or a results row's note. */
const char *sl_row_capped_note(const sl_row *row, char *buf, size_t len);

/* A row of nothing but its backend, dtype and n (NaN figures), e.g. for an input that could
 * not be generated. */
void sl_row_empty(sl_row *row, const char *backend, sl_dtype dt, uint64_t n);

/* Runs v R times (GPU launcher or CPU twin per the session; nondeterministic twins draw
 * a new order_seed per repetition from req->order_seed) and judges the results (every figure
 * of row). check_twin: on the GPU backend, also run the twin once and compare (deterministic
 * variants: bits must match; this is reported in the row, not an error). Variants that cannot
 * run here (no twin on the CPU backend, dtype not supported, n > max_n) return 1 with err
 * saying why and row holding the reference figures: skip them. -1: a failure (err set). */
int sl_measure(sl_session *s, const sl_variant *v, const sl_launch *req, int reps,
               int check_twin, sl_row *row, sl_err *err);
/* sl_measure that also hands back every repetition's result in order, in results[0..row->reps)
 * (the caller's reps doubles): for a caller that combines the repetitions one by one (the
 * ranks' partial sums, experiments/mpi). The row itself keeps no array of them. */
int sl_measure_results(sl_session *s, const sl_variant *v, const sl_launch *req, int reps,
                       int check_twin, sl_row *row, double *results, sl_err *err);
/* 1 when v can run on this session (sl_measure would measure it), else 0 with err saying why
 * (the reason sl_measure's return value 1 gives). */
int sl_session_can_run(const sl_session *s, const sl_variant *v, sl_err *err);
/* A device-time budget of a variant's GPU repetitions: after its first timed run, only as many
 * more run as fit in its class's budget in all, at least min_reps (0 ms: no cap). */
typedef struct {
    double det_ms;             /* deterministic: its repetitions give the same bits, they time it */
    double nondet_ms;          /* nondeterministic: they measure its spread */
    int min_reps;              /* at least this many run, whatever the budget */
    /* 1: a variant that already ran in this process at this format and launch request runs no
     * warm-up (its first run is timed): for sweeps whose rows are judged for accuracy, where a
     * warm-up per input would cost as much as the runs themselves */
    int warm_once;
} sl_rep_budget;
/* The repetitions a budget of budget_ms (0: none) leaves to a variant asked for reps whose first
 * timed run took first_ms: as many as fit in all, at least min_reps, at most reps, at least 1. */
int sl_budget_reps(double budget_ms, double first_ms, int reps, int min_reps);
/* A GPU variant's warm-up on an input of more than SL_WARM_PREFIX_N values: two runs on that
 * prefix, then a first timed run of at most SL_WARM_FULL_MS is taken as the warm-up too. */
#define SL_WARM_PREFIX_N ((uint64_t)1 << 20)
#define SL_WARM_FULL_MS 20.0
/* sl_measure for the variants vs[0..nv) on one session, reps[i] repetitions each, into
 * rows[i] with status[i] (0 measured, 1 cannot run here: errs[i] says why, -1 failed: errs[i])
 * exactly as nv calls of sl_measure would give them, in the same bits whatever the session's
 * thread count. GPU variants run one after another on the calling thread; the CPU work (twin
 * repetitions, nondeterministic ones each with its own order seed, twin checks) and the judging
 * are spread over the session's threads. budget (GPU only; NULL: none) caps the repetitions;
 * row->reps < row->reps_asked says it did. A GPU variant is warmed up by one run of the whole
 * input, or, when n exceeds SL_WARM_PREFIX_N, on the prefix: a first timed run that costs more
 * than SL_WARM_FULL_MS is then kept as the first repetition (a slow kernel's whole warm-up run
 * would double its row's device time), a cheaper one is discarded as the warm-up.
 * Memory: bounded whatever the repetitions. The list's own state is O(variants) (one task span
 * per variant; a failing repetition's error is kept per variant); repetitions run in chunks of
 * at most SL_MEASURE_CHUNK per variant (CPU tasks and GPU runs alike), each chunk folded into
 * the variant's running aggregate (sl_rep_agg: at most SL_AGG_DISTINCT_CAP distinct patterns
 * and SL_AGG_TIMES_CAP times kept, then bounded histograms); row->values holds only the
 * distinct results (at most SL_AGG_DISTINCT_CAP of them).
 * Returns 0, or -1 when out of memory (every row and status filled regardless). */
#define SL_MEASURE_CHUNK 1024
int sl_measure_list(sl_session *s, const sl_variant *const *vs, size_t nv, const sl_launch *req,
                    const int *reps, int check_twin, const sl_rep_budget *budget, sl_row *rows,
                    int *status, sl_err *errs);
/* The device's streaming-read ceiling on x: R timed reads after its own upload (GPU only);
 * row gets the times and GB/s, no variant and no judgement. */
int sl_measure_read_ceiling(const void *x, uint64_t n, sl_dtype dt, int reps, sl_row *row,
                            sl_err *err);
/* The same over two arrays (a two-input operation's ceiling: both read, their bytes counted);
 * y NULL: sl_measure_read_ceiling. */
int sl_measure_read_ceiling2(const void *x, const void *y, uint64_t n, sl_dtype dt, int reps,
                             sl_row *row, sl_err *err);
void sl_row_free(sl_row *row);

/* ---- judging (judge.c) ------------------------------------------------------------------ */
/* Fills the judged figures of row (result .. values, exact, cond, abssum, capped) from the
 * aggregate of its repetitions (row->reps of them), and the time figures from the times folded
 * into it (none: NaN). -1 when out of memory. */
int sl_judge_row_agg(const sl_reference *ref, const sl_variant *v, sl_row *row, const sl_rep_agg *agg);
/* The same from arrays: results[0..row->reps) and times (NULL: none). */
int sl_judge_row(const sl_reference *ref, const sl_variant *v, sl_row *row, const double *results,
                 const double *times);

/* The variant's a-priori absolute error bound on this input for the resolved cfg: the
 * reference's bound for the variant's model, accumulator format and depth k, plus 2 k FLT_MIN
 * for float32 variants whose sums pass through global float atomics (they flush subnormal
 * operands and results to zero, which Higham's model does not allow for). +Inf (vacuous)
 * when sum|x| exceeds the accumulator format's largest finite value, since an intermediate
 * may then overflow; +Inf when the exact sum overflows the format (finite inputs) or when
 * |S| + bound reaches the format's overflow threshold (sl_bound_reach: the final conversion
 * may round to Inf); NaN when the variant has no bound model or an input is Inf/NaN. */
double sl_variant_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg);
/* sl_variant_bound asks v's operation (sl_ops.h) for its bound model; sl_sum_bound is the sum's,
 * the model described above. */
double sl_sum_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                    const sl_launch *cfg);
/* The bound of a variant of mean, var, std, max or min (bounds_moments.c): by v->bound, the
 * SL_BOUND_VAR_* models, SL_BOUND_RECURSIVE (a mean: a sum divided by n), SL_BOUND_EXACT (0)
 * and SL_BOUND_CORRECTLY_ROUNDED (half an ulp of the rounded exact value). */
double sl_moment_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg);
/* The bound of a norm2 variant (bounds_norm.c): RECURSIVE (naive sum of squares, then the root),
 * the scaled form's (a RECURSIVE variant named "scaled"), BINNED (reproducible), CORRECTLY_ROUNDED. */
double sl_norm_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                     const sl_launch *cfg);
/* The bound of a variant of dot (bounds_dot.c): by v->bound, SL_BOUND_RECURSIVE (gamma_{k+1} sum
 * |x_i y_i|), SL_BOUND_COMPENSATED (kahan), SL_BOUND_DOT2 (Ogita-Rump-Oishi) and
 * SL_BOUND_CORRECTLY_ROUNDED (half an ulp). */
double sl_dot_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                    const sl_launch *cfg);
/* The bound of v's result when K = ranks slices were summed apart and their partial results
 * combined in dt by any order of adds (MPI_SUM, rank order): the slices' errors (at most the
 * whole input's bound plus u sum|x|) and K - 1 roundings of the combine (gamma_{K-1} of the
 * partials); sl_variant_bound for ranks <= 1. A state combine (exact merge) keeps
 * sl_variant_bound: its result is the single-process result. */
double sl_combined_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                         const sl_launch *cfg, int ranks);
/* Sets row's bound and the figures derived from it (relative bound, bound ratio). */
void sl_judge_set_bound(const sl_reference *ref, sl_row *row, double bound);
/* b, or +Inf when a value within b of the exact sum may round to Inf in dt. */
double sl_bound_reach(const sl_reference *ref, double b, sl_dtype dt);
/* 1 when a result's error lies outside its bound (finite reference, bound not NaN): the
 * self-check `sum` and `bench` both apply. */
int sl_bound_violated(const sl_reference *ref, double worst_abs_err, double bound);

/* One value summed elsewhere (NumPy, math.fsum, PyTorch, a user's kernel) judged against the
 * exact sum of the input: its errors in the input format (err.ulps: ulps of S rounded to
 * ref->dtype) and in float64 (ulps_f64), and, when bound_of is not NULL, that variant's
 * a-priori bound on this input at its default launch configuration with the ratio
 * |value - S| / bound (NaN otherwise). */
typedef struct {
    sl_errors err;
    double ulps_f64;
    double bound, bound_ratio;
} sl_value_judgement;
void sl_judge_value(const sl_reference *ref, const sl_variant *bound_of, double value,
                    sl_value_judgement *out);

/* Distinct bit patterns among r[0..reps) (every NaN counted as one pattern); 0 when out of
 * memory. */
uint64_t sl_count_distinct(const double *r, int reps);

/* The bench's judgement of R results: distinct patterns, the largest absolute error (NaN-aware)
 * and the bound (NaN when the reference is not finite). */
typedef struct {
    uint64_t distinct;
    double worst_abs_err;
    double bound;
} sl_judgement;
void sl_judge_results(const sl_reference *ref, const sl_variant *v, uint64_t n, sl_dtype dt,
                      const sl_launch *cfg, const double *r, int reps, sl_judgement *out);

/* Order statistics over the numbers of v[0..n) (NaN values are left out: a missing time or
 * figure): sl_median sorts v in place (NaN last) and returns their median (NaN when there are
 * none); sl_stats leaves v alone and gives median, min and max (NaN when there are none or out
 * of memory). */
double sl_median(double *v, size_t n);
/* qsort's comparator of doubles: ascending, NaN after every number (a total order). */
int sl_cmp_double(const void *a, const void *b);
void sl_stats(const double *v, size_t n, double *med, double *mn, double *mx);

#ifdef __cplusplus
}
#endif
#endif

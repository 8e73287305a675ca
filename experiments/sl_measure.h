/* sl_measure.h: one measurement = one variant summing one input R times on one backend,
 * judged against the exact reference. Shared by `sumlab sum`, `sumlab bench` and the
 * experiment runner; knows no command line. */
#ifndef SL_MEASURE_H
#define SL_MEASURE_H
#include "sl_types.h"
#include "sl_variants.h"
#include "sl_reference.h"

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
void sl_session_close(sl_session *s);
const sl_reference *sl_session_reference(const sl_session *s);
int sl_session_on_gpu(const sl_session *s);                    /* 1 GPU, 0 CPU */

typedef struct {
    const sl_variant *variant;
    const char *backend;       /* "gpu", "cpu" (twin), or "reference" for the exact row */
    sl_launch cfg;             /* the resolved launch configuration used */
    int reps;
    double result;             /* the first repetition's result */
    uint64_t distinct;         /* distinct bit patterns over the R results */
    double min_result, max_result;   /* over the R results (NaN-aware: NaN if any NaN) */
    double spread_ulps;        /* (max - min) in ulps of the rounded exact sum */
    double time_ms_median, time_ms_min, time_ms_max; /* GPU: device events; CPU: wall clock */
    double gbps;               /* n * sizeof(dtype) / median time */
    sl_errors err;             /* of `result` against the exact sum */
    double bound;              /* the variant's a-priori absolute error bound (NaN: none) */
    int twin_checked;          /* 1 when a GPU result was compared with the CPU twin */
    int twin_match;            /* 1 when every GPU result equals the twin bit for bit */
    double *results;           /* R results (owned by the row; sl_row_free) */
} sl_row;

/* Runs v R times (GPU launcher or CPU twin per the session; nondeterministic twins draw
 * a new order_seed per repetition from req->order_seed). check_twin: on the GPU backend,
 * also run the twin once and compare (deterministic variants: bits must match; this is
 * reported in the row, not an error). Variants that cannot run here (no twin on the CPU
 * backend, dtype not supported, n > max_n) return 1 with err saying why: skip them. */
int sl_measure(sl_session *s, const sl_variant *v, const sl_launch *req, int reps,
               int check_twin, sl_row *row, sl_err *err);
void sl_row_free(sl_row *row);

/* The variant's a-priori absolute error bound on this input for the resolved cfg: the
 * reference's bound for the variant's model, accumulator format and depth k, plus 2 k FLT_MIN
 * for float32 variants whose sums pass through global float atomics (they flush subnormal
 * operands and results to zero, which Higham's model does not allow for). +Inf (vacuous)
 * when sum|x| exceeds the accumulator format's largest finite value, since an intermediate
 * may then overflow; NaN when the variant has no bound model or the reference is not finite. */
double sl_variant_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg);

#ifdef __cplusplus
}
#endif
#endif

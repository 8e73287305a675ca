/* sl_ops.h: the one registry of operations: what is computed (`sum` today; mean, var, dot,
 * norm2, lse next). An operation's descriptor names its inputs, its result's format, its exact
 * reference (a function of reference/: the exact value rounded once), its error metrics and
 * its bound model. Every variant (kernels/sl_variants.h) names its operation in v->op; the
 * judge, the study, the report and the CLI iterate this registry as they iterate the variants',
 * so a new operation is its descriptor (one line in ops.c's list), its reference function and
 * its variants. */
#ifndef SL_OPS_H
#define SL_OPS_H
#include "sl_reference.h"
#include "sl_variants.h"
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An operation's parameters (one struct for every operation; each reads its own).
 * ddof: var/std divide by n - ddof (1: the unbiased estimate, torch.var's default and sumlab's;
 * 0: the population variance, numpy.var's). sl_op_params_default() gives the defaults; a zeroed
 * struct means ddof 0. */
typedef struct {
    uint32_t ddof;
    int ddof_given;    /* --ddof was named (the commands refuse it for an operation without one) */
} sl_op_params;
#define SL_DDOF_DEFAULT 1u
#define SL_DDOF_MAX 1000000u
sl_op_params sl_op_params_default(void);

/* The exact reference of an operation over its inputs x[0 .. inputs) of n values of dt each, with
 * its parameters p (NULL: the defaults), over up to `threads` host threads (the same result for
 * every count). ref needs no initialisation; release it with sl_reference_clear after every
 * call, success or not. 0, or -1 (err). */
typedef int sl_op_reference_fn(sl_reference *ref, const void *const *x, uint64_t n, sl_dtype dt,
                               const sl_op_params *p, unsigned threads, sl_err *err);
/* A variant's a-priori absolute error bound on the input ref describes, for the resolved launch
 * configuration cfg (NaN: no bound model; +Inf: vacuous). */
typedef double sl_op_bound_fn(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                              const sl_launch *cfg);

/* The format of an operation's result. */
typedef enum {
    SL_RESULT_INPUT_FORMAT = 0   /* one value in the input's format (float16 input: float16) */
} sl_result_format;

typedef struct {
    const char *name;            /* "sum": `--op sum`, the `op` column of results files */
    const char *description;     /* one line */
    int inputs;                  /* arrays it reads: 1 (sum) or 2 (dot) */
    sl_result_format result;
    const char *exact_variant;   /* the variant whose row is the exact reference ("exact") */
    const char *reference_text;  /* what the exact reference is, one line (list, reports) */
    const char *metrics;         /* the error metrics its rows carry, space-separated */
    sl_op_reference_fn *reference;
    sl_op_bound_fn *bound;
    /* the study's accuracy-vs-cond: the dataset family whose parameter cond_param sets this
     * operation's condition number (or, as lse's sigma, the quantity that drives it), swept over
     * 10^0 .. 10^cond_emax[dtype] (NULL: the operation has no conditioning sweep, e.g. max); the
     * rows' `sweep` column names cond_param */
    const char *cond_family, *cond_param;
    int cond_emax[SL_NDTYPES];
    /* or over these cond_nvalues values of cond_param, ascending, for every format (NULL: the
     * decades above); the presets thin them (quick every other one, tiny the first and the last,
     * the last always kept) */
    const double *cond_values;
    int cond_nvalues;
    /* the largest of cond_values that format dt reaches (0: every value): the values above it
     * leave that format's list before the presets thin it (var's kappa: float32 ~1.7e7, bfloat16
     * 256; the family refuses more) */
    double cond_max[SL_NDTYPES];
    /* the study's accuracy-vs-n: the dataset families it sweeps, by name, NULL-terminated (NULL:
     * every family that is not opt-in; `run --datasets` replaces either list) */
    const char *const *n_families;
    /* accuracy-vs-n's largest n on the GPU backend, as log2 (0: the presets' 2^24) */
    int n_log2max_gpu;
    /* the determinism experiment's dataset families, NULL-terminated (NULL: uniform-sym and
     * ill-conditioned; `run --datasets` replaces either list) */
    const char *const *det_families;
    /* the PyTorch call users run for it (torch.logsumexp), timed on the same GPU by
     * experiments/anchors/throughput_torch.py: the name of its rows in throughput-vs-n (a letter,
     * then letters, digits, '_' and '.'; NULL: none) */
    const char *torch_call;
} sl_operation;

size_t sl_op_count(void);
const sl_operation *sl_op_at(size_t i);                  /* NULL past the end */
const sl_operation *sl_op_find(const char *name);        /* NULL when unknown */
/* The operation a name selects; an unknown name is an error listing the known ones. */
int sl_op_parse(const char *name, const sl_operation **out, sl_err *err);
/* 1 when op reads a ddof (var, std). */
int sl_op_takes_ddof(const sl_operation *op);
/* 1 when name is some operation's torch_call (a framework's row in a results file). */
int sl_op_is_torch_call(const char *name);
/* The default operation (`sum`): what `sumlab sum` and every command without --op compute. */
const sl_operation *sl_op_default(void);
/* The operation v computes (NULL when v names none that is registered: the tests check that
 * none does). */
const sl_operation *sl_op_of(const sl_variant *v);
/* 1 when v is the row of op's exact reference (computed by reference/, not by a kernel). */
int sl_op_is_exact(const sl_variant *v);
/* op's variants named by list ("all" or comma-separated names), in registry order for "all" and
 * in list order otherwise; a name of another operation's variant is an error naming both. */
int sl_op_variants(const sl_operation *op, const char *list, const sl_variant **out, size_t max,
                   size_t *count, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

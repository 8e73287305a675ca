/* sl_variants.h: the one registry of summation variants. Each descriptor names a GPU kernel
 * (or none), its CPU twin (same operations in the same order for the same resolved launch
 * configuration, hence the same bits), its determinism class and its error-bound model.
 * Everything else (CLI, tests, experiments, plots) iterates over the registry. */
#ifndef SL_VARIANTS_H
#define SL_VARIANTS_H
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Determinism classes, weakest first (vocabulary of DESIGN.md). */
typedef enum {
    SL_DET_NONDETERMINISTIC = 0, /* identical runs may differ (atomics) */
    SL_DET_RUN_TO_RUN,           /* identical runs, same GPU and configuration, agree bit for bit */
    SL_DET_CONFIG_INDEPENDENT,   /* also independent of grid size, block size and SM count */
    SL_DET_ORDER_INDEPENDENT,    /* also independent of input order and of any split */
    SL_DET_CORRECTLY_ROUNDED     /* the exact sum rounded once */
} sl_determinism;
const char *sl_determinism_name(sl_determinism d);

/* Launch configuration. A variant's resolve() turns the user's request into exactly what
 * the GPU launcher will run; the twin receives that resolved structure. */
typedef struct {
    uint32_t block;      /* threads per block (0: the variant's default) */
    uint32_t grid;       /* blocks (0: derived from n and sm_count by resolve) */
    uint32_t sm_count;   /* SMs of the target device; the CPU backend assumes 132 */
    uint32_t items;      /* variant-specific work per thread (elements per load step,
                            accumulators, tile size...); 0: the variant's default */
    uint32_t addr_mod;   /* byte address of x[0] modulo 256 (vector variants peel a scalar
                            head up to the next 16-byte boundary); 0 for cudaMalloc'ed data */
    uint64_t order_seed; /* nondeterministic twins: seed of the sampled commit order */
    uint32_t ddof;       /* var/std: the divisor is n - ddof (the session's setting, copied in
                            before resolve; a zeroed sl_launch means ddof 0); other operations
                            ignore it */
    uint32_t accs;       /* independent accumulators per thread (1, 2, 4, 8), combined pairwise
                            at the end (a change of summation order, so of the bits and the
                            depth). grid-stride (0: 1): its step s adds into accumulator s mod
                            accs. vec4 (0: one per item; at most items): vector k of a step adds
                            into accumulator k mod accs. kahan (0: 1, 2 on 16-bit input): its
                            step s adds into set s mod accs of its per-lane Kahan accumulators
                            (accuracy.c). The other
                            ladder rungs refuse accs > 1, the other families ignore it */
    uint32_t width;      /* vec4: bytes per load (the element size, 8 or 16; 0: 16); the other
                            ladder rungs refuse a width, the other families ignore it */
} sl_launch;

#define SL_DEFAULT_SM_COUNT 132u

/* Error-bound model of a variant, mapped onto reference/'s bound kinds by the caller
 * (SL_BOUND_BINNED -> SL_REF_BOUND_BINNED: binned/indexed summation with K folds, Ahrens,
 * Demmel and Nguyen, TOMS 2020; for it depth() returns K, the number of folds, not a chain). */
/* The SL_BOUND_VAR_* models are the variance algorithms' (mean, var, std: each operation's bound
 * function in experiments/measure reads them with depth() as the chain of its sums):
 * textbook one-pass (sum and sum of squares), shifted one-pass (by the first value), two-pass,
 * corrected two-pass (Bjorck's term), Welford updates merged by Chan's formula.
 * SL_BOUND_EXACT: the result is exact when it is correct (max/min): bound 0. */
typedef enum { SL_BOUND_NONE = 0, SL_BOUND_RECURSIVE, SL_BOUND_COMPENSATED,
               SL_BOUND_CORRECTLY_ROUNDED, SL_BOUND_BINNED, SL_BOUND_VAR_TEXTBOOK,
               SL_BOUND_VAR_SHIFTED, SL_BOUND_VAR_TWO_PASS, SL_BOUND_VAR_CORRECTED,
               SL_BOUND_VAR_WELFORD, SL_BOUND_EXACT,
               /* dot: Ogita-Rump-Oishi's Dot2 bound u|s| + gamma^2 sum|x_i y_i| */
               SL_BOUND_DOT2 } sl_bound_model;

typedef struct sl_variant sl_variant;
/* The functions a descriptor points to. Each receives its own descriptor first, so one
 * function can serve a whole family (v->impl says which member) and every message names
 * v->name. The wrappers below are how callers outside kernels/ use them. */
/* Fills the zero fields of cfg (block, grid, items) exactly as the launcher will. */
typedef void sl_resolve_fn(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt);
/* Longest chain of roundings an input passes through, for the bound (k of gamma_k); for
 * SL_BOUND_BINNED the number of folds K. */
typedef double sl_depth_fn(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg);
/* CPU twin: returns 0, or -1 with err set (allocation failure, n too large). */
typedef int sl_cpu_fn(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                      const sl_launch *cfg, double *result, sl_err *err);
/* Bytes of device scratch the launcher needs (the harness zeroes it once at allocation; a
 * variant that uses counters leaves them zero when it finishes). */
typedef size_t sl_workspace_fn(const sl_variant *v, uint64_t n, sl_dtype dt,
                               const sl_launch *cfg);
/* Enqueues the whole sum on `stream` (a cudaStream_t) and writes the result, a float or a
 * double per dt, to d_result. Every CUDA call is checked; a failure returns -1 with err
 * naming the call, file, line and variant. */
typedef int sl_gpu_fn(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                      const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                      void *stream, sl_err *err);

/* rows (kernels/rows/rows.h): the optional row entries. A row kernel reduces each of `rows`
 * contiguous rows of n values (row i at x + i n) in one call and writes row i's result (dt's
 * format, as the 1-D launcher writes its one result) at d_results[i]; its twin writes row i's
 * result as a double into results[i]. cfg is the 1-D configuration resolved for n (addr_mod:
 * of row 0). Without them, sl_rows_cpu/sl_rows_gpu run the 1-D twin/launcher on each row. */
typedef int sl_rows_cpu_fn(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                           const sl_launch *cfg, double *results, sl_err *err);
typedef size_t sl_rows_workspace_fn(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                    const sl_launch *cfg);
typedef int sl_rows_gpu_fn(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, sl_dtype dt,
                           const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_results,
                           void *stream, sl_err *err);
/* Two-input operations (dot): the same roles with a second array y of n values of dt (x and y of
 * one format and length; the kernel reads both from device memory). A variant of a two-input
 * operation sets .cpu2/.gpu2 and leaves .cpu/.gpu NULL; the workspace and resolve functions are
 * shared (they see n and dt only). */
typedef int sl_cpu2_fn(const sl_variant *v, const void *x, const void *y, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, double *result, sl_err *err);
typedef int sl_gpu2_fn(const sl_variant *v, const void *d_x, const void *d_y, uint64_t n,
                       sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                       void *d_result, void *stream, sl_err *err);
/* A two-input row kernel: row i of x (at x + i n) with row i of y (at y + i y_stride: y_stride n,
 * or 0 for one row of y against every row of x), row i's result at d_results[i]. */
typedef int sl_rows_gpu2_fn(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride,
                            uint64_t rows, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                            size_t work_bytes, void *d_results, void *stream, sl_err *err);

/* A variant's descriptor: defined (designated initialisers) by its family's file, listed by
 * registry.c. */
struct sl_variant {
    const char *name;            /* e.g. "vec4" */
    const char *op;              /* the operation it computes ("sum"): a name in the operation
                                    registry (experiments/measure/sl_ops.h), which the tests check */
    const char *family;          /* "ladder", "accuracy", "anchor", "reference" */
    sl_determinism determinism;
    const char *description;     /* one line */
    unsigned dtypes;             /* SL_DTYPE_MASK(SL_F32) | ... : input formats accepted */
    uint64_t max_n;              /* largest n accepted; 0 = any (n < 2^40) */
    sl_bound_model bound;
    int acc_wide;                /* 1: float32 input accumulated in float64 (fp64-acc) */
    int acc_input;               /* 1: float16/bfloat16 input accumulated in its own format
                                    (half-acc, cub as CUB picks); 0: in float32 (the rule for
                                    16-bit input) */
    int ftz_atomics;             /* 1: float32 results pass through global float atomicAdd, which
                                    flushes subnormal operands and results to zero on sm_90: the
                                    bound gains 2 k FLT_MIN (see sl_variant_bound) */
    int impl;                    /* family-private: which member of its family (the ladder's
                                    rung, the accuracy engine...), read by shared functions */
    sl_resolve_fn *resolve;      /* NULL: nothing to resolve */
    sl_depth_fn *depth;          /* NULL: n (one chain through every element) */
    /* NULL for `cub` (CUB's order is its own) and for `exact` (computed by the reference) */
    sl_cpu_fn *cpu;
    /* GPU entry: NULL when built without CUDA or when the variant has no kernel */
    sl_workspace_fn *workspace;
    sl_gpu_fn *gpu;
    /* rows (kernels/rows/rows.h): a dedicated row kernel and its twin (NULL: the 1-D entry per
     * row; a row kernel without a twin of its own: the 1-D twin on each row, for kernels whose
     * row result is the 1-D call's on that row), and what can change a row's bits (NULL: the row
     * alone and the 1-D configuration) */
    sl_rows_cpu_fn *rows_cpu;
    sl_rows_workspace_fn *rows_workspace;
    sl_rows_gpu_fn *rows_gpu;
    const char *rows_bits;
    /* two-input operations (dot): the twin and the GPU entry taking x and y (NULL otherwise) */
    sl_cpu2_fn *cpu2;
    sl_gpu2_fn *gpu2;
    /* a two-input operation's row kernel (NULL: the 1-D entry per pair of rows); its workspace
     * is rows_workspace's, its twin rows_cpu's (NULL: the 1-D twin on each pair) */
    sl_rows_gpu2_fn *rows_gpu2;
};

size_t sl_variant_count(void);
const sl_variant *sl_variant_at(size_t i);
/* Variant names are unique within an operation (`exact` is the sum's and the variance's exact
 * row): sl_variant_find_op looks a name up among op's variants (op NULL: the first variant of
 * that name in registry order, the sum's first); sl_variant_find(name) is
 * sl_variant_find_op(NULL, name). NULL when unknown. */
const sl_variant *sl_variant_find_op(const char *op, const char *name);
const sl_variant *sl_variant_find(const char *name);
/* "all" or a comma-separated list of names; unknown names are an error naming them.
 * sl_variant_parse_list_op takes op's variants only ("all": op's; NULL: every operation's) and
 * names a variant of another operation as such. */
int sl_variant_parse_list(const char *list, const sl_variant **out, size_t max, size_t *count,
                          sl_err *err);
int sl_variant_parse_list_op(const char *op, const char *list, const sl_variant **out, size_t max,
                             size_t *count, sl_err *err);
/* Resolves cfg for v (fills defaults, sm_count 0 -> SL_DEFAULT_SM_COUNT, then v->resolve). */
void sl_variant_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt);
/* Longest chain of roundings for the bound (k of gamma_k): v->depth, or n when it has none. */
double sl_variant_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg);
/* Bytes of device scratch v's launcher needs for a resolved cfg (0 when it has no kernel). */
size_t sl_variant_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg);
/* The format v accumulates input of dt in: float64 for acc_wide, the input format for
 * acc_input or 32/64-bit input, float32 for 16-bit input otherwise (their conversion to
 * float32 is exact; the result is rounded once to the input format at the end). */
sl_dtype sl_variant_acc(const sl_variant *v, sl_dtype dt);
/* Runs the twin after checking dtype and max_n (a clear error otherwise). */
int sl_variant_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                   const sl_launch *cfg, double *result, sl_err *err);

/* The twin over the operation's inputs xs[0..inputs): v->cpu on xs[0] for a one-input variant,
 * v->cpu2 on xs[0], xs[1] for a two-input one, after the checks of sl_variant_cpu. */
int sl_variant_cpu_in(const sl_variant *v, const void *const *xs, uint64_t n, sl_dtype dt,
                      const sl_launch *cfg, double *result, sl_err *err);
/* 1 when v has a CPU twin (one- or two-input), 1 when it has a GPU entry. */
int sl_variant_has_cpu(const sl_variant *v);
int sl_variant_has_gpu(const sl_variant *v);

#ifdef __cplusplus
}
#endif
#endif

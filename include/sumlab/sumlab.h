/* sumlab/sumlab.h: the public C API of libsumlab: list the operations and variants, run an
 * operation's variant on host memory (its CPU twin, or the exact reference) or on device memory
 * (its kernel, on the caller's CUDA stream, without copying the input), judge a value computed
 * elsewhere against the exact result, and the mergeable states of the order-independent variants.
 * C11; every function that can fail returns a sumlab_status and fills err (when not NULL) with one
 * line; nothing prints, nothing exits. Thread-safe unless a function says otherwise.
 *
 * Results travel as a double that holds the value exactly: a float32, float16 or bfloat16 result
 * is a value of that format (the double converts to it without rounding). */
#ifndef SUMLAB_SUMLAB_H
#define SUMLAB_SUMLAB_H
#include <stddef.h>
#include <stdint.h>
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SUMLAB_VERSION_MAJOR 0
#define SUMLAB_VERSION_MINOR 2
#define SUMLAB_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH" of the library that is linked (may differ from the header's macros). */
const char *sumlab_version(void);

typedef enum {
    SUMLAB_OK = 0,
    SUMLAB_EINVAL = 1,         /* a bad argument: unknown op/variant, NULL pointer, n too large,
                                  a variant of another operation, a dtype the variant refuses */
    SUMLAB_EUNSUPPORTED = 2,   /* valid, but not here: no CPU twin, no kernel in this build, no
                                  state for this variant */
    SUMLAB_ENOMEM = 3,         /* host or device allocation failed */
    SUMLAB_ECUDA = 4,          /* a CUDA call failed (err names it) */
    SUMLAB_ENOGPU = 5,         /* device memory given, but no usable GPU */
    SUMLAB_EMPI = 6,           /* an MPI call failed (sumlab/sumlab_mpi.h; err names it) */
    SUMLAB_ENCCL = 7           /* an NCCL call failed (sumlab/sumlab_nccl.h; err names it) */
} sumlab_status;

/* ---- the registries --------------------------------------------------------------------- */
/* The strings of the info structs are the library's (static: valid for the process's life). */
typedef struct {
    const char *name;          /* "sum" */
    int inputs;                /* arrays it reads: 1 or 2 */
    const char *exact_variant; /* the variant whose result is the exact reference ("exact") */
    const char *description;
} sumlab_op_info;
size_t sumlab_op_count(void);
sumlab_status sumlab_op_at(size_t i, sumlab_op_info *out, sl_err *err);
sumlab_status sumlab_op_find(const char *name, sumlab_op_info *out, sl_err *err);

typedef struct {
    const char *name;          /* "superacc" */
    const char *op;            /* the operation it computes */
    const char *family;        /* "ladder", "accuracy", "anchor", "reference" */
    const char *determinism;   /* "nondeterministic" .. "correctly-rounded" (DESIGN.md) */
    const char *description;
    unsigned dtypes;           /* SL_DTYPE_MASK(SL_F32) | ... */
    uint64_t max_n;            /* 0: any n < 2^40 */
    int has_cpu;               /* a CPU twin (or the exact reference) runs on host memory */
    int has_gpu;               /* this build has its kernel */
    int has_state;             /* sumlab_state_* accepts it */
} sumlab_variant_info;
size_t sumlab_variant_count(void);
sumlab_status sumlab_variant_at(size_t i, sumlab_variant_info *out, sl_err *err);
sumlab_status sumlab_variant_find(const char *name, sumlab_variant_info *out, sl_err *err);

/* ---- running a variant ------------------------------------------------------------------ */
/* A launch request (0 fields: the variant's defaults); NULL everywhere means all defaults. The
 * CLI's limits hold (else SUMLAB_EINVAL): block a power of two in [32, 1024], grid below 2^31,
 * items at most 2^20, sm_count at most 4096.
 * sm_count: the SM count the configuration is derived for (0: on the host 132, an H200's; on the
 * device the current device's), so a host twin can reproduce a run on another GPU. */
typedef struct {
    uint32_t block, grid, items;
    uint32_t sm_count;
} sumlab_launch;

/* An operation's parameters: ddof for var and std (the divisor is n - ddof; 1, torch.var's
 * default and the library's; 0 for numpy.var's population variance; at most 1000000); the other
 * operations ignore them. The *_ex calls take them (NULL: sumlab_params_default()); the calls
 * without _ex use the defaults. Reserved fields must be 0 (SUMLAB_EINVAL otherwise). */
typedef struct {
    uint32_t ddof;
    uint32_t reserved[7];
} sumlab_params;
sumlab_params sumlab_params_default(void);

/* Argument rules of both reduce calls: op NULL is the default operation ("sum"); variant must be
 * one of op's (SUMLAB_EINVAL otherwise, as for an unknown name, a dtype the variant refuses,
 * n >= 2^40 or beyond its max_n, x NULL with n > 0, x not aligned to its element size, y given
 * to a one-input operation or missing for a two-input one).
 *
 * op's variant over host memory x (and y for a two-input operation, else NULL), n values of dt:
 * its CPU twin, or the exact reference for the operation's exact variant. The twin performs the
 * kernel's operations in the kernel's order for the same launch configuration, with the same
 * address alignment (x modulo 256): the same bits as sumlab_reduce_device on device memory of
 * that alignment (a nondeterministic variant's twin: one sampled commit order, the same every
 * call). A launch request the variant refuses (a block size it cannot run): SUMLAB_EINVAL.
 * No twin (a vendor anchor such as "cub"): SUMLAB_EUNSUPPORTED. */
sumlab_status sumlab_reduce_host(const char *op, const char *variant, const void *x,
                                 const void *y, uint64_t n, sl_dtype dt,
                                 const sumlab_launch *launch, double *result, sl_err *err);
/* The same over device memory of the current CUDA device, enqueued on stream (a cudaStream_t;
 * NULL: the legacy default stream). The result is written to d_result, device memory of one
 * value of dt (2 bytes for float16/bfloat16: the 16-bit pattern; 4 for float32, 8 for float64),
 * stream-ordered: the call returns once it is enqueued, the input is never copied. d_x and
 * d_result must be device (or managed) memory of the current device (SUMLAB_EINVAL otherwise).
 * Scratch memory is the library's (allocated on first use per device and stream, zeroed once,
 * grown as needed, kept for the 64 streams used last, freed by sumlab_release); calls are serialised by one mutex while they
 * enqueue. No kernel for the variant in this build (or a build without CUDA):
 * SUMLAB_EUNSUPPORTED; no usable device: SUMLAB_ENOGPU; a failed CUDA call: SUMLAB_ECUDA. */
sumlab_status sumlab_reduce_device(const char *op, const char *variant, const void *d_x,
                                   const void *d_y, uint64_t n, sl_dtype dt,
                                   const sumlab_launch *launch, void *d_result, void *stream,
                                   sl_err *err);
/* The two reduce calls with op's parameters. */
sumlab_status sumlab_reduce_host_ex(const char *op, const sumlab_params *params, const char *variant,
                                    const void *x, const void *y, uint64_t n, sl_dtype dt,
                                    const sumlab_launch *launch, double *result, sl_err *err);
sumlab_status sumlab_reduce_device_ex(const char *op, const sumlab_params *params, const char *variant,
                                      const void *d_x, const void *d_y, uint64_t n, sl_dtype dt,
                                      const sumlab_launch *launch, void *d_result, void *stream,
                                      sl_err *err);
/* Rows (lib/rows.c): x holds `rows` rows of n values of dt (a C-order [rows, n] array); each
 * row is reduced along its n values by op's variant, row i's result into results[i] (host: a
 * double per row; device: d_results, device memory of rows values of dt, stream-ordered).
 * Row i's result equals the one-array call on row i at its address (the same bits), and for
 * the order-independent variants it is a function of row i alone, whatever rows is (batch
 * invariance). The argument rules are the one-array calls' (with n the row length); the exact
 * variant is host-only. Device scratch: stream-ordered (cudaMallocAsync), freed after the
 * call's kernels. These two take one-input operations; the *_xy_* forms below take both kinds. */
sumlab_status sumlab_reduce_rows_host_ex(const char *op, const sumlab_params *params, const char *variant,
                                         const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                                         const sumlab_launch *launch, double *results, sl_err *err);
sumlab_status sumlab_reduce_rows_device_ex(const char *op, const sumlab_params *params,
                                           const char *variant, const void *d_x, uint64_t rows,
                                           uint64_t n, sl_dtype dt, const sumlab_launch *launch,
                                           void *d_results, void *stream, sl_err *err);
/* The same with a second input for a two-input operation (dot): y (d_y) of dt, y_stride values
 * from one of its rows to the next: n (y holds `rows` rows of n values, row i of y with row i of
 * x) or 0 (y is one row of n values, with every row of x: the product of the matrix x and the
 * vector y); other strides: SUMLAB_EINVAL. y NULL (y_stride ignored) for a one-input operation:
 * the calls above. Row i's result equals the one-array call on (row i of x, its row of y) at
 * their addresses. On the device each pair must share one alignment modulo 16 bytes, as the
 * one-array call needs: d_x and d_y at one alignment, and with y_stride 0 and more than one row,
 * rows whose n values span a multiple of 16 bytes (SUMLAB_EINVAL otherwise, before any work). */
sumlab_status sumlab_reduce_rows_xy_host_ex(const char *op, const sumlab_params *params, const char *variant,
                                            const void *x, const void *y, uint64_t y_stride, uint64_t rows,
                                            uint64_t n, sl_dtype dt, const sumlab_launch *launch, double *results,
                                            sl_err *err);
sumlab_status sumlab_reduce_rows_xy_device_ex(const char *op, const sumlab_params *params,
                                              const char *variant, const void *d_x, const void *d_y,
                                              uint64_t y_stride, uint64_t rows, uint64_t n, sl_dtype dt,
                                              const sumlab_launch *launch, void *d_results, void *stream,
                                              sl_err *err);
/* Frees the library's cached device scratch (every device) and the host twins' cached copies of
 * recent inputs (atomic-block's). Not while calls are in flight. */
void sumlab_release(void);
/* What the library keeps between calls now: device scratch buffers (one per (device, stream)
 * used, at most 64: the least recently used one is freed, after its device has finished, for a
 * new stream) and their bytes (0 without CUDA), and the host bytes the twins keep (atomic-block's
 * copies of recent inputs, at most 4 x 16 MiB). All 0 after sumlab_release. Any pointer may be
 * NULL. */
void sumlab_cache_info(size_t *device_buffers, size_t *device_bytes, size_t *host_bytes);

/* ---- the judge ------------------------------------------------------------------------- */
/* (The exact reference runs over up to 16 host threads for large n: the same bits for every
 * count.) */
typedef struct {
    double exact;              /* the exact result rounded once to dt */
    double exact_f64;          /* ... to float64 */
    double abs_err, rel_err;   /* of value against the exact result (rounded once to double) */
    double ulps;               /* in ulps of the exact result rounded to dt */
    double ulps_f64;           /* in ulps of float64 */
    double cond;               /* condition number (sum|x| / |sum x| for the sum) */
    double bound;              /* bound_of's a-priori bound on this input (NaN: none asked) */
    double bound_ratio;        /* abs_err / bound */
} sumlab_judgement;
/* value (computed elsewhere) judged against op's exact result over host memory x (and y).
 * value_is_exact = 0: value is rounded once to dt first (a decimal a user's float32 holds);
 * 1: value must be a value of dt (else SUMLAB_EINVAL). bound_of: a variant name or NULL. */
sumlab_status sumlab_judge(const char *op, const void *x, const void *y, uint64_t n, sl_dtype dt,
                           double value, int value_is_exact, const char *bound_of,
                           sumlab_judgement *out, sl_err *err);
/* The exact result S itself as text, as `sumlab judge` prints it (columns exact_sum_hex,
 * exact_sum_dec, exact_sum_bits; sumlab_judge_as fills it; release with sumlab_exact_free):
 * hex, a C99 hex float with every bit ("[-]0x1.HHHp+E", "0x0p+0", "-0x0p+0", "inf", "-inf",
 * "nan"); dec, "[-]D.DDDe+X" with the fewest digits that identify S among numbers of its bits
 * ("0", "-0", "inf", "-inf", "nan" for the special cases); bits, S's significant bits, leading
 * to last 1-bit (0 for the special cases). */
typedef struct {
    char *hex, *dec;
    long bits;
} sumlab_exact;
void sumlab_exact_free(sumlab_exact *e);
/* sumlab_judge with the value's format given: value is rounded once to value_as (any of the four
 * formats; a no-op when it is a value of that format) and judged as that, e.g. a float64 sum of
 * float32 input with value_as SL_F64 keeps its bits (abs_err, rel_err and ulps_f64 of the float64
 * value; ulps stays in ulps of S rounded to dt). value_as = dt is sumlab_judge with
 * value_is_exact = 0. exact: NULL, or filled with S as text (the same reference computation;
 * sumlab_exact_free releases it; zeroed on failure). A value_as that is no sl_dtype: SUMLAB_EINVAL. */
sumlab_status sumlab_judge_as(const char *op, const void *x, const void *y, uint64_t n, sl_dtype dt,
                              double value, sl_dtype value_as, const char *bound_of,
                              sumlab_judgement *out, sumlab_exact *exact, sl_err *err);
/* sumlab_judge_as with op's parameters. */
sumlab_status sumlab_judge_ex(const char *op, const sumlab_params *params, const void *x, const void *y,
                              uint64_t n, sl_dtype dt, double value, sl_dtype value_as,
                              const char *bound_of, sumlab_judgement *out, sumlab_exact *exact,
                              sl_err *err);
/* op's exact result over host memory as text: a C99 hex float with every bit ("[-]0x1.HHHp+E",
 * "0x0p+0", "inf", "-inf", "nan"), malloc'ed into *hex (free with sumlab_free). */
sumlab_status sumlab_exact_hex(const char *op, const void *x, const void *y, uint64_t n,
                               sl_dtype dt, char **hex, sl_err *err);
sumlab_status sumlab_exact_hex_ex(const char *op, const sumlab_params *params, const void *x,
                                  const void *y, uint64_t n, sl_dtype dt, char **hex, sl_err *err);
void sumlab_free(void *p);

/* ---- mergeable states ------------------------------------------------------------------ */
/* The exact, commutative, associative state of an order-independent variant ("reproducible",
 * "superacc", "exact"): add buffers in any order and split, merge states from threads, streams,
 * devices or processes, and the result is the same bits as one call over everything. */
typedef struct sumlab_state sumlab_state;
sumlab_status sumlab_state_new(const char *variant, sl_dtype dt, sumlab_state **out, sl_err *err);
void sumlab_state_free(sumlab_state *s);
/* A state is not thread-safe: one thread at a time adds to or merges into it.
 * Adds n values of the state's dtype from host memory. */
sumlab_status sumlab_state_add(sumlab_state *s, const void *x, uint64_t n, sl_err *err);
/* Adds n values from device memory on stream (returns once the state is updated: it synchronises
 * the stream). Today it copies the input to the host in pieces of 2^20 values, ordered on
 * stream, and adds them there (the same state as sumlab_state_add of the same values); a device
 * state kernel may replace it. */
sumlab_status sumlab_state_add_device(sumlab_state *s, const void *d_x, uint64_t n, void *stream,
                                      sl_err *err);
/* dst += src (same variant and dtype, else SUMLAB_EINVAL). */
sumlab_status sumlab_state_merge(sumlab_state *dst, const sumlab_state *src, sl_err *err);
/* The state's bytes: a fixed size per (variant, dtype), canonical (the same inputs in any order
 * or split save the same bytes), self-describing: a 16-byte header (magic "SLST", the state
 * kind, the dtype, the payload's size; host byte order) then the payload padded to 8 bytes.
 * save: len must be at least sumlab_state_size(s). load and merge_saved check the header(s), len
 * and the payload: SUMLAB_EINVAL for bytes that are no state (also a damaged payload: an index,
 * flag or limb no state of that kind holds), or for states of different kinds or dtypes. */
size_t sumlab_state_size(const sumlab_state *s);
sumlab_status sumlab_state_save(const sumlab_state *s, void *buf, size_t len, sl_err *err);
sumlab_status sumlab_state_load(const void *buf, size_t len, sumlab_state **out, sl_err *err);
/* Merges the saved state src into the saved state dst in place (what an MPI_Op or an allgather
 * does with bytes). */
sumlab_status sumlab_state_merge_saved(void *dst, const void *src, size_t len, sl_err *err);
/* The state's variant name (static string) and dtype, e.g. of a state made by sumlab_state_load
 * (either pointer may be NULL). */
sumlab_status sumlab_state_info(const sumlab_state *s, const char **variant, sl_dtype *dt,
                                sl_err *err);
/* The variant's result of everything added (rounded once: the variant's own rounding). A state
 * with nothing added gives +0, as the variant on an empty array; one of -0 inputs alone, -0. */
sumlab_status sumlab_state_result(const sumlab_state *s, double *result, sl_err *err);

/* ---- the integer-limb form: a state allreduced by two built-in collectives ---------------
 * A state is (index, int64 limbs). An allreduce: MAX of sumlab_state_index over the ranks, each
 * rank's sumlab_state_to_limbs at that index, element-wise SUM of the limbs (integer addition:
 * the same bits for any number of ranks, any algorithm, any order), sumlab_state_from_limbs.
 * The result equals the merge of every rank's state, byte for byte (reproducible: the state
 * raised to the common index as its merge does; superacc, exact: index 0). The limbs have
 * headroom for up to SUMLAB_LIMB_MAX_RANKS ranks. sumlab_mpi_allreduce_limbs (sumlab_mpi.h) and
 * sumlab_nccl_allreduce_limbs (sumlab_nccl.h) run it; Python's sumlab.allreduce over a
 * torch.distributed group does too.
 * limb_count: the limbs of s's variant and dtype (0 for NULL). to_limbs: SUMLAB_EINVAL when
 * index is below s's own or n < limb_count. from_limbs: s (its variant and dtype kept) becomes
 * the state of the summed limbs at index; SUMLAB_EINVAL, s unchanged, for limbs that make no
 * state (an index out of the format's range, a fold beyond any rank count's sum, counts that
 * disagree). */
#define SUMLAB_LIMB_MAX_RANKS (1L << 22)
size_t sumlab_state_limb_count(const sumlab_state *s);
sumlab_status sumlab_state_index(const sumlab_state *s, int32_t *index, sl_err *err);
sumlab_status sumlab_state_to_limbs(const sumlab_state *s, int32_t index, int64_t *limbs, size_t n,
                                    sl_err *err);
sumlab_status sumlab_state_from_limbs(sumlab_state *s, int32_t index, const int64_t *limbs, size_t n,
                                      sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

/* sl_state.h: the accumulator states that merge exactly (DESIGN.md, "Accumulator states and
 * scale-out"): one table entry per order-independent variant says how a slice becomes saved
 * state bytes, how two saved states merge (exact, commutative, associative) and how a state
 * becomes the variant's result. Knows no MPI: processes (an MPI user-defined operation), tests
 * and threads all merge through the same bytes. Plugging a variant in is one table entry in
 * state.c (bytes, sum, merge, finish). */
#ifndef SL_STATE_H
#define SL_STATE_H
#include <stddef.h>
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *variant;                 /* registry name: "superacc", "exact", ... */
    const char *source;                  /* where the rank's state comes from (for the report) */
    size_t (*bytes)(sl_dtype dt);        /* size of a saved state */
    /* the saved state of x[0..n) into saved (bytes(dt) bytes). 0, or -1 with err */
    int (*sum)(const void *x, uint64_t n, sl_dtype dt, void *saved, sl_err *err);
    void (*merge)(void *dst, const void *src, sl_dtype dt);   /* dst += src, exact */
    double (*finish)(const void *saved, sl_dtype dt);         /* the variant's result */
    /* The integer-limb form (an allreduce by MAX and SUM, see below): int64 words per state,
     * the state's index, the words of the state re-expressed at index >= its own (-1 when
     * below), and the canonical saved state of the words' sum at that index. */
    size_t (*nlimbs)(sl_dtype dt);
    int32_t (*index)(const void *saved, sl_dtype dt);
    int (*to_limbs)(const void *saved, sl_dtype dt, int32_t index, int64_t *limb);
    int (*from_limbs)(const int64_t *limb, sl_dtype dt, int32_t index, void *saved);   /* 0, -1 */
    /* 1 when saved is a state this kind makes (its canonical form: index in range, limbs
     * normalised, flags known), else 0: bytes from a file or a peer are checked before use */
    int (*valid)(const void *saved, sl_dtype dt);
} sl_state_kind;

size_t sl_state_kind_count(void);
const sl_state_kind *sl_state_kind_at(size_t i);
const sl_state_kind *sl_state_kind_find(const char *variant);   /* NULL: no state */

/* A framed state for transport: a 16-byte header (magic, kind, dtype, payload size) and the
 * saved state, padded to 8 bytes. Merging checks both headers. */
#define SL_STATE_HDR 16u
size_t sl_state_blob_bytes(const sl_state_kind *k, sl_dtype dt);
int sl_state_blob_sum(const sl_state_kind *k, const void *x, uint64_t n, sl_dtype dt, void *blob,
                      sl_err *err);
/* 1 when blob is a framed state whose payload is one its kind makes (sl_state_kind.valid). */
int sl_state_blob_valid(const void *blob);
/* dst += src; -1 (nothing changed) when the headers differ or either is no valid state. */
int sl_state_blob_merge(void *dst, const void *src);
double sl_state_blob_finish(const void *blob);
/* The kind and dtype of a framed state (its header checked: magic, kind, dtype, payload size);
 * NULL for bytes that are no state's. */
const sl_state_kind *sl_state_blob_kind(const void *blob, sl_dtype *dt);

/* The integer-limb form, for an allreduce that any collective library can run with two
 * built-in operations: a state is (index, int64 words). Every rank takes the MAX of the indices,
 * re-expresses its state at that index (superacc and exact: index 0, their limbs as they are;
 * reproducible: the binned state raised to the common top as its merge does, lowest folds
 * dropped), then the words are SUMmed (integer addition: associative and commutative, so the
 * same bits for any number of ranks and any reduction order) and normalised. The result equals
 * the exact merge of the ranks' states (sl_state_blob_merge) byte for byte. Headroom: every word
 * of a canonical state is below 2^41 in magnitude (normalised limbs < 2^32, counts < 2^40), so a
 * sum over up to SL_STATE_MAX_RANKS ranks stays inside int64. Flags become one 0/1 word per bit
 * (summed: set when the sum is > 0).
 * sl_state_blob_nlimbs: words of the blob's form (0: no state). sl_state_blob_index: its index
 * (0, or -1 for bytes that are no state). sl_state_blob_to_limbs: the words at index (-1: no state,
 * or index below the state's own). sl_state_blob_from_limbs: blob (whose header names kind and
 * dtype) takes the state of the summed words at index (-1, blob unchanged: no state, or words
 * that make no valid state). */
#define SL_STATE_MAX_RANKS (1L << 22)
size_t sl_state_blob_nlimbs(const void *blob);
int sl_state_blob_index(const void *blob, int32_t *index);
int sl_state_blob_to_limbs(const void *blob, int32_t index, int64_t *limb);
int sl_state_blob_from_limbs(void *blob, int32_t index, const int64_t *limb);

/* The exchange of one allreduce: max_i32 replaces *v by the MAX over the ranks, sum_i64 replaces
 * v[0..n) by the element-wise SUM over the ranks (0, or -1 with err filled). */
typedef struct {
    int (*max_i32)(int32_t *v, void *ctx, sl_err *err);
    int (*sum_i64)(int64_t *v, size_t n, void *ctx, sl_err *err);
    void *ctx;
    int ranks;                 /* the number of ranks (checked against SL_STATE_MAX_RANKS) */
} sl_state_exchange;
/* blob (collective) becomes the merge of every rank's blob through x: MAX of the index, SUM of
 * the words. Every rank must hold a state of the same kind and dtype (the caller checks). 0, or
 * -1 with err (blob unchanged). */
int sl_state_blob_allreduce(void *blob, const sl_state_exchange *x, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

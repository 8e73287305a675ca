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
/* dst += src; -1 (nothing changed) when the headers differ or are no state's. */
int sl_state_blob_merge(void *dst, const void *src);
double sl_state_blob_finish(const void *blob);
/* The kind and dtype of a framed state (its header checked: magic, kind, dtype, payload size);
 * NULL for bytes that are no state's. */
const sl_state_kind *sl_state_blob_kind(const void *blob, sl_dtype *dt);

#ifdef __cplusplus
}
#endif
#endif

/* dist.c: the integer-limb form of libsumlab's states (sumlab.h, "the integer-limb form"): what an
 * allreduce by MAX and SUM exchanges (MPI, NCCL, torch.distributed), over experiments/mpi/state.c. */
#include <stdlib.h>
#include <string.h>
#include "sl_lib.h"

_Static_assert(SUMLAB_LIMB_MAX_RANKS == SL_STATE_MAX_RANKS, "SUMLAB_LIMB_MAX_RANKS");

size_t sumlab_state_limb_count(const sumlab_state *s) { return s ? sl_state_blob_nlimbs(s->blob) : 0; }

sumlab_status sumlab_state_index(const sumlab_state *s, int32_t *index, sl_err *err)
{
    if (!s || !index) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_index: state or index is NULL");
    if (sl_state_blob_index(s->blob, index))
        return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_index: the state's bytes are no state");
    return SUMLAB_OK;
}

sumlab_status sumlab_state_to_limbs(const sumlab_state *s, int32_t index, int64_t *limbs, size_t n,
                                    sl_err *err)
{
    if (!s || !limbs) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_to_limbs: state or limbs is NULL");
    size_t m = sl_state_blob_nlimbs(s->blob);
    if (n < m)
        return sl_lib_fail(SUMLAB_EINVAL, err, "a %s %s state takes %zu limbs (room for %zu)", s->kind->variant,
                           sl_dtype_name(s->dt), m, n);
    if (sl_state_blob_to_limbs(s->blob, index, limbs))
        return sl_lib_fail(SUMLAB_EINVAL, err, "a %s %s state cannot be expressed at index %d (below its own)",
                           s->kind->variant, sl_dtype_name(s->dt), (int)index);
    return SUMLAB_OK;
}

sumlab_status sumlab_state_from_limbs(sumlab_state *s, int32_t index, const int64_t *limbs, size_t n,
                                      sl_err *err)
{
    if (!s || !limbs) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_from_limbs: state or limbs is NULL");
    size_t m = sl_state_blob_nlimbs(s->blob);
    if (n < m)
        return sl_lib_fail(SUMLAB_EINVAL, err, "a %s %s state takes %zu limbs (got %zu)", s->kind->variant,
                           sl_dtype_name(s->dt), m, n);
    unsigned char *tmp = malloc(s->bytes);
    if (!tmp) return sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for a %s state", s->kind->variant);
    memcpy(tmp, s->blob, s->bytes);
    int rc = sl_state_blob_from_limbs(tmp, index, limbs);
    if (!rc) memcpy(s->blob, tmp, s->bytes);
    free(tmp);
    if (rc)
        return sl_lib_fail(SUMLAB_EINVAL, err, "the limbs at index %d make no %s %s state", (int)index,
                           s->kind->variant, sl_dtype_name(s->dt));
    return SUMLAB_OK;
}

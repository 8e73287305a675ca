/* mpi.c: libsumlab_mpi (sumlab/sumlab_mpi.h): a state allreduced with a user-defined, commutative
 * MPI_Op that merges saved states exactly (as experiments/mpi/'s ranks do with the same bytes),
 * or in its integer-limb form (MPI_MAX of the index, MPI_SUM of int64 limbs), on the public API
 * of libsumlab alone. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sumlab/sumlab_mpi.h"
#include "sl_lib_state.h"

/* Fills err (when not NULL) and returns st (libsumlab's own helper is not exported). */
static sumlab_status fail(sumlab_status st, sl_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_err_vset(err, fmt, ap);
    va_end(ap);
    return st;
}

/* inout[i] += in[i] for *len saved states of the datatype's size (headers agreed beforehand). An
 * operation cannot return an error: a merge that fails (bytes that are no valid state) leaves
 * inout[i]'s header zeroed, which every later merge keeps, so that the result is no state and
 * sumlab_state_load refuses it on every rank; a datatype whose size MPI cannot say ends the job
 * (nothing could be merged, and a result left as it was would look valid). */
static void state_merge_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int size = 0;
    if (MPI_Type_size(*type, &size) != MPI_SUCCESS || size < (int)SL_STATE_HDR) {
        fprintf(stderr, "sumlab: MPI could not say the size of a saved state's datatype: no merge\n");
        MPI_Abort(MPI_COMM_WORLD, 70);
        return;
    }
    for (int i = 0; i < *len; i++) {
        char *d = (char *)inout + (size_t)i * (size_t)size;
        if (sumlab_state_merge_saved(d, (const char *)in + (size_t)i * (size_t)size, (size_t)size, NULL))
            memset(d, 0, SL_STATE_HDR);
    }
}

#define MPI_CK(call)                                                                             \
    do {                                                                                         \
        int rc_ = (call);                                                                        \
        if (rc_ != MPI_SUCCESS) {                                                                \
            char es_[MPI_MAX_ERROR_STRING];                                                      \
            int el_ = 0;                                                                         \
            if (MPI_Error_string(rc_, es_, &el_) != MPI_SUCCESS) snprintf(es_, sizeof es_, "?"); \
            st = fail(SUMLAB_EMPI, err, "%s failed: %s", #call, es_);                    \
            goto done;                                                                           \
        }                                                                                        \
    } while (0)

/* Collective: every rank's (kind, dtype) and size must agree (max and min of each over the
 * ranks); *buf takes s's saved bytes (malloc'ed, also on failure). what names the caller. */
static sumlab_status agree(const sumlab_state *s, MPI_Comm comm, unsigned char **buf, const char *what,
                           sl_err *err)
{
    sumlab_status st = SUMLAB_OK;
    size_t size = s ? sumlab_state_size(s) : 0;
    int key[4] = {-1, -1, 1, 1};
    *buf = NULL;
    if (s && size <= (size_t)1 << 30 && (*buf = malloc(size)) &&
        sumlab_state_save(s, *buf, size, NULL) == SUMLAB_OK) {
        unsigned char *b = *buf;
        uint16_t kind, dt;
        memcpy(&kind, b + 4, 2);
        memcpy(&dt, b + 6, 2);
        key[0] = (int)kind * 16 + (int)dt;
        key[1] = (int)size;
        key[2] = -key[0];
        key[3] = -key[1];
    }
    int agreed[4];
    MPI_CK(MPI_Allreduce(key, agreed, 4, MPI_INT, MPI_MAX, comm));
    if (agreed[0] != -agreed[2] || agreed[1] != -agreed[3] || agreed[0] < 0)
        st = fail(SUMLAB_EINVAL, err, "%s: %s", what,
                  !s ? "a NULL state on this rank"
                  : !*buf ? "out of memory for the saved state on this rank"
                          : "the ranks hold states of different variants or dtypes (or a "
                            "rank passed none)");
done:
    return st;
}

sumlab_status sumlab_mpi_allreduce_state(sumlab_state *s, MPI_Comm comm, sl_err *err)
{
    unsigned char *buf = NULL;
    sumlab_state *merged = NULL;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
    size_t size = s ? sumlab_state_size(s) : 0;
    sumlab_status st = agree(s, comm, &buf, "sumlab_mpi_allreduce_state", err);
    if (st) goto done;
    MPI_CK(MPI_Type_contiguous((int)size, MPI_BYTE, &t));
    MPI_CK(MPI_Type_commit(&t));
    MPI_CK(MPI_Op_create(state_merge_op, 1 /* commutative */, &op));
    MPI_CK(MPI_Allreduce(MPI_IN_PLACE, buf, 1, t, op, comm));
    /* the operation and type freed (and checked) before s changes: an error leaves s as it was */
    MPI_CK(MPI_Op_free(&op));
    MPI_CK(MPI_Type_free(&t));
    if ((st = sumlab_state_load(buf, size, &merged, err))) goto done;
    /* s takes the merged bytes (same kind, dtype and size) */
    memcpy(s->blob, merged->blob, size);
done:
    if (op != MPI_OP_NULL) (void)MPI_Op_free(&op);          /* (after an earlier failure: cleanup) */
    if (t != MPI_DATATYPE_NULL) (void)MPI_Type_free(&t);
    sumlab_state_free(merged);
    free(buf);
    return st;
}

sumlab_status sumlab_mpi_allreduce_limbs(sumlab_state *s, MPI_Comm comm, sl_err *err)
{
    unsigned char *buf = NULL;
    int64_t *limbs = NULL;
    int K = 0;
    sumlab_status st = agree(s, comm, &buf, "sumlab_mpi_allreduce_limbs", err);
    if (st) goto done;
    MPI_CK(MPI_Comm_size(comm, &K));
    if (K > SUMLAB_LIMB_MAX_RANKS) {   /* the same answer on every rank */
        st = fail(SUMLAB_EINVAL, err, "sumlab_mpi_allreduce_limbs: %d ranks (the limbs have headroom "
                  "for %ld)", K, (long)SUMLAB_LIMB_MAX_RANKS);
        goto done;
    }
    const size_t m = sumlab_state_limb_count(s);
    int mine = (limbs = malloc(m * sizeof *limbs)) != NULL, all = 0;
    MPI_CK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm));
    if (!all) {
        st = fail(SUMLAB_ENOMEM, err, "sumlab_mpi_allreduce_limbs: out of memory for %zu limbs on %s", m,
                  mine ? "another rank" : "this rank");
        goto done;
    }
    int32_t index = 0;
    if ((st = sumlab_state_index(s, &index, err))) goto done;   /* agreed states: cannot fail */
    MPI_CK(MPI_Allreduce(MPI_IN_PLACE, &index, 1, MPI_INT32_T, MPI_MAX, comm));
    if ((st = sumlab_state_to_limbs(s, index, limbs, m, err))) goto done;
    MPI_CK(MPI_Allreduce(MPI_IN_PLACE, limbs, (int)m, MPI_INT64_T, MPI_SUM, comm));
    st = sumlab_state_from_limbs(s, index, limbs, m, err);
done:
    free(limbs);
    free(buf);
    return st;
}

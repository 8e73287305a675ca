/* sumlab/sumlab_nccl.h: a sumlab state allreduced across the ranks of an NCCL communicator
 * through the integer-limb form (libsumlab_nccl, target sumlab::nccl; built only where CUDA and
 * NCCL were found). ncclMax over ncclInt32 on the index, then ncclSum over ncclInt64 on the
 * limbs, in device memory: integer addition is associative, so every rank ends with the same
 * bits for any number of ranks, any NCCL_ALGO/NCCL_PROTO and any channel count: the merge of
 * every rank's state (as sumlab_mpi_allreduce_state), byte for byte.
 *
 *   sumlab_state *s;  sumlab_state_new("reproducible", SL_F32, &s, &err);
 *   sumlab_state_add_device(s, d_slice, my_n, stream, &err);         (each rank its own values)
 *   sumlab_nccl_allreduce_limbs(s, comm, stream, &err);              (collective)
 *   sumlab_state_result(s, &sum, &err);                              (the same on every rank) */
#ifndef SUMLAB_SUMLAB_NCCL_H
#define SUMLAB_SUMLAB_NCCL_H
#include <nccl.h>
#include "sumlab/sumlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm, on stream (a cudaStream_t; NULL: the legacy default stream) of the
 * communicator's device (made current here); returns once s holds the result (the stream
 * synchronised). Every rank must pass a state of the same variant and dtype: otherwise (or a
 * NULL state on some rank) every rank returns SUMLAB_EINVAL and no state changes. A failed NCCL
 * call: SUMLAB_ENCCL; a failed CUDA call: SUMLAB_ECUDA (err names the call). Also SUMLAB_EINVAL
 * beyond SUMLAB_LIMB_MAX_RANKS ranks. A CUDA call that fails on one rank before the first
 * collective (the device switch, or the few bytes of device memory the exchange takes) returns
 * there while the other ranks wait inside NCCL, as with any NCCL collective one rank does not
 * join: the caller then aborts the communicator (ncclCommAbort) on every rank. */
sumlab_status sumlab_nccl_allreduce_limbs(sumlab_state *s, ncclComm_t comm, void *stream, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

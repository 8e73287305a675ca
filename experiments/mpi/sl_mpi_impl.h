/* sl_mpi_impl.h: the MPI engine shared by the files of experiments/mpi/ (mpi.c, exp_ranks.c). */
#ifndef SL_MPI_IMPL_H
#define SL_MPI_IMPL_H
#include <mpi.h>
#include "sl_mpi.h"
#include "sl_reference.h"

/* Every MPI call is checked: a failure prints the call, the rank and MPI's message, then
 * MPI_Abort (no rank is left waiting in a collective). */
void sl_mpi_fail(const char *call, int rc, const char *file, int line);
#define SL_MPI_CK(call)                                                                    \
    do {                                                                                   \
        int sl_rc_ = (call);                                                               \
        if (sl_rc_ != MPI_SUCCESS) sl_mpi_fail(#call, sl_rc_, __FILE__, __LINE__);         \
    } while (0)

/* err filled, the value 1 (a failure code) */
#define SL_FAIL1(err, ...) (sl_err_set(err, __VA_ARGS__) ? 1 : 1)

int sl_mpi_world_rank(void);
/* MPI_Init (errors returned, not fatal), the rank's GPU chosen. 0, or -1 (err). */
int sl_mpi_start(sl_err *err);

/* Each rank's rc (0 ok, 1 skip/runtime, 2 input...) agreed over comm: the largest on every rank.
 * On rank 0 of comm, err then holds the message of the lowest rank with that code ("rank R:
 * ...", and how many others failed). */
int sl_mpi_agree(MPI_Comm comm, int rc, sl_err *err);

/* Slice [*lo, *lo + *len) of rank r of k over n (contiguous, balanced). */
void sl_mpi_slice(uint64_t n, int k, int r, uint64_t *lo, uint64_t *len);

/* One rank's part of an input summed across comm. */
typedef struct {
    MPI_Comm comm;
    int rank, size;
    const void *x;             /* this rank's slice */
    uint64_t lo, len, n;       /* slice and the whole input's n */
    sl_dtype dt;
    sl_session *s;             /* the slice's session (backend, upload) */
    sl_reference ref;          /* the whole input's reference (every rank; from exact states) */
    int ref_ok;
    void *nccl;                /* the NCCL communicator over comm (sl_nccl_open), or NULL */
} sl_mpi_input;

/* Opens the session on the slice and the whole input's reference (exact states merged with
 * the state MPI_Op). Collective. 0, or the agreed code (err on rank 0). */
int sl_mpi_input_open(sl_mpi_input *in, sl_backend backend, uint32_t offset, char *msg, size_t len,
                      sl_err *err);
void sl_mpi_input_close(sl_mpi_input *in);

/* One variant summed across in->comm and combined by `how`, R reps; rank 0 gets out (judged).
 * Collective. 0; 1 this variant/strategy cannot run here (err says why, same on every rank);
 * else the agreed failure code (err on rank 0): SL_MPI_FAILED for a failed run, its failed
 * check or no memory, never reported as a skip. */
#define SL_MPI_FAILED 3
int sl_mpi_measure(sl_mpi_input *in, const sl_variant *v, sl_combine how, const sl_launch *req,
                   int reps, int check_twin, sl_mpi_row *out, sl_err *err);
/* NCCL (ranks_nccl.c with NCCL; ranks_nccl_stub.c without): a communicator over comm's ranks,
 * each on its GPU (SUMLAB_GPU_DEVICE). open is collective (0, or the agreed code with err; *nc
 * stays NULL, with 0, when ranks share a GPU: NCCL takes one GPU per rank);
 * sum_value: ncclSum of one value of dt (in dt); state_allreduce: blob replaced by the merge of
 * every rank's blob through the integer limbs. A failing NCCL or CUDA call aborts the job. */
int sl_nccl_compiled(void);
const char *sl_nccl_algo(void);     /* NCCL_ALGO, or "default" */
int sl_nccl_open(MPI_Comm comm, void **nc, sl_err *err);
void sl_nccl_close(void *nc);
int sl_nccl_sum_value(void *nc, sl_dtype dt, double partial, double *res, sl_err *err);
int sl_nccl_state_allreduce(void *nc, int ranks, void *blob, sl_err *err);
#endif

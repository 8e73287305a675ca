/* sl_mpi.h: sums across MPI ranks (issue 13). Rank r of K takes one contiguous, balanced slice
 * (read with pread, or generated in place), sums it with a variant on its GPU (local rank
 * modulo the visible devices; SUMLAB_GPU_DEVICE, when set, pins every rank) or its CPU twin,
 * and the partial results are combined by a named strategy:
 *   mpi-sum  MPI_Allreduce with MPI_SUM on each rank's result (the library's order)
 *   ordered  partials gathered to rank 0 and added in rank order (fixed for a fixed K)
 *   state    the variant's accumulator state (sl_state.h) reduced with a user-defined,
 *            commutative MPI_Op (exact merge): the same bits for every K
 * Rank 0 judges the combined result against the exact sum (itself a state combine) and writes.
 * Without MPI (no find_package(MPI) at configure time) the entry points say they need it. */
#ifndef SL_MPI_H
#define SL_MPI_H
#include "sl_measure.h"
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The integer-limb combines (issue 37):
 *   limbs       the state's integer-limb form (sl_state.h): MPI_MAX of the index, MPI_SUM of
 *               int64 limbs; the bits of `state` for every K and any MPI algorithm
 *   nccl-sum    ncclAllReduce (ncclSum) of the partial results in their format, on the GPUs
 *               (one per rank; NCCL_ALGO as set for the run)
 *   nccl-limbs  the integer-limb form over NCCL: ncclMax on ncclInt32, ncclSum on ncclInt64
 * The nccl ones need a build with NCCL and a GPU per rank. */
typedef enum {
    SL_COMBINE_MPI_SUM = 0, SL_COMBINE_ORDERED, SL_COMBINE_STATE,
    SL_COMBINE_LIMBS, SL_COMBINE_NCCL_SUM, SL_COMBINE_NCCL_LIMBS,   /* integer limbs and NCCL */
    SL_COMBINE_COUNT
} sl_combine;
/* "all": the combines every MPI run has (mpi-sum, ordered, state); the others by name. */
#define SL_COMBINE_ALL_MASK ((1u << SL_COMBINE_MPI_SUM) | (1u << SL_COMBINE_ORDERED) | (1u << SL_COMBINE_STATE))
const char *sl_combine_name(sl_combine c);
/* 1 for the combines that reduce the variant's state (exact merge: state, limbs, nccl-limbs). */
int sl_combine_is_state(sl_combine c);
/* 1 for the combines that run over NCCL. */
int sl_combine_is_nccl(sl_combine c);
/* "all" or a comma-separated list of combine names into a mask of 1 << c. */
int sl_combine_parse_list(const char *s, unsigned *mask, sl_err *err);

int sl_mpi_compiled(void);     /* 1 when built with MPI */
/* 1 when this process was started by mpirun/mpiexec (Open MPI, PMIx or PMI variables). */
int sl_mpi_launched(void);
/* The message for a build without MPI. */
#define SL_MPI_MISSING "sumlab was built without MPI (install openmpi-bin libopenmpi-dev and reconfigure)"

/* One combined row (rank 0): the judged figures plus the scale-out ones. */
typedef struct {
    sl_row row;                /* judged against the exact sum of the whole input */
    sl_combine combine;
    int ranks;
    double local_ms_max, local_ms_min;  /* per-rank local sum time (median over reps): max, min over ranks */
    double combine_ms;         /* the combine step: median over reps of the slowest rank */
    double allreduce1_ms;      /* MPI_Allreduce of one double, same reps, same run */
    uint64_t rank_distinct;    /* distinct results held by the ranks (1 for ordered: rank 0 only) */
    int state_check;           /* state rows on the GPU: -1 not checked, 1 the GPU's local result
                                  equals the rank state's rounding on every rank, 0 not */
} sl_mpi_row;

/* `sumlab sum FILE` under mpirun. */
typedef struct {
    const char *path;
    int have_dtype;
    sl_dtype raw_dt;
    sl_backend backend;
    uint32_t offset;
    int reps, check_twin;      /* check_twin < 0: when the slice has n <= 2^24 */
    unsigned combines;         /* mask of 1 << sl_combine */
    sl_launch req;
    const sl_variant *const *variants;
    size_t nvariants;
} sl_mpi_sum_opts;
/* Initialises MPI (rank 0 writes; *is_root says whether this is it), runs every variant x
 * combine and leaves the rows on rank 0 (*rows malloc'ed, sl_mpi_rows_free) with the reference
 * in *ref (rank 0 when *have_ref; sl_reference_clear). Returns the exit code agreed by every rank: 0; 1 a
 * runtime failure or failed self-check; 2 bad input. A failure has one message on rank 0 (in
 * err: the first failing rank's). Call sl_mpi_end afterwards on every rank. */
int sl_mpi_sum_file(const sl_mpi_sum_opts *o, sl_mpi_row **rows, size_t *nrows, sl_reference *ref,
                    int *have_ref, int *is_root, char *backend_msg, size_t msg_len, sl_err *err);
void sl_mpi_rows_free(sl_mpi_row *rows, size_t n);
/* Agrees code over the ranks (the largest), finalises MPI; returns the agreed code. */
int sl_mpi_end(int code);

/* `sumlab run ranks` (the ranks experiment; argv as the run command's). */
int sl_mpi_cmd_ranks(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif

/* sumlab/sumlab_mpi.h: a sumlab state reduced across the ranks of an MPI communicator
 * (libsumlab_mpi, target sumlab::mpi, pkg-config sumlab_mpi; built only where MPI was found).
 * The reduction is an exact, commutative MPI_Op over the states' saved bytes (the merge of
 * sumlab_state_merge_saved), so every rank ends with the same bits for any number of ranks and
 * any split of the input among them: the bits of one state over everything.
 *
 *   sumlab_state *s;  sumlab_state_new("reproducible", SL_F32, &s, &err);
 *   sumlab_state_add(s, my_slice, my_n, &err);               (each rank its own values)
 *   sumlab_mpi_allreduce_state(s, MPI_COMM_WORLD, &err);      (collective)
 *   sumlab_state_result(s, &sum, &err);                       (the same on every rank) */
#ifndef SUMLAB_SUMLAB_MPI_H
#define SUMLAB_SUMLAB_MPI_H
#include <mpi.h>
#include "sumlab/sumlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm: replaces s on every rank by the merge of every rank's s. Every rank must
 * pass a state of the same variant and dtype: otherwise (or a NULL state on some rank) every rank
 * returns SUMLAB_EINVAL and no state changes. An MPI call that fails: SUMLAB_EMPI (with the
 * communicator's error handler set to return errors; MPI's default aborts first). MPI must be
 * initialised. */
sumlab_status sumlab_mpi_allreduce_state(sumlab_state *s, MPI_Comm comm, sl_err *err);

/* The same result through the integer-limb form (sumlab.h): MPI_MAX over MPI_INT32_T on the
 * index, then MPI_SUM over MPI_INT64_T on the limbs: built-in operations only, so any MPI
 * algorithm (and a network's offloaded reduction) may run it, and the bits stay those of
 * sumlab_mpi_allreduce_state for any number of ranks and any algorithm. Collective, with the
 * same checks and errors; also SUMLAB_EINVAL beyond SUMLAB_LIMB_MAX_RANKS ranks. */
sumlab_status sumlab_mpi_allreduce_limbs(sumlab_state *s, MPI_Comm comm, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

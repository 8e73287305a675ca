/* ranks_nccl_stub.c: the ranks' NCCL combines in a build without NCCL (sl_mpi_impl.h): none. */
#include "sl_mpi_impl.h"

int sl_nccl_compiled(void) { return 0; }
const char *sl_nccl_algo(void) { return "default"; }
int sl_nccl_open(MPI_Comm comm, void **nc, sl_err *err)
{
    (void)comm;
    *nc = NULL;
    return sl_err_set(err, "built without NCCL") ? 1 : 1;
}
void sl_nccl_close(void *nc) { (void)nc; }
int sl_nccl_sum_value(void *nc, sl_dtype dt, double partial, double *res, sl_err *err)
{
    (void)nc; (void)dt; (void)partial; (void)res;
    return sl_err_set(err, "built without NCCL") ? 1 : 1;
}
int sl_nccl_state_allreduce(void *nc, int ranks, void *blob, sl_err *err)
{
    (void)nc; (void)ranks; (void)blob;
    return sl_err_set(err, "built without NCCL") ? 1 : 1;
}

/* ranks_nccl.c: the ranks' NCCL combines (sl_mpi_impl.h; built with NCCL, ranks_nccl_stub.c
 * without): a communicator over an MPI communicator's ranks, each on its GPU (SUMLAB_GPU_DEVICE:
 * local rank modulo the visible devices), the plain ncclAllReduce (ncclSum) of the partial
 * results in their format, and the states' integer-limb allreduce (ncclMax on ncclInt32, ncclSum
 * on ncclInt64: sl_state_blob_allreduce). Every NCCL and CUDA call checked; a failure prints the
 * call and the rank, then MPI_Abort (no rank left waiting in a collective). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include <nccl.h>
#include "sl_mpi_impl.h"
#include "sl_state.h"
#include "sumlab/half.h"

typedef struct {
    ncclComm_t comm;
    cudaStream_t stream;
    void *d;                   /* device buffer of cap bytes */
    size_t cap;
    int device;
} nccl_ctx;

static void die(const char *call, const char *msg, const char *file, int line)
{
    fprintf(stderr, "sumlab: rank %d: %s failed: %s (%s:%d)\n", sl_mpi_world_rank(), call, msg, file, line);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);   /* only if the abort failed */
}
#define NC_CK(call)                                                                       \
    do {                                                                                  \
        ncclResult_t r_ = (call);                                                         \
        if (r_ != ncclSuccess) die(#call, ncclGetErrorString(r_), __FILE__, __LINE__);     \
    } while (0)
#define CU_CK(call)                                                                       \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) die(#call, cudaGetErrorString(e_), __FILE__, __LINE__);     \
    } while (0)

int sl_nccl_compiled(void) { return 1; }

static int g_nccl_shared_said;   /* the "ranks share a GPU" line, once per run */

const char *sl_nccl_algo(void)
{
    const char *a = getenv("NCCL_ALGO");
    return a && *a ? a : "default";
}

int sl_nccl_open(MPI_Comm comm, void **out, sl_err *err)
{
    *out = NULL;
    int rank = 0, size = 0;
    SL_MPI_CK(MPI_Comm_rank(comm, &rank));
    SL_MPI_CK(MPI_Comm_size(comm, &size));
    nccl_ctx *c = calloc(1, sizeof *c);
    int bad = !c;
    const char *env = getenv("SUMLAB_GPU_DEVICE");
    if (c) c->device = env && *env ? atoi(env) : 0;
    if ((bad = sl_mpi_agree(comm, bad, err))) { free(c); return bad; }
    /* NCCL takes one GPU per rank: ranks sharing a GPU (same host, same device) get no
     * communicator (no NCCL rows), every rank alike */
    char host[MPI_MAX_PROCESSOR_NAME] = "";
    int hl = 0;
    SL_MPI_CK(MPI_Get_processor_name(host, &hl));
    uint64_t h = 1469598103934665603ull;   /* FNV-1a of the host name, then the device */
    for (int i = 0; i < hl; i++) h = (h ^ (unsigned char)host[i]) * 1099511628211ull;
    h = (h ^ (uint64_t)c->device) * 1099511628211ull;
    uint64_t *all = malloc((size_t)size * sizeof *all);
    if (!all) die("malloc", "out of memory", __FILE__, __LINE__);
    SL_MPI_CK(MPI_Allgather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, comm));
    int shared = 0;
    for (int i = 0; i < size && !shared; i++)
        for (int j = 0; j < i && !shared; j++) shared = all[i] == all[j];
    free(all);
    if (shared) {
        if (rank == 0 && !g_nccl_shared_said++)
            fprintf(stderr, "sumlab: ranks share a GPU: no NCCL rows (NCCL takes one GPU per rank)\n");
        free(c);
        return 0;
    }
    CU_CK(cudaSetDevice(c->device));
    CU_CK(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    c->cap = 4096;
    CU_CK(cudaMalloc(&c->d, c->cap));
    ncclUniqueId id;
    if (rank == 0) NC_CK(ncclGetUniqueId(&id));
    SL_MPI_CK(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm));
    NC_CK(ncclCommInitRank(&c->comm, size, id, rank));
    *out = c;
    return 0;
}

void sl_nccl_close(void *nc)
{
    nccl_ctx *c = nc;
    if (!c) return;
    CU_CK(cudaSetDevice(c->device));
    NC_CK(ncclCommDestroy(c->comm));
    CU_CK(cudaFree(c->d));
    CU_CK(cudaStreamDestroy(c->stream));
    free(c);
}

static void reserve(nccl_ctx *c, size_t bytes)
{
    if (bytes <= c->cap) return;
    CU_CK(cudaFree(c->d));
    CU_CK(cudaMalloc(&c->d, bytes));
    c->cap = bytes;
}

/* n elements of type t at host p reduced in place by op over the communicator (synchronised). */
static void allreduce_host(nccl_ctx *c, void *p, size_t n, size_t es, ncclDataType_t t, ncclRedOp_t op)
{
    CU_CK(cudaSetDevice(c->device));
    reserve(c, n * es);
    CU_CK(cudaMemcpyAsync(c->d, p, n * es, cudaMemcpyHostToDevice, c->stream));
    NC_CK(ncclAllReduce(c->d, c->d, n, t, op, c->comm, c->stream));
    CU_CK(cudaMemcpyAsync(p, c->d, n * es, cudaMemcpyDeviceToHost, c->stream));
    CU_CK(cudaStreamSynchronize(c->stream));
}

int sl_nccl_sum_value(void *nc, sl_dtype dt, double partial, double *res, sl_err *err)
{
    (void)err;
    nccl_ctx *c = nc;
    if (dt == SL_F64) {
        allreduce_host(c, &partial, 1, 8, ncclFloat64, ncclSum);
        *res = partial;
    } else if (dt == SL_F32) {
        float f = (float)partial;
        allreduce_host(c, &f, 1, 4, ncclFloat32, ncclSum);
        *res = f;
    } else {   /* a 16-bit allreduce: NCCL adds in the format */
        uint16_t h = sl_half_from_double(partial, dt);
        allreduce_host(c, &h, 1, 2, dt == SL_F16 ? ncclFloat16 : ncclBfloat16, ncclSum);
        *res = sl_half_to_double(h, dt);
    }
    return 0;
}

static int x_max_i32(int32_t *v, void *ctx, sl_err *err)
{
    (void)err;
    allreduce_host(ctx, v, 1, 4, ncclInt32, ncclMax);
    return 0;
}
static int x_sum_i64(int64_t *v, size_t n, void *ctx, sl_err *err)
{
    (void)err;
    allreduce_host(ctx, v, n, 8, ncclInt64, ncclSum);
    return 0;
}

int sl_nccl_state_allreduce(void *nc, int ranks, void *blob, sl_err *err)
{
    sl_state_exchange x = {x_max_i32, x_sum_i64, nc, ranks};
    return sl_state_blob_allreduce(blob, &x, err) ? 1 : 0;
}

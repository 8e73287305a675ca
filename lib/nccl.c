/* nccl.c: libsumlab_nccl (sumlab/sumlab_nccl.h): a state allreduced in its integer-limb form
 * (sumlab.h) with two built-in NCCL reductions on device buffers (ncclMax over ncclInt32, then
 * ncclSum over ncclInt64), on the public API of libsumlab alone. Every NCCL and CUDA call checked. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "sumlab/sumlab_nccl.h"

/* Fills err (when not NULL) and returns st (libsumlab's own helper is not exported). */
static sumlab_status fail(sumlab_status st, sl_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_err_vset(err, fmt, ap);
    va_end(ap);
    return st;
}

#define NCCL_CK(call)                                                                             \
    do {                                                                                          \
        ncclResult_t r_ = (call);                                                                 \
        if (r_ != ncclSuccess) {                                                                  \
            const char *last_ = ncclGetLastError(comm);                                           \
            st = fail(SUMLAB_ENCCL, err, "%s failed at %s:%d: %s%s%s", #call, __FILE__, __LINE__, \
                      ncclGetErrorString(r_), last_ && *last_ ? ": " : "", last_ ? last_ : "");   \
            goto done;                                                                            \
        }                                                                                         \
    } while (0)
#define CUDA_CK(call)                                                                             \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            st = fail(SUMLAB_ECUDA, err, "%s failed at %s:%d: %s (%s)", #call, __FILE__, __LINE__, \
                      cudaGetErrorName(e_), cudaGetErrorString(e_));                              \
            goto done;                                                                            \
        }                                                                                         \
    } while (0)

/* Device buffer: the agreement key and index (5 int32, padded to 24 bytes), then the limbs. */
#define KEY_WORDS 5
#define KEY_BYTES 24

sumlab_status sumlab_nccl_allreduce_limbs(sumlab_state *s, ncclComm_t comm, void *stream, sl_err *err)
{
    sumlab_status st = SUMLAB_OK;
    cudaStream_t str = (cudaStream_t)stream;
    unsigned char *buf = NULL, *d = NULL;
    int64_t *limbs = NULL;
    int K = 0, dev = -1, prev = -1;
    NCCL_CK(ncclCommCount(comm, &K));
    NCCL_CK(ncclCommCuDevice(comm, &dev));
    CUDA_CK(cudaGetDevice(&prev));
    CUDA_CK(cudaSetDevice(dev));
    /* every rank's (kind, dtype) and size must agree: max and min of each over the ranks, and
     * the index's max, in one ncclMax; a rank that cannot take part sends -1 (all refuse). */
    const size_t size = s ? sumlab_state_size(s) : 0, m = sumlab_state_limb_count(s);
    int32_t key[KEY_WORDS] = {-1, -1, 1, 1, INT32_MIN};
    int32_t index = 0;
    if (s && size <= (size_t)1 << 30 && (buf = malloc(size)) && (limbs = malloc(m * sizeof *limbs)) &&
        sumlab_state_save(s, buf, size, NULL) == SUMLAB_OK && sumlab_state_index(s, &index, NULL) == SUMLAB_OK) {
        uint16_t kind, dt;
        memcpy(&kind, buf + 4, 2);
        memcpy(&dt, buf + 6, 2);
        key[0] = (int32_t)kind * 16 + (int32_t)dt;
        key[1] = (int32_t)size;
        key[2] = -key[0];
        key[3] = -key[1];
        key[4] = index;
    }
    CUDA_CK(cudaMalloc((void **)&d, KEY_BYTES + (m ? m : 1) * sizeof(int64_t)));
    CUDA_CK(cudaMemcpyAsync(d, key, sizeof key, cudaMemcpyHostToDevice, str));
    NCCL_CK(ncclAllReduce(d, d, KEY_WORDS, ncclInt32, ncclMax, comm, str));
    CUDA_CK(cudaMemcpyAsync(key, d, sizeof key, cudaMemcpyDeviceToHost, str));
    CUDA_CK(cudaStreamSynchronize(str));
    if (key[0] != -key[2] || key[1] != -key[3] || key[0] < 0) {
        st = fail(SUMLAB_EINVAL, err, "sumlab_nccl_allreduce_limbs: %s",
                  !s ? "a NULL state on this rank"
                  : !buf || !limbs ? "out of memory for the saved state on this rank"
                                   : "the ranks hold states of different variants or dtypes (or a rank "
                                     "passed none)");
        goto done;
    }
    if (K > SUMLAB_LIMB_MAX_RANKS) {   /* the same answer on every rank */
        st = fail(SUMLAB_EINVAL, err, "sumlab_nccl_allreduce_limbs: %d ranks (the limbs have headroom for %ld)",
                  K, (long)SUMLAB_LIMB_MAX_RANKS);
        goto done;
    }
    /* at the common index (>= this rank's: the max) every state has limbs */
    if ((st = sumlab_state_to_limbs(s, key[4], limbs, m, err))) goto done;
    CUDA_CK(cudaMemcpyAsync(d + KEY_BYTES, limbs, m * sizeof *limbs, cudaMemcpyHostToDevice, str));
    NCCL_CK(ncclAllReduce(d + KEY_BYTES, d + KEY_BYTES, m, ncclInt64, ncclSum, comm, str));
    CUDA_CK(cudaMemcpyAsync(limbs, d + KEY_BYTES, m * sizeof *limbs, cudaMemcpyDeviceToHost, str));
    CUDA_CK(cudaStreamSynchronize(str));
    st = sumlab_state_from_limbs(s, key[4], limbs, m, err);
done:
    if (d) {
        cudaError_t e = cudaFree(d);
        if (e != cudaSuccess && st == SUMLAB_OK)
            st = fail(SUMLAB_ECUDA, err, "cudaFree failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    }
    if (prev >= 0 && dev != prev) {
        cudaError_t e = cudaSetDevice(prev);
        if (e != cudaSuccess && st == SUMLAB_OK)
            st = fail(SUMLAB_ECUDA, err, "cudaSetDevice(%d) failed: %s", prev, cudaGetErrorString(e));
    }
    free(limbs);
    free(buf);
    return st;
}

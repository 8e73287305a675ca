/* sl_reduce.cuh: device reduction helpers split by scope (thread -> warp -> block -> device),
 * the workspace layout they share, and the CUDA check macro. CPU mirrors: sl_twin.h.
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds rounded to nearest even, no flush
 * to zero (-ftz=false), no contraction (--fmad=false); nvcc never reassociates adds. Every
 * helper performs a fixed sequence of adds, documented next to it and mirrored in sl_twin.c.
 * Requirements: blockDim.x a multiple of 32, at most 1024 (resolve() guarantees it). */
#ifndef SL_REDUCE_CUH
#define SL_REDUCE_CUH
#include <cuda_runtime.h>
#include "sl_variant_impl.h"

/* ---- errors ------------------------------------------------------------------------------
 * SL_CUDA_CHECK(call, vname, err): runs call; on failure fills err with the variant name, the
 * call text, CUDA's message, file and line, and returns -1 from the enclosing function.
 * SL_CUDA_CHECK_LAUNCH(what, vname, err): the same for a kernel launch just enqueued
 * (cudaGetLastError), `what` naming the kernel. */
#define SL_CUDA_CHECK(call, vname, err)                                                     \
    do {                                                                                    \
        cudaError_t sl_e_ = (call);                                                         \
        if (sl_e_ != cudaSuccess)                                                           \
            return sl_kerr((err), "%s: CUDA call '%s' failed: %s (%s) at %s:%d", (vname),   \
                           #call, cudaGetErrorName(sl_e_), cudaGetErrorString(sl_e_),       \
                           __FILE__, __LINE__);                                             \
    } while (0)
#define SL_CUDA_CHECK_LAUNCH(what, vname, err)                                              \
    do {                                                                                    \
        cudaError_t sl_e_ = cudaGetLastError();                                             \
        if (sl_e_ != cudaSuccess)                                                           \
            return sl_kerr((err), "%s: launch of %s failed: %s (%s) at %s:%d", (vname),     \
                           (what), cudaGetErrorName(sl_e_), cudaGetErrorString(sl_e_),      \
                           __FILE__, __LINE__);                                             \
    } while (0)

/* ---- workspace layout of the single-launch device finish ---------------------------------
 * bytes [0, 4): the arrival ticket counter (zero between launches: the harness zeroes the
 * workspace once, the last block resets it); bytes [SL_WS_HEADER, ...): one partial (T) per
 * block. */
#define SL_WS_HEADER 256u
static inline size_t sl_ws_bytes(uint64_t blocks, size_t elem)
{
    return (size_t)SL_WS_HEADER + (size_t)blocks * elem;
}

#define SL_FULL_MASK 0xffffffffu

/* ---- warp scope ---------------------------------------------------------------------------
 * All 32 lanes call it with their value. For off = 16, 8, 4, 2, 1: lane i (i < off) computes
 * v[i] = v[i] + v[i+off] (lanes >= off compute values nobody reads). Lane 0 returns the warp
 * sum; other lanes return partial values. Twin: sl_tw_warp_sum. */
template <typename T>
__device__ __forceinline__ T sl_warp_sum(T v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = v + __shfl_down_sync(SL_FULL_MASK, v, off);
    return v;
}

/* ---- block scope --------------------------------------------------------------------------
 * Every thread of the block calls it (it contains __syncthreads). Each warp's sum
 * (sl_warp_sum) goes to s_warp[warp]; after one barrier warp 0 loads s_warp[lane] for
 * lane < nwarps and +0 for the others, and sums those 32 values with sl_warp_sum. The block
 * sum is returned in thread 0 (other threads: unspecified). s_warp: 32 T in shared memory.
 * Callers that reuse s_warp afterwards must __syncthreads() first. Twin: sl_tw_block_sum. */
template <typename T>
__device__ __forceinline__ T sl_block_sum(T v, T *s_warp)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned nwarps = blockDim.x >> 5;
    v = sl_warp_sum(v);
    if (lane == 0) s_warp[warp] = v;
    __syncthreads();
    T r = T(0);
    if (warp == 0) {
        r = lane < nwarps ? s_warp[lane] : T(0);
        r = sl_warp_sum(r);
    }
    return r;
}

/* ---- device scope: deterministic single-launch finish --------------------------------------
 * Every thread of every block calls it once, at the end of the kernel; block_sum must be valid
 * in thread 0. Thread 0 stores the block's partial at partials[blockIdx.x], fences, and takes
 * an arrival ticket. The last block to arrive (ticket == gridDim.x - 1) reduces the gridDim.x
 * partials in a fixed order that does not depend on the arrival order:
 *   thread t: a = +0; for (i = t; i < G; i += blockDim.x) a = a + partials[i];
 *   then sl_block_sum over the threads' a;
 * thread 0 writes the result to *result and resets the counter to 0 for the next launch.
 * Twin: sl_tw_finish. */
template <typename T>
__device__ __forceinline__ void sl_device_finish(T block_sum, T *partials, unsigned *counter,
                                                 T *result)
{
    __shared__ T s_fin[32];
    __shared__ unsigned s_last;
    if (gridDim.x == 1) {
        /* One block: the general path would compute +0 + partial followed by adds of +0
         * only, i.e. exactly T(0) + block_sum; skip the fence and the ticket. */
        if (threadIdx.x == 0) *result = T(0) + block_sum;
        return;
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_sum;
        __threadfence();                                 /* partial visible before the ticket */
        unsigned ticket = atomicAdd(counter, 1u);
        s_last = (ticket == gridDim.x - 1u);
    }
    __syncthreads();
    if (!s_last) return;                                 /* uniform across the block */
    __threadfence();                                     /* acquire side of the ticket */
    /* __ldcg: L2 loads (never a stale L1 line). Eight loads are issued before their eight
     * adds; the adds keep the order i = t, t+B, t+2B, ... */
    const unsigned G = gridDim.x, B = blockDim.x;
    unsigned i = threadIdx.x;
    T a = T(0);
    for (; i + 7u * B < G; i += 8u * B) {
        T r[8];
#pragma unroll
        for (int k = 0; k < 8; k++) r[k] = __ldcg(partials + i + (unsigned)k * B);
#pragma unroll
        for (int k = 0; k < 8; k++) a = a + r[k];
    }
    for (; i < G; i += B) a = a + __ldcg(partials + i);
    a = sl_block_sum(a, s_fin);
    if (threadIdx.x == 0) {
        *result = a;
        *counter = 0u;
    }
}

/* Workspace pointers of sl_device_finish. */
template <typename T>
__device__ __forceinline__ T *sl_ws_partials(void *work)
{
    return reinterpret_cast<T *>(static_cast<unsigned char *>(work) + SL_WS_HEADER);
}
__device__ __forceinline__ unsigned *sl_ws_counter(void *work)
{
    return static_cast<unsigned *>(work);
}

#endif

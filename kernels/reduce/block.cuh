/* reduce/block.cuh: block scope: the two-level shuffle reduction over a block, generic over the
 * combine operation, PyTorch's two-barrier form of the plain sum, and the two block barriers
 * the kernels use. Twins: sl_tw_block_sum, sl_tw_pair_block. Requirement: blockDim.x a
 * multiple of 32, at most 1024. */
#ifndef SL_REDUCE_BLOCK_CUH
#define SL_REDUCE_BLOCK_CUH
#include "reduce/warp.cuh"

/* __syncthreads: bar.sync, i.e. barrier.sync.aligned (every thread of a warp executes the same
 * barrier instruction convergently). */
struct sl_bar_aligned {
    static __device__ __forceinline__ void sync() { __syncthreads(); }
};

/* Block barrier that tolerates warps arriving split: the non-.aligned barrier.sync lets each
 * thread arrive on its own (same block-wide count, same memory ordering among the block's
 * threads as __syncthreads). For kernels whose data-dependent paths (superacc's rare path,
 * spills, the tid == 0 steps) leave convergence to the compiler: compute-sanitizer's synccheck
 * flagged a divergent __syncthreads there on float64 subnormal input even with a __syncwarp in
 * front. */
struct sl_bar_any {
    static __device__ __forceinline__ void sync() { asm volatile("barrier.sync 0;" ::: "memory"); }
};

/* Every thread of the block calls it (it contains __syncthreads). Each warp's value
 * (sl_warp_reduce) goes to s_warp[warp]; after one barrier warp 0 loads s_warp[lane] for
 * lane < nwarps and zero() for the others, and reduces those 32 values with sl_warp_reduce.
 * The block's value is returned in thread 0 (other threads: unspecified). s_warp: 32 A in
 * shared memory. Callers that reuse s_warp afterwards must __syncthreads() first. */
template <class Op>
__device__ __forceinline__ typename Op::A sl_block_reduce(typename Op::A v, typename Op::A *s_warp)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned nwarps = blockDim.x >> 5;
    v = sl_warp_reduce<Op>(v);
    if (lane == 0) s_warp[warp] = v;
    __syncthreads();
    typename Op::A r = Op::zero();
    if (warp == 0) {
        r = lane < nwarps ? s_warp[lane] : Op::zero();
        r = sl_warp_reduce<Op>(r);
    }
    return r;
}

/* The plain block sum (sl_block_reduce with a + b). */
template <typename T>
__device__ __forceinline__ T sl_block_sum(T v, T *s_warp)
{
    return sl_block_reduce<sl_op_plain<T> >(v, s_warp);
}

/* PyTorch's BlockReduceSum (c10 block_reduce.cuh, text 2's listing): WarpReduceSum, a barrier
 * (a previous call may still be reading the slots), lane 0 of each warp stores its value at
 * s_warp[warp], a barrier, val = tid < nwarps ? s_warp[lane] : 0, warp 0 reduces. The same adds
 * in the same order as sl_block_sum (twin sl_tw_block_sum); the leading barrier is what lets a
 * caller call it again on the same slots without one of its own. Every thread of the block
 * calls it; the block's value is returned in thread 0. */
template <typename T>
__device__ __forceinline__ T sl_block_sum_two_barriers(T v, T *s_warp)
{
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const unsigned nwarps = blockDim.x >> 5;
    v = sl_warp_sum(v);
    __syncthreads();
    if (lane == 0) s_warp[warp] = v;
    __syncthreads();
    v = tid < nwarps ? s_warp[lane] : T(0);
    if (warp == 0) v = sl_warp_sum(v);
    return v;
}

#endif

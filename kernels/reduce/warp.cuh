/* reduce/warp.cuh: warp scope: the shuffle tree over 32 lanes, generic over the combine
 * operation (reduce/ops.cuh). Twins: sl_tw_warp_sum, sl_tw_pair_warp. */
#ifndef SL_REDUCE_WARP_CUH
#define SL_REDUCE_WARP_CUH
#include "reduce/ops.cuh"

/* All 32 lanes call it with their value. For off = 16, 8, 4, 2, 1: lane i (i < off) computes
 * v[i] = add(v[i], v[i+off]) (lanes >= off compute values nobody reads). Lane 0 returns the
 * warp's value; other lanes return partial values. */
template <class Op>
__device__ __forceinline__ typename Op::A sl_warp_reduce(typename Op::A v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = Op::add(v, Op::shfl(v, off));
    return v;
}

/* The plain sum: v = v + __shfl_down_sync(v, off) for off = 16..1. */
template <typename T>
__device__ __forceinline__ T sl_warp_sum(T v)
{
    return sl_warp_reduce<sl_op_plain<T> >(v);
}

#endif

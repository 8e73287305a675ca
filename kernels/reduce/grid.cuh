/* reduce/grid.cuh: device scope: the last-block arrival ticket, and the deterministic
 * single-launch finish built on it (every block publishes a partial, the last block to arrive
 * reduces them in a fixed order), generic over the combine operation. Twins: sl_tw_finish,
 * sl_tw_pair_finish. Workspace layout: sl_layout.h (ticket counter, then the partials). */
#ifndef SL_REDUCE_GRID_CUH
#define SL_REDUCE_GRID_CUH
#include "reduce/block.cuh"
#include "reduce/vec.cuh"
#include "sl_layout.h"

/* Workspace pointers: the partials at SL_WS_HEADER, the ticket counter at 0. */
template <typename A>
__device__ __forceinline__ A *sl_ws_partials(void *work)
{
    return reinterpret_cast<A *>(static_cast<unsigned char *>(work) + SL_WS_HEADER);
}
__device__ __forceinline__ unsigned *sl_ws_counter(void *work)
{
    return static_cast<unsigned *>(work);
}

/* SUMLAB_TICKET_ACQ_REL (a CMake option, kernels/README.md), for measuring, the same results: 1
 * fences the ticket with fence.acq_rel.gpu (sl_ticket_fence) instead of __threadfence()
 * (fence.sc.gpu, sequentially consistent, heavier) and makes the last block's acquire side thread
 * 0's alone, before the barrier that orders every thread's reads after it (as cooperative
 * groups' grid barrier does), instead of every thread's after that barrier: the release and
 * acquire patterns of the PTX memory model, which is all the ticket needs; the kernels with
 * tickets of their own (rows, extrema, norm2, moments, superacc's exact float64 kernel) fence
 * with sl_ticket_fence too. 0, the default: the __threadfence() form. */
#ifndef SUMLAB_TICKET_ACQ_REL
#define SUMLAB_TICKET_ACQ_REL 0
#endif
__device__ __forceinline__ void sl_ticket_fence()
{
    if (SUMLAB_TICKET_ACQ_REL) asm volatile("fence.acq_rel.gpu;" ::: "memory");
    else __threadfence();
}

/* Arrival ticket. Every thread of every block calls it once; it returns true, uniformly across
 * the block, in the last block of the grid to arrive (whose thread 0 then resets *counter to 0
 * for the next launch, after its last use), false in the others. Thread 0 takes the ticket
 * (atomicAdd on *counter); what a block published before it must be visible to the last block:
 *   kFence0 = true:  thread 0 alone published; it fences (sl_ticket_fence) before its ticket;
 *   kFence0 = false: the caller has made every publishing thread fence, then a Bar barrier.
 * The last block fences once more (the acquire side) before it returns true. Bar is the block
 * barrier between the ticket and its reading (reduce/block.cuh). */
template <class Bar, bool kFence0>
__device__ __forceinline__ bool sl_ticket_last(unsigned *counter)
{
    __shared__ unsigned s_last;
    if (threadIdx.x == 0) {
        /* partial visible before the ticket (kFence0 false: the callers' fences and barrier;
         * with SUMLAB_TICKET_ACQ_REL thread 0 fences too, the release side made its own) */
        if (kFence0 || SUMLAB_TICKET_ACQ_REL) sl_ticket_fence();
        const bool last = atomicAdd(counter, 1u) == gridDim.x - 1u;
        if (SUMLAB_TICKET_ACQ_REL && last) sl_ticket_fence();   /* acquire side, thread 0 */
        s_last = last;
    }
    Bar::sync();
    if (!s_last) return false;                           /* uniform across the block */
    if (!SUMLAB_TICKET_ACQ_REL) __threadfence();         /* acquire side of the ticket */
    return true;
}

/* The result of a finish: its format and its one conversion (identity for the plain sums). A
 * finish policy Fin provides Out and final(A). */
template <typename A> struct sl_fin_same {
    typedef A Out;
    static __device__ __forceinline__ Out final(A a) { return a; }
};
/* The accumulator rounded once to the output format O (float32 sums of float16 input). */
template <typename A, typename O> struct sl_fin_out {
    typedef O Out;
    static __device__ __forceinline__ Out final(A a) { return sl_out<O>(a); }
};

/* Grid reduce. Every thread of every block calls it once, at the end of the kernel; block_val
 * must be valid in thread 0. Thread 0 stores it at partials[blockIdx.x] and takes a ticket
 * (sl_ticket_last). The last block to arrive reduces the G = gridDim.x partials in a fixed
 * order that does not depend on the arrival order:
 *   thread t: a = zero(); for (i = t; i < G; i += blockDim.x) a = add(a, partials[i]);
 *   then sl_block_reduce over the threads' a;
 * its thread 0 resets the counter to 0 for the next launch. Returns true in the last block
 * (*out valid in its thread 0), false elsewhere. __ldcg loads (never a stale L1 line); eight
 * loads are issued before their eight adds, which keep the order i = t, t+B, t+2B, ...
 * Twins: sl_twin.h's sl_tw_finish (per component for pairs). */
template <class Op>
__device__ __forceinline__ bool sl_grid_reduce(typename Op::A block_val, typename Op::A *partials,
                                               unsigned *counter, typename Op::A *out)
{
    typedef typename Op::A A;
    __shared__ A s_fin[32];
    if (threadIdx.x == 0) Op::store(&partials[blockIdx.x], block_val);
    if (!sl_ticket_last<sl_bar_aligned, true>(counter)) return false;
    const unsigned G = gridDim.x, B = blockDim.x;
    unsigned i = threadIdx.x;
    A a = Op::zero();
    for (; i + 7u * B < G; i += 8u * B) {
        A r[8];
#pragma unroll
        for (int k = 0; k < 8; k++) r[k] = Op::load_cg(partials + i + (unsigned)k * B);
#pragma unroll
        for (int k = 0; k < 8; k++) a = Op::add(a, r[k]);
    }
    for (; i < G; i += B) a = Op::add(a, Op::load_cg(partials + i));
    a = sl_block_reduce<Op>(a, s_fin);
    if (threadIdx.x == 0) *counter = 0u;
    *out = a;
    return true;
}

/* Grid finish: sl_grid_reduce, then thread 0 of the last block writes Fin::final(a) to *result. */
template <class Op, class Fin>
__device__ __forceinline__ void sl_grid_finish(typename Op::A block_val, typename Op::A *partials,
                                               unsigned *counter, typename Fin::Out *result)
{
    typename Op::A a;
    if (sl_grid_reduce<Op>(block_val, partials, counter, &a) && threadIdx.x == 0) *result = Fin::final(a);
}

/* The listed rows of a row-wise kernel's second pass: the list's length *g_count (read once,
 * by thread 0: the first pass, an earlier launch, wrote it), then body(r) for the rows
 * r = g_list[k], k = blockIdx.x, blockIdx.x + gridDim.x, ... (block-uniform: body may hold
 * barriers); every block reads the length before its ticket, so the last block to take one
 * empties the list (length and ticket back to 0). Every thread of every block calls it once.
 * Bar: the barrier (sl_bar_any by default: the bodies' per-value paths branch on the data). */
template <class Bar = sl_bar_any, typename F>
__device__ __forceinline__ void sl_rows_listed(unsigned *g_count, unsigned *g_ticket, const unsigned *g_list, F body)
{
    __shared__ unsigned s_cnt;
    if (threadIdx.x == 0) s_cnt = *(volatile unsigned *)g_count;
    Bar::sync();
    const uint64_t cnt = s_cnt;
    for (uint64_t k = blockIdx.x; k < cnt; k += gridDim.x) body((uint64_t)__ldcg(&g_list[k]));
    if (sl_ticket_last<Bar, false>(g_ticket) && threadIdx.x == 0) {
        *g_count = 0u;
        *g_ticket = 0u;
    }
}

/* The plain finish of the ladder kernels: sl_grid_finish with a + b, the result rounded once
 * to the output format O (no conversion when O = T). One block: the general path would
 * compute +0 + partial followed by adds of +0 only, i.e. exactly T(0) + block_sum; the fence
 * and the ticket are skipped. Twin: sl_tw_finish (then sl_tw_out). */
template <typename T, typename O>
__device__ __forceinline__ void sl_device_finish(T block_sum, T *partials, unsigned *counter,
                                                 O *result)
{
    if (gridDim.x == 1) {
        if (threadIdx.x == 0) *result = sl_out<O>(T(T(0) + block_sum));
        return;
    }
    sl_grid_finish<sl_op_plain<T>, sl_fin_out<T, O> >(block_sum, partials, counter, result);
}

#endif

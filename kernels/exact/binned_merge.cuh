/* exact/binned_merge.cuh: merging the binned states of exact/binned.h (sl_rsum_state, K folds)
 * across a warp, a block, and the states a grid's blocks published. Every merge is exact, and a
 * state is canonical after sl_rsum_state_norm_k (the carries stay within a fold; the folds below
 * the final index are dropped whatever the order they met in), so any tree of merges gives the
 * same state: these functions change no result, only how long the merging takes (registers and
 * shuffles instead of a shared-memory tree with a barrier a level, or one thread over the grid's
 * states). Requirements: blockDim.x a multiple of 32 (every lane of a warp takes part). */
#ifndef SL_EXACT_BINNED_MERGE_CUH
#define SL_EXACT_BINNED_MERGE_CUH
#include "reduce/reduce.cuh"
#include "exact/binned.h"

/* The 32 lanes' states merged (exactly, in any order): all raised to the warp's largest index,
 * integers added by a shuffle tree; lane 0 holds the normalised warp state. Each state is
 * normalised on entry (lo in [0, 2^32)). */
template <int K>
__device__ __forceinline__ void sl_rsum_warp_merge(sl_rsum_state &st)
{
    __syncwarp();
    const int t = (int)__reduce_max_sync(SL_FULL_MASK, (unsigned)st.top);
    sl_rsum_state_shift_k(&st, t, K);
    st.flags = __reduce_or_sync(SL_FULL_MASK, st.flags);
#pragma unroll
    for (int k = 0; k < K; k++) {
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {   /* lo < 2^32 each: the sum stays < 2^37 */
            st.hi[k] += __shfl_down_sync(SL_FULL_MASK, st.hi[k], off);
            st.lo[k] += __shfl_down_sync(SL_FULL_MASK, st.lo[k], off);
        }
    }
    sl_rsum_state_norm_k(&st, K);
}

/* The states of each aligned group of G lanes merged (G a power of two up to 32; every lane of
 * the warp calls it; G = 32: sl_rsum_warp_merge): raised to the group's largest index, integers
 * added by a shuffle tree that stays in the group; the group's first lane holds its normalised
 * state (the others hold partial sums). A warp of 32 / G rows: each group's state is its row's
 * alone. */
template <int K, int G>
__device__ __forceinline__ void sl_rsum_lanes_merge(sl_rsum_state &st)
{
    static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: a power of two up to 32");
    if constexpr (G == 32) {
        sl_rsum_warp_merge<K>(st);
    } else {
        __syncwarp();
        int t = st.top;
        unsigned f = st.flags;
#pragma unroll
        for (int off = G / 2; off > 0; off >>= 1) {
            t = max(t, __shfl_xor_sync(SL_FULL_MASK, t, off));
            f |= __shfl_xor_sync(SL_FULL_MASK, f, off);
        }
        sl_rsum_state_shift_k(&st, t, K);
        st.flags = f;
#pragma unroll
        for (int k = 0; k < K; k++) {
#pragma unroll
            for (int off = G / 2; off > 0; off >>= 1) {   /* lo < 2^32 each: the sum stays < 2^37 */
                st.hi[k] += __shfl_down_sync(SL_FULL_MASK, st.hi[k], off, G);
                st.lo[k] += __shfl_down_sync(SL_FULL_MASK, st.lo[k], off, G);
            }
        }
        sl_rsum_state_norm_k(&st, K);
    }
}

/* The block's states merged into thread 0's st: each warp's (sl_rsum_warp_merge), then warp 0
 * over the warps' states in s_warp (32 states of shared memory). Every thread calls it; one
 * barrier (Bar, reduce/block.cuh); a caller that reuses s_warp afterwards passes a barrier
 * first. */
template <int K, class Bar = sl_bar_any>
__device__ __forceinline__ void sl_rsum_block_merge(sl_rsum_state &st, sl_rsum_state *s_warp)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    sl_rsum_warp_merge<K>(st);
    if (lane == 0) s_warp[warp] = st;
    Bar::sync();
    if (warp == 0) {
        if (lane < (blockDim.x >> 5)) st = s_warp[lane];
        else sl_rsum_state_zero_k(&st, K);
        sl_rsum_warp_merge<K>(st);
    }
}

/* A state's folds added into global per-position integer bins (fold k at position top - k: hi[k]
 * into g_hi, lo[k] into g_lo; a position is the same bin whatever the index, so states of any
 * index add into one array) and its index into g_top by atomicMax: the one-launch binned kernels'
 * workspace (rs_kernel's layout); the caller publishes the flags. */
template <int K>
__device__ __forceinline__ void sl_rsum_state_add_bins(const sl_rsum_state &st, int *g_top, unsigned long long *g_hi,
                                                       unsigned long long *g_lo)
{
    atomicMax(g_top, st.top);
#pragma unroll
    for (int k = 0; k < K; k++) {
        if (st.hi[k]) atomicAdd(&g_hi[st.top - k], (unsigned long long)st.hi[k]);
        if (st.lo[k]) atomicAdd(&g_lo[st.top - k], (unsigned long long)st.lo[k]);
    }
}

/* A state other blocks wrote (L2 reads: never a stale L1 line). */
__device__ __forceinline__ void sl_rsum_state_load_cg(sl_rsum_state *dst, const sl_rsum_state *src)
{
    const unsigned long long *s = reinterpret_cast<const unsigned long long *>(src);
    unsigned long long *d = reinterpret_cast<unsigned long long *>(dst);
    static_assert(sizeof(sl_rsum_state) % 8 == 0, "sl_rsum_state: whole 8-byte words");
#pragma unroll
    for (unsigned k = 0; k < sizeof(sl_rsum_state) / 8u; k++) d[k] = __ldcg(s + k);
}

/* The last block's merge of count published states parts[i * stride] (i < count): thread t takes
 * i = t, t + B, ..., then sl_rsum_block_merge; thread 0's st holds the merged state. Every thread
 * calls it (one barrier). */
template <int K, class Bar = sl_bar_any>
__device__ __forceinline__ void sl_rsum_parts_merge(sl_rsum_state &st, const sl_rsum_state *parts,
                                                    unsigned count, unsigned stride, sl_rsum_state *s_warp)
{
    sl_rsum_state_zero_k(&st, K);
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x) {
        sl_rsum_state p;
        sl_rsum_state_load_cg(&p, parts + (size_t)i * stride);
        sl_rsum_state_merge_k(&st, &p, K);
    }
    sl_rsum_block_merge<K, Bar>(st, s_warp);
}
/* A one-launch kernel's end from the thread's state st: the block's states merged, the block's
 * state at its slot of the workspace's partials (reduce/grid.cuh's layout), the ticket; the last
 * block merges the grid's states (sl_rsum_parts_merge) and its thread 0 calls fin(the grid's
 * state) and leaves the ticket zero. Every thread calls it. The ticket's barrier also orders warp
 * 0's reads of s_warp before the last block's merge writes it again. */
template <int K, typename FIN>
__device__ __forceinline__ void sl_rsum_grid_finish(sl_rsum_state st, sl_rsum_state *s_warp, void *work, FIN fin)
{
    sl_rsum_block_merge<K>(st, s_warp);
    sl_rsum_state *parts = sl_ws_partials<sl_rsum_state>(work);
    if (threadIdx.x == 0) parts[blockIdx.x] = st;
    if (!sl_ticket_last<sl_bar_any, true>(sl_ws_counter(work))) return;
    sl_rsum_parts_merge<K>(st, parts, gridDim.x, 1u, s_warp);
    if (threadIdx.x == 0) {
        fin(st);
        *sl_ws_counter(work) = 0u;
    }
}
#endif

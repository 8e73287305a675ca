/* superacc/one_launch.cuh: what the one-launch `superacc` kernels share (superacc_f32.cu:
 * float32 exponent bins; superacc_f16.cu: float16 register sums; superacc_bf16.cu: bfloat16
 * integer bins): the block finish (block limbs into the global limbs, the last block rounds),
 * the block init, the 16-byte loads, the tile loop and the exact add of an integer into the
 * block limbs. The algorithm is described at the top of superacc.cu. */
#ifndef SL_SUPERACC_ONE_LAUNCH_CUH
#define SL_SUPERACC_ONE_LAUNCH_CUH
#include "superacc/superacc.cuh"
#include "reduce/tiles.cuh"

#define SACC_BINS_PER_SM 3       /* resident 512-thread blocks per SM the one-launch kernels are
                                  * built for (superacc.c's grid): without it the 16-bit
                                  * instantiations took 55 registers, two blocks fitted and the
                                  * third wave ran alone */

/* The last block's thread 0: takes the global limbs (atomicExch leaves them zero for the next
 * launch) and the flags, rounds in registers (float32: to nearest even; 16-bit output: to odd in
 * float32, then to nearest even in the 16-bit format: correct rounding) and resets the ticket. */
template <typename X>
__device__ __forceinline__ void sacc_last_round(unsigned char *work, X *result)
{
    enum { L = sacc_fmt<float>::L };
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SACC_WS_HEADER);
    int64_t l[L];
#pragma unroll
    for (int i = 0; i < L; i++) l[i] = (int64_t)atomicExch(&g_acc[i], 0ull);
    const unsigned fl = atomicExch(g_counter + 1, 0u);
    const double r = sl_sacc_round_f32_regs(l, fl, sizeof(X) == 2);
    *result = sl_out<X>((float)r);                   /* exact for float32: r holds a float */
    *g_counter = 0u;
}

/* The kernels' common end. Every thread of every block calls it once with its flags and the
 * AND of its inputs' sign words, after its last add into s_acc: the block's limbs go into the
 * global limbs, and the last block to arrive rounds them into *result. Thread 0 does the serial
 * part in registers: it normalises the block's limbs and adds them into the global ones (12
 * independent atomics), fences and takes the ticket; in the last block it rounds
 * (sacc_last_round, sl_sacc_round_f32_regs: the generic rounding over the limbs in memory cost
 * every launch some microseconds). */
template <typename X>
__device__ __noinline__ void sacc_block_finish(unsigned flags, unsigned sg,
                                                  unsigned long long *s_acc, unsigned *s_flags,
                                                  unsigned char *work, X *result)
{
    enum { L = sacc_fmt<float>::L };
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SACC_WS_HEADER);
    const unsigned tid = threadIdx.x;
    if (!(sg >> 31)) flags |= SL_SACC_ANYPOS;
    if (flags) atomicOr(s_flags, flags);
    sacc_barrier();
    if (tid == 0) {
        int64_t l[L];
#pragma unroll
        for (int i = 0; i < L; i++) l[i] = (int64_t)s_acc[i];
        sl_sacc_normalise(l, L);
        /* normalised limbs < 2^32 (top limb signed): G < 2^31 blocks cannot overflow a limb */
#pragma unroll
        for (int i = 0; i < L; i++)
            if (l[i]) atomicAdd(&g_acc[i], (unsigned long long)l[i]);
        if (*s_flags) atomicOr(g_flags, *s_flags);
    }
    /* thread 0 alone published: it fences before its ticket */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    if (tid == 0) sacc_last_round<X>(work, result);
}

/* Zeroes the block limbs and flags (before the first barrier). */
__device__ __forceinline__ void sacc_block_init(unsigned long long *s_acc, int L, unsigned *s_flags)
{
    for (unsigned i = threadIdx.x; i < (unsigned)L; i += blockDim.x) s_acc[i] = 0;
    if (threadIdx.x == 0) *s_flags = 0;
}

/* The one-launch kernels' 16-byte loads: streaming (evict-first) for float4, the read-only
 * no-allocate load for 8 16-bit values. */
__device__ __forceinline__ float4 sacc_ld(const float4 *p) { return __ldcs(p); }
template <typename H> __device__ __forceinline__ sl_v16<H> sacc_ld(const sl_v16<H> *p) { return sl_ldv(p); }

/* The tile loop of the one-launch kernels (float32 bins, float16 register sums, bfloat16 integer
 * bins), reduce/tiles.cuh's sl_tiles over the grid: tile t (U 16-byte vectors per thread, W
 * elements each) goes to block t mod gridDim; a whole tile loads its U vectors first and hands
 * them to st.take(v, true), a partial one hands over those that exist (st.take(v, false)); after
 * every flush_every tiles st.flush() (at the same point in every thread of the block), and after
 * every 2^29 of the block's elements the block normalises its limbs. Barriers: the trip count
 * and both schedules depend on blockIdx, gridDim, blockDim and n only. */
template <int U, int W, typename V, class S>
__device__ __forceinline__ void sacc_tiles(const V *__restrict__ xv, uint64_t nv, unsigned flush_every,
                                           S &st, unsigned long long *s_acc)
{
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    const sl_tiling tl = sl_tiling_of<U>(nv, B);
    uint64_t every = SACC_BLOCK_ELEMS_PER_NORM / (tl.per_tile * W);
    if (every == 0) every = 1;
    uint64_t since = 0;
    unsigned since_flush = 0;
    sl_tiles<U>(
        xv, tl, tid, blockIdx.x, G, [](const V *p) { return sacc_ld(p); },
        [&st](const V *r) {
#pragma unroll
            for (int u = 0; u < U; u++) st.take(r[u], true);
        },
        [&st](const V &v) { st.take(v, false); },
        [&] {
            if (++since_flush == flush_every) {
                since_flush = 0;
                st.flush();
            }
            if (++since == every) {                  /* uniform across the block */
                since = 0;
                sacc_barrier();
                if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), sacc_fmt<float>::L);
                sacc_barrier();
            }
        });
}

/* Adds the signed integer w times 2^pos (pos >= 0, in units of limb 0) exactly into the shared
 * limbs: three 32-bit chunks at most (|w| < 2^63, pos & 31 <= 31). */
__device__ __forceinline__ void sacc_spill_i64(long long w, int pos, unsigned long long *s_acc)
{
    if (w == 0) return;
    const bool neg = w < 0;
    const unsigned long long m = neg ? 0ull - (unsigned long long)w : (unsigned long long)w;
    const int idx = pos >> 5, lo = pos & 31;
    const unsigned long long rest = m >> (32 - lo);
    const unsigned long long c[3] = {(m << lo) & 0xffffffffull, rest & 0xffffffffull, rest >> 32};
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (c[k]) atomicAdd(&s_acc[idx + k], neg ? 0ull - c[k] : c[k]);
}
#endif

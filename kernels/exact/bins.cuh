/* exact/bins.cuh: the float32 exponent bins and the one-launch tile loop of the exact sums
 * (step 1a of superacc/superacc.cu): each thread adds float32 values, widened to double, into 16
 * bins by exponent (shared memory, exact for 2^14 adds a bin); the warp-collective drain empties
 * them into the block limbs (exact/limbs.h's float32 layout), the exact add of an integer into
 * those limbs, their zeroing, the 16-byte loads and the tile loop with its flush and
 * normalisation schedule. Used by `superacc`'s one-launch kernels (superacc/) and by reproducible
 * lse's one pass over its float32 terms (lse/). */
#ifndef SL_EXACT_BINS_CUH
#define SL_EXACT_BINS_CUH
#include "reduce/reduce.cuh"
#include "reduce/tiles.cuh"
#include "exact/limbs.h"

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
                sl_bar_any::sync();
                if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), SL_SACC_LIMBS_F32);
                sl_bar_any::sync();
            }
        });
}

/* ---- float32: exponent bins (step 1a) ---------------------------------------------------- */
#define SACC_NBIN 16
#define SACC_BIN_FLUSH 8192u     /* inputs per thread between bin flushes (capacity: 2^14) */
#define SACC_BIN_U 4             /* float4 loads per thread per tile: 16 inputs */

/* One input into its bin: my = &s_bin[tid], bins blockDim apart. A float16/bfloat16 input is
 * widened to float32 first (exact). */
template <typename X>
__device__ __forceinline__ void sacc_bin_take(X h, double *my, unsigned B, unsigned &sg)
{
    const float x = sl_widen(h);
    const unsigned u = __float_as_uint(x);
    sg &= u;
    my[((u >> 27) & 15u) * B] += (double)x;          /* bin E >> 4; exact (see step 1a) */
}


/* Bin j's double sum v as a count of the bin's unit 2^-(150 - (j ? 16 j : 1)) (exact: the sum
 * holds float32 values of that bin's exponents); a NaN or Inf sets its flag and counts 0. */
static __device__ __forceinline__ long long sacc_bin_units(double v, int j, unsigned *flags)
{
    if (isnan(v)) { *flags |= SL_SACC_NAN; return 0; }
    if (isinf(v)) { *flags |= v > 0 ? SL_SACC_PINF : SL_SACC_NINF; return 0; }
    const int e = 150 - (j ? 16 * j : 1);                    /* 1 / unit = 2^e */
    return (long long)(v * __longlong_as_double((long long)(1023 + e) << 52));
}

/* The exact sum over the lanes of mask of k (|k| < 2^52 each): two 32-bit reductions, the low 27
 * bits (below 2^32 over 32 lanes) and the signed rest (within +-2^31). Every lane of mask calls
 * it and gets the sum. */
__device__ __forceinline__ long long sacc_warp_sum_i64(unsigned mask, long long k)
{
    const unsigned lo = __reduce_add_sync(mask, (unsigned)k & 0x7ffffffu);
    const int hi = __reduce_add_sync(mask, (int)(k >> 27));
    return (long long)hi * 134217728 + (long long)lo;
}

/* Warp-collective (every thread of the block calls it, at a block-uniform point; no barrier):
 * empties the thread's bins into the block limbs and zeroes them. Each thread turns its bins into
 * integers (bin j in units of 2^(max(16j,1) - 150), its smallest ulp; |bin| < 2^53, so the
 * conversion is exact) and records the flags of a non-finite bin (+-Inf, NaN: only bin 15 can
 * hold one); a bin that is zero in every lane of the warp is skipped (data of a narrow range
 * fills one or two of the 16); the warp sums each other bin exactly (sacc_warp_sum_i64), and lane
 * j < 16 adds the warp's bin j (|.| < 2^58) into the limbs at bit position max(16j,1) - 1 of M:
 * the bins' shared atomics go out together, one set per warp (lane 0 adds those of the lanes a
 * partial warp lacks).
 * mask: the warp's threads. Returns the thread's flags. */
static __device__ __noinline__ unsigned sacc_bins_drain(double *my, unsigned B, unsigned mask,
                                                 unsigned long long *s_acc)
{
    const unsigned lane = threadIdx.x & 31u, nact = __popc(mask);
    unsigned flags = 0;
    long long mine = 0;
#pragma unroll
    for (int j = 0; j < SACC_NBIN; j++) {
        const double v = my[j * B];
        if (!__any_sync(mask, v != 0.0)) continue;  /* the warp's bin j is empty (warp-uniform) */
        my[j * B] = 0.0;
        const long long k = sacc_bin_units(v, j, &flags);
        const long long w = sacc_warp_sum_i64(mask, k);
        if (lane == (unsigned)j) mine = w;
        else if (lane == 0u && (unsigned)j >= nact) sacc_spill_i64(w, 16 * j - 1, s_acc);
    }
    if (lane < SACC_NBIN) sacc_spill_i64(mine, lane ? 16 * (int)lane - 1 : 0, s_acc);
    return flags;
}

#endif

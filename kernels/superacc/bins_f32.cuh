/* superacc/bins_f32.cuh: the float32 exponent bins of superacc_f32.cu (step 1a of superacc.cu):
 * each thread adds float32 values, widened to double, into 16 bins by exponent (shared memory,
 * exact for 2^14 adds a bin), and the warp-collective drain empties them into the block limbs.
 * Also the bins of reproducible lse's one pass over its float32 terms (lse/lse.cu). */
#ifndef SL_SUPERACC_BINS_F32_CUH
#define SL_SUPERACC_BINS_F32_CUH
#include "superacc/one_launch.cuh"

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


/* Warp-collective (every thread of the block calls it, at a block-uniform point; no barrier):
 * empties the thread's bins into the block limbs and zeroes them. Each thread turns its bins into
 * integers (bin j in units of 2^(max(16j,1) - 150), its smallest ulp; |bin| < 2^53, so the
 * conversion is exact) and records the flags of a non-finite bin (+-Inf, NaN: only bin 15 can
 * hold one); a bin that is zero in every lane of the warp is skipped (data of a narrow range
 * fills one or two of the 16); the warp sums each other bin exactly by two 32-bit reductions
 * (the low 27 bits, below 2^32 over 32 lanes, and the signed rest, within +-2^31), and lane
 * j < 16 adds the warp's bin j (|.| < 2^58) into the limbs at bit position max(16j,1) - 1 of M:
 * the bins' shared atomics go out together, one set per warp (lane 0 adds those of the lanes a
 * partial warp lacks).
 * mask: the warp's threads. Returns the thread's flags. */
__device__ __noinline__ unsigned sacc_bins_drain(double *my, unsigned B, unsigned mask,
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
        long long k = 0;
        if (isnan(v)) flags |= SL_SACC_NAN;
        else if (isinf(v)) flags |= v > 0 ? SL_SACC_PINF : SL_SACC_NINF;
        else {
            const int e = 150 - (j ? 16 * j : 1);                    /* 1 / unit = 2^e */
            k = (long long)(v * __longlong_as_double((long long)(1023 + e) << 52));
        }
        const unsigned lo = __reduce_add_sync(mask, (unsigned)k & 0x7ffffffu);
        const int hi = __reduce_add_sync(mask, (int)(k >> 27));
        const long long w = (long long)hi * 134217728 + (long long)lo;
        if (lane == (unsigned)j) mine = w;
        else if (lane == 0u && (unsigned)j >= nact) sacc_spill_i64(w, 16 * j - 1, s_acc);
    }
    if (lane < SACC_NBIN) sacc_spill_i64(mine, lane ? 16 * (int)lane - 1 : 0, s_acc);
    return flags;
}

#endif

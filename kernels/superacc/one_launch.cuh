/* superacc/one_launch.cuh: what the one-launch `superacc` kernels share (superacc_f32.cu:
 * float32 exponent bins; superacc_f16.cu: float16 register sums; superacc_bf16.cu: bfloat16
 * integer bins): the block finish (block limbs into the global limbs, the last block rounds),
 * the block init, the 16-byte loads, the tile loop and the exact add of an integer into the
 * block limbs. The algorithm is described at the top of superacc.cu. */
#ifndef SL_SUPERACC_ONE_LAUNCH_CUH
#define SL_SUPERACC_ONE_LAUNCH_CUH
#include "superacc/superacc.cuh"
#include "exact/bins.cuh"   /* the bins, the tile loop, the limb adds (shared with lse/) */

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

#endif

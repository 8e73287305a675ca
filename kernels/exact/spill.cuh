/* exact/spill.cuh: device scope: a finite double added exactly into a block's shared 64-bit limbs
 * (exact/limbs.h's layout), the step the superaccumulator kernels (superacc/) and the correct
 * moments' exact kernels (moments_exact/) share. */
#ifndef SL_EXACT_SPILL_CUH
#define SL_EXACT_SPILL_CUH
#include "reduce/ops.cuh"
#include "exact/limbs.h"

/* Adds the finite double d (a multiple of 2^-scale) exactly into the shared limbs: at most three
 * 32-bit chunks by 64-bit shared atomics (out of line: one copy of the atomics' code a kernel). */
SL_NOINLINE_SHARED void sl_sacc_spill(double d, int scale, unsigned long long *s_acc)
{
    int idx, neg;
    uint64_t c[3];
    if (!sl_sacc_split_f64(d, scale, &idx, c, &neg)) return;
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (c[k]) atomicAdd(&s_acc[idx + k], neg ? 0ull - (unsigned long long)c[k]
                                                 : (unsigned long long)c[k]);
}

#endif

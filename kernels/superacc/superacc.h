/* superacc/superacc.h: what the `superacc` family adds to the exact layer (exact/limbs.h), host
 * and device: the twin's exact accumulation of an array into a limb state, and the bfloat16
 * integer bins' exact conversion (superacc/superacc_bf16.cu; checked on every bfloat16 pattern
 * by tests/tsuperacc.c). Internal to kernels/. */
#ifndef SL_SUPERACC_H
#define SL_SUPERACC_H
#include "exact/limbs.h"

/* Adds x[0..n) exactly (the twin's loop: superacc.c). 0, or -1 with err for n >= 2^40 in all. */
int sl_sacc_state_add(sl_sacc_state *st, const void *x, uint64_t n, sl_err *err);

/* bfloat16 integer bins (superacc.cu, step 1d). Bin j = E >> 3 (E the biased exponent) holds
 * integers in units of 2^(8 j - 134), the ulp of its smallest exponent: a finite value is k
 * units with |k| = m 2^(E & 7) < 2^15 (m the 8-bit significand; E = 0: k = 2 * fraction), so
 * 2^16 of them sum exactly in an int32; the unit's bit position in the float32 layout
 * (2^-149 = bit 0) is 8 j + 15. k comes from one fused multiply-add, exact:
 * s = 2^(126 - 8 j) (bits: the exponent field 253 - 8 j = (u & 0x7C000000) ^ (253 << 23), as
 * 253 << 23 has bits 26-30 set), u * s = k / 256 (|k / 256| < 2^7) and k / 256 + 1.5 * 2^15
 * keeps the exponent of 2^15, whose ulp is 2^-8: the bits of f are SL_SACC_B16_MAGIC_BITS + k.
 * u: the value's float32 bits (the bfloat16 bits << 16); sc: SL_SACC_B16_SC. Inf and NaN
 * (E = 255) give a non-finite f. */
#define SL_SACC_B16_SC 0x7E800000u        /* 253 << 23 */
#define SL_SACC_B16_MAGIC_BITS 0x47400000u /* 1.5 * 2^15 */
SL_SACC_HD float sl_sacc_b16_f(uint32_t u, uint32_t sc)
{
    const uint32_t sb = (u & 0x7C000000u) ^ sc;
    float x, s;
    memcpy(&x, &u, sizeof x);
    memcpy(&s, &sb, sizeof s);
    return fmaf(x, s, 0x1.8p15f);
}

#endif

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

/* float16 register sums (superacc_f16.cu, step 1c): the doubles of a word w of two float16
 * values with exponent fields 1..30, built with integer operations: each half's double has the
 * low word 0 and the high word written to *lo (low half) or *hi (high half): the exponent field
 * plus 1008 at bits 20-30, the 10 fraction bits at 10-19, the sign at 31; the same double as
 * __half2float and the widening (tests/tsuperacc.c checks every such pattern). */
SL_SACC_HD void sl_sacc_h16x2_hi(uint32_t w, uint32_t *lo, uint32_t *hi)
{
    *lo = ((w & 0x7fffu) << 10) + 0x3F000000u + ((w & 0x8000u) << 16);
    *hi = ((w >> 6) & 0x01fffc00u) + 0x3F000000u + (w & 0x80000000u);
}

/* The float32 limbs' exact sum rounded in registers: the same result as sl_sacc_round_mode(limb,
 * SL_SACC_LIMBS_F32, 0, SL_F32, flags, rto) bit for bit (tests/tsuperacc.c compares them on
 * random and edge states), without its data-dependent indexing, which puts the limbs in local
 * memory and costs a GPU thread some 600 dependent instructions while the rest of the GPU waits
 * (the kernels' last block rounds once per launch). limb: any carry state with |limb| < 2^62 and
 * |sum| < 2^350 (every float32 sum of n < 2^40 values: below 2^318 units); read, not changed.
 * Steps: the limbs normalised into 32-bit words (negated for a negative sum); the highest nonzero limb
 * t found, and limbs t, t - 1 taken as one 64-bit window X with every lower limb ORed into a
 * sticky flag (all by compile-time indices: registers only); the 24 bits below and at the
 * highest set bit h of X, the round bit and the sticky bit give the float32 pattern. */
SL_SACC_HD double sl_sacc_round_f32_regs(const int64_t *limb, unsigned flags, int rto)
{
    enum { L = SL_SACC_LIMBS_F32 };
    uint32_t rbits;
    if ((flags & SL_SACC_NAN) || (flags & (SL_SACC_PINF | SL_SACC_NINF)) == (SL_SACC_PINF | SL_SACC_NINF))
        rbits = 0x7fc00000u;
    else if (flags & SL_SACC_PINF)
        rbits = 0x7f800000u;
    else if (flags & SL_SACC_NINF)
        rbits = 0xff800000u;
    else {
        uint32_t n[L];
        uint32_t sign = sl_sacc_f32_magnitude(limb, n);   /* |sum| in 32-bit words */
        /* t: the highest nonzero limb, hi = n[t], lo = n[t - 1], below: a nonzero limb under
         * t - 1 (one ascending pass of selects: no indexing by t, which the compiler turned
         * into loads from local memory) */
        int t = -1, below = 0;
        uint32_t hi = 0, lo = 0, prev = 0, acc = 0;  /* prev = n[i - 1], acc = OR of n[0 .. i-2] */
        SL_SACC_UNROLL
        for (int i = 0; i < L; i++) {
            if (n[i] != 0) {
                t = i;
                hi = n[i];
                lo = prev;
                below = acc != 0;
            }
            acc |= prev;
            prev = n[i];
        }
        if (t < 0) {                                   /* exact zero */
            rbits = 0u;
            sign = (flags & SL_SACC_ANYPOS) ? 0u : 1u;
        } else {
            const uint64_t X = ((uint64_t)hi << 32) | lo; /* bits 32 (t - 1) .. 32 t + 31 of M */
#if defined(__CUDA_ARCH__)
            const int hx = 63 - __clzll((long long)X); /* the highest set bit of X (X != 0) */
#else
            const int hx = 63 - __builtin_clzll(X);
#endif
            const int s = hx + 32 * (t - 1) - 23;      /* M's bits below s are rounded off */
            uint32_t q;
            int sa = s;
            if (s <= 0) {                              /* M < 2^24 (t = 0): exact, subnormal or */
                q = (uint32_t)(X >> 32);               /* the smallest normal binade */
                sa = 0;
            } else {
                const int sx = s - 32 * (t - 1);       /* s in X: >= 9 */
                q = (uint32_t)(X >> sx) & 0xffffffu;
                const uint32_t rb = (uint32_t)(X >> (sx - 1)) & 1u;
                const int st = below || (X & (((uint64_t)1 << (sx - 1)) - 1)) != 0;
                if (rto) {
                    if (rb || st) q |= 1u;
                } else if (rb && ((q & 1u) || st)) {
                    q++;
                }
            }
            if (sa > 254) {
                rbits = 0x7f800000u;
            } else {
                /* q in [2^23, 2^24]: the exponent field is sa + 1 (a rounding carry adds one) */
                const uint64_t r = ((uint64_t)sa << 23) + q;
                rbits = r >= 0x7f800000u ? 0x7f800000u : (uint32_t)r;
            }
        }
        rbits |= sign << 31;
    }
    float f;
    memcpy(&f, &rbits, sizeof f);
    return (double)f;
}

#endif

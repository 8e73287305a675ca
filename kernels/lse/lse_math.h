/* lse/lse_math.h: the exponential and the logarithm of the lse variants, in float32 and float64,
 * as host-and-device code: the CUDA kernels (lse.cu) and their CPU twins (lse.c) call these same
 * functions, so a twin equals its kernel bit for bit.
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, no contraction (the
 * project builds with -ffp-contract=off / --fmad=false), no flush to zero, FLT_EVAL_METHOD 0.
 * Only +, -, *, / (each rounded once), comparisons, conversions of small integers and exact
 * scaling by powers of two built from bits, and in the per-element exponentials (sl_lm_expf_core,
 * sl_lm_exp_t64) explicit FMAs rounded once on both sides (sl_lm_fmaf, sl_lm_fma): no other libm
 * call.
 *   exp: k = x / ln 2 rounded to nearest even (x * log2(e) + 1.5 2^(p-1), less it), r = (x - k ln2_hi) -
 *        k ln2_lo (Cody and Waite: k ln2_hi is exact), exp(r) by a polynomial in Horner form
 *        (float32: 1 + r (1 + r Q(r)), Q a degree-4 minimax fit; float64: Taylor, degree 13;
 *        |r| <= 0.35), times 2^k in one or two exact steps (two below the normal range: the
 *        second step rounds once). float32 takes one integer compare for |x| <= 87 and then no
 *        other branch.
 *        Overflow above log(max) (+Inf), 0 below log(min subnormal / 2), NaN kept.
 *   log: s = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact), t = f / (2 + f),
 *        log(1 + f) = f - (f^2/2 - t (f^2/2 + R)), R = sum 2 t^(2j) / (2j + 1) (fdlibm's form
 *        with Taylor coefficients: j <= 4 for float32, <= 10 for float64), plus e ln 2 in two
 *        parts. log(0) = -Inf, log(+Inf) = +Inf, log(negative) = NaN, NaN kept.
 *   exp_t64 (accurate's first pass): a 64-entry table of 2^(j/64) and a degree-4 polynomial on
 *        |r| <= ln 2 / 128, relative error below 2^-44 on [-700, 700].
 * Accuracy measured against MPFR (tests/tlse_math.c): at most 2 ulps in both formats over
 * their whole ranges. */
#ifndef SL_LSE_MATH_H
#define SL_LSE_MATH_H
#include <stdint.h>
#include <string.h>
#if !defined(__CUDA_ARCH__)
#include <math.h>
#endif

#if defined(__CUDACC__)
#define SL_LM_FN static __host__ __device__ __forceinline__
#else
#define SL_LM_FN static inline
#endif

SL_LM_FN uint32_t sl_lm_f2u(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
SL_LM_FN float sl_lm_u2f(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
SL_LM_FN uint64_t sl_lm_d2u(double d) { uint64_t u; memcpy(&u, &d, sizeof u); return u; }
SL_LM_FN double sl_lm_u2d(uint64_t u) { double d; memcpy(&d, &u, sizeof d); return d; }

/* 2^k as a float for -126 <= k <= 127, as a double for -1022 <= k <= 1023 */
SL_LM_FN float sl_lm_pow2f(int k) { return sl_lm_u2f((uint32_t)(k + 127) << 23); }
SL_LM_FN double sl_lm_pow2(int k) { return sl_lm_u2d((uint64_t)(k + 1023) << 52); }

/* exp(x) = 2^k p(r) for |x| below the overflow threshold: k = x log2(e) rounded to nearest even by
 * the magic constant 1.5 * 2^23 (no conversion instruction: on the GPU F2I/I2F run at a quarter
 * of the FP32 rate; k from the sum's bits), r = (x - k ln2_hi) - k ln2_lo (Cody and Waite),
 * p(r) = 1 + r (1 + r Q(r)), Q of degree 4 minimax for the relative error on |r| <= 0.3466
 * (Remez: 3.1e-9 = 2^-28.3 before float32 rounding; Taylor's degree 7 needs two more steps) */
SL_LM_FN float sl_lm_expf_red(float x, int *k)
{
    const float ln2_hi = 0.693145751953125f;          /* 0x1.62e4p-1: k ln2_hi exact, |k| <= 150 */
    const float ln2_lo = 1.428606765330187045e-06f;   /* ln 2 - ln2_hi */
    const float sh = x * 1.44269502162933349609f + 12582912.0f;
    const float kf = sh - 12582912.0f;
    *k = (int)(sl_lm_f2u(sh) - 0x4b400000u);
    const float r = (x - kf * ln2_hi) - kf * ln2_lo;
    float p = 0x1.6a243ap-10f;
    p = 0x1.1239ep-7f + r * p;
    p = 0x1.5558f2p-5f + r * p;
    p = 0x1.555492p-3f + r * p;
    p = 0x1.fffffcp-2f + r * p;
    p = 1.0f + r * p;
    return 1.0f + r * p;
}

SL_LM_FN float sl_lm_expf(float x)
{
    /* the reduction and the polynomial for every x (garbage, unused, for NaN, Inf and |x| > 104),
     * then one integer compare (NaN fails it): for |x| <= 87, k is in [-126, 126], 2^k a normal
     * float and p 2^k rounds once (a subnormal result too); one copy of the arithmetic */
    int k;
    const float p = sl_lm_expf_red(x, &k);
    if ((sl_lm_f2u(x) & 0x7fffffffu) <= 0x42ae0000u) return p * sl_lm_pow2f(k);
    if (x != x) return x;
    if (x > 88.72283935546875f) return sl_lm_u2f(0x7f800000u);
    if (x < -103.972084045410156f) return 0.0f;
    if (k >= -126 && k <= 127) return p * sl_lm_pow2f(k);
    const int k1 = k / 2;
    return (p * sl_lm_pow2f(k1)) * sl_lm_pow2f(k - k1);
}

/* fma(a, b, c) rounded once, on both sides (the device's FFMA, the host's C99 fmaf: correctly
 * rounded in glibc with or without an FMA unit), for the tile exponential below */
SL_LM_FN float sl_lm_fmaf(float a, float b, float c)
{
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(a, b, c);
#else
    return fmaf(a, b, c);
#endif
}

/* exp(d) for d in [-86.5, 88] (the caller clamps): 11 FP32/integer instructions on the GPU
 * against sl_lm_expf's 25. The same reduction and polynomial as sl_lm_expf_red, with each
 * multiply-add one explicit FMA (rounded once, on both sides: sl_lm_fmaf), and 2^k put in by an
 * integer add to p's exponent field (p 2^k normal on that range: -125 <= k <= 127, p in
 * [0.7, 1.42]). tests/tlse_math.c: within 2 ulps of MPFR on random arguments and on every 61st
 * float of [-86.5, 88]. */
SL_LM_FN float sl_lm_expf_core(float d)
{
    const float ln2_hi = 0x1.62e43p-1f;    /* ln 2 rounded to float32 */
    const float ln2_lo = -0x1.05c61p-29f;  /* ln 2 - ln2_hi, rounded */
    const float sh = sl_lm_fmaf(d, 1.44269502162933349609f, 12582912.0f);
    const float kf = sh - 12582912.0f;
    float r = sl_lm_fmaf(-kf, ln2_hi, d);
    r = sl_lm_fmaf(-kf, ln2_lo, r);
    float p = 0x1.6a243ap-10f;
    p = sl_lm_fmaf(r, p, 0x1.1239ep-7f);
    p = sl_lm_fmaf(r, p, 0x1.5558f2p-5f);
    p = sl_lm_fmaf(r, p, 0x1.555492p-3f);
    p = sl_lm_fmaf(r, p, 0x1.fffffcp-2f);
    p = sl_lm_fmaf(r, p, 1.0f);
    p = sl_lm_fmaf(r, p, 1.0f);
    /* sh's bits are 0x4b400000 + k; shifted left 23 the constant part leaves the word */
    return sl_lm_u2f(sl_lm_f2u(p) + (sl_lm_f2u(sh) << 23));
}

/* max(v, lo) and min(v, hi), a NaN v giving lo (the device's FMNMX, C's fmaxf/fminf) */
SL_LM_FN float sl_lm_maxf(float v, float lo)
{
#if defined(__CUDA_ARCH__)
    return fmaxf(v, lo);
#else
    return v > lo ? v : lo;
#endif
}
SL_LM_FN float sl_lm_minf(float v, float hi)
{
#if defined(__CUDA_ARCH__)
    return fminf(v, hi);
#else
    return v < hi ? v : hi;
#endif
}

/* exp(max(d, -86.5)) for d <= 0 (online's per-element term, lse.h's tile step): sl_lm_expf_core
 * after one FMNMX. Arguments below -86.5, -Inf included, give exp(-86.5) = 2^-124.8 instead of
 * their smaller value: an absolute change below n 2^-124.8 in a sum of terms that holds a 1, far
 * below the 1 % slack of ops.c's lse bound. Domain: d <= 0, -Inf included (NaN and +Inf are not
 * handled: the tile step sends such values to sl_lm_expf's path). */
SL_LM_FN float sl_lm_expf_tile(float d) { return sl_lm_expf_core(sl_lm_maxf(d, -86.5f)); }

/* exp(max(d, -86.5)) for d <= 88 at the precision a 16-bit result needs (the terms of online and
 * of reproducible's one pass on float16/bfloat16 input): 9 FP32/integer instructions on the GPU
 * against 12 for sl_lm_expf_core and its clamp. The reduction of sl_lm_expf_core with ln 2 in one
 * float32 part (|k| <= 127: k (ln 2 - ln2_hi) below 2^-21.9) and exp(r) = 1 + r (1 + r Q(r)), Q
 * of degree 2 (a minimax fit of the relative error on |r| <= 0.3473, 2^-17.5), then 2^k by an
 * integer add to the exponent field as there. Relative error below 2^-17 (tests/tlse_math.c
 * against MPFR): 2^-6 of a float16 result's half ulp, 2^-9 of a bfloat16 one's. exp(0) = 1
 * exactly; below -86.5, -Inf included, its floor exp(-86.5) as sl_lm_expf_tile. Domain: d <= 88
 * (NaN, +Inf and d above 88 not handled: the callers send such values elsewhere).
 * sl_lm_expf16_core: the same without the clamp, for d in [-86.5, 88]. */
SL_LM_FN float sl_lm_expf16_core(float d)
{
    const float ln2_hi = 0x1.62e43p-1f;
    const float sh = sl_lm_fmaf(d, 1.44269502162933349609f, 12582912.0f);
    const float kf = sh - 12582912.0f;
    const float r = sl_lm_fmaf(-kf, ln2_hi, d);
    float p = 0x1.522288p-5f;
    p = sl_lm_fmaf(r, p, 0x1.571e7cp-3f);
    p = sl_lm_fmaf(r, p, 0x1.0006c2p-1f);
    p = sl_lm_fmaf(r, p, 1.0f);
    p = sl_lm_fmaf(r, p, 1.0f);
    return sl_lm_u2f(sl_lm_f2u(p) + (sl_lm_f2u(sh) << 23));
}
SL_LM_FN float sl_lm_expf16(float d) { return sl_lm_expf16_core(sl_lm_maxf(d, -86.5f)); }

/* fma(a, b, c) rounded once in float64, on both sides (the device's DFMA, the host's C99 fma) */
SL_LM_FN double sl_lm_fma(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    return __fma_rn(a, b, c);
#else
    return fma(a, b, c);
#endif
}

/* 2^(j/64), j = 0..63, each rounded to float64 (the table of sl_lm_exp_t64; lse.cu copies it to
 * shared memory, the host reads sl_lm_t64) */
#define SL_LM_T64_VALUES                                                                       \
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,   \
    0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,    \
    0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,    \
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,    \
    0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,    \
    0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,    \
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,    \
    0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,    \
    0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,    \
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,    \
    0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,    \
    0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,    \
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,    \
    0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,    \
    0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,    \
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0
#if !defined(__CUDA_ARCH__)
static const double sl_lm_t64[64] = {SL_LM_T64_VALUES};
#endif

/* Relative error bound of sl_lm_exp_t64 (tests/tlse_math.c checks it against MPFR): the
 * polynomial's truncation r^5/120 <= 2^-44.5 for |r| <= ln 2 / 128, plus a few roundings of
 * 2^-53. */
#define SL_LM_EXP_T64_ERR 0x1p-44

/* ln 2 / 64 rounded to float64, and its remainder rounded (the third part below 2^-116) */
#define SL_LM_LN2_64_HI 0x1.62e42fefa39efp-7
#define SL_LM_LN2_64_LO 0x1.abc9e3b39803fp-62
/* The reduction of the table exponentials (sl_lm_exp_t64, sl_lm_exp_dd): *k = x 64 / ln 2 rounded
 * to nearest (the magic constant 1.5 2^52, k from the sum's low word), *kd the same as a double,
 * and x - kd SL_LM_LN2_64_HI by one FMA, exact (k = 0: x itself; else x and kd ln2_hi are
 * multiples of 2^-60 within 2^-7.5 of each other, |x| <= 745). */
SL_LM_FN double sl_lm_red64(double x, double *kd, int *k)
{
    const double sh = sl_lm_fma(x, 0x1.71547652b82fep+6, 6755399441055744.0);
    *kd = sh - 6755399441055744.0;
    *k = (int)(uint32_t)sl_lm_d2u(sh);
    return sl_lm_fma(-*kd, SL_LM_LN2_64_HI, x);
}
/* exp(x) for x in [-700, 700] in float64 with a relative error below SL_LM_EXP_T64_ERR, 10
 * float64 operations: k = x 64 / ln 2 rounded to nearest (the magic constant 1.5 2^52: k from
 * the sum's low word), r = x - k ln2/64 (two FMAs: the first's product is exact inside the FMA,
 * the second adds the constant's tail; |r| <= ln 2 / 128), exp(r) - 1 = r (1 + r (1/2 + r (1/6 +
 * r/24))) (Taylor), times the table's 2^((k mod 64)/64) by one FMA (t + t q), and 2^(k >> 6) by
 * an integer add to the exponent field (normal on this range). tab: sl_lm_t64's values. */
SL_LM_FN double sl_lm_exp_t64(double x, const double *tab)
{
    double kd;
    int k;
    const double r1 = sl_lm_red64(x, &kd, &k);
    const double r = sl_lm_fma(-kd, SL_LM_LN2_64_LO, r1);
    double q = sl_lm_fma(r, 1.0 / 24.0, 1.0 / 6.0);
    q = sl_lm_fma(r, q, 0.5);
    q = sl_lm_fma(r, q, 1.0);
    q = r * q;
    const double t = tab[k & 63];
    const double e = sl_lm_fma(t, q, t);
    return sl_lm_u2d(sl_lm_d2u(e) + ((uint64_t)(int64_t)(k >> 6) << 52));
}

/* ---- double-double: the float64 `accurate` lse's exponential (lse.h's sl_lse_acc_*) ---------- */

/* TwoSum (Knuth): s + *e = a + b exactly (no overflow) */
SL_LM_FN double sl_lm_two_sum(double a, double b, double *e)
{
    const double s = a + b;
    const double bp = s - a;
    *e = (a - (s - bp)) + (b - bp);
    return s;
}
/* TwoProduct by an FMA: p + *e = a b exactly (no overflow, no underflow of e) */
SL_LM_FN double sl_lm_two_prod(double a, double b, double *e)
{
    const double p = a * b;
    *e = sl_lm_fma(a, b, -p);
    return p;
}

/* 2^(j/64) = hi + lo, j = 0..63: hi as SL_LM_T64_VALUES, lo the remainder rounded to float64
 * (|lo| < 2^-53 hi; the pair within 2^-106 relative), interleaved (one 16-byte load a value on
 * the device) */
#define SL_LM_T64DD_VALUES                                                                     \
    0x1p+0, 0x0p+0,                                0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56, \
    0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55,   0x1.0874518759bc8p+0, 0x1.186be4bb284ffp-57,  \
    0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54,   0x1.0e3ec32d3d1a2p+0, 0x1.03a1727c57b53p-59,  \
    0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54,  0x1.1429aaea92dep+0, -0x1.32fbf9af1369ep-54,  \
    0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55,  0x1.1a35beb6fcb75p+0, 0x1.e5b4c7b4968e4p-55,  \
    0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54,   0x1.2063b88628cd6p+0, 0x1.dc775814a8495p-55,  \
    0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54,   0x1.26b4565e27cddp+0, 0x1.2bd339940e9d9p-55,  \
    0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55,   0x1.2d285a6e4030bp+0, 0x1.0024754db41d5p-54,  \
    0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55,   0x1.33c08b26416ffp+0, 0x1.32721843659a6p-54,  \
    0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54,  0x1.3a7db34e59ff7p+0, -0x1.5e436d661f5e3p-56, \
    0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55,   0x1.4160a21f72e2ap+0, -0x1.ef3691c309278p-58, \
    0x1.44e086061892dp+0, 0x1.89b7a04ef80dp-59,    0x1.486a2b5c13cdp+0, 0x1.3c1a3b69062fp-56,    \
    0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56,   0x1.4f9b2769d2ca7p+0, -0x1.4b309d25957e3p-54, \
    0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55,  0x1.56f4736b527dap+0, 0x1.9bb2c011d93adp-54,  \
    0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54,   0x1.5e76f15ad2148p+0, 0x1.ba6f93080e65ep-54,  \
    0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54,  0x1.6623882552225p+0, -0x1.bb60987591c34p-54, \
    0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54,  0x1.6dfb23c651a2fp+0, -0x1.bbe3a683c88abp-57, \
    0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55,  0x1.75feb564267c9p+0, -0x1.0245957316dd3p-54, \
    0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55,  0x1.7e2f336cf4e62p+0, 0x1.05d02ba15797ep-56,  \
    0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54,  0x1.868d99b4492edp+0, -0x1.fc6f89bd4f6bap-54, \
    0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54,   0x1.8f1ae99157736p+0, 0x1.5cc13a2e3976cp-55,  \
    0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57,  0x1.97d829fde4e5p+0, -0x1.d185b7c1b85d1p-54,  \
    0x1.9c49182a3f09p+0, 0x1.c7c46b071f2bep-56,    0x1.a0c667b5de565p+0, -0x1.359495d1cd533p-54, \
    0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54,  0x1.a9e6b5579fdbfp+0, 0x1.0fac90ef7fd31p-54,  \
    0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54,   0x1.b33a2b84f15fbp+0, -0x1.2805e3084d708p-57, \
    0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56,  0x1.bcc1e904bc1d2p+0, 0x1.23dd07a2d9e84p-55,  \
    0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55,   0x1.c67f12e57d14bp+0, 0x1.2884dff483cadp-54,  \
    0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56,   0x1.d072d4a07897cp+0, -0x1.cbc3743797a9cp-54, \
    0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55,   0x1.da9e603db3285p+0, 0x1.c2300696db532p-54,  \
    0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54,  0x1.e502ee78b3ff6p+0, 0x1.39e8980a9cc8fp-55,  \
    0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54,  0x1.efa1bee615a27p+0, 0x1.dc7f486a4b6bp-54,   \
    0x1.f50765b6e454p+0, 0x1.9d3e12dd8a18bp-54,    0x1.fa7c1819e90d8p+0, 0x1.74853f3a5931ep-55
#if defined(__CUDACC__)
static __device__ const double __align__(16) sl_lm_t64dd_dev[128] = {SL_LM_T64DD_VALUES};
#endif
#if !defined(__CUDA_ARCH__)
static const double sl_lm_t64dd[128] = {SL_LM_T64DD_VALUES};
#endif

/* Relative error bound of sl_lm_exp_dd's pair for dh >= -694: the reduction (ln 2 / 64 in two
 * parts, the third, below 2^-116, left out: |k| 2^-116 <= 2^-100), Taylor's truncation after
 * degree 8 (2^-86 on |r| <= ln 2 / 128 + 2^-45), the evaluation of r^3 Q(r) in float64 (about
 * 2^-77), the dropped square of the argument's tail (|rl| <= 2^-43.9: 2^-88) and the assembly
 * (2^-104). Below -694 the low part's scaling by 2^(k >> 6) goes subnormal (2^-66.5 relative at
 * -700, 2^-54.7 at -708): an absolute error below 2^-1074, which no lse sum (it holds a 1) sees.
 * tests/tlse_math.c checks it against MPFR (worst measured: see docs/lse.md). */
#define SL_LM_EXP_DD_ERR 0x1p-74

/* exp(dh + dl) = *hi + *lo within SL_LM_EXP_DD_ERR relative for -694 <= dh <= 1 (absolute
 * 2^-1074 below), |dl| <= ulp(dh),
 * or dl NaN where dh is infinite (x - m with m or x infinite: the TwoSum tail); the pair is
 * normalised (|lo| <= ulp(hi) / 2, hi the rounded sum). 38 float64 operations and one 16-byte
 * table load; no branch but selects.
 *   dh < -708 (-Inf included) is taken as -708: the pair then holds exp(-708) = 2^-1021.4 instead
 *   of the smaller value, an absolute change below 2^-1021 (the lse sums hold a 1);
 *   NaN gives NaN.
 * Reduction: k = dh 64 / ln 2 rounded to nearest (the magic constant 1.5 2^52, k from the sum's
 * low word), r1 = dh - k L (L = ln 2 / 64 rounded: one FMA, exact: dh and k L are multiples of
 * 2^-60 within 2^-7.5 of each other), then the tail k L2 (TwoProduct) and dl: rh + rl = dh + dl -
 * k ln 2 / 64 to 2^-100, |rh| <= ln 2 / 128 + 2^-45.
 * exp(rh) - 1 = rh + rh^2 / 2 + rh^3 Q(rh) (Taylor to degree 8, Q in float64 Horner), rh^2 a
 * TwoProduct, rh + rh^2 / 2 a Fast2Sum: exp(rh) - 1 = ph + pc; exp(rh + rl) - 1 = ph + pc + rl (1 +
 * ph + pc) to rl^2. Times 2^(j/64) = th + tl (the table) and 2^(k >> 6) (a power of two built from bits,
 * exact for normal results). */
SL_LM_FN double sl_lm_exp_dd(double dh, double dl, double *lo)
{
    const int clamp = dh < -708.0;
    dh = clamp ? -708.0 : dh;
    dl = clamp || dl != dl ? 0.0 : dl;
    double kd;
    int k;
    const double r1 = sl_lm_red64(dh, &kd, &k);
    double kl;
    const double kh = sl_lm_two_prod(kd, SL_LM_LN2_64_LO, &kl);
    double rt;
    const double rh = sl_lm_two_sum(r1, -kh, &rt);
    const double rl = rt + (dl - kl);
    double q = sl_lm_fma(rh, 1.0 / 40320.0, 1.0 / 5040.0);
    q = sl_lm_fma(rh, q, 1.0 / 720.0);
    q = sl_lm_fma(rh, q, 1.0 / 120.0);
    q = sl_lm_fma(rh, q, 1.0 / 24.0);
    q = sl_lm_fma(rh, q, 1.0 / 6.0);
    double se;
    const double s = sl_lm_two_prod(rh, rh, &se);
    const double v = rh * q;
    const double w = sl_lm_fma(s, v, se * v); /* rh^3 Q(rh), the square's tail included */
    const double ph = rh + 0.5 * s;           /* Fast2Sum: |rh| >= rh^2 / 2 */
    const double pt = 0.5 * s - (ph - rh);
    const double pc = pt + (w + 0.5 * se);    /* exp(rh) - 1 = ph + pc */
    const double pl = pc + sl_lm_fma(rl, ph + pc, rl);
#if defined(__CUDA_ARCH__)
    const double2 t = __ldg(reinterpret_cast<const double2 *>(sl_lm_t64dd_dev) + (k & 63));
    const double th = t.x, tl = t.y;
#else
    const double th = sl_lm_t64dd[2 * (k & 63)], tl = sl_lm_t64dd[2 * (k & 63) + 1];
#endif
    double ae;
    const double a = sl_lm_two_prod(th, ph, &ae);
    const double rest = sl_lm_fma(th, pl, ae) + sl_lm_fma(tl, ph, tl);
    const double e1 = th + a;                 /* Fast2Sum: th >= 1 > |a| */
    const double t1 = (a - (e1 - th)) + rest; /* |t1| < 2^-24 */
    const double eh = e1 + t1;                /* Fast2Sum again: |lo| <= ulp(hi) / 2 */
    const double el = t1 - (eh - e1);
    const double sc = sl_lm_pow2(k >> 6);
    *lo = el * sc;
    return eh * sc;
}

SL_LM_FN double sl_lm_exp(double x)
{
    /* as sl_lm_expf: the arithmetic for every x, then one integer compare (|x| <= 708: k in
     * [-1021, 1021]) for the common path; the special and extreme arguments after it */
    const double ln2_hi = 6.93147180369123816490e-01; /* 32 significant bits: k ln2_hi exact */
    const double ln2_lo = 1.90821492927058770002e-10;
    const double sh = x * 1.44269504088896338700e+00 + 6755399441055744.0; /* 1.5 * 2^52 */
    const double kd = sh - 6755399441055744.0;
    const int k = (int)(int64_t)(sl_lm_d2u(sh) - 0x4338000000000000ull);
    const double r = (x - kd * ln2_hi) - kd * ln2_lo;
    double p = 1.0 / 6227020800.0;                     /* 1/13! */
    p = 1.0 / 479001600.0 + r * p;
    p = 1.0 / 39916800.0 + r * p;
    p = 1.0 / 3628800.0 + r * p;
    p = 1.0 / 362880.0 + r * p;
    p = 1.0 / 40320.0 + r * p;
    p = 1.0 / 5040.0 + r * p;
    p = 1.0 / 720.0 + r * p;
    p = 1.0 / 120.0 + r * p;
    p = 1.0 / 24.0 + r * p;
    p = 1.0 / 6.0 + r * p;
    p = 0.5 + r * p;
    p = 1.0 + r * p;
    p = 1.0 + r * p;
    if ((sl_lm_d2u(x) & 0x7fffffffffffffffull) <= 0x4086200000000000ull) return p * sl_lm_pow2(k);
    if (x != x) return x;
    if (x > 709.782712893383973096) return sl_lm_u2d(0x7ff0000000000000ull);
    if (x < -745.133219101941108420) return 0.0;
    if (k >= -1022 && k <= 1023) return p * sl_lm_pow2(k);
    const int k1 = k / 2;
    return (p * sl_lm_pow2(k1)) * sl_lm_pow2(k - k1);
}

SL_LM_FN float sl_lm_logf(float s)
{
    if (s != s) return s;
    if (s < 0.0f) return sl_lm_u2f(0x7fc00000u);
    if (s == 0.0f) return sl_lm_u2f(0xff800000u);
    if (s > 3.40282346638528859812e+38f) return s;
    int e = 0;
    if (s < 1.17549435082228750797e-38f) { s = s * 16777216.0f; e = -24; }
    uint32_t u = sl_lm_f2u(s);
    e += (int)(u >> 23) - 127;
    u = (u & 0x007fffffu) | 0x3f800000u;             /* m in [1, 2) */
    if (u > 0x3fb504f3u) { u -= 0x00800000u; e += 1; } /* m in [sqrt(1/2), sqrt(2)) */
    const float f = sl_lm_u2f(u) - 1.0f;
    const float t = f / (2.0f + f);
    const float z = t * t;
    float R = 2.0f / 9.0f;
    R = 2.0f / 7.0f + z * R;
    R = 2.0f / 5.0f + z * R;
    R = 2.0f / 3.0f + z * R;
    R = z * R;
    const float hfsq = 0.5f * f * f;
    const float ef = (float)e;
    const float ln2_hi = 0.693145751953125f, ln2_lo = 1.428606765330187045e-06f;
    return ef * ln2_hi - ((hfsq - (t * (hfsq + R) + ef * ln2_lo)) - f);
}

SL_LM_FN double sl_lm_log(double s)
{
    if (s != s) return s;
    if (s < 0.0) return sl_lm_u2d(0x7ff8000000000000ull);
    if (s == 0.0) return sl_lm_u2d(0xfff0000000000000ull);
    if (s > 1.79769313486231570815e+308) return s;
    int e = 0;
    if (s < 2.22507385850720138309e-308) { s = s * 18014398509481984.0; e = -54; }
    uint64_t u = sl_lm_d2u(s);
    e += (int)(u >> 52) - 1023;
    u = (u & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
    if (u > 0x3ff6a09e667f3bccull) { u -= 0x0010000000000000ull; e += 1; }
    const double f = sl_lm_u2d(u) - 1.0;
    const double t = f / (2.0 + f);
    const double z = t * t;
    double R = 2.0 / 21.0;
    R = 2.0 / 19.0 + z * R;
    R = 2.0 / 17.0 + z * R;
    R = 2.0 / 15.0 + z * R;
    R = 2.0 / 13.0 + z * R;
    R = 2.0 / 11.0 + z * R;
    R = 2.0 / 9.0 + z * R;
    R = 2.0 / 7.0 + z * R;
    R = 2.0 / 5.0 + z * R;
    R = 2.0 / 3.0 + z * R;
    R = z * R;
    const double hfsq = 0.5 * f * f;
    const double ed = (double)e;
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    return ed * ln2_hi - ((hfsq - (t * (hfsq + R) + ed * ln2_lo)) - f);
}

#endif

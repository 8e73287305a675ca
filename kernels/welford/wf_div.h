/* welford/wf_div.h: a / b correctly rounded from a reciprocal that several quotients of the same
 * divisor share, host and device: the W lanes of a Welford vector step divide by one count b
 * (welford.cu), and the division's reciprocal and its refinement were most of its cost.
 *   y = RN(1/b), once per divisor (a correctly rounded division);
 *   q0 = RN(a y); r0 = a - b q0 (one fma, exact); q = RN(q0 + r0 y) (one fma) = RN(a / b).
 * Why, for b an integer with 2 <= b < 2^20 and a finite with |a| >= 2^-100 (float32; 2^-900 in
 * float64), p the precision, u = 2^-p, U the ulp of a / b's binade (every quotient here is normal):
 *  - q0 = (a / b)(1 + e1)(1 + e2) with |e1|, |e2| <= u, and u |a / b| < U: |q0 - a / b| < (2 + u) U.
 *  - r0 is exact: |q0| < |a| (b >= 2), so ulp(q0) divides ulp(a) and b q0 is an integer multiple
 *    of ulp(q0): r0 is an integer multiple k of ulp(q0) with |k| <= 2 (2 + u) b < 2^p
 *    (ulp(q0) >= U / 2), representable, and the fma's single rounding leaves it exact.
 *  - q0 + r0 y = a / b - d e with d = q0 - a / b and b y = 1 + e, |e| <= u: within (2 + u) u U of
 *    a / b.
 *  - a / b is never a rounding midpoint and lies at least U / (2 b) from every one: with
 *    a = A 2^s (A an integer) and a midpoint m = (2 Q + 1) U / 2, a / b - m = (A 2^s - b (2 Q + 1)
 *    U / 2) / b, the numerator an integer multiple of U / 2 (U <= ulp(a)); it is not zero, since
 *    a / b = A 2^s / b has at most p significant bits when it is a multiple of U / 2 at all and a
 *    midpoint has p + 1.
 *  - (2 + u) u U < U / (2 b) for b < 2^(p-2) / (1 + u): no midpoint lies between a / b and
 *    q0 + r0 y, so their roundings agree: q = RN(a / b).
 * Elsewhere (b = 1 or b >= 2^20, |a| < 2^-100 with zero among them, whose sign the fma step would
 * lose, Inf, NaN) the division itself. tests/twf_div.c checks the function against the division
 * on every b below 2^12 and sampled ones to 2^21, with random, exact-multiple, midpoint-adjacent
 * and edge numerators.
 * Assumptions: IEEE 754 binary32/binary64, round to nearest even, fma correctly rounded (C99
 * fma/fmaf, CUDA's), no contraction. */
#ifndef SL_WF_DIV_H
#define SL_WF_DIV_H
#include <math.h>

#if defined(__CUDACC__)
#define SL_WF_HD static __host__ __device__ __forceinline__
#else
#define SL_WF_HD static inline
#endif

/* y: RN(1 / b) for the same b. */
SL_WF_HD float sl_wf_div_f(float a, float b, float y)
{
    if (!(fabsf(a) >= 0x1p-100f && fabsf(a) < INFINITY && b >= 2.0f && b < 0x1p20f)) return a / b;
    const float q0 = a * y;
    return fmaf(fmaf(-b, q0, a), y, q0);
}
SL_WF_HD double sl_wf_div_d(double a, double b, double y)
{
    if (!(fabs(a) >= 0x1p-900 && fabs(a) < INFINITY && b >= 2.0 && b < 0x1p20)) return a / b;
    const double q0 = a * y;
    return fma(fma(-b, q0, a), y, q0);
}
#endif

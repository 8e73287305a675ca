/* detmath.c: the generators' deterministic exp, expm1 and log (sl_detmath.h): IEEE operations
 * only, so a dataset's values are the same bits on every machine and C library. */
#include <stdint.h>
#include <string.h>
#include "sl_detmath.h"

/* e^r for |r| <= ln2/2: the Taylor polynomial to r^13/13! (truncation below 2^-56 relative),
 * by Estrin's scheme. */
static double exp_kernel(double r)
{
    const double r2 = r * r, r4 = r2 * r2;
    const double p0 = (1.0 + r) + r2 * (1.0 / 2.0 + r * (1.0 / 6.0));
    const double p1 = (1.0 / 24.0 + r * (1.0 / 120.0)) + r2 * (1.0 / 720.0 + r * (1.0 / 5040.0));
    const double p2 = (1.0 / 40320.0 + r * (1.0 / 362880.0)) + r2 * (1.0 / 3628800.0 + r * (1.0 / 39916800.0));
    const double p3 = 1.0 / 479001600.0 + r * (1.0 / 6227020800.0);
    return p0 + r4 * (p1 + r4 * (p2 + r4 * p3));
}

double sl_det_exp(double y)
{
    if (y < -745.0) return 0.0;
    if (y > 709.0) y = 709.0; /* callers stay below; kept finite */
    /* y = k ln2 + r, k the nearest integer (floor without libm: |y/ln2| < 1100) */
    const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
    double t = y * 1.44269504088896338700 + 0.5;
    int k = (int)t;
    if ((double)k > t) k--;
    const double r = (y - (double)k * LN2_HI) - (double)k * LN2_LO;
    const double e = exp_kernel(r);
    /* 2^k in two steps: k may lie below the normal range (the result is then subnormal) */
    if (k < -1000) return e * sl_pow2(k + 200) * 0x1p-200;
    return e * sl_pow2(k);
}

double sl_det_expm1(double y)
{
    /* beyond |y| = 1/2, e^y - 1 loses under 2 bits to the subtraction */
    if (y > 0.5 || y < -0.5) return sl_det_exp(y) - 1.0;
    /* y + y^2/2! + ... + y^18/18!: |y| <= 1/2 leaves a truncation below 2^-68 relative */
    double s = 0.0, term = y;
    for (int j = 2; j <= 19; j++) {
        s += term;
        term = term * y / (double)j;
    }
    return s;
}

double sl_det_log(double x)
{
    /* x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s), s = (m-1)/(m+1). The
     * exponent is taken from the bits (subnormals are scaled up first). */
    int e = 0;
    if (x < 0x1p-1022) {
        x *= 0x1p54;
        e = -54;
    }
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    e += (int)((b >> 52) & 0x7FF) - 1023;
    b = (b & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull; /* m in [1, 2) */
    double m;
    memcpy(&m, &b, sizeof m);
    if (m > 1.4142135623730951) {
        m *= 0.5;
        e += 1;
    }
    double s = (m - 1.0) / (m + 1.0), s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    /* atanh(s)/s = sum s^(2k)/(2k+1); |s| < 0.1716 so s^2 < 0.0295: 12 terms reach 2^-60.
     * Estrin's scheme keeps the dependency chain short. */
    double p0 = (1.0 + s2 * (1.0 / 3.0)) + s4 * (1.0 / 5.0 + s2 * (1.0 / 7.0));
    double p1 = (1.0 / 9.0 + s2 * (1.0 / 11.0)) + s4 * (1.0 / 13.0 + s2 * (1.0 / 15.0));
    double p2 = (1.0 / 17.0 + s2 * (1.0 / 19.0)) + s4 * (1.0 / 21.0 + s2 * (1.0 / 23.0));
    double t = p0 + s8 * (p1 + s8 * p2);
    /* ln 2 split so that e * LN2_HI is exact (fdlibm's constants). */
    const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
    return (double)e * LN2_HI + ((double)e * LN2_LO + 2.0 * s * t);
}

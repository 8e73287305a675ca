/* sl_detmath.h: deterministic elementary functions for the generators (IEEE operations only, the
 * same bits on every machine and C library), and 2^e built from its bits. Defined in detmath.c;
 * internal to datasets/. */
#ifndef SL_DETMATH_H
#define SL_DETMATH_H
#include <stdint.h>
#include <string.h>

/* 2^e for -1074 <= e <= 1023, exactly (a subnormal below -1022). */
static inline double sl_pow2(int e)
{
    uint64_t b;
    if (e >= -1022) b = (uint64_t)(e + 1023) << 52;
    else b = 1ull << (e + 1074);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Deterministic natural logarithm for x > 0 finite (IEEE ops only; a few ulp). */
double sl_det_log(double x);
/* Deterministic e^y for y <= 709 (IEEE ops only; a few ulp); 0 below -745. */
double sl_det_exp(double y);
/* Deterministic e^y - 1 for y <= 709, accurate near 0 too (a few ulp). */
double sl_det_expm1(double y);

#endif

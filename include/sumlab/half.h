/* sumlab/half.h: float16 (IEEE binary16) and bfloat16 on the host: their 16-bit patterns to double
 * (exact) and double to a pattern rounded once to nearest, ties to even (subnormals, overflow
 * to +-Inf), by integer bit manipulation alone. Header-only; no libm, no compiler half type.
 * Assumptions: IEEE binary64 doubles with the byte order of uint64_t. NaN converts to the
 * format's quiet NaN of the same sign (payloads are not kept). */
#ifndef SL_HALF_H
#define SL_HALF_H
#include <stdint.h>
#include <string.h>
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Format facts of the two 16-bit formats: significand bits p (with the hidden bit), smallest
 * normal exponent emin, largest exponent emax. Subnormals step by 2^(emin - p + 1). */
static inline int sl_half_prec(sl_dtype dt) { return dt == SL_BF16 ? 8 : 11; }
static inline int sl_half_emin(sl_dtype dt) { return dt == SL_BF16 ? -126 : -14; }
static inline int sl_half_emax(sl_dtype dt) { return dt == SL_BF16 ? 127 : 15; }

/* Leading zeros of a non-zero word. */
static inline int sl_half_clz64(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(m);
#else
    int z = 0;
    while (!(m >> (63 - z))) z++;
    return z;
#endif
}

static inline double sl_half_bits_double(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* The value of pattern h (exact: both formats' values are doubles). */
static inline double sl_half_to_double(uint16_t h, sl_dtype dt)
{
    const int p = sl_half_prec(dt), emin = sl_half_emin(dt);
    const unsigned fbits = (unsigned)p - 1u, ebits = 15u - fbits;
    const uint64_t sign = (uint64_t)(h >> 15) << 63;
    const unsigned e = (h >> fbits) & ((1u << ebits) - 1u);
    uint64_t f = h & ((1u << fbits) - 1u);
    if (e == (1u << ebits) - 1u) /* Inf or NaN */
        return sl_half_bits_double(sign | 0x7ff0000000000000ull | (f ? 0x0008000000000000ull : 0));
    if (e == 0) {
        if (!f) return sl_half_bits_double(sign);
        const int lead = 63 - sl_half_clz64(f);       /* subnormal: normalise the fraction */
        const int exp = emin - (int)fbits + lead;     /* value = 1.xxx * 2^exp */
        f = (f ^ (1ull << lead)) << (52 - lead);
        return sl_half_bits_double(sign | ((uint64_t)(exp + 1023) << 52) | f);
    }
    const int exp = (int)e + emin - 1;
    return sl_half_bits_double(sign | ((uint64_t)(exp + 1023) << 52) | (f << (52 - fbits)));
}

/* x rounded once to the format, nearest with ties to even; |x| at or beyond the overflow
 * threshold (65520 for float16) gives +-Inf. */
static inline uint16_t sl_half_from_double(double x, sl_dtype dt)
{
    const int p = sl_half_prec(dt), emin = sl_half_emin(dt), emax = sl_half_emax(dt);
    const unsigned fbits = (unsigned)p - 1u;
    const uint16_t inf = (uint16_t)(((1u << (15u - fbits)) - 1u) << fbits);
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    const uint16_t sign = (uint16_t)((b >> 48) & 0x8000u);
    const int be = (int)((b >> 52) & 0x7ff);
    uint64_t m = b & 0x000fffffffffffffull;
    if (be == 0x7ff) return (uint16_t)(sign | inf | (m ? 1u << (fbits - 1u) : 0u));
    if (be == 0 && m == 0) return sign;
    int e, lead;                              /* |x| = m * 2^e, m an integer; */
    if (be == 0) { e = -1074; lead = 63 - sl_half_clz64(m); }   /* floor(log2 |x|) = lead + e */
    else { m |= 1ull << 52; e = be - 1075; lead = 52; }
    int q = lead + e - (p - 1);               /* quantum exponent of the result */
    if (q < emin - (p - 1)) q = emin - (p - 1);
    const int shift = q - e;                  /* bits of m below the quantum */
    uint64_t M;
    if (shift <= 0) M = m << -shift;          /* exact (fits: lead - shift <= p - 1) */
    else if (shift > 62) M = 0;               /* |x| < 2^(q-9): below half the quantum */
    else {
        M = m >> shift;
        const uint64_t rem = m & ((1ull << shift) - 1u), half = 1ull << (shift - 1);
        /* to nearest, ties to even, without a branch (random data mispredicts one) */
        M += (uint64_t)((rem > half) | ((rem == half) & (unsigned)(M & 1u)));
    }
    if (M >> p) { M >>= 1; q++; }             /* carried into a new binade (M was 2^p) */
    if (!(M >> (p - 1))) return (uint16_t)(sign | M); /* subnormal or zero */
    const int L = q + p - 1;                  /* exponent of the leading bit */
    if (L > emax) return (uint16_t)(sign | inf);
    return (uint16_t)(sign | ((unsigned)(L - emin + 1) << fbits) | (M & ((1u << fbits) - 1u)));
}

/* x rounded once to the format and back, as a double. */
static inline double sl_half_round(double x, sl_dtype dt)
{
    return sl_half_to_double(sl_half_from_double(x, dt), dt);
}

#ifdef __cplusplus
}
#endif
#endif

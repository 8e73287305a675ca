/* moments_exact/mx_round.h: the correctly rounded mean, variance and standard deviation from the
 * exact sums S1 = sum x and S2 = sum x^2 held in superaccumulator limbs: fixed-size multi-limb
 * integer arithmetic, host and device, run once per result by the `correct` twin and by one
 * thread of the kernel's last block. Internal to kernels/; shares nothing with reference/.
 * Assumptions: two's-complement int64_t with arithmetic right shift (gcc, clang, nvcc); IEEE 754
 * binary64 for the returned double (ldexp of an integer of at most 54 bits: exact).
 *
 * Inputs: S1 = A 2^-s (exact/limbs.h's layout, s = 149 for float32 and 16-bit input, 1074 for
 * float64), S2 = B 2^-2s (SL_MX_S2_* below: the squares' own superaccumulator), n, ddof.
 *   mean = A / n 2^-s;  var = (n B - A^2) / (n (n - ddof)) 2^-2s;  std = sqrt(var).
 * Steps: N = n B - A^2 exactly (schoolbook products over the nonzero limbs only); its top 256
 * bits X (N = X 2^t + R, 0 <= R < 2^t) and a sticky bit for R != 0; Q = floor(X / n / (n - ddof))
 * by 16-bit digits (floor(floor(X / a) / b) = floor(X / (a b)); the quotient is exact iff both
 * remainders and R are 0): Q has at least 256 - 80 bits. var: Q's top 63 bits and the sticky
 * bit, rounded to nearest even in the format (subnormal results and overflow to Inf included).
 * std: Q's exponent made even, its top <= 126 bits Q' (an even shift), s = isqrt(Q') with the
 * remainder: floor(sqrt(Q' + f)) = s for 0 <= f < 1, and the root is s exactly iff Q' = s^2 and
 * nothing was dropped, so s and a sticky bit round like the quotient. Every rounding boundary is
 * an integer multiple of the kept bits' unit, never met by a value strictly between two
 * integers: truncation plus sticky decides nearest-even exactly, ties included. */
#ifndef SL_MX_ROUND_H
#define SL_MX_ROUND_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "exact/limbs.h"

#ifdef __CUDACC__
#define SL_MX_HD static __host__ __device__ __forceinline__
#define SL_MX_HDN static inline __host__ __device__ __noinline__
#else
#define SL_MX_HD static inline
#define SL_MX_HDN static inline
#endif

/* The squares' superaccumulator (limbs of 32 bits in int64, exact/limbs.h's carry rules):
 * float32 and 16-bit input: x^2 in [2^-298, 2^256], units 2^-298, n < 2^40: 595 bits + sign;
 * float64: x^2 in [2^-2148, 2^2048], units 2^-2148: 4237 bits + sign. */
#define SL_MX_S2_LIMBS_F32 20
#define SL_MX_S2_LIMBS_F64 134
#define SL_MX_S2_SCALE_F32 298
#define SL_MX_S2_SCALE_F64 2148
#define SL_MX_NL 140        /* limbs of N = n B - A^2 (A^2: 2 x 68, n B: 134 + 2) */

/* What is rounded (the variants' impl). */
enum { SL_MX_MEAN = 0, SL_MX_VAR = 1, SL_MX_STD = 2 };

static inline int sl_mx_s2_limbs(sl_dtype dt) { return dt == SL_F64 ? SL_MX_S2_LIMBS_F64 : SL_MX_S2_LIMBS_F32; }

/* Bits [pos, pos + 32) of the unsigned integer a[0..len) (32-bit limbs); pos may be negative
 * (zeros below bit 0). */
SL_MX_HD uint32_t sl_mx_get32(const uint32_t *a, int len, int pos)
{
    if (pos <= -32) return 0;
    if (pos < 0) return len > 0 ? a[0] << -pos : 0;
    const int w = pos >> 5, off = pos & 31;
    const uint32_t lo = w < len ? a[w] : 0, hi = w + 1 < len ? a[w + 1] : 0;
    return off ? (lo >> off) | (hi << (32 - off)) : lo;
}
/* 1 when a bit of a below bit pos is set. */
SL_MX_HD int sl_mx_any_below(const uint32_t *a, int len, int pos)
{
    if (pos <= 0) return 0;
    const int w = pos >> 5, off = pos & 31;
    for (int i = 0; i < w && i < len; i++)
        if (a[i]) return 1;
    return off && w < len && (a[w] & ((1u << off) - 1u)) != 0;
}
/* Index of the highest set bit of a[0..len), -1 when a = 0. */
SL_MX_HD int sl_mx_top_bit(const uint32_t *a, int len)
{
    for (int i = len - 1; i >= 0; i--)
        if (a[i]) {
            int h = 32 * i;
            for (uint32_t t = a[i] >> 1; t; t >>= 1) h++;
            return h;
        }
    return -1;
}

/* w[0..8) /= d (0 < d < 2^40) in 16-bit digits; returns the remainder. */
SL_MX_HD uint64_t sl_mx_div(uint32_t *w, uint64_t d)
{
    uint64_t r = 0;
    for (int k = 7; k >= 0; k--) {
        uint64_t t = (r << 16) | (w[k] >> 16);
        const uint64_t qh = t / d;
        r = t - qh * d;
        t = (r << 16) | (w[k] & 0xffffu);
        const uint64_t ql = t / d;
        r = t - ql * d;
        w[k] = (uint32_t)((qh << 16) | ql);
    }
    return r;
}

/* floor(sqrt(hi 2^64 + lo)) for hi < 2^62 (digit by digit); *inexact = 1 when it is not exact. */
SL_MX_HD uint64_t sl_mx_isqrt128(uint64_t hi, uint64_t lo, int *inexact)
{
    uint64_t rh = 0, rl = 0, res = 0;
    for (int i = 62; i >= 0; i--) {
        const uint64_t two = i >= 32 ? (hi >> (2 * i - 64)) & 3u : (lo >> (2 * i)) & 3u;
        rh = (rh << 2) | (rl >> 62);
        rl = (rl << 2) | two;
        const uint64_t th = res >> 62, tl = (res << 2) | 1u;   /* trial 4 res + 1 */
        if (rh > th || (rh == th && rl >= tl)) {
            const uint64_t b = rl < tl;
            rl -= tl;
            rh -= th + b;
            res = (res << 1) | 1u;
        } else {
            res <<= 1;
        }
    }
    *inexact = (rh | rl) != 0;
    return res;
}

/* (m + f) 2^e, 0 <= f < 1 with f > 0 iff sticky, m < 2^63 with at least p + 3 bits, rounded to
 * nearest even in dt (subnormal results; overflow to Inf), with the sign neg. */
SL_MX_HD double sl_mx_round(uint64_t m, int e, int sticky, int neg, sl_dtype dt)
{
    const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_BF16 ? 8 : 11;
    const int emin = dt == SL_F64 ? -1022 : dt == SL_F16 ? -14 : -126;
    const int emax = dt == SL_F64 ? 1023 : dt == SL_F16 ? 15 : 127;
    double v = 0.0;
    if (m) {
        int hb = 0;
        for (uint64_t t = m >> 1; t; t >>= 1) hb++;
        const int lead = hb + e;                     /* exponent of the leading bit */
        if (lead > emax + 1) {
            v = INFINITY;
        } else {
            int q = lead - (p - 1);                  /* the result's quantum 2^q */
            if (q < emin - (p - 1)) q = emin - (p - 1);
            const int s = q - e;                     /* bits dropped (>= 3 for a normal result) */
            uint64_t r;
            if (s <= 0) {
                r = m << -s;
            } else if (s >= 64) {
                r = 0;                               /* below half the quantum: m < 2^63 */
            } else {
                r = m >> s;
                const uint64_t rem = m & ((((uint64_t)1) << s) - 1u);
                const uint64_t half = ((uint64_t)1) << (s - 1);
                if (rem > half || (rem == half && (sticky || (r & 1u)))) r++;
            }
            v = ldexp((double)r, q);                 /* r <= 2^p: exact, or Inf for float64 */
            const double max = ldexp(2.0 - ldexp(1.0, 1 - p), emax);
            if (v > max) v = INFINITY;
        }
    }
    return neg ? -v : v;
}

/* The double r rounded once to nearest even in dt (NaN and Inf kept; overflow to Inf; subnormal
 * results): the `reproducible` members' one conversion to the input format, the same code on
 * the host and the device. */
SL_MX_HD double sl_mx_round_double(double r, sl_dtype dt)
{
    if (dt == SL_F64 || r != r || r == 0.0 || isinf(r)) return r;
    uint64_t u;
    memcpy(&u, &r, sizeof u);
    const int neg = (int)(u >> 63), ex = (int)((u >> 52) & 0x7ffu);
    uint64_t m = u & ((((uint64_t)1) << 52) - 1u);
    if (ex) m |= ((uint64_t)1) << 52;
    /* r = m 2^(max(ex,1) - 1075); m << 9 has its leading bit at 61 or below */
    return sl_mx_round(m << 9, (ex ? ex : 1) - 1075 - 9, 0, neg, dt);
}

/* Normalises the signed limbs limb[0..L) in place and writes |value| as 32-bit limbs mag[0..L);
 * returns 1 when the value is negative. */
SL_MX_HD int sl_mx_mag(int64_t *limb, int L, uint32_t *mag)
{
    sl_sacc_normalise(limb, L);
    int neg = 0;
    if (limb[L - 1] < 0) {
        for (int i = 0; i < L; i++) limb[i] = -limb[i];
        sl_sacc_normalise(limb, L);
        neg = 1;
    }
    for (int i = 0; i < L; i++) mag[i] = (uint32_t)limb[i];
    return neg;
}

/* The top 256 bits of x[0..len) (its highest set bit h >= 0) into w[0..8), w's bit 255 = bit h;
 * returns 1 when a bit below them is set. The value is then (w + f) 2^(h - 255). */
SL_MX_HD int sl_mx_window(const uint32_t *x, int len, int h, uint32_t *w)
{
    const int lo = h - 255;
    for (int k = 0; k < 8; k++) w[k] = sl_mx_get32(x, len, lo + 32 * k);
    return sl_mx_any_below(x, len, lo);
}

/* (w + f) 2^e rounded (the quotient of the window; what: SL_MX_VAR or SL_MX_MEAN), or its square
 * root (SL_MX_STD). */
SL_MX_HD double sl_mx_round_window(uint32_t *w, int e, int sticky, int neg, int what, sl_dtype dt)
{
    int hq = sl_mx_top_bit(w, 8);
    if (hq < 0) return neg ? -0.0 : 0.0;             /* not reached: Q has >= 176 bits */
    if (what != SL_MX_STD) {
        const uint64_t m = ((uint64_t)sl_mx_get32(w, 8, hq - 62) |
                            (uint64_t)sl_mx_get32(w, 8, hq - 30) << 32) & (~(uint64_t)0 >> 1);
        sticky |= sl_mx_any_below(w, 8, hq - 62);
        return sl_mx_round(m, e + hq - 62, sticky, neg, dt);
    }
    int t = hq + 1 - 126;                            /* Q' = Q >> t below 2^126, t + e even */
    if (t < 0) t = 0;
    if ((t + e) & 1) t++;
    const uint64_t lo = (uint64_t)sl_mx_get32(w, 8, t) | (uint64_t)sl_mx_get32(w, 8, t + 32) << 32;
    const uint64_t hi = ((uint64_t)sl_mx_get32(w, 8, t + 64) |
                         (uint64_t)sl_mx_get32(w, 8, t + 96) << 32) & ((((uint64_t)1) << 62) - 1u);
    sticky |= sl_mx_any_below(w, 8, t);
    int inexact;
    const uint64_t s = sl_mx_isqrt128(hi, lo, &inexact);
    return sl_mx_round(s, (e + t) / 2, sticky | inexact, neg, dt);
}

/* The result of `what` for the exact sums: s1[0..L1) (exact/limbs.h's layout for sdt = SL_F32 or
 * SL_F64, units 2^-s) and, for var/std, s2[0..L2) (units 2^-2s), both normalised in place; flags
 * the S1 state's (SL_SACC_*); dt the output format. Semantics (as reference/sl_moments.c):
 * mean: n = 0 -> NaN; a NaN input, or +Inf with -Inf -> NaN; +-Inf -> +-Inf; an exact zero is -0
 * only when no input had its sign bit clear. var/std: any NaN or Inf input, or n <= ddof -> NaN;
 * an exact zero -> +0. */
SL_MX_HDN double sl_mx_finish(int what, int64_t *s1, int L1, int64_t *s2, int L2, int s,
                              uint64_t n, uint32_t ddof, unsigned flags, sl_dtype dt)
{
    uint32_t a[SL_SACC_LIMBS_MAX], w[8];
    if (what == SL_MX_MEAN) {
        if (n == 0 || (flags & SL_SACC_NAN) ||
            (flags & (SL_SACC_PINF | SL_SACC_NINF)) == (SL_SACC_PINF | SL_SACC_NINF))
            return NAN;
        if (flags & SL_SACC_PINF) return INFINITY;
        if (flags & SL_SACC_NINF) return -INFINITY;
        const int neg = sl_mx_mag(s1, L1, a);
        const int h = sl_mx_top_bit(a, L1);
        if (h < 0) return (flags & SL_SACC_ANYPOS) ? 0.0 : -0.0;
        int sticky = sl_mx_window(a, L1, h, w);
        sticky |= sl_mx_div(w, n) != 0;
        return sl_mx_round_window(w, h - 255 - s, sticky, neg, SL_MX_MEAN, dt);
    }
    if ((flags & (SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF)) || n <= (uint64_t)ddof) return NAN;
    uint32_t b[SL_MX_S2_LIMBS_F64], P[SL_MX_NL], N[SL_MX_NL];
    sl_mx_mag(s1, L1, a);
    if (sl_mx_mag(s2, L2, b)) return NAN;           /* not reached: S2 >= 0 */
    int a0 = 0, a1 = L1, b0 = 0, b1 = L2;            /* the nonzero limbs [a0, a1), [b0, b1) */
    while (a1 > 0 && !a[a1 - 1]) a1--;
    while (a0 < a1 && !a[a0]) a0++;
    while (b1 > 0 && !b[b1 - 1]) b1--;
    while (b0 < b1 && !b[b0]) b0++;
    if (b0 == b1) return 0.0;                        /* S2 = 0: every x is 0 */
    const int base = a0 < a1 && 2 * a0 < b0 ? 2 * a0 : b0;   /* N in units 2^(32 base - 2 s) */
    /* the limbs in use: A^2 below limb 2 a1 - base + 1, n B below b1 - base + 3 (the rest stay
     * zero in P and N, so the loops below stop there: same result, a shorter last-block tail) */
    int NL = 2 * a1 - base + 2 > b1 - base + 3 ? 2 * a1 - base + 2 : b1 - base + 3;
    if (NL > SL_MX_NL) NL = SL_MX_NL;
    for (int i = 0; i < NL; i++) P[i] = N[i] = 0;
    for (int i = a0; i < a1; i++) {                  /* P = A^2 */
        uint64_t c = 0;
        int k = i + a0 - base;
        for (int j = a0; j < a1; j++, k++) {
            const uint64_t t = (uint64_t)a[i] * a[j] + P[k] + c;
            P[k] = (uint32_t)t;
            c = t >> 32;
        }
        for (; c && k < NL; k++) {
            const uint64_t t = (uint64_t)P[k] + c;
            P[k] = (uint32_t)t;
            c = t >> 32;
        }
    }
    const uint32_t nn[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    for (int r = 0; r < 2; r++) {                    /* N = n B */
        if (!nn[r]) continue;
        uint64_t c = 0;
        int k = b0 - base + r;
        for (int j = b0; j < b1; j++, k++) {
            const uint64_t t = (uint64_t)b[j] * nn[r] + N[k] + c;
            N[k] = (uint32_t)t;
            c = t >> 32;
        }
        for (; c && k < NL; k++) {
            const uint64_t t = (uint64_t)N[k] + c;
            N[k] = (uint32_t)t;
            c = t >> 32;
        }
    }
    uint64_t borrow = 0;                             /* N -= P */
    for (int k = 0; k < NL; k++) {
        const uint64_t t = (uint64_t)N[k] - P[k] - borrow;
        N[k] = (uint32_t)t;
        borrow = (t >> 32) & 1u;
    }
    if (borrow) return NAN;                          /* not reached: n S2 >= S1^2 */
    const int h = sl_mx_top_bit(N, NL);
    if (h < 0) return 0.0;                           /* var exactly 0 */
    int sticky = sl_mx_window(N, NL, h, w);
    sticky |= sl_mx_div(w, n) != 0;
    sticky |= sl_mx_div(w, n - ddof) != 0;
    return sl_mx_round_window(w, h - 255 + 32 * base - 2 * s, sticky, 0, what, dt);
}
#endif

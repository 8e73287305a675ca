/* exact/pairsum.h: the cheap certified sum of exact terms, host and device, the first pass of the
 * `correct` dot product (dot/dot_fast.h: the terms are the products) and norm2 (norm/: the
 * squares): the terms summed as a float64 pair with every addition's error captured (Fast2Sum), a
 * rigorous error box around the pair, and the box's two ends rounded exactly on limbs; when they
 * round alike that is the correctly rounded result, else the caller's next pass runs.
 *
 * Sums. Each term is a product x y of two inputs widened exactly (x x for norm2): p = x y and
 * pe: float32/16-bit, p is exact in float64 (at most 48 bits, exponents within [-298, 256]) and
 * pe = 0; float64, pe = fma(x, y, -p) (TwoProduct: exact but for underflow,
 * |x y - (p + pe)| <= 2^-1075). Per thread
 *   Fast2Sum(s, p) -> (s, e) (the operands ordered by magnitude), c = (c + e) + pe, a = a + |p|;
 * two accumulators merge by TwoSum of their s, c = (c + c') + e, a = a + a'. Every Fast2Sum and
 * TwoSum is exact, so S = sum x y = s + sum e + sum pe + U exactly, |U| <= n 2^-1075 (float64 only).
 * Box (u = 2^-53; n < 2^39, h < 2^24 >= the steps of any term: its thread's later elements plus
 * every merge above it; every sum finite):
 *  - each |e| <= u |s_new| and |s_new| <= (1 + gamma_h) times the sum of |p| below it; each p lies
 *    below at most h sums: sum |e| <= u (1 + gamma_h) h A, A = sum |p|; sum |pe| <= u A + n 2^-1075.
 *  - c is a rounded sum of the e and pe terms, each meeting at most 3h additions:
 *    |S - (s + c)| <= gamma_3h (u (1 + gamma_h) (h + 1) A + n 2^-1075) + n 2^-1075
 *    <= 3.01 (h + 1)^2 u^2 A + n 2^-1073.
 *  - a is a plain sum of the |p|: A <= a / (1 - gamma_h) <= a (1 + 2^-20).
 *  - E = fl(4 (h + 1)^2 2^-106 a) + n 2^-1072, one step up: covers it. The ends s + c -+ E (three
 *    doubles, multiples of 2^-1074) are formed exactly in float64 limbs (exact/limbs.h) and
 *    rounded: float64 to nearest even; narrower formats to odd in float64, then to nearest even
 *    in the format by the caller (exact: 53 >= p + 2 bits), as the exact kernel rounds.
 * Not certified: non-finite sums (a NaN or Inf input, an overflowed product: the exact kernel
 * keeps every special value), a = 0 (every product zero: the sign of the zero sum is the exact
 * kernel's), a zero or infinite result (the caller), n >= 2^39, h >= 2^24.
 * Assumptions: IEEE 754 binary64, round to nearest even, gradual underflow, fma correctly rounded,
 * no contraction (-ffp-contract=off, --fmad=false). */
#ifndef SL_EXACT_PAIRSUM_H
#define SL_EXACT_PAIRSUM_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "exact/limbs.h"

#ifdef __CUDACC__
#define SL_PSUM_HD static __host__ __device__ __forceinline__
#define SL_PSUM_HDN static inline __host__ __device__ __noinline__
#else
#define SL_PSUM_HD static inline
#define SL_PSUM_HDN static inline
#endif

typedef struct {
    double s, c, a;
} sl_psum_acc;

SL_PSUM_HD void sl_psum_init(sl_psum_acc *t)
{
    t->s = t->c = t->a = 0.0;
}

/* One product p (and its float64 remainder pe, 0 for the narrower formats). */
SL_PSUM_HD void sl_psum_take(sl_psum_acc *t, double p, double pe)
{
    const int sw = fabs(p) > fabs(t->s);
    const double big = sw ? p : t->s, small = sw ? t->s : p;
    const double s = big + small;
    const double e = small - (s - big);
    t->s = s;
    t->c = (t->c + e) + pe;
    t->a = t->a + fabs(p);
}

/* b into t (one step of every term's chain). */
SL_PSUM_HD void sl_psum_merge(sl_psum_acc *t, const sl_psum_acc *b)
{
    const double s = t->s + b->s, bb = s - t->s;
    const double e = (t->s - (s - bb)) + (b->s - bb);
    t->s = s;
    t->c = (t->c + b->c) + e;
    t->a = t->a + b->a;
}

/* The box's half-width E for chain length h; 0 when the pass cannot decide. */
SL_PSUM_HD int sl_psum_bound(const sl_psum_acc *t, uint64_t n, uint64_t h, double *E)
{
    if (n >= ((uint64_t)1 << 39) || h >= ((uint64_t)1 << 24)) return 0;
    if (!isfinite(t->s) || !isfinite(t->c) || !isfinite(t->a) || !(t->a > 0.0)) return 0;
    const double k = (double)(h + 1) * (double)(h + 1) * 4.0 * 0x1p-106;
    *E = nextafter(k * t->a + (double)n * 0x1p-1072, HUGE_VAL);
    return isfinite(*E);
}

/* The end s + c + side E rounded exactly: float64 (f64 != 0) to nearest even, else to odd in
 * float64 (the caller rounds that to the format). */
SL_PSUM_HDN double sl_psum_end(const sl_psum_acc *t, double E, int side, int f64)
{
    int64_t limb[SL_SACC_LIMBS_F64];
    for (int i = 0; i < SL_SACC_LIMBS_F64; i++) limb[i] = 0;
    const double v[3] = {t->s, t->c, side < 0 ? -E : E};
    for (int k = 0; k < 3; k++) {
        int idx = 0, neg = 0;
        uint64_t ch[3] = {0, 0, 0};
        if (!sl_sacc_split_f64(v[k], SL_SACC_SCALE_F64, &idx, ch, &neg)) continue;
        const int64_t m = neg ? -1 : 0;
        for (int j = 0; j < 3; j++) limb[idx + j] += ((int64_t)ch[j] ^ m) - m;
    }
    return sl_sacc_round_mode(limb, SL_SACC_LIMBS_F64, 0, SL_F64, SL_SACC_ANYPOS, f64 ? 0 : 1);
}

/* Bounds of sqrt(S) for S in the box [s + c - E, s + c + E] (norm2): every float64 operation
 * rounded to nearest and stepped one ulp outward (nextafter), the least end raised to 0: *lo <=
 * sqrt(S) <= *hi, within a few float64 ulps of each other plus the box's width. */
SL_PSUM_HD void sl_psum_sqrt_bounds(const sl_psum_acc *t, double E, double *lo, double *hi)
{
    const double v = t->s + t->c;
    double l = nextafter(nextafter(v, -HUGE_VAL) - E, -HUGE_VAL);
    const double h = nextafter(nextafter(v, HUGE_VAL) + E, HUGE_VAL);
    l = l > 0.0 ? nextafter(sqrt(l), -HUGE_VAL) : 0.0;
    *lo = l > 0.0 ? l : 0.0;
    *hi = nextafter(sqrt(h), HUGE_VAL);
}

/* The decision on the two ends (each rounded to the format): 1 with *r the correctly rounded dot
 * when they are the same finite nonzero value, else 0. */
SL_PSUM_HD int sl_psum_decide(double lo, double hi, double *r)
{
    uint64_t bl, bh;
    memcpy(&bl, &lo, sizeof bl);
    memcpy(&bh, &hi, sizeof bh);
    if (bl != bh || lo == 0.0 || !isfinite(lo)) return 0;
    *r = lo;
    return 1;
}
#ifndef __CUDACC__
#include "sl_twin.h"
/* The twins' form on x (and y; NULL: the squares of x) [0..n): chunks of SL_PSUM_CHUNK summed
 * from 0, merged in order (h = chunk + chunks + 1). */
#define SL_PSUM_CHUNK 4096u
static inline uint64_t sl_psum_sums_host(const void *x, const void *y, uint64_t n, sl_dtype dt,
                                         sl_psum_acc *out)
{
    sl_psum_acc tot, part;
    sl_psum_init(&tot);
    for (uint64_t i = 0; i < n; i += SL_PSUM_CHUNK) {
        const uint64_t e = n - i < SL_PSUM_CHUNK ? n : i + SL_PSUM_CHUNK;
        sl_psum_init(&part);
        for (uint64_t k = i; k < e; k++) {
            const double a = sl_tw_load(x, dt, k), b = y ? sl_tw_load(y, dt, k) : a, p = a * b;
            sl_psum_take(&part, p, dt == SL_F64 ? fma(a, b, -p) : 0.0);
        }
        sl_psum_merge(&tot, &part);
    }
    *out = tot;
    return SL_PSUM_CHUNK + (n + SL_PSUM_CHUNK - 1) / SL_PSUM_CHUNK + 1;
}
/* The two ends of the box of half-width E around t in the format dt, as the kernels map them:
 * dot (sq = 0), S rounded exactly; norm2 (sq = 1), sqrt(S) bounded outward then rounded. */
static inline void sl_psum_ends_host(const sl_psum_acc *t, double E, sl_dtype dt, int sq,
                                     double *lo, double *hi)
{
    if (sq) {
        sl_psum_sqrt_bounds(t, E, lo, hi);
    } else {
        *lo = sl_psum_end(t, E, -1, dt == SL_F64);
        *hi = sl_psum_end(t, E, 1, dt == SL_F64);
    }
    if (dt != SL_F64) {
        *lo = sl_tw_round(*lo, dt);
        *hi = sl_tw_round(*hi, dt);
    }
}
/* The twin's decision: dot of x and y (y non-NULL), or the norm of x (y NULL: float32/16-bit
 * only; float64 norms are not certified here). 1 with *r the correctly rounded value, else 0. */
static inline int sl_psum_certify_host(const void *x, const void *y, uint64_t n, sl_dtype dt,
                                       double *r)
{
    if (n == 0 || (!y && dt == SL_F64)) return 0;
    sl_psum_acc t;
    double E, lo, hi;
    const uint64_t h = sl_psum_sums_host(x, y, n, dt, &t);
    if (!sl_psum_bound(&t, n, h, &E)) return 0;
    sl_psum_ends_host(&t, E, dt, !y, &lo, &hi);
    return sl_psum_decide(lo, hi, r);
}
#endif
#endif

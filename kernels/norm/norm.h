/* norm/norm.h: what the norm2 kernels (norm.cu) share with their CPU twins and descriptors (norm.c):
 * which member a descriptor is (impl), the launch defaults, Blue's constants, the host-and-device
 * arithmetic of the scaled form's combine, the correctly rounded square root of an exact sum of
 * squares held in 24-bit digits (one thread runs it on the GPU, the twin runs the same code), and
 * the steps of reproducible's float64 form (the scale from max |x|, the squares' pieces, the end).
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, correctly rounded
 * division and sqrt (the device's -prec-div/-prec-sqrt), no contraction (-ffp-contract=off,
 * --fmad=false), a correctly rounded fma() (C99; reproducible's float64 TwoProduct is the one
 * explicit FMA), FLT_EVAL_METHOD 0; two's-complement 64-bit integers. */
#ifndef SL_NORM_H
#define SL_NORM_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sumlab/types.h"
#include "sl_layout.h"
#include "exact/binned.h"
#include "exact/pairsum.h"

/* The member of the norm2 family a descriptor is (its impl field). */
typedef enum {
    SL_NRM_NAIVE = 0,   /* sum x^2 in the accumulator (naive, f64-acc, half-acc), then sqrt */
    SL_NRM_SCALED,      /* Blue's three accumulators (LAPACK 3.10 dnrm2), one pass */
    SL_NRM_CORRECT,     /* exact squares into 24-bit digits, correctly rounded sqrt */
    SL_NRM_REPRO        /* squares (float64: scaled TwoProduct pieces) into the binned state (reproducible) */
} sl_nrm_kind;

/* Grid-stride engine (as the moments'): block 256 by default, grid = sm_count waves of
 * SL_NRM_THREADS_PER_SM threads, fewer for small n. */
#define SL_NRM_BLOCK 256u
#define SL_NRM_ITEMS 4u
#define SL_NRM_THREADS_PER_SM 1024u
#define SL_NRM_MAX_GRID (1u << 20)
/* reproducible: blocks of at most 256 threads, a power of two (its shared-memory states) */
#define SL_NRM_REPRO_BLOCK 256u
/* Workspace of the one-launch kernels (sl_layout.h's finish): the ticket counter at byte 0, the
 * Inf flag (an unsigned, zero between launches) at byte SL_NRM_WS_FLAG, one partial per block from
 * SL_WS_HEADER (correct: SL_NRM_LIMBS(dt) digits per block). */
#define SL_NRM_WS_FLAG 64u
/* correct's workspace: the header (the exact kernel's ticket at 0 and flags at SL_NRM_WS_FLAG,
 * the first pass's ticket and gate at SL_NRM_WS_PSUM), then the exact kernel's per-block digits
 * from sl_nrm_ws_parts, then the first pass's per-block accumulators (norm.cu). The bytes a
 * launch needs zero when it starts (and leaves zero) lie in the header, at offsets that do not
 * depend on the grid, inside the smallest configuration's workspace: no grid's per-block digits
 * cover them, and the harness's zeroing of the first configuration's bytes (when another variant
 * held the workspace) covers them whatever grid runs next. The per-block digits and accumulators
 * are written before they are read. */
#define SL_NRM_WS_PSUM 72u
/* reproducible on float64: the first pass's max |x| bit pattern (a uint64, written by that pass's
 * last block before the second pass reads it) */
#define SL_NRM_WS_MAX 80u

#if defined(__CUDACC__)
#define SL_NRM_FN static __host__ __device__ __forceinline__
#else
#define SL_NRM_FN static inline
#endif

/* ---- scaled: Blue's constants of LAPACK 3.10 (dnrm2.f90 / snrm2.f90) for the accumulator ----
 * tsml = 2^ceil((minexp - 1) / 2), tbig = 2^floor((maxexp - p + 1) / 2),
 * ssml = 2^-floor((minexp - p) / 2), sbig = 2^-ceil((maxexp + p - 1) / 2) with Fortran's
 * minexponent / maxexponent (float32: -125 / 128, p 24; float64: -1021 / 1024, p 53). */
#define SL_NRM_TSML_F 0x1p-63f
#define SL_NRM_TBIG_F 0x1p52f
#define SL_NRM_SSML_F 0x1p75f
#define SL_NRM_SBIG_F 0x1p-76f
#define SL_NRM_TSML_D 0x1p-511
#define SL_NRM_TBIG_D 0x1p486
#define SL_NRM_SSML_D 0x1p537
#define SL_NRM_SBIG_D 0x1p-538

/* The per-element step of scaled (ax = |x| in the accumulator format T): the square of the scaled
 * value goes to its accumulator; the other two take +0 (exact: every form adds, kernel and twin
 * alike). NaN fails both tests and goes to the medium sum, as in dnrm2. The combine (dnrm2's
 * finish, after every value): big > 0: big + (med sbig) sbig, scaled by 1/sbig; else small > 0
 * and med > 0 (or NaN): ymin, ymax = the smaller and larger of sqrt(med), sqrt(small)/ssml,
 * ymax^2 (1 + (ymin/ymax)^2) unscaled; else small > 0: small scaled by 1/ssml; else med; the
 * result scl * sqrt(sumsq). Small values beside a non-zero big sum are dropped (as dnrm2). */
#define SL_NRM_SCALED_FNS(sfx, T, SQRT, TSML, TBIG, SSML, SBIG)                                   \
    SL_NRM_FN void sl_nrm_scaled_add_##sfx(T *big, T *med, T *sml, T ax)                          \
    {                                                                                             \
        const int isbig = ax > TBIG, issml = ax < TSML;                                           \
        const T yb = ax * SBIG, ys = ax * SSML;                                                   \
        const T qb = yb * yb, qs = ys * ys, qm = ax * ax;                                         \
        *big = *big + (isbig ? qb : (T)0);                                                        \
        *sml = *sml + (issml ? qs : (T)0);                                                        \
        *med = *med + (!isbig && !issml ? qm : (T)0);                                             \
    }                                                                                             \
    SL_NRM_FN T sl_nrm_scaled_final_##sfx(T big, T med, T sml)                                    \
    {                                                                                             \
        T scl, sumsq;                                                                             \
        if (big > (T)0) {                                                                         \
            if (med > (T)0 || med != med) big = big + (med * SBIG) * SBIG;                        \
            scl = (T)1 / SBIG;                                                                    \
            sumsq = big;                                                                          \
        } else if (sml > (T)0) {                                                                  \
            if (med > (T)0 || med != med) {                                                       \
                const T am = SQRT(med), as = SQRT(sml) / SSML;                                    \
                const T ymin = as > am ? am : as, ymax = as > am ? as : am;                       \
                const T r = ymin / ymax;                                                          \
                scl = (T)1;                                                                       \
                sumsq = (ymax * ymax) * ((T)1 + r * r);                                           \
            } else {                                                                              \
                scl = (T)1 / SSML;                                                                \
                sumsq = sml;                                                                      \
            }                                                                                     \
        } else {                                                                                  \
            scl = (T)1;                                                                           \
            sumsq = med;                                                                          \
        }                                                                                         \
        return scl * SQRT(sumsq);                                                                 \
    }
SL_NRM_SCALED_FNS(f, float, sqrtf, SL_NRM_TSML_F, SL_NRM_TBIG_F, SL_NRM_SSML_F, SL_NRM_SBIG_F)
SL_NRM_SCALED_FNS(d, double, sqrt, SL_NRM_TSML_D, SL_NRM_TBIG_D, SL_NRM_SSML_D, SL_NRM_SBIG_D)

/* ---- reproducible on float64: squares of exactly scaled values as TwoProduct pieces ----------
 * First the exact max |x| as the largest bit pattern of |x| (NaN counts as 0: the binned state
 * flags it; an integer max, any order), then e = its exponent clamped to [-1022, 1022] (an Inf
 * max gives 1022; zero or subnormal, -1022) and s = 2^-e, a normal power of two: M s < 4 (M s < 2
 * but for M >= 2^1023), so no square of x s overflows and M s >= 1 for a normal M (2^-52 at least
 * for a subnormal one). Each x: xs = x s (exact unless x s is subnormal, where the error is below
 * 2^-1074, x < M 2^-1022), p = xs xs, lo = fma(xs, xs, -p) (TwoProduct by an explicit FMA; exact
 * when p is at least 2^-969), both pieces into the float64 binned state as dot's `reproducible`
 * deposits a product's (lo only for a finite non-zero p, and only when lo is not 0). The state is a function of the multiset of values (e is),
 * rounded once to float64; the root times 2^e: exact but where the norm is subnormal (one more
 * rounding) or overflows (+Inf). */
#define SL_NRM_ABS_MASK 0x7fffffffffffffffull
#define SL_NRM_INF_BITS 0x7ff0000000000000ull
/* |x|'s bit pattern, 0 for NaN (u: x's bits) */
SL_NRM_FN uint64_t sl_nrm_absbits_f64(uint64_t u)
{
    const uint64_t a = u & SL_NRM_ABS_MASK;
    return a > SL_NRM_INF_BITS ? 0u : a;
}
/* e from the largest |x| bit pattern */
SL_NRM_FN int sl_nrm_repro_exp(uint64_t maxbits)
{
    const int e = (int)(maxbits >> 52) - 1023;
    return e < -1022 ? -1022 : e > 1022 ? 1022 : e;
}
/* x's pieces into the accumulator, s = 2^-e */
SL_NRM_FN void sl_nrm_repro_take_f64(sl_rsum_thr_f64 *a, double x, double s)
{
    const double xs = x * s;
    sl_rsum_take_product1_f64(a, xs, xs, 1);
}
/* the norm from the merged state: +Inf for an Inf input (even beside a NaN), NaN for a NaN, else
 * sqrt of the state rounded to float64 (+ 0: an empty state's -0 -> +0), times up = 2^e (1 for
 * float32 and 16-bit input, whose squares are not scaled) */
SL_NRM_FN double sl_nrm_repro_final(const sl_rsum_state *st, double up)
{
    if (st->flags & SL_SACC_PINF) return (double)INFINITY;
    return (sqrt(sl_rsum_state_round(st, SL_F64)) + 0.0) * up;
}

/* ---- correct: the exact sum of squares in 24-bit digits ------------------------------------
 * A float64 x = M 2^(q - 1075) (M < 2^53 the integer significand, q = max(E, 1), E the biased
 * exponent) has x^2 = M^2 2^(2q - 2150); a float32 x (16-bit input widened exactly) = M 2^(q - 150),
 * x^2 = M^2 2^(2q - 300). In units of 2^-2148 (float64) or 2^-298 (float32) both squares are M^2
 * at bit 2q - 2. The sum is held in digits d[i] of 24 bits weighing 2^(24 i) units, unsigned 64-bit
 * limbs with deferred carries: each square adds < 2^24 to a digit, so n < 2^40 squares never carry
 * out of a limb; the order of adds does not matter (integers). float64: 178 digits (M^2 < 2^106 at
 * bit <= 4090, 40 bits for n), float32: 26 digits. */
#define SL_NRM_LIMBS_F64 178
#define SL_NRM_LIMBS_F32 26
#define SL_NRM_LIMBS(dt) ((dt) == SL_F64 ? SL_NRM_LIMBS_F64 : SL_NRM_LIMBS_F32)
#define SL_NRM_UNIT_F64 2148
#define SL_NRM_UNIT_F32 298
#define SL_NRM_DIGIT 0xffffffu
/* correct's layout (above) for a grid of `grid` blocks: the per-block digits' offset and their
 * end (the first pass's accumulators are placed after it by norm.cu). */
SL_NRM_FN size_t sl_nrm_ws_parts(uint64_t grid, sl_dtype dt)
{
    (void)grid;
    (void)dt;
    return (size_t)SL_WS_HEADER;
}
SL_NRM_FN size_t sl_nrm_ws_correct(uint64_t grid, sl_dtype dt)
{
    return sl_nrm_ws_parts(grid, dt) + (size_t)grid * (size_t)SL_NRM_LIMBS(dt) * 8u;
}
/* flags beside the digits */
#define SL_NRM_FL_NAN 1u
#define SL_NRM_FL_INF 2u

/* M^2 = hi 2^64 + lo (M < 2^53), by 32-bit halves: the same integers on both sides. */
SL_NRM_FN void sl_nrm_sq64(uint64_t M, uint64_t *hi, uint64_t *lo)
{
    const uint64_t a = M >> 32, b = M & 0xffffffffu;
    const uint64_t bb = b * b, ab = a * b, aa = a * a;          /* ab < 2^53: 2 ab < 2^54 */
    const uint64_t mid = ab << 1;
    const uint64_t l = bb + (mid << 32);
    *lo = l;
    *hi = aa + (mid >> 32) + (l < bb ? 1u : 0u);
}

/* 24 bits of hi 2^64 + lo from bit `start` (start >= -23; bits below 0 are 0). */
SL_NRM_FN uint64_t sl_nrm_bits24(uint64_t hi, uint64_t lo, int start)
{
    uint64_t r;
    if (start < 0) r = lo << (-start);
    else if (start == 0) r = lo;
    else if (start < 64) r = (lo >> start) | (hi << (64 - start));
    else if (start < 128) r = hi >> (start - 64);
    else r = 0;
    return r & SL_NRM_DIGIT;
}

/* The digits one square adds: M^2 at bit pos = 2q - 2 (pos = 24 i0 + off): digit i0 + j gets
 * chunk j = bits [24 j - off, 24 j - off + 24) of M^2, j < 6 (float64) or 3 (float32). Returns i0
 * and fills c[0..6). */
SL_NRM_FN int sl_nrm_square_chunks(uint64_t M, int pos, int nchunks, uint64_t c[6])
{
    uint64_t hi, lo;
    sl_nrm_sq64(M, &hi, &lo);
    const int i0 = pos / 24, off = pos % 24;
    for (int j = 0; j < nchunks; j++) c[j] = sl_nrm_bits24(hi, lo, 24 * j - off);
    return i0;
}

/* The square's significand and bit position of a float64 (bits u); 0 for +-0, Inf, NaN (*fl
 * gets their flags). */
SL_NRM_FN uint64_t sl_nrm_split_f64(uint64_t u, int *pos, unsigned *fl)
{
    const uint32_t E = (uint32_t)(u >> 52) & 0x7ffu;
    const uint64_t f = u & 0xfffffffffffffull;
    if (E == 0x7ffu) {
        *fl |= f ? SL_NRM_FL_NAN : SL_NRM_FL_INF;
        return 0;
    }
    *pos = 2 * (int)(E ? E : 1u) - 2;
    return E ? (f | 0x10000000000000ull) : f;
}
/* The same for a float32 (bits u). */
SL_NRM_FN uint64_t sl_nrm_split_f32(uint32_t u, int *pos, unsigned *fl)
{
    const uint32_t E = (u >> 23) & 0xffu;
    const uint32_t f = u & 0x7fffffu;
    if (E == 0xffu) {
        *fl |= f ? SL_NRM_FL_NAN : SL_NRM_FL_INF;
        return 0;
    }
    *pos = 2 * (int)(E ? E : 1u) - 2;
    return E ? (uint64_t)(f | 0x800000u) : (uint64_t)f;
}

/* ---- 128-bit helpers of the integer square root ---- */
typedef struct { uint64_t hi, lo; } sl_nrm_u128;
SL_NRM_FN int sl_nrm_ge(sl_nrm_u128 a, sl_nrm_u128 b) { return a.hi > b.hi || (a.hi == b.hi && a.lo >= b.lo); }
SL_NRM_FN sl_nrm_u128 sl_nrm_add(sl_nrm_u128 a, sl_nrm_u128 b)
{
    sl_nrm_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo ? 1u : 0u);
    return r;
}
SL_NRM_FN sl_nrm_u128 sl_nrm_sub(sl_nrm_u128 a, sl_nrm_u128 b)
{
    sl_nrm_u128 r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo ? 1u : 0u);
    return r;
}
SL_NRM_FN sl_nrm_u128 sl_nrm_shr(sl_nrm_u128 a, int k)   /* 0 < k < 64 */
{
    sl_nrm_u128 r;
    r.lo = (a.lo >> k) | (a.hi << (64 - k));
    r.hi = a.hi >> k;
    return r;
}

/* floor(sqrt(a)) (a < 2^124) and whether the remainder is non-zero (digit by digit). */
SL_NRM_FN uint64_t sl_nrm_isqrt(sl_nrm_u128 a, int *inexact)
{
    sl_nrm_u128 res = {0, 0}, bit = {(uint64_t)1 << 62, 0};   /* 4^63 */
    while (!sl_nrm_ge(a, bit) && (bit.hi | bit.lo)) bit = sl_nrm_shr(bit, 2);
    while (bit.hi | bit.lo) {
        const sl_nrm_u128 t = sl_nrm_add(res, bit);
        if (sl_nrm_ge(a, t)) {
            a = sl_nrm_sub(a, t);
            res = sl_nrm_add(sl_nrm_shr(res, 1), bit);
        } else {
            res = sl_nrm_shr(res, 1);
        }
        bit = sl_nrm_shr(bit, 2);
    }
    *inexact = (a.hi | a.lo) != 0;
    return res.lo;
}

/* Bit b of the normalised digits (0 outside [0, 24 L)). */
SL_NRM_FN unsigned sl_nrm_bit(const uint64_t *d, int L, int b)
{
    if (b < 0 || b >= 24 * L) return 0;
    return (unsigned)(d[b / 24] >> (b % 24)) & 1u;
}

/* The correctly rounded sqrt of the exact sum held in d[0..L) (units 2^-unit, unit even; any
 * carry state) in format dt (nearest, ties to even, gradual underflow, +Inf past the largest
 * value), returned as the double holding it; flags: any Inf -> +Inf (even with a NaN), else any
 * NaN -> NaN; a zero sum -> +0. The digits are normalised in place. Steps: normalise; h = the
 * sum's bit length; the t = 2 (p + 3) top bits from an even position s (bits below s as a sticky
 * bit; s < 0 appends zeros): r = floor(sqrt) of that integer (p + 3 bits), the root of the sum is
 * (r + f) 2^((s - unit) / 2) with f > 0 exactly when the integer root or the bits below s left a
 * remainder; then r is rounded at the format's quantum (k >= 3 bits below it: guard, sticky). */
SL_NRM_FN double sl_nrm_round_sqrt(uint64_t *d, int L, int unit, sl_dtype dt, unsigned flags)
{
    if (flags & SL_NRM_FL_INF) return (double)INFINITY;
    if (flags & SL_NRM_FL_NAN) return (double)NAN;
    for (int i = 0; i < L - 1; i++) {
        d[i + 1] += d[i] >> 24;
        d[i] &= SL_NRM_DIGIT;
    }
    int top = L - 1;
    while (top >= 0 && d[top] == 0) top--;
    if (top < 0) return 0.0;
    int h = 24 * top;
    for (uint64_t v = d[top]; v; v >>= 1) h++;     /* bit length (the top digit may exceed 24 bits) */
    const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
    const int emin = dt == SL_F64 ? -1022 : dt == SL_F16 ? -14 : -126;
    const double maxv = dt == SL_F64 ? 0x1.fffffffffffffp1023 : dt == SL_F32 ? 0x1.fffffep127
                      : dt == SL_F16 ? 65504.0 : 0x1.fep127;
    const int t = 2 * (p + 3);
    int s = h - t;
    if (s & 1) s++;                                 /* even (s may be negative) */
    sl_nrm_u128 a = {0, 0};
    for (int b = s + t - 1; b >= s; b--) {          /* a = floor(sum / 2^s), at most t bits */
        a.hi = (a.hi << 1) | (a.lo >> 63);
        a.lo = (a.lo << 1) | sl_nrm_bit(d, L, b);
    }
    int sticky = 0;
    for (int b = 0; b < s && !sticky; b++) {
        if (b % 24 == 0 && b + 24 <= s) {           /* whole digits at a time */
            sticky = d[b / 24] != 0;
            b += 23;
        } else {
            sticky = sl_nrm_bit(d, L, b) != 0;
        }
    }
    int inexact;
    const uint64_t r = sl_nrm_isqrt(a, &inexact);
    sticky |= inexact;
    int br = 0;
    for (uint64_t v = r; v; v >>= 1) br++;
    const int e0 = (s - unit) / 2;                  /* root = (r + f) 2^e0 */
    int qe = br - 1 + e0 - (p - 1);                 /* the quantum's exponent */
    if (qe < emin - p + 1) qe = emin - p + 1;
    const int k = qe - e0;                          /* >= 3: r has p + 3 bits */
    uint64_t q = k >= 64 ? 0 : r >> k;
    const uint64_t guard = k - 1 >= 64 ? 0 : (r >> (k - 1)) & 1u;
    const int rest = sticky || (k - 1 >= 64 ? r != 0 : (r & (((uint64_t)1 << (k - 1)) - 1u)) != 0);
    if (guard && (rest || (q & 1u))) q++;
    const double v = ldexp((double)q, qe);          /* exact, or beyond the format: Inf below */
    return v > maxv ? (double)INFINITY : v;
}

/* ---- correct row-wise: the cheap decision of a float32/16-bit row (norm.cu's row kernels) ----
 * s: the plain float64 sum of the row's squares (each square exact, sl_psum_sq_take's fma), every
 * square in at most h rounded adds (sl_nrm_row_chain); inf: the row holds an Inf. So
 * |s - S| <= fl(h 2^-52 s) = E for the exact sum S (exact/pairsum.h's proof of the box), and
 * L = fl(s - t), H = fl(s + t) with t = fl(E + s 2^-49) bracket [S - E, S + E] whatever the three
 * roundings (each costs at most 2^-53 s, below the margin s 2^-49 less E's own 2^-81 s);
 * a = fl(fl(sqrt L) (1 - 2^-50)) <= sqrt(L) and b = fl(fl(sqrt H) (1 + 2^-50)) >= sqrt(H) (two
 * roundings of 2^-53 each against 2^-50). Rounding to nearest is monotone, so when a and b round
 * to the same value of dt, sqrt(S) rounds to it: that is the row's norm. A tie or a root beside a
 * rounding boundary leaves the two apart (a < sqrt(S) < b strictly): the exact kernel decides.
 * Both +Inf: a is past the overflow threshold and so is sqrt(S) >= a: +Inf (the exact rounding's
 * too). Decided also: +Inf for an Inf (even beside a NaN), NaN for a NaN (s NaN, no Inf), +0 for
 * s = 0 (every value +-0: a nonzero square is >= 2^-298 in float64). Not decided: L <= 0,
 * h >= 2^24. */
/* x > 0 finite rounded to nearest even in dt, +Inf past its largest value (exact/pairsum.h's
 * rounding at the format's quantum). */
SL_NRM_FN double sl_nrm_to_fmt(double x, sl_dtype dt)
{
    const double r = sl_psum_round_fmt(x, (int)dt);
    return r > sl_psum_fmt_max((int)dt) ? (double)INFINITY : r;
}

/* The longest chain of adds of a square in a row kernel of T threads a row (T <= 1024): its
 * thread's later values (at most ceil(n / T) + W + 1, W <= 8: its vectors and edge values), the
 * tree over the T threads (at most 10 levels), with room. */
SL_NRM_FN uint64_t sl_nrm_row_chain(uint64_t n, unsigned T)
{
    return (n + T - 1) / T + 32u;
}

/* The decision above: 1 with *r the row's norm (a value of dt held in a double), else 0. */
SL_NRM_FN int sl_nrm_row_decide(double s, uint64_t h, int inf, sl_dtype dt, double *r)
{
    if (inf) { *r = (double)INFINITY; return 1; }
    if (s != s) { *r = (double)NAN; return 1; }
    if (s == 0.0) { *r = 0.0; return 1; }
    if (h >= ((uint64_t)1 << 24) || !(s > 0.0) || !(s < (double)INFINITY)) return 0;
    const double E = ((double)h * 0x1p-52) * s;
    const double t = E + s * 0x1p-49, L = s - t, H = s + t;
    if (!(L > 0.0)) return 0;
    const double a = sqrt(L) * (1.0 - 0x1p-50), b = sqrt(H) * (1.0 + 0x1p-50);
    const double ra = sl_nrm_to_fmt(a, dt), rb = sl_nrm_to_fmt(b, dt);
    if (ra != rb) return 0;
    *r = ra;
    return 1;
}

/* correct's row kernels' workspace (float32, 16-bit): [0, 4) the list's length, [4, 8) the exact
 * kernel's ticket, then one row index a row; zero before the first call (the kernels leave it
 * zero). float64 rows run the 1-D launcher on each row (its own workspace). */
#define SL_NRM_ROWS_WS_HEADER 16u
#define SL_NRM_ROWS_WS_BYTES(rows) (SL_NRM_ROWS_WS_HEADER + (size_t)(rows) * sizeof(unsigned))
/* The rows' exact kernel sums a listed row's squares in 64-bit digits without carries: n below
 * 2^38 keeps every digit below 2^62; longer rows run the 1-D launcher on each row. */
#define SL_NRM_ROWS_MAX_N ((uint64_t)1 << 38)

#ifdef __cplusplus
extern "C" {
#endif
/* norm.cu's one workspace() and gpu() entry, shared by every member (v->impl says which). */
#include "sl_variants.h"
sl_workspace_fn sl_norm_workspace;
sl_gpu_fn sl_norm_gpu;
/* correct's row-wise entry (rows/rows.h): a warp or a block per row decides (sl_nrm_row_decide),
 * the exact kernel rounds the rows left; float64 by the 1-D launcher on each row. */
sl_rows_gpu_fn sl_norm_rows_gpu;
#ifdef __cplusplus
}
#endif

#endif

/* exact/binned.h: binned (indexed) summation, host and device: the per-thread accumulator (floats
 * in registers) and the state (plain C struct, exact integer bins) with its exact,
 * order-independent merge, its one final rounding and the certified rounding. Used by
 * `reproducible` (3 folds: reproducible/) and by `superacc` on float64 (4 folds, certified:
 * superacc/superacc64.cu). Internal to kernels/; the limb rounding is exact/limbs.h's.
 * Assumptions: IEEE 754 binary32/binary64 adds and multiplies by powers of two rounded to nearest
 * even with subnormals (no FTZ, no contraction), FLT_EVAL_METHOD 0 on the host; two's-complement
 * int64_t with arithmetic right shift (gcc, clang, nvcc).
 *
 * Algorithm (Demmel and Nguyen; Ahrens, Demmel and Nguyen, TOMS 2020; as ReproBLAS and CUB's RFA,
 * own code): bins at fixed positions. Position j >= 0 has anchor exponent a_j = EMIN + j W and
 * unit (ulp) 2^(a_j - P + 1) = 2^(j W - SCALE), so position 0's unit is the smallest subnormal;
 * W = 40, P = 53 for binary64, W = 13, P = 24 for binary32 (the binned float format the papers use
 * for single: float32 input is accumulated in float bins). A state with index `top` holds K = 3
 * folds at positions top, top-1, top-2 and accepts |x| < cap(top) = 2^(a_top + W - P). Adding x:
 * fold k takes q_k = x_k rounded to its unit with ties away from zero (fl(B + (x_k | 1)) - B: the
 * ORed sticky bit makes every tie impossible, so q_k does not depend on what the bin already
 * holds), x_{k+1} = x_k - q_k exactly; the rest below the last fold is dropped. So each fold's sum
 * is a function of the multiset of inputs and the index only, and raising the index (shifting
 * folds up, dropping the lowest) gives exactly the state the higher index would have produced:
 * the result does not depend on order, grid, block, SM count or split.
 * Per thread (registers): fold k is a float B_k = 1.5 2^a + held value, in [2^a, 2^(a+1)) while at
 * most 2^(P-W-2) inputs arrive between renormalisations (each adds at most 2^(a+W-P)); renorm
 * moves the two bits below B_k's leading bit into an integer carry (units 2^(a-2)). The max
 * exponent problem is solved without a second pass by per-thread index adaptation: a group of
 * inputs is checked against cap(top) once (the integer max of their |x| bit patterns, so NaN and
 * Inf fail it too); a larger value raises the thread's index first. Indices whose top bin's float
 * would overflow (|x| >= 2^1005 for binary64, 2^110 for binary32) work in a scaled domain (inputs
 * times 2^(-s W), exact where it matters, see sl_rsum_take1), on the fast path too (a group
 * multiplies by the scale: one by one, full-range data was slow); the index 2 (folds at
 * positions 2, 1, 0) is exact for tiny data (position 0 needs no sticky bit: every input is on its grid).
 * State (sl_rsum_state): the index and, per fold, an exact integer sum hi 2^32 + lo in units of
 * the fold's unit; merge = raise both to the larger index, add the integers: exact, commutative,
 * associative. The sum: the folds' exact value rounded once (exact/limbs.h's rounding), so the
 * error is at most n 2^(W(1-K)) max|x| + half an ulp (within the published bound). */
#ifndef SL_EXACT_BINNED_H
#define SL_EXACT_BINNED_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sumlab/types.h"
#include "exact/limbs.h"   /* flags SL_SACC_*, sl_sacc_round */
#include "sumlab/half.h"    /* float16/bfloat16 conversions (host and device) */

#ifdef __cplusplus
extern "C" {
#endif

#define SL_RSUM_K 3                                  /* folds of `reproducible` */
#define SL_RSUM_KMAX 4                               /* superacc's float64 path: 4 folds */
#define SL_RSUM_GROUP 8                              /* inputs per capacity check (fast path) */
#define SL_RSUM_MAX_N ((uint64_t)1 << 40)            /* n < 2^40 (carries and limbs sized for it) */
#define SL_RSUM_NPOS_MAX 53                          /* positions 0..52 (binary64), 0..21 (binary32) */
#define SL_RSUM_WLIMBS 12                            /* 32-bit limbs of the final rounding's window */

#ifdef __CUDACC__
#define SL_RSUM_HD static __host__ __device__ __forceinline__
#else
#define SL_RSUM_HD static inline
#endif

/* Per-format constants: P precision, W bin width, EMIN smallest normal exponent, BIAS, TFAST
 * largest index whose folds are plain floats, TMAX largest index any finite input needs, E inputs
 * between renormalisations (2^(P-W-2)), HS/XS where the exponent field sits in the high word. */
#define SL_RSUM_F32_P 24
#define SL_RSUM_F32_W 13
#define SL_RSUM_F64_P 53
#define SL_RSUM_F64_W 40
static inline int sl_rsum_width(sl_dtype dt) { return dt == SL_F64 ? SL_RSUM_F64_W : SL_RSUM_F32_W; }
static inline int sl_rsum_npos(sl_dtype dt) { return dt == SL_F64 ? 53 : 22; }

/* The state: fold k (position top - k) holds (hi[k] 2^32 + lo[k]) units of 2^((top-k) W - SCALE).
 * Canonical after sl_rsum_state_norm: lo[k] in [0, 2^32). The empty state: top = K - 1, zeros. */
typedef struct {
    int32_t top;
    uint32_t flags;                /* SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF | SL_SACC_ANYPOS */
    int64_t hi[SL_RSUM_KMAX];      /* folds 0..K-1 in use (3 for `reproducible`, 4 for the */
    int64_t lo[SL_RSUM_KMAX];      /* float64 path of `superacc`); the rest stay zero */
} sl_rsum_state;

SL_RSUM_HD void sl_rsum_state_zero_k(sl_rsum_state *st, int K)
{
    st->top = K - 1;
    st->flags = 0;
    for (int k = 0; k < SL_RSUM_KMAX; k++) st->hi[k] = st->lo[k] = 0;
}

/* lo into [0, 2^32), the carry into hi (exact). */
SL_RSUM_HD void sl_rsum_state_norm_k(sl_rsum_state *st, int K)
{
    for (int k = 0; k < K; k++) {
        int64_t carry = st->lo[k] >> 32;            /* floor division (arithmetic shift) */
        st->lo[k] -= (int64_t)((uint64_t)carry << 32);
        st->hi[k] += carry;
    }
}

/* Raises the index to tnew >= top: fold k takes old fold k - d (d = tnew - top), new top folds
 * are empty, the lowest d folds are dropped. Written with selects (no indexed register arrays). */
SL_RSUM_HD void sl_rsum_state_shift_k(sl_rsum_state *st, int tnew, int K)
{
    const int d = tnew - st->top;
    if (d <= 0) return;
    int64_t nh[SL_RSUM_KMAX], nl[SL_RSUM_KMAX];
    for (int k = 0; k < K; k++) {
        nh[k] = nl[k] = 0;
        for (int j = 0; j < K; j++)
            if (j == k - d) { nh[k] = st->hi[j]; nl[k] = st->lo[j]; }
    }
    for (int k = 0; k < K; k++) { st->hi[k] = nh[k]; st->lo[k] = nl[k]; }
    st->top = tnew;
}

/* dst += src (src unchanged): exact, commutative and associative (canonical result). */
SL_RSUM_HD void sl_rsum_state_merge_k(sl_rsum_state *dst, const sl_rsum_state *src, int K)
{
    sl_rsum_state s = *src;
    const int t = dst->top > s.top ? dst->top : s.top;
    sl_rsum_state_shift_k(dst, t, K);
    sl_rsum_state_shift_k(&s, t, K);
    for (int k = 0; k < K; k++) { dst->hi[k] += s.hi[k]; dst->lo[k] += s.lo[k]; }
    dst->flags |= s.flags;
    sl_rsum_state_norm_k(dst, K);
}

/* Adds the signed v 2^off (units 2^-SCALE) into 32-bit limbs (carries deferred). */
SL_RSUM_HD void sl_rsum_limbs_add(int64_t *limb, int off, int64_t v)
{
    if (v == 0) return;
    const int neg = v < 0;
    const uint64_t m = neg ? 0u - (uint64_t)v : (uint64_t)v;
    const int idx = off >> 5, b = off & 31;
    const int64_t c0 = (int64_t)((m << b) & 0xffffffffu);
    const int64_t c1 = (int64_t)((b ? m >> (32 - b) : m >> 32) & 0xffffffffu);
    const int64_t c2 = (int64_t)(b ? m >> (64 - b) : 0u);
    limb[idx] += neg ? -c0 : c0;
    limb[idx + 1] += neg ? -c1 : c1;
    limb[idx + 2] += neg ? -c2 : c2;
}

/* The state's folds as 32-bit limbs of a window of M (exact/limbs.h): limb i weighs
 * 2^(32 (i + *off)), *off chosen so that the lowest fold starts in limb 0 (the folds span
 * (K-1) W + 96 bits: SL_RSUM_WLIMBS limbs hold them with room for carries). */
SL_RSUM_HD void sl_rsum_state_limbs(const sl_rsum_state *st, int K, int W, int64_t *limb, int *off)
{
    const int low = st->top - (K - 1) > 0 ? st->top - (K - 1) : 0;
    *off = (low * W) >> 5;
    for (int i = 0; i < SL_RSUM_WLIMBS; i++) limb[i] = 0;
    for (int k = 0; k < K; k++) {
        const int pos = st->top - k;
        if (pos < 0) continue;
        sl_rsum_limbs_add(limb, pos * W - 32 * *off, st->lo[k]);
        sl_rsum_limbs_add(limb, pos * W - 32 * *off + 32, st->hi[k]);
    }
}

/* The state's exact value (and flags) rounded once to dt: nearest even, overflow to +-Inf, NaN
 * and Inf rules and the sign of zero as sl_sacc_round (an exact zero is -0 only when every
 * input was -0). A float32 result is returned as the double holding it. */
SL_RSUM_HD double sl_rsum_state_round_mode_k(const sl_rsum_state *st, sl_dtype dt, int K, int rto)
{
    int64_t limb[SL_RSUM_WLIMBS];
    int off;
    sl_rsum_state_limbs(st, K, dt == SL_F64 ? SL_RSUM_F64_W : SL_RSUM_F32_W, limb, &off);
    return sl_sacc_round_mode(limb, SL_RSUM_WLIMBS, off, dt, st->flags, rto);
}
SL_RSUM_HD double sl_rsum_state_round_k(const sl_rsum_state *st, sl_dtype dt, int K)
{
    return sl_rsum_state_round_mode_k(st, dt, K, 0);
}
/* The float32 state (K = 3, W = 13) rounded as sl_rsum_state_round_mode_k, in registers: the
 * three folds (|fold| < 2^52 units for n < 2^40: each input adds less than 2^(W-1) units to a
 * fold) are one signed 128-bit integer V in units of the lowest fold's position low = top - 2,
 * whose unit is the grid bit 13 low of 2^-149; V's leading bit, the kept 24 bits, the guard and
 * sticky bits come from shifts. The same result bit for bit (treproducible compares the two on
 * random and edge states); the generic form goes through 12 limbs that a GPU thread keeps in
 * local memory, a long dependent chain once per launch. Falls back to it for a fold outside
 * int64 or an index below 2 (neither occurs for n < 2^40). */
SL_RSUM_HD double sl_rsum_state_round_f32(const sl_rsum_state *st, int rto)
{
    const uint32_t fl = st->flags;
    uint32_t rbits;
    if ((fl & SL_SACC_NAN) || (fl & (SL_SACC_PINF | SL_SACC_NINF)) == (SL_SACC_PINF | SL_SACC_NINF))
        rbits = 0x7fc00000u;
    else if (fl & SL_SACC_PINF)
        rbits = 0x7f800000u;
    else if (fl & SL_SACC_NINF)
        rbits = 0xff800000u;
    else {
        int ok = st->top >= 2;
        for (int k = 0; k < 3; k++) ok &= st->hi[k] >= -((int64_t)1 << 30) && st->hi[k] < ((int64_t)1 << 30);
        if (!ok) return sl_rsum_state_round_mode_k(st, SL_F32, 3, rto);
        __extension__ typedef __int128 i128;
        __extension__ typedef unsigned __int128 u128;
        i128 v = 0;
        for (int k = 0; k < 3; k++)   /* fold k: (hi 2^32 + lo) units of position top - k */
            v += (i128)(st->hi[k] * ((int64_t)1 << 32) + st->lo[k]) * ((i128)1 << (SL_RSUM_F32_W * (2 - k)));
        if (v == 0) {
            rbits = (fl & SL_SACC_ANYPOS) ? 0u : 0x80000000u;
        } else {
            const uint32_t sign = v < 0 ? 0x80000000u : 0u;
            const u128 m = v < 0 ? (u128)0 - (u128)v : (u128)v;
            const uint64_t mh = (uint64_t)(m >> 64), ml = (uint64_t)m;
#if defined(__CUDA_ARCH__)
            const int h = mh ? 127 - __clzll((long long)mh) : 63 - __clzll((long long)ml);
#else
            const int h = mh ? 127 - __builtin_clzll(mh) : 63 - __builtin_clzll(ml);
#endif
            const int B = SL_RSUM_F32_W * (st->top - 2);   /* V's bit 0 on the 2^-149 grid */
            int sa = h + B - 23;                           /* the result's lsb on the grid */
            if (sa < 0) sa = 0;                            /* subnormal: the grid's bit 0 */
            if (sa > 254) {
                rbits = 0x7f800000u | sign;
            } else {
                const int rs = sa - B;                     /* the lsb among V's bits */
                uint32_t q;
                if (rs <= 0) {
                    q = (uint32_t)(ml << -rs);             /* exact: fewer than 24 bits */
                } else {
                    q = (uint32_t)(m >> rs);
                    const int g = (int)(m >> (rs - 1)) & 1;
                    const int st_ = (m & (((u128)1 << (rs - 1)) - 1)) != 0;
                    if (rto) q |= (uint32_t)(g | st_);
                    else if (g && ((q & 1u) || st_)) q++;
                }
                rbits = ((uint32_t)sa << 23) + q;
                if (rbits >= 0x7f800000u) rbits = 0x7f800000u;
                rbits |= sign;
            }
        }
    }
    float f;
    memcpy(&f, &rbits, sizeof f);
    return (double)f;
}

/* Bits [s, s + 64) of the 256-bit magnitude w3 2^192 + w2 2^128 + w1 2^64 + w0 (s in [0, 255]),
 * and whether any of its bits below t (t in [0, 255]) is set: selects, no indexed arrays
 * (registers on a GPU). */
SL_RSUM_HD uint64_t sl_rsum_u256_bits(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3, int s)
{
    const int i = s >> 6, b = s & 63;
    const uint64_t a = i == 0 ? w0 : i == 1 ? w1 : i == 2 ? w2 : w3;
    const uint64_t c = i == 0 ? w1 : i == 1 ? w2 : i == 2 ? w3 : 0u;
    return b ? (a >> b) | (c << (64 - b)) : a;
}
SL_RSUM_HD int sl_rsum_u256_any_below(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3, int t)
{
    const int i = t >> 6, b = t & 63;
    const uint64_t mask = b ? ((uint64_t)1 << b) - 1 : 0u;
    uint64_t any = (i == 0 ? w0 : i == 1 ? w1 : i == 2 ? w2 : w3) & mask;
    if (i >= 1) any |= w0;
    if (i >= 2) any |= w1;
    if (i >= 3) any |= w2;
    return any != 0;
}

/* The nonzero magnitude w3 2^192 + w2 2^128 + w1 2^64 + w0 in units of 2^(B - 1074) (B >= 0)
 * rounded to float64 (to nearest even, or to odd with rto): the result's bits without the sign,
 * overflow to Inf. The register roundings of the float64 folds (sl_rsum_state_round_f64, three
 * folds, and sl_rsum_state_certify_end_f64, four). */
SL_RSUM_HD uint64_t sl_rsum_round_mag_f64(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3,
                                          int B, int rto)
{
#if defined(__CUDA_ARCH__)
    const int lead = w3 ? 255 - __clzll((long long)w3) : w2 ? 191 - __clzll((long long)w2)
                   : w1 ? 127 - __clzll((long long)w1) : 63 - __clzll((long long)w0);
#else
    const int lead = w3 ? 255 - __builtin_clzll(w3) : w2 ? 191 - __builtin_clzll(w2)
                   : w1 ? 127 - __builtin_clzll(w1) : 63 - __builtin_clzll(w0);
#endif
    int sa = lead + B - 52;                        /* the result's lsb on the 2^-1074 grid */
    if (sa < 0) sa = 0;                            /* subnormal: the grid's bit 0 */
    if (sa > 2046) return 0x7ff0000000000000ull;
    const int rs = sa - B;                         /* the lsb among the magnitude's bits */
    uint64_t q;
    if (rs <= 0) {
        q = w0 << -rs;                             /* exact: fewer than 53 bits */
    } else {
        q = sl_rsum_u256_bits(w0, w1, w2, w3, rs) & (((uint64_t)1 << 53) - 1);
        const int g = (int)(sl_rsum_u256_bits(w0, w1, w2, w3, rs - 1) & 1u);
        const int st_ = sl_rsum_u256_any_below(w0, w1, w2, w3, rs - 1);
        if (rto) q |= (uint64_t)(g | st_);
        else if (g && ((q & 1u) || st_)) q++;
    }
    const uint64_t rbits = ((uint64_t)sa << 52) + q;
    return rbits >= 0x7ff0000000000000ull ? 0x7ff0000000000000ull : rbits;
}

/* The float64 state (K = 3, W = 40) rounded as sl_rsum_state_round_mode_k, in registers: the
 * three folds F_k (|F_k| < 2^79 units for n < 2^40: each input adds less than 2^(W-1) units)
 * are one signed 192-bit integer V = F_0 2^80 + F_1 2^40 + F_2 in units of the lowest fold's
 * position top - 2, held as H 2^64 + L (H a signed 128-bit integer, L the low 64 bits); its
 * magnitude's leading bit, the kept 53 bits, the guard and sticky bits come from shifts. The
 * same result bit for bit (treproducible compares the two on random and edge states); the
 * generic form goes through 12 limbs that a GPU thread keeps in local memory. Falls back to it
 * for a fold beyond 2^79 or an index below 2 (neither occurs for n < 2^40). */
SL_RSUM_HD double sl_rsum_state_round_f64(const sl_rsum_state *st, int rto)
{
    uint64_t rbits;
    if (!sl_sacc_special(st->flags, 1, &rbits)) {
        int ok = st->top >= 2;
        for (int k = 0; k < 3; k++) ok &= st->hi[k] >= -((int64_t)1 << 47) && st->hi[k] < ((int64_t)1 << 47);
        if (!ok) return sl_rsum_state_round_mode_k(st, SL_F64, 3, rto);
        __extension__ typedef __int128 i128;
        __extension__ typedef unsigned __int128 u128;
        const i128 f0 = (i128)st->hi[0] * ((i128)1 << 32) + st->lo[0];   /* |f_k| < 2^80 */
        const i128 f1 = (i128)st->hi[1] * ((i128)1 << 32) + st->lo[1];
        const i128 f2 = (i128)st->hi[2] * ((i128)1 << 32) + st->lo[2];
        const i128 l = f1 * ((i128)1 << 40) + f2;                        /* |l| < 2^121 */
        const i128 h = f0 * ((i128)1 << 16) + (l >> 64);                 /* V = h 2^64 + (l mod 2^64) */
        const uint64_t l0 = (uint64_t)(u128)l;
        if (h == 0 && l0 == 0) {
            rbits = (st->flags & SL_SACC_ANYPOS) ? 0u : 0x8000000000000000ull;
        } else {
            const uint64_t w0 = h < 0 ? 0u - l0 : l0;                    /* |V| = mh 2^64 + w0 */
            const u128 mh = h < 0 ? (u128)0 - (u128)h - (u128)(l0 != 0) : (u128)h;
            /* V's bit 0 on the 2^-1074 grid: SL_RSUM_F64_W (top - 2) */
            rbits = sl_rsum_round_mag_f64(w0, (uint64_t)mh, (uint64_t)(mh >> 64), 0u,
                                          SL_RSUM_F64_W * (st->top - 2), rto) |
                    (h < 0 ? 0x8000000000000000ull : 0u);
        }
    }
    double d;
    memcpy(&d, &rbits, sizeof d);
    return d;
}

/* float16/bfloat16 input (accumulated as float32): the state rounded to odd in float32, then
 * once to nearest even in the 16-bit format (exact/limbs.h: the correctly rounded 16-bit value of
 * the binned sum). */
#ifndef __CUDACC__   /* the host's conversion (the kernel rounds with __float2half_rn) */
static inline double sl_rsum_state_round_half(const sl_rsum_state *st, sl_dtype dt)
{
    return sl_half_round(sl_rsum_state_round_mode_k(st, SL_F32, SL_RSUM_K, 1), dt);
}
#endif

/* 1 when the two ends (bit patterns) agree: *out = that value; else 0. */
SL_RSUM_HD int sl_rsum_certify_agree(double a, double b, double *out)
{
    uint64_t ba, bb;
    memcpy(&ba, &a, sizeof ba);
    memcpy(&bb, &b, sizeof bb);
    if (ba != bb) return 0;
    *out = a;
    return 1;
}
/* Certified rounding of an array's binned sum (the `superacc` kernel's float64 path, superacc.cu,
 * and its rows): st is the float64 state of 4 folds (K = 4, W = 40) of all n inputs. Every
 * input's deposit drops less than one unit of the lowest fold (the sticky bit and the rounding
 * together stay below it), so the exact sum S lies within B = n units of position top - 3 of the
 * binned value V (raising the index yields the state the final index would have made; at index 3
 * the lowest fold is position 0 and nothing is dropped: B = 0). When V - B and V + B round to the
 * same value, so does S (rounding is monotone), and S correctly rounded is that value
 * (sl_rsum_state_certify_f64: 1); otherwise the caller sums exactly. A NaN or Inf among the inputs
 * decides the result by itself. One end of the interval: side < 0: V - B, side > 0: V + B; where
 * B = 0 or a NaN/Inf decides, V itself (both ends then agree). The two ends are independent: the
 * kernels round them on two lanes at once.
 * sl_rsum_state_certify_end_limbs: the generic form of an end over limbs, rounded to nearest even
 * or, rto, to odd; lost: the -+n at position 0 too (exact/certified.cuh's pieces, whose tails
 * below 2^-1074 may be lost). */
SL_RSUM_HD double sl_rsum_state_certify_end_limbs(const sl_rsum_state *st, uint64_t n, int side,
                                                  int rto, int lost)
{
    int64_t limb[SL_RSUM_WLIMBS];
    int off;
    sl_rsum_state_limbs(st, 4, SL_RSUM_F64_W, limb, &off);
    const int low = st->top - 3;
    if ((low >= 1 || (lost && low == 0)) && !(st->flags & (SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF)))
        sl_rsum_limbs_add(limb, low * SL_RSUM_F64_W - 32 * off, side < 0 ? -(int64_t)n : (int64_t)n);
    return sl_sacc_round_mode(limb, SL_RSUM_WLIMBS, off, SL_F64, st->flags, rto);
}

/* That end in registers: the four folds F_k (|F_k| < 2^80 units for n < 2^40) and the end's -+n
 * at the lowest fold are one signed 256-bit integer V = F_0 2^120 + F_1 2^80 + F_2 2^40 + F_3 -+ n
 * in units of position top - 3, held as h 2^128 + m 2^64 + l (h a signed 128-bit integer below
 * 2^74, m and l 64-bit words), rounded as sl_rsum_state_round_f64 rounds three folds. The same
 * result bit for bit (treproducible compares the two over random and edge states); the generic
 * form goes through 12 limbs that a GPU thread keeps in local memory. Falls back to it for a fold
 * beyond 2^79, an index below 3 or n >= 2^40 (none occurs in the kernels). */
SL_RSUM_HD double sl_rsum_state_certify_end_f64_mode(const sl_rsum_state *st, uint64_t n, int side,
                                                     int rto, int lost)
{
    uint64_t rbits;
    if (!sl_sacc_special(st->flags, 1, &rbits)) {
        int ok = st->top >= 3 && n < SL_RSUM_MAX_N;
        for (int k = 0; k < 4; k++) ok &= st->hi[k] >= -((int64_t)1 << 47) && st->hi[k] < ((int64_t)1 << 47);
        if (!ok) return sl_rsum_state_certify_end_limbs(st, n, side, rto, lost);
        __extension__ typedef __int128 i128;
        __extension__ typedef unsigned __int128 u128;
        const i128 f0 = (i128)st->hi[0] * ((i128)1 << 32) + st->lo[0];   /* |f_k| < 2^80 */
        const i128 f1 = (i128)st->hi[1] * ((i128)1 << 32) + st->lo[1];
        const i128 f2 = (i128)st->hi[2] * ((i128)1 << 32) + st->lo[2];
        const i128 f3 = (i128)st->hi[3] * ((i128)1 << 32) + st->lo[3];
        /* the end: -+n units of the lowest fold, unless it is position 0 (nothing dropped) */
        const i128 a = f3 + (st->top > 3 || lost ? (side < 0 ? -(i128)n : (i128)n) : 0);   /* < 2^81 */
        const i128 l = f2 * ((i128)1 << 40) + a;                           /* |l| < 2^121 */
        const i128 m = f1 * ((i128)1 << 16) + (l >> 64);                   /* |m| < 2^97 */
        /* V = f0 2^120 + m 2^64 + (l mod 2^64) = h 2^128 + w1 2^64 + w0 */
        const u128 t1 = (u128)(uint64_t)(u128)m + ((u128)(uint64_t)(f0 & 0xff) << 56);
        const i128 h = (f0 >> 8) + (m >> 64) + (i128)(t1 >> 64);
        const uint64_t x0 = (uint64_t)(u128)l, x1 = (uint64_t)t1;
        if (h == 0 && x1 == 0 && x0 == 0) {
            rbits = (st->flags & SL_SACC_ANYPOS) ? 0u : 0x8000000000000000ull;
        } else {
            /* |V|: two's complement of the 256 bits when V < 0 */
            const int neg = h < 0;
            const uint64_t w0 = neg ? 0u - x0 : x0;
            const uint64_t b0 = neg && x0 != 0;                            /* the borrow */
            const uint64_t w1 = neg ? 0u - x1 - b0 : x1;
            const u128 b1 = neg && (x1 != 0 || b0);
            const u128 mh = neg ? (u128)0 - (u128)h - b1 : (u128)h;
            rbits = sl_rsum_round_mag_f64(w0, w1, (uint64_t)mh, (uint64_t)(mh >> 64),
                                          SL_RSUM_F64_W * (st->top - 3), rto) |
                    (neg ? 0x8000000000000000ull : 0u);
        }
    }
    double d;
    memcpy(&d, &rbits, sizeof d);
    return d;
}

/* The certificate's end (to nearest even; the empty sum is +0), in registers. */
SL_RSUM_HD double sl_rsum_state_certify_end_f64(const sl_rsum_state *st, uint64_t n, int side)
{
    return n == 0 ? 0.0 : sl_rsum_state_certify_end_f64_mode(st, n, side, 0, 0);
}

/* Both ends: 1 and *out when they agree. */
SL_RSUM_HD int sl_rsum_state_certify_f64(const sl_rsum_state *st, uint64_t n, double *out)
{
    return sl_rsum_certify_agree(sl_rsum_state_certify_end_f64(st, n, -1),
                                 sl_rsum_state_certify_end_f64(st, n, 1), out);
}

/* The `reproducible` variant's forms (K = SL_RSUM_K). */
SL_RSUM_HD void sl_rsum_state_zero(sl_rsum_state *st) { sl_rsum_state_zero_k(st, SL_RSUM_K); }
SL_RSUM_HD void sl_rsum_state_norm(sl_rsum_state *st) { sl_rsum_state_norm_k(st, SL_RSUM_K); }
SL_RSUM_HD void sl_rsum_state_shift(sl_rsum_state *st, int tnew) { sl_rsum_state_shift_k(st, tnew, SL_RSUM_K); }
SL_RSUM_HD void sl_rsum_state_merge(sl_rsum_state *dst, const sl_rsum_state *src) { sl_rsum_state_merge_k(dst, src, SL_RSUM_K); }
SL_RSUM_HD double sl_rsum_state_round(const sl_rsum_state *st, sl_dtype dt) { return sl_rsum_state_round_k(st, dt, SL_RSUM_K); }

/* (hi, lo) += c 2^sh + l, exact (sh in [0, 62], |c| < 2^44, |l| < 2^62); lo left in [0, 2^33). */
SL_RSUM_HD void sl_rsum_add_parts(int64_t *hi, int64_t *lo, int64_t c, int sh, int64_t l)
{
    if (sh >= 32) {
        *hi += c * ((int64_t)1 << (sh - 32));
    } else {
        *hi += c >> (32 - sh);
        *lo += (c & (((int64_t)1 << (32 - sh)) - 1)) << sh;
    }
    *hi += l >> 32;
    *lo += l & 0xffffffff;
    *hi += *lo >> 32;
    *lo &= 0xffffffff;
}

/* ---- the largest |x| of a group (the capacity check), per format ------------------------- */
/* The |x| bit pattern's high word of the largest of SL_RSUM_GROUP inputs (sign ignored); NaN and
 * Inf lie above every finite value, so they fail every capacity check. float32 on the device:
 * a tree of NaN-propagating float maxima on |x| (one FMNMX a value, the abs an operand modifier;
 * a NaN gives the canonical NaN 0x7fffffff); elsewhere, and for float64, the integer maximum of
 * the masked high words (two integer ops a value). Finite maxima are the same bits either way. */
SL_RSUM_HD uint32_t sl_rsum_hmax_f32(const float *x)
{
#if defined(__CUDA_ARCH__)
    float m[SL_RSUM_GROUP];
    for (int k = 0; k < SL_RSUM_GROUP; k++) m[k] = fabsf(x[k]);
    for (int w = SL_RSUM_GROUP / 2; w > 0; w /= 2)
        for (int k = 0; k < w; k++)
            asm("max.NaN.f32 %0, %1, %2;" : "=f"(m[k]) : "f"(m[k]), "f"(m[k + w]));
    return __float_as_uint(m[0]);
#else
    uint32_t mx = 0u;
    for (int k = 0; k < SL_RSUM_GROUP; k++) {
        uint32_t h;
        memcpy(&h, &x[k], sizeof h);
        h &= 0x7fffffffu;
        mx = mx > h ? mx : h;
    }
    return mx;
#endif
}
SL_RSUM_HD uint32_t sl_rsum_hmax_f64(const double *x)
{
    uint32_t mx = 0u;
    for (int k = 0; k < SL_RSUM_GROUP; k++) {
        uint64_t u;
        memcpy(&u, &x[k], sizeof u);
        const uint32_t h = (uint32_t)(u >> 32) & 0x7fffffffu;
        mx = mx > h ? mx : h;
    }
    return mx;
}
#define sl_rsum_hmax_f64k4 sl_rsum_hmax_f64

/* ---- the per-thread accumulator, one definition per format ------------------------------- */
/* SUF: f32/f64; T, UT: the float and its bits; HS: shift of the high word; XS: exponent shift in
 * the high word; XM: exponent field mask; INFHI: the high word of +Inf; MANT: mantissa mask. */
#define SL_RSUM_DEFINE(SUF, T, UT, P, W, EMIN, BIAS, TFAST, HS, XS, XM, INFHI, K)                 \
typedef struct {                                                                                  \
    T p[(K)];        /* fold k: 1.5 2^a + held value, a = EMIN + (top - k - s) W */               \
    int64_t c[(K)];  /* carries of fold k, units 2^(a-2) = 2^(P-3) units of the fold */           \
    int32_t top;           /* the index */                                                        \
    uint32_t cap;          /* high word of cap(top) (of the unscaled input; +Inf's when cap(top)  \
                              is beyond the format): |x|'s high word below it: fast path */       \
    UT stk;                /* sticky bit of the last fold: 0 when it is position 0 (exact) */     \
    T scale;               /* 2^(-s W), s = max(0, top - TFAST) */                                \
    uint32_t flags, sg;    /* special-value flags; bit 31 of sg: every input so far was -0 (the  \
                              sum is -0 only then; any nonzero input clears it, so a group    \
                              whose max |x| is nonzero needs no sign word) */                 \
    uint32_t cnt;          /* inputs since the last renormalisation */                            \
} sl_rsum_thr_##SUF;                                                                              \
SL_RSUM_HD UT sl_rsum_bits_##SUF(T x) { UT u; memcpy(&u, &x, sizeof u); return u; }               \
SL_RSUM_HD T sl_rsum_from_##SUF(UT u) { T x; memcpy(&x, &u, sizeof x); return x; }                \
/* 1.5 2^a of a (scaled) position j >= 0 */                                                       \
SL_RSUM_HD T sl_rsum_bin_##SUF(int j)                                                             \
{                                                                                                 \
    return sl_rsum_from_##SUF(((UT)(EMIN + j * W + BIAS) << (P - 1)) | ((UT)1 << (P - 2)));       \
}                                                                                                 \
SL_RSUM_HD T sl_rsum_pow2_##SUF(int e) { return sl_rsum_from_##SUF((UT)(e + BIAS) << (P - 1)); }  \
SL_RSUM_HD uint32_t sl_rsum_cap_##SUF(int top)                                                    \
{                                                                                                 \
    const int e = EMIN + (top + 1) * W - P + BIAS;                                                \
    return e >= (int)(XM) ? (uint32_t)(INFHI) : (uint32_t)e << (XS);                              \
}                                                                                                 \
/* the smallest index whose capacity exceeds a finite input of biased exponent eb */              \
SL_RSUM_HD int sl_rsum_treq_##SUF(uint32_t eb)                                                    \
{                                                                                                 \
    const int t = ((int)eb + P + W - 1) / W - 1;                                                  \
    return t < (K) - 1 ? (K) - 1 : t;                                                             \
}                                                                                                 \
SL_RSUM_HD void sl_rsum_init_##SUF(sl_rsum_thr_##SUF *a)                                          \
{                                                                                                 \
    a->top = (K) - 1;                                                                             \
    for (int k = 0; k < (K); k++) { a->p[k] = sl_rsum_bin_##SUF(a->top - k); a->c[k] = 0; }       \
    a->cap = sl_rsum_cap_##SUF(a->top);                                                           \
    a->stk = 0;                                                                                   \
    a->scale = (T)1;                                                                              \
    a->flags = 0u;                                                                                \
    a->sg = 0xffffffffu;                                                                          \
    a->cnt = 0u;                                                                                  \
}                                                                                                 \
/* x (|x| < cap, already scaled) into the folds: fold k adds x_k | 1 (rounded to its unit, ties   \
 * impossible), x_{k+1} = x_k - q_k exactly; the last fold adds x_{K-1} | stk. */                 \
SL_RSUM_HD void sl_rsum_deposit_##SUF(sl_rsum_thr_##SUF *a, T x)                                  \
{                                                                                                 \
    T r = x;                                                                                      \
    for (int k = 0; k < (K) - 1; k++) {                                                           \
        const T q = sl_rsum_from_##SUF(sl_rsum_bits_##SUF(r) | (UT)1);                            \
        const T s = a->p[k] + q;                                                                  \
        const T d = a->p[k] - s;   /* -(s - p): exact (same binade) */                            \
        a->p[k] = s;                                                                              \
        r = r + d;                 /* x_k - q_k: exact */                                         \
    }                                                                                             \
    a->p[(K) - 1] = a->p[(K) - 1] + sl_rsum_from_##SUF(sl_rsum_bits_##SUF(r) | a->stk);           \
}                                                                                                 \
/* the two bits below each fold's leading bit into its carry: fold back to [1.5, 1.75) 2^a */     \
SL_RSUM_HD void sl_rsum_renorm_##SUF(sl_rsum_thr_##SUF *a)                                        \
{                                                                                                 \
    for (int k = 0; k < (K); k++) {                                                               \
        UT u = sl_rsum_bits_##SUF(a->p[k]);                                                       \
        a->c[k] += (int64_t)((u >> (P - 3)) & 3u) - 2;                                            \
        u = (u & ~((UT)1 << (P - 3))) | ((UT)1 << (P - 2));                                       \
        a->p[k] = sl_rsum_from_##SUF(u);                                                          \
    }                                                                                             \
    a->cnt = 0u;                                                                                  \
}                                                                                                 \
/* raises the index to tnew > top: folds move down by d, fresh folds on top, the lowest dropped;  \
 * a change of scale multiplies the kept folds by a power of two (exact: they stay normal) */     \
SL_RSUM_HD void sl_rsum_upgrade_##SUF(sl_rsum_thr_##SUF *a, int tnew)                             \
{                                                                                                 \
    const int d = tnew - a->top;                                                                  \
    const int so = a->top > (TFAST) ? a->top - (TFAST) : 0;                                       \
    const int sn = tnew > (TFAST) ? tnew - (TFAST) : 0;                                           \
    const T f = sl_rsum_pow2_##SUF(-(sn - so) * W);                                               \
    T np[(K)];                                                                                    \
    int64_t nc[(K)];                                                                              \
    for (int k = 0; k < (K); k++) {                                                               \
        np[k] = sl_rsum_bin_##SUF(tnew - k - sn);                                                 \
        nc[k] = 0;                                                                                \
        for (int j = 0; j < (K); j++)                                                             \
            if (j == k - d) { np[k] = a->p[j] * f; nc[k] = a->c[j]; }                             \
    }                                                                                             \
    for (int k = 0; k < (K); k++) { a->p[k] = np[k]; a->c[k] = nc[k]; }                           \
    a->top = tnew;                                                                                \
    a->cap = sl_rsum_cap_##SUF(tnew);                                                             \
    a->stk = tnew - ((K) - 1) >= 1 ? (UT)1 : (UT)0;                                               \
    a->scale = sl_rsum_pow2_##SUF(-sn * W);                                                       \
}                                                                                                 \
/* one input, any value: NaN/Inf set flags; a larger |x| raises the index first; in the scaled    \
 * domain x is multiplied by 2^(-s W): exact for every x that reaches a fold's unit (the folds    \
 * then sit far above the subnormal range), and a tiny x that rounds there still rounds to 0 in   \
 * every fold */                                                                                  \
SL_RSUM_HD void sl_rsum_take1_##SUF(sl_rsum_thr_##SUF *a, T x)                                    \
{                                                                                                 \
    const UT u = sl_rsum_bits_##SUF(x);                                                           \
    const uint32_t h = (uint32_t)(u >> (HS));                                                     \
    a->sg &= (h & 0x7fffffffu) ? 0x7fffffffu : h;                                                 \
    const uint32_t eb = (h >> (XS)) & (XM);                                                       \
    if (eb == (XM)) {                                                                             \
        a->flags |= (u & (((UT)1 << (P - 1)) - 1)) ? SL_SACC_NAN                                  \
                    : (h >> 31) ? SL_SACC_NINF : SL_SACC_PINF;                                    \
        return;                                                                                   \
    }                                                                                             \
    const int tq = sl_rsum_treq_##SUF(eb);                                                        \
    if (tq > a->top) sl_rsum_upgrade_##SUF(a, tq);                                                \
    if (a->cnt >= (1u << (P - W - 2))) sl_rsum_renorm_##SUF(a);                                   \
    sl_rsum_deposit_##SUF(a, a->top > (TFAST) ? x * a->scale : x);                                \
    a->cnt++;                                                                                     \
}                                                                                                 \
/* Raises the index to what an input with high word h (sign ignored) needs, when that is more:    \
 * the kernel calls it with the warp's largest |x| so that lanes raise together (raising beyond   \
 * a lane's own inputs changes nothing: every state is raised to the final index at the end).     \
 * NaN and Inf (exponent field all ones) raise nothing. */                                        \
SL_RSUM_HD void sl_rsum_raise_##SUF(sl_rsum_thr_##SUF *a, uint32_t h)                             \
{                                                                                                 \
    const uint32_t eb = (h >> (XS)) & (XM);                                                       \
    if (eb == (XM)) return;                                                                       \
    const int tq = sl_rsum_treq_##SUF(eb);                                                        \
    if (tq > a->top) sl_rsum_upgrade_##SUF(a, tq);                                                \
}                                                                                                 \
/* The largest |x| high word of SL_RSUM_GROUP inputs (sl_rsum_hmax: NaN and Inf above every    \
 * finite value). */                                                                              \
SL_RSUM_HD uint32_t sl_rsum_group_max_##SUF(const T *x) { return sl_rsum_hmax_##SUF(x); }         \
/* Before n straight-line deposits of x[0..n) whose largest |x| (high word) is mx: the sign word  \
 * (only when every input is zero), renormalisation when n more would pass the count's limit. */  \
SL_RSUM_HD void sl_rsum_group_begin_##SUF(sl_rsum_thr_##SUF *a, const T *x, int n, uint32_t mx)   \
{                                                                                                 \
    if (mx) {                                                                                     \
        a->sg &= 0x7fffffffu;                                                                     \
    } else {                                                                                      \
        for (int k = 0; k < n; k++) a->sg &= (uint32_t)(sl_rsum_bits_##SUF(x[k]) >> (HS));        \
    }                                                                                             \
    if (a->cnt > (1u << (P - W - 2)) - (uint32_t)n) sl_rsum_renorm_##SUF(a);                      \
}                                                                                                 \
/* SL_RSUM_GROUP inputs whose sl_rsum_group_max is mx: when mx is below the capacity, the         \
 * deposits as straight-line code (the sign word only when every input is zero); else one by one */ \
SL_RSUM_HD void sl_rsum_take_group_mx_##SUF(sl_rsum_thr_##SUF *a, const T *x, uint32_t mx)       \
{                                                                                                 \
    if (mx < a->cap) {                                                                            \
        sl_rsum_group_begin_##SUF(a, x, SL_RSUM_GROUP, mx);                                       \
        if (a->top > (TFAST)) {    /* the scaled domain: the same multiply as sl_rsum_take1 */    \
            const T sc = a->scale;                                                                \
            for (int k = 0; k < SL_RSUM_GROUP; k++) sl_rsum_deposit_##SUF(a, x[k] * sc);          \
        } else {                                                                                  \
            for (int k = 0; k < SL_RSUM_GROUP; k++) sl_rsum_deposit_##SUF(a, x[k]);               \
        }                                                                                         \
        a->cnt += SL_RSUM_GROUP;                                                                  \
    } else {                                                                                      \
        for (int k = 0; k < SL_RSUM_GROUP; k++) sl_rsum_take1_##SUF(a, x[k]);                     \
    }                                                                                             \
}                                                                                                 \
/* SL_RSUM_GROUP inputs (the kernel's fast path): one capacity check on the largest |x|, then    \
 * the deposits as straight-line code; else one by one */                                        \
SL_RSUM_HD void sl_rsum_take_group_##SUF(sl_rsum_thr_##SUF *a, const T *x)                        \
{                                                                                                 \
    sl_rsum_take_group_mx_##SUF(a, x, sl_rsum_group_max_##SUF(x));                                \
}                                                                                                 \
/* the thread's folds as a state: fold value = c 2^(P-3) + (mantissa - 2^(P-2)) units, exact */   \
SL_RSUM_HD void sl_rsum_to_state_##SUF(const sl_rsum_thr_##SUF *a, sl_rsum_state *st)             \
{                                                                                                 \
    st->top = a->top;                                                                             \
    st->flags = a->flags | ((a->sg >> 31) ? 0u : SL_SACC_ANYPOS);                                 \
    for (int k = (K); k < SL_RSUM_KMAX; k++) st->hi[k] = st->lo[k] = 0;                           \
    for (int k = 0; k < (K); k++) {                                                               \
        const UT mant = sl_rsum_bits_##SUF(a->p[k]) & (((UT)1 << (P - 1)) - 1);                   \
        st->hi[k] = st->lo[k] = 0;                                                                \
        sl_rsum_add_parts(&st->hi[k], &st->lo[k], a->c[k], P - 3,                                 \
                          (int64_t)mant - ((int64_t)1 << (P - 2)));                               \
    }                                                                                             \
}

#define SL_RSUM_F32_TFAST 19
SL_RSUM_DEFINE(f32, float, uint32_t, 24, 13, -126, 127, SL_RSUM_F32_TFAST, 0, 23, 0xffu, 0x7f800000u, SL_RSUM_K)
/* Float16/bfloat16 input (PH significand bits, exponent bias BH) into float32 folds: a value of at
 * most 11 significant bits spans fewer bits than a fold (W = 13), so when its lowest bit is at or
 * above fold 1's unit, fold 0 takes its rounded part and fold 1 the rest exactly, and every lower
 * fold receives 0: sl_rsum_deposit2_f32 (2 folds, 5 operations) then leaves the folds bit for bit
 * as sl_rsum_deposit_f32 (K folds, 10 operations) does. The smallest biased 16-bit exponent for
 * which this holds at index top in the unscaled domain (top <= SL_RSUM_F32_TFAST: fold 0 sits at
 * 1.5 2^a0, a0 = EMIN + top W, fold 1's unit is 2^(a0 - W - (P - 1)); a value of biased exponent
 * e (1 for subnormals) has its lowest bit at 2^(e - BH - (PH - 1))). May be <= 0 (every value) or
 * beyond the format (none but zeros). */
SL_RSUM_HD int sl_rsum_two_fold_emin16(int top, int ph, int bh)
{
    return -126 + top * SL_RSUM_F32_W - SL_RSUM_F32_W - SL_RSUM_F32_P + bh + ph;
}
/* The 2-fold path's test of a warp's sub-tile from the 16-bit bits, two values a 32-bit word: each
 * word with both sign bits set (w | 0x80008000: 0x8000 + |h| a half) gives the largest |h| by an
 * unsigned 16x2 maximum and, less 0x00010001 (no borrow crosses a half), the smallest nonzero |h|
 * by a signed 16x2 minimum (a zero half becomes 0x7fff, above every nonzero one's 0x8000 + |h| -
 * 1). On the GPU one instruction a word each (VIMNMX.U16x2 / .S16x2); the host's forms are the
 * tests'. Start from mxw = 0, mnw = 0x7fff7fff. */
#ifdef __CUDA_ARCH__
#define sl_rsum_vmaxu2 __vmaxu2
#define sl_rsum_vmins2 __vmins2
#else
SL_RSUM_HD uint32_t sl_rsum_vmaxu2(uint32_t a, uint32_t b)
{
    const uint32_t lo = (a & 0xffffu) > (b & 0xffffu) ? a & 0xffffu : b & 0xffffu;
    const uint32_t hi = (a >> 16) > (b >> 16) ? a >> 16 : b >> 16;
    return hi << 16 | lo;
}
SL_RSUM_HD uint32_t sl_rsum_vmins2(uint32_t a, uint32_t b)
{
    const int16_t al = (int16_t)(a & 0xffffu), bl = (int16_t)(b & 0xffffu);
    const int16_t ah = (int16_t)(a >> 16), bh = (int16_t)(b >> 16);
    return (uint32_t)(uint16_t)(ah < bh ? ah : bh) << 16 | (uint16_t)(al < bl ? al : bl);
}
#endif
SL_RSUM_HD void sl_rsum_h16_scan4(const uint32_t w[4], uint32_t *mxw, uint32_t *mnw)
{
    const uint32_t g0 = w[0] | 0x80008000u, g1 = w[1] | 0x80008000u;
    const uint32_t g2 = w[2] | 0x80008000u, g3 = w[3] | 0x80008000u;
    *mxw = sl_rsum_vmaxu2(*mxw, sl_rsum_vmaxu2(sl_rsum_vmaxu2(g0, g1), sl_rsum_vmaxu2(g2, g3)));
    *mnw = sl_rsum_vmins2(*mnw, sl_rsum_vmins2(sl_rsum_vmins2(g0 - 0x00010001u, g1 - 0x00010001u),
                                               sl_rsum_vmins2(g2 - 0x00010001u, g3 - 0x00010001u)));
}
/* the largest |h| of the scanned values (NaN and Inf above every finite one) */
SL_RSUM_HD uint32_t sl_rsum_h16_absmax(uint32_t mxw)
{
    const uint32_t lo = mxw & 0x7fffu, hi = (mxw >> 16) & 0x7fffu;
    return lo > hi ? lo : hi;
}
/* the smallest nonzero |h| of the scanned values; 0x10000 when every one is zero */
SL_RSUM_HD uint32_t sl_rsum_h16_absmin_nz(uint32_t mnw)
{
    const int lo = (int16_t)(mnw & 0xffffu), hi = (int16_t)(mnw >> 16);
    return (uint32_t)((lo < hi ? lo : hi) + 0x8001);
}
/* 1 when values whose smallest nonzero |h| is minnz (sl_rsum_h16_absmin_nz) may take the 2-fold
 * path at index top (unscaled, and none nonzero below sl_rsum_two_fold_emin16: subnormals only
 * when the threshold is at most 0, a conservative test); the capacity is the caller's. */
SL_RSUM_HD int sl_rsum_two_fold16(uint32_t minnz, int top, int ph, int bh)
{
    const int e = sl_rsum_two_fold_emin16(top, ph, bh);
    return top <= SL_RSUM_F32_TFAST && (minnz == 0x10000u || minnz >= (uint32_t)(e > 0 ? e : 0) << (ph - 1));
}
/* x: a widened 16-bit value with |x| < cap(top), top <= SL_RSUM_F32_TFAST, biased exponent at
 * least sl_rsum_two_fold_emin16(top) (or zero): fold 0 as sl_rsum_deposit_f32 adds it (x | 1,
 * ties impossible), fold 1 the exact remainder, which is a multiple of its unit (so x_1 | 1 would
 * round to x_1 there and leave x_2 = 0, whose deposit changes no fold). */
SL_RSUM_HD void sl_rsum_deposit2_f32(sl_rsum_thr_f32 *a, float x)
{
    const float q = sl_rsum_from_f32(sl_rsum_bits_f32(x) | 1u);
    const float s = a->p[0] + q;
    const float d = a->p[0] - s;   /* -(s - p): exact (same binade) */
    a->p[0] = s;
    a->p[1] = a->p[1] + (x + d);   /* x - q_0: exact, and exact in fold 1 */
}
SL_RSUM_DEFINE(f64, double, uint64_t, 53, 40, -1022, 1023, 51, 32, 20, 0x7ffu, 0x7ff00000u, SL_RSUM_K)
/* One product a b into the float64 accumulator value by value: p = a b and, two set, the
 * TwoProduct tail fma(a, b, -p) where p is finite and nonzero and the tail is nonzero (the pieces
 * of dot's and norm2's `reproducible`: their twins, and their kernels' edge values and leftover
 * vectors). */
SL_RSUM_HD void sl_rsum_take_product1_f64(sl_rsum_thr_f64 *acc, double a, double b, int two)
{
    const double p = a * b;
    sl_rsum_take1_f64(acc, p);
    if (two && p != 0.0 && isfinite(p)) {
        const double lo = fma(a, b, -p);
        if (lo != 0.0) sl_rsum_take1_f64(acc, lo);
    }
}
/* SL_RSUM_GROUP products a[k] b[k] into the float64 accumulator through the group path (one
 * capacity check, then straight-line deposits): each p = a b and, two set, the TwoProduct tail
 * fma(a, b, -p) where p is finite and nonzero and the tail is nonzero, -0 in the tail's place
 * otherwise. -0 changes no binned sum (a sum of -0s stays -0), so the sums are those of
 * sl_rsum_take1 on every p and every nonzero tail: the twins' of dot and norm2 `reproducible`. */
SL_RSUM_HD void sl_rsum_take_products_f64(sl_rsum_thr_f64 *acc, const double *a, const double *b, int two)
{
    double p[SL_RSUM_GROUP], t[SL_RSUM_GROUP];
    for (int k = 0; k < SL_RSUM_GROUP; k++) {
        p[k] = a[k] * b[k];
        const double l = p[k] != 0.0 && p[k] - p[k] == 0.0 ? fma(a[k], b[k], -p[k]) : 0.0;
        t[k] = l != 0.0 ? l : -0.0;
    }
    sl_rsum_take_group_f64(acc, p);
    if (two) sl_rsum_take_group_f64(acc, t);
}

/* superacc's float64 path: 4 folds, so that the certified rounding decides ill-conditioned sums
 * too (3 folds keep 80-120 bits below the largest input: not enough for cond 1e16) */
SL_RSUM_DEFINE(f64k4, double, uint64_t, 53, 40, -1022, 1023, 51, 32, 20, 0x7ffu, 0x7ff00000u, 4)
/* superacc's float64 first step on one accumulator (its state depends on neither the order nor
 * the split of the inputs, so this is the kernel's decision too): 1 when the 4-fold binned
 * state of x[0..n) certifies the correctly rounded sum, written to *r; 0 when superacc takes
 * its exact fallback. */
SL_RSUM_HD int sl_rsum_certify_f64(const double *x, uint64_t n, double *r)
{
    sl_rsum_thr_f64k4 a;
    sl_rsum_init_f64k4(&a);
    for (uint64_t i = 0; i < n; i++) sl_rsum_take1_f64k4(&a, x[i]);
    sl_rsum_state st;
    sl_rsum_to_state_f64k4(&a, &st);
    return sl_rsum_state_certify_f64(&st, n, r);
}

#ifdef __cplusplus
}
#endif
#endif

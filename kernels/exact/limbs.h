/* exact/limbs.h: the exact fixed-point superaccumulator, host and device: limb layout, the limb
 * arithmetic (split, normalise, round once, to nearest even or to odd) and the limb state with
 * its exact merge. Used by `superacc` (superacc/) and by the binned sums' final rounding
 * (exact/binned.h). Internal to kernels/; shares nothing with reference/.
 * Assumptions: IEEE 754 binary32/binary64, two's-complement int64_t with arithmetic right
 * shift of negative values (gcc, clang, nvcc), round to nearest even in the GPU's adds.
 *
 * Layout: the exact sum is an integer M times 2^-SCALE, SCALE = 149 (float32) or 1074
 * (float64): the smallest subnormal is 1. M is held in L limbs of 32 bits each, limb i
 * weighting 2^(32 i), stored in signed 64-bit integers so that carries can be deferred: an
 * input adds at most one chunk of magnitude < 2^32 to each limb, so a limb can take 2^30 adds
 * between normalisations with room to spare. Normalising propagates carries so that limbs
 * 0..L-2 lie in [0, 2^32) and limb L-1 holds the signed rest.
 *   float32: 12 limbs = 384 bits (largest input bit 277, + 40 bits for n < 2^40, + sign).
 *   float64: 68 limbs = 2176 bits (largest input bit 2097, + 40 bits, + sign). */
#ifndef SL_EXACT_LIMBS_H
#define SL_EXACT_LIMBS_H
#include <math.h>
#include <string.h>
#include "sl_variants.h"

#define SL_SACC_LIMBS_F32 12
#define SL_SACC_LIMBS_F64 68
#define SL_SACC_LIMBS_MAX 68
#define SL_SACC_SCALE_F32 149
#define SL_SACC_SCALE_F64 1074
#define SL_SACC_MAX_N ((uint64_t)1 << 40)  /* n < 2^40, the registry's limit */
/* Adds per limb allowed between normalisations (each < 2^32 in magnitude: sum < 2^62). */
#define SL_SACC_NORM_EVERY ((uint64_t)1 << 30)
/* A block's elements between normalisations of its shared limbs in the one-launch kernels
 * (exact/bins.cuh's tile loop, superacc64.cu). */
#define SACC_BLOCK_ELEMS_PER_NORM (1u << 29)

/* Flags carried beside the limbs (ORed across threads, blocks and chunks). */
#define SL_SACC_NAN 1u     /* a NaN input */
#define SL_SACC_PINF 2u    /* a +Inf input */
#define SL_SACC_NINF 4u    /* a -Inf input */
#define SL_SACC_ANYPOS 8u  /* an input other than -0 (so a zero sum is +0): superacc sets it for an
                             input with its sign bit clear, reproducible for any input other
                             than -0; the sum is -0 only when every input is -0 either way */

#ifdef __CUDACC__
#define SL_SACC_HD static __host__ __device__ __forceinline__
#else
#define SL_SACC_HD static inline
#endif

/* 2^k as a double, -1022 <= k <= 1023 (a normal double, built from its bits). */
SL_SACC_HD double sl_pow2_f64(int k)
{
    const uint64_t b = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline int sl_sacc_limbs(sl_dtype dt) { return dt == SL_F64 ? SL_SACC_LIMBS_F64 : SL_SACC_LIMBS_F32; }

/* Splits a finite double d (a multiple of 2^-scale, so no bit is below limb 0) into at most
 * three 32-bit chunks: d = sign * (c[0] + c[1] 2^32 + c[2] 2^64) * 2^(32 *idx - scale).
 * Returns 0 for d = 0 (nothing to add), else 1 with *neg the sign. */
SL_SACC_HD int sl_sacc_split_f64(double d, int scale, int *idx, uint64_t c[3], int *neg)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & (((uint64_t)1 << 52) - 1);
    if (m == 0 && e == 0) return 0;
    if (e) m |= (uint64_t)1 << 52; else e = 1;
    int pos = e - 1075 + scale;          /* bit position of m's lowest bit in M */
    if (pos < 0) {                       /* only trailing zeros lie below 2^-scale */
        m = (-pos >= 64) ? 0 : m >> -pos;
        pos = 0;
    }
    int lo = pos & 31;
    *idx = pos >> 5;
    *neg = (int)(bits >> 63);
    c[0] = (m << lo) & 0xffffffffu;
    uint64_t rest = m >> (32 - lo);      /* lo <= 31: a shift of 1..32 */
    c[1] = rest & 0xffffffffu;
    c[2] = rest >> 32;
    return 1;
}

/* Carries limbs 0..L-2 into [0, 2^32); limb L-1 keeps the signed rest. */
SL_SACC_HD void sl_sacc_normalise(int64_t *limb, int L)
{
    for (int i = 0; i < L - 1; i++) {
        int64_t carry = limb[i] >> 32;   /* floor division by 2^32 (arithmetic shift) */
        limb[i] -= (int64_t)((uint64_t)carry << 32);
        limb[i + 1] += carry;
    }
}

/* Bits [pos, pos + cnt) of the normalised non-negative limbs, cnt <= 60. */
SL_SACC_HD uint64_t sl_sacc_bits(const int64_t *limb, int L, int pos, int cnt)
{
    int w = pos >> 5, off = pos & 31;
    uint64_t w0 = w < L ? (uint64_t)limb[w] : 0;
    uint64_t w1 = w + 1 < L ? (uint64_t)limb[w + 1] : 0;
    uint64_t w2 = w + 2 < L ? (uint64_t)limb[w + 2] : 0;
    uint64_t r = ((w0 | (w1 << 32)) >> off) | (off ? w2 << (64 - off) : 0);
    return r & (((uint64_t)1 << cnt) - 1);
}

/* 1 when any of bits [0, pos) of the normalised non-negative limbs is set. */
SL_SACC_HD int sl_sacc_any_below(const int64_t *limb, int pos)
{
    int w = pos >> 5, off = pos & 31;
    for (int i = 0; i < w; i++)
        if (limb[i]) return 1;
    return off && ((uint64_t)limb[w] & (((uint64_t)1 << off) - 1)) != 0;
}

/* The roundings' shared steps. sl_sacc_special: the result's bits when the input flags decide it
 * (any NaN, or +Inf with -Inf: NaN; a lone Inf kind: that Inf) in float64 (f64) or float32;
 * returns 1 then. sl_sacc_magnitude: the limbs normalised, negated for a negative sum (*sign = 1),
 * normalised again; returns the highest nonzero limb, -1 for an exact zero. sl_sacc_of_bits: the
 * bits as the double holding the value (float32 bits widened). */
SL_SACC_HD int sl_sacc_special(unsigned flags, int f64, uint64_t *rbits)
{
    if ((flags & SL_SACC_NAN) || (flags & (SL_SACC_PINF | SL_SACC_NINF)) == (SL_SACC_PINF | SL_SACC_NINF))
        *rbits = f64 ? 0x7ff8000000000000u : 0x7fc00000u;
    else if (flags & SL_SACC_PINF)
        *rbits = f64 ? 0x7ff0000000000000u : 0x7f800000u;
    else if (flags & SL_SACC_NINF)
        *rbits = f64 ? 0xfff0000000000000u : 0xff800000u;
    else
        return 0;
    return 1;
}
SL_SACC_HD int sl_sacc_magnitude(int64_t *limb, int L, uint64_t *sign)
{
    sl_sacc_normalise(limb, L);
    *sign = 0;
    if (limb[L - 1] < 0) {
        for (int i = 0; i < L; i++) limb[i] = -limb[i];
        sl_sacc_normalise(limb, L);
        *sign = 1;
    }
    int t = L - 1;
    while (t >= 0 && limb[t] == 0) t--;
    return t;
}
SL_SACC_HD double sl_sacc_of_bits(uint64_t rbits, int f64)
{
    if (f64) {
        double d;
        memcpy(&d, &rbits, sizeof d);
        return d;
    }
    uint32_t b32 = (uint32_t)rbits;
    float f;
    memcpy(&f, &b32, sizeof f);
    return (double)f;
}

/* sl_sacc_round_mode(..., rto = 1): the same, rounded to odd instead of to nearest even (the
 * last bit ORed with every bit below it): a float32 rounded to odd and then rounded once to
 * nearest even in float16 or bfloat16 (8 or 11 bits, at least 2 fewer than 24, and the float32
 * subnormal grid finer than both) is the exact sum correctly rounded there, overflow included:
 * the 16-bit sums of superacc on float16/bfloat16 input are rounded so.
 * sl_sacc_round_at: the exact sum held in limb[0..L), limb i weighting 2^(32 (i + off)) (a
 * window of M: its bits below 32 off are all 0; off >= 0), rounded as sl_sacc_round. Fewer limbs
 * to normalise when the sum is known to lie in a window (the binned sums' final rounding).
 * sl_sacc_round: the exact sum held in limb[0..L) (any carry state, |limb| < 2^62) with the input flags,
 * rounded once to float32 (returned as the double holding it) or float64: nearest, ties to
 * even; subnormal results; overflow to +-Inf; any NaN or +Inf with -Inf -> NaN; a lone Inf
 * kind -> that Inf; exact zero -> -0 only when no input had its sign bit clear.
 * The limbs are normalised (and negated for a negative sum) in place. sl_sacc_round_scaled
 * below shares its steps (sl_sacc_special, sl_sacc_magnitude, sl_sacc_of_bits). */
SL_SACC_HD double sl_sacc_round_mode(int64_t *limb, int L, int off, sl_dtype dt, unsigned flags,
                                     int rto)
{
    const int f64 = dt == SL_F64;
    uint64_t rbits;
    if (!sl_sacc_special(flags, f64, &rbits)) {
        uint64_t sign;
        const int t = sl_sacc_magnitude(limb, L, &sign);
        if (t < 0) {                                   /* exact zero */
            rbits = 0;
            sign = (flags & SL_SACC_ANYPOS) ? 0 : 1;
        } else {
            const int p = f64 ? 53 : 24;               /* precision */
            const int emax_field = f64 ? 2046 : 254;   /* largest biased exponent */
            uint64_t top = (uint64_t)limb[t];          /* < 2^63 after normalising */
            int h = 32 * t;                            /* index of M's highest set bit */
            while (top >>= 1) h++;
            int s = h - (p - 1);                       /* M's bits below s are rounded off */
            int sa = s + 32 * off;                     /* s in M's own bit positions */
            if (sa < 0) { sa = 0; s = -32 * off; }
            if (sa > emax_field) {
                rbits = f64 ? 0x7ff0000000000000u : 0x7f800000u;
            } else {
                uint64_t q;
                if (s >= 0) {
                    q = sl_sacc_bits(limb, L, s, p);
                    if (rto) {                         /* round to odd: sticky into the lsb */
                        if (s > 0 && (sl_sacc_bits(limb, L, s - 1, 1) || sl_sacc_any_below(limb, s - 1)))
                            q |= 1u;
                    } else if (sa > 0 && s > 0 && sl_sacc_bits(limb, L, s - 1, 1) &&
                               ((q & 1) || sl_sacc_any_below(limb, s - 1)))
                        q++;
                } else {                               /* below the window all bits are 0 */
                    q = sl_sacc_bits(limb, L, 0, p + s) << -s;
                }
                /* value = q 2^(sa - SCALE): the biased exponent is sa + 1 when q has its
                 * implicit bit (q in [2^(p-1), 2^p]); a rounding carry moves it up by one. */
                rbits = ((uint64_t)sa << (p - 1)) + q;
                uint64_t inf = f64 ? 0x7ff0000000000000u : 0x7f800000u;
                if (rbits >= inf) rbits = inf;
            }
        }
        rbits |= sign << (f64 ? 63 : 31);
    }
    return sl_sacc_of_bits(rbits, f64);
}

SL_SACC_HD double sl_sacc_round_at(int64_t *limb, int L, int off, sl_dtype dt, unsigned flags)
{
    return sl_sacc_round_mode(limb, L, off, dt, flags, 0);
}
SL_SACC_HD double sl_sacc_round(int64_t *limb, int L, sl_dtype dt, unsigned flags)
{
    return sl_sacc_round_at(limb, L, 0, dt, flags);
}

/* The exact sum held in float32's layout (limb[0..SL_SACC_LIMBS_F32), units of 2^-149, any carry
 * state with |limb| < 2^62) rounded once to float64, as sl_sacc_round with dt = SL_F64 would on
 * float64's layout (units of 2^-1074): the sum moved 925 = 28 * 32 + 29 bits up, into 13 limbs
 * from limb 28 on. Normalises limb in place. reproducible lse's one pass (lse/lse.cu, lse.c). */
SL_SACC_HD double sl_sacc_round_f32_as_f64(int64_t *limb, unsigned flags)
{
    enum { L = SL_SACC_LIMBS_F32 };
    int64_t w[L + 1];
    sl_sacc_normalise(limb, L);                      /* limbs 0 .. L-2 in [0, 2^32) */
    w[0] = (int64_t)(((uint64_t)limb[0] << 29) & 0xffffffffu);
    for (int i = 1; i < L; i++)
        w[i] = (int64_t)((((uint64_t)limb[i] << 29) & 0xffffffffu) | ((uint64_t)limb[i - 1] >> 3));
    w[L] = limb[L - 1] >> 3;                         /* the signed rest (arithmetic shift) */
    return sl_sacc_round_at(w, L + 1, 28, SL_F64, flags);
}

/* Unrolled loops in the device code of the register roundings (exact/limbs.h, superacc.h). */
#if defined(__CUDA_ARCH__)
#define SL_SACC_UNROLL _Pragma("unroll")
#else
#define SL_SACC_UNROLL
#endif

/* The register roundings' first step: the float32 limbs (any carry state with |limb| < 2^62 and
 * |sum| < 2^350) normalised into 32-bit words n[] as in sl_sacc_normalise, then negated when the
 * signed rest on top is negative (words in [0, 2^32) again): the sum's magnitude. Returns 1 for a
 * negative sum. Compile-time indices only (registers on the device). */
SL_SACC_HD uint32_t sl_sacc_f32_magnitude(const int64_t *limb, uint32_t *n)
{
    enum { L = SL_SACC_LIMBS_F32 };
    int64_t c = 0;
    SL_SACC_UNROLL
    for (int i = 0; i < L - 1; i++) {
        const int64_t v = limb[i] + c;
        n[i] = (uint32_t)v;
        c = v >> 32;                                 /* floor division by 2^32 */
    }
    const int64_t rest = limb[L - 1] + c;
    if (rest >= 0) {
        n[L - 1] = (uint32_t)rest;
        return 0;
    }
    c = 0;
    SL_SACC_UNROLL
    for (int i = 0; i < L - 1; i++) {
        const int64_t v = c - (int64_t)n[i];
        n[i] = (uint32_t)v;
        c = v >> 32;
    }
    n[L - 1] = (uint32_t)(c - rest);
    return 1;
}

/* The float32 limbs' exact sum rounded once to float64 in registers: bit for bit the result of
 * exact/limbs.h's sl_sacc_round_f32_as_f64 (tests/tsuperacc.c compares them on random and edge
 * states), without its data-dependent indexing (reproducible lse's one pass rounds once a launch,
 * its rows once a row). limb, flags: as sl_sacc_round_f32_regs; read, not changed. A float32
 * layout sum lies in [2^-149, 2^201) when not 0: a normal float64, never an overflow. Steps: the
 * limbs normalised (negated for a negative sum), the highest nonzero limb t found and limbs t,
 * t - 1, t - 2 taken as a window X = hi 2^32 + lo (hi = 64 bits, lo = 32) with every lower limb
 * ORed into a sticky flag; X's 53 bits from its highest set bit, the round bit and the sticky
 * bit give the float64 pattern. */
SL_SACC_HD double sl_sacc_round_f32_as_f64_regs(const int64_t *limb, unsigned flags)
{
    enum { L = SL_SACC_LIMBS_F32 };
    uint64_t rbits;
    if ((flags & SL_SACC_NAN) || (flags & (SL_SACC_PINF | SL_SACC_NINF)) == (SL_SACC_PINF | SL_SACC_NINF))
        rbits = 0x7ff8000000000000ull;
    else if (flags & SL_SACC_PINF)
        rbits = 0x7ff0000000000000ull;
    else if (flags & SL_SACC_NINF)
        rbits = 0xfff0000000000000ull;
    else {
        uint32_t n[L];
        uint64_t sign = sl_sacc_f32_magnitude(limb, n);
        /* t, a2 = n[t], a1 = n[t - 1], a0 = n[t - 2] (0 below limb 0), below: a nonzero limb
         * under t - 2; p1 = n[i - 1], p2 = n[i - 2], acc = OR of n[0 .. i-3] */
        int t = -1, below = 0;
        uint32_t a2 = 0, a1 = 0, a0 = 0, p1 = 0, p2 = 0, acc = 0;
        SL_SACC_UNROLL
        for (int i = 0; i < L; i++) {
            if (n[i] != 0) {
                t = i;
                a2 = n[i];
                a1 = p1;
                a0 = p2;
                below = acc != 0;
            }
            acc |= p2;
            p2 = p1;
            p1 = n[i];
        }
        if (t < 0) {                                   /* exact zero */
            rbits = 0;
            sign = (flags & SL_SACC_ANYPOS) ? 0u : 1u;
        } else {
            /* X = hi 2^32 + lo: bits 32 (t - 2) .. 32 t + 31 of M */
            const uint64_t hi = ((uint64_t)a2 << 32) | a1, lo = a0;
#if defined(__CUDA_ARCH__)
            const int hx = 95 - __clzll((long long)hi); /* X's highest set bit: 64 .. 95 */
#else
            const int hx = 95 - __builtin_clzll(hi);
#endif
            const int sx = hx - 52;                    /* X's bits below sx are rounded off: 12 .. 43 */
            uint64_t q;
            uint32_t rb;
            int st;
            if (sx <= 32) {
                q = (hi << (32 - sx)) | (lo >> sx);
                rb = (uint32_t)(lo >> (sx - 1)) & 1u;
                st = (lo & (((uint64_t)1 << (sx - 1)) - 1)) != 0;
            } else {
                q = hi >> (sx - 32);
                rb = (uint32_t)(hi >> (sx - 33)) & 1u;
                st = (hi & (((uint64_t)1 << (sx - 33)) - 1)) != 0 || lo != 0;
            }
            if (rb && ((q & 1u) || st || below)) q++;
            /* value q 2^E, E = 32 (t - 2) + sx - 149; q in [2^52, 2^53]: the exponent field
             * E + 1075 (a rounding carry adds one) */
            rbits = ((uint64_t)(32 * (t - 2) + sx - 149 + 1074) << 52) + q;
        }
        rbits |= sign << 63;
    }
    double d;
    memcpy(&d, &rbits, sizeof d);
    return d;
}

/* sl_sacc_round_scaled: the exact sum held in limb[0..L) (any carry state, |limb| < 2^62), limb
 * i weighting 2^(32 i + lsb) for any lsb (bits below the format's least subnormal too: the dot
 * product's scaled windows), rounded once as sl_sacc_round_mode (rto, the flags, the zero sign),
 * to float32 or float64; a nonzero sum that rounds to zero gives the zero of its sign. For lsb =
 * 32 off - SCALE (off >= 0) it is sl_sacc_round_mode. Intentional copy of sl_sacc_round_mode's
 * prologue (specials, normalising, sign, top limb) and epilogue (the bits as a double): sharing
 * them through helpers changes the PTX of the kernels that call sl_sacc_round_mode (reproducible's
 * register allocation); a change to either function's rules applies to both. The limbs are
 * normalised (and negated for a negative sum) in place. */
SL_SACC_HD double sl_sacc_round_scaled(int64_t *limb, int L, int lsb, sl_dtype dt, unsigned flags,
                                       int rto)
{
    const int f64 = dt == SL_F64;
    const uint64_t inf = f64 ? 0x7ff0000000000000u : 0x7f800000u;
    uint64_t rbits;
    if (!sl_sacc_special(flags, f64, &rbits)) {
        uint64_t sign;
        const int t = sl_sacc_magnitude(limb, L, &sign);
        if (t < 0) {                                   /* exact zero */
            rbits = 0;
            sign = (flags & SL_SACC_ANYPOS) ? 0 : 1;
        } else {
            const int p = f64 ? 53 : 24;
            const int emax_field = f64 ? 2046 : 254;
            const int m0 = lsb + (f64 ? SL_SACC_SCALE_F64 : SL_SACC_SCALE_F32);   /* limb bit 0 in M's bits */
            uint64_t top = (uint64_t)limb[t];
            int h = 32 * t;                            /* the highest set bit */
            while (top >>= 1) h++;
            int s = h - (p - 1);                       /* bits below s are rounded off */
            int sa = s + m0;                           /* s in M's bits (units of the least subnormal) */
            if (sa < 0) { sa = 0; s = -m0; }          /* subnormal: rounded at M's bit 0 */
            if (sa > emax_field) {
                rbits = inf;
            } else {
                uint64_t q;
                if (s > 0) {
                    q = sl_sacc_bits(limb, L, s, p);   /* 0 when s lies above every set bit */
                    const int rb = s - 1 <= h && sl_sacc_bits(limb, L, s - 1, 1);
                    const int st = s - 1 > h || sl_sacc_any_below(limb, s - 1);
                    if (rto) q |= (uint64_t)(rb | st);
                    else if (rb && ((q & 1) || st)) q++;
                } else {                               /* nothing below s: exact */
                    q = sl_sacc_bits(limb, L, 0, p + s) << -s;
                }
                rbits = ((uint64_t)sa << (p - 1)) + q; /* as sl_sacc_round_mode */
                if (rbits >= inf) rbits = inf;
            }
        }
        rbits |= sign << (f64 ? 63 : 31);
    }
    return sl_sacc_of_bits(rbits, f64);
}

/* ---- the host-side state (the twin's accumulation; merged across processes) ---------------
 * Limbs (int64, deferred carries) and the flags of the inputs added so far. sl_sacc_state_add
 * (superacc/superacc.h) is the twin's exact accumulation; merging adds normalised limbs and ORs
 * the flags, exactly, in any order; rounding a merged state equals the twin (and the kernel) on
 * the whole input. Saved form (sl_sacc_state_save): normalised limbs + flags: canonical bytes. */
typedef struct {
    int64_t limb[SL_SACC_LIMBS_MAX];
    uint32_t flags;
    uint32_t dt;               /* sl_dtype of the inputs */
    uint64_t since_norm;       /* adds per limb since the last normalisation */
    uint64_t n;
} sl_sacc_state;
#define SL_SACC_SAVED_BYTES(dt) ((size_t)(sl_sacc_limbs(dt) + 2) * 8)   /* limbs, flags, n */

static inline void sl_sacc_state_init(sl_sacc_state *st, sl_dtype dt)
{
    memset(st, 0, sizeof *st);
    st->dt = (uint32_t)dt;
}
/* Canonical bytes of the state (normalised limbs, flags, n): SL_SACC_SAVED_BYTES(dt). */
static inline void sl_sacc_state_save(const sl_sacc_state *st, void *buf)
{
    const int L = sl_sacc_limbs((sl_dtype)st->dt);
    int64_t w[SL_SACC_LIMBS_MAX + 2];
    memcpy(w, st->limb, sizeof(int64_t) * (size_t)L);
    sl_sacc_normalise(w, L);
    w[L] = (int64_t)st->flags;
    w[L + 1] = (int64_t)st->n;
    memcpy(buf, w, sizeof(int64_t) * (size_t)(L + 2));
}
/* dst += src on saved bytes (both of dt): exact, commutative, associative. */
static inline void sl_sacc_saved_merge(void *dst, const void *src, sl_dtype dt)
{
    const int L = sl_sacc_limbs(dt);
    int64_t d[SL_SACC_LIMBS_MAX + 2], s[SL_SACC_LIMBS_MAX + 2];
    memcpy(d, dst, sizeof(int64_t) * (size_t)(L + 2));
    memcpy(s, src, sizeof(int64_t) * (size_t)(L + 2));
    for (int i = 0; i < L; i++) d[i] += s[i];   /* normalised limbs: |sum| < 2^34 */
    sl_sacc_normalise(d, L);
    d[L] = (int64_t)((uint64_t)d[L] | (uint64_t)s[L]);
    d[L + 1] += s[L + 1];
    memcpy(dst, d, sizeof(int64_t) * (size_t)(L + 2));
}
/* The saved state rounded once (as sl_sacc_round): the twin's result on the whole input. */
static inline double sl_sacc_saved_round(const void *buf, sl_dtype dt)
{
    const int L = sl_sacc_limbs(dt);
    int64_t w[SL_SACC_LIMBS_MAX + 2];
    memcpy(w, buf, sizeof(int64_t) * (size_t)(L + 2));
    if (w[L + 1] == 0) return 0.0;                 /* n = 0: +0, as the twin */
    return sl_sacc_round(w, L, dt, (unsigned)w[L]);
}

#endif

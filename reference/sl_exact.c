/* sl_exact.c: the exact sum of float32/float64 arrays (a fixed-point superaccumulator with
 * per-exponent bins) and its correct rounding to binary32/binary64. See sl_exact_impl.h.
 *
 * Implementation assumptions: IEEE 754 binary32/binary64 with the same byte order as the
 * 32/64-bit integers; round to nearest even as the current rounding mode (only used by
 * ldexp of an exactly representable value, so in fact any mode works); two's-complement
 * integers with arithmetic right shift of negative values; 64-bit long long.
 *
 * Exactness of the fast path (below, "the fast path") also assumes: double arithmetic with
 * FLT_EVAL_METHOD 0 (SSE2 on x86-64: each + rounds once to binary64, never to a wider format)
 * and subnormals not flushed to zero (no FTZ/DAZ); both are what C11 on x86-64 gives.
 *
 * Performance considerations: pieces of >= FAST_MIN_N values take the fast path. float64
 * (with AVX2; x86-64 without it uses the bins fast path): blocks of 2048 whose exponents span
 * <= 69 binades take the window path (a few double additions per value into grid-aligned
 * accumulators, no memory writes; a block that fits the previous block's plan is read only
 * once); runs of blocks spanning >= 256 binades take the integer bins (one 8-byte integer
 * add per value into 4096 per-(sign, exponent) bins, no floating-point operation), the others
 * the bins fast path (one 16-byte add per value, 4 at a time in AVX2 registers). float32
 * (with AVX2): blocks of 2048 whose exponents span <= 18 binades are
 * scanned and summed in one pass (plain double adds of x and |x|, 16 floats per step into
 * 4 + 4 vectors of 4 doubles, no memory writes); wider blocks take the bins fast path. The bins fast path
 * (float32 wide blocks, both formats without AVX2): one double add per float32 value, one
 * 16-byte add per float64 value, into 8 independent sets of bins, branch-free; specials and
 * -0 checked once per block. Shorter pieces and blocks holding a NaN/Inf take the bins path (one load, a few integer ops and one (f32) or two (f64)
 * read-modify-writes into per-exponent integer bins). A run of values in one bin is limited
 * by store-to-load forwarding latency, which the sets divide. Folding the bins into the
 * fixed-point limbs costs O(bins) per block or rounding. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "sl_exact_impl.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the fast path of sl_exact.c needs FLT_EVAL_METHOD == 0 (each double + rounded once to binary64)"
#endif

#define SIGN64 0x8000000000000000ull
#define FRAC64 0x000fffffffffffffull
#define MASK26 0x3ffffffull
#define SIGN32 0x80000000u
#define FRAC32 0x007fffffu

void sl_exact_fatal(const char *file, int line, const char *what)
{
    fprintf(stderr, "sumlab reference: internal exactness failure at %s:%d: %s\n", file, line, what);
    abort();
}

sl_exact *sl_exact_new(void)
{
    sl_exact *acc = malloc(sizeof *acc);
    if (!acc) return NULL;
    memset(acc, 0, sizeof *acc);
    acc->flush64 = SL_EXACT_FLUSH_F64;
    acc->flush32 = SL_EXACT_FLUSH_F32;
    return acc;
}

void sl_exact_free(sl_exact *acc) { free(acc); }

void sl_exact_reset(sl_exact *acc)
{
    if (acc->used64) memset(acc->bin64, 0, sizeof acc->bin64);
    if (acc->used32) memset(acc->bin32, 0, sizeof acc->bin32);
    memset(acc->chunk, 0, sizeof acc->chunk);
    memset(acc->achunk, 0, sizeof acc->achunk);
    acc->since64 = acc->since32 = acc->n = 0;
    acc->nan = acc->pinf = acc->ninf = 0;
    acc->notnegzero = 0;
    acc->used64 = acc->used32 = 0;
}

void sl_exact_set_flush_interval(sl_exact *acc, uint64_t every)
{
    if (every < 1) every = 1;
    acc->flush64 = every < SL_EXACT_FLUSH_F64 ? every : SL_EXACT_FLUSH_F64;
    acc->flush32 = every < SL_EXACT_FLUSH_F32 ? every : SL_EXACT_FLUSH_F32;
}

/* ---- fixed-point limbs ---------------------------------------------------------------- */

/* Adds (or subtracts) b * 2^pos units, b < 2^32. */
static void add_piece(int64_t *ch, uint64_t b, int pos, int neg)
{
    int c = pos >> 5;
    uint64_t v = b << (pos & 31); /* < 2^63 */
    int64_t lo = (int64_t)(v & 0xffffffffu), hi = (int64_t)(v >> 32);
    if (neg) {
        ch[c] -= lo;
        ch[c + 1] -= hi;
    } else {
        ch[c] += lo;
        ch[c + 1] += hi;
    }
}

static void add_u64(int64_t *ch, uint64_t b, int pos, int neg)
{
    add_piece(ch, b & 0xffffffffu, pos, neg);
    add_piece(ch, b >> 32, pos + 32, neg);
}

/* Carry propagation: limbs 0..N-2 into [0, 2^32), the top limb keeps the sign. */
static void normalise(int64_t *ch)
{
    for (int i = 0; i < SL_EXACT_NCHUNK - 1; i++) {
        int64_t carry = ch[i] >> 32; /* arithmetic shift: floor(ch[i] / 2^32) */
        ch[i] &= 0xffffffff;
        ch[i + 1] += carry;
    }
}

/* Position (in units of 2^-1074) of significand bit 0 for a biased exponent e. */
static int pos64(int e) { return e ? e - 1 : 0; }
static int pos32(int e) { return (e ? e : 1) + 924; }

/* Folds the bins into ch (signed sum) and ach (sum of magnitudes), either may be NULL. */
static void fold_bins(const sl_exact *acc, int64_t *ch, int64_t *ach)
{
    if (acc->used64) {
        for (int i = 0; i < SL_EXACT_F64_BINS; i++) {
            uint64_t hi = acc->bin64[2 * i], lo = acc->bin64[2 * i + 1];
            if (!(hi | lo)) continue;
            int e = i & 0x7ff, neg = i >> 11, p = pos64(e);
            if (ch) {
                add_u64(ch, lo, p, neg);
                add_u64(ch, hi, p + 26, neg);
            }
            if (ach) {
                add_u64(ach, lo, p, 0);
                add_u64(ach, hi, p + 26, 0);
            }
        }
    }
    if (acc->used32) {
        for (int i = 0; i < SL_EXACT_F32_BINS; i++) {
            uint64_t b = acc->bin32[i];
            if (!b) continue;
            int e = i & 0xff, neg = i >> 8, p = pos32(e);
            if (ch) add_u64(ch, b, p, neg);
            if (ach) add_u64(ach, b, p, 0);
        }
    }
}

static void flush(sl_exact *acc)
{
    fold_bins(acc, acc->chunk, acc->achunk);
    normalise(acc->chunk);
    normalise(acc->achunk);
    if (acc->used64) memset(acc->bin64, 0, sizeof acc->bin64);
    if (acc->used32) memset(acc->bin32, 0, sizeof acc->bin32);
    acc->since64 = acc->since32 = 0;
}

/* ---- accumulation ---------------------------------------------------------------------- */

static void special64(sl_exact *acc, uint64_t u)
{
    if (u & FRAC64) acc->nan++;
    else if (u & SIGN64) acc->ninf++;
    else acc->pinf++;
}

static void special32(sl_exact *acc, uint32_t u)
{
    if (u & FRAC32) acc->nan++;
    else if (u & SIGN32) acc->ninf++;
    else acc->pinf++;
}

/* One element, any class (the unrolled loops' slow path and tail). */
static inline void add1_f64(sl_exact *acc, uint64_t u)
{
    uint64_t top = u >> 52, e = top & 0x7ff;
    if (e == 0x7ff) {
        special64(acc, u);
        return;
    }
    uint64_t m = (u & FRAC64) | ((uint64_t)(e != 0) << 52);
    acc->bin64[2 * top] += m >> 26;
    acc->bin64[2 * top + 1] += m & MASK26;
}

static inline void add1_f32(sl_exact *acc, uint32_t u)
{
    uint32_t top = u >> 23, e = top & 0xff;
    if (e == 0xff) {
        special32(acc, u);
        return;
    }
    acc->bin32[top] += (u & FRAC32) | ((uint32_t)(e != 0) << 23);
}

/* Two elements per iteration (independent address computations overlap); a pair holding a
 * NaN/Inf takes the one-element path. Returns the OR of (bits XOR sign bit). */
static uint64_t add_f64(sl_exact *acc, const unsigned char *p, uint64_t n)
{
    uint64_t *bin = acc->bin64, orbits = 0, i = 0;
    for (; i + 2 <= n; i += 2) {
        uint64_t u0, u1;
        memcpy(&u0, p + 8 * i, 8);
        memcpy(&u1, p + 8 * i + 8, 8);
        orbits |= (u0 ^ SIGN64) | (u1 ^ SIGN64);
        uint64_t t0 = u0 >> 52, t1 = u1 >> 52, e0 = t0 & 0x7ff, e1 = t1 & 0x7ff;
        if ((e0 == 0x7ff) | (e1 == 0x7ff)) {
            add1_f64(acc, u0);
            add1_f64(acc, u1);
            continue;
        }
        uint64_t m0 = (u0 & FRAC64) | ((uint64_t)(e0 != 0) << 52);
        uint64_t m1 = (u1 & FRAC64) | ((uint64_t)(e1 != 0) << 52);
        bin[2 * t0] += m0 >> 26;
        bin[2 * t0 + 1] += m0 & MASK26;
        bin[2 * t1] += m1 >> 26;
        bin[2 * t1 + 1] += m1 & MASK26;
    }
    for (; i < n; i++) {
        uint64_t u;
        memcpy(&u, p + 8 * i, 8);
        orbits |= u ^ SIGN64;
        add1_f64(acc, u);
    }
    return orbits;
}

static uint64_t add_f32(sl_exact *acc, const unsigned char *p, uint64_t n)
{
    uint64_t *bin = acc->bin32, i = 0;
    uint32_t orbits = 0;
    for (; i + 2 <= n; i += 2) {
        uint32_t u0, u1;
        memcpy(&u0, p + 4 * i, 4);
        memcpy(&u1, p + 4 * i + 4, 4);
        orbits |= (u0 ^ SIGN32) | (u1 ^ SIGN32);
        uint32_t t0 = u0 >> 23, t1 = u1 >> 23, e0 = t0 & 0xff, e1 = t1 & 0xff;
        if ((e0 == 0xff) | (e1 == 0xff)) {
            add1_f32(acc, u0);
            add1_f32(acc, u1);
            continue;
        }
        bin[t0] += (u0 & FRAC32) | ((uint32_t)(e0 != 0) << 23);
        bin[t1] += (u1 & FRAC32) | ((uint32_t)(e1 != 0) << 23);
    }
    for (; i < n; i++) {
        uint32_t u;
        memcpy(&u, p + 4 * i, 4);
        orbits |= u ^ SIGN32;
        add1_f32(acc, u);
    }
    return orbits;
}

/* The bins path for any input (specials included), honouring the flush interval. */
static void add_bins(sl_exact *acc, const unsigned char *p, uint64_t n, sl_dtype dt)
{
    size_t sz = sl_dtype_size(dt);
    while (n) {
        uint64_t *since = dt == SL_F64 ? &acc->since64 : &acc->since32;
        uint64_t room = (dt == SL_F64 ? acc->flush64 : acc->flush32) - *since;
        uint64_t k = n < room ? n : room;
        if (dt == SL_F64) {
            acc->used64 = 1;
            acc->notnegzero |= add_f64(acc, p, k);
        } else {
            acc->used32 = 1;
            acc->notnegzero |= add_f32(acc, p, k);
        }
        *since += k;
        if (*since >= (dt == SL_F64 ? acc->flush64 : acc->flush32)) flush(acc);
        p += k * sz;
        n -= k;
    }
}

/* ---- the fast path: exact sums in per-exponent-group doubles ------------------------------ */
/* A block of values is summed into FAST_SETS independent sets of double bins (element i of
 * an unrolled group goes to set i % FAST_SETS, so a run of values in one bin forms
 * FAST_SETS short dependency chains instead of one long one), keyed by sign and the top bits
 * of the exponent. Every value in a bin is the same sign and an integer multiple of the
 * bin's unit u, and the block is short enough that every partial sum stays below 2^53 u:
 * every double addition is exact, in any order (the sets are added together exactly too).
 * At the end of a block each bin becomes an integer (< 2^53) added into the limbs.
 *  - float32 (one double add per value): bin = bits >> 27 (sign, exponent >> 4); a value of
 *    biased exponent e in [16k, 16k+15] is a multiple of u = 2^(max(16k,1) - 150) below
 *    2^39 u, so 2^14 values sum exactly (FAST32_BLOCK).
 *  - float64 (two): bin = bits >> 55 (sign, exponent >> 3); x = h + l with h = x with its 26
 *    low significand bits cleared and l = x - h (exact, same sign as x). For e in [8k, 8k+7]
 *    and u = 2^(max(8k,1) - 1075): h is a multiple of 2^26 u below 2^60 u (2^19 values sum
 *    exactly), l a multiple of u below 2^33 u (2^20). In the top groups (e >= 2024) h is
 *    scaled by 2^-64 (an integer subtraction from its exponent field, exact) so that its
 *    sums cannot overflow; the integer route also avoids slow subnormal multiplications.
 *  - specials: an Inf or NaN makes its bin non-finite (f32: Inf/NaN in double; f64:
 *    l = Inf - Inf or NaN) and nothing else can (no partial sum reaches the double range):
 *    such a block is discarded and summed again by the bins path.
 *  - -0: bins start at -0.0; a bin keeps the bits of -0.0 only while every value added to it
 *    was -0 (f64: l of -0 is +0, so an l bin is "all -0" when it is zero). */
#ifndef FAST_SETS
#define FAST_SETS 8
#endif
#define FAST_PAD 8                       /* doubles between sets: no 4 KiB aliasing */
#define FAST64_GROUPS 512
#define FAST64_BLOCK ((uint64_t)1 << 18)
#define FAST64_SCALED 253                /* groups 253..255 (e >= 2024): h scaled by 2^-64 */
/* Software prefetch SL_PREFETCH_AHEAD bytes ahead of the streaming loops below, into L2 (one
 * request per 64-byte line): on the Intel Xeon machines (this project's CI host and the H200
 * machine's CPU, one thread at ~6.5 GB/s from DRAM) the hardware prefetcher alone kept the exact
 * sum of 2^24 float64 at 1.5-1.6 ns a value against 1.2-1.3 for the plain loop; 8 KB ahead made
 * it 0.74-0.79 (4 KB: 0.82-0.87, 16 KB: 0.93-0.96; to L1 or non-temporal: 0.93-1.25). */
#define SL_PREFETCH_AHEAD 8192
#define SL_PREFETCH(q) __builtin_prefetch((const char *)(q) + SL_PREFETCH_AHEAD, 0, 1)
/* On Intel CPUs the float64 integer bins also prefetch SL_PREFETCH_L1_AHEAD bytes ahead into L1:
 * on the H200 machine's Xeon (2 MB L2, 300 MB L3) the loop with both prefetches took 0.75-0.81
 * ns a value of full-range float64 at 2^24 against 0.83-0.88 with the L2 prefetch alone
 * (0.65-0.67 against 0.77-1.19 at 2^18), three runs of one process each; on this project's
 * 2-core AMD EPYC (Zen 1) it made the reference 15 % slower at 2^18 and no faster at 2^24. */
#define SL_PREFETCH_L1_AHEAD 1024
#define SL_PREFETCH_L1(q) __builtin_prefetch((const char *)(q) + SL_PREFETCH_L1_AHEAD, 0, 3)

#define FAST32_GROUPS 32
#define FAST32_BLOCK ((uint64_t)1 << 14)
#define FAST_MIN_N 2048                  /* shorter pieces take the bins path */
#define HIMASK64 (~(uint64_t)0x3ffffff)
/* subtracted from h's bits in group g: 64 << 52 (a factor 2^-64) in groups 253..255, else 0 */
#define FAST64_ADJ(g) (((((g) & 255) + (256 - FAST64_SCALED)) >> 8) << 58)
#define NEGZERO64 SIGN64

typedef struct {
    _Alignas(64) double b64[FAST_SETS][2 * FAST64_GROUPS + FAST_PAD]; /* [2g] = h sums, [2g+1] = l sums */
    double b32[FAST_SETS][FAST32_GROUPS + FAST_PAD];
    _Alignas(64) uint64_t c64[4096];     /* the float64 integer bins (int_f64) */
} fast_bins;

typedef double v4d __attribute__((vector_size(32)));
typedef long long v4i __attribute__((vector_size(32)));
typedef unsigned long long v4u __attribute__((vector_size(32)));
typedef double v2d __attribute__((vector_size(16)));
/* Lanes i, j, k, l of the 8 lanes of (a, b): clang and GCC >= 12 spell it __builtin_shufflevector,
 * older GCC only __builtin_shuffle. */
#if defined(__clang__) || __GNUC__ >= 12
#define V4_SHUFFLE(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define V4_SHUFFLE(a, b, i, j, k, l) __builtin_shuffle(a, b, (v4i){i, j, k, l})
#endif
#define ALWAYS_INLINE static inline __attribute__((always_inline))

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double bitsd(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* A finished bin v (finite, a multiple of 2^(pos - 1074) after scaling by 2^extra, below
 * 2^53 of those units) as an integer count of those units: v's significand shifted by its
 * exponent's distance to pos (the sign is ignored). fold_value adds it into the signed
 * limbs (negated when neg) and the magnitudes'. */
static uint64_t bin_units(double v, int pos, int extra)
{
    uint64_t b = dbits(v) & ~SIGN64, e = b >> 52;
    uint64_t m = (b & FRAC64) | ((uint64_t)(e != 0) << 52);
    int sh = (e ? (int)e : 1) - 1 - pos + extra; /* v = m 2^(sh + pos - 1074 - extra) */
    uint64_t k;
    if (sh >= 0) {
        SL_EXACT_REQUIRE(sh <= 52 && (m << sh) >> sh == m && (m << sh) < ((uint64_t)1 << 53),
                         "fast bin is no integer below 2^53 units");
        k = m << sh;
    } else {
        SL_EXACT_REQUIRE(sh > -64 && !(m & (((uint64_t)1 << -sh) - 1)), "fast bin is no integer");
        k = m >> -sh;
    }
    return k;
}

static void fold_value(sl_exact *acc, double v, int pos, int extra, int neg)
{
    uint64_t k = bin_units(v, pos, extra);
    add_u64(acc->chunk, k, pos, neg);
    add_u64(acc->achunk, k, pos, 0);
}

/* The float64 bins loop, 4 values at a time in vector registers (h, l, the scaling of the
 * top groups and the bins' byte offsets for 4 values per instruction: the offsets from the
 * vector instead of a scalar reload of each value made full-range data 5-10 % faster on an
 * Intel Xeon), then one 16-byte read-modify-write per value;
 * value j of a group of 4 goes to set j (shorter chains when few groups are hit; runs spread
 * over many groups take the integer bins instead). Returns the number of values done (a
 * multiple of 4). */
ALWAYS_INLINE uint64_t fast64_body(fast_bins *fb, const unsigned char *p, uint64_t n)
{
    const v4i him = (v4i){0, 0, 0, 0} + (long long)HIMASK64, absm = (v4i){0, 0, 0, 0} + (long long)~SIGN64;
    const v4i top = (v4i){0, 0, 0, 0} + (long long)((uint64_t)(8 * FAST64_SCALED) << 52) - 1;
    uint64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        v4i u;
        if (!(i & 7)) SL_PREFETCH(p + 8 * i);
        memcpy(&u, p + 8 * i, 32);
        v4i hb = u & him;
        v4d l = (v4d)u - (v4d)hb;
        v4d hs = (v4d)(hb - (((u & absm) > top) & (long long)(64ull << 52)));
        v4d lo = V4_SHUFFLE(hs, l, 0, 4, 2, 6); /* h0 l0 h2 l2 */
        v4d hi = V4_SHUFFLE(hs, l, 1, 5, 3, 7); /* h1 l1 h3 l3 */
        v2d pr[4];
        memcpy(&pr[0], &lo, 16);
        memcpy(&pr[1], &hi, 16);
        memcpy(&pr[2], (const char *)&lo + 16, 16);
        memcpy(&pr[3], (const char *)&hi + 16, 16);
        const v4i off = (v4i)((v4u)u >> 51) & (long long)~15;
        for (int j = 0; j < 4; j++) {
            double *bp = (double *)(void *)((char *)fb->b64[j] + off[j]);
            v2d old;
            memcpy(&old, bp, 16);
            old += pr[j];
            memcpy(bp, &old, 16);
        }
    }
    return i;
}

#if defined(__GNUC__) && defined(__x86_64__)
#define WIN_HAVE_AVX2 1
__attribute__((target("avx2"))) static uint64_t fast64_avx2(fast_bins *fb, const unsigned char *p, uint64_t n)
{
    return fast64_body(fb, p, n);
}
#endif

/* float64 block (n <= FAST64_BLOCK). Returns 0, or -1 (nothing added) when it holds a special.
 * avx2: 0 for the SSE2/portable loop, else the AVX2 one (4 sets). */
static int fast_f64(sl_exact *acc, fast_bins *fb, const unsigned char *p, uint64_t n, int avx2)
{
    int sets = FAST_SETS; /* sets in use: the AVX2 loop leaves < 4 values (set 0) to the others */
#ifdef WIN_HAVE_AVX2
    if (avx2) sets = 4;
#endif
    for (int s = 0; s < sets; s++)
        for (int j = 0; j < 2 * FAST64_GROUPS; j++) fb->b64[s][j] = -0.0;
    uint64_t i = 0;
#ifdef WIN_HAVE_AVX2
    if (avx2) i = fast64_avx2(fb, p, n);
#endif
#ifdef __SSE2__
    /* one 16-byte read-modify-write of the bin pair (h, l) per value */
    const __m128i him = _mm_set1_epi64x((long long)HIMASK64);
    for (; i + FAST_SETS <= n; i += FAST_SETS) {
        for (int s = 0; s < FAST_SETS; s++) {
            uint64_t u;
            memcpy(&u, p + 8 * (i + s), 8);
            uint64_t g = u >> 55;
            __m128i x = _mm_loadl_epi64((const __m128i *)(const void *)(p + 8 * (i + s)));
            __m128i hb = _mm_and_si128(x, him);
            __m128d l = _mm_sub_sd(_mm_castsi128_pd(x), _mm_castsi128_pd(hb));
            __m128i hs = _mm_sub_epi64(hb, _mm_cvtsi64_si128((long long)FAST64_ADJ(g)));
            __m128d pair = _mm_unpacklo_pd(_mm_castsi128_pd(hs), l);
            double *bp = &fb->b64[s][2 * g];
            _mm_store_pd(bp, _mm_add_pd(_mm_load_pd(bp), pair));
        }
    }
#else
    for (; i + FAST_SETS <= n; i += FAST_SETS) {
        for (int s = 0; s < FAST_SETS; s++) {
            uint64_t u;
            memcpy(&u, p + 8 * (i + s), 8);
            uint64_t g = u >> 55, hb = u & HIMASK64;
            double *bp = &fb->b64[s][2 * g];
            bp[0] += bitsd(hb - FAST64_ADJ(g));
            bp[1] += bitsd(u) - bitsd(hb);
        }
    }
#endif
    for (; i < n; i++) {
        uint64_t u;
        memcpy(&u, p + 8 * i, 8);
        uint64_t g = u >> 55, hb = u & HIMASK64;
        fb->b64[0][2 * g] += bitsd(hb - FAST64_ADJ(g));
        fb->b64[0][2 * g + 1] += bitsd(u) - bitsd(hb);
    }
    double *b = fb->b64[0];
    for (int s = 1; s < sets; s++)
        for (int j = 0; j < 2 * FAST64_GROUPS; j++) b[j] += fb->b64[s][j];
    for (int j = 0; j < 2 * FAST64_GROUPS; j++)
        if (!isfinite(b[j])) return -1;
    uint64_t nz = 0;
    for (int g = 0; g < FAST64_GROUPS; g++) {
        double h = b[2 * g], l = b[2 * g + 1];
        nz |= (dbits(h) ^ NEGZERO64) | (l != 0.0);
        int k = g & 255, neg = g >> 8, pos = pos64(8 * k);
        if (h != 0.0) fold_value(acc, h, pos + 26, k >= FAST64_SCALED ? 64 : 0, neg);
        if (l != 0.0) fold_value(acc, l, pos, 0, neg);
    }
    acc->notnegzero |= nz;
    return 0;
}

/* float32 block (n <= FAST32_BLOCK). Returns 0, or -1 (nothing added) when it holds a special. */
static int fast_f32(sl_exact *acc, fast_bins *fb, const unsigned char *p, uint64_t n)
{
    for (int s = 0; s < FAST_SETS; s++)
        for (int j = 0; j < FAST32_GROUPS; j++) fb->b32[s][j] = -0.0;
    uint64_t i = 0;
    for (; i + FAST_SETS <= n; i += FAST_SETS) {
        if (!(i & 15)) SL_PREFETCH(p + 4 * i);
        for (int s = 0; s < FAST_SETS; s++) {
            uint32_t u;
            float f;
            memcpy(&u, p + 4 * (i + s), 4);
            memcpy(&f, &u, 4);
            fb->b32[s][u >> 27] += (double)f;
        }
    }
    for (; i < n; i++) {
        uint32_t u;
        float f;
        memcpy(&u, p + 4 * i, 4);
        memcpy(&f, &u, 4);
        fb->b32[0][u >> 27] += (double)f;
    }
    double *b = fb->b32[0];
    for (int s = 1; s < FAST_SETS; s++)
        for (int j = 0; j < FAST32_GROUPS; j++) b[j] += fb->b32[s][j];
    for (int j = 0; j < FAST32_GROUPS; j++)
        if (!isfinite(b[j])) return -1;
    uint64_t nz = 0;
    for (int g = 0; g < FAST32_GROUPS; g++) {
        nz |= dbits(b[g]) ^ NEGZERO64;
        if (b[g] != 0.0) fold_value(acc, b[g], pos32(16 * (g & 15)), 0, g >> 4);
    }
    acc->notnegzero |= nz;
    return 0;
}

/* ---- the float64 window path: exact sums in grid-aligned double accumulators -------------- */
/* A block of WIN_BLOCK values whose exponents span a limited range is summed with the
 * "extract on a grid" step of Rump's ExtractScalar / Demmel-Nguyen binned sums, in K <= 3
 * folds. Fold k keeps 4 accumulators (lanes) S = 1.5 2^(q_k + 52) + (deposits), a binade in
 * which every double is a multiple of the grid 2^q_k. For an input r: t = S + r rounds r to
 * the grid (t - S exact), the remainder r - (t - S) is exact and goes to fold k + 1, with
 * |remainder| <= 2^(q_k - 1). The last fold only adds.
 *  - Range: a lane takes L <= 2^WIN_LANE_LOG2 inputs of |r| <= 2^m with m >= q - 1, so its
 *    deposits stay below (L + 1) 2^(m + 1) <= 2^(q + 51) - 2^q when q = m + WIN_LANE_LOG2 - 49:
 *    S never leaves its binade. Fold 0: 2^m > max|x| (from the scan); fold k: m = q_(k-1) - 1,
 *    so q_k = q_(k-1) - WIN_STEP. Grids below 2^-1074 are clamped (coarser is as safe).
 *  - Exactness: the last fold's grid divides every input (q_last <= the unit of the smallest
 *    non-zero |x| found by the scan), so nothing is left over.
 *  - Result: bits(S) - bits(S_init) is the lane's sum in units of 2^q_k (same binade), added
 *    into the limbs as integers. Mixed-sign blocks: the folds run on |x| (the magnitudes'
 *    limbs) and signed accumulators take the same pieces with x's sign (WIN_FOLDS2).
 *  - Reach: with 2048-value blocks, 2 folds span 28 binades, 3 folds 69 (biased
 *    exponents max - min); the bounds above hold with about 2 bits to spare (tref_window
 *    fails when the grids are 3 bits off).
 * The scan (max and min non-zero |x|, AND and OR of the bits) also finds NaN/Inf (then the
 * block takes the bins path) and -0. Written with GCC vector types: the same source gives
 * the AVX2 version (chosen at run time) and the portable SSE2/scalar one. */
#define WIN_BLOCK 2048
#define WIN_LANE_LOG2 9                  /* WIN_BLOCK / 4 lanes: inputs per lane, at most */
#define WIN_STEP (50 - WIN_LANE_LOG2)
#define WIN_KMAX 3
#define WIN_QMAX 970                     /* S = 1.5 2^(q + 52) and its binade stay finite */
#define INF64 0x7ff0000000000000ull


typedef struct {
    uint64_t amax, amin, andb, orb; /* max |x| bits, min non-zero |x| bits (INF64: none) */
} win_scan;

ALWAYS_INLINE void win_scan_body(const unsigned char *p, uint64_t n, win_scan *r)
{
    const v4i absm = (v4i){0, 0, 0, 0} + (long long)~SIGN64;
    v4i mx = {0, 0, 0, 0}, mn = (v4i){0, 0, 0, 0} + (long long)INF64;
    v4i an = (v4i){0, 0, 0, 0} - 1, on = {0, 0, 0, 0};
    uint64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        v4i u;
        if (!(i & 7)) SL_PREFETCH(p + 8 * i);
        memcpy(&u, p + 8 * i, 32);
        an &= u;
        on |= u;
        v4i a = u & absm;
        v4i gt = a > mx;
        mx = (a & gt) | (mx & ~gt);
        v4i b = a | ((a == 0) & (long long)INF64); /* zeros never win the min */
        v4i lt = b < mn;
        mn = (b & lt) | (mn & ~lt);
    }
    uint64_t amax = 0, amin = INF64, andb = ~(uint64_t)0, orb = 0;
    for (int j = 0; j < 4; j++) {
        amax = (uint64_t)mx[j] > amax ? (uint64_t)mx[j] : amax;
        amin = (uint64_t)mn[j] < amin ? (uint64_t)mn[j] : amin;
        andb &= (uint64_t)an[j];
        orb |= (uint64_t)on[j];
    }
    for (; i < n; i++) {
        uint64_t u;
        memcpy(&u, p + 8 * i, 8);
        andb &= u;
        orb |= u;
        uint64_t a = u & ~SIGN64;
        if (a > amax) amax = a;
        if (a && a < amin) amin = a;
    }
    r->amax = amax;
    r->amin = amin;
    r->andb = andb;
    r->orb = orb;
}

/* One step of the K folds for 4 inputs (x), lanes s[0..K-1]. */
#define WIN_FOLDS(s, x, K)                                                                   \
    do {                                                                                     \
        for (int k_ = 0; k_ < (K) - 1; k_++) {                                               \
            v4d t_ = (s)[k_] + (x);                                                          \
            (x) -= t_ - (s)[k_];                                                             \
            (s)[k_] = t_;                                                                    \
        }                                                                                    \
        (s)[(K) - 1] += (x);                                                                 \
    } while (0)

/* Mixed signs: the folds run on |x| into a[], and each piece they take from |x| goes, with
 * x's sign, into the same fold of s[] (the pieces of |x| add up to |x| exactly, so the signed
 * pieces add up to x; the bounds of s[] are those of a[]). */
#define WIN_FOLDS2(a, s, x, absm, K)                                                         \
    do {                                                                                     \
        v4i sg_ = (v4i)(x) & ~(absm);                                                        \
        v4d y_ = (v4d)((v4i)(x) ^ sg_);                                                      \
        for (int k_ = 0; k_ < (K) - 1; k_++) {                                               \
            v4d t_ = (a)[k_] + y_, d_ = t_ - (a)[k_];                                        \
            y_ -= d_;                                                                        \
            (a)[k_] = t_;                                                                    \
            (s)[k_] += (v4d)((v4i)d_ ^ sg_);                                                 \
        }                                                                                    \
        (a)[(K) - 1] += y_;                                                                  \
        (s)[(K) - 1] += (v4d)((v4i)y_ ^ sg_);                                                \
    } while (0)

/* A block's plan: K folds of grids 2^q[k] starting from init[k]; sign 1: all x >= +0, -1:
 * all x <= -0, 0: mixed. A block fits the plan when every |x| (bits a) has a <= maxb and
 * (a == 0 or a >= minb) and every sign is the plan's: then the plan sums it exactly. */
typedef struct {
    int K, sign, q[WIN_KMAX];
    uint64_t init[WIN_KMAX], maxb, minb;
} win_plan;

/* The folds over a block; both: mixed signs (|x| into a[], x into s[]). out[k] (and aout[k])
 * get each fold's sum in units of its grid. spec: the block was not scanned (the plan is the
 * previous block's); the loop also checks that it fits the plan and returns -1 if not (the
 * results are then void), else 0. K, both and spec are constants after inlining. */
ALWAYS_INLINE int win_body(const unsigned char *p, uint64_t n, int K, int both, int spec,
                           const win_plan *pl, int64_t *out, int64_t *aout)
{
    const v4i absm = (v4i){0, 0, 0, 0} + (long long)~SIGN64;
    const v4i maxb = (v4i){0, 0, 0, 0} + (long long)pl->maxb;
    const v4i minb = (v4i){0, 0, 0, 0} + (long long)((pl->minb - 1) ^ SIGN64);
    const v4i sgm = (v4i){0, 0, 0, 0} + (long long)(pl->sign < 0 ? SIGN64 : 0);
    v4d s[WIN_KMAX], a[WIN_KMAX], x;
    v4i viol = {0, 0, 0, 0};
    for (int k = 0; k < K; k++) s[k] = a[k] = (v4d)((v4i){0, 0, 0, 0} + (long long)pl->init[k]);
    const double pad = pl->sign < 0 ? -0.0 : 0.0; /* fits the plan, adds nothing */
    double tail[4] = {pad, pad, pad, pad};
    for (uint64_t i = 0; i < n; i += 4) {
        const unsigned char *q = p + 8 * i;
        if (!(i & 7)) SL_PREFETCH(q);
        if (n - i < 4) { /* the last partial group, padded */
            memcpy(tail, q, 8 * (n - i));
            q = (const unsigned char *)tail;
        }
        memcpy(&x, q, 32);
        if (spec) { /* |x| above maxb, non-zero |x| below minb ((a - 1) ^ sign: 0 is largest) */
            v4i m = (v4i)x & absm;
            viol |= (m > maxb) | (minb > ((m - 1) ^ (long long)SIGN64));
            if (!both) viol |= (v4i)x ^ sgm; /* a sign bit set: a sign that is not the plan's */
        }
        if (both) WIN_FOLDS2(a, s, x, absm, K);
        else WIN_FOLDS(s, x, K);
    }
    if (spec && (viol[0] | viol[1] | viol[2] | viol[3]) < 0) return -1;
    for (int k = 0; k < K; k++) {
        v4i b = (v4i){0, 0, 0, 0} + (long long)pl->init[k];
        v4i d = (v4i)s[k] - b, e = (v4i)a[k] - b;
        out[k] = d[0] + d[1] + d[2] + d[3];
        aout[k] = e[0] + e[1] + e[2] + e[3];
    }
    return 0;
}

/* Instances for K = 1..3, one sign or mixed, scanned or not, behind one switch per target. */
#define WIN_BODY_K(p, n, both, spec, pl, out, aout)                                          \
    ((pl)->K == 1   ? win_body(p, n, 1, both, spec, pl, out, aout)                          \
     : (pl)->K == 2 ? win_body(p, n, 2, both, spec, pl, out, aout)                          \
                    : win_body(p, n, 3, both, spec, pl, out, aout))
#define WIN_RUN_FN(name, attr)                                                               \
    attr static int name(const unsigned char *p, uint64_t n, const win_plan *pl, int spec,   \
                         int64_t *out, int64_t *aout)                                        \
    {                                                                                        \
        if (spec) return pl->sign ? WIN_BODY_K(p, n, 0, 1, pl, out, aout)                    \
                                  : WIN_BODY_K(p, n, 1, 1, pl, out, aout);                   \
        return pl->sign ? WIN_BODY_K(p, n, 0, 0, pl, out, aout)                              \
                        : WIN_BODY_K(p, n, 1, 0, pl, out, aout);                             \
    }

static void win_scan_portable(const unsigned char *p, uint64_t n, win_scan *r) { win_scan_body(p, n, r); }
WIN_RUN_FN(win_run_portable, )
#ifdef WIN_HAVE_AVX2
__attribute__((target("avx2"))) static void win_scan_avx2(const unsigned char *p, uint64_t n, win_scan *r)
{
    win_scan_body(p, n, r);
}
WIN_RUN_FN(win_run_avx2, __attribute__((target("avx2"))))
#endif

/* Adds a signed integer v (|v| < 2^63) times 2^pos units into ch. */
static void add_i64(int64_t *ch, int64_t v, int pos)
{
    if (v) add_u64(ch, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, pos, v < 0);
}

/* The plan for a scanned float64 block (n <= WIN_BLOCK). Returns 0 (plan made; K = 0 when
 * every value is a zero), or (no plan) WIN_SPECIAL when the block holds a NaN/Inf, or the
 * span of its biased exponents (>= 1) when they span too much for WIN_KMAX folds or reach
 * above the window's range. */
#define WIN_SPECIAL 4096
static int window_plan(const win_scan *sc, win_plan *pl)
{
    pl->K = 0;
    if (sc->amax >= INF64) return WIN_SPECIAL;
    if (!sc->amax) return 0;
    int emax = (int)(sc->amax >> 52), emin = (int)(sc->amin >> 52);
    emax = emax ? emax : 1;
    int q0 = emax - 1022 + WIN_LANE_LOG2 - 49; /* 2^(emax - 1022) > max|x| */
    int g = (emin ? emin : 1) - 1075;          /* unit of the smallest |x| */
    int K = q0 <= g ? 1 : 1 + (q0 - g + WIN_STEP - 1) / WIN_STEP;
    if (q0 > WIN_QMAX || K > WIN_KMAX) return emax - emin > 1 ? emax - emin : 1;
    pl->K = K;
    for (int k = 0; k < K; k++) {
        pl->q[k] = q0 - WIN_STEP * k < -1074 ? -1074 : q0 - WIN_STEP * k;
        pl->init[k] = (uint64_t)(pl->q[k] + 1075) << 52 | (uint64_t)1 << 51; /* 1.5 2^(q + 52) */
    }
    pl->sign = !(sc->orb >> 63) ? 1 : (sc->andb >> 63) ? -1 : 0;
    /* what the plan takes: exponents up to emax (q0), and those whose unit the last grid
     * divides (biased exponent >= q_last + 1075; at q_last = -1074 every non-zero value) */
    int elow = pl->q[K - 1] + 1075;
    pl->maxb = ((uint64_t)(emax + 1) << 52) - 1;
    pl->minb = elow <= 1 ? 1 : (uint64_t)elow << 52;
    return 0;
}

/* The folds' sums into the limbs (left unnormalised). A plan comes from a block with a
 * non-zero value, so the inputs are not all -0. */
static void window_apply(sl_exact *acc, const win_plan *pl, const int64_t *out, const int64_t *aout)
{
    for (int k = 0; k < pl->K; k++) {
        add_i64(acc->chunk, out[k], pl->q[k] + 1074);
        add_i64(acc->achunk, pl->sign ? pl->sign * out[k] : aout[k], pl->q[k] + 1074);
    }
    acc->notnegzero |= 1;
}

/* A float64 block (n <= WIN_BLOCK) whose non-zero values are all subnormal, summed in integers:
 * each is an integer multiple of 2^-1074 below 2^52 of them, so n <= 2^11 of them sum below
 * 2^63, with no floating-point operation (the folds' residuals would be subnormal results,
 * which some CPUs turn into microcode assists: 17.8 ns a value on the H200 machine's CPU,
 * against 1.4 for the plain loop; on this project's 2-core AMD machine the integer route is
 * faster too, 0.52-0.67 against 0.71-0.93 ns a value). Returns -1, adding nothing, when a
 * value is neither subnormal nor zero (an integer plan, K = -1, run on the next blocks by
 * window_piece as the folds' plans are). */
ALWAYS_INLINE int win_int_body(sl_exact *acc, const unsigned char *p, uint64_t n)
{
    const v4i absm = (v4i){0, 0, 0, 0} + (long long)~SIGN64;
    v4i sum = {0, 0, 0, 0}, abs = {0, 0, 0, 0}, big = {0, 0, 0, 0};
    uint64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        v4i u;
        if (!(i & 7)) SL_PREFETCH(p + 8 * i);
        memcpy(&u, p + 8 * i, 32);
        /* logical shifts only (no 64-bit arithmetic shift before AVX-512): neg is 0 or -1 */
        const v4i m = u & absm, neg = -(v4i)((v4u)u >> 63);
        big |= (v4i)((v4u)m >> 52);
        sum += (m ^ neg) - neg;
        abs += m;
    }
    int64_t s = sum[0] + sum[1] + sum[2] + sum[3], a = abs[0] + abs[1] + abs[2] + abs[3];
    uint64_t b = (uint64_t)(big[0] | big[1] | big[2] | big[3]);
    for (; i < n; i++) {
        uint64_t u;
        memcpy(&u, p + 8 * i, 8);
        const int64_t m = (int64_t)(u & ~SIGN64);
        b |= (uint64_t)m >> 52;
        s += (u >> 63) ? -m : m;
        a += m;
    }
    if (b) return -1;
    add_i64(acc->chunk, s, 0);
    add_i64(acc->achunk, a, 0);
    acc->notnegzero |= 1;     /* a plan is made from a block with a non-zero value */
    return 0;
}

static int win_int_portable(sl_exact *acc, const unsigned char *p, uint64_t n) { return win_int_body(acc, p, n); }
#ifdef WIN_HAVE_AVX2
__attribute__((target("avx2"))) static int win_int_avx2(sl_exact *acc, const unsigned char *p, uint64_t n)
{
    return win_int_body(acc, p, n);
}
#endif
static int win_int_f64(sl_exact *acc, const unsigned char *p, uint64_t n, int avx2)
{
#ifdef WIN_HAVE_AVX2
    if (avx2) return win_int_avx2(acc, p, n);
#endif
    (void)avx2;
    return win_int_portable(acc, p, n);
}

/* float64 block (n <= WIN_BLOCK) on the window path: scanned, planned and summed. Returns
 * window_plan's code (0: done, *pl the plan; else nothing added). */
static int window_f64(sl_exact *acc, const unsigned char *p, uint64_t n, int avx2, win_plan *pl)
{
    win_scan sc;
    int (*run)(const unsigned char *, uint64_t, const win_plan *, int, int64_t *, int64_t *) = win_run_portable;
#ifdef WIN_HAVE_AVX2
    if (avx2) {
        win_scan_avx2(p, n, &sc);
        run = win_run_avx2;
    } else
#endif
        win_scan_portable(p, n, &sc);
    (void)avx2;
    int r = window_plan(&sc, pl);
    if (r) return r;
    if (!pl->K) { /* all zeros */
        acc->notnegzero |= !(sc.andb >> 63);
        return 0;
    }
    if (sc.amax < ((uint64_t)1 << 52)) { /* every non-zero value subnormal: win_int_body */
        win_int_f64(acc, p, n, avx2);
        pl->K = -1;
        return 0;
    }
    int64_t out[WIN_KMAX], aout[WIN_KMAX];
    run(p, n, pl, 0, out, aout);
    window_apply(acc, pl, out, aout);
    return 0;
}

/* ---- the float64 integer bins: wide blocks without floating-point arithmetic -------------- */
/* xsum's "large accumulator" (R. Neal), written anew: a value of bits u goes, as an integer,
 * into the unsigned 64-bit bin c[u >> 52] (sign and biased exponent: 4096 bins, 32 KiB, L1
 * resident): c += m, m its significand with the implicit bit (subnormals, exponent field 0:
 * none), m < 2^53. No floating-point operation (no subnormal assists), one 8-byte
 * read-modify-write per value. Bin (s, e) counts units of 2^pos64(e) of sign s.
 *  - Overflow: each add's carry out of bit 63 is counted (x86-64: a memory-destination add
 *    and an add-with-carry into a counter, two instructions where a load, an add, a store and
 *    an OR of the sum were five; elsewhere the same count from t < m). Values are taken in
 *    runs of INT64_RUN = 2^10. A run that wrapped a bin (the count is non-zero) is undone (its
 *    values subtracted again: the bins are integers modulo 2^64, so this restores them
 *    exactly), the bins at or above 2^63 are spilled into the block's limbs, and the run is
 *    added again: every bin is now below 2^63 and gains less than 2^10 2^53 = 2^63, so it
 *    cannot wrap (checked). Spread data never wraps (a bin would need about 2^11 values of a
 *    2^18 block); a bin hammered by the largest significands wraps every other run, which
 *    then costs about three passes over it and a scan of the bins, as the spills of the OR
 *    check it replaces did every run (on the 2-core AMD EPYC, full range in L2: 1.22 against
 *    1.60 ns a value for the loop with the OR, 1.42 with t < m).
 *  - Specials: a NaN/Inf adds m >= 2^52 to bin 0x7ff or 0xfff, so such a bin is non-zero at
 *    the end or has spilled: the block (nothing added) takes the bins path.
 *  - -0: the bins hold no sign of zero; when every bin is zero (the block is all zeros) the
 *    block is scanned for a value other than -0.
 * Blocks are of up to FAST64_BLOCK values; the bins and the block's limbs are folded into the
 * accumulator's at its end. */
#define INT64_BINS 4096
#define INT64_RUN 1024

/* *bin += m, cnt += the carry out: portable C (t < m), and on x86-64 one memory-destination
 * add and one add-with-carry (the AVX2 instance; the portable one, which the tests also run,
 * keeps the C form) */
#define INT64_ADD_C(bin, m, cnt)                                                             \
    do {                                                                                     \
        const uint64_t t_ = (bin) + (m);                                                     \
        (cnt) += t_ < (m);                                                                   \
        (bin) = t_;                                                                          \
    } while (0)
#if defined(__GNUC__) && defined(__x86_64__)
#define INT64_ADD(bin, m, cnt, x86)                                                          \
    do {                                                                                     \
        if (x86) __asm__("addq %2, %0\n\tadcq $0, %1" : "+m"(bin), "+r"(cnt) : "r"(m) : "cc");   \
        else INT64_ADD_C(bin, m, cnt);                                                       \
    } while (0)
#else
#define INT64_ADD(bin, m, cnt, x86) INT64_ADD_C(bin, m, cnt)
#endif

/* m of a float64's bits u: its significand with the implicit bit (none for exponent 0) */
static uint64_t int64_m(uint64_t u) { return (u & FRAC64) | (uint64_t)(((u >> 52) & 0x7ff) != 0) << 52; }

/* One run (n <= INT64_RUN) into c; returns the number of adds that wrapped a bin. The
 * significands of 8 values at a time are made in vector registers and read back as scalars;
 * the bin index comes from a scalar load of each value (L1). */
ALWAYS_INLINE uint64_t int64_body(uint64_t *c, const unsigned char *p, uint64_t n, int x86, int l1)
{
    const v4i fracm = (v4i){0, 0, 0, 0} + (long long)FRAC64;
    const v4i expm = (v4i){0, 0, 0, 0} + (long long)INF64;
    const v4i impl = (v4i){0, 0, 0, 0} + (long long)((uint64_t)1 << 52);
    uint64_t w0 = 0, w1 = 0, i = 0;
    _Alignas(32) uint64_t mb[8];
    for (; i + 8 <= n; i += 8) {
        SL_PREFETCH(p + 8 * i);
        if (l1) SL_PREFETCH_L1(p + 8 * i);
        for (int h = 0; h < 2; h++) {
            v4i u;
            memcpy(&u, p + 8 * i + 32 * h, 32);
            const v4i m = (u & fracm) | (((u & expm) != 0) & impl);
            memcpy(mb + 4 * h, &m, 32);
        }
        __asm__("" : "+m"(mb)); /* scalar reloads of m, not vector extracts */
        for (int j = 0; j < 8; j += 2) {
            uint64_t u0, u1;
            memcpy(&u0, p + 8 * (i + j), 8);
            memcpy(&u1, p + 8 * (i + j) + 8, 8);
            INT64_ADD(c[u0 >> 52], mb[j], w0, x86); /* two short carry chains */
            INT64_ADD(c[u1 >> 52], mb[j + 1], w1, x86);
        }
    }
    for (; i < n; i++) {
        uint64_t u;
        memcpy(&u, p + 8 * i, 8);
        const uint64_t m = int64_m(u);
        INT64_ADD(c[u >> 52], m, w0, x86);
    }
    return w0 + w1;
}

static uint64_t int64_portable(uint64_t *c, const unsigned char *p, uint64_t n) { return int64_body(c, p, n, 0, 0); }
#ifdef WIN_HAVE_AVX2
__attribute__((target("avx2"))) static uint64_t int64_avx2(uint64_t *c, const unsigned char *p, uint64_t n)
{
    return int64_body(c, p, n, 1, 0);
}
__attribute__((target("avx2"))) static uint64_t int64_avx2_l1(uint64_t *c, const unsigned char *p, uint64_t n)
{
    return int64_body(c, p, n, 1, 1);
}
#endif

/* Undoes a run: its values subtracted from their bins (modulo 2^64). */
static void int64_undo(uint64_t *c, const unsigned char *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, p + 8 * i, 8);
        c[u >> 52] -= int64_m(u);
    }
}

/* Bin i (sign i >> 11, biased exponent i & 0x7ff, not 0x7ff) holding v into the limbs. */
static void int64_fold(int64_t *ch, int64_t *ach, int i, uint64_t v)
{
    int p = pos64(i & 0x7ff);
    add_u64(ch, v, p, i >> 11);
    add_u64(ach, v, p, 0);
}

/* Every bin into the limbs, branch-free: bins (+, e) and (-, e) at once, each as two 32-bit
 * halves shifted into place (< 2^63) and spread over three limbs. Each limb gains less than
 * 2^33 per bin pair (and loses less than 2^33), so int64 limbs cannot overflow. */
static void int64_fold_all(int64_t *ch, int64_t *ach, const uint64_t *c)
{
    const uint64_t M32 = 0xffffffffu;
    for (int e = 0; e < 0x7ff; e++) {
        const int p = pos64(e), k = p >> 5, s = p & 31;
        const uint64_t P = c[e], N = c[0x800 | e];
        const uint64_t pl = (P & M32) << s, ph = (P >> 32) << s, nl = (N & M32) << s, nh = (N >> 32) << s;
        const int64_t p0 = (int64_t)(pl & M32), p1 = (int64_t)((pl >> 32) + (ph & M32)), p2 = (int64_t)(ph >> 32);
        const int64_t n0 = (int64_t)(nl & M32), n1 = (int64_t)((nl >> 32) + (nh & M32)), n2 = (int64_t)(nh >> 32);
        ch[k] += p0 - n0;
        ch[k + 1] += p1 - n1;
        ch[k + 2] += p2 - n2;
        ach[k] += p0 + n0;
        ach[k + 1] += p1 + n1;
        ach[k + 2] += p2 + n2;
    }
}

/* float64 block (n <= FAST64_BLOCK) through the integer bins. Returns 0, or -1 (nothing
 * added) when it holds a special. */
static int int_f64(sl_exact *acc, fast_bins *fb, const unsigned char *p, uint64_t n, int avx2)
{
    uint64_t *c = fb->c64;
    int64_t ch[SL_EXACT_NCHUNK] = {0}, ach[SL_EXACT_NCHUNK] = {0};
    int special = 0, any = 0;
    memset(c, 0, INT64_BINS * sizeof *c);
    uint64_t (*run)(uint64_t *, const unsigned char *, uint64_t) = int64_portable;
#ifdef WIN_HAVE_AVX2
    if (avx2) run = (acc->paths & SL_EXACT_L1_PREFETCH) || __builtin_cpu_is("intel") ? int64_avx2_l1 : int64_avx2;
#endif
    for (uint64_t i = 0; i < n; i += INT64_RUN) {
        const uint64_t k = n - i < INT64_RUN ? n - i : INT64_RUN;
        const unsigned char *q = p + 8 * i;
        if (!run(c, q, k)) continue;
        int64_undo(c, q, k); /* a bin wrapped: the run undone, the high bins spilled, again */
        for (int j = 0; j < INT64_BINS; j++) {
            if (!(c[j] >> 63)) continue;
            if ((j & 0x7ff) == 0x7ff) special = 1;
            else int64_fold(ch, ach, j, c[j]);
            c[j] = 0;
            any = 1;
        }
        SL_EXACT_REQUIRE(!run(c, q, k), "a run wrapped an integer bin below 2^63");
    }
    (void)avx2;
    if (special || c[0x7ff] || c[0xfff]) return -1;
    uint64_t orc = 0;
    for (int j = 0; j < INT64_BINS; j++) orc |= c[j];
    any |= orc != 0;
    int64_fold_all(ch, ach, c);
    if (any) acc->notnegzero |= 1;
    else { /* zeros only: -0 iff every value is -0 */
        uint64_t nz = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t u;
            memcpy(&u, p + 8 * i, 8);
            nz |= u ^ SIGN64;
        }
        acc->notnegzero |= nz;
    }
    for (int j = 0; j < SL_EXACT_NCHUNK; j++) {
        acc->chunk[j] += ch[j];
        acc->achunk[j] += ach[j];
    }
    return 0;
}

/* Whether a wide float64 block (n values) looks hot: values within two places of each other
 * often in one bin (sign, exponent), the estimate from four samples of 64 spread over the
 * block. One bin's read-modify-writes form a chain through store-to-load forwarding (about 6
 * cycles a link, against about 2.3 cycles a value when the bins are spread), which the
 * integer bins do not break: 1.0 (one bin and rare wide outliers) made int_f64 2.5-3.3 ns a
 * value against 1.3 for the 4-set bins loop. Hot blocks (1/16 or more of the sampled pairs
 * in one bin: a bin holding about a quarter of the values or more) take the latter. */
static int hot64(const unsigned char *p, uint64_t n)
{
    if (n < 512) return 0;
    int same = 0;
    for (int w = 0; w < 4; w++) {
        const unsigned char *q = p + 8 * ((2 * (uint64_t)w + 1) * (n / 8) - 33);
        uint64_t a, b, c;
        memcpy(&a, q, 8);
        memcpy(&b, q + 8, 8);
        for (int i = 2; i < 66; i++) {
            memcpy(&c, q + 8 * i, 8);
            same += ((a >> 52) == (c >> 52)) + ((b >> 52) == (c >> 52));
            a = b;
            b = c;
        }
    }
    return same >= 32; /* 1/16 of the 4 * 64 * 2 pairs */
}

/* Whether the AVX2 versions run (the CPU has it and the tests did not turn it off). */
static int use_avx2(const sl_exact *acc)
{
#ifdef WIN_HAVE_AVX2
    return !(acc->paths & SL_EXACT_NO_AVX2) && __builtin_cpu_supports("avx2");
#else
    (void)acc;
    return 0;
#endif
}

/* Blocks of the fast path over a piece (any length), limbs normalised after each block; wide:
 * a float64 run whose scanned blocks all span >= WIN_WIDE_SPAN binades (the integer bins, but
 * for hot blocks). avx2: 0 or 1. */
static void fast_piece(sl_exact *acc, fast_bins *fb, const unsigned char *p, uint64_t n, sl_dtype dt,
                       int avx2, int wide)
{
    const size_t sz = sl_dtype_size(dt);
    const uint64_t block = dt == SL_F64 ? FAST64_BLOCK : FAST32_BLOCK;
    while (n) {
        uint64_t k = n < block ? n : block;
        int r = dt == SL_F32                ? fast_f32(acc, fb, p, k)
                : wide && !hot64(p, k) ? int_f64(acc, fb, p, k, avx2)
                                       : fast_f64(acc, fb, p, k, avx2);
        if (r) add_bins(acc, p, k, dt);
        else {
            normalise(acc->chunk);
            normalise(acc->achunk);
        }
        p += k * sz;
        n -= k;
    }
}

/* ---- the float32 window path: a block summed exactly in plain doubles --------------------- */
/* Bound. A float32 of biased exponent e, with e' = max(e, 1) (subnormals: e' = 1), is an
 * integer multiple of u(e') = 2^(e' - 150) below 2^(e' - 126) = 2^24 u(e') in magnitude. In a
 * block of n <= WIN_BLOCK = 2^11 values whose non-zero values have e' in [lo, hi], D = hi - lo,
 * every value is a multiple of u = u(lo) with |x| <= (2^(D + 24) - 1) u, so every partial sum
 * of the values or of their magnitudes, in any order and grouping, is k u with
 * |k| <= 2^11 (2^(D + 24) - 1) = 2^(D + 35) - 2^11. A double holds each such k u exactly
 * when |k| <= 2^53 (u >= 2^-149 is far above the double subnormals' 2^-1074; |k u| < 2^139 is
 * far below overflow, also for 2048 values near FLT_MAX): D <= 18 = WIN32_SPAN. At D = 19 it
 * fails: 2047 values (2^24 - 1) 2^19 u and one u sum to an odd k above 2^53 (tref_window
 * checks that such a block breaks the bound by one binade). Every add being exact, a block's
 * sums do not depend on order or grouping: the AVX2 and portable loops, with any number of
 * accumulators, give the same doubles.
 * The pass. One pass per block both scans (max |x| bits, min non-zero |x| bits, as 8 int32
 * lanes) and sums, speculatively: 16 independent accumulators (4 v4d) for x and 16 for |x|,
 * each from 4 floats converted to doubles. Then the plan is only the bound check: a block
 * with NaN/Inf (max |x| >= Inf's bits) takes the bins path; a block with D > WIN32_SPAN is
 * discarded (its sums may have rounded) and joins a run for the float32 bins fast path, after
 * which the next blocks are not scanned (backoff, as in window_piece). The scan costs a few
 * integer ops on the same loads as the sums, so a plan kept from the previous block (as
 * float64 does) would save nothing: each block gets its own check. Signs: no sign scan is
 * needed, since the signed and the magnitude sums are both kept; the accumulators start at
 * -0.0 and the tail is padded with -0.0 (x + -0 = x), so a block of zeros sums to -0 exactly
 * when every value is -0. The block's totals are integers (< 2^53) of units u added into
 * the signed and the magnitude limbs. */
#define WIN32_SPAN 18
#define INF32 0x7f800000

typedef int v8i __attribute__((vector_size(32)));
typedef float v4f __attribute__((vector_size(16)));

typedef struct {
    uint32_t amax, amin; /* max |x| bits, min non-zero |x| bits (INF32: none) */
    double s, a;         /* sum of x and of |x|: exact when the block is within WIN32_SPAN */
} win32_sums;

ALWAYS_INLINE void win32_body(const unsigned char *p, uint64_t n, win32_sums *r)
{
    const v8i absm = (v8i){0, 0, 0, 0, 0, 0, 0, 0} + 0x7fffffff;
    const v4i absd = (v4i){0, 0, 0, 0} + (long long)~SIGN64;
    v8i mx = {0, 0, 0, 0, 0, 0, 0, 0}, mn = (v8i){0, 0, 0, 0, 0, 0, 0, 0} + INF32;
    v4d s[4], a[4];
    for (int j = 0; j < 4; j++) s[j] = a[j] = (v4d)((v4i){0, 0, 0, 0} + (long long)SIGN64);
    float tail[16];
    for (uint64_t i = 0; i < n; i += 16) {
        const unsigned char *q = p + 4 * i;
        SL_PREFETCH(q);
        if (n - i < 16) { /* the last partial group, padded with -0 */
            for (int j = 0; j < 16; j++) tail[j] = -0.0f;
            memcpy(tail, q, 4 * (n - i));
            q = (const unsigned char *)tail;
        }
        for (int h = 0; h < 2; h++) {
            v8i u;
            memcpy(&u, q + 32 * h, 32);
            v8i m = u & absm;
            v8i gt = m > mx;
            mx = (m & gt) | (mx & ~gt);
            v8i b = m | ((m == 0) & INF32); /* zeros never win the min */
            v8i lt = b < mn;
            mn = (b & lt) | (mn & ~lt);
        }
        for (int j = 0; j < 4; j++) {
            v4f f;
            memcpy(&f, q + 16 * j, 16);
            v4d d = __builtin_convertvector(f, v4d);
            s[j] += d;
            a[j] += (v4d)((v4i)d & absd);
        }
    }
    uint32_t amax = 0, amin = INF32;
    for (int j = 0; j < 8; j++) {
        amax = (uint32_t)mx[j] > amax ? (uint32_t)mx[j] : amax;
        amin = (uint32_t)mn[j] < amin ? (uint32_t)mn[j] : amin;
    }
    v4d st = (s[0] + s[1]) + (s[2] + s[3]), at = (a[0] + a[1]) + (a[2] + a[3]);
    r->amax = amax;
    r->amin = amin;
    r->s = (st[0] + st[1]) + (st[2] + st[3]);
    r->a = (at[0] + at[1]) + (at[2] + at[3]);
}

static void win32_portable(const unsigned char *p, uint64_t n, win32_sums *r) { win32_body(p, n, r); }
#ifdef WIN_HAVE_AVX2
__attribute__((target("avx2"))) static void win32_avx2(const unsigned char *p, uint64_t n, win32_sums *r)
{
    win32_body(p, n, r);
}
#endif

/* float32 block (n <= WIN_BLOCK) on the window path. Returns 0 (added), WIN_SPECIAL (a
 * NaN/Inf) or the span D >= 1 of a block too wide (nothing added either way). */
static int window_f32(sl_exact *acc, const unsigned char *p, uint64_t n, int avx2)
{
    win32_sums r;
#ifdef WIN_HAVE_AVX2
    if (avx2) win32_avx2(p, n, &r);
    else
#endif
        win32_portable(p, n, &r);
    (void)avx2;
    if (r.amax >= INF32) return WIN_SPECIAL;
    if (r.amin == INF32) { /* zeros only: -0 iff every value is -0 */
        acc->notnegzero |= dbits(r.s) ^ SIGN64;
        return 0;
    }
    int hi = (int)(r.amax >> 23), lo = (int)(r.amin >> 23);
    hi = hi ? hi : 1;
    lo = lo ? lo : 1;
    if (hi - lo > WIN32_SPAN) return hi - lo;
    const int pos = pos32(lo); /* the unit u = 2^(lo - 150) */
    if (r.s != 0.0) add_u64(acc->chunk, bin_units(r.s, pos, 0), pos, r.s < 0); /* 0: cancelled */
    add_u64(acc->achunk, bin_units(r.a, pos, 0), pos, 0);
    acc->notnegzero |= 1;
    return 0;
}

/* float32/float64 piece: window blocks where they fit; runs of the others go through
 * fast_piece in pieces of up to FAST64_BLOCK / FAST32_BLOCK (blocks holding a NaN/Inf found
 * by the scan: the bins path). float64: after a scanned window block, up to WIN_SPEC_RUN
 * blocks are summed unscanned with its plan
 * in one pass that also checks that they fit it (a block that does not is scanned and
 * summed again): steady data is read once, the scan costs a pass over memory otherwise.
 * After a block too wide for the window, the next `backoff` blocks join the run unscanned,
 * backoff doubling up to WIN_BACKOFF_MAX while blocks stay wide (full-range data pays for
 * few scans) and back to 1 after a window block. A float64 run whose scanned blocks all span
 * >= WIN_WIDE_SPAN binades takes the integer bins (int_f64), others the AVX2 bins loop with 4
 * sets. Window blocks leave the limbs unnormalised (each adds < 2^35 to a limb); they are
 * normalised every 2^20 blocks. */
#define WIN_BACKOFF_MAX 32
#define WIN_SPEC_RUN 15 /* blocks summed with the last scanned block's plan, then a scan */
#define WIN_WIDE_SPAN 256
static void window_piece(sl_exact *acc, fast_bins *fb, const unsigned char *p, uint64_t n, sl_dtype dt)
{
    const size_t sz = sl_dtype_size(dt);
    const uint64_t block = dt == SL_F64 ? FAST64_BLOCK : FAST32_BLOCK;
    const int avx2 = use_avx2(acc);
    const unsigned char *wide = p;
    uint64_t nwide = 0, since = 0;
    int skip = 0, backoff = 1, blk_wide = 0, run_wide = 0, spec = 0;
    win_plan pl;
    int (*run)(const unsigned char *, uint64_t, const win_plan *, int, int64_t *, int64_t *) = win_run_portable;
#ifdef WIN_HAVE_AVX2
    if (avx2) run = win_run_avx2;
#endif
    while (n) {
        uint64_t k = n < WIN_BLOCK ? n : WIN_BLOCK;
        int r = -1; /* unscanned */
        int64_t out[WIN_KMAX], aout[WIN_KMAX];
        if (skip) skip--;
        else if (spec && pl.K < 0 && !win_int_f64(acc, p, k, avx2)) { /* still all subnormal */
            spec--;
            r = 0;
        } else if (spec && pl.K > 0 && !run(p, k, &pl, 1, out, aout)) { /* fits the last plan */
            window_apply(acc, &pl, out, aout);
            spec--;
            r = 0;
        } else if (dt == SL_F32)
            r = window_f32(acc, p, k, avx2);
        else {
            r = window_f64(acc, p, k, avx2, &pl);
            spec = !r && pl.K ? WIN_SPEC_RUN : 0;
        }
        if (r == 0 || r == WIN_SPECIAL) {
            if (nwide) fast_piece(acc, fb, wide, nwide, dt, avx2, run_wide);
            nwide = 0;
            if (r == WIN_SPECIAL) add_bins(acc, p, k, dt);
            else backoff = 1;
            if (++since == (1u << 20)) {
                normalise(acc->chunk);
                normalise(acc->achunk);
                since = 0;
            }
        } else {
            if (r > 0) {
                blk_wide = r >= WIN_WIDE_SPAN;
                skip = backoff;
                backoff = backoff < WIN_BACKOFF_MAX ? 2 * backoff : WIN_BACKOFF_MAX;
            }
            if (!nwide) {
                wide = p;
                run_wide = blk_wide;
            } else
                run_wide &= blk_wide;
            nwide += k;
            if (nwide >= block) {
                fast_piece(acc, fb, wide, nwide, dt, avx2, run_wide);
                nwide = 0;
            }
        }
        p += sz * k;
        n -= k;
    }
    if (nwide) fast_piece(acc, fb, wide, nwide, dt, avx2, run_wide);
    normalise(acc->chunk);
    normalise(acc->achunk);
}

void sl_exact_add(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt)
{
    const unsigned char *p = x;
    if (!n) return;
    acc->n += n;
    if (n < FAST_MIN_N || (acc->paths & SL_EXACT_NO_FAST)) {
        add_bins(acc, p, n, dt);
        return;
    }
    fast_bins *fb = aligned_alloc(64, sizeof(fast_bins));
    if (!fb) { /* no scratch: the bins path is as exact, only slower */
        add_bins(acc, p, n, dt);
        return;
    }
    /* the portable float64 window loop is slow on x86-64 without AVX2 (no 64-bit compares in
     * SSE2): there the bins loops run, unless the tests ask for the portable window loops
     * (float32 follows the same rule; its portable loop has not been timed without AVX2) */
    int window = !(acc->paths & SL_EXACT_NO_WINDOW);
#ifdef WIN_HAVE_AVX2
    window = window && (use_avx2(acc) || (acc->paths & SL_EXACT_NO_AVX2));
#endif
    if (window) window_piece(acc, fb, p, n, dt);
    else fast_piece(acc, fb, p, n, dt, use_avx2(acc), 0);
    free(fb);
}

/* ---- merging: the state is a commutative, associative, exact monoid ---------------------- */

void sl_exact_merge(sl_exact *dst, const sl_exact *src)
{
    /* src's bins and flushed limbs go straight into dst's limbs (exact integer adds; each
     * limb gains < 2^33 per source limb and < 2^32 per bin piece, far from int64's range). */
    fold_bins(src, dst->chunk, dst->achunk);
    for (int i = 0; i < SL_EXACT_NCHUNK; i++) {
        dst->chunk[i] += src->chunk[i];
        dst->achunk[i] += src->achunk[i];
    }
    normalise(dst->chunk);
    normalise(dst->achunk);
    dst->n += src->n;
    dst->nan += src->nan;
    dst->pinf += src->pinf;
    dst->ninf += src->ninf;
    dst->notnegzero |= src->notnegzero;
}

/* ---- saved states: canonical bytes (limbs normalised, bins folded) ----------------------- */
/* Layout (little-endian host words): chunk[68], achunk[68], n, nan, pinf, ninf, notnegzero, magic. */
#define SL_EXACT_SAVE_MAGIC 0x736c6578616374ull /* "slexact" */
typedef struct {
    int64_t chunk[SL_EXACT_NCHUNK], achunk[SL_EXACT_NCHUNK];
    uint64_t n, nan, pinf, ninf, notnegzero, magic;
} saved_state;
_Static_assert(sizeof(saved_state) == SL_EXACT_STATE_BYTES, "SL_EXACT_STATE_BYTES");

void sl_exact_save(const sl_exact *acc, void *buf)
{
    saved_state s;
    memcpy(s.chunk, acc->chunk, sizeof s.chunk);
    memcpy(s.achunk, acc->achunk, sizeof s.achunk);
    fold_bins(acc, s.chunk, s.achunk);
    normalise(s.chunk);
    normalise(s.achunk);
    s.n = acc->n;
    s.nan = acc->nan;
    s.pinf = acc->pinf;
    s.ninf = acc->ninf;
    s.notnegzero = acc->notnegzero ? 1 : 0;   /* canonical: only "zero or not" matters */
    s.magic = SL_EXACT_SAVE_MAGIC;
    memcpy(buf, &s, sizeof s);
}

/* 1 when buf holds a canonical saved state (what sl_exact_save and sl_exact_merge_saved write):
 * the magic, limbs 0..N-2 in [0, 2^32), top limbs that n values can reach (each below 2^1024 in
 * magnitude, the top limb weighing 2^1070: |sum| and sum|x| below n 2^1024, so the top limbs in
 * [-(n >> 46) - 1, n >> 46] and [0, n >> 46]; a larger one made the rounding's range check abort),
 * counts of specials at most n, notnegzero 0 or 1. Bytes from elsewhere (a file, a peer) are
 * checked so before they are summed or rounded. */
int sl_exact_saved_valid(const void *buf)
{
    saved_state s;
    memcpy(&s, buf, sizeof s);
    if (s.magic != SL_EXACT_SAVE_MAGIC || s.notnegzero > 1 || s.nan > s.n || s.pinf > s.n || s.ninf > s.n ||
        s.n >= ((uint64_t)1 << 62))
        return 0;
    for (int i = 0; i < SL_EXACT_NCHUNK - 1; i++)
        if (s.chunk[i] < 0 || s.chunk[i] > 0xffffffffll || s.achunk[i] < 0 || s.achunk[i] > 0xffffffffll) return 0;
    const int64_t top = s.chunk[SL_EXACT_NCHUNK - 1], atop = s.achunk[SL_EXACT_NCHUNK - 1];
    const int64_t cap = (int64_t)(s.n >> 46);
    return top >= -cap - 1 && top <= cap && atop >= 0 && atop <= cap;
}

int sl_exact_load(sl_exact *acc, const void *buf)
{
    saved_state s;
    memcpy(&s, buf, sizeof s);
    if (!sl_exact_saved_valid(buf)) return -1;
    sl_exact_reset(acc);
    memcpy(acc->chunk, s.chunk, sizeof s.chunk);
    memcpy(acc->achunk, s.achunk, sizeof s.achunk);
    acc->n = s.n;
    acc->nan = s.nan;
    acc->pinf = s.pinf;
    acc->ninf = s.ninf;
    acc->notnegzero = s.notnegzero;
    return 0;
}

void sl_exact_merge_saved(void *dst, const void *src)
{
    saved_state d, s;
    memcpy(&d, dst, sizeof d);
    memcpy(&s, src, sizeof s);
    for (int i = 0; i < SL_EXACT_NCHUNK; i++) {   /* normalised limbs: < 2^33 each, no overflow */
        d.chunk[i] += s.chunk[i];
        d.achunk[i] += s.achunk[i];
    }
    normalise(d.chunk);
    normalise(d.achunk);
    d.n += s.n;
    d.nan += s.nan;
    d.pinf += s.pinf;
    d.ninf += s.ninf;
    d.notnegzero = (d.notnegzero | s.notnegzero) ? 1 : 0;
    memcpy(dst, &d, sizeof d);
}

typedef struct {
    sl_exact *acc;
    const unsigned char *x;
    uint64_t n;
    sl_dtype dt;
} add_job;

static void *add_job_run(void *arg)
{
    add_job *j = arg;
    sl_exact_add(j->acc, j->x, j->n, j->dt);
    return NULL;
}

int sl_exact_add_threads(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt, unsigned threads)
{
    if (threads > SL_EXACT_MAX_THREADS) threads = SL_EXACT_MAX_THREADS;
    if (threads > n / SL_EXACT_MIN_PER_THREAD) threads = (unsigned)(n / SL_EXACT_MIN_PER_THREAD);
    if (threads <= 1) {
        sl_exact_add(acc, x, n, dt);
        return 0;
    }
    add_job job[SL_EXACT_MAX_THREADS];
    pthread_t tid[SL_EXACT_MAX_THREADS];
    int started[SL_EXACT_MAX_THREADS] = {0};
    const size_t sz = sl_dtype_size(dt);
    int rc = 0;
    for (unsigned t = 0; t < threads; t++) {
        uint64_t lo = n / threads * t + (t < n % threads ? t : n % threads);
        uint64_t len = n / threads + (t < n % threads);
        job[t] = (add_job){sl_exact_new(), (const unsigned char *)x + lo * sz, len, dt};
        if (!job[t].acc) rc = -1;
    }
    for (unsigned t = 0; t < threads && !rc; t++)
        started[t] = pthread_create(&tid[t], NULL, add_job_run, &job[t]) == 0;
    for (unsigned t = 0; t < threads; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else if (!rc && job[t].acc) add_job_run(&job[t]);   /* no thread: this one does it */
    }
    for (unsigned t = 0; t < threads && !rc; t++) sl_exact_merge(acc, job[t].acc);
    for (unsigned t = 0; t < threads; t++) sl_exact_free(job[t].acc);
    return rc;
}

/* ---- finished value ---------------------------------------------------------------------- */

void sl_exact_fixed_get(const sl_exact *acc, int absolute, sl_exact_fixed *f)
{
    int64_t ch[SL_EXACT_NCHUNK];
    memcpy(ch, absolute ? acc->achunk : acc->chunk, sizeof ch);
    if (absolute) fold_bins(acc, NULL, ch);
    else fold_bins(acc, ch, NULL);
    normalise(ch);
    f->neg = ch[SL_EXACT_NCHUNK - 1] < 0;
    if (f->neg) {
        for (int i = 0; i < SL_EXACT_NCHUNK; i++) ch[i] = -ch[i];
        normalise(ch);
    }
    SL_EXACT_REQUIRE(ch[SL_EXACT_NCHUNK - 1] >= 0 && ch[SL_EXACT_NCHUNK - 1] <= 0xffffffff,
                     "superaccumulator top limb out of range");
    f->top = -1;
    for (int i = 0; i < SL_EXACT_NCHUNK; i++) {
        f->mag[i] = (uint32_t)ch[i];
        if (ch[i]) {
            int b = 31;
            while (!((f->mag[i] >> b) & 1u)) b--;
            f->top = 32 * i + b;
        }
    }
    if (f->top < 0) f->neg = 0;
}

static uint64_t get_bits(const uint32_t *mag, int pos, int nbits)
{
    int c = pos >> 5, s = pos & 31;
    uint64_t w0 = c < SL_EXACT_NCHUNK ? mag[c] : 0;
    uint64_t w1 = c + 1 < SL_EXACT_NCHUNK ? mag[c + 1] : 0;
    uint64_t w2 = c + 2 < SL_EXACT_NCHUNK ? mag[c + 2] : 0;
    uint64_t v = (w0 | (w1 << 32)) >> s;
    if (s) v |= w2 << (64 - s);
    return nbits < 64 ? v & ((1ull << nbits) - 1) : v;
}

static int bitlen64(uint64_t v) /* index of the highest set bit + 1, 0 for 0 */
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

static int any_below(const uint32_t *mag, int r) /* any of bits 0 .. r-1 set */
{
    for (int c = 0; c < (r >> 5); c++)
        if (mag[c]) return 1;
    return (r & 31) && (mag[r >> 5] & ((1u << (r & 31)) - 1u));
}

double sl_exact_fixed_round(const sl_exact_fixed *f, sl_dtype to)
{
    /* p: precision; qmin: unit exponent of the smallest subnormal of `to`;
     * ovf: first unit exponent that no finite value of `to` reaches (2^(emax+1)). */
    const int p = to == SL_F64 ? 53 : 24;
    const int qmin = to == SL_F64 ? 0 : 925;
    const int ovf = to == SL_F64 ? 1024 + 1074 : 128 + 1074;
    if (f->top < 0) return 0.0;
    int q = f->top - (p - 1);
    if (q < qmin) q = qmin;
    uint64_t mant = get_bits(f->mag, q, p);
    if (q > 0) {
        int half = (f->mag[(q - 1) >> 5] >> ((q - 1) & 31)) & 1u;
        if (half && ((mant & 1u) || any_below(f->mag, q - 1))) mant++;
        if (mant >> p) {
            mant >>= 1;
            q++;
        }
    }
    double r;
    if (mant && q + bitlen64(mant) - 1 >= ovf) r = INFINITY;
    else r = ldexp((double)mant, q - 1074); /* exact: mant has <= p bits and is in range */
    return f->neg ? -r : r;
}

void sl_exact_fixed_to_mpfr(const sl_exact_fixed *f, mpfr_t out)
{
    if (f->top < 0) {
        mpfr_set_zero(out, 1);
        return;
    }
    int low = 0;
    while (!((f->mag[low >> 5] >> (low & 31)) & 1u)) low++;
    mpfr_prec_t need = f->top - low + 1;
    if (need < MPFR_PREC_MIN) need = MPFR_PREC_MIN;
    if (mpfr_get_prec(out) < need) mpfr_set_prec(out, need);
    mpz_t z;
    mpz_init(z);
    mpz_import(z, SL_EXACT_NCHUNK, -1, sizeof(uint32_t), 0, 0, f->mag);
    if (f->neg) mpz_neg(z, z);
    int t = mpfr_set_z_2exp(out, z, -1074, MPFR_RNDN);
    mpz_clear(z);
    SL_EXACT_REQUIRE(t == 0 && mpfr_number_p(out), "mpfr_set_z_2exp was inexact (exponent range?)");
}

/* NaN, +Inf, -Inf decided by the special-value counts, or 0 when the sum is finite. */
static double special_result(const sl_exact *acc)
{
    if (acc->nan || (acc->pinf && acc->ninf)) return NAN;
    if (acc->pinf) return INFINITY;
    if (acc->ninf) return -INFINITY;
    return 0.0;
}

double sl_exact_round(const sl_exact *acc, sl_dtype to)
{
    double s = special_result(acc);
    if (s != 0.0) return s;
    if (acc->n == 0) return 0.0;
    sl_exact_fixed f;
    sl_exact_fixed_get(acc, 0, &f);
    if (f.top < 0) return acc->notnegzero ? 0.0 : -0.0;
    return sl_exact_fixed_round(&f, to);
}

int sl_exact_get(const sl_exact *acc, mpfr_t out)
{
    double s = special_result(acc);
    if (s != 0.0) {
        if (isnan(s)) mpfr_set_nan(out);
        else mpfr_set_inf(out, s > 0 ? 1 : -1);
        return 1;
    }
    if (acc->n == 0) {
        mpfr_set_zero(out, 1);
        return 0;
    }
    sl_exact_fixed f;
    sl_exact_fixed_get(acc, 0, &f);
    if (f.top < 0) {
        mpfr_set_zero(out, acc->notnegzero ? 1 : -1);
        return 0;
    }
    sl_exact_fixed_to_mpfr(&f, out);
    return 0;
}

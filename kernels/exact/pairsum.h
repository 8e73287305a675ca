/* exact/pairsum.h: the cheap certified sum of exact terms, host and device, the first pass of the
 * `correct` dot product (dot/dot_fast.h: the terms are the products) and norm2 (norm/: the
 * squares): the terms summed as a float64 pair with every addition's error captured (Fast2Sum),
 * or, for the squares of float32/16-bit values, as a plain float64 sum; a rigorous error box
 * around the sum; dot: the box's two ends rounded exactly on limbs, norm2: the candidate root
 * tested exactly against its two midpoints; when they agree that is the correctly rounded
 * result, else the caller's next pass runs.
 *
 * Pair sums. Each term is a product x y of two inputs widened exactly (x x for norm2): p = x y and
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
 *
 * Squares of float32/16-bit values (norm2): a plain float64 sum. Each q = x^2 is exact and >= 0
 * in float64 (at most 48 bits, 2^-298 <= q <= 2^256), so per thread s = fma(u, u, s) (u the value
 * widened: u u is exact, one rounding per add) and the merges s + s'. Proof of the box: every
 * rounded add is (a + b)(1 + d), |d| <= u, no add over- or underflows (sums of at most 2^40 terms
 * in [2^-298, 2^256], or exact zeros), so s = sum q_i prod_{j <= h}(1 + d_ij) with at most h
 * factors per term (h as above: the term's later adds in its thread and every merge above it)
 * and |s - S| <= gamma_h sum q_i = gamma_h S (all q_i >= 0), gamma_h = h u / (1 - h u). With
 * S <= s / (1 - gamma_h) and h < 2^24: |s - S| <= h u (1 + 2^-27) s <= fl(h 2^-52 s) = E (h 2^-52
 * exact, the product's rounding costs at most a factor 1 - u). Not certified: s not finite (NaN,
 * Inf), s = 0 (every value zero), h >= 2^24.
 *
 * The root (norm2, every format: sl_psum_root_end): the candidate r is sqrt(s + c) (one Newton
 * step on the pair) rounded to the format (p bits, least exponent emin). sqrt(S) rounds to r
 * exactly when (r - g-)^2 < S < (r + g+)^2, g+- half the gaps to r's neighbours (g- halved at a
 * power of two above 2^emin; ties fail the strict tests and are left to the next pass); r + g+ is
 * the overflow threshold when r is the largest value. Each square is ch + cl + 2 r g + g^2 with
 * (ch, cl) = TwoProduct(r, r), every term exact for 2^-480 <= r <= 2^510 (cl, g^2 and 2 r g
 * multiples of 2^-1074, ch < 2^1021), and each test's sign is taken exactly on the limbs against
 * the box's end s + c -+ E (seven doubles). Lane 0 tests the lower side, lane 1 the upper: both
 * give r when they hold, else 0. Not certified: r outside [2^-480, 2^510] (float64 norms of tiny or
 * huge data: the exact kernel), r above the format's largest value.
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

/* The exact sum of v[0..k) (finite doubles) into limb[0..SL_SACC_LIMBS_F64) (units 2^-1074). */
SL_PSUM_HD void sl_psum_limbs(int64_t *limb, const double *v, int k)
{
    for (int i = 0; i < SL_SACC_LIMBS_F64; i++) limb[i] = 0;
    for (int j = 0; j < k; j++) {
        int idx = 0, neg = 0;
        uint64_t ch[3] = {0, 0, 0};
        if (!sl_sacc_split_f64(v[j], SL_SACC_SCALE_F64, &idx, ch, &neg)) continue;
        const int64_t m = neg ? -1 : 0;
        for (int i = 0; i < 3; i++) limb[idx + i] += ((int64_t)ch[i] ^ m) - m;
    }
}

/* The end s + c + side E rounded exactly: float64 (f64 != 0) to nearest even, else to odd in
 * float64 (the caller rounds that to the format). */
SL_PSUM_HDN double sl_psum_end(const sl_psum_acc *t, double E, int side, int f64)
{
    int64_t limb[SL_SACC_LIMBS_F64];
    const double v[3] = {t->s, t->c, side < 0 ? -E : E};
    sl_psum_limbs(limb, v, 3);
    return sl_sacc_round_mode(limb, SL_SACC_LIMBS_F64, 0, SL_F64, SL_SACC_ANYPOS, f64 ? 0 : 1);
}

/* ---- squares of float32/16-bit values: the plain float64 sum (header) ---- */
SL_PSUM_HD double sl_psum_sq_take(double s, double u)
{
    return fma(u, u, s);                             /* u u exact: one rounding, s + u u */
}

/* The box's half-width E around the plain sum s for chain length h; 0 when it cannot decide. */
SL_PSUM_HD int sl_psum_sq_bound(double s, uint64_t h, double *E)
{
    if (h >= ((uint64_t)1 << 24) || !isfinite(s) || !(s > 0.0)) return 0;
    *E = ((double)h * 0x1p-52) * s;
    return 1;
}

/* The longest chain of adds of a term in sl_psum_kernel (pairsum.cuh) for nv vectors of W values
 * over T = G B threads: head, W per vector round, tail, the block's two tree levels (10), the
 * last block's loop over the G blocks and its two levels, with room. */
SL_PSUM_HD uint64_t sl_psum_chain(uint64_t nv, uint64_t W, uint64_t T, uint64_t G, uint64_t B)
{
    return 2u + W * ((nv + T - 1) / T) + (G + B - 1) / B + 32u;
}

/* ---- the root (header): the format's precision, least exponent and largest value ---- */
SL_PSUM_HD int sl_psum_fmt_p(int dt) { return dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8; }
SL_PSUM_HD int sl_psum_fmt_emin(int dt) { return dt == SL_F64 ? -1022 : dt == SL_F16 ? -14 : -126; }
SL_PSUM_HD double sl_psum_fmt_max(int dt)
{
    return dt == SL_F64 ? 0x1.fffffffffffffp1023 : dt == SL_F32 ? 0x1.fffffep127 : dt == SL_F16 ? 65504.0 : 0x1.fep127;
}

/* The exponent of the quantum of dt at x > 0 (finite, normal in float64). */
SL_PSUM_HD int sl_psum_quantum(double x, int dt)
{
    int e = ilogb(x);
    const int emin = sl_psum_fmt_emin(dt);
    return (e > emin ? e : emin) - sl_psum_fmt_p(dt) + 1;
}

/* x > 0 finite rounded to nearest even at dt's quantum (exact operations; beyond dt's largest
 * value the result is past it: the caller tests). */
SL_PSUM_HD double sl_psum_round_fmt(double x, int dt)
{
    const int q = sl_psum_quantum(x, dt);
    return ldexp(rint(ldexp(x, -q)), q);
}

/* The candidate root of s + c in dt (header), 0 when out of the tested range. */
SL_PSUM_HD double sl_psum_root_cand(double s, double c, int dt)
{
    const double v = s + c;
    if (!(v >= 0x1p-962 && v <= 0x1p1020)) return 0.0;
    double r = sqrt(v);
    const double rh = r * r, rl = fma(r, r, -rh);
    r = r + (((s - rh) - rl) + c) / (2.0 * r);      /* one Newton step on the pair: a better guess */
    r = sl_psum_round_fmt(r, dt);
    if (!(r >= 0x1p-480 && r <= 0x1p510) || r > sl_psum_fmt_max(dt)) return 0.0;
    return r;
}

/* 1 when side's strict test holds exactly for the candidate r (header): side < 0,
 * (r - g-)^2 < s + c - E; side > 0, s + c + E < (r + g+)^2. */
SL_PSUM_HDN int sl_psum_root_side(double s, double c, double E, double r, int side, int dt)
{
    const int q = sl_psum_quantum(r, dt);
    double g = ldexp(1.0, q - 1);                    /* half the gap above */
    if (side < 0 && ilogb(r) > sl_psum_fmt_emin(dt) && r == ldexp(1.0, ilogb(r))) g = 0.5 * g;
    const double ch = r * r, cl = fma(r, r, -ch), rg = 2.0 * r * g, gg = g * g;
    int64_t limb[SL_SACC_LIMBS_F64];
    /* side > 0: (r + g)^2 - (s + c + E); side < 0: (s + c - E) - (r - g)^2 */
    const double up[7] = {ch, cl, rg, gg, -s, -c, -E};
    const double dn[7] = {s, c, -E, -ch, -cl, rg, -gg};
    sl_psum_limbs(limb, side > 0 ? up : dn, 7);
    sl_sacc_normalise(limb, SL_SACC_LIMBS_F64);
    const int64_t top = limb[SL_SACC_LIMBS_F64 - 1];
    if (top) return top > 0;
    for (int i = 0; i < SL_SACC_LIMBS_F64 - 1; i++)
        if (limb[i]) return 1;
    return 0;                                        /* zero: a tie or a square on the edge */
}

/* One end of the root's decision (lane 0: side -1, lane 1: side +1): the candidate when its
 * side's test holds, else 0 (sl_psum_decide then fails). */
SL_PSUM_HD double sl_psum_root_end(double s, double c, double E, int side, int dt)
{
    const double r = sl_psum_root_cand(s, c, dt);
    return r > 0.0 && sl_psum_root_side(s, c, E, r, side, dt) ? r : 0.0;
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
#include <stdlib.h>
#include "sl_twin.h"
#include "sl_layout.h"
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
/* The two ends of dot's box of half-width E around t in the format dt, as the kernel maps them
 * (S rounded exactly). */
static inline void sl_psum_ends_host(const sl_psum_acc *t, double E, sl_dtype dt, double *lo, double *hi)
{
    *lo = sl_psum_end(t, E, -1, dt == SL_F64);
    *hi = sl_psum_end(t, E, 1, dt == SL_F64);
    if (dt != SL_F64) {
        *lo = sl_tw_round(*lo, dt);
        *hi = sl_tw_round(*hi, dt);
    }
}
/* The twin's decision on the dot of x and y: 1 with *r the correctly rounded value, else 0. */
static inline int sl_psum_certify_host(const void *x, const void *y, uint64_t n, sl_dtype dt,
                                       double *r)
{
    if (n == 0 || !y) return 0;
    sl_psum_acc t;
    double E, lo, hi;
    const uint64_t h = sl_psum_sums_host(x, y, n, dt, &t);
    if (!sl_psum_bound(&t, n, h, &E)) return 0;
    sl_psum_ends_host(&t, E, dt, &lo, &hi);
    return sl_psum_decide(lo, hi, r);
}

/* ---- the kernel's own order on the host (the norm2 twin) -------------------------------------
 * sq: the plain float64 sum of the squares (its value in .s; sl_psum_ops_sq), else the pair
 * (sl_psum_ops_pair). A term, a merge, a warp's five levels, a block (warps into 32 slots, +0
 * for missing warps, then one warp over the slots), as pairsum.cuh's sl_psum_block. */
static inline void sl_psum_host_term(sl_psum_acc *t, double a, double b, sl_dtype dt, int sq)
{
    if (sq) {
        t->s = sl_psum_sq_take(t->s, a);
        return;
    }
    const double p = a * b;
    sl_psum_take(t, p, dt == SL_F64 ? fma(a, b, -p) : 0.0);
}
static inline void sl_psum_host_merge(sl_psum_acc *t, const sl_psum_acc *b, int sq)
{
    if (sq) t->s = t->s + b->s;
    else sl_psum_merge(t, b);
}
static inline void sl_psum_host_warp(sl_psum_acc v[32], int sq)
{
    for (int off = 16; off > 0; off >>= 1)
        for (int i = 0; i < off; i++) sl_psum_host_merge(&v[i], &v[i + off], sq);
}
static inline sl_psum_acc sl_psum_host_block(const sl_psum_acc *v, uint32_t B, int sq)
{
    sl_psum_acc slots[32], lanes[32];
    for (int w = 0; w < 32; w++) sl_psum_init(&slots[w]);
    for (uint32_t w = 0; w < B / 32u; w++) {
        for (int l = 0; l < 32; l++) lanes[l] = v[w * 32u + (uint32_t)l];
        sl_psum_host_warp(lanes, sq);
        slots[w] = lanes[0];
    }
    sl_psum_host_warp(slots, sq);
    return slots[0];
}

/* sl_psum_kernel's accumulator on x (and y; NULL: the squares of x) [0..n) for the resolved
 * launch cfg (grid, block, addr_mod): thread g's head element, vectors g, g + T, ... lane by lane
 * and tail element, each block's tree, the last block's loop over the blocks and its tree; *h the
 * kernel's chain length. 0, or -1 when out of memory. Memory O(grid + block). */
static inline int sl_psum_grid_host(const void *x, const void *y, uint64_t n, sl_dtype dt,
                                    const sl_launch *cfg, int sq, sl_psum_acc *out, uint64_t *h)
{
    const uint32_t G = cfg->grid, B = cfg->block, W = sl_vec_width(dt);
    uint64_t head, nv;
    sl_vec_split(n, dt, cfg->addr_mod, &head, &nv);
    const uint64_t T = (uint64_t)G * B, ts = head + nv * W;
    sl_psum_acc *thr = (sl_psum_acc *)malloc((size_t)B * sizeof *thr);
    sl_psum_acc *part = (sl_psum_acc *)malloc((size_t)G * sizeof *part);
    if (!thr || !part) {
        free(thr);
        free(part);
        return -1;
    }
#define SL_PSUM_HOST_TERM(i)                                                                      \
    sl_psum_host_term(&a, sl_tw_load(x, dt, (i)), sl_tw_load(y ? y : x, dt, (i)), dt, sq)
    for (uint32_t b = 0; b < G; b++) {
        for (uint32_t t = 0; t < B; t++) {
            const uint64_t g = (uint64_t)b * B + t;
            sl_psum_acc a;
            sl_psum_init(&a);
            if (g < head) SL_PSUM_HOST_TERM(g);
            for (uint64_t j = g; j < nv; j += T)
                for (uint32_t k = 0; k < W; k++) SL_PSUM_HOST_TERM(head + j * W + k);
            if (g < n - ts) SL_PSUM_HOST_TERM(ts + g);
            thr[t] = a;
        }
        part[b] = sl_psum_host_block(thr, B, sq);
    }
#undef SL_PSUM_HOST_TERM
    for (uint32_t t = 0; t < B; t++) {
        sl_psum_init(&thr[t]);
        for (uint64_t b = t; b < G; b += B) sl_psum_host_merge(&thr[t], &part[b], sq);
    }
    *out = sl_psum_host_block(thr, B, sq);
    *h = sl_psum_chain(nv, W, T, G, B);
    free(thr);
    free(part);
    return 0;
}

/* The root's decision on the box [s + c - E, s + c + E] (both lanes' ends): 1 with *r the
 * correctly rounded norm in dt, else 0. */
static inline int sl_psum_root_decide(double s, double c, double E, sl_dtype dt, double *r)
{
    return sl_psum_decide(sl_psum_root_end(s, c, E, -1, dt), sl_psum_root_end(s, c, E, 1, dt), r);
}

/* norm2's first pass as the kernel runs it for the resolved cfg (float32/16-bit: the plain sum;
 * float64: the pair): 1 with *r the correctly rounded norm, 0 when it does not certify (the next
 * pass decides), -1 when out of memory. */
static inline int sl_psum_norm_host(const void *x, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                                    double *r)
{
    const int sq = dt != SL_F64;
    sl_psum_acc t;
    uint64_t h;
    double E;
    if (sl_psum_grid_host(x, NULL, n, dt, cfg, sq, &t, &h)) return -1;
    if (!(sq ? sl_psum_sq_bound(t.s, h, &E) : sl_psum_bound(&t, n, h, &E))) return 0;
    return sl_psum_root_decide(t.s, sq ? 0.0 : t.c, E, dt, r);
}
#endif
#endif

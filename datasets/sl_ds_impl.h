/* sl_ds_impl.h: internals shared by the dataset generators (not part of the public contract):
 * the inline counter-based RNG, the Feistel permutation of [0,n), exact float helpers and the
 * per-family dataset descriptors the registry lists. */
#ifndef SL_DS_IMPL_H
#define SL_DS_IMPL_H
#include "sl_datasets.h"
#include "sl_detmath.h"
#include "sumlab/rng.h"
#include "sumlab/half.h"
#include <math.h>
#include <stdio.h>

/* Floating-point assumptions: IEEE-754 binary32/binary64 (binary16 and bfloat16 values are
 * built as doubles and rounded once by sumlab/half.h's integer conversion), round to nearest even, no
 * contraction (-ffp-contract=off). Only +, -, *, /, sqrt, floor, frexp and ldexp are used on
 * values: they are correctly rounded or exact, so every machine produces the same bits. No
 * other libm function is called (their last bit differs between libm versions). */

/* ---- counter-based RNG: sumlab/rng.h's SplitMix64 on a per-(seed, stream) key ---------------- */
/* Key of a (seed, stream) pair; value i of the stream is sl_rng_at(key, i). */
static inline uint64_t sl_rng_key(uint64_t seed, uint64_t stream)
{
    return sl_mix64(sl_mix64(seed ^ 0x6A09E667F3BCC909ull) + stream * 0xD1B54A32D192ED03ull +
                    0x3C6EF372FE94F82Bull);
}
static inline uint64_t sl_rng_at(uint64_t key, uint64_t i) { return sl_hash64(key, i); }

/* Bits to values, exact in the named format. */
static inline double sl_u53(uint64_t u) { return (double)(u >> 11) * 0x1p-53; }      /* [0,1) */
static inline double sl_u24(uint64_t u) { return (double)(u >> 40) * 0x1p-24; }      /* [0,1) */

/* Stream of a family: a hash of its name, so families with one seed are unrelated. */
static inline uint64_t sl_name_stream(const char *name)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *name; name++) h = (h ^ (unsigned char)*name) * 0x100000001B3ull;
    return h;
}

/* ---- pseudo-random permutation of [0,n): a 4-round (unbalanced when needed) Feistel network
 * on [0, 2^bits), 2^bits >= n the next power of two, with cycle walking: the domain is < 2n,
 * so fewer than 2 passes per element on average. ------------------------------------------ */
typedef struct {
    uint64_t n;
    unsigned la, lb; /* bits of the left and right halves (la + lb = bits, la <= lb) */
    uint64_t key[4];
} sl_perm;

static inline void sl_perm_init(sl_perm *p, uint64_t n, uint64_t seed, uint64_t stream)
{
    unsigned bits = 0;
    while (bits < 64 && (1ull << bits) < n) bits++;
    if (bits < 2) bits = 2;
    p->n = n;
    p->la = bits / 2u;
    p->lb = bits - p->la;
    for (int r = 0; r < 4; r++) p->key[r] = sl_rng_at(sl_rng_key(seed, stream), (uint64_t)r);
}

/* Round function: `out` (>= 1) pseudo-random bits of (x, key). */
static inline uint64_t sl_perm_round(uint64_t x, uint64_t key, unsigned out)
{
    uint64_t h = (x + key) * 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    return h >> (64u - out);
}

static inline uint64_t sl_perm_apply(const sl_perm *p, uint64_t x)
{
    if (p->n <= 1) return 0;
    do {
        unsigned sl = p->la, sr = p->lb;
        uint64_t l = x >> sr, r = x & ((1ull << sr) - 1u);
        for (int k = 0; k < 4; k++) { /* (l: sl bits, r: sr bits) -> (r, l ^ F(r)) */
            uint64_t t = l ^ sl_perm_round(r, p->key[k], sl);
            l = r;
            r = t;
            unsigned u = sl;
            sl = sr;
            sr = u;
        }
        x = (l << sr) | r;
    } while (x >= p->n);
    return x;
}

/* ---- exact float helpers ----------------------------------------------------------------- */
/* Format facts: precision in bits, smallest normal / subnormal exponent, largest exponent. */
static inline int sl_fmt_prec(sl_dtype dt)
{
    return dt == SL_F64 ? 53 : sl_dtype_is_half(dt) ? sl_half_prec(dt) : 24;
}
static inline int sl_fmt_emin(sl_dtype dt)
{
    return dt == SL_F64 ? -1022 : sl_dtype_is_half(dt) ? sl_half_emin(dt) : -126;
}
static inline int sl_fmt_esub(sl_dtype dt) { return sl_fmt_emin(dt) - sl_fmt_prec(dt) + 1; }
static inline int sl_fmt_emax(sl_dtype dt)
{
    return dt == SL_F64 ? 1023 : sl_dtype_is_half(dt) ? sl_half_emax(dt) : 127;
}
static inline double sl_fmt_max(sl_dtype dt)
{
    return dt == SL_F64 ? 0x1.fffffffffffffp1023 : dt == SL_F16 ? 0x1.ffcp15 : dt == SL_BF16 ? 0x1.fep127
                                                                              : 0x1.fffffep127;
}

/* 2^e as a double for -1074 <= e <= 1023, built from bits (exact). */

/* Uniform mantissa in [1,2) with the format's precision (exact in the format). */
static inline double sl_mant(uint64_t u, sl_dtype dt)
{
    if (sl_dtype_is_half(dt)) {
        const int f = sl_fmt_prec(dt) - 1;
        return 1.0 + (double)(u >> (64 - f)) * sl_pow2(-f);
    }
    return 1.0 + (dt == SL_F64 ? (double)(u >> 12) * 0x1p-52 : (double)(u >> 41) * 0x1p-23);
}

/* Rounds a double to the format once (to float for f32). */
static inline double sl_round_fmt(double x, sl_dtype dt)
{
    return dt == SL_F64 ? x : sl_dtype_is_half(dt) ? sl_half_round(x, dt) : (double)(float)x;
}


/* ---- normal deviates (Marsaglia polar method): a pure function of (seed, stream, i) ------- */
/* Draws (u, v) uniform in the open unit disk without the v = 0 axis for element i: attempt a
 * uses hashes 2i and 2i+1 of the stream key(seed, stream + a), so the draw stays a pure
 * function of i. Returns s = u^2 + v^2. */
static inline double sl_disk_point(uint64_t seed, uint64_t stream, uint64_t key0, uint64_t i,
                                   double *u, double *v)
{
    uint64_t key = key0;
    for (uint64_t a = 1;; a++) {
        *u = (double)(sl_rng_at(key, 2 * i) >> 11) * 0x1p-52 - 1.0;
        *v = (double)(sl_rng_at(key, 2 * i + 1) >> 11) * 0x1p-52 - 1.0;
        double s = *u * *u + *v * *v;
        if (s < 1.0 && s > 0.0 && *v != 0.0) return s;
        key = sl_rng_key(seed, stream + a); /* rejected (about 21%): next attempt */
    }
}

static inline double sl_normal_at(uint64_t seed, uint64_t stream, uint64_t key0, uint64_t i)
{
    double u, v, s = sl_disk_point(seed, stream, key0, i, &u, &v);
    return u * sqrt(-2.0 * sl_det_log(s) / s);
}

/* The 16-bit loop for one format, DT a literal (its rounding folds to constants). */
#define SL_FILL_LOOP_HALF_(DT, out, start, count, EXPR)                                   \
    do {                                                                                   \
        uint16_t *o_ = (uint16_t *)(out);                                                  \
        for (uint64_t j_ = 0; j_ < (count); j_++) {                                        \
            const uint64_t i = (start) + j_;                                               \
            o_[j_] = sl_half_from_double((EXPR), DT);                                      \
        }                                                                                  \
    } while (0)

/* Loops that write a value expression for i in [start, start+count) into out as float,
 * double or a 16-bit pattern (rounded once from the double). EXPR is a double already exactly
 * representable in the format (or rounded once by the float conversion). */
#define SL_FILL_LOOP(dt, out, start, count, EXPR)                                          \
    do {                                                                                   \
        if ((dt) == SL_F64) {                                                              \
            double *o_ = (double *)(out);                                                  \
            for (uint64_t j_ = 0; j_ < (count); j_++) {                                    \
                const uint64_t i = (start) + j_;                                           \
                o_[j_] = (EXPR);                                                           \
            }                                                                              \
        } else if ((dt) == SL_F16) {                                                       \
            SL_FILL_LOOP_HALF_(SL_F16, out, start, count, EXPR);                           \
        } else if ((dt) == SL_BF16) {                                                      \
            SL_FILL_LOOP_HALF_(SL_BF16, out, start, count, EXPR);                          \
        } else {                                                                           \
            float *o_ = (float *)(out);                                                    \
            for (uint64_t j_ = 0; j_ < (count); j_++) {                                    \
                const uint64_t i = (start) + j_;                                           \
                o_[j_] = (float)(EXPR);                                                    \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* Families (defined in gen_*.c, listed in registry.c). */
extern const sl_dataset sl_ds_uniform, sl_ds_uniform_sym, sl_ds_normal, sl_ds_cauchy,
    sl_ds_log_uniform, sl_ds_sorted_inc, sl_ds_sorted_dec, sl_ds_alternating, sl_ds_subnormal,
    sl_ds_ill_conditioned, sl_ds_absorption, sl_ds_cancellation, sl_ds_overflow, sl_ds_special,
    sl_ds_offset_normal, sl_ds_square_range, sl_ds_constant, sl_ds_two_values, sl_ds_outliers,
    sl_ds_student_t, sl_ds_negative,
    sl_ds_logits, sl_ds_logits_dominant, sl_ds_lse_masked, sl_ds_logits_low, sl_ds_logits_high, /* gen_lse.c */
    sl_ds_nrm2_table, sl_ds_huge, sl_ds_tiny, sl_ds_sq_overflow, /* gen_norm.c */
    sl_ds_dot_random, sl_ds_dot_cond, sl_ds_dot_overflow; /* gen_dot.c: pairs for dot */

#endif

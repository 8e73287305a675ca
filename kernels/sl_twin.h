/* sl_twin.h: CPU mirrors of the device building blocks of reduce/reduce.cuh, scope by scope as
 * there (combine operations, warp, block, grid finish), for the plain add and for the
 * compensated pair, plus the small pieces every twin uses (element loads, rounding to the
 * accumulator format, sampled commit orders, depth helpers), so each twin is a short
 * transcription of its kernel.
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, x86-64 SSE2 (or
 * any FLT_EVAL_METHOD 0 target), -ffp-contract=off, no fast-math. Values travel as double;
 * a binary32 add is done as (float)(a + b) on doubles holding floats, which equals the
 * binary32 add bit for bit (53 >= 2*24 + 2, so the double rounding is innocuous). Hot chains
 * with a float32 accumulator (sl_tw_chain, atomic-thread's) run in float, the same adds; inner
 * loops are specialised per format pair (SL_TW_DISPATCH); sl_tw_set_generic turns both off. */
#ifndef SL_TWIN_H
#define SL_TWIN_H
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sumlab/half.h"
#include "sumlab/types.h"
#include "sl_layout.h"
#include "sl_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inner loops instantiated per (input, accumulator) pair: a body marked SL_TW_INLINE and
 * called with literal dtypes (SL_TW_DISPATCH below) sees them as constants, so the per-element
 * format switches of sl_tw_load / sl_tw_add fold away. Same operations, same order. */
#if defined(__GNUC__)
#define SL_TW_INLINE static inline __attribute__((always_inline))
#else
#define SL_TW_INLINE static inline
#endif

static inline float sl_tw_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A float16/bfloat16 pattern as a float, by a few integer operations: the same value as
 * sl_half_to_double (exact), NaN as the quiet NaN of the same sign without payload (which
 * widens to the double sl_half_to_double gives). Checked for all 2^16 patterns (ttwin_fast). */
static inline float sl_tw_half_to_float(uint16_t h, sl_dtype dt)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    if (dt == SL_BF16) {
        if ((h & 0x7f80u) == 0x7f80u && (h & 0x7fu)) return sl_tw_bits_float(sign | 0x7fc00000u);
        return sl_tw_bits_float((uint32_t)h << 16);
    }
    const uint32_t e = (h >> 10) & 0x1fu, f = h & 0x3ffu;
    if (e == 0) { /* zero or subnormal: f 2^-24, exact in float */
        const float m = (float)f * 0x1p-24f;
        uint32_t u;
        memcpy(&u, &m, sizeof u);
        return sl_tw_bits_float(sign | u);
    }
    if (e == 0x1fu) return sl_tw_bits_float(sign | (f ? 0x7fc00000u : 0x7f800000u));
    return sl_tw_bits_float(sign | (((uint32_t)(h & 0x7fffu) << 13) + (112u << 23)));
}

/* sl_half_round(x, dt) (x rounded once to float16/bfloat16, nearest even, +-Inf beyond the
 * overflow threshold, NaN to the quiet NaN of its sign) without loops: below the smallest
 * normal 2^emin by the hardware's own rounding ((|x| + c) - c, c = 2^(emin - p + 1 + 52) puts
 * the format's subnormal quantum at c's ulp); above it by rounding the double's bits at bit
 * 52 - (p - 1) (ties to even; a carry moves into the next binade). Equal bit for bit to
 * sl_half_round for every double (ttwin_fast checks random and boundary values). */
static inline double sl_tw_half_round(double x, sl_dtype dt)
{
    const int bf = dt == SL_BF16;
    const unsigned shift = bf ? 45u : 42u;                          /* 52 - (p - 1) */
    const double c = bf ? 0x1p-81 : 0x1p28;                         /* 2^(emin - p + 53) */
    const uint64_t minnorm = bf ? 0x3810000000000000ull : 0x3f10000000000000ull; /* 2^emin */
    const uint64_t ovf = bf ? 0x47f0000000000000ull : 0x40f0000000000000ull; /* 2^(emax+1) */
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    const uint64_t sign = b & 0x8000000000000000ull;
    uint64_t a = b ^ sign;
    if (a >= 0x7ff0000000000000ull) /* Inf stays, NaN quiet without payload */
        return sl_half_bits_double(a == 0x7ff0000000000000ull ? b : sign | 0x7ff8000000000000ull);
    if (a < minnorm) {
        const double r = (sl_half_bits_double(a) + c) - c;
        memcpy(&a, &r, sizeof a);
        return sl_half_bits_double(sign | a);
    }
    a += ((1ull << (shift - 1u)) - 1u) + ((a >> shift) & 1u);
    a &= ~((1ull << shift) - 1u);
    return sl_half_bits_double(sign | (a >= ovf ? 0x7ff0000000000000ull : a));
}

/* x[i] as a double (exact for every format). */
static inline double sl_tw_load(const void *x, sl_dtype dt, uint64_t i)
{
    if (dt == SL_F64) return ((const double *)x)[i];
    if (sl_dtype_is_half(dt)) return sl_tw_half_to_float(((const uint16_t *)x)[i], dt);
    return (double)((const float *)x)[i];
}
/* v rounded to the accumulator format acc (SL_F32: (float) cast, SL_F64: unchanged, the 16-bit
 * formats: sl_half_round, i.e. __float2half_rn / __float2bfloat16_rn). */
static inline double sl_tw_round(double v, sl_dtype acc)
{
    if (sl_dtype_is_half(acc)) return sl_tw_half_round(v, acc);
    return acc == SL_F64 ? v : (double)(float)v;
}
/* fl_acc(a + b): the GPU's `a + b` in format acc, for a, b already in that format. For the
 * 16-bit formats (half-acc) the double sum rounded once more is the correctly rounded 16-bit
 * add (53 >= 2 * 11 + 2: the double rounding is innocuous). */
static inline double sl_tw_add(double a, double b, sl_dtype acc)
{
    if (sl_dtype_is_half(acc)) return sl_tw_half_round(a + b, acc);
    return acc == SL_F64 ? a + b : (double)(float)(a + b);
}
/* x[i] as a float, for every input format but float64 (exact). */
static inline float sl_tw_load_f(const void *x, sl_dtype dt, uint64_t i)
{
    if (sl_dtype_is_half(dt)) return sl_tw_half_to_float(((const uint16_t *)x)[i], dt);
    return ((const float *)x)[i];
}

/* Straightforward mode for tests (ttwin_fast): 1 makes SL_TW_DISPATCH call the body with the
 * run-time formats, the float-only chains fall back to their double forms and atomic-block's
 * repetitions compute their block values themselves. Set it before any twin runs; default 0. */
void sl_tw_set_generic(int on);
/* Frees what the twins keep between calls (atomic-block's shared block values: up to 4 copies of
 * inputs of at most 16 MiB); slots being computed stay. libsumlab's sumlab_release calls it. */
void sl_tw_release_caches(void);
size_t sl_tw_cached_bytes(void);   /* the bytes those caches hold now */
extern int sl_tw_generic_mode;
static inline int sl_tw_generic(void) { return sl_tw_generic_mode; }

/* Host threads a twin may use inside one run (the pairwise tree's leaves; the result does
 * not depend on it): 1 by default; sessions set their thread count. */
void sl_twin_set_threads(unsigned threads);
unsigned sl_twin_threads(void);

/* M(d, a, ...) for the pair of input format dt and accumulator format acc, with d and a
 * literal constants for the pairs the twins meet (input format; float32 for 16-bit input; the
 * 16-bit format itself for half-acc; float64 for fp64-acc), so that an SL_TW_INLINE callee is
 * specialised; any other pair, and generic mode, get M(dt, acc, ...) with run-time values.
 * SL_TW_ENTRY(name) defines the twin entry name_cpu calling
 * name_run(v, x, n, dt, af, cfg, result, err) with af = sl_variant_acc(v, dt). */
#define SL_TW_DISPATCH(dt, acc, M, ...)                                                     \
    do {                                                                                    \
        const sl_dtype d_ = (dt), a_ = (acc);                                               \
        if (sl_tw_generic()) M(d_, a_, __VA_ARGS__);                                        \
        else if (d_ == SL_F32 && a_ == SL_F32) M(SL_F32, SL_F32, __VA_ARGS__);              \
        else if (d_ == SL_F64 && a_ == SL_F64) M(SL_F64, SL_F64, __VA_ARGS__);              \
        else if (d_ == SL_F16 && a_ == SL_F32) M(SL_F16, SL_F32, __VA_ARGS__);              \
        else if (d_ == SL_BF16 && a_ == SL_F32) M(SL_BF16, SL_F32, __VA_ARGS__);            \
        else if (d_ == SL_F16 && a_ == SL_F16) M(SL_F16, SL_F16, __VA_ARGS__);              \
        else if (d_ == SL_BF16 && a_ == SL_BF16) M(SL_BF16, SL_BF16, __VA_ARGS__);          \
        else if (d_ == SL_F32 && a_ == SL_F64) M(SL_F32, SL_F64, __VA_ARGS__);              \
        else if (d_ == SL_F16 && a_ == SL_F64) M(SL_F16, SL_F64, __VA_ARGS__);              \
        else if (d_ == SL_BF16 && a_ == SL_F64) M(SL_BF16, SL_F64, __VA_ARGS__);            \
        else M(d_, a_, __VA_ARGS__);                                                        \
    } while (0)
#define SL_TW_ENTRY_CALL_(d, a, name) rc_ = name##_run(v, x, n, d, a, cfg, result, err)
#define SL_TW_ENTRY(name)                                                                   \
    static int name##_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,      \
                          const sl_launch *cfg, double *result, sl_err *err)                \
    {                                                                                       \
        int rc_ = -1;                                                                       \
        SL_TW_DISPATCH(dt, sl_variant_acc(v, dt), SL_TW_ENTRY_CALL_, name);                 \
        return rc_;                                                                         \
    }

/* a (+) x[i] (+) x[i + stride] (+) ... in format acc, in this order, the terms below end and
 * at most max of them: one GPU thread's chain of loads and adds. With a float32 accumulator the
 * chain runs in float (a is a float held in a double: the conversions at both ends are exact);
 * generic mode: sl_tw_add on doubles. */
SL_TW_INLINE double sl_tw_chain(double a, const void *x, sl_dtype dt, sl_dtype acc, uint64_t i,
                                uint64_t stride, uint64_t end, uint64_t max)
{
    if (acc == SL_F32 && dt != SL_F64 && !sl_tw_generic()) {
        float f = (float)a;
        for (uint64_t k = 0; k < max && i < end; k++, i += stride) f += sl_tw_load_f(x, dt, i);
        return f;
    }
    for (uint64_t k = 0; k < max && i < end; k++, i += stride)
        a = sl_tw_add(a, sl_tw_load(x, dt, i), acc);
    return a;
}

/* A result accumulated in acc given back in the input format dt: rounded once when dt is a
 * 16-bit format (the kernels' final __float2half_rn / __float2bfloat16_rn), unchanged otherwise. */
static inline double sl_tw_out(double r, sl_dtype dt)
{
    return sl_dtype_is_half(dt) ? sl_half_round(r, dt) : r;
}

/* ---- combine operations (reduce/ops.cuh) ----
 * The plain add is sl_tw_add. A compensated pair (s, e) in format acc, mirror of sl_op_pair:
 * (s1,e1) + (s2,e2): s = s1+s2, bp = s-s1, err = (s1-(s-bp)) + (s2-bp), e = err + (e1+e2),
 * each operation rounded once in acc. */
typedef struct { double s, e; } sl_tw_pair;
static inline sl_tw_pair sl_tw_pair_add(sl_tw_pair x, sl_tw_pair y, sl_dtype acc)
{
    sl_tw_pair r;
    if (acc == SL_F32) {
        float a = (float)x.s, b = (float)y.s;
        float S = a + b;
        float bp = S - a;
        float err = (a - (S - bp)) + (b - bp);
        float ee = (float)x.e + (float)y.e;
        r.s = S;
        r.e = err + ee;
    } else {
        double a = x.s, b = y.s;
        double S = a + b;
        double bp = S - a;
        double err = (a - (S - bp)) + (b - bp);
        double ee = x.e + y.e;
        r.s = S;
        r.e = err + ee;
    }
    return r;
}

/* ---- warp scope (reduce/warp.cuh) ----
 * v[32] are the lanes' values; for off = 16..1, v[i] = v[i] (+) v[i+off] for i < off.
 * Returns v[0]; v is overwritten. */
double sl_tw_warp_sum(double v[32], sl_dtype acc);
sl_tw_pair sl_tw_pair_warp(sl_tw_pair v[32], sl_dtype acc);

/* ---- block scope (reduce/block.cuh) ----
 * v[0..block-1] are the threads' values (block a multiple of 32, <= 1024). Warp values into
 * 32 slots (missing warps: +0 / (+0,+0)), then a warp reduction of the slots. v is not
 * modified. */
double sl_tw_block_sum(const double *v, uint32_t block, sl_dtype acc);
sl_tw_pair sl_tw_pair_block(const sl_tw_pair *v, uint32_t block, sl_dtype acc);

/* ---- grid scope (reduce/grid.cuh) ----
 * Mirror of sl_grid_finish: `block` threads, thread t reduces +0 (+) p[t] (+) p[t+block]
 * (+) ... in that order; then the block reduction over the threads. */
double sl_tw_finish(const double *partials, uint64_t nparts, uint32_t block, sl_dtype acc);
sl_tw_pair sl_tw_pair_finish(const sl_tw_pair *partials, uint64_t nparts, uint32_t block,
                             sl_dtype acc);

/* Shared-memory trees of the early ladder rungs (block a power of two); s[0] holds the result
 * on return; s is overwritten. interleaved: for stride = 1, 2, .. < block, s[t] += s[t+stride]
 * for t % (2 stride) == 0. sequential: for stride = block/2 .. 1, s[t] += s[t+stride] for
 * t < stride. */
double sl_tw_tree_interleaved(double *s, uint32_t block, sl_dtype acc);
double sl_tw_tree_sequential(double *s, uint32_t block, sl_dtype acc);

/* Commit orders of the atomic variants: a Fisher-Yates shuffle of 0..count-1 with
 * j = sl_hash64(seed, i) % (i + 1) for i = count-1 .. 1 (sumlab/rng.h: value depends only on seed
 * and i, any machine). Returns a malloc'ed array (NULL when
 * out of memory or count >= 2^32). */
uint32_t *sl_tw_shuffle(uint64_t count, uint64_t seed);
/* One global-memory atomicAdd r += v in format acc. The binary32 atom.add flushes subnormal
 * operands and results to zero of the same sign (measured on sm_90); binary64 does not.
 * sl_tw_ftz_f is that flush on a float (+-0 map to themselves); sl_tw_atomic_add_f the binary32
 * atomicAdd on floats, equal to sl_tw_atomic_add(r, v, SL_F32). */
static inline float sl_tw_ftz_f(float v)
{
    return fabsf(v) < FLT_MIN ? copysignf(0.0f, v) : v;
}
static inline float sl_tw_atomic_add_f(float r, float v)
{
    return sl_tw_ftz_f(sl_tw_ftz_f(r) + sl_tw_ftz_f(v));
}
static inline double sl_tw_atomic_add(double r, double v, sl_dtype acc)
{
    if (acc == SL_F64) return r + v;
    return sl_tw_atomic_add_f((float)r, (float)v);
}

/* Depth helpers (number of adds on the longest path, the k of gamma_k). */
uint32_t sl_tw_ceil_log2(uint64_t v);                    /* 0 for v <= 1 */
double sl_tw_depth_block_sum(uint32_t block);            /* 5 + ceil(log2(block/32)) */
double sl_tw_depth_finish(uint64_t nparts, uint32_t block); /* ceil(nparts/block) + block sum */
/* The longest chain of the one-launch vector kernels (sl_vec_grid_resolve): a thread's vectors,
 * its head and tail element, the lane combine, the block tree, the last-block finish. */
static inline double sl_tw_depth_vec_grid(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    const uint64_t nv = n / sl_vec_width(dt);
    return (double)((nv + (T ? T : 1) - 1) / (T ? T : 1)) + 2.0 + (double)sl_tw_ceil_log2(sl_vec_width(dt)) +
           sl_tw_depth_block_sum(cfg->block) + sl_tw_depth_finish(cfg->grid, cfg->block);
}

/* Block size as the ladder resolves it: 0 -> dflt; otherwise rounded up to a power of two,
 * clamped to [32, 1024]. */
uint32_t sl_tw_pow2_block(uint32_t block, uint32_t dflt);

#ifdef __cplusplus
}
#endif
#endif

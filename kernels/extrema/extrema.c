/* extrema.c: descriptors, resolve(), depth() and CPU twins of the max/min variants (block-reduce,
 * zero-fill, fmax/fmin) and of `fused` (one read: sum, sum of squares and maximum; a variant of
 * mean, var, std and max). Each twin gives its kernel's (extrema.cu) bits for the same resolved
 * sl_launch. Determinism: the max/min kinds are order-independent (a maximum is exact; the
 * comparisons are associative and commutative with -0 < +0), NaN payloads aside; fused's sums are
 * run-to-run (a fixed tree), its maximum order-independent.
 *
 * max/min kinds: thread g's W lanes start at the identity (-inf for max, +inf for min; 0 for
 * zero-fill, the first text's version, which turns an all-negative maximum into 0), every element
 * is compared in (widened exactly to) float32 or float64; lanes, warps, blocks and the last block
 * combine with the same comparison, padding with the same start value. The twin folds the input in
 * index order from the start value: the same result for any order. n = 0 gives NaN (no kernel).
 *
 * fused: accumulator A = float32 (float32 and 16-bit input) or float64. Thread g of
 * T = grid * block, W = sl_vec_width(dt) lanes, the split of sl_layout.h, lane state
 * (S1, S2, K) = (+0, +0, key(-inf)):
 *   x[g] into lane 0 when g < head; vectors j = g, g + T, ...: element k into lane k; then
 *   x[head + nv W + g] into lane 0 when g < the tail's length; into a lane:
 *   S1 = S1 + x; S2 = S2 + x * x (the product rounded, then the add: no FMA; float16 and bfloat16
 *   input: S2 = fma(x, x, S2), the square exact in float32 but for bfloat16 values below 2^-67 in
 *   magnitude, which the fma keeps unrounded); K = max(K, key(x))
 *   (extrema.h's order-preserving integer keys: one integer max per value);
 *   thread value: W = 8: ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)); 4: (l0 + l1) +
 *   (l2 + l3); 2: l0 + l1 (+ adds S1 and S2, takes the maximum of M);
 *   block tree and last-block finish of reduce/ (padding (+0, +0, -inf)).
 * Outputs (in A, then rounded once to the input format): mean = S1 / (A)n; var = (S2 -
 * (S1 * S1) / (A)n) / (A)(n - ddof) (the textbook formula: it can be negative when the cancellation is
 * catastrophic); std = sqrt(max(var, 0)), as fused normalisation kernels clamp it; max = NaN when S2 is NaN (exactly
 * when an input is NaN), else the value of K (IEEE 754-2019 maximum: -0 < +0). NaN for n = 0 and, var/std,
 * for n <= ddof (no kernel).
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, FLT_EVAL_METHOD 0,
 * -ffp-contract=off (the kernels: --fmad=false), no fast-math; division and sqrt correctly
 * rounded on both sides (-prec-div=true -prec-sqrt=true); uint64 -> float conversions rounded to
 * nearest. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"
#include "sl_twin.h"
#include "extrema/extrema.h"
#include "sumlab/half.h"


static void ex_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v;
    sl_vec_grid_resolve(cfg, n, dt, SL_EX_BLOCK, 1024u, SL_EX_ITEMS, SL_EX_THREADS_PER_SM, SL_EX_MAX_GRID);
}

/* max/min: exact (no rounding). fused: the longest chain of its sums (the lane's adds, the lane
 * tree, the block tree, the finish); S2 has one rounding more (the square), which the variance's
 * bound counts itself. */
static double ex_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    if ((v->impl & SL_EX_KIND_MASK) != SL_EX_FUSED) return 0.0;
    return sl_tw_depth_vec_grid(n, dt, cfg);
}

/* The accumulator's value r given back in the input format (one rounding; exact for a maximum). */
static double ex_out(double r, sl_dtype dt)
{
    if (sl_dtype_is_half(dt)) return sl_half_round(r, dt);
    return dt == SL_F32 ? (double)(float)r : r;
}

/* ---- max/min twin ----------------------------------------------------------------------------- */
static int ex_minmax_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                         const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg; (void)err;
    const int kind = v->impl & SL_EX_KIND_MASK, mn = (v->impl & SL_EX_OUT_MASK) == SL_EX_OUT_MIN;
    if (n == 0) {
        *result = NAN;
        return 0;
    }
    if (dt == SL_F64) {
        const double *xd = (const double *)x;
        double a = kind == SL_EX_ZERO_FILL ? 0.0 : mn ? INFINITY : -INFINITY;
        if (kind == SL_EX_FMAX)
            for (uint64_t i = 0; i < n; i++) a = mn ? sl_ex_fmin_d(a, xd[i]) : sl_ex_fmax_d(a, xd[i]);
        else
            for (uint64_t i = 0; i < n; i++) a = mn ? sl_ex_min_d(a, xd[i]) : sl_ex_max_d(a, xd[i]);
        *result = a;
        return 0;
    }
    float a = kind == SL_EX_ZERO_FILL ? 0.0f : mn ? INFINITY : -INFINITY;
    for (uint64_t i = 0; i < n; i++) {
        const float xv = sl_tw_load_f(x, dt, i);
        if (kind == SL_EX_FMAX) a = mn ? sl_ex_fmin_f(a, xv) : sl_ex_fmax_f(a, xv);
        else a = mn ? sl_ex_min_f(a, xv) : sl_ex_max_f(a, xv);
    }
    *result = ex_out(a, dt);
    return 0;
}

/* ---- fused twin ------------------------------------------------------------------------------- */
/* S1, S2 and the maximum's key (extrema.h: 32-bit for a float32 accumulator, 64-bit for float64) */
typedef struct {
    double s1, s2;
    uint64_t mk;
} fu_state;

static inline fu_state fu_add(fu_state a, fu_state b, int f32)
{
    fu_state r;
    if (f32) {
        r.s1 = (float)a.s1 + (float)b.s1;
        r.s2 = (float)a.s2 + (float)b.s2;
    } else {
        r.s1 = a.s1 + b.s1;
        r.s2 = a.s2 + b.s2;
    }
    r.mk = a.mk > b.mk ? a.mk : b.mk;
    return r;
}

static inline uint32_t fu_key_f(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return sl_ex_key_f(b);
}
static inline uint64_t fu_key_d(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return sl_ex_key_d(b);
}

static fu_state fu_zero_of(int f32)
{
    const fu_state z = {0.0, 0.0, f32 ? SL_EX_KEY_NEG_INF_F : SL_EX_KEY_NEG_INF_D};
    return z;
}

static fu_state fu_warp(fu_state v[32], int f32)
{
    for (int off = 16; off > 0; off >>= 1)
        for (int i = 0; i < off; i++) v[i] = fu_add(v[i], v[i + off], f32);
    return v[0];
}

static fu_state fu_block(const fu_state *v, uint32_t block, int f32)
{
    fu_state slots[32], lanes[32];
    for (int w = 0; w < 32; w++) slots[w] = fu_zero_of(f32);
    for (uint32_t w = 0; w < block / 32u; w++) {
        memcpy(lanes, v + (size_t)w * 32u, sizeof lanes);
        slots[w] = fu_warp(lanes, f32);
    }
    return fu_warp(slots, f32);
}

/* Thread g's value, specialised per (dt, acc) by SL_TW_DISPATCH. */
SL_TW_INLINE fu_state fu_thread_run(const void *x, uint64_t n, sl_dtype dt, sl_dtype acc,
                                    uint64_t g, uint64_t T, uint64_t head, uint64_t nv)
{
    const uint32_t W = sl_vec_width(dt);
    const uint64_t ts = head + nv * W;
    fu_state l[8];
    if (acc == SL_F32) {
        const int fma16 = sl_dtype_is_half(dt);         /* 16-bit input: S2 = fma(x, x, S2) */
        float s1[8] = {0}, s2[8] = {0};
        uint32_t m[8];
        for (int k = 0; k < 8; k++) m[k] = SL_EX_KEY_NEG_INF_F;
#define FU_ADD_F(k_, i_)                                                                        \
        do {                                                                                    \
            const float xv_ = sl_tw_load_f(x, dt, (i_));                                        \
            const float sq_ = xv_ * xv_;                                                        \
            const uint32_t key_ = fu_key_f(xv_);                                                \
            s1[k_] = s1[k_] + xv_;                                                              \
            s2[k_] = fma16 ? fmaf(xv_, xv_, s2[k_]) : s2[k_] + sq_;                             \
            m[k_] = m[k_] > key_ ? m[k_] : key_;                                                \
        } while (0)
        if (g < head) FU_ADD_F(0, g);
        for (uint64_t j = g; j < nv; j += T)
            for (uint32_t k = 0; k < W; k++) FU_ADD_F(k, head + j * W + k);
        if (g < n - ts) FU_ADD_F(0, ts + g);
#undef FU_ADD_F
        for (uint32_t k = 0; k < W; k++) l[k] = (fu_state){s1[k], s2[k], m[k]};
    } else {
        double s1[8] = {0}, s2[8] = {0};
        uint64_t m[8];
        for (int k = 0; k < 8; k++) m[k] = SL_EX_KEY_NEG_INF_D;
#define FU_ADD_D(k_, i_)                                                                        \
        do {                                                                                    \
            const double xv_ = sl_tw_load(x, dt, (i_));                                         \
            const double sq_ = xv_ * xv_;                                                       \
            const uint64_t key_ = fu_key_d(xv_);                                                \
            s1[k_] = s1[k_] + xv_;                                                              \
            s2[k_] = s2[k_] + sq_;                                                              \
            m[k_] = m[k_] > key_ ? m[k_] : key_;                                                \
        } while (0)
        if (g < head) FU_ADD_D(0, g);
        for (uint64_t j = g; j < nv; j += T)
            for (uint32_t k = 0; k < W; k++) FU_ADD_D(k, head + j * W + k);
        if (g < n - ts) FU_ADD_D(0, ts + g);
#undef FU_ADD_D
        for (uint32_t k = 0; k < W; k++) l[k] = (fu_state){s1[k], s2[k], m[k]};
    }
    const int f32 = acc == SL_F32;
    if (W == 8)
        return fu_add(fu_add(fu_add(l[0], l[1], f32), fu_add(l[2], l[3], f32), f32),
                      fu_add(fu_add(l[4], l[5], f32), fu_add(l[6], l[7], f32), f32), f32);
    if (W == 4) return fu_add(fu_add(l[0], l[1], f32), fu_add(l[2], l[3], f32), f32);
    return fu_add(l[0], l[1], f32);
}

static fu_state fu_thread(const void *x, uint64_t n, sl_dtype dt, sl_dtype acc, uint64_t g,
                          uint64_t T, uint64_t head, uint64_t nv)
{
    fu_state r;
#define FU_CALL(d, a, unused) r = fu_thread_run(x, n, d, a, g, T, head, nv)
    SL_TW_DISPATCH(dt, acc, FU_CALL, 0);
#undef FU_CALL
    return r;
}

/* The output of member v from the merged state (thread 0 of the last block). */
static double fu_final(const sl_variant *v, fu_state s, uint64_t n, uint32_t ddof, sl_dtype dt,
                       int f32)
{
    const int out = v->impl & SL_EX_OUT_MASK;
    double r;
    if (out == SL_EX_OUT_MAX) { /* NaN when S2 is (an input was NaN), else the key's value */
        if (isnan(s.s2)) {
            r = NAN;
        } else if (f32) {
            const uint32_t b = sl_ex_unkey_f((uint32_t)s.mk);
            float f;
            memcpy(&f, &b, sizeof f);
            r = f;
        } else {
            const uint64_t b = sl_ex_unkey_d(s.mk);
            memcpy(&r, &b, sizeof r);
        }
    } else if (f32) {
        const float s1 = (float)s.s1, s2 = (float)s.s2, nf = (float)n;
        if (out == SL_EX_OUT_MEAN) {
            r = s1 / nf;
        } else {
            const float sq = s1 * s1;
            const float t = sq / nf;
            const float d = s2 - t;
            const float q = d / (float)(n - ddof);
            r = out == SL_EX_OUT_STD ? sqrtf(q < 0.0f ? 0.0f : q) : q;   /* negative var: std 0 */
        }
    } else {
        const double nf = (double)n;
        if (out == SL_EX_OUT_MEAN) {
            r = s.s1 / nf;
        } else {
            const double sq = s.s1 * s.s1;
            const double t = sq / nf;
            const double d = s.s2 - t;
            const double q = d / (double)(n - ddof);
            r = out == SL_EX_OUT_STD ? sqrt(q < 0.0 ? 0.0 : q) : q;
        }
    }
    return ex_out(r, dt);
}

static int fu_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                  const sl_launch *cfg, double *result, sl_err *err)
{
    const int out = v->impl & SL_EX_OUT_MASK;
    if (n == 0 || ((out == SL_EX_OUT_VAR || out == SL_EX_OUT_STD) && n <= cfg->ddof)) {
        *result = NAN; /* no kernel */
        return 0;
    }
    if (cfg->block == 0 || cfg->block % 32u || cfg->block > 1024u || cfg->grid == 0)
        return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)", v->name,
                          cfg->block, cfg->grid);
    const sl_dtype acc = sl_dtype_acc(dt);
    const int f32 = acc == SL_F32;
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    uint64_t head, nv;
    sl_vec_split(n, dt, cfg->addr_mod, &head, &nv);
    fu_state *parts = malloc((size_t)cfg->grid * sizeof *parts);
    fu_state *ts = malloc((size_t)cfg->block * sizeof *ts);
    if (!parts || !ts) {
        free(parts);
        free(ts);
        return sl_err_set(err, "%s: out of memory", v->name);
    }
    for (uint32_t b = 0; b < cfg->grid; b++) {
        for (uint32_t t = 0; t < cfg->block; t++)
            ts[t] = fu_thread(x, n, dt, acc, (uint64_t)b * cfg->block + t, T, head, nv);
        parts[b] = fu_block(ts, cfg->block, f32);
    }
    for (uint32_t t = 0; t < cfg->block; t++) {
        fu_state a = fu_zero_of(f32);
        for (uint64_t i = t; i < cfg->grid; i += cfg->block) a = fu_add(a, parts[i], f32);
        ts[t] = a;
    }
    const fu_state s = fu_block(ts, cfg->block, f32);
    free(parts);
    free(ts);
    *result = fu_final(v, s, n, cfg->ddof, dt, f32);
    return 0;
}

/* max/min row-wise (extrema.h): no scratch for the row kernel; split rows' counters and parts
 * (cfg: row 0's request resolved for n, its sm_count). The twin is the generic path's (the 1-D
 * twin on each row): a row's result is a function of its values. */
static size_t ex_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg)
{
    (void)v; (void)dt;
    return sl_ex_rows_split_ws(rows, sl_ex_rows_split(rows, n, cfg ? cfg->sm_count : 0u));
}

/* ================================ descriptors =============================================== */
#define EX_GPU .workspace = SL_GPU_ENTRY(sl_extrema_workspace), .gpu = SL_GPU_ENTRY(sl_extrema_gpu)
#define EX_MINMAX                                                                           \
    .family = "extrema", .determinism = SL_DET_ORDER_INDEPENDENT, .bound = SL_BOUND_EXACT,  \
    .dtypes = SL_DTYPES_ALL, .resolve = ex_resolve, .depth = ex_depth, .cpu = ex_minmax_cpu, EX_GPU, \
    .rows_workspace = ex_rows_workspace, .rows_gpu = SL_GPU_ENTRY(sl_extrema_rows_gpu),     \
    .rows_bits = "the row's values alone (exact and order-independent: not B, the launch "  \
                 "configuration or the GPU; NaN payloads aside)"
#define EX_FUSED                                                                            \
    .name = "fused", .family = "extrema", .dtypes = SL_DTYPES_ALL, .resolve = ex_resolve,   \
    .depth = ex_depth, .cpu = fu_cpu, EX_GPU

const sl_variant sl_v_max_block_reduce = {
    .name = "block-reduce", .op = "max", .impl = SL_EX_BLOCK_REDUCE | SL_EX_OUT_MAX, EX_MINMAX,
    .description = "lanes, warps and blocks start at -inf; IEEE 754-2019 maximum (NaN "
                   "propagates, +0 > -0)",
};
const sl_variant sl_v_min_block_reduce = {
    .name = "block-reduce", .op = "min", .impl = SL_EX_BLOCK_REDUCE | SL_EX_OUT_MIN, EX_MINMAX,
    .description = "lanes, warps and blocks start at +inf; IEEE 754-2019 minimum (NaN "
                   "propagates, -0 < +0)",
};
const sl_variant sl_v_max_zero_fill = {
    .name = "zero-fill", .op = "max", .impl = SL_EX_ZERO_FILL | SL_EX_OUT_MAX, EX_MINMAX,
    .description = "the first text's version: accumulators and padding start at 0, so an "
                   "all-negative maximum is 0 (a teaching row)",
};
const sl_variant sl_v_min_zero_fill = {
    .name = "zero-fill", .op = "min", .impl = SL_EX_ZERO_FILL | SL_EX_OUT_MIN, EX_MINMAX,
    .description = "the first text's version: accumulators and padding start at 0, so an "
                   "all-positive minimum is 0 (a teaching row)",
};
const sl_variant sl_v_max_fmax = {
    .name = "fmax", .op = "max", .impl = SL_EX_FMAX | SL_EX_OUT_MAX, EX_MINMAX,
    .description = "CUDA's fmaxf: NaN inputs are ignored (a teaching row: NaN input gives a "
                   "number)",
};
const sl_variant sl_v_min_fmin = {
    .name = "fmin", .op = "min", .impl = SL_EX_FMAX | SL_EX_OUT_MIN, EX_MINMAX,
    .description = "CUDA's fminf: NaN inputs are ignored (a teaching row: NaN input gives a "
                   "number)",
};
const sl_variant sl_v_fused_mean = {
    .op = "mean", .impl = SL_EX_FUSED | SL_EX_OUT_MEAN, EX_FUSED,
    .determinism = SL_DET_RUN_TO_RUN, .bound = SL_BOUND_VAR_TEXTBOOK,
    .description = "one read producing sum, sum of squares and maximum (LayerNorm's statistics): "
                   "S1 / n",
};
const sl_variant sl_v_fused_var = {
    .op = "var", .impl = SL_EX_FUSED | SL_EX_OUT_VAR, EX_FUSED,
    .determinism = SL_DET_RUN_TO_RUN, .bound = SL_BOUND_VAR_TEXTBOOK,
    .description = "one read producing sum, sum of squares and maximum: the textbook "
                   "(S2 - S1^2 / n) / (n - ddof)",
};
const sl_variant sl_v_fused_std = {
    .op = "std", .impl = SL_EX_FUSED | SL_EX_OUT_STD, EX_FUSED,
    .determinism = SL_DET_RUN_TO_RUN, .bound = SL_BOUND_VAR_TEXTBOOK,
    .description = "one read producing sum, sum of squares and maximum: the square root of the "
                   "textbook variance",
};
const sl_variant sl_v_fused_max = {
    .op = "max", .impl = SL_EX_FUSED | SL_EX_OUT_MAX, EX_FUSED,
    .determinism = SL_DET_ORDER_INDEPENDENT, .bound = SL_BOUND_EXACT,
    .description = "one read producing sum, sum of squares and maximum: its maximum",
};

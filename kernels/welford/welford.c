/* welford.c: descriptors, resolve(), depth() and CPU twins of the Welford variants (welford,
 * welford-ln, welford-f64 for var and std; welford for mean). Each twin repeats its kernel's
 * operations (welford.cu) in the same order for the same resolved sl_launch, so a GPU result
 * equals its twin's bits. Determinism: run-to-run (a fixed tree for a fixed launch shape).
 *
 * The algorithm (kernel and twin). Accumulator A: float32 (float32 and 16-bit input, widened
 * exactly) or float64 (float64 input; welford-f64). A state is (n, mean, M2), n an exact 64-bit
 * count. Thread g of T = grid * block, W = sl_vec_width(dt) lanes, the split of sl_layout.h:
 *   lanes k < W: vectors j = g, g + T, ... (all lanes see the same count c = 1, 2, ...):
 *     c = c + 1; delta = x - mean_k; mean_k = mean_k + delta / (A)c        (welford, -f64)
 *                                    mean_k = mean_k + delta * r, r = 1 / (A)c  (welford-ln)
 *     M2_k = M2_k + delta * (x - mean_k)
 *   edge state e: x[g] when g < head, then x[head + nv W + g] when g < the tail's length, the
 *     same update with e's own count;
 *   thread state: W = 8: ((l0 . l1) . (l2 . l3)) . ((l4 . l5) . (l6 . l7)); 4: (l0 . l1) . (l2 . l3);
 *     2: l0 . l1; then (that) . e;
 *   block: the warp/block tree of reduce/block.cuh with . as the combine (empty states pad),
 *   grid: the last-block finish of reduce/grid.cuh (thread t: empty . p[t] . p[t + B] ...; the
 *     block tree).
 * a . b is Chan, Golub and LeVeque's merge in PyTorch's WelfordOps::combine form: a if n_b = 0,
 * b if n_a = 0, else N = n_a + n_b (exact), delta = mean_b - mean_a, f = (A)n_b / (A)N,
 * mean = mean_a + delta * f, M2 = (M2_a + M2_b) + ((delta * delta) * (A)n_a) * f.
 * Result: mean (NaN for n = 0); var = M2 / (A)(n - ddof) (NaN when n <= ddof); std = sqrt(var)
 * in A; rounded once to the input format. An Inf input makes M2 NaN (Inf - Inf) and, as in
 * PyTorch's Welford, the mean NaN once the Inf meets another value in an update or a merge (the
 * Inf itself only when nothing follows it in its lane and the tree).
 *
 * Why the per-element division: PyTorch's WelfordOps divides by the running count; its LayerNorm
 * kernels multiply by the count's reciprocal (faster, one more rounding). Lanes share their count,
 * so welford-ln computes one reciprocal per 16-byte vector; welford divides per element.
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, FLT_EVAL_METHOD 0,
 * -ffp-contract=off (no FMA: the kernels are built with --fmad=false), no fast-math; division and
 * sqrt correctly rounded (C's / and sqrtf/sqrt; the kernels' -prec-div=true -prec-sqrt=true);
 * uint64 -> float/double conversions rounded to nearest on both sides. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"
#include "sl_twin.h"
#include "welford/welford.h"
#include "sumlab/half.h"


/* ---- resolve and depth -------------------------------------------------------------------- */
static void wf_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    const uint32_t per_sm = sl_variant_acc(v, dt) == SL_F64 ? SL_WF_THREADS_PER_SM_F64 : SL_WF_THREADS_PER_SM;
    sl_vec_grid_resolve(cfg, n, dt, SL_WF_BLOCK, SL_WF_BLOCK, SL_WF_ITEMS, per_sm, SL_WF_MAX_GRID);
}

/* The longest chain of roundings: a lane's updates, the edge merge, the lane tree, the block tree,
 * the finish. */
static double wf_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v;
    return sl_tw_depth_vec_grid(n, dt, cfg);
}

/* ---- the twin --------------------------------------------------------------------------------
 * A state in double (a float32 accumulator's values are floats held exactly in doubles); every
 * operation is done in the accumulator's own type. */
typedef struct {
    uint64_t n;
    double mean, m2;
} wf_state;

static const wf_state wf_empty = {0, 0.0, 0.0};

/* a . b (the merge above) in float32 (f32 != 0) or float64. */
static inline wf_state wf_merge(wf_state a, wf_state b, int f32)
{
    if (b.n == 0) return a;
    if (a.n == 0) return b;
    wf_state r;
    r.n = a.n + b.n;
    if (f32) {
        const float am = (float)a.mean, bm = (float)b.mean;
        const float delta = bm - am;
        const float f = (float)b.n / (float)r.n;
        const float mean = am + delta * f;
        const float s = (float)a.m2 + (float)b.m2;
        const float d2 = delta * delta;
        const float t = d2 * (float)a.n;
        r.mean = mean;
        r.m2 = (double)(s + t * f);
    } else {
        const double delta = b.mean - a.mean;
        const double f = (double)b.n / (double)r.n;
        r.mean = a.mean + delta * f;
        const double s = a.m2 + b.m2;
        const double d2 = delta * delta;
        const double t = d2 * (double)a.n;
        r.m2 = s + t * f;
    }
    return r;
}

/* The warp tree (off = 16..1: v[i] = v[i] . v[i + off]), the block tree (warp values into 32 slots,
 * empty states pad, a warp tree over the slots) and the finish, as reduce/ mirrors. */
static wf_state wf_warp(wf_state v[32], int f32)
{
    for (int off = 16; off > 0; off >>= 1)
        for (int i = 0; i < off; i++) v[i] = wf_merge(v[i], v[i + off], f32);
    return v[0];
}

static wf_state wf_block(const wf_state *v, uint32_t block, int f32)
{
    wf_state slots[32], lanes[32];
    for (int w = 0; w < 32; w++) slots[w] = wf_empty;
    for (uint32_t w = 0; w < block / 32u; w++) {
        memcpy(lanes, v + (size_t)w * 32u, sizeof lanes);
        slots[w] = wf_warp(lanes, f32);
    }
    return wf_warp(slots, f32);
}

/* One update of a state by x (in the accumulator), in the form of v->impl. */
#define WF_UPDATE_F(mean, m2, c, xv, rcp)                                                     \
    do {                                                                                      \
        const float d_ = (xv) - (mean);                                                       \
        (mean) = rcp ? (mean) + d_ * (1.0f / (float)(c)) : (mean) + d_ / (float)(c);          \
        (m2) = (m2) + d_ * ((xv) - (mean));                                                   \
    } while (0)
#define WF_UPDATE_D(mean, m2, c, xv, rcp)                                                     \
    do {                                                                                      \
        const double d_ = (xv) - (mean);                                                      \
        (mean) = rcp ? (mean) + d_ * (1.0 / (double)(c)) : (mean) + d_ / (double)(c);         \
        (m2) = (m2) + d_ * ((xv) - (mean));                                                   \
    } while (0)

/* Thread g's state (lanes, lane tree, edge), specialised per (dt, acc) by SL_TW_DISPATCH. */
SL_TW_INLINE wf_state wf_thread_run(const void *x, uint64_t n, sl_dtype dt, sl_dtype acc,
                                    uint64_t g, uint64_t T, uint64_t head, uint64_t nv, int rcp)
{
    const uint32_t W = sl_vec_width(dt);
    const int f32 = acc == SL_F32;
    wf_state l[8];
    uint64_t c = 0;
    if (f32) {
        float mean[8] = {0}, m2[8] = {0};
        for (uint64_t j = g; j < nv; j += T) {
            c++;
            const uint64_t base = head + j * W;
            for (uint32_t k = 0; k < W; k++) {
                const float xv = (float)sl_tw_load(x, dt, base + k);
                WF_UPDATE_F(mean[k], m2[k], c, xv, rcp);
            }
        }
        for (uint32_t k = 0; k < W; k++) l[k] = (wf_state){c, mean[k], m2[k]};
    } else {
        double mean[8] = {0}, m2[8] = {0};
        for (uint64_t j = g; j < nv; j += T) {
            c++;
            const uint64_t base = head + j * W;
            for (uint32_t k = 0; k < W; k++) {
                const double xv = sl_tw_load(x, dt, base + k);
                WF_UPDATE_D(mean[k], m2[k], c, xv, rcp);
            }
        }
        for (uint32_t k = 0; k < W; k++) l[k] = (wf_state){c, mean[k], m2[k]};
    }
    wf_state t;
    if (W == 8)
        t = wf_merge(wf_merge(wf_merge(l[0], l[1], f32), wf_merge(l[2], l[3], f32), f32),
                     wf_merge(wf_merge(l[4], l[5], f32), wf_merge(l[6], l[7], f32), f32), f32);
    else if (W == 4)
        t = wf_merge(wf_merge(l[0], l[1], f32), wf_merge(l[2], l[3], f32), f32);
    else
        t = wf_merge(l[0], l[1], f32);
    /* the edge state: head element, then tail element */
    wf_state e = wf_empty;
    const uint64_t ts = head + nv * W;
    for (int s = 0; s < 2; s++) {
        const int has = s == 0 ? g < head : g < n - ts;
        if (!has) continue;
        const uint64_t i = s == 0 ? g : ts + g;
        e.n++;
        if (f32) {
            float mean = (float)e.mean, m2 = (float)e.m2;
            const float xv = (float)sl_tw_load(x, dt, i);
            WF_UPDATE_F(mean, m2, e.n, xv, rcp);
            e.mean = mean;
            e.m2 = m2;
        } else {
            const double xv = sl_tw_load(x, dt, i);
            WF_UPDATE_D(e.mean, e.m2, e.n, xv, rcp);
        }
    }
    return wf_merge(t, e, f32);
}

static wf_state wf_thread(const void *x, uint64_t n, sl_dtype dt, sl_dtype acc, uint64_t g,
                          uint64_t T, uint64_t head, uint64_t nv, int rcp)
{
    wf_state r;
#define WF_CALL(d, a, unused) r = wf_thread_run(x, n, d, a, g, T, head, nv, rcp)
    SL_TW_DISPATCH(dt, acc, WF_CALL, 0);
#undef WF_CALL
    return r;
}

/* The accumulator's value r given back in the input format (one rounding). */
static double wf_out(double r, sl_dtype dt)
{
    if (sl_dtype_is_half(dt)) return sl_half_round(r, dt);
    return dt == SL_F32 ? (double)(float)r : r;
}

/* The final step (thread 0 of the last block): the output of member v from the merged state. */
static double wf_final(const sl_variant *v, wf_state s, uint32_t ddof, sl_dtype dt, int f32)
{
    const int out = v->impl & SL_WF_OUT_MASK;
    double r;
    if (out == SL_WF_OUT_MEAN) {
        r = s.n ? s.mean : NAN;
    } else if (s.n <= ddof) {
        r = NAN;
    } else if (f32) {
        float q = (float)s.m2 / (float)(s.n - ddof);
        r = out == SL_WF_OUT_STD ? sqrtf(q) : q;
    } else {
        double q = s.m2 / (double)(s.n - ddof);
        r = out == SL_WF_OUT_STD ? sqrt(q) : q;
    }
    return wf_out(r, dt);
}

static int wf_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                  const sl_launch *cfg, double *result, sl_err *err)
{
    const int out = v->impl & SL_WF_OUT_MASK;
    if (n == 0 || (out != SL_WF_OUT_MEAN && n <= cfg->ddof)) { /* no kernel: NaN */
        *result = NAN;
        return 0;
    }
    if (cfg->block == 0 || cfg->block % 32u || cfg->block > 1024u || cfg->grid == 0)
        return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)", v->name,
                          cfg->block, cfg->grid);
    const sl_dtype acc = sl_variant_acc(v, dt);
    const int f32 = acc == SL_F32, rcp = (v->impl & SL_WF_FORM_MASK) == SL_WF_RCP;
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    uint64_t head, nv;
    sl_vec_split(n, dt, cfg->addr_mod, &head, &nv);
    wf_state *parts = malloc((size_t)cfg->grid * sizeof *parts);
    wf_state *ts = malloc((size_t)cfg->block * sizeof *ts);
    if (!parts || !ts) {
        free(parts);
        free(ts);
        return sl_err_set(err, "%s: out of memory", v->name);
    }
    for (uint32_t b = 0; b < cfg->grid; b++) {
        for (uint32_t t = 0; t < cfg->block; t++)
            ts[t] = wf_thread(x, n, dt, acc, (uint64_t)b * cfg->block + t, T, head, nv, rcp);
        parts[b] = wf_block(ts, cfg->block, f32);
    }
    /* the finish: thread t merges p[t], p[t + B], ... into an empty state; the block tree */
    for (uint32_t t = 0; t < cfg->block; t++) {
        wf_state a = wf_empty;
        for (uint64_t i = t; i < cfg->grid; i += cfg->block) a = wf_merge(a, parts[i], f32);
        ts[t] = a;
    }
    const wf_state s = wf_block(ts, cfg->block, f32);
    free(parts);
    free(ts);
    *result = wf_final(v, s, cfg->ddof, dt, f32);
    return 0;
}

/* ================================ descriptors =============================================== */
#define WF_GPU .workspace = SL_GPU_ENTRY(sl_welford_workspace), .gpu = SL_GPU_ENTRY(sl_welford_gpu)
#define WF_COMMON                                                                           \
    .family = "welford", .determinism = SL_DET_RUN_TO_RUN, .bound = SL_BOUND_VAR_WELFORD,   \
    .resolve = wf_resolve, .depth = wf_depth, .cpu = wf_cpu, WF_GPU

const sl_variant sl_v_welford_mean = {
    .name = "welford", .op = "mean", .impl = SL_WF_DIV | SL_WF_OUT_MEAN, WF_COMMON,
    .description = "Welford updates per thread (mean += delta / count), Chan's merge through the "
                   "tree (PyTorch's WelfordOps): the state's mean",
    .dtypes = SL_DTYPES_ALL,
};
const sl_variant sl_v_welford_var = {
    .name = "welford", .op = "var", .impl = SL_WF_DIV | SL_WF_OUT_VAR, WF_COMMON,
    .description = "Welford updates per thread (mean += delta / count), Chan's merge through the "
                   "tree (PyTorch's WelfordOps): M2 / (n - ddof)",
    .dtypes = SL_DTYPES_ALL,
};
const sl_variant sl_v_welford_std = {
    .name = "welford", .op = "std", .impl = SL_WF_DIV | SL_WF_OUT_STD, WF_COMMON,
    .description = "Welford updates per thread, Chan's merge (PyTorch's WelfordOps): "
                   "sqrt(M2 / (n - ddof)) in the accumulator",
    .dtypes = SL_DTYPES_ALL,
};
const sl_variant sl_v_welford_ln_var = {
    .name = "welford-ln", .op = "var", .impl = SL_WF_RCP | SL_WF_OUT_VAR, WF_COMMON,
    .description = "Welford as PyTorch's LayerNorm: mean += delta * (1 / count), Chan's merge: "
                   "M2 / (n - ddof)",
    .dtypes = SL_DTYPES_ALL,
};
const sl_variant sl_v_welford_ln_std = {
    .name = "welford-ln", .op = "std", .impl = SL_WF_RCP | SL_WF_OUT_STD, WF_COMMON,
    .description = "Welford as PyTorch's LayerNorm: mean += delta * (1 / count), Chan's merge: "
                   "sqrt(M2 / (n - ddof))",
    .dtypes = SL_DTYPES_ALL,
};
const sl_variant sl_v_welford_f64_var = {
    .name = "welford-f64", .op = "var", .impl = SL_WF_DIV | SL_WF_OUT_VAR, .acc_wide = 1,
    WF_COMMON,
    .description = "welford with float64 states for float32 and 16-bit input, one rounding at "
                   "the end: M2 / (n - ddof)",
    .dtypes = SL_DTYPE_MASK(SL_F32) | SL_DTYPES_HALF,
};
const sl_variant sl_v_welford_f64_std = {
    .name = "welford-f64", .op = "std", .impl = SL_WF_DIV | SL_WF_OUT_STD, .acc_wide = 1,
    WF_COMMON,
    .description = "welford with float64 states for float32 and 16-bit input, one rounding at "
                   "the end: sqrt(M2 / (n - ddof))",
    .dtypes = SL_DTYPE_MASK(SL_F32) | SL_DTYPES_HALF,
};

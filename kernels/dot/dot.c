/* dot.c: descriptors, resolve(), depth() and CPU twins of the dot variants (naive, f64-acc,
 * kahan, dot2, correct, half-acc): sum x_i y_i over two arrays of one format. Each tree twin repeats
 * its kernel's operations (dot.cu) in the same order for the same resolved sl_launch, so a GPU
 * result equals its twin's bits; `correct` is order-independent and correctly rounded.
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, FLT_EVAL_METHOD 0
 * (x86-64 SSE2), -ffp-contract=off, no fast-math, a correctly rounded fma()/fmaf() (C99; glibc's
 * is, in hardware or in software). Only dot2's TwoProduct is an FMA, written as fma()/fmaf() on
 * both sides (the project otherwise builds without contraction: kernels/CMakeLists.txt).
 *
 * The engine (as the moments family's): thread g of T = grid*block threads keeps one state per
 * vector lane (W = 4 floats / 2 doubles / 8 16-bit values per 16-byte load of x and of y):
 *   g < head: lane 0 takes (x[g], y[g]);  j = g, g+T, ...: lane k takes element head + j*W + k;
 *   g < tail: lane 0 takes element head + nv*W + g;
 *   thread value: W=4: (l0+l1)+(l2+l3); W=2: l0+l1; W=8: ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7)),
 *   then the block tree (sl_block_reduce's shape) and the last-block finish (sl_grid_finish's
 *   order). naive: plain adds in the accumulator; kahan and dot2: the lanes' pairs (s, e) (kahan:
 *   e = -c) combined by the compensated pair add (reduce/ops.cuh's sl_op_pair, sl_tw_pair_*), the
 *   result fl(s + e). Accumulators: float32 for float32 and 16-bit input (whose products are exact
 *   in float32 except bfloat16 products beyond float32's range), float64 for float64 input and
 *   for f64-acc, the 16-bit format itself for half-acc. One rounding to the input format at the end. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"
#include "sl_twin.h"
#include "dot/dot.h"
#include "exact/pairsum.h"
#include "exact/limbs.h"
#include "exact/binned.h"

static void dot_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v;
    sl_vec_grid_resolve(cfg, n, dt, SL_DOT_BLOCK, 1024u, SL_DOT_ITEMS, SL_DOT_THREADS_PER_SM,
                        SL_DOT_MAX_GRID);
}

/* The longest chain of roundings of a sum: a thread's vectors, its head and tail element, the
 * lane combine, the block tree, the finish (the bound adds the product's own rounding). */
static double dot_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v;
    return sl_tw_depth_vec_grid(n, dt, cfg);
}

/* One lane's state: s (and e for kahan/dot2, held as the running c for kahan until the lane ends). */
typedef struct {
    double s, e;
} lane_st;

/* One element (x, y exact doubles of the input format) into a lane, in the accumulator acc. */
static inline void lane_step(int kind, lane_st *l, double x, double y, sl_dtype acc)
{
    if (acc == SL_F32) {
        float s = (float)l->s, e = (float)l->e;
        const float xf = (float)x, yf = (float)y;       /* exact: float32 or 16-bit values */
        if (kind == SL_DOT_NAIVE) s = s + xf * yf;
        else if (kind == SL_DOT_KAHAN) sl_dot_kahan_f(&s, &e, xf * yf);
        else sl_dot_dot2_f(&s, &e, xf, yf);
        l->s = s;
        l->e = e;
        return;
    }
    if (acc == SL_F64) {
        if (kind == SL_DOT_NAIVE) l->s = l->s + x * y;   /* float32/16-bit x y: exact in double */
        else if (kind == SL_DOT_KAHAN) sl_dot_kahan_d(&l->s, &l->e, x * y);
        else sl_dot_dot2_d(&l->s, &l->e, x, y);
        return;
    }
    /* a 16-bit accumulator (half-acc, naive only): product and add each rounded once */
    l->s = sl_tw_add(l->s, sl_tw_round(x * y, acc), acc);
}

/* The lanes of one thread combined in the shape W fixes. */
static double lanes_plain(const lane_st *l, uint32_t W, sl_dtype acc)
{
#define A(a, b) sl_tw_add((a), (b), acc)
    if (W == 8) return A(A(A(l[0].s, l[1].s), A(l[2].s, l[3].s)), A(A(l[4].s, l[5].s), A(l[6].s, l[7].s)));
    if (W == 4) return A(A(l[0].s, l[1].s), A(l[2].s, l[3].s));
    return A(l[0].s, l[1].s);
#undef A
}
static sl_tw_pair lanes_pair(const lane_st *l, uint32_t W, int kind, sl_dtype acc)
{
    sl_tw_pair p[8];
    for (uint32_t k = 0; k < W; k++) {
        p[k].s = l[k].s;
        p[k].e = kind == SL_DOT_KAHAN ? -l[k].e : l[k].e;   /* Kahan's c is minus the error */
    }
#define P(a, b) sl_tw_pair_add((a), (b), acc)
    if (W == 8) return P(P(P(p[0], p[1]), P(p[2], p[3])), P(P(p[4], p[5]), P(p[6], p[7])));
    if (W == 4) return P(P(p[0], p[1]), P(p[2], p[3]));
    return P(p[0], p[1]);
#undef P
}

/* Thread g's lanes l[0..W) over its elements (head, vectors j = g, g+T, ..., tail) by kind. */
static void thread_lanes(int kind, lane_st *l, const void *x, const void *y, uint64_t n, sl_dtype dt,
                         sl_dtype acc, uint64_t g, uint64_t T, uint64_t head, uint64_t nv)
{
    const uint32_t W = sl_vec_width(dt);
    const uint64_t ts = head + nv * W;
    memset(l, 0, 8 * sizeof *l);
    if (g < head) lane_step(kind, &l[0], sl_tw_load(x, dt, g), sl_tw_load(y, dt, g), acc);
    for (uint64_t j = g; j < nv; j += T)
        for (uint32_t k = 0; k < W; k++) {
            const uint64_t i = head + j * W + k;
            lane_step(kind, &l[k], sl_tw_load(x, dt, i), sl_tw_load(y, dt, i), acc);
        }
    if (g < n - ts) lane_step(kind, &l[0], sl_tw_load(x, dt, ts + g), sl_tw_load(y, dt, ts + g), acc);
}

static int tree_cpu(const sl_variant *v, const void *x, const void *y, uint64_t n, sl_dtype dt,
                    const sl_launch *cfg, double *result, sl_err *err)
{
    if (cfg->block == 0 || cfg->block % 32u || cfg->block > 1024u || cfg->grid == 0)
        return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)", v->name,
                          cfg->block, cfg->grid);
    const int kind = v->impl;
    const int pair = kind != SL_DOT_NAIVE;
    const sl_dtype acc = sl_variant_acc(v, dt);
    const uint32_t W = sl_vec_width(dt);
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    const uint64_t head = sl_vec_head(n, dt, cfg->addr_mod);
    const uint64_t nv = (n - head) / W;
    double *vs = pair ? NULL : malloc(T * sizeof *vs), *bs = pair ? NULL : malloc(cfg->grid * sizeof *bs);
    sl_tw_pair *vp = pair ? malloc(T * sizeof *vp) : NULL, *bp = pair ? malloc(cfg->grid * sizeof *bp) : NULL;
    if (pair ? (!vp || !bp) : (!vs || !bs)) {
        free(vs); free(bs); free(vp); free(bp);
        return sl_err_set(err, "%s: out of memory", v->name);
    }
    for (uint64_t g = 0; g < T; g++) {
        lane_st l[8];
        thread_lanes(kind, l, x, y, n, dt, acc, g, T, head, nv);
        if (pair) {
            vp[g] = lanes_pair(l, W, kind, acc);
            /* kahan: a thread whose pair is not finite (an Inf or NaN among its products, or its
             * running sum past the format's range, where the compensation turns Inf into NaN)
             * gives (its plain sum, 0), as dot_kernel does */
            if (kind == SL_DOT_KAHAN && !isfinite(vp[g].s)) {
                thread_lanes(SL_DOT_NAIVE, l, x, y, n, dt, acc, g, T, head, nv);
                vp[g] = (sl_tw_pair){lanes_plain(l, W, acc), 0.0};
            }
        } else {
            vs[g] = lanes_plain(l, W, acc);
        }
    }
    double r;
    if (pair) {
        for (uint32_t b = 0; b < cfg->grid; b++) bp[b] = sl_tw_pair_block(vp + (uint64_t)b * cfg->block, cfg->block, acc);
        const sl_tw_pair f = sl_tw_pair_finish(bp, cfg->grid, cfg->block, acc);
        r = isfinite(f.s) ? sl_tw_add(f.s, f.e, acc) : f.s;   /* a non-finite s as it is */
    } else {
        for (uint32_t b = 0; b < cfg->grid; b++) bs[b] = sl_tw_block_sum(vs + (uint64_t)b * cfg->block, cfg->block, acc);
        r = sl_tw_finish(bs, cfg->grid, cfg->block, acc);
    }
    *result = sl_tw_round(r, dt);   /* once, to the input format */
    free(vs); free(bs); free(vp); free(bp);
    return 0;
}

/* ---- correct: exact products into the float64-scaled limb state of exact/limbs.h (superacc's) --
 * float32 and 16-bit products are exact doubles (<= 48 bits in [2^-298, 2^256]); a float64 product
 * is p + fma(x, y, -p) (TwoProduct), both multiples of 2^-1074 when 2^-968 <= |p| and p is finite.
 * Every piece goes into the state (sl_sacc_state_add: exact, any order); the state is rounded
 * once: float64 to nearest even; float32 and 16-bit to odd in float64, then to nearest even in the
 * format (53 >= p + 2: the correct rounding of the exact sum, overflow and subnormals included).
 * A float64 product of finite non-zero factors outside [2^-968, 2^1000) goes to dot.h's low or
 * high window instead (the factor scaled by 2^1184 or 2^-1184, its exact TwoProduct pieces into
 * that window's limbs); when a window holds pieces, the three are rounded together
 * (round_windows): the dot is exact for every finite input, overflow to +-Inf included.
 * Specials: Inf/NaN products as IEEE products (Inf * 0 = NaN); a zero sum is -0 only when every
 * product is -0 (a scaled window's product counts as one that is not); a nonzero sum that rounds
 * to zero keeps its sign. */
typedef struct {
    sl_sacc_state st;                      /* the main window and the flags */
    int64_t lo[SL_DOT_LO_LIMBS], hi[SL_DOT_HI_LIMBS];
} dot_exact_st;

/* One exact piece d (a finite multiple of 2^-scale) into limb[0..L) (exact/limbs.h's split: at
 * most three 32-bit chunks): what the kernel's spill() does. */
static void add_chunks(int64_t *limb, int L, double d, int scale)
{
    int idx, neg;
    uint64_t c[3];
    if (!sl_sacc_split_f64(d, scale, &idx, c, &neg)) return;
    const int64_t sg = -(int64_t)neg;
    for (int j = 0; j < 3 && idx + j < L; j++) limb[idx + j] += ((int64_t)c[j] ^ sg) - sg;
}

/* A piece into the main window, its sign into the flags: the kernel's put(). */
static void add_piece(sl_sacc_state *st, double d)
{
    if (!signbit(d)) st->flags |= SL_SACC_ANYPOS;
    add_chunks(st->limb, SL_SACC_LIMBS_F64, d, SL_SACC_SCALE_F64);
}

/* A float64 product in a scaled window: its scaled pieces into that window (the kernel's
 * exact_scaled). */
static void add_scaled(dot_exact_st *w, double a, double b)
{
    double hi, lo;
    if (sl_dot_scaled_product(a, b, &hi, &lo)) {
        add_chunks(w->hi, SL_DOT_HI_LIMBS, hi, SL_DOT_HI_SCALE);
        add_chunks(w->hi, SL_DOT_HI_LIMBS, lo, SL_DOT_HI_SCALE);
        w->st.flags |= SL_SACC_ANYPOS | SL_DOT_FL_HIGH;
    } else {
        add_chunks(w->lo, SL_DOT_LO_LIMBS, hi, SL_SACC_SCALE_F64);
        add_chunks(w->lo, SL_DOT_LO_LIMBS, lo, SL_SACC_SCALE_F64);
        w->st.flags |= SL_SACC_ANYPOS | SL_DOT_FL_LOW;
    }
}

/* The three windows added into dot.h's combined array and rounded once (the kernel's
 * round_windows). */
static double round_windows(const dot_exact_st *w)
{
    int64_t all[SL_DOT_ALL_LIMBS];
    memset(all, 0, sizeof all);
    for (int i = 0; i < SL_SACC_LIMBS_F64; i++) all[SL_DOT_MAIN_AT + i] += w->st.limb[i];
    for (int i = 0; i < SL_DOT_LO_LIMBS; i++) all[i] += w->lo[i];
    for (int i = 0; i < SL_DOT_HI_LIMBS; i++) all[SL_DOT_HI_AT + i] += w->hi[i];
    return sl_dot_round_all(all, w->st.flags);
}

/* An exact product p of format dt's values a, b (float64: p = fl(a b) with its TwoProduct error)
 * into the state; an Inf/NaN product into the flags. */
static void add_product(dot_exact_st *w, double a, double b, sl_dtype dt)
{
    sl_sacc_state *st = &w->st;
    const double p = a * b;
    if (dt == SL_F64 && sl_dot_scaled_window(a, b, p)) {
        add_scaled(w, a, b);
        return;
    }
    if (!isfinite(p)) {
        if (!signbit(p)) st->flags |= SL_SACC_ANYPOS;
        st->flags |= isnan(p) ? SL_SACC_NAN : signbit(p) ? SL_SACC_NINF : SL_SACC_PINF;
        return;
    }
    add_piece(st, p);
    if (dt == SL_F64 && p != 0.0) {
        const double lo = fma(a, b, -p);
        if (lo != 0.0) add_piece(st, lo);
    }
}

static int correct_cpu(const sl_variant *v, const void *x, const void *y, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;    /* the result does not depend on any launch configuration */
    if (n >= SL_SACC_MAX_N / 2)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^39)", v->name, (unsigned long long)n);
    /* the kernel's order of passes: the cheap certified one first (exact/pairsum.h); every path gives
     * the correctly rounded value */
    if (sl_psum_certify_host(x, y, n, dt, result)) return 0;
    dot_exact_st ws, *w = &ws;
    memset(w, 0, sizeof *w);
    sl_sacc_state_init(&w->st, SL_F64);
    /* each element adds < 2^32 to at most 6 limbs: normalised every 2^28 elements (|limb| < 2^62) */
    for (uint64_t i = 0; i < n; i++) {
        add_product(w, sl_tw_load(x, dt, i), sl_tw_load(y, dt, i), dt);
        if ((i + 1) % ((uint64_t)1 << 28) == 0) {
            sl_sacc_normalise(w->st.limb, SL_SACC_LIMBS_F64);
            sl_sacc_normalise(w->lo, SL_DOT_LO_LIMBS);
            sl_sacc_normalise(w->hi, SL_DOT_HI_LIMBS);
        }
    }
    if (n == 0) *result = 0.0;
    else if (w->st.flags & (SL_DOT_FL_LOW | SL_DOT_FL_HIGH))
        *result = round_windows(w);
    else if (dt == SL_F64)
        *result = sl_sacc_round(w->st.limb, SL_SACC_LIMBS_F64, SL_F64, w->st.flags);
    else
        *result = sl_tw_round(sl_sacc_round_mode(w->st.limb, SL_SACC_LIMBS_F64, 0, SL_F64, w->st.flags, 1), dt);
    return 0;
}

/* ---- reproducible: the products' exact pieces into a 3-fold binned state ---------------------
 * The pieces of correct (float32/16-bit: the product; float64: p and fma(x, y, -p)) taken as
 * float64 inputs by exact/binned.h's accumulator (K = 3 folds of W = 40 bits below the largest
 * piece's bin): a function of the multiset of pieces, hence of the pairs (x_i, y_i) in any order
 * and any split; the state rounded once (float64: nearest even; float32/16-bit: to odd in float64,
 * then to nearest in the format). A float64 product beyond 2^1024 is an IEEE Inf here (no scaled
 * path), and pieces below 2^-1074 round in the binned deposit. n = 0: +0. The twin takes the
 * pieces in index order in one accumulator: the kernel's per-thread states merged exactly give
 * the same state. */
static int repro_cpu(const sl_variant *v, const void *x, const void *y, uint64_t n, sl_dtype dt,
                     const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;
    if (n >= SL_RSUM_MAX_N / 2)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^39)", v->name, (unsigned long long)n);
    if (n == 0) {
        *result = 0.0;
        return 0;
    }
    sl_rsum_thr_f64 a;
    sl_rsum_init_f64(&a);
    for (uint64_t i = 0; i < n; i++) {
        sl_rsum_take_product1_f64(&a, sl_tw_load(x, dt, i), sl_tw_load(y, dt, i), dt == SL_F64);
    }
    sl_rsum_state st;
    sl_rsum_state_zero(&st);
    sl_rsum_to_state_f64(&a, &st);
    if (dt == SL_F64) {
        *result = sl_rsum_state_round(&st, SL_F64);
        return 0;
    }
    *result = sl_tw_round(sl_rsum_state_round_mode_k(&st, SL_F64, SL_RSUM_K, 1), dt);
    return 0;
}

static double repro_folds(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt; (void)cfg;
    return (double)SL_RSUM_K;
}

/* ================================ descriptors =============================================== */
#define DOT_TREE                                                                            \
    .op = "dot", .family = "dot", .determinism = SL_DET_RUN_TO_RUN, .resolve = dot_resolve, \
    .depth = dot_depth, .cpu2 = tree_cpu,                                                   \
    .workspace = SL_GPU_ENTRY(sl_dot_workspace), .gpu2 = SL_GPU_ENTRY(sl_dot_gpu)

const sl_variant sl_v_dot_naive = {
    .name = "naive", .impl = SL_DOT_NAIVE, DOT_TREE,
    .description = "s += fl(x y) in the input format (float32 for 16-bit input): grid-stride "
                   "16-byte loads of x and y, block tree, last-block finish",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,
};
const sl_variant sl_v_dot_f64_acc = {
    .name = "f64-acc", .impl = SL_DOT_NAIVE, DOT_TREE, .acc_wide = 1,
    .description = "naive with products and sums in float64 (float32 and 16-bit products exact), "
                   "one rounding at the end",
    .dtypes = SL_DTYPE_MASK(SL_F32) | SL_DTYPES_HALF, .bound = SL_BOUND_RECURSIVE,
};
const sl_variant sl_v_dot_kahan = {
    .name = "kahan", .impl = SL_DOT_KAHAN, DOT_TREE,
    .description = "Kahan-compensated sum of the rounded products per lane, lanes and blocks "
                   "merged by the compensated pair add; a thread whose sum is not finite gives its "
                   "plain sum (an Inf product stays Inf, not NaN)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_COMPENSATED,
};
const sl_variant sl_v_dot_dot2 = {
    .name = "dot2", .impl = SL_DOT_DOT2, DOT_TREE,
    .description = "Ogita-Rump-Oishi Dot2: TwoProduct by explicit fma (kernel and twin; the build "
                   "contracts nothing else) and TwoSum per lane, merged by the compensated pair add",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_DOT2,
};
const sl_variant sl_v_dot_half_acc = {
    .name = "half-acc", .impl = SL_DOT_NAIVE, DOT_TREE, .acc_input = 1,
    .description = "naive with products, sums and tree in float16/bfloat16: what 16-bit "
                   "accumulation costs",
    .dtypes = SL_DTYPES_HALF, .bound = SL_BOUND_RECURSIVE,
};
/* reproducible's and correct's rows: a warp or a block a row (dot.cu; correct: its list of the
 * rows its first pass cannot decide), or the 1-D launcher on each pair where dot.h's
 * sl_dot_rows_kernel says so (its scratch); the twin: the 1-D twin on each pair, whose bits the
 * row kernels' are (a function of the row's products alone). */
static size_t rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    if (!sl_dot_rows_kernel(v->impl, rows, n, cfg ? cfg->sm_count : 0u)) return sl_variant_workspace(v, n, dt, cfg);
    return v->impl == SL_DOT_CORRECT ? (size_t)SL_DOT_ROWS_WS_BYTES(rows) : 0u;
}

const sl_variant sl_v_dot_correct = {
    .name = "correct", .op = "dot", .family = "dot", .determinism = SL_DET_CORRECTLY_ROUNDED,
    .impl = SL_DOT_CORRECT,
    .description = "correctly rounded: the products as a Fast2Sum pair in a rigorous error box "
                   "first (exact/pairsum.h); when its ends round apart, exact products (float64: p + "
                   "fma(x, y, -p), TwoProduct by an explicit FMA) into a certified 4-fold binned sum (exact/certified.cuh, superacc's "
                   "float64 engine); when its two-end certificate cannot decide (or on Inf/NaN, "
                   "overflowing products, a zero sum) the limb superaccumulator (exact/limbs.h) sums "
                   "them exactly (float64 products outside [2^-968, 2^1000) scaled into a low or a "
                   "high window), rounded once",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_CORRECTLY_ROUNDED,
    .resolve = dot_resolve, .cpu2 = correct_cpu,
    .workspace = SL_GPU_ENTRY(sl_dot_workspace), .gpu2 = SL_GPU_ENTRY(sl_dot_gpu),
#if SUMLAB_DOT_CORRECT_ROWS   /* dot.h: its row kernel, when built in */
    .rows_workspace = rows_workspace, .rows_gpu2 = SL_GPU_ENTRY(sl_dot_rows_gpu),
    .rows_bits = "the row's products alone (correctly rounded: not B, y's row or shared vector, the launch "
                 "configuration or the GPU)",
#endif
};
const sl_variant sl_v_dot_reproducible = {
    .name = "reproducible", .op = "dot", .family = "dot", .determinism = SL_DET_ORDER_INDEPENDENT,
    .impl = SL_DOT_REPRO, .acc_wide = 1,
    .description = "order-independent: the products' exact pieces (float64: p + fma(x, y, -p)) into "
                   "the 3-fold binned state of exact/binned.h, merged exactly, rounded once",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_BINNED,
    .resolve = dot_resolve, .depth = repro_folds, .cpu2 = repro_cpu,
    .workspace = SL_GPU_ENTRY(sl_dot_workspace), .gpu2 = SL_GPU_ENTRY(sl_dot_gpu),
    .rows_workspace = rows_workspace, .rows_gpu2 = SL_GPU_ENTRY(sl_dot_rows_gpu),
    .rows_bits = "the row's products alone (order-independent: not B, y's row or shared vector, the "
                 "launch configuration or the GPU)",
};

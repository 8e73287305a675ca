/* norm.c: descriptors, resolve(), depth() and CPU twins of the norm2 variants (naive, f64-acc,
 * half-acc, scaled, correct, reproducible). Each twin repeats its kernel's operations (norm.cu) in
 * the same order for the same resolved sl_launch, so a GPU result equals its twin's bits
 * (reproducible: the result depends on no order or launch configuration; its twin takes the
 * values in index order).
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, FLT_EVAL_METHOD 0,
 * -ffp-contract=off, no fast-math. Values of a float32 accumulator travel as doubles: a binary32
 * add or product of two float32 values done in double and rounded once to float is the binary32
 * operation (53 >= 2 * 24 + 2); the 16-bit accumulator of half-acc likewise (sl_tw_add).
 *
 * Special values (every variant and the reference, sl_norm.h): any Inf input -> +Inf, even beside
 * a NaN (as hypot); else NaN -> NaN; n = 0 -> +0. The kernels keep an Inf flag apart from the sums
 * (an OR: exact in any order), so the twins test for an Inf input directly.
 *
 * naive, f64-acc, half-acc, scaled: the moments' grid-stride engine (moments.c's header): thread g
 * of T = grid * block keeps per vector lane (W per 16-byte load) its sums; head element (g < head)
 * into lane 0, vectors j = g, g + T, ... lane k the value head + j W + k, tail element (g < n - ts)
 * into lane 0; lanes combined (W = 4: (l0 + l1) + (l2 + l3); 2: l0 + l1; 8: the pairs of pairs),
 * then the block tree and the last-block finish per component (sl_tw_block_sum, sl_tw_finish), then:
 *   naive: sqrt(S) in the accumulator (float32 for half-acc's 16-bit sums), rounded once to the
 *          input format; a square is x*x rounded once to the accumulator, an add rounded once;
 *   scaled: Blue's three sums (norm.h's sl_nrm_scaled_add / _final, dnrm2's combine) in the
 *          accumulator, rounded once to the input format.
 * correct: first exact/pairsum.h's cheap pass as the kernel runs it for the launch (float32/16-bit:
 * a plain float64 sum of the exact squares; float64: the TwoProduct squares as a Fast2Sum pair;
 * the candidate root tested against its midpoints exactly), which decides ordinary data; else
 * every square exact (norm.h: M^2 at bit 2q - 2 in 24-bit digits), summed as integers (any
 * order), then sl_nrm_round_sqrt: the correctly rounded root. Float64 squares are formed from the
 * integer significand (M^2 in two 64-bit words), exact over the whole range where a TwoProduct of
 * doubles would over- or underflow for |x| > 2^511 or < 2^-485.
 * reproducible (float32, 16-bit): x^2 exact in float64, summed by the float64 binned state of the
 * `reproducible` sum (exact/binned.h: 3 folds, order-independent), rounded once to float64, sqrt
 * in float64 (+ 0: a zero root is +0), rounded once to the input format. float64 (norm.h's
 * steps, kernel and twin alike): the exact max |x| first (an integer max of bit patterns), e its
 * exponent, each x times s = 2^-e, its square as the TwoProduct pieces p + fma(xs, xs, -p) into
 * the same state (the only FMA of the family, an explicit fma(): C99's, correctly rounded), rounded
 * once to float64, sqrt, times 2^e (exact unless the norm is subnormal). Blocks: a power of two,
 * at most 256 threads. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"
#include "sl_twin.h"
#include "sl_layout.h"
#include "norm/norm.h"
#include "exact/pairsum.h"
#include "exact/binned.h"
#include "sumlab/half.h"

static void nrm_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    if (v->impl == SL_NRM_REPRO) {       /* a power of two up to SL_NRM_REPRO_BLOCK (its launch bound) */
        if (cfg->block) cfg->block = sl_tw_pow2_block(cfg->block, SL_NRM_REPRO_BLOCK);
        if (cfg->block > SL_NRM_REPRO_BLOCK) cfg->block = SL_NRM_REPRO_BLOCK;
        sl_vec_grid_resolve(cfg, n, dt, SL_NRM_REPRO_BLOCK, SL_NRM_REPRO_BLOCK, SL_NRM_ITEMS,
                            SL_NRM_THREADS_PER_SM, SL_NRM_MAX_GRID);
        return;
    }
    sl_vec_grid_resolve(cfg, n, dt, SL_NRM_BLOCK, 1024u, SL_NRM_ITEMS, SL_NRM_THREADS_PER_SM, SL_NRM_MAX_GRID);
}

/* The longest chain of adds of a square (sl_tw_depth_vec_grid); exact forms: 0; reproducible: the
 * binned sum's folds (SL_BOUND_BINNED reads depth() as K). */
static double nrm_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    if (v->impl == SL_NRM_CORRECT) return 0.0;
    if (v->impl == SL_NRM_REPRO) return (double)SL_RSUM_K;
    return sl_tw_depth_vec_grid(n, dt, cfg);
}

static int any_inf(const void *x, uint64_t n, sl_dtype dt)
{
    for (uint64_t i = 0; i < n; i++)
        if (isinf(sl_tw_load(x, dt, i))) return 1;
    return 0;
}

/* ---- naive and scaled: the engine ------------------------------------------------------------ */
/* A lane's sums: c[0] the sum of squares (naive) or big, c[1] med, c[2] small (scaled). */
typedef struct { double c[3]; } nrm_lane;

static inline double nrm_mul(double a, double b, sl_dtype acc) { return sl_tw_round(a * b, acc); }

/* One element into a lane, in the accumulator acc. */
static inline void nrm_take(nrm_lane *l, double x, int scaled, sl_dtype acc)
{
    if (!scaled) {
        l->c[0] = sl_tw_add(l->c[0], nrm_mul(x, x, acc), acc);
        return;
    }
    if (acc == SL_F64) {
        sl_nrm_scaled_add_d(&l->c[0], &l->c[1], &l->c[2], fabs(x));
    } else {
        float b = (float)l->c[0], m = (float)l->c[1], s = (float)l->c[2];
        sl_nrm_scaled_add_f(&b, &m, &s, fabsf((float)x));
        l->c[0] = b; l->c[1] = m; l->c[2] = s;
    }
}

static int nrm_engine_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                          const sl_launch *cfg, double *result, sl_err *err)
{
    if (cfg->block == 0 || cfg->block % 32u || cfg->block > 1024u || cfg->grid == 0)
        return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)", v->name,
                          cfg->block, cfg->grid);
    const int scaled = v->impl == SL_NRM_SCALED, nc = scaled ? 3 : 1;
    const sl_dtype acc = sl_variant_acc(v, dt);
    const uint32_t W = sl_vec_width(dt);
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    const uint64_t head = sl_vec_head(n, dt, cfg->addr_mod);
    const uint64_t nv = (n - head) / W, ts = head + nv * W;
    double *vt = malloc((size_t)T * 3 * sizeof *vt), *bt = malloc((size_t)cfg->grid * 3 * sizeof *bt);
    if (!vt || !bt) {
        free(vt);
        free(bt);
        return sl_err_set(err, "%s: out of memory", v->name);
    }
    for (uint64_t g = 0; g < T; g++) {
        nrm_lane l[8];
        memset(l, 0, sizeof l);
        if (g < head) nrm_take(&l[0], sl_tw_load(x, dt, g), scaled, acc);
        for (uint64_t j = g; j < nv; j += T)
            for (uint32_t k = 0; k < W; k++) nrm_take(&l[k], sl_tw_load(x, dt, head + j * W + k), scaled, acc);
        if (g < n - ts) nrm_take(&l[0], sl_tw_load(x, dt, ts + g), scaled, acc);
        for (int c = 0; c < nc; c++) {
#define L_(i) l[i].c[c]
            double r;
            if (W == 8)
                r = sl_tw_add(sl_tw_add(sl_tw_add(L_(0), L_(1), acc), sl_tw_add(L_(2), L_(3), acc), acc),
                              sl_tw_add(sl_tw_add(L_(4), L_(5), acc), sl_tw_add(L_(6), L_(7), acc), acc), acc);
            else if (W == 4)
                r = sl_tw_add(sl_tw_add(L_(0), L_(1), acc), sl_tw_add(L_(2), L_(3), acc), acc);
            else
                r = sl_tw_add(L_(0), L_(1), acc);
#undef L_
            vt[(uint64_t)c * T + g] = r;
        }
    }
    double S[3] = {0, 0, 0};
    for (int c = 0; c < nc; c++) {
        for (uint32_t b = 0; b < cfg->grid; b++)
            bt[(uint64_t)c * cfg->grid + b] = sl_tw_block_sum(vt + (uint64_t)c * T + (uint64_t)b * cfg->block,
                                                             cfg->block, acc);
        S[c] = sl_tw_finish(bt + (uint64_t)c * cfg->grid, cfg->grid, cfg->block, acc);
    }
    free(vt);
    free(bt);
    double r;
    if (any_inf(x, n, dt)) r = INFINITY;
    else if (acc == SL_F64) r = scaled ? sl_nrm_scaled_final_d(S[0], S[1], S[2]) : sqrt(S[0]);
    else r = scaled ? (double)sl_nrm_scaled_final_f((float)S[0], (float)S[1], (float)S[2])
                    : (double)sqrtf((float)S[0]);   /* half-acc: its 16-bit sum's root in float32 */
    *result = sl_tw_round(r, dt);                     /* once, to the input format */
    return 0;
}

/* ---- correct --------------------------------------------------------------------------------- */
/* The exact digits of sum x^2 (limbs zeroed by the caller) and the flags. */
static unsigned nrm_exact_add(uint64_t *limb, const void *x, uint64_t n, sl_dtype dt)
{
    unsigned fl = 0;
    const int f64 = dt == SL_F64, nch = f64 ? 6 : 3;
    for (uint64_t i = 0; i < n; i++) {
        int pos = 0;
        uint64_t M;
        if (f64) {
            uint64_t u;
            memcpy(&u, (const double *)x + i, sizeof u);
            M = sl_nrm_split_f64(u, &pos, &fl);
        } else {
            const float f = sl_tw_load_f(x, dt, i);
            uint32_t u;
            memcpy(&u, &f, sizeof u);
            M = sl_nrm_split_f32(u, &pos, &fl);
        }
        if (!M) continue;
        uint64_t c[6];
        const int i0 = sl_nrm_square_chunks(M, pos, nch, c);
        for (int j = 0; j < nch; j++) limb[i0 + j] += c[j];
    }
    return fl;
}

static int nrm_correct_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                           const sl_launch *cfg, double *result, sl_err *err)
{
    if (n >= ((uint64_t)1 << 40))
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name, (unsigned long long)n);
    /* the kernel's order of passes: the cheap certified one first, in the kernel's own order for
     * the launch (an unresolved one resolved as the GPU would with the default SM count), then
     * the exact sum; every path gives the correctly rounded norm, whatever the launch */
    sl_launch c;
    if (cfg) c = *cfg;
    else memset(&c, 0, sizeof c);
    if (c.block == 0 || c.grid == 0) sl_variant_resolve(v, &c, n, dt);
    const int cert = sl_psum_norm_host(x, n, dt, &c, result);
    if (cert < 0) return sl_err_set(err, "%s: out of memory", v->name);
    if (cert) return 0;
    uint64_t limb[SL_NRM_LIMBS_F64 + 6];
    memset(limb, 0, sizeof limb);
    const unsigned fl = nrm_exact_add(limb, x, n, dt);
    const int f64 = dt == SL_F64;
    *result = sl_nrm_round_sqrt(limb, f64 ? SL_NRM_LIMBS_F64 : SL_NRM_LIMBS_F32,
                                f64 ? SL_NRM_UNIT_F64 : SL_NRM_UNIT_F32, dt, fl);
    return 0;
}

/* ---- reproducible ---------------------------------------------------------------------------- */
static int nrm_repro_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                         const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;   /* order-independent: the binned sum is a function of the multiset of squares */
    if (n >= (dt == SL_F64 ? SL_RSUM_MAX_N / 2 : SL_RSUM_MAX_N))   /* float64: two pieces each */
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^%d)", v->name, (unsigned long long)n,
                          dt == SL_F64 ? 39 : 40);
    /* one float64 binned accumulator (exact/binned.h, the state `reproducible` uses): its state
     * is a function of the multiset of pieces, so one accumulator in index order is the variant */
    sl_rsum_thr_f64 acc;
    sl_rsum_init_f64(&acc);
    sl_rsum_state st;
    if (dt == SL_F64) {   /* norm.h: the max pass, then the scaled TwoProduct pieces */
        const double *xd = (const double *)x;
        uint64_t mx = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t u;
            memcpy(&u, xd + i, sizeof u);
            const uint64_t a = sl_nrm_absbits_f64(u);
            if (a > mx) mx = a;
        }
        const int e = sl_nrm_repro_exp(mx);
        const double s = sl_pow2_f64(-e);
        for (uint64_t i = 0; i < n; i++) sl_nrm_repro_take_f64(&acc, xd[i], s);
        sl_rsum_to_state_f64(&acc, &st);
        *result = sl_nrm_repro_final(&st, sl_pow2_f64(e));
        return 0;
    }
    for (uint64_t i = 0; i < n; i++) {
        const double a = (double)sl_tw_load_f(x, dt, i);
        sl_rsum_take1_f64(&acc, a * a);               /* exact: at most 48 bits, in range */
    }
    sl_rsum_to_state_f64(&acc, &st);
    *result = sl_tw_round(sl_nrm_repro_final(&st, 1.0), dt);
    return 0;
}

/* ================================ descriptors =============================================== */
sl_workspace_fn sl_norm_workspace;
sl_gpu_fn sl_norm_gpu;
#define NRM_ENGINE                                                                           \
    .op = "norm2", .family = "norm", .determinism = SL_DET_RUN_TO_RUN, .resolve = nrm_resolve,\
    .depth = nrm_depth, .cpu = nrm_engine_cpu,                                               \
    .workspace = SL_GPU_ENTRY(sl_norm_workspace), .gpu = SL_GPU_ENTRY(sl_norm_gpu)

const sl_variant sl_v_norm2_naive = {
    .name = "naive", .impl = SL_NRM_NAIVE, NRM_ENGINE,
    .description = "sum of x*x in the accumulator (float32 for float32 and 16-bit input, float64 "
                   "for float64; grid-stride lanes, block tree, last-block finish), then sqrt: "
                   "overflows past sqrt(max) and loses squares below sqrt(min) (torch.linalg.vector_norm's form)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,
};
const sl_variant sl_v_norm2_f64_acc = {
    .name = "f64-acc", .impl = SL_NRM_NAIVE, NRM_ENGINE, .acc_wide = 1,
    .description = "naive with the squares and sums in float64 (a float32 square is exact there), "
                   "one rounding to the input format",
    .dtypes = SL_DTYPE_MASK(SL_F32) | SL_DTYPES_HALF, .bound = SL_BOUND_RECURSIVE,
};
const sl_variant sl_v_norm2_half_acc = {
    .name = "half-acc", .impl = SL_NRM_NAIVE, NRM_ENGINE, .acc_input = 1,
    .description = "naive with squares and sums in float16/bfloat16 (the root in float32): what "
                   "16-bit accumulation costs; overflows at 256 in float16",
    .dtypes = SL_DTYPES_HALF, .bound = SL_BOUND_RECURSIVE,
};
const sl_variant sl_v_norm2_scaled = {
    .name = "scaled", .impl = SL_NRM_SCALED, NRM_ENGINE,
    .description = "Blue's three accumulators as LAPACK 3.10 dnrm2 (Anderson 2017): squares of "
                   "values scaled by powers of two into small/medium/big sums, one pass: finite "
                   "wherever the norm is",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,
};
const sl_variant sl_v_norm2_correct = {
    .name = "correct", .op = "norm2", .family = "norm", .impl = SL_NRM_CORRECT,
    .determinism = SL_DET_CORRECTLY_ROUNDED,
    .description = "correctly rounded: first the squares summed in a rigorous error box "
                   "(exact/pairsum.h; float32/16-bit: a plain float64 sum of the exact squares; "
                   "float64: TwoProduct squares as a Fast2Sum pair, not certified when squares "
                   "overflow or the norm is outside [2^-480, 2^510]), the candidate root certified "
                   "by exact tests against its two midpoints; when that cannot decide: every "
                   "square exact (the integer significand squared) into 24-bit digits, summed as "
                   "integers (order-independent), the root rounded once by one thread (norm.h's "
                   "sl_nrm_round_sqrt, shared by kernel and twin)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_CORRECTLY_ROUNDED,
    .resolve = nrm_resolve, .depth = nrm_depth, .cpu = nrm_correct_cpu,
    .workspace = SL_GPU_ENTRY(sl_norm_workspace), .gpu = SL_GPU_ENTRY(sl_norm_gpu),
};
const sl_variant sl_v_norm2_reproducible = {
    .name = "reproducible", .op = "norm2", .family = "norm", .impl = SL_NRM_REPRO,
    .determinism = SL_DET_ORDER_INDEPENDENT,
    .description = "order-independent: squares summed by the float64 binned state of `reproducible` "
                   "(3 folds), rounded to float64, sqrt, rounded to the input format; float32 and "
                   "16-bit input: the squares exact in float64; float64: a max |x| pass first, then "
                   "each x scaled by the power of two s = 2^-e of that max (no square overflows) and "
                   "its square as TwoProduct pieces p + fma(xs, xs, -p) (an explicit FMA), the root "
                   "times 2^e: finite wherever the norm is",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_BINNED, .acc_wide = 1,
    .resolve = nrm_resolve, .depth = nrm_depth, .cpu = nrm_repro_cpu,
    .workspace = SL_GPU_ENTRY(sl_norm_workspace), .gpu = SL_GPU_ENTRY(sl_norm_gpu),
};

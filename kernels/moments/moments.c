/* moments.c: descriptors, resolve(), depth() and CPU twins of the moment variants (mean: naive,
 * f64-acc; var and std: textbook, shifted, two-pass, corrected, textbook-f64, two-pass-f64,
 * shifted-f64, corrected-f64, half-acc). Each twin repeats its kernels' operations (moments.cu) in the same order for the same
 * resolved sl_launch, so a GPU result equals its twin's bits. Determinism: run-to-run (a fixed
 * tree for a fixed grid and block).
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, FLT_EVAL_METHOD 0
 * (x86-64 SSE2), -ffp-contract=off, no fast-math. Values travel as doubles holding values of the
 * accumulator format; a binary32 (or 16-bit) add, subtract or multiply is done in double and
 * rounded once to the format (53 >= 2p + 2: the double rounding is innocuous, and the product of
 * two such values is exact in double); the final divisions and square roots run in float or
 * double variables of the format itself. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"
#include "sl_twin.h"
#include "moments/moments.h"

/* ---- the algorithms -------------------------------------------------------------------------
 * Every member reads x with one engine, run once (mean, textbook, shifted) or twice (two-pass,
 * corrected): for a shift K (an accumulator value) it forms the sums
 *   S1 = sum d,  S2 = sum d*d,  d = x - K   (each operation rounded once in the accumulator acc)
 * textbook and mean: K = 0 (d = x exactly); shifted: K = x[0]; the second read of two-pass and
 * corrected: K = m, with m = S1 / n (the first read's S1; it forms no squares). Then, in the
 * epilogue format (the accumulator; float32 for half-acc's 16-bit sums), with N = n and
 * D = n - ddof converted once to that format:
 *   mean:                          S1 / N
 *   textbook, shifted, corrected:  (S2 - (S1 * S1) / N) / D
 *   two-pass:                      S2 / D
 *   std: the square root of the variance (a negative textbook variance taken as 0, as fused
 *   normalisation kernels clamp it), in the same format; var/std with n <= ddof: NaN
 *   (moments.h's sl_mom_final_f/_d: the one definition the kernels call too).
 * The result is rounded once to the input format. Accumulators: float32 for float32 and 16-bit
 * input, float64 for float64 input and for the *-f64 members (acc_wide), the 16-bit input's own
 * format for half-acc (acc_input: sums, squares and tree in float16/bfloat16; its epilogue in
 * float32, as a kernel's scalar epilogue runs, so that n itself need not be a 16-bit value).
 *
 * The engine (as the accuracy family's grid-stride engine, with a pair of sums in each lane):
 * thread g of T = grid*block threads keeps one pair per vector lane (W = 4 floats / 2 doubles /
 * 8 float16 or bfloat16 values per 16-byte load):
 *   g < head: lane 0 takes x[g];  j = g, g+T, ...: lane k takes x[head + j*W + k];
 *   g < tail: lane 0 takes x[head + nv*W + g];
 *   thread pair: W=4: (l0+l1)+(l2+l3); W=2: l0+l1; W=8: ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7)),
 *   componentwise; then the block tree (sl_block_reduce's shape) and the last-block finish
 *   (sl_grid_finish's order), componentwise: the S1 and S2 trees are two plain sums of the
 *   same shape (sl_tw_block_sum, sl_tw_finish). */

/* Block a multiple of 32; grid: sm_count waves of SL_MOM_THREADS_PER_SM threads, fewer when n is
 * small, at most the blocks that have work (thread g works when g < max(head, nv, tail)). */
static void mom_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v;
    sl_vec_grid_resolve(cfg, n, dt, SL_MOM_BLOCK, 1024u, SL_MOM_ITEMS, SL_MOM_THREADS_PER_SM, SL_MOM_MAX_GRID);
}

/* The longest chain of roundings of S1 or S2 (of the second read's sums for the two-pass forms):
 * a thread's vectors, its head and tail element, the lane combine, the block tree, the finish. */
static double mom_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v;
    return sl_tw_depth_vec_grid(n, dt, cfg);
}

/* fl_acc(a * b) for a, b in format acc (the product of two such values is exact in double). */
static inline double mom_mul(double a, double b, sl_dtype acc)
{
    return sl_tw_round(a * b, acc);
}

/* Per-thread pairs of the engine for shift K: vs1[g] = thread g's S1, vs2[g] its S2 (sq = 0: no
 * squares, vs2 untouched); specialised per (dt, acc) by mom_lanes below. */
SL_TW_INLINE void mom_lanes_run(const void *x, uint64_t n, sl_dtype dt, sl_dtype acc,
                                const sl_launch *cfg, double K, int sq, double *vs1, double *vs2)
{
    const uint32_t W = sl_vec_width(dt);
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    const uint64_t head = sl_vec_head(n, dt, cfg->addr_mod);
    const uint64_t nv = (n - head) / W;
    const uint64_t ts = head + nv * W;
#define MOM_LANE(k_, xval)                                                                    \
    do {                                                                                      \
        const double d_ = sl_tw_add((xval), -K, acc);                                         \
        a1[k_] = sl_tw_add(a1[k_], d_, acc);                                                  \
        if (sq) a2[k_] = sl_tw_add(a2[k_], mom_mul(d_, d_, acc), acc);                        \
    } while (0)
    if (acc == SL_F32 && dt != SL_F64 && !sl_tw_generic()) {
        /* float32 accumulator: the same operations on float variables (each rounds once) */
        const float Kf = (float)K;
        for (uint64_t g = 0; g < T; g++) {
            float f1[8], f2[8];
            for (int k = 0; k < 8; k++) f1[k] = f2[k] = 0.0f;
#define MOM_LANE_F(k_, xval)                                                                  \
    do {                                                                                      \
        const float d_ = (xval) - Kf;                                                         \
        f1[k_] = f1[k_] + d_;                                                                 \
        if (sq) f2[k_] = f2[k_] + d_ * d_;                                                    \
    } while (0)
            if (g < head) MOM_LANE_F(0, sl_tw_load_f(x, dt, g));
            for (uint64_t j = g; j < nv; j += T)
                for (uint32_t k = 0; k < W; k++) MOM_LANE_F(k, sl_tw_load_f(x, dt, head + j * W + k));
            if (g < n - ts) MOM_LANE_F(0, sl_tw_load_f(x, dt, ts + g));
#undef MOM_LANE_F
            for (int c = 0; c < (sq ? 2 : 1); c++) {
                const float *l = c ? f2 : f1;
                float r;
                if (W == 8) r = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
                else r = (l[0] + l[1]) + (l[2] + l[3]);
                (c ? vs2 : vs1)[g] = r;
            }
        }
        return;
    }
    for (uint64_t g = 0; g < T; g++) {
        double a1[8], a2[8];
        for (int k = 0; k < 8; k++) a1[k] = a2[k] = 0.0;
        if (g < head) MOM_LANE(0, sl_tw_load(x, dt, g));
        for (uint64_t j = g; j < nv; j += T)
            for (uint32_t k = 0; k < W; k++) MOM_LANE(k, sl_tw_load(x, dt, head + j * W + k));
        if (g < n - ts) MOM_LANE(0, sl_tw_load(x, dt, ts + g));
        for (int c = 0; c < (sq ? 2 : 1); c++) {
            const double *l = c ? a2 : a1;
            double r;
            if (W == 8)
                r = sl_tw_add(sl_tw_add(sl_tw_add(l[0], l[1], acc), sl_tw_add(l[2], l[3], acc), acc),
                              sl_tw_add(sl_tw_add(l[4], l[5], acc), sl_tw_add(l[6], l[7], acc), acc), acc);
            else if (W == 4)
                r = sl_tw_add(sl_tw_add(l[0], l[1], acc), sl_tw_add(l[2], l[3], acc), acc);
            else
                r = sl_tw_add(l[0], l[1], acc);
            (c ? vs2 : vs1)[g] = r;
        }
    }
#undef MOM_LANE
}

static void mom_lanes(const void *x, uint64_t n, sl_dtype dt, sl_dtype acc, const sl_launch *cfg,
                      double K, int sq, double *vs1, double *vs2)
{
#define MOM_CALL(d, a, unused) mom_lanes_run(x, n, d, a, cfg, K, sq, vs1, vs2)
    SL_TW_DISPATCH(dt, acc, MOM_CALL, 0);
#undef MOM_CALL
}

/* Scratch of one twin run: T thread values and grid block values per sum. */
typedef struct {
    double *vs1, *vs2, *bs1, *bs2;
} mom_scratch;

/* One read: S1 (and S2 when sq) for shift K, through the lanes, the block trees and the finish. */
static void mom_read(const void *x, uint64_t n, sl_dtype dt, sl_dtype acc, const sl_launch *cfg,
                     double K, int sq, mom_scratch *s, double *S1, double *S2)
{
    mom_lanes(x, n, dt, acc, cfg, K, sq, s->vs1, s->vs2);
    for (uint32_t b = 0; b < cfg->grid; b++) {
        const uint64_t o = (uint64_t)b * cfg->block;
        s->bs1[b] = sl_tw_block_sum(s->vs1 + o, cfg->block, acc);
        if (sq) s->bs2[b] = sl_tw_block_sum(s->vs2 + o, cfg->block, acc);
    }
    *S1 = sl_tw_finish(s->bs1, cfg->grid, cfg->block, acc);
    *S2 = sq ? sl_tw_finish(s->bs2, cfg->grid, cfg->block, acc) : 0.0;
}

/* The epilogue (moments.h's sl_mom_final_f / _d, the kernels' own code) on doubles holding
 * values of the epilogue format. */
static double mom_final_f(int impl, uint64_t n, uint32_t ddof, double s1, double s2)
{
    return (double)sl_mom_final_f(impl, n, ddof, (float)s1, (float)s2);
}
static double mom_final_d(int impl, uint64_t n, uint32_t ddof, double s1, double s2)
{
    return sl_mom_final_d(impl, n, ddof, s1, s2);
}

static int mom_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                   const sl_launch *cfg, double *result, sl_err *err)
{
    if (cfg->block == 0 || cfg->block % 32u || cfg->block > 1024u || cfg->grid == 0)
        return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)", v->name,
                          cfg->block, cfg->grid);
    const sl_mom_kind kind = SL_MOM_KIND(v->impl);
    const sl_dtype acc = sl_variant_acc(v, dt);
    const sl_dtype fin = acc == SL_F64 ? SL_F64 : SL_F32; /* the epilogue's format */
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    const int sq = kind != SL_MOM_MEAN;
    mom_scratch s;
    s.vs1 = malloc(T * sizeof *s.vs1);
    s.vs2 = sq ? malloc(T * sizeof *s.vs2) : NULL;
    s.bs1 = malloc((size_t)cfg->grid * sizeof *s.bs1);
    s.bs2 = sq ? malloc((size_t)cfg->grid * sizeof *s.bs2) : NULL;
    if (!s.vs1 || !s.bs1 || (sq && (!s.vs2 || !s.bs2))) {
        free(s.vs1); free(s.vs2); free(s.bs1); free(s.bs2);
        return sl_err_set(err, "%s: out of memory", v->name);
    }
    double K = 0.0, S1, S2;
    if (kind == SL_MOM_SHIFTED && n) K = sl_tw_load(x, dt, 0); /* exact in acc */
    if (kind == SL_MOM_TWO_PASS || kind == SL_MOM_CORRECTED) {
        double m1, unused;
        mom_read(x, n, dt, acc, cfg, 0.0, 0, &s, &m1, &unused);
        K = fin == SL_F64 ? mom_final_d(SL_MOM_MEAN, n, 0, m1, 0.0)
                          : mom_final_f(SL_MOM_MEAN, n, 0, m1, 0.0);
    }
    mom_read(x, n, dt, acc, cfg, K, sq, &s, &S1, &S2);
    const double r = fin == SL_F64 ? mom_final_d(v->impl, n, cfg->ddof, S1, S2)
                                   : mom_final_f(v->impl, n, cfg->ddof, S1, S2);
    *result = sl_tw_round(r, dt); /* once, to the input format */
    free(s.vs1); free(s.vs2); free(s.bs1); free(s.bs2);
    return 0;
}

/* ================================ descriptors =============================================== */
#define MOM_COMMON                                                                          \
    .family = "moments", .determinism = SL_DET_RUN_TO_RUN, .resolve = mom_resolve,          \
    .depth = mom_depth, .cpu = mom_cpu,                                                     \
    .workspace = SL_GPU_ENTRY(sl_moments_workspace), .gpu = SL_GPU_ENTRY(sl_moments_gpu)
#define MOM_F64_DTYPES (SL_DTYPE_MASK(SL_F32) | SL_DTYPES_HALF)

/* mean */
const sl_variant sl_v_mean_naive = {
    .name = "naive", .op = "mean", .impl = SL_MOM_MEAN, MOM_COMMON,
    .description = "sum in the accumulator (grid-stride lanes, block tree, last-block finish), "
                   "divided by n",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,
};
const sl_variant sl_v_mean_f64_acc = {
    .name = "f64-acc", .op = "mean", .impl = SL_MOM_MEAN, MOM_COMMON, .acc_wide = 1,
    .description = "naive's sum and division in float64, one rounding at the end",
    .dtypes = MOM_F64_DTYPES, .bound = SL_BOUND_RECURSIVE,
};

/* var and std: one descriptor each, the same twin and kernels (impl's SL_MOM_STD bit) */
#define MOM_PAIR(ID, NAME, KIND, BOUND, DTYPES, WIDE, INPUT, DESC)                           \
    const sl_variant sl_v_var_##ID = {                                                       \
        .name = NAME, .op = "var", .impl = KIND, MOM_COMMON, .acc_wide = WIDE,               \
        .acc_input = INPUT, .description = DESC, .dtypes = DTYPES, .bound = BOUND,           \
    };                                                                                       \
    const sl_variant sl_v_std_##ID = {                                                       \
        .name = NAME, .op = "std", .impl = KIND | SL_MOM_STD, MOM_COMMON, .acc_wide = WIDE,  \
        .acc_input = INPUT, .dtypes = DTYPES,                                                 \
        .description = "the square root of var's " NAME ", before the one rounding to the input format", \
        .bound = BOUND,                                                                      \
    };
MOM_PAIR(textbook, "textbook", SL_MOM_TEXTBOOK, SL_BOUND_VAR_TEXTBOOK, SL_DTYPES_ALL, 0, 0,
         "one pass: S1 = sum x, S2 = sum x^2; (S2 - S1*S1/n) / (n - ddof)")
MOM_PAIR(shifted, "shifted", SL_MOM_SHIFTED, SL_BOUND_VAR_SHIFTED, SL_DTYPES_ALL, 0, 0,
         "one pass over x - x[0]: textbook on the shifted values")
MOM_PAIR(two_pass, "two-pass", SL_MOM_TWO_PASS, SL_BOUND_VAR_TWO_PASS, SL_DTYPES_ALL, 0, 0,
         "two reads: m = sum x / n, then sum (x - m)^2 / (n - ddof)")
MOM_PAIR(corrected, "corrected", SL_MOM_CORRECTED, SL_BOUND_VAR_CORRECTED, SL_DTYPES_ALL, 0, 0,
         "two-pass with Bjorck's correction: (sum d^2 - (sum d)^2/n) / (n - ddof), d = x - m")
MOM_PAIR(textbook_f64, "textbook-f64", SL_MOM_TEXTBOOK, SL_BOUND_VAR_TEXTBOOK, MOM_F64_DTYPES, 1,
         0, "textbook accumulated in float64, one rounding at the end")
MOM_PAIR(two_pass_f64, "two-pass-f64", SL_MOM_TWO_PASS, SL_BOUND_VAR_TWO_PASS, MOM_F64_DTYPES, 1,
         0, "two-pass accumulated in float64, one rounding at the end")
MOM_PAIR(shifted_f64, "shifted-f64", SL_MOM_SHIFTED, SL_BOUND_VAR_SHIFTED, MOM_F64_DTYPES, 1, 0,
         "shifted accumulated in float64, one rounding at the end")
MOM_PAIR(corrected_f64, "corrected-f64", SL_MOM_CORRECTED, SL_BOUND_VAR_CORRECTED, MOM_F64_DTYPES, 1,
         0, "corrected accumulated in float64, one rounding at the end")
MOM_PAIR(half_acc, "half-acc", SL_MOM_TEXTBOOK, SL_BOUND_VAR_TEXTBOOK, SL_DTYPES_HALF, 0, 1,
         "textbook with sums, squares and tree in float16/bfloat16 (the epilogue in float32): "
         "what 16-bit accumulation costs")

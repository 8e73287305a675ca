/* lse.c: descriptors, resolve(), depth() and CPU twins of the log-sum-exp variants (naive,
 * two-pass, online, f64-acc, compensated, half-acc, accurate, reproducible; operation `lse`). Each
 * twin repeats its kernel's steps (lse.cu) with the same state functions (lse.h) in the same order
 * for the same resolved sl_launch, so a GPU result equals its twin's bits. Determinism: run-to-run
 * (fixed trees); reproducible: order-independent (its twin takes the inputs in any order).
 *
 * Order (kernel and twin), T = grid * block threads, W elements per 16-byte vector, the split of
 * sl_layout.h (head scalars, nv vectors, tail scalars), thread g:
 *   state = init (m = -Inf; two-pass: m = the exact maximum of the first pass)
 *   vectors j = g, g + T, ... < nv, in tiles (lse.h's sl_lse_add_tile): while j + (U-1) T < nv,
 *     one tile of the U vectors j, j + T, ..., j + (U-1) T (lanes k = 0 .. W-1 of each,
 *     x[head + j W + k]), j += U T; then each remaining vector j, j + T, ... a tile
 *     (U = lse.h's SL_LSE_TILE_VECS: 32 values for online with a float32 state, else
 *     SL_LSE_UNROLL vectors)
 *   edges e = g, g + T, ... < head + tail: a tile of the one value
 *     x[e < head ? e : head + nv W + (e - head)]
 *   (every kind but online adds a tile's values one by one: the order is the element order)
 * then the block tree (reduce/block.cuh's sl_block_reduce with merge: warps by shuffles 16..1, the
 * warps' states in 32 slots, empty slots (-Inf, 0, 0)), then the last-block finish
 * (reduce/grid.cuh's sl_grid_finish: thread t merges (-Inf, 0, 0), p[t], p[t + B], ..., then the
 * block tree), then final(). two-pass runs a first kernel for the maximum (exact, any order).
 *
 * Floating-point assumptions: lse_math.h's (IEEE binary32/binary64, round to nearest even,
 * -ffp-contract=off, FLT_EVAL_METHOD 0). 16-bit input is widened exactly to float32 and the
 * result rounded once to its format; f64-acc rounds its float64 result to float32 first (as the
 * kernel's __double2float_rn, then __float2half_rn / __float2bfloat16_rn for 16-bit input). */
#include <math.h>
#include <stdlib.h>
#include "sl_variant_impl.h"
#include "sl_twin.h"
#include "sl_layout.h"
#include "lse/lse.h"
#include "exact/binned.h"
#include "exact/limbs.h"         /* the one-pass form's exact sum of its float32 terms */
#include "sumlab/pool.h"

/* States per task of the twin's host threads (the result does not depend on the split). */
#define SL_LSE_TWIN_CHUNK 4096u

/* lse.cu's entries (one workspace() and one gpu() for the family, by v->impl) */
sl_workspace_fn sl_lse_workspace;
sl_gpu_fn sl_lse_gpu;

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static void lse_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    /* the one-pass forms of accurate and reproducible (float32, 16-bit input): blocks of 512,
     * 1,536 threads an SM (accurate: launch sweep, BENCHMARKS.md; reproducible: superacc's
     * exponent bins, 64 KB of shared memory a block, three blocks an SM as superacc's); 16-bit
     * accurate's pipelined walk: 1,024 (its registers fit two; lse.h's SUMLAB_LSE_ACCF_FLAT) */
    const int first = dt != SL_F64 && (v->impl == SL_LSE_ACCURATE || v->impl == SL_LSE_REPRODUCIBLE);
    const int piped = !SUMLAB_LSE_ACCF_FLAT && v->impl == SL_LSE_ACCURATE && (dt == SL_F16 || dt == SL_BF16);
    const uint32_t per_sm_threads = piped ? 1024u : first ? 1536u : SL_LSE_THREADS_PER_SM;
    if (cfg->block == 0) cfg->block = first ? SL_LSE_MAX_BLOCK : SL_LSE_BLOCK;
    cfg->block = (cfg->block + 31u) / 32u * 32u;
    if (cfg->block > SL_LSE_MAX_BLOCK) cfg->block = SL_LSE_MAX_BLOCK;
    if (cfg->items == 0) cfg->items = SL_LSE_UNROLL;
    const uint64_t head = sl_vec_head(n, dt, cfg->addr_mod);
    const uint64_t nv = (n - head) / sl_vec_width(dt);
    const uint64_t nedge = n - nv * sl_vec_width(dt);
    const uint64_t work = nv > nedge ? nv : nedge;
    const uint64_t need = ceil_div(work ? work : 1, cfg->block);
    if (cfg->grid == 0) {
        uint32_t per_sm = per_sm_threads / cfg->block;
        uint64_t g = (uint64_t)cfg->sm_count * (per_sm ? per_sm : 1u);
        cfg->grid = (uint32_t)(g ? g : 1);
    }
    if (cfg->grid > SL_LSE_MAX_GRID) cfg->grid = SL_LSE_MAX_GRID;
    if (cfg->grid > need) cfg->grid = (uint32_t)need;
}

/* The longest chain of one state's steps: its thread's elements, the warp and block trees, the
 * finish's loop and trees (each step: one add, and for the online forms at most one rescale). */
static double lse_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v;
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    const uint64_t W = sl_vec_width(dt);
    const uint64_t nv = n / W;
    return (double)(ceil_div(nv, T ? T : 1) * W + 1) + sl_tw_depth_block_sum(cfg->block) +
           sl_tw_depth_finish(cfg->grid, cfg->block);
}

/* The twin, per state format (f: float32, d: float64). LOADF loads x[i] into the state's format. */
#define SL_LSE_TWIN(sfx, ST, T)                                                               \
    static ST lse_tree_##sfx(ST *v, uint32_t count, int kind) /* one warp's 32 states */    \
    {                                                                                         \
        (void)count;                                                                          \
        for (int off = 16; off > 0; off >>= 1)                                                \
            for (int i = 0; i < off; i++) v[i] = sl_lse_merge_##sfx(v[i], v[i + off], kind);  \
        return v[0];                                                                          \
    }                                                                                         \
    static ST lse_block_##sfx(const ST *v, uint32_t block, int kind)                          \
    {                                                                                         \
        ST slots[32], lanes[32];                                                              \
        const ST z = sl_lse_init_##sfx((T)-INFINITY);                                         \
        for (int w = 0; w < 32; w++) slots[w] = z;                                            \
        for (uint32_t w = 0; w < block / 32u; w++) {                                          \
            for (int l = 0; l < 32; l++) lanes[l] = v[w * 32u + (uint32_t)l];                 \
            slots[w] = lse_tree_##sfx(lanes, 32, kind);                                       \
        }                                                                                     \
        return lse_tree_##sfx(slots, 32, kind);                                               \
    }                                                                                         \
    typedef struct {                                                                          \
        const void *x;                                                                        \
        sl_dtype dt;                                                                          \
        int kind;                                                                             \
        uint64_t Tn, W, head, nv, tail0, nedge;                                               \
        ST *st;                                                                               \
        T m0;                                                                                 \
    } lse_job_##sfx;                                                                          \
    /* states g in [c C, (c + 1) C): every state sees its elements in its thread's order     \
     * (vectors j = g, g + T, ..., then its edges), visited round by round in memory order */ \
    static void lse_chunk_##sfx(void *ctx, size_t c)                                          \
    {                                                                                         \
        const lse_job_##sfx *J = ctx;                                                         \
        const uint64_t g0 = (uint64_t)c * SL_LSE_TWIN_CHUNK;                                  \
        const uint64_t g1 = g0 + SL_LSE_TWIN_CHUNK < J->Tn ? g0 + SL_LSE_TWIN_CHUNK : J->Tn;   \
        const int kind = J->kind, h16 = sl_dtype_is_half(J->dt);                              \
        for (uint64_t g = g0; g < g1; g++) J->st[g] = sl_lse_init_##sfx(J->m0);               \
        const uint64_t Tn = J->Tn, W = J->W;                                                  \
        const uint64_t U = (uint64_t)SL_LSE_TILE_VECS(kind, sizeof(T), (int)W);               \
        T v[SL_LSE_TILE_VALUES > SL_LSE_UNROLL * 8 ? SL_LSE_TILE_VALUES : SL_LSE_UNROLL * 8];  \
        for (uint64_t r = 0; r < J->nv; r += U * Tn)                                          \
            for (uint64_t g = g0; g < g1 && r + g < J->nv; g++) {                             \
                ST a = J->st[g];                                                              \
                const uint64_t j = r + g;                                                     \
                if (j + (U - 1) * Tn < J->nv) { /* the kernel's unrolled tile */              \
                    for (uint64_t u = 0; u < U; u++)                                          \
                        for (uint64_t k = 0; k < W; k++)                                      \
                            v[u * W + k] = (T)sl_tw_load(J->x, J->dt,                         \
                                                         J->head + (j + u * Tn) * W + k);     \
                    sl_lse_add_tile_##sfx(&a, v, (int)(U * W), kind, h16);                    \
                } else /* the remaining vectors, a tile each */                               \
                    for (uint64_t jj = j; jj < J->nv; jj += Tn) {                             \
                        for (uint64_t k = 0; k < W; k++)                                      \
                            v[k] = (T)sl_tw_load(J->x, J->dt, J->head + jj * W + k);          \
                        sl_lse_add_tile_##sfx(&a, v, (int)W, kind, h16);                      \
                    }                                                                         \
                J->st[g] = a;                                                                 \
            }                                                                                 \
        for (uint64_t g = g0; g < g1 && g < J->nedge; g++)                                     \
            for (uint64_t e = g; e < J->nedge; e += Tn) { /* edge values: a tile each */      \
                v[0] = (T)sl_tw_load(J->x, J->dt, e < J->head ? e : J->tail0 + (e - J->head)); \
                sl_lse_add_tile_##sfx(&J->st[g], v, 1, kind, h16);                            \
            }                                                                                 \
    }                                                                                         \
    /* the kernel's final state (*fin) of state kind `kind` (-1: the descriptor's) */          \
    static int lse_twin_##sfx(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,   \
                              const sl_launch *cfg, T M, int kind_in, ST *fin, sl_err *err)   \
    {                                                                                         \
        const int kind = kind_in >= 0                   ? kind_in                            \
                         : v->impl == SL_LSE_F64_ACC  ? SL_LSE_ONLINE                          \
                         : v->impl == SL_LSE_HALF_ACC ? (dt == SL_BF16 ? SL_LSE_NAIVE_BF16        \
                                                                       : SL_LSE_NAIVE_F16)        \
                                                      : v->impl;                                  \
        const uint32_t B = cfg->block, G = cfg->grid;                                         \
        if (B == 0 || B % 32u || B > 1024u || G == 0)                                         \
            return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)", \
                              v->name, B, G);                                                 \
        const uint64_t Tn = (uint64_t)G * B, W = sl_vec_width(dt);                            \
        const uint64_t head = sl_vec_head(n, dt, cfg->addr_mod);                              \
        const uint64_t nv = (n - head) / W, tail0 = head + nv * W;                            \
        const uint64_t nedge = head + (n - tail0);                                            \
        ST *st = malloc((size_t)Tn * sizeof *st), *part = malloc((size_t)G * sizeof *part);   \
        if (!st || !part) {                                                                   \
            free(st);                                                                         \
            free(part);                                                                       \
            return sl_err_set(err, "%s: out of memory", v->name);                             \
        }                                                                                     \
        lse_job_##sfx job = {x, dt, kind, Tn, W, head, nv, tail0, nedge, st,                  \
                             kind == SL_LSE_TWO_PASS ? M : (T)-INFINITY};                     \
        const size_t chunks = (size_t)((Tn + SL_LSE_TWIN_CHUNK - 1) / SL_LSE_TWIN_CHUNK);      \
        if (sl_parallel_for(chunks, sl_twin_threads(), lse_chunk_##sfx, &job)) {               \
            free(st);                                                                         \
            free(part);                                                                       \
            return sl_err_set(err, "%s: a host thread could not be joined", v->name);         \
        }                                                                                     \
        for (uint32_t b = 0; b < G; b++) part[b] = lse_block_##sfx(st + (uint64_t)b * B, B, kind); \
        /* the finish: thread t of B merges p[t], p[t + B], ... into an empty state */        \
        for (uint32_t t = 0; t < B; t++) {                                                    \
            ST a = sl_lse_init_##sfx((T)-INFINITY);                                           \
            for (uint32_t i = t; i < G; i += B) a = sl_lse_merge_##sfx(a, part[i], kind);     \
            st[t] = a;                                                                        \
        }                                                                                     \
        *fin = lse_block_##sfx(st, B, kind);                                                  \
        free(st);                                                                             \
        free(part);                                                                           \
        return 0;                                                                             \
    }
SL_LSE_TWIN(f, sl_lse_sf, float)
SL_LSE_TWIN(d, sl_lse_sd, double)

static int lse_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                   const sl_launch *cfg, double *result, sl_err *err)
{
    const int wide = v->impl == SL_LSE_F64_ACC || v->impl == SL_LSE_ACCURATE || dt == SL_F64;
    if (wide) {
        double M = -INFINITY;
        sl_lse_sd fin;
        if (v->impl == SL_LSE_ACCURATE && dt != SL_F64) {
            /* the first pass: its state decides, or the accurate kernel behind it runs */
            double out;
            if (lse_twin_d(v, x, n, dt, cfg, M, dt == SL_F32 ? SL_LSE_ACCF : SL_LSE_ACCF16, &fin, err))
                return -1;
            if (sl_lse_accf_decide(fin.m, fin.s, (double)n, lse_depth(v, n, dt, cfg), dt, &out)) {
                *result = out;
                return 0;
            }
        }
        if (v->impl == SL_LSE_TWO_PASS)
            for (uint64_t i = 0; i < n; i++) M = SL_LSE_MAX(M, sl_tw_load(x, dt, i));
        if (lse_twin_d(v, x, n, dt, cfg, M, -1, &fin, err)) return -1;
        const double r = sl_lse_final_d(fin, v->impl == SL_LSE_F64_ACC ? SL_LSE_ONLINE : v->impl);
        /* accurate: one rounding to the input format (the kernel's __double2float_rn,
         * __double2half_rn, __double2bfloat16_rn); f64-acc through float32 */
        *result = dt == SL_F64                   ? r
                  : v->impl == SL_LSE_ACCURATE ? (dt == SL_F32 ? (double)(float)r : sl_tw_out(r, dt))
                                               : sl_tw_out((double)(float)r, dt);
        return 0;
    }
    float M = -INFINITY;
    sl_lse_sf fin;
    if (v->impl == SL_LSE_TWO_PASS)
        for (uint64_t i = 0; i < n; i++) M = SL_LSE_MAX(M, (float)sl_tw_load(x, dt, i));
    if (lse_twin_f(v, x, n, dt, cfg, M, -1, &fin, err)) return -1;
    const int kind = v->impl == SL_LSE_HALF_ACC ? (dt == SL_BF16 ? SL_LSE_NAIVE_BF16 : SL_LSE_NAIVE_F16)
                                                : v->impl;
    *result = sl_tw_out((double)sl_lse_final_f(fin, kind), dt);
    return 0;
}

#define SL_LSE_VARIANT(id, vname, kind, dts, wide, bnd, what)                                 \
    const sl_variant sl_v_##id = {                                                            \
        .name = vname,                                                                        \
        .op = "lse", .family = "lse",                                                         \
        .determinism = SL_DET_RUN_TO_RUN,                                                     \
        .description = what,                                                                  \
        .dtypes = dts,                                                                        \
        .bound = bnd,                                                                         \
        .acc_wide = wide,                                                                     \
        .acc_input = kind == SL_LSE_HALF_ACC,                                                 \
        .impl = kind,                                                                         \
        .resolve = lse_resolve,                                                               \
        .depth = lse_depth,                                                                   \
        .cpu = lse_cpu,                                                                       \
        .workspace = SL_GPU_ENTRY(sl_lse_workspace),                                          \
        .gpu = SL_GPU_ENTRY(sl_lse_gpu),                                                      \
    };
SL_LSE_VARIANT(lse_naive, "naive", SL_LSE_NAIVE, SL_DTYPES_ALL, 0, SL_BOUND_RECURSIVE,
               "log of the sum of exp(x), no shift: exp overflows above log(max) (88.7 in "
               "float32, 11.1 in float16) and underflows far below 0")
SL_LSE_VARIANT(lse_two_pass, "two-pass", SL_LSE_TWO_PASS, SL_DTYPES_ALL, 0, SL_BOUND_RECURSIVE,
               "max first (one kernel), then max + log(sum exp(x - max)) (a second kernel, "
               "last-block finish)")
SL_LSE_VARIANT(lse_online, "online", SL_LSE_ONLINE, SL_DTYPES_ALL, 0, SL_BOUND_RECURSIVE,
               "one pass: a running max and a rescaled sum per thread, merged through the tree "
               "(Milakov & Gimelshein 2018); float32 state for 16-bit input, rescaled once per "
               "tile of 32 values; 16-bit input's terms by a 16-bit exponential (within 2^-17)")
SL_LSE_VARIANT(lse_f64_acc, "f64-acc", SL_LSE_F64_ACC,
               SL_DTYPE_MASK(SL_F32) | SL_DTYPES_HALF, 1, SL_BOUND_RECURSIVE,
               "online with a float64 state and float64 exp/log, rounded to the input format")
SL_LSE_VARIANT(lse_half_acc, "half-acc", SL_LSE_HALF_ACC, SL_DTYPES_HALF, 0, SL_BOUND_RECURSIVE,
               "naive accumulated in the float16/bfloat16 input format (exp rounded to it, every add "
               "rounded to it): overflows at 65504 in float16, as a float16 logsumexp does")
SL_LSE_VARIANT(lse_compensated, "compensated", SL_LSE_COMPENSATED, SL_DTYPES_ALL, 0,
               SL_BOUND_COMPENSATED,
               "online with a compensated (TwoSum) sum of the exponentials, the pair merged as "
               "kahan's tree")

/* ---- reproducible: the exact maximum, then the binned sum of the terms ------------------------
 * The twin takes the inputs in index order, in tasks of SL_LSE_REP_CHUNK values. The shifted form
 * (float64 input; a maximum outside the one-pass window): each task's terms into one binned
 * float64 accumulator (exact/binned.h, as the kernel's threads: groups of SL_RSUM_GROUP terms
 * through the group path, the rest one by one), whose states merge exactly. The one-pass form
 * (float32 and 16-bit input): each task's float32 terms summed exactly (a limb state,
 * exact/limbs.h), the states merged exactly and the sum rounded once to float64 as the kernel's
 * last block does (exact/limbs.h's sl_sacc_round_f32_as_f64_regs). Either way the same bits as the
 * kernels' for any launch configuration, order or split. */
#define SL_LSE_REP_CHUNK 65536u
#define SL_LSE_REP_SUB 1024u      /* the one-pass form's terms a step (a buffer on the stack) */

typedef struct {
    const void *x;
    sl_dtype dt;
    uint64_t n;
    double M;
    int one;   /* the one-pass form's unshifted terms (lse.h's sl_lse_rep1_termx), summed exactly */
    sl_rsum_state *st;
    unsigned char *sacc;   /* one pass: the tasks' saved limb states, SL_SACC_SAVED_BYTES(SL_F32) each */
} lse_rep_job;

/* Adds the float32 terms t[0..m) exactly into st (float32's limb layout; a NaN or Inf term, only
 * where the maximum is outside the one-pass window, sets its flag), normalised as often as
 * exact/limbs.h allows. */
static void lse_rep1_add(sl_sacc_state *st, const float *t, size_t m)
{
    for (size_t k = 0; k < m; k++) {
        const float v = t[k];
        if (v != v || isinf(v)) {
            st->flags |= v != v ? SL_SACC_NAN : v > 0 ? SL_SACC_PINF : SL_SACC_NINF;
            continue;
        }
        int idx, neg;
        uint64_t c[3];
        if (sl_sacc_split_f64((double)v, SL_SACC_SCALE_F32, &idx, c, &neg))
            for (int j = 0; j < 3; j++) st->limb[idx + j] += neg ? -(int64_t)c[j] : (int64_t)c[j];
        if (++st->since_norm == SL_SACC_NORM_EVERY) {
            sl_sacc_normalise(st->limb, SL_SACC_LIMBS_F32);
            st->since_norm = 0;
        }
    }
    st->n += m;
}

static void lse_rep_chunk(void *ctx, size_t c)
{
    const lse_rep_job *J = ctx;
    const uint64_t i0 = (uint64_t)c * SL_LSE_REP_CHUNK;
    const uint64_t i1 = i0 + SL_LSE_REP_CHUNK < J->n ? i0 + SL_LSE_REP_CHUNK : J->n;
    if (J->one) {
        float t[SL_LSE_REP_SUB];
        sl_sacc_state st;
        sl_sacc_state_init(&st, SL_F32);
        for (uint64_t i = i0; i < i1; i += SL_LSE_REP_SUB) {
            const uint64_t m = i1 - i < SL_LSE_REP_SUB ? i1 - i : SL_LSE_REP_SUB;
            for (uint64_t k = 0; k < m; k++)
                t[k] = sl_lse_rep1_termx((float)sl_tw_load(J->x, J->dt, i + k), sl_dtype_is_half(J->dt));
            lse_rep1_add(&st, t, m);
        }
        sl_sacc_state_save(&st, J->sacc + c * SL_SACC_SAVED_BYTES(SL_F32));
        return;
    }
    double t[SL_RSUM_GROUP];
    sl_rsum_thr_f64 a;
    sl_rsum_init_f64(&a);
    uint64_t i = i0;
    for (; i < i1; i += SL_RSUM_GROUP) {
        const uint64_t m = i1 - i < SL_RSUM_GROUP ? i1 - i : SL_RSUM_GROUP;
        for (uint64_t k = 0; k < m; k++)
            t[k] = J->dt == SL_F64 ? sl_lse_rep_term_d(sl_tw_load(J->x, J->dt, i + k), J->M)
                                   : sl_lse_rep_term_f((float)sl_tw_load(J->x, J->dt, i + k), (float)J->M);
        if (m == SL_RSUM_GROUP) sl_rsum_take_group_f64(&a, t);
        else
            for (uint64_t k = 0; k < m; k++) sl_rsum_take1_f64(&a, t[k]);
    }
    sl_rsum_to_state_f64(&a, &J->st[c]);
}

/* The float64 value of reproducible's result for x[0..n) (the kernel's last block computes the
 * same from the same state), before its rounding to the input format. */
static int lse_rep_value(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt, double *r,
                         sl_err *err)
{
    if (n >= SL_RSUM_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name,
                          (unsigned long long)n);
    /* float32 and 16-bit input: the one-pass form when its maximum (NaN if any value is) is in
     * its window; else, as float64 input, the exact maximum (NaN ignored) and the shifted terms */
    double M = -INFINITY;
    int one = 0;
    if (dt != SL_F64) {
        float Mn = -INFINITY;
        for (uint64_t i = 0; i < n; i++) Mn = sl_lse_maxnan_f(Mn, (float)sl_tw_load(x, dt, i));
        one = sl_lse_rep1_ok((double)Mn);
    }
    if (!one)
        for (uint64_t i = 0; i < n; i++) M = SL_LSE_MAX(M, sl_tw_load(x, dt, i));
    const size_t chunks = (size_t)((n + SL_LSE_REP_CHUNK - 1) / SL_LSE_REP_CHUNK);
    const size_t nb = chunks ? chunks : 1;
    sl_rsum_state *st = one ? NULL : malloc(nb * sizeof *st);
    unsigned char *sacc = one ? malloc(nb * SL_SACC_SAVED_BYTES(SL_F32)) : NULL;
    if (one ? !sacc : !st) return sl_err_set(err, "%s: out of memory", v->name);
    lse_rep_job job = {x, dt, n, M, one, st, sacc};
    if (chunks && sl_parallel_for(chunks, sl_twin_threads(), lse_rep_chunk, &job)) {
        free(st);
        free(sacc);
        return sl_err_set(err, "%s: a host thread could not be joined", v->name);
    }
    if (one) {   /* a maximum in the window: n >= 1 */
        for (size_t c = 1; c < chunks; c++) sl_sacc_saved_merge(sacc, sacc + c * SL_SACC_SAVED_BYTES(SL_F32), SL_F32);
        int64_t w[SL_SACC_LIMBS_F32 + 2];
        memcpy(w, sacc, sizeof w);
        free(sacc);
        *r = sl_lm_log(sl_sacc_round_f32_as_f64_regs(w, (unsigned)w[SL_SACC_LIMBS_F32] | SL_SACC_ANYPOS));
        return 0;
    }
    sl_rsum_state all;
    sl_rsum_state_zero(&all);
    for (size_t c = 0; c < chunks; c++) sl_rsum_state_merge(&all, &st[c]);
    free(st);
    *r = sl_lse_rep_final(M, sl_rsum_state_round_f64(&all, 0));
    return 0;
}

static int lse_rep_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;    /* the result depends on no launch configuration */
    double r = NAN;
    if (lse_rep_value(v, x, n, dt, &r, err)) return -1;
    *result = dt == SL_F64 ? r : sl_tw_out((double)(float)r, dt);
    return 0;
}

/* reproducible's bound model (ops.c's lse bound reads depth() as k): one exp per term (k = 1),
 * the binned sum's relative error n 2^-80 (3 folds of W = 40 bits, terms <= 1 <= S) and its one
 * rounding counted as further steps of u each (u of the accumulator format: 2^-24 for float32
 * and 16-bit input, whose exps are float32, 2^-53 for float64). */
static double lse_rep_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)cfg;
    const double u = sl_variant_acc(v, dt) == SL_F64 ? 0x1p-53 : 0x1p-24;
    return 2.0 + ceil((double)n * 0x1p-80 / u);
}

const sl_variant sl_v_lse_reproducible = {
    .name = "reproducible",
    .op = "lse", .family = "lse",
    .determinism = SL_DET_ORDER_INDEPENDENT,
    .description = "float32/16-bit input: one pass, the unshifted exp(x) (float32 exp; 16-bit "
                   "input: within 2^-17) summed "
                   "exactly (superacc's exponent bins and limbs) beside the maximum, log of the sum "
                   "rounded once to float64, for a maximum in [-30, 88]; otherwise, and for float64 "
                   "input, the exact max (a kernel), then exp(x - max) binned and max + log: "
                   "order-independent",
    .dtypes = SL_DTYPES_ALL,
    .bound = SL_BOUND_RECURSIVE,
    .impl = SL_LSE_REPRODUCIBLE,
    .resolve = lse_resolve,
    .depth = lse_rep_depth,
    .cpu = lse_rep_cpu,
    .workspace = SL_GPU_ENTRY(sl_lse_workspace),
    .gpu = SL_GPU_ENTRY(sl_lse_gpu),
};

SL_LSE_VARIANT(lse_accurate, "accurate", SL_LSE_ACCURATE, SL_DTYPES_ALL, 1, SL_BOUND_COMPENSATED,
               "float32/16-bit input: one pass summing exp(x) in float64 (float32: a table "
               "exponential, relative error < 2^-44; 16-bit: within 2^-17) beside the maximum, "
               "then log(sum) +- its rigorous error "
               "bound, correctly rounded when both ends round alike; otherwise, and for float64 "
               "input, online in double-double: each exp(x - max) of the exact difference within "
               "2^-74 (FMA-based TwoProducts), the sum a pair, the log refined by a Newton step "
               "(float64: correctly rounded unless lse lies within its error, about 2^-74 a step "
               "of the longest chain, of a rounding boundary or of 0; float32 and 16-bit: within "
               "1 ulp)")

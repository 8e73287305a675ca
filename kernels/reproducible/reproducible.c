/* reproducible.c: descriptor, resolve() and CPU twin of the `reproducible` variant (determinism
 * class order-independent): 3-fold binned summation with per-thread index adaptation and an
 * exact integer state (exact/binned.h), rounded once. The result is a function of the multiset of
 * inputs alone, so the twin may take the inputs in any order: it takes them in index order in
 * one accumulator and equals the kernel (reproducible.cu) bit for bit for every launch
 * configuration. Assumptions: IEEE 754 binary32/binary64, FLT_EVAL_METHOD 0 (x86-64 SSE2),
 * -ffp-contract=off; two's-complement int64_t. */
#include "sl_variant_impl.h"
#include "reproducible/reproducible.h"
#include "sl_twin.h"

#define RSUM_BLOCK 256u
#define RSUM_BLOCK_F32 512u     /* float32: 512 threads x 2 blocks per SM (faster than 256 x 4
                                 * on the four families measured: BENCHMARKS.md) */
#define RSUM_BLOCKS_PER_SM 4u   /* 64 registers a thread (ptxas, sm_90): 1024 resident threads an SM */
#define RSUM_HALF_WIDE_N ((uint64_t)1 << 23)   /* 16-bit input: 4 vectors a thread from here
                                                * (about two tiles a block): BENCHMARKS.md */
#define RSUM_VECS 4u          /* 16-byte vectors a thread loads per tile (16 floats, 8 doubles,
                               * 32 float16/bfloat16: exact/binned_kernel.cuh's rs_fmt) */

/* The twin's accumulation: four accumulators take groups of SL_RSUM_GROUP inputs in turn (as
 * four of the kernel's threads would, through the kernel's group path: one capacity check, then
 * straight-line deposits), the rest one by one; their states merged exactly. The same state as
 * one accumulator's (the binned sum is a function of the multiset of inputs), without one
 * accumulator's chain of dependent adds and its per-input checks. */
#define RSUM_SPAN (4 * SL_RSUM_GROUP)
#define RSUM_TAKE(SUF, T, LOAD)                                                               \
    do {                                                                                      \
        sl_rsum_thr_##SUF a0, a1, a2, a3;                                                     \
        sl_rsum_init_##SUF(&a0); sl_rsum_init_##SUF(&a1);                                     \
        sl_rsum_init_##SUF(&a2); sl_rsum_init_##SUF(&a3);                                     \
        uint64_t i = 0;                                                                       \
        for (; i + RSUM_SPAN <= n; i += RSUM_SPAN) {                                          \
            T v[RSUM_SPAN];                                                                   \
            for (int k = 0; k < RSUM_SPAN; k++) v[k] = LOAD(i + (uint64_t)k);                 \
            sl_rsum_take_group_##SUF(&a0, v);                                                 \
            sl_rsum_take_group_##SUF(&a1, v + SL_RSUM_GROUP);                                 \
            sl_rsum_take_group_##SUF(&a2, v + 2 * SL_RSUM_GROUP);                             \
            sl_rsum_take_group_##SUF(&a3, v + 3 * SL_RSUM_GROUP);                             \
        }                                                                                     \
        for (; i < n; i++) sl_rsum_take1_##SUF(&a0, LOAD(i));                                 \
        const sl_rsum_thr_##SUF *all[4] = {&a0, &a1, &a2, &a3};                               \
        for (int w = 0; w < 4; w++) {                                                         \
            sl_rsum_state part;                                                               \
            sl_rsum_to_state_##SUF(all[w], &part);                                            \
            sl_rsum_state_merge(st, &part);                                                   \
        }                                                                                     \
    } while (0)

int sl_rsum_add(sl_rsum_state *st, const void *x, uint64_t n, sl_dtype dt)
{
    if (n >= SL_RSUM_MAX_N) return -1;
    if (dt == SL_F64) {
        const double *d = (const double *)x;
#define LOAD_D(k) d[k]
        RSUM_TAKE(f64, double, LOAD_D);
#undef LOAD_D
    } else if (sl_dtype_is_half(dt)) {      /* widened to float32 (exact), float32 folds */
        const uint16_t *h = (const uint16_t *)x;
#define LOAD_H(k) sl_tw_half_to_float(h[k], dt)
        RSUM_TAKE(f32, float, LOAD_H);
#undef LOAD_H
    } else {
        const float *f = (const float *)x;
#define LOAD_F(k) f[k]
        RSUM_TAKE(f32, float, LOAD_F);
#undef LOAD_F
    }
    return 0;
}

double sl_rsum_sum(const void *x, uint64_t n, sl_dtype dt)
{
    sl_rsum_state st;
    sl_rsum_state_zero(&st);
    if (n == 0) return 0.0;
    sl_rsum_add(&st, x, n, dt);
    return sl_dtype_is_half(dt) ? sl_rsum_state_round_half(&st, dt) : sl_rsum_state_round(&st, dt);
}

static void rsum_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v;
    if (cfg->sm_count == 0) cfg->sm_count = SL_DEFAULT_SM_COUNT;
    if (cfg->block == 0) cfg->block = dt == SL_F32 ? RSUM_BLOCK_F32 : RSUM_BLOCK;
    else cfg->block = (cfg->block + 31u) / 32u * 32u;        /* whole warps */
    if (cfg->block > 1024u) cfg->block = 1024u;
    /* elements per thread per tile; 16-bit input: 16 (2 vectors) below RSUM_HALF_WIDE_N or
     * when asked for (--items 16), else 32 (4 vectors; reproducible.cu picks the kernel) */
    if (sl_dtype_is_half(dt))
        cfg->items = cfg->items == 16u || (cfg->items != 32u && n < RSUM_HALF_WIDE_N) ? 16u : 32u;
    else
        cfg->items = RSUM_VECS * (16u / (unsigned)sl_dtype_size(dt));
    if (cfg->grid == 0) {
        /* a persistent grid, fewer blocks when there is little to do */
        uint64_t per_block = (uint64_t)cfg->block * cfg->items;
        uint64_t want = (n + per_block - 1) / per_block;
        uint64_t cap = (uint64_t)cfg->sm_count * (RSUM_BLOCKS_PER_SM * RSUM_BLOCK / cfg->block);
        if (cap == 0) cap = cfg->sm_count;
        cfg->grid = (uint32_t)(want < 1 ? 1 : want > cap ? cap : want);
    }
}

/* The binned bound's K (sl_variants.h: SL_BOUND_BINNED reads depth() as the folds). */
static double rsum_folds(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt; (void)cfg;
    return (double)SL_RSUM_K;
}

static int rsum_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                    const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;    /* the sum depends on no launch configuration */
    if (n >= SL_RSUM_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name,
                          (unsigned long long)n);
    *result = sl_rsum_sum(x, n, dt);
    return 0;
}

const sl_variant sl_v_reproducible = {
    .name = "reproducible", .op = "sum", .family = "reproducible", .determinism = SL_DET_ORDER_INDEPENDENT,
    .description = "binned summation, 3 folds (ReproBLAS/RFA style: float bins W=13 for f32, "
                   "f16 and bf16 (widened), double bins W=40 for f64), per-thread index "
                   "adaptation, exact integer state rounded once: order-independent",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_BINNED,
    .resolve = rsum_resolve, .depth = rsum_folds, .cpu = rsum_cpu,
    .workspace = SL_GPU_ENTRY(sl_reproducible_workspace), .gpu = SL_GPU_ENTRY(sl_reproducible_gpu),
};

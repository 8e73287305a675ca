/* ladder2.c: descriptors, CPU twins, resolve() and depth() of the second source text's ladder
 * (seeds/004, the PyTorch/OneFlow article: v0 .. v6, OneFlow's v8 Packed, PyTorch's
 * BlockReduceSum); kernels in ladder2.cu. Its v0, v2, v3 are ladder.c's smem-interleaved,
 * smem-sequential, two-load. Determinism: run-to-run for every rung (twin == GPU bit for bit
 * for the same resolved cfg; one launch, fixed-order finish).
 *
 * Floating-point assumptions: as ladder.c (IEEE binary32/binary64, round to nearest even, no
 * contraction, no fast-math, FLT_EVAL_METHOD 0; binary32 adds as sl_tw_add; padding +0).
 * Bit-for-bit agreements by construction (asserted in tests/tladder.c), same n and cfg:
 *   smem-strided == smem-interleaved (the same tree: index 2 s t visits the pairs t % 2s == 0);
 *   warp-unrolled == full-unroll == two-load == multi-load with items 2 (the same per-thread
 *     sum +0 + x[i] + x[i+B] and the sequential tree, unrolled three ways);
 *   block-reduce == grid-stride when both run one block (thread t adds x[t], x[t+B], ...);
 *   block-reduce's block primitive adds as sl_block_sum (twin sl_tw_block_sum). */
#include <stdlib.h>
#include "ladder/ladder2.h"
#include "sl_twin.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint32_t clamp_grid(uint64_t g)
{
    if (g < 1) return 1;
    return g > SL_LADDER_MAX_GRID ? SL_LADDER_MAX_GRID : (uint32_t)g;
}

/* Elements per thread of a tile rung (req: the requested items, 0 for the default); 1 for
 * packed and block-reduce (they have no per-thread count). */
static uint32_t rung_items(sl_rung2 r, uint32_t req)
{
    if (r == SL_RUNG2_WARP_UNROLLED || r == SL_RUNG2_FULL_UNROLL) return 2u;
    if (r == SL_RUNG2_MULTI_LOAD)
        return req == 0 ? SL_LADDER2_MULTI_ITEMS : req > SL_LADDER2_MAX_ITEMS ? SL_LADDER2_MAX_ITEMS
                                                                               : req;
    return 1u;
}

static int is_tile(sl_rung2 r) { return r != SL_RUNG2_PACKED && r != SL_RUNG2_BLOCK_REDUCE; }

void sl_ladder2_resolve(const sl_variant *v, sl_launch *c, uint64_t n, sl_dtype dt)
{
    const sl_rung2 r = (sl_rung2)v->impl;
    if (c->sm_count == 0) c->sm_count = SL_DEFAULT_SM_COUNT;
    c->block = sl_tw_pow2_block(c->block,
                                r == SL_RUNG2_PACKED ? SL_LADDER2_PACKED_BLOCK : SL_LADDER_BLOCK);
    c->items = rung_items(r, c->items);
    const uint64_t B = c->block;
    if (r == SL_RUNG2_PACKED) { /* OneFlow GetNumBlocks, counted in packs */
        uint64_t head, nv;
        sl_vec_split(n, dt, c->addr_mod, &head, &nv);
        uint64_t need = ceil_div(nv, B);
        uint64_t want = c->grid ? c->grid
                                : (uint64_t)c->sm_count * SL_LADDER2_THREADS_SM / B *
                                      SL_LADDER2_PACKED_WAVES;
        c->grid = clamp_grid(want < need ? want : need);
        return;
    }
    uint64_t need = ceil_div(n, B * c->items);
    if (r == SL_RUNG2_BLOCK_REDUCE) {
        uint64_t per_sm = SL_LADDER2_THREADS_SM / B;
        uint64_t want = c->grid ? c->grid : (uint64_t)c->sm_count * (per_sm ? per_sm : 1u);
        c->grid = clamp_grid(want < need ? want : need);
        return;
    }
    c->grid = clamp_grid(need);
}

int sl_ladder2_check(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *c,
                     sl_err *err)
{
    const sl_rung2 r = (sl_rung2)v->impl;
    const char *nm = v->name;
    uint32_t b = c->block;
    if (r < SL_RUNG2_SMEM_STRIDED || r > SL_RUNG2_BLOCK_REDUCE)
        return sl_err_set(err, "%s: not a rung of ladder2 (impl %d)", nm, v->impl);
    if (b < 32 || b > 1024 || (b & (b - 1)))
        return sl_err_set(err, "%s: block %u is not a power of two in [32, 1024]", nm, b);
    if (c->grid < 1 || c->grid > SL_LADDER_MAX_GRID)
        return sl_err_set(err, "%s: grid %u out of range [1, 2^31-1]", nm, c->grid);
    if (n >= ((uint64_t)1 << 40))
        return sl_err_set(err, "%s: n = %llu too large (at most 2^40 - 1)", nm,
                          (unsigned long long)n);
    if (c->accs > 1)
        return sl_err_set(err, "%s: takes no accumulators per thread (requested %u)", nm, c->accs);
    if (c->items != rung_items(r, c->items))
        return sl_err_set(err, "%s: items %u (this rung uses %u)", nm, c->items,
                          rung_items(r, c->items));
    if (r == SL_RUNG2_PACKED && c->addr_mod % sl_dtype_size(dt))
        return sl_err_set(err, "%s: addr_mod %u is not a multiple of the %s element size", nm,
                          c->addr_mod, sl_dtype_name(dt));
    if (is_tile(r) && (uint64_t)c->grid * b * c->items < n)
        return sl_err_set(err, "%s: n = %llu needs more than 2^31-1 blocks of %u x %u", nm,
                          (unsigned long long)n, b, c->items);
    return 0;
}

/* A private copy of cfg, resolved (idempotent on a resolved one) and checked; the partials
 * array of its grid. */
static double *prep(const sl_variant *v, const sl_launch *cfg, uint64_t n, sl_dtype dt,
                    sl_launch *c, sl_err *err)
{
    *c = *cfg;
    sl_ladder2_resolve(v, c, n, dt);
    if (sl_ladder2_check(v, n, dt, c, err)) return NULL;
    double *p = malloc((size_t)c->grid * sizeof *p);
    if (!p)
        sl_err_set(err, "%s: out of memory for %u partials in the CPU twin", v->name, c->grid);
    return p;
}

/* Fixed-order finish over the block partials (sl_device_finish), then free them. */
static void finish(double *partials, const sl_launch *c, sl_dtype dt, double *result)
{
    *result = sl_tw_out(sl_tw_finish(partials, c->grid, c->block, sl_dtype_acc(dt)), dt);
    free(partials);
}

/* ========================== tile rungs: v1, v4, v5, v6 =====================================
 * Block b covers [bBK, (b+1)BK) with K = items; thread t, i = bBK + t:
 * v1 smem-strided (K = 1): s[t] = x[i] if i < n, else +0 (as smem-interleaved); the strided
 *   tree: for s = 1, 2, .. < B: index = 2 s t, s[index] = s[index] + s[index+s] when index < B,
 *   the pairs of the interleaved tree (sl_tw_tree_interleaved) in the same levels.
 * v4 warp-unrolled, v5 full-unroll (K = 2), v6 multi-load (K): a = +0; a = a + x[i + jB] for
 *   j = 0, 1, .. < K while i + jB < n; s[t] = a; the sequential tree, strides B/2 .. 1
 *   (sl_tw_tree_sequential): v4 runs strides > 32 in a loop and 32 .. 1 in the unrolled last
 *   warp, v5/v6 unroll strides 512 .. 32 over shared memory and do 16 .. 1 by shuffles; a lane
 *   adds exactly the tree's pairs in the tree's order either way.
 * The partial is the tree's root; the fixed-order finish. */
SL_TW_INLINE int tile_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                          sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    const sl_rung2 r = (sl_rung2)v->impl;
    sl_launch c;
    double *partials = prep(v, cfg, n, dt, &c, err);
    if (!partials) return -1;
    const uint64_t B = c.block, K = c.items;
    double s[1024];
    for (uint64_t b = 0; b < c.grid; b++) {
        for (uint64_t t = 0; t < B; t++) {
            const uint64_t i = b * B * K + t;
            if (r == SL_RUNG2_SMEM_STRIDED) {
                s[t] = i < n ? sl_tw_load(x, dt, i) : 0.0;
                continue;
            }
            s[t] = sl_tw_chain(0.0, x, dt, af, i, B, n, K);
        }
        partials[b] = r == SL_RUNG2_SMEM_STRIDED ? sl_tw_tree_interleaved(s, c.block, af)
                                                  : sl_tw_tree_sequential(s, c.block, af);
    }
    finish(partials, &c, dt, result);
    return 0;
}
SL_TW_ENTRY(tile)

/* Per-thread adds (K, the first onto +0; none for smem-strided), the tree's log2(B) levels, the
 * finish. */
static double tile_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder2_resolve(v, &c, n, dt);
    const double per_thread = v->impl == SL_RUNG2_SMEM_STRIDED ? 0.0 : (double)c.items;
    return per_thread + (double)sl_tw_ceil_log2(c.block) + sl_tw_depth_finish(c.grid, c.block);
}

/* ========================== v8 packed (OneFlow) ==============================================
 * Split (sl_vec_split, from addr_mod): head h scalars, nv packs of W = 16 / size elements
 * (float4 / double2) from x + h, tail scalars from tail0 = h + W nv. Thread g = bB + t of the
 * G-block grid: lanes l[0..W) = +0; l[0] = l[0] + x[g] if g < h; l[0] = l[0] + x[tail0 + g] if
 * tail0 + g < n; for p = g; p < nv; p += BG: l[k] = l[k] + x[h + pW + k] for every k
 * (Packed::operator+=); PackReduce: r = +0, r = r + l[k] for k = 0 .. W-1. Shuffle block sum of
 * r (sl_block_sum); fixed-order finish. */
SL_TW_INLINE int packed_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                            sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    sl_launch c;
    double *partials = prep(v, cfg, n, dt, &c, err);
    if (!partials) return -1;
    const uint64_t B = c.block, S = B * c.grid, W = sl_vec_width(dt);
    uint64_t head, nv;
    sl_vec_split(n, dt, c.addr_mod, &head, &nv);
    const uint64_t tail0 = head + nv * W;
    double vals[1024], l[8];   /* W <= 8 (16-bit input) */
    for (uint64_t b = 0; b < c.grid; b++) {
        for (uint64_t t = 0; t < B; t++) {
            const uint64_t g = b * B + t;
            for (int k = 0; k < 8; k++) l[k] = 0.0; /* W <= 8; a fixed count: no memset call */
            if (g < head) l[0] = sl_tw_add(l[0], sl_tw_load(x, dt, g), af);
            if (tail0 + g < n) l[0] = sl_tw_add(l[0], sl_tw_load(x, dt, tail0 + g), af);
            for (uint64_t p = g; p < nv; p += S)
                for (uint64_t k = 0; k < W; k++)
                    l[k] = sl_tw_add(l[k], sl_tw_load(x, dt, head + p * W + k), af);
            double r = 0.0;
            for (uint64_t k = 0; k < W; k++) r = sl_tw_add(r, l[k], af);
            vals[t] = r;
        }
        partials[b] = sl_tw_block_sum(vals, c.block, af);
    }
    finish(partials, &c, dt, result);
    return 0;
}
SL_TW_ENTRY(packed)

/* Lane 0's chain: head, tail, one add per grid-stride step, the W adds of PackReduce; then
 * the block sum and the finish. */
static double packed_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder2_resolve(v, &c, n, dt);
    uint64_t head, nv;
    sl_vec_split(n, dt, c.addr_mod, &head, &nv);
    const uint64_t steps = ceil_div(nv, (uint64_t)c.block * c.grid);
    return 2.0 + (double)steps + (double)sl_vec_width(dt) + sl_tw_depth_block_sum(c.block) +
           sl_tw_depth_finish(c.grid, c.block);
}

/* ========================== block-reduce (PyTorch BlockReduceSum) ===========================
 * Thread g = bB + t of the G-block grid: a = +0; a = a + x[i] for i = g, g + BG, g + 2BG, ..
 * < n. BlockReduceSum: WarpReduceSum (offsets 16 .. 1), one slot per warp, warp 0 reduces the
 * slots (missing warps +0): the adds of sl_block_sum (sl_tw_block_sum). Fixed-order finish. */
SL_TW_INLINE int block_reduce_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                                  sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    sl_launch c;
    double *partials = prep(v, cfg, n, dt, &c, err);
    if (!partials) return -1;
    const uint64_t B = c.block, S = B * c.grid;
    double vals[1024];
    for (uint64_t b = 0; b < c.grid; b++) {
        for (uint64_t t = 0; t < B; t++) {
            const uint64_t i = b * B + t; /* i, i + S, .. < n */
            vals[t] = sl_tw_chain(0.0, x, dt, af, i, S, n, UINT64_MAX);
        }
        partials[b] = sl_tw_block_sum(vals, c.block, af);
    }
    finish(partials, &c, dt, result);
    return 0;
}
SL_TW_ENTRY(block_reduce)

static double block_reduce_depth(const sl_variant *v, uint64_t n, sl_dtype dt,
                                 const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder2_resolve(v, &c, n, dt);
    const uint64_t steps = ceil_div(n, (uint64_t)c.block * c.grid);
    return (double)steps + sl_tw_depth_block_sum(c.block) + sl_tw_depth_finish(c.grid, c.block);
}

/* ========================== descriptors =====================================================
 * Family "ladder" (tests and listings take the two texts' rungs together); resolve, check and
 * GPU entry of this file pair; accumulation in the input format, Higham's recursive bound for
 * the rung's depth. */
#define LADDER2_COMMON                                                                      \
    .op = "sum", .family = "ladder", .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,              \
    .determinism = SL_DET_RUN_TO_RUN, .resolve = sl_ladder2_resolve,                        \
    .workspace = SL_GPU_ENTRY(sl_ladder2_workspace), .gpu = SL_GPU_ENTRY(sl_ladder2_gpu)

const sl_variant sl_v_smem_strided = {
    .name = "smem-strided", LADDER2_COMMON, .impl = SL_RUNG2_SMEM_STRIDED,
    .description = "text 2 v1: interleaved shared-memory tree without the modulo (index = "
                   "2*s*tid; bank conflicts remain); same bits as smem-interleaved",
    .depth = tile_depth, .cpu = tile_cpu,
};
const sl_variant sl_v_warp_unrolled = {
    .name = "warp-unrolled", LADDER2_COMMON, .impl = SL_RUNG2_WARP_UNROLLED,
    .description = "text 2 v4: two loads per thread, sequential tree to 64, last warp unrolled "
                   "over shared memory with __syncwarp; same bits as two-load",
    .depth = tile_depth, .cpu = tile_cpu,
};
const sl_variant sl_v_full_unroll = {
    .name = "full-unroll", LADDER2_COMMON, .impl = SL_RUNG2_FULL_UNROLL,
    .description = "text 2 v5: block size a template parameter, every tree level unrolled, the "
                   "last warp by shuffles; same bits as two-load",
    .depth = tile_depth, .cpu = tile_cpu,
};
const sl_variant sl_v_multi_load = {
    .name = "multi-load", LADDER2_COMMON, .impl = SL_RUNG2_MULTI_LOAD,
    .description = "text 2 v6: each thread first sums items (default 8) elements strided by the "
                   "block, then v5's unrolled reduction",
    .depth = tile_depth, .cpu = tile_cpu,
};
const sl_variant sl_v_packed = {
    .name = "packed", LADDER2_COMMON, .impl = SL_RUNG2_PACKED,
    .description = "text 2 v8: OneFlow Packed<T,16/sizeof T> grid-stride loads into per-lane "
                   "accumulators, PackReduce, block shuffle sum; GetNumBlocks grid (32 waves)",
    .depth = packed_depth, .cpu = packed_cpu,
};
const sl_variant sl_v_block_reduce = {
    .name = "block-reduce", LADDER2_COMMON, .impl = SL_RUNG2_BLOCK_REDUCE,
    .description = "text 2: PyTorch BlockReduceSum (warp shuffles, a slot per warp, two "
                   "barriers) in a one-load grid-stride kernel",
    .depth = block_reduce_depth, .cpu = block_reduce_cpu,
};

/* ladder.c: descriptors, CPU twins, resolve() and depth() of the optimisation ladder V0-V6
 * (atomic-thread .. vec4; kernels in ladder.cu). Determinism: atomic-thread nondeterministic
 * (the twin samples a commit order from cfg->order_seed); V1-V6 run-to-run (twin == GPU bit
 * for bit for the same resolved cfg).
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, no contraction,
 * no fast-math, FLT_EVAL_METHOD 0 (x86-64 SSE2). Accumulation is in the input format (float16 /
 * bfloat16 input: float32, the result rounded once to the input format; half-acc: the 16-bit
 * format, each add rounded to it, sl_tw_add); a binary32 add is performed as (float)(a + b) on doubles holding floats (sl_tw_add), which
 * is the binary32 add bit for bit. Zero padding is +0, as on the GPU (so -0 inputs may turn
 * into +0 exactly where the kernel's 0 + x does).
 * The per-rung order-of-operations model is written above each twin and mirrors ladder.cu. */
#include <stdlib.h>
#include "ladder/ladder.h"
#include "sl_twin.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* Elements per thread per tile for the one-tile-per-block rungs V0-V4 (and V5's step). */
static uint32_t rung_items(sl_rung r)
{
    return (r == SL_RUNG_TWO_LOAD || r == SL_RUNG_WARP_SHUFFLE || r == SL_RUNG_GRID_STRIDE) ? 2u
                                                                                           : 1u;
}

static uint32_t clamp_grid(uint64_t g)
{
    if (g < 1) return 1;
    return g > SL_LADDER_MAX_GRID ? SL_LADDER_MAX_GRID : (uint32_t)g;
}

/* Blocks a persistent grid (V5, V6) aims at: sm_count * max(1, threads_per_sm / block). */
static uint64_t persistent_grid(const sl_launch *c, uint32_t threads_per_sm)
{
    uint32_t per_sm = threads_per_sm / c->block;
    return (uint64_t)c->sm_count * (per_sm ? per_sm : 1u);
}

/* Common resolve: block, items, grid of rung r (fills zero fields; rungs V0-V4 always get the
 * grid that covers n with one tile per block; V5/V6 cap any grid at the blocks needed, so
 * small n gets fewer blocks, each with real work). Idempotent. */
static void resolve_rung(sl_rung r, sl_launch *c, uint64_t n, sl_dtype dt)
{
    if (c->sm_count == 0) c->sm_count = SL_DEFAULT_SM_COUNT;
    if (r == SL_RUNG_VEC4) {
        uint64_t head, nv;
        sl_vec_split(n, dt, c->addr_mod, &head, &nv);
        uint32_t dblock, ditems, per_sm;
        if (nv <= SL_LADDER_VEC_ONE_BLOCK) {
            dblock = 128;
            while (dblock < nv && dblock < 1024) dblock *= 2;
            ditems = 1;
            while ((uint64_t)ditems * dblock < nv && ditems < 4) ditems *= 2;
            per_sm = 0; /* one block */
        } else if (nv < SL_LADDER_VEC_BIG) {
            dblock = SL_LADDER_VEC_BLOCK_MID;
            ditems = SL_LADDER_VEC_ITEMS_MID;
            per_sm = SL_LADDER_VEC_THREADS_SM_MID;
        } else {
            dblock = SL_LADDER_VEC_BLOCK_BIG;
            ditems = SL_LADDER_VEC_ITEMS_BIG;
            per_sm = SL_LADDER_VEC_THREADS_SM_BIG;
        }
        /* the defaults follow the size in bytes (16-byte vectors); a requested width changes
         * only the loads (and so the grid that covers them) */
        c->block = sl_tw_pow2_block(c->block, dblock);
        uint32_t a = c->items ? c->items : ditems;
        if (!c->items && c->accs > a) a = c->accs; /* room for the requested accumulators */
        uint32_t p = 1;
        while (p < a && p < 8) p *= 2;
        c->items = p;
        if (c->accs == 0) c->accs = c->items;
        if (c->width == 0) c->width = 16;
        sl_ladder_vec_split(n, dt, c->addr_mod, c->width, &head, &nv);
        uint64_t need = ceil_div(nv, (uint64_t)c->items * c->block);
        uint64_t want = c->grid ? c->grid : per_sm ? persistent_grid(c, per_sm) : 1;
        c->grid = clamp_grid(want < need ? want : need);
        return;
    }
    c->block = sl_tw_pow2_block(c->block, SL_LADDER_BLOCK);
    c->items = rung_items(r);
    if (r == SL_RUNG_GRID_STRIDE && c->accs == 0) c->accs = 1;
    uint64_t need = ceil_div(n, (uint64_t)c->items * c->block);
    if (r == SL_RUNG_GRID_STRIDE) {
        uint64_t want = c->grid ? c->grid : persistent_grid(c, SL_LADDER_GS_THREADS_SM);
        c->grid = clamp_grid(want < need ? want : need);
        return;
    }
    c->grid = clamp_grid(need);
}

void sl_ladder_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    resolve_rung((sl_rung)v->impl, cfg, n, dt);
}

int sl_ladder_check(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *c,
                    sl_err *err)
{
    const sl_rung r = (sl_rung)v->impl;
    const char *nm = v->name;
    uint32_t b = c->block;
    if (b < 32 || b > 1024 || (b & (b - 1)))
        return sl_err_set(err, "%s: block %u is not a power of two in [32, 1024]", nm, b);
    if (c->grid < 1 || c->grid > SL_LADDER_MAX_GRID)
        return sl_err_set(err, "%s: grid %u out of range [1, 2^31-1]", nm, c->grid);
    if (n >= ((uint64_t)1 << 40))
        return sl_err_set(err, "%s: n = %llu too large (at most 2^40-1)", nm,
                          (unsigned long long)n);
    if (r == SL_RUNG_GRID_STRIDE && c->accs != 1 && c->accs != 2 && c->accs != 4 && c->accs != 8)
        return sl_err_set(err, "%s: accumulators %u not in {1, 2, 4, 8}", nm, c->accs);
    if (r != SL_RUNG_GRID_STRIDE && r != SL_RUNG_VEC4 && c->accs > 1)
        return sl_err_set(err, "%s: takes no accumulators per thread (requested %u)", nm, c->accs);
    if (r != SL_RUNG_VEC4 && c->width)
        return sl_err_set(err, "%s: takes no load width (requested %u bytes)", nm, c->width);
    if (r == SL_RUNG_VEC4) {
        uint32_t a = c->items;
        if (a != 1 && a != 2 && a != 4 && a != 8)
            return sl_err_set(err, "%s: items %u not in {1, 2, 4, 8}", nm, a);
        if (c->accs != 1 && c->accs != 2 && c->accs != 4 && c->accs != 8)
            return sl_err_set(err, "%s: accumulators %u not in {1, 2, 4, 8}", nm, c->accs);
        if (c->accs > a)
            return sl_err_set(err, "%s: accumulators %u more than its items %u (vectors a step)", nm,
                              c->accs, a);
        const uint32_t es = (uint32_t)sl_dtype_size(dt), w = sl_ladder_vec_bytes(c);
        if (w != 16 && w != 8 && w != es)
            return sl_err_set(err, "%s: load width %u bytes is not the %s element size, 8 or 16", nm,
                              w, sl_dtype_name(dt));
        if (v->acc_input && (w != 16 || c->accs != a))
            return sl_err_set(err, "%s: takes only 16-byte loads and one accumulator per item", nm);
        if (c->addr_mod % sl_dtype_size(dt))
            return sl_err_set(err, "%s: addr_mod %u is not a multiple of the %s element size", nm,
                              c->addr_mod, sl_dtype_name(dt));
        return 0;
    }
    if (c->items != rung_items(r))
        return sl_err_set(err, "%s: items %u (this rung uses %u)", nm, c->items, rung_items(r));
    if (r != SL_RUNG_GRID_STRIDE && (uint64_t)c->grid * c->block * c->items < n)
        return sl_err_set(err, "%s: n = %llu needs more than 2^31-1 blocks of %u threads", nm,
                          (unsigned long long)n, b);
    return 0;
}

#ifndef SUMLAB_HAVE_CUDA
/* Without CUDA there is no kernel to ask (ladder.cu defines these otherwise). */
int sl_ladder_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                           sl_kernel_attrs *out, sl_err *err)
{
    (void)n; (void)dt; (void)cfg; (void)out;
    return sl_err_set(err, "%s: no kernel attributes: sumlab was built without CUDA", v->name);
}
int sl_ladder2_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                            sl_kernel_attrs *out, sl_err *err)
{
    return sl_ladder_kernel_attrs(v, n, dt, cfg, out, err);
}
#endif

/* A private copy of cfg, resolved (idempotent on a resolved one) and checked. */
static int prep(const sl_variant *v, const sl_launch *cfg, uint64_t n, sl_dtype dt,
                sl_launch *c, sl_err *err)
{
    *c = *cfg;
    sl_ladder_resolve(v, c, n, dt);
    return sl_ladder_check(v, n, dt, c, err);
}

static double *alloc_doubles(uint64_t count, const sl_variant *v, sl_err *err)
{
    double *p = NULL;
    if (count <= SIZE_MAX / sizeof(double)) p = malloc((size_t)(count ? count : 1) * sizeof *p);
    if (!p)
        sl_err_set(err, "%s: out of memory for %llu doubles in the CPU twin", v->name,
                   (unsigned long long)count);
    return p;
}

/* Fixed-order finish over the block partials in acc, the result rounded once to the input
 * format dt (16-bit input), then free them. */
static void finish(double *partials, const sl_launch *c, sl_dtype acc, sl_dtype dt, double *result)
{
    *result = sl_tw_out(sl_tw_finish(partials, c->grid, c->block, acc), dt);
    free(partials);
}

/* ========================== V0 atomic-thread ===============================================
 * GPU: result = +0 (memset); thread i of the grid does atomicAdd(result, x[i]); the order of
 * the n commits is the hardware's. Twin model: the grid's blocks commit one after another in
 * a seeded random order (Fisher-Yates over the block ids, draws sl_hash64(order_seed, j)),
 * the elements of a block in index order: r = fl(r + x[i]). Memory O(grid). */
SL_TW_INLINE int atomic_thread_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                                   sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    sl_launch c;
    if (prep(v, cfg, n, dt, &c, err)) return -1;
    *result = 0.0;
    if (n == 0) return 0;
    uint64_t G = c.grid, B = c.block;
    uint32_t *perm = sl_tw_shuffle(G, c.order_seed);
    if (!perm)
        return sl_err_set(err, "%s: out of memory for %llu block ids in the CPU twin", v->name,
                          (unsigned long long)G);
    /* the float32 atomicAdd flushes subnormals: see sl_tw_atomic_add */
    double r = 0.0;
    float rf = 0.0f; /* float32 atomics in float (r flushed already, so only x[i] is) */
    const int in_float = af == SL_F32 && dt != SL_F64 && !sl_tw_generic();
    for (uint64_t j = 0; j < G; j++) {
        uint64_t lo = (uint64_t)perm[j] * B, hi = lo + B < n ? lo + B : n;
        if (in_float)
            for (uint64_t i = lo; i < hi; i++) rf = sl_tw_ftz_f(rf + sl_tw_ftz_f(sl_tw_load_f(x, dt, i)));
        else
            for (uint64_t i = lo; i < hi; i++) r = sl_tw_atomic_add(r, sl_tw_load(x, dt, i), af);
    }
    free(perm);
    *result = sl_tw_out(in_float ? (double)rf : r, dt);
    return 0;
}
SL_TW_ENTRY(atomic_thread)

/* ========================== V1 smem-interleaved / V2 smem-sequential =======================
 * Block b, thread t: s[t] = (b*B + t < n) ? x[b*B + t] : +0. V1 tree: for stride = 1, 2, ..
 * < B: s[t] = s[t] + s[t+stride] when t % (2 stride) == 0. V2 tree: for stride = B/2 .. 1:
 * s[t] = s[t] + s[t+stride] when t < stride. Partial = s[0]; then the fixed-order finish. */
SL_TW_INLINE int smem_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                          sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    const sl_rung r = (sl_rung)v->impl;
    sl_launch c;
    if (prep(v, cfg, n, dt, &c, err)) return -1;
    double *partials = alloc_doubles(c.grid, v, err);
    if (!partials) return -1;
    uint64_t B = c.block, per = B * c.items;
    double s[1024];
    for (uint64_t b = 0; b < c.grid; b++) {
        uint64_t base = b * per;
        for (uint64_t t = 0; t < B; t++) {
            uint64_t i = base + t;
            if (r == SL_RUNG_TWO_LOAD) /* V3: v = +0; v += x[i]; v += x[i + B] (each < n) */
                s[t] = sl_tw_chain(0.0, x, dt, af, i, B, n, 2);
            else
                s[t] = i < n ? sl_tw_load(x, dt, i) : 0.0;
        }
        partials[b] = r == SL_RUNG_SMEM_INTERLEAVED ? sl_tw_tree_interleaved(s, c.block, af)
                                                     : sl_tw_tree_sequential(s, c.block, af);
    }
    finish(partials, &c, af, dt, result);
    return 0;
}
SL_TW_ENTRY(smem)

static double smem_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    const sl_rung r = (sl_rung)v->impl;
    sl_launch c = *cfg;
    sl_ladder_resolve(v, &c, n, dt);
    double per_thread = r == SL_RUNG_TWO_LOAD ? 2.0 : 0.0;
    return per_thread + (double)sl_tw_ceil_log2(c.block) + sl_tw_depth_finish(c.grid, c.block);
}

/* ========================== V3 two-load =====================================================
 * Block b covers [2Bb, 2B(b+1)); thread t: v = +0; if i < n: v = v + x[i]; if i+B < n:
 * v = v + x[i+B] (i = 2Bb + t); s[t] = v; V2's sequential tree; the fixed-order finish. */
/* ========================== V4 warp-shuffle =================================================
 * Per-thread value as V3 (v = +0 + x[i] + x[i+B], each guarded); block sum by shuffles
 * (sl_block_sum: warp trees 16..1, slots of missing warps +0); the fixed-order finish. */
static double warp_shuffle_depth(const sl_variant *v, uint64_t n, sl_dtype dt,
                                 const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder_resolve(v, &c, n, dt);
    return 2.0 + sl_tw_depth_block_sum(c.block) + sl_tw_depth_finish(c.grid, c.block);
}
SL_TW_INLINE int warp_shuffle_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                                  sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    sl_launch c;
    if (prep(v, cfg, n, dt, &c, err)) return -1;
    double *partials = alloc_doubles(c.grid, v, err);
    if (!partials) return -1;
    uint64_t B = c.block;
    double vals[1024];
    for (uint64_t b = 0; b < c.grid; b++) {
        for (uint64_t t = 0; t < B; t++) {
            uint64_t i = b * 2 * B + t;
            vals[t] = sl_tw_chain(0.0, x, dt, af, i, B, n, 2);
        }
        partials[b] = sl_tw_block_sum(vals, c.block, af);
    }
    finish(partials, &c, af, dt, result);
    return 0;
}
SL_TW_ENTRY(warp_shuffle)

/* ========================== V5 grid-stride ==================================================
 * Grid G (persistent), stride S = 2BG, A = accs accumulators per thread (default 1). Thread t of
 * block b: a_k = +0; step s = 0, 1, .. at i = 2Bb + t + sS < n: a_{s mod A} = a_{s mod A} + x[i];
 * if i+B < n: a_{s mod A} = a_{s mod A} + x[i+B]. Combine: for w = A/2 .. 1: a_k = a_k + a_{k+w}
 * (k < w). Shuffle block sum of a_0; fixed-order finish. */
static double grid_stride_depth(const sl_variant *v, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder_resolve(v, &c, n, dt);
    uint64_t steps = ceil_div(n, (uint64_t)2 * c.block * c.grid);
    uint64_t A = c.accs ? c.accs : 1;
    /* thread 0's accumulator 0 has the most steps: ceil(steps / A) */
    return 2.0 * (double)ceil_div(steps, A) + (double)sl_tw_ceil_log2((uint32_t)A) +
           sl_tw_depth_block_sum(c.block) + sl_tw_depth_finish(c.grid, c.block);
}
SL_TW_INLINE int grid_stride_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                                 sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    sl_launch c;
    if (prep(v, cfg, n, dt, &c, err)) return -1;
    uint64_t B = c.block, G = c.grid, S = 2 * B * G;
    double *partials = alloc_doubles(G, v, err);
    if (!partials) return -1;
    double vals[1024];
    /* Thread by thread (each owns its accumulators): its grid-stride steps in order, two
     * guarded adds a step into accumulator step mod A, then their pairwise combine. */
    const uint64_t A = c.accs ? c.accs : 1;
    double acc[8];
    for (uint64_t b = 0; b < G; b++) {
        for (uint64_t t = 0; t < B; t++) {
            for (int k = 0; k < 8; k++) acc[k] = 0.0; /* A <= 8; a fixed count: no memset call */
            uint64_t s = 0;
            for (uint64_t i = 2 * B * b + t; i < n; i += S, s++)
                acc[s % A] = sl_tw_chain(acc[s % A], x, dt, af, i, B, n, 2);
            for (uint64_t w = A / 2; w >= 1; w /= 2)
                for (uint64_t k = 0; k < w; k++) acc[k] = sl_tw_add(acc[k], acc[k + w], af);
            vals[t] = acc[0];
        }
        partials[b] = sl_tw_block_sum(vals, c.block, af);
    }
    finish(partials, &c, af, dt, result);
    return 0;
}
SL_TW_ENTRY(grid_stride)

/* ========================== V6 vec4 =========================================================
 * Load width w bytes (cfg width: 16, 8 or the element size), W = w / element size lanes a
 * vector. Split: head h scalars (to the first w-byte boundary, from addr_mod), nv vectors of W,
 * tail scalars (sl_ladder_vec_split). Block b owns the vectors [lo_b, hi_b) (sl_ladder_vec_range).
 * Thread t of block b (g = bB + t) has C = accs accumulators (C divides A = items), all +0:
 * acc0 = acc0 + x[g] if g < h; acc0 = acc0 + x[h + W nv + g] if that is < n; then for steps
 * s = 0, 1, ..: for k < A: vector v = lo_b + s A B + k B + t (if v < hi_b): acc_{k mod C} =
 * acc_{k mod C} + lane 0, then + lane 1, .. + lane W-1. Combine: for w = C/2 .. 1: acc_k =
 * acc_k + acc_{k+w} (k < w). Shuffle block sum of acc0; fixed-order finish. */
static double vec4_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder_resolve(v, &c, n, dt);
    uint64_t head, nv, lo, hi, w = sl_ladder_vec_bytes(&c) / sl_dtype_size(dt);
    sl_ladder_vec_split(n, dt, c.addr_mod, c.width, &head, &nv);
    sl_ladder_vec_range(nv, c.grid, 0, &lo, &hi); /* block 0 has the longest range */
    uint64_t steps = ceil_div(hi - lo, (uint64_t)c.items * c.block);
    const uint64_t C = c.accs ? c.accs : c.items, per_step = ceil_div(c.items, C);
    return 2.0 + (double)(w * per_step * steps) + (double)sl_tw_ceil_log2((uint32_t)C) +
           sl_tw_depth_block_sum(c.block) + sl_tw_depth_finish(c.grid, c.block);
}
SL_TW_INLINE int vec4_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                          sl_dtype af, const sl_launch *cfg, double *result, sl_err *err)
{
    sl_launch c;
    if (prep(v, cfg, n, dt, &c, err)) return -1;
    uint64_t B = c.block, G = c.grid, A = c.items, W = sl_ladder_vec_bytes(&c) / sl_dtype_size(dt);
    const uint64_t C = c.accs ? c.accs : A;
    uint64_t head, nv;
    sl_ladder_vec_split(n, dt, c.addr_mod, c.width, &head, &nv);
    uint64_t tail0 = head + nv * W;
    double *partials = alloc_doubles(G, v, err);
    if (!partials) return -1;
    double vals[1024], acc[8];
    uint64_t per, extra;
    sl_ladder_vec_units(nv, G, &per, &extra);
    for (uint64_t b = 0; b < G; b++) {
        uint64_t lo, hi;
        sl_ladder_vec_block(nv, per, extra, b, &lo, &hi);
        for (uint64_t t = 0; t < B; t++) {
            uint64_t g = b * B + t;
            for (int k = 0; k < 8; k++) acc[k] = 0.0; /* A <= 8; a fixed count: no memset call */
            if (g < head) acc[0] = sl_tw_add(acc[0], sl_tw_load(x, dt, g), af);
            if (tail0 + g < n) acc[0] = sl_tw_add(acc[0], sl_tw_load(x, dt, tail0 + g), af);
            for (uint64_t s0 = lo + t; s0 < hi; s0 += A * B)
                for (uint64_t k = 0; k < A; k++) {
                    uint64_t j = s0 + k * B;
                    if (j >= hi) break;
                    uint64_t e = head + j * W;
                    acc[k % C] = sl_tw_chain(acc[k % C], x, dt, af, e, 1, e + W, W); /* .x, .y, ... */
                }
            for (uint64_t w = C / 2; w >= 1; w /= 2)
                for (uint64_t k = 0; k < w; k++) acc[k] = sl_tw_add(acc[k], acc[k + w], af);
            vals[t] = acc[0];
        }
        partials[b] = sl_tw_block_sum(vals, c.block, af);
    }
    finish(partials, &c, af, dt, result);
    return 0;
}
SL_TW_ENTRY(vec4)

/* ========================== descriptors =====================================================
 * Every rung: sl_ladder_resolve, the GPU entry of ladder.cu (the rung is .impl), its own twin
 * and depth; accumulation in the input format (float32 for float16/bfloat16 input, the result
 * rounded once to the input format), Higham's recursive bound for its depth. half-acc is
 * vec4 accumulating in the 16-bit input format itself. */
#define LADDER_ENTRIES                                                                      \
    .bound = SL_BOUND_RECURSIVE, .resolve = sl_ladder_resolve,                              \
    .workspace = SL_GPU_ENTRY(sl_ladder_workspace), .gpu = SL_GPU_ENTRY(sl_ladder_gpu)
#define LADDER_COMMON LADDER_ENTRIES, .op = "sum", .family = "ladder", .dtypes = SL_DTYPES_ALL

const sl_variant sl_v_atomic_thread = {
    .name = "atomic-thread", LADDER_COMMON, .impl = SL_RUNG_ATOMIC_THREAD,
    .determinism = SL_DET_NONDETERMINISTIC, .ftz_atomics = 1,
    .description = "V0: every thread atomicAdds its element to one address (commit order is "
                   "the hardware's)",
    .depth = NULL, /* one serial chain through every element: n */
    .cpu = atomic_thread_cpu,
};
const sl_variant sl_v_smem_interleaved = {
    .name = "smem-interleaved", LADDER_COMMON, .impl = SL_RUNG_SMEM_INTERLEAVED,
    .determinism = SL_DET_RUN_TO_RUN,
    .description = "V1: shared-memory tree, interleaved addressing (tid % (2*stride)); "
                   "fixed-order pass over block partials",
    .depth = smem_depth, .cpu = smem_cpu,
};
const sl_variant sl_v_smem_sequential = {
    .name = "smem-sequential", LADDER_COMMON, .impl = SL_RUNG_SMEM_SEQUENTIAL,
    .determinism = SL_DET_RUN_TO_RUN,
    .description = "V2: shared-memory tree, sequential addressing (stride halving, contiguous "
                   "active threads)",
    .depth = smem_depth, .cpu = smem_cpu,
};
const sl_variant sl_v_two_load = {
    .name = "two-load", LADDER_COMMON, .impl = SL_RUNG_TWO_LOAD,
    .determinism = SL_DET_RUN_TO_RUN,
    .description = "V3: each thread adds two elements before the shared-memory tree",
    .depth = smem_depth, .cpu = smem_cpu,
};
const sl_variant sl_v_warp_shuffle = {
    .name = "warp-shuffle", LADDER_COMMON, .impl = SL_RUNG_WARP_SHUFFLE,
    .determinism = SL_DET_RUN_TO_RUN,
    .description = "V4: __shfl_down_sync within warps, one shared slot per warp, one barrier",
    .depth = warp_shuffle_depth, .cpu = warp_shuffle_cpu,
};
const sl_variant sl_v_grid_stride = {
    .name = "grid-stride", LADDER_COMMON, .impl = SL_RUNG_GRID_STRIDE,
    .determinism = SL_DET_RUN_TO_RUN,
    .description = "V5: persistent grid sized from the SM count, per-thread register "
                   "accumulation",
    .depth = grid_stride_depth, .cpu = grid_stride_cpu,
};
const sl_variant sl_v_vec4 = {
    .name = "vec4", LADDER_COMMON, .impl = SL_RUNG_VEC4,
    .determinism = SL_DET_RUN_TO_RUN,
    .description = "V6: 16-byte loads (float4/double2/8 halves), one contiguous range per block, "
                   "independent accumulators",
    .depth = vec4_depth, .cpu = vec4_cpu,
};
const sl_variant sl_v_half_acc = {
    .name = "half-acc", LADDER_ENTRIES, .op = "sum", .family = "accuracy", .impl = SL_RUNG_VEC4,
    .dtypes = SL_DTYPES_HALF,
    .acc_input = 1, .determinism = SL_DET_RUN_TO_RUN,
    .description = "vec4's kernel accumulating in the float16/bfloat16 input format itself "
                   "(16-bit adds), as a naive kernel does",
    .depth = vec4_depth, .cpu = vec4_cpu,
};

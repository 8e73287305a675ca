/* sl_twin.c: CPU mirrors of the scope-split device building blocks of reduce/reduce.cuh (same
 * adds, same order, same +0 padding), plain and compensated-pair, used by every CPU twin.
 * Floating-point assumptions: see sl_twin.h (IEEE, round to nearest, no contraction). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "sumlab/rng.h"
#include "sl_twin.h"

/* The plain-add scopes, specialised per accumulator format (SL_TW_DISPATCH). */
SL_TW_INLINE double warp_sum(double v[32], sl_dtype acc)
{
    for (int off = 16; off > 0; off >>= 1)
        for (int i = 0; i < off; i++) v[i] = sl_tw_add(v[i], v[i + off], acc);
    return v[0];
}

SL_TW_INLINE double block_sum(const double *v, uint32_t block, sl_dtype acc)
{
    double slots[32], lanes[32];
    uint32_t nwarps = block / 32u;
    for (uint32_t w = 0; w < 32u; w++) slots[w] = 0.0;
    for (uint32_t w = 0; w < nwarps; w++) {
        for (int l = 0; l < 32; l++) lanes[l] = v[w * 32u + (uint32_t)l];
        slots[w] = warp_sum(lanes, acc);
    }
    return warp_sum(slots, acc);
}

SL_TW_INLINE double grid_finish(const double *partials, uint64_t nparts, uint32_t block,
                                sl_dtype acc)
{
    double a[1024];
    for (uint32_t t = 0; t < block; t++) {
        double s = 0.0;
        for (uint64_t i = t; i < nparts; i += block) s = sl_tw_add(s, partials[i], acc);
        a[t] = s;
    }
    return block_sum(a, block, acc);
}

SL_TW_INLINE double tree_interleaved(double *s, uint32_t block, sl_dtype acc)
{
    for (uint32_t stride = 1; stride < block; stride *= 2)
        for (uint32_t t = 0; t + stride < block; t += 2 * stride)
            s[t] = sl_tw_add(s[t], s[t + stride], acc);
    return s[0];
}

SL_TW_INLINE double tree_sequential(double *s, uint32_t block, sl_dtype acc)
{
    for (uint32_t stride = block / 2; stride > 0; stride >>= 1)
        for (uint32_t t = 0; t < stride; t++) s[t] = sl_tw_add(s[t], s[t + stride], acc);
    return s[0];
}

/* r = fn(args, a): a scope specialised for the accumulator format (SL_TW_DISPATCH). */
#define ACC_CALL(d, a, fn, ...) r = fn(__VA_ARGS__, a)

double sl_tw_warp_sum(double v[32], sl_dtype acc)
{
    double r;
    SL_TW_DISPATCH(acc, acc, ACC_CALL, warp_sum, v);
    return r;
}

double sl_tw_block_sum(const double *v, uint32_t block, sl_dtype acc)
{
    double r;
    SL_TW_DISPATCH(acc, acc, ACC_CALL, block_sum, v, block);
    return r;
}

double sl_tw_finish(const double *partials, uint64_t nparts, uint32_t block, sl_dtype acc)
{
    double r;
    SL_TW_DISPATCH(acc, acc, ACC_CALL, grid_finish, partials, nparts, block);
    return r;
}

sl_tw_pair sl_tw_pair_warp(sl_tw_pair v[32], sl_dtype acc)
{
    for (int off = 16; off > 0; off >>= 1)
        for (int i = 0; i < off; i++) v[i] = sl_tw_pair_add(v[i], v[i + off], acc);
    return v[0];
}

sl_tw_pair sl_tw_pair_block(const sl_tw_pair *v, uint32_t block, sl_dtype acc)
{
    sl_tw_pair slots[32], lanes[32];
    const sl_tw_pair zero = {0.0, 0.0};
    uint32_t nwarps = block / 32u;
    for (uint32_t w = 0; w < 32u; w++) slots[w] = zero;
    for (uint32_t w = 0; w < nwarps; w++) {
        for (int l = 0; l < 32; l++) lanes[l] = v[w * 32u + (uint32_t)l];
        slots[w] = sl_tw_pair_warp(lanes, acc);
    }
    return sl_tw_pair_warp(slots, acc);
}

sl_tw_pair sl_tw_pair_finish(const sl_tw_pair *partials, uint64_t nparts, uint32_t block,
                             sl_dtype acc)
{
    sl_tw_pair a[1024];
    for (uint32_t t = 0; t < block; t++) {
        sl_tw_pair s = {0.0, 0.0};
        for (uint64_t i = t; i < nparts; i += block) s = sl_tw_pair_add(s, partials[i], acc);
        a[t] = s;
    }
    return sl_tw_pair_block(a, block, acc);
}

double sl_tw_tree_interleaved(double *s, uint32_t block, sl_dtype acc)
{
    double r;
    SL_TW_DISPATCH(acc, acc, ACC_CALL, tree_interleaved, s, block);
    return r;
}

double sl_tw_tree_sequential(double *s, uint32_t block, sl_dtype acc)
{
    double r;
    SL_TW_DISPATCH(acc, acc, ACC_CALL, tree_sequential, s, block);
    return r;
}

uint32_t sl_tw_ceil_log2(uint64_t v)
{
    uint32_t k = 0;
    while (k < 64 && ((uint64_t)1 << k) < v) k++;
    return k;
}

double sl_tw_depth_block_sum(uint32_t block)
{
    return 5.0 + (double)sl_tw_ceil_log2(block / 32u);
}

double sl_tw_depth_finish(uint64_t nparts, uint32_t block)
{
    return (double)((nparts + block - 1) / block) + sl_tw_depth_block_sum(block);
}

uint32_t sl_tw_pow2_block(uint32_t block, uint32_t dflt)
{
    if (block == 0) return dflt;
    uint32_t b = 32;
    while (b < block && b < 1024) b *= 2;
    return b;
}

uint32_t *sl_tw_shuffle(uint64_t count, uint64_t seed)
{
    if (count >= ((uint64_t)1 << 32)) return NULL;
    uint32_t *perm = malloc((count ? count : 1) * sizeof *perm);
    if (!perm) return NULL;
    for (uint64_t i = 0; i < count; i++) perm[i] = (uint32_t)i;
    for (uint64_t i = count ? count - 1 : 0; i > 0; i--) {
        uint64_t j = sl_hash64(seed, i) % (i + 1u);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    return perm;
}

int sl_tw_generic_mode;
void sl_tw_set_generic(int on) { sl_tw_generic_mode = on; }

static unsigned sl_twin_threads_n = 1u;     /* read and written atomically */
void sl_twin_set_threads(unsigned threads)
{
    __atomic_store_n(&sl_twin_threads_n, threads ? threads : 1u, __ATOMIC_RELAXED);
}
unsigned sl_twin_threads(void) { return __atomic_load_n(&sl_twin_threads_n, __ATOMIC_RELAXED); }

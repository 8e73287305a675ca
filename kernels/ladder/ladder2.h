/* ladder2.h: what the second source text's ladder (seeds/004, the PyTorch/OneFlow article)
 * shares between its twins and descriptors (ladder2.c) and its kernels (ladder2.cu): rung ids
 * (a descriptor's impl, continuing ladder.h's so impl is unique within family "ladder"),
 * defaults, the one resolve() and the check of a resolved sl_launch. The text's v0, v2 and v3
 * are ladder.c's smem-interleaved, smem-sequential and two-load. */
#ifndef SL_LADDER2_H
#define SL_LADDER2_H
#include "ladder/ladder.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SL_RUNG2_SMEM_STRIDED = SL_RUNG_VEC4 + 1, /* text 2 v1: index = 2 s tid */
    SL_RUNG2_WARP_UNROLLED,                   /* text 2 v4: last warp unrolled in smem */
    SL_RUNG2_FULL_UNROLL,                     /* text 2 v5: template block size */
    SL_RUNG2_MULTI_LOAD,                      /* text 2 v6: K elements per thread */
    SL_RUNG2_PACKED,                          /* text 2 v8: OneFlow Packed<T, 16/sizeof T> */
    SL_RUNG2_BLOCK_REDUCE                     /* text 2: PyTorch BlockReduceSum */
} sl_rung2;

/* multi-load: elements per thread (the text's NUM_PER_THREAD), default and largest. */
#define SL_LADDER2_MULTI_ITEMS 8u
#define SL_LADDER2_MAX_ITEMS 64u
/* packed: OneFlow's GetNumBlocks: kBlockSize 256, kNumWaves 32, and the device's maximum
 * resident threads per SM (cudaDevAttrMaxThreadsPerMultiProcessor), 2048 on sm_80 and sm_90,
 * a constant here so that resolve() (hence the twin) needs only sm_count. block-reduce's
 * persistent grid aims at the same 2048 threads per SM. */
#define SL_LADDER2_PACKED_BLOCK 256u
#define SL_LADDER2_PACKED_WAVES 32u
#define SL_LADDER2_THREADS_SM 2048u

/* The resolve() of every rung of this file pair (v->impl): fills the zero fields of cfg.
 * smem-strided, warp-unrolled, full-unroll, multi-load: one tile of block * items elements per
 * block, grid = ceil(n / (block items)) (a requested grid is ignored, as for ladder.c's V1-V4);
 * packed: grid = max(1, min(ceil(nv / block), sm_count * 2048 / block * 32)) for nv 16-byte
 * packs (a requested grid replaces the second term); block-reduce: grid = min(ceil(n / block),
 * sm_count * max(1, 2048 / block)) (or the requested grid), at least 1. Idempotent. */
sl_resolve_fn sl_ladder2_resolve;
/* Checks a resolved cfg (block a power of two in [32, 1024], grid in [1, 2^31-1] and covering
 * n for the tile rungs, items as the rung needs, no accumulators (accs at most 1), addr_mod a
 * multiple of the element size for packed). Returns 0, or -1 with err naming the variant. */
int sl_ladder2_check(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                     sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

/* ladder.h: geometry shared by the optimisation-ladder twins (ladder.c) and kernels
 * (ladder.cu): rung ids, defaults, validation of a resolved sl_launch, the vec4 split. */
#ifndef SL_LADDER_H
#define SL_LADDER_H
#include "sl_variant_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SL_RUNG_ATOMIC_THREAD = 0, /* V0 */
    SL_RUNG_SMEM_INTERLEAVED,  /* V1 */
    SL_RUNG_SMEM_SEQUENTIAL,   /* V2 */
    SL_RUNG_TWO_LOAD,          /* V3 */
    SL_RUNG_WARP_SHUFFLE,      /* V4 */
    SL_RUNG_GRID_STRIDE,       /* V5 */
    SL_RUNG_VEC4               /* V6 */
} sl_rung;

#define SL_LADDER_BLOCK 256u         /* default threads per block, every rung */
#define SL_LADDER_GS_THREADS_SM 2048u /* V5: resident threads per SM the grid aims at */
/* V6 defaults (measured on an H200): streaming sizes (>= SL_LADDER_VEC_BIG 16-byte vectors,
 * 64 MiB) use 1024 threads x 8 vectors, 2048 threads per SM; smaller (L2-resident, latency
 * bound) inputs use 256 threads x 4 vectors, 1024 threads per SM. */
#define SL_LADDER_VEC_BIG ((uint64_t)1 << 22)
#define SL_LADDER_VEC_BLOCK_BIG 1024u
#define SL_LADDER_VEC_ITEMS_BIG 8u
#define SL_LADDER_VEC_THREADS_SM_BIG 2048u
#define SL_LADDER_VEC_BLOCK_SMALL 256u
#define SL_LADDER_VEC_ITEMS_SMALL 4u
#define SL_LADDER_VEC_THREADS_SM_SMALL 1024u
#define SL_LADDER_MAX_GRID 0x7fffffffu

const char *sl_ladder_name(sl_rung r);
/* Checks a resolved cfg (block a power of two in [32,1024], grid in [1, 2^31-1] and large
 * enough for rungs V0-V4, items as the rung needs, addr_mod a multiple of the element size
 * for vec4). Returns 0, or -1 with err naming the variant. */
int sl_ladder_check(sl_rung r, uint64_t n, sl_dtype dt, const sl_launch *cfg, sl_err *err);
/* vec4 split of x[0..n): head scalars [0, *head) up to the first 16-byte boundary (from
 * addr_mod), *nvec 16-byte vectors, then the tail scalars [*head + *nvec * W, n) with
 * W = 16 / element size. */
void sl_ladder_vec_split(uint64_t n, sl_dtype dt, uint32_t addr_mod, uint64_t *head,
                         uint64_t *nvec);

#ifdef __cplusplus
}
#endif
#endif

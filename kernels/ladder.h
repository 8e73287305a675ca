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
#define SL_LADDER_VEC_BLOCK 1024u    /* V6: default threads per block */
#define SL_LADDER_VEC_THREADS_SM 2048u /* V6: threads per SM the grid is sized for (2 blocks) */
#define SL_LADDER_VEC_ITEMS 8u       /* V6: 16-byte vectors (= accumulators) per thread per step */
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

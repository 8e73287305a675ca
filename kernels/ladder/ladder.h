/* ladder.h: what the optimisation-ladder twins and descriptors (ladder.c) share with its
 * kernels (ladder.cu): rung ids (a descriptor's impl), defaults, the one resolve(), validation
 * of a resolved sl_launch, the vec4 block ranges. */
#ifndef SL_LADDER_H
#define SL_LADDER_H
#include "sl_variant_impl.h"
#include "sl_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rung of a ladder descriptor (its impl field). */
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
/* V6 (vec4) geometry. Each block sums one contiguous range of whole 16-byte vectors; the
 * ranges are balanced to within one unit of SL_LADDER_VEC_UNIT vectors (512 bytes: a warp's
 * load). Defaults by size in vectors nv (chosen by measurement against CUB: BENCHMARKS.md):
 *   nv <= SL_LADDER_VEC_ONE_BLOCK: one block (no cross-block finish), block = nv rounded up
 *     to a power of two in [128, 1024], accumulators = nv / block rounded up, at most 4;
 *   nv <  SL_LADDER_VEC_BIG: 512 threads x 2 accumulators, 1024 threads per SM;
 *   otherwise (64 MiB and up, streaming): 1024 threads x 4 accumulators, 2048 per SM. */
#define SL_LADDER_VEC_UNIT 32u
#define SL_LADDER_VEC_ONE_BLOCK ((uint64_t)1 << 12)
#define SL_LADDER_VEC_BIG ((uint64_t)1 << 22)
#define SL_LADDER_VEC_BLOCK_MID 512u
#define SL_LADDER_VEC_ITEMS_MID 2u
#define SL_LADDER_VEC_THREADS_SM_MID 1024u
#define SL_LADDER_VEC_BLOCK_BIG 1024u
#define SL_LADDER_VEC_ITEMS_BIG 4u
#define SL_LADDER_VEC_THREADS_SM_BIG 2048u
#define SL_LADDER_MAX_GRID 0x7fffffffu

/* The resolve() of every rung (v->impl): fills the zero fields of cfg. Idempotent. */
sl_resolve_fn sl_ladder_resolve;
/* Checks a resolved cfg (block a power of two in [32,1024], grid in [1, 2^31-1] and large
 * enough for rungs V0-V4, items as the rung needs, accs in {1, 2, 4, 8} for grid-stride, in
 * {1, 2, 4, 8} and at most items for vec4, at most 1 for the others; vec4: width the element
 * size, 8 or 16 (half-acc: 16, accs = items), addr_mod a multiple of the element size; no width
 * for the other rungs). Returns 0, or -1 with err naming the variant. */
int sl_ladder_check(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                    sl_err *err);
/* The resource use of the kernel the launcher runs for v (a rung of ladder.c or ladder2.c) at a
 * resolved cfg: registers per thread (cudaFuncGetAttributes), resident blocks per SM and
 * theoretical occupancy (resident threads over the SM's maximum) from the occupancy API, on the
 * current device. 0, or -1 with err (a build without CUDA: "built without CUDA"). Used by the
 * launch-config experiment; ladder2.cu's rungs through sl_ladder2_kernel_attrs. */
typedef struct {
    int regs;            /* registers per thread */
    int blocks_per_sm;   /* resident blocks per SM at cfg's block (and shared memory) */
    double occupancy;    /* blocks_per_sm * block / the SM's maximum resident threads */
} sl_kernel_attrs;
int sl_ladder_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                           sl_kernel_attrs *out, sl_err *err);
int sl_ladder2_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                            sl_kernel_attrs *out, sl_err *err);
/* vec4's load width in bytes of a resolved cfg (0: 16), and its split of x for that width:
 * head scalars up to the first width-byte boundary (addr_mod the byte address of x[0] mod 16),
 * whole vectors of width / element size elements, tail scalars. Width 16 is sl_vec_split
 * (sl_layout.h); the element size gives no head and no tail (nv = n). */
static inline uint32_t sl_ladder_vec_bytes(const sl_launch *c) { return c->width ? c->width : 16u; }
static inline void sl_ladder_vec_split(uint64_t n, sl_dtype dt, uint32_t addr_mod, uint32_t width,
                                       uint64_t *head, uint64_t *nv)
{
    /* a width below the element size (refused by sl_ladder_check) splits as scalars */
    const uint32_t es = (uint32_t)sl_dtype_size(dt), w0 = width ? width : 16u, w = w0 < es ? es : w0;
    uint64_t h = ((w - (addr_mod & (w - 1u))) & (w - 1u)) / es;
    if (h > n) h = n;
    *head = h;
    *nv = (n - h) / (w / es);
}
/* vec4: the vectors [*lo, *hi) of block b of grid blocks (nv vectors in all): units of
 * SL_LADDER_VEC_UNIT vectors, ceil(nv / UNIT) of them, split as evenly as possible with the
 * first (units mod grid) blocks taking one more. sl_ladder_vec_units gives the split (per
 * block, extra); the launcher computes it once and the kernel only multiplies and adds. */
static inline void sl_ladder_vec_units(uint64_t nv, uint64_t grid, uint64_t *per,
                                       uint64_t *extra)
{
    const uint64_t nu = (nv + SL_LADDER_VEC_UNIT - 1) / SL_LADDER_VEC_UNIT;
    *per = nu / grid;
    *extra = nu % grid;
}
#ifdef __CUDACC__
__host__ __device__
#endif
static inline void sl_ladder_vec_block(uint64_t nv, uint64_t per, uint64_t extra, uint64_t b,
                                       uint64_t *lo, uint64_t *hi)
{
    const uint64_t u0 = b * per + (b < extra ? b : extra);
    const uint64_t u1 = u0 + per + (b < extra ? 1u : 0u);
    const uint64_t v0 = u0 * SL_LADDER_VEC_UNIT, v1 = u1 * SL_LADDER_VEC_UNIT;
    *lo = v0 < nv ? v0 : nv;
    *hi = v1 < nv ? v1 : nv;
}
static inline void sl_ladder_vec_range(uint64_t nv, uint64_t grid, uint64_t b, uint64_t *lo,
                                       uint64_t *hi)
{
    uint64_t per, extra;
    sl_ladder_vec_units(nv, grid, &per, &extra);
    sl_ladder_vec_block(nv, per, extra, b, lo, hi);
}

#ifdef __cplusplus
}
#endif
#endif

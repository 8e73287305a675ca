/* sl_layout.h: geometry every family's kernels and twins agree on: the 16-byte vector width,
 * the split of x[0..n) into a scalar head, whole 16-byte vectors and a scalar tail, and the
 * workspace layout of the single-launch finish. Plain C (host side of both). */
#ifndef SL_LAYOUT_H
#define SL_LAYOUT_H
#include <stddef.h>
#include <stdint.h>
#include "sumlab/types.h"
#include "sl_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elements in one 16-byte vector: 4 floats (float4), 2 doubles (double2) or 8 float16/bfloat16
 * values (uint4). */
static inline uint32_t sl_vec_width(sl_dtype dt) { return 16u / (uint32_t)sl_dtype_size(dt); }

/* Scalar head before the first 16-byte boundary, for x[0] at byte address addr_mod mod 16
 * (addr_mod a multiple of the element size; any multiple of 16 may be added); clipped to n. */
static inline uint64_t sl_vec_head(uint64_t n, sl_dtype dt, uint32_t addr_mod)
{
    uint64_t h = ((16u - (addr_mod & 15u)) & 15u) / (uint32_t)sl_dtype_size(dt);
    return h < n ? h : n;
}

/* The split of x[0..n): head scalars [0, *head), *nvec whole vectors from x + *head (16-byte
 * aligned), then the tail scalars [*head + *nvec * W, n) with W = sl_vec_width(dt). */
static inline void sl_vec_split(uint64_t n, sl_dtype dt, uint32_t addr_mod, uint64_t *head,
                                uint64_t *nvec)
{
    *head = sl_vec_head(n, dt, addr_mod);
    *nvec = (n - *head) / sl_vec_width(dt);
}

/* Workspace of the single-launch finish (reduce/grid.cuh): bytes [0, 4) hold the arrival
 * ticket counter (zero between launches: the harness zeroes the workspace once, the last block
 * resets it); bytes [SL_WS_HEADER, ...) one partial per block, `elem` bytes each. */
#define SL_WS_HEADER 256u
static inline size_t sl_ws_bytes(uint64_t blocks, size_t elem)
{
    return (size_t)SL_WS_HEADER + (size_t)blocks * elem;
}

/* A row kernel's grid: a block for every `per` work units (a block a row or a part of a row:
 * per 1; a warp a row: per = the block's warps), at least one and at most SL_ROWS_GRID_MAX
 * blocks; the row kernels stride over the rest, so the grid changes no row's result. */
#define SL_ROWS_GRID_MAX 1048576u
static inline unsigned sl_rows_grid(uint64_t units, unsigned per)
{
    const uint64_t b = (units + per - 1u) / per;
    return (unsigned)(b == 0u ? 1u : b < SL_ROWS_GRID_MAX ? b : SL_ROWS_GRID_MAX);
}

/* The binned (reproducible) row kernels take a warp a row up to this many values, a block a row
 * above (the sum's, mean/var/std's and norm2's): below it a block's merge of its threads' binned
 * states costs more than the row's values. */
#define SL_ROWS_RS_WARP_ROW_MAX 8192u
/* ... and the reproducible sum's rows a warp a row up to this many values when they are many
 * (sl_rows_rs_lanes). */
#define SL_ROWS_RS_WARP_ROW_MANY 32768u

/* Lanes per row of the reproducible sum's row kernel (rows.cu's rs_rows_launch; rows.c's
 * workspace), or 0 for a block or several a row. A row's merge and rounding cost about as much
 * as a few hundred values a lane; where the deposits bound the time (16-bit input) a row gets
 * the fewest lanes, of 8, 16 and 32, that give each at most 512 of its values, while the warps
 * still give every SM 8 (16 KB of loads in flight), and a warp a row up to
 * SL_ROWS_RS_WARP_ROW_MANY values when the rows give every SM 24 warps; float32 and float64,
 * bound by the reads, keep a warp's loads on one row (several rows a warp read slower on the
 * H100, BENCHMARKS.md) except on rows of at most 1,024 values (8 lanes). Fewer than 32 lanes only
 * for rows of whole 16-byte vectors (a warp's rows then share their head, and the warp its loop
 * trips). Else a warp a row up to SL_ROWS_RS_WARP_ROW_MAX values, then 0. The bits do not depend
 * on it (a row's result is its multiset's binned sum). */
static inline unsigned sl_rows_rs_lanes(uint64_t rows, uint64_t n, size_t elem, uint32_t sm_count)
{
    const uint64_t sms = sm_count ? sm_count : SL_DEFAULT_SM_COUNT;
    if (n > SL_ROWS_RS_WARP_ROW_MAX)
        return elem == 2u && n <= SL_ROWS_RS_WARP_ROW_MANY && rows >= 24u * sms ? 32u : 0u;
    if ((n * elem) % 16u == 0u) {
        const unsigned most = elem == 2u ? 16u : 8u;
        for (unsigned g = 8u; g <= most; g *= 2u)
            if (n <= (elem == 2u ? 512u : 128u) * g && rows * g >= 8u * 32u * sms) return g;
    }
    return 32u;
}

/* `correct` mean/var/std rows (moments_exact.cu's mx_rows_launch): a warp a row up to this many
 * values, a block above; 16-bit rows of at most SL_ROWS_MX_LANES_ROW_MAX values take the
 * reproducible sum's 8 or 16 lanes a row. */
#define SL_ROWS_MX_WARP_ROW_MAX 8192u
#define SL_ROWS_MX_LANES_ROW_MAX 2048u

/* Lanes a row of those rows, or 0 for a block a row: on 16-bit rows sl_rows_rs_lanes's 8 or 16
 * where they hold at most SL_ROWS_MX_LANES_ROW_MAX values and its warp a row on rows of up to
 * SL_ROWS_RS_WARP_ROW_MANY values when they are many; else a warp a row up to
 * SL_ROWS_MX_WARP_ROW_MAX values, then 0. A row's decision is one lane's box test, so a warp of
 * 4 or 2 short rows decides them at once (bfloat16 var on an H100 at a22ef09, ratio to the read:
 * rows of 1,024 values 0.40-0.41 at 8 lanes against 0.26 at a warp; of 4,096 values 0.81 at 8
 * lanes against 0.83 at a warp; 4,096 rows of 32,768 values 0.76 at a warp against 0.75 at a
 * block; BENCHMARKS.md). The bits do not depend on it. */
static inline unsigned sl_rows_mx_lanes(uint64_t rows, uint64_t n, size_t elem, uint32_t sm_count)
{
    const unsigned rs = elem == 2u ? sl_rows_rs_lanes(rows, n, elem, sm_count) : 0u;
    if ((rs == 8u || rs == 16u) && n <= SL_ROWS_MX_LANES_ROW_MAX) return rs;
    if (rs == 32u && n > SL_ROWS_MX_WARP_ROW_MAX) return 32u;
    return n <= SL_ROWS_MX_WARP_ROW_MAX ? 32u : 0u;
}

/* Rows too few and too long for a warp or a block a row to fill the GPU: fewer rows than four
 * an SM (sm_count; 0: SL_DEFAULT_SM_COUNT), of 2^16 values or more. The row entries whose kernels
 * give a row one block (norm2 and mean/var/std `correct` and `reproducible`) run the 1-D
 * launcher on each such row instead (the same bits: their results are functions of the row's
 * values alone); max/min split such rows over several blocks (extrema.h's sl_ex_rows_split). */
static inline int sl_rows_few_long(uint64_t rows, uint64_t n, uint32_t sm_count)
{
    const uint64_t sms = sm_count ? sm_count : SL_DEFAULT_SM_COUNT;
    return n >= ((uint64_t)1 << 16) && rows > 0 && rows < 4u * sms;
}

/* The launch of the one-launch vector kernels (16-byte loads, items vectors a thread a step, a
 * last-block finish): block the request rounded up to a multiple of 32 (at most block_max) or
 * block_dflt; items the request or items_dflt; grid the request, or as many blocks as the vectors
 * need up to sm_count waves of threads_per_sm threads; at most max_grid, and never more blocks
 * than have work (thread g works when g < max(head, vectors, tail)), so a twin's per-thread
 * states stay O(n) whatever the request. Kernel launcher and twin resolve through it alike. */
static inline void sl_vec_grid_resolve(sl_launch *cfg, uint64_t n, sl_dtype dt, uint32_t block_dflt,
                                       uint32_t block_max, uint32_t items_dflt, uint32_t threads_per_sm,
                                       uint32_t max_grid)
{
    if (cfg->block == 0) {
        cfg->block = block_dflt;
    } else {
        const uint32_t b = (cfg->block + 31u) / 32u * 32u;
        cfg->block = b > block_max ? block_max : b;
    }
    if (cfg->items == 0) cfg->items = items_dflt;
    if (cfg->grid == 0) {
        const uint64_t nv = n / sl_vec_width(dt);
        const uint64_t per_block = (uint64_t)cfg->block * cfg->items;
        const uint64_t g = ((nv ? nv : 1) + per_block - 1) / per_block;
        const uint32_t per_sm = threads_per_sm / cfg->block;
        uint64_t maxg = (uint64_t)cfg->sm_count * (per_sm ? per_sm : 1u);
        if (maxg == 0) maxg = 1;
        cfg->grid = (uint32_t)(g < maxg ? g : maxg);
    }
    if (cfg->grid > max_grid) cfg->grid = max_grid;
    uint64_t head, nv;
    sl_vec_split(n, dt, cfg->addr_mod, &head, &nv);
    const uint64_t tail = n - head - nv * sl_vec_width(dt);
    uint64_t work = nv > head ? nv : head;
    if (tail > work) work = tail;
    const uint64_t need = ((work ? work : 1) + cfg->block - 1) / cfg->block;
    if (cfg->grid > need) cfg->grid = (uint32_t)need;
}

#ifdef __cplusplus
}
#endif
#endif

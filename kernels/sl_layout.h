/* sl_layout.h: geometry every family's kernels and twins agree on: the 16-byte vector width,
 * the split of x[0..n) into a scalar head, whole 16-byte vectors and a scalar tail, and the
 * workspace layout of the single-launch finish. Plain C (host side of both). */
#ifndef SL_LAYOUT_H
#define SL_LAYOUT_H
#include <stddef.h>
#include <stdint.h>
#include "sumlab/types.h"

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

#ifdef __cplusplus
}
#endif
#endif

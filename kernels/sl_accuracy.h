/* sl_accuracy.h: constants shared by the accuracy variants' kernels (accuracy.cu) and their
 * CPU twins (accuracy.c), so both sides agree on every size that decides an order of adds. */
#ifndef SL_ACCURACY_H
#define SL_ACCURACY_H
#include <stdint.h>
#include "sl_types.h"

/* Grid-stride variants (atomic-block, kahan, fp64-acc). */
#define SL_ACC_BLOCK 256u          /* default threads per block (any multiple of 32 <= 1024) */
#define SL_ACC_ITEMS 4u            /* default vectors per thread used to size a small grid */
#define SL_ACC_THREADS_PER_SM 1024u/* default grid = sm_count * (this / block) */
#define SL_ACC_MAX_GRID (1u << 20) /* requested grids are clamped to this */

/* serial: one summing thread, the others stage chunks in shared memory. */
#define SL_SERIAL_BLOCK 256u
#define SL_SERIAL_CHUNK 2048u

/* multipass: fixed tiles, fixed block (the block is part of the algorithm, not a knob). */
#define SL_MP_BLOCK 256u
#define SL_MP_TILE 8192u
#define SL_MP_BLOCKS_PER_SM 4u

/* Vector width in elements of the 16-byte loads: 4 floats or 2 doubles. */
static inline uint32_t sl_acc_vw(sl_dtype dt) { return dt == SL_F64 ? 2u : 4u; }
/* Scalar head before the first 16-byte boundary, for x[0] at byte address addr_mod mod 256
 * (addr_mod a multiple of the element size; clipped to n). */
static inline uint64_t sl_acc_head(uint64_t n, sl_dtype dt, uint32_t addr_mod)
{
    uint64_t h = ((16u - (addr_mod & 15u)) & 15u) / (uint32_t)sl_dtype_size(dt);
    return h < n ? h : n;
}

#endif

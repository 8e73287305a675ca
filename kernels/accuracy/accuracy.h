/* accuracy/accuracy.h: what the accuracy variants' kernels (accuracy.cu) share with their CPU twins
 * and descriptors (accuracy.c): which variant a descriptor is (its impl), and every size that
 * decides an order of adds. */
#ifndef SL_ACCURACY_H
#define SL_ACCURACY_H
#include <stdint.h>
#include "sumlab/types.h"
#include "sl_layout.h"

/* The member of the accuracy family a descriptor is (its impl field). */
typedef enum {
    SL_ACC_SERIAL = 0,
    SL_ACC_PAIRWISE,     /* CPU only */
    SL_ACC_ATOMIC_BLOCK, /* grid-stride engine, plain adds, one atomicAdd per block */
    SL_ACC_KAHAN,        /* grid-stride engine, Kahan lanes, compensated-pair tree */
    SL_ACC_FP64_ACC,     /* grid-stride engine, float32 input, float64 adds */
    SL_ACC_MULTIPASS
} sl_acc_kind;

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

/* The 16-byte vector width and the scalar head: sl_layout.h. */

#ifdef __cplusplus
extern "C" {
#endif
/* Registers per thread, resident blocks per SM and theoretical occupancy (resident threads over
 * the SM's maximum) of the kernel kahan's launcher picks for cfg (its accumulators: accs),
 * resolved as the launcher resolves it, on the current device. 0, or -1 with err (another
 * member, a build without CUDA). Used by the launch-config experiment. */
int sl_accuracy_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                             int *regs, int *blocks_per_sm, double *occupancy, sl_err *err);
#ifdef __cplusplus
}
#endif

#endif

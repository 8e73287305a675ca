/* welford/welford.h: what the Welford variants' kernels (welford.cu) share with their CPU twins and
 * descriptors (welford.c): which member a descriptor is, which output it writes, the sizes that
 * decide an order of operations, and the family's GPU entry points. */
#ifndef SL_WELFORD_H
#define SL_WELFORD_H
#include <stdint.h>
#include "sl_variants.h"
#include "sl_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* v->impl = update form | output. Update forms: the per-element division of PyTorch's WelfordOps
 * (mean += delta / count) or the reciprocal of its LayerNorm kernels (mean += delta * (1 / count));
 * the accumulator (float32 or float64) is sl_variant_acc's. */
#define SL_WF_DIV 0x00         /* welford, welford-f64 */
#define SL_WF_RCP 0x10         /* welford-ln */
#define SL_WF_FORM_MASK 0xf0
#define SL_WF_OUT_MEAN 0       /* the mean of the merged state */
#define SL_WF_OUT_VAR 1        /* M2 / (n - ddof) */
#define SL_WF_OUT_STD 2        /* sqrt(M2 / (n - ddof)) in the accumulator */
#define SL_WF_OUT_MASK 0x0f

#define SL_WF_BLOCK 256u            /* default and largest threads per block (a multiple of 32):
                                       the kernel's launch bounds, which leave the float64 states
                                       128 registers a thread */
#define SL_WF_THREADS_PER_SM 1024u  /* default grid = sm_count * (this / block) (float32 states) */
#define SL_WF_THREADS_PER_SM_F64 512u /* the same for float64 states (two blocks of 256 an SM) */
#define SL_WF_ITEMS 4u              /* vectors per thread used to size a small grid */
#define SL_WF_MAX_GRID (1u << 20)   /* requested grids are clamped to this */

/* Bytes of one block partial in the workspace (the largest state: float64 mean and M2, a 64-bit
 * count). */
#define SL_WF_STATE_BYTES 24u

sl_workspace_fn sl_welford_workspace;  /* welford.cu */
sl_gpu_fn sl_welford_gpu;

#ifdef __cplusplus
}
#endif
#endif

/* sl_variant_impl.h: what a family's file pair gives the registry (internal to kernels/): the
 * GPU entry points of each family's .cu (one workspace() and one gpu() per family, shared by
 * its members through v->impl) and SL_GPU_ENTRY, which makes them NULL in a build without CUDA.
 * Descriptors are defined in the families' .c files and listed in registry.c. */
#ifndef SL_VARIANT_IMPL_H
#define SL_VARIANT_IMPL_H
#include "sl_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* In a descriptor: .gpu = SL_GPU_ENTRY(sl_ladder_gpu) (NULL without CUDA). */
#ifdef SUMLAB_HAVE_CUDA
#define SL_GPU_ENTRY(fn) fn
#else
#define SL_GPU_ENTRY(fn) NULL
#endif

sl_workspace_fn sl_ladder_workspace;   /* ladder.cu: atomic-thread .. vec4 */
sl_gpu_fn sl_ladder_gpu;
sl_workspace_fn sl_ladder2_workspace;  /* ladder2.cu: smem-strided .. block-reduce (text 2) */
sl_gpu_fn sl_ladder2_gpu;
sl_workspace_fn sl_accuracy_workspace; /* accuracy.cu: serial, atomic-block, kahan, fp64-acc,
                                          multipass */
sl_gpu_fn sl_accuracy_gpu;
sl_workspace_fn sl_superacc_workspace; /* superacc.cu */
sl_gpu_fn sl_superacc_gpu;
sl_workspace_fn sl_cub_workspace;      /* cub.cu */
sl_gpu_fn sl_cub_gpu;

#ifdef __cplusplus
}
#endif
#endif

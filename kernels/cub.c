/* cub.c: the descriptor, resolve() and depth() of the anchor variant `cub` (kernel in cub.cu):
 * plain C, so a build without CUDA lists it too. Determinism: run-to-run (CUB's order is its
 * own, so there is no twin). */
#include <stddef.h>
#include "sl_variant_impl.h"

/* CUB chooses its own launch: the fields stay 0. */
static void cub_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)n; (void)dt;
    cfg->block = 0;
    cfg->grid = 0;
    cfg->items = 0;
}

/* CUB's order is unknown: the worst case, one chain of n - 1 adds. */
static double cub_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)dt; (void)cfg;
    return n ? (double)(n - 1) : 0.0;
}

const sl_variant sl_v_cub = {
    .name = "cub", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cub::DeviceReduce::Sum on the same buffer (GPU only: its order is CUB's own)",
    .dtypes = SL_DTYPES_BOTH, .bound = SL_BOUND_RECURSIVE,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};

/* dot/cublas.c: the descriptor of dot's anchor row `cublas` (kernel calls in cublas.cu): cuBLAS's
 * own dot product on the same buffers, cublasSdot / cublasDdot, and cublasDotEx for float16 and
 * bfloat16 (float32 execution, result in the input format). GPU only: cuBLAS's order is its own. */
#include <limits.h>
#include "sl_variant_impl.h"
#include "dot/dot.h"

/* cuBLAS chooses its own launch: the fields stay 0. */
static void cublas_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)n; (void)dt;
    cfg->block = 0;
    cfg->grid = 0;
    cfg->items = 0;
}

const sl_variant sl_v_dot_cublas = {
    .name = "cublas", .op = "dot", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cuBLAS dot on the same buffers: cublasSdot / cublasDdot, cublasDotEx for "
                   "f16/bf16 (float32 execution); GPU only, its order is cuBLAS's own (bound: one "
                   "chain of n adds)",
    .dtypes = SL_DTYPES_ALL, .max_n = INT_MAX, .bound = SL_BOUND_RECURSIVE,
    .resolve = cublas_resolve, .depth = NULL, .cpu2 = NULL,
    .workspace = SL_GPU_ENTRY(sl_dot_cublas_workspace), .gpu2 = SL_GPU_ENTRY(sl_dot_cublas_gpu),
};

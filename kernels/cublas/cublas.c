/* cublas.c: the descriptor of the cuBLAS anchor rows (kernels in cublas.cu): plain C, so a build
 * without CUDA lists them too. `cublas` of norm2: cublasSnrm2 / cublasDnrm2 (float32, float64) and
 * cublasNrm2Ex (float16, bfloat16: float32 compute) with the result in device memory. cuBLAS's
 * order and algorithm are its own (its nrm2 scales to avoid overflow and underflow, issue 32's
 * measurements), so the row has no twin and no bound model; determinism run-to-run (cuBLAS
 * promises repeatable results on one GPU and configuration for its non-atomic routines). */
#include <stddef.h>
#include "sl_variant_impl.h"

sl_workspace_fn sl_cublas_workspace;
sl_gpu_fn sl_cublas_gpu;

/* cuBLAS chooses its own launch: the fields stay 0. */
static void cublas_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)n; (void)dt;
    cfg->block = 0;
    cfg->grid = 0;
    cfg->items = 0;
}

const sl_variant sl_v_norm2_cublas = {
    .name = "cublas", .op = "norm2", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cuBLAS nrm2 on the same buffer (cublasSnrm2/Dnrm2, cublasNrm2Ex for 16-bit "
                   "input with float32 compute; GPU only, no twin: cuBLAS's order is its own)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_NONE,
    .resolve = cublas_resolve, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cublas_workspace), .gpu = SL_GPU_ENTRY(sl_cublas_gpu),
};

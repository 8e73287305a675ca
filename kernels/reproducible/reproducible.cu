/* reproducible.cu: the `reproducible` variant's launcher: 3-fold binned summation
 * (exact/binned.h), one launch of rs_kernel<X, rs_plain> (exact/binned_kernel.cuh, which holds the
 * algorithm and its performance notes), determinism class order-independent. Twin:
 * reproducible.c. */
#include "exact/binned_kernel.cuh"

/* ---- launcher: checks, the empty sum, then the one float/double branch ---------------------- */
extern "C" size_t sl_reproducible_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                            const sl_launch *cfg)
{
    (void)v; (void)n;
    return SUMLAB_RSUM_PARTS ? rs_workspace_parts_bytes(cfg ? cfg->grid : 1u) : rs_workspace_bytes(dt);
}

/* SUMLAB_RSUM_MODE (a CMake option, kernels/README.md), for measuring, the same results: 1 rounds
 * the folds by the generic limbs form instead of the register forms (float32 and float64 folds);
 * 0, the default: the register forms. rs_kernel's argument `mode`. */
#ifndef SUMLAB_RSUM_MODE
#define SUMLAB_RSUM_MODE 0
#endif

/* Enqueues the kernel for input format X; returns its name for the launch check. 16-bit input:
 * tiles of 2 vectors a thread when resolve chose 16 items (small n), else 4 (rs_fmt). */
template <typename X>
static const char *rs_launch(const sl_launch *cfg, const void *d_x, uint64_t n, uint64_t head,
                             void *d_work, void *d_result, cudaStream_t st)
{
    if (sizeof(X) == 2 && cfg->items == 16u)
        rs_kernel<X, rs_plain, sizeof(X) == 2 ? 2 : 0><<<cfg->grid, cfg->block, 0, st>>>((const X *)d_x, n, head,
                                                                     (unsigned char *)d_work, (X *)d_result,
                                                                     nullptr, 0u, (unsigned)SUMLAB_RSUM_MODE);
    else
        rs_kernel<X, rs_plain><<<cfg->grid, cfg->block, 0, st>>>((const X *)d_x, n, head,
                                                                  (unsigned char *)d_work, (X *)d_result,
                                                                  nullptr, 0u, (unsigned)SUMLAB_RSUM_MODE);
    return sizeof(X) == 8 ? "rs_kernel<double>" : sizeof(X) == 4 ? "rs_kernel<float>"
                                                                 : "rs_kernel<16-bit>";
}

extern "C" int sl_reproducible_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                                   const sl_launch *cfg, void *d_work, size_t work_bytes,
                                   void *d_result, void *stream, sl_err *err)
{
    cudaStream_t st = (cudaStream_t)stream;
    uint64_t head = 0;
    const int go = sl_launch_prologue(v, d_x, n, dt, cfg, 32u, SL_RSUM_MAX_N, d_work, work_bytes,
                                      sl_reproducible_workspace(v, n, dt, cfg), d_result, st, &head, err);
    if (go <= 0) return go;
    const char *what = dt == SL_F64  ? rs_launch<double>(cfg, d_x, n, head, d_work, d_result, st)
                     : dt == SL_F16  ? rs_launch<__half>(cfg, d_x, n, head, d_work, d_result, st)
                     : dt == SL_BF16 ? rs_launch<__nv_bfloat16>(cfg, d_x, n, head, d_work, d_result, st)
                                     : rs_launch<float>(cfg, d_x, n, head, d_work, d_result, st);
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

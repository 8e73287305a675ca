/* cub.cu: the anchor variant: cub::DeviceReduce::Sum on the same buffer (its order is CUB's
 * own: no twin). workspace() asks CUB for its temporary storage; the launcher checks it. */
#include <cub/device/device_reduce.cuh>
#include "sl_reduce.cuh"

extern "C" {

/* sl_cub_resolve / sl_cub_depth live in accuracy.c (they are needed without CUDA too). */

static cudaError_t cub_bytes(uint64_t n, sl_dtype dt, size_t *bytes)
{
    *bytes = 0;
    if (dt == SL_F64)
        return cub::DeviceReduce::Sum(nullptr, *bytes, (const double *)nullptr, (double *)nullptr,
                                      (int64_t)n);
    return cub::DeviceReduce::Sum(nullptr, *bytes, (const float *)nullptr, (float *)nullptr,
                                  (int64_t)n);
}

size_t sl_cub_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)cfg;
    size_t bytes = 0;
    if (cub_bytes(n, dt, &bytes) != cudaSuccess) return 0; /* the launcher reports the error */
    return bytes;
}

int sl_cub_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
               size_t work_bytes, void *d_result, void *stream, sl_err *err)
{
    (void)cfg;
    size_t need = 0;
    SL_CUDA_CHECK(cub_bytes(n, dt, &need), "cub", err);
    if (work_bytes < need || (need && !d_work))
        return sl_kerr(err, "cub: workspace of %zu bytes is too small (%zu needed)", work_bytes, need);
    size_t bytes = work_bytes;
    cudaStream_t st = (cudaStream_t)stream;
    if (dt == SL_F64)
        SL_CUDA_CHECK(cub::DeviceReduce::Sum(d_work, bytes, (const double *)d_x, (double *)d_result,
                                             (int64_t)n, st), "cub", err);
    else
        SL_CUDA_CHECK(cub::DeviceReduce::Sum(d_work, bytes, (const float *)d_x, (float *)d_result,
                                             (int64_t)n, st), "cub", err);
    SL_CUDA_CHECK_LAUNCH("cub::DeviceReduce::Sum", "cub", err);
    return 0;
}

} /* extern "C" */

/* cub.cu: the anchor variant: cub::DeviceReduce::Sum on the same buffer (its order is CUB's
 * own: no twin). workspace() asks CUB for its temporary storage; the launcher checks it. */
#include <cub/device/device_reduce.cuh>
#include "sl_reduce.cuh"

extern "C" {

/* CUB's order is unknown: the launch fields are informative only (block 0 = CUB's choice). */
void sl_cub_resolve(sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)n; (void)dt;
    cfg->block = 0;
    cfg->grid = 0;
    cfg->items = 0;
}

/* Without knowledge of CUB's tree, the worst case: one chain of n - 1 adds. */
double sl_cub_depth(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)dt; (void)cfg;
    return n ? (double)(n - 1) : 0.0;
}

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

/* cub.cu: the anchor variant's kernel: cub::DeviceReduce::Sum on the same buffer (determinism
 * run-to-run; its order is CUB's own: no twin). workspace() asks CUB for its temporary
 * storage; the launcher checks it. Descriptor, resolve() and depth(): cub.c. */
#include <cub/device/device_reduce.cuh>
#include "sl_reduce.cuh"

/* CUB's call for element type T: sizes the storage when work is NULL, else enqueues the sum. */
template <typename T>
static cudaError_t cub_sum(void *work, size_t &bytes, const void *x, void *result, uint64_t n,
                           cudaStream_t st)
{
    return cub::DeviceReduce::Sum(work, bytes, (const T *)x, (T *)result, (int64_t)n, st);
}

/* The family's one float/double branch. */
static cudaError_t cub_call(sl_dtype dt, void *work, size_t &bytes, const void *x, void *result,
                            uint64_t n, cudaStream_t st)
{
    return dt == SL_F64 ? cub_sum<double>(work, bytes, x, result, n, st)
                        : cub_sum<float>(work, bytes, x, result, n, st);
}

extern "C" size_t sl_cub_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                   const sl_launch *cfg)
{
    (void)v; (void)cfg;
    size_t bytes = 0;
    if (cub_call(dt, nullptr, bytes, nullptr, nullptr, n, 0) != cudaSuccess)
        return 0; /* the launcher reports the error */
    return bytes;
}

extern "C" int sl_cub_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                          const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                          void *stream, sl_err *err)
{
    (void)cfg;
    size_t need = 0;
    SL_CUDA_CHECK(cub_call(dt, nullptr, need, nullptr, nullptr, n, 0), v->name, err);
    if (sl_check_workspace(v, d_work, work_bytes, need, err)) return -1;
    size_t bytes = work_bytes;
    SL_CUDA_CHECK(cub_call(dt, d_work, bytes, d_x, d_result, n, (cudaStream_t)stream), v->name,
                  err);
    SL_CUDA_CHECK_LAUNCH("cub::DeviceReduce::Sum", v->name, err);
    return 0;
}

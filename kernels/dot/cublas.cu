/* dot/cublas.cu: the `cublas` anchor of dot (descriptor in cublas.c): cuBLAS's dot product enqueued
 * on the harness's stream, the result written to device memory (pointer mode device), so it is
 * timed as the kernels are. One cuBLAS handle per device (reduce/cublas_handle.cuh; the harness runs GPU
 * calls on one thread). */
#include <climits>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "reduce/reduce.cuh"
#include "dot/dot.h"
#include "reduce/cublas_handle.cuh"

static const char *cublas_status_text(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "a cuBLAS error";
    }
}

#define SL_CUBLAS_CHECK(call, name, err)                                                      \
    do {                                                                                      \
        const cublasStatus_t st_ = (call);                                                    \
        if (st_ != CUBLAS_STATUS_SUCCESS)                                                     \
            return sl_err_set(err, "%s: %s failed: %s (%d) at %s:%d", name, #call,            \
                              cublas_status_text(st_), (int)st_, __FILE__, __LINE__);         \
    } while (0)

extern "C" size_t sl_dot_cublas_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                          const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt; (void)cfg;
    return 0;
}

extern "C" int sl_dot_cublas_gpu(const sl_variant *v, const void *d_x, const void *d_y, uint64_t n,
                                 sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                                 void *d_result, void *stream, sl_err *err)
{
    (void)cfg; (void)d_work; (void)work_bytes;
    static cublasHandle_t handles[SL_CUBLAS_DEVICES];
    if (n > (uint64_t)INT_MAX)
        return sl_err_set(err, "%s: n = %llu is beyond cuBLAS's int count", v->name, (unsigned long long)n);
    cublasHandle_t h = nullptr;
    if (sl_cublas_handle_of(handles, v->name, &h, err)) return -1;
    SL_CUBLAS_CHECK(cublasSetStream(h, (cudaStream_t)stream), v->name, err);
    SL_CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE), v->name, err);
    const int m = (int)n;
    switch (dt) {
    case SL_F32:
        SL_CUBLAS_CHECK(cublasSdot(h, m, (const float *)d_x, 1, (const float *)d_y, 1, (float *)d_result),
                        v->name, err);
        return 0;
    case SL_F64:
        SL_CUBLAS_CHECK(cublasDdot(h, m, (const double *)d_x, 1, (const double *)d_y, 1, (double *)d_result),
                        v->name, err);
        return 0;
    case SL_F16:
        SL_CUBLAS_CHECK(cublasDotEx(h, m, d_x, CUDA_R_16F, 1, d_y, CUDA_R_16F, 1, d_result, CUDA_R_16F,
                                    CUDA_R_32F), v->name, err);
        return 0;
    case SL_BF16:
        SL_CUBLAS_CHECK(cublasDotEx(h, m, d_x, CUDA_R_16BF, 1, d_y, CUDA_R_16BF, 1, d_result, CUDA_R_16BF,
                                    CUDA_R_32F), v->name, err);
        return 0;
    }
    return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
}

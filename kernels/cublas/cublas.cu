/* cublas.cu: the cuBLAS anchor rows' launcher (descriptors: cublas.c). One cuBLAS handle per
 * device (cuBLAS binds a handle to the device current at its creation), created at the first call
 * on that device, its stream set to the harness's stream on every call, pointer mode device (the
 * result written to d_result, no host sync). The 64-bit entries (cublas*_64, CUDA >= 12) take
 * any n. Every cuBLAS call is checked and named. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "reduce/launch.cuh"
#include "reduce/cublas_handle.cuh"

static cublasHandle_t sl_cublas_handles[SL_CUBLAS_DEVICES];

#define SL_CUBLAS_CHECK(call, vname, err)                                                    \
    do {                                                                                     \
        cublasStatus_t sl_s_ = (call);                                                       \
        if (sl_s_ != CUBLAS_STATUS_SUCCESS)                                                  \
            return sl_err_set((err), "%s: cuBLAS call '%s' failed: %s (%s) at %s:%d", (vname), \
                              #call, cublasGetStatusName(sl_s_), cublasGetStatusString(sl_s_), \
                              __FILE__, __LINE__);                                           \
    } while (0)

extern "C" size_t sl_cublas_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt; (void)cfg;
    return 0;
}

extern "C" int sl_cublas_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                             const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                             void *stream, sl_err *err)
{
    (void)cfg; (void)d_work; (void)work_bytes;
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    cublasHandle_t h = nullptr;
    if (sl_cublas_handle_of(sl_cublas_handles, v->name, &h, err)) return -1;
    SL_CUBLAS_CHECK(cublasSetStream(h, (cudaStream_t)stream), v->name, err);
    SL_CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE), v->name, err);
    const int64_t m = (int64_t)n;
    switch (dt) {
    case SL_F32:
        SL_CUBLAS_CHECK(cublasSnrm2_v2_64(h, m, (const float *)d_x, 1, (float *)d_result), v->name, err);
        break;
    case SL_F64:
        SL_CUBLAS_CHECK(cublasDnrm2_v2_64(h, m, (const double *)d_x, 1, (double *)d_result), v->name, err);
        break;
    case SL_F16:
        SL_CUBLAS_CHECK(cublasNrm2Ex_64(h, m, d_x, CUDA_R_16F, 1, d_result, CUDA_R_16F, CUDA_R_32F), v->name, err);
        break;
    case SL_BF16:
        SL_CUBLAS_CHECK(cublasNrm2Ex_64(h, m, d_x, CUDA_R_16BF, 1, d_result, CUDA_R_16BF, CUDA_R_32F), v->name, err);
        break;
    default:
        return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
    }
    SL_CUDA_CHECK(cudaGetLastError(), v->name, err);
    return 0;
}

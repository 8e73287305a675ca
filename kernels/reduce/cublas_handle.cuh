/* reduce/cublas_handle.cuh: the cuBLAS anchors' handles (norm2's cublas/cublas.cu, dot's dot/cublas.cu):
 * cuBLAS binds a handle to the device current when it is made, so each launcher keeps one per
 * device, created on first use on that device and kept for the process's life (creating one
 * costs milliseconds). */
#ifndef SL_REDUCE_CUBLAS_HANDLE_CUH
#define SL_REDUCE_CUBLAS_HANDLE_CUH
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include "reduce/launch.cuh"

#define SL_CUBLAS_DEVICES 64

/* *out: the current device's handle of table (SL_CUBLAS_DEVICES entries, static storage, made
 * here when absent). 0, or -1 with err naming vname. */
static inline int sl_cublas_handle_of(cublasHandle_t *table, const char *vname, cublasHandle_t *out, sl_err *err)
{
    int dev = 0;
    SL_CUDA_CHECK(cudaGetDevice(&dev), vname, err);
    if (dev < 0 || dev >= SL_CUBLAS_DEVICES)
        return sl_err_set(err, "%s: device %d beyond the %d cuBLAS handles kept", vname, dev, SL_CUBLAS_DEVICES);
    if (!table[dev]) {
        const cublasStatus_t s = cublasCreate(&table[dev]);
        if (s != CUBLAS_STATUS_SUCCESS) {
            table[dev] = nullptr;
            return sl_err_set(err, "%s: cublasCreate on device %d failed: %s (%s)", vname, dev,
                              cublasGetStatusName(s), cublasGetStatusString(s));
        }
    }
    *out = table[dev];
    return 0;
}
#endif

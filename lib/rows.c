/* rows.c: libsumlab's row-wise entry points (sumlab.h: sumlab_reduce_rows_host_ex,
 * sumlab_reduce_rows_device_ex and their two-input forms *_xy_*) over kernels/rows: every row of a
 * C-order [rows, n] array (row i of y beside row i of x for dot) reduced by one variant, the same
 * bits as the one-array calls on each row. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sl_lib.h"
#include "sl_reference.h"
#include "rows/rows.h"
#ifdef SUMLAB_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

/* 1 when the results (rows doubles) overlap the input (rows x n values of es bytes): the row
 * kernels and twins read rows after results were written. */
static int rows_overlap(const void *x, const void *results, uint64_t rows, uint64_t n, size_t es)
{
    if (!rows || !n || !x || !results) return 0;
    const uintptr_t a = (uintptr_t)x, ae = a + (uintptr_t)(rows * n * es);
    const uintptr_t b = (uintptr_t)results, be = b + (uintptr_t)(rows * sizeof(double));
    return a < be && b < ae;
}

/* The row-wise call's own checks: y's stride, the rows' sizes, x given, the results apart from
 * the inputs (y given to a one-input operation or missing for a two-input one: sl_lib_check_call,
 * as for the one-array calls). */
static sumlab_status rows_check(const void *x, const void *y, uint64_t y_stride, const void *results,
                                uint64_t rows, uint64_t n, sl_dtype dt, const char *what, sl_err *err)
{
    if (y && y_stride != n && y_stride != 0)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: y_stride %llu: n (%llu, y's rows beside x's) or 0 (one row of y)",
                           what, (unsigned long long)y_stride, (unsigned long long)n);
    /* a row's length as a 1-D call's (also with no rows); the whole input's bytes addressable */
    if (n >= SL_LIB_MAX_N)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: rows of n = %llu values are too long (n < 2^40)", what,
                           (unsigned long long)n);
    const uint64_t es = sl_dtype_valid(dt) ? sl_dtype_size(dt) : 1u;
    if (n && (rows > UINT64_MAX / n / es || rows * n * es > (uint64_t)SIZE_MAX || rows > SIZE_MAX / sizeof(double)))
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: %llu rows of %llu values overflow the address space", what,
                           (unsigned long long)rows, (unsigned long long)n);
    if (rows && n && !x) return sl_lib_fail(SUMLAB_EINVAL, err, "%s: the input is NULL", what);
    if (rows_overlap(x, results, rows, n, (size_t)es) || rows_overlap(y, results, y_stride ? rows : 1u, n, (size_t)es))
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: results overlaps the input", what);
    return SUMLAB_OK;
}


sumlab_status sumlab_reduce_rows_xy_host_ex(const char *op, const sumlab_params *params, const char *variant,
                                            const void *x, const void *y, uint64_t y_stride, uint64_t rows,
                                            uint64_t n, sl_dtype dt, const sumlab_launch *launch, double *results,
                                            sl_err *err)
{
    const sl_operation *o;
    const sl_variant *v;
    sl_op_params pp;
    if (!results && rows) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_reduce_rows_host: results is NULL");
    sumlab_status st = rows_check(x, y, y_stride, results, rows, n, dt, "sumlab_reduce_rows_host", err);
    if (!st) st = sl_lib_params(params, &pp, err);
    if (!st) st = sl_lib_check_call(op, variant, rows ? x : NULL, y, rows ? n : 0, dt, &o, &v, err);
    if (!st) st = sl_lib_launch_check(launch, err);
    if (st) return st;
    const size_t es = sl_dtype_size(dt);
    if (sl_op_is_exact(v)) {   /* each row's exact reference */
        for (uint64_t i = 0; i < rows; i++) {
            sl_reference ref;
            sl_err e = {{0}};
            const void *xs[2] = {(const char *)x + i * n * es, y ? (const char *)y + i * y_stride * es : NULL};
            int rc = o->reference(&ref, xs, n, dt, &pp, 1, &e);
            if (!rc) results[i] = ref.rounded;
            sl_reference_clear(&ref);
            if (rc) {
                if (err) memcpy(err->msg, e.msg, sizeof err->msg);
                return strstr(e.msg, "out of memory") ? SUMLAB_ENOMEM : SUMLAB_EINVAL;
            }
        }
        return SUMLAB_OK;
    }
    if (!sl_variant_has_cpu(v))
        return sl_lib_fail(SUMLAB_EUNSUPPORTED, err, "variant '%s' has no CPU twin%s", v->name,
                           sl_variant_has_gpu(v) ? " (it runs on the GPU only: sumlab_reduce_rows_device_ex)" : "");
    sl_launch cfg;
    sl_lib_launch(launch, &pp, &cfg);
    cfg.addr_mod = (uint32_t)((uintptr_t)x % 256u);   /* row 0's; sl_rows_cpu derives the others' */
    sl_err e = {{0}};
    if (sl_rows_cpu_xy(v, x, rows ? y : NULL, y_stride, rows, n, dt, &cfg, results, &e)) {
        if (err) memcpy(err->msg, e.msg, sizeof err->msg);
        return strstr(e.msg, "out of memory") ? SUMLAB_ENOMEM : SUMLAB_EINVAL;
    }
    return SUMLAB_OK;
}

sumlab_status sumlab_reduce_rows_xy_device_ex(const char *op, const sumlab_params *params,
                                              const char *variant, const void *d_x, const void *d_y,
                                              uint64_t y_stride, uint64_t rows, uint64_t n, sl_dtype dt,
                                              const sumlab_launch *launch, void *d_results, void *stream,
                                              sl_err *err)
{
    const sl_operation *o;
    const sl_variant *v;
    sl_op_params pp;
    if (!d_results && rows) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_reduce_rows_device: d_results is NULL");
    sumlab_status st = rows_check(d_x, d_y, y_stride, d_results, rows, n, dt, "sumlab_reduce_rows_device", err);
    if (!st) st = sl_lib_params(params, &pp, err);
    if (!st) st = sl_lib_check_call(op, variant, rows ? d_x : NULL, d_y, rows ? n : 0, dt, &o, &v, err);
    if (!st) st = sl_lib_launch_check(launch, err);
    if (st) return st;
#ifndef SUMLAB_HAVE_CUDA
    (void)launch;
    (void)stream;
    return sl_lib_fail(SUMLAB_EUNSUPPORTED, err, "libsumlab was built without CUDA: no kernel for '%s'", v->name);
#else
    if (!sl_variant_has_gpu(v))
        return sl_lib_fail(SUMLAB_EUNSUPPORTED, err, "variant '%s' has no GPU kernel in this build%s", v->name,
                           sl_variant_has_cpu(v) || sl_op_is_exact(v)
                               ? " (it runs on host memory: sumlab_reduce_rows_host_ex)" : "");
    if (!rows) return SUMLAB_OK;
    int count = 0, device = 0, sms = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        (void)cudaGetLastError();
        return sl_lib_fail(SUMLAB_ENOGPU, err, "device memory given, but no usable GPU");
    }
    LIB_CK(cudaGetDevice(&device), (void)0);
    if (n && (st = sl_lib_device_ptr(d_x, device, "d_x", err))) return st;
    if (n && d_y && (st = sl_lib_device_ptr(d_y, device, "d_y", err))) return st;
    if ((st = sl_lib_device_ptr(d_results, device, "d_results", err))) return st;
    LIB_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), (void)0);
    sl_launch cfg;
    sl_lib_launch(launch, &pp, &cfg);
    if (!cfg.sm_count) cfg.sm_count = (uint32_t)sms;
    cfg.addr_mod = (uint32_t)((uintptr_t)d_x % 256u);   /* the request: resolved per row below */
    const size_t ws = sl_rows_workspace(v, rows, n, dt, &cfg);
    cudaStream_t s = (cudaStream_t)stream;
    void *d_work = NULL;
    if (ws) {   /* stream-ordered scratch, zeroed once (the kernels leave their counters zero) */
        const cudaError_t ae = cudaMallocAsync(&d_work, ws, s);
        if (ae == cudaErrorMemoryAllocation) {
            (void)cudaGetLastError();
            return sl_lib_fail(SUMLAB_ENOMEM, err, "sumlab_reduce_rows_device: %zu bytes of device scratch: %s", ws,
                               cudaGetErrorString(ae));
        }
        LIB_CK(ae, (void)0);
        LIB_CK(cudaMemsetAsync(d_work, 0, ws, s), (void)cudaFreeAsync(d_work, s));
    }
    sl_err le = {{0}};
    int rc = sl_rows_gpu_xy(v, d_x, d_y, y_stride, rows, n, dt, &cfg, d_work, ws, d_results, stream, &le);
    if (d_work) LIB_CK(cudaFreeAsync(d_work, s), (void)0);
    if (rc) {
        if (err) memcpy(err->msg, le.msg, sizeof err->msg);
        return strstr(le.msg, "cudaError") ? SUMLAB_ECUDA : SUMLAB_EINVAL;
    }
    return SUMLAB_OK;
#endif
}

/* The one-input forms. */
sumlab_status sumlab_reduce_rows_host_ex(const char *op, const sumlab_params *params, const char *variant,
                                         const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                                         const sumlab_launch *launch, double *results, sl_err *err)
{
    return sumlab_reduce_rows_xy_host_ex(op, params, variant, x, NULL, 0, rows, n, dt, launch, results, err);
}

sumlab_status sumlab_reduce_rows_device_ex(const char *op, const sumlab_params *params,
                                           const char *variant, const void *d_x, uint64_t rows,
                                           uint64_t n, sl_dtype dt, const sumlab_launch *launch,
                                           void *d_results, void *stream, sl_err *err)
{
    return sumlab_reduce_rows_xy_device_ex(op, params, variant, d_x, NULL, 0, rows, n, dt, launch, d_results,
                                           stream, err);
}

/* gpu_stub.c: the sl_gpu.h API for builds without a CUDA compiler: no GPU, and every call
 * fails with "sumlab was built without CUDA". */
#include <stdlib.h>
#include "sl_gpu.h"

#define SL_NO_CUDA "sumlab was built without CUDA"

struct sl_gpu_ctx { int unused; };

int sl_gpu_compiled(void) { return 0; }

int sl_gpu_device_count(void) { return 0; }

void *sl_gpu_host_alloc(size_t bytes) { (void)bytes; return NULL; }
void sl_gpu_host_free(void *p) { (void)p; }

int sl_gpu_available(sl_gpu_info *info, sl_err *why)
{
    (void)info;
    sl_err_set(why, "no GPU: " SL_NO_CUDA);
    return 0;
}

int sl_gpu_check_fits(uint64_t n, sl_dtype dt, sl_err *err)
{
    (void)n; (void)dt;
    return sl_err_set(err, "no GPU: sumlab was built without CUDA");
}

int sl_gpu_ctx_create(sl_gpu_ctx **ctx, const void *x, uint64_t n, sl_dtype dt, uint32_t offset,
                      sl_err *err)
{
    (void)x; (void)n; (void)dt; (void)offset;
    if (ctx) *ctx = NULL;
    return sl_err_set(err, SL_NO_CUDA);
}

void sl_gpu_ctx_destroy(sl_gpu_ctx *ctx) { (void)ctx; }

int sl_gpu_ctx_set_y(sl_gpu_ctx *ctx, const void *y, sl_err *err)
{
    (void)ctx; (void)y;
    return sl_err_set(err, SL_NO_CUDA);
}

int sl_gpu_ctx_run(sl_gpu_ctx *ctx, const sl_variant *v, sl_launch *cfg, int reps, int flags,
                   double *results, double *times_ms, sl_err *err)
{
    (void)ctx; (void)v; (void)cfg; (void)reps; (void)flags; (void)results; (void)times_ms;
    return sl_err_set(err, SL_NO_CUDA);
}

int sl_gpu_ctx_run_n(sl_gpu_ctx *ctx, const sl_variant *v, uint64_t n, sl_launch *cfg, int reps,
                     int flags, double *results, double *times_ms, sl_err *err)
{
    (void)n;
    return sl_gpu_ctx_run(ctx, v, cfg, reps, flags, results, times_ms, err);
}

int sl_gpu_ctx_read_ceiling(sl_gpu_ctx *ctx, int reps, int flags, double *times_ms, sl_err *err)
{
    (void)ctx; (void)reps; (void)flags; (void)times_ms;
    return sl_err_set(err, SL_NO_CUDA);
}

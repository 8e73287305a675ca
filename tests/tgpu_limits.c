/* tgpu_limits.c (label gpu): a request larger than device memory is one clear error naming the
 * size (no allocation tried, nothing read from the host buffer), and a kernel that fails
 * (an illegal address) is reported with the variant's name. The failing kernel runs last: it
 * leaves the CUDA context unusable. Returns 77 without a GPU. */
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_gpu.h"
#include "sl_variants.h"

static const sl_variant *real;

/* vec4's launcher on a device address that holds nothing: the kernel faults. */
static int broken_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                      void *d_work, size_t work_bytes, void *d_result, void *stream, sl_err *err)
{
    (void)d_x;
    return real->gpu(v, (const void *)(uintptr_t)0x10000, n, dt, cfg, d_work, work_bytes, d_result, stream, err);
}

int main(void)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) {
        printf("tgpu_limits: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    /* 1. too large for the device: 2^36 float32 = 256 GiB (the buffer is never read) */
    float small[4] = {1, 2, 3, 4};
    sl_gpu_ctx *ctx = NULL;
    sl_err err = {{0}};
    const uint64_t huge = (uint64_t)1 << 36;
    int rc = sl_gpu_ctx_create(&ctx, small, huge, SL_F32, 0, &err);
    CHECK(rc != 0 && ctx == NULL, "an input of 256 GiB was accepted");
    CHECK(strstr(err.msg, "n = 68719476736 float32 values (256.00 GiB) do not fit in the memory of") != NULL,
          "the message names the size: %s", err.msg);
    CHECK(strchr(err.msg, '\n') == NULL, "one line: %s", err.msg);
    CHECK(sl_gpu_check_fits(huge, SL_F64, &err) != 0 && strstr(err.msg, "float64 values (512.00 GiB)"),
          "float64: %s", err.msg);
    CHECK(sl_gpu_check_fits(1u << 20, SL_F32, &err) == 0, "1 Mi values fit: %s", err.msg);

    /* 2. a kernel failure names the variant */
    real = sl_variant_find("vec4");
    CHECK(real && real->gpu, "vec4 has a kernel");
    if (!real || !real->gpu) return sl_test_done("tgpu_limits");
    sl_variant broken = *real;
    broken.name = "vec4-broken";
    broken.gpu = broken_gpu;
    const uint64_t n = (uint64_t)1 << 24;
    float *x = calloc((size_t)n, sizeof *x);
    rc = x ? sl_gpu_ctx_create(&ctx, x, n, SL_F32, 0, &err) : -1;
    CHECK(rc == 0, "upload: %s", err.msg);
    if (rc == 0) {
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        double r[1];
        memset(&err, 0, sizeof err);
        rc = sl_gpu_ctx_run(ctx, &broken, &cfg, 1, 0, r, NULL, &err);
        CHECK(rc != 0, "a faulting kernel reported success (%a)", r[0]);
        CHECK(!strncmp(err.msg, "vec4-broken: ", 13), "the error names the variant: %s", err.msg);
        CHECK(strstr(err.msg, "cudaErrorIllegalAddress") != NULL || strstr(err.msg, "failed") != NULL,
              "the error says what failed: %s", err.msg);
        printf("tgpu_limits: the failure reads: %s\n", err.msg);
    }
    free(x);   /* the context is not destroyed: after a fault the CUDA context is unusable */
    return sl_test_done("tgpu_limits");
}

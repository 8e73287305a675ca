/* tdot_gpu.c (label gpu): dot on the GPU through the harness's two buffers: the cuBLAS anchor
 * (cublasSdot / Ddot / DotEx) within its bound of the exact dot in every format, `correct` equal
 * to the reference's bits, and a two-input variant refused without its second buffer. Returns 77
 * without a GPU. */
#include <math.h>
#include "sl_dot.h"
#include "sl_gpu.h"
#include "sl_measure.h"
#include "tdot_common.h"

int main(void)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) {
        printf("tdot_gpu: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    sl_test_rng = sl_test_seed();
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const uint64_t ns[] = {0, 1, 1000, (1u << 20) + 7};
    const uint64_t nmax = (1u << 20) + 7;
    void *x = malloc(nmax * 8), *y = malloc(nmax * 8);
    const sl_variant *cub = sl_variant_find_op("dot", "cublas"), *cor = sl_variant_find_op("dot", "correct");
    CHECK(cub && cub->gpu2 && cor && cor->gpu2, "dot has the cublas and correct kernels");
    for (int d = 0; cub && cor && d < 4; d++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            const sl_dtype dt = dts[d];
            const uint64_t n = ns[k];
            td_fill(x, y, n, dt, TD_RANDOM);
            sl_reference ref;
            sl_err err = {{0}};
            CHECK(sl_reference_dot(&ref, x, y, n, dt, 1, &err) == 0, "reference: %s", err.msg);
            sl_gpu_ctx *ctx = NULL;
            int rc = sl_gpu_ctx_create(&ctx, x, n, dt, 0, &err);
            CHECK(rc == 0, "ctx: %s", err.msg);
            if (rc) { sl_reference_clear(&ref); continue; }
            sl_launch cfg = {0};
            double r[2];
            /* no second buffer yet: a clear refusal */
            CHECK(sl_gpu_ctx_run(ctx, cub, &cfg, 1, 0, r, NULL, &err) != 0 && strstr(err.msg, "two arrays"),
                  "cublas without y: '%s'", err.msg);
            CHECK(sl_gpu_ctx_set_y(ctx, y, &err) == 0, "set_y: %s", err.msg);
            memset(&cfg, 0, sizeof cfg);
            rc = sl_gpu_ctx_run(ctx, cub, &cfg, 2, 0, r, NULL, &err);
            CHECK(rc == 0, "cublas %s n=%llu: %s", sl_dtype_name(dt), (unsigned long long)n, err.msg);
            if (!rc) {
                const double b = sl_variant_bound(cub, &ref, n, dt, &cfg);
                const sl_errors e = sl_reference_errors(&ref, r[0], dt);
                CHECK(e.abs_err <= b, "cublas %s n=%llu: error %g above the bound %g (%a, exact %a)",
                      sl_dtype_name(dt), (unsigned long long)n, e.abs_err, b, r[0], ref.rounded);
                CHECK(r[0] == r[1] || (isnan(r[0]) && isnan(r[1])), "cublas %s: two runs differ", sl_dtype_name(dt));
            }
            memset(&cfg, 0, sizeof cfg);
            rc = sl_gpu_ctx_run(ctx, cor, &cfg, 2, 0, r, NULL, &err);
            CHECK(rc == 0, "correct %s n=%llu: %s", sl_dtype_name(dt), (unsigned long long)n, err.msg);
            if (!rc)
                CHECK(r[0] == ref.rounded && r[1] == ref.rounded, "correct %s n=%llu: GPU %a, reference %a",
                      sl_dtype_name(dt), (unsigned long long)n, r[0], ref.rounded);
            sl_gpu_ctx_destroy(ctx);
            sl_reference_clear(&ref);
        }
    free(x);
    free(y);
    return sl_test_done("tdot_gpu");
}

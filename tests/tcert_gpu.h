/* tcert_gpu.h: the check tdot_cert_gpu and tnorm_cert_gpu share: `correct`'s GPU result equals
 * its CPU twin bit for bit (NaN equals NaN) under several launch shapes and a misaligned start. */
#ifndef TCERT_GPU_H
#define TCERT_GPU_H
#include <math.h>
#include <string.h>
#include "sl_gpu.h"
#include "sl_test.h"
#include "sl_variants.h"

static inline uint64_t tc_bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* v on x[0, n) (and y[0, n) for a two-input variant; NULL for one input): the twin's result,
 * then two runs on the GPU for each launch shape (the misaligned start: the resolved shape
 * only), each a CHECK that it equals the twin's bits. */
static inline void tc_gpu_equals_twin(const char *what, const sl_variant *v, const void *x, const void *y,
                                      uint64_t n, sl_dtype dt)
{
    double want = 0.0;
    sl_err err = {{0}};
    const void *xs[2] = {x, y};
    sl_launch c0;
    memset(&c0, 0, sizeof c0);
    if (sl_variant_cpu_in(v, xs, n, dt, &c0, &want, &err)) {
        CHECK(0, "%s %s: twin: %s", what, sl_dtype_name(dt), err.msg);
        return;
    }
    static const sl_launch cfgs[] = {{.block = 0}, {.block = 32, .grid = 1}, {.block = 1024, .grid = 1000},
                                     {.block = 96, .grid = 7}};
    for (uint32_t offset = 0; offset < 2; offset++) {
        sl_gpu_ctx *ctx = NULL;
        if (sl_gpu_ctx_create(&ctx, x, n, dt, offset, &err) || (y && sl_gpu_ctx_set_y(ctx, y, &err))) {
            CHECK(0, "%s %s: ctx: %s", what, sl_dtype_name(dt), err.msg);
            sl_gpu_ctx_destroy(ctx);
            return;
        }
        for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
            if (offset && c) continue;               /* misaligned: the resolved shape only */
            sl_launch cfg = cfgs[c];
            double r[2] = {0, 0};
            if (sl_gpu_ctx_run(ctx, v, &cfg, 2, 0, r, NULL, &err)) {
                CHECK(0, "%s %s n=%llu: run: %s", what, sl_dtype_name(dt), (unsigned long long)n, err.msg);
                continue;
            }
            for (int k = 0; k < 2; k++)
                CHECK(tc_bits64(r[k]) == tc_bits64(want) || (isnan(r[k]) && isnan(want)),
                      "%s %s n=%llu offset %u block %u grid %u rep %d: GPU %a != twin %a", what,
                      sl_dtype_name(dt), (unsigned long long)n, offset, cfg.block, cfg.grid, k, r[k], want);
        }
        sl_gpu_ctx_destroy(ctx);
    }
}
#endif

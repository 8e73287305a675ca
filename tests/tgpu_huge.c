/* tgpu_huge.c (label gpu): n = 2^32 + 5 float32 values, past every 32-bit index, through vec4,
 * multipass, kahan (each equal to its twin bit for bit) and superacc (equal to the exact sum
 * rounded once, and to its twin). Needs ~17 GiB of host and device memory; returns 77 without
 * a GPU. The twins run at full size (about a minute on 16 cores). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_datasets.h"
#include "sl_gpu.h"
#include "sl_reference.h"
#include "sl_variants.h"

int main(void)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) {
        printf("tgpu_huge: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    const uint64_t n = ((uint64_t)1 << 32) + 5;
    const sl_dtype dt = SL_F32;
    const sl_dataset *ds = sl_dataset_find("uniform-sym");
    sl_params p;
    sl_params_defaults(ds, &p);
    float *x = malloc((size_t)n * sizeof *x);
    if (!x) { CHECK(0, "out of host memory for n = %llu", (unsigned long long)n); return sl_test_done("tgpu_huge"); }
    sl_err err = {{0}};
    CHECK(sl_dataset_generate_threads(ds, dt, sl_test_seed(), n, &p, 0, n, x, 16, &err) == 0, "generate: %s", err.msg);
    sl_reference ref;
    CHECK(sl_reference_compute_threads(&ref, x, n, dt, 16, &err) == 0, "reference: %s", err.msg);
    sl_gpu_ctx *ctx = NULL;
    int rc = sl_gpu_ctx_create(&ctx, x, n, dt, 0, &err);
    CHECK(rc == 0, "upload of n = %llu: %s", (unsigned long long)n, err.msg);
    static const char *const names[] = {"vec4", "multipass", "kahan", "superacc"};
    for (size_t i = 0; rc == 0 && i < 4; i++) {
        const sl_variant *v = sl_variant_find(names[i]);
        CHECK(v && v->gpu && v->cpu, "%s has a kernel and a twin", names[i]);
        if (!v) continue;
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        double g[2], t = NAN;
        int gr = sl_gpu_ctx_run(ctx, v, &cfg, 2, 0, g, NULL, &err);
        CHECK(gr == 0, "%s at n = 2^32+5 on the GPU: %s", v->name, err.msg);
        if (gr) continue;
        int tr = sl_variant_cpu(v, x, n, dt, &cfg, &t, &err);
        CHECK(tr == 0, "%s twin at n = 2^32+5: %s", v->name, err.msg);
        for (int r = 0; r < 2 && tr == 0; r++)
            CHECK(!memcmp(&g[r], &t, sizeof t), "%s n = 2^32+5 (block %u grid %u items %u): GPU %a != twin %a",
                  v->name, cfg.block, cfg.grid, cfg.items, g[r], t);
        if (!strcmp(v->name, "superacc"))
            CHECK(g[0] == ref.rounded, "superacc n = 2^32+5: GPU %a != exact sum rounded %a", g[0], ref.rounded);
        printf("tgpu_huge: %s: GPU %a, twin %a, exact %a\n", v->name, g[0], t, ref.rounded);
    }
    sl_gpu_ctx_destroy(ctx);
    sl_reference_clear(&ref);
    free(x);
    return sl_test_done("tgpu_huge");
}

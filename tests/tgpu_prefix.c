/* tgpu_prefix.c (label gpu): sl_gpu_ctx_run_n, the study's warm-up on a prefix, leaves nothing
 * behind. For every variant with a kernel and every format it takes: a run on the first m values
 * of an uploaded input equals the run on a context holding only those m values (deterministic
 * variants, bit for bit, and equals the twin on the configuration it resolved), and a run of
 * the whole input after two prefix runs equals the whole input's run on a fresh context (the
 * shared workspace, its counters and tickets, survive a smaller grid). Nondeterministic
 * variants must run and stay within their bound, where they have one. Returns 77 without a GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_datasets.h"
#include "sl_gpu.h"
#include "sl_measure.h"
#include "sl_reference.h"
#include "sl_variants.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* One result of v on ctx over its first m values (0: all), cfg resolved into *cfg. */
static int run1(sl_gpu_ctx *ctx, const sl_variant *v, uint64_t m, sl_launch *cfg, double *r, sl_err *err)
{
    memset(cfg, 0, sizeof *cfg);
    return m ? sl_gpu_ctx_run_n(ctx, v, m, cfg, 1, 0, r, NULL, err) : sl_gpu_ctx_run(ctx, v, cfg, 1, 0, r, NULL, err);
}

int main(void)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) {
        printf("tgpu_prefix: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const uint64_t n = ((uint64_t)1 << 21) + 12345, m = ((uint64_t)1 << 16) + 3;
    const sl_dataset *ds = sl_dataset_find("uniform-sym");
    CHECK(ds != NULL, "dataset uniform-sym");
    if (!ds) return sl_test_done("tgpu_prefix");
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        const sl_dtype dt = dts[d];
        const size_t es = sl_dtype_size(dt);
        void *x = malloc((size_t)n * es);
        sl_params p;
        sl_params_defaults(ds, &p);
        sl_err err = {{0}};
        sl_gpu_ctx *whole = NULL, *head = NULL;
        int rc = x ? sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, x, &err) : -1;
        CHECK(rc == 0, "%s: generate: %s", sl_dtype_name(dt), err.msg);
        sl_reference ref;
        int have_ref = rc == 0 && sl_reference_compute(&ref, x, m, dt, &err) == 0;
        if (rc == 0) rc = sl_gpu_ctx_create(&whole, x, n, dt, 0, &err) || sl_gpu_ctx_create(&head, x, m, dt, 0, &err);
        CHECK(rc == 0 && have_ref, "%s: upload or reference: %s", sl_dtype_name(dt), err.msg);
        for (size_t i = 0; rc == 0 && have_ref && i < sl_variant_count(); i++) {
            const sl_variant *v = sl_variant_at(i);
            if (!v->gpu || !(v->dtypes & SL_DTYPE_MASK(dt)) || (v->max_n && n > v->max_n)) continue;
            const int det = v->determinism != SL_DET_NONDETERMINISTIC;
            sl_gpu_ctx *fresh = NULL;
            sl_launch c_full0, c_pre, c_head, c_full;
            double full0, pre[2], hd, full;
            int r1 = sl_gpu_ctx_create(&fresh, x, n, dt, 0, &err) || run1(fresh, v, 0, &c_full0, &full0, &err);
            sl_gpu_ctx_destroy(fresh);
            int r2 = r1 || run1(whole, v, m, &c_pre, &pre[0], &err) || run1(whole, v, m, &c_pre, &pre[1], &err) ||
                     run1(head, v, 0, &c_head, &hd, &err) || run1(whole, v, 0, &c_full, &full, &err);
            CHECK(r1 == 0 && r2 == 0, "%s %s: a run failed: %s", v->name, sl_dtype_name(dt), err.msg);
            if (r1 || r2) continue;
            if (det) {
                CHECK(same_bits(pre[0], hd) && same_bits(pre[1], hd),
                      "%s %s: prefix of %llu on the whole upload %a, %a != on its own upload %a", v->name,
                      sl_dtype_name(dt), (unsigned long long)m, pre[0], pre[1], hd);
                CHECK(same_bits(full, full0), "%s %s: whole input after two prefix runs %a != fresh %a",
                      v->name, sl_dtype_name(dt), full, full0);
                double t;
                if (v->cpu && sl_variant_cpu(v, x, m, dt, &c_pre, &t, &err) == 0)
                    CHECK(same_bits(pre[0], t), "%s %s: prefix run %a != twin %a (block %u grid %u)", v->name,
                          sl_dtype_name(dt), pre[0], t, c_pre.block, c_pre.grid);
            } else {
                const double b = sl_variant_bound(v, &ref, m, dt, &c_pre);
                for (int k = 0; k < 2 && !isnan(b); k++)   /* (NaN: a variant without a bound) */
                    CHECK(sl_reference_errors(&ref, pre[k], dt).abs_err <= b, "%s %s: prefix run %a outside its bound %g",
                          v->name, sl_dtype_name(dt), pre[k], b);
            }
        }
        if (have_ref) sl_reference_clear(&ref);
        sl_gpu_ctx_destroy(head);
        sl_gpu_ctx_destroy(whole);
        free(x);
    }
    return sl_test_done("tgpu_prefix");
}

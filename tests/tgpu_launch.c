/* tgpu_launch.c: the launch-config experiment's points on the GPU (label gpu): at every point the
 * experiment sweeps (every variant, block, grid, items, accumulators, vec4's load widths, base
 * offset 0/4/8/12 bytes, n and n - 1), float32 and bfloat16, the kernel's result equals its CPU twin's bits for the
 * resolved configuration, and lies within that configuration's bound. Grids are those of the
 * device's SM count and of 4 SMs (many waves). Every variant that takes accumulators per thread
 * (grid-stride, vec4, kahan) must have run its points with 2, 4 and 8 of them (the quick set
 * too). kahan's kernel attributes (registers, resident blocks, occupancy) are readable at each
 * of its points. Returns 77 without a GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_datasets.h"
#include "sl_gpu.h"
#include "sl_reference.h"
#include "sl_study.h"
#include "accuracy/accuracy.h"

#define MAXP 160

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }

int main(void)
{
    sl_gpu_info info;
    sl_err why = {{0}};
    if (!sl_gpu_available(&info, &why)) {
        printf("tgpu_launch: skipped (%s)\n", why.msg);
        return SL_TEST_SKIP;
    }
    static const sl_dtype dts[] = {SL_F32, SL_BF16};
    const char *quick = getenv("SUMLAB_TEST_QUICK");
    const uint64_t ns[] = {(uint64_t)1 << 12, ((uint64_t)1 << 20) + 3, (uint64_t)1 << 22};
    const size_t nns = quick && *quick && strcmp(quick, "0") ? 2 : 3;
    const uint32_t sms[] = {(uint32_t)info.sm_count, 4};
    const sl_dataset *ds = sl_dataset_find("uniform-sym");
    CHECK(ds != NULL, "dataset uniform-sym missing");
    if (!ds) return sl_test_done("tgpu_launch");
    sl_lc_point pts[MAXP];
    long runs = 0;
    static const char *const with_accs[] = {"grid-stride", "vec4", "kahan"};
    unsigned accs_run[3] = {0, 0, 0};   /* per variant: the accumulator counts > 1 that ran */
    for (size_t t = 0; t < 2; t++)
        for (size_t k = 0; k < nns; k++) {
            const sl_dtype dt = dts[t];
            const uint64_t n = ns[k];
            const uint32_t es = (uint32_t)sl_dtype_size(dt);
            void *x = malloc(n * es);
            sl_err err = {{0}};
            if (!x || sl_dataset_generate(ds, dt, sl_test_seed(), n, NULL, 0, n, x, &err)) {
                CHECK(0, "input not generated: %s", err.msg);
                free(x);
                continue;
            }
            for (uint32_t off = 0; off < 16; off += 4)
                for (int tail = 0; tail < 2; tail++) {
                    const uint64_t m = tail ? n - 1 : n;
                    sl_gpu_ctx *ctx = NULL;
                    if (sl_gpu_ctx_create(&ctx, x, m, dt, off / es, &err)) {
                        CHECK(0, "upload failed: %s", err.msg);
                        continue;
                    }
                    sl_reference ref;
                    if (sl_reference_compute(&ref, x, m, dt, &err)) {
                        CHECK(0, "reference failed: %s", err.msg);
                        sl_gpu_ctx_destroy(ctx);
                        continue;
                    }
                    for (size_t vi = 0; sl_lc_variant_name(vi); vi++) {
                        const sl_variant *v = sl_variant_find_op("sum", sl_lc_variant_name(vi));
                        if (!v || !v->gpu || !v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                        for (size_t s = 0; s < 2; s++) {
                            size_t np = sl_lc_points(v->name, sms[s], pts, MAXP);
                            if (np > MAXP) np = MAXP;
                            for (size_t i = 0; i < np; i++) {
                                if (pts[i].offset != off || pts[i].tail != tail) continue;
                                char label[96];
                                sl_lc_label(&pts[i], label, sizeof label);
                                sl_launch cfg;
                                sl_lc_request(v, &pts[i], 1, &cfg, dt);
                                cfg.addr_mod = 0;   /* the harness sets it from the pointer */
                                if (sms[s] != (uint32_t)info.sm_count) cfg.sm_count = sms[s];
                                double r[2], tw = NAN;
                                int rc = sl_gpu_ctx_run(ctx, v, &cfg, 2, 0, r, NULL, &err);
                                runs++;
                                for (int a = 0; a < 3; a++)
                                    if (rc == 0 && cfg.accs > 1 && !strcmp(v->name, with_accs[a]))
                                        accs_run[a] |= cfg.accs;
                                CHECK(rc == 0, "%s %s n=%llu %s: GPU run failed: %s", v->name,
                                      sl_dtype_name(dt), (unsigned long long)m, label, err.msg);
                                if (rc) continue;
                                CHECK(cfg.addr_mod % 16 == pts[i].offset, "%s %s: addr_mod %u", v->name, label, cfg.addr_mod);
                                if (!strcmp(v->name, "kahan")) { /* its kernel's resource use is readable */
                                    struct { int regs, blocks_per_sm; double occupancy; } ka = {0, 0, 0.0};
                                    CHECK(sl_accuracy_kernel_attrs(v, m, dt, &cfg, &ka.regs, &ka.blocks_per_sm,
                                                                   &ka.occupancy, &err) == 0 && ka.regs > 0 &&
                                              ka.blocks_per_sm >= 1 && ka.occupancy > 0 && ka.occupancy <= 1,
                                          "kahan %s %s: kernel attributes (regs %d, blocks %d): %s", sl_dtype_name(dt),
                                          label, ka.regs, ka.blocks_per_sm, err.msg);
                                }
                                rc = sl_variant_cpu(v, x, m, dt, &cfg, &tw, &err);
                                CHECK(rc == 0, "%s %s: twin failed: %s", v->name, label, err.msg);
                                if (rc) continue;
                                for (int j = 0; j < 2; j++)
                                    CHECK(same_bits(r[j], tw),
                                          "%s %s n=%llu %s (block %u grid %u items %u accs %u width %u "
                                          "addr_mod %u): GPU %a != twin %a", v->name, sl_dtype_name(dt),
                                          (unsigned long long)m, label, cfg.block, cfg.grid, cfg.items,
                                          cfg.accs, cfg.width, cfg.addr_mod, r[j], tw);
                                const double b = sl_variant_bound(v, &ref, m, dt, &cfg);
                                const sl_errors e = sl_reference_errors(&ref, r[0], dt);
                                CHECK(e.abs_err <= b, "%s %s n=%llu %s: error %g > bound %g", v->name,
                                      sl_dtype_name(dt), (unsigned long long)m, label, e.abs_err, b);
                            }
                        }
                    }
                    sl_reference_clear(&ref);
                    sl_gpu_ctx_destroy(ctx);
                }
            free(x);
        }
    printf("tgpu_launch: %ld GPU points\n", runs);
    for (int a = 0; a < 3; a++)
        CHECK(accs_run[a] == (2u | 4u | 8u), "%s: accumulator counts run %#x, not 2, 4 and 8", with_accs[a],
              accs_run[a]);
    CHECK(runs > 1000, "only %ld GPU points run", runs);
    return sl_test_done("tgpu_launch");
}

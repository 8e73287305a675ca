/* tgpu_determinism.c: determinism classes hold on the GPU (label gpu): every deterministic
 * variant gives one bit pattern in 50 runs (f32 and f64, n = 2^24+1 and a small n); the
 * config-independent ones (and stronger) also give the same bits across launch configurations
 * (grid, block, sm_count requests); the order-independent ones (and stronger: reproducible,
 * superacc, cub-gpu-to-gpu) also give the same bits on permuted copies of the input (reversed,
 * shuffled), uploaded misaligned, under other launch requests. Returns 77 without a GPU.
 * SUMLAB_TEST_QUICK=1: 10 runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_datasets.h"
#include "sumlab/half.h"
#include "sl_gpu.h"
#include "sl_variants.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Values with wide exponents and both signs, so that any change of order changes the bits. */
static void fill(void *x, uint64_t n, sl_dtype dt, uint64_t seed)
{
    for (uint64_t i = 0; i < n; i++) {
        double u = sl_rng_unit(seed, 7, i) - 0.5;
        int ex = (int)(sl_rng_u64(seed, 8, i) % 40u) - 20;
        double v = ldexp(u, sl_dtype_is_half(dt) ? ex / 4 : ex);   /* 16-bit: |v| < 2^5 */
        if (dt == SL_F64) ((double *)x)[i] = v;
        else if (sl_dtype_is_half(dt)) ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
        else ((float *)x)[i] = (float)v;
    }
}

/* x permuted into xp: kind 0 reversed, otherwise a Fisher-Yates shuffle seeded by kind. */
static void permute(const void *x, void *xp, uint64_t n, sl_dtype dt, int kind)
{
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < n; i++)
        memcpy((char *)xp + i * es, (const char *)x + (kind == 0 ? n - 1 - i : i) * es, es);
    if (kind == 0) return;
    char tmp[8];
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = sl_rng_u64(sl_test_seed() + (uint64_t)kind, 11, i) % i;
        memcpy(tmp, (char *)xp + (i - 1) * es, es);
        memcpy((char *)xp + (i - 1) * es, (char *)xp + j * es, es);
        memcpy((char *)xp + j * es, tmp, es);
    }
}

/* The order-independent variant v gives `first` on permuted, misaligned copies of x. */
static void check_permutations(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                               double first, const sl_launch *reqs, size_t nreqs)
{
    void *xp = malloc((size_t)n * sl_dtype_size(dt));
    if (!xp) return;
    for (int kind = 0; kind < 3; kind++) {
        permute(x, xp, n, dt, kind);
        sl_gpu_ctx *ctx;
        sl_err err;
        if (sl_gpu_ctx_create(&ctx, xp, n, dt, (uint32_t)kind, &err)) {
            CHECK(0, "%s permutation ctx: %s", v->name, err.msg);
            continue;
        }
        for (size_t c = 0; c < nreqs; c += 2) {
            sl_launch req = reqs[(c + (size_t)kind) % nreqs];
            double rr[2];
            int rc = sl_gpu_ctx_run(ctx, v, &req, 2, 0, rr, NULL, &err);
            CHECK(rc == 0, "%s permutation %d: %s", v->name, kind, err.msg);
            if (rc) continue;
            CHECK(same_bits(rr[0], first) && same_bits(rr[1], first),
                  "%s %s n=%llu: order-independent variant differs on permutation %d (offset %d, "
                  "block %u grid %u): %a vs %a", v->name, sl_dtype_name(dt),
                  (unsigned long long)n, kind, kind, req.block, req.grid, rr[0], first);
        }
        sl_gpu_ctx_destroy(ctx);
    }
    free(xp);
}

int main(void)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) {
        printf("tgpu_determinism: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    const char *q = getenv("SUMLAB_TEST_QUICK");
    const int quick = q && *q && strcmp(q, "0") != 0;
    const int runs = quick ? 10 : 50;
    const uint64_t ns[] = {1000, ((uint64_t)1 << 24) + 1};
    /* launch requests: grid / block / sm_count (0 = the variant's or the device's default) */
    const sl_launch reqs[] = {{.block = 0},
                              {.block = 64, .grid = 3},
                              {.block = 1024},
                              {.block = 96, .sm_count = 7},
                              {.block = 256, .grid = 1000},
                              {.block = 512, .sm_count = 300},
                              {.block = 32, .grid = 1, .sm_count = 1}};
    const size_t nreqs = sizeof reqs / sizeof *reqs;
    double *r = malloc((size_t)runs * sizeof *r);
    if (!r) return 1;
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
            const uint64_t n = quick && k ? ((uint64_t)1 << 18) + 1 : ns[k];
            void *x = malloc((size_t)n * sl_dtype_size(dt));
            if (!x) return 1;
            fill(x, n, dt, sl_test_seed());
            sl_gpu_ctx *ctx;
            sl_err err;
            if (sl_gpu_ctx_create(&ctx, x, n, dt, 0, &err)) {
                CHECK(0, "ctx: %s", err.msg);
                free(x);
                continue;
            }
            for (size_t vi = 0; vi < sl_variant_count(); vi++) {
                const sl_variant *v = sl_variant_at(vi);
                if (!v->gpu || v->determinism == SL_DET_NONDETERMINISTIC) continue;
                if (!(v->dtypes & SL_DTYPE_MASK(dt)) || (v->max_n && n > v->max_n)) continue;
                sl_launch cfg;
                memset(&cfg, 0, sizeof cfg);
                int rc = sl_gpu_ctx_run(ctx, v, &cfg, runs, 0, r, NULL, &err);
                CHECK(rc == 0, "%s: %s", v->name, err.msg);
                if (rc) continue;
                int distinct = 1;
                for (int i = 1; i < runs; i++)
                    if (!same_bits(r[i], r[0])) distinct = 2;
                CHECK(distinct == 1, "%s %s n=%llu: more than one result in %d runs (first %a)",
                      v->name, sl_dtype_name(dt), (unsigned long long)n, runs, r[0]);
                if (v->determinism < SL_DET_CONFIG_INDEPENDENT) continue;
                const double first = r[0];
                for (size_t c = 0; c < nreqs; c++) {
                    sl_launch req = reqs[c];
                    double rr[2];
                    rc = sl_gpu_ctx_run(ctx, v, &req, 2, 0, rr, NULL, &err);
                    CHECK(rc == 0, "%s config %zu: %s", v->name, c, err.msg);
                    if (rc) continue;
                    CHECK(same_bits(rr[0], first) && same_bits(rr[1], first),
                          "%s %s n=%llu: config-independent variant differs under request %zu "
                          "(resolved block %u grid %u sm_count %u): %a vs %a",
                          v->name, sl_dtype_name(dt), (unsigned long long)n, c, req.block, req.grid,
                          req.sm_count, rr[0], first);
                }
                if (v->determinism >= SL_DET_ORDER_INDEPENDENT)
                    check_permutations(v, x, n, dt, first, reqs, nreqs);
            }
            sl_gpu_ctx_destroy(ctx);
            free(x);
            /* progress on stderr (unbuffered): a run stopped by a time cap still shows how far it
             * got and that no check had failed by then */
            fprintf(stderr, "tgpu_determinism: %s n=%llu done: %ld checks, %ld failed so far\n",
                    sl_dtype_name(dt), (unsigned long long)n, sl_test_checks, sl_test_failures);
        }
    }
    free(r);
    return sl_test_done("tgpu_determinism");
}

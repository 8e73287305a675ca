/* tnorm_cert_gpu.c (label gpu): `correct` norm2 on the GPU (the cheap first pass, exact/pairsum.h:
 * a plain float64 sum of the squares for float32/16-bit and the TwoProduct pair for float64, the
 * root certified by exact midpoint tests; the exact kernel behind it, its programmatic dependent
 * launch, when it cannot decide) equals its CPU twin (correctly rounded: tnorm_twins) bit for bit
 * on nrm2-table, huge, tiny, sq-overflow, uniform and normal data, all zeros (the fallback) and
 * NaN/Inf, under several launch shapes and a misaligned start; decided and undecided arrays
 * alternate on one workspace (the gate shut after each fallback). It prints per format how many
 * arrays the first pass decides (its twin, sl_psum_norm_host, for the resolved launch) and how
 * many went through the exact kernel, and requires the first pass to decide the uniform and
 * normal arrays and the exact fallback to have run. Returns 77 without a GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_gpu.h"
#include "sl_measure.h"
#include "sl_norm.h"
#include "sl_variants.h"
#include "sl_datasets.h"
#include "sl_test_values.h"
#include "tdot_common.h"
#include "tcert_gpu.h"
#include "exact/pairsum.h"

static int n_fallback, n_cheap;

/* 1 when the first pass decides x for the resolved default launch (its twin). */
static int check_one(const char *what, const void *x, uint64_t n, sl_dtype dt)
{
    const sl_variant *v = sl_variant_find_op("norm2", "correct");
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    sl_variant_resolve(v, &cfg, n, dt);
    double pr;
    const int cheap = sl_psum_norm_host(x, n, dt, &cfg, &pr) > 0;
    n_cheap += cheap;
    n_fallback += !cheap;
    tc_gpu_equals_twin(what, v, x, NULL, n, dt);
    return cheap;
}

/* Undecided and decided calls alternating on one context (one workspace, never zeroed between
 * them): x[0, nz) zeros (the first pass cannot decide: the exact kernel runs and shuts the gate),
 * x[0, n) zeros and normal values (decided by the first pass, the exact launch idle); each result
 * equals its twin's bits. */
static void check_alternating(void *x, uint64_t n, uint64_t nz, sl_dtype dt)
{
    const sl_variant *v = sl_variant_find_op("norm2", "correct");
    for (uint64_t i = 0; i < n; i++) td_store(x, dt, i, i < nz ? 0.0 : sl_test_gauss());
    sl_err err = {{0}};
    sl_gpu_ctx *ctx = NULL;
    if (sl_gpu_ctx_create(&ctx, x, n, dt, 0, &err)) {
        CHECK(0, "alternating %s: ctx: %s", sl_dtype_name(dt), err.msg);
        return;
    }
    for (int k = 0; k < 6; k++) {
        const uint64_t m = k % 2 ? n : nz;
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        double r[2] = {0, 0}, want = 0.0;
        if (sl_gpu_ctx_run_n(ctx, v, m, &cfg, 2, 0, r, NULL, &err) ||
            sl_variant_cpu(v, x, m, dt, &cfg, &want, &err)) {
            CHECK(0, "alternating %s n=%llu: %s", sl_dtype_name(dt), (unsigned long long)m, err.msg);
            break;
        }
        double pr;
        const int cheap = sl_psum_norm_host(x, m, dt, &cfg, &pr) > 0;
        CHECK(cheap == (m == n), "alternating %s n=%llu: the first pass %s", sl_dtype_name(dt),
              (unsigned long long)m, cheap ? "decided the zeros" : "left the normal values");
        for (int j = 0; j < 2; j++)
            CHECK(tc_bits64(r[j]) == tc_bits64(want), "alternating %s n=%llu call %d rep %d: GPU %a != twin %a",
                  sl_dtype_name(dt), (unsigned long long)m, k, j, r[j], want);
    }
    sl_gpu_ctx_destroy(ctx);
}

int main(void)
{
    sl_err why = {{0}};
    if (!sl_gpu_available(NULL, &why)) {
        printf("tnorm_cert_gpu: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    sl_test_rng = sl_test_seed();
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const uint64_t nmax = (1u << 18) + 5;
    void *x = malloc(nmax * 8);
    const char *fams[] = {"nrm2-table", "huge", "tiny", "sq-overflow"};
    char what[96];
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        const int f0 = n_fallback, h0 = n_cheap;
        for (int f = 0; f < 4; f++) {
            const sl_dataset *ds = sl_dataset_find(fams[f]);
            CHECK(ds != NULL, "%s exists", fams[f]);
            if (!ds) continue;
            const int ncase = f == 0 ? 100 : 2;      /* nrm2-table: x(1) x scale, 10 x 10 */
            for (int c = 0; c < ncase; c++) {
                sl_params p;
                sl_params_defaults(ds, &p);
                sl_err err = {{0}};
                if (f == 0) {                        /* the enum values themselves */
                    p.v[0] = (double)(c % 10);
                    p.v[1] = (double)(c / 10);
                }
                const uint64_t n = c % 2 ? nmax : 1000 + (uint64_t)c;
                if (sl_dataset_generate(ds, dt, sl_test_seed() + (uint64_t)c, n, &p, 0, n, x, &err)) {
                    CHECK(0, "%s: %s", fams[f], err.msg);
                    continue;
                }
                snprintf(what, sizeof what, "%s case %d", fams[f], c);
                check_one(what, x, n, dt);
            }
        }
        for (uint64_t i = 0; i < nmax; i++) td_store(x, dt, i, td_unit());
        CHECK(check_one("uniform", x, nmax, dt), "%s uniform: decided by the first pass", sl_dtype_name(dt));
        for (uint64_t i = 0; i < nmax; i++) td_store(x, dt, i, sl_test_gauss());
        CHECK(check_one("normal", x, nmax, dt), "%s normal: decided by the first pass", sl_dtype_name(dt));
        for (uint64_t i = 0; i < 5000; i++) td_store(x, dt, i, i % 2 ? 0.0 : -0.0);
        check_one("zeros", x, 5000, dt);
        td_store(x, dt, 77, NAN);
        check_one("a NaN", x, 5000, dt);
        td_store(x, dt, 78, -INFINITY);
        check_one("NaN and -Inf", x, 5000, dt);
        check_one("empty", x, 0, dt);
        check_alternating(x, nmax, 5000, dt);
        printf("tnorm_cert_gpu %s: %d arrays decided by the first pass, %d through the exact fallback\n",
               sl_dtype_name(dt), n_cheap - h0, n_fallback - f0);
    }
    printf("tnorm_cert_gpu: %d arrays decided by the first pass (its twin), %d through the exact fallback\n",
           n_cheap, n_fallback);
    CHECK(n_cheap > 0 && n_fallback > 0, "the first pass and the exact fallback ran (first %d, fallback %d)",
          n_cheap, n_fallback);
    free(x);
    return sl_test_done("tnorm_cert_gpu");
}

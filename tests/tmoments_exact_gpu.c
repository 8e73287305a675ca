/* tmoments_exact_gpu.c: the `correct` mean, var and std kernels on the GPU give the exact
 * reference's rounded bits (reference/sl_moments.c) on every dataset family in every format,
 * ddof 0 and 1, under several launch configurations and a misaligned input, on the large-mean
 * arrays the certificate is for and on arrays where it must fail. float32 and 16-bit input run
 * the certified binned pass and, when it cannot decide, the exact kernel behind it: the test
 * counts the cases whose certificate fails (mx_cert.h's CPU model: the decision is a function
 * of the multiset of inputs) and requires both paths to run; var/std run mx_fast.h's cheap
 * pass before them (its CPU model's counts are printed). Label gpu: 77 without a GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_datasets.h"
#include "sl_gpu.h"
#include "sl_reference.h"
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_variants.h"
#include "sumlab/half.h"
#include "moments_exact/mx_cert.h"
#include "moments_exact/mx_fast.h"

static const char *const ops[] = {"mean", "var", "std"};
static long runs, cert, fallback;
static long fcert, ffall;   /* var/std: mx_fast.h's cheap pass (the twin's chunked order) */

static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static int same_bits(double a, double b)
{
    if (a != a || b != b) return a != a && b != b;
    return bits64(a) == bits64(b);
}
static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }
static double gauss(void)
{
    const double u = unif() + 0x1p-54, w = unif();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * w);
}

/* x on the GPU (offset 0 and 1 elements), every op, ddof 0 and 1, three launch shapes (the
 * default: float64 var/std blocks of 1024, the rest 256; a small grid; block 1024, which takes
 * the exact kernel alone on float32/16-bit input and the cheap pass first on float64), two runs
 * each (the workspace and the gate left clean). */
static void check_gpu(const void *x, uint64_t n, sl_dtype dt, const char *what)
{
    static const uint32_t shapes[][2] = {{0, 0}, {64, 3}, {1024, 40}};
    sl_err err = {{0}};
    for (int o = 0; o < 3; o++)
        for (uint32_t ddof = 0; ddof < (o ? 2u : 1u); ddof++) {
            const sl_variant *v = sl_variant_find_op(ops[o], "correct");
            CHECK(v != NULL, "no %s/correct", ops[o]);
            if (!v) return;
            sl_reference ref;
            const sl_moment m = o == 0 ? SL_MOMENT_MEAN : o == 1 ? SL_MOMENT_VAR : SL_MOMENT_STD;
            if (sl_reference_moment(&ref, m, x, n, dt, ddof, 1, &err)) {
                CHECK(0, "reference %s %s: %s", ops[o], what, err.msg);
                continue;
            }
            if (dt != SL_F64 && n) {
                double r;
                if (sl_mxc_certify(o, x, n, ddof, dt, &r)) cert++;
                else fallback++;
                if (o != SL_MX_MEAN) {
                    if (sl_mxf_certify_host(o, x, n, ddof, dt, &r)) fcert++;
                    else ffall++;
                }
            }
            for (uint32_t off = 0; off < 2; off++) {
                sl_gpu_ctx *ctx = NULL;
                if (sl_gpu_ctx_create(&ctx, x, n, dt, off, &err)) {
                    CHECK(0, "ctx_create: %s", err.msg);
                    continue;
                }
                for (int s = 0; s < 3; s++) {
                    sl_launch cfg;
                    memset(&cfg, 0, sizeof cfg);
                    cfg.block = shapes[s][0];
                    cfg.grid = shapes[s][1];
                    cfg.ddof = ddof;
                    double res[2] = {0, 0};
                    if (sl_gpu_ctx_run(ctx, v, &cfg, 2, 0, res, NULL, &err)) {
                        CHECK(0, "%s/correct %s %s n=%llu: run: %s", ops[o], what,
                              sl_dtype_name(dt), (unsigned long long)n, err.msg);
                        continue;
                    }
                    for (int r = 0; r < 2; r++)
                        CHECK(same_bits(res[r], ref.rounded),
                              "%s/correct %s %s n=%llu ddof=%u offset %u block %u grid %u rep %d: "
                              "GPU %a (0x%016llx), the reference %a", ops[o], what, sl_dtype_name(dt),
                              (unsigned long long)n, ddof, off, cfg.block, cfg.grid, r, res[r],
                              (unsigned long long)bits64(res[r]), ref.rounded);
                    runs++;
                }
                sl_gpu_ctx_destroy(ctx);
            }
            sl_reference_clear(&ref);
        }
}

int main(void)
{
    sl_gpu_info info;
    sl_err err = {{0}};
    if (!sl_gpu_available(&info, &err)) {
        printf("tmoments_exact_gpu: skipped: %s\n", err.msg);
        return SL_TEST_SKIP;
    }
    sl_test_rng = sl_test_seed();
    static const sl_dtype fmts[] = {SL_F32, SL_F16, SL_BF16, SL_F64};
    enum { N = 65539, NB = (1 << 20) + 7 };
    void *buf = malloc((size_t)NB * 8);
    /* every dataset family, every format */
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        for (size_t f = 0; f < 4; f++) {
            sl_params p;
            if (sl_test_params(ds, fmts[f], &p, &err)) continue;
            const int rc = sl_dataset_generate(ds, fmts[f], sl_test_seed() + i, N, &p, 0, N, buf, &err);
            if (sl_test_half_overflow(fmts[f], rc, &err)) continue;
            CHECK(rc == 0, "%s %s: %s", ds->name, sl_dtype_name(fmts[f]), err.msg);
            if (!rc) check_gpu(buf, N, fmts[f], ds->name);
        }
    }
    /* the large-mean family (the certificate must decide it) and 2^20 + 7 values of N(0, 1) */
    float *xf = buf;
    for (int i = 0; i < NB; i++) xf[i] = (float)(1e6 + gauss());
    check_gpu(xf, NB, SL_F32, "N(1e6, 1)");
    for (int i = 0; i < NB; i++) xf[i] = (float)(1e20 * (1.0 + 1e-3 * gauss()));
    check_gpu(xf, NB, SL_F32, "1e20 (1 + N(0, 1e-3))");
    for (int i = 0; i < NB; i++) xf[i] = (float)gauss();
    check_gpu(xf, NB, SL_F32, "N(0, 1)");
    uint16_t *xh = buf;
    for (int i = 0; i < NB; i++) xh[i] = sl_half_from_double(1e6 * (1.0 + 1e-2 * gauss()), SL_BF16);
    check_gpu(xh, NB, SL_BF16, "bfloat16 1e6 (1 + N(0, 1e-2))");
    /* forced fallbacks: a constant (variance exactly 0) and a survivor far below the cancelling
     * values (the mean's interval holds 0) */
    const long fb0 = fallback;
    for (int i = 0; i < NB; i++) xf[i] = 3.0f;
    check_gpu(xf, NB, SL_F32, "constant");
    for (int i = 0; i < N; i++) xf[i] = (i & 1) ? -0x1p100f : 0x1p100f;
    xf[N - 1] = 0x1p-100f;
    check_gpu(xf, N, SL_F32, "+-2^100 and 2^-100");
    CHECK(fallback - fb0 >= 3, "the forced cases fell back %ld times", fallback - fb0);
    CHECK(cert > 4 * fallback && fallback > 0, "certified %ld, fell back %ld: both paths must run",
          cert, fallback);
    printf("tmoments_exact_gpu: %ld runs on %s; float32/16-bit cases certified %ld, exact kernel %ld\n",
           runs, info.name, cert, fallback);
    printf("tmoments_exact_gpu: var/std cheap pass (mx_fast.h, CPU model) certified %ld, fell back %ld\n",
           fcert, ffall);
    free(buf);
    return sl_test_done("tmoments_exact_gpu");
}

/* tnorm_cert_gpu.c (label gpu): `correct` norm2 on the GPU (float32 and 16-bit: the certified
 * binned sum of the exact squares, the square root certified at both ends of the sum's interval,
 * the exact kernel behind it when they disagree; float64: the exact kernel) equals its CPU twin
 * (correctly rounded: tnorm_twins) bit for bit on nrm2-table, huge, tiny, sq-overflow, uniform
 * data, all zeros (the fallback) and NaN/Inf, under several launch shapes and a misaligned start.
 * It prints how many arrays took the fallback (tcert_common.h's prediction) and requires both
 * paths to have run. Returns 77 without a GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_gpu.h"
#include "sl_measure.h"
#include "sl_norm.h"
#include "sl_variants.h"
#include "sl_datasets.h"
#include "tdot_common.h"
#include "tcert_common.h"
#include "tcert_gpu.h"
#include "exact/pairsum.h"

static int n_cert, n_fallback, n_cheap;

static void check_one(const char *what, const void *x, uint64_t n, sl_dtype dt)
{
    const sl_variant *v = sl_variant_find_op("norm2", "correct");
    if (dt != SL_F64) {
        double *a = malloc((n ? n : 1) * sizeof *a);
        for (uint64_t i = 0; i < n; i++) a[i] = td_load(x, dt, i);
        double pr;
        n_cheap += sl_psum_certify_host(x, NULL, n, dt, &pr) != 0;   /* the cheap pass (host model) */
        if (tc_predict(a, NULL, n, dt, 1)) n_cert++;
        else n_fallback++;
        free(a);
    }
    tc_gpu_equals_twin(what, v, x, NULL, n, dt);
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
        const int c0 = n_cert, f0 = n_fallback;
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
        check_one("uniform", x, nmax, dt);
        for (uint64_t i = 0; i < 5000; i++) td_store(x, dt, i, i % 2 ? 0.0 : -0.0);
        check_one("zeros", x, 5000, dt);
        td_store(x, dt, 77, NAN);
        check_one("a NaN", x, 5000, dt);
        td_store(x, dt, 78, -INFINITY);
        check_one("NaN and -Inf", x, 5000, dt);
        check_one("empty", x, 0, dt);
        printf("tnorm_cert_gpu %s: %d arrays certified, %d through the fallback\n", sl_dtype_name(dt),
               n_cert - c0, n_fallback - f0);
    }
    printf("tnorm_cert_gpu: %d arrays certified by the binned sum, %d through the exact fallback "
           "(float32, 16-bit)\n", n_cert, n_fallback);
    printf("tnorm_cert_gpu: %d arrays decided by the cheap pair-sum pass first (its host model)\n", n_cheap);
    CHECK(n_cert > 0 && n_fallback > 0, "both paths ran (certified %d, fallback %d)", n_cert, n_fallback);
    free(x);
    return sl_test_done("tnorm_cert_gpu");
}

/* tdot_cert_gpu.c (label gpu): `correct` dot on the GPU (the certified binned sum of the exact
 * products, the exact kernel behind it when the certificate cannot decide) equals its CPU twin
 * bit for bit (the twin is correctly rounded: tdot_twins) on adversarial pairs in every format:
 * dot-cond up to cond 1e40, dot-overflow, the wide/cancel/ill/smallint/tiny families, exactly
 * cancelling pairs (a zero sum: the fallback), NaN and Inf products, float64 products outside
 * [2^-968, 2^1000) (td_window_case: the exact kernel's scaled windows), under several launch shapes
 * and a misaligned start. It prints how many arrays took the fallback (tcert_common.h's
 * prediction) and requires both paths to have run. Returns 77 without a GPU. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_dot.h"
#include "sl_gpu.h"
#include "sl_measure.h"
#include "sl_datasets.h"
#include "tdot_common.h"
#include "tcert_common.h"
#include "tcert_gpu.h"
#include "exact/pairsum.h"

static int n_cert, n_fallback, n_cheap, n_after_cheap;

static void check_pair(const char *what, const void *x, const void *y, uint64_t n, sl_dtype dt)
{
    const sl_variant *v = sl_variant_find_op("dot", "correct");
    double *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    for (uint64_t i = 0; i < n; i++) { a[i] = td_load(x, dt, i); b[i] = td_load(y, dt, i); }
    double pr;
    const int cheap = sl_psum_certify_host(x, y, n, dt, &pr) != 0;   /* the cheap pass (host model) */
    n_cheap += cheap;
    if (tc_predict(a, b, n, dt)) {
        n_cert++;
        n_after_cheap += !cheap;
    } else {
        n_fallback++;
    }
    free(a);
    free(b);
    tc_gpu_equals_twin(what, v, x, y, n, dt);
}

int main(void)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) {
        printf("tdot_cert_gpu: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    sl_test_rng = sl_test_seed();
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const uint64_t nmax = (1u << 18) + 5;
    void *x = malloc(nmax * 8), *y = malloc(nmax * 8);
    char what[96], what_buf[160];
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        const int c0 = n_cert, f0 = n_fallback;
        /* tdot_common.h's families at two sizes */
        for (int fam = 0; fam < TD_NFAM; fam++)
            for (int s = 0; s < 2; s++) {
                const uint64_t n = s ? nmax : 1000 + (uint64_t)fam;
                td_fill(x, y, n, dt, fam);
                snprintf(what, sizeof what, "%s", td_fam_name[fam]);
                check_pair(what, x, y, n, dt);
            }
        /* datasets/gen_dot.c: dot-cond at cond 1e0 .. 1e40 (the format's reach), dot-overflow */
        const int cond_emax[4] = {30, 40, 4, 30};
        const sl_dataset *dc = sl_dataset_find("dot-cond"), *dov = sl_dataset_find("dot-overflow");
        CHECK(dc && dov, "dot-cond and dot-overflow exist");
        for (int e = 0; dc && dov && e <= cond_emax[d] + 3; e += 2) {
            const int over = e > cond_emax[d];
            const sl_dataset *ds = over ? dov : dc;
            sl_params p;
            sl_params_defaults(ds, &p);
            char kv[64];
            if (!over) snprintf(kv, sizeof kv, "cond=1e%d", e);
            else snprintf(kv, sizeof kv, "kind=%d", (e - cond_emax[d]) % 3);
            sl_err err = {{0}};
            CHECK(sl_params_set(ds, &p, kv, &err) == 0, "%s: %s", kv, err.msg);
            const uint64_t n = (e % 4 == 0) ? 4096 : (1u << 16) + 3;
            if (sl_dataset_generate_pair(ds, dt, sl_test_seed() + (uint64_t)e, n, &p, x, y, 1, &err)) {
                CHECK(0, "%s %s: %s", ds->name, kv, err.msg);
                continue;
            }
            snprintf(what, sizeof what, "%s %s", ds->name, kv);
            check_pair(what, x, y, n, dt);
        }
        /* exact cancellation: (v, w), (-v, w) pairs: a zero sum, never certified (the fallback) */
        const uint64_t nc = 1u << 17;
        td_fill(x, y, nc, dt, TD_CANCEL);
        check_pair("exact cancellation", x, y, nc, dt);
        /* an all -0 product set: -0 (the exact kernel's sign rule) */
        for (uint64_t i = 0; i < 100; i++) { td_store(x, dt, i, -0.0); td_store(y, dt, i, 1.0); }
        check_pair("negative zeros", x, y, 100, dt);
        /* a NaN product (Inf * 0) and an Inf product among ordinary ones */
        td_fill(x, y, 5000, dt, TD_RANDOM);
        td_store(x, dt, 4321, INFINITY);
        check_pair("an Inf factor", x, y, 5000, dt);
        td_store(y, dt, 4321, 0.0);
        check_pair("Inf times 0", x, y, 5000, dt);
        /* products beyond the format (float64: |x y| >= 2^1024 and finite inputs) */
        td_fill(x, y, 3000, dt, TD_RANDOM);
        const double big = dt == SL_F64 ? 0x1.8p1023 : dt == SL_F32 ? 0x1p127 : dt == SL_F16 ? 60000.0 : 0x1p127;
        td_store(x, dt, 17, big);
        td_store(y, dt, 17, dt == SL_F64 ? 1.5 : big);
        td_store(x, dt, 18, -big);
        td_store(y, dt, 18, dt == SL_F64 ? 1.5 : big);
        check_pair("huge cancelling products", x, y, 3000, dt);
        check_pair("empty", x, y, 0, dt);
        printf("tdot_cert_gpu %s: %d arrays certified, %d through the fallback\n", sl_dtype_name(dt),
               n_cert - c0, n_fallback - f0);
    }
    /* float64 products outside [2^-968, 2^1000) (the exact kernel's scaled windows, dot.h): each
     * case as it is, with two cancelling products of 2^1200 appended (the certified passes
     * decline: the exact kernel decides), and the mixed random case repeated over 2^18 elements
     * (every block's windows flushed) */
    for (int k = 0; k < TD_NWIN; k++) {
        const char *what;
        double *dx = x, *dy = y;
        uint64_t n = td_window_case(k, dx, dy, &what);
        check_pair(what, x, y, n, SL_F64);
        n = td_append_cancelling_huge(dx, dy, n);
        snprintf(what_buf, sizeof what_buf, "%s, 2^1200 products appended", what);
        check_pair(what_buf, x, y, n, SL_F64);
    }
    {
        double *dx = x, *dy = y;
        uint64_t n = 0;
        const char *what;
        while (n + TD_WIN_MAX <= (1u << 18)) n += td_window_case(14, dx + n, dy + n, &what);
        check_pair("random mixed windows, 2^18", x, y, n, SL_F64);
        n = td_append_cancelling_huge(dx, dy, n);
        check_pair("random mixed windows, 2^18, 2^1200 products appended", x, y, n, SL_F64);
    }
    printf("tdot_cert_gpu: %d arrays certified by the binned sum, %d through the exact fallback\n",
           n_cert, n_fallback);
    printf("tdot_cert_gpu: %d arrays decided by the cheap pair-sum pass first (its host model), %d of "
           "those it leaves by the binned sum\n", n_cheap, n_after_cheap);
    CHECK(n_cert > 0 && n_fallback > 0, "both paths ran (certified %d, fallback %d)", n_cert, n_fallback);
    free(x);
    free(y);
    return sl_test_done("tdot_cert_gpu");
}

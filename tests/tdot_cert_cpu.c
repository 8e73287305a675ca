/* tdot_cert_cpu.c (label cpu): the arithmetic of the certified binned step of `correct` dot
 * (kernels/exact/certified.cuh, modelled on the host by tcert_common.h with the same
 * exact/binned.h state, ends and maps): whenever the certificate decides, its value equals the
 * correctly rounded twin's bits, in every format, on the families the GPU tests use; the
 * certificate decides on ordinary data (random: all formats) while an exact cancellation (an even
 * count of pairs) never certifies; and it decides arrays that the cheap pair-sum pass before it
 * (exact/pairsum.h, its host model) leaves (ill-conditioned pairs): the step earns its launch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_variants.h"
#include "sl_datasets.h"
#include "tdot_common.h"
#include "tcert_common.h"
#include "tdot_cases.h"
#include "exact/pairsum.h"

static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static int n_cert, n_total, n_after_cheap;

/* returns 1 when certified */
static int check(const char *what, const void *x, const void *y, uint64_t n, sl_dtype dt)
{
    double *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    for (uint64_t i = 0; i < n; i++) {
        a[i] = td_load(x, dt, i);
        b[i] = td_load(y, dt, i);
    }
    double c = 0.0, pr = 0.0;
    const int ok = tc_certify(a, b, n, dt, &c);
    free(a);
    free(b);
    n_total++;
    if (!ok) return 0;
    n_cert++;
    n_after_cheap += !sl_psum_certify_host(x, y, n, dt, &pr);
    const sl_variant *v = sl_variant_find_op("dot", "correct");
    double want = 0.0;
    sl_err err = {{0}};
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    const void *xs[2] = {x, y};
    CHECK(sl_variant_cpu_in(v, xs, n, dt, &cfg, &want, &err) == 0, "%s: twin: %s", what, err.msg);
    CHECK(bits64(c) == bits64(want), "dot %s %s n=%llu: certified %a != correctly rounded %a", what,
          sl_dtype_name(dt), (unsigned long long)n, c, want);
    return 1;
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const uint64_t n = 20000;
    void *x = malloc(n * 8), *y = malloc(n * 8);
    char what[96];
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        for (int fam = 0; fam < TD_NFAM; fam++)
            for (int rep = 0; rep < 3; rep++) {
                td_fill(x, y, n - (uint64_t)rep, dt, fam);
                snprintf(what, sizeof what, "%s", td_fam_name[fam]);
                const int c = check(what, x, y, n - (uint64_t)rep, dt);
                if (fam == TD_RANDOM) CHECK(c, "dot random %s: certified", sl_dtype_name(dt));
                if (fam == TD_CANCEL && rep != 1) CHECK(!c, "dot exact cancellation %s: not certified", sl_dtype_name(dt));
            }
        const int cond_emax[4] = {30, 40, 4, 30};
        CHECK(sl_dataset_find("dot-cond") != NULL, "dot-cond exists");
        for (int e = 0; e <= cond_emax[d]; e++) {
            sl_err err = {{0}};
            if (td_cond_case(dt, e, 4000, x, y, &err)) {
                CHECK(0, "dot-cond: %s", err.msg);
                continue;
            }
            snprintf(what, sizeof what, "dot-cond 1e%d", e);
            check(what, x, y, 4000, dt);
        }
    }
    /* float64 products outside [2^-968, 2^1000): tails below 2^-1074 lost by TwoProduct (the
     * bound keeps n units of 2^-1074 when the lowest fold is position 0), overflowing products */
    int win_cert = 0;
    for (int k = 0; k < TD_NWIN; k++) {
        const char *what;
        const uint64_t m = td_window_case(k, x, y, &what);
        win_cert += check(what, x, y, m, SL_F64);
    }
    printf("tdot_cert_cpu: %d of %d window cases certified\n", win_cert, TD_NWIN);
    CHECK(win_cert > 0, "a window case certified");
    printf("tdot_cert_cpu: %d of %d arrays certified, each equal to the correctly rounded twin; %d of "
           "them left by the cheap pair-sum pass\n", n_cert, n_total, n_after_cheap);
    CHECK(n_after_cheap > 0, "the binned step decides arrays the cheap pass leaves (%d)", n_after_cheap);
    free(x);
    free(y);
    return sl_test_done("tdot_cert_cpu");
}

/* tnorm_fast.c (label cpu): exact/pairsum.h's cheap certified first pass of the `correct` norm2
 * (squares summed as a Fast2Sum pair, a rigorous error box, sqrt bounded outward in float64, each
 * bound rounded to the format) on float32, bfloat16 and float16: whenever it certifies, its value
 * is the exact reference's correctly rounded norm (GNU MPFR) on random data, the norm families
 * (nrm2-table, huge, tiny, sq-overflow), subnormals and a scale fuzz; random data certifies in
 * every format; zeros, NaN and Inf never; float64 is never certified here; exact ties of the
 * format (Pythagorean triples whose hypotenuse has one bit more than the format) never certify,
 * and pairs pushed to 0.99 of the bound certify only the reference's value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_variants.h"
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_norm.h"
#include "tdot_common.h"
#include "tdot_cases.h"
#include "exact/pairsum.h"

static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static long n_cert, n_total, pushed_cert, pushed_total, tie_cert;

static int reference(const void *x, uint64_t n, sl_dtype dt, double *out)
{
    sl_reference ref;
    sl_err err = {{0}};
    if (sl_reference_norm2(&ref, x, n, dt, 1, &err)) {
        CHECK(0, "reference: %s", err.msg);
        return 0;
    }
    *out = ref.rounded;
    sl_reference_clear(&ref);
    return 1;
}

static int check(const char *what, const void *x, uint64_t n, sl_dtype dt)
{
    double r = 0.0, want;
    n_total++;
    if (!sl_psum_certify_host(x, NULL, n, dt, &r)) return 0;
    n_cert++;
    if (reference(x, n, dt, &want))
        CHECK(bits64(r) == bits64(want), "norm2 %s %s n=%llu: certified %a != correctly rounded %a",
              what, sl_dtype_name(dt), (unsigned long long)n, r, want);
    return 1;
}

/* the accumulator of x pushed by 0.99 of its bound (both signs); tie: the norm is a tie of dt */
static void push_check(const void *x, uint64_t n, sl_dtype dt, int tie)
{
    sl_psum_acc t0;
    const uint64_t h = (uint64_t)1 << 20;
    sl_psum_sums_host(x, NULL, n, dt, &t0);
    double E, want;
    if (!sl_psum_bound(&t0, n, h, &E) || !reference(x, n, dt, &want)) return;
    for (int sg = 0; sg < 2; sg++) {
        sl_psum_acc t = t0;
        t.c = t0.c + (sg ? -0.99 : 0.99) * E;
        double lo, hi, r;
        pushed_total++;
        sl_psum_ends_host(&t, E, dt, 1, &lo, &hi);
        if (sl_psum_decide(lo, hi, &r)) {
            pushed_cert++;
            tie_cert += tie;
            CHECK(bits64(r) == bits64(want), "pushed (%d) %s n=%llu: %a, the reference %a", sg,
                  sl_dtype_name(dt), (unsigned long long)n, r, want);
        }
    }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16};
    const uint64_t n = 20000;
    void *x = malloc(n * 8);
    for (int d = 0; d < 3; d++) {
        const sl_dtype dt = dts[d];
        for (int rep = 0; rep < 3; rep++) {
            for (uint64_t i = 0; i < n - (uint64_t)rep; i++) td_store(x, dt, i, td_unit());
            CHECK(check("random", x, n - (uint64_t)rep, dt), "norm2 random %s: certified", sl_dtype_name(dt));
        }
        for (int f = 0; f < TD_NORM_FAMS; f++) {
            CHECK(sl_dataset_find(td_norm_fam[f]) != NULL, "%s exists", td_norm_fam[f]);
            for (int c = 0; c < td_norm_cases(f); c++) {
                sl_err err = {{0}};
                if (td_norm_case(f, c, dt, 1000, x, &err)) continue;
                check(td_norm_fam[f], x, 1000, dt);
            }
        }
        for (int it = 0; it < 60; it++) {            /* scales over the format's range */
            const uint64_t m = 1 + sl_test_rand64() % 3000;
            const int em = dt == SL_F16 ? 12 : 200;
            for (uint64_t i = 0; i < m; i++)
                td_store(x, dt, i, td_unit() * exp2((double)(int)(sl_test_rand64() % (uint64_t)em) - em / 2));
            check("fuzz", x, m, dt);
        }
        for (uint64_t i = 0; i < 1000; i++)          /* subnormal */
            td_store(x, dt, i, ldexp((double)(sl_test_rand64() % 64), dt == SL_F32 ? -149 : dt == SL_F16 ? -24 : -133));
        check("subnormal", x, 1000, dt);
        for (uint64_t i = 0; i < 1000; i++) td_store(x, dt, i, 0.0);
        CHECK(!check("zeros", x, 1000, dt), "norm2 of zeros %s: not certified", sl_dtype_name(dt));
        td_store(x, dt, 5, NAN);
        CHECK(!check("a NaN", x, 1000, dt), "norm2 with a NaN %s: not certified", sl_dtype_name(dt));
        td_store(x, dt, 5, INFINITY);
        CHECK(!check("an Inf", x, 1000, dt), "norm2 with an Inf %s: not certified", sl_dtype_name(dt));
        /* ties: a = k^2 - l^2, b = 2 k l, hypotenuse k^2 + l^2 odd with p + 1 bits */
        const int p = dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
        int ties = 0;
        for (uint64_t k = 2; k < 5000 && ties < 60; k++)
            for (uint64_t l = 1 + (k & 1); l < k && ties < 60; l += 2 + 2 * (sl_test_rand64() % 7)) {
                const uint64_t m = k * k + l * l, a = k * k - l * l, b = 2 * k * l;
                if (m < ((uint64_t)1 << p) || m >= ((uint64_t)1 << (p + 1)) || a >= ((uint64_t)1 << p) ||
                    b >= ((uint64_t)1 << p))
                    continue;
                td_store(x, dt, 0, (double)a);
                td_store(x, dt, 1, (double)b);
                push_check(x, 2, dt, 1);
                ties++;
            }
        CHECK(ties > 0, "no tie built for %s", sl_dtype_name(dt));
        for (int it = 0; it < 200; it++) {           /* small integers: exact sums, pushed */
            const uint64_t m = 1 + sl_test_rand64() % 60;
            for (uint64_t i = 0; i < m; i++)
                td_store(x, dt, i, (double)((int)(sl_test_rand64() % 31) - 15));
            push_check(x, m, dt, 0);
        }
    }
    double r;
    const double y[3] = {3.0, 4.0, 12.0};
    CHECK(!sl_psum_certify_host(y, NULL, 3, SL_F64, &r), "float64 norm certified on the host");
    printf("tnorm_fast: %ld of %ld arrays certified, each the reference's bits; pushed %ld of %ld "
           "(ties %ld)\n", n_cert, n_total, pushed_cert, pushed_total, tie_cert);
    CHECK(tie_cert == 0, "a tie certified %ld times", tie_cert);
    CHECK(pushed_cert > 0, "no pushed accumulator certified");
    free(x);
    return sl_test_done("tnorm_fast");
}

/* tdot_fast.c (label cpu): exact/pairsum.h's cheap certified first pass of the `correct` dot product
 * (products summed as a Fast2Sum pair, a rigorous error box, exact rounding of its ends): whenever
 * it certifies, its value is the exact reference's correctly rounded dot (GNU MPFR), in every
 * format, on the dot test families, the dot-cond sweep (condition 1 .. 1e40) and a random fuzz;
 * it certifies the random family in every format and never an exact cancellation, a NaN or an
 * all-zero input; accumulators pushed to 0.99 of the bound certify only the reference's value;
 * exact ties of the format never certify, while a box a third as wide certifies a wrong value
 * somewhere (the test can see a box too narrow). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_variants.h"
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_dot.h"
#include "tdot_common.h"
#include "tdot_cases.h"
#include "exact/pairsum.h"

static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static long n_cert, n_total, pushed_cert, pushed_total, tie_cert, narrow_wrong;

static int reference(const void *x, const void *y, uint64_t n, sl_dtype dt, double *out)
{
    sl_reference ref;
    sl_err err = {{0}};
    if (sl_reference_dot(&ref, x, y, n, dt, 1, &err)) {
        CHECK(0, "reference: %s", err.msg);
        return 0;
    }
    *out = ref.rounded;
    sl_reference_clear(&ref);
    return 1;
}

/* 1 when certified (its value checked against the reference) */
static int check(const char *what, const void *x, const void *y, uint64_t n, sl_dtype dt)
{
    double r = 0.0, want;
    n_total++;
    if (!sl_psum_certify_host(x, y, n, dt, &r)) return 0;
    n_cert++;
    if (reference(x, y, n, dt, &want))
        CHECK(bits64(r) == bits64(want), "dot %s %s n=%llu: certified %a != correctly rounded %a",
              what, sl_dtype_name(dt), (unsigned long long)n, r, want);
    return 1;
}


/* acc pushed by 0.99 of its bound through c (4 ways); tie: the exact dot is a tie of dt. */
static void push_check(const void *x, const void *y, uint64_t n, sl_dtype dt, int tie)
{
    sl_psum_acc t0;
    const uint64_t h = (uint64_t)1 << 20;
    sl_psum_sums_host(x, y, n, dt, &t0);
    double E, want;
    if (!sl_psum_bound(&t0, n, h, &E) || !reference(x, y, n, dt, &want)) return;
    for (int sg = 0; sg < 2; sg++) {
        sl_psum_acc t = t0;
        t.c = t0.c + (sg ? -0.99 : 0.99) * E;
        double lo, hi, r;
        pushed_total++;
        sl_psum_ends_host(&t, E, dt, &lo, &hi);
        if (sl_psum_decide(lo, hi, &r)) {
            pushed_cert++;
            tie_cert += tie;
            CHECK(bits64(r) == bits64(want), "pushed (%d) %s n=%llu: %a, the reference %a", sg,
                  sl_dtype_name(dt), (unsigned long long)n, r, want);
        }
        sl_psum_ends_host(&t, E / 3, dt, &lo, &hi);
        if (sl_psum_decide(lo, hi, &r) && bits64(r) != bits64(want)) narrow_wrong++;
    }
}

static void pushed(void)
{
    const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    double buf[2][64];
    for (int it = 0; it < 800; it++) {                /* small integers: every sum exact */
        const sl_dtype dt = dts[it % 4];
        const uint64_t n = 2 + sl_test_rand64() % 60;
        const int span = dt == SL_F16 || dt == SL_BF16 ? 15 : 1000;
        for (uint64_t i = 0; i < n; i++) {
            td_store(buf[0], dt, i, (double)((int)(sl_test_rand64() % (2 * span + 1)) - span));
            td_store(buf[1], dt, i, (double)((int)(sl_test_rand64() % (2 * span + 1)) - span));
        }
        push_check(buf[0], buf[1], n, dt, 0);
    }
    for (int it = 0; it < 400; it++) {                /* ties: M + 1/2 with M of p bits */
        const sl_dtype dt = dts[it % 4];
        const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
        const double M = ldexp(1.0, p - 1) + (double)(sl_test_rand64() % ((uint64_t)1 << (p - 1)));
        const double k = ldexp(1.0, (int)(sl_test_rand64() % 5) - 2);
        td_store(buf[0], dt, 0, M * k);
        td_store(buf[0], dt, 1, 0.5 * k);
        td_store(buf[1], dt, 0, 1.0);
        td_store(buf[1], dt, 1, 1.0);
        push_check(buf[0], buf[1], 2, dt, 1);
    }
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
                if (fam == TD_CANCEL && rep != 1)
                    CHECK(!c, "dot exact cancellation %s: not certified", sl_dtype_name(dt));
            }
        CHECK(sl_dataset_find("dot-cond") != NULL, "dot-cond exists");
        for (int e = 0; e <= 40; e += 2) {
            sl_err err = {{0}};
            if (td_cond_case(dt, e, 4000, x, y, &err)) continue;   /* beyond the format's range */
            snprintf(what, sizeof what, "dot-cond 1e%d", e);
            check(what, x, y, 4000, dt);
        }
        for (int it = 0; it < 60; it++) {            /* fuzz: scales over the format's range */
            const uint64_t m = 1 + sl_test_rand64() % 3000;
            const int em = td_emax(dt);
            for (uint64_t i = 0; i < m; i++) {
                td_store(x, dt, i, td_unit() * exp2((double)(int)(sl_test_rand64() % (uint64_t)em) - em / 2));
                td_store(y, dt, i, td_unit() * exp2((double)(int)(sl_test_rand64() % (uint64_t)em) - em / 2));
            }
            check("fuzz", x, y, m, dt);
        }
        for (uint64_t i = 0; i < 1000; i++) {
            td_store(x, dt, i, 0.0);
            td_store(y, dt, i, 1.0);
        }
        CHECK(!check("zeros", x, y, 1000, dt), "dot of zeros %s: not certified", sl_dtype_name(dt));
        td_store(x, dt, 5, NAN);
        CHECK(!check("a NaN", x, y, 1000, dt), "dot with a NaN %s: not certified", sl_dtype_name(dt));
        td_store(x, dt, 5, INFINITY);
        CHECK(!check("an Inf", x, y, 1000, dt), "dot with an Inf %s: not certified", sl_dtype_name(dt));
    }
    /* float64 products outside [2^-968, 2^1000) (tails below 2^-1074, overflowing products): a
     * certified value is the reference's; overflowing products never certify */
    for (int k = 0; k < TD_NWIN; k++) {
        const char *what;
        const uint64_t m = td_window_case(k, x, y, &what);
        int over = 0;
        for (uint64_t i = 0; i < m; i++) over |= !isfinite(((double *)x)[i] * ((double *)y)[i]);
        const int c = check(what, x, y, m, SL_F64);
        if (over) CHECK(!c, "dot %s: an overflowing product, not certified", what);
    }
    pushed();
    printf("tdot_fast: %ld of %ld arrays certified, each the reference's bits; pushed %ld of %ld "
           "(ties %ld); a third of the box certified a wrong value %ld times\n", n_cert, n_total,
           pushed_cert, pushed_total, tie_cert, narrow_wrong);
    CHECK(tie_cert == 0, "a tie certified %ld times", tie_cert);
    CHECK(narrow_wrong > 0, "a box a third as wide never certified a wrong value");
    CHECK(pushed_cert > 0, "no pushed accumulator certified");
    free(x);
    free(y);
    return sl_test_done("tdot_fast");
}

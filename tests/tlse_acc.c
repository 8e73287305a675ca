/* tlse_acc.c: lse's `accurate` and `reproducible` twins against the exact reference
 * (reference/sl_lse.c): accurate within 1 ulp of the correctly rounded value for float32, float16
 * and bfloat16 input on every dataset family of the registry and on logits of every spread,
 * shifted, masked, dominant, all equal (worst ulps printed); float64 input correctly rounded where
 * |lse| >= 2^-18 and within 2^-70 of lse near 0 (the double-double form); reproducible the same
 * bits under reversal, sorting, shuffles, launch shapes and host-thread splits, within its bound,
 * its one-pass form equal to the log of its float32 terms' exact sum (MPFR) rounded to float64,
 * and its special values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_lse.h"
#include "sl_measure.h"
#include "sl_ops.h"
#include "sl_datasets.h"
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_test_values.h"
#include "sl_twin.h"
#include "sumlab/half.h"
#include "lse/lse.h"

static const sl_dtype dts[4] = {SL_F32, SL_F64, SL_F16, SL_BF16};
static const sl_operation *op;
static const sl_variant *acc, *rep;
static double worst_ulps[4], worst_ulps_big[4];   /* all, |lse| >= 1 */
static unsigned long accf_cases, accf_decided, rep1_cases, rep1_one;   /* the one-pass forms' paths */
static unsigned long tile_cases, tile_decided, accf16_decided;   /* SUMLAB_LSE_ACCF_TILE's first
                                                                    pass and the default's, 16-bit */

/* accurate's first pass (lse.h's SL_LSE_ACCF) in element order: whenever its state decides, the
 * value is the correctly rounded lse; reproducible's one-pass window counted */
static void check_first_pass(const void *x, uint64_t n, sl_dtype dt, const sl_reference *ref,
                             const char *what)
{
    double m = -INFINITY, s = 0.0, out = 0.0;
    float mn = -INFINITY;
    for (uint64_t i = 0; i < n; i++) {
        const float v = (float)sl_tw_load(x, dt, i);
        m = sl_lse_maxnan_d(m, v);
        s = s + (dt == SL_F32 ? sl_lse_accf_term(v, sl_lm_t64) : sl_lse_accf16_term(v));
        mn = sl_lse_maxnan_f(mn, v);
    }
    accf_cases++;
    if (sl_lse_accf_decide(m, s, (double)n, (double)n, dt, &out)) {
        accf_decided++;
        if (dt != SL_F32) accf16_decided++;
        CHECK(ref->finite && sl_test_same(out, ref->rounded), "accurate's first pass %s dt %s n %llu: "
              "decided %a, correctly rounded %a", what, sl_dtype_name(dt), (unsigned long long)n,
              out, ref->rounded);
    }
    /* SUMLAB_LSE_ACCF_TILE's form (16-bit input): tiles of at most 32 values summed in float32
     * (consecutive values here: the bound holds for any such grouping), decided with its theta */
    if (dt == SL_F16 || dt == SL_BF16) {
        double st = 0.0;
        float tv[32];
        for (uint64_t i = 0; i < n; i += 32) {
            const int c = n - i < 32 ? (int)(n - i) : 32;
            for (int k = 0; k < c; k++) tv[k] = (float)sl_tw_load(x, dt, i + (uint64_t)k);
            st = st + (double)sl_lse_accf16_tile(tv, c);
        }
        tile_cases++;
        if (sl_lse_accf_decide_th(m, st, (double)n, (double)n, dt, 0x1p-17 + SL_LSE_ACCF16_TILE_ERR, &out)) {
            tile_decided++;
            CHECK(ref->finite && sl_test_same(out, ref->rounded), "accurate's tiled first pass %s dt %s "
                  "n %llu: decided %a, correctly rounded %a", what, sl_dtype_name(dt),
                  (unsigned long long)n, out, ref->rounded);
        }
    }
    rep1_cases++;
    if (!sl_lse_rep1_ok((double)mn)) return;
    rep1_one++;
    /* reproducible's one pass: log of the float32 terms' exact sum (MPFR) rounded once to
     * float64, then to the input format */
    mpfr_t S;
    mpfr_init2(S, 1200);                             /* terms in [2^-148, 2^128), n < 2^40: exact */
    mpfr_set_zero(S, 1);
    for (uint64_t i = 0; i < n; i++)
        CHECK(mpfr_add_d(S, S, (double)sl_lse_rep1_termf((float)sl_tw_load(x, dt, i)), MPFR_RNDN) == 0,
              "%s: the terms' sum is not exact at 1200 bits", what);
    const double want = sl_tw_out((double)(float)sl_lm_log(mpfr_get_d(S, MPFR_RNDN)), dt);
    mpfr_clear(S);
    const double got = sl_test_cpu_run(rep, x, n, dt, 0, 0, NULL);
    CHECK(sl_test_same(got, want), "reproducible's one pass %s dt %s n %llu: %a, log of the exact sum %a",
          what, sl_dtype_name(dt), (unsigned long long)n, got, want);
}

static int fidx(sl_dtype dt) { return dt == SL_F32 ? 0 : dt == SL_F64 ? 1 : dt == SL_F16 ? 2 : 3; }

static unsigned long f64_cases; /* float64 cases with |lse| >= 2^-18 */

static double run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt, uint32_t block,
                  uint32_t grid)
{
    return sl_test_cpu_run(v, x, n, dt, block, grid, NULL);
}

/* accurate within 1 ulp (float32, 16-bit) and both within their bounds (every format), or the
 * reference's special value */
static void check(const void *x, uint64_t n, sl_dtype dt, const char *what)
{
    sl_reference ref;
    sl_err err = {0};
    CHECK(sl_reference_lse(&ref, x, n, dt, 1, &err) == 0, "%s: %s", what, err.msg);
    if (dt != SL_F64) check_first_pass(x, n, dt, &ref, what);
    const uint32_t shapes[2][2] = {{0, 0}, {64, 3}};
    for (int s = 0; s < 2; s++) {
        const double ra = run(acc, x, n, dt, shapes[s][0], shapes[s][1]);
        const double rr = run(rep, x, n, dt, shapes[s][0], shapes[s][1]);
        if (!ref.finite) {
            CHECK(sl_test_same(ra, ref.rounded) && sl_test_same(rr, ref.rounded), "%s dt %s: accurate %a, "
                  "reproducible %a, expected %a", what, sl_dtype_name(dt), ra, rr, ref.rounded);
            continue;
        }
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.block = shapes[s][0];
        cfg.grid = shapes[s][1];
        sl_variant_resolve(acc, &cfg, n, dt);
        const sl_errors ea = sl_reference_errors(&ref, ra, dt);
        const double ba = op->bound(acc, &ref, n, dt, &cfg);
        CHECK(ea.abs_err <= ba, "accurate %s dt %s n %llu: |%a - lse| = %g > bound %g", what,
              sl_dtype_name(dt), (unsigned long long)n, ra, ea.abs_err, ba);
        if (dt != SL_F64)
            CHECK(ea.ulps <= 1.0, "accurate %s dt %s n %llu: %a is %.3g ulps from lse %a", what,
                  sl_dtype_name(dt), (unsigned long long)n, ra, ea.ulps, ref.rounded);
        else if (fabs(ref.rounded_f64) >= 0x1p-18) { /* the double-double form: lse.h's sl_lse_acc_* */
            f64_cases++;
            CHECK(sl_test_same(ra, ref.rounded), "accurate %s float64 n %llu: %a, the correctly "
                  "rounded lse %a (%.3g ulps)", what, (unsigned long long)n, ra, ref.rounded, ea.ulps);
        } else /* lse near 0: m + log S cancels; absolute error below 2^-70 */
            CHECK(ea.abs_err <= 0x1p-70, "accurate %s float64 n %llu: |%a - lse| = %g > 2^-70",
                  what, (unsigned long long)n, ra, ea.abs_err);
        if (ea.ulps > worst_ulps[fidx(dt)]) worst_ulps[fidx(dt)] = ea.ulps;
        if (fabs(ref.rounded_f64) >= 1.0 && ea.ulps > worst_ulps_big[fidx(dt)])
            worst_ulps_big[fidx(dt)] = ea.ulps;
        sl_variant_resolve(rep, &cfg, n, dt);
        const sl_errors er = sl_reference_errors(&ref, rr, dt);
        const double br = op->bound(rep, &ref, n, dt, &cfg);
        CHECK(er.abs_err <= br, "reproducible %s dt %s n %llu: |%a - lse| = %g > bound %g", what,
              sl_dtype_name(dt), (unsigned long long)n, rr, er.abs_err, br);
    }
    sl_reference_clear(&ref);
}

static size_t esz(sl_dtype dt) { return sl_dtype_size(dt); }
static double getv(const void *x, sl_dtype dt, size_t i) { return sl_tw_load(x, dt, i); }
static sl_dtype cmp_dt;
static const void *cmp_x;
static int cmp_val(const void *a, const void *b)
{
    double u = getv(a, cmp_dt, 0), v = getv(b, cmp_dt, 0);
    (void)cmp_x;
    return (u > v) - (u < v);
}

/* reproducible: the same bits for every order and split of x */
static void check_orders(void *x, uint64_t n, sl_dtype dt, const char *what)
{
    const double r0 = run(rep, x, n, dt, 0, 0);
    const size_t w = esz(dt);
    unsigned char *y = malloc((size_t)n * w), tmp[8];
    CHECK(y != NULL, "memory");
    if (!y) return;
    for (uint64_t i = 0; i < n; i++) memcpy(y + i * w, (unsigned char *)x + (n - 1 - i) * w, w);
    const double rrev = run(rep, y, n, dt, 32, 7);
    cmp_dt = dt;
    qsort(y, (size_t)n, w, cmp_val);
    const double rsort = run(rep, y, n, dt, 1024, 1);
    for (uint64_t i = n; i > 1; i--) {   /* Fisher-Yates */
        const uint64_t j = sl_test_rand64() % i;
        memcpy(tmp, y + (i - 1) * w, w);
        memcpy(y + (i - 1) * w, y + j * w, w);
        memcpy(y + j * w, tmp, w);
    }
    const double rshuf = run(rep, y, n, dt, 96, 5);
    sl_twin_set_threads(3);
    const double rthr = run(rep, y, n, dt, 0, 0);
    sl_twin_set_threads(1);
    CHECK(sl_test_same(r0, rrev) && sl_test_same(r0, rsort) && sl_test_same(r0, rshuf) &&
              sl_test_same(r0, rthr),
          "reproducible %s dt %s n %llu: %a, reversed %a, sorted %a, shuffled %a, 3 threads %a", what,
          sl_dtype_name(dt), (unsigned long long)n, r0, rrev, rsort, rshuf, rthr);
    free(y);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    op = sl_op_find("lse");
    acc = sl_variant_find_op("lse", "accurate");
    rep = sl_variant_find_op("lse", "reproducible");
    CHECK(op && acc && rep, "lse, its accurate and reproducible variants are registered");
    if (!op || !acc || !rep) return sl_test_done("tlse_acc");
    CHECK(rep->determinism == SL_DET_ORDER_INDEPENDENT, "reproducible is order-independent");

    static unsigned char buf[8 * 140001];
    const uint64_t sizes[] = {1, 2, 33, 1000, 65539};
    const double sigmas[] = {0.1, 1.0, 3.0, 10.0, 30.0};
    for (int f = 0; f < 4; f++) {
        const sl_dtype dt = dts[f];
        for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
            for (size_t b = 0; b < sizeof sigmas / sizeof sigmas[0]; b++) {
                const uint64_t n = sizes[a];
                if (n > 1000 && b % 2) continue;
                const double sg = dt == SL_F16 ? sigmas[b] / 4.0 : sigmas[b];
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, sl_test_gauss() * sg);
                check(buf, n, dt, "logits");
                if (b == 2 && n > 2) check_orders(buf, n, dt, "logits");
                for (uint64_t i = 0; i < n; i++)
                    sl_test_put(buf, dt, i, sl_test_gauss() * sg + (dt == SL_F16 ? -8.0 : -200.0));
                check(buf, n, dt, "shifted down");
                for (uint64_t i = 0; i < n; i++)
                    sl_test_put(buf, dt, i, sl_test_gauss() * sg + (dt == SL_F16 ? 8.0 : 200.0));
                check(buf, n, dt, "shifted up");
                for (uint64_t i = 0; i < n; i++)
                    sl_test_put(buf, dt, i, sl_test_rand64() % 4 == 0 ? -INFINITY : sl_test_gauss() * sg);
                check(buf, n, dt, "masked");
                if (b == 2 && n > 2) check_orders(buf, n, dt, "masked");
                sl_test_put(buf, dt, n / 2, dt == SL_F16 ? 9.0 : 40.0);
                check(buf, n, dt, "dominant");
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, -0.5 * sg);
                check(buf, n, dt, "all equal");
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, 0.3 * (double)i / (double)n);
                check(buf, n, dt, "ascending");
            }
        /* all equal to -log(n) rounded to the format: lse near 0 (the final add cancels) */
        for (uint64_t i = 0; i < 1000; i++) sl_test_put(buf, dt, i, -log(1000.0));
        check(buf, 1000, dt, "all equal near -log n");
        /* more states than one twin task (reproducible's 65536): the host threads' split */
        for (uint64_t i = 0; i < 140001; i++) sl_test_put(buf, dt, i, sl_test_gauss() * 2.0);
        check_orders(buf, 140001, dt, "140001 logits");
        /* special values: NaN, +Inf, all -Inf, n = 0, one value among -Inf */
        for (int i = 0; i < 40; i++) sl_test_put(buf, dt, (size_t)i, -INFINITY);
        CHECK(sl_test_same(run(rep, buf, 0, dt, 0, 0), -INFINITY) &&
                  sl_test_same(run(acc, buf, 0, dt, 0, 0), -INFINITY),
              "n = 0 gives -Inf (dt %s)", sl_dtype_name(dt));
        CHECK(sl_test_same(run(rep, buf, 40, dt, 0, 0), -INFINITY), "all -Inf (dt %s)", sl_dtype_name(dt));
        sl_test_put(buf, dt, 21, 2.5);
        CHECK(sl_test_same(run(rep, buf, 40, dt, 0, 0), 2.5), "one 2.5 among -Inf (dt %s)",
              sl_dtype_name(dt));
        sl_test_put(buf, dt, 7, INFINITY);
        CHECK(sl_test_same(run(rep, buf, 40, dt, 0, 0), INFINITY), "+Inf (dt %s)", sl_dtype_name(dt));
        sl_test_put(buf, dt, 30, NAN);
        CHECK(isnan(run(rep, buf, 40, dt, 0, 0)), "NaN with +Inf (dt %s)", sl_dtype_name(dt));
        sl_test_put(buf, dt, 7, 1.0);
        CHECK(isnan(run(rep, buf, 40, dt, 0, 0)) && isnan(run(acc, buf, 40, dt, 0, 0)), "NaN (dt %s)",
              sl_dtype_name(dt));
    }
    /* every dataset family of the registry (default parameters, 16-bit ones fitted) */
    for (int f = 0; f < 4; f++)
        for (size_t di = 0; di < sl_dataset_count(); di++)
            for (int k = 0; k < 2; k++) {
                const sl_dataset *ds = sl_dataset_at(di);
                const sl_dtype dt = dts[f];
                const uint64_t n = k ? 4099 : 1000;
                if (sl_test_dataset(ds, dt, n, buf)) continue;
                check(buf, n, dt, ds->name);
                if (k) check_orders(buf, n, dt, ds->name);
            }
    /* the softmax figures (reference/sl_lse.h): x = {0, 0, -Inf}: L = log 2, denominator 2, p_i = 1/2;
     * a value 0.1 above L makes every p_i exp(-0.1) times too small */
    {
        const double x[3] = {0.0, 0.0, -INFINITY};
        sl_reference ref;
        sl_err err = {0};
        sl_lse_softmax sm;
        CHECK(sl_reference_lse(&ref, x, 3, SL_F64, 1, &err) == 0, "%s", err.msg);
        CHECK(sl_lse_softmax_of(&ref, x, 3, SL_F64, ref.rounded, &sm, &err) == 0, "%s", err.msg);
        CHECK(sm.denom == 2.0 && sm.p_rel <= 0x1p-53 && sm.p_abs <= 0x1p-54, "softmax of {0, 0}: "
              "denominator %a, p_rel %g, p_abs %g at the rounded lse", sm.denom, sm.p_rel, sm.p_abs);
        CHECK(sl_lse_softmax_of(&ref, x, 3, SL_F64, ref.rounded + 0.1, &sm, &err) == 0, "%s", err.msg);
        const double want = -expm1(-0.1);
        CHECK(fabs(sm.p_rel - want) <= 1e-15 && fabs(sm.p_abs - want / 2) <= 1e-15 &&
              fabs(sm.sum_p_err + want) <= 1e-15, "softmax of {0, 0}, lse + 0.1: p_rel %.17g p_abs "
              "%.17g sum %.17g, expected %.17g", sm.p_rel, sm.p_abs, sm.sum_p_err, want);
        CHECK(sl_lse_softmax_of(&ref, x, 3, SL_F64, INFINITY, &sm, &err) == 0 && sm.p_rel == 1.0 &&
              sm.sum_p_err == -1.0 && sm.p_abs == 0.5, "softmax with lse +Inf: every p_i 0");
        sl_reference_clear(&ref);
    }
    /* SL_LSE_ACCF16_TILE_ERR: gamma_31 in float32 below it, and float32 sums of 32 terms of
     * 16-bit values (ascending, the order that rounds most; random; all alike) within it of
     * their exact sum (MPFR) */
    {
        const double g31 = 31 * 0x1p-24 / (1 - 31 * 0x1p-24);
        CHECK(g31 < SL_LSE_ACCF16_TILE_ERR, "gamma_31 %a >= SL_LSE_ACCF16_TILE_ERR", g31);
        mpfr_t E;
        mpfr_init2(E, 600);
        double worst = 0.0;
        for (int trial = 0; trial < 3000; trial++) {
            float v[32];
            const int c = 1 + (int)(sl_test_rand64() % 32), kind = trial % 3;
            for (int k = 0; k < c; k++) {
                const double u = (double)(sl_test_rand64() >> 11) * 0x1p-53;
                const float d = kind == 2 ? 7.25f : (float)(-86.5 + u * 174.5);
                v[k] = (float)sl_half_round(d, trial & 4 ? SL_BF16 : SL_F16);
            }
            if (kind == 0)   /* ascending values: small terms first */
                for (int a1 = 1; a1 < c; a1++)
                    for (int b1 = a1; b1 > 0 && v[b1 - 1] > v[b1]; b1--) {
                        const float t1 = v[b1]; v[b1] = v[b1 - 1]; v[b1 - 1] = t1;
                    }
            const float t = sl_lse_accf16_tile(v, c);
            if (!isfinite(t)) continue;                  /* an overflow: no decision takes it */
            mpfr_set_zero(E, 1);
            for (int k = 0; k < c; k++) mpfr_add_d(E, E, (double)sl_lm_expf16(v[k]), MPFR_RNDN);
            const double e = mpfr_get_d(E, MPFR_RNDN), rel = fabs((double)t - e) / e;
            if (rel > worst) worst = rel;
        }
        mpfr_clear(E);
        CHECK(worst <= SL_LSE_ACCF16_TILE_ERR, "a float32 tile sum off by %g relative > 2^-19", worst);
        printf("float32 tile sums of 16-bit terms: worst relative error 2^%.2f (bound 2^-19)\n", log2(worst));
    }
    /* its wider theta costs few decisions: at least 98 % of the default's 16-bit ones */
    CHECK(tile_decided * 50 >= accf16_decided * 49, "the tiled first pass decided %lu of %lu 16-bit "
          "cases, the default %lu", tile_decided, tile_cases, accf16_decided);
    printf("the tiled first pass (SUMLAB_LSE_ACCF_TILE) decided %lu of %lu 16-bit cases (the default "
           "%lu)\n", tile_decided, tile_cases, accf16_decided);
    /* the one-pass forms carry the ordinary cases: most decide in the first pass */
    CHECK(accf_decided * 10 >= accf_cases * 7 && rep1_one * 10 >= rep1_cases * 6,
          "accurate's first pass decided %lu of %lu cases, reproducible's one pass took %lu of %lu",
          accf_decided, accf_cases, rep1_one, rep1_cases);
    printf("accurate's first pass decided %lu of %lu cases (float32, 16-bit); reproducible's one pass "
           "took %lu of %lu\n", accf_decided, accf_cases, rep1_one, rep1_cases);
    printf("accurate, worst ulps: float32 %.3g, float64 %.3g (%.3g where |lse| >= 1; correctly "
           "rounded in all %lu cases where |lse| >= 2^-18), float16 %.3g, bfloat16 %.3g\n",
           worst_ulps[0], worst_ulps[1], worst_ulps_big[1], f64_cases, worst_ulps[2], worst_ulps[3]);
    return sl_test_done("tlse_acc");
}

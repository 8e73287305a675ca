/* tmoments_exact_fast.c: mx_fast.h's cheap certified pass of the `correct` var and std (shifted
 * float64 sums, a rigorous error box, exact rounding at its ends) on adversarial data: whenever it
 * certifies, its value has the exact reference's rounded bits; it certifies the easy families
 * (uniform, normal, N(1e6, 1)) and never returns a wrong value; a fuzz loop over random shifts and
 * scales; sums pushed to 0.99 of the box's bound (a narrower box fails); the GPU kernel's
 * reduction shape emulated at 2^20 + 5 (certifies N(1e6, 1)). float32, bfloat16, float16; ddof 0
 * and 1; the twin (which runs it first) too; the quick float64 test on the box's corners alone
 * (never a wrong value, and it decides the easy families by itself); the mean's decision of the
 * row kernels (sl_mxf_mean_decide): decided means have the reference's bits, the easy families
 * are decided, sums pushed to 0.99 of e1 never give a wrong mean, zero means and non-finite input
 * are left to the exact kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_reference.h"
#include "sl_test.h"
#include "sl_test_values.h"
#include "sl_variants.h"
#include "sumlab/half.h"
#include "moments_exact/moments_exact.h"
#include "moments_exact/mx_fast.h"

static const sl_dtype fmts[] = {SL_F32, SL_BF16, SL_F16};
static long certified, fell_back, easy_cert, easy_total, quick_cert, easy_quick;

/* var and std, ddof 0 and 1, of x: the fast pass's decision against the reference; the twin too.
 * easy: counts towards the certification rate the test asserts. */
static long mean_cert, mean_total, easy_mean_cert, easy_mean_total;
static void check(const void *x, uint64_t n, sl_dtype dt, const char *what, int easy)
{
    {   /* the mean's decision (the row kernels'): decided means are the reference's bits */
        sl_reference ref;
        sl_err err = {{0}};
        if (sl_reference_moment(&ref, SL_MOMENT_MEAN, x, n, dt, 0, 1, &err)) {
            CHECK(0, "reference mean %s %s: %s", what, sl_dtype_name(dt), err.msg);
        } else {
            double r = 0.0;
            const int ok = sl_mxf_mean_decide_host(x, n, dt, &r);
            mean_total++;
            mean_cert += ok;
            easy_mean_total += easy;
            easy_mean_cert += ok && easy;
            if (ok)
                CHECK(sl_test_same(r, ref.rounded), "mean decided %s %s n=%llu: %a, the reference %a",
                      what, sl_dtype_name(dt), (unsigned long long)n, r, ref.rounded);
            sl_reference_clear(&ref);
        }
    }
    for (int what_i = SL_MX_VAR; what_i <= SL_MX_STD; what_i++) {
        for (uint32_t ddof = 0; ddof < 2; ddof++) {
            sl_reference ref;
            sl_err err = {{0}};
            if (sl_reference_moment(&ref, what_i == SL_MX_VAR ? SL_MOMENT_VAR : SL_MOMENT_STD, x,
                                    n, dt, ddof, 1, &err)) {
                CHECK(0, "reference %s %s: %s", what, sl_dtype_name(dt), err.msg);
                continue;
            }
            double r = 0.0;
            const int ok = sl_mxf_certify_host(what_i, x, n, ddof, dt, &r);
            /* the quick float64 test alone on the same box */
            sl_mxf_acc tot;
            double lo[2], hi[2], q = 0.0;
            const uint64_t h = sl_mxf_sums_host(x, n, dt, &tot);
            if (sl_mxf_box(what_i, &tot, n, h, ddof, dt, lo, hi) &&
                sl_mxf_quick(what_i, lo, hi, n, ddof, dt, &q)) {
                quick_cert++;
                CHECK(sl_test_same(q, ref.rounded), "%s quick-certified %s %s n=%llu ddof=%u: %a, the "
                      "reference %a", what_i == SL_MX_VAR ? "var" : "std", what, sl_dtype_name(dt),
                      (unsigned long long)n, ddof, q, ref.rounded);
                easy_quick += easy;
            }
            if (ok) {
                certified++;
                CHECK(sl_test_same(r, ref.rounded), "%s fast-certified %s %s n=%llu ddof=%u: %a, the "
                      "reference %a", what_i == SL_MX_VAR ? "var" : "std", what, sl_dtype_name(dt),
                      (unsigned long long)n, ddof, r, ref.rounded);
            } else {
                fell_back++;
            }
            if (easy) {
                easy_total++;
                easy_cert += ok;
            }
            const sl_variant *v = sl_variant_find_op(what_i == SL_MX_VAR ? "var" : "std", "correct");
            sl_launch cfg = {0};
            cfg.ddof = ddof;
            sl_variant_resolve(v, &cfg, n, dt);
            double t = 0.0;
            const int rc = sl_variant_cpu(v, x, n, dt, &cfg, &t, &err);
            CHECK(rc == 0 && sl_test_same(t, ref.rounded), "twin %s %s n=%llu ddof=%u: %a, the "
                  "reference %a", what, sl_dtype_name(dt), (unsigned long long)n, ddof, t,
                  ref.rounded);
            sl_reference_clear(&ref);
        }
    }
}

enum { F_UNIF, F_NORMAL, F_MEAN1E6, F_HUGE, F_CONST, F_LOGU, F_SUBN, F_CANCEL, F_NFAM };
static const char *const fam_name[] = {"uniform", "normal", "N(1e6,1)", "1e20(1+N(0,1e-3))",
                                       "constant", "log-uniform", "subnormal", "cancellation"};

static double gen(int fam, sl_dtype dt, uint64_t i)
{
    const double big = dt == SL_F16 ? 1e4 : 1e20;
    switch (fam) {
    case F_UNIF: return sl_test_unif();
    case F_NORMAL: return sl_test_gauss();
    case F_MEAN1E6: return (dt == SL_F16 ? 1e3 : 1e6) + sl_test_gauss();
    case F_HUGE: return big * (1.0 + 1e-3 * sl_test_gauss());
    case F_CONST: return 3.25;
    case F_LOGU: {
        const double e = dt == SL_F16 ? 28.0 : 200.0;
        return (sl_test_rand64() & 1 ? -1.0 : 1.0) * exp2(sl_test_unif() * e - e / 2);
    }
    case F_SUBN:
        return ldexp((double)(sl_test_rand64() % 64) - 20.0, dt == SL_F32 ? -149 : dt == SL_F16 ? -24 : -133);
    default: /* cancellation: +-big pairs around a small remainder */
        return (i & 1) ? -(dt == SL_F16 ? 3e4 : 1e30) : (dt == SL_F16 ? 3e4 : 1e30) * (1.0 + (i % 7 == 0 ? 0x1p-20 : 0.0));
    }
}

static void families(void)
{
    static const uint64_t ns[] = {2, 3, 33, 1000, 4097, 70001};
    void *x = malloc(70001 * 4);
    for (int f = 0; f < 3; f++)
        for (int fam = 0; fam < F_NFAM; fam++)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                const uint64_t n = ns[k];
                for (uint64_t i = 0; i < n; i++) sl_test_put(x, fmts[f], i, gen(fam, fmts[f], i));
                const int easy = (fam == F_UNIF || fam == F_NORMAL || fam == F_MEAN1E6) && n >= 1000;
                check(x, n, fmts[f], fam_name[fam], easy);
                if (fam == F_CONST) {   /* variance exactly 0: certified (every d is 0) */
                    double r = 1.0;
                    CHECK(sl_mxf_certify_host(SL_MX_VAR, x, n, 1, fmts[f], &r) && r == 0.0 &&
                          !signbit(r), "constant n=%llu %s: not certified as +0",
                          (unsigned long long)n, sl_dtype_name(fmts[f]));
                }
            }
    free(x);
}

/* Random shifts and scales (a mean m, a spread s, a few outliers) in each format. */
static void fuzz(void)
{
    void *x = malloc(5000 * 4);
    for (int it = 0; it < 240; it++) {
        const sl_dtype dt = fmts[it % 3];
        const double lim = dt == SL_F16 ? 14.0 : 120.0;
        const double m = (sl_test_rand64() & 1 ? -1.0 : 1.0) * exp2((sl_test_unif() * 2 - 1) * lim);
        const double s = exp2((sl_test_unif() * 2 - 1) * lim);
        const uint64_t n = 2 + sl_test_rand64() % 4999;
        for (uint64_t i = 0; i < n; i++) {
            double v = m + s * sl_test_gauss();
            if (sl_test_rand64() % 97 == 0) v = m * 3.0;
            sl_test_put(x, dt, i, v);
        }
        check(x, n, dt, "fuzz", 0);
    }
    free(x);
}

/* Non-finite input is never certified here (the exact path decides NaN/Inf). */
static void nonfinite(void)
{
    float x[5] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    double r;
    x[2] = INFINITY;
    CHECK(!sl_mxf_certify_host(SL_MX_VAR, x, 5, 0, SL_F32, &r), "Inf certified");
    x[2] = NAN;
    CHECK(!sl_mxf_certify_host(SL_MX_STD, x, 5, 0, SL_F32, &r), "NaN certified");
    x[0] = NAN;
    x[2] = 3.0f;
    CHECK(!sl_mxf_certify_host(SL_MX_VAR, x, 5, 0, SL_F32, &r), "NaN first certified");
    CHECK(!sl_mxf_mean_decide_host(x, 5, SL_F32, &r), "mean of a NaN decided");
    x[0] = 1.0f;
    x[3] = -INFINITY;
    CHECK(!sl_mxf_mean_decide_host(x, 5, SL_F32, &r), "mean of an Inf decided");
    x[3] = 4.0f;
    CHECK(!sl_mxf_certify_host(SL_MX_MEAN, x, 5, 0, SL_F32, &r), "mean certified by the var/std box");
    CHECK(sl_mxf_mean_decide_host(x, 5, SL_F32, &r) && r == 3.0, "mean of 1..5 not decided as 3: %a", r);
    /* an exact zero mean (its sign is the exact kernel's) and the empty row: never decided */
    const float z[4] = {-2.0f, 2.0f, -0.0f, 0.0f};
    CHECK(!sl_mxf_mean_decide_host(z, 4, SL_F32, &r), "zero mean decided");
    CHECK(!sl_mxf_mean_decide_host(z, 0, SL_F32, &r), "empty row decided");
    CHECK(!sl_mxf_mean_decide_host(z + 2, 2, SL_F32, &r), "mean of zeros decided");
    CHECK(!sl_mxf_certify_host(SL_MX_VAR, x, 1, 1, SL_F32, &r), "n <= ddof certified");
}

/* The box at work: small-integer data (every sum exact in double), sums pushed by 0.99 of the
 * error the box allows for a long chain h (each sign): whatever certifies is the reference's
 * value. Arrays near a rounding boundary then certify only when the box's ends agree; a box too
 * narrow (or none) returns the other side's value. */
static long pushed_cert, pushed_total, pushed_quick, pushed_mean_cert, pushed_mean_total;
static void pushed(void)
{
    float x[64];
    uint16_t xh[64];
    const uint64_t h = (uint64_t)1 << 30;
    for (int it = 0; it < 400; it++) {
        const sl_dtype dt = fmts[it % 3];
        const uint64_t n = 2 + sl_test_rand64() % 60;
        const int span = dt == SL_F16 ? 40 : 1000;
        for (uint64_t i = 0; i < n; i++) {
            const double v = (double)((int)(sl_test_rand64() % (2 * span + 1)) - span);
            x[i] = (float)v;
            xh[i] = sl_half_from_double(v, dt);
        }
        const void *xp = dt == SL_F32 ? (const void *)x : (const void *)xh;
        const double c = dt == SL_F32 ? (double)x[0] : sl_half_to_double(xh[0], dt);
        double s1 = 0.0, a1 = 0.0, s2 = 0.0;
        for (uint64_t i = 0; i < n; i++) {
            const double d = (dt == SL_F32 ? (double)x[i] : sl_half_to_double(xh[i], dt)) - c;
            s1 += d;
            a1 += fabs(d);
            s2 += d * d;                         /* exact: integers below 2^53 */
        }
        {   /* the mean's interval at 0.99 of e1 either side */
            sl_reference ref;
            sl_err err = {{0}};
            if (sl_reference_moment(&ref, SL_MOMENT_MEAN, xp, n, dt, 0, 1, &err)) {
                CHECK(0, "reference: %s", err.msg);
            } else {
                for (int sg = 0; sg < 2; sg++) {
                    sl_mxf_acc a;
                    a.s1 = s1 + (sg ? -0.99 : 0.99) * ((double)(h + 1) * 0x1p-53 * a1);
                    a.a1 = a1;
                    a.s2 = s2;
                    double r = 0.0;
                    pushed_mean_total++;
                    if (sl_mxf_mean_decide(&a, c, n, h, dt, &r)) {
                        pushed_mean_cert++;
                        CHECK(sl_test_same(r, ref.rounded), "pushed sums (%d), mean %s n=%llu: %a, the "
                              "reference %a", sg, sl_dtype_name(dt), (unsigned long long)n, r, ref.rounded);
                    }
                }
                sl_reference_clear(&ref);
            }
        }
        for (uint32_t ddof = 0; ddof < 2; ddof++)
            for (int what = SL_MX_VAR; what <= SL_MX_STD; what++) {
                sl_reference ref;
                sl_err err = {{0}};
                if (sl_reference_moment(&ref, what == SL_MX_VAR ? SL_MOMENT_VAR : SL_MOMENT_STD,
                                        xp, n, dt, ddof, 1, &err)) {
                    CHECK(0, "reference: %s", err.msg);
                    continue;
                }
                for (int sg = 0; sg < 4; sg++) {
                    sl_mxf_acc a;
                    a.s1 = s1 + (sg & 1 ? -0.99 : 0.99) * ((double)(h + 1) * 0x1p-53 * a1);
                    a.a1 = a1;
                    a.s2 = s2 + (sg & 2 ? -0.99 : 0.99) * ((double)(h + 3) * 0x1p-53 * s2);
                    if (a.s2 < 0.0) a.s2 = 0.0;
                    double r = 0.0;
                    pushed_total++;
                    double lo[2], hi[2], q = 0.0;
                    if (sl_mxf_box(what, &a, n, h, ddof, dt, lo, hi) &&
                        sl_mxf_quick(what, lo, hi, n, ddof, dt, &q)) {
                        pushed_quick++;
                        CHECK(sl_test_same(q, ref.rounded), "pushed sums (%d), quick %s n=%llu "
                              "ddof=%u: %a, the reference %a", sg, sl_dtype_name(dt),
                              (unsigned long long)n, ddof, q, ref.rounded);
                    }
                    if (sl_mxf_certify(what, &a, n, h, ddof, dt, &r)) {
                        pushed_cert++;
                        CHECK(sl_test_same(r, ref.rounded), "pushed sums (%d) %s n=%llu ddof=%u: %a, "
                              "the reference %a", sg, sl_dtype_name(dt), (unsigned long long)n,
                              ddof, r, ref.rounded);
                    }
                }
                sl_reference_clear(&ref);
            }
    }
}

/* The kernel's shape on the CPU (moments_exact.cu's mxf_kernel): G blocks of B threads, each
 * thread its edge scalar then its 16-byte vectors (4 float32) grid stride, warp shuffles down
 * 16..1, warp 0 over the warps, the blocks' sums added in block order (one of the atomics'
 * orders), h = MXF_CHAIN + G + 16: N(1e6, 1) and N(0, 1) float32 of 2^20 + 5 values (the
 * torch.var case) certify, with the reference's bits. */
static void kernel_shape(void)
{
    const uint64_t n = ((uint64_t)1 << 20) + 5;
    const unsigned G = 528, B = 256;
    const uint64_t T = (uint64_t)G * B;
    float *x = malloc(n * sizeof *x);
    sl_mxf_acc *th = malloc(T * sizeof *th);
    for (int fam = 0; fam < 2; fam++) {
        for (uint64_t i = 0; i < n; i++) x[i] = (float)((fam ? 0.0 : 1e6) + sl_test_gauss());
        const double c = x[0];
        const uint64_t nv = n / 4;                  /* x is 16-byte aligned: no head */
        for (uint64_t t = 0; t < T; t++) {
            sl_mxf_init(&th[t]);
            if (4 * nv + t < n) sl_mxf_take(&th[t], x[4 * nv + t], c);   /* its edge scalar */
            for (uint64_t j = t; j < nv; j += T)
                for (int k = 0; k < 4; k++) sl_mxf_take(&th[t], x[4 * j + k], c);
        }
        sl_mxf_acc tot;
        sl_mxf_init(&tot);
        for (unsigned b = 0; b < G; b++) {
            sl_mxf_acc *blk = th + (uint64_t)b * B, w[32];
            for (unsigned wp = 0; wp < B / 32; wp++) {
                sl_mxf_acc *l = blk + 32 * wp;
                for (unsigned off = 16; off > 0; off >>= 1)
                    for (unsigned ln = 0; ln + off < 32; ln++) sl_mxf_merge(&l[ln], &l[ln + off]);
                w[wp] = l[0];
            }
            for (unsigned wp = B / 32; wp < 32; wp++) sl_mxf_init(&w[wp]);
            for (unsigned off = 16; off > 0; off >>= 1)
                for (unsigned ln = 0; ln + off < 32; ln++) sl_mxf_merge(&w[ln], &w[ln + off]);
            sl_mxf_merge(&tot, &w[0]);
        }
        const uint64_t h = 1 + 4 * ((n + 4 * T - 1) / (4 * T)) + G + 16;
        for (uint32_t ddof = 0; ddof < 2; ddof++)
            for (int what = SL_MX_VAR; what <= SL_MX_STD; what++) {
                sl_reference ref;
                sl_err err = {{0}};
                if (sl_reference_moment(&ref, what == SL_MX_VAR ? SL_MOMENT_VAR : SL_MOMENT_STD, x,
                                        n, SL_F32, ddof, 1, &err)) {
                    CHECK(0, "reference: %s", err.msg);
                    continue;
                }
                double r = 0.0;
                const int ok = sl_mxf_certify(what, &tot, n, h, ddof, SL_F32, &r);
                CHECK(ok && sl_test_same(r, ref.rounded), "kernel shape %s ddof=%u: certified %d, %a, "
                      "the reference %a", fam ? "N(0,1)" : "N(1e6,1)", ddof, ok, r, ref.rounded);
                double lo[2], hi[2], q = 0.0;
                const int qk = sl_mxf_box(what, &tot, n, h, ddof, SL_F32, lo, hi) &&
                               sl_mxf_quick(what, lo, hi, n, ddof, SL_F32, &q);
                CHECK(qk && sl_test_same(q, ref.rounded), "kernel shape %s ddof=%u: quick test %d, "
                      "%a, the reference %a", fam ? "N(0,1)" : "N(1e6,1)", ddof, qk, q, ref.rounded);
                sl_reference_clear(&ref);
            }
    }
    free(th);
    free(x);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    nonfinite();
    families();
    fuzz();
    pushed();
    kernel_shape();
    fprintf(stderr, "tmoments_exact_fast: pushed sums certified %ld of %ld (quick test %ld)\n",
            pushed_cert, pushed_total, pushed_quick);
    CHECK(pushed_cert > 0 && pushed_cert < pushed_total, "pushed sums certified %ld of %ld",
          pushed_cert, pushed_total);
    fprintf(stderr, "tmoments_exact_fast: certified %ld, fell back %ld; easy families %ld of %ld\n",
            certified, fell_back, easy_cert, easy_total);
    /* useful: the easy families (uniform, normal, N(1e6, 1), n >= 1000) certify nearly always */
    CHECK(easy_total > 0 && easy_cert * 100 >= easy_total * 95, "easy families certified %ld of %ld",
          easy_cert, easy_total);
    CHECK(certified > 1000, "only %ld certified", certified);
    fprintf(stderr, "tmoments_exact_fast: mean decided %ld of %ld (easy families %ld of %ld); pushed "
            "sums %ld of %ld\n", mean_cert, mean_total, easy_mean_cert, easy_mean_total, pushed_mean_cert,
            pushed_mean_total);
    CHECK(easy_mean_total > 0 && easy_mean_cert * 100 >= easy_mean_total * 95,
          "mean: easy families decided %ld of %ld", easy_mean_cert, easy_mean_total);
    CHECK(pushed_mean_cert > 0 && pushed_mean_cert < pushed_mean_total, "mean: pushed sums decided %ld of %ld",
          pushed_mean_cert, pushed_mean_total);
    /* the quick float64 test decides the easy families alone (the GPU's last block then skips the
     * ends' exact rounding) */
    fprintf(stderr, "tmoments_exact_fast: quick test certified %ld; easy families %ld of %ld\n",
            quick_cert, easy_quick, easy_total);
    CHECK(easy_quick * 100 >= easy_total * 95, "quick test: easy families certified %ld of %ld",
          easy_quick, easy_total);
    return sl_test_done("tmoments_exact_fast");
}

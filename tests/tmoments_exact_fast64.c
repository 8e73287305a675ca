/* tmoments_exact_fast64.c: mx_fast64.h's cheap certified pass of the `correct` float64 var and
 * std (shifted float64 pairs with every addition's error captured, a rigorous error box, exact
 * rounding at its ends): whenever it certifies, its value has the exact reference's rounded bits;
 * it certifies the easy families (uniform, normal, N(1e6, 1), 1e100 (1 + N(0, 1e-3))) and never
 * returns a wrong value; a shift/scale fuzz over the whole float64 range; pairs pushed to 0.99 of
 * the box's bound (certified only with the reference's value; exact ties never certified; a box
 * a third as wide gives a wrong value somewhere); the quick double-double decision (sl_mxd_quick)
 * never decides a value the box's exactly rounded ends do not both give, and settles most cases;
 * the mean's decision (sl_mxd_mean_decide) has the reference's bits whenever it decides, decides
 * the easy families, never a tie (M + 1/2) 2^k, nor with its pairs pushed to 0.99 of the bound; the GPU kernel's reduction shape (mxd_kernel) emulated at 2^20 + 5 certifies
 * N(1e6, 1) and N(0, 1). ddof 0 and 1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_reference.h"
#include "sl_test.h"
#include "sl_test_values.h"
#include "moments_exact/mx_fast64.h"
#include "moments_exact/moments_exact.h"

static long certified, fell_back, easy_cert, easy_total, quick_dec, quick_total, quick_wrong;
/* The quick decision (sl_mxd_quick) against the box's ends rounded exactly (sl_mxd_end): whenever
 * it decides, the ends agree on its value (its interval lies inside the box's rounding); counts
 * how often it decides where the ends do. */
static void quick_vs_ends(const sl_mxd_acc *a, uint64_t n, uint64_t h, int what, uint32_t ddof)
{
    double e1, e2, q = 0.0;
    if (!sl_mxd_bounds(what, a, n, h, ddof, &e1, &e2)) return;
    const double lo = sl_mxd_end(what, a, e1, e2, -1, n, ddof), hi = sl_mxd_end(what, a, e1, e2, 1, n, ddof);
    const int ends = sl_test_same(lo, hi), qd = sl_mxd_quick(what, a, e1, e2, n, ddof, &q);
    quick_total += ends;
    quick_dec += qd && ends;
    if (qd && (!ends || !sl_test_same(q, lo)) && quick_wrong++ < 5)
        fprintf(stderr, "  quick %s n=%llu ddof=%u: %a, the ends %a %a\n", what == SL_MX_VAR ? "var" : "std",
                (unsigned long long)n, ddof, q, lo, hi);
}

static int reference(const double *x, uint64_t n, int what, uint32_t ddof, double *out)
{
    sl_reference ref;
    sl_err err = {{0}};
    const sl_moment m = what == SL_MX_MEAN ? SL_MOMENT_MEAN : what == SL_MX_VAR ? SL_MOMENT_VAR : SL_MOMENT_STD;
    if (sl_reference_moment(&ref, m, x, n, SL_F64, ddof, 1, &err)) {
        CHECK(0, "reference: %s", err.msg);
        return 0;
    }
    *out = ref.rounded;
    sl_reference_clear(&ref);
    return 1;
}

static long mean_cert, mean_total, mean_easy_cert, mean_easy_total;

/* The mean's decision (sl_mxd_mean_decide) on the host form's pairs, shift c = x[0]: whenever it
 * decides, its value has the reference's bits. */
static void check_mean(const double *x, uint64_t n, const char *what, int easy)
{
    double ref, r = 0.0;
    if (!reference(x, n, SL_MX_MEAN, 0, &ref)) return;
    sl_mxd_acc tot;
    const uint64_t h = sl_mxd_sums_host(x, n, &tot);
    const int ok = sl_mxd_mean_decide(&tot, x[0], n, h, &r);
    mean_total++;
    mean_cert += ok;
    if (easy) {
        mean_easy_total++;
        mean_easy_cert += ok;
    }
    CHECK(!ok || sl_test_same(r, ref), "mean decided %s n=%llu: %a, the reference %a", what,
          (unsigned long long)n, r, ref);
}

/* var and std, ddof 0 and 1: the pass's decision against the reference. */
static void check(const double *x, uint64_t n, const char *what, int easy)
{
    check_mean(x, n, what, easy);
    for (int w = SL_MX_VAR; w <= SL_MX_STD; w++)
        for (uint32_t ddof = 0; ddof < 2; ddof++) {
            double ref, r = 0.0;
            if (!reference(x, n, w, ddof, &ref)) continue;
            const int ok = sl_mxd_certify_host(w, x, n, ddof, &r);
            sl_mxd_acc tot;
            const uint64_t h = sl_mxd_sums_host(x, n, &tot);
            quick_vs_ends(&tot, n, h, w, ddof);
            if (ok) {
                certified++;
                CHECK(sl_test_same(r, ref), "%s certified %s n=%llu ddof=%u: %a, the reference %a",
                      w == SL_MX_VAR ? "var" : "std", what, (unsigned long long)n, ddof, r, ref);
            } else {
                fell_back++;
            }
            if (easy) {
                easy_total++;
                easy_cert += ok;
            }
        }
}

enum { F_UNIF, F_NORMAL, F_MEAN1E6, F_HUGE, F_TINY, F_CONST, F_LOGU, F_SUBN, F_CANCEL, F_NFAM };
static const char *const fam_name[] = {"uniform", "normal", "N(1e6,1)", "1e100(1+N(0,1e-3))",
                                       "1e-150(1+N(0,1e-3))", "constant", "log-uniform",
                                       "subnormal", "cancellation"};

static double gen(int fam, uint64_t i)
{
    switch (fam) {
    case F_UNIF: return sl_test_unif();
    case F_NORMAL: return sl_test_gauss();
    case F_MEAN1E6: return 1e6 + sl_test_gauss();
    case F_HUGE: return 1e100 * (1.0 + 1e-3 * sl_test_gauss());
    case F_TINY: return 1e-150 * (1.0 + 1e-3 * sl_test_gauss());
    case F_CONST: return 3.25;
    case F_LOGU: return (sl_test_rand64() & 1 ? -1.0 : 1.0) * exp2(sl_test_unif() * 1200.0 - 600.0);
    case F_SUBN: return ldexp((double)(sl_test_rand64() % 64) - 20.0, -1074);
    default: /* cancellation: +-1e300 pairs around a small remainder */
        return (i & 1) ? -1e300 : 1e300 * (1.0 + (i % 7 == 0 ? 0x1p-40 : 0.0));
    }
}

static void families(void)
{
    static const uint64_t ns[] = {2, 3, 33, 1000, 4097, 70001};
    double *x = malloc(70001 * sizeof *x);
    for (int fam = 0; fam < F_NFAM; fam++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            const uint64_t n = ns[k];
            for (uint64_t i = 0; i < n; i++) x[i] = gen(fam, i);
            const int easy = fam <= F_HUGE && n >= 1000;   /* tiny: the fma remainders underflow */
            const long before = easy_cert;
            check(x, n, fam_name[fam], easy);
            if (easy && easy_cert - before < 4)
                fprintf(stderr, "tmoments_exact_fast64: %s n=%llu: %ld of 4 certified\n",
                        fam_name[fam], (unsigned long long)n, easy_cert - before);
        }
    free(x);
}

/* Random shifts and scales over the float64 range, a few outliers. */
static void fuzz(void)
{
    double *x = malloc(5000 * sizeof *x);
    for (int it = 0; it < 240; it++) {
        const double m = (sl_test_rand64() & 1 ? -1.0 : 1.0) * exp2((sl_test_unif() * 2 - 1) * 900.0);
        const double s = exp2((sl_test_unif() * 2 - 1) * 900.0);
        const uint64_t n = 2 + sl_test_rand64() % 4999;
        for (uint64_t i = 0; i < n; i++) {
            double v = m + s * sl_test_gauss();
            if (sl_test_rand64() % 97 == 0) v = m * 3.0;
            x[i] = isfinite(v) ? v : m;
        }
        check(x, n, "fuzz", 0);
    }
    free(x);
}

/* Non-finite input and the cases the pass leaves to the exact kernel. */
static void excluded(void)
{
    double x[5] = {1.0, 2.0, 3.0, 4.0, 5.0}, r;
    x[2] = INFINITY;
    CHECK(!sl_mxd_certify_host(SL_MX_VAR, x, 5, 0, &r), "Inf certified");
    x[2] = NAN;
    CHECK(!sl_mxd_certify_host(SL_MX_STD, x, 5, 0, &r), "NaN certified");
    x[0] = NAN;
    x[2] = 3.0;
    CHECK(!sl_mxd_certify_host(SL_MX_VAR, x, 5, 0, &r), "NaN first certified");
    x[0] = 1.0;
    CHECK(!sl_mxd_certify_host(SL_MX_MEAN, x, 5, 0, &r), "mean certified");
    CHECK(!sl_mxd_certify_host(SL_MX_VAR, x, 1, 1, &r), "n <= ddof certified");
    x[1] = 0x1.8p1023;                                /* its square overflows */
    CHECK(!sl_mxd_certify_host(SL_MX_VAR, x, 5, 1, &r), "overflowing squares certified");
}

/* The box at work. (a) Integer data (every pair exact with c1 = c2 = 0), the pairs pushed by
 * 0.99 of the bound for a long chain h, through c1 and c2: whatever certifies is the reference's
 * value. (b) Ties: x = {-2^(k-1), M 2^k} (M odd, 53 bits) has a standard deviation (ddof 0) exactly
 * halfway between two doubles; pushed by 0.99 of the bound, the box still holds the tie (never
 * certified: the ends round apart), while a box a third as wide around the pushed pairs excludes
 * it and certifies the wrong neighbour for some pushes: the test can see a box too narrow. */
static long pushed_cert, pushed_total, narrow_wrong, tie_cert;
static void push_check(const double *x, uint64_t n, const sl_mxd_acc *a0, int what, uint32_t ddof,
                       uint64_t h, int tie)
{
    double ref, e1, e2;
    if (!reference(x, n, what, ddof, &ref)) return;
    if (!sl_mxd_bounds(what, a0, n, h, ddof, &e1, &e2)) return;
    for (int sg = 0; sg < 4; sg++) {
        sl_mxd_acc a = *a0;
        a.c1 = a0->c1 + (sg & 1 ? -0.99 : 0.99) * e1;
        a.c2 = a0->c2 + (sg & 2 ? -0.99 : 0.99) * e2;
        double r = 0.0;
        pushed_total++;
        quick_vs_ends(&a, n, h, what, ddof);
        if (sl_mxd_certify(what, &a, n, h, ddof, &r)) {
            pushed_cert++;
            tie_cert += tie;
            CHECK(sl_test_same(r, ref), "pushed pairs (%d) n=%llu ddof=%u: %a, the reference %a", sg,
                  (unsigned long long)n, ddof, r, ref);
        }
        const double lo = sl_mxd_end(what, &a, e1 / 3, e2 / 3, -1, n, ddof);
        const double hi = sl_mxd_end(what, &a, e1 / 3, e2 / 3, 1, n, ddof);
        if (sl_test_same(lo, hi) && !sl_test_same(lo, ref)) narrow_wrong++;
    }
}
/* The mean's box at work: (a) the integer data's pairs pushed by 0.99 of e1 through c1: decided
 * only with the reference's value; (b) ties: x = {M 2^k, (M + 1) 2^k} (M odd, 53 bits) has the
 * mean (M + 1/2) 2^k, halfway between two doubles, and pairs pushed by 0.99 of e1 never decide
 * it. */
static long mean_pushed_cert, mean_pushed_total, mean_tie_cert;
static void mean_push(const double *x, uint64_t n, const sl_mxd_acc *a0, uint64_t h, int tie)
{
    double ref, e1, e2;
    if (!reference(x, n, SL_MX_MEAN, 0, &ref)) return;
    if (!sl_mxd_bounds(SL_MX_MEAN, a0, n, h, 0, &e1, &e2)) return;
    for (int sg = 0; sg < 3; sg++) {
        sl_mxd_acc a = *a0;
        a.c1 = a0->c1 + (sg == 0 ? 0.0 : sg == 1 ? 0.99 : -0.99) * e1;
        double r = 0.0;
        mean_pushed_total++;
        if (sl_mxd_mean_decide(&a, x[0], n, h, &r)) {
            mean_pushed_cert++;
            mean_tie_cert += tie;
            CHECK(sl_test_same(r, ref), "mean pushed (%d) n=%llu: %a, the reference %a", sg,
                  (unsigned long long)n, r, ref);
        }
    }
}
static void mean_pushed(void)
{
    double x[64];
    const uint64_t h = (uint64_t)1 << 20;
    for (int it = 0; it < 600; it++) {
        const uint64_t n = 1 + sl_test_rand64() % 60;
        const uint64_t span = (uint64_t)1 << (sl_test_rand64() % 40);
        const double off = ldexp((double)(sl_test_rand64() >> 20), (int)(sl_test_rand64() % 40) - 20);
        for (uint64_t i = 0; i < n; i++)
            x[i] = off + (double)((int64_t)(sl_test_rand64() % (2 * span + 1)) - (int64_t)span);
        sl_mxd_acc a0;
        sl_mxd_sums_host(x, n, &a0);
        mean_push(x, n, &a0, h, 0);
    }
    for (int it = 0; it < 300; it++) {
        const double M = (double)(((sl_test_rand64() >> 11) | ((uint64_t)1 << 52)) | 1u);
        const int k = (int)(sl_test_rand64() % 1000) - 500;
        const double sg = sl_test_rand64() & 1 ? -1.0 : 1.0;
        x[0] = sg * ldexp(M, k);
        x[1] = sg * ldexp(M + 1.0, k);
        if (it % 2) {                                /* the same mean behind a longer row */
            const double t = x[0];
            x[0] = x[1];
            x[1] = t;
        }
        sl_mxd_acc a0;
        sl_mxd_sums_host(x, 2, &a0);
        mean_push(x, 2, &a0, h, 1);
    }
}

static void pushed(void)
{
    double x[64];
    const uint64_t h = (uint64_t)1 << 20;
    for (int it = 0; it < 600; it++) {                /* (a) */
        const uint64_t n = 2 + sl_test_rand64() % 60;
        const uint64_t span = (uint64_t)1 << (sl_test_rand64() % 23);
        for (uint64_t i = 0; i < n; i++)
            x[i] = (double)((int64_t)(sl_test_rand64() % (2 * span + 1)) - (int64_t)span);
        sl_mxd_acc a0;
        sl_mxd_init(&a0);
        for (uint64_t i = 0; i < n; i++) {
            const double d = x[i] - x[0];            /* exact: |d| <= 2^23 */
            a0.s1 += d;                              /* exact: below 2^30 */
            a0.s2 += d * d;                          /* exact: below 2^53 */
        }
        for (uint32_t ddof = 0; ddof < 2; ddof++)
            for (int what = SL_MX_VAR; what <= SL_MX_STD; what++) push_check(x, n, &a0, what, ddof, h, 0);
    }
    for (int it = 0; it < 200; it++) {                /* (b) */
        const double M = (double)(((sl_test_rand64() >> 11) | ((uint64_t)1 << 52)) | 1u);
        const int k = (int)(sl_test_rand64() % 400) - 200;
        x[0] = -ldexp(1.0, k - 1);
        x[1] = ldexp(M, k);
        sl_mxd_acc a0;
        sl_mxd_init(&a0);
        for (int i = 0; i < 2; i++) sl_mxd_take(&a0, x[i], x[0]);
        push_check(x, 2, &a0, SL_MX_STD, 0, h, 1);
    }
}

/* mxd_kernel's shape on the CPU: G blocks of B threads; each thread its edge scalar, then its
 * 16-byte vectors (2 float64) grid stride; warp shuffles down 16..1, warp 0 over the warps; the
 * blocks' pairs merged by the last block (thread t: blocks t, t + B, ...; then the same two tree
 * levels); h = MXF_CHAIN + ceil(G / B) + 32: N(1e6, 1) and N(0, 1) of 2^20 + 5 values certify,
 * with the reference's bits. */
static void warp_tree(sl_mxd_acc *l, unsigned len)
{
    for (unsigned off = 16; off > 0; off >>= 1)
        for (unsigned ln = 0; ln + off < len && ln < 32; ln++) sl_mxd_merge(&l[ln], &l[ln + off]);
}
static sl_mxd_acc block_tree(sl_mxd_acc *th, unsigned B)
{
    sl_mxd_acc w[32];
    for (unsigned wp = 0; wp < 32; wp++) sl_mxd_init(&w[wp]);
    for (unsigned wp = 0; wp < B / 32; wp++) {
        warp_tree(th + 32 * wp, 32);
        w[wp] = th[32 * wp];
    }
    warp_tree(w, 32);
    return w[0];
}
static void kernel_shape_of(unsigned G, unsigned B)
{
    const uint64_t n = ((uint64_t)1 << 20) + 5;
    const uint64_t T = (uint64_t)G * B;
    double *x = malloc(n * sizeof *x);
    sl_mxd_acc *th = malloc(T * sizeof *th), *part = malloc(G * sizeof *part), *fin = malloc(B * sizeof *fin);
    if (!x || !th || !part || !fin) {
        CHECK(0, "kernel shape %u x %u: out of memory", G, B);
        free(x); free(th); free(part); free(fin);
        return;
    }
    for (int fam = 0; fam < 2; fam++) {
        for (uint64_t i = 0; i < n; i++) x[i] = (fam ? 0.0 : 1e6) + sl_test_gauss();
        const double c = x[0];
        const uint64_t nv = n / 2;
        for (uint64_t t = 0; t < T; t++) {
            sl_mxd_init(&th[t]);
            if (2 * nv + t < n) sl_mxd_take(&th[t], x[2 * nv + t], c);
            for (uint64_t j = t; j < nv; j += T)
                for (int k = 0; k < 2; k++) sl_mxd_take(&th[t], x[2 * j + k], c);
        }
        for (unsigned b = 0; b < G; b++) part[b] = block_tree(th + (uint64_t)b * B, B);
        for (unsigned t = 0; t < B; t++) {
            sl_mxd_init(&fin[t]);
            for (unsigned b = t; b < G; b += B) sl_mxd_merge(&fin[t], &part[b]);
        }
        const sl_mxd_acc tot = block_tree(fin, B);
        const uint64_t h = 1 + 2 * ((n + 2 * T - 1) / (2 * T)) + (G + B - 1) / B + 32;
        for (uint32_t ddof = 0; ddof < 2; ddof++)
            for (int what = SL_MX_VAR; what <= SL_MX_STD; what++) {
                double ref, r = 0.0;
                if (!reference(x, n, what, ddof, &ref)) continue;
                const int ok = sl_mxd_certify(what, &tot, n, h, ddof, &r);
                CHECK(ok && sl_test_same(r, ref), "kernel shape %u x %u %s ddof=%u: certified %d, "
                      "%a, the reference %a", G, B, fam ? "N(0,1)" : "N(1e6,1)", ddof, ok, r, ref);
            }
    }
    free(th);
    free(part);
    free(fin);
    free(x);
}
/* The default launch of float64 var/std (moments_exact.h: SL_MX_BLOCK_F64 threads, 2 blocks an SM
 * of 132) and the one before it (256 x 4 an SM), whose tree the certificate must decide as well. */
static void kernel_shape(void)
{
    kernel_shape_of(132u * SL_MX_BLOCKS_PER_SM_F64, SL_MX_BLOCK_F64);
    kernel_shape_of(132u * SL_MX_BLOCKS_PER_SM, SL_MX_BLOCK);
}


int main(void)
{
    sl_test_rng = sl_test_seed();
    excluded();
    families();
    fuzz();
    pushed();
    mean_pushed();
    kernel_shape();
    fprintf(stderr, "tmoments_exact_fast64: pushed pairs certified %ld of %ld (ties %ld); a third of "
            "the box certified a wrong value %ld times\n", pushed_cert, pushed_total, tie_cert,
            narrow_wrong);
    CHECK(tie_cert == 0, "a tie certified %ld times", tie_cert);
    CHECK(pushed_cert > 0 && pushed_cert < pushed_total, "pushed pairs certified %ld of %ld",
          pushed_cert, pushed_total);
    CHECK(narrow_wrong > 0, "a box a third as wide never certified a wrong value: the pushed "
          "pairs do not reach the bound");
    fprintf(stderr, "tmoments_exact_fast64: certified %ld, fell back %ld; easy families %ld of %ld\n",
            certified, fell_back, easy_cert, easy_total);
    CHECK(easy_total > 0 && easy_cert * 100 >= easy_total * 95, "easy families certified %ld of %ld",
          easy_cert, easy_total);
    CHECK(certified > 500, "only %ld certified", certified);
    fprintf(stderr, "tmoments_exact_fast64: the quick decision settled %ld of the %ld cases whose ends agree\n",
            quick_dec, quick_total);
    CHECK(quick_wrong == 0, "the quick decision differs from the box's ends %ld times", quick_wrong);
    CHECK(quick_dec * 100 >= quick_total * 90, "the quick decision settled only %ld of %ld", quick_dec,
          quick_total);
    fprintf(stderr, "tmoments_exact_fast64: the mean decided %ld of %ld (easy families %ld of %ld); pushed "
            "pairs %ld of %ld (ties %ld)\n", mean_cert, mean_total, mean_easy_cert, mean_easy_total,
            mean_pushed_cert, mean_pushed_total, mean_tie_cert);
    CHECK(mean_easy_total > 0 && mean_easy_cert * 100 >= mean_easy_total * 95, "the mean decided %ld of %ld "
          "easy cases", mean_easy_cert, mean_easy_total);
    CHECK(mean_tie_cert == 0, "a mean tie decided %ld times", mean_tie_cert);
    CHECK(mean_pushed_cert > 0 && mean_pushed_cert < mean_pushed_total, "mean pushed pairs decided %ld of %ld",
          mean_pushed_cert, mean_pushed_total);
    return sl_test_done("tmoments_exact_fast64");
}

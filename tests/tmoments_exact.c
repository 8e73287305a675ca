/* tmoments_exact.c: the `correct` mean, var and std (kernels/moments_exact) against the exact
 * references (reference/sl_moments.c, checked against GMP rationals by tmoments_ref): the twin's
 * result has the reference's `rounded` bits in every case: every dataset family of the registry
 * (the basic ones and the moment generators), every format, ddof 0 and 1, n = 0, 1, 2, 31, 32,
 * 33, 1000, 2^16 + 3; edge data (variance exactly 0, huge mean and small spread, subnormal
 * results, overflow to Inf, ties of the mean, the variance and the standard deviation, float64
 * squares in each scaling range and across the thresholds, signed zeros, NaN and Inf); random
 * short arrays over each format's whole exponent range. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_variants.h"
#include "sumlab/half.h"
#include <mpfr.h>
#include "moments_exact/moments_exact.h"
#include "moments_exact/mx_cert.h"
#include "sl_twin.h"
#include "sl_measure.h"

static const sl_dtype fmts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
static const char *const ops[] = {"mean", "var", "std"};
static long compared;
static long certified, fell_back;   /* the certified kernel's decisions (mx_cert.h's model) */

static int same_bits(double a, double b)
{
    if (a != a || b != b) return a != a && b != b;
    return !memcmp(&a, &b, sizeof a);
}

static void put(void *x, sl_dtype dt, uint64_t i, double v)
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else if (dt == SL_F32) ((float *)x)[i] = (float)v;
    else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
}

/* Every `correct` twin on x against the reference, ddof 0 and 1 (mean: once). */
static void check_case(const void *x, uint64_t n, sl_dtype dt, const char *what)
{
    for (int o = 0; o < 3; o++) {
        const sl_variant *v = sl_variant_find_op(ops[o], "correct");
        CHECK(v != NULL, "no %s/correct", ops[o]);
        if (!v) continue;
        for (uint32_t ddof = 0; ddof < (o ? 2u : 1u); ddof++) {
            sl_reference ref;
            sl_err err = {{0}};
            const sl_moment m = o == 0 ? SL_MOMENT_MEAN : o == 1 ? SL_MOMENT_VAR : SL_MOMENT_STD;
            if (sl_reference_moment(&ref, m, x, n, dt, ddof, 1, &err)) {
                CHECK(0, "reference %s %s %s n=%llu: %s", ops[o], what, sl_dtype_name(dt),
                      (unsigned long long)n, err.msg);
                continue;
            }
            sl_launch cfg = {0};
            cfg.ddof = ddof;
            sl_variant_resolve(v, &cfg, n, dt);
            double r = 0.0;
            const int rc = sl_variant_cpu(v, x, n, dt, &cfg, &r, &err);
            CHECK(rc == 0, "%s/correct %s: %s", ops[o], what, err.msg);
            CHECK(rc == 0 && same_bits(r, ref.rounded),
                  "%s/correct %s %s n=%llu ddof=%u: %a, the reference %a", ops[o], what,
                  sl_dtype_name(dt), (unsigned long long)n, ddof, r, ref.rounded);
            compared++;
            /* float32 and 16-bit input: the certified path's decision on the same states the
             * kernel builds; when it certifies, its value is the correctly rounded one */
            double rc2 = 0.0;
            if (dt != SL_F64 && n && sl_mxc_certify(o, x, n, ddof, dt, &rc2)) {
                certified++;
                CHECK(same_bits(rc2, ref.rounded),
                      "%s certified %s %s n=%llu ddof=%u: %a, the reference %a", ops[o], what,
                      sl_dtype_name(dt), (unsigned long long)n, ddof, rc2, ref.rounded);
            } else if (dt != SL_F64 && n) {
                fell_back++;
                if (getenv("SUMLAB_TEST_VERBOSE"))
                    fprintf(stderr, "fallback: %s %s %s n=%llu ddof=%u\n", ops[o], what,
                            sl_dtype_name(dt), (unsigned long long)n, ddof);
            }
            sl_reference_clear(&ref);
        }
    }
}

/* Values v[0..n) (each representable in dt) as an array of dt. */
static void check_values(const double *v, uint64_t n, sl_dtype dt, const char *what)
{
    void *x = malloc(n * 8 + 8);
    for (uint64_t i = 0; i < n; i++) put(x, dt, i, v[i]);
    check_case(x, n, dt, what);
    free(x);
}

static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }

/* Every dataset family, every format, the sizes of the brief. */
static void dataset_cases(void)
{
    static const uint64_t sizes[] = {0, 1, 2, 31, 32, 33, 1000, 65539};
    void *buf = malloc(65539 * 8);
    long fams = 0;
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        for (size_t f = 0; f < 4; f++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                const sl_dtype dt = fmts[f];
                const uint64_t n = sizes[s];
                sl_params p;
                sl_err err = {{0}};
                if (sl_test_params(ds, dt, &p, &err)) continue;
                int rc = 0;
                if (n) rc = sl_dataset_generate(ds, dt, sl_test_seed() + s, n, &p, 0, n, buf, &err);
                if (sl_test_half_overflow(dt, rc, &err)) continue;
                CHECK(rc == 0, "%s %s n=%llu: %s", ds->name, sl_dtype_name(dt), (unsigned long long)n,
                      err.msg);
                if (rc) continue;
                check_case(buf, n, dt, ds->name);
                fams++;
            }
    }
    CHECK(fams > 500, "only %ld family cases", fams);
    free(buf);
}

/* The moment generators with their parameters swept (kappa, outlier scale). */
static void swept_cases(void)
{
    static const struct { const char *ds, *kv; } sw[] = {
        {"offset-normal", "kappa=1"},  {"offset-normal", "kappa=1e4"}, {"offset-normal", "kappa=1e8"},
        {"offset-normal", "kappa=1e15"},
    };
    void *buf = malloc(4096 * 8);
    for (size_t k = 0; k < sizeof sw / sizeof *sw; k++) {
        const sl_dataset *ds = sl_dataset_find(sw[k].ds);
        if (!ds) { CHECK(0, "no dataset %s", sw[k].ds); continue; }
        for (size_t f = 0; f < 4; f++) {
            sl_params p;
            sl_err err = {{0}};
            sl_params_defaults(ds, &p);
            if (sl_params_set(ds, &p, sw[k].kv, &err)) continue;   /* parameter not offered */
            const int rc = sl_dataset_generate(ds, fmts[f], sl_test_seed(), 4096, &p, 0, 4096, buf, &err);
            if (rc) continue;                                        /* out of reach in the format */
            check_case(buf, 4096, fmts[f], sw[k].kv);
        }
    }
    free(buf);
}

/* Hand-made edge data in every format. */
static void edge_cases(void)
{
    double v[4096];
    for (size_t f = 0; f < 4; f++) {
        const sl_dtype dt = fmts[f];
        const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_BF16 ? 8 : 11;
        const double tiny = dt == SL_F64 ? 0x1p-1074 : dt == SL_F32 ? 0x1p-149 : dt == SL_F16 ? 0x1p-24 : 0x1p-133;
        const double big = dt == SL_F64 ? DBL_MAX : dt == SL_F32 ? FLT_MAX : dt == SL_F16 ? 65504.0 : 0x1.fep127;
        /* variance exactly 0: constants, zeros, signed zeros */
        for (int i = 0; i < 100; i++) v[i] = 3.0;
        check_values(v, 100, dt, "constant");
        for (int i = 0; i < 100; i++) v[i] = -0.0;
        check_values(v, 100, dt, "all -0");
        v[50] = 0.0;
        check_values(v, 100, dt, "-0 and one +0");
        for (int i = 0; i < 100; i++) v[i] = (i & 1) ? -1.5 : 1.5;
        check_values(v, 100, dt, "cancelling");
        /* huge mean, small spread: 2^(emax-3) (1 + j 2^(1-p)) */
        const double hm = ldexp(1.0, dt == SL_F16 ? 12 : dt == SL_F64 ? 900 : 100);
        for (int i = 0; i < 1000; i++) v[i] = hm * (1.0 + ldexp((double)(sl_test_rand64() % 8), 1 - p));
        check_values(v, 1000, dt, "huge mean small spread");
        for (int i = 0; i < 1000; i++) v[i] = -hm * (1.0 + ldexp((double)(i % 3), 1 - p));
        check_values(v, 1000, dt, "huge negative mean small spread");
        /* subnormal results: values a few units of the smallest subnormal */
        for (int i = 0; i < 33; i++) v[i] = tiny * (double)(sl_test_rand64() % 64);
        check_values(v, 33, dt, "subnormal spread");
        for (int i = 0; i < 33; i++) v[i] = tiny * (i % 2 ? 1.0 : -1.0);
        check_values(v, 33, dt, "+-tiny");
        v[0] = tiny; v[1] = 0.0;
        check_values(v, 2, dt, "tiny, 0");
        /* overflow of the exact variance to Inf, and the largest finite values */
        for (int i = 0; i < 64; i++) v[i] = (i & 1) ? big : -big;
        check_values(v, 64, dt, "+-max");
        for (int i = 0; i < 64; i++) v[i] = big * (0.5 + 0.5 * (double)(i % 2));
        check_values(v, 64, dt, "max, max/2");
        for (int i = 0; i < 64; i++) v[i] = big;
        check_values(v, 64, dt, "all max");
        if (dt != SL_F64) {   /* squares above the format: var overflows, mean does not */
            const double s = dt == SL_F16 ? 300.0 : 1e20;
            for (int i = 0; i < 64; i++) v[i] = (i % 3 - 1) * s;
            check_values(v, 64, dt, "squares above the format");
        }
        /* ties: {2^p, -1}: mean (2^p - 1) / 2 and std (2^p + 1) / 2 with ddof 0 are midpoints;
         * {0, d} with d^2 odd of p + 1 bits: var d^2 / 4 with ddof 0 a midpoint */
        v[0] = ldexp(1.0, p); v[1] = -1.0;
        check_values(v, 2, dt, "tie {2^p, -1}");
        v[0] = ldexp(1.0, p); v[1] = 1.0;
        check_values(v, 2, dt, "tie {2^p, 1}");
        {
            double d = floor(sqrt(ldexp(1.0, p))) + 1.0;   /* d^2 has p + 1 bits */
            if (fmod(d * d, 2.0) == 0.0) d += 1.0;   /* odd */
            if (d * d < ldexp(1.0, p + 1)) {
                v[0] = 0.0; v[1] = d;
                check_values(v, 2, dt, "var tie {0, d}");
                v[0] = d; v[1] = 0.0; v[2] = 0.0; v[3] = d;
                check_values(v, 4, dt, "var tie {d, 0, 0, d}");
            }
        }
        /* NaN, Inf */
        v[0] = 1.0; v[1] = INFINITY; v[2] = 2.0;
        check_values(v, 3, dt, "+Inf");
        v[1] = -INFINITY;
        check_values(v, 3, dt, "-Inf");
        v[0] = INFINITY;
        check_values(v, 3, dt, "+Inf, -Inf");
        v[1] = NAN;
        check_values(v, 3, dt, "NaN");
        /* n = 1 and n = 2 */
        v[0] = 1.25;
        check_values(v, 1, dt, "n = 1");
        v[1] = -3.5;
        check_values(v, 2, dt, "n = 2");
    }
    /* float64: the squares' three scaling ranges (|x| >= 2^500, < 2^-400, between) and their
     * thresholds, mixed in one array, and full-range data */
    static const double th[] = {0x1p500, 0x1.fffffffffffffp499, 0x1p-400, 0x1.fffffffffffffp-401,
                                0x1.3p-1074, 0x1p-1074, 0x1.8p-1022, 0x1.5555555555555p1000,
                                0x1.fffffffffffffp511, 0x1p512, 1.0, 0x1.0000000000001p0};
    for (int i = 0; i < 12; i++) v[i] = th[i] * ((i & 1) ? -1.0 : 1.0);
    check_values(v, 12, SL_F64, "float64 scaling thresholds");
    for (int i = 0; i < 12; i++) v[i] = th[i];
    check_values(v, 12, SL_F64, "float64 scaling thresholds, positive");
    for (int k = 0; k < 12; k++) {
        v[0] = th[k]; v[1] = th[k];
        v[2] = th[k] * (1.0 + 0x1p-52);
        check_values(v, 3, SL_F64, "float64 threshold spread");
    }
    for (int i = 0; i < 1000; i++) v[i] = ldexp(unif() + 0.5, (int)(sl_test_rand64() % 2098) - 1074);
    check_values(v, 1000, SL_F64, "float64 full range");
}

/* Random short arrays (n = 2..9) over each format's exponent range, with shared high bits so
 * that var cancels: exercises the integer path, the sticky bit and the rounding in every
 * binade. */
static void random_short(void)
{
    double v[16];
    for (size_t f = 0; f < 4; f++) {
        const sl_dtype dt = fmts[f];
        const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_BF16 ? 8 : 11;
        const int emin = dt == SL_F64 ? -1074 : dt == SL_F32 ? -149 : dt == SL_F16 ? -24 : -133;
        const int emax = dt == SL_F64 ? 1023 : dt == SL_F32 ? 127 : dt == SL_F16 ? 15 : 127;
        for (int t = 0; t < 400; t++) {
            const int n = 2 + (int)(sl_test_rand64() % 8);
            const int e = emin + (int)(sl_test_rand64() % (uint64_t)(emax - emin + 1));
            const double c = ldexp(1.0 + unif(), e);
            for (int i = 0; i < n; i++) {
                double x = (t & 1) ? c + ldexp((double)(int)(sl_test_rand64() % 17) - 8.0, e - p + 1)
                                   : ldexp(unif() * 2.0 - 1.0, emin + (int)(sl_test_rand64() % (uint64_t)(emax - emin + 1)));
                if (dt == SL_F32) x = (double)(float)x;
                else if (dt != SL_F64) x = sl_half_round(x, dt);
                if (!isfinite(x)) x = 1.0;
                v[i] = x;
            }
            check_values(v, (uint64_t)n, dt, "random short");
        }
    }
}


/* ---- the final rounding itself (mx_round.h) on crafted exact sums ---------------------------
 * S1 = 0 (or S1 alone for the mean) and S2 = B chosen so that the exact result is a rounding
 * midpoint M 2^j (M odd, p + 1 bits) plus delta / d, delta in {-1, 0, 1}: a tie, or a value a
 * hair above or below one, whose side shows only in the quotient's remainder or, for B longer
 * than the 256-bit window, in the bits below it; std the same with B = M^2 4^j + delta. Expected:
 * MPFR's correctly rounded division / square root at the format's precision; j keeps every
 * result normal (lowest j: leading exponent emin; highest: emax - 1). */
static void limbs_of(const mpz_t z, int64_t *limb, int L)
{
    mpz_t t;
    mpz_init(t);
    mpz_abs(t, z);
    for (int i = 0; i < L; i++) {
        limb[i] = (int64_t)(mpz_get_ui(t) & 0xffffffffu);
        mpz_fdiv_q_2exp(t, t, 32);
    }
    CHECK(mpz_sgn(t) == 0, "crafted value does not fit %d limbs", L);
    if (mpz_sgn(z) < 0)
        for (int i = 0; i < L; i++) limb[i] = -limb[i];
    mpz_clear(t);
}

static void crafted_cases(void)
{
    static const struct { sl_dtype dt; int p, s, L1, L2, jv0, jv1, js0, js1, jm0, jm1; } F[] = {
        {SL_F32, 24, 149, 12, 20, 148, 400, 0, 250, 0, 250},
        {SL_F64, 53, 1074, 68, 134, 1073, 3100, 0, 2040, 0, 2040},
        {SL_F16, 11, 149, 12, 20, 273, 301, 125, 153, 124, 152},
        {SL_BF16, 8, 149, 12, 20, 164, 400, 16, 250, 15, 250},
    };
    mpz_t M, B, T;
    mpz_inits(M, B, T, (mpz_ptr)0);
    mpfr_t num, q;
    mpfr_inits2(8192, num, (mpfr_ptr)0);
    mpfr_init2(q, 64);
    int64_t s1[SL_SACC_LIMBS_MAX], s2[SL_MX_S2_LIMBS_F64];
    long done = 0;
    for (size_t f = 0; f < 4; f++) {
        const int p = F[f].p;
        mpfr_set_prec(q, p);
        for (int t = 0; t < 600; t++) {
            const int what = t % 3, delta = (t / 3) % 3 - 1;
            const uint64_t n = what == SL_MX_STD ? 4 : 2 + sl_test_rand64() % 1000;
            const uint32_t ddof = what == SL_MX_STD ? 0 : (uint32_t)(sl_test_rand64() % 2);
            const uint64_t d = n - ddof;
            const int j0 = what == SL_MX_VAR ? F[f].jv0 : what == SL_MX_STD ? F[f].js0 : F[f].jm0;
            const int j1 = what == SL_MX_VAR ? F[f].jv1 : what == SL_MX_STD ? F[f].js1 : F[f].jm1;
            /* lengths both below and above the window: j from either end of its range */
            const int j = (t / 9) % 2 ? j1 - (int)(sl_test_rand64() % 8) : j0 + (int)(sl_test_rand64() % 8);
            mpz_set_ui(M, 1);
            mpz_mul_2exp(M, M, (unsigned long)p);
            mpz_set_ui(T, (unsigned long)(sl_test_rand64() & ((1ull << (p < 60 ? p : 60)) - 1)));
            if (p > 60) mpz_mul_2exp(T, T, (unsigned long)(p - 60));
            mpz_ior(M, M, T);
            mpz_setbit(M, 0);                                    /* odd, p + 1 bits: a midpoint */
            memset(s1, 0, sizeof s1);
            memset(s2, 0, sizeof s2);
            double want;
            const int neg = what == SL_MX_MEAN && (t & 8);
            if (what == SL_MX_STD) {                            /* B = M^2 4^j + delta */
                mpz_mul(B, M, M);
                mpz_mul_2exp(B, B, 2u * (unsigned)j);
                if (delta > 0) mpz_add_ui(B, B, 1); else if (delta < 0) mpz_sub_ui(B, B, 1);
                limbs_of(B, s2, F[f].L2);
                mpfr_set_z(num, B, MPFR_RNDN);                  /* exact: 8192 bits */
                mpfr_sqrt(q, num, MPFR_RNDN);                   /* sqrt(nB / n^2) = sqrt(B) / 2 */
                mpfr_div_2si(q, q, 1 + F[f].s, MPFR_RNDN);
            } else {                                            /* X = d M 2^j + delta */
                mpz_mul_ui(B, M, (unsigned long)(what == SL_MX_VAR ? d : n));
                mpz_mul_2exp(B, B, (unsigned)j);
                if (delta > 0) mpz_add_ui(B, B, 1); else if (delta < 0) mpz_sub_ui(B, B, 1);
                if (neg) mpz_neg(B, B);
                limbs_of(B, what == SL_MX_VAR ? s2 : s1, what == SL_MX_VAR ? F[f].L2 : F[f].L1);
                mpfr_set_z(num, B, MPFR_RNDN);
                mpfr_div_ui(q, num, (unsigned long)(what == SL_MX_VAR ? d : n), MPFR_RNDN);
                mpfr_div_2si(q, q, what == SL_MX_VAR ? 2 * F[f].s : F[f].s, MPFR_RNDN);
            }
            want = mpfr_get_d(q, MPFR_RNDN);                    /* exact: p bits, normal */
            const double r = sl_mx_finish(what, s1, F[f].L1, s2, F[f].L2, F[f].s, n, ddof,
                                          SL_SACC_ANYPOS, F[f].dt);
            CHECK(same_bits(r, want), "crafted %s %s n=%llu ddof=%u j=%d delta=%d: %a, MPFR %a",
                  ops[what], sl_dtype_name(F[f].dt), (unsigned long long)n, ddof, j, delta, r, want);
            done++;
        }
    }
    CHECK(done == 2400, "%ld crafted cases", done);
    mpz_clears(M, B, T, (mpz_ptr)0);
    mpfr_clears(num, q, (mpfr_ptr)0);
}

/* The quotient's remainder as the only witness: the numerator's top 256 bits (the window) are
 * exactly D M 2^k + n delta (D = n d; mean: n M 2^k + delta), so the quotient's bits are M 2^k
 * with nothing below M but zeros, and only a nonzero remainder tells a value above or below the
 * midpoint from the tie; B (or S1) is that times 2^t, t placing the result in the normal range. */
static void crafted_remainder(void)
{
    static const struct { sl_dtype dt; int p, s, L1, L2, emin, emax; } F[] = {
        {SL_F32, 24, 149, 12, 20, -126, 127}, {SL_F64, 53, 1074, 68, 134, -1022, 1023},
        {SL_F16, 11, 149, 12, 20, -14, 15}, {SL_BF16, 8, 149, 12, 20, -126, 127},
    };
    mpz_t M, B;
    mpz_inits(M, B, (mpz_ptr)0);
    mpfr_t num, q;
    mpfr_init2(num, 8192);
    mpfr_init2(q, 64);
    int64_t s1[SL_SACC_LIMBS_MAX], s2[SL_MX_S2_LIMBS_F64];
    long done = 0;
    for (size_t f = 0; f < 4; f++) {
        const int p = F[f].p;
        mpfr_set_prec(q, p);
        for (int t = 0; t < 300; t++) {
            const int mean = t % 2, delta = (t / 2) % 2 ? 1 : -1;
            const uint64_t n = 2 + sl_test_rand64() % 100000;
            const uint32_t ddof = (uint32_t)(sl_test_rand64() % 2);
            const uint64_t d = n - ddof;
            mpz_set_ui(M, 1);
            mpz_mul_2exp(M, M, (unsigned long)p);
            mpz_add_ui(M, M, (unsigned long)((sl_test_rand64() & ((1ull << (p < 60 ? p : 60)) - 1)) | 1u));
            /* X = (D M 2^k + n delta) / n for var (nB's window), n M 2^k + delta for the mean */
            int k = 0;
            for (;; k++) {
                mpz_mul_ui(B, M, (unsigned long)(mean ? n : n * d));
                mpz_mul_2exp(B, B, (unsigned)k);
                if (mpz_sizeinbase(B, 2) >= 256) break;
            }
            if (mpz_sizeinbase(B, 2) != 256) continue;          /* the +-1 moves no top bit */
            mpz_mul_ui(B, M, (unsigned long)(mean ? n : d));
            mpz_mul_2exp(B, B, (unsigned)k);
            if (delta > 0) mpz_add_ui(B, B, 1); else mpz_sub_ui(B, B, 1);
            /* value (M 2^k + delta / q) 2^(t - s or - 2s): its leading exponent p + k + t - s' */
            const int s2x = mean ? F[f].s : 2 * F[f].s;
            int lo = F[f].emin, hi = F[f].emax - 1;
            if (lo < p + k - s2x) lo = p + k - s2x;
            const int Lb = mean ? F[f].L1 : F[f].L2;
            if (hi > p + k - s2x + 32 * Lb - 260) hi = p + k - s2x + 32 * Lb - 260;
            if (hi < lo) continue;
            const int lead = lo + (int)(sl_test_rand64() % (uint64_t)(hi - lo + 1));
            const int sh = lead - p - k + s2x;
            mpz_mul_2exp(B, B, (unsigned)sh);
            memset(s1, 0, sizeof s1);
            memset(s2, 0, sizeof s2);
            limbs_of(B, mean ? s1 : s2, Lb);
            mpfr_set_z(num, B, MPFR_RNDN);
            mpfr_div_ui(q, num, (unsigned long)(mean ? n : d), MPFR_RNDN);
            mpfr_div_2si(q, q, s2x, MPFR_RNDN);
            const double want = mpfr_get_d(q, MPFR_RNDN);
            const double r = sl_mx_finish(mean ? SL_MX_MEAN : SL_MX_VAR, s1, F[f].L1, s2, F[f].L2,
                                          F[f].s, n, ddof, SL_SACC_ANYPOS, F[f].dt);
            CHECK(same_bits(r, want), "remainder-only %s %s n=%llu ddof=%u delta=%d: %a, MPFR %a",
                  mean ? "mean" : "var", sl_dtype_name(F[f].dt), (unsigned long long)n, ddof, delta,
                  r, want);
            done++;
        }
    }
    CHECK(done > 800, "only %ld remainder-only cases", done);
    mpz_clears(M, B, (mpz_ptr)0);
    mpfr_clears(num, q, (mpfr_ptr)0);
}

/* ---- reproducible ----------------------------------------------------------------------------
 * On x (n values of dt): every member, ddof 0 and 1: the same bits for the reversed and a shuffled
 * copy, for the merge of the states of random pieces (sl_mxr_states, sl_rsum_state_merge), and
 * for other launch configurations; the error within the variant's bound (textbook model on float64
 * sums, depth() covering the binned sums' error), NaN exactly where the reference is NaN. */
static long rep_checked, rep_bounded, rep_grouped;

/* The kernels' grouped path on x: the first `lead` values one by one (sl_mxr_states), then groups
 * of SL_RSUM_GROUP through sl_mxr_take_group, the rest one by one; the three states merged. */
static void grouped_states(const void *x, uint64_t n, sl_dtype dt, int sq, uint64_t lead,
                           sl_rsum_state *st1, sl_rsum_state *st2)
{
    const size_t es = sl_dtype_size(dt);
    uint64_t i = lead < n ? lead : n;
    sl_mxr_states(x, i, dt, sq, st1, st2);
    sl_rsum_thr_f64 a1, a2;
    sl_rsum_init_f64(&a1);
    sl_rsum_init_f64(&a2);
    for (; i + SL_RSUM_GROUP <= n; i += SL_RSUM_GROUP) {
        double v[SL_RSUM_GROUP];
        for (int k = 0; k < SL_RSUM_GROUP; k++) v[k] = sl_tw_load(x, dt, i + (uint64_t)k);
        sl_mxr_take_group(&a1, &a2, v, sq, dt == SL_F64);
        rep_grouped++;
    }
    sl_rsum_state g1, g2, t1, t2;
    sl_rsum_to_state_f64(&a1, &g1);
    sl_rsum_to_state_f64(&a2, &g2);
    sl_mxr_states((const char *)x + i * es, n - i, dt, sq, &t1, &t2);
    sl_rsum_state_merge(st1, &g1);
    sl_rsum_state_merge(st1, &t1);
    sl_rsum_state_merge(st2, &g2);
    sl_rsum_state_merge(st2, &t2);
}

static void rep_case(const void *x, uint64_t n, sl_dtype dt, const char *what)
{
    const size_t es = sl_dtype_size(dt);
    unsigned char *rev = malloc(n * es + 1), *shuf = malloc(n * es + 1);
    for (uint64_t i = 0; i < n; i++) memcpy(rev + i * es, (const char *)x + (n - 1 - i) * es, es);
    memcpy(shuf, x, n * es);
    for (uint64_t i = n; i > 1; i--) {
        const uint64_t j = sl_test_rand64() % i;
        unsigned char t[8];
        memcpy(t, shuf + (i - 1) * es, es);
        memcpy(shuf + (i - 1) * es, shuf + j * es, es);
        memcpy(shuf + j * es, t, es);
    }
    for (int o = 0; o < 3; o++) {
        const sl_variant *v = sl_variant_find_op(ops[o], "reproducible");
        CHECK(v != NULL && v->determinism == SL_DET_ORDER_INDEPENDENT, "no %s/reproducible", ops[o]);
        if (!v) continue;
        for (uint32_t ddof = 0; ddof < (o ? 2u : 1u); ddof++) {
            sl_err err = {{0}};
            sl_launch cfg = {0};
            cfg.ddof = ddof;
            sl_variant_resolve(v, &cfg, n, dt);
            double r = 0, r2 = 0, r3 = 0, r4 = 0;
            CHECK(sl_variant_cpu(v, x, n, dt, &cfg, &r, &err) == 0, "%s: %s", what, err.msg);
            CHECK(sl_variant_cpu(v, rev, n, dt, &cfg, &r2, &err) == 0, "%s: %s", what, err.msg);
            CHECK(sl_variant_cpu(v, shuf, n, dt, &cfg, &r3, &err) == 0, "%s: %s", what, err.msg);
            sl_launch c2 = {.block = 64, .grid = 3, .ddof = ddof};
            sl_variant_resolve(v, &c2, n, dt);
            CHECK(sl_variant_cpu(v, x, n, dt, &c2, &r4, &err) == 0, "%s: %s", what, err.msg);
            CHECK(same_bits(r, r2) && same_bits(r, r3) && same_bits(r, r4),
                  "%s/reproducible %s %s n=%llu ddof=%u: %a, reversed %a, shuffled %a, block 64 %a",
                  ops[o], what, sl_dtype_name(dt), (unsigned long long)n, ddof, r, r2, r3, r4);
            /* pieces: up to 5 random cuts, states merged in reverse order */
            sl_rsum_state m1, m2;
            sl_rsum_state_zero(&m1);
            sl_rsum_state_zero(&m2);
            uint64_t cut[7];
            int nc = 0;
            cut[nc++] = n;
            for (int k = 0, K = (int)(sl_test_rand64() % 6); k < K && n; k++) cut[nc++] = sl_test_rand64() % (n + 1);
            cut[nc++] = 0;
            for (int a = 0; a < nc; a++)               /* sort descending */
                for (int b = a + 1; b < nc; b++)
                    if (cut[b] > cut[a]) { const uint64_t t = cut[a]; cut[a] = cut[b]; cut[b] = t; }
            for (int k = 0; k + 1 < nc; k++) {
                sl_rsum_state p1, p2;
                sl_mxr_states((const char *)x + cut[k + 1] * es, cut[k] - cut[k + 1], dt, o != 0, &p1, &p2);
                sl_rsum_state_merge(&m1, &p1);
                sl_rsum_state_merge(&m2, &p2);
            }
            const double rm = sl_mxr_final(o == 0 ? SL_MX_MEAN : o == 1 ? SL_MX_VAR : SL_MX_STD, n,
                                           ddof, &m1, &m2, dt);
            CHECK(same_bits(r, rm), "%s/reproducible %s %s n=%llu ddof=%u: %a, merged pieces %a",
                  ops[o], what, sl_dtype_name(dt), (unsigned long long)n, ddof, r, rm);
            /* the kernels' groups (sl_mxr_take_group) after a lead of 0..7 values */
            sl_rsum_state q1, q2;
            grouped_states(x, n, dt, o != 0, sl_test_rand64() % SL_RSUM_GROUP, &q1, &q2);
            const double rq = sl_mxr_final(o == 0 ? SL_MX_MEAN : o == 1 ? SL_MX_VAR : SL_MX_STD, n,
                                           ddof, &q1, &q2, dt);
            CHECK(same_bits(r, rq), "%s/reproducible %s %s n=%llu ddof=%u: %a, grouped %a",
                  ops[o], what, sl_dtype_name(dt), (unsigned long long)n, ddof, r, rq);
            rep_checked++;
            /* within its bound of the exact value */
            sl_reference ref;
            const sl_moment m = o == 0 ? SL_MOMENT_MEAN : o == 1 ? SL_MOMENT_VAR : SL_MOMENT_STD;
            if (sl_reference_moment(&ref, m, x, n, dt, ddof, 1, &err)) {
                CHECK(0, "reference %s: %s", what, err.msg);
                continue;
            }
            const double b = sl_variant_bound(v, &ref, n, dt, &cfg);
            if (isnan(ref.rounded)) {
                CHECK(isnan(r), "%s/reproducible %s %s n=%llu ddof=%u: %a, the reference NaN", ops[o],
                      what, sl_dtype_name(dt), (unsigned long long)n, ddof, r);
            } else if (isinf(ref.rounded) && r == ref.rounded) {
                /* the exact value overflows the format: so does the result */
            } else if (!isfinite(r)) {
                CHECK(b == INFINITY, "%s/reproducible %s %s n=%llu ddof=%u: %a with a finite bound %g",
                      ops[o], what, sl_dtype_name(dt), (unsigned long long)n, ddof, r, b);
            } else {
                const sl_errors er = sl_reference_errors(&ref, r, dt);
                CHECK(b >= 0 && er.abs_err <= b, "%s/reproducible %s %s n=%llu ddof=%u: %a, error %g "
                      "above the bound %g", ops[o], what, sl_dtype_name(dt), (unsigned long long)n,
                      ddof, r, er.abs_err, b);
                rep_bounded++;
            }
            sl_reference_clear(&ref);
        }
    }
    free(rev);
    free(shuf);
}

static void rep_cases(void)
{
    static const uint64_t sizes[] = {0, 1, 2, 33, 1000, 65539};
    void *buf = malloc(65539 * 8);
    for (size_t i = 0; i < sl_dataset_count(); i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        for (size_t f = 0; f < 4; f++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                const sl_dtype dt = fmts[f];
                const uint64_t n = sizes[s];
                sl_params p;
                sl_err err = {{0}};
                if (sl_test_params(ds, dt, &p, &err)) continue;
                int rc = 0;
                if (n) rc = sl_dataset_generate(ds, dt, sl_test_seed() + 7 + s, n, &p, 0, n, buf, &err);
                if (rc) continue;   /* refused in the format: tmoments_exact's families count them */
                rep_case(buf, n, dt, ds->name);
            }
    }
    /* non-finite values and float64 squares that overflow or underflow, inside the groups */
    static const double specials[] = {NAN, INFINITY, -INFINITY, 1e200, -3e170, 1e-300, 0x1p-1074, -0.0};
    double *v = malloc(1000 * sizeof *v);
    for (size_t f = 0; f < 4; f++)
        for (int c = 0; c < 16; c++) {
            for (int i = 0; i < 1000; i++) v[i] = (unif() - 0.5) * 8.0;
            for (int k = 0; k < 1 + c % 4; k++) v[sl_test_rand64() % 1000] = specials[(c + 3 * k) % 8];
            for (int i = 0; i < 1000; i++) put(buf, fmts[f], (uint64_t)i, v[i]);
            rep_case(buf, 1000, fmts[f], "specials");
        }
    free(v);
    CHECK(rep_checked > 1500 && rep_bounded > 1000 && rep_grouped > 100000,
          "only %ld reproducible cases, %ld bounded, %ld groups", rep_checked, rep_bounded, rep_grouped);
    free(buf);
}

/* The certificate on the data it is for (it must decide: 4 folds of 40 bits keep ~150 bits below
 * the largest input, where N(1e6, 1) needs ~40 + 24 and 1e20 (1 + N(0, 1e-3)) ~20 + 24) and where
 * it cannot (it must then leave the result to the exact kernel): every op, ddof 0 and 1. */
static double gauss(void)
{
    const double u = unif() + 0x1p-54, w = unif();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * w);
}
static int cert_all(const void *x, uint64_t n, sl_dtype dt, const char *what, int want)
{
    int ok = 0;
    for (int o = 0; o < 3; o++)
        for (uint32_t ddof = 0; ddof < (o ? 2u : 1u); ddof++) {
            double r;
            const int c = sl_mxc_certify(o, x, n, ddof, dt, &r);
            if (want >= 0)
                CHECK(c == want, "%s %s %s ddof=%u: certificate %s", ops[o], what,
                      sl_dtype_name(dt), ddof, c ? "holds" : "fails");
            ok += c;
        }
    return ok;
}
static void cert_cases(void)
{
    enum { N = 65539 };
    float *xf = malloc(N * sizeof *xf);
    uint16_t *xh = malloc(N * sizeof *xh);
    for (int i = 0; i < N; i++) xf[i] = (float)(1e6 + gauss());
    check_case(xf, N, SL_F32, "N(1e6, 1)");
    cert_all(xf, N, SL_F32, "N(1e6, 1)", 1);
    for (int i = 0; i < N; i++) xf[i] = (float)(1e20 * (1.0 + 1e-3 * gauss()));
    check_case(xf, N, SL_F32, "1e20 (1 + N(0, 1e-3))");
    cert_all(xf, N, SL_F32, "1e20 (1 + N(0, 1e-3))", 1);
    for (int i = 0; i < N; i++) xf[i] = (float)(-1e4 + 1e-2 * gauss());
    check_case(xf, N, SL_F32, "N(-1e4, 1e-2)");
    cert_all(xf, N, SL_F32, "N(-1e4, 1e-2)", 1);
    for (int i = 0; i < N; i++) xf[i] = (float)gauss();
    check_case(xf, N, SL_F32, "N(0, 1)");
    cert_all(xf, N, SL_F32, "N(0, 1)", 1);
    for (size_t f = 2; f < 4; f++) {                 /* 16-bit input: mean 1e3 (bfloat16: 1e6) */
        const double c = fmts[f] == SL_F16 ? 1e3 : 1e6;
        for (int i = 0; i < N; i++) xh[i] = sl_half_from_double(c * (1.0 + 1e-2 * gauss()), fmts[f]);
        check_case(xh, N, fmts[f], "large mean 16-bit");
        cert_all(xh, N, fmts[f], "large mean 16-bit", 1);
    }
    /* where it must fail: the variance exactly 0 of a constant array (the interval holds 0 and a
     * positive value), and a survivor far below the cancelling values (the mean's interval
     * holds 0): the exact kernel decides them */
    for (int i = 0; i < 1000; i++) xf[i] = 3.0f;
    for (int o = 1; o < 3; o++) {
        double r;
        CHECK(!sl_mxc_certify(o, xf, 1000, 1, SL_F32, &r), "%s of a constant certified", ops[o]);
    }
    xf[0] = 0x1p100f; xf[1] = -0x1p100f; xf[2] = 0x1p-100f;
    {
        double r;
        CHECK(!sl_mxc_certify(SL_MX_MEAN, xf, 3, 0, SL_F32, &r), "mean of {2^100, -2^100, 2^-100} certified");
    }
    check_case(xf, 3, SL_F32, "{2^100, -2^100, 2^-100}");
    free(xf);
    free(xh);
}

/* The default launches (moments_exact.c's resolve): float64 var/std take blocks of
 * SL_MX_BLOCK_F64, SL_MX_BLOCKS_PER_SM_F64 an SM; mean and the narrower formats blocks of
 * SL_MX_BLOCK, SL_MX_BLOCKS_PER_SM an SM (their certified passes take at most 512 threads); the
 * reproducible members keep SL_MXR_BLOCK at 4 an SM; every one fewer blocks for small n, and a
 * requested block stays. */
static void launch_cases(void)
{
    static const char *const kinds[] = {"correct", "reproducible"};
    for (int k = 0; k < 2; k++)
        for (int o = 0; o < 3; o++)
            for (int f = 0; f < 4; f++) {
                const sl_variant *v = sl_variant_find_op(ops[o], kinds[k]);
                CHECK(v != NULL, "no %s/%s", ops[o], kinds[k]);
                if (!v) continue;
                const sl_dtype dt = fmts[f];
                const int wide = k == 0 && o != 0 && dt == SL_F64;
                const uint32_t block = k ? SL_MXR_BLOCK : wide ? SL_MX_BLOCK_F64 : SL_MX_BLOCK;
                const uint32_t per_sm = wide ? SL_MX_BLOCKS_PER_SM_F64 : SL_MX_BLOCKS_PER_SM;
                sl_launch big = {.sm_count = 132};
                sl_variant_resolve(v, &big, (uint64_t)1 << 28, dt);
                CHECK(big.block == block && big.grid == 132u * per_sm,
                      "%s/%s %s 2^28: block %u grid %u, want %u and %u", ops[o], kinds[k],
                      sl_dtype_name(dt), big.block, big.grid, block, 132u * per_sm);
                sl_launch small = {.sm_count = 132};
                sl_variant_resolve(v, &small, 5000, dt);
                CHECK(small.block == block && small.grid >= 1 && small.grid < 132u * per_sm,
                      "%s/%s %s n=5000: block %u grid %u", ops[o], kinds[k], sl_dtype_name(dt),
                      small.block, small.grid);
                sl_launch asked = {.sm_count = 132, .block = 128};
                sl_variant_resolve(v, &asked, (uint64_t)1 << 28, dt);
                CHECK(asked.block == 128u, "%s/%s %s: asked 128, resolved %u", ops[o], kinds[k],
                      sl_dtype_name(dt), asked.block);
            }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    crafted_cases();
    crafted_remainder();
    edge_cases();
    random_short();
    swept_cases();
    dataset_cases();
    rep_cases();
    cert_cases();
    launch_cases();
    /* the certificate decides most arrays (the rest: constants, exact cancellations, ties) */
    fprintf(stderr, "tmoments_exact: certified %ld, fell back %ld\n", certified, fell_back);
    CHECK(certified > 4 * fell_back, "certified %ld, fell back %ld", certified, fell_back);
    CHECK(compared > 10000, "only %ld comparisons", compared);
    return sl_test_done("tmoments_exact");
}

/* tlse_math.c: the lse variants' exponential and logarithm (kernels/lse/lse_math.h, shared by the
 * kernels and their twins) against MPFR: errors in ulps of the correctly rounded value over random
 * arguments spanning each function's range, the boundaries (overflow, underflow, subnormal
 * results, powers of two, 1 +- ulp) and the special values; online's tile exponential
 * (sl_lm_expf_tile) on [-86.5, 0] (random, and every 61st float against the double exp) and its
 * floor below; its 16-bit form (sl_lm_expf16), relative error; the double-double exponential of float64 `accurate` (sl_lm_exp_dd), relative
 * error of the pair. */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include "lse/lse_math.h"
#include "sumlab/half.h"
#include "sl_test.h"

/* |got - exact(x)| in ulps of the correctly rounded result (format of p bits, emin as IEEE). */
static double ulp_err(double got, mpfr_srcptr exact, int dbl)
{
    mpfr_t r, d;
    mpfr_inits2(256, r, d, (mpfr_ptr)0);
    double cr = dbl ? mpfr_get_d(exact, MPFR_RNDN) : (double)mpfr_get_flt(exact, MPFR_RNDN);
    int e;
    frexp(cr == 0.0 ? (dbl ? 0x1p-1074 : 0x1p-149) : cr, &e);
    /* ulp of cr's binade (subnormal: the smallest subnormal) */
    long ue = dbl ? (e - 53 < -1074 ? -1074 : e - 53) : (e - 24 < -149 ? -149 : e - 24);
    mpfr_set_d(r, got, MPFR_RNDN);
    mpfr_sub(d, r, exact, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_mul_2si(d, d, -ue, MPFR_RNDN);
    double u = mpfr_get_d(d, MPFR_RNDN);
    mpfr_clears(r, d, (mpfr_ptr)0);
    return u;
}

/* The worst error in float32 ulps of f against the double exp over every 61st float bit pattern
 * from b0 to b1 (the double exp's own error, below 1e-8 ulps of float32, is left in the figure). */
static double sweep_worst(uint32_t b0, uint32_t b1, float (*f)(float))
{
    double worst_ulps = 0.0;
    for (uint32_t b = b0; b <= b1; b += 61u) {
        const float d = sl_lm_u2f(b);
        const double ex = exp((double)d), got = (double)f(d);
        int e;
        frexp((double)(float)ex, &e);
        const double err = fabs(got - ex) / ldexp(1.0, e - 24);
        if (err > worst_ulps) worst_ulps = err;
    }
    return worst_ulps;
}

static double worst[5];
static const char *names[5] = {"expf", "exp", "logf", "log", "expf_tile"};

static void check_one(int which, double x)
{
    mpfr_t a, y;
    mpfr_inits2(256, a, y, (mpfr_ptr)0);
    mpfr_set_d(a, x, MPFR_RNDN);
    double got;
    switch (which) {
    case 0: got = sl_lm_expf((float)x); mpfr_exp(y, a, MPFR_RNDN); break;
    case 4: got = sl_lm_expf_tile((float)x); mpfr_exp(y, a, MPFR_RNDN); break;
    case 1: got = sl_lm_exp(x); mpfr_exp(y, a, MPFR_RNDN); break;
    case 2: got = sl_lm_logf((float)x); mpfr_log(y, a, MPFR_RNDN); break;
    default: got = sl_lm_log(x); mpfr_log(y, a, MPFR_RNDN); break;
    }
    const int dbl = which & 1;
    /* results beyond the format: the function must give the correctly rounded Inf / 0 */
    double cr = dbl ? mpfr_get_d(y, MPFR_RNDN) : (double)mpfr_get_flt(y, MPFR_RNDN);
    if (isinf(cr)) {
        CHECK(got == cr, "%s(%a) = %a, expected %a", names[which], x, got, cr);
    } else {
        double u = ulp_err(got, y, dbl);
        if (u > worst[which]) worst[which] = u;
        CHECK(u <= 2.0, "%s(%a) = %a, %.3f ulps from exact", names[which], x, got, u);
    }
    mpfr_clears(a, y, (mpfr_ptr)0);
}

static double unif(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(sl_test_rand64() >> 11) * 0x1p-53);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    const int N = 40000;
    for (int i = 0; i < N; i++) {
        check_one(0, (float)unif(-104.0, 89.0));
        check_one(0, (float)unif(-1.0, 1.0));
        check_one(1, unif(-746.0, 710.0));
        check_one(1, unif(-1.0, 1.0));
        /* log: every binade of each format (subnormals included) and values near 1 */
        check_one(2, (double)(float)ldexp(unif(1.0, 2.0), (int)unif(-149.0, 128.0)));
        check_one(2, (double)(float)unif(0.5, 2.0));
        check_one(3, ldexp(unif(1.0, 2.0), (int)unif(-1074.0, 1024.0)));
        check_one(3, unif(0.5, 2.0));
    }
    const double fe[] = {0.0, -0.0, 1.0, -1.0, 0x1p-30, -0x1p-30, 88.72283f, 88.7228393f,
                         -87.336544f, -87.33655f, -103.97207f, -103.9720840f, -100.0, 0.34657359f,
                         -0.34657359f, 0.34657362f, 10.0, -10.0, 80.0};
    for (size_t i = 0; i < sizeof fe / sizeof fe[0]; i++) check_one(0, (float)fe[i]);
    const double de[] = {0.0, -0.0, 1.0, -1.0, 0x1p-60, 709.78, 709.782712893383, -708.39,
                         -708.4, -745.13, -745.1332191019, -740.0, 0.34657359027997264,
                         -0.34657359027997264, 700.0, -700.0};
    for (size_t i = 0; i < sizeof de / sizeof de[0]; i++) check_one(1, de[i]);
    const double fl[] = {1.0, 0x1.000002p0, 0x1.fffffep-1, 2.0, 0.5, 0x1p-149, 0x1p-126,
                         0x1.fffffcp-127, FLT_MAX, 1.41421354f, 1.41421366f, 0.70710677f, 3.0, 10.0};
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++) check_one(2, fl[i]);
    const double dl[] = {1.0, 0x1.0000000000001p0, 0x1.fffffffffffffp-1, 2.0, 0x1p-1074,
                         0x1p-1022, 0x1.ffffffffffffep-1023, DBL_MAX, 1.4142135623730951,
                         1.4142135623730949, 3.0, 1e300, 1e-300};
    for (size_t i = 0; i < sizeof dl / sizeof dl[0]; i++) check_one(3, dl[i]);

    /* the tile exponential (online's terms): d in [-86.5, 0] against MPFR at random, then every
     * 61st float of [-86.5, 0] against the double exp (its error, below 1e-8 ulps of float32, is
     * left in the figure); below -86.5 and -Inf: exp(-86.5) (its floor); exp(-0) = exp(0) = 1 */
    for (int i = 0; i < N; i++) {
        check_one(4, (float)unif(-86.5, 0.0));
        check_one(4, (float)unif(-1.0, 0.0));
    }
    const double te[] = {0.0, -0.0, -0x1p-30, -0.34657359f, -0.34657362f, -1.0, -10.0, -80.0,
                         -86.0, -86.5, -0x1.0000002p-1};
    for (size_t i = 0; i < sizeof te / sizeof te[0]; i++) check_one(4, (float)te[i]);
    const double tile_worst = sweep_worst(0x80000000u, sl_lm_f2u(-86.5f), sl_lm_expf_tile);
    CHECK(tile_worst <= 2.0, "expf_tile over every 61st float of [-86.5, 0]: %.3f ulps > 2", tile_worst);
    printf("expf_tile over every 61st float of [-86.5, 0]: worst %.3f ulps\n", tile_worst);
    CHECK(sl_lm_expf_tile(0.0f) == 1.0f && sl_lm_expf_tile(-0.0f) == 1.0f, "expf_tile(+-0) = 1 exactly");
    CHECK(sl_lm_expf_tile(-INFINITY) == sl_lm_expf_tile(-86.5f) &&
              sl_lm_expf_tile(-1e30f) == sl_lm_expf_tile(-86.5f) &&
              sl_lm_expf_tile(-86.5f) > 0x1p-125f && sl_lm_expf_tile(-86.5f) < 0x1p-124f,
          "expf_tile below -86.5: its floor exp(-86.5) = %a", (double)sl_lm_expf_tile(-86.5f));

    /* the terms of online and reproducible on 16-bit input (sl_lm_expf16): relative error below
     * 2^-17 over every 7th float of [-86.5, 0] and of (0, 88] against the double exp and at
     * MPFR's random arguments; exp(-0) = exp(0) = 1 exactly; below -86.5 and -Inf its floor
     * exp(-86.5) */
    {
        double w16 = 0.0;
        for (int side = 0; side < 2; side++)
            for (uint32_t b = side ? 1u : 0x80000000u; b <= (side ? sl_lm_f2u(88.0f) : sl_lm_f2u(-86.5f)); b += 7u) {
                const float d = sl_lm_u2f(b);
                const double rel = fabs((double)sl_lm_expf16(d) / exp((double)d) - 1.0);
                if (rel > w16) w16 = rel;
            }
        mpfr_t a, y, g;
        mpfr_inits2(128, a, y, g, (mpfr_ptr)0);
        for (int i = 0; i < N; i++) {
            const float d = (float)(i % 3 == 0 ? unif(-1.0, 1.0) : i % 3 == 1 ? unif(-86.5, 0.0) : unif(0.0, 88.0));
            mpfr_set_flt(a, d, MPFR_RNDN);
            mpfr_exp(y, a, MPFR_RNDN);
            mpfr_set_flt(g, sl_lm_expf16(d), MPFR_RNDN);
            mpfr_div(g, g, y, MPFR_RNDN);
            mpfr_sub_ui(g, g, 1, MPFR_RNDN);
            const double rel = fabs(mpfr_get_d(g, MPFR_RNDN));
            CHECK(rel < 0x1p-17, "expf16(%a): relative error %.3g >= 2^-17", (double)d, rel);
        }
        /* every float16 and bfloat16 value in [-86.5, 88] against MPFR: the inputs that reach
         * it (16-bit accurate's first pass decides with 2^-17 as a bound for each term, lse.h's
         * sl_lse_accf_decide, so the bound is checked on each of them, not sampled) */
        const sl_dtype fmts[2] = {SL_F16, SL_BF16};
        for (int f = 0; f < 2; f++) {
            double wf = 0.0;
            long in_range = 0;
            for (uint32_t h = 0; h < 0x10000u; h++) {
                const double v = sl_half_to_double((uint16_t)h, fmts[f]);
                if (!(v >= -86.5 && v <= 88.0)) continue;
                const float d = (float)v; /* exact: 16-bit values are float32 values */
                mpfr_set_flt(a, d, MPFR_RNDN);
                mpfr_exp(y, a, MPFR_RNDN);
                mpfr_set_flt(g, sl_lm_expf16(d), MPFR_RNDN);
                mpfr_div(g, g, y, MPFR_RNDN);
                mpfr_sub_ui(g, g, 1, MPFR_RNDN);
                mpfr_abs(g, g, MPFR_RNDN);
                const double rel = mpfr_get_d(g, MPFR_RNDU);
                if (rel > wf) wf = rel;
                in_range++;
            }
            CHECK(in_range > (f ? 30000 : 40000) && wf < 0x1p-17,
                  "expf16 over every %s value in [-86.5, 88] (%ld): relative error %.3g >= 2^-17",
                  f ? "bfloat16" : "float16", in_range, wf);
            printf("expf16 over every %s value in [-86.5, 88] (%ld): worst relative error 2^%.2f\n",
                   f ? "bfloat16" : "float16", in_range, log2(wf));
        }
        mpfr_clears(a, y, g, (mpfr_ptr)0);
        CHECK(w16 < 0x1p-17, "expf16 over every 7th float of [-86.5, 88]: relative error %.3g >= 2^-17", w16);
        printf("expf16 over every 7th float of [-86.5, 88]: worst relative error 2^%.2f\n", log2(w16));
        CHECK(sl_lm_expf16(0.0f) == 1.0f && sl_lm_expf16(-0.0f) == 1.0f, "expf16(+-0) = 1 exactly");
        CHECK(sl_lm_expf16(-INFINITY) == sl_lm_expf16(-86.5f) &&
                  sl_lm_expf16(-1e30f) == sl_lm_expf16(-86.5f) &&
                  sl_lm_expf16(-86.5f) > 0x1p-125f && sl_lm_expf16(-86.5f) < 0x1p-124f,
              "expf16 below -86.5: its floor exp(-86.5) = %a", (double)sl_lm_expf16(-86.5f));
    }

    /* the core on (0, 88] (reproducible's unshifted terms), every 61st float, against the double exp */
    const double core_worst = sweep_worst(0x00000001u, sl_lm_f2u(88.0f), sl_lm_expf_core);
    CHECK(core_worst <= 2.0, "expf_core over every 61st float of (0, 88]: %.3f ulps > 2", core_worst);
    printf("expf_core over every 61st float of (0, 88]: worst %.3f ulps\n", core_worst);

    /* the float64 table exponential (accurate's first pass) against MPFR: relative error below
     * SL_LM_EXP_T64_ERR on [-700, 700] at random, near 0, at the table's nodes and between them */
    {
        mpfr_t a, y, g;
        mpfr_inits2(256, a, y, g, (mpfr_ptr)0);
        double t64_worst = 0.0;
        for (int i = 0; i < 4 * N + 130; i++) {
            const double x = i < N       ? unif(-700.0, 700.0)
                             : i < 2 * N ? unif(-1.0, 1.0)
                             : i < 3 * N ? unif(-0x1p-20, 0x1p-20)
                             : i < 4 * N ? (double)(int)unif(-44800.0, 44800.0) * 0x1.62e42fefa39efp-7 +
                                               unif(-0.0055, 0.0055)
                                         : (i - 4 * N - 65) * 5.4;
            mpfr_set_d(a, x, MPFR_RNDN);
            mpfr_exp(y, a, MPFR_RNDN);
            mpfr_set_d(g, sl_lm_exp_t64(x, sl_lm_t64), MPFR_RNDN);
            mpfr_sub(g, g, y, MPFR_RNDN);
            mpfr_div(g, g, y, MPFR_RNDN);
            const double rel = fabs(mpfr_get_d(g, MPFR_RNDN));
            if (rel > t64_worst) t64_worst = rel;
            CHECK(rel <= SL_LM_EXP_T64_ERR, "exp_t64(%a): relative error %g > %g", x, rel, SL_LM_EXP_T64_ERR);
        }
        CHECK(sl_lm_exp_t64(0.0, sl_lm_t64) == 1.0, "exp_t64(0) = 1 exactly");
        printf("exp_t64 on [-700, 700]: worst relative error 2^%.2f (bound 2^-44)\n", log2(t64_worst));
        mpfr_clears(a, y, g, (mpfr_ptr)0);
    }

    /* the double-double exponential (float64 `accurate`'s terms, rescales and final Newton step)
     * against MPFR: exp(dh + dl), dl up to half an ulp of dh, relative error of the pair below
     * SL_LM_EXP_DD_ERR where the result is normal (dh >= -650: the low part normal too), on
     * [-650, 1] at random, near 0, at the table's nodes and between them; the pair normalised
     * (|lo| <= ulp(hi) / 2); below -708 and -Inf the floor exp(-708) (absolute change below
     * 2^-1021); NaN kept; exp(0) = 1 exactly */
    {
        mpfr_t a, y, g;
        mpfr_inits2(256, a, y, g, (mpfr_ptr)0);
        double dd_worst = 0.0;
        for (int i = 0; i < 5 * N; i++) {
            const double dh = i < N       ? unif(-650.0, 1.0)
                              : i < 2 * N ? unif(-1.0, 1.0)
                              : i < 3 * N ? unif(-0x1p-20, 0x1p-20)
                              : i < 4 * N ? unif(-40.0, 0.0)
                                          : (double)(int)unif(-41600.0, 64.0) * 0x1.62e42fefa39efp-7 +
                                                unif(-0.0055, 0.0055);
            const double dl = i % 3 == 0 ? 0.0 : ldexp(unif(-0.5, 0.5), ilogb(dh) - 52);
            double lo;
            const double hi = sl_lm_exp_dd(dh, dl, &lo);
            mpfr_set_d(a, dh, MPFR_RNDN);
            mpfr_add_d(a, a, dl, MPFR_RNDN);
            mpfr_exp(y, a, MPFR_RNDN);
            mpfr_set_d(g, hi, MPFR_RNDN);
            mpfr_add_d(g, g, lo, MPFR_RNDN);
            mpfr_sub(g, g, y, MPFR_RNDN);
            mpfr_div(g, g, y, MPFR_RNDN);
            const double rel = fabs(mpfr_get_d(g, MPFR_RNDN));
            if (rel > dd_worst) dd_worst = rel;
            CHECK(rel <= SL_LM_EXP_DD_ERR && fabs(lo) <= 0x1p-53 * fabs(hi),
                  "exp_dd(%a + %a) = %a + %a: relative error %g > %g, or not normalised", dh, dl, hi,
                  lo, rel, SL_LM_EXP_DD_ERR);
        }
        double lo0 = 1.0, lofl = 1.0, loinf = 1.0, lonan = 1.0;
        CHECK(sl_lm_exp_dd(0.0, 0.0, &lo0) == 1.0 && lo0 == 0.0, "exp_dd(0) = 1 exactly");
        const double fl = sl_lm_exp_dd(-708.0, 0.0, &lofl);
        CHECK(sl_lm_exp_dd(-INFINITY, NAN, &loinf) == fl && loinf == lofl &&
                  sl_lm_exp_dd(-1e300, 0.0, &lonan) == fl && fl > 0x1p-1022 && fl < 0x1p-1021,
              "exp_dd below -708 and of -Inf (tail NaN): its floor exp(-708) = %a", fl);
        CHECK(isnan(sl_lm_exp_dd(NAN, 0.0, &lonan)), "exp_dd(NaN) is NaN");
        printf("exp_dd on [-650, 1]: worst relative error 2^%.2f (bound 2^-74)\n", log2(dd_worst));
        mpfr_clears(a, y, g, (mpfr_ptr)0);
    }

    /* special values */
    CHECK(isnan(sl_lm_expf(NAN)) && isnan(sl_lm_exp(NAN)), "exp(NaN)");
    CHECK(sl_lm_expf(-INFINITY) == 0.0f && sl_lm_exp(-INFINITY) == 0.0, "exp(-Inf)");
    CHECK(sl_lm_expf(INFINITY) == INFINITY && sl_lm_exp(INFINITY) == INFINITY, "exp(+Inf)");
    CHECK(sl_lm_expf(0.0f) == 1.0f && sl_lm_exp(0.0) == 1.0, "exp(0) = 1 exactly");
    CHECK(sl_lm_logf(1.0f) == 0.0f && sl_lm_log(1.0) == 0.0, "log(1) = 0 exactly");
    CHECK(sl_lm_logf(0.0f) == -INFINITY && sl_lm_log(0.0) == -INFINITY, "log(0)");
    CHECK(sl_lm_logf(-0.0f) == -INFINITY && sl_lm_log(-0.0) == -INFINITY, "log(-0)");
    CHECK(sl_lm_logf(INFINITY) == INFINITY && sl_lm_log(INFINITY) == INFINITY, "log(+Inf)");
    CHECK(isnan(sl_lm_logf(-1.0f)) && isnan(sl_lm_log(-1.0)), "log(-1)");
    CHECK(isnan(sl_lm_logf(NAN)) && isnan(sl_lm_log(NAN)), "log(NaN)");
    printf("worst ulps: expf %.3f exp %.3f logf %.3f log %.3f expf_tile %.3f\n", worst[0], worst[1],
           worst[2], worst[3], worst[4]);
    return sl_test_done("tlse_math");
}

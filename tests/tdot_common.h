/* tdot_common.h: the dot tests' inputs: pairs of arrays in every format (random, wide-range,
 * cancelling, ill-conditioned, edge values), built from the tests' seeded stream. */
#ifndef TDOT_COMMON_H
#define TDOT_COMMON_H
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sumlab/half.h"
#include "sumlab/types.h"

enum { TD_RANDOM = 0, TD_WIDE, TD_CANCEL, TD_ILL, TD_SMALLINT, TD_TINY, TD_NFAM };
static const char *const td_fam_name[TD_NFAM] = {"random", "wide", "cancel", "ill", "smallint", "tiny"};

static inline double td_unit(void) { return sl_unit53(sl_test_rand64()) * 2.0 - 1.0; }

/* v rounded to dt, stored at element i of a. */
static inline void td_store(void *a, sl_dtype dt, uint64_t i, double v)
{
    if (dt == SL_F64) ((double *)a)[i] = v;
    else if (dt == SL_F32) ((float *)a)[i] = (float)v;
    else ((uint16_t *)a)[i] = sl_half_from_double(v, dt);
}
static inline double td_load(const void *a, sl_dtype dt, uint64_t i)
{
    if (dt == SL_F64) return ((const double *)a)[i];
    if (dt == SL_F32) return ((const float *)a)[i];
    return sl_half_to_double(((const uint16_t *)a)[i], dt);
}

/* A binade range that keeps every product and sum of n of them finite in dt (wide family). */
static inline int td_emax(sl_dtype dt)
{
    return dt == SL_F64 ? 500 : dt == SL_F32 ? 60 : dt == SL_F16 ? 3 : 60;
}

/* Fills x, y (n values of dt each) with family fam. */
static inline void td_fill(void *x, void *y, uint64_t n, sl_dtype dt, int fam)
{
    const int em = td_emax(dt);
    for (uint64_t i = 0; i < n; i++) {
        double a = td_unit(), b = td_unit();
        switch (fam) {
        case TD_WIDE: {
            /* float64: exponents over the whole range, so products fall in every window */
            const int lo = dt == SL_F64 ? -1074 : dt == SL_F32 ? -149 : dt == SL_F16 ? -24 : -133;
            const int span = em - lo;
            a = ldexp(a, lo + (int)(sl_test_rand64() % (uint64_t)(span + 1)) / (dt == SL_F64 ? 1 : 1));
            b = ldexp(b, (int)(sl_test_rand64() % (uint64_t)(2 * em + 1)) - em);
            if (dt == SL_F64 && (i % 3) == 0) b = ldexp(td_unit(), 900 + (int)(sl_test_rand64() % 100));
            if (dt == SL_F64 && (i % 3) == 0) a = ldexp(td_unit(), -1000 + (int)(sl_test_rand64() % 90));
            break;
        }
        case TD_CANCEL:   /* pairs of opposite products, plus a little */
            if (i % 2 == 1) {
                a = -td_load(x, dt, i - 1);
                b = td_load(y, dt, i - 1);
            }
            break;
        case TD_ILL: {    /* big cancelling products and small ones */
            const double big = dt == SL_F16 ? 16.0 : dt == SL_BF16 ? 0x1p20 : dt == SL_F32 ? 0x1p20 : 0x1p40;
            if (i % 4 < 2) a *= big;
            if (i % 4 == 1 && i > 0) {
                a = -td_load(x, dt, i - 1);
                b = td_load(y, dt, i - 1);
            }
            break;
        }
        case TD_SMALLINT: /* small integers: ties and exact zeros */
            a = (double)((int64_t)(sl_test_rand64() % 17) - 8);
            b = (double)((int64_t)(sl_test_rand64() % 17) - 8) * 0.5;
            break;
        case TD_TINY: {   /* subnormal-range factors: every product below the format's range */
            const int lo = dt == SL_F64 ? -1070 : dt == SL_F32 ? -145 : dt == SL_F16 ? -22 : -130;
            a = ldexp(a, lo);
            b = ldexp(b, lo / 2);
            break;
        }
        default: break;
        }
        td_store(x, dt, i, a);
        td_store(y, dt, i, b);
    }
}

/* float64 pairs with products outside [2^-968, 2^1000) (correct's scaled windows, kernels/dot/dot.h;
 * the reference's outer windows): case k < TD_NWIN into x, y (room for TD_WIN_MAX doubles each);
 * returns n and names the case in *what. */
#define TD_NWIN 16
#define TD_WIN_MAX 4096
static inline uint64_t td_window_case(int k, double *x, double *y, const char **what)
{
    const double tiny_a = 0.6 * 0x1p-537, tiny_b = 0.5 * 0x1p-537;
    uint64_t n = 0;
#define TD_P(a, b) (x[n] = (a), y[n] = (b), n++)
    switch (k) {
    case 0:   /* products of 2^1200 cancelling: the dot is 1 */
        *what = "2^1200 products cancelling";
        TD_P(0x1p600, 0x1p600); TD_P(-0x1p600, 0x1p600); TD_P(1.0, 1.0);
        break;
    case 1:   /* two products of 0.3 2^-1074: the dot rounds to 2^-1074 */
        *what = "subnormal-range products";
        TD_P(tiny_a, tiny_b); TD_P(tiny_a, tiny_b);
        break;
    case 2:   /* 2^-1075 products: 1, 2, 3 of them round to 0, 2^-1074 (exact), 2^-1073 (a tie) */
        *what = "2^-1075 products (ties)";
        TD_P(0x1p-537, 0x1p-538); TD_P(0x1p-538, 0x1p-537); TD_P(-0x1p-537, -0x1p-538);
        break;
    case 3:   /* the TwoProduct tail of a 2^1100 product survives the cancellation: 2^996 + 2^-3 */
        *what = "a huge product's tail";
        TD_P(0x1.0000000000001p550, 0x1.0000000000001p550); TD_P(-0x1.0000000000002p550, 0x1p550);
        TD_P(0x1p-3, 1.0);
        break;
    case 4:   /* products near 2^2048 cancelling, and the least subnormal */
        *what = "products near 2^2048 cancelling";
        TD_P(DBL_MAX, DBL_MAX); TD_P(-DBL_MAX, DBL_MAX); TD_P(1.0, 0x1p-1074);
        break;
    case 5:   /* overflowing products of both signs that do not cancel: the dot overflows */
        *what = "products of both signs overflowing";
        TD_P(0x1p600, 0x1p500); TD_P(-0x1p600, 0x1p499);
        break;
    case 6:   /* overflowing products cancelling to a finite dot: 2^974 */
        *what = "overflowing products, a finite dot";
        TD_P(0x1p1023, 4.0); TD_P(-0x1p1023, 0x1.ffffffffffffcp1);
        break;
    case 7:   /* negative products below the range only: a nonzero negative dot rounding to -0 */
        *what = "negative tiny products (-0)";
        TD_P(-0x1p-600, 0x1p-600); TD_P(0x1p-601, -0x1p-600); TD_P(-0x1p-700, 0x1p-700);
        break;
    case 8:   /* tiny products cancelling exactly, and a -0 product: +0 */
        *what = "tiny products cancelling (+0)";
        TD_P(-0.0, 1.0); TD_P(0x1p-600, 0x1p-600); TD_P(-0x1p-600, 0x1p-600);
        break;
    case 9:   /* the windows' edges: |x y| = 2^-968, just below it, 2^1000, just below it */
        *what = "window edges";
        TD_P(0x1p-484, 0x1p-484); TD_P(0x1.fffffffffffffp-485, -0x1p-484);
        TD_P(0x1.fffffffffffffp-485, 0x1.0000000000003p-485);
        TD_P(0x1p500, 0x1p500); TD_P(-0x1.fffffffffffffp499, 0x1p500);
        TD_P(-0x1.fffffffffffffp499, 0x1.0000000000001p500);
        break;
    case 10:  /* 1.25 2^-1074 products: fl(x y) = 2^-1074, the rest lost; 3.75 2^-1074 rounds up */
        *what = "subnormal products' tails";
        TD_P(0x1.4p-537, 0x1p-537); TD_P(0x1p-537, 0x1.4p-537); TD_P(0x1.4p-538, 0x1p-536);
        break;
    case 11: {   /* products of 2^-1090 .. 2^-1040: a subnormal dot made of lost tails too */
        *what = "random subnormal products";
        for (int i = 0; i < 200; i++)
            TD_P(ldexp(td_unit(), -545 + (int)(sl_test_rand64() % 25)), ldexp(fabs(td_unit()), -545 + (int)(sl_test_rand64() % 25)));
        break;
    }
    default: {   /* random: tiny (k 12), huge cancelling (13), mixed (14), full range (15) */
        static const char *names[4] = {"random tiny products", "random huge products cancelling",
                                       "random mixed windows", "random full range"};
        /* kind 0: tiny, 1: huge in nearly cancelling pairs, 2: ordinary, 3: any exponents */
        *what = names[(k - 12) & 3];
        const uint64_t m = k == 15 ? 64 : 4000;
        for (uint64_t i = 0; i < m; i++) {
            const int kind = k == 14 ? (int)(sl_test_rand64() % 3) : k - 12;
            double a = td_unit(), b = td_unit();
            if (kind == 0) {           /* |x y| in [2^-1100, 2^-968]: tails below 2^-1074 */
                a = ldexp(a, -560 + (int)(sl_test_rand64() % 80));
                b = ldexp(b, -540 + (int)(sl_test_rand64() % 80));
            } else if (kind == 1) {    /* |x y| up to 2^1060, in pairs cancelling but for an ulp */
                if (i % 2 == 1) {
                    a = -nextafter(x[n - 1], 0.0);
                    b = y[n - 1];
                } else {
                    a = ldexp(a, 470 + (int)(sl_test_rand64() % 60));
                    b = ldexp(b, 480 + (int)(sl_test_rand64() % 50));
                }
            } else if (kind == 3) {    /* exponents over the whole range */
                a = ldexp(a, -1074 + (int)(sl_test_rand64() % 2098));
                b = ldexp(b, -1074 + (int)(sl_test_rand64() % 2098));
            }
            TD_P(a, b);
        }
        break;
    }
    }
#undef TD_P
    return n;
}

/* Two products of 2^1200 that cancel appended to x, y [0, n): the dot is unchanged, while their
 * Inf in float64 makes correct's certified passes decline (its exact path decides); returns n + 2. */
static inline uint64_t td_append_cancelling_huge(double *x, double *y, uint64_t n)
{
    x[n] = 0x1p600; y[n] = 0x1p600;
    x[n + 1] = -0x1p600; y[n + 1] = 0x1p600;
    return n + 2;
}
#endif

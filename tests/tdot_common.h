/* tdot_common.h: the dot tests' inputs: pairs of arrays in every format (random, wide-range,
 * cancelling, ill-conditioned, edge values), built from the tests' seeded stream. */
#ifndef TDOT_COMMON_H
#define TDOT_COMMON_H
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
#endif

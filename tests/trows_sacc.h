/* trows_sacc.h: rows for the tests of superacc's certified row pass (rows/rows_cert.h for float32
 * and the 16-bit formats, exact/binned.h's 4-fold certified rounding for float64; trows_cert on
 * the CPU, trows_gpu on the GPU), by kind: ordinary rows the pass decides, rows whose exact
 * sum is a tie between two values of the format or next to one, huge cancellation, zeros of
 * either sign, Inf and NaN, overflow and the overflow threshold, subnormal sums. Each row's
 * values are exact in the format; ties are built exactly in integer units (values k 2^-U, U =
 * SR_UNIT(dt)) with the last SR_TAIL values as the correction. Uses sl_test.h's random stream. */
#ifndef TROWS_SACC_H
#define TROWS_SACC_H
#include <math.h>
#include <stdint.h>
#include "sl_test.h"
#include "sl_variants.h"
#include "rows/rows_cert.h"
#include "sumlab/half.h"

enum {
    SR_POS,        /* positive values k 2^-g: the pass decides (no cancellation) */
    SR_SYM,        /* both signs, 8 binades: mild cancellation, decided but for a rare row */
    SR_TIE,        /* the exact sum is the midpoint of two neighbours in the format: never decided */
    SR_TIE_UP,     /* the midpoint plus one unit (rounds up): decided or not */
    SR_TIE_DOWN,   /* the midpoint minus one unit (rounds down): decided or not */
    SR_NEAR,       /* a quarter of the spacing from the midpoint: decided */
    SR_CANCEL,     /* pairs +-B of huge B and a small rest: not decided (float16: either) */
    SR_ZERO_POS,   /* zeros, +0 among them: +0, never decided */
    SR_ZERO_NEG,   /* -0 only: -0, never decided */
    SR_ZERO_CANCEL,/* pairs +-x: the exact sum 0, +0: never decided */
    SR_INF,        /* a +Inf: +Inf, never decided */
    SR_NAN,        /* a NaN: NaN, never decided */
    SR_INFS,       /* +Inf and -Inf: NaN, never decided */
    SR_OVERFLOW,   /* three halves of the largest value and more: Inf, never decided */
    SR_MAX_TIE,    /* the largest value plus half its spacing: Inf (the tie's even side) */
    SR_MAX_BELOW,  /* the largest value plus a quarter of its spacing: the largest value, decided */
    SR_SUBNORMAL,  /* zeros and a few small multiples of the least subnormal: decided */
    SR_KINDS
};
static const char *const sr_kind_name[SR_KINDS] = {
    "pos", "sym", "tie", "tie+unit", "tie-unit", "near-tie", "cancel", "zeros+", "zeros-",
    "zero-cancel", "inf", "nan", "inf-inf", "overflow", "max-tie", "max-below", "subnormal"};

#define SR_TAIL 12u   /* the correction's slots at a tie-built row's end */

/* What the pass must do with a kind (as sr_fill returns it): 1 never decide it, -1 decide it (at
 * least 90 % of such rows: a random row may still land on a tie), 0 either. Float64's binned
 * state holds zeros (its sign flag), Inf, NaN and overflow exactly, and its certificate may
 * decide them (trows_cert checks that every decision is the exact sum rounded once). */
static inline int sr_must(int kind, sl_dtype dt)
{
    if (dt == SL_F64 && (kind == SR_ZERO_POS || kind == SR_ZERO_NEG || kind == SR_INF || kind == SR_NAN ||
                         kind == SR_INFS || kind == SR_OVERFLOW))
        return 0;
    switch (kind) {
    case SR_TIE: case SR_ZERO_POS: case SR_ZERO_NEG: case SR_ZERO_CANCEL: case SR_INF:
    case SR_NAN: case SR_INFS: case SR_OVERFLOW: case SR_MAX_TIE: return 1;
    case SR_CANCEL: return dt == SL_F16 ? 0 : 1;
    case SR_POS: case SR_NEAR: case SR_MAX_BELOW: case SR_SUBNORMAL: return -1;
    default: return 0;
    }
}

static inline int sr_prec(sl_dtype dt)
{
    return dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
}
static inline int sr_emin(sl_dtype dt) { return dt == SL_F64 ? -1022 : dt == SL_F16 ? -14 : -126; }
static inline double sr_max(sl_dtype dt)
{
    return dt == SL_F64 ? 0x1.fffffffffffffp1023 : dt == SL_F32 ? 0x1.fffffep127
           : dt == SL_F16 ? 65504.0 : 0x1.fep127;
}
/* the units of the exact integer sums, and the scale of the ordinary values k 2^-g */
static inline int sr_unit(sl_dtype dt) { return dt == SL_F16 ? 24 : 32; }
static inline int sr_g(sl_dtype dt) { return dt == SL_F16 ? 12 : 8; }
/* the spacing of the format above the positive value m */
static inline double sr_quantum(double m, sl_dtype dt)
{
    int e;
    frexp(m, &e);                     /* m in [2^(e-1), 2^e) */
    e -= 1;
    if (e < sr_emin(dt)) e = sr_emin(dt);
    return ldexp(1.0, e - (sr_prec(dt) - 1));
}

static inline void sr_set(void *row, uint64_t i, sl_dtype dt, double v)
{
    if (dt == SL_F64) ((double *)row)[i] = v;
    else if (dt == SL_F32) ((float *)row)[i] = (float)v;
    else ((uint16_t *)row)[i] = sl_half_from_double(v, dt);
}

/* a positive ordinary value k 2^-g, k in [1, 255]: exact in every format */
static inline int64_t sr_pos_units(sl_dtype dt)
{
    return (int64_t)(1u + sl_test_rand64() % 255u) << (sr_unit(dt) - sr_g(dt));
}

/* Fills row[0..n) with kind; returns the kind filled: kind, or SR_POS when the kind needs more
 * values than n; -1 when a tie's correction did not fit its slots (a failure of the generator). */
static inline int sr_fill(void *row, uint64_t n, sl_dtype dt, int kind)
{
    const int U = sr_unit(dt);
    const double max = sr_max(dt), qmax = sr_quantum(max, dt);
    const int tie = kind == SR_TIE || kind == SR_TIE_UP || kind == SR_TIE_DOWN || kind == SR_NEAR;
    if ((tie && n < SR_TAIL + 1u) || (kind == SR_CANCEL && n < SR_TAIL + 2u) ||
        ((kind == SR_OVERFLOW || kind == SR_MAX_TIE || kind == SR_MAX_BELOW || kind == SR_ZERO_CANCEL ||
          kind == SR_INFS) && n < 3))
        kind = SR_POS;
    for (uint64_t i = 0; i < n; i++) sr_set(row, i, dt, ldexp((double)sr_pos_units(dt), -U));
    switch (kind) {
    case SR_SYM:
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t r = sl_test_rand64();
            const double k = (double)(int)(r % 511u) - 255.0;
            sr_set(row, i, dt, ldexp(k, (int)((r >> 16) % 8u) - sr_g(dt)));
        }
        return kind;
    case SR_TIE: case SR_TIE_UP: case SR_TIE_DOWN: case SR_NEAR: {
        int64_t K = 0;
        for (uint64_t i = 0; i < n - SR_TAIL; i++) {
            const int64_t k = sr_pos_units(dt);
            K += k;
            sr_set(row, i, dt, ldexp((double)k, -U));
        }
        if (dt == SL_F64) {
            /* m = K 2^-U is a double (K < 2^53); the tail: its half spacing q / 2, plus or minus
             * q 2^-20 (tie+unit, tie-unit), or +-q / 4 alone (near-tie), then zeros */
            const double m = ldexp((double)K, -U), q = sr_quantum(m, dt);
            for (uint64_t i = n - SR_TAIL; i < n; i++) sr_set(row, i, dt, 0.0);
            const double sg = sl_test_rand64() & 1u ? 1.0 : -1.0;
            sr_set(row, n - SR_TAIL, dt, kind == SR_NEAR ? sg * q / 4.0 : q / 2.0);
            if (kind == SR_TIE_UP || kind == SR_TIE_DOWN)
                sr_set(row, n - 1u, dt, (kind == SR_TIE_UP ? 1.0 : -1.0) * ldexp(q, -20));
            return kind;
        }
        const double m = sl_rcs_round(ldexp((double)K, -U), dt);   /* K < 2^53: exact */
        const double q = sr_quantum(m, dt);
        int64_t target = (int64_t)ldexp(m + q / 2.0, U);             /* the midpoint above m */
        if (kind == SR_TIE_UP) target += 1;
        if (kind == SR_TIE_DOWN) target -= 1;
        if (kind == SR_NEAR) target += (sl_test_rand64() & 1u ? 1 : -1) * (int64_t)ldexp(q / 4.0, U);
        int64_t c = target - K;
        for (uint64_t i = n - SR_TAIL; i < n; i++) {
            const double d = sl_rcs_round(ldexp((double)c, -U), dt);  /* |c| < 2^53 */
            sr_set(row, i, dt, d);
            c -= (int64_t)ldexp(d, U);
        }
        return c == 0 ? kind : -1;
    }
    case SR_CANCEL: {
        /* float32/bfloat16: B = k 2^100; float64: k 2^400 (4 folds keep 160 bits below the top);
         * float16: B = k 2^6, the rest subnormal multiples of 2^-24 */
        const int eb = dt == SL_F16 ? 6 : dt == SL_F64 ? 400 : 100;
        for (uint64_t i = 0; i + 1 < n - SR_TAIL; i += 2) {
            const double b = ldexp((double)(1u + sl_test_rand64() % 255u), eb);
            sr_set(row, i, dt, b);
            sr_set(row, i + 1, dt, -b);
        }
        if ((n - SR_TAIL) % 2u) sr_set(row, n - SR_TAIL - 1u, dt, 0.0);
        if (dt == SL_F16)
            for (uint64_t i = n - SR_TAIL; i < n; i++)
                sr_set(row, i, dt, ldexp((double)(1u + sl_test_rand64() % 255u), -24));
        return kind;
    }
    case SR_ZERO_POS:
    case SR_ZERO_NEG:
        for (uint64_t i = 0; i < n; i++)
            sr_set(row, i, dt, kind == SR_ZERO_NEG || (sl_test_rand64() & 1u) ? -0.0 : 0.0);
        if (kind == SR_ZERO_POS) sr_set(row, sl_test_rand64() % n, dt, 0.0);
        return kind;
    case SR_ZERO_CANCEL:
        for (uint64_t i = 0; i + 1 < n; i += 2) {
            const double v = ldexp((double)sr_pos_units(dt), -U);
            sr_set(row, i, dt, v);
            sr_set(row, i + 1, dt, -v);
        }
        if (n % 2u) sr_set(row, n - 1u, dt, -0.0);
        return kind;
    case SR_INF: case SR_NAN:
        sr_set(row, sl_test_rand64() % n, dt, kind == SR_INF ? INFINITY : NAN);
        return kind;
    case SR_INFS: {
        const uint64_t i = sl_test_rand64() % n;
        sr_set(row, i, dt, INFINITY);
        sr_set(row, (i + 1u + sl_test_rand64() % (n - 1u)) % n, dt, -INFINITY);
        return kind;
    }
    case SR_OVERFLOW:
        for (uint64_t i = 0; i < 3; i++) sr_set(row, i, dt, max / 2.0);
        return kind;
    case SR_MAX_TIE: case SR_MAX_BELOW:
        for (uint64_t i = 0; i < n; i++) sr_set(row, i, dt, 0.0);
        sr_set(row, 0, dt, max / 2.0);
        sr_set(row, n / 2u, dt, max / 2.0);
        sr_set(row, n - 1u, dt, kind == SR_MAX_TIE ? qmax / 2.0 : qmax / 4.0);
        return kind;
    case SR_SUBNORMAL: {   /* zeros and at most 8 values k 2^emin_sub, k in [1, 15]: a subnormal sum */
        const double least = ldexp(1.0, sr_emin(dt) - (sr_prec(dt) - 1));
        for (uint64_t i = 0; i < n; i++) sr_set(row, i, dt, 0.0);
        for (int j = 0; j < 8; j++)
            sr_set(row, sl_test_rand64() % n, dt, least * (double)(1u + sl_test_rand64() % 15u));
        return kind;
    }
    default:
        return kind;
    }
}
#endif

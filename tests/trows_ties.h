/* trows_ties.h: rows whose correctly rounded norm2, variance (ddof 0) or mean lies exactly halfway
 * between two neighbours of the format (float64, float32, bfloat16, float16), for the tests of the
 * rows' exact fallbacks (norm.cu's nrmrowx_kernel, moments_exact.cu's mxrowx_kernel): no first
 * pass can decide such a row, whatever its order of additions. With p the format's precision
 * (53, 24, 8, 11) and m values d (m d^2 = 2^(1-p): float64 m = 4, d = 2^-27; float32 m = 2,
 * d = 2^-12; bfloat16 m = 2, d = 2^-4; float16 m = 4, d = 2^-6):
 *   norm2: 1, m values d, 2^-p, zeros: the sum of squares is (1 + 2^-p)^2, the norm 1 + 2^-p;
 *   var:   4, 2, m/2 values 3 + d and m/2 values 3 - d, the rest 3: the mean 3, the sum of
 *          squared deviations 2 + m d^2 = 2 (1 + 2^-p), the variance 2 (1 + 2^-p) / N (N a power
 *          of two);
 *   mean:  N/2, N/2, N 2^-p, a zero, and (N - 4) / 2 pairs (a, -a) of random values: the sum
 *          N (1 + 2^-p), the mean 1 + 2^-p.
 * Each ties to even at the lower neighbour (1, 2 / N, 1). The row is scaled by 2^s (float32 and
 * float64 only: s in [-6, 6]; the result by 2^s, the variance by 4^s) and shuffled, so the values fall on
 * different threads and vectors. Uses sl_test.h's random stream. */
#ifndef TROWS_TIES_H
#define TROWS_TIES_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "sl_test.h"
#include "sl_test_values.h"
#include "sl_variants.h"
#include "sumlab/half.h"

enum { TIE_NORM2, TIE_VAR, TIE_MEAN, TIE_KINDS };
static const char *const tie_op[TIE_KINDS] = {"norm2", "var", "mean"};

/* row[0..N) (N a power of two, 32 or more) of kind k in dt; returns the correctly rounded
 * result of its operation (var: ddof 0) */
static double tie_row(void *row, uint64_t N, sl_dtype dt, int k)
{
    const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_BF16 ? 8 : 11;
    const int m = dt == SL_F16 || dt == SL_F64 ? 4 : 2;
    const double d = dt == SL_F64 ? 0x1p-27 : dt == SL_F32 ? 0x1p-12 : dt == SL_BF16 ? 0x1p-4 : 0x1p-6;
    const int s = dt == SL_F32 || dt == SL_F64 ? (int)(sl_test_rand64() % 13u) - 6 : 0;
    const double sc = ldexp(1.0, s);
    double *v = malloc(N * sizeof *v);
    if (!v) return NAN;
    uint64_t j = 0;
    double want;
    if (k == TIE_NORM2) {
        v[j++] = 1.0;
        for (int i = 0; i < m; i++) v[j++] = d;
        v[j++] = ldexp(1.0, -p);
        while (j < N) v[j++] = 0.0;
        want = sc;
    } else if (k == TIE_VAR) {
        v[j++] = 4.0;
        v[j++] = 2.0;
        for (int i = 0; i < m; i++) v[j++] = 3.0 + (i % 2 ? -d : d);
        while (j < N) v[j++] = 3.0;
        want = 2.0 * sc * sc / (double)N;
    } else {
        v[j++] = (double)N / 2.0;
        v[j++] = (double)N / 2.0;
        v[j++] = ldexp((double)N, -p);
        v[j++] = 0.0;
        while (j < N) {
            /* a random value of the format in about +-2^-6 .. +-2^6 */
            const uint64_t r = sl_test_rand64();
            double a = ldexp((double)((r >> 40) & 0xffff) / 65536.0 + 0.5, (int)((r >> 8) % 13u) - 6);
            a = dt == SL_F64 ? a : dt == SL_F32 ? (double)(float)a : sl_half_round(a, dt);
            v[j++] = a;
            v[j++] = -a;
        }
        want = sc;
    }
    for (uint64_t i = N; i > 1; i--) {   /* Fisher-Yates */
        const uint64_t r = sl_test_rand64() % i;
        const double t = v[i - 1];
        v[i - 1] = v[r];
        v[r] = t;
    }
    for (uint64_t i = 0; i < N; i++) sl_test_put(row, dt, i, v[i] * sc);
    free(v);
    return want;
}

#endif

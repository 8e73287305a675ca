/* tlse_fold.c: reproducible lse's register folds (kernels/lse/lse.h's sl_lse_rep1_fold, which the
 * one-pass kernel lse_rep1_kernel runs on the terms of vectors whose values all lie in [-16, 16]):
 * the folds' integers equal the terms' exact sum (in units of 2^-47, a 128-bit integer) after
 * SL_LSE_REP1_FOLD_MAX terms of the worst kinds (every term the largest, every term the
 * smallest, alternating extremes, random values of the range, each fold's rounding ties) and the
 * fold's term equals the clamped one bit for bit over the range (every bfloat16 and float16 value
 * in it, every 97th float32): the kernel's sum then equals its twin's (an exact sum of the same
 * terms). The range test takes NaN out. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sumlab/half.h"
#include "lse/lse.h"

typedef __int128 i128;

/* rand() in [0, 1) */
static double urand(void) { return rand() / ((double)RAND_MAX + 1.0); }

/* The value of term t in units of 2^-47 (t a float32 in [2^-24, 2^24): an integer); -1 if not. */
static i128 units47(float t)
{
    const double s = ldexp((double)t, 47);
    if (!(t >= 0x1p-24f && t < 0x1p24f) || s != floor(s)) return -1;
    return (i128)s;
}

/* Folds the terms of xs[0..n) (values in [-16, 16], h16: 16-bit input's exponential) and checks the
 * folds' integers against the exact sum; returns 0 on agreement. */
static int fold_case(const char *what, const float *xs, unsigned n, int h16)
{
    double f1 = SL_LSE_REP1_FOLD_C, f2 = 0.0;
    i128 exact = 0;
    for (unsigned i = 0; i < n; i++) {
        const float t = sl_lse_rep1_termx_in(xs[i], h16);
        const i128 u = units47(t);
        CHECK(u >= 0, "%s: the term of %a, %a, is not a multiple of 2^-47 in [2^-24, 2^24)", what,
              (double)xs[i], (double)t);
        if (u < 0) return 1;
        exact += u;
        sl_lse_rep1_fold(&f1, &f2, (double)t);
    }
    int64_t h, l;
    sl_lse_rep1_fold_units(f1, f2, &h, &l);
    const int ok = (double)h == (f1 - SL_LSE_REP1_FOLD_C) * 0x1p10 && (double)l == f2 * 0x1p47 &&
                   ((i128)h << 37) + (i128)l == exact;
    CHECK(ok, "%s (%u terms, %s): folds h = %lld, l = %lld against the exact sum %.17g 2^-47", what, n,
          h16 ? "16-bit" : "float32", (long long)h, (long long)l, (double)exact);
    return !ok;
}

int main(void)
{
    srand(20261207u);
    enum { N = SL_LSE_REP1_FOLD_MAX };
    static float xs[N];
    const float X = SL_LSE_REP1_FOLD_X;
    for (int h16 = 0; h16 < 2; h16++) {
        for (unsigned i = 0; i < N; i++) xs[i] = X;
        fold_case("every term the largest", xs, N, h16);
        for (unsigned i = 0; i < N; i++) xs[i] = -X;
        fold_case("every term the smallest", xs, N, h16);
        for (unsigned i = 0; i < N; i++) xs[i] = (i & 1) ? X : -X;
        fold_case("alternating extremes", xs, N, h16);
        for (unsigned i = 0; i < N; i++) xs[i] = i % 3 ? X : -X + (float)(i % 7) * 0x1p-20f;
        fold_case("extremes and small ones", xs, N, h16);
        for (int rep = 0; rep < 40; rep++) {
            for (unsigned i = 0; i < N; i++) xs[i] = (float)((2.0 * urand() - 1.0) * X);
            fold_case("random values of the range", xs, N, h16);
            const float c = (float)((2.0 * urand() - 1.0) * X);
            for (unsigned i = 0; i < N; i++) xs[i] = c;
            fold_case("one random value repeated", xs, N, h16);
        }
        /* terms whose part below 2^-10 is exactly half a unit, the fold's rounding ties (terms in
         * [2^12, 2^13), ulp 2^-11: x from 8.5) */
        unsigned m = 0;
        for (float x = 8.5f; x <= X && m < N; x = nextafterf(x, INFINITY)) {
            const double r = ldexp((double)sl_lse_rep1_termx_in(x, h16), 10);
            if (r - floor(r) == 0.5) { xs[m] = (m & 1) ? x : -x; m++; }
        }
        CHECK(m == N, "%u ties found", m);
        fold_case("ties at 2^-10", xs, m, h16);
    }

    /* the fold's term (no clamp) equals the one-pass term of the bins (clamped) over the range */
    unsigned long bad = 0, n16 = 0;
    for (uint32_t b = 0; b <= 0xffffu; b++) {
        const float xb = (float)sl_half_to_double((uint16_t)b, SL_BF16), xh = (float)sl_half_to_double((uint16_t)b, SL_F16);
        if (sl_lse_rep1_fold_in(xb)) {
            n16++;
            bad += sl_lse_rep1_termx_in(xb, 1) != sl_lse_rep1_termx(xb, 1);
        }
        if (sl_lse_rep1_fold_in(xh)) {
            n16++;
            bad += sl_lse_rep1_termx_in(xh, 1) != sl_lse_rep1_termx(xh, 1);
        }
    }
    unsigned long n32 = 0;
    for (uint32_t b = 0; b < 0xffffffffu - 97u; b += 97u) {
        float x;
        memcpy(&x, &b, sizeof x);
        if (!sl_lse_rep1_fold_in(x)) continue;
        n32++;
        bad += sl_lse_rep1_termx_in(x, 0) != sl_lse_rep1_termx(x, 0) || units47(sl_lse_rep1_termx_in(x, 0)) < 0 ||
               units47(sl_lse_rep1_termx_in(x, 1)) < 0;
    }
    CHECK(bad == 0, "%lu values of [-16, 16] whose fold term differs from the bins' term or leaves [2^-24, 2^24)", bad);
    CHECK(n16 > 60000 && n32 > 10000000, "the sweeps took %lu 16-bit and %lu float32 values", n16, n32);
    CHECK(!sl_lse_rep1_fold_in(NAN) && !sl_lse_rep1_fold_in(INFINITY) && !sl_lse_rep1_fold_in(-INFINITY) &&
              !sl_lse_rep1_fold_in(nextafterf(X, INFINITY)) && sl_lse_rep1_fold_in(-X),
          "the range test: NaN, +-Inf and values beyond 16 take the bins");
    printf("folds exact on every case; %lu 16-bit and %lu float32 values of the range\n", n16, n32);
    return sl_test_done("tlse_fold");
}

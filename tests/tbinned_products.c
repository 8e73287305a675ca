/* tbinned_products.c: exact/binned.h's sl_rsum_take_products_f64, the group path of the dot and
 * norm2 `reproducible` kernels (eight products a capacity check, -0 where a TwoProduct tail is
 * left out), against the twins' value-by-value steps (dot's repro_cpu: p, then a nonzero tail of
 * a finite nonzero p for float64; norm2's sl_nrm_repro_take_f64 on the scaled values): the same
 * rounded sums (to nearest and to odd, float64) and the same flags and sign, after a lead of 0..7
 * values taken one by one, on pairs over the whole float64 range (products that overflow and
 * underflow), float32-exact pairs (no tails), zeros of both signs (sums of -0 only), NaN and Inf.
 * A mutation that takes +0 for a missing tail fails the all -0 cases; one that drops the tails
 * fails the float64 ones. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "exact/binned.h"
#include "norm/norm.h"

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }

/* the twin's step for one pair (dot's repro_cpu; two: float64 input) */
static void twin_take(sl_rsum_thr_f64 *a, double x, double y, int two)
{
    const double p = x * y;
    sl_rsum_take1_f64(a, p);
    if (two && p != 0.0 && isfinite(p)) {
        const double lo = fma(x, y, -p);
        if (lo != 0.0) sl_rsum_take1_f64(a, lo);
    }
}

/* x, y (n pairs): the twin's state and the grouped one (norm: x = y, through
 * sl_nrm_repro_take_f64 with s = 1) */
static void states(const double *x, const double *y, int n, int two, int norm, uint64_t lead,
                   sl_rsum_state *tw, sl_rsum_state *gr)
{
    sl_rsum_thr_f64 a, b;
    sl_rsum_init_f64(&a);
    sl_rsum_init_f64(&b);
    for (int i = 0; i < n; i++) {
        if (norm) sl_nrm_repro_take_f64(&a, x[i], 1.0);
        else twin_take(&a, x[i], y[i], two);
    }
    int i = 0;
    for (; (uint64_t)i < lead && i < n; i++) twin_take(&b, x[i], norm ? x[i] : y[i], two);
    for (; i + SL_RSUM_GROUP <= n; i += SL_RSUM_GROUP) sl_rsum_take_products_f64(&b, x + i, (norm ? x : y) + i, two);
    for (; i < n; i++) twin_take(&b, x[i], norm ? x[i] : y[i], two);
    sl_rsum_to_state_f64(&a, tw);
    sl_rsum_to_state_f64(&b, gr);
}

static long cases, neg_zero_sums;

static void check(const double *x, const double *y, int n, int two, int norm, const char *what)
{
    sl_rsum_state tw, gr;
    states(x, y, n, two, norm, sl_test_rand64() % SL_RSUM_GROUP, &tw, &gr);
    const double r1 = sl_rsum_state_round(&tw, SL_F64), r2 = sl_rsum_state_round(&gr, SL_F64);
    const double o1 = sl_rsum_state_round_mode_k(&tw, SL_F64, SL_RSUM_K, 1);
    const double o2 = sl_rsum_state_round_mode_k(&gr, SL_F64, SL_RSUM_K, 1);
    CHECK(same_bits(r1, r2) && same_bits(o1, o2) && tw.flags == gr.flags,
          "%s n=%d two=%d norm=%d: twin %a (odd %a, flags %#x), grouped %a (odd %a, flags %#x)", what, n, two,
          norm, r1, o1, tw.flags, r2, o2, gr.flags);
    if (r1 == 0.0 && signbit(r1)) neg_zero_sums++;
    cases++;
}

/* a value of random sign and exponent in [emin, emax] */
static double wide(int emin, int emax)
{
    const double m = 1.0 + unif();
    const int e = emin + (int)(sl_test_rand64() % (uint64_t)(emax - emin + 1));
    return (sl_test_rand64() & 1 ? -1.0 : 1.0) * ldexp(m, e);
}

int main(void)
{
    enum { N = 203 };
    static double x[N], y[N];
    static const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0x1p-1074, 0x1p1000, -0x1p-600};
    for (int r = 0; r < 400; r++) {
        const int n = 1 + (int)(sl_test_rand64() % N);
        const int kind = r % 5;
        for (int i = 0; i < n; i++) {
            switch (kind) {
            case 0: x[i] = wide(-1074, 1023); y[i] = wide(-1074, 1023); break;      /* over/underflow */
            case 1: x[i] = wide(-300, 300); y[i] = wide(-300, 300); break;          /* tails */
            case 2: x[i] = (float)(unif() - 0.5); y[i] = (float)(unif() - 0.5); break; /* exact */
            case 3: x[i] = -0.0; y[i] = sl_test_rand64() & 1 ? 1.0 : 0.0; break;    /* sums of -0 */
            default: x[i] = wide(-60, 60); y[i] = wide(-60, 60); break;
            }
        }
        if (kind == 4)
            for (int k = 0; k < 1 + r % 3; k++) x[sl_test_rand64() % (uint64_t)n] = specials[(r + k) % 8];
        check(x, y, n, 1, 0, "dot float64");
        check(x, y, n, 0, 0, "dot float32-exact");
        check(x, y, n, 1, 1, "norm2 float64");
    }
    CHECK(cases == 1200 && neg_zero_sums >= 80, "%ld cases, %ld sums of -0", cases, neg_zero_sums);
    return sl_test_done("tbinned_products");
}

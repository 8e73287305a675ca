/* twf_div.c: welford/wf_div.h's quotient from a shared reciprocal equals the correctly rounded
 * division bit for bit: every divisor 2 .. 4095 and sampled ones up to 2^21 (across the fast
 * path's bound 2^20), numerators random over the exponent range, exact multiples, quotients next
 * to rounding midpoints, and the edge values the fast path leaves to the division (zeros of
 * both signs, subnormals, the 2^-100 / 2^-900 bound, the largest values, Inf, NaN). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sl_test.h"
#include "welford/wf_div.h"

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, sizeof u); return u; }
static float ffrom(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static double dfrom(uint64_t u) { double d; memcpy(&d, &u, sizeof d); return d; }

/* Same bits, or both NaN. */
static int same_f(float a, float b) { return fbits(a) == fbits(b) || (a != a && b != b); }
static int same_d(double a, double b) { return dbits(a) == dbits(b) || (a != a && b != b); }

static long checked;   /* quotients compared (sl_test_checks counts the same) */

static void one_f(float a, float b, float y)
{
    const float got = sl_wf_div_f(a, b, y), want = a / b;
    checked++;
    CHECK(same_f(got, want), "float %a / %a: %a, division %a", (double)a, (double)b, (double)got,
          (double)want);
}

static void one_d(double a, double b, double y)
{
    const double got = sl_wf_div_d(a, b, y), want = a / b;
    checked++;
    CHECK(same_d(got, want), "double %a / %a: %a, division %a", a, b, got, want);
}

/* A random float with a biased exponent in [lo, hi]. */
static float rand_f(int lo, int hi)
{
    const uint64_t r = sl_test_rand64();
    const uint32_t e = (uint32_t)(lo + (int)(r % (uint64_t)(hi - lo + 1)));
    return ffrom((uint32_t)((r >> 32) & 0x80000000u) | (e << 23) | (uint32_t)((r >> 8) & 0x7fffffu));
}
static double rand_d(int lo, int hi)
{
    const uint64_t r = sl_test_rand64();
    const uint64_t e = (uint64_t)(lo + (int)(r % (uint64_t)(hi - lo + 1)));
    return dfrom((sl_test_rand64() & 0x800fffffffffffffull) | (e << 52));
}

static void divisor_f(float b, int nrand)
{
    const float y = 1.0f / b;
    static const float edge[] = {0.0f, -0.0f, 0x1p-149f, -0x1p-149f, 0x1p-127f, 0x1p-101f,
                                 0x1.fffffep-101f, 0x1p-100f, -0x1p-100f, 0x1.000002p-100f,
                                 1.0f, -1.0f, 3.0f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) one_f(edge[i], b, y);
    for (int i = 0; i < nrand; i++) {
        one_f(rand_f(1, 254), b, y);
        one_f(rand_f(27, 160), b, y);
        /* an exact multiple, and the numerators nearest b times a quotient's rounding midpoint */
        const float q = rand_f(100, 150);
        const float m = q * b;
        one_f(m, b, y);
        const double mid = ((double)q + (double)nextafterf(q, INFINITY)) / 2.0 * (double)b;
        const float a0 = (float)mid;
        one_f(a0, b, y);
        one_f(nextafterf(a0, INFINITY), b, y);
        one_f(nextafterf(a0, -INFINITY), b, y);
    }
}

static void divisor_d(double b, int nrand)
{
    const double y = 1.0 / b;
    static const double edge[] = {0.0, -0.0, 0x1p-1074, 0x1p-1023, 0x1p-901, 0x1p-900, -0x1p-900,
                                  1.0, -3.0, DBL_MAX, -DBL_MAX, INFINITY, NAN};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) one_d(edge[i], b, y);
    for (int i = 0; i < nrand; i++) {
        one_d(rand_d(1, 2046), b, y);
        one_d(rand_d(900, 1200), b, y);
        const double q = rand_d(1000, 1050);
        one_d(q * b, b, y);
        /* b (q + ulp/2) rounded, and its neighbours: quotients at a rounding midpoint's edge */
        const double h = (nextafter(q, INFINITY) - q) / 2.0;
        const double a0 = fma(b, q, b * h);
        one_d(a0, b, y);
        one_d(nextafter(a0, INFINITY), b, y);
        one_d(nextafter(a0, -INFINITY), b, y);
    }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    for (int b = 1; b < 4096; b++) {
        divisor_f((float)b, 64);
        divisor_d((double)b, 24);
    }
    for (int i = 0; i < 4000; i++) {
        const double b = (double)(2 + sl_test_rand64() % ((1u << 21) - 2));
        divisor_f((float)b, 16);
        divisor_d(b, 8);
    }
    static const double big[] = {0x1p20 - 1, 0x1p20, 0x1p20 + 1, 0x1p19, 0x1p19 + 1};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        divisor_f((float)big[i], 2000);
        divisor_d(big[i], 2000);
    }
    printf("twf_div: %ld quotients compared\n", checked);
    return sl_test_done("twf_div");
}

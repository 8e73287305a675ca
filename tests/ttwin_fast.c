/* ttwin_fast.c: the CPU twins' fast paths equal their straightforward counterparts bit for bit:
 * the loop-free 16-bit conversions of sl_twin.h against sl_half.h (every pattern; random,
 * boundary and tie doubles). */
#include <math.h>
#include <string.h>
#include "sl_test.h"
#include "sl_half.h"
#include "sl_twin.h"

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Every 16-bit pattern widens to the same double. */
static void check_loads(sl_dtype dt)
{
    long bad = 0;
    for (uint32_t h = 0; h < 65536u; h++) {
        const double ref = sl_half_to_double((uint16_t)h, dt);
        const double got = sl_tw_half_to_float((uint16_t)h, dt);
        if (dbits(ref) != dbits(got) && bad++ < 5)
            CHECK(0, "%s pattern 0x%04x: sl_half_to_double %a (0x%016llx), fast %a (0x%016llx)",
                  sl_dtype_name(dt), h, ref, (unsigned long long)dbits(ref), got,
                  (unsigned long long)dbits(got));
    }
    CHECK(bad == 0, "%s: %ld patterns widen differently", sl_dtype_name(dt), bad);
}

static long round_bad;
static void check_round1(double x, sl_dtype dt)
{
    const double ref = sl_half_round(x, dt), got = sl_tw_half_round(x, dt);
    if (dbits(ref) != dbits(got) && round_bad++ < 5)
        CHECK(0, "%s round %a (0x%016llx): sl_half_round %a, fast %a", sl_dtype_name(dt), x,
              (unsigned long long)dbits(x), ref, got);
}

/* Rounding: every pattern, its neighbours, the midpoints to the next pattern and doubles
 * one ulp either side of them (ties and near ties), sums of random pattern pairs (what
 * half-acc rounds), random doubles over the whole range and near the format's range. */
static void check_rounding(sl_dtype dt)
{
    round_bad = 0;
    for (uint32_t h = 0; h < 65536u; h++) {
        const double a = sl_half_to_double((uint16_t)h, dt);
        const double b = sl_half_to_double((uint16_t)(h + 1u), dt);
        check_round1(a, dt);
        if (!isfinite(a) || !isfinite(b) || (h & 0x7fffu) == 0x7fffu) continue;
        const double m = a + (b - a) / 2; /* exact: a, b have few bits */
        check_round1(m, dt);
        check_round1(nextafter(m, INFINITY), dt);
        check_round1(nextafter(m, -INFINITY), dt);
        check_round1(nextafter(a, INFINITY), dt);
        check_round1(nextafter(a, -INFINITY), dt);
    }
    for (long k = 0; k < 4000000; k++) {
        const uint64_t r = sl_test_rand64();
        double x;
        if (k % 3 == 0) {
            memcpy(&x, &r, sizeof x); /* any double, NaN payloads included */
        } else if (k % 3 == 1) {
            x = sl_half_to_double((uint16_t)r, dt) + sl_half_to_double((uint16_t)(r >> 16), dt);
        } else { /* magnitudes around the format's range, random low bits */
            const int emin = sl_half_emin(dt) - sl_half_prec(dt) - 3, emax = sl_half_emax(dt) + 3;
            const int e = emin + (int)((r >> 53) % (uint64_t)(emax - emin + 1));
            x = ldexp(1.0 + (double)(r & 0xfffffffffffffull) * 0x1p-52, e);
            if (r >> 63) x = -x;
        }
        check_round1(x, dt);
    }
    CHECK(round_bad == 0, "%s: %ld doubles round differently", sl_dtype_name(dt), round_bad);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    const sl_dtype halves[2] = {SL_F16, SL_BF16};
    for (int i = 0; i < 2; i++) {
        check_loads(halves[i]);
        check_rounding(halves[i]);
    }
    return sl_test_done("ttwin_fast");
}

/* sl_half_ref.c: the exact sum of float16/bfloat16 arrays through sl_exact's public functions
 * (pieces converted to float32 in a stack buffer: exact) and its correct rounding to the 16-bit
 * formats (nearest, ties to even, subnormals, overflow to +-Inf), computed in MPFR.
 * Assumptions: sumlab/half.h's conversions (exact), MPFR's default exponent range. */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include "sumlab/half.h"
#include "sumlab/pool.h"
#include "sl_reference.h"

#define HALF_CHUNK 8192   /* at least the fast path's piece (sl_exact.c), on the stack: 32 KB */

/* float16 -> float32 by table (every pattern's value from sl_half_to_double, exact); bfloat16
 * is the top half of a float32 pattern. */
static float f16_table[65536];
static pthread_once_t f16_once = PTHREAD_ONCE_INIT;
static void f16_table_fill(void)
{
    for (uint32_t b = 0; b < 65536u; b++) f16_table[b] = (float)sl_half_to_double((uint16_t)b, SL_F16);
}

void sl_half_widen(const uint16_t *h, size_t m, sl_dtype dt, float *out)
{
    if (dt == SL_BF16) {
        for (size_t j = 0; j < m; j++) {
            const uint32_t u = (uint32_t)h[j] << 16;
            memcpy(&out[j], &u, sizeof u);
        }
        return;
    }
    pthread_once(&f16_once, f16_table_fill);
    for (size_t j = 0; j < m; j++) out[j] = f16_table[h[j]];
}

void sl_exact_add_half(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt)
{
    const uint16_t *h = x;
    float buf[HALF_CHUNK];
    while (n > 0) {
        const size_t m = n < HALF_CHUNK ? (size_t)n : HALF_CHUNK;
        sl_half_widen(h, m, dt, buf);
        sl_exact_add(acc, buf, m, SL_F32);
        h += m;
        n -= m;
    }
}

typedef struct {
    sl_exact *acc[SL_EXACT_MAX_THREADS];
    const uint16_t *x;
    uint64_t n;
    sl_dtype dt;
    unsigned pieces;
} half_job;

static void half_task(void *ctx, size_t t)     /* piece t into its own accumulator */
{
    half_job *j = ctx;
    const uint64_t lo = j->n / j->pieces * t + (t < j->n % j->pieces ? t : j->n % j->pieces);
    sl_exact_add_half(j->acc[t], j->x + lo, j->n / j->pieces + (t < j->n % j->pieces), j->dt);
}

int sl_exact_add_half_threads(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt, unsigned threads)
{
    if (threads > SL_EXACT_MAX_THREADS) threads = SL_EXACT_MAX_THREADS;
    if (threads > n / SL_EXACT_MIN_PER_THREAD) threads = (unsigned)(n / SL_EXACT_MIN_PER_THREAD);
    if (threads <= 1) {
        sl_exact_add_half(acc, x, n, dt);
        return 0;
    }
    half_job j = {{0}, (const uint16_t *)x, n, dt, threads};
    int rc = 0;
    for (unsigned t = 0; t < threads; t++)
        if (!(j.acc[t] = sl_exact_new())) rc = -1;
    if (!rc && sl_parallel_for(threads, threads, half_task, &j)) rc = -1;
    for (unsigned t = 0; t < threads && !rc; t++) sl_exact_merge(acc, j.acc[t]);
    for (unsigned t = 0; t < threads; t++) sl_exact_free(j.acc[t]);
    return rc;
}

double sl_round_mpfr_half(mpfr_srcptr s, sl_dtype to)
{
    if (!mpfr_number_p(s)) return mpfr_get_d(s, MPFR_RNDN);
    if (mpfr_zero_p(s)) return mpfr_signbit(s) ? -0.0 : 0.0;
    const int p = sl_half_prec(to), emin = sl_half_emin(to), emax = sl_half_emax(to);
    /* quantum 2^q of the result: the leading bit's exponent minus p-1, at least the subnormal
     * step 2^(emin-p+1) */
    long q = (long)mpfr_get_exp(s) - 1 - (p - 1);
    if (q < emin - p + 1) q = emin - p + 1;
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(s));
    mpfr_mul_2si(t, s, -q, MPFR_RNDN);      /* exact: a power of two */
    mpfr_rint(t, t, MPFR_RNDN);             /* the integer multiple of 2^q, ties to even */
    double r = ldexp(mpfr_get_d(t, MPFR_RNDN), (int)q); /* exact: <= p + 1 bits, in range */
    mpfr_clear(t);
    const double max = ldexp(2.0 - ldexp(1.0, 1 - p), emax);
    if (fabs(r) > max) return r < 0 ? -INFINITY : INFINITY;
    return r;
}

double sl_exact_round_half(const sl_exact *acc, sl_dtype to)
{
    mpfr_t s;
    mpfr_init2(s, 64);
    double r;
    if (sl_exact_get(acc, s) || !mpfr_zero_p(s)) r = sl_round_mpfr_half(s, to);
    else r = sl_exact_round(acc, SL_F64);   /* zero: +0, or -0 when every input was -0 */
    mpfr_clear(s);
    return r;
}

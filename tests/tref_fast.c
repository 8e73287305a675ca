/* tref_fast.c: the reference's fast path (long pieces summed in per-exponent-group double
 * bins) against mpfr_sum bit for bit and against the bins path (the same values added in short
 * pieces) byte for byte in the saved state, float32 and float64, on the families the issue
 * names and on edge cases: all-subnormal, Inf/NaN/-0, bins filled to their exact capacity,
 * FLT_MAX/DBL_MAX, cancellation to exact zero, block boundaries.
 *
 * Implementation assumptions: IEEE 754 binary32/binary64, round to nearest even, two's
 * complement 64-bit integers. */
#include <float.h>
#include "sl_datasets.h"
#include "tref_oracle.h"

#define SHORT_PIECE 1000      /* below the fast path's minimum piece: the bins path */
static long compared;

static double bits_d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t rnd(void) { return sl_test_rand64(); }

/* Sums x both ways and checks both against mpfr_sum and against each other. */
static void check(tref_oracle *o, sl_exact *fast, sl_exact *slow, const void *x, uint64_t n,
                  sl_dtype dt, const char *what)
{
    char name[160];
    snprintf(name, sizeof name, "%s %s n=%" PRIu64, what, sl_dtype_name(dt), n);
    sl_exact_reset(fast);
    sl_exact_add(fast, x, n, dt);
    sl_exact_reset(slow);
    const size_t sz = sl_dtype_size(dt);
    for (uint64_t i = 0; i < n; i += SHORT_PIECE)
        sl_exact_add(slow, (const char *)x + i * sz, n - i < SHORT_PIECE ? n - i : SHORT_PIECE, dt);
    unsigned char a[SL_EXACT_STATE_BYTES], b[SL_EXACT_STATE_BYTES];
    sl_exact_save(fast, a);
    sl_exact_save(slow, b);
    CHECK(memcmp(a, b, sizeof a) == 0, "%s: fast and bins paths save different states", name);
    uint64_t m = tref_oracle_load(o, 0, x, n, dt);
    if (!tref_check_acc(o, m, fast, name)) compared++;
    /* the threaded add (pieces of >= 2^16, each on the fast path) gives the same state */
    sl_exact_reset(slow);
    CHECK(sl_exact_add_threads(slow, x, n, dt, 3) == 0, "%s: sl_exact_add_threads failed", name);
    sl_exact_save(slow, b);
    CHECK(memcmp(a, b, sizeof a) == 0, "%s: threaded add saves a different state", name);
}

static void put(void *x, sl_dtype dt, uint64_t i, double v) /* v exact in dt */
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else ((float *)x)[i] = (float)v;
}

/* A random finite value with biased exponent field in [elo, ehi] and random sign. */
static double rnd_value(sl_dtype dt, unsigned elo, unsigned ehi)
{
    unsigned e = elo + (unsigned)(rnd() % (ehi - elo + 1));
    uint64_t s = rnd() & 1;
    if (dt == SL_F64) return bits_d(s << 63 | (uint64_t)e << 52 | (rnd() & 0x000fffffffffffffull));
    return bits_f((uint32_t)(s << 31 | (uint64_t)e << 23 | (rnd() & 0x7fffffu)));
}

static void dataset(tref_oracle *o, sl_exact *f, sl_exact *s, void *x, uint64_t n, sl_dtype dt,
                    const char *name, const char *const *params, int np)
{
    const sl_dataset *ds = sl_dataset_find(name);
    CHECK(ds != NULL, "dataset %s missing", name);
    if (!ds) return;
    sl_params p;
    sl_err err = {{0}};
    sl_params_defaults(ds, &p);
    for (int i = 0; i < np; i++) CHECK(sl_params_set(ds, &p, params[i], &err) == 0, "%s: %s", params[i], err.msg);
    CHECK(sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, x, &err) == 0, "%s: %s", name, err.msg);
    char what[96];
    snprintf(what, sizeof what, "dataset %s%s%s", name, np ? " " : "", np ? params[0] : "");
    check(o, f, s, x, n, dt, what);
}

int main(void)
{
    const uint64_t nmax = 140000; /* > two float64 blocks (2^16) and eight float32 blocks (2^14) */
    void *x = malloc(nmax * 8);
    tref_oracle o;
    tref_oracle_init(&o);
    sl_exact *f = sl_exact_new(), *s = sl_exact_new();
    if (!x || !f || !s) tref_fatal("out of memory");
    static const uint64_t sizes[] = {2048, 2051, 16384, 16385, 65536, 65537, 140000};
    static const char *const full64[] = {"emin=-1100", "emax=1100", "subnormals=1"};
    static const char *const ill[] = {"cond=1e16"};
    static const char *const sub[] = {"pnormal=0"};
    for (int d = 0; d < 2; d++) {
        const sl_dtype dt = d ? SL_F64 : SL_F32;
        const unsigned emax = dt == SL_F64 ? 2046 : 254;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            const uint64_t n = sizes[k];
            dataset(&o, f, s, x, n, dt, "uniform", NULL, 0);
            dataset(&o, f, s, x, n, dt, "log-uniform", full64, 3);
            dataset(&o, f, s, x, n, dt, "ill-conditioned", ill, 1);
            dataset(&o, f, s, x, n, dt, "subnormal", sub, 1);
            /* every exponent, subnormals and zeros included, both signs */
            for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, 0, emax));
            check(&o, f, s, x, n, dt, "all exponents");
            /* cancellation to exact zero: x_i and -x_i, in shuffled order */
            for (uint64_t i = 0; i + 1 < n; i += 2) {
                double v = rnd_value(dt, 0, emax);
                put(x, dt, i, v);
                put(x, dt, i + 1, -v);
            }
            if (n & 1) put(x, dt, n - 1, 0.0);
            for (uint64_t i = n; i > 1; i--) {
                uint64_t j = rnd() % i;
                double a = dt == SL_F64 ? ((double *)x)[i - 1] : ((float *)x)[i - 1];
                double b = dt == SL_F64 ? ((double *)x)[j] : ((float *)x)[j];
                put(x, dt, i - 1, b);
                put(x, dt, j, a);
            }
            check(&o, f, s, x, n, dt, "exact cancellation");
        }
        const uint64_t n = 70000;
        const double big = dt == SL_F64 ? DBL_MAX : FLT_MAX;
        /* the largest values: the sum overflows the format (f32 also in f64? no: 7e4 * FLT_MAX) */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, i % 3 == 2 ? -big : big);
        check(&o, f, s, x, n, dt, "+-MAX, overflowing sum");
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, i & 1 ? -big : big);
        check(&o, f, s, x, n, dt, "+-MAX cancelling");
        /* a bin at its exact capacity: a full block of the largest value of the top group of
         * exponents (f32: 2^14 x FLT_MAX; f64: 2^16 x DBL_MAX, its h scaled: a quarter of the
         * 2^18 block, which tref_window fills), then one more */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, big);
        check(&o, f, s, x, dt == SL_F64 ? 65536 : 16384, dt, "MAX, one full block");
        check(&o, f, s, x, dt == SL_F64 ? 65537 : 16385, dt, "MAX, one full block and one");
        /* the largest value of every group (all significand bits set), blocks full */
        for (uint64_t i = 0; i < n; i++) {
            unsigned e = dt == SL_F64 ? 8 * (unsigned)(rnd() % 256) + 7 : 16 * (unsigned)(rnd() % 16) + 15;
            if (e > emax) e = emax;
            put(x, dt, i, dt == SL_F64 ? bits_d((uint64_t)e << 52 | 0x000fffffffffffffull)
                                       : bits_f((uint32_t)e << 23 | 0x7fffffu));
        }
        check(&o, f, s, x, n, dt, "group maxima");
        /* all subnormal: the smallest and the largest subnormal */
        for (uint64_t i = 0; i < n; i++)
            put(x, dt, i, dt == SL_F64 ? bits_d(i & 1 ? 1 : 0x000fffffffffffffull)
                                       : bits_f(i & 1 ? 1u : 0x7fffffu));
        check(&o, f, s, x, n, dt, "all subnormal");
        /* zeros: all -0 (sum -0), then one +0 among them (sum +0) */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, -0.0);
        check(&o, f, s, x, n, dt, "all -0");
        CHECK(signbit(sl_exact_round(f, dt)) && sl_exact_round(f, dt) == 0, "all -0: sum is not -0");
        put(x, dt, 12345, 0.0);
        check(&o, f, s, x, n, dt, "-0 and one +0");
        CHECK(!signbit(sl_exact_round(f, dt)), "-0 and +0: sum is not +0");
        /* -0 with a tiny negative value (f64: its h is -0) */
        put(x, dt, 12345, dt == SL_F64 ? bits_d(0x8000000000000001ull) : bits_f(0x80000001u));
        check(&o, f, s, x, n, dt, "-0 and a negative subnormal");
        /* specials in one block among finite values, at the block's start, middle and end */
        const double sp[4] = {INFINITY, -INFINITY, NAN, dt == SL_F64 ? bits_d(0x7ff0000000000001ull) : NAN};
        for (int j = 0; j < 4; j++)
            for (int w = 0; w < 3; w++) {
                for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, 0, emax));
                uint64_t at = w == 0 ? 0 : w == 1 ? 40000 : n - 1;
                if (dt == SL_F64) ((double *)x)[at] = sp[j];
                else ((float *)x)[at] = (float)sp[j];
                check(&o, f, s, x, n, dt, "a special value");
            }
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, 0, emax));
        put(x, dt, 3, INFINITY);
        put(x, dt, n - 2, -INFINITY);
        check(&o, f, s, x, n, dt, "+Inf and -Inf");
    }
    printf("tref_fast: %ld arrays compared with mpfr_sum bit for bit, fast path = bins path\n", compared);
    sl_exact_free(f);
    sl_exact_free(s);
    tref_oracle_clear(&o);
    free(x);
    return sl_test_done("tref_fast");
}

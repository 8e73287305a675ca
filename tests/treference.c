/* treference.c: tests of reference/: the superaccumulator against mpfr_sum bit for bit
 * (random and adversarial arrays, both dtypes, both rounding targets), against IEEE
 * hardware arithmetic (n = 1 conversions, n = 2 additions), hand-derived edge cases, and the
 * metrics (errors, ulps, cond, bounds) on cases with answers derived by hand. Ends with a
 * small benchmark printout (ns/element).
 *
 * Implementation assumptions: IEEE 754 binary32/binary64 with FLT_EVAL_METHOD 0 (float
 * and double operations round once to their own format, as with x86-64 SSE2), Annex F
 * conversions (double -> float rounds to nearest even, overflowing to Inf), round to nearest
 * even, two's-complement 64-bit integers. */
#include "sumlab/half.h"
#include <float.h>
#include <time.h>
#include "sl_exact_impl.h"
#include "tref_oracle.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "treference.c needs FLT_EVAL_METHOD == 0 (SSE2 arithmetic) for its IEEE oracles"
#endif

/* ---- randomness ------------------------------------------------------------------------- */
static uint64_t rnd(void) { return sl_test_rand64(); }
static uint64_t rnd_below(uint64_t k) { return k ? rnd() % k : 0; }

static double bits_d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* A finite value of dtype dt with biased exponent field in [elo, ehi] and random sign. */
static double rnd_value(sl_dtype dt, int elo, int ehi, int sign)
{
    int e = elo + (int)rnd_below((uint64_t)(ehi - elo + 1));
    uint64_t s = sign < 0 ? 1 : sign > 0 ? 0 : rnd() & 1;
    if (dt == SL_F64) return bits_d(s << 63 | (uint64_t)e << 52 | (rnd() & 0x000fffffffffffffull));
    return bits_f((uint32_t)(s << 31 | (uint64_t)e << 23 | (rnd() & 0x7fffffu)));
}

static void put(void *x, sl_dtype dt, uint64_t i, double v) /* v must be exact in dt */
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else if (sl_dtype_is_half(dt)) ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
    else ((float *)x)[i] = (float)v;
}
static double get(const void *x, sl_dtype dt, uint64_t i)
{
    return dt == SL_F64 ? ((const double *)x)[i] : ((const float *)x)[i];
}
static void swap_el(void *x, sl_dtype dt, uint64_t i, uint64_t j)
{
    double a = get(x, dt, i), b = get(x, dt, j);
    put(x, dt, i, b);
    put(x, dt, j, a);
}
static void shuffle(void *x, sl_dtype dt, uint64_t n)
{
    for (uint64_t i = n; i > 1; i--) swap_el(x, dt, i - 1, rnd_below(i));
}

static uint64_t rnd_n(void)
{
    switch (rnd_below(10)) {
    case 0: return rnd_below(4);            /* 0..3 */
    case 1: case 2: case 3: return 1 + rnd_below(16);
    case 4: case 5: case 6: return 1 + rnd_below(300);
    case 7: case 8: return 1 + rnd_below(3000);
    default: return rnd_below(50) ? 1 + rnd_below(20000) : 1 + rnd_below(100000);
    }
}

/* Fills x with n values of one of many patterns; returns the pattern's name. */
static const char *gen(void *x, sl_dtype dt, uint64_t n)
{
    const int emaxf = dt == SL_F64 ? 2046 : 254;       /* largest finite exponent field */
    const int bias = dt == SL_F64 ? 1023 : 127;
    const int p = dt == SL_F64 ? 53 : 24;
    int pat = (int)rnd_below(11);
    int lo = (int)rnd_below((uint64_t)emaxf + 1), hi = (int)rnd_below((uint64_t)emaxf + 1);
    if (lo > hi) { int t = lo; lo = hi; hi = t; }
    switch (pat) {
    case 0: /* random exponent sub-range, random signs */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, lo, hi, 0));
        return "range";
    case 1: /* the whole finite range, subnormals and zeros included */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, 0, emaxf, 0));
        return "full-range";
    case 2: { /* cancellation: values and their negations, some perturbed, plus a residual */
        uint64_t h = n / 2;
        for (uint64_t i = 0; i < h; i++) put(x, dt, i, rnd_value(dt, lo, hi, 0));
        for (uint64_t i = h; i < 2 * h; i++) {
            double v = -get(x, dt, i - h);
            if (rnd_below(8) == 0) v = rnd_value(dt, lo > p ? lo - (int)rnd_below((uint64_t)p) : lo, lo, 0);
            put(x, dt, i, v);
        }
        for (uint64_t i = 2 * h; i < n; i++) put(x, dt, i, rnd_value(dt, 0, lo, 0));
        shuffle(x, dt, n);
        return "cancel";
    }
    case 3: { /* ties and near-ties of the f32 or f64 rounding, hidden among cancelling pairs */
        int tp = rnd() & 1 ? 24 : 53;
        if (tp > p) tp = p;
        int e = (int)rnd_below((uint64_t)(2 * bias - 2)) - bias + 3; /* unbiased, normal */
        double r = ldexp(1.0 + (double)(rnd() >> (64 - tp + 1)) * ldexp(1.0, 1 - tp), e);
        double half = ldexp(1.0, e - tp);
        uint64_t k = 0;
        if (n >= 1) put(x, dt, k++, r);
        if (n >= 2 && half >= (dt == SL_F64 ? 0x1p-1074 : 0x1p-149)) put(x, dt, k++, rnd() & 1 ? half : -half);
        if (n >= 3 && rnd() & 1) {
            double tiny = ldexp(1.0, e - tp - 1 - (int)rnd_below(60));
            if (tiny >= (dt == SL_F64 ? 0x1p-1074 : 0x1p-149) && tiny < half) put(x, dt, k++, rnd() & 1 ? tiny : -tiny);
        }
        while (k + 1 < n) {
            double v = rnd_value(dt, lo, hi, 0);
            put(x, dt, k++, v);
            put(x, dt, k++, -v);
        }
        if (k < n) put(x, dt, k++, 0.0);
        shuffle(x, dt, n);
        return "ties";
    }
    case 4: /* near the overflow threshold, mixed signs: partial sums overflow */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, emaxf - 2, emaxf, rnd_below(4) ? 1 : 0));
        return "overflow";
    case 5: { /* one exponent, many elements (long runs into the same bin) */
        int e = (int)rnd_below((uint64_t)emaxf + 1);
        int sign = (int)rnd_below(3) - 1;
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, e, e, sign));
        return "one-exponent";
    }
    case 6: { /* repeated identical value with cancellation against its big multiple */
        double v = rnd_value(dt, lo, hi < 2 * bias - 40 ? hi : 2 * bias - 40, 1);
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, v);
        if (n > 2) put(x, dt, 0, -get(x, dt, 0));
        return "repeat";
    }
    case 7: /* specials sprinkled in */
        for (uint64_t i = 0; i < n; i++) {
            uint64_t c = rnd_below(40);
            double v = c == 0 ? NAN : c == 1 ? INFINITY : c == 2 ? -INFINITY : c == 3 ? -0.0
                                                                                       : rnd_value(dt, lo, hi, 0);
            put(x, dt, i, v);
        }
        return "specials";
    case 8: /* zeros of both signs, maybe a few subnormals */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_below(3) ? -0.0 : rnd_below(5) ? 0.0 : rnd_value(dt, 0, 0, 0));
        return "zeros";
    case 9: /* subnormal boundary: tiny values and a few cancelling normals */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, 0, 2 + (int)rnd_below(3), 0));
        if (n > 3) { double v = rnd_value(dt, 1, 30, 0); put(x, dt, 0, v); put(x, dt, 1, -v); }
        return "subnormal";
    default: { /* huge and tiny: big cancelling pair with small remainder across the range */
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, rnd_value(dt, 0, lo, 0));
        if (n >= 2) {
            double v = rnd_value(dt, hi, hi, 0);
            put(x, dt, 0, v);
            put(x, dt, n - 1, -v);
        }
        return "huge-tiny";
    }
    }
}

/* ---- 1. random arrays against mpfr_sum ---------------------------------------------------- */
static long arrays_compared;
/* coverage of the random arrays, per rounding target: NaN, +-Inf, zero, subnormal, normal,
 * exact midpoint (tie) between two neighbours, and exact sums beyond the finite range */
enum { COV_NAN, COV_INF, COV_ZERO, COV_SUB, COV_NORMAL, COV_TIE, COV_OVF, COV_N };
static const char *const cov_name[COV_N] = {"NaN", "Inf", "zero", "subnormal", "normal", "tie", "overflow"};
static long cov[2][COV_N];

static void cover(tref_oracle *o, double r, sl_dtype to)
{
    const double minnorm = to == SL_F64 ? 0x1p-1022 : 0x1p-126;
    int t = to == SL_F64;
    if (isnan(r)) { cov[t][COV_NAN]++; return; }
    if (isinf(r)) {
        cov[t][mpfr_number_p(o->exact) ? COV_OVF : COV_INF]++;
        return;
    }
    cov[t][r == 0 ? COV_ZERO : fabs(r) < minnorm ? COV_SUB : COV_NORMAL]++;
    mpfr_t d;
    mpfr_init2(d, TREF_EXACT_PREC);
    if (mpfr_sub_d(d, o->exact, r, MPFR_RNDN) != 0) tref_fatal("inexact difference");
    mpfr_abs(d, d, MPFR_RNDN);
    if (mpfr_cmp_d(d, sl_ulp(r, to) / 2) == 0 && !mpfr_zero_p(d)) cov[t][COV_TIE]++;
    mpfr_clear(d);
}

static void test_random(tref_oracle *o, sl_exact *acc, sl_exact *acc2, int count)
{
    size_t cap = 100000;
    double *buf = malloc(cap * 8);
    for (int it = 0; it < count; it++) {
        sl_dtype dt = it & 1 ? SL_F64 : SL_F32;
        uint64_t n = rnd_n();
        const char *pat = gen(buf, dt, n);
        sl_exact_reset(acc);
        sl_exact_add(acc, buf, n, dt);
        uint64_t m = tref_oracle_load(o, 0, buf, n, dt);
        char what[96];
        snprintf(what, sizeof what, "random #%d %s %s", it, sl_dtype_name(dt), pat);
        if (tref_check_acc(o, m, acc, what)) continue;
        arrays_compared++;
        cover(o, sl_exact_round(acc, SL_F32), SL_F32);
        cover(o, sl_exact_round(acc, SL_F64), SL_F64);
        /* the same array in random pieces, with a small flush interval: same bits */
        sl_exact_reset(acc2);
        sl_exact_set_flush_interval(acc2, 1 + rnd_below(64));
        for (uint64_t i = 0; i < n;) {
            uint64_t k = 1 + rnd_below(n - i);
            sl_exact_add(acc2, (const char *)buf + i * sl_dtype_size(dt), k, dt);
            i += k;
        }
        CHECK(tref_same(sl_exact_round(acc2, SL_F32), sl_exact_round(acc, SL_F32)) &&
              tref_same(sl_exact_round(acc2, SL_F64), sl_exact_round(acc, SL_F64)),
              "%s: pieces/flush differ", what);
    }
    /* mixed dtypes in one accumulator */
    float *f = malloc(cap * 4);
    for (int it = 0; it < count / 20; it++) {
        uint64_t n1 = rnd_n() % 2000, n2 = rnd_n() % 2000;
        gen(f, SL_F32, n1);
        gen(buf, SL_F64, n2);
        sl_exact_reset(acc);
        sl_exact_add(acc, f, n1, SL_F32);
        sl_exact_add(acc, buf, n2, SL_F64);
        uint64_t m = tref_oracle_load(o, 0, f, n1, SL_F32);
        m = tref_oracle_load(o, m, buf, n2, SL_F64);
        if (!tref_check_acc(o, m, acc, "mixed f32+f64")) arrays_compared++;
    }
    free(f);
    free(buf);
    sl_exact_set_flush_interval(acc2, UINT64_MAX);
    for (int t = 0; t < 2; t++) {
        printf("coverage of the random arrays rounded to %s:", t ? "f64" : "f32");
        for (int c = 0; c < COV_N; c++) {
            printf(" %s %ld", cov_name[c], cov[t][c]);
            CHECK(cov[t][c] >= 3, "random arrays rounded to %s hit class %s only %ld times", t ? "f64" : "f32",
                  cov_name[c], cov[t][c]);
        }
        printf("\n");
    }
}

/* ---- 1b. merged states and threads: the same state whatever the split -------------------- */
static int same_mpfr(mpfr_srcptr a, mpfr_srcptr b) /* equal, or both NaN */
{
    return (mpfr_nan_p(a) && mpfr_nan_p(b)) || (mpfr_equal_p(a, b) && mpfr_signbit(a) == mpfr_signbit(b));
}

/* Same exact value, same sum |x|, same roundings and special values. */
static int same_state(const sl_exact *a, const sl_exact *b)
{
    mpfr_t va, vb;
    mpfr_init2(va, 64);
    mpfr_init2(vb, 64);
    int ra = sl_exact_get(a, va), rb = sl_exact_get(b, vb);
    int same = ra == rb && same_mpfr(va, vb);
    mpfr_clear(va);
    mpfr_clear(vb);
    sl_exact_fixed fa, fb;
    sl_exact_fixed_get(a, 1, &fa);
    sl_exact_fixed_get(b, 1, &fb);
    return same && fa.top == fb.top && !memcmp(fa.mag, fb.mag, sizeof fa.mag) &&
           tref_same(sl_exact_round(a, SL_F32), sl_exact_round(b, SL_F32)) &&
           tref_same(sl_exact_round(a, SL_F64), sl_exact_round(b, SL_F64));
}

static void test_merge(sl_exact *whole, int count)
{
    enum { PIECES = 6 };
    sl_exact *part[PIECES];
    for (int p = 0; p < PIECES; p++)
        if (!(part[p] = sl_exact_new())) tref_fatal("sl_exact_new");
    double *buf = malloc(100000 * 8);
    if (!buf) tref_fatal("malloc");
    long merged = 0;
    for (int it = 0; it < count; it++) {
        sl_dtype dt = it & 1 ? SL_F64 : SL_F32;
        uint64_t n = rnd_n();
        const char *pat = gen(buf, dt, n);
        sl_exact_reset(whole);
        sl_exact_add(whole, buf, n, dt);
        /* pieces of random lengths into random accumulators (random flush intervals, so bins
         * and limbs both carry state), merged in a random order into the first */
        for (int p = 0; p < PIECES; p++) {
            sl_exact_reset(part[p]);
            sl_exact_set_flush_interval(part[p], 1 + rnd_below(200));
        }
        for (uint64_t i = 0; i < n;) {
            uint64_t k = 1 + rnd_below(n - i);
            sl_exact_add(part[rnd_below(PIECES)], (const char *)buf + i * sl_dtype_size(dt), k, dt);
            i += k;
        }
        int order[PIECES];
        for (int p = 0; p < PIECES; p++) order[p] = p;
        for (int p = PIECES - 1; p > 0; p--) {
            int q = (int)rnd_below((uint64_t)p + 1), t = order[p];
            order[p] = order[q];
            order[q] = t;
        }
        for (int p = 1; p < PIECES; p++) sl_exact_merge(part[order[0]], part[order[p]]);
        CHECK(same_state(part[order[0]], whole), "merge #%d %s %s n=%" PRIu64 ": merged state differs",
              it, sl_dtype_name(dt), pat, n);
        merged++;
    }
    /* threads: every count gives the state of one thread, on arrays long enough to split */
    const uint64_t nbig = 9 * SL_EXACT_MIN_PER_THREAD + 12345;
    for (int dti = 0; dti < 2; dti++) {
        sl_dtype dt = dti ? SL_F64 : SL_F32;
        void *big = malloc(nbig * 8);
        if (!big) tref_fatal("malloc");
        for (uint64_t i = 0; i < nbig; i += 50000) {
            uint64_t k = nbig - i < 50000 ? nbig - i : 50000;
            gen(buf, dt, k);
            memcpy((char *)big + i * sl_dtype_size(dt), buf, k * sl_dtype_size(dt));
        }
        sl_exact_reset(whole);
        sl_exact_add(whole, big, nbig, dt);
        for (unsigned th = 1; th <= 12; th++) {
            sl_exact_reset(part[0]);
            CHECK(sl_exact_add_threads(part[0], big, nbig, dt, th) == 0, "add_threads(%u) failed", th);
            CHECK(same_state(part[0], whole), "%s: %u threads give another state", sl_dtype_name(dt), th);
        }
        sl_reference r1, r8;
        CHECK(sl_reference_compute_threads(&r1, big, nbig, dt, 1, NULL) == 0 &&
                  sl_reference_compute_threads(&r8, big, nbig, dt, 8, NULL) == 0,
              "sl_reference_compute_threads failed");
        CHECK(same_mpfr(r1.sum, r8.sum) && same_mpfr(r1.sumabs, r8.sumabs) &&
                  tref_same(r1.rounded, r8.rounded) && tref_same(r1.cond, r8.cond),
              "%s: the reference on 8 threads differs from 1 thread", sl_dtype_name(dt));
        sl_reference_clear(&r1);
        sl_reference_clear(&r8);
        free(big);
    }
    printf("merge: %ld arrays in up to %d merged pieces, thread counts 1..12: same state\n", merged,
           PIECES);
    for (int p = 0; p < PIECES; p++) sl_exact_free(part[p]);
    free(buf);
}

/* ---- 2. IEEE hardware as oracle: n = 1 (conversion) and n = 2 (one addition) --------------- */
static double eval(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt, sl_dtype to)
{
    sl_exact_reset(acc);
    sl_exact_add(acc, x, n, dt);
    return sl_exact_round(acc, to);
}

static void test_ieee(sl_exact *acc, int count)
{
    static const uint64_t cls64[] = {
        0, 0x8000000000000000ull, 1, 0x8000000000000001ull, 0x000fffffffffffffull,
        0x800fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
        0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x7ff8000000000000ull, 0xfff0000000000001ull, 0x47efffffefffffffull /* FLT_MAX+half-ulp-tiny */,
        0x47efffffe0000000ull /* FLT_MAX */, 0x47effffff0000000ull /* FLT_MAX + half ulp: tie */,
        0x3690000000000000ull /* 2^-150 */, 0x36a8000000000000ull /* 3*2^-150 */};
    static const uint32_t cls32[] = {0, 0x80000000u, 1, 0x80000001u, 0x007fffffu, 0x807fffffu,
                                     0x00800000u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu,
                                     0x7f800000u, 0xff800000u, 0x7fc00000u, 0xff800001u};
    for (int i = 0; i < (int)(sizeof cls64 / sizeof cls64[0]) + count; i++) {
        uint64_t u = i < (int)(sizeof cls64 / sizeof cls64[0]) ? cls64[i] : rnd();
        double d = bits_d(u);
        double want32 = (double)(float)d; /* Annex F: correctly rounded conversion */
        double g64 = eval(acc, &d, 1, SL_F64, SL_F64), g32 = eval(acc, &d, 1, SL_F64, SL_F32);
        CHECK(tref_same(g64, d), "n=1 f64 0x%016" PRIx64 ": got %a", u, g64);
        CHECK(tref_same(g32, want32), "n=1 f64->f32 0x%016" PRIx64 ": got %a want %a", u, g32, want32);
    }
    for (int i = 0; i < (int)(sizeof cls32 / sizeof cls32[0]) + count; i++) {
        uint32_t u = i < (int)(sizeof cls32 / sizeof cls32[0]) ? cls32[i] : (uint32_t)rnd();
        float f = bits_f(u);
        double g32 = eval(acc, &f, 1, SL_F32, SL_F32), g64 = eval(acc, &f, 1, SL_F32, SL_F64);
        CHECK(tref_same(g32, (double)f), "n=1 f32 0x%08" PRIx32 ": got %a", u, g32);
        CHECK(tref_same(g64, (double)f), "n=1 f32->f64 0x%08" PRIx32 ": got %a", u, g64);
    }
    /* n = 2: a + b in the format's own arithmetic is the correctly rounded sum, with IEEE
     * Inf/NaN and signed-zero rules. Operands: random bits, often with close exponents. */
    for (int i = 0; i < count; i++) {
        uint64_t ua = rnd(), ub = rnd();
        if (i % 3) ub = (ub & 0x800fffffffffffffull) | ((ua & 0x7ff0000000000000ull) + ((rnd_below(120) << 52) & 0x7ff0000000000000ull)) % 0x7ff0000000000000ull;
        if (i % 7 == 0) ub = ua ^ 0x8000000000000000ull ^ (rnd() & 0xff);
        if (i % 11 == 0) ua = (ua & 0x800fffffffffffffull) | 0x7fe0000000000000ull;
        double ab[2] = {bits_d(ua), bits_d(ub)};
        double want = ab[0] + ab[1], got = eval(acc, ab, 2, SL_F64, SL_F64);
        CHECK(tref_same(got, want), "n=2 f64 %a + %a: got %a want %a", ab[0], ab[1], got, want);
        uint32_t va = (uint32_t)ua, vb = (uint32_t)(ub >> 32);
        if (i % 3) vb = (vb & 0x807fffffu) | (((va & 0x7f800000u) + ((uint32_t)rnd_below(40) << 23)) % 0x7f800000u);
        if (i % 7 == 0) vb = va ^ 0x80000000u ^ (uint32_t)(rnd() & 0xf);
        if (i % 11 == 0) va = (va & 0x807fffffu) | 0x7f000000u;
        float fab[2] = {bits_f(va), bits_f(vb)};
        float fw = fab[0] + fab[1];
        double fg = eval(acc, fab, 2, SL_F32, SL_F32);
        CHECK(tref_same(fg, (double)fw), "n=2 f32 %a + %a: got %a want %a", fab[0], fab[1], fg, (double)fw);
    }
}

/* ---- 3. hand-derived edge cases ------------------------------------------------------------ */
/* Values are given as doubles that must be exact in dt; w32/w64: the expected roundings. */
static void edge(tref_oracle *o, sl_exact *acc, const char *name, sl_dtype dt, int n,
                 const double *v, double w32, double w64)
{
    double buf[16];
    for (int i = 0; i < n; i++) {
        put(buf, dt, (uint64_t)i, v[i]);
        CHECK(isnan(v[i]) || get(buf, dt, (uint64_t)i) == v[i], "%s: value %d (%a) not exact in %s", name, i, v[i], sl_dtype_name(dt));
    }
    double g32 = eval(acc, buf, (uint64_t)n, dt, SL_F32), g64 = eval(acc, buf, (uint64_t)n, dt, SL_F64);
    CHECK(tref_same(g32, w32), "%s (%s): f32 got %a want %a", name, sl_dtype_name(dt), g32, w32);
    CHECK(tref_same(g64, w64), "%s (%s): f64 got %a want %a", name, sl_dtype_name(dt), g64, w64);
    uint64_t m = tref_oracle_load(o, 0, buf, (uint64_t)n, dt); /* and mpfr_sum agrees */
    if (!tref_check_acc(o, m, acc, name)) arrays_compared++;
}
#define EDGE(name, dt, w32, w64, ...)                                                             \
    do {                                                                                          \
        const double v_[] = {__VA_ARGS__};                                                        \
        edge(o, acc, name, dt, (int)(sizeof v_ / sizeof v_[0]), v_, w32, w64);                    \
    } while (0)

static void test_edges(tref_oracle *o, sl_exact *acc)
{
    const double FM = FLT_MAX, DM = DBL_MAX, I = INFINITY;
    /* ties to even */
    EDGE("1 + 2^-24: tie, 1 is even", SL_F32, 1.0, 1 + 0x1p-24, 1.0, 0x1p-24);
    EDGE("1+2^-23 + 2^-24: tie, odd -> up", SL_F32, 1 + 0x1p-22, 1 + 0x1p-23 + 0x1p-24, 1 + 0x1p-23, 0x1p-24);
    EDGE("tie + sticky", SL_F32, 1 + 0x1p-23, 1 + 0x1p-24, 1.0, 0x1p-24, 0x1p-60);
    EDGE("tie - sticky", SL_F32, 1.0, 1 + 0x1p-24, 1.0, 0x1p-24, -0x1p-60);
    EDGE("-(1 + 2^-24)", SL_F32, -1.0, -1 - 0x1p-24, -1.0, -0x1p-24);
    EDGE("f64 1 + 2^-53", SL_F64, 1.0, 1.0, 1.0, 0x1p-53);
    EDGE("f64 1+2^-52 + 2^-53", SL_F64, 1.0, 1 + 0x1p-51, 1 + 0x1p-52, 0x1p-53);
    EDGE("f64 1 + 2^-24 (+ 2^-1074)", SL_F64, 1 + 0x1p-23, 1 + 0x1p-24, 1.0, 0x1p-24, 0x1p-1074);
    /* subnormal results */
    EDGE("largest f32 subnormal", SL_F32, 0x1p-126 - 0x1p-149, 0x1p-126 - 0x1p-149, 0x1p-126, -0x1p-149);
    EDGE("3 smallest subnormals", SL_F32, 0x1.8p-148, 0x1.8p-148, 0x1p-149, 0x1p-149, 0x1p-149);
    EDGE("2^-150 ties to 0", SL_F64, 0.0, 0x1p-150, 0x1p-150);
    EDGE("-2^-150 ties to -0", SL_F64, -0.0, -0x1p-150, -0x1p-150);
    EDGE("2^-150 + 2^-1074 -> 2^-149", SL_F64, 0x1p-149, 0x1p-150 + 0x1p-1074, 0x1p-150, 0x1p-1074);
    EDGE("3*2^-150 ties to 2^-148", SL_F64, 0x1p-148, 0x1.8p-149, 0x1p-149, 0x1p-150);
    EDGE("2^-1074 -> f32 +0", SL_F64, 0.0, 0x1p-1074, 0x1p-1074);
    EDGE("-2^-1074 -> f32 -0", SL_F64, -0.0, -0x1p-1074, -0x1p-1074);
    EDGE("largest f64 subnormal", SL_F64, 0.0, 0x1p-1022 - 0x1p-1074, 0x1p-1022, -0x1p-1074);
    /* partial sums overflow, total finite */
    EDGE("{MAX,MAX,-MAX,-MAX,1} f32", SL_F32, 1.0, 1.0, FM, FM, -FM, -FM, 1.0);
    EDGE("{MAX,MAX,1,-MAX,-MAX} f32", SL_F32, 1.0, 1.0, FM, FM, 1.0, -FM, -FM);
    EDGE("{MAX,MAX,-MAX,-MAX,1} f64", SL_F64, 1.0, 1.0, DM, DM, -DM, -DM, 1.0);
    /* rounding up to Inf at the boundary */
    EDGE("FLT_MAX + half ulp: tie, odd -> Inf", SL_F32, I, 0x1p128 - 0x1p103, FM, 0x1p103);
    EDGE("-FLT_MAX - half ulp -> -Inf", SL_F32, -I, -0x1p128 + 0x1p103, -FM, -0x1p103);
    EDGE("FLT_MAX + half ulp - 2^50", SL_F32, FM, 0x1p128 - 0x1p103, FM, 0x1p103, -0x1p50);
    EDGE("FLT_MAX + quarter ulp", SL_F32, FM, 0x1p128 - 0x1p104 + 0x1p102, FM, 0x1p102);
    EDGE("FLT_MAX + half ulp + 2^-149", SL_F32, I, 0x1p128 - 0x1p103, FM, 0x1p103, 0x1p-149);
    EDGE("FLT_MAX + FLT_MAX", SL_F32, I, 0x1p129 - 0x1p105, FM, FM);
    EDGE("f64 FLT_MAX + half ulp - 2^-1074", SL_F64, FM, 0x1p128 - 0x1p103, FM, 0x1p103, -0x1p-1074);
    EDGE("DBL_MAX + half ulp: tie -> Inf", SL_F64, I, I, DM, 0x1p970);
    EDGE("DBL_MAX + half ulp - 2^-1074", SL_F64, I, DM, DM, 0x1p970, -0x1p-1074);
    EDGE("DBL_MAX + half ulp + 2^-1074", SL_F64, I, I, DM, 0x1p970, 0x1p-1074);
    EDGE("DBL_MAX + quarter ulp", SL_F64, I, DM, DM, 0x1p969);
    EDGE("-DBL_MAX - DBL_MAX", SL_F64, -I, -I, -DM, -DM);
    /* special values */
    EDGE("+Inf -Inf -> NaN", SL_F32, NAN, NAN, I, -I);
    EDGE("+Inf + 1", SL_F32, I, I, I, 1.0);
    EDGE("NaN + 1", SL_F64, NAN, NAN, NAN, 1.0);
    EDGE("-Inf + MAX + MAX", SL_F32, -I, -I, -I, FM, FM);
    EDGE("Inf + Inf", SL_F64, I, I, I, I);
    EDGE("Inf + NaN", SL_F64, NAN, NAN, I, NAN);
    EDGE("-Inf -Inf 5", SL_F64, -I, -I, -I, -I, 5.0);
    EDGE("Inf -Inf 1 (f64)", SL_F64, NAN, NAN, 1.0, I, -I);
    /* signed zeros */
    edge(o, acc, "n=0 f32", SL_F32, 0, NULL, 0.0, 0.0);
    edge(o, acc, "n=0 f64", SL_F64, 0, NULL, 0.0, 0.0);
    EDGE("-0", SL_F32, -0.0, -0.0, -0.0);
    EDGE("-0 -0 -0", SL_F64, -0.0, -0.0, -0.0, -0.0, -0.0);
    EDGE("-0 +0", SL_F32, 0.0, 0.0, -0.0, 0.0);
    EDGE("+0 -0", SL_F64, 0.0, 0.0, 0.0, -0.0);
    EDGE("1 -1", SL_F32, 0.0, 0.0, 1.0, -1.0);
    EDGE("-1 1", SL_F64, 0.0, 0.0, -1.0, 1.0);
    EDGE("-0 2^-149 -2^-149", SL_F32, 0.0, 0.0, -0.0, 0x1p-149, -0x1p-149);
    EDGE("-1 1 -0", SL_F64, 0.0, 0.0, -1.0, 1.0, -0.0);
}

/* ---- 4. metrics with hand-derived answers ---------------------------------------------------- */
static void ref_of(sl_reference *r, sl_dtype dt, int n, const double *v)
{
    double buf[16];
    sl_err err;
    for (int i = 0; i < n; i++) put(buf, dt, (uint64_t)i, v[i]);
    int rc = sl_reference_compute(r, buf, (uint64_t)n, dt, &err);
    CHECK(rc == 0, "sl_reference_compute failed: %s", err.msg);
}
#define REF(r, dt, ...)                                                                          \
    do {                                                                                         \
        const double v_[] = {__VA_ARGS__};                                                       \
        ref_of(r, dt, (int)(sizeof v_ / sizeof v_[0]), v_);                                      \
    } while (0)

static void check_err(const sl_reference *r, double res, sl_dtype rdt, double wa, double wr,
                      double wu, const char *what)
{
    sl_errors e = sl_reference_errors(r, res, rdt);
    CHECK(tref_same(e.abs_err, wa) && tref_same(e.rel_err, wr) && tref_same(e.ulps, wu),
          "%s: errors(%a) = {%a, %a, %a}, want {%a, %a, %a}", what, res, e.abs_err, e.rel_err,
          e.ulps, wa, wr, wu);
}

/* true value of a bound formula, computed independently at 1000 bits, rounded up */
static double bound_up(double k, double ua, double uo, double sumabs, double s, int compensated)
{
    mpfr_t a, b;
    mpfr_inits2(1000, a, b, (mpfr_ptr)0);
    if (compensated) {
        mpfr_set_d(a, 4 * ua * ua, MPFR_RNDN);
        mpfr_mul_d(a, a, k, MPFR_RNDN);
        mpfr_add_d(a, a, 2 * ua, MPFR_RNDN);
    } else {
        mpfr_set_d(b, k * ua, MPFR_RNDN);
        mpfr_ui_sub(a, 1, b, MPFR_RNDN);
        mpfr_div(a, b, a, MPFR_RNDU);
    }
    mpfr_mul_d(a, a, sumabs, MPFR_RNDU);
    if (uo > 0) {
        mpfr_add_d(b, a, fabs(s), MPFR_RNDU);
        mpfr_mul_d(b, b, uo, MPFR_RNDU);
        mpfr_add(a, a, b, MPFR_RNDU);
    }
    double r = mpfr_get_d(a, MPFR_RNDU);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return r;
}

static void check_bound(double got, double want_up, const char *what)
{
    /* never below the real value (want_up is it rounded up), at most a few ulps above */
    CHECK(got >= want_up && got <= want_up * (1 + 0x1p-50), "%s: bound %a, formula %a", what, got, want_up);
}

/* rel_err against an independent oracle: MPFR in binary64's own exponent range, the quotient
 * rounded once by mpfr_div and mpfr_subnormalize (the documented way to emulate IEEE
 * subnormals). Inputs {big, tiny} judged at big: |e|/|S| lands anywhere down to 2^-1074. */
static void test_rel_err_oracle(int count)
{
    long subnormal = 0;
    for (int it = 0; it < count; it++) {
        /* every other case: tiny / big in [2^-1075, 2^-1021], the subnormal quotients */
        int eb = it % 2 ? 1 + (int)rnd_below(2046) : 1050 + (int)rnd_below(50);
        int et = it % 2 ? (int)rnd_below(300) : eb - 1023 - (int)rnd_below(54);
        if (et < 0) et = 0;
        double big = rnd_value(SL_F64, eb, eb, 0), tiny = rnd_value(SL_F64, et, et, 0);
        double res = it % 3 ? big : rnd_value(SL_F64, 1, 2046, 0);
        sl_reference r;
        REF(&r, SL_F64, big, tiny);
        if (!r.finite) {
            sl_reference_clear(&r);
            continue;
        }
        sl_errors e = sl_reference_errors(&r, res, SL_F64);
        mpfr_t d, q;
        mpfr_init2(d, 4096);
        mpfr_init2(q, 53);
        mpfr_set_d(d, res, MPFR_RNDN);
        mpfr_sub(d, d, r.sum, MPFR_RNDN); /* exact at 4096 bits */
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
        mpfr_set_emin(-1073);
        mpfr_set_emax(1024);
        int t = mpfr_div(q, d, r.sum, MPFR_RNDN);
        t = mpfr_subnormalize(q, t, MPFR_RNDN);
        double want = fabs(mpfr_get_d(q, MPFR_RNDN));
        mpfr_set_emin(emin);
        mpfr_set_emax(emax);
        subnormal += want != 0 && want < 0x1p-1022;
        CHECK(tref_same(e.rel_err, want), "rel_err of %a for {%a, %a}: %a, oracle %a", res, big, tiny,
              e.rel_err, want);
        mpfr_clear(d);
        mpfr_clear(q);
        sl_reference_clear(&r);
    }
    CHECK(subnormal > count / 10, "the oracle test reached the subnormal range only %ld times", subnormal);
    printf("rel_err: %d quotients against MPFR's subnormalize oracle (%ld subnormal)\n", count, subnormal);
}

static void test_metrics(void)
{
    const double I = INFINITY, FM = FLT_MAX, DM = DBL_MAX;
    sl_reference r;
    CHECK(sl_unit_roundoff(SL_F32) == 0x1p-24 && sl_unit_roundoff(SL_F64) == 0x1p-53, "unit roundoff");
    CHECK(sl_ulp(1.0, SL_F32) == 0x1p-23 && sl_ulp(1.5, SL_F32) == 0x1p-23 && sl_ulp(2.0, SL_F32) == 0x1p-22 &&
          sl_ulp(-1.0, SL_F64) == 0x1p-52 && sl_ulp(0.0, SL_F32) == 0x1p-149 && sl_ulp(-0.0, SL_F64) == 0x1p-1074 &&
          sl_ulp(0x1p-126, SL_F32) == 0x1p-149 && sl_ulp(0x1p-127, SL_F32) == 0x1p-149 &&
          sl_ulp(FM, SL_F32) == 0x1p104 && sl_ulp(-I, SL_F32) == 0x1p104 && sl_ulp(DM, SL_F64) == 0x1p971 &&
          sl_ulp(0x1p-1022, SL_F64) == 0x1p-1074 && sl_ulp(0x1p-1000, SL_F32) == 0x1p-149 && isnan(sl_ulp(NAN, SL_F64)),
          "sl_ulp definition");

    REF(&r, SL_F32, 1.0);
    CHECK(r.finite == 1 && r.rounded == 1.0 && r.cond == 1.0 && r.abssum == 1.0, "{1}");
    check_err(&r, 1 + 0x1p-23, SL_F32, 0x1p-23, 0x1p-23, 1.0, "one ulp above 1");
    check_err(&r, 1 - 0x1p-24, SL_F32, 0x1p-24, 0x1p-24, 0.5, "one ulp below 1 (binade of R = 1)");
    check_err(&r, 1.0, SL_F32, 0.0, 0.0, 0.0, "exact");
    check_err(&r, 1 + 0x1p-52, SL_F64, 0x1p-52, 0x1p-52, 1.0, "one f64 ulp above 1");
    check_err(&r, NAN, SL_F32, I, I, I, "NaN for finite S");
    check_err(&r, I, SL_F32, I, I, I, "Inf for finite S");
    check_bound(sl_reference_bound(&r, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, SL_F32, SL_F32), 0x1p-24, "CR {1}");
    sl_reference_clear(&r);

    /* bug20261201: rel_err in the subnormal range was rounded twice (53 bits, then to the
     * subnormal grid): {2, 3*2^-1074} judged at 2: |e|/|S| = 1.5 (1 - 2^-1075...) * 2^-1074
     * rounds once to 2^-1074, not to the tie's even 2^-1073. */
    REF(&r, SL_F64, 2.0, 0x3p-1074);
    check_err(&r, 2.0, SL_F64, 0x3p-1074, 0x1p-1074, 0x3p-1023, "rel_err rounded once in the subnormal range");
    check_err(&r, 2.0 + 0x1p-51, SL_F64, 0x1p-51 - 0x3p-1074, (0x1p-51 - 0x3p-1074) / 2, 1.0,
              "rel_err of a normal quotient");
    sl_reference_clear(&r);
    REF(&r, SL_F64, -2.0, -0x3p-1074);
    check_err(&r, -2.0, SL_F64, 0x3p-1074, 0x1p-1074, 0x3p-1023, "rel_err rounded once, negative S");
    sl_reference_clear(&r);

    REF(&r, SL_F32, 1.0, 0x1p-30);
    CHECK(r.rounded == 1.0 && r.rounded_f64 == 1 + 0x1p-30 && r.cond == 1.0 && r.abssum == 1 + 0x1p-30, "{1, 2^-30}");
    check_err(&r, 1.0, SL_F32, 0x1p-30, 0x1p-30 / (1 + 0x1p-30), 0x1p-7, "1 for 1+2^-30");
    CHECK(sl_reference_bound(&r, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, SL_F32, SL_F32) == 0x1p-24 &&
          sl_reference_bound(&r, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, SL_F32, SL_F64) == 0x1p-53, "CR bound");
    sl_reference_clear(&r);

    REF(&r, SL_F32, 1.0, -1.0);
    CHECK(r.finite == 1 && tref_same(r.rounded, 0.0) && r.cond == I && r.abssum == 2.0, "{1,-1}: cond %a", r.cond);
    check_err(&r, 0.0, SL_F32, 0.0, 0.0, 0.0, "0 for 0");
    check_err(&r, -0.0, SL_F32, 0.0, 0.0, 0.0, "-0 for 0");
    check_err(&r, 0x1p-149, SL_F32, 0x1p-149, I, 1.0, "2^-149 for 0");
    check_err(&r, 0x1p-1074, SL_F64, 0x1p-1074, I, 1.0, "2^-1074 for 0");
    CHECK(sl_reference_bound(&r, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, SL_F32, SL_F32) == 0x1p-150, "CR bound at 0");
    sl_reference_clear(&r);

    REF(&r, SL_F64, 3.0, -1.0);
    CHECK(r.cond == 2.0 && r.rounded == 2.0, "{3,-1}: cond %a", r.cond);
    sl_reference_clear(&r);
    REF(&r, SL_F64, -1.0, -2.0);
    CHECK(r.cond == 1.0 && r.abssum == 3.0 && r.rounded == -3.0, "{-1,-2}");
    sl_reference_clear(&r);
    REF(&r, SL_F32, 1.0, -1.0, 0x1p-30);
    CHECK(r.cond == 0x1p31 + 1 && r.abssum == 2 + 0x1p-30, "{1,-1,2^-30}: cond %a", r.cond);
    sl_reference_clear(&r);
    REF(&r, SL_F32, 0.0, -0.0);
    CHECK(r.cond == 1.0 && tref_same(r.rounded, 0.0) && r.abssum == 0.0, "{0,-0}");
    sl_reference_clear(&r);
    ref_of(&r, SL_F64, 0, NULL);
    CHECK(r.cond == 1.0 && tref_same(r.rounded, 0.0) && r.finite == 1 && r.n == 0, "{}");
    check_err(&r, 0.0, SL_F64, 0.0, 0.0, 0.0, "{} exact");
    sl_reference_clear(&r);

    REF(&r, SL_F32, 0x1.4p-147); /* 5 * 2^-149 */
    check_err(&r, 0x1.8p-148, SL_F32, 0x1p-148, 2.0 / 5.0, 2.0, "subnormal 3 vs 5 units");
    sl_reference_clear(&r);

    REF(&r, SL_F64, DM, -DM, 0.5);
    CHECK(r.finite == 1 && r.rounded == 0.5 && r.abssum == I && r.cond == I, "abssum overflows double: cond %a", r.cond);
    sl_reference_clear(&r);

    /* specials */
    REF(&r, SL_F32, I, 1.0);
    CHECK(r.finite == 0 && isnan(r.cond) && r.abssum == I && r.rounded == I, "{Inf,1}");
    check_err(&r, I, SL_F32, 0.0, 0.0, 0.0, "Inf for Inf");
    check_err(&r, 1.0, SL_F32, I, I, I, "1 for Inf");
    check_err(&r, -I, SL_F32, I, I, I, "-Inf for Inf");
    check_err(&r, NAN, SL_F32, I, I, I, "NaN for Inf");
    CHECK(isnan(sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 1, SL_F32, SL_F32)), "bound of non-finite");
    sl_reference_clear(&r);
    REF(&r, SL_F64, I, -I);
    check_err(&r, NAN, SL_F64, 0.0, 0.0, 0.0, "NaN for NaN");
    check_err(&r, I, SL_F64, I, I, I, "Inf for NaN");
    check_err(&r, 0.0, SL_F64, I, I, I, "0 for NaN");
    sl_reference_clear(&r);
    REF(&r, SL_F64, NAN, 1.0);
    CHECK(isnan(r.abssum) && isnan(r.rounded) && r.finite == 0, "{NaN,1}");
    sl_reference_clear(&r);

    /* overflow of the exact sum in the result format */
    REF(&r, SL_F32, FM, FM);
    CHECK(r.finite == 0 && r.rounded == I && r.rounded_f64 == 0x1p129 - 0x1p105 && isnan(r.cond), "{FM,FM}");
    check_err(&r, I, SL_F32, 0.0, 0.0, 0.0, "Inf = correctly rounded overflow");
    check_err(&r, -I, SL_F32, I, I, I, "-Inf for overflow");
    check_err(&r, FM, SL_F32, FM, 0.5, 0x1p24 - 1, "FLT_MAX for 2 FLT_MAX");
    check_err(&r, 0x1p129 - 0x1p105, SL_F64, 0.0, 0.0, 0.0, "exact in f64");
    sl_reference_clear(&r);

    /* bounds */
    const double u = 0x1p-24, v = 0x1p-53;
    REF(&r, SL_F32, 1.0, 2.0, 3.0);
    CHECK(r.cond == 1.0 && r.abssum == 6.0, "{1,2,3}");
    check_bound(sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 3, SL_F32, SL_F32), bound_up(3, u, 0, 6, 6, 0), "recursive k=3");
    CHECK(sl_reference_bound(&r, SL_REF_BOUND_COMPENSATED, 1000, SL_F32, SL_F32) == 12 * u + 24000 * u * u, "compensated k=1000 (exact)");
    check_bound(sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 2, SL_F64, SL_F32), bound_up(2, v, u, 6, 6, 0), "recursive f64 acc, f32 out");
    check_bound(sl_reference_bound(&r, SL_REF_BOUND_COMPENSATED, 5, SL_F64, SL_F32), bound_up(5, v, u, 6, 6, 1), "compensated f64 acc, f32 out");
    check_bound(sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 2, SL_F32, SL_F64), bound_up(2, u, 0, 6, 6, 0), "f32 acc, f64 out: no output term");
    CHECK(sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 0x1p24, SL_F32, SL_F32) == I, "vacuous k u = 1");
    CHECK(isfinite(sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 0x1p24 - 1, SL_F32, SL_F32)), "k u < 1");
    CHECK(isnan(sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, -1, SL_F32, SL_F32)) &&
          isnan(sl_reference_bound(&r, SL_REF_BOUND_NONE, 1, SL_F32, SL_F32)), "NaN bound");
    sl_reference_clear(&r);
    sl_err err;
    CHECK(sl_reference_compute(&r, NULL, 3, SL_F32, &err) != 0 && strstr(err.msg, "NULL"), "NULL x must fail");
    sl_reference_clear(&r);
}

/* Recursive float summation must respect the RECURSIVE bound with k = n - 1. */
/* max |x| of the reference (an integer max on the bit patterns): signs, zeros, subnormals, Inf,
 * NaN in any position, every format. */
static void test_maxabs(void)
{
    const double I = INFINITY;
    sl_reference r;
    REF(&r, SL_F64, -3.0, 2.0, -0.0, 0x1p-1074);
    CHECK(r.maxabs == 3.0, "maxabs f64 signs: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F64, -0.0, 0x1p-1074, -0x1p-1073);
    CHECK(r.maxabs == 0x1p-1073, "maxabs f64 subnormals: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F64, 1.0, -I, 2.0);
    CHECK(r.maxabs == I, "maxabs f64 -Inf: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F64, -I, NAN, 1.0);
    CHECK(isnan(r.maxabs), "maxabs f64 NaN after Inf: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F32, 0x1p-149, -0x1p-140, 0.0);
    CHECK(r.maxabs == 0x1p-140, "maxabs f32 subnormals: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F32, -(double)FLT_MAX, I, NAN);
    CHECK(isnan(r.maxabs), "maxabs f32 NaN last: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F32, -0.0, -0.0);
    CHECK(r.maxabs == 0.0, "maxabs f32 zeros: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F16, -2.0, 65504.0, 0x1p-24);
    CHECK(r.maxabs == 65504.0, "maxabs f16: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F16, 1.0, -I);
    CHECK(r.maxabs == I, "maxabs f16 -Inf: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_F16, NAN, 1.0);
    CHECK(isnan(r.maxabs), "maxabs f16 NaN: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_BF16, 0.5, -0x1p-133, -3.0);
    CHECK(r.maxabs == 3.0, "maxabs bf16: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_BF16, 0x1p-133, -0x1p-132);
    CHECK(r.maxabs == 0x1p-132, "maxabs bf16 subnormals: %a", r.maxabs);
    sl_reference_clear(&r);
    REF(&r, SL_BF16, I, NAN);
    CHECK(isnan(r.maxabs), "maxabs bf16 NaN: %a", r.maxabs);
    sl_reference_clear(&r);
}

static void test_bound_holds(int count)
{
    float *x = malloc(20000 * 4);
    for (int it = 0; it < count; it++) {
        uint64_t n = 2 + rnd_below(20000);
        int e0 = 100 + (int)rnd_below(40);
        for (uint64_t i = 0; i < n; i++) x[i] = (float)rnd_value(SL_F32, e0, e0 + 10, it & 1 ? 0 : 1);
        float s = 0;
        for (uint64_t i = 0; i < n; i++) s += x[i];
        sl_reference r;
        sl_err err;
        CHECK(sl_reference_compute(&r, x, n, SL_F32, &err) == 0, "%s", err.msg);
        sl_errors e = sl_reference_errors(&r, s, SL_F32);
        double b = sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, (double)(n - 1), SL_F32, SL_F32);
        CHECK(e.abs_err <= b, "recursive sum of %" PRIu64 ": error %a > bound %a", n, e.abs_err, b);
        sl_reference_clear(&r);
    }
    free(x);
}

/* ---- 5. long sums: 2^24 equal values in one bin, exact multiples checked in MPFR ------------- */
static void test_long(sl_exact *acc)
{
    const uint64_t chunk = 1u << 16, reps = 256; /* n = 2^24 */
    double *d = malloc(chunk * 8);
    float *f = malloc(chunk * 4);
    mpfr_t want, got;
    mpfr_inits2(TREF_EXACT_PREC, want, got, (mpfr_ptr)0);
    for (uint64_t i = 0; i < chunk; i++) d[i] = DBL_MAX;
    sl_exact_reset(acc);
    for (uint64_t r = 0; r < reps; r++) sl_exact_add(acc, d, chunk, SL_F64);
    mpfr_set_d(want, DBL_MAX, MPFR_RNDN);
    mpfr_mul_2ui(want, want, 24, MPFR_RNDN); /* exact */
    CHECK(sl_exact_get(acc, got) == 0 && mpfr_equal_p(got, want), "2^24 DBL_MAX: exact value");
    CHECK(sl_exact_round(acc, SL_F64) == INFINITY && sl_exact_round(acc, SL_F32) == INFINITY, "2^24 DBL_MAX: Inf");
    for (uint64_t i = 0; i < chunk; i++) d[i] = -DBL_MAX;
    for (uint64_t r = 0; r < reps; r++) sl_exact_add(acc, d, chunk, SL_F64);
    double one = 1.0;
    sl_exact_add(acc, &one, 1, SL_F64);
    CHECK(sl_exact_round(acc, SL_F64) == 1.0 && sl_exact_round(acc, SL_F32) == 1.0, "2^24 (DBL_MAX, -DBL_MAX) + 1");
    for (uint64_t i = 0; i < chunk; i++) f[i] = 0x1p-149f;
    sl_exact_reset(acc);
    for (uint64_t r = 0; r < 1024; r++) sl_exact_add(acc, f, chunk, SL_F32); /* 2^26 * 2^-149 */
    CHECK(sl_exact_round(acc, SL_F32) == 0x1p-123 && sl_exact_round(acc, SL_F64) == 0x1p-123, "2^26 smallest subnormals");
    mpfr_clears(want, got, (mpfr_ptr)0);
    free(d);
    free(f);
}

/* ---- 6. benchmark printout -------------------------------------------------------------------- */
static double now(void) /* process CPU time: the build machine is shared, wall time is noisy */
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static void bench(sl_exact *acc)
{
    const uint64_t n = 1u << 22;
    double *d = malloc(n * 8);
    float *f = malloc(n * 4);
    for (uint64_t i = 0; i < n; i++) {
        d[i] = rnd_value(SL_F64, 900, 1100, 0);
        f[i] = (float)rnd_value(SL_F32, 100, 150, 0);
    }
    double best32 = 1e9, best64 = 1e9, bestref = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        sl_exact_reset(acc);
        double t0 = now();
        sl_exact_add(acc, f, n, SL_F32);
        double t1 = now();
        sl_exact_reset(acc);
        sl_exact_add(acc, d, n, SL_F64);
        double t2 = now();
        sl_reference r;
        sl_reference_compute(&r, d, n, SL_F64, NULL);
        double t3 = now();
        sl_reference_clear(&r);
        if (t1 - t0 < best32) best32 = t1 - t0;
        if (t2 - t1 < best64) best64 = t2 - t1;
        if (t3 - t2 < bestref) bestref = t3 - t2;
    }
    printf("bench (2^22 elements, best of 3): sl_exact_add f32 %.2f ns/el, f64 %.2f ns/el; "
           "sl_reference_compute f64 %.2f ns/el\n", 1e9 * best32 / (double)n, 1e9 * best64 / (double)n,
           1e9 * bestref / (double)n);
    free(d);
    free(f);
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 1; /* `treference 10`: ten times more random cases */
    if (scale < 1) scale = 1;
    sl_test_rng = sl_test_seed();
    tref_oracle o;
    tref_oracle_init(&o);
    sl_exact *acc = sl_exact_new(), *acc2 = sl_exact_new();
    if (!acc || !acc2) tref_fatal("sl_exact_new");
    double t0 = now();
    test_edges(&o, acc);
    test_metrics();
    test_maxabs();
    test_rel_err_oracle(20000);
    test_ieee(acc, 20000 * scale);
    test_random(&o, acc, acc2, 4000 * scale);
    test_merge(acc, 1000 * scale);
    test_bound_holds(20 * scale);
    test_long(acc);
    printf("treference: %ld arrays compared with mpfr_sum bit for bit (f32 and f64 roundings, exact value), %.1f s\n",
           arrays_compared, now() - t0);
    if (!getenv("SUMLAB_NO_BENCH")) bench(acc);
    sl_exact_free(acc);
    sl_exact_free(acc2);
    tref_oracle_clear(&o);
    return sl_test_done("treference");
}

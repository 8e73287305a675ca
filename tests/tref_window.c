/* tref_window.c: the window paths of the reference (float64: blocks of 2048 with a narrow
 * exponent span summed in grid-aligned double folds; float32: blocks spanning <= 18 binades
 * summed in plain doubles) and the wide runs' bins loops, against
 * mpfr_sum bit for bit and against each other byte for byte in the saved state (sum and sum
 * of magnitudes): every array is summed with the window path (AVX2 and portable), the bins
 * fast path (AVX2 and SSE2) and the bins path. Edges: spans at the 1/2/3-fold limits and
 * one past them, the window's top (near DBL_MAX) and bottom (subnormals), lanes filled with
 * the largest values of a binade, one sign or mixed, -0, all-zero blocks, NaN/Inf in scanned
 * and in unscanned blocks, blocks summed with the previous block's plan (fitting it or not:
 * exponents past its edges, signs, zeros), narrow and wide blocks alternating, full-range runs longer than a
 * bins block, bins blocks full of DBL_MAX, n not a multiple of the block or of 4. float32:
 * spans 0..24 at four heights, blocks at the bound's edge (magnitudes' sums just below and
 * above 2^53 units: 18 binades pass, 19 would round), subnormals, FLT_MAX blocks, -0 only
 * blocks, cancellation to 0, NaN/Inf, narrow and wide blocks mixed, lengths not a multiple
 * of 4, 16 or the block.
 *
 * Implementation assumptions: IEEE 754 binary32/binary64, round to nearest even, two's complement
 * 64-bit integers. */
#include <float.h>
#include "sl_exact_impl.h"
#include "tref_oracle.h"

#define BLOCK 2048                     /* WIN_BLOCK of sl_exact.c */
#define BINS_BLOCK ((uint64_t)1 << 18) /* FAST64_BLOCK of sl_exact.c */
static long compared;

static const unsigned path_sets[] = {
    0,                                       /* window (AVX2 where the CPU has it) */
    SL_EXACT_NO_AVX2,                        /* window, portable loops */
    SL_EXACT_NO_WINDOW,                      /* bins fast path (AVX2 loop where available) */
    SL_EXACT_L1_PREFETCH,                    /* window; the integer bins' loop with the L1 prefetch */
    SL_EXACT_NO_WINDOW | SL_EXACT_NO_AVX2,   /* bins fast path, SSE2 loop */
    SL_EXACT_NO_FAST,                        /* bins path */
};
#define NPATHS (sizeof path_sets / sizeof path_sets[0])

static double bits_d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t rnd(void) { return sl_test_rand64(); }

/* A value of biased exponent e (0: subnormal), sign s (0, 1; 2: random), random significand
 * with its lowest bit set (the finest grid is needed). */
static double val(unsigned e, int s)
{
    uint64_t sg = s == 2 ? rnd() & 1 : (uint64_t)s;
    uint64_t f = (rnd() & 0x000fffffffffffffull) | 1;
    return bits_d(sg << 63 | (uint64_t)e << 52 | f);
}

/* Sums x (float32 or float64) on every path: same saved state everywhere, and the value is
 * mpfr_sum's. */
static void check_dt(tref_oracle *o, sl_exact *acc, const void *x, uint64_t n, sl_dtype dt, const char *what)
{
    unsigned char ref[SL_EXACT_STATE_BYTES], st[SL_EXACT_STATE_BYTES];
    for (size_t k = 0; k < NPATHS; k++) {
        sl_exact_reset(acc);
        acc->paths = path_sets[k];
        sl_exact_add(acc, x, n, dt);
        sl_exact_save(acc, k ? st : ref);
        CHECK(!k || memcmp(ref, st, sizeof st) == 0, "%s n=%" PRIu64 ": paths 0x%x save another state than the window path",
              what, n, path_sets[k]);
    }
    acc->paths = 0;
    sl_exact_reset(acc);
    sl_exact_add(acc, x, n, dt);
    uint64_t m = tref_oracle_load(o, 0, x, n, dt);
    if (!tref_check_acc(o, m, acc, what)) compared++;
}

static void check(tref_oracle *o, sl_exact *acc, const double *x, uint64_t n, const char *what)
{
    check_dt(o, acc, x, n, SL_F64, what);
}

static void check32(tref_oracle *o, sl_exact *acc, const float *x, uint64_t n, const char *what)
{
    check_dt(o, acc, x, n, SL_F32, what);
}

static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* float32 versions of val and fill_block (biased exponents 0..254). */
static float val32(unsigned e, int s)
{
    uint32_t sg = s == 2 ? (uint32_t)(rnd() & 1) : (uint32_t)s;
    return bits_f(sg << 31 | (uint32_t)e << 23 | ((uint32_t)rnd() & 0x7fffffu) | 1);
}

static void fill_block32(float *x, uint64_t len, unsigned elo, unsigned ehi, int s)
{
    for (uint64_t i = 0; i < len; i++) x[i] = val32(elo + (unsigned)(rnd() % (ehi - elo + 1)), s);
    x[rnd() % len] = val32(elo, s);
    x[rnd() % len] = val32(ehi, s);
}

/* Block b of x: values with biased exponents in [elo, ehi] (both present), sign s. */
static void fill_block(double *x, uint64_t len, unsigned elo, unsigned ehi, int s)
{
    for (uint64_t i = 0; i < len; i++) x[i] = val(elo + (unsigned)(rnd() % (ehi - elo + 1)), s);
    x[rnd() % len] = val(elo, s);
    x[rnd() % len] = val(ehi, s);
}

/* float32/float64 element i of x, as a double (exact either way). */
static void put(void *x, sl_dtype dt, uint64_t i, double v)
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else ((float *)x)[i] = (float)v;
}

static double get(const void *x, sl_dtype dt, uint64_t i)
{
    return dt == SL_F64 ? ((const double *)x)[i] : ((const float *)x)[i];
}

/* fill_block / fill_block32 for element i0 on of x. */
static void fill_dt(void *x, sl_dtype dt, uint64_t i0, uint64_t len, unsigned elo, unsigned ehi, int s)
{
    if (dt == SL_F64) fill_block((double *)x + i0, len, elo, ehi, s);
    else fill_block32((float *)x + i0, len, elo, ehi, s);
}

/* Zeros, signs and specials, either format, narrow blocks of biased exponents from e0
 * (f64: its exponents, f32: its own): all -0 (one block, several), -0 and one +0, all-zero
 * blocks among window blocks, -0 among one-sign values, exact cancellation to 0 within a
 * block, all subnormal; NaN/Inf in a scanned block among window blocks at a block's start,
 * middle and end, +Inf and -Inf, the format's largest values with a NaN. */
static void zeros_specials(tref_oracle *o, sl_exact *acc, void *x, sl_dtype dt, unsigned e0)
{
    const double big = dt == SL_F64 ? DBL_MAX : FLT_MAX;
    const char *f = dt == SL_F64 ? "f64" : "f32";
    char what[160];
#define FILL(n, lo, hi, s) fill_dt(x, dt, 0, n, lo, hi, s)
#define CHK(n, ...) (snprintf(what, sizeof what, __VA_ARGS__), check_dt(o, acc, x, n, dt, what))
    {
        const uint64_t n = 4 * BLOCK + 2;
        for (uint64_t i = 0; i < n; i++) put(x, dt, i, -0.0);
        CHK(BLOCK, "%s -0 only, one block", f);
        CHECK(signbit(sl_exact_round(acc, dt)) && sl_exact_round(acc, dt) == 0, "%s -0 block: sum is not -0", f);
        CHK(n, "%s all -0", f);
        CHECK(signbit(sl_exact_round(acc, dt)) && sl_exact_round(acc, dt) == 0, "%s all -0: sum is not -0", f);
        put(x, dt, n - 1, 0.0);
        CHK(n, "%s -0 and one +0 at the end", f);
        CHECK(!signbit(sl_exact_round(acc, dt)), "%s -0 and +0: sum is not +0", f);
        FILL(n, e0, e0 + 10, 1);
        for (uint64_t i = BLOCK; i < 2 * BLOCK; i++) put(x, dt, i, -0.0);
        for (uint64_t i = 2 * BLOCK; i < 3 * BLOCK; i++) put(x, dt, i, i & 1 ? 0.0 : -0.0);
        for (uint64_t i = 3 * BLOCK; i < n; i += 3) put(x, dt, i, -0.0);
        CHK(n, "%s negative blocks, a -0 block, a zero block, -0 among negatives", f);
        FILL(n, e0, e0 + 10, 1);
        for (uint64_t i = 0; i < BLOCK + 7; i++) put(x, dt, i, -0.0);
        CHK(n, "%s a -0 block and the next block's start, then negatives", f);
        CHECK(signbit(sl_exact_round(acc, dt)), "%s -0 then negatives: sum is not negative", f);
        FILL(n, e0, e0 + 10, 0);
        for (uint64_t i = 0; i < n; i += 5) put(x, dt, i, -0.0);
        CHK(n, "%s -0 among positives", f);
        FILL(n, e0 + 10, e0 + 10, 2);
        for (uint64_t i = 0; i + 1 < n; i += 2) put(x, dt, i + 1, -get(x, dt, i));
        CHK(n, "%s exact cancellation to 0", f);
        CHECK(!signbit(sl_exact_round(acc, dt)), "%s cancellation: sum is not +0", f);
        FILL(n, 0, 0, 2);
        CHK(n, "%s all subnormal", f);
    }
    static const double sp[3] = {INFINITY, -INFINITY, NAN};
    const uint64_t n = 3 * BLOCK + 3;
    for (int j = 0; j < 3; j++)
        for (int w = 0; w < 3; w++) {
            FILL(n, e0 + 20, e0 + 30, 2);
            put(x, dt, w == 0 ? BLOCK : w == 1 ? BLOCK + 1000 : 2 * BLOCK - 1, sp[j]);
            CHK(n, "%s %a among window blocks, at %d", f, sp[j], w);
        }
    FILL(n, e0 + 20, e0 + 30, 2);
    put(x, dt, 5, INFINITY);
    put(x, dt, n - 1, -INFINITY);
    CHK(n, "%s +Inf and -Inf", f);
    for (uint64_t i = 0; i < n; i++) put(x, dt, i, i & 1 ? -big : big);
    put(x, dt, 2 * BLOCK + 9, NAN);
    CHK(n, "%s +-largest and a NaN", f);
#undef FILL
#undef CHK
}

/* Narrow and wide blocks alternating (narrow: exponents [e0, e0 + sa] and [e0, e0 + sb],
 * one sign each; wide: [wlo, whi], mixed signs); a wide run (scans backed off) with a NaN in
 * a block that is not scanned, then narrow data again. */
static void narrow_wide(tref_oracle *o, sl_exact *acc, void *x, sl_dtype dt, unsigned e0, unsigned sa,
                        unsigned sb, unsigned wlo, unsigned whi)
{
    const char *f = dt == SL_F64 ? "f64" : "f32";
    char what[160];
    const uint64_t n = 40 * BLOCK + 7;
    for (uint64_t b = 0; b * BLOCK < n; b++) {
        uint64_t len = n - b * BLOCK < BLOCK ? n - b * BLOCK : BLOCK;
        if (b % 3 == 2) fill_dt(x, dt, b * BLOCK, len, wlo, whi, 2);
        else fill_dt(x, dt, b * BLOCK, len, e0, e0 + (b % 3 ? sb : sa), b & 1);
    }
    snprintf(what, sizeof what, "%s narrow and wide blocks alternating", f);
    check_dt(o, acc, x, n, dt, what);
    fill_dt(x, dt, 0, 30 * BLOCK, wlo, whi, 2);
    fill_dt(x, dt, 30 * BLOCK, n - 30 * BLOCK, e0, e0 + sa, 2);
    snprintf(what, sizeof what, "%s a wide run, then narrow blocks", f);
    check_dt(o, acc, x, n, dt, what);
    put(x, dt, 3 * BLOCK + 17, NAN);
    snprintf(what, sizeof what, "%s a wide run with a NaN in an unscanned block", f);
    check_dt(o, acc, x, n, dt, what);
}

/* The float64 integer bins (wide runs: blocks spanning >= 256 binades). A bin hammered with
 * the largest significand of its binade (the top binade, the largest subnormal, 1.99..; one
 * sign, alternating so that both bins of a binade fill, or flipping every 700 values so that
 * runs start with part-filled bins): in every value but two a block (hot: the 4-set double
 * bins), in every 5th value, the others spread over the full range (not hot: the integer
 * bins, whose hammered bin wraps every few runs of 2^10: the run is undone, the high bins
 * spilled into the limbs and the run added again), and in every value of a stretch between
 * the places hot64 samples (the integer bins; fails with runs of 2048, and without the undo).
 * Inf/NaN in the unscanned blocks of a wide run: whole blocks (hot) and every 3rd value, more
 * than 2^12 of them (their bin wraps and spills). Zeros only in the unscanned tail of a wide
 * run, shorter than hot64's samples. */
static void int_bins(tref_oracle *o, sl_exact *acc, double *x)
{
    char what[160];
    static const uint64_t hammer[] = {0x7fefffffffffffffull, 0x000fffffffffffffull, 0x3fffffffffffffffull};
    for (size_t h = 0; h < sizeof hammer / sizeof hammer[0]; h++)
        for (int s = 0; s < 4; s++) {
            const uint64_t n = BINS_BLOCK + 5 * BLOCK + 3;
#define HAMMER(i) bits_d((s == 3 ? ((i) / 700) & 1 : s == 2 ? ((i) >> 1) & 1 : (uint64_t)s) << 63 | hammer[h])
            for (uint64_t i = 0; i < n; i++) x[i] = HAMMER(i);
            for (uint64_t b = 0; b * BLOCK < n; b++) { /* every block spans the full range */
                x[b * BLOCK + 1] = val(1, 2);
                x[b * BLOCK + 2] = val(2040, 2);
            }
            snprintf(what, sizeof what, "wide blocks, one bin hammered (%016" PRIx64 "), sign %d", hammer[h], s);
            check(o, acc, x, n, what);
            for (uint64_t i = 0; i < n; i++) x[i] = i % 5 ? val((unsigned)(rnd() % 2047), 2) : HAMMER(i);
            snprintf(what, sizeof what, "full range, every 5th value in one bin (%016" PRIx64 "), sign %d", hammer[h], s);
            check(o, acc, x, n, what);
            for (uint64_t i = 0; i < n; i++) /* hot64 samples near k/8 of each 2^18 block, k odd */
                x[i] = i % BINS_BLOCK >= BINS_BLOCK / 8 + 100 && i % BINS_BLOCK < 3 * BINS_BLOCK / 8 - 100
                           ? HAMMER(i) : val((unsigned)(rnd() % 2047), 2);
            for (uint64_t b = 0; b * BLOCK < n; b++) { /* scanned blocks of the stretch: wide */
                x[b * BLOCK + 1] = val(1, 2);
                x[b * BLOCK + 2] = val(2040, 2);
            }
            snprintf(what, sizeof what, "full range, a stretch in one bin (%016" PRIx64 "), sign %d", hammer[h], s);
            check(o, acc, x, n, what);
#undef HAMMER
        }
    static const double sp[4] = {INFINITY, -INFINITY, NAN, 0};
    for (int every = 1; every <= 3; every += 2)
        for (int j = 0; j < 4; j++) {
            const uint64_t n = 12 * BLOCK + 5;
            fill_block(x, n, 0, 2046, 2);
            for (uint64_t b = 0; b < 12; b++) {
                if (b == 0 || b == 2 || b == 5 || b == 10) continue; /* scanned: wide */
                for (uint64_t i = b * BLOCK; i < (b + 1) * BLOCK; i += every)
                    x[i] = j < 3 ? sp[j] : i & 1 ? INFINITY : -INFINITY;
            }
            snprintf(what, sizeof what, "a wide run with %s in unscanned blocks, every %d",
                     j < 3 ? (j ? j == 1 ? "-Inf" : "NaN" : "+Inf") : "+-Inf", every);
            check(o, acc, x, n, what);
        }
    for (int z = 0; z < 3; z++) {
        static const uint64_t tail[3] = {100, 511, 40 * BLOCK + 1};
        const uint64_t n = BINS_BLOCK + tail[z];
        fill_block(x, BINS_BLOCK, 0, 2046, 2);
        for (uint64_t i = BINS_BLOCK; i < n; i++) x[i] = -0.0;
        snprintf(what, sizeof what, "a wide run, then %" PRIu64 " -0", tail[z]);
        check(o, acc, x, n, what);
        x[n - 1] = 0.0;
        snprintf(what, sizeof what, "a wide run, then %" PRIu64 " zeros", tail[z]);
        check(o, acc, x, n, what);
        for (uint64_t i = 0; i < BINS_BLOCK; i++) x[i] = -0.0;
        check(o, acc, x, n, "-0 and +0 only, longer than a bins block");
    }
}

int main(void)
{
    const uint64_t nmax = BINS_BLOCK + 40 * BLOCK + 8;
    double *x = malloc(nmax * sizeof *x);
    tref_oracle o;
    tref_oracle_init(&o);
    sl_exact *acc = sl_exact_new();
    if (!x || !acc) tref_fatal("out of memory");
    char what[160];

    /* spans 0..90 binades (1, 2, 3 folds and too wide: the limits are at 28 and 69 with
     * 2048-value blocks), at three heights, one sign or mixed; n = 3 blocks and a bit */
    static const unsigned tops[] = {1023 + 10, 300, 2000};
    for (size_t t = 0; t < sizeof tops / sizeof tops[0]; t++)
        for (unsigned span = 0; span <= 90; span += span < 20 || (span > 24 && span < 32) || (span > 64 && span < 74) ? 1 : 5)
            for (int s = 0; s < 3; s++) {
                const uint64_t n = 3 * BLOCK + 1 + span % 7;
                fill_block(x, n, tops[t] - span, tops[t], s);
                snprintf(what, sizeof what, "span %u below exponent %u, sign %d", span, tops[t], s);
                check(&o, acc, x, n, what);
            }

    /* lanes at their capacity: every value the largest of its binade, one sign, plus one
     * value at the span's bottom; heights up to the window's top (biased 2032) and past it */
    for (unsigned e = 2020; e <= 2046; e += e < 2028 || e > 2036 ? 4 : 1)
        for (int s = 0; s < 2; s++) {
            const uint64_t n = 2 * BLOCK;
            for (uint64_t i = 0; i < n; i++) x[i] = bits_d((uint64_t)s << 63 | (uint64_t)e << 52 | 0x000fffffffffffffull);
            x[777] = val(e - 60, s);
            snprintf(what, sizeof what, "largest values of exponent %u, sign %d", e, s);
            check(&o, acc, x, n, what);
        }
    /* the later folds at their capacity: one value sets the block's top exponent E (grid of
     * fold 0: 2^13 ulps of E), the others, one sign, leave remainders just below half a grid:
     * exponent E with low 13 bits 0xfff (fold 1 fills up), exponent E - 54 with low 26 bits
     * 0x1ffffff (fold 2 fills up) */
    for (unsigned e = 1100; e <= 2030; e += 930)
        for (int s = 0; s < 2; s++)
            for (int f = 1; f <= 2; f++) {
                const uint64_t n = 2 * BLOCK;
                const uint64_t low = f == 1 ? 0xfffu : 0x1ffffffu, ee = f == 1 ? e : e - 54;
                for (uint64_t i = 0; i < n; i++)
                    x[i] = bits_d((uint64_t)s << 63 | ee << 52 | ((rnd() & 0x000fffffffffffffull) & ~(2 * low + 1)) | low);
                x[100] = bits_d((uint64_t)s << 63 | (uint64_t)e << 52);
                x[n - 100] = bits_d((uint64_t)s << 63 | (uint64_t)(e - 64) << 52 | 1);
                snprintf(what, sizeof what, "fold %d filled by remainders, exponent %u, sign %d", f, e, s);
                check(&o, acc, x, n, what);
            }
    for (uint64_t i = 0; i < 2 * BLOCK; i++) x[i] = bits_d(0x3fefffffffffffffull | (uint64_t)(i & 1) << 63);
    check(&o, acc, x, 2 * BLOCK, "largest values below 1, alternating signs");

    /* blocks summed with the previous block's plan, unscanned: after a block of exponents
     * [E - s0, E], a block with one value of exponent E - t (t = -1 .. 80), its significand
     * all zeros or all ones (the plan's edges), or one value of the other sign, or one +0 in
     * a negative block; then all -0 and all +0 blocks under a plan */
    for (unsigned s0 = 4; s0 <= 60; s0 += 28)
        for (int t = -1; t <= 80; t++)
            for (int m = 0; m < 2; m++) {
                const unsigned E = 1030;
                const uint64_t n = 3 * BLOCK + 2;
                fill_block(x, n, E - s0, E, 0);
                x[BLOCK + 1234] = bits_d((uint64_t)(E - t) << 52 | (m ? 0x000fffffffffffffull : 0));
                snprintf(what, sizeof what, "a planned block, then exponent %u - %d (%s)", E, t, m ? "ones" : "zeros");
                check(&o, acc, x, n, what);
            }
    for (int s = 0; s < 2; s++) {
        const uint64_t n = 5 * BLOCK + 3;
        fill_block(x, n, 1000, 1020, s);
        x[BLOCK + 5] = -x[BLOCK + 5];
        x[2 * BLOCK + 7] = s ? 0.0 : -0.0;
        for (uint64_t i = 3 * BLOCK; i < 4 * BLOCK; i++) x[i] = s ? -0.0 : 0.0;
        check(&o, acc, x, n, "planned blocks with a sign change, a zero, an all-zero block");
        for (uint64_t i = 3 * BLOCK; i < 4 * BLOCK; i++) x[i] = s ? 0.0 : -0.0;
        check(&o, acc, x, n, "planned blocks with an all-zero block of the other sign");
        for (uint64_t i = BLOCK; i < n; i++) x[i] = -0.0;
        check(&o, acc, x, n, "a planned block, then -0 only");
        CHECK(signbit(sl_exact_round(acc, SL_F64)) == s, "a planned block, then -0: wrong zero sign");
    }
    for (uint64_t i = 0; i < BLOCK; i++) x[i] = val(1000, 2);
    for (uint64_t i = 0; i < BLOCK; i++) x[BLOCK + i] = -x[i];
    for (uint64_t i = 2 * BLOCK; i < 5 * BLOCK; i++) x[i] = -0.0;
    check(&o, acc, x, 5 * BLOCK, "cancelling blocks, then -0 only under a plan");

    /* the bottom: all subnormal, subnormals with small normals, the smallest subnormal */
    for (int s = 0; s < 3; s++) {
        const uint64_t n = 2 * BLOCK + 3;
        fill_block(x, n, 0, 0, s);
        check(&o, acc, x, n, "all subnormal");
        fill_block(x, n, 0, 40, s);
        check(&o, acc, x, n, "subnormals and normals up to exponent 40");
        fill_block(x, n, 0, 80, s);
        check(&o, acc, x, n, "subnormals and normals up to exponent 80 (too wide)");
        for (uint64_t i = 0; i < n; i++) x[i] = bits_d((uint64_t)(s == 2 ? i & 1 : (uint64_t)s) << 63 | 1);
        check(&o, acc, x, n, "the smallest subnormal");
        /* the integer route's bound: whole blocks of the largest subnormal, one sign, then a
         * block of them and -0 mixed */
        for (uint64_t i = 0; i < n; i++)
            x[i] = bits_d((uint64_t)(s == 2 ? i & 1 : (uint64_t)s) << 63 | (((uint64_t)1 << 52) - 1));
        check(&o, acc, x, n, "the largest subnormal");
        for (uint64_t i = 0; i < n; i += 3) x[i] = -0.0;
        check(&o, acc, x, n, "the largest subnormal and -0");
    }

    zeros_specials(&o, acc, x, SL_F64, 1000);

    /* narrow and wide blocks alternating, wide runs; medium spans (the 4-set bins loop) */
    narrow_wide(&o, acc, x, SL_F64, 1000, 40, 40, 1, 2046);
    {
        const uint64_t n = 40 * BLOCK + 7;
        fill_block(x, n, 900, 1100, 2);
        check(&o, acc, x, n, "spans of 200 binades");
    }

    int_bins(&o, acc, x);

    /* full-range runs longer than a bins block; bins blocks full of DBL_MAX and one more */
    {
        const uint64_t n = BINS_BLOCK + 3 * BLOCK + 5;
        fill_block(x, n, 0, 2046, 2);
        check(&o, acc, x, n, "full range, longer than a bins block");
        for (uint64_t i = 0; i < n; i++) x[i] = DBL_MAX;
        check(&o, acc, x, BINS_BLOCK, "DBL_MAX, one full bins block");
        check(&o, acc, x, BINS_BLOCK + 1, "DBL_MAX, one full bins block and one");
        for (uint64_t i = 0; i < n; i++) x[i] = i % 3 == 2 ? -DBL_MAX : DBL_MAX;
        check(&o, acc, x, n, "+-DBL_MAX");
    }

    /* lengths: below a block, not a multiple of 4 or of the block */
    static const uint64_t lens[] = {2048, 2049, 2050, 2051, 2052, 4095, 4097, 6143, 10001};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        fill_block(x, lens[k], 1010, 1060, 2);
        snprintf(what, sizeof what, "length %" PRIu64, lens[k]);
        check(&o, acc, x, lens[k], what);
    }


    /* ---- float32: blocks whose exponents span <= 18 binades (subnormals counting as
     * biased exponent 1) are summed in plain doubles; wider ones, or with NaN/Inf, not ---- */
    float *y = malloc(nmax * sizeof *y);
    if (!y) tref_fatal("out of memory");
    /* spans 0..24 at four heights (the top: FLT_MAX's binade; the bottom: subnormals) */
    static const unsigned tops32[] = {127 + 10, 60, 254, 24};
    for (size_t t = 0; t < sizeof tops32 / sizeof tops32[0]; t++)
        for (unsigned span = 0; span <= 24 && span <= tops32[t]; span++)
            for (int s = 0; s < 3; s++) {
                const uint64_t n = 3 * BLOCK + 1 + span % 7;
                fill_block32(y, n, tops32[t] - span, tops32[t], s);
                snprintf(what, sizeof what, "f32 span %u below exponent %u, sign %d", span, tops32[t], s);
                check32(&o, acc, y, n, what);
            }
    /* the bound at its edge: every value the largest of exponent hi but one per block of
     * the smallest odd multiple of the unit of exponent lo (0: the smallest subnormal); the
     * magnitudes' sum of a block reaches 2^53 units at hi - max(lo, 1) = 19 */
    for (unsigned hi = 17; hi <= 254; hi += hi < 22 ? 1 : hi < 150 ? 128 : 104)
        for (unsigned d = 17; d <= 20 && d <= hi; d++)
            for (int s = 0; s < 3; s++) {
                const uint64_t n = 2 * BLOCK + 3;
                const unsigned lo = hi - d;
                for (uint64_t i = 0; i < n; i++) {
                    uint32_t sg = s == 2 ? (uint32_t)(rnd() & 1) : (uint32_t)s;
                    y[i] = bits_f(sg << 31 | (i % BLOCK == 1000 ? (uint32_t)lo << 23 | 1 : (uint32_t)hi << 23 | 0x7fffffu));
                }
                snprintf(what, sizeof what, "f32 largest values of exponent %u, one odd unit of exponent %u, sign %d", hi, lo, s);
                check32(&o, acc, y, n, what);
            }
    /* near FLT_MAX: 2048 and more of them (the double sums do not overflow), both signs */
    {
        const uint64_t n = 3 * BLOCK + 5;
        for (uint64_t i = 0; i < n; i++) y[i] = FLT_MAX;
        check32(&o, acc, y, BLOCK, "f32 FLT_MAX, one block");
        check32(&o, acc, y, n, "f32 FLT_MAX, three blocks and a bit");
        y[BLOCK + 3] = val32(254 - 18, 0);
        check32(&o, acc, y, n, "f32 FLT_MAX and one value 18 binades below");
        for (uint64_t i = 0; i < n; i++) y[i] = i % 3 == 2 ? -FLT_MAX : FLT_MAX;
        check32(&o, acc, y, n, "f32 +-FLT_MAX");
    }
    zeros_specials(&o, acc, y, SL_F32, 100);

    /* narrow blocks at the bound (18 binades) and one past it (19), wide blocks */
    narrow_wide(&o, acc, y, SL_F32, 100, 18, 19, 0, 254);
    /* lengths: not a multiple of 4, 16 (the loops' group) or the block */
    static const uint64_t lens32[] = {2048, 2049, 2050, 2051, 2052, 2055, 2063, 2064, 4095, 4097, 6143, 10001};
    for (size_t k = 0; k < sizeof lens32 / sizeof lens32[0]; k++)
        for (int s = 0; s < 3; s++) {
            fill_block32(y, lens32[k], 110, 128, s);
            snprintf(what, sizeof what, "f32 length %" PRIu64 ", sign %d", lens32[k], s);
            check32(&o, acc, y, lens32[k], what);
        }
    free(y);

    printf("tref_window: %ld arrays compared with mpfr_sum bit for bit, %zu paths with one state\n",
           compared, NPATHS);
    sl_exact_free(acc);
    tref_oracle_clear(&o);
    free(x);
    return sl_test_done("tref_window");
}

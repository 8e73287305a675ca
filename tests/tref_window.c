/* tref_window.c: the float64 window path of the reference (blocks of 2048 with a narrow
 * exponent span summed in grid-aligned double folds) and the wide runs' bins loops, against
 * mpfr_sum bit for bit and against each other byte for byte in the saved state (sum and sum
 * of magnitudes): every array is summed with the window path (AVX2 and portable), the bins
 * fast path (AVX2 and SSE2) and the bins path. Edges: spans at the 1/2/3-fold limits and
 * one past them, the window's top (near DBL_MAX) and bottom (subnormals), lanes filled with
 * the largest values of a binade, one sign or mixed, -0, all-zero blocks, NaN/Inf in scanned
 * and in unscanned blocks, blocks summed with the previous block's plan (fitting it or not:
 * exponents past its edges, signs, zeros), narrow and wide blocks alternating, full-range runs longer than a
 * bins block, bins blocks full of DBL_MAX, n not a multiple of the block or of 4.
 *
 * Implementation assumptions: IEEE 754 binary64, round to nearest even, two's complement
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

/* Sums x on every path: same saved state everywhere, and the value is mpfr_sum's. */
static void check(tref_oracle *o, sl_exact *acc, const double *x, uint64_t n, const char *what)
{
    unsigned char ref[SL_EXACT_STATE_BYTES], st[SL_EXACT_STATE_BYTES];
    for (size_t k = 0; k < NPATHS; k++) {
        sl_exact_reset(acc);
        acc->paths = path_sets[k];
        sl_exact_add(acc, x, n, SL_F64);
        sl_exact_save(acc, k ? st : ref);
        CHECK(!k || memcmp(ref, st, sizeof st) == 0, "%s n=%" PRIu64 ": paths 0x%x save another state than the window path",
              what, n, path_sets[k]);
    }
    acc->paths = 0;
    sl_exact_reset(acc);
    sl_exact_add(acc, x, n, SL_F64);
    uint64_t m = tref_oracle_load(o, 0, x, n, SL_F64);
    if (!tref_check_acc(o, m, acc, what)) compared++;
}

/* Block b of x: values with biased exponents in [elo, ehi] (both present), sign s. */
static void fill_block(double *x, uint64_t len, unsigned elo, unsigned ehi, int s)
{
    for (uint64_t i = 0; i < len; i++) x[i] = val(elo + (unsigned)(rnd() % (ehi - elo + 1)), s);
    x[rnd() % len] = val(elo, s);
    x[rnd() % len] = val(ehi, s);
}

int main(void)
{
    const uint64_t nmax = BINS_BLOCK + 3 * BLOCK + 5;
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
    }

    /* zeros and signs: all -0 blocks, all-zero blocks among window blocks, -0 in one-sign blocks */
    {
        const uint64_t n = 4 * BLOCK + 2;
        for (uint64_t i = 0; i < n; i++) x[i] = -0.0;
        check(&o, acc, x, n, "all -0");
        CHECK(signbit(sl_exact_round(acc, SL_F64)) && sl_exact_round(acc, SL_F64) == 0, "all -0: sum is not -0");
        x[n - 1] = 0.0;
        check(&o, acc, x, n, "-0 and one +0 at the end");
        CHECK(!signbit(sl_exact_round(acc, SL_F64)), "-0 and +0: sum is not +0");
        fill_block(x, n, 1000, 1010, 1);
        for (uint64_t i = BLOCK; i < 2 * BLOCK; i++) x[i] = -0.0;
        for (uint64_t i = 2 * BLOCK; i < 3 * BLOCK; i++) x[i] = i & 1 ? 0.0 : -0.0;
        for (uint64_t i = 3 * BLOCK; i < n; i += 3) x[i] = -0.0;
        check(&o, acc, x, n, "negative blocks, a -0 block, a zero block, -0 among negatives");
        fill_block(x, n, 1000, 1010, 0);
        for (uint64_t i = 0; i < n; i += 5) x[i] = -0.0;
        check(&o, acc, x, n, "-0 among positives");
        for (uint64_t i = 0; i < n; i++) x[i] = val(1010, 2);
        for (uint64_t i = 0; i + 1 < n; i += 2) x[i + 1] = -x[i];
        check(&o, acc, x, n, "exact cancellation to 0");
    }

    /* NaN/Inf in a scanned block among window blocks, at a block's start, middle and end */
    static const double sp[3] = {INFINITY, -INFINITY, NAN};
    for (int j = 0; j < 3; j++)
        for (int w = 0; w < 3; w++) {
            const uint64_t n = 3 * BLOCK + 3;
            fill_block(x, n, 1020, 1030, 2);
            x[w == 0 ? BLOCK : w == 1 ? BLOCK + 1000 : 2 * BLOCK - 1] = sp[j];
            check(&o, acc, x, n, "a special value among window blocks");
        }
    {
        const uint64_t n = 3 * BLOCK + 3;
        fill_block(x, n, 1020, 1030, 2);
        x[5] = INFINITY;
        x[n - 1] = -INFINITY;
        check(&o, acc, x, n, "+Inf and -Inf");
    }

    /* narrow and wide blocks alternating; wide runs (scans backed off) with a NaN in a block
     * that is not scanned, then narrow data again; medium spans (the 4-set bins loop) */
    {
        uint64_t n = 40 * BLOCK + 7;
        for (uint64_t b = 0; b * BLOCK < n; b++) {
            uint64_t len = n - b * BLOCK < BLOCK ? n - b * BLOCK : BLOCK;
            if (b % 3 == 2) fill_block(x + b * BLOCK, len, 1, 2046, 2);
            else fill_block(x + b * BLOCK, len, 1000, 1040, b & 1);
        }
        check(&o, acc, x, n, "narrow and wide blocks alternating");
        fill_block(x, 30 * BLOCK, 1, 2046, 2);
        fill_block(x + 30 * BLOCK, n - 30 * BLOCK, 1000, 1040, 2);
        check(&o, acc, x, n, "a wide run, then narrow blocks");
        x[3 * BLOCK + 17] = NAN;
        check(&o, acc, x, n, "a wide run with a NaN in an unscanned block");
        fill_block(x, n, 900, 1100, 2);
        check(&o, acc, x, n, "spans of 200 binades");
    }

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

    printf("tref_window: %ld arrays compared with mpfr_sum bit for bit, %zu paths with one state\n",
           compared, NPATHS);
    sl_exact_free(acc);
    tref_oracle_clear(&o);
    free(x);
    return sl_test_done("tref_window");
}

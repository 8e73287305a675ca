/* tsuperacc.c: the `superacc` CPU twin equals mpfr_sum correctly rounded to float/double (and
 * reference/'s sl_exact_round) bit for bit on thousands of adversarial arrays, and is
 * unchanged under reversal, shuffles and splits. A CPU model of the GPU kernel's arithmetic
 * (TwoSum expansions per thread, spills, per-block limbs, merge) must agree as well; for
 * bfloat16, the integer bins' transform (sl_sacc_b16_f) is checked on every one of the 65,536
 * patterns and a model of that kernel (int32 bins per thread, warp flushes split in 16-bit
 * halves, limbs) equals the twin on adversarial arrays. */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>
#include "sumlab/half.h"
#include "sl_reference.h"
#include "sl_test.h"
#include "superacc/superacc.h"

/* The variant under test, from the registry. */
static const sl_variant *superacc(void)
{
    static const sl_variant *v;
    if (!v) v = sl_variant_find("superacc");
    if (!v) {
        fprintf(stderr, "tsuperacc: no variant 'superacc' in the registry\n");
        abort();
    }
    return v;
}

/* ---- randomness (splitmix64) ------------------------------------------------------------ */
static uint64_t rnd(void) { return sl_test_rand64(); }
static uint64_t rnd_below(uint64_t m) { return m ? rnd() % m : 0; }

/* ---- values of a format, carried as doubles ----------------------------------------------- */
static double from_bits64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static double from_bits32(uint32_t b) { float f; memcpy(&f, &b, 4); return (double)f; }

/* random value with biased exponent in [elo, ehi] (0: subnormal), random sign and mantissa */
static double rnd_val(sl_dtype dt, int elo, int ehi)
{
    uint64_t e = (uint64_t)(elo + (int)rnd_below((uint64_t)(ehi - elo + 1)));
    uint64_t s = rnd() & 1;
    if (dt == SL_F64) {
        uint64_t m = rnd() & ((1ull << 52) - 1);
        if (rnd_below(4) == 0) m &= ~((1ull << rnd_below(52)) - 1);  /* trailing zeros */
        return from_bits64(s << 63 | e << 52 | m);
    }
    uint32_t m = (uint32_t)(rnd() & 0x7fffff);
    if (rnd_below(4) == 0) m &= ~((1u << rnd_below(23)) - 1);
    return from_bits32((uint32_t)(s << 31 | e << 23 | m));
}
static int emax_field(sl_dtype dt) { return dt == SL_F64 ? 2046 : 254; }
static double fmt_max(sl_dtype dt) { return dt == SL_F64 ? DBL_MAX : (double)FLT_MAX; }
static int fmt_prec(sl_dtype dt) { return dt == SL_F64 ? 53 : 24; }
/* half an ulp of the normal value f in format dt (a power of two, representable when f is
 * not too small) */
static double half_ulp(double f, sl_dtype dt)
{
    int e;
    frexp(f, &e);
    return ldexp(1.0, e - fmt_prec(dt) - 1);
}

/* ---- adversarial families: x[0..n) in format dt (as doubles) ------------------------------ */
enum { FAM_FULL, FAM_WINDOW, FAM_CANCEL, FAM_TIE, FAM_SUBNORMAL, FAM_OVERFLOW_PARTIAL,
       FAM_TO_INF, FAM_SPECIAL, FAM_ZEROS, FAM_HUGE_TINY, FAM_COUNT };
static const char *fam_name[FAM_COUNT] = {"full-range", "window", "cancel", "tie", "subnormal",
                                          "overflow-partial", "to-inf", "special", "zeros",
                                          "huge-tiny"};

static void shuffle(double *x, uint64_t n)
{
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = rnd_below(i);
        double t = x[i - 1]; x[i - 1] = x[j]; x[j] = t;
    }
}

/* fills x (capacity cap) and returns n */
static uint64_t gen(int fam, sl_dtype dt, double *x, uint64_t cap)
{
    const int EM = emax_field(dt);
    uint64_t n = 1 + rnd_below(rnd_below(8) == 0 ? cap : (cap < 64 ? cap : 64));
    uint64_t i = 0;
    switch (fam) {
    case FAM_FULL:
        for (; i < n; i++) x[i] = rnd_val(dt, 0, EM);
        break;
    case FAM_WINDOW: {
        int w = 1 + (int)rnd_below(70), lo = (int)rnd_below((uint64_t)(EM - w + 1));
        for (; i < n; i++) x[i] = rnd_val(dt, lo, lo + w);
        break;
    }
    case FAM_CANCEL: {
        int w = 1 + (int)rnd_below(60), lo = (int)rnd_below((uint64_t)(EM - w + 1));
        uint64_t h = n / 2;
        for (; i < h; i++) x[i] = rnd_val(dt, lo, lo + w);
        for (uint64_t k = 0; k < h; k++) x[i++] = -x[k];
        for (; i < n; i++) x[i] = rnd_val(dt, 0, lo + 1);   /* the small rest decides */
        shuffle(x, n);
        break;
    }
    case FAM_TIE: {
        /* f + half an ulp (exact tie), optionally nudged by a tiny value, the half ulp cut in
         * pieces, hidden among pairs +y, -y */
        double f = rnd_val(dt, 60, EM - 2);
        if (rnd_below(3) == 0) f = rnd_val(dt, 1, 3);        /* ties near the subnormals */
        double h = half_ulp(f, dt);
        if (h == 0 || h < (dt == SL_F64 ? 0x1p-1074 : 0x1p-149)) h = fabs(f) * 0x1p-30;
        x[i++] = f;
        int pieces = 1 + (int)rnd_below(3);
        double rest = h;
        for (int p = 1; p < pieces; p++) { rest /= 2; x[i++] = f < 0 ? -rest : rest; }
        x[i++] = f < 0 ? -rest : rest;
        int nudge = (int)rnd_below(3);                       /* 0: exact tie, 1: above, 2: below */
        double tiny = dt == SL_F64 ? 0x1p-1074 : 0x1p-149;
        if (rnd_below(2)) tiny = ldexp(h, -(int)rnd_below(40) - 1);
        if (nudge) x[i++] = (nudge == 1) == (f > 0) ? tiny : -tiny;
        if (n < i) n = i;
        int w = 1 + (int)rnd_below(40), lo = (int)rnd_below((uint64_t)(EM - w + 1));
        while (i + 1 < n) {
            double y = rnd_val(dt, lo, lo + w);
            x[i++] = y;
            x[i++] = -y;
        }
        n = i;
        shuffle(x, n);
        break;
    }
    case FAM_SUBNORMAL: {
        for (; i < n; i++) {
            if (rnd_below(3) == 0) {                         /* near-equal normals cancel */
                double a = rnd_val(dt, 1, 3);
                x[i] = a;
                if (i + 1 < n) x[++i] = -(a + (rnd() & 1 ? -1 : 1) * ldexp(a, -(int)rnd_below(fmt_prec(dt))));
                if (isinf(x[i]) || x[i] != x[i]) x[i] = 0.0;
                if (dt == SL_F32) x[i] = (double)(float)x[i];
            } else {
                x[i] = rnd_val(dt, 0, 1);
            }
        }
        shuffle(x, n);
        break;
    }
    case FAM_OVERFLOW_PARTIAL: {
        double M = fmt_max(dt);
        uint64_t k = 1 + rnd_below(6);
        for (uint64_t j = 0; j < k && i < cap; j++) x[i++] = M * (rnd() & 1 ? 1.0 : 0.75);
        for (uint64_t j = 0; j < k && i < cap; j++) x[i++] = -x[j];
        if (i < cap && rnd_below(2)) x[i++] = M;                  /* net one MAX */
        while (i < n) x[i++] = rnd_val(dt, 0, EM);
        n = i;
        /* partial sums overflow only in some orders: keep the big ones together sometimes */
        if (rnd_below(2)) shuffle(x, n);
        break;
    }
    case FAM_TO_INF: {
        double M = fmt_max(dt), h = half_ulp(M, dt);
        double s = rnd() & 1 ? 1.0 : -1.0;
        x[i++] = s * M;
        int kind = (int)rnd_below(5);
        double tiny = dt == SL_F64 ? 0x1p-1074 : 0x1p-149;
        if (kind == 0) x[i++] = s * h;                           /* tie: up to Inf */
        if (kind == 1) { x[i++] = s * h; x[i++] = -s * tiny; }   /* just below: MAX */
        if (kind == 2) { x[i++] = s * h; x[i++] = s * tiny; }    /* above: Inf */
        if (kind == 3) { x[i++] = s * M; x[i++] = -s * M * 0.5; }/* 1.5 MAX: Inf */
        if (kind == 4) { x[i++] = s * h * 0.5; x[i++] = s * h * 0.5; x[i++] = -s * tiny; }
        n = i;
        shuffle(x, n);
        break;
    }
    case FAM_SPECIAL: {
        for (; i < n; i++) x[i] = rnd_val(dt, 0, EM);
        int k = 1 + (int)rnd_below(3);
        for (int j = 0; j < k; j++) {
            uint64_t r = rnd_below(4);
            double v = r == 0 ? NAN : r == 1 ? INFINITY : r == 2 ? -INFINITY : -NAN;
            x[rnd_below(n)] = v;
        }
        if (rnd_below(3) == 0) x[rnd_below(n)] = fmt_max(dt);
        break;
    }
    case FAM_ZEROS: {
        int kind = (int)rnd_below(4);
        for (; i < n; i++) {
            if (kind == 0) x[i] = -0.0;                          /* all -0: -0 */
            else if (kind == 1) x[i] = rnd() & 1 ? -0.0 : 0.0;
            else x[i] = rnd_below(4) ? -0.0 : rnd_val(dt, 0, EM);
        }
        if (kind >= 2) {                                          /* cancel the non-zeros */
            uint64_t m = n;
            for (uint64_t j = 0; j < m && n < cap; j++)
                if (x[j] != 0) x[n++] = -x[j];
            shuffle(x, n);
        }
        break;
    }
    case FAM_HUGE_TINY: {
        int top = EM - (int)rnd_below(60);
        for (; i < n; i++) x[i] = rnd_below(8) ? rnd_val(dt, 0, 30) : rnd_val(dt, top - 3, top);
        shuffle(x, n);
        break;
    }
    }
    return n;
}

/* ---- the judges --------------------------------------------------------------------------- */
/* mpfr_sum of exact copies, rounded once to dt with the format's exponent range. */
static double mpfr_judge(const double *x, uint64_t n, sl_dtype dt)
{
    const mpfr_exp_t emin0 = mpfr_get_emin(), emax0 = mpfr_get_emax();
    mpfr_t *v = malloc((n ? n : 1) * sizeof *v);
    mpfr_ptr *p = malloc((n ? n : 1) * sizeof *p);
    for (uint64_t i = 0; i < n; i++) {
        mpfr_init2(v[i], 53);
        mpfr_set_d(v[i], x[i], MPFR_RNDN);   /* exact */
        p[i] = v[i];
    }
    mpfr_t r;
    mpfr_init2(r, fmt_prec(dt));
    mpfr_set_emin(dt == SL_F64 ? -1073 : -148);
    mpfr_set_emax(dt == SL_F64 ? 1024 : 128);
    int t = mpfr_sum(r, p, (unsigned long)n, MPFR_RNDN);
    t = mpfr_check_range(r, t, MPFR_RNDN);
    mpfr_subnormalize(r, t, MPFR_RNDN);
    double d = mpfr_get_d(r, MPFR_RNDN);  /* exact: r holds a float/double */
    mpfr_set_emin(emin0);
    mpfr_set_emax(emax0);
    mpfr_clear(r);
    for (uint64_t i = 0; i < n; i++) mpfr_clear(v[i]);
    free(v);
    free(p);
    return d;
}

/* input array in the format's own storage */
static void *pack(const double *x, uint64_t n, sl_dtype dt)
{
    void *b = malloc((n ? n : 1) * sl_dtype_size(dt));
    for (uint64_t i = 0; i < n; i++) {
        if (dt == SL_F64) ((double *)b)[i] = x[i];
        else ((float *)b)[i] = (float)x[i];
    }
    return b;
}

static double twin(const double *x, uint64_t n, sl_dtype dt, sl_launch *cfg)
{
    void *b = pack(x, n, dt);
    double r = NAN;
    sl_err err = {{0}};
    int rc = sl_variant_cpu(superacc(), b, n, dt, cfg, &r, &err);
    CHECK(rc == 0, "twin failed: %s", err.msg);
    free(b);
    return r;
}

static double exact_judge(const double *x, uint64_t n, sl_dtype dt)
{
    void *b = pack(x, n, dt);
    sl_exact *acc = sl_exact_new();
    sl_exact_add(acc, b, n, dt);
    double r = sl_exact_round(acc, dt);
    sl_exact_free(acc);
    free(b);
    return r;
}

/* ---- a CPU model of the GPU kernel's arithmetic --------------------------------------------
 * Elements dealt to `threads` threads in `blocks` blocks in a random way; each thread runs the
 * kernel's TwoSum-chain expansion and spills; each block normalises its limbs; the blocks'
 * limbs are added; sl_sacc_round once. */
static void model_spill(int64_t *limb, double d, int scale)
{
    int idx, neg;
    uint64_t c[3];
    if (!sl_sacc_split_f64(d, scale, &idx, c, &neg)) return;
    for (int k = 0; k < 3; k++) limb[idx + k] += neg ? -(int64_t)c[k] : (int64_t)c[k];
}

static double gpu_model(const double *x, uint64_t n, sl_dtype dt, unsigned blocks, unsigned tpb)
{
    const int L = sl_sacc_limbs(dt), scale = dt == SL_F64 ? SL_SACC_SCALE_F64 : SL_SACC_SCALE_F32;
    const unsigned T = blocks * tpb;
    if (n == 0) return 0.0;   /* the launcher writes +0 without a launch */
    double (*fpe)[3] = calloc(T, sizeof *fpe);
    int64_t(*blk)[SL_SACC_LIMBS_MAX] = calloc(blocks, sizeof *blk);
    unsigned flags = 0;
    for (uint64_t i = 0; i < n; i++) {
        unsigned t = (unsigned)rnd_below(T);
        int64_t *limb = blk[t / tpb];
        const double v = x[i];
        if (!signbit(v)) flags |= SL_SACC_ANYPOS;
        int ordinary = dt == SL_F64 ? fabs(v) < 0x1p950 : fabs(v) <= (double)FLT_MAX;
        if (!ordinary) {
            if (isnan(v)) flags |= SL_SACC_NAN;
            else if (isinf(v)) flags |= v > 0 ? SL_SACC_PINF : SL_SACC_NINF;
            else model_spill(limb, v, scale);
            continue;
        }
        double e = v;
        for (int k = 0; k < 3; k++) {   /* TwoSum(fpe[t][k], e) */
            double a = fpe[t][k], s = a + e, bb = s - a;
            e = (a - (s - bb)) + (e - bb);
            fpe[t][k] = s;
        }
        if (e != 0.0) model_spill(limb, e, scale);
    }
    int64_t g[SL_SACC_LIMBS_MAX] = {0};
    for (unsigned b = 0; b < blocks; b++) {
        for (unsigned t = b * tpb; t < (b + 1) * tpb; t++)
            for (int k = 0; k < 3; k++) model_spill(blk[b], fpe[t][k], scale);
        sl_sacc_normalise(blk[b], L);
        for (int i = 0; i < L; i++) g[i] += blk[b][i];
    }
    free(fpe);
    free(blk);
    return sl_sacc_round(g, L, dt, flags);
}

/* ---- checks ---------------------------------------------------------------------------------- */
static int same(double a, double b) { return bits64(a) == bits64(b) || (isnan(a) && isnan(b)); }

/* ---- bfloat16: the integer bins (superacc.cu, step 1d) --------------------------------------
 * Every pattern: a finite value is exactly k units of its bin (2^(8j - 134), j = E >> 3) with
 * |k| < 2^15, k read from the bits of sl_sacc_b16_f's result; Inf and NaN give a non-finite f;
 * the kernel's bin offsets (low half: w & 0x7C00, high half: (w >> 16) & 0x7C00) are j * 1024. */
static void check_b16_transform(void)
{
    long bad = 0;
    for (uint32_t h = 0; h < 65536u; h++) {
        const uint32_t u = h << 16, E = (h >> 7) & 0xffu, j = E >> 3;
        const float f = sl_sacc_b16_f(u, SL_SACC_B16_SC);
        float xv;
        memcpy(&xv, &u, 4);
        if (E == 255) {
            if (isfinite(f)) bad++;
            continue;
        }
        uint32_t fb;
        memcpy(&fb, &f, 4);
        const int32_t k = (int32_t)(fb - SL_SACC_B16_MAGIC_BITS);
        const double want = (double)xv, got = ldexp((double)k, 8 * (int)j - 134);
        const uint32_t w_lo = h, w_hi = h << 16;   /* h as a word's low or high half */
        if (got != want || k >= 32768 || k <= -32768 || (w_lo & 0x7C00u) != j * 1024u ||
            ((w_hi >> 16) & 0x7C00u) != j * 1024u || (signbit(want) && k > 0)) {
            if (bad < 5)
                fprintf(stderr, "  bf16 0x%04x: value %a, k %d in bin %u gives %a\n", (unsigned)h,
                        want, (int)k, (unsigned)j, got);
            bad++;
        }
    }
    CHECK(bad == 0, "bf16 integer bins: %ld of 65536 patterns not exact", bad);
}

/* ---- float16: the integer-built doubles (superacc_f16.cu, step 1c) ---------------------------
 * Every pattern with an exponent field of 1..30 (the ones the kernel builds so), as the low and as
 * the high half of a word, the other half 1, -65504 (the largest negative) or 2^-14 (the smallest
 * normal): the double sl_sacc_h16x2_hi builds for each half is that half's value. */
static double f16_value(uint32_t h) { return sl_half_to_double((uint16_t)h, SL_F16); }
static double hiword_double(uint32_t hw) { return from_bits64((uint64_t)hw << 32); }
static void check_h16_build(void)
{
    long bad = 0;
    const uint32_t other[3] = {0x3c00u, 0xfbffu, 0x0400u};
    for (uint32_t h = 0; h < 65536u; h++) {
        const uint32_t field = (h >> 10) & 31u;
        if (field == 0u || field == 31u) continue;
        const double want = f16_value(h);
        for (int o = 0; o < 3; o++) {
            for (int side = 0; side < 2; side++) {
                const uint32_t w = side ? (h << 16 | other[o]) : (other[o] << 16 | h);
                uint32_t lo, hi;
                sl_sacc_h16x2_hi(w, &lo, &hi);
                const double got = hiword_double(side ? hi : lo);
                const double got_other = hiword_double(side ? lo : hi);
                if (bits64(got) != bits64(want) || bits64(got_other) != bits64(f16_value(other[o]))) {
                    if (bad < 5)
                        fprintf(stderr, "  f16 0x%04x (%s half beside 0x%04x): %a (want %a)\n", (unsigned)h,
                                side ? "high" : "low", (unsigned)other[o], got, want);
                    bad++;
                }
            }
        }
    }
    CHECK(bad == 0, "f16 integer-built doubles: %ld checks of the 61440 field 1..30 patterns wrong", bad);
}

/* The kernel's arithmetic on n bfloat16 values dealt round-robin to T threads (32 per warp,
 * warps in blocks of tpb threads): each thread's 32 int32 bins, emptied every `flush` of its
 * inputs by a warp reduction of their high (signed) and low 16 bits into the block's limbs at
 * bit 8 j + 15; flags from the values themselves; the blocks' normalised limbs summed, rounded
 * to odd in float32 and once to bfloat16, as sacc_block_finish does. */
static void model_b16_flush(int32_t (*bins)[32], unsigned w0, unsigned lanes, int64_t *limb)
{
    for (int j = 0; j < 32; j++) {
        int32_t hi = 0;
        uint32_t lo = 0;
        for (unsigned l = 0; l < lanes; l++) {
            hi += bins[w0 + l][j] >> 16;
            lo += (uint32_t)bins[w0 + l][j] & 0xffffu;
            bins[w0 + l][j] = 0;
        }
        /* the warp's bin j: below 2^37 units of 2^(8j - 134) (exact in a double) */
        model_spill(limb, ldexp((double)((int64_t)hi * 65536 + (int64_t)lo), 8 * j - 134),
                    SL_SACC_SCALE_F32);
    }
}

static double b16_model(const uint16_t *x, uint64_t n, unsigned blocks, unsigned tpb, unsigned flush)
{
    const int L = SL_SACC_LIMBS_F32;
    const unsigned T = blocks * tpb;
    if (n == 0) return 0.0;
    int32_t(*bins)[32] = calloc(T, sizeof *bins);
    unsigned *count = calloc(T, sizeof *count);
    int64_t(*blk)[SL_SACC_LIMBS_MAX] = calloc(blocks, sizeof *blk);
    unsigned flags = 0;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned t = (unsigned)(i % T), h = x[i], E = (h >> 7) & 0xffu;
        if (!(h >> 15)) flags |= SL_SACC_ANYPOS;
        if (E == 255) flags |= (h & 0x7fu) ? SL_SACC_NAN : (h >> 15) ? SL_SACC_NINF : SL_SACC_PINF;
        const float f = sl_sacc_b16_f((uint32_t)h << 16, SL_SACC_B16_SC);
        uint32_t fb;
        memcpy(&fb, &f, 4);
        bins[t][E >> 3] = (int32_t)((uint32_t)bins[t][E >> 3] + (fb - SL_SACC_B16_MAGIC_BITS));
        if (++count[t] == flush) {   /* here per thread; the kernel's cadence is per tile */
            const unsigned b = t / tpb, w0 = t - t % 32;
            const unsigned lanes = w0 + 32 <= (b + 1) * tpb ? 32 : (b + 1) * tpb - w0;
            for (unsigned l = 0; l < lanes; l++) count[w0 + l] = 0;
            model_b16_flush(bins, w0, lanes, blk[b]);
        }
    }
    int64_t g[SL_SACC_LIMBS_MAX] = {0};
    for (unsigned b = 0; b < blocks; b++) {
        for (unsigned w0 = b * tpb; w0 < (b + 1) * tpb; w0 += 32)
            model_b16_flush(bins, w0, (b + 1) * tpb - w0 < 32 ? (b + 1) * tpb - w0 : 32, blk[b]);
        sl_sacc_normalise(blk[b], L);
        for (int i = 0; i < L; i++) g[i] += blk[b][i];
    }
    free(bins);
    free(count);
    free(blk);
    const double r = sl_sacc_round_mode(g, L, 0, SL_F32, flags, 1);
    return sl_half_to_double(sl_half_from_double((double)(float)r, SL_BF16), SL_BF16);
}

/* Adversarial bfloat16 arrays (full range, one bin at its largest value past an int32 bin's
 * capacity without flushes, cancellation, subnormals, Inf/NaN) through the model and the twin. */
static void check_b16_model(void)
{
    enum { N = 1 << 17 };
    uint16_t *x = malloc(N * sizeof *x);
    const sl_launch cfg0 = {.block = 0};
    for (int kind = 0; kind < 6; kind++)
        for (int rep = 0; rep < 4; rep++) {
            const uint64_t n = kind == 1 ? N : 1000 + rnd_below(20000);
            for (uint64_t i = 0; i < n; i++) {
                uint16_t h = (uint16_t)rnd();
                if (kind == 1) h = 0x7f7f;                                 /* the largest finite */
                if (kind == 2) h = (uint16_t)((h & 0x807f) | (uint16_t)((120 + rnd_below(16)) << 7));
                if (kind == 3) h &= 0x807f;                                /* zeros, subnormals */
                if ((h & 0x7f80) == 0x7f80 && kind != 5) h &= 0xbfff;      /* finite unless kind 5 */
                x[i] = h;
            }
            if (kind == 2)   /* second half: the first negated, reversed, plus one tiny survivor */
                for (uint64_t i = 0; i < n / 2; i++) x[n - 1 - i] = (uint16_t)(x[i] ^ 0x8000u);
            if (kind == 2) x[n / 2] = 0x0001;
            if (kind == 4) x[rnd_below(n)] = 0x7f80;                       /* one +Inf */
            double want = 0;
            sl_launch cfg = cfg0;
            sl_err err = {{0}};
            if (sl_variant_cpu(superacc(), x, n, SL_BF16, &cfg, &want, &err)) {
                CHECK(0, "bf16 twin: %s", err.msg);
                continue;
            }
            /* one thread (a bin takes every input: flush needed for kind 1), small and wide grids */
            const unsigned shapes[3][3] = {{1, 1, 16384}, {3, 100, 16384}, {7, 512, 64}};
            for (int sh = 0; sh < 3; sh++) {
                const double got = b16_model(x, n, shapes[sh][0], shapes[sh][1], shapes[sh][2]);
                CHECK(same(got, want), "bf16 model kind %d #%d (%u x %u, flush %u): %a != twin %a",
                      kind, rep, shapes[sh][0], shapes[sh][1], shapes[sh][2], got, want);
            }
        }
    free(x);
}


static void dump(const char *what, const double *x, uint64_t n, sl_dtype dt)
{
    fprintf(stderr, "  %s (%s, n = %llu):", what, sl_dtype_name(dt), (unsigned long long)n);
    for (uint64_t i = 0; i < n && i < 12; i++) fprintf(stderr, " %a", x[i]);
    fprintf(stderr, n > 12 ? " ...\n" : "\n");
}

static long n_arrays;
static void check_array(const double *x0, uint64_t n, sl_dtype dt, const char *what, int deep)
{
    sl_launch cfg = {.block = 0};
    sl_variant_resolve(superacc(), &cfg, n, dt);
    const double r = twin(x0, n, dt, &cfg), m = mpfr_judge(x0, n, dt);
    const double ex = exact_judge(x0, n, dt);
    n_arrays++;
    long before = sl_test_failures;
    CHECK(same(r, m), "%s: twin %a (0x%016llx) != mpfr_sum %a", what, r,
          (unsigned long long)bits64(r), m);
    CHECK(same(r, ex), "%s: twin %a != sl_exact_round %a", what, r, ex);
    if (isnan(r)) CHECK(bits64(r) == 0x7ff8000000000000ull, "%s: NaN is not canonical", what);
    if (deep) {
        double *x = calloc(n ? n : 1, sizeof *x);
        for (uint64_t i = 0; i < n; i++) x[n - 1 - i] = x0[i];
        CHECK(bits64(twin(x, n, dt, &cfg)) == bits64(r), "%s: reversal changes the sum", what);
        shuffle(x, n);
        sl_launch other = {.block = 32u + 32u * (unsigned)rnd_below(32),
                           .grid = 1 + (unsigned)rnd_below(500),
                           .addr_mod = (unsigned)rnd_below(4) * 4};
        sl_variant_resolve(superacc(), &other, n, dt);
        CHECK(bits64(twin(x, n, dt, &other)) == bits64(r), "%s: shuffle/config changes the sum", what);
        /* splits: the kernel's merge of per-block limb sets, modelled on the CPU */
        unsigned blocks = 1 + (unsigned)rnd_below(7), tpb = 1 + (unsigned)rnd_below(5);
        double g = gpu_model(x, n, dt, blocks, tpb);
        CHECK(bits64(g) == bits64(r), "%s: GPU model (%u blocks x %u threads) %a != twin %a", what,
              blocks, tpb, g, r);
        free(x);
    }
    if (sl_test_failures != before) dump(what, x0, n, dt);
}

static void check_fixed(void)
{
    const double tiny64 = 0x1p-1074;
    static const struct { double x[4]; int n; } f64cases[] = {
        {{0}, 0}, {{-0.0}, 1}, {{0.0}, 1}, {{-0.0, -0.0}, 2}, {{-0.0, 0.0}, 2},
        {{1.0, -1.0}, 2}, {{-1.0, 1.0, -0.0}, 3}, {{NAN}, 1}, {{INFINITY, -INFINITY}, 2},
        {{INFINITY, 1.0, INFINITY}, 3}, {{-INFINITY, NAN}, 2}, {{DBL_MAX, DBL_MAX, -DBL_MAX}, 3},
        {{DBL_MAX, 0x1p970}, 2}, {{DBL_MAX, 0x1p970, -0x1p-1074}, 3}, {{-DBL_MAX, -0x1p970}, 2},
        {{1.0, 0x1p-53}, 2}, {{1.0 + 0x1p-52, 0x1p-53}, 2}, {{1.0, 0x1p-53, 0x1p-1074}, 3},
        {{0x1p-1022, -0x1p-1074}, 2}, {{0x1p-1074, 0x1p-1074}, 2}, {{DBL_MIN, -DBL_MIN * 0.5}, 2},
        {{0x1p-1074}, 1}, {{-0x1.8p-1073}, 1}, {{0x1p1023, 0x1p1023, -0x1p1023}, 3},
    };
    for (size_t c = 0; c < sizeof f64cases / sizeof f64cases[0]; c++) {
        char what[64];
        snprintf(what, sizeof what, "fixed f64 case %zu", c);
        check_array(f64cases[c].x, (uint64_t)f64cases[c].n, SL_F64, what, 1);
        double x32[4];
        for (int i = 0; i < f64cases[c].n; i++) {
            double v = f64cases[c].x[i];
            x32[i] = v == DBL_MAX ? FLT_MAX : v == -DBL_MAX ? -FLT_MAX
                   : fabs(v) == 0x1p970 ? copysign(0x1p103, v) : fabs(v) == tiny64 ? copysign(0x1p-149, v)
                   : (double)(float)v;
        }
        snprintf(what, sizeof what, "fixed f32 case %zu", c);
        check_array(x32, (uint64_t)f64cases[c].n, SL_F32, what, 1);
    }
    /* n = 0 is +0 and n = 1 is the value itself, for many values of both formats */
    for (int k = 0; k < 400; k++) {
        sl_dtype dt = k & 1 ? SL_F64 : SL_F32;
        double v = rnd_val(dt, 0, emax_field(dt) + (k % 7 == 0));   /* Inf/NaN sometimes */
        sl_launch cfg = {.block = 0};
        double r = twin(&v, 1, dt, &cfg);
        CHECK(isnan(v) ? isnan(r) : bits64(r) == bits64(v), "n = 1: %a -> %a", v, r);
    }
    sl_launch cfg = {.block = 0};
    CHECK(bits64(twin(NULL, 0, SL_F32, &cfg)) == 0 && bits64(twin(NULL, 0, SL_F64, &cfg)) == 0,
          "n = 0 is not +0");
}

/* Long arrays: partial sums far beyond the format's range, a finite total; limbs' headroom. */
static void check_long(void)
{
    const uint64_t h = (uint64_t)1 << 21;
    for (int f = 0; f < 2; f++) {
        sl_dtype dt = f ? SL_F64 : SL_F32;
        double *x = malloc((2 * h + 1) * sizeof *x);
        double M = fmt_max(dt);
        for (uint64_t i = 0; i < h; i++) { x[i] = M; x[h + i] = -M; }
        x[2 * h] = 1.5;
        sl_launch cfg = {.block = 0};
        double r = twin(x, 2 * h + 1, dt, &cfg);
        CHECK(r == 1.5, "%s: 2^21 MAX - 2^21 MAX + 1.5 = %a", sl_dtype_name(dt), r);
        r = twin(x, h, dt, &cfg);
        CHECK(r == INFINITY, "%s: 2^21 MAX = %a", sl_dtype_name(dt), r);
        for (uint64_t i = 0; i < 2 * h; i++) x[i] = (i & 1) ? -0x1p-149 : 0x1p-148;
        r = twin(x, 2 * h, dt, &cfg);
        CHECK(r == 0x1p-149 * (double)h, "%s: 2^21 (2^-148 - 2^-149) = %a", sl_dtype_name(dt), r);
        double ex = exact_judge(x, 2 * h, dt);
        CHECK(same(r, ex), "%s: long array: twin %a != sl_exact_round %a", sl_dtype_name(dt), r, ex);
        free(x);
    }
}

/* sl_sacc_round_f32_regs (the one-launch kernels' last-block rounding, in registers) equals the
 * generic sl_sacc_round_mode on float32 limbs, to nearest and to odd: random states with
 * unnormalised carries of either sign, sums of every magnitude from one unit to past the
 * overflow threshold, the subnormal and smallest-normal binades, values one unit either side of
 * the rounding boundaries (ties, exact halves, sticky bits in far limbs), zeros and the flags. */
static void check_round_regs(void)
{
    enum { L = SL_SACC_LIMBS_F32 };
    long bad = 0, cases = 0;
    for (int rep = 0; rep < 400000; rep++) {
        int64_t limb[L], a[L];
        memset(limb, 0, sizeof limb);
        const int kind = (int)rnd_below(6);
        const int top = (int)rnd_below(L - 1);          /* highest limb in use: M < 2^320 */
        if (kind == 0) {                                 /* unnormalised, mixed signs */
            for (int i = 0; i <= top; i++) limb[i] = (int64_t)(rnd() >> (22 + rnd_below(40))) - (int64_t)(rnd() >> (22 + rnd_below(40)));
        } else if (kind == 1) {                          /* normalised, sparse: far sticky bits */
            for (int i = 0; i <= top; i++) limb[i] = rnd_below(3) ? 0 : (int64_t)(rnd() & 0xffffffffu);
            limb[top] = (int64_t)(rnd() & 0xffffffffu) | 1;
        } else if (kind == 2) {                          /* a tie or a value next to one: M =
                                                          * 24 random bits, then 1000..0 +- 1 */
            const int pos = (int)rnd_below(32 * top + 1);  /* bit of the round bit */
            const uint64_t q = (rnd() & 0xffffffu) | 0x800000u;
            for (int b = 0; b < 24; b++)
                if ((q >> b) & 1) limb[(pos + 1 + b) >> 5] += (int64_t)1 << ((pos + 1 + b) & 31);
            limb[pos >> 5] += (int64_t)1 << (pos & 31);
            const int d = (int)rnd_below(3) - 1;          /* -1, 0, +1 unit */
            limb[0] += d;
        } else if (kind == 3) {                          /* subnormal and smallest normal */
            limb[0] = (int64_t)rnd_below((uint64_t)1 << 25) - (rnd_below(2) ? ((int64_t)1 << 24) : 0);
            if (rnd_below(2)) limb[1] = (int64_t)rnd_below(3) - 1, limb[0] -= limb[1] * ((int64_t)1 << 32);
        } else if (kind == 4) {                          /* near the overflow threshold, 2^(128 + 149) units */
            const int pos = 270 + (int)rnd_below(13);   /* h = 277: the largest finite binade */
            limb[pos >> 5] = (int64_t)(rnd() & 0xffffffffu) | ((int64_t)1 << (pos & 31));
            limb[(pos >> 5) - 1] = (int64_t)(rnd() & 0xffffffffu);
            if (rnd_below(2)) for (int i = 0; i < L; i++) limb[i] = -limb[i];
        } else {                                         /* few units: exact zero, +-1, small */
            limb[rnd_below(L - 1)] = (int64_t)rnd_below(5) - 2;
            limb[rnd_below(L - 1)] -= (int64_t)rnd_below(3) - 1;
        }
        unsigned flags = rnd_below(8) ? (rnd_below(2) ? SL_SACC_ANYPOS : 0u)
                                      : (unsigned)rnd_below(16);
        for (int rto = 0; rto < 2; rto++) {
            memcpy(a, limb, sizeof a);
            const double want = sl_sacc_round_mode(a, L, 0, SL_F32, flags, rto);
            const double got = sl_sacc_round_f32_regs(limb, flags, rto);
            cases++;
            if (!same(got, want)) {
                if (bad++ < 5)
                    fprintf(stderr, "round regs kind %d rto %d flags %u: %a != generic %a (limb[0] %lld, top %d)\n",
                            kind, rto, flags, got, want, (long long)limb[0], top);
            }
        }
    }
    CHECK(bad == 0, "sl_sacc_round_f32_regs: %ld of %ld states differ from sl_sacc_round_mode", bad, cases);
}

/* The float32 limbs' sum rounded to float64: sl_sacc_round_f32_as_f64 (exact/limbs.h: the sum
 * moved to float64's layout, the generic rounding) equals MPFR's rounding of the exact integer,
 * and sl_sacc_round_f32_as_f64_regs (reproducible lse's kernels) equals it bit for bit: random
 * unnormalised states of either sign, sparse states (far sticky bits), 53-bit ties and values one
 * unit either side of them at every position, small sums, zeros and the flags. */
static void check_round_f64_regs(void)
{
    enum { L = SL_SACC_LIMBS_F32 };
    long bad = 0, bad_mpfr = 0, cases = 0;
    mpz_t z, t;
    mpfr_t f;
    mpz_inits(z, t, (mpz_ptr)0);
    mpfr_init2(f, 53);
    for (int rep = 0; rep < 200000; rep++) {
        int64_t limb[L], a[L];
        memset(limb, 0, sizeof limb);
        const int kind = (int)rnd_below(5);
        const int top = 1 + (int)rnd_below(L - 2);
        if (kind == 0) {
            for (int i = 0; i <= top; i++) limb[i] = (int64_t)(rnd() >> (22 + rnd_below(40))) - (int64_t)(rnd() >> (22 + rnd_below(40)));
        } else if (kind == 1) {
            for (int i = 0; i <= top; i++) limb[i] = rnd_below(3) ? 0 : (int64_t)(rnd() & 0xffffffffu);
            limb[top] = (int64_t)(rnd() & 0xffffffffu) | 1;
        } else if (kind == 2) {                          /* 53 bits, then the round bit +- 1 unit */
            const int pos = (int)rnd_below(32 * (L - 3));
            const uint64_t q = (rnd() & (((uint64_t)1 << 53) - 1)) | ((uint64_t)1 << 52);
            for (int b = 0; b < 53; b++)
                if ((q >> b) & 1) limb[(pos + 1 + b) >> 5] += (int64_t)1 << ((pos + 1 + b) & 31);
            limb[pos >> 5] += (int64_t)1 << (pos & 31);
            limb[0] += (int64_t)rnd_below(3) - 1;
            if (rnd_below(4) == 0) for (int i = 0; i < L; i++) limb[i] = -limb[i];
        } else if (kind == 3) {
            limb[rnd_below(3)] = (int64_t)rnd_below(1u << 20) - (1 << 19);
        } else {
            limb[rnd_below(L - 1)] = (int64_t)rnd_below(5) - 2;
        }
        const unsigned flags = rnd_below(8) ? (rnd_below(2) ? SL_SACC_ANYPOS : 0u) : (unsigned)rnd_below(16);
        memcpy(a, limb, sizeof a);
        const double want = sl_sacc_round_f32_as_f64(a, flags);
        const double got = sl_sacc_round_f32_as_f64_regs(limb, flags);
        cases++;
        if (!same(got, want) && bad++ < 5)
            fprintf(stderr, "round f64 regs kind %d flags %u: %a != generic %a\n", kind, flags, got, want);
        if (flags & (SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF)) continue;
        mpz_set_ui(z, 0);                                /* the exact sum, units of 2^-149 */
        for (int i = L - 1; i >= 0; i--) {
            mpz_mul_2exp(z, z, 32);
            mpz_set_si(t, (long)limb[i]);
            mpz_add(z, z, t);
        }
        mpfr_set_z_2exp(f, z, -149, MPFR_RNDN);
        double m = mpfr_get_d(f, MPFR_RNDN);
        if (m == 0.0 && !(flags & SL_SACC_ANYPOS)) m = -0.0;
        if (!same(want, m) && bad_mpfr++ < 5)
            fprintf(stderr, "round f64 kind %d: generic %a != MPFR %a\n", kind, want, m);
    }
    mpz_clears(z, t, (mpz_ptr)0);
    mpfr_clear(f);
    CHECK(bad == 0, "sl_sacc_round_f32_as_f64_regs: %ld of %ld states differ from the generic rounding", bad, cases);
    CHECK(bad_mpfr == 0, "sl_sacc_round_f32_as_f64: %ld of %ld states differ from MPFR", bad_mpfr, cases);
}

/* sl_sacc_round_scaled (limb 0 at any exponent; correct dot's scaled windows): with limb 0 at
 * 2^(32 off - SCALE) it equals sl_sacc_round_mode in both formats and both modes; the same value
 * held two limbs lower (zeros below) rounds alike; and a float32 value with a 32-bit fraction
 * below the least subnormal (value T 2^-181, |T| < 2^52, exact in double: C's conversion to
 * float is the oracle) rounds to nearest even there: ties at half the least subnormal, sticky
 * bits, a nonzero sum rounding to a zero of its sign. */
static void check_round_scaled(void)
{
    enum { L = 12 };
    long bad = 0, cases = 0;
    for (int rep = 0; rep < 200000; rep++) {
        const sl_dtype dt = rnd_below(2) ? SL_F64 : SL_F32;
        const int scale = dt == SL_F64 ? SL_SACC_SCALE_F64 : SL_SACC_SCALE_F32;
        int64_t limb[L + 2], a[L + 2], b[L + 2];
        memset(limb, 0, sizeof limb);
        const int top = (int)rnd_below(L - 1);
        for (int i = 0; i <= top; i++)
            limb[i] = rnd_below(3) ? (int64_t)(rnd() >> (22 + rnd_below(40))) - (int64_t)(rnd() >> (22 + rnd_below(40))) : 0;
        const int off = (int)rnd_below(4);
        const unsigned flags = rnd_below(8) ? (rnd_below(2) ? SL_SACC_ANYPOS : 0u) : (unsigned)rnd_below(16);
        for (int rto = 0; rto < 2; rto++) {
            memcpy(a, limb, sizeof limb);
            const double want = sl_sacc_round_mode(a, L, off, dt, flags, rto);
            memcpy(a, limb, sizeof limb);
            const double got = sl_sacc_round_scaled(a, L, 32 * off - scale, dt, flags, rto);
            memset(b, 0, sizeof b);
            memcpy(b + 2, limb, L * sizeof *limb);
            const double low = sl_sacc_round_scaled(b, L + 2, 32 * off - 64 - scale, dt, flags, rto);
            cases++;
            if (!same(got, want) || !same(low, want)) {
                if (bad++ < 5)
                    fprintf(stderr, "round scaled %s off %d rto %d flags %u: %a, two limbs lower %a, "
                            "sl_sacc_round_mode %a\n", sl_dtype_name(dt), off, rto, flags, got, low, want);
            }
        }
        /* below the least subnormal: T = m 2^32 + f, |m| < 2^19 */
        const int64_t m = (int64_t)rnd_below((uint64_t)1 << 20) - ((int64_t)1 << 19);
        const int fk = (int)rnd_below(5);
        const int64_t f = fk == 0 ? 0 : fk == 1 ? ((int64_t)1 << 31) : fk == 2 ? ((int64_t)1 << 31) + (rnd_below(2) ? 1 : -1)
                                                : (int64_t)(rnd() & 0xffffffffu);
        memset(b, 0, sizeof b);
        b[0] = f;
        b[1] = m;
        const double want = (double)(float)ldexp((double)(m * ((int64_t)1 << 32) + f), -181);
        const double got = sl_sacc_round_scaled(b, L, -181, SL_F32, SL_SACC_ANYPOS, 0);
        cases++;
        if (!same(got, want) && bad++ < 5)
            fprintf(stderr, "round scaled below 2^-149: m %lld f %lld: %a, want %a\n", (long long)m,
                    (long long)f, got, want);
    }
    CHECK(bad == 0, "sl_sacc_round_scaled: %ld of %ld states wrong", bad, cases);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    check_round_scaled();
    enum { CAP = 3000 };
    double *x = malloc(CAP * sizeof *x);
    check_fixed();
    check_round_regs();
    check_round_f64_regs();
    for (int fam = 0; fam < FAM_COUNT; fam++)
        for (int dti = 0; dti < 2; dti++)
            for (int rep = 0; rep < 400; rep++) {
                sl_dtype dt = dti ? SL_F64 : SL_F32;
                uint64_t n = gen(fam, dt, x, CAP);
                if (dt == SL_F32)   /* every value exactly a float (NaN stays NaN) */
                    for (uint64_t i = 0; i < n; i++) x[i] = (double)(float)x[i];
                char what[96];
                snprintf(what, sizeof what, "%s %s #%d", fam_name[fam], sl_dtype_name(dt), rep);
                check_array(x, n, dt, what, 1);
            }
    check_long();
    check_b16_transform();
    check_h16_build();
    check_b16_model();
    free(x);
    printf("tsuperacc: %ld arrays\n", n_arrays);
    return sl_test_done("tsuperacc");
}

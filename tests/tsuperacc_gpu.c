/* tsuperacc_gpu.c: the `superacc` kernel equals its CPU twin (hence the correctly rounded sum)
 * bit for bit on adversarial arrays up to 2^22 elements in all four formats, under several launch
 * configurations and a misaligned input; so does the `reproducible` kernel (the same special
 * values, signed zeros and extremes through its grouped fast path). float64 runs the certified binned sum and, when its
 * certificate cannot decide, the exact kernel it tail-launches from the device: the test counts
 * the arrays whose certificate fails (the same 4-fold state on the CPU: it is order-independent)
 * and requires some, so that path runs too. Label gpu: returns 77 when no GPU is present. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_gpu.h"
#include "sumlab/half.h"
#include "sl_test.h"
#include "exact/limbs.h"
#include "exact/binned.h"

static uint64_t rnd(void) { return sl_test_rand64(); }
static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* a random value of format dt with biased exponent in [elo, ehi] */
static double rnd_val(sl_dtype dt, int elo, int ehi)
{
    uint64_t e = (uint64_t)elo + rnd() % (uint64_t)(ehi - elo + 1), s = rnd() & 1;
    if (dt == SL_F64) {
        uint64_t b = s << 63 | e << 52 | (rnd() & ((1ull << 52) - 1));
        double d;
        memcpy(&d, &b, 8);
        return d;
    }
    uint32_t b = (uint32_t)(s << 31 | e << 23 | (rnd() & 0x7fffff));
    float f;
    memcpy(&f, &b, 4);
    return f;
}

enum { K_UNIFORM, K_FULL, K_CANCEL, K_HUGE_TINY, K_TIE, K_OVERFLOW_PARTIAL, K_NAN, K_INF,
       K_INF_BOTH, K_NEGZERO, K_SUBNORMAL, K_SAMEBIN, K_BINS_INF, K_ZERO_PLUS, K_NEG_SPARSE,
       K_COUNT };
static const char *kind_name[K_COUNT] = {"uniform01", "full-range", "cancel", "huge-tiny", "tie",
                                         "overflow-partial", "nan", "inf", "+inf-inf", "all-neg-zero",
                                         "subnormal", "same-bin-max", "bins-inf",
                                         "neg-zeros-one-pos-zero", "neg-zeros-sparse-neg"};

static void fill(int kind, sl_dtype dt, void *buf, uint64_t n)
{
    const int EM = dt == SL_F64 ? 2046 : 254, B = dt == SL_F64 ? 1023 : 127;
    const double M = dt == SL_F64 ? DBL_MAX : FLT_MAX;
    for (uint64_t i = 0; i < n; i++) {
        double v;
        switch (kind) {
        case K_UNIFORM: v = (double)(rnd() >> 40) * 0x1p-24; break;
        case K_FULL: v = rnd_val(dt, 0, EM); break;
        case K_CANCEL: v = rnd_val(dt, B - 20, B + 20); break;       /* negated below */
        case K_HUGE_TINY: v = rnd() % 64 ? rnd_val(dt, 0, 40) : rnd_val(dt, EM - 40, EM - 36); break;
        case K_TIE: v = rnd_val(dt, B - 5, B + 5); break;            /* pairs below */
        case K_OVERFLOW_PARTIAL: v = i < n / 2 ? M : -M; break;
        case K_SUBNORMAL: v = rnd_val(dt, 0, 0); break;
        case K_NEGZERO: case K_ZERO_PLUS: v = -0.0; break;
        case K_NEG_SPARSE: v = rnd() % 97 ? -0.0 : -fabs(rnd_val(dt, B - 10, B + 10)); break;
        /* every input the largest of one float32 exponent bin (E = 16 j + 15, full mantissa),
         * one sign: a thread of a small grid puts 2^17 of them into one bin, past the bin's
         * exact capacity (2^14) unless the kernel empties it in time */
        case K_SAMEBIN: v = dt == SL_F64 ? rnd_val(dt, 1000, 1040) : (double)FLT_MAX / 0x1p111; break;
        /* large finite values of the top bin mixed with an Inf (bin 15 turns non-finite) */
        case K_BINS_INF: v = rnd_val(dt, EM - 14, EM); break;
        default: v = rnd_val(dt, B - 10, B + 10); break;
        }
        if (dt == SL_F64) ((double *)buf)[i] = v;
        else ((float *)buf)[i] = (float)v;
    }
#define SET(i, v) (dt == SL_F64 ? (void)(((double *)buf)[i] = (v)) : (void)(((float *)buf)[i] = (float)(v)))
#define GET(i) (dt == SL_F64 ? ((double *)buf)[i] : (double)((float *)buf)[i])
    if (kind == K_CANCEL || kind == K_TIE)        /* second half: negated first half, reversed */
        for (uint64_t i = 0; i < n / 2; i++) SET(n - 1 - i, -GET(i));
    /* index n/2 is left unpaired (its partner, for even n, becomes 0) */
    if ((kind == K_CANCEL || kind == K_TIE) && n > 2 && n % 2 == 0) SET(n / 2 - 1, 0.0);
    if (kind == K_CANCEL && n > 2) SET(n / 2, rnd_val(dt, 0, 3));      /* a tiny survivor */
    if (kind == K_TIE && n >= 3) {                 /* 1 + half an ulp: ties to even */
        const double one = 1.0, h = dt == SL_F64 ? 0x1p-53 : 0x1p-24;
        SET(0, one); SET(n - 1, h); SET(n / 2, (rnd() & 1) ? 0.0 : h + h); /* 1+h or 1+3h */
    }
    if (kind == K_OVERFLOW_PARTIAL) SET(n - 1, 1.5);
    if (kind == K_NAN) SET(rnd() % n, NAN);
    if (kind == K_INF) { SET(rnd() % n, INFINITY); SET(rnd() % n, INFINITY); }
    if (kind == K_INF_BOTH) { SET(0, INFINITY); SET(n - 1, -INFINITY); }
    if (kind == K_BINS_INF) SET(rnd() % n, (rnd() & 1) ? INFINITY : -INFINITY);
    if (kind == K_ZERO_PLUS) SET(rnd() % n, 0.0);
#undef SET
#undef GET
}

/* float16/bfloat16: the same kinds in the format's own ranges, built as 16-bit patterns (p
 * fraction bits, exponent field up to 2^q - 1). The kinds that stress a float32 exponent bin
 * stress the float16 register sums here (same-bin-max: every input the largest finite value, one
 * sign: a thread of a small grid takes 2^22 of them, far past a register's 2^13). */
static uint16_t rnd16(sl_dtype dt, int elo, int ehi)
{
    const int fb = dt == SL_F16 ? 10 : 7;
    const uint64_t e = (uint64_t)elo + rnd() % (uint64_t)(ehi - elo + 1), s = rnd() & 1;
    return (uint16_t)(s << 15 | e << fb | (rnd() & ((1u << fb) - 1u)));
}

static void fill16(int kind, sl_dtype dt, uint16_t *x, uint64_t n)
{
    const int EM = dt == SL_F16 ? 30 : 254, B = dt == SL_F16 ? 15 : 127, fb = dt == SL_F16 ? 10 : 7;
    const uint16_t inf = (uint16_t)((dt == SL_F16 ? 0x1fu : 0xffu) << fb), maxf = (uint16_t)(inf - 1u);
    const uint16_t nan = (uint16_t)(inf | (1u << (fb - 1))), one = (uint16_t)(B << fb);
    for (uint64_t i = 0; i < n; i++) {
        uint16_t v;
        switch (kind) {
        case K_UNIFORM: v = sl_half_from_double((double)(rnd() >> 53) * 0x1p-11, dt); break;
        case K_FULL: v = rnd16(dt, 0, EM); break;
        case K_CANCEL: v = rnd16(dt, B - 5, B + 5); break;
        case K_HUGE_TINY: v = rnd() % 64 ? rnd16(dt, 0, 4) : rnd16(dt, EM - 3, EM); break;
        case K_TIE: v = rnd16(dt, B - 3, B + 3); break;
        case K_OVERFLOW_PARTIAL: v = (uint16_t)(i < n / 2 ? maxf : maxf | 0x8000u); break;
        case K_SUBNORMAL: v = rnd16(dt, 0, 0); break;
        case K_NEGZERO: case K_ZERO_PLUS: v = 0x8000u; break;
        case K_NEG_SPARSE: v = rnd() % 97 ? 0x8000u : (uint16_t)(rnd16(dt, B - 4, B + 4) | 0x8000u); break;
        case K_SAMEBIN: v = maxf; break;
        case K_BINS_INF: v = rnd16(dt, EM - 2, EM); break;
        default: v = rnd16(dt, B - 4, B + 4); break;
        }
        x[i] = v;
    }
    if (kind == K_CANCEL || kind == K_TIE)   /* second half: negated first half, reversed */
        for (uint64_t i = 0; i < n / 2; i++) x[n - 1 - i] = (uint16_t)(x[i] ^ 0x8000u);
    if ((kind == K_CANCEL || kind == K_TIE) && n > 2 && n % 2 == 0) x[n / 2 - 1] = 0;
    if (kind == K_CANCEL && n > 2) x[n / 2] = rnd16(dt, 0, 2);
    if (kind == K_TIE && n >= 3) {           /* 1 + half an ulp (and 1 + 3/2 ulp): ties to even */
        const uint16_t h = (uint16_t)((B - fb - 1) << fb), h2 = (uint16_t)((B - fb) << fb);
        x[0] = one; x[n - 1] = h; x[n / 2] = (rnd() & 1) ? 0 : h2;
    }
    if (kind == K_OVERFLOW_PARTIAL) x[n - 1] = sl_half_from_double(1.5, dt);
    if (kind == K_NAN) x[rnd() % n] = nan;
    if (kind == K_INF) { x[rnd() % n] = inf; x[rnd() % n] = inf; }
    if (kind == K_INF_BOTH) { x[0] = inf; x[n - 1] = (uint16_t)(inf | 0x8000u); }
    if (kind == K_BINS_INF) x[rnd() % n] = (rnd() & 1) ? inf : (uint16_t)(inf | 0x8000u);
    if (kind == K_ZERO_PLUS) x[rnd() % n] = 0;
}

int main(void)
{
    sl_gpu_info info;
    sl_err err = {{0}};
    if (!sl_gpu_available(&info, &err)) {
        printf("tsuperacc_gpu: skipped: %s\n", err.msg);
        return SL_TEST_SKIP;
    }
    sl_test_rng = sl_test_seed();
    const sl_variant *vs[2] = {sl_variant_find("superacc"), sl_variant_find("reproducible")};
    CHECK(vs[0] && vs[1], "the registry has no superacc or no reproducible row");
    if (!vs[0] || !vs[1]) return sl_test_done("tsuperacc_gpu");
    static const uint64_t sizes[] = {1, 3, 1000, 65537, (1u << 20) + 5, 1u << 22};
    static const sl_launch cfgs[] = {
        {.block = 0}, {.block = 32, .grid = 1}, {.block = 100, .grid = 7}, {.block = 1024, .grid = 1000},
        {.block = 256, .grid = 3 * 132}, {.block = 64, .grid = 4096}};
    const int ncfg = (int)(sizeof cfgs / sizeof cfgs[0]);
    int arrays = 0, exact_f64 = 0, cert_f64 = 0;
    for (int kind = 0; kind < K_COUNT; kind++)
        for (int dti = 0; dti < 4; dti++) {
            static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
            sl_dtype dt = dts[dti];
            /* big sizes for the arithmetic families, small and big for the rule families */
            uint64_t n = sizes[(kind * 2 + dti) % 6];
            if (kind == K_UNIFORM || kind == K_FULL || kind == K_CANCEL || kind == K_SAMEBIN)
                n = sizes[5 - dti % 2];
            void *x = malloc(n * sl_dtype_size(dt));
            if (sl_dtype_is_half(dt)) fill16(kind, dt, (uint16_t *)x, n);
            else fill(kind, dt, x, n);
            arrays++;
            if (dt == SL_F64) {
                double r;
                if (sl_rsum_certify_f64((const double *)x, n, &r)) cert_f64++;
                else exact_f64++;
            }
            for (uint32_t offset = 0; offset < 2; offset++) {
                sl_gpu_ctx *ctx = NULL;
                if (sl_gpu_ctx_create(&ctx, x, n, dt, offset, &err)) {
                    CHECK(0, "ctx_create: %s", err.msg);
                    continue;
                }
                for (int c = 0; c < 2 * ncfg; c++) {
                    const sl_variant *v = vs[c / ncfg];
                    sl_launch cfg = cfgs[c % ncfg];
                    double res[2] = {0, 0}, want = 0;
                    if (sl_gpu_ctx_run(ctx, v, &cfg, 2, 0, res, NULL, &err)) {
                        CHECK(0, "%s: %s %s n=%llu cfg %d: run: %s", v->name, kind_name[kind],
                              sl_dtype_name(dt), (unsigned long long)n, c, err.msg);
                        continue;
                    }
                    if (sl_variant_cpu(v, x, n, dt, &cfg, &want, &err)) {
                        CHECK(0, "twin: %s", err.msg);
                        continue;
                    }
                    for (int r = 0; r < 2; r++)
                        CHECK(bits64(res[r]) == bits64(want),
                              "%s: %s %s n=%llu offset %u block %u grid %u rep %d: GPU %a (0x%016llx) != twin %a (0x%016llx)",
                              v->name, kind_name[kind], sl_dtype_name(dt), (unsigned long long)n, offset,
                              cfg.block, cfg.grid, r, res[r], (unsigned long long)bits64(res[r]), want,
                              (unsigned long long)bits64(want));
                }
                sl_gpu_ctx_destroy(ctx);
            }
            free(x);
        }
    /* both float64 paths ran, each under every configuration and offset */
    CHECK(exact_f64 >= 2 && cert_f64 >= 2, "float64: %d arrays certified, %d through the exact "
          "kernel: both paths must run", cert_f64, exact_f64);
    printf("tsuperacc_gpu: %d arrays on %s (float64: %d certified, %d through the tail-launched "
           "exact kernel)\n", arrays, info.name, cert_f64, exact_f64);
    return sl_test_done("tsuperacc_gpu");
}

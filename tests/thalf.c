/* thalf.c: float16/bfloat16 end to end on the host: sumlab/half.h's conversions over all 65536
 * patterns against MPFR's rounding (and NumPy's / ml_dtypes' conversions read from the
 * committed fixtures), the .npy reader and writer for '<f2', '>f2' and '<V2', and the exact sum
 * rounded to the 16-bit formats against mpfr_sum, with hand-written edge cases (ties, the
 * subnormal range, sums just under and over the largest finite value). */
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include "sl_datasets.h"
#include "sumlab/half.h"
#include "sl_reference.h"
#include "sl_test.h"

static const sl_dtype FORMATS[2] = {SL_F16, SL_BF16};

/* x rounded to dt by MPFR (precision p, the format's exponent range, mpfr_subnormalize), as a
 * double; overflow gives +-Inf. Runs with a narrowed exponent range, restored on return. */
static double mpfr_round_fmt(mpfr_srcptr x, sl_dtype dt)
{
    const int p = sl_half_prec(dt);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t r;
    mpfr_init2(r, p);
    mpfr_set_emin(sl_half_emin(dt) - p + 2);
    mpfr_set_emax(sl_half_emax(dt) + 1);
    int t = mpfr_set(r, x, MPFR_RNDN);
    t = mpfr_check_range(r, t, MPFR_RNDN);
    mpfr_subnormalize(r, t, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    double d = mpfr_get_d(r, MPFR_RNDN);
    mpfr_clear(r);
    return d;
}

static double mpfr_round_d(double x, sl_dtype dt)
{
    mpfr_t m;
    mpfr_init2(m, 53);
    mpfr_set_d(m, x, MPFR_RNDN);
    double r = mpfr_round_fmt(m, dt);
    mpfr_clear(m);
    return r;
}

static int same_bits(double a, double b) { return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a); }

/* Every pattern: decoded values strictly increasing over 0 .. +Inf (so, with every value
 * representable per MPFR and the counts equal, the decoding is the format's), round trip,
 * exact midpoints and their neighbours rounded as MPFR rounds them. */
static void test_conversions(sl_dtype dt)
{
    const char *nm = sl_dtype_name(dt);
    const uint16_t inf = dt == SL_F16 ? 0x7c00u : 0x7f80u;
    double prev = -1.0;
    long bad_order = 0, bad_repr = 0, bad_trip = 0, bad_mid = 0;
    for (uint32_t h = 0; h <= 0xffffu; h++) {
        const double v = sl_half_to_double((uint16_t)h, dt);
        const uint16_t mag = h & 0x7fffu;
        if (mag > inf) {
            CHECK(isnan(v), "%s 0x%04x decodes to %a, not NaN", nm, h, v);
            CHECK((sl_half_from_double(v, dt) & 0x7fffu) > inf, "%s NaN does not round to NaN", nm);
            continue;
        }
        if (mag == inf) {
            CHECK(isinf(v) && (v < 0) == (h >> 15), "%s 0x%04x decodes to %a, not Inf", nm, h, v);
        } else if (!(h >> 15)) {
            if (!(v > prev) && !(h == 0 && v == 0.0)) bad_order++;
            prev = v;
            if (!same_bits(mpfr_round_d(v, dt), v)) bad_repr++;
        }
        if (!(h >> 15) != !signbit(v)) bad_trip++;
        if (sl_half_from_double(v, dt) != h) bad_trip++;
        if (mag < inf - 1u) { /* the midpoint to the next pattern away from zero, and beside it */
            const double w = sl_half_to_double((uint16_t)(h + 1), dt), m = (v + w) / 2;
            const double probe[3] = {m, nextafter(m, 0.0), nextafter(m, 2 * m)};
            for (int k = 0; k < 3; k++)
                if (!same_bits(sl_half_round(probe[k], dt), mpfr_round_d(probe[k], dt))) {
                    if (bad_mid++ < 5)
                        fprintf(stderr, "%s: %a rounds to %a, MPFR %a\n", nm, probe[k],
                                sl_half_round(probe[k], dt), mpfr_round_d(probe[k], dt));
                }
        }
    }
    CHECK(bad_order == 0, "%s: %ld patterns out of order", nm, bad_order);
    CHECK(bad_repr == 0, "%s: %ld decoded values not representable per MPFR", nm, bad_repr);
    CHECK(bad_trip == 0, "%s: %ld patterns do not round-trip", nm, bad_trip);
    CHECK(bad_mid == 0, "%s: %ld midpoints rounded unlike MPFR", nm, bad_mid);
    /* the largest finite value, the overflow threshold, the smallest subnormal */
    const double max = dt == SL_F16 ? 65504.0 : 0x1.fep127, ulpmax = dt == SL_F16 ? 32.0 : 0x1p120;
    CHECK(sl_half_to_double((uint16_t)(inf - 1u), dt) == max, "%s max", nm);
    CHECK(sl_half_round(max + ulpmax / 2, dt) == INFINITY, "%s: the tie above max overflows", nm);
    CHECK(sl_half_round(nextafter(max + ulpmax / 2, 0), dt) == max, "%s: just under the tie", nm);
    const double tiny = dt == SL_F16 ? 0x1p-24 : 0x1p-133;
    CHECK(sl_half_round(tiny / 2, dt) == 0.0 && !signbit(sl_half_round(tiny / 2, dt)), "%s: tiny/2 ties to +0", nm);
    CHECK(sl_half_round(nextafter(tiny / 2, 1), dt) == tiny, "%s: above tiny/2", nm);
    CHECK(signbit(sl_half_round(-tiny / 4, dt)), "%s: -tiny/4 rounds to -0", nm);
    CHECK(sl_half_round(0x1p-1074, dt) == 0.0, "%s: a double subnormal rounds to 0", nm);
    /* random doubles over the whole range, against MPFR */
    long bad = 0;
    for (int k = 0; k < 200000; k++) {
        uint64_t u = sl_test_rand64();
        int e = (int)(u % (dt == SL_F16 ? 50 : 280)) - (dt == SL_F16 ? 30 : 140);
        double x = ldexp(1.0 + (double)(u >> 12) * 0x1p-52, e) * ((u >> 11) & 1 ? -1 : 1);
        if (!same_bits(sl_half_round(x, dt), mpfr_round_d(x, dt))) bad++;
    }
    CHECK(bad == 0, "%s: %ld random doubles rounded unlike MPFR", nm, bad);
}

#define FX SUMLAB_SOURCE_DIR "/tests/data/"

/* The NumPy / ml_dtypes fixtures: each read back, every value equal to our rounding of its
 * float32-exact source. */
static void test_fixtures(void)
{
    sl_err err;
    void *src = NULL;
    uint64_t ns = 0;
    sl_dtype dts;
    int rc = sl_array_load(FX "np_half_src.npy", 0, SL_F32, &src, &ns, &dts, &err);
    CHECK(rc == 0 && dts == SL_F64 && ns == 4096, "np_half_src.npy: %s", err.msg);
    if (rc) return;
    const struct { const char *file; sl_dtype dt; int be; } fx[] = {
        {"np_f16.npy", SL_F16, 0}, {"np_f16_be.npy", SL_F16, 1}, {"np_bf16.npy", SL_BF16, 0}};
    for (size_t k = 0; k < sizeof fx / sizeof fx[0]; k++) {
        void *data = NULL;
        uint64_t n = 0;
        sl_dtype dt;
        sl_array_info info;
        char path[512];
        snprintf(path, sizeof path, FX "%s", fx[k].file);
        rc = sl_array_load_ex(path, 0, SL_F32, &data, &n, &dt, &info, &err);
        CHECK(rc == 0 && dt == fx[k].dt && n == ns && info.big_endian == fx[k].be, "%s: rc %d dt %d: %s",
              fx[k].file, rc, (int)dt, err.msg);
        if (rc || dt != fx[k].dt || n != ns) { free(data); continue; }
        long bad = 0;
        for (uint64_t i = 0; i < n; i++) {
            const uint16_t got = ((uint16_t *)data)[i], want = sl_half_from_double(((double *)src)[i], dt);
            if (got != want && bad++ < 5)
                fprintf(stderr, "%s[%llu]: %a -> file 0x%04x, ours 0x%04x\n", fx[k].file,
                        (unsigned long long)i, ((double *)src)[i], got, want);
        }
        CHECK(bad == 0, "%s: %ld values differ from the library's conversion", fx[k].file, bad);
        /* written back by sl_npy_write and read again: the same patterns, the same descr */
        char out[512];
        snprintf(out, sizeof out, "%s/thalf_%s", SUMLAB_BINARY_DIR, fx[k].file);
        CHECK(sl_npy_write(out, data, n, dt, &err) == 0, "write %s: %s", out, err.msg);
        void *back = NULL;
        uint64_t nb = 0;
        sl_dtype db;
        CHECK(sl_npy_read(out, &back, &nb, &db, &err) == 0 && db == dt && nb == n &&
                  !memcmp(back, data, n * 2), "%s read back: %s", out, err.msg);
        free(back);
        free(data);
    }
    free(src);
    /* raw little-endian with an explicit dtype */
    uint16_t raw[3] = {0x3c00, 0xc000, 0x0001};
    char rp[512];
    snprintf(rp, sizeof rp, "%s/thalf_raw.bin", SUMLAB_BINARY_DIR);
    CHECK(sl_raw_write(rp, raw, 3, SL_BF16, &err) == 0, "raw write: %s", err.msg);
    void *rd = NULL;
    uint64_t rn;
    sl_dtype rdt;
    CHECK(sl_array_load(rp, 1, SL_BF16, &rd, &rn, &rdt, &err) == 0 && rn == 3 && rdt == SL_BF16 &&
              !memcmp(rd, raw, sizeof raw), "raw bf16 read: %s", err.msg);
    free(rd);
}

/* The exact sum of h[0..n) in dt rounded by the library vs mpfr_sum rounded by MPFR. */
static int sum_check(const uint16_t *h, size_t n, sl_dtype dt, double *lib, double *ref)
{
    sl_reference r;
    sl_err err;
    if (sl_reference_compute(&r, h, n, dt, &err)) {
        fprintf(stderr, "reference: %s\n", err.msg);
        sl_reference_clear(&r);
        return 0;
    }
    mpfr_t *v = malloc((n ? n : 1) * sizeof *v);
    mpfr_ptr *pv = malloc((n ? n : 1) * sizeof *pv);
    for (size_t i = 0; i < n; i++) {
        mpfr_init2(v[i], 53);
        mpfr_set_d(v[i], sl_half_to_double(h[i], dt), MPFR_RNDN);
        pv[i] = v[i];
    }
    mpfr_t s;
    mpfr_init2(s, 400);
    mpfr_sum(s, pv, n, MPFR_RNDN);   /* exact at 400 bits: float16/bfloat16 sums span < 300 */
    *ref = mpfr_round_fmt(s, dt);
    *lib = r.rounded;
    int ok = same_bits(*lib, *ref) || (*lib == 0 && *ref == 0 && n > 0);
    mpfr_clear(s);
    for (size_t i = 0; i < n; i++) mpfr_clear(v[i]);
    free(v);
    free(pv);
    sl_reference_clear(&r);
    return ok;
}

static void test_sums(sl_dtype dt)
{
    const char *nm = sl_dtype_name(dt);
    const uint16_t inf = dt == SL_F16 ? 0x7c00u : 0x7f80u;
    long bad = 0;
    uint16_t h[600];
    for (int t = 0; t < 400; t++) {
        size_t n = 1 + sl_test_rand64() % 600;
        int mode = t % 4;   /* any finite pattern / one binade / near max / subnormals */
        for (size_t i = 0; i < n; i++) {
            uint64_t u = sl_test_rand64();
            uint16_t m = (uint16_t)(u % inf);
            if (mode == 1) m = (uint16_t)((inf / 2) + (u % 64));
            if (mode == 2) m = (uint16_t)(inf - 1u - (u % 8));
            if (mode == 3) m = (uint16_t)(u % (dt == SL_F16 ? 0x0400 : 0x0080));
            h[i] = (uint16_t)(m | ((u >> 32) & 1 ? 0x8000u : 0));
        }
        double lib, ref;
        if (!sum_check(h, n, dt, &lib, &ref) && bad++ < 5)
            fprintf(stderr, "%s sum mode %d n %zu: library %a, MPFR %a\n", nm, mode, n, lib, ref);
    }
    CHECK(bad == 0, "%s: %ld random sums rounded unlike mpfr_sum", nm, bad);
}

#define HX(dt, x) sl_half_from_double((x), (dt))
static double sum_of(sl_dtype dt, const double *x, size_t n)
{
    uint16_t h[16];
    for (size_t i = 0; i < n; i++) {
        h[i] = HX(dt, x[i]);
        if (sl_half_to_double(h[i], dt) != x[i]) fprintf(stderr, "edge input %a not in %s\n", x[i], sl_dtype_name(dt));
    }
    double lib, ref;
    CHECK(sum_check(h, n, dt, &lib, &ref), "%s edge sum: library %a, MPFR %a", sl_dtype_name(dt), lib, ref);
    return lib;
}

static void test_edges(void)
{
    const sl_dtype H = SL_F16, B = SL_BF16;
    /* ties to even at 1: 1 + 2^-11 -> 1; (1 + 2^-10) + 2^-11 -> 1 + 2^-9 */
    CHECK(sum_of(H, (double[]){1, 0x1p-11}, 2) == 1.0, "f16 tie down");
    CHECK(sum_of(H, (double[]){1 + 0x1p-10, 0x1p-11}, 2) == 1 + 0x1p-9, "f16 tie up");
    CHECK(sum_of(H, (double[]){1, 0x1p-11, 0x1p-24}, 3) == 1 + 0x1p-10, "f16 just above the tie");
    /* just under and over 65504: 65504 + 15.5 -> 65504; 65504 + 16 (the tie) -> +Inf */
    CHECK(sum_of(H, (double[]){65504, 8, 4, 2, 1, 0.5}, 6) == 65504.0, "f16 65519.5");
    CHECK(sum_of(H, (double[]){65504, 8, 4, 2, 1, 0.5, 0.5}, 7) == INFINITY, "f16 65520 overflows");
    CHECK(sum_of(H, (double[]){-65504, -16}, 2) == -INFINITY, "f16 -65520 overflows");
    CHECK(sum_of(H, (double[]){65504, 65504, -65504}, 3) == 65504.0, "f16 exact despite the prefix");
    /* the subnormal range: 2^-24 steps, the largest subnormal, the normal boundary */
    CHECK(sum_of(H, (double[]){0x1p-24, 0x1p-24, 0x1p-24}, 3) == 0x3p-24, "f16 subnormal sum");
    CHECK(sum_of(H, (double[]){0x1p-14, -0x1p-24}, 2) == 0x3ffp-24, "f16 largest subnormal");
    CHECK(sum_of(H, (double[]){0x3ffp-24, 0x1p-24}, 2) == 0x1p-14, "f16 into the normals");
    double z = sum_of(H, (double[]){0x1p-24, -0x1p-24}, 2);
    CHECK(z == 0 && !signbit(z), "f16 exact zero is +0");
    z = sum_of(H, (double[]){-0.0, -0.0}, 2);
    CHECK(z == 0 && signbit(z), "f16 all -0 is -0");
    /* bfloat16 at its max 0x1.fep127 (ulp 2^120): + 2^118 stays, + 2^119 (the tie) overflows */
    CHECK(sum_of(B, (double[]){0x1.fep127, 0x1p118}, 2) == 0x1.fep127, "bf16 under the tie");
    CHECK(sum_of(B, (double[]){0x1.fep127, 0x1p119}, 2) == INFINITY, "bf16 tie overflows");
    CHECK(sum_of(B, (double[]){1, 0x1p-8}, 2) == 1.0, "bf16 tie down");
    CHECK(sum_of(B, (double[]){1 + 0x1p-7, 0x1p-8}, 2) == 1 + 0x1p-6, "bf16 tie up");
    CHECK(sum_of(B, (double[]){0x1p-133, 0x1p-133}, 2) == 0x1p-132, "bf16 subnormals");
    /* metrics in the 16-bit formats */
    CHECK(sl_ulp(1.0, H) == 0x1p-10 && sl_ulp(0.0, H) == 0x1p-24 && sl_ulp(65504, H) == 32.0 &&
              sl_ulp(INFINITY, H) == 32.0, "f16 ulps");
    CHECK(sl_ulp(1.0, B) == 0x1p-7 && sl_ulp(0.0, B) == 0x1p-133, "bf16 ulps");
    CHECK(sl_unit_roundoff(H) == 0x1p-11 && sl_unit_roundoff(B) == 0x1p-8, "unit roundoffs");
    uint16_t x[2] = {HX(H, 1.0), HX(H, 0x1p-11)};   /* S = 1 + 2^-11, R = 1 */
    sl_reference r;
    sl_err err;
    CHECK(sl_reference_compute(&r, x, 2, H, &err) == 0 && r.rounded == 1.0 && r.finite, "f16 ref");
    sl_errors e = sl_reference_errors(&r, 1.0, H);
    CHECK(e.ulps == 0.5 && e.abs_err == 0x1p-11, "f16 error of 1: %g ulps", e.ulps);
    e = sl_reference_errors(&r, 1 + 0x1p-10, H);
    CHECK(e.ulps == 0.5, "f16 error of 1+2^-10: %g ulps", e.ulps);
    /* float32 accumulation of float16 input: gamma_1(2^-24) sum|x| + 2^-11 (|S| + E) */
    double b32 = sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 1, SL_F32, H);
    double g = 0x1p-24 / (1 - 0x1p-24) * (1 + 0x1p-11);
    double want = g + 0x1p-11 * (1 + 0x1p-11 + g);
    CHECK(b32 >= want && b32 <= want * (1 + 1e-12), "f32-acc bound %a, want %a", b32, want);
    double b16 = sl_reference_bound(&r, SL_REF_BOUND_RECURSIVE, 1, H, H);
    CHECK(b16 >= 0x1p-11 / (1 - 0x1p-11) * (1 + 0x1p-11) && b16 < 0x1p-10, "f16-acc bound %a", b16);
    sl_reference_clear(&r);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    for (int k = 0; k < 2; k++) test_conversions(FORMATS[k]);
    test_fixtures();
    for (int k = 0; k < 2; k++) test_sums(FORMATS[k]);
    test_edges();
    return sl_test_done("thalf");
}

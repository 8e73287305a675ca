/* tnorm_twins.c: the norm2 variants' CPU twins (kernels/norm) against the exact reference
 * (reference/sl_norm.c, itself checked against MPFR by tnorm_ref): in every format, on random data,
 * the range ends (values near the overflow and underflow thresholds of the squares and of the
 * format, subnormals, float16 values > 256 whose squares overflow float16), LAPACK dblat1's DB1NRM2
 * table of scales, n = 0, 1, 2, 31, 32, 33, 1000, 2^16 + 3, and three launch configurations:
 *   - every result within its variant's a-priori bound (bounds_norm.c) wherever that is finite;
 *   - scaled, reproducible and correct finite wherever the exact norm is finite (and nonzero where
 *     it is nonzero);
 *   - correct equal to the reference's bits on every family; the special values (Inf wins over NaN,
 *     NaN, n = 0 -> +0) in every variant;
 *   - reproducible and correct invariant under reversal, shuffles, sorting and the launch
 *     configuration; the binned state of the squares (float64: of the scaled TwoProduct pieces,
 *     norm.h) the same for any split (states merged); reproducible on float64 within 2 ulps;
 *   - naive overflows to +Inf (2^20 x 1e20 in float32) and underflows to 0 (1e-25) where scaled,
 *     f64-acc, reproducible and correct stay exact: the failed rows. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_measure.h"
#include "sl_ops.h"
#include "sl_norm.h"
#include "sl_variants.h"
#include "reproducible/reproducible.h"
#include "norm/norm.h"
#include "sumlab/half.h"
#include "sl_datasets.h"

static const sl_dtype fmts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};

static void put(void *x, sl_dtype dt, uint64_t i, double v)
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else if (dt == SL_F32) ((float *)x)[i] = (float)v;
    else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
}
static double get(const void *x, sl_dtype dt, uint64_t i)
{
    if (dt == SL_F64) return ((const double *)x)[i];
    if (dt == SL_F32) return ((const float *)x)[i];
    return sl_half_to_double(((const uint16_t *)x)[i], dt);
}
static double unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }
static int same_bits(double a, double b)
{
    if (a != a || b != b) return a != a && b != b;
    return !memcmp(&a, &b, sizeof a);
}
static void fmt_of(sl_dtype dt, double *minsub, double *minnorm, double *max, double *ulp1)
{
    if (dt == SL_F64) { *minsub = 0x1p-1074; *minnorm = DBL_MIN; *max = DBL_MAX; *ulp1 = 0x1p-52; }
    else if (dt == SL_F32) { *minsub = 0x1p-149; *minnorm = FLT_MIN; *max = FLT_MAX; *ulp1 = 0x1p-23; }
    else if (dt == SL_F16) { *minsub = 0x1p-24; *minnorm = 0x1p-14; *max = 65504.0; *ulp1 = 0x1p-10; }
    else { *minsub = 0x1p-133; *minnorm = 0x1p-126; *max = 0x1.fep127; *ulp1 = 0x1p-7; }
}

static const sl_variant *norm_variants[32];
static size_t nnorm;

/* The shapes each twin runs: default, a small odd grid, a large block with a misaligned start. */
static void shape(int s, sl_launch *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    if (s == 1) { cfg->block = 64; cfg->grid = 3; }
    if (s == 2) { cfg->block = 1024; cfg->grid = 7; cfg->addr_mod = 8; }
}

static int must_be_finite(const sl_variant *v)
{
    return !strcmp(v->name, "scaled") || !strcmp(v->name, "reproducible") || !strcmp(v->name, "correct");
}

/* Every twin on x against the reference. */
/* A quarter of dt's largest value: below it no bound of a norm of these tests reaches Inf. */
static double norm_top(sl_dtype dt)
{
    return (dt == SL_F64 ? DBL_MAX : dt == SL_F32 ? FLT_MAX : dt == SL_F16 ? 65504.0 : 0x1.fep127) / 4;
}

static void check_all(const char *what, const void *x, uint64_t n, sl_dtype dt)
{
    sl_reference ref;
    sl_err err = {0};
    if (sl_reference_norm2(&ref, x, n, dt, 1, &err)) {
        CHECK(0, "%s: reference: %s", what, err.msg);
        sl_reference_clear(&ref);
        return;
    }
    const sl_operation *op = sl_op_find("norm2");
    for (size_t i = 0; i < nnorm; i++) {
        const sl_variant *v = norm_variants[i];
        if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        double first = NAN;
        for (int s = 0; s < 3; s++) {
            sl_launch cfg;
            shape(s, &cfg);
            if (cfg.addr_mod % sl_dtype_size(dt)) cfg.addr_mod = 0;
            sl_variant_resolve(v, &cfg, n, dt);
            double r = NAN;
            if (sl_variant_cpu(v, x, n, dt, &cfg, &r, &err)) {
                CHECK(0, "%s %s: %s", what, v->name, err.msg);
                continue;
            }
            if (s == 0) first = r;
            if (v->determinism >= SL_DET_ORDER_INDEPENDENT)
                CHECK(same_bits(r, first), "%s %s %s: shape %d gave %a, shape 0 %a", what, v->name,
                      sl_dtype_name(dt), s, r, first);
            if (!strcmp(v->name, "correct"))
                CHECK(same_bits(r, ref.rounded), "%s correct %s n %" PRIu64 ": %a, exact %a", what,
                      sl_dtype_name(dt), n, r, ref.rounded);
            if (ref.finite && must_be_finite(v))
                CHECK(isfinite(r) && (r != 0 || ref.rounded == 0), "%s %s %s: %a where the norm is %a",
                      what, v->name, sl_dtype_name(dt), r, ref.rounded);
            if (ref.finite && ref.rounded == 0)    /* a zero norm is +0 in every variant */
                CHECK(same_bits(r, 0.0), "%s %s %s: %a for a zero norm", what, v->name, sl_dtype_name(dt), r);
            if (!ref.finite && !ref.overflow)      /* Inf or NaN input: the semantics */
                CHECK(same_bits(r, ref.rounded), "%s %s %s: special %a, want %a", what, v->name,
                      sl_dtype_name(dt), r, ref.rounded);
            const double b = op->bound(v, &ref, n, dt, &cfg);
            /* scaled's bound is finite wherever the norm is, away from the format's top (float64
             * input whose sum of squares exceeds double's range included) */
            if (ref.finite && !strcmp(v->name, "scaled") && fabs(ref.rounded) < norm_top(dt))
                CHECK(isfinite(b), "%s scaled %s n %" PRIu64 ": bound %g where the norm is %a", what,
                      sl_dtype_name(dt), n, b, ref.rounded);
            if (ref.finite && isfinite(b)) {
                const sl_errors e = sl_reference_errors(&ref, r, dt);
                CHECK(e.abs_err <= b, "%s %s %s n %" PRIu64 " shape %d: error %g > bound %g (result %a, "
                      "exact %a)", what, v->name, sl_dtype_name(dt), n, s, e.abs_err, b, r, ref.rounded);
            }
            CHECK(!(ref.finite && v->bound == SL_BOUND_CORRECTLY_ROUNDED) || isfinite(b),
                  "%s %s: no bound", what, v->name);
            /* reproducible on float64: a finite bound and within 2 ulps wherever the norm is finite
             * and below the top (its pieces scaled by a power of two: no overflow, no underflow) */
            if (ref.finite && dt == SL_F64 && !strcmp(v->name, "reproducible") && fabs(ref.rounded) < norm_top(dt)) {
                CHECK(isfinite(b), "%s reproducible float64 n %" PRIu64 ": bound %g where the norm is %a",
                      what, n, b, ref.rounded);
                CHECK(sl_reference_errors(&ref, r, dt).ulps <= 2.0, "%s reproducible float64 n %" PRIu64
                      ": %a, exact %a", what, n, r, ref.rounded);
            }
        }
    }
    sl_reference_clear(&ref);
}

/* reproducible and correct under permutations; the binned state of the squares under splits. */
static void check_orders(const void *x, uint64_t n, sl_dtype dt)
{
    const size_t es = sl_dtype_size(dt);
    unsigned char *y = malloc(n * es + 1);
    const char *names[] = {"reproducible", "correct"};
    for (int w = 0; w < 2; w++) {
        const sl_variant *v = sl_variant_find_op("norm2", names[w]);
        if (!v || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        sl_variant_resolve(v, &cfg, n, dt);
        sl_err err = {0};
        double r0 = NAN, r;
        sl_variant_cpu(v, x, n, dt, &cfg, &r0, &err);
        for (int p = 0; p < 3; p++) {
            memcpy(y, x, n * es);
            if (p == 0)        /* reversed */
                for (uint64_t i = 0; i < n / 2; i++) {
                    unsigned char t[8];
                    memcpy(t, y + i * es, es);
                    memcpy(y + i * es, y + (n - 1 - i) * es, es);
                    memcpy(y + (n - 1 - i) * es, t, es);
                }
            else if (p == 1)   /* shuffled */
                for (uint64_t i = n; i > 1; i--) {
                    const uint64_t j = sl_test_rand64() % i;
                    unsigned char t[8];
                    memcpy(t, y + (i - 1) * es, es);
                    memcpy(y + (i - 1) * es, y + j * es, es);
                    memcpy(y + j * es, t, es);
                }
            else               /* by magnitude, largest first (insertion sort on a copy) */
                for (uint64_t i = 1; i < n && n <= 5000; i++)
                    for (uint64_t j = i; j > 0 && fabs(get(y, dt, j)) > fabs(get(y, dt, j - 1)); j--) {
                        unsigned char t[8];
                        memcpy(t, y + j * es, es);
                        memcpy(y + j * es, y + (j - 1) * es, es);
                        memcpy(y + (j - 1) * es, t, es);
                    }
            sl_variant_cpu(v, y, n, dt, &cfg, &r, &err);
            CHECK(same_bits(r, r0), "%s %s permutation %d: %a vs %a", v->name, sl_dtype_name(dt), p, r, r0);
        }
    }
    if (dt != SL_F64 && n > 2) {   /* the binned state of the squares: any split merges to the same */
        double *sq = malloc(n * sizeof *sq);
        for (uint64_t i = 0; i < n; i++) sq[i] = get(x, dt, i) * get(x, dt, i);
        sl_rsum_state whole, a, b;
        sl_rsum_state_zero(&whole);
        sl_rsum_state_zero(&a);
        sl_rsum_state_zero(&b);
        sl_rsum_add(&whole, sq, n, SL_F64);
        const uint64_t cut = n / 3;
        sl_rsum_add(&b, sq + cut, n - cut, SL_F64);
        sl_rsum_add(&a, sq, cut, SL_F64);
        sl_rsum_state_merge(&b, &a);
        CHECK(same_bits(sl_rsum_state_round(&whole, SL_F64), sl_rsum_state_round(&b, SL_F64)),
              "binned squares: split at %" PRIu64 " differs", cut);
        free(sq);
    }
    if (dt == SL_F64 && n > 2) {   /* the scaled pieces (norm.h): any split, parts merged, the same */
        const double *xd = x;
        uint64_t mx = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t u;
            memcpy(&u, xd + i, sizeof u);
            if (sl_nrm_absbits_f64(u) > mx) mx = sl_nrm_absbits_f64(u);
        }
        const int e = sl_nrm_repro_exp(mx);
        const double sc = sl_pow2_f64(-e);
        const uint64_t cuts[] = {1, n / 3, n - 1};
        sl_rsum_thr_f64 aw;
        sl_rsum_init_f64(&aw);
        for (uint64_t i = 0; i < n; i++) sl_nrm_repro_take_f64(&aw, xd[i], sc);
        sl_rsum_state whole;
        sl_rsum_to_state_f64(&aw, &whole);
        const double rw = sl_nrm_repro_final(&whole, sl_pow2_f64(e));
        const sl_variant *v = sl_variant_find_op("norm2", "reproducible");
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        sl_variant_resolve(v, &cfg, n, dt);
        sl_err err = {0};
        double rt = NAN;
        CHECK(sl_variant_cpu(v, x, n, dt, &cfg, &rt, &err) == 0 && same_bits(rw, rt),
              "float64 pieces in one accumulator %a, the twin %a", rw, rt);
        for (int c = 0; c < 3; c++) {
            sl_rsum_thr_f64 a1, a2;   /* the later part first: another order of merges */
            sl_rsum_init_f64(&a1);
            sl_rsum_init_f64(&a2);
            for (uint64_t i = cuts[c]; i < n; i++) sl_nrm_repro_take_f64(&a2, xd[i], sc);
            for (uint64_t i = cuts[c]; i-- > 0;) sl_nrm_repro_take_f64(&a1, xd[i], sc);
            sl_rsum_state s1, s2;
            sl_rsum_to_state_f64(&a1, &s1);
            sl_rsum_to_state_f64(&a2, &s2);
            sl_rsum_state_merge(&s2, &s1);
            CHECK(same_bits(sl_nrm_repro_final(&s2, sl_pow2_f64(e)), rw),
                  "float64 pieces: split at %" PRIu64 " differs", cuts[c]);
        }
    }
    free(y);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (!strcmp(v->op, "norm2") && v->cpu && nnorm < 32) norm_variants[nnorm++] = v;
    }
    CHECK(nnorm >= 6, "norm2 has %zu variants with a twin", nnorm);
    static const uint64_t sizes[] = {0, 1, 2, 31, 32, 33, 1000, 65539};
    char what[128];
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        const sl_dtype dt = fmts[f];
        double minsub, minnorm, maxv, ulp1;
        fmt_of(dt, &minsub, &minnorm, &maxv, &ulp1);
        void *x = malloc(65539 * 8);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const uint64_t n = sizes[s];
            for (int fam = 0; fam < 6; fam++) {
                for (uint64_t i = 0; i < n; i++) {
                    double v = 2 * unif() - 1;
                    if (fam == 1) v = ldexp(v, (int)(unif() * 24) - 12);
                    if (fam == 2) v = v * sqrt(maxv) * 0.9;                   /* squares overflow */
                    if (fam == 3) v = v * sqrt(minnorm) * 4;                  /* squares underflow */
                    if (fam == 4) v = v * minnorm;                            /* subnormal edge */
                    if (fam == 5) v = v * maxv / (4.0 * sqrt((double)n + 1)); /* the norm near the top */
                    put(x, dt, i, v);
                }
                snprintf(what, sizeof what, "family %d n %" PRIu64, fam, n);
                check_all(what, x, n, dt);
                if (n == 1000 || n == 33) check_orders(x, n, dt);
            }
        }
        /* DB1NRM2 (LAPACK dblat1): x(1) and the scale of x(2:n) over the table's values */
        const double table[] = {0.0, 2 * minnorm, minnorm, ulp1, 1.0, 1.0 / ulp1, maxv, maxv / 2, INFINITY, NAN};
        const size_t nt = sizeof table / sizeof table[0];
        for (size_t a = 0; a < nt; a++)
            for (size_t b = 0; b < nt; b++)
                for (uint64_t n = 2; n <= 7; n += 5) {
                    put(x, dt, 0, table[a]);
                    for (uint64_t i = 1; i < n; i++) put(x, dt, i, table[b] * (i % 2 ? -1.0 : 0.5));
                    snprintf(what, sizeof what, "DB1NRM2 x1 %g scale %g n %" PRIu64, table[a], table[b], n);
                    check_all(what, x, n, dt);
                }
        /* exact ties: S2 = (2^p + 1)^2, the midpoint between 2^p and 2^p + 2, from the squares of
         * 2^p, 2^((p+1)/2) (p odd) or twice 2^(p/2) (p even), and 1: rounded to even (2^p); with one
         * more tiny value just above it: rounded up; the same scaled by powers of two */
        {
            const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
            static const int scales[] = {0, -4, 4};
            for (int sc = 0; sc < 3; sc++)
                for (int up = 0; up < 2; up++) {
                    uint64_t m = 0;
                    const double z = ldexp(1.0, scales[sc] * (dt == SL_F16 ? 1 : 2));
                    put(x, dt, m++, ldexp(1.0, p) * z);
                    if (p % 2) put(x, dt, m++, ldexp(1.0, (p + 1) / 2) * z);
                    else { put(x, dt, m++, ldexp(1.0, p / 2) * z); put(x, dt, m++, ldexp(1.0, p / 2) * z); }
                    put(x, dt, m++, z);
                    if (up) put(x, dt, m++, z * 0.25);
                    sl_reference ref;
                    sl_err err = {0};
                    sl_reference_norm2(&ref, x, m, dt, 1, &err);
                    CHECK(ref.rounded == ldexp(up ? 1.0 + 2 * ldexp(1.0, -p) : 1.0, p) * z,
                          "tie %s scale %d up %d: reference %a", sl_dtype_name(dt), sc, up, ref.rounded);
                    sl_reference_clear(&ref);
                    snprintf(what, sizeof what, "tie scale %d up %d", sc, up);
                    check_all(what, x, m, dt);
                }
        }
        /* specials: Inf with NaN -> +Inf in every variant (check_all compares with the reference) */
        {
            const double sp[][3] = {{NAN, 1.0, -INFINITY}, {1.0, NAN, 2.0}, {INFINITY, 0.0, 1.0}, {-0.0, -0.0, -0.0}};
            for (int k = 0; k < 4; k++) {
                for (int i = 0; i < 3; i++) put(x, dt, (uint64_t)i, sp[k][i]);
                snprintf(what, sizeof what, "specials %d", k);
                check_all(what, x, 3, dt);
            }
        }
        /* two least subnormals: a subnormal norm (float32 sqrt(2) 2^-149, rounded to 2^-149), which
         * scaled's final scale rounds absolutely (its bound was relative: 4.95e-46 < 5.8e-46) */
        put(x, dt, 0, minsub);
        put(x, dt, 1, minsub);
        check_all("two least subnormals", x, 2, dt);
        free(x);
    }
    /* the norm2 dataset families (datasets/gen_norm.c) through every twin */
    {
        const char *fams[] = {"huge", "tiny", "sq-overflow", "nrm2-table"};
        void *x = malloc(1000 * 8);
        for (int fi = 0; fi < 4; fi++) {
            const sl_dataset *ds = sl_dataset_find(fams[fi]);
            CHECK(ds && (ds->flags & SL_DS_OPT_IN), "dataset %s registered, opt-in", fams[fi]);
            if (!ds) continue;
            for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
                const sl_dtype dt = fmts[f];
                const int cases = fi == 3 ? 100 : 1;
                for (int c = 0; c < cases; c++) {
                    sl_params p;
                    sl_params_defaults(ds, &p);
                    if (fi == 3) { p.v[0] = c / 10; p.v[1] = c % 10; }
                    sl_err err = {0};
                    const uint64_t n = fi == 3 ? 7 : 1000;
                    const int rc = sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, x, &err);
                    CHECK(rc == 0, "%s %s: %s", fams[fi], sl_dtype_name(dt), err.msg);
                    if (rc) continue;
                    if (fi < 3) {          /* huge/tiny: the squares leave the format, the norm does not */
                        sl_reference ref;
                        sl_reference_norm2(&ref, x, n, dt, 1, &err);
                        const double a = fabs(get(x, dt, 0));
                        const double q = sl_dtype_is_half(dt) ? sl_half_round(a * a, dt)
                                       : dt == SL_F32 ? (double)(float)(a * a) : a * a;
                        CHECK(ref.finite && ref.rounded > 0, "%s %s: norm %a", fams[fi], sl_dtype_name(dt), ref.rounded);
                        if (fi != 1) CHECK(isinf(q), "%s %s: x0^2 = %a stays finite", fams[fi], sl_dtype_name(dt), q);
                        else {
                            double ms, mn, mx, u1;
                            fmt_of(dt, &ms, &mn, &mx, &u1);
                            CHECK(q < mn && a >= mn, "tiny %s: x0 = %a, x0^2 = %a in the format", sl_dtype_name(dt), a, q);
                        }
                        sl_reference_clear(&ref);
                    }
                    snprintf(what, sizeof what, "dataset %s case %d", fams[fi], c);
                    check_all(what, x, n, dt);
                }
            }
        }
        free(x);
    }
    /* float16 values > 256: squares overflow float16, the norm is finite */
    {
        uint16_t h[300];
        for (int i = 0; i < 300; i++) h[i] = sl_half_from_double(257.0 + (i % 50), SL_F16);
        check_all("float16 > 256", h, 300, SL_F16);
        const sl_variant *ha = sl_variant_find_op("norm2", "half-acc");
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        sl_variant_resolve(ha, &cfg, 300, SL_F16);
        double r = 0;
        sl_err err = {0};
        CHECK(ha && sl_variant_cpu(ha, h, 300, SL_F16, &cfg, &r, &err) == 0 && isinf(r),
              "half-acc on float16 > 256: %a (its 16-bit squares overflow)", r);
    }
    /* the rows: 2^20 x 1e20 and x 1e-25 in float32 */
    {
        const uint64_t n = (uint64_t)1 << 20;
        float *x = malloc(n * sizeof *x);
        for (int c = 0; c < 2; c++) {
            for (uint64_t i = 0; i < n; i++) x[i] = c ? 1e-25f : 1e20f;
            sl_reference ref;
            sl_err err = {0};
            sl_reference_norm2(&ref, x, n, SL_F32, 2, &err);
            const char *names[] = {"naive", "f64-acc", "scaled", "reproducible", "correct"};
            for (int k = 0; k < 5; k++) {
                const sl_variant *v = sl_variant_find_op("norm2", names[k]);
                sl_launch cfg;
                memset(&cfg, 0, sizeof cfg);
                sl_variant_resolve(v, &cfg, n, SL_F32);
                double r = NAN;
                sl_variant_cpu(v, x, n, SL_F32, &cfg, &r, &err);
                if (k == 0)
                    CHECK(c ? r == 0 : isinf(r), "naive on 2^20 x %s: %a (its float32 squares %s)",
                          c ? "1e-25" : "1e20", r, c ? "underflow" : "overflow");
                else
                    CHECK(sl_reference_errors(&ref, r, SL_F32).ulps <= 1.0, "%s on 2^20 x %s: %a, exact %a",
                          names[k], c ? "1e-25" : "1e20", r, ref.rounded);
            }
            sl_reference_clear(&ref);
        }
        free(x);
    }
    return sl_test_done("tnorm_twins");
}

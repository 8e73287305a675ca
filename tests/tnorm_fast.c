/* tnorm_fast.c (label cpu): exact/pairsum.h's cheap certified first pass of the `correct` norm2 as
 * the twin runs it (sl_psum_norm_host: the kernel's own order for a launch; float32/16-bit, a
 * plain float64 sum of the exact squares; float64, the TwoProduct squares as a Fast2Sum pair; the
 * candidate root tested exactly against its midpoints) in every format and several launch shapes
 * (the resolved one, one warp, more blocks than work, an odd block, a misaligned start): whenever
 * it certifies, its value is the exact reference's correctly rounded norm (GNU MPFR) on uniform
 * and normal data, the norm families (nrm2-table, huge, tiny, sq-overflow), subnormals, squares
 * that overflow float16, all-equal values, n = 1, float64's 1e+-200 beside ordinary values and a
 * scale fuzz; uniform and normal data certify (at least 95 % of the arrays, counted); zeros, NaN,
 * Inf, norms past the format's largest value, float64 squares that overflow (1e200) or vanish
 * (1e-200) never certify; exact ties of the format (Pythagorean triples whose hypotenuse has one
 * bit more than the format) never certify, and boxes pushed to 0.99 of the bound certify only
 * the reference's value.
 * The row kernels' decision (norm/norm.h's sl_nrm_row_decide, float32/16-bit) on the same arrays,
 * summed as a warp and as a block a row sum them (T threads strided, then a tree): a decided norm
 * is the reference's (NaN, +Inf beside a NaN and +0 of zeros decided too), uniform and normal
 * decide (at least 95 %), norms past the largest value decide +Inf, ties never decide, and sums
 * pushed to 0.99 of the row's bound decide only the reference's value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_test_values.h"
#include "sl_variants.h"
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_norm.h"
#include "tdot_common.h"
#include "tdot_cases.h"
#include "exact/pairsum.h"
#include "norm/norm.h"

static uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static long n_cert, n_total, rnd_cert, rnd_total, pushed_cert, pushed_total, tie_cert;
static const sl_variant *vcorrect;

/* launch requests (resolved per array as the GPU harness resolves them) */
static const sl_launch shapes[] = {{.block = 0}, {.block = 32, .grid = 1}, {.block = 1024, .grid = 1000},
                                   {.block = 96, .grid = 7}, {.block = 256, .addr_mod = 8}};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static int reference(const void *x, uint64_t n, sl_dtype dt, double *out)
{
    sl_reference ref;
    sl_err err = {{0}};
    if (sl_reference_norm2(&ref, x, n, dt, 1, &err)) {
        CHECK(0, "reference: %s", err.msg);
        return 0;
    }
    *out = ref.rounded;
    sl_reference_clear(&ref);
    return 1;
}

/* The pass on x[0, n) for launch request s: 1 when it certified (then checked against MPFR). */
static int check_shape(const char *what, const void *x, uint64_t n, sl_dtype dt, int s)
{
    sl_launch cfg = shapes[s];
    sl_variant_resolve(vcorrect, &cfg, n, dt);
    double r = 0.0, want;
    n_total++;
    const int c = sl_psum_norm_host(x, n, dt, &cfg, &r);
    CHECK(c >= 0, "norm2 %s %s: out of memory", what, sl_dtype_name(dt));
    if (c <= 0) return 0;
    n_cert++;
    if (reference(x, n, dt, &want))
        CHECK(bits64(r) == bits64(want), "norm2 %s %s n=%llu block %u grid %u addr %u: certified %a != "
              "correctly rounded %a", what, sl_dtype_name(dt), (unsigned long long)n, cfg.block, cfg.grid,
              cfg.addr_mod, r, want);
    return 1;
}

static long row_dec, row_total, row_rnd_dec, row_rnd_total, row_pushed_dec;

static int same_value(double a, double b) { return (isnan(a) && isnan(b)) || bits64(a) == bits64(b); }

/* The plain float64 sum of x's squares as a row kernel of T threads forms it (thread t: values
 * t, t + T, ... by fma; then a pairwise tree over the threads), and whether x holds an Inf. */
static double row_sum(const void *x, uint64_t n, sl_dtype dt, unsigned T, int *inf)
{
    double part[256];
    *inf = 0;
    for (unsigned t = 0; t < T; t++) {
        double s = 0.0;
        for (uint64_t i = t; i < n; i += T) {
            const double u = td_load(x, dt, i);
            *inf |= fabs(u) == INFINITY;
            s = sl_psum_sq_take(s, u);
        }
        part[t] = s;
    }
    for (unsigned w = T / 2; w > 0; w /= 2)
        for (unsigned t = 0; t < w; t++) part[t] = part[t] + part[t + w];
    return part[0];
}

/* The row decision on x for a warp and a block a row (float32/16-bit); returns how many decided
 * (each checked against the reference). shift: s pushed by that fraction of the row's bound
 * (0: none). */
static int row_check(const char *what, const void *x, uint64_t n, sl_dtype dt, double shift)
{
    if (dt == SL_F64) return 0;
    static const unsigned Ts[2] = {32, 256};
    int k = 0;
    double want = 0.0;
    int have = 0;
    for (int i = 0; i < 2; i++) {
        int inf;
        double s = row_sum(x, n, dt, Ts[i], &inf), r;
        const uint64_t h = sl_nrm_row_chain(n, Ts[i]);
        if (shift != 0.0) s = s + shift * ((double)h * 0x1p-52) * s;
        row_total++;
        if (!sl_nrm_row_decide(s, h, inf, dt, &r)) continue;
        k++;
        row_dec++;
        if (!have) have = reference(x, n, dt, &want);
        if (have)
            CHECK(same_value(r, want), "row decision %s %s n=%llu T=%u (shift %g): %a != correctly rounded %a",
                  what, sl_dtype_name(dt), (unsigned long long)n, Ts[i], shift, r, want);
    }
    return k;
}

/* Every shape: how many certified (and the row decision checked beside them). */
static int check(const char *what, const void *x, uint64_t n, sl_dtype dt)
{
    int k = 0;
    for (int s = 0; s < NSHAPES; s++) k += check_shape(what, x, n, dt, s);
    row_check(what, x, n, dt, 0.0);
    return k;
}

/* The accumulator of x pushed by 0.99 of its bound (both signs); tie: the norm is a tie of dt.
 * The data are small integers or triples: their sums are exact, so the norm lies in the box. */
static void push_check(const void *x, uint64_t n, sl_dtype dt, int tie)
{
    sl_launch cfg = shapes[0];
    sl_variant_resolve(vcorrect, &cfg, n, dt);
    sl_psum_acc t;
    uint64_t h;
    double E, want;
    const int sq = dt != SL_F64;
    if (sl_psum_grid_host(x, NULL, n, dt, &cfg, sq, &t, &h)) return;
    h = (uint64_t)1 << 20;                           /* a wide box */
    if (!(sq ? sl_psum_sq_bound(t.s, h, &E) : sl_psum_bound(&t, n, h, &E)) || !reference(x, n, dt, &want))
        return;
    for (int sg = 0; sg < 2; sg++) {
        const double c = (sq ? 0.0 : t.c) + (sg ? -0.99 : 0.99) * E;
        double r;
        pushed_total++;
        if (sl_psum_root_decide(t.s, c, E, dt, &r)) {
            pushed_cert++;
            tie_cert += tie;
            CHECK(bits64(r) == bits64(want), "pushed (%d) %s n=%llu: %a, the reference %a", sg,
                  sl_dtype_name(dt), (unsigned long long)n, r, want);
        }
    }
}

/* x = v for every element: certifies (when expected) and is checked. */
static void fill(void *x, sl_dtype dt, uint64_t n, double v)
{
    for (uint64_t i = 0; i < n; i++) td_store(x, dt, i, v);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    vcorrect = sl_variant_find_op("norm2", "correct");
    CHECK(vcorrect != NULL, "norm2 correct exists");
    if (!vcorrect) return sl_test_done("tnorm_fast");
    const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    const uint64_t n = 20000;
    void *x = malloc(n * 8);
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        const int p = sl_psum_fmt_p(dt);
        for (int rep = 0; rep < 4; rep++) {          /* uniform and normal: counted */
            const uint64_t m = n - (uint64_t)rep;
            for (uint64_t i = 0; i < m; i++) td_store(x, dt, i, rep & 1 ? sl_test_gauss() : td_unit());
            rnd_total += NSHAPES;
            rnd_cert += check(rep & 1 ? "normal" : "uniform", x, m, dt);
            if (dt != SL_F64) {
                row_rnd_total += 2;
                row_rnd_dec += row_check(rep & 1 ? "normal" : "uniform", x, m, dt, 0.0);
            }
        }
        for (int f = 0; f < TD_NORM_FAMS; f++) {
            CHECK(sl_dataset_find(td_norm_fam[f]) != NULL, "%s exists", td_norm_fam[f]);
            for (int c = 0; c < td_norm_cases(f); c++) {
                sl_err err = {{0}};
                if (td_norm_case(f, c, dt, 1000, x, &err)) continue;
                check_shape(td_norm_fam[f], x, 1000, dt, c % NSHAPES);
            }
        }
        for (int it = 0; it < 60; it++) {            /* scales over the format's range */
            const uint64_t m = 1 + sl_test_rand64() % 3000;
            const int em = dt == SL_F16 ? 12 : dt == SL_F64 ? 1200 : 200;
            for (uint64_t i = 0; i < m; i++)
                td_store(x, dt, i, td_unit() * exp2((double)(int)(sl_test_rand64() % (uint64_t)em) - em / 2));
            check_shape("fuzz", x, m, dt, it % NSHAPES);
        }
        const int sub = dt == SL_F64 ? -1074 : dt == SL_F32 ? -149 : dt == SL_F16 ? -24 : -133;
        for (uint64_t i = 0; i < 1000; i++)          /* subnormal */
            td_store(x, dt, i, ldexp((double)(sl_test_rand64() % 64), sub));
        if (dt == SL_F64) CHECK(!check("subnormal", x, 1000, dt), "float64 subnormals: not certified");
        else CHECK(check("subnormal", x, 1000, dt) > 0, "%s subnormals: certified", sl_dtype_name(dt));
        fill(x, dt, 1000, 0.375);                    /* all equal: sqrt(1000) 0.375 */
        CHECK(check("all equal", x, 1000, dt) == NSHAPES, "%s all equal: certified", sl_dtype_name(dt));
        fill(x, dt, 16, -1.25);                      /* an exact norm: 5 */
        CHECK(check("16 x -1.25", x, 16, dt) == NSHAPES, "%s 16 x -1.25: certified", sl_dtype_name(dt));
        td_store(x, dt, 0, -0.3);
        CHECK(check("n = 1", x, 1, dt) == NSHAPES, "%s n = 1: certified", sl_dtype_name(dt));
        if (dt != SL_F64) {                          /* squares past float16's largest value */
            for (uint64_t i = 0; i < 1000; i++) td_store(x, dt, i, 256.0 + (double)(sl_test_rand64() % 1000));
            CHECK(check("squares > 65504", x, 1000, dt) > 0, "%s squares > 65504: certified", sl_dtype_name(dt));
        }
        const double big = dt == SL_F16 ? 60000.0 : sl_psum_fmt_max(dt);
        fill(x, dt, 1000, big);                      /* the norm past the largest value */
        CHECK(!check("norm past the largest", x, 1000, dt), "%s norm past the largest: not certified",
              sl_dtype_name(dt));
        CHECK(dt == SL_F64 || row_check("norm past the largest", x, 1000, dt, 0.0) == 2,
              "%s norm past the largest: the row decision +Inf", sl_dtype_name(dt));
        fill(x, dt, 1000, 0.0);
        td_store(x, dt, 7, -0.0);
        CHECK(!check("zeros", x, 1000, dt), "norm2 of zeros %s: not certified", sl_dtype_name(dt));
        CHECK(dt == SL_F64 || row_check("zeros", x, 1000, dt, 0.0) == 2, "%s zeros: the row decision +0",
              sl_dtype_name(dt));
        td_store(x, dt, 5, NAN);
        CHECK(!check("a NaN", x, 1000, dt), "norm2 with a NaN %s: not certified", sl_dtype_name(dt));
        CHECK(dt == SL_F64 || row_check("a NaN", x, 1000, dt, 0.0) == 2, "%s a NaN: the row decision NaN",
              sl_dtype_name(dt));
        td_store(x, dt, 5, INFINITY);
        CHECK(!check("an Inf", x, 1000, dt), "norm2 with an Inf %s: not certified", sl_dtype_name(dt));
        td_store(x, dt, 9, NAN);
        CHECK(dt == SL_F64 || row_check("an Inf beside a NaN", x, 1000, dt, 0.0) == 2,
              "%s an Inf beside a NaN: the row decision +Inf", sl_dtype_name(dt));
        if (dt == SL_F64) {
            fill(x, dt, 1000, 1e200);
            CHECK(!check("1e200", x, 1000, dt), "float64 1e200 (squares overflow): not certified");
            fill(x, dt, 1000, -1e-200);
            CHECK(!check("1e-200", x, 1000, dt), "float64 1e-200 (squares vanish): not certified");
            for (uint64_t i = 0; i < 1000; i += 100) td_store(x, dt, i, td_unit());
            CHECK(check("1e-200 beside ordinary", x, 1000, dt) == NSHAPES, "float64 1e-200 beside ordinary values: certified");
            fill(x, dt, 1000, 0x1p-300);
            CHECK(check("2^-300", x, 1000, dt) == NSHAPES, "float64 2^-300: certified");
            fill(x, dt, 1000, 0x1p400);
            CHECK(check("2^400", x, 1000, dt) == NSHAPES, "float64 2^400: certified");
            fill(x, dt, 1000, 0x1p-490);
            CHECK(!check("2^-490", x, 1000, dt), "float64 2^-490 (norm below 2^-480): not certified");
        }
        /* ties: a = k^2 - l^2, b = 2 k l, hypotenuse k^2 + l^2 odd with p + 1 bits */
        int ties = 0;
        /* float64: k near 1.44 2^26, l from 1.125 2^24 (a, b < 2^53 <= k^2 + l^2 < 2^54) */
        const uint64_t k0 = dt == SL_F64 ? (uint64_t)0x1.7p26 : 2, l0 = dt == SL_F64 ? (uint64_t)0x1.2p24 : 0;
        for (uint64_t k = k0; k * k < ((uint64_t)1 << (p + 1)) && ties < 60; k++)
            for (uint64_t l = l0 + 1 + (k & 1); l < k && ties < 60; l += 2 + 2 * (sl_test_rand64() % 7)) {
                const uint64_t m = k * k + l * l, a = k * k - l * l, b = 2 * k * l;
                if (m >= ((uint64_t)1 << (p + 1)) || b >= ((uint64_t)1 << p)) break;   /* both grow with l */
                if (m < ((uint64_t)1 << p) || a >= ((uint64_t)1 << p)) continue;
                td_store(x, dt, 0, (double)a);
                td_store(x, dt, 1, (double)b);
                push_check(x, 2, dt, 1);
                CHECK(!check("tie", x, 2, dt), "%s tie %llu^2 + %llu^2: not certified", sl_dtype_name(dt),
                      (unsigned long long)a, (unsigned long long)b);
                CHECK(!row_check("tie", x, 2, dt, 0.0), "%s tie %llu^2 + %llu^2: no row decision",
                      sl_dtype_name(dt), (unsigned long long)a, (unsigned long long)b);
                ties++;
            }
        CHECK(ties > 0, "no tie built for %s", sl_dtype_name(dt));
        for (int it = 0; it < 200; it++) {           /* small integers: exact sums, pushed */
            const uint64_t m = 1 + sl_test_rand64() % 60;
            for (uint64_t i = 0; i < m; i++)
                td_store(x, dt, i, (double)((int)(sl_test_rand64() % 31) - 15));
            push_check(x, m, dt, 0);
            row_pushed_dec += row_check("pushed +0.99", x, m, dt, 0.99);
            row_pushed_dec += row_check("pushed -0.99", x, m, dt, -0.99);
        }
    }
    printf("tnorm_fast: %ld of %ld runs certified, each the reference's bits; uniform/normal %ld of %ld; "
           "pushed %ld of %ld (ties %ld)\n", n_cert, n_total, rnd_cert, rnd_total, pushed_cert, pushed_total,
           tie_cert);
    CHECK(rnd_cert * 100 >= rnd_total * 95, "uniform/normal certified %ld of %ld", rnd_cert, rnd_total);
    CHECK(tie_cert == 0, "a tie certified %ld times", tie_cert);
    CHECK(pushed_cert > 0, "no pushed accumulator certified");
    printf("tnorm_fast: row decisions %ld of %ld, each the reference's bits; uniform/normal %ld of %ld; "
           "pushed %ld\n", row_dec, row_total, row_rnd_dec, row_rnd_total, row_pushed_dec);
    CHECK(row_rnd_dec * 100 >= row_rnd_total * 95, "uniform/normal rows decided %ld of %ld", row_rnd_dec,
          row_rnd_total);
    CHECK(row_pushed_dec > 0, "no pushed row sum decided");
    free(x);
    return sl_test_done("tnorm_fast");
}

/* tlib.c: libsumlab's host side (sumlab/sumlab.h) against the layers it wraps: every variant
 * with a twin through sumlab_reduce_host equals sl_variant_cpu bit for bit, the exact variant and
 * sumlab_exact_hex equal the reference, the judge rounds a decimal once, the states give the same
 * bytes for any split and permutation and merge as saved bytes, and every error path returns its
 * status with a message. */
#include <math.h>
#include "sl_ops.h"
#include "sl_reference.h"
#include "sl_state.h"
#include "sl_test.h"
#include "sl_variants.h"
#include "sumlab/half.h"
#include "sumlab/sumlab.h"

static int same(double a, double b) { return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a); }

/* n values of dt: signed, magnitudes over 2^-12..2^12, with a few cancelling pairs. */
static void *gen(uint64_t n, sl_dtype dt)
{
    const size_t es = sl_dtype_size(dt);
    unsigned char *x = aligned_alloc(256, (size_t)((n * es + 256) / 256 * 256));
    if (!x) return NULL;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = sl_test_rand64();
        double u = (double)(r >> 11) * 0x1p-53 - 0.5;
        double v = ldexp(u, (int)(sl_test_rand64() % 25) - 12);
        if (i % 97 == 1) v = -ldexp(1.0, 11);          /* cancellation against the next */
        if (i % 97 == 2) v = ldexp(1.0, 11);
        if (dt == SL_F64) memcpy(x + i * es, &v, 8);
        else if (dt == SL_F32) { float f = (float)v; memcpy(x + i * es, &f, 4); }
        else { uint16_t h = sl_half_from_double(v, dt); memcpy(x + i * es, &h, 2); }
    }
    return x;
}

static void check_twins(sl_dtype dt, uint64_t n)
{
    void *x = gen(n, dt);
    CHECK(x != NULL, "out of memory");
    if (!x) return;
    sl_reference ref;
    sl_err e = {{0}};
    CHECK(!sl_reference_compute(&ref, x, n, dt, &e), "%s", e.msg);
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (strcmp(v->op, "sum")) continue; /* the sum's variants against the sum's reference */
        if (!(v->dtypes & SL_DTYPE_MASK(dt)) || (v->max_n && n > v->max_n)) continue;
        double got = NAN, want = NAN;
        sumlab_status st = sumlab_reduce_host("sum", v->name, x, NULL, n, dt, NULL, &got, &e);
        if (sl_op_is_exact(v)) {
            CHECK(st == SUMLAB_OK, "%s: %s", v->name, e.msg);
            CHECK(same(got, ref.rounded), "exact %s n=%llu: %a, reference %a", sl_dtype_name(dt),
                  (unsigned long long)n, got, ref.rounded);
            continue;
        }
        if (!v->cpu) {
            CHECK(st == SUMLAB_EUNSUPPORTED && e.msg[0], "%s (no twin): status %d", v->name, (int)st);
            continue;
        }
        sl_launch cfg;
        memset(&cfg, 0, sizeof cfg);
        sl_variant_resolve(v, &cfg, n, dt);
        CHECK(!sl_variant_cpu(v, x, n, dt, &cfg, &want, &e), "%s: %s", v->name, e.msg);
        CHECK(st == SUMLAB_OK, "%s %s n=%llu: status %d: %s", v->name, sl_dtype_name(dt),
              (unsigned long long)n, (int)st, e.msg);
        /* nondeterministic twins: the same sampled commit order (order seed 0) both ways */
        CHECK(same(got, want), "%s %s n=%llu: library %a, twin %a", v->name, sl_dtype_name(dt),
              (unsigned long long)n, got, want);
    }
    char *hex = NULL;
    sl_exact_text t;
    CHECK(sumlab_exact_hex("sum", x, NULL, n, dt, &hex, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(!sl_reference_exact_text(&ref, &t), "exact text");
    CHECK(hex && !strcmp(hex, t.hex), "exact hex %s, reference %s", hex ? hex : "(null)", t.hex);
    sl_exact_text_free(&t);
    sumlab_free(hex);
    sl_reference_clear(&ref);
    free(x);
}

/* A launch request reaches the twin: block, grid and sm_count (sm_count limits the grid a
 * resolve derives) give the twin's bits for that configuration; a request the twin refuses is
 * refused with its message. */
static void check_launch(sl_dtype dt, uint64_t n)
{
    void *x = gen(n, dt);
    CHECK(x != NULL, "out of memory");
    if (!x) return;
    const sumlab_launch reqs[] = {{128, 5, 0, 0}, {0, 0, 0, 16}, {256, 0, 0, 3}, {64, 0, 0, 0}};
    long differ = 0;
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (strcmp(v->op, "sum")) continue; /* reduced as "sum" below */
        if (!v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt)) || (v->max_n && n > v->max_n)) continue;
        double dflt = NAN;
        sl_err e = {{0}};
        CHECK(sumlab_reduce_host("sum", v->name, x, NULL, n, dt, NULL, &dflt, &e) == SUMLAB_OK, "%s", e.msg);
        for (size_t r = 0; r < sizeof reqs / sizeof reqs[0]; r++) {
            sl_launch cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.block = reqs[r].block;
            cfg.grid = reqs[r].grid;
            cfg.sm_count = reqs[r].sm_count;
            sl_variant_resolve(v, &cfg, n, dt);
            double want = NAN, got = NAN;
            int trc = sl_variant_cpu(v, x, n, dt, &cfg, &want, &e);
            sumlab_status st = sumlab_reduce_host("sum", v->name, x, NULL, n, dt, &reqs[r], &got, &e);
            if (trc) {
                CHECK(st == SUMLAB_EINVAL && e.msg[0], "%s launch %zu: twin refuses, library status %d",
                      v->name, r, (int)st);
                continue;
            }
            CHECK(st == SUMLAB_OK, "%s launch %zu: %s", v->name, r, e.msg);
            CHECK(same(got, want), "%s launch %zu: library %a, twin %a", v->name, r, got, want);
            if (!same(got, dflt)) differ++;
        }
    }
    CHECK(differ > 0, "no launch request changed any variant's bits (requests not passed on?)");
    free(x);
}

static void check_judge(void)
{
    float f = 0.1f;
    sumlab_judgement j;
    sl_err e = {{0}};
    CHECK(sumlab_judge("sum", &f, NULL, 1, SL_F32, 0.100000001, 0, "serial", &j, &e) == SUMLAB_OK,
          "%s", e.msg);
    CHECK(j.ulps == 0 && j.abs_err == 0, "judge [0.1f] value 0.100000001: %g ulps, abs_err %g", j.ulps,
          j.abs_err);
    CHECK(same(j.exact, (double)0.1f), "exact %a", j.exact);
    CHECK(j.cond == 1, "cond %g", j.cond);
    CHECK(!isnan(j.bound) && j.bound_ratio == 0, "bound %g ratio %g", j.bound, j.bound_ratio);
    /* the same decimal taken as exact is no float32 value */
    e.msg[0] = '\0';
    CHECK(sumlab_judge("sum", &f, NULL, 1, SL_F32, 0.100000001, 1, NULL, &j, &e) == SUMLAB_EINVAL &&
          e.msg[0], "value_is_exact with a non-float32 value");
    /* the next float32 up: 1 ulp */
    float g = nextafterf(f, 1.0f);
    CHECK(sumlab_judge("sum", &f, NULL, 1, SL_F32, (double)g, 1, NULL, &j, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(j.ulps == 1 && isnan(j.bound), "next float: %g ulps, bound %g", j.ulps, j.bound);
    /* float16: 0.1 rounds once to the float16 nearest */
    uint16_t h = sl_half_from_double(0.1, SL_F16);
    CHECK(sumlab_judge("sum", &h, NULL, 1, SL_F16, 0.1, 0, NULL, &j, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(j.ulps == 0, "float16 0.1: %g ulps", j.ulps);
}

/* sumlab_judge_as: a float64 value of float32 input judged with its own bits (value_as SL_F64),
 * or rounded once to float32 (value_as SL_F32, = sumlab_judge); S as text equals
 * sumlab_exact_hex and the hand-computed decimal and bit count. x = {1, 2^-30}: S = 1 + 2^-30,
 * 31 bits; float32 holds 1. */
/* sumlab_params: the defaults (ddof 1), refused values (reserved fields, ddof beyond the limit)
 * in every _ex call, and the sum (which ignores ddof) the same whatever ddof. */
static void check_params(void)
{
    float x[3] = {1.0f, 2.0f, 4.0f};
    sl_err e = {{0}};
    const sumlab_params d = sumlab_params_default();
    CHECK(d.ddof == 1, "default ddof %u", d.ddof);
    sumlab_params bad = d, big = d, zero = d;
    bad.reserved[3] = 7;
    big.ddof = 1000001;
    zero.ddof = 0;
    double r = 0, r0 = 0;
    sumlab_judgement j;
    char *hex = NULL;
    CHECK(sumlab_reduce_host_ex("sum", &bad, "superacc", x, NULL, 3, SL_F32, NULL, &r, &e) == SUMLAB_EINVAL &&
          strstr(e.msg, "reserved"), "reserved field: %s", e.msg);
    CHECK(sumlab_reduce_host_ex("sum", &big, "superacc", x, NULL, 3, SL_F32, NULL, &r, &e) == SUMLAB_EINVAL &&
          strstr(e.msg, "ddof"), "ddof too large: %s", e.msg);
    CHECK(sumlab_judge_ex("sum", &big, x, NULL, 3, SL_F32, 7.0, SL_F32, NULL, &j, NULL, &e) == SUMLAB_EINVAL,
          "judge_ex with a bad ddof was taken");
    CHECK(sumlab_exact_hex_ex("sum", &bad, x, NULL, 3, SL_F32, &hex, &e) == SUMLAB_EINVAL && !hex,
          "exact_hex_ex with a reserved field was taken");
    CHECK(sumlab_reduce_host_ex("sum", &zero, "superacc", x, NULL, 3, SL_F32, NULL, &r0, &e) == SUMLAB_OK &&
          sumlab_reduce_host_ex("sum", NULL, "superacc", x, NULL, 3, SL_F32, NULL, &r, &e) == SUMLAB_OK && r == 7.0 &&
          r0 == 7.0, "sum with ddof 0 / default: %g %g (%s)", r0, r, e.msg);
}

static void check_judge_as(void)
{
    float x[2] = {1.0f, 0x1p-30f};
    const double s = 1.0 + 0x1p-30;
    sumlab_judgement j, k;
    sumlab_exact S;
    sl_err e = {{0}};
    CHECK(sumlab_judge_as("sum", x, NULL, 2, SL_F32, s, SL_F64, NULL, &j, &S, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(j.abs_err == 0 && j.ulps_f64 == 0 && j.ulps == 0, "float64 value kept: abs_err %g ulps_f64 %g ulps %g",
          j.abs_err, j.ulps_f64, j.ulps);
    CHECK(same(j.exact, 1.0) && same(j.exact_f64, s), "exact %a exact_f64 %a", j.exact, j.exact_f64);
    CHECK(S.hex && !strcmp(S.hex, "0x1.00000004p+0"), "exact hex %s", S.hex ? S.hex : "(null)");
    CHECK(S.dec && !strcmp(S.dec, "1.0000000009e+0") && S.bits == 31, "exact dec %s, %ld bits", S.dec ? S.dec : "(null)",
          S.bits);
    char *hex = NULL;
    CHECK(sumlab_exact_hex("sum", x, NULL, 2, SL_F32, &hex, &e) == SUMLAB_OK && hex && !strcmp(hex, S.hex),
          "sumlab_exact_hex %s vs %s", hex ? hex : "(null)", S.hex ? S.hex : "(null)");
    sumlab_free(hex);
    sumlab_exact_free(&S);
    CHECK(!S.hex && !S.dec, "sumlab_exact_free clears");
    /* value_as = dt: rounded once to float32 first, as sumlab_judge with value_is_exact = 0 */
    CHECK(sumlab_judge_as("sum", x, NULL, 2, SL_F32, s, SL_F32, "serial", &j, NULL, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(sumlab_judge("sum", x, NULL, 2, SL_F32, s, 0, "serial", &k, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(same(j.abs_err, 0x1p-30) && same(j.abs_err, k.abs_err) && same(j.ulps, k.ulps) && same(j.bound, k.bound),
          "value_as float32: abs_err %a/%a ulps %g/%g", j.abs_err, k.abs_err, j.ulps, k.ulps);
    /* float16 value of float32 input: 1 + 2^-30 rounds to 1 */
    CHECK(sumlab_judge_as("sum", x, NULL, 2, SL_F32, s, SL_F16, NULL, &j, NULL, &e) == SUMLAB_OK && same(j.abs_err, 0x1p-30),
          "value_as float16: abs_err %a", j.abs_err);
    /* a format that is none: EINVAL, S zeroed */
    S.hex = (char *)"stale";
    e.msg[0] = '\0';
    CHECK(sumlab_judge_as("sum", x, NULL, 2, SL_F32, s, (sl_dtype)SL_NDTYPES, NULL, &j, &S, &e) == SUMLAB_EINVAL &&
          e.msg[0] && !S.hex, "value_as out of range");
}

/* Every error path: its status and a message. */
#define EXPECT(call, status)                                                                      \
    do {                                                                                          \
        sl_err e_ = {{0}};                                                                        \
        sl_err *err = &e_;                                                                        \
        sumlab_status st_ = (call);                                                               \
        CHECK(st_ == (status), "%s: status %d, expected %d (%s)", #call, (int)st_, (int)(status), \
              e_.msg);                                                                            \
        CHECK(e_.msg[0] != '\0', "%s: no message", #call);                                        \
    } while (0)

static void check_errors(void)
{
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    double r;
    const sl_variant *half_only = NULL, *capped = NULL;
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (!half_only && v->cpu && !(v->dtypes & SL_DTYPE_MASK(SL_F64))) half_only = v;
        if (!capped && v->cpu && v->max_n) capped = v;
    }
    EXPECT(sumlab_reduce_host("nosuchop", "serial", x, NULL, 8, SL_F32, NULL, &r, err), SUMLAB_EINVAL);
    {   /* launch requests outside the CLI's limits (a block that is no power of two, ...) */
        const sumlab_launch bad[] = {{100, 0, 0, 0}, {16, 0, 0, 0}, {2048, 0, 0, 0}, {0, 0x80000000u, 0, 0},
                                     {0, 0, (1u << 20) + 1, 0}};
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
            EXPECT(sumlab_reduce_host("sum", "warp-shuffle", x, NULL, 8, SL_F32, &bad[k], &r, err), SUMLAB_EINVAL);
        const sumlab_launch good = {128, 4, 0, 0};
        sl_err ge = {{0}};
        CHECK(sumlab_reduce_host("sum", "warp-shuffle", x, NULL, 8, SL_F32, &good, &r, &ge) == SUMLAB_OK,
              "block 128 grid 4 refused: %s", ge.msg);
    }
    EXPECT(sumlab_reduce_host("sum", "nosuchvariant", x, NULL, 8, SL_F32, NULL, &r, err), SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_host("sum", NULL, x, NULL, 8, SL_F32, NULL, &r, err), SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_host("sum", "serial", NULL, NULL, 8, SL_F32, NULL, &r, err), SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_host("sum", "serial", x, x, 8, SL_F32, NULL, &r, err), SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_host("sum", "serial", x, NULL, 8, (sl_dtype)9, NULL, &r, err), SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_host("sum", "serial", x, NULL, (uint64_t)1 << 40, SL_F32, NULL, &r, err),
           SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_host("sum", "serial", (const char *)x + 1, NULL, 4, SL_F32, NULL, &r, err),
           SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_host("sum", "cub", x, NULL, 8, SL_F32, NULL, &r, err), SUMLAB_EUNSUPPORTED);
    CHECK(half_only != NULL, "no variant refuses float64 (the dtype test needs one)");
    if (half_only)
        EXPECT(sumlab_reduce_host("sum", half_only->name, x, NULL, 4, SL_F64, NULL, &r, err), SUMLAB_EINVAL);
    CHECK(capped != NULL, "no variant with a max_n (the n test needs one)");
    if (capped) {
        void *big = malloc(8);   /* never read: the length is refused first */
        EXPECT(sumlab_reduce_host("sum", capped->name, big, NULL, capped->max_n + 1, SL_F32, NULL, &r, err),
               SUMLAB_EINVAL);
        free(big);
    }
    /* an operation that is not registered (`sum` is the only one today, so "a variant of another
     * operation" cannot be built from the registry yet; sl_lib_check_call refuses it) */
    EXPECT(sumlab_reduce_host("dot", "serial", x, x, 8, SL_F32, NULL, &r, err), SUMLAB_EINVAL);
    /* dot through the library: the twin over x and y equals the exact row; y is required */
    {
        double rc_ = NAN, re_ = NAN;
        sl_err de = {{0}};
        CHECK(sumlab_reduce_host("dot", "correct", x, x, 8, SL_F32, NULL, &rc_, &de) == SUMLAB_OK, "%s", de.msg);
        CHECK(sumlab_reduce_host("dot", "exact", x, x, 8, SL_F32, NULL, &re_, &de) == SUMLAB_OK, "%s", de.msg);
        CHECK(rc_ == re_ && re_ == 204.0, "dot correct %a, exact %a, want 204", rc_, re_);
        EXPECT(sumlab_reduce_host("dot", "correct", x, NULL, 8, SL_F32, NULL, &rc_, err), SUMLAB_EINVAL);
    }
    sumlab_variant_info vi;
    CHECK(sumlab_variant_find("serial", &vi, NULL) == SUMLAB_OK, "serial");
    double *dr = (double *)x;   /* no device memory here: a build without a GPU refuses */
    sumlab_status dst = sumlab_reduce_device("sum", "serial", x, NULL, 8, SL_F32, NULL, dr, NULL, NULL);
    CHECK(dst != SUMLAB_OK, "sumlab_reduce_device on host memory returned OK");
    EXPECT(sumlab_reduce_device("sum", "nosuchvariant", x, NULL, 8, SL_F32, NULL, dr, NULL, err),
           SUMLAB_EINVAL);
    EXPECT(sumlab_reduce_device("sum", "exact", x, NULL, 8, SL_F32, NULL, dr, NULL, err),
           SUMLAB_EUNSUPPORTED);
    sumlab_judgement j;
    EXPECT(sumlab_judge("sum", NULL, NULL, 8, SL_F32, 1.0, 0, NULL, &j, err), SUMLAB_EINVAL);
    EXPECT(sumlab_judge("sum", x, NULL, 8, SL_F32, 1.0, 0, "nosuchvariant", &j, err), SUMLAB_EINVAL);
    EXPECT(sumlab_judge("nosuchop", x, NULL, 8, SL_F32, 1.0, 0, NULL, &j, err), SUMLAB_EINVAL);
    char *hex;
    EXPECT(sumlab_exact_hex("sum", NULL, NULL, 8, SL_F32, &hex, err), SUMLAB_EINVAL);
    sumlab_op_info oi;
    EXPECT(sumlab_op_find("nosuchop", &oi, err), SUMLAB_EINVAL);
    EXPECT(sumlab_op_at(sumlab_op_count(), &oi, err), SUMLAB_EINVAL);
    EXPECT(sumlab_variant_at(sumlab_variant_count(), &vi, err), SUMLAB_EINVAL);
    EXPECT(sumlab_variant_find("nosuchvariant", &vi, err), SUMLAB_EINVAL);
    sumlab_state *s = NULL;
    EXPECT(sumlab_state_new("serial", SL_F32, &s, err), SUMLAB_EUNSUPPORTED);
    EXPECT(sumlab_state_new("nosuchvariant", SL_F32, &s, err), SUMLAB_EINVAL);
    EXPECT(sumlab_state_new("superacc", (sl_dtype)9, &s, err), SUMLAB_EINVAL);
    EXPECT(sumlab_state_info(NULL, NULL, NULL, err), SUMLAB_EINVAL);
    CHECK(s == NULL, "no state on failure");
}

static void check_registries(void)
{
    CHECK(!strcmp(sumlab_version(), "0.2.0"), "version %s", sumlab_version());
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", SUMLAB_VERSION_MAJOR, SUMLAB_VERSION_MINOR, SUMLAB_VERSION_PATCH);
    CHECK(!strcmp(sumlab_version(), want), "version %s, header %s", sumlab_version(), want);
    CHECK(sumlab_op_count() == sl_op_count(), "op count");
    sumlab_op_info oi;
    CHECK(sumlab_op_find("sum", &oi, NULL) == SUMLAB_OK && oi.inputs == 1 && !strcmp(oi.exact_variant, "exact"),
          "sum's info");
    CHECK(sumlab_variant_count() == sl_variant_count(), "variant count");
    {   /* no device call made: no scratch held (and NULL pointers taken) */
        size_t nb = 7, bytes = 7;
        sumlab_cache_info(&nb, &bytes, NULL);
        sumlab_cache_info(NULL, NULL, NULL);
        CHECK(nb == 0 && bytes == 0, "scratch before any device call: %zu buffers, %zu bytes", nb, bytes);
    }
    {   /* var's reproducible has no state (sumlab_state_new would make a sum's) */
        int other_with_name = 0;
        for (size_t i = 0; i < sumlab_variant_count(); i++) {
            sumlab_variant_info vi;
            if (sumlab_variant_at(i, &vi, NULL) == SUMLAB_OK && strcmp(vi.op, "sum") && sl_state_kind_find(vi.name)) {
                other_with_name++;
                CHECK(!vi.has_state, "%s of %s: has_state", vi.name, vi.op);
            }
        }
        CHECK(other_with_name > 0, "no other operation's variant shares a state kind's name");
    }
    for (size_t i = 0; i < sumlab_variant_count(); i++) {
        sumlab_variant_info vi, vf;
        const sl_variant *v = sl_variant_at(i);
        CHECK(sumlab_variant_at(i, &vi, NULL) == SUMLAB_OK, "variant %zu", i);
        CHECK(sumlab_variant_find(v->name, &vf, NULL) == SUMLAB_OK && !strcmp(vf.name, v->name), "%s", v->name);
        CHECK(!strcmp(vi.name, v->name) && vi.dtypes == v->dtypes && vi.max_n == v->max_n &&
              !strcmp(vi.determinism, sl_determinism_name(v->determinism)) && !strcmp(vi.op, v->op),
              "%s: info differs from the registry", v->name);
        CHECK(vi.has_cpu == (sl_variant_has_cpu(v) || sl_op_is_exact(v)), "%s has_cpu", v->name);
        CHECK(vi.has_gpu == sl_variant_has_gpu(v), "%s has_gpu", v->name);
        /* a state is a sum's: another operation's variant of a state kind's name has none */
        CHECK(vi.has_state == (!strcmp(v->op, "sum") && sl_state_kind_find(v->name) != NULL), "%s (%s) has_state",
              v->name, v->op);
    }
}

/* Random splits and element permutations give the same saved bytes and result. */
static void check_states(const char *variant, sl_dtype dt, uint64_t n)
{
    const size_t es = sl_dtype_size(dt);
    unsigned char *x = gen(n, dt), *p = malloc(n * es + 1);
    sl_err e = {{0}};
    CHECK(x && p, "out of memory");
    if (!x || !p) { free(x); free(p); return; }
    sumlab_state *whole = NULL;
    CHECK(sumlab_state_new(variant, dt, &whole, &e) == SUMLAB_OK, "%s", e.msg);
    if (!whole) { free(x); free(p); return; }
    CHECK(sumlab_state_add(whole, x, n, &e) == SUMLAB_OK, "%s", e.msg);
    size_t bytes = sumlab_state_size(whole);
    unsigned char *wb = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    CHECK(wb && b && c, "out of memory");
    CHECK(sumlab_state_save(whole, wb, bytes, &e) == SUMLAB_OK, "%s", e.msg);
    double want = NAN, got = NAN;
    CHECK(sumlab_reduce_host("sum", variant, x, NULL, n, dt, NULL, &want, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(sumlab_state_result(whole, &got, &e) == SUMLAB_OK && same(got, want),
          "%s %s n=%llu: state result %a, reduce %a", variant, sl_dtype_name(dt), (unsigned long long)n, got, want);
    for (int trial = 0; trial < 6; trial++) {
        memcpy(p, x, n * es);
        for (uint64_t i = n; trial && i > 1; i--) {   /* trial 0: the input's order */
            uint64_t j = sl_test_rand64() % i;
            unsigned char t[8];
            memcpy(t, p + (i - 1) * es, es);
            memcpy(p + (i - 1) * es, p + j * es, es);
            memcpy(p + j * es, t, es);
        }
        /* two states over random pieces (alternating), merged as states and as bytes */
        sumlab_state *s1 = NULL, *s2 = NULL;
        CHECK(sumlab_state_new(variant, dt, &s1, &e) == SUMLAB_OK, "%s", e.msg);
        CHECK(sumlab_state_new(variant, dt, &s2, &e) == SUMLAB_OK, "%s", e.msg);
        if (!s1 || !s2) { sumlab_state_free(s1); sumlab_state_free(s2); break; }
        int k = 0;
        for (uint64_t i = 0; i < n; k++) {
            uint64_t m = 1 + sl_test_rand64() % (n / 3 + 1);
            if (m > n - i) m = n - i;
            CHECK(sumlab_state_add(k % 2 ? s2 : s1, p + i * es, m, &e) == SUMLAB_OK, "%s", e.msg);
            i += m;
        }
        CHECK(sumlab_state_save(s2, b, bytes, &e) == SUMLAB_OK, "%s", e.msg);
        CHECK(sumlab_state_save(s1, c, bytes, &e) == SUMLAB_OK, "%s", e.msg);
        CHECK(sumlab_state_merge_saved(b, c, bytes, &e) == SUMLAB_OK, "%s", e.msg);
        CHECK(!memcmp(b, wb, bytes), "%s %s n=%llu trial %d: merged saved bytes differ from the whole's",
              variant, sl_dtype_name(dt), (unsigned long long)n, trial);
        CHECK(sumlab_state_merge(s1, s2, &e) == SUMLAB_OK, "%s", e.msg);
        CHECK(sumlab_state_save(s1, c, bytes, &e) == SUMLAB_OK && !memcmp(c, wb, bytes),
              "%s %s trial %d: merged state's bytes differ", variant, sl_dtype_name(dt), trial);
        sumlab_state *l = NULL;
        CHECK(sumlab_state_load(b, bytes, &l, &e) == SUMLAB_OK, "%s", e.msg);
        const char *lv = NULL;
        sl_dtype ldt = (sl_dtype)-1;
        CHECK(l && sumlab_state_info(l, &lv, &ldt, &e) == SUMLAB_OK && lv && !strcmp(lv, variant) && ldt == dt,
              "loaded state's info: %s %d", lv ? lv : "(null)", (int)ldt);
        CHECK(l && sumlab_state_result(l, &got, &e) == SUMLAB_OK && same(got, want),
              "%s %s trial %d: loaded result %a, want %a", variant, sl_dtype_name(dt), trial, got, want);
        sumlab_state_free(l);
        sumlab_state_free(s1);
        sumlab_state_free(s2);
    }
    /* a state merged into itself holds every input twice: the state of x followed by x */
    {
        unsigned char *xx = malloc(2 * n * es + 1);
        sumlab_state *twice = NULL, *self = NULL;
        CHECK(xx != NULL, "out of memory");
        if (xx) {
            memcpy(xx, x, n * es);
            memcpy(xx + n * es, x, n * es);
            CHECK(sumlab_state_new(variant, dt, &twice, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_add(twice, xx, 2 * n, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_load(wb, bytes, &self, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_merge(self, self, &e) == SUMLAB_OK, "%s", e.msg);
            CHECK(sumlab_state_save(twice, b, bytes, &e) == SUMLAB_OK &&
                  sumlab_state_save(self, c, bytes, &e) == SUMLAB_OK && !memcmp(b, c, bytes),
                  "%s %s: a state merged into itself differs from the state of the input twice",
                  variant, sl_dtype_name(dt));
        }
        sumlab_state_free(twice);
        sumlab_state_free(self);
        free(xx);
    }
    /* wrong kind or dtype: EINVAL, nothing changed */
    const char *other = strcmp(variant, "superacc") ? "superacc" : "reproducible";
    sumlab_state *o = NULL, *od = NULL;
    CHECK(sumlab_state_new(other, dt, &o, &e) == SUMLAB_OK, "%s", e.msg);
    CHECK(sumlab_state_new(variant, dt == SL_F64 ? SL_F32 : SL_F64, &od, &e) == SUMLAB_OK, "%s", e.msg);
    EXPECT(sumlab_state_merge(whole, o, err), SUMLAB_EINVAL);
    EXPECT(sumlab_state_merge(whole, od, err), SUMLAB_EINVAL);
    size_t ob = sumlab_state_size(o);
    unsigned char *obuf = malloc(ob > bytes ? ob : bytes);
    CHECK(obuf && sumlab_state_save(o, obuf, ob, &e) == SUMLAB_OK, "%s", e.msg);
    memcpy(b, wb, bytes);
    if (ob == bytes) EXPECT(sumlab_state_merge_saved(b, obuf, bytes, err), SUMLAB_EINVAL);
    EXPECT(sumlab_state_merge_saved(b, obuf, ob == bytes ? bytes : (ob < bytes ? ob : bytes), err),
           SUMLAB_EINVAL);
    CHECK(!memcmp(b, wb, bytes), "a refused merge changed the bytes");
    EXPECT(sumlab_state_save(whole, b, bytes - 1, err), SUMLAB_EINVAL);
    memset(obuf, 0x5a, bytes);
    sumlab_state *bad = NULL;
    EXPECT(sumlab_state_load(obuf, bytes, &bad, err), SUMLAB_EINVAL);
    EXPECT(sumlab_state_load(wb, bytes - 8, &bad, err), SUMLAB_EINVAL);
    CHECK(bad == NULL, "no state from bad bytes");
    /* a valid header over a damaged payload (every byte after the header 0x7f, 0x80 or 0xff; one
     * word set to 2^40 + 5): load and merge_saved refuse it, the merge's destination unchanged
     * (they gave NaN or Inf as results with SUMLAB_OK) */
    {
        const unsigned char fills[] = {0x7f, 0x80, 0xff};
        for (size_t f = 0; f <= sizeof fills; f++) {
            memcpy(obuf, wb, bytes);
            if (f < sizeof fills) memset(obuf + 16, fills[f], bytes - 16);
            else {
                const int64_t big = ((int64_t)1 << 40) + 5;
                memcpy(obuf + 16, &big, 8);     /* the first limb / the index word */
            }
            bad = NULL;
            memset(&e, 0, sizeof e);
            CHECK(sumlab_state_load(obuf, bytes, &bad, &e) == SUMLAB_EINVAL && bad == NULL && strstr(e.msg, "damaged"),
                  "%s %s: a damaged payload (%d) loaded: %s", variant, sl_dtype_name(dt), (int)f, e.msg);
            memcpy(b, wb, bytes);
            CHECK(sumlab_state_merge_saved(b, obuf, bytes, &e) == SUMLAB_EINVAL && !memcmp(b, wb, bytes),
                  "%s %s: a damaged payload (%d) merged", variant, sl_dtype_name(dt), (int)f);
            sumlab_state_free(bad);
        }
        /* limbs that make no state: an index out of range, or limbs beyond a normalised state's;
         * the state unchanged */
        const size_t m = sumlab_state_limb_count(whole);
        int64_t *limbs = calloc(m + 1, sizeof *limbs);
        int32_t idx = 0;
        CHECK(limbs && sumlab_state_index(whole, &idx, &e) == SUMLAB_OK &&
              sumlab_state_to_limbs(whole, idx, limbs, m, &e) == SUMLAB_OK, "%s", e.msg);
        if (limbs) {
            CHECK(sumlab_state_from_limbs(whole, idx, limbs, m, &e) == SUMLAB_OK, "%s: its own limbs: %s", variant, e.msg);
            if (!strcmp(variant, "reproducible"))
                CHECK(sumlab_state_from_limbs(whole, 0x7fffffff, limbs, m, &e) == SUMLAB_EINVAL,
                      "reproducible %s: index 2^31 - 1 accepted", sl_dtype_name(dt));
            /* limbs no ranks' states sum to: reproducible's top fold near 2^63 (beyond every
             * normalised state's headroom), superacc's count of inputs negative, exact's count of
             * NaNs above its count of inputs */
            if (!strcmp(variant, "reproducible")) limbs[0] = (int64_t)0x7f7f7f7f7f7f7f7fll;
            else if (!strcmp(variant, "superacc")) limbs[m - 1] = -1;
            else limbs[2 * 68 + 1] = limbs[2 * 68] + 1;
            CHECK(sumlab_state_from_limbs(whole, idx, limbs, m, &e) == SUMLAB_EINVAL,
                  "%s %s: limbs that make no state accepted", variant, sl_dtype_name(dt));
            CHECK(sumlab_state_save(whole, b, bytes, &e) == SUMLAB_OK && !memcmp(b, wb, bytes),
                  "%s %s: refused limbs changed the state", variant, sl_dtype_name(dt));
        }
        free(limbs);
    }
    free(obuf);
    sumlab_state_free(o);
    sumlab_state_free(od);
    sumlab_state_free(whole);
    free(wb); free(b); free(c); free(x); free(p);
}

/* atomic-block's twin keeps a copy of a recent input (up to 16 MiB) between calls, for its
 * repetitions; sumlab_release frees it (it stayed for the process's life) */
static void check_release(void)
{
    const uint64_t n = (uint64_t)3 << 20;  /* 12 MiB of float32 */
    float *x = malloc(n * sizeof *x);
    CHECK(x != NULL, "out of memory");
    if (!x) return;
    for (uint64_t i = 0; i < n; i++) x[i] = (float)(i % 1000) * 0.25f;
    double r = NAN;
    sl_err e = {{0}};
    size_t host = 0;
    CHECK(sumlab_reduce_host("sum", "atomic-block", x, NULL, n, SL_F32, NULL, &r, &e) == SUMLAB_OK, "%s", e.msg);
    free(x);
    sumlab_cache_info(NULL, NULL, &host);
    CHECK(host >= n * sizeof(float), "atomic-block's twin keeps %zu bytes after a 12 MiB input", host);
    sumlab_release();
    sumlab_cache_info(NULL, NULL, &host);
    CHECK(host == 0, "after sumlab_release the twins keep %zu bytes", host);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    check_registries();
    const uint64_t ns[] = {0, 1, 7, 1000, 70001};
    for (int d = 0; d < SL_NDTYPES; d++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) check_twins((sl_dtype)d, ns[i]);
    check_launch(SL_F32, 1000003);
    check_judge();
    check_judge_as();
    check_params();
    check_errors();
    check_release();
    const char *states[] = {"superacc", "reproducible", "exact"};
    for (size_t s = 0; s < 3; s++)
        for (int d = 0; d < SL_NDTYPES; d++) {
            check_states(states[s], (sl_dtype)d, 3001);
            check_states(states[s], (sl_dtype)d, 1);
        }
    return sl_test_done("tlib");
}

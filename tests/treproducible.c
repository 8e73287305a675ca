/* treproducible.c: the `reproducible` variant on the CPU (label cpu): the twin's bits do not move
 * under 10 permutations of the input, under launch configurations (a CPU model of the kernel's
 * decomposition: threads, vector tiles, 8-input fast groups, merges in block order), or under
 * 1-8 splits summed apart and merged through sl_rsum_state in random order and grouping; the
 * result lies within the registered binned bound of the exact sum on every dataset family (f32
 * and f64); data inside one window is summed exactly (correctly rounded); special values:
 * NaN -> NaN, +Inf and -Inf -> NaN, a lone Inf kind -> that Inf, an exact sum beyond the format
 * -> +-Inf, huge cancelling values exact (no spurious overflow), subnormals summed exactly,
 * signs of zero as IEEE (-0 only when every input is -0; n = 0 -> +0). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_datasets.h"
#include "sumlab/rng.h"
#include "sl_layout.h"
#include "sl_reference.h"
#include "sl_variants.h"
#include "reproducible/reproducible.h"
#include "sumlab/half.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

static double twin(const void *x, uint64_t n, sl_dtype dt)
{
    const sl_variant *v = sl_variant_find("reproducible");
    sl_launch cfg;
    sl_err err;
    double r = NAN;
    memset(&cfg, 0, sizeof cfg);
    sl_variant_resolve(v, &cfg, n, dt);
    int rc = sl_variant_cpu(v, x, n, dt, &cfg, &r, &err);
    CHECK(rc == 0, "twin failed: %s", err.msg);
    return r;
}


/* One thread of the kernel, element by element in the kernel's order (reproducible.cu). */
static void model_thread(const void *x, uint64_t n, sl_dtype dt, uint64_t head, uint32_t G,
                         uint32_t B, uint32_t b, uint32_t t, sl_rsum_state *out)
{
    const uint32_t VW = sl_vec_width(dt), U = 4;
    const uint64_t nv = (n - head) / VW, tail0 = head + nv * VW, nedge = head + (n - tail0);
    sl_rsum_thr_f32 a32;
    sl_rsum_thr_f64 a64;
    sl_rsum_init_f32(&a32);
    sl_rsum_init_f64(&a64);
#define TAKE1(i)                                                                  \
    do {                                                                          \
        if (dt == SL_F64) sl_rsum_take1_f64(&a64, ((const double *)x)[i]);        \
        else sl_rsum_take1_f32(&a32, ((const float *)x)[i]);                      \
    } while (0)
    for (uint64_t i = (uint64_t)b * B + t; i < nedge; i += (uint64_t)G * B)
        TAKE1(i < head ? i : tail0 + (i - head));
    const uint64_t per_tile = (uint64_t)B * U, ntiles = (nv + per_tile - 1) / per_tile;
    for (uint64_t tile = b; tile < ntiles; tile += G) {
        const uint64_t base = tile * per_tile + t;
        if ((tile + 1) * per_tile <= nv) {
            double xd[16];
            float xf[16];
            for (uint32_t u = 0; u < U; u++)
                for (uint32_t l = 0; l < VW; l++) {
                    uint64_t i = head + (base + (uint64_t)u * B) * VW + l;
                    if (dt == SL_F64) xd[u * VW + l] = ((const double *)x)[i];
                    else xf[u * VW + l] = ((const float *)x)[i];
                }
            for (uint32_t g = 0; g < U * VW; g += SL_RSUM_GROUP) {
                if (dt == SL_F64) sl_rsum_take_group_f64(&a64, xd + g);
                else sl_rsum_take_group_f32(&a32, xf + g);
            }
        } else {
            for (uint32_t u = 0; u < U; u++)
                if (base + (uint64_t)u * B < nv)
                    for (uint32_t l = 0; l < VW; l++) TAKE1(head + (base + (uint64_t)u * B) * VW + l);
        }
    }
#undef TAKE1
    if (dt == SL_F64) sl_rsum_to_state_f64(&a64, out);
    else sl_rsum_to_state_f32(&a32, out);
}

/* The kernel's decomposition for a resolved cfg (head from addr_mod), merged block by block. */
static double model_kernel(const void *x, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    if (n == 0) return 0.0;
    const uint64_t head = sl_vec_head(n, dt, cfg->addr_mod);
    sl_rsum_state all;
    sl_rsum_state_zero(&all);
    for (uint32_t b = 0; b < cfg->grid; b++) {
        sl_rsum_state blk;
        sl_rsum_state_zero(&blk);
        for (uint32_t t = 0; t < cfg->block; t++) {
            sl_rsum_state s;
            model_thread(x, n, dt, head, cfg->grid, cfg->block, b, t, &s);
            sl_rsum_state_merge(&blk, &s);
        }
        sl_rsum_state_merge(&all, &blk);
    }
    return sl_rsum_state_round(&all, dt);
}

/* s contiguous pieces (random cut points), states merged in random order and grouping. */
static double split_merge(const void *x, uint64_t n, sl_dtype dt, int s)
{
    uint64_t cut[9];
    cut[0] = 0;
    cut[s] = n;
    for (int i = 1; i < s; i++) cut[i] = n ? sl_test_rand64() % (n + 1) : 0;
    for (int i = 1; i < s; i++)                      /* sort the interior cuts */
        for (int j = i + 1; j < s; j++)
            if (cut[j] < cut[i]) { uint64_t tmp = cut[i]; cut[i] = cut[j]; cut[j] = tmp; }
    sl_rsum_state st[8];
    for (int i = 0; i < s; i++) {
        sl_rsum_state_zero(&st[i]);
        const size_t es = sl_dtype_size(dt);
        sl_rsum_add(&st[i], (const char *)x + cut[i] * es, cut[i + 1] - cut[i], dt);
    }
    int live = s;
    while (live > 1) {                               /* merge a random pair, either way round */
        int i = (int)(sl_test_rand64() % (uint64_t)live), j = (int)(sl_test_rand64() % (uint64_t)(live - 1));
        if (j >= i) j++;
        sl_rsum_state_merge(&st[i], &st[j]);
        st[j] = st[live - 1];
        live--;
    }
    return sl_rsum_state_round(&st[0], dt);
}

static void shuffle(void *x, uint64_t n, sl_dtype dt)
{
    const size_t es = sl_dtype_size(dt);
    char tmp[8];
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = sl_test_rand64() % i;
        memcpy(tmp, (char *)x + (i - 1) * es, es);
        memcpy((char *)x + (i - 1) * es, (char *)x + j * es, es);
        memcpy((char *)x + j * es, tmp, es);
    }
}

/* Wide-range data: exponents over (nearly) the whole format, both signs, some subnormals and
 * some huge values (the scaled domain), so that indices rise in many different orders. */
static void fill_wide(void *x, uint64_t n, sl_dtype dt, uint64_t seed, int specials)
{
    const int emin = dt == SL_F64 ? -1074 : -149, emax = dt == SL_F64 ? 1023 : 127;
    for (uint64_t i = 0; i < n; i++) {
        double m = 1.0 + sl_rng_unit(seed, 1, i);
        int e = emin + (int)(sl_rng_u64(seed, 2, i) % (uint64_t)(emax - emin));
        if (sl_rng_u64(seed, 5, i) % 4u) e = (e % 60) - 30;   /* most values near 1 */
        double v = ldexp(m, e);
        if (sl_rng_u64(seed, 3, i) & 1) v = -v;
        if (specials && sl_rng_u64(seed, 4, i) % 997u == 0) v = (i & 1) ? INFINITY : NAN;
        if (dt == SL_F64) ((double *)x)[i] = v;
        else ((float *)x)[i] = (float)v;
    }
}

static void check_invariance(const char *what, void *x, uint64_t n, sl_dtype dt)
{
    const double ref = twin(x, n, dt);
    /* launch configurations: the kernel's decomposition modelled on the CPU */
    const sl_launch reqs[] = {{.block = 0},
                              {.block = 64, .grid = 3},
                              {.block = 1024, .grid = 2},
                              {.block = 96, .sm_count = 7},
                              {.block = 32, .grid = 1, .sm_count = 1},
                              {.block = 256, .grid = 37, .addr_mod = 4},
                              {.block = 128, .grid = 5, .addr_mod = 8}};
    const sl_variant *v = sl_variant_find("reproducible");
    for (size_t c = 0; c < sizeof reqs / sizeof *reqs; c++) {
        sl_launch cfg = reqs[c];
        if (cfg.addr_mod % sl_dtype_size(dt)) cfg.addr_mod = 0;
        sl_variant_resolve(v, &cfg, n, dt);
        if ((uint64_t)cfg.grid * cfg.block > ((uint64_t)1 << 17)) cfg.grid = (uint32_t)(((uint64_t)1 << 17) / cfg.block);
        const double r = model_kernel(x, n, dt, &cfg);
        CHECK(same_bits(r, ref), "%s %s n=%llu: kernel model (block %u grid %u addr_mod %u) %a != twin %a",
              what, sl_dtype_name(dt), (unsigned long long)n, cfg.block, cfg.grid, cfg.addr_mod, r, ref);
    }
    for (int s = 1; s <= 8; s++) {
        const double r = split_merge(x, n, dt, s);
        CHECK(same_bits(r, ref), "%s %s n=%llu: %d splits merged %a != twin %a", what,
              sl_dtype_name(dt), (unsigned long long)n, s, r, ref);
    }
    for (int p = 0; p < 10; p++) {
        shuffle(x, n, dt);
        const double r = twin(x, n, dt);
        CHECK(same_bits(r, ref), "%s %s n=%llu: permutation %d gives %a != %a", what,
              sl_dtype_name(dt), (unsigned long long)n, p, r, ref);
    }
}

static long bound_checks, exact_checks, certified, uncertified;

/* superacc's float64 path: the 4-fold binned state's certified rounding equals the correctly
 * rounded sum whenever it decides (sl_rsum_state_certify_f64); counts both outcomes. float32 data
 * is not checked (superacc sums it in exponent bins). */
static int check_certify(const char *what, const void *x, uint64_t n, sl_dtype dt,
                         const sl_reference *ref)
{
    if (dt != SL_F64) return 0;                      /* float32 superacc: exponent bins */
    double r;
    if (!sl_rsum_certify_f64((const double *)x, n, &r)) {
        if (getenv("SUMLAB_VERBOSE"))
            printf("undecided: %s %s n=%llu\n", what, sl_dtype_name(dt), (unsigned long long)n);
        uncertified++;
        return 0;
    }
    certified++;
    CHECK(same_bits(r, ref->rounded), "%s %s n=%llu: certified rounding %a != exact %a", what,
          sl_dtype_name(dt), (unsigned long long)n, r, ref->rounded);
    return 1;
}

/* Values that cancel exactly far above the survivors: the binned value cannot decide the
 * rounding (the survivors lie below what the folds keep), the certificate must say so; and
 * a survivor just above the folds' reach must be decided and right. */
static void certify_cases(sl_dtype dt)
{
    const uint64_t n = 4096;
    double *x = malloc(n * sizeof *x);
    float *f = malloc(n * sizeof *f);
    if (!x || !f) { free(x); free(f); CHECK(0, "malloc"); return; }
    const int big = dt == SL_F64 ? 1000 : 120, tiny = dt == SL_F64 ? -1000 : -140;
    for (uint64_t i = 0; i < n; i++) {
        const double m = 1.0 + (double)(sl_test_rand64() >> 40) * 0x1p-24;
        x[i] = i < n / 2 ? ldexp(m, big - (int)(i % 7)) : ldexp(m, tiny + (int)(i % 5));
    }
    for (uint64_t i = 0; i < n / 4; i++) x[n / 2 - 1 - i] = -x[i];   /* the big ones cancel */
    for (uint64_t i = 0; i < n; i++) f[i] = (float)x[i];
    const void *in = dt == SL_F64 ? (const void *)x : (const void *)f;
    sl_reference ref;
    sl_err err;
    if (sl_reference_compute(&ref, in, n, dt, &err) == 0) {
        CHECK(dt != SL_F64 || !check_certify("cancel-huge-tiny", in, n, dt, &ref),
              "%s cancel-huge-tiny: certified although the survivors lie below the folds",
              sl_dtype_name(dt));
        sl_reference_clear(&ref);
    } else CHECK(0, "reference: %s", err.msg);
    free(x);
    free(f);
}

static void check_bound(const char *what, const void *x, uint64_t n, sl_dtype dt)
{
    sl_reference ref;
    sl_err err;
    if (sl_reference_compute(&ref, x, n, dt, &err)) {
        CHECK(0, "reference %s: %s", what, err.msg);
        sl_reference_clear(&ref);
        return;
    }
    const double r = twin(x, n, dt);
    if (!ref.finite) {
        if (isnan(ref.rounded)) CHECK(isnan(r), "%s %s n=%llu: exact NaN, got %a", what, sl_dtype_name(dt), (unsigned long long)n, r);
        else CHECK(same_bits(r, ref.rounded), "%s %s n=%llu: exact %a, got %a", what, sl_dtype_name(dt), (unsigned long long)n, ref.rounded, r);
    } else {
        check_certify(what, x, n, dt, &ref);
        const double b = sl_reference_bound(&ref, SL_REF_BOUND_BINNED, SL_RSUM_K, dt, dt);
        const sl_errors e = sl_reference_errors(&ref, r, dt);
        bound_checks++;
        CHECK(e.abs_err <= b, "%s %s n=%llu: got %a, exact %a, error %g > binned bound %g", what,
              sl_dtype_name(dt), (unsigned long long)n, r, ref.rounded, e.abs_err, b);
        /* the final rounding is once, from the binned value: never worse than half an ulp
         * plus what the folds dropped (at most n 2^(W(1-K)) max|x|) */
        const int W = sl_rsum_width(dt);
        const double drop = (double)n * ldexp(ref.maxabs, W * (1 - SL_RSUM_K));
        CHECK(e.abs_err <= drop + sl_ulp(ref.rounded, dt) / 2 || e.ulps <= 0.5,
              "%s %s n=%llu: error %g beyond n 2^(W(1-K)) max|x| + ulp/2", what, sl_dtype_name(dt),
              (unsigned long long)n, e.abs_err);
    }
    sl_reference_clear(&ref);
}

static void special_values(void)
{
    const double D = DBL_MAX;
    struct { double x[4]; int n; double want; } c64[] = {
        {{1, NAN, 2}, 3, NAN},                      {{INFINITY, 1}, 2, INFINITY},
        {{-INFINITY, 5}, 2, -INFINITY},             {{INFINITY, -INFINITY}, 2, NAN},
        {{D, D}, 2, INFINITY},                      {{-D, -D, 1}, 3, -INFINITY},
        {{D, D, -D}, 3, D},                         {{0x1p1020, -0x1p1020, 0x1p950}, 3, 0x1p950},
        {{0x1p-1074, 0x1p-1074, -0x1p-1073}, 3, 0}, {{0x1p-1074, 0x1.8p-1060}, 2, 0x1.8p-1060 + 0x1p-1074},
        {{-0.0, -0.0}, 2, -0.0},                    {{-0.0, 0.0}, 2, 0.0},
        {{1, -1}, 2, 0.0},                          {{-1, 1, -0.0}, 3, 0.0},
    };
    for (size_t i = 0; i < sizeof c64 / sizeof *c64; i++) {
        double r = twin(c64[i].x, (uint64_t)c64[i].n, SL_F64);
        CHECK(same_bits(r, c64[i].want), "f64 special case %zu: got %a, want %a", i, r, c64[i].want);
    }
    const float F = FLT_MAX;
    struct { float x[4]; int n; float want; } c32[] = {
        {{1, NAN, 2}, 3, NAN},                 {{INFINITY, 1}, 2, INFINITY},
        {{INFINITY, -INFINITY}, 2, NAN},       {{F, F}, 2, INFINITY},
        {{F, F, -F}, 3, F},                    {{0x1p120f, -0x1p120f, 0x1p100f}, 3, 0x1p100f},
        {{0x1p-149f, 0x1p-149f}, 2, 0x1p-148f}, {{-0.0f, -0.0f}, 2, -0.0f},
        {{-0.0f, 0.0f}, 2, 0.0f},              {{1, -1}, 2, 0.0f},
    };
    for (size_t i = 0; i < sizeof c32 / sizeof *c32; i++) {
        double r = twin(c32[i].x, (uint64_t)c32[i].n, SL_F32);
        CHECK(same_bits(r, (double)c32[i].want), "f32 special case %zu: got %a, want %a", i, r,
              (double)c32[i].want);
    }
    CHECK(same_bits(twin(NULL, 0, SL_F64), 0.0) && same_bits(twin(NULL, 0, SL_F32), 0.0), "n = 0 gives +0");
    /* what binned summation drops: more than K W bits below the largest value */
    double drop[3] = {0x1p1020, -0x1p1020, 1.0};
    CHECK(same_bits(twin(drop, 3, SL_F64), 0.0), "f64: 1 below 2^1020 - 2^1020 is dropped (+0)");
}

/* Signed zeros through the grouped path (sl_rsum_take_group: the sign word only for a group
 * whose largest |x| is 0) and one by one (sl_rsum_take1): the sum is -0 exactly when every input
 * is -0, and the two paths give the same state (flags included) on groups of zeros, negatives
 * and both. */
static void signed_zeros(sl_dtype dt)
{
    const uint64_t ns[] = {8, 32, 33, 64, 100};
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
        const uint64_t n = ns[k];
        double xd[100];
        float xf[100];
#define PUT(i, v) (dt == SL_F64 ? (void)(xd[i] = (v)) : (void)(xf[i] = (float)(v)))
#define ALLNEG() for (uint64_t i = 0; i < n; i++) PUT(i, -0.0)
        const void *x = dt == SL_F64 ? (const void *)xd : (const void *)xf;
        ALLNEG();
        CHECK(same_bits(twin(x, n, dt), -0.0), "%s n=%llu: all -0 sums to -0", sl_dtype_name(dt),
              (unsigned long long)n);
        for (uint64_t p = 0; p < n; p += 7) {
            ALLNEG();
            PUT(p, 0.0);
            CHECK(same_bits(twin(x, n, dt), 0.0), "%s n=%llu: one +0 at %llu gives +0",
                  sl_dtype_name(dt), (unsigned long long)n, (unsigned long long)p);
            ALLNEG();
            PUT(p, -1.0);
            PUT(n - 1 - p, p == n - 1 - p ? -1.0 : 1.0);
            CHECK(same_bits(twin(x, n, dt), p == n - 1 - p ? -1.0 : 0.0),
                  "%s n=%llu: -1 at %llu and +1 among -0 give +0", sl_dtype_name(dt),
                  (unsigned long long)n, (unsigned long long)p);
            ALLNEG();
            PUT(p, -2.0);
            CHECK(same_bits(twin(x, n, dt), -2.0), "%s n=%llu: -2 at %llu among -0 gives -2",
                  sl_dtype_name(dt), (unsigned long long)n, (unsigned long long)p);
        }
#undef ALLNEG
    }
    /* one group at a time, both paths: same state */
    for (int trial = 0; trial < 2000; trial++) {
        double xd[SL_RSUM_GROUP];
        float xf[SL_RSUM_GROUP];
        for (int i = 0; i < SL_RSUM_GROUP; i++) {
            const uint64_t r = sl_test_rand64();
            const double v = (r & 3) == 0 ? 0.0 : (r & 3) == 1 ? -0.0 : ldexp((double)(r >> 40), -20);
            PUT(i, (r >> 8) & 1 ? -v : v);
        }
        sl_rsum_state sg_, s1;
#define BOTH_PATHS(SUF, X)                                                         \
    do {                                                                           \
        sl_rsum_thr_##SUF a, b;                                                    \
        sl_rsum_init_##SUF(&a);                                                    \
        sl_rsum_init_##SUF(&b);                                                    \
        sl_rsum_take_group_##SUF(&a, X);                                           \
        for (int i = 0; i < SL_RSUM_GROUP; i++) sl_rsum_take1_##SUF(&b, (X)[i]);   \
        sl_rsum_to_state_##SUF(&a, &sg_);                                          \
        sl_rsum_to_state_##SUF(&b, &s1);                                           \
    } while (0)
        if (dt == SL_F64) BOTH_PATHS(f64, xd);
        else BOTH_PATHS(f32, xf);
#undef BOTH_PATHS
        int same = sg_.top == s1.top && sg_.flags == s1.flags;
        for (int f = 0; f < SL_RSUM_KMAX; f++) same &= sg_.hi[f] == s1.hi[f] && sg_.lo[f] == s1.lo[f];
        CHECK(same, "%s trial %d: the grouped and the one-by-one state differ (flags %#x vs %#x)",
              sl_dtype_name(dt), trial, sg_.flags, s1.flags);
    }
#undef PUT
}

/* The kernel's float32 rounding (sl_rsum_state_round_f32, a 128-bit integer in registers)
 * against the generic one (sl_rsum_state_round_mode_k over limbs), to nearest and to odd: random
 * states over every index, magnitude, sign and flag set, and edge states (zero, the subnormal
 * grid, ties at every guard position, overflow, folds at the limit of the fast form, beyond it). */
/* A random state of K folds: index in [top0, top0 + ntop), |hi| below 2^mag with mag below maxmag,
 * folds zero one time in four, their low bits under lowmask cleared one time in eight (ties), and
 * a flag set (none, ANYPOS, or NaN/Inf kinds). Returns the random word the choice came from. */
static uint64_t random_state(sl_rsum_state *st, int K, int top0, int ntop, int maxmag, int64_t lowmask)
{
    sl_rsum_state_zero_k(st, K);
    const uint64_t r = sl_test_rand64();
    st->top = top0 + (int)(r % (uint64_t)ntop);
    const int mag = (int)((r >> 8) % (uint64_t)maxmag);
    for (int k = 0; k < K; k++) {
        const uint64_t q = sl_test_rand64();
        const int64_t h = mag ? (int64_t)(q % ((uint64_t)1 << mag)) : 0;
        st->hi[k] = (q >> 50) & 1 ? -h : h;
        st->lo[k] = (int64_t)(sl_test_rand64() & 0xffffffffu);
        if ((q >> 51) % 4 == 0) st->hi[k] = st->lo[k] = 0;
        if ((q >> 53) % 8 == 0) st->lo[k] &= ~lowmask;
    }
    const uint64_t f = (r >> 16) % 64;
    st->flags = f < 40 ? 0u : f < 56 ? SL_SACC_ANYPOS : (uint32_t)(f & 15);
    return r;
}
/* A tie of the float64 grid: V = (head 2 + 1) 2^b (+ 1 with sticky), head a 53-bit value (odd: the
 * tie rounds up, even: it stays; sgn bit 1 picks), negated with sgn bit 0, written into the lowest
 * three folds' 40-bit grid of a K-fold state of index top. */
static void tie_state(sl_rsum_state *st, int K, int top, int b, int sgn, int sticky)
{
    __extension__ typedef __int128 i128;
    sl_rsum_state_zero_k(st, K);
    st->top = top;
    const uint64_t head = 0x1b2c3d4e5f6071ull - (uint64_t)(sgn >> 1);
    i128 v = ((i128)head << 1 | 1) << b;
    if (sticky) v += 1;
    if (sgn & 1) v = -v;
    const i128 mask = ((i128)1 << 40) - 1;
    const i128 f[3] = {v >> 80, (v >> 40) & mask, v & mask};
    for (int k = 0; k < 3; k++) {
        st->hi[K - 3 + k] = (int64_t)(f[k] >> 32);
        st->lo[K - 3 + k] = (int64_t)(f[k] & 0xffffffff);
    }
}
static long round_checks;
/* one state, both modes: the register form of dt (f32 or f64) against the generic one */
static void round_one_dt(const sl_rsum_state *st, sl_dtype dt)
{
    for (int rto = 0; rto < 2; rto++) {
        const double a = dt == SL_F64 ? sl_rsum_state_round_f64(st, rto) : sl_rsum_state_round_f32(st, rto);
        const double b = sl_rsum_state_round_mode_k(st, dt, 3, rto);
        round_checks++;
        CHECK(same_bits(a, b), "%s rounding (rto %d) top %d hi {%lld %lld %lld} lo {%lld %lld %lld} "
              "flags %#x: fast %a, generic %a", sl_dtype_name(dt), rto, st->top, (long long)st->hi[0],
              (long long)st->hi[1], (long long)st->hi[2], (long long)st->lo[0],
              (long long)st->lo[1], (long long)st->lo[2], st->flags, a, b);
    }
}
static void round_one(const sl_rsum_state *st) { round_one_dt(st, SL_F32); }
static void round_f32_cases(void)
{
    sl_rsum_state st;
    for (int trial = 0; trial < 200000; trial++) {
        random_state(&st, 3, 2, 20, 31, 0xfff);         /* index 2..21, |hi| < 2^30 */
        round_one(&st);
    }
    /* ties: one guard bit and nothing below, at every position of the lowest two folds */
    for (int top = 2; top <= 21; top++)
        for (int b = 0; b < 37; b++)                      /* 26 + 37 bits: within int64 */
            for (int sgn = 0; sgn < 2; sgn++) {
                sl_rsum_state_zero(&st);
                st.top = top;
                const int64_t v = (int64_t)(((uint64_t)0x1234567 << 1 | 1) << b);   /* odd 26-bit head */
                st.hi[1] = (sgn ? -v : v) >> 32;
                st.lo[1] = (sgn ? -v : v) & 0xffffffff;
                st.hi[2] = 0;
                st.lo[2] = b > 5 ? (int64_t)1 << (b - 5) : 0;
                round_one(&st);
            }
    /* zero (both signs), the smallest values, the limit of the fast form, overflow */
    sl_rsum_state_zero(&st);
    round_one(&st);
    st.flags = SL_SACC_ANYPOS;
    round_one(&st);
    for (int64_t v = -5; v <= 5; v++) {
        sl_rsum_state_zero(&st);
        st.hi[2] = v < 0 ? -1 : 0;
        st.lo[2] = v & 0xffffffff;
        round_one(&st);
    }
    const int64_t lim[] = {((int64_t)1 << 30) - 1, -((int64_t)1 << 30), (int64_t)1 << 30, ((int64_t)1 << 40)};
    for (size_t i = 0; i < sizeof lim / sizeof *lim; i++)
        for (int top = 2; top <= 21; top += 19) {
            sl_rsum_state_zero(&st);
            st.top = top;
            st.hi[0] = lim[i];
            st.lo[0] = 0xffffffff;
            st.hi[2] = -3;
            round_one(&st);
        }
}

/* The kernel's float64 rounding (sl_rsum_state_round_f64, a 192-bit integer in registers)
 * against the generic one, to nearest and to odd: random states over every index (0..52),
 * magnitude (|hi| up to 2^47) and flag set, ties at every guard position of the lower two folds
 * (and with a sticky bit far below), the subnormal grid, overflow, the fast form's limits and
 * beyond them (the fallback). */
static void round_one64(const sl_rsum_state *st) { round_one_dt(st, SL_F64); }
static void round_f64_cases(void)
{
    sl_rsum_state st;
    for (int trial = 0; trial < 200000; trial++) {
        random_state(&st, 3, 2, 51, 48, 0xfffff);       /* index 2..52, |hi| < 2^47 */
        round_one64(&st);
    }
    /* ties: a 53-bit head (odd: rounds up, even: stays), one guard bit and nothing below (or
     * a sticky bit at the bottom), at every position of folds 1 and 0, both signs, low and high
     * indices */
    for (int top = 2; top <= 52; top += top < 6 || top > 48 ? 1 : 7)
        for (int b = 0; b < 73; b++)                     /* the 54-bit V 2^b within 127 bits */
            for (int sgn = 0; sgn < 4; sgn++)
                for (int sticky = 0; sticky < 2; sticky++) {
                    tie_state(&st, 3, top, b, sgn, sticky);
                    round_one64(&st);
                }
    /* zero (both signs), the smallest values, the limits of the fast form, overflow */
    sl_rsum_state_zero(&st);
    round_one64(&st);
    st.flags = SL_SACC_ANYPOS;
    round_one64(&st);
    for (int64_t v = -5; v <= 5; v++)
        for (int top = 2; top <= 3; top++) {
            sl_rsum_state_zero(&st);
            st.top = top;
            st.hi[2] = v < 0 ? -1 : 0;
            st.lo[2] = v & 0xffffffff;
            round_one64(&st);
        }
    const int64_t lim[] = {((int64_t)1 << 47) - 1, -((int64_t)1 << 47), (int64_t)1 << 47, ((int64_t)1 << 60)};
    for (size_t i = 0; i < sizeof lim / sizeof *lim; i++)
        for (int top = 2; top <= 52; top += 25)
            for (int k = 0; k < 3; k++) {
                sl_rsum_state_zero(&st);
                st.top = top;
                st.hi[k] = lim[i];
                st.lo[k] = 0xffffffff;
                st.hi[(k + 1) % 3] = -3;
                round_one64(&st);
            }
    for (int top = 50; top <= 52; top++) {            /* near DBL_MAX and past it */
        sl_rsum_state_zero(&st);
        st.top = top;
        st.hi[0] = ((int64_t)1 << 47) - 1;
        st.lo[0] = 0xffffffff;
        round_one64(&st);
        st.hi[0] = -st.hi[0];
        round_one64(&st);
    }
}

/* The float64 certificate's ends in registers (sl_rsum_state_certify_end_f64 and its _mode form,
 * to odd and with the lost tails of certified.cuh; the 4-fold state of `superacc` as a 256-bit
 * integer) against the generic form over limbs, both sides: random states
 * over every index (0..52: below 3 the fallback), magnitude (|hi| up to 2^47, and beyond: the
 * fallback), flag set and n (0, 1, up to 2^40 and past it); ties at every guard position of the
 * lower three folds, with the -+n moving them across, both signs; zero, the subnormal grid and
 * overflow. */
static long end_checks;
static void end_one(const sl_rsum_state *st, uint64_t n)
{
    for (int mode = 0; mode < 4; mode++)            /* bit 0: to odd, bit 1: lost (certified.cuh) */
        for (int side = -1; side <= 1; side += 2) {
            const int rto = mode & 1, lost = mode >> 1;
            const double a = mode ? sl_rsum_state_certify_end_f64_mode(st, n, side, rto, lost)
                                  : sl_rsum_state_certify_end_f64(st, n, side);
            const double b = !mode && n == 0 ? 0.0 : sl_rsum_state_certify_end_limbs(st, n, side, rto, lost);
            end_checks++;
            CHECK(same_bits(a, b), "certificate end (side %d, n %llu, rto %d, lost %d) top %d hi {%lld "
                  "%lld %lld %lld} lo {%lld %lld %lld %lld} flags %#x: registers %a, generic %a", side,
                  (unsigned long long)n, rto, lost, st->top, (long long)st->hi[0], (long long)st->hi[1],
                  (long long)st->hi[2], (long long)st->hi[3], (long long)st->lo[0], (long long)st->lo[1],
                  (long long)st->lo[2], (long long)st->lo[3], st->flags, a, b);
        }
}
static void certify_end_cases(void)
{
    sl_rsum_state st;
    for (int trial = 0; trial < 200000; trial++) {
        const uint64_t r = random_state(&st, 4, 3, 50, 48, 0xfffff);   /* index 3..52 */
        const uint64_t nr = sl_test_rand64(), nk = (r >> 24) % 8;
        const uint64_t n = nk == 0 ? 0 : nk == 1 ? 1 : nk < 6 ? nr % ((uint64_t)1 << (10 * (nk - 1)))
                         : nk == 6 ? ((uint64_t)1 << 40) - 1 - (nr & 0xff) : ((uint64_t)1 << 40) + (nr & 0xff);
        end_one(&st, n);
    }
    /* ties: a 53-bit head, one guard bit and nothing below (or a sticky bit at the bottom), at
     * every position of folds 2 and 1 (the value in folds 1..3), both signs, the ends' n of 0
     * (the tie itself), 1 and 2^39 (across it) */
    for (int top = 3; top <= 52; top += top < 6 || top > 48 ? 1 : 7)
        for (int b = 0; b < 73; b++)
            for (int sgn = 0; sgn < 4; sgn++)
                for (int sticky = 0; sticky < 2; sticky++) {
                    tie_state(&st, 4, top, b, sgn, sticky);
                    const uint64_t ns[] = {1, 2, (uint64_t)1 << 39};
                    for (int i = 0; i < 3; i++) end_one(&st, ns[i]);
                }
    /* zero (both signs), values of a few units and their ends crossing zero, the limits of the
     * fast form and beyond them, near DBL_MAX and past it, an index below 3 */
    for (int top = 3; top <= 4; top++)
        for (int64_t v = -5; v <= 5; v++)
            for (uint64_t n = 1; n <= 6; n++)
                for (uint32_t fl = 0; fl <= SL_SACC_ANYPOS; fl += SL_SACC_ANYPOS) {
                    sl_rsum_state_zero_k(&st, 4);
                    st.top = top;
                    st.flags = fl;
                    st.hi[3] = v < 0 ? -1 : 0;
                    st.lo[3] = v & 0xffffffff;
                    end_one(&st, n);
                }
    const int64_t lim[] = {((int64_t)1 << 47) - 1, -((int64_t)1 << 47), (int64_t)1 << 47, ((int64_t)1 << 60)};
    for (size_t i = 0; i < sizeof lim / sizeof *lim; i++)
        for (int top = 3; top <= 52; top += 7)
            for (int k = 0; k < 4; k++) {
                sl_rsum_state_zero_k(&st, 4);
                st.top = top;
                st.hi[k] = lim[i];
                st.lo[k] = 0xffffffff;
                st.hi[(k + 1) % 4] = -3;
                end_one(&st, 12345);
            }
    for (int top = 50; top <= 52; top++) {
        sl_rsum_state_zero_k(&st, 4);
        st.top = top;
        st.hi[0] = ((int64_t)1 << 47) - 1;
        st.lo[0] = 0xffffffff;
        end_one(&st, 3);
        st.hi[0] = -st.hi[0];
        end_one(&st, 3);
    }
    sl_rsum_state_zero_k(&st, 4);
    st.top = 2;
    st.lo[2] = 77;
    end_one(&st, 5);
}

/* Data inside one window (values in [1, 2) with 20-bit mantissas): the folds hold every bit,
 * so the result is the exact sum correctly rounded. */
static void exact_window(sl_dtype dt, uint64_t n)
{
    void *x = malloc((size_t)n * sl_dtype_size(dt));
    if (!x) return;
    for (uint64_t i = 0; i < n; i++) {
        double v = 1.0 + ldexp((double)(sl_rng_u64(sl_test_seed(), 9, i) % (1u << 20)), -20);
        if (sl_rng_u64(sl_test_seed(), 10, i) & 1) v = -v;
        if (dt == SL_F64) ((double *)x)[i] = v;
        else ((float *)x)[i] = (float)v;
    }
    sl_reference ref;
    sl_err err;
    if (sl_reference_compute(&ref, x, n, dt, &err) == 0) {
        exact_checks++;
        double r = twin(x, n, dt);
        CHECK(same_bits(r, ref.rounded), "%s n=%llu: one window should be exact: %a vs %a",
              sl_dtype_name(dt), (unsigned long long)n, r, ref.rounded);
    }
    sl_reference_clear(&ref);
    free(x);
}

/* Endurance: every input just below the capacity of its index and of one sign, so each fold
 * drifts as fast as it can between renormalisations; the window still holds every bit. */
static void endurance(sl_dtype dt)
{
    const uint64_t n = ((uint64_t)3 << 16) + 5;
    const double v = dt == SL_F64 ? 0x1p5 - 0x1p-48 : 0x1p6 - 0x1p-18;   /* below cap(26), cap(11) */
    void *x = malloc((size_t)n * sl_dtype_size(dt));
    if (!x) return;
    for (int sign = 0; sign < 2; sign++) {
        for (uint64_t i = 0; i < n; i++) {
            if (dt == SL_F64) ((double *)x)[i] = sign ? -v : v;
            else ((float *)x)[i] = (float)(sign ? -v : v);
        }
        sl_reference ref;
        sl_err err;
        if (sl_reference_compute(&ref, x, n, dt, &err) == 0) {
            exact_checks++;
            double r = twin(x, n, dt);
            CHECK(same_bits(r, ref.rounded), "%s endurance (sign %d): %a vs exact %a",
                  sl_dtype_name(dt), sign, r, ref.rounded);
        }
        sl_reference_clear(&ref);
    }
    free(x);
}

/* float16/bfloat16 input: the twin's bits under 10 permutations and 1-8 splits merged (the
 * states merged, then the 16-bit rounding), and the binned bound with float32 folds. */
static void half_inputs(void)
{
    for (int d = 0; d < 2; d++) {
        const sl_dtype dt = d ? SL_BF16 : SL_F16;
        const uint64_t n = 20000;
        uint16_t *x = malloc(n * sizeof *x);
        if (!x) { CHECK(0, "malloc"); return; }
        const int emin = dt == SL_F16 ? -24 : -133, emax = dt == SL_F16 ? 4 : 100;
        for (uint64_t i = 0; i < n; i++) {
            double v = ldexp(1.0 + sl_rng_unit(7, 1, i), emin + (int)(sl_rng_u64(7, 2, i) % (uint64_t)(emax - emin)));
            if (sl_rng_u64(7, 3, i) & 1) v = -v;
            x[i] = sl_half_from_double(v, dt);
        }
        const double ref = twin(x, n, dt);
        for (int p = 0; p < 10; p++) {
            shuffle(x, n, dt);
            CHECK(same_bits(twin(x, n, dt), ref), "%s: permutation %d changes the sum", sl_dtype_name(dt), p);
        }
        for (int k = 1; k <= 8; k++) {
            sl_rsum_state st;
            sl_rsum_state_zero(&st);
            for (int j = 0; j < k; j++) {
                const uint64_t a = n * (uint64_t)j / (uint64_t)k, b = n * (uint64_t)(j + 1) / (uint64_t)k;
                sl_rsum_state part;
                sl_rsum_state_zero(&part);
                CHECK(sl_rsum_add(&part, x + a, b - a, dt) == 0, "sl_rsum_add");
                sl_rsum_state_merge(&st, &part);
            }
            CHECK(same_bits(sl_rsum_state_round_half(&st, dt), ref), "%s: %d splits merged %a != %a",
                  sl_dtype_name(dt), k, sl_rsum_state_round_half(&st, dt), ref);
        }
        sl_reference r;
        sl_err err;
        if (sl_reference_compute(&r, x, n, dt, &err) == 0) {
            const double b = sl_reference_bound(&r, SL_REF_BOUND_BINNED, SL_RSUM_K, SL_F32, dt);
            const sl_errors e = sl_reference_errors(&r, ref, dt);
            CHECK(e.abs_err <= b, "%s: error %g above the binned bound %g", sl_dtype_name(dt), e.abs_err, b);
            bound_checks++;
            sl_reference_clear(&r);
        } else CHECK(0, "reference: %s", err.msg);
        free(x);
    }
}

/* The 2-fold deposit of float16/bfloat16 input (sl_rsum_deposit2_f32, the kernels' fast path)
 * against the K-fold one (sl_rsum_deposit_f32, the twin's): from the same random folds at every
 * unscaled index, a 16-bit value below the capacity whose biased exponent (1 for subnormals) is at
 * least sl_rsum_two_fold_emin16 leaves the same folds bit for bit; one exponent lower with its
 * lowest significand bit set always leaves others (the threshold is the exact boundary). */
static void two_fold_deposit(void)
{
    long same = 0, boundary = 0;
    for (int d = 0; d < 2; d++) {
        const sl_dtype dt = d ? SL_BF16 : SL_F16;
        const int ph = sl_half_prec(dt), bh = dt == SL_BF16 ? 127 : 15, emax_b = dt == SL_BF16 ? 254 : 30;
        for (int top = SL_RSUM_K - 1; top <= SL_RSUM_F32_TFAST; top++) {
            const int emin = sl_rsum_two_fold_emin16(top, ph, bh);
            const float cap = sl_rsum_from_f32(sl_rsum_cap_f32(top));
            for (int trial = 0; trial < 400; trial++) {
                sl_rsum_thr_f32 a;
                sl_rsum_init_f32(&a);
                if (top > a.top) sl_rsum_upgrade_f32(&a, top);
                CHECK(a.top == top, "%s: index %d not reached (%d)", sl_dtype_name(dt), top, a.top);
                /* random folds: up to 200 deposits of values below the capacity */
                const int pre = (int)(sl_test_rand64() % 200);
                for (int i = 0; i < pre; i++) {
                    const float v = cap * (float)ldexp((double)(sl_test_rand64() >> 40), -24 - (int)(sl_test_rand64() % 40));
                    sl_rsum_deposit_f32(&a, (sl_test_rand64() & 1) ? -v : v);
                }
                /* x: a 16-bit value below the capacity, its exponent at the threshold or one below
                 * (lowest bit set), or anywhere above it */
                const uint64_t r = sl_test_rand64();
                const int lo_e = emin > 1 ? emin : 1;
                int e = (r & 3) == 0 ? emin - 1 : (r & 3) == 1 ? lo_e : lo_e + (int)((r >> 2) % 40);
                const int below = e == emin - 1;
                if (e < 0 || e > emax_b) continue;
                uint32_t m = (uint32_t)(r >> 16) & ((1u << (ph - 1)) - 1u);
                if (below) m |= 1u;
                const uint16_t h = (uint16_t)(((r >> 60) & 1u ? 0x8000u : 0u) | ((uint32_t)e << (ph - 1)) | m);
                const float x = (float)sl_half_to_double(h, dt);
                if (!(fabsf(x) < cap) || x == 0.0f) continue;
                sl_rsum_thr_f32 b = a;
                sl_rsum_deposit_f32(&a, x);
                sl_rsum_deposit2_f32(&b, x);
                const int eq = !memcmp(a.p, b.p, sizeof a.p);
                if (below && e >= 1) {
                    boundary++;
                    CHECK(!eq, "%s index %d: %a (biased exponent %d, one below the threshold) left the "
                          "same folds in 2 as in %d", sl_dtype_name(dt), top, (double)x, e, SL_RSUM_K);
                } else if (!below) {
                    same++;
                    CHECK(eq, "%s index %d: %a (biased exponent %d >= %d): 2-fold folds %a %a %a, "
                          "%d-fold %a %a %a", sl_dtype_name(dt), top, (double)x, e, emin, (double)b.p[0],
                          (double)b.p[1], (double)b.p[2], SL_RSUM_K, (double)a.p[0], (double)a.p[1], (double)a.p[2]);
                }
            }
        }
    }
    CHECK(same > 2000 && boundary > 500, "two-fold deposit: %ld equal and %ld boundary cases (too few)",
          same, boundary);
}

/* The 2-fold path's packed test (sl_rsum_h16_scan4, sl_rsum_h16_absmax, sl_rsum_h16_absmin_nz,
 * sl_rsum_two_fold16: the kernels' code, with the host's forms of the 16x2 maximum and minimum)
 * against the values one by one: 16 values a trial (a sub-tile) drawn from zeros of both signs,
 * the smallest subnormals, values at and one below every index's threshold, random values, Inf
 * and NaN; the largest and the smallest nonzero |h| equal the direct ones, and where the test
 * admits a sub-tile below the capacity at an index, every value's 2-fold deposit equals its
 * K-fold one there. */
static void packed_scan16(void)
{
    long admitted = 0;
    for (int d = 0; d < 2; d++) {
        const sl_dtype dt = d ? SL_BF16 : SL_F16;
        const int ph = sl_half_prec(dt), bh = dt == SL_BF16 ? 127 : 15;
        const uint32_t inf = dt == SL_BF16 ? 0x7f80u : 0x7c00u;
        for (int trial = 0; trial < 200000; trial++) {
            const int top = SL_RSUM_K - 1 + (int)(sl_test_rand64() % (uint64_t)(SL_RSUM_F32_TFAST + 2 - SL_RSUM_K));
            const int e = sl_rsum_two_fold_emin16(top, ph, bh);
            uint16_t h[16];
            for (int k = 0; k < 16; k++) {
                const uint64_t r = sl_test_rand64();
                const uint16_t sg = (uint16_t)((r >> 63) << 15), m = (uint16_t)((r >> 20) & ((1u << (ph - 1)) - 1u));
                const int cls = (int)(r % 16);
                int ex = cls < 4 ? e : cls < 6 ? e - 1 : cls < 9 ? (int)((r >> 40) % (inf >> (ph - 1)))
                                                    : (e > 0 ? e : 0) + (int)((r >> 40) % 12);
                if (ex < 0) ex = 0;
                if ((uint32_t)ex >= inf >> (ph - 1)) ex = (int)(inf >> (ph - 1)) - 1;
                h[k] = cls == 6 ? sg : cls == 7 ? (uint16_t)(sg | 1u) : cls == 8 && (r >> 8) % 64 == 0 ? (uint16_t)(sg | inf | ((r >> 9) & 1u)) :
                       (uint16_t)(sg | (uint32_t)ex << (ph - 1) | m);
                if (trial % 3 == 0 && cls > 9) h[k] = 0;     /* sub-tiles mostly of zeros too */
            }
            uint32_t mxw = 0u, mnw = 0x7fff7fffu;
            for (int v = 0; v < 2; v++) {
                uint32_t w[4];
                for (int q = 0; q < 4; q++) w[q] = (uint32_t)h[8 * v + 2 * q] | (uint32_t)h[8 * v + 2 * q + 1] << 16;
                sl_rsum_h16_scan4(w, &mxw, &mnw);
            }
            uint32_t amax = 0u, amin = 0x10000u;
            int ok = 1;
            for (int k = 0; k < 16; k++) {
                const uint32_t a = h[k] & 0x7fffu;
                if (a > amax) amax = a;
                if (a && a < amin) amin = a;
                if (a && a < (uint32_t)(e > 0 ? e : 0) << (ph - 1)) ok = 0;
            }
            CHECK(sl_rsum_h16_absmax(mxw) == amax && sl_rsum_h16_absmin_nz(mnw) == amin,
                  "%s: packed max/min %#x/%#x, direct %#x/%#x", sl_dtype_name(dt),
                  sl_rsum_h16_absmax(mxw), sl_rsum_h16_absmin_nz(mnw), amax, amin);
            const int two = sl_rsum_two_fold16(sl_rsum_h16_absmin_nz(mnw), top, ph, bh);
            CHECK(two == ok, "%s index %d: the packed test says %d, the values %d", sl_dtype_name(dt), top, two, ok);
            const float cap = sl_rsum_from_f32(sl_rsum_cap_f32(top));
            if (!two || !((float)sl_half_to_double((uint16_t)amax, dt) < cap)) continue;
            admitted++;
            sl_rsum_thr_f32 a, b;
            sl_rsum_init_f32(&a);
            if (top > a.top) sl_rsum_upgrade_f32(&a, top);
            for (int i = 0; i < 50; i++)
                sl_rsum_deposit_f32(&a, cap * (float)ldexp((double)(sl_test_rand64() >> 40), -25 - (int)(sl_test_rand64() % 30)));
            b = a;
            for (int k = 0; k < 16; k++) {
                const float x = (float)sl_half_to_double(h[k], dt);
                sl_rsum_deposit_f32(&a, x);
                sl_rsum_deposit2_f32(&b, x);
            }
            CHECK(!memcmp(a.p, b.p, sizeof a.p), "%s index %d: an admitted sub-tile's 2-fold folds differ",
                  sl_dtype_name(dt), top);
        }
    }
    CHECK(admitted > 4000, "packed test: %ld sub-tiles admitted (too few)", admitted);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    const sl_variant *v = sl_variant_find("reproducible");
    CHECK(v && v->cpu && v->determinism == SL_DET_ORDER_INDEPENDENT && v->bound == SL_BOUND_BINNED,
          "registry row `reproducible`");
    if (!v) return sl_test_done("treproducible");
    special_values();
    half_inputs();
    two_fold_deposit();
    packed_scan16();
    round_f32_cases();
    round_f64_cases();
    certify_end_cases();
    for (int d = 0; d < 2; d++) {
        const sl_dtype dt = d ? SL_F64 : SL_F32;
        exact_window(dt, 100000);
        signed_zeros(dt);
        certify_cases(dt);
        endurance(dt);
        const uint64_t ns[] = {1, 7, 1000, 4099, ((uint64_t)1 << 15) + 3};
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
            const uint64_t n = ns[k];
            void *x = malloc((size_t)n * sl_dtype_size(dt));
            if (!x) return 1;
            for (int sp = 0; sp < 2; sp++) {
                fill_wide(x, n, dt, sl_test_seed() + k, sp);
                check_invariance(sp ? "wide+specials" : "wide", x, n, dt);
                if (!sp) check_bound("wide", x, n, dt);
            }
            free(x);
        }
        /* every dataset family: the bound, and invariance on a mid-size n */
        const uint64_t dns[] = {0, 1, 31, 1000, 4097, ((uint64_t)1 << 16) + 3, ((uint64_t)1 << 18) + 5};
        for (size_t di = 0; di < sl_dataset_count(); di++) {
            const sl_dataset *ds = sl_dataset_at(di);
            sl_params p;
            sl_params_defaults(ds, &p);
            for (size_t k = 0; k < sizeof dns / sizeof *dns; k++) {
                const uint64_t n = dns[k];
                void *x = malloc((size_t)(n ? n : 1) * sl_dtype_size(dt));
                sl_err err;
                if (!x) return 1;
                int rc = sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, x, &err);
                CHECK(rc == 0, "dataset %s n=%llu: %s", ds->name, (unsigned long long)n, err.msg);
                if (rc == 0) {
                    check_bound(ds->name, x, n, dt);
                    if (n == 4097) check_invariance(ds->name, x, n, dt);
                }
                free(x);
            }
        }
    }
    printf("treproducible: %ld bound checks, %ld exact-window checks, %ld float32 and float64 rounding "
           "checks, %ld certificate-end checks, certified rounding %ld decided / %ld undecided\n",
           bound_checks, exact_checks, round_checks, end_checks, certified, uncertified);
    CHECK(certified > 10 * uncertified, "certified rounding decided only %ld of %ld sums",
          certified, certified + uncertified);
    return sl_test_done("treproducible");
}

/* ttwin_fast.c: the CPU twins' fast paths equal their straightforward counterparts bit for bit:
 * the loop-free 16-bit conversions of sl_twin.h against sumlab/half.h (every pattern; random,
 * boundary and tie doubles), and every registered twin (per-format specialised loops, float
 * chains, atomic-block's shared block values) against generic mode (sl_tw_set_generic: run-time
 * formats, double chains, no sharing) on random inputs of the four dtypes, awkward n, several
 * launch configurations and order seeds, one buffer refilled between inputs. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "sl_test.h"
#include "sumlab/half.h"
#include "sl_twin.h"
#include "sl_variants.h"

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Every 16-bit pattern widens to the same double. */
static void check_loads(sl_dtype dt)
{
    long bad = 0;
    for (uint32_t h = 0; h < 65536u; h++) {
        const double ref = sl_half_to_double((uint16_t)h, dt);
        const double got = sl_tw_half_to_float((uint16_t)h, dt);
        if (dbits(ref) != dbits(got) && bad++ < 5)
            CHECK(0, "%s pattern 0x%04x: sl_half_to_double %a (0x%016llx), fast %a (0x%016llx)",
                  sl_dtype_name(dt), h, ref, (unsigned long long)dbits(ref), got,
                  (unsigned long long)dbits(got));
    }
    CHECK(bad == 0, "%s: %ld patterns widen differently", sl_dtype_name(dt), bad);
}

static long round_bad;
static void check_round1(double x, sl_dtype dt)
{
    const double ref = sl_half_round(x, dt), got = sl_tw_half_round(x, dt);
    if (dbits(ref) != dbits(got) && round_bad++ < 5)
        CHECK(0, "%s round %a (0x%016llx): sl_half_round %a, fast %a", sl_dtype_name(dt), x,
              (unsigned long long)dbits(x), ref, got);
}

/* Rounding: every pattern, its neighbours, the midpoints to the next pattern and doubles
 * one ulp either side of them (ties and near ties), sums of random pattern pairs (what
 * half-acc rounds), random doubles over the whole range and near the format's range. */
static void check_rounding(sl_dtype dt)
{
    round_bad = 0;
    for (uint32_t h = 0; h < 65536u; h++) {
        const double a = sl_half_to_double((uint16_t)h, dt);
        const double b = sl_half_to_double((uint16_t)(h + 1u), dt);
        check_round1(a, dt);
        if (!isfinite(a) || !isfinite(b) || (h & 0x7fffu) == 0x7fffu) continue;
        const double m = a + (b - a) / 2; /* exact: a, b have few bits */
        check_round1(m, dt);
        check_round1(nextafter(m, INFINITY), dt);
        check_round1(nextafter(m, -INFINITY), dt);
        check_round1(nextafter(a, INFINITY), dt);
        check_round1(nextafter(a, -INFINITY), dt);
    }
    for (long k = 0; k < 4000000; k++) {
        const uint64_t r = sl_test_rand64();
        double x;
        if (k % 3 == 0) {
            memcpy(&x, &r, sizeof x); /* any double, NaN payloads included */
        } else if (k % 3 == 1) {
            x = sl_half_to_double((uint16_t)r, dt) + sl_half_to_double((uint16_t)(r >> 16), dt);
        } else { /* magnitudes around the format's range, random low bits */
            const int emin = sl_half_emin(dt) - sl_half_prec(dt) - 3, emax = sl_half_emax(dt) + 3;
            const int e = emin + (int)((r >> 53) % (uint64_t)(emax - emin + 1));
            x = ldexp(1.0 + (double)(r & 0xfffffffffffffull) * 0x1p-52, e);
            if (r >> 63) x = -x;
        }
        check_round1(x, dt);
    }
    CHECK(round_bad == 0, "%s: %ld doubles round differently", sl_dtype_name(dt), round_bad);
}

/* x[0..n) of format dt: mixed signs and magnitudes by kind (0: uniform [-1, 1); 1: 60
 * binades; 2: around the float32 subnormal range, so the float32 atomics flush; 3: the 16-bit
 * formats' whole finite range, subnormals included), zeros of both signs now and then. */
static void fill(void *x, uint64_t n, sl_dtype dt, int kind)
{
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t r = sl_test_rand64();
        double v = (double)(r >> 11) * 0x1p-53;
        if (kind == 1) v = ldexp(1.0 + v, (int)((r >> 3) % 60u) - 30);
        else if (kind == 2) v = ldexp(1.0 + v, (int)((r >> 3) % 12u) - 132);
        else if (kind == 3) v = ldexp(1.0 + v, (int)((r >> 3) % 40u) - 25);
        else v = 2.0 * v - 1.0;
        if (kind && (r & 1u)) v = -v;
        if ((r & 0x3f0u) == 0) v = (r & 4u) ? -0.0 : 0.0;
        if (dt == SL_F64) ((double *)x)[i] = v;
        else if (dt == SL_F32) ((float *)x)[i] = (float)v;
        else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
    }
}

static int run_twin(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                    const sl_launch *req, uint64_t seed, int generic, double *r, sl_err *err)
{
    sl_launch cfg = *req;
    cfg.order_seed = seed;
    sl_variant_resolve(v, &cfg, n, dt);
    sl_tw_set_generic(generic);
    const int rc = sl_variant_cpu(v, x, n, dt, &cfg, r, err);
    sl_tw_set_generic(0);
    return rc;
}

static long twin_compares;

static void check_twins(void *x, uint64_t n, sl_dtype dt, int kind)
{
    static const sl_launch cfgs[] = {
        {0}, {.block = 64}, {.block = 1024, .grid = 3}, {.block = 96, .grid = 1},
        {.addr_mod = 4}, {.addr_mod = 8, .block = 32, .grid = 2}, {.items = 4, .block = 128},
    };
    fill(x, n, dt, kind);
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        if (!v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        const int nondet = v->determinism == SL_DET_NONDETERMINISTIC;
        for (size_t ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++)
            for (uint64_t seed = 1; seed <= (nondet ? 4u : 1u); seed++) {
                double fast = 0, ref = 0;
                sl_err e1, e2;
                const int rc1 = run_twin(v, x, n, dt, &cfgs[ci], seed, 0, &fast, &e1);
                const int rc2 = run_twin(v, x, n, dt, &cfgs[ci], seed, 1, &ref, &e2);
                twin_compares++;
                CHECK(rc1 == rc2 && (rc1 || dbits(fast) == dbits(ref)),
                      "%s %s n=%llu kind %d cfg %zu seed %llu: fast rc %d %a (0x%016llx), "
                      "generic rc %d %a (0x%016llx)", v->name, sl_dtype_name(dt),
                      (unsigned long long)n, kind, ci, (unsigned long long)seed, rc1, fast,
                      (unsigned long long)dbits(fast), rc2, ref, (unsigned long long)dbits(ref));
            }
    }
}

/* The same buffer refilled between two runs of one configuration: the second must not reuse
 * the first's shared block values. */
static void check_refill(void *x, uint64_t n, sl_dtype dt)
{
    const sl_variant *v = sl_variant_find("atomic-block");
    const sl_launch cfg = {0};
    double a, fast, ref;
    sl_err err;
    CHECK(v != NULL, "atomic-block not registered");
    if (!v) return;
    fill(x, n, dt, 0);
    CHECK(run_twin(v, x, n, dt, &cfg, 1, 0, &a, &err) == 0, "atomic-block: %s", err.msg);
    fill(x, n, dt, 1);
    CHECK(run_twin(v, x, n, dt, &cfg, 2, 0, &fast, &err) == 0, "atomic-block: %s", err.msg);
    CHECK(run_twin(v, x, n, dt, &cfg, 2, 1, &ref, &err) == 0, "atomic-block: %s", err.msg);
    CHECK(dbits(fast) == dbits(ref), "atomic-block %s n=%llu refilled: fast %a, generic %a",
          sl_dtype_name(dt), (unsigned long long)n, fast, ref);
}

/* The pairwise tree by its definition: sum(x, n) = sum(x, p) + sum(x + p, n - p), p the largest
 * power of two below n; in float (float32, 16-bit inputs widened) or double. */
static double pw_def(const void *x, sl_dtype dt, uint64_t off, uint64_t n)
{
    if (n == 1) return sl_tw_load(x, dt, off);
    uint64_t p = 1;
    while (p * 2 < n) p *= 2;
    const double a = pw_def(x, dt, off, p), b = pw_def(x, dt, off + p, n - p);
    return dt == SL_F64 ? a + b : (double)((float)a + (float)b);
}

/* pairwise's twin on 1 and several threads (leaves of 2^16 joined by the tree) equals the
 * definition bit for bit: sizes around the leaf and digit boundaries. */
static void check_pairwise(void)
{
    const sl_variant *v = sl_variant_find("pairwise");
    CHECK(v != NULL, "no pairwise row");
    if (!v) return;
    static const uint64_t ns[] = {1, 2, 17, 65535, 65536, 65537, 131072, 3 * 65536 + 5, 7 * 65536,
                                  (1u << 20) + 65536 + 4097};
    const uint64_t nmax = (1u << 20) + 65536 + 4097;
    double *buf = malloc(nmax * sizeof *buf);
    if (!buf) return;
    for (int dt = SL_F32; dt <= SL_BF16; dt++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            const uint64_t n = ns[i];
            fill(buf, n, (sl_dtype)dt, (int)(i % 4));
            const double want = sl_tw_out(pw_def(buf, (sl_dtype)dt, 0, n), (sl_dtype)dt);
            for (unsigned th = 1; th <= 7; th += 6) {
                sl_twin_set_threads(th);
                sl_launch cfg;
                memset(&cfg, 0, sizeof cfg);
                double got = 0;
                sl_err err = {{0}};
                CHECK(sl_variant_cpu(v, buf, n, (sl_dtype)dt, &cfg, &got, &err) == 0, "pairwise: %s", err.msg);
                CHECK(dbits(got) == dbits(want), "pairwise %s n=%llu threads %u: %a, definition %a",
                      sl_dtype_name((sl_dtype)dt), (unsigned long long)n, th, got, want);
                twin_compares++;
            }
        }
    sl_twin_set_threads(1);
    free(buf);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    const sl_dtype halves[2] = {SL_F16, SL_BF16};
    for (int i = 0; i < 2; i++) {
        check_loads(halves[i]);
        check_rounding(halves[i]);
    }
    static const uint64_t ns[] = {1, 7, 33, 1000, 4099, 70001};
    double *buf = malloc(70001 * sizeof *buf); /* one buffer, refilled: the sharing's compare */
    if (!buf) return 1;
    for (int dt = SL_F32; dt <= SL_BF16; dt++)
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
            for (int kind = 0; kind < 4; kind++) check_twins(buf, ns[ni], (sl_dtype)dt, kind);
    for (int dt = SL_F32; dt <= SL_BF16; dt++) check_refill(buf, 70001, (sl_dtype)dt);
    free(buf);
    check_pairwise();
    printf("ttwin_fast: %ld twin runs compared with generic mode\n", twin_compares);
    return sl_test_done("ttwin_fast");
}

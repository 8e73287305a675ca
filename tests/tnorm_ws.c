/* tnorm_ws.c: norm2 `correct`'s workspace layout (kernels/norm/norm.h): the bytes a launch needs
 * zero (the exact kernel's ticket and flags, the first pass's ticket and gate) never lie under any grid's
 * per-block digits and lie inside every configuration's workspace; and a model of the GPU harness's
 * workspace reuse (zeroed at allocation and when another variant held it, over the first
 * configuration's bytes only) run through tgpu_determinism's launch requests in its order. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "sl_test.h"
#include "sl_layout.h"
#include "sl_variants.h"
#include "norm/norm.h"

typedef struct { uint64_t lo, hi; } span;   /* bytes [lo, hi) */

static int overlap(span a, span b) { return a.lo < b.hi && b.lo < a.hi; }

/* The spans a launch of grid g needs zero at its start: the exact kernel's ticket and flags, the
 * first pass's ticket and gate. */
static size_t zero_spans(uint64_t g, sl_dtype dt, span *s)
{
    (void)g;
    (void)dt;
    size_t k = 0;
    s[k++] = (span){0, 4};
    s[k++] = (span){SL_NRM_WS_FLAG, SL_NRM_WS_FLAG + 4u};
    s[k++] = (span){SL_NRM_WS_PSUM, SL_NRM_WS_PSUM + 8u};   /* the first pass's ticket and gate */
    return k;
}

static span parts_span(uint64_t g, sl_dtype dt)
{
    const uint64_t lo = sl_nrm_ws_parts(g, dt);
    return (span){lo, lo + g * (uint64_t)SL_NRM_LIMBS(dt) * 8u};
}

/* Every grid: the zero spans inside the smallest workspace (grid 1), out of every grid's digits
 * (the digits start at one offset for every grid: checked against the lowest start). */
static void check_layout(sl_dtype dt)
{
    const size_t ws1 = sl_nrm_ws_correct(1, dt);
    uint64_t parts_min = UINT64_MAX, zero_max = 0;
    for (uint64_t g = 1; g <= SL_NRM_MAX_GRID; g++) {
        const span p = parts_span(g, dt);
        if (p.lo < parts_min) parts_min = p.lo;
        CHECK(p.lo >= SL_WS_HEADER && p.hi == sl_nrm_ws_correct(g, dt) && p.lo % 8u == 0u,
              "%s grid %llu: digits [0x%llx, 0x%llx) outside the workspace of 0x%zx bytes",
              sl_dtype_name(dt), (unsigned long long)g, (unsigned long long)p.lo,
              (unsigned long long)p.hi, sl_nrm_ws_correct(g, dt));
        span z[8];
        const size_t nz = zero_spans(g, dt, z);
        for (size_t i = 0; i < nz; i++) {
            if (z[i].hi > zero_max) zero_max = z[i].hi;
            if (z[i].hi > ws1 || overlap(z[i], p)) {
                CHECK(0, "%s grid %llu: zero span [0x%llx, 0x%llx) beyond the grid-1 workspace "
                      "(0x%zx) or under its own digits", sl_dtype_name(dt), (unsigned long long)g,
                      (unsigned long long)z[i].lo, (unsigned long long)z[i].hi, ws1);
                return;
            }
        }
        for (size_t i = 0; i + 1 < nz; i++)
            for (size_t j = i + 1; j < nz; j++)
                CHECK(!overlap(z[i], z[j]), "%s grid %llu: zero spans %zu and %zu overlap",
                      sl_dtype_name(dt), (unsigned long long)g, i, j);
    }
    CHECK(zero_max <= parts_min, "%s: a zero span ends at 0x%llx, past the lowest digits' start 0x%llx",
          sl_dtype_name(dt), (unsigned long long)zero_max, (unsigned long long)parts_min);
}

/* The harness (kernels/gpu_harness.cu) on one ctx: a workspace of `alloc` bytes that another
 * variant left dirty, handed to `correct` zeroed over the first configuration's bytes; grown (and
 * zeroed whole) when a configuration needs more. Every launch is taken to fall back (the exact
 * kernel writes its digits), the worst case. Each launch's zero spans must be zeroed and never
 * written since. Returns the failures. */
static int model_harness(const sl_variant *v, sl_dtype dt, uint64_t n, uint32_t dev_sm, uint64_t alloc)
{
    static const sl_launch reqs[] = {{.block = 0},   {.block = 64, .grid = 3},      {.block = 1024},
                                     {.block = 96, .sm_count = 7},  {.block = 256, .grid = 1000},
                                     {.block = 512, .sm_count = 300}, {.block = 32, .grid = 1, .sm_count = 1}};
    const size_t nreq = sizeof reqs / sizeof *reqs;
    span dirty[2 * (sizeof reqs / sizeof *reqs) + 2];
    size_t ndirty = 0;
    uint64_t zeroed = 0;                      /* [0, zeroed) zeroed, except the dirty spans */
    int fails = 0;
    for (size_t c = 0; c <= nreq; c++) {      /* the default first (the runs), then every request */
        sl_launch cfg = c == 0 ? reqs[0] : reqs[c - 1];
        if (cfg.sm_count == 0) cfg.sm_count = dev_sm;
        sl_variant_resolve(v, &cfg, n, dt);
        const uint64_t need = sl_nrm_ws_correct(cfg.grid, dt);
        if (need > alloc) {
            alloc = need;
            zeroed = need;
            ndirty = 0;
        } else if (c == 0) {
            zeroed = need;                    /* the owner changed: the first config's bytes */
        }
        span z[8];
        const size_t nz = zero_spans(cfg.grid, dt, z);
        for (size_t i = 0; i < nz; i++) {
            int bad = z[i].hi > zeroed;
            for (size_t d = 0; d < ndirty && !bad; d++) bad = overlap(z[i], dirty[d]);
            if (bad) {
                fails++;
                CHECK(0, "%s n=%llu sm %u: config %zu (block %u grid %u): bytes [0x%llx, 0x%llx) it "
                      "needs zero were not zeroed or hold an earlier launch's digits",
                      sl_dtype_name(dt), (unsigned long long)n, dev_sm, c, cfg.block, cfg.grid,
                      (unsigned long long)z[i].lo, (unsigned long long)z[i].hi);
            }
        }
        dirty[ndirty++] = parts_span(cfg.grid, dt);
    }
    return fails;
}

int main(void)
{
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    const sl_variant *v = sl_variant_find_op("norm2", "correct");
    CHECK(v != NULL, "norm2 correct: not registered");
    if (!v) return sl_test_done("tnorm_ws");
    for (int d = 0; d < 4; d++) check_layout(dts[d]);
    static const uint64_t ns[] = {1000, (1ull << 18) + 1, (1ull << 24) + 1, 1ull << 30};
    static const uint32_t sms[] = {132, 1, 7, 108, 300};
    int fails = 0;
    for (int d = 0; d < 4; d++)
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++)
            for (size_t s = 0; s < sizeof sms / sizeof *sms; s++) {
                fails += model_harness(v, dts[d], ns[k], sms[s], 0);
                fails += model_harness(v, dts[d], ns[k], sms[s], (uint64_t)1 << 40);
            }
    printf("tnorm_ws: %d harness-model failures\n", fails);
    return sl_test_done("tnorm_ws");
}

/* tgpu_twins.c: the oracle check (label gpu): for every registry variant with both a GPU kernel
 * and a CPU twin (of every operation; var and std with ddof 0 and 1), every dataset family, all
 * four dtypes and many n, aligned and misaligned input,
 * the GPU result equals the twin's bits (deterministic variants; both NaN counts as equal), or
 * lies within the variant's a-priori bound of the exact sum (nondeterministic variants, GPU
 * and twin over several seeds). Returns 77 without a GPU. SUMLAB_TEST_QUICK=1: small n only;
 * 2: also every fourth dataset family (for compute-sanitizer). The two-input variants (dot) run
 * on (x, y) pairs: a pair family's, or x and the family's values of the next seed. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_datasets.h"
#include "sl_gpu.h"
#include "sl_reference.h"
#include "sl_variants.h"
#include "sl_measure.h"
#include "sumlab/half.h"
#include "exact/binned.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Within the bound of the exact sum; a non-finite reference: a NaN sum must give NaN. */
static int within_bound(const sl_variant *v, const sl_reference *ref, double r, uint64_t n,
                        sl_dtype dt, const sl_launch *cfg, double *bound_out, double *err_out)
{
    *bound_out = *err_out = NAN;
    if (!ref->finite) return isnan(ref->rounded) ? isnan(r) : 1;
    /* Higham's bounds assume no overflow: with sum|x| beyond the accumulator's range a
     * non-finite result is legitimate */
    const sl_dtype acc = sl_variant_acc(v, dt);
    const double big = acc == SL_F64 ? DBL_MAX : acc == SL_F16 ? 65504.0 : acc == SL_BF16 ? 0x1.fep127 : FLT_MAX;
    if (!(ref->abssum <= big) && !isfinite(r)) return 1;
    double b = sl_variant_bound(v, ref, n, dt, cfg);
    sl_errors e = sl_reference_errors(ref, r, dt);
    *bound_out = b;
    *err_out = e.abs_err;
    return e.abs_err <= b;
}

static long gpu_runs;

static void check_one2(sl_gpu_ctx *ctx, const sl_variant *v, const void *x, const void *y, uint64_t n,
                       sl_dtype dt, uint32_t off, const char *dsname, const sl_reference *ref, uint32_t ddof)
{
    sl_launch cfg;
    sl_err err;
    double r[3];
    memset(&cfg, 0, sizeof cfg);
    cfg.ddof = ddof;
    const int det = v->determinism != SL_DET_NONDETERMINISTIC;
    const int reps = det ? 2 : 3;
    int rc = sl_gpu_ctx_run(ctx, v, &cfg, reps, 0, r, NULL, &err);
    gpu_runs++;
    CHECK(rc == 0, "%s/%s %s %s n=%llu off=%u ddof=%u: GPU run failed: %s", v->op, v->name, dsname,
          sl_dtype_name(dt), (unsigned long long)n, off, ddof, err.msg);
    if (rc) return;
    if (det) {
        double t;
        const void *const in[2] = {x, y};   /* y: a two-input operation's second array (dot) */
        rc = sl_variant_cpu_in(v, in, n, dt, &cfg, &t, &err);
        CHECK(rc == 0, "%s: twin failed: %s", v->name, err.msg);
        if (rc) return;
        for (int i = 0; i < reps; i++)
            CHECK(same_bits(r[i], t),
                  "%s/%s %s %s n=%llu off=%u ddof=%u (block %u grid %u items %u addr_mod %u): GPU %a "
                  "!= twin %a", v->op, v->name, dsname, sl_dtype_name(dt), (unsigned long long)n, off,
                  ddof, cfg.block, cfg.grid, cfg.items, cfg.addr_mod, r[i], t);
        return;
    }
    /* nondeterministic: within the sum's bound (no other operation has such a variant) */
    if (strcmp(v->op, "sum")) return;
    double b, e;
    for (int i = 0; i < reps; i++)
        CHECK(within_bound(v, ref, r[i], n, dt, &cfg, &b, &e),
              "%s %s %s n=%llu off=%u: GPU result %a error %g > bound %g", v->name, dsname,
              sl_dtype_name(dt), (unsigned long long)n, off, r[i], e, b);
    for (uint64_t s = 1; s <= 3; s++) {
        sl_launch c2 = cfg;
        double t;
        c2.order_seed = sl_test_seed() * 31u + s;
        rc = sl_variant_cpu(v, x, n, dt, &c2, &t, &err);
        CHECK(rc == 0, "%s: twin failed: %s", v->name, err.msg);
        if (rc) return;
        CHECK(within_bound(v, ref, t, n, dt, &c2, &b, &e),
              "%s %s %s n=%llu: twin (seed %llu) %a error %g > bound %g", v->name, dsname,
              sl_dtype_name(dt), (unsigned long long)n, (unsigned long long)c2.order_seed, t, e, b);
    }
}


static void check_one(sl_gpu_ctx *ctx, const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                      uint32_t off, const char *dsname, const sl_reference *ref, uint32_t ddof)
{
    check_one2(ctx, v, x, NULL, n, dt, off, dsname, ref, ddof);
}

/* 1 when the comma list `list` holds "name/dtype" for variant name on dt. */
static int skipped(const char *list, const char *name, sl_dtype dt)
{
    if (!list) return 0;
    char want[96];
    snprintf(want, sizeof want, "%s/%s", name, sl_dtype_name(dt));
    const size_t len = strlen(want);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        const size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && !strncmp(p, want, l)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* 1 when op is an item of the comma-separated list */
static int op_listed(const char *list, const char *op)
{
    const size_t len = strlen(op);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        const size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && !strncmp(p, op, len)) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* The 16-bit binned kernels' 2-fold fast path (rs_take_sub: every lane of a warp below its
 * capacity, unscaled, no nonzero value below sl_rsum_two_fold_emin16) on its boundary: per index,
 * +-M pairs of the binade that sets it (one value in 16), then pairs x, -x shuffled within regions
 * of 4096 values: all at or above the threshold, 1 pair in 32 one binade below it with the lowest
 * significand bit set, or half of them so, and zeros; one value t left over. The exact sum is t:
 * a value below the threshold taken by 2 folds rounds its tie in fold 1 by the fold's parity, so
 * x and -x would no longer cancel and the sum would move off t. Every `sum` variant's GPU result
 * against its twin's bits (and the bound). */
static void two_fold_boundary(sl_dtype dt, const char *skip, long *skips)
{
    const int ph = sl_half_prec(dt), bh = dt == SL_BF16 ? 127 : 15;
    static const int em_bf16[] = {1, 12, 40, 80, 118, 127, 160, 205, 230, 250};
    static const int em_f16[] = {1, 6, 12, 17, 22, 27, 30};
    const int *ems = dt == SL_BF16 ? em_bf16 : em_f16;
    const int nem = dt == SL_BF16 ? (int)(sizeof em_bf16 / sizeof *em_bf16) : (int)(sizeof em_f16 / sizeof *em_f16);
    for (int ei = 0; ei < nem; ei++) {
        const int em = ems[ei];
        const uint32_t eb32 = (uint32_t)(dt == SL_BF16 ? em : em - 15 + 127);
        const int top = sl_rsum_treq_f32(eb32);
        const int emin = sl_rsum_two_fold_emin16(top, ph, bh);
        const int lo = emin > 1 ? emin : 1;
        const uint64_t n = ei == 3 ? ((uint64_t)1 << 23) + 5 : 3u * 65536u + 7u;
        uint16_t *h = malloc((size_t)n * sizeof *h);
        if (!h) { CHECK(0, "out of memory"); return; }
        const uint16_t mmask = (uint16_t)((1u << (ph - 1)) - 1u);
        /* the leftover value t (n is odd): at the threshold, or the smallest normal */
        const uint16_t t = (uint16_t)(((uint32_t)(lo <= em ? lo : em) << (ph - 1)) | 5u);
        for (uint64_t r0 = 0; r0 < n; r0 += 4096) {
            const uint64_t r1 = r0 + 4096 < n ? r0 + 4096 : n;
            const int region = (int)((r0 / 4096) % 3);
            uint64_t i = r0;
            for (; i + 1 < r1; i += 2) {
                const uint64_t rnd = sl_test_rand64();
                uint16_t v;
                if (rnd % 16 == 0) {
                    v = (uint16_t)(((uint32_t)em << (ph - 1)) | ((rnd >> 8) & mmask));
                } else if (rnd % 16 == 1) {
                    v = 0;
                } else if ((region == 1 && (rnd >> 4) % 32 == 0) || (region == 2 && (rnd >> 4) % 2 == 0)) {
                    const int e = emin - 1 >= 0 ? emin - 1 : 0;       /* one binade below */
                    if (e > em) { v = 0; } else v = (uint16_t)(((uint32_t)e << (ph - 1)) | ((rnd >> 8) & mmask) | 1u);
                } else if (lo <= em) {
                    const int e = lo + (int)((rnd >> 32) % (uint64_t)(em - lo + 1));
                    v = (uint16_t)(((uint32_t)e << (ph - 1)) | ((rnd >> 8) & mmask));
                } else {
                    v = 0;
                }
                h[i] = v;
                h[i + 1] = (uint16_t)(v | 0x8000u);
            }
            for (; i < r1; i++) h[i] = t;                             /* the last region's odd slot */
            for (uint64_t j = r1 - 1; j > r0; j--) {                  /* shuffled within the region */
                const uint64_t k = r0 + sl_test_rand64() % (j - r0 + 1);
                const uint16_t t = h[j];
                h[j] = h[k];
                h[k] = t;
            }
        }
        sl_reference ref;
        sl_err err;
        if (sl_reference_compute(&ref, h, n, dt, &err)) { CHECK(0, "reference: %s", err.msg); free(h); return; }
        CHECK(ref.finite && ref.rounded == sl_half_to_double(t, dt),
              "%s exponent %d: the boundary data's exact sum %a is not its leftover value %a",
              sl_dtype_name(dt), em, ref.rounded, sl_half_to_double(t, dt));
        for (uint32_t off = 0; off < 2; off++) {
            sl_gpu_ctx *ctx;
            if (sl_gpu_ctx_create(&ctx, h, n, dt, off, &err)) { CHECK(0, "ctx: %s", err.msg); continue; }
            for (size_t vi = 0; vi < sl_variant_count(); vi++) {
                const sl_variant *v = sl_variant_at(vi);
                if (!v->gpu || !v->cpu || strcmp(v->op, "sum") || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                if (v->max_n && n > v->max_n) continue;
                if (skipped(skip, v->name, dt)) { (*skips)++; continue; }
                check_one(ctx, v, h, n, dt, off, "two-fold-boundary", &ref, 0);
            }
            sl_gpu_ctx_destroy(ctx);
        }
        sl_reference_clear(&ref);
        free(h);
    }
}

int main(void)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) {
        printf("tgpu_twins: skipped: %s\n", why.msg);
        return SL_TEST_SKIP;
    }
    const char *q = getenv("SUMLAB_TEST_QUICK");
    const int quick = (q && *q) ? atoi(q) : 0; /* 1: small n; 2: also every 4th family */
    printf("tgpu_twins: %s (%d SMs)%s\n", info.name, info.sm_count, quick ? ", quick" : "");
    /* powers of two (aligned: no scalar head or tail, the kernels' edge-free paths), one
     * block (1000, 4096) and many blocks (2^18), next to ragged sizes */
    const uint64_t ns_full[] = {0, 1, 2, 31, 33, 1000, 4096, 4097, 8193, 100003,
                                (uint64_t)1 << 18, ((uint64_t)1 << 20) + 3,
                                ((uint64_t)1 << 24) + 1};
    const uint64_t ns_quick[] = {0, 1, 2, 31, 33, 1000, 4096, 4097, 8193, (uint64_t)1 << 16};
    const uint64_t *ns = quick ? ns_quick : ns_full;
    const size_t nns = quick ? sizeof ns_quick / sizeof *ns_quick : sizeof ns_full / sizeof *ns_full;

    /* float16/bfloat16 too: every variant accumulates them in float32 (half-acc in the input
     * format) and its result must equal its twin's bit for bit; a family whose default
     * parameters do not fit a 16-bit format (ill-conditioned's cond, cauchy's tail) is
     * generated with fitting ones or counted as not generated */
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    /* SUMLAB_TEST_DTYPE=D: that format only (to run the four as parallel processes) */
    const char *only = getenv("SUMLAB_TEST_DTYPE");
    sl_dtype only_dt = SL_F32;
    if (only && *only && sl_dtype_parse(only, &only_dt)) {
        fprintf(stderr, "tgpu_twins: SUMLAB_TEST_DTYPE=%s is not a dtype\n", only);
        return 2;
    }
    /* SUMLAB_TEST_SKIP=V/D,...: variant V on dtype D not run (tests/sanitize.sh: the tools that
     * do not support dynamic parallelism skip superacc/f64), counted in the summary */
    const char *skip = getenv("SUMLAB_TEST_SKIP");
    /* SUMLAB_TEST_OPS=OP,...: those operations' variants only (to run the sum and the other
     * operations as parallel processes); unset: every operation */
    const char *ops = getenv("SUMLAB_TEST_OPS");
    long not_generated = 0, skips = 0;
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        if (only && *only && dt != only_dt) continue;
        for (size_t di = 0; di < sl_dataset_count(); di++) {
            const sl_dataset *ds = sl_dataset_at(di);
            sl_params p;
            sl_err perr;
            CHECK(sl_test_params(ds, dt, &p, &perr) == 0, "%s", perr.msg);
            for (size_t k = 0; k < nns; k++) {
                const uint64_t n = ns[k];
                if (quick >= 2 && di % 4 != 0) continue;
                void *x = malloc((size_t)(n ? n : 1) * sl_dtype_size(dt));
                if (!x) { CHECK(0, "out of memory (n=%llu)", (unsigned long long)n); continue; }
                sl_err err;
                int rc = sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, x, &err);
                if (sl_test_half_overflow(dt, rc, &err)) {
                    not_generated++;   /* e.g. cauchy's tail beyond 65504 */
                    free(x);
                    continue;
                }
                CHECK(rc == 0, "dataset %s %s n=%llu: %s", ds->name, sl_dtype_name(dt), (unsigned long long)n, err.msg);
                sl_reference ref;
                int have_ref = rc == 0 && sl_reference_compute(&ref, x, n, dt, &err) == 0;
                CHECK(rc || have_ref, "reference %s n=%llu: %s", ds->name, (unsigned long long)n, err.msg);
                for (uint32_t off = 0; have_ref && off < 2; off++) {
                    sl_gpu_ctx *ctx;
                    if (sl_gpu_ctx_create(&ctx, x, n, dt, off, &err)) {
                        CHECK(0, "ctx %s n=%llu: %s", ds->name, (unsigned long long)n, err.msg);
                        continue;
                    }
                    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
                        const sl_variant *v = sl_variant_at(vi);
                        if (!v->gpu || !v->cpu) continue;   /* one input (dot: below) */
                        if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                        if (v->max_n && n > v->max_n) continue;
                        if (ops && *ops && !op_listed(ops, v->op)) continue;
                        if (skipped(skip, v->name, dt)) { skips++; continue; }
                        /* var/std divide by n - ddof: both of torch's and numpy's defaults.
                         * Beyond 2^21 values (where the kernels' unrolled loop runs) the other
                         * operations' variants run on the aligned copy with ddof 1 only: their
                         * twins would otherwise triple the test's time; the edges and ddof 0
                         * are checked at every smaller n */
                        const int var_std = !strcmp(v->op, "var") || !strcmp(v->op, "std");
                        const int big = strcmp(v->op, "sum") && n > ((uint64_t)1 << 21);
                        if (big && off) continue;
                        for (uint32_t ddof = var_std && big ? 1u : 0u; ddof < (var_std ? 2u : 1u); ddof++)
                            check_one(ctx, v, x, n, dt, off, ds->name, &ref, ddof);
                    }
                    sl_gpu_ctx_destroy(ctx);
                }
                /* the two-input variants (dot): the pair family's (x, y), or x and the same
                 * family's values of the next seed as y; kernel == twin, aligned and misaligned */
                if (rc == 0 && (!ops || !*ops || op_listed(ops, "dot"))) {
                    const size_t bytes = (size_t)(n ? n : 1) * sl_dtype_size(dt);
                    void *xd = malloc(bytes), *yd = malloc(bytes);
                    int grc = !xd || !yd ? -1
                              : (ds->flags & SL_DS_PAIR)
                                  ? sl_dataset_generate_pair(ds, dt, sl_test_seed(), n, &p, xd, yd, 1, &err)
                                  : sl_dataset_generate(ds, dt, sl_test_seed() + 1, n, &p, 0, n, yd, &err);
                    if (xd && !(ds->flags & SL_DS_PAIR)) memcpy(xd, x, (size_t)n * sl_dtype_size(dt));
                    if (sl_test_half_overflow(dt, grc, &err)) grc = 1;
                    CHECK(grc >= 0, "pair %s %s n=%llu: %s", ds->name, sl_dtype_name(dt), (unsigned long long)n, err.msg);
                    for (uint32_t off = 0; grc == 0 && off < 2; off++) {
                        sl_gpu_ctx *ctx;
                        if (sl_gpu_ctx_create(&ctx, xd, n, dt, off, &err) || sl_gpu_ctx_set_y(ctx, yd, &err)) {
                            CHECK(0, "ctx (x, y) %s n=%llu: %s", ds->name, (unsigned long long)n, err.msg);
                            sl_gpu_ctx_destroy(ctx);
                            continue;
                        }
                        for (size_t vi = 0; vi < sl_variant_count(); vi++) {
                            const sl_variant *v = sl_variant_at(vi);
                            if (!v->gpu2 || !v->cpu2 || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                            if (v->max_n && n > v->max_n) continue;
                            if (skipped(skip, v->name, dt)) { skips++; continue; }
                            if (off && n > ((uint64_t)1 << 21)) continue;
                            check_one2(ctx, v, xd, yd, n, dt, off, ds->name, NULL, 0);
                        }
                        sl_gpu_ctx_destroy(ctx);
                    }
                    free(xd);
                    free(yd);
                }
                if (have_ref) sl_reference_clear(&ref);
                free(x);
            }
            /* progress on stderr (unbuffered): a run stopped by a time cap still shows how far
             * it got and that no check had failed by then */
            fprintf(stderr, "tgpu_twins: %s %s done: %ld GPU runs, %ld checks, %ld failed so far\n",
                    sl_dtype_name(dt), ds->name, gpu_runs, sl_test_checks, sl_test_failures);
        }
    }
    /* the 16-bit binned kernels' 2-fold path on its boundary (the `sum` variants) */
    for (int d = 2; d < 4; d++)
        if ((!only || !*only || dts[d] == only_dt) && (!ops || !*ops || op_listed(ops, "sum")))
            two_fold_boundary(dts[d], skip, &skips);
    printf("tgpu_twins: %ld GPU runs (%ld 16-bit inputs whose values overflow the format not generated)\n",
           gpu_runs, not_generated);
    if (skips) printf("tgpu_twins: %ld runs skipped by SUMLAB_TEST_SKIP=%s\n", skips, skip);
    return sl_test_done("tgpu_twins");
}

/* ttwin_bounds.c: every CPU twin's error lies within its a-priori bound (sl_reference_bound with
 * the variant's bound model and depth()) on every dataset family, every dtype (float16/bfloat16
 * too: float32 accumulation, or the input format for half-acc), several n <= 2^18;
 * families whose exact sum is not finite check propagation instead (a NaN sum gives NaN, an
 * infinite one a non-finite result). Nondeterministic twins: three commit-order seeds. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_datasets.h"
#include "sl_reference.h"
#include "sl_variants.h"
#include "sl_measure.h"
#include "sl_twin.h"
#include "exact/pairsum.h"

static long bound_checks, propagation_checks, inf_checks, overflow_skips, not_generated;

/* The largest finite value of the variant's accumulator format. */
static double acc_max(const sl_variant *v, sl_dtype dt) { return sl_psum_fmt_max(sl_variant_acc(v, dt)); }

/* fin_abssum: sum |x_i| over the finite inputs (in double, rounded upward enough for a margin) */
static void check_twin(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                       const sl_reference *ref, const char *dsname, uint64_t seed, double fin_abssum)
{
    sl_launch cfg;
    sl_err err;
    double r;
    memset(&cfg, 0, sizeof cfg);
    cfg.order_seed = seed;
    sl_variant_resolve(v, &cfg, n, dt);
    int rc = sl_variant_cpu(v, x, n, dt, &cfg, &r, &err);
    CHECK(rc == 0, "%s %s %s n=%llu: twin failed: %s", v->name, dsname, sl_dtype_name(dt),
          (unsigned long long)n, err.msg);
    if (rc) return;
    if (!ref->finite) {
        propagation_checks++;
        if (isnan(ref->rounded))
            CHECK(isnan(r), "%s %s %s n=%llu: exact sum is NaN, twin gave %a", v->name, dsname,
                  sl_dtype_name(dt), (unsigned long long)n, r);
        else if (!ref->overflow && fin_abssum < 0.5 * acc_max(v, dt))
            /* an Inf among the inputs and no partial sum of the finite ones near the
             * accumulator's range: IEEE addition in any order gives that Inf (Kahan's
             * compensation would give NaN: the variant must not) */
            CHECK(r == ref->rounded, "%s %s %s n=%llu: exact sum is %a (an Inf input), twin gave %a",
                  v->name, dsname, sl_dtype_name(dt), (unsigned long long)n, ref->rounded, r);
        else
            CHECK(!isfinite(r), "%s %s %s n=%llu: exact sum is %a, twin gave finite %a", v->name,
                  dsname, sl_dtype_name(dt), (unsigned long long)n, ref->rounded, r);
        if (!isnan(ref->rounded) && !ref->overflow && fin_abssum < 0.5 * acc_max(v, dt)) inf_checks++;
        return;
    }
    if (v->bound == SL_BOUND_NONE) return;
    /* Higham's bounds assume no overflow: when sum|x| exceeds the accumulator's range a
     * non-finite intermediate is legitimate, so only a finite result is held to the bound. */
    if (!(ref->abssum <= acc_max(v, dt)) && !isfinite(r)) {
        overflow_skips++;
        return;
    }
    const double k = sl_variant_depth(v, n, dt, &cfg);
    double b = sl_variant_bound(v, ref, n, dt, &cfg);
    const sl_errors e = sl_reference_errors(ref, r, dt);
    bound_checks++;
    CHECK(e.abs_err <= b,
          "%s %s %s n=%llu (block %u grid %u, depth %g): twin %a, exact %a, error %g > bound %g",
          v->name, dsname, sl_dtype_name(dt), (unsigned long long)n, cfg.block, cfg.grid, k, r,
          ref->rounded, e.abs_err, b);
}

int main(void)
{
    const uint64_t ns[] = {0, 1, 2, 31, 1000, 4097, ((uint64_t)1 << 16) + 3, ((uint64_t)1 << 18) + 5};
    static const sl_dtype dts[] = {SL_F32, SL_F64, SL_F16, SL_BF16};
    for (int d = 0; d < 4; d++) {
        const sl_dtype dt = dts[d];
        for (size_t di = 0; di < sl_dataset_count(); di++) {
            const sl_dataset *ds = sl_dataset_at(di);
            sl_params p;
            sl_err perr;
            CHECK(sl_test_params(ds, dt, &p, &perr) == 0, "%s", perr.msg);
            for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
                const uint64_t n = ns[k];
                void *x = malloc((size_t)(n ? n : 1) * sl_dtype_size(dt));
                sl_err err;
                if (!x) return 1;
                int rc = sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, x, &err);
                if (sl_test_half_overflow(dt, rc, &err)) {
                    not_generated++;
                    free(x);
                    continue;
                }
                CHECK(rc == 0, "dataset %s %s n=%llu: %s", ds->name, sl_dtype_name(dt), (unsigned long long)n, err.msg);
                sl_reference ref;
                double fin_abssum = 0.0;
                for (uint64_t i = 0; rc == 0 && i < n; i++) {
                    const double xi = sl_tw_load(x, dt, i);
                    if (isfinite(xi)) fin_abssum += fabs(xi);
                }
                fin_abssum *= 1.0 + 0x1p-40;   /* the double sum's error: n u < 2^-34 */
                if (rc == 0 && sl_reference_compute(&ref, x, n, dt, &err) == 0) {
                    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
                        const sl_variant *v = sl_variant_at(vi);
                        if (!v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                        if (strcmp(v->op, "sum")) continue; /* the sum's bound and reference */
                        if (v->max_n && n > v->max_n) continue;
                        const int seeds = v->determinism == SL_DET_NONDETERMINISTIC ? 3 : 1;
                        for (int s = 0; s < seeds; s++)
                            check_twin(v, x, n, dt, &ref, ds->name, sl_test_seed() * 7u + (uint64_t)s, fin_abssum);
                    }
                    sl_reference_clear(&ref);
                } else {
                    CHECK(rc != 0, "reference %s n=%llu: %s", ds->name, (unsigned long long)n, err.msg);
                }
                free(x);
            }
        }
    }
    printf("ttwin_bounds: %ld bound checks, %ld propagation checks (%ld of them an Inf input's exact "
           "Inf), %ld overflow skips, %ld 16-bit inputs not generated (values beyond the format)\n",
           bound_checks, propagation_checks, inf_checks, overflow_skips, not_generated);
    CHECK(inf_checks > 0, "no input with an Inf among finite values was checked");
    return sl_test_done("ttwin_bounds");
}

/* tref_datasets.c: the reference against mpfr_sum, bit for bit, on every dataset family of
 * the registry (both dtypes, several seeds and sizes, default parameters, every choice of an
 * enum parameter and the extremes of the others), through sl_exact and sl_reference_compute.
 *
 * Implementation assumptions: IEEE 754 binary32/binary64, round to nearest even, two's
 * complement 64-bit integers. */
#include "sl_datasets.h"
#include "tref_oracle.h"

static long arrays_compared;

static void one(tref_oracle *o, sl_exact *acc, const sl_dataset *ds, sl_dtype dt, uint64_t seed,
                uint64_t n, const sl_params *p, void *buf, const char *pdesc, int must_work)
{
    sl_err err;
    err.msg[0] = 0;
    if (sl_dataset_generate(ds, dt, seed, n, p, 0, n, buf, &err) != 0) {
        CHECK(!must_work, "%s %s seed %" PRIu64 " n %" PRIu64 " (%s): generate failed: %s", ds->name,
              sl_dtype_name(dt), seed, n, pdesc, err.msg);
        return;
    }
    char what[256];
    snprintf(what, sizeof what, "dataset %s %s seed %" PRIu64 " (%s)", ds->name, sl_dtype_name(dt), seed, pdesc);
    sl_exact_reset(acc);
    sl_exact_add(acc, buf, n, dt);
    uint64_t m = tref_oracle_load(o, 0, buf, n, dt);
    if (tref_check_acc(o, m, acc, what)) return;
    arrays_compared++;
    sl_reference r;
    CHECK(sl_reference_compute(&r, buf, n, dt, &err) == 0, "%s: %s", what, err.msg);
    CHECK(tref_same(r.rounded, sl_exact_round(acc, dt)) && tref_same(r.rounded_f64, sl_exact_round(acc, SL_F64)) &&
              tref_same(r.rounded_f32, sl_exact_round(acc, SL_F32)),
          "%s n=%" PRIu64 ": sl_reference_compute disagrees with sl_exact", what, n);
    CHECK(tref_mpfr_same(r.sum, o->exact), "%s n=%" PRIu64 ": ref.sum differs from mpfr_sum", what, n);
    sl_errors e = sl_reference_errors(&r, r.rounded, dt);
    CHECK(e.abs_err <= sl_reference_bound(&r, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, dt, dt) || !r.finite,
          "%s n=%" PRIu64 ": the correct rounding exceeds half an ulp", what, n);
    CHECK(e.ulps <= 0.5 || !r.finite, "%s n=%" PRIu64 ": ulps of the correct rounding = %a", what, n, e.ulps);
    sl_reference_clear(&r);
}

int main(void)
{
    static const uint64_t sizes[] = {0, 1, 2, 3, 100, 4097, 65536};
    const uint64_t nmax = 65536;
    void *buf = malloc(nmax * 8);
    tref_oracle o;
    tref_oracle_init(&o);
    sl_exact *acc = sl_exact_new();
    if (!buf || !acc) tref_fatal("out of memory");
    uint64_t seeds[3] = {1, 2, sl_test_seed()};
    size_t nds = sl_dataset_count();
    CHECK(nds > 0, "the dataset registry is empty");
    for (size_t i = 0; i < nds; i++) {
        const sl_dataset *ds = sl_dataset_at(i);
        sl_params def;
        sl_params_defaults(ds, &def);
        for (int d = 0; d < 2; d++) {
            sl_dtype dt = d ? SL_F64 : SL_F32;
            for (int s = 0; s < 3; s++)
                for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
                    one(&o, acc, ds, dt, seeds[s], sizes[k], &def, buf, "defaults", 1);
            /* every enum choice, and the extremes of each other parameter (others default) */
            for (int j = 0; j < ds->nparams; j++) {
                const sl_param_desc *pd = &ds->params[j];
                double vals[64];
                int nv = 0;
                if (pd->type == SL_PARAM_ENUM)
                    for (double v = pd->min; v <= pd->max && nv < 64; v += 1) vals[nv++] = v;
                else {
                    vals[nv++] = pd->min;
                    vals[nv++] = pd->max;
                }
                for (int t = 0; t < nv; t++) {
                    sl_params p = def;
                    p.v[j] = vals[t];
                    char desc[96];
                    snprintf(desc, sizeof desc, "%s=%g", pd->name, vals[t]);
                    /* enum choices must all work; an extreme may be legitimately refused */
                    one(&o, acc, ds, dt, seeds[2], 4097, &p, buf, desc, pd->type == SL_PARAM_ENUM);
                    one(&o, acc, ds, dt, seeds[0], 65536, &p, buf, desc, pd->type == SL_PARAM_ENUM);
                }
            }
        }
    }
    printf("tref_datasets: %zu dataset families, %ld arrays compared with mpfr_sum bit for bit\n", nds,
           arrays_compared);
    sl_exact_free(acc);
    tref_oracle_clear(&o);
    free(buf);
    return sl_test_done("tref_datasets");
}

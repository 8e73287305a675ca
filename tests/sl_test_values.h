/* sl_test_values.h: small helpers the twin tests share: a double stored in any format, uniform
 * and normal draws from the test RNG (sl_test.h), the same-value test (NaN equals NaN, -0 is not
 * +0), one CPU twin run under a launch request, and a registry dataset's values. */
#ifndef SL_TEST_VALUES_H
#define SL_TEST_VALUES_H
#include <math.h>
#include <string.h>
#include "sl_datasets.h"
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_variants.h"
#include "sumlab/half.h"

/* v rounded to dt, stored as x[i] */
static inline void sl_test_put(void *x, sl_dtype dt, size_t i, double v)
{
    if (dt == SL_F64) ((double *)x)[i] = v;
    else if (dt == SL_F32) ((float *)x)[i] = (float)v;
    else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
}
/* uniform in [0, 1), 53 bits */
static inline double sl_test_unif(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }
/* standard normal (Box-Muller) */
static inline double sl_test_gauss(void)
{
    double u = sl_test_unif() + 0x1p-60, v = sl_test_unif();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}
/* a and b the same value: both NaN, or equal with the same sign */
static inline int sl_test_same(double a, double b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}
/* v's CPU twin on x[0, n) under the request (block, grid), resolved into *cfg (or a local one
 * where cfg is NULL); a failed run is a CHECK failure (and NaN). */
static inline double sl_test_cpu_run(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                                     uint32_t block, uint32_t grid, sl_launch *cfg)
{
    sl_launch own;
    if (!cfg) cfg = &own;
    memset(cfg, 0, sizeof *cfg);
    cfg->block = block;
    cfg->grid = grid;
    sl_variant_resolve(v, cfg, n, dt);
    double r = NAN;
    sl_err err = {0};
    CHECK(sl_variant_cpu(v, x, n, dt, cfg, &r, &err) == 0, "%s: %s", v->name, err.msg);
    return r;
}
/* n values of the registry's dataset ds in dt into buf (its default parameters, 16-bit ones
 * fitted: sl_test_half.h; the test seed): 0 generated, 1 left out (values beyond a 16-bit
 * format), -1 not generated (a CHECK failure). */
static inline int sl_test_dataset(const sl_dataset *ds, sl_dtype dt, uint64_t n, void *buf)
{
    sl_params p;
    sl_err err = {0};
    CHECK(sl_test_params(ds, dt, &p, &err) == 0, "%s", err.msg);
    const int rc = sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, 0, n, buf, &err);
    if (sl_test_half_overflow(dt, rc, &err)) return 1;
    CHECK(rc == 0, "dataset %s %s: %s", ds->name, sl_dtype_name(dt), err.msg);
    return rc ? -1 : 0;
}
#endif

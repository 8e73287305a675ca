/* tdot_cases.h: the registry datasets the dot and norm2 certification tests sweep, built the same
 * way in each: dot-cond at condition number 10^e (seed + e), and the norm families nrm2-table
 * (its 100 table cases), huge, tiny and sq-overflow (3 seeds each), 0 or the generator's -1. */
#ifndef TDOT_CASES_H
#define TDOT_CASES_H
#include <math.h>
#include "sl_datasets.h"
#include "sl_test.h"

/* dot-cond of target condition 10^e: n values of dt in x and y. */
static inline int td_cond_case(sl_dtype dt, int e, uint64_t n, void *x, void *y, sl_err *err)
{
    const sl_dataset *dc = sl_dataset_find("dot-cond");
    if (!dc) return sl_err_set(err, "dot-cond is not a dataset");
    sl_params p;
    sl_params_defaults(dc, &p);
    p.v[0] = pow(10.0, e);
    return sl_dataset_generate_pair(dc, dt, sl_test_seed() + (uint64_t)e, n, &p, x, y, 1, err);
}

/* The norm families and their case counts. */
#define TD_NORM_FAMS 4
static const char *const td_norm_fam[TD_NORM_FAMS] = {"nrm2-table", "huge", "tiny", "sq-overflow"};
static inline int td_norm_cases(int f) { return f == 0 ? 100 : 3; }

/* Case c of norm family f: n values of dt in x. */
static inline int td_norm_case(int f, int c, sl_dtype dt, uint64_t n, void *x, sl_err *err)
{
    const sl_dataset *ds = sl_dataset_find(td_norm_fam[f]);
    if (!ds) return sl_err_set(err, "%s is not a dataset", td_norm_fam[f]);
    sl_params p;
    sl_params_defaults(ds, &p);
    if (f == 0) { p.v[0] = (double)(c % 10); p.v[1] = (double)(c / 10); }
    return sl_dataset_generate(ds, dt, sl_test_seed() + (uint64_t)c, n, &p, 0, n, x, err);
}
#endif

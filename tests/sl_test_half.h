/* sl_test_half.h: the dataset parameters the twin tests use for float16/bfloat16 input: each
 * family's defaults, except ill-conditioned's cond (1e16 is out of reach below float32), set to
 * one the 16-bit format can reach. */
#ifndef SL_TEST_HALF_H
#define SL_TEST_HALF_H
#include <string.h>
#include "sl_datasets.h"

/* Defaults of ds into p, adjusted for a 16-bit dt. Returns 0, or -1 with err set. */
static inline int sl_test_params(const sl_dataset *ds, sl_dtype dt, sl_params *p, sl_err *err)
{
    sl_params_defaults(ds, p);
    if (sl_dtype_is_half(dt) && !strcmp(ds->name, "ill-conditioned"))
        return sl_params_set(ds, p, dt == SL_F16 ? "cond=100" : "cond=1e4", err);
    return 0;
}

/* A 16-bit dataset refused because its values overflow the format (cauchy's tail beyond 65504
 * at large n): not generated, counted by the caller. */
static inline int sl_test_half_overflow(sl_dtype dt, int rc, const sl_err *err)
{
    return rc && sl_dtype_is_half(dt) && strstr(err->msg, "overflows") != NULL;
}
#endif

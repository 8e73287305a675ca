/* bounds_moments.c: the a-priori error bounds of the variants of mean, var, std, max and min
 * (sl_moment_bound, sl_measure.h), one switch on the variant's bound model. */
#include <float.h>
#include <math.h>
#include "sl_measure_impl.h"
#include "sl_ops.h"

double sl_moment_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg)
{
    (void)n;
    (void)cfg;
    if (ref->overflow && v->bound != SL_BOUND_NONE) return INFINITY;
    if (!ref->finite) return NAN;
    switch (v->bound) {
    case SL_BOUND_EXACT:
        return 0.0;
    case SL_BOUND_CORRECTLY_ROUNDED: {
        /* half an ulp of the rounded value; a moment (unlike a sum) need not be a multiple of
         * 2^-1074: below DBL_MIN half an ulp (2^-1075) is no double, so 2^-1074 */
        const double b = sl_reference_bound(ref, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, dt, dt);
        return b == 0 ? 0x1p-1074 : b;
    }
    default:
        return NAN;
    }
}

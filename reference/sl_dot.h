/* sl_dot.h: the exact reference of the two-input operation `dot` (sl_dot.c): sum x_i y_i with every
 * product exact, rounded once to the inputs' format, filling an sl_reference as the sum's does. */
#ifndef SL_DOT_REF_H
#define SL_DOT_REF_H
#include "sl_reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dot = sum x_i y_i of two arrays of n values of dt each, correctly rounded (nearest, ties to
 * even) to dt. Special values as IEEE 754 arithmetic gives them: a product Inf * 0 is NaN, any NaN
 * makes NaN, +Inf and -Inf products make NaN, otherwise an Inf product decides the sign; an exact
 * zero is +0 unless every product is -0 (then -0); n = 0: +0. ref needs no initialisation; release
 * it with sl_reference_clear after every call. Fields:
 *   sum          the exact dot product (MPFR, as many bits as it has); NaN/Inf as above
 *   rounded, rounded_f64, rounded_f32   it rounded once to dt / double / float
 *   finite       no Inf/NaN product and `rounded` finite; overflow: no Inf/NaN, |dot| beyond dt
 *   sumabs       sum |x_i y_i| exact; abssum it rounded upward to double (+Inf beyond)
 *   cond         Ogita, Rump & Oishi's condition number 2 sum |x_i y_i| / |sum x_i y_i|, rounded
 *                upward (+Inf for a zero dot with a non-zero product, 1 when every product is 0,
 *                NaN when not finite)
 *   maxabs       max |x_i y_i| rounded upward to double (the binned bound's max; +Inf beyond)
 * Exactness: float32 and 16-bit products are exact doubles; a float64 product is split exactly
 * into two doubles (TwoProduct by an explicit fma() when |x y| lies in [2^-968, 2^1023), else
 * on the frexp significands with the exponent kept apart in one of three windows 2^1200 apart),
 * every piece added into a superaccumulator (sl_exact), the windows combined exactly in MPFR.
 * threads: accepted for the registry's signature; the reference runs on the calling thread.
 * 0, or -1 with err (bad dtype, x or y NULL with n > 0, allocation failure). */
int sl_reference_dot(sl_reference *ref, const void *x, const void *y, uint64_t n, sl_dtype dt,
                     unsigned threads, sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

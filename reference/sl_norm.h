/* sl_norm.h: the exact reference of the Euclidean norm `norm2` (sl_norm.c): sqrt(sum x_i^2)
 * correctly rounded to the input format, filling an sl_reference as the sum's reference does. */
#ifndef SL_NORM_REF_H
#define SL_NORM_REF_H
#include "sl_reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* norm2 = sqrt(sum x_i^2) of n values of dt (every format), the squares and their sum exact
 * (sl_moments.c's exact sum of squares), the root correctly rounded once to dt (nearest, ties to
 * even, gradual underflow, +Inf past the format's range). Over up to `threads` threads (the same
 * result for every count).
 * Special values (the semantics every norm2 variant follows, as C99/IEEE 754 hypot and LAPACK's
 * dnrm2 on a lone Inf): any Inf input -> +Inf, even beside a NaN (Inf wins: the norm is +Inf
 * whatever the NaN stands for); else any NaN -> NaN; n = 0 -> +0; an all-zero input -> +0 (also
 * for -0 inputs: a norm is never negative).
 * Fields: rounded / rounded_f64 / rounded_f32 the root rounded once to dt / double / float; sum the
 * root itself when it is a binary number (an exact square root), else rounded to nearest at 256
 * bits; finite: the rounded norm is finite (no Inf/NaN input); overflow: finite inputs, the norm
 * overflows dt; cond = 1 (the norm is perfectly conditioned: a relative perturbation of at most e
 * in every x_i moves it by at most e relatively; NaN for a non-finite reference); s2 = sum x^2
 * rounded upward to double (+Inf beyond DBL_MAX); s1, abssum, sumabs, maxabs, first as the sum's
 * and the moments' references give them. 0, or -1 with err (NULL x with n > 0, bad dtype, memory);
 * release ref with sl_reference_clear in every case. */
int sl_reference_norm2(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                       sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

/* sl_reference.h: the judge. The exact sum of a float32/float64 array (fixed-point
 * superaccumulator, checked against mpfr_sum), its correct rounding, and every metric
 * measured against it (errors, ulps, condition number, a-priori bounds), computed in MPFR.
 * Shares no code with kernels/. Assumptions: IEEE 754 binary32/binary64, round to nearest
 * even, two's-complement 64-bit integers. */
#ifndef SL_REFERENCE_H
#define SL_REFERENCE_H
#include <mpfr.h>
#include "sl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- exact accumulation ------------------------------------------------------------- */
typedef struct sl_exact sl_exact;          /* opaque superaccumulator: exact for n < 2^40 */
sl_exact *sl_exact_new(void);              /* NULL on allocation failure */
void sl_exact_free(sl_exact *acc);
void sl_exact_reset(sl_exact *acc);
void sl_exact_add(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt); /* may be chunked */
/* Correctly rounded (nearest, ties to even) sum in format `to`, IEEE special-value rules:
 * any NaN -> NaN; +Inf and -Inf -> NaN; overflow -> +-Inf; exact zero -> +0 unless every
 * input was -0 (then -0); n = 0 -> +0. A float32 result is returned as the double holding it. */
double sl_exact_round(const sl_exact *acc, sl_dtype to);
/* Exact value into out (out's precision is raised as needed). Returns 0 for a finite sum,
 * non-zero (and NaN/Inf in out) when a special value decides the sum. */
int sl_exact_get(const sl_exact *acc, mpfr_t out);

/* ---- everything about one array ------------------------------------------------------- */
typedef struct {
    sl_dtype dtype;            /* the input's format */
    uint64_t n;
    int finite;                /* 1 when no Inf/NaN input and no overflow of the exact sum */
    double rounded;            /* exact sum correctly rounded to dtype (the `exact` row) */
    double rounded_f64;        /* exact sum correctly rounded to double */
    double abssum;             /* sum |x_i| rounded to double (+Inf if it overflows double) */
    double cond;               /* sum|x| / |sum x|; +Inf when sum x = 0 (and sum|x| > 0); 1 for all-zero input; NaN if not finite */
    mpfr_t sum;                /* exact sum */
    mpfr_t sumabs;             /* exact sum |x_i| */
} sl_reference;

int sl_reference_compute(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, sl_err *err);
void sl_reference_clear(sl_reference *ref);

/* Errors of one result (a value of format result_dtype, passed as double). Inf/NaN rules:
 * a result equal to a special exact sum (same Inf, or NaN for NaN) has error 0; any other
 * mismatch involving a special value has abs_err = rel_err = ulps = +Inf. */
typedef struct {
    double abs_err;            /* |result - S| */
    double rel_err;            /* |result - S| / |S|; +Inf when S = 0 and result != 0; 0 when both 0 */
    double ulps;               /* |result - S| / ulp(rounded S) in result_dtype (ulp of a subnormal/zero = the smallest subnormal) */
} sl_errors;
sl_errors sl_reference_errors(const sl_reference *ref, double result, sl_dtype result_dtype);

/* A-priori absolute error bounds (Higham, "Accuracy and Stability of Numerical
 * Algorithms", ch. 4), with u_a the unit roundoff of the accumulator format, u_o that of the
 * output format, k the longest chain of roundings any input passes through, and
 * gamma_k = k u_a / (1 - k u_a):
 *   RECURSIVE      gamma_k * sum|x|              (+ u_o (|S| + gamma_k sum|x|) when acc != out)
 *   COMPENSATED    (2 u_a + 4 k u_a^2) * sum|x|   (+ the same output rounding term)
 *   CORRECTLY_ROUNDED  half an ulp of the rounded exact sum in the output format
 * Returns +Inf when the bound is vacuous (k u_a >= 1) and NaN for a non-finite reference. */
typedef enum { SL_REF_BOUND_NONE = 0, SL_REF_BOUND_RECURSIVE, SL_REF_BOUND_COMPENSATED,
               SL_REF_BOUND_CORRECTLY_ROUNDED } sl_ref_bound_kind;
double sl_reference_bound(const sl_reference *ref, sl_ref_bound_kind kind, double k,
                          sl_dtype acc, sl_dtype out);

double sl_unit_roundoff(sl_dtype dt);      /* 2^-24 or 2^-53 */

#ifdef __cplusplus
}
#endif
#endif

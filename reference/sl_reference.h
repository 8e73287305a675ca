/* sl_reference.h: the judge. The exact sum of a float32/float64 array (fixed-point
 * superaccumulator, checked against mpfr_sum), its correct rounding, and every metric
 * measured against it (errors, ulps, condition number, a-priori bounds), computed in MPFR.
 * Shares no code with kernels/.
 *
 * Implementation assumptions: IEEE 754 binary32/binary64 (same byte order as the integers),
 * round to nearest even, two's-complement 64-bit integers with arithmetic right shift,
 * 64-bit long long. MPFR's exponent range must be the default one (or at least contain
 * [-2400, 2400]: the moments' values reach 2^-2280) while these functions run; they never change it.
 * An exactness invariant that fails inside (an MPFR step reporting inexact where the code
 * sized it to be exact) is a bug, never an input error: it prints a message and abort()s. */
#ifndef SL_REFERENCE_H
#define SL_REFERENCE_H
#include <mpfr.h>
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- exact accumulation ------------------------------------------------------------- */
/* Opaque superaccumulator (about 70 KB). Exact for any n (proved for n < 2^77 elements, the
 * header promised n < 2^40); float32 and float64 inputs may be mixed in one accumulator.
 * Cost (one thread, pieces of >= 2048 values: the fast path of sl_exact.c): float32 with AVX2
 * about 0.3 ns per value when blocks of 2048 span <= 18 binades (uniform, subnormal data),
 * 0.55-0.7 ns otherwise (full range; both on a loaded 2-core EPYC); float64 with AVX2 about 0.4-0.9 ns per value (narrow to
 * full-range data, a loaded 2-core EPYC), without AVX2 1.4 ns; sl_exact_round/sl_exact_get
 * are O(4096) each, not O(n). */
typedef struct sl_exact sl_exact;
sl_exact *sl_exact_new(void);              /* NULL on allocation failure */
void sl_exact_free(sl_exact *acc);
void sl_exact_reset(sl_exact *acc);
/* Adds n values; a long array may be added in any number of pieces, in any order. */
void sl_exact_add(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt);
/* Adds src's state into dst (src unchanged): afterwards dst holds the sum of both inputs, in
 * any order of merges and adds, bit for bit (the state is exact; merging is commutative and
 * associative). This is how pieces summed apart (threads, blocks, ranks) become one sum. */
void sl_exact_merge(sl_exact *dst, const sl_exact *src);
/* The state as bytes (for processes: an MPI user-defined operation merges states). The saved
 * form is canonical: bins folded into the limbs, limbs normalised, so two accumulators holding
 * the same inputs (in any order or split) save the same SL_EXACT_STATE_BYTES bytes.
 * sl_exact_load replaces acc's state by the saved one (0; -1 for bytes that are no saved state).
 * sl_exact_merge_saved merges the saved state src into the saved state dst in place (exact). */
#define SL_EXACT_STATE_BYTES ((size_t)(2 * 68 + 6) * 8)
void sl_exact_save(const sl_exact *acc, void *buf);
int sl_exact_load(sl_exact *acc, const void *buf);
/* 1 when buf holds a canonical saved state (magic, normalised limbs, counts), else 0. */
int sl_exact_saved_valid(const void *buf);
void sl_exact_merge_saved(void *dst, const void *src);
/* sl_exact_add over up to `threads` threads (contiguous pieces, one accumulator each, merged
 * into acc): the same state as sl_exact_add for every thread count. Pieces are at least
 * SL_EXACT_MIN_PER_THREAD values; at most SL_EXACT_MAX_THREADS threads. Returns 0, or -1
 * (acc unchanged) when a piece's accumulator cannot be allocated. */
#define SL_EXACT_MAX_THREADS 256u
#define SL_EXACT_MIN_PER_THREAD ((uint64_t)1 << 16)
int sl_exact_add_threads(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt, unsigned threads);
/* Correctly rounded (nearest, ties to even) sum in format `to`, IEEE special-value rules:
 * any NaN -> NaN; +Inf and -Inf -> NaN; overflow -> +-Inf; exact zero -> +0 unless every
 * input was -0 (then -0); n = 0 -> +0. A float32 result is returned as the double holding it. */
double sl_exact_round(const sl_exact *acc, sl_dtype to);
/* Exact value into out (out's precision is raised as needed). Returns 0 for a finite sum,
 * non-zero (and NaN/Inf in out) when a special value decides the sum. */
int sl_exact_get(const sl_exact *acc, mpfr_t out);

/* ---- float16 / bfloat16 (sl_half_ref.c, on the functions above) ----
 * sl_exact_add for n 16-bit patterns of dt (SL_F16 or SL_BF16): each piece is converted to
 * float32 (exact) and added as float32; the threaded form as sl_exact_add_threads. */
void sl_exact_add_half(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt);
/* m 16-bit patterns of dt widened to float32 into out (exact: float16 by table, bfloat16 as the
 * top half of a float32 pattern). */
void sl_half_widen(const uint16_t *h, size_t m, sl_dtype dt, float *out);
int sl_exact_add_half_threads(sl_exact *acc, const void *x, uint64_t n, sl_dtype dt, unsigned threads);
/* The exact value s rounded once to `to` (SL_F16 or SL_BF16): nearest, ties to even, gradual
 * underflow, +-Inf beyond the largest finite value's rounding range (float16: |s| >= 65520);
 * NaN and Inf pass through; a zero keeps its sign. Returned as the double holding it. */
double sl_round_mpfr_half(mpfr_srcptr s, sl_dtype to);
/* sl_exact_round for the 16-bit formats (same special-value rules). */
double sl_exact_round_half(const sl_exact *acc, sl_dtype to);

/* ---- everything about one array ------------------------------------------------------- */
typedef struct {
    sl_dtype dtype;            /* the input's format */
    uint64_t n;
    int finite;                /* 1 when no Inf/NaN input and `rounded` is finite (the exact sum does not overflow dtype) */
    int overflow;              /* 1 when no Inf/NaN input but the exact sum overflows dtype (`rounded` is +-Inf, cond NaN) */
    double rounded;            /* exact sum correctly rounded to dtype (the `exact` row) */
    double rounded_f64;        /* exact sum correctly rounded to double */
    double rounded_f32;        /* exact sum correctly rounded to float (held in a double) */
    double abssum;             /* sum |x_i| rounded to double (+Inf if it overflows double or an input is Inf; NaN if one is NaN) */
    double cond;               /* sum|x| / |sum x|; +Inf when sum x = 0 (and sum|x| > 0); 1 for all-zero input; NaN if not finite */
    double maxabs;             /* max |x_i| (exact; 0 for n = 0; NaN if an input is NaN, else +Inf if one is Inf): the binned bound's max */
    uint32_t ddof;             /* var/std references: the ddof they were computed for (0 otherwise) */
    mpfr_t sum;                /* exact sum (NaN/Inf per the special-value rules; -0 if every input is -0) */
    double sum_relerr;         /* 0: `sum` is the operation's value itself (a sum, a product sum, an
                                  extremum, a quotient or root that is a binary number); > 0: that
                                  value is no binary number (a quotient, a root, a logarithm) and
                                  |sum - value| <= sum_relerr |sum| */
    mpfr_t sumabs;             /* exact sum |x_i| (NaN if an input is NaN, else +Inf if one is Inf) */
    /* The moments' references (sl_reference_moment) fill these; the sum leaves them NaN.
     * mean/var/std: s1 = sum x rounded to nearest double (+-Inf beyond); var/std also s2 = sum x^2
     * rounded upward to double (+Inf beyond DBL_MAX), m2 = sum (x - mean)^2 = S2 - S1^2 / n
     * rounded to nearest double. first = x[0] (every moment; NaN for n = 0). */
    double s1, s2, m2, first;
} sl_reference;

/* One pass over x (both sums come from the same superaccumulator). ref needs no
 * initialisation; after every call with ref != NULL, success or not, release it with
 * sl_reference_clear (on failure its values are NaN). Fails (non-zero, err filled when
 * err != NULL) for x == NULL with n > 0, a bad dtype, or allocation failure. */
int sl_reference_compute(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, sl_err *err);
/* The same over up to `threads` threads (sl_exact_add_threads): identical results for every
 * thread count. */
int sl_reference_compute_threads(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt,
                                 unsigned threads, sl_err *err);
/* The same from an accumulator that already holds the input (e.g. states merged over ranks):
 * ref describes the acc->n values of dt it holds. */
int sl_reference_from_exact(sl_reference *ref, const sl_exact *acc, sl_dtype dt, sl_err *err);
void sl_reference_clear(sl_reference *ref);

/* ---- the moments: mean, var, std, max, min (sl_moments.c) ------------------------------
 * The exact reference of one of the moments of n values of dt (every format), over up to
 * `threads` threads (the same result for every count). ref->sum holds the exact value (mean:
 * S1 / n; var: V = (n S2 - S1^2) / (n (n - ddof)) with S1 = sum x, S2 = sum x^2 computed exactly;
 * std: sqrt(V); max/min: the extreme value): the value itself when it is a binary number (a
 * terminating quotient, an exact square root, max/min), else rounded to nearest at 256 bits;
 * ref->rounded / rounded_f64 / rounded_f32 are the exact value rounded once
 * (nearest, ties to even, gradual underflow, +-Inf past the format's range).
 * Special values (the semantics every variant of these operations follows):
 *   any NaN input -> NaN; mean: n = 0 -> NaN, an Inf input -> that Inf (+Inf and -Inf -> NaN);
 *   var/std: n - ddof <= 0 -> NaN (n = 1, ddof = 1 included), an Inf input -> NaN;
 *   an exact variance 0 -> +0; a zero mean -> -0 when every input is -0, else +0;
 *   max/min: n = 0 -> NaN, IEEE 754-2019 maximum/minimum (NaN propagates, max(-0, +0) = +0,
 *   min(-0, +0) = -0); an Inf input that is the extreme value is the result.
 * finite: the exact value is a number and its rounding to dt is finite (max/min: also with Inf
 * inputs that are not the extreme value); overflow: finite inputs, a value beyond dt's range.
 * cond: mean sum|x| / |sum x| (as the sum's); var/std kappa = sqrt(S2 / (n var0)) = sqrt(n S2 / N),
 * var0 the population variance, N = n S2 - S1^2 (+Inf when N = 0 < S2; 1 when every input is
 * zero); max/min 1. sum/sumabs/abssum/maxabs as for the sum (sumabs: sum |x| exact).
 * ddof is recorded in ref->ddof (var/std; 0 for the others). 0, or -1 with err (NULL x with
 * n > 0, bad dtype, allocation failure); release ref with sl_reference_clear in every case. */
typedef enum { SL_MOMENT_MEAN = 0, SL_MOMENT_VAR, SL_MOMENT_STD, SL_MOMENT_MAX, SL_MOMENT_MIN } sl_moment;
int sl_reference_moment(sl_reference *ref, sl_moment what, const void *x, uint64_t n, sl_dtype dt,
                        uint32_t ddof, unsigned threads, sl_err *err);
/* s (any precision, finite or not) rounded once to dt: nearest, ties to even, gradual underflow,
 * +-Inf beyond the largest finite value's rounding range; zeros keep their sign; returned as the
 * double holding it. */
double sl_round_mpfr(mpfr_srcptr s, sl_dtype dt);

/* The unit in the last place used by every metric, for a value r of format dt (r is a float
 * value held in a double when dt = SL_F32):
 *   r zero or subnormal in dt      -> the smallest subnormal of dt (2^-149, 2^-1074, float16
 *                                     2^-24, bfloat16 2^-133)
 *   r normal, 2^e <= |r| < 2^(e+1) -> 2^(e-p+1), p = 24, 53, 11 or 8 (a power of two 2^e takes the
 *                                     ulp of its own binade, the larger one)
 *   r = +-Inf                      -> the ulp of the largest binade (2^104, 2^971, 2^5, 2^120)
 *   r NaN                          -> NaN */
double sl_ulp(double r, sl_dtype dt);

/* Errors of one result (a value of format result_dtype, passed as double) against the exact
 * sum S. Each field is computed exactly in MPFR and rounded once to the nearest double.
 * Inf/NaN rules: S is "special" when it is NaN/Inf, or when its correct rounding R to
 * result_dtype overflows to +-Inf. A non-finite result equal to R (same Inf, or NaN for NaN)
 * has error 0; any other non-finite result, or a finite result against a NaN/Inf S, has
 * abs_err = rel_err = ulps = +Inf. A finite result against a finite S that overflows
 * result_dtype gets its true finite errors (ulp = that of the largest binade). */
typedef struct {
    double abs_err;            /* |result - S| */
    double rel_err;            /* |result - S| / |S|; +Inf when S = 0 and result != 0; 0 when both 0 */
    double ulps;               /* |result - S| / sl_ulp(R, result_dtype), R = S correctly rounded to result_dtype */
} sl_errors;
sl_errors sl_reference_errors(const sl_reference *ref, double result, sl_dtype result_dtype);

/* A-priori absolute error bounds (Higham, "Accuracy and Stability of Numerical
 * Algorithms", ch. 4), with u_a the unit roundoff of the accumulator format, u_o that of the
 * output format, k the longest chain of roundings any input passes through, and
 * gamma_k = k u_a / (1 - k u_a):
 *   RECURSIVE      E = gamma_k * sum|x|
 *   COMPENSATED    E = (2 u_a + 4 k u_a^2) * sum|x|
 *   both: + u_o (|S| + E) when out is narrower than acc (f64 accumulator, f32 output; a
 *         conversion to a wider format is exact and adds nothing)
 *   CORRECTLY_ROUNDED  sl_ulp(R, out) / 2, R = S correctly rounded to out (+Inf if R is Inf);
 *                      k and acc are ignored; 0 for a zero/subnormal R in f64 (2^-1075 is not
 *                      a double, and every sum of floats is a multiple of 2^-1074: exact there)
 * Evaluated in MPFR with every operation rounded upward (1 - k u_a downward) from the exact
 * sum|x| and |S|, then rounded upward to double: the returned double is never below the
 * formula's real value and exceeds it by at most a few ulps. Returns +Inf when the bound is
 * vacuous (k u_a >= 1), NaN for a non-finite reference (ref->finite == 0), for k < 0 or NaN,
 * and for SL_REF_BOUND_NONE. */
/*   BINNED         binned (indexed) summation with K = k folds in the binned format of acc
 *                  (Ahrens, Demmel, Nguyen, "Algorithms for Efficient Reproducible Floating
 *                  Point Summation", TOMS 2020; ReproBLAS binned_dbbound/binned_sbbound): with
 *                  W the bin width (40 bits for binary64, 13 for binary32), eps = 2 u_a
 *                  (DBL_EPSILON / FLT_EPSILON), m = max(max|x|, 2^(emin - 1)) (emin = -1022 or
 *                  -126: 2^-1023 or 2^-127), c = 7 eps / (1 - 6 sqrt(eps) - 7 eps):
 *                    A = n m 2^(W (1 - K) + 1),   E = (A + c |S|) / (1 - c)
 *                  (the published A + c |R| with the computed R, turned into a bound in the exact
 *                  S: |R| <= |S| + E); + u_o (|S| + E) when out is narrower than acc. k must be
 *                  an integer >= 2; 0 when n = 0. */
typedef enum { SL_REF_BOUND_NONE = 0, SL_REF_BOUND_RECURSIVE, SL_REF_BOUND_COMPENSATED,
               SL_REF_BOUND_CORRECTLY_ROUNDED, SL_REF_BOUND_BINNED } sl_ref_bound_kind;
double sl_reference_bound(const sl_reference *ref, sl_ref_bound_kind kind, double k,
                          sl_dtype acc, sl_dtype out);

/* 2^-24, 2^-53, 2^-11 (float16), 2^-8 (bfloat16); NaN for an unknown dtype */
double sl_unit_roundoff(sl_dtype dt);
/* max |x_i| of n values of dt as a double (exact): 0 for n = 0, NaN if any input is NaN, else
 * +Inf if one is Inf; over up to `threads` threads (the same for every count). What
 * sl_reference_compute puts in maxabs, for a reference built from merged states. */
double sl_max_abs(const void *x, uint64_t n, sl_dtype dt, unsigned threads);

/* ---- the exact sum written out exactly -------------------------------------------------- */
/* S = ref->sum as text. When the operation's value is no binary number (ref->sum_relerr > 0),
 * the text is that of ref->sum itself when sum_relerr <= 2^-p (p its precision: a value correctly
 * rounded to p bits), else ref->sum rounded to nearest at -log2(sum_relerr) - 1 bits (at least
 * 2); approx = 1, and |text - value| <= 2^-rel_exp |value| (to first order); otherwise approx = 0
 * and rel_exp = 0. hex: every bit of S as a C99 hex float "[-]0x1.HHHp+E" (the leading
 * 1 and the fraction's bits up to S's last 1-bit, padded to whole hex digits; strtod-style
 * parsers and mpfr_strtofr read it back exactly at enough precision); "0x0p+0"/"-0x0p+0",
 * "inf", "-inf", "nan" for the special cases. bits: b, the significant bits of S (leading to
 * last 1-bit; 0 for the special cases). dec: "[-]D.DDDe+X" with digits = 1 + ceil(b log10 2)
 * significant digits, S rounded to nearest: the fewest that always identify a b-bit binary
 * value (read back and rounded to b bits, the decimal gives S again; MPFR's mpfr_get_str
 * rule), while S's exact decimal expansion can need hundreds of digits. Strings are
 * malloc'ed: release with sl_exact_text_free. Returns 0, or -1 when out of memory. */
typedef struct {
    char *hex, *dec;
    long bits, digits;
    int approx;
    long rel_exp;
} sl_exact_text;
int sl_reference_exact_text(const sl_reference *ref, sl_exact_text *out);
void sl_exact_text_free(sl_exact_text *t);

#ifdef __cplusplus
}
#endif
#endif

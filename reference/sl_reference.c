/* sl_reference.c: everything measured against the exact sum of one array: correctly rounded
 * sums, sum|x|, condition number, errors of a result (abs, relative, ulps) and a-priori bounds.
 *
 * Implementation assumptions: IEEE 754 binary32/binary64; round to nearest even as the
 * current rounding mode; two's-complement 64-bit integers; 64-bit long long; MPFR's default
 * exponent range. Every MPFR step meant to be exact has its precision sized for exactness
 * and its ternary value checked (SL_EXACT_REQUIRE aborts on a violation: a bug, not an input
 * error); steps that round say so and round once (or upward, for bounds). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sl_exact_impl.h"
#include "sumlab/half.h"
#include "sumlab/pool.h"

/* Enough bits for the exact difference of any finite double and any exact sum: exponents
 * from 2^-1074 up to 2^1102 (see sl_exact_impl.h). */
#define SL_REF_DIFF_PREC 2304
#define SL_REF_BOUND_PREC 256

double sl_unit_roundoff(sl_dtype dt)
{
    if (dt == SL_F64) return 0x1p-53;
    if (dt == SL_F32) return 0x1p-24;
    if (dt == SL_F16) return 0x1p-11;
    if (dt == SL_BF16) return 0x1p-8;
    return NAN;
}

double sl_ulp(double r, sl_dtype dt)
{
    int p = dt == SL_F64 ? 53 : 24, emin = dt == SL_F64 ? -1022 : -126, emax = dt == SL_F64 ? 1023 : 127;
    if (sl_dtype_is_half(dt)) {
        p = sl_half_prec(dt);
        emin = sl_half_emin(dt);
        emax = sl_half_emax(dt);
    }
    const double minsub = ldexp(1.0, emin - p + 1), minnorm = ldexp(1.0, emin);
    if (isnan(r)) return NAN;
    if (isinf(r)) return ldexp(1.0, emax - p + 1);
    if (fabs(r) < minnorm) return minsub;
    int e;
    frexp(r, &e); /* |r| = f 2^e, f in [0.5, 1): binade 2^(e-1) */
    return ldexp(1.0, e - p);
}

/* max |x_i| as a double (exact): 0 for n = 0, NaN if any input is NaN, else +Inf if one is.
 * On the bit patterns with the sign cleared: their unsigned order is the order of |x|, and every
 * NaN lies above Inf (a branch-free integer max the compiler vectorises). */
/* m = the largest of the n words of p with `mask` applied (T unsigned). */
#define MAXABS_BITS(T, p, n, mask, m)                                                          \
    do {                                                                                       \
        const T *b_ = (const T *)(p);                                                          \
        T m_ = 0;                                                                              \
        for (uint64_t i_ = 0; i_ < (n); i_++) {                                                \
            const T a_ = (T)(b_[i_] & (mask));                                                 \
            m_ = a_ > m_ ? a_ : m_;                                                            \
        }                                                                                      \
        (m) = m_;                                                                              \
    } while (0)

static double max_abs(const void *x, uint64_t n, sl_dtype dt)
{
    if (dt == SL_F64) {
        uint64_t m;
        MAXABS_BITS(uint64_t, x, n, 0x7fffffffffffffffu, m);
        if (m > 0x7ff0000000000000u) return NAN;
        double d;
        memcpy(&d, &m, sizeof d);
        return d;
    }
    if (sl_dtype_is_half(dt)) {
        uint16_t m;
        MAXABS_BITS(uint16_t, x, n, 0x7fffu, m);
        if (m > (dt == SL_F16 ? 0x7c00u : 0x7f80u)) return NAN;
        return sl_half_to_double(m, dt);
    }
    uint32_t m;
    MAXABS_BITS(uint32_t, x, n, 0x7fffffffu, m);
    if (m > 0x7f800000u) return NAN;
    float v;
    memcpy(&v, &m, sizeof v);
    return (double)v;
}

/* max_abs over up to `threads` threads (contiguous pieces of at least MAXABS_MIN_PER_THREAD
 * values): the largest |x| does not depend on the split, NaN when any piece saw a NaN. */
#define MAXABS_MIN_PER_THREAD ((uint64_t)1 << 18)
#define MAXABS_MAX_THREADS 256u
typedef struct {
    const char *x;
    uint64_t n;
    sl_dtype dt;
    unsigned pieces;
    double m[MAXABS_MAX_THREADS];
} maxabs_job;

static void maxabs_task(void *ctx, size_t t)   /* piece t: its own slot */
{
    maxabs_job *j = ctx;
    const uint64_t lo = j->n / j->pieces * t + (t < j->n % j->pieces ? t : j->n % j->pieces);
    const uint64_t len = j->n / j->pieces + (t < j->n % j->pieces);
    j->m[t] = max_abs(j->x + lo * sl_dtype_size(j->dt), len, j->dt);
}

static double max_abs_threads(const void *x, uint64_t n, sl_dtype dt, unsigned threads)
{
    if (threads > MAXABS_MAX_THREADS) threads = MAXABS_MAX_THREADS;
    if (threads > n / MAXABS_MIN_PER_THREAD) threads = (unsigned)(n / MAXABS_MIN_PER_THREAD);
    if (threads <= 1) return max_abs(x, n, dt);
    maxabs_job j = {(const char *)x, n, dt, threads, {0}};
    if (sl_parallel_for(threads, threads, maxabs_task, &j)) return max_abs(x, n, dt);
    double m = 0.0;
    int nan = 0;
    for (unsigned t = 0; t < threads; t++) {
        if (j.m[t] != j.m[t]) nan = 1;
        else if (j.m[t] > m) m = j.m[t];
    }
    return nan ? NAN : m;
}

double sl_max_abs(const void *x, uint64_t n, sl_dtype dt, unsigned threads)
{
    return max_abs_threads(x, n, dt, threads ? threads : 1);
}

static void reference_init(sl_reference *ref, sl_dtype dt, uint64_t n)
{
    ref->dtype = dt;
    ref->n = n;
    ref->finite = 0;
    ref->overflow = 0;
    ref->ddof = 0;
    ref->rounded = ref->rounded_f64 = ref->rounded_f32 = NAN;
    ref->abssum = ref->cond = ref->maxabs = NAN;
    ref->s1 = ref->s2 = ref->m2 = ref->first = NAN;
    ref->sum_relerr = 0.0;
    mpfr_init2(ref->sum, 64);
    mpfr_init2(ref->sumabs, 64);
    mpfr_set_nan(ref->sum);
    mpfr_set_nan(ref->sumabs);
}

void sl_reference_clear(sl_reference *ref)
{
    mpfr_clear(ref->sum);
    mpfr_clear(ref->sumabs);
}

static void reference_fill(sl_reference *ref, const sl_exact *acc, sl_dtype dt);

int sl_reference_compute(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, sl_err *err)
{
    return sl_reference_compute_threads(ref, x, n, dt, 1, err);
}

int sl_reference_compute_threads(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt,
                                 unsigned threads, sl_err *err)
{
    if (!ref) {
        return sl_err_set(err, "sl_reference_compute: ref is NULL");
    }
    reference_init(ref, dt, n);
    if (!sl_dtype_valid(dt)) {
        return sl_err_set(err, "sl_reference_compute: unknown dtype");
    }
    if (!x && n) {
        return sl_err_set(err, "sl_reference_compute: x is NULL with n > 0");
    }
    ref->maxabs = max_abs_threads(x, n, dt, threads);
    sl_exact *acc = sl_exact_new();
    if (!acc) {
        return sl_err_set(err, "sl_reference_compute: out of memory for the superaccumulator");
    }
    if (n && (sl_dtype_is_half(dt) ? sl_exact_add_half_threads(acc, x, n, dt, threads)
                                   : sl_exact_add_threads(acc, x, n, dt, threads))) {
        sl_exact_free(acc);
        return sl_err_set(err, "sl_reference_compute: out of memory for %u superaccumulators", threads);
    }
    reference_fill(ref, acc, dt);
    sl_exact_free(acc);
    return 0;
}

int sl_reference_from_exact(sl_reference *ref, const sl_exact *acc, sl_dtype dt, sl_err *err)
{
    if (!ref) return sl_err_set(err, "sl_reference_from_exact: ref is NULL");
    reference_init(ref, dt, acc ? acc->n : 0);
    if (!sl_dtype_valid(dt)) return sl_err_set(err, "sl_reference_from_exact: unknown dtype");
    if (!acc) return sl_err_set(err, "sl_reference_from_exact: acc is NULL");
    reference_fill(ref, acc, dt);
    return 0;
}

/* Every figure of ref from the accumulator holding its input (ref initialised for dt). */
static void reference_fill(sl_reference *ref, const sl_exact *acc, sl_dtype dt)
{
    int special = sl_exact_get(acc, ref->sum) != 0;
    if (special) {
        ref->rounded = ref->rounded_f64 = ref->rounded_f32 = mpfr_get_d(ref->sum, MPFR_RNDN);
        if (acc->nan) mpfr_set_nan(ref->sumabs);
        else mpfr_set_inf(ref->sumabs, 1);
        ref->abssum = mpfr_get_d(ref->sumabs, MPFR_RNDN);
        ref->finite = 0;
        ref->cond = NAN;
        return;
    }
    ref->rounded_f64 = sl_exact_round(acc, SL_F64);
    ref->rounded_f32 = sl_exact_round(acc, SL_F32);
    ref->rounded = dt == SL_F64 ? ref->rounded_f64
                 : sl_dtype_is_half(dt) ? sl_exact_round_half(acc, dt) : ref->rounded_f32;

    sl_exact_fixed fa;
    sl_exact_fixed_get(acc, 1, &fa);
    sl_exact_fixed_to_mpfr(&fa, ref->sumabs);
    ref->abssum = sl_exact_fixed_round(&fa, SL_F64);

    ref->finite = isfinite(ref->rounded) != 0;
    ref->overflow = !ref->finite;             /* finite inputs: only an overflow of dtype */
    if (!ref->finite) ref->cond = NAN;
    else if (mpfr_zero_p(ref->sumabs)) ref->cond = 1.0;
    else if (mpfr_zero_p(ref->sum)) ref->cond = INFINITY;
    else {
        mpfr_t q;
        mpfr_init2(q, 53);
        mpfr_div(q, ref->sumabs, ref->sum, MPFR_RNDN); /* one rounding; |q| >= 1 */
        mpfr_abs(q, q, MPFR_RNDN);                      /* exact */
        ref->cond = mpfr_get_d(q, MPFR_RNDN);           /* exact, or +Inf beyond DBL_MAX */
        mpfr_clear(q);
    }
}

/* |a / b| rounded once to the nearest double, subnormal results included: the quotient is
 * rounded to odd at 64 bits (truncated, then its last bit set when inexact), which the final
 * rounding to 53 bits or fewer (a subnormal double) turns into the correct rounding of the
 * exact quotient (Boldo and Melquiond: round-to-odd at p + 2 bits or more is innocuous). A
 * plain 53-bit quotient rounded again into the subnormal range could be rounded twice. */
static double quotient_d(mpfr_srcptr a, mpfr_srcptr b)
{
    mpfr_t q;
    mpfr_init2(q, 64);
    int inexact = mpfr_div(q, a, b, MPFR_RNDZ) != 0;  /* truncated towards zero */
    mpfr_abs(q, q, MPFR_RNDN);                         /* exact */
    if (inexact && mpfr_min_prec(q) < 64) mpfr_nextabove(q); /* last bit 0: the odd neighbour */
    double r = mpfr_get_d(q, MPFR_RNDN);
    mpfr_clear(q);
    return r;
}

/* Bits that hold result - S exactly: SL_REF_DIFF_PREC for any exact sum; more for an S of
 * another operation (a variance's exact value spans up to 2^-2148 .. 2^2048 at any precision):
 * from the higher leading bit of both down to the lower last bit, plus a carry. */
static mpfr_prec_t diff_prec(mpfr_srcptr S, double result)
{
    if (mpfr_zero_p(S) || result == 0) {
        const mpfr_prec_t p = mpfr_get_prec(S) > 53 ? mpfr_get_prec(S) : 53;
        return p > SL_REF_DIFF_PREC ? p : SL_REF_DIFF_PREC;
    }
    int er;
    frexp(result, &er);                       /* |result| < 2^er, last bit >= 2^(er - 53) */
    const long es = (long)mpfr_get_exp(S);    /* |S| < 2^es, last bit >= 2^(es - prec) */
    const long top = es > er ? es : er;
    const long lo_s = es - (long)mpfr_get_prec(S), lo_r = (long)er - 53;
    const long need = top - (lo_s < lo_r ? lo_s : lo_r) + 2;
    return need > SL_REF_DIFF_PREC ? (mpfr_prec_t)need : SL_REF_DIFF_PREC;
}

static double rounded_in(const sl_reference *ref, sl_dtype dt)
{
    if (sl_dtype_is_half(dt))
        return dt == ref->dtype || !mpfr_number_p(ref->sum) ? ref->rounded : sl_round_mpfr_half(ref->sum, dt);
    return dt == SL_F64 ? ref->rounded_f64 : ref->rounded_f32;
}

sl_errors sl_reference_errors(const sl_reference *ref, double result, sl_dtype result_dtype)
{
    sl_errors e;
    double r = rounded_in(ref, result_dtype);
    int s_special = !mpfr_number_p(ref->sum);
    if (s_special || !isfinite(result)) {
        int same = (isnan(r) && isnan(result)) || (!isnan(r) && isinf(r) && r == result);
        e.abs_err = e.rel_err = e.ulps = same ? 0.0 : INFINITY;
        return e;
    }
    mpfr_t d;
    mpfr_init2(d, diff_prec(ref->sum, result));
    int tern = mpfr_set_d(d, result, MPFR_RNDN);
    tern |= mpfr_sub(d, d, ref->sum, MPFR_RNDN);
    SL_EXACT_REQUIRE(tern == 0, "|result - S| was not exact");
    mpfr_abs(d, d, MPFR_RNDN);
    e.abs_err = mpfr_get_d(d, MPFR_RNDN); /* one rounding (+Inf beyond DBL_MAX) */
    if (mpfr_zero_p(ref->sum)) {
        e.rel_err = mpfr_zero_p(d) ? 0.0 : INFINITY;
    } else {
        e.rel_err = quotient_d(d, ref->sum);
    }
    int ue;
    frexp(sl_ulp(r, result_dtype), &ue); /* ulp = 2^(ue-1) */
    tern = mpfr_div_2si(d, d, ue - 1, MPFR_RNDN);
    SL_EXACT_REQUIRE(tern == 0, "error / ulp was not exact");
    e.ulps = mpfr_get_d(d, MPFR_RNDN);
    mpfr_clear(d);
    return e;
}

/* SL_REF_BOUND_BINNED (sl_reference.h), every step rounded upward (divisors downward). */
static double binned_bound(const sl_reference *ref, double k, sl_dtype acc, sl_dtype out)
{
    if (k < 2 || k != floor(k) || k > 64) return NAN;
    if (acc != SL_F32 && acc != SL_F64) return NAN;
    const double ua = sl_unit_roundoff(acc), uo = sl_unit_roundoff(out);
    if (isnan(uo)) return NAN;
    if (ref->n == 0) return 0.0;
    const int W = acc == SL_F64 ? 40 : 13;
    const double floor_m = acc == SL_F64 ? 0x1p-1023 : 0x1p-127;
    const double m = ref->maxabs > floor_m ? ref->maxabs : floor_m;
    mpfr_t a, c, t;
    mpfr_inits2(SL_REF_BOUND_PREC, a, c, t, (mpfr_ptr)0);
    /* A = n m 2^(W (1 - K) + 1): exact (n < 2^64, m a double, a power of two) */
    int tern = mpfr_set_ui_2exp(a, 1, W * (1 - (int)k) + 1, MPFR_RNDN);
    tern |= mpfr_mul_d(a, a, m, MPFR_RNDN);
    tern |= mpfr_mul_ui(a, a, (unsigned long)ref->n, MPFR_RNDN);
    SL_EXACT_REQUIRE(tern == 0, "n m 2^(W(1-K)+1) was not exact");
    /* c = 7 eps / (1 - 6 sqrt(eps) - 7 eps), eps = 2 u_a */
    const double eps = 2 * ua;
    mpfr_set_d(t, eps, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDU);                 /* sqrt(eps), rounded up */
    mpfr_mul_ui(t, t, 6, MPFR_RNDU);
    mpfr_add_d(t, t, 7 * eps, MPFR_RNDU);
    mpfr_ui_sub(t, 1, t, MPFR_RNDD);            /* denominator, rounded down */
    mpfr_set_d(c, 7 * eps, MPFR_RNDN);          /* exact */
    mpfr_div(c, c, t, MPFR_RNDU);
    /* E = (A + c |S|) / (1 - c) */
    mpfr_abs(t, ref->sum, MPFR_RNDU);
    mpfr_mul(t, t, c, MPFR_RNDU);
    mpfr_add(a, a, t, MPFR_RNDU);
    mpfr_ui_sub(t, 1, c, MPFR_RNDD);
    mpfr_div(a, a, t, MPFR_RNDU);
    if (uo > ua) {
        mpfr_abs(t, ref->sum, MPFR_RNDU);
        mpfr_add(t, t, a, MPFR_RNDU);           /* |S| + E */
        mpfr_mul_d(t, t, uo, MPFR_RNDU);
        mpfr_add(a, a, t, MPFR_RNDU);
    }
    double res = mpfr_get_d(a, MPFR_RNDU);
    mpfr_clears(a, c, t, (mpfr_ptr)0);
    return res;
}

double sl_reference_bound(const sl_reference *ref, sl_ref_bound_kind kind, double k,
                          sl_dtype acc, sl_dtype out)
{
    if (!ref->finite || isnan(k) || k < 0) return NAN;
    if (kind == SL_REF_BOUND_CORRECTLY_ROUNDED) {
        double r = rounded_in(ref, out);
        return isinf(r) ? INFINITY : sl_ulp(r, out) / 2; /* exact: a power of two */
    }
    if (kind == SL_REF_BOUND_BINNED) return binned_bound(ref, k, acc, out);
    if (kind != SL_REF_BOUND_RECURSIVE && kind != SL_REF_BOUND_COMPENSATED) return NAN;
    double ua = sl_unit_roundoff(acc), uo = sl_unit_roundoff(out);
    if (isnan(ua) || isnan(uo)) return NAN;
    mpfr_t ku, a, b;
    mpfr_inits2(SL_REF_BOUND_PREC, ku, a, b, (mpfr_ptr)0);
    int tern = mpfr_set_d(ku, k, MPFR_RNDU);
    tern |= mpfr_mul_d(ku, ku, ua, MPFR_RNDU); /* k u_a: exact (u_a a power of two) */
    SL_EXACT_REQUIRE(tern == 0, "k u_a was not exact");
    double res;
    if (mpfr_cmp_ui(ku, 1) >= 0) {
        res = INFINITY;
    } else {
        if (kind == SL_REF_BOUND_RECURSIVE) {
            mpfr_ui_sub(b, 1, ku, MPFR_RNDD);   /* 1 - k u_a, rounded down */
            mpfr_div(a, ku, b, MPFR_RNDU);      /* gamma_k, rounded up */
        } else {
            mpfr_mul_d(a, ku, 4 * ua, MPFR_RNDU); /* 4 k u_a^2 */
            mpfr_add_d(a, a, 2 * ua, MPFR_RNDU);  /* + 2 u_a */
        }
        mpfr_mul(a, a, ref->sumabs, MPFR_RNDU);   /* E */
        if (uo > ua) {
            mpfr_abs(b, ref->sum, MPFR_RNDU);
            mpfr_add(b, b, a, MPFR_RNDU);         /* |S| + E */
            mpfr_mul_d(b, b, uo, MPFR_RNDU);
            mpfr_add(a, a, b, MPFR_RNDU);
        }
        res = mpfr_get_d(a, MPFR_RNDU);
    }
    mpfr_clears(ku, a, b, (mpfr_ptr)0);
    return res;
}

/* sl_moments.c: the exact references of mean, var, std, max and min (sl_reference.h): S1 = sum x
 * and S2 = sum x^2 accumulated exactly in superaccumulators, the moment formed exactly in MPFR
 * and rounded once to each format.
 *
 * Implementation assumptions: as sl_reference.c (IEEE 754 binary32/binary64, round to nearest
 * even as the current rounding mode, no contraction of a * b + c into an FMA: the build's
 * -ffp-contract=off, MPFR's default exponent range).
 * Exactness of the squares:
 *  - float32, float16, bfloat16 (16-bit values widened to float32, exact): x^2 has at most 48
 *    significant bits and lies in [2^-298, 2^256]: an exact double, added to a superaccumulator
 *    as float64 in pieces of 2048 (a stack buffer).
 *  - float64: x^2 needs 106 bits over [2^-2148, 2^2048]. A block of 2048 values that all lie in
 *    [2^-400, 2^500) within 8 binades (the common case) is summed as integers: x = M 2^(q - 1075),
 *    M^2 (106 bits, unsigned __int128) added into one 128-bit bin per exponent, each bin's total
 *    added to the superaccumulator as three exact doubles. Any other block: Dekker's TwoProduct
 *    (Veltkamp's split; plain double operations, no FMA; exact while no step over- or underflows)
 *    gives x^2 = hi + lo, two doubles; to keep every step in range, |x| >= 2^500 is scaled by
 *    2^-600 (its square by 2^-1200) and |x| < 2^-400 by 2^600 (its square by 2^1200), each range
 *    into a superaccumulator of its own; the three sums are combined exactly in MPFR
 *    (mpfr_mul_2si). Without __int128 every block takes the TwoProduct path.
 * In MPFR, at SL_MOM_PREC bits (every quantity below is an integer multiple of 2^-2148 under
 * 2^2202: each step is exact, and checked): N = n S2 - S1^2 (>= 0), D = n (n - ddof); then
 * var = N / D, std = sqrt(N / D), mean = S1 / n, each rounded to a format by Ziv's loop: the value
 * bracketed by directed roundings at 128, 256, ... bits until both ends round to the same number.
 * The loop ends: a rounding boundary (a midpoint, the overflow threshold) is a binary number; a
 * quotient that is not one is never on a boundary, nor is its square root (the square of a
 * binary number is one); a binary quotient is computed exactly once the precision reaches its
 * bits (<= SL_MOM_PREC), and a binary root of it then too. So an exact tie (a rational that is
 * the square of a midpoint) is met exactly and rounded to even. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_exact_impl.h"
#include "sumlab/half.h"
#include "sumlab/pool.h"

#define SL_MOM_PREC 4608        /* bits for the exact S2, N and S1^2 (see above) */
#define SL_MOM_SUM_PREC 256     /* ref->sum of a value that is not a short binary number */
#define SL_MOM_CHUNK 2048       /* values per piece handed to sl_exact_add (stack buffers) */
#define SL_MOM_BIG 0x1p500      /* float64 |x| >= this: squared after scaling by 2^-600 */
#define SL_MOM_SMALL 0x1p-400   /* float64 |x| < this: squared after scaling by 2^600 */

/* ---- rounding an MPFR value to a format ---------------------------------------------------- */
static void format_of(sl_dtype dt, int *p, int *emin, int *emax)
{
    if (dt == SL_F64) { *p = 53; *emin = -1022; *emax = 1023; }
    else if (sl_dtype_is_half(dt)) { *p = sl_half_prec(dt); *emin = sl_half_emin(dt); *emax = sl_half_emax(dt); }
    else { *p = 24; *emin = -126; *emax = 127; }
}

double sl_round_mpfr(mpfr_srcptr s, sl_dtype dt)
{
    if (!mpfr_number_p(s)) return mpfr_get_d(s, MPFR_RNDN);
    if (mpfr_zero_p(s)) return mpfr_signbit(s) ? -0.0 : 0.0;
    int p, emin, emax;
    format_of(dt, &p, &emin, &emax);
    const int neg = mpfr_signbit(s) != 0;
    /* beyond 2^(emax+1) every value rounds to Inf: no need to scale it */
    if (mpfr_get_exp(s) > emax + 2) return neg ? -INFINITY : INFINITY;
    /* quantum 2^q of the result: the leading bit's exponent minus p - 1, at least the subnormal
     * step 2^(emin - p + 1) */
    long q = (long)mpfr_get_exp(s) - 1 - (p - 1);
    if (q < emin - p + 1) q = emin - p + 1;
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(s) > 64 ? mpfr_get_prec(s) : 64);
    mpfr_mul_2si(t, s, -q, MPFR_RNDN);      /* exact: a power of two */
    mpfr_rint(t, t, MPFR_RNDN);             /* the integer multiple of 2^q, ties to even */
    /* an integer of at most p + 1 bits times 2^q (q <= emax - p + 2): exact in a double, or
     * beyond the largest finite value (Inf below) */
    double r = ldexp(mpfr_get_d(t, MPFR_RNDN), (int)q);
    mpfr_clear(t);
    const double max = ldexp(2.0 - ldexp(1.0, 1 - p), emax);
    if (fabs(r) > max) return neg ? -INFINITY : INFINITY;
    if (r == 0) return neg ? -0.0 : 0.0;
    return r;
}

/* The same bits (NaN equal to NaN). */
static int same_double(double a, double b)
{
    if (a != a || b != b) return a != a && b != b;
    return !memcmp(&a, &b, sizeof a);
}

/* num / den (root = 0) or sqrt(num / den) (root = 1) rounded once to dt (Ziv's loop, see the
 * header). num >= 0 when root; den > 0. */
static double round_ratio(mpfr_srcptr num, mpfr_srcptr den, int root, sl_dtype dt)
{
    mpfr_t lo, hi;
    mpfr_inits2(128, lo, hi, (mpfr_ptr)0);
    double r = NAN;
    for (mpfr_prec_t P = 128; P <= 4 * SL_MOM_PREC; P *= 2) {
        mpfr_set_prec(lo, P);
        mpfr_set_prec(hi, P);
        mpfr_div(lo, num, den, MPFR_RNDD);
        mpfr_div(hi, num, den, MPFR_RNDU);
        if (root) {
            mpfr_sqrt(lo, lo, MPFR_RNDD);
            mpfr_sqrt(hi, hi, MPFR_RNDU);
        }
        const double a = sl_round_mpfr(lo, dt), b = sl_round_mpfr(hi, dt);
        if (same_double(a, b)) {
            r = a;
            break;
        }
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    SL_EXACT_REQUIRE(r == r, "Ziv's loop did not settle the rounding");
    return r;
}

/* ref->sum and the three roundings from the exact num / den (or its root). ref->sum: the value
 * itself when it is a binary number (a terminating quotient has at most num's bits, its root at
 * most half as many plus one), else the value rounded to nearest at SL_MOM_SUM_PREC bits. */
static void set_ratio(sl_reference *ref, mpfr_srcptr num, mpfr_srcptr den, int root)
{
    const mpfr_prec_t ps = SL_MOM_SUM_PREC;
    const mpfr_prec_t need = mpfr_zero_p(num) ? MPFR_PREC_MIN : mpfr_min_prec(num);
    if (root) {
        mpfr_t q;
        mpfr_init2(q, need > 2 * ps + 64 ? need : 2 * ps + 64);
        const int exact = mpfr_div(q, num, den, MPFR_RNDN) == 0;
        mpfr_set_prec(ref->sum, exact && need / 2 + 2 > ps ? need / 2 + 2 : ps);
        const int root_exact = mpfr_sqrt(ref->sum, q, MPFR_RNDN) == 0;
        /* the root rounded once (2^-ps) of a quotient within 2^-(2 ps + 64), halved by the root */
        if (!exact || !root_exact) ref->sum_relerr = ldexp(1.0, -(int)ps) + (exact ? 0.0 : ldexp(1.0, -(int)(2 * ps + 64)));
        mpfr_clear(q);
    } else {
        mpfr_set_prec(ref->sum, need > ps ? need : ps);
        if (mpfr_div(ref->sum, num, den, MPFR_RNDN) != 0) {
            if (need > ps) {
                mpfr_set_prec(ref->sum, ps);   /* no binary number: SL_MOM_SUM_PREC bits */
                mpfr_div(ref->sum, num, den, MPFR_RNDN);
            }
            ref->sum_relerr = ldexp(1.0, -(int)mpfr_get_prec(ref->sum));
        }
    }
    ref->rounded_f64 = round_ratio(num, den, root, SL_F64);
    ref->rounded_f32 = round_ratio(num, den, root, SL_F32);
    ref->rounded = ref->dtype == SL_F64 ? ref->rounded_f64
                 : ref->dtype == SL_F32 ? ref->rounded_f32 : round_ratio(num, den, root, ref->dtype);
}

/* ---- exact S1 and S2 over the input -------------------------------------------------------- */
/* x^2 = hi + lo exactly (Dekker's TwoProduct of x and x; |x| in [2^-474, 2^424] or so: no step
 * over- or underflows). */
static inline void two_square(double a, double *hi, double *lo)
{
    const double c = 134217729.0 * a;       /* 2^27 + 1: Veltkamp's split */
    const double ah = c - (c - a), al = a - ah;
    const double p = a * a;
    *hi = p;
    *lo = ((ah * ah - p) + 2.0 * ah * al) + al * al;
}

typedef struct {
    sl_exact *s1;          /* sum x */
    sl_exact *s2[3];       /* sum x^2: [0] as is, [1] scaled by 2^-1200, [2] by 2^1200 (float64) */
} mom_acc;

#ifdef __SIZEOF_INT128__
/* v 2^scale (v < 2^129) added exactly: three pieces of 43 bits, each an exact double. */
static void add_u128(sl_exact *acc, unsigned __int128 v, int scale)
{
    double d[3];
    for (int j = 0; j < 3; j++)
        d[j] = ldexp((double)(uint64_t)((v >> (43 * j)) & (((uint64_t)1 << 43) - 1)), scale + 43 * j);
    sl_exact_add(acc, d, 3, SL_F64);
}

/* A float64 block's sum of squares in the unscaled range (2^-400 <= |x| < 2^500) as integers:
 * x = M 2^(q - 1075), M < 2^53, q the biased exponent; M^2 (106 bits) summed per exponent into
 * 128-bit bins (2048 values: 117 bits), at most SL_MOM_SPAN binades per block; each bin's total
 * added exactly. 0 (nothing added) when the block does not fit: the TwoProduct path runs. */
#define SL_MOM_SPAN 8
static int squares_f64_int(sl_exact *acc, const double *x, size_t m)
{
    const uint64_t *b = (const uint64_t *)(const void *)x;
    uint32_t qmin = 2047, qmax = 0;
    for (size_t j = 0; j < m; j++) {
        const uint32_t q = (uint32_t)(b[j] >> 52) & 0x7ffu;
        qmin = q < qmin ? q : qmin;
        qmax = q > qmax ? q : qmax;
    }
    if (qmin < 1023 - 400 || qmax >= 1023 + 500 || qmax - qmin >= SL_MOM_SPAN) return 0;
    /* four sets of bins (value j into set j % 4): consecutive adds rarely wait on one another */
    unsigned __int128 bin[4][SL_MOM_SPAN] = {{0}};
    size_t j = 0;
    for (; j + 4 <= m; j += 4)
        for (int l = 0; l < 4; l++) {
            const uint64_t w = b[j + (size_t)l];
            const uint64_t M = (w & 0xfffffffffffffull) | 0x10000000000000ull;
            bin[l][((uint32_t)(w >> 52) & 0x7ffu) - qmin] += (unsigned __int128)M * M;
        }
    for (; j < m; j++) {
        const uint64_t M = (b[j] & 0xfffffffffffffull) | 0x10000000000000ull;
        bin[0][((uint32_t)(b[j] >> 52) & 0x7ffu) - qmin] += (unsigned __int128)M * M;
    }
    /* the four sets together: at most 2048 values of M^2 < 2^106, below 2^117 */
    for (uint32_t i = 0; i <= qmax - qmin; i++)
        add_u128(acc, bin[0][i] + bin[1][i] + bin[2][i] + bin[3][i], 2 * ((int)(qmin + i) - 1075));
    return 1;
}
#else
static int squares_f64_int(sl_exact *acc, const double *x, size_t m) { (void)acc; (void)x; (void)m; return 0; }
#endif

static void squares_f32(mom_acc *a, const float *x, size_t m)
{
    double sq[SL_MOM_CHUNK];
    for (size_t j = 0; j < m; j++) sq[j] = (double)x[j] * (double)x[j];
    sl_exact_add(a->s2[0], sq, m, SL_F64);
}

static void piece_f32(mom_acc *a, const float *x, uint64_t n)
{
    while (n > 0) {
        const size_t m = n < SL_MOM_CHUNK ? (size_t)n : SL_MOM_CHUNK;
        sl_exact_add(a->s1, x, m, SL_F32);
        squares_f32(a, x, m);
        x += m;
        n -= m;
    }
}

static void piece_half(mom_acc *a, const uint16_t *x, uint64_t n, sl_dtype dt)
{
    float w[SL_MOM_CHUNK];
    while (n > 0) {
        const size_t m = n < SL_MOM_CHUNK ? (size_t)n : SL_MOM_CHUNK;
        sl_half_widen(x, m, dt, w);
        sl_exact_add(a->s1, w, m, SL_F32);
        squares_f32(a, w, m);
        x += m;
        n -= m;
    }
}

/* The high and low parts go to separate buffers: a block of high parts spans few binades (the
 * superaccumulator's fast window path), and so do most blocks of low parts. */
static void piece_f64(mom_acc *a, const double *x, uint64_t n)
{
    double hi[SL_MOM_CHUNK], lo[SL_MOM_CHUNK], big[2 * SL_MOM_CHUNK], small[2 * SL_MOM_CHUNK];
    while (n > 0) {
        const size_t m = n < SL_MOM_CHUNK ? (size_t)n : SL_MOM_CHUNK;
        sl_exact_add(a->s1, x, m, SL_F64);
        if (squares_f64_int(a->s2[0], x, m)) {
            x += m;
            n -= m;
            continue;
        }
        size_t nm = 0, nb = 0, ns = 0;
        for (size_t j = 0; j < m; j++) {
            const double v = x[j], av = fabs(v);
            /* NaN fails both tests and goes to mid: the special counts of s1 decide then */
            if (av >= SL_MOM_BIG) {
                two_square(v * 0x1p-600, &big[nb], &big[nb + 1]);
                nb += 2;
            } else if (av < SL_MOM_SMALL) {
                two_square(v * 0x1p600, &small[ns], &small[ns + 1]);
                ns += 2;
            } else {
                two_square(v, &hi[nm], &lo[nm]);
                nm++;
            }
        }
        if (nm) {
            sl_exact_add(a->s2[0], hi, nm, SL_F64);
            sl_exact_add(a->s2[0], lo, nm, SL_F64);
        }
        if (nb) sl_exact_add(a->s2[1], big, nb, SL_F64);
        if (ns) sl_exact_add(a->s2[2], small, ns, SL_F64);
        x += m;
        n -= m;
    }
}

static void piece(mom_acc *a, const void *x, uint64_t n, sl_dtype dt)
{
    if (dt == SL_F64) piece_f64(a, x, n);
    else if (dt == SL_F32) piece_f32(a, x, n);
    else piece_half(a, x, n, dt);
}

static void mom_free(mom_acc *a)
{
    sl_exact_free(a->s1);
    for (int i = 0; i < 3; i++) sl_exact_free(a->s2[i]);
    memset(a, 0, sizeof *a);
}

static int mom_new(mom_acc *a)
{
    memset(a, 0, sizeof *a);
    a->s1 = sl_exact_new();
    int ok = a->s1 != NULL;
    for (int i = 0; i < 3; i++) ok &= (a->s2[i] = sl_exact_new()) != NULL;
    if (!ok) mom_free(a);
    return ok ? 0 : -1;
}

typedef struct {
    mom_acc acc[SL_EXACT_MAX_THREADS];
    const char *x;
    uint64_t n;
    sl_dtype dt;
    unsigned pieces;
} mom_job;

static void mom_task(void *ctx, size_t t)       /* piece t into its own accumulators */
{
    mom_job *j = ctx;
    const uint64_t lo = j->n / j->pieces * t + (t < j->n % j->pieces ? t : j->n % j->pieces);
    const uint64_t len = j->n / j->pieces + (t < j->n % j->pieces);
    piece(&j->acc[t], j->x + lo * sl_dtype_size(j->dt), len, j->dt);
}

/* S1 and S2 of the whole input into a (allocated here; mom_free it): the same state for every
 * thread count (exact sums, exact merges). 0, or -1 on allocation failure. */
static int mom_accumulate(mom_acc *a, const void *x, uint64_t n, sl_dtype dt, unsigned threads)
{
    if (mom_new(a)) return -1;
    if (threads > SL_EXACT_MAX_THREADS) threads = SL_EXACT_MAX_THREADS;
    if (threads > n / SL_EXACT_MIN_PER_THREAD) threads = (unsigned)(n / SL_EXACT_MIN_PER_THREAD);
    if (threads <= 1) {
        if (n) piece(a, x, n, dt);
        return 0;
    }
    mom_job *j = calloc(1, sizeof *j);
    if (!j) { mom_free(a); return -1; }
    j->x = x;
    j->n = n;
    j->dt = dt;
    j->pieces = threads;
    int rc = 0;
    for (unsigned t = 0; t < threads; t++)
        if (mom_new(&j->acc[t])) rc = -1;
    if (!rc && sl_parallel_for(threads, threads, mom_task, j)) rc = -1;
    for (unsigned t = 0; t < threads && !rc; t++) {
        sl_exact_merge(a->s1, j->acc[t].s1);
        for (int i = 0; i < 3; i++) sl_exact_merge(a->s2[i], j->acc[t].s2[i]);
    }
    for (unsigned t = 0; t < threads; t++) mom_free(&j->acc[t]);
    free(j);
    if (rc) mom_free(a);
    return rc;
}

/* The exact S2 of a finite input into s2 (precision SL_MOM_PREC). */
static void exact_s2(const mom_acc *a, mpfr_t s2)
{
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_set_prec(s2, SL_MOM_PREC);
    mpfr_set_zero(s2, 1);
    static const long scale[3] = {0, 1200, -1200};
    for (int i = 0; i < 3; i++) {
        if (sl_exact_get(a->s2[i], t) != 0) continue;   /* special squares: the input decides */
        int tern = mpfr_mul_2si(t, t, scale[i], MPFR_RNDN);
        tern |= mpfr_add(s2, s2, t, MPFR_RNDN);
        SL_EXACT_REQUIRE(tern == 0, "the exact sum of squares was not exact");
    }
    mpfr_clear(t);
}

/* ---- the references ----------------------------------------------------------------------- */
static double first_value(const void *x, uint64_t n, sl_dtype dt)
{
    if (n == 0) return NAN;
    if (dt == SL_F64) return *(const double *)x;
    if (dt == SL_F32) return (double)*(const float *)x;
    return sl_half_to_double(*(const uint16_t *)x, dt);
}

/* The IEEE 754-2019 maximum (want_max) or minimum of n values of a format with W-bit patterns, NaN
 * absent (the caller checked): on sortable keys, the pattern with its magnitude bits flipped when
 * negative (two's complement order = numeric order, -0 just below +0), an integer max/min the
 * compiler vectorises; the key maps back to its pattern by the same flip. */
#define EXTREME_KEYS(U, S, W, p, n, want_max, out)                                               \
    do {                                                                                        \
        const U *b_ = (const U *)(p);                                                           \
        const U mag_ = (U)(((U)1 << ((W) - 1)) - 1);                                             \
        S m_ = (want_max) ? (S)((U)1 << ((W) - 1)) : (S)mag_;                                    \
        for (uint64_t i_ = 0; i_ < (n); i_++) {                                                 \
            const S k_ = (S)(b_[i_] ^ ((U)((S)b_[i_] >> ((W) - 1)) & mag_));                      \
            m_ = (want_max) ? (k_ > m_ ? k_ : m_) : (k_ < m_ ? k_ : m_);                        \
        }                                                                                       \
        (out) = (U)((U)m_ ^ ((U)(m_ >> ((W) - 1)) & mag_));                                      \
    } while (0)

/* IEEE 754-2019 maximum (want_max) or minimum of n values: NaN when any is NaN (maxabs, the
 * largest |x| from the sum's reference, is NaN then) or n = 0; max(-0, +0) = +0, min = -0. */
static double extreme(const void *x, uint64_t n, sl_dtype dt, int want_max, double maxabs)
{
    if (n == 0 || maxabs != maxabs) return NAN;
    if (dt == SL_F64) {
        uint64_t r;
        if (want_max) EXTREME_KEYS(uint64_t, int64_t, 64, x, n, 1, r);
        else EXTREME_KEYS(uint64_t, int64_t, 64, x, n, 0, r);
        double d;
        memcpy(&d, &r, sizeof d);
        return d;
    }
    if (dt == SL_F32) {
        uint32_t r;
        if (want_max) EXTREME_KEYS(uint32_t, int32_t, 32, x, n, 1, r);
        else EXTREME_KEYS(uint32_t, int32_t, 32, x, n, 0, r);
        float f;
        memcpy(&f, &r, sizeof f);
        return (double)f;
    }
    uint16_t r;
    if (want_max) EXTREME_KEYS(uint16_t, int16_t, 16, x, n, 1, r);
    else EXTREME_KEYS(uint16_t, int16_t, 16, x, n, 0, r);
    return sl_half_to_double(r, dt);
}

static void moment_init(sl_reference *ref)
{
    ref->s1 = ref->s2 = ref->m2 = ref->first = NAN;
}

/* max/min: the sum's figures, then the extreme value. */
static void reference_extreme(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, int want_max)
{
    const double m = extreme(x, n, dt, want_max, ref->maxabs);
    mpfr_set_prec(ref->sum, 64);
    mpfr_set_d(ref->sum, m, MPFR_RNDN);                 /* exact (NaN: NaN) */
    ref->rounded = ref->rounded_f64 = m;
    ref->rounded_f32 = (double)(float)m;                /* one rounding (float64 input) */
    ref->finite = isfinite(m) != 0;
    ref->overflow = 0;
    ref->cond = ref->finite ? 1.0 : NAN;
}

/* mean / var / std from the exact S1 (ref->sum on entry) and, for var/std, S2. */
static void reference_ratio(sl_reference *ref, sl_moment what, const mom_acc *a, uint32_t ddof)
{
    const uint64_t n = ref->n;
    const int special = !mpfr_number_p(ref->sum);      /* a NaN or Inf input */
    mpfr_t s1, num, den;
    mpfr_init2(s1, mpfr_get_prec(ref->sum));
    mpfr_set(s1, ref->sum, MPFR_RNDN);                 /* exact */
    ref->s1 = mpfr_get_d(s1, MPFR_RNDN);
    mpfr_inits2(SL_MOM_PREC, num, den, (mpfr_ptr)0);
    ref->finite = ref->overflow = 0;
    ref->cond = NAN;
    if (!special) {          /* mean: sum|x| / |sum x|, as the sum's (1 for n = 0, all zero) */
        if (mpfr_zero_p(ref->sumabs)) ref->cond = 1.0;
        else if (mpfr_zero_p(s1)) ref->cond = INFINITY;
        else {
            mpfr_t q;
            mpfr_init2(q, 53);
            mpfr_div(q, ref->sumabs, s1, MPFR_RNDN);
            ref->cond = fabs(mpfr_get_d(q, MPFR_RNDN));
            mpfr_clear(q);
        }
    }
    if (what == SL_MOMENT_MEAN) {
        if (n == 0 || special) {
            /* n = 0: NaN; an Inf input: that Inf (both: NaN, as the sum's S1) */
            mpfr_set_prec(ref->sum, 64);
            if (n == 0) mpfr_set_nan(ref->sum);
            else mpfr_set(ref->sum, s1, MPFR_RNDN);
            ref->rounded = ref->rounded_f64 = ref->rounded_f32 = mpfr_get_d(ref->sum, MPFR_RNDN);
        } else {
            int tern = mpfr_set(num, s1, MPFR_RNDN);
            tern |= mpfr_set_ui(den, (unsigned long)n, MPFR_RNDN);
            SL_EXACT_REQUIRE(tern == 0, "S1 or n was not exact");
            set_ratio(ref, num, den, 0);
            ref->finite = isfinite(ref->rounded) != 0;
            ref->overflow = !ref->finite;
        }
        mpfr_clears(s1, num, den, (mpfr_ptr)0);
        return;
    }
    /* var, std */
    ref->cond = NAN;
    if (special || n <= (uint64_t)ddof) {
        mpfr_set_prec(ref->sum, 64);
        mpfr_set_nan(ref->sum);
        ref->rounded = ref->rounded_f64 = ref->rounded_f32 = NAN;
        mpfr_clears(s1, num, den, (mpfr_ptr)0);
        return;
    }
    mpfr_t s2, t;
    mpfr_inits2(SL_MOM_PREC, s2, t, (mpfr_ptr)0);
    exact_s2(a, s2);
    ref->s2 = mpfr_get_d(s2, MPFR_RNDU);
    int tern = mpfr_mul_ui(num, s2, (unsigned long)n, MPFR_RNDN);   /* n S2 */
    tern |= mpfr_sqr(t, s1, MPFR_RNDN);                             /* S1^2 */
    tern |= mpfr_sub(num, num, t, MPFR_RNDN);                       /* N */
    tern |= mpfr_set_ui(den, (unsigned long)n, MPFR_RNDN);
    tern |= mpfr_mul_ui(den, den, (unsigned long)(n - ddof), MPFR_RNDN);   /* D */
    SL_EXACT_REQUIRE(tern == 0, "n S2 - S1^2 or n (n - ddof) was not exact");
    SL_EXACT_REQUIRE(mpfr_sgn(num) >= 0, "n S2 - S1^2 was negative");
    if (mpfr_zero_p(num)) mpfr_set_zero(num, 1);                    /* +0 */
    set_ratio(ref, num, den, what == SL_MOMENT_STD);
    ref->finite = isfinite(ref->rounded) != 0;
    ref->overflow = !ref->finite;
    /* m2 = N / n; kappa = sqrt(n S2 / N) */
    mpfr_set_prec(t, 128);
    mpfr_div_ui(t, num, (unsigned long)n, MPFR_RNDN);
    ref->m2 = mpfr_get_d(t, MPFR_RNDN);
    if (mpfr_zero_p(s2)) ref->cond = 1.0;
    else if (mpfr_zero_p(num)) ref->cond = INFINITY;
    else {
        mpfr_mul_ui(t, s2, (unsigned long)n, MPFR_RNDN);
        mpfr_div(t, t, num, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        ref->cond = mpfr_get_d(t, MPFR_RNDN);
    }
    mpfr_clears(s1, num, den, s2, t, (mpfr_ptr)0);
}

int sl_reference_moment(sl_reference *ref, sl_moment what, const void *x, uint64_t n, sl_dtype dt,
                        uint32_t ddof, unsigned threads, sl_err *err)
{
    if (!ref) return sl_err_set(err, "sl_reference_moment: ref is NULL");
    if (threads == 0) threads = 1;
    if (what == SL_MOMENT_MAX || what == SL_MOMENT_MIN || what == SL_MOMENT_MEAN) {
        /* the sum's reference gives S1, sum|x|, maxabs and the specials */
        if (sl_reference_compute_threads(ref, x, n, dt, threads, err)) {
            moment_init(ref);
            return -1;
        }
        moment_init(ref);
        ref->first = first_value(x, n, dt);
        if (what == SL_MOMENT_MEAN) reference_ratio(ref, what, NULL, 0);
        else reference_extreme(ref, x, n, dt, what == SL_MOMENT_MAX);
        return 0;
    }
    if (what != SL_MOMENT_VAR && what != SL_MOMENT_STD) {
        sl_reference_from_exact(ref, NULL, dt, NULL);   /* initialises ref (NaN), fails */
        moment_init(ref);
        return sl_err_set(err, "sl_reference_moment: unknown moment %d", (int)what);
    }
    /* var, std: S1 and S2 in one pass */
    if (!sl_dtype_valid(dt) || (!x && n)) {
        int rc = sl_reference_compute_threads(ref, x, n, dt, 1, err); /* fills err, ref NaN */
        moment_init(ref);
        return rc ? rc : -1;
    }
    mom_acc a;
    if (mom_accumulate(&a, x, n, dt, threads)) {
        sl_reference_from_exact(ref, NULL, dt, NULL);
        moment_init(ref);
        return sl_err_set(err, "sl_reference_moment: out of memory for the superaccumulators");
    }
    sl_reference_from_exact(ref, a.s1, dt, NULL);
    moment_init(ref);
    ref->maxabs = sl_max_abs(x, n, dt, threads);
    ref->first = first_value(x, n, dt);
    ref->ddof = ddof;
    reference_ratio(ref, what, &a, ddof);
    mom_free(&a);
    return 0;
}

/* The exact sum of squares for the norm's reference (sl_norm.c): ref filled as the sum's reference
 * (S1, sum|x|, maxabs, first), s2 the exact S2 (precision SL_MOM_PREC; 0 for n = 0, left NaN when
 * an input is NaN or Inf), *flags: SL_NORM_IN_NAN and/or SL_NORM_IN_INF for such inputs. */
int sl_reference_sumsq(sl_reference *ref, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                       mpfr_t s2, unsigned *flags, sl_err *err)
{
    *flags = 0;
    mpfr_set_nan(s2);
    if (!sl_dtype_valid(dt) || (!x && n)) {
        int rc = sl_reference_compute_threads(ref, x, n, dt, 1, err); /* fills err, ref NaN */
        moment_init(ref);
        return rc ? rc : -1;
    }
    mom_acc a;
    if (mom_accumulate(&a, x, n, dt, threads ? threads : 1)) {
        sl_reference_from_exact(ref, NULL, dt, NULL);
        moment_init(ref);
        return sl_err_set(err, "sl_reference_norm2: out of memory for the superaccumulators");
    }
    sl_reference_from_exact(ref, a.s1, dt, NULL);
    moment_init(ref);
    ref->maxabs = sl_max_abs(x, n, dt, threads ? threads : 1);
    ref->first = first_value(x, n, dt);
    if (a.s1->nan) *flags |= SL_NORM_IN_NAN;
    if (a.s1->pinf || a.s1->ninf) *flags |= SL_NORM_IN_INF;
    if (!*flags) exact_s2(&a, s2);
    mom_free(&a);
    return 0;
}

/* sl_dot.c: the exact reference of `dot` (sl_dot.h): every product split exactly into doubles,
 * summed exactly in superaccumulators, rounded once. Shares no code with kernels/.
 *
 * Implementation assumptions: sl_reference.h's (IEEE 754 binary32/binary64, round to nearest even,
 * MPFR's default exponent range), a correctly rounded fma() (C99; glibc's is, in hardware or not),
 * no contraction (-ffp-contract=off).
 * Windows: a float64 product x y = (mx my) 2^e with mx, my the frexp significands in [1/2, 1)
 * (subnormals included), e = ex + ey in [-2146, 2048]; mx my is exactly ph + pl (TwoProduct by
 * fma: no step leaves the normal range), both multiples of 2^-106. Window 0 holds e < -300 scaled
 * by 2^1200, window 1 -300 <= e < 700 unscaled, window 2 e >= 700 scaled by 2^-1200: every scaled
 * piece is then a double whose last bit is at least 2^-1052 and whose size is below 2^900, i.e.
 * exact in a superaccumulator. The fast path (|p| = |fl(x y)| in [2^-968, 2^1023)) puts p and
 * fma(x, y, -p) into window 1 directly: the error of a product whose exponents sum to at least
 * -969 is a double and a multiple of 2^-1074. Zero factors and specials (fl(x y), IEEE) go to
 * window 1; a product that underflows to zero in double takes the windows like any other. */
#include <math.h>
#include <stdlib.h>
#include "sl_dot.h"
#include "sl_exact_impl.h"
#include "sumlab/half.h"

#define DOT_BUF 2048          /* pieces buffered per window before sl_exact_add */
#define DOT_PREC 4800         /* bits of the combination: 2^-2274 .. 2^2302 (checked exact) */
#define DOT_SCALE 1200

typedef struct {
    sl_exact *s[3], *a[3];    /* per window: the signed pieces, and |x y|'s pieces */
    double bs[3][DOT_BUF], ba[3][DOT_BUF];
    size_t k[3];
    double maxabs;            /* max |x y| rounded upward */
} dot_acc;

static double load(const void *x, sl_dtype dt, uint64_t i)
{
    if (dt == SL_F64) return ((const double *)x)[i];
    if (dt == SL_F32) return ((const float *)x)[i];
    return sl_half_to_double(((const uint16_t *)x)[i], dt);
}

static void flush(dot_acc *A, int w)
{
    sl_exact_add(A->s[w], A->bs[w], A->k[w], SL_F64);
    sl_exact_add(A->a[w], A->ba[w], A->k[w], SL_F64);
    A->k[w] = 0;
}

/* One exact piece v of a product of sign sg (the abs accumulator gets v with the product's sign
 * taken off: |hi + lo| = |hi| + sign(hi) lo, since |lo| < |hi|). */
static void piece(dot_acc *A, int w, double v, int neg)
{
    A->bs[w][A->k[w]] = v;
    A->ba[w][A->k[w]] = neg ? -v : v;
    if (++A->k[w] == DOT_BUF) flush(A, w);
}

static void product(dot_acc *A, double x, double y, sl_dtype dt)
{
    const double p = x * y;
    if (dt != SL_F64 || !isfinite(x) || !isfinite(y) || x == 0.0 || y == 0.0) {
        /* exact (float32/16-bit: <= 48 bits in [2^-298, 2^256]; zeros), or a special decided by
         * IEEE arithmetic (Inf * 0 = NaN, Inf * y = +-Inf): window 1 counts it */
        const double ap = fabs(p);
        if (!(ap <= A->maxabs)) A->maxabs = ap;   /* NaN propagates */
        A->bs[1][A->k[1]] = p;
        A->ba[1][A->k[1]] = isnan(p) ? p : ap;
        if (++A->k[1] == DOT_BUF) flush(A, 1);
        return;
    }
    const int neg = p < 0;
    const double ap = fabs(p);
    if (ap >= 0x1p-968 && ap < 0x1p1023) {
        const double lo = fma(x, y, -p);
        piece(A, 1, p, neg);
        if (lo != 0.0) piece(A, 1, lo, neg);
        /* |x y| = |p| + sign(p) lo: the next double up bounds it when that term is positive */
        const double up = (neg ? -lo : lo) > 0 ? nextafter(ap, INFINITY) : ap;
        if (up > A->maxabs) A->maxabs = up;
        return;
    }
    int ex, ey;
    const double mx = frexp(x, &ex), my = frexp(y, &ey);
    const double ph = mx * my, pl = fma(mx, my, -ph);
    const int e = ex + ey;
    const int sneg = ph < 0;   /* p itself may have underflowed to a zero */
    const int w = e < -300 ? 0 : e < 700 ? 1 : 2;
    const int sh = w == 0 ? DOT_SCALE : w == 2 ? -DOT_SCALE : 0;
    piece(A, w, ldexp(ph, e + sh), sneg);
    if (pl != 0.0) piece(A, w, ldexp(pl, e + sh), sneg);
    /* |x y| < 2^e (|mx my| < 1): 2^-1000 bounds the tiny ones; Inf beyond double */
    double up = e <= -1000 ? 0x1p-1000 : ldexp(fabs(ph), e);
    if (e > -1000 && (pl > 0) != sneg && pl != 0.0) up = nextafter(up, INFINITY);
    if (up > A->maxabs) A->maxabs = up;
}

/* The exact value of the three windows (acc[w] of A->s or A->a) into out; returns 1 when window
 * 1 holds a special value (out is that NaN/Inf). */
static int combine(sl_exact *const acc[3], mpfr_t out)
{
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_set_prec(out, DOT_PREC);
    if (sl_exact_get(acc[1], t)) {
        mpfr_set(out, t, MPFR_RNDN);
        mpfr_clear(t);
        return 1;
    }
    const int neg_zero = mpfr_zero_p(t) && mpfr_signbit(t) && acc[0]->n == 0 && acc[2]->n == 0;
    SL_EXACT_REQUIRE(mpfr_set(out, t, MPFR_RNDN) == 0, "dot: window 1 exact");
    for (int w = 0; w <= 2; w += 2) {
        if (acc[w]->n == 0) continue;
        sl_exact_get(acc[w], t);
        mpfr_mul_2si(t, t, w == 0 ? -DOT_SCALE : DOT_SCALE, MPFR_RNDN);   /* exact */
        SL_EXACT_REQUIRE(mpfr_add(out, out, t, MPFR_RNDN) == 0, "dot: windows combined exactly");
    }
    if (mpfr_zero_p(out)) mpfr_set_zero(out, neg_zero ? -1 : 1);
    mpfr_clear(t);
    return 0;
}

static void acc_free(dot_acc *A)
{
    for (int w = 0; w < 3; w++) {
        sl_exact_free(A->s[w]);
        sl_exact_free(A->a[w]);
    }
    free(A);
}

int sl_reference_dot(sl_reference *ref, const void *x, const void *y, uint64_t n, sl_dtype dt,
                     unsigned threads, sl_err *err)
{
    (void)threads;
    if (!ref) return sl_err_set(err, "sl_reference_dot: ref is NULL");
    /* the sum's reference of nothing: every field initialised (n = 0: +0, cond 1) */
    const double none = 0.0;
    if (sl_reference_compute(ref, &none, 0, sl_dtype_valid(dt) ? dt : SL_F64, err)) return -1;
    ref->dtype = dt;
    if (!sl_dtype_valid(dt)) return sl_err_set(err, "sl_reference_dot: unknown dtype");
    if ((!x || !y) && n) return sl_err_set(err, "sl_reference_dot: x or y is NULL with n > 0");
    ref->n = n;
    dot_acc *A = calloc(1, sizeof *A);
    int ok = A != NULL;
    for (int w = 0; ok && w < 3; w++) ok = (A->s[w] = sl_exact_new()) && (A->a[w] = sl_exact_new());
    if (!ok) {
        if (A) acc_free(A);
        return sl_err_set(err, "sl_reference_dot: out of memory for the superaccumulators");
    }
    for (uint64_t i = 0; i < n; i++) product(A, load(x, dt, i), load(y, dt, i), dt);
    for (int w = 0; w < 3; w++) flush(A, w);
    const int special = combine(A->s, ref->sum);
    combine(A->a, ref->sumabs);
    ref->maxabs = A->maxabs;
    acc_free(A);

    ref->rounded = sl_round_mpfr(ref->sum, dt);
    ref->rounded_f64 = sl_round_mpfr(ref->sum, SL_F64);
    ref->rounded_f32 = sl_round_mpfr(ref->sum, SL_F32);
    ref->finite = !special && isfinite(ref->rounded);
    ref->overflow = !special && !isfinite(ref->rounded);
    ref->abssum = mpfr_get_d(ref->sumabs, MPFR_RNDU);
    if (!ref->finite) {
        ref->cond = NAN;
    } else if (mpfr_zero_p(ref->sum)) {
        ref->cond = mpfr_zero_p(ref->sumabs) ? 1.0 : INFINITY;
    } else {
        mpfr_t c;
        mpfr_init2(c, 64);
        mpfr_abs(c, ref->sum, MPFR_RNDN);
        mpfr_div(c, ref->sumabs, c, MPFR_RNDU);
        mpfr_mul_2si(c, c, 1, MPFR_RNDU);
        ref->cond = mpfr_get_d(c, MPFR_RNDU);
        mpfr_clear(c);
    }
    return 0;
}

/* bounds_norm.c: the a-priori error bounds of the norm2 variants (sl_norm_bound, sl_measure.h),
 * absolute, on the result in the input format, one switch on the variant's model.
 *
 * Notation: N = sqrt(S2) the exact norm, S2 = sum x^2 (read from the reference rounded upward),
 * u = unit roundoff of the accumulator (sl_variant_acc), eta = half its least subnormal (the
 * absolute error of a square that underflows; adds of subnormals are exact), gamma_j = j u / (1 - j u),
 * k = depth() (the longest chain of adds of a square), M = max |x|, u_o and eta_o the output's.
 * A square root of a perturbed S2: |sqrt(a) - sqrt(b)| <= min(|a - b| / sqrt(b), sqrt(|a - b|)).
 *   RECURSIVE (naive, f64-acc, half-acc; Higham ch. 3 and 4): each square rounded once and k adds:
 *       E_S2 = gamma_{k+1} S2 + n eta; E = root(E_S2) + u (N + root(E_S2)) (the sqrt's rounding),
 *       so relative ~ gamma_{k+1} / 2 + u. Vacuous (+Inf) when S2 (1 + gamma_{k+1}) + n eta reaches the
 *       accumulator's largest value (a square or a partial sum may overflow: the variant returns
 *       +Inf, a failed row where the exact norm is finite) and when n eta > gamma_{k+1} S2 (the
 *       squares underflow: the variant may return 0 or a value far below N, a failed row too; the
 *       rigorous bound would then hold only as the uninformative sqrt(n eta)).
 *   scaled (Blue's three accumulators, LAPACK 3.10 dnrm2; Anderson, "Algorithm 978: Safe scaling in
 *       the Level 1 BLAS", ACM TOMS 44(1), 2017, sec. 2-3): every square is of an exactly scaled value
 *       (powers of two), so each accumulator is a recursive sum with gamma_{k+1} and no overflow
 *       or underflow but for squares of values below tsml scaled by ssml that still underflow
 *       (eta / ssml^2 each); the combine takes at most 4 more roundings (a scale, an add, a
 *       division and a square in the mixed branch), the root and the final scale 2 more; small
 *       values dropped beside a non-zero big accumulator contribute at most n tsml^2:
 *       E_S2 = gamma_{k+5} S2 + n eta / ssml^2 + n tsml^2 (the last only when M > tbig),
 *       E = root(E_S2) + gamma_2 (N + root(E_S2)) + eta (the final scale by a power of two rounds a
 *       subnormal norm absolutely). Finite wherever N is (the design's point).
 *   BINNED (reproducible: the squares of float32/16-bit input exact in float64, summed by the
 *       float64 binned state, K folds; Ahrens, Demmel and Nguyen, TOMS 2020): with m = M^2,
 *       A = n m 2^(W (1 - K) + 1), c = 7 eps / (1 - 6 sqrt(eps) - 7 eps) (W = 40, eps = 2^-52):
 *       E_S2 = (A + c S2) / (1 - c) + 2^-53 (S2 + that) (the state's rounding to float64),
 *       E = root(E_S2) + 2^-53 (N + root(E_S2)) (the float64 sqrt). Float64 input (TwoProduct pieces
 *       of x 2^-e, e = the exponent of M clamped to [-1022, 1022], norm.h): the same evaluated on
 *       the scaled N 2^-e, S2 2^-2e, M 2^-e (in range wherever N is), 2n inputs (the pieces), n 2^-1068
 *       for pieces that underflow, times 2^e, plus the least subnormal (the last product's rounding when N is
 *       subnormal).
 *   CORRECTLY_ROUNDED (correct, exact): half an ulp of the rounded norm.
 * Then, when the output is narrower than the accumulator: + u_o (N + E) + eta_o (and for a float64
 * accumulator on 16-bit input 2^-24 (N + E) more, as lse's bound allows for a rounding through
 * float32: slack here, the norm kernels round once). sl_bound_reach: +Inf when N + E may round to Inf. NaN for a non-finite reference (an Inf or NaN input) and for a model norm2 does not
 * know. Evaluated in double, enlarged by 2^-40 relative to stay an upper bound; where S2 exceeds
 * double's range (float64 input) scaled's bound, homogeneous in x, is evaluated on x 2^-s (every
 * other model is +Inf there: naive's squares overflow). */
#include <float.h>
#include <math.h>
#include <string.h>
#include "sl_measure_impl.h"
#include "sl_ops.h"

typedef struct {
    double u, eta, max, tsml, ssml, tbig;
} nrm_fmt;

/* The accumulator's figures and Blue's constants of LAPACK 3.10 (dnrm2.f90 / snrm2.f90) for it:
 * tsml = 2^ceil((minexp - 1) / 2), tbig = 2^floor((maxexp - p + 1) / 2), ssml = 2^-floor((minexp - p) / 2)
 * with Fortran's minexponent/maxexponent (-1021/1024, -125/128; float16 -13/16, bfloat16 -125/128). */
static nrm_fmt fmt_of(sl_dtype dt)
{
    nrm_fmt f;
    switch (dt) {
    case SL_F64: f.u = 0x1p-53; f.eta = 0x1p-1074; f.max = DBL_MAX; f.tsml = 0x1p-511; f.tbig = 0x1p486; f.ssml = 0x1p537; break;
    case SL_F16: f.u = 0x1p-11; f.eta = 0x1p-25; f.max = 0x1.ffcp15; f.tsml = 0x1p-7; f.tbig = 0x1p3; f.ssml = 0x1p12; break;
    case SL_BF16: f.u = 0x1p-8; f.eta = 0x1p-134; f.max = 0x1.fep127; f.tsml = 0x1p-63; f.tbig = 0x1p60; f.ssml = 0x1p66; break;
    default: f.u = 0x1p-24; f.eta = 0x1p-150; f.max = FLT_MAX; f.tsml = 0x1p-63; f.tbig = 0x1p52; f.ssml = 0x1p75; break;
    }
    return f;
}

static double gam(double j, double u)
{
    const double ju = j * u;
    return ju >= 0.5 ? INFINITY : ju / (1.0 - ju);
}

/* |sqrt(S2 + d) - N| for |d| <= e */
static double root_err(double e, double S2, double N)
{
    const double a = sqrt(e) * (1.0 + 0x1p-52);
    const double b = N > 0 ? e / N * (1.0 + 0x1p-51) : INFINITY;
    (void)S2;
    return a < b ? a : b;
}

/* BINNED's error of the root (its float64 rounding included) for the largest input m, S2, N, the
 * count of inputs (float64: two pieces a square), K folds, and an absolute error abs of the
 * squares themselves */
static double binned_root_err(double m, double S2, double N, double nn, double K, double abs)
{
    const double eps = 0x1p-52, W = 40.0;
    const double A = nn * m * ldexp(1.0, (int)(W * (1.0 - K) + 1.0));
    const double c = 7.0 * eps / (1.0 - 6.0 * sqrt(eps) - 7.0 * eps);
    double es2 = (A + c * S2) / (1.0 - c) + abs;
    es2 += 0x1p-53 * (S2 + es2);
    const double re = root_err(es2, S2, N);
    return re + 0x1p-53 * (N + re);
}

double sl_norm_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                     const sl_launch *cfg)
{
    if (v->bound == SL_BOUND_NONE) return NAN;
    if (ref->overflow) return INFINITY;
    if (!ref->finite) return NAN;
    if (v->bound == SL_BOUND_CORRECTLY_ROUNDED) {
        const double b = sl_reference_bound(ref, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, dt, dt);
        return b == 0 ? 0x1p-1074 : b;   /* a zero or subnormal root: no double below 2^-1074 */
    }
    const sl_dtype acc = sl_variant_acc(v, dt);
    const nrm_fmt a = fmt_of(acc), o = fmt_of(dt);
    const double N = fabs(ref->rounded_f64) * (1.0 + 0x1p-52);   /* upward enough: within 1/2 ulp */
    const double S2 = ref->s2 + DBL_TRUE_MIN;                     /* rounded upward already */
    const double nn = (double)n;
    if (n == 0 || S2 == DBL_TRUE_MIN) return 0.0;     /* every square 0: every variant exact */
    const int scaled = v->bound == SL_BOUND_RECURSIVE && !strcmp(v->name, "scaled");
    const int binned64 = v->bound == SL_BOUND_BINNED && dt == SL_F64;
    /* S2 beyond double (float64 input): no finite bound but scaled's and reproducible's, evaluated
     * below on S2 2^-2s */
    if (!(S2 < INFINITY) && !scaled && !binned64) return INFINITY;
    const double k = sl_variant_depth(v, n, dt, cfg);
    if (!(k >= 0)) return NAN;
    double E;
    if (scaled) {
        /* homogeneous: with s the rounded norm's exponent, N' = N 2^-s (upward, as N; taken from
         * the rounded norm, since N itself may be +Inf at the top) and S2' = N'^2 (2^-50 covers the
         * squaring's rounding), the absolute terms times 2^-2s (plus the least subnormal, an upper
         * bound of any term that underflows there); E = E' 2^s */
        const int s = S2 < INFINITY ? 0 : ilogb(ref->rounded_f64);
        const double Ns = s ? ldexp(fabs(ref->rounded_f64), -s) * (1.0 + 0x1p-52) : N;
        const double S2s = s ? Ns * Ns * (1.0 + 0x1p-50) : S2;
        const double g = gam(k + 5, a.u);
        double ab = nn * a.eta / (a.ssml * a.ssml);
        if (ref->maxabs > a.tbig) ab += nn * a.tsml * a.tsml;
        const double es2 = g * S2s + (s ? ldexp(ab, -2 * s) + DBL_TRUE_MIN : ab);
        const double re = root_err(es2, S2s, Ns);
        /* eta: the final scale rounds a subnormal norm (absolutely) */
        E = ldexp(re + gam(2, a.u) * (Ns + re), s) + a.eta;
    } else if (binned64) {
        /* in the kernel's scaled domain (x 2^-e, e = max|x|'s exponent clamped to [-1022, 1022],
         * norm.h), where every square and the sum are in range: N' = N 2^-e upward (half an ulp
         * of a subnormal rounded norm too), S2' = N'^2, m' = (M 2^-e)^2; the pieces of a square
         * exact but where x 2^-e or a piece underflows (each error below 2^-1072: n 2^-1068 covers
         * them); the binned sum's terms as BINNED below; the root's rounding; E = E' 2^e and the
         * least subnormal (the product's rounding where the norm is subnormal) */
        int e = ref->maxabs > 0 ? ilogb(ref->maxabs) : -1022;
        e = e < -1022 ? -1022 : e > 1022 ? 1022 : e;
        const double Ns = ldexp(fabs(ref->rounded_f64) + DBL_TRUE_MIN, -e) * (1.0 + 0x1p-52);
        const double S2s = Ns * Ns * (1.0 + 0x1p-50);
        const double Ms = ldexp(ref->maxabs, -e);
        E = ldexp(binned_root_err(Ms * Ms * (1.0 + 0x1p-52), S2s, Ns, 2.0 * nn, k, nn * 0x1p-1068), e) + DBL_TRUE_MIN;
    } else if (v->bound == SL_BOUND_RECURSIVE) {
        const double g = gam(k + 1, a.u);
        if (!(S2 * (1.0 + g) + nn * a.eta < a.max)) return INFINITY;   /* may overflow */
        if (nn * a.eta > g * S2) return INFINITY;                        /* underflow dominates */
        const double re = root_err(g * S2 + nn * a.eta, S2, N);
        E = re + a.u * (N + re);
    } else if (v->bound == SL_BOUND_BINNED) {
        E = binned_root_err(ref->maxabs * ref->maxabs * (1.0 + 0x1p-52), S2, N, nn, k, 0.0);
    } else {
        return NAN;
    }
    if (acc == SL_F64 && sl_dtype_is_half(dt)) E += 0x1p-24 * (N + E) + 0x1p-150;   /* via float32 */
    if (o.u > a.u) E += o.u * (N + E) + o.eta;
    E *= 1.0 + 0x1p-40;
    if (isnan(E)) return INFINITY;
    return sl_bound_reach(ref, E, dt);
}

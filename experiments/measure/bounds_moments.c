/* bounds_moments.c: the a-priori error bounds of the variants of mean, var, std, max and min
 * (sl_moment_bound, sl_measure.h), one switch on the variant's bound model.
 *
 * Notation: u = unit roundoff of the accumulator (sl_variant_acc), eta = half its smallest
 * subnormal (float64: the smallest, 2^-1075 being no double; the absolute error of a product or quotient that underflows; sums of subnormals are
 * exact), gamma_j = j u / (1 - j u), k = depth() (the longest chain of roundings of the sums),
 * n, m = n - ddof, A = sum |x|, S1 = sum x, S2 = sum x^2, M2 = sum (x - mean)^2 = m V, V the exact
 * variance, M = max |x|, K = x[0]. Every quantity is read from the reference (upward where it was
 * rounded) and every constant (n, m) is allowed one rounding when converted to the accumulator.
 * Rigorous (first-order-free) forms, derived from the computed quantities as in Higham ch. 1.9/3:
 *   mean (RECURSIVE and every VAR_* model but WELFORD: S1 summed, divided by n)
 *       E_S = gamma_k A (COMPENSATED: (2u + 4 k u^2) A);  E = E_S / n + gamma_2 (|mean| + E_S / n) + eta
 *   VAR_TEXTBOOK  (S2 - S1 S1 / n) / m:  e1 = gamma_k A, e2 = gamma_{k+1} S2 + n eta,
 *       E_P = e1 (2 |S1| + e1) / n + gamma_3 (|S1| + e1)^2 / n + 2 eta,
 *       E = (e2 + E_P) (1 + gamma_3) / m + gamma_3 V + eta
 *   VAR_SHIFTED   the textbook form on y = x - K computed as y(1 + d), |d| <= u (K the first value
 *       read, any input value once the input is permuted: |mean - K| <= |mean| + M): with
 *       Sy2 = M2 + n (|mean| + M)^2, Ay = (1 + u) sqrt(n Sy2) >= sum |y|, the perturbation moves M2 by
 *       dM2 = u sqrt(Sy2) (2 sqrt(M2) + u sqrt(Sy2)); E = dM2 / m + TEXTBOOK(A = Ay, |S1| = Ay,
 *       S2 = (1 + u)^2 Sy2, V = V + dM2 / m)
 *   VAR_TWO_PASS  mean m^ = S1 / n (error e_m, the mean's E above), then sum (x - m^)^2:
 *       Q = M2 + n e_m^2 bounds sum (x - m^)^2; E_Q = n e_m^2 + gamma_{k+3} Q + n eta,
 *       E = E_Q (1 + gamma_2) / m + gamma_2 V + eta
 *   VAR_CORRECTED two-pass minus (sum d)^2 / n (Bjorck): sum d^2 - (sum d)^2 / n = M2 exactly for
 *       d = x - m^; with |sum d| <= n e_m, sum |d| <= Ad = (1 + u) sqrt(n Q), e_s = gamma_{k+2} Ad:
 *       E_C = e_s (2 n e_m + e_s) / n + gamma_3 (n e_m + e_s)^2 / n + 2 eta,
 *       E = (gamma_{k+3} Q + n eta + E_C) (1 + gamma_3) / m + gamma_3 V + eta
 * The published estimate where no rigorous form is derived here (documented as an estimate):
 *   VAR_WELFORD   Welford's updates merged by Chan's formula (Chan, Golub and LeVeque 1983: the
 *       updating algorithm's relative error grows as n kappa u, with k for n in a tree): the
 *       first-order error of M2 is about 2 (k + 2) u M sqrt(2 n M2) (the running mean's error
 *       times sum |delta|) + gamma_{k+3} M2; taken as E_M2 = 6 k u (M sqrt(n M2) + M2) + n eta,
 *       E = E_M2 (1 + gamma_3) / m + gamma_3 V + eta; its mean: E = 2 (k + 2) u M + eta.
 * In kappa and n (kappa^2 = S2 / M2; k for n in a tree) these are the published forms (Chan, Golub
 * and LeVeque 1983; Higham ch. 1.9), relative to V: textbook ~ k kappa^2 u (e2 / M2 = gamma_{k+1}
 * kappa^2), two-pass ~ k u + k^2 kappa^2 u^2 (n e_m^2 / M2 with e_m ~ k u |mean|), Welford
 * ~ k kappa u (M sqrt(n M2) / M2 >= kappa); tmoments_bound checks each model's bound over V within
 * a constant (0.5 to 16; measured 3, 1 and 6 to 9) of its published form on offset-normal data,
 * kappa 10 to 1e10.
 * std: the variance's E_V in the accumulator becomes min(E_V / sqrt(V), sqrt(E_V)) (|sqrt a - sqrt b|
 * is below both), plus u (sqrt(V) + that) for the square root's rounding.
 * Then, when the output format is narrower than the accumulator (16-bit input, *-f64 rows):
 * + u_o (|R| + E) + eta_o. EXACT: 0 (max/min); CORRECTLY_ROUNDED: half an ulp of the rounded value
 * (2^-1074 below DBL_MIN). +Inf (vacuous) when a sum can overflow the accumulator (A, S2, S1^2,
 * Q, n beyond its largest finite value), when j u >= 1/2 for a gamma_j, when the exact value
 * overflows the output, or when the result may round to Inf (sl_bound_reach). NaN for a
 * non-finite reference and for a model this operation does not know.
 * Evaluated in double: the terms are sums of products of non-negative numbers (relative error
 * below 64 u_f64 in all), so the result is enlarged by 2^-40 relative to stay an upper bound. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "sl_measure_impl.h"
#include "sl_ops.h"

typedef struct {
    double u, eta, max;
} fmt_info;

static fmt_info info_of(sl_dtype dt)
{
    fmt_info f;
    switch (dt) {
    case SL_F64: f.u = 0x1p-53; f.eta = 0x1p-1074; f.max = DBL_MAX; break;   /* 2^-1075 is no double */
    case SL_F16: f.u = 0x1p-11; f.eta = 0x1p-25; f.max = 0x1.ffcp15; break;
    case SL_BF16: f.u = 0x1p-8; f.eta = 0x1p-134; f.max = 0x1.fep127; break;
    default: f.u = 0x1p-24; f.eta = 0x1p-150; f.max = FLT_MAX; break;
    }
    return f;
}

/* gamma_j for unit roundoff u; +Inf when j u >= 1/2 (vacuous). */
static double gam(double j, double u)
{
    const double ju = j * u;
    return ju >= 0.5 ? INFINITY : ju / (1.0 - ju);
}

/* a double rounded to nearest, taken upward (one ulp of relative margin) */
static double up(double x) { return fabs(x) * (1.0 + 0x1p-52) + DBL_TRUE_MIN; }

/* The inputs of the bounds, read from the reference. */
typedef struct {
    double n, m, A, S1, S2, M2, V, M, K, mean;
} mom_in;

static mom_in inputs_of(const sl_reference *ref, uint64_t n)
{
    mom_in in;
    in.n = (double)n;
    in.m = (double)n - (double)ref->ddof;
    in.A = up(ref->abssum);
    in.S1 = up(ref->s1);
    in.S2 = isnan(ref->s2) ? NAN : ref->s2 + DBL_TRUE_MIN;   /* rounded upward already */
    in.M2 = up(ref->m2);
    in.V = in.m > 0 ? in.M2 / in.m * (1.0 + 0x1p-52) : NAN;   /* std: the variance, not ref's value */
    in.M = ref->maxabs;
    in.K = ref->first;
    in.mean = n ? up(ref->s1) / (double)n * (1.0 + 0x1p-52) : 0.0;
    return in;
}

/* The error of a mean in the accumulator: the sum's E_S over n, the division's rounding. */
static double mean_error(const sl_variant *v, const mom_in *in, double k, const fmt_info *a)
{
    if (v->bound == SL_BOUND_VAR_WELFORD) return 2.0 * (k + 2.0) * a->u * in->M + a->eta;
    const double es = v->bound == SL_BOUND_COMPENSATED ? (2.0 * a->u + 4.0 * k * a->u * a->u) * in->A
                                                       : gam(k, a->u) * in->A;
    return es / in->n + gam(2, a->u) * (in->mean + es / in->n) + a->eta;
}

/* The textbook form's error for given A, |S1|, S2, V (the rest from in). */
static double textbook_error(const mom_in *in, double A, double S1, double S2, double V, double k,
                             const fmt_info *a)
{
    if (!(A < a->max) || !(S2 * (1.0 + gam(k + 1, a->u)) < a->max)) return INFINITY;
    const double e1 = gam(k, a->u) * A, e2 = gam(k + 1, a->u) * S2 + in->n * a->eta;
    const double s = S1 + e1;
    if (!(s * s < a->max)) return INFINITY;
    const double ep = e1 * (2.0 * S1 + e1) / in->n + gam(3, a->u) * s * s / in->n + 2.0 * a->eta;
    return (e2 + ep) * (1.0 + gam(3, a->u)) / in->m + gam(3, a->u) * V + a->eta;
}

/* The variance's error in the accumulator under v's model (before any output rounding); NaN for
 * a model that is no variance algorithm's. */
static double var_error(const sl_variant *v, const mom_in *in, const sl_reference *ref, double k,
                        const fmt_info *a)
{
    const double u = a->u, g3 = gam(3, u);
    switch (v->bound) {
    case SL_BOUND_VAR_TEXTBOOK:
        return textbook_error(in, in->A, in->S1, in->S2, in->V, k, a);
    case SL_BOUND_VAR_SHIFTED: {
        const double s1n = ref->s1 / in->n;
        /* K is the first value in the order the variant reads, which a permuted input changes
         * while the reference stays: the bound takes any input value, |mean - K| <= |mean| + M */
        const double dk = (fabs(s1n) + in->M) * (1.0 + 0x1p-50) + DBL_TRUE_MIN;
        const double sy2 = (in->M2 + in->n * dk * dk) * (1.0 + 0x1p-50);
        if (!(sy2 < a->max)) return INFINITY;
        const double ay = (1.0 + u) * sqrt(in->n * sy2) * (1.0 + 0x1p-52);
        const double dm2 = u * sqrt(sy2) * (2.0 * sqrt(in->M2) + u * sqrt(sy2));
        return dm2 / in->m + textbook_error(in, ay, ay, (1.0 + u) * (1.0 + u) * sy2, in->V + dm2 / in->m, k, a);
    }
    case SL_BOUND_VAR_TWO_PASS: {
        if (!(in->A < a->max)) return INFINITY;
        const double em = mean_error(v, in, k, a);
        const double q = in->M2 + in->n * em * em;
        if (!(q * (1.0 + gam(k + 3, u)) < a->max)) return INFINITY;
        const double eq = in->n * em * em + gam(k + 3, u) * q + in->n * a->eta;
        return eq * (1.0 + gam(2, u)) / in->m + gam(2, u) * in->V + a->eta;
    }
    case SL_BOUND_VAR_CORRECTED: {
        if (!(in->A < a->max)) return INFINITY;
        const double em = mean_error(v, in, k, a);
        const double q = in->M2 + in->n * em * em;
        if (!(q * (1.0 + gam(k + 3, u)) < a->max)) return INFINITY;
        const double ad = (1.0 + u) * sqrt(in->n * q) * (1.0 + 0x1p-52);
        const double es = gam(k + 2, u) * ad, sd = in->n * em + es;
        if (!(sd * sd < a->max)) return INFINITY;
        const double ec = es * (2.0 * in->n * em + es) / in->n + g3 * sd * sd / in->n + 2.0 * a->eta;
        return (gam(k + 3, u) * q + in->n * a->eta + ec) * (1.0 + g3) / in->m + g3 * in->V + a->eta;
    }
    case SL_BOUND_VAR_WELFORD: {
        /* an estimate (the header): Chan, Golub and LeVeque's n kappa u with k for n */
        if (!(in->A < a->max) || !(in->M2 < a->max)) return INFINITY;
        const double e = 6.0 * k * u * (in->M * sqrt(in->n * in->M2) + in->M2) + in->n * a->eta;
        return e * (1.0 + g3) / in->m + g3 * in->V + a->eta;
    }
    default:
        break;
    }
    return NAN;
}

/* + the output's rounding when it is narrower than the accumulator. */
static double to_output(double e, double value, const fmt_info *a, const fmt_info *o)
{
    if (o->u > a->u) e += o->u * (value + e) + o->eta;
    return e;
}

double sl_moment_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg)
{
    const sl_operation *op = sl_op_of(v);
    if (!op || v->bound == SL_BOUND_NONE) return NAN;
    if (ref->overflow) return INFINITY;
    if (!ref->finite) return NAN;
    if (v->bound == SL_BOUND_EXACT) return 0.0;
    if (v->bound == SL_BOUND_CORRECTLY_ROUNDED) {
        /* half an ulp of the rounded value; a moment (unlike a sum) need not be a multiple of
         * 2^-1074: below DBL_MIN half an ulp (2^-1075) is no double, so 2^-1074 */
        const double b = sl_reference_bound(ref, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, dt, dt);
        return b == 0 ? 0x1p-1074 : b;
    }
    const int is_mean = !strcmp(op->name, "mean"), is_var = !strcmp(op->name, "var"),
              is_std = !strcmp(op->name, "std");
    if (!is_mean && !is_var && !is_std) return NAN;       /* max/min: EXACT or CORRECTLY_ROUNDED */
    const sl_dtype acc = sl_variant_acc(v, dt);
    const fmt_info a = info_of(acc), o = info_of(dt);
    const double k = sl_variant_depth(v, n, dt, cfg);
    if (!(k >= 0) || n == 0) return NAN;
    const mom_in in = inputs_of(ref, n);
    if (!(in.n < a.max) || !(in.A < a.max)) return INFINITY;
    double e;
    if (is_mean) {
        if (v->bound == SL_BOUND_BINNED) return NAN;
        e = to_output(mean_error(v, &in, k, &a), in.mean, &a, &o);
    } else {
        if (isnan(in.M2) || isnan(in.S2)) return NAN;      /* not a variance's reference */
        const double ev = var_error(v, &in, ref, k, &a);
        if (isnan(ev)) return NAN;
        if (is_var) {
            e = to_output(ev, in.V, &a, &o);
        } else {
            const double sv = sqrt(in.V) * (1.0 + 0x1p-52);
            double es = sqrt(ev) * (1.0 + 0x1p-52);
            if (in.V > 0 && ev / sqrt(in.V) < es) es = ev / sqrt(in.V) * (1.0 + 0x1p-51);
            es += a.u * (sv + es);
            e = to_output(es, sv, &a, &o);
        }
    }
    e *= 1.0 + 0x1p-40;
    if (isnan(e)) return INFINITY;     /* Inf - Inf in a vacuous term */
    return sl_bound_reach(ref, e, dt);
}

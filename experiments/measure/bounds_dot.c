/* bounds_dot.c: the a-priori error bounds of the dot variants (sl_dot_bound, sl_measure.h), after
 * Higham ("Accuracy and Stability of Numerical Algorithms", 3.1 and 4.3) and Ogita, Rump & Oishi
 * ("Accurate sum and dot product", SISC 2005, Proposition 5.5 / Theorem 5.3 for Dot2). */
#include <float.h>
#include <math.h>
#include "sl_measure.h"

static double fmt_max(sl_dtype dt)
{
    switch (dt) {
    case SL_F64: return DBL_MAX;
    case SL_F32: return FLT_MAX;
    case SL_F16: return 65504.0;
    default: return 0x1.fep127;   /* bfloat16 */
    }
}

/* The smallest subnormal of a format: what one underflowing product or TwoProduct error term may
 * lose (at most half of it; the bound takes all of it). */
static double fmt_eta(sl_dtype dt)
{
    return dt == SL_F64 ? 0x1p-1074 : dt == SL_F32 ? 0x1p-149 : dt == SL_F16 ? 0x1p-24 : 0x1p-133;
}

/* reproducible: the binned bound (Ahrens, Demmel and Nguyen, TOMS 2020; sl_reference.h's BINNED)
 * over the m <= 2n float64 pieces of the products, with W = 40, K = depth() folds, eps = 2^-52,
 * M = max(max |x_i y_i|, 2^-1023), c = 7 eps / (1 - 6 sqrt(eps) - 7 eps):
 *   A = 2n M 2^(W (1 - K) + 1),  E = (A + c |S|) / (1 - c),
 * plus 2n 2^-1074 (float64 pieces below the subnormal range) and, for float32/16-bit output,
 * u_o (|S| + E) + eta_o / 2; +Inf when a product reaches 2^1023 (an Inf piece). */
static double binned(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                     const sl_launch *cfg)
{
    if (ref->overflow || !(ref->maxabs < 0x1p1023)) return INFINITY;
    const double K = sl_variant_depth(v, n, dt, cfg), W = 40.0, eps = 0x1p-52;
    const double M = ref->maxabs > 0x1p-1023 ? ref->maxabs : 0x1p-1023;
    const double c = 7.0 * eps / (1.0 - 6.0 * sqrt(eps) - 7.0 * eps);
    const double S = nextafter(fabs(ref->rounded_f64), INFINITY);
    const double A = 2.0 * (double)n * M * ldexp(1.0, (int)(W * (1.0 - K)) + 1);
    double E = ((A + c * S) / (1.0 - c) + 2.0 * (double)n * 0x1p-1074) * 1.01;
    if (dt != SL_F64) E += sl_unit_roundoff(dt) * (S + E) * 1.01 + fmt_eta(dt) / 2;
    return sl_bound_reach(ref, E, dt);
}

/* With u the accumulator's unit roundoff, k = depth() the longest chain of adds of the tree (a
 * thread's elements, its lanes, the block tree, the finish), A = sum |x_i y_i| (the reference's
 * abssum, rounded upward), S the exact dot and g(m) = m u / (1 - m u):
 *   RECURSIVE (naive, f64-acc, half-acc): g(k + 1) A: each product rounded once, then k adds;
 *   COMPENSATED (kahan): u A + (2u + 4 k u^2)(1 + u) A: the products' roundings, then the
 *     compensated sum of the rounded products (Higham's 4.3 bound, as the sum's kahan row uses it,
 *     over sum |fl(x y)| <= (1 + u) A);
 *   DOT2: u |S| + g(2k + 2)^2 A (1 + u)^2: ORO's u|s| + gamma_n^2 |x|'|y| with the chain of the
 *     error terms (two adds per element and per merge: at most 2k + 2) in place of n; the errors of
 *     TwoProduct and TwoSum are exact, their sum is at most g(k + 1) (1 + u) A;
 *   CORRECTLY_ROUNDED (correct, exact): half an ulp of the rounded value.
 * Every tree bound adds n eta (a product or a TwoProduct error below the accumulator's subnormal
 * spacing loses up to eta each, which gamma does not cover) and, when the output format is narrower
 * than the accumulator, u_o (|S| + E) + eta_o / 2 for the one final rounding (relative, or half the
 * output's subnormal spacing); each is taken 1 % high against the
 * evaluation's own roundings in double. Vacuous (+Inf) when A exceeds the accumulator's largest
 * value (a partial sum may overflow), when the dot overflows the format, when k u >= 1/2, or when
 * |S| + E reaches the format's overflow threshold (sl_bound_reach); NaN for an Inf/NaN product. */
double sl_dot_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                    const sl_launch *cfg)
{
    if (!ref->finite) return NAN;
    if (v->bound == SL_BOUND_CORRECTLY_ROUNDED)
        return sl_reference_bound(ref, SL_REF_BOUND_CORRECTLY_ROUNDED, 0, dt, dt);
    if (v->bound == SL_BOUND_BINNED) return binned(v, ref, n, dt, cfg);
    if (v->bound != SL_BOUND_RECURSIVE && v->bound != SL_BOUND_COMPENSATED && v->bound != SL_BOUND_DOT2)
        return NAN;
    if (ref->overflow) return INFINITY;
    const sl_dtype acc = sl_variant_acc(v, dt);
    const double A = ref->abssum;
    if (!(A <= fmt_max(acc))) return INFINITY;
    const double u = sl_unit_roundoff(acc), uo = sl_unit_roundoff(dt);
    const double k = sl_variant_depth(v, n, dt, cfg);
    const double S = nextafter(fabs(ref->rounded_f64), INFINITY);
    if (!((2.0 * k + 2.0) * u < 0.5)) return INFINITY;
#define G(m) ((m) * u / (1.0 - (m) * u))
    double E;
    if (v->bound == SL_BOUND_RECURSIVE) E = G(k + 1.0) * A;
    else if (v->bound == SL_BOUND_COMPENSATED) E = u * A + (2.0 * u + 4.0 * k * u * u) * (1.0 + u) * A;
    else E = u * S + G(2.0 * k + 2.0) * G(2.0 * k + 2.0) * (1.0 + u) * (1.0 + u) * A;
#undef G
    E = (E + (double)n * fmt_eta(acc)) * 1.01;
    /* the final rounding to a narrower output: relative u_o, or half its subnormal spacing */
    if (sl_dtype_size(dt) < sl_dtype_size(acc)) E += uo * (S + E) * 1.01 + fmt_eta(dt) / 2;
    return sl_bound_reach(ref, E, dt);
}

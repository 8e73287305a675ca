/* lse/lse.h: what the log-sum-exp kernels (lse.cu) share with their CPU twins (lse.c): which
 * variant a descriptor is (impl), the launch geometry, and the per-thread state with its update,
 * merge and final steps, as host-and-device functions (one copy: the twin runs the kernel's own
 * arithmetic). Floating-point assumptions: lse_math.h's.
 *
 * State (m, s, c): the sum of exp(x_i - m) over the values seen is s + c (c: the compensation of
 * `compensated`, 0 otherwise); m is the running maximum (online), the exact maximum (two-pass) or
 * 0 (naive). Rules, in the accumulator format A (float32, or float64 for float64 input and f64-acc):
 *   add, naive:      s = s + exp(x)
 *   add, two-pass:   s = s + t, t = (x == m ? 1 : exp(x - m))
 *   add, online:     x > m: f = exp(m - x), s = s f (c = c f), m = x, t = 1;
 *                    else t = (x == m ? 1 : exp(x - m)); then s = s + t
 *                    (online with a float32 state takes its values in tiles: sl_lse_add_tile_f)
 *                    (compensated: (s, c) = TwoSum(s, t) with the error added into c)
 *   merge(a, b):     b.m > a.m: swap; f = (a.m == b.m ? 1 : exp(b.m - a.m));
 *                    s = a.s + b.s f (compensated: the pair sum of reduce/ops.cuh's sl_op_pair of
 *                    (a.s, a.c) and (b.s f, b.c f))
 *   add, half-acc:   s = r16(s + r16(exp(x))), r16 the rounding to the 16-bit input format; its
 *                    merge rounds a.s + b.s likewise (its m stays -Inf: f = 1)
 *   final:           m + log(s + c)  (naive, half-acc: log(s))
 *   accurate:        online with a float64 state for every input format, the sum a pair s + c
 *                    of double-double terms exp(x - m) (the difference exact, TwoSum), rescales
 *                    by double-double factors, a final log refined by a Newton step
 *                    (sl_lse_acc_*, below)
 *   reproducible:    no state here: the exact maximum M first (as two-pass), then the binned sum
 *                    (exact/binned.h) of sl_lse_rep_term(x, M), rounded once, M + log of it
 * Special values come out without tests of their own: -Inf inputs add exp(-Inf) = 0 (or count 1
 * while m is still -Inf, which leaves -Inf + log(count) = -Inf); +Inf makes m = +Inf and the
 * result +Inf; NaN makes s NaN; an empty state (-Inf, 0) gives -Inf + log(0) = -Inf. The merge
 * is commutative (the larger maximum first), so a warp's or a block's tree may pair states in
 * either order. */
#ifndef SL_LSE_H
#define SL_LSE_H
#include <stdint.h>
#include "lse/lse_math.h"
#include "sumlab/half.h"

/* The member of the lse family a descriptor is (its impl field). */
typedef enum {
    SL_LSE_NAIVE = 0,   /* exp unshifted, then log */
    SL_LSE_TWO_PASS,    /* exact max, then sum exp(x - max) */
    SL_LSE_ONLINE,      /* one pass, running max, rescaled sum (Milakov & Gimelshein) */
    SL_LSE_F64_ACC,     /* online with a float64 state for float32/16-bit input */
    SL_LSE_COMPENSATED, /* online with a compensated sum of the exponentials */
    SL_LSE_HALF_ACC,    /* naive accumulated in the 16-bit input format (a teaching row) */
    SL_LSE_REPRODUCIBLE, /* exact max, then sum exp(x - max) in the binned state: order-independent */
    SL_LSE_ACCURATE,    /* online, float64 state, compensated sum, exp arguments corrected */
    /* state kinds of half-acc (the descriptor's impl is SL_LSE_HALF_ACC; the format picks): */
    SL_LSE_NAIVE_F16 = 16,
    SL_LSE_NAIVE_BF16,
    /* accurate's first pass on float32/16-bit input (the descriptor's impl is SL_LSE_ACCURATE):
     * m the maximum (NaN if any value is), s the float64 sum of sl_lse_accf_term */
    SL_LSE_ACCF = 32,
    SL_LSE_ACCF16       /* the same on 16-bit input, with reproducible's float32 terms */
} sl_lse_kind;

#define SL_LSE_BLOCK 256u           /* default threads per block (any multiple of 32) */
#define SL_LSE_MAX_BLOCK 512u       /* larger requests are clamped to it (the kernels' launch
                                       bounds: 128 registers a thread, no spills in float64) */
#define SL_LSE_THREADS_PER_SM 1024u /* default grid = sm_count * (this / block) */
/* SUMLAB_LSE_ACCF_FLAT (a CMake option, kernels/README.md), for measuring: 1 walks 16-bit input
 * in accurate's first pass (lse.cu's lse_accf_kernel) a step's loads, then its values, at three
 * blocks of 512 an SM (the form before the default); 0, the default: each step's loads issued
 * before the step before it is taken (reduce/walk.cuh's sl_walk P = 1: 56-64 registers a thread
 * instead of 32, so two blocks of 512 an SM: lse.c's lse_resolve, which the twins follow; a
 * thread's values in the same order). On an H100 it read 7 % faster at 2^28 and 1-2 % at 2^24
 * (BENCHMARKS.md); online and two-pass under the same walk were slower at both sizes. */
#ifndef SUMLAB_LSE_ACCF_FLAT
#define SUMLAB_LSE_ACCF_FLAT 0
#endif
/* SUMLAB_LSE_ACCF_TILE (a CMake option, kernels/README.md), for measuring: 1 sums the terms of each
 * tile of accurate's first pass on 16-bit input (lse.cu's lse_for_tiles: SL_LSE_UNROLL vectors,
 * one vector or one edge value, at most 32 values) in float32, in order, and adds the tile's sum
 * to the float64 s (one conversion and one float64 add a tile instead of a value), and takes the
 * unrolled tiles' maximum on packed pairs (lse_tmax); the decision's theta then counts the tile
 * sums' rounding, SL_LSE_ACCF16_TILE_ERR. 0, the default: each term added to s in float64. */
#ifndef SUMLAB_LSE_ACCF_TILE
#define SUMLAB_LSE_ACCF_TILE 0
#endif
/* a float32 sum of at most 32 positive terms, in order: within gamma_31 = 31 u / (1 - 31 u) of
 * their exact sum, u = 2^-24 (no underflow: every term is at least exp(-86.5) = 2^-124.8, a
 * normal float32; an overflow gives +Inf, which no decision takes) */
#define SL_LSE_ACCF16_TILE_ERR 0x1p-19
/* theta's term per term of 16-bit input: sl_lm_expf16's relative error, and the tiles' */
#define SL_LSE_ACCF16_TH (SUMLAB_LSE_ACCF_TILE ? 0x1p-17 + SL_LSE_ACCF16_TILE_ERR : 0x1p-17)
#define SL_LSE_MAX_GRID (1u << 20)  /* requested grids are clamped to this */
#define SL_LSE_UNROLL 4             /* vectors loaded ahead per thread (order unchanged) */
#define SL_LSE_TILE_VALUES 32       /* online's tile with a float32 state: 32 values (float32: 8
                                       vectors; 16-bit: 4), one rescale and one loop trip each */
/* vectors per unrolled tile: online with a float32 state SL_LSE_TILE_VALUES / W, else SL_LSE_UNROLL */
#define SL_LSE_TILE_VECS(kind, acc_bytes, W)                                                  \
    ((kind) == SL_LSE_ONLINE && (acc_bytes) == 4 ? SL_LSE_TILE_VALUES / (W) : SL_LSE_UNROLL)

#if defined(__CUDACC__)
#define SL_LSE_FN static __host__ __device__ __forceinline__
#else
#define SL_LSE_FN static inline
#endif

/* v rounded once to float16 (bf = 0) or bfloat16 (bf = 1), nearest even, as a float (half-acc):
 * the device's __float2half_rn / __float2bfloat16_rn, the host's sl_half_round (the same value) */
SL_LSE_FN float sl_lse_r16(float v, int bf)
{
#if defined(__CUDA_ARCH__)
    return bf ? __bfloat162float(__float2bfloat16_rn(v)) : __half2float(__float2half_rn(v));
#else
    return (float)sl_half_round((double)v, bf ? SL_BF16 : SL_F16);
#endif
}
#define SL_LSE_IS_HALF(kind) ((kind) == SL_LSE_NAIVE_F16 || (kind) == SL_LSE_NAIVE_BF16)
/* the kinds whose state carries a compensation c (TwoSum of the exponentials) */
#define SL_LSE_IS_COMP(kind) ((kind) == SL_LSE_COMPENSATED || (kind) == SL_LSE_ACCURATE)

/* max(a, b), NaN if either is NaN (the device's max.NaN.f32, one FMNMX.NAN); a zero's sign may
 * differ between the two sides, which no result sees (x - (+-0) and +-0 + log(s) agree) */
SL_LSE_FN float sl_lse_maxnan_f(float a, float b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return (a != a || b != b) ? a + b : (b > a ? b : a);
#endif
}
/* the same in float64 (the twins' states; no max.NaN.f64 instruction: compares and a select) */
SL_LSE_FN double sl_lse_maxnan_d(double a, double b) { return (a != a || b != b) ? a + b : (b > a ? b : a); }

typedef struct { float m, s, c; } sl_lse_sf;
typedef struct { double m, s, c; } sl_lse_sd;

/* ---- accurate's first pass (float32 and 16-bit input) -------------------------------------
 * Per value x (float32, exact): m = max(m, x) (NaN if any is NaN), s = s + the term of x in
 * float64; states merge by the maximum and s + s'. The term is exp(x) unshifted: float32 input
 * (SL_LSE_ACCF): lse_math.h's float64 table exponential of max(x, -700) (relative error below
 * SL_LM_EXP_T64_ERR = 2^-44); 16-bit input (SL_LSE_ACCF16), whose result needs 11 bits at most:
 * lse_math.h's 16-bit exponential sl_lm_expf16 (relative error below 2^-17, 9 instructions
 * against 12 for reproducible's float32 term: sl_lse_accf16_term). The sum of the unshifted
 * exponentials fits float64 for a maximum in the window of the format ([-600, 670]; 16-bit:
 * [-30, 88]) and n < 2^40 (no term clamped above: values beyond it leave terms no result uses).
 * The result is decided (sl_lse_accf_decide) when the interval log(s) +- E, E the rigorous error
 * bound, rounds to one value of the output format: that value is the correctly rounded lse.
 * Otherwise (a maximum outside the window, NaN, Inf, an lse too close to a rounding boundary or
 * to 0) the one-pass accurate state above runs as a second kernel. */
/* ---- reproducible's one pass (float32 and 16-bit input) -----------------------------------
 * The term of x is exp(x) itself, unshifted: lse_math.h's sl_lm_expf_core of max(x, -86.5), a
 * float32 (sl_lse_rep1_termf; 16-bit input: sl_lm_expf16; both: sl_lse_rep1_termx); S is the exact
 * sum of the terms rounded once to float64 (the kernels: two float64 register folds for the
 * terms of 16-bit vectors whose values lie in [-16, 16] (lse_fold.cuh), exact/bins.cuh's
 * exponent bins for the rest, both drained into float32 limbs; the twin: exact/limbs.h's float32
 * limb state; both rounded by exact/limbs.h's sl_sacc_round_f32_as_f64_regs); the maximum M (NaN
 * if any value is) beside it. Each term is a function of x alone and their exact sum a function
 * of their multiset, so the result log(S) is order-independent; so is the test of M that picks
 * it: for M in [SL_LSE_REP1_MLO, SL_LSE_REP1_MHI] (no term clamped above; those clamped below,
 * at most n 2^-124.8, are below n 2^-81 of S >= exp(M) in sum) the result is log(S), otherwise
 * the two kernels of the shifted form run (sl_lse_rep_term). */
#define SL_LSE_REP1_MLO (-30.0f)
#define SL_LSE_REP1_MHI 88.0f
/* x above 88 (M outside the window) gives a term no result uses: no clamp above */
SL_LSE_FN float sl_lse_rep1_termf(float x) { return sl_lm_expf_core(sl_lm_maxf(x, -86.5f)); }
/* the term of x from 16-bit input (h16) or float32 input: lse_math.h's sl_lm_expf16 (within
 * 2^-17; it clamps below itself) or sl_lse_rep1_termf */
SL_LSE_FN float sl_lse_rep1_termx(float x, int h16) { return h16 ? sl_lm_expf16(x) : sl_lse_rep1_termf(x); }
/* the same term for x in [-86.5, 88] without the clamp (the kernel's register folds, |x| <= 16) */
SL_LSE_FN float sl_lse_rep1_termx_in(float x, int h16) { return h16 ? sl_lm_expf16_core(x) : sl_lm_expf_core(x); }
/* The one pass's register folds (lse_fold.cuh, for 16-bit input): the terms of values x with |x| <=
 * SL_LSE_REP1_FOLD_X (terms in [2^-23.1, 2^23.1]: multiples of 2^-47 below 2^24) go to two float64
 * folds. f1 starts at C = 1.5 2^42 and stays in [2^42, 2^43) (ulp 2^-10) for SL_LSE_REP1_FOLD_MAX
 * terms: s = f1 + t rounds t to a multiple of 2^-10, s - f1 is exact; f2 sums the remainders t -
 * (s - f1), exact multiples of 2^-47 of at most 2^-11 (|f2| <= 2^13 2^-11: 51 bits). Both sums are
 * exact, so the integers h = (f1 - C) 2^10 and l = f2 2^47 (sl_lse_rep1_fold_units) give the terms'
 * exact sum h 2^-10 + l 2^-47. */
#define SL_LSE_REP1_FOLD_X 16.0f
#define SL_LSE_REP1_FOLD_C 0x1.8p42
#define SL_LSE_REP1_FOLD_MAX 8193u   /* terms between drains the bounds above allow */
SL_LSE_FN int sl_lse_rep1_fold_in(float x) { return fabsf(x) <= SL_LSE_REP1_FOLD_X; }   /* NaN: 0 */
SL_LSE_FN void sl_lse_rep1_fold(double *f1, double *f2, double t)
{
    const double s = *f1 + t;
    *f2 = *f2 + (t - (s - *f1));
    *f1 = s;
}
SL_LSE_FN void sl_lse_rep1_fold_units(double f1, double f2, int64_t *h, int64_t *l)
{
    *h = (int64_t)((f1 - SL_LSE_REP1_FOLD_C) * 0x1p10);   /* integers: the casts are exact */
    *l = (int64_t)(f2 * 0x1p47);
}
SL_LSE_FN int sl_lse_rep1_ok(double M) { return M >= (double)SL_LSE_REP1_MLO && M <= (double)SL_LSE_REP1_MHI; }
#define SL_LSE_ACCF_MLO (-600.0)
#define SL_LSE_ACCF_MHI 670.0
/* float32 input's term: max(x, -700) keeps sl_lm_exp_t64's exponent field in range */
SL_LSE_FN double sl_lse_accf_term(float x, const double *tab)
{
    return sl_lm_exp_t64((double)sl_lm_maxf(x, -700.0f), tab);
}
/* the term of a 16-bit input's value (clamped below at -86.5 as reproducible's) */
SL_LSE_FN double sl_lse_accf16_term(float x) { return (double)sl_lm_expf16(x); }
/* SUMLAB_LSE_ACCF_TILE's tile sum: the terms of v[0..cnt) (cnt >= 1) added in float32, in order */
SL_LSE_FN float sl_lse_accf16_tile(const float *v, int cnt)
{
    float t = sl_lm_expf16(v[0]);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 1; i < cnt; i++) t = t + sl_lm_expf16(v[i]);
    return t;
}
/* the twins' step (host only: the kernel runs its own loop with the table in shared memory) */
SL_LSE_FN void sl_lse_accf_add_host_f(sl_lse_sf *a, float x, int kind) { (void)a; (void)x; (void)kind; }
SL_LSE_FN void sl_lse_accf_add_host_d(sl_lse_sd *a, double x, int kind)
{
#if !defined(__CUDA_ARCH__)
    a->m = sl_lse_maxnan_d(a->m, x);
    a->s = a->s + (kind == SL_LSE_ACCF ? sl_lse_accf_term((float)x, sl_lm_t64) : sl_lse_accf16_term((float)x));
#else
    (void)a; (void)x; (void)kind;
#endif
}
/* v rounded once to dt (SL_F32, SL_F16, SL_BF16), as a double: the device's __double2float_rn,
 * __double2half, __double2bfloat16, the host's conversion and sl_half_round */
SL_LSE_FN double sl_lse_round_dt(double v, int dt)
{
#if defined(__CUDA_ARCH__)
    return dt == SL_F32 ? (double)__double2float_rn(v)
         : dt == SL_F16 ? (double)__half2float(__double2half(v))
                        : (double)__bfloat162float(__double2bfloat16(v));
#else
    return dt == SL_F32 ? (double)(float)v : sl_half_round(v, (sl_dtype)dt);
#endif
}
/* The decision: 1 and *out = lse correctly rounded to dt when the first pass's state (m, s) over
 * n values with addition chains of at most `depth` decides it. theta bounds |s~/s - 1|: each
 * term within its relative error (float32 input: SL_LM_EXP_T64_ERR; 16-bit: th16, 2^-17 and the
 * tile sums' SL_LSE_ACCF16_TILE_ERR under SUMLAB_LSE_ACCF_TILE), the clamped
 * ones (float32: x < -700, off by at most exp(-700) = 2^-1009.9 each, against s >= exp(m) >=
 * 2^-865.6: n 2^-144; 16-bit: x < -86.5, at most 2^-124.8 each against exp(-30) = 2^-43.3:
 * n 2^-81), the sum within depth 2^-53 (positive terms, float64); then |log(s~) - log(s)| <=
 * 1.01 theta, sl_lm_log within 2^-50 |L| (tests/tlse_math.c: 2 ulps) and the interval's two
 * roundings within the further 2^-50 |L|. */
SL_LSE_FN int sl_lse_accf_decide_th(double m, double s, double n, double depth, int dt, double th16,
                                     double *out)
{
    const int f32 = dt == SL_F32;
    const double mlo = f32 ? SL_LSE_ACCF_MLO : (double)SL_LSE_REP1_MLO;
    const double mhi = f32 ? SL_LSE_ACCF_MHI : (double)SL_LSE_REP1_MHI;
    if (!(m >= mlo && m <= mhi) || !(s > 0.0 && s <= 0x1.fffffffffffffp+1023)) return 0;
    const double L = sl_lm_log(s);
    const double th = (f32 ? SL_LM_EXP_T64_ERR + n * 0x1p-144 : th16 + n * 0x1p-81) +
                      depth * 0x1.01p-53;
    const double E = th * 1.01 + (L < 0.0 ? -L : L) * 0x1p-49 + 0x1p-1060;
    const double a = sl_lse_round_dt(L - E, dt), b = sl_lse_round_dt(L + E, dt);
    if (sl_lm_d2u(a) != sl_lm_d2u(b)) return 0;
    *out = a;
    return 1;
}
/* the build's decision (th16: SL_LSE_ACCF16_TH) */
SL_LSE_FN int sl_lse_accf_decide(double m, double s, double n, double depth, int dt, double *out)
{
    return sl_lse_accf_decide_th(m, s, n, depth, dt, SL_LSE_ACCF16_TH, out);
}

/* ---- accurate's state (float64 input, and the kernel behind the first pass) -----------------
 * (m, s, c): the sum of exp(x_i - m) is s + c, a pair kept to about 2^-74 relative (c collects
 * every rounding error: the TwoSum of each addition, the low part of each term, the TwoProduct
 * of each rescale). The term of x against m is lse_math.h's double-double sl_lm_exp_dd of the
 * exact difference x - m (TwoSum: dh + dl), relative error below SL_LM_EXP_DD_ERR; x == m gives
 * 1 exactly. A larger x rescales the pair by the pair exp(m - x), as the merge rescales the
 * smaller maximum's pair. Final: S = s + c (TwoSum), y0 = sl_lm_log(S) (2 ulps), one Newton step
 * L = y0 + z - z^2 / 2, z = S exp(-y0) - 1 (exp(-y0) by sl_lm_exp_dd, S exp(-y0) a TwoProduct,
 * z within 2^-47), and m + L as a pair rounded once. |result - lse| before that rounding is
 * within (depth + 2) SL_LM_EXP_DD_ERR + depth^2 2^-104 + n 2^-1021 + 2^-100 (1 + |lse|), times
 * 1.01 (absolute: the log turns a relative error of S into an absolute one; experiments/measure/
 * ops.c's bound for accurate), so the float64 result is correctly rounded unless lse lies that
 * close to a rounding boundary, and within 1 ulp where that is below half an ulp of lse (|lse|
 * >= 2^-15 for chains of up to 2^6 steps, 2^-10 for 2^11); tlse_acc: correctly rounded on every
 * case with |lse| >= 2^-18, within 2^-70 near 0 (m + L cancelling). Special states as the other kinds': m infinite or NaN, or S not positive and
 * finite, give m + log(s + c). */
SL_LSE_FN void sl_lse_acc_rescale(sl_lse_sd *a, double fh, double fl)
{
    double pe;
    const double p = sl_lm_two_prod(a->s, fh, &pe);
    a->c = sl_lm_fma(a->c, fh, sl_lm_fma(a->s, fl, pe));
    a->s = p;
}
/* exp(p - q) as a pair (p - q <= 1; NaN: sl_lm_exp_dd's). p = -Inf (a -Inf input, or the maximum
 * of a state holding only -Inf inputs) gives 0 exactly: a -Inf input is ignored, where
 * sl_lm_exp_dd's floor exp(-708) added 2^-1021.4 for each (the lse of {0, -Inf} was not 0). */
SL_LSE_FN double sl_lse_acc_exp(double p, double q, double *lo)
{
    double dl, el;
    const double dh = sl_lm_two_sum(p, -q, &dl);
    const double eh = sl_lm_exp_dd(dh, dl, &el);
    const int masked = p < -0x1.fffffffffffffp+1023;
    *lo = masked ? 0.0 : el;
    return masked ? 0.0 : eh;
}
SL_LSE_FN void sl_lse_acc_add_d(sl_lse_sd *a, double x)
{
    /* one exp either way (no divergent second exp in a warp) */
    const int up = x > a->m;
    double el;
    const double eh = sl_lse_acc_exp(up ? a->m : x, up ? x : a->m, &el);
    double th = x == a->m ? 1.0 : eh, tl = x == a->m ? 0.0 : el;
    if (up) {
        sl_lse_acc_rescale(a, eh, el);
        a->m = x;
        th = 1.0;
        tl = 0.0;
    }
    double e;
    a->s = sl_lm_two_sum(a->s, th, &e);
    a->c = a->c + (e + tl);
}
SL_LSE_FN sl_lse_sd sl_lse_acc_merge_d(sl_lse_sd a, sl_lse_sd b)
{
    if (b.m > a.m) { const sl_lse_sd t_ = a; a = b; b = t_; }
    double fl = 0.0;
    const double fh = a.m == b.m ? 1.0 : sl_lse_acc_exp(b.m, a.m, &fl);
    sl_lse_acc_rescale(&b, fh, fl);
    double e;
    a.s = sl_lm_two_sum(a.s, b.s, &e);
    a.c = e + (a.c + b.c);
    return a;
}
SL_LSE_FN double sl_lse_acc_final_d(sl_lse_sd a)
{
    double sl;
    const double sh = sl_lm_two_sum(a.s, a.c, &sl);
    const double y0 = sl_lm_log(sh);
    if (!(a.m - a.m == 0.0) || !(y0 - y0 == 0.0) || !(sh > 0.0)) return a.m + y0;
    double el, pe;
    const double eh = sl_lm_exp_dd(-y0, 0.0, &el);
    const double p = sl_lm_two_prod(sh, eh, &pe);
    const double z = (p - 1.0) + (pe + sl_lm_fma(sh, el, sl * eh)); /* p - 1 exact: p ~ 1 */
    double lt, rt;
    const double lh = sl_lm_two_sum(y0, z - 0.5 * z * z, &lt);
    const double rh = sl_lm_two_sum(a.m, lh, &rt);
    return rh + (rt + lt);
}
/* the float32 state never takes accurate's kind (lse.c, lse.cu: a float64 state): stubs for
 * SL_LSE_STATE_FNS's float instance */
SL_LSE_FN void sl_lse_acc_add_f(sl_lse_sf *a, float x) { (void)a; (void)x; }
SL_LSE_FN sl_lse_sf sl_lse_acc_merge_f(sl_lse_sf a, sl_lse_sf b) { (void)b; return a; }
SL_LSE_FN float sl_lse_acc_final_f(sl_lse_sf a) { return a.m; }

/* SL_LSE_STATE_FNS(suffix, T, EXP, LOG): the functions on a state of T (float: expf/logf of
 * lse_math.h; double: exp/log). kind is a constant at every call, so the branches fold. */
#define SL_LSE_STATE_FNS(sfx, ST, T, EXP, LOG)                                               \
    SL_LSE_FN ST sl_lse_init_##sfx(T m)                                                      \
    {                                                                                        \
        ST r;                                                                                \
        r.m = m; r.s = (T)0; r.c = (T)0;                                                     \
        return r;                                                                            \
    }                                                                                        \
    SL_LSE_FN void sl_lse_tsum_##sfx(ST *a, T t)                                             \
    {                                                                                        \
        const T S = a->s + t;                                                                \
        const T bp = S - a->s;                                                               \
        const T err = (a->s - (S - bp)) + (t - bp);                                          \
        a->c = a->c + err;                                                                   \
        a->s = S;                                                                            \
    }                                                                                        \
    SL_LSE_FN void sl_lse_add_##sfx(ST *a, T x, int kind)                                    \
    {                                                                                        \
        if (kind == SL_LSE_ACCF || kind == SL_LSE_ACCF16) {                                  \
            sl_lse_accf_add_host_##sfx(a, x, kind);                                          \
            return;                                                                          \
        }                                                                                    \
        if (kind == SL_LSE_ACCURATE) { sl_lse_acc_add_##sfx(a, x); return; }                 \
        if (kind == SL_LSE_NAIVE) { a->s = a->s + EXP(x); return; }                          \
        if (SL_LSE_IS_HALF(kind)) {                                                          \
            const int bf_ = kind == SL_LSE_NAIVE_BF16;                                       \
            a->s = (T)sl_lse_r16((float)(a->s + (T)sl_lse_r16((float)EXP(x), bf_)), bf_);    \
            return;                                                                          \
        }                                                                                    \
        /* one exp either way (no divergent second exp in a warp) */                         \
        const int up = kind != SL_LSE_TWO_PASS && x > a->m;                                  \
        const T e = EXP(up ? a->m - x : x - a->m);                  \
        T t = x == a->m ? (T)1 : e;                                                          \
        if (up) {                                                                            \
            a->s = a->s * e;                                                                 \
            if (SL_LSE_IS_COMP(kind)) a->c = a->c * e;                                       \
            a->m = x;                                                                        \
            t = (T)1;                                                                        \
        }                                                                                    \
        if (SL_LSE_IS_COMP(kind)) sl_lse_tsum_##sfx(a, t);                                   \
        else a->s = a->s + t;                                                                \
    }                                                                                        \
    SL_LSE_FN ST sl_lse_merge_##sfx(ST a, ST b, int kind)                                    \
    {                                                                                        \
        if (kind == SL_LSE_ACCF || kind == SL_LSE_ACCF16) {                                  \
            a.m = sl_lse_maxnan_##sfx(a.m, b.m);                                             \
            a.s = a.s + b.s;                                                                 \
            return a;                                                                        \
        }                                                                                    \
        if (kind == SL_LSE_ACCURATE) return sl_lse_acc_merge_##sfx(a, b);                     \
        if (b.m > a.m) { const ST t_ = a; a = b; b = t_; }                                   \
        const T f = a.m == b.m ? (T)1 : EXP(b.m - a.m);                  \
        if (SL_LSE_IS_COMP(kind)) {                                                          \
            const T bs = b.s * f, bc = b.c * f;                                              \
            const T S = a.s + bs;                                                            \
            const T bp = S - a.s;                                                            \
            const T err = (a.s - (S - bp)) + (bs - bp);                                      \
            const T ee = a.c + bc;                                                           \
            a.s = S;                                                                         \
            a.c = err + ee;                                                                  \
        } else {                                                                             \
            a.s = a.s + b.s * f;                                                             \
            if (SL_LSE_IS_HALF(kind)) a.s = (T)sl_lse_r16((float)a.s, kind == SL_LSE_NAIVE_BF16); \
        }                                                                                    \
        return a;                                                                            \
    }                                                                                        \
    SL_LSE_FN T sl_lse_final_##sfx(ST a, int kind)                                           \
    {                                                                                        \
        if (kind == SL_LSE_ACCURATE) return sl_lse_acc_final_##sfx(a);                        \
        const T s = SL_LSE_IS_COMP(kind) ? a.s + a.c : a.s;                                  \
        if (kind == SL_LSE_NAIVE || SL_LSE_IS_HALF(kind)) return LOG(s);                     \
        return a.m + LOG(s);                                                                 \
    }

SL_LSE_STATE_FNS(f, sl_lse_sf, float, sl_lm_expf, sl_lm_logf)
SL_LSE_STATE_FNS(d, sl_lse_sd, double, sl_lm_exp, sl_lm_log)


/* A tile: the values v[0..cnt) one thread takes together (lse.c's order: SL_LSE_UNROLL vectors,
 * or one vector, or one edge value), in order. Every kind but online adds them one by one (the
 * rules above). online (float32 state), by tile: the tile's maximum mt (NaN if any is NaN);
 * mt NaN or infinite: one by one (the rules above); else mt > m: s = s exp(m - mt), m = mt (one
 * rescale per tile, sl_lm_expf), then s = s + expt(x - m) for each value in order, expt
 * lse_math.h's sl_lm_expf_tile, or sl_lm_expf16 when the input is 16-bit (h16: the result is
 * 16-bit too, and the exp's 2^-17 is 2^-6 of its half ulp or less) (exp(0) = 1 exactly, -Inf
 * masks give their floor 2^-124.8). */
/* online's tile step given the tile's maximum mt (NaN if any value is NaN; the kernel may find it
 * its own way, e.g. on packed bfloat16 pairs: a maximum is one of the values, so any way gives
 * the same mt up to a zero's sign and a NaN's bits, which no result sees) */
SL_LSE_FN void sl_lse_add_tile_m_f(sl_lse_sf *a, const float *v, int cnt, float mt, int h16)
{
    const int kind = SL_LSE_ONLINE;
    if (!(mt - mt == 0.0f)) {
        for (int i = 0; i < cnt; i++) sl_lse_add_f(a, v[i], kind);
        return;
    }
    if (mt > a->m) {
        a->s = a->s * sl_lm_expf(a->m - mt);
        a->m = mt;
    }
    const float m = a->m;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < cnt; i++) a->s = a->s + (h16 ? sl_lm_expf16(v[i] - m) : sl_lm_expf_tile(v[i] - m));
}
SL_LSE_FN void sl_lse_add_tile_f(sl_lse_sf *a, const float *v, int cnt, int kind, int h16)
{
    if (kind != SL_LSE_ONLINE) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int i = 0; i < cnt; i++) sl_lse_add_f(a, v[i], kind);
        return;
    }
    float mt = v[0];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 1; i < cnt; i++) mt = sl_lse_maxnan_f(mt, v[i]);
    sl_lse_add_tile_m_f(a, v, cnt, mt, h16);
}
/* float64 state: one by one */
SL_LSE_FN void sl_lse_add_tile_d(sl_lse_sd *a, const double *v, int cnt, int kind, int h16)
{
    (void)h16;
#if SUMLAB_LSE_ACCF_TILE && !defined(__CUDA_ARCH__)
    if (kind == SL_LSE_ACCF16) { /* the kernel's tile: its maximum, its terms' float32 sum */
        float t[SL_LSE_UNROLL * 8];
        for (int i = 0; i < cnt; i++) {
            a->m = sl_lse_maxnan_d(a->m, v[i]);
            t[i] = (float)v[i];
        }
        a->s = a->s + (double)sl_lse_accf16_tile(t, cnt);
        return;
    }
#endif
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < cnt; i++) sl_lse_add_d(a, v[i], kind);
}

/* reproducible: the term of x against the exact maximum M, as the float64 the binned state takes
 * (exact/binned.h): float32 and 16-bit input (widened exactly) by lse_math.h's float32 exp of
 * x - M (rounded once in float32), widened exactly; float64 input by the float64 exp. x == M
 * gives 1: with M = +Inf the +Inf inputs count 1 and the others 0; with M = -Inf (every value
 * -Inf) each counts 1. The term depends on x and M alone, so the binned sum of the terms is a
 * function of the multiset of inputs. */
SL_LSE_FN double sl_lse_rep_term_f(float x, float M) { return x == M ? 1.0 : (double)sl_lm_expf(x - M); }
SL_LSE_FN double sl_lse_rep_term_d(double x, double M) { return x == M ? 1.0 : sl_lm_exp(x - M); }
/* reproducible's result in float64: M + log(S), S the binned sum rounded once to float64 (M =
 * -Inf: -Inf; M = +Inf: +Inf; a NaN input makes S NaN) */
SL_LSE_FN double sl_lse_rep_final(double M, double S) { return M + sl_lm_log(S); }

/* The maximum of the two-pass variant's first pass: NaN ignored (its second pass makes the sum
 * NaN), -Inf for no value; exact and independent of the order. Functions, so that each argument
 * is evaluated once (a macro that read b twice ran a lane-divergent second shuffle when b was
 * one); SL_LSE_MAX picks the format: overloads in C++, _Generic in C. */
SL_LSE_FN float sl_lse_max_f(float a, float b) { return b > a ? b : a; }
SL_LSE_FN double sl_lse_max_d(double a, double b) { return b > a ? b : a; }
#ifdef __cplusplus
SL_LSE_FN float sl_lse_max(float a, float b) { return sl_lse_max_f(a, b); }
SL_LSE_FN double sl_lse_max(double a, double b) { return sl_lse_max_d(a, b); }
#define SL_LSE_MAX(a, b) sl_lse_max(a, b)
#else
#define SL_LSE_MAX(a, b) _Generic((a), float: sl_lse_max_f, default: sl_lse_max_d)(a, b)
#endif

#endif

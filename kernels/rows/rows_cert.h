/* rows/rows_cert.h: the cheap certified first pass of `superacc` rows (float32, float16 and
 * bfloat16 input), host and device: the row's values widened exactly to float64 and summed
 * plainly (s) beside the sum of their magnitudes (a), a rigorous error box around s, and a
 * float64 test of the box: when both its ends round to the same finite nonzero value of the
 * format, that value is the row's exact sum rounded once (superacc's result); otherwise the row
 * is summed exactly (rows.cu's exact row kernel on the listed rows).
 *
 * Box (u = 2^-53, gamma_k = k u / (1 - k u)): the values x_i are exact in float64 and multiples of
 * 2^-149; s and a are float64 sums of them in any order in which no value goes through more than
 * h roundings (its thread's chain, the tree levels above it):
 *  - additions round to nearest and have no underflow error (a sum of multiples of 2^-149 that
 *    is subnormal is exact), so s = sum x_i prod (1 + d_k), |d_k| <= u, at most h factors each:
 *    |s - S| <= gamma_h A, S = sum x_i, A = sum |x_i| (Higham, Accuracy and Stability, Lemma 3.1).
 *  - a = sum |x_i| prod (1 + d'_k) >= A (1 - u)^h, so A <= a / (1 - h u) <= a (1 + 2^-12) for
 *    h u <= 2^-13 (h < 2^39 below); and gamma_h <= h u (1 + 2^-12). So
 *    |s - S| <= h u (1 + 2^-12)^2 a < 1.0005 h u a.
 *  - E = fl(fl(fl((h + 1) u) 1.001) a): the double nearest 1.001 is at least 1.001 (1 - u) and
 *    (h + 1) u is exact, so E >= 1.001 (1 - u)^3 (h + 1) u a > 1.0009 h u a: |s - S| <= E.
 *  - lo = the double below fl(s - E), hi = the double above fl(s + E): a sum rounded to nearest
 *    lies within half an ulp of the exact one, so lo <= s - E <= S <= s + E <= hi.
 *  - rounding to nearest even in the format (overflow to Inf) is monotone: r(lo) = r(hi) = c
 *    gives r(S) = c. A tie S between two values of the format always lies strictly inside
 *    [lo, hi] (E > 0), so such a row is never decided here.
 * Not decided: a = 0 (every value is a zero: the sign of the zero sum is the exact kernel's), a
 * non-finite s or a (a NaN or Inf value), c zero (an exact zero sum may be -0) or infinite (the
 * exact kernel's overflow), h >= 2^39. With n < 2^40 values below 2^128: |s|, a < 2^168.
 * Assumptions: IEEE 754 binary64 and binary32, round to nearest even, gradual underflow, no
 * contraction (-ffp-contract=off, --fmad=false). */
#ifndef SL_ROWS_CERT_H
#define SL_ROWS_CERT_H
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sl_variants.h"
#include "exact/limbs.h"

#ifdef __CUDACC__
#define SL_RCS_HD static __host__ __device__ __forceinline__
#else
#define SL_RCS_HD static inline
#endif


/* The finite double v rounded once to nearest even in dt (float32, float16 or bfloat16;
 * subnormal results; beyond the format's largest value by half an ulp or more: +-Inf), as a
 * double. float32: the conversion. 16-bit: v's quantum in the format is 2^q, q = max(e, emin) -
 * (p - 1) with e = floor(log2 |v|) (v's biased exponent; a subnormal double counts as below
 * emin): v 2^-q is exact (|v 2^-q| < 2^p), rint rounds it to nearest even, and the integer
 * times 2^q is exact (a carry to 2^p is the next binade's first value). */
SL_RCS_HD double sl_rcs_round(double v, sl_dtype dt)
{
    if (dt == SL_F32) return (double)(float)v;
    const int p = dt == SL_F16 ? 11 : 8, emin = dt == SL_F16 ? -14 : -126;
    const double max = dt == SL_F16 ? 65504.0 : 0x1.fep127;
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    int e = (int)((u >> 52) & 0x7ffu) - 1023;
    if (e < emin) e = emin;
    const int q = e - (p - 1);                       /* in [-133, 1016] */
    const double r = rint(v * sl_pow2_f64(-q)) * sl_pow2_f64(q);
    return fabs(r) > max ? copysign(INFINITY, v) : r;
}

/* The decision on a row's sums s (of the values) and a (of their magnitudes), chain length h:
 * 1 with *r the row's correctly rounded sum in dt (a finite nonzero value, as a double), else 0
 * (the exact kernel sums the row). */
SL_RCS_HD int sl_rcs_decide(double s, double a, uint64_t h, sl_dtype dt, double *r)
{
    if (!(a > 0.0) || !(a < HUGE_VAL) || !(fabs(s) < HUGE_VAL) || h >= ((uint64_t)1 << 39)) return 0;
    const double E = (double)(h + 1) * 0x1p-53 * 1.001 * a;
    const double lo = nextafter(s - E, -HUGE_VAL), hi = nextafter(s + E, HUGE_VAL);
    const double rl = sl_rcs_round(lo, dt), rh = sl_rcs_round(hi, dt);
    if (rl != rh || rl == 0.0 || !(fabs(rl) < HUGE_VAL)) return 0;
    *r = rl;
    return 1;
}

/* The chain length of the row kernels' sums (rows.cu): T threads a row, W values a 16-byte
 * vector, nv vectors: each thread adds at most one edge value and W ceil(nv / T) vector values
 * into its sums, then at most 5 warp and 3 block levels: h = W (nv / T + 1) + 16 bounds it. */
SL_RCS_HD uint64_t sl_rcs_chain(uint64_t nv, unsigned T, unsigned W)
{
    return (uint64_t)W * (nv / T + 1u) + 16u;
}

#ifndef __CUDACC__
#include "sl_twin.h"
/* The host form on x[0..n) (float32, float16 or bfloat16): chunks of SL_RCS_CHUNK values summed
 * from 0, their sums added in order (h = chunk + chunks + 1); 1 with *r the correctly rounded
 * sum when the box decides, else 0. The tests' model of the kernels' decision (another order,
 * the same argument). */
#define SL_RCS_CHUNK 4096u
static inline int sl_rcs_certify_host(const void *x, uint64_t n, sl_dtype dt, double *r)
{
    double s = 0.0, a = 0.0;
    for (uint64_t i = 0; i < n; i += SL_RCS_CHUNK) {
        const uint64_t e = n - i < SL_RCS_CHUNK ? n : i + SL_RCS_CHUNK;
        double cs = 0.0, ca = 0.0;
        for (uint64_t k = i; k < e; k++) {
            const double v = sl_tw_load(x, dt, k);
            cs = cs + v;
            ca = ca + fabs(v);
        }
        s = s + cs;
        a = a + ca;
    }
    const uint64_t h = SL_RCS_CHUNK + (n + SL_RCS_CHUNK - 1) / SL_RCS_CHUNK + 1;
    return sl_rcs_decide(s, a, h, dt, r);
}

/* v[0..32) after a shuffle-down tree of offsets first, first / 2, .., 1 (a lane whose source
 * lane l + off is outside the warp reads its own value, as __shfl_down_sync). */
static inline void sl_rcs_tree_host(double *v, unsigned first)
{
    for (unsigned off = first; off > 0; off >>= 1) {
        double nv[32];
        for (unsigned l = 0; l < 32; l++) nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
        memcpy(v, nv, sizeof nv);
    }
}

/* The row kernel's sums and decision on one row (rows.cu's sac_rows_kernel: the same additions
 * in the same order, so the same doubles): T threads (32, or 256: a block of 8 warps), the
 * row's address modulo 16 addr16 (its head of scalars before the first 16-byte boundary).
 * Thread t: its edge value (t < the head and tail's count), then the values of its vectors t,
 * t + T, .. in order, into s and a; each warp's lane 0 after the shuffle tree (offsets 16 .. 1);
 * T = 256: warp 0 over the 8 warps' sums (offsets 4, 2, 1). 1 with *r when the kernel decides the
 * row, else 0 (the kernel lists it); *chain: the longest chain of additions a value went
 * through (<= sl_rcs_chain's h). */
static inline int sl_rcs_model_row(const void *x, uint64_t n, sl_dtype dt, unsigned T, unsigned addr16,
                                   double *r, uint64_t *chain)
{
    const size_t es = sl_dtype_size(dt);
    const uint64_t W = 16u / es;
    uint64_t head = ((16u - (addr16 & 15u)) & 15u) / es;
    if (head > n) head = n;
    const uint64_t nv = (n - head) / W, tail0 = head + nv * W, nedge = head + (n - tail0);
    double s[256], a[256], ws[32], wa[32];
    uint64_t most = 0;
    for (unsigned t = 0; t < T && t < 256u; t++) {
        uint64_t c = 0;
        s[t] = a[t] = 0.0;
        if (t < nedge) {
            const double v = sl_tw_load(x, dt, t < head ? t : tail0 + (t - head));
            s[t] = s[t] + v;
            a[t] = a[t] + fabs(v);
            c++;
        }
        for (uint64_t j = t; j < nv; j += T)
            for (uint64_t k = 0; k < W; k++, c++) {
                const double v = sl_tw_load(x, dt, head + j * W + k);
                s[t] = s[t] + v;
                a[t] = a[t] + fabs(v);
            }
        if (c > most) most = c;
    }
    for (unsigned w = 0; w < 32; w++) ws[w] = wa[w] = 0.0;
    for (unsigned w = 0; w < T / 32u; w++) {
        sl_rcs_tree_host(s + 32u * w, 16u);
        sl_rcs_tree_host(a + 32u * w, 16u);
        ws[w] = s[32u * w];
        wa[w] = a[32u * w];
    }
    most += 5u;
    if (T > 32u) {
        sl_rcs_tree_host(ws, T / 64u);
        sl_rcs_tree_host(wa, T / 64u);
        most += 3u;
    }
    *chain = most;
    return sl_rcs_decide(ws[0], wa[0], sl_rcs_chain(nv, T, (unsigned)W), dt, r);
}
#endif
#endif

/* dot/dot_fast.h: the cheap certified first pass of the `correct` dot product (exact/pairsum.h
 * on the products x y): its host form, the twin's decision. The device side is dot.cu's
 * dtf_kernel. */
#ifndef SL_DOT_FAST_H
#define SL_DOT_FAST_H
#include "exact/pairsum.h"

#ifndef __CUDACC__
#include "sl_twin.h"
/* The twin's form on x, y [0..n): chunks of SL_DTF_CHUNK summed from 0, merged in order
 * (h = chunk + chunks + 1); the decision as the kernel's. */
#define SL_DTF_CHUNK 4096u
static inline uint64_t sl_dtf_sums_host(const void *x, const void *y, uint64_t n, sl_dtype dt,
                                        sl_psum_acc *out)
{
    sl_psum_acc tot, part;
    sl_psum_init(&tot);
    for (uint64_t i = 0; i < n; i += SL_DTF_CHUNK) {
        const uint64_t e = n - i < SL_DTF_CHUNK ? n : i + SL_DTF_CHUNK;
        sl_psum_init(&part);
        for (uint64_t k = i; k < e; k++) {
            const double a = sl_tw_load(x, dt, k), b = sl_tw_load(y, dt, k), p = a * b;
            sl_psum_take(&part, p, dt == SL_F64 ? fma(a, b, -p) : 0.0);
        }
        sl_psum_merge(&tot, &part);
    }
    *out = tot;
    return SL_DTF_CHUNK + (n + SL_DTF_CHUNK - 1) / SL_DTF_CHUNK + 1;
}
static inline int sl_dtf_certify_host(const void *x, const void *y, uint64_t n, sl_dtype dt,
                                      double *r)
{
    if (n == 0) return 0;
    sl_psum_acc t;
    double E;
    const uint64_t h = sl_dtf_sums_host(x, y, n, dt, &t);
    if (!sl_psum_bound(&t, n, h, &E)) return 0;
    double lo = sl_psum_end(&t, E, -1, dt == SL_F64), hi = sl_psum_end(&t, E, 1, dt == SL_F64);
    if (dt != SL_F64) {
        lo = sl_tw_round(lo, dt);
        hi = sl_tw_round(hi, dt);
    }
    return sl_psum_decide(lo, hi, r);
}
#endif
#endif

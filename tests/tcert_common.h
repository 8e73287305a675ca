/* tcert_common.h: the host's prediction of the certified binned step of `correct` dot
 * (kernels/exact/certified.cuh): the same pieces into the same 4-fold float64 binned state
 * (exact/binned.h; the state is order-independent, so the kernel's grouped, grid-wide
 * accumulation reaches this one), the same two ends and the same agreement test. 1 when the
 * certificate decides (the exact kernel then does nothing), 0 when the fallback runs.
 * tdot_cert_gpu counts both, to show which path produced each result. */
#ifndef TCERT_COMMON_H
#define TCERT_COMMON_H
#include <math.h>
#include <string.h>
#include "sumlab/half.h"
#include "exact/limbs.h"
#include "exact/binned.h"

/* lost (float64): the bound stays at position 0 too (certified.cuh's sl_cert_end_mode) */
static inline double tc_end(const sl_rsum_state *st, uint64_t n, int side, int rto, int lost)
{
    int64_t limb[SL_RSUM_WLIMBS];
    int off;
    sl_rsum_state_limbs(st, 4, SL_RSUM_F64_W, limb, &off);
    const int low = st->top - 3;
    if (low >= 1 || lost) sl_rsum_limbs_add(limb, low * SL_RSUM_F64_W - 32 * off, side < 0 ? -(int64_t)n : (int64_t)n);
    return sl_sacc_round_mode(limb, SL_RSUM_WLIMBS, off, SL_F64, st->flags, rto);
}
static inline double tc_narrow(double d, sl_dtype dt)
{
    if (dt == SL_F64) return d;
    if (dt == SL_F32) return (double)(float)d;
    return sl_half_round(d, dt);
}
/* The products a[i] b[i] (a, b: the elements widened). When certified, *out (if not NULL) is the
 * certified result. */
static inline int tc_certify(const double *a, const double *b, uint64_t n, sl_dtype dt, double *out)
{
    sl_rsum_thr_f64k4 acc;
    sl_rsum_init_f64k4(&acc);
    const int pc = dt == SL_F64 ? 2 : 1;
    for (uint64_t i = 0; i < n; i++) {
        const double x = a[i], y = b[i];
        const double p = x * y;
        sl_rsum_take1_f64k4(&acc, p);
        if (pc == 2) sl_rsum_take1_f64k4(&acc, p != 0.0 ? fma(x, y, -p) : p);
    }
    sl_rsum_state st;
    sl_rsum_to_state_f64k4(&acc, &st);
    if (st.flags & (SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF)) return 0;
    double e[2];
    for (int s = 0; s < 2; s++) {
        e[s] = tc_narrow(tc_end(&st, n * (uint64_t)pc, s ? 1 : -1, dt != SL_F64, dt == SL_F64), dt);
    }
    uint64_t b0, b1;
    memcpy(&b0, &e[0], 8);
    memcpy(&b1, &e[1], 8);
    if (!(b0 == b1 && e[0] != 0.0 && isfinite(e[0]))) return 0;
    if (out) *out = e[0];
    return 1;
}
static inline int tc_predict(const double *a, const double *b, uint64_t n, sl_dtype dt)
{
    return tc_certify(a, b, n, dt, NULL);
}
#endif

/* moments_exact.cu: the `correct` mean, var and std kernels (determinism class correctly-rounded;
 * twin moments_exact.c), and `reproducible`'s (order-independent; below). `correct` on float32
 * and 16-bit input: first the certified binned pass (mxc_kernel, below: one read, 4-fold binned
 * S1 and S2, the result rounded at both ends of the bound, mx_cert.h); when its certificate
 * cannot decide it opens a gate and the exact kernel (mx_kernel), enqueued right after it, runs;
 * with the gate shut that launch returns at once. float64 (and blocks above MXC_MAX_BLOCK): the
 * exact kernel alone: one launch, one read of x; S1 and S2 exact in integer limbs, the result
 * rounded once by the last block (mx_round.h, the twin's own code).
 * Assumptions: IEEE binary32/binary64; float16/bfloat16 and float32 widened to double exactly;
 * x*x a plain multiply (--fmad=false) and fma() the fused one; two's-complement 64-bit integer
 * atomics; the layout of exact/limbs.h.
 * Steps: 1. grid-stride read, one element per thread per step (mx_take): float64 input adds x
 * into the block's S1 limbs (sl_sacc_spill: exact/spill.cuh, at most three 32-bit chunks, shared
 * 64-bit atomics) and, for var/std, its square's parts (sl_mx_square_parts: p + e by TwoProduct)
 * into the S2 limbs; float32 and 16-bit input go into the thread's running doubles for S1 and
 * S2 (x*x exact), which spill only TwoSum's nonzero errors, and the doubles themselves at the
 * end (mx_flush); NaN/Inf go to flags; every SL_MX_NORM_EVERY elements of the block the limbs
 * are normalised (block-uniform point).
 * 2. block finish: normalised limbs into the global limbs (atomics), the flags ORed; the last
 * block to take the ticket reads and zeroes them and thread 0 rounds (sl_mx_finish).
 * Performance considerations: float64 costs shared atomics on a few limbs a value (2-3 for S1,
 * 2-6 for S2): bound by shared-memory atomics, not by the read; float32/16-bit atomics only
 * where a thread's running sum rounds (on most data a few a thread). */
#include <stdint.h>
#include "reduce/reduce.cuh"
#include "moments_exact/moments_exact.h"
#include "moments_exact/mx_cert.h"
#include "moments_exact/mx_fast.h"
#include "moments_exact/mx_fast64.h"
#include "exact/binned_kernel.cuh"
#include "exact/spill.cuh"

/* The certified pass's workspace, after the exact kernel's: [0,4) ticket, [4,8) S1's flags,
 * [8,16) the indices of S1 and S2, [16,20) the gate (1: the exact kernel must run; it shuts it),
 * then the per-position integer bins of S1 (hi, lo) and S2 (hi, lo), 53 positions each. */
#define MXC_WS_HEADER 32u
#define MXC_NPOS 53
#define MXC_MAX_BLOCK 512u     /* the certified pass's __launch_bounds__ (registers: two states) */
static inline size_t mxc_offset(sl_dtype dt)
{
    const size_t b = SL_MX_WS_HEADER +
                     sizeof(int64_t) * (size_t)(sl_sacc_limbs(dt == SL_F64 ? SL_F64 : SL_F32) + sl_mx_s2_limbs(dt));
    return (b + 15u) & ~(size_t)15u;
}
/* The cheap pass's workspace, after the certified pass's: [0,4) ticket, [4,8) the gate of the
 * certified pass (1: it must run; it shuts it), [8,32) the grid's sums s1, a1, s2 (double
 * atomics; the last block reads and zeroes them). */
#define MXF_WS_BYTES 32u
static inline size_t mxf_offset(sl_dtype dt)
{
    return mxc_offset(dt) + MXC_WS_HEADER + 4u * sizeof(uint64_t) * MXC_NPOS;
}

namespace {

/* The kernels' barrier: the non-.aligned barrier.sync (reduce/block.cuh), as superacc's: the
 * data-dependent paths before it leave warp convergence to the compiler. */
__device__ __forceinline__ void mx_barrier() { sl_bar_any::sync(); }

template <typename X> struct mx_fmt {
    enum { F64 = 0, L1 = SL_SACC_LIMBS_F32, L2 = SL_MX_S2_LIMBS_F32, S = SL_SACC_SCALE_F32 };
};
template <> struct mx_fmt<double> {
    enum { F64 = 1, L1 = SL_SACC_LIMBS_F64, L2 = SL_MX_S2_LIMBS_F64, S = SL_SACC_SCALE_F64 };
};

/* A thread's exact running sum on its way to the shared limbs (float32 and 16-bit input): the
 * double *acc takes each value (or square) while the addition is exact, and TwoSum's error, where
 * it is not 0, is spilled; so *acc plus the spills is always the exact sum of what the thread
 * took. Fewer than 2^40 float32 values (|x| < 2^128) or their squares (exact in a double, < 2^256)
 * cannot overflow a double, and TwoSum is exact short of overflow, subnormal results included.
 * acc and v are multiples of 2^-scale, so is the error. */
__device__ __forceinline__ void mx_two_take(double *acc, double v, int scale, unsigned long long *s_acc)
{
    const double t = *acc + v, bv = t - *acc, e = (*acc - (t - bv)) + (v - bv);
    *acc = t;
    if (e != 0.0) sl_sacc_spill(e, scale, s_acc);
}

/* One element into the block's sums: non-finite values to the flags; float64 input spills the
 * value and its square's parts (TwoProduct) at once; float32 and 16-bit input into the thread's
 * running doubles a1, a2 (mx_two_take; the caller spills them before the limbs are read). A
 * value spills at most one error into each of S1 and S2: the normalisation schedule of the
 * plain form holds. */
template <typename X>
__device__ __forceinline__ void mx_take(double v, int what, unsigned &flags, double &a1, double &a2,
                                        unsigned long long *s1, unsigned long long *s2)
{
    typedef mx_fmt<X> F;
    if (!signbit(v)) flags |= SL_SACC_ANYPOS;
    if (isnan(v)) { flags |= SL_SACC_NAN; return; }
    if (isinf(v)) { flags |= v > 0 ? SL_SACC_PINF : SL_SACC_NINF; return; }
    if (F::F64) {
        sl_sacc_spill(v, F::S, s1);
        if (what == SL_MX_MEAN) return;
        double d[2];
        int sc[2];
        const int np = sl_mx_square_parts(v, 1, d, sc);
        for (int k = 0; k < np; k++) sl_sacc_spill(d[k], sc[k], s2);
        return;
    }
    mx_two_take(&a1, v, F::S, s1);
    if (what != SL_MX_MEAN) mx_two_take(&a2, v * v, SL_MX_S2_SCALE_F32, s2);
}

/* The running doubles of mx_take into the limbs (0 spills nothing). */
template <typename X>
__device__ __forceinline__ void mx_flush(double &a1, double &a2, unsigned long long *s1, unsigned long long *s2)
{
    sl_sacc_spill(a1, mx_fmt<X>::S, s1);
    sl_sacc_spill(a2, SL_MX_S2_SCALE_F32, s2);
    a1 = a2 = 0.0;
}

/* The rounded result (a value of X held in a double: the conversion is exact). */
__device__ __forceinline__ void mx_store(double r, double *out) { *out = r; }
template <typename X> __device__ __forceinline__ void mx_store(double r, X *out)
{
    *out = sl_out<X>((float)r);
}

/* Normalises the block's shared limbs (thread 0, between barriers). */
template <typename X>
__device__ __forceinline__ void mx_normalise(unsigned long long *s1, unsigned long long *s2)
{
    sl_sacc_normalise(reinterpret_cast<int64_t *>(s1), mx_fmt<X>::L1);
    sl_sacc_normalise(reinterpret_cast<int64_t *>(s2), mx_fmt<X>::L2);
}

/* x: n elements (any alignment of the element size); work: sl_mx_workspace bytes, zero; result:
 * one X. Barriers: the loop's trip count and the normalisation schedule depend on blockIdx,
 * gridDim, blockDim and n only. */
template <typename X>
__global__ void __launch_bounds__(1024)
mx_kernel(const X *__restrict__ x, uint64_t n, int what, uint32_t ddof, sl_dtype dt,
          unsigned char *work, X *result, unsigned *gate)
{
    typedef mx_fmt<X> F;
    /* after the certified pass: nothing to do unless it opened the gate (every block reads it
     * before its ticket; the last block shuts it after every ticket) */
    if (gate && *(volatile unsigned *)gate == 0u) return;
    __shared__ unsigned long long s1[F::L1], s2[F::L2];
    __shared__ unsigned s_flags;
    const unsigned tid = threadIdx.x, B = blockDim.x;
    for (unsigned i = tid; i < (unsigned)F::L1; i += B) s1[i] = 0;
    for (unsigned i = tid; i < (unsigned)F::L2; i += B) s2[i] = 0;
    if (tid == 0) s_flags = 0;
    mx_barrier();

    unsigned flags = 0;
    double a1 = 0.0, a2 = 0.0;
    const uint64_t stride = (uint64_t)gridDim.x * B;
    uint64_t every = SL_MX_NORM_EVERY / B, since = 0;
    for (uint64_t base = (uint64_t)blockIdx.x * B; base < n; base += stride) {
        const uint64_t i = base + tid;
        if (i < n) mx_take<X>((double)sl_widen(x[i]), what, flags, a1, a2, s1, s2);
        if (++since == every) {                      /* uniform across the block */
            since = 0;
            mx_barrier();
            if (tid == 0) mx_normalise<X>(s1, s2);
            mx_barrier();
        }
    }
    mx_flush<X>(a1, a2, s1, s2);                     /* one spill more a thread: within the schedule's margin */

    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    unsigned long long *g1 = reinterpret_cast<unsigned long long *>(work + SL_MX_WS_HEADER);
    unsigned long long *g2 = g1 + F::L1;
    if (flags) atomicOr(&s_flags, flags);
    mx_barrier();
    if (tid == 0) mx_normalise<X>(s1, s2);
    mx_barrier();
    /* normalised limbs < 2^32 (top limbs signed): G < 2^31 blocks cannot overflow a limb */
    for (unsigned i = tid; i < (unsigned)F::L1; i += B)
        if (s1[i]) atomicAdd(&g1[i], s1[i]);
    for (unsigned i = tid; i < (unsigned)F::L2; i += B)
        if (s2[i]) atomicAdd(&g2[i], s2[i]);
    if (tid == 0 && s_flags) atomicOr(g_flags, s_flags);
    sl_ticket_fence();                              /* limbs visible before the ticket */
    mx_barrier();
    if (!sl_ticket_last<sl_bar_any, false>(g_counter)) return;
    for (unsigned i = tid; i < (unsigned)F::L1; i += B) s1[i] = atomicExch(&g1[i], 0ull);
    for (unsigned i = tid; i < (unsigned)F::L2; i += B) s2[i] = atomicExch(&g2[i], 0ull);
    mx_barrier();
    if (tid == 0) {
        const unsigned fl = atomicExch(g_flags, 0u);
        const double r = sl_mx_finish(what, reinterpret_cast<int64_t *>(s1), F::L1,
                                      reinterpret_cast<int64_t *>(s2), F::L2, F::S, n, ddof, fl, dt);
        mx_store(r, result);
        if (gate) *gate = 0u;
        *g_counter = 0u;
    }
}

/* ---- `correct`, float32 and 16-bit input: the certified binned pass --------------------------
 * Steps: 1. per thread, two 4-fold binned accumulators (exact/binned.h's float64 bins, K = 4):
 * S1 of x widened to double, S2 of x*x (exact: 48 bits); tiles of 4 16-byte vectors as
 * `reproducible`'s kernel (exact/binned_kernel.cuh's rs_fmt shapes), each group of 8 inputs
 * checked once per accumulator against its capacity, the warp raising every lane's index
 * together when one lane needs it; the head and tail elements one by one. 2. block merge of each
 * state (sl_rsum_warp_merge, exact), thread 0 adds the block's folds into the global per-position
 * bins, atomicMax the indices, ORs the flags, takes the ticket. 3. the last block takes the four
 * top positions of each, leaves the workspace zero, and lanes 0 and 1 round the two ends of the
 * interval (sl_mxc_end, mx_cert.h, the CPU model's own code); when they agree that is the result,
 * else the gate opens for the exact kernel launched after. The decision is a function of the
 * multiset of inputs (the states are), so sl_mxc_certify on the CPU predicts it.
 * Performance considerations: per input 2 x (10 float64 adds and ORs) on the FP64 pipe plus a
 * conversion and a multiply: about the memory time of float32 at the H200's rates; float16 and
 * bfloat16 (half the bytes) are bound by the FP64 pipe. Numbers: BENCHMARKS.md. */
typedef sl_rsum_thr_f64k4 mxc_acc;
template <bool SQ>
__device__ __forceinline__ void mxc_take1(mxc_acc &a1, mxc_acc &a2, double v)
{
    rs_take1(a1, v);
    if (SQ) rs_take1(a2, v * v);
}
template <bool SQ>
__device__ __forceinline__ void mxc_take_vec(mxc_acc &a1, mxc_acc &a2, float4 v)
{
    mxc_take1<SQ>(a1, a2, v.x); mxc_take1<SQ>(a1, a2, v.y);
    mxc_take1<SQ>(a1, a2, v.z); mxc_take1<SQ>(a1, a2, v.w);
}
template <bool SQ, typename H>
__device__ __forceinline__ void mxc_take_vec(mxc_acc &a1, mxc_acc &a2, sl_v16<H> v)
{
#pragma unroll
    for (int k = 0; k < 8; k++) mxc_take1<SQ>(a1, a2, (double)sl_widen(sl_vec_lane(v, k)));
}

/* SQ: var/std (S2 too); mean: S1 only. Barriers: sl_bar_any, every thread reaches each one. */
template <typename X, bool SQ>
__global__ void __launch_bounds__(MXC_MAX_BLOCK)
mxc_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, int what, uint32_t ddof,
           sl_dtype dt, unsigned char *cw, X *result, unsigned *fgate)
{
    /* after the cheap pass: nothing to do unless it opened the gate (every block reads it before
     * its ticket; the last block shuts it after every ticket) */
    if (fgate && *(volatile unsigned *)fgate == 0u) return;
    typedef rs_fmt<X, false> F;                      /* the input's vector shape */
    typedef typename F::V V;
    enum { VW = F::VW, U = F::U, SV = F::SV, S = U / SV, SE = SV * VW, G8 = SL_RSUM_GROUP,
           K = SL_MXC_K, NP = MXC_NPOS };
    __shared__ sl_rsum_state s_warp[2][32];
    __shared__ unsigned long long s_bins[4 * NP];
    __shared__ int s_top[2];
    __shared__ unsigned s_fl;
    unsigned *g_counter = reinterpret_cast<unsigned *>(cw);
    unsigned *g_flags = g_counter + 1;
    int *g_top = reinterpret_cast<int *>(g_counter + 2);
    unsigned *g_gate = g_counter + 4;
    unsigned long long *g_bins = reinterpret_cast<unsigned long long *>(cw + MXC_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    const unsigned lane = tid & 31u, warp = tid >> 5;

    mxc_acc a1, a2;
    rs_init(a1);
    rs_init(a2);
    const uint64_t nv = (n - head) / VW;             /* whole vectors after the head */
    sl_for_edges<VW>(n, head, nv, [&](uint64_t i) { mxc_take1<SQ>(a1, a2, (double)sl_widen(x[i])); });
    const V *xv = reinterpret_cast<const V *>(x + head);
    const uint64_t per_tile = (uint64_t)B * U;
    const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += G) {
        const uint64_t base = tile * per_tile + tid;
        if ((tile + 1) * per_tile <= nv) {
            V r[U];
#pragma unroll
            for (int u = 0; u < U; u++) r[u] = sl_ldv(xv + base + (uint64_t)u * B);
#pragma unroll
            for (int sub = 0; sub < S; sub++) {
                float xs[SE];
                rs_unpack(r + sub * SV, xs);
#pragma unroll
                for (int g = 0; g < SE / G8; g++) {
                    double d[G8], q[G8];
#pragma unroll
                    for (int k = 0; k < G8; k++) {
                        d[k] = (double)xs[g * G8 + k];
                        q[k] = d[k] * d[k];
                    }
                    const unsigned m1 = rs_group_max(d), m2 = SQ ? rs_group_max(q) : 0u;
                    if (__any_sync(SL_FULL_MASK, m1 >= a1.cap || (SQ && m2 >= a2.cap))) {
                        rs_raise(a1, __reduce_max_sync(SL_FULL_MASK, m1));
                        if (SQ) rs_raise(a2, __reduce_max_sync(SL_FULL_MASK, m2));
                    }
                    rs_take_group_mx(a1, d, m1);
                    if (SQ) rs_take_group_mx(a2, q, m2);
                }
            }
        } else {
            for (int u = 0; u < U; u++)
                if (base + (uint64_t)u * B < nv) mxc_take_vec<SQ>(a1, a2, sl_ldv(xv + base + (uint64_t)u * B));
        }
    }

    /* block merge: warps, then warp 0 over the warp states */
    sl_rsum_state st1, st2;
    rs_to_state(a1, st1);
    rs_to_state(a2, st2);
    sl_rsum_warp_merge<K>(st1);
    if (SQ) sl_rsum_warp_merge<K>(st2);
    if (lane == 0) {
        s_warp[0][warp] = st1;
        s_warp[1][warp] = st2;
    }
    sl_bar_any::sync();
    if (warp == 0) {
        if (lane < (B >> 5)) {
            st1 = s_warp[0][lane];
            st2 = s_warp[1][lane];
        } else {
            sl_rsum_state_zero_k(&st1, K);
            sl_rsum_state_zero_k(&st2, K);
        }
        sl_rsum_warp_merge<K>(st1);
        if (SQ) sl_rsum_warp_merge<K>(st2);
        if (lane == 0) {                             /* the block's folds into the global bins */
#pragma unroll
            for (int j = 0; j < (SQ ? 2 : 1); j++) {
                const sl_rsum_state &s = j ? st2 : st1;
                sl_rsum_state_add_bins<K>(s, &g_top[j], g_bins + 2 * NP * j, g_bins + 2 * NP * j + NP);
            }
            if (st1.flags) atomicOr(g_flags, st1.flags);
        }
    }
    /* thread 0 published and fences before its ticket */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    for (unsigned i = tid; i < (SQ ? 4u : 2u) * NP; i += B) s_bins[i] = atomicExch(&g_bins[i], 0ull);
    if (tid == 0) {
        s_top[0] = atomicExch(&g_top[0], 0);
        s_top[1] = SQ ? atomicExch(&g_top[1], 0) : K - 1;
        s_fl = atomicExch(g_flags, 0u);
    }
    sl_bar_any::sync();
    if (tid < 2u) {                                  /* lanes 0 and 1: the two ends at once */
        sl_rsum_state f[2];
#pragma unroll
        for (int j = 0; j < 2; j++) {
            f[j].top = s_top[j];
            f[j].flags = j ? 0u : s_fl;
#pragma unroll
            for (int k = 0; k < SL_RSUM_KMAX; k++) {  /* positions below top - K + 1: dropped */
                const bool in = k < K && (j == 0 || SQ);
                f[j].hi[k] = in ? (int64_t)s_bins[2 * NP * j + f[j].top - k] : 0;
                f[j].lo[k] = in ? (int64_t)s_bins[2 * NP * j + NP + f[j].top - k] : 0;
            }
            sl_rsum_state_norm_k(&f[j], K);
        }
        const double e = sl_mxc_end(what, &f[0], &f[1], n, ddof, dt, tid ? 1 : -1);
        const double other = __shfl_sync(0x3u, e, 1);
        if (tid == 0) {
            double r;
            if (sl_rsum_certify_agree(e, other, &r)) mx_store(r, result);
            else *g_gate = 1u;                       /* the exact kernel runs next */
            *g_counter = 0u;
            if (fgate) *fgate = 0u;
        }
    }
}

/* ---- `correct` var/std, float32 and 16-bit input: the cheap certified pass (mx_fast.h) --------
 * Steps: 1. c = x[0]; per thread s1 += d, a1 += |d|, s2 = fma(d, d, s2) with d = (double)x - c
 * over its edge scalar (sl_for_edges: at most one) and its 16-byte vectors of W elements, grid
 * stride (at most MXF_CHAIN(n, G B, W) = 1 + W ceil(n / (W G B)) roundings per thread).
 * 2. warp shuffles (5 levels), warp 0 over the warps' sums (5 levels), thread 0 adds the
 * block's sums into the grid's by double atomics (any order: at most G roundings), takes the
 * ticket. 3. the last block's thread 0 reads
 * and zeroes the grid's sums, lanes 0 and 1 test the box in float64 (sl_mxf_quick) and, when that
 * cannot decide, round its two ends exactly (sl_mxf_box, sl_mxf_end: the twin's code), with
 * h = MXF_CHAIN + G + 16 (>= every chain: the per-thread one, 10 tree levels, G atomics);
 * when they agree that is the result, else the gate opens for the certified binned pass. The
 * decision may depend on the order of the atomics; the result never does (it is the correctly
 * rounded value either way).
 * Performance considerations: per input a conversion, 2 adds and an fma on the FP64 pipe; four
 * 16-byte loads in flight per thread ahead of the sums, as the read rate needs at this
 * occupancy. */
#define MXF_CHAIN(n, T, W) (1u + (uint64_t)(W) * (((n) + (uint64_t)(W) * (T) - 1u) / ((uint64_t)(W) * (T))))
/* lane + off's sums merged into the lane's (within aligned groups of width lanes: the groups'
 * first lanes end with their group's sums) */
__device__ __forceinline__ void mxf_shfl(sl_mxf_acc &a, int off, int width = 32)
{
    sl_mxf_acc b;
    b.s1 = __shfl_down_sync(SL_FULL_MASK, a.s1, off, width);
    b.a1 = __shfl_down_sync(SL_FULL_MASK, a.a1, off, width);
    b.s2 = __shfl_down_sync(SL_FULL_MASK, a.s2, off, width);
    sl_mxf_merge(&a, &b);
}

/* fw: MXF_WS_BYTES of the workspace (zero); x: n >= 1 elements; blockDim a multiple of 32. */
template <typename X>
__global__ void __launch_bounds__(1024)
mxf_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, int what, uint32_t ddof,
           sl_dtype dt, unsigned char *fw, X *result)
{
    __shared__ sl_mxf_acc s_w[32];
    unsigned *g_counter = reinterpret_cast<unsigned *>(fw);
    unsigned *g_gate = g_counter + 1;
    double *g_sum = reinterpret_cast<double *>(fw + 8);
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    const unsigned lane = tid & 31u, warp = tid >> 5;
    const double c = (double)sl_widen(x[0]);
    const uint64_t T = (uint64_t)G * B;
    sl_mxf_acc a;
    sl_mxf_init(&a);
    /* the edges (at most one scalar per thread), then 16-byte vectors, U loads in flight */
    enum { W = sl_vec<X>::W, U = 4 };
    const sl_split sp = sl_split_of<X>(n, head, (n - head) / W);
    sl_walk_values<U, SL_EDGES_FIRST>(x, sp, (uint64_t)blockIdx.x * B + tid, T,
                                      [&](X v, int) { sl_mxf_take(&a, (double)sl_widen(v), c); });
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) mxf_shfl(a, off);
    if (lane == 0) s_w[warp] = a;
    sl_bar_any::sync();
    if (warp == 0) {
        if (lane < (B >> 5)) a = s_w[lane];
        else sl_mxf_init(&a);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) mxf_shfl(a, off);
        if (lane == 0) {
            atomicAdd(&g_sum[0], a.s1);
            atomicAdd(&g_sum[1], a.a1);
            atomicAdd(&g_sum[2], a.s2);
        }
    }
    /* thread 0 published and fences before its ticket */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    __shared__ sl_mxf_acc s_t;
    if (tid == 0) {
        unsigned long long *g_bits = reinterpret_cast<unsigned long long *>(g_sum);
        s_t.s1 = __longlong_as_double((long long)atomicExch(&g_bits[0], 0ull));
        s_t.a1 = __longlong_as_double((long long)atomicExch(&g_bits[1], 0ull));
        s_t.s2 = __longlong_as_double((long long)atomicExch(&g_bits[2], 0ull));
    }
    sl_bar_any::sync();
    if (tid < 2u) {                                  /* lanes 0 and 1: the two ends at once */
        const uint64_t h = MXF_CHAIN(n, T, sl_vec<X>::W) + G + 16u;
        double lo[2], hi[2], e = 0.0, r = 0.0;
        const int ok = sl_mxf_box(what, &s_t, n, h, ddof, dt, lo, hi);
        /* the quick float64 test (both lanes alike), then the ends' exact rounding */
        const int quick = ok && sl_mxf_quick(what, lo, hi, n, ddof, dt, &r);
        if (ok && !quick) e = tid ? sl_mxf_end(what, hi[0], hi[1], n, ddof, dt)
                                  : sl_mxf_end(what, lo[0], lo[1], n, ddof, dt);
        const double other = __shfl_sync(0x3u, e, 1);
        if (tid == 0) {
            if (quick || (ok && sl_rsum_certify_agree(e, other, &r))) mx_store(r, result);
            else *g_gate = 1u;                       /* the certified binned pass runs next */
            *g_counter = 0u;
        }
    }
}

/* ---- `correct` mean/var/std, float64 input: the cheap certified pass (mx_fast64.h) -----------
 * Steps: 1. c = x[0]; per thread the pairs (s1, c1), (s2, c2) of sl_mxd_take over its edge scalar
 * (at most one) and its 16-byte vectors of 2 elements, grid stride, four loads in flight.
 * 2. warp shuffles (5 levels), warp 0 over the warps' pairs (5 levels); thread 0 stores the
 * block's pairs in the workspace and takes the ticket. 3. the last block merges the G blocks'
 * pairs (thread t: blocks t, t + B, ...; then the same two tree levels), and lanes 0 and 1 test
 * the box (sl_mxd_bounds; h = MXF_CHAIN(n, G B, 2) + ceil(G / B) + 32 >= every term's steps: its
 * thread's, 10 tree levels, the last block's chain and 10 levels): the quick double-double
 * decision (sl_mxd_quick; the mean: sl_mxd_mean_decide with c) settles it, or (var/std) the
 * lanes round the box's two ends exactly at once (sl_mxd_end: the twin's code); when they agree
 * that is the result, else the gate opens for the exact kernel.
 * The decision depends on the launch shape; the result never does (the correctly rounded value).
 * Performance considerations: per input about 21 FP64 operations (three Fast2Sums with their
 * magnitude compares, a square, two fmas, five plain adds; the operand swaps on the integer
 * pipe): the FP64 pipe, not the read, bounds it on the H200 (BENCHMARKS.md). */
#define MXD_WS_HEADER 16u
static inline size_t mxd_offset() { return (mxc_offset(SL_F64) + 15u) & ~(size_t)15u; }

__device__ __forceinline__ void mxd_shfl(sl_mxd_acc &a, int off)
{
    sl_mxd_acc b;
    b.s1 = __shfl_down_sync(SL_FULL_MASK, a.s1, off);
    b.c1 = __shfl_down_sync(SL_FULL_MASK, a.c1, off);
    b.s2 = __shfl_down_sync(SL_FULL_MASK, a.s2, off);
    b.c2 = __shfl_down_sync(SL_FULL_MASK, a.c2, off);
    sl_mxd_merge(&a, &b);
}

/* The block's pairs (valid in thread 0): warp shuffles, then warp 0 over the warps' pairs. */
__device__ __forceinline__ sl_mxd_acc mxd_block(sl_mxd_acc a, sl_mxd_acc *s_w, unsigned lane,
                                                unsigned warp, unsigned B)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) mxd_shfl(a, off);
    if (lane == 0) s_w[warp] = a;
    sl_bar_any::sync();
    if (warp == 0) {
        if (lane < (B >> 5)) a = s_w[lane];
        else sl_mxd_init(&a);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) mxd_shfl(a, off);
    }
    return a;
}

/* One deciding lane's part (lanes 0 and 1, side -1 and +1) of the decision on the pairs a (chain
 * length h, shift c): the mean's (sl_mxd_mean_decide) or the box's quick test (sl_mxd_quick),
 * alike on both lanes, returning 1 with *q when it settles the result; otherwise, for var/std
 * (*ok: the box exists), this lane's end of the box rounded exactly into *e (sl_mxd_end). */
__device__ __forceinline__ int mxd_lane_decide(const sl_mxd_acc *a, double c, uint64_t n, uint64_t h, int what,
                                               uint32_t ddof, int side, double *q, double *e, int *ok)
{
    double e1 = 0.0, e2 = 0.0;
    int quick;
    *ok = 0;
    *e = 0.0;
    if (what == SL_MX_MEAN) {
        quick = sl_mxd_mean_decide(a, c, n, h, q);
    } else {
        *ok = sl_mxd_bounds(what, a, n, h, ddof, &e1, &e2);
        quick = *ok && sl_mxd_quick(what, a, e1, e2, n, ddof, q);
    }
    if (*ok && !quick) *e = sl_mxd_end(what, a, e1, e2, side, n, ddof);
    return quick;
}

/* fw: the workspace from mxd_offset (header zero); x: n >= 1 elements; blockDim a multiple of 32. */
__global__ void __launch_bounds__(1024)
mxd_kernel(const double *__restrict__ x, uint64_t n, uint64_t head, int what, uint32_t ddof,
           unsigned char *fw, double *result)
{
    __shared__ sl_mxd_acc s_w[32];
    __shared__ sl_mxd_acc s_t;
    unsigned *g_counter = reinterpret_cast<unsigned *>(fw);
    unsigned *g_gate = g_counter + 1;
    sl_mxd_acc *g_part = reinterpret_cast<sl_mxd_acc *>(fw + MXD_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    const unsigned lane = tid & 31u, warp = tid >> 5;
    const double c = x[0];
    const uint64_t T = (uint64_t)G * B;
    enum { W = 2, U = 4 };
    sl_mxd_acc a;
    sl_mxd_init(&a);
    const sl_split sp = sl_split_of<double>(n, head, (n - head) / W);
    sl_walk_values<U, SL_EDGES_FIRST>(x, sp, (uint64_t)blockIdx.x * B + tid, T,
                                      [&](double v, int) { sl_mxd_take(&a, v, c); });
    a = mxd_block(a, s_w, lane, warp, B);
    if (tid == 0) g_part[blockIdx.x] = a;
    /* thread 0 published and fences before its ticket */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    sl_mxd_init(&a);
    for (unsigned b = tid; b < G; b += B) {
        sl_mxd_acc p;
        p.s1 = __ldcg(&g_part[b].s1);
        p.c1 = __ldcg(&g_part[b].c1);
        p.s2 = __ldcg(&g_part[b].s2);
        p.c2 = __ldcg(&g_part[b].c2);
        sl_mxd_merge(&a, &p);
    }
    sl_bar_any::sync();                              /* s_w is read again below */
    a = mxd_block(a, s_w, lane, warp, B);
    if (tid == 0) s_t = a;
    sl_bar_any::sync();
    if (tid < 2u) {                                  /* lanes 0 and 1: the two ends at once */
        const uint64_t h = MXF_CHAIN(n, T, W) + (G + B - 1) / B + 32u;
        double e, q = 0.0;
        int ok;
        const int quick = mxd_lane_decide(&s_t, c, n, h, what, ddof, tid ? 1 : -1, &q, &e, &ok);
        const double other = __shfl_sync(0x3u, e, 1);
        if (tid == 0) {
            double r;
            if (quick) *result = q;
            else if (ok && sl_rsum_certify_agree(e, other, &r)) *result = r;
            else *g_gate = 1u;                       /* the exact kernel runs next */
            *g_counter = 0u;
        }
    }
}

template <typename X>
static int mx_launch(const sl_variant *v, const sl_launch *cfg, const void *d_x, uint64_t n,
                     sl_dtype dt, void *d_work, void *d_result, cudaStream_t st, sl_err *err)
{
    unsigned char *w = (unsigned char *)d_work;
    unsigned *gate = NULL;
    if constexpr (sizeof(X) < 8) if (n > 0 && cfg->block <= MXC_MAX_BLOCK) {
        unsigned char *cw = w + mxc_offset(dt);
        const uint64_t head = sl_vec_head(n, dt, (uint32_t)((uintptr_t)d_x & 15u));
        unsigned *fgate = NULL;
        if (v->impl != SL_MX_MEAN) {                 /* var/std: the cheap pass first */
            unsigned char *fw = w + mxf_offset(dt);
            mxf_kernel<X><<<cfg->grid, cfg->block, 0, st>>>((const X *)d_x, n, head, v->impl,
                                                            cfg->ddof, dt, fw, (X *)d_result);
            SL_CUDA_CHECK_LAUNCH("mxf_kernel", v->name, err);
            fgate = reinterpret_cast<unsigned *>(fw) + 1;
        }
        if (v->impl == SL_MX_MEAN)
            mxc_kernel<X, false><<<cfg->grid, cfg->block, 0, st>>>((const X *)d_x, n, head, v->impl,
                                                                   cfg->ddof, dt, cw, (X *)d_result,
                                                                   fgate);
        else
            mxc_kernel<X, true><<<cfg->grid, cfg->block, 0, st>>>((const X *)d_x, n, head, v->impl,
                                                                  cfg->ddof, dt, cw, (X *)d_result,
                                                                  fgate);
        SL_CUDA_CHECK_LAUNCH("mxc_kernel", v->name, err);
        gate = reinterpret_cast<unsigned *>(cw) + 4;
    }
    if constexpr (sizeof(X) == 8) if (n > 0) {
        unsigned char *dw = w + mxd_offset();        /* the cheap pass first */
        const uint64_t head = sl_vec_head(n, dt, (uint32_t)((uintptr_t)d_x & 15u));
        mxd_kernel<<<cfg->grid, cfg->block, 0, st>>>((const double *)d_x, n, head, v->impl,
                                                     cfg->ddof, dw, (double *)d_result);
        SL_CUDA_CHECK_LAUNCH("mxd_kernel", v->name, err);
        gate = reinterpret_cast<unsigned *>(dw) + 1;
    }
    mx_kernel<X><<<cfg->grid, cfg->block, 0, st>>>((const X *)d_x, n, v->impl, cfg->ddof, dt,
                                                   w, (X *)d_result, gate);
    SL_CUDA_CHECK_LAUNCH("mx_kernel", v->name, err);
    return 0;
}

/* ---- reproducible: binned S1 and S2 ---------------------------------------------------------
 * Steps: 1. grid-stride read (mxr_walk: the edge values, then 16-byte vectors), into two
 * per-thread binned accumulators (exact/binned.h's sl_rsum_thr_f64: S1 of x widened to double, S2
 * of the square's parts, sl_mxr_square_parts); 2. the threads' states merged exactly through the
 * block (exact/binned_merge.cuh: shuffles, then warp 0; any order gives the same state), thread 0
 * stores the block's pair in the workspace and takes the ticket; 3. the last block merges the
 * grid's pairs (thread t: pairs t, t + B, ..., then the block) and thread 0 finishes
 * (sl_mxr_final, the twin's code). Performance considerations: 16-byte loads, U of them in flight per thread
 * (mxr_walk), their values in groups of SL_RSUM_GROUP through exact/binned.h's group path (one
 * capacity check, then straight-line deposits: moments_exact.h's sl_mxr_take_group), instead of
 * sl_rsum_take1's checks per value; the deposits (7 float64 operations each: one for S1, one or
 * two for S2) are the cost, on the FP64 pipe. Numbers: BENCHMARKS.md. */
/* One value into the thread's binned S1 (every value) and S2 (a finite value's square parts). */
template <typename X>
__device__ __forceinline__ void mxr_take(sl_rsum_thr_f64 &a1, sl_rsum_thr_f64 &a2, double v, int what)
{
    sl_rsum_take1_f64(&a1, v);
    if (what == SL_MX_MEAN || !isfinite(v)) return;
    double d[2];
    const int np = sl_mxr_square_parts(v, mx_fmt<X>::F64, d);
    for (int k = 0; k < np; k++) sl_rsum_take1_f64(&a2, d[k]);
}

/* Thread t of T's share of x split as s into S1 (a1) and S2 (a2), reduce/walk.cuh's order: its
 * edge values first, one by one (mxr_take), then steps of U 16-byte vectors (16 values; float64:
 * 8) taken in groups of SL_RSUM_GROUP (sl_mxr_take_group), then its leftover vectors one value at
 * a time. The sums do not depend on the order or the grouping (the binned sums'). */
template <typename X>
__device__ __forceinline__ void mxr_walk(const X *x, const sl_split &s, uint64_t t, uint64_t T,
                                         sl_rsum_thr_f64 &a1, sl_rsum_thr_f64 &a2, int what)
{
    enum { W = sl_vec<X>::W, U = W >= 8 ? 2 : 4, G = SL_RSUM_GROUP };
    static_assert(U * W == (sizeof(X) == 8 ? 8 : 16), "mxr_walk: SL_MXR_STEP values a step");
    const int sq = what != SL_MX_MEAN;
    sl_walk_groups_f64<U, G, SL_EDGES_FIRST>(
        x, s, t, T, [&](const double *d) { sl_mxr_take_group(&a1, &a2, d, sq, mx_fmt<X>::F64); },
        [&](X e) { mxr_take<X>(a1, a2, (double)sl_widen(e), what); });
}

/* The thread states (a1, a2) merged through the block into thread 0's (st1, st2)
 * (exact/binned_merge.cuh: shuffles, then warp 0 over the warps'; any order gives the same
 * state); the mean's S2 is empty and not merged. Every thread calls it (two barriers at most). */
__device__ __forceinline__ void mxr_block_states(const sl_rsum_thr_f64 &a1, const sl_rsum_thr_f64 &a2, int what,
                                                 sl_rsum_state &st1, sl_rsum_state &st2,
                                                 sl_rsum_state (*s_w)[32])
{
    sl_rsum_to_state_f64(&a1, &st1);
    sl_rsum_to_state_f64(&a2, &st2);
    sl_rsum_block_merge<SL_RSUM_K>(st1, s_w[0]);
    if (what != SL_MX_MEAN) sl_rsum_block_merge<SL_RSUM_K>(st2, s_w[1]);   /* block-uniform */
}

template <typename X>
__global__ void __launch_bounds__(SL_MXR_BLOCK)
mxr_kernel(const X *__restrict__ x, uint64_t n, int what, uint32_t ddof, sl_dtype dt,
           unsigned char *work, X *result)
{
    __shared__ sl_rsum_state s_w[2][32];
    const unsigned tid = threadIdx.x, B = blockDim.x;
    sl_rsum_thr_f64 a1, a2;
    sl_rsum_init_f64(&a1);
    sl_rsum_init_f64(&a2);
    mxr_walk<X>(x, sl_row_split(x, n), (uint64_t)blockIdx.x * B + tid, (uint64_t)gridDim.x * B, a1, a2, what);
    sl_rsum_state st1, st2;
    mxr_block_states(a1, a2, what, st1, st2, s_w);
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    sl_rsum_state *g_st = reinterpret_cast<sl_rsum_state *>(work + SL_MX_WS_HEADER);
    if (tid == 0) {
        g_st[2 * blockIdx.x] = st1;
        g_st[2 * blockIdx.x + 1] = st2;
    }
    /* the ticket's barrier also orders warp 0's reads of s_w before their reuse below */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    /* the last block: thread t merges the blocks' pairs t, t + B, ..., then the block */
    sl_rsum_parts_merge<SL_RSUM_K>(st1, g_st, gridDim.x, 2u, s_w[0]);
    if (what != SL_MX_MEAN) sl_rsum_parts_merge<SL_RSUM_K>(st2, g_st + 1, gridDim.x, 2u, s_w[1]);
    if (tid == 0) {
        mx_store(sl_mxr_final(what, n, ddof, &st1, &st2, dt), result);
        *g_counter = 0u;
    }
}

template <typename X>
static int mxr_launch(const sl_variant *v, const sl_launch *cfg, const void *d_x, uint64_t n,
                      sl_dtype dt, void *d_work, void *d_result, cudaStream_t st, sl_err *err)
{
    mxr_kernel<X><<<cfg->grid, cfg->block, 0, st>>>((const X *)d_x, n, v->impl, cfg->ddof, dt,
                                                    (unsigned char *)d_work, (X *)d_result);
    SL_CUDA_CHECK_LAUNCH("mxr_kernel", v->name, err);
    return 0;
}

/* ---- reproducible mean/var/std row-wise (rows/rows.h's dedicated entry), every format ----------
 * mxrrow_kernel: a block of SL_MXR_BLOCK threads a row (grid stride over rows): mxr_kernel's
 * steps 1 and 2 on the row (each thread's binned S1 and S2 over its edge values and 16-byte
 * vectors, the states merged exactly through the block), then thread 0 finishes the row
 * (sl_mxr_final, the twin's code). mxrrow_warp_kernel, for rows of at most
 * SL_ROWS_RS_WARP_ROW_MAX values: a warp a row (SL_MXR_BLOCK / 32 rows a block, no barrier), its
 * lanes' states merged by shuffles, lane 0 finishes: at 4,096 values a block a row gave each
 * thread 16 values and the block's merge set the time. The binned states are order-independent,
 * so the row's result is the 1-D kernel's on that row: a function of its values alone (not B,
 * the launch or the GPU); twin: the 1-D twin on each row. No workspace. */
template <typename X>
__global__ void __launch_bounds__(SL_MXR_BLOCK)
mxrrow_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, int what, uint32_t ddof, sl_dtype dt,
              X *out)
{
    __shared__ sl_rsum_state s_w[2][32];
    const unsigned tid = threadIdx.x, B = SL_MXR_BLOCK;
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const X *row = x + r * n;
        sl_rsum_thr_f64 a1, a2;
        sl_rsum_init_f64(&a1);
        sl_rsum_init_f64(&a2);
        mxr_walk<X>(row, sl_row_split(row, n), tid, B, a1, a2, what);
        sl_rsum_state st1, st2;
        mxr_block_states(a1, a2, what, st1, st2, s_w);
        if (tid == 0) mx_store(sl_mxr_final(what, n, ddof, &st1, &st2, dt), out + r);
        sl_bar_any::sync();                          /* s_w is reused by the next row */
    }
}

template <typename X>
__global__ void __launch_bounds__(SL_MXR_BLOCK)
mxrrow_warp_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, int what, uint32_t ddof, sl_dtype dt,
                   X *out)
{
    const unsigned lane = threadIdx.x & 31u, WPB = SL_MXR_BLOCK / 32u;
    for (uint64_t r = (uint64_t)blockIdx.x * WPB + (threadIdx.x >> 5); r < rows; r += (uint64_t)gridDim.x * WPB) {
        const X *row = x + r * n;
        sl_rsum_thr_f64 a1, a2;
        sl_rsum_init_f64(&a1);
        sl_rsum_init_f64(&a2);
        mxr_walk<X>(row, sl_row_split(row, n), lane, 32u, a1, a2, what);
        sl_rsum_state st1, st2;
        sl_rsum_to_state_f64(&a1, &st1);
        sl_rsum_to_state_f64(&a2, &st2);
        sl_rsum_warp_merge<SL_RSUM_K>(st1);
        if (what != SL_MX_MEAN) sl_rsum_warp_merge<SL_RSUM_K>(st2);
        if (lane == 0) mx_store(sl_mxr_final(what, n, ddof, &st1, &st2, dt), out + r);
    }
}

template <typename X>
static int mxrrow_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, uint32_t ddof,
                         sl_dtype dt, void *d_out, cudaStream_t st, sl_err *err)
{
    if (n <= SL_ROWS_RS_WARP_ROW_MAX) {
        mxrrow_warp_kernel<X><<<sl_rows_grid(rows, SL_MXR_BLOCK / 32u), SL_MXR_BLOCK, 0, st>>>(
            (const X *)d_x, rows, n, v->impl, ddof, dt, (X *)d_out);
        SL_CUDA_CHECK_LAUNCH("mxrrow_warp_kernel", v->name, err);
        return 0;
    }
    mxrrow_kernel<X><<<sl_rows_grid(rows, 1u), SL_MXR_BLOCK, 0, st>>>((const X *)d_x, rows, n, v->impl, ddof, dt,
                                                                    (X *)d_out);
    SL_CUDA_CHECK_LAUNCH("mxrrow_kernel", v->name, err);
    return 0;
}

/* ---- `correct` mean/var/std row-wise (rows/rows.h's dedicated entry), float32 and 16-bit ------
 * mxrow_kernel: a block of MXR_ROW_BLOCK threads per row (grid stride over rows): mxf_kernel's
 * sums on the row (c = its first value; each thread its edge scalar, then its 16-byte vectors,
 * four loads in flight), warp shuffles and warp 0 over the warps, then thread 0 tests the box in
 * float64 (var/std: sl_mxf_box, sl_mxf_quick; the mean: sl_mxf_mean_decide with c;
 * h = MXF_CHAIN(n, B, W) + 16): certified, the row's result;
 * else the row's index into the workspace's list. mxrowx_kernel, behind it: a block per listed
 * row walks it (16-byte vectors, four loads in flight) in segments of MXR_X_SEG values, each
 * thread's running doubles taking the values exactly (mx_take: only TwoSum's nonzero errors and
 * the thread's sums at a segment's end go to the shared limbs), normalises the limbs after each
 * segment and rounds them (sl_mx_finish); the last block to take its ticket empties the list. A row's result is the
 * correctly rounded value whichever kernel writes it: a function of the row's values alone (not
 * B, the launch or the GPU). */
#define MXR_ROW_BLOCK 256u
#define MXR_ROW_WS_HEADER SL_MX_ROWS_WS_HEADER   /* [0, 4) the list's length, [4, 8) the ticket */

/* Thread t of T (a block's threads or a warp's lanes) over row[0, n): its edge scalars (the
 * head's and tail's elements t, t + T, ...) and its 16-byte vectors (t, t + T, ..., four loads in
 * flight) into a fresh accumulator, shifted by c = row[0]. */
template <typename X>
__device__ __forceinline__ sl_mxf_acc mxr_row_acc(const X *__restrict__ row, uint64_t n, unsigned t,
                                                  unsigned T)
{
    const sl_split sp = sl_row_split(row, n);
    const double c = n ? (double)sl_widen(row[0]) : 0.0;
    sl_mxf_acc a;
    sl_mxf_init(&a);
    sl_walk_values<4, SL_EDGES_FIRST>(row, sp, t, T,
                                      [&](X v, int) { sl_mxf_take(&a, (double)sl_widen(v), c); });
    return a;
}

/* A row's decision from its merged sums (chain length h): the mean by sl_mxf_mean_decide with
 * the row's shift c = row[0] (mxr_row_acc's), var/std by the box and its float64 test. */
template <typename X>
__device__ __forceinline__ int mxr_decide(const X *__restrict__ row, const sl_mxf_acc *a, uint64_t n,
                                          uint64_t h, int what, uint32_t ddof, sl_dtype dt, double *res)
{
    if (what == SL_MX_MEAN) return n && sl_mxf_mean_decide(a, (double)sl_widen(row[0]), n, h, dt, res);
    double lo[2], hi[2];
    return sl_mxf_box(what, a, n, h, ddof, dt, lo, hi) && sl_mxf_quick(what, lo, hi, n, ddof, dt, res);
}

template <typename X>
__global__ void __launch_bounds__(MXR_ROW_BLOCK)
mxrow_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, int what, uint32_t ddof,
             sl_dtype dt, unsigned char *work, X *out)
{
    enum { W = sl_vec<X>::W };
    __shared__ sl_mxf_acc s_w[MXR_ROW_BLOCK / 32u];
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    unsigned *g_list = reinterpret_cast<unsigned *>(work + MXR_ROW_WS_HEADER);
    const unsigned tid = threadIdx.x, B = MXR_ROW_BLOCK, lane = tid & 31u, warp = tid >> 5;
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        sl_mxf_acc a = mxr_row_acc<X>(x + r * n, n, tid, B);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) mxf_shfl(a, off);
        if (lane == 0) s_w[warp] = a;
        __syncthreads();
        if (warp == 0) {
            if (lane < B / 32u) a = s_w[lane];
            else sl_mxf_init(&a);
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) mxf_shfl(a, off);
            if (lane == 0) {
                double res;
                if (mxr_decide(x + r * n, &a, n, MXF_CHAIN(n, (uint64_t)B, W) + 16u, what, ddof, dt, &res))
                    mx_store(res, out + r);
                else
                    g_list[atomicAdd(g_count, 1u)] = (unsigned)r;
            }
        }
        __syncthreads();                             /* s_w is reused by the next row */
    }
}

/* mxroww_kernel: the same for short rows (n <= MXR_WARP_ROW_MAX; 16-bit rows up to 32,768 values
 * when they are many), a warp per row (MXR_ROW_BLOCK / 32 rows a block, grid stride over rows):
 * each lane its edge scalar and its vectors (four loads in flight), the warp's shuffles, lane 0's
 * box test with h = MXF_CHAIN(n, 32, W) + 16; no block barrier (a block per row of 4,096 values
 * gave each thread one or two vectors and two barriers a row). G < 32 (short 16-bit rows): a
 * group of G lanes a row, 32 / G rows a warp, its shuffles within the group, its first lane's
 * test with h = MXF_CHAIN(n, G, W) + 16 (a lane's chain: at most two edge scalars, one more than
 * MXF_CHAIN counts, then log2 G <= 4 levels: within the 16); the lanes' walks hold no collective,
 * so the rows of a warp may differ in alignment; a group past the last row takes the last row
 * again and writes nothing. Which: sl_layout.h's sl_rows_mx_lanes. */
#define MXR_WARP_ROW_MAX SL_ROWS_MX_WARP_ROW_MAX

template <typename X, unsigned G = 32u>
__global__ void __launch_bounds__(MXR_ROW_BLOCK)
mxroww_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, int what, uint32_t ddof,
              sl_dtype dt, unsigned char *work, X *out)
{
    enum { W = sl_vec<X>::W, RPW = 32u / G };
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    unsigned *g_list = reinterpret_cast<unsigned *>(work + MXR_ROW_WS_HEADER);
    const unsigned lane = threadIdx.x & 31u, WPB = MXR_ROW_BLOCK / 32u, t = lane % G, g = lane / G;
    const uint64_t wstride = (uint64_t)gridDim.x * WPB * RPW;
    for (uint64_t r0 = ((uint64_t)blockIdx.x * WPB + (threadIdx.x >> 5)) * RPW; r0 < rows; r0 += wstride) {
        const uint64_t r = r0 + g < rows ? r0 + g : rows - 1u;
        sl_mxf_acc a = mxr_row_acc<X>(x + r * n, n, t, G);
#pragma unroll
        for (int off = (int)G / 2; off > 0; off >>= 1) mxf_shfl(a, off, (int)G);
        if (t == 0 && r0 + g < rows) {
            double res;
            if (mxr_decide(x + r * n, &a, n, MXF_CHAIN(n, (uint64_t)G, W) + 16u, what, ddof, dt, &res))
                mx_store(res, out + r);
            else
                g_list[atomicAdd(g_count, 1u)] = (unsigned)r;
        }
    }
}

/* mxrowx_kernel's segments: at most two spills a value and one a thread more (mx_take,
 * mx_flush) keep a segment's limbs below 2^61 before their normalisation. */
#define MXR_X_SEG ((uint64_t)1 << 26)

template <typename X>
__global__ void __launch_bounds__(MXR_ROW_BLOCK)
mxrowx_kernel(const X *__restrict__ x, uint64_t n, int what, uint32_t ddof, sl_dtype dt,
              unsigned char *work, X *out)
{
    typedef mx_fmt<X> F;
    __shared__ unsigned long long s1[F::L1], s2[F::L2];
    __shared__ unsigned s_flags;
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    const unsigned *g_list = reinterpret_cast<const unsigned *>(work + MXR_ROW_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x;
    sl_rows_listed(g_count, g_count + 1, g_list, [&](uint64_t r) {
        const X *row = x + r * n;
        for (unsigned i = tid; i < (unsigned)F::L1; i += B) s1[i] = 0;
        for (unsigned i = tid; i < (unsigned)F::L2; i += B) s2[i] = 0;
        if (tid == 0) s_flags = 0;
        mx_barrier();
        unsigned flags = 0;
        for (uint64_t seg = 0; seg < n; seg += MXR_X_SEG) {   /* trip count uniform in the block */
            const uint64_t m = n - seg < MXR_X_SEG ? n - seg : MXR_X_SEG;
            const X *p = row + seg;
            double a1 = 0.0, a2 = 0.0;
            sl_walk_values<4, SL_EDGES_FIRST>(p, sl_row_split(p, m), tid, B, [&](X v, int) {
                mx_take<X>((double)sl_widen(v), what, flags, a1, a2, s1, s2);
            });
            mx_flush<X>(a1, a2, s1, s2);
            mx_barrier();
            if (tid == 0) mx_normalise<X>(s1, s2);
            mx_barrier();
        }
        if (flags) atomicOr(&s_flags, flags);
        mx_barrier();
        if (tid == 0)
            mx_store(sl_mx_finish(what, reinterpret_cast<int64_t *>(s1), F::L1,
                                  reinterpret_cast<int64_t *>(s2), F::L2, F::S, n, ddof, s_flags, dt),
                     out + r);
        mx_barrier();
    });
}

/* The exact kernel on the rows a row pass of grid blocks listed, behind it on st (at most 1024
 * blocks, a block a listed row). */
template <typename X>
static int mxrowx_launch(const sl_variant *v, const void *d_x, uint64_t n, const sl_launch *cfg, sl_dtype dt,
                         void *d_work, void *d_out, unsigned grid, cudaStream_t st, sl_err *err)
{
    const unsigned gx = grid < 1024u ? grid : 1024u;
    mxrowx_kernel<X><<<gx, MXR_ROW_BLOCK, 0, st>>>((const X *)d_x, n, v->impl, cfg->ddof, dt,
                                                   (unsigned char *)d_work, (X *)d_out);
    SL_CUDA_CHECK_LAUNCH_LISTED("mxrowx_kernel", v->name, err, d_work, st);
    return 0;
}

template <typename X>
static int mx_rows_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                          const sl_launch *cfg, sl_dtype dt, void *d_work, void *d_out,
                          cudaStream_t st, sl_err *err)
{
    unsigned grid;
    const unsigned lanes = sl_rows_mx_lanes(rows, n, sizeof(X), cfg->sm_count);
    if (lanes) {
        grid = sl_rows_grid(rows, MXR_ROW_BLOCK / 32u * (32u / lanes));
        auto kernel = mxroww_kernel<X>;
        if constexpr (sizeof(X) == 2)
            kernel = lanes == 8u ? mxroww_kernel<X, 8u> : lanes == 16u ? mxroww_kernel<X, 16u> : kernel;
        kernel<<<grid, MXR_ROW_BLOCK, 0, st>>>((const X *)d_x, rows, n, v->impl, cfg->ddof, dt,
                                              (unsigned char *)d_work, (X *)d_out);
        SL_CUDA_CHECK_LAUNCH("mxroww_kernel", v->name, err);
    } else {
        grid = sl_rows_grid(rows, 1u);
        mxrow_kernel<X><<<grid, MXR_ROW_BLOCK, 0, st>>>((const X *)d_x, rows, n, v->impl, cfg->ddof,
                                                        dt, (unsigned char *)d_work, (X *)d_out);
        SL_CUDA_CHECK_LAUNCH("mxrow_kernel", v->name, err);
    }
    return mxrowx_launch<X>(v, d_x, n, cfg, dt, d_work, d_out, grid, st, err);
}

/* ---- `correct` mean/var/std row-wise, float64: the cheap certified pass of mx_fast64.h per row --
 * mxdrow_kernel<T>: T = 32 (rows of at most MXR_WARP_ROW_MAX values), a warp a row, MXR_ROW_BLOCK /
 * 32 rows a block, no barrier; T = MXR_ROW_BLOCK, a block a row (grid stride over rows). Thread t
 * of the row's T threads takes its edge scalar and its 16-byte vectors (four loads in flight) into
 * its pairs (sl_mxd_take, shift c = row[0]); the warp's shuffles (and, a block a row, warp 0 over
 * the warps' pairs: mxd_block); then lanes 0 and 1 of the deciding warp test the box
 * (sl_mxd_bounds, h = MXF_CHAIN(n, T, 2) + 16: the thread's elements and 10 merge levels) by the
 * quick double-double decision (sl_mxd_quick; the mean: sl_mxd_mean_decide with c) and, when it
 * cannot settle a var/std row, round the box's two ends exactly at once (sl_mxd_end): when they
 * agree, the row's result; else the row goes into the workspace's list,
 * which mxrowx_kernel<double> sums exactly behind it. A row's result is the correctly rounded
 * value whichever kernel writes it: a function of the row's values alone. */
__device__ __forceinline__ sl_mxd_acc mxdr_row_acc(const double *__restrict__ row, uint64_t n, unsigned t,
                                                   unsigned T, double &c)
{
    const sl_split sp = sl_row_split(row, n);
    c = n ? row[0] : 0.0;
    sl_mxd_acc a;
    sl_mxd_init(&a);
    sl_walk_values<4, SL_EDGES_FIRST>(row, sp, t, T, [&](double v, int) { sl_mxd_take(&a, v, c); });
    return a;
}

/* The whole warp calls it, lane 0 holding the row's merged pairs a; c the row's shift. */
__device__ __forceinline__ void mxdr_decide(sl_mxd_acc a, double c, uint64_t n, uint64_t h, int what,
                                            uint32_t ddof, uint64_t r, unsigned *g_count, unsigned *g_list,
                                            double *out)
{
    const unsigned lane = threadIdx.x & 31u;
    a.s1 = __shfl_sync(SL_FULL_MASK, a.s1, 0);
    a.c1 = __shfl_sync(SL_FULL_MASK, a.c1, 0);
    a.s2 = __shfl_sync(SL_FULL_MASK, a.s2, 0);
    a.c2 = __shfl_sync(SL_FULL_MASK, a.c2, 0);
    double e = 0.0, q = 0.0;
    int ok = 0, quick = 0;
    if (lane < 2u) quick = mxd_lane_decide(&a, c, n, h, what, ddof, lane ? 1 : -1, &q, &e, &ok);
    const double other = __shfl_sync(SL_FULL_MASK, e, 1);
    if (lane == 0) {
        double res;
        if (quick) out[r] = q;
        else if (ok && sl_rsum_certify_agree(e, other, &res)) out[r] = res;
        else g_list[atomicAdd(g_count, 1u)] = (unsigned)r;
    }
}

/* At least 4 blocks an SM (64 registers a thread): without the bound ptxas gave the kernel the 255
 * registers of sl_mxd_end's limbs, one block an SM. */
template <unsigned T>
__global__ void __launch_bounds__(MXR_ROW_BLOCK, 4)
mxdrow_kernel(const double *__restrict__ x, uint64_t rows, uint64_t n, int what, uint32_t ddof,
              unsigned char *work, double *out)
{
    __shared__ sl_mxd_acc s_w[MXR_ROW_BLOCK / 32u];
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    unsigned *g_list = reinterpret_cast<unsigned *>(work + MXR_ROW_WS_HEADER);
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5, WPB = MXR_ROW_BLOCK / 32u;
    const uint64_t h = MXF_CHAIN(n, (uint64_t)T, 2u) + 16u;
    if (T == 32u) {
        for (uint64_t r = (uint64_t)blockIdx.x * WPB + warp; r < rows; r += (uint64_t)gridDim.x * WPB) {
            double c;
            sl_mxd_acc a = mxdr_row_acc(x + r * n, n, lane, 32u, c);
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) mxd_shfl(a, off);
            mxdr_decide(a, c, n, h, what, ddof, r, g_count, g_list, out);
        }
    } else {
        for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
            double c;
            sl_mxd_acc a = mxdr_row_acc(x + r * n, n, tid, T, c);
            a = mxd_block(a, s_w, lane, warp, T);
            if (warp == 0) mxdr_decide(a, c, n, h, what, ddof, r, g_count, g_list, out);
            sl_bar_any::sync();                      /* s_w is reused by the next row */
        }
    }
}

static int mxd_rows_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                           const sl_launch *cfg, void *d_work, void *d_out, cudaStream_t st, sl_err *err)
{
    unsigned grid;
    if (n <= MXR_WARP_ROW_MAX) {
        grid = sl_rows_grid(rows, MXR_ROW_BLOCK / 32u);
        mxdrow_kernel<32u><<<grid, MXR_ROW_BLOCK, 0, st>>>((const double *)d_x, rows, n, v->impl, cfg->ddof,
                                                          (unsigned char *)d_work, (double *)d_out);
    } else {
        grid = sl_rows_grid(rows, 1u);
        mxdrow_kernel<MXR_ROW_BLOCK><<<grid, MXR_ROW_BLOCK, 0, st>>>((const double *)d_x, rows, n, v->impl,
                                                                    cfg->ddof, (unsigned char *)d_work,
                                                                    (double *)d_out);
    }
    SL_CUDA_CHECK_LAUNCH("mxdrow_kernel", v->name, err);
    return mxrowx_launch<double>(v, d_x, n, cfg, SL_F64, d_work, d_out, grid, st, err);
}

} // namespace

extern "C" size_t sl_mx_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n;
    if (dt == SL_F64)                        /* the exact kernel's, the cheap pass's */
        return mxd_offset() + MXD_WS_HEADER + sizeof(sl_mxd_acc) * (cfg && cfg->grid ? cfg->grid : 1u);
    return mxf_offset(dt) + MXF_WS_BYTES;   /* the certified pass, the cheap pass */
}

extern "C" int sl_mx_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                         const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                         void *stream, sl_err *err)
{
    const cudaStream_t st = (cudaStream_t)stream;
    if (n >= SL_SACC_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name, (unsigned long long)n);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (sl_check_shape(v, cfg, 32u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_mx_workspace(v, n, dt, cfg), err) ||
        (n && sl_check_aligned(v, d_x, dt, err)))
        return -1;
    switch (dt) {   /* n = 0 launches too: the kernel's finish writes NaN (mean, n <= ddof) */
    case SL_F64: return mx_launch<double>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    case SL_F32: return mx_launch<float>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    case SL_F16: return mx_launch<__half>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    case SL_BF16: return mx_launch<__nv_bfloat16>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    }
    return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
}

extern "C" size_t sl_mxr_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt;
    return SL_MX_WS_HEADER + 2 * sizeof(sl_rsum_state) * (size_t)cfg->grid;
}

extern "C" int sl_mxr_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                          const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                          void *stream, sl_err *err)
{
    const cudaStream_t st = (cudaStream_t)stream;
    if (n >= SL_RSUM_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name, (unsigned long long)n);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (cfg->block > SL_MXR_BLOCK)
        return sl_err_set(err, "%s: block %u above the kernel's %u", v->name, cfg->block, SL_MXR_BLOCK);
    if (sl_check_shape(v, cfg, 32u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_mxr_workspace(v, n, dt, cfg), err) ||
        (n && sl_check_aligned(v, d_x, dt, err)))
        return -1;
    switch (dt) {
    case SL_F64: return mxr_launch<double>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    case SL_F32: return mxr_launch<float>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    case SL_F16: return mxr_launch<__half>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    case SL_BF16: return mxr_launch<__nv_bfloat16>(v, cfg, d_x, n, dt, d_work, d_result, st, err);
    }
    return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
}


extern "C" int sl_mxr_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                               sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                               void *d_results, void *stream, sl_err *err)
{
    const cudaStream_t st = (cudaStream_t)stream;
    if (n >= SL_RSUM_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large", v->name, (unsigned long long)n);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (rows == 0) return 0;
    /* rows too few to fill the GPU a block each: the 1-D launcher on each row, resolved at its
     * address (rows.c's workspace alike) */
    if (sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u))
        return sl_rows_each_1d(v, d_x, rows, n, dt, cfg, d_work, work_bytes, d_results, stream, err);
    if (n && sl_check_aligned(v, d_x, dt, err)) return -1;
    const uint32_t ddof = cfg ? cfg->ddof : 0u;
    switch (dt) {
    case SL_F64: return mxrrow_launch<double>(v, d_x, rows, n, ddof, dt, d_results, st, err);
    case SL_F32: return mxrrow_launch<float>(v, d_x, rows, n, ddof, dt, d_results, st, err);
    case SL_F16: return mxrrow_launch<__half>(v, d_x, rows, n, ddof, dt, d_results, st, err);
    case SL_BF16: return mxrrow_launch<__nv_bfloat16>(v, d_x, rows, n, ddof, dt, d_results, st, err);
    }
    return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
}

extern "C" int sl_mx_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                              sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                              void *d_results, void *stream, sl_err *err)
{
    const cudaStream_t st = (cudaStream_t)stream;
    if (n >= SL_SACC_MAX_N) return sl_err_set(err, "%s: n = %llu is too large", v->name, (unsigned long long)n);
    if (rows == 0) return 0;
    /* the 1-D launcher on each row, resolved at its address: rows too few to fill the GPU a block
     * each (rows.c's workspace alike) */
    if (sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u))
        return sl_rows_each_1d(v, d_x, rows, n, dt, cfg, d_work, work_bytes, d_results, stream, err);
    if (rows > 0xffffffffull) return sl_err_set(err, "%s: %llu rows are too many (< 2^32)", v->name, (unsigned long long)rows);
    const size_t need = SL_MX_ROWS_WS_BYTES(rows);
    if (!d_work || work_bytes < need)
        return sl_err_set(err, "%s: the row kernels need %zu bytes of workspace, have %zu", v->name, need, work_bytes);
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    sl_launch c = cfg ? *cfg : sl_launch{};
    if (dt == SL_F64) return mxd_rows_launch(v, d_x, rows, n, &c, d_work, d_results, st, err);
    return dt == SL_F16    ? mx_rows_launch<__half>(v, d_x, rows, n, &c, dt, d_work, d_results, st, err)
           : dt == SL_BF16 ? mx_rows_launch<__nv_bfloat16>(v, d_x, rows, n, &c, dt, d_work, d_results, st, err)
                           : mx_rows_launch<float>(v, d_x, rows, n, &c, dt, d_work, d_results, st, err);
}

/* dot.cu: GPU kernels and the one C-callable entry of the dot variants (naive, f64-acc, kahan,
 * dot2, half-acc: dot_kernel; correct: dot_exact_kernel; reproducible: dot_repro_kernel). The algorithms and their order of
 * operations are described in dot.c, whose CPU twins repeat every operation below in the same
 * order; determinism: run-to-run (tree variants), correctly rounded (correct).
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds and multiplies rounded to nearest even
 * (--fmad=false -ftz=false: no contraction of x*y into the add); dot2's TwoProduct is the explicit
 * fma()/fmaf() of dot.h's steps, the only FMAs; float16/bfloat16 input widened exactly; half-acc's
 * 16-bit operations done in float32 and rounded once to the 16-bit format (24 >= 2p + 2).
 *
 * Steps (dot_kernel, one launch):
 *   1. grid-stride read of x and y with 16-byte loads (four vector pairs in flight per thread):
 *      thread g keeps one state per vector lane (s; kahan (s, c); dot2 (s, e)) for its head element,
 *      its vectors j = g, g + T, ... and its tail element; the lanes combine in a fixed tree;
 *   2. block tree (sl_block_reduce: plain adds, or the compensated pair add sl_op_pair);
 *   3. last-block finish in sl_grid_finish's order; the last block rounds s (+ e) once to the
 *      input format.
 * correct, step 0 (exact/pairsum.cuh's sl_psum_kernel): the products summed as a Fast2Sum pair
 * per thread, merged through the block and by the last block, which rounds the two ends of a
 * rigorous box around the pair; when they agree that is the result, else it opens step 1's gate.
 * correct, step 1, behind step 0's gate (sl_cert_kernel<In, 2, ...>, exact/certified.cuh): the
 * exact pieces of the products (float32/16-bit: the product in float64; float64: p and
 * fma(x, y, -p)) into a certified 4-fold binned sum; its last block writes the correctly rounded result when both ends of the
 * sum's interval round alike, else sets the workspace's fallback word (DOT_WS_FALLBACK).
 * correct, step 2, enqueued behind step 1 on the stream: dot_exact_kernel, which returns at once
 * when the word is clear (one empty launch) and otherwise does the exact sum below, clearing it.
 * dot_exact_kernel (correct): every product split exactly into doubles (float32/16-bit: the
 * product itself; float64: p and fma(x, y, -p)), each added into the block's shared limbs
 * (exact/limbs.h's split, atomics); a float64 product of finite non-zero factors outside
 * [2^-968, 2^1000) instead into the low or high window's shared limbs (dot.h: one factor scaled by
 * 2^1184 or 2^-1184, its TwoProduct pieces; an out-of-line call, flagged); the block's limbs
 * normalised and added into the workspace's limbs (a window's only when flagged); the last block
 * rounds them once (kernels/exact/limbs.h's sl_sacc_round_mode; float32/16-bit: to odd in float64,
 * then to nearest in the format; with a flagged window, the three together: dot.h's
 * sl_dot_round_windows) and zeroes them for the next launch.
 * Performance considerations: the tree kernels are memory-bound at large n (two 16-byte loads per
 * W products); correct's step 1 makes one (float64: two) binned deposits per element, the ratio
 * of superacc's float64 path to its reads; the exact kernel spends shared-memory atomics per
 * product (2-6 per element), 0.007x of the read rate (33-40 ms at 2^28 float32), and runs only
 * when the certificate fails (exact cancellation, sums at a rounding boundary, specials). */
#include <stdint.h>
#include "reduce/reduce.cuh"
#include "reduce/acc.cuh"
#include "exact/limbs.h"
#include "exact/binned.h"
#include "exact/binned_merge.cuh"
#include "exact/certified.cuh"
#include "exact/pairsum.cuh"
#include "dot/dot.h"

namespace {

/* The plain add with rounding policy R (half-acc's tree rounds every add to 16 bits). */
template <typename T, class R> struct dot_plain_op {
    typedef T A;
    static __device__ __forceinline__ A zero() { return T(0); }
    static __device__ __forceinline__ A add(A a, A b) { return R::r(a + b); }
    static __device__ __forceinline__ A shfl(A v, int off) { return __shfl_down_sync(SL_FULL_MASK, v, off); }
    static __device__ __forceinline__ void store(A *p, A v) { *p = v; }
    static __device__ __forceinline__ A load_cg(const A *p) { return __ldcg(p); }
};

/* Input -> accumulator, exact (16-bit and float32 widen exactly). */
template <typename Acc, typename In> __device__ __forceinline__ Acc widen(In x) { return sl_acc_of<Acc>(x); }

/* The result rounded once to the input format In. */
template <typename In> __device__ __forceinline__ In dot_out(float a);
template <typename In> __device__ __forceinline__ In dot_out(double a);
template <> __device__ __forceinline__ float dot_out<float>(float a) { return a; }
template <> __device__ __forceinline__ float dot_out<float>(double a) { return __double2float_rn(a); }
template <> __device__ __forceinline__ double dot_out<double>(double a) { return a; }
template <> __device__ __forceinline__ __half dot_out<__half>(float a) { return __float2half_rn(a); }
template <> __device__ __forceinline__ __half dot_out<__half>(double a) { return __double2half(a); }
template <> __device__ __forceinline__ __nv_bfloat16 dot_out<__nv_bfloat16>(float a) { return __float2bfloat16_rn(a); }
template <> __device__ __forceinline__ __nv_bfloat16 dot_out<__nv_bfloat16>(double a) { return __double2bfloat16(a); }

/* dot.h's steps on the accumulator format. */
__device__ __forceinline__ void kahan_step(float *s, float *c, float p) { sl_dot_kahan_f(s, c, p); }
__device__ __forceinline__ void kahan_step(double *s, double *c, double p) { sl_dot_kahan_d(s, c, p); }
__device__ __forceinline__ void dot2_step(float *s, float *e, float x, float y) { sl_dot_dot2_f(s, e, x, y); }
__device__ __forceinline__ void dot2_step(double *s, double *e, double x, double y) { sl_dot_dot2_d(s, e, x, y); }

/* Thread g's lanes s[k] (and e[k]: kahan's c, dot2's error) over its elements (step 1 above). */
template <typename In, typename Acc, class R, int KIND>
__device__ __forceinline__ void dot_lanes(const In *__restrict__ x, const In *__restrict__ y, uint64_t n,
                                          uint64_t head, uint64_t nv, Acc *s, Acc *e)
{
    typedef typename sl_vec<In>::type V;
    constexpr int W = sl_vec<In>::W;
    constexpr int U = 4;
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < W; k++) s[k] = e[k] = Acc(0);
#define DOT_STEP(k_, xin, yin)                                                                \
    do {                                                                                      \
        const Acc a_ = widen<Acc>(xin), b_ = widen<Acc>(yin);                                 \
        if (KIND == SL_DOT_NAIVE) s[k_] = R::r(s[k_] + R::r(a_ * b_));                        \
        else if (KIND == SL_DOT_KAHAN) kahan_step(&s[k_], &e[k_], a_ * b_);                   \
        else dot2_step(&s[k_], &e[k_], a_, b_);                                               \
    } while (0)
    if (g < head) DOT_STEP(0, x[g], y[g]);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    const V *__restrict__ yv = reinterpret_cast<const V *>(y + head);
    uint64_t j = g;
    for (; j + (U - 1) * T < nv; j += U * T) {
        V vx[U], vy[U];
#pragma unroll
        for (int u = 0; u < U; u++) { vx[u] = xv[j + u * T]; vy[u] = yv[j + u * T]; }
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < W; k++) DOT_STEP(k, sl_vec_lane(vx[u], k), sl_vec_lane(vy[u], k));
    }
    for (; j < nv; j += T) {
        const V vx = xv[j], vy = yv[j];
#pragma unroll
        for (int k = 0; k < W; k++) DOT_STEP(k, sl_vec_lane(vx, k), sl_vec_lane(vy, k));
    }
    const uint64_t ts = head + nv * W;
    if (g < n - ts) DOT_STEP(0, x[ts + g], y[ts + g]);
#undef DOT_STEP
}

/* A thread's W lane values l[0..W) combined in the shape W fixes (dot.c's lanes_plain and
 * lanes_pair): W=8: ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7)); W=4: (l0+l1)+(l2+l3); W=2: l0+l1. */
template <class Op, int W>
__device__ __forceinline__ typename Op::A dot_lane_tree(const typename Op::A *l)
{
#define P(a, b) Op::add((a), (b))
    if (W == 8) return P(P(P(l[0], l[1 % W]), P(l[2 % W], l[3 % W])), P(P(l[4 % W], l[5 % W]), P(l[6 % W], l[7 % W])));
    if (W == 4) return P(P(l[0], l[1 % W]), P(l[2 % W], l[3 % W]));
    return P(l[0], l[1 % W]);
#undef P
}

/* Thread g's plain sum of its products (naive's lanes and lane tree, no rounding but the
 * accumulator's): kahan's value for a thread whose pair is not finite; out of line, so that its
 * loop's registers do not add to the Kahan loop's. */
template <typename In, typename Acc>
__device__ __noinline__ Acc dot_plain_value(const In *__restrict__ x, const In *__restrict__ y, uint64_t n,
                                            uint64_t head, uint64_t nv)
{
    constexpr int W = sl_vec<In>::W;
    Acc s[W], e[W];
    dot_lanes<In, Acc, sl_rnd_none, SL_DOT_NAIVE>(x, y, n, head, nv, s, e);
    return dot_lane_tree<dot_plain_op<Acc, sl_rnd_none>, W>(s);
}

template <typename In, typename Acc, class R, int KIND>
__global__ void __launch_bounds__(1024)
dot_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t n, uint64_t head,
           uint64_t nv, void *work, In *result)
{
    constexpr int W = sl_vec<In>::W;
    Acc s[W], e[W];
    dot_lanes<In, Acc, R, KIND>(x, y, n, head, nv, s, e);
    if (KIND == SL_DOT_NAIVE) {
        typedef dot_plain_op<Acc, R> Op;
        __shared__ Acc s_warp[32];
        Acc tv = dot_lane_tree<Op, W>(s);
        tv = sl_block_reduce<Op>(tv, s_warp);
        Acc tot;
        if (!sl_grid_reduce<Op>(tv, sl_ws_partials<Acc>(work), sl_ws_counter(work), &tot)) return;
        if (threadIdx.x == 0) *result = dot_out<In>(tot);
    } else {
        typedef sl_op_pair<Acc> Op;
        typedef typename Op::A A;
        __shared__ A s_warp[32];
        A l[W];
#pragma unroll
        for (int k = 0; k < W; k++) {
            l[k].s = s[k];
            l[k].e = KIND == SL_DOT_KAHAN ? -e[k] : e[k];   /* Kahan's c is minus the error */
        }
        A tv = dot_lane_tree<Op, W>(l);
        /* kahan: a thread whose pair is not finite (an Inf or NaN among its products, or its
         * running sum past the format's range, where the compensation turns Inf into NaN) gives
         * (its plain sum, 0): its products added again in plain lanes (dot.c's tree_cpu) */
        if (KIND == SL_DOT_KAHAN && !isfinite(tv.s)) {
            tv.s = dot_plain_value<In, Acc>(x, y, n, head, nv);
            tv.e = Acc(0);
        }
        tv = sl_block_reduce<Op>(tv, s_warp);
        A tot;
        if (!sl_grid_reduce<Op>(tv, sl_ws_partials<A>(work), sl_ws_counter(work), &tot)) return;
        /* fl(s + e); a non-finite s as it is (e is NaN beside an Inf) */
        if (threadIdx.x == 0) *result = dot_out<In>(isfinite(tot.s) ? Acc(tot.s + tot.e) : tot.s);
    }
}

/* ---- correct ------------------------------------------------------------------------------- */
#define DOT_WS_FLAGS 4u       /* [4, 8): the inputs' flags (atomicOr); limbs from SL_WS_HEADER */
#define DOT_WS_FALLBACK 8u    /* [8, 12): set by the certified kernel when it cannot decide */
#define DOT_WS_LO (SL_WS_HEADER + (size_t)SL_SACC_LIMBS_F64 * 8u)     /* dot.h's low window */
#define DOT_WS_HI (DOT_WS_LO + (size_t)SL_DOT_LO_LIMBS * 8u)          /* dot.h's high window */
#define DOT_WS_ALL (DOT_WS_HI + (size_t)SL_DOT_HI_LIMBS * 8u)         /* their rounding's scratch */
#define DOT_WS_CERT (DOT_WS_ALL + (size_t)SL_DOT_ALL_LIMBS * 8u)       /* the certified kernel's */

/* One exact piece d (a finite multiple of 2^-scale) added into the block's shared limbs
 * s_acc[0..L): the exact layer's split into at most three 32-bit chunks, each a shared-memory
 * atomic add (the twin's add_chunks, dot.c). */
__device__ __forceinline__ void spill(double d, int scale, unsigned long long *s_acc, int L)
{
    int idx, neg;
    uint64_t c[3];
    if (!sl_sacc_split_f64(d, scale, &idx, c, &neg)) return;
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (c[k] && idx + k < L)
            atomicAdd(&s_acc[idx + k], neg ? 0ull - (unsigned long long)c[k] : (unsigned long long)c[k]);
}
/* A piece of the main window with its sign into the flags (the twin's add_piece). */
__device__ __forceinline__ void put(double d, unsigned long long *s_acc, unsigned *fl)
{
    if (!signbit(d)) *fl |= SL_SACC_ANYPOS;
    spill(d, SL_SACC_SCALE_F64, s_acc, SL_SACC_LIMBS_F64);
}

/* A float64 product in a scaled window (dot.h): its scaled pieces into the block's low or high
 * limbs; returns the flags it sets (the twin's add_scaled). Out of line: the loop's code for the
 * products of the main window stays as it is. */
__device__ __noinline__ unsigned exact_scaled(double a, double b, unsigned long long *s_lo,
                                              unsigned long long *s_hi)
{
    double hi, lo;
    if (sl_dot_scaled_product(a, b, &hi, &lo)) {
        spill(hi, SL_DOT_HI_SCALE, s_hi, SL_DOT_HI_LIMBS);
        spill(lo, SL_DOT_HI_SCALE, s_hi, SL_DOT_HI_LIMBS);
        return SL_SACC_ANYPOS | SL_DOT_FL_HIGH;
    }
    spill(hi, SL_SACC_SCALE_F64, s_lo, SL_DOT_LO_LIMBS);
    spill(lo, SL_SACC_SCALE_F64, s_lo, SL_DOT_LO_LIMBS);
    return SL_SACC_ANYPOS | SL_DOT_FL_LOW;
}

/* The product of two exact doubles a, b of an input of format dt into the block's limbs (the
 * twin's add_product, dot.c, piece by piece). */
__device__ __forceinline__ void exact_product(double a, double b, bool f64, unsigned long long *s_acc,
                                              unsigned long long *s_lo, unsigned long long *s_hi,
                                              unsigned *fl)
{
    const double p = a * b;
    if (f64 && sl_dot_scaled_window(a, b, p)) {
        *fl |= exact_scaled(a, b, s_lo, s_hi);
        return;
    }
    if (!isfinite(p)) {
        if (!signbit(p)) *fl |= SL_SACC_ANYPOS;
        *fl |= isnan(p) ? SL_SACC_NAN : signbit(p) ? SL_SACC_NINF : SL_SACC_PINF;
        return;
    }
    put(p, s_acc, fl);
    if (f64 && p != 0.0) {
        const double lo = fma(a, b, -p);
        if (lo != 0.0) put(lo, s_acc, fl);
    }
}

/* A window's shared limbs s[0..L) normalised (thread 0, a private int64_t copy: see the main
 * limbs') and added into the workspace's g[0..L). */
__device__ __noinline__ void flush_window(const unsigned long long *s, unsigned long long *g, int L)
{
    int64_t lb[SL_DOT_LO_LIMBS];
    for (int i = 0; i < L; i++) lb[i] = (int64_t)s[i];
    sl_sacc_normalise(lb, L);
    for (int i = 0; i < L; i++)
        if (lb[i]) atomicAdd(&g[i], (unsigned long long)lb[i]);
}
/* The last block's rounding when a scaled window holds pieces (float64 only; thread 0): the
 * three windows' limbs read from the workspace (and zeroed there) into the combined array of
 * dot.h (in the workspace too: no large local array in the kernel), rounded once there. */
__device__ __noinline__ double round_windows(unsigned char *w, unsigned flags)
{
    int64_t *all = reinterpret_cast<int64_t *>(w + DOT_WS_ALL);
    unsigned long long *g_main = reinterpret_cast<unsigned long long *>(w + SL_WS_HEADER);
    unsigned long long *g_lo = reinterpret_cast<unsigned long long *>(w + DOT_WS_LO);
    unsigned long long *g_hi = reinterpret_cast<unsigned long long *>(w + DOT_WS_HI);
    for (int i = 0; i < SL_DOT_ALL_LIMBS; i++) all[i] = 0;
    for (int i = 0; i < SL_SACC_LIMBS_F64; i++) {
        all[SL_DOT_MAIN_AT + i] += (int64_t)__ldcg(&g_main[i]);
        g_main[i] = 0ull;                        /* zero for the next launch */
    }
    for (int i = 0; i < SL_DOT_LO_LIMBS; i++) {
        all[i] += (int64_t)__ldcg(&g_lo[i]);
        g_lo[i] = 0ull;
    }
    for (int i = 0; i < SL_DOT_HI_LIMBS; i++) {
        all[SL_DOT_HI_AT + i] += (int64_t)__ldcg(&g_hi[i]);
        g_hi[i] = 0ull;
    }
    return sl_dot_round_all(all, flags);
}

template <typename In>
__global__ void __launch_bounds__(512)
dot_exact_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t n, sl_dtype dt,
                 void *work, In *result)
{
    constexpr int L = SL_SACC_LIMBS_F64;
    unsigned *g_fb = reinterpret_cast<unsigned *>(static_cast<unsigned char *>(work) + DOT_WS_FALLBACK);
    /* the certified kernel ran first: nothing to do unless it could not decide (every block
     * reads the word before taking its ticket; the last block clears it after every ticket) */
    if (*(volatile unsigned *)g_fb == 0u) return;
    __shared__ unsigned long long s_acc[L], s_lo[SL_DOT_LO_LIMBS], s_hi[SL_DOT_HI_LIMBS];
    __shared__ unsigned s_flags;
    for (int i = threadIdx.x; i < L; i += blockDim.x) s_acc[i] = 0ull;
    for (int i = threadIdx.x; i < SL_DOT_LO_LIMBS; i += blockDim.x) s_lo[i] = 0ull;
    for (int i = threadIdx.x; i < SL_DOT_HI_LIMBS; i += blockDim.x) s_hi[i] = 0ull;
    if (threadIdx.x == 0) s_flags = 0u;
    __syncthreads();
    unsigned fl = 0u;
    const bool f64 = dt == SL_F64;
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += T)
        exact_product((double)sl_widen(x[i]), (double)sl_widen(y[i]), f64, s_acc, s_lo, s_hi, &fl);
    if (fl) atomicOr(&s_flags, fl);
    __syncthreads();
    unsigned char *w = static_cast<unsigned char *>(work);
    unsigned *g_flags = reinterpret_cast<unsigned *>(w + DOT_WS_FLAGS);
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(w + SL_WS_HEADER);
    if (threadIdx.x == 0) {
        /* normalised in a private int64_t copy: the shared limbs are unsigned long long, and
         * writing them through an int64_t pointer and reading them back as unsigned long long
         * in the same thread is an aliasing violation the compiler may reorder */
        int64_t lb[L];
        for (int i = 0; i < L; i++) lb[i] = (int64_t)s_acc[i];
        sl_sacc_normalise(lb, L);   /* limbs 0..L-2 in [0, 2^32): < 2^52 over 2^20 blocks */
        for (int i = 0; i < L; i++)
            if (lb[i]) atomicAdd(&g_acc[i], (unsigned long long)lb[i]);
        if (s_flags & SL_DOT_FL_LOW)
            flush_window(s_lo, reinterpret_cast<unsigned long long *>(w + DOT_WS_LO), SL_DOT_LO_LIMBS);
        if (s_flags & SL_DOT_FL_HIGH)
            flush_window(s_hi, reinterpret_cast<unsigned long long *>(w + DOT_WS_HI), SL_DOT_HI_LIMBS);
        if (s_flags) atomicOr(g_flags, s_flags);
    }
    if (!sl_ticket_last<sl_bar_aligned, true>(sl_ws_counter(work))) return;
    if (threadIdx.x != 0) return;
    unsigned flags = __ldcg(g_flags);
    *g_flags = 0u;
    *g_fb = 0u;
    *sl_ws_counter(work) = 0u;
    if (flags & (SL_DOT_FL_LOW | SL_DOT_FL_HIGH)) {   /* float64 only (n > 0) */
        *result = dot_out<In>(round_windows(w, flags));
        return;
    }
    int64_t limb[L];
    for (int i = 0; i < L; i++) {
        limb[i] = (int64_t)__ldcg(&g_acc[i]);
        g_acc[i] = 0ull;                         /* zero for the next launch */
    }
    if (n == 0) flags |= SL_SACC_ANYPOS;         /* n = 0: +0 */
    if (f64) {
        *result = dot_out<In>(sl_sacc_round_mode(limb, L, 0, SL_F64, flags, 0));
    } else {
        const double odd = sl_sacc_round_mode(limb, L, 0, SL_F64, flags, 1);
        *result = dot_out<In>(odd);
    }
}

/* ---- reproducible ---------------------------------------------------------------------------
 * Thread: its elements' pieces (as the twin's repro_cpu) into one binned accumulator: the
 * 16-byte vectors of x and y, U a step (reduce/walk.cuh's sl_walk2_groups_f64: one split serves
 * both, they share the address modulo 16), in groups of eight through exact/binned.h's
 * sl_rsum_take_products_f64 (one capacity check for eight products, -0 where a tail is left
 * out), edge values and leftover vectors one by one (sl_rsum_take_product1_f64); then its state. Block:
 * the states merged (exact/binned_merge.cuh: shuffles, then warp 0); last block: the blocks'
 * states (thread t: states t, t + B, ..., then the block), rounded once by thread 0. The state
 * is a function of the multiset of pieces: the same bits for every grid, block and order. */
template <typename In>
__device__ __forceinline__ void dot_repro_take(sl_rsum_thr_f64 &a, const In *x, const In *y, const sl_split &s,
                                               uint64_t t, uint64_t T, bool f64)
{
    enum { U = sl_vec<In>::W >= 8 ? 2 : 4 };
    sl_walk2_groups_f64<U, SL_RSUM_GROUP, SL_EDGES_FIRST>(
        x, y, s, t, T, [&](const double *xa, const double *yb) { sl_rsum_take_products_f64(&a, xa, yb, f64); },
        [&](In xi, In yi) { sl_rsum_take_product1_f64(&a, (double)sl_widen(xi), (double)sl_widen(yi), f64); });
}
/* The merged state of n products rounded once: float64 to nearest even; the narrower formats to
 * odd in float64, then to nearest even in In (the twin's). */
template <typename In>
__device__ __forceinline__ In dot_repro_out(const sl_rsum_state &t, uint64_t n, bool f64)
{
    if (n == 0) return dot_out<In>(0.0);
    if (f64) return dot_out<In>(sl_rsum_state_round(&t, SL_F64));
    return dot_out<In>(sl_rsum_state_round_mode_k(&t, SL_F64, SL_RSUM_K, 1));
}

template <typename In>
__global__ void __launch_bounds__(256)
dot_repro_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t n, uint64_t head, uint64_t nv,
                 sl_dtype dt, void *work, In *result)
{
    __shared__ sl_rsum_state s_w[32];
    sl_rsum_thr_f64 a;
    sl_rsum_init_f64(&a);
    const bool f64 = dt == SL_F64;
    dot_repro_take<In>(a, x, y, sl_split_of<In>(n, head, nv), (uint64_t)blockIdx.x * blockDim.x + threadIdx.x,
                       (uint64_t)gridDim.x * blockDim.x, f64);
    sl_rsum_state st;
    sl_rsum_to_state_f64(&a, &st);
    sl_rsum_grid_finish<SL_RSUM_K>(st, s_w, work, [&](const sl_rsum_state &t) { *result = dot_repro_out<In>(t, n, f64); });
}

/* Row-wise (rows/rows.h's two-input entry): row r of x with row r of y (y + r y_stride), a block
 * of DOT_ROWS_BLOCK threads a row (grid stride over rows), dot_repro_take over the row's own
 * split (x's row address; its row of y shares it modulo 16), the threads' states merged through
 * the block, thread 0 rounds as the 1-D kernel's last block does; rows of at most
 * SL_ROWS_RS_WARP_ROW_MAX values: a warp a row (dot_repro_rows_warp_kernel, no barrier), the
 * lanes' states merged by shuffles. The state is a function of the row's products alone: the
 * 1-D result on that pair whatever B, y_stride, the launch or the GPU (twin: the 1-D twin on
 * each pair). No workspace. */
#define DOT_ROWS_BLOCK 256u
template <typename In>
__global__ void __launch_bounds__(DOT_ROWS_BLOCK)
dot_repro_rows_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t y_stride, uint64_t rows,
                      uint64_t n, In *out)
{
    __shared__ sl_rsum_state s_w[32];
    const bool f64 = sizeof(In) == 8;
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const In *xr = x + r * n;
        sl_rsum_thr_f64 a;
        sl_rsum_init_f64(&a);
        dot_repro_take<In>(a, xr, y + r * y_stride, sl_row_split(xr, n), threadIdx.x, blockDim.x, f64);
        sl_rsum_state st;
        sl_rsum_to_state_f64(&a, &st);
        sl_rsum_block_merge<SL_RSUM_K>(st, s_w);
        if (threadIdx.x == 0) out[r] = dot_repro_out<In>(st, n, f64);
        sl_bar_any::sync();                          /* s_w is reused by the next row */
    }
}

template <typename In>
__global__ void __launch_bounds__(DOT_ROWS_BLOCK)
dot_repro_rows_warp_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t y_stride, uint64_t rows,
                           uint64_t n, In *out)
{
    const unsigned lane = threadIdx.x & 31u, WPB = DOT_ROWS_BLOCK / 32u;
    const bool f64 = sizeof(In) == 8;
    for (uint64_t r = (uint64_t)blockIdx.x * WPB + (threadIdx.x >> 5); r < rows; r += (uint64_t)gridDim.x * WPB) {
        const In *xr = x + r * n;
        sl_rsum_thr_f64 a;
        sl_rsum_init_f64(&a);
        dot_repro_take<In>(a, xr, y + r * y_stride, sl_row_split(xr, n), lane, 32u, f64);
        sl_rsum_state st;
        sl_rsum_to_state_f64(&a, &st);
        sl_rsum_warp_merge<SL_RSUM_K>(st);
        if (lane == 0) out[r] = dot_repro_out<In>(st, n, f64);
    }
}

} // namespace

/* ---- launcher -------------------------------------------------------------------------------- */
struct dot_args {
    const sl_launch *cfg;
    const void *x, *y;
    uint64_t n, head, nv;
    void *work, *result;
    cudaStream_t s;
};

template <typename In, typename Acc, class R>
static int dot_launch(const sl_variant *v, const dot_args &a, sl_err *err)
{
    const sl_launch *c = a.cfg;
    const In *x = (const In *)a.x, *y = (const In *)a.y;
    In *res = (In *)a.result;
    switch (v->impl) {
    case SL_DOT_NAIVE:
        dot_kernel<In, Acc, R, SL_DOT_NAIVE><<<c->grid, c->block, 0, a.s>>>(x, y, a.n, a.head, a.nv, a.work, res);
        break;
    case SL_DOT_KAHAN:
        dot_kernel<In, Acc, sl_rnd_none, SL_DOT_KAHAN><<<c->grid, c->block, 0, a.s>>>(x, y, a.n, a.head, a.nv, a.work, res);
        break;
    default:
        dot_kernel<In, Acc, sl_rnd_none, SL_DOT_DOT2><<<c->grid, c->block, 0, a.s>>>(x, y, a.n, a.head, a.nv, a.work, res);
        break;
    }
    SL_CUDA_CHECK_LAUNCH("dot_kernel", v->name, err);
    return 0;
}

/* ---- correct, step 0: exact/pairsum.cuh's kernel on the products ----------------------------
 * The end S rounded exactly (float64: to nearest even; narrower: to odd in float64, then to
 * nearest even in In, as the exact kernel rounds). */
static inline size_t dtf_offset(void)
{
    return (DOT_WS_CERT + sl_cert_workspace_bytes() + 15u) & ~(size_t)15u;
}
template <typename In> struct dot_psum_fin {
    static __device__ __forceinline__ double end(const sl_psum_acc *t, double E, int side)
    {
        return (double)sl_widen(sl_cert_narrow<In>(sl_psum_end(t, E, side, sizeof(In) == 8)));
    }
    template <typename O> static __device__ __forceinline__ O out(double r) { return sl_cert_narrow<O>(r); }
};

/* The certified kernel's final map (exact/certified.cuh): float64 rounds to nearest in float64,
 * the narrower formats to odd in float64, then to nearest in the format (the exact kernel's). */
template <typename In> struct dot_cert_fin { typedef sl_cert_fin_dot_narrow<In> type; };
template <> struct dot_cert_fin<double> { typedef sl_cert_fin_dot_f64 type; };

template <typename In>
static int dot_exact_launch(const sl_variant *v, const dot_args &a, sl_dtype dt, sl_err *err)
{
    const sl_launch *c = a.cfg;
    const unsigned block = c->block > 512u ? 512u : c->block;
    unsigned char *w = (unsigned char *)a.work;
    (void)dt;
    /* the cheap pass first; the certified binned pass runs only when it opens its gate */
    unsigned char *fw = w + dtf_offset();
    sl_psum_kernel<In, 2, dot_psum_fin<In> ><<<c->grid, c->block, 0, a.s>>>(
        (const In *)a.x, (const In *)a.y, a.n, a.head, a.nv, reinterpret_cast<unsigned *>(fw),
        fw + SL_PSUM_WS_HEADER, (In *)a.result);
    SL_CUDA_CHECK_LAUNCH("sl_psum_kernel (dot)", v->name, err);
    sl_cert_kernel<In, 2, typename dot_cert_fin<In>::type><<<c->grid, block, 0, a.s>>>(
        (const In *)a.x, (const In *)a.y, a.n, a.head, w + DOT_WS_CERT,
        (unsigned *)(w + DOT_WS_FALLBACK), (In *)a.result, reinterpret_cast<unsigned *>(fw) + 1);
    SL_CUDA_CHECK_LAUNCH("sl_cert_kernel (dot)", v->name, err);
    /* behind it, the exact kernel: returns at once unless the certificate could not decide */
    dot_exact_kernel<In><<<c->grid, block, 0, a.s>>>((const In *)a.x, (const In *)a.y, a.n, dt, a.work,
                                                    (In *)a.result);
    SL_CUDA_CHECK_LAUNCH("dot_exact_kernel", v->name, err);
    return 0;
}

template <typename In>
static int dot_repro_launch(const sl_variant *v, const dot_args &a, sl_dtype dt, sl_err *err)
{
    const sl_launch *c = a.cfg;
    dot_repro_kernel<In><<<c->grid, 256u, 0, a.s>>>((const In *)a.x, (const In *)a.y, a.n, a.head, a.nv, dt,
                                                   a.work, (In *)a.result);
    SL_CUDA_CHECK_LAUNCH("dot_repro_kernel", v->name, err);
    return 0;
}

extern "C" size_t sl_dot_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n;
    if (v->impl == SL_DOT_CORRECT)                   /* exact, certified, cheap passes */
        return dtf_offset() + sl_psum_ws_bytes(cfg ? cfg->grid : 1u);
    if (v->impl == SL_DOT_REPRO) return sl_ws_bytes(cfg->grid, sizeof(sl_rsum_state));
    const size_t acc = sl_variant_acc(v, dt) == SL_F64 ? sizeof(double) : sizeof(float);
    return sl_ws_bytes(cfg->grid, 2 * acc);
}

extern "C" int sl_dot_gpu(const sl_variant *v, const void *d_x, const void *d_y, uint64_t n,
                          sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                          void *d_result, void *stream, sl_err *err)
{
    dot_args a = {cfg, d_x, d_y, n, 0, 0, d_work, d_result, (cudaStream_t)stream};
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (sl_check_aligned(v, d_x, dt, err) || sl_check_aligned(v, d_y, dt, err) ||
        sl_check_addr_mod(v, d_x, cfg, err) || sl_check_shape(v, cfg, 32u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_dot_workspace(v, n, dt, cfg), err))
        return -1;
    if ((uintptr_t)d_x % 16u != (uintptr_t)d_y % 16u)
        return sl_err_set(err, "%s: x and y must share one alignment modulo 16 bytes", v->name);
    if (v->impl == SL_DOT_REPRO) {
        sl_vec_split(n, dt, cfg->addr_mod, &a.head, &a.nv);
        if (n >= SL_RSUM_MAX_N / 2)
            return sl_err_set(err, "%s: n = %llu is too large (n < 2^39)", v->name, (unsigned long long)n);
        switch (dt) {
        case SL_F64: return dot_repro_launch<double>(v, a, dt, err);
        case SL_F32: return dot_repro_launch<float>(v, a, dt, err);
        case SL_F16: return dot_repro_launch<__half>(v, a, dt, err);
        case SL_BF16: return dot_repro_launch<__nv_bfloat16>(v, a, dt, err);
        }
        return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
    }
    if (v->impl == SL_DOT_CORRECT) {
        sl_vec_split(n, dt, cfg->addr_mod, &a.head, &a.nv);
        if (n >= SL_SACC_MAX_N / 2)
            return sl_err_set(err, "%s: n = %llu is too large (n < 2^39)", v->name, (unsigned long long)n);
        switch (dt) {
        case SL_F64: return dot_exact_launch<double>(v, a, dt, err);
        case SL_F32: return dot_exact_launch<float>(v, a, dt, err);
        case SL_F16: return dot_exact_launch<__half>(v, a, dt, err);
        case SL_BF16: return dot_exact_launch<__nv_bfloat16>(v, a, dt, err);
        }
        return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
    }
    sl_vec_split(n, dt, cfg->addr_mod, &a.head, &a.nv);
    const sl_dtype acc = sl_variant_acc(v, dt);
    return sl_acc_dispatch(dt, acc, v->name, err, [&](auto in, auto ac, auto rn) {
        return dot_launch<SL_TAG_T(in), SL_TAG_T(ac), SL_TAG_T(rn)>(v, a, err);
    });
}

/* ---- correct row-wise (rows/rows.h's two-input entry) ---------------------------------------
 * dot_cert_rows_kernel: a block of DOT_ROWS_BLOCK threads a row (grid stride over rows), or, for
 * rows of at most SL_ROWS_RS_WARP_ROW_MAX values, a warp a row: each thread's products as the
 * Fast2Sum pair of exact/pairsum.h (the 1-D cheap pass's accumulator, sl_psum_ops_pair) over its
 * edge values and 16-byte vectors of the row pair (reduce/walk.cuh's two-array walk), merged by
 * shuffles (and warp 0 over the warps); thread 0 rounds the rigorous box's two ends to the format
 * (dot_psum_fin, chain sl_psum_chain of the row's walk): when they agree that is the row's
 * correctly rounded dot, else the row's index goes into the workspace's list.
 * dot_exact_rows_kernel, behind it: a block per listed row adds every product's exact pieces into
 * shared limbs (the 1-D exact kernel's exact_product: float64 products outside [2^-968, 2^1000)
 * into the low or high window), thread 0 rounds them once (dot_round_block); the last block to
 * take its ticket empties the list. A row's result is the correctly rounded dot whichever kernel
 * writes it: a function of the row's products alone (not B, y's form, the launch or the GPU), so
 * the twin is the 1-D twin on each pair. Workspace: DOT_ROWS_WS_HEADER bytes (the list's length,
 * its ticket), then 4 bytes a row. */
#define DOT_ROWS_WS_HEADER 16u

template <typename In>
__device__ __forceinline__ void dot_cert_take(sl_psum_acc &a, const In *x, const In *y, const sl_split &s,
                                              uint64_t t, uint64_t T)
{
    enum { U = sl_vec<In>::W >= 8 ? 2 : 4 };
    const bool f64 = sizeof(In) == 8;
    sl_walk2_groups_f64<U, SL_RSUM_GROUP, SL_EDGES_FIRST>(
        x, y, s, t, T,
        [&](const double *xa, const double *yb) {
#pragma unroll
            for (int k = 0; k < SL_RSUM_GROUP; k++) {
                const double p = xa[k] * yb[k];
                sl_psum_take(&a, p, f64 ? fma(xa[k], yb[k], -p) : 0.0);
            }
        },
        [&](In xi, In yi) { sl_psum_ops_pair::term<In>(a, xi, yi); });
}

/* Thread 0's decision on row r (t: the row's merged pair, T threads on it): the row's correctly
 * rounded dot into out[r], else r into the list. */
template <typename In>
__device__ __forceinline__ void dot_cert_decide(const sl_psum_acc &t, const sl_split &s, unsigned T, uint64_t r,
                                                unsigned *g_count, unsigned *g_list, In *out)
{
    const uint64_t h = sl_psum_chain(s.nv, (uint64_t)sl_vec<In>::W, T, 1u, T);
    double E = 0.0, res;
    if (sl_psum_bound(&t, s.n, h, &E) &&
        sl_psum_decide(dot_psum_fin<In>::end(&t, E, -1), dot_psum_fin<In>::end(&t, E, 1), &res))
        out[r] = dot_psum_fin<In>::template out<In>(res);
    else
        g_list[atomicAdd(g_count, 1u)] = (unsigned)r;
}

template <typename In>
__global__ void __launch_bounds__(DOT_ROWS_BLOCK)
dot_cert_rows_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t y_stride, uint64_t rows,
                     uint64_t n, unsigned char *work, In *out)
{
    __shared__ sl_psum_acc s_w[32];
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    unsigned *g_list = reinterpret_cast<unsigned *>(work + DOT_ROWS_WS_HEADER);
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const In *xr = x + r * n;
        const sl_split sp = sl_row_split(xr, n);
        sl_psum_acc a;
        sl_psum_init(&a);
        dot_cert_take<In>(a, xr, y + r * y_stride, sp, tid, DOT_ROWS_BLOCK);
        a = sl_psum_block<sl_psum_ops_pair>(a, s_w, lane, warp, DOT_ROWS_BLOCK);
        if (tid == 0) dot_cert_decide<In>(a, sp, DOT_ROWS_BLOCK, r, g_count, g_list, out);
        sl_bar_any::sync();                          /* s_w is reused by the next row */
    }
}

template <typename In>
__global__ void __launch_bounds__(DOT_ROWS_BLOCK)
dot_cert_rows_warp_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t y_stride, uint64_t rows,
                          uint64_t n, unsigned char *work, In *out)
{
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    unsigned *g_list = reinterpret_cast<unsigned *>(work + DOT_ROWS_WS_HEADER);
    const unsigned lane = threadIdx.x & 31u, WPB = DOT_ROWS_BLOCK / 32u;
    for (uint64_t r = (uint64_t)blockIdx.x * WPB + (threadIdx.x >> 5); r < rows; r += (uint64_t)gridDim.x * WPB) {
        const In *xr = x + r * n;
        const sl_split sp = sl_row_split(xr, n);
        sl_psum_acc a;
        sl_psum_init(&a);
        dot_cert_take<In>(a, xr, y + r * y_stride, sp, lane, 32u);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) sl_psum_ops_pair::merge(a, sl_psum_ops_pair::shfl(a, off));
        if (lane == 0) dot_cert_decide<In>(a, sp, 32u, r, g_count, g_list, out);
    }
}

/* A block's shared limbs (main, and the float64 windows where flags say they hold pieces) rounded
 * once (thread 0): each normalised in a private copy (its limbs below 2^33 n: SL_DOT_ROWS_EXACT_MAX_N
 * keeps them under 2^62), the windows added at their places in dot.h's combined array; float64
 * to nearest even, the narrower formats to odd in float64 (as the 1-D exact kernel's last block). */
__device__ __noinline__ double dot_round_block(const unsigned long long *s_acc, const unsigned long long *s_lo,
                                               const unsigned long long *s_hi, unsigned flags, bool f64)
{
    enum { L = SL_SACC_LIMBS_F64 };
    int64_t lb[L];
    for (int i = 0; i < L; i++) lb[i] = (int64_t)s_acc[i];
    if (!(flags & (SL_DOT_FL_LOW | SL_DOT_FL_HIGH))) return sl_sacc_round_mode(lb, L, 0, SL_F64, flags, f64 ? 0 : 1);
    int64_t all[SL_DOT_ALL_LIMBS], w[SL_DOT_LO_LIMBS];
    for (int i = 0; i < SL_DOT_ALL_LIMBS; i++) all[i] = 0;
    sl_sacc_normalise(lb, L);
    for (int i = 0; i < L; i++) all[SL_DOT_MAIN_AT + i] += lb[i];
    for (int i = 0; i < SL_DOT_LO_LIMBS; i++) w[i] = (int64_t)s_lo[i];
    sl_sacc_normalise(w, SL_DOT_LO_LIMBS);
    for (int i = 0; i < SL_DOT_LO_LIMBS; i++) all[i] += w[i];
    for (int i = 0; i < SL_DOT_HI_LIMBS; i++) w[i] = (int64_t)s_hi[i];
    sl_sacc_normalise(w, SL_DOT_HI_LIMBS);
    for (int i = 0; i < SL_DOT_HI_LIMBS; i++) all[SL_DOT_HI_AT + i] += w[i];
    return sl_dot_round_all(all, flags);
}

template <typename In>
__global__ void __launch_bounds__(DOT_ROWS_BLOCK)
dot_exact_rows_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t y_stride, uint64_t n,
                      unsigned char *work, In *out)
{
    enum { L = SL_SACC_LIMBS_F64 };
    __shared__ unsigned long long s_acc[L], s_lo[SL_DOT_LO_LIMBS], s_hi[SL_DOT_HI_LIMBS];
    __shared__ unsigned s_flags;
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    const unsigned *g_list = reinterpret_cast<const unsigned *>(work + DOT_ROWS_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x;
    const bool f64 = sizeof(In) == 8;
    sl_rows_listed(g_count, g_count + 1, g_list, [&](uint64_t r) {
        for (unsigned i = tid; i < (unsigned)L; i += B) s_acc[i] = 0ull;
        for (unsigned i = tid; i < (unsigned)SL_DOT_LO_LIMBS; i += B) s_lo[i] = 0ull;
        for (unsigned i = tid; i < (unsigned)SL_DOT_HI_LIMBS; i += B) s_hi[i] = 0ull;
        if (tid == 0) s_flags = 0u;
        sl_bar_any::sync();
        const In *xr = x + r * n, *yr = y + r * y_stride;
        unsigned fl = 0u;
        for (uint64_t i = tid; i < n; i += B)
            exact_product((double)sl_widen(xr[i]), (double)sl_widen(yr[i]), f64, s_acc, s_lo, s_hi, &fl);
        if (fl) atomicOr(&s_flags, fl);
        sl_bar_any::sync();
        if (tid == 0) {
            const unsigned flags = s_flags | (n == 0 ? SL_SACC_ANYPOS : 0u);   /* n = 0: +0 */
            out[r] = dot_out<In>(dot_round_block(s_acc, s_lo, s_hi, flags, f64));
        }
        sl_bar_any::sync();                          /* the limbs are cleared for the next row */
    });
}

template <typename In>
static int dot_cert_rows_launch(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride,
                                uint64_t rows, uint64_t n, void *d_work, void *d_out, cudaStream_t st, sl_err *err)
{
    unsigned grid;
    unsigned char *w = (unsigned char *)d_work;
    const In *x = (const In *)d_x, *y = (const In *)d_y;
    if (n <= SL_ROWS_RS_WARP_ROW_MAX) {
        grid = sl_rows_grid(rows, DOT_ROWS_BLOCK / 32u);
        dot_cert_rows_warp_kernel<In><<<grid, DOT_ROWS_BLOCK, 0, st>>>(x, y, y_stride, rows, n, w, (In *)d_out);
        SL_CUDA_CHECK_LAUNCH("dot_cert_rows_warp_kernel", v->name, err);
    } else {
        grid = sl_rows_grid(rows, 1u);
        dot_cert_rows_kernel<In><<<grid, DOT_ROWS_BLOCK, 0, st>>>(x, y, y_stride, rows, n, w, (In *)d_out);
        SL_CUDA_CHECK_LAUNCH("dot_cert_rows_kernel", v->name, err);
    }
    const unsigned gx = grid < 1024u ? grid : 1024u;
    dot_exact_rows_kernel<In><<<gx, DOT_ROWS_BLOCK, 0, st>>>(x, y, y_stride, n, w, (In *)d_out);
    SL_CUDA_CHECK_LAUNCH_LISTED("dot_exact_rows_kernel", v->name, err, w, st);
    return 0;
}

/* ---- row-wise (rows/rows.h's two-input entry) ------------------------------------------------
 * reproducible: a warp a row up to SL_ROWS_RS_WARP_ROW_MAX values, a block a row above; correct:
 * the same shapes deciding each row from its Fast2Sum pair, the exact pass on the rows left
 * (above); rows too few to fill the GPU a block each (sl_rows_few_long), and for correct rows of
 * SL_DOT_ROWS_EXACT_MAX_N values or more or 2^32 rows or more, by the 1-D launcher on each pair,
 * which spreads a row over the whole grid (dot.h's sl_dot_rows_kernel). The other members: the
 * 1-D launcher on each pair. */
template <typename In>
static void dot_repro_rows_launch(const void *d_x, const void *d_y, uint64_t y_stride, uint64_t rows, uint64_t n,
                                  void *d_out, cudaStream_t st)
{
    if (n <= SL_ROWS_RS_WARP_ROW_MAX)
        dot_repro_rows_warp_kernel<In><<<sl_rows_grid(rows, DOT_ROWS_BLOCK / 32u), DOT_ROWS_BLOCK, 0, st>>>(
            (const In *)d_x, (const In *)d_y, y_stride, rows, n, (In *)d_out);
    else
        dot_repro_rows_kernel<In><<<sl_rows_grid(rows, 1u), DOT_ROWS_BLOCK, 0, st>>>(
            (const In *)d_x, (const In *)d_y, y_stride, rows, n, (In *)d_out);
}

extern "C" int sl_dot_rows_gpu(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride,
                               uint64_t rows, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                               size_t work_bytes, void *d_results, void *stream, sl_err *err)
{
    if (!sl_dot_rows_kernel(v->impl, rows, n, cfg ? cfg->sm_count : 0u))
        return sl_rows_each_1d_xy(v, d_x, d_y, y_stride, rows, n, dt, cfg, d_work, work_bytes, d_results, stream,
                                  err);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (n >= SL_RSUM_MAX_N / 2)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^39)", v->name, (unsigned long long)n);
    if (rows == 0) return 0;
    if (sl_check_aligned(v, d_x, dt, err) || sl_check_aligned(v, d_y, dt, err) ||
        sl_rows_pair_check(v, d_x, d_y, y_stride, rows, n, dt, err))
        return -1;
    cudaStream_t st = (cudaStream_t)stream;
    if (v->impl == SL_DOT_CORRECT) {
        if (n == 0) {                                /* every row's empty dot is +0 */
            SL_CUDA_CHECK(cudaMemsetAsync(d_results, 0, rows * sl_dtype_size(dt), st), v->name, err);
            return 0;
        }
        if (sl_check_workspace(v, d_work, work_bytes, SL_DOT_ROWS_WS_BYTES(rows), err)) return -1;
        switch (dt) {
        case SL_F64: return dot_cert_rows_launch<double>(v, d_x, d_y, y_stride, rows, n, d_work, d_results, st, err);
        case SL_F32: return dot_cert_rows_launch<float>(v, d_x, d_y, y_stride, rows, n, d_work, d_results, st, err);
        case SL_F16: return dot_cert_rows_launch<__half>(v, d_x, d_y, y_stride, rows, n, d_work, d_results, st, err);
        case SL_BF16:
            return dot_cert_rows_launch<__nv_bfloat16>(v, d_x, d_y, y_stride, rows, n, d_work, d_results, st, err);
        default: return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
        }
    }
    switch (dt) {
    case SL_F64: dot_repro_rows_launch<double>(d_x, d_y, y_stride, rows, n, d_results, st); break;
    case SL_F32: dot_repro_rows_launch<float>(d_x, d_y, y_stride, rows, n, d_results, st); break;
    case SL_F16: dot_repro_rows_launch<__half>(d_x, d_y, y_stride, rows, n, d_results, st); break;
    case SL_BF16: dot_repro_rows_launch<__nv_bfloat16>(d_x, d_y, y_stride, rows, n, d_results, st); break;
    default: return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
    }
    SL_CUDA_CHECK_LAUNCH("dot_repro_rows_kernel (warp or block a row)", v->name, err);
    return 0;
}

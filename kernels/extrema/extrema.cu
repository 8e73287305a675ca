/* extrema.cu: the max/min kernels (block-reduce, zero-fill, fmax/fmin) and the fused kernel (one
 * read: sum, sum of squares and maximum; outputs mean, var, std or max), and the family's
 * C-callable entry. Orders of operations and semantics: extrema.c's header; its CPU twins repeat
 * them (the comparisons are extrema.h's host/device functions, shared with the twins).
 *
 * Floating-point assumptions: IEEE binary32/binary64 rounded to nearest even, no FTZ, no
 * contraction (x * x rounded, then added), correctly rounded division and sqrt (built with
 * --fmad=false -ftz=false -prec-div=true -prec-sqrt=true); nvcc never reassociates. float16 /
 * bfloat16 input is widened exactly to float32; the result is rounded once to the input format.
 * Performance considerations: one launch; 16-byte loads (kUnroll vectors in flight per thread),
 * one state per vector lane, an SM-count grid, the last block finishes. */
#include <stdint.h>
#include <type_traits>
#include "reduce/reduce.cuh"
#include "reduce/acc.cuh"
#include "extrema/extrema.h"

namespace {

__device__ __forceinline__ float ex_max(float a, float b) { return sl_ex_max_f(a, b); }
__device__ __forceinline__ double ex_max(double a, double b) { return sl_ex_max_d(a, b); }
__device__ __forceinline__ float ex_min(float a, float b) { return sl_ex_min_f(a, b); }
__device__ __forceinline__ double ex_min(double a, double b) { return sl_ex_min_d(a, b); }
__device__ __forceinline__ float ex_fmax(float a, float b) { return sl_ex_fmax_f(a, b); }
__device__ __forceinline__ double ex_fmax(double a, double b) { return sl_ex_fmax_d(a, b); }
__device__ __forceinline__ float ex_fmin(float a, float b) { return sl_ex_fmin_f(a, b); }
__device__ __forceinline__ double ex_fmin(double a, double b) { return sl_ex_fmin_d(a, b); }

/* ---- max/min: one value per lane; K = kind, kMin: minimum -------------------------------- */
template <typename A, int K, bool kMin> struct MmOp {
    typedef A S;
    static __device__ __forceinline__ A zero()
    {
        return K == SL_EX_ZERO_FILL ? A(0) : kMin ? A(INFINITY) : A(-INFINITY);
    }
    static __device__ __forceinline__ A add(A a, A b)
    {
        if (K == SL_EX_FMAX) return kMin ? ex_fmin(a, b) : ex_fmax(a, b);
        return kMin ? ex_min(a, b) : ex_max(a, b);
    }
    static __device__ __forceinline__ void put(A &s, A x) { s = add(s, x); }
    static __device__ __forceinline__ A shfl(A v, int off) { return __shfl_down_sync(SL_FULL_MASK, v, off); }
    static __device__ __forceinline__ void store(A *p, A v) { *p = v; }
    static __device__ __forceinline__ A load_cg(const A *p) { return __ldcg(p); }
};

/* ---- fused: (S1, S2, K) per lane, K the maximum's key (extrema.h) ------------------------- */
template <typename A> struct fu_key;
template <> struct fu_key<float> {
    typedef unsigned K;
    static __device__ __forceinline__ K neg_inf() { return SL_EX_KEY_NEG_INF_F; }
    static __device__ __forceinline__ K of(float x) { return sl_ex_key_f(__float_as_uint(x)); }
    static __device__ __forceinline__ float value(K k) { return __uint_as_float(sl_ex_unkey_f(k)); }
};
template <> struct fu_key<double> {
    typedef unsigned long long K;
    static __device__ __forceinline__ K neg_inf() { return SL_EX_KEY_NEG_INF_D; }
    static __device__ __forceinline__ K of(double x)
    {
        return sl_ex_key_d((unsigned long long)__double_as_longlong(x));
    }
    static __device__ __forceinline__ double value(K k)
    {
        return __longlong_as_double((long long)sl_ex_unkey_d(k));
    }
};

template <typename A> struct fu_st {
    A s1, s2;
    typename fu_key<A>::K mk;
};

template <typename A> struct FuOp {
    typedef fu_st<A> S;
    typedef fu_key<A> Key;
    static __device__ __forceinline__ S zero() { S r; r.s1 = A(0); r.s2 = A(0); r.mk = Key::neg_inf(); return r; }
    static __device__ __forceinline__ S add(S a, S b)
    {
        S r;
        r.s1 = a.s1 + b.s1;
        r.s2 = a.s2 + b.s2;
        r.mk = a.mk > b.mk ? a.mk : b.mk;
        return r;
    }
    static __device__ __forceinline__ void put(S &s, A x)
    {
        const A sq = x * x;
        const typename Key::K k = Key::of(x);
        s.s1 = s.s1 + x;
        s.s2 = s.s2 + sq;
        s.mk = s.mk > k ? s.mk : k;
    }
    static __device__ __forceinline__ S shfl(S v, int off)
    {
        S r;
        r.s1 = __shfl_down_sync(SL_FULL_MASK, v.s1, off);
        r.s2 = __shfl_down_sync(SL_FULL_MASK, v.s2, off);
        r.mk = __shfl_down_sync(SL_FULL_MASK, v.mk, off);
        return r;
    }
    static __device__ __forceinline__ void store(S *p, S v) { *p = v; }
    static __device__ __forceinline__ S load_cg(const S *p)
    {
        S r;
        r.s1 = __ldcg(&p->s1);
        r.s2 = __ldcg(&p->s2);
        r.mk = __ldcg(&p->mk);
        return r;
    }
};

/* The combine operation as reduce/'s trees expect it (A: the combined value). */
template <class P> struct TreeOp {
    typedef typename P::S A;
    static __device__ __forceinline__ A zero() { return P::zero(); }
    static __device__ __forceinline__ A add(A a, A b) { return P::add(a, b); }
    static __device__ __forceinline__ A shfl(A v, int off) { return P::shfl(v, off); }
    static __device__ __forceinline__ void store(A *p, A v) { P::store(p, v); }
    static __device__ __forceinline__ A load_cg(const A *p) { return P::load_cg(p); }
};

/* The 1-D walk of thread g of T = grid * block: fe(x[g]) when g < head, fv(v) for its vectors
 * j = g, g + T, ... (U = 4 loads a step), then fe(x[ts + g]) for the tail element g (ts = head +
 * nv W). The twins mirror this order. Below 8 bytes a value each step's U loads are issued
 * before the step before it is taken (its vectors held in registers meanwhile: the 16-bit and
 * float32 fused kernels 64 registers a thread instead of 44 / 51, no spills), so that a warp's
 * loads are in flight while it computes: the fused statistics on 16-bit input waited on loads
 * 90 % of their cycles at a quarter of the issue slots (Nsight Compute, BENCHMARKS.md); float64's
 * fused kernel would spill at the 64 registers of 1024-thread blocks, so it loads, then takes,
 * a step at a time. */
template <typename X, typename FE, typename FV>
__device__ __forceinline__ void ex_walk1d(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv,
                                          FE fe, FV fv)
{
    typedef typename sl_vec<X>::type V;
    constexpr int U = 4;
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (g < head) fe(x[g]);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    uint64_t j = g;
    if (sizeof(X) < 8 && j + (U - 1) * T < nv) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = sl_ldv(xv + j + u * T);
        for (j += U * T; j + (U - 1) * T < nv; j += U * T) {
            V w[U];
#pragma unroll
            for (int u = 0; u < U; u++) w[u] = sl_ldv(xv + j + u * T);
#pragma unroll
            for (int u = 0; u < U; u++) fv(v[u]);
#pragma unroll
            for (int u = 0; u < U; u++) v[u] = w[u];
        }
#pragma unroll
        for (int u = 0; u < U; u++) fv(v[u]);
    }
    for (; j + (U - 1) * T < nv; j += U * T) {   /* float64 */
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = sl_ldv(xv + j + u * T);
#pragma unroll
        for (int u = 0; u < U; u++) fv(v[u]);
    }
    for (; j < nv; j += T) fv(sl_ldv(xv + j));
    const uint64_t ts = head + nv * sl_vec<X>::W;
    if (g < n - ts) fe(x[ts + g]);
}

/* Thread g's value: lane 0 takes x[g] (g < head), lane k the vectors' element k, lane 0 the tail
 * element g; then the lane tree. */
template <typename X, typename A, class P>
__device__ __forceinline__ typename P::S ex_thread(const X *__restrict__ x, uint64_t n, uint64_t head,
                                                   uint64_t nv)
{
    typedef typename sl_vec<X>::type V;
    typedef typename P::S S;
    constexpr int W = sl_vec<X>::W;
    S l[W];
#pragma unroll
    for (int k = 0; k < W; k++) l[k] = P::zero();
    ex_walk1d(x, n, head, nv, [&](X e) { P::put(l[0], sl_acc_of<A>(e)); },
              [&](const V &v) {
#pragma unroll
                  for (int k = 0; k < W; k++) P::put(l[k], sl_acc_of<A>(sl_vec_lane(v, k)));
              });
    if (W == 8)
        return P::add(P::add(P::add(l[0], l[1 % W]), P::add(l[2 % W], l[3 % W])),
                      P::add(P::add(l[4 % W], l[5 % W]), P::add(l[6 % W], l[7 % W])));
    if (W == 4) return P::add(P::add(l[0], l[1 % W]), P::add(l[2 % W], l[3 % W]));
    return P::add(l[0], l[1 % W]);
}

/* fused on float16 / bfloat16 input (fu_thread16): the same walk, lanes and sums as ex_thread with
 * FuOp<float>, in fewer instructions a value (the 16-bit fused kernel is issue-bound): S2 =
 * fma(x, x, S2), one instruction where the square is exact in float32 (every float16 value,
 * bfloat16 values of at least 2^-67 in magnitude; below, the fma's one rounding, as the twin's
 * fmaf); the maximum by mm16_acc's packed 16-bit keys, its value's float32 key at the end (both
 * orders are the values', -0 < +0), so the maximum is the one FuOp's keys give. */
__device__ __forceinline__ unsigned fu_key16x2(unsigned w)
{
    unsigned m;
    asm("prmt.b32 %0, %1, 0, 0xBB99;" : "=r"(m) : "r"(w));   /* each half: its sign bit, replicated */
    return w ^ (m | 0x80008000u);
}
template <typename H> struct fu16;
template <> struct fu16<__nv_bfloat16> {
    enum : unsigned { NEG_INF = 0xff80u, NAN_GAP = 0x007f007fu };
    static __device__ __forceinline__ unsigned bits(__nv_bfloat16 e) { return __bfloat16_as_ushort(e); }
    static __device__ __forceinline__ float lo(unsigned w) { return __uint_as_float(w << 16); }
    static __device__ __forceinline__ float hi(unsigned w) { return __uint_as_float(w & 0xffff0000u); }
};
template <> struct fu16<__half> {
    enum : unsigned { NEG_INF = 0xfc00u, NAN_GAP = 0x03ff03ffu };
    static __device__ __forceinline__ unsigned bits(__half e) { return __half_as_ushort(e); }
    static __device__ __forceinline__ float lo(unsigned w) { return __half2float(__ushort_as_half((unsigned short)(w & 0xffffu))); }
    static __device__ __forceinline__ float hi(unsigned w) { return __half2float(__ushort_as_half((unsigned short)(w >> 16))); }
};

/* max/min (block-reduce and zero-fill: the IEEE 754-2019 comparison) on float16 / bfloat16
 * input: the order-preserving 16-bit keys of fu_key16x2, two a word, kept by a packed unsigned
 * max (__vmaxu2; the minimum: the complemented keys), and a NaN flag per half ((|h| + the
 * format's gap to the first NaN) reaches bit 15 exactly for a NaN); three and three instructions
 * a word of two values instead of a float comparison chain a value. A thread's value: NaN when
 * it saw one, else the value of its largest (smallest) key, the start value (-inf / +inf, or +0
 * for zero-fill) among them: the comparison's own result on the same values, whatever order.
 * kNan = false: no NaN flag (fused, whose S2 is NaN exactly when an input is). */
template <typename H, int K, bool kMin, bool kNan = true> struct mm16_acc {
    typedef fu16<H> F;
    enum : unsigned { START = K == SL_EX_ZERO_FILL ? 0u : kMin ? (F::NEG_INF ^ 0x8000u) : F::NEG_INF };
    unsigned pk[4], nan;
    static __device__ __forceinline__ unsigned key(unsigned w)
    {
        const unsigned k = fu_key16x2(w);
        return kMin ? ~k : k;
    }
    __device__ __forceinline__ void init()
    {
#pragma unroll
        for (int q = 0; q < 4; q++) pk[q] = key(START | (START << 16));
        nan = 0u;
    }
    __device__ __forceinline__ void word(int q, unsigned w)
    {
        pk[q] = __vmaxu2(pk[q], key(w));
        if (kNan) nan |= (w & 0x7fff7fffu) + F::NAN_GAP;
    }
    __device__ __forceinline__ void vec(const sl_v16<H> &v)
    {
        word(0, v.u.x);
        word(1, v.u.y);
        word(2, v.u.z);
        word(3, v.u.w);
    }
    __device__ __forceinline__ void edge(H e) { word(0, F::bits(e) | (START << 16)); }
    __device__ __forceinline__ float value() const
    {
        if (kNan && (nan & 0x80008000u)) return __uint_as_float(0x7fffffffu);
        const unsigned w = __vmaxu2(__vmaxu2(pk[0], pk[1]), __vmaxu2(pk[2], pk[3]));
        unsigned m = (w & 0xffffu) > (w >> 16) ? (w & 0xffffu) : (w >> 16);
        if (kMin) m = ~m & 0xffffu;
        return F::lo((m & 0x8000u) ? m ^ 0x8000u : ~m & 0xffffu);   /* the key's value */
    }
};
template <typename H>
__device__ __forceinline__ fu_st<float> fu_thread16(const H *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv)
{
    typedef FuOp<float> P;
    typedef typename sl_vec<H>::type V;
    typedef fu16<H> F;
    float s1[8], s2[8];
    mm16_acc<H, SL_EX_BLOCK_REDUCE, false, false> mx;   /* the maximum: packed keys */
#pragma unroll
    for (int k = 0; k < 8; k++) s1[k] = s2[k] = 0.0f;
    mx.init();
    auto edge = [&](H e) {   /* into lane 0 */
        const float v = F::lo(F::bits(e));
        s1[0] = s1[0] + v;
        s2[0] = __fmaf_rn(v, v, s2[0]);
        mx.edge(e);
    };
    auto take = [&](const V &v) {
        const unsigned wd[4] = {v.u.x, v.u.y, v.u.z, v.u.w};
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const float a = F::lo(wd[q]), b = F::hi(wd[q]);
            s1[2 * q] = s1[2 * q] + a;
            s2[2 * q] = __fmaf_rn(a, a, s2[2 * q]);
            s1[2 * q + 1] = s1[2 * q + 1] + b;
            s2[2 * q + 1] = __fmaf_rn(b, b, s2[2 * q + 1]);
        }
        mx.vec(v);
    };
    ex_walk1d(x, n, head, nv, edge, take);
    /* the lanes' sums; the thread's maximum in lane 0 (a maximum: the lane tree's max is it) */
    P::S l[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {
        l[k].s1 = s1[k];
        l[k].s2 = s2[k];
        l[k].mk = k ? fu_key<float>::neg_inf() : fu_key<float>::of(mx.value());
    }
    return P::add(P::add(P::add(l[0], l[1]), P::add(l[2], l[3])), P::add(P::add(l[4], l[5]), P::add(l[6], l[7])));
}

template <class P> struct mm16_of { enum { ok = 0, K = 0, MIN = 0 }; };
template <int K_, bool kMin> struct mm16_of<MmOp<float, K_, kMin> > {
    enum { ok = K_ != SL_EX_FMAX, K = K_, MIN = kMin };
};

/* Thread g's value over the 1-D walk of ex_thread (its edge values and vectors j = g, g + T, ...). */
template <typename H, class P>
__device__ __forceinline__ float mm16_thread(const H *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv)
{
    typedef typename sl_vec<H>::type V;
    mm16_acc<H, mm16_of<P>::K, (bool)mm16_of<P>::MIN> a;
    a.init();
    ex_walk1d(x, n, head, nv, [&](H e) { a.edge(e); }, [&](const V &v) { a.vec(v); });
    return a.value();
}

/* Outputs. */
template <typename X, typename A>
__device__ __forceinline__ X ex_final(A a, int out, uint64_t n, unsigned ddof)
{
    (void)out; (void)n; (void)ddof;
    return sl_out<X>(a);
}
template <typename X, typename A>
__device__ __forceinline__ X ex_final(fu_st<A> s, int out, uint64_t n, unsigned ddof)
{
    A r;
    const A nf = (A)n;
    if (out == SL_EX_OUT_MAX) {             /* NaN exactly when an input was (S2 NaN) */
        r = s.s2 != s.s2 ? A(NAN) : fu_key<A>::value(s.mk);
    } else if (out == SL_EX_OUT_MEAN) {
        r = s.s1 / nf;
    } else {
        const A sq = s.s1 * s.s1;
        const A t = sq / nf;
        const A d = s.s2 - t;
        r = d / (A)(n - (uint64_t)ddof);
        if (out == SL_EX_OUT_STD) r = sqrt(r < A(0) ? A(0) : r);   /* a negative var: std 0 (extrema.c) */
    }
    return sl_out<X>(r);
}

/* One launch: thread values, the block tree, then the last block's reduce of reduce/grid.cuh
 * (sl_grid_reduce: thread t combines p[t], p[t + B], ... into zero(), then the block tree) and a
 * final step that reads the output, n and ddof. */
template <typename X, typename A, class P>
__global__ void __launch_bounds__(1024)
ex_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work, int out,
          unsigned ddof, X *result)
{
    typedef TreeOp<P> Op;
    typedef typename Op::A S;
    __shared__ S s_warp[32];
    S v;
    if constexpr (sizeof(X) == 2 && std::is_same<P, FuOp<float> >::value) v = fu_thread16<X>(x, n, head, nv);
    else if constexpr (sizeof(X) == 2 && mm16_of<P>::ok) v = mm16_thread<X, P>(x, n, head, nv);
    else v = ex_thread<X, A, P>(x, n, head, nv);
    v = sl_block_reduce<Op>(v, s_warp);
    S a;
    if (sl_grid_reduce<Op>(v, sl_ws_partials<S>(work), sl_ws_counter(work), &a) && threadIdx.x == 0)
        *result = ex_final<X, A>(a, out, n, ddof);
}

struct ex_args {
    const sl_launch *cfg;
    const void *x;
    uint64_t n, head, nv;
    void *work, *result;
    cudaStream_t s;
};

template <typename X, typename A, class P>
static void ex_go(const ex_args &a, int out)
{
    ex_kernel<X, A, P><<<a.cfg->grid, a.cfg->block, 0, a.s>>>((const X *)a.x, a.n, a.head, a.nv,
                                                               a.work, out, a.cfg->ddof,
                                                               (X *)a.result);
}

/* go(sl_tag<MmOp<A, kind, min>>()) for the max/min member of impl (zero-fill, fmax/fmin, else
 * block-reduce). */
template <typename A, typename L>
static void ex_mm_dispatch(int impl, L go)
{
    const int kind = impl & SL_EX_KIND_MASK;
    const bool mn = (impl & SL_EX_OUT_MASK) == SL_EX_OUT_MIN;
    if (kind == SL_EX_ZERO_FILL) {
        if (mn) go(sl_tag<MmOp<A, SL_EX_ZERO_FILL, true> >());
        else go(sl_tag<MmOp<A, SL_EX_ZERO_FILL, false> >());
    } else if (kind == SL_EX_FMAX) {
        if (mn) go(sl_tag<MmOp<A, SL_EX_FMAX, true> >());
        else go(sl_tag<MmOp<A, SL_EX_FMAX, false> >());
    } else {
        if (mn) go(sl_tag<MmOp<A, SL_EX_BLOCK_REDUCE, true> >());
        else go(sl_tag<MmOp<A, SL_EX_BLOCK_REDUCE, false> >());
    }
}

/* Member v's kernel for input X accumulated (compared) in A. */
template <typename X, typename A>
static void ex_launch(const sl_variant *v, const ex_args &a)
{
    const int out = v->impl & SL_EX_OUT_MASK;
    if ((v->impl & SL_EX_KIND_MASK) == SL_EX_FUSED) ex_go<X, A, FuOp<A> >(a, out);
    else ex_mm_dispatch<A>(v->impl, [&](auto p) { ex_go<X, A, SL_TAG_T(p)>(a, out); });
}

/* ---- max/min row-wise: a warp a row (n <= SL_EX_WARP_ROW_MAX), else a block a row -----------
 * Lane (or thread) t of T walks the row split at its own address (reduce/walk.cuh: edge values
 * first, then 16-byte vectors t, t + T, ... four loads in flight), vector element k into its
 * lane state k, the states and then the warps meet by the same comparison; the row's result is
 * rounded to the format (exact). A maximum or minimum is exact and the comparisons are
 * associative and commutative (-0 < +0), so a row's result is a function of its values alone
 * (NaN payloads aside): the 1-D kernel's on that row, whatever B or the launch. */
template <typename X, typename A, class P>
__device__ __forceinline__ A exr_lanes(const X *__restrict__ row, uint64_t n, unsigned t, unsigned T)
{
    enum { W = sl_vec<X>::W };
    A l[W];
#pragma unroll
    for (int k = 0; k < W; k++) l[k] = P::zero();
    if constexpr (sizeof(X) == 2 && mm16_of<P>::ok) {   /* 16-bit: packed keys (mm16_acc) */
        typedef typename sl_vec<X>::type V;
        mm16_acc<X, mm16_of<P>::K, (bool)mm16_of<P>::MIN> a;
        a.init();
        sl_walk<4, SL_EDGES_FIRST>(
            row, sl_row_split(row, n), t, T,
            [&](const V *v) {
#pragma unroll
                for (int u = 0; u < 4; u++) a.vec(v[u]);
            },
            [&](const V &v) { a.vec(v); }, [&](X e) { a.edge(e); });
        l[0] = a.value();
    } else {
        sl_walk_values<4, SL_EDGES_FIRST>(row, sl_row_split(row, n), t, T,
                                          [&](X v, int k) { P::put(l[k], sl_acc_of<A>(v)); });
    }
#pragma unroll
    for (int k = 1; k < W; k++) l[0] = P::add(l[0], l[k]);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) l[0] = P::add(l[0], P::shfl(l[0], off));
    return l[0];
}

/* The block's warps meet: lane 0 of each warp puts its state, warp 0 combines them; the block's
 * state is valid in thread 0. */
template <typename A, class P>
__device__ __forceinline__ A exr_block(A a, A *s_w)
{
    enum { WPB = SL_EX_ROW_BLOCK / 32u };
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0) s_w[warp] = a;
    __syncthreads();
    if (warp == 0) {
        a = lane < WPB ? s_w[lane] : P::zero();
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) a = P::add(a, P::shfl(a, off));
    }
    return a;
}

template <typename X, typename A, class P>
__global__ void __launch_bounds__(SL_EX_ROW_BLOCK)
exrow_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, int warp_rows, X *__restrict__ out)
{
    enum { WPB = SL_EX_ROW_BLOCK / 32u };
    __shared__ A s_w[WPB];
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    if (warp_rows) {   /* the row index is uniform in a warp: full-mask shuffles */
        for (uint64_t r = (uint64_t)blockIdx.x * WPB + warp; r < rows; r += (uint64_t)gridDim.x * WPB) {
            const A a = exr_lanes<X, A, P>(x + r * n, n, lane, 32u);
            if (lane == 0) out[r] = sl_out<X>(a);
        }
        return;
    }
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {   /* uniform in the block */
        const A a = exr_block<A, P>(exr_lanes<X, A, P>(x + r * n, n, tid, SL_EX_ROW_BLOCK), s_w);
        if (tid == 0) out[r] = sl_out<X>(a);
        __syncthreads();   /* s_w is reused by the next row */
    }
}

/* ---- max/min over few long rows: S blocks a row (extrema.h's sl_ex_rows_split) ----------------
 * Block j of row r (blockIdx.x = r S + j) walks the part [j L, min(n, (j + 1) L)) of the row,
 * L = ceil(n / S) rounded up to 64 values, as the row kernel walks a row (exr_lanes, then the
 * warps), stores its part at parts[r S + j] and takes the row's ticket; the last of the row's S
 * blocks combines the S parts in order and writes the row's result, then resets the row's
 * counter. The comparisons are exact, associative and commutative: the row's 1-D result. */
template <typename X, typename A, class P>
__global__ void __launch_bounds__(SL_EX_ROW_BLOCK)
exsplit_kernel(const X *__restrict__ x, uint64_t n, unsigned S, uint64_t L, unsigned *counters,
               A *parts, X *__restrict__ out)
{
    enum { WPB = SL_EX_ROW_BLOCK / 32u };
    __shared__ A s_w[WPB];
    __shared__ unsigned s_last;
    const unsigned tid = threadIdx.x;
    const uint64_t r = blockIdx.x / S, j = blockIdx.x % S, lo = j * L;
    const uint64_t len = lo >= n ? 0 : (n - lo < L ? n - lo : L);
    const A a = exr_block<A, P>(exr_lanes<X, A, P>(x + r * n + lo, len, tid, SL_EX_ROW_BLOCK), s_w);
    if (tid == 0) {
        parts[blockIdx.x] = a;
        sl_ticket_fence();                          /* the part visible before the ticket */
        s_last = atomicAdd(&counters[r], 1u) == S - 1u;
    }
    __syncthreads();
    if (!s_last || tid != 0) return;
    sl_ticket_fence();                              /* acquire side of the ticket */
    A t = P::zero();
    for (unsigned k = 0; k < S; k++) t = P::add(t, __ldcg(&parts[r * S + k]));
    out[r] = sl_out<X>(t);
    counters[r] = 0u;
}

template <typename X, typename A, class P>
static void exr_go(const X *x, uint64_t rows, uint64_t n, unsigned S, void *work, X *out, cudaStream_t s)
{
    if (S > 1u) {
        const uint64_t L = ((n + S - 1) / S + 63u) & ~(uint64_t)63u;
        unsigned *counters = (unsigned *)work;
        A *parts = (A *)((unsigned char *)work + (((size_t)rows * sizeof(unsigned) + 7u) & ~(size_t)7u));
        exsplit_kernel<X, A, P><<<(unsigned)(rows * S), SL_EX_ROW_BLOCK, 0, s>>>(x, n, S, L, counters, parts, out);
        return;
    }
    const int warp_rows = n <= SL_EX_WARP_ROW_MAX;
    const uint64_t per = warp_rows ? SL_EX_ROW_BLOCK / 32u : 1u, want = (rows + per - 1) / per;
    const unsigned grid = (unsigned)(want < SL_EX_MAX_GRID ? want : SL_EX_MAX_GRID);
    exrow_kernel<X, A, P><<<grid, SL_EX_ROW_BLOCK, 0, s>>>(x, rows, n, warp_rows, out);
}

template <typename X, typename A>
static void exr_launch(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, unsigned S, void *work,
                       void *out, cudaStream_t s)
{
    ex_mm_dispatch<A>(v->impl, [&](auto p) { exr_go<X, A, SL_TAG_T(p)>((const X *)x, rows, n, S, work, (X *)out, s); });
}

} // namespace

extern "C" size_t sl_extrema_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                       const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt;
    return sl_ws_bytes(cfg->grid, SL_EX_STATE_BYTES);
}

extern "C" int sl_extrema_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                              const sl_launch *cfg, void *d_work, size_t work_bytes,
                              void *d_result, void *stream, sl_err *err)
{
    const cudaStream_t s = (cudaStream_t)stream;
    const int kind = v->impl & SL_EX_KIND_MASK, out = v->impl & SL_EX_OUT_MASK;
    if (sl_check_shape(v, cfg, 32u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_extrema_workspace(v, n, dt, cfg), err))
        return -1;
    const bool var = kind == SL_EX_FUSED && (out == SL_EX_OUT_VAR || out == SL_EX_OUT_STD);
    if (n == 0 || (var && n <= cfg->ddof)) { /* NaN (all-ones bytes), no kernel */
        SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0xff, sl_dtype_size(dt), s), v->name, err);
        return 0;
    }
    if (sl_check_aligned(v, d_x, dt, err) || sl_check_addr_mod(v, d_x, cfg, err)) return -1;
    ex_args a = {cfg, d_x, n, 0, 0, d_work, d_result, s};
    sl_vec_split(n, dt, cfg->addr_mod, &a.head, &a.nv);
    if (dt == SL_F64) ex_launch<double, double>(v, a);
    else if (dt == SL_F32) ex_launch<float, float>(v, a);
    else if (dt == SL_F16) ex_launch<__half, float>(v, a);
    else ex_launch<__nv_bfloat16, float>(v, a);
    SL_CUDA_CHECK_LAUNCH("ex_kernel", v->name, err);
    return 0;
}

/* max/min row-wise (extrema.h): the row kernel, or S blocks a row when the rows are few and long
 * (sl_ex_rows_split; its counters and parts in the workspace, zero between launches). */
extern "C" int sl_extrema_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                                   sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                                   void *d_results, void *stream, sl_err *err)
{
    const cudaStream_t s = (cudaStream_t)stream;
    const size_t es = sl_dtype_size(dt);
    if ((v->impl & SL_EX_KIND_MASK) == SL_EX_FUSED)
        return sl_err_set(err, "%s: no row kernel for fused", v->name);
    if (rows == 0) return 0;
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    if (n == 0) {   /* NaN (all-ones bytes), as the 1-D call */
        SL_CUDA_CHECK(cudaMemsetAsync(d_results, 0xff, rows * es, s), v->name, err);
        return 0;
    }
    const unsigned S = sl_ex_rows_split(rows, n, cfg ? cfg->sm_count : 0u);
    if (S > 1u && sl_check_workspace(v, d_work, work_bytes, sl_ex_rows_split_ws(rows, S), err)) return -1;
    if (dt == SL_F64) exr_launch<double, double>(v, d_x, rows, n, S, d_work, d_results, s);
    else if (dt == SL_F32) exr_launch<float, float>(v, d_x, rows, n, S, d_work, d_results, s);
    else if (dt == SL_F16) exr_launch<__half, float>(v, d_x, rows, n, S, d_work, d_results, s);
    else exr_launch<__nv_bfloat16, float>(v, d_x, rows, n, S, d_work, d_results, s);
    SL_CUDA_CHECK_LAUNCH(S > 1u ? "exsplit_kernel" : "exrow_kernel", v->name, err);
    return 0;
}

/* lse.cu: GPU kernels and the one C-callable entry of the log-sum-exp variants (naive, two-pass,
 * online, f64-acc, compensated, half-acc, accurate, reproducible; operation `lse`). Order and state rules: lse.c's header and lse.h;
 * the CPU twins in lse.c run the same state functions (lse.h, lse_math.h: host-and-device code,
 * no CUDA math library) in the same order, so kernel == twin bit for bit.
 *
 * Floating-point assumptions: IEEE binary32/binary64 rounded to nearest even, built with
 * --fmad=false -ftz=false (kernels/CMakeLists.txt), nvcc never reassociates.
 * Performance considerations: one launch (two for two-pass: the max, then the sum) with the
 * last-block finish of reduce/grid.cuh; accurate and reproducible on float32/16-bit input: a
 * one-pass first kernel whose state usually decides, the kernels behind it returning at once
 * when it did (they read its state from the workspace header); 16-byte loads, SL_LSE_UNROLL of them in flight per thread
 * before their values are used (the order of the values into the state is unchanged); one exp per
 * element, so the exp is the arithmetic cost. online with a float32 state takes tiles of 32
 * values (8 float32 vectors, 4 16-bit ones: lse.h's sl_lse_add_tile): the tile's maximum (FMNMX.NAN;
 * 16-bit: on packed pairs), one rescale per tile, then per value one FADD (x - m), lse_math.h's
 * sl_lm_expf_tile (9 FFMA, 2 FADD, FMNMX, LEA; 16-bit input sl_lm_expf16: 6 FFMA, FADD,
 * FMNMX, LEA) and one FADD; 16-bit values widened by one instruction each. sm_90 SASS of the tile
 * loop: 526 instructions per 32 values in float32 (16.4 a value; the element-by-element form
 * took about 42 on its common path); bfloat16 at 2^28, counted by Nsight Compute over the whole
 * kernel: 14.6 a value (16.4 with the float32 exponential).
 * Numbers: BENCHMARKS.md. */
#include <stdint.h>
#include "reduce/reduce.cuh"
#include "exact/binned_kernel.cuh"   /* the binned float64 accumulator, state and warp merge (reproducible) */
#include "exact/bins.cuh"          /* exponent bins and limbs: the exact sum of reproducible's one pass */
#include "lse/lse.h"
#include "lse/lse_fold.cuh"   /* reproducible's register folds */

namespace {

/* The state in the accumulator format T, its functions by format. */
template <typename T> struct lse_st;
template <> struct lse_st<float> {
    typedef sl_lse_sf S;
    static __device__ __forceinline__ S init(float m) { return sl_lse_init_f(m); }
    static __device__ __forceinline__ void add(S &a, float x, int k) { sl_lse_add_f(&a, x, k); }
    static __device__ __forceinline__ void add_tile(S &a, const float *v, int c, int k, int h) { sl_lse_add_tile_f(&a, v, c, k, h); }
    static __device__ __forceinline__ void add_tile_m(S &a, const float *v, int c, float mt, int h) { sl_lse_add_tile_m_f(&a, v, c, mt, h); }
    static __device__ __forceinline__ S merge(S a, S b, int k) { return sl_lse_merge_f(a, b, k); }
    static __device__ __forceinline__ float final(S a, int k) { return sl_lse_final_f(a, k); }
};
template <> struct lse_st<double> {
    typedef sl_lse_sd S;
    static __device__ __forceinline__ S init(double m) { return sl_lse_init_d(m); }
    static __device__ __forceinline__ void add(S &a, double x, int k) { sl_lse_add_d(&a, x, k); }
    static __device__ __forceinline__ void add_tile(S &a, const double *v, int c, int k, int h) { sl_lse_add_tile_d(&a, v, c, k, h); }
    static __device__ __forceinline__ void add_tile_m(S &a, const double *v, int c, double mt, int h) { (void)mt; sl_lse_add_tile_d(&a, v, c, SL_LSE_ONLINE, h); }
    static __device__ __forceinline__ S merge(S a, S b, int k) { return sl_lse_merge_d(a, b, k); }
    static __device__ __forceinline__ double final(S a, int k) { return sl_lse_final_d(a, k); }
};

/* The merge as a combine operation of reduce/ (empty state (-Inf, 0, 0)). */
template <typename T, int K> struct lse_op {
    typedef typename lse_st<T>::S A;
    static __device__ __forceinline__ A zero() { return lse_st<T>::init(-(T)INFINITY); }
    static __device__ __forceinline__ A add(A a, A b) { return lse_st<T>::merge(a, b, K); }
    static __device__ __forceinline__ A shfl(A v, int off)
    {
        A r;
        r.m = __shfl_down_sync(SL_FULL_MASK, v.m, off);
        r.s = __shfl_down_sync(SL_FULL_MASK, v.s, off);
        r.c = SL_LSE_IS_COMP(K) ? __shfl_down_sync(SL_FULL_MASK, v.c, off) : v.c;
        return r;
    }
    static __device__ __forceinline__ void store(A *p, A v) { p->m = v.m; p->s = v.s; p->c = v.c; }
    static __device__ __forceinline__ A load_cg(const A *p)
    {
        A r;
        r.m = __ldcg(&p->m);
        r.s = __ldcg(&p->s);
        r.c = __ldcg(&p->c);
        return r;
    }
};

/* The maximum of the two-pass variant's first pass (NaN ignored, -Inf for none). */
template <typename T> struct lse_max_op {
    typedef T A;
    static __device__ __forceinline__ A zero() { return -(T)INFINITY; }
    static __device__ __forceinline__ A add(A a, A b) { return SL_LSE_MAX(a, b); }
    static __device__ __forceinline__ A shfl(A v, int off) { return __shfl_down_sync(SL_FULL_MASK, v, off); }
    static __device__ __forceinline__ void store(A *p, A v) { *p = v; }
    static __device__ __forceinline__ A load_cg(const A *p) { return __ldcg(p); }
};

/* The result in the input format X from the accumulator T (f64-acc on 16-bit input: to float32
 * first, as the twin). */
template <typename X, typename T> struct lse_out;
template <> struct lse_out<float, float> { static __device__ __forceinline__ float to(float r) { return r; } };
template <> struct lse_out<double, double> { static __device__ __forceinline__ double to(double r) { return r; } };
template <> struct lse_out<__half, float> { static __device__ __forceinline__ __half to(float r) { return __float2half_rn(r); } };
template <> struct lse_out<__nv_bfloat16, float> { static __device__ __forceinline__ __nv_bfloat16 to(float r) { return __float2bfloat16_rn(r); } };
template <> struct lse_out<float, double> { static __device__ __forceinline__ float to(double r) { return __double2float_rn(r); } };
template <> struct lse_out<__half, double> { static __device__ __forceinline__ __half to(double r) { return __float2half_rn(__double2float_rn(r)); } };
template <> struct lse_out<__nv_bfloat16, double> { static __device__ __forceinline__ __nv_bfloat16 to(double r) { return __float2bfloat16_rn(__double2float_rn(r)); } };

template <typename X, typename T, int K> struct lse_fin {
    typedef X Out;
    static __device__ __forceinline__ Out final(typename lse_st<T>::S a) { return lse_out<X, T>::to(lse_st<T>::final(a, K)); }
};
/* accurate: the float64 result rounded once to the input format (the twin's sl_tw_out) */
template <typename X> struct lse_out1 { static __device__ __forceinline__ X to(double r) { return lse_out<X, double>::to(r); } };
template <> struct lse_out1<__half> { static __device__ __forceinline__ __half to(double r) { return __double2half(r); } };
template <> struct lse_out1<__nv_bfloat16> { static __device__ __forceinline__ __nv_bfloat16 to(double r) { return __double2bfloat16(r); } };
template <typename X> struct lse_fin<X, double, SL_LSE_ACCURATE> {
    typedef X Out;
    static __device__ __forceinline__ Out final(sl_lse_sd a) { return lse_out1<X>::to(sl_lse_final_d(a, SL_LSE_ACCURATE)); }
};
template <typename T> struct lse_fin_max {
    typedef T Out;
    static __device__ __forceinline__ Out final(T a) { return a; }
};

/* Byte offset of the two-pass maximum inside the workspace header (after the ticket counter). */
#define SL_LSE_WS_MAX 128u
/* Byte offset of a first pass's state (accurate, reproducible on float32/16-bit input): the
 * maximum and the sum, read by the kernels behind it. */
#define SL_LSE_WS_PRE 144u
struct lse_pre { double m, s; };
__device__ __forceinline__ lse_pre *lse_ws_pre(void *work)
{
    return reinterpret_cast<lse_pre *>(static_cast<unsigned char *>(work) + SL_LSE_WS_PRE);
}
__device__ __forceinline__ lse_pre lse_pre_load(const lse_pre *p)
{
    lse_pre r;
    r.m = __ldcg(&p->m);
    r.s = __ldcg(&p->s);
    return r;
}
/* 1 for float64 input (no one-pass form of accurate and reproducible) */
template <typename X> struct lse_is_f64 { enum { v = 0 }; };
template <> struct lse_is_f64<double> { enum { v = 1 }; };
/* the input format's code for sl_lse_round_dt */
template <typename X> struct lse_dt { enum { v = SL_F32 }; };
template <> struct lse_dt<__half> { enum { v = SL_F16 }; };
template <> struct lse_dt<__nv_bfloat16> { enum { v = SL_BF16 }; };

template <typename T, typename E> __device__ __forceinline__ T to_acc(E e) { return (T)sl_widen(e); }

/* accurate's first pass on 16-bit input walks pipelined (lse.h's SUMLAB_LSE_ACCF_FLAT: not) */
template <typename X> struct lse_pipe { enum { v = !SUMLAB_LSE_ACCF_FLAT && sizeof(X) == 2 }; };

/* Every element of thread g's share, in lse.c's order (reduce/walk.cuh's walk: SL_LSE_UNROLL
 * vectors a step, the leftover vectors, then the edge values), through f(value in T). */
template <typename X, typename T, typename F>
__device__ __forceinline__ void lse_for_share(const X *__restrict__ x, uint64_t n, uint64_t head,
                                              uint64_t nv, F f)
{
    const uint64_t Tn = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    sl_walk_values<SL_LSE_UNROLL, SL_EDGES_LAST>(x, sl_split_of<X>(n, head, nv), g, Tn,
                                                 [&](X v, int) { f(to_acc<T>(v)); });
}

/* Lane k of a vector, widened exactly to T; bfloat16 to float32 by integer operations on the
 * 32-bit word that holds it (the low lane shifted up 16, the high lane masked: one instruction
 * each, the value of __bfloat162float). */
template <typename X, typename T> struct lse_lane {
    static __device__ __forceinline__ T get(const typename sl_vec<X>::type &v, int k) { return to_acc<T>(sl_vec_lane(v, k)); }
};
/* The maximum of a tile of U vectors for online (NaN if any is NaN), where the kernel finds it
 * its own way (ok = 1): 16-bit input by max.NaN on packed pairs (HMNMX2), 4U - 1 of them, then
 * the two halves; ok = 0: sl_lse_add_tile_f finds it on the widened values. */
template <typename X, typename T> struct lse_tmax {
    enum { ok = 0 };
    static __device__ __forceinline__ T get(const typename sl_vec<X>::type *v, int nvec) { (void)v; (void)nvec; return (T)0; }
};
template <typename H> struct lse_pair;
template <> struct lse_pair<__half> { typedef __half2 P; };
template <> struct lse_pair<__nv_bfloat16> { typedef __nv_bfloat162 P; };
template <typename H> struct lse_tmax16 {
    enum { ok = 1 };
    static __device__ __forceinline__ float get(const sl_v16<H> *v, int nvec)
    {
        typedef typename lse_pair<H>::P P;
        const unsigned *w = reinterpret_cast<const unsigned *>(v);
        P m = *reinterpret_cast<const P *>(&w[0]);
#pragma unroll
        for (int i = 1; i < 4 * nvec; i++) m = __hmax2_nan(m, *reinterpret_cast<const P *>(&w[i]));
        return sl_lse_maxnan_f(__low2float(m), __high2float(m));
    }
};
template <> struct lse_tmax<__half, float> : lse_tmax16<__half> {};
template <> struct lse_tmax<__nv_bfloat16, float> : lse_tmax16<__nv_bfloat16> {};

template <> struct lse_lane<__nv_bfloat16, float> {
    static __device__ __forceinline__ float get(const sl_b8 &v, int k)
    {
        const unsigned w = k < 2 ? v.u.x : k < 4 ? v.u.y : k < 6 ? v.u.z : v.u.w;
        return __uint_as_float((k & 1) ? (w & 0xffff0000u) : (w << 16));
    }
};

/* Thread g's share as lse.c's tiles, through f(values in T, count): U vectors while they last,
 * then single vectors, then the edge values one by one; with TM and lse_tmax's own maximum, the
 * U-vector tiles through ft(values, count, their maximum) instead (P: reduce/walk.cuh's sl_walk's). */
template <typename X, typename T, int U, int TM, int P = 0, typename F, typename FT>
__device__ __forceinline__ void lse_for_tiles(const X *__restrict__ x, uint64_t n, uint64_t head,
                                              uint64_t nv, F f, FT ft)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W };
    const uint64_t Tn = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    sl_walk<U, SL_EDGES_LAST, P>(
        x, sl_split_of<X>(n, head, nv), g, Tn,
        [&](const V *v) {
            T t[U * W];
#pragma unroll
            for (int u = 0; u < U; u++)
#pragma unroll
                for (int k = 0; k < W; k++) t[u * W + k] = lse_lane<X, T>::get(v[u], k);
            if (TM && lse_tmax<X, T>::ok) ft(t, U * W, lse_tmax<X, T>::get(v, U));
            else f(t, U * W);
        },
        [&](const V &v) {
            T t[W];
#pragma unroll
            for (int k = 0; k < W; k++) t[k] = lse_lane<X, T>::get(v, k);
            f(t, W);
        },
        [&](X e) {
            const T t1 = to_acc<T>(e);
            f(&t1, 1);
        });
}

template <typename X, typename T, int K>
__global__ void __launch_bounds__(SL_LSE_MAX_BLOCK)
lse_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work, X *result,
           int pre, double depth)
{
    typedef lse_op<T, K> Op;
    typedef typename Op::A A;
    __shared__ A s_warp[32];
    if (K == SL_LSE_ACCURATE && pre) { /* behind lse_accf_kernel: done when its state decides */
        const lse_pre p = lse_pre_load(lse_ws_pre(work));
        double out;
        if (sl_lse_accf_decide(p.m, p.s, (double)n, depth, lse_dt<X>::v, &out)) {
            if (blockIdx.x == 0 && threadIdx.x == 0) *result = lse_out1<X>::to(out);
            return;
        }
    }
    T m0 = -(T)INFINITY;
    if (K == SL_LSE_TWO_PASS)
        m0 = __ldcg(reinterpret_cast<const T *>(static_cast<unsigned char *>(work) + SL_LSE_WS_MAX));
    A st = lse_st<T>::init(m0);
    lse_for_tiles<X, T, SL_LSE_TILE_VECS(K, sizeof(T), sl_vec<X>::W), K == SL_LSE_ONLINE>(
        x, n, head, nv, [&](const T *v, int c) { lse_st<T>::add_tile(st, v, c, K, sizeof(X) == 2); },
        [&](const T *v, int c, T mt) { lse_st<T>::add_tile_m(st, v, c, mt, sizeof(X) == 2); });
    A b = sl_block_reduce<Op>(st, s_warp);
    sl_grid_finish<Op, lse_fin<X, T, K> >(b, sl_ws_partials<A>(work), sl_ws_counter(work), result);
}

template <typename X, typename T>
__global__ void __launch_bounds__(SL_LSE_MAX_BLOCK)
lse_max_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work, int pre)
{
    typedef lse_max_op<T> Op;
    __shared__ T s_warp[32];
    if (pre && sl_lse_rep1_ok(__ldcg(&lse_ws_pre(work)->m))) return; /* lse_rep1_kernel decided */
    T m = -(T)INFINITY;
    lse_for_share<X, T>(x, n, head, nv, [&](T v) { m = SL_LSE_MAX(m, v); });
    T b = sl_block_reduce<Op>(m, s_warp);
    sl_grid_finish<Op, lse_fin_max<T> >(b, sl_ws_partials<T>(work), sl_ws_counter(work),
        reinterpret_cast<T *>(static_cast<unsigned char *>(work) + SL_LSE_WS_MAX));
}

/* ---- reproducible: the terms exp(x - M) into reproducible's binned float64 accumulator ---------
 * M: the first kernel's exact maximum (lse_max_kernel). Thread g takes lse_for_share's elements
 * (any order would give the same bits); the unrolled vectors' terms go to the accumulator in
 * groups of SL_RSUM_GROUP (one capacity check, straight-line deposits: exact/binned.h), the rest
 * one by one. Block and grid: exact/binned_merge.cuh's sl_rsum_grid_finish (the block's states
 * merged, each block's at partials[block], the last block merges them: exact, so any order);
 * its thread 0 rounds once to float64 and writes M + log(S). */
template <typename T> __device__ __forceinline__ double lse_rep_term(T x, T M);
template <> __device__ __forceinline__ double lse_rep_term<float>(float x, float M) { return sl_lse_rep_term_f(x, M); }
template <> __device__ __forceinline__ double lse_rep_term<double>(double x, double M) { return sl_lse_rep_term_d(x, M); }

template <typename X, typename T>
__global__ void __launch_bounds__(SL_LSE_MAX_BLOCK)
lse_rep_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work, X *result,
               int pre)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W, NT = SL_LSE_UNROLL * sl_vec<X>::W, G8 = SL_RSUM_GROUP };
    __shared__ sl_rsum_state s_warp[32];
    if (pre) { /* behind lse_rep1_kernel: its result when its maximum is in the window */
        const lse_pre p = lse_pre_load(lse_ws_pre(work));
        if (sl_lse_rep1_ok(p.m)) {
            if (blockIdx.x == 0 && threadIdx.x == 0) *result = lse_out<X, double>::to(sl_lm_log(p.s));
            return;
        }
    }
    const T M = __ldcg(reinterpret_cast<const T *>(static_cast<unsigned char *>(work) + SL_LSE_WS_MAX));
    sl_rsum_thr_f64 a;
    sl_rsum_init_f64(&a);
    const uint64_t Tn = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    sl_walk<SL_LSE_UNROLL, SL_EDGES_LAST>(
        x, sl_split_of<X>(n, head, nv), g, Tn,
        [&](const V *v) {
            double t[NT];
#pragma unroll
            for (int u = 0; u < SL_LSE_UNROLL; u++)
#pragma unroll
                for (int k = 0; k < W; k++) t[u * W + k] = lse_rep_term<T>(to_acc<T>(sl_vec_lane(v[u], k)), M);
#pragma unroll
            for (int q = 0; q < NT / G8; q++) sl_rsum_take_group_f64(&a, t + q * G8);
        },
        [&](const V &v) {
#pragma unroll
            for (int k = 0; k < W; k++) sl_rsum_take1_f64(&a, lse_rep_term<T>(to_acc<T>(sl_vec_lane(v, k)), M));
        },
        [&](X e) { sl_rsum_take1_f64(&a, lse_rep_term<T>(to_acc<T>(e), M)); });
    sl_rsum_state st;
    sl_rsum_to_state_f64(&a, &st);
    sl_rsum_grid_finish<SL_RSUM_K>(st, s_warp, work, [&](const sl_rsum_state &acc) {
        const double S = sl_rsum_state_round_f64(&acc, 0);
        *result = lse_out<X, double>::to(sl_lse_rep_final((double)M, S));
    });
}

/* ---- accurate's first pass (float32, 16-bit input): lse.h's SL_LSE_ACCF -----------------------
 * Thread g takes lse_for_tiles's values in lse.c's order: m = max.NaN, s += the float64 term
 * (the table of 2^(j/64) in shared memory); the states merge by the block tree and the last-block
 * finish of lse_op (kind SL_LSE_ACCF), which writes (m, s) to the workspace header for the
 * accurate kernel behind it. */
__constant__ double c_lse_t64[64] = {SL_LM_T64_VALUES};

struct lse_fin_pre {
    typedef lse_pre Out;
    static __device__ __forceinline__ Out final(sl_lse_sd a)
    {
        lse_pre r;
        r.m = a.m;
        r.s = a.s;
        return r;
    }
};

template <typename X>
__global__ void __launch_bounds__(SL_LSE_MAX_BLOCK)
lse_accf_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work)
{
    enum { F32 = lse_dt<X>::v == SL_F32 };
    typedef lse_op<double, F32 ? SL_LSE_ACCF : SL_LSE_ACCF16> Op;
    __shared__ double s_tab[64];
    __shared__ sl_lse_sd s_warp[32];
    if (F32) {
        for (unsigned i = threadIdx.x; i < 64u; i += blockDim.x) s_tab[i] = c_lse_t64[i];
        __syncthreads();
    }
    float m = -INFINITY;
    double s = 0.0;
#if SUMLAB_LSE_ACCF_TILE
    if (!F32) { /* lse.h's SUMLAB_LSE_ACCF_TILE: a tile's terms summed in float32 */
        lse_for_tiles<X, float, SL_LSE_UNROLL, 1, lse_pipe<X>::v>(
            x, n, head, nv,
            [&](const float *v, int c) {
#pragma unroll
                for (int i = 0; i < c; i++) m = sl_lse_maxnan_f(m, v[i]);
                s = s + (double)sl_lse_accf16_tile(v, c);
            },
            [&](const float *v, int c, float mt) {
                m = sl_lse_maxnan_f(m, mt);
                s = s + (double)sl_lse_accf16_tile(v, c);
            });
    } else
#endif
    lse_for_tiles<X, float, SL_LSE_UNROLL, 0, lse_pipe<X>::v>(
        x, n, head, nv,
        [&](const float *v, int c) {
#pragma unroll
            for (int i = 0; i < c; i++) {
                m = sl_lse_maxnan_f(m, v[i]);
                s = s + (F32 ? sl_lse_accf_term(v[i], s_tab) : sl_lse_accf16_term(v[i]));
            }
        },
        [&](const float *v, int c, float mt) { (void)v; (void)c; (void)mt; });
    sl_lse_sd st;
    st.m = (double)m;
    st.s = s;
    st.c = 0.0;
    const sl_lse_sd b = sl_block_reduce<Op>(st, s_warp);
    sl_grid_finish<Op, lse_fin_pre>(b, sl_ws_partials<sl_lse_sd>(work), sl_ws_counter(work), lse_ws_pre(work));
}

/* ---- reproducible's one pass (float32, 16-bit input): lse.h's sl_lse_rep1_termx -------------
 * The terms of the block's tiles (exact/bins.cuh's sacc_tiles) into each thread's two register
 * folds (16-bit input: a vector whose values all lie in [-16, 16]; lse_fold.cuh) or its exponent
 * bins (the other vectors, float32 input and the edge values; exact/bins.cuh), both exact, drained into the block's limbs every
 * SACC_BIN_FLUSH terms and at the end; m = max.NaN of the values beside. Thread 0 adds the block's
 * normalised limbs into the global limbs (the workspace header: the flags at SL_LSE_WS_FLAGS, the
 * limbs from SL_LSE_WS_LIMBS) and the block's maximum, as an order-preserving key, into the
 * global one (SL_LSE_WS_MKEY); the last block takes both (leaving them zero), rounds the exact sum once to
 * float64 and writes (M, S) to lse_pre. Every value's term is added exactly, so S is the same
 * for every launch configuration and order. */
#define SL_LSE_WS_FLAGS 4u    /* the terms' flags (NaN, Inf: a maximum outside the window) */
#define SL_LSE_WS_LIMBS 16u   /* 12 int64 limbs (exact/limbs.h's float32 layout) */
#define SL_LSE_WS_MKEY 112u   /* after the limbs: 16 + 12 * 8 bytes */
#define SL_LSE_REP1_PER_SM 3  /* resident 512-thread blocks an SM (64 KB of bins each) */

/* m's key: unsigned order = max.NaN's order (NaN above +Inf; 0 below -Inf: no value) */
__device__ __forceinline__ unsigned lse_mkey(float m)
{
    const unsigned u = __float_as_uint(m);
    return m != m ? 0xffffffffu : (u >> 31) ? ~u : u | 0x80000000u;
}
__device__ __forceinline__ float lse_mkey_value(unsigned k)
{
    return k == 0xffffffffu ? __uint_as_float(0x7fffffffu) : k == 0u ? -INFINITY
         : __uint_as_float((k >> 31) ? (k & 0x7fffffffu) : ~k);
}

/* The one pass's state for sacc_tiles: each value's term into the register folds (16-bit input,
 * lse_fold.cuh: at most SACC_BIN_FLUSH terms between drains) or its bin, its maximum beside.
 * Float32 input's terms all go to the bins (SUMLAB_LSE_REP1_FOLDS_F32: the folds too): on an
 * H100 the folds took float32 at 2^28 from 0.953 to 0.931 of the read where they took 16-bit
 * input from 0.67-0.68 to 0.78-0.79 (BENCHMARKS.md). */
template <typename X> struct lse_rep1_st {
    enum { FOLD16 = SL_LSE_REP1_FOLDS && sizeof(X) == 2 && lse_tmax<X, float>::ok,
           FOLD32 = SUMLAB_LSE_REP1_FOLDS_F32 && sizeof(X) == 4, FOLD = FOLD16 || FOLD32 };
    double *my;
    unsigned long long *s_acc;
    unsigned B, mask, flags, sg;
    float m;
    double f1, f2;
    __device__ __forceinline__ void term(float v) { sacc_bin_take(sl_lse_rep1_termx(v, sizeof(X) == 2), my, B, sg); }
    __device__ __forceinline__ void take1(float v)
    {
        m = sl_lse_maxnan_f(m, v);
        term(v);
    }
    /* a vector: 16-bit input's maximum on packed pairs (lse_tmax: the same m up to a zero's sign
     * and a NaN's bits, which the window test does not see); with FOLD its terms into the folds
     * when every value is within +-SL_LSE_REP1_FOLD_X (a NaN is not), else into the bins */
    __device__ __forceinline__ void take(const typename sl_vec<X>::type &r, bool)
    {
        enum { W = sl_vec<X>::W };
        if constexpr (FOLD) {
            float v[W];
            bool in = true;
#pragma unroll
            for (int k = 0; k < W; k++) {
                v[k] = lse_lane<X, float>::get(r, k);
                in = in && sl_lse_rep1_fold_in(v[k]);
            }
            if constexpr (FOLD16) {
                m = sl_lse_maxnan_f(m, lse_tmax<X, float>::get(&r, 1));
            } else {
#pragma unroll
                for (int k = 0; k < W; k++) m = sl_lse_maxnan_f(m, v[k]);
            }
            lse_fold_or_bins<W, sizeof(X) == 2>(v, in, f1, f2, my, B, sg);
        } else if (lse_tmax<X, float>::ok) {
            m = sl_lse_maxnan_f(m, lse_tmax<X, float>::get(&r, 1));
#pragma unroll
            for (int k = 0; k < W; k++) term(lse_lane<X, float>::get(r, k));
        } else {
#pragma unroll
            for (int k = 0; k < W; k++) take1(lse_lane<X, float>::get(r, k));
        }
    }
    /* warp-collective: the folds (as integers, exact), then the bins, into the block limbs */
    __device__ __forceinline__ void flush()
    {
        if constexpr (FOLD) lse_fold_drain(f1, f2, mask, s_acc);
        flags |= sacc_bins_drain(my, B, mask, s_acc);
    }
};

/* The last block's thread 0: the global limbs and the maximum taken (left zero), the exact sum
 * rounded once to float64 (exact/limbs.h's sl_sacc_round_f32_as_f64_regs, as the twin), (M, S) into
 * lse_pre, the ticket reset. */
__device__ __forceinline__ void lse_rep1_last(unsigned char *work)
{
    enum { L = SL_SACC_LIMBS_F32 };
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SL_LSE_WS_LIMBS);
    int64_t l[L];
#pragma unroll
    for (int i = 0; i < L; i++) l[i] = (int64_t)atomicExch(&g_acc[i], 0ull);
    const unsigned fl = atomicExch(reinterpret_cast<unsigned *>(work + SL_LSE_WS_FLAGS), 0u);
    const float M = lse_mkey_value(atomicExch(reinterpret_cast<unsigned *>(work + SL_LSE_WS_MKEY), 0u));
    lse_pre *p = lse_ws_pre(work);
    p->m = (double)M;
    p->s = sl_sacc_round_f32_as_f64_regs(l, fl | SL_SACC_ANYPOS);
    *g_counter = 0u;
}

template <typename X>
__global__ void __launch_bounds__(SL_LSE_MAX_BLOCK, SL_LSE_REP1_PER_SM)
lse_rep1_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, unsigned char *work)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W, EPT = SACC_BIN_U * W, L = SL_SACC_LIMBS_F32 };
    extern __shared__ double s_bin[];
    __shared__ unsigned long long s_acc[L];
    __shared__ unsigned s_flags;
    __shared__ float s_m[32];
    const unsigned tid = threadIdx.x, B = blockDim.x;
    double *my = s_bin + tid;
    const unsigned wbase = tid & ~31u;
    const unsigned mask = B - wbase >= 32u ? 0xffffffffu : (1u << (B - wbase)) - 1u;
    for (int j = 0; j < SACC_NBIN; j++) my[j * B] = 0.0;
    sacc_block_init(s_acc, L, &s_flags);
    sl_bar_any::sync();
    lse_rep1_st<X> st = {my, s_acc, B, mask, 0u, 0xffffffffu, -INFINITY, SL_LSE_REP1_FOLD_C, 0.0};
    sl_for_edges<W>(n, head, nv, B, [&](uint64_t i) { st.take1(to_acc<float>(x[i])); });
    /* <= 8192 + 1 terms per bin between drains */
    sacc_tiles<SACC_BIN_U, W>(reinterpret_cast<const V *>(x + head), nv, SACC_BIN_FLUSH / EPT, st, s_acc);
    st.flush();
    float m = st.m;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const float o = __shfl_xor_sync(SL_FULL_MASK, m, off);
        m = sl_lse_maxnan_f(m, o);
    }
    if ((tid & 31u) == 0u) s_m[tid >> 5] = m;
    if (st.flags) atomicOr(&s_flags, st.flags);
    sl_bar_any::sync();
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    if (tid == 0) {
        for (unsigned w = 1; w < (B >> 5); w++) m = sl_lse_maxnan_f(m, s_m[w]);
        int64_t l[L];
#pragma unroll
        for (int i = 0; i < L; i++) l[i] = (int64_t)s_acc[i];
        sl_sacc_normalise(l, L);
        /* normalised limbs < 2^32 (top limb signed): G < 2^31 blocks cannot overflow a limb */
        unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SL_LSE_WS_LIMBS);
#pragma unroll
        for (int i = 0; i < L; i++)
            if (l[i]) atomicAdd(&g_acc[i], (unsigned long long)l[i]);
        if (s_flags) atomicOr(reinterpret_cast<unsigned *>(work + SL_LSE_WS_FLAGS), s_flags);
        atomicMax(reinterpret_cast<unsigned *>(work + SL_LSE_WS_MKEY), lse_mkey(m));
    }
    /* thread 0 alone published: it fences before its ticket */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    if (tid == 0) lse_rep1_last(work);
}

/* half-acc's state kind for the input format */
template <typename X> struct lse_half_kind { enum { K = SL_LSE_NAIVE_F16 }; };
template <> struct lse_half_kind<__nv_bfloat16> { enum { K = SL_LSE_NAIVE_BF16 }; };

/* The first pass of accurate (acc = 1) or reproducible for float32/16-bit input; float64 input
 * has none. reproducible's bins take SACC_NBIN doubles a thread of dynamic shared memory (64 KB
 * for 512 threads: opted into once per instantiation and device). The CUDA error of the opt-in, or
 * cudaSuccess. */
template <typename X>
static cudaError_t lse_first_pass(int acc, const sl_launch *c, const X *x, uint64_t n, uint64_t head, uint64_t nv,
                                  void *work, cudaStream_t s)
{
    if (acc) {
        lse_accf_kernel<X><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work);
        return cudaSuccess;
    }
    const size_t smem = sizeof(double) * SACC_NBIN * (size_t)c->block;
    static std::atomic<size_t> opted[SL_SMEM_DEVICES];   /* per device (reduce/launch.cuh) */
    const cudaError_t e = sl_smem_opt_in(lse_rep1_kernel<X>, smem, sizeof(double) * SACC_NBIN * SL_LSE_MAX_BLOCK, opted);
    if (e != cudaSuccess) return e;
    lse_rep1_kernel<X><<<c->grid, c->block, smem, s>>>(x, n, head, nv, static_cast<unsigned char *>(work));
    return cudaSuccess;
}
template <>
cudaError_t lse_first_pass<double>(int, const sl_launch *, const double *, uint64_t, uint64_t, uint64_t, void *,
                                   cudaStream_t)
{
    return cudaSuccess;
}

template <typename X, typename T>
static const char *lse_launch(int kind, const sl_launch *c, const void *vx, uint64_t n, uint64_t head,
                              uint64_t nv, void *work, void *vres, double depth, cudaStream_t s,
                              cudaError_t *first_err)
{
    const X *x = (const X *)vx;
    X *res = (X *)vres;
    const int first = !lse_is_f64<X>::v; /* the one-pass forms of accurate, reproducible */
    switch (kind) {
    case SL_LSE_NAIVE:
        lse_kernel<X, T, SL_LSE_NAIVE><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, res, 0, 0.0);
        return "lse_kernel<naive>";
    case SL_LSE_TWO_PASS:
        lse_max_kernel<X, T><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, 0);
        lse_kernel<X, T, SL_LSE_TWO_PASS><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, res, 0, 0.0);
        return "lse_max_kernel + lse_kernel<two-pass>";
    case SL_LSE_HALF_ACC: /* 16-bit input only (sl_lse_gpu checks) */
        lse_kernel<X, T, lse_half_kind<X>::K><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, res, 0, 0.0);
        return "lse_kernel<half-acc>";
    case SL_LSE_COMPENSATED:
        lse_kernel<X, T, SL_LSE_COMPENSATED><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, res, 0, 0.0);
        return "lse_kernel<compensated>";
    case SL_LSE_ACCURATE: /* T = double (sl_lse_gpu) */
        if ((*first_err = lse_first_pass<X>(1, c, x, n, head, nv, work, s)) != cudaSuccess) return NULL;
        lse_kernel<X, T, SL_LSE_ACCURATE><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, res, first, depth);
        return first ? "lse_accf_kernel + lse_kernel<accurate>" : "lse_kernel<accurate>";
    case SL_LSE_REPRODUCIBLE: /* T: the maximum's format (float for float32 and 16-bit input) */
        if ((*first_err = lse_first_pass<X>(0, c, x, n, head, nv, work, s)) != cudaSuccess) return NULL;
        lse_max_kernel<X, T><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, first);
        lse_rep_kernel<X, T><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, res, first);
        return first ? "lse_rep1_kernel + lse_max_kernel + lse_rep_kernel" : "lse_max_kernel + lse_rep_kernel";
    default:
        lse_kernel<X, T, SL_LSE_ONLINE><<<c->grid, c->block, 0, s>>>(x, n, head, nv, work, res, 0, 0.0);
        return "lse_kernel<online>";
    }
}

} // namespace

extern "C" size_t sl_lse_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n;
    if (v->impl == SL_LSE_REPRODUCIBLE) return sl_ws_bytes(cfg->grid, sizeof(sl_rsum_state));
    const int wide = v->impl == SL_LSE_F64_ACC || v->impl == SL_LSE_ACCURATE || dt == SL_F64;
    return sl_ws_bytes(cfg->grid, wide ? sizeof(sl_lse_sd) : sizeof(sl_lse_sf));
}

extern "C" int sl_lse_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                          const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                          void *stream, sl_err *err)
{
    if (sl_check_aligned(v, d_x, dt, err) || sl_check_addr_mod(v, d_x, cfg, err) ||
        sl_check_shape(v, cfg, 32u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_lse_workspace(v, n, dt, cfg), err))
        return -1;
    if (v->impl == SL_LSE_F64_ACC && dt == SL_F64)
        return sl_err_set(err, "%s: float32/float16/bfloat16 input only", v->name);
    if (v->impl == SL_LSE_HALF_ACC && !sl_dtype_is_half(dt))
        return sl_err_set(err, "%s: float16/bfloat16 input only", v->name);
    uint64_t head, nv;
    sl_vec_split(n, dt, cfg->addr_mod, &head, &nv);
    cudaStream_t s = (cudaStream_t)stream;
    const int k = v->impl;
    const double depth = k == SL_LSE_ACCURATE && v->depth ? v->depth(v, n, dt, cfg) : 0.0;
    const char *what;
    cudaError_t fe = cudaSuccess;
    if (k == SL_LSE_REPRODUCIBLE && n >= SL_RSUM_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name, (unsigned long long)n);
    if ((k == SL_LSE_F64_ACC || k == SL_LSE_ACCURATE) && dt != SL_F64)
        what = dt == SL_F16    ? lse_launch<__half, double>(k, cfg, d_x, n, head, nv, d_work, d_result, depth, s, &fe)
             : dt == SL_BF16 ? lse_launch<__nv_bfloat16, double>(k, cfg, d_x, n, head, nv, d_work, d_result, depth, s, &fe)
                             : lse_launch<float, double>(k, cfg, d_x, n, head, nv, d_work, d_result, depth, s, &fe);
    else
        what = dt == SL_F64    ? lse_launch<double, double>(k, cfg, d_x, n, head, nv, d_work, d_result, depth, s, &fe)
             : dt == SL_F16  ? lse_launch<__half, float>(k, cfg, d_x, n, head, nv, d_work, d_result, depth, s, &fe)
             : dt == SL_BF16 ? lse_launch<__nv_bfloat16, float>(k, cfg, d_x, n, head, nv, d_work, d_result, depth, s, &fe)
                             : lse_launch<float, float>(k, cfg, d_x, n, head, nv, d_work, d_result, depth, s, &fe);
    if (fe != cudaSuccess)
        return sl_err_set(err, "%s: CUDA call 'cudaFuncSetAttribute(lse_rep1_kernel, "
                          "MaxDynamicSharedMemorySize)' failed: %s (%s)", v->name, cudaGetErrorName(fe),
                          cudaGetErrorString(fe));
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

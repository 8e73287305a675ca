/* accuracy.cu: GPU kernels and the one C-callable entry of the accuracy variants (serial,
 * atomic-block, kahan, fp64-acc, multipass; determinism classes in accuracy.c). Every add is
 * mirrored, in the same order, by the CPU twins in accuracy.c.
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds rounded to nearest even (float16 /
 * bfloat16 input widened exactly to float32, the result rounded once back), no flush to zero, no contraction (built with --fmad=false -ftz=false); nvcc never reassociates.
 * Compensated steps are written out operation by operation; each one rounds once.
 * Performance considerations: the grid-stride variants keep 4 or 8 (kUnroll) independent
 * 16-byte loads in flight per thread and one accumulator per vector lane (4 for float,
 * 2 for double), so Kahan's 4-add dependency chain is hidden behind memory latency; kahan
 * takes A = accs (1, 2, 4, 8) sets of them, consecutive loads into different sets (shorter
 * chains, more registers). */
#include <stdint.h>
#include "reduce/reduce.cuh"
#include "accuracy/accuracy.h"

namespace {

/* Vectors and lanes: reduce/vec.cuh. Combine operations (a + b; compensated pairs),
 * warp and block trees and the last-block finish: reduce/ops.cuh, warp.cuh, block.cuh,
 * grid.cuh. */

/* ---- accumulator policies of one vector lane ------------------------------------------------ */
/* Plain: s = s + (Acc)x, start +0. Out is the result format. */
/* float -> double: reduce/vec.cuh's sl_f2d_exact (integer ops for normal floats). */
template <typename Acc> __device__ __forceinline__ Acc widen(float x);
template <> __device__ __forceinline__ float widen<float>(float x) { return x; }
template <> __device__ __forceinline__ double widen<double>(float x) { return sl_f2d_exact(x); }
template <typename Acc> __device__ __forceinline__ Acc widen(double x) { return x; }
/* float16/bfloat16 to float32 (exact), or unchanged (reduce/vec.cuh's sl_acc_of) */
template <typename Acc> __device__ __forceinline__ Acc widen(__half x) { return sl_acc_of<Acc>(x); }
template <typename Acc> __device__ __forceinline__ Acc widen(__nv_bfloat16 x) { return sl_acc_of<Acc>(x); }
/* widen_lane: lane k of a vector in Acc; a 16-bit lane as a double by reduce/vec.cuh's
 * sl_widen_lane_f64 (odd lanes by the bits, even ones by the conversions). */
template <typename Acc, typename X> __device__ __forceinline__ Acc widen_lane(X x, int) { return widen<Acc>(x); }
template <> __device__ __forceinline__ double widen_lane<double>(__half x, int k) { return sl_widen_lane_f64(x, k); }
template <> __device__ __forceinline__ double widen_lane<double>(__nv_bfloat16 x, int k)
{
    return sl_widen_lane_f64(x, k);
}

template <typename In, typename Acc> struct PlainLane {
    typedef Acc S;
    typedef sl_op_plain<Acc> Op;
    typedef In Out;
    enum { kUnroll = 4 }; /* 8 costs fp64-acc registers and speed (BENCHMARKS.md) */
    static __device__ __forceinline__ S init() { return Acc(0); }
    static __device__ __forceinline__ void add(S &s, In x) { s = s + widen<Acc>(x); }
    static __device__ __forceinline__ void add_lane(S &s, In x, int k) { s = s + widen_lane<Acc>(x, k); }
    static __device__ __forceinline__ Acc out(S s) { return s; }
    static __device__ __forceinline__ Out final(Acc a) { return sl_out<Out>(a); } /* RN conversion */
};
/* Kahan: y = x - c; t = s + y; c = (t - s) - y; s = t (start s = c = +0) in T, the input In
 * widened exactly (float16/bfloat16 -> float32). c is minus the error, so the lane leaves as
 * the pair (s, -c). Final: s + e in T, rounded once to In. */
template <typename In, typename T> struct KahanLane {
    struct S { T s, c; };
    typedef sl_op_pair<T> Op;
    typedef In Out;
    enum { kUnroll = 8 }; /* measured: 8 reaches CUB's rate, 4 falls short (BENCHMARKS.md) */
    static __device__ __forceinline__ S init() { S r; r.s = T(0); r.c = T(0); return r; }
    static __device__ __forceinline__ void add(S &a, In xin)
    {
        const T x = widen<T>(xin);
        T y = x - a.c;
        T t = a.s + y;
        a.c = (t - a.s) - y;
        a.s = t;
    }
    static __device__ __forceinline__ void add_lane(S &a, In xin, int) { add(a, xin); }
    static __device__ __forceinline__ sl_pair<T> out(S a)
    {
        sl_pair<T> r;
        r.s = a.s;
        r.e = -a.c;
        return r;
    }
    /* fl(s + e); a non-finite s (an Inf or NaN met on the way) as it is: e is NaN beside it */
    static __device__ __forceinline__ Out final(sl_pair<T> a)
    {
        return sl_out<Out>(isfinite(a.s) ? T(a.s + a.e) : a.s);
    }
};

/* ---- grid-stride engine --------------------------------------------------------------------
 * Thread g of T = grid*block threads, A independent sets (kahan's accs; 1 for the others) of
 * one accumulator per vector lane k (W lanes):
 *   g < head: set 0, lane 0 takes x[g];
 *   step s = 0, 1, ..: vector j = g + s*T (x[head + j*W .. +W-1]): set s mod A, lane k takes
 *   element k;
 *   g < tail count: set 0, lane 0 takes x[head + nv*W + g];
 *   set value: W=4: (l0 (+) l1) (+) (l2 (+) l3); W=2: l0 (+) l1; W=8 (float16/bfloat16):
 *   ((l0 (+) l1) (+) (l2 (+) l3)) (+) ((l4 (+) l5) (+) (l6 (+) l7));
 *   thread value: for w = A/2 .. 1: p_q = p_q (+) p_{q+w} (q < w); p_0;
 *   sl_block_reduce; then gs_finish_kernel: sl_grid_finish (thread t: a = zero; a (+)= p[t],
 *   p[t+block], ...; sl_block_reduce), Out = L::final(a); gs_atomic_kernel: thread 0
 *   atomicAdd(result, block value).
 * The unrolled loop takes U = kUnroll steps at a time (A divides U, so its load u is step
 * s0 + u with s0 a multiple of A: set u mod A); the remaining steps (fewer than U) start at a
 * multiple of U, so remainder load u goes to set u mod A as well. */
template <class L, int W>
__device__ __forceinline__ typename L::Op::A set_value(const typename L::S *acc)
{
    typedef typename L::Op Op;
    if (W == 8)
        return Op::add(Op::add(Op::add(L::out(acc[0]), L::out(acc[1])),
                               Op::add(L::out(acc[2 % W]), L::out(acc[3 % W]))),
                       Op::add(Op::add(L::out(acc[4 % W]), L::out(acc[5 % W])),
                               Op::add(L::out(acc[6 % W]), L::out(acc[7 % W]))));
    if (W == 4)
        return Op::add(Op::add(L::out(acc[0]), L::out(acc[1])),
                       Op::add(L::out(acc[2 % W]), L::out(acc[3 % W])));
    return Op::add(L::out(acc[0]), L::out(acc[1 % W]));
}

template <typename In, class L, int A = 1>
__device__ __forceinline__ typename L::Op::A thread_value(const In *__restrict__ x, uint64_t n,
                                                         uint64_t head, uint64_t nv)
{
    typedef typename sl_vec<In>::type V;
    constexpr int W = sl_vec<In>::W;
    constexpr int U = L::kUnroll;
    static_assert(A >= 1 && A <= U && U % A == 0, "the sets divide the unrolled steps");
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    typename L::S acc[A][W];
#pragma unroll
    for (int q = 0; q < A; q++)
#pragma unroll
        for (int k = 0; k < W; k++) acc[q][k] = L::init();
    if (g < head) L::add(acc[0][0], x[g]);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    uint64_t j = g;
    for (; j + (U - 1) * T < nv; j += U * T) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = xv[j + u * T];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < W; k++) L::add_lane(acc[u % A][k], sl_vec_lane(v[u], k), k);
    }
    if (A == 1) {
        for (; j < nv; j += T) {
            V v = xv[j];
#pragma unroll
            for (int k = 0; k < W; k++) L::add_lane(acc[0][k], sl_vec_lane(v, k), k);
        }
    } else {
#pragma unroll
        for (int u = 0; u < U - 1; u++)
            if (j + u * T < nv) {
                V v = xv[j + u * T];
#pragma unroll
                for (int k = 0; k < W; k++) L::add_lane(acc[u % A][k], sl_vec_lane(v, k), k);
            }
    }
    const uint64_t ts = head + nv * W;
    if (g < n - ts) L::add(acc[0][0], x[ts + g]);
    typedef typename L::Op Op;
    typename Op::A p[A];
#pragma unroll
    for (int q = 0; q < A; q++) p[q] = set_value<L, W>(acc[q]);
#pragma unroll
    for (int w = A / 2; w >= 1; w /= 2)
#pragma unroll
        for (int q = 0; q < w; q++) p[q] = Op::add(p[q], p[q + w]);
    return p[0];
}

/* A thread's value as the tree takes it: the engine's, except that a Kahan thread whose pair is
 * not finite (an Inf or NaN among its values, or its running sum past the format's range, where
 * the compensation turns Inf into NaN) gives (its plain sum, 0): its values added again in one
 * set of plain lanes (accuracy.c's gs_thread_values_run). Off the common path: one test a thread. */
template <typename In, class L> struct gs_fix {
    static __device__ __forceinline__ typename L::Op::A run(typename L::Op::A v, const In *, uint64_t,
                                                            uint64_t, uint64_t)
    {
        return v;
    }
};
/* out of line, so that its loop's registers do not add to the Kahan loop's */
template <typename In, typename T>
__device__ __noinline__ T gs_plain_value(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv)
{
    return thread_value<In, PlainLane<In, T>>(x, n, head, nv);
}
template <typename In, typename T> struct gs_fix<In, KahanLane<In, T>> {
    static __device__ __forceinline__ sl_pair<T> run(sl_pair<T> v, const In *__restrict__ x, uint64_t n,
                                                     uint64_t head, uint64_t nv)
    {
        if (isfinite(v.s)) return v;
        v.s = gs_plain_value<In, T>(x, n, head, nv);
        v.e = T(0);
        return v;
    }
};

template <typename In, class L, int NA = 1>
__global__ void __launch_bounds__(1024)
gs_finish_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work,
                 typename L::Out *result)
{
    typedef typename L::Op Op;
    typedef typename Op::A A;
    __shared__ A s_warp[32];
    A v = gs_fix<In, L>::run(thread_value<In, L, NA>(x, n, head, nv), x, n, head, nv);
    v = sl_block_reduce<Op>(v, s_warp);
    sl_grid_finish<Op, L>(v, sl_ws_partials<A>(work), sl_ws_counter(work), result);
}

/* Block sums in Acc atomicAdded to *result (an Acc: for 16-bit input a float32 in the
 * workspace, rounded to the output by gs_atomic_out). */
template <typename In, typename Acc>
__global__ void __launch_bounds__(1024)
gs_atomic_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, Acc *result)
{
    typedef PlainLane<In, Acc> L;
    __shared__ Acc s_warp[32];
    Acc v = thread_value<In, L>(x, n, head, nv);
    v = sl_block_sum(v, s_warp);
    if (threadIdx.x == 0) atomicAdd(result, v);
}

template <typename Out>
__global__ void gs_atomic_out(float *acc, Out *result)
{
    *result = sl_out<Out>(*acc);
    *acc = 0.0f;
}

/* ---- serial ----------------------------------------------------------------------------------
 * s = -0; s = s + x[i] for i = 0..n-1 (the -0 start is an exact identity: the first add
 * returns x[0] bit for bit); n = 0 writes +0. Thread 0 sums chunks of SL_SERIAL_CHUNK from
 * shared memory while warps 1.. stage the next chunk (double buffer). Both sides keep their
 * loads ahead of their use on float32 input: a stager's unrolled loop issues its loads before
 * its stores, and thread 0 reads the next 16 values of the chunk before it adds the current 16,
 * so its loop runs at the latency of the dependent adds. On float64 and 16-bit input the same
 * code measured no faster (float64: its adds' latency bounds it either way) or slower
 * (bfloat16), so those keep the plain unrolled loops (BENCHMARKS.md). */
#define SL_SERIAL_G 16u
template <typename X, typename T>
__global__ void __launch_bounds__(SL_SERIAL_BLOCK) serial_kernel(const X *__restrict__ x, uint64_t n,
                                                                 X *result)
{
    __shared__ X buf[2][SL_SERIAL_CHUNK];
    static_assert(SL_SERIAL_CHUNK % (2 * SL_SERIAL_G) == 0, "whole pairs of groups a chunk");
    const unsigned tid = threadIdx.x;
    const uint64_t nchunks = (n + SL_SERIAL_CHUNK - 1) / SL_SERIAL_CHUNK;
    T s = T(-0.0);
    if (nchunks > 0) {
        const uint64_t len0 = n < SL_SERIAL_CHUNK ? n : SL_SERIAL_CHUNK;
#pragma unroll 8
        for (uint64_t i = tid; i < len0; i += blockDim.x) buf[0][i] = x[i];
    }
    __syncthreads();
    for (uint64_t c = 0; c < nchunks; c++) {
        if (tid >= 32u) {
            const uint64_t nb = (c + 1) * SL_SERIAL_CHUNK;
            if (nb < n) {
                const unsigned len = (unsigned)(n - nb < SL_SERIAL_CHUNK ? n - nb : SL_SERIAL_CHUNK);
                X *dst = buf[(c + 1) & 1];
                const X *src = x + nb;
                if (sizeof(X) == 4) {
#pragma unroll 8
                    for (unsigned i = tid - 32u; i < len; i += blockDim.x - 32u) dst[i] = src[i];
                } else {
                    for (unsigned i = tid - 32u; i < len; i += blockDim.x - 32u) dst[i] = src[i];
                }
            }
        } else if (tid == 0) {
            const uint64_t base = c * SL_SERIAL_CHUNK;
            const uint64_t len = n - base < SL_SERIAL_CHUNK ? n - base : SL_SERIAL_CHUNK;
            const X *src = buf[c & 1];
            if (len == SL_SERIAL_CHUNK && sizeof(X) != 4) {
#pragma unroll 16
                for (unsigned i = 0; i < SL_SERIAL_CHUNK; i++) s = s + sl_acc_of<T>(src[i]);
            } else if (len == SL_SERIAL_CHUNK) {
                X a[SL_SERIAL_G], b[SL_SERIAL_G];
#pragma unroll
                for (unsigned k = 0; k < SL_SERIAL_G; k++) a[k] = src[k];
#pragma unroll 1
                for (unsigned i = 0; i < SL_SERIAL_CHUNK; i += 2 * SL_SERIAL_G) {
#pragma unroll
                    for (unsigned k = 0; k < SL_SERIAL_G; k++) b[k] = src[i + SL_SERIAL_G + k];
#pragma unroll
                    for (unsigned k = 0; k < SL_SERIAL_G; k++) s = s + sl_acc_of<T>(a[k]);
                    if (i + 2 * SL_SERIAL_G < SL_SERIAL_CHUNK) {
#pragma unroll
                        for (unsigned k = 0; k < SL_SERIAL_G; k++) a[k] = src[i + 2 * SL_SERIAL_G + k];
                    }
#pragma unroll
                    for (unsigned k = 0; k < SL_SERIAL_G; k++) s = s + sl_acc_of<T>(b[k]);
                }
            } else {
                for (unsigned i = 0; i < (unsigned)len; i++) s = s + sl_acc_of<T>(src[i]);
            }
        }
        __syncthreads();
    }
    if (tid == 0) *result = sl_out<X>(n ? s : T(0));
}

/* ---- multipass ---------------------------------------------------------------------------------
 * Tile t covers elements [t*TILE, t*TILE + TILE) of an array of m elements (missing ones read
 * as +0). With W = 4 (float) or 2 (double), J = TILE / (BLOCK*W) = 8 or 16, thread t < BLOCK:
 *   lane k (k < W): a_k = e(t*W + k); a_k = a_k + e((j*BLOCK + t)*W + k) for j = 1..J-1;
 *   thread value: W=4: (a0 + a1) + (a2 + a3); W=2: a0 + a1;  then sl_block_sum (BLOCK=256).
 * Level 0 reduces x into P1 = ceil(n/TILE) tile partials (tiles spread over the blocks; which
 * block reduces a tile changes nothing); the last block to finish repeats the same tile
 * reduction over the partials (P -> ceil(P/TILE)) until one value remains. */
template <typename X, typename T, bool kVec, bool kCg>
__device__ __forceinline__ T mp_tile(const X *__restrict__ x, uint64_t m, uint64_t tile, T *s_warp)
{
    typedef typename sl_vec<X>::type V;
    constexpr int W = sl_vec<X>::W;
    constexpr unsigned J = SL_MP_TILE / (SL_MP_BLOCK * W);
    const unsigned t = threadIdx.x;
    const uint64_t base = tile * SL_MP_TILE;
    T a[W];
    if (base + SL_MP_TILE <= m) {
        if (kVec) {
            const V *xv = reinterpret_cast<const V *>(x + base);
            V v[J];
#pragma unroll
            for (unsigned j = 0; j < J; j++) v[j] = kCg ? sl_ldcg(&xv[j * SL_MP_BLOCK + t]) : xv[j * SL_MP_BLOCK + t];
#pragma unroll
            for (int k = 0; k < W; k++) a[k] = sl_acc_of<T>(sl_vec_lane(v[0], k));
#pragma unroll
            for (unsigned j = 1; j < J; j++)
#pragma unroll
                for (int k = 0; k < W; k++) a[k] = a[k] + sl_acc_of<T>(sl_vec_lane(v[j], k));
        } else {
#pragma unroll
            for (int k = 0; k < W; k++) a[k] = sl_acc_of<T>(x[base + (uint64_t)t * W + k]);
#pragma unroll
            for (unsigned j = 1; j < J; j++)
#pragma unroll
                for (int k = 0; k < W; k++)
                    a[k] = a[k] + sl_acc_of<T>(x[base + (uint64_t)(j * SL_MP_BLOCK + t) * W + k]);
        }
    } else {
        /* partial tile: guarded scalar loads, missing elements are +0 */
#pragma unroll
        for (int k = 0; k < W; k++) {
            const uint64_t i = base + (uint64_t)t * W + k;
            a[k] = i < m ? sl_acc_of<T>(kCg ? __ldcg(&x[i]) : x[i]) : T(0);
        }
        for (unsigned j = 1; j < J; j++)
#pragma unroll
            for (int k = 0; k < W; k++) {
                const uint64_t i = base + (uint64_t)(j * SL_MP_BLOCK + t) * W + k;
                a[k] = a[k] + (i < m ? sl_acc_of<T>(kCg ? __ldcg(&x[i]) : x[i]) : T(0));
            }
    }
    T v = (W == 8)   ? ((a[0] + a[1]) + (a[2 % W] + a[3 % W])) + ((a[4 % W] + a[5 % W]) + (a[6 % W] + a[7 % W]))
          : (W == 4) ? (a[0] + a[1]) + (a[2 % W] + a[3 % W])
                     : a[0] + a[1 % W];
    v = sl_block_sum(v, s_warp);
    __syncthreads(); /* s_warp is reused by the next tile */
    return v;
}

/* Level 0 reads X (vector loads of X); the partials and every later level are in T (float32
 * for 16-bit input); the result is rounded once to X. */
template <typename X, typename T, bool kVec>
__global__ void __launch_bounds__(SL_MP_BLOCK)
mp_kernel(const X *__restrict__ x, uint64_t n, uint64_t p1, void *work, size_t buf_b_off, X *result)
{
    __shared__ T s_warp[32];
    unsigned *counter = sl_ws_counter(work);
    T *bufa = reinterpret_cast<T *>(static_cast<unsigned char *>(work) + SL_WS_HEADER);
    T *bufb = reinterpret_cast<T *>(static_cast<unsigned char *>(work) + buf_b_off);
    for (uint64_t tile = blockIdx.x; tile < p1; tile += gridDim.x) {
        T v = mp_tile<X, T, kVec, false>(x, n, tile, s_warp);
        if (threadIdx.x == 0) bufa[tile] = v;
    }
    /* thread 0 stored its block's tiles: it fences before its ticket */
    if (!sl_ticket_last<sl_bar_aligned, true>(counter)) return;
    T *src = bufa, *dst = bufb;
    uint64_t m = p1;
    while (m > 1) {
        const uint64_t pn = (m + SL_MP_TILE - 1) / SL_MP_TILE;
        for (uint64_t tile = 0; tile < pn; tile++) {
            T v = mp_tile<T, T, true, true>(src, m, tile, s_warp);
            if (threadIdx.x == 0) dst[tile] = v;
        }
        __threadfence_block();
        __syncthreads();
        T *tmp = src; src = dst; dst = tmp;
        m = pn;
    }
    if (threadIdx.x == 0) {
        *result = sl_out<X>(n ? __ldcg(&src[0]) : T(0));
        *counter = 0u;
    }
}

} // namespace

/* ---- launchers -------------------------------------------------------------------------------
 * One entry for every member (v->impl): acc_prep checks what the member needs, acc_launch<T>
 * (the family's one float/double branch) enqueues its kernel. */

/* What a launch needs, checked. */
struct acc_args {
    const sl_launch *cfg; /* resolved by the caller */
    const void *x;
    uint64_t n;
    uint64_t head, nv;    /* grid-stride engine: the split of x (sl_layout.h) */
    void *work, *result;
    cudaStream_t s;
};

static size_t mp_buf_b_off(uint64_t p1, sl_dtype dt)
{
    size_t a = (size_t)SL_WS_HEADER + (size_t)(p1 ? p1 : 1) * sl_dtype_size(dt);
    return (a + 255u) & ~(size_t)255u;
}

static size_t mp_workspace(uint64_t n, sl_dtype dt)
{
    const uint64_t p1 = (n + SL_MP_TILE - 1) / SL_MP_TILE;
    const uint64_t p2 = (p1 + SL_MP_TILE - 1) / SL_MP_TILE;
    return mp_buf_b_off(p1, dt) + (size_t)(p2 ? p2 : 1) * sl_dtype_size(dt);
}

extern "C" size_t sl_accuracy_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                        const sl_launch *cfg)
{
    switch ((sl_acc_kind)v->impl) {
    case SL_ACC_KAHAN: return sl_ws_bytes(cfg->grid, 2 * sl_dtype_size(sl_dtype_acc(dt)));
    case SL_ACC_FP64_ACC: return sl_ws_bytes(cfg->grid, sizeof(double));
    case SL_ACC_MULTIPASS: return mp_workspace(n, sl_dtype_acc(dt));
    case SL_ACC_ATOMIC_BLOCK: return sl_dtype_is_half(dt) ? 16u : 0u; /* the float32 accumulator */
    default: return 0; /* serial */
    }
}

/* The grid-stride engine's checks and split: element-aligned input at the address the split
 * assumes, a resolved shape (block a multiple of 32). */
static int gs_prep(const sl_variant *v, sl_dtype dt, acc_args *a, sl_err *err)
{
    if (sl_check_aligned(v, a->x, dt, err) || sl_check_addr_mod(v, a->x, a->cfg, err) ||
        sl_check_shape(v, a->cfg, 32u, err))
        return -1;
    sl_vec_split(a->n, dt, a->cfg->addr_mod, &a->head, &a->nv);
    return 0;
}

static int acc_prep(const sl_variant *v, sl_dtype dt, size_t work_bytes, acc_args *a, sl_err *err)
{
    const size_t need = sl_accuracy_workspace(v, a->n, dt, a->cfg);
    switch ((sl_acc_kind)v->impl) {
    case SL_ACC_SERIAL: return 0; /* one block of SL_SERIAL_BLOCK, whatever cfg says */
    case SL_ACC_FP64_ACC:
        if (dt == SL_F64) return sl_err_set(err, "%s: float32/float16/bfloat16 input only", v->name);
        /* fall through */
    case SL_ACC_KAHAN:
        if (a->cfg->accs > 1 && a->cfg->accs != 2 && a->cfg->accs != 4 && a->cfg->accs != 8)
            return sl_err_set(err, "%s: accumulators %u not in {1, 2, 4, 8}", v->name, a->cfg->accs);
        /* fall through */
    case SL_ACC_ATOMIC_BLOCK:
        if (gs_prep(v, dt, a, err)) return -1;
        return sl_check_workspace(v, a->work, work_bytes, need, err);
    case SL_ACC_MULTIPASS:
        if (a->cfg->block != SL_MP_BLOCK || a->cfg->grid == 0)
            return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)",
                              v->name, a->cfg->block, a->cfg->grid);
        if (sl_check_workspace(v, a->work, work_bytes, need, err)) return -1;
        return sl_check_aligned(v, a->x, dt, err);
    default: return sl_err_set(err, "%s: not an accuracy kernel (impl %d)", v->name, v->impl);
    }
}

/* fp64-acc: float32 and 16-bit input (acc_prep refuses float64 before any launch). */
template <typename X>
static const char *fp64_acc_launch(const acc_args &a)
{
    const sl_launch *c = a.cfg;
    gs_finish_kernel<X, PlainLane<X, double> ><<<c->grid, c->block, 0, a.s>>>(
        (const X *)a.x, a.n, a.head, a.nv, a.work, (X *)a.result);
    return "gs_finish_kernel<fp64-acc>";
}

/* kahan: A = accs independent sets of lanes (0: 1; acc_prep refuses any other than 1, 2, 4, 8). */
template <typename X, typename T>
static const char *kahan_launch(const acc_args &a)
{
    const sl_launch *c = a.cfg;
    const X *x = (const X *)a.x;
    X *res = (X *)a.result;
    typedef KahanLane<X, T> L;
    switch (c->accs) {
    case 2:
        gs_finish_kernel<X, L, 2><<<c->grid, c->block, 0, a.s>>>(x, a.n, a.head, a.nv, a.work, res);
        return "gs_finish_kernel<kahan, 2 accumulators>";
    case 4:
        gs_finish_kernel<X, L, 4><<<c->grid, c->block, 0, a.s>>>(x, a.n, a.head, a.nv, a.work, res);
        return "gs_finish_kernel<kahan, 4 accumulators>";
    case 8:
        gs_finish_kernel<X, L, 8><<<c->grid, c->block, 0, a.s>>>(x, a.n, a.head, a.nv, a.work, res);
        return "gs_finish_kernel<kahan, 8 accumulators>";
    default:
        gs_finish_kernel<X, L><<<c->grid, c->block, 0, a.s>>>(x, a.n, a.head, a.nv, a.work, res);
        return "gs_finish_kernel<kahan>";
    }
}

/* multipass: level 0 over at most one block per tile, vector loads when x is 16-aligned. */
template <typename X, typename T>
static const char *mp_launch(const acc_args &a)
{
    const uint64_t p1 = (a.n + SL_MP_TILE - 1) / SL_MP_TILE;
    const uint64_t tiles = p1 ? p1 : 1;
    const unsigned grid = (uint64_t)a.cfg->grid < tiles ? a.cfg->grid : (unsigned)tiles;
    const bool vec = ((uintptr_t)a.x & 15u) == 0;
    const size_t boff = mp_buf_b_off(p1, sizeof(T) == 8 ? SL_F64 : SL_F32);
    const X *x = (const X *)a.x;
    X *res = (X *)a.result;
    if (vec) mp_kernel<X, T, true><<<grid, SL_MP_BLOCK, 0, a.s>>>(x, a.n, p1, a.work, boff, res);
    else mp_kernel<X, T, false><<<grid, SL_MP_BLOCK, 0, a.s>>>(x, a.n, p1, a.work, boff, res);
    return "mp_kernel";
}

/* Enqueues member v->impl's kernel for input X accumulated in T (float32 for 16-bit input);
 * returns the kernel's name. */
template <typename X, typename T>
static const char *acc_launch(const sl_variant *v, const acc_args &a)
{
    const X *x = (const X *)a.x;
    X *res = (X *)a.result;
    const sl_launch *c = a.cfg;
    switch ((sl_acc_kind)v->impl) {
    case SL_ACC_SERIAL:
        serial_kernel<X, T><<<1, SL_SERIAL_BLOCK, 0, a.s>>>(x, a.n, res);
        return "serial_kernel";
    case SL_ACC_ATOMIC_BLOCK:
        if (sizeof(X) == 2) { /* float32 accumulator in the workspace, then one rounding */
            gs_atomic_kernel<X, float><<<c->grid, c->block, 0, a.s>>>(x, a.n, a.head, a.nv, (float *)a.work);
            gs_atomic_out<X><<<1, 1, 0, a.s>>>((float *)a.work, res);
        } else {
            gs_atomic_kernel<X, X><<<c->grid, c->block, 0, a.s>>>(x, a.n, a.head, a.nv, res);
        }
        return "gs_atomic_kernel";
    case SL_ACC_KAHAN: return kahan_launch<X, T>(a);
    case SL_ACC_FP64_ACC: return fp64_acc_launch<X>(a);
    case SL_ACC_MULTIPASS: return mp_launch<X, T>(a);
    default: return NULL;
    }
}

/* The kernel kahan_launch enqueues for accs A, input X accumulated in T. */
template <typename X, typename T>
static const void *kahan_fn(uint32_t accs)
{
    typedef KahanLane<X, T> L;
    switch (accs) {
    case 2: return (const void *)gs_finish_kernel<X, L, 2>;
    case 4: return (const void *)gs_finish_kernel<X, L, 4>;
    case 8: return (const void *)gs_finish_kernel<X, L, 8>;
    default: return (const void *)gs_finish_kernel<X, L>;
    }
}

extern "C" int sl_accuracy_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt,
                                        const sl_launch *cfg, int *regs, int *blocks_per_sm,
                                        double *occupancy, sl_err *err)
{
    if (v->impl != SL_ACC_KAHAN)
        return sl_err_set(err, "%s: no kernel attributes for this member (impl %d)", v->name, v->impl);
    sl_launch c = *cfg;
    sl_variant_resolve(v, &c, n, dt);
    if (c.accs > 1 && c.accs != 2 && c.accs != 4 && c.accs != 8)
        return sl_err_set(err, "%s: accumulators %u not in {1, 2, 4, 8}", v->name, c.accs);
    const void *fn = dt == SL_F64    ? kahan_fn<double, double>(c.accs)
                     : dt == SL_F16  ? kahan_fn<__half, float>(c.accs)
                     : dt == SL_BF16 ? kahan_fn<__nv_bfloat16, float>(c.accs)
                                     : kahan_fn<float, float>(c.accs);
    return sl_kernel_attrs_of(fn, c.block, 0, v->name, regs, blocks_per_sm, occupancy, err);
}

extern "C" int sl_accuracy_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                               const sl_launch *cfg, void *d_work, size_t work_bytes,
                               void *d_result, void *stream, sl_err *err)
{
    acc_args a = {cfg, d_x, n, 0, 0, d_work, d_result, (cudaStream_t)stream};
    if (acc_prep(v, dt, work_bytes, &a, err)) return -1;
    if (v->impl == SL_ACC_ATOMIC_BLOCK) /* block sums are atomicAdded into the result */
        SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0, sl_dtype_size(dt), a.s), v->name, err);
    const char *what = dt == SL_F64    ? acc_launch<double, double>(v, a)
                       : dt == SL_F16  ? acc_launch<__half, float>(v, a)
                       : dt == SL_BF16 ? acc_launch<__nv_bfloat16, float>(v, a)
                                       : acc_launch<float, float>(v, a);
    if (!what) return sl_err_set(err, "%s: not an accuracy kernel (impl %d)", v->name, v->impl);
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

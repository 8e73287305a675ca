/* accuracy.cu: GPU kernels of the accuracy variants (serial, atomic-block, kahan, fp64-acc,
 * multipass). Every add is mirrored, in the same order, by the CPU twins in accuracy.c.
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds rounded to nearest even, no flush
 * to zero, no contraction (built with --fmad=false -ftz=false); nvcc never reassociates.
 * Compensated steps are written out operation by operation; each one rounds once.
 * Performance considerations: the grid-stride variants keep 4 or 8 (kUnroll) independent
 * 16-byte loads in flight per thread and one accumulator per vector lane (4 for float,
 * 2 for double), so Kahan's 4-add dependency chain is hidden behind memory latency. */
#include <stdint.h>
#include "sl_reduce.cuh"
#include "sl_accuracy.h"

namespace {

/* ---- vector loads ------------------------------------------------------------------------ */
template <typename T> struct VecOf;
template <> struct VecOf<float> { typedef float4 V; enum { W = 4 }; };
template <> struct VecOf<double> { typedef double2 V; enum { W = 2 }; };
__device__ __forceinline__ float lane_of(const float4 &v, int k)
{
    return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}
__device__ __forceinline__ double lane_of(const double2 &v, int k) { return k == 0 ? v.x : v.y; }

/* ---- combine operations over the tree ----------------------------------------------------
 * PlainOp: a + b (the order of sl_reduce.cuh). PairOp: compensated pairs (s, e) with
 * s + e ~ value; (s1,e1)+(s2,e2): s = s1+s2, bp = s-s1, err = (s1-(s-bp)) + (s2-bp) (TwoSum,
 * exact), e = err + (e1 + e2). Padding value: zero() (+0, or (+0,+0)). */
template <typename T> struct Pair { T s, e; };

template <typename T> struct PlainOp {
    typedef T A;
    static __device__ __forceinline__ A zero() { return T(0); }
    static __device__ __forceinline__ A add(A a, A b) { return a + b; }
    static __device__ __forceinline__ A shfl(A v, int off)
    {
        return __shfl_down_sync(SL_FULL_MASK, v, off);
    }
    static __device__ __forceinline__ void store(A *p, A v) { *p = v; }
    static __device__ __forceinline__ A load_cg(const A *p) { return __ldcg(p); }
};

template <typename T> struct PairOp {
    typedef Pair<T> A;
    static __device__ __forceinline__ A zero() { A r; r.s = T(0); r.e = T(0); return r; }
    static __device__ __forceinline__ A add(A a, A b)
    {
        A r;
        T s = a.s + b.s;
        T bp = s - a.s;
        T err = (a.s - (s - bp)) + (b.s - bp);
        T ee = a.e + b.e;
        r.s = s;
        r.e = err + ee;
        return r;
    }
    static __device__ __forceinline__ A shfl(A v, int off)
    {
        A r;
        r.s = __shfl_down_sync(SL_FULL_MASK, v.s, off);
        r.e = __shfl_down_sync(SL_FULL_MASK, v.e, off);
        return r;
    }
    static __device__ __forceinline__ void store(A *p, A v) { p->s = v.s; p->e = v.e; }
    static __device__ __forceinline__ A load_cg(const A *p)
    {
        A r;
        r.s = __ldcg(&p->s);
        r.e = __ldcg(&p->e);
        return r;
    }
};

/* Warp: for off = 16..1, lane i <- lane i (+) lane i+off (lane 0 holds the warp's value). */
template <class Op>
__device__ __forceinline__ typename Op::A op_warp(typename Op::A v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = Op::add(v, Op::shfl(v, off));
    return v;
}
/* Block: warp values into 32 slots (missing warps: zero()), warp 0 combines the slots.
 * Result valid in thread 0. Same shape as sl_block_sum. */
template <class Op>
__device__ __forceinline__ typename Op::A op_block(typename Op::A v, typename Op::A *s_warp)
{
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned nwarps = blockDim.x >> 5;
    v = op_warp<Op>(v);
    if (lane == 0) s_warp[warp] = v;
    __syncthreads();
    typename Op::A r = Op::zero();
    if (warp == 0) {
        r = lane < nwarps ? s_warp[lane] : Op::zero();
        r = op_warp<Op>(r);
    }
    return r;
}

/* ---- accumulator policies of one vector lane ------------------------------------------------ */
/* Plain: s = s + (Acc)x, start +0. Out is the result format. */
/* float -> double, exact, with integer ops for normal floats (the F2F conversion unit is
 * the bottleneck of fp64-acc at full bandwidth); zero, subnormal, Inf and NaN take F2F. Both
 * give the same double, so the twin's (double)x mirrors it. */
__device__ __forceinline__ double f2d_exact(float f)
{
    const unsigned u = __float_as_uint(f);
    const unsigned ex = (u >> 23) & 0xffu;
    if (ex - 1u >= 254u) return (double)f;
    const unsigned hi = (u & 0x80000000u) | (((u & 0x7fffffffu) >> 3) + (896u << 20));
    return __hiloint2double((int)hi, (int)(u << 29));
}
template <typename Acc> __device__ __forceinline__ Acc widen(float x);
template <> __device__ __forceinline__ float widen<float>(float x) { return x; }
template <> __device__ __forceinline__ double widen<double>(float x) { return f2d_exact(x); }
template <typename Acc> __device__ __forceinline__ Acc widen(double x) { return x; }

template <typename In, typename Acc> struct PlainLane {
    typedef Acc S;
    typedef PlainOp<Acc> Op;
    typedef In Out;
    enum { kUnroll = 4 }; /* 8 costs fp64-acc 15% (registers) */
    static __device__ __forceinline__ S init() { return Acc(0); }
    static __device__ __forceinline__ void add(S &s, In x) { s = s + widen<Acc>(x); }
    static __device__ __forceinline__ Acc out(S s) { return s; }
    static __device__ __forceinline__ Out final(Acc a) { return (Out)a; } /* RN conversion */
};
/* Kahan: y = x - c; t = s + y; c = (t - s) - y; s = t (start s = c = +0). c is minus the
 * error, so the lane leaves as the pair (s, -c). Final: s + e, rounded once. */
template <typename T> struct KahanLane {
    struct S { T s, c; };
    typedef PairOp<T> Op;
    typedef T Out;
    enum { kUnroll = 8 }; /* measured: 8 reaches CUB's rate, 4 is 2-3% short */
    static __device__ __forceinline__ S init() { S r; r.s = T(0); r.c = T(0); return r; }
    static __device__ __forceinline__ void add(S &a, T x)
    {
        T y = x - a.c;
        T t = a.s + y;
        a.c = (t - a.s) - y;
        a.s = t;
    }
    static __device__ __forceinline__ Pair<T> out(S a) { Pair<T> r; r.s = a.s; r.e = -a.c; return r; }
    static __device__ __forceinline__ Out final(Pair<T> a) { return a.s + a.e; }
};

/* ---- grid-stride engine --------------------------------------------------------------------
 * Thread g of T = grid*block threads, one accumulator per vector lane k (W lanes):
 *   g < head: lane 0 takes x[g];
 *   vectors j = g, g+T, g+2T, ... (vector j = x[head + j*W .. +W-1]): lane k takes element k;
 *   g < tail count: lane 0 takes x[head + nv*W + g];
 *   thread value: W=4: (l0 (+) l1) (+) (l2 (+) l3); W=2: l0 (+) l1;
 *   op_block; then MODE 0: last-block finish (thread t: a = zero; a (+)= p[t], p[t+block], ...;
 *   op_block; Out = final(a)); MODE 1: thread 0 atomicAdd(result, block value). */
template <typename In, class L>
__device__ __forceinline__ typename L::Op::A thread_value(const In *__restrict__ x, uint64_t n,
                                                         uint64_t head, uint64_t nv)
{
    typedef typename VecOf<In>::V V;
    constexpr int W = VecOf<In>::W;
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    typename L::S acc[W];
#pragma unroll
    for (int k = 0; k < W; k++) acc[k] = L::init();
    if (g < head) L::add(acc[0], x[g]);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    uint64_t j = g;
    constexpr int U = L::kUnroll;
    for (; j + (U - 1) * T < nv; j += U * T) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = xv[j + u * T];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < W; k++) L::add(acc[k], lane_of(v[u], k));
    }
    for (; j < nv; j += T) {
        V v = xv[j];
#pragma unroll
        for (int k = 0; k < W; k++) L::add(acc[k], lane_of(v, k));
    }
    const uint64_t ts = head + nv * W;
    if (g < n - ts) L::add(acc[0], x[ts + g]);
    typedef typename L::Op Op;
    if (W == 4)
        return Op::add(Op::add(L::out(acc[0]), L::out(acc[1])),
                       Op::add(L::out(acc[2 % W]), L::out(acc[3 % W])));
    return Op::add(L::out(acc[0]), L::out(acc[1 % W]));
}

template <typename In, class L>
__global__ void __launch_bounds__(1024)
gs_finish_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work,
                 typename L::Out *result)
{
    typedef typename L::Op Op;
    typedef typename Op::A A;
    __shared__ A s_warp[32];
    __shared__ A s_fin[32];
    __shared__ unsigned s_last;
    A v = thread_value<In, L>(x, n, head, nv);
    v = op_block<Op>(v, s_warp);
    A *parts = reinterpret_cast<A *>(static_cast<unsigned char *>(work) + SL_WS_HEADER);
    unsigned *counter = static_cast<unsigned *>(work);
    if (threadIdx.x == 0) {
        Op::store(&parts[blockIdx.x], v);
        __threadfence();
        unsigned ticket = atomicAdd(counter, 1u);
        s_last = (ticket == gridDim.x - 1u);
    }
    __syncthreads();
    if (!s_last) return;
    __threadfence();
    const unsigned G = gridDim.x;
    A a = Op::zero();
    for (unsigned i = threadIdx.x; i < G; i += blockDim.x) a = Op::add(a, Op::load_cg(&parts[i]));
    a = op_block<Op>(a, s_fin);
    if (threadIdx.x == 0) {
        *result = L::final(a);
        *counter = 0u;
    }
}

template <typename In>
__global__ void __launch_bounds__(1024)
gs_atomic_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, In *result)
{
    typedef PlainLane<In, In> L;
    __shared__ In s_warp[32];
    In v = thread_value<In, L>(x, n, head, nv);
    v = op_block<PlainOp<In> >(v, s_warp);
    if (threadIdx.x == 0) atomicAdd(result, v);
}

/* Common launcher checks and sizes. */
struct GsShape {
    uint64_t head, nv;
};
int gs_shape(const char *vname, const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg,
             GsShape *sh, sl_err *err)
{
    const size_t es = sl_dtype_size(dt);
    const uintptr_t a = (uintptr_t)d_x;
    if (a % es) return sl_kerr(err, "%s: input pointer %p is not aligned to its element size", vname, d_x);
    if ((a & 15u) != (cfg->addr_mod & 15u))
        return sl_kerr(err, "%s: cfg->addr_mod %u does not match the input address (mod 16 = %u): "
                       "resolve the launch for this pointer", vname, cfg->addr_mod, (unsigned)(a & 15u));
    if (cfg->block == 0 || cfg->block % 32u || cfg->block > 1024u || cfg->grid == 0)
        return sl_kerr(err, "%s: unresolved launch configuration (block %u, grid %u)", vname,
                       cfg->block, cfg->grid);
    sh->head = sl_acc_head(n, dt, cfg->addr_mod);
    sh->nv = (n - sh->head) / sl_acc_vw(dt);
    return 0;
}

/* ---- serial ----------------------------------------------------------------------------------
 * s = -0; s = s + x[i] for i = 0..n-1 (the -0 start is an exact identity: the first add
 * returns x[0] bit for bit); n = 0 writes +0. Thread 0 sums chunks of SL_SERIAL_CHUNK from
 * shared memory while warps 1.. stage the next chunk (double buffer). */
template <typename T>
__global__ void __launch_bounds__(SL_SERIAL_BLOCK) serial_kernel(const T *__restrict__ x, uint64_t n,
                                                                 T *result)
{
    __shared__ T buf[2][SL_SERIAL_CHUNK];
    const unsigned tid = threadIdx.x;
    const uint64_t nchunks = (n + SL_SERIAL_CHUNK - 1) / SL_SERIAL_CHUNK;
    T s = T(-0.0);
    if (nchunks > 0) {
        const uint64_t len0 = n < SL_SERIAL_CHUNK ? n : SL_SERIAL_CHUNK;
        for (uint64_t i = tid; i < len0; i += blockDim.x) buf[0][i] = x[i];
    }
    __syncthreads();
    for (uint64_t c = 0; c < nchunks; c++) {
        if (tid >= 32u) {
            const uint64_t nb = (c + 1) * SL_SERIAL_CHUNK;
            if (nb < n) {
                const uint64_t len = n - nb < SL_SERIAL_CHUNK ? n - nb : SL_SERIAL_CHUNK;
                T *dst = buf[(c + 1) & 1];
                for (uint64_t i = tid - 32u; i < len; i += blockDim.x - 32u) dst[i] = x[nb + i];
            }
        } else if (tid == 0) {
            const uint64_t base = c * SL_SERIAL_CHUNK;
            const uint64_t len = n - base < SL_SERIAL_CHUNK ? n - base : SL_SERIAL_CHUNK;
            const T *src = buf[c & 1];
            if (len == SL_SERIAL_CHUNK) {
#pragma unroll 16
                for (unsigned i = 0; i < SL_SERIAL_CHUNK; i++) s = s + src[i];
            } else {
                for (unsigned i = 0; i < (unsigned)len; i++) s = s + src[i];
            }
        }
        __syncthreads();
    }
    if (tid == 0) *result = n ? s : T(0);
}

/* ---- multipass ---------------------------------------------------------------------------------
 * Tile t covers elements [t*TILE, t*TILE + TILE) of an array of m elements (missing ones read
 * as +0). With W = 4 (float) or 2 (double), J = TILE / (BLOCK*W) = 8 or 16, thread t < BLOCK:
 *   lane k (k < W): a_k = e(t*W + k); a_k = a_k + e((j*BLOCK + t)*W + k) for j = 1..J-1;
 *   thread value: W=4: (a0 + a1) + (a2 + a3); W=2: a0 + a1;  then sl_block_sum (BLOCK=256).
 * Level 0 reduces x into P1 = ceil(n/TILE) tile partials (tiles spread over the blocks; which
 * block reduces a tile changes nothing); the last block to finish repeats the same tile
 * reduction over the partials (P -> ceil(P/TILE)) until one value remains. */
template <typename T, bool kVec, bool kCg>
__device__ __forceinline__ T mp_tile(const T *__restrict__ x, uint64_t m, uint64_t tile, T *s_warp)
{
    typedef typename VecOf<T>::V V;
    constexpr int W = VecOf<T>::W;
    constexpr unsigned J = SL_MP_TILE / (SL_MP_BLOCK * W);
    const unsigned t = threadIdx.x;
    const uint64_t base = tile * SL_MP_TILE;
    T a[W];
    if (base + SL_MP_TILE <= m) {
        if (kVec) {
            const V *xv = reinterpret_cast<const V *>(x + base);
            V v[J];
#pragma unroll
            for (unsigned j = 0; j < J; j++) v[j] = kCg ? __ldcg(&xv[j * SL_MP_BLOCK + t]) : xv[j * SL_MP_BLOCK + t];
#pragma unroll
            for (int k = 0; k < W; k++) a[k] = lane_of(v[0], k);
#pragma unroll
            for (unsigned j = 1; j < J; j++)
#pragma unroll
                for (int k = 0; k < W; k++) a[k] = a[k] + lane_of(v[j], k);
        } else {
#pragma unroll
            for (int k = 0; k < W; k++) a[k] = x[base + (uint64_t)t * W + k];
#pragma unroll
            for (unsigned j = 1; j < J; j++)
#pragma unroll
                for (int k = 0; k < W; k++) a[k] = a[k] + x[base + (uint64_t)(j * SL_MP_BLOCK + t) * W + k];
        }
    } else {
        /* partial tile: guarded scalar loads, missing elements are +0 */
#pragma unroll
        for (int k = 0; k < W; k++) {
            const uint64_t i = base + (uint64_t)t * W + k;
            a[k] = i < m ? (kCg ? __ldcg(&x[i]) : x[i]) : T(0);
        }
        for (unsigned j = 1; j < J; j++)
#pragma unroll
            for (int k = 0; k < W; k++) {
                const uint64_t i = base + (uint64_t)(j * SL_MP_BLOCK + t) * W + k;
                a[k] = a[k] + (i < m ? (kCg ? __ldcg(&x[i]) : x[i]) : T(0));
            }
    }
    T v = (W == 4) ? (a[0] + a[1]) + (a[2 % W] + a[3 % W]) : a[0] + a[1 % W];
    v = sl_block_sum(v, s_warp);
    __syncthreads(); /* s_warp is reused by the next tile */
    return v;
}

template <typename T, bool kVec>
__global__ void __launch_bounds__(SL_MP_BLOCK)
mp_kernel(const T *__restrict__ x, uint64_t n, uint64_t p1, void *work, size_t buf_b_off, T *result)
{
    __shared__ T s_warp[32];
    __shared__ unsigned s_last;
    unsigned *counter = static_cast<unsigned *>(work);
    T *bufa = reinterpret_cast<T *>(static_cast<unsigned char *>(work) + SL_WS_HEADER);
    T *bufb = reinterpret_cast<T *>(static_cast<unsigned char *>(work) + buf_b_off);
    for (uint64_t tile = blockIdx.x; tile < p1; tile += gridDim.x) {
        T v = mp_tile<T, kVec, false>(x, n, tile, s_warp);
        if (threadIdx.x == 0) bufa[tile] = v;
    }
    if (threadIdx.x == 0) {
        __threadfence();
        unsigned ticket = atomicAdd(counter, 1u);
        s_last = (ticket == gridDim.x - 1u);
    }
    __syncthreads();
    if (!s_last) return;
    __threadfence();
    T *src = bufa, *dst = bufb;
    uint64_t m = p1;
    while (m > 1) {
        const uint64_t pn = (m + SL_MP_TILE - 1) / SL_MP_TILE;
        for (uint64_t tile = 0; tile < pn; tile++) {
            T v = mp_tile<T, true, true>(src, m, tile, s_warp);
            if (threadIdx.x == 0) dst[tile] = v;
        }
        __threadfence_block();
        __syncthreads();
        T *tmp = src; src = dst; dst = tmp;
        m = pn;
    }
    if (threadIdx.x == 0) {
        *result = n ? __ldcg(&src[0]) : T(0);
        *counter = 0u;
    }
}

} // namespace

/* ---- C launchers -------------------------------------------------------------------------------- */
extern "C" {

size_t sl_serial_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n; (void)dt; (void)cfg;
    return 0;
}

int sl_serial_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                  size_t work_bytes, void *d_result, void *stream, sl_err *err)
{
    (void)cfg; (void)d_work; (void)work_bytes;
    cudaStream_t st = (cudaStream_t)stream;
    if (dt == SL_F64)
        serial_kernel<double><<<1, SL_SERIAL_BLOCK, 0, st>>>((const double *)d_x, n, (double *)d_result);
    else
        serial_kernel<float><<<1, SL_SERIAL_BLOCK, 0, st>>>((const float *)d_x, n, (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("serial_kernel", "serial", err);
    return 0;
}

size_t sl_atomic_block_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n; (void)dt; (void)cfg;
    return 0;
}

int sl_atomic_block_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                        void *d_work, size_t work_bytes, void *d_result, void *stream, sl_err *err)
{
    (void)d_work; (void)work_bytes;
    GsShape sh = {0, 0};
    if (gs_shape("atomic-block", d_x, n, dt, cfg, &sh, err)) return -1;
    cudaStream_t st = (cudaStream_t)stream;
    SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0, sl_dtype_size(dt), st), "atomic-block", err);
    if (dt == SL_F64)
        gs_atomic_kernel<double><<<cfg->grid, cfg->block, 0, st>>>((const double *)d_x, n, sh.head, sh.nv,
                                                                   (double *)d_result);
    else
        gs_atomic_kernel<float><<<cfg->grid, cfg->block, 0, st>>>((const float *)d_x, n, sh.head, sh.nv,
                                                                  (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("gs_atomic_kernel", "atomic-block", err);
    return 0;
}

size_t sl_kahan_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n;
    return sl_ws_bytes(cfg->grid, 2 * sl_dtype_size(dt));
}

int sl_kahan_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                 size_t work_bytes, void *d_result, void *stream, sl_err *err)
{
    GsShape sh = {0, 0};
    if (gs_shape("kahan", d_x, n, dt, cfg, &sh, err)) return -1;
    if (work_bytes < sl_kahan_workspace(n, dt, cfg) || !d_work)
        return sl_kerr(err, "kahan: workspace of %zu bytes is too small (%zu needed)", work_bytes,
                       sl_kahan_workspace(n, dt, cfg));
    cudaStream_t st = (cudaStream_t)stream;
    if (dt == SL_F64)
        gs_finish_kernel<double, KahanLane<double> ><<<cfg->grid, cfg->block, 0, st>>>(
            (const double *)d_x, n, sh.head, sh.nv, d_work, (double *)d_result);
    else
        gs_finish_kernel<float, KahanLane<float> ><<<cfg->grid, cfg->block, 0, st>>>(
            (const float *)d_x, n, sh.head, sh.nv, d_work, (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("gs_finish_kernel<kahan>", "kahan", err);
    return 0;
}

size_t sl_fp64_acc_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n; (void)dt;
    return sl_ws_bytes(cfg->grid, sizeof(double));
}

int sl_fp64_acc_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                    size_t work_bytes, void *d_result, void *stream, sl_err *err)
{
    if (dt != SL_F32) return sl_kerr(err, "fp64-acc: float32 input only");
    GsShape sh = {0, 0};
    if (gs_shape("fp64-acc", d_x, n, dt, cfg, &sh, err)) return -1;
    if (work_bytes < sl_fp64_acc_workspace(n, dt, cfg) || !d_work)
        return sl_kerr(err, "fp64-acc: workspace of %zu bytes is too small (%zu needed)", work_bytes,
                       sl_fp64_acc_workspace(n, dt, cfg));
    gs_finish_kernel<float, PlainLane<float, double> ><<<cfg->grid, cfg->block, 0, (cudaStream_t)stream>>>(
        (const float *)d_x, n, sh.head, sh.nv, d_work, (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("gs_finish_kernel<fp64-acc>", "fp64-acc", err);
    return 0;
}

static size_t mp_buf_b_off(uint64_t p1, sl_dtype dt)
{
    size_t a = (size_t)SL_WS_HEADER + (size_t)(p1 ? p1 : 1) * sl_dtype_size(dt);
    return (a + 255u) & ~(size_t)255u;
}

size_t sl_multipass_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)cfg;
    const uint64_t p1 = (n + SL_MP_TILE - 1) / SL_MP_TILE;
    const uint64_t p2 = (p1 + SL_MP_TILE - 1) / SL_MP_TILE;
    return mp_buf_b_off(p1, dt) + (size_t)(p2 ? p2 : 1) * sl_dtype_size(dt);
}

int sl_multipass_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                     size_t work_bytes, void *d_result, void *stream, sl_err *err)
{
    if (cfg->block != SL_MP_BLOCK || cfg->grid == 0)
        return sl_kerr(err, "multipass: unresolved launch configuration (block %u, grid %u)",
                       cfg->block, cfg->grid);
    if (work_bytes < sl_multipass_workspace(n, dt, cfg) || !d_work)
        return sl_kerr(err, "multipass: workspace of %zu bytes is too small (%zu needed)", work_bytes,
                       sl_multipass_workspace(n, dt, cfg));
    if ((uintptr_t)d_x % sl_dtype_size(dt))
        return sl_kerr(err, "multipass: input pointer %p is not aligned to its element size", d_x);
    const uint64_t p1 = (n + SL_MP_TILE - 1) / SL_MP_TILE;
    const uint64_t tiles = p1 ? p1 : 1;
    const unsigned grid = (uint64_t)cfg->grid < tiles ? cfg->grid : (unsigned)tiles;
    const bool vec = ((uintptr_t)d_x & 15u) == 0;
    const size_t boff = mp_buf_b_off(p1, dt);
    cudaStream_t st = (cudaStream_t)stream;
    if (dt == SL_F64) {
        if (vec) mp_kernel<double, true><<<grid, SL_MP_BLOCK, 0, st>>>((const double *)d_x, n, p1, d_work, boff, (double *)d_result);
        else mp_kernel<double, false><<<grid, SL_MP_BLOCK, 0, st>>>((const double *)d_x, n, p1, d_work, boff, (double *)d_result);
    } else {
        if (vec) mp_kernel<float, true><<<grid, SL_MP_BLOCK, 0, st>>>((const float *)d_x, n, p1, d_work, boff, (float *)d_result);
        else mp_kernel<float, false><<<grid, SL_MP_BLOCK, 0, st>>>((const float *)d_x, n, p1, d_work, boff, (float *)d_result);
    }
    SL_CUDA_CHECK_LAUNCH("mp_kernel", "multipass", err);
    return 0;
}

} /* extern "C" */

/* welford.cu: the Welford kernel (welford, welford-ln, welford-f64; outputs mean, var, std) and
 * the family's C-callable entry. The algorithm, its order of operations and the reasons for the
 * per-element division are in welford.c's header; its CPU twin there repeats every step.
 *
 * Floating-point assumptions: IEEE binary32/binary64 rounded to nearest even, no FTZ, no
 * contraction, correctly rounded division and sqrt (built with --fmad=false -ftz=false
 * -prec-div=true -prec-sqrt=true); nvcc never reassociates. float16/bfloat16 input is widened
 * exactly; the result is rounded once to the input format.
 * Performance considerations: one launch; 16-byte loads, kUnroll vectors in flight per thread;
 * the W lanes of a vector update W independent states (the ILP that hides the division's
 * latency), sharing one count (and, in welford-ln, one reciprocal per vector); an SM-count grid;
 * the last block merges the block states. */
#include <stdint.h>
#include "reduce/reduce.cuh"
#include "welford/welford.h"

namespace {

/* (n, mean, M2) in accumulator A. */
template <typename A> struct wf_st {
    A mean, m2;
    unsigned long long n;
};

/* Chan's merge (welford.c's header): the combine operation of the warp, block and grid trees. */
template <typename A> struct wf_op {
    typedef wf_st<A> S;
    static __device__ __forceinline__ S zero() { S r; r.mean = A(0); r.m2 = A(0); r.n = 0ull; return r; }
    static __device__ __forceinline__ S add(S a, S b)
    {
        if (b.n == 0ull) return a;
        if (a.n == 0ull) return b;
        S r;
        r.n = a.n + b.n;
        const A delta = b.mean - a.mean;
        const A f = (A)b.n / (A)r.n;
        r.mean = a.mean + delta * f;
        const A s = a.m2 + b.m2;
        const A d2 = delta * delta;
        const A t = d2 * (A)a.n;
        r.m2 = s + t * f;
        return r;
    }
    static __device__ __forceinline__ S shfl(S v, int off)
    {
        S r;
        r.mean = __shfl_down_sync(SL_FULL_MASK, v.mean, off);
        r.m2 = __shfl_down_sync(SL_FULL_MASK, v.m2, off);
        r.n = __shfl_down_sync(SL_FULL_MASK, v.n, off);
        return r;
    }
    static __device__ __forceinline__ void store(S *p, S v) { *p = v; }
    static __device__ __forceinline__ S load_cg(const S *p)
    {
        S r;
        r.mean = __ldcg(&p->mean);
        r.m2 = __ldcg(&p->m2);
        r.n = __ldcg(&p->n);
        return r;
    }
};
/* x widened exactly to A (float16/bfloat16 through float32). */
template <typename A, typename X> __device__ __forceinline__ A wf_in(X x) { return sl_acc_of<A>(x); }

/* One update (welford.c's header): division by the count, or multiplication by its reciprocal r. */
template <typename A, bool kRcp>
__device__ __forceinline__ void wf_update(A &mean, A &m2, A x, A cnt, A r)
{
    const A d = x - mean;
    if (kRcp) mean = mean + d * r;
    else mean = mean + d / cnt;
    m2 = m2 + d * (x - mean);
}

/* The combine operation in the form reduce/'s trees expect (typedef A = the combined value). */
template <typename Acc> struct WfOp {
    typedef wf_st<Acc> A;
    static __device__ __forceinline__ A zero() { return wf_op<Acc>::zero(); }
    static __device__ __forceinline__ A add(A a, A b) { return wf_op<Acc>::add(a, b); }
    static __device__ __forceinline__ A shfl(A v, int off) { return wf_op<Acc>::shfl(v, off); }
    static __device__ __forceinline__ void store(A *p, A v) { wf_op<Acc>::store(p, v); }
    static __device__ __forceinline__ A load_cg(const A *p) { return wf_op<Acc>::load_cg(p); }
};

template <typename X, typename A, bool kRcp>
__device__ __forceinline__ wf_st<A> wf_thread(const X *__restrict__ x, uint64_t n, uint64_t head,
                                              uint64_t nv)
{
    typedef typename sl_vec<X>::type V;
    typedef WfOp<A> Op;
    constexpr int W = sl_vec<X>::W;
    constexpr int U = 4;
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    A mean[W], m2[W];
#pragma unroll
    for (int k = 0; k < W; k++) mean[k] = m2[k] = A(0);
    unsigned c = 0;
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    uint64_t j = g;
    for (; j + (U - 1) * T < nv; j += U * T) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = sl_ldv(xv + j + u * T);
#pragma unroll
        for (int u = 0; u < U; u++) {
            c++;
            const A cnt = (A)c;
            const A r = kRcp ? A(1) / cnt : A(0);
#pragma unroll
            for (int k = 0; k < W; k++) wf_update<A, kRcp>(mean[k], m2[k], wf_in<A>(sl_vec_lane(v[u], k)), cnt, r);
        }
    }
    for (; j < nv; j += T) {
        const V v = sl_ldv(xv + j);
        c++;
        const A cnt = (A)c;
        const A r = kRcp ? A(1) / cnt : A(0);
#pragma unroll
        for (int k = 0; k < W; k++) wf_update<A, kRcp>(mean[k], m2[k], wf_in<A>(sl_vec_lane(v, k)), cnt, r);
    }
    wf_st<A> l[W];
#pragma unroll
    for (int k = 0; k < W; k++) { l[k].mean = mean[k]; l[k].m2 = m2[k]; l[k].n = c; }
    wf_st<A> t;
    if (W == 8)
        t = Op::add(Op::add(Op::add(l[0], l[1 % W]), Op::add(l[2 % W], l[3 % W])),
                    Op::add(Op::add(l[4 % W], l[5 % W]), Op::add(l[6 % W], l[7 % W])));
    else if (W == 4)
        t = Op::add(Op::add(l[0], l[1 % W]), Op::add(l[2 % W], l[3 % W]));
    else
        t = Op::add(l[0], l[1 % W]);
    /* the edge state: x[g] (g < head), then x[ts + g] (g < tail length) */
    wf_st<A> e = Op::zero();
    const uint64_t ts = head + nv * W;
    if (g < head) {
        e.n = 1ull;
        const A cnt = A(1);
        wf_update<A, kRcp>(e.mean, e.m2, wf_in<A>(x[g]), cnt, kRcp ? A(1) / cnt : A(0));
    }
    if (g < n - ts) {
        e.n += 1ull;
        const A cnt = (A)e.n;
        wf_update<A, kRcp>(e.mean, e.m2, wf_in<A>(x[ts + g]), cnt, kRcp ? A(1) / cnt : A(0));
    }
    return Op::add(t, e);
}

/* The output of the merged state (thread 0 of the last block). */
template <typename X, typename A>
__device__ __forceinline__ X wf_final(wf_st<A> s, int out, unsigned ddof)
{
    A r;
    if (out == SL_WF_OUT_MEAN) {
        r = s.n ? s.mean : A(NAN);
    } else if (s.n <= (unsigned long long)ddof) {
        r = A(NAN);
    } else {
        r = s.m2 / (A)(s.n - (unsigned long long)ddof);
        if (out == SL_WF_OUT_STD) r = sqrt(r);
    }
    return sl_out<X>(r);
}

/* The last block's reduce of reduce/grid.cuh (sl_grid_reduce: thread t merges p[t], p[t + B],
 * ... into an empty state, then the block tree), with a final step that reads the launch's
 * output and ddof. */
template <typename X, typename A, bool kRcp>
__global__ void __launch_bounds__(SL_WF_BLOCK, sizeof(A) == 8 ? SL_WF_THREADS_PER_SM_F64 / SL_WF_BLOCK
                                                              : SL_WF_THREADS_PER_SM / SL_WF_BLOCK)
wf_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work, int out,
          unsigned ddof, X *result)
{
    typedef WfOp<A> Op;
    typedef typename Op::A S;
    __shared__ S s_warp[32];
    S v = wf_thread<X, A, kRcp>(x, n, head, nv);
    v = sl_block_reduce<Op>(v, s_warp);
    S a;
    if (sl_grid_reduce<Op>(v, sl_ws_partials<S>(work), sl_ws_counter(work), &a) && threadIdx.x == 0)
        *result = wf_final<X, A>(a, out, ddof);
}

template <typename X, typename A>
static void wf_launch(const sl_variant *v, const sl_launch *c, const void *x, uint64_t n,
                      uint64_t head, uint64_t nv, void *work, void *result, cudaStream_t s)
{
    const int out = v->impl & SL_WF_OUT_MASK;
    if ((v->impl & SL_WF_FORM_MASK) == SL_WF_RCP)
        wf_kernel<X, A, true><<<c->grid, c->block, 0, s>>>((const X *)x, n, head, nv, work, out,
                                                            c->ddof, (X *)result);
    else
        wf_kernel<X, A, false><<<c->grid, c->block, 0, s>>>((const X *)x, n, head, nv, work, out,
                                                             c->ddof, (X *)result);
}

} // namespace

extern "C" size_t sl_welford_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                       const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt;
    return sl_ws_bytes(cfg->grid, SL_WF_STATE_BYTES);
}

extern "C" int sl_welford_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                              const sl_launch *cfg, void *d_work, size_t work_bytes,
                              void *d_result, void *stream, sl_err *err)
{
    const cudaStream_t s = (cudaStream_t)stream;
    const int out = v->impl & SL_WF_OUT_MASK;
    if (sl_check_shape(v, cfg, 32u, err) ||
        (cfg->block > SL_WF_BLOCK &&
         sl_err_set(err, "%s: block %u above the kernel's %u threads", v->name, cfg->block, SL_WF_BLOCK)) ||
        sl_check_workspace(v, d_work, work_bytes, sl_welford_workspace(v, n, dt, cfg), err))
        return -1;
    if (n == 0 || (out != SL_WF_OUT_MEAN && n <= cfg->ddof)) { /* NaN (all-ones bytes), no kernel */
        SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0xff, sl_dtype_size(dt), s), v->name, err);
        return 0;
    }
    if (sl_check_aligned(v, d_x, dt, err) || sl_check_addr_mod(v, d_x, cfg, err)) return -1;
    uint64_t head, nv;
    sl_vec_split(n, dt, cfg->addr_mod, &head, &nv);
    const int wide = v->acc_wide;
    if (dt == SL_F64) {
        if (wide) return sl_err_set(err, "%s: float32/float16/bfloat16 input only", v->name);
        wf_launch<double, double>(v, cfg, d_x, n, head, nv, d_work, d_result, s);
    } else if (dt == SL_F32) {
        if (wide) wf_launch<float, double>(v, cfg, d_x, n, head, nv, d_work, d_result, s);
        else wf_launch<float, float>(v, cfg, d_x, n, head, nv, d_work, d_result, s);
    } else if (dt == SL_F16) {
        if (wide) wf_launch<__half, double>(v, cfg, d_x, n, head, nv, d_work, d_result, s);
        else wf_launch<__half, float>(v, cfg, d_x, n, head, nv, d_work, d_result, s);
    } else {
        if (wide) wf_launch<__nv_bfloat16, double>(v, cfg, d_x, n, head, nv, d_work, d_result, s);
        else wf_launch<__nv_bfloat16, float>(v, cfg, d_x, n, head, nv, d_work, d_result, s);
    }
    SL_CUDA_CHECK_LAUNCH("wf_kernel", v->name, err);
    return 0;
}

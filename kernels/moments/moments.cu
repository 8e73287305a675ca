/* moments.cu: GPU kernels and the one C-callable entry of the moment variants (mean: naive,
 * f64-acc; var/std: textbook, shifted, two-pass, corrected, textbook-f64, two-pass-f64, half-acc).
 * The algorithms and their order of operations are described in moments.c, whose CPU twins
 * repeat every operation below in the same order; determinism: run-to-run.
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds, multiplies, divisions and square roots
 * rounded to nearest even (--fmad=false -ftz=false -prec-div=true -prec-sqrt=true: no contraction
 * of d*d into the add, correctly rounded x/y and sqrt); float16/bfloat16 input widened exactly;
 * half-acc's 16-bit operations done in float32 and rounded once to the 16-bit format (the
 * float32 sum, difference or product of two 16-bit values rounded once more is the correctly
 * rounded 16-bit operation: 24 >= 2p + 2). nvcc never reassociates.
 *
 * Steps (one kernel, mom_kernel, launched once or twice):
 *   1. grid-stride read: thread g keeps a pair (S1, S2) per 16-byte vector lane and adds
 *      d = x - K, d*d for its head element, its vectors j = g, g + T, ... (4 loads in flight)
 *      and its tail element; the lanes combine in a fixed tree (moments.c's header);
 *   2. block tree of the pairs (sl_block_reduce with a componentwise pair add);
 *   3. last-block finish: every block publishes its pair, the last to take the arrival ticket
 *      reduces them in sl_grid_finish's order and computes the epilogue.
 * mean, textbook, shifted (K = x[0]), textbook-f64, half-acc: one launch. two-pass, corrected:
 * two launches on the stream: the first reads x for S1 only and its last block stores
 * m = S1 / n in the workspace; the second reads x again with K = m and finishes. (Two launches
 * rather than one kernel with a grid-wide wait: a wait on the ticket needs every block resident
 * at once, which a grid of sm_count waves does not promise; the launch gap is microseconds.)
 * Performance considerations: memory-bound at large n (16-byte loads, four in flight per
 * thread; a subtract, a multiply and two adds per element); the *-f64 members widen float32 with
 * integer operations (the conversion unit would otherwise bound them, as fp64-acc found). */
#include <stdint.h>
#include "reduce/reduce.cuh"
#include "reduce/acc.cuh"
#include "moments/moments.h"

namespace {

/* ---- conversions --------------------------------------------------------------------------- */
/* float -> double, exact: reduce/vec.cuh's sl_f2d_exact (integer operations for normal floats). */
template <typename Acc> __device__ __forceinline__ Acc mom_widen(float x);
template <> __device__ __forceinline__ float mom_widen<float>(float x) { return x; }
template <> __device__ __forceinline__ double mom_widen<double>(float x) { return sl_f2d_exact(x); }
template <typename Acc> __device__ __forceinline__ Acc mom_widen(double x) { return x; }
template <typename Acc> __device__ __forceinline__ Acc mom_widen(__half x) { return sl_acc_of<Acc>(x); }
template <typename Acc> __device__ __forceinline__ Acc mom_widen(__nv_bfloat16 x) { return sl_acc_of<Acc>(x); }

/* The epilogue's value rounded once to the input format In. */
template <typename In> __device__ __forceinline__ In mom_out(float a);
template <typename In> __device__ __forceinline__ In mom_out(double a);
template <> __device__ __forceinline__ float mom_out<float>(float a) { return a; }
template <> __device__ __forceinline__ float mom_out<float>(double a) { return __double2float_rn(a); }
template <> __device__ __forceinline__ double mom_out<double>(double a) { return a; }
template <> __device__ __forceinline__ __half mom_out<__half>(float a) { return __float2half_rn(a); }
template <> __device__ __forceinline__ __half mom_out<__half>(double a) { return __double2half(a); }
template <> __device__ __forceinline__ __nv_bfloat16 mom_out<__nv_bfloat16>(float a) { return __float2bfloat16_rn(a); }
template <> __device__ __forceinline__ __nv_bfloat16 mom_out<__nv_bfloat16>(double a) { return __double2bfloat16(a); }

/* ---- the pair of sums and its componentwise add (the tree's combine) ----------------------- */
template <typename T> struct mom_pair { T s1, s2; };
template <typename T, class R> struct mom_op {
    typedef mom_pair<T> A;
    static __device__ __forceinline__ A zero() { A r; r.s1 = T(0); r.s2 = T(0); return r; }
    static __device__ __forceinline__ A add(A a, A b)
    {
        A r;
        r.s1 = R::r(a.s1 + b.s1);
        r.s2 = R::r(a.s2 + b.s2);
        return r;
    }
    static __device__ __forceinline__ A shfl(A v, int off)
    {
        A r;
        r.s1 = __shfl_down_sync(SL_FULL_MASK, v.s1, off);
        r.s2 = __shfl_down_sync(SL_FULL_MASK, v.s2, off);
        return r;
    }
    static __device__ __forceinline__ void store(A *p, A v) { p->s1 = v.s1; p->s2 = v.s2; }
    static __device__ __forceinline__ A load_cg(const A *p)
    {
        A r;
        r.s1 = __ldcg(&p->s1);
        r.s2 = __ldcg(&p->s2);
        return r;
    }
};

/* The epilogue in the accumulator format: moments.h's host/device functions, which the twins call. */
__device__ __forceinline__ float mom_final(int impl, uint64_t n, uint32_t ddof, float s1, float s2)
{
    return sl_mom_final_f(impl, n, ddof, s1, s2);
}
__device__ __forceinline__ double mom_final(int impl, uint64_t n, uint32_t ddof, double s1, double s2)
{
    return sl_mom_final_d(impl, n, ddof, s1, s2);
}

/* What the last block does with the pair. */
enum { MOM_FIN_STORE_MEAN = 0, MOM_FIN_RESULT = 1 };
/* Where K comes from. */
enum { MOM_K_ZERO = 0, MOM_K_FIRST = 1, MOM_K_WORK = 2 };

template <typename In, typename Acc, class R, bool kSq>
__global__ void __launch_bounds__(1024)
mom_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, int kmode, int fin,
           int impl, uint32_t ddof, void *work, In *result)
{
    typedef mom_op<Acc, R> Op;
    typedef typename Op::A A;
    typedef typename sl_vec<In>::type V;
    constexpr int W = sl_vec<In>::W;
    constexpr int U = 4;
    __shared__ A s_warp[32];
    Acc *wmean = reinterpret_cast<Acc *>(static_cast<unsigned char *>(work) + SL_MOM_WS_MEAN);
    Acc K = Acc(0);
    if (kmode == MOM_K_FIRST) K = n ? mom_widen<Acc>(x[0]) : Acc(0);
    else if (kmode == MOM_K_WORK) K = __ldcg(wmean);

    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    Acc a1[W], a2[W];
#pragma unroll
    for (int k = 0; k < W; k++) a1[k] = a2[k] = Acc(0);
#define MOM_ADD(k_, xin)                                                                      \
    do {                                                                                      \
        const Acc d_ = R::r(mom_widen<Acc>(xin) - K);                                         \
        a1[k_] = R::r(a1[k_] + d_);                                                           \
        if (kSq) a2[k_] = R::r(a2[k_] + R::r(d_ * d_));                                       \
    } while (0)
    if (g < head) MOM_ADD(0, x[g]);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    uint64_t j = g;
    for (; j + (U - 1) * T < nv; j += U * T) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = xv[j + u * T];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < W; k++) MOM_ADD(k, sl_vec_lane(v[u], k));
    }
    for (; j < nv; j += T) {
        V v = xv[j];
#pragma unroll
        for (int k = 0; k < W; k++) MOM_ADD(k, sl_vec_lane(v, k));
    }
    const uint64_t ts = head + nv * W;
    if (g < n - ts) MOM_ADD(0, x[ts + g]);
#undef MOM_ADD
    A l[W];
#pragma unroll
    for (int k = 0; k < W; k++) { l[k].s1 = a1[k]; l[k].s2 = a2[k]; }
    A tv;
    if (W == 8)
        tv = Op::add(Op::add(Op::add(l[0], l[1 % W]), Op::add(l[2 % W], l[3 % W])),
                     Op::add(Op::add(l[4 % W], l[5 % W]), Op::add(l[6 % W], l[7 % W])));
    else if (W == 4)
        tv = Op::add(Op::add(l[0], l[1 % W]), Op::add(l[2 % W], l[3 % W]));
    else
        tv = Op::add(l[0], l[1 % W]);
    tv = sl_block_reduce<Op>(tv, s_warp);
    A tot;
    if (!sl_grid_reduce<Op>(tv, sl_ws_partials<A>(work), sl_ws_counter(work), &tot)) return;
    if (threadIdx.x != 0) return;
    if (fin == MOM_FIN_STORE_MEAN) *wmean = mom_final(SL_MOM_MEAN, n, 0u, tot.s1, Acc(0));
    else *result = mom_out<In>(mom_final(impl, n, ddof, tot.s1, tot.s2));
}

} // namespace

/* ---- launcher -------------------------------------------------------------------------------- */
struct mom_args {
    const sl_launch *cfg;
    const void *x;
    uint64_t n, head, nv;
    void *work, *result;
    cudaStream_t s;
};

/* Enqueues member v->impl's launch(es) for input In accumulated in Acc with rounding R; the name
 * of the last kernel enqueued, after checking the first's launch. */
template <typename In, typename Acc, class R>
static int mom_launch(const sl_variant *v, const mom_args &a, sl_err *err)
{
    const sl_mom_kind kind = SL_MOM_KIND(v->impl);
    const sl_launch *c = a.cfg;
    const In *x = (const In *)a.x;
    In *res = (In *)a.result;
    if (kind == SL_MOM_TWO_PASS || kind == SL_MOM_CORRECTED) {
        mom_kernel<In, Acc, R, false><<<c->grid, c->block, 0, a.s>>>(
            x, a.n, a.head, a.nv, MOM_K_ZERO, MOM_FIN_STORE_MEAN, v->impl, c->ddof, a.work, res);
        SL_CUDA_CHECK_LAUNCH("mom_kernel<mean pass>", v->name, err);
        mom_kernel<In, Acc, R, true><<<c->grid, c->block, 0, a.s>>>(
            x, a.n, a.head, a.nv, MOM_K_WORK, MOM_FIN_RESULT, v->impl, c->ddof, a.work, res);
    } else if (kind == SL_MOM_MEAN) {
        mom_kernel<In, Acc, R, false><<<c->grid, c->block, 0, a.s>>>(
            x, a.n, a.head, a.nv, MOM_K_ZERO, MOM_FIN_RESULT, v->impl, c->ddof, a.work, res);
    } else {
        mom_kernel<In, Acc, R, true><<<c->grid, c->block, 0, a.s>>>(
            x, a.n, a.head, a.nv, kind == SL_MOM_SHIFTED ? MOM_K_FIRST : MOM_K_ZERO, MOM_FIN_RESULT,
            v->impl, c->ddof, a.work, res);
    }
    SL_CUDA_CHECK_LAUNCH("mom_kernel", v->name, err);
    return 0;
}

extern "C" size_t sl_moments_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                       const sl_launch *cfg)
{
    (void)n;
    const size_t acc = sl_variant_acc(v, dt) == SL_F64 ? sizeof(double) : sizeof(float);
    return sl_ws_bytes(cfg->grid, 2 * acc);
}

extern "C" int sl_moments_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                              const sl_launch *cfg, void *d_work, size_t work_bytes,
                              void *d_result, void *stream, sl_err *err)
{
    mom_args a = {cfg, d_x, n, 0, 0, d_work, d_result, (cudaStream_t)stream};
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (sl_check_aligned(v, d_x, dt, err) || sl_check_addr_mod(v, d_x, cfg, err) ||
        sl_check_shape(v, cfg, 32u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_moments_workspace(v, n, dt, cfg), err))
        return -1;
    sl_vec_split(n, dt, cfg->addr_mod, &a.head, &a.nv);
    const sl_dtype acc = sl_variant_acc(v, dt);
    return sl_acc_dispatch(dt, acc, v->name, err, [&](auto in, auto ac, auto rn) {
        return mom_launch<SL_TAG_T(in), SL_TAG_T(ac), SL_TAG_T(rn)>(v, a, err);
    });
}

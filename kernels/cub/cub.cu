/* cub.cu: the anchor rows' kernels: cub::DeviceReduce::Sum on the same buffer. `cub` is the
 * legacy call (determinism run-to-run); with CCCL >= 3.3 (SUMLAB_HAVE_CCCL_TIERS) also CUB's
 * determinism tiers through the env-based API: `cub-gpu-to-gpu` (RFA, binned: CUB documents
 * the same bits on any GPU) and `cub-not-guaranteed` (atomics: nondeterministic). CUB's order
 * is its own: no twins. workspace() asks CUB for its temporary storage; the launcher checks it.
 * Floating-point assumptions: CUB's own (compiled with --fmad=false -ftz=false like every
 * kernel here). Descriptors, resolve() and depth(): cub.c. */
#include <cub/device/device_reduce.cuh>
#include "reduce/reduce.cuh"
#ifdef SUMLAB_HAVE_CCCL_TIERS
#include <new>
#include <cuda/memory_resource>
#include <cuda/stream_ref>
#include <cuda/std/execution>
#endif

/* v->impl of the anchor rows (cub.c). */
#define SL_CUB_LEGACY 0
#define SL_CUB_GPU_TO_GPU 1
#define SL_CUB_NOT_GUARANTEED 2
#define SL_CUB_F32ACC 3
#define SL_CUB_MEAN 4
#define SL_CUB_VAR 5
#define SL_CUB_STD 6
#define SL_CUB_MAX 7
#define SL_CUB_MIN 8

/* CUB's legacy call for element type T: sizes the storage when work is NULL, else enqueues.
 * CUB's accumulator is decay_t<invoke_result_t<plus<>, OutputT, T>> (cub/device/dispatch/
 * dispatch_reduce.cuh, select_accum_t / cuda::std::__accumulator_t, P2322R6) with OutputT the
 * output's value type: __half + __half is __half, so for float16 (bfloat16) input and output
 * CUB accumulates in float16 (bfloat16). */
template <typename T>
static cudaError_t cub_sum(void *work, size_t &bytes, const void *x, void *result, uint64_t n,
                           cudaStream_t st)
{
    return cub::DeviceReduce::Sum(work, bytes, (const T *)x, (T *)result, (int64_t)n, st);
}

/* cub-f32acc: DeviceReduce::TransformReduce with x widened to float (exact), plus<float>, init
 * +0.0f and a float output: the accumulator is float. The float lands at the start of the
 * workspace (CUB's storage follows at SL_WS_HEADER); k_cub_round rounds it once to X. */
struct sl_cub_widen {
    __device__ __forceinline__ float operator()(__half v) const { return __half2float(v); }
    __device__ __forceinline__ float operator()(__nv_bfloat16 v) const { return __bfloat162float(v); }
};
template <typename X>
__global__ void k_cub_round(const float *acc, X *result)
{
    *result = sl_out<X>(*acc);
}
template <typename X>
static cudaError_t cub_sum_f32(void *work, size_t &bytes, const void *x, void *result, uint64_t n,
                               cudaStream_t st)
{
    size_t cub_bytes = work ? bytes - SL_WS_HEADER : 0;
    void *cub_work = work ? (unsigned char *)work + SL_WS_HEADER : nullptr;
    float *acc = work ? (float *)work : nullptr;
    cudaError_t e = cub::DeviceReduce::TransformReduce(cub_work, cub_bytes, (const X *)x, acc, (int64_t)n,
                                                       cuda::std::plus<float>{}, sl_cub_widen{}, 0.0f, st);
    if (!work) {
        bytes = cub_bytes + SL_WS_HEADER;
        return e;
    }
    if (e != cudaSuccess) return e;
    k_cub_round<X><<<1, 1, 0, st>>>(acc, (X *)result);
    return cudaGetLastError();
}

/* The moment anchors (mean, var, std, max, min): what a CUDA programmer writes with CUB.
 * mean: TransformReduce of x widened to the accumulator A (float for float32 and 16-bit input,
 * double for float64), plus, init 0, then S1 / n in A rounded once to X. var/std: one
 * TransformReduce of the pair (x, x*x) in A (the square rounded to A), pairwise plus, then the
 * textbook formula (S2 - S1*S1/n) / (n - ddof) in A (and its sqrt for std), rounded once; n - ddof
 * <= 0 gives NaN. max/min: DeviceReduce::Max/Min as CUB defines them (its comparison, its
 * identity: NaN and -0 are CUB's business; the judge says what comes out). The A-valued totals
 * land at the start of the workspace (CUB's storage follows at SL_WS_HEADER). */
template <typename A> struct sl_cub_pair {
    A s1, s2;
};
template <typename A> struct sl_cub_pair_sum {
    __device__ __forceinline__ sl_cub_pair<A> operator()(const sl_cub_pair<A> &a, const sl_cub_pair<A> &b) const
    {
        return sl_cub_pair<A>{a.s1 + b.s1, a.s2 + b.s2};
    }
};
template <typename A> struct sl_cub_square {
    template <typename X> __device__ __forceinline__ sl_cub_pair<A> operator()(X v) const
    {
        const A w = (A)sl_widen(v);
        return sl_cub_pair<A>{w, w * w};
    }
};
template <typename A> struct sl_cub_widen_to {
    template <typename X> __device__ __forceinline__ A operator()(X v) const { return (A)sl_widen(v); }
};
template <typename X, typename A>
__global__ void k_cub_mean(const A *s1, uint64_t n, X *result)
{
    *result = sl_out<X>(*s1 / (A)n);
}
template <typename X, typename A>
__global__ void k_cub_var(const sl_cub_pair<A> *p, uint64_t n, uint32_t ddof, int root, X *result)
{
    A v;
    if (n <= (uint64_t)ddof) {
        v = (A)NAN;
    } else {
        const A s1 = p->s1, s2 = p->s2;
        v = (s2 - s1 * s1 / (A)n) / (A)(n - ddof);
        if (root) v = sqrt(v);
    }
    *result = sl_out<X>(v);
}
template <typename X, typename A>
static cudaError_t cub_moment(int impl, uint32_t ddof, void *work, size_t &bytes, const void *x, void *result,
                              uint64_t n, cudaStream_t st)
{
    size_t cub_bytes = work ? bytes - SL_WS_HEADER : 0;
    void *cub_work = work ? (unsigned char *)work + SL_WS_HEADER : nullptr;
    cudaError_t e;
    if (impl == SL_CUB_MEAN) {
        A *acc = work ? (A *)work : nullptr;
        e = cub::DeviceReduce::TransformReduce(cub_work, cub_bytes, (const X *)x, acc, (int64_t)n,
                                               cuda::std::plus<A>{}, sl_cub_widen_to<A>{}, (A)0, st);
        if (work && e == cudaSuccess) k_cub_mean<X, A><<<1, 1, 0, st>>>(acc, n, (X *)result);
    } else if (impl == SL_CUB_VAR || impl == SL_CUB_STD) {
        sl_cub_pair<A> *acc = work ? (sl_cub_pair<A> *)work : nullptr;
        e = cub::DeviceReduce::TransformReduce(cub_work, cub_bytes, (const X *)x, acc, (int64_t)n,
                                               sl_cub_pair_sum<A>{}, sl_cub_square<A>{}, sl_cub_pair<A>{0, 0}, st);
        if (work && e == cudaSuccess) k_cub_var<X, A><<<1, 1, 0, st>>>(acc, n, ddof, impl == SL_CUB_STD, (X *)result);
    } else if (impl == SL_CUB_MAX) {
        e = cub::DeviceReduce::Max(cub_work, cub_bytes, (const X *)x, (X *)result, (int64_t)n, st);
    } else {
        e = cub::DeviceReduce::Min(cub_work, cub_bytes, (const X *)x, (X *)result, (int64_t)n, st);
    }
    if (!work) bytes = cub_bytes + SL_WS_HEADER;
    if (e != cudaSuccess) return e;
    return work ? cudaGetLastError() : cudaSuccess;
}
static cudaError_t cub_moment_call(const sl_variant *v, sl_dtype dt, uint32_t ddof, void *work, size_t &bytes,
                                   const void *x, void *result, uint64_t n, cudaStream_t st)
{
    switch (dt) {
    case SL_F64: return cub_moment<double, double>(v->impl, ddof, work, bytes, x, result, n, st);
    case SL_F16: return cub_moment<__half, float>(v->impl, ddof, work, bytes, x, result, n, st);
    case SL_BF16: return cub_moment<__nv_bfloat16, float>(v->impl, ddof, work, bytes, x, result, n, st);
    default: return cub_moment<float, float>(v->impl, ddof, work, bytes, x, result, n, st);
    }
}

#ifdef SUMLAB_HAVE_CCCL_TIERS
/* The env-based API allocates its temporary storage from the environment's memory resource:
 * this one hands out the harness's workspace (and records the size asked for). A request
 * larger than the workspace throws, which CUB turns into cudaErrorMemoryAllocation before it
 * enqueues anything; workspace() uses that with an empty workspace to learn the size. */
struct sl_cub_ws_resource {
    void *ptr;
    size_t cap;
    size_t *asked;
    void *allocate(cuda::stream_ref, size_t bytes, size_t) { return take(bytes); }
    void deallocate(cuda::stream_ref, void *, size_t, size_t) noexcept {}
    void *allocate_sync(size_t bytes, size_t) { return take(bytes); }
    void deallocate_sync(void *, size_t, size_t) noexcept {}
    bool operator==(const sl_cub_ws_resource &o) const { return ptr == o.ptr && cap == o.cap; }
    bool operator!=(const sl_cub_ws_resource &o) const { return !(*this == o); }
    friend void get_property(const sl_cub_ws_resource &, cuda::mr::device_accessible) noexcept {}
    void *take(size_t bytes)
    {
        if (asked) *asked = bytes;
        if (bytes > cap || (bytes && !ptr)) throw std::bad_alloc();
        return ptr;
    }
};

/* One tier's env call for element type T (Det: the determinism requirement). */
template <typename T, typename Det>
static cudaError_t cub_sum_tier(Det det, void *work, size_t cap, size_t *asked, const void *x,
                                void *result, uint64_t n, cudaStream_t st)
{
    sl_cub_ws_resource mr{work, cap, asked};
    auto env = cuda::std::execution::env{cuda::stream_ref{st}, cuda::execution::require(det),
                                         cuda::std::execution::prop{cuda::mr::get_memory_resource, mr}};
    return cub::DeviceReduce::Sum((const T *)x, (T *)result, (int64_t)n, env);
}

template <typename T>
static cudaError_t cub_tier(int impl, void *work, size_t cap, size_t *asked, const void *x,
                            void *result, uint64_t n, cudaStream_t st)
{
    if (impl == SL_CUB_GPU_TO_GPU)
        return cub_sum_tier<T>(cuda::execution::determinism::gpu_to_gpu, work, cap, asked, x,
                               result, n, st);
    return cub_sum_tier<T>(cuda::execution::determinism::not_guaranteed, work, cap, asked, x,
                           result, n, st);
}
#endif

/* The family's one float/double branch (and the one tier branch). Sizing: work == NULL (the
 * legacy call's convention; the tiers learn the size from their first allocation). */
static cudaError_t cub_call(const sl_variant *v, sl_dtype dt, uint32_t ddof, void *work, size_t &bytes,
                            const void *x, void *result, uint64_t n, cudaStream_t st)
{
    if (v->impl >= SL_CUB_MEAN) return cub_moment_call(v, dt, ddof, work, bytes, x, result, n, st);
#ifdef SUMLAB_HAVE_CCCL_TIERS
    if (v->impl == SL_CUB_GPU_TO_GPU || v->impl == SL_CUB_NOT_GUARANTEED) {
        if (!work) {
            size_t asked = 0;
            cudaError_t e = dt == SL_F64 ? cub_tier<double>(v->impl, nullptr, 0, &asked, x, result, n, st)
                                         : cub_tier<float>(v->impl, nullptr, 0, &asked, x, result, n, st);
            bytes = asked;
            /* the refused allocation is how the size is learnt; nothing was enqueued */
            return (e == cudaErrorMemoryAllocation || e == cudaSuccess) ? cudaSuccess : e;
        }
        return dt == SL_F64 ? cub_tier<double>(v->impl, work, bytes, nullptr, x, result, n, st)
                            : cub_tier<float>(v->impl, work, bytes, nullptr, x, result, n, st);
    }
#endif
    if (v->impl == SL_CUB_F32ACC) {
        if (dt == SL_F16) return cub_sum_f32<__half>(work, bytes, x, result, n, st);
        if (dt == SL_BF16) return cub_sum_f32<__nv_bfloat16>(work, bytes, x, result, n, st);
        return cudaErrorInvalidValue;   /* cub.c: 16-bit input only */
    }
    switch (dt) {
    case SL_F64: return cub_sum<double>(work, bytes, x, result, n, st);
    case SL_F16: return cub_sum<__half>(work, bytes, x, result, n, st);
    case SL_BF16: return cub_sum<__nv_bfloat16>(work, bytes, x, result, n, st);
    default: return cub_sum<float>(work, bytes, x, result, n, st);
    }
}

extern "C" size_t sl_cub_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                   const sl_launch *cfg)
{
    size_t bytes = 0;
    /* a sizing call reads no input: any non-null pointers will do for x and result */
    if (cub_call(v, dt, cfg ? cfg->ddof : 0, nullptr, bytes, nullptr, nullptr, n, 0) != cudaSuccess)
        return 0; /* the launcher reports the error */
    return bytes;
}

extern "C" int sl_cub_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                          const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                          void *stream, sl_err *err)
{
    size_t need = 0;
    SL_CUDA_CHECK(cub_call(v, dt, cfg->ddof, nullptr, need, nullptr, nullptr, n, 0), v->name, err);
    if (sl_check_workspace(v, d_work, work_bytes, need, err)) return -1;
    size_t bytes = work_bytes;
    SL_CUDA_CHECK(cub_call(v, dt, cfg->ddof, d_work, bytes, d_x, d_result, n, (cudaStream_t)stream), v->name,
                  err);
    SL_CUDA_CHECK_LAUNCH("cub::DeviceReduce", v->name, err);
    return 0;
}

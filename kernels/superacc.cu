/* superacc.cu: the `superacc` kernel: correctly rounded, order-independent sum (determinism
 * class correctly-rounded). Every input reaches an exact integer superaccumulator (layout and
 * rounding in superacc.h); integer adds are associative, so the result does not depend on the
 * order of the inputs, the grid, the block or the SM count. Twin: superacc.c.
 *
 * Floating-point assumptions: IEEE binary64 adds rounded to nearest even with subnormals
 * (-ftz=false), no contraction (--fmad=false, and there is no multiply), no reassociation
 * (nvcc never reassociates); two's-complement 64-bit integers.
 *
 * Algorithm (one launch):
 *  1. Fast path, per thread: each input v (a float32 converted exactly to double, or a
 *     float64 with |v| < 2^950) goes into a 3-term floating-point expansion a + b + c through
 *     a chain of three TwoSums (error-free: a + b + c + e == old a + b + c + v exactly, since
 *     no add can overflow). A non-zero leftover e (data spanning more than ~150 bits, rare)
 *     is added exactly into the block's shared-memory superaccumulator. Inputs that are not
 *     ordinary (NaN, Inf, float64 >= 2^950) take a rare path: special values set flags, huge
 *     finite values go straight into the superaccumulator.
 *  2. Each thread adds its a, b, c exactly into the block superaccumulator (int64 limbs of
 *     32-bit chunks, shared-memory 64-bit atomicAdd; carries deferred, normalised every 2^29
 *     block elements and at the end). The block then adds its normalised limbs (lower limbs in
 *     [0, 2^32)) into the global limbs with integer atomicAdd; flags are ORed.
 *  3. The last block (arrival ticket) takes the global limbs (atomicExch leaves them zero for
 *     the next launch), rounds once (sl_sacc_round) and resets the ticket counter.
 * Performance considerations: the fast path costs ~19 float64 operations per element on the
 * FP64 pipe (64 lanes/SM/clock on H100/H200); groups of 8 (float32) or 4 (float64) elements
 * run as branch-free straight-line code so the compiler interleaves their TwoSum chains (a
 * per-element branch or call serialises them: 5x slower). Measured on an H200 (2026-11-29,
 * scratch benchmark, min of 6): 2^28 float32 in [0,1) or 21 binades 0.44-0.47 ms (~2.4 TB/s,
 * 0.51-0.54x CUB's DeviceReduce::Sum), 2^27 float64 0.28 ms (0.86x CUB). Data spanning the
 * whole exponent range spills nearly every element into shared-memory atomics: ~9.5 ms
 * (float32) and ~5.6 ms (float64), 0.03-0.04x CUB, still exact.  */
#include "sl_reduce.cuh"
#include "superacc.h"

#define SACC_WS_HEADER 16u   /* [0,4): ticket counter; [4,8): flags; [16, ...): L int64 limbs */
#define SACC_BLOCK_ELEMS_PER_NORM (1u << 29)

template <typename T> struct sacc_fmt;
template <> struct sacc_fmt<float> {
    typedef sl_vec<float>::type V;
    enum { VW = sl_vec<float>::W, U = 2, GROUP = 8, L = SL_SACC_LIMBS_F32, SCALE = SL_SACC_SCALE_F32 };
};
template <> struct sacc_fmt<double> {
    typedef sl_vec<double>::type V;
    enum { VW = sl_vec<double>::W, U = 4, GROUP = 4, L = SL_SACC_LIMBS_F64, SCALE = SL_SACC_SCALE_F64 };
};

/* Inputs the expansion takes: finite floats (the expansion never exceeds 2^(128+40)), and
 * float64 below 2^950 (n < 2^40 of them stay below 2^990: no add can overflow). */
__device__ __forceinline__ bool sacc_ordinary(float f) { return fabsf(f) <= 3.40282347e38f; }
__device__ __forceinline__ bool sacc_ordinary(double d) { return fabs(d) < 0x1p950; }
__device__ __forceinline__ unsigned sacc_hiword(float f) { return __float_as_uint(f); }
__device__ __forceinline__ unsigned sacc_hiword(double d) { return (unsigned)__double2hiint(d); }

/* Adds the finite double d (a multiple of 2^-scale) exactly into the shared limbs. */
__device__ __noinline__ void sacc_spill(double d, int scale, unsigned long long *s_acc)
{
    int idx, neg;
    uint64_t c[3];
    if (!sl_sacc_split_f64(d, scale, &idx, c, &neg)) return;
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (c[k]) atomicAdd(&s_acc[idx + k], neg ? 0ull - (unsigned long long)c[k]
                                                 : (unsigned long long)c[k]);
}

/* The rare path: NaN/Inf return flags; a huge finite float64 goes straight to the limbs. */
__device__ __noinline__ unsigned sacc_rare(double v, int scale, unsigned long long *s_acc)
{
    if (isnan(v)) return SL_SACC_NAN;
    if (isinf(v)) return v > 0 ? SL_SACC_PINF : SL_SACC_NINF;
    sacc_spill(v, scale, s_acc);
    return 0u;
}

/* The once-per-launch rounding, kept out of the kernel body (registers). */
__device__ __noinline__ double sacc_round_dev(unsigned long long *limbs, int L, sl_dtype dt,
                                              unsigned flags)
{
    return sl_sacc_round(reinterpret_cast<int64_t *>(limbs), L, dt, flags);
}

/* The per-thread state (registers: nothing takes its address): expansion a + b + c, flags,
 * AND of the inputs' sign words. */
struct sacc_thread {
    double a, b, c;
    unsigned flags, sg;
};

/* TwoSum chain: (a, e) = TwoSum(a, v); (b, e) = TwoSum(b, e); (c, e) = TwoSum(c, e).
 * Returns the leftover e (a + b + c + e == old a + b + c + v, exactly). */
__device__ __forceinline__ double sacc_fpe(sacc_thread &t, const double v)
{
    double s = t.a + v, bb = s - t.a;
    double e = (t.a - (s - bb)) + (v - bb);
    t.a = s;
    s = t.b + e; bb = s - t.b;
    e = (t.b - (s - bb)) + (e - bb);
    t.b = s;
    s = t.c + e; bb = s - t.c;
    e = (t.c - (s - bb)) + (e - bb);
    t.c = s;
    return e;
}

/* One element, any value (edges, partial tiles, groups holding a rare value). */
template <typename T>
__device__ __forceinline__ void sacc_take(T x, sacc_thread &t, unsigned long long *s_acc)
{
    t.sg &= sacc_hiword(x);
    if (!sacc_ordinary(x)) {
        t.flags |= sacc_rare((double)x, sacc_fmt<T>::SCALE, s_acc);
        return;
    }
    const double e = sacc_fpe(t, (double)x);
    if (e != 0.0) sacc_spill(e, sacc_fmt<T>::SCALE, s_acc);
}

/* K elements as one branch-free group when all are ordinary: the K expansion steps are
 * straight-line code the compiler interleaves; the leftovers are tested once at the end. */
template <typename T, int K>
__device__ __forceinline__ void sacc_take_group(const T *x, sacc_thread &t,
                                                unsigned long long *s_acc)
{
    bool ok = true;
#pragma unroll
    for (int k = 0; k < K; k++) ok = ok & sacc_ordinary(x[k]);
    if (!ok) {
#pragma unroll
        for (int k = 0; k < K; k++) sacc_take(x[k], t, s_acc);
        return;
    }
    double e[K];
    bool spill = false;
#pragma unroll
    for (int k = 0; k < K; k++) {
        t.sg &= sacc_hiword(x[k]);
        e[k] = sacc_fpe(t, (double)x[k]);
        spill = spill | (e[k] != 0.0);
    }
    if (spill) {
#pragma unroll
        for (int k = 0; k < K; k++)
            if (e[k] != 0.0) sacc_spill(e[k], sacc_fmt<T>::SCALE, s_acc);
    }
}

__device__ __forceinline__ void sacc_unpack(const float4 *r, float (&x)[8])
{
    x[0] = r[0].x; x[1] = r[0].y; x[2] = r[0].z; x[3] = r[0].w;
    x[4] = r[1].x; x[5] = r[1].y; x[6] = r[1].z; x[7] = r[1].w;
}
__device__ __forceinline__ void sacc_unpack(const double2 *r, double (&x)[8])
{
    x[0] = r[0].x; x[1] = r[0].y; x[2] = r[1].x; x[3] = r[1].y;
    x[4] = r[2].x; x[5] = r[2].y; x[6] = r[3].x; x[7] = r[3].y;
}
__device__ __forceinline__ void sacc_take_vec(float4 v, sacc_thread &t, unsigned long long *s)
{
    sacc_take(v.x, t, s); sacc_take(v.y, t, s); sacc_take(v.z, t, s); sacc_take(v.w, t, s);
}
__device__ __forceinline__ void sacc_take_vec(double2 v, sacc_thread &t, unsigned long long *s)
{
    sacc_take(v.x, t, s); sacc_take(v.y, t, s);
}

/* Every barrier of the kernel is sl_bar_any (reduce/block.cuh): the non-.aligned barrier.sync,
 * which tolerates warps arriving split. __syncthreads is bar.sync, i.e. barrier.sync.aligned:
 * every thread of a warp must execute the same barrier instruction convergently, and this
 * kernel's data-dependent paths (the rare path, spills, the tid == 0 steps) leave that to the
 * compiler; compute-sanitizer's synccheck flagged a divergent barrier on float64 subnormal
 * input even with a __syncwarp in front. */
__device__ __forceinline__ void sacc_barrier() { sl_bar_any::sync(); }

/* x: n elements; head: elements before the first 16-byte boundary (done scalar, as is the
 * tail after the last whole vector). Any grid and block (block <= 1024).
 * Barriers: every __syncthreads is reached by all threads of the block. The only loop with
 * a per-thread trip count (the edge loop) and the per-thread spill/rare branches hold none;
 * the tile loop's trip count and `since` depend on blockIdx, gridDim, blockDim and n only;
 * the ticket's `return` reads shared memory after a barrier (block-uniform), and no thread
 * exits before the last barrier. Every barrier is sacc_barrier (non-.aligned), the ticket's
 * included (sl_ticket_last<sl_bar_any, ...>). */
template <typename T>
__global__ void __launch_bounds__(1024)
sacc_kernel(const T *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work, T *result)
{
    typedef sacc_fmt<T> F;
    typedef typename F::V V;
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags;
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SACC_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;

    for (unsigned i = tid; i < (unsigned)F::L; i += B) s_acc[i] = 0;
    if (tid == 0) s_flags = 0;
    sacc_barrier();

    sacc_thread t = {0.0, 0.0, 0.0, 0u, 0xffffffffu};
    const uint64_t nv = (n - head) / F::VW;          /* whole vectors after the head */
    const uint64_t tail0 = head + nv * F::VW;
    const uint64_t nedge = head + (n - tail0);
    for (uint64_t i = (uint64_t)blockIdx.x * B + tid; i < nedge; i += (uint64_t)G * B)
        sacc_take(x[i < head ? i : tail0 + (i - head)], t, s_acc);

    const V *xv = reinterpret_cast<const V *>(x + head);
    const uint64_t per_tile = (uint64_t)B * F::U;
    const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
    /* tiles between normalisations: at most 2^29 elements reach a limb in that time */
    uint64_t every = SACC_BLOCK_ELEMS_PER_NORM / (per_tile * F::VW);
    if (every == 0) every = 1;
    uint64_t since = 0;
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += G) {
        const uint64_t base = tile * per_tile + tid;
        if ((tile + 1) * per_tile <= nv) {
            V r[F::U];
#pragma unroll
            for (int u = 0; u < F::U; u++) r[u] = __ldcs(xv + base + (uint64_t)u * B);
            T xs[F::U * F::VW];                      /* U * VW == 8 */
            sacc_unpack(r, xs);
#pragma unroll
            for (int g = 0; g < F::U * F::VW; g += F::GROUP)
                sacc_take_group<T, F::GROUP>(xs + g, t, s_acc);
        } else {
            for (int u = 0; u < F::U; u++)
                if (base + (uint64_t)u * B < nv) sacc_take_vec(__ldcs(xv + base + (uint64_t)u * B), t, s_acc);
        }
        if (++since == every) {                      /* uniform across the block */
            since = 0;
            sacc_barrier();
            if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), F::L);
            sacc_barrier();
        }
    }

    /* the thread's expansion into the block limbs, exactly */
    sacc_spill(t.a, F::SCALE, s_acc);
    sacc_spill(t.b, F::SCALE, s_acc);
    sacc_spill(t.c, F::SCALE, s_acc);
    if (!(t.sg >> 31)) t.flags |= SL_SACC_ANYPOS;
    if (t.flags) atomicOr(&s_flags, t.flags);
    sacc_barrier();
    if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), F::L);
    sacc_barrier();
    /* normalised limbs < 2^32 (top limb signed): G < 2^31 blocks cannot overflow a limb */
    for (unsigned i = tid; i < (unsigned)F::L; i += B)
        if (s_acc[i]) atomicAdd(&g_acc[i], s_acc[i]);
    if (tid == 0 && s_flags) atomicOr(g_flags, s_flags);
    __threadfence();                                 /* limbs visible before the ticket */
    sacc_barrier();
    /* every thread published and fenced: thread 0 takes the ticket without another fence */
    if (!sl_ticket_last<sl_bar_any, false>(g_counter)) return;
    for (unsigned i = tid; i < (unsigned)F::L; i += B) s_acc[i] = atomicExch(&g_acc[i], 0ull);
    sacc_barrier();
    if (tid == 0) {
        const unsigned flags = atomicExch(g_flags, 0u);
        const double r = sacc_round_dev(s_acc, F::L, sizeof(T) == 8 ? SL_F64 : SL_F32, flags);
        *result = (T)r;                              /* exact: r holds a T */
        *g_counter = 0u;
    }
}

/* ---- launcher: checks, the empty sum, then the one float/double branch ---------------------- */
extern "C" size_t sl_superacc_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                        const sl_launch *cfg)
{
    (void)v; (void)n; (void)cfg;
    return SACC_WS_HEADER + sizeof(int64_t) * (size_t)sl_sacc_limbs(dt);
}

/* Enqueues the kernel for element type T; returns its name for the launch check. */
template <typename T>
static const char *sacc_launch(const sl_launch *cfg, const void *d_x, uint64_t n, uint64_t head,
                               void *d_work, void *d_result, cudaStream_t st)
{
    sacc_kernel<T><<<cfg->grid, cfg->block, 0, st>>>((const T *)d_x, n, head,
                                                      (unsigned char *)d_work, (T *)d_result);
    return sizeof(T) == 8 ? "sacc_kernel<double>" : "sacc_kernel<float>";
}

extern "C" int sl_superacc_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                               const sl_launch *cfg, void *d_work, size_t work_bytes,
                               void *d_result, void *stream, sl_err *err)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (n >= SL_SACC_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name,
                          (unsigned long long)n);
    if (sl_check_shape(v, cfg, 1u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_superacc_workspace(v, n, dt, cfg), err))
        return -1;
    if (n == 0) {                                    /* the empty sum is +0 */
        SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0, sl_dtype_size(dt), st), v->name, err);
        return 0;
    }
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    /* the head from the pointer itself (any addr_mod in cfg is ignored) */
    const uint64_t head = sl_vec_head(n, dt, (uint32_t)((uintptr_t)d_x & 15u));
    const char *what = dt == SL_F32 ? sacc_launch<float>(cfg, d_x, n, head, d_work, d_result, st)
                                    : sacc_launch<double>(cfg, d_x, n, head, d_work, d_result, st);
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

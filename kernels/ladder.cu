/* ladder.cu: GPU kernels and C-callable launchers of the optimisation ladder V0-V6
 * (atomic-thread: nondeterministic; smem-interleaved .. vec4: run-to-run, single launch).
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds, round to nearest even, no FTZ,
 * --fmad=false, no reassociation (nvcc never reassociates without fast-math). Accumulators
 * are in the input format. The order of every add is fixed by (n, dtype, resolved sl_launch)
 * and is written out in ladder.c next to each CPU twin, which repeats it bit for bit.
 * Performance considerations: V0-V4 launch one tile per block (grid grows with n); V5/V6 use
 * a persistent grid from the SM count; V6 gives each block one contiguous range and issues A
 * 16-byte read-only loads per thread before the adds. All rungs finish in the same launch
 * (sl_device_finish, last-block fixed order). */
#include <cuda_runtime.h>
#include "ladder.h"
#include "sl_reduce.cuh"

/* ---------------------------------------------------------------- kernels ----------------- */

/* V0: one element per thread, one atomicAdd per element on the result. */
template <typename T>
__global__ void __launch_bounds__(1024) k_atomic_thread(const T *__restrict__ x, uint64_t n,
                                                        T *result)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(result, x[i]);
}

/* V1 (interleaved) and V2 (sequential) share memory trees over one element per thread;
 * V3 (TWO = true) adds x[i] and x[i + B] into a register first and uses the sequential tree. */
template <typename T, int MODE> /* MODE 1: interleaved, 2: sequential, 3: two-load */
__global__ void __launch_bounds__(1024) k_smem(const T *__restrict__ x, uint64_t n, void *work,
                                               T *result)
{
    extern __shared__ __align__(16) unsigned char sl_smem_raw[];
    T *s = reinterpret_cast<T *>(sl_smem_raw);
    const unsigned t = threadIdx.x, B = blockDim.x;
    if (MODE == 3) {
        uint64_t i = (uint64_t)blockIdx.x * 2u * B + t;
        T v = T(0);
        if (i < n) v = v + x[i];
        if (i + B < n) v = v + x[i + B];
        s[t] = v;
    } else {
        uint64_t i = (uint64_t)blockIdx.x * B + t;
        s[t] = i < n ? x[i] : T(0);
    }
    __syncthreads();
    if (MODE == 1) {
        for (unsigned stride = 1; stride < B; stride *= 2) {
            if (t % (2 * stride) == 0) s[t] = s[t] + s[t + stride];
            __syncthreads();
        }
    } else {
        for (unsigned stride = B / 2; stride > 0; stride >>= 1) {
            if (t < stride) s[t] = s[t] + s[t + stride];
            __syncthreads();
        }
    }
    sl_device_finish(s[0], sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* V4: two elements per thread in a register, then the shuffle block sum. */
template <typename T>
__global__ void __launch_bounds__(1024) k_warp_shuffle(const T *__restrict__ x, uint64_t n,
                                                       void *work, T *result)
{
    __shared__ T s_warp[32];
    const unsigned B = blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * 2u * B + threadIdx.x;
    T v = T(0);
    if (i < n) v = v + x[i];
    if (i + B < n) v = v + x[i + B];
    v = sl_block_sum(v, s_warp);
    sl_device_finish(v, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* V5: persistent grid, one register accumulator per thread in grid-stride order (x[i], then
 * x[i + B], then i += 2BG). The unrolled loop only batches the loads of four steps that are
 * entirely in range; the adds keep the grid-stride order, so it equals the plain loop. */
template <typename T>
__global__ void __launch_bounds__(1024, 2) k_grid_stride(const T *__restrict__ x, uint64_t n,
                                                         void *work, T *result)
{
    __shared__ T s_warp[32];
    const uint64_t B = blockDim.x;
    const uint64_t S = 2u * B * gridDim.x;
    uint64_t i = (uint64_t)blockIdx.x * 2u * B + threadIdx.x;
    T a = T(0);
    for (; i + 3u * S + B < n; i += 4u * S) {
        T r0 = x[i], r1 = x[i + B], r2 = x[i + S], r3 = x[i + S + B];
        T r4 = x[i + 2u * S], r5 = x[i + 2u * S + B], r6 = x[i + 3u * S], r7 = x[i + 3u * S + B];
        a = a + r0; a = a + r1; a = a + r2; a = a + r3;
        a = a + r4; a = a + r5; a = a + r6; a = a + r7;
    }
    for (; i < n; i += S) {
        a = a + x[i];
        if (i + B < n) a = a + x[i + B];
    }
    a = sl_block_sum(a, s_warp);
    sl_device_finish(a, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* V6 helpers: the 16-byte vector of T, its read-only streaming load, and its in-order add. */
template <typename T> struct sl_vec;
template <> struct sl_vec<float> { typedef float4 type; };
template <> struct sl_vec<double> { typedef double2 type; };

__device__ __forceinline__ float4 sl_ldv(const float4 *p)
{
    float4 r;
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(p));
    return r;
}
__device__ __forceinline__ double2 sl_ldv(const double2 *p)
{
    double2 r;
    asm volatile("ld.global.nc.L1::no_allocate.v2.f64 {%0,%1}, [%2];"
                 : "=d"(r.x), "=d"(r.y) : "l"(p));
    return r;
}
__device__ __forceinline__ void sl_vadd(float &a, const float4 v)
{
    a = a + v.x; a = a + v.y; a = a + v.z; a = a + v.w;
}
__device__ __forceinline__ void sl_vadd(double &a, const double2 v)
{
    a = a + v.x; a = a + v.y;
}

/* V6: see the model in ladder.c. head/nv from sl_ladder_vec_split; x + head is 16-aligned.
 * Block b streams its own contiguous range of vectors (sl_ladder_vec_block, with the split
 * per/extra from sl_ladder_vec_units: no division on the device): A 16-byte loads in flight
 * per thread, then their adds in order. Two resident blocks of 1024 (32 registers) for
 * A <= 4; A = 8 would spill under that bound.
 * ONE (grid == 1): the range is [0, nv) without computing it, so the first loads issue at
 * once, and the finish is the one-block case of sl_device_finish written out (same bits).
 * EDGES: false when there is no head and no tail (head == 0, n == W nv): the scalar checks
 * are compiled out. Both matter only where one block is latency-bound (~0.2 us for the
 * range arithmetic, a few tens of ns for the checks and the finish branch). */
template <typename T, int A, bool ONE, bool EDGES>
__global__ void __launch_bounds__(1024, A >= 8 ? 1 : 2)
    k_vec4(const T *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, uint64_t per,
           uint64_t extra, void *work, T *result)
{
    typedef typename sl_vec<T>::type V;
    constexpr uint64_t W = sizeof(V) / sizeof(T);
    __shared__ T s_warp[32];
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    const uint64_t B = blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * B + threadIdx.x;
    uint64_t lo = 0, hi = nv;
    if (!ONE) sl_ladder_vec_block(nv, per, extra, blockIdx.x, &lo, &hi);
    T acc[A];
#pragma unroll
    for (int k = 0; k < A; k++) acc[k] = T(0);
    const uint64_t tail0 = head + nv * W;
    if (EDGES && g < head) acc[0] = acc[0] + x[g];
    if (EDGES && tail0 + g < n) acc[0] = acc[0] + x[tail0 + g];
    /* pointers rather than 64-bit indices: fewer live registers under the 2-blocks bound */
    const V *p = xv + lo + threadIdx.x;
    const V *const end = xv + hi;
    for (; p + (A - 1) * B < end; p += A * B) {
        V r[A];
#pragma unroll
        for (int k = 0; k < A; k++) r[k] = sl_ldv(p + k * B);
#pragma unroll
        for (int k = 0; k < A; k++) sl_vadd(acc[k], r[k]);
    }
#pragma unroll
    for (int k = 0; k < A; k++)
        if (p + k * B < end) sl_vadd(acc[k], sl_ldv(p + k * B));
#pragma unroll
    for (int w = A / 2; w >= 1; w /= 2)
#pragma unroll
        for (int k = 0; k < w; k++) acc[k] = acc[k] + acc[k + w];
    T s = sl_block_sum(acc[0], s_warp);
    if (ONE) {
        if (threadIdx.x == 0) *result = T(0) + s;
        return;
    }
    sl_device_finish(s, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* ---------------------------------------------------------------- launchers --------------- */

/* Resolves a private copy of cfg (idempotent on an already resolved one), validates it and
 * the workspace. */
typedef void (*sl_resolve_fn)(sl_launch *, uint64_t, sl_dtype);
static int ladder_prep(sl_rung r, sl_resolve_fn resolve, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                       sl_launch *c, sl_err *err)
{
    *c = *cfg;
    resolve(c, n, dt);
    if (sl_ladder_check(r, n, dt, c, err)) return -1;
    if (!d_result) return sl_kerr(err, "%s: d_result is NULL", sl_ladder_name(r));
    if (r != SL_RUNG_ATOMIC_THREAD) {
        size_t need = sl_ws_bytes(c->grid, sl_dtype_size(dt));
        if (!d_work || work_bytes < need)
            return sl_kerr(err, "%s: workspace of %zu bytes given, %zu needed",
                           sl_ladder_name(r), work_bytes, need);
    }
    return 0;
}

static size_t ladder_workspace(sl_resolve_fn resolve, uint64_t n, sl_dtype dt,
                               const sl_launch *cfg)
{
    sl_launch c = *cfg;
    resolve(&c, n, dt);
    return sl_ws_bytes(c.grid, sl_dtype_size(dt));
}

extern "C" size_t sl_atomic_thread_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n; (void)dt; (void)cfg;
    return 0;
}

extern "C" int sl_atomic_thread_gpu(const void *d_x, uint64_t n, sl_dtype dt,
                                    const sl_launch *cfg, void *d_work, size_t work_bytes,
                                    void *d_result, void *stream, sl_err *err)
{
    const char *nm = "atomic-thread";
    sl_launch c;
    if (ladder_prep(SL_RUNG_ATOMIC_THREAD, sl_atomic_thread_resolve, n, dt, cfg, d_work,
                    work_bytes, d_result, &c, err))
        return -1;
    cudaStream_t s = (cudaStream_t)stream;
    SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0, sl_dtype_size(dt), s), nm, err);
    if (n == 0) return 0;
    if (dt == SL_F64)
        k_atomic_thread<double><<<c.grid, c.block, 0, s>>>((const double *)d_x, n, (double *)d_result);
    else
        k_atomic_thread<float><<<c.grid, c.block, 0, s>>>((const float *)d_x, n, (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("k_atomic_thread", nm, err);
    return 0;
}

template <int MODE>
static int smem_gpu(sl_rung r, sl_resolve_fn resolve, const void *d_x, uint64_t n, sl_dtype dt,
                    const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                    void *stream, sl_err *err)
{
    const char *nm = sl_ladder_name(r);
    sl_launch c;
    if (ladder_prep(r, resolve, n, dt, cfg, d_work, work_bytes, d_result, &c, err)) return -1;
    cudaStream_t s = (cudaStream_t)stream;
    size_t smem = (size_t)c.block * sl_dtype_size(dt);
    if (dt == SL_F64)
        k_smem<double, MODE><<<c.grid, c.block, smem, s>>>((const double *)d_x, n, d_work,
                                                            (double *)d_result);
    else
        k_smem<float, MODE><<<c.grid, c.block, smem, s>>>((const float *)d_x, n, d_work,
                                                           (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("k_smem", nm, err);
    return 0;
}

extern "C" size_t sl_smem_interleaved_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return ladder_workspace(sl_smem_interleaved_resolve, n, dt, cfg);
}
extern "C" int sl_smem_interleaved_gpu(const void *d_x, uint64_t n, sl_dtype dt,
                                       const sl_launch *cfg, void *d_work, size_t work_bytes,
                                       void *d_result, void *stream, sl_err *err)
{
    return smem_gpu<1>(SL_RUNG_SMEM_INTERLEAVED, sl_smem_interleaved_resolve, d_x, n, dt, cfg,
                       d_work, work_bytes, d_result, stream, err);
}

extern "C" size_t sl_smem_sequential_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return ladder_workspace(sl_smem_sequential_resolve, n, dt, cfg);
}
extern "C" int sl_smem_sequential_gpu(const void *d_x, uint64_t n, sl_dtype dt,
                                      const sl_launch *cfg, void *d_work, size_t work_bytes,
                                      void *d_result, void *stream, sl_err *err)
{
    return smem_gpu<2>(SL_RUNG_SMEM_SEQUENTIAL, sl_smem_sequential_resolve, d_x, n, dt, cfg,
                       d_work, work_bytes, d_result, stream, err);
}

extern "C" size_t sl_two_load_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return ladder_workspace(sl_two_load_resolve, n, dt, cfg);
}
extern "C" int sl_two_load_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                               void *d_work, size_t work_bytes, void *d_result, void *stream,
                               sl_err *err)
{
    return smem_gpu<3>(SL_RUNG_TWO_LOAD, sl_two_load_resolve, d_x, n, dt, cfg, d_work,
                       work_bytes, d_result, stream, err);
}

extern "C" size_t sl_warp_shuffle_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return ladder_workspace(sl_warp_shuffle_resolve, n, dt, cfg);
}
extern "C" int sl_warp_shuffle_gpu(const void *d_x, uint64_t n, sl_dtype dt,
                                   const sl_launch *cfg, void *d_work, size_t work_bytes,
                                   void *d_result, void *stream, sl_err *err)
{
    const char *nm = "warp-shuffle";
    sl_launch c;
    if (ladder_prep(SL_RUNG_WARP_SHUFFLE, sl_warp_shuffle_resolve, n, dt, cfg, d_work,
                    work_bytes, d_result, &c, err))
        return -1;
    cudaStream_t s = (cudaStream_t)stream;
    if (dt == SL_F64)
        k_warp_shuffle<double><<<c.grid, c.block, 0, s>>>((const double *)d_x, n, d_work,
                                                          (double *)d_result);
    else
        k_warp_shuffle<float><<<c.grid, c.block, 0, s>>>((const float *)d_x, n, d_work,
                                                         (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("k_warp_shuffle", nm, err);
    return 0;
}

extern "C" size_t sl_grid_stride_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return ladder_workspace(sl_grid_stride_resolve, n, dt, cfg);
}
extern "C" int sl_grid_stride_gpu(const void *d_x, uint64_t n, sl_dtype dt,
                                  const sl_launch *cfg, void *d_work, size_t work_bytes,
                                  void *d_result, void *stream, sl_err *err)
{
    const char *nm = "grid-stride";
    sl_launch c;
    if (ladder_prep(SL_RUNG_GRID_STRIDE, sl_grid_stride_resolve, n, dt, cfg, d_work,
                    work_bytes, d_result, &c, err))
        return -1;
    cudaStream_t s = (cudaStream_t)stream;
    if (dt == SL_F64)
        k_grid_stride<double><<<c.grid, c.block, 0, s>>>((const double *)d_x, n, d_work,
                                                         (double *)d_result);
    else
        k_grid_stride<float><<<c.grid, c.block, 0, s>>>((const float *)d_x, n, d_work,
                                                        (float *)d_result);
    SL_CUDA_CHECK_LAUNCH("k_grid_stride", nm, err);
    return 0;
}

extern "C" size_t sl_vec4_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return ladder_workspace(sl_vec4_resolve, n, dt, cfg);
}

template <typename T, bool ONE, bool EDGES>
static void vec4_launch_a(const sl_launch &c, const T *x, uint64_t n, uint64_t head,
                          uint64_t nv, uint64_t per, uint64_t extra, void *w, T *res,
                          cudaStream_t s)
{
    const dim3 G(c.grid), B(c.block);
    switch (c.items) {
    case 1: k_vec4<T, 1, ONE, EDGES><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    case 2: k_vec4<T, 2, ONE, EDGES><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    case 4: k_vec4<T, 4, ONE, EDGES><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    default: k_vec4<T, 8, ONE, EDGES><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    }
}

template <typename T>
static void vec4_launch(const sl_launch &c, const void *d_x, uint64_t n, uint64_t head,
                        uint64_t nv, void *d_work, void *d_result, cudaStream_t s)
{
    const T *x = (const T *)d_x;
    T *res = (T *)d_result;
    uint64_t per, extra;
    sl_ladder_vec_units(nv, c.grid, &per, &extra);
    const bool edges = head != 0 || head + nv * (16 / sizeof(T)) != n;
    if (c.grid == 1 && edges)
        vec4_launch_a<T, true, true>(c, x, n, head, nv, per, extra, d_work, res, s);
    else if (c.grid == 1)
        vec4_launch_a<T, true, false>(c, x, n, head, nv, per, extra, d_work, res, s);
    else if (edges)
        vec4_launch_a<T, false, true>(c, x, n, head, nv, per, extra, d_work, res, s);
    else
        vec4_launch_a<T, false, false>(c, x, n, head, nv, per, extra, d_work, res, s);
}

extern "C" int sl_vec4_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                           void *d_work, size_t work_bytes, void *d_result, void *stream,
                           sl_err *err)
{
    const char *nm = "vec4";
    sl_launch c;
    if (ladder_prep(SL_RUNG_VEC4, sl_vec4_resolve, n, dt, cfg, d_work, work_bytes, d_result,
                    &c, err))
        return -1;
    unsigned mis = (unsigned)((uintptr_t)d_x % 16u);
    if (n > 0 && mis != c.addr_mod % 16u)
        return sl_kerr(err, "vec4: cfg addr_mod %u disagrees with the device pointer "
                            "(address mod 16 = %u); the harness sets it from the pointer",
                       c.addr_mod, mis);
    uint64_t head, nv;
    sl_ladder_vec_split(n, dt, c.addr_mod, &head, &nv);
    cudaStream_t s = (cudaStream_t)stream;
    if (dt == SL_F64)
        vec4_launch<double>(c, d_x, n, head, nv, d_work, d_result, s);
    else
        vec4_launch<float>(c, d_x, n, head, nv, d_work, d_result, s);
    SL_CUDA_CHECK_LAUNCH("k_vec4", nm, err);
    return 0;
}

/* ladder2.cu: GPU kernels and the one C-callable entry of the second source text's ladder
 * (seeds/004: smem-strided v1, warp-unrolled v4, full-unroll v5, multi-load v6, OneFlow's
 * packed v8, PyTorch's block-reduce); run-to-run, single launch (sl_device_finish).
 *
 * Floating-point assumptions: as ladder.cu (IEEE adds, round to nearest even, no FTZ,
 * --fmad=false, no reassociation; accumulators in the input format). The order of every add is
 * written out in ladder2.c next to each twin, which repeats it bit for bit.
 * Where this code departs from the text's listings (on purpose):
 *  - v4: the text's warpReduce keeps its running sum in an `int` (it truncates floats) and reads
 *    cache[tid + 32] (and, in lanes 16..31, cache[tid + 16] ..) unguarded, past the end of a
 *    32-thread block. Here the temporary has the element type T, the +32 step runs only for
 *    blocks of 64 threads or more, each step is done only by the lanes whose result is read
 *    (t < offset), and reads and writes are separated by __syncwarp() over a volatile pointer
 *    (no lockstep since Volta's independent thread scheduling).
 *  - v5: its warpReduceSum<blockSize> guards (blockSize >= 32 .. >= 2) are all true for the
 *    block sizes resolve() allows (powers of two >= 32), so it is sl_warp_sum.
 *  - v8: 64-bit pack indices (the listing's int32_t linear_index overflows past 2^31 packs); the
 *    scalar head and tail of unaligned input go into lane 0 first (as vec4).
 *  - every rung: 64-bit element indices; the block partials go through the last-block finish
 *    instead of a second launch.
 * Performance considerations: the tile rungs launch one tile per block (grid grows with n);
 * packed uses OneFlow's wave-count grid, block-reduce a persistent grid of 2048 threads per
 * SM; multi-load and block-reduce issue their loads ahead of the in-order adds where the whole
 * column (tile rungs) or four grid-stride steps (block-reduce) are in range. */
#include <cuda_runtime.h>
#include "ladder/ladder2.h"
#include "reduce/reduce.cuh"

/* ---------------------------------------------------------------- kernels ----------------- */

/* A thread's column of its tile: a = +0; a = a + x[i + jB] for j = 0 .. K-1 while in range.
 * When the whole column is in range the loop has no checks (the loads can issue ahead of the
 * adds, which keep the order of j). */
template <typename T, typename X>
__device__ __forceinline__ T column_sum(const X *__restrict__ x, uint64_t n, uint64_t i,
                                        uint64_t B, unsigned K)
{
    T a = T(0);
    if (i + (uint64_t)(K - 1u) * B < n) {
#pragma unroll 8
        for (unsigned j = 0; j < K; j++) a = a + sl_acc_of<T>(x[i + j * B]);
    } else {
        for (unsigned j = 0; j < K && i + j * B < n; j++) a = a + sl_acc_of<T>(x[i + j * B]);
    }
    return a;
}

/* v1: one element per thread; interleaved tree with the strided index 2 s t (the pairs of
 * smem-interleaved's t % (2s) == 0, still bank-conflicted). index + s < B since B and index
 * are multiples of 2s. */
template <typename X, typename T>
__global__ void __launch_bounds__(1024) k_smem_strided(const X *__restrict__ x, uint64_t n,
                                                       void *work, X *result)
{
    extern __shared__ __align__(16) unsigned char sl_smem2_raw[];
    T *s = reinterpret_cast<T *>(sl_smem2_raw);
    const unsigned t = threadIdx.x, B = blockDim.x;
    const uint64_t i = (uint64_t)blockIdx.x * B + t;
    s[t] = i < n ? sl_acc_of<T>(x[i]) : T(0);
    __syncthreads();
    for (unsigned st = 1; st < B; st *= 2) {
        const unsigned index = 2u * st * t;
        if (index < B) s[index] = s[index] + s[index + st];
        __syncthreads();
    }
    sl_device_finish(s[0], sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* v4's last warp (warp 0, all 32 lanes, after a block barrier): the sequential tree's strides
 * 32 (when B >= 64), 16, .., 1 over shared memory; lane t < off: v = v + s[t + off], then every
 * lane waits (__syncwarp), the lane writes s[t] = v, every lane waits again. Lane 0 returns the
 * block's value. */
template <typename T>
__device__ __forceinline__ T warp_unrolled_smem(volatile T *s, unsigned t, bool from32)
{
    T v = s[t];
#pragma unroll
    for (unsigned off = 32; off > 0; off >>= 1) {
        if (off == 32 && !from32) continue;
        if (t < off) v = v + s[t + off];
        __syncwarp();
        if (t < off) s[t] = v;
        __syncwarp();
    }
    return v;
}

/* v4: two-load's per-thread sum, the sequential tree for strides B/2 .. 64 with a barrier each,
 * then the last warp unrolled over shared memory. */
template <typename X, typename T>
__global__ void __launch_bounds__(1024) k_warp_unrolled(const X *__restrict__ x, uint64_t n,
                                                        void *work, X *result)
{
    extern __shared__ __align__(16) unsigned char sl_smem2_raw[];
    T *s = reinterpret_cast<T *>(sl_smem2_raw);
    const unsigned t = threadIdx.x, B = blockDim.x;
    T v = column_sum<T>(x, n, (uint64_t)blockIdx.x * 2u * B + t, B, 2u);
    s[t] = v;
    __syncthreads();
    for (unsigned st = B / 2; st > 32; st >>= 1) {
        if (t < st) s[t] = s[t] + s[t + st];
        __syncthreads();
    }
    if (t < 32) v = warp_unrolled_smem<T>(s, t, B >= 64);
    sl_device_finish(v, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* v5 (K = 2) and v6 (K = items): the column sum of a tile of kB K elements, then the sequential
 * tree with every level a compile-time step: strides 512 .. 64 over shared memory with a
 * barrier each, stride 32 by warp 0 from shared memory, 16 .. 1 by shuffles (sl_warp_sum). */
template <typename X, typename T, unsigned kB>
__global__ void __launch_bounds__(kB) k_unrolled(const X *__restrict__ x, uint64_t n,
                                                 unsigned K, void *work, X *result)
{
    __shared__ T s[kB];
    const unsigned t = threadIdx.x;
    T v = column_sum<T>(x, n, (uint64_t)blockIdx.x * kB * K + t, kB, K);
    s[t] = v;
    __syncthreads();
    if (kB >= 1024) { if (t < 512) s[t] = s[t] + s[t + 512]; __syncthreads(); }
    if (kB >= 512) { if (t < 256) s[t] = s[t] + s[t + 256]; __syncthreads(); }
    if (kB >= 256) { if (t < 128) s[t] = s[t] + s[t + 128]; __syncthreads(); }
    if (kB >= 128) { if (t < 64) s[t] = s[t] + s[t + 64]; __syncthreads(); }
    if (t < 32) {
        v = s[t];
        if (kB >= 64) v = v + s[t + 32];
        v = sl_warp_sum(v);
    }
    sl_device_finish(v, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* OneFlow's Packed<T, pack_size>: one 16-byte pack of X as W lanes of T; += adds lane by lane
 * (each lane converted by sl_acc_of). */
template <typename X, typename T> struct packed {
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W };
    T elem[W];
    __device__ __forceinline__ explicit packed(T val)
    {
#pragma unroll
        for (int k = 0; k < W; k++) elem[k] = val;
    }
    __device__ __forceinline__ void operator+=(const V &p)
    {
#pragma unroll
        for (int k = 0; k < W; k++) elem[k] = elem[k] + sl_acc_of<T>(sl_vec_lane(p, k));
    }
    /* PackReduce: r = +0; r = r + elem[k] for k = 0 .. W-1. */
    __device__ __forceinline__ T reduce() const
    {
        T r = T(0);
#pragma unroll
        for (int k = 0; k < W; k++) r = r + elem[k];
        return r;
    }
};

/* v8: head/nv from sl_vec_split (x + head is 16-byte aligned); the scalar head and tail into
 * lane 0, then grid-stride over the packs (sl_ldv), PackReduce, the shuffle block sum. */
template <typename X, typename T>
__global__ void __launch_bounds__(1024) k_packed(const X *__restrict__ x, uint64_t n,
                                                 uint64_t head, uint64_t nv, void *work,
                                                 X *result)
{
    typedef typename sl_vec<X>::type V;
    __shared__ T s_warp[32];
    const uint64_t B = blockDim.x, S = B * gridDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * B + threadIdx.x;
    const uint64_t tail0 = head + nv * packed<X, T>::W;
    packed<X, T> sum(T(0));
    if (g < head) sum.elem[0] = sum.elem[0] + sl_acc_of<T>(x[g]);
    if (tail0 + g < n) sum.elem[0] = sum.elem[0] + sl_acc_of<T>(x[tail0 + g]);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    for (uint64_t p = g; p < nv; p += S) sum += sl_ldv(xv + p);
    T r = sl_block_sum(sum.reduce(), s_warp);
    sl_device_finish(r, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* PyTorch-style: a = +0 + x[g] + x[g + S] + .. (S = BG), four in-range steps' loads issued
 * before their adds; then BlockReduceSum (sl_block_sum_two_barriers). */
template <typename X, typename T>
__global__ void __launch_bounds__(1024) k_block_reduce(const X *__restrict__ x, uint64_t n,
                                                       void *work, X *result)
{
    __shared__ T shared[32];
    const uint64_t S = (uint64_t)blockDim.x * gridDim.x;
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    T a = T(0);
    for (; i + 3u * S < n; i += 4u * S) {
        X r0 = x[i], r1 = x[i + S], r2 = x[i + 2u * S], r3 = x[i + 3u * S];
        a = a + sl_acc_of<T>(r0); a = a + sl_acc_of<T>(r1); a = a + sl_acc_of<T>(r2); a = a + sl_acc_of<T>(r3);
    }
    for (; i < n; i += S) a = a + sl_acc_of<T>(x[i]);
    a = sl_block_sum_two_barriers(a, shared);
    sl_device_finish(a, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* ---------------------------------------------------------------- launchers ---------------
 * One entry for every rung of this file (v->impl): resolve and check, then ladder2_launch<T>
 * (the one float/double branch) enqueues the rung's kernel; unrolled_launch picks v5/v6's
 * compile-time block size. */

extern "C" size_t sl_ladder2_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                       const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder2_resolve(v, &c, n, dt);
    return sl_ws_bytes(c.grid, sl_dtype_size(sl_dtype_acc(dt)));
}

template <typename X, typename T>
static void unrolled_launch(const sl_launch &c, const X *x, uint64_t n, void *w, X *r,
                            cudaStream_t s)
{
    const dim3 G(c.grid);
    const unsigned K = c.items;
    switch (c.block) { /* sl_ladder2_check: a power of two in [32, 1024] */
    case 32: k_unrolled<X, T, 32><<<G, 32, 0, s>>>(x, n, K, w, r); break;
    case 64: k_unrolled<X, T, 64><<<G, 64, 0, s>>>(x, n, K, w, r); break;
    case 128: k_unrolled<X, T, 128><<<G, 128, 0, s>>>(x, n, K, w, r); break;
    case 256: k_unrolled<X, T, 256><<<G, 256, 0, s>>>(x, n, K, w, r); break;
    case 512: k_unrolled<X, T, 512><<<G, 512, 0, s>>>(x, n, K, w, r); break;
    default: k_unrolled<X, T, 1024><<<G, 1024, 0, s>>>(x, n, K, w, r); break;
    }
}

/* Enqueues rung v->impl's kernel for element type T; returns the kernel's name for the launch
 * check. */
template <typename X, typename T>
static const char *ladder2_launch(const sl_variant *v, const sl_launch &c, const void *d_x,
                                  uint64_t n, sl_dtype dt, void *w, void *d_result,
                                  cudaStream_t s)
{
    const X *x = (const X *)d_x;
    X *res = (X *)d_result;
    const dim3 G(c.grid), B(c.block);
    const size_t smem = (size_t)c.block * sizeof(T);
    switch ((sl_rung2)v->impl) {
    case SL_RUNG2_SMEM_STRIDED:
        k_smem_strided<X, T><<<G, B, smem, s>>>(x, n, w, res);
        return "k_smem_strided";
    case SL_RUNG2_WARP_UNROLLED:
        k_warp_unrolled<X, T><<<G, B, smem, s>>>(x, n, w, res);
        return "k_warp_unrolled";
    case SL_RUNG2_FULL_UNROLL:
    case SL_RUNG2_MULTI_LOAD:
        unrolled_launch<X, T>(c, x, n, w, res, s);
        return "k_unrolled";
    case SL_RUNG2_PACKED: {
        uint64_t head, nv;
        sl_vec_split(n, dt, c.addr_mod, &head, &nv);
        k_packed<X, T><<<G, B, 0, s>>>(x, n, head, nv, w, res);
        return "k_packed";
    }
    case SL_RUNG2_BLOCK_REDUCE:
        k_block_reduce<X, T><<<G, B, 0, s>>>(x, n, w, res);
        return "k_block_reduce";
    }
    return NULL;
}

extern "C" int sl_ladder2_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                              const sl_launch *cfg, void *d_work, size_t work_bytes,
                              void *d_result, void *stream, sl_err *err)
{
    sl_launch c = *cfg;
    sl_ladder2_resolve(v, &c, n, dt);
    if (sl_ladder2_check(v, n, dt, &c, err)) return -1;
    if (!d_result) return sl_err_set(err, "%s: d_result is NULL", v->name);
    if (sl_check_workspace(v, d_work, work_bytes, sl_ws_bytes(c.grid, sl_dtype_size(sl_dtype_acc(dt))), err))
        return -1;
    if (n > 0 && sl_check_aligned(v, d_x, dt, err)) return -1;
    if (v->impl == SL_RUNG2_PACKED && n > 0 && sl_check_addr_mod(v, d_x, &c, err)) return -1;
    cudaStream_t s = (cudaStream_t)stream;
    const char *what =
        dt == SL_F64    ? ladder2_launch<double, double>(v, c, d_x, n, dt, d_work, d_result, s)
        : dt == SL_F16  ? ladder2_launch<__half, float>(v, c, d_x, n, dt, d_work, d_result, s)
        : dt == SL_BF16 ? ladder2_launch<__nv_bfloat16, float>(v, c, d_x, n, dt, d_work, d_result, s)
                        : ladder2_launch<float, float>(v, c, d_x, n, dt, d_work, d_result, s);
    if (!what) return sl_err_set(err, "%s: not a ladder2 rung (impl %d)", v->name, v->impl);
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

/* ---------------------------------------------------------------- resource use ------------
 * The kernel ladder2_launch would enqueue (same dispatch), for sl_ladder2_kernel_attrs. */
template <typename X, typename T>
static const void *ladder2_fn(const sl_variant *v, const sl_launch &c, size_t *smem)
{
    *smem = 0;
    switch ((sl_rung2)v->impl) {
    case SL_RUNG2_SMEM_STRIDED: *smem = (size_t)c.block * sizeof(T); return (const void *)k_smem_strided<X, T>;
    case SL_RUNG2_WARP_UNROLLED: *smem = (size_t)c.block * sizeof(T); return (const void *)k_warp_unrolled<X, T>;
    case SL_RUNG2_FULL_UNROLL:
    case SL_RUNG2_MULTI_LOAD:
        switch (c.block) {
        case 32: return (const void *)k_unrolled<X, T, 32>;
        case 64: return (const void *)k_unrolled<X, T, 64>;
        case 128: return (const void *)k_unrolled<X, T, 128>;
        case 256: return (const void *)k_unrolled<X, T, 256>;
        case 512: return (const void *)k_unrolled<X, T, 512>;
        default: return (const void *)k_unrolled<X, T, 1024>;
        }
    case SL_RUNG2_PACKED: return (const void *)k_packed<X, T>;
    case SL_RUNG2_BLOCK_REDUCE: return (const void *)k_block_reduce<X, T>;
    }
    return NULL;
}

extern "C" int sl_ladder2_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt,
                                       const sl_launch *cfg, sl_kernel_attrs *out, sl_err *err)
{
    sl_launch c = *cfg;
    sl_ladder2_resolve(v, &c, n, dt);
    if (sl_ladder2_check(v, n, dt, &c, err)) return -1;
    size_t smem = 0;
    const void *fn = dt == SL_F64    ? ladder2_fn<double, double>(v, c, &smem)
                     : dt == SL_F16  ? ladder2_fn<__half, float>(v, c, &smem)
                     : dt == SL_BF16 ? ladder2_fn<__nv_bfloat16, float>(v, c, &smem)
                                     : ladder2_fn<float, float>(v, c, &smem);
    if (!fn) return sl_err_set(err, "%s: not a ladder2 rung (impl %d)", v->name, v->impl);
    return sl_kernel_attrs_of(fn, c.block, smem, v->name, &out->regs, &out->blocks_per_sm,
                              &out->occupancy, err);
}

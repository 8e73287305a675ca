/* ladder.cu: GPU kernels and the one C-callable entry of the optimisation ladder V0-V6
 * (atomic-thread: nondeterministic; smem-interleaved .. vec4: run-to-run, single launch).
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds, round to nearest even, no FTZ,
 * --fmad=false, no reassociation (nvcc never reassociates without fast-math). Accumulators
 * are in the input format (float16/bfloat16 input: float32, widened exactly on load and the
 * result rounded once to the input format; half-acc: the 16-bit format, native 16-bit adds,
 * round to nearest even, subnormals kept). The order of every add is fixed by (n, dtype, resolved sl_launch)
 * and is written out in ladder.c next to each CPU twin, which repeats it bit for bit.
 * Performance considerations: V0-V4 launch one tile per block (grid grows with n); V5/V6 use
 * a persistent grid from the SM count; V6 gives each block one contiguous range and issues A
 * 16-byte read-only loads per thread before the adds. All rungs finish in the same launch
 * (sl_device_finish, last-block fixed order). */
#include <cuda_runtime.h>
#include <type_traits>
#include "ladder/ladder.h"
#include "reduce/reduce.cuh"

/* ---------------------------------------------------------------- kernels ----------------- */

/* V0: one element per thread, one atomicAdd per element on the result (16-bit input: on a
 * float32 accumulator in the workspace, rounded to the output by k_atomic_out). */
template <typename X, typename T>
__global__ void __launch_bounds__(1024) k_atomic_thread(const X *__restrict__ x, uint64_t n,
                                                        T *result)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(result, sl_acc_of<T>(x[i]));
}

/* One thread: *result = the float32 accumulator rounded once to X; the accumulator back to +0
 * for the next launch. */
template <typename X>
__global__ void k_atomic_out(float *acc, X *result)
{
    *result = sl_out<X>(*acc);
    *acc = 0.0f;
}

/* V1 (interleaved) and V2 (sequential) share memory trees over one element per thread;
 * V3 (TWO = true) adds x[i] and x[i + B] into a register first and uses the sequential tree. */
template <typename X, typename T, int MODE> /* MODE 1: interleaved, 2: sequential, 3: two-load */
__global__ void __launch_bounds__(1024) k_smem(const X *__restrict__ x, uint64_t n, void *work,
                                               X *result)
{
    extern __shared__ __align__(16) unsigned char sl_smem_raw[];
    T *s = reinterpret_cast<T *>(sl_smem_raw);
    const unsigned t = threadIdx.x, B = blockDim.x;
    if (MODE == 3) {
        uint64_t i = (uint64_t)blockIdx.x * 2u * B + t;
        T v = T(0);
        if (i < n) v = v + sl_acc_of<T>(x[i]);
        if (i + B < n) v = v + sl_acc_of<T>(x[i + B]);
        s[t] = v;
    } else {
        uint64_t i = (uint64_t)blockIdx.x * B + t;
        s[t] = i < n ? sl_acc_of<T>(x[i]) : T(0);
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
template <typename X, typename T>
__global__ void __launch_bounds__(1024) k_warp_shuffle(const X *__restrict__ x, uint64_t n,
                                                       void *work, X *result)
{
    __shared__ T s_warp[32];
    const unsigned B = blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * 2u * B + threadIdx.x;
    T v = T(0);
    if (i < n) v = v + sl_acc_of<T>(x[i]);
    if (i + B < n) v = v + sl_acc_of<T>(x[i + B]);
    v = sl_block_sum(v, s_warp);
    sl_device_finish(v, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* V5: persistent grid, one register accumulator per thread in grid-stride order (x[i], then
 * x[i + B], then i += 2BG). The unrolled loop only batches the loads of four steps that are
 * entirely in range; the adds keep the grid-stride order, so it equals the plain loop. */
template <typename X, typename T>
__global__ void __launch_bounds__(1024, 2) k_grid_stride(const X *__restrict__ x, uint64_t n,
                                                         void *work, X *result)
{
    __shared__ T s_warp[32];
    const uint64_t B = blockDim.x;
    const uint64_t S = 2u * B * gridDim.x;
    uint64_t i = (uint64_t)blockIdx.x * 2u * B + threadIdx.x;
    T a = T(0);
    for (; i + 3u * S + B < n; i += 4u * S) {
        X r0 = x[i], r1 = x[i + B], r2 = x[i + S], r3 = x[i + S + B];
        X r4 = x[i + 2u * S], r5 = x[i + 2u * S + B], r6 = x[i + 3u * S], r7 = x[i + 3u * S + B];
        a = a + sl_acc_of<T>(r0); a = a + sl_acc_of<T>(r1); a = a + sl_acc_of<T>(r2); a = a + sl_acc_of<T>(r3);
        a = a + sl_acc_of<T>(r4); a = a + sl_acc_of<T>(r5); a = a + sl_acc_of<T>(r6); a = a + sl_acc_of<T>(r7);
    }
    for (; i < n; i += S) {
        a = a + sl_acc_of<T>(x[i]);
        if (i + B < n) a = a + sl_acc_of<T>(x[i + B]);
    }
    a = sl_block_sum(a, s_warp);
    sl_device_finish(a, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* V5 with A > 1 independent accumulators per thread (cfg accs): step s of the thread (x[i], then
 * x[i + B], i = 2Bb + t + sS) adds into acc[s mod A]; the main loop takes A whole steps in
 * range at a time (their 2A loads in flight, then the adds in step order), the last steps are
 * guarded; then the pairwise combine w = A/2 .. 1 (ladder.c's model, bit for bit). A = 1 is
 * k_grid_stride above (same order, its own unrolling). No minimum-blocks bound: A = 8 keeps 8
 * accumulators and 16 loads live. */
template <typename X, typename T, int A>
__global__ void __launch_bounds__(1024) k_grid_stride_acc(const X *__restrict__ x, uint64_t n,
                                                          void *work, X *result)
{
    __shared__ T s_warp[32];
    const uint64_t B = blockDim.x;
    const uint64_t S = 2u * B * gridDim.x;
    uint64_t i = (uint64_t)blockIdx.x * 2u * B + threadIdx.x;
    T acc[A];
#pragma unroll
    for (int k = 0; k < A; k++) acc[k] = T(0);
    for (; i + (uint64_t)(A - 1) * S + B < n; i += (uint64_t)A * S) {
        X r[2 * A];
#pragma unroll
        for (int k = 0; k < A; k++) {
            r[2 * k] = x[i + (uint64_t)k * S];
            r[2 * k + 1] = x[i + (uint64_t)k * S + B];
        }
#pragma unroll
        for (int k = 0; k < A; k++) {
            acc[k] = acc[k] + sl_acc_of<T>(r[2 * k]);
            acc[k] = acc[k] + sl_acc_of<T>(r[2 * k + 1]);
        }
    }
    /* fewer than A + 1 steps left (the main loop stopped at a step whose second load is out of
     * range, or past n): step k of them goes to acc[k], as its step number mod A says */
#pragma unroll
    for (int k = 0; k < A; k++) {
        if (i < n) {
            acc[k] = acc[k] + sl_acc_of<T>(x[i]);
            if (i + B < n) acc[k] = acc[k] + sl_acc_of<T>(x[i + B]);
        }
        i += S;
    }
#pragma unroll
    for (int w = A / 2; w >= 1; w /= 2)
#pragma unroll
        for (int k = 0; k < w; k++) acc[k] = acc[k] + acc[k + w];
    T a = sl_block_sum(acc[0], s_warp);
    sl_device_finish(a, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* V6: see the model in ladder.c. VB bytes a load (16: float4 / double2 / 8 halves; 8, or the
 * element size: sl_load_of); head/nv from sl_ladder_vec_split; x + head is VB-aligned.
 * Block b streams its own contiguous range of vectors (sl_ladder_vec_block, with the split
 * per/extra from sl_ladder_vec_units: no division on the device): A loads in flight per
 * thread, then their adds in order, load k into accumulator k mod C (C divides A; C = A is the
 * default). Two resident blocks of 1024 (32 registers) for A <= 4; A = 8 would spill under
 * that bound.
 * ONE (grid == 1): the range is [0, nv) without computing it, so the first loads issue at
 * once, and the finish is the one-block case of sl_device_finish written out (same bits).
 * EDGES: false when there is no head and no tail (head == 0, n == W nv): the scalar checks
 * are compiled out. Both matter only where one block is latency-bound (~0.2 us for the
 * range arithmetic, a few tens of ns for the checks and the finish branch). */
template <typename X, typename T, int A, int C, bool ONE, bool EDGES, int VB>
__global__ void __launch_bounds__(1024, A >= 8 ? 1 : 2)
    k_vec4(const X *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, uint64_t per,
           uint64_t extra, void *work, X *result)
{
    typedef sl_load_of<X, VB> L;
    typedef typename L::V V;
    static_assert(C >= 1 && C <= A && A % C == 0, "accumulators divide the loads of a step");
    constexpr uint64_t W = sizeof(V) / sizeof(X);
    __shared__ T s_warp[32];
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    const uint64_t B = blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * B + threadIdx.x;
    uint64_t lo = 0, hi = nv;
    if (!ONE) sl_ladder_vec_block(nv, per, extra, blockIdx.x, &lo, &hi);
    T acc[C];
#pragma unroll
    for (int k = 0; k < C; k++) acc[k] = T(0);
    const uint64_t tail0 = head + nv * W;
    if (EDGES && g < head) acc[0] = acc[0] + sl_acc_of<T>(x[g]);
    if (EDGES && tail0 + g < n) acc[0] = acc[0] + sl_acc_of<T>(x[tail0 + g]);
    /* pointers rather than 64-bit indices: fewer live registers under the 2-blocks bound */
    const V *p = xv + lo + threadIdx.x;
    const V *const end = xv + hi;
    for (; p + (A - 1) * B < end; p += A * B) {
        V r[A];
#pragma unroll
        for (int k = 0; k < A; k++) r[k] = L::ld(p + k * B);
#pragma unroll
        for (int k = 0; k < A; k++) L::add(acc[k % C], r[k]);
    }
#pragma unroll
    for (int k = 0; k < A; k++)
        if (p + k * B < end) L::add(acc[k % C], L::ld(p + k * B));
#pragma unroll
    for (int w = C / 2; w >= 1; w /= 2)
#pragma unroll
        for (int k = 0; k < w; k++) acc[k] = acc[k] + acc[k + w];
    T s = sl_block_sum(acc[0], s_warp);
    if (ONE) {
        if (threadIdx.x == 0) *result = sl_out<X>(T(T(0) + s));
        return;
    }
    sl_device_finish(s, sl_ws_partials<T>(work), sl_ws_counter(work), result);
}

/* ---------------------------------------------------------------- launchers ---------------
 * One entry for every rung (v->impl): ladder_prep resolves and checks, ladder_launch<T> (the
 * family's one float/double branch) enqueues the rung's kernel, vec4_launch picks vec4's
 * compile-time shape. */

/* What a launch needs, resolved and checked. */
struct ladder_args {
    sl_launch c;          /* resolved private copy of cfg */
    const void *x;
    uint64_t n;
    void *work, *result;
    cudaStream_t s;
};

/* Partials in the accumulator format; 16-bit input to atomic-thread: its float32 accumulator. */
static size_t ladder_ws(const sl_variant *v, const sl_launch *c, sl_dtype dt)
{
    if (v->impl == SL_RUNG_ATOMIC_THREAD) return sl_dtype_is_half(dt) ? 16u : 0u;
    return sl_ws_bytes(c->grid, sl_dtype_size(sl_variant_acc(v, dt)));
}

extern "C" size_t sl_ladder_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                      const sl_launch *cfg)
{
    sl_launch c = *cfg;
    sl_ladder_resolve(v, &c, n, dt);
    return ladder_ws(v, &c, dt);
}

/* Resolves a private copy of cfg (idempotent on an already resolved one), validates it, the
 * result pointer, the workspace and (vec4) the address the head split assumes. */
static int ladder_prep(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                       ladder_args *a, sl_err *err)
{
    a->c = *cfg;
    sl_ladder_resolve(v, &a->c, n, dt);
    if (sl_ladder_check(v, n, dt, &a->c, err)) return -1;
    if (!d_result) return sl_err_set(err, "%s: d_result is NULL", v->name);
    if (sl_check_workspace(v, d_work, work_bytes, ladder_ws(v, &a->c, dt), err)) return -1;
    if (v->impl == SL_RUNG_VEC4 && n > 0 && sl_check_addr_mod(v, d_x, &a->c, err)) return -1;
    a->x = d_x;
    a->n = n;
    a->work = d_work;
    a->result = d_result;
    return 0;
}

template <typename X, typename T, bool ONE, bool EDGES>
static void vec4_launch_a(const sl_launch &c, const X *x, uint64_t n, uint64_t head,
                          uint64_t nv, uint64_t per, uint64_t extra, void *w, X *res,
                          cudaStream_t s)
{
    const dim3 G(c.grid), B(c.block);
    switch (c.items) {
    case 1: k_vec4<X, T, 1, 1, ONE, EDGES, 16><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    case 2: k_vec4<X, T, 2, 2, ONE, EDGES, 16><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    case 4: k_vec4<X, T, 4, 4, ONE, EDGES, 16><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    default: k_vec4<X, T, 8, 8, ONE, EDGES, 16><<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res); break;
    }
}

/* The swept shapes (fewer accumulators than loads a step, or loads narrower than 16 bytes):
 * the general kernel only (several blocks' code, scalar edges checked: the same bits as the
 * one-block and edge-free forms), by (items, accumulators, width). vec4_fn_g names the same. */
#define SL_VEC4_G(X, T, A, C, VB) k_vec4<X, T, A, C, false, true, VB>
#define SL_VEC4_G_WIDTHS(X, T, A, C, DO)                                                    \
    switch (c.width) {                                                                      \
    case 16: DO(SL_VEC4_G(X, T, A, C, 16)); break;                                          \
    case 8: DO(SL_VEC4_G(X, T, A, C, 8)); break;                                            \
    default: DO(SL_VEC4_G(X, T, A, C, (int)sizeof(X))); break;                              \
    }
#define SL_VEC4_G_ALL(X, T, DO)                                                             \
    switch (c.items * 16u + c.accs) {                                                       \
    case 1 * 16 + 1: SL_VEC4_G_WIDTHS(X, T, 1, 1, DO) break;                                \
    case 2 * 16 + 1: SL_VEC4_G_WIDTHS(X, T, 2, 1, DO) break;                                \
    case 2 * 16 + 2: SL_VEC4_G_WIDTHS(X, T, 2, 2, DO) break;                                \
    case 4 * 16 + 1: SL_VEC4_G_WIDTHS(X, T, 4, 1, DO) break;                                \
    case 4 * 16 + 2: SL_VEC4_G_WIDTHS(X, T, 4, 2, DO) break;                                \
    case 4 * 16 + 4: SL_VEC4_G_WIDTHS(X, T, 4, 4, DO) break;                                \
    case 8 * 16 + 1: SL_VEC4_G_WIDTHS(X, T, 8, 1, DO) break;                                \
    case 8 * 16 + 2: SL_VEC4_G_WIDTHS(X, T, 8, 2, DO) break;                                \
    case 8 * 16 + 4: SL_VEC4_G_WIDTHS(X, T, 8, 4, DO) break;                                \
    default: SL_VEC4_G_WIDTHS(X, T, 8, 8, DO) break;                                        \
    }

/* vec4's default shape: 16-byte loads, one accumulator per load of a step (the kernels above
 * with ONE and EDGES specialised); any other is the general kernel. */
static inline bool vec4_default_shape(const sl_launch &c) { return c.width == 16 && c.accs == c.items; }

/* vec4: the split (sl_ladder_vec_split, sl_ladder_vec_units) once on the host, then the kernel
 * for (one block?, scalar edges?, items, accumulators, width). */
template <typename X, typename T>
static void vec4_launch(const ladder_args &a, sl_dtype dt)
{
    const sl_launch &c = a.c;
    const X *x = (const X *)a.x;
    X *res = (X *)a.result;
    uint64_t head, nv;
    sl_ladder_vec_split(a.n, dt, c.addr_mod, c.width, &head, &nv);
    uint64_t per, extra;
    sl_ladder_vec_units(nv, c.grid, &per, &extra);
    if (!vec4_default_shape(c)) {
        /* half-acc (16-bit accumulators) is refused any other shape by sl_ladder_check */
        if constexpr (!(std::is_same<X, T>::value && sizeof(X) == 2)) {
            const dim3 G(c.grid), B(c.block);
            void *w = a.work;
            const uint64_t n = a.n;
            cudaStream_t s = a.s;
#define SL_VEC4_LAUNCH(K) K<<<G, B, 0, s>>>(x, n, head, nv, per, extra, w, res)
            SL_VEC4_G_ALL(X, T, SL_VEC4_LAUNCH)
#undef SL_VEC4_LAUNCH
        }
        return;
    }
    const bool edges = head != 0 || head + nv * (16 / sizeof(X)) != a.n;
    if (c.grid == 1 && edges)
        vec4_launch_a<X, T, true, true>(c, x, a.n, head, nv, per, extra, a.work, res, a.s);
    else if (c.grid == 1)
        vec4_launch_a<X, T, true, false>(c, x, a.n, head, nv, per, extra, a.work, res, a.s);
    else if (edges)
        vec4_launch_a<X, T, false, true>(c, x, a.n, head, nv, per, extra, a.work, res, a.s);
    else
        vec4_launch_a<X, T, false, false>(c, x, a.n, head, nv, per, extra, a.work, res, a.s);
}

/* Enqueues rung v->impl's kernel for input X accumulated in T; returns the kernel's name for
 * the launch check. */
template <typename X, typename T>
static const char *ladder_launch(const sl_variant *v, const ladder_args &a, sl_dtype dt)
{
    const X *x = (const X *)a.x;
    X *res = (X *)a.result;
    const dim3 G(a.c.grid), B(a.c.block);
    const size_t smem = (size_t)a.c.block * sizeof(T);
    switch ((sl_rung)v->impl) {
    case SL_RUNG_ATOMIC_THREAD:
        if (sizeof(X) == 2) { /* float32 accumulator in the workspace, then one rounding */
            k_atomic_thread<X, float><<<G, B, 0, a.s>>>(x, a.n, (float *)a.work);
            k_atomic_out<X><<<1, 1, 0, a.s>>>((float *)a.work, res);
        } else {
            k_atomic_thread<X, X><<<G, B, 0, a.s>>>(x, a.n, res);
        }
        return "k_atomic_thread";
    case SL_RUNG_SMEM_INTERLEAVED:
        k_smem<X, T, 1><<<G, B, smem, a.s>>>(x, a.n, a.work, res);
        return "k_smem";
    case SL_RUNG_SMEM_SEQUENTIAL:
        k_smem<X, T, 2><<<G, B, smem, a.s>>>(x, a.n, a.work, res);
        return "k_smem";
    case SL_RUNG_TWO_LOAD:
        k_smem<X, T, 3><<<G, B, smem, a.s>>>(x, a.n, a.work, res);
        return "k_smem";
    case SL_RUNG_WARP_SHUFFLE:
        k_warp_shuffle<X, T><<<G, B, 0, a.s>>>(x, a.n, a.work, res);
        return "k_warp_shuffle";
    case SL_RUNG_GRID_STRIDE:
        switch (a.c.accs) {
        case 2: k_grid_stride_acc<X, T, 2><<<G, B, 0, a.s>>>(x, a.n, a.work, res); return "k_grid_stride_acc";
        case 4: k_grid_stride_acc<X, T, 4><<<G, B, 0, a.s>>>(x, a.n, a.work, res); return "k_grid_stride_acc";
        case 8: k_grid_stride_acc<X, T, 8><<<G, B, 0, a.s>>>(x, a.n, a.work, res); return "k_grid_stride_acc";
        default: k_grid_stride<X, T><<<G, B, 0, a.s>>>(x, a.n, a.work, res); return "k_grid_stride";
        }
    case SL_RUNG_VEC4:
        vec4_launch<X, T>(a, dt);
        return "k_vec4";
    }
    return NULL;
}

/* The family's one dtype dispatch: input format, and the accumulator (float32 for 16-bit input,
 * the input format itself for half-acc). */
static const char *ladder_dispatch(const sl_variant *v, const ladder_args &a, sl_dtype dt)
{
    switch (dt) {
    case SL_F64: return ladder_launch<double, double>(v, a, dt);
    case SL_F16:
        if (v->acc_input) return v->impl == SL_RUNG_VEC4 ? ladder_launch<__half, __half>(v, a, dt) : NULL;
        return ladder_launch<__half, float>(v, a, dt);
    case SL_BF16:
        if (v->acc_input)
            return v->impl == SL_RUNG_VEC4 ? ladder_launch<__nv_bfloat16, __nv_bfloat16>(v, a, dt) : NULL;
        return ladder_launch<__nv_bfloat16, float>(v, a, dt);
    default: return ladder_launch<float, float>(v, a, dt);
    }
}

extern "C" int sl_ladder_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                             const sl_launch *cfg, void *d_work, size_t work_bytes,
                             void *d_result, void *stream, sl_err *err)
{
    ladder_args a;
    if (ladder_prep(v, d_x, n, dt, cfg, d_work, work_bytes, d_result, &a, err)) return -1;
    a.s = (cudaStream_t)stream;
    if (v->impl == SL_RUNG_ATOMIC_THREAD) { /* V0 adds into the result: start it at +0 */
        SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0, sl_dtype_size(dt), a.s), v->name, err);
        if (n == 0) return 0;
    }
    const char *what = ladder_dispatch(v, a, dt);
    if (!what) return sl_err_set(err, "%s: not a ladder rung (impl %d)", v->name, v->impl);
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

/* ---------------------------------------------------------------- resource use ------------
 * The kernel ladder_launch would enqueue (same dispatch), for sl_ladder_kernel_attrs. */
template <typename X, typename T, bool ONE, bool EDGES>
static const void *vec4_fn(uint32_t items)
{
    switch (items) {
    case 1: return (const void *)k_vec4<X, T, 1, 1, ONE, EDGES, 16>;
    case 2: return (const void *)k_vec4<X, T, 2, 2, ONE, EDGES, 16>;
    case 4: return (const void *)k_vec4<X, T, 4, 4, ONE, EDGES, 16>;
    default: return (const void *)k_vec4<X, T, 8, 8, ONE, EDGES, 16>;
    }
}
/* The general kernel vec4_launch runs for a shape other than the default. */
template <typename X, typename T>
static const void *vec4_fn_g(const sl_launch &c)
{
    const void *fn = NULL;
    if constexpr (!(std::is_same<X, T>::value && sizeof(X) == 2)) {
#define SL_VEC4_FN(K) fn = (const void *)K
        SL_VEC4_G_ALL(X, T, SL_VEC4_FN)
#undef SL_VEC4_FN
    }
    return fn;
}

template <typename X, typename T>
static const void *ladder_fn(const sl_variant *v, const sl_launch &c, uint64_t n, sl_dtype dt,
                             size_t *smem)
{
    *smem = 0;
    switch ((sl_rung)v->impl) {
    case SL_RUNG_ATOMIC_THREAD:
        return sizeof(X) == 2 ? (const void *)k_atomic_thread<X, float> : (const void *)k_atomic_thread<X, X>;
    case SL_RUNG_SMEM_INTERLEAVED: *smem = (size_t)c.block * sizeof(T); return (const void *)k_smem<X, T, 1>;
    case SL_RUNG_SMEM_SEQUENTIAL: *smem = (size_t)c.block * sizeof(T); return (const void *)k_smem<X, T, 2>;
    case SL_RUNG_TWO_LOAD: *smem = (size_t)c.block * sizeof(T); return (const void *)k_smem<X, T, 3>;
    case SL_RUNG_WARP_SHUFFLE: return (const void *)k_warp_shuffle<X, T>;
    case SL_RUNG_GRID_STRIDE:
        switch (c.accs) {
        case 2: return (const void *)k_grid_stride_acc<X, T, 2>;
        case 4: return (const void *)k_grid_stride_acc<X, T, 4>;
        case 8: return (const void *)k_grid_stride_acc<X, T, 8>;
        default: return (const void *)k_grid_stride<X, T>;
        }
    case SL_RUNG_VEC4: {
        if (!vec4_default_shape(c)) return vec4_fn_g<X, T>(c);
        uint64_t head, nv;
        sl_vec_split(n, dt, c.addr_mod, &head, &nv);
        const bool edges = head != 0 || head + nv * (16 / sizeof(X)) != n;
        if (c.grid == 1) return edges ? vec4_fn<X, T, true, true>(c.items) : vec4_fn<X, T, true, false>(c.items);
        return edges ? vec4_fn<X, T, false, true>(c.items) : vec4_fn<X, T, false, false>(c.items);
    }
    }
    return NULL;
}

extern "C" int sl_ladder_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt,
                                      const sl_launch *cfg, sl_kernel_attrs *out, sl_err *err)
{
    if (v->impl > SL_RUNG_VEC4) return sl_ladder2_kernel_attrs(v, n, dt, cfg, out, err);
    sl_launch c = *cfg;
    sl_ladder_resolve(v, &c, n, dt);
    if (sl_ladder_check(v, n, dt, &c, err)) return -1;
    size_t smem = 0;
    const void *fn = NULL;
    switch (dt) {
    case SL_F64: fn = ladder_fn<double, double>(v, c, n, dt, &smem); break;
    case SL_F16:
        fn = v->acc_input ? ladder_fn<__half, __half>(v, c, n, dt, &smem) : ladder_fn<__half, float>(v, c, n, dt, &smem);
        break;
    case SL_BF16:
        fn = v->acc_input ? ladder_fn<__nv_bfloat16, __nv_bfloat16>(v, c, n, dt, &smem)
                          : ladder_fn<__nv_bfloat16, float>(v, c, n, dt, &smem);
        break;
    default: fn = ladder_fn<float, float>(v, c, n, dt, &smem); break;
    }
    if (!fn) return sl_err_set(err, "%s: not a ladder rung (impl %d)", v->name, v->impl);
    return sl_kernel_attrs_of(fn, c.block, smem, v->name, &out->regs, &out->blocks_per_sm,
                              &out->occupancy, err);
}

/* reduce/launch.cuh: host side of every launcher: the CUDA check macros (every call checked,
 * the message naming the variant) and the checks each launcher makes before it enqueues
 * anything (launch shape, input alignment, workspace size). Each check returns 0, or -1 with
 * err naming v->name. */
#ifndef SL_REDUCE_LAUNCH_CUH
#define SL_REDUCE_LAUNCH_CUH
#include <cuda_runtime.h>
#include <stdint.h>
#include <atomic>
#include "sl_layout.h"
#include "sl_variants.h"

/* SL_CUDA_CHECK(call, vname, err): runs call; on failure fills err with the variant name, the
 * call text, CUDA's message, file and line, and returns -1 from the enclosing function.
 * SL_CUDA_CHECK_LAUNCH(what, vname, err): the same for a kernel launch just enqueued
 * (cudaGetLastError), `what` naming the kernel. */
#define SL_CUDA_CHECK(call, vname, err)                                                     \
    do {                                                                                    \
        cudaError_t sl_e_ = (call);                                                         \
        if (sl_e_ != cudaSuccess)                                                           \
            return sl_err_set((err), "%s: CUDA call '%s' failed: %s (%s) at %s:%d", (vname), \
                              #call, cudaGetErrorName(sl_e_), cudaGetErrorString(sl_e_),    \
                              __FILE__, __LINE__);                                          \
    } while (0)
#define SL_CUDA_CHECK_LAUNCH(what, vname, err)                                              \
    do {                                                                                    \
        cudaError_t sl_e_ = cudaGetLastError();                                             \
        if (sl_e_ != cudaSuccess)                                                           \
            return sl_err_set((err), "%s: launch of %s failed: %s (%s) at %s:%d", (vname),  \
                              (what), cudaGetErrorName(sl_e_), cudaGetErrorString(sl_e_),   \
                              __FILE__, __LINE__);                                          \
    } while (0)

/* A failed launch of a listed pass (the exact pass over the rows a deciding pass listed in the
 * workspace: grid.cuh's sl_rows_listed, rows.cu's sa_rows_kernel<X, true>), error e: the list's
 * 8-byte header (its length, its ticket), which only that pass empties, is cleared on st, so that
 * the workspace's next call does not start from this call's list (appending past its end, or
 * reading rows of another batch); err names the kernel and whether the clearing failed too.
 * Returns -1. */
static inline int sl_listed_launch_failed(cudaError_t e, const char *what, const char *vname,
                                          void *header, cudaStream_t st, sl_err *err,
                                          const char *file, int line)
{
    const cudaError_t c = cudaMemsetAsync(header, 0, 2 * sizeof(unsigned), st);
    return sl_err_set(err, "%s: launch of %s failed: %s (%s) at %s:%d%s%s", vname, what,
                      cudaGetErrorName(e), cudaGetErrorString(e), file, line,
                      c == cudaSuccess ? "" : "; clearing its row list failed too (do not reuse the "
                                              "workspace): ",
                      c == cudaSuccess ? "" : cudaGetErrorString(c));
}
/* SL_CUDA_CHECK_LAUNCH for a listed pass: sl_listed_launch_failed on failure */
#define SL_CUDA_CHECK_LAUNCH_LISTED(what, vname, err, header, st)                          \
    do {                                                                                    \
        cudaError_t sl_e_ = cudaGetLastError();                                             \
        if (sl_e_ != cudaSuccess)                                                           \
            return sl_listed_launch_failed(sl_e_, (what), (vname), (header), (st), (err),   \
                                           __FILE__, __LINE__);                             \
    } while (0)

/* kernel<<<grid, block, 0, st>>>(args...) as a programmatic dependent launch of the kernel
 * before it on st (cudaLaunchAttributeProgrammaticStreamSerialization): it may start while that
 * kernel runs, so it must wait (griddepcontrol.wait) before touching what that kernel writes.
 * Returns cudaLaunchKernelEx's error, for SL_CUDA_CHECK. */
template <typename... KArgs, typename... Args>
static inline cudaError_t sl_launch_dependent(void (*kernel)(KArgs...), dim3 grid, dim3 block,
                                              cudaStream_t st, Args... args)
{
    cudaLaunchConfig_t lc = {};
    cudaLaunchAttribute at[1] = {};
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    lc.gridDim = grid;
    lc.blockDim = block;
    lc.stream = st;
    lc.attrs = at;
    lc.numAttrs = 1;
    return cudaLaunchKernelEx(&lc, kernel, args...);
}

/* A teardown call's result (cudaFree, cudaStreamDestroy, the synchronisation before them): its
 * failure leaves nothing to undo, so it is checked and cleared (cudaGetLastError), that it cannot
 * surface as a later call's error. */
static inline void sl_cuda_teardown(cudaError_t e)
{
    if (e != cudaSuccess) (void)cudaGetLastError();
}

/* A kernel's opt-in to `most` bytes of dynamic shared memory on the current device, made when a
 * launch needs more than the default 48 KB (need): CUDA keeps the attribute per function and
 * device, so each device is opted in once (opted: the caller's per-kernel table, static storage;
 * a device beyond it is opted in on every call). cudaSuccess or the CUDA error. */
#define SL_SMEM_DEVICES 64
template <typename K>
static inline cudaError_t sl_smem_opt_in(K *kernel, size_t need, size_t most, std::atomic<size_t> *opted)
{
    if (need <= 48u * 1024u) return cudaSuccess;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    const bool kept = dev >= 0 && dev < SL_SMEM_DEVICES;
    if (kept && opted[dev].load(std::memory_order_relaxed) >= need) return cudaSuccess;
    e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most);
    if (e == cudaSuccess && kept) opted[dev].store(most, std::memory_order_relaxed);
    return e;
}

/* A resolved shape: block in [1, 1024] and a multiple of block_multiple, grid in
 * [1, 2^31-1]. */
static inline int sl_check_shape(const sl_variant *v, const sl_launch *cfg,
                                 unsigned block_multiple, sl_err *err)
{
    if (cfg->block == 0 || cfg->block > 1024u || cfg->block % block_multiple || cfg->grid == 0 ||
        cfg->grid > 0x7fffffffu)
        return sl_err_set(err, "%s: launch configuration not resolved or out of range (block %u, "
                          "grid %u)", v->name, cfg->block, cfg->grid);
    return 0;
}

/* The input pointer aligned to its element size. */
static inline int sl_check_aligned(const sl_variant *v, const void *d_x, sl_dtype dt, sl_err *err)
{
    if ((uintptr_t)d_x % sl_dtype_size(dt))
        return sl_err_set(err, "%s: input pointer %p is not aligned to its %zu-byte elements",
                          v->name, d_x, sl_dtype_size(dt));
    return 0;
}

/* cfg->addr_mod agrees with the input pointer modulo 16 (the head split depends on it). */
static inline int sl_check_addr_mod(const sl_variant *v, const void *d_x, const sl_launch *cfg,
                                    sl_err *err)
{
    const unsigned mis = (unsigned)((uintptr_t)d_x & 15u);
    if (mis != (cfg->addr_mod & 15u))
        return sl_err_set(err, "%s: cfg addr_mod %u disagrees with the device pointer (address "
                          "mod 16 = %u); the harness sets it from the pointer", v->name,
                          cfg->addr_mod, mis);
    return 0;
}

/* At least `need` bytes of workspace (and a pointer to them when need > 0). */
static inline int sl_check_workspace(const sl_variant *v, const void *d_work, size_t have,
                                     size_t need, sl_err *err)
{
    if (have < need || (need && !d_work))
        return sl_err_set(err, "%s: workspace of %zu bytes given, %zu needed", v->name, have,
                          need);
    return 0;
}

/* The prologue of the one-launch whole-array kernels (superacc, reproducible): n below max_n,
 * a resolved shape (block a multiple of block_multiple), the workspace (`need` bytes), the empty
 * sum written as +0 (no kernel), an element-aligned input, and the head (elements before the
 * first 16-byte boundary, from the pointer itself: any addr_mod in cfg is ignored).
 * Returns 1 when the caller should launch (*head set), 0 when the result is written (n == 0),
 * -1 with err. */
static inline int sl_launch_prologue(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                                     const sl_launch *cfg, unsigned block_multiple, uint64_t max_n,
                                     void *d_work, size_t work_bytes, size_t need, void *d_result,
                                     cudaStream_t st, uint64_t *head, sl_err *err)
{
    if (n >= max_n)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^%d)", v->name,
                          (unsigned long long)n, 63 - __builtin_clzll(max_n));
    if (sl_check_shape(v, cfg, block_multiple, err) ||
        sl_check_workspace(v, d_work, work_bytes, need, err))
        return -1;
    if (n == 0) {                                    /* the empty sum is +0 */
        SL_CUDA_CHECK(cudaMemsetAsync(d_result, 0, sl_dtype_size(dt), st), v->name, err);
        return 0;
    }
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    *head = sl_vec_head(n, dt, (uint32_t)((uintptr_t)d_x & 15u));
    return 1;
}

/* Row-wise: v's 1-D launcher on each of `rows` contiguous rows of n values (row i at
 * d_x + i n size, its result at d_results + i size), each row's request resolved at its address as
 * the 1-D call resolves it (the float64 rows of the dedicated row entries). 0, or -1 (err). */
static inline int sl_rows_each_1d(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, sl_dtype dt,
                                  const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_results,
                                  void *stream, sl_err *err)
{
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < rows; i++) {
        const char *p = (const char *)d_x + i * n * es;
        sl_launch ci = cfg ? *cfg : sl_launch{};
        ci.addr_mod = (uint32_t)((uintptr_t)p & 255u);
        sl_variant_resolve(v, &ci, n, dt);
        if (v->gpu(v, p, n, dt, &ci, d_work, work_bytes, (char *)d_results + i * es, stream, err)) return -1;
    }
    return 0;
}

/* A two-input variant's pairing of rows (row i of x at d_x + i n size, its row of y at
 * d_y + i y_stride size) as its kernels take it: each pair at one alignment modulo 16 bytes, so
 * d_x and d_y share it and, with one row of y against several rows, a row spans a multiple of 16
 * bytes. 0, or -1 (err, said before anything is enqueued). */
static inline int sl_rows_pair_check(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride,
                                     uint64_t rows, uint64_t n, sl_dtype dt, sl_err *err)
{
    const bool starts = (uintptr_t)d_x % 16u != (uintptr_t)d_y % 16u;
    if (rows && n && (starts || (rows > 1 && y_stride != n && n * sl_dtype_size(dt) % 16u)))
        return sl_err_set(err, "%s: row i of x and its row of y must share one alignment modulo 16 bytes (%s)",
                          v->name, starts ? "x and y start at different ones"
                                          : "one row of y against rows that are not a multiple of 16 bytes long");
    return 0;
}

/* sl_rows_each_1d for a two-input variant: its 1-D launcher (v->gpu2) on each pair of rows,
 * resolved at x's row address (sl_rows_pair_check first). 0, or -1 (err). */
static inline int sl_rows_each_1d_xy(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride,
                                     uint64_t rows, uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                                     size_t work_bytes, void *d_results, void *stream, sl_err *err)
{
    const size_t es = sl_dtype_size(dt);
    if (sl_rows_pair_check(v, d_x, d_y, y_stride, rows, n, dt, err)) return -1;
    for (uint64_t i = 0; i < rows; i++) {
        const char *px = (const char *)d_x + i * n * es, *py = (const char *)d_y + i * y_stride * es;
        sl_launch ci = cfg ? *cfg : sl_launch{};
        ci.addr_mod = (uint32_t)((uintptr_t)px & 255u);
        sl_variant_resolve(v, &ci, n, dt);
        if (v->gpu2(v, px, py, n, dt, &ci, d_work, work_bytes, (char *)d_results + i * es, stream, err)) return -1;
    }
    return 0;
}

/* Registers per thread, resident blocks per SM and theoretical occupancy (resident threads
 * over the SM's maximum) of kernel fn launched with `block` threads and `smem` bytes of dynamic
 * shared memory, on the current device (cudaFuncGetAttributes, the occupancy API). */
static inline int sl_kernel_attrs_of(const void *fn, unsigned block, size_t smem, const char *vname,
                                     int *regs, int *blocks_per_sm, double *occupancy, sl_err *err)
{
    cudaFuncAttributes fa;
    SL_CUDA_CHECK(cudaFuncGetAttributes(&fa, fn), vname, err);
    int nb = 0, dev = 0, maxt = 0;
    SL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, fn, (int)block, smem), vname, err);
    SL_CUDA_CHECK(cudaGetDevice(&dev), vname, err);
    SL_CUDA_CHECK(cudaDeviceGetAttribute(&maxt, cudaDevAttrMaxThreadsPerMultiProcessor, dev), vname, err);
    *regs = fa.numRegs;
    *blocks_per_sm = nb;
    *occupancy = maxt > 0 ? (double)nb * block / maxt : 0.0;
    return 0;
}

#endif

/* gpu_harness.cu: the GPU harness of sl_gpu.h: device detection and info, one upload per input,
 * R timed runs of any variant's launcher (device events around the launcher call alone,
 * optional L2 flush before each, device or call time: sl_gpu.h), and the streaming-read
 * ceiling on the same buffer.
 * No warm-up run is made here: a caller that wants one runs with reps = 1 first and drops it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_gpu.h"
#include "sumlab/half.h"
#include "reduce/reduce.cuh"

#define H_CHECK(call) SL_CUDA_CHECK(call, "gpu-harness", err)

struct sl_gpu_ctx {
    sl_gpu_info info;
    sl_dtype dt;
    uint64_t n;
    uint32_t offset;
    void *d_alloc;          /* cudaMalloc'ed input (16-byte padded) */
    void *d_x;              /* d_alloc + offset elements */
    void *d_yalloc;         /* the second input of a two-input operation (dot), as d_alloc */
    void *d_y;              /* d_yalloc + offset elements (NULL: one input) */
    void *d_work;           /* variant scratch, max over calls, zeroed at allocation */
    size_t work_bytes;
    const sl_variant *work_owner; /* the variant whose state the workspace holds */
    sl_launch work_cfg;     /* ... for this resolved configuration */
    uint64_t work_n;        /* ... and this n */
    void *d_result;         /* 8 bytes */
    void *d_flush;          /* 2 x L2 bytes, allocated on first flush */
    size_t flush_bytes;
    unsigned *d_sink;       /* the read-ceiling kernel's never-taken store */
    cudaStream_t stream;
    cudaEvent_t ev0, ev1;
};

namespace {

/* Streaming read: 16-byte loads over the whole buffer (grid-stride, 4 in flight), XOR combine,
 * and a store only when the combined 64 bits equal one arbitrary pattern (probability 2^-64):
 * the compiler cannot drop the loads, and the store practically never executes. */
__global__ void __launch_bounds__(256) read_ceiling_kernel(const uint4 *__restrict__ p, uint64_t nvec,
                                                           unsigned key, unsigned *sink)
{
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (; i + 3 * T < nvec; i += 4 * T) {
        uint4 a = p[i], b = p[i + T], c = p[i + 2 * T], d = p[i + 3 * T];
        acc.x ^= a.x ^ b.x ^ c.x ^ d.x;
        acc.y ^= a.y ^ b.y ^ c.y ^ d.y;
        acc.z ^= a.z ^ b.z ^ c.z ^ d.z;
        acc.w ^= a.w ^ b.w ^ c.w ^ d.w;
    }
    for (; i < nvec; i += T) {
        uint4 a = p[i];
        acc.x ^= a.x; acc.y ^= a.y; acc.z ^= a.z; acc.w ^= a.w;
    }
    unsigned h = acc.x ^ (acc.y * 3u) ^ (acc.z * 5u) ^ (acc.w * 7u);
    if (h == key && acc.x == ~key) *sink = h;
}

/* Busy-waits `cycles` SM clock cycles in one thread. */
__global__ void spin_kernel(long long cycles)
{
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

int query_info(int dev, sl_gpu_info *info, sl_err *err)
{
    cudaDeviceProp p;
    memset(info, 0, sizeof *info);
    H_CHECK(cudaGetDeviceProperties(&p, dev));
    info->device = dev;
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->sm_count = p.multiProcessorCount;
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    H_CHECK(cudaDeviceGetAttribute(&info->clock_khz, cudaDevAttrClockRate, dev));
    H_CHECK(cudaDeviceGetAttribute(&info->mem_clock_khz, cudaDevAttrMemoryClockRate, dev));
    info->mem_bus_bits = p.memoryBusWidth;
    info->l2_bytes = (size_t)p.l2CacheSize;
    info->global_mem_bytes = p.totalGlobalMem;
    H_CHECK(cudaDriverGetVersion(&info->driver_version));
    H_CHECK(cudaRuntimeGetVersion(&info->runtime_version));
    return 0;
}

/* A device's facts do not change while the process runs: each device is asked once (a study
 * opens a context per input, and cudaGetDeviceProperties is not cheap). */
#define SL_INFO_CACHE 16
pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;
sl_gpu_info info_cache[SL_INFO_CACHE];
int info_cached[SL_INFO_CACHE];

int fill_info(int dev, sl_gpu_info *info, sl_err *err)
{
    if (dev < 0 || dev >= SL_INFO_CACHE) return query_info(dev, info, err);
    pthread_mutex_lock(&info_lock);
    int rc = 0;
    if (!info_cached[dev]) {
        rc = query_info(dev, &info_cache[dev], err);
        info_cached[dev] = rc == 0;
    }
    if (rc == 0) *info = info_cache[dev];
    pthread_mutex_unlock(&info_lock);
    return rc;
}

int device_index(void)
{
    const char *s = getenv("SUMLAB_GPU_DEVICE");
    return (s && *s) ? atoi(s) : 0;
}

} // namespace

extern "C" {

int sl_gpu_compiled(void) { return 1; }

int sl_gpu_device_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

int sl_gpu_available(sl_gpu_info *info, sl_err *why)
{
    sl_gpu_info tmp;
    if (!info) info = &tmp;
    const char *no = getenv("SUMLAB_NO_GPU");
    if (no && *no && strcmp(no, "0") != 0) {
        sl_err_set(why, "no GPU: SUMLAB_NO_GPU=%s in the environment", no);
        return 0;
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        sl_err_set(why, "no GPU: cudaGetDeviceCount failed: %s (%s)", cudaGetErrorName(e),
                   cudaGetErrorString(e));
        cudaGetLastError(); /* clear the sticky-free error state */
        return 0;
    }
    if (count <= 0) {
        sl_err_set(why, "no GPU: no CUDA device found");
        return 0;
    }
    int dev = device_index();
    if (dev < 0 || dev >= count) {
        sl_err_set(why, "no GPU: SUMLAB_GPU_DEVICE=%d but %d device(s) present", dev, count);
        return 0;
    }
    sl_err e2;
    if (fill_info(dev, info, &e2)) {
        sl_err_set(why, "no GPU: %s", e2.msg);
        return 0;
    }
    return 1;
}

void *sl_gpu_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (sl_gpu_device_count() <= 0) return NULL;
    if (cudaMallocHost(&p, bytes ? bytes : 1) != cudaSuccess) {
        cudaGetLastError();   /* not sticky: clear it */
        return NULL;
    }
    return p;
}

void sl_gpu_host_free(void *p)
{
    if (p) sl_cuda_teardown(cudaFreeHost(p));
}

void sl_gpu_ctx_destroy(sl_gpu_ctx *c)
{
    if (!c) return;
    if (c->stream) sl_cuda_teardown(cudaStreamSynchronize(c->stream));
    sl_cuda_teardown(cudaFree(c->d_alloc));
    if (c->d_yalloc) sl_cuda_teardown(cudaFree(c->d_yalloc));
    sl_cuda_teardown(cudaFree(c->d_work));
    sl_cuda_teardown(cudaFree(c->d_result));
    sl_cuda_teardown(cudaFree(c->d_flush));
    sl_cuda_teardown(cudaFree(c->d_sink));
    if (c->ev0) sl_cuda_teardown(cudaEventDestroy(c->ev0));
    if (c->ev1) sl_cuda_teardown(cudaEventDestroy(c->ev1));
    if (c->stream) sl_cuda_teardown(cudaStreamDestroy(c->stream));
    free(c);
}

/* Two resolved launch configurations ask for the same kernel work (every field). */
static int same_launch(const sl_launch *a, const sl_launch *b)
{
    return a->block == b->block && a->grid == b->grid && a->sm_count == b->sm_count &&
           a->items == b->items && a->addr_mod == b->addr_mod && a->order_seed == b->order_seed &&
           a->ddof == b->ddof && a->accs == b->accs && a->width == b->width;
}

/* The format's full name for messages: float32, float64, float16, bfloat16. */
static const char *fmt_long(sl_dtype dt)
{
    return dt == SL_F64 ? "float64" : dt == SL_F16 ? "float16" : dt == SL_BF16 ? "bfloat16" : "float32";
}

int sl_gpu_check_fits(uint64_t n, sl_dtype dt, sl_err *err)
{
    sl_gpu_info info;
    sl_err why;
    if (!sl_gpu_available(&info, &why)) return sl_err_set(err, "%s", why.msg);
    H_CHECK(cudaSetDevice(info.device));
    size_t free_b = 0, total_b = 0;
    H_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const double need = (double)n * (double)sl_dtype_size(dt) + 64.0;   /* input + padding */
    if (need > (double)free_b)
        return sl_err_set(err, "n = %llu %s values (%.2f GiB) do not fit in the memory of %s "
                               "(%.2f GiB free of %.2f GiB)", (unsigned long long)n,
                          fmt_long(dt), need / 1073741824.0, info.name,
                          (double)free_b / 1073741824.0, (double)total_b / 1073741824.0);
    return 0;
}

static int ctx_init(sl_gpu_ctx *c, const void *x, uint64_t n, sl_dtype dt, uint32_t offset, sl_err *err)
{
    sl_err why;
    if (!sl_gpu_available(&c->info, &why)) return sl_err_set(err, "%s", why.msg);
    H_CHECK(cudaSetDevice(c->info.device));
    c->dt = dt;
    c->n = n;
    c->offset = offset;
    const size_t es = sl_dtype_size(dt);
    const size_t bytes = ((size_t)(n + offset) * es + 15u) / 16u * 16u + 16u;
    if (sl_gpu_check_fits(n, dt, err)) return -1;
    if (cudaMalloc(&c->d_alloc, bytes) != cudaSuccess) {
        cudaGetLastError();   /* not sticky: clear it */
        return sl_err_set(err, "n = %llu %s values (%.2f GiB) cannot be allocated on %s: cudaMalloc "
                               "of %zu bytes failed (out of device memory)", (unsigned long long)n,
                          fmt_long(dt), (double)bytes / 1073741824.0,
                          c->info.name, bytes);
    }
    H_CHECK(cudaMemset(c->d_alloc, 0, bytes));
    c->d_x = (unsigned char *)c->d_alloc + (size_t)offset * es;
    if (n) H_CHECK(cudaMemcpy(c->d_x, x, (size_t)n * es, cudaMemcpyHostToDevice));
    H_CHECK(cudaMalloc(&c->d_result, 16));
    H_CHECK(cudaMemset(c->d_result, 0, 16));
    H_CHECK(cudaMalloc((void **)&c->d_sink, 16));
    H_CHECK(cudaMemset(c->d_sink, 0, 16));
    H_CHECK(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    H_CHECK(cudaEventCreate(&c->ev0));
    H_CHECK(cudaEventCreate(&c->ev1));
    /* The copies and memsets above ran on the legacy stream, which a non-blocking stream does
     * not wait for (a pageable cudaMemcpy may return before its DMA lands): settle them here,
     * or a first kernel on c->stream can read the zeros the upload has not yet replaced. */
    H_CHECK(cudaDeviceSynchronize());
    return 0;
}

int sl_gpu_ctx_create(sl_gpu_ctx **ctx, const void *x, uint64_t n, sl_dtype dt, uint32_t offset,
                      sl_err *err)
{
    *ctx = NULL;
    if (n && !x) return sl_err_set(err, "gpu-harness: no input data");
    sl_gpu_ctx *c = (sl_gpu_ctx *)calloc(1, sizeof *c);
    if (!c) return sl_err_set(err, "gpu-harness: out of memory");
    if (ctx_init(c, x, n, dt, offset, err)) {
        sl_gpu_ctx_destroy(c);
        return -1;
    }
    *ctx = c;
    return 0;
}

int sl_gpu_ctx_set_y(sl_gpu_ctx *c, const void *y, sl_err *err)
{
    if (!c || (c->n && !y)) return sl_err_set(err, "gpu-harness: no second input data");
    if (c->d_y) return sl_err_set(err, "gpu-harness: the second input is already uploaded");
    H_CHECK(cudaSetDevice(c->info.device));
    const size_t es = sl_dtype_size(c->dt);
    const size_t bytes = ((size_t)(c->n + c->offset) * es + 15u) / 16u * 16u + 16u;
    if (sl_gpu_check_fits(c->n, c->dt, err)) return -1;
    if (cudaMalloc(&c->d_yalloc, bytes) != cudaSuccess) {
        cudaGetLastError();   /* not sticky: clear it */
        c->d_yalloc = NULL;
        return sl_err_set(err, "the second input (%zu bytes) cannot be allocated on %s: cudaMalloc "
                               "failed (out of device memory)", bytes, c->info.name);
    }
    H_CHECK(cudaMemset(c->d_yalloc, 0, bytes));
    c->d_y = (unsigned char *)c->d_yalloc + (size_t)c->offset * es;
    if (c->n) H_CHECK(cudaMemcpy(c->d_y, y, (size_t)c->n * es, cudaMemcpyHostToDevice));
    /* legacy-stream memset and copy: settled before a kernel on the non-blocking c->stream reads
     * y (as ctx_init does for x), or a first run can read the memset's zeros */
    H_CHECK(cudaDeviceSynchronize());
    return 0;
}

static int ensure_flush(sl_gpu_ctx *c, sl_err *err)
{
    if (c->d_flush) return 0;
    c->flush_bytes = 2 * (c->info.l2_bytes ? c->info.l2_bytes : ((size_t)64 << 20));
    H_CHECK(cudaMalloc(&c->d_flush, c->flush_bytes));
    H_CHECK(cudaMemset(c->d_flush, 0, c->flush_bytes));
    H_CHECK(cudaDeviceSynchronize());
    return 0;
}

/* Evicts the input from L2 by reading 2 x L2 bytes of another buffer. A read (not a memset):
 * a written flush buffer would leave L2 full of dirty lines whose write-back the next,
 * timed, kernel would pay for (about as many bytes as it reads, for inputs up to L2 size). */
static int flush_l2(sl_gpu_ctx *c, sl_err *err)
{
    const uint64_t nvec = c->flush_bytes / 16u;
    read_ceiling_kernel<<<(unsigned)c->info.sm_count * 8u, 256, 0, c->stream>>>(
        (const uint4 *)c->d_flush, nvec, 0x5eed1e55u, c->d_sink);
    SL_CUDA_CHECK_LAUNCH("read_ceiling_kernel (L2 flush)", "gpu-harness", err);
    return 0;
}

/* Everything enqueued before the start event of a timed run: the flush, then either a spin
 * that keeps the device busy while the host enqueues the timed launches (device time) or a
 * wait until the stream is idle (call time). */
static int before_timed_run(sl_gpu_ctx *c, int flags, sl_err *err)
{
    if ((flags & SL_GPU_FLUSH_L2) && flush_l2(c, err)) return -1;
    if (flags & SL_GPU_CALL_TIME) {
        H_CHECK(cudaStreamSynchronize(c->stream));
        return 0;
    }
    /* 20 us of SM clock cycles (clock_khz cycles per millisecond) */
    long long cycles = (long long)(c->info.clock_khz > 0 ? c->info.clock_khz : 2000000) / 50;
    spin_kernel<<<1, 32, 0, c->stream>>>(cycles);
    SL_CUDA_CHECK_LAUNCH("spin_kernel", "gpu-harness", err);
    return 0;
}

int sl_gpu_ctx_run_n(sl_gpu_ctx *c, const sl_variant *v, uint64_t n, sl_launch *cfg, int reps,
                     int flags, double *results, double *times_ms, sl_err *err)
{
    if (!c || !v || !cfg || reps < 1 || !results || n > c->n)
        return sl_err_set(err, "gpu-harness: bad arguments to sl_gpu_ctx_run");
    if (!(v->gpu || v->gpu2) || !v->workspace)
        return sl_err_set(err, "variant '%s' has no GPU kernel%s", v->name,
                          (v->cpu || v->cpu2) ? " (it runs as a CPU twin only)" : "");
    if (v->gpu2 && !c->d_y)
        return sl_err_set(err, "variant '%s' reads two arrays: no second input uploaded", v->name);
    if (!(v->dtypes & SL_DTYPE_MASK(c->dt)))
        return sl_err_set(err, "variant '%s' does not take %s input", v->name, sl_dtype_name(c->dt));
    if (v->max_n && n > v->max_n)
        return sl_err_set(err, "variant '%s' accepts at most n = %llu (got %llu)", v->name,
                          (unsigned long long)v->max_n, (unsigned long long)n);
    H_CHECK(cudaSetDevice(c->info.device));
    /* resolve: sm_count from the device unless the caller asked for one */
    if (cfg->sm_count == 0) cfg->sm_count = (uint32_t)c->info.sm_count;
    cfg->addr_mod = (uint32_t)((uintptr_t)c->d_x % 256u);
    sl_variant_resolve(v, cfg, n, c->dt);

    size_t ws = v->workspace(v, n, c->dt, cfg);
    if (ws > c->work_bytes) {
        if (c->d_work) H_CHECK(cudaFree(c->d_work));
        c->d_work = NULL;
        c->work_bytes = 0;
        H_CHECK(cudaMalloc(&c->d_work, ws));
        H_CHECK(cudaMemsetAsync(c->d_work, 0, ws, c->stream));
        c->work_bytes = ws;
        c->work_owner = v;
        c->work_cfg = *cfg;
        c->work_n = n;
    }
    /* Variants share the scratch, and one variant's layout depends on its configuration and n
     * (partials of one grid where another grid keeps its counters): a run after another variant
     * (cub's temp storage, say), another configuration or another n gets the whole buffer
     * zeroed, as on a fresh context. Repeated runs keep it: a variant leaves its counters as it
     * found them. */
    if (c->work_owner != v || c->work_n != n || !same_launch(&c->work_cfg, cfg)) {
        /* on c->stream, ordered before the launches (a legacy-stream memset is not) */
        if (c->work_bytes) H_CHECK(cudaMemsetAsync(c->d_work, 0, c->work_bytes, c->stream));
        c->work_owner = v;
        c->work_cfg = *cfg;
        c->work_n = n;
    }
    if ((flags & SL_GPU_FLUSH_L2) && ensure_flush(c, err)) return -1;
    const size_t es = sl_dtype_size(c->dt);
    for (int r = 0; r < reps; r++) {
        /* poison the result so a launcher that writes nothing cannot pass a stale value */
        H_CHECK(cudaMemsetAsync(c->d_result, 0xff, 16, c->stream));
        if (before_timed_run(c, flags, err)) return -1;
        H_CHECK(cudaEventRecord(c->ev0, c->stream));
        if (v->gpu2 ? v->gpu2(v, c->d_x, c->d_y, n, c->dt, cfg, c->d_work, c->work_bytes,
                              c->d_result, c->stream, err)
                    : v->gpu(v, c->d_x, n, c->dt, cfg, c->d_work, c->work_bytes, c->d_result,
                             c->stream, err)) {
            sl_cuda_teardown(cudaStreamSynchronize(c->stream));   /* err says what failed */
            return -1;
        }
        H_CHECK(cudaEventRecord(c->ev1, c->stream));
        cudaError_t e = cudaStreamSynchronize(c->stream);
        if (e != cudaSuccess)
            return sl_err_set(err, "%s: kernel execution failed: %s (%s) at %s:%d (cudaStreamSynchronize)",
                              v->name, cudaGetErrorName(e), cudaGetErrorString(e), __FILE__, __LINE__);
        float ms = 0.0f;
        H_CHECK(cudaEventElapsedTime(&ms, c->ev0, c->ev1));
        unsigned char buf[8];
        H_CHECK(cudaMemcpy(buf, c->d_result, es, cudaMemcpyDeviceToHost));
        if (c->dt == SL_F64) {
            double d;
            memcpy(&d, buf, 8);
            results[r] = d;
        } else if (sl_dtype_is_half(c->dt)) {   /* the 16-bit pattern of the input format */
            uint16_t h;
            memcpy(&h, buf, 2);
            results[r] = sl_half_to_double(h, c->dt);
        } else {
            float f;
            memcpy(&f, buf, 4);
            results[r] = (double)f;
        }
        if (times_ms) times_ms[r] = (double)ms;
    }
    return 0;
}

int sl_gpu_ctx_run(sl_gpu_ctx *c, const sl_variant *v, sl_launch *cfg, int reps, int flags,
                   double *results, double *times_ms, sl_err *err)
{
    if (!c) return sl_err_set(err, "gpu-harness: bad arguments to sl_gpu_ctx_run");
    return sl_gpu_ctx_run_n(c, v, c->n, cfg, reps, flags, results, times_ms, err);
}

int sl_gpu_ctx_read_ceiling(sl_gpu_ctx *c, int reps, int flags, double *times_ms, sl_err *err)
{
    if (!c || reps < 1 || !times_ms) return sl_err_set(err, "gpu-harness: bad arguments to read_ceiling");
    H_CHECK(cudaSetDevice(c->info.device));
    if ((flags & SL_GPU_FLUSH_L2) && ensure_flush(c, err)) return -1;
    /* the whole input, from the 16-byte aligned allocation start */
    const uint64_t bytes = (c->n + c->offset) * sl_dtype_size(c->dt);
    const uint64_t nvec = (bytes + 15u) / 16u;
    const unsigned block = 256;
    uint64_t want = (nvec + block * 4 - 1) / (block * 4);
    uint64_t maxg = (uint64_t)c->info.sm_count * 8u;
    unsigned grid = (unsigned)(want < 1 ? 1 : want > maxg ? maxg : want);
    for (int r = 0; r < reps; r++) {
        if (before_timed_run(c, flags, err)) return -1;
        H_CHECK(cudaEventRecord(c->ev0, c->stream));
        read_ceiling_kernel<<<grid, block, 0, c->stream>>>((const uint4 *)c->d_alloc, nvec,
                                                             0x5eed1e55u, c->d_sink);
        SL_CUDA_CHECK_LAUNCH("read_ceiling_kernel", "gpu-harness", err);
        if (c->d_y) {   /* a two-input operation: the ceiling reads both arrays */
            read_ceiling_kernel<<<grid, block, 0, c->stream>>>((const uint4 *)c->d_yalloc, nvec,
                                                                 0x5eed1e55u, c->d_sink);
            SL_CUDA_CHECK_LAUNCH("read_ceiling_kernel (second input)", "gpu-harness", err);
        }
        H_CHECK(cudaEventRecord(c->ev1, c->stream));
        H_CHECK(cudaStreamSynchronize(c->stream));
        float ms = 0.0f;
        H_CHECK(cudaEventElapsedTime(&ms, c->ev0, c->ev1));
        times_ms[r] = (double)ms;
    }
    return 0;
}

} /* extern "C" */

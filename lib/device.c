/* device.c: libsumlab's device side (sumlab/sumlab.h): a variant's kernel on the caller's device
 * memory and stream, with the library's scratch cached per (device, stream), and a state fed from
 * device memory. Built without CUDA, the calls say so (SUMLAB_EUNSUPPORTED). */
#include <stdlib.h>
#include <string.h>
#include "sl_lib.h"
#include "sl_twin.h"

#ifdef SUMLAB_HAVE_CUDA
#include <pthread.h>
#include <stdatomic.h>
#include <cuda_runtime_api.h>

/* One scratch buffer per (device, stream): zeroed once at allocation (the kernels leave their
 * counters zero when they finish), grown as needed, zeroed again when another variant takes it
 * (another variant's bytes are no counters of this one). At most WORK_MAX of them: a caller that
 * makes a stream per batch would otherwise hold one buffer per stream it ever used; the least
 * recently used one goes (after its device has finished its work) when a new one is needed. */
typedef struct {
    int device;
    void *stream;
    void *d_work;
    size_t bytes;
    const sl_variant *owner;
    int sm_count;
    uint64_t used;     /* the call that last took it, for the eviction */
} work_entry;
#define WORK_MAX 64u

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static work_entry *g_work;
static size_t g_nwork, g_capwork;
static uint64_t g_calls;

/* The least recently used entry's buffer freed and its slot given to (device, stream): its
 * device synchronised first (its stream may still run kernels on it, and may no longer exist to
 * be synchronised alone). NULL when a CUDA call fails (the table unchanged). Under g_lock. */
static work_entry *evict_lru(int device, void *stream)
{
    work_entry *old = &g_work[0];
    for (size_t i = 1; i < g_nwork; i++)
        if (g_work[i].used < old->used) old = &g_work[i];
    if (old->d_work) {
        int cur = -1;
        if (cudaGetDevice(&cur) != cudaSuccess) return NULL;
        const int ok = cudaSetDevice(old->device) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
                       cudaFree(old->d_work) == cudaSuccess;
        const int back = cudaSetDevice(cur) == cudaSuccess;
        if (!ok || !back) {
            (void)cudaGetLastError();
            return NULL;
        }
    }
    memset(old, 0, sizeof *old);
    old->device = device;
    old->stream = stream;
    return old;
}

/* The entry of (device, stream), created when absent (NULL when out of memory or when the
 * eviction's CUDA calls fail). Under g_lock. */
static work_entry *entry_of(int device, void *stream)
{
    g_calls++;
    for (size_t i = 0; i < g_nwork; i++)
        if (g_work[i].device == device && g_work[i].stream == stream) {
            g_work[i].used = g_calls;
            return &g_work[i];
        }
    if (g_nwork >= WORK_MAX) {
        work_entry *e = evict_lru(device, stream);
        if (e) e->used = g_calls;
        return e;
    }
    if (g_nwork == g_capwork) {
        size_t nc = g_capwork ? 2 * g_capwork : 8;
        work_entry *p = realloc(g_work, nc * sizeof *p);
        if (!p) return NULL;
        g_work = p;
        g_capwork = nc;
    }
    work_entry *e = &g_work[g_nwork++];
    memset(e, 0, sizeof *e);
    e->device = device;
    e->stream = stream;
    e->used = g_calls;
    return e;
}

void sumlab_cache_info(size_t *buffers, size_t *bytes, size_t *host_bytes)
{
    if (host_bytes) *host_bytes = sl_tw_cached_bytes();
    size_t nb = 0, sum = 0;
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nwork; i++)
        if (g_work[i].d_work) {
            nb++;
            sum += g_work[i].bytes;
        }
    pthread_mutex_unlock(&g_lock);
    if (buffers) *buffers = nb;
    if (bytes) *bytes = sum;
}

/* Set once a device count has been read (the process's devices do not change after CUDA's
 * initialisation): later calls skip the query. */
static atomic_int g_have_device;

/* The current device, checked usable: SUMLAB_ENOGPU when there is none. */
static sumlab_status current_device(int *device, sl_err *err)
{
    if (!atomic_load_explicit(&g_have_device, memory_order_relaxed)) {
        int count = 0;
        cudaError_t e = cudaGetDeviceCount(&count);
        if (e != cudaSuccess || count < 1) {
            if (e != cudaSuccess) (void)cudaGetLastError();
            return sl_lib_fail(SUMLAB_ENOGPU, err, "device memory given, but no usable GPU (%s)",
                               e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
        }
        atomic_store_explicit(&g_have_device, 1, memory_order_relaxed);
    }
    LIB_CK(cudaGetDevice(device), (void)0);
    return SUMLAB_OK;
}

/* sl_lib.h */
sumlab_status sl_lib_device_ptr(const void *p, int device, const char *what, sl_err *err)
{
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s (%p) is no device memory (%s)", what, p,
                           cudaGetErrorString(e));
    }
    if (a.type == cudaMemoryTypeManaged) return SUMLAB_OK;
    if (a.type != cudaMemoryTypeDevice)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s (%p) is host memory, not device memory "
                           "(sumlab_reduce_host sums host memory)", what, p);
    if (a.device != device)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s (%p) lives on device %d, the current device is %d",
                           what, p, a.device, device);
    return SUMLAB_OK;
}

sumlab_status sumlab_reduce_device(const char *op, const char *variant, const void *d_x,
                                   const void *d_y, uint64_t n, sl_dtype dt,
                                   const sumlab_launch *launch, void *d_result, void *stream,
                                   sl_err *err)
{
    return sumlab_reduce_device_ex(op, NULL, variant, d_x, d_y, n, dt, launch, d_result, stream, err);
}

sumlab_status sumlab_reduce_device_ex(const char *op, const sumlab_params *params, const char *variant,
                                      const void *d_x, const void *d_y, uint64_t n, sl_dtype dt,
                                      const sumlab_launch *launch, void *d_result, void *stream,
                                      sl_err *err)
{
    const sl_operation *o;
    const sl_variant *v;
    sl_op_params pp;
    if (!d_result) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_reduce_device: d_result is NULL");
    sumlab_status st = sl_lib_params(params, &pp, err);
    if (!st) st = sl_lib_check_call(op, variant, d_x, d_y, n, dt, &o, &v, err);
    if (!st) st = sl_lib_launch_check(launch, err);
    if (st) return st;
    if (!sl_variant_has_gpu(v) || !v->workspace)
        return sl_lib_fail(SUMLAB_EUNSUPPORTED, err, "variant '%s' has no GPU kernel in this build%s",
                           v->name, sl_variant_has_cpu(v) || sl_op_is_exact(v) ? " (it runs on host memory: sumlab_reduce_host)" : "");
    int device;
    if ((st = current_device(&device, err))) return st;
    if (n > 0 && (st = sl_lib_device_ptr(d_x, device, "d_x", err))) return st;
    if (n > 0 && d_y && (st = sl_lib_device_ptr(d_y, device, "d_y", err))) return st;
    if ((st = sl_lib_device_ptr(d_result, device, "d_result", err))) return st;

    pthread_mutex_lock(&g_lock);
    work_entry *e = entry_of(device, stream);
    if (!e) {
        const int full = g_nwork >= WORK_MAX;
        pthread_mutex_unlock(&g_lock);
        return sl_lib_fail(full ? SUMLAB_ECUDA : SUMLAB_ENOMEM, err,
                           full ? "freeing the least recently used stream's scratch failed"
                                : "out of memory for the scratch table");
    }
    if (!e->sm_count)
        LIB_CK(cudaDeviceGetAttribute(&e->sm_count, cudaDevAttrMultiProcessorCount, device),
               pthread_mutex_unlock(&g_lock));
    sl_launch cfg;
    sl_lib_launch(launch, &pp, &cfg);
    if (!cfg.sm_count) cfg.sm_count = (uint32_t)e->sm_count;
    cfg.addr_mod = (uint32_t)((uintptr_t)d_x % 256u);
    sl_variant_resolve(v, &cfg, n, dt);
    size_t ws = v->workspace(v, n, dt, &cfg);
    cudaStream_t s = (cudaStream_t)stream;
    if (ws > e->bytes) {
        if (e->d_work) {   /* kernels enqueued before may still use it */
            LIB_CK(cudaStreamSynchronize(s), pthread_mutex_unlock(&g_lock));
            LIB_CK(cudaFree(e->d_work), pthread_mutex_unlock(&g_lock));
        }
        e->d_work = NULL;
        e->bytes = 0;
        e->owner = NULL;
        cudaError_t ce = cudaMalloc(&e->d_work, ws);
        if (ce != cudaSuccess) {
            (void)cudaGetLastError();
            e->d_work = NULL;
            pthread_mutex_unlock(&g_lock);
            return sl_lib_fail(SUMLAB_ENOMEM, err, "%s: cudaMalloc of %zu bytes of scratch failed: %s",
                               v->name, ws, cudaGetErrorString(ce));
        }
        e->bytes = ws;
    }
    if (e->owner != v) {
        if (e->bytes) LIB_CK(cudaMemsetAsync(e->d_work, 0, e->bytes, s), pthread_mutex_unlock(&g_lock));
        e->owner = v;
    }
    sl_err le = {{0}};
    int rc = v->gpu2 ? v->gpu2(v, d_x, d_y, n, dt, &cfg, e->d_work, e->bytes, d_result, stream, &le)
                     : v->gpu(v, d_x, n, dt, &cfg, e->d_work, e->bytes, d_result, stream, &le);
    if (rc) e->owner = NULL;   /* a failed launch may leave counters set: zero before the next */
    pthread_mutex_unlock(&g_lock);
    if (rc) {   /* a CUDA call's failure names its cudaError; otherwise the request was refused */
        if (err) memcpy(err->msg, le.msg, sizeof err->msg);
        if (strstr(le.msg, "cudaErrorMemoryAllocation") || strstr(le.msg, "out of memory"))
            return SUMLAB_ENOMEM;
        return strstr(le.msg, "cudaError") ? SUMLAB_ECUDA : SUMLAB_EINVAL;
    }
    return SUMLAB_OK;
}

void sumlab_release(void)
{
    pthread_mutex_lock(&g_lock);
    int cur = -1;
    int have_cur = cudaGetDevice(&cur) == cudaSuccess;
    for (size_t i = 0; i < g_nwork; i++) {
        if (!g_work[i].d_work) continue;
        if (cudaSetDevice(g_work[i].device) == cudaSuccess) (void)cudaFree(g_work[i].d_work);
    }
    (void)cudaGetLastError();
    if (have_cur) (void)cudaSetDevice(cur);
    free(g_work);
    g_work = NULL;
    g_nwork = g_capwork = 0;
    pthread_mutex_unlock(&g_lock);
    sl_tw_release_caches();
}

#define STATE_PIECE ((uint64_t)1 << 20)
#define STATE_PINNED_MIN ((uint64_t)1 << 16)

sumlab_status sumlab_state_add_device(sumlab_state *s, const void *d_x, uint64_t n, void *stream,
                                      sl_err *err)
{
    if (!s) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_add_device: state is NULL");
    if (n == 0) return SUMLAB_OK;
    if (!d_x) return sl_lib_fail(SUMLAB_EINVAL, err, "%s: d_x is NULL with n = %llu > 0",
                                 s->kind->variant, (unsigned long long)n);
    if (n >= ((uint64_t)1 << 40))
        return sl_lib_fail(SUMLAB_EINVAL, err, "n = %llu is too large (n < 2^40)", (unsigned long long)n);
    const size_t es = sl_dtype_size(s->dt);
    if ((uintptr_t)d_x % es)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: d_x is not aligned to its %zu-byte elements",
                           s->kind->variant, es);
    int device;
    sumlab_status st = current_device(&device, err);
    if (st) return st;
    if ((st = sl_lib_device_ptr(d_x, device, "d_x", err))) return st;
    /* pieces through page-locked memory (at the copy engines' speed); a small input through
     * malloc'ed memory (a page-locked allocation costs more than its copy) */
    const uint64_t piece = n < STATE_PIECE ? n : STATE_PIECE;
    const int pinned = n >= STATE_PINNED_MIN;
    void *h = NULL;
    if (pinned) {
        cudaError_t ce = cudaMallocHost(&h, (size_t)piece * es);
        if (ce != cudaSuccess) {
            (void)cudaGetLastError();
            h = NULL;
        }
    }
    const int own = pinned && h;
    if (!h) h = malloc((size_t)piece * es);
    if (!h) return sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for %zu bytes of staging",
                               (size_t)piece * es);
/* on a failed call's way out: the staging freed, a failure of that free cleared (the call's own
 * error is the one reported) */
#define STATE_FREE_H() (own ? (void)(cudaFreeHost(h) == cudaSuccess || cudaGetLastError()) : free(h))
    cudaStream_t cs = (cudaStream_t)stream;
    for (uint64_t i = 0; i < n && !st; i += piece) {
        const uint64_t m = n - i < piece ? n - i : piece;
        LIB_CK(cudaMemcpyAsync(h, (const char *)d_x + i * es, (size_t)m * es, cudaMemcpyDeviceToHost, cs),
               STATE_FREE_H());
        LIB_CK(cudaStreamSynchronize(cs), STATE_FREE_H());
        st = sl_lib_state_add_host(s, h, m, err);
    }
    if (own) LIB_CK(cudaFreeHost(h), (void)0);
    else free(h);
#undef STATE_FREE_H
    return st;
}

#else /* no CUDA in this build */

sumlab_status sumlab_reduce_device_ex(const char *op, const sumlab_params *params, const char *variant,
                                      const void *d_x, const void *d_y, uint64_t n, sl_dtype dt,
                                      const sumlab_launch *launch, void *d_result, void *stream,
                                      sl_err *err)
{
    (void)launch;
    (void)stream;
    const sl_operation *o;
    const sl_variant *v;
    sl_op_params pp;
    if (!d_result) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_reduce_device: d_result is NULL");
    sumlab_status st = sl_lib_params(params, &pp, err);
    if (st) return st;
    st = sl_lib_check_call(op, variant, d_x, d_y, n, dt, &o, &v, err);
    if (st) return st;
    return sl_lib_fail(SUMLAB_EUNSUPPORTED, err, "libsumlab was built without CUDA: no kernel for '%s'",
                       v->name);
}

sumlab_status sumlab_reduce_device(const char *op, const char *variant, const void *d_x,
                                   const void *d_y, uint64_t n, sl_dtype dt,
                                   const sumlab_launch *launch, void *d_result, void *stream,
                                   sl_err *err)
{
    return sumlab_reduce_device_ex(op, NULL, variant, d_x, d_y, n, dt, launch, d_result, stream, err);
}

void sumlab_release(void) { sl_tw_release_caches(); }

void sumlab_cache_info(size_t *buffers, size_t *bytes, size_t *host_bytes)
{
    if (buffers) *buffers = 0;
    if (bytes) *bytes = 0;
    if (host_bytes) *host_bytes = sl_tw_cached_bytes();
}

sumlab_status sumlab_state_add_device(sumlab_state *s, const void *d_x, uint64_t n, void *stream,
                                      sl_err *err)
{
    (void)d_x;
    (void)n;
    (void)stream;
    if (!s) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_add_device: state is NULL");
    return sl_lib_fail(SUMLAB_EUNSUPPORTED, err, "libsumlab was built without CUDA: no device memory");
}

#endif

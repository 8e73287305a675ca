/* sl_gpu.h: the GPU harness. Finds the device, uploads an input once, runs any variant's
 * launcher R times with device-event timing (optionally flushing L2 between runs), and
 * measures the device's streaming-read ceiling on the same buffer. C-callable; built as
 * stubs that report "built without CUDA" when no CUDA compiler was found. */
#ifndef SL_GPU_H
#define SL_GPU_H
#include "sl_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int device;
    char name[256];
    int sm_count;
    int cc_major, cc_minor;
    int clock_khz;             /* SM clock */
    int mem_clock_khz;
    int mem_bus_bits;
    size_t l2_bytes;
    size_t global_mem_bytes;
    int driver_version;        /* e.g. 13000 */
    int runtime_version;
} sl_gpu_info;

int sl_gpu_compiled(void);     /* 1 when the GPU kernels were built */
/* 1 when a usable GPU is present (info filled), 0 when none (why says so: no CUDA build,
 * no device, driver error). Never exits. SUMLAB_NO_GPU=1 in the environment forces 0. */
int sl_gpu_available(sl_gpu_info *info, sl_err *why);

/* CUDA devices visible to this process (0 without a CUDA build, a device or a driver; no
 * SUMLAB_* variable consulted): how MPI ranks pick theirs (local rank modulo this). */
int sl_gpu_device_count(void);

/* 0 when n values of dt fit in the free memory of the device, else -1 with one line naming
 * the size, the device and its memory (no allocation is tried). */
int sl_gpu_check_fits(uint64_t n, sl_dtype dt, sl_err *err);
typedef struct sl_gpu_ctx sl_gpu_ctx;
/* Uploads x (n values of dt) to a fresh device allocation at element offset `offset`
 * (offset 1 makes the input misaligned by one element). An input larger than the device's free
 * memory is refused before anything is read (sl_gpu_check_fits's message). */
int sl_gpu_ctx_create(sl_gpu_ctx **ctx, const void *x, uint64_t n, sl_dtype dt,
                      uint32_t offset, sl_err *err);
void sl_gpu_ctx_destroy(sl_gpu_ctx *ctx);
/* Two-input operations (dot): uploads y (the context's n values of its dt) as the second input, at
 * the same element offset as x (so both share one alignment). Two-input variants (v->gpu2) run on
 * x and y; the read ceiling then reads both arrays. 0, or -1 with err. */
int sl_gpu_ctx_set_y(sl_gpu_ctx *ctx, const void *y, sl_err *err);
/* Page-locked host memory (cudaMallocHost): uploads from it run at the copy engines' speed,
 * without the driver's staging of pageable memory. NULL when there is no GPU or the call fails
 * (the caller then uses malloc; the cause is cleared, not sticky). */
void *sl_gpu_host_alloc(size_t bytes);
void sl_gpu_host_free(void *p);   /* p from sl_gpu_host_alloc (NULL: nothing) */
/* Timing flags of sl_gpu_ctx_run / sl_gpu_ctx_read_ceiling (0: no flush, device time).
 * SL_GPU_FLUSH_L2: before each run, read a buffer of twice the L2 size (the input leaves L2,
 *   which is left holding clean lines: no write-back of a flush buffer lands in the timed run).
 * SL_GPU_CALL_TIME: the stream is idle at the start event, so the time includes the host
 *   cost of enqueuing every kernel the launcher issues: the latency of one isolated call.
 *   Without it (device time) a ~20 us spin kernel precedes the start event, so the launches
 *   are queued and the time is the device's execution of them (with the gaps between them). */
#define SL_GPU_FLUSH_L2 1
#define SL_GPU_CALL_TIME 2

/* Runs v `reps` times on the uploaded input. cfg is resolved in place (sm_count from the
 * device, addr_mod from the device pointer) so the caller can hand it to the twin.
 * results[r]: the r-th result (a float32 result as the double holding it).
 * times_ms[r] (may be NULL): device-event time of the launcher call alone.
 * flags: SL_GPU_FLUSH_L2 | SL_GPU_CALL_TIME, or 0. */
int sl_gpu_ctx_run(sl_gpu_ctx *ctx, const sl_variant *v, sl_launch *cfg, int reps,
                   int flags, double *results, double *times_ms, sl_err *err);
/* The same on the first n (1 <= n <= the uploaded count) values of the input, e.g. a warm-up
 * run on a prefix. */
int sl_gpu_ctx_run_n(sl_gpu_ctx *ctx, const sl_variant *v, uint64_t n, sl_launch *cfg, int reps,
                     int flags, double *results, double *times_ms, sl_err *err);
/* Streaming-read ceiling: a kernel that reads the whole input with 16-byte loads and does
 * minimal work; times_ms[r] per run (flags as for sl_gpu_ctx_run). */
int sl_gpu_ctx_read_ceiling(sl_gpu_ctx *ctx, int reps, int flags, double *times_ms,
                            sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

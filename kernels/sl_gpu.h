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

typedef struct sl_gpu_ctx sl_gpu_ctx;
/* Uploads x (n values of dt) to a fresh device allocation at element offset `offset`
 * (offset 1 makes the input misaligned by one element). */
int sl_gpu_ctx_create(sl_gpu_ctx **ctx, const void *x, uint64_t n, sl_dtype dt,
                      uint32_t offset, sl_err *err);
void sl_gpu_ctx_destroy(sl_gpu_ctx *ctx);
/* Runs v `reps` times on the uploaded input. cfg is resolved in place (sm_count from the
 * device, addr_mod from the device pointer) so the caller can hand it to the twin.
 * results[r]: the r-th result (a float32 result as the double holding it).
 * times_ms[r] (may be NULL): device-event time of the launcher call alone.
 * flush_l2: overwrite a buffer twice the L2 size before each timed run. */
int sl_gpu_ctx_run(sl_gpu_ctx *ctx, const sl_variant *v, sl_launch *cfg, int reps,
                   int flush_l2, double *results, double *times_ms, sl_err *err);
/* Streaming-read ceiling: a kernel that reads the whole input with 16-byte loads and does
 * minimal work; times_ms[r] per run (L2 flushed between runs when flush_l2). */
int sl_gpu_ctx_read_ceiling(sl_gpu_ctx *ctx, int reps, int flush_l2, double *times_ms,
                            sl_err *err);

#ifdef __cplusplus
}
#endif
#endif

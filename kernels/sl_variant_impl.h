/* sl_variant_impl.h: the entry points each variant file pair provides (internal to kernels/).
 * For variant NAME (dashes become underscores): sl_NAME_resolve / _depth / _cpu in NAME.c
 * (or a family's .c), sl_NAME_workspace / _gpu in the family's .cu. */
#ifndef SL_VARIANT_IMPL_H
#define SL_VARIANT_IMPL_H
#include "sl_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SL_DECLARE_CPU(id)                                                                  \
    void sl_##id##_resolve(sl_launch *cfg, uint64_t n, sl_dtype dt);                        \
    double sl_##id##_depth(uint64_t n, sl_dtype dt, const sl_launch *cfg);                  \
    int sl_##id##_cpu(const void *x, uint64_t n, sl_dtype dt, const sl_launch *cfg,         \
                      double *result, sl_err *err);
#define SL_DECLARE_GPU(id)                                                                  \
    size_t sl_##id##_workspace(uint64_t n, sl_dtype dt, const sl_launch *cfg);              \
    int sl_##id##_gpu(const void *d_x, uint64_t n, sl_dtype dt, const sl_launch *cfg,       \
                      void *d_work, size_t work_bytes, void *d_result, void *stream,        \
                      sl_err *err);

/* The optimisation ladder (ladder.c / ladder.cu) */
SL_DECLARE_CPU(atomic_thread)    SL_DECLARE_GPU(atomic_thread)
SL_DECLARE_CPU(smem_interleaved) SL_DECLARE_GPU(smem_interleaved)
SL_DECLARE_CPU(smem_sequential)  SL_DECLARE_GPU(smem_sequential)
SL_DECLARE_CPU(two_load)         SL_DECLARE_GPU(two_load)
SL_DECLARE_CPU(warp_shuffle)     SL_DECLARE_GPU(warp_shuffle)
SL_DECLARE_CPU(grid_stride)      SL_DECLARE_GPU(grid_stride)
SL_DECLARE_CPU(vec4)             SL_DECLARE_GPU(vec4)
/* The accuracy variants */
SL_DECLARE_CPU(serial)           SL_DECLARE_GPU(serial)
SL_DECLARE_CPU(pairwise)
SL_DECLARE_CPU(atomic_block)     SL_DECLARE_GPU(atomic_block)
SL_DECLARE_CPU(kahan)            SL_DECLARE_GPU(kahan)
SL_DECLARE_CPU(fp64_acc)         SL_DECLARE_GPU(fp64_acc)
SL_DECLARE_CPU(multipass)        SL_DECLARE_GPU(multipass)
/* Beyond: correctly rounded, order-independent (superacc.c / superacc.cu) */
SL_DECLARE_CPU(superacc)         SL_DECLARE_GPU(superacc)
/* The anchor (no twin: CUB's order is its own) */
void sl_cub_resolve(sl_launch *cfg, uint64_t n, sl_dtype dt);
double sl_cub_depth(uint64_t n, sl_dtype dt, const sl_launch *cfg);
SL_DECLARE_GPU(cub)

/* Shared helpers for twins: set err (printf-style) and return -1. */
int sl_kerr(sl_err *err, const char *fmt, ...);

#ifdef __cplusplus
}
#endif
#endif

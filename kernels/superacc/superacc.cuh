/* superacc.cuh: what the `superacc` kernels share (superacc.cu: float32, float16, bfloat16 and
 * the launcher; superacc64.cu: float64, relocatable device code): the workspace layout, the
 * per-format limb counts, the exact add of a double into the block limbs, the rounding, the
 * barrier. The algorithm is described at the top of superacc.cu. */
#ifndef SL_SUPERACC_CUH
#define SL_SUPERACC_CUH
#include "reduce/reduce.cuh"
#include "superacc/superacc.h"
#include "exact/spill.cuh"

#define SACC_WS_HEADER 16u   /* [0,4): ticket counter; [4,8): flags; [8,12): float64 fallback
                               * flag; [16, ...): L int64 limbs; float64: then the certified
                               * binned sum's workspace (exact/binned_kernel.cuh) */

template <typename T> struct sacc_fmt;
template <> struct sacc_fmt<float> {
    enum { L = SL_SACC_LIMBS_F32, SCALE = SL_SACC_SCALE_F32 };
};
template <> struct sacc_fmt<double> {
    typedef sl_vec<double>::type V;
    enum { VW = sl_vec<double>::W, U = 4, GROUP = 4, L = SL_SACC_LIMBS_F64, SCALE = SL_SACC_SCALE_F64 };
};

/* The once-per-launch rounding, kept out of the kernel body (registers). */
SL_NOINLINE_SHARED double sacc_round_dev(unsigned long long *limbs, int L, sl_dtype dt,
                                  unsigned flags, int rto = 0)
{
    return sl_sacc_round_mode(reinterpret_cast<int64_t *>(limbs), L, 0, dt, flags, rto);
}

/* Every barrier of the kernel is sl_bar_any (reduce/block.cuh): the non-.aligned barrier.sync,
 * which tolerates warps arriving split. __syncthreads is bar.sync, i.e. barrier.sync.aligned:
 * every thread of a warp must execute the same barrier instruction convergently, and this
 * kernel's data-dependent paths (the rare path, spills, the tid == 0 steps) leave that to the
 * compiler; compute-sanitizer's synccheck flagged a divergent barrier on float64 subnormal
 * input even with a __syncwarp in front. */
__device__ __forceinline__ void sacc_barrier() { sl_bar_any::sync(); }

/* The kernels of one format (superacc_f32.cu, superacc_f16.cu, superacc_bf16.cu): enqueue
 * `superacc` on d_x (n elements, head of them before the first 16-byte boundary) with d_work
 * (sl_superacc_workspace bytes, zero as every launch leaves it); return the name of the kernel
 * enqueued, or NULL with err. sl_sacc_bins_bf16_enqueue: bfloat16 through the float32 bins. */
#define SL_SACC_ENQUEUE_FN(name)                                                                    \
    const char *name(const sl_variant *v, const sl_launch *cfg, const void *d_x, uint64_t n,       \
                     uint64_t head, void *d_work, void *d_result, cudaStream_t st, sl_err *err)
SL_SACC_ENQUEUE_FN(sl_sacc_f32_enqueue);
SL_SACC_ENQUEUE_FN(sl_sacc_f16_enqueue);
SL_SACC_ENQUEUE_FN(sl_sacc_bf16_enqueue);
SL_SACC_ENQUEUE_FN(sl_sacc_bins_bf16_enqueue);

/* superacc64.cu: the float64 workspace (the exact kernel's header and limbs, then the certified
 * binned sum's workspace). */
size_t sl_sacc_f64_workspace(void);
/* superacc64.cu: enqueues `superacc` on float64 (the certified binned sum, and the exact kernel
 * only when needed) on d_work (sl_superacc_workspace bytes, zero as every launch leaves it);
 * returns the name of the last kernel enqueued by the host, or NULL with err. */
const char *sl_sacc_f64_enqueue(const sl_variant *v, const sl_launch *cfg, const double *d_x,
                                uint64_t n, uint64_t head, unsigned char *d_work,
                                double *d_result, cudaStream_t st, sl_err *err);
#endif

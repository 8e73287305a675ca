/* superacc64.cu: `superacc` on float64 (step 1b of the algorithm at the top of superacc.cu): the
 * certified binned sum (rs_kernel<double, sacc_cert>, exact/binned_kernel.cuh) and, only when its
 * certificate cannot decide the rounding, the exact kernel (sacc_kernel: a TwoSum expansion per
 * thread, the block superaccumulator, one rounding), tail-launched from the device by the
 * binned kernel's last block. Device-side launches need relocatable device code and the device
 * runtime: this file is the library sumlab_superacc64 (kernels/CMakeLists.txt), compiled with
 * -rdc and device-linked on its own; the other kernels stay whole-program compiled (under -rdc,
 * ptxas gave the 512-thread float32/16-bit bins kernels 36 bytes of spills they do not have
 * otherwise). Twin: superacc.c. */
#include <stdio.h>
#include "superacc/superacc.cuh"
#include "superacc/superacc64.cuh"
#include "exact/binned_kernel.cuh"

/* x: n float64 elements; head as above. Any grid and block (block <= 1024). Barriers: every
 * barrier is reached by all threads of the block (sacc_block_sum's; the ticket's `return` reads
 * shared memory after a barrier: block-uniform, and no thread exits before the last barrier).
 * Every barrier is sacc_barrier (non-.aligned), the ticket's included
 * (sl_ticket_last<sl_bar_any, ...>). */
template <int MAXB>
__global__ void __launch_bounds__(MAXB)
sacc_kernel(const double *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work,
            double *result)
{
    typedef sacc_fmt<double> F;
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags;
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    /* the certified binned sum ran first (and tail-launched this grid, or, measuring, the host
     * launched it behind): nothing to do unless it could not decide (the flag is read by every
     * block before the last one resets it: the reset follows every ticket) */
    if (*(volatile unsigned *)(g_counter + 2) == 0u) return;
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SACC_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x;

    for (unsigned i = tid; i < (unsigned)F::L; i += B) s_acc[i] = 0;
    if (tid == 0) s_flags = 0;
    sacc_barrier();
    sacc_block_sum(x, n, head, blockIdx.x, gridDim.x, tid, B, s_acc, &s_flags);
    /* normalised limbs < 2^32 (top limb signed): G < 2^31 blocks cannot overflow a limb */
    for (unsigned i = tid; i < (unsigned)F::L; i += B)
        if (s_acc[i]) atomicAdd(&g_acc[i], s_acc[i]);
    if (tid == 0 && s_flags) atomicOr(g_flags, s_flags);
    sl_ticket_fence();                              /* limbs visible before the ticket */
    sacc_barrier();
    /* every thread published and fenced: thread 0 takes the ticket without another fence */
    if (!sl_ticket_last<sl_bar_any, false>(g_counter)) return;
    for (unsigned i = tid; i < (unsigned)F::L; i += B) s_acc[i] = atomicExch(&g_acc[i], 0ull);
    sacc_barrier();
    if (tid == 0) {
        const unsigned flags = atomicExch(g_flags, 0u);
        const double r = sacc_round_dev(s_acc, F::L, SL_F64, flags);
        *result = r;                                 /* exact: r holds a double */
        g_counter[2] = 0u;                           /* the fallback flag, for the next launch */
        *g_counter = 0u;
    }
}

/* The certified binned sum's fallback (rs_kernel's P::fail, thread 0 of its last block, when
 * the certificate cannot decide): sets the fallback flag and tail-launches the exact kernel on
 * the same grid (cudaStreamTailLaunch: it starts once the binned grid has finished, its writes
 * visible). When the certificate decides, nothing is launched: no second kernel's cost on the
 * common path (an ordinary second launch that returns at once still costs its launch time).
 * mode & 8 (measuring, SUMLAB_SACC_F64_MODE): the host launches the exact kernel behind every
 * call instead. A failed
 * device-side launch stops the kernel with a message (the host's next check fails): the result
 * is never left looking valid. */
SL_NOINLINE void sacc_tail(const double *x, uint64_t n, uint64_t head, unsigned char *w,
                           double *result, unsigned block, unsigned mode)
{
    *(volatile unsigned *)(w + 8) = 1u;
    if (mode & 8u) return;
    if (block <= 512) sacc_kernel<512><<<gridDim.x, block, 0, cudaStreamTailLaunch>>>(x, n, head, w, result);
    else sacc_kernel<1024><<<gridDim.x, block, 0, cudaStreamTailLaunch>>>(x, n, head, w, result);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("sumlab: superacc (float64): the device-side launch of the exact kernel failed: "
               "%s (%s); no result\n", cudaGetErrorName(e), cudaGetErrorString(e));
        __trap();
    }
}
struct sacc_cert {
    enum { CERT = 1 };
    static __device__ __forceinline__ void fail(const double *x, uint64_t n, uint64_t head,
                                                unsigned char *w, double *result, unsigned block,
                                                unsigned mode)
    {
        sacc_tail(x, n, head, w, result, block, mode);
    }
};

size_t sl_sacc_f64_workspace(void)
{
    return SACC_WS_HEADER + sizeof(int64_t) * (size_t)SL_SACC_LIMBS_F64 + rs_workspace_bytes(SL_F64);
}

/* SUMLAB_SACC_F64_MODE (a CMake option, kernels/README.md), for measuring, the same results:
 * bit 8 has the host launch the exact kernel behind every call (returning at once when the
 * certificate decides) instead of the device's tail launch only when needed; bit 16 rounds the
 * certificate's two ends on one lane instead of two; bit 32 rounds them over limbs (the generic
 * form) instead of in registers. 0, the default: none. */
#ifndef SUMLAB_SACC_F64_MODE
#define SUMLAB_SACC_F64_MODE 0
#endif

const char *sl_sacc_f64_enqueue(const sl_variant *v, const sl_launch *cfg, const double *xd,
                                uint64_t n, uint64_t head, unsigned char *w, double *rd,
                                cudaStream_t st, sl_err *err)
{
    /* step 1: the certified binned sum (blocks of whole warps), which tail-launches step 2,
     * the exact kernel, only when it cannot decide (sacc_tail) */
    const unsigned mode = SUMLAB_SACC_F64_MODE;
    const unsigned rb = (cfg->block + 31u) / 32u * 32u;
    rs_kernel<double, sacc_cert><<<cfg->grid, rb, 0, st>>>(
        xd, n, head, w + SACC_WS_HEADER + sizeof(int64_t) * SL_SACC_LIMBS_F64, rd, w,
        cfg->block, (unsigned)mode);
    if (!(mode & 8)) return "rs_kernel<double, certified>";
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        sl_err_set(err, "%s: launch of rs_kernel<double, certified> failed: %s (%s)", v->name,
                   cudaGetErrorName(e), cudaGetErrorString(e));
        return NULL;
    }
    const int small = cfg->block <= 512;
    if (small) sacc_kernel<512><<<cfg->grid, cfg->block, 0, st>>>(xd, n, head, w, rd);
    else sacc_kernel<1024><<<cfg->grid, cfg->block, 0, st>>>(xd, n, head, w, rd);
    return small ? "sacc_kernel<512>" : "sacc_kernel<1024>";
}

/* superacc_f32.cu: `superacc` on float32: the exponent-bins kernel sacc_bins_kernel, one launch,
 * the exact sum rounded once (determinism class correctly-rounded; twin superacc.c).
 * Assumptions: IEEE binary32 input, binary64 adds rounded to nearest even without FTZ; the
 * float-to-double conversion exact; the layout of exact/limbs.h.
 * Steps (superacc.cu's 1a, 2, 3): each thread adds every input, widened to double, into its bin
 * by exponent (16 bins in shared memory, exact for 2^14 inputs); every SACC_BIN_FLUSH inputs and
 * at the end the block drains the bins into its limbs (sacc_bins_drain); the block's limbs go
 * into the global limbs and the last block rounds (sacc_block_finish, one_launch.cuh).
 */
#include "superacc/one_launch.cuh"   /* exact/bins.cuh: the exponent bins and their drain */

/* The bins kernel's state for sacc_tiles: each vector's lanes into their bins; the flush drains. */
template <typename X> struct sacc_bins_st {
    double *my;
    unsigned long long *s_acc;
    unsigned B, mask, flags, sg;
    __device__ __forceinline__ void take(const typename sl_vec<X>::type &r, bool)
    {
#pragma unroll
        for (int k = 0; k < sl_vec<X>::W; k++) sacc_bin_take(sl_vec_lane(r, k), my, B, sg);
    }
    __device__ __forceinline__ void flush() { flags |= sacc_bins_drain(my, B, mask, s_acc); }
};

/* x: n float32 (or float16/bfloat16: X) elements; head: elements before the first 16-byte boundary (done one by one, as
 * is the tail after the last whole vector). Any grid, any block <= 1024; dynamic shared
 * memory: SACC_NBIN * blockDim doubles. Barriers: every sacc_barrier is reached by all threads
 * of the block (the tile loop's trip count, the drain and normalisation schedules and the
 * drain's tree depend on blockIdx, gridDim, blockDim and n only). */
template <typename X, int MAXB>
__global__ void __launch_bounds__(MAXB, MAXB <= 512 ? SACC_BINS_PER_SM : 1)
sacc_bins_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work,
                 X *result)
{
    typedef sacc_fmt<float> F;
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W, EPT = SACC_BIN_U * W };  /* elements per vector, per tile */
    extern __shared__ double s_bin[];
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags;
    const unsigned tid = threadIdx.x, B = blockDim.x;
    double *my = s_bin + tid;
    const unsigned wbase = tid & ~31u;
    const unsigned mask = B - wbase >= 32u ? 0xffffffffu : (1u << (B - wbase)) - 1u;
    for (int j = 0; j < SACC_NBIN; j++) my[j * B] = 0.0;
    sacc_block_init(s_acc, F::L, &s_flags);
    sacc_barrier();

    unsigned flags = 0u, sg = 0xffffffffu;
    const uint64_t nv = (n - head) / W;              /* whole vectors after the head */
    sl_for_edges<W>(n, head, nv, B, [&](uint64_t i) { sacc_bin_take(x[i], my, B, sg); });

    sacc_bins_st<X> st = {my, s_acc, B, mask, flags, sg};
    /* <= 8192 + 1 inputs per bin between drains */
    sacc_tiles<SACC_BIN_U, W>(reinterpret_cast<const V *>(x + head), nv, SACC_BIN_FLUSH / EPT, st, s_acc);
    flags = st.flags;
    sg = st.sg;
    flags |= sacc_bins_drain(my, B, mask, s_acc);
    sacc_block_finish<X>(flags, sg, s_acc, &s_flags, work, result);
}

/* Enqueues the bins kernel for input format X and blocks up to MAXB (opting into its dynamic
 * shared memory above 48 KB once per instantiation and device); returns its name, or NULL with err. */
template <typename X, int MAXB>
static const char *sacc_bins_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                     uint64_t n, uint64_t head, void *d_work, void *d_result,
                                     cudaStream_t st, sl_err *err)
{
    const size_t smem = sizeof(double) * SACC_NBIN * (size_t)cfg->block;
    static std::atomic<size_t> opted[SL_SMEM_DEVICES];   /* per device (reduce/launch.cuh) */
    const cudaError_t e = sl_smem_opt_in(sacc_bins_kernel<X, MAXB>, smem, sizeof(double) * SACC_NBIN * MAXB, opted);
    if (e != cudaSuccess) {
        sl_err_set(err, "%s: CUDA call 'cudaFuncSetAttribute(sacc_bins_kernel, "
                   "MaxDynamicSharedMemorySize)' failed: %s (%s)", v->name,
                   cudaGetErrorName(e), cudaGetErrorString(e));
        return NULL;
    }
    sacc_bins_kernel<X, MAXB><<<cfg->grid, cfg->block, smem, st>>>((const X *)d_x, n, head,
                                                                  (unsigned char *)d_work, (X *)d_result);
    return sizeof(X) == 2 ? "sacc_bins_kernel<16-bit>" : "sacc_bins_kernel<float>";
}

/* The bins kernel's instantiation for cfg->block: up to 512 threads the one built for
 * SACC_BINS_PER_SM blocks per SM (registers capped), else the one for 1024. */
template <typename X>
static const char *sacc_bins_launch(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                    uint64_t n, uint64_t head, void *d_work, void *d_result,
                                    cudaStream_t st, sl_err *err)
{
    if (cfg->block <= 512)
        return sacc_bins_enqueue<X, 512>(v, cfg, d_x, n, head, d_work, d_result, st, err);
    return sacc_bins_enqueue<X, 1024>(v, cfg, d_x, n, head, d_work, d_result, st, err);
}

const char *sl_sacc_f32_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                uint64_t n, uint64_t head, void *d_work, void *d_result,
                                cudaStream_t st, sl_err *err)
{
    return sacc_bins_launch<float>(v, cfg, d_x, n, head, d_work, d_result, st, err);
}

#if SUMLAB_SACC_BF16_BINS   /* a CMake option (kernels/README.md): bfloat16 through the float32 bins */
const char *sl_sacc_bins_bf16_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                uint64_t n, uint64_t head, void *d_work, void *d_result,
                                cudaStream_t st, sl_err *err)
{
    return sacc_bins_launch<__nv_bfloat16>(v, cfg, d_x, n, head, d_work, d_result, st, err);
}
#endif

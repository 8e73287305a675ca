/* superacc_bf16.cu: `superacc` on bfloat16: the integer-bins kernel sacc_b_kernel, one launch,
 * the exact sum rounded once to bfloat16 (determinism class correctly-rounded; twin superacc.c).
 * Assumptions: IEEE-style bfloat16 input (the high half of a binary32), binary32 FMA rounded to
 * nearest even without FTZ (exact here: superacc.h's sl_sacc_b16_f); the layout of
 * exact/limbs.h; rounding to odd in float32 then to nearest even in bfloat16 is correct rounding.
 * Steps (superacc.cu's 1d, 2, 3): each value's integer in its bin's units (one FFMA) goes into
 * its int32 bin by a shared atomic add (32 bins per thread, exact for 2^16 inputs); every
 * SACC_B_FLUSH inputs and at the end a warp empties its bins into the block limbs
 * (sacc_b_flush); Inf and NaN, detected by a product turning non-finite, set the flags by a
 * rescan (sacc_b_rescan); the last block rounds (sacc_block_finish). */
#include "superacc/one_launch.cuh"

/* ---- bfloat16: integer bins (step 1d) ---------------------------------------------------- */
#define SACC_B_NBIN 32
#define SACC_B_FLUSH 16384u      /* inputs per thread between bin flushes (capacity: 2^16) */
#define SACC_B_U 4               /* 16-byte loads per thread per tile: 32 inputs */
#define SACC_B_LANES 256u        /* threads per bin row: bin j of thread t at
                                  * s_bb[(t >> 8) * 8192 + j * 256 + (t & 255)], so bin j lies
                                  * j * 1024 bytes above the thread's bin 0 */
/* One bfloat16 value into its bin: u its float32 bits (low half zero), off the byte offset of
 * its bin (j * 1024, j = E >> 3 for the biased exponent E), sc = SL_SACC_B16_SC (a kernel
 * argument: see sacc_b_kernel). The value's integer k in its bin's units comes from
 * sl_sacc_b16_f (superacc/superacc.h: the exactness argument, checked on every bfloat16 pattern in
 * tests/tsuperacc.c); an Inf or NaN input (E = 255, bin 31) makes f non-finite and its bits
 * garbage; f also goes into the product sp, which then turns non-finite (every finite f lies in
 * (2^15, 2^16): sp stays finite for n < 2^40), and the thread rescans its inputs for the flags
 * (sacc_b_rescan): the garbage never reaches a result, since the rounding returns NaN or Inf on
 * those flags. */
__device__ __forceinline__ float sacc_b_k(unsigned u, unsigned my, unsigned off, unsigned sc)
{
    const float f = sl_sacc_b16_f(u, sc);
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(my + off),
                 "r"(__float_as_uint(f) - SL_SACC_B16_MAGIC_BITS) : "memory");
    return f;
}

/* The two values of a word w (low half first); sp takes the product of their f. */
__device__ __forceinline__ void sacc_b_take2(unsigned w, unsigned my, unsigned sc, float &sp,
                                             unsigned &sg)
{
    sg &= w;
    const float flo = sacc_b_k(w << 16, my, w & 0x7C00u, sc);
    const float fhi = sacc_b_k(w & 0xffff0000u, my, (w >> 16) & 0x7C00u, sc);
    sp = __fmaf_rn(flo, fhi, sp);
}

/* Warp-collective (every thread of the block at the same point): each warp adds its lanes'
 * bins into the block limbs and zeroes them: a bin zero in every lane is skipped; each other bin's
 * high and low 16 bits are reduced separately, exactly, below 2^21 each, and lane j adds bin j's
 * sum (the 32 bins' shared atomics go out together; lane 0 adds those of the lanes a partial
 * warp lacks). mask: the warp's threads. */
__device__ __noinline__ void sacc_b_flush(unsigned my, unsigned mask, unsigned long long *s_acc)
{
    const unsigned lane = threadIdx.x & 31u, nact = __popc(mask);
    long long mine = 0;
    for (int j = 0; j < SACC_B_NBIN; j++) {
        const unsigned a = my + (unsigned)j * 1024u;
        int v;
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
        if (!__any_sync(mask, v != 0)) continue;    /* warp-uniform */
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(0u) : "memory");
        const int hi = __reduce_add_sync(mask, v >> 16);                /* |.| < 2^20 */
        const unsigned lo = __reduce_add_sync(mask, (unsigned)v & 0xffffu); /* < 2^21 */
        const long long w = (long long)hi * 65536 + (long long)lo;
        if (lane == (unsigned)j) mine = w;
        else if (lane == 0u && (unsigned)j >= nact) sacc_spill_i64(w, 8 * j + 15, s_acc);
    }
    sacc_spill_i64(mine, 8 * (int)lane + 15, s_acc);
}

/* The flag of one bfloat16 pattern h: NaN, +Inf or -Inf (exponent field 255), else 0. */
__device__ __forceinline__ unsigned sacc_b_flag(unsigned h)
{
    if ((h & 0x7f80u) != 0x7f80u) return 0u;
    return (h & 0x7fu) ? SL_SACC_NAN : (h >> 15) ? SL_SACC_NINF : SL_SACC_PINF;
}

/* The flags of this thread's inputs (only when sp turned non-finite): the same elements the
 * kernel gave it (the edges, then its vectors tile by tile as sacc_tiles deals them), read
 * again. */
__device__ __noinline__ unsigned sacc_b_rescan(const unsigned short *x, uint64_t n, uint64_t head,
                                               uint64_t nv)
{
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    unsigned flags = 0u;
    sl_for_edges<8>(n, head, nv, B, [&](uint64_t i) { flags |= sacc_b_flag(x[i]); });
    const uint64_t per_tile = (uint64_t)B * SACC_B_U;
    for (uint64_t tile = blockIdx.x; tile * per_tile < nv; tile += G)
        for (int u = 0; u < SACC_B_U; u++) {
            const uint64_t v = tile * per_tile + tid + (uint64_t)u * B;
            if (v >= nv) continue;
            for (int k = 0; k < 8; k++) flags |= sacc_b_flag(x[head + v * 8 + (uint64_t)k]);
        }
    return flags;
}

/* The bfloat16 kernel's state for sacc_tiles: each word's two values into their bins; the
 * flush empties the warp's bins into the block limbs. */
struct sacc_b_st {
    unsigned my, sc, mask;
    unsigned long long *s_acc;
    float sp;
    unsigned sg;
    __device__ __forceinline__ void take(const sl_b8 &r, bool)
    {
        sacc_b_take2(r.u.x, my, sc, sp, sg);
        sacc_b_take2(r.u.y, my, sc, sp, sg);
        sacc_b_take2(r.u.z, my, sc, sp, sg);
        sacc_b_take2(r.u.w, my, sc, sp, sg);
    }
    __device__ __forceinline__ void flush() { sacc_b_flush(my, mask, s_acc); }
};

/* x: n bfloat16 elements; head as for the bins kernel. Dynamic shared memory: 32 KB per 256
 * threads (SACC_B_LANES) of the block, then the block limbs and flags. Per input: ~5 integer
 * ops, one FFMA and one 4-byte shared atomic add (the float32 bins move 16 bytes per input
 * through shared memory and run at the shared-memory bandwidth). The add is red.shared.add (no
 * result, no dependency between a thread's inputs), faster than a shared load, add and store;
 * wide data (log-uniform over 2^-120..2^120) runs slower with both, as if the shared-memory
 * path paid for the spread of a warp's 32 addresses over the bins' rows (BENCHMARKS.md). sc: the
 * constant SL_SACC_B16_SC (a kernel argument, so that the compiler keeps it in a register and
 * fuses the scale's AND and XOR into one LOP3).
 * Barriers: only the normalisation schedule's and sacc_block_finish's, both block-uniform; the
 * flushes are warp-collective at block-uniform points. */
template <int MAXB>
__global__ void __launch_bounds__(MAXB, MAXB <= 512 ? SACC_BINS_PER_SM : 1)
sacc_b_kernel(const __nv_bfloat16 *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work,
              __nv_bfloat16 *result, unsigned sc)
{
    typedef sacc_fmt<float> F;
    enum { W = 8 };
    extern __shared__ unsigned s_bb[];
    const unsigned tid = threadIdx.x, B = blockDim.x;
    const unsigned rows = (B + SACC_B_LANES - 1u) / SACC_B_LANES;
    unsigned long long *s_acc = reinterpret_cast<unsigned long long *>(s_bb + rows * (SACC_B_NBIN * SACC_B_LANES));
    unsigned *s_flags = reinterpret_cast<unsigned *>(s_acc + F::L);
    const unsigned my = (unsigned)__cvta_generic_to_shared(
        s_bb + (tid >> 8) * (SACC_B_NBIN * SACC_B_LANES) + (tid & (SACC_B_LANES - 1u)));
    for (int j = 0; j < SACC_B_NBIN; j++)
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(my + (unsigned)j * 1024u), "r"(0u) : "memory");
    sacc_block_init(s_acc, F::L, s_flags);
    const unsigned wbase = tid & ~31u;
    const unsigned mask = B - wbase >= 32u ? 0xffffffffu : (1u << (B - wbase)) - 1u;
    sacc_barrier();

    float sp = 0.0f;
    unsigned sg = 0xffffffffu;
    const unsigned short *xs = reinterpret_cast<const unsigned short *>(x);
    const uint64_t nv = (n - head) / W;
    /* the edges; the capture list in this order keeps the PTX of the hand-written loop */
    sl_for_edges<W>(n, head, nv, B, [&sg, &sp, xs, my, sc](uint64_t i) {
        const unsigned u = (unsigned)xs[i] << 16;
        sg &= u | 0xffffu;
        const float f = sacc_b_k(u, my, (u >> 16) & 0x7C00u, sc);
        sp = __fmaf_rn(f, f, sp);
    });
    sacc_b_st st = {my, sc, mask, s_acc, sp, sg};
    /* <= 16384 + 1 inputs per bin between flushes */
    sacc_tiles<SACC_B_U, W>(reinterpret_cast<const sl_b8 *>(x + head), nv, SACC_B_FLUSH / (SACC_B_U * W), st, s_acc);
    sp = st.sp;
    sg = st.sg;
    sacc_b_flush(my, mask, s_acc);
    const unsigned flags = isfinite(sp) ? 0u : sacc_b_rescan(xs, n, head, nv);
    /* bit 31 of sg & sg << 16: every input's sign bit (both halves of every word) */
    sacc_block_finish<__nv_bfloat16>(flags, sg & (sg << 16), s_acc, s_flags, work, result);
}

/* Enqueues the bfloat16 integer-bins kernel for blocks up to MAXB (32 KB of dynamic shared
 * memory per 256 threads, opted into above 48 KB once per instantiation). */
template <int MAXB>
static const char *sacc_b_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                  uint64_t n, uint64_t head, void *d_work, void *d_result,
                                  cudaStream_t st, sl_err *err)
{
    const size_t row = sizeof(unsigned) * SACC_B_NBIN * SACC_B_LANES;
    const size_t tail = sizeof(unsigned long long) * SL_SACC_LIMBS_F32 + 16u;
    const size_t smem = row * ((cfg->block + SACC_B_LANES - 1u) / SACC_B_LANES) + tail;
    static std::atomic<size_t> opted[SL_SMEM_DEVICES];   /* per device (reduce/launch.cuh) */
    const size_t most = row * ((MAXB + SACC_B_LANES - 1u) / SACC_B_LANES) + tail;
    const cudaError_t e = sl_smem_opt_in(sacc_b_kernel<MAXB>, smem, most, opted);
    if (e != cudaSuccess) {
        sl_err_set(err, "%s: CUDA call 'cudaFuncSetAttribute(sacc_b_kernel, "
                   "MaxDynamicSharedMemorySize)' failed: %s (%s)", v->name,
                   cudaGetErrorName(e), cudaGetErrorString(e));
        return NULL;
    }
    sacc_b_kernel<MAXB><<<cfg->grid, cfg->block, smem, st>>>((const __nv_bfloat16 *)d_x, n, head,
                                                            (unsigned char *)d_work,
                                                            (__nv_bfloat16 *)d_result, SL_SACC_B16_SC);
    return "sacc_b_kernel";
}

const char *sl_sacc_bf16_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                 uint64_t n, uint64_t head, void *d_work, void *d_result,
                                 cudaStream_t st, sl_err *err)
{
#if SUMLAB_SACC_BF16_BINS   /* a CMake option (kernels/README.md): the float32 bins, for measuring */
    return sl_sacc_bins_bf16_enqueue(v, cfg, d_x, n, head, d_work, d_result, st, err);
#else
    if (cfg->block <= 512) return sacc_b_enqueue<512>(v, cfg, d_x, n, head, d_work, d_result, st, err);
    return sacc_b_enqueue<1024>(v, cfg, d_x, n, head, d_work, d_result, st, err);
#endif
}

/* superacc.cu: the `superacc` variant's launcher (checks, the empty sum, the workspace, then the
 * kernels of the format: superacc_f32.cu, superacc_f16.cu, superacc_bf16.cu, superacc64.cu) and
 * the algorithm they share. Correctly rounded, order-independent sum (determinism
 * class correctly-rounded). float32: every input reaches an exact integer superaccumulator
 * (layout and rounding in exact/limbs.h) through exponent bins; float64: a certified binned sum,
 * with the exact superaccumulator as fallback when it cannot decide the rounding. The result is
 * the exact sum rounded once, so it does not depend on the order of the inputs, the grid, the
 * block or the SM count. Twin: superacc.c (the exact superaccumulator).
 *
 * Floating-point assumptions: IEEE binary64 adds rounded to nearest even with subnormals
 * (-ftz=false), no contraction (--fmad=false; the only multiplies are by powers of two), no reassociation
 * (nvcc never reassociates); two's-complement 64-bit integers.
 *
 * Algorithm (float32: one launch; float64: one, and a second, steps 2-3, only when needed):
 *  1a. float32, per thread: exponent bins. Every input x goes, converted exactly to double,
 *     into one of 16 per-thread double accumulators ("bins") in shared memory, chosen by its
 *     biased exponent E >> 4. Bin j holds integer multiples of 2^(max(16j,1) - 150) (the ulp of
 *     its smallest exponent) and each input is below 2^39 of those units, so 2^14 inputs sum
 *     exactly in a double; a thread empties its bins into the block superaccumulator every
 *     SACC_BIN_FLUSH (8192) inputs and at the end. Cost per input: 3 integer ops, one exact
 *     float-to-double conversion, one shared load, add and store: the same on every input
 *     (narrow, full-range, subnormal, ill-conditioned). Inf and NaN (E = 255) land in bin 15,
 *     whose double add then follows IEEE's rules for them (+Inf with -Inf gives NaN): a
 *     non-finite bin at a flush becomes a flag, with no test on the per-input path
 *     (superacc_f32.cu). bfloat16 took this path on its inputs widened to float32; it now takes
 *     1d, faster (the float32 bins stay behind the build option SUMLAB_SACC_BF16_BINS).
 *  1d. bfloat16, per thread: integer bins. 32 int32 bins in shared memory by E >> 3 (E the
 *     biased exponent), bin j in units of 2^(8j - 134): a value is below 2^15 units, so 2^16
 *     inputs sum exactly; one FFMA per value gives its integer (sacc_b_k), one shared atomic
 *     add (no result) puts it in its bin, a warp empties its bins into the block limbs every
 *     SACC_B_FLUSH inputs. Inf and NaN are found by a product that turns non-finite, and a
 *     rescan of the thread's inputs then sets the flags (superacc_bf16.cu).
 *  1c. float16, per thread: register sums. A finite float16 is an integer multiple of 2^-24
 *     below 2^16, so 2^13 of them add exactly in a double: two double registers per thread, no
 *     bins, emptied into the block superaccumulator every SACC_H_FLUSH inputs, a warp at a time
 *     (sacc_h_flush_warp). Each value's double is built from its 16 bits with integer operations
 *     (sacc_h_take8i; zero, subnormal, Inf and NaN lanes take the conversion instructions):
 *     faster than a float-to-double conversion per value with the thread-by-thread flush (the
 *     build option SUMLAB_SACC_F16_CONV) and than the bins (superacc_f16.cu).
 *  1b. float64. First the certified binned sum (exact/binned_kernel.cuh, rs_kernel with sacc_cert):
 *     the `reproducible` accumulation with 4 folds instead of 3 (4-fold binned accumulation,
 *     per-thread index adaptation, exact integer merge), whose last block bounds what the folds
 *     dropped (under one unit of the lowest fold per input) and rounds both ends of that
 *     interval: when they agree, that is the correctly rounded sum (sl_rsum_state_certify_f64) and
 *     nothing else is launched; when they do not (exact cancellation far above the survivors,
 *     ties on coarse grids), it sets the fallback flag and tail-launches the exact kernel (CUDA
 *     dynamic parallelism: cudaStreamTailLaunch runs it after the binned grid; superacc64.cu is
 *     compiled as relocatable device code for it), which sums exactly: each input v with
 *     |v| < 2^950 goes into a 3-term floating-point expansion a + b + c through a chain of three
 *     TwoSums (error-free), a non-zero leftover into the block's superaccumulator, NaN, Inf and
 *     float64 >= 2^950 take a rare path (flags; huge values straight into the
 *     superaccumulator). Steps 2-3 below are the exact kernel's and the float32 kernel's.
 *  2. Each thread adds its bins (float32) or a, b, c (float64) exactly into the block
 *     superaccumulator (int64 limbs of 32-bit chunks, shared-memory 64-bit atomicAdd; carries
 *     deferred, normalised every 2^29 block elements and at the end). The block then adds its
 *     normalised limbs (lower limbs in [0, 2^32)) into the global limbs with integer
 *     atomicAdd; flags are ORed.
 *  3. The last block (arrival ticket) takes the global limbs (atomicExch leaves them zero for
 *     the next launch), rounds once and resets the ticket counter: float32 limbs (float32 and
 *     16-bit input) in thread 0's registers (sl_sacc_round_f32_regs, superacc.h), float64 by
 *     the generic sl_sacc_round.
 * Performance considerations: the float32 bins cost ~8 issued instructions per input, no
 * data-dependent branch; bins live at s_bin[j * blockDim + tid] (stride blockDim: a warp's 32
 * doubles fall in distinct bank pairs whatever bins its lanes pick, so no bank conflicts), 128
 * bytes of shared memory per thread (dynamic shared memory, opted in above 48 KB per block).
 * The float64 expansion on converted float32 inputs (an earlier float32 path) was bound by the
 * FP64 pipe (~19 adds per input) and spilled nearly every input of full-range data into
 * contended shared-memory atomics; as the whole float64 path it was slow on full-range data
 * too. The certified binned sum costs ~10 float64 adds per input, like `reproducible`. The
 * exact launch: two instantiations by maximum block size (512, 1024) keep its loop state out of
 * local memory (one instantiation for every block size spilled the tile loop's counters).
 * Measured speeds: BENCHMARKS.md. */
#include "superacc/superacc.cuh"

/* ---- launcher: checks, the empty sum, then the kernel of the format ------------------------- */
extern "C" size_t sl_superacc_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                        const sl_launch *cfg)
{
    (void)v; (void)n; (void)cfg;
    if (dt == SL_F64) return sl_sacc_f64_workspace();
    return SACC_WS_HEADER + sizeof(int64_t) * (size_t)sl_sacc_limbs(dt);
}

/* Enqueues the kernel for dt; returns its name for the launch check, or NULL with err when the
 * dynamic shared memory of the float32 bins cannot be opted into. */
static const char *sacc_launch(const sl_variant *v, const sl_launch *cfg, sl_dtype dt,
                               const void *d_x, uint64_t n, uint64_t head, void *d_work,
                               void *d_result, cudaStream_t st, sl_err *err)
{
    if (dt == SL_F64) {
        return sl_sacc_f64_enqueue(v, cfg, (const double *)d_x, n, head, (unsigned char *)d_work,
                                   (double *)d_result, st, err);
    }
    if (dt == SL_F16) return sl_sacc_f16_enqueue(v, cfg, d_x, n, head, d_work, d_result, st, err);
    if (dt == SL_BF16) return sl_sacc_bf16_enqueue(v, cfg, d_x, n, head, d_work, d_result, st, err);
    return sl_sacc_f32_enqueue(v, cfg, d_x, n, head, d_work, d_result, st, err);
}

extern "C" int sl_superacc_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                               const sl_launch *cfg, void *d_work, size_t work_bytes,
                               void *d_result, void *stream, sl_err *err)
{
    cudaStream_t st = (cudaStream_t)stream;
    uint64_t head = 0;
    const int go = sl_launch_prologue(v, d_x, n, dt, cfg, 1u, SL_SACC_MAX_N, d_work, work_bytes,
                                      sl_superacc_workspace(v, n, dt, cfg), d_result, st, &head, err);
    if (go <= 0) return go;
    const char *what = sacc_launch(v, cfg, dt, d_x, n, head, d_work, d_result, st, err);
    if (!what) return -1;
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

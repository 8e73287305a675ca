/* cub.c: the descriptors, resolve() and depth() of the anchor rows (kernels in cub.cu): plain C,
 * so a build without CUDA lists `cub` too. `cub`: the legacy cub::DeviceReduce::Sum, determinism
 * run-to-run. With CCCL >= 3.3 (SUMLAB_HAVE_CCCL_TIERS) also CUB's determinism tiers:
 * `cub-gpu-to-gpu` (RFA: binned, 3 folds; registered order-independent, the class the RFA
 * promises; the determinism tests check it) and `cub-not-guaranteed` (atomics:
 * nondeterministic). CUB's order is its own, so none has a twin. */
#include <stddef.h>
#include "sl_variant_impl.h"

/* CUB chooses its own launch: the fields stay 0. */
static void cub_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)n; (void)dt;
    cfg->block = 0;
    cfg->grid = 0;
    cfg->items = 0;
}

/* CUB's order is unknown: the worst case, one chain of n - 1 adds. */
static double cub_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)dt; (void)cfg;
    return n ? (double)(n - 1) : 0.0;
}

/* On float16/bfloat16 input CUB accumulates in the input format (cub.cu: its accumulator type
 * is that of output + input, __half + __half = __half): acc_input. */
const sl_variant sl_v_cub = {
    .name = "cub", .op = "sum", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cub::DeviceReduce::Sum on the same buffer (GPU only: its order is CUB's own; "
                   "on f16/bf16 input CUB's accumulator is the input type, __half/__nv_bfloat16)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE, .impl = 0, .acc_input = 1,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};

#ifdef SUMLAB_HAVE_CCCL_TIERS
/* CUB's RFA (cub/detail/rfa.cuh): ReproducibleFloatingAccumulator<T, 3>, bins of T (bin width
 * 40 bits for double, 13 for float, as ReproBLAS): the binned bound with K = 3 folds. */
static double cub_rfa_folds(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt; (void)cfg;
    return 3.0;
}

const sl_variant sl_v_cub_gpu_to_gpu = {
    .name = "cub-gpu-to-gpu", .op = "sum", .family = "anchor", .determinism = SL_DET_ORDER_INDEPENDENT,
    .description = "cub::DeviceReduce::Sum with cuda::execution::determinism::gpu_to_gpu (CCCL "
                   "RFA, 3-fold binned; GPU only)",
    .dtypes = SL_DTYPES_BOTH, .bound = SL_BOUND_BINNED, .impl = 1,
    .resolve = cub_resolve, .depth = cub_rfa_folds, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};

const sl_variant sl_v_cub_not_guaranteed = {
    .name = "cub-not-guaranteed", .op = "sum", .family = "anchor", .determinism = SL_DET_NONDETERMINISTIC,
    .description = "cub::DeviceReduce::Sum with cuda::execution::determinism::not_guaranteed "
                   "(atomics; GPU only)",
    .dtypes = SL_DTYPES_BOTH, .bound = SL_BOUND_RECURSIVE, .impl = 2,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};
#endif

/* float16/bfloat16 input summed by CUB with a float32 accumulator: TransformReduce widening each
 * value (exact) into a float output, rounded once to the input format. */
const sl_variant sl_v_cub_f32acc = {
    .name = "cub-f32acc", .op = "sum", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cub::DeviceReduce::TransformReduce of f16/bf16 input widened to float, float "
                   "accumulator and output, rounded once to the input format (GPU only)",
    .dtypes = SL_DTYPES_HALF, .bound = SL_BOUND_RECURSIVE, .impl = 3,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};

/* The moment anchors (cub.cu): what a CUDA programmer writes with CUB, on the same buffer.
 * mean: TransformReduce widening to the accumulator (float for float32 and 16-bit input), / n;
 * var/std: one TransformReduce of the pairs (x, x^2), then the textbook formula (its bound model);
 * max/min: DeviceReduce::Max/Min (CUB's comparison and identity). */
const sl_variant sl_v_cub_mean = {
    .name = "cub", .op = "mean", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cub::DeviceReduce::TransformReduce (x widened to the accumulator, plus) / n on the same "
                   "buffer (GPU only)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE, .impl = 4,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};
const sl_variant sl_v_cub_var = {
    .name = "cub", .op = "var", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cub::DeviceReduce::TransformReduce of the pairs (x, x^2), then (S2 - S1^2/n)/(n - ddof): "
                   "the textbook one pass in CUB (GPU only)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_VAR_TEXTBOOK, .impl = 5,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};
const sl_variant sl_v_cub_std = {
    .name = "cub", .op = "std", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "the square root of cub's textbook variance (GPU only)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_VAR_TEXTBOOK, .impl = 6,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};
const sl_variant sl_v_cub_max = {
    .name = "cub", .op = "max", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cub::DeviceReduce::Max on the same buffer (CUB's comparison: NaN and -0 as it orders "
                   "them; GPU only)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_EXACT, .impl = 7,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};
const sl_variant sl_v_cub_min = {
    .name = "cub", .op = "min", .family = "anchor", .determinism = SL_DET_RUN_TO_RUN,
    .description = "cub::DeviceReduce::Min on the same buffer (CUB's comparison; GPU only)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_EXACT, .impl = 8,
    .resolve = cub_resolve, .depth = cub_depth, .cpu = NULL,
    .workspace = SL_GPU_ENTRY(sl_cub_workspace), .gpu = SL_GPU_ENTRY(sl_cub_gpu),
};

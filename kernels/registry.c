/* registry.c: the one table of summation variants (pointers to the descriptors each family's
 * file defines), and the lookups and checked wrappers over it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"

/* The one list of variants, in the order every listing and results file shows them. Each
 * sl_v_<id> is a descriptor defined by its family's file (the file named beside it). Adding a
 * variant: its descriptor (and twin/kernel) in a family file pair, and one line here. */
#define SL_VARIANT_LIST(X)                                                                  \
    X(atomic_thread)    /* ladder.c */                                                      \
    X(smem_interleaved) /* ladder.c */                                                      \
    X(smem_sequential)  /* ladder.c */                                                      \
    X(two_load)         /* ladder.c */                                                      \
    X(warp_shuffle)     /* ladder.c */                                                      \
    X(grid_stride)      /* ladder.c */                                                      \
    X(vec4)             /* ladder.c */                                                      \
    X(half_acc)         /* ladder.c: vec4 accumulating in float16/bfloat16 */               \
    X(smem_strided)     /* ladder2.c: text 2 v1 */                                          \
    X(warp_unrolled)    /* ladder2.c: text 2 v4 */                                          \
    X(full_unroll)      /* ladder2.c: text 2 v5 */                                          \
    X(multi_load)       /* ladder2.c: text 2 v6 */                                          \
    X(packed)           /* ladder2.c: text 2 v8 (OneFlow) */                                \
    X(block_reduce)     /* ladder2.c: text 2 BlockReduceSum (PyTorch) */                    \
    X(serial)           /* accuracy.c */                                                    \
    X(pairwise)         /* accuracy.c */                                                    \
    X(atomic_block)     /* accuracy.c */                                                    \
    X(kahan)            /* accuracy.c */                                                    \
    X(fp64_acc)         /* accuracy.c */                                                    \
    X(multipass)        /* accuracy.c */                                                    \
    X(superacc)         /* superacc.c */                                                    \
    X(reproducible)     /* reproducible.c */                                                \
    X(cub)              /* cub.c */                                                         \
    SL_CUB_TIERS(X)     /* cub.c: cub-gpu-to-gpu, cub-not-guaranteed (CCCL >= 3.3 only) */ \
    X(cub_f32acc)       /* cub.c: float16/bfloat16 input, float32 accumulator */            \
    X(cub_mean)         /* cub.c: the moment anchors (TransformReduce, Max, Min) */          \
    X(cub_var)                                                                              \
    X(cub_std)                                                                              \
    X(cub_max)                                                                              \
    X(cub_min)                                                                              \
    X(exact)            /* below */                                                         \
    /* mean, var, std, max, min: their exact rows (below) */                               \
    X(mean_exact)                                                                           \
    X(var_exact)                                                                            \
    X(std_exact)                                                                            \
    X(max_exact)                                                                            \
    X(min_exact)                                                                            \
    X(lse_exact)        /* below: lse's exact row */                                        \
    /* moments.c: mean, var, std (one twin and kernel; var and std share the algorithms) */ \
    X(mean_naive)                                                                           \
    X(mean_f64_acc)                                                                         \
    X(var_textbook)                                                                         \
    X(var_shifted)                                                                          \
    X(var_two_pass)                                                                         \
    X(var_corrected)                                                                        \
    X(var_textbook_f64)                                                                     \
    X(var_two_pass_f64)                                                                     \
    X(var_shifted_f64)                                                                      \
    X(var_corrected_f64)                                                                    \
    X(var_half_acc)                                                                         \
    X(std_textbook)                                                                         \
    X(std_shifted)                                                                          \
    X(std_two_pass)                                                                         \
    X(std_corrected)                                                                        \
    X(std_textbook_f64)                                                                     \
    X(std_two_pass_f64)                                                                     \
    X(std_shifted_f64)                                                                      \
    X(std_corrected_f64)                                                                    \
    X(std_half_acc)                                                                         \
    /* welford/welford.c: Welford updates, Chan's merge */                                 \
    X(welford_mean)                                                                         \
    X(welford_var)                                                                          \
    X(welford_std)                                                                          \
    X(welford_ln_var)                                                                       \
    X(welford_ln_std)                                                                       \
    X(welford_f64_var)                                                                      \
    X(welford_f64_std)                                                                      \
    /* extrema/extrema.c: max/min, and the fused sum/sum-of-squares/max read */            \
    X(max_block_reduce)                                                                     \
    X(min_block_reduce)                                                                     \
    X(max_zero_fill)                                                                        \
    X(min_zero_fill)                                                                        \
    X(max_fmax)                                                                             \
    X(min_fmin)                                                                             \
    X(fused_mean)                                                                           \
    X(fused_var)                                                                            \
    X(fused_std)                                                                            \
    X(fused_max)                                                                            \
    /* moments_exact/moments_exact.c: correctly rounded and reproducible mean, var, std */ \
    X(mean_correct)                                                                         \
    X(var_correct)                                                                          \
    X(std_correct)                                                                          \
    X(mean_reproducible)                                                                    \
    X(var_reproducible)                                                                     \
    X(std_reproducible)                                                                     \
    /* lse/lse.c: log-sum-exp */                                                            \
    X(lse_naive)                                                                            \
    X(lse_two_pass)                                                                         \
    X(lse_online)                                                                           \
    X(lse_f64_acc)                                                                          \
    X(lse_compensated)                                                                      \
    X(lse_half_acc)                                                                         \
    /* lse/lse.c: log-sum-exp, accurate and reproducible */                                 \
    X(lse_accurate)                                                                         \
    X(lse_reproducible)                                                                     \
    /* norm/norm.c: the Euclidean norm norm2 (its exact row below) */                      \
    X(norm2_exact)                                                                          \
    X(norm2_naive)                                                                          \
    X(norm2_f64_acc)                                                                        \
    X(norm2_half_acc)                                                                       \
    X(norm2_scaled)                                                                         \
    X(norm2_reproducible)                                                                   \
    X(norm2_correct)                                                                        \
    X(norm2_cublas)     /* cublas/cublas.c: the cuBLAS nrm2 anchor (GPU only) */     \
    /* rows/rows.c: row-wise reductions (a block per row, fixed tree) */                    \
    X(block_row)                                                                            \
    /* dot/dot.c: two inputs (dot's exact row below) */                                    \
    X(dot_exact)                                                                            \
    X(dot_naive)                                                                            \
    X(dot_f64_acc)                                                                          \
    X(dot_kahan)                                                                            \
    X(dot_dot2)                                                                             \
    X(dot_correct)                                                                          \
    X(dot_reproducible)                                                                     \
    X(dot_half_acc)                                                                         \
    X(dot_cublas)       /* dot/cublas.c: the cuBLAS anchor (GPU only) */

/* CUB's determinism tiers exist only when built against CCCL >= 3.3 (kernels/CMakeLists.txt);
 * without it the two rows are absent, not stubs. */
#ifdef SUMLAB_HAVE_CCCL_TIERS
#define SL_CUB_TIERS(X) X(cub_gpu_to_gpu) X(cub_not_guaranteed)
#else
#define SL_CUB_TIERS(X)
#endif

#define SL_DECLARE_VARIANT(id) extern const sl_variant sl_v_##id;
SL_VARIANT_LIST(SL_DECLARE_VARIANT)
#define SL_VARIANT_ENTRY(id) &sl_v_##id,
static const sl_variant *const variants[] = {SL_VARIANT_LIST(SL_VARIANT_ENTRY)};

/* `exact` has no kernel and no twin in kernels/: reference/ computes it (it judges the rest). */
const sl_variant sl_v_exact = {
    .name = "exact",
    .op = "sum", .family = "reference",
    .determinism = SL_DET_CORRECTLY_ROUNDED,
    .description = "the exact sum correctly rounded to the input format (reference/, checked "
                   "against mpfr_sum)",
    .dtypes = SL_DTYPES_ALL,
    .bound = SL_BOUND_CORRECTLY_ROUNDED,
};

/* The exact rows of mean, var, std, max and min (reference/sl_moments.c computes them). */
#define SL_MOMENT_EXACT(id, opname, what, bnd)                                                  \
    const sl_variant sl_v_##id = {                                                          \
        .name = "exact",                                                                    \
        .op = opname, .family = "reference",                                                \
        .determinism = SL_DET_CORRECTLY_ROUNDED,                                            \
        .description = what,                                                                \
        .dtypes = SL_DTYPES_ALL,                                                            \
        .bound = bnd,                                                                       \
    };
SL_MOMENT_EXACT(mean_exact, "mean", "the exact sum divided by n, rounded once to the input format "
                "(reference/)", SL_BOUND_CORRECTLY_ROUNDED)
SL_MOMENT_EXACT(var_exact, "var", "(n sum x^2 - (sum x)^2) / (n (n - ddof)) from exact sums, rounded "
                "once to the input format (reference/, checked against GMP rationals)",
                SL_BOUND_CORRECTLY_ROUNDED)
SL_MOMENT_EXACT(std_exact, "std", "the square root of the exact variance, rounded once to the input "
                "format (reference/)", SL_BOUND_CORRECTLY_ROUNDED)
SL_MOMENT_EXACT(max_exact, "max", "the largest value (IEEE 754-2019 maximum; reference/)", SL_BOUND_EXACT)
SL_MOMENT_EXACT(min_exact, "min", "the smallest value (IEEE 754-2019 minimum; reference/)", SL_BOUND_EXACT)

/* lse's exact row (reference/sl_lse.c computes it). */
const sl_variant sl_v_lse_exact = {
    .name = "exact",
    .op = "lse", .family = "reference",
    .determinism = SL_DET_CORRECTLY_ROUNDED,
    .description = "log(sum exp(x)) correctly rounded to the input format (reference/sl_lse.c: "
                   "certified double and extended-precision paths, then Ziv's strategy on MPFR)",
    .dtypes = SL_DTYPES_ALL,
    .bound = SL_BOUND_CORRECTLY_ROUNDED,
};

/* norm2's exact row (reference/sl_norm.c computes it). */
const sl_variant sl_v_norm2_exact = {
    .name = "exact",
    .op = "norm2", .family = "reference",
    .determinism = SL_DET_CORRECTLY_ROUNDED,
    .description = "sqrt(sum x^2) with exact squares and sum, rounded once to the input format "
                   "(reference/sl_norm.c, checked against MPFR)",
    .dtypes = SL_DTYPES_ALL,
    .bound = SL_BOUND_CORRECTLY_ROUNDED,
};

/* dot's exact row (reference/sl_dot.c computes it). */
const sl_variant sl_v_dot_exact = {
    .name = "exact",
    .op = "dot", .family = "reference",
    .determinism = SL_DET_CORRECTLY_ROUNDED,
    .description = "sum x_i y_i with exact products, correctly rounded to the input format "
                   "(reference/sl_dot.c, checked against MPFR)",
    .dtypes = SL_DTYPES_ALL,
    .bound = SL_BOUND_CORRECTLY_ROUNDED,
};

sl_dtype sl_variant_acc(const sl_variant *v, sl_dtype dt)
{
    if (v->acc_wide) return SL_F64;
    return v->acc_input ? dt : sl_dtype_acc(dt);
}

size_t sl_variant_count(void) { return sizeof variants / sizeof variants[0]; }

const sl_variant *sl_variant_at(size_t i) { return i < sl_variant_count() ? variants[i] : NULL; }

const sl_variant *sl_variant_find_op(const char *op, const char *name)
{
    for (size_t i = 0; name && i < sl_variant_count(); i++)
        if (!strcmp(variants[i]->name, name) && (!op || !strcmp(variants[i]->op, op)))
            return variants[i];
    return NULL;
}

const sl_variant *sl_variant_find(const char *name) { return sl_variant_find_op(NULL, name); }

const char *sl_determinism_name(sl_determinism d)
{
    switch (d) {
    case SL_DET_NONDETERMINISTIC: return "nondeterministic";
    case SL_DET_RUN_TO_RUN: return "run-to-run";
    case SL_DET_CONFIG_INDEPENDENT: return "config-independent";
    case SL_DET_ORDER_INDEPENDENT: return "order-independent";
    case SL_DET_CORRECTLY_ROUNDED: return "correctly-rounded";
    }
    return "unknown";
}

int sl_variant_parse_list(const char *list, const sl_variant **out, size_t max, size_t *count,
                          sl_err *err)
{
    return sl_variant_parse_list_op(NULL, list, out, max, count, err);
}

int sl_variant_parse_list_op(const char *op, const char *list, const sl_variant **out, size_t max,
                             size_t *count, sl_err *err)
{
    *count = 0;
    if (!list || !*list) return sl_err_set(err, "empty variant list");
    if (!strcmp(list, "all")) {
        for (size_t i = 0; i < sl_variant_count(); i++) {
            if (op && strcmp(variants[i]->op, op)) continue;
            if (*count >= max) return sl_err_set(err, "too many variants (at most %zu)", max);
            out[(*count)++] = variants[i];
        }
        return 0;
    }
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[64];
        if (len == 0 || len >= sizeof name)
            return sl_err_set(err, "malformed variant list '%s'", list);
        memcpy(name, p, len);
        name[len] = '\0';
        const sl_variant *v = sl_variant_find_op(op, name);
        if (!v && op && (v = sl_variant_find(name)))
            return sl_err_set(err, "variant '%s' computes %s, not %s (see 'sumlab list variants "
                              "--op %s')", name, v->op, op, op);
        if (!v)
            return sl_err_set(err, "unknown variant '%s'%s%s (see 'sumlab list variants%s%s')", name,
                              op ? " of " : "", op ? op : "", op ? " --op " : "", op ? op : "");
        for (size_t i = 0; i < *count; i++)
            if (out[i] == v) return sl_err_set(err, "variant '%s' named twice", name);
        if (*count >= max) return sl_err_set(err, "too many variants (at most %zu)", max);
        out[(*count)++] = v;
        p += len;
        if (*p == ',') {
            p++;
            if (!*p) return sl_err_set(err, "malformed variant list '%s'", list);
        }
    }
    return 0;
}

void sl_variant_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    if (cfg->sm_count == 0) cfg->sm_count = SL_DEFAULT_SM_COUNT;
    if (v->resolve) v->resolve(v, cfg, n, dt);
}

double sl_variant_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return v->depth ? v->depth(v, n, dt, cfg) : (double)n;
}

size_t sl_variant_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return v->workspace ? v->workspace(v, n, dt, cfg) : 0;
}

int sl_variant_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                   const sl_launch *cfg, double *result, sl_err *err)
{
    if (!v->cpu)
        return sl_err_set(err, "variant '%s' has no CPU twin%s", v->name,
                          v->gpu ? " (it runs on the GPU only)" : "");
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "variant '%s' does not take %s input", v->name, sl_dtype_name(dt));
    if (v->max_n && n > v->max_n)
        return sl_err_set(err, "variant '%s' accepts at most n = %llu (got %llu)", v->name,
                          (unsigned long long)v->max_n, (unsigned long long)n);
    return v->cpu(v, x, n, dt, cfg, result, err);
}

/* Two-input operations (dot): the twin over an inputs array, and what a variant has. */
int sl_variant_has_cpu(const sl_variant *v) { return v->cpu != NULL || v->cpu2 != NULL; }
int sl_variant_has_gpu(const sl_variant *v) { return v->gpu != NULL || v->gpu2 != NULL; }

int sl_variant_cpu_in(const sl_variant *v, const void *const *xs, uint64_t n, sl_dtype dt,
                      const sl_launch *cfg, double *result, sl_err *err)
{
    if (!v->cpu2) return sl_variant_cpu(v, xs[0], n, dt, cfg, result, err);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "variant '%s' does not take %s input", v->name, sl_dtype_name(dt));
    if (v->max_n && n > v->max_n)
        return sl_err_set(err, "variant '%s' accepts at most n = %llu (got %llu)", v->name,
                          (unsigned long long)v->max_n, (unsigned long long)n);
    if (!xs[1] && n) return sl_err_set(err, "variant '%s' reads two arrays: the second is missing", v->name);
    return v->cpu2(v, xs[0], xs[1], n, dt, cfg, result, err);
}

/* registry.c: the one table of summation variants, and the lookups over it. Adding a
 * variant is one file pair (twin + kernel) and one row here. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"

#ifdef SUMLAB_HAVE_CUDA
#define GPU(id) sl_##id##_workspace, sl_##id##_gpu
#else
#define GPU(id) NULL, NULL
#endif
#define CPU(id) sl_##id##_resolve, sl_##id##_depth, sl_##id##_cpu
#define F32 SL_DTYPE_MASK(SL_F32)
#define BOTH SL_DTYPES_BOTH

static const sl_variant variants[] = {
    /* name, family, determinism, description, dtypes, max_n, bound, acc_wide, ftz_atomics,
       resolve, depth, cpu, workspace, gpu */
    {"atomic-thread", "ladder", SL_DET_NONDETERMINISTIC,
     "V0: every thread atomicAdds its element to one address (commit order is the hardware's)",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 1, CPU(atomic_thread), GPU(atomic_thread)},
    {"smem-interleaved", "ladder", SL_DET_RUN_TO_RUN,
     "V1: shared-memory tree, interleaved addressing (tid % (2*stride)); fixed-order pass over block partials",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(smem_interleaved), GPU(smem_interleaved)},
    {"smem-sequential", "ladder", SL_DET_RUN_TO_RUN,
     "V2: shared-memory tree, sequential addressing (stride halving, contiguous active threads)",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(smem_sequential), GPU(smem_sequential)},
    {"two-load", "ladder", SL_DET_RUN_TO_RUN,
     "V3: each thread adds two elements before the shared-memory tree",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(two_load), GPU(two_load)},
    {"warp-shuffle", "ladder", SL_DET_RUN_TO_RUN,
     "V4: __shfl_down_sync within warps, one shared slot per warp, one barrier",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(warp_shuffle), GPU(warp_shuffle)},
    {"grid-stride", "ladder", SL_DET_RUN_TO_RUN,
     "V5: persistent grid sized from the SM count, per-thread register accumulation",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(grid_stride), GPU(grid_stride)},
    {"vec4", "ladder", SL_DET_RUN_TO_RUN,
     "V6: 16-byte loads (float4/double2), one contiguous range per block, independent accumulators",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(vec4), GPU(vec4)},
    {"serial", "accuracy", SL_DET_CONFIG_INDEPENDENT,
     "one thread in index order: recursive summation, the textbook baseline",
     BOTH, (uint64_t)1 << 26, SL_BOUND_RECURSIVE, 0, 0, CPU(serial), GPU(serial)},
    {"pairwise", "accuracy", SL_DET_CONFIG_INDEPENDENT,
     "balanced binary tree over the inputs (CPU only)",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(pairwise), NULL, NULL},
    {"atomic-block", "accuracy", SL_DET_NONDETERMINISTIC,
     "block tree, then one atomicAdd per block: block sums commit in the hardware's order",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 1, CPU(atomic_block), GPU(atomic_block)},
    {"kahan", "accuracy", SL_DET_RUN_TO_RUN,
     "compensated (Kahan) per thread, compensated (TwoSum) combination through the tree",
     BOTH, 0, SL_BOUND_COMPENSATED, 0, 0, CPU(kahan), GPU(kahan)},
    {"fp64-acc", "accuracy", SL_DET_RUN_TO_RUN,
     "float32 inputs, float64 accumulators everywhere, one rounding at the end",
     F32, 0, SL_BOUND_RECURSIVE, 1, 0, CPU(fp64_acc), GPU(fp64_acc)},
    {"multipass", "accuracy", SL_DET_CONFIG_INDEPENDENT,
     "fixed-size tiles -> partials -> fixed tree over the partials: independent of grid, block and SM count",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, CPU(multipass), GPU(multipass)},
    {"superacc", "accuracy", SL_DET_CORRECTLY_ROUNDED,
     "exact fixed-point superaccumulator (integer limbs), rounded once: correctly rounded, order-independent",
     BOTH, 0, SL_BOUND_CORRECTLY_ROUNDED, 0, 0, CPU(superacc), GPU(superacc)},
    {"cub", "anchor", SL_DET_RUN_TO_RUN,
     "cub::DeviceReduce::Sum on the same buffer (GPU only: its order is CUB's own)",
     BOTH, 0, SL_BOUND_RECURSIVE, 0, 0, sl_cub_resolve, sl_cub_depth, NULL, GPU(cub)},
    {"exact", "reference", SL_DET_CORRECTLY_ROUNDED,
     "the exact sum correctly rounded to the input format (reference/, checked against mpfr_sum)",
     BOTH, 0, SL_BOUND_CORRECTLY_ROUNDED, 0, 0, NULL, NULL, NULL, NULL, NULL},
};

size_t sl_variant_count(void) { return sizeof variants / sizeof variants[0]; }

const sl_variant *sl_variant_at(size_t i) { return i < sl_variant_count() ? &variants[i] : NULL; }

const sl_variant *sl_variant_find(const char *name)
{
    for (size_t i = 0; name && i < sl_variant_count(); i++)
        if (!strcmp(variants[i].name, name)) return &variants[i];
    return NULL;
}

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

int sl_kerr(sl_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_err_vset(err, fmt, ap);
    va_end(ap);
    return -1;
}

int sl_variant_parse_list(const char *list, const sl_variant **out, size_t max, size_t *count,
                          sl_err *err)
{
    *count = 0;
    if (!list || !*list) return sl_kerr(err, "empty variant list");
    if (!strcmp(list, "all")) {
        for (size_t i = 0; i < sl_variant_count(); i++) {
            if (*count >= max) return sl_kerr(err, "too many variants (at most %zu)", max);
            out[(*count)++] = &variants[i];
        }
        return 0;
    }
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[64];
        if (len == 0 || len >= sizeof name)
            return sl_kerr(err, "malformed variant list '%s'", list);
        memcpy(name, p, len);
        name[len] = '\0';
        const sl_variant *v = sl_variant_find(name);
        if (!v) return sl_kerr(err, "unknown variant '%s' (see 'sumlab list variants')", name);
        for (size_t i = 0; i < *count; i++)
            if (out[i] == v) return sl_kerr(err, "variant '%s' named twice", name);
        if (*count >= max) return sl_kerr(err, "too many variants (at most %zu)", max);
        out[(*count)++] = v;
        p += len;
        if (*p == ',') {
            p++;
            if (!*p) return sl_kerr(err, "malformed variant list '%s'", list);
        }
    }
    return 0;
}

void sl_variant_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    if (cfg->sm_count == 0) cfg->sm_count = SL_DEFAULT_SM_COUNT;
    if (v->resolve) v->resolve(cfg, n, dt);
}

double sl_variant_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return v->depth ? v->depth(n, dt, cfg) : (double)n;
}

int sl_variant_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                   const sl_launch *cfg, double *result, sl_err *err)
{
    if (!v->cpu)
        return sl_kerr(err, "variant '%s' has no CPU twin%s", v->name,
                       v->gpu ? " (it runs on the GPU only)" : "");
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_kerr(err, "variant '%s' does not take %s input", v->name, sl_dtype_name(dt));
    if (v->max_n && n > v->max_n)
        return sl_kerr(err, "variant '%s' accepts at most n = %llu (got %llu)", v->name,
                       (unsigned long long)v->max_n, (unsigned long long)n);
    return v->cpu(x, n, dt, cfg, result, err);
}

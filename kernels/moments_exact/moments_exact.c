/* moments_exact.c: descriptors, resolve() and CPU twins of the `correct` mean, var and std
 * (determinism class correctly-rounded): S1 = sum x and S2 = sum x^2 accumulated exactly in
 * integer superaccumulators in one read, the mean, variance or standard deviation rounded once
 * (mx_round.h, the kernel's own code; the kernel's certified pass on float32 and 16-bit input,
 * mx_cert.h, writes the same correctly rounded value or leaves it to the exact kernel; var/std:
 * mx_fast.h's shifted float64 sums certified first, here too; float64 var/std: mx_fast64.h's
 * shifted TwoSum pairs first); and of `reproducible`
 * (order-independent): binned S1 and
 * S2, the textbook formula in float64 on their values. Either result is a function of the
 * multiset of inputs alone, so the twin takes them in index order and equals the kernel
 * (moments_exact.cu) bit for bit for every launch configuration.
 * Assumptions: IEEE 754 binary32/binary64 and round to nearest even; fma() correctly rounded
 * (C99); -ffp-contract=off; two's-complement int64_t. */
#include <stdlib.h>
#include "sl_variant_impl.h"
#include "moments_exact/moments_exact.h"
#include "moments_exact/mx_fast.h"
#include "moments_exact/mx_fast64.h"
#include "sl_twin.h"

#define MX_CHUNK 4096u

/* The twin's state: S1 (exact/limbs.h's layout: float32's for 16-bit input too) with the input
 * flags, and S2. */
typedef struct {
    int64_t s1[SL_SACC_LIMBS_MAX];
    int64_t s2[SL_MX_S2_LIMBS_F64];
    unsigned flags;
    uint64_t since;              /* inputs added since the limbs were last normalised */
} mx_state;

static void mx_state_init(mx_state *st)
{
    memset(st, 0, sizeof *st);
}

/* The finite double d (a multiple of 2^-sc) added exactly into limb. */
static void mx_limbs_add(int64_t *limb, double d, int sc)
{
    int idx, neg;
    uint64_t c[3];
    if (!sl_sacc_split_f64(d, sc, &idx, c, &neg)) return;
    const int64_t sg = -(int64_t)neg;
    for (int j = 0; j < 3; j++) limb[idx + j] += ((int64_t)c[j] ^ sg) - sg;
}

/* m values (doubles holding values of the input format) into st: S1 always, S2 when sq; NaN and
 * Inf set flags only (superacc's rules: SL_SACC_ANYPOS for an input with its sign bit clear). */
static void mx_add_values(mx_state *st, const double *v, uint64_t m, int f64, int sq)
{
    const int L1 = f64 ? SL_SACC_LIMBS_F64 : SL_SACC_LIMBS_F32;
    const int L2 = f64 ? SL_MX_S2_LIMBS_F64 : SL_MX_S2_LIMBS_F32;
    const int sc1 = f64 ? SL_SACC_SCALE_F64 : SL_SACC_SCALE_F32;
    for (uint64_t i = 0; i < m; i++) {
        if (!signbit(v[i])) st->flags |= SL_SACC_ANYPOS;
        if (isnan(v[i])) { st->flags |= SL_SACC_NAN; continue; }
        if (isinf(v[i])) { st->flags |= v[i] > 0 ? SL_SACC_PINF : SL_SACC_NINF; continue; }
        mx_limbs_add(st->s1, v[i], sc1);
        if (sq) {
            double d[2];
            int sc[2];
            const int np = sl_mx_square_parts(v[i], f64, d, sc);
            for (int k = 0; k < np; k++) mx_limbs_add(st->s2, d[k], sc[k]);
        }
        if (++st->since == SL_MX_NORM_EVERY) {   /* <= 2 chunks per limb per input: < 2^62 */
            sl_sacc_normalise(st->s1, L1);
            sl_sacc_normalise(st->s2, L2);
            st->since = 0;
        }
    }
}

/* x[0..n) into st. */
static void mx_state_add(mx_state *st, const void *x, uint64_t n, sl_dtype dt, int sq)
{
    double d[MX_CHUNK];
    for (uint64_t i = 0; i < n; i += MX_CHUNK) {
        const uint64_t m = n - i < MX_CHUNK ? n - i : MX_CHUNK;
        if (dt == SL_F64) {
            mx_add_values(st, (const double *)x + i, m, 1, sq);
            continue;
        }
        for (uint64_t k = 0; k < m; k++) d[k] = sl_tw_load(x, dt, i + k);   /* exact */
        mx_add_values(st, d, m, 0, sq);
    }
}

/* A grid of sm_count x per_sm blocks of cfg->block threads (block_dflt when none is asked for),
 * fewer when n is small (the result does not depend on it). */
static void mx_resolve_grid(sl_launch *cfg, uint64_t n, uint32_t block_dflt, uint32_t per_sm)
{
    if (cfg->sm_count == 0) cfg->sm_count = SL_DEFAULT_SM_COUNT;
    if (cfg->block == 0) cfg->block = block_dflt;
    if (cfg->items == 0) cfg->items = 1;
    const uint64_t need = n ? (n + cfg->block - 1) / cfg->block : 1;
    if (cfg->grid == 0) {
        const uint64_t cap = (uint64_t)cfg->sm_count * per_sm;
        cfg->grid = (uint32_t)(need < cap ? need : cap);
    }
    if (cfg->grid > need) cfg->grid = (uint32_t)need;
}

/* The one-launch kernel's grid: SL_MX_BLOCKS_PER_SM blocks of SL_MX_BLOCK threads an SM; float64
 * var/std: SL_MX_BLOCKS_PER_SM_F64 of SL_MX_BLOCK_F64 (moments_exact.h). */
static void mx_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    if (dt == SL_F64 && v->impl != SL_MX_MEAN)
        mx_resolve_grid(cfg, n, SL_MX_BLOCK_F64, SL_MX_BLOCKS_PER_SM_F64);
    else
        mx_resolve_grid(cfg, n, SL_MX_BLOCK, SL_MX_BLOCKS_PER_SM);
}

static double mx_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt; (void)cfg;
    return 0.0;   /* exact sums, one rounding: the bound is half an ulp */
}

static int mx_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                  const sl_launch *cfg, double *result, sl_err *err)
{
    if (n >= SL_SACC_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name,
                          (unsigned long long)n);
    /* var/std of float32 and 16-bit input: the kernel's order of passes, the cheap certified one
     * first (mx_fast.h); every path gives the correctly rounded value */
    if (v->impl != SL_MX_MEAN && dt != SL_F64 &&
        sl_mxf_certify_host(v->impl, x, n, cfg->ddof, dt, result))
        return 0;
    /* float64: mx_fast64.h's shifted TwoSum pairs first */
    if (v->impl != SL_MX_MEAN && dt == SL_F64 &&
        sl_mxd_certify_host(v->impl, (const double *)x, n, cfg->ddof, result))
        return 0;
    mx_state *st = malloc(sizeof *st);
    if (!st) return sl_err_set(err, "%s: out of memory", v->name);
    mx_state_init(st);
    mx_state_add(st, x, n, dt, v->impl != SL_MX_MEAN);
    const int f64 = dt == SL_F64;
    *result = sl_mx_finish(v->impl, st->s1, sl_sacc_limbs(f64 ? SL_F64 : SL_F32), st->s2,
                           sl_mx_s2_limbs(dt), f64 ? SL_SACC_SCALE_F64 : SL_SACC_SCALE_F32, n,
                           cfg->ddof, st->flags, dt);
    free(st);
    return 0;
}

/* ================================ descriptors =============================================== */
#define MX_COMMON                                                                            \
    .name = "correct", .family = "moments_exact", .determinism = SL_DET_CORRECTLY_ROUNDED,    \
    .dtypes = SL_DTYPES_ALL, .max_n = SL_SACC_MAX_N - 1, .bound = SL_BOUND_CORRECTLY_ROUNDED, \
    .resolve = mx_resolve, .depth = mx_depth, .cpu = mx_cpu,                                 \
    .workspace = SL_GPU_ENTRY(sl_mx_workspace), .gpu = SL_GPU_ENTRY(sl_mx_gpu)

const sl_variant sl_v_mean_correct = {
    .op = "mean", .impl = SL_MX_MEAN, MX_COMMON,
    .description = "correctly rounded: the exact sum (integer superaccumulator, one read) "
                   "divided by n and rounded once; float32/16-bit input: a certified 4-fold "
                   "binned pass first, the exact kernel only when it cannot decide",
};
const sl_variant sl_v_var_correct = {
    .op = "var", .impl = SL_MX_VAR, MX_COMMON,
    .description = "correctly rounded: exact S1 and S2 in one read (exact squares into a second "
                   "superaccumulator), (n S2 - S1^2) / (n (n - ddof)) in integers, rounded once; "
                   "float32/16-bit input: shifted float64 sums in a rigorous error box first, then "
                   "certified 4-fold binned S1 and S2 (float64 bins), the exact kernel only when "
                   "the intervals' ends round apart; float64: shifted sums kept as TwoSum pairs "
                   "in a rigorous error box first, the exact kernel when its ends round apart",
};
const sl_variant sl_v_std_correct = {
    .op = "std", .impl = SL_MX_STD, MX_COMMON,
    .description = "correctly rounded: var's exact rational, its square root by an integer "
                   "square root with remainder, rounded once (certified pass first as var)",
};

/* ================================ reproducible ==============================================
 * Binned S1 and S2 (exact/binned.h, 3 folds of float64 bins): each a function of the multiset of
 * its inputs alone, so the twin takes x in index order into one accumulator pair and equals the
 * kernel for every order, split and launch configuration. */
/* Block SL_MXR_BLOCK, or a smaller requested one (a larger request is taken as SL_MXR_BLOCK: the
 * kernels' launch bound; the result does not depend on it); the grid of
 * mx_resolve_grid (4 blocks an SM) for n / SL_MXR_STEP(dt) values, so that a thread's values go in groups (the
 * vectors of its steps) rather than one by one. */
static void mxr_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v;
    if (cfg->block == 0 || cfg->block > SL_MXR_BLOCK) cfg->block = SL_MXR_BLOCK;
    mx_resolve_grid(cfg, (n + SL_MXR_STEP(dt) - 1) / SL_MXR_STEP(dt), SL_MXR_BLOCK, SL_MX_BLOCKS_PER_SM);
}

/* The binned sums' error (Ahrens, Demmel, Nguyen 2020: n 2^(W(1-K)) max|x| plus half an ulp,
 * W = 40, K = 3) as a chain of k float64 roundings: k u sum|x| >= that when k >= 1 + n 2^-27;
 * S2 has 2n float64 inputs (p and e): k = 4 + n 2^-26 covers both with room. */
static double mxr_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)dt; (void)cfg;
    return 4.0 + (double)n * 0x1p-26;
}

void sl_mxr_states(const void *x, uint64_t n, sl_dtype dt, int sq, sl_rsum_state *st1,
                       sl_rsum_state *st2)
{
    sl_rsum_thr_f64 a1, a2;
    sl_rsum_init_f64(&a1);
    sl_rsum_init_f64(&a2);
    for (uint64_t i = 0; i < n; i++) {
        const double v = sl_tw_load(x, dt, i);
        sl_rsum_take1_f64(&a1, v);
        if (!sq || !isfinite(v)) continue;
        double d[2];
        const int np = sl_mxr_square_parts(v, dt == SL_F64, d);
        for (int k = 0; k < np; k++) sl_rsum_take1_f64(&a2, d[k]);
    }
    sl_rsum_to_state_f64(&a1, st1);
    sl_rsum_to_state_f64(&a2, st2);
}

static int mxr_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                   const sl_launch *cfg, double *result, sl_err *err)
{
    if (n >= SL_RSUM_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name,
                          (unsigned long long)n);
    sl_rsum_state st1, st2;
    sl_mxr_states(x, n, dt, v->impl != SL_MX_MEAN, &st1, &st2);
    *result = sl_mxr_final(v->impl, n, cfg->ddof, &st1, &st2, dt);
    return 0;
}

#define MXR_COMMON                                                                           \
    .name = "reproducible", .family = "moments_exact", .determinism = SL_DET_ORDER_INDEPENDENT, \
    .dtypes = SL_DTYPES_ALL, .max_n = SL_RSUM_MAX_N - 1, .acc_wide = 1,                      \
    .resolve = mxr_resolve, .depth = mxr_depth, .cpu = mxr_cpu,                              \
    .workspace = SL_GPU_ENTRY(sl_mxr_workspace), .gpu = SL_GPU_ENTRY(sl_mxr_gpu)

const sl_variant sl_v_mean_reproducible = {
    .op = "mean", .impl = SL_MX_MEAN, MXR_COMMON, .bound = SL_BOUND_RECURSIVE,
    .description = "order-independent: the binned sum (3 float64 folds) / n, rounded once",
};
const sl_variant sl_v_var_reproducible = {
    .op = "var", .impl = SL_MX_VAR, MXR_COMMON, .bound = SL_BOUND_VAR_TEXTBOOK,
    .description = "order-independent: binned S1 and S2 (exact squares as float64 parts), the "
                   "textbook formula in float64 on their values, rounded once",
};
const sl_variant sl_v_std_reproducible = {
    .op = "std", .impl = SL_MX_STD, MXR_COMMON, .bound = SL_BOUND_VAR_TEXTBOOK,
    .description = "the square root of var's reproducible, before the one rounding",
};

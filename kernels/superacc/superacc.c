/* superacc.c: descriptor, resolve() and CPU twin of the `superacc` variant (determinism class
 * correctly-rounded): every input added exactly into an integer superaccumulator (exact/limbs.h),
 * rounded once. Order-independent and correctly rounded, so it equals the GPU kernel
 * (superacc.cu) bit for bit for every launch configuration.
 * Assumptions: IEEE 754 binary32/binary64 inputs; two's-complement int64_t. */
#include <stdlib.h>
#include "sl_variant_impl.h"
#include "superacc/superacc.h"
#include "exact/binned.h"   /* sl_rsum_limbs_add */
#include "sumlab/half.h"
#include "sl_twin.h"

#define SACC_BLOCK 512u
#define SACC_BLOCKS_PER_SM 2u       /* float64 (the expansion: 64 registers per thread) */
#define SACC_BLOCKS_PER_SM_F32 3u   /* float32 bins: 64 KB of shared memory per 512-thread block;
                                     * 3 per SM measured faster than 2 (BENCHMARKS.md) */
#define SACC_BF16_TILES 8u   /* bfloat16: below this many tiles a thread, 2 blocks an SM (superacc_resolve) */
#define SACC_VECS 4u    /* 16-byte vectors a thread loads per tile (float32: 16 values, float64:
                         * 8, float16/bfloat16: 32; SACC_BIN_U, SACC_B_U, SACC_H_U, rs_fmt's U) */

static void superacc_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v;
    if (cfg->sm_count == 0) cfg->sm_count = SL_DEFAULT_SM_COUNT;
    const unsigned tile = SACC_VECS * (16u / (unsigned)sl_dtype_size(dt));  /* per thread */
    /* bfloat16 (32 integer bins a thread, zeroed and drained once per thread whatever its share),
     * from a launch sweep at 2^20 and 2^24 (BENCHMARKS.md): blocks of 256 while blocks of 512
     * would leave SMs without one (2^20: 128 blocks of 256, 0.85-0.86x CUB, against 64 of 512,
     * 0.79-0.81x), and 2 blocks an SM while a thread of the 3-an-SM grid would take fewer than
     * SACC_BF16_TILES tiles (2^24: 264 blocks, 0.90x, against 396, 0.80x) */
    if (cfg->block == 0)
        cfg->block = dt == SL_BF16 && (n + SACC_BLOCK * tile - 1) / (SACC_BLOCK * tile) < cfg->sm_count
                     ? SACC_BLOCK / 2u : SACC_BLOCK;
    if (cfg->items == 0) cfg->items = tile;
    if (cfg->grid == 0) {
        /* a persistent grid, fewer blocks when there is little to do: no more blocks than
         * tiles (a block without a tile still zeroes its bins and takes a ticket) */
        uint64_t per_block = (uint64_t)cfg->block * tile;
        uint64_t want = (n + per_block - 1) / per_block;
        uint64_t cap = (uint64_t)cfg->sm_count *
                       (dt != SL_F64 ? SACC_BLOCKS_PER_SM_F32 : SACC_BLOCKS_PER_SM);
        if (dt == SL_BF16 && want < SACC_BF16_TILES * cap) cap = (uint64_t)cfg->sm_count * 2u;
        cfg->grid = (uint32_t)(want < 1 ? 1 : want > cap ? cap : want);
    }
    /* a requested grid: at most the blocks that have work (the sum is the same for any grid) */
    const uint64_t per = (uint64_t)cfg->block * cfg->items;
    const uint64_t need = n ? (n + per - 1) / per : 1;
    if (cfg->grid > need) cfg->grid = (uint32_t)need;
}

static double superacc_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)n; (void)dt; (void)cfg;
    return 0.0;   /* exact accumulation, one rounding: the bound is half an ulp */
}

/* The twin's loops over x[0..n) (the format's bits): integer adds only, so any grouping gives
 * the same limbs' value; SACC_WAYS independent sets break the chains of read-modify-writes that
 * narrow data makes on one bin or limb. */
#define SACC_WAYS 4

/* float32: value i adds its signed 24-bit significand to bin[i % SACC_WAYS][E] (E its exponent
 * field; |sum| < 2^54 for the at most 2^30 values of a piece), one integer add a value; the bins
 * then go into the limbs once, each as v 2^(max(E,1) - 1) in units of 2^-149 (three 32-bit
 * chunks). */
static unsigned sacc_add_f32(int64_t *limb, const uint32_t *b, uint64_t n)
{
    int64_t bin[SACC_WAYS][256];
    memset(bin, 0, sizeof bin);
    unsigned flags = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint32_t u = b[i];
        const uint32_t e = (u >> 23) & 0xff, m = u & 0x7fffff;
        flags |= (~u >> 31) * SL_SACC_ANYPOS;    /* branch-free: signs are random data */
        if (e == 0xff) {
            flags |= m ? SL_SACC_NAN : (u >> 31) ? SL_SACC_NINF : SL_SACC_PINF;
            continue;
        }
        const int64_t sg = -(int64_t)(u >> 31);  /* 0 or -1: (c ^ sg) - sg negates */
        bin[i % SACC_WAYS][e] += ((int64_t)(m | (uint32_t)(e != 0) << 23) ^ sg) - sg;
    }
    for (int e = 0; e < 255; e++) {
        const int64_t v = bin[0][e] + bin[1][e] + bin[2][e] + bin[3][e];
        sl_rsum_limbs_add(limb, e ? e - 1 : 0, v);   /* |v| < 2^55, three 32-bit chunks */
    }
    return flags;
}

static unsigned sacc_add_f64(int64_t (*set)[SL_SACC_LIMBS_MAX], const double *d, uint64_t n)
{
    unsigned flags = 0;
    for (uint64_t i = 0; i < n; i++) {
        int64_t *limb = set[i % SACC_WAYS];
        uint64_t u;
        memcpy(&u, &d[i], sizeof u);
        flags |= (unsigned)(~u >> 63) * SL_SACC_ANYPOS;
        if (((u >> 52) & 0x7ff) == 0x7ff) {
            flags |= (u << 12) ? SL_SACC_NAN : (u >> 63) ? SL_SACC_NINF : SL_SACC_PINF;
            continue;
        }
        int idx, neg;
        uint64_t c[3];
        if (!sl_sacc_split_f64(d[i], SL_SACC_SCALE_F64, &idx, c, &neg)) continue;
        const int64_t sg = -(int64_t)neg;
        for (int k = 0; k < 3; k++) limb[idx + k] += ((int64_t)c[k] ^ sg) - sg;
    }
    return flags;
}

int sl_sacc_state_add(sl_sacc_state *st, const void *x, uint64_t n, sl_err *err)
{
    const sl_dtype dt = (sl_dtype)st->dt;
    if (n >= SL_SACC_MAX_N || st->n + n >= SL_SACC_MAX_N)
        return sl_err_set(err, "superacc: n = %llu is too large (n < 2^40)",
                          (unsigned long long)(st->n + n));
    const int L = sl_sacc_limbs(dt);
    const size_t es = dt == SL_F32 ? 4 : 8;
    st->n += n;
    /* pieces of at most SL_SACC_NORM_EVERY adds in all (each adds < 2^32 to a limb): the sets
     * and the state's limbs hold what one set of limbs would, normalised as often */
    for (uint64_t i = 0; i < n;) {
        if (st->since_norm >= SL_SACC_NORM_EVERY) {
            sl_sacc_normalise(st->limb, L);
            st->since_norm = 0;
        }
        uint64_t m = n - i;
        if (m > SL_SACC_NORM_EVERY - st->since_norm) m = SL_SACC_NORM_EVERY - st->since_norm;
        int64_t set[SACC_WAYS][SL_SACC_LIMBS_MAX];
        memset(set, 0, sizeof set);
        const char *p = (const char *)x + i * es;
        st->flags |= dt == SL_F32 ? sacc_add_f32(set[0], (const uint32_t *)p, m)
                                  : sacc_add_f64(set, (const double *)p, m);
        for (int j = 0; j < L; j++)
            st->limb[j] += set[0][j] + set[1][j] + set[2][j] + set[3][j];
        st->since_norm += m;
        i += m;
    }
    return 0;
}

/* float16/bfloat16 input: every value converted exactly to float32 and added into a float32
 * state; the exact sum rounded to odd in float32, then to nearest even in the 16-bit format
 * (sl_sacc_round_mode): the correctly rounded 16-bit sum, as the kernel's. */
static int superacc_cpu_half(const void *x, uint64_t n, sl_dtype dt, double *result, sl_err *err)
{
    sl_sacc_state st;
    sl_sacc_state_init(&st, SL_F32);
    float buf[16384];
    const uint16_t *h = (const uint16_t *)x;
    for (uint64_t i = 0; i < n; i += 16384) {
        const uint64_t m = n - i < 16384 ? n - i : 16384;
        for (uint64_t k = 0; k < m; k++) buf[k] = sl_tw_half_to_float(h[i + k], dt);
        if (sl_sacc_state_add(&st, buf, m, err)) return -1;
    }
    *result = sl_half_round(sl_sacc_round_mode(st.limb, SL_SACC_LIMBS_F32, 0, SL_F32, st.flags, 1), dt);
    return 0;
}

static int superacc_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;    /* the sum does not depend on any launch configuration */
    if (n >= SL_SACC_MAX_N)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name,
                          (unsigned long long)n);
    if (n == 0) {
        *result = 0.0;
        return 0;
    }
    if (sl_dtype_is_half(dt)) return superacc_cpu_half(x, n, dt, result, err);
    sl_sacc_state st;
    sl_sacc_state_init(&st, dt);
    if (sl_sacc_state_add(&st, x, n, err)) return -1;
    *result = sl_sacc_round(st.limb, sl_sacc_limbs(dt), dt, st.flags);
    return 0;
}

const sl_variant sl_v_superacc = {
    .name = "superacc", .op = "sum", .family = "accuracy", .determinism = SL_DET_CORRECTLY_ROUNDED,
    .description = "correctly rounded, order-independent: the exact sum rounded once (f32: "
                   "per-thread exponent bins into an integer superaccumulator; bf16: per-thread "
                   "exact int32 bins, likewise; f16: exact "
                   "per-thread double sums, flushed a warp at a time; f64: certified 4-fold "
                   "binned sum, exact superaccumulator as fallback)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_CORRECTLY_ROUNDED,
    .resolve = superacc_resolve, .depth = superacc_depth, .cpu = superacc_cpu,
    .workspace = SL_GPU_ENTRY(sl_superacc_workspace), .gpu = SL_GPU_ENTRY(sl_superacc_gpu),
};

/* rows/rows.c: row-wise reductions on the host (rows.h): the row entries of each variant, the
 * generic path's twin (the 1-D twin on each row), the dedicated twins, and the `block-row` sum
 * variant (descriptor and twin; kernel in rows.cu).
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, no contraction
 * (-ffp-contract=off); the block-row twin adds as sl_twin.h's sl_tw_add (a binary32 add as a
 * double add rounded to float, innocuous double rounding). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rows/rows.h"
#include "reproducible/reproducible.h"
#include "moments_exact/moments_exact.h"
#include "norm/norm.h"
#include "sl_twin.h"
#include "sl_variant_impl.h"

/* ---- block-row: a block per row, a fixed tree that depends on n and the format alone ------
 * Per row, thread t of SL_ROWS_BLOCK (256) adds, in order, the W values of each 16-byte group
 * g = t, t + 256, t + 512, ... (W = 16 / element size: 4 float32, 2 float64, 8 float16/bfloat16;
 * groups counted from the row's first value, loaded as one 16-byte vector when the row is
 * 16-byte aligned and as W scalars otherwise: the same adds), then the tail value
 * W floor(n / W) + t when it exists; the accumulator starts at +0 (float32 for float32 and the
 * 16-bit formats, float64 for float64). The 8 warps' values meet by a shuffle tree (offsets 16,
 * 8, 4, 2, 1: lane l adds lane l + off), warp 0 adds the 8 warp values by offsets 4, 2, 1, and
 * the result is rounded once to the input format.
 * Rows of n >= SL_ROWS_BR_SPLIT_N values are cut into P = ceil(n / SL_ROWS_BR_PART) parts of
 * SL_ROWS_BR_PART values (the last one shorter), each part reduced as above to its accumulator
 * value (a block each: rows.cu), and the P part values added left to right in the accumulator
 * format (p0 + p1, then + p2, ...) before the one rounding: a shape that depends on n alone. */
#define BR_WARPS (SL_ROWS_BLOCK / 32u)

static unsigned br_width(sl_dtype dt) { return 16u / (unsigned)sl_dtype_size(dt); }

/* v[0..32) after a shuffle-down tree of offsets from `first` down to 1 (lane l + off >= 32
 * reads its own value, as __shfl_down_sync does); returns lane 0. */
static double br_tree(double *v, unsigned first, sl_dtype acc)
{
    double nv[32];
    for (unsigned off = first; off > 0; off >>= 1) {
        for (unsigned l = 0; l < 32; l++) nv[l] = sl_tw_add(v[l], l + off < 32 ? v[l + off] : v[l], acc);
        memcpy(v, nv, sizeof nv);
    }
    return v[0];
}

/* One part's value in the accumulator format (float32 for the 16-bit formats). */
static double br_part(const void *x, uint64_t n, sl_dtype dt)
{
    const sl_dtype acc = dt == SL_F64 ? SL_F64 : SL_F32;
    const uint64_t W = br_width(dt), ng = n / W;
    double lane[SL_ROWS_BLOCK];
    for (unsigned t = 0; t < SL_ROWS_BLOCK; t++) {
        double a = 0.0;
        for (uint64_t g = t; g < ng; g += SL_ROWS_BLOCK)
            for (uint64_t j = 0; j < W; j++) a = sl_tw_add(a, sl_tw_load(x, dt, g * W + j), acc);
        if (ng * W + t < n) a = sl_tw_add(a, sl_tw_load(x, dt, ng * W + t), acc);
        lane[t] = a;
    }
    double w[32] = {0};
    for (unsigned k = 0; k < BR_WARPS; k++) w[k] = br_tree(lane + 32u * k, 16u, acc);
    for (unsigned k = BR_WARPS; k < 32; k++) w[k] = 0.0;
    return br_tree(w, BR_WARPS / 2u, acc);
}

unsigned sl_rows_br_parts(uint64_t n)
{
    return n < SL_ROWS_BR_SPLIT_N ? 1u : (unsigned)((n + SL_ROWS_BR_PART - 1u) / SL_ROWS_BR_PART);
}

/* One row's block-row result (a double holding the value in dt's format). */
static double br_row(const void *x, uint64_t n, sl_dtype dt)
{
    const sl_dtype acc = dt == SL_F64 ? SL_F64 : SL_F32;
    const unsigned P = sl_rows_br_parts(n);
    const size_t es = sl_dtype_size(dt);
    double r = br_part(x, P == 1u ? n : SL_ROWS_BR_PART, dt);
    for (unsigned p = 1; p < P; p++) {
        const uint64_t o = (uint64_t)p * SL_ROWS_BR_PART, len = n - o < SL_ROWS_BR_PART ? n - o : SL_ROWS_BR_PART;
        r = sl_tw_add(r, br_part((const char *)x + o * es, len, dt), acc);
    }
    return sl_dtype_is_half(dt) ? sl_tw_half_round(r, dt) : r;
}

static int br_rows_cpu(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, double *results, sl_err *err)
{
    (void)v; (void)cfg; (void)err;
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < rows; i++) results[i] = br_row((const char *)x + i * n * es, n, dt);
    return 0;
}

static int br_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                  double *result, sl_err *err)
{
    return br_rows_cpu(v, x, 1, n, dt, cfg, result, err);
}

static void br_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)n;
    cfg->block = SL_ROWS_BLOCK;   /* fixed: the tree is part of the result */
    cfg->grid = 1;
    cfg->items = br_width(dt);
}

/* The longest chain: a thread's groups and tail in the longest part, then 5 + 3 tree levels,
 * then the P - 1 adds of the parts. */
static double br_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)cfg;
    const unsigned P = sl_rows_br_parts(n);
    const uint64_t len = P == 1u ? n : SL_ROWS_BR_PART;
    const uint64_t W = br_width(dt), ng = len / W;
    const uint64_t groups = (ng + SL_ROWS_BLOCK - 1) / SL_ROWS_BLOCK;
    return (double)(groups * W + (len % W ? 1u : 0u) + 8u + (P - 1u));
}

/* Split rows: the rows' tickets (4 bytes each, the area rounded up to 16), then the parts'
 * values (a double each). */
static size_t br_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg)
{
    (void)v; (void)dt; (void)cfg;
    const unsigned P = sl_rows_br_parts(n);
    return P == 1u ? 0 : (size_t)((rows * 4u + 15u) / 16u * 16u + rows * P * 8u);
}

/* One array is one row: the 1-D launcher runs the row kernel on it. */
static size_t br_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    return br_rows_workspace(v, 1, n, dt, cfg);
}

#ifdef SUMLAB_HAVE_CUDA
sl_rows_gpu_fn sl_block_row_rows_gpu;   /* rows.cu */
sl_gpu_fn sl_block_row_gpu;
sl_rows_gpu_fn sl_reproducible_rows_gpu;
sl_rows_gpu_fn sl_superacc_rows_gpu;
sl_rows_gpu_fn sl_lse_reproducible_rows_gpu;
#endif

const sl_variant sl_v_block_row = {
    .name = "block-row",
    .op = "sum", .family = "rows",
    .determinism = SL_DET_CONFIG_INDEPENDENT,
    .description = "a block of 256 threads per row (a block per 2^17 values of rows of 2^18 "
                   "and more, their values added left to right), 16-byte groups, a fixed shuffle "
                   "tree: a row's bits depend on its n and format alone (batch-invariant)",
    .dtypes = SL_DTYPES_ALL,
    .bound = SL_BOUND_RECURSIVE,
    .resolve = br_resolve,
    .depth = br_depth,
    .cpu = br_cpu,
    .workspace = br_workspace,
    .gpu = SL_GPU_ENTRY(sl_block_row_gpu),
    .rows_cpu = br_rows_cpu,
    .rows_workspace = br_rows_workspace,
    .rows_gpu = SL_GPU_ENTRY(sl_block_row_rows_gpu),
    .rows_bits = "n and the format alone (fixed block of 256, tree and split by n; not B, not the "
                 "grid, not the row's alignment)",
};

/* ---- dedicated entries for families whose files rows/ does not own --------------------------
 * reproducible: a warp or a block per row (by n alone), long rows or few rows split over
 * several blocks whose states merge exactly, accumulating the binned state of
 * exact/binned.h (rows.cu); its
 * result is a function of the row's multiset of values, so the twin is the 1-D twin's
 * sl_rsum_sum on each row. */
unsigned sl_rows_split(uint64_t rows, uint64_t n, uint32_t sm_count, unsigned max_parts)
{
    uint64_t s = n >> 17;
    const uint64_t sms = sm_count ? sm_count : SL_DEFAULT_SM_COUNT;
    const uint64_t want = rows ? (4u * sms + rows - 1) / rows : 1;
    if (want > s) s = want;
    if (s > n / 8192u) s = n / 8192u;
    if (s > max_parts) s = max_parts;
    return s ? (unsigned)s : 1u;
}

static int rs_rows_cpu(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, double *results, sl_err *err)
{
    (void)v; (void)cfg;
    if (n >= SL_RSUM_MAX_N) return sl_err_set(err, "reproducible: n = %llu is too large",
                                              (unsigned long long)n);
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < rows; i++) results[i] = sl_rsum_sum((const char *)x + i * n * es, n, dt);
    return 0;
}

/* A block per row where sl_rows_rs_lanes gives no lanes, split over sl_rows_split blocks: the
 * rows' tickets (4 bytes each, the area rounded up to 16) then every part's binned state. */
static size_t rs_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg)
{
    (void)v;
    if (sl_rows_rs_lanes(rows, n, sl_dtype_size(dt), cfg ? cfg->sm_count : 0u)) return 0;
    const unsigned S = sl_rows_split(rows, n, cfg ? cfg->sm_count : 0u, SL_ROWS_RS_SPLIT_MAX);
    if (S == 1u) return 0;
    return (size_t)((rows * 4u + 15u) / 16u * 16u + rows * S * (uint64_t)sizeof(sl_rsum_state));
}

/* superacc: every format by the certified pass (a warp or a block a row, the rows it cannot
 * decide summed exactly after) when the rows fill the GPU; otherwise float32 and the 16-bit
 * formats by a block (or several: long rows, few rows) per row over the float32 exponent bins
 * (rows.cu), float64 by the 1-D launcher on each row; correctly rounded, so the twin is the 1-D
 * twin on each row. */
int sl_rows_sacc_certified(uint64_t rows, uint64_t n, uint32_t sm_count)
{
    return n >= 1 && rows >= 1 && rows <= 0xffffffffull &&
           sl_rows_split(rows, n, sm_count, SL_ROWS_SACC_SPLIT_MAX) == 1u;
}

static int sa_rows_cpu(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, double *results, sl_err *err)
{
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < rows; i++) {
        sl_launch c;
        sl_rows_cfg(v, cfg, i, n, dt, &c);
        if (sl_variant_cpu(v, (const char *)x + i * n * es, n, dt, &c, &results[i], err)) return -1;
    }
    return 0;
}

/* The 1-D twin on each row (at its address; superacc and lse's reproducible: a function of the
 * row's values alone). */
static int oi_rows_cpu(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                       const sl_launch *cfg, double *results, sl_err *err)
{
    return sa_rows_cpu(v, x, rows, n, dt, cfg, results, err);
}

static size_t no_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg)
{
    (void)v; (void)rows; (void)n; (void)dt; (void)cfg;
    return 0;
}

/* The split rows' limbs or the certified pass's list (float32, 16-bit); float64: the list, then
 * the 1-D launcher's scratch (rows.h's SL_ROWS_SACC_F64_LIST). */
static size_t sa_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg)
{
    if (dt == SL_F64) return (size_t)SL_ROWS_SACC_F64_LIST(rows) + sl_variant_workspace(v, n, dt, cfg);
    return (size_t)rows * SL_ROWS_SACC_WS;
}

/* correct mean/var/std: a warp or a block per row (moments_exact.cu), or, for rows too few to fill
 * the GPU that way (sl_layout.h's sl_rows_few_long), the 1-D launcher on each row; correctly
 * rounded, so the twin is the 1-D twin on each row. */
static size_t mx_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg)
{
    if (sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u)) return sl_variant_workspace(v, n, dt, cfg);
    return SL_MX_ROWS_WS_BYTES(rows);
}
/* reproducible mean/var/std: a block per row (no workspace), or, for rows too few to fill the
 * GPU that way, the 1-D launcher on each row (its scratch) */
static size_t mxr_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                 const sl_launch *cfg)
{
    return sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u) ? sl_variant_workspace(v, n, dt, cfg) : 0u;
}
/* correct norm2: float32 and 16-bit by a warp or a block per row and the exact kernel behind
 * (norm.cu), float64, rows of 2^38 values or more and rows too few to fill the GPU that way
 * (sl_rows_few_long) by the 1-D launcher on each row; correctly rounded: the 1-D twin on each
 * row. */
static size_t nrm_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                 const sl_launch *cfg)
{
    if (dt == SL_F64 || n >= SL_NRM_ROWS_MAX_N || sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u))
        return sl_variant_workspace(v, n, dt, cfg);
    return SL_NRM_ROWS_WS_BYTES(rows);
}
/* reproducible norm2: float32 and 16-bit by a block per row (norm.cu, no workspace); float64
 * (its max pass) and rows too few to fill the GPU that way by the 1-D launcher on each row */
static size_t nrmr_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                                  const sl_launch *cfg)
{
    if (dt == SL_F64 || sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u))
        return sl_variant_workspace(v, n, dt, cfg);
    return 0u;
}
typedef struct {
    const char *name, *op;
    sl_rows_entries e;
} rows_dedicated;

static const rows_dedicated dedicated[] = {
    {"reproducible", "sum",
     {rs_rows_cpu, rs_rows_workspace, SL_GPU_ENTRY(sl_reproducible_rows_gpu),
      "the row's values alone (order-independent: not B, the split, the launch configuration "
      "or the GPU)", 1}},
    {"superacc", "sum",
     {sa_rows_cpu, sa_rows_workspace, SL_GPU_ENTRY(sl_superacc_rows_gpu),
      "the row's values alone (correctly rounded: not B, the split, the launch configuration or "
      "the GPU)", 1}},
    /* lse's reproducible: a warp or a block per row, the maxima and the binned sum of the terms
     * (rows.cu) */
    {"reproducible", "lse",
     {oi_rows_cpu, no_rows_workspace, SL_GPU_ENTRY(sl_lse_reproducible_rows_gpu),
      "the row's values alone (order-independent: not B, the launch configuration or the GPU)", 1}},
    {"correct", "mean",
     {oi_rows_cpu, mx_rows_workspace, SL_GPU_ENTRY(sl_mx_rows_gpu),
      "the row's values alone (correctly rounded: not B, the launch configuration or the GPU)", 1}},
    {"correct", "var",
     {oi_rows_cpu, mx_rows_workspace, SL_GPU_ENTRY(sl_mx_rows_gpu),
      "the row's values alone (correctly rounded: not B, the launch configuration or the GPU)", 1}},
    {"correct", "std",
     {oi_rows_cpu, mx_rows_workspace, SL_GPU_ENTRY(sl_mx_rows_gpu),
      "the row's values alone (correctly rounded: not B, the launch configuration or the GPU)", 1}},
    /* reproducible mean/var/std: a block per row, the 1-D kernel's binned states (every format;
     * few long rows: the 1-D launcher on each row) */
    {"reproducible", "mean",
     {oi_rows_cpu, mxr_rows_workspace, SL_GPU_ENTRY(sl_mxr_rows_gpu),
      "the row's values alone (order-independent: not B, the launch configuration or the GPU)", 1}},
    {"reproducible", "var",
     {oi_rows_cpu, mxr_rows_workspace, SL_GPU_ENTRY(sl_mxr_rows_gpu),
      "the row's values alone (order-independent: not B, the launch configuration or the GPU)", 1}},
    {"reproducible", "std",
     {oi_rows_cpu, mxr_rows_workspace, SL_GPU_ENTRY(sl_mxr_rows_gpu),
      "the row's values alone (order-independent: not B, the launch configuration or the GPU)", 1}},
    {"correct", "norm2",
     {oi_rows_cpu, nrm_rows_workspace, SL_GPU_ENTRY(sl_norm_rows_gpu),
      "the row's values alone (correctly rounded: not B, the launch configuration or the GPU)", 1}},
    {"reproducible", "norm2",
     {oi_rows_cpu, nrmr_rows_workspace, SL_GPU_ENTRY(sl_norm_rows_gpu),
      "the row's values alone (order-independent: not B, the launch configuration or the GPU)", 1}},
};

void sl_rows_entries_of(const sl_variant *v, sl_rows_entries *e)
{
    memset(e, 0, sizeof *e);
    if (v->rows_cpu || v->rows_gpu || v->rows_gpu2 || v->rows_workspace || v->rows_bits) {
        e->cpu = v->rows_cpu;
        e->workspace = v->rows_workspace;
        e->gpu = v->rows_gpu;
        e->gpu2 = v->rows_gpu2;
        e->bits = v->rows_bits;
    } else {
        for (size_t i = 0; i < sizeof dedicated / sizeof dedicated[0]; i++)
            if (!strcmp(dedicated[i].name, v->name) && !strcmp(dedicated[i].op, v->op)) *e = dedicated[i].e;
    }
    e->dedicated = e->gpu != NULL || e->gpu2 != NULL || e->cpu != NULL;
    if (!e->bits)
        e->bits = v->determinism >= SL_DET_ORDER_INDEPENDENT
                      ? "the row's values alone (order-independent; the 1-D launcher on each row)"
                  : v->determinism == SL_DET_CONFIG_INDEPENDENT
                      ? "the row, its n and its address modulo 256 (the 1-D launcher on each row, "
                        "its launch configuration resolved for n; not the grid or the GPU): not B"
                  : v->determinism == SL_DET_RUN_TO_RUN
                      ? "the row, its n, its address modulo 256 and the launch configuration (the "
                        "1-D launcher on each row, block and grid resolved for n and the GPU's SM "
                        "count): not B"
                      : "the order of its atomics: a row's bits can change from run to run (the 1-D "
                        "launcher on each row); not B";
}

uint32_t sl_rows_addr_mod(uint32_t addr_mod0, uint64_t i, uint64_t n, sl_dtype dt)
{
    const uint64_t bytes = i * n * (uint64_t)sl_dtype_size(dt);
    return (uint32_t)((addr_mod0 + (bytes & 255u)) & 255u);
}

void sl_rows_cfg(const sl_variant *v, const sl_launch *req, uint64_t i, uint64_t n, sl_dtype dt,
                 sl_launch *cfg)
{
    if (req) *cfg = *req;
    else memset(cfg, 0, sizeof *cfg);
    cfg->addr_mod = sl_rows_addr_mod(req ? req->addr_mod : 0, i, n, dt);
    sl_variant_resolve(v, cfg, n, dt);
}

/* y given to a one-input variant, missing for a two-input one (with values to read), or a stride
 * other than n and 0: an error. */
int sl_rows_inputs_check(const sl_variant *v, const void *y, uint64_t y_stride, uint64_t rows, uint64_t n,
                         sl_err *err)
{
    if (v->cpu2 || v->gpu2) {
        if (!y && rows && n) return sl_err_set(err, "variant '%s' reads two arrays: the second is missing", v->name);
        if (y && y_stride != n && y_stride != 0)
            return sl_err_set(err, "variant '%s': y's rows %llu values apart (n = %llu: n, or 0 for one row of y)",
                              v->name, (unsigned long long)y_stride, (unsigned long long)n);
    } else if (y) {
        return sl_err_set(err, "variant '%s' reads one array: a second was given", v->name);
    }
    return 0;
}

int sl_rows_cpu_xy(const sl_variant *v, const void *x, const void *y, uint64_t y_stride, uint64_t rows,
                   uint64_t n, sl_dtype dt, const sl_launch *req, double *results, sl_err *err)
{
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "variant '%s' does not take %s input", v->name, sl_dtype_name(dt));
    if (sl_rows_inputs_check(v, y, y_stride, rows, n, err)) return -1;
    sl_rows_entries e;
    sl_rows_entries_of(v, &e);
    sl_launch cfg;
    if (e.cpu) {
        sl_rows_cfg(v, req, 0, n, dt, &cfg);
        return e.cpu(v, x, rows, n, dt, &cfg, results, err);
    }
    const size_t es = sl_dtype_size(dt);
    for (uint64_t i = 0; i < rows; i++) {   /* each row resolved at its address, as the 1-D call */
        const void *xs[2] = {(const char *)x + i * n * es, y ? (const char *)y + i * y_stride * es : NULL};
        sl_rows_cfg(v, req, i, n, dt, &cfg);
        if (sl_variant_cpu_in(v, xs, n, dt, &cfg, &results[i], err)) return -1;
    }
    return 0;
}

int sl_rows_cpu(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                const sl_launch *req, double *results, sl_err *err)
{
    return sl_rows_cpu_xy(v, x, NULL, 0, rows, n, dt, req, results, err);
}

size_t sl_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                         const sl_launch *req)
{
    sl_rows_entries e;
    sl_rows_entries_of(v, &e);
    sl_launch cfg;
    if (e.gpu || e.gpu2 || e.workspace) {   /* the row kernel's (also in a build without CUDA) */
        sl_rows_cfg(v, req, 0, n, dt, &cfg);
        return e.workspace ? e.workspace(v, rows, n, dt, &cfg) : 0;
    }
    /* the largest over the rows' configurations: row i + 256 has row i's address modulo 256 */
    size_t most = 0;
    for (uint64_t i = 0; i < rows && i < 256u; i++) {
        sl_rows_cfg(v, req, i, n, dt, &cfg);
        const size_t w = sl_variant_workspace(v, n, dt, &cfg);
        if (w > most) most = w;
    }
    return most;
}

/* The one-input forms (y NULL). */
int sl_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, sl_dtype dt,
                const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_results, void *stream,
                sl_err *err)
{
    return sl_rows_gpu_xy(v, d_x, NULL, 0, rows, n, dt, cfg, d_work, work_bytes, d_results, stream, err);
}

int sl_rows_gpu_host(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                     const sl_launch *req, int reps, double *results, double *time_ms_median,
                     double *read_ms_median, sl_launch *cfg_out, sl_err *err)
{
    return sl_rows_gpu_host_xy(v, x, NULL, 0, rows, n, dt, req, reps, results, time_ms_median, read_ms_median,
                               cfg_out, err);
}

#ifndef SUMLAB_HAVE_CUDA
int sl_rows_gpu_xy(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride, uint64_t rows,
                   uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                   void *d_results, void *stream, sl_err *err)
{
    (void)v; (void)d_x; (void)d_y; (void)y_stride; (void)rows; (void)n; (void)dt; (void)cfg; (void)d_work;
    (void)work_bytes; (void)d_results; (void)stream;
    return sl_err_set(err, "sumlab was built without CUDA");
}

int sl_rows_gpu_host_xy(const sl_variant *v, const void *x, const void *y, uint64_t y_stride, uint64_t rows,
                        uint64_t n, sl_dtype dt, const sl_launch *req, int reps, double *results,
                        double *time_ms_median, double *read_ms_median, sl_launch *cfg_out,
                        sl_err *err)
{
    (void)v; (void)x; (void)y; (void)y_stride; (void)rows; (void)n; (void)dt; (void)req; (void)reps; (void)results;
    (void)time_ms_median; (void)read_ms_median; (void)cfg_out;
    return sl_err_set(err, "no GPU: sumlab was built without CUDA");
}

int sl_rows_cub_sum_ms(const void *x, uint64_t rows, uint64_t n, sl_dtype dt, int reps,
                       double *ms_median, sl_err *err)
{
    (void)x; (void)rows; (void)n; (void)dt; (void)reps; (void)ms_median;
    return sl_err_set(err, "no GPU: sumlab was built without CUDA");
}

int sl_rows_sacc_gpu_paths(const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                           const sl_launch *req, int runs, double *results, uint64_t *exact_rows,
                           sl_err *err)
{
    (void)x; (void)rows; (void)n; (void)dt; (void)req; (void)runs; (void)results; (void)exact_rows;
    return sl_err_set(err, "no GPU: sumlab was built without CUDA");
}
#endif

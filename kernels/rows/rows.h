/* rows/rows.h: row-wise reductions: each of `rows` contiguous rows of n values (a C-order
 * [rows, n] array) reduced by one variant, row i's result a function of row i (and, for the
 * generic path, of its address modulo 256, as the 1-D launcher sees it). Every variant runs
 * row-wise: its dedicated row kernel and twin when it has them (the descriptor's rows_* entries,
 * or the table in rows.c for families whose files this folder does not own), else its 1-D
 * twin/launcher on each row (the generic path). */
#ifndef SL_ROWS_H
#define SL_ROWS_H
#include "sl_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The row entries of v: its descriptor's, or the dedicated ones rows.c lists for it (NULL
 * fields: the generic path). */
typedef struct {
    sl_rows_cpu_fn *cpu;
    sl_rows_workspace_fn *workspace;
    sl_rows_gpu_fn *gpu;
    const char *bits;          /* what can change a row's bits (never NULL) */
    int dedicated;             /* 1: a row kernel of its own (gpu or gpu2 set) */
    sl_rows_gpu2_fn *gpu2;     /* a two-input operation's row kernel */
} sl_rows_entries;
void sl_rows_entries_of(const sl_variant *v, sl_rows_entries *e);

/* Row i's address modulo 256 when row 0's is addr_mod0: (addr_mod0 + i n size) mod 256. */
uint32_t sl_rows_addr_mod(uint32_t addr_mod0, uint64_t i, uint64_t n, sl_dtype dt);

/* Row i's launch configuration: the request req (NULL: all defaults; its addr_mod is row 0's)
 * with row i's address modulo 256, resolved for n, as the 1-D call on that row resolves it. */
void sl_rows_cfg(const sl_variant *v, const sl_launch *req, uint64_t i, uint64_t n, sl_dtype dt,
                 sl_launch *cfg);

/* The twins of all rows: results[i] = row i's result (a double holding the value in dt's
 * format). req: the launch request (its addr_mod row 0's; NULL: the defaults), resolved here per
 * row (sl_rows_cfg). The generic path runs sl_variant_cpu on each row with its configuration,
 * so row i's result equals the 1-D twin on that row at that address bit for bit; a dedicated
 * twin receives row 0's configuration. 0, or -1 (err). */
int sl_rows_cpu(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                const sl_launch *req, double *results, sl_err *err);
/* 0 when y fits v: NULL for a one-input variant, given for a two-input one when there are values
 * to read, y_stride n or 0; else -1 and err says which. */
int sl_rows_inputs_check(const sl_variant *v, const void *y, uint64_t y_stride, uint64_t rows, uint64_t n,
                         sl_err *err);
/* Two-input operations (dot): x, a C-order [rows, n] array, and y of the same format: y_stride n,
 * y is [rows, n] too and row i of x pairs with row i of y; y_stride 0, y is one row of n values
 * that pairs with every row of x (a matrix-vector product, x y). y NULL for a one-input variant
 * (then sl_rows_cpu), required for a two-input one. The generic path alone: the 1-D twin
 * (v->cpu2) on each pair of rows, resolved at x's row address. 0, or -1 (err). */
int sl_rows_cpu_xy(const sl_variant *v, const void *x, const void *y, uint64_t y_stride, uint64_t rows,
                   uint64_t n, sl_dtype dt, const sl_launch *req, double *results, sl_err *err);

/* Bytes of device scratch sl_rows_gpu needs for the request req: the dedicated kernel's, or the
 * largest of the 1-D launcher's over the rows' configurations (the rows run one after another
 * on one stream and every launcher leaves its counters zero). */
size_t sl_rows_workspace(const sl_variant *v, uint64_t rows, uint64_t n, sl_dtype dt,
                         const sl_launch *req);
/* Enqueues every row on stream: the dedicated row kernel (req resolved for n), or the 1-D
 * launcher on each row's pointer with req resolved at that pointer's address (row i's result at
 * d_results + i * size of dt). req's sm_count: the device's (0: SL_DEFAULT_SM_COUNT). 0, or -1
 * (err). Without CUDA: -1 ("built without CUDA"). */
int sl_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, sl_dtype dt,
                const sl_launch *req, void *d_work, size_t work_bytes, void *d_results, void *stream,
                sl_err *err);
/* sl_rows_gpu over x and y (sl_rows_cpu_xy's pairing): the variant's two-input row kernel
 * (rows_gpu2, req resolved for n), or the 1-D launcher (v->gpu2) on each pair of rows (d_y NULL
 * for a one-input variant). Both need each pair at one alignment modulo 16 bytes: d_x and d_y
 * must share it, and with y_stride 0 (one row of y) and more than one row, a row must span a
 * multiple of 16 bytes (reduce/launch.cuh's sl_rows_pair_check, said before anything is
 * enqueued). */
int sl_rows_gpu_xy(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride, uint64_t rows,
                   uint64_t n, sl_dtype dt, const sl_launch *req, void *d_work, size_t work_bytes,
                   void *d_results, void *stream, sl_err *err);

/* From the host: uploads x (rows x n values of dt) to a fresh 256-byte-aligned device buffer,
 * runs the rows once as warm-up and then reps times timed by device events, and downloads
 * the last run's results (doubles). time_ms_median: the median of the timed runs (may be NULL);
 * read_ms_median (may be NULL): the median time of a streaming read of the same bytes (the
 * harness's read ceiling) measured in the same call. req: the launch request (sm_count 0: the
 * device's). cfg_out (may be NULL): the request as run (sm_count set; the twins take it as
 * their req) . 0, or -1 (err; no GPU, built without CUDA). */
int sl_rows_gpu_host(const sl_variant *v, const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                     const sl_launch *req, int reps, double *results, double *time_ms_median,
                     double *read_ms_median, sl_launch *cfg_out, sl_err *err);
/* sl_rows_gpu_host over x and y (y NULL: one input; y_stride as sl_rows_cpu_xy): both uploaded;
 * the read ceiling reads both arrays, or x alone for a y of one row (read again for every row,
 * mostly from cache). */
int sl_rows_gpu_host_xy(const sl_variant *v, const void *x, const void *y, uint64_t y_stride, uint64_t rows,
                        uint64_t n, sl_dtype dt, const sl_launch *req, int reps, double *results,
                        double *time_ms_median, double *read_ms_median, sl_launch *cfg_out,
                        sl_err *err);

/* The anchor: cub::DeviceSegmentedReduce::Sum over the same rows (uploaded here), reps timed
 * runs after a warm-up (device events); *ms_median their median. 0, or -1 (err; without CUDA). */
int sl_rows_cub_sum_ms(const void *x, uint64_t rows, uint64_t n, sl_dtype dt, int reps,
                       double *ms_median, sl_err *err);

/* `block-row` (rows.c): a block of SL_ROWS_BLOCK threads per row, 16-byte groups per thread in a
 * fixed order, a fixed shuffle tree: the bits of a row depend on its n and format alone. */
#define SL_ROWS_BLOCK 256u
/* Rows of n >= SL_ROWS_BR_SPLIT_N values: a block per SL_ROWS_BR_PART values, the parts' values
 * added left to right; sl_rows_br_parts(n): the number of parts (1 below the threshold). */
#define SL_ROWS_BR_SPLIT_N (1u << 18)
#define SL_ROWS_BR_PART (1u << 17)
unsigned sl_rows_br_parts(uint64_t n);

/* `superacc` rows (rows.cu), float32 and 16-bit: workspace bytes per row. A row split over
 * several blocks uses its ticket, flags, 8 bytes of padding and SL_SACC_LIMBS_F32 (12) int64
 * limbs; rows summed a block (or a warp) each go through the certified pass, whose list of the
 * rows it cannot decide takes the first 16 + 4 rows bytes. Zero before the first call and
 * between calls, but for bytes [8, 12): the count of rows the exact kernel summed after the
 * certified pass (sl_rows_sacc_gpu_paths reads it). */
#define SL_ROWS_SACC_WS 112u
/* The certified pass's threads a row: a warp up to SL_ROWS_SACC_WARP_ROW_MAX values, a block of
 * SL_ROWS_SACC_BLOCK above (rows/rows_cert.h's model takes the same). */
#define SL_ROWS_SACC_WARP_ROW_MAX 8192u
#define SL_ROWS_SACC_BLOCK 256u
/* float64 `superacc` rows: the certified pass's list (SL_ROWS_SACC_WS's layout: 16 + 4 rows
 * bytes) at the workspace's start, rounded up to 256 bytes; the 1-D launcher's scratch follows
 * it when the rows do not take the certified pass. */
#define SL_ROWS_SACC_F64_LIST(rows) (((uint64_t)(rows) * 4u + 16u + 255u) / 256u * 256u)
/* 1 when `superacc`'s rows of n values run the certified pass, in every format (rows.cu, n >= 1, a
 * block or a warp a row by sl_rows_split with sm_count, fewer than 2^32 rows: float32 and 16-bit
 * by the float64 sums of rows/rows_cert.h, float64 by the 4-fold binned state's certified
 * rounding), else 0 (float32 and 16-bit: the split exact kernel; float64: the 1-D launcher on
 * each row). */
int sl_rows_sacc_certified(uint64_t rows, uint64_t n, uint32_t sm_count);
/* `superacc` rows on the GPU runs (>= 1) times on one workspace, as sl_rows_gpu_host runs them
 * with req (x uploaded here): results[i] row i's result (the last run's), *exact_rows the rows
 * the exact kernel summed over the runs because the certified pass could not decide them (0 when
 * it decided every row, or when it did not run: sl_rows_sacc_certified). 0, or -1 (err; no GPU,
 * built without CUDA). */
int sl_rows_sacc_gpu_paths(const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                           const sl_launch *req, int runs, double *results, uint64_t *exact_rows,
                           sl_err *err);

/* Blocks per row of the split row kernels (superacc; reproducible above
 * SL_ROWS_RS_WARP_ROW_MAX): parts of about 2^17 values for long rows, and at least four blocks
 * per SM (sm_count; 0: SL_DEFAULT_SM_COUNT) when the rows are few; at most one part per 8192
 * values and at most max_parts. The order-independent kernels' bits do not depend on it. */
unsigned sl_rows_split(uint64_t rows, uint64_t n, uint32_t sm_count, unsigned max_parts);
#define SL_ROWS_RS_SPLIT_MAX 64u        /* reproducible: at most this many blocks per row */
#define SL_ROWS_SACC_SPLIT_MAX 1024u    /* superacc: at most this many blocks per row */

#ifdef __cplusplus
}
#endif
#endif

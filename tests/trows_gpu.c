/* trows_gpu.c: row-wise reductions on the GPU (label gpu; 77 without one): the same row placed
 * at positions 0, B/2 and B-1 of batches of B in {1, 3, 100, 1024} (other rows random), N in
 * {33, 4096, 32768}: one bit pattern for the order-independent variants and the row kernels of
 * every one-input operation (sum, mean, var, std, norm2, lse, max, min), and every row of the
 * GPU equal to its twin (sl_rows_cpu) for every variant with a kernel and a deterministic twin; ragged_rows: the row kernels (sum: reproducible,
 * superacc, block-row; lse: reproducible; mean/var/std: correct; max/min) on N in {1, 31, 32, 33, 4095, 65537, 2^18 + 3
 * (block-row's split)} and B in 1 .. 257 (float32 and bfloat16 at N 1 and 33) or a sample of it
 * (at N = 65537: B 1, 7, 257 for float32, 1, 129 for float64, 1, 7 for the 16-bit formats) equal
 * their twins row by row (the twins equal the 1-D reduction of each row: trows), superacc's,
 * reproducible's and max/min's rows of N >= 2 x 8192 the same bits however the rows are split or
 * launched (the SM count the launch is sized for: 1, the device's, 4096); sacc_cert_rows: superacc's certified
 * row pass on rows of every kind of trows_sacc.h (ties, near ties, cancellation, zeros, Inf/NaN,
 * overflow, ordinary rows; a warp a row and a block a row, every format): every row equals its
 * twin, and the rows the exact kernel summed are the ones the kernel's model (sl_rcs_model_row;
 * float64: exact/binned.h's sl_rsum_certify_f64) leaves undecided, over three runs on one
 * workspace (each leaves it empty);
 * lse_rows: lse's reproducible rows on logits in and out of its one-pass window (N 31 to 20000,
 * every 32/16-bit format) equal their twins; exact_tie_rows: the exact fallbacks of norm2's and
 * mean/var's `correct` rows on exact ties (trows_ties.h); extrema_empty_parts: max/min's split
 * row with parts past its end; dot_rows: every dot variant with a twin on [B, N] pairs (B 1, 3,
 * 17; N 33 and 4096; every format) equals its twin row by row (sl_rows_cpu_xy), and the order-
 * independent ones (reproducible, correct) give one bit pattern for a pair of rows placed at
 * positions 0, B/2 and B-1 of every batch, and for that pair as a row of x @ y (one row of y
 * with every row of x; rows of 33 values, not a multiple of 16 bytes: refused); dot_rows_kernel:
 * dot's reproducible row kernel (a warp, a block, the 1-D launcher per pair for a few long rows)
 * on N in {1, 31, 32, 33, 4095, 8192, 8193, 16387, 65537}, B 2, 64 and 257 (N = 65537: 2 and 7),
 * every format, paired rows and x @ y: every row equals its twin, and a pair placed at rows 0,
 * B/2 and B-1 of each batch gives one bit pattern, paired or as x @ y; the same for dot's correct
 * row kernel when built with SUMLAB_DOT_CORRECT_ROWS (its first pass a row, the exact pass on the
 * rows it lists); dot_exact_rows: correct's rows that its first pass cannot decide (cancellation to 0, a tie, Inf, NaN, float64 products
 * beyond float64's range) equal the twin, warp and block rows, every format. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_test_values.h"
#include "sl_gpu.h"
#include "sl_ops.h"
#include "sl_variants.h"
#include "rows/rows.h"
#include "rows/rows_cert.h"
#include "sl_layout.h"
#include "exact/binned.h"
#include "sumlab/half.h"
#include "trows_sacc.h"
#include "lse/lse.h"
#include "trows_ties.h"
#include "extrema/extrema.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* v's rows of x ([B, N] of dt) on the GPU into g and by the twin into c: 0 when both ran and
 * every row has the twin's bits (a failed check otherwise); *cfg: the resolved launch. */
static int gpu_vs_twin(const sl_variant *v, const void *x, uint64_t B, uint64_t N, sl_dtype dt,
                       sl_launch *req, sl_launch *cfg, double *g, double *c)
{
    sl_err err = {{0}};
    int rc = sl_rows_gpu_host(v, x, B, N, dt, req, 1, g, NULL, NULL, cfg, &err);
    CHECK(rc == 0, "%s %s B=%llu N=%llu: %s", v->name, sl_dtype_name(dt), (unsigned long long)B,
          (unsigned long long)N, err.msg);
    if (rc == 0) rc = sl_rows_cpu(v, x, B, N, dt, cfg, c, &err);
    CHECK(rc == 0, "%s twin: %s", v->name, err.msg);
    uint64_t differ = 0, first = 0;
    for (uint64_t i = 0; rc == 0 && i < B; i++)
        if (!same_bits(g[i], c[i]) && differ++ == 0) first = i;
    CHECK(differ == 0, "%s %s B=%llu N=%llu: %llu rows differ from the twin (row %llu: %a, twin %a)",
          v->name, sl_dtype_name(dt), (unsigned long long)B, (unsigned long long)N,
          (unsigned long long)differ, (unsigned long long)first, g[first], c[first]);
    return rc != 0 || differ != 0;
}

/* x[i] = a random value in [-8, 8) 2^(e - 7 - down), e in 0 .. 15, rounded to dt */
static void fill_one(void *x, uint64_t i, sl_dtype dt, int down)
{
    const uint64_t r = sl_test_rand64();
    const double v = ldexp((double)(int)((r >> 40) & 0xffff) / 4096.0 - 8.0, (int)((r >> 8) & 15u) - 7 - down);
    if (dt == SL_F64) ((double *)x)[i] = v;
    else if (dt == SL_F32) ((float *)x)[i] = (float)v;
    else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
}

static void fill(void *x, uint64_t count, sl_dtype dt)
{
    for (uint64_t i = 0; i < count; i++) fill_one(x, i, dt, 0);
}

/* Every row kernel on ragged shapes: GPU rows == twin rows; superacc split or not. */
static void ragged_rows(const sl_gpu_info *info)
{
    static const uint64_t Ns[] = {1, 31, 32, 33, 4095, 65537, 262147};
    static const uint64_t Bbig[] = {1, 2, 3, 7, 64, 129, 257};
    /* N = 65537 (the sample of B kept short: a case costs about a second of filling and twins):
     * float32 up to B = 257 and float64 up to B = 129 (inputs over 64 MiB, where the split rows
     * once read a workspace zeroed on another stream), the 16-bit formats two batches */
    static const uint64_t B65k_f32[] = {1, 7, 257}, B65k_f64[] = {1, 129}, B65k_16[] = {1, 7};
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        if (!e.gpu) continue;   /* every row kernel */
        const int sacc = !strcmp(v->name, "superacc");
        /* max/min (a row kernel without a twin of its own: the 1-D twin on each row): sized for
         * 1 SM, rows of 2^16 values and more run the row kernel (fewer than 4 rows: split); for
         * 4096 SMs, split over S blocks a row (sl_ex_rows_split): the same bits either way */
        const int split = sacc || !strcmp(v->name, "reproducible") || !e.cpu;
        for (size_t di = 0; di < 4; di++) {
            const sl_dtype dt = dts[di];
            if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            const size_t es = sl_dtype_size(dt);
            for (size_t ni = 0; ni < 7; ni++) {
                const uint64_t N = Ns[ni];
                /* every B in 1 .. 257 for N 1 and 33 of float32 and bfloat16, a sample
                 * for the rest */
                const int every = (N == 1 || N == 33) && (dt == SL_F32 || dt == SL_BF16) &&
                                  e.cpu != NULL;   /* max/min (generic twin): the sample */
                const uint64_t *Bs = Bbig;
                size_t nb = every ? 257 : N > 65537 ? 3 : sizeof Bbig / sizeof Bbig[0];
                if (N == 65537) {
                    Bs = dt == SL_F32 ? B65k_f32 : dt == SL_F64 ? B65k_f64 : B65k_16;
                    nb = dt == SL_F32 ? 3 : 2;
                }
                for (size_t bi = 0; bi < nb; bi++) {
                    const uint64_t B = every ? bi + 1 : Bs[bi];
                    char *x = malloc(B * N * es);
                    double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
                    double *g2 = malloc(B * sizeof(double));
                    if (!x || !g || !c || !g2) { free(x); free(g); free(c); free(g2); return; }
                    fill(x, B * N, dt);
                    sl_err err = {{0}};
                    sl_launch req, cfg;
                    memset(&req, 0, sizeof req);
                    req.sm_count = (uint32_t)info->sm_count;
                    int rc = gpu_vs_twin(v, x, B, N, dt, &req, &cfg, g, c);
                    uint64_t differ;
                    /* superacc, reproducible: the split sized for 1 and for 4096 SMs gives the
                     * same bits (rows of fewer than 2 x 8192 values are never split; float64
                     * superacc: the certified pass where 1 SM leaves S = 1, the 1-D launcher on
                     * each row where 4096 split the rows) */
                    static const uint32_t sms[] = {1, 4096};
                    const int resplit = split && N >= 2u * 8192u;
                    for (int k = 0; resplit && rc == 0 && k < 2; k++) {
                        req.sm_count = sms[k];
                        rc = sl_rows_gpu_host(v, x, B, N, dt, &req, 1, g2, NULL, NULL, NULL, &err);
                        CHECK(rc == 0, "%s: %s", v->name, err.msg);
                        differ = 0;
                        for (uint64_t i = 0; rc == 0 && i < B; i++) differ += !same_bits(g[i], g2[i]);
                        CHECK(differ == 0, "%s %s B=%llu N=%llu sm_count %u: %llu rows differ",
                              v->name, sl_dtype_name(dt), (unsigned long long)B,
                              (unsigned long long)N, sms[k], (unsigned long long)differ);
                    }
                    free(x);
                    free(g);
                    free(c);
                    free(g2);
                }
            }
        }
    }
}

/* The reproducible sum's rows of several per warp (sl_rows_rs_lanes: 8 or 16 lanes a row; a
 * warp a row on 16-bit rows of up to 32,768 values when they are many), launched for 1 SM (so
 * that batches of 20, 33 and 70 rows take those paths: 16 lanes, then 8, the last warp holding
 * fewer rows than groups) and for the device's SMs, each equal to the twin bit for bit; row i
 * scaled by 2^(-s (i mod 4)) so that rows of one warp differ in magnitude (a row's index raised
 * by its warp-mates' values would drop its low folds); N 4103 (rows not whole vectors: a warp a
 * row). The same for `correct` mean and var on 16-bit rows (sl_rows_mx_lanes: grouped alike up
 * to 2,048 values). */
static void lanes_rows(const sl_gpu_info *info)
{
    static const uint64_t Ns[] = {32, 1000, 4096, 4103, 8192, 16384};
    static const uint64_t Bs[] = {20, 33, 70};
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    int grouped = 0, grouped_mx = 0;
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        const int sum = !strcmp(v->op, "sum") && !strcmp(v->name, "reproducible");
        const int mom = (!strcmp(v->op, "mean") || !strcmp(v->op, "var")) && !strcmp(v->name, "correct");
        if (!v->gpu || !(sum || mom)) continue;
        for (size_t di = 0; di < 4; di++) {
            const sl_dtype dt = dts[di];
            if (!(v->dtypes & SL_DTYPE_MASK(dt)) || (mom && sl_dtype_size(dt) != 2u)) continue;
            const size_t es = sl_dtype_size(dt);
            for (size_t ni = 0; ni < 6; ni++) {
                const uint64_t N = Ns[ni];
                for (size_t bi = 0; bi < sizeof Bs / sizeof Bs[0]; bi++) {
                    const uint64_t B = Bs[bi];
                    const unsigned lanes = sum ? sl_rows_rs_lanes(B, N, es, 1u) : sl_rows_mx_lanes(B, N, es, 1u);
                    grouped += sum && lanes > 0u && lanes < 32u;
                    grouped_mx += mom && lanes > 0u && lanes < 32u;
                    char *x = malloc(B * N * es);
                    double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
                    double *g2 = malloc(B * sizeof(double));
                    if (!x || !g || !c || !g2) { free(x); free(g); free(c); free(g2); return; }
                    const int s = dt == SL_F16 ? 3 : 24;
                    for (uint64_t i = 0; i < B; i++)
                        for (uint64_t j = 0; j < N; j++) fill_one(x, i * N + j, dt, s * (int)(i % 4u));
                    sl_launch req, cfg;
                    memset(&req, 0, sizeof req);
                    req.sm_count = 1u;
                    req.ddof = 1;
                    int rc = gpu_vs_twin(v, x, B, N, dt, &req, &cfg, g, c);
                    if (rc == 0) {
                        sl_err err = {{0}};
                        req.sm_count = (uint32_t)info->sm_count;
                        rc = sl_rows_gpu_host(v, x, B, N, dt, &req, 1, g2, NULL, NULL, NULL, &err);
                        CHECK(rc == 0, "%s/%s: %s", v->op, v->name, err.msg);
                        uint64_t differ = 0;
                        for (uint64_t i = 0; rc == 0 && i < B; i++) differ += !same_bits(g[i], g2[i]);
                        CHECK(differ == 0, "%s/%s %s B=%llu N=%llu: %llu rows differ between the launches "
                              "for 1 SM (%u lanes a row) and for %d", v->op, v->name, sl_dtype_name(dt),
                              (unsigned long long)B, (unsigned long long)N, (unsigned long long)differ,
                              lanes, info->sm_count);
                    }
                    free(x);
                    free(g);
                    free(c);
                    free(g2);
                }
            }
        }
    }
    /* the cases above reach the grouped kernels (a rule that stopped choosing them would leave
     * this test checking the warp and block paths only) */
    CHECK(grouped >= 20, "only %d sum cases ran rows of fewer than 32 lanes", grouped);
    CHECK(grouped_mx >= 8, "only %d mean/var cases ran rows of fewer than 32 lanes", grouped_mx);
    printf("trows_gpu: lanes_rows: %d sum and %d mean/var cases on rows of fewer than 32 lanes, %ld "
           "failed checks so far\n", grouped, grouped_mx, sl_test_failures);
    fflush(stdout);
}

/* lse's reproducible rows on logits: rows of four kinds in turn (uniform on [-10, 10): the
 * one-pass window; one value above 88; a NaN among them; every value near -50: the shifted form),
 * N around the warp kernel's limit (8192) and beyond, every 32/16-bit format: every GPU row equals
 * its twin, and both forms ran (counted by the host model of the window, lse.h's sl_lse_rep1_ok). */
static void lse_rows(const sl_gpu_info *info)
{
    static const uint64_t Ns[] = {31, 4095, 8192, 8193, 20000};
    static const uint64_t Bs[] = {1, 7, 64};
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16};
    const sl_variant *v = sl_variant_find_op("lse", "reproducible");
    CHECK(v != NULL, "lse reproducible not in the registry");
    if (!v) return;
    uint64_t one_rows = 0, shifted_rows = 0;
    for (size_t di = 0; di < 3; di++)
        for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++)
            for (size_t bi = 0; bi < sizeof Bs / sizeof Bs[0]; bi++) {
                const sl_dtype dt = dts[di];
                const uint64_t N = Ns[ni], B = Bs[bi];
                const size_t es = sl_dtype_size(dt);
                char *x = malloc(B * N * es);
                double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
                if (!x || !g || !c) { free(x); free(g); free(c); CHECK(0, "out of memory"); return; }
                for (uint64_t r = 0; r < B; r++) {
                    float mn = -INFINITY;
                    for (uint64_t i = 0; i < N; i++) {
                        const double u = (double)(sl_test_rand64() >> 11) * 0x1p-53;
                        double val = (r % 4 == 3) ? -50.0 + u : -10.0 + 20.0 * u;
                        if (r % 4 == 1 && i == N / 2) val = 95.0;
                        if (r % 4 == 2 && i == N / 3) val = NAN;
                        if (dt == SL_F32) ((float *)x)[r * N + i] = (float)val;
                        else ((uint16_t *)x)[r * N + i] = sl_half_from_double(val, dt);
                        mn = sl_lse_maxnan_f(mn, (float)sl_tw_load(x, dt, r * N + i));
                    }
                    if (sl_lse_rep1_ok((double)mn)) one_rows++;
                    else shifted_rows++;
                }
                sl_launch req, cfg;
                memset(&req, 0, sizeof req);
                req.sm_count = (uint32_t)info->sm_count;
                (void)gpu_vs_twin(v, x, B, N, dt, &req, &cfg, g, c);
                free(x);
                free(g);
                free(c);
            }
    CHECK(one_rows > 0 && shifted_rows > 0, "lse rows: %llu in the one-pass window, %llu shifted",
          (unsigned long long)one_rows, (unsigned long long)shifted_rows);
    printf("lse reproducible rows: %llu in the one-pass window, %llu shifted, each equal to its twin\n",
           (unsigned long long)one_rows, (unsigned long long)shifted_rows);
}

/* superacc's certified pass: rows of every kind (kinds in turn, three of each; plus a batch of
 * ordinary rows), the SM count 1 (a warp or a block a row for every n below 2^17). */
static void sacc_cert_rows(void)
{
    static const uint64_t Ns[] = {33, 4096, 4103, 8193, 32768};
    static const sl_dtype dts[] = {SL_F32, SL_F16, SL_BF16, SL_F64};
    const sl_variant *v = sl_variant_find_op("sum", "superacc");
    CHECK(v != NULL, "superacc not in the registry");
    if (!v) return;
    for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++)
        for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++)
            for (int batch = 0; batch < 2; batch++) {
                const sl_dtype dt = dts[di];
                const uint64_t n = Ns[ni], B = batch ? 1024u : 3u * SR_KINDS;
                if (batch && n > 4103) continue;          /* the ordinary batch: short rows */
                const size_t es = sl_dtype_size(dt);
                char *x = malloc(B * n * es);
                double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
                if (!x || !g || !c) { free(x); free(g); free(c); CHECK(0, "out of memory"); return; }
                uint64_t must = 0, model_exact = 0, gen_fail = 0;
                for (uint64_t i = 0; i < B; i++) {
                    const int k = sr_fill(x + i * n * es, n, dt, batch ? SR_SYM : (int)(i % SR_KINDS));
                    if (k < 0) { gen_fail++; continue; }
                    must += sr_must(k, dt) == 1;
                    double r;
                    uint64_t chain;
                    const unsigned T = n <= SL_ROWS_SACC_WARP_ROW_MAX ? 32u : SL_ROWS_SACC_BLOCK;
                    /* cudaMalloc'd input: row i at i n es bytes from a 256-byte boundary; float64:
                     * the 4-fold binned state's certificate, a function of the row's values */
                    if (dt == SL_F64)
                        model_exact += !sl_rsum_certify_f64((const double *)(x + i * n * es), n, &r);
                    else
                        model_exact += !sl_rcs_model_row(x + i * n * es, n, dt, T,
                                                         (unsigned)((i * n * es) & 15u), &r, &chain);
                }
                CHECK(gen_fail == 0, "%s n=%llu: %llu tie rows did not fit", sl_dtype_name(dt),
                      (unsigned long long)n, (unsigned long long)gen_fail);
                sl_launch req, cfg;
                memset(&req, 0, sizeof req);
                req.sm_count = 1;
                CHECK(sl_rows_sacc_certified(B, n, req.sm_count), "%s n=%llu B=%llu: not the certified pass",
                      sl_dtype_name(dt), (unsigned long long)n, (unsigned long long)B);
                sl_err err = {{0}};
                uint64_t exact = 0;
                const int runs = 3;
                int rc = sl_rows_sacc_gpu_paths(x, B, n, dt, &req, runs, g, &exact, &err);
                CHECK(rc == 0, "superacc paths %s n=%llu: %s", sl_dtype_name(dt), (unsigned long long)n, err.msg);
                sl_rows_cfg(v, &req, 0, n, dt, &cfg);
                if (rc == 0) rc = sl_rows_cpu(v, x, B, n, dt, &cfg, c, &err);
                CHECK(rc == 0, "superacc twin: %s", err.msg);
                uint64_t differ = 0, first = 0;
                for (uint64_t i = 0; rc == 0 && i < B; i++)
                    if (!same_bits(g[i], c[i]) && differ++ == 0) first = i;
                CHECK(differ == 0, "superacc certified %s B=%llu N=%llu: %llu rows differ from the twin (row "
                      "%llu, %s: %a, twin %a)", sl_dtype_name(dt), (unsigned long long)B, (unsigned long long)n,
                      (unsigned long long)differ, (unsigned long long)first,
                      batch ? "sym" : sr_kind_name[first % SR_KINDS], g[first], c[first]);
                CHECK(rc != 0 || exact == runs * model_exact, "superacc certified %s B=%llu N=%llu: the exact "
                      "kernel summed %llu rows in %d runs, the model leaves %llu a run undecided",
                      sl_dtype_name(dt), (unsigned long long)B, (unsigned long long)n,
                      (unsigned long long)exact, runs, (unsigned long long)model_exact);
                CHECK(model_exact >= must, "%s n=%llu: the model decides rows that must go to the exact kernel",
                      sl_dtype_name(dt), (unsigned long long)n);
                printf("superacc certified rows %s N=%llu B=%llu: %llu decided, %llu summed exactly (%llu "
                       "of them must be)\n", sl_dtype_name(dt), (unsigned long long)n, (unsigned long long)B,
                       (unsigned long long)(B - exact / runs), (unsigned long long)(exact / runs),
                       (unsigned long long)must);
                free(x);
                free(g);
                free(c);
            }
}

/* The rows' exact fallbacks (norm.cu's nrmrowx_kernel, moments_exact.cu's mxrowx_kernel): exact
 * tie rows (trows_ties.h: norm2, variance with ddof 0, mean; every format: float64's norm2 rows
 * run the 1-D launcher on each row, its mean and variance rows the row kernels) at
 * rows 0, B/2, B-1 and every tenth row of batches of ordinary rows, N 32, 4096 and 32768 (the
 * row kernels: fewer than 2^16 values), B 3, 100 and 1024: every row equals its twin, each tie
 * row its even neighbour. No first pass decides a tie row (trows checks norm2's row decision and
 * float64's variance and mean decisions on them), so each batch sends rows to the exact kernel; run twice,
 * which also checks that the kernel leaves its row list empty. */
static void exact_tie_rows(const sl_gpu_info *info)
{
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    static const uint64_t Ns[] = {32, 4096, 32768}, Bs[] = {3, 100, 1024};
    for (int k = 0; k < TIE_KINDS; k++) {
        const sl_variant *v = sl_variant_find_op(tie_op[k], "correct");
        CHECK(v != NULL, "%s correct registered", tie_op[k]);
        if (!v) continue;
        for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++)
            for (size_t ni = 0; ni < 3; ni++)
                for (size_t bi = 0; bi < 3; bi++) {
                    const sl_dtype dt = dts[di];
                    const uint64_t N = Ns[ni], B = Bs[bi];
                    if (N * B > 4096u * 1024u) continue;   /* the twins' time */
                    const size_t es = sl_dtype_size(dt);
                    char *x = malloc(B * N * es);
                    double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
                    double *want = malloc(B * sizeof(double));
                    if (!x || !g || !c || !want) { free(x); free(g); free(c); free(want); CHECK(0, "out of memory"); return; }
                    fill(x, B * N, dt);
                    uint64_t ties = 0;
                    for (uint64_t i = 0; i < B; i++) {
                        want[i] = NAN;
                        if (i == 0 || i == B / 2 || i == B - 1 || i % 10u == 5u) {
                            want[i] = tie_row(x + i * N * es, N, dt, k);
                            ties++;
                        }
                    }
                    for (int run = 0; run < 2; run++) {
                        sl_launch req, cfg;
                        memset(&req, 0, sizeof req);
                        req.sm_count = (uint32_t)info->sm_count;
                        if (gpu_vs_twin(v, x, B, N, dt, &req, &cfg, g, c)) break;
                        uint64_t wrong = 0;
                        for (uint64_t i = 0; i < B; i++) wrong += !isnan(want[i]) && c[i] != want[i];
                        CHECK(wrong == 0, "%s %s B=%llu N=%llu: %llu of %llu tie rows not their even "
                              "neighbour", tie_op[k], sl_dtype_name(dt), (unsigned long long)B,
                              (unsigned long long)N, (unsigned long long)wrong, (unsigned long long)ties);
                    }
                    free(x);
                    free(g);
                    free(c);
                    free(want);
                }
    }
}

/* max/min's split rows with parts past the row's end: one row of 2^24 + 1 values sized for 4096
 * SMs takes 1024 parts of 16448 values (a multiple of 64), the last three of them empty (they
 * contribute the start value): the row equals its twin for every max/min variant with a row kernel. */
static void extrema_empty_parts(void)
{
    const uint64_t N = (1u << 24) + 1u;
    float *x = malloc(N * sizeof *x);
    if (!x) { CHECK(0, "out of memory"); return; }
    fill(x, N, SL_F32);
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        if (strcmp(v->op, "max") && strcmp(v->op, "min")) continue;
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        if (!e.gpu || !(v->dtypes & SL_DTYPE_MASK(SL_F32))) continue;
        CHECK(sl_ex_rows_split(1, N, 4096u) == 1024u, "%s: %u parts for one row of 2^24 + 1 on 4096 SMs",
              v->name, sl_ex_rows_split(1, N, 4096u));
        sl_launch req, cfg;
        memset(&req, 0, sizeof req);
        req.sm_count = 4096u;
        double g = NAN, c = NAN;
        (void)gpu_vs_twin(v, x, 1, N, SL_F32, &req, &cfg, &g, &c);
    }
    free(x);
}

/* dot variant v's rows of x with y (y_stride ys: N paired, 0 one row of y) on the GPU into g and by
 * the twin into c: 0 when both ran (every row's bits checked against the twin's), else -1. */
static int pair_vs_twin(const sl_gpu_info *info, const sl_variant *v, const void *x, const void *y, uint64_t ys,
                        uint64_t B, uint64_t N, sl_dtype dt, double *g, double *c)
{
    sl_err err = {{0}};
    sl_launch req, cfg;
    memset(&req, 0, sizeof req);
    req.sm_count = (uint32_t)info->sm_count;
    const char *form = ys ? "" : " x @ y";
    int rc = sl_rows_gpu_host_xy(v, x, y, ys, B, N, dt, &req, 1, g, NULL, NULL, &cfg, &err);
    CHECK(rc == 0, "dot/%s %s B=%llu N=%llu%s: %s", v->name, sl_dtype_name(dt), (unsigned long long)B,
          (unsigned long long)N, form, err.msg);
    if (rc == 0) rc = sl_rows_cpu_xy(v, x, y, ys, B, N, dt, &cfg, c, &err);
    CHECK(rc == 0, "dot/%s twin: %s", v->name, err.msg);
    uint64_t differ = 0, at = 0;
    for (uint64_t i = 0; rc == 0 && i < B; i++)
        if (!same_bits(g[i], c[i]) && differ++ == 0) at = i;
    CHECK(differ == 0, "dot/%s %s B=%llu N=%llu%s: %llu rows differ from the twin (row %llu: %a, twin %a)", v->name,
          sl_dtype_name(dt), (unsigned long long)B, (unsigned long long)N, form, (unsigned long long)differ,
          (unsigned long long)at, g[at], c[at]);
    return rc ? -1 : 0;
}

/* v's rows over the shapes N of Ns and B of Bs (rows of more than 20,000 values: B 2 and 7, fewer
 * than 4 a SM), every format it takes: a random pair of rows placed at rows 0, B/2 and B-1 of
 * random [B, N] pairs, each batch run paired (y_stride N) and, where a row spans a multiple of 16
 * bytes, as x @ y (one row of y, the pair's, with every row of x); every row equals the twin, and
 * (invariant) the pair gives one bit pattern over every batch, place and form. Rows that do not
 * span a multiple of 16 bytes: x @ y refused before any launch. */
static void dot_rows_over(const sl_gpu_info *info, const sl_variant *v, const uint64_t *Ns, size_t nn,
                          const uint64_t *Bs, int invariant)
{
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    for (size_t di = 0; di < 4; di++) {
        const sl_dtype dt = dts[di];
        if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        const size_t es = sl_dtype_size(dt);
        for (size_t ni = 0; ni < nn; ni++) {
            const uint64_t N = Ns[ni];
            char *rx = malloc(N * es), *ry = malloc(N * es);
            if (!rx || !ry) { free(rx); free(ry); return; }
            fill(rx, N, dt);
            fill(ry, N, dt);
            double first = NAN;
            int have = 0;
            if (N * es % 16u) {   /* x @ y of rows off the 16-byte grid: refused */
                char *x = calloc(3 * N, es);
                double g[3];
                sl_err err = {{0}};
                int rc = x ? sl_rows_gpu_host_xy(v, x, ry, 0, 3, N, dt, NULL, 1, g, NULL, NULL, NULL, &err) : 0;
                CHECK(!x || (rc == -1 && strstr(err.msg, "alignment")), "dot/%s %s N=%llu, one row of y: %s",
                      v->name, sl_dtype_name(dt), (unsigned long long)N, rc ? err.msg : "accepted");
                free(x);
            }
            for (size_t bi = 0; bi < 3; bi++) {
                const uint64_t B = N > 20000 ? (bi == 0 ? 2 : bi == 1 ? 7 : 0) : Bs[bi];
                if (!B) continue;
                const uint64_t pos[3] = {0, B / 2, B - 1};
                char *x = malloc(B * N * es), *y = malloc(B * N * es);
                double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
                if (!x || !y || !g || !c) { free(x); free(y); free(g); free(c); break; }
                for (int p = 0; p < 3; p++) {
                    fill(x, B * N, dt);
                    fill(y, B * N, dt);
                    memcpy(x + pos[p] * N * es, rx, N * es);
                    memcpy(y + pos[p] * N * es, ry, N * es);
                    for (int shared = 0; shared < 2; shared++) {
                        if (shared && N * es % 16u) continue;
                        const void *yy = shared ? (const void *)ry : (const void *)y;
                        if (pair_vs_twin(info, v, x, yy, shared ? 0 : N, B, N, dt, g, c) || !invariant) continue;
                        if (!have) { first = g[pos[p]]; have = 1; }
                        CHECK(same_bits(g[pos[p]], first), "dot/%s %s N=%llu%s: the pair at %llu of B=%llu "
                              "gives %a, first %a", v->name, sl_dtype_name(dt), (unsigned long long)N,
                              shared ? " x @ y" : "", (unsigned long long)pos[p], (unsigned long long)B,
                              g[pos[p]], first);
                    }
                }
                free(x); free(y); free(g); free(c);
            }
            free(rx);
            free(ry);
        }
    }
}

/* Every dot variant with a twin (the 1-D launcher on each pair of rows, or its row kernel) on
 * N 33 and 4096, B 1, 3, 17; the order-independent ones batch-invariant. */
static void dot_rows(const sl_gpu_info *info)
{
    static const uint64_t Ns[] = {33, 4096}, Bs[] = {1, 3, 17};
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        if (!v->gpu2 || !v->cpu2 || v->determinism < SL_DET_RUN_TO_RUN) continue;
        dot_rows_over(info, v, Ns, 2, Bs, v->determinism >= SL_DET_ORDER_INDEPENDENT);
    }
}

/* The two-input row kernels (rows_gpu2: dot's reproducible, and correct when built with
 * SUMLAB_DOT_CORRECT_ROWS) on ragged shapes: a warp a row up to SL_ROWS_RS_WARP_ROW_MAX values, a
 * block a row above, a few long rows by the 1-D launcher on each pair; B 2, 64 and 257. */
static void dot_rows_kernel(const sl_gpu_info *info)
{
    static const uint64_t Ns[] = {1, 31, 32, 33, 4095, 8192, 8193, 16387, 65537}, Bs[] = {2, 64, 257};
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        if (!e.gpu2 || !v->cpu2) continue;
        CHECK(e.dedicated && v->determinism >= SL_DET_ORDER_INDEPENDENT && strstr(e.bits, "not B"),
              "dot/%s: a row kernel whose rows' bits are not batch-invariant ('%s')", v->name, e.bits);
        dot_rows_over(info, v, Ns, sizeof Ns / sizeof Ns[0], Bs, 1);
    }
}

/* dot's correct rows where its first pass cannot decide (the exact pass behind it, a block a
 * listed row): rows whose products cancel to zero, sit on a rounding tie (1 + half an ulp), hold
 * an Inf or a NaN, and (float64) products that overflow or underflow float64 while the dot is
 * finite, beside random rows the first pass decides; warp rows (N 2, 33, 4096) and block rows
 * (N 8193), every format: every row equals the twin (the exact dot rounded once). */
static void dot_exact_rows(const sl_gpu_info *info)
{
    static const uint64_t Ns[] = {2, 33, 4096, 8193};
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    const sl_variant *v = sl_variant_find_op("dot", "correct");
    CHECK(v != NULL, "no dot variant 'correct'");
    if (!v) return;
    sl_rows_entries e;
    sl_rows_entries_of(v, &e);
    printf("dot_exact_rows: dot/correct by %s\n", e.gpu2 ? "its row kernel (SUMLAB_DOT_CORRECT_ROWS)"
                                                         : "the 1-D launcher on each pair");
    for (size_t di = 0; di < 4; di++) {
        const sl_dtype dt = dts[di];
        const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
        const size_t es = sl_dtype_size(dt);
        for (size_t ni = 0; ni < 4; ni++) {
            const uint64_t N = Ns[ni], B = 70;
            char *x = calloc(B * N, es), *y = calloc(B * N, es);
            double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
            if (!x || !y || !g || !c) { free(x); free(y); free(g); free(c); return; }
            for (uint64_t r = 0; r < B; r++) {
                char *xr = x + r * N * es, *yr = y + r * N * es;
                for (uint64_t i = 0; i < N; i++) sl_test_put(yr, dt, i, 1.0);
                switch (r % 7) {
                case 0:   /* cancellation: v_i and -v_i */
                    for (uint64_t i = 0; i + 1 < N; i += 2) {
                        fill_one(xr, i, dt, 0);
                        memcpy(xr + (i + 1) * es, xr + i * es, es);
                        sl_test_put(yr, dt, i + 1, -1.0);
                    }
                    break;
                case 1:   /* 1 + half an ulp of 1: a tie, to even */
                    sl_test_put(xr, dt, 0, 1.0);
                    sl_test_put(xr, dt, N - 1, ldexp(1.0, -p));
                    break;
                case 2: fill(xr, N, dt); sl_test_put(xr, dt, N / 2, INFINITY); break;
                case 3: fill(xr, N, dt); sl_test_put(xr, dt, N - 1, NAN); break;
                case 4:   /* float64: 1e300 * 1e300 - 1e300 * 1e300 + 1 */
                    if (dt == SL_F64 && N >= 3) {
                        sl_test_put(xr, dt, 0, 1e300); sl_test_put(yr, dt, 0, 1e300);
                        sl_test_put(xr, dt, 1, -1e300); sl_test_put(yr, dt, 1, 1e300);
                        sl_test_put(xr, dt, 2, 1.0);
                    } else {
                        fill(xr, N, dt);
                    }
                    break;
                case 5:   /* float64: products of 1e-400, below float64's least subnormal */
                    if (dt == SL_F64) {
                        for (uint64_t i = 0; i < N; i++) { sl_test_put(xr, dt, i, 1e-200); sl_test_put(yr, dt, i, 3e-200); }
                    } else {
                        fill(xr, N, dt);
                    }
                    break;
                default: fill(xr, N, dt); fill(yr, N, dt); break;
                }
            }
            pair_vs_twin(info, v, x, y, N, B, N, dt, g, c);
            free(x); free(y); free(g); free(c);
        }
    }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    sl_gpu_info info;
    sl_err why = {{0}};
    if (!sl_gpu_available(&info, &why)) {
        printf("trows_gpu: skipped (%s)\n", why.msg);
        return SL_TEST_SKIP;
    }
    /* SUMLAB_TEST_ROWS=dot: the two-input rows alone (a device call that checks a dot change) */
    const char *only = getenv("SUMLAB_TEST_ROWS");
    if (only && *only && strcmp(only, "dot")) {
        printf("trows_gpu: SUMLAB_TEST_ROWS='%s': the one part that can be named is 'dot'\n", only);
        return 2;
    }
    dot_rows(&info);
    dot_rows_kernel(&info);
    dot_exact_rows(&info);
    if (only && *only) return sl_test_done("trows_gpu (dot rows)");
    sacc_cert_rows();
    exact_tie_rows(&info);
    extrema_empty_parts();
    ragged_rows(&info);
    lanes_rows(&info);
    lse_rows(&info);
    static const uint64_t Bs[] = {1, 3, 100, 1024};
    static const uint64_t Ns[] = {33, 4096, 32768};
    static const sl_dtype dts[] = {SL_F32, SL_BF16};
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        const sl_operation *op = sl_op_of(v);
        if (!v->gpu || !op || op->inputs != 1) continue;
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        const int invariant = v->determinism >= SL_DET_ORDER_INDEPENDENT || e.dedicated;
        const int twin = v->cpu && v->determinism >= SL_DET_RUN_TO_RUN;
        if (!invariant && !twin) continue;
        for (size_t di = 0; di < 2; di++) {
            const sl_dtype dt = dts[di];
            if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            const size_t es = sl_dtype_size(dt);
            for (size_t ni = 0; ni < 3; ni++) {
                const uint64_t N = Ns[ni];
                /* the other operations' 1-D kernels on each row: N 33 and 4096 (their twins of
                 * batches of 32768-value rows would take most of the test) */
                if (strcmp(v->op, "sum") && !e.dedicated && N > 4096) continue;
                char *row = malloc(N * es);
                if (!row) return 1;
                fill(row, N, dt);
                double first = NAN;
                int have = 0;
                for (size_t bi = 0; bi < 4; bi++) {
                    const uint64_t B = Bs[bi];
                    /* the generic path launches per row: keep its batches small */
                    if (!e.dedicated && B > 100) continue;
                    const uint64_t pos[3] = {0, B / 2, B - 1};
                    char *x = malloc(B * N * es);
                    double *g = malloc(B * sizeof(double)), *c = malloc(B * sizeof(double));
                    if (!x || !g || !c) return 1;
                    for (int p = 0; p < 3; p++) {
                        fill(x, B * N, dt);
                        memcpy(x + pos[p] * N * es, row, N * es);
                        sl_err err = {{0}};
                        sl_launch req, cfg;   /* the device's SM count, as the twins take it */
                        memset(&req, 0, sizeof req);
                        req.sm_count = (uint32_t)info.sm_count;
                        req.ddof = 1;   /* var/std: torch.var's */
                        int rc = sl_rows_gpu_host(v, x, B, N, dt, &req, 2, g, NULL, NULL, &cfg, &err);
                        CHECK(rc == 0, "%s/%s: %s", v->op, v->name, err.msg);
                        if (rc) continue;
                        if (invariant) {
                            if (!have) { first = g[pos[p]]; have = 1; }
                            CHECK(same_bits(g[pos[p]], first), "%s/%s %s N=%llu: row at %llu of B=%llu "
                                  "gives %a, first %a", v->op, v->name, sl_dtype_name(dt), (unsigned long long)N,
                                  (unsigned long long)pos[p], (unsigned long long)B, g[pos[p]], first);
                        }
                        if (twin) {
                            rc = sl_rows_cpu(v, x, B, N, dt, &cfg, c, &err);
                            CHECK(rc == 0, "%s twin: %s", v->name, err.msg);
                            uint64_t differ = 0;
                            for (uint64_t i = 0; rc == 0 && i < B; i++) differ += !same_bits(g[i], c[i]);
                            CHECK(differ == 0, "%s/%s %s B=%llu N=%llu: %llu rows differ from the twin",
                                  v->op, v->name, sl_dtype_name(dt), (unsigned long long)B,
                                  (unsigned long long)N, (unsigned long long)differ);
                        }
                    }
                    free(x);
                    free(g);
                    free(c);
                }
                free(row);
            }
        }
    }
    return sl_test_done("trows_gpu");
}

/* trows.c: row-wise reductions on the CPU (label cpu): row i of a [B, N] input reduced by
 * sl_rows_cpu equals the 1-D twin of that row bit for bit (at the row's address modulo 256) for
 * every variant of every operation with a twin, over a sample of B in 1 .. 257 and ragged N
 * (1, 31, 32, 33, 4095, 65537), and over every B in 1 .. 257 at N 1 and 33 for the twins with
 * row code of their own (every_batch); for the order-independent variants and block-row it also equals
 * the 1-D twin of the row copied alone into an aligned buffer, and stays the same bits when the
 * row sits at another position of a batch of another size among other rows (every one-input
 * operation); the dedicated twins (reproducible, superacc, block-row; lse's reproducible; var's
 * and std's correct) lie within their bound of the operation's exact row result; the
 * order-independent sum variants have row kernels of their own (row_kernels); sl_array_rows: C and
 * Fortran order, N-D axes moved to the last place (values checked by index), errors;
 * split_plan: the split row kernels' plan (sl_rows_split) and workspace layout modelled on the
 * host: parts within bounds, every (row, part) its own region inside the workspace sized for
 * the request, every row's ticket apart from every part's data; lanes_plan: the reproducible
 * row kernels' lanes a row against their preconditions. Two-input operations (dot) the same way:
 * sl_rows_cpu_xy's row i of x and y equals the 1-D dot twin of that pair of rows (at their address;
 * the order-independent ones also alone), for every dot variant with a twin; dot_rows_inputs: y
 * missing for dot, given for a one-input variant; dot_rows_shared: one row of y with every row
 * of x (x @ y) against the 1-D twin on each pair; dot_cert_row_model: the first pass of correct
 * dot's row kernel (SUMLAB_DOT_CORRECT_ROWS) modelled on the host never decides a row wrongly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_ops.h"
#include "sl_reference.h"
#include "sl_variants.h"
#include "exact/binned.h"
#include "exact/limbs.h"
#include "rows/rows.h"
#include "sl_layout.h"
#include "extrema/extrema.h"
#include "moments_exact/moments_exact.h"
#include "moments_exact/mx_fast64.h"
#include "norm/norm.h"
#include "sumlab/half.h"
#include "sl_test_values.h"
#include "sl_twin.h"
#include "trows_ties.h"
#include "exact/pairsum.h"
#include "dot/dot.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Values of mixed sign and magnitude (2^-8 .. 2^8), exact in every format. */
static void fill(void *x, uint64_t count, sl_dtype dt)
{
    for (uint64_t i = 0; i < count; i++) {
        const uint64_t r = sl_test_rand64();
        double v = (double)(int)((r >> 40) & 0xff) / 16.0 - 7.9375;
        v = ldexp(v, (int)((r >> 8) & 7u) - 3);
        if (dt == SL_F64) ((double *)x)[i] = v;
        else if (dt == SL_F32) ((float *)x)[i] = (float)v;
        else ((uint16_t *)x)[i] = sl_half_from_double(v, dt);
    }
}

static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F64, SL_F16};

/* (B, N) pairs: B over 1 .. 257 and the ragged N, with B N kept small enough for every twin. */
typedef struct { uint64_t B, N; } shape;
static const shape shapes[] = {
    {1, 1}, {257, 1}, {2, 31}, {129, 31}, {3, 32}, {64, 32}, {7, 33}, {100, 33},
    {1, 4095}, {5, 4095}, {2, 65537}, {1, 65537},
};

/* Row i of every shape against the 1-D twin at the row's address modulo 256; order-independent
 * variants and block-row against the row alone too. */
static void rows_equal_1d(void)
{
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        if (!sl_variant_has_cpu(v)) continue;
        const int two = v->cpu2 != NULL;   /* dot: row i of x with row i of y */
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        const int alone = v->determinism >= SL_DET_ORDER_INDEPENDENT || e.dedicated;
        for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
            const sl_dtype dt = dts[di];
            if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            /* the float64 and float16 formats on a few shapes (the others on all) */
            const size_t nsh = (dt == SL_F64 || dt == SL_F16) ? 6 : sizeof shapes / sizeof shapes[0];
            for (size_t si = 0; si < nsh; si++) {
                const uint64_t B = shapes[si].B, N = shapes[si].N;
                if (v->max_n && N > v->max_n) continue;
                const size_t es = sl_dtype_size(dt);
                char *x = malloc(B * N * es), *one = malloc(N * es);
                char *y = two ? malloc(B * N * es) : NULL, *yone = two ? malloc(N * es) : NULL;
                double *res = malloc(B * sizeof(double));
                CHECK(x && one && res && (!two || (y && yone)), "out of memory");
                if (!x || !one || !res || (two && (!y || !yone))) {
                    free(x); free(one); free(y); free(yone); free(res);
                    return;
                }
                fill(x, B * N, dt);
                if (two) fill(y, B * N, dt);
                sl_err err = {{0}};
                sl_launch req;
                memset(&req, 0, sizeof req);
                req.ddof = 1;
                int rc = sl_rows_cpu_xy(v, x, y, N, B, N, dt, &req, res, &err);
                CHECK(rc == 0, "%s/%s %s B=%llu N=%llu: %s", v->op, v->name, sl_dtype_name(dt),
                      (unsigned long long)B, (unsigned long long)N, err.msg);
                /* rows 0, 1, B/2, B-1 (and every row of the small batches) */
                for (uint64_t i = 0; rc == 0 && i < B; i++) {
                    if (B > 8 && i != 0 && i != 1 && i != B / 2 && i != B - 1) continue;
                    /* the 1-D call on row i at its address: resolved with that address */
                    sl_launch c = req;
                    c.addr_mod = sl_rows_addr_mod(0, i, N, dt);
                    sl_variant_resolve(v, &c, N, dt);
                    double r1 = NAN;
                    const void *xs[2] = {x + i * N * es, two ? y + i * N * es : NULL};
                    int rc1 = sl_variant_cpu_in(v, xs, N, dt, &c, &r1, &err);
                    CHECK(rc1 == 0 && same_bits(res[i], r1), "%s/%s %s B=%llu N=%llu row %llu: "
                          "rows %a, 1-D %a", v->op, v->name, sl_dtype_name(dt), (unsigned long long)B,
                          (unsigned long long)N, (unsigned long long)i, res[i], r1);
                    if (!alone) continue;
                    memcpy(one, xs[0], N * es);
                    if (two) memcpy(yone, xs[1], N * es);
                    const void *os[2] = {one, yone};
                    c = req;
                    sl_variant_resolve(v, &c, N, dt);
                    rc1 = sl_variant_cpu_in(v, os, N, dt, &c, &r1, &err);
                    CHECK(rc1 == 0 && same_bits(res[i], r1), "%s/%s %s B=%llu N=%llu row %llu alone: "
                          "rows %a, 1-D %a", v->op, v->name, sl_dtype_name(dt), (unsigned long long)B,
                          (unsigned long long)N, (unsigned long long)i, res[i], r1);
                }
                free(x);
                free(one);
                free(y);
                free(yone);
                free(res);
            }
        }
    }
}

/* One row of y with every row of x (y_stride 0, x @ y): row i equals the 1-D dot twin of (row i
 * of x, y) at row i's address, for every dot variant with a twin. */
static void dot_rows_shared(void)
{
    static const shape sh[] = {{1, 1}, {7, 33}, {5, 4095}, {2, 65537}};
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        if (!v->cpu2) continue;
        for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
            const sl_dtype dt = dts[di];
            if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            for (size_t si = 0; si < sizeof sh / sizeof sh[0]; si++) {
                const uint64_t B = sh[si].B, N = sh[si].N;
                const size_t es = sl_dtype_size(dt);
                char *x = malloc(B * N * es), *y = malloc(N * es);
                double *res = malloc(B * sizeof(double));
                CHECK(x && y && res, "out of memory");
                if (!x || !y || !res) { free(x); free(y); free(res); return; }
                fill(x, B * N, dt);
                fill(y, N, dt);
                sl_err err = {{0}};
                int rc = sl_rows_cpu_xy(v, x, y, 0, B, N, dt, NULL, res, &err);
                CHECK(rc == 0, "dot/%s %s B=%llu N=%llu, one row of y: %s", v->name, sl_dtype_name(dt),
                      (unsigned long long)B, (unsigned long long)N, err.msg);
                for (uint64_t i = 0; rc == 0 && i < B; i++) {
                    sl_launch c;
                    memset(&c, 0, sizeof c);
                    c.addr_mod = sl_rows_addr_mod(0, i, N, dt);
                    sl_variant_resolve(v, &c, N, dt);
                    double r1 = NAN;
                    const void *xs[2] = {x + i * N * es, y};
                    CHECK(sl_variant_cpu_in(v, xs, N, dt, &c, &r1, &err) == 0 && same_bits(res[i], r1),
                          "dot/%s %s B=%llu N=%llu row %llu with one row of y: rows %a, 1-D %a", v->name,
                          sl_dtype_name(dt), (unsigned long long)B, (unsigned long long)N, (unsigned long long)i,
                          res[i], r1);
                }
                free(x);
                free(y);
                free(res);
            }
        }
    }
}

/* The two-input rows' input checks: y missing for dot, given for a one-input variant, a stride of
 * y other than n and 0. */
static void dot_rows_inputs(void)
{
    const sl_variant *d = sl_variant_find_op("dot", "correct"), *s = sl_variant_find_op("sum", "serial");
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 1, 1, 1};
    double r[2] = {0, 0};
    sl_err err = {{0}};
    CHECK(d && sl_rows_cpu_xy(d, a, NULL, 2, 2, 2, SL_F32, NULL, r, &err) == -1 && strstr(err.msg, "reads two arrays"),
          "dot rows without y: %s", err.msg);
    memset(&err, 0, sizeof err);
    CHECK(d && sl_rows_cpu(d, a, 2, 2, SL_F32, NULL, r, &err) == -1, "dot rows through sl_rows_cpu accepted");
    memset(&err, 0, sizeof err);
    CHECK(s && sl_rows_cpu_xy(s, a, b, 2, 2, 2, SL_F32, NULL, r, &err) == -1 && strstr(err.msg, "reads one array"),
          "sum rows given y: %s", err.msg);
    memset(&err, 0, sizeof err);
    CHECK(d && sl_rows_cpu_xy(d, a, b, 2, 2, 2, SL_F32, NULL, r, &err) == 0 && r[0] == 3.0 && r[1] == 7.0,
          "2 x 2 dots: %g %g (%s)", r[0], r[1], err.msg);
    float c2[2] = {1, 2};
    memset(&err, 0, sizeof err);
    CHECK(d && sl_rows_cpu_xy(d, a, c2, 0, 2, 2, SL_F32, NULL, r, &err) == 0 && r[0] == 5.0 && r[1] == 11.0,
          "2 x 2 with one row of y: %g %g (%s)", r[0], r[1], err.msg);
    memset(&err, 0, sizeof err);
    CHECK(d && sl_rows_cpu_xy(d, a, b, 1, 2, 2, SL_F32, NULL, r, &err) == -1 && strstr(err.msg, "apart"),
          "y_stride 1 of rows of 2: %s", err.msg);
}

/* Every B in 1 .. 257 at N 1 and 33 (float32, bfloat16) for the variants whose twins reduce
 * rows by code of their own (the dedicated rows entries): every row equals the 1-D twin of that
 * row at its address. */
static void every_batch(void)
{
    static const uint64_t Ns[] = {1, 33};
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        if (!v->cpu || !e.cpu) continue;
        for (size_t di = 0; di < 2; di++) {
            const sl_dtype dt = dts[di];
            if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            const size_t es = sl_dtype_size(dt);
            for (size_t ni = 0; ni < 2; ni++) {
                const uint64_t N = Ns[ni];
                char *x = malloc(257 * N * es);
                double *res = malloc(257 * sizeof(double));
                CHECK(x && res, "out of memory");
                if (!x || !res) { free(x); free(res); return; }
                fill(x, 257 * N, dt);
                uint64_t differ = 0, first = 0, runs = 0;
                for (uint64_t B = 1; B <= 257; B++) {
                    sl_err err = {{0}};
                    sl_launch req;
                    memset(&req, 0, sizeof req);
                    req.ddof = 1;
                    if (sl_rows_cpu(v, x, B, N, dt, &req, res, &err)) {
                        CHECK(0, "%s/%s %s B=%llu N=%llu: %s", v->op, v->name, sl_dtype_name(dt),
                              (unsigned long long)B, (unsigned long long)N, err.msg);
                        break;
                    }
                    runs++;
                    for (uint64_t i = 0; i < B; i++) {
                        sl_launch c = req;
                        c.addr_mod = sl_rows_addr_mod(0, i, N, dt);
                        sl_variant_resolve(v, &c, N, dt);
                        double r1 = NAN;
                        if (sl_variant_cpu(v, x + i * N * es, N, dt, &c, &r1, &err) || !same_bits(res[i], r1))
                            if (differ++ == 0) first = B * 1000u + i;
                    }
                }
                CHECK(runs == 257 && differ == 0, "%s/%s %s N=%llu, B 1..257: %llu rows differ from the 1-D "
                      "twin (first: B=%llu row %llu)", v->op, v->name, sl_dtype_name(dt), (unsigned long long)N,
                      (unsigned long long)differ, (unsigned long long)(first / 1000u),
                      (unsigned long long)(first % 1000u));
                free(x);
                free(res);
            }
        }
    }
}

/* The same row at positions 0, B/2 and B-1 of batches of several sizes (other rows random):
 * one bit pattern for the order-independent variants and the dedicated twins of every one-input
 * operation (block-row's too); the dedicated twins within their bound of the operation's exact
 * result. */
static void batch_invariance(void)
{
    static const uint64_t Bs[] = {1, 2, 3, 31, 100};
    static const uint64_t Ns[] = {33, 4095, 32768};
    const sl_op_params opp = sl_op_params_default();
    for (size_t vi = 0; vi < sl_variant_count(); vi++) {
        const sl_variant *v = sl_variant_at(vi);
        const sl_operation *op = sl_op_of(v);
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        if (!v->cpu || !op || op->inputs != 1) continue;
        if (!(v->determinism >= SL_DET_ORDER_INDEPENDENT || e.dedicated)) continue;
        for (size_t di = 0; di < 2; di++) {
            const sl_dtype dt = dts[di];
            if (!(v->dtypes & SL_DTYPE_MASK(dt))) continue;
            const size_t es = sl_dtype_size(dt);
            /* the sum's variants at every N; the other operations' up to 4095 (their twins are
             * the slower part of the test) */
            const size_t nn = strcmp(v->op, "sum") ? 2 : sizeof Ns / sizeof Ns[0];
            for (size_t ni = 0; ni < nn; ni++) {
                const uint64_t N = Ns[ni];
                char *row = malloc(N * es);
                CHECK(row != NULL, "out of memory");
                if (!row) return;
                fill(row, N, dt);
                double first = NAN;
                int have = 0;
                for (size_t bi = 0; bi < sizeof Bs / sizeof Bs[0]; bi++) {
                    const uint64_t B = Bs[bi];
                    const uint64_t pos[3] = {0, B / 2, B - 1};
                    char *x = malloc(B * N * es);
                    double *res = malloc(B * sizeof(double));
                    CHECK(x && res, "out of memory");
                    if (!x || !res) { free(x); free(res); free(row); return; }
                    for (int p = 0; p < 3; p++) {
                        fill(x, B * N, dt);
                        memcpy(x + pos[p] * N * es, row, N * es);
                        sl_err err = {{0}};
                        sl_launch req;   /* var/std: the reference's ddof */
                        memset(&req, 0, sizeof req);
                        req.ddof = opp.ddof;
                        int rc = sl_rows_cpu(v, x, B, N, dt, &req, res, &err);
                        CHECK(rc == 0, "%s/%s: %s", v->op, v->name, err.msg);
                        if (rc) continue;
                        if (!have) { first = res[pos[p]]; have = 1; }
                        CHECK(same_bits(res[pos[p]], first), "%s/%s %s N=%llu: row at %llu of B=%llu "
                              "gives %a, first %a", v->op, v->name, sl_dtype_name(dt), (unsigned long long)N,
                              (unsigned long long)pos[p], (unsigned long long)B, res[pos[p]], first);
                    }
                    free(x);
                    free(res);
                }
                /* the dedicated twins within their bound of the exact result */
                if (e.dedicated && have) {
                    sl_reference ref;
                    sl_err err = {{0}};
                    const void *const in[1] = {row};
                    int rc = op->reference(&ref, in, N, dt, &opp, 1, &err);
                    CHECK(rc == 0, "%s reference: %s", v->op, err.msg);
                    if (rc == 0) {
                        sl_launch c;
                        memset(&c, 0, sizeof c);
                        c.ddof = opp.ddof;
                        sl_variant_resolve(v, &c, N, dt);
                        const double b = sl_variant_bound(v, &ref, N, dt, &c);
                        CHECK(!sl_bound_violated(&ref, fabs(first - ref.rounded_f64), b),
                              "%s/%s %s N=%llu: |%a - %a| > bound %g", v->op, v->name,
                              sl_dtype_name(dt), (unsigned long long)N, first, ref.rounded_f64, b);
                    }
                    sl_reference_clear(&ref);
                }
                free(row);
            }
        }
    }
}

/* sl_array_rows on shapes built by hand: value (idx...) = the C-order flat index of idx. */
static void array_rows(void)
{
    sl_array_info info;
    memset(&info, 0, sizeof info);
    info.ndim = 3;
    info.shape[0] = 2;
    info.shape[1] = 3;
    info.shape[2] = 5;
    info.n = 30;
    for (int fortran = 0; fortran < 2; fortran++) {
        info.fortran_order = fortran;
        for (long axis = -3; axis < 3; axis++) {
            float *x = malloc(30 * sizeof(float));
            CHECK(x != NULL, "out of memory");
            if (!x) return;
            /* memory position of logical (i, j, k) */
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 3; j++)
                    for (int k = 0; k < 5; k++) {
                        const int mem = fortran ? i + 2 * (j + 3 * k) : (i * 3 + j) * 5 + k;
                        x[mem] = (float)((i * 3 + j) * 5 + k);
                    }
            void *data = x;
            uint64_t rows = 0, n = 0;
            int moved = -1;
            sl_err err = {{0}};
            int rc = sl_array_rows(&info, SL_F32, axis, &data, &rows, &n, &moved, &err);
            CHECK(rc == 0, "axis %ld: %s", axis, err.msg);
            const int a = axis < 0 ? (int)axis + 3 : (int)axis;
            CHECK(n == info.shape[a] && rows * n == 30, "axis %ld: %llu x %llu", axis,
                  (unsigned long long)rows, (unsigned long long)n);
            CHECK(moved == (fortran || a != 2), "axis %ld fortran %d: moved %d", axis, fortran, moved);
            const float *y = data;
            /* row r: the other two axes in C order; element t along axis a */
            int bad = 0;
            for (uint64_t r = 0; rc == 0 && r < rows; r++)
                for (uint64_t t = 0; t < n; t++) {
                    int idx[3], o[2], m = 0;
                    for (int d = 0; d < 3; d++)
                        if (d != a) o[m++] = d;
                    idx[o[0]] = (int)(r / info.shape[o[1]]);
                    idx[o[1]] = (int)(r % info.shape[o[1]]);
                    idx[a] = (int)t;
                    const float want = (float)((idx[0] * 3 + idx[1]) * 5 + idx[2]);
                    if (y[r * n + t] != want) bad++;
                }
            CHECK(bad == 0, "axis %ld fortran %d: %d values misplaced", axis, fortran, bad);
            free(data);
        }
    }
    /* errors: out of range, a 1-d array with axis 1, an axis of length 0, no rows */
    float one[4] = {1, 2, 3, 4};
    void *data = one;
    uint64_t rows, n;
    int moved;
    sl_err err = {{0}};
    info.fortran_order = 0;
    CHECK(sl_array_rows(&info, SL_F32, 3, &data, &rows, &n, &moved, &err) == -1 &&
          strstr(err.msg, "out of range"), "axis 3 of a 3-d array: %s", err.msg);
    CHECK(sl_array_rows(&info, SL_F32, -4, &data, &rows, &n, &moved, &err) == -1,
          "axis -4 of a 3-d array accepted");
    sl_array_info one_d;
    memset(&one_d, 0, sizeof one_d);
    one_d.ndim = 1;
    one_d.shape[0] = 4;
    one_d.n = 4;
    CHECK(sl_array_rows(&one_d, SL_F32, 1, &data, &rows, &n, &moved, &err) == -1,
          "axis 1 of a 1-d array accepted");
    CHECK(sl_array_rows(&one_d, SL_F32, -1, &data, &rows, &n, &moved, &err) == 0 && rows == 1 && n == 4 &&
          data == (void *)one, "axis -1 of a 1-d array: %s", err.msg);
    info.shape[2] = 0;
    info.n = 0;
    CHECK(sl_array_rows(&info, SL_F32, -1, &data, &rows, &n, &moved, &err) == -1 &&
          strstr(err.msg, "length 0"), "a zero-length axis: %s", err.msg);
    CHECK(sl_array_rows(&info, SL_F32, 0, &data, &rows, &n, &moved, &err) == -1 &&
          strstr(err.msg, "no rows"), "no rows: %s", err.msg);
}

/* reproducible and superacc (correctly rounded), and lse's reproducible, reduce rows by row
 * kernels of their own, whose
 * bits are the row's alone; superacc's rows have workspace for a split of every row (float32,
 * 16-bit) and the 1-D launcher's (float64, each row by the 1-D kernel). */
static void row_kernels(void)
{
    /* the split: none for many rows, long rows in parts of about 2^17 values, few rows over
     * four blocks per SM, never a part under 8192 values, never above the cap */
    CHECK(sl_rows_split(4096, 32768, 132, 1024) == 1u, "4096 x 32768: split %u",
          sl_rows_split(4096, 32768, 132, 1024));
    CHECK(sl_rows_split(4096, 1u << 22, 132, 1024) == 32u, "4096 x 2^22: split %u",
          sl_rows_split(4096, 1u << 22, 132, 1024));
    CHECK(sl_rows_split(2, 1u << 20, 132, 1024) == 128u, "2 x 2^20: split %u",
          sl_rows_split(2, 1u << 20, 132, 1024));
    CHECK(sl_rows_split(2, 1u << 20, 132, 64) == 64u, "2 x 2^20, cap 64: split %u",
          sl_rows_split(2, 1u << 20, 132, 64));
    CHECK(sl_rows_split(1, 8191, 132, 1024) == 1u, "1 x 8191: split %u", sl_rows_split(1, 8191, 132, 1024));
    static const char *const names[] = {"reproducible", "superacc", "reproducible"};
    static const char *const ops[] = {"sum", "sum", "lse"};
    for (size_t k = 0; k < 3; k++) {
        const sl_variant *v = sl_variant_find_op(ops[k], names[k]);
        CHECK(v != NULL, "no sum variant '%s'", names[k]);
        if (!v) continue;
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        CHECK(e.dedicated && e.cpu != NULL, "%s: no row entries of its own", v->name);
        CHECK(strstr(e.bits, "not B") != NULL, "%s: row bits '%s'", v->name, e.bits);
        if (!strcmp(ops[k], "lse")) continue;
        if (!strcmp(names[k], "reproducible")) {
            /* one long row is split: a ticket and a binned state per part */
            sl_launch c;
            memset(&c, 0, sizeof c);
            c.sm_count = 132;
            const unsigned S = sl_rows_split(1, 65537, 132, SL_ROWS_RS_SPLIT_MAX);
            CHECK(S == 8u, "split of one row of 65537 on 132 SMs: %u (one part per 8192 values)", S);
            CHECK(sl_rows_workspace(v, 1, 65537, SL_F32, &c) >= 16u + 8u * 16u,
                  "reproducible's split row: workspace %zu", sl_rows_workspace(v, 1, 65537, SL_F32, &c));
            CHECK(sl_rows_workspace(v, 4096, 4096, SL_F32, &c) == 0, "reproducible's warp rows need no workspace");
            continue;
        }
        CHECK(sl_rows_workspace(v, 1000, 65537, SL_F32, NULL) == 1000u * SL_ROWS_SACC_WS,
              "superacc rows' float32 workspace %zu", sl_rows_workspace(v, 1000, 65537, SL_F32, NULL));
        sl_launch c;
        memset(&c, 0, sizeof c);
        sl_variant_resolve(v, &c, 4096, SL_F64);
        /* float64: the certified pass's list (16 + 4 rows bytes, rounded up to 256), then the
         * 1-D launcher's scratch (rows too few for the certified pass) */
        CHECK(SL_ROWS_SACC_F64_LIST(1000) == 4096u && SL_ROWS_SACC_F64_LIST(1) == 256u,
              "superacc rows' float64 list: %llu bytes for 1000 rows", (unsigned long long)SL_ROWS_SACC_F64_LIST(1000));
        CHECK(sl_rows_workspace(v, 1000, 4096, SL_F64, NULL) == 4096u + sl_variant_workspace(v, 4096, SL_F64, &c),
              "superacc rows' float64 workspace %zu", sl_rows_workspace(v, 1000, 4096, SL_F64, NULL));
    }
}

/* block-row on a row of 2^18 values and more: its parts of 2^17 values reduced alone (as 1-D
 * block-row calls: float32 values, no rounding after the tree) added left to right in float32. */
static void block_row_split(void)
{
    const sl_variant *v = sl_variant_find_op("sum", "block-row");
    CHECK(v != NULL, "no block-row");
    if (!v) return;
    const uint64_t n = (1u << 18) + 1001u, P = SL_ROWS_BR_PART;
    CHECK(sl_rows_br_parts(n) == 3u && sl_rows_br_parts((1u << 18) - 1u) == 1u, "parts %u, %u",
          sl_rows_br_parts(n), sl_rows_br_parts((1u << 18) - 1u));
    float *x = malloc(n * sizeof(float));
    CHECK(x != NULL, "out of memory");
    if (!x) return;
    for (uint64_t i = 0; i < n; i++) {   /* wide magnitudes: the tree's rounding shows */
        const uint64_t r = sl_test_rand64();
        x[i] = (float)ldexp((double)(int32_t)(r >> 32) / 2147483648.0, (int)((r >> 8) & 31u) - 15);
    }
    sl_err err = {{0}};
    sl_launch c;
    memset(&c, 0, sizeof c);
    sl_variant_resolve(v, &c, n, SL_F32);
    double whole = NAN, part[3] = {NAN, NAN, NAN};
    int rc = sl_variant_cpu(v, x, n, SL_F32, &c, &whole, &err);
    for (int p = 0; p < 3 && rc == 0; p++) {
        const uint64_t len = p < 2 ? P : n - 2 * P;
        memset(&c, 0, sizeof c);
        sl_variant_resolve(v, &c, len, SL_F32);
        rc = sl_variant_cpu(v, x + p * P, len, SL_F32, &c, &part[p], &err);
    }
    CHECK(rc == 0, "block-row: %s", err.msg);
    const float want = ((float)part[0] + (float)part[1]) + (float)part[2];
    CHECK(rc == 0 && same_bits(whole, (double)want), "block-row of %llu values: %a, its parts "
          "added left to right %a", (unsigned long long)n, whole, (double)want);
    /* in rows: the same bits at every position of a batch */
    float *xb = malloc(3 * n * sizeof(float));
    double res[3];
    CHECK(xb != NULL, "out of memory");
    if (xb) {
        for (int k = 0; k < 3; k++) memcpy(xb + k * n, x, n * sizeof(float));
        rc = sl_rows_cpu(v, xb, 3, n, SL_F32, NULL, res, &err);
        CHECK(rc == 0, "block-row rows: %s", err.msg);
        for (int k = 0; rc == 0 && k < 3; k++)
            CHECK(same_bits(res[k], whole), "block-row row %d of 3: %a, 1-D %a", k, res[k], whole);
    }
    free(xb);
    free(x);
}

/* The split plan and the workspace layout of rows.cu's split kernels, as their launchers compute
 * them: reproducible (rs_rows_kernel: the rows' 4-byte tickets, rounded up to 16 bytes, then
 * state slot w = r S + p), superacc (sa_rows_kernel: row r's ticket, flags and limbs at
 * r SL_ROWS_SACC_WS). For each request the workspace sl_rows_workspace sizes must hold every
 * region, and the regions must not overlap (checked by marking every byte once). */
static void split_plan(void)
{
    static const uint64_t Rs[] = {1, 2, 3, 7, 64, 129, 257, 1000};
    static const uint64_t Ns[] = {8193, 16384, 65537, (1u << 17) + 5u, (1u << 20) + 3u, 1u << 24};
    static const uint32_t sms[] = {0, 1, 132, 4096};
    const sl_variant *rs = sl_variant_find_op("sum", "reproducible");
    const sl_variant *sa = sl_variant_find_op("sum", "superacc");
    CHECK(rs != NULL && sa != NULL, "no reproducible or superacc");
    if (!rs || !sa) return;
    CHECK(sl_rows_split(0, 65537, 132, 64) >= 1u && sl_rows_split(1, 8191, 4096, 1024) == 1u,
          "split of no rows %u, of a row of 8191 values %u", sl_rows_split(0, 65537, 132, 64),
          sl_rows_split(1, 8191, 4096, 1024));
    for (size_t ri = 0; ri < sizeof Rs / sizeof Rs[0]; ri++)
        for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++)
            for (size_t si = 0; si < sizeof sms / sizeof sms[0]; si++) {
                const uint64_t B = Rs[ri], N = Ns[ni];
                sl_launch req, cfg;
                memset(&req, 0, sizeof req);
                req.sm_count = sms[si];
                for (int which = 0; which < 2; which++) {
                    const sl_variant *v = which ? sa : rs;
                    const unsigned max = which ? SL_ROWS_SACC_SPLIT_MAX : SL_ROWS_RS_SPLIT_MAX;
                    sl_rows_cfg(v, &req, 0, N, SL_F32, &cfg);   /* as sl_rows_gpu resolves it */
                    const unsigned S = sl_rows_split(B, N, cfg.sm_count, max);
                    const uint64_t cap = N / 8192u > 1u ? N / 8192u : 1u;
                    CHECK(S >= 1u && S <= max && S <= cap, "%s B=%llu N=%llu sm_count %u: %u parts "
                          "(at most %u and %llu)", v->name, (unsigned long long)B,
                          (unsigned long long)N, cfg.sm_count, S, max, (unsigned long long)cap);
                    /* enough blocks for the SMs when the rows are few, within the caps */
                    const uint64_t want = (4u * (uint64_t)cfg.sm_count + B - 1) / B;
                    const uint64_t floor_ = want < cap ? (want < max ? want : max) : (cap < max ? cap : max);
                    CHECK(S >= floor_, "%s B=%llu N=%llu: %u parts for %u SMs", v->name,
                          (unsigned long long)B, (unsigned long long)N, S, cfg.sm_count);
                    if (S == 1u && which == 0) continue;   /* reproducible: no workspace */
                    const size_t wb = sl_rows_workspace(v, B, N, SL_F32, &req);
                    unsigned char *mark = calloc(wb ? wb : 1, 1);
                    CHECK(mark != NULL, "out of memory");
                    if (!mark) return;
                    uint64_t bad = 0, outside = 0;
                    /* every region marked once: [off, off + len) must lie inside and be unmarked */
#define MARK(off, len)                                                                       \
    do {                                                                                     \
        const uint64_t o_ = (off), l_ = (len);                                               \
        if (o_ + l_ > wb) outside++;                                                          \
        else for (uint64_t b_ = o_; b_ < o_ + l_; b_++) bad += mark[b_]++ != 0;              \
    } while (0)
                    if (which == 0) {
                        const uint64_t slots = (B * 4u + 15u) / 16u * 16u;
                        for (uint64_t r = 0; r < B; r++) MARK(r * 4u, 4u);
                        for (uint64_t w = 0; w < B * S; w++)
                            MARK(slots + w * sizeof(sl_rsum_state), sizeof(sl_rsum_state));
                    } else {
                        for (uint64_t r = 0; r < B; r++) {
                            MARK(r * SL_ROWS_SACC_WS, 4u);                     /* ticket */
                            MARK(r * SL_ROWS_SACC_WS + 4u, 4u);                /* flags */
                            MARK(r * SL_ROWS_SACC_WS + 16u, 8u * SL_SACC_LIMBS_F32);
                        }
                    }
#undef MARK
                    CHECK(outside == 0 && bad == 0, "%s B=%llu N=%llu sm_count %u, %u parts: %llu "
                          "regions outside the %zu bytes of workspace, %llu bytes shared", v->name,
                          (unsigned long long)B, (unsigned long long)N, cfg.sm_count, S,
                          (unsigned long long)outside, wb, (unsigned long long)bad);
                    free(mark);
                }
            }
}

/* The reproducible sum's lanes a row (sl_rows_rs_lanes), the row kernels' preconditions over
 * rows, lengths, formats and SM counts: 8, 16 or 32 lanes or none (a block or several); fewer
 * than 32 only for rows of whole 16-byte vectors (every row of a warp then has the same head, and
 * the warp the same loop trips: rows.cu's grouped kernel relies on it) and at most 512 values a
 * lane; none only above SL_ROWS_RS_WARP_ROW_MAX values; a warp path needs no workspace
 * (sl_rows_workspace 0), as the kernel launched without one. The same for `correct`
 * mean/var/std's lanes (sl_rows_mx_lanes): 8 or 16 only for 16-bit rows of whole vectors and at
 * most SL_ROWS_MX_LANES_ROW_MAX values, a warp on rows longer than SL_ROWS_MX_WARP_ROW_MAX only
 * for 16-bit rows of at most SL_ROWS_RS_WARP_ROW_MANY values, none only above
 * SL_ROWS_MX_WARP_ROW_MAX; float32 and float64 rows a warp up to it, a block above. */
static void lanes_plan(void)
{
    static const uint64_t Rs[] = {1, 7, 33, 100, 1000, 4224, 5000, 40000};
    static const uint32_t sms[] = {0, 1, 132, 4096};
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    const sl_variant *rs = sl_variant_find_op("sum", "reproducible");
    CHECK(rs != NULL, "no reproducible");
    if (!rs) return;
    uint64_t bad = 0, grouped = 0, cases = 0, mx_bad = 0, mx_grouped = 0, mx_long = 0;
    for (size_t di = 0; di < 4; di++)
        for (size_t ri = 0; ri < sizeof Rs / sizeof Rs[0]; ri++)
            for (size_t si = 0; si < sizeof sms / sizeof sms[0]; si++)
                for (uint64_t N = 1; N <= 40000; N += N < 64 ? 1 : N < 9000 ? 61 : 997) {
                    const size_t es = sl_dtype_size(dts[di]);
                    const unsigned l = sl_rows_rs_lanes(Rs[ri], N, es, sms[si]);
                    const int ok = (l == 0u || l == 8u || l == 16u || l == 32u) &&
                                   (l == 32u || l == 0u || ((N * es) % 16u == 0u && N <= 512u * l)) &&
                                   (l != 0u || N > SL_ROWS_RS_WARP_ROW_MAX);
                    sl_launch req;
                    memset(&req, 0, sizeof req);
                    req.sm_count = sms[si];
                    const size_t wb = l ? sl_rows_workspace(rs, Rs[ri], N, dts[di], &req) : 0u;
                    if (!ok || wb) {
                        if (bad++ < 5)
                            CHECK(0, "%s B=%llu N=%llu sm_count %u: %u lanes a row, workspace %zu",
                                  sl_dtype_name(dts[di]), (unsigned long long)Rs[ri],
                                  (unsigned long long)N, sms[si], l, wb);
                    }
                    grouped += l == 8u || l == 16u;
                    cases++;
                    const unsigned m = sl_rows_mx_lanes(Rs[ri], N, es, sms[si]);
                    const int h16 = es == 2u, vec = (N * es) % 16u == 0u;
                    const int mx_ok = !h16 ? m == (N <= SL_ROWS_MX_WARP_ROW_MAX ? 32u : 0u)
                                    : (m == 8u || m == 16u) ? vec && N <= SL_ROWS_MX_LANES_ROW_MAX
                                    : m == 32u ? N <= SL_ROWS_RS_WARP_ROW_MANY
                                    : m == 0u && N > SL_ROWS_MX_WARP_ROW_MAX;
                    if (!mx_ok && mx_bad++ < 5)
                        CHECK(0, "mean/var rows %s B=%llu N=%llu sm_count %u: %u lanes a row",
                              sl_dtype_name(dts[di]), (unsigned long long)Rs[ri], (unsigned long long)N,
                              sms[si], m);
                    mx_grouped += m == 8u || m == 16u;
                    mx_long += m == 32u && N > SL_ROWS_MX_WARP_ROW_MAX;
                }
    CHECK(bad == 0, "%llu of %llu plans break a row kernel's precondition", (unsigned long long)bad,
          (unsigned long long)cases);
    CHECK(grouped > 0 && grouped < cases, "grouped rows in %llu of %llu plans", (unsigned long long)grouped,
          (unsigned long long)cases);
    CHECK(mx_bad == 0, "%llu of %llu mean/var row plans break a row kernel's precondition",
          (unsigned long long)mx_bad, (unsigned long long)cases);
    CHECK(mx_grouped > 0 && mx_long > 0, "mean/var rows: %llu plans grouped, %llu long rows a warp",
          (unsigned long long)mx_grouped, (unsigned long long)mx_long);
}

/* max/min's split of few long rows (extrema.h's sl_ex_rows_split): S = 1 for short rows and for
 * rows that fill the GPU; else enough blocks for 4 an SM, at most one per 2^14 values; the
 * workspace (sl_rows_workspace) holds the rows' counters and, from the next multiple of 8 bytes,
 * their S parts of 8 bytes, every region inside it and none shared (extrema.cu's layout). */
static void extrema_split_plan(void)
{
    static const uint64_t Rs[] = {1, 2, 3, 7, 64, 129, 527, 528, 1000};
    static const uint64_t Ns[] = {4096, 65535, 65536, (1u << 17) + 5u, (1u << 20) + 3u, 1u << 24};
    static const uint32_t sms[] = {0, 1, 132, 4096};
    const sl_variant *v = sl_variant_find_op("max", "block-reduce");
    CHECK(v != NULL, "no max block-reduce");
    if (!v) return;
    for (size_t ri = 0; ri < sizeof Rs / sizeof Rs[0]; ri++)
        for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++)
            for (size_t si = 0; si < sizeof sms / sizeof sms[0]; si++) {
                const uint64_t B = Rs[ri], N = Ns[ni];
                const uint64_t sm = sms[si] ? sms[si] : SL_DEFAULT_SM_COUNT;
                const uint32_t S = sl_ex_rows_split(B, N, sms[si]);
                const int few_long = N >= 65536u && B < 4u * sm;
                const uint64_t want = (4u * sm + B - 1) / B, cap = N >> 14;
                const uint64_t floor_ = want < cap ? want : cap;
                CHECK(few_long ? S >= 1u && S <= cap && (S == floor_ || (floor_ <= 1u && S == 1u)) : S == 1u,
                      "max rows B=%llu N=%llu sm_count %u: %u blocks a row", (unsigned long long)B,
                      (unsigned long long)N, sms[si], S);
                CHECK(B * S < 8u * sm + B, "max rows B=%llu: %u blocks a row for %llu SMs", (unsigned long long)B, S,
                      (unsigned long long)sm);
                sl_launch req;
                memset(&req, 0, sizeof req);
                req.sm_count = sms[si];
                const size_t wb = sl_rows_workspace(v, B, N, SL_F32, &req);
                if (S == 1u) {
                    CHECK(wb == 0, "max rows B=%llu N=%llu unsplit: %zu bytes of workspace", (unsigned long long)B,
                          (unsigned long long)N, wb);
                    continue;
                }
                const uint64_t parts = (B * 4u + 7u) / 8u * 8u;
                CHECK(parts + B * S * 8u <= wb && B * 4u <= parts,
                      "max rows B=%llu N=%llu S=%u: %llu bytes of counters and parts, %zu of workspace",
                      (unsigned long long)B, (unsigned long long)N, S, (unsigned long long)(parts + B * S * 8u), wb);
            }
}

/* Few long rows (sl_layout.h's sl_rows_few_long: fewer than four an SM, 2^16 values or more)
 * take the 1-D launcher on each row in the one-block-a-row entries (norm2 `correct`, mean/var/std
 * `correct` and `reproducible`): their workspace is then the 1-D call's (row 0's resolved launch,
 * which every row's launch inherits), otherwise the row kernels' own; max/min's split agrees on
 * which rows are few and long. */
static void few_long_rows(void)
{
    static const char *const ops[][2] = {{"norm2", "correct"}, {"mean", "correct"}, {"var", "correct"},
                                         {"std", "correct"}, {"mean", "reproducible"},
                                         {"var", "reproducible"}, {"std", "reproducible"}};
    static const uint64_t Rs[] = {1, 3, 527, 528, 4096};
    static const uint64_t Ns[] = {4096, 65535, 65536, (1u << 17) + 5u};
    static const uint32_t sms[] = {0, 132, 16};
    for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
        const sl_variant *v = sl_variant_find_op(ops[oi][0], ops[oi][1]);
        CHECK(v != NULL, "%s %s registered", ops[oi][1], ops[oi][0]);
        if (!v) continue;
        for (size_t ri = 0; ri < sizeof Rs / sizeof Rs[0]; ri++)
            for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++)
                for (size_t si = 0; si < sizeof sms / sizeof sms[0]; si++) {
                    const uint64_t B = Rs[ri], N = Ns[ni];
                    const uint64_t sm = sms[si] ? sms[si] : SL_DEFAULT_SM_COUNT;
                    const int few = sl_rows_few_long(B, N, sms[si]);
                    CHECK(few == (N >= 65536u && B < 4u * sm), "few_long(B=%llu, N=%llu, sm_count %u) = %d",
                          (unsigned long long)B, (unsigned long long)N, sms[si], few);
                    CHECK((sl_ex_rows_split(B, N, sms[si]) > 1u) == few, "max's split and few_long disagree "
                          "at B=%llu N=%llu sm_count %u", (unsigned long long)B, (unsigned long long)N, sms[si]);
                    sl_launch req, c;
                    memset(&req, 0, sizeof req);
                    req.sm_count = sms[si];
                    sl_rows_cfg(v, &req, 0, N, SL_F32, &c);
                    const size_t wb = sl_rows_workspace(v, B, N, SL_F32, &req);
                    const int repro = !strcmp(ops[oi][1], "reproducible");
                    const size_t own = repro ? 0u
                                       : !strcmp(ops[oi][0], "norm2") ? SL_NRM_ROWS_WS_BYTES(B)
                                                                      : SL_MX_ROWS_WS_BYTES(B);
                    const size_t want = few ? sl_variant_workspace(v, N, SL_F32, &c) : own;
                    CHECK(wb == want && (!few || !v->workspace || want > 0u), "%s %s rows B=%llu N=%llu sm_count %u: workspace "
                          "%zu, expected %zu (%s)", ops[oi][1], ops[oi][0], (unsigned long long)B,
                          (unsigned long long)N, sms[si], wb, want, few ? "the 1-D call's" : "the row kernels'");
                }
    }
}

/* The exact tie rows of trows_ties.h (trows_gpu's test of the rows' exact fallbacks): the twins
 * give each tie's even neighbour, in a batch among ordinary rows; norm2's row decision
 * (norm.h's sl_nrm_row_decide, on the float64 sum of squares in index order) and the float64
 * variance's and mean's cheap pass (mx_fast64.h, the host form of the row kernels' pairs) leave
 * each undecided, so on the GPU the exact kernel behind the row kernels must round it. */
static void tie_rows(void)
{
    static const sl_dtype dts[] = {SL_F32, SL_BF16, SL_F16, SL_F64};
    static const uint64_t Ns[] = {32, 4096};
    for (int k = 0; k < TIE_KINDS; k++) {
        const sl_variant *v = sl_variant_find_op(tie_op[k], "correct");
        CHECK(v != NULL, "%s correct registered", tie_op[k]);
        if (!v) continue;
        for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++)
            for (size_t ni = 0; ni < 2; ni++) {
                const sl_dtype dt = dts[di];
                const uint64_t N = Ns[ni], B = 5;
                const size_t es = sl_dtype_size(dt);
                unsigned char *x = malloc(B * N * es);
                double res[5];
                if (!x) { CHECK(0, "out of memory"); return; }
                for (uint64_t i = 0; i < B * N; i++)
                    sl_test_put(x, dt, i, ldexp(sl_test_gauss(), (int)(sl_test_rand64() % 5u)));
                const double want = tie_row(x + 2 * N * es, N, dt, k);
                sl_launch req;
                memset(&req, 0, sizeof req);
                req.ddof = 0;
                sl_err err = {{0}};
                CHECK(sl_rows_cpu(v, x, B, N, dt, &req, res, &err) == 0, "%s rows: %s", v->name, err.msg);
                CHECK(res[2] == want, "%s %s tie row N=%llu: %a, expected the even neighbour %a", tie_op[k],
                      sl_dtype_name(dt), (unsigned long long)N, res[2], want);
                if (k == TIE_VAR && dt == SL_F64) {
                    double r = 0.0;
                    CHECK(!sl_mxd_certify_host(SL_MX_VAR, (const double *)(x + 2 * N * es), N, 0, &r),
                          "var f64 tie row N=%llu: the cheap pass decided %a", (unsigned long long)N, r);
                }
                if (k == TIE_MEAN && dt == SL_F64) {
                    const double *row = (const double *)(x + 2 * N * es);
                    sl_mxd_acc a;
                    double r = 0.0;
                    const uint64_t h = sl_mxd_sums_host(row, N, &a);
                    CHECK(!sl_mxd_mean_decide(&a, row[0], N, h, &r), "mean f64 tie row N=%llu: the cheap "
                          "pass decided %a", (unsigned long long)N, r);
                }
                if (k == TIE_NORM2 && dt != SL_F64) {
                    double s2 = 0.0, r = 0.0;
                    for (uint64_t i = 0; i < N; i++) {
                        const double t = sl_tw_load(x + 2 * N * es, dt, i);
                        s2 += t * t;
                    }
                    CHECK(!sl_nrm_row_decide(s2, sl_nrm_row_chain(N, 32u), 0, dt, &r),
                          "norm2 %s tie row N=%llu: the row decision decided %a", sl_dtype_name(dt),
                          (unsigned long long)N, r);
                }
                free(x);
            }
    }
}

/* The model of correct dot's row kernel's first pass (dot.cu's dot_cert_rows_kernel, built with
 * SUMLAB_DOT_CORRECT_ROWS): T threads on a row (32 up to SL_ROWS_RS_WARP_ROW_MAX values, 256
 * above), thread t taking the row's edge values t, t + T, ... and its 16-byte vectors t, t + T, ...
 * (the row's own split at its address) into exact/pairsum.h's pair, the warp's (and the block's)
 * tree, the box's ends rounded with the chain sl_psum_chain(nv, W, T, 1, T). Over rows that sit on
 * or next to a rounding tie, cancel exactly or nearly, or hold random values, in every format and
 * at row addresses of every alignment: whenever the model decides, its value is the correct
 * twin's (the exact dot rounded once); the rows that cancel to zero or sit on a tie are never
 * decided, and at least half the random rows whose dot is finite in the format are (their values
 * have few bits, so some of their dots sit on a tie). */
static void dot_cert_row_model(void)
{
    static const uint64_t Ns[] = {3, 33, 4099, 8193, 20011};
    const sl_variant *v = sl_variant_find_op("dot", "correct");
    CHECK(v != NULL && v->cpu2 != NULL, "no dot variant 'correct' with a twin");
    if (!v || !v->cpu2) return;
    sl_psum_acc *thr = malloc(256 * sizeof *thr);
    if (!thr) return;
    for (size_t di = 0; di < 4; di++) {
        const sl_dtype dt = dts[di];
        const size_t es = sl_dtype_size(dt);
        const uint32_t W = sl_vec_width(dt);
        const int p = dt == SL_F64 ? 53 : dt == SL_F32 ? 24 : dt == SL_F16 ? 11 : 8;
        unsigned decided = 0, random_rows = 0, random_decided = 0, wrong = 0, bad_undecided = 0;
        for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++) {
            const uint64_t N = Ns[ni];
            const uint32_t T = N <= SL_ROWS_RS_WARP_ROW_MAX ? 32u : 256u;
            char *x = malloc((N + 8) * es), *y = malloc((N + 8) * es);
            if (!x || !y) { free(x); free(y); break; }
            for (int kind = 0; kind < 6; kind++)
                for (uint32_t off = 0; off < 16u / es; off++) {   /* the row's address modulo 16 */
                    char *xr = x + off * es, *yr = y + off * es;
                    fill(xr, N, dt);
                    fill(yr, N, dt);
                    if (kind == 1 || kind == 2) {   /* 1 + half an ulp of 1 (a tie), or just above it */
                        memset(xr, 0, N * es);
                        memset(yr, 0, N * es);
                        const double one = 1.0, half = ldexp(1.0, -p), tiny = ldexp(1.0, -p - 20);
                        const double xs[3] = {one, half, kind == 2 ? tiny : 0.0};
                        for (int k = 0; k < 3; k++) {
                            const uint64_t at = (uint64_t)k * (N - 1) / 2;
                            sl_test_put(xr, dt, at, xs[k]);
                            sl_test_put(yr, dt, at, 1.0);
                        }
                    } else if (kind == 3 && N > 1) {   /* exact cancellation: v, v with y 1, -1 */
                        for (uint64_t i = 0; i + 1 < N; i += 2) {
                            memcpy(xr + (i + 1) * es, xr + i * es, es);
                            memcpy(yr + (i + 1) * es, yr + i * es, es);
                            if (dt == SL_F64) ((double *)yr)[i + 1] = -((double *)yr)[i];
                            else if (dt == SL_F32) ((float *)yr)[i + 1] = -((float *)yr)[i];
                            else ((uint16_t *)yr)[i + 1] ^= 0x8000u;
                        }
                        if (N % 2) memset(xr + (N - 1) * es, 0, es);
                    }
                    /* the model */
                    uint64_t head, nv;
                    sl_vec_split(N, dt, (uint32_t)(off * es), &head, &nv);
                    const uint64_t tail0 = head + nv * W, nedge = head + (N - tail0);
                    for (uint32_t t = 0; t < T; t++) {
                        sl_psum_init(&thr[t]);
                        for (uint64_t e = t; e < nedge; e += T) {
                            const uint64_t i = e < head ? e : tail0 + (e - head);
                            sl_psum_host_term(&thr[t], sl_tw_load(xr, dt, i), sl_tw_load(yr, dt, i), dt, 0);
                        }
                        for (uint64_t j = t; j < nv; j += T)
                            for (uint32_t k = 0; k < W; k++) {
                                const uint64_t i = head + j * W + k;
                                sl_psum_host_term(&thr[t], sl_tw_load(xr, dt, i), sl_tw_load(yr, dt, i), dt, 0);
                            }
                    }
                    sl_psum_acc tot;
                    if (T == 32u) {
                        sl_psum_host_warp(thr, 0);
                        tot = thr[0];
                    } else {
                        tot = sl_psum_host_block(thr, T, 0);
                    }
                    double E = 0.0, lo, hi, r, c = NAN;
                    const uint64_t h = sl_psum_chain(nv, W, T, 1u, T);
                    int ok = sl_psum_bound(&tot, N, h, &E);
                    if (ok) {
                        sl_psum_ends_host(&tot, E, dt, &lo, &hi);
                        ok = sl_psum_decide(lo, hi, &r);
                    }
                    sl_err err = {{0}};
                    sl_launch cfg;
                    memset(&cfg, 0, sizeof cfg);
                    cfg.addr_mod = (uint32_t)(off * es);
                    sl_variant_resolve(v, &cfg, N, dt);
                    const int tw = v->cpu2(v, xr, yr, N, dt, &cfg, &c, &err);
                    CHECK(tw == 0, "dot/correct twin: %s", err.msg);
                    decided += ok;
                    if (ok && !same_bits(r, c) && wrong++ == 0)
                        CHECK(0, "dot/correct row model %s N=%llu kind %d offset %u: decided %a, exact %a",
                              sl_dtype_name(dt), (unsigned long long)N, kind, off, r, c);
                    if (ok && (kind == 1 || kind == 3)) bad_undecided++;
                    if ((kind == 0 || kind >= 4) && isfinite(c) && c != 0.0) {   /* not past the format */
                        random_rows++;
                        random_decided += ok;
                    }
                }
            free(x);
            free(y);
        }
        CHECK(wrong == 0, "dot/correct row model %s: %u decisions differ from the exact dot", sl_dtype_name(dt), wrong);
        CHECK(bad_undecided == 0, "dot/correct row model %s: %u ties or exact cancellations decided", sl_dtype_name(dt),
              bad_undecided);
        CHECK(random_decided * 2u >= random_rows, "dot/correct row model %s: %u of %u random rows (finite dot) decided",
              sl_dtype_name(dt), random_decided, random_rows);
        printf("dot/correct row model %s: %u rows decided, %u of %u random ones\n", sl_dtype_name(dt), decided,
               random_decided, random_rows);
    }
    free(thr);
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    split_plan();
    lanes_plan();
    extrema_split_plan();
    few_long_rows();
    tie_rows();
    row_kernels();
    block_row_split();
    array_rows();
    rows_equal_1d();
    dot_rows_inputs();
    dot_rows_shared();
    dot_cert_row_model();
    every_batch();
    batch_invariance();
    return sl_test_done("trows");
}

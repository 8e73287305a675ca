/* tlib_rows.c: libsumlab's row-wise entry points (label cpu): sumlab_reduce_rows_host_ex on a
 * [B, N] array equals sumlab_reduce_host_ex on each row at its address, bit for bit, for every
 * variant with a twin (and the exact rows) of sum, var and lse, and sumlab_reduce_rows_xy_host_ex
 * of dot on [B, N] arrays x and y equals the one-array dot of each pair of rows, on B = 5, N = 33
 * and B = 3, N = 1000 (float32 and bfloat16); one row of y with every row of x (y_stride 0);
 * argument errors (y missing for dot, given for a one-input operation, a stride other than n and
 * 0, results over y); the device call without a GPU or CUDA answers SUMLAB_EUNSUPPORTED or
 * SUMLAB_ENOGPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_test.h"
#include "sumlab/half.h"
#include "sumlab/sumlab.h"

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    static const char *const ops[] = {"sum", "var", "lse", "dot"};
    static const struct { uint64_t B, N; } shapes[] = {{5, 33}, {3, 1000}};
    static const sl_dtype dts[] = {SL_F32, SL_BF16};
    long compared = 0;
    for (size_t si = 0; si < 2; si++)
        for (size_t di = 0; di < 2; di++) {
            const uint64_t B = shapes[si].B, N = shapes[si].N;
            const sl_dtype dt = dts[di];
            const size_t es = sl_dtype_size(dt);
            /* one element more: the array starts at an odd element address (addr_mod != 0) */
            char *buf = malloc((B * N + 1) * es), *ybuf = malloc((B * N + 1) * es);
            double *res = malloc(B * sizeof(double));
            if (!buf || !ybuf || !res) return 1;
            char *x = buf + es, *y = ybuf + es;   /* y: dot's second input, x's alignment */
            for (uint64_t i = 0; i < 2 * B * N; i++) {
                const double v = ldexp((double)(int64_t)(sl_test_rand64() >> 44) - 524288.0, -17);
                char *a = i < B * N ? x : y;
                const uint64_t k = i % (B * N);
                if (dt == SL_F32) ((float *)a)[k] = (float)v;
                else ((uint16_t *)a)[k] = sl_half_from_double(v, dt);
            }
            for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++)
                for (size_t vi = 0;; vi++) {
                    sumlab_variant_info info;
                    if (sumlab_variant_at(vi, &info, NULL) != SUMLAB_OK) break;
                    if (strcmp(info.op, ops[oi]) || !(info.dtypes & SL_DTYPE_MASK(dt))) continue;
                    const int two = !strcmp(ops[oi], "dot");
                    sl_err e = {{0}};
                    sumlab_status st = two ? sumlab_reduce_rows_xy_host_ex(ops[oi], NULL, info.name, x, y, N, B, N, dt,
                                                                           NULL, res, &e)
                                           : sumlab_reduce_rows_host_ex(ops[oi], NULL, info.name, x, B, N, dt,
                                                                        NULL, res, &e);
                    if (st == SUMLAB_EUNSUPPORTED) continue;   /* no twin (an anchor) */
                    CHECK(st == SUMLAB_OK, "%s/%s: %s", ops[oi], info.name, e.msg);
                    for (uint64_t i = 0; st == SUMLAB_OK && i < B; i++) {
                        double one = NAN;
                        sumlab_status s1 = sumlab_reduce_host_ex(ops[oi], NULL, info.name, x + i * N * es,
                                                                 two ? y + i * N * es : NULL, N, dt, NULL, &one, &e);
                        CHECK(s1 == SUMLAB_OK && same_bits(res[i], one), "%s/%s %s B=%llu N=%llu row %llu: "
                              "rows %a, one array %a", ops[oi], info.name, sl_dtype_name(dt),
                              (unsigned long long)B, (unsigned long long)N, (unsigned long long)i,
                              res[i], one);
                        compared++;
                    }
                }
            free(buf);
            free(ybuf);
            free(res);
        }
    CHECK(compared > 150, "only %ld rows compared", compared);
    /* argument errors */
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    double r[2];
    sl_err e = {{0}};
    CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", x, 2, 4, SL_F32, NULL, NULL, &e) == SUMLAB_EINVAL,
          "NULL results accepted");
    CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "nosuch", x, 2, 4, SL_F32, NULL, r, &e) == SUMLAB_EINVAL,
          "an unknown variant accepted");
    CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", NULL, 2, 4, SL_F32, NULL, r, &e) == SUMLAB_EINVAL,
          "NULL x accepted");
    CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", x, 2, 4, SL_F32, NULL, r, &e) == SUMLAB_OK &&
          r[0] == 10.0 && r[1] == 26.0, "2 x 4 sums: %g %g (%s)", r[0], r[1], e.msg);
    /* results over the input: refused (the rows after the first were read after results[0] was
     * written over them) */
    {
        float ov[8] = {1, 0, 0, 0, 1, 0, 0, 0};
        double *alias = (double *)(void *)ov;
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", ov, 4, 2, SL_F32, NULL, alias, &e) == SUMLAB_EINVAL &&
              strstr(e.msg, "overlaps"), "results over the input: %s", e.msg);
        CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", ov + 2, 3, 2, SL_F32, NULL, alias, &e) == SUMLAB_EINVAL,
              "results partly over the input accepted");
        double sep[4];
        CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", ov, 4, 2, SL_F32, NULL, sep, &e) == SUMLAB_OK &&
              sep[0] == 1 && sep[1] == 0 && sep[2] == 1 && sep[3] == 0, "4 x 2 sums apart: %g %g %g %g", sep[0], sep[1],
              sep[2], sep[3]);
    }
    /* sizes: rows x n x itemsize beyond the address space, and rows too long even with no rows */
    memset(&e, 0, sizeof e);
    CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", x, (uint64_t)1 << 62, 2, SL_F32, NULL, r, &e) ==
          SUMLAB_EINVAL && strstr(e.msg, "overflow"), "2^62 rows of 2 float32: %s", e.msg);
    CHECK(sumlab_reduce_rows_host_ex("sum", NULL, "serial", x, 0, (uint64_t)1 << 41, SL_F32, NULL, r, &e) ==
          SUMLAB_EINVAL && strstr(e.msg, "2^40"), "0 rows of 2^41 values: %s", e.msg);
    CHECK(sumlab_reduce_rows_device_ex("sum", NULL, "reproducible", x, (uint64_t)1 << 62, 2, SL_F32, NULL, r, NULL,
                                       &e) == SUMLAB_EINVAL, "device: 2^62 rows of 2 float32 accepted");
    /* dot: y missing (the one-input call, or the xy call with y NULL), y given to a one-input
     * operation, results over y */
    {
        float xy[8] = {1, 2, 3, 4, 5, 6, 7, 8}, yy[8] = {1, 1, 1, 1, 2, 2, 2, 2};
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_host_ex("dot", NULL, "correct", xy, 2, 4, SL_F32, NULL, r, &e) == SUMLAB_EINVAL &&
              strstr(e.msg, "reads two arrays"), "dot rows without y (host): %s", e.msg);
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_device_ex("dot", NULL, "correct", xy, NULL, 4, 2, 4, SL_F32, NULL, r, NULL, &e) ==
                  SUMLAB_EINVAL && strstr(e.msg, "reads two arrays"), "dot rows without y (device): %s", e.msg);
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_host_ex("sum", NULL, "serial", xy, yy, 4, 2, 4, SL_F32, NULL, r, &e) ==
                  SUMLAB_EINVAL && strstr(e.msg, "reads one array"), "sum rows given y: %s", e.msg);
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_host_ex("dot", NULL, "correct", xy, yy, 4, 2, 4, SL_F32, NULL, r, &e) ==
                  SUMLAB_OK && r[0] == 10.0 && r[1] == 52.0, "2 x 4 dots: %g %g (%s)", r[0], r[1], e.msg);
        double yd[4] = {1, 1, 2, 2};   /* y's bytes as the results */
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_host_ex("dot", NULL, "naive", xy, (const float *)(void *)yd, 4, 2, 4, SL_F32, NULL,
                                            yd, &e) == SUMLAB_EINVAL && strstr(e.msg, "overlaps"),
              "results over y: %s", e.msg);
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_host_ex("dot", NULL, "exact", xy, yy, 4, 0, 4, SL_F32, NULL, NULL, &e) == SUMLAB_OK,
              "no rows of dot: %s", e.msg);
        /* one row of y (y_stride 0) with every row of x: x @ y; the rows equal the one-array dots;
         * a stride other than n and 0 refused; results over that one row refused */
        float w4[4] = {1, -1, 2, 0.5f};
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_host_ex("dot", NULL, "correct", xy, w4, 0, 2, 4, SL_F32, NULL, r, &e) ==
                  SUMLAB_OK && r[0] == 1.0 - 2.0 + 6.0 + 2.0 && r[1] == 5.0 - 6.0 + 14.0 + 4.0,
              "x @ y: %g %g (%s)", r[0], r[1], e.msg);
        for (int i = 0; i < 2; i++) {
            double one = NAN;
            CHECK(sumlab_reduce_host_ex("dot", NULL, "naive", xy + 4 * i, w4, 4, SL_F32, NULL, &one, &e) == SUMLAB_OK &&
                      sumlab_reduce_rows_xy_host_ex("dot", NULL, "naive", xy, w4, 0, 2, 4, SL_F32, NULL, r, &e) ==
                          SUMLAB_OK && same_bits(r[i], one), "x @ y naive row %d: %a, one array %a", i, r[i], one);
        }
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_host_ex("dot", NULL, "correct", xy, yy, 2, 2, 4, SL_F32, NULL, r, &e) ==
                  SUMLAB_EINVAL && strstr(e.msg, "y_stride 2"), "y_stride 2 of rows of 4: %s", e.msg);
        double wd[2] = {0, 0};   /* 4 float32 values of y = the results' 16 bytes */
        memset(&e, 0, sizeof e);
        CHECK(sumlab_reduce_rows_xy_host_ex("dot", NULL, "naive", xy, (const float *)(void *)wd, 0, 2, 4, SL_F32, NULL,
                                            wd, &e) == SUMLAB_EINVAL && strstr(e.msg, "overlaps"),
              "results over the one row of y: %s", e.msg);
    }
    sumlab_status ds = sumlab_reduce_rows_device_ex("sum", NULL, "reproducible", x, 2, 4, SL_F32, NULL, r,
                                                    NULL, &e);
    CHECK(ds == SUMLAB_EUNSUPPORTED || ds == SUMLAB_ENOGPU || ds == SUMLAB_EINVAL,
          "device call on host memory: status %d (%s)", (int)ds, e.msg);
    return sl_test_done("tlib_rows");
}

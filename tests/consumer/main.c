/* main.c: a user of the installed libsumlab: lists the variants, sums an array with superacc and
 * reproducible (and through a state split in two), judges a value computed here, and prints the
 * exact sum. Exit 0 when every result is what the API promises, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sumlab/sumlab.h>

static int fails;
#define EXPECT(cond, ...) do { if (!(cond)) { fprintf(stderr, "consumer: FAIL: " __VA_ARGS__); fputc('\n', stderr); fails++; } } while (0)

int main(void)
{
    sl_err err;
    printf("sumlab %s: %zu operations, %zu variants\n", sumlab_version(), sumlab_op_count(),
           sumlab_variant_count());
    for (size_t i = 0; i < sumlab_variant_count(); i++) {
        sumlab_variant_info v;
        if (sumlab_variant_at(i, &v, &err) != SUMLAB_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
        printf("  %-20s %-4s %-19s cpu %d gpu %d state %d\n", v.name, v.op, v.determinism, v.has_cpu,
               v.has_gpu, v.has_state);
    }
    enum { N = 10000 };
    static float x[N];
    float naive = 0.0f;
    for (int i = 0; i < N; i++) {
        x[i] = (i % 2 ? -1.0f : 1.0f) * (1.0f + (float)i / 3.0f) + (i % 7 == 0 ? 1e6f : 0.0f) - (i % 7 == 1 ? 1e6f : 0.0f);
        naive += x[i];
    }
    double sacc, repro, st_result;
    EXPECT(sumlab_reduce_host("sum", "superacc", x, NULL, N, SL_F32, NULL, &sacc, &err) == SUMLAB_OK, "%s", err.msg);
    EXPECT(sumlab_reduce_host("sum", "reproducible", x, NULL, N, SL_F32, NULL, &repro, &err) == SUMLAB_OK, "%s", err.msg);
    sumlab_judgement j;
    EXPECT(sumlab_judge("sum", x, NULL, N, SL_F32, (double)naive, 1, "serial", &j, &err) == SUMLAB_OK, "%s", err.msg);
    printf("superacc %a  reproducible %a  naive loop %a (%g ulps, bound ratio %g, cond %g)\n", sacc, repro,
           (double)naive, j.ulps, j.bound_ratio, j.cond);
    EXPECT(sacc == j.exact, "superacc %a is not the exact sum rounded once (%a)", sacc, j.exact);
    EXPECT(j.bound_ratio <= 1.0, "the naive loop's error exceeds serial's bound (ratio %g)", j.bound_ratio);
    char *hex = NULL;
    EXPECT(sumlab_exact_hex("sum", x, NULL, N, SL_F32, &hex, &err) == SUMLAB_OK, "%s", err.msg);
    printf("exact sum %s\n", hex ? hex : "?");
    sumlab_free(hex);
    /* a state over two halves, merged through its saved bytes */
    sumlab_state *a = NULL, *b = NULL;
    EXPECT(sumlab_state_new("reproducible", SL_F32, &a, &err) == SUMLAB_OK, "%s", err.msg);
    EXPECT(sumlab_state_new("reproducible", SL_F32, &b, &err) == SUMLAB_OK, "%s", err.msg);
    if (a && b) {
        sumlab_state_add(a, x + N / 3, N - N / 3, &err);
        sumlab_state_add(b, x, N / 3, &err);
        size_t z = sumlab_state_size(a);
        unsigned char *ba = malloc(z), *bb = malloc(z);
        sumlab_state_save(a, ba, z, &err);
        sumlab_state_save(b, bb, z, &err);
        EXPECT(sumlab_state_merge_saved(ba, bb, z, &err) == SUMLAB_OK, "%s", err.msg);
        sumlab_state *m = NULL;
        EXPECT(sumlab_state_load(ba, z, &m, &err) == SUMLAB_OK, "%s", err.msg);
        EXPECT(m && sumlab_state_result(m, &st_result, &err) == SUMLAB_OK && st_result == repro,
               "state result differs from reproducible's");
        sumlab_state_free(m);
        free(ba);
        free(bb);
    }
    sumlab_state_free(a);
    sumlab_state_free(b);
    /* the device entry point links (host memory is refused, or there is no GPU or no CUDA) */
    double r;
    sumlab_status ds = sumlab_reduce_device("sum", "reproducible", x, NULL, N, SL_F32, NULL, &r, NULL, &err);
    printf("sumlab_reduce_device on host memory: status %d (%s)\n", (int)ds, err.msg);
    EXPECT(ds != SUMLAB_OK, "sumlab_reduce_device accepted host memory");
    sumlab_release();
    printf("consumer: %s\n", fails ? "FAILED" : "ok");
    return fails ? 1 : 0;
}

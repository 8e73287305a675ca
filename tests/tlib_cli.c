/* tlib_cli.c: libsumlab against the CLI: every row of `sumlab sum FILE --variants all --backend
 * cpu --format csv` (FILE raw, of DTYPE) whose variant has a twin and is deterministic (or is the
 * exact reference) equals sumlab_reduce_host on the same values bit for bit.
 * usage: tlib_cli FILE DTYPE CSV (tests/tlib_cli.sh makes them) */
#include <errno.h>
#include "sl_test.h"
#include "sumlab/sumlab.h"

int main(int argc, char **argv)
{
    sl_dtype dt;
    if (argc != 4 || sl_dtype_parse(argv[2], &dt)) {
        fprintf(stderr, "usage: tlib_cli FILE DTYPE CSV\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { fprintf(stderr, "tlib_cli: cannot open %s\n", argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    const size_t es = sl_dtype_size(dt);
    unsigned char *x = aligned_alloc(256, ((size_t)bytes + 256) / 256 * 256);
    if (!x || fread(x, 1, (size_t)bytes, f) != (size_t)bytes) { fprintf(stderr, "tlib_cli: read failed\n"); return 1; }
    fclose(f);
    const uint64_t n = (uint64_t)bytes / es;
    FILE *c = fopen(argv[3], "r");
    if (!c) { fprintf(stderr, "tlib_cli: cannot open %s\n", argv[3]); return 1; }
    char line[65536];
    CHECK(fgets(line, sizeof line, c) && !strncmp(line, "variant,result_hex,", 19), "CSV header: %s", line);
    long compared = 0;
    while (fgets(line, sizeof line, c)) {
        char *comma = strchr(line, ',');
        if (!comma) continue;
        *comma = '\0';
        char *hex = comma + 1, *end = strchr(hex, ',');
        if (end) *end = '\0';
        sumlab_variant_info vi;
        sl_err e = {{0}};
        CHECK(sumlab_variant_find(line, &vi, &e) == SUMLAB_OK, "%s", e.msg);
        if (!vi.has_cpu || !*hex || !strcmp(vi.determinism, "nondeterministic")) continue;
        errno = 0;
        double want = strtod(hex, NULL), got = 0;
        CHECK(sumlab_reduce_host("sum", line, x, NULL, n, dt, NULL, &got, &e) == SUMLAB_OK, "%s: %s", line, e.msg);
        CHECK(!memcmp(&got, &want, sizeof got), "%s %s n=%llu: library %a, CLI %s", line, argv[2],
              (unsigned long long)n, got, hex);
        compared++;
    }
    fclose(c);
    free(x);
    CHECK(compared >= 10, "only %ld rows compared", compared);
    printf("tlib_cli %s %s: %ld rows equal\n", argv[1], argv[2], compared);
    return sl_test_done("tlib_cli");
}

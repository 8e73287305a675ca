/* fuzz_report.c: libFuzzer target of what `run --report-only` reads: run.conf, results.csv and
 * distribution.csv checked as data (report/check.c), then report.md and report.html written
 * from them. Input: run.conf NUL results.csv NUL distribution.csv. Never a crash; a refused
 * directory has a message; an accepted one has every dataset, dtype and variant in the
 * registries (or the other builds' few names), every name free of shell, path and markup
 * characters, and a report.html with the page's one script and no javascript: link. */
#include <strings.h>
#include <sys/stat.h>
#include "check.h"
#include "fuzz_util.h"
#include "sl_datasets.h"
#include "sl_report.h"
#include "sl_variants.h"

static void part(const uint8_t **d, size_t *n, const uint8_t **p, size_t *pn)
{
    const uint8_t *z = *n ? memchr(*d, 0, *n) : NULL;
    *p = *d;
    *pn = z ? (size_t)(z - *d) : *n;
    *d += *pn + (z != NULL);
    *n -= *pn + (z != NULL);
}

/* Count of (case-insensitive) needle in the file's text; -1 when it cannot be read. */
static long count_in(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) abort();
    fclose(f);
    b[len] = '\0';
    long k = 0;
    const size_t nl = strlen(needle);
    for (long i = 0; i + (long)nl <= len; i++) k += !strncasecmp(b + i, needle, nl);
    free(b);
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static const char *const other[] = {"read-ceiling", "cub-gpu-to-gpu", "cub-not-guaranteed"};
    const char *dir = fz_scratch();
    char path[300];
    const uint8_t *conf, *res, *dist;
    size_t cn, rn, dn;
    part(&d, &n, &conf, &cn);
    part(&d, &n, &res, &rn);
    part(&d, &n, &dist, &dn);
    snprintf(path, sizeof path, "%s/run.conf", dir);
    fz_write(path, conf, cn);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    fz_write(path, res, rn);
    snprintf(path, sizeof path, "%s/distribution.csv", dir);
    if (dn) fz_write(path, dist, dn);
    else unlink(path);
    snprintf(path, sizeof path, "%s/report.html", dir);
    unlink(path);

    sl_err e = {{0}};
    if (sl_check_run_dir(dir, NULL, &e)) {
        if (!e.msg[0]) abort();
        return 0;
    }
    /* accepted: the names are the registries' and carry nothing a shell, a path or a page
     * would read as code */
    sl_csv t;
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (sl_csv_read(path, &t, NULL, &e)) abort();
    const int cds = sl_csv_col(&t, "dataset"), cdt = sl_csv_col(&t, "dtype"), cv = sl_csv_col(&t, "variant");
    for (size_t r = 0; r < t.nrows; r++) {
        sl_dtype dt;
        if (cds >= 0 && !sl_dataset_find(sl_csv_get(&t, r, cds))) abort();
        if (cdt >= 0 && sl_dtype_parse(sl_csv_get(&t, r, cdt), &dt)) abort();
        if (cv >= 0 && !sl_variant_find(sl_csv_get(&t, r, cv))) {
            int known = 0;
            for (size_t i = 0; i < sizeof other / sizeof *other; i++) known |= !strcmp(other[i], sl_csv_get(&t, r, cv));
            if (!known) abort();
        }
        for (int c = 0; c < t.ncols; c++) {
            if (!strcmp(t.header[c], "note")) continue;
            if (strpbrk(sl_csv_get(&t, r, c), "'\"`$|&<>\\/ \t\n\r*?[]{}();,")) {
                if (strcmp(t.header[c], "params") || strpbrk(sl_csv_get(&t, r, c), "'\"`$|&<>\\/ \t\n\r*?[]{}(),")) abort();
            }
        }
    }
    sl_csv_free(&t);
    if (sl_report_write(dir, NULL, &e)) {
        if (!e.msg[0]) abort();
        return 0;
    }
    snprintf(path, sizeof path, "%s/report.html", dir);
    const long scripts = count_in(path, "<script");
    if (scripts >= 0 && (scripts != 1 || count_in(path, "javascript:") != 0 || count_in(path, " onerror") != 0 ||
                         count_in(path, " onload") != 0))
        abort();
    return 0;
}

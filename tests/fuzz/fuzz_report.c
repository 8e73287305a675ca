/* fuzz_report.c: libFuzzer target of what `run --report-only` reads: run.conf, results.csv and
 * distribution.csv checked as data (report/check.c), then report.md and report.html written
 * from them. Input: run.conf NUL results.csv NUL distribution.csv. Never a crash; a refused
 * directory has a message; an accepted one has every dataset, dtype and variant in the
 * registries (or the other builds' few names), every name free of shell, path and markup
 * characters, and a report.html whose markup holds the page's one script, no on* attribute and
 * no value starting with javascript: (the same words in escaped text or inside a path are inert). */
#include <strings.h>
#include <sys/stat.h>
#include "check.h"
#include "fuzz_util.h"
#include "sl_datasets.h"
#include "sl_ops.h"
#include "sl_report.h"
#include "sl_variants.h"

/* The page's markup, tag by tag (text between tags is inert: the renderer escaped it): *scripts
 * counts <script> elements, *bad the tags with an on* attribute or a value that starts with
 * javascript: (a relative path holding the word is a path). -1 when the file cannot be read. */
static int scan_tags(const char *path, long *scripts, long *bad)
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
    *scripts = *bad = 0;
    for (char *p = b; (p = strchr(p, '<')) != NULL; ) {
        char *e = strchr(p, '>');
        if (!e) break;
        *e = '\0';
        if (!strncasecmp(p, "<script", 7)) ++*scripts;
        for (char *q = p; *q; q++) {
            if ((q[0] == ' ' || q[0] == '\t' || q[0] == '\n' || q[0] == '/') && (q[1] == 'o' || q[1] == 'O') &&
                (q[2] == 'n' || q[2] == 'N') && q[3] && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", q[3])) {
                const char *w = q + 3;
                while (*w && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", *w)) w++;
                while (*w == ' ') w++;
                if (*w == '=') ++*bad;
            }
            if (*q == '=') {            /* an attribute's value that starts with the scheme */
                const char *w = q + 1;
                while (*w == ' ' || *w == '"' || *w == '\'') w++;
                if (!strncasecmp(w, "javascript:", 11)) ++*bad;
            }
        }
        p = e + 1;
    }
    free(b);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    static const char *const other[] = {"read-ceiling", "cub-gpu-to-gpu", "cub-not-guaranteed"};
    const char *dir = fz_scratch();
    char path[300];
    fz_run_dir(dir, d, n, 0);
    snprintf(path, sizeof path, "%s/report.html", dir);
    unlink(path);

    sl_err e = {{0}};
    if (sl_check_run_dir(dir, NULL, &e)) {
        if (!e.msg[0]) abort();
        return 0;
    }
    /* accepted: the names are the registries' (variants, operations' PyTorch calls) and carry nothing a shell, a path or a page
     * would read as code */
    sl_csv t;
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (sl_csv_read(path, &t, NULL, &e)) abort();
    const int cds = sl_csv_col(&t, "dataset"), cdt = sl_csv_col(&t, "dtype"), cv = sl_csv_col(&t, "variant");
    for (size_t r = 0; r < t.nrows; r++) {
        sl_dtype dt;
        /* a registry family, or a `run --files` input: file:NAME, NAME a checked name */
        const char *ds = cds >= 0 ? sl_csv_get(&t, r, cds) : NULL;
        if (ds && !sl_dataset_find(ds) && (strncmp(ds, "file:", 5) || !sl_check_name(ds + 5, 140, NULL))) abort();
        if (cdt >= 0 && sl_dtype_parse(sl_csv_get(&t, r, cdt), &dt)) abort();
        if (cv >= 0 && !sl_variant_find(sl_csv_get(&t, r, cv))) {
            int known = sl_op_is_torch_call(sl_csv_get(&t, r, cv));
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
    long scripts = 0, bad = 0;
    if (!scan_tags(path, &scripts, &bad) && (scripts != 1 || bad != 0)) abort();
    return 0;
}

/* anchors.c: the "Repeatability of the frameworks' sums" section: DIR/anchors/anchors.csv
 * (study_anchors.py: torch.sum, cupy.sum, jax.numpy.sum, numpy.sum on the study's inputs, each
 * repeated and judged by `sumlab judge`) as a table, every field checked against the characters
 * that script writes. */
#define _POSIX_C_SOURCE 200809L
#include "anchors.h"
#include <string.h>
#include <sys/stat.h>
#include "sl_results.h"

#define ANCHORS_MAX_BYTES (4 << 20)

static const char *const shown[] = {"dataset", "params", "n", "anchor", "reps", "distinct",
                                    "spread_ulps", "ulps_max", "cond"};
#define NSHOWN (sizeof shown / sizeof *shown)

/* A field as study_anchors.py writes it: names (torch.sum(cuda;det=off)), parameters (k=v,...),
 * numbers; nothing that is markup in markdown or HTML ('<', '>', '&', '|', '`', '[', ']', '\\'). */
static int field_ok(const char *s)
{
    if (strlen(s) > 120) return 0;
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              strchr("._-+=;:(),^ /", c)))
            return 0;
    }
    return 1;
}

void sl_report_user_anchors(FILE *f, const sl_report_ctx *R)
{
    char sub[SL_DIR_MAX + 16], path[SL_DIR_MAX + 64];
    struct stat sd, st;
    if (sl_path_join(sub, sizeof sub, R->dir, "anchors", NULL) || lstat(sub, &sd) ||
        sl_path_join(path, sizeof path, sub, "anchors.csv", NULL) || lstat(path, &st))
        return;                                           /* no anchors run: no section */
    fputs("## Repeatability of the frameworks' sums\n\n", f);
    sl_csv t = {0};
    sl_err e;
    int col[NSHOWN], ok = S_ISDIR(sd.st_mode) && S_ISREG(st.st_mode) && st.st_size <= ANCHORS_MAX_BYTES &&
                          !sl_csv_read(path, &t, NULL, &e);
    for (size_t k = 0; ok && k < NSHOWN; k++)
        if ((col[k] = sl_csv_col(&t, shown[k])) < 0) ok = 0;
    for (size_t r = 0; ok && r < t.nrows; r++)
        for (size_t k = 0; ok && k < NSHOWN; k++) ok = field_ok(sl_csv_get(&t, r, col[k]));
    if (!ok || !t.nrows) {
        fputs("`anchors/anchors.csv` was left out: it is not the table `study_anchors.py` writes "
              "(a regular file of at most 4 MiB in a folder that is not a link, its columns, names and "
              "numbers only).\n\n", f);
        sl_csv_free(&t);
        return;
    }
    fputs("The sums users get from their frameworks on this study's float32 inputs, each call "
          "repeated (`experiments/anchors/study_anchors.py`, judged by `sumlab judge`): how many "
          "distinct results the repetitions gave, their spread and the largest error, in ulps of "
          "the exact sum; `cond` is the input's condition number. From `anchors/anchors.csv`.\n\n",
          f);
    fputs("| dataset | params | n | framework | reps | distinct | spread (ulps) | max error (ulps) | cond |\n"
          "|---|---|---:|---|---:|---:|---:|---:|---:|\n", f);
    for (size_t r = 0; r < t.nrows; r++) {
        fputc('|', f);
        for (size_t k = 0; k < NSHOWN; k++) {
            const char *v = sl_csv_get(&t, r, col[k]);
            fprintf(f, " %s |", *v ? v : "-");
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    sl_csv_free(&t);
}

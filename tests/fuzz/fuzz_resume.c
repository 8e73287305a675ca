/* fuzz_resume.c: libFuzzer target of what --resume reads: run.conf, results.csv (the one CSV
 * reader, the key loader with its duplicate refusal, the cut of an interrupted last line) and
 * distribution.csv (its repair). Input: run.conf NUL results.csv NUL distribution.csv. Never a
 * crash; an accepted directory is one run's: its keys distinct, distribution.csv well formed. */
#include <sys/stat.h>
#include "fuzz_util.h"
#include "sl_results.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const char *dir = fz_scratch();
    char path[300];
    fz_run_dir(dir, d, n, 1);

    sl_runconf c;
    int cr = sl_runconf_read(dir, &c);
    if (cr == 0 && (!memchr(c.experiment, 0, sizeof c.experiment) || !memchr(c.started, 0, sizeof c.started))) abort();
    sl_csv t;
    sl_err e = {{0}};
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (sl_csv_read(path, &t, NULL, &e) == 0) {
        for (size_t r = 0; r < t.nrows; r++)
            for (int k = 0; k < t.ncols; k++)
                if (!t.cell[r][k]) abort();
        sl_csv_free(&t);
    } else if (!e.msg[0]) {
        abort();
    }
    sl_results rs;
    if (sl_results_open(&rs, dir, 1, 1, &e) == 0) {
        if (sl_results_close(&rs, &e)) abort();
        if ((size_t)rs.rows_before != rs.keys.count) abort();  /* every row's key, once */
        snprintf(path, sizeof path, "%s/distribution.csv", dir);
        sl_csv dd;
        if (sl_csv_read(path, &dd, NULL, &e) != 0) abort();    /* repaired: it reads */
        if (!sl_schema_matches(&sl_dist_schema, &dd)) abort();
        sl_csv_free(&dd);
    } else {
        sl_results_close(&rs, NULL);
        if (!e.msg[0]) abort();
    }
    sl_keyset_free(&rs.keys);
    return 0;
}

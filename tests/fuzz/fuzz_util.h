/* fuzz_util.h: what the fuzz targets share: a private scratch directory (tmpfs when there is
 * one) and "write these bytes to a file there", since the readers under test take paths. */
#ifndef SL_FUZZ_UTIL_H
#define SL_FUZZ_UTIL_H
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sumlab/types.h"

static char fz_dir[256];

static void fz_cleanup(void)
{
    DIR *d = opendir(fz_dir);
    char p[600];
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(p, sizeof p, "%s/%s", fz_dir, e->d_name);
        unlink(p);
    }
    if (d) closedir(d);
    rmdir(fz_dir);
}

/* The scratch directory: under $SL_FUZZ_TMP, else /dev/shm, else $TMPDIR or /tmp; removed at exit. */
__attribute__((unused)) static const char *fz_scratch(void)
{
    if (!fz_dir[0]) {
        const char *base = getenv("SL_FUZZ_TMP");
        if (!base || !*base) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
        snprintf(fz_dir, sizeof fz_dir, "%s/slfuzz.XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(fz_dir)) abort();
        atexit(fz_cleanup);
    }
    return fz_dir;
}

/* dir/name <- bytes; aborts (a harness failure, not a finding) when it cannot. */
__attribute__((unused)) static void fz_write(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f) != 0) abort();
}

/* The next NUL-separated part of the input (d, n advance past it). */
__attribute__((unused)) static void fz_part(const uint8_t **d, size_t *n, const uint8_t **p, size_t *pn)
{
    const uint8_t *z = *n ? memchr(*d, 0, *n) : NULL;
    *p = *d;
    *pn = z ? (size_t)(z - *d) : *n;
    *d += *pn + (z != NULL);
    *n -= *pn + (z != NULL);
}
/* A run directory from one input: run.conf NUL results.csv NUL distribution.csv [NUL
 * run_notes.txt]; an empty distribution.csv part is an empty file when always_dist, else no such
 * file; an empty (or absent) notes part is no run_notes.txt. */
__attribute__((unused)) static void fz_run_dir(const char *dir, const uint8_t *d, size_t n, int always_dist)
{
    char path[300];
    const uint8_t *conf, *res, *dist, *notes;
    size_t cn, rn, dn, nn;
    fz_part(&d, &n, &conf, &cn);
    fz_part(&d, &n, &res, &rn);
    fz_part(&d, &n, &dist, &dn);
    fz_part(&d, &n, &notes, &nn);
    snprintf(path, sizeof path, "%s/run_notes.txt", dir);
    if (nn) fz_write(path, notes, nn);
    else unlink(path);
    snprintf(path, sizeof path, "%s/run.conf", dir);
    fz_write(path, conf, cn);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    fz_write(path, res, rn);
    snprintf(path, sizeof path, "%s/distribution.csv", dir);
    if (dn || always_dist) fz_write(path, dist, dn);
    else unlink(path);
}

/* Reads every value, so a buffer shorter than n is a sanitizer report. */
__attribute__((unused)) static double fz_touch(const void *data, uint64_t n, sl_dtype dt)
{
    double s = 0;
    for (uint64_t i = 0; i < n; i++)
        s += dt == SL_F64 ? ((const double *)data)[i]
             : sl_dtype_is_half(dt) ? (double)((const uint16_t *)data)[i]   /* every byte read */
                                    : ((const float *)data)[i];
    return s;
}
#endif

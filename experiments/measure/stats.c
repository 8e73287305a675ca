/* stats.c: order statistics of measured figures (sl_measure.h): median (sorting in place) and
 * median/min/max of a copy. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_measure.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sl_median(double *v, size_t n)
{
    if (!v || n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void sl_stats(const double *v, size_t n, double *med, double *mn, double *mx)
{
    *med = *mn = *mx = NAN;
    if (!v || n == 0) return;
    double *c = malloc(n * sizeof *c);
    if (!c) return;
    memcpy(c, v, n * sizeof *c);
    *med = sl_median(c, n);
    *mn = c[0];
    *mx = c[n - 1];
    free(c);
}

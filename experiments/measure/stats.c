/* stats.c: order statistics of measured figures (sl_measure.h): median (sorting in place),
 * median/min/max of a copy, and the bounded running aggregates of a row's repetitions (the
 * log-binned histogram, sl_sketch, sl_rep_agg). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_measure_impl.h"

uint64_t sl_canon_bits(double v)
{
    if (isnan(v)) return 0x7ff8000000000000ull;
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

int sl_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

/* Sorts v[0..n) (NaN last) and returns how many values are numbers. */
static size_t sort_numbers(double *v, size_t n)
{
    qsort(v, n, sizeof *v, sl_cmp_double);
    while (n > 0 && isnan(v[n - 1])) n--;
    return n;
}

/* The median of sorted numbers v[0..k), k > 0. */
static double median_sorted(const double *v, size_t k)
{
    return (k & 1) ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

double sl_median(double *v, size_t n)
{
    if (!v || n == 0) return NAN;
    const size_t k = sort_numbers(v, n);
    return k ? median_sorted(v, k) : NAN;
}

void sl_stats(const double *v, size_t n, double *med, double *mn, double *mx)
{
    *med = *mn = *mx = NAN;
    if (!v || n == 0) return;
    double *c = malloc(n * sizeof *c);
    if (!c) return;
    memcpy(c, v, n * sizeof *c);
    const size_t k = sort_numbers(c, n);
    if (k) {
        *med = median_sorted(c, k);
        *mn = c[0];
        *mx = c[k - 1];
    }
    free(c);
}

/* ---- the log-binned histogram ---------------------------------------------------------------
 * A positive double's bin is its exponent field and the top SL_HIST_BITS bits of its fraction:
 * 2^SL_HIST_BITS bins an octave, each 2^-SL_HIST_BITS of the octave's start wide, so the bin's
 * middle is within a relative 2^-(SL_HIST_BITS+1) of every value in it (normal values). The
 * counts of an octave are allocated when a value first falls in it (8 KiB each; at most 2048
 * octaves, 16 MiB, for values spread over every binade); values <= 0 (and NaN) count as 0. */
#define HIST_OCT 2048
#define HIST_SUB (1u << SL_HIST_BITS)
struct sl_hist {
    uint64_t zero;
    uint64_t total;
    uint64_t *oct[HIST_OCT];   /* exponent field 2047 holds +Inf (bin 0) */
};

sl_hist *sl_hist_new(void) { return calloc(1, sizeof(sl_hist)); }

void sl_hist_free(sl_hist *h)
{
    if (!h) return;
    for (size_t e = 0; e < HIST_OCT; e++) free(h->oct[e]);
    free(h);
}

int sl_hist_add(sl_hist *h, double x, uint64_t w)
{
    if (!(x > 0)) {
        h->zero += w;
        h->total += w;
        return 0;
    }
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    const unsigned e = (unsigned)(b >> 52);
    const unsigned m = (unsigned)(b >> (52 - SL_HIST_BITS)) & (HIST_SUB - 1);
    if (!h->oct[e] && !(h->oct[e] = calloc(HIST_SUB, sizeof *h->oct[e]))) return -1;
    h->oct[e][m] += w;
    h->total += w;
    return 0;
}

int sl_hist_merge(sl_hist *h, const sl_hist *o)
{
    h->zero += o->zero;
    h->total += o->zero;
    for (unsigned e = 0; e < HIST_OCT; e++) {
        if (!o->oct[e]) continue;
        if (!h->oct[e] && !(h->oct[e] = calloc(HIST_SUB, sizeof *h->oct[e]))) return -1;
        for (unsigned m = 0; m < HIST_SUB; m++) {
            h->oct[e][m] += o->oct[e][m];
            h->total += o->oct[e][m];
        }
    }
    return 0;
}

/* The middle of bin m of exponent field e. */
static double bin_mid(unsigned e, unsigned m)
{
    if (e == HIST_OCT - 1) return INFINITY;
    const uint64_t lo = (uint64_t)e << 52 | (uint64_t)m << (52 - SL_HIST_BITS);
    double d;
    memcpy(&d, &lo, sizeof d);
    return d + ldexp(1.0, (int)(e ? e : 1) - 1023 - SL_HIST_BITS - 1);
}

/* The value of rank k (0-based, k < total) as its bin's middle. */
static double hist_kth(const sl_hist *h, uint64_t k)
{
    if (k < h->zero) return 0.0;
    k -= h->zero;
    for (unsigned e = 0; e < HIST_OCT; e++) {
        if (!h->oct[e]) continue;
        for (unsigned m = 0; m < HIST_SUB; m++) {
            if (k < h->oct[e][m]) return bin_mid(e, m);
            k -= h->oct[e][m];
        }
    }
    return NAN;
}

double sl_hist_median(const sl_hist *h, double mn, double mx)
{
    if (!h || h->total == 0) return NAN;
    const uint64_t c = h->total;
    double med = (c & 1) ? hist_kth(h, c / 2) : 0.5 * (hist_kth(h, c / 2 - 1) + hist_kth(h, c / 2));
    if (med < mn) med = mn;
    if (med > mx) med = mx;
    return med;
}

/* ---- sl_sketch ------------------------------------------------------------------------------ */
int sl_sketch_add(sl_sketch *k, double x)
{
    if (k->count == 0 || x < k->mn) k->mn = x;
    if (k->count == 0 || x > k->mx) k->mx = x;
    k->count++;
    if (!k->h) {
        const size_t lim = k->limit ? k->limit : SL_AGG_TIMES_CAP;
        if (k->n < lim) {
            if (k->n == k->cap) {
                size_t nc = k->cap ? 2 * k->cap : 64;
                if (nc > lim) nc = lim;
                double *p = realloc(k->v, nc * sizeof *p);
                if (!p) return -1;
                k->v = p;
                k->cap = nc;
            }
            k->v[k->n++] = x;
            return 0;
        }
        /* past the limit: the samples so far into the histogram, then every later one */
        if (!(k->h = sl_hist_new())) return -1;
        for (size_t i = 0; i < k->n; i++)
            if (sl_hist_add(k->h, k->v[i], 1)) return -1;
        free(k->v);
        k->v = NULL;
        k->n = k->cap = 0;
    }
    return sl_hist_add(k->h, x, 1);
}

void sl_sketch_stats(const sl_sketch *k, double *med, double *mn, double *mx, int *binned)
{
    if (binned) *binned = k->h != NULL;
    if (!k->h) {
        sl_stats(k->v, k->n, med, mn, mx);
        return;
    }
    *mn = k->mn;
    *mx = k->mx;
    *med = sl_hist_median(k->h, k->mn, k->mx);
}

void sl_sketch_free(sl_sketch *k)
{
    free(k->v);
    sl_hist_free(k->h);
    memset(k, 0, sizeof *k);
}

/* ---- sl_rep_agg ----------------------------------------------------------------------------- */
void sl_rep_agg_init(sl_rep_agg *a, const sl_reference *ref, sl_dtype dt)
{
    memset(a, 0, sizeof *a);
    a->ref = ref;
    a->dt = dt;
    a->first = a->mn = a->mx = NAN;
    a->other_abs_max = a->other_ulps_max = NAN;
}

static size_t slot_of(uint64_t key, size_t mask)
{
    key ^= key >> 33;          /* murmur3's finaliser */
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    key ^= key >> 33;
    return (size_t)key & mask;
}

/* The table at twice its size (or its first 64 slots). */
static int table_grow(sl_rep_agg *a)
{
    const size_t ns = a->slots ? 2 * a->slots : 64;
    uint64_t *k = calloc(ns, sizeof *k), *c = calloc(ns, sizeof *c);
    if (!k || !c) {
        free(k);
        free(c);
        return -1;
    }
    for (size_t i = 0; i < a->slots; i++) {
        if (!a->counts[i]) continue;
        size_t j = slot_of(a->keys[i], ns - 1);
        while (c[j]) j = (j + 1) & (ns - 1);
        k[j] = a->keys[i];
        c[j] = a->counts[i];
    }
    free(a->keys);
    free(a->counts);
    a->keys = k;
    a->counts = c;
    a->slots = ns;
    return 0;
}

/* A result whose pattern is new once the table is full: counted apart, its error folded. */
static int add_other(sl_rep_agg *a, double r)
{
    a->other++;
    if (isnan(r)) a->other_nan = 1;
    else a->other_num = 1;
    if (!isfinite(r)) a->other_nonfinite = 1;
    if (!a->ref) return 0;
    const sl_errors e = sl_reference_errors(a->ref, r, a->dt);
    if (!(e.abs_err <= a->other_abs_max)) a->other_abs_max = e.abs_err;   /* NaN-aware max */
    if (!(e.ulps <= a->other_ulps_max)) a->other_ulps_max = e.ulps;
    if (!a->other_ulps && !(a->other_ulps = sl_hist_new())) return -1;
    return sl_hist_add(a->other_ulps, e.ulps, 1);
}

int sl_rep_agg_add(sl_rep_agg *a, double r, double time_ms)
{
    if (a->reps++ == 0) a->first = r;
    if (isnan(r)) {
        a->anynan = 1;
    } else {
        if (isnan(a->mn) || r < a->mn) a->mn = r;
        if (isnan(a->mx) || r > a->mx) a->mx = r;
    }
    int rc = 0;
    if (!isnan(time_ms) && sl_sketch_add(&a->times, time_ms)) rc = -1;
    uint64_t key;
    memcpy(&key, &r, sizeof key);
    size_t j = a->slots ? slot_of(key, a->slots - 1) : 0;
    if (a->slots)
        for (; a->counts[j]; j = (j + 1) & (a->slots - 1))
            if (a->keys[j] == key) {
                a->counts[j]++;
                goto done;
            }
    if (a->used >= SL_AGG_DISTINCT_CAP) {
        if (add_other(a, r)) rc = -1;
        goto done;
    }
    if (2 * (a->used + 1) > a->slots) {   /* load at most 1/2 */
        if (table_grow(a)) {
            rc = -1;
            goto done;
        }
        j = slot_of(key, a->slots - 1);
        while (a->counts[j]) j = (j + 1) & (a->slots - 1);
    }
    a->keys[j] = key;
    a->counts[j] = 1;
    a->used++;
    if (!isnan(r)) a->table_distinct++;
    else if (!a->table_nan) {
        a->table_nan = 1;
        a->table_distinct++;
    }
done:
    if (rc) a->oom = 1;
    return rc;
}

uint64_t sl_rep_agg_distinct(const sl_rep_agg *a)
{
    return a->table_distinct + (a->other_num || (a->other_nan && !a->table_nan));
}

int sl_rep_agg_capped(const sl_rep_agg *a) { return a->other > 0; }

int sl_rep_agg_all_equal(const sl_rep_agg *a, double v)
{
    const uint64_t want = sl_canon_bits(v);
    if (a->other && (a->other_num || !isnan(v))) return 0;
    for (size_t i = 0; i < a->slots; i++) {
        if (!a->counts[i]) continue;
        double d;
        memcpy(&d, &a->keys[i], sizeof d);
        if (sl_canon_bits(d) != want) return 0;
    }
    return 1;
}

void sl_rep_agg_free(sl_rep_agg *a)
{
    free(a->keys);
    free(a->counts);
    sl_hist_free(a->other_ulps);
    sl_sketch_free(&a->times);
    memset(a, 0, sizeof *a);
}

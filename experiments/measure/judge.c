/* judge.c: every figure of a row from the running aggregate of its results (stats.c) and the
 * exact reference (sl_measure.h): distinct results, spread, errors, ulps median/max, signed
 * ulps of each distinct result, the variant's a-priori bound and the bound ratio, times and
 * GB/s. Nothing here prints. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_measure_impl.h"
#include "sl_ops.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t sl_count_distinct(const double *r, int reps)
{
    uint64_t *b = malloc((size_t)(reps > 0 ? reps : 1) * sizeof *b);
    if (!b) return 0;
    for (int i = 0; i < reps; i++) b[i] = sl_canon_bits(r[i]);
    qsort(b, (size_t)(reps > 0 ? reps : 0), sizeof *b, cmp_u64);
    uint64_t d = reps > 0;
    for (int i = 1; i < reps; i++) d += b[i] != b[i - 1];
    free(b);
    return d;
}

static sl_ref_bound_kind bound_kind(sl_bound_model m)
{
    switch (m) {
    case SL_BOUND_RECURSIVE: return SL_REF_BOUND_RECURSIVE;
    case SL_BOUND_COMPENSATED: return SL_REF_BOUND_COMPENSATED;
    case SL_BOUND_CORRECTLY_ROUNDED: return SL_REF_BOUND_CORRECTLY_ROUNDED;
    case SL_BOUND_BINNED: return SL_REF_BOUND_BINNED;
    default: break;               /* none, or another operation's model */
    }
    return SL_REF_BOUND_NONE;
}

/* Largest finite value of a format. */
static double fmt_max(sl_dtype dt)
{
    switch (dt) {
    case SL_F64: return DBL_MAX;
    case SL_F16: return 0x1.ffcp15;
    case SL_BF16: return 0x1.fep127;
    default: return FLT_MAX;
    }
}

double sl_variant_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg)
{
    const sl_operation *op = sl_op_of(v);
    return op && op->bound ? op->bound(v, ref, n, dt, cfg) : NAN;
}

double sl_sum_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                    const sl_launch *cfg)
{
    sl_ref_bound_kind kind = bound_kind(v->bound);
    if (kind == SL_REF_BOUND_NONE) return NAN;
    const sl_dtype acc = sl_variant_acc(v, dt);
    /* Higham's bounds assume no overflow: once sum|x| passes the accumulator's largest
     * finite value an intermediate may overflow, and no finite bound holds (for the chains of
     * adds; a correctly rounded or binned sum never forms such a partial sum: its bound stays) */
    if (ref->finite && !(ref->abssum <= fmt_max(acc)) &&
        (kind == SL_REF_BOUND_RECURSIVE || kind == SL_REF_BOUND_COMPENSATED))
        return INFINITY;
    /* finite inputs whose exact sum overflows the format: no result is within a finite
     * distance of a representable sum (the correctly rounded one is Inf itself) */
    if (ref->overflow) return INFINITY;
    double k = sl_variant_depth(v, n, dt, cfg);
    double b = sl_reference_bound(ref, kind, k, acc, dt);
    if (v->ftz_atomics && acc == SL_F32) b += 2.0 * k * (double)FLT_MIN;
    /* a correctly rounded result of a finite reference is finite: it cannot reach Inf */
    return kind == SL_REF_BOUND_CORRECTLY_ROUNDED ? b : sl_bound_reach(ref, b, dt);
}

double sl_bound_reach(const sl_reference *ref, double b, sl_dtype dt)
{
    /* A result within b of the exact sum S may reach the output format's overflow threshold
     * (|S| + b >= 2^128 - 2^103 for float32, 2^1024 - 2^970 for float64): its final rounding
     * (a float64 accumulator converted to float32, or any last add) may then give Inf, and
     * no finite bound holds. |S| + b is taken upward (one ulp of double above), and for
     * float64 the threshold is taken as DBL_MAX (one ulp early): vacuous a little sooner,
     * never too late. */
    if (!ref->finite || !(b < INFINITY)) return b;
    double reach = nextafter(fabs(ref->rounded_f64) + b, INFINITY);
    double threshold = dt == SL_F64 ? DBL_MAX : dt == SL_F16 ? 65520.0 : dt == SL_BF16 ? 0x1.ffp127
                                                                                    : 0x1.ffffffp127;
    return reach < threshold ? b : INFINITY;
}

int sl_bound_violated(const sl_reference *ref, double worst_abs_err, double bound)
{
    return ref->finite && !isnan(bound) && !(worst_abs_err <= bound);
}

/* Increasing order, equal values (0 and -0) by their bit patterns, NaNs last by their bit
 * patterns (a total order). */
static int cmp_value_bits(const void *a, const void *b)
{
    const sl_row_value *p = a, *q = b;
    const int na = isnan(p->value), nb = isnan(q->value);
    if (na != nb) return na - nb;
    if (!na) {
        if (p->value < q->value) return -1;
        if (p->value > q->value) return 1;
    }
    uint64_t x, y;
    memcpy(&x, &p->value, 8);
    memcpy(&y, &q->value, 8);
    return x < y ? -1 : x > y;
}

/* An error in ulps and its repetitions (the median's input). */
typedef struct {
    double ulps;
    uint64_t count;
} counted;

static int cmp_counted(const void *a, const void *b)
{
    const double x = ((const counted *)a)->ulps, y = ((const counted *)b)->ulps;
    return (x > y) - (x < y);
}

/* The value of rank k (0-based) among the counted values sorted by ulps. */
static double counted_kth(const counted *c, size_t n, uint64_t k)
{
    for (size_t i = 0; i < n; i++) {
        if (k < c[i].count) return c[i].ulps;
        k -= c[i].count;
    }
    return NAN;
}

/* Smallest, largest and spread in ulps of the results (NaN when any result is NaN). */
static void result_range(const sl_reference *ref, const sl_rep_agg *a, sl_row *row)
{
    const double mn = a->mn, mx = a->mx;
    row->min_result = a->anynan ? NAN : mn;
    row->max_result = a->anynan ? NAN : mx;
    if (a->anynan || !ref->finite || !isfinite(mn) || !isfinite(mx))
        row->spread_ulps = (!a->anynan && mn == mx) ? 0.0 : NAN;
    else
        row->spread_ulps = (mx - mn) / sl_ulp(ref->rounded, row->dt);
}

/* row->values (each distinct pattern with its count and signed ulps) and the errors over every
 * repetition: ulps median and max, the largest absolute error, any non-finite result. Exact
 * while the table holds every pattern; past its cap, the median comes from the histogram of
 * the table's errors (each with its count) and those of the results left out. */
static int judge_values(const sl_reference *ref, const sl_rep_agg *a, sl_row *row)
{
    const size_t nv = a->used;
    row->values = malloc((nv ? nv : 1) * sizeof *row->values);
    counted *u = malloc((nv ? nv : 1) * sizeof *u);
    if (!row->values || !u) {
        free(u);
        return -1;
    }
    double umax = a->other_ulps_max, amax = a->other_abs_max;
    int nonfinite = a->other_nonfinite;
    row->nvalues = 0;
    for (size_t i = 0; i < a->slots; i++) {
        if (!a->counts[i]) continue;
        sl_row_value *o = &row->values[row->nvalues];
        memcpy(&o->value, &a->keys[i], sizeof o->value);
        o->count = a->counts[i];
        const sl_errors e = sl_reference_errors(ref, o->value, row->dt);
        if (isnan(o->value)) o->ulps_signed = NAN;
        else if (!ref->finite) o->ulps_signed = e.ulps;
        else o->ulps_signed = mpfr_cmp_d(ref->sum, o->value) > 0 ? -e.ulps : e.ulps;
        u[row->nvalues].ulps = e.ulps;
        u[row->nvalues].count = o->count;
        if (!(e.ulps <= umax)) umax = e.ulps;              /* NaN-aware max */
        if (!(e.abs_err <= amax)) amax = e.abs_err;
        nonfinite |= !isfinite(o->value);
        row->nvalues++;
    }
    qsort(row->values, row->nvalues, sizeof *row->values, cmp_value_bits);
    row->ulps_max = umax;
    row->abs_err_max = amax;
    row->nonfinite = nonfinite;
    const uint64_t total = a->reps;
    int rc = 0;
    if (!a->other) {
        qsort(u, row->nvalues, sizeof *u, cmp_counted);
        row->ulps_median = total == 0 ? NAN
                           : (total & 1) ? counted_kth(u, row->nvalues, total / 2)
                                         : 0.5 * (counted_kth(u, row->nvalues, total / 2 - 1) +
                                                  counted_kth(u, row->nvalues, total / 2));
    } else {
        sl_hist *h = sl_hist_new();
        if (!h) rc = -1;
        for (size_t i = 0; !rc && i < row->nvalues; i++)
            if (sl_hist_add(h, u[i].ulps, u[i].count)) rc = -1;
        if (!rc && a->other_ulps && sl_hist_merge(h, a->other_ulps)) rc = -1;
        row->ulps_median = rc ? NAN : sl_hist_median(h, 0.0, umax);
        sl_hist_free(h);
    }
    free(u);
    /* keep only what the table held (it was sized for its slots' patterns) */
    sl_row_value *fit = realloc(row->values, (row->nvalues ? row->nvalues : 1) * sizeof *row->values);
    if (fit) row->values = fit;
    return rc;
}

void sl_judge_set_bound(const sl_reference *ref, sl_row *row, double bound)
{
    row->bound = bound;
    double s = fabs(ref->rounded_f64);
    row->bound_rel = isnan(row->bound) ? NAN : (s > 0 ? row->bound / s : INFINITY);
    row->bound_ratio = NAN;
    if (row->bound > 0) row->bound_ratio = row->err.abs_err / row->bound;
    else if (row->bound == 0) row->bound_ratio = row->err.abs_err == 0 ? 0 : INFINITY;
}

double sl_combined_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                         const sl_launch *cfg, int ranks)
{
    const double b = sl_variant_bound(v, ref, n, dt, cfg);
    if (ranks <= 1 || isnan(b) || !(b < INFINITY)) return b;
    const double u = sl_unit_roundoff(dt);
    const double ku = (double)(ranks - 1) * u;
    if (ku >= 0.5) return INFINITY;
    /* The slices' own errors: at most the whole input's bound for the models linear in sum|x|
     * (recursive, compensated: the depth grows with n, sum|x| adds over slices), plus each
     * slice's float32-atomics term, plus u sum|x| for each partial's final rounding (what
     * bounds a correctly rounded or binned local result: u |p_r| <= u sum over its slice). */
    double local = b + u * ref->abssum;
    if (v->ftz_atomics && dt == SL_F32)
        local += (double)(ranks - 1) * 2.0 * sl_variant_depth(v, n, dt, cfg) * (double)FLT_MIN;
    /* K partials summed in dt, each through at most K - 1 roundings whatever the algorithm:
     * |E| <= (1 + g) local + g sum|x|, g = gamma_{K-1}; evaluated with a relative margin of
     * 16 ulps of double for the roundings of this evaluation itself */
    const double g = ku / (1.0 - ku);
    const double tot = ((1.0 + g) * local + g * ref->abssum) * (1.0 + 0x1p-48);
    return sl_bound_reach(ref, tot, dt);
}

int sl_judge_row_agg(const sl_reference *ref, const sl_variant *v, sl_row *row, const sl_rep_agg *agg)
{
    row->exact = ref->rounded;
    row->cond = ref->cond;
    row->abssum = ref->abssum;
    row->have_exact = 1;
    row->judged = 1;
    row->result = agg->first;
    row->distinct = sl_rep_agg_distinct(agg);
    row->capped = sl_rep_agg_capped(agg);
    row->values_other = agg->other;
    result_range(ref, agg, row);
    sl_sketch_stats(&agg->times, &row->time_ms_median, &row->time_ms_min, &row->time_ms_max,
                    &row->times_binned);
    /* the bytes of every input the operation reads (dot: both arrays) */
    const sl_operation *vop = v ? sl_op_of(v) : NULL;
    double bytes = (double)row->n * (double)sl_dtype_size(row->dt) * (vop && vop->inputs == 2 ? 2.0 : 1.0);
    row->gbps = row->time_ms_median > 0 ? bytes / (row->time_ms_median * 1e6) : NAN;
    row->err = sl_reference_errors(ref, row->result, row->dt);
    sl_judge_set_bound(ref, row, sl_variant_bound(v, ref, row->n, row->dt, &row->cfg));
    if (agg->oom || judge_values(ref, agg, row)) return -1;
    return 0;
}

int sl_judge_row(const sl_reference *ref, const sl_variant *v, sl_row *row, const double *results,
                 const double *times)
{
    sl_rep_agg a;
    sl_rep_agg_init(&a, ref, row->dt);
    for (int r = 0; r < row->reps; r++) sl_rep_agg_add(&a, results[r], times ? times[r] : NAN);
    const int rc = sl_judge_row_agg(ref, v, row, &a);
    sl_rep_agg_free(&a);
    return rc;
}

const char *sl_row_capped_note(const sl_row *row, char *buf, size_t len)
{
    char a[288] = "", b[128] = "";
    if (row->capped)
        snprintf(a, sizeof a, "more than %d distinct results: distinct %llu is a lower bound; the "
                 "distribution lists the first %d met (%llu repetitions left out); ulps_median from a "
                 "histogram (within %.2g %%)", SL_AGG_DISTINCT_CAP, (unsigned long long)row->distinct,
                 SL_AGG_DISTINCT_CAP, (unsigned long long)row->values_other,
                 100.0 * ldexp(1.0, -(SL_HIST_BITS + 1)));
    if (row->times_binned)
        snprintf(b, sizeof b, "time_ms_median from a histogram of the %d runs (within %.2g %%)",
                 row->reps, 100.0 * ldexp(1.0, -(SL_HIST_BITS + 1)));
    snprintf(buf, len, "%s%s%s", a, *a && *b ? "; " : "", b);
    return buf;
}

void sl_judge_results(const sl_reference *ref, const sl_variant *v, uint64_t n, sl_dtype dt,
                      const sl_launch *cfg, const double *r, int reps, sl_judgement *out)
{
    out->distinct = sl_count_distinct(r, reps);
    out->bound = ref->finite || ref->overflow ? sl_variant_bound(v, ref, n, dt, cfg) : NAN;
    double worst = 0.0;
    for (int i = 0; i < reps; i++) {
        double e = sl_reference_errors(ref, r[i], dt).abs_err;
        if (!(e <= worst)) worst = e;        /* NaN-aware max */
    }
    out->worst_abs_err = worst;
}

void sl_judge_value(const sl_reference *ref, const sl_variant *bound_of, double value,
                    sl_value_judgement *out)
{
    out->err = sl_reference_errors(ref, value, ref->dtype);
    out->ulps_f64 = ref->dtype == SL_F64 ? out->err.ulps : sl_reference_errors(ref, value, SL_F64).ulps;
    out->bound = out->bound_ratio = NAN;
    if (!bound_of) return;
    sl_launch cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ddof = ref->ddof;
    sl_variant_resolve(bound_of, &cfg, ref->n, ref->dtype);
    out->bound = sl_variant_bound(bound_of, ref, ref->n, ref->dtype, &cfg);
    if (out->bound > 0) out->bound_ratio = out->err.abs_err / out->bound;
    else if (out->bound == 0) out->bound_ratio = out->err.abs_err == 0 ? 0 : INFINITY;
}

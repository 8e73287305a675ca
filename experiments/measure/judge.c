/* judge.c: every figure of a row from its results and the exact reference (sl_measure.h):
 * distinct results, spread, errors, ulps median/max, signed ulps of each distinct result, the
 * variant's a-priori bound and the bound ratio, times and GB/s. Nothing here prints. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sl_measure_impl.h"
#include "sl_ops.h"

uint64_t sl_canon_bits(double v)
{
    if (isnan(v)) return 0x7ff8000000000000ull;
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

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
     * finite value an intermediate may overflow, and no finite bound holds */
    if (ref->finite && !(ref->abssum <= fmt_max(acc))) return INFINITY;
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

/* Signed distance of value from the exact sum, in ulps of the rounded exact sum. */
static double signed_ulps(const sl_reference *ref, double value, sl_dtype dt)
{
    if (isnan(value)) return NAN;
    sl_errors e = sl_reference_errors(ref, value, dt);
    if (!ref->finite) return e.ulps;
    int s = mpfr_cmp_d(ref->sum, value);     /* > 0: value below the exact sum */
    return s > 0 ? -e.ulps : e.ulps;
}

/* Increasing order; equal values (0 and -0) by their bit patterns. */
static int cmp_double_bits(const void *a, const void *b)
{
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    double dx = *(const double *)a, dy = *(const double *)b;
    if (dx < dy) return -1;
    if (dx > dy) return 1;
    return x < y ? -1 : x > y;
}

/* row->values: each distinct bit pattern of the results with its count and signed ulps. */
static int distinct_values(const sl_reference *ref, sl_row *row)
{
    const int reps = row->reps;
    double *vals = malloc((size_t)reps * sizeof *vals);
    row->values = malloc((size_t)reps * sizeof *row->values);
    if (!vals || !row->values) {
        free(vals);
        return -1;
    }
    memcpy(vals, row->results, (size_t)reps * sizeof *vals);
    qsort(vals, (size_t)reps, sizeof *vals, cmp_double_bits);
    for (int i = 0; i < reps;) {
        int j = i + 1;
        while (j < reps && !memcmp(&vals[j], &vals[i], sizeof(double))) j++;
        sl_row_value *o = &row->values[row->nvalues++];
        o->value = vals[i];
        o->count = (uint64_t)(j - i);
        o->ulps_signed = signed_ulps(ref, vals[i], row->dt);
        i = j;
    }
    free(vals);
    /* keep only the distinct ones (the table was sized for reps) */
    sl_row_value *fit = realloc(row->values, row->nvalues * sizeof *row->values);
    if (fit) row->values = fit;
    return 0;
}

/* Smallest, largest and spread in ulps of the results (NaN when any result is NaN). */
static void result_range(const sl_reference *ref, sl_row *row)
{
    const double *r = row->results;
    int anynan = 0;
    double mn = r[0], mx = r[0];
    for (int i = 0; i < row->reps; i++) {
        if (isnan(r[i])) anynan = 1;
        else {
            if (isnan(mn) || r[i] < mn) mn = r[i];
            if (isnan(mx) || r[i] > mx) mx = r[i];
        }
    }
    row->min_result = anynan ? NAN : mn;
    row->max_result = anynan ? NAN : mx;
    if (anynan || !ref->finite || !isfinite(mn) || !isfinite(mx))
        row->spread_ulps = (!anynan && mn == mx) ? 0.0 : NAN;
    else
        row->spread_ulps = (mx - mn) / sl_ulp(ref->rounded, row->dt);
}

/* Error in ulps of every repetition: median and max. */
static int ulps_stats(const sl_reference *ref, sl_row *row)
{
    double *u = malloc((size_t)row->reps * sizeof *u);
    if (!u) return -1;
    for (int r = 0; r < row->reps; r++) u[r] = sl_reference_errors(ref, row->results[r], row->dt).ulps;
    row->ulps_median = sl_median(u, (size_t)row->reps);
    row->ulps_max = u[row->reps - 1];
    free(u);
    return 0;
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

int sl_judge_row(const sl_reference *ref, const sl_variant *v, sl_row *row, const double *times)
{
    const int reps = row->reps;
    row->exact = ref->rounded;
    row->cond = ref->cond;
    row->abssum = ref->abssum;
    row->have_exact = 1;
    row->judged = 1;
    row->result = row->results[0];
    row->distinct = sl_count_distinct(row->results, reps);
    result_range(ref, row);
    sl_stats(times, reps > 0 ? (size_t)reps : 0, &row->time_ms_median, &row->time_ms_min, &row->time_ms_max);
    double bytes = (double)row->n * (double)sl_dtype_size(row->dt);
    row->gbps = row->time_ms_median > 0 ? bytes / (row->time_ms_median * 1e6) : NAN;
    row->err = sl_reference_errors(ref, row->result, row->dt);
    sl_judge_set_bound(ref, row, sl_variant_bound(v, ref, row->n, row->dt, &row->cfg));
    if (ulps_stats(ref, row) || distinct_values(ref, row)) return -1;
    return 0;
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

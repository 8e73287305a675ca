/* tagg.c: a row's repetitions folded as they arrive (sl_rep_agg, sl_sketch; stats.c, judge.c):
 * every figure exact below the caps, equal to the figures of the whole arrays; past them the row
 * is flagged, the distinct count a lower bound, the medians within the histogram's resolution and
 * the maxima exact; and a measured row (chunks over threads) equals its results judged whole. */
#include <math.h>
#include "sl_measure.h"
#include "sl_test.h"
#include "sl_verdict.h"

static uint64_t bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static int same(double a, double b) { return (isnan(a) && isnan(b)) || bits_of(a) == bits_of(b); }

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double uniform01(void) { return (double)(sl_test_rand64() >> 11) * 0x1p-53; }

/* The input: 64 float32 values in [0.5, 1), S near 48 (its ulp 2^-18). */
static int make_ref(sl_reference *ref, float *x)
{
    sl_err err = {{0}};
    for (int i = 0; i < 64; i++) x[i] = (float)(0.5 + 0.5 * uniform01());
    int rc = sl_reference_compute(ref, x, 64, SL_F32, &err);
    CHECK(rc == 0, "reference: %s", err.msg);
    return rc;
}

/* Every figure of row against the arrays r[0..R) and t[0..R) (t NULL: none), computed here one
 * repetition at a time: exact below the caps. */
static void check_exact(const sl_reference *ref, const sl_row *row, const double *r, const double *t, int R,
                        const char *what)
{
    CHECK(!row->capped && row->values_other == 0, "%s: flagged capped", what);
    CHECK(same(row->result, r[0]), "%s: result %a, first %a", what, row->result, r[0]);
    CHECK(row->distinct == sl_count_distinct(r, R), "%s: distinct %llu, counted %llu", what,
          (unsigned long long)row->distinct, (unsigned long long)sl_count_distinct(r, R));
    int anynan = 0;
    double mn = NAN, mx = NAN, amax = 0, *u = malloc((size_t)R * sizeof *u);
    if (!u) return;
    for (int i = 0; i < R; i++) {
        if (isnan(r[i])) anynan = 1;
        else {
            if (isnan(mn) || r[i] < mn) mn = r[i];
            if (isnan(mx) || r[i] > mx) mx = r[i];
        }
        const sl_errors e = sl_reference_errors(ref, r[i], SL_F32);
        u[i] = e.ulps;
        if (!(e.abs_err <= amax)) amax = e.abs_err;
    }
    CHECK(same(row->min_result, anynan ? NAN : mn) && same(row->max_result, anynan ? NAN : mx),
          "%s: min %a max %a, want %a %a", what, row->min_result, row->max_result, mn, mx);
    CHECK(same(row->abs_err_max, amax), "%s: abs_err_max %a, want %a", what, row->abs_err_max, amax);
    const double med = sl_median(u, (size_t)R);
    CHECK(same(row->ulps_median, med) && same(row->ulps_max, u[R - 1]), "%s: ulps median %a max %a, want %a %a",
          what, row->ulps_median, row->ulps_max, med, u[R - 1]);
    free(u);
    /* the distribution: increasing, counts adding up to R, each count the pattern's */
    uint64_t total = 0, *b = malloc((size_t)R * sizeof *b);
    if (!b) return;
    for (int k = 0; k < R; k++) b[k] = bits_of(r[k]);
    qsort(b, (size_t)R, sizeof *b, cmp_u64);
    int ordered = 1, counts_ok = 1;
    for (size_t i = 0; i < row->nvalues; i++) {
        total += row->values[i].count;
        if (i && !isnan(row->values[i].value) && !(row->values[i - 1].value <= row->values[i].value)) ordered = 0;
        if (i && isnan(row->values[i - 1].value) && !isnan(row->values[i].value)) ordered = 0;
        const uint64_t key = bits_of(row->values[i].value);
        size_t lo = 0, hi = (size_t)R;   /* the first b[] >= key */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (b[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        uint64_t c = 0;
        while (lo + c < (size_t)R && b[lo + c] == key) c++;
        if (c != row->values[i].count) counts_ok = 0;
    }
    free(b);
    CHECK(total == (uint64_t)R && ordered && counts_ok, "%s: values: total %llu of %d, ordered %d, counts %d",
          what, (unsigned long long)total, R, ordered, counts_ok);
    if (t) {
        double tm, tn, tx;
        sl_stats(t, (size_t)R, &tm, &tn, &tx);
        CHECK(!row->times_binned && same(row->time_ms_median, tm) && same(row->time_ms_min, tn) &&
              same(row->time_ms_max, tx), "%s: times %a %a %a (binned %d), want %a %a %a", what,
              row->time_ms_median, row->time_ms_min, row->time_ms_max, row->times_binned, tm, tn, tx);
    }
}

static void judge_agg(const sl_reference *ref, const double *r, const double *t, int R, sl_row *row,
                      sl_rep_agg *a)
{
    sl_row_empty(row, "cpu", SL_F32, 64);
    row->reps = R;
    sl_rep_agg_init(a, ref, SL_F32);
    for (int i = 0; i < R; i++) sl_rep_agg_add(a, r[i], t ? t[i] : NAN);
    CHECK(sl_judge_row_agg(ref, sl_variant_find("serial"), row, a) == 0, "judging failed");
}

/* Below the caps: a few dozen patterns around S (with -0, +0, NaNs of two payloads, an Inf). */
static void below_caps(const sl_reference *ref)
{
    enum { R = 4000 };
    static double r[R], t[R];
    const double s = ref->rounded, ulp = 0x1p-18;
    for (int i = 0; i < R; i++) {
        r[i] = s + (double)((int)(sl_test_rand64() % 41) - 20) * ulp;
        t[i] = 0.1 + 10.0 * uniform01();
    }
    sl_row row;
    sl_rep_agg a;
    judge_agg(ref, r, t, R, &row, &a);
    check_exact(ref, &row, r, t, R, "finite results");
    sl_verdict_facts f;
    sl_verdict_facts_of_row(ref, sl_variant_find("serial"), &row, &f);
    sl_verdict_facts g;
    sl_launch cfg = row.cfg;
    sl_verdict_facts_of_results(ref, sl_variant_find("serial"), 64, SL_F32, &cfg, r, R, 1, &g);
    CHECK(f.distinct == g.distinct && same(f.worst_abs_err, g.worst_abs_err) && f.nonfinite == g.nonfinite &&
          f.all_rounded == g.all_rounded, "verdict facts of the row differ from those of the results");
    sl_row_free(&row);
    sl_rep_agg_free(&a);

    /* NaNs (two payloads: one pattern for distinct, two in the distribution), Inf, -0 and +0 */
    uint64_t q = 0x7ff8000000000001ull;
    double nan2;
    memcpy(&nan2, &q, sizeof nan2);
    const double special[] = {NAN, nan2, INFINITY, -0.0, 0.0};
    for (int i = 0; i < R; i += 7) r[i] = special[(i / 7) % 5];
    judge_agg(ref, r, t, R, &row, &a);
    check_exact(ref, &row, r, t, R, "with NaN, Inf, -0");
    CHECK(row.nonfinite == 1, "nonfinite not seen");
    CHECK(isnan(row.values[row.nvalues - 1].value) && isnan(row.values[row.nvalues - 2].value),
          "the NaNs are not last in the distribution");
    sl_verdict_facts_of_row(ref, sl_variant_find("serial"), &row, &f);
    sl_verdict_facts_of_results(ref, sl_variant_find("serial"), 64, SL_F32, &cfg, r, R, 1, &g);
    CHECK(f.distinct == g.distinct && same(f.worst_abs_err, g.worst_abs_err) && f.nonfinite == g.nonfinite &&
          f.all_rounded == g.all_rounded, "verdict facts (NaN) of the row differ from those of the results");
    sl_row_free(&row);
    sl_rep_agg_free(&a);

    /* all equal (the twin check): every NaN as one pattern */
    sl_rep_agg_init(&a, ref, SL_F32);
    sl_rep_agg_add(&a, NAN, NAN);
    sl_rep_agg_add(&a, nan2, NAN);
    CHECK(sl_rep_agg_all_equal(&a, NAN) && !sl_rep_agg_all_equal(&a, 1.0), "NaNs all equal a NaN");
    sl_rep_agg_add(&a, 1.0, NAN);
    CHECK(!sl_rep_agg_all_equal(&a, NAN), "a 1.0 among NaNs");
    sl_rep_agg_free(&a);
}

/* Past the time cap: the median from the histogram within 2^-(SL_HIST_BITS+1) relative; min and
 * max exact. */
static void past_time_cap(const sl_reference *ref)
{
    enum { R = 3 * SL_AGG_TIMES_CAP };
    static double r[R], t[R];
    for (int i = 0; i < R; i++) {
        r[i] = ref->rounded;
        t[i] = 0.01 * pow(10000.0, uniform01());   /* 0.01 .. 100 ms */
    }
    sl_row row;
    sl_rep_agg a;
    judge_agg(ref, r, t, R, &row, &a);
    double tm, tn, tx;
    sl_stats(t, R, &tm, &tn, &tx);
    const double tol = ldexp(1.0, -(SL_HIST_BITS + 1));
    CHECK(row.times_binned == 1, "times past the cap not flagged binned");
    CHECK(fabs(row.time_ms_median - tm) <= tol * tm, "binned median %.17g, exact %.17g (rel %.3g)",
          row.time_ms_median, tm, fabs(row.time_ms_median - tm) / tm);
    CHECK(row.time_ms_min == tn && row.time_ms_max == tx, "min/max %a %a, want %a %a", row.time_ms_min,
          row.time_ms_max, tn, tx);
    CHECK(row.distinct == 1 && !row.capped && row.ulps_median == row.ulps_max, "one result: distinct %llu",
          (unsigned long long)row.distinct);
    char note[512];
    CHECK(strstr(sl_row_capped_note(&row, note, sizeof note), "histogram") != NULL, "note: '%s'", note);
    sl_row_free(&row);
    sl_rep_agg_free(&a);
    /* at the cap exactly: still exact */
    judge_agg(ref, r, t, SL_AGG_TIMES_CAP, &row, &a);
    check_exact(ref, &row, r, t, SL_AGG_TIMES_CAP, "times at the cap");
    CHECK(sl_row_capped_note(&row, note, sizeof note)[0] == '\0', "a note for an exact row: '%s'", note);
    sl_row_free(&row);
    sl_rep_agg_free(&a);
}

/* Past the distinct cap: R distinct results in a random order. */
static void past_distinct_cap(const sl_reference *ref)
{
    enum { EXTRA = 3000, R = SL_AGG_DISTINCT_CAP + EXTRA };
    double *r = malloc(R * sizeof *r), *u = malloc(R * sizeof *u);
    if (!r || !u) {
        free(r);
        free(u);
        CHECK(0, "out of memory");
        return;
    }
    const double s = ref->rounded, ulp = 0x1p-18;
    for (int i = 0; i < R; i++) r[i] = s + (double)(i - R / 3) * ulp;   /* within S's binade */
    for (int i = R - 1; i > 0; i--) {                                      /* shuffled */
        int j = (int)(sl_test_rand64() % (uint64_t)(i + 1));
        double x = r[i];
        r[i] = r[j];
        r[j] = x;
    }
    sl_row row;
    sl_rep_agg a;
    /* exactly at the cap: exact */
    judge_agg(ref, r, NULL, SL_AGG_DISTINCT_CAP, &row, &a);
    check_exact(ref, &row, r, NULL, SL_AGG_DISTINCT_CAP, "distinct at the cap");
    CHECK(row.distinct == SL_AGG_DISTINCT_CAP, "distinct %llu at the cap", (unsigned long long)row.distinct);
    sl_row_free(&row);
    sl_rep_agg_free(&a);
    /* past it: flagged, a lower bound, maxima exact, the median binned */
    judge_agg(ref, r, NULL, R, &row, &a);
    CHECK(row.capped == 1 && row.values_other == EXTRA && row.nvalues == SL_AGG_DISTINCT_CAP,
          "capped %d, other %llu, nvalues %zu", row.capped, (unsigned long long)row.values_other, row.nvalues);
    CHECK(row.distinct > SL_AGG_DISTINCT_CAP && row.distinct <= (uint64_t)R, "distinct %llu not a lower bound",
          (unsigned long long)row.distinct);
    double amax = 0, mn = INFINITY, mx = -INFINITY;
    for (int i = 0; i < R; i++) {
        const sl_errors e = sl_reference_errors(ref, r[i], SL_F32);
        u[i] = e.ulps;
        if (e.abs_err > amax) amax = e.abs_err;
        if (r[i] < mn) mn = r[i];
        if (r[i] > mx) mx = r[i];
    }
    const double med = sl_median(u, R);
    CHECK(row.abs_err_max == amax && row.ulps_max == u[R - 1] && row.min_result == mn && row.max_result == mx,
          "capped maxima: abs %a/%a ulps %a/%a", row.abs_err_max, amax, row.ulps_max, u[R - 1]);
    CHECK(fabs(row.ulps_median - med) <= ldexp(1.0, -(SL_HIST_BITS + 1)) * med,
          "capped ulps median %.17g, exact %.17g", row.ulps_median, med);
    char note[512];
    CHECK(strstr(sl_row_capped_note(&row, note, sizeof note), "lower bound") != NULL, "note: '%s'", note);
    sl_verdict_facts f;
    sl_verdict_facts_of_row(ref, sl_variant_find("serial"), &row, &f);
    CHECK(f.distinct == row.distinct && !f.all_rounded && f.worst_abs_err == amax, "capped facts");
    sl_row_free(&row);
    sl_rep_agg_free(&a);
    free(r);
    free(u);
}

/* A measured row (repetitions in chunks of SL_MEASURE_CHUNK spread over threads) equals its
 * results handed back whole and judged at once, and the same for 1 and 3 threads. */
static void measured_rows(void)
{
    /* 4096 values of both signs over 20 binades: the order of the adds shows in the result */
    enum { N = 4096 };
    static float x[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)ldexp((sl_test_rand64() & 1 ? 1.0 : -1.0) * (1.0 + uniform01()), (int)(sl_test_rand64() % 20) - 10);
    const sl_variant *v = sl_variant_find("atomic-thread");   /* nondeterministic: a seed per rep */
    CHECK(v && v->cpu, "atomic-thread with a CPU twin");
    if (!v) return;
    enum { R = 2 * SL_MEASURE_CHUNK + 77 };
    static double keep[2][R];
    sl_row rows[2];
    sl_err err = {{0}};
    for (int k = 0; k < 2; k++) {
        sl_session *s = NULL;
        sl_session_opts o = {.backend = SL_BACKEND_CPU, .threads = k ? 3 : 1};
        if (sl_session_open_opts(&s, x, N, SL_F32, &o, NULL, 0, &err)) {
            CHECK(0, "session: %s", err.msg);
            return;
        }
        sl_launch req;
        memset(&req, 0, sizeof req);
        req.order_seed = 12345;
        CHECK(sl_measure_results(s, v, &req, R, 0, &rows[k], keep[k], &err) == 0, "measure: %s", err.msg);
        sl_row whole = rows[k];
        whole.values = NULL;
        CHECK(sl_judge_row(sl_session_reference(s), v, &whole, keep[k], NULL) == 0, "judge whole");
        check_exact(sl_session_reference(s), &rows[k], keep[k], NULL, R, k ? "measured, 3 threads" : "measured");
        CHECK(whole.nvalues == rows[k].nvalues && whole.distinct == rows[k].distinct &&
              same(whole.ulps_median, rows[k].ulps_median), "measured row differs from its results judged whole");
        sl_row_free(&whole);
        sl_session_close(s);
    }
    CHECK(!memcmp(keep[0], keep[1], sizeof keep[0]) && rows[0].distinct == rows[1].distinct &&
          same(rows[0].ulps_median, rows[1].ulps_median), "1 and 3 threads differ");
    CHECK(rows[0].distinct > 1, "atomic-thread gave one result over %d seeds", R);
    sl_row_free(&rows[0]);
    sl_row_free(&rows[1]);
}

/* sl_median and sl_stats leave NaN (a missing figure) out: a total order for qsort, the
 * statistics of the numbers alone, NaN when there are none. */
static void order_statistics_with_nan(void)
{
    double v[7] = {NAN, 3.0, -1.0, NAN, 2.0, INFINITY, NAN}, med, mn, mx;
    sl_stats(v, 7, &med, &mn, &mx);
    CHECK(med == 2.5 && mn == -1.0 && mx == INFINITY, "stats with NaN: %g %g %g, want 2.5 -1 inf", med, mn, mx);
    CHECK(isnan(v[0]) && v[1] == 3.0, "sl_stats left its input alone");
    med = sl_median(v, 7);
    CHECK(med == 2.5 && v[0] == -1.0 && v[3] == INFINITY && isnan(v[4]) && isnan(v[6]),
          "median with NaN: %g (sorted %g %g %g %g)", med, v[0], v[1], v[2], v[3]);
    double w[3] = {NAN, NAN, NAN};
    sl_stats(w, 3, &med, &mn, &mx);
    CHECK(isnan(med) && isnan(mn) && isnan(mx) && isnan(sl_median(w, 3)), "all NaN: NaN statistics");
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    order_statistics_with_nan();
    float x[64];
    sl_reference ref;
    if (make_ref(&ref, x)) return sl_test_done("tagg");
    below_caps(&ref);
    past_time_cap(&ref);
    past_distinct_cap(&ref);
    sl_reference_clear(&ref);
    measured_rows();
    return sl_test_done("tagg");
}

/* verdicts.c: the determinism verdict of every variant from the `determinism` rows of
 * results.csv alone: the strongest class its rows support against the class it claims. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"

static int class_rank(const char *s)
{
    static const char *const names[] = {"nondeterministic", "run-to-run", "config-independent",
                                        "order-independent", "correctly-rounded"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) return i;
    return -1;
}
static const char *class_name(int r)
{
    static const char *const names[] = {"nondeterministic", "run-to-run", "config-independent",
                                        "order-independent", "correctly-rounded"};
    return r >= 0 && r < 5 ? names[r] : "unknown";
}

/* A count read from the file as a number: -1 when absent (NaN) or negative, at most 2^53 (a
 * damaged file's 1e300 is no repetition count, and no long can hold it). */
static long count_of(double d)
{
    if (isnan(d) || d < 0) return -1;
    return d > 0x1p53 ? (long)0x1p53 : (long)d;
}

/* The detail's texts, and the room each takes at most: a %ld prints at most LONG_TEXT bytes
 * ("-9223372036854775808"), a name SL_REPORT_NAME_MAX, a note SL_REPORT_NOTE_MAX (what
 * report/check.c lets through); a format's own length counts its conversions too, so each
 * bound is above the longest text. */
#define LONG_TEXT 20
#define SKIPPED_FMT "not run on this backend: %s"
#define WHAT_REPS "several results over the repetitions of one input"
#define WHAT_CFG "other bits under another launch configuration"
#define WHAT_PERM "other bits for another order of the same input"
#define WHAT_CR "results that are not the exact sum correctly rounded"
#define WHY_FAIL_FMT "claim failed: %s measured %s; "
#define WHY_NONE "no documented class to check; "
#define WHY_TRIVIAL "claim is trivially met; "
#define OTHER_FMT "; %ld of %ld rows of other experiments gave several results over their repetitions (up to %ld, %s)"
#define DETAIL_FMT "%s%ld distinct of %ld reps (max over inputs); %ld/%ld configs and %ld/%ld permutations " \
                   "gave other bits than the default%s%s"
#define INCOMPLETE " (*incomplete run)"
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define WHAT_ROOM MAX2(MAX2(sizeof WHAT_REPS, sizeof WHAT_CFG), MAX2(sizeof WHAT_PERM, sizeof WHAT_CR))
#define WHY_ROOM MAX2(sizeof WHY_FAIL_FMT + SL_REPORT_NAME_MAX + WHAT_ROOM, MAX2(sizeof WHY_NONE, sizeof WHY_TRIVIAL))
#define OTHER_ROOM (sizeof OTHER_FMT + 3 * LONG_TEXT + SL_REPORT_NAME_MAX)
_Static_assert(sizeof ((sl_det_verdict *)0)->detail >= sizeof SKIPPED_FMT + SL_REPORT_NOTE_MAX,
               "a verdict's detail holds \"not run ...\" and the longest note");
_Static_assert(sizeof ((sl_det_verdict *)0)->detail >=
                   sizeof DETAIL_FMT + WHY_ROOM + 7 * LONG_TEXT + OTHER_ROOM + sizeof INCOMPLETE,
               "a verdict's detail holds its longest measured form");
_Static_assert(sizeof ((sl_det_verdict *)0)->claimed > SL_REPORT_NAME_MAX, "a det_class name fits");

size_t sl_det_verdicts(const sl_csv *t, sl_det_verdict *out, size_t max)
{
    cols c;
    sl_report_cols(t, &c);
    const char *names[SL_REPORT_MAX_VARIANTS];
    size_t nv = sl_report_variant_names(t, names, SL_REPORT_MAX_VARIANTS), k = 0;
    /* the variant's determinism rows, in file order (each looked for once, not per row) */
    size_t *idx = malloc((t->nrows ? t->nrows : 1) * sizeof *idx);
    if (!idx) return 0;
    for (size_t i = 0; i < nv && k < max; i++) {
        sl_det_verdict *v = &out[k];
        memset(v, 0, sizeof *v);
        sl_report_fit(v->variant, sizeof v->variant, "%s", names[i]);
        v->reps_distinct = -1;
        v->spread_ulps = NAN;
        long nrows = 0, nok = 0, ndef = 0, ncfg = 0, nperm = 0, cfg_diff = 0, perm_diff = 0,
             rep_diff = 0, rep_rows = 0, cr_diff = 0, other_rows = 0, other_diff = 0, other_max = 0;
        const char *skip_note = NULL, *other_exp = "";
        long reps_max = 0;
        size_t nidx = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            if (!IS(r, variant, names[i])) continue;
            if (IS(r, exp, "determinism")) { idx[nidx++] = r; continue; }
            /* the repetitions of every other experiment's rows are measurements too: more than
             * one distinct result there contradicts any claim of run-to-run or more */
            if (!IS(r, status, "ok")) continue;
            const double d = NUM(r, distinct);
            if (isnan(d)) continue;
            other_rows++;
            if (d > 1) {
                other_diff++;
                if (count_of(d) > other_max) { other_max = count_of(d); other_exp = GET(r, exp); }
            }
        }
        for (size_t ri = 0; ri < nidx; ri++) {
            const size_t r = idx[ri];
            nrows++;
            if (!v->claimed[0]) sl_report_fit(v->claimed, sizeof v->claimed, "%s", GET(r, det_class));
            if (!IS(r, status, "ok")) { if (!skip_note) skip_note = GET(r, note); continue; }
            nok++;
            const double dd = NUM(r, distinct);
            const long d = count_of(dd);                /* -1: not measured */
            if (d >= 1) { rep_rows++; if (d != 1) rep_diff++; }
            if (strcmp(GET(r, result_hex), GET(r, exact_hex))) cr_diff++;
            const char *cfg = GET(r, config);
            if (!strcmp(cfg, "default")) {
                ndef++;
                if (d > v->reps_distinct) v->reps_distinct = d;
                long rp = count_of(NUM(r, reps));
                if (rp > reps_max) reps_max = rp;
                double sp = NUM(r, spread);
                if (!isnan(sp) && (isnan(v->spread_ulps) || sp > v->spread_ulps)) v->spread_ulps = sp;
                continue;
            }
            /* the default row of the same input */
            const char *base = NULL;
            for (size_t qi = 0; qi < nidx && !base; qi++) {
                const size_t q = idx[qi];
                if (IS(q, config, "default") &&
                    IS(q, status, "ok") && !strcmp(GET(q, ds), GET(r, ds)) &&
                    !strcmp(GET(q, dtype), GET(r, dtype)) && !strcmp(GET(q, n), GET(r, n)) &&
                    !strcmp(GET(q, params), GET(r, params)))
                    base = GET(q, result_hex);
            }
            int differs = !base || strcmp(base, GET(r, result_hex));
            if (!strncmp(cfg, "cfg:", 4)) { ncfg++; cfg_diff += differs; }
            else if (!strncmp(cfg, "perm:", 5)) { nperm++; perm_diff += differs; }
        }
        if (!nrows) continue;     /* no determinism rows for this variant */
        k++;
        if (!v->claimed[0]) snprintf(v->claimed, sizeof v->claimed, "unknown");
        if (!nok) {
            snprintf(v->verdict, sizeof v->verdict, "n/a");
            snprintf(v->observed, sizeof v->observed, "-");
            sl_report_fit(v->detail, sizeof v->detail, SKIPPED_FMT, skip_note ? skip_note : "");
            continue;
        }
        /* observed: the strongest class whose every requirement was measured and held (a
         * requirement without rows caps it: e.g. no launch-configuration rows, no
         * config-independent) */
        const long reps_bad = rep_diff + other_diff;
        int obs;
        if (reps_bad) obs = 0;
        else if (!rep_rows || !ndef) obs = -1;           /* nothing measured beyond one result */
        else if (cfg_diff || !ncfg) obs = 1;
        else if (perm_diff || !nperm) obs = 2;
        else if (cr_diff) obs = 3;
        else obs = 4;
        snprintf(v->observed, sizeof v->observed, "%s", obs < 0 ? "-" : class_name(obs));
        /* the verdict: FAIL when a measurement contradicts the claim; PASS when every
         * requirement of the claim was measured and held; PASS* when what was measured held
         * but a requirement has no rows */
        const int claimed = class_rank(v->claimed);
        const int fail = claimed >= 1 && (reps_bad || (claimed >= 2 && cfg_diff) || (claimed >= 3 && perm_diff) ||
                                          (claimed >= 4 && cr_diff));
        const int measured = claimed <= 0 || (rep_rows && ndef && (claimed < 2 || ncfg) && (claimed < 3 || nperm));
        const int complete = ndef > 0 && ncfg > 0 && nperm > 0;
        if (claimed < 0) snprintf(v->verdict, sizeof v->verdict, "n/a");
        else if (claimed == 0) snprintf(v->verdict, sizeof v->verdict, "PASS");
        else if (fail) snprintf(v->verdict, sizeof v->verdict, "FAIL");
        else snprintf(v->verdict, sizeof v->verdict, measured && complete ? "PASS" : "PASS*");
        char why[WHY_ROOM] = "";
        if (fail) {
            const char *what = reps_bad ? WHAT_REPS
                               : cfg_diff && claimed >= 2 ? WHAT_CFG
                               : perm_diff && claimed >= 3 ? WHAT_PERM
                                                           : WHAT_CR;
            sl_report_fit(why, sizeof why, WHY_FAIL_FMT, v->claimed, what);
        } else if (claimed < 0) {
            sl_report_fit(why, sizeof why, WHY_NONE);
        } else if (claimed == 0) {
            sl_report_fit(why, sizeof why, WHY_TRIVIAL);
        }
        char other[OTHER_ROOM] = "";
        if (other_diff && claimed != 0)
            sl_report_fit(other, sizeof other, OTHER_FMT, other_diff, other_rows, other_max, other_exp);
        sl_report_fit(v->detail, sizeof v->detail, DETAIL_FMT, why, v->reps_distinct, reps_max, cfg_diff, ncfg,
                      perm_diff, nperm, other, complete ? "" : INCOMPLETE);
    }
    free(idx);
    return k;
}

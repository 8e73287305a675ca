/* sl_report.h: report.md of a run directory, made from its results.csv alone (so a resumed or
 * copied run reports the same), the determinism verdicts, and the charts rendered by
 * plots/render.sh. */
#ifndef SL_REPORT_H
#define SL_REPORT_H
#include "sl_results.h"
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes DIR/report.md from DIR/results.csv (+ run.conf, meta.json, charts/). notes: lines for
 * a "Notes" section (may be NULL). Returns 0 or -1 with err. */
int sl_report_write(const char *dir, const sl_notes *notes, sl_err *err);

/* The longest fields a results file passes report/check.c with (bytes, the NUL not counted): a
 * note (UTF-8 text), a name (experiment, det_class, config ...). */
#define SL_REPORT_NOTE_MAX 4096
#define SL_REPORT_NAME_MAX 64
/* a dataset: a registry name, or "file:NAME" of run --files (NAME up to 140: a pair's "A+B") */
#define SL_REPORT_FILE_NAME_MAX 140
#define SL_REPORT_DATASET_MAX (5 + SL_REPORT_FILE_NAME_MAX)
/* A verdict's detail holds a whole note and the fixed text around it (verdicts.c checks every
 * form of it against this at compile time): nothing of a checked file is cut. */
#define SL_DET_DETAIL_MAX (SL_REPORT_NOTE_MAX + 512)

/* Determinism verdict of one variant over the `determinism` rows of a results table. A field
 * of a table no check has read that is longer than its room is cut on a UTF-8 character
 * boundary and ends in "[...]" (never silently). */
typedef struct {
    char variant[SL_REPORT_NAME_MAX + 1];
    char claimed[SL_REPORT_NAME_MAX + 1];
    char verdict[16];          /* PASS, FAIL, n/a */
    char observed[32];         /* strongest class the data supports */
    char detail[SL_DET_DETAIL_MAX + 1];
    long reps_distinct;        /* distinct results over the reps row(s) (max); -1 none */
    double spread_ulps;        /* max over reps rows */
} sl_det_verdict;
/* Fills up to max verdicts, one per variant seen in the table (registry order first). */
size_t sl_det_verdicts(const sl_csv *t, sl_det_verdict *out, size_t max);

/* Renders DIR's charts with plots/render.sh (found through $SUMLAB_PLOTS_DIR, next to the
 * binary, or in the source tree); SUMLAB_NO_CHARTS=1 skips it. What went wrong becomes a note.
 * Returns render.sh's exit code (3: gnuplot missing), or -1 when it could not be started. */
int sl_charts_render(const char *dir, int quiet, sl_notes *notes);

#ifdef __cplusplus
}
#endif
#endif

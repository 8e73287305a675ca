/* sweeps.h: the report sections that answer the user's sweep (sweeps.c): error per variant at
 * each condition-number decade and dynamic range (median over instances, ratio to a baseline),
 * determinism per input, results exactly 0 or non-finite against a non-zero S, and the
 * anchors (numpy.sum, math.fsum, torch.sum) judged by `sumlab judge`. */
#ifndef SL_REPORT_SWEEPS_H
#define SL_REPORT_SWEEPS_H
#include "table.h"

/* ## Sweeps: accuracy-vs-cond and accuracy-vs-range tables. */
void sl_report_sweeps(FILE *f, const sl_report_ctx *R);
/* ### Determinism per input: distinct results and spread of every input. */
void sl_report_det_inputs(FILE *f, const sl_report_ctx *R);
/* ## Results exactly 0 or non-finite against a non-zero exact sum. */
void sl_report_zero_results(FILE *f, const sl_report_ctx *R);
/* ## Non-finite results where the exact value is finite: the accuracy sweeps' rows whose result
 * is +Inf, -Inf or NaN against a finite exact value, per operation, variant and format, with the
 * datasets where they happened (one line saying so when there are none). */
void sl_report_nonfinite(FILE *f, const sl_report_ctx *R);
/* ## What to use, per format: each variant's worst error, results with no correct digit, failed
 * self-checks and (GPU) throughput; the most accurate, the fastest faithful and the fastest
 * faithful order-independent variant, and the ones to avoid. */
void sl_report_advice(FILE *f, const sl_report_ctx *R);
/* ## Anchors: DIR/anchors.csv, when present, beside sumlab's variants. */
void sl_report_anchors(FILE *f, const sl_report_ctx *R);
/* The header's line: the sweep of run.conf (sizes, datasets, variants, dtypes, instances). */
void sl_report_sweep_line(FILE *f, const sl_report_ctx *R);
#endif

/* findings.h: the report's Findings section (findings.c), generated from the rows. */
#ifndef SL_REPORT_FINDINGS_H
#define SL_REPORT_FINDINGS_H
#include <stdio.h>
#include "table.h"

/* ## Findings: bound violations, results 0 or of the wrong sign where the exact result is not,
 * non-monotone ladders (DIR/ladder.csv), and where to find what to use per format; each with
 * the row that shows it. */
void sl_report_findings(FILE *f, const sl_report_ctx *R);
#endif

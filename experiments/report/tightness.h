/* tightness.h: the report's Bound tightness section (tightness.c): per format, each variant's
 * |error| / a-priori bound over the accuracy rows, as the tightness chart draws it. */
#ifndef SL_REPORT_TIGHTNESS_H
#define SL_REPORT_TIGHTNESS_H
#include <stdio.h>
#include "table.h"

/* ## Bound tightness: per dtype a table (rows, exact results, median, 90th percentile and maximum
 * of |error| / bound, rows over the bound) and the tightness chart beside it. */
void sl_report_tightness(FILE *f, const sl_report_ctx *R);
#endif

/* range.h: the report's overflow and underflow table of norm2 and dot (range.c). */
#ifndef SL_REPORT_RANGE_H
#define SL_REPORT_RANGE_H
#include <stdio.h>
#include "table.h"

/* ## Overflow and underflow: for norm2's and dot's rows (nothing for another operation), per
 * dataset family and format of the accuracy sweeps, how many of each variant's results were
 * +Inf, -Inf, NaN or 0 where the exact value is finite and not 0. */
void sl_report_range(FILE *f, const sl_report_ctx *R);
#endif

/* ladder.h: the "Ladders" section of report.md (ladder.c). */
#ifndef SL_REPORT_LADDER_H
#define SL_REPORT_LADDER_H
#include "sl_study.h"
#include "table.h"

/* ## Ladders: both texts' rungs as measured beside their published tables (nothing when the
 * results hold no ladder rows). */
void sl_report_ladders(FILE *f, const sl_report_ctx *R);
#endif

/* launch.h: the "Launch configurations" section of report.md (launch.c). */
#ifndef SL_REPORT_LAUNCH_H
#define SL_REPORT_LAUNCH_H
#include "sl_study.h"
#include "table.h"

/* ## Launch configurations: the first text's tuning claims judged from DIR/launch.csv (nothing
 * when the results hold no launch-config rows). */
void sl_report_launch(FILE *f, const sl_report_ctx *R);
#endif

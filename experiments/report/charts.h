/* charts.h: the charts section of report.md (charts.c). */
#ifndef SL_REPORT_CHARTS_H
#define SL_REPORT_CHARTS_H
#include <stdio.h>

/* ## Charts (charts.c): the PNGs in DIR/charts, by kind, and render.sh's notes. */
void sl_report_charts(FILE *f, const char *dir, int on_gpu);

#endif

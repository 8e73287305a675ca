/* charts.h: the charts section of report.md (charts.c). */
#ifndef SL_REPORT_CHARTS_H
#define SL_REPORT_CHARTS_H
#include <stdio.h>

/* Beside a table: the charts DIR/charts/PREFIX.png, or with a PREFIX ending in '_' every
 * PREFIX*.png, not yet placed in this report (the first of a kind preceded by its legend). */
void sl_report_charts_at(FILE *f, const char *dir, const char *prefix, int on_gpu);

/* ## Charts (charts.c): the PNGs in DIR/charts not placed beside a table, by kind, and
 * render.sh's notes; ends the report's placing (the next report places afresh). */
void sl_report_charts(FILE *f, const char *dir, int on_gpu);

/* 1 when DIR/charts/NAME (an .svg) is a file that plots/render.sh wrote in this process's last
 * sl_charts_render of DIR (the same file: device, inode, size and time unchanged since). */
int sl_charts_rendered_here(const char *dir, const char *name);

#endif

/* anchors.h: the "Repeatability of the frameworks' sums" section of report.md (anchors.c), from
 * the table that experiments/anchors/study_anchors.py writes into DIR/anchors/anchors.csv. */
#ifndef SL_REPORT_ANCHORS_H
#define SL_REPORT_ANCHORS_H
#include <stdio.h>
#include "sl_study.h"
#include "table.h"

/* ## Repeatability of the frameworks' sums: per framework over the inputs (inputs, repetitions,
 * inputs with more than one result, most distinct results, widest spread, median and largest
 * error in ulps of the exact sum), per input a framework's largest error with its distinct results
 * and spread where they differ, and the chart charts/anchors_f32. Nothing when
 * DIR/anchors/anchors.csv is absent; when it is not a regular file of at most 4 MiB, lacks a column, or holds a field
 * outside the characters study_anchors.py writes, the section is one line saying it was left out
 * (a planted file never becomes report text). */
void sl_report_user_anchors(FILE *f, const sl_report_ctx *R);
#endif

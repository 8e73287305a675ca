/* headline.h: the headline section of report.md (headline.c). */
#ifndef SL_REPORT_HEADLINE_H
#define SL_REPORT_HEADLINE_H
#include "table.h"

/* ## Headline (headline.c). */
void sl_report_headline(FILE *f, const sl_report_ctx *R);
/* ### float16, n = 2^20: float16, float32 and exact accumulation in ulps (half.c). */
void sl_report_half(FILE *f, const sl_report_ctx *R);
/* n of the throughput table of dtype dt (0: none). */
uint64_t sl_report_tp_n(const sl_csv *t, const cols *cp, const char *dt);
#endif

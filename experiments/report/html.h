/* html.h: DIR/report.html beside report.md (html.c): one self-contained page made from the same
 * Markdown text, with the charts' SVG inline, sortable tables and meta.json's provenance. */
#ifndef SL_REPORT_HTML_H
#define SL_REPORT_HTML_H
#include <stddef.h>
#include "table.h"

/* Converts md (report.md's text, len bytes) into R->dir/report.html, written whole. 0 or -1 (err). */
int sl_report_html_write(const sl_report_ctx *R, const char *md, size_t len, sl_err *err);

#endif

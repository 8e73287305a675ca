/* html.h: DIR/report.html beside report.md (html.c): one page made from the same Markdown text,
 * with the charts' SVG inline (past a budget, linked from charts/), sortable tables and
 * meta.json's provenance. */
#ifndef SL_REPORT_HTML_H
#define SL_REPORT_HTML_H
#include <stddef.h>
#include "table.h"

/* Converts md (report.md's text, len bytes) into R->dir/report.html, written whole. 0 or -1 (err). */
int sl_report_html_write(const sl_report_ctx *R, const char *md, size_t len, sl_err *err);

/* 1 when the SVG s[0..n) may be inlined into the page: from its <svg root (*root set) to its
 * end only the elements and attributes of gnuplot's svg terminal, href only "#id", no entity
 * but the five named, no javascript:/url() but url(#id), no comment, CDATA or doctype, tags
 * balanced, nothing after the root. 0: show it as an <img> (which runs no script). */
int sl_html_svg_allowed(const char *s, size_t n, const char **root_out);

#endif

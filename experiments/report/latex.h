/* latex.h: the report's tables as LaTeX (booktabs) files in DIR/tables/ (latex.c), for a paper. */
#ifndef SL_REPORT_LATEX_H
#define SL_REPORT_LATEX_H
#include <stddef.h>
#include <stdio.h>
#include "sl_results.h"

/* Every GFM table of report.md's text md[0..len) as DIR/tables/SECTION[_SUBSECTION][_K].tex
 * (SECTION: the first word of its ## heading, SUBSECTION: its ### heading; a booktabs tabular; every cell escaped, since variant and dataset names are data); the
 * .tex files of an earlier report are removed first. Returns 0, or -1 with err. */
int sl_report_latex_write(const char *dir, const char *md, size_t len, sl_err *err);
/* One table: its Markdown lines md[0..len) (header, separator, rows) as a tabular into f;
 * caption: the heading it stands under. Returns the number of rows written, -1 if md is not a
 * table. */
int sl_report_latex_table(FILE *f, const char *caption, const char *md, size_t len);
/* The LaTeX text of s (UTF-8, with the report's **bold** and `code`) into f, escaped. */
void sl_report_latex_text(FILE *f, const char *s, size_t len);
#endif

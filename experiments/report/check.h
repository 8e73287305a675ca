/* check.h: a run directory's files as data (check.c): the fields of results.csv and
 * distribution.csv and the run.conf settings, checked before anything reads them as names. */
#ifndef SL_REPORT_CHECK_H
#define SL_REPORT_CHECK_H
#include <stddef.h>
#include "sl_results.h"

/* 1 when s is a name: a letter or digit, then letters, digits, . _ : = + - or a character of
 * extra (may be NULL); 1 to max bytes. */
int sl_check_name(const char *s, size_t max, const char *extra);
/* 1 when s[0..n) is well-formed UTF-8 (no overlong forms, no surrogates, <= U+10FFFF). */
int sl_check_utf8(const char *s, size_t n);
/* Every field of t (read from path) by its column: dataset, dtype and variant against the
 * registries; experiment, config, ... names; params key=value lists; note UTF-8 text; the
 * numeric columns numbers or empty, the values' bits (result_hex ...) as sumlab writes them; any
 * other column a number or a name. 0, or -1 with err naming the file, line and field. */
int sl_check_csv(const char *path, const sl_csv *t, sl_err *err);
/* run.conf's settings that the report prints (experiment, preset, backend, started, the sweep
 * lists). 0 (also when there is no run.conf), or -1 with err naming the field. */
int sl_check_runconf(const char *dir, sl_err *err);
/* DIR's results.csv (required; results: its table when already read, else NULL),
 * distribution.csv (when there) and run.conf. 0 or -1 (err). */
int sl_check_run_dir(const char *dir, const sl_csv *results, sl_err *err);

#endif

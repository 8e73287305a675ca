/* check.c: a run directory's files as data: every field of results.csv and distribution.csv, and
 * the run.conf settings the report prints, checked before anything is rendered or reported. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "sl_report.h"
#include "sl_datasets.h"
#include "sl_ops.h"
#include "sl_variants.h"

/* Variants a results file may hold beyond this build's registry: the read ceiling (a throughput
 * reference, no variant), the variants of builds with other options (CUB's determinism
 * tiers need CCCL >= 3.3) and the operations' PyTorch calls (throughput-vs-n's framework rows,
 * sl_operation.torch_call: fixed names of the registry, never the file's own). */
static const char *const other_variants[] = {"read-ceiling", "cub-gpu-to-gpu", "cub-not-guaranteed"};

int sl_check_name(const char *s, size_t max, const char *extra)
{
    size_t n = strlen(s);
    if (!n || n > max) return 0;
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9'))) return 0;
    for (size_t i = 0; i < n; i++) {
        const char ch = s[i];
        if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || strchr("._:=+-", ch) ||
            (extra && strchr(extra, ch)))
            continue;
        return 0;
    }
    return 1;
}

int sl_check_utf8(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + n;
    while (p < e) {
        unsigned c = *p;
        int k;
        unsigned cp, min;
        if (c < 0x80) { p++; continue; }
        if ((c & 0xe0) == 0xc0) { k = 1; cp = c & 0x1f; min = 0x80; }
        else if ((c & 0xf0) == 0xe0) { k = 2; cp = c & 0x0f; min = 0x800; }
        else if ((c & 0xf8) == 0xf0) { k = 3; cp = c & 0x07; min = 0x10000; }
        else return 0;
        if (e - p <= k) return 0;
        for (int i = 1; i <= k; i++) {
            if ((p[i] & 0xc0) != 0x80) return 0;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;   /* overlong, surrogate */
        p += k + 1;
    }
    return 1;
}

/* A number as the writers print them: decimal (%.17g, %.9g...), C99 hex float (%a), raw bits
 * (0x...), inf/nan with a sign; or empty. */
static int is_number(const char *s)
{
    if (!*s) return 1;
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    if (!strcmp(p, "inf") || !strcmp(p, "nan") || !strcmp(p, "infinity") || !strcmp(p, "Inf") || !strcmp(p, "NaN") ||
        !strcmp(p, "INF") || !strcmp(p, "NAN"))
        return 1;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        int digits = 0;
        while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) { p++; digits++; }
        if (*p == '.') {
            p++;
            while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) { p++; digits++; }
        }
        if (!digits) return 0;
        if (*p == 'p' || *p == 'P') {
            p++;
            if (*p == '+' || *p == '-') p++;
            if (!(*p >= '0' && *p <= '9')) return 0;
            while (*p >= '0' && *p <= '9') p++;
        }
        return !*p;
    }
    int digits = 0;
    while (*p >= '0' && *p <= '9') { p++; digits++; }
    if (*p == '.') { p++; while (*p >= '0' && *p <= '9') { p++; digits++; } }
    if (!digits) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    return !*p;
}

/* A value's bits as sumlab writes them (sl_fmt_hex): C99 %a in lower case (-0x1.8p+1; zero
 * 0x0p+0 or -0x0p+0 only), inf, -inf or nan; or empty. The report and compare read these columns
 * as text (a zero, a non-finite value, the same bits): another spelling of a number (Inf, INF,
 * NAN, 1.5, 0x0.0p+0) read as a finite non-zero value. */
static int is_hex(const char *s)
{
    if (!*s || !strcmp(s, "inf") || !strcmp(s, "-inf") || !strcmp(s, "nan")) return 1;
    const char *p = s + (*s == '-');
    if (strncmp(p, "0x", 2)) return 0;
    p += 2;
    const size_t lead = strspn(p, "0123456789abcdef");
    int nonzero = lead && strspn(p, "0") != lead;
    p += lead;
    if (*p == '.') {
        const size_t frac = strspn(++p, "0123456789abcdef");
        if (!frac) return 0;
        nonzero |= strspn(p, "0") != frac;
        p += frac;
    }
    if (!lead || *p++ != 'p' || (*p != '+' && *p != '-')) return 0;
    const size_t exp = strspn(++p, "0123456789");
    if (!exp || p[exp]) return 0;
    return nonzero || !strcmp(s + (*s == '-'), "0x0p+0");
}

/* A size or a count: empty, or decimal digits up to 2^53 (an integer a double holds exactly). */
static int is_count(const char *s)
{
    size_t k = 0;
    while (s[k] >= '0' && s[k] <= '9') k++;
    return !s[k] && (k < 16 || (k == 16 && strcmp(s, "9007199254740992") <= 0));
}

static int in_list(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i])) return 1;
    return 0;
}

/* What a field must be, by its column. */
typedef enum { K_NUMBER, K_HEX, K_COUNT, K_NAME, K_NAME_OPT, K_PARAMS, K_TEXT, K_DATASET, K_DTYPE, K_VARIANT, K_OP, K_VALUE } kind;

static kind column_kind(const char *col)
{
    static const char *const names[] = {"experiment"};
    static const char *const onames[] = {"config", "sweep", "family", "det_class", "backend", "status",
                                         "combine", "algorithm", "text", "rung", "check"};
    /* the numbers of results.csv, distribution.csv and the ranks rows */
    static const char *const numbers[] = {
        "sweep_value", "seed", "result", "exact", "spread_ulps", "abs_err", "rel_err", "ulps", "ulps_median",
        "ulps_max", "bound_abs", "bound_rel", "bound_ratio", "cond", "abssum", "unit_roundoff", "time_ms_median",
        "time_ms_min", "time_ms_max", "gbps", "twin_checked", "twin_match", "value", "ulps_signed", "local_ms_max",
        "local_ms_min", "combine_ms", "allreduce1_ms"};
    /* sizes and counts: the report prints them as integers */
    static const char *const counts[] = {"n", "block", "grid", "sm_count", "items", "reps", "distinct", "instance",
                                         "instances", "count", "ranks", "distinct_reps", "rank_distinct"};
    /* the values' bits, read as text */
    static const char *const hexes[] = {"result_hex", "exact_hex", "min_hex", "max_hex", "value_hex"};
    if (in_list(col, numbers, sizeof numbers / sizeof *numbers)) return K_NUMBER;
    if (in_list(col, hexes, sizeof hexes / sizeof *hexes)) return K_HEX;
    if (in_list(col, counts, sizeof counts / sizeof *counts)) return K_COUNT;
    if (in_list(col, names, sizeof names / sizeof *names)) return K_NAME;
    if (in_list(col, onames, sizeof onames / sizeof *onames)) return K_NAME_OPT;
    if (!strcmp(col, "params")) return K_PARAMS;
    if (!strcmp(col, "note")) return K_TEXT;
    if (!strcmp(col, "dataset")) return K_DATASET;
    if (!strcmp(col, "dtype")) return K_DTYPE;
    if (!strcmp(col, "variant")) return K_VARIANT;
    if (!strcmp(col, "op")) return K_OP;
    return K_VALUE;   /* a column of a newer writer: a number or a name */
}

/* The value as a message may show it: printable ASCII, others as '?', at most 48 characters. */
static void shown(char *out, size_t len, const char *s)
{
    size_t k = 0;
    for (; *s && k + 4 < len && k < 48; s++) out[k++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
    if (*s && k + 4 < len) { memcpy(out + k, "...", 3); k += 3; }
    out[k] = '\0';
}

static int field_ok(kind k, const char *v, const char **why)
{
    switch (k) {
    case K_NUMBER: *why = "is not a number"; return is_number(v);
    case K_HEX: *why = "is not a value's bits as sumlab writes them (C99 %a in lower case, zero 0x0p+0; inf, -inf, nan)";
        return is_hex(v);
    case K_COUNT: *why = "is not a count (decimal digits, at most 2^53)"; return is_count(v);
    case K_VALUE: *why = "is neither a number nor a name (letters, digits and . _ : = + -; at most 256 characters)";
        return is_number(v) || sl_check_name(v, 256, NULL);
    case K_NAME: *why = "is not a valid name (a letter or digit, then letters, digits and . _ : = + -; at most 64 characters)";
        return sl_check_name(v, SL_REPORT_NAME_MAX, NULL);
    case K_NAME_OPT: *why = "is not a valid name (a letter or digit, then letters, digits and . _ : = + -; at most 64 characters)";
        return !*v || sl_check_name(v, SL_REPORT_NAME_MAX, NULL);
    case K_PARAMS: *why = "is not a valid parameter list (key=value;... of letters, digits and . _ : = + - ;)";
        return !*v || sl_check_name(v, 256, ";");
    case K_TEXT: {
        *why = "is not valid UTF-8 text (or holds control characters)";
        size_t n = strlen(v);
        if (n > SL_REPORT_NOTE_MAX || !sl_check_utf8(v, n)) return 0;
        for (const unsigned char *p = (const unsigned char *)v; *p; p++)
            if (*p < 0x20 || *p == 0x7f) return 0;
        return 1;
    }
    case K_DATASET: *why = "is no dataset of the registry (sumlab list) nor a file:NAME input of run --files";
        return sl_dataset_find(v) != NULL || (!strncmp(v, "file:", 5) && sl_check_name(v + 5, SL_REPORT_FILE_NAME_MAX, NULL));
    case K_DTYPE: {
        sl_dtype d;
        *why = "is no dtype (f32, f64, f16, bf16)";
        return sl_dtype_parse(v, &d) == 0;
    }
    case K_VARIANT:
        *why = "is no variant of the registry (sumlab list) nor an operation's PyTorch call";
        if (strlen(v) > SL_REPORT_NAME_MAX) return 0;   /* no registry name is that long */
        if (sl_variant_find(v) || sl_op_is_torch_call(v)) return 1;
        return in_list(v, other_variants, sizeof other_variants / sizeof *other_variants) &&
               sl_check_name(v, SL_REPORT_NAME_MAX, NULL);
    case K_OP:   /* the report splits and words its sections by it: a name it does not know is no sum */
        *why = "is no operation of the registry (sum, mean, var, ...)";
        return sl_op_find(v) != NULL;
    }
    return 0;
}

/* The line of path that holds data row r (0-based; sl_csv_read skips blank and '#' lines and
 * the header), or 0 when the file cannot be read again. */
static long line_of_row(const char *path, size_t r)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    long line = 0, found = 0;
    size_t seen = 0;
    int header = 0, ch, at_start = 1, content = 0, comment = 0;
    while ((ch = getc(f)) != EOF && !found) {
        if (at_start) { line++; content = 0; comment = ch == '#'; at_start = 0; }
        if (ch != '\n') { if (ch != '\r') content = 1; continue; }
        at_start = 1;
        if (!content || comment) continue;
        if (!header) { header = 1; continue; }
        if (seen++ == r) found = line;
    }
    if (!found && !at_start && content && !comment && header && seen == r) found = line;
    fclose(f);
    return found;
}

int sl_check_csv(const char *path, const sl_csv *t, sl_err *err)
{
    kind k[128];
    for (int c = 0; c < t->ncols && c < 128; c++) {
        char s[64];
        shown(s, sizeof s, t->header[c]);
        if (!sl_check_name(t->header[c], 64, NULL))
            return sl_err_set(err, "%s: header: column %d '%s' is not a column name", path, c + 1, s);
        k[c] = column_kind(t->header[c]);
    }
    for (size_t r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols && c < 128; c++) {
            const char *v = sl_csv_get(t, r, c), *why = "";
            if (field_ok(k[c], v, &why)) continue;
            char s[64];
            shown(s, sizeof s, v);
            return sl_err_set(err, "%s:%ld: field '%s': '%s' %s", path, line_of_row(path, r), t->header[c], s, why);
        }
    return 0;
}

int sl_check_runconf(const char *dir, sl_err *err)
{
    sl_runconf c;
    memset(&c, 0, sizeof c);
    if (sl_runconf_read(dir, &c) == -1) return 0;   /* none: the report says "?" */
    const struct { unsigned seen; const char *key, *v, *extra; size_t max; } f[] = {
        {SL_CONF_EXPERIMENT, "experiment", c.experiment, NULL, 64},
        {SL_CONF_PRESET, "preset", c.preset, NULL, 16},
        {SL_CONF_BACKEND, "backend", c.backend, NULL, 16},
        {SL_CONF_STARTED, "started", c.started, NULL, 40},
        {~0u, "n", c.n, ",^", SL_CONF_LIST},
        {~0u, "datasets", c.datasets, ",", SL_CONF_LIST},
        {~0u, "variants", c.variants, ",", SL_CONF_LIST},
        {~0u, "dtypes", c.dtypes, ",", 32},
        {~0u, "baseline", c.baseline, NULL, 64},
    };
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        if (!(c.seen & f[i].seen) || !f[i].v[0]) continue;
        if (sl_check_name(f[i].v, f[i].max, f[i].extra)) continue;
        char s[64];
        shown(s, sizeof s, f[i].v);
        return sl_err_set(err, "%s/run.conf: field '%s': '%s' is not a valid value (letters, digits and . _ : = + -%s)",
                          dir, f[i].key, s, f[i].extra ? " ," : "");
    }
    return 0;
}

int sl_check_run_dir(const char *dir, const sl_csv *results, sl_err *err)
{
    static const char *const files[] = {"results.csv", "distribution.csv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[SL_DIR_MAX + 64];
        if (sl_path_join(path, sizeof path, dir, files[i], err)) return -1;
        if (i == 0 && results) {
            if (sl_check_csv(path, results, err)) return -1;
            continue;
        }
        if (i > 0) {
            FILE *f = fopen(path, "rb");
            if (!f) continue;          /* distribution.csv is optional */
            fclose(f);
        }
        sl_csv t;
        if (sl_csv_read(path, &t, NULL, err)) return -1;
        int rc = sl_check_csv(path, &t, err);
        sl_csv_free(&t);
        if (rc) return -1;
    }
    return sl_check_runconf(dir, err);
}

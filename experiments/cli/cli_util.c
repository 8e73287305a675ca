/* cli_util.c: what every `sumlab` command shares (sl_cli.h): strict number parsers for options,
 * the launch-request options, getopt diagnostics and the one-line message writer. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_cli.h"

int sl_cli_argc;
int sl_cli_stdout_errno;
char **sl_cli_argv;

/* ---- parsers ---------------------------------------------------------------------------- */
/* fmt has one %s, for s. */
static int perr(sl_err *err, const char *fmt, const char *s) { return sl_err_set(err, fmt, s); }

static int mul_ok(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_mul_overflow(a, b, r); }

/* number := 0x HEX | DIGITS [. DIGITS] [e DIGITS]  (exact integers only) */
static int parse_number(const char **pp, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        if (!isxdigit((unsigned char)*p)) return -1;
        for (; isxdigit((unsigned char)*p); p++) {
            int d = isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10);
            if (v >> 60) return -2;
            v = v * 16 + (uint64_t)d;
        }
        *pp = p;
        *out = v;
        return 0;
    }
    if (!isdigit((unsigned char)*p)) return -1;
    /* v: the significant digits without their trailing zeros, which are counted in `zeros`
     * (so 1.000000000000000000000 and 0e2000 are read exactly, not as overflows) */
    long zeros = 0, frac = 0;
    int overflow = 0, in_frac = 0;
    for (;;) {
        if (*p == '.' && !in_frac) {
            in_frac = 1;
            p++;
            if (!isdigit((unsigned char)*p)) return -1;
            continue;
        }
        if (!isdigit((unsigned char)*p)) break;
        int d = *p++ - '0';
        if (in_frac) frac++;
        if (d == 0) {
            zeros++;
            continue;
        }
        for (long z = 0; z <= zeros && !overflow; z++)
            if (!mul_ok(v, 10, &v)) overflow = 1;
        if (!overflow && __builtin_add_overflow(v, (uint64_t)d, &v)) overflow = 1;
        zeros = 0;
    }
    long e = 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+') p++;
        if (!isdigit((unsigned char)*p)) return -1;
        for (; isdigit((unsigned char)*p); p++)
            if (e < 1000000) e = e * 10 + (*p - '0');
    }
    if (!overflow && v == 0) {    /* zero, whatever the exponent */
        *pp = p;
        *out = 0;
        return 0;
    }
    long shift = zeros + e - frac; /* value = v * 10^shift, v ending in a nonzero digit */
    if (shift < 0) return -3;      /* not an integer */
    if (overflow) return -2;
    for (; shift > 0; shift--)
        if (!mul_ok(v, 10, &v)) return -2;
    *pp = p;
    *out = v;
    return 0;
}

#define SL_NUM_HINT "(use e.g. 1000000, 1e6, 2^20, 3*2^20 or 2^40-1)"

/* product := number ['^' number] ('*' number ['^' number])*  into *out; 0 or -1 (err). */
static int parse_product(const char *s, const char **pp, uint64_t *out, sl_err *err)
{
    const char *p = *pp;
    uint64_t acc = 1;
    for (;;) {
        uint64_t base, ex;
        int rc = parse_number(&p, &base);
        if (rc == -2) return perr(err, "number '%s' is too large", s);
        if (rc == -3) return perr(err, "'%s' is not a whole number", s);
        if (rc) return perr(err, "malformed number '%s' " SL_NUM_HINT, s);
        if (*p == '^') {
            p++;
            rc = parse_number(&p, &ex);
            if (rc == -2 || (rc == 0 && ex > 64)) return perr(err, "number '%s' is too large", s);
            if (rc) return perr(err, "malformed number '%s' " SL_NUM_HINT, s);
            uint64_t r = 1;
            for (uint64_t i = 0; i < ex; i++)
                if (!mul_ok(r, base, &r)) return perr(err, "number '%s' is too large", s);
            base = r;
        }
        if (!mul_ok(acc, base, &acc)) return perr(err, "number '%s' is too large", s);
        if (*p == '*') { p++; continue; }
        break;
    }
    *pp = p;
    *out = acc;
    return 0;
}

/* value := product (('+'|'-') product)*: the size grammar of the README (2^40-1, 2^20+5). */
int sl_parse_u64(const char *s, uint64_t *out, sl_err *err)
{
    if (!s || !*s) return perr(err, "empty number%s", "");
    if (*s == '-') return perr(err, "'%s' is negative (a count must be >= 0)", s);
    const char *p = s;
    uint64_t acc = 0;
    if (parse_product(s, &p, &acc, err)) return -1;
    while (*p == '+' || *p == '-') {
        const char op = *p++;
        uint64_t t = 0;
        if (parse_product(s, &p, &t, err)) return -1;
        if (op == '+' && __builtin_add_overflow(acc, t, &acc)) return perr(err, "number '%s' is too large", s);
        if (op == '-' && __builtin_sub_overflow(acc, t, &acc))
            return perr(err, "'%s' is negative (a count must be >= 0)", s);
    }
    if (*p) return perr(err, "malformed number '%s' " SL_NUM_HINT, s);
    *out = acc;
    return 0;
}

int sl_parse_u64_list(const char *s, uint64_t *out, size_t max, size_t *count, sl_err *err)
{
    *count = 0;
    if (!s || !*s) return perr(err, "empty list%s", "");
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char item[128];
        if (len == 0 || len >= sizeof item) return perr(err, "malformed list '%s'", s);
        memcpy(item, p, len);
        item[len] = '\0';
        if (*count >= max) {
            return sl_err_set(err, "too many values in '%s' (at most %zu)", s, max);
        }
        if (sl_parse_u64(item, &out[*count], err)) return -1;
        (*count)++;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

int sl_parse_int(const char *s, long min, long max, long *out, sl_err *err)
{
    if (!s || !*s) return perr(err, "empty number%s", "");
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return perr(err, "malformed integer '%s'", s);
    for (; isdigit((unsigned char)*p); p++) {}
    if (*p) return perr(err, "malformed integer '%s'", s);
    char *end;
    long long v = strtoll(s, &end, 10);
    if (v < min || v > max || (long long)(long)v != v) {
        return sl_err_set(err, "'%s' is out of range [%ld, %ld]", s, min, max);
    }
    *out = (long)v;
    return 0;
}

int sl_cli_launch_opt(const char *cmd, const char *opt, const char *s, uint32_t *out)
{
    uint64_t lo = 1, hi = 0x7fffffffu, v;
    sl_err err = {{0}};
    if (!strcmp(opt, "--block")) lo = 32, hi = 1024;
    else if (!strcmp(opt, "--items")) hi = 1u << 20;
    if (sl_parse_u64(s, &v, &err)) {
        sl_cli_msg(cmd, "%s: %s", opt, err.msg);
        return -1;
    }
    if (v < lo || v > hi) {
        sl_cli_msg(cmd, "%s %s is out of range [%llu, %llu]", opt, s, (unsigned long long)lo,
                   (unsigned long long)hi);
        return -1;
    }
    if (!strcmp(opt, "--block") && (v & (v - 1))) {
        sl_cli_msg(cmd, "--block %s is not a power of two", s);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int sl_cli_exact_block(FILE *f, const sl_exact_text *S, const char *op)
{
    const int sum = !strcmp(op, "sum");
    char what[64];
    snprintf(what, sizeof what, sum ? "exact sum S" : "exact %s S", op);
    if (S->approx) {
        /* a quotient, root or logarithm: S itself has no finite binary expansion */
        fprintf(f, "\n%s ~= %s\n  (S is no binary number: its rounding to %ld bits", what, S->hex, S->bits ? S->bits : 1);
        if (S->rel_exp != LONG_MIN) fprintf(f, ", within 2^%ld |S|)\n", -S->rel_exp);
        else fputs(", its error bound not finite)\n", f);
        if (S->bits > 0) fprintf(f, "          ~= %s\n", S->dec);
    } else if (S->bits > 0) {
        fprintf(f, "\n%s = %s\n  (hex: every bit of S, %ld significant bits)\n"
                   "          ~= %s\n  (%ld significant digits = 1 + ceil(%ld log10 2): the fewest that "
                   "identify a %ld-bit value;\n   read back to %ld bits they give S exactly)\n",
                what, S->hex, S->bits, S->dec, S->digits, S->bits, S->bits, S->bits);
    } else {
        fprintf(f, "\n%s = %s\n", what, S->hex);
    }
    fflush(f);
    return ferror(f) ? -1 : 0;
}

int sl_parse_double(const char *s, double *out, sl_err *err)
{
    if (!s || !*s) return perr(err, "empty number%s", "");
    if (isspace((unsigned char)*s))
        return perr(err, "malformed number '%s' (use e.g. 0.1, -2.5e-3, 0x1.8p+3, inf or nan)", s);
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end)
        return perr(err, "malformed number '%s' (use e.g. 0.1, -2.5e-3, 0x1.8p+3, inf or nan)", s);
    *out = v;   /* an overflowing decimal reads as +-inf, an underflowing one as its rounding */
    return 0;
}

void sl_cli_msg(const char *cmd, const char *fmt, ...)
{
    /* One line whatever the message quotes (a file name, an option value, bytes of a file):
     * control characters are written as \n, \r, \t or \xNN; UTF-8 passes unchanged. The
     * message is cut at 4 KiB and written with one call. */
    char msg[4096], line[4096 * 4 + 64];
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(msg, sizeof msg, fmt, ap) < 0) snprintf(msg, sizeof msg, "(unprintable message)");
    va_end(ap);
    int k = cmd && *cmd ? snprintf(line, sizeof line, "sumlab %s: ", cmd)
                        : snprintf(line, sizeof line, "sumlab: ");
    size_t o = k > 0 && (size_t)k < sizeof line ? (size_t)k : 0;
    static const char hex[] = "0123456789abcdef";
    for (const unsigned char *p = (const unsigned char *)msg; *p && o + 5 < sizeof line; p++) {
        if (*p >= 0x20 && *p != 0x7f) { line[o++] = (char)*p; continue; }
        line[o++] = '\\';
        if (*p == '\n') line[o++] = 'n';
        else if (*p == '\r') line[o++] = 'r';
        else if (*p == '\t') line[o++] = 't';
        else line[o++] = 'x', line[o++] = hex[*p >> 4], line[o++] = hex[*p & 15];
    }
    line[o++] = '\n';
    if (fflush(stdout) != 0 && !sl_cli_stdout_errno) sl_cli_stdout_errno = errno ? errno : EIO;
    fwrite(line, 1, o, stderr);
}

/* The long options whose names begin with the len bytes of name: their count, the first one's
 * index in *first and, when one is named exactly, that one's in *exact (else -1); the names of up
 * to the first 8 joined in list (", --x"). */
static int long_matches(const struct option *lo, const char *name, size_t len, int *first,
                        int *exact, char *list, size_t cap)
{
    int count = 0;
    size_t used = 0;
    *first = *exact = -1;
    list[0] = '\0';
    for (int i = 0; lo && lo[i].name; i++) {
        if (strncmp(lo[i].name, name, len)) continue;
        if (strlen(lo[i].name) == len) *exact = i;
        if (*first < 0) *first = i;
        if (count++ < 8 && used < cap) {
            int w = snprintf(list + used, cap - used, "%s--%s", used ? ", " : "", lo[i].name);
            used = w < 0 ? cap : used + (size_t)w;
        }
    }
    return count;
}

int sl_cli_bad_option(const char *cmd, int c, char *const *argv, int optind_, int optopt_,
                      const struct option *lo)
{
    const char *arg = optind_ > 0 ? argv[optind_ - 1] : NULL;
    if (optopt_ > 0 && optopt_ < 128 && optopt_ != '?' && !(arg && !strncmp(arg, "--", 2))) {
        if (c == ':') sl_cli_msg(cmd, "option '-%c' needs a value (see 'sumlab %s --help')", optopt_, cmd);
        else sl_cli_msg(cmd, "unknown option '-%c' (see 'sumlab %s --help')", optopt_, cmd);
        return 2;
    }
    if (!arg) arg = "?";
    const size_t len = strcspn(arg, "=");
    if (c == ':') {
        sl_cli_msg(cmd, "option '%.*s' needs a value (see 'sumlab %s --help')", (int)len, arg, cmd);
        return 2;
    }
    if (!strncmp(arg, "--", 2) && len > 2) {
        char list[512];
        int first, exact;
        const int count = long_matches(lo, arg + 2, len - 2, &first, &exact, list, sizeof list);
        const int one = exact >= 0 ? exact : count == 1 ? first : -1;
        if (one >= 0 && arg[len] == '=' && lo[one].has_arg == no_argument) {
            sl_cli_msg(cmd, "option '--%s' takes no value (see 'sumlab %s --help')", lo[one].name, cmd);
            return 2;
        }
        if (one < 0 && count > 1) {
            sl_cli_msg(cmd, "option '%.*s' is ambiguous (%s%s)", (int)len, arg, list, count > 8 ? ", ..." : "");
            return 2;
        }
    }
    sl_cli_msg(cmd, "unknown option '%.*s' (see 'sumlab %s --help')", (int)len, arg, cmd);
    return 2;
}

void sl_bench_args_init(sl_bench_args *a, const char *nlist)
{
    memset(a, 0, sizeof *a);
    a->nlist = nlist;
    a->dsname = "uniform";
    a->reps = 10;
    a->dt = SL_F32;
    a->fmt = SL_OUT_CSV;
}

int sl_bench_opt(int c, const char *arg, sl_bench_args *a, const char *dtype_note, int *rc)
{
    sl_err err = {{0}};
    *rc = -1;
    switch (c) {
    case 'v': a->vlist = arg; return 1;
    case 'n': a->nlist = arg; return 1;
    case 'D': a->dsname = arg; return 1;
    case 'd':
        if (sl_dtype_parse(arg, &a->dt)) {
            sl_cli_msg("bench", "unsupported --dtype '%s'%s (f32, f64, f16 or bf16)", arg, dtype_note);
            *rc = 2;
        }
        return 1;
    case 'r':
        if (sl_parse_int(arg, 1, 100000, &a->reps, &err)) {
            sl_cli_msg("bench", "--reps: %s (at least 1)", err.msg);
            *rc = 2;
        }
        return 1;
    case 'p':
        if (a->nparams == (int)(sizeof a->params / sizeof a->params[0])) {
            sl_cli_msg("bench", "too many --param options");
            *rc = 2;
        } else if (sl_cli_param_once("bench", arg, a->params, a->nparams)) {
            *rc = 2;
        } else a->params[a->nparams++] = arg;
        return 1;
    case 's':
        if (sl_parse_u64(arg, &a->seed, &err)) {
            sl_cli_msg("bench", "--seed: %s", err.msg);
            *rc = 2;
        }
        return 1;
    case 'f':
        if (sl_out_format_parse(arg, &a->fmt) || a->fmt == SL_OUT_JSON) {
            sl_cli_msg("bench", "unknown --format '%s' (csv or table)", arg);
            *rc = 2;
        }
        return 1;
    default: return 0;
    }
}

int sl_bench_no_operand(int argc, char *const *argv, int optind_)
{
    if (optind_ >= argc) return -1;
    sl_cli_msg("bench", "unexpected argument '%s'", argv[optind_]);
    return 2;
}

int sl_bench_input(const sl_bench_args *a, uint64_t *ns, size_t max, size_t *nn, const sl_dataset **ds,
                   sl_params *p)
{
    sl_err err = {{0}};
    if (sl_parse_u64_list(a->nlist, ns, max, nn, &err)) {
        sl_cli_msg("bench", "--n: %s", err.msg);
        return 2;
    }
    for (size_t i = 0; i < *nn; i++)
        if (ns[i] == 0 || ns[i] >= ((uint64_t)1 << 34)) {
            sl_cli_msg("bench", "--n: %llu is out of range [1, 2^34)", (unsigned long long)ns[i]);
            return 2;
        }
    *ds = sl_dataset_find(a->dsname);
    if (!*ds) {
        sl_cli_msg("bench", "unknown dataset '%s' (see 'sumlab list datasets')", a->dsname);
        return 2;
    }
    sl_params_defaults(*ds, p);
    for (int i = 0; i < a->nparams; i++)
        if (sl_params_set(*ds, p, a->params[i], &err)) {
            sl_cli_msg("bench", "--param %s: %s", a->params[i], err.msg);
            return 2;
        }
    return -1;
}

int sl_cli_param_once(const char *cmd, const char *kv, const char *const *prev, int nprev)
{
    const size_t k = strcspn(kv, "=");   /* the key: the bytes before '=' (as sl_exp_user_params_check) */
    for (int i = 0; i < nprev; i++)
        if (strcspn(prev[i], "=") == k && !strncmp(prev[i], kv, k)) {
            sl_cli_msg(cmd, "--param %.*s is given twice ('%s' and '%s'): give each parameter once",
                       (int)k, kv, prev[i], kv);
            return 2;
        }
    return 0;
}

int sl_cli_ddof(const char *cmd, const char *s, sl_op_params *p)
{
    long v = 0;
    sl_err e = {{0}};
    if (sl_parse_int(s, 0, (long)SL_DDOF_MAX, &v, &e)) {
        sl_cli_msg(cmd, "--ddof: %s", e.msg);
        return 2;
    }
    p->ddof = (uint32_t)v;
    p->ddof_given = 1;
    return 0;
}

int sl_cli_ddof_check(const char *cmd, const sl_op_params *p, const sl_operation *op)
{
    if (!p->ddof_given || !op || sl_op_takes_ddof(op)) return -1;
    sl_cli_msg(cmd, "--ddof: %s has no ddof (var and std divide by n - ddof)", op->name);
    return 2;
}

/* Whether the file's memory order is its C-order flattening: not so for a Fortran-order array
 * with two or more axes longer than 1. */
static int memory_is_c_order(const sl_array_info *in)
{
    int long_axes = 0;
    for (int k = 0; k < in->ndim; k++) long_axes += in->shape[k] > 1;
    return !in->fortran_order || long_axes <= 1;
}

int sl_cli_pairable(const char *cmd, const char *op, const char *path, const sl_array_info *a,
                    const char *path2, const sl_array_info *b)
{
    int same_shape = a->ndim == b->ndim;
    for (int k = 0; same_shape && k < a->ndim; k++) same_shape = a->shape[k] == b->shape[k];
    const int c1 = memory_is_c_order(a), c2 = memory_is_c_order(b);
    if ((c1 && c2) || (!c1 && !c2 && same_shape)) return 0;
    char s1[256], s2[256];
    sl_cli_msg(cmd, "%s: '%s' is a %s array %s and '%s' a %s array %s: their values in memory order "
               "would not pair element by element (save both in C order, e.g. np.ascontiguousarray)",
               op, path, c1 ? "C-order" : "Fortran-order", sl_array_shape_text(a, s1, sizeof s1), path2,
               c2 ? "C-order" : "Fortran-order", sl_array_shape_text(b, s2, sizeof s2));
    return 2;
}

static int rows_second(const char *cmd, const char *op, const char *path, const sl_array_info *info, sl_dtype dt,
                       uint64_t N, long axis, const char *path2, int have_dtype, sl_dtype raw_dt, void **data2,
                       int *moved2, int *shared)
{
    sl_err err = {{0}};
    uint64_t n2 = 0, rows2 = 0, N2 = 0;
    sl_dtype dt2;
    sl_array_info info2;
    *moved2 = *shared = 0;
    if (sl_array_load_ex(path2, have_dtype, raw_dt, data2, &n2, &dt2, &info2, &err)) {
        sl_cli_msg(cmd, "%s", err.msg);
        return 2;
    }
    if (dt2 != dt) {
        sl_cli_msg(cmd, "%s: '%s' holds %s values but '%s' holds %s values (the inputs of %s must have "
                   "one format)", op, path, sl_dtype_name(dt), path2, sl_dtype_name(dt2), op);
        return 2;
    }
    int same = info->ndim == info2.ndim;
    for (int k = 0; same && k < info->ndim; k++) same = info->shape[k] == info2.shape[k];
    *shared = !same && info2.ndim == 1 && info2.n == N;
    if (*shared) return 0;   /* one row, contiguous: used as it is */
    if (!same) {
        char s1[256], s2[256];
        sl_cli_msg(cmd, "%s --axis: '%s' has shape %s but '%s' has shape %s: the shapes must be equal (row i "
                   "with row i) or the second 1-D of the axis' length %llu (one row with every row)",
                   op, path, sl_array_shape_text(info, s1, sizeof s1), path2,
                   sl_array_shape_text(&info2, s2, sizeof s2), (unsigned long long)N);
        return 2;
    }
    if (sl_array_rows(&info2, dt, axis, data2, &rows2, &N2, moved2, &err)) {
        sl_cli_msg(cmd, "%s: %s", path2, err.msg);
        return 2;
    }
    return 0;
}

int sl_cli_rows_load(const char *cmd, const char *op, const char *path, const char *path2, int have_dtype,
                     sl_dtype raw_dt, long axis, sl_cli_rows *r)
{
    sl_err err = {{0}};
    uint64_t n = 0;
    memset(r, 0, sizeof *r);
    if (sl_array_load_ex(path, have_dtype, raw_dt, &r->x, &n, &r->dt, &r->info, &err)) {
        sl_cli_msg(cmd, "%s", err.msg);
        return 2;
    }
    if (have_dtype && r->dt != raw_dt) {
        sl_cli_msg(cmd, "'%s' holds %s values but --dtype %s was given", path, sl_dtype_name(r->dt),
                   sl_dtype_name(raw_dt));
        return 2;
    }
    if (sl_array_rows(&r->info, r->dt, axis, &r->x, &r->rows, &r->n, &r->moved, &err)) {
        sl_cli_msg(cmd, "%s: %s", path, err.msg);
        return 2;
    }
    if (path2)
        return rows_second(cmd, op, path, &r->info, r->dt, r->n, axis, path2, have_dtype, raw_dt, &r->y,
                           &r->moved_y, &r->shared);
    return 0;
}

void sl_cli_rows_free(sl_cli_rows *r)
{
    free(r->x);
    free(r->y);
    r->x = r->y = NULL;
}

int sl_cli_rows_flush(sl_table *t, sl_table_parts *parts, sl_out_format fmt, uint64_t r, uint64_t rows,
                      uint64_t batch, int *begun)
{
    int wrc;
    if (fmt == SL_OUT_TABLE) {   /* a table of its own, after a blank line */
        wrc = (r + 1 > batch && fputc('\n', stdout) == EOF) || sl_table_write(t, fmt, stdout);
    } else {
        wrc = (!*begun && sl_table_parts_begin(parts, t, stdout)) ||
              (fmt == SL_OUT_JSON && sl_table_parts_measure(parts, t)) || sl_table_parts_write(parts, t, stdout) ||
              (r + 1 == rows && sl_table_parts_end(parts, stdout));
        *begun = 1;
    }
    sl_table_clear_rows(t);
    return wrc;
}

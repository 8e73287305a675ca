/* cmd_judge.c: `sumlab judge FILE --value V ...`: judges sums computed elsewhere (NumPy,
 * math.fsum, PyTorch, a user's kernel) against the exact sum of FILE, with the figures `sum`
 * gives its own variants, and prints the exact sum S itself, exactly. A --values file streams:
 * its lines are checked as read and spooled to a temporary file, then judged and written in
 * batches, so memory stays bounded whatever the number of lines. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fenv.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_cli.h"
#include "sl_ops.h"
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_results.h"
#include "sl_variants.h"
#include "sumlab/half.h"

#define CMD "judge"

static void judge_usage(FILE *f)
{
    fputs("usage: sumlab judge FILE [FILE2] (--value [NAME=]V ... | --values CSV) [--op OP] [--bound-of VARIANT]\n"
          "                    [--format table|csv|json] [--dtype f32|f64|f16|bf16] [--quiet]\n"
          "                    [--columns LIST]\n"
          "       sumlab judge FILE [FILE2] --axis K --row-values R.npy [the options above]\n\n"
          "Judges sums computed elsewhere (numpy.sum, math.fsum, torch.sum, your kernel)\n"
          "against the exact sum S of FILE (read as `sumlab sum` reads it): one row per value\n"
          "with its errors, and S itself exactly (a block under the table; columns\n"
          "exact_sum_* in csv/json).\n\n"
          "options:\n"
          "  --op OP           the operation the values computed (default sum; 'sumlab list ops')\n"
          "  --ddof N          var/std: divide by n - N (default 1)\n"
          "  --value [NAME=]V  a value (repeatable), any C99 form: 0.1, -2.5e-3, 0x1.8p+3,\n"
          "                    inf, nan. A decimal is rounded once to the input's format\n"
          "                    (the nearest float32, float16, bfloat16 or float64: what a\n"
          "                    variable of that format holds); a hex float (0x1.99999ap-4)\n"
          "                    is taken exactly and must be a value of the format. Column\n"
          "                    value_as says which. NAME: the row's name (default value1,\n"
          "                    value2, ...)\n"
          "  --values CSV      a file of `name,value` lines (a `name,value` header, blank\n"
          "                    lines and # comments are skipped)\n"
          "  --axis K          FILE (an N-D .npy) as rows along axis K, as `reduce --axis`\n"
          "                    reads it (dot: FILE2 of FILE's shape, or 1-D of the axis'\n"
          "                    length): each row judged against its own exact result, one\n"
          "                    output row per row (its index in the `row` column)\n"
          "  --row-values R    with --axis: a .npy of one value a row (the rows' shape, or 1-D\n"
          "                    of their count; any of the four formats, e.g. np.save of\n"
          "                    torch.sum(X, dim=K)); each value rounded once to FILE's format\n"
          "  --bound-of V      also the a-priori bound of registry variant V on this input\n"
          "                    (its default launch configuration) and |value - S| / bound; a\n"
          "                    value outside it is marked with a line on stderr\n"
          "  --format F        table (default), csv or json\n"
          "  --dtype D         element type of a raw file (f32, f64, f16 or bf16); checked against .npy\n"
          "  -q, --quiet       no notices on stderr\n"
          "  -h, --help        this text\n\n"
          "columns (default): variant (the value's name) result_hex result abs_err rel_err ulps\n"
          "  (in ulps of S rounded to the input format) cond bound_abs dtype n ulps_f64 (in\n"
          "  ulps of S rounded to float64) bound_of bound_ratio value_as (how the value was\n"
          "  read: `exact hex`, or `float32 nearest of 0.1`) exact_sum_hex exact_sum_dec\n"
          "  exact_sum_bits; --columns L picks any of the one column table (sumlab list\n"
          "  columns)\n\n"
          "exit status: 0 ok; 1 a runtime failure; 2 bad usage or input.\n", f);
}

typedef struct {
    char *name, *text;   /* the row's name; the value as written */
    const char *src;     /* where it was written: NULL (--value) or the --values file */
    long line;           /* its line there */
    double v;            /* the value the result's format holds (value_for) */
    char as[96];         /* how v was read: "exact hex" or "<format> nearest of <text>" */
} jvalue;

/* The values in command-line order: a --value (held), or the value lines of a --values file
 * (spooled: one "LINE NAME,VALUE" line each in a temporary file, read again by every pass). */
typedef struct {
    jvalue one;          /* --value (spool NULL) */
    FILE *spool;         /* --values */
    const char *path;
    size_t count;        /* values in the spool */
} jsource;

typedef struct {
    jsource *s;
    size_t n, cap;
    size_t total;        /* values in all */
} jvalues;

/* A walk over every value in order; jvalue's strings point into it (valid until the next). */
typedef struct {
    const jvalues *vs;
    size_t src, left;    /* the source walked; values left in its spool */
    char buf[4096 + 64];
} jwalk;

static jsource *new_source(jvalues *vs)
{
    if (vs->n == vs->cap) {
        size_t nc = vs->cap ? 2 * vs->cap : 8;
        jsource *p = realloc(vs->s, nc * sizeof *p);
        if (!p) return NULL;
        vs->s = p;
        vs->cap = nc;
    }
    jsource *j = &vs->s[vs->n++];
    memset(j, 0, sizeof *j);
    return j;
}

static int add_value(jvalues *vs, const char *name, size_t nlen, const char *text)
{
    const size_t tlen = strlen(text);
    char *d = malloc(nlen + 1), *t = malloc(tlen + 1);
    jsource *j = d && t ? new_source(vs) : NULL;
    if (!j) {
        free(d);
        free(t);
        return -1;
    }
    memcpy(t, text, tlen + 1);
    memcpy(d, name, nlen);
    d[nlen] = '\0';
    j->one.name = d;
    j->one.text = t;
    vs->total++;
    return 0;
}

static void free_values(jvalues *vs)
{
    for (size_t i = 0; i < vs->n; i++) {
        free(vs->s[i].one.name);
        free(vs->s[i].one.text);
        if (vs->s[i].spool) fclose(vs->s[i].spool);
    }
    free(vs->s);
}

static void walk_start(jwalk *w, const jvalues *vs)
{
    w->vs = vs;
    w->src = 0;
    w->left = (size_t)-1;
}

/* The next value into *out (1), none left (0), or -1 after a message (the spool unreadable). */
static int walk_next(jwalk *w, jvalue *out)
{
    while (w->src < w->vs->n) {
        jsource *j = &w->vs->s[w->src];
        if (!j->spool) {
            w->src++;
            *out = j->one;
            return 1;
        }
        if (w->left == (size_t)-1) {
            w->left = j->count;
            if (fseek(j->spool, 0, SEEK_SET)) {
                sl_cli_msg(CMD, "--values %s: cannot read its temporary copy back", j->path);
                return -1;
            }
        }
        if (w->left == 0) {
            w->src++;
            w->left = (size_t)-1;
            continue;
        }
        char *comma, *end;
        long line;
        if (!fgets(w->buf, sizeof w->buf, j->spool) || (line = strtol(w->buf, &end, 10)) <= 0 ||
            *end != ' ' || !(comma = strchr(end + 1, ','))) {
            sl_cli_msg(CMD, "--values %s: cannot read its temporary copy back", j->path);
            return -1;
        }
        end[strcspn(end, "\n")] = '\0';
        *comma = '\0';
        memset(out, 0, sizeof *out);
        out->name = end + 1;
        out->text = comma + 1;
        out->src = j->path;
        out->line = line;
        w->left--;
        return 1;
    }
    return 0;
}

/* What is wrong with a value's NAME (a row label in every output format), or NULL: at most
 * 128 bytes, no control byte, no comma. */
#define NAME_MAX_BYTES 128
static const char *bad_name(const char *name, size_t nlen)
{
    if (nlen > NAME_MAX_BYTES) return "a NAME is at most 128 bytes";
    for (size_t i = 0; i < nlen; i++) {
        const unsigned char ch = (unsigned char)name[i];
        if (ch < 0x20 || ch == 0x7f) return "a NAME holds no control character";
        if (ch == ',') return "a NAME holds no comma";
    }
    return NULL;
}

/* s as quoted in a message: at most 64 bytes of it, then how long it was. */
static const char *quoted(char *b, size_t len, const char *s, size_t l)
{
    if (l <= 64) snprintf(b, len, "%.*s", (int)l, s);
    else snprintf(b, len, "%.60s... (%zu bytes)", s, l);
    return b;
}

/* Whether s is a hex float ([+-]0x...). */
static int is_hex(const char *s)
{
    if (*s == '+' || *s == '-') s++;
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Significant bits of the hex float s's digits (leading and trailing zero bits not counted). */
static int hex_bits(const char *s)
{
    if (*s == '+' || *s == '-') s++;
    s += 2;
    int first = -1, last = -1, pos = 0;   /* bit positions from the first digit's top bit */
    for (; *s && *s != 'p' && *s != 'P'; s++) {
        if (*s == '.') continue;
        const int d = *s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10;
        for (int b = 3; b >= 0; b--, pos++)
            if (d >> b & 1) {
                if (first < 0) first = pos;
                last = pos;
            }
    }
    return first < 0 ? 0 : last - first + 1;
}

/* The decimal s rounded once to dt: strtod toward zero, made odd when inexact (round to odd:
 * 53 bits >= p + 2, so rounding that double to the p-bit format is the correct rounding of s). */
static double decimal_to(const char *s, sl_dtype dt)
{
    if (dt == SL_F64) return strtod(s, NULL);
    const int mode = fegetround();
    fesetround(FE_TOWARDZERO);
    double t = strtod(s, NULL);
    fesetround(FE_UPWARD);
    const double up = strtod(s, NULL);
    fesetround(FE_DOWNWARD);
    const double down = strtod(s, NULL);
    fesetround(mode);
    if (isfinite(t) && up != down) {
        uint64_t b;
        memcpy(&b, &t, sizeof b);
        b |= 1;
        memcpy(&t, &b, sizeof t);
    }
    return dt == SL_F32 ? (double)(float)t : sl_half_round(t, dt);
}

/* Whether the finite or infinite v is a value of dt. */
static int in_format(double v, sl_dtype dt)
{
    if (v != v || dt == SL_F64) return 1;
    return dt == SL_F32 ? (double)(float)v == v : sl_half_round(v, dt) == v;
}

static const char *fmt_long_name(sl_dtype dt)
{
    switch (dt) {
    case SL_F32: return "float32";
    case SL_F64: return "float64";
    case SL_F16: return "float16";
    default: return "bfloat16";
    }
}

/* j->v and j->as for a result of format dt (j->text passed sl_parse_double). 0, or 2 (message
 * printed: a hex float that is not a value of the format). */
static int value_for(jvalue *j, sl_dtype dt)
{
    if (is_hex(j->text)) {
        /* exactly: a hex float of more than 64 significant bits is no double; long double (64 or
         * 113 bits, a wider exponent) holds every one of at most 64 exactly, so it is a double
         * iff strtod and strtold agree (subnormal and overflowing doubles included) */
        const double v = strtod(j->text, NULL);
        const long double w = strtold(j->text, NULL);
        if (hex_bits(j->text) > 64 || (long double)v != w || !in_format(v, dt)) {
            char where[64] = "";
            if (j->src) snprintf(where, sizeof where, ":%ld", j->line);
            sl_cli_msg(CMD, "%s%s%s: the hex float '%s' is not a %s value (a hex float is taken exactly; "
                            "write a decimal to have it rounded to the nearest %s)",
                       j->src ? "--values " : "--value", j->src ? j->src : "", where, j->text,
                       fmt_long_name(dt), fmt_long_name(dt));
            return 2;
        }
        j->v = v;
        snprintf(j->as, sizeof j->as, "exact hex");
        return 0;
    }
    j->v = decimal_to(j->text, dt);
    snprintf(j->as, sizeof j->as, "%s nearest of %.*s", fmt_long_name(dt), 60, j->text);
    return 0;
}

/* --value [NAME=]V. Returns 0, or the exit code. */
static int opt_value(jvalues *vs, const char *arg)
{
    const char *eq = strchr(arg, '=');
    const char *num = eq ? eq + 1 : arg;
    char dflt[32];
    const char *name = arg;
    size_t nlen = eq ? (size_t)(eq - arg) : 0;
    if (!eq) {
        snprintf(dflt, sizeof dflt, "value%zu", vs->total + 1);
        name = dflt;
        nlen = strlen(dflt);
    } else if (nlen == 0) {
        sl_cli_msg(CMD, "--value '%s': empty NAME before '='", arg);
        return 2;
    }
    const char *why = bad_name(name, nlen);
    if (why) {
        char q[128];
        sl_cli_msg(CMD, "--value '%s': %s", quoted(q, sizeof q, arg, strlen(arg)), why);
        return 2;
    }
    double v;
    sl_err err = {{0}};
    if (sl_parse_double(num, &v, &err)) {
        sl_cli_msg(CMD, "--value: %s", err.msg);
        return 2;
    }
    if (add_value(vs, name, nlen, num)) { sl_cli_msg(CMD, "out of memory"); return 1; }
    return 0;
}

/* --values CSV: name,value lines (a UTF-8 byte-order mark at the start skipped; a NUL byte
 * refused), each checked as read and spooled (jsource). Returns 0, or the exit code. */
static int opt_values(jvalues *vs, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        sl_cli_msg(CMD, "--values: cannot open '%s'", path);
        return 2;
    }
    jsource *src = new_source(vs);
    if (!src || !(src->spool = tmpfile())) {
        if (src) sl_cli_msg(CMD, "--values: cannot create a temporary file: %s", strerror(errno));
        else sl_cli_msg(CMD, "out of memory");
        fclose(f);
        return 1;
    }
    src->path = path;
    enum { MAX_LINE = 4094 };
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    long ln = 0;
    int rc = 0;
    while (!rc && (got = getline(&line, &cap, f)) >= 0) {
        ln++;
        size_t len = (size_t)got;
        if (len > MAX_LINE + 1 || (len == MAX_LINE + 1 && line[len - 1] != '\n')) {
            sl_cli_msg(CMD, "--values %s:%ld: line longer than %d bytes", path, ln, MAX_LINE);
            rc = 2;
            break;
        }
        if (memchr(line, '\0', len)) {
            sl_cli_msg(CMD, "--values %s:%ld: a NUL byte in the line (not a text file?)", path, ln);
            rc = 2;
            break;
        }
        char *p = line;
        if (ln == 1 && len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;   /* UTF-8 BOM */
        /* the line's end: \n or \r\n; a CR anywhere else (old Mac line ends, a value followed by
         * another) is refused, never taken as the end of a line whose rest is dropped */
        size_t pl = strlen(p);
        if (pl && p[pl - 1] == '\n') p[--pl] = '\0';
        if (pl && p[pl - 1] == '\r') p[--pl] = '\0';
        if (strchr(p, '\r')) {
            sl_cli_msg(CMD, "--values %s:%ld: a carriage return inside the line (lines end with \\n or \\r\\n)",
                       path, ln);
            rc = 2;
            break;
        }
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '#') continue;
        if (!strcmp(p, "name,value")) continue;
        const char *comma = strchr(p, ',');
        if (!comma || comma == p || strchr(comma + 1, ',')) {
            sl_cli_msg(CMD, "--values %s:%ld: expected `name,value`, got '%s'", path, ln, p);
            rc = 2;
            break;
        }
        const char *why = bad_name(p, (size_t)(comma - p));
        if (why) {
            char q[128];
            sl_cli_msg(CMD, "--values %s:%ld: name '%s': %s", path, ln, quoted(q, sizeof q, p, (size_t)(comma - p)), why);
            rc = 2;
            break;
        }
        double v;
        sl_err err = {{0}};
        if (sl_parse_double(comma + 1, &v, &err)) {
            sl_cli_msg(CMD, "--values %s:%ld: %s", path, ln, err.msg);
            rc = 2;
            break;
        }
        if (fprintf(src->spool, "%ld %s\n", ln, p) < 0) {
            sl_cli_msg(CMD, "--values: cannot write a temporary copy of '%s': %s", path, strerror(errno));
            rc = 1;
        }
        src->count++;
        vs->total++;
    }
    if (!rc && ferror(f)) { sl_cli_msg(CMD, "--values: error reading '%s'", path); rc = 2; }
    if (!rc && fflush(src->spool)) {
        sl_cli_msg(CMD, "--values: cannot write a temporary copy of '%s': %s", path, strerror(errno));
        rc = 1;
    }
    free(line);
    fclose(f);
    return rc;
}

/* Names given to several values (a framework's result repeated, to measure its repeatability):
 * per name its count of values, of distinct bit patterns, its smallest and largest value. Held
 * for at most JUDGE_GROUP_MAX names and JUDGE_GROUP_BITS distinct (name, value) pairs, so memory
 * stays bounded whatever the number of lines; past either, no name is summarised (a notice). */
#define JUDGE_GROUP_MAX 4096
#define JUDGE_GROUP_SLOTS 8192          /* the names' hash table (a power of two > 2 x MAX) */
#define JUDGE_GROUP_BITS 65536
#define JUDGE_BITS_SLOTS 131072         /* the pairs' hash table (a power of two > 2 x BITS) */
typedef struct {
    char *name;
    size_t count, distinct;
    double mn, mx;
    int anynan;
} jgroup;
typedef struct {
    jgroup g[JUDGE_GROUP_MAX];
    size_t n;
    int32_t *slot;                  /* JUDGE_GROUP_SLOTS: index into g, -1 empty */
    struct { uint64_t bits; int32_t group; } *pair;   /* JUDGE_BITS_SLOTS: group -1 empty */
    size_t npairs;
    int over;                       /* a cap was passed: nothing summarised */
    int repeated;                   /* some name holds more than one value */
} jgroups;

static uint64_t hash_bytes(const char *s)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int groups_init(jgroups *gs)
{
    memset(gs, 0, sizeof *gs);
    gs->slot = malloc(JUDGE_GROUP_SLOTS * sizeof *gs->slot);
    gs->pair = malloc(JUDGE_BITS_SLOTS * sizeof *gs->pair);
    if (!gs->slot || !gs->pair) return -1;
    for (size_t i = 0; i < JUDGE_GROUP_SLOTS; i++) gs->slot[i] = -1;
    for (size_t i = 0; i < JUDGE_BITS_SLOTS; i++) gs->pair[i].group = -1;
    return 0;
}

static void groups_free(jgroups *gs)
{
    for (size_t i = 0; i < gs->n; i++) free(gs->g[i].name);
    free(gs->slot);
    free(gs->pair);
}

/* The group of name, or NULL (unknown, or the caps passed). */
static const jgroup *group_find(const jgroups *gs, const char *name)
{
    if (gs->over || !gs->slot) return NULL;
    for (uint64_t h = hash_bytes(name);; h++) {
        const int32_t i = gs->slot[h & (JUDGE_GROUP_SLOTS - 1)];
        if (i < 0) return NULL;
        if (!strcmp(gs->g[i].name, name)) return &gs->g[i];
    }
}

/* Counts value v (of format dt, held as a double) under name. 0, or -1 out of memory. */
static int group_add(jgroups *gs, const char *name, double v)
{
    if (gs->over) return 0;
    uint64_t h = hash_bytes(name);
    int32_t i;
    for (;; h++) {
        i = gs->slot[h & (JUDGE_GROUP_SLOTS - 1)];
        if (i < 0 || !strcmp(gs->g[i].name, name)) break;
    }
    if (i < 0) {
        if (gs->n == JUDGE_GROUP_MAX) { gs->over = 1; return 0; }
        jgroup *g = &gs->g[gs->n];
        if (!(g->name = malloc(strlen(name) + 1))) return -1;
        strcpy(g->name, name);
        g->mn = INFINITY;
        g->mx = -INFINITY;
        i = (int32_t)gs->n++;
        gs->slot[h & (JUDGE_GROUP_SLOTS - 1)] = i;
    }
    jgroup *g = &gs->g[i];
    if (++g->count > 1) gs->repeated = 1;
    if (v != v) g->anynan = 1;
    else {
        if (v < g->mn || (v == 0 && g->mn == 0 && signbit(v))) g->mn = v;
        if (v > g->mx || (v == 0 && g->mx == 0 && !signbit(v))) g->mx = v;
    }
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    for (uint64_t k = (b * 0x9E3779B97F4A7C15ull) ^ (uint64_t)i * 0xC2B2AE3D27D4EB4Full;; k++) {
        const size_t at = (size_t)(k & (JUDGE_BITS_SLOTS - 1));
        if (gs->pair[at].group < 0) {
            if (gs->npairs == JUDGE_GROUP_BITS) { gs->over = 1; return 0; }
            gs->pair[at].group = i;
            gs->pair[at].bits = b;
            gs->npairs++;
            g->distinct++;
            return 0;
        }
        if (gs->pair[at].group == i && gs->pair[at].bits == b) return 0;
    }
}

/* A group's spread in ulps of the exact result rounded to the format (sum's spread_ulps). */
static double group_spread(const jgroup *g, const sl_reference *ref)
{
    if (g->anynan) return NAN;
    if (g->mn == g->mx) return 0.0;
    if (!ref->finite || !isfinite(g->mn) || !isfinite(g->mx)) return NAN;
    return (g->mx - g->mn) / sl_ulp(ref->rounded, ref->dtype);
}

/* Under a table: a line per name given several values. 0, or -1 on a write error. */
static int groups_block(FILE *f, const jgroups *gs, const sl_reference *ref)
{
    if (!gs->repeated || gs->over) return 0;
    fprintf(f, "\nnames given several values (repeated results):\n");
    for (size_t i = 0; i < gs->n; i++) {
        const jgroup *g = &gs->g[i];
        if (g->count < 2) continue;
        char lo[64], hi[64];
        if (g->anynan) fprintf(f, "  %s: %zu values, %zu distinct, a NaN among them\n", g->name, g->count, g->distinct);
        else
            fprintf(f, "  %s: %zu values, %zu distinct, min %s, max %s, spread %.6g ulps\n", g->name, g->count,
                    g->distinct, sl_fmt_hex(lo, sizeof lo, g->mn), sl_fmt_hex(hi, sizeof hi, g->mx),
                    group_spread(g, ref));
    }
    fflush(f);
    return ferror(f) ? -1 : 0;
}

/* The columns (names of the one column table, sl_results.h); the table leaves the exact_sum_*
 * ones out (S is printed under it). */
static const char *const judge_cols[] = {"variant", "result_hex", "result", "abs_err", "rel_err",
                                         "ulps", "cond", "bound_abs", "dtype", "n", "ulps_f64",
                                         "bound_of", "bound_ratio", "value_as", "exact_sum_hex",
                                         "exact_sum_dec", "exact_sum_bits"};
#define JUDGE_NCOLS (sizeof judge_cols / sizeof judge_cols[0])
/* The same when a name holds several values: their distinct count and spread beside each row. */
static const char *const judge_cols_rep[] = {"variant", "result_hex", "result", "abs_err", "rel_err",
                                             "ulps", "distinct", "min_hex", "max_hex", "spread_ulps",
                                             "cond", "bound_abs", "dtype", "n", "ulps_f64",
                                             "bound_of", "bound_ratio", "value_as", "exact_sum_hex",
                                             "exact_sum_dec", "exact_sum_bits"};
#define JUDGE_NCOLS_REP (sizeof judge_cols_rep / sizeof judge_cols_rep[0])

/* Rows judged and written per batch (the memory of a --values file of any length). */
#define JUDGE_BATCH 1024

/* The row of one value: the value judged (sl_judge_value) as a row of the one column table. */
static int judge_row(sl_table *t, const sl_colset *cs, const sl_rowctx *ctx, const sl_reference *ref,
                     const jvalue *jv, const sl_variant *bv, const sl_exact_text *S, sl_out_format fmt,
                     const jgroups *gs, int say, int64_t rowi, sl_err *err)
{
    sl_value_judgement j;
    sl_judge_value(ref, bv, jv->v, &j);
    /* a value outside the named variant's bound is marked on stderr, as `sum` marks its rows */
    if (say && bv && j.bound_ratio > 1) {
        char rn[40] = "";
        if (rowi >= 0) snprintf(rn, sizeof rn, " of row %lld", (long long)rowi);
        sl_cli_msg(CMD, "%s%s: outside the a-priori bound of %s: |value - S| is %.3g times the bound", jv->name, rn,
                   bv->name, j.bound_ratio);
    }
    sl_row row;
    sl_row_empty(&row, "elsewhere", ref->dtype, ref->n);
    row.judged = row.have_exact = 1;
    row.result = row.min_result = row.max_result = jv->v;
    row.distinct = 1;
    row.spread_ulps = jv->v == jv->v ? 0.0 : NAN;
    const jgroup *g = group_find(gs, jv->name);   /* a name of several values: theirs */
    if (g && g->count > 1) {
        row.distinct = g->distinct;
        row.min_result = g->anynan ? NAN : g->mn;
        row.max_result = g->anynan ? NAN : g->mx;
        row.spread_ulps = group_spread(g, ref);
    }
    row.err = j.err;
    row.exact = ref->rounded;
    row.cond = ref->cond;
    row.abssum = ref->abssum;
    row.bound = bv ? j.bound : NAN;
    row.bound_ratio = bv ? j.bound_ratio : NAN;
    sl_record_extra x;
    sl_record_extra_init(&x);
    x.bound_of = bv ? bv->name : NULL;
    x.value_as = jv->as;
    x.row = rowi;
    sl_record r = {.ctx = ctx, .variant = jv->name, .status = "ok", .row = &row, .instances = 1,
                   .ref = ref, .S = S, .digits = fmt == SL_OUT_TABLE ? 6 : 0, .x = &x};
    return sl_colset_row(t, cs, &r, 0, err);
}

/* op lse, table format: what S is, the softmax denominator and each value's error of the
 * normalised outputs p_i = exp(x_i - value) (cli_lse.c), under the table. Returns 0, or -1 on an
 * error (a message for all but a write error). */
static int lse_softmax_block(FILE *f, const sl_reference *ref, const void *x, const jvalues *vs)
{
    sl_err e = {{0}};
    if (sl_cli_lse_head(f, ref, x, &e)) {
        sl_cli_msg(CMD, "%s", e.msg);
        return -1;
    }
    jwalk w;
    walk_start(&w, vs);
    jvalue jv;
    int more;
    while ((more = walk_next(&w, &jv)) == 1) {
        value_for(&jv, ref->dtype);   /* checked before (judge_values_check) */
        if (sl_cli_lse_line(f, ref, x, jv.name, jv.v, &e)) {
            sl_cli_msg(CMD, "%s", e.msg);
            return -1;
        }
    }
    fflush(f);
    return more < 0 || ferror(f) ? -1 : 0;
}

/* The output: one row per value, judged and written in batches of JUDGE_BATCH (table and JSON
 * formats walk the values twice: the column widths and JSON's check first, then the rows), then
 * S under a table. Returns the exit code (0, or 1/2 after one message). */
static int judge_write(const sl_reference *ref, const sl_operation *op, const jvalues *vs,
                       const sl_variant *bv, const sl_exact_text *S, sl_out_format fmt,
                       const char *columns, const void *x, const jgroups *gs)
{
    sl_colset cs;
    sl_err err = {{0}};
    const int rep = gs->repeated && !gs->over;
    const char *const *dflt = rep ? judge_cols_rep : judge_cols;
    const size_t ndflt = rep ? JUDGE_NCOLS_REP : JUDGE_NCOLS;
    if (columns ? sl_colset_parse(&cs, columns, &err)
                : sl_colset_names(&cs, dflt, fmt == SL_OUT_TABLE ? ndflt - 3 : ndflt, &err)) {
        sl_cli_msg(CMD, "--columns: %s", err.msg);
        return columns ? 2 : 1;
    }
    sl_table *t = sl_colset_table(&cs);
    if (!t) { sl_cli_msg(CMD, "out of memory"); return columns ? 2 : 1; }
    const sl_rowctx ctx = {.experiment = "judge", .op = op, .dt = ref->dtype, .n = ref->n, .config = "default"};
    sl_table_parts parts;
    sl_table_parts_init(&parts, fmt);
    int rc = 0, wrote = 0;
    for (int pass = fmt == SL_OUT_CSV; pass < 2 && !rc; pass++) {   /* 0 measures, 1 writes */
        if (pass == 1 && sl_table_parts_begin(&parts, t, stdout)) rc = -1;
        jwalk w;
        walk_start(&w, vs);
        jvalue jv;
        int more = 1;
        while (!rc && more) {
            sl_table_clear_rows(t);
            size_t k = 0;
            while (k < JUDGE_BATCH && (more = walk_next(&w, &jv)) == 1) {
                value_for(&jv, ref->dtype);   /* checked before (judge_values_check) */
                if (judge_row(t, &cs, &ctx, ref, &jv, bv, S, fmt, gs, pass == 1, -1, &err)) {
                    sl_cli_msg(CMD, "%s", err.msg);
                    rc = columns ? 2 : 1;
                    break;
                }
                k++;
            }
            if (more < 0) rc = 1;
            if (rc) break;
            if (pass == 0 ? sl_table_parts_measure(&parts, t) : sl_table_parts_write(&parts, t, stdout)) rc = -1;
        }
        wrote = pass == 1;
    }
    if (!rc && wrote && sl_table_parts_end(&parts, stdout)) rc = -1;
    if (!rc && fmt == SL_OUT_TABLE && sl_cli_exact_block(stdout, S, op->name)) rc = -1;
    if (!rc && fmt == SL_OUT_TABLE && groups_block(stdout, gs, ref)) rc = -1;
    if (!rc && fmt == SL_OUT_TABLE && !strcmp(op->name, "lse") && lse_softmax_block(stdout, ref, x, vs))
        rc = -1;
    if (rc < 0) rc = 1;   /* a write error: main() names the reason ("cannot write standard output: ...") */
    sl_table_parts_free(&parts);
    sl_table_free(t);
    return rc;
}

/* Every value as a value of dt (value_for's check) before anything is judged. Returns 0, or
 * the exit code. */
static int judge_values_check(const jvalues *vs, sl_dtype dt, jgroups *gs, int quiet)
{
    jwalk w;
    walk_start(&w, vs);
    jvalue jv;
    int more, code;
    while ((more = walk_next(&w, &jv)) == 1) {
        if ((code = value_for(&jv, dt))) return code;
        if (group_add(gs, jv.name, jv.v)) { sl_cli_msg(CMD, "out of memory"); return 1; }
    }
    if (gs->over && !quiet)
        sl_cli_msg(CMD, "more than %d names or %d distinct values: names given several values, if any, "
                        "are not summarised (distinct count and spread)", JUDGE_GROUP_MAX, JUDGE_GROUP_BITS);
    return more < 0 ? 1 : 0;
}

typedef struct {
    jvalues vs;
    const char *row_values;    /* --row-values (with --axis) */
    int have_axis;             /* --axis K */
    long axis;
    const sl_operation *op;    /* --op */
    const sl_variant *bound_of;
    const char *columns;       /* --columns (NULL: judge_cols) */
    sl_out_format fmt;
    int have_dtype, quiet;
    sl_dtype raw_dt;
    sl_op_params params;       /* --ddof */
} judge_opts;

/* The option loop. Returns -1 to go on, else the exit code (0 after --help). */
static int judge_getopt(int argc, char **argv, judge_opts *o)
{
    enum { O_VALUES = 256, O_BOUND, O_OP, O_COLUMNS, O_DDOF, O_AXIS, O_ROWVALUES };
    static const struct option opts[] = {
        {"columns", required_argument, NULL, O_COLUMNS},
        {"axis", required_argument, NULL, O_AXIS},
        {"row-values", required_argument, NULL, O_ROWVALUES},
        {"op", required_argument, NULL, O_OP},
        {"ddof", required_argument, NULL, O_DDOF},
        {"value", required_argument, NULL, 'V'},   {"values", required_argument, NULL, O_VALUES},
        {"bound-of", required_argument, NULL, O_BOUND}, {"format", required_argument, NULL, 'f'},
        {"dtype", required_argument, NULL, 'd'},   {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    int c, rc;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":V:f:d:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'V': if ((rc = opt_value(&o->vs, optarg))) return rc; break;
        case O_VALUES: if ((rc = opt_values(&o->vs, optarg))) return rc; break;
        case O_COLUMNS: o->columns = optarg; break;
        case O_ROWVALUES: o->row_values = optarg; break;
        case O_AXIS:
            {
                sl_err e = {{0}};
                if (sl_parse_int(optarg, -64, 63, &o->axis, &e)) {
                    sl_cli_msg(CMD, "--axis: %s", e.msg);
                    return 2;
                }
                o->have_axis = 1;
            }
            break;
        case O_DDOF:
            if (sl_cli_ddof(CMD, optarg, &o->params)) return 2;
            break;
        case O_OP:
            {
                sl_err e = {{0}};
                if (sl_op_parse(optarg, &o->op, &e)) {
                    sl_cli_msg(CMD, "--op: %s", e.msg);
                    return 2;
                }
            }
            break;
        case O_BOUND:
            if (!(o->bound_of = sl_variant_find(optarg))) {
                char q[128];
                sl_cli_msg(CMD, "--bound-of: unknown variant '%s' (see 'sumlab list variants')",
                           quoted(q, sizeof q, optarg, strlen(optarg)));
                return 2;
            }
            break;
        case 'f':
            if (sl_out_format_parse(optarg, &o->fmt)) {
                sl_cli_msg(CMD, "unknown --format '%s' (table, csv or json)", optarg);
                return 2;
            }
            break;
        case 'd':
            if (sl_dtype_parse(optarg, &o->raw_dt)) {
                sl_cli_msg(CMD, "unsupported --dtype '%s' (f32, f64, f16 or bf16)", optarg);
                return 2;
            }
            o->have_dtype = 1;
            break;
        case 'q': o->quiet = 1; break;
        case 'h': judge_usage(stdout); return 0;
        default: return sl_cli_bad_option(CMD, c, argv, optind, optopt, opts);
        }
    }
    return -1;
}

/* --bound-of V for --op: the operation's variant of that name (0), or 2 after saying V computes
 * another operation. */
static int bound_for_op(judge_opts *o)
{
    if (o->bound_of && sl_op_of(o->bound_of) != o->op && sl_variant_find_op(o->op->name, o->bound_of->name))
        o->bound_of = sl_variant_find_op(o->op->name, o->bound_of->name);   /* the op's variant of that name */
    if (o->bound_of && sl_op_of(o->bound_of) != o->op) {
        sl_cli_msg(CMD, "--bound-of: variant '%s' computes %s, not %s", o->bound_of->name, o->bound_of->op,
                   o->op->name);
        return 2;
    }
    return 0;
}

/* --row-values' value i as a double (a value of its format vdt). */
static double row_value(const void *vals, sl_dtype vdt, uint64_t i)
{
    switch (vdt) {
    case SL_F64: return ((const double *)vals)[i];
    case SL_F32: return (double)((const float *)vals)[i];
    default: return sl_half_to_double(((const uint16_t *)vals)[i], vdt);
    }
}

/* The rows' values file: loaded, one value a row (the rows' shape, or 1-D of their count). 0, or
 * 2 after one message. */
static int load_row_values(const judge_opts *o, const sl_array_info *info, long axis, uint64_t rows,
                           void **vals, sl_dtype *vdt)
{
    sl_err err = {{0}};
    uint64_t nv = 0;
    sl_array_info vinfo;
    if (sl_array_load_ex(o->row_values, 0, SL_F64, vals, &nv, vdt, &vinfo, &err)) {
        sl_cli_msg(CMD, "--row-values: %s", err.msg);
        return 2;
    }
    /* the rows' shape: FILE's without the axis (a 0-d/1-d FILE: one row) */
    const int nd = info->ndim, a = nd <= 1 ? 0 : (int)(axis < 0 ? axis + nd : axis);
    int same = nd > 1 && vinfo.ndim == nd - 1;
    for (int k = 0, j = 0; same && k < nd; k++)
        if (k != a) same = vinfo.shape[j++] == info->shape[k];
    if (nv != rows || (!same && vinfo.ndim > 1)) {
        char s1[256], s2[256];
        sl_cli_msg(CMD, "--row-values: '%s' has shape %s, but FILE's %s along axis %ld has %llu rows (one value "
                   "a row: the rows' shape, or 1-D)", o->row_values, sl_array_shape_text(&vinfo, s2, sizeof s2),
                   sl_array_shape_text(info, s1, sizeof s1), axis, (unsigned long long)rows);
        return 2;
    }
    return 0;
}

/* --axis K: FILE (and FILE2) as rows, row r judged against its own exact result with value r of
 * --row-values (rounded once to FILE's format), one output row per row, written as they finish
 * (CSV and JSON as one table; the table format in pages). Returns the exit code. */
static int judge_rows(judge_opts *o, const char *path, const char *path2)
{
    sl_err err = {{0}};
    sl_cli_rows R;
    void *vals = NULL;
    sl_dtype vdt = SL_F64;
    int code = 0, begun = 0;
    sl_table *t = NULL;
    jgroups *gs = NULL;
    sl_table_parts parts;
    sl_table_parts_init(&parts, o->fmt);
    if ((code = sl_cli_rows_load(CMD, o->op->name, path, path2, o->have_dtype, o->raw_dt, o->axis, &R))) goto out;
    const void *data = R.x, *data2 = R.y;
    const uint64_t rows = R.rows, N = R.n;
    const sl_dtype dt = R.dt;
    if ((code = load_row_values(o, &R.info, o->axis, rows, &vals, &vdt)) || (code = bound_for_op(o))) goto out;
    sl_colset cs;
    {
        /* the row's index, then judge's columns (the table format: S in hex, no S block under it) */
        const char *names[JUDGE_NCOLS + 1] = {"row"};
        for (size_t k = 0; k < JUDGE_NCOLS; k++) names[k + 1] = judge_cols[k];
        if (o->columns ? sl_colset_parse(&cs, o->columns, &err)
                       : sl_colset_names(&cs, names, o->fmt == SL_OUT_TABLE ? JUDGE_NCOLS - 1 : JUDGE_NCOLS + 1,
                                         &err)) {
            sl_cli_msg(CMD, "--columns: %s", err.msg);
            code = 2;
            goto out;
        }
    }
    t = sl_colset_table(&cs);
    gs = malloc(sizeof *gs);
    if (!t || !gs || groups_init(gs)) {   /* (no names repeat here: an empty set) */
        sl_cli_msg(CMD, "out of memory");
        if (gs) groups_free(gs);
        free(gs);
        gs = NULL;
        code = 1;
        goto out;
    }
    if (!o->quiet)
        sl_cli_msg(CMD, "%s: %llu rows of %llu values along axis %ld%s, judged with the values of '%s' (%s)", path,
                   (unsigned long long)rows, (unsigned long long)N, o->axis,
                   R.moved ? " (the axis moved to the last place on the host, a copy)" : "", o->row_values,
                   sl_dtype_name(vdt));
    const size_t es = sl_dtype_size(dt);
    const sl_rowctx ctx = {.experiment = "judge", .op = o->op, .dt = dt, .n = N, .config = "default"};
    const uint64_t batch = o->fmt == SL_OUT_TABLE ? 4096u : 256u;
    for (uint64_t r = 0; r < rows && !code; r++) {
        const void *const in[2] = {(const char *)data + r * N * es,
                                   data2 ? (const char *)data2 + (R.shared ? 0u : r * N * es) : NULL};
        sl_reference ref;
        if (o->op->reference(&ref, in, N, dt, &o->params, 1, &err)) {
            sl_cli_msg(CMD, "row %llu: %s", (unsigned long long)r, err.msg);
            sl_reference_clear(&ref);
            code = 1;
            break;
        }
        sl_exact_text S;
        if (sl_reference_exact_text(&ref, &S)) {
            sl_reference_clear(&ref);
            sl_cli_msg(CMD, "out of memory");
            code = 1;
            break;
        }
        const double raw = row_value(vals, vdt, r);
        jvalue jv;
        memset(&jv, 0, sizeof jv);
        jv.name = (char *)"value";
        jv.v = dt == SL_F64 ? raw : dt == SL_F32 ? (double)(float)raw : sl_half_round(raw, dt);
        if (vdt == dt || in_format(raw, dt)) snprintf(jv.as, sizeof jv.as, "exact (a %s value)", fmt_long_name(vdt));
        else snprintf(jv.as, sizeof jv.as, "%s nearest of a %s value", fmt_long_name(dt), fmt_long_name(vdt));
        if (judge_row(t, &cs, &ctx, &ref, &jv, o->bound_of, &S, o->fmt, gs, !o->quiet, (int64_t)r, &err)) {
            sl_cli_msg(CMD, "%s", err.msg);
            code = o->columns ? 2 : 1;
        }
        sl_exact_text_free(&S);
        sl_reference_clear(&ref);
        if (code || ((r + 1) % batch && r + 1 < rows)) continue;
        if (sl_cli_rows_flush(t, &parts, o->fmt, r, rows, batch, &begun))
            code = 1;   /* main() names the reason ("cannot write standard output: ...") */
    }
out:
    sl_table_parts_free(&parts);
    sl_table_free(t);
    if (gs) groups_free(gs);
    free(gs);
    free(vals);
    sl_cli_rows_free(&R);
    return code;
}

int sl_cmd_judge(int argc, char **argv)
{
    judge_opts o;
    memset(&o, 0, sizeof o);
    o.params = sl_op_params_default();
    o.fmt = SL_OUT_TABLE;
    o.raw_dt = SL_F32;
    o.op = sl_op_default();
    int code = judge_getopt(argc, argv, &o);
    if (code < 0) code = sl_cli_ddof_check(CMD, &o.params, o.op);
    if (code >= 0) { free_values(&o.vs); return code; }
    if (optind >= argc) {
        sl_cli_msg(CMD, "missing input FILE (.npy or raw; see 'sumlab judge --help')");
        free_values(&o.vs);
        return 2;
    }
    const int nfiles = o.op->inputs == 2 ? 2 : 1;   /* dot: X and Y */
    if (argc - optind > nfiles) {
        sl_cli_msg(CMD, "unexpected argument '%s' (%s)", argv[optind + nfiles],
                   nfiles == 2 ? "dot reads two files" : "one FILE at a time");
        free_values(&o.vs);
        return 2;
    }
    if (argc - optind < nfiles) {
        sl_cli_msg(CMD, "%s reads %d files: FILE2 is missing", o.op->name, nfiles);
        free_values(&o.vs);
        return 2;
    }
    if (o.have_axis || o.row_values) {   /* rows: one value a row from --row-values */
        const char *why = !o.have_axis ? "--row-values needs --axis K"
                          : !o.row_values ? "--axis needs --row-values R.npy (one value a row)"
                          : o.vs.total ? "--axis takes its values from --row-values, not --value/--values"
                                       : NULL;
        if (why) {
            sl_cli_msg(CMD, "%s", why);
            free_values(&o.vs);
            return 2;
        }
        return judge_rows(&o, argv[optind], nfiles == 2 ? argv[optind + 1] : NULL);
    }
    if (!o.vs.total) {
        sl_cli_msg(CMD, "no values to judge (give --value V or --values CSV)");
        free_values(&o.vs);
        return 2;
    }
    const char *path = argv[optind];
    for (const char *q = path; *q;) {   /* a name longer than any file system's: say so, once */
        size_t c = strcspn(q, "/");
        if (c > 255) {
            char b[128];
            sl_cli_msg(CMD, "FILE '%s': a name in the path is %zu bytes long (at most 255)",
                       quoted(b, sizeof b, path, strlen(path)), c);
            free_values(&o.vs);
            return 2;
        }
        q += c;
        while (*q == '/') q++;
    }
    void *data = NULL;
    uint64_t n = 0;
    sl_dtype dt;
    sl_array_info info;
    sl_err err = {{0}};
    if (sl_array_load_ex(path, o.have_dtype, o.raw_dt, &data, &n, &dt, &info, &err)) {
        sl_cli_msg(CMD, "%s", err.msg);
        free_values(&o.vs);
        return 2;
    }
    if (o.have_dtype && dt != o.raw_dt) {
        sl_cli_msg(CMD, "'%s' holds %s values but --dtype %s was given", path, sl_dtype_name(dt),
                   sl_dtype_name(o.raw_dt));
        free(data);
        free_values(&o.vs);
        return 2;
    }
    if (info.note[0] && !o.quiet) sl_cli_msg(CMD, "%s", info.note);
    void *data2 = NULL;   /* a two-input operation's second file: one length, one format */
    if (nfiles == 2) {
        const char *path2 = argv[optind + 1];
        uint64_t n2 = 0;
        sl_dtype dt2 = dt;
        sl_array_info info2;
        const int lrc = sl_array_load_ex(path2, o.have_dtype, o.raw_dt, &data2, &n2, &dt2, &info2, &err);
        if (lrc || dt2 != dt || n2 != n || sl_cli_pairable(CMD, o.op->name, path, &info, path2, &info2)) {
            if (lrc)
                sl_cli_msg(CMD, "%s", err.msg);
            else if (dt2 != dt || n2 != n)
                sl_cli_msg(CMD, "%s: '%s' holds %llu %s values but '%s' holds %llu %s values (the inputs "
                           "of %s must have one length and one format)", o.op->name, path,
                           (unsigned long long)n, sl_dtype_name(dt), path2, (unsigned long long)n2,
                           sl_dtype_name(dt2), o.op->name);
            free(data2);
            free(data);
            free_values(&o.vs);
            return 2;
        }
    }
    jgroups *gs = malloc(sizeof *gs);
    if (!gs || groups_init(gs)) {
        sl_cli_msg(CMD, "out of memory");
        if (gs) groups_free(gs);
        free(gs);
        free(data2);
        free(data);
        free_values(&o.vs);
        return 1;
    }
    if ((code = judge_values_check(&o.vs, dt, gs, o.quiet))) {
        groups_free(gs);
        free(gs);
        free(data2);
        free(data);
        free_values(&o.vs);
        return code;
    }
    if (bound_for_op(&o)) {
        groups_free(gs);
        free(gs);
        free(data2);
        free(data);
        free_values(&o.vs);
        return 2;
    }
    sl_reference ref;
    int rc = 0;
    const void *const in[2] = {data, data2};
    if (o.op->reference(&ref, in, n, dt, &o.params, 1, &err)) {
        sl_cli_msg(CMD, "%s", err.msg);
        rc = 1;
    } else {
        sl_exact_text S;
        if (sl_reference_exact_text(&ref, &S)) {
            sl_cli_msg(CMD, "out of memory");
            rc = 1;
        } else {
            rc = judge_write(&ref, o.op, &o.vs, o.bound_of, &S, o.fmt, o.columns, data, gs);
            sl_exact_text_free(&S);
        }
    }
    sl_reference_clear(&ref);
    groups_free(gs);
    free(gs);
    free(data);
    free(data2);
    free_values(&o.vs);
    return rc;
}

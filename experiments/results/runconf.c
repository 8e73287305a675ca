/* runconf.c: run.conf, the settings a run was started with (read by --resume and the report):
 * `key=value` lines after one comment line. The one reader (strict: a bad field is an error
 * naming the file and the field, never a default) and the one writer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_ops.h"
#include "sl_results.h"
#include "sl_variants.h"

#define CONF_LIST_MAX 64   /* items in a sweep list (the study's SL_SWEEP_MAX) */

/* One item of a list field: 0 when valid, else -1 with why filled. */
typedef int (*item_fn)(const char *item, char *why, size_t len);

static int u64_text(const char *s, unsigned long long *out)
{
    /* an unsigned decimal as run.conf writes it: digits only, no sign, no leading zeros, < 2^64 */
    if (!*s || (s[0] == '0' && s[1]) || strspn(s, "0123456789") != strlen(s)) return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE || *end) return -1;
    *out = v;
    return 0;
}

static int n_item(const char *s, char *why, size_t len)
{
    unsigned long long v;
    if (u64_text(s, &v) || v < 1) return snprintf(why, len, "'%.100s' is not a size (a decimal integer >= 1)", s), -1;
    return 0;
}
static int ds_item(const char *s, char *why, size_t len)
{
    if (!sl_dataset_find(s)) return snprintf(why, len, "unknown dataset '%.100s'", s), -1;
    return 0;
}
static int v_item(const char *s, char *why, size_t len)
{
    if (!sl_variant_find(s)) return snprintf(why, len, "unknown variant '%.100s'", s), -1;
    return 0;
}
static int dt_item(const char *s, char *why, size_t len)
{
    sl_dtype dt;
    if (sl_dtype_parse(s, &dt)) return snprintf(why, len, "unsupported dtype '%.100s' (f32, f64, f16 or bf16)", s), -1;
    return 0;
}

/* A comma-separated list ("" = none given): every item valid, none twice, at most
 * CONF_LIST_MAX. 0, or -1 with why. */
static int check_list(const char *list, item_fn f, char *why, size_t len)
{
    if (!*list) return 0;
    char items[CONF_LIST_MAX][128];
    int k = 0;
    for (const char *p = list;; k++) {
        size_t il = strcspn(p, ",");
        if (il == 0 || il >= sizeof items[0]) return snprintf(why, len, "malformed list"), -1;
        if (k >= CONF_LIST_MAX) return snprintf(why, len, "more than %d items", CONF_LIST_MAX), -1;
        memcpy(items[k], p, il);
        items[k][il] = '\0';
        if (f(items[k], why, len)) return -1;
        for (int i = 0; i < k; i++)
            if (!strcmp(items[i], items[k])) return snprintf(why, len, "'%.100s' given twice", items[k]), -1;
        if (!p[il]) break;
        p += il + 1;
    }
    return 0;
}

/* A printable value of the field's buffer: no control bytes, fits. */
static int copy_text(char *dst, size_t cap, const char *v)
{
    for (const unsigned char *q = (const unsigned char *)v; *q; q++)
        if (*q < 0x20 || *q == 0x7f) return -1;
    if (strlen(v) >= cap) return -1;
    memcpy(dst, v, strlen(v) + 1);
    return 0;
}

static int bad_field(sl_runconf *c, const char *path, const char *key, const char *v, const char *why)
{
    snprintf(c->error, sizeof c->error, "%s: field '%s': %.300s (value '%.80s%s')", path, key, why, v,
             strlen(v) > 80 ? "..." : "");
    return -2;
}

int sl_runconf_read(const char *dir, sl_runconf *c)
{
    char path[SL_DIR_MAX + 64], line[1600], why[256];
    memset(c, 0, sizeof *c);
    c->seeds = 1;
    c->ddof = -1;
    if (sl_path_join(path, sizeof path, dir, "run.conf", NULL)) return -1;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    static const struct { const char *key; unsigned bit; } keys[] = {
        {"experiment", 1u << 0}, {"preset", 1u << 1}, {"backend", 1u << 2}, {"seed", 1u << 3},
        {"reps", 1u << 4}, {"started", 1u << 5}, {"n", 1u << 6}, {"datasets", 1u << 7},
        {"variants", 1u << 8}, {"dtypes", 1u << 9}, {"seeds", 1u << 10}, {"baseline", 1u << 11}, {"op", 1u << 12},
        {"ddof", 1u << 13}, {"params", 1u << 14}, {"files", 1u << 15}};
    unsigned had = 0;
    long ln = 0;
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        ln++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            snprintf(c->error, sizeof c->error, "%s:%ld: line longer than %zu bytes", path, ln, sizeof line - 2);
            rc = -2;
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        char *eq = strchr(line, '=');
        if (!eq) {
            snprintf(c->error, sizeof c->error, "%s:%ld: expected key=value, got '%.80s'", path, ln, line);
            rc = -2;
            break;
        }
        *eq = '\0';
        const char *k = line, *v = eq + 1;
        size_t ki = 0;
        while (ki < sizeof keys / sizeof keys[0] && strcmp(keys[ki].key, k)) ki++;
        if (ki == sizeof keys / sizeof keys[0]) {
            snprintf(c->error, sizeof c->error, "%s:%ld: unknown field '%.64s'", path, ln, k);
            rc = -2;
            break;
        }
        if (had & keys[ki].bit) { rc = bad_field(c, path, k, v, "given twice"); break; }
        had |= keys[ki].bit;
        if (!strcmp(k, "experiment")) {
            /* the experiment's name (the study's registry is checked by `run`, which resumes
             * only the experiment it was asked for): lower-case letters, digits and '-' */
            if (!*v || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(v) ||
                copy_text(c->experiment, sizeof c->experiment, v))
                rc = bad_field(c, path, k, v, "not an experiment name");
            else c->seen |= SL_CONF_EXPERIMENT;
        } else if (!strcmp(k, "preset")) {
            if (strcmp(v, "tiny") && strcmp(v, "quick") && strcmp(v, "full"))
                rc = bad_field(c, path, k, v, "not a preset (tiny, quick or full)");
            else { copy_text(c->preset, sizeof c->preset, v); c->seen |= SL_CONF_PRESET; }
        } else if (!strcmp(k, "backend")) {
            if (strcmp(v, "cpu") && strcmp(v, "gpu")) rc = bad_field(c, path, k, v, "not a backend (cpu or gpu)");
            else { copy_text(c->backend, sizeof c->backend, v); c->seen |= SL_CONF_BACKEND; }
        } else if (!strcmp(k, "seed")) {
            if (u64_text(v, &c->seed)) rc = bad_field(c, path, k, v, "not an unsigned decimal integer below 2^64");
            else c->seen |= SL_CONF_SEED;
        } else if (!strcmp(k, "reps")) {
            unsigned long long r;
            if (u64_text(v, &r) || r > 1000000)
                rc = bad_field(c, path, k, v, "not a repetition count (0 for the preset's, or 1 to 1000000)");
            else { c->reps = (long)r; c->seen |= SL_CONF_REPS; }
        } else if (!strcmp(k, "started")) {
            /* a UTC time as `run` writes it: 2026-01-31T12:00:00Z */
            if (strlen(v) != 20 || strspn(v, "0123456789-:TZ") != 20 || v[4] != '-' || v[10] != 'T' || v[19] != 'Z')
                rc = bad_field(c, path, k, v, "not a UTC time (YYYY-MM-DDTHH:MM:SSZ)");
            else { copy_text(c->started, sizeof c->started, v); c->seen |= SL_CONF_STARTED; }
        } else if (!strcmp(k, "seeds")) {
            unsigned long long s;
            if (u64_text(v, &s) || s < 1 || s > 1000) rc = bad_field(c, path, k, v, "not an instance count (1 to 1000)");
            else { c->seeds = (long)s; c->seen |= SL_CONF_SWEEP; }
        } else if (!strcmp(k, "ddof")) {   /* absent in runs made before it: the default */
            unsigned long long d;
            if (u64_text(v, &d) || d > SL_DDOF_MAX) rc = bad_field(c, path, k, v, "not a ddof (0 to 1000000)");
            else c->ddof = (long)d;
        } else if (!strcmp(k, "op")) {   /* absent in runs made before the operation axis: sum */
            if (!sl_op_find(v)) rc = bad_field(c, path, k, v, "unknown operation");
            else copy_text(c->op, sizeof c->op, v);
        } else if (!strcmp(k, "params")) {   /* --param: checked against the datasets when run */
            if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,=+-") != strlen(v))
                rc = bad_field(c, path, k, v, "not a list of K=V dataset parameters");
            else if (copy_text(c->params, sizeof c->params, v)) rc = bad_field(c, path, k, v, "too long");
        } else if (!strcmp(k, "files")) {   /* --files: labels and hashes, compared on resume */
            if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:+-") != strlen(v))
                rc = bad_field(c, path, k, v, "not a list of file:NAME:HASH inputs");
            else if (copy_text(c->files, sizeof c->files, v)) rc = bad_field(c, path, k, v, "too long");
        } else if (!strcmp(k, "baseline")) {
            if (*v && !sl_variant_find(v)) rc = bad_field(c, path, k, v, "unknown variant");
            else { copy_text(c->baseline, sizeof c->baseline, v); c->seen |= SL_CONF_SWEEP; }
        } else {   /* the lists */
            char *dst = !strcmp(k, "n") ? c->n : !strcmp(k, "datasets") ? c->datasets
                      : !strcmp(k, "variants") ? c->variants : c->dtypes;
            size_t cap = !strcmp(k, "n") ? sizeof c->n : !strcmp(k, "datasets") ? sizeof c->datasets
                       : !strcmp(k, "variants") ? sizeof c->variants : sizeof c->dtypes;
            item_fn fn = !strcmp(k, "n") ? n_item : !strcmp(k, "datasets") ? ds_item
                       : !strcmp(k, "variants") ? v_item : dt_item;
            why[0] = '\0';
            if (check_list(v, fn, why, sizeof why)) rc = bad_field(c, path, k, v, why);
            else if (copy_text(dst, cap, v)) rc = bad_field(c, path, k, v, "too long");
            else c->seen |= SL_CONF_SWEEP;
        }
    }
    if (!rc && ferror(f)) {
        snprintf(c->error, sizeof c->error, "%s: read error", path);
        rc = -2;
    }
    fclose(f);
    if (rc) return rc;
    if ((c->seen & SL_CONF_REQUIRED) != SL_CONF_REQUIRED) {
        for (size_t i = 0; i < 6; i++)
            if (!(had & keys[i].bit)) {
                snprintf(c->error, sizeof c->error, "%s: field '%s' missing", path, keys[i].key);
                break;
            }
        return -2;
    }
    return 0;
}

int sl_runconf_write(const char *dir, const sl_runconf *c, sl_err *err)
{
    char path[SL_DIR_MAX + 64], text[6144];
    if (sl_path_join(path, sizeof path, dir, "run.conf", err)) return -1;
    /* the sweep: empty lists are the experiments' own choices; seeds = instances per point
     * (instance i uses dataset seed seed + i) */
    int w = snprintf(text, sizeof text, "# sumlab run settings (read by --resume)\nexperiment=%s\npreset=%s\n"
                     "backend=%s\nseed=%llu\nreps=%ld\nstarted=%s\n"
                     "n=%s\ndatasets=%s\nvariants=%s\ndtypes=%s\nseeds=%ld\nbaseline=%s\nop=%s\nddof=%ld\n%s%s%s%s%s%s",
                     c->experiment, c->preset, c->backend, c->seed, c->reps, c->started, c->n,
                     c->datasets, c->variants, c->dtypes, c->seeds > 0 ? c->seeds : 1, c->baseline,
                     c->op[0] ? c->op : sl_op_default()->name,
                     c->ddof >= 0 ? c->ddof : (long)SL_DDOF_DEFAULT, c->params[0] ? "params=" : "", c->params,
                     c->params[0] ? "\n" : "", c->files[0] ? "files=" : "", c->files,
                     c->files[0] ? "\n" : "");
    if (w < 0 || (size_t)w >= sizeof text) return sl_err_set(err, "cannot write %s: settings too long", path);
    return sl_write_atomic(path, text, (size_t)w, err);   /* never an empty run.conf */
}

/* keys.c: the row key (the one function that makes it), the row context's params string, and
 * the set of keys behind --resume (open addressing over strdup'ed keys). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_results.h"

const char *const sl_key_columns[SL_KEY_FIELDS] = {"op", "experiment", "dataset", "params",
                                                   "dtype", "n", "variant", "config"};

/* The fields joined by '|', a '|' or '\\' inside a field escaped by a '\\' (so that two rows whose
 * fields differ never share a key, e.g. "a|b","c" and "a","b|c" from a hand-edited file). */
int sl_row_key(char *buf, size_t len, const char *const f[SL_KEY_FIELDS])
{
    size_t o = 0;
    for (int i = 0; i < SL_KEY_FIELDS; i++) {
        if (i) {
            if (o + 1 >= len) return -1;
            buf[o++] = '|';
        }
        for (const char *s = f[i] ? f[i] : ""; *s; s++) {
            if (*s == '|' || *s == '\\') {
                if (o + 1 >= len) return -1;
                buf[o++] = '\\';
            }
            if (o + 1 >= len) return -1;
            buf[o++] = *s;
        }
    }
    if (o >= len) return -1;
    buf[o] = '\0';
    return 0;
}

/* Appends "|i=K" for instance K > 0 (instance 0 keeps the key of a run without --seeds). */
static int add_instance(char *buf, size_t len, const char *inst)
{
    if (!inst || !*inst || !strcmp(inst, "0")) return 0;
    size_t l = strlen(buf);
    int w = snprintf(buf + l, len - l, "|i=%s", inst);
    return (w < 0 || (size_t)w >= len - l) ? -1 : 0;
}

int sl_csv_key(const sl_csv *t, size_t r, char *buf, size_t len)
{
    const char *f[SL_KEY_FIELDS];
    for (int i = 0; i < SL_KEY_FIELDS; i++) f[i] = sl_csv_get(t, r, sl_csv_col(t, sl_key_columns[i]));
    if (sl_csv_col(t, "op") < 0) f[0] = sl_op_default()->name;
    if (sl_row_key(buf, len, f)) return -1;
    return add_instance(buf, len, sl_csv_get(t, r, sl_csv_col(t, "instance")));
}

const sl_operation *sl_rowctx_op(const sl_rowctx *c) { return c->op ? c->op : sl_op_default(); }

int sl_rowctx_key(const sl_rowctx *c, const char *variant, char *buf, size_t len)
{
    char n[32];
    snprintf(n, sizeof n, "%llu", (unsigned long long)c->n);
    const char *f[SL_KEY_FIELDS] = {sl_rowctx_op(c)->name, c->experiment, c->ds ? c->ds->name : "-",
                                    c->params, sl_dtype_name(c->dt), n, variant, c->config};
    if (sl_row_key(buf, len, f)) return -1;
    char inst[16];
    snprintf(inst, sizeof inst, "%d", c->instance);
    return add_instance(buf, len, inst);
}

void sl_rowctx_params(sl_rowctx *c, const sl_dataset *ds, const sl_params *p)
{
    size_t used = 0;
    c->params[0] = '\0';
    for (int k = 0; ds && k < ds->nparams && used < sizeof c->params; k++) {
        char choice[64];
        const char *name = sl_param_choice(&ds->params[k], p->v[k], choice, sizeof choice);
        int w = name ? snprintf(c->params + used, sizeof c->params - used, "%s%s=%s",
                                k ? ";" : "", ds->params[k].name, name)
                     : snprintf(c->params + used, sizeof c->params - used, "%s%s=%.6g",
                                k ? ";" : "", ds->params[k].name, p->v[k]);
        if (w < 0) break;
        used += (size_t)w;
    }
    for (char *q = c->params; *q; q++)
        if (*q == ',') *q = ';';
}


static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return h;
}

int sl_keyset_has(const sl_keyset *k, const char *key)
{
    if (!k->cap) return 0;
    for (size_t i = hash_str(key) & (k->cap - 1);; i = (i + 1) & (k->cap - 1)) {
        if (!k->slot[i]) return 0;
        if (!strcmp(k->slot[i], key)) return 1;
    }
}

int sl_keyset_add(sl_keyset *k, const char *key)
{
    if (sl_keyset_has(k, key)) return 0;
    if ((k->count + 1) * 2 > k->cap) {
        size_t ncap = k->cap ? k->cap * 2 : 256;
        char **ns = calloc(ncap, sizeof *ns);
        if (!ns) return -1;
        for (size_t i = 0; i < k->cap; i++) {
            if (!k->slot[i]) continue;
            size_t j = hash_str(k->slot[i]) & (ncap - 1);
            while (ns[j]) j = (j + 1) & (ncap - 1);
            ns[j] = k->slot[i];
        }
        free(k->slot);
        k->slot = ns;
        k->cap = ncap;
    }
    char *dup = strdup(key);
    if (!dup) return -1;
    size_t i = hash_str(key) & (k->cap - 1);
    while (k->slot[i]) i = (i + 1) & (k->cap - 1);
    k->slot[i] = dup;
    k->count++;
    return 1;
}

void sl_keyset_free(sl_keyset *k)
{
    for (size_t i = 0; i < k->cap; i++) free(k->slot[i]);
    free(k->slot);
    memset(k, 0, sizeof *k);
}


/* sweep.c: the sweep a user chose (`sumlab run --n/--datasets/--variants/--dtype/--seeds/
 * --baseline`) checked against the registries into an sl_sweep, with the canonical text run.conf
 * keeps; the same from run.conf's text when a run is resumed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"

/* item appended to the canonical list out (len bytes): 0, or -1 with err naming opt when the
 * list would not fit (never a list cut short: run.conf would resume another sweep). */
static int join(char *out, size_t len, const char *item, const char *opt, sl_err *err)
{
    size_t l = strlen(out);
    int w = snprintf(out + l, len - l, "%s%s", l ? "," : "", item);
    if (w < 0 || (size_t)w >= len - l) {
        out[l] = '\0';
        return sl_err_set(err, "%s: the list is longer than run.conf keeps (%zu characters)", opt, len - 1);
    }
    return 0;
}

/* The items of a comma-separated list one by one: f(item) returns 0 or -1 (err). */
static int each_item(const char *opt, const char *list, int (*f)(sl_sweep_spec *, const char *, sl_err *),
                     sl_sweep_spec *s, sl_err *err)
{
    if (!*list) return sl_err_set(err, "%s: empty list", opt);
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[128];
        if (len == 0 || len >= sizeof item) return sl_err_set(err, "%s: malformed list '%s'", opt, list);
        memcpy(item, p, len);
        item[len] = '\0';
        if (f(s, item, err)) return -1;
        if (!p[len]) return 0;
        p += len + 1;
    }
}

static int add_n(sl_sweep_spec *s, uint64_t v, sl_err *err)
{
    if (v < 1) return sl_err_set(err, "--n: n must be at least 1 (got 0)");
    if (s->sweep.nn >= SL_SWEEP_MAX) return sl_err_set(err, "--n: at most %d sizes", SL_SWEEP_MAX);
    for (int i = 0; i < s->sweep.nn; i++)
        if (s->sweep.n[i] == v) return sl_err_set(err, "--n: %llu given twice", (unsigned long long)v);
    s->sweep.n[s->sweep.nn++] = v;
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    return join(s->n, sizeof s->n, b, "--n", err);
}

/* run.conf's sizes: plain decimal numbers, as add_n writes them. */
static int n_conf_item(sl_sweep_spec *s, const char *item, sl_err *err)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(item, &end, 10);
    if (item[0] < '0' || item[0] > '9' || errno || !end || *end)
        return sl_err_set(err, "--n: malformed size '%s'", item);
    return add_n(s, (uint64_t)v, err);
}

static int ds_item(sl_sweep_spec *s, const char *name, sl_err *err)
{
    const sl_dataset *ds = sl_dataset_find(name);
    if (!ds) return sl_err_set(err, "--datasets: unknown dataset '%s' (see 'sumlab list datasets')", name);
    if (s->sweep.nds >= SL_SWEEP_MAX) return sl_err_set(err, "--datasets: at most %d", SL_SWEEP_MAX);
    for (int i = 0; i < s->sweep.nds; i++)
        if (s->sweep.ds[i] == ds) return sl_err_set(err, "--datasets: '%s' given twice", name);
    s->sweep.ds[s->sweep.nds++] = ds;
    return join(s->datasets, sizeof s->datasets, ds->name, "--datasets", err);
}

static int v_item(sl_sweep_spec *s, const char *name, sl_err *err)
{
    const sl_variant *v = sl_variant_find(name);
    if (!v) return sl_err_set(err, "--variants: unknown variant '%s' (see 'sumlab list variants')", name);
    if (s->sweep.nv >= SL_SWEEP_MAX) return sl_err_set(err, "--variants: at most %d", SL_SWEEP_MAX);
    for (int i = 0; i < s->sweep.nv; i++)
        if (s->sweep.v[i] == v) return sl_err_set(err, "--variants: '%s' given twice", name);
    s->sweep.v[s->sweep.nv++] = v;
    return join(s->variants, sizeof s->variants, v->name, "--variants", err);
}

static int dt_item(sl_sweep_spec *s, const char *name, sl_err *err)
{
    sl_dtype dt;
    if (sl_dtype_parse(name, &dt))
        return sl_err_set(err, "--dtype: unsupported dtype '%s' (f32, f64, f16 or bf16)", name);
    if (s->sweep.dtypes & SL_DTYPE_MASK(dt)) return sl_err_set(err, "--dtype: '%s' given twice", name);
    s->sweep.dtypes |= SL_DTYPE_MASK(dt);
    s->dtypes[0] = '\0';       /* canonical order: f32, f64, f16, bf16 */
    for (int k = 0; k < SL_NDTYPES; k++)
        if ((s->sweep.dtypes & SL_DTYPE_MASK(k)) &&
            join(s->dtypes, sizeof s->dtypes, sl_dtype_name((sl_dtype)k), "--dtype", err)) return -1;
    return 0;
}

/* Everything but the sizes (s already cleared). */
static int parse_rest(sl_sweep_spec *s, const char *ds, const char *vs, const char *dt, long seeds,
                      const char *baseline, sl_err *err)
{
    if (ds && each_item("--datasets", ds, ds_item, s, err)) return -1;
    if (vs && each_item("--variants", vs, v_item, s, err)) return -1;
    if (dt && each_item("--dtype", dt, dt_item, s, err)) return -1;
    if (seeds < 0 || seeds > 1000) return sl_err_set(err, "--seeds: %ld is not in [1, 1000]", seeds);
    s->sweep.seeds = seeds > 0 ? (int)seeds : 1;
    if (baseline) {
        if (!sl_variant_find(baseline))
            return sl_err_set(err, "--baseline: unknown variant '%s' (see 'sumlab list variants')", baseline);
        snprintf(s->baseline, sizeof s->baseline, "%s", baseline);
    }
    return 0;
}

int sl_sweep_parse(sl_sweep_spec *s, const uint64_t *n, int nn, const char *ds, const char *vs,
                   const char *dt, long seeds, const char *baseline, sl_err *err)
{
    memset(s, 0, sizeof *s);
    s->sweep.seeds = 1;
    for (int i = 0; i < nn; i++)
        if (add_n(s, n[i], err)) return -1;
    return parse_rest(s, ds, vs, dt, seeds, baseline, err);
}

int sl_sweep_parse_conf(sl_sweep_spec *s, const char *n, const char *ds, const char *vs,
                        const char *dt, long seeds, const char *baseline, sl_err *err)
{
    memset(s, 0, sizeof *s);
    s->sweep.seeds = 1;
    if (n && each_item("--n", n, n_conf_item, s, err)) return -1;
    return parse_rest(s, ds, vs, dt, seeds, baseline, err);
}

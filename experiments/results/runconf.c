/* runconf.c: run.conf, the settings a run was started with (read by --resume and the report):
 * `key=value` lines after one comment line. The one reader and the one writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_results.h"

int sl_runconf_read(const char *dir, sl_runconf *c)
{
    char path[SL_DIR_MAX + 64], line[1200];
    memset(c, 0, sizeof *c);
    c->seeds = 1;
    if (sl_path_join(path, sizeof path, dir, "run.conf", NULL)) return -1;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq = '\0';
        const char *k = line, *v = eq + 1;
        if (!strcmp(k, "experiment")) { snprintf(c->experiment, sizeof c->experiment, "%s", v); c->seen |= SL_CONF_EXPERIMENT; }
        else if (!strcmp(k, "preset")) { snprintf(c->preset, sizeof c->preset, "%s", v); c->seen |= SL_CONF_PRESET; }
        else if (!strcmp(k, "backend")) { snprintf(c->backend, sizeof c->backend, "%s", v); c->seen |= SL_CONF_BACKEND; }
        else if (!strcmp(k, "seed")) { c->seed = strtoull(v, NULL, 10); c->seen |= SL_CONF_SEED; }
        else if (!strcmp(k, "reps")) { c->reps = strtol(v, NULL, 10); c->seen |= SL_CONF_REPS; }
        else if (!strcmp(k, "started")) { snprintf(c->started, sizeof c->started, "%s", v); c->seen |= SL_CONF_STARTED; }
        else if (!strcmp(k, "n")) { snprintf(c->n, sizeof c->n, "%s", v); c->seen |= SL_CONF_SWEEP; }
        else if (!strcmp(k, "datasets")) { snprintf(c->datasets, sizeof c->datasets, "%s", v); c->seen |= SL_CONF_SWEEP; }
        else if (!strcmp(k, "variants")) { snprintf(c->variants, sizeof c->variants, "%s", v); c->seen |= SL_CONF_SWEEP; }
        else if (!strcmp(k, "dtypes")) { snprintf(c->dtypes, sizeof c->dtypes, "%s", v); c->seen |= SL_CONF_SWEEP; }
        else if (!strcmp(k, "baseline")) { snprintf(c->baseline, sizeof c->baseline, "%s", v); c->seen |= SL_CONF_SWEEP; }
        else if (!strcmp(k, "seeds")) { c->seeds = strtol(v, NULL, 10); if (c->seeds < 1) c->seeds = 1; c->seen |= SL_CONF_SWEEP; }
    }
    fclose(f);
    return (c->seen & SL_CONF_REQUIRED) == SL_CONF_REQUIRED ? 0 : -2;
}

int sl_runconf_write(const char *dir, const sl_runconf *c, sl_err *err)
{
    char path[SL_DIR_MAX + 64], text[4608];
    if (sl_path_join(path, sizeof path, dir, "run.conf", err)) return -1;
    /* the sweep: empty lists are the experiments' own choices; seeds = instances per point
     * (instance i uses dataset seed seed + i) */
    int w = snprintf(text, sizeof text, "# sumlab run settings (read by --resume)\nexperiment=%s\npreset=%s\n"
                     "backend=%s\nseed=%llu\nreps=%ld\nstarted=%s\n"
                     "n=%s\ndatasets=%s\nvariants=%s\ndtypes=%s\nseeds=%ld\nbaseline=%s\n",
                     c->experiment, c->preset, c->backend, c->seed, c->reps, c->started, c->n,
                     c->datasets, c->variants, c->dtypes, c->seeds > 0 ? c->seeds : 1, c->baseline);
    if (w < 0 || (size_t)w >= sizeof text) return sl_err_set(err, "cannot write %s: settings too long", path);
    return sl_write_atomic(path, text, (size_t)w, err);   /* never an empty run.conf */
}

/* meta.c: meta.json, a run's settings and provenance, written and read with cJSON. Counts and
 * seeds are written as exact integer text (a double would round seeds above 2^53). */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_results.h"
#include "sl_variants.h"

/* Adds an integer member as exact JSON text; NULL when out of memory. */
static cJSON *add_int(cJSON *o, const char *key, long long v, int is_unsigned)
{
    char b[32];
    if (is_unsigned) snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    else snprintf(b, sizeof b, "%lld", v);
    return cJSON_AddRawToObject(o, key, b);
}

static cJSON *meta_json(const sl_runconf *c, int resumed, const sl_provenance *p)
{
    cJSON *o = cJSON_CreateObject(), *files = NULL, *prov = NULL;
    if (!o) return NULL;
    int ok = cJSON_AddStringToObject(o, "tool", "sumlab run") &&
             cJSON_AddStringToObject(o, "experiment", c->experiment) &&
             cJSON_AddStringToObject(o, "preset", c->preset) &&
             cJSON_AddStringToObject(o, "backend", c->backend) &&
             add_int(o, "seed", (long long)c->seed, 1) && add_int(o, "reps_override", c->reps, 0) &&
             cJSON_AddStringToObject(o, "started", c->started) &&
             cJSON_AddBoolToObject(o, "resumed", resumed != 0) &&
             add_int(o, "cpu_sm_count_assumed", SL_DEFAULT_SM_COUNT, 1) &&
             (files = cJSON_AddObjectToObject(o, "files")) &&
             cJSON_AddStringToObject(files, "results", "results.csv") &&
             cJSON_AddStringToObject(files, "distribution", "distribution.csv") &&
             cJSON_AddStringToObject(files, "report", "report.md") &&
             cJSON_AddStringToObject(files, "charts", "charts/") &&
             (prov = sl_provenance_json(p)) != NULL;
    if (ok) cJSON_AddItemToObject(o, "provenance", prov);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int sl_meta_write(const char *dir, const sl_runconf *c, int resumed, const sl_provenance *p,
                  sl_err *err)
{
    char path[SL_DIR_MAX + 64];
    if (sl_path_join(path, sizeof path, dir, "meta.json", err)) return -1;
    cJSON *o = meta_json(c, resumed, p);
    char *text = o ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    if (!text) return sl_err_set(err, "cannot write %s: out of memory", path);
    size_t len = strlen(text);
    char *t2 = realloc(text, len + 2);    /* cJSON_Print's buffer comes from malloc */
    if (!t2) { cJSON_free(text); return sl_err_set(err, "cannot write %s: out of memory", path); }
    t2[len] = '\n';
    t2[len + 1] = '\0';
    int rc = sl_write_atomic(path, t2, len + 1, err);
    free(t2);
    return rc;
}

/* The text of member key of o (strings as they are, numbers and booleans spelled); "?" when absent. */
static void member(const cJSON *o, const char *key, char *out, size_t len)
{
    const cJSON *m = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (cJSON_IsString(m) && m->valuestring && strlen(m->valuestring) >= len) {   /* never a cut value */
        char said[64];
        const int w = snprintf(said, sizeof said, "? (%zu bytes: longer than a report shows)", strlen(m->valuestring));
        snprintf(out, len, "%s", w > 0 && (size_t)w < len ? said : "?");   /* (a short field: "?" alone) */
    }
    else if (cJSON_IsString(m) && m->valuestring) snprintf(out, len, "%s", m->valuestring);
    else if (cJSON_IsNumber(m)) snprintf(out, len, "%.17g", m->valuedouble);
    else if (cJSON_IsBool(m)) snprintf(out, len, "%s", cJSON_IsTrue(m) ? "true" : "false");
    else snprintf(out, len, "?");
}

int sl_meta_read(const char *dir, sl_meta *m, sl_err *err)
{
    char path[SL_DIR_MAX + 64];
    const cJSON *prov = NULL;
    if (sl_path_join(path, sizeof path, dir, "meta.json", err)) {
        member(NULL, "", m->git_sha, sizeof m->git_sha);
        member(NULL, "", m->git_dirty, sizeof m->git_dirty);
        member(NULL, "", m->gpu_name, sizeof m->gpu_name);
        member(NULL, "", m->date_utc, sizeof m->date_utc);
        return -1;
    }
    cJSON *o = NULL;
    size_t len;
    char *text = sl_slurp(path, &len, err);
    int rc = 0;
    if (!text) rc = -1;
    else if (!(o = cJSON_ParseWithLength(text, len))) rc = sl_err_set(err, "%s: not valid JSON", path);
    else prov = cJSON_GetObjectItemCaseSensitive(o, "provenance");
    member(prov, "git_sha", m->git_sha, sizeof m->git_sha);
    member(prov, "git_dirty", m->git_dirty, sizeof m->git_dirty);
    member(prov, "gpu_name", m->gpu_name, sizeof m->gpu_name);
    member(prov, "date_utc", m->date_utc, sizeof m->date_utc);
    cJSON_Delete(o);
    free(text);
    return rc;
}

/* phases.c: where a run's time went (sl_phase_times): one stderr line, and the "timing" member
 * of meta.json (read, amended and rewritten atomically with cJSON) so that a run made on
 * another machine carries its own profile. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"

typedef struct {
    const char *key;
    size_t off;
} phase_field;

#define PF(k) {#k, offsetof(sl_phase_times, k)}
static const phase_field fields[] = {PF(generate), PF(reference), PF(measure), PF(judge), PF(write),
                                     PF(wait), PF(render), PF(report), PF(total)};
#define NFIELDS (sizeof fields / sizeof fields[0])

static double field(const sl_phase_times *t, size_t i)
{
    return *(const double *)((const char *)t + fields[i].off);
}

void sl_phases_line(const sl_phase_times *t, unsigned threads, char *buf, size_t len)
{
    /* each phase sums its calls' wall clock; the pipeline runs phases side by side */
    int w = snprintf(buf, len, "seconds by phase (%u thread%s; phases overlap, so they add up to more "
                               "than the total):", threads ? threads : 1, threads > 1 ? "s" : "");
    for (size_t i = 0; i < NFIELDS && w >= 0 && (size_t)w < len; i++)
        w += snprintf(buf + w, len - (size_t)w, " %s %.2f%s", fields[i].key, field(t, i),
                      i + 1 < NFIELDS ? "," : "");
}

/* meta.json's text (malloc'ed), or NULL with err. */
static char *read_text(const char *path, sl_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        sl_err_set(err, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *b = malloc(cap);
    while (b) {
        size_t k = fread(b + len, 1, cap - len - 1, f);
        len += k;
        if (len + 1 < cap) break;
        char *nb = realloc(b, cap *= 2);
        if (!nb) { free(b); b = NULL; }
        else b = nb;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b || bad) {
        free(b);
        sl_err_set(err, "cannot read %s: %s", path, b ? "read error" : "out of memory");
        return NULL;
    }
    b[len] = '\0';
    return b;
}

int sl_phases_report(const sl_run *run, int quiet, sl_err *err)
{
    char line[512];
    sl_phases_line(&run->phases, run->threads, line, sizeof line);
    if (!quiet) fprintf(stderr, "sumlab run: %s\n", line);
    char path[sizeof run->dir + 16];
    if (sl_path_join(path, sizeof path, run->dir, "meta.json", err)) return -1;
    char *text = read_text(path, err);
    if (!text) return -1;
    cJSON *o = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return sl_err_set(err, "%s is not a JSON object: timing not recorded", path);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(o, "timing");
    cJSON *t = cJSON_AddObjectToObject(o, "timing");
    int ok = t && cJSON_AddNumberToObject(t, "threads", run->threads ? run->threads : 1) &&
             cJSON_AddStringToObject(t, "unit", "seconds (wall clock of each phase's calls, summed; "
                                              "the pipeline overlaps phases)");
    for (size_t i = 0; ok && i < NFIELDS; i++) {
        char v[32];   /* milliseconds are enough: a fixed text, not a double's 17 digits */
        snprintf(v, sizeof v, "%.3f", field(&run->phases, i));
        ok = cJSON_AddRawToObject(t, fields[i].key, v) != NULL;
    }
    char *out = ok ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    if (!out) return sl_err_set(err, "cannot write %s: out of memory", path);
    size_t len = strlen(out);
    char *o2 = realloc(out, len + 2);
    if (!o2) { cJSON_free(out); return sl_err_set(err, "cannot write %s: out of memory", path); }
    o2[len] = '\n';
    o2[len + 1] = '\0';
    int rc = sl_write_atomic(path, o2, len + 1, err);
    free(o2);
    return rc;
}

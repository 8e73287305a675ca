/* step.c: one step of an experiment: its input generated, the variants not yet done measured
 * through measure/ (which judges them), each row written through results/ as it finishes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"

/* Largest n for which a GPU result is also checked against its CPU twin (the twin emulates
 * the GPU's order on one core: beyond this it costs more than the whole GPU sweep). */
#define SL_TWIN_CHECK_MAX_N ((uint64_t)1 << 22)

int sl_study_has(const sl_run *run, const sl_rowctx *c, const char *variant)
{
    return sl_results_has(&run->res, c, variant);
}

sl_record sl_study_record(const sl_run *run, const sl_rowctx *c, const sl_variant *v,
                          const char *status, const sl_row *row, const char *note)
{
    sl_record r = {c, v->name, v->family, sl_determinism_name(v->determinism), status, note,
                   sl_exp_instance_seed(run, c->instance), row, sl_exp_instances(run)};
    return r;
}

int sl_study_write(sl_run *run, const sl_record *r, int dist, sl_err *err)
{
    if (sl_results_write(&run->res, r, dist, err)) return -1;
    run->rows_written++;
    if (run->max_rows > 0 && run->rows_written >= run->max_rows) run->stop = 1;
    return 0;
}

static void *generate_seed(const sl_dataset *ds, const sl_params *p, sl_dtype dt, uint64_t n,
                           uint64_t seed, sl_err *err)
{
    size_t bytes = (size_t)n * sl_dtype_size(dt);
    void *x = malloc(bytes ? bytes : 1);
    if (!x) {
        sl_err_set(err, "out of memory for %llu values", (unsigned long long)n);
        return NULL;
    }
    if (sl_dataset_generate(ds, dt, seed, n, p, 0, n, x, err)) {
        free(x);
        return NULL;
    }
    return x;
}

void *sl_exp_generate(const sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt,
                      uint64_t n, sl_err *err)
{
    return generate_seed(ds, p, dt, n, run->seed, err);
}

void *sl_exp_generate_ctx(const sl_run *run, const sl_rowctx *c, const sl_params *p, sl_err *err)
{
    return generate_seed(c->ds, p, c->dt, c->n, sl_exp_instance_seed(run, c->instance), err);
}

int sl_exp_pending(const sl_run *run, const sl_rowctx *c, sl_pending *todo, sl_err *err)
{
    todo->n = 0;
    if (sl_variant_count() > SL_STUDY_MAX_VARIANTS)
        return sl_err_set(err, "the variant registry has %zu variants; the study takes at most %d",
                          sl_variant_count(), SL_STUDY_MAX_VARIANTS);
    for (size_t i = 0; i < sl_variant_count(); i++)
        if (sl_exp_variant_on(run, sl_variant_at(i)) && !sl_study_has(run, c, sl_variant_at(i)->name))
            todo->v[todo->n++] = sl_variant_at(i);
    return 0;
}

int sl_exp_measure(sl_run *run, const sl_rowctx *c, const sl_pending *todo, const void *x,
                   const sl_launch *req, int reps_det, int reps_nondet, int dist, sl_err *err)
{
    if (!todo->n) return 0;
    sl_session *s = NULL;
    if (sl_session_open(&s, x, c->n, c->dt, run->backend, 0, NULL, 0, err)) return -1;
    int rc = 0;
    for (size_t i = 0; i < todo->n && !rc && !sl_run_stopped(run); i++) {
        const sl_variant *v = todo->v[i];
        int reps = v->determinism == SL_DET_NONDETERMINISTIC ? reps_nondet : reps_det;
        sl_row row;
        sl_err e = {{0}};
        int m = sl_measure(s, v, req, reps, run->on_gpu && c->n <= SL_TWIN_CHECK_MAX_N, &row, &e);
        if (m < 0) {
            rc = sl_err_set(err, "%s: %s on %s %s n=%llu (%s): %s", c->experiment, v->name,
                            c->ds ? c->ds->name : "-", sl_dtype_name(c->dt), (unsigned long long)c->n,
                            c->config, e.msg);
            break;
        }
        const char *note = m == 1 ? e.msg
                           : (row.twin_checked && !row.twin_match) ? "GPU result differs from its CPU twin" : "";
        sl_record r = sl_study_record(run, c, v, m == 1 ? "skipped" : "ok", &row, note);
        rc = sl_study_write(run, &r, m == 1 ? 0 : dist, err);
        sl_row_free(&row);
    }
    sl_session_close(s);
    return rc;
}

/* The progress line of step c: "EXPERIMENT DATASET [SWEEP=V] DTYPE n=2^K [CONFIG]". */
static void step_label(const sl_rowctx *c, char *what, size_t len)
{
    unsigned lg = 0;
    while (lg < 63 && ((uint64_t)1 << (lg + 1)) <= c->n) lg++;
    char nbuf[48];
    if (((uint64_t)1 << lg) == c->n) snprintf(nbuf, sizeof nbuf, "2^%u", lg);
    else snprintf(nbuf, sizeof nbuf, "%llu", (unsigned long long)c->n);
    if (c->sweep && !isnan(c->sweep_value))
        snprintf(what, len, "%s %s %s=%g %s n=%s", c->experiment, c->ds->name, c->sweep,
                 c->sweep_value, sl_dtype_name(c->dt), nbuf);
    else
        snprintf(what, len, "%s %s %s n=%s%s%s", c->experiment, c->ds->name,
                 sl_dtype_name(c->dt), nbuf, strcmp(c->config, "default") ? " " : "",
                 strcmp(c->config, "default") ? c->config : "");
}

/* Every pending variant gets a `skipped` row saying why the input is missing. */
static int write_not_generated(sl_run *run, const sl_rowctx *c, const sl_pending *todo,
                               const char *why, sl_err *err)
{
    char note[SL_ERRLEN + 32];
    snprintf(note, sizeof note, "input not generated: %s", why);
    sl_row row;
    sl_row_empty(&row, run->on_gpu ? "gpu" : "cpu", c->dt, c->n);
    int rc = 0;
    for (size_t i = 0; i < todo->n && !rc && !sl_run_stopped(run); i++) {
        sl_record r = sl_study_record(run, c, todo->v[i], "skipped", &row, note);
        rc = sl_study_write(run, &r, 0, err);
    }
    return rc;
}

/* One instance of a step (the instance is c->instance). */
static int step_instance(sl_run *run, const sl_rowctx *c, const sl_params *p, const sl_launch *req,
                         int reps_det, int reps_nondet, int dist, double work, sl_err *err)
{
    char what[200];
    step_label(c, what, sizeof what);
    if (sl_exp_instances(run) > 1) {
        size_t l = strlen(what);
        snprintf(what + l, sizeof what - l, " [instance %d/%d]", c->instance + 1, sl_exp_instances(run));
    }
    sl_progress_step(run->prog, what, work);
    sl_launch dflt;
    if (!req) {
        memset(&dflt, 0, sizeof dflt);
        dflt.order_seed = sl_exp_instance_seed(run, c->instance);
        req = &dflt;
    }
    sl_pending todo;
    int rc = sl_exp_pending(run, c, &todo, err);
    if (!rc && todo.n) {
        sl_err ge = {{0}};
        void *x = sl_exp_generate_ctx(run, c, p, &ge);
        if (!x) {
            rc = write_not_generated(run, c, &todo, ge.msg, err);
        } else {
            rc = sl_exp_measure(run, c, &todo, x, req, reps_det, reps_nondet, dist, err);
            free(x);
        }
    }
    sl_progress_done(run->prog);
    return rc;
}

int sl_exp_step(sl_run *run, const sl_rowctx *c, const sl_params *p, const sl_launch *req,
                int reps_det, int reps_nondet, int dist, double work, sl_err *err)
{
    for (int i = 0; i < sl_exp_instances(run); i++) {
        if (i > 0 && sl_run_stopped(run)) return 0;
        sl_rowctx ci = *c;
        ci.instance = i;
        if (step_instance(run, &ci, p, req, reps_det, reps_nondet, dist, work / sl_exp_instances(run), err))
            return -1;
    }
    return 0;
}

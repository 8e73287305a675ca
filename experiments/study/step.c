/* step.c: one step of an experiment: its input generated, the variants not yet done measured
 * through measure/ (which judges them), their rows written through results/ in registry order;
 * with several host threads, as a pipeline of up to SL_PIPE_DEPTH inputs in flight (see struct
 * sl_step_job). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sl_study.h"
#include "sl_verdict.h"

/* Largest n for which a GPU result is also checked against its CPU twin (the twin emulates
 * the GPU's order on one core: beyond this it costs more than the whole GPU sweep). */
#define SL_TWIN_CHECK_MAX_N ((uint64_t)1 << 22)

double sl_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sl_study_has(const sl_run *run, const sl_rowctx *c, const char *variant)
{
    return sl_results_has(&run->res, c, variant);
}

sl_record sl_study_record(const sl_run *run, const sl_rowctx *c, const sl_variant *v,
                          const char *status, const sl_row *row, const char *note)
{
    sl_record r = {.ctx = c, .variant = v->name, .family = v->family,
                   .det_class = sl_determinism_name(v->determinism), .status = status, .note = note,
                   .seed = sl_exp_instance_seed(run, c->instance), .row = row,
                   .instances = sl_exp_instances_of(run, c->experiment)};
    return r;
}

/* The writer itself (rows of the in-flight job go through here, after the rows before them). */
static int study_write_now(sl_run *run, const sl_record *r, int dist, sl_err *err)
{
    const double t0 = sl_now_s();
    int rc = sl_results_write(&run->res, r, dist, err);
    run->phases.write += sl_now_s() - t0;
    if (rc) return -1;
    run->rows_written++;
    if (strcmp(r->status, "skipped")) run->rows_measured++;
    else if (!run->first_skip[0] && r->note) snprintf(run->first_skip, sizeof run->first_skip, "%s", r->note);
    if (run->max_rows > 0 && run->rows_written >= run->max_rows) run->stop = 1;
    return 0;
}

int sl_study_write(sl_run *run, const sl_record *r, int dist, sl_err *err)
{
    if (sl_study_flush(run, err)) return -1;
    return study_write_now(run, r, dist, err);
}

/* The input of an operation of `inputs` arrays (dot: 2): the family's dataset of length
 * inputs * n, x its first n values and y the next n (a pair family's (x, y), SL_DS_PAIR). */
static void *generate_seed(sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt,
                           uint64_t n, uint64_t seed, int inputs, sl_err *err)
{
    const double t0 = sl_now_s();
    n *= (uint64_t)(inputs > 1 ? inputs : 1);
    size_t bytes = (size_t)n * sl_dtype_size(dt);
    void *x = sl_hostbuf_get(run, bytes);
    if (!x) {
        sl_err_set(err, "out of memory for %llu values", (unsigned long long)n);
        return NULL;
    }
    unsigned th = run->threads ? run->threads : 1;
    int rc = sl_dataset_generate_threads(ds, dt, seed, n, p, 0, n, x, th, err);
    run->phases.generate += sl_now_s() - t0;
    if (rc) {
        sl_hostbuf_put(run, x);
        return NULL;
    }
    return x;
}

void *sl_exp_generate(sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt,
                      uint64_t n, sl_err *err)
{
    return generate_seed(run, ds, p, dt, n, run->seed, (run->op ? run->op : sl_op_default())->inputs, err);
}

void *sl_exp_generate_seed(sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt, uint64_t n,
                           uint64_t seed, sl_err *err)
{
    return generate_seed(run, ds, p, dt, n, seed, 1, err);
}

void *sl_exp_generate_ctx(sl_run *run, const sl_rowctx *c, const sl_params *p, sl_err *err)
{
    return generate_seed(run, c->ds, p, c->dt, c->n, sl_exp_instance_seed(run, c->instance),
                         sl_rowctx_op(c)->inputs, err);
}

int sl_exp_reference(sl_run *run, const sl_rowctx *c, const void *x, sl_reference *ref, sl_err *err)
{
    const double t0 = sl_now_s();
    const void *const in[2] = {x, (const char *)x + c->n * sl_dtype_size(c->dt)};   /* dot: y */
    int rc = sl_rowctx_op(c)->reference(ref, in, c->n, c->dt, &run->params, run->threads ? run->threads : 1, err);
    run->phases.reference += sl_now_s() - t0;
    return rc;
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

/* ---- one input's measurement: a job, run on the calling thread or on the pipeline's -------
 * The pipeline holds up to SL_PIPE_DEPTH jobs in flight, each on its own thread, measured one
 * after another in the walk's order (run->pipe_turn; side by side on the CPU backend): while input k is measured (GPU runs, twin
 * checks, judging), the walk generates input k+1 and computes its reference, and hands it over
 * at once when the pipeline has room, else after writing the rows of the oldest job (always on
 * the walk's thread, in the order of todo). A slow generator then overlaps a slow measurement
 * and the other way round. Results never depend on the timing: a job reads only its own
 * fields (and the turn). */
struct sl_step_job {
    sl_rowctx c;
    sl_pending todo;
    void *x;                   /* owned when own_x */
    int own_x;
    sl_reference ref;          /* computed by the walk when ref_ok; else by the session */
    int ref_ok;
    const sl_reference *ref_borrowed;   /* the caller's reference of x (sl_exp_measure), or NULL */
    double run_s, judge_s, ref_s;       /* phase times of this job (sl_session_times) */
    sl_launch req;
    int reps[SL_STUDY_MAX_VARIANTS];
    int check_twin;
    sl_rep_budget budget;
    sl_backend backend;
    int on_gpu;                /* the GPU backend: jobs measure one after another (one device) */
    unsigned threads;
    sl_op_params params;       /* the run's operation parameters */
    double work;               /* progress units, counted once its rows are written */
    int dist;
    sl_row rows[SL_STUDY_MAX_VARIANTS];
    int status[SL_STUDY_MAX_VARIANTS];
    sl_err errs[SL_STUDY_MAX_VARIANTS];
    int open_rc;               /* the session could not be opened: open_err */
    sl_err open_err;
    int measured;              /* rows[], status[], errs[] are filled */
    pthread_t tid;
    sl_run *pipe;              /* pipelined: the run whose pipe_turn orders the measurements
                                  (the job thread touches nothing else of it) */
    uint64_t seq;              /* pipelined: this job's turn */
    int early_turn;            /* pipelined: the turn passes on once the GPU runs are done */
    int turn_passed;           /* the turn has passed on (job_pass_turn) */
};

/* The size of a job's input. */
static uint64_t job_bytes(const sl_step_job *j)
{
    return j->c.n * (uint64_t)sl_dtype_size(j->c.dt) * (uint64_t)sl_rowctx_op(&j->c)->inputs;
}

static void job_free(sl_run *run, sl_step_job *j)
{
    if (!j) return;
    if (j->measured)
        for (size_t i = 0; i < j->todo.n; i++) sl_row_free(&j->rows[i]);
    if (j->ref_ok) sl_reference_clear(&j->ref);
    if (j->own_x) sl_hostbuf_put(run, j->x);
    free(j);
}

static sl_step_job *job_new(sl_run *run, const sl_rowctx *c, const sl_pending *todo, const void *x,
                            const sl_launch *req, int reps_det, int reps_nondet, int dist, sl_err *err)
{
    sl_step_job *j = calloc(1, sizeof *j);
    if (!j) {
        sl_err_set(err, "out of memory");
        return NULL;
    }
    j->c = *c;
    j->todo = *todo;
    j->x = (void *)x;
    j->req = *req;
    for (size_t i = 0; i < todo->n; i++)
        j->reps[i] = todo->v[i]->determinism == SL_DET_NONDETERMINISTIC ? reps_nondet : reps_det;
    const uint64_t twin_max = run->twin_check_max_n ? run->twin_check_max_n : SL_TWIN_CHECK_MAX_N;
    j->check_twin = run->on_gpu && c->n <= twin_max;
    /* the determinism experiment, which counts distinct results, and the accuracy sweeps, which
     * judge results rather than time them, have budgets of their own; an accuracy job hands the
     * device to the next job once its GPU runs are done, before its twin checks (its times are
     * not the throughput experiments', which measure with the host otherwise idle) */
    const int accuracy = !strncmp(c->experiment, "accuracy-", 9);
    if (run->on_gpu)
        j->budget = !strcmp(c->experiment, "determinism") ? run->det_budget
                    : accuracy                             ? run->acc_budget
                                                           : run->sweep_budget;
    j->early_turn = run->on_gpu && accuracy;
    j->backend = run->backend;
    j->on_gpu = run->on_gpu;
    j->threads = run->threads ? run->threads : 1;
    j->params = run->params;
    j->dist = dist;
    return j;
}

/* SUMLAB_JOB_LOG=FILE (read once; unset: nothing is written): one CSV line per measured input (where the measuring thread's time goes:
 * opening the session (the upload; the reference when the walk did not compute it), the GPU
 * runs, waiting for the twins beside them, the twin checks, judging, closing). Diagnostics only:
 * the file is appended to by the job in its turn, so lines follow the walk. */
static pthread_mutex_t job_log_mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *job_log;
static int job_log_tried;
static double job_log_t0;

typedef struct { double open_s, gpu_s, side_s, check_s, judge_s, close_s; } job_times;

static void job_log_line(const sl_step_job *j, double t_start, const job_times *t)
{
    pthread_mutex_lock(&job_log_mu);
    if (!job_log_tried) {
        job_log_tried = 1;
        const char *path = getenv("SUMLAB_JOB_LOG");
        if (path && *path && (job_log = fopen(path, "a")) != NULL) {
            job_log_t0 = t_start;
            fprintf(job_log, "start_s,experiment,dataset,dtype,n,variants,open_s,gpu_s,side_s,"
                             "check_s,judge_s,close_s,total_s\n");
        }
    }
    if (job_log) {
        fprintf(job_log, "%.3f,%s,%s,%s,%llu,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
                t_start - job_log_t0, j->c.experiment, j->c.ds ? j->c.ds->name : "-",
                sl_dtype_name(j->c.dt), (unsigned long long)j->c.n, j->todo.n, t->open_s,
                t->gpu_s, t->side_s, t->check_s, t->judge_s, t->close_s, sl_now_s() - t_start);
        fflush(job_log);
    }
    pthread_mutex_unlock(&job_log_mu);
}

/* The next job's turn on the device (once per job): at the end of the measurement, or with
 * early_turn as soon as the GPU runs are done (sl_session_on_gpu_done). */
static void job_pass_turn(void *arg)
{
    sl_step_job *j = arg;
    sl_run *run = j->pipe;
    if (!run || j->turn_passed) return;
    j->turn_passed = 1;
    pthread_mutex_lock(&run->pipe_mu);
    run->pipe_turn++;
    pthread_cond_broadcast(&run->pipe_cv);
    pthread_mutex_unlock(&run->pipe_mu);
}

static void job_measure(sl_step_job *j)
{
    sl_session *s = NULL;
    const sl_reference *ref = j->ref_ok ? &j->ref : j->ref_borrowed;
    sl_session_opts o = {j->backend, 0, j->threads, ref, 1, j->c.op, &j->params,
                         sl_rowctx_op(&j->c)->inputs == 2   /* dot: y follows x */
                             ? (const char *)j->x + j->c.n * sl_dtype_size(j->c.dt) : NULL};
    const double t0 = sl_now_s();
    int orc = sl_session_open_opts(&s, j->x, j->c.n, j->c.dt, &o, NULL, 0, &j->open_err);
    const double t1 = sl_now_s();
    if (!ref) j->ref_s = t1 - t0;           /* the session computed the reference */
    job_times jt = {t1 - t0, 0, 0, 0, 0, 0};
    if (orc) {
        j->open_rc = -1;
        job_log_line(j, t0, &jt);
        return;
    }
    if (j->early_turn && j->pipe) sl_session_on_gpu_done(s, job_pass_turn, j);
    /* the rows are filled whatever the return (out of memory shows in their status) */
    sl_measure_list(s, j->todo.v, j->todo.n, &j->req, j->reps, j->check_twin, &j->budget,
                    j->rows, j->status, j->errs);
    sl_session_times(s, &j->run_s, &j->judge_s);
    j->measured = 1;
    sl_session_phases(s, &jt.gpu_s, &jt.side_s, &jt.check_s);
    jt.judge_s = j->judge_s;
    const double t2 = sl_now_s();
    sl_session_close(s);
    jt.close_s = sl_now_s() - t2;
    job_log_line(j, t0, &jt);
}

/* A pipelined job on the GPU backend measures in its turn: the jobs before it have run on the
 * device (in the order of the walk; an accuracy job passes the turn on before its twin checks,
 * so its input and the next one's may be on the device together). On the CPU backend jobs
 * measure side by side (the twins of two inputs fill the cores where one input's last, longest
 * twin would leave them idle); their rows are still written in the walk's order. */
static void *job_thread(void *arg)
{
    sl_step_job *j = arg;
    sl_run *run = j->pipe;
    pthread_mutex_lock(&run->pipe_mu);
    while (j->on_gpu && run->pipe_turn != j->seq) pthread_cond_wait(&run->pipe_cv, &run->pipe_mu);
    pthread_mutex_unlock(&run->pipe_mu);
    job_measure(j);
    job_pass_turn(j);
    return NULL;
}

/* The rows of a measured job, in the order of todo, up to SUMLAB_MAX_ROWS (a signal does not
 * drop rows already measured). */
static int job_write(sl_run *run, sl_step_job *j, sl_err *err)
{
    const sl_rowctx *c = &j->c;
    if (j->open_rc) return sl_err_set(err, "%s", j->open_err.msg);
    for (size_t i = 0; i < j->todo.n && !run->stop; i++) {
        const sl_variant *v = j->todo.v[i];
        const sl_row *row = &j->rows[i];
        int m = j->status[i];
        if (m < 0)
            return sl_err_set(err, "%s: %s on %s %s n=%llu (%s): %s", c->experiment, v->name,
                              c->ds ? c->ds->name : "-", sl_dtype_name(c->dt),
                              (unsigned long long)c->n, c->config, j->errs[i].msg);
        char capped[224];
        const char *note = m == 1 ? j->errs[i].msg
                           : (row->twin_checked && !row->twin_match) ? "GPU result differs from its CPU twin" : "";
        if (m == 0 && row->reps < row->reps_asked && !strcmp(row->backend, "cpu") &&
            v->determinism != SL_DET_NONDETERMINISTIC) {
            snprintf(capped, sizeof capped, "deterministic twin run once (not %d times): a pure "
                     "function of the input and the launch configuration", row->reps_asked);
            note = capped;
        } else if (m == 0 && row->reps < row->reps_asked) {
            const int nd = v->determinism == SL_DET_NONDETERMINISTIC;
            snprintf(capped, sizeof capped, "repetitions capped at %d of %d by the %.3g ms "
                     "device-time budget of a %s row%s (%.3g ms each)", row->reps, row->reps_asked,
                     nd ? j->budget.nondet_ms : j->budget.det_ms,
                     nd ? "nondeterministic" : "deterministic", strcmp(j->c.experiment, "determinism") ? "" : " in the determinism experiment",
                     row->time_ms_median);
            note = capped;
        }
        /* a row past the aggregates' caps says so (sl_row_capped_note), on stderr when its distinct
         * count is a lower bound */
        char agg[448], both[704];
        if (m == 0 && *sl_row_capped_note(row, agg, sizeof agg)) {
            snprintf(both, sizeof both, "%s%s%s", note, *note ? "; " : "", agg);
            note = both;
            if (row->capped)
                fprintf(stderr, "sumlab run: %s %s %s n=%llu %s: %s: %s\n", c->experiment, c->ds ? c->ds->name : "-",
                        sl_dtype_name(c->dt), (unsigned long long)c->n, c->config, v->name, agg);
        }
        sl_record r = sl_study_record(run, c, v, m == 1 ? "skipped" : "ok", row, note);
        /* the self-checks of a measured row (sl_verdict.h), in its `check` column */
        sl_record_extra x;
        sl_record_extra_init(&x);
        const sl_reference *ref = j->ref_ok ? &j->ref : j->ref_borrowed;
        if (m == 0 && ref && row->judged) {
            sl_verdict_facts f;
            sl_verdict vd;
            sl_verdict_facts_of_row(ref, v, row, &f);
            x.check = sl_verdict_decide(ref, &f, &vd) ? "FAILED" : "ok";
            for (int k = 0; k < vd.failed; k++)
                fprintf(stderr, "sumlab run: %s %s %s n=%llu %s: %s\n", c->experiment, c->ds ? c->ds->name : "-",
                        sl_dtype_name(c->dt), (unsigned long long)c->n, c->config, vd.msg[k]);
            r.x = &x;
        }
        if (study_write_now(run, &r, m == 1 ? 0 : j->dist, err)) return -1;
    }
    return 0;
}

/* A finished job's phase times join the run's (on the walk's thread). */
static void job_account(sl_run *run, const sl_step_job *j)
{
    run->phases.measure += j->run_s;
    run->phases.judge += j->judge_s;
    run->phases.reference += j->ref_s;
}

/* A measured job: its times counted, its rows written, its progress shown; freed. */
static int job_finish(sl_run *run, sl_step_job *j, sl_err *err)
{
    job_account(run, j);
    int rc = job_write(run, j, err);
    sl_progress_add(run->prog, j->work);
    job_free(run, j);
    return rc;
}

/* The oldest job in flight: waited for, its rows written, freed. */
static int flush_oldest(sl_run *run, sl_err *err)
{
    sl_step_job *j = run->inflight[0];
    for (int i = 1; i < run->n_inflight; i++) run->inflight[i - 1] = run->inflight[i];
    run->inflight[--run->n_inflight] = NULL;
    const double t0 = sl_now_s();
    int jr = pthread_join(j->tid, NULL);
    run->phases.wait += sl_now_s() - t0;
    if (jr != 0)   /* the job may still be running: leak it rather than free what it uses */
        return sl_err_set(err, "%s: cannot join the measuring thread", j->c.experiment);
    return job_finish(run, j, err);
}

int sl_study_flush(sl_run *run, sl_err *err)
{
    int rc = 0;
    while (run->n_inflight > 0) {   /* every job is joined, also after a failure */
        sl_err later = {{0}};       /* err keeps the first failure's message */
        if (flush_oldest(run, rc ? &later : err)) rc = -1;
    }
    return rc;
}

void sl_study_pipe_end(sl_run *run)
{
    if (run->n_inflight > 0 || !run->pipe_ready) return;   /* jobs still use the turn */
    pthread_cond_destroy(&run->pipe_cv);
    pthread_mutex_destroy(&run->pipe_mu);
    run->pipe_ready = 0;
}

/* Measures and writes job j now (on this thread), or hands it to a thread of the pipeline
 * (threads > 1 and `pipelined`): the oldest jobs are written first while the pipeline is full
 * (SL_PIPE_DEPTH inputs, or SL_PIPE_MAX_BYTES beyond the oldest). Takes j over. */
static int job_run(sl_run *run, sl_step_job *j, int pipelined, sl_err *err)
{
    const int pipe = pipelined && j->threads > 1;
    int rc = 0;
    if (pipe) {
        for (;;) {
            uint64_t queued = job_bytes(j);
            for (int i = 1; i < run->n_inflight; i++) queued += job_bytes(run->inflight[i]);
            if (run->n_inflight == 0 || (run->n_inflight < SL_PIPE_DEPTH && queued <= SL_PIPE_MAX_BYTES))
                break;
            if ((rc = flush_oldest(run, err)) != 0) break;
        }
    } else {
        rc = sl_study_flush(run, err);
    }
    if (rc) {
        job_free(run, j);
        return -1;
    }
    if (sl_run_stopped(run)) {
        job_free(run, j);
        return 0;
    }
    if (pipe) {
        if (!run->pipe_ready) {
            run->pipe_ready = pthread_mutex_init(&run->pipe_mu, NULL) == 0 &&
                              pthread_cond_init(&run->pipe_cv, NULL) == 0;
            run->pipe_seq = run->pipe_turn = 0;
        }
        if (run->pipe_ready) {
            j->pipe = run;
            j->seq = run->pipe_seq;
            if (pthread_create(&j->tid, NULL, job_thread, j) == 0) {
                run->pipe_seq++;
                run->inflight[run->n_inflight++] = j;
                return 0;
            }
        }
        /* no thread: measure here, after the jobs in flight (outside the turns) */
        j->pipe = NULL;
        if (sl_study_flush(run, err)) {
            job_free(run, j);
            return -1;
        }
    }
    job_measure(j);
    return job_finish(run, j, err);
}

int sl_exp_measure(sl_run *run, const sl_rowctx *c, const sl_pending *todo, const void *x,
                   const sl_reference *ref, const sl_launch *req, int reps_det, int reps_nondet,
                   int dist, sl_err *err)
{
    if (sl_study_flush(run, err)) return -1;
    if (!todo->n) return 0;
    sl_step_job *j = job_new(run, c, todo, x, req, reps_det, reps_nondet, dist, err);
    if (!j) return -1;
    j->ref_borrowed = ref;
    return job_run(run, j, 0, err);
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
    const int ni = sl_exp_instances_of(run, c->experiment);
    if (ni > 1) {
        size_t l = strlen(what);
        snprintf(what + l, sizeof what - l, " [instance %d/%d]", c->instance + 1, ni);
    }
    sl_progress_step(run->prog, what, 0);
    sl_launch dflt;
    if (!req) {
        memset(&dflt, 0, sizeof dflt);
        dflt.order_seed = sl_exp_instance_seed(run, c->instance);
        req = &dflt;
    }
    sl_pending todo;
    if (sl_exp_pending(run, c, &todo, err)) return -1;
    if (!todo.n) {             /* done before (--resume): no time to learn from */
        sl_progress_skip(run->prog, work);
        return 0;
    }
    /* host work of this input, while the previous one is measured */
    sl_err ge = {{0}};
    void *x = sl_exp_generate_ctx(run, c, p, &ge);
    if (!x) {
        int rc = sl_study_flush(run, err);
        if (!rc) rc = write_not_generated(run, c, &todo, ge.msg, err);
        sl_progress_add(run->prog, work);
        return rc;
    }
    sl_step_job *j = job_new(run, c, &todo, x, req, reps_det, reps_nondet, dist, err);
    if (!j) {
        sl_hostbuf_put(run, x);
        return -1;
    }
    j->own_x = 1;
    j->work = work;
    j->ref_ok = 1;
    if (sl_exp_reference(run, c, x, &j->ref, err)) {
        job_free(run, j);
        return -1;
    }
    return job_run(run, j, 1, err);
}

int sl_exp_step(sl_run *run, const sl_rowctx *c, const sl_params *p, const sl_launch *req,
                int reps_det, int reps_nondet, int dist, double work, sl_err *err)
{
    const int ni = sl_exp_instances_of(run, c->experiment);
    for (int i = 0; i < ni; i++) {
        if (i > 0 && sl_run_stopped(run)) return 0;
        sl_rowctx ci = *c;
        ci.instance = i;
        if (step_instance(run, &ci, p, req, reps_det, reps_nondet, dist, work / ni, err))
            return -1;
    }
    return 0;
}

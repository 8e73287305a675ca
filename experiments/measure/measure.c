/* measure.c: one variant summing one input R times on one backend (sl_measure.h), then judged
 * (judge.c); and the device's streaming-read ceiling. Every result is kept as its bit pattern. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sl_measure_impl.h"
#include "sl_rng.h"

/* The commit-order seed of repetition rep of a nondeterministic twin. */
static uint64_t rep_seed(uint64_t seed, int rep)
{
    return sl_mix64((sl_mix64(seed + SL_GOLDEN) ^ (uint64_t)rep) + SL_GOLDEN);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int is_reference_row(const sl_variant *v)
{
    return !v->cpu && !v->gpu && v->bound == SL_BOUND_CORRECTLY_ROUNDED;
}

void sl_row_empty(sl_row *row, const char *backend, sl_dtype dt, uint64_t n)
{
    memset(row, 0, sizeof *row);
    row->backend = backend;
    row->dt = dt;
    row->n = n;
    row->result = row->min_result = row->max_result = row->spread_ulps = NAN;
    row->ulps_median = row->ulps_max = row->bound = row->bound_rel = row->bound_ratio = NAN;
    row->exact = row->cond = row->abssum = NAN;
    row->time_ms_median = row->time_ms_min = row->time_ms_max = row->gbps = NAN;
    row->err.abs_err = row->err.rel_err = row->err.ulps = NAN;
}

/* Why v cannot run on this session (1, err set), or 0. */
static int cannot_run(const sl_session *s, const sl_variant *v, int reference, int use_gpu, sl_err *err)
{
    if (!(v->dtypes & SL_DTYPE_MASK(s->dt))) {
        sl_err_set(err, "does not take %s input", sl_dtype_name(s->dt));
        return 1;
    }
    if (v->max_n && s->n > v->max_n) {
        sl_err_set(err, "accepts at most n = %llu (input has n = %llu)",
                   (unsigned long long)v->max_n, (unsigned long long)s->n);
        return 1;
    }
    if (!reference && !use_gpu && !v->cpu) {
        sl_err_set(err, "no CPU twin (it runs on the GPU only)%s",
                   s->on_gpu ? "" : " and the CPU backend is in use");
        return 1;
    }
    return 0;
}

int sl_session_can_run(const sl_session *s, const sl_variant *v, sl_err *err)
{
    const int reference = is_reference_row(v);
    return !cannot_run(s, v, reference, !reference && s->on_gpu && v->gpu, err);
}

/* R runs on the GPU after one warm-up run, not counted. */
static int run_gpu(sl_session *s, const sl_variant *v, const sl_launch *want, sl_row *row,
                   double *times, sl_err *err)
{
    sl_launch warm = *want;
    double wres;
    row->backend = "gpu";
    if (sl_gpu_ctx_run(s->ctx, v, &warm, 1, SL_GPU_FLUSH_L2, &wres, NULL, err)) return -1;
    row->cfg = *want;
    return sl_gpu_ctx_run(s->ctx, v, &row->cfg, row->reps, SL_GPU_FLUSH_L2, row->results, times, err);
}

/* R runs of the CPU twin, each timed by the wall clock. */
static int run_cpu(sl_session *s, const sl_variant *v, const sl_launch *want, sl_row *row,
                   double *times, sl_err *err)
{
    row->backend = "cpu";
    row->cfg = *want;
    if (row->cfg.addr_mod == 0)
        row->cfg.addr_mod = (uint32_t)((s->offset * sl_dtype_size(s->dt)) % 256u);
    sl_variant_resolve(v, &row->cfg, s->n, s->dt);
    const int nondet = v->determinism == SL_DET_NONDETERMINISTIC;
    for (int r = 0; r < row->reps; r++) {
        sl_launch c = row->cfg;
        if (nondet) c.order_seed = rep_seed(want->order_seed, r);
        double t0 = now_ms();
        if (sl_variant_cpu(v, s->x, s->n, s->dt, &c, &row->results[r], err)) return -1;
        times[r] = now_ms() - t0;
    }
    if (nondet) row->cfg.order_seed = rep_seed(want->order_seed, 0);
    return 0;
}

/* The twin as oracle: a deterministic GPU result must equal its twin bit for bit. */
static int check_with_twin(sl_session *s, const sl_variant *v, sl_row *row, sl_err *err)
{
    double tw;
    if (sl_variant_cpu(v, s->x, s->n, s->dt, &row->cfg, &tw, err)) return -1;
    row->twin_checked = 1;
    row->twin_match = 1;
    for (int r = 0; r < row->reps; r++)
        if (sl_canon_bits(row->results[r]) != sl_canon_bits(tw)) row->twin_match = 0;
    return 0;
}

int sl_measure(sl_session *s, const sl_variant *v, const sl_launch *req, int reps,
               int check_twin, sl_row *row, sl_err *err)
{
    if (!s || !v) {
        memset(row, 0, sizeof *row);
        return sl_err_set(err, "sl_measure: NULL argument");
    }
    sl_row_empty(row, s->on_gpu ? "gpu" : "cpu", s->dt, s->n);
    row->variant = v;
    if (reps < 1) return sl_err_set(err, "reps must be at least 1 (got %d)", reps);
    sl_launch want;
    memset(&want, 0, sizeof want);
    if (req) want = *req;

    const int reference = is_reference_row(v);
    const int use_gpu = !reference && s->on_gpu && v->gpu;
    if (cannot_run(s, v, reference, use_gpu, err)) {
        row->exact = s->ref.rounded;
        row->cond = s->ref.cond;
        row->abssum = s->ref.abssum;
        row->have_exact = 1;
        return 1;
    }
    row->have_run = row->have_cfg = 1;
    row->reps = reference ? 1 : reps;
    row->results = malloc((size_t)row->reps * sizeof *row->results);
    double *times = malloc((size_t)row->reps * sizeof *times);
    if (!row->results || !times) {
        free(times);
        sl_row_free(row);
        return sl_err_set(err, "out of memory");
    }
    int rc = 0;
    if (reference) {
        row->backend = "reference";
        row->results[0] = s->ref.rounded;
        row->cfg = want;
        free(times);
        times = NULL;
    } else {
        rc = use_gpu ? run_gpu(s, v, &want, row, times, err) : run_cpu(s, v, &want, row, times, err);
        if (!rc && use_gpu && check_twin && v->cpu && v->determinism != SL_DET_NONDETERMINISTIC)
            rc = check_with_twin(s, v, row, err);
    }
    if (!rc && sl_judge_row(&s->ref, v, row, times)) rc = sl_err_set(err, "out of memory");
    free(times);
    if (rc) sl_row_free(row);
    return rc;
}

int sl_measure_read_ceiling(const void *x, uint64_t n, sl_dtype dt, int reps, sl_row *row,
                            sl_err *err)
{
    sl_row_empty(row, "gpu", dt, n);
    if (reps < 1) return sl_err_set(err, "reps must be at least 1 (got %d)", reps);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t) return sl_err_set(err, "out of memory");
    sl_gpu_ctx *ctx = NULL;
    if (sl_gpu_ctx_create(&ctx, x, n, dt, 0, err) ||
        sl_gpu_ctx_read_ceiling(ctx, reps, SL_GPU_FLUSH_L2, t, err)) {
        if (ctx) sl_gpu_ctx_destroy(ctx);
        free(t);
        return -1;
    }
    sl_gpu_ctx_destroy(ctx);
    row->have_run = 1;
    row->reps = reps;
    row->time_ms_median = sl_median(t, (size_t)reps);
    row->time_ms_min = t[0];
    row->time_ms_max = t[reps - 1];
    row->gbps = (double)n * (double)sl_dtype_size(dt) / (row->time_ms_median * 1e6);
    free(t);
    return 0;
}

void sl_row_free(sl_row *row)
{
    if (!row) return;
    free(row->results);
    free(row->values);
    row->results = NULL;
    row->values = NULL;
    row->nvalues = 0;
}

/* measure.c: one variant summing one input R times on one backend (sl_measure.h), then judged
 * (judge.c); and the device's streaming-read ceiling. Repetitions run in chunks, each folded
 * into the row's running aggregate (stats.c): every distinct result is kept as its bit pattern,
 * and memory stays bounded whatever R. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sl_measure_impl.h"
#include "sumlab/pool.h"
#include "sumlab/rng.h"

/* Results of a list below which it is judged on one thread. */
#define SL_JUDGE_THREADS_MIN_RESULTS 1024

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

static int is_reference_row(const sl_variant *v) { return sl_op_is_exact(v); }

void sl_row_empty(sl_row *row, const char *backend, sl_dtype dt, uint64_t n)
{
    memset(row, 0, sizeof *row);
    row->backend = backend;
    row->dt = dt;
    row->n = n;
    row->result = row->min_result = row->max_result = row->spread_ulps = NAN;
    row->ulps_median = row->ulps_max = row->bound = row->bound_rel = row->bound_ratio = NAN;
    row->abs_err_max = NAN;
    row->exact = row->cond = row->abssum = NAN;
    row->time_ms_median = row->time_ms_min = row->time_ms_max = row->gbps = NAN;
    row->err.abs_err = row->err.rel_err = row->err.ulps = NAN;
}

/* Why v cannot run on this session (1, err set), or 0. */
static int cannot_run(const sl_session *s, const sl_variant *v, int reference, int use_gpu, sl_err *err)
{
    if (sl_op_of(v) != s->op) {
        sl_err_set(err, "computes %s, not %s", v->op ? v->op : "no registered operation", s->op->name);
        return 1;
    }
    if (!(v->dtypes & SL_DTYPE_MASK(s->dt))) {
        sl_err_set(err, "does not take %s input", sl_dtype_name(s->dt));
        return 1;
    }
    if (v->max_n && s->n > v->max_n) {
        sl_err_set(err, "accepts at most n = %llu (input has n = %llu)",
                   (unsigned long long)v->max_n, (unsigned long long)s->n);
        return 1;
    }
    if (!reference && !use_gpu && !sl_variant_has_cpu(v)) {
        sl_err_set(err, "no CPU twin (it runs on the GPU only)%s",
                   s->on_gpu ? "" : " and the CPU backend is in use");
        return 1;
    }
    return 0;
}

int sl_session_can_run(const sl_session *s, const sl_variant *v, sl_err *err)
{
    const int reference = is_reference_row(v);
    return !cannot_run(s, v, reference, !reference && s->on_gpu && sl_variant_has_gpu(v), err);
}

int sl_budget_reps(double budget_ms, double first_ms, int reps, int min_reps)
{
    int fit = reps;
    if (budget_ms > 0 && first_ms > 0) fit = (int)fmin(budget_ms / first_ms, (double)reps);
    if (fit < min_reps) fit = min_reps;
    if (fit > reps) fit = reps;
    return fit < 1 ? 1 : fit;
}

/* ---- a list of variants: setup, the GPU runs in order, the CPU tasks on the threads -------- */
typedef struct {
    const sl_variant *v;
    sl_row *row;
    int *status;
    sl_err *err;
    int reference, use_gpu, nondet;
    int cpu_runs;              /* 1: the twin gives the R results (CPU backend) */
    int check;                 /* 1: one twin run compared with the GPU's results */
    sl_launch want;
    sl_rep_agg agg;            /* the repetitions folded so far */
    double *cres, *ctim;       /* one chunk's results and times (at most SL_MEASURE_CHUNK) */
    int next;                  /* repetitions folded so far */
    int base;                  /* the first repetition of the chunk running (CPU) */
    double *keep;              /* NULL, or the caller's array of every result (sl_measure_results) */
    double twin;               /* the twin's result (check) */
    int failed, fail_rep;      /* a CPU task failed: the first failing repetition (-1: check) */
    sl_err fail_err;           /* and its error */
} m_item;

/* The chunk's first count results and times folded into the item's aggregate, in order. */
static void fold(m_item *it, int count)
{
    for (int r = 0; r < count; r++) {
        if (it->keep) it->keep[it->next + r] = it->cres[r];
        sl_rep_agg_add(&it->agg, it->cres[r], it->ctim[r]);
    }
    it->next += count;
}

/* count timed GPU runs of the item's variant on cfg, in chunks of at most SL_MEASURE_CHUNK,
 * each folded as it comes back. */
static int gpu_runs(sl_session *s, m_item *it, sl_launch *cfg, int count, sl_err *err)
{
    while (count > 0) {
        const int c = count < SL_MEASURE_CHUNK ? count : SL_MEASURE_CHUNK;
        if (sl_gpu_ctx_run(s->ctx, it->v, cfg, c, SL_GPU_FLUSH_L2, it->cres, it->ctim, err)) return -1;
        fold(it, c);
        count -= c;
    }
    return 0;
}

/* The (variant, format, launch request) triples warmed up in this process (sl_rep_budget.
 * warm_once): at most one entry per variant, format and configuration a run asks for. */
typedef struct {
    const sl_variant *v;
    sl_dtype dt;
    uint32_t block, grid, items, accs, width, ddof;
} warm_key;
static pthread_mutex_t warm_mu = PTHREAD_MUTEX_INITIALIZER;
static warm_key *warm_keys;
static size_t warm_n, warm_cap;

static warm_key warm_key_of(const sl_variant *v, sl_dtype dt, const sl_launch *c)
{
    return (warm_key){v, dt, c->block, c->grid, c->items, c->accs, c->width, c->ddof};
}

static int warm_eq(const warm_key *a, const warm_key *b)
{
    return a->v == b->v && a->dt == b->dt && a->block == b->block && a->grid == b->grid &&
           a->items == b->items && a->accs == b->accs && a->width == b->width && a->ddof == b->ddof;
}

static int warm_seen(const sl_variant *v, sl_dtype dt, const sl_launch *c)
{
    const warm_key k = warm_key_of(v, dt, c);
    int seen = 0;
    pthread_mutex_lock(&warm_mu);
    for (size_t i = 0; i < warm_n && !seen; i++) seen = warm_eq(&warm_keys[i], &k);
    pthread_mutex_unlock(&warm_mu);
    return seen;
}

/* 0, or -1 when out of memory. */
static int warm_add(const sl_variant *v, sl_dtype dt, const sl_launch *c)
{
    const warm_key k = warm_key_of(v, dt, c);
    int rc = 0;
    pthread_mutex_lock(&warm_mu);
    int seen = 0;
    for (size_t i = 0; i < warm_n && !seen; i++) seen = warm_eq(&warm_keys[i], &k);
    if (!seen && warm_n == warm_cap) {
        const size_t cap = warm_cap ? 2 * warm_cap : 64;
        warm_key *p = realloc(warm_keys, cap * sizeof *p);
        if (p) {
            warm_keys = p;
            warm_cap = cap;
        } else {
            rc = -1;
        }
    }
    if (!seen && !rc) warm_keys[warm_n++] = k;
    pthread_mutex_unlock(&warm_mu);
    return rc;
}

/* R runs on the GPU after a warm-up (sl_measure_list's comment: a whole run, or two on a prefix
 * and the first timed run kept when it is slow; none with warm_once when the variant ran before
 * at this format and request, see warm_seen). With a budget, the first timed run says how
 * many more fit in it (at least min_reps in all); row->reps becomes that count. */
static int run_gpu(sl_session *s, m_item *it, double budget_ms, int min_reps, int warm_once,
                   sl_err *err)
{
    const sl_variant *v = it->v;
    sl_row *row = it->row;
    sl_launch warm = it->want;
    double wres[2];
    row->backend = "gpu";
    row->cfg = it->want;
    int done = 0;              /* the first timed run is folded already */
    double first_ms = NAN;
    const int warmed = warm_once && warm_seen(v, s->dt, &it->want);
    if (warmed) {
        /* ran before in this process at this format and request: the first run is timed */
    } else if (s->n > SL_WARM_PREFIX_N) {
        if (sl_gpu_ctx_run_n(s->ctx, v, SL_WARM_PREFIX_N, &warm, 2, SL_GPU_FLUSH_L2, wres, NULL, err))
            return -1;
        if (sl_gpu_ctx_run(s->ctx, v, &row->cfg, 1, SL_GPU_FLUSH_L2, it->cres, it->ctim, err)) return -1;
        first_ms = it->ctim[0];
        done = first_ms > SL_WARM_FULL_MS;   /* else that run was the warm-up */
        if (done) fold(it, 1);
    } else if (sl_gpu_ctx_run(s->ctx, v, &warm, 1, SL_GPU_FLUSH_L2, wres, NULL, err)) {
        return -1;
    }
    if (warm_once && !warmed && warm_add(v, s->dt, &it->want)) return sl_err_set(err, "out of memory");
    if (!done) {
        if (!(budget_ms > 0) || row->reps <= min_reps) return gpu_runs(s, it, &row->cfg, row->reps, err);
        if (gpu_runs(s, it, &row->cfg, 1, err)) return -1;
        first_ms = it->ctim[0];
    }
    const int fit = sl_budget_reps(budget_ms, first_ms, row->reps, min_reps);
    row->reps = fit;
    sl_launch more = row->cfg;
    if (fit == 1) return 0;
    return gpu_runs(s, it, &more, fit - 1, err);
}

/* The CPU tasks of a list, O(variants) whatever the repetitions: span j covers the global task
 * indices [first, first + count) of one variant, each its repetition it->base + (index - first)
 * of the chunk running, or, for a check span (count 1), the twin check. A failing task's error is
 * kept per variant (the first failing repetition's), so no task carries an error text of its
 * own. */
typedef struct {
    m_item *it;
    size_t first, count;
    int check;
} m_span;

typedef struct {
    sl_session *s;
    m_item *items;
    m_span *spans;
    size_t nspans;
    pthread_mutex_t *mu;       /* guards the items' fail_rep/fail_err */
} m_list;

/* The span holding global task index i (spans in increasing first). */
static m_span *span_of(const m_list *L, size_t i)
{
    size_t lo = 0, hi = L->nspans;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->spans[mid].first <= i) lo = mid;
        else hi = mid;
    }
    return &L->spans[lo];
}

static void task_failed(m_list *L, m_item *it, int rep, const sl_err *err)
{
    pthread_mutex_lock(L->mu);
    if (!it->failed || rep < it->fail_rep) {
        it->failed = 1;
        it->fail_rep = rep;
        it->fail_err = *err;
    }
    pthread_mutex_unlock(L->mu);
}

/* The twin of v on the session's inputs (one array, or x and y of a two-input operation). */
static int session_twin(const sl_session *s, const sl_variant *v, const sl_launch *cfg,
                        double *result, sl_err *err)
{
    const void *const in[2] = {s->x, s->y};
    return sl_variant_cpu_in(v, in, s->n, s->dt, cfg, result, err);
}

static void cpu_task(void *ctx, size_t i)
{
    m_list *L = ctx;
    m_span *sp = span_of(L, i);
    m_item *it = sp->it;
    sl_session *s = L->s;
    sl_err err;
    if (sp->check) {           /* the twin as oracle, on the configuration the GPU ran */
        if (session_twin(s, it->v, &it->row->cfg, &it->twin, &err))
            task_failed(L, it, -1, &err);
        return;
    }
    const size_t k = i - sp->first;
    const int rep = it->base + (int)k;
    sl_launch c = it->row->cfg;
    if (it->nondet) c.order_seed = rep_seed(it->want.order_seed, rep);
    double t0 = now_ms();
    if (session_twin(s, it->v, &c, &it->cres[k], &err))
        task_failed(L, it, rep, &err);
    it->ctim[k] = now_ms() - t0;
}

/* The twins' repetitions of a list, on their own thread (sl_measure_list): in rounds of at most
 * SL_MEASURE_CHUNK repetitions of each variant, spread over the threads, each round folded into
 * the variants' aggregates in repetition order (the same bits for every thread count). */
typedef struct {
    m_list *L;
    size_t nitems;
    unsigned threads;
    int rc;
} side_job;

static void *side_run(void *arg)
{
    side_job *j = arg;
    m_list *L = j->L;
    for (;;) {
        size_t k = 0, ns = 0;
        for (size_t i = 0; i < j->nitems; i++) {
            m_item *it = &L->items[i];
            if (!it->cpu_runs || it->failed || it->next >= it->row->reps) continue;
            const int left = it->row->reps - it->next;
            const int c = left < SL_MEASURE_CHUNK ? left : SL_MEASURE_CHUNK;
            it->base = it->next;
            L->spans[ns++] = (m_span){it, k, (size_t)c, 0};
            k += (size_t)c;
        }
        if (!ns) break;
        L->nspans = ns;
        if (sl_parallel_for(k, j->threads, cpu_task, L)) {
            j->rc = -1;
            break;
        }
        for (size_t r = 0; r < ns; r++) fold(L->spans[r].it, (int)L->spans[r].count);
    }
    return NULL;
}

static void judge_task(void *ctx, size_t i)
{
    m_list *L = ctx;
    m_item *it = &L->items[i];
    if (*it->status != 0) return;
    if (sl_judge_row_agg(L->s->ref, it->v, it->row, &it->agg)) {
        *it->status = -1;
        sl_err_set(it->err, "out of memory");
    }
}

/* Status of a variant that cannot run: its row holds the reference figures. */
static void cannot_run_row(const sl_session *s, sl_row *row)
{
    row->exact = s->ref->rounded;
    row->cond = s->ref->cond;
    row->abssum = s->ref->abssum;
    row->have_exact = 1;
}

/* Setup of item it (status -1 / 1 when it is finished here). */
static void item_setup(sl_session *s, m_item *it, const sl_launch *req, int reps, int check_twin)
{
    sl_rep_agg_init(&it->agg, s->ref, s->dt);
    const sl_variant *v = it->v;
    sl_row *row = it->row;
    *it->status = 0;
    sl_row_empty(row, s->on_gpu ? "gpu" : "cpu", s->dt, s->n);
    row->variant = v;
    if (reps < 1) {
        *it->status = -1;
        sl_err_set(it->err, "reps must be at least 1 (got %d)", reps);
        return;
    }
    memset(&it->want, 0, sizeof it->want);
    if (req) it->want = *req;
    it->want.ddof = s->params.ddof;         /* the operation's parameter travels with the launch */
    it->reference = is_reference_row(v);
    it->use_gpu = !it->reference && s->on_gpu && sl_variant_has_gpu(v);
    it->nondet = v->determinism == SL_DET_NONDETERMINISTIC;
    if (cannot_run(s, v, it->reference, it->use_gpu, it->err)) {
        cannot_run_row(s, row);
        *it->status = 1;
        return;
    }
    row->have_run = row->have_cfg = 1;
    row->reps = row->reps_asked = it->reference ? 1 : reps;
    if (s->twin_once && !it->use_gpu && !it->nondet) row->reps = 1;   /* a pure function */
    if (it->reference) {
        row->backend = "reference";
        if (it->keep) it->keep[0] = s->ref->rounded;
        sl_rep_agg_add(&it->agg, s->ref->rounded, NAN);
        memset(&row->cfg, 0, sizeof row->cfg);   /* no launch (0s, as when none is asked for): */
        row->cfg.ddof = it->want.ddof;           /* the operation's parameter alone */
        return;
    }
    const size_t chunk = row->reps < SL_MEASURE_CHUNK ? (size_t)row->reps : SL_MEASURE_CHUNK;
    it->cres = malloc(chunk * sizeof *it->cres);
    it->ctim = malloc(chunk * sizeof *it->ctim);
    if (!it->cres || !it->ctim) {
        *it->status = -1;
        sl_err_set(it->err, "out of memory");
        return;
    }
    if (!it->use_gpu) {        /* the CPU twin, each repetition timed by the wall clock */
        row->backend = "cpu";
        row->cfg = it->want;
        if (row->cfg.addr_mod == 0)
            row->cfg.addr_mod = (uint32_t)((s->offset * sl_dtype_size(s->dt)) % 256u);
        sl_variant_resolve(v, &row->cfg, s->n, s->dt);
        it->cpu_runs = 1;
    } else {
        it->check = check_twin && sl_variant_has_cpu(v) && !it->nondet;
    }
}

/* sl_measure_list; keep (NULL, or one variant's): every result also into keep[0..reps). */
static int measure_list(sl_session *s, const sl_variant *const *vs, size_t nv, const sl_launch *req,
                        const int *reps, int check_twin, const sl_rep_budget *budget, sl_row *rows,
                        int *status, sl_err *errs, double *keep)
{
    m_item *items = calloc(nv ? nv : 1, sizeof *items);
    if (!items) {
        for (size_t i = 0; i < nv; i++) {
            memset(&rows[i], 0, sizeof rows[i]);
            status[i] = -1;
            sl_err_set(&errs[i], "out of memory");
        }
        return -1;
    }
    const double t_start = now_ms();
    for (size_t i = 0; i < nv; i++) {
        m_item *it = &items[i];
        it->v = vs[i];
        it->row = &rows[i];
        it->status = &status[i];
        it->err = &errs[i];
        it->keep = nv == 1 ? keep : NULL;
        item_setup(s, it, req, reps[i], check_twin);
    }
    /* the CPU tasks, each writing its own slot: first the twins' repetitions, which need
     * nothing from the GPU (on the GPU backend they run on a thread of their own while the
     * GPU runs, e.g. pairwise at 2^28), then the twin checks of what the GPU ran */
    m_span *spans = calloc(nv ? 2 * nv : 1, sizeof *spans);   /* a round's, then the checks' */
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    int rc = 0;
    size_t k = 0, any_gpu = 0;
    for (size_t i = 0; i < nv; i++) {
        m_item *it = &items[i];
        if (status[i] != 0) {
            it->cpu_runs = 0;
            continue;
        }
        any_gpu += (size_t)it->use_gpu;
        if (!it->cpu_runs) continue;
        if (!spans) {
            status[i] = -1;
            it->cpu_runs = 0;
            sl_err_set(&errs[i], "out of memory");
            continue;
        }
        k += (size_t)rows[i].reps;
    }
    m_list L = {s, items, spans, 0, &mu};
    side_job side = {&L, nv, s->threads, 0};
    pthread_t side_tid;
    int side_on = k && any_gpu && pthread_create(&side_tid, NULL, side_run, &side) == 0;
    if (k && !side_on) side_run(&side);
    /* the GPU runs, one after another on this thread */
    const double t_gpu = now_ms();
    for (size_t i = 0; i < nv; i++) {
        m_item *it = &items[i];
        if (status[i] != 0 || !it->use_gpu) continue;
        /* a deterministic variant's repetitions give the same bits: they time it, so one
         * is enough where one run fills the budget; a nondeterministic one keeps a spread */
        const double ms = !budget ? 0 : it->nondet ? budget->nondet_ms : budget->det_ms;
        const int min_reps = budget && budget->min_reps > 1 ? budget->min_reps : 1;
        if (run_gpu(s, it, ms, min_reps, budget && budget->warm_once, it->err)) {
            status[i] = -1;
            it->check = 0;
        }
    }
    const double t_side = now_ms();
    s->gpu_s += (t_side - t_gpu) / 1e3;
    if (s->gpu_done) s->gpu_done(s->gpu_done_arg);   /* the device is free for the next session */
    if (side_on && pthread_join(side_tid, NULL) != 0) side.rc = -1;
    if (side.rc) rc = -1;
    const double t_check = now_ms();
    s->side_s += (t_check - t_side) / 1e3;
    size_t ncheck = 0;
    for (size_t i = 0; i < nv; i++) {
        m_item *it = &items[i];
        if (status[i] != 0 || !it->check) continue;
        if (!spans) {
            status[i] = -1;
            sl_err_set(&errs[i], "out of memory");
            continue;
        }
        spans[nv + ncheck] = (m_span){it, ncheck, 1, 1};
        ncheck++;
    }
    if (!spans) {
        rc = -1;
    } else {
        m_list C = {s, items, spans + nv, ncheck, &mu};
        if (ncheck && sl_parallel_for(ncheck, s->threads, cpu_task, &C)) rc = -1;
        /* a failure: the variant's first failing repetition (or its twin check) */
        for (size_t i = 0; i < nv; i++) {
            m_item *it = &items[i];
            if (it->failed && status[i] == 0) {
                status[i] = -1;
                errs[i] = it->fail_err;
            }
        }
        for (size_t i = 0; i < nv; i++) {
            m_item *it = &items[i];
            if (status[i] != 0 || !it->check) continue;
            rows[i].twin_checked = 1;
            rows[i].twin_match = sl_rep_agg_all_equal(&it->agg, it->twin);
        }
        for (size_t i = 0; i < nv; i++)   /* a sampled twin's row names its first order seed */
            if (status[i] == 0 && items[i].cpu_runs && items[i].nondet)
                rows[i].cfg.order_seed = rep_seed(items[i].want.order_seed, 0);
        const double t_judge = now_ms();
        s->check_s += (t_judge - t_check) / 1e3;
        s->run_s += (t_judge - t_start) / 1e3;
        /* judging costs per result, not per element: threads only where there are many
         * results (starting them costs more than judging a few dozen) */
        size_t nres = 0;
        for (size_t i = 0; i < nv; i++)
            if (status[i] == 0) nres += (size_t)rows[i].reps;
        if (sl_parallel_for(nv, nres >= SL_JUDGE_THREADS_MIN_RESULTS ? s->threads : 1, judge_task, &L)) rc = -1;
        s->judge_s += (now_ms() - t_judge) / 1e3;
    }
    for (size_t i = 0; i < nv; i++) {
        free(items[i].cres);
        free(items[i].ctim);
        sl_rep_agg_free(&items[i].agg);
        if (status[i] < 0) sl_row_free(&rows[i]);
    }
    free(spans);
    free(items);
    return rc;
}

int sl_measure_list(sl_session *s, const sl_variant *const *vs, size_t nv, const sl_launch *req,
                    const int *reps, int check_twin, const sl_rep_budget *budget, sl_row *rows,
                    int *status, sl_err *errs)
{
    return measure_list(s, vs, nv, req, reps, check_twin, budget, rows, status, errs, NULL);
}

int sl_measure_results(sl_session *s, const sl_variant *v, const sl_launch *req, int reps,
                       int check_twin, sl_row *row, double *results, sl_err *err)
{
    if (!s || !v) {
        memset(row, 0, sizeof *row);
        return sl_err_set(err, "sl_measure: NULL argument");
    }
    int status = 0;
    if (measure_list(s, &v, 1, req, &reps, check_twin, NULL, row, &status, err, results) && status == 0)
        return sl_err_set(err, "out of memory");
    return status;
}

int sl_measure(sl_session *s, const sl_variant *v, const sl_launch *req, int reps,
               int check_twin, sl_row *row, sl_err *err)
{
    return sl_measure_results(s, v, req, reps, check_twin, row, NULL, err);
}

int sl_measure_read_ceiling(const void *x, uint64_t n, sl_dtype dt, int reps, sl_row *row,
                            sl_err *err)
{
    return sl_measure_read_ceiling2(x, NULL, n, dt, reps, row, err);
}

int sl_measure_read_ceiling2(const void *x, const void *y, uint64_t n, sl_dtype dt, int reps,
                             sl_row *row, sl_err *err)
{
    sl_row_empty(row, "gpu", dt, n);
    if (reps < 1) return sl_err_set(err, "reps must be at least 1 (got %d)", reps);
    double t[SL_MEASURE_CHUNK];
    sl_sketch k;
    memset(&k, 0, sizeof k);
    sl_gpu_ctx *ctx = NULL;
    int rc = sl_gpu_ctx_create(&ctx, x, n, dt, 0, err);
    if (!rc && y) rc = sl_gpu_ctx_set_y(ctx, y, err);
    for (int done = 0; !rc && done < reps;) {   /* in chunks, each folded */
        const int c = reps - done < SL_MEASURE_CHUNK ? reps - done : SL_MEASURE_CHUNK;
        rc = sl_gpu_ctx_read_ceiling(ctx, c, SL_GPU_FLUSH_L2, t, err);
        for (int r = 0; !rc && r < c; r++)
            if (sl_sketch_add(&k, t[r])) rc = sl_err_set(err, "out of memory");
        done += c;
    }
    if (ctx) sl_gpu_ctx_destroy(ctx);
    if (!rc) {
        row->have_run = 1;
        row->reps = reps;
        sl_sketch_stats(&k, &row->time_ms_median, &row->time_ms_min, &row->time_ms_max, &row->times_binned);
        row->gbps = row->time_ms_median > 0
                        ? (double)n * (double)sl_dtype_size(dt) * (y ? 2.0 : 1.0) / (row->time_ms_median * 1e6)
                        : NAN;
    }
    sl_sketch_free(&k);
    return rc;
}

void sl_row_free(sl_row *row)
{
    if (!row) return;
    free(row->values);
    row->values = NULL;
    row->nvalues = 0;
}

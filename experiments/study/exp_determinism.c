/* exp_determinism.c: how unrepeatable is each variant? R repetitions at the default launch
 * configuration (every distinct result and its count go to distribution.csv), then the same
 * input under 6 other launch configurations (block, grid, SM-count requests) and under 4
 * permutations of the input (reversed, sorted, shuffled, split = halves interleaved). The
 * verdict against each variant's claimed class is computed from these rows (report/verdicts.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sumlab/half.h"
#include "sumlab/pool.h"
#include "sl_study.h"

static const sl_dtype dtypes[] = {SL_F32, SL_F64};
static const char *const det_datasets[] = {"uniform-sym", "ill-conditioned", NULL};

/* Launch configurations besides the default one (>= 5 in all, as the study promises). */
typedef struct {
    const char *label;
    uint32_t block, grid, sm_count;
} det_cfg;
static const det_cfg configs[] = {
    {"cfg:block128", 128, 0, 0},   {"cfg:block512", 512, 0, 0}, {"cfg:block1024", 1024, 0, 0},
    {"cfg:grid37", 0, 37, 0},      {"cfg:sm66", 0, 0, 66},      {"cfg:sm114", 0, 0, 114},
};
#define NCONFIGS (sizeof configs / sizeof configs[0])
static const char *const perms[] = {"perm:reversed", "perm:sorted", "perm:shuffled", "perm:split"};
#define NPERMS (sizeof perms / sizeof perms[0])

static uint64_t det_preset_n(const sl_run *run)
{
    switch (run->preset) {
    case SL_PRESET_TINY: return 1024;
    case SL_PRESET_QUICK: return run->on_gpu ? (uint64_t)1 << 20 : (uint64_t)1 << 16;
    default: return run->on_gpu ? (uint64_t)1 << 24 : (uint64_t)1 << 18;
    }
}

/* The preset's one n, or --n's list. */
static int det_ns(const sl_run *run, uint64_t *ns)
{
    uint64_t d = det_preset_n(run);
    return sl_exp_ns(run, &d, 1, ns, SL_SWEEP_MAX);
}

static int det_reps(const sl_run *run)
{
    int def = run->preset == SL_PRESET_TINY ? 5 : (run->preset == SL_PRESET_QUICK && !run->on_gpu) ? 50 : 100;
    return sl_exp_reps(run, def);
}

/* perm:sorted: a stable sort by value (NaNs after every number; equal values, -0 and +0
 * among them, keep their input order), so the permutation is unique: pieces sorted on the
 * run's threads and merged pairwise give it for every thread count. Bottom-up merge sorts,
 * one per dtype; a merge takes from the right run only when its value is smaller. */
#define SORT_LESS(x, y) ((x) < (y) || ((y) != (y) && (x) == (x)))
#define DEFINE_MERGE(T, NAME)                                                                 \
    static void NAME##_merge(const T *a, size_t na, const T *b, size_t nb, T *out)            \
    {                                                                                         \
        size_t i = 0, j = 0, k = 0;                                                           \
        while (i < na && j < nb) out[k++] = SORT_LESS(b[j], a[i]) ? b[j++] : a[i++];         \
        while (i < na) out[k++] = a[i++];                                                     \
        while (j < nb) out[k++] = b[j++];                                                     \
    }                                                                                         \
    /* sorts a[0..n) (tmp: n scratch values); the result is in a */                           \
    static void NAME##_msort(T *a, T *tmp, size_t n)                                          \
    {                                                                                         \
        T *src = a, *dst = tmp;                                                               \
        for (size_t w = 1; w < n; w *= 2) {                                                   \
            for (size_t lo = 0; lo < n; lo += 2 * w) {                                        \
                size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;   \
                NAME##_merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);              \
            }                                                                                 \
            T *t = src; src = dst; dst = t;                                                   \
        }                                                                                     \
        if (src != a) memcpy(a, src, n * sizeof *a);                                          \
    }
DEFINE_MERGE(float, f32)
DEFINE_MERGE(double, f64)

typedef struct {
    void *y, *tmp;             /* the values and n scratch values */
    size_t n, es, pieces, width;  /* width: pieces per run in this merge round */
    sl_dtype dt;
    int from_tmp;              /* this round reads tmp, writes y (else the other way) */
} sort_job;

/* Piece p of P: [p n / P, (p + 1) n / P). */
static size_t piece_lo(const sort_job *j, size_t p) { return (size_t)((uint64_t)j->n * p / j->pieces); }

static void sort_piece(void *ctx, size_t p)
{
    sort_job *j = ctx;
    size_t lo = piece_lo(j, p), hi = piece_lo(j, p + 1);
    if (j->dt == SL_F32) f32_msort((float *)j->y + lo, (float *)j->tmp + lo, hi - lo);
    else f64_msort((double *)j->y + lo, (double *)j->tmp + lo, hi - lo);
}

static void merge_runs(void *ctx, size_t r)
{
    sort_job *j = ctx;
    size_t p0 = r * 2 * j->width, p1 = p0 + j->width < j->pieces ? p0 + j->width : j->pieces;
    size_t p2 = p0 + 2 * j->width < j->pieces ? p0 + 2 * j->width : j->pieces;
    size_t lo = piece_lo(j, p0), mid = piece_lo(j, p1), hi = piece_lo(j, p2);
    char *src = j->from_tmp ? j->tmp : j->y, *dst = j->from_tmp ? j->y : j->tmp;
    if (j->dt == SL_F32)
        f32_merge((float *)src + lo, mid - lo, (float *)src + mid, hi - mid, (float *)dst + lo);
    else
        f64_merge((double *)src + lo, mid - lo, (double *)src + mid, hi - mid, (double *)dst + lo);
}

/* Sorts y[0..n) on up to `threads` threads (pieces of at least 2^15 values); -1 when out of
 * memory for the scratch copy or a thread could not be joined. */
static int sort_values(void *y, uint64_t n, sl_dtype dt, unsigned threads)
{
    const size_t es = sl_dtype_size(dt);
    void *tmp = malloc(n ? (size_t)n * es : 1);
    if (!tmp) return -1;
    size_t pieces = threads ? threads : 1;
    if (pieces > n / 32768) pieces = n / 32768 ? (size_t)(n / 32768) : 1;
    sort_job j = {y, tmp, (size_t)n, es, pieces, 1, dt, 0};
    int rc = sl_parallel_for(pieces, threads, sort_piece, &j);
    for (; !rc && j.width < pieces; j.width *= 2) {   /* rounds of pairwise merges, ping-pong */
        size_t runs = (pieces + 2 * j.width - 1) / (2 * j.width);
        rc = sl_parallel_for(runs, threads, merge_runs, &j);
        j.from_tmp = !j.from_tmp;
    }
    if (!rc && j.from_tmp) memcpy(y, tmp, (size_t)n * es);   /* the last round wrote tmp */
    free(tmp);
    return rc;
}

/* y = permutation `which` of x (n elements of size es); -1 when out of memory. */
static int permute(const sl_run *run, const char *which, const void *x, void *y, uint64_t n,
                   sl_dtype dt)
{
    const size_t es = sl_dtype_size(dt);
    const char *src = x;
    char *dst = y;
    if (!strcmp(which, "perm:reversed")) {
        for (uint64_t i = 0; i < n; i++) memcpy(dst + i * es, src + (n - 1 - i) * es, es);
    } else if (!strcmp(which, "perm:sorted")) {
        memcpy(dst, src, n * es);
        if (sort_values(dst, n, dt, run->threads)) return -1;
    } else if (!strcmp(which, "perm:shuffled")) {
        memcpy(dst, src, n * es);
        char tmp[8];
        for (uint64_t i = n; i > 1; i--) {
            uint64_t j = sl_rng_u64(run->seed, 0x5348554646ull, i) % i;   /* Fisher-Yates */
            memcpy(tmp, dst + (i - 1) * es, es);
            memcpy(dst + (i - 1) * es, dst + j * es, es);
            memcpy(dst + j * es, tmp, es);
        }
    } else {                                  /* split: the two halves interleaved */
        uint64_t h = n / 2, k = 0;
        for (uint64_t i = 0; i < h; i++) {
            memcpy(dst + (k++) * es, src + i * es, es);
            memcpy(dst + (k++) * es, src + (h + i) * es, es);
        }
        for (uint64_t i = 2 * h; i < n; i++) memcpy(dst + (k++) * es, src + i * es, es);
    }
    return 0;
}

/* A two-input operation (dot): x holds x then y (n values each); the same permutation of the n
 * indices is applied to both halves (sorted: by x's values, stably, NaNs last), so every
 * permuted input has the same exact dot. -1 when out of memory. */
static const char *pair_x;   /* the sort's key array (qsort has no context; the walk is one thread) */
static sl_dtype pair_dt;
static int pair_cmp(const void *a, const void *b)
{
    const uint64_t i = *(const uint64_t *)a, j = *(const uint64_t *)b;
    const double u = pair_dt == SL_F64 ? ((const double *)pair_x)[i] : (double)((const float *)pair_x)[i];
    const double v = pair_dt == SL_F64 ? ((const double *)pair_x)[j] : (double)((const float *)pair_x)[j];
    const int nu = isnan(u), nv = isnan(v);
    if (nu != nv) return nu - nv;
    if (!nu && u < v) return -1;
    if (!nu && u > v) return 1;
    return i < j ? -1 : i > j;
}
static int permute_pair(const sl_run *run, const char *which, const void *x, void *y, uint64_t n,
                        sl_dtype dt)
{
    const size_t es = sl_dtype_size(dt);
    uint64_t *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    if (!idx) return -1;
    for (uint64_t i = 0; i < n; i++) idx[i] = i;
    if (!strcmp(which, "perm:reversed")) {
        for (uint64_t i = 0; i < n; i++) idx[i] = n - 1 - i;
    } else if (!strcmp(which, "perm:sorted")) {
        if (sl_dtype_is_half(dt)) {   /* 16-bit keys: widened exactly into a scratch of doubles */
            double *w = malloc((size_t)(n ? n : 1) * sizeof *w);
            if (!w) { free(idx); return -1; }
            for (uint64_t i = 0; i < n; i++) w[i] = sl_half_to_double(((const uint16_t *)x)[i], dt);
            pair_x = (const char *)w;
            pair_dt = SL_F64;
            qsort(idx, (size_t)n, sizeof *idx, pair_cmp);
            free(w);
        } else {
            pair_x = x;
            pair_dt = dt;
            qsort(idx, (size_t)n, sizeof *idx, pair_cmp);
        }
    } else if (!strcmp(which, "perm:shuffled")) {
        for (uint64_t i = n; i > 1; i--) {
            uint64_t j = sl_rng_u64(run->seed, 0x5348554646ull, i) % i;   /* Fisher-Yates */
            const uint64_t t = idx[i - 1];
            idx[i - 1] = idx[j];
            idx[j] = t;
        }
    } else {                                  /* split: the two halves interleaved */
        uint64_t h = n / 2, k = 0;
        for (uint64_t i = 0; i < h; i++) {
            idx[k++] = i;
            idx[k++] = h + i;
        }
        for (uint64_t i = 2 * h; i < n; i++) idx[k++] = i;
    }
    const char *src = x;
    char *dst = y;
    for (uint64_t i = 0; i < n; i++) {
        memcpy(dst + i * es, src + idx[i] * es, es);
        memcpy(dst + (n + i) * es, src + (n + idx[i]) * es, es);
    }
    free(idx);
    return 0;
}

#define NLABELS (1 + NCONFIGS + NPERMS)

/* Label l of an input's rows: the default, then the configurations, then the permutations. */
static const char *label_at(size_t l)
{
    return l == 0 ? "default" : l <= NCONFIGS ? configs[l - 1].label : perms[l - 1 - NCONFIGS];
}

/* Every row of one input (dataset ds, dtype dt): the default configuration's repetitions,
 * the other configurations, then the permutations; todo[l]: what label l still needs. */
static int det_rows(sl_run *run, sl_rowctx *c, const sl_pending *todo, const void *x, void *y,
                    const sl_reference *ref, int R, int Rc, sl_err *err)
{
    sl_launch req;
    memset(&req, 0, sizeof req);
    req.order_seed = sl_exp_instance_seed(run, c->instance);
    c->config = "default";
    int rc = sl_exp_measure(run, c, &todo[0], x, ref, &req, R, R, 1, err);
    for (size_t k = 0; k < NCONFIGS && !rc && !sl_run_stopped(run); k++) {
        sl_launch q = req;
        q.block = configs[k].block;
        q.grid = configs[k].grid;
        q.sm_count = configs[k].sm_count;
        c->config = configs[k].label;
        rc = sl_exp_measure(run, c, &todo[1 + k], x, ref, &q, Rc, Rc, 0, err);
    }
    for (size_t k = 0; k < NPERMS && !rc && !sl_run_stopped(run); k++) {
        if (!todo[1 + NCONFIGS + k].n) continue;
        c->config = perms[k];
        const double t0 = sl_now_s();
        int prc = sl_rowctx_op(c)->inputs == 2 ? permute_pair(run, perms[k], x, y, c->n, c->dt)
                                                : permute(run, perms[k], x, y, c->n, c->dt);
        run->phases.generate += sl_now_s() - t0;
        if (prc) return sl_err_set(err, "cannot sort %llu values (out of memory or threads)", (unsigned long long)c->n);
        /* the exact sum, sum|x| and max|x| do not depend on the order: x's reference is y's */
        rc = sl_exp_measure(run, c, &todo[1 + NCONFIGS + k], y, ref, &req, Rc, Rc, 0, err);
    }
    return rc;
}

/* One input: what is left to do, its generation and its rows (one progress step). */
static int det_input(sl_run *run, const sl_dataset *ds, const sl_params *p, sl_dtype dt,
                     uint64_t n, int instance, int R, int Rc, double w, sl_err *err)
{
    sl_rowctx c = {.op = run->op, .experiment = "determinism", .ds = ds, .dt = dt, .n = n,
                   .config = "default", .sweep = "n", .sweep_value = NAN, .instance = instance};
    sl_rowctx_params(&c, ds, p);
    char what[200];
    snprintf(what, sizeof what, "determinism %s %s n=%llu (%d reps, %zu configs, %zu permutations)",
             ds->name, sl_dtype_name(dt), (unsigned long long)n, R, NCONFIGS, NPERMS);
    if (sl_exp_instances(run) > 1) {
        size_t l = strlen(what);
        snprintf(what + l, sizeof what - l, " [instance %d/%d]", instance + 1, sl_exp_instances(run));
    }
    sl_progress_step(run->prog, what, w);

    sl_pending todo[NLABELS];
    size_t left = 0;
    for (size_t l = 0; l < NLABELS; l++) {
        c.config = label_at(l);
        if (sl_exp_pending(run, &c, &todo[l], err)) return -1;
        left += todo[l].n;
    }
    if (!left) { sl_progress_done_skipped(run->prog); return 0; }

    sl_err ge = {{0}};
    void *x = sl_exp_generate_ctx(run, &c, p, &ge);
    if (!x) {
        sl_notes_add(&run->notes, "determinism: %s %s not generated: %s", ds->name, sl_dtype_name(dt), ge.msg);
        sl_progress_done(run->prog);
        return 0;
    }
    /* the permuted copies (a two-input operation's x and y both) */
    void *y = sl_hostbuf_get(run, n * sl_dtype_size(dt) * (size_t)sl_rowctx_op(&c)->inputs);
    if (!y) { sl_hostbuf_put(run, x); return sl_err_set(err, "out of memory"); }
    sl_reference ref;   /* one exact sum for the input's every configuration and permutation */
    int rc = sl_exp_reference(run, &c, x, &ref, err);
    if (!rc) rc = det_rows(run, &c, todo, x, y, &ref, R, Rc, err);
    sl_reference_clear(&ref);
    sl_hostbuf_put(run, y);
    sl_hostbuf_put(run, x);
    sl_progress_done(run->prog);
    return rc ? -1 : 0;
}

static int walk(sl_run *run, int exec, double *work, sl_err *err)
{
    uint64_t ns[SL_SWEEP_MAX];
    const int nn = det_ns(run, ns);
    const int R = det_reps(run);
    const int Rc = R < 3 ? R : 3;   /* repetitions of each config / permutation row */
    if (run->files) {          /* --files: the user's arrays, each at its own n and dtype */
        for (int f = 0; f < run->files->count; f++) {
            const sl_file_input *fi = &run->files->f[f];
            if (fi->inputs == 1 && sl_dtype_is_half(fi->dt)) {   /* the sorted permutation: f32, f64 */
                if (exec) {
                    sl_progress_msg(run->prog, "determinism skips %s: its %s values (the experiment takes "
                                    "float32 and float64)", fi->label, sl_dtype_name(fi->dt));
                    sl_notes_add(&run->notes, "determinism: %s skipped: %s (the experiment takes float32 and "
                                 "float64)", fi->label, sl_dtype_name(fi->dt));
                }
                continue;
            }
            const double w = sl_exp_work(fi->n, R + (int)(NCONFIGS + NPERMS) * Rc) * sl_exp_gpu_weight(run, "determinism");
            sl_params p;
            memset(&p, 0, sizeof p);
            for (int i = 0; i < sl_exp_instances(run); i++) {
                if (!exec) { *work += w; run->plan_steps += 1; continue; }
                if (sl_run_stopped(run)) return 0;
                if (det_input(run, &fi->ds, &p, fi->dt, fi->n, i, R, Rc, w, err)) return -1;
            }
        }
        return 0;
    }
    /* --datasets replaces the experiment's own inputs (the operation's, else det_datasets) */
    const sl_operation *op = run->op ? run->op : sl_op_default();
    const char *const *fams = op->det_families ? op->det_families : det_datasets;
    int nfam = 0;
    while (fams[nfam]) nfam++;
    const int nd = run->sweep.nds ? run->sweep.nds : nfam;
    for (int k = 0; k < nn; k++) {
        const uint64_t n = ns[k];
        const double w = sl_exp_work(n, R + (int)(NCONFIGS + NPERMS) * Rc) * sl_exp_gpu_weight(run, "determinism");
        for (int d = 0; d < nd; d++) {
            const sl_dataset *ds = run->sweep.nds ? run->sweep.ds[d] : sl_dataset_find(fams[d]);
            if (!ds) {
                if (exec) sl_notes_add(&run->notes, "determinism: dataset '%s' not in the registry, skipped", fams[d]);
                continue;
            }
            sl_params p;
            sl_params_defaults(ds, &p);
            sl_exp_user_params(run, ds, &p);
            for (int t = 0; t < 2; t++)
                for (int i = 0; i < sl_exp_instances(run) && sl_exp_dtype_on(run, dtypes[t]); i++) {
                    if (!exec) { *work += w; run->plan_steps += 1; continue; }
                    if (sl_run_stopped(run)) return 0;
                    if (det_input(run, ds, &p, dtypes[t], n, i, R, Rc, w, err)) return -1;
                }
        }
    }
    return 0;
}

double sl_exp_det_plan(sl_run *run)
{
    double w = 0;
    walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_det(sl_run *run, sl_err *err) { return walk(run, 1, NULL, err); }

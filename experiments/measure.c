/* measure.c: one variant summing one input R times on one backend, judged against the exact
 * reference (sl_measure.h). The reference is computed once per session and the input is
 * uploaded once; every result is kept as its bit pattern. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sl_format.h"
#include "sl_gpu.h"
#include "sl_measure.h"

struct sl_session {
    const void *x;
    uint64_t n;
    sl_dtype dt;
    uint32_t offset;
    int on_gpu;
    sl_gpu_ctx *ctx;
    int ref_ok;
    sl_reference ref;
};

int sl_backend_parse(const char *s, sl_backend *out)
{
    if (!s) return -1;
    if (!strcmp(s, "auto")) *out = SL_BACKEND_AUTO;
    else if (!strcmp(s, "cpu")) *out = SL_BACKEND_CPU;
    else if (!strcmp(s, "gpu")) *out = SL_BACKEND_GPU;
    else return -1;
    return 0;
}

int sl_session_open(sl_session **sp, const void *x, uint64_t n, sl_dtype dt, sl_backend backend,
                    uint32_t offset, char *chosen_msg, size_t msg_len, sl_err *err)
{
    *sp = NULL;
    if (chosen_msg && msg_len) chosen_msg[0] = '\0';
    if (dt != SL_F32 && dt != SL_F64) return sl_err_set(err, "unsupported dtype %d", (int)dt);
    if (!x && n > 0) return sl_err_set(err, "no input data");
    sl_session *s = calloc(1, sizeof *s);
    if (!s) return sl_err_set(err, "out of memory");
    s->x = x;
    s->n = n;
    s->dt = dt;
    s->offset = offset;

    if (backend != SL_BACKEND_CPU) {
        sl_gpu_info info;
        sl_err why = {{0}};
        memset(&info, 0, sizeof info);
        int have = sl_gpu_available(&info, &why) == 1;
        if (have) {
            s->on_gpu = 1;
            if (chosen_msg)
                snprintf(chosen_msg, msg_len, "backend gpu: %s (%d SMs)", info.name, info.sm_count);
        } else if (backend == SL_BACKEND_GPU) {
            free(s);
            return sl_err_set(err, "--backend gpu: no usable GPU (%s)", why.msg[0] ? why.msg : "none found");
        } else if (chosen_msg) {
            snprintf(chosen_msg, msg_len, "backend cpu: no GPU (%s); using the CPU twins",
                     why.msg[0] ? why.msg : "none found");
        }
    } else if (chosen_msg) {
        snprintf(chosen_msg, msg_len, "backend cpu: CPU twins");
    }

    s->ref_ok = 1;
    if (sl_reference_compute(&s->ref, x, n, dt, err)) {
        sl_session_close(s);
        return -1;
    }
    if (s->on_gpu && sl_gpu_ctx_create(&s->ctx, x, n, dt, offset, err)) {
        sl_session_close(s);
        return -1;
    }
    *sp = s;
    return 0;
}

void sl_session_close(sl_session *s)
{
    if (!s) return;
    if (s->ctx) sl_gpu_ctx_destroy(s->ctx);
    if (s->ref_ok) sl_reference_clear(&s->ref);
    free(s);
}

const sl_reference *sl_session_reference(const sl_session *s) { return &s->ref; }
int sl_session_on_gpu(const sl_session *s) { return s->on_gpu; }

/* ---- helpers ------------------------------------------------------------------------- */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The commit-order seed of repetition rep of a nondeterministic twin. */
static uint64_t rep_seed(uint64_t seed, int rep) { return mix64(mix64(seed) ^ (uint64_t)rep); }

/* Bit pattern with every NaN folded into one (NaN payloads differ between CPU and GPU). */
static uint64_t canon_bits(double v)
{
    if (isnan(v)) return 0x7ff8000000000000ull;
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t count_distinct(const double *r, int reps)
{
    uint64_t *b = malloc((size_t)reps * sizeof *b);
    if (!b) return 0;
    for (int i = 0; i < reps; i++) b[i] = canon_bits(r[i]);
    qsort(b, (size_t)reps, sizeof *b, cmp_u64);
    uint64_t d = reps > 0;
    for (int i = 1; i < reps; i++) d += b[i] != b[i - 1];
    free(b);
    return d;
}

static sl_ref_bound_kind bound_kind(sl_bound_model m)
{
    switch (m) {
    case SL_BOUND_RECURSIVE: return SL_REF_BOUND_RECURSIVE;
    case SL_BOUND_COMPENSATED: return SL_REF_BOUND_COMPENSATED;
    case SL_BOUND_CORRECTLY_ROUNDED: return SL_REF_BOUND_CORRECTLY_ROUNDED;
    case SL_BOUND_NONE: break;
    }
    return SL_REF_BOUND_NONE;
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

/* Fills the statistics of row from its results and times. */
static void finish_row(sl_session *s, const sl_variant *v, sl_row *row, const double *times)
{
    const double *r = row->results;
    int reps = row->reps;
    row->result = r[0];
    row->distinct = count_distinct(r, reps);
    int anynan = 0;
    double mn = r[0], mx = r[0];
    for (int i = 0; i < reps; i++) {
        if (isnan(r[i])) anynan = 1;
        else {
            if (isnan(mn) || r[i] < mn) mn = r[i];
            if (isnan(mx) || r[i] > mx) mx = r[i];
        }
    }
    row->min_result = anynan ? NAN : mn;
    row->max_result = anynan ? NAN : mx;
    if (anynan || !s->ref.finite || !isfinite(mn) || !isfinite(mx)) {
        row->spread_ulps = (!anynan && mn == mx) ? 0.0 : NAN;
    } else {
        double u = sl_ulp(s->ref.rounded, s->dt);
        row->spread_ulps = (mx - mn) / u;
    }
    sl_stats(times, reps > 0 ? (size_t)reps : 0, &row->time_ms_median, &row->time_ms_min, &row->time_ms_max);
    double bytes = (double)s->n * (double)sl_dtype_size(s->dt);
    row->gbps = row->time_ms_median > 0 ? bytes / (row->time_ms_median * 1e6) : NAN;
    row->err = sl_reference_errors(&s->ref, row->result, s->dt);
    row->bound = sl_variant_bound(v, &s->ref, s->n, s->dt, &row->cfg);
}

double sl_variant_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg)
{
    sl_ref_bound_kind kind = bound_kind(v->bound);
    if (kind == SL_REF_BOUND_NONE) return NAN;
    const sl_dtype acc = v->acc_wide ? SL_F64 : dt;
    /* Higham's bounds assume no overflow: once sum|x| passes the accumulator's largest
     * finite value an intermediate may overflow, and no finite bound holds */
    if (ref->finite && !(ref->abssum <= (acc == SL_F64 ? DBL_MAX : FLT_MAX))) return INFINITY;
    double k = sl_variant_depth(v, n, dt, cfg);
    double b = sl_reference_bound(ref, kind, k, acc, dt);
    if (v->ftz_atomics && dt == SL_F32) b += 2.0 * k * (double)FLT_MIN;
    return b;
}

int sl_measure(sl_session *s, const sl_variant *v, const sl_launch *req, int reps,
               int check_twin, sl_row *row, sl_err *err)
{
    memset(row, 0, sizeof *row);
    row->variant = v;
    row->bound = NAN;
    if (!s || !v) return sl_err_set(err, "sl_measure: NULL argument");
    if (reps < 1) return sl_err_set(err, "reps must be at least 1 (got %d)", reps);
    sl_launch want;
    memset(&want, 0, sizeof want);
    if (req) want = *req;

    /* what can run here */
    if (!(v->dtypes & SL_DTYPE_MASK(s->dt))) {
        sl_err_set(err, "does not take %s input", sl_dtype_name(s->dt));
        return 1;
    }
    if (v->max_n && s->n > v->max_n) {
        sl_err_set(err, "accepts at most n = %llu (input has n = %llu)",
             (unsigned long long)v->max_n, (unsigned long long)s->n);
        return 1;
    }
    int reference = is_reference_row(v);
    int use_gpu = !reference && s->on_gpu && v->gpu;
    if (!reference && !use_gpu && !v->cpu) {
        sl_err_set(err, "no CPU twin (it runs on the GPU only)%s",
             s->on_gpu ? "" : " and the CPU backend is in use");
        return 1;
    }

    row->reps = reference ? 1 : reps;
    row->results = malloc((size_t)row->reps * sizeof *row->results);
    double *times = malloc((size_t)row->reps * sizeof *times);
    if (!row->results || !times) {
        free(times);
        sl_row_free(row);
        return sl_err_set(err, "out of memory");
    }

    if (reference) {
        row->backend = "reference";
        row->results[0] = s->ref.rounded;
        row->cfg = want;
        finish_row(s, v, row, NULL);
        row->time_ms_median = row->time_ms_min = row->time_ms_max = row->gbps = NAN;
        free(times);
        return 0;
    }

    if (use_gpu) {
        row->backend = "gpu";
        sl_launch warm = want;
        double wres;
        /* one warm-up run, not counted */
        if (sl_gpu_ctx_run(s->ctx, v, &warm, 1, SL_GPU_FLUSH_L2, &wres, NULL, err) ||
            (row->cfg = want, sl_gpu_ctx_run(s->ctx, v, &row->cfg, row->reps, SL_GPU_FLUSH_L2,
                                             row->results, times, err))) {
            free(times);
            sl_row_free(row);
            return -1;
        }
    } else {
        row->backend = "cpu";
        row->cfg = want;
        if (row->cfg.addr_mod == 0)
            row->cfg.addr_mod = (uint32_t)((s->offset * sl_dtype_size(s->dt)) % 256u);
        sl_variant_resolve(v, &row->cfg, s->n, s->dt);
        for (int r = 0; r < row->reps; r++) {
            sl_launch c = row->cfg;
            if (v->determinism == SL_DET_NONDETERMINISTIC) c.order_seed = rep_seed(want.order_seed, r);
            double t0 = now_ms();
            if (sl_variant_cpu(v, s->x, s->n, s->dt, &c, &row->results[r], err)) {
                free(times);
                sl_row_free(row);
                return -1;
            }
            times[r] = now_ms() - t0;
        }
        if (v->determinism == SL_DET_NONDETERMINISTIC) row->cfg.order_seed = rep_seed(want.order_seed, 0);
    }

    /* the twin as oracle: a deterministic GPU result must equal its twin bit for bit */
    if (use_gpu && check_twin && v->cpu && v->determinism != SL_DET_NONDETERMINISTIC) {
        double tw;
        if (sl_variant_cpu(v, s->x, s->n, s->dt, &row->cfg, &tw, err)) {
            free(times);
            sl_row_free(row);
            return -1;
        }
        row->twin_checked = 1;
        row->twin_match = 1;
        for (int r = 0; r < row->reps; r++)
            if (canon_bits(row->results[r]) != canon_bits(tw)) row->twin_match = 0;
    }

    finish_row(s, v, row, times);
    free(times);
    return 0;
}

void sl_row_free(sl_row *row)
{
    if (!row) return;
    free(row->results);
    row->results = NULL;
}

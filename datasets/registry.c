/* registry.c: the table of dataset families, parameter parsing ("key=value", strict) and the
 * checked entry point sl_dataset_generate; also the public counter-based RNG. */
#include "sl_ds_impl.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

/* The one list of families: adding one is a new sl_dataset in a gen_*.c file and a row here. */
static const sl_dataset *const sl_table[] = {
    &sl_ds_uniform,      &sl_ds_uniform_sym,     &sl_ds_normal,      &sl_ds_cauchy,
    &sl_ds_log_uniform,  &sl_ds_sorted_inc,      &sl_ds_sorted_dec,  &sl_ds_alternating,
    &sl_ds_subnormal,    &sl_ds_ill_conditioned, &sl_ds_absorption,  &sl_ds_cancellation,
    &sl_ds_overflow,     &sl_ds_special,
    /* opt-in (SL_DS_OPT_IN): the moment families of gen_moments.c */
    &sl_ds_offset_normal, &sl_ds_square_range,  &sl_ds_constant,    &sl_ds_two_values,
    &sl_ds_outliers,     &sl_ds_student_t,      &sl_ds_negative,
    /* opt-in: the log-sum-exp families of gen_lse.c */
    &sl_ds_logits,       &sl_ds_logits_dominant, &sl_ds_lse_masked,  &sl_ds_logits_low,
    &sl_ds_logits_high,
    /* opt-in: the norm2 families of gen_norm.c */
    &sl_ds_nrm2_table,   &sl_ds_huge,           &sl_ds_tiny,        &sl_ds_sq_overflow,
    /* opt-in pairs (SL_DS_PAIR): the dot families of gen_dot.c */
    &sl_ds_dot_random,   &sl_ds_dot_cond,       &sl_ds_dot_overflow,
};

size_t sl_dataset_count(void) { return sizeof sl_table / sizeof sl_table[0]; }

const sl_dataset *sl_dataset_at(size_t i) { return i < sl_dataset_count() ? sl_table[i] : NULL; }

const sl_dataset *sl_dataset_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < sl_dataset_count(); i++)
        if (!strcmp(sl_table[i]->name, name)) return sl_table[i];
    return NULL;
}

void sl_params_defaults(const sl_dataset *ds, sl_params *p)
{
    for (int k = 0; k < SL_MAX_PARAMS; k++) p->v[k] = 0.0;
    for (int k = 0; ds && k < ds->nparams && k < SL_MAX_PARAMS; k++) p->v[k] = ds->params[k].def;
}

/* Index of name in a '|'-separated list, or -1. */
static int choice_index(const char *choices, const char *name)
{
    size_t len = strlen(name);
    int idx = 0;
    for (const char *c = choices; c && *c; idx++) {
        const char *bar = strchr(c, '|');
        size_t cl = bar ? (size_t)(bar - c) : strlen(c);
        if (cl == len && len > 0 && !strncmp(c, name, len)) return idx;
        if (!bar) break;
        c = bar + 1;
    }
    return -1;
}

const char *sl_param_choice(const sl_param_desc *d, double v, char *buf, size_t len)
{
    if (!d || d->type != SL_PARAM_ENUM || !d->choices || !buf || len == 0 || !(v >= 0) || v != floor(v))
        return NULL;
    const char *c = d->choices;
    for (double k = 0; k < v; k++) {
        c = strchr(c, '|');
        if (!c) return NULL;
        c++;
    }
    const char *bar = strchr(c, '|');
    size_t cl = bar ? (size_t)(bar - c) : strlen(c);
    if (cl >= len) cl = len - 1;
    memcpy(buf, c, cl);
    buf[cl] = '\0';
    return buf;
}

/* Appends the valid keys of ds to buf ("a, b, c" or "none"). */
static void list_keys(const sl_dataset *ds, char *buf, size_t len)
{
    buf[0] = '\0';
    if (ds->nparams == 0) {
        snprintf(buf, len, "none: '%s' takes no parameters", ds->name);
        return;
    }
    size_t used = 0;
    for (int k = 0; k < ds->nparams && used < len; k++) {
        int w = snprintf(buf + used, len - used, "%s%s", k ? ", " : "", ds->params[k].name);
        if (w < 0) break;
        used += (size_t)w;
    }
}

/* Checks one value against its desc; fills err and returns -1 when it does not fit. */
static int check_value(const sl_dataset *ds, const sl_param_desc *d, double v, sl_err *err)
{
    if (!isfinite(v)) {
        sl_err_set(err, "dataset '%s': parameter %s=%g is not a finite number", ds->name, d->name, v);
        return -1;
    }
    if (v < d->min || v > d->max) {
        sl_err_set(err, "dataset '%s': parameter %s=%.17g is outside [%.17g, %.17g]", ds->name, d->name,
                v, d->min, d->max);
        return -1;
    }
    if (d->type != SL_PARAM_REAL && v != floor(v)) {
        sl_err_set(err, "dataset '%s': parameter %s=%.17g must be a whole number", ds->name, d->name, v);
        return -1;
    }
    return 0;
}

int sl_params_set(const sl_dataset *ds, sl_params *p, const char *kv, sl_err *err)
{
    if (!ds || !p || !kv) {
        sl_err_set(err, "sl_params_set: NULL argument");
        return -1;
    }
    const char *eq = strchr(kv, '=');
    if (!eq) {
        sl_err_set(err, "dataset '%s': parameter '%s' is not of the form key=value", ds->name, kv);
        return -1;
    }
    size_t klen = (size_t)(eq - kv);
    const char *val = eq + 1;
    int idx = -1;
    for (int k = 0; k < ds->nparams; k++)
        if (strlen(ds->params[k].name) == klen && !strncmp(ds->params[k].name, kv, klen)) idx = k;
    if (idx < 0) {
        char keys[384];
        list_keys(ds, keys, sizeof keys);
        sl_err_set(err, "dataset '%s': unknown parameter '%.*s' (valid: %s)", ds->name,
                (int)(klen > 64 ? 64 : klen), kv, keys);
        return -1;
    }
    const sl_param_desc *d = &ds->params[idx];
    double v;
    if (d->type == SL_PARAM_ENUM && choice_index(d->choices, val) >= 0) {
        v = (double)choice_index(d->choices, val);
    } else {
        char *end = NULL;
        errno = 0;
        v = (*val && !strchr(" \t\n\v\f\r", *val)) ? strtod(val, &end) : 0.0;
        /* ERANGE: overflow (+-HUGE_VAL), or underflow, which C also flags for a subnormal result
         * (1e-320 is a double: kept); a value that underflows to 0 is out of range */
        const int range = errno == ERANGE && (isinf(v) || v == 0.0);
        if (!*val || strchr(" \t\n\v\f\r", *val) || end == val || *end != '\0' || range) {
            if (d->type == SL_PARAM_ENUM)
                sl_err_set(err, "dataset '%s': parameter %s='%s' is not one of %s", ds->name, d->name,
                        val, d->choices);
            else
                sl_err_set(err, "dataset '%s': parameter %s='%s' is not a number%s", ds->name, d->name,
                        val, !range ? "" : v == 0.0 ? " (it underflows to 0 in a double)" : " (out of double range)");
            return -1;
        }
    }
    if (check_value(ds, d, v, err)) return -1;
    p->v[idx] = v;
    return 0;
}

double sl_params_get(const sl_dataset *ds, const sl_params *p, const char *key)
{
    if (!ds || !p || !key) return NAN;
    for (int k = 0; k < ds->nparams; k++)
        if (!strcmp(ds->params[k].name, key)) return p->v[k];
    return NAN;
}

/* Largest n accepted: indices stay exact in a double (2^52) with room to spare. */
#define SL_N_MAX (1ull << 48)

/* The 16-bit formats overflow early (float16 at 65520): parameters that send a value of a
 * family other than `special` (and nrm2-table, whose Inf and NaN cases are LAPACK's, and
 * lse-masked, whose -Inf masks are its point; its finite values are checked by its own fill) to
 * +-Inf are refused, naming the first such value. */
static int check_half_finite(const sl_dataset *ds, sl_dtype dt, uint64_t count, const void *out,
                             sl_err *err)
{
    const uint16_t *h = out, expo = dt == SL_F16 ? 0x7c00u : 0x7f80u;
    for (uint64_t j = 0; j < count; j++)
        if ((h[j] & expo) == expo)
            return sl_err_set(err, "dataset '%s': a value overflows %s (largest %g): choose parameters "
                              "that fit the format", ds->name, sl_dtype_name(dt), sl_fmt_max(dt));
    return 0;
}

int sl_dataset_generate(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                        const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    if (!ds || !ds->fill) {
        sl_err_set(err, "sl_dataset_generate: no dataset");
        return -1;
    }
    if (!sl_dtype_valid(dt)) {
        sl_err_set(err, "dataset '%s': unknown dtype %d", ds->name, (int)dt);
        return -1;
    }
    if (n > SL_N_MAX) {
        sl_err_set(err, "dataset '%s': n=%llu exceeds the largest supported size 2^48", ds->name,
                (unsigned long long)n);
        return -1;
    }
    if (start > n || count > n - start) {
        sl_err_set(err, "dataset '%s': slice [%llu, %llu+%llu) is outside [0, n=%llu)", ds->name,
                (unsigned long long)start, (unsigned long long)start, (unsigned long long)count,
                (unsigned long long)n);
        return -1;
    }
    if (count > 0 && !out) {
        sl_err_set(err, "dataset '%s': NULL output buffer", ds->name);
        return -1;
    }
    sl_params def;
    if (!p) {
        sl_params_defaults(ds, &def);
        p = &def;
    }
    for (int k = 0; k < ds->nparams; k++)
        if (check_value(ds, &ds->params[k], p->v[k], err)) return -1;
    if (count == 0) return 0;
    if (ds->fill(ds, dt, seed, n, p, start, count, out, err)) return -1;
    return sl_dtype_is_half(dt) && ds != &sl_ds_special && ds != &sl_ds_nrm2_table && ds != &sl_ds_lse_masked
               ? check_half_finite(ds, dt, count, out, err) : 0;
}

typedef struct {
    const sl_dataset *ds;
    sl_dtype dt;
    uint64_t seed, n, start, count;
    const sl_params *p;
    void *out;
    sl_err err;
    int rc;
} gen_job;

static void *gen_job_run(void *arg)
{
    gen_job *j = arg;
    j->rc = sl_dataset_generate(j->ds, j->dt, j->seed, j->n, j->p, j->start, j->count, j->out, &j->err);
    return NULL;
}

int sl_dataset_generate_threads(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                                const sl_params *p, uint64_t start, uint64_t count, void *out,
                                unsigned threads, sl_err *err)
{
    if (threads > SL_GEN_MAX_THREADS) threads = SL_GEN_MAX_THREADS;
    if (threads > count / SL_GEN_MIN_PER_THREAD) threads = (unsigned)(count / SL_GEN_MIN_PER_THREAD);
    if (threads <= 1 || !sl_dtype_valid(dt))
        return sl_dataset_generate(ds, dt, seed, n, p, start, count, out, err);
    gen_job job[SL_GEN_MAX_THREADS];
    pthread_t tid[SL_GEN_MAX_THREADS];
    int started[SL_GEN_MAX_THREADS];
    const size_t sz = sl_dtype_size(dt);
    for (unsigned t = 0; t < threads; t++) {
        uint64_t lo = count / threads * t + (t < count % threads ? t : count % threads);
        job[t] = (gen_job){ds, dt, seed, n, start + lo, count / threads + (t < count % threads),
                           p, (char *)out + lo * sz, {{0}}, 0};
        started[t] = pthread_create(&tid[t], NULL, gen_job_run, &job[t]) == 0;
        if (!started[t]) gen_job_run(&job[t]);   /* no thread: this one does it */
    }
    int rc = 0;
    for (unsigned t = 0; t < threads; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        if (job[t].rc && !rc) {
            rc = -1;
            if (err) *err = job[t].err;           /* the first piece's message */
        }
    }
    return rc;
}

uint64_t sl_rng_u64(uint64_t seed, uint64_t stream, uint64_t i) { return sl_rng_at(sl_rng_key(seed, stream), i); }

double sl_rng_unit(uint64_t seed, uint64_t stream, uint64_t i) { return sl_u53(sl_rng_u64(seed, stream, i)); }


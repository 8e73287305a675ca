/* sumlab.c: libsumlab's host side (sumlab/sumlab.h): the registries, a variant's twin or the
 * exact reference on host memory, the judge, the exact value as text and the mergeable states,
 * over the operation and variant registries, reference/ and experiments/mpi/'s states. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sumlab/half.h"
#include "sl_lib.h"
#include "sl_measure.h"
#include "sl_reference.h"

#ifndef SUMLAB_VERSION_STRING
#define SUMLAB_VERSION_STRING "0.0.0"
#endif

const char *sumlab_version(void) { return SUMLAB_VERSION_STRING; }
void sumlab_free(void *p) { free(p); }

sumlab_status sl_lib_fail(sumlab_status st, sl_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sl_err_vset(err, fmt, ap);
    va_end(ap);
    return st;
}

/* A failure of a layer below, its message already in e: out of memory or a bad argument. */
static sumlab_status layer_fail(const sl_err *e, sl_err *err)
{
    if (err && err != e) memcpy(err->msg, e->msg, sizeof err->msg);
    return strstr(e->msg, "out of memory") ? SUMLAB_ENOMEM : SUMLAB_EINVAL;
}

/* ---- the registries --------------------------------------------------------------------- */
static void op_info(const sl_operation *o, sumlab_op_info *out)
{
    out->name = o->name;
    out->inputs = o->inputs;
    out->exact_variant = o->exact_variant;
    out->description = o->description;
}

size_t sumlab_op_count(void) { return sl_op_count(); }

sumlab_status sumlab_op_at(size_t i, sumlab_op_info *out, sl_err *err)
{
    const sl_operation *o = sl_op_at(i);
    if (!out) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_op_at: out is NULL");
    if (!o)
        return sl_lib_fail(SUMLAB_EINVAL, err, "operation index %zu out of range (%zu operations)",
                           i, sl_op_count());
    op_info(o, out);
    return SUMLAB_OK;
}

static sumlab_status find_op(const char *name, const sl_operation **out, sl_err *err)
{
    if (!name) {
        *out = sl_op_default();
        return SUMLAB_OK;
    }
    sl_err e = {{0}};
    if (sl_op_parse(name, out, &e)) return layer_fail(&e, err);
    return SUMLAB_OK;
}

sumlab_status sumlab_op_find(const char *name, sumlab_op_info *out, sl_err *err)
{
    const sl_operation *o;
    if (!out) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_op_find: out is NULL");
    if (!name) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_op_find: name is NULL");
    sumlab_status st = find_op(name, &o, err);
    if (st) return st;
    op_info(o, out);
    return SUMLAB_OK;
}

static void variant_info(const sl_variant *v, sumlab_variant_info *out)
{
    out->name = v->name;
    out->op = v->op;
    out->family = v->family;
    out->determinism = sl_determinism_name(v->determinism);
    out->description = v->description;
    out->dtypes = v->dtypes;
    out->max_n = v->max_n;
    out->has_cpu = sl_variant_has_cpu(v) || sl_op_is_exact(v);   /* one or two inputs (dot) */
    out->has_gpu = sl_variant_has_gpu(v) && v->workspace != NULL;
    /* sumlab_state_new makes sum states: another operation's variant of the same name has none */
    out->has_state = sl_op_of(v) == sl_op_find("sum") && sl_state_kind_find(v->name) != NULL;
}

size_t sumlab_variant_count(void) { return sl_variant_count(); }

sumlab_status sumlab_variant_at(size_t i, sumlab_variant_info *out, sl_err *err)
{
    const sl_variant *v = sl_variant_at(i);
    if (!out) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_variant_at: out is NULL");
    if (!v)
        return sl_lib_fail(SUMLAB_EINVAL, err, "variant index %zu out of range (%zu variants)", i,
                           sl_variant_count());
    variant_info(v, out);
    return SUMLAB_OK;
}

/* item appended to the ", "-separated list buf (len bytes, *used of them written) */
static void list_add(char *buf, size_t len, size_t *used, const char *item)
{
    if (*used >= len) return;
    int w = snprintf(buf + *used, len - *used, "%s%s", *used ? ", " : "", item);
    if (w > 0) *used += (size_t)w;
}

/* op's variants by name, ", "-separated, into names (cut with "..." where it would not fit) */
static void op_variant_names(const char *op, char *names, size_t size)
{
    size_t used = 0;
    names[0] = '\0';
    for (size_t i = 0; i < sl_variant_count(); i++)
        if (!strcmp(sl_variant_at(i)->op, op)) list_add(names, size, &used, sl_variant_at(i)->name);
    if (used >= size - 1) memcpy(names + size - 4, "...", 4);
}

/* op: NULL for the first variant of that name, else that operation's: a name unknown, or of
 * another operation's variant, is refused with the operation's variants listed. what: the
 * message's prefix ("" or e.g. "bound_of: ") */
static sumlab_status find_variant(const char *op, const char *name, const sl_variant **out,
                                  const char *what, sl_err *err)
{
    if (!name) return sl_lib_fail(SUMLAB_EINVAL, err, "%sno variant named (NULL)", what);
    *out = sl_variant_find_op(op, name);
    if (*out) return SUMLAB_OK;
    const sl_variant *other = sl_variant_find(name);
    if (!op) {
        *out = other;
        if (other) return SUMLAB_OK;
        return sl_lib_fail(SUMLAB_EINVAL, err, "%sunknown variant '%.64s'%s (sumlab_variant_at in C, "
                           "sumlab.variants() in Python list them)", what, name,
                           strlen(name) > 64 ? "..." : "");
    }
    char names[1024];
    op_variant_names(op, names, sizeof names);
    if (other)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%svariant '%s' computes %s, not %s (%s's variants: %s)",
                           what, other->name, other->op, op, op, names);
    return sl_lib_fail(SUMLAB_EINVAL, err, "%sunknown variant '%.64s'%s of %s (its variants: %s)",
                       what, name, strlen(name) > 64 ? "..." : "", op, names);
}

sumlab_status sumlab_variant_find(const char *name, sumlab_variant_info *out, sl_err *err)
{
    const sl_variant *v;
    if (!out) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_variant_find: out is NULL");
    sumlab_status st = find_variant(NULL, name, &v, "", err);
    if (st) return st;
    variant_info(v, out);
    return SUMLAB_OK;
}

/* ---- argument checks ---------------------------------------------------------------------- */
static void dtype_list(unsigned mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < SL_NDTYPES; d++)
        if (mask & SL_DTYPE_MASK((sl_dtype)d)) list_add(buf, len, &used, sl_dtype_name((sl_dtype)d));
}

static sumlab_status check_data(const sl_operation *o, const char *what, const void *x,
                                const void *y, uint64_t n, sl_dtype dt, sl_err *err)
{
    if (!sl_dtype_valid(dt)) return sl_lib_fail(SUMLAB_EINVAL, err, "unknown dtype %d", (int)dt);
    if (n >= SL_LIB_MAX_N)
        return sl_lib_fail(SUMLAB_EINVAL, err, "n = %llu is too large (n < 2^40)",
                           (unsigned long long)n);
    if (n > 0 && !x) return sl_lib_fail(SUMLAB_EINVAL, err, "%s: x is NULL with n = %llu > 0", what,
                                        (unsigned long long)n);
    if (o->inputs == 1 && y)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: operation '%s' reads one array (y must be NULL)",
                           what, o->name);
    if (o->inputs == 2 && n > 0 && !y)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: operation '%s' reads two arrays (y is NULL)",
                           what, o->name);
    const size_t es = sl_dtype_size(dt);
    if ((x && (uintptr_t)x % es) || (y && (uintptr_t)y % es))
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: the input is not aligned to its %zu-byte %s elements",
                           what, es, sl_dtype_name(dt));
    return SUMLAB_OK;
}

sumlab_status sl_lib_check_call(const char *op, const char *variant, const void *x, const void *y,
                                uint64_t n, sl_dtype dt, const sl_operation **opp,
                                const sl_variant **vp, sl_err *err)
{
    sumlab_status st = find_op(op, opp, err);
    if (st) return st;
    if ((st = find_variant((*opp)->name, variant, vp, "", err))) return st;
    const sl_operation *o = *opp;
    const sl_variant *v = *vp;
    if ((st = check_data(o, v->name, x, y, n, dt, err))) return st;
    if (!(v->dtypes & SL_DTYPE_MASK(dt))) {
        char takes[64];
        dtype_list(v->dtypes, takes, sizeof takes);
        return sl_lib_fail(SUMLAB_EINVAL, err, "variant '%s' does not take %s input (it takes %s)",
                           v->name, sl_dtype_name(dt), takes);
    }
    if (v->max_n && n > v->max_n)
        return sl_lib_fail(SUMLAB_EINVAL, err, "variant '%s' accepts at most n = %llu (got %llu)",
                           v->name, (unsigned long long)v->max_n, (unsigned long long)n);
    return SUMLAB_OK;
}

sumlab_status sl_lib_launch_check(const sumlab_launch *l, sl_err *err)
{
    if (!l) return SUMLAB_OK;
    if (l->block && (l->block < 32 || l->block > 1024 || (l->block & (l->block - 1))))
        return sl_lib_fail(SUMLAB_EINVAL, err, "launch block %u: a power of two in [32, 1024] (or 0)", l->block);
    if (l->grid > 0x7fffffffu)
        return sl_lib_fail(SUMLAB_EINVAL, err, "launch grid %u: at most 2^31 - 1 (or 0)", l->grid);
    if (l->items > (1u << 20))
        return sl_lib_fail(SUMLAB_EINVAL, err, "launch items %u: at most 2^20 (or 0)", l->items);
    if (l->sm_count > 4096)
        return sl_lib_fail(SUMLAB_EINVAL, err, "launch sm_count %u: at most 4096 (or 0)", l->sm_count);
    return SUMLAB_OK;
}

sumlab_params sumlab_params_default(void)
{
    sumlab_params p;
    memset(&p, 0, sizeof p);
    p.ddof = SL_DDOF_DEFAULT;
    return p;
}

sumlab_status sl_lib_params(const sumlab_params *p, sl_op_params *out, sl_err *err)
{
    *out = sl_op_params_default();
    if (!p) return SUMLAB_OK;
    for (size_t i = 0; i < sizeof p->reserved / sizeof p->reserved[0]; i++)
        if (p->reserved[i])
            return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_params: reserved field %zu is %u (must be 0)", i,
                               p->reserved[i]);
    if (p->ddof > SL_DDOF_MAX)
        return sl_lib_fail(SUMLAB_EINVAL, err, "ddof %u: at most %u", p->ddof, SL_DDOF_MAX);
    out->ddof = p->ddof;
    return SUMLAB_OK;
}

void sl_lib_launch(const sumlab_launch *launch, const sl_op_params *params, sl_launch *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->ddof = params ? params->ddof : SL_DDOF_DEFAULT;   /* var/std: as the reference's */
    if (!launch) return;
    cfg->block = launch->block;
    cfg->grid = launch->grid;
    cfg->items = launch->items;
    cfg->sm_count = launch->sm_count;
}

/* ---- the exact reference ------------------------------------------------------------------ */
static unsigned ref_threads(uint64_t n)
{
    if (n < 2 * SL_EXACT_MIN_PER_THREAD) return 1;
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1u : c > 16 ? 16u : (unsigned)c;
}

/* o's reference over x (and y) into ref (clear it afterwards, success or not). */
static sumlab_status reference(const sl_operation *o, const sl_op_params *p, sl_reference *ref,
                               const void *x, const void *y, uint64_t n, sl_dtype dt, sl_err *err)
{
    const void *xs[2] = {x, y};
    sl_err e = {{0}};
    if (o->reference(ref, xs, n, dt, p, ref_threads(n), &e)) return layer_fail(&e, err);
    return SUMLAB_OK;
}

/* ---- running a variant on host memory ------------------------------------------------------ */
sumlab_status sumlab_reduce_host(const char *op, const char *variant, const void *x,
                                 const void *y, uint64_t n, sl_dtype dt,
                                 const sumlab_launch *launch, double *result, sl_err *err)
{
    return sumlab_reduce_host_ex(op, NULL, variant, x, y, n, dt, launch, result, err);
}

sumlab_status sumlab_reduce_host_ex(const char *op, const sumlab_params *params, const char *variant,
                                    const void *x, const void *y, uint64_t n, sl_dtype dt,
                                    const sumlab_launch *launch, double *result, sl_err *err)
{
    const sl_operation *o;
    const sl_variant *v;
    sl_op_params pp;
    if (!result) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_reduce_host: result is NULL");
    sumlab_status st = sl_lib_params(params, &pp, err);
    if (!st) st = sl_lib_check_call(op, variant, x, y, n, dt, &o, &v, err);
    if (!st) st = sl_lib_launch_check(launch, err);
    if (st) return st;
    if (sl_op_is_exact(v)) {
        sl_reference ref;
        st = reference(o, &pp, &ref, x, y, n, dt, err);
        if (!st) *result = ref.rounded;
        sl_reference_clear(&ref);
        return st;
    }
    if (!sl_variant_has_cpu(v))
        return sl_lib_fail(SUMLAB_EUNSUPPORTED, err, "variant '%s' has no CPU twin%s", v->name,
                           sl_variant_has_gpu(v) ? " (it runs on the GPU only: sumlab_reduce_device)" : "");
    sl_launch cfg;
    sl_lib_launch(launch, &pp, &cfg);
    cfg.addr_mod = (uint32_t)((uintptr_t)x % 256u);
    sl_variant_resolve(v, &cfg, n, dt);
    sl_err e = {{0}};
    const void *const in[2] = {x, y};   /* y: a two-input operation's second array (dot) */
    if (sl_variant_cpu_in(v, in, n, dt, &cfg, result, &e)) return layer_fail(&e, err);
    return SUMLAB_OK;
}

/* ---- the judge ----------------------------------------------------------------------------- */
static double round_to(double value, sl_dtype dt)
{
    if (dt == SL_F32) return (double)(float)value;
    if (sl_dtype_is_half(dt)) return sl_half_round(value, dt);
    return value;
}

static int same_bits(double a, double b) { return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a); }

void sumlab_exact_free(sumlab_exact *e)
{
    if (!e) return;
    free(e->hex);
    free(e->dec);
    e->hex = e->dec = NULL;
    e->bits = 0;
}

/* S as text, malloc'ed into *out. */
static sumlab_status exact_text(const sl_reference *ref, sumlab_exact *out, sl_err *err)
{
    sl_exact_text t;
    if (sl_reference_exact_text(ref, &t))
        return sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for the exact value's text");
    size_t lh = strlen(t.hex) + 1, ld = strlen(t.dec) + 1;
    out->hex = malloc(lh);
    out->dec = malloc(ld);
    out->bits = t.bits;
    if (out->hex) memcpy(out->hex, t.hex, lh);
    if (out->dec) memcpy(out->dec, t.dec, ld);
    sl_exact_text_free(&t);
    if (!out->hex || !out->dec) {
        sumlab_exact_free(out);
        return sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for the exact value's text");
    }
    return SUMLAB_OK;
}

/* The judge: value rounded once to value_as (exact_in_dt: it must already be a value of dt). */
static sumlab_status judge(const char *op, const sumlab_params *params, const void *x, const void *y,
                           uint64_t n, sl_dtype dt, double value, sl_dtype value_as, int exact_in_dt,
                           const char *bound_of, sumlab_judgement *out, sumlab_exact *exact, sl_err *err)
{
    const sl_operation *o;
    const sl_variant *bv = NULL;
    sl_op_params pp;
    if (exact) memset(exact, 0, sizeof *exact);
    if (!out) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_judge: out is NULL");
    sumlab_status pst = sl_lib_params(params, &pp, err);
    if (pst) return pst;
    if ((int)value_as < 0 || (int)value_as >= SL_NDTYPES)
        return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_judge_as: value_as %d is no format", (int)value_as);
    sumlab_status st = find_op(op, &o, err);
    if (st) return st;
    if ((st = check_data(o, "judge", x, y, n, dt, err))) return st;
    if (bound_of) {
        if ((st = find_variant(o->name, bound_of, &bv, "bound_of: ", err))) return st;
        if (!(bv->dtypes & SL_DTYPE_MASK(dt)))
            return sl_lib_fail(SUMLAB_EINVAL, err, "bound_of: variant '%s' does not take %s input",
                               bv->name, sl_dtype_name(dt));
    }
    double r = round_to(value, value_as);
    if (exact_in_dt && !same_bits(r, value))
        return sl_lib_fail(SUMLAB_EINVAL, err, "value %a is not a %s value (value_is_exact = 1)", value,
                           sl_dtype_name(dt));
    sl_reference ref;
    st = reference(o, &pp, &ref, x, y, n, dt, err);
    if (!st) {
        sl_value_judgement j;
        sl_judge_value(&ref, bv, r, &j);
        out->exact = ref.rounded;
        out->exact_f64 = ref.rounded_f64;
        out->abs_err = j.err.abs_err;
        out->rel_err = j.err.rel_err;
        out->ulps = j.err.ulps;
        out->ulps_f64 = j.ulps_f64;
        out->cond = ref.cond;
        out->bound = j.bound;
        out->bound_ratio = j.bound_ratio;
        if (exact) st = exact_text(&ref, exact, err);
    }
    sl_reference_clear(&ref);
    return st;
}

sumlab_status sumlab_judge(const char *op, const void *x, const void *y, uint64_t n, sl_dtype dt,
                           double value, int value_is_exact, const char *bound_of,
                           sumlab_judgement *out, sl_err *err)
{
    return judge(op, NULL, x, y, n, dt, value, dt, value_is_exact, bound_of, out, NULL, err);
}

sumlab_status sumlab_judge_as(const char *op, const void *x, const void *y, uint64_t n, sl_dtype dt,
                              double value, sl_dtype value_as, const char *bound_of,
                              sumlab_judgement *out, sumlab_exact *exact, sl_err *err)
{
    return judge(op, NULL, x, y, n, dt, value, value_as, 0, bound_of, out, exact, err);
}

sumlab_status sumlab_judge_ex(const char *op, const sumlab_params *params, const void *x, const void *y,
                              uint64_t n, sl_dtype dt, double value, sl_dtype value_as,
                              const char *bound_of, sumlab_judgement *out, sumlab_exact *exact,
                              sl_err *err)
{
    return judge(op, params, x, y, n, dt, value, value_as, 0, bound_of, out, exact, err);
}

sumlab_status sumlab_exact_hex(const char *op, const void *x, const void *y, uint64_t n,
                               sl_dtype dt, char **hex, sl_err *err)
{
    return sumlab_exact_hex_ex(op, NULL, x, y, n, dt, hex, err);
}

sumlab_status sumlab_exact_hex_ex(const char *op, const sumlab_params *params, const void *x,
                                  const void *y, uint64_t n, sl_dtype dt, char **hex, sl_err *err)
{
    const sl_operation *o;
    sl_op_params pp;
    if (!hex) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_exact_hex: hex is NULL");
    *hex = NULL;
    sumlab_status st = sl_lib_params(params, &pp, err);
    if (!st) st = find_op(op, &o, err);
    if (st) return st;
    if ((st = check_data(o, "exact", x, y, n, dt, err))) return st;
    sl_reference ref;
    st = reference(o, &pp, &ref, x, y, n, dt, err);
    if (!st) {
        sl_exact_text t;
        if (sl_reference_exact_text(&ref, &t)) {
            st = sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for the exact value's text");
        } else {
            size_t len = strlen(t.hex) + 1;
            *hex = malloc(len);
            if (*hex) memcpy(*hex, t.hex, len);
            else st = sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for the exact value's text");
            sl_exact_text_free(&t);
        }
    }
    sl_reference_clear(&ref);
    return st;
}

/* ---- mergeable states ---------------------------------------------------------------------- */
static sumlab_status state_alloc(const sl_state_kind *k, sl_dtype dt, sumlab_state **out, sl_err *err)
{
    sumlab_state *s = calloc(1, sizeof *s);
    if (s) {
        s->kind = k;
        s->dt = dt;
        s->bytes = sl_state_blob_bytes(k, dt);
        s->blob = malloc(s->bytes);
    }
    if (!s || !s->blob) {
        sumlab_state_free(s);
        return sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for a %s state", k->variant);
    }
    *out = s;
    return SUMLAB_OK;
}

sumlab_status sumlab_state_new(const char *variant, sl_dtype dt, sumlab_state **out, sl_err *err)
{
    const sl_variant *v;
    if (!out) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_new: out is NULL");
    *out = NULL;
    sumlab_status st = find_variant("sum", variant, &v, "", err);
    if (st) return st;
    const sl_state_kind *k = sl_state_kind_find(v->name);
    if (!k)
        return sl_lib_fail(SUMLAB_EUNSUPPORTED, err,
                           "variant '%s' has no mergeable state (order-independent variants have one: "
                           "reproducible, superacc, exact)", v->name);
    if (!sl_dtype_valid(dt)) return sl_lib_fail(SUMLAB_EINVAL, err, "unknown dtype %d", (int)dt);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_lib_fail(SUMLAB_EINVAL, err, "variant '%s' does not take %s input", v->name,
                           sl_dtype_name(dt));
    sumlab_state *s = NULL;
    if ((st = state_alloc(k, dt, &s, err))) return st;
    sl_err e = {{0}};
    if (sl_state_blob_sum(k, NULL, 0, dt, s->blob, &e)) {   /* the state of nothing */
        sumlab_state_free(s);
        return layer_fail(&e, err);
    }
    *out = s;
    return SUMLAB_OK;
}

void sumlab_state_free(sumlab_state *s)
{
    if (!s) return;
    free(s->blob);
    free(s);
}

sumlab_status sl_lib_state_add_host(sumlab_state *s, const void *x, uint64_t n, sl_err *err)
{
    if (n == 0) return SUMLAB_OK;
    unsigned char *tmp = malloc(s->bytes);
    if (!tmp) return sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for a %s state", s->kind->variant);
    sl_err e = {{0}};
    sumlab_status st = SUMLAB_OK;
    if (sl_state_blob_sum(s->kind, x, n, s->dt, tmp, &e)) st = layer_fail(&e, err);
    else if (sl_state_blob_merge(s->blob, tmp))   /* cannot differ: both framed here */
        st = sl_lib_fail(SUMLAB_EINVAL, err, "%s: state headers differ", s->kind->variant);
    free(tmp);
    return st;
}

sumlab_status sumlab_state_add(sumlab_state *s, const void *x, uint64_t n, sl_err *err)
{
    if (!s) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_add: state is NULL");
    const sl_operation *o = sl_op_default();
    sumlab_status st = check_data(o, s->kind->variant, x, NULL, n, s->dt, err);
    if (st) return st;
    return sl_lib_state_add_host(s, x, n, err);
}

sumlab_status sumlab_state_merge(sumlab_state *dst, const sumlab_state *src, sl_err *err)
{
    if (!dst || !src) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_merge: a state is NULL");
    if (dst->kind != src->kind || dst->dt != src->dt)
        return sl_lib_fail(SUMLAB_EINVAL, err, "cannot merge a %s %s state into a %s %s state",
                           src->kind->variant, sl_dtype_name(src->dt), dst->kind->variant,
                           sl_dtype_name(dst->dt));
    return sumlab_state_merge_saved(dst->blob, src->blob, dst->bytes, err);
}

size_t sumlab_state_size(const sumlab_state *s) { return s ? s->bytes : 0; }

sumlab_status sumlab_state_save(const sumlab_state *s, void *buf, size_t len, sl_err *err)
{
    if (!s || !buf) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_save: state or buf is NULL");
    if (len < s->bytes)
        return sl_lib_fail(SUMLAB_EINVAL, err, "a saved %s %s state takes %zu bytes (buffer of %zu)",
                           s->kind->variant, sl_dtype_name(s->dt), s->bytes, len);
    memcpy(buf, s->blob, s->bytes);
    return SUMLAB_OK;
}

/* The kind and dtype of saved bytes of length len (their header and length checked). */
static sumlab_status saved_kind(const void *buf, size_t len, const char *what,
                                const sl_state_kind **k, sl_dtype *dt, sl_err *err)
{
    if (!buf) return sl_lib_fail(SUMLAB_EINVAL, err, "%s: NULL bytes", what);
    if (len < SL_STATE_HDR || !(*k = sl_state_blob_kind(buf, dt)))
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: the bytes are no saved sumlab state", what);
    size_t want = sl_state_blob_bytes(*k, *dt);
    if (len != want)
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: a saved %s %s state is %zu bytes, got %zu", what,
                           (*k)->variant, sl_dtype_name(*dt), want, len);
    if (!sl_state_blob_valid(buf))
        return sl_lib_fail(SUMLAB_EINVAL, err, "%s: the bytes are no %s %s state sumlab makes (damaged: "
                           "an index, flag or limb out of range)", what, (*k)->variant, sl_dtype_name(*dt));
    return SUMLAB_OK;
}

sumlab_status sumlab_state_load(const void *buf, size_t len, sumlab_state **out, sl_err *err)
{
    const sl_state_kind *k = NULL;
    sl_dtype dt = SL_F32;
    if (!out) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_load: out is NULL");
    *out = NULL;
    sumlab_status st = saved_kind(buf, len, "sumlab_state_load", &k, &dt, err);
    if (st) return st;
    sumlab_state *s = NULL;
    if ((st = state_alloc(k, dt, &s, err))) return st;
    memcpy(s->blob, buf, len);
    *out = s;
    return SUMLAB_OK;
}

sumlab_status sumlab_state_merge_saved(void *dst, const void *src, size_t len, sl_err *err)
{
    const sl_state_kind *kd = NULL, *ks = NULL;
    sl_dtype dd = SL_F32, ds = SL_F32;
    sumlab_status st = saved_kind(dst, len, "sumlab_state_merge_saved (dst)", &kd, &dd, err);
    if (st) return st;
    if ((st = saved_kind(src, len, "sumlab_state_merge_saved (src)", &ks, &ds, err))) return st;
    if (kd != ks || dd != ds)
        return sl_lib_fail(SUMLAB_EINVAL, err, "cannot merge a saved %s %s state into a saved %s %s state",
                           ks->variant, sl_dtype_name(ds), kd->variant, sl_dtype_name(dd));
    unsigned char *copy = NULL;
    if (dst == src) {   /* a state merged into itself: the merges read src while writing dst */
        if (!(copy = malloc(len)))
            return sl_lib_fail(SUMLAB_ENOMEM, err, "out of memory for a copy of the state");
        memcpy(copy, src, len);
        src = copy;
    }
    int rc = sl_state_blob_merge(dst, src);
    free(copy);
    if (rc) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_merge_saved: state headers differ");
    return SUMLAB_OK;
}

sumlab_status sumlab_state_info(const sumlab_state *s, const char **variant, sl_dtype *dt,
                                sl_err *err)
{
    if (!s) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_info: state is NULL");
    if (variant) *variant = s->kind->variant;
    if (dt) *dt = s->dt;
    return SUMLAB_OK;
}

sumlab_status sumlab_state_result(const sumlab_state *s, double *result, sl_err *err)
{
    if (!s || !result) return sl_lib_fail(SUMLAB_EINVAL, err, "sumlab_state_result: state or result is NULL");
    *result = sl_state_blob_finish(s->blob);
    return SUMLAB_OK;
}

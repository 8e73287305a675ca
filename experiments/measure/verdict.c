/* verdict.c: the self-check verdict (sl_verdict.h): one decision, one message per failed check. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sl_verdict.h"

/* C99 hex of a result (every bit; as sl_fmt_hex writes it). */
static const char *hex(char *b, size_t len, double v)
{
    snprintf(b, len, "%a", v);
    return b;
}

static int same_bits(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a);
}

static void fail(sl_verdict *out, const sl_verdict_facts *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void fail(sl_verdict *out, const sl_verdict_facts *f, const char *fmt, ...)
{
    if (out->failed >= SL_VERDICT_MAX) return;
    char what[SL_ERRLEN / 2 - 256];
    va_list ap;
    va_start(ap, fmt);
    sl_vfit(what, sizeof what, fmt, ap);
    va_end(ap);
    char *m = out->msg[out->failed++];
    if (f->where)
        snprintf(m, sizeof out->msg[0], "SELF-CHECK FAILED: %.100s (%.100s) %s", f->variant, f->where, what);
    else
        snprintf(m, sizeof out->msg[0], "SELF-CHECK FAILED: %.100s %s", f->variant, what);
}

int sl_verdict_decide(const sl_reference *ref, const sl_verdict_facts *f, sl_verdict *out)
{
    char h[64], e[64];
    memset(out, 0, sizeof *out);
    if (f->twin_checked && !f->twin_match)
        fail(out, f, "gave %s on the GPU, which differs from its CPU twin bit for bit",
             hex(h, sizeof h, f->result));
    if (f->repeated && f->claim != SL_DET_NONDETERMINISTIC && f->distinct > 1)
        fail(out, f, "is %s but gave %llu distinct results over %d repetitions",
             sl_determinism_name(f->claim), (unsigned long long)f->distinct, f->reps);
    if (sl_bound_violated(ref, f->worst_abs_err, f->bound)) {
        if (f->nonfinite && isfinite(f->bound))
            fail(out, f, "gave the non-finite result %s where the exact result is finite and the "
                 "bound is %g", hex(h, sizeof h, f->result), f->bound);
        else
            fail(out, f, "gave %s with error %g above its bound %g", hex(h, sizeof h, f->result),
                 f->worst_abs_err, f->bound);
    }
    if (f->claim == SL_DET_CORRECTLY_ROUNDED && !f->all_rounded)
        fail(out, f, "is correctly-rounded but gave %s; the exact result %s %s",
             hex(h, sizeof h, f->result), ref->finite || ref->overflow ? "rounds to" : "is",
             hex(e, sizeof e, ref->rounded));
    return out->failed;
}

void sl_verdict_facts_of_results(const sl_reference *ref, const sl_variant *v, uint64_t n,
                                 sl_dtype dt, const sl_launch *cfg, const double *r, int reps,
                                 int repeated, sl_verdict_facts *f)
{
    sl_judgement jd;
    sl_judge_results(ref, v, n, dt, cfg, r, reps, &jd);
    memset(f, 0, sizeof *f);
    f->variant = v->name;
    f->claim = v->determinism;
    f->repeated = repeated;
    f->distinct = jd.distinct;
    f->reps = reps;
    f->result = reps > 0 ? r[0] : NAN;
    f->worst_abs_err = jd.worst_abs_err;
    f->bound = jd.bound;
    f->all_rounded = 1;
    for (int i = 0; i < reps; i++) {
        f->nonfinite |= !isfinite(r[i]);
        f->all_rounded &= same_bits(r[i], ref->rounded);
    }
}

void sl_verdict_facts_of_row(const sl_reference *ref, const sl_variant *v, const sl_row *row,
                             sl_verdict_facts *f)
{
    /* the row's aggregate figures: what sl_judge_results finds over the results themselves */
    const int gpu = row->backend && !strcmp(row->backend, "gpu");
    memset(f, 0, sizeof *f);
    f->variant = v->name;
    f->claim = v->determinism;
    f->repeated = gpu || v->determinism != SL_DET_NONDETERMINISTIC;
    f->distinct = row->distinct;
    f->reps = row->reps;
    f->result = row->reps > 0 ? row->result : NAN;
    f->worst_abs_err = row->reps > 0 ? row->abs_err_max : 0.0;
    f->bound = ref->finite || ref->overflow ? sl_variant_bound(v, ref, row->n, row->dt, &row->cfg) : NAN;
    f->nonfinite = row->nonfinite;
    /* every result rounded: every distinct pattern is (a capped row has more than one) */
    f->all_rounded = !row->capped;
    for (size_t i = 0; i < row->nvalues; i++) f->all_rounded &= same_bits(row->values[i].value, ref->rounded);
    f->where = row->backend;
    f->twin_checked = row->twin_checked;
    f->twin_match = row->twin_match;
}

/* tops.c: the operation registry (sl_ops.h) and the one self-check verdict (sl_verdict.h):
 * every variant computes a registered operation, each operation's exact row is its own variant,
 * lookups and lists refuse what they must, the study's sweeps name registered families and values
 * in their ranges; and each self-check fails exactly on its own fault. */
#include <math.h>
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_ops.h"
#include "sl_test.h"
#include "sl_verdict.h"

static void registry_cases(void)
{
    CHECK(sl_op_count() >= 1, "no operation registered");
    CHECK(sl_op_default() && !strcmp(sl_op_default()->name, "sum"), "the default operation is not sum");
    for (size_t i = 0; i < sl_op_count(); i++) {
        const sl_operation *op = sl_op_at(i);
        CHECK(op->name && op->description && op->reference && op->bound, "op %zu: a field is missing", i);
        CHECK(op->inputs == 1 || op->inputs == 2, "%s: %d inputs", op->name, op->inputs);
        CHECK(sl_op_find(op->name) == op, "%s: find gives another descriptor", op->name);
        const sl_variant *ex = sl_variant_find_op(op->name, op->exact_variant);
        CHECK(ex && sl_op_of(ex) == op && sl_op_is_exact(ex), "%s: its exact row '%s' is not its own variant",
              op->name, op->exact_variant);
        for (size_t j = 0; j < i; j++) CHECK(strcmp(sl_op_at(j)->name, op->name), "%s named twice", op->name);
        /* the study's sweeps name registered families, and the swept values lie in the
         * parameter's range, ascending */
        const sl_dataset *cf = op->cond_family ? sl_dataset_find(op->cond_family) : NULL;
        int pi = -1;
        for (int k = 0; cf && k < cf->nparams; k++)
            if (!strcmp(cf->params[k].name, op->cond_param)) pi = k;
        CHECK(!op->cond_family || pi >= 0, "%s: accuracy-vs-cond's '%s' is no parameter of a family '%s'",
              op->name, op->cond_param, op->cond_family);
        CHECK(!op->cond_values || (op->cond_family && op->cond_nvalues > 0), "%s: sweep values without a family",
              op->name);
        for (int k = 0; pi >= 0 && op->cond_values && k < op->cond_nvalues; k++)
            CHECK(op->cond_values[k] >= cf->params[pi].min && op->cond_values[k] <= cf->params[pi].max &&
                      (k == 0 || op->cond_values[k] > op->cond_values[k - 1]),
                  "%s: sweep value %g of %s out of [%g, %g] or not ascending", op->name, op->cond_values[k],
                  op->cond_param, cf->params[pi].min, cf->params[pi].max);
        for (const char *const *f = op->n_families; f && *f; f++)
            CHECK(sl_dataset_find(*f) != NULL, "%s: accuracy-vs-n family '%s' is not registered", op->name, *f);
        for (const char *const *f = op->det_families; f && *f; f++)
            CHECK(sl_dataset_find(*f) != NULL, "%s: determinism family '%s' is not registered", op->name, *f);
        /* the PyTorch call: "torch." and a name of [A-Za-z0-9_.] (a results row's variant, a chart's
         * file and key), no registry variant's, no other operation's */
        if (op->torch_call) {
            const char *t = op->torch_call;
            CHECK(!strncmp(t, "torch.", 6) && strlen(t) <= 40 && strspn(t, "abcdefghijklmnopqrstuvwxyz"
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") == strlen(t) && sl_op_is_torch_call(t),
                  "%s: torch_call '%s' is not a PyTorch call's name", op->name, t);
            CHECK(!sl_variant_find(t), "%s: torch_call '%s' is a variant's name", op->name, t);
            for (size_t j = 0; j < i; j++)
                CHECK(!sl_op_at(j)->torch_call || strcmp(sl_op_at(j)->torch_call, t), "%s and %s: one torch_call '%s'",
                      sl_op_at(j)->name, op->name, t);
        }
    }
    CHECK(!sl_op_is_torch_call("torch.nope") && !sl_op_is_torch_call(NULL), "sl_op_is_torch_call of no call");
    size_t nexact = 0;
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        CHECK(sl_op_of(v) != NULL, "variant %s computes '%s', which is no registered operation", v->name,
              v->op ? v->op : "(null)");
        nexact += (size_t)sl_op_is_exact(v);
        /* names are unique within an operation: the lookup by (op, name) gives v itself */
        CHECK(sl_variant_find_op(v->op, v->name) == v, "%s of %s: another variant of %s has its name",
              v->name, v->op, v->op);
    }
    CHECK(nexact == sl_op_count(), "%zu exact rows for %zu operations", nexact, sl_op_count());
    const sl_operation *op = NULL;
    sl_err err = {{0}};
    CHECK(sl_op_parse("nope", &op, &err) == -1 && strstr(err.msg, "unknown operation 'nope'") &&
          strstr(err.msg, "sum"), "unknown op: '%s'", err.msg);
    CHECK(sl_op_parse("sum", &op, &err) == 0 && op == sl_op_default(), "parse sum");
    const sl_variant *vs[64];
    size_t nv = 0;
    size_t nsum = 0;
    for (size_t i = 0; i < sl_variant_count(); i++) nsum += !strcmp(sl_variant_at(i)->op, "sum");
    CHECK(sl_op_variants(op, "all", vs, 64, &nv, &err) == 0 && nv == nsum, "all: %zu", nv);
    CHECK(sl_op_variants(op, "kahan,exact", vs, 64, &nv, &err) == 0 && nv == 2 && vs[0] == sl_variant_find("kahan"),
          "named list");
    CHECK(sl_op_variants(op, "kahan,nope", vs, 64, &nv, &err) == -1 && strstr(err.msg, "nope"), "unknown variant");
}

/* One reference, facts that pass, then one fault at a time: each fails alone, with its message. */
static void verdict_cases(void)
{
    const float x[] = {1.0f, 0x1p-24f, 0x1p-24f, 3.0f};   /* S = 4 + 2^-23, a float32 */
    sl_reference ref;
    sl_err err = {{0}};
    CHECK(sl_reference_compute(&ref, x, 4, SL_F32, &err) == 0, "%s", err.msg);
    const sl_variant *v = sl_variant_find("kahan");
    sl_launch cfg = {0};
    sl_variant_resolve(v, &cfg, 4, SL_F32);
    double r[3] = {ref.rounded, ref.rounded, ref.rounded};
    sl_verdict_facts f, g;
    sl_verdict vd;
    sl_verdict_facts_of_results(&ref, v, 4, SL_F32, &cfg, r, 3, 1, &f);
    CHECK(sl_verdict_decide(&ref, &f, &vd) == 0, "a correct result failed: %s", vd.msg[0]);
    g = f; g.twin_checked = 1; g.twin_match = 0;
    CHECK(sl_verdict_decide(&ref, &g, &vd) == 1 && strstr(vd.msg[0], "twin"), "twin: %s", vd.msg[0]);
    g = f; g.distinct = 2;
    CHECK(sl_verdict_decide(&ref, &g, &vd) == 1 && strstr(vd.msg[0], "2 distinct results"), "spread: %s", vd.msg[0]);
    g.claim = SL_DET_NONDETERMINISTIC;
    CHECK(sl_verdict_decide(&ref, &g, &vd) == 0, "a nondeterministic variant's spread failed");
    g = f; g.repeated = 0; g.distinct = 2;
    CHECK(sl_verdict_decide(&ref, &g, &vd) == 0, "a spread that need not agree failed");
    /* the faults below with repeated = 0: the spread check stays out of them */
    /* a result 2^20 ulps off: outside kahan's bound */
    r[1] = ref.rounded + 0x1p-1;
    sl_verdict_facts_of_results(&ref, v, 4, SL_F32, &cfg, r, 3, 0, &g);
    CHECK(sl_verdict_decide(&ref, &g, &vd) >= 1 && strstr(vd.msg[0], "above its bound"), "bound: %s", vd.msg[0]);
    r[1] = INFINITY;
    sl_verdict_facts_of_results(&ref, v, 4, SL_F32, &cfg, r, 3, 0, &g);
    CHECK(sl_verdict_decide(&ref, &g, &vd) >= 1 && strstr(vd.msg[0], "non-finite"), "non-finite: %s", vd.msg[0]);
    /* correctly rounded: one ulp off is a failure even inside a loose bound */
    r[1] = nextafterf((float)ref.rounded, INFINITY);
    const sl_variant *sa = sl_variant_find("superacc");
    sl_verdict_facts_of_results(&ref, sa, 4, SL_F32, &cfg, r, 3, 0, &g);
    g.bound = INFINITY;
    CHECK(sl_verdict_decide(&ref, &g, &vd) == 1 && strstr(vd.msg[0], "correctly-rounded"), "cr: %s", vd.msg[0]);
    r[1] = ref.rounded;
    sl_verdict_facts_of_results(&ref, sa, 4, SL_F32, &cfg, r, 3, 1, &g);
    CHECK(sl_verdict_decide(&ref, &g, &vd) == 0, "superacc's correct result failed: %s", vd.msg[0]);
    sl_reference_clear(&ref);
    /* correctly rounded where the exact result is no number: an Inf input's sum is that Inf, +Inf
     * and -Inf together NaN; any other result fails, the IEEE one passes */
    const float sp[2][3] = {{1.0f, INFINITY, 2.0f}, {1.0f, INFINITY, -INFINITY}};
    for (int k = 0; k < 2; k++) {
        CHECK(sl_reference_compute(&ref, sp[k], 3, SL_F32, &err) == 0, "%s", err.msg);
        const double want = k ? NAN : INFINITY;
        CHECK(!ref.finite && !ref.overflow && (k ? isnan(ref.rounded) : ref.rounded == INFINITY),
              "special reference %d: %a", k, ref.rounded);
        const double wrong[3] = {3.0, k ? INFINITY : -INFINITY, k ? -INFINITY : NAN};
        for (int w = 0; w < 3; w++) {
            double rr[3] = {want, wrong[w], want};
            sl_verdict_facts_of_results(&ref, sa, 3, SL_F32, &cfg, rr, 3, 0, &g);
            CHECK(sl_verdict_decide(&ref, &g, &vd) >= 1 && strstr(vd.msg[vd.failed - 1], "correctly-rounded"),
                  "special %d: %a where the exact result is %a passed", k, wrong[w], want);
        }
        double rr[3] = {want, want, want};
        sl_verdict_facts_of_results(&ref, sa, 3, SL_F32, &cfg, rr, 3, 1, &g);
        CHECK(sl_verdict_decide(&ref, &g, &vd) == 0, "special %d: the IEEE result %a failed: %s", k, want, vd.msg[0]);
        sl_reference_clear(&ref);
    }
}

int main(void)
{
    sl_test_seed();
    registry_cases();
    verdict_cases();
    return sl_test_done("tops");
}

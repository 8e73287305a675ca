/* ops.c: the operation registry (sl_ops.h): each operation's descriptor and the lookups over it.
 * Adding an operation: its reference function (reference/), its bound model (judge.c or a file
 * of its own), its descriptor and one line in SL_OP_LIST; then its variants in kernels/. */
#include <stdio.h>
#include <string.h>
#include "sl_measure.h"
#include "sl_ops.h"

sl_op_params sl_op_params_default(void)
{
    sl_op_params p;
    memset(&p, 0, sizeof p);
    p.ddof = SL_DDOF_DEFAULT;
    return p;
}

static int sum_reference(sl_reference *ref, const void *const *x, uint64_t n, sl_dtype dt,
                         const sl_op_params *p, unsigned threads, sl_err *err)
{
    (void)p;
    return sl_reference_compute_threads(ref, x[0], n, dt, threads ? threads : 1, err);
}

static const sl_operation op_sum = {
    .name = "sum",
    .description = "the sum of one array",
    .inputs = 1,
    .result = SL_RESULT_INPUT_FORMAT,
    .exact_variant = "exact",
    .reference_text = "the exact sum (fixed-point superaccumulator, checked against mpfr_sum) "
                      "rounded once to the input format",
    .metrics = "abs_err rel_err ulps ulps_f64 bound_abs bound_ratio cond",
    .reference = sum_reference,
    .bound = sl_sum_bound,
};

/* mean, var, std, max, min: reference/sl_moments.c (ddof read by var and std). */
static int moment_reference(sl_moment what, sl_reference *ref, const void *const *x, uint64_t n,
                            sl_dtype dt, const sl_op_params *p, unsigned threads, sl_err *err)
{
    const uint32_t ddof = what == SL_MOMENT_VAR || what == SL_MOMENT_STD
                              ? (p ? p->ddof : SL_DDOF_DEFAULT) : 0;
    return sl_reference_moment(ref, what, x[0], n, dt, ddof, threads ? threads : 1, err);
}
#define SL_MOMENT_REFERENCE(fn, what)                                                            \
    static int fn(sl_reference *ref, const void *const *x, uint64_t n, sl_dtype dt,               \
                  const sl_op_params *p, unsigned threads, sl_err *err)                          \
    {                                                                                            \
        return moment_reference(what, ref, x, n, dt, p, threads, err);                           \
    }
SL_MOMENT_REFERENCE(mean_reference, SL_MOMENT_MEAN)
SL_MOMENT_REFERENCE(var_reference, SL_MOMENT_VAR)
SL_MOMENT_REFERENCE(std_reference, SL_MOMENT_STD)
SL_MOMENT_REFERENCE(max_reference, SL_MOMENT_MAX)
SL_MOMENT_REFERENCE(min_reference, SL_MOMENT_MIN)

static const sl_operation op_mean = {
    .name = "mean",
    .description = "the arithmetic mean of one array (n = 0: NaN)",
    .inputs = 1,
    .result = SL_RESULT_INPUT_FORMAT,
    .exact_variant = "exact",
    .reference_text = "the exact sum divided by n, rounded once to the input format",
    .metrics = "abs_err rel_err ulps ulps_f64 bound_abs bound_ratio cond",
    .reference = mean_reference,
    .bound = sl_moment_bound,
};

static const sl_operation op_var = {
    .name = "var",
    .description = "the variance of one array, divided by n - ddof (--ddof, default 1; "
                   "n - ddof <= 0: NaN)",
    .inputs = 1,
    .result = SL_RESULT_INPUT_FORMAT,
    .exact_variant = "exact",
    .reference_text = "(n sum x^2 - (sum x)^2) / (n (n - ddof)) with both sums exact, rounded once "
                      "to the input format",
    .metrics = "abs_err rel_err ulps ulps_f64 bound_abs bound_ratio cond",
    .reference = var_reference,
    .bound = sl_moment_bound,
};

static const sl_operation op_std = {
    .name = "std",
    .description = "the standard deviation of one array: the square root of var (--ddof, default 1)",
    .inputs = 1,
    .result = SL_RESULT_INPUT_FORMAT,
    .exact_variant = "exact",
    .reference_text = "the square root of the exact variance rational, rounded once to the input "
                      "format (Ziv's loop)",
    .metrics = "abs_err rel_err ulps ulps_f64 bound_abs bound_ratio cond",
    .reference = std_reference,
    .bound = sl_moment_bound,
};

static const sl_operation op_max = {
    .name = "max",
    .description = "the largest value of one array (IEEE 754-2019 maximum: NaN propagates, "
                   "+0 > -0; n = 0: NaN)",
    .inputs = 1,
    .result = SL_RESULT_INPUT_FORMAT,
    .exact_variant = "exact",
    .reference_text = "the largest value, exact (NaN if any input is NaN)",
    .metrics = "abs_err rel_err ulps ulps_f64 bound_abs bound_ratio",
    .reference = max_reference,
    .bound = sl_moment_bound,
};

static const sl_operation op_min = {
    .name = "min",
    .description = "the smallest value of one array (IEEE 754-2019 minimum: NaN propagates, "
                   "-0 < +0; n = 0: NaN)",
    .inputs = 1,
    .result = SL_RESULT_INPUT_FORMAT,
    .exact_variant = "exact",
    .reference_text = "the smallest value, exact (NaN if any input is NaN)",
    .metrics = "abs_err rel_err ulps ulps_f64 bound_abs bound_ratio",
    .reference = min_reference,
    .bound = sl_moment_bound,
};

/* The one list of operations, in the order every listing shows them. */
static const sl_operation *const ops[] = {&op_sum, &op_mean, &op_var, &op_std, &op_max, &op_min};

size_t sl_op_count(void) { return sizeof ops / sizeof ops[0]; }
const sl_operation *sl_op_at(size_t i) { return i < sl_op_count() ? ops[i] : NULL; }
const sl_operation *sl_op_default(void) { return &op_sum; }

const sl_operation *sl_op_find(const char *name)
{
    for (size_t i = 0; name && i < sl_op_count(); i++)
        if (!strcmp(ops[i]->name, name)) return ops[i];
    return NULL;
}

int sl_op_parse(const char *name, const sl_operation **out, sl_err *err)
{
    *out = sl_op_find(name);
    if (*out) return 0;
    char known[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < sl_op_count() && used < sizeof known; i++) {
        int w = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", ops[i]->name);
        if (w > 0) used += (size_t)w;
    }
    return sl_err_set(err, "unknown operation '%s' (known: %s; see 'sumlab list ops')",
                      name ? name : "", known);
}

const sl_operation *sl_op_of(const sl_variant *v) { return v ? sl_op_find(v->op) : NULL; }

int sl_op_is_exact(const sl_variant *v)
{
    const sl_operation *op = sl_op_of(v);
    return op && !strcmp(op->exact_variant, v->name);
}

int sl_op_variants(const sl_operation *op, const char *list, const sl_variant **out, size_t max,
                   size_t *count, sl_err *err)
{
    *count = 0;
    if (list && !strcmp(list, "all")) {
        for (size_t i = 0; i < sl_variant_count(); i++) {
            const sl_variant *v = sl_variant_at(i);
            if (sl_op_of(v) != op) continue;
            if (*count >= max) return sl_err_set(err, "too many variants (at most %zu)", max);
            out[(*count)++] = v;
        }
        return 0;
    }
    return sl_variant_parse_list_op(op->name, list, out, max, count, err);
}

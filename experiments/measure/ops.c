/* ops.c: the operation registry (sl_ops.h): each operation's descriptor and the lookups over it.
 * Adding an operation: its reference function (reference/), its bound model (judge.c or a file
 * of its own), its descriptor and one line in SL_OP_LIST; then its variants in kernels/. */
#include <stdio.h>
#include <string.h>
#include "sl_measure.h"
#include "sl_ops.h"
#include "sl_lse.h"
#include "sl_norm.h"
#include "sl_dot.h"
#include <math.h>

int sl_op_takes_ddof(const sl_operation *op)
{
    return op && (!strcmp(op->name, "var") || !strcmp(op->name, "std"));
}

sl_op_params sl_op_params_default(void)
{
    sl_op_params p;
    memset(&p, 0, sizeof p);
    p.ddof = SL_DDOF_DEFAULT;
    return p;
}

/* What most descriptors share: one input array, a result in its format, the variant "exact" as
 * the correctly rounded one; the metrics of an operation with a condition number, or without. */
#define SL_OP_ONE_ARRAY .inputs = 1, .result = SL_RESULT_INPUT_FORMAT, .exact_variant = "exact"
#define SL_OP_METRICS_NO_COND "abs_err rel_err ulps ulps_f64 bound_abs bound_ratio"
#define SL_OP_METRICS SL_OP_METRICS_NO_COND " cond"

/* The reference of a one-array operation without parameters: call(ref, x, n, dt, threads, err). */
#define SL_ARRAY_REFERENCE(fn, call)                                                             \
    static int fn(sl_reference *ref, const void *const *x, uint64_t n, sl_dtype dt,               \
                  const sl_op_params *p, unsigned threads, sl_err *err)                          \
    {                                                                                            \
        (void)p;                                                                                 \
        return call(ref, x[0], n, dt, threads ? threads : 1, err);                               \
    }

SL_ARRAY_REFERENCE(sum_reference, sl_reference_compute_threads)

static const sl_operation op_sum = {
    .name = "sum",
    .torch_call = "torch.sum",
    .description = "the sum of one array",
    SL_OP_ONE_ARRAY,
    .reference_text = "the exact sum (fixed-point superaccumulator, checked against mpfr_sum) "
                      "rounded once to the input format",
    .metrics = SL_OP_METRICS,
    .reference = sum_reference,
    .bound = sl_sum_bound,
    /* float16: the family's pairs stay below 65504 / 4 up to cond ~ 1e3 */
    .cond_family = "ill-conditioned", .cond_param = "cond", .cond_emax = {30, 30, 3, 30},
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

/* The moments' sweeps. accuracy-vs-n: the moment families (large mean and small spread; squares
 * that overflow, or (tiny) underflow the format while the result is finite; variance exactly 0;
 * two values; outliers; a heavy tail) beside the sum's uniform and normal, and for the mean the
 * sum's overflow (partial sums overflow, the mean is finite). accuracy-vs-cond: var and std sweep
 * offset-normal's kappa (mean/sd = sqrt(kappa^2 - 1)) up to each format's reach; the mean's
 * condition number is the sum's, swept by ill-conditioned. max/min: the sum's families and
 * all-negative data (the zero-filled maximum returns 0 there). Each list's first family,
 * uniform, is throughput-vs-n's input, as the sum's. */
static const char *const var_n_families[] = {"uniform", "normal", "offset-normal", "square-range", "tiny",
                                             "constant", "two-values", "outliers", "student-t", NULL};
static const char *const mean_n_families[] = {"uniform", "normal", "offset-normal", "square-range", "constant",
                                              "two-values", "outliers", "student-t", "overflow", NULL};
static const char *const extrema_n_families[] = {"uniform", "uniform-sym", "normal", "negative", "cauchy",
                                                 "log-uniform", "subnormal", "special", "outliers", NULL};
static const double var_kappas[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e10, 1e12, 1e15};
#define SL_VAR_SWEEPS                                                                            \
    .cond_family = "offset-normal", .cond_param = "kappa", .cond_values = var_kappas,            \
    .cond_nvalues = (int)(sizeof var_kappas / sizeof var_kappas[0]),                             \
    /* float32 ~1.7e7, float64 the parameter's 1e15, float16 2048, bfloat16 256 (gen_moments.c) */ \
    .cond_max = {1e7, 1e15, 1e3, 1e2}, .n_families = var_n_families

static const sl_operation op_mean = {
    .name = "mean",
    .torch_call = "torch.mean",
    .description = "the arithmetic mean of one array (n = 0: NaN)",
    SL_OP_ONE_ARRAY,
    .reference_text = "the exact sum divided by n, rounded once to the input format",
    .metrics = SL_OP_METRICS,
    .reference = mean_reference,
    .bound = sl_moment_bound,
    .cond_family = "ill-conditioned", .cond_param = "cond", .cond_emax = {30, 30, 3, 30},
    .n_families = mean_n_families,
};

static const sl_operation op_var = {
    .name = "var",
    .torch_call = "torch.var",
    .description = "the variance of one array, divided by n - ddof (--ddof, default 1; "
                   "n - ddof <= 0: NaN)",
    SL_OP_ONE_ARRAY,
    .reference_text = "(n sum x^2 - (sum x)^2) / (n (n - ddof)) with both sums exact, rounded once "
                      "to the input format",
    .metrics = SL_OP_METRICS,
    .reference = var_reference,
    .bound = sl_moment_bound,
    SL_VAR_SWEEPS,
};

static const sl_operation op_std = {
    .name = "std",
    .torch_call = "torch.std",
    .description = "the standard deviation of one array: the square root of var (--ddof, default 1)",
    SL_OP_ONE_ARRAY,
    .reference_text = "the square root of the exact variance rational, rounded once to the input "
                      "format (Ziv's loop)",
    .metrics = SL_OP_METRICS,
    .reference = std_reference,
    .bound = sl_moment_bound,
    SL_VAR_SWEEPS,
};

static const sl_operation op_max = {
    .name = "max",
    .torch_call = "torch.amax",
    .description = "the largest value of one array (IEEE 754-2019 maximum: NaN propagates, "
                   "+0 > -0; n = 0: NaN)",
    SL_OP_ONE_ARRAY,
    .reference_text = "the largest value, exact (NaN if any input is NaN)",
    .metrics = SL_OP_METRICS_NO_COND,
    .reference = max_reference,
    .bound = sl_moment_bound,
    .n_families = extrema_n_families,
};

static const sl_operation op_min = {
    .name = "min",
    .torch_call = "torch.amin",
    .description = "the smallest value of one array (IEEE 754-2019 minimum: NaN propagates, "
                   "-0 < +0; n = 0: NaN)",
    SL_OP_ONE_ARRAY,
    .reference_text = "the smallest value, exact (NaN if any input is NaN)",
    .metrics = SL_OP_METRICS_NO_COND,
    .reference = min_reference,
    .bound = sl_moment_bound,
    .n_families = extrema_n_families,
};

/* lse: reference/sl_lse.c. */
SL_ARRAY_REFERENCE(lse_reference, sl_reference_lse)

/* lse's sweeps: sigma from 0.1 to 30 (the spread of models' logits; float32's unshifted exp
 * overflows from about 88.7, which sigma 30 reaches at n = 1024); accuracy-vs-n on the lse
 * families (one dominant logit, a half of -Inf masks, shifted by -1000 and +1000: naive's -Inf and
 * +Inf in every format), all equal values (constant: lse = c + log n) and two of the sum's */
static const double lse_sigmas[] = {0.1, 0.3, 1, 3, 10, 30};
static const char *const lse_n_families[] = {"logits", "logits-dominant", "lse-masked", "logits-low",
                                             "logits-high", "constant", "uniform", "normal", NULL};
/* lse's determinism inputs: logits, and logits with -Inf masks */
static const char *const lse_det_families[] = {"logits", "lse-masked", NULL};

/* The bound of an lse variant (absolute, on the result in the input format), after Blanchard,
 * Higham & Higham (IMA J. Numer. Anal. 2021, sections 2-3: the shifted and unshifted algorithms'
 * error in terms of the condition number), written for these variants with u the accumulator's
 * unit roundoff, k = depth() the longest chain of a state's steps, and the variants' exp and log
 * within 2 ulps (4u relative; tests/tlse_math.c measures <= 1.09 ulps; float32's exp, checked
 * exhaustively, 1.17):
 *   terms: exp(x_i - m) is computed with the argument rounded once (|x_i - M| u, the rescales'
 *          arguments telescope to the same) and at most k + 1 exps on its chain (4u each), then
 *          added along a chain of k adds (gamma_k) and at most k rescaling products (2k u with
 *          the merges'); relative error of S = sum exp(x_i - M):
 *            rel_S = W u e^(2 u max|x|) + (4 (k + 1) + 2k) u + gamma_k   (naive: (4 + 2k) u + gamma_k;
 *            online and reproducible on 16-bit input: their terms' exp within 2^-17 in place of 4u)
 *          with W = sum |x_i - M| w_i <= cond |lse| + max|x| (w_i = exp(x_i - M) / S; the factor
 *          e^(u D), D = max |x_i - M| <= 2 max|x|, makes e^(u d) - 1 <= u d e^(u D) exact), plus
 *          n (k + 1) eta / S for terms in the subnormal range (eta: the least subnormal of the
 *          accumulator; S >= 1 for the shifted forms, S = exp(lse) for naive);
 *   log:   rel_S / (1 - rel_S) + 4u |log S| (|log S| <= log n; naive: |lse|);
 *   final: u |lse| for M + log S in the accumulator, and u_o (|lse| + E) when the output format
 *          is narrower (16-bit input, f64-acc; f64-acc on 16-bit input rounds through float32:
 *          2^-24 (|lse| + E) more);
 *   compensated: the same model (its rescales bound it, not its sum: a first-order-free sum bound
 *          would be 2u + O(k u^2) only while no rescale happens);
 *   accurate: its own, in double-double terms (below).
 * half-acc is naive with u and the subnormal spacing of its 16-bit accumulator.
 * The exact row: half an ulp of the correctly rounded value. Vacuous (+Inf) when rel_S >= 1/2,
 * for naive when exp(lse) overflows or underflows the accumulator; NaN for a non-finite reference. */
static double lse_bound(const sl_variant *v, const sl_reference *ref, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg)
{
    if (!ref->finite) return NAN;
    if (v->bound == SL_BOUND_CORRECTLY_ROUNDED) return sl_ulp(ref->rounded, dt) / 2.0;
    if (!strcmp(v->name, "accurate")) {
        /* double-double (lse.h's sl_lse_acc_*): before its roundings the result is within
         * (k + 2) 2^-74 (a term or a rescale factor within SL_LM_EXP_DD_ERR at each of the k steps
         * of a chain, the term of the maximum, exp(-y0) of the final Newton step), k^2 2^-104 (the
         * compensation's own roundings), n 2^-1021 (terms floored at exp(-708)) and 2^-100
         * (1 + |lse|) (the final step's roundings) of lse; then rounded to float64 (half an ulp)
         * and, for narrower formats, to dt (half an ulp of dt more; a decided first pass is
         * within that half ulp alone) */
        const double k = sl_variant_depth(v, n, dt, cfg);
        const double lse = fabs(ref->rounded_f64);
        const double A = ((k + 2.0) * 0x1p-74 + k * k * 0x1p-104 + (double)n * 0x1p-1021 +
                          0x1p-100 * (1.0 + lse)) * 1.01;
        return A + sl_ulp(ref->rounded_f64, SL_F64) / 2.0 + (dt == SL_F64 ? 0.0 : sl_ulp(ref->rounded, dt) / 2.0);
    }
    const sl_dtype acc = sl_variant_acc(v, dt);
    const double u = sl_unit_roundoff(acc), uo = sl_unit_roundoff(dt);
    const double eta = acc == SL_F64 ? 0x1p-1074 : acc == SL_F32 ? 0x1p-149
                     : acc == SL_F16 ? 0x1p-24 : 0x1p-133;
    const double k = sl_variant_depth(v, n, dt, cfg);
    const double lse = fabs(ref->rounded_f64);
    const double gk = k * u / (1.0 - k * u);
    if (!(k * u < 0.5)) return INFINITY;
    const int naive = !strcmp(v->name, "naive") || !strcmp(v->name, "half-acc");
    double rel, logS;
    if (naive) {
        const double S = exp(ref->rounded_f64);
        const double big = acc == SL_F64 ? 0x1p1023 : acc == SL_F16 ? 32768.0 : 0x1p127;
        if (!(S < big) || S == 0.0) return INFINITY;
        rel = 4.0 * u + 2.0 * k * u + gk + (double)n * (k + 1.0) * eta / S;
        logS = lse;
    } else {
        const double W = (isfinite(ref->cond) ? ref->cond * lse : 0.0) + ref->maxabs;
        if (!isfinite(W)) return INFINITY;
        /* sum w_i (e^(u d_i) - 1) <= u W e^(u D), D = max |x_i - M| <= 2 max|x| */
        rel = W * u * exp(2.0 * u * ref->maxabs) + (4.0 * (k + 1.0) + 2.0 * k) * u + gk +
              (double)n * (k + 1.0) * eta;
        /* online and reproducible on 16-bit input: their terms' exp within 2^-17 (lse_math.h's
         * sl_lm_expf16) */
        if (acc == SL_F32 && sl_dtype_is_half(dt) &&
            (!strcmp(v->name, "online") || !strcmp(v->name, "reproducible")))
            rel += 0x1p-17 - 4.0 * u;
        logS = log((double)(n ? n : 1));
    }
    rel *= 1.01; /* second-order terms and the evaluation's own roundings */
    if (!(rel < 0.5)) return INFINITY;
    double E = rel / (1.0 - rel) + 4.0 * u * logS * 1.01 + (naive ? 0.0 : u * lse * 1.01);
    if (acc == SL_F64 && sl_dtype_is_half(dt)) E += 0x1p-24 * (lse + E) * 1.01; /* via float32 */
    if (sl_dtype_size(dt) < sl_dtype_size(acc)) E += uo * (lse + E) * 1.01;
    return E;
}

static const sl_operation op_lse = {
    .name = "lse",
    .torch_call = "torch.logsumexp",
    .description = "log-sum-exp of one array: log(sum exp(x_i)) (-Inf inputs ignored; n = 0: -Inf)",
    SL_OP_ONE_ARRAY,
    .reference_text = "log(sum exp(x)) rounded once to the input format (MPFR, Ziv's strategy "
                      "behind a certified double-double fast path)",
    .metrics = SL_OP_METRICS,
    .reference = lse_reference,
    .bound = lse_bound,
    /* accuracy-vs-cond sweeps the logits' spread sigma over the models' range (its x-axis is
     * sigma, not a condition number: docs/lse.md); each row's cond column holds
     * Blanchard-Higham-Higham's condition number of that input, which the spread drives through
     * max|x| / |lse| */
    .cond_family = "logits", .cond_param = "sigma",
    .cond_values = lse_sigmas, .cond_nvalues = (int)(sizeof lse_sigmas / sizeof lse_sigmas[0]),
    .n_families = lse_n_families,
    /* 2^22: the float64 reference costs about 80 ns a value on one core (2^24: 1.3 s; 25 such
     * inputs a format in the full preset), which keeps the full GPU study of lse short */
    .n_log2max_gpu = 22,
    .det_families = lse_det_families,
};

/* norm2: reference/sl_norm.c; bounds: bounds_norm.c. accuracy-vs-n sweeps its own families (values
 * whose squares overflow or underflow the format while the norm does not, float16 above 256: the
 * report's tables of 0 and non-finite results name the variants that fail there) beside four of
 * the sum's. */
SL_ARRAY_REFERENCE(norm2_reference, sl_reference_norm2)
static const char *const norm2_n_families[] = {"uniform", "normal", "log-uniform", "subnormal", "huge", "tiny",
                                               "sq-overflow", NULL};

static const sl_operation op_norm2 = {
    .name = "norm2",
    .torch_call = "torch.linalg.vector_norm",
    .description = "the Euclidean norm sqrt(sum x^2) of one array (any Inf: +Inf, even beside a "
                   "NaN, as hypot; NaN: NaN; n = 0: 0)",
    SL_OP_ONE_ARRAY,
    .reference_text = "the square root of the exact sum of squares, rounded once to the input "
                      "format (cond = 1: the norm is perfectly conditioned)",
    .metrics = SL_OP_METRICS,
    .reference = norm2_reference,
    .bound = sl_norm_bound,
    /* cond is 1 for every input: no conditioning sweep */
    .cond_family = NULL, .cond_param = NULL,
    .n_families = norm2_n_families,
};

/* dot: two inputs; reference/sl_dot.c, bounds_dot.c. accuracy-vs-n sweeps its pair families (random
 * pairs; products that overflow or underflow the format while the dot is finite) and three of the
 * sum's families split into x and y; determinism takes random pairs and ill-conditioned ones. */
static const char *const dot_n_families[] = {"dot-random", "dot-overflow", "normal", "log-uniform", "subnormal",
                                             NULL};
static const char *const dot_det_families[] = {"dot-random", "dot-cond", NULL};

static int dot_reference(sl_reference *ref, const void *const *x, uint64_t n, sl_dtype dt,
                         const sl_op_params *p, unsigned threads, sl_err *err)
{
    (void)p;
    return sl_reference_dot(ref, x[0], x[1], n, dt, threads ? threads : 1, err);
}

static const sl_operation op_dot = {
    .name = "dot",
    .torch_call = "torch.dot",
    .description = "the dot product sum x_i y_i of two arrays of one length and format (IEEE "
                   "specials: Inf * 0 -> NaN; n = 0: +0)",
    .inputs = 2,
    .result = SL_RESULT_INPUT_FORMAT,
    .exact_variant = "exact",
    .reference_text = "sum x_i y_i with every product exact (superaccumulators, checked against "
                      "MPFR), rounded once to the input format; cond = 2 sum|x_i y_i| / |sum x_i y_i|",
    .metrics = SL_OP_METRICS,
    .reference = dot_reference,
    .bound = sl_dot_bound,
    /* datasets/gen_dot.c's dot-cond (a prescribed condition number, as Ogita-Rump-Oishi's GenDot
     * but value-i pure), cond as its parameter: float64 to 1e40, float32 and bfloat16 to 1e30,
     * float16 to 1e3 (past them the format's range caps the realised one) */
    .cond_family = "dot-cond", .cond_param = "cond", .cond_emax = {30, 40, 3, 30},
    .n_families = dot_n_families,
    .det_families = dot_det_families,
};

/* The one list of operations, in the order every listing shows them. */
static const sl_operation *const ops[] = {&op_sum, &op_mean, &op_var, &op_std, &op_max, &op_min,
                                          &op_lse,
                                          /* norm2 */
                                          &op_norm2,
                                          &op_dot /* dot: two inputs */};

size_t sl_op_count(void) { return sizeof ops / sizeof ops[0]; }
const sl_operation *sl_op_at(size_t i) { return i < sl_op_count() ? ops[i] : NULL; }
const sl_operation *sl_op_default(void) { return &op_sum; }

int sl_op_is_torch_call(const char *name)
{
    for (size_t i = 0; name && i < sl_op_count(); i++)
        if (ops[i]->torch_call && !strcmp(ops[i]->torch_call, name)) return 1;
    return 0;
}

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

/* gen_lse.c: the families built for the log-sum-exp operation (lse): logits (normal logits with a
 * spread sigma, a shift and an optional dominant logit), logits-dominant (the same with the
 * dominant logit on by default: a family of its own, so the study's rows, tables and charts keep
 * it apart), logits-low and logits-high (the same shifted by -1000 / +1000 by default: naive's
 * underflow and overflow, families of their own likewise) and lse-masked (logits with a share of -Inf values, as attention masks). Opt-in (SL_DS_OPT_IN): a sweep over every family leaves them out
 * unless the user names them. All equal values: the `constant` family.
 *
 * Every value is computed in double from counter-based draws (value i a pure function of
 * (seed, n, params, i)) and rounded once to the format by SL_FILL_LOOP. Parameters that would send
 * a value beyond the format's largest finite value are refused before any value is written
 * (|shift| + 13 sigma + dominant: a polar-method normal deviate has |z| < 12.1). */
#include "sl_ds_impl.h"

#define Z_MAX 13.0
#define STREAM_2 ((uint64_t)1 << 32)

static int lse_fits(const sl_dataset *ds, sl_dtype dt, double mag, sl_err *err)
{
    if (isfinite(mag) && isfinite(sl_round_fmt(mag, dt))) return 0;
    return sl_err_set(err, "dataset '%s': |shift| + 13 sigma + dominant reaches %g, beyond %s's "
                      "largest value %g: choose parameters that fit the format", ds->name, mag,
                      sl_dtype_name(dt), sl_fmt_max(dt));
}

/* The slot of the dominant logit: a function of the seed and n. */
static uint64_t dominant_slot(const sl_dataset *ds, uint64_t seed, uint64_t n)
{
    return n ? sl_rng_at(sl_rng_key(seed, sl_name_stream(ds->name) + STREAM_2), 0) % n : 0;
}

/* ---- logits ----------------------------------------------------------------------------------
 * shift + sigma z_i (z ~ N(0,1)); with dominant d > 0, one slot (chosen by the seed) holds
 * shift + 13 sigma + d instead: above every other value by at least d. shift far below 0 makes
 * the unshifted exp underflow (naive: -Inf), far above 0 overflow (naive: +Inf). */
static int fill_logits(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                       const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    const double sigma = p->v[0], shift = p->v[1], dom = p->v[2];
    const double top = shift + Z_MAX * sigma + dom;
    if (lse_fits(ds, dt, fabs(shift) + Z_MAX * sigma + dom, err)) return -1;
    const uint64_t st = sl_name_stream(ds->name), key = sl_rng_key(seed, st);
    const uint64_t slot = dom > 0 ? dominant_slot(ds, seed, n) : UINT64_MAX;
    SL_FILL_LOOP(dt, out, start, count,
                 i == slot ? top : shift + sigma * sl_normal_at(seed, st, key, i));
    return 0;
}

/* ---- lse-masked ------------------------------------------------------------------------------
 * shift + sigma z_i with a share of the values -Inf: random slots (each slot masked with
 * probability share, by the seed) or causal (the last round(share n) slots, as a causal mask's
 * row); share 1 masks every value (lse = -Inf). */
static int fill_lse_masked(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                           const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    const double sigma = p->v[0], share = p->v[1], shift = p->v[3];
    const int causal = p->v[2] != 0;
    if (lse_fits(ds, dt, fabs(shift) + Z_MAX * sigma, err)) return -1;
    const uint64_t st = sl_name_stream(ds->name), key = sl_rng_key(seed, st);
    const uint64_t km = sl_rng_key(seed, st + STREAM_2);
    double kk = floor(share * (double)n + 0.5);
    const uint64_t unmasked = n - (kk <= 0 ? 0 : kk >= (double)n ? n : (uint64_t)kk);
    SL_FILL_LOOP(dt, out, start, count,
                 (causal ? i >= unmasked : sl_u53(sl_rng_at(km, i)) < share)
                     ? -INFINITY : shift + sigma * sl_normal_at(seed, st, key, i));
    return 0;
}

#define LOGITS_SIGMA {"sigma", SL_PARAM_REAL, 3, 1e-3, 1e3, "spread of the logits (models: 0.1 to 30)", NULL}
#define LOGITS_SHIFT {"shift", SL_PARAM_REAL, 0, -1e30, 1e30, "added to every logit (far below 0: exp " \
                      "underflows; far above: overflows)", NULL}
static const sl_param_desc logits_params[] = {
    LOGITS_SIGMA,
    LOGITS_SHIFT,
    {"dominant", SL_PARAM_REAL, 0, 0, 1e30, "0: none; d > 0: one logit d above shift + 13 sigma", NULL},
};
/* (fill_logits reads sigma, shift and dominant in this order) */
static const sl_param_desc logits_dominant_params[] = {
    LOGITS_SIGMA,
    LOGITS_SHIFT,
    {"dominant", SL_PARAM_REAL, 10, 1e-3, 1e30, "one logit d above shift + 13 sigma", NULL},
};
/* (logits-low / logits-high: logits with the shift far below / above 0 by default, 1000: beyond
 * every format's exp range (float64's e^-745 and e^709.8), inside float16's) */
#define LOGITS_SHIFTED(def, what) {                                                              \
    LOGITS_SIGMA,                                                                                \
    {"shift", SL_PARAM_REAL, def, -1e30, 1e30, what, NULL},                                      \
    {"dominant", SL_PARAM_REAL, 0, 0, 1e30, "0: none; d > 0: one logit d above shift + 13 sigma", NULL}, \
}
static const sl_param_desc logits_low_params[] = LOGITS_SHIFTED(-1000, "added to every logit "
    "(-1000: every unshifted exp underflows, in every format)");
static const sl_param_desc logits_high_params[] = LOGITS_SHIFTED(1000, "added to every logit "
    "(1000: every unshifted exp overflows, in every format)");
static const sl_param_desc lse_masked_params[] = {
    {"sigma", SL_PARAM_REAL, 3, 1e-3, 1e3, "spread of the unmasked logits", NULL},
    {"share", SL_PARAM_REAL, 0.5, 0, 1, "share of -Inf values", NULL},
    {"pattern", SL_PARAM_ENUM, 0, 0, 1, "random: each slot masked with probability share; "
     "causal: the last round(share n) slots", "random|causal"},
    {"shift", SL_PARAM_REAL, 0, -1e30, 1e30, "added to every unmasked logit", NULL},
};

const sl_dataset sl_ds_logits = {"logits", "normal logits (sigma, shift) and an optional dominant one: "
                                 "log-sum-exp's data", logits_params, 3, fill_logits, SL_DS_OPT_IN};
const sl_dataset sl_ds_logits_dominant = {"logits-dominant", "logits with one dominant value, d above shift + "
                                          "13 sigma: lse near the maximum", logits_dominant_params, 3,
                                          fill_logits, SL_DS_OPT_IN};
const sl_dataset sl_ds_logits_low = {"logits-low", "logits shifted far below 0 (shift -1000): the "
                                     "unshifted exp underflows (naive: -Inf)", logits_low_params, 3,
                                     fill_logits, SL_DS_OPT_IN};
const sl_dataset sl_ds_logits_high = {"logits-high", "logits shifted far above 0 (shift 1000): the "
                                      "unshifted exp overflows (naive: +Inf)", logits_high_params, 3,
                                      fill_logits, SL_DS_OPT_IN};
const sl_dataset sl_ds_lse_masked = {"lse-masked", "logits with a share of -Inf values (attention "
                                     "masks, random or causal)", lse_masked_params, 4,
                                     fill_lse_masked, SL_DS_OPT_IN};

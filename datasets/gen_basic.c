/* gen_basic.c: the distribution families: uniform, uniform-sym, normal, cauchy, log-uniform,
 * sorted-inc, sorted-dec, alternating and subnormal. Each value is built exactly in the format
 * (format-width random mantissas, power-of-two scalings) or rounded to it once. */
#include "sl_ds_impl.h"

/* Random sign: negative with probability pneg (53-bit comparison). */
static inline double sl_sign(uint64_t u, double pneg) { return sl_u53(u) < pneg ? -1.0 : 1.0; }

/* ---- uniform / uniform-sym -------------------------------------------------------------- */
static int fill_uniform(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                        const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)p, (void)err;
    const uint64_t key = sl_rng_key(seed, sl_name_stream(ds->name));
    if (dt == SL_F64) SL_FILL_LOOP(dt, out, start, count, sl_u53(sl_rng_at(key, i)));
    else if (sl_dtype_is_half(dt)) /* k 2^-p, k uniform in [0, 2^p): exact */
        SL_FILL_LOOP(dt, out, start, count,
                     (double)(sl_rng_at(key, i) >> (64 - sl_fmt_prec(dt))) * sl_pow2(-sl_fmt_prec(dt)));
    else SL_FILL_LOOP(dt, out, start, count, sl_u24(sl_rng_at(key, i)));
    return 0;
}

static int fill_uniform_sym(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                            const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)p, (void)err;
    const uint64_t key = sl_rng_key(seed, sl_name_stream(ds->name));
    /* float32/float64: k * 2^-(q-1) - 1 with k uniform in [0, 2^q), q = 25 and 54: exact, in
     * [-1, 1), mean -2^-q (2^-25, 2^-54: far below a standard error at any n that fits).
     * float16/bfloat16: (2k + 1) 2^-p - 1 with k uniform in [0, 2^p): the odd multiples of 2^-p
     * in (-1, 1), exact (p bits), a grid symmetric about 0 (k -> 2^p - 1 - k negates), so the mean
     * is 0; the grid k 2^(1-p) - 1 had mean -2^-p, and a float16 sum of 2^28 values near -2^17
     * (overflow). */
    if (dt == SL_F64)
        SL_FILL_LOOP(dt, out, start, count, (double)(sl_rng_at(key, i) >> 10) * 0x1p-53 - 1.0);
    else if (sl_dtype_is_half(dt))
        SL_FILL_LOOP(dt, out, start, count,
                     (double)(2 * (sl_rng_at(key, i) >> (64 - sl_fmt_prec(dt))) + 1) * sl_pow2(-sl_fmt_prec(dt)) - 1.0);
    else
        SL_FILL_LOOP(dt, out, start, count, (double)(sl_rng_at(key, i) >> 39) * 0x1p-24 - 1.0);
    return 0;
}

/* ---- normal (Marsaglia polar method, sl_ds_impl.h) and cauchy (ratio of a point in the unit disk) */
static int fill_normal(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                       const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)err;
    const uint64_t st = sl_name_stream(ds->name), key = sl_rng_key(seed, st);
    const double mu = p->v[0], sigma = p->v[1];
    SL_FILL_LOOP(dt, out, start, count, mu + sigma * sl_normal_at(seed, st, key, i));
    return 0;
}

static int fill_cauchy(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                       const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)err;
    const uint64_t st = sl_name_stream(ds->name), key = sl_rng_key(seed, st);
    const double scale = p->v[0];
    double u, v;
    /* |u/v| <= 2^52 and scale <= 1e20 keep every value below FLT_MAX. */
    SL_FILL_LOOP(dt, out, start, count, (sl_disk_point(seed, st, key, i, &u, &v), scale * (u / v)));
    return 0;
}

/* ---- log-uniform -------------------------------------------------------------------------- */
/* Exponent range [emin, emax] of log-uniform/sorted after clamping to the format. */
static int clamp_range(const sl_dataset *ds, sl_dtype dt, double emin, double emax, int lo_fmt,
                       int hi_fmt, int *lo, int *hi, sl_err *err)
{
    if (emin > emax) {
        sl_err_set(err, "dataset '%s': emin=%g > emax=%g", ds->name, emin, emax);
        return -1;
    }
    *lo = emin < lo_fmt ? lo_fmt : (int)emin;
    *hi = emax > hi_fmt ? hi_fmt : (int)emax;
    if (*lo > *hi) {
        sl_err_set(err, "dataset '%s': exponent range [%g, %g] is outside the %s range [%d, %d]",
                ds->name, emin, emax, sl_dtype_name(dt), lo_fmt, hi_fmt);
        return -1;
    }
    return 0;
}

static inline double log_uniform_at(uint64_t k1, uint64_t k2, uint64_t i, int lo, uint64_t span,
                                    double pneg, sl_dtype dt)
{
    uint64_t h1 = sl_rng_at(k1, i), h2 = sl_rng_at(k2, i);
    int e = lo + (int)(((h2 >> 32) * span) >> 32);
    return sl_sign(h2 << 32, pneg) * (sl_pow2(e) * sl_mant(h1, dt));
}

static int fill_log_uniform(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                            const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n;
    int lo, hi;
    int lo_fmt = p->v[3] != 0 ? sl_fmt_esub(dt) : sl_fmt_emin(dt);
    if (clamp_range(ds, dt, p->v[0], p->v[1], lo_fmt, sl_fmt_emax(dt), &lo, &hi, err)) return -1;
    const uint64_t st = sl_name_stream(ds->name);
    const uint64_t k1 = sl_rng_key(seed, st), k2 = sl_rng_key(seed, st + 1);
    const uint64_t span = (uint64_t)(hi - lo + 1);
    const double pneg = p->v[2];
    /* 2^e * m is exact in double; for e in the subnormal range the float conversion (or the
     * double product) rounds it once to a representable subnormal, never to zero. */
    SL_FILL_LOOP(dt, out, start, count, log_uniform_at(k1, k2, i, lo, span, pneg, dt));
    return 0;
}

/* ---- sorted-inc / sorted-dec -------------------------------------------------------------- */
/* |x_i| = 2^k (1 + f) with k + f = emin + (emax - emin) t, t = (i + 1/2)/n: a piecewise-linear
 * 2^e, continuous and increasing in t; rounding to the format keeps it non-decreasing. */
static inline double sorted_mag(uint64_t i, double dn, double emin, double span, int dec)
{
    double t = ((double)i + 0.5) / dn;
    if (dec) t = 1.0 - t;
    double e = emin + span * t;
    int k = (int)e; /* floor without a libm call: |e| <= 1100 */
    if ((double)k > e) k--;
    return sl_pow2(k) * (1.0 + (e - (double)k));
}

static int fill_sorted(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                       const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err, int dec)
{
    int lo, hi;
    if (clamp_range(ds, dt, p->v[0], p->v[1], sl_fmt_emin(dt), sl_fmt_emax(dt), &lo, &hi, err)) return -1;
    const uint64_t key = sl_rng_key(seed, sl_name_stream(ds->name));
    const double pneg = p->v[2], dn = (double)n, elo = lo, span = (double)(hi - lo);
    SL_FILL_LOOP(dt, out, start, count,
                 sl_sign(sl_rng_at(key, i), pneg) * sl_round_fmt(sorted_mag(i, dn, elo, span, dec), dt));
    return 0;
}

static int fill_sorted_inc(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                           const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    return fill_sorted(ds, dt, seed, n, p, start, count, out, err, 0);
}

static int fill_sorted_dec(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                           const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    return fill_sorted(ds, dt, seed, n, p, start, count, out, err, 1);
}

/* ---- alternating ---------------------------------------------------------------------------- */
static int fill_alternating(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                            const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)err;
    const uint64_t key = sl_rng_key(seed, sl_name_stream(ds->name));
    if (p->v[0] != 0) /* harmonic: (-1)^i / (i+1), the series of ln 2 */
        SL_FILL_LOOP(dt, out, start, count, ((i & 1u) ? -1.0 : 1.0) * sl_round_fmt(1.0 / ((double)i + 1.0), dt));
    else /* random magnitudes in [1/2, 1) */
        SL_FILL_LOOP(dt, out, start, count, ((i & 1u) ? -0.5 : 0.5) * sl_mant(sl_rng_at(key, i), dt));
    return 0;
}

/* ---- subnormal ---------------------------------------------------------------------------- */
static inline double subnormal_at(uint64_t k1, uint64_t k2, uint64_t i, double pnormal, double pneg,
                                  sl_dtype dt)
{
    uint64_t h1 = sl_rng_at(k1, i), h2 = sl_rng_at(k2, i);
    double s = sl_sign(h2 << 32, pneg);
    if (sl_u24(h2) < pnormal) /* normal, in the 8 binades just above the subnormal range */
        return s * (sl_pow2(sl_fmt_emin(dt) + (int)((h2 >> 32) & 7u)) * sl_mant(h1, dt));
    uint64_t mant = h1 >> (65 - sl_fmt_prec(dt)); /* p-1 random bits, not all zero */
    if (!mant) mant = 1;
    if (sl_dtype_is_half(dt)) return s * ((double)mant * sl_pow2(sl_fmt_esub(dt))); /* exact */
    if (dt == SL_F64) { /* from the bits: arithmetic on subnormal doubles is slow on x86 */
        uint64_t b = mant | (s < 0 ? 1ull << 63 : 0);
        double d;
        memcpy(&d, &b, sizeof d);
        return d;
    }
    return s * ((double)mant * 0x1p-149); /* exact: a normal double, rounded once to float */
}

static int fill_subnormal(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                          const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)err;
    const uint64_t st = sl_name_stream(ds->name);
    const uint64_t k1 = sl_rng_key(seed, st), k2 = sl_rng_key(seed, st + 1);
    const double pnormal = p->v[0], pneg = p->v[1];
    SL_FILL_LOOP(dt, out, start, count, subnormal_at(k1, k2, i, pnormal, pneg, dt));
    return 0;
}

/* ---- descriptors ---------------------------------------------------------------------------- */
#define PNEG(def) {"pneg", SL_PARAM_REAL, def, 0, 1, "probability that a value is negative", NULL}

static const sl_param_desc normal_params[] = {
    {"mean", SL_PARAM_REAL, 0, -1e6, 1e6, "mean", NULL},
    {"sd", SL_PARAM_REAL, 1, 1e-20, 1e20, "standard deviation", NULL},
};
static const sl_param_desc cauchy_params[] = {
    {"scale", SL_PARAM_REAL, 1, 1e-20, 1e20, "scale (half width at half maximum)", NULL},
};
static const sl_param_desc log_uniform_params[] = {
    {"emin", SL_PARAM_INT, -40, -1100, 1100, "smallest binary exponent (clamped to the format)", NULL},
    {"emax", SL_PARAM_INT, 40, -1100, 1100, "largest binary exponent (clamped to the format)", NULL},
    PNEG(0.5),
    {"subnormals", SL_PARAM_INT, 0, 0, 1, "1: emin may reach the subnormal range", NULL},
};
static const sl_param_desc sorted_params[] = {
    {"emin", SL_PARAM_INT, -20, -1100, 1100, "binary exponent of the smallest magnitude (clamped)", NULL},
    {"emax", SL_PARAM_INT, 20, -1100, 1100, "binary exponent bounding the largest magnitude (clamped)", NULL},
    PNEG(0.5),
};
static const sl_param_desc alternating_params[] = {
    {"harmonic", SL_PARAM_INT, 0, 0, 1, "1: magnitudes 1/(i+1) (series of ln 2); 0: random in [1/2,1)", NULL},
};
static const sl_param_desc subnormal_params[] = {
    {"pnormal", SL_PARAM_REAL, 0, 0, 1, "fraction of small normal values mixed in", NULL},
    PNEG(0.5),
};

const sl_dataset sl_ds_uniform = {"uniform", "uniform in [0,1)", NULL, 0, fill_uniform, 0};
const sl_dataset sl_ds_uniform_sym = {"uniform-sym", "uniform in [-1,1)", NULL, 0, fill_uniform_sym, 0};
const sl_dataset sl_ds_normal = {"normal", "normal(mean, sd), polar method", normal_params, 2, fill_normal, 0};
const sl_dataset sl_ds_cauchy = {"cauchy", "Cauchy heavy tail, scale * u/v for (u,v) in the unit disk",
                                 cauchy_params, 1, fill_cauchy, 0};
const sl_dataset sl_ds_log_uniform = {"log-uniform", "magnitudes 2^e*m, e uniform in [emin,emax], random signs",
                                      log_uniform_params, 4, fill_log_uniform, 0};
const sl_dataset sl_ds_sorted_inc = {"sorted-inc", "magnitudes increasing with i from 2^emin to 2^emax",
                                     sorted_params, 3, fill_sorted_inc, 0};
const sl_dataset sl_ds_sorted_dec = {"sorted-dec", "magnitudes decreasing with i from 2^emax to 2^emin",
                                     sorted_params, 3, fill_sorted_dec, 0};
const sl_dataset sl_ds_alternating = {"alternating", "signs alternate +,-,+,-", alternating_params, 1,
                                      fill_alternating, 0};
const sl_dataset sl_ds_subnormal = {"subnormal", "random subnormals, optionally mixed with small normals",
                                    subnormal_params, 2, fill_subnormal, 0};

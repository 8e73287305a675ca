/* gen_moments.c: the families built for the moment operations (mean, var, std, max, min):
 * offset-normal, square-range, constant, two-values, outliers, student-t and negative. Opt-in
 * (SL_DS_OPT_IN): a sweep over every family leaves them out unless the user names them.
 *
 * Every value is computed in double from counter-based draws (value i a pure function of
 * (seed, n, params, i)) and rounded once to the format (float32, float64, float16, bfloat16)
 * by SL_FILL_LOOP. Parameters that would send a value beyond the format's largest finite value
 * are refused before any value is written (the check bounds every possible draw: a polar-method
 * normal deviate has |z| < 12.1, since u^2 + v^2 >= 2^-104), so a call fails or succeeds the
 * same way for every n, seed and slice. student-t clamps instead (its tail has no bound).
 *
 * The variance's condition number kappa = ||x||_2 / sqrt(sum (x - mean)^2) satisfies
 * kappa^2 = 1 + n mean^2 / sum (x - mean)^2, about 1 + (mean/sd)^2 for normal data. */
#include "sl_ds_impl.h"

/* A bound on |z| for z = sl_normal_at(...): |z| <= sqrt(-2 ln 2^-104) = 12.01. */
#define Z_MAX 13.0

/* Separate streams of one family: sl_disk_point uses streams st + a (a = 1, 2, ... for its
 * rejected attempts), so the other draws of a family sit 2^32 streams away. */
#define STREAM_2 ((uint64_t)1 << 32)
#define STREAM_3 ((uint64_t)2 << 32)
#define STREAM_4 ((uint64_t)3 << 32)

/* 0 when a value of magnitude up to `mag` is finite in dt; else -1 with err naming `what`. */
static int check_fits(const sl_dataset *ds, sl_dtype dt, double mag, const char *what, sl_err *err)
{
    if (isfinite(mag) && isfinite(sl_round_fmt(mag, dt))) return 0;
    return sl_err_set(err, "dataset '%s': %s reaches %g, beyond %s's largest value %g: choose "
                      "parameters that fit the format", ds->name, what, mag, sl_dtype_name(dt),
                      sl_fmt_max(dt));
}

/* round(x * n) (halves up) as a count in [0, n], for x in [0, 1]. */
static uint64_t count_of(double x, uint64_t n)
{
    double k = floor(x * (double)n + 0.5);
    return k <= 0 ? 0 : k >= (double)n ? n : (uint64_t)k;
}

/* Slot q of [0, n) is one of k evenly spread slots: floor((q+1)k/n) > floor(qk/n). Exactly k
 * of the n slots are (the sum telescopes to floor(nk/n) = k); k = n/2 marks the odd slots. */
static inline int spread_hit(uint64_t q, uint64_t k, uint64_t n)
{
    const unsigned __int128 a = (unsigned __int128)q * k, b = a + k;
    return b / n > a / n;
}

/* ---- offset-normal -------------------------------------------------------------------------- */
/* The spacing of dt's values at x > 0 (its ulp; the subnormal spacing below the normal range). */
static double fmt_ulp(double x, sl_dtype dt)
{
    int e;
    frexp(x, &e); /* x = f 2^e, f in [1/2, 1): the binade's exponent is e - 1 */
    int u = e - sl_fmt_prec(dt);
    return sl_pow2(u < sl_fmt_esub(dt) ? sl_fmt_esub(dt) : u);
}

/* N(mu, sd) with mu = sign * sd * sqrt(kappa^2 - 1): mean/sd = sqrt(kappa^2 - 1), so the
 * variance's condition number is kappa. Computed in double (mu + sd z, z a polar-method
 * deviate) and rounded once to the format. A kappa whose sd is below half the spacing of the
 * format's values (at |mu| + 13 sd, the largest value) is refused: rounding would leave most
 * values equal to the rounded mean and the realized kappa far above the asked one. At half the
 * spacing the rounding adds about a third to the variance (kappa 13 % low); at the spacing or
 * more, under 9 % (4 % low). The reach, mean/sd = 2 mean / spacing, lies between 2^p and
 * 2^(p+1) by where the mean falls in its binade: float32 1.7e7 to 3.4e7, float16 2048 to 4096,
 * bfloat16 256 to 512 (float64 beyond the parameter's 1e15). */
static int fill_offset_normal(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                              const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n;
    const double kappa = p->v[0], sd = p->v[1];
    const double mu = (p->v[2] != 0 ? -sd : sd) * sqrt((kappa - 1.0) * (kappa + 1.0));
    if (check_fits(ds, dt, fabs(mu) + Z_MAX * sd, "|mean| + 13 sd", err)) return -1;
    const double ulp = fmt_ulp(fabs(mu) + Z_MAX * sd, dt);
    if (sd < 0.5 * ulp)
        return sl_err_set(err, "dataset '%s': kappa=%g with sd=%g is out of reach in %s: sd is below "
                          "half the spacing (%g) of the format's values near the mean %g (kappa at "
                          "most about %.3g there)", ds->name, kappa, sd, sl_dtype_name(dt), ulp, mu,
                          2.0 * fabs(mu) / ulp);
    const uint64_t st = sl_name_stream(ds->name), key = sl_rng_key(seed, st);
    SL_FILL_LOOP(dt, out, start, count, mu + sd * sl_normal_at(seed, st, key, i));
    return 0;
}

/* ---- square-range ------------------------------------------------------------------------ */
/* scale * (1 + rel z): values near scale with relative spread rel. The default scale (0: the
 * format's own) makes every square overflow the format while the variance, (scale rel)^2,
 * stays finite: float32 and bfloat16 1e20 (squares 1e40 > 3.4e38; variance 1e34), float64
 * 1e155 (1e310 > 1.8e308; 1e304), float16 300 (9e4 > 65504; 0.09). A tiny scale makes every
 * square underflow to 0 instead: float32/bfloat16 1e-25, float64 1e-170, float16 1e-4. */
static double square_scale(sl_dtype dt)
{
    return dt == SL_F64 ? 1e155 : dt == SL_F16 ? 300.0 : 1e20;
}

static int fill_square_range(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                             const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n;
    const double scale = p->v[0] != 0 ? p->v[0] : square_scale(dt), rel = p->v[1];
    if (check_fits(ds, dt, scale * (1.0 + Z_MAX * rel), "scale * (1 + 13 rel)", err)) return -1;
    if (sl_round_fmt(scale, dt) == 0.0)
        return sl_err_set(err, "dataset '%s': scale=%g rounds to 0 in %s (smallest value %g)", ds->name,
                          scale, sl_dtype_name(dt), sl_pow2(sl_fmt_esub(dt)));
    const uint64_t st = sl_name_stream(ds->name), key = sl_rng_key(seed, st);
    SL_FILL_LOOP(dt, out, start, count, scale * (1.0 + rel * sl_normal_at(seed, st, key, i)));
    return 0;
}

/* ---- constant ------------------------------------------------------------------------------ */
/* Every value is `value` rounded once to the format: the variance is exactly 0 and the mean
 * is that value (a sum in the format need not give it back: 0.1 is not a binary fraction).
 * The only family whose values do not depend on the seed. */
static int fill_constant(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                         const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)seed, (void)n;
    if (check_fits(ds, dt, fabs(p->v[0]), "value", err)) return -1;
    const double c = sl_round_fmt(p->v[0], dt);
    SL_FILL_LOOP(dt, out, start, count, ((void)i, c));
    return 0;
}

/* ---- two-values ---------------------------------------------------------------------------- */
/* Values a and b (each rounded once to the format), exactly k = round(share n) of them b. The
 * b slots are spread evenly over [0, n) (share 0.5: a, b, a, b, ...); order=random sends value
 * i to slot perm(i), a permutation keyed by the seed. Mean a + (b - a) k/n, variance
 * (b - a)^2 k (n - k) / (n (n - ddof)). */
typedef struct {
    sl_perm perm;
    uint64_t k, n;
    double a, b;
    int random;
} two_ctx;

static inline double two_at(const two_ctx *c, uint64_t i)
{
    const uint64_t q = c->random ? sl_perm_apply(&c->perm, i) : i;
    return spread_hit(q, c->k, c->n) ? c->b : c->a;
}

static int fill_two_values(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                           const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    if (check_fits(ds, dt, fabs(p->v[0]), "a", err) || check_fits(ds, dt, fabs(p->v[1]), "b", err)) return -1;
    two_ctx c;
    sl_perm_init(&c.perm, n, seed, sl_name_stream(ds->name));
    c.n = n;
    c.k = count_of(p->v[2], n);
    c.a = sl_round_fmt(p->v[0], dt);
    c.b = sl_round_fmt(p->v[1], dt);
    c.random = p->v[3] == 0;
    SL_FILL_LOOP(dt, out, start, count, two_at(&c, i));
    return 0;
}

/* ---- outliers ------------------------------------------------------------------------------ */
/* mean + z (z standard normal), except k outliers mean +- factor (1 + u), u uniform in [0, 1),
 * random sign: |x - mean| >= factor for them and < 12.1 for the others. row = 0: k =
 * round(fraction n) slots of [0, n) chosen by a seeded permutation; row = N > 0 (a [B, N]
 * array read row by row): round(fraction N) outlier channels, the same columns in every row,
 * as the few large channels of a transformer's activations. */
typedef struct {
    sl_perm perm;
    uint64_t k, row, ksign, kmag, key, st, seed;
    double mean, factor;
} outl_ctx;

static inline double outl_at(const outl_ctx *c, uint64_t i)
{
    const uint64_t q = sl_perm_apply(&c->perm, c->row ? i % c->row : i);
    if (q < c->k) {
        const uint64_t h = sl_rng_at(c->ksign, i);
        const double mag = c->factor * (1.0 + sl_u53(sl_rng_at(c->kmag, i)));
        return c->mean + ((h >> 63) ? -mag : mag);
    }
    return c->mean + sl_normal_at(c->seed, c->st, c->key, i);
}

static int fill_outliers(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                         const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    outl_ctx c;
    c.mean = p->v[2];
    c.factor = p->v[1];
    c.row = (uint64_t)p->v[3];
    if (check_fits(ds, dt, fabs(c.mean) + 2.0 * c.factor + Z_MAX, "|mean| + 2 factor", err)) return -1;
    const uint64_t slots = c.row ? c.row : n;
    c.k = count_of(p->v[0], slots);
    c.st = sl_name_stream(ds->name);
    c.seed = seed;
    c.key = sl_rng_key(seed, c.st);
    c.ksign = sl_rng_key(seed, c.st + STREAM_2);
    c.kmag = sl_rng_key(seed, c.st + STREAM_3);
    sl_perm_init(&c.perm, slots, seed, c.st + STREAM_4);
    SL_FILL_LOOP(dt, out, start, count, outl_at(&c, i));
    return 0;
}

/* ---- student-t ------------------------------------------------------------------------------ */
/* scale * T, T Student's t with df degrees of freedom by Bailey's polar method (Math. Comp. 62,
 * 1994): (u, v) uniform in the unit disk, W = u^2 + v^2, T = u sqrt(df (W^(-2/df) - 1) / W),
 * with W^(-2/df) - 1 = expm1(-(2/df) ln W) from the project's deterministic log and expm1.
 * df = 1 is the Cauchy distribution, df -> inf the normal; the variance df/(df-2) is finite
 * for df > 2, the kurtosis for df > 4. Values beyond the format's largest finite value are
 * clamped to it (sign kept): every value is finite in every format. */
static inline double student_at(uint64_t seed, uint64_t st, uint64_t key, uint64_t i, double df,
                                double scale, double lim)
{
    double u, v, w = sl_disk_point(seed, st, key, i, &u, &v);
    const double t = scale * (u * sqrt(df * sl_det_expm1(-(2.0 / df) * sl_det_log(w)) / w));
    return t > lim ? lim : t < -lim ? -lim : t;
}

static int fill_student_t(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                          const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)err;
    const uint64_t st = sl_name_stream(ds->name), key = sl_rng_key(seed, st);
    const double df = p->v[0], scale = p->v[1], lim = sl_fmt_max(dt);
    SL_FILL_LOOP(dt, out, start, count, student_at(seed, st, key, i, df, scale, lim));
    return 0;
}

/* ---- negative ------------------------------------------------------------------------------ */
/* -scale (1 + u), u uniform in [0, 1): every value negative, so the maximum is too, and a
 * maximum whose accumulators start at 0 instead of -Inf (the first source text's identity)
 * returns 0; the minimum lies in (-2 scale, -scale]. */
static int fill_negative(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n, const sl_params *p,
                         uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n;
    const double scale = p->v[0];
    if (check_fits(ds, dt, 2.0 * scale, "2 scale", err)) return -1;
    if (sl_round_fmt(scale, dt) == 0.0)
        return sl_err_set(err, "dataset '%s': scale=%g rounds to 0 in %s (smallest value %g)", ds->name,
                          scale, sl_dtype_name(dt), sl_pow2(sl_fmt_esub(dt)));
    const uint64_t key = sl_rng_key(seed, sl_name_stream(ds->name));
    SL_FILL_LOOP(dt, out, start, count, -scale * (1.0 + sl_u53(sl_rng_at(key, i))));
    return 0;
}

/* ---- descriptors ---------------------------------------------------------------------------- */
static const sl_param_desc offset_normal_params[] = {
    {"kappa", SL_PARAM_REAL, 100, 1, 1e15,
     "variance condition number ||x||_2/sqrt(sum (x-mean)^2): mean/sd = sqrt(kappa^2-1)", NULL},
    {"sd", SL_PARAM_REAL, 1, 1e-20, 1e20, "standard deviation", NULL},
    {"sign", SL_PARAM_ENUM, 0, 0, 1, "sign of the mean", "pos|neg"},
};
static const sl_param_desc square_range_params[] = {
    {"scale", SL_PARAM_REAL, 0, 0, 1e300,
     "magnitude; 0: squares overflow the format (f32/bf16 1e20, f64 1e155, f16 300)", NULL},
    {"rel", SL_PARAM_REAL, 1e-3, 0, 1, "relative spread: values scale * (1 + rel z), z ~ N(0,1)", NULL},
};
static const sl_param_desc constant_params[] = {
    {"value", SL_PARAM_REAL, 0.1, -1e300, 1e300, "the value (rounded once to the format)", NULL},
};
static const sl_param_desc two_values_params[] = {
    {"a", SL_PARAM_REAL, 1, -1e300, 1e300, "first value (rounded once to the format)", NULL},
    {"b", SL_PARAM_REAL, 2, -1e300, 1e300, "second value (rounded once to the format)", NULL},
    {"share", SL_PARAM_REAL, 0.5, 0, 1, "share of b: round(share*n) values are b", NULL},
    {"order", SL_PARAM_ENUM, 0, 0, 1, "random: b's slots by the seed; spread: evenly (a,b,a,b at 0.5)",
     "random|spread"},
};
static const sl_param_desc outliers_params[] = {
    {"fraction", SL_PARAM_REAL, 1e-3, 0, 0.5, "share of outliers: round(fraction*n) values (or columns)", NULL},
    {"factor", SL_PARAM_REAL, 1e3, 1, 1e8, "outliers lie at mean +- factor*(1+u), u in [0,1)", NULL},
    {"mean", SL_PARAM_REAL, 0, -1e6, 1e6, "mean of the N(mean, 1) base", NULL},
    {"row", SL_PARAM_INT, 0, 0, 4294967296.0,
     "row length N of a [B,N] array: outliers in the same columns of every row (0: anywhere)", NULL},
};
static const sl_param_desc student_t_params[] = {
    {"df", SL_PARAM_REAL, 3, 1, 1e6, "degrees of freedom (1: Cauchy; variance finite above 2)", NULL},
    {"scale", SL_PARAM_REAL, 1, 1e-20, 1e20, "scale (values clamped to the format's largest)", NULL},
};

static const sl_param_desc negative_params[] = {
    {"scale", SL_PARAM_REAL, 1, 1e-20, 1e20, "values in (-2 scale, -scale]", NULL},
};

const sl_dataset sl_ds_offset_normal = {"offset-normal",
    "normal with mean/sd = sqrt(kappa^2-1): variance condition number kappa", offset_normal_params, 3,
    fill_offset_normal, SL_DS_OPT_IN};
const sl_dataset sl_ds_square_range = {"square-range",
    "values whose squares overflow (or underflow) the format, variance finite", square_range_params, 2,
    fill_square_range, SL_DS_OPT_IN};
const sl_dataset sl_ds_constant = {"constant", "every value equal: variance exactly 0", constant_params, 1,
                                   fill_constant, SL_DS_OPT_IN};
const sl_dataset sl_ds_two_values = {"two-values", "values a and b, round(share*n) of them b",
                                     two_values_params, 4, fill_two_values, SL_DS_OPT_IN};
const sl_dataset sl_ds_outliers = {"outliers", "N(mean,1) with a few values (or channels) factor times larger",
                                   outliers_params, 4, fill_outliers, SL_DS_OPT_IN};
const sl_dataset sl_ds_student_t = {"student-t",
    "Student t heavy tail (df = 1: Cauchy), Bailey's polar method, clamped to the format",
    student_t_params, 2, fill_student_t, SL_DS_OPT_IN};
const sl_dataset sl_ds_negative = {"negative",
    "every value negative, -scale (1 + u): a maximum started at 0 returns 0", negative_params, 1,
    fill_negative, SL_DS_OPT_IN};

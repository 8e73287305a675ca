/* gen_dot.c: the pair families of the two-input operation dot (SL_DS_PAIR | SL_DS_OPT_IN): a
 * family's dataset of length 2n holds x in values [0, n) and y in values [n, 2n)
 * (sl_dataset_generate_pair splits it; `sumlab gen` writes x then y in one file), each value a pure function of (seed, 2n, params, i).
 *   dot-random    x and y uniform in [-1, 1) or normal, from two independent streams
 *   dot-cond      dot products of a prescribed condition number: cancelling pairs of large products
 *   dot-overflow  products that overflow / underflow the format while the dot is finite
 * Cancelling pairs: with m = n / 2, element j < m and its partner j + m form pair q = j; a large
 * pair holds x_j = s a, y_j = b and x_{j+m} = -x_j, y_{j+m} = y_j (each rounded once, and rounding
 * commutes with negation), so the two products cancel exactly in the exact dot while every
 * rounded or overflowing evaluation of them does not. The other elements are small: x, y uniform
 * in [-1, 1). Value-i purity (any slice reproduces the same values) rules out Ogita, Rump and
 * Oishi's sequential GenDot (its second half depends on the running dot of the first). dot-cond
 * sets two things from the target c (Ogita, Rump and Oishi's 2 sum|x y| / |x'y|, at least 2):
 * a fraction beta = min(1, 2 / c) of the small pairs has its product made non-negative (x takes
 * y's sign), so the small products' sum has the mean beta (n - m) / 4 against their absolute sum
 * (n - m) / 4, which alone gives the condition number 2 / beta = c when c is below the random
 * products' own, about 1.5 sqrt(n - m); the large products' total size m B then adds what a
 * larger c needs: m B = c D / 2 - (n - m) / 4 (none when negative), with D the larger of that
 * mean and sqrt((n - m) / 9), the random products' spread, as the size of the small products'
 * sum. The realised condition number is near c on average but not equal to it (most spread where
 * c is near the random products' own): the reference reports it (the `cond` column). B is
 * capped where the large products' sum would approach the format's largest value (float16). */
#include "sl_ds_impl.h"

#define STREAM_Y ((uint64_t)1 << 33)
#define STREAM_PAIR ((uint64_t)1 << 34)
#define STREAM_SIGN ((uint64_t)1 << 35)

/* [-1, 1) from 53 bits */
static inline double sym(uint64_t u) { return sl_u53(u) * 2.0 - 1.0; }

/* The pair's length n from the dataset's length 2n (an odd length's last value, in no pair, is
 * drawn as y's values are; sl_dataset_generate_pair always asks an even one). */
static int pair_n(const sl_dataset *ds, uint64_t total, uint64_t *n, sl_err *err)
{
    (void)ds; (void)err;
    *n = total / 2;
    return 0;
}

/* ---- dot-random ---- */
static int fill_dot_random(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t total,
                           const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    uint64_t n = 0;
    if (pair_n(ds, total, &n, err)) return -1;
    const int normal = p->v[0] != 0;
    const uint64_t st = sl_name_stream(ds->name);
    const uint64_t kx = sl_rng_key(seed, st), ky = sl_rng_key(seed, st + STREAM_Y);
    SL_FILL_LOOP(dt, out, start, count,
                 i < n ? (normal ? sl_normal_at(seed, st, kx, i) : sym(sl_rng_at(kx, i)))
                       : (normal ? sl_normal_at(seed, st + STREAM_Y, ky, i - n) : sym(sl_rng_at(ky, i - n))));
    return 0;
}

/* Value i of a cancelling-pairs dataset of pair length n: large pairs with factors of size about
 * a (x) and b (y) (each times 1 + u/2, u in [-1, 1)), a pair large with probability 1/2; with
 * tiny > 0 the other pairs are pairs of tiny factors (every second one) and small ones; a small
 * pair's x takes its y's sign with probability beta (its product is then >= 0). */
static double pairs_value(uint64_t seed, const sl_dataset *ds, uint64_t n, uint64_t i, double a, double b,
                          double tiny, double beta)
{
    const int is_y = i >= n;
    const uint64_t j = is_y ? i - n : i;
    const uint64_t m = n / 2;
    const uint64_t st = sl_name_stream(ds->name);
    const uint64_t kp = sl_rng_key(seed, st + STREAM_PAIR), kx = sl_rng_key(seed, st);
    if (j < 2 * m) {
        const uint64_t q = j % m;
        const uint64_t h = sl_rng_at(kp, q);
        if (h & 1u) {                       /* a large pair */
            const double s = (h & 2u) ? -1.0 : 1.0;
            const double xv = s * a * (1.0 + sym(sl_rng_at(kx, 2 * q)) / 2.0);
            const double yv = b * (1.0 + sym(sl_rng_at(kx, 2 * q + 1)) / 2.0);
            if (is_y) return yv;
            return j < m ? xv : -xv;
        }
        if (tiny > 0 && (h & 4u)) {         /* tiny factors: products below the format's range */
            const double v = tiny * (1.0 + sym(sl_rng_at(kx, 2 * j + is_y + 4 * n)) / 2.0);
            return (h & 8u) && !is_y ? -v : v;
        }
    }
    /* small */
    const double yv = sym(sl_rng_at(sl_rng_key(seed, st + STREAM_Y), j + 2 * n));
    if (is_y) return yv;
    const double xv = sym(sl_rng_at(kx, j + 2 * n));
    if (beta > 0 && sl_u53(sl_rng_at(sl_rng_key(seed, st + STREAM_SIGN), j)) < beta) return copysign(fabs(xv), yv);
    return xv;
}

/* ---- dot-cond ---- */
static int fill_dot_cond(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t total,
                         const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    uint64_t n = 0;
    if (pair_n(ds, total, &n, err)) return -1;
    const double cond = p->v[0];
    const double m = (double)(n / 2), ns = (double)n - m;
    const double beta = cond > 2.0 ? 2.0 / cond : 1.0;
    const double mean = beta * ns / 4.0, sd = sqrt(ns / 9.0), D = mean > sd ? mean : sd;
    double B = (cond * D / 2.0 - ns / 4.0) / (m > 1 ? m : 1);
    if (!(B > 0)) B = 0.0;
    /* every large product (<= 2.25 B) and their sum stay finite in the format: B is capped at a
     * quarter of what that allows (float16 reaches cond ~ 1e4 at n = 1000; the reference reports
     * the realised condition number) */
    const double cap = sl_fmt_max(dt) / (9.0 * (m > 1 ? m : 1));
    if (B > cap) B = cap;
    const double a = sqrt(B);
    SL_FILL_LOOP(dt, out, start, count, pairs_value(seed, ds, n, i, a, a, 0.0, beta));
    return 0;
}

/* ---- dot-overflow ---- */
static int fill_dot_overflow(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t total,
                             const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    uint64_t n = 0;
    if (pair_n(ds, total, &n, err)) return -1;
    const int kind = (int)p->v[0];          /* 0 both, 1 overflow, 2 underflow */
    /* large factors: G^2 about 2^(emax + 4) (products overflow), G itself finite; tiny factors:
     * t^2 about 2^(emin - 8) (products below the normal range, most below the subnormal one) */
    const double G = kind == 2 ? 1.0 : ldexp(1.0, sl_fmt_emax(dt) / 2 + 2);
    const double t = kind == 1 ? 0.0 : ldexp(1.0, sl_fmt_emin(dt) / 2 - 4);
    SL_FILL_LOOP(dt, out, start, count, pairs_value(seed, ds, n, i, G, G, t, 0.0));
    return 0;
}

static const sl_param_desc dot_random_params[] = {
    {"dist", SL_PARAM_ENUM, 0, 0, 1, "uniform in [-1, 1) or normal (x and y independent)", "uniform|normal"},
};
static const sl_param_desc dot_cond_params[] = {
    {"cond", SL_PARAM_REAL, 1e10, 1, 1e40, "target condition number 2 sum|x y| / |x'y| (the "
     "realised one is near it: the reference reports it; at most 2, every product >= 0, gives 2)", NULL},
};
static const sl_param_desc dot_overflow_params[] = {
    {"kind", SL_PARAM_ENUM, 0, 0, 2, "large products that overflow the format (cancelling exactly), "
     "tiny ones that underflow it, or both", "both|overflow|underflow"},
};

const sl_dataset sl_ds_dot_random = {"dot-random", "pairs (x, y) for dot: uniform in [-1, 1) or "
    "normal, independent streams", dot_random_params, 1, fill_dot_random, SL_DS_OPT_IN | SL_DS_PAIR};
const sl_dataset sl_ds_dot_cond = {"dot-cond", "pairs (x, y) for dot with a prescribed condition "
    "number: exactly cancelling pairs of large products among small ones", dot_cond_params, 1,
    fill_dot_cond, SL_DS_OPT_IN | SL_DS_PAIR};
const sl_dataset sl_ds_dot_overflow = {"dot-overflow", "pairs (x, y) for dot whose products "
    "overflow (cancelling exactly) or underflow the format while the dot is finite",
    dot_overflow_params, 1, fill_dot_overflow, SL_DS_OPT_IN | SL_DS_PAIR};

int sl_dataset_generate_pair(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                             const sl_params *p, void *x, void *y, unsigned threads, sl_err *err)
{
    if (!(ds->flags & SL_DS_PAIR))
        return sl_err_set(err, "dataset '%s' yields one array, not a pair (x, y)", ds->name);
    if (n > ((uint64_t)1 << 47)) return sl_err_set(err, "dataset '%s': n = %llu is too large",
                                                   ds->name, (unsigned long long)n);
    if (sl_dataset_generate_threads(ds, dt, seed, 2 * n, p, 0, n, x, threads, err)) return -1;
    return sl_dataset_generate_threads(ds, dt, seed, 2 * n, p, n, n, y, threads, err);
}

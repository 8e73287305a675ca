/* gen_adversarial.c: the families built against summation: ill-conditioned, absorption,
 * cancellation, overflow and special (Inf/NaN). Value i stays a pure function of i.
 *
 * ill-conditioned (target condition number C = sum|x| / |sum x|), a counter-based GenSum:
 *   - A pseudo-random permutation pi of [0,n) (Feistel network + cycle walking, keyed by the
 *     seed) sends element i to slot q = pi(i).
 *   - m = floor(n/4) cancelling pairs occupy slots q < 2m: slot q holds (-1)^q * a_{q/2}, so
 *     both members of a pair are exact negations (exact cancellation) scattered over [0,n).
 *     a_k = G * 2^-j_k * mu_k, with j_k uniform in {0..D-1} and mu_k uniform in [1,2), rounded
 *     once to the format (the negation is exact, so pairs still cancel exactly).
 *   - The r = n - 2m other slots hold the positive signal s = uniform in [1,2), exact in the
 *     format. The exact sum is S = sum s (about 1.5 r) and sum|x| = S + 2 sum a.
 *   - E[a] = 3 G (1 - 2^-D) / D, so choosing G = (C-1) r D / (4 m (1 - 2^-D)) makes
 *     E[sum|x|] / E[S] = C. D, the number of binades the pairs spread over, is log2(G) (pairs
 *     from the signal's scale up to G, so every intermediate scale loses bits), capped at m/16
 *     so that each binade holds at least 16 pairs on average: the sum of the largest ones then
 *     has a relative spread of about 15%, and the measured condition number stays within a
 *     factor of 2 of C for n >= 1000 (the tests require 10). C = 1 gives no pairs at all.
 *   - The largest value is below 2G; a C whose G would exceed max/4 of the format is an error.
 */
#include "sl_ds_impl.h"

/* ceil(log2(y)) for finite y > 0 (exact: frexp). */
static int ceil_log2(double y)
{
    int e;
    double f = frexp(y, &e); /* y = f 2^e, f in [1/2, 1) */
    return f == 0.5 ? e - 1 : e;
}

/* ---- ill-conditioned ---------------------------------------------------------------------- */
typedef struct {
    sl_perm perm;
    uint64_t m;                /* number of cancelling pairs */
    uint64_t kpair, kexp, ksig;
    uint64_t D;
    double G;
} illc_ctx;

static int illc_setup(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n, double C,
                      illc_ctx *c, sl_err *err)
{
    const uint64_t st = sl_name_stream(ds->name);
    sl_perm_init(&c->perm, n, seed, st + 3);
    c->kpair = sl_rng_key(seed, st);
    c->kexp = sl_rng_key(seed, st + 1);
    c->ksig = sl_rng_key(seed, st + 2);
    c->m = C > 1.0 ? n / 4 : 0;
    c->D = 1;
    c->G = 0.0;
    if (c->m == 0) return 0;
    const double r = (double)(n - 2 * c->m), m = (double)c->m;
    uint64_t cap = c->m / 16;
    if (cap < 1) cap = 1;
    if (cap > 2000) cap = 2000;
    for (int it = 0; it < 4; it++) { /* G grows with D only linearly: a fixed point in a few steps */
        c->G = (C - 1.0) * r * (double)c->D / (4.0 * m * (1.0 - sl_pow2(-(int)c->D)));
        int want = c->G > 1.0 ? ceil_log2(c->G) + 1 : 1;
        c->D = (uint64_t)want > cap ? cap : (uint64_t)want;
    }
    c->G = (C - 1.0) * r * (double)c->D / (4.0 * m * (1.0 - sl_pow2(-(int)c->D)));
    if (!(c->G <= sl_fmt_max(dt) / 4.0)) {
        sl_err_set(err, "dataset '%s': cond=%g is out of reach in %s for n=%llu (pairs would need "
                "magnitudes near %g)", ds->name, C, sl_dtype_name(dt), (unsigned long long)n, c->G);
        return -1;
    }
    return 0;
}

static inline double illc_at(const illc_ctx *c, uint64_t i, sl_dtype dt)
{
    uint64_t q = sl_perm_apply(&c->perm, i);
    if (q < 2 * c->m) {
        uint64_t k = q >> 1;
        uint64_t j = ((sl_rng_at(c->kexp, k) >> 32) * c->D) >> 32;
        double a = sl_round_fmt(c->G * sl_pow2(-(int)j) * sl_mant(sl_rng_at(c->kpair, k), dt), dt);
        return (q & 1u) ? -a : a;
    }
    return sl_mant(sl_rng_at(c->ksig, q), dt);
}

static int fill_ill_conditioned(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                                const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    illc_ctx c;
    if (illc_setup(ds, dt, seed, n, p->v[0], &c, err)) return -1;
    SL_FILL_LOOP(dt, out, start, count, illc_at(&c, i, dt));
    return 0;
}

/* ---- absorption ---------------------------------------------------------------------------- */
/* x_0 = 2^big; x_i (i > 0) = ulp(2^big) * frac * mu / 2, mu in [1,2): every x_i is below half
 * an ulp of x_0, so a recursive sum stays at x_0 while the exact sum grows by about
 * 0.75 frac (n-1) ulps. */
static int fill_absorption(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                           const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n;
    const int big = (int)p->v[0];
    const double frac = p->v[1], B = sl_pow2(big), ulp = sl_pow2(big - sl_fmt_prec(dt) + 1);
    if (big > sl_fmt_emax(dt) || ulp * frac * 0.5 < sl_pow2(sl_fmt_esub(dt)))
        return sl_err_set(err, "dataset '%s': big=%d with frac=%g does not fit %s (2^big at most "
                          "2^%d, the small values at least 2^%d)", ds->name, big, frac,
                          sl_dtype_name(dt), sl_fmt_emax(dt), sl_fmt_esub(dt));
    const uint64_t key = sl_rng_key(seed, sl_name_stream(ds->name));
    SL_FILL_LOOP(dt, out, start, count,
                 i == 0 ? B : sl_round_fmt(ulp * frac * 0.5 * sl_mant(sl_rng_at(key, i), dt), dt));
    return 0;
}

/* ---- cancellation ------------------------------------------------------------------------ */
/* Pairs (a, -a) with a = 2^e mu, e uniform in [-espan, espan], scattered by the permutation;
 * the exact sum is 0, or rem (rounded to the format) planted in one slot. Odd leftovers are 0. */
typedef struct {
    sl_perm perm;
    uint64_t m, kmant, kexp, span;
    int elo;
    double rem;
} canc_ctx;

static inline double canc_at(const canc_ctx *c, uint64_t i, sl_dtype dt)
{
    uint64_t q = sl_perm_apply(&c->perm, i);
    if (q < 2 * c->m) {
        uint64_t k = q >> 1;
        int e = c->elo + (int)(((sl_rng_at(c->kexp, k) >> 32) * c->span) >> 32);
        double a = sl_pow2(e) * sl_mant(sl_rng_at(c->kmant, k), dt);
        return (q & 1u) ? -a : a;
    }
    return q == 2 * c->m ? c->rem : 0.0;
}

static int fill_cancellation(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                             const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    canc_ctx c;
    c.rem = sl_round_fmt(p->v[1], dt);
    if (p->v[1] != 0.0 && c.rem == 0.0)   /* would plant nothing: the exact sum 0, not rem */
        return sl_err_set(err, "dataset '%s': rem=%g rounds to 0 in %s (smallest value %g)", ds->name,
                          p->v[1], sl_dtype_name(dt), sl_pow2(sl_fmt_esub(dt)));
    const uint64_t st = sl_name_stream(ds->name);
    sl_perm_init(&c.perm, n, seed, st + 2);
    c.kmant = sl_rng_key(seed, st);
    c.kexp = sl_rng_key(seed, st + 1);
    int espan = (int)p->v[0];   /* clamped so that |a| < 2^emax (float16: espan <= 14) */
    if (espan > sl_fmt_emax(dt) - 1) espan = sl_fmt_emax(dt) - 1;
    c.elo = -espan;
    c.span = 2 * (uint64_t)espan + 1;
    c.m = (n - (c.rem != 0.0 && n > 0 ? 1 : 0)) / 2;
    SL_FILL_LOOP(dt, out, start, count, canc_at(&c, i, dt));
    return 0;
}

/* ---- overflow ------------------------------------------------------------------------------ */
/* h = floor(n/2) values a*mu_j (j < h), then h values -a*mu'_j, where mu'_j is mu_j with its
 * lowest 8 mantissa bits redrawn; odd n ends with 1. a is the power of two with h*a >= peak*2^(emax+1),
 * so the prefix sum after the first half exceeds peak * max: a recursive sum overflows. The
 * exact total is a * sum(mu_j - mu'_j), below h*a*2^(10-p) < max: finite. For tiny n
 * (h < 4 peak) a is capped at 2^(emax-1) and the prefix may stay finite. */
typedef struct {
    uint64_t h, kmant, klow, lowmask;
    double a;
    int prec;
} ovf_ctx;

static inline double ovf_at(const ovf_ctx *c, uint64_t i)
{
    if (i >= 2 * c->h) return 1.0;
    uint64_t j = i < c->h ? i : i - c->h;
    uint64_t bits = sl_rng_at(c->kmant, j) >> (65 - c->prec); /* p-1 mantissa bits */
    if (i >= c->h) bits = (bits & ~c->lowmask) | (sl_rng_at(c->klow, j) & c->lowmask);
    double mu = 1.0 + (double)bits * sl_pow2(1 - c->prec);
    return i < c->h ? c->a * mu : -(c->a * mu);
}

static int fill_overflow(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                         const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)err;
    ovf_ctx c;
    const uint64_t st = sl_name_stream(ds->name);
    c.kmant = sl_rng_key(seed, st);
    c.klow = sl_rng_key(seed, st + 1);
    c.h = n / 2;
    c.prec = sl_fmt_prec(dt);
    /* the 16-bit formats redraw only the last mantissa bit: 8 of their 7 or 10 would leave the
     * total near peak * max (|total| <= h a 2^(1-p), about peak max 2^(2-p)) */
    c.lowmask = sl_dtype_is_half(dt) ? 1u : 0xFFu;
    int ea = sl_fmt_emax(dt) - 1;
    if (c.h > 0) {
        int want = sl_fmt_emax(dt) + 1 + ceil_log2(p->v[0] / (double)c.h);
        if (want < ea) ea = want;
    }
    c.a = sl_pow2(ea);
    SL_FILL_LOOP(dt, out, start, count, ovf_at(&c, i));
    return 0;
}

/* ---- special ------------------------------------------------------------------------------ */
/* uniform-sym values with `count` slots (chosen by the permutation) replaced by specials. */
enum { SP_NAN, SP_INF, SP_NINF, SP_POSNEG, SP_NANINF };
typedef struct {
    sl_perm perm;
    uint64_t key, count;
    int kind;
} sp_ctx;

static inline double special_at(const sp_ctx *c, uint64_t i, sl_dtype dt)
{
    uint64_t q = sl_perm_apply(&c->perm, i);
    if (q < c->count) {
        switch (c->kind) {
        case SP_NAN: return NAN;
        case SP_INF: return INFINITY;
        case SP_NINF: return -INFINITY;
        case SP_POSNEG: return (q & 1u) ? -INFINITY : INFINITY;
        default: return (q & 1u) ? INFINITY : NAN;
        }
    }
    uint64_t u = sl_rng_at(c->key, i);
    return dt == SL_F64 ? (double)(u >> 10) * 0x1p-53 - 1.0 : (double)(u >> 39) * 0x1p-24 - 1.0;
}

static int fill_special(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                        const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    if (n > 0 && p->v[1] > (double)n)
        return sl_err_set(err, "special: count=%.0f exceeds n=%llu (at most n special values)",
                          p->v[1], (unsigned long long)n);
    sp_ctx c;
    const uint64_t st = sl_name_stream(ds->name);
    sl_perm_init(&c.perm, n, seed, st + 1);
    c.key = sl_rng_key(seed, st);
    c.kind = (int)p->v[0];
    c.count = (uint64_t)p->v[1];
    SL_FILL_LOOP(dt, out, start, count, special_at(&c, i, dt));
    return 0;
}

/* ---- descriptors ---------------------------------------------------------------------------- */
static const sl_param_desc illc_params[] = {
    {"cond", SL_PARAM_REAL, 1e16, 1, 1e300, "target condition number sum|x|/|sum x| (n >= 1000)", NULL},
};
static const sl_param_desc absorption_params[] = {
    {"big", SL_PARAM_INT, 0, -100, 100, "x_0 = 2^big", NULL},
    {"frac", SL_PARAM_REAL, 0.49, 1e-6, 0.5, "small values lie in [frac/2, frac) ulp(x_0)", NULL},
};
static const sl_param_desc cancellation_params[] = {
    {"espan", SL_PARAM_INT, 20, 0, 100, "pair magnitudes 2^e*m with e in [-espan, espan]", NULL},
    {"rem", SL_PARAM_REAL, 0, -1, 1, "planted exact remainder (0: the exact sum is 0)", NULL},
};
static const sl_param_desc overflow_params[] = {
    {"peak", SL_PARAM_REAL, 4, 1.5, 1000, "largest prefix sum / format max (n >= 8*peak)", NULL},
};
static const sl_param_desc special_params[] = {
    {"kind", SL_PARAM_ENUM, SP_NAN, 0, SP_NANINF, "which specials", "nan|inf|-inf|posneg-inf|nan-inf"},
    {"count", SL_PARAM_INT, 1, 1, 281474976710656.0, "number of special values (at most n)", NULL},
};

const sl_dataset sl_ds_ill_conditioned = {"ill-conditioned",
    "exact cancelling pairs over a positive signal; condition number near cond", illc_params, 1,
    fill_ill_conditioned, 0};
const sl_dataset sl_ds_absorption = {"absorption", "2^big first, then values under half an ulp of it",
                                     absorption_params, 2, fill_absorption, 0};
const sl_dataset sl_ds_cancellation = {"cancellation", "shuffled pairs x, -x: exact sum 0 (or rem)",
                                       cancellation_params, 2, fill_cancellation, 0};
const sl_dataset sl_ds_overflow = {"overflow", "prefix sums overflow in recursive order, exact total finite",
                                   overflow_params, 1, fill_overflow, 0};
const sl_dataset sl_ds_special = {"special", "uniform-sym with NaN and/or Inf planted", special_params, 2,
                                  fill_special, 0};

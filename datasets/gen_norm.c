/* gen_norm.c: the families built for the Euclidean norm `norm2`: nrm2-table (LAPACK dblat1's
 * DB1NRM2 sweep), huge and tiny (values whose squares overflow or underflow the format while the
 * norm stays finite), sq-overflow (values just above the square root of the format's largest value:
 * float16 > 256). Opt-in (SL_DS_OPT_IN): a sweep over every family leaves them out unless named.
 *
 * Every value is computed in double from counter-based draws (value i a pure function of
 * (seed, params, i)) and rounded once to the format by SL_FILL_LOOP; parameters that would send a
 * value beyond the format's largest finite value are refused before any value is written (but
 * nrm2-table's Inf and NaN entries, which are the point of those cases). */
#include "sl_ds_impl.h"

/* ---- nrm2-table ------------------------------------------------------------------------------
 * DB1NRM2 (dblat1.f, LAPACK 3.10): x(1) and the scale of x(2:n) each over the values
 * 0, 2 safmin, safmin (the smallest normal), ulp (2^(1-p)), 1, 1/ulp, the largest value,
 * safmax = 1/safmin, Inf, NaN of the dataset's format. x(1) is that value; x(i), i >= 2, is the
 * scale times m_i, m_i in [1/2, 1) with a random sign (exact products for the powers of two;
 * the largest value times m_i rounded once). */
#define NRM_TABLE_N 10
static double table_value(int k, sl_dtype dt)
{
    const double safmin = sl_pow2(sl_fmt_emin(dt)), ulp = sl_pow2(1 - sl_fmt_prec(dt));
    switch (k) {
    case 0: return 0.0;
    case 1: return 2.0 * safmin;
    case 2: return safmin;
    case 3: return ulp;
    case 4: return 1.0;
    case 5: return 1.0 / ulp;
    case 6: return sl_fmt_max(dt);
    case 7: return 1.0 / safmin;
    case 8: return INFINITY;
    default: return NAN;
    }
}

static double table_at(uint64_t seed, uint64_t st, uint64_t i, double x1, double scale, sl_dtype dt)
{
    if (i == 0) return x1;
    const double u = sl_rng_unit(seed, st, i);
    const double m = 0.5 + 0.5 * u;                       /* [1/2, 1) */
    const double s = sl_rng_unit(seed, st + 1, i) < 0.5 ? -1.0 : 1.0;
    return s * sl_round_fmt(m, dt) * scale;
}

static int fill_nrm2_table(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                           const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n, (void)err;
    const double x1 = table_value((int)p->v[0], dt), scale = table_value((int)p->v[1], dt);
    const uint64_t st = sl_name_stream(ds->name);
    SL_FILL_LOOP(dt, out, start, count, table_at(seed, st, i, x1, scale, dt));
    return 0;
}

/* ---- huge / tiny / sq-overflow ------------------------------------------------------------------
 * scale * (1 + rel (2u - 1)) with a random sign. huge's default scale (0): every square overflows
 * the format and the norm of up to 2^20 values stays finite: float32 and bfloat16 1e20, float64
 * 1e200, float16 300; tiny's: every square underflows to 0 while each value is normal: float32 and
 * bfloat16 1e-25, float64 1e-200, float16 1e-4 (its square 1e-8 is below float16's least
 * subnormal, 6e-8). sq-overflow: values in [t, t span) with t = sqrt(largest value): float16
 * 256 to 512 by default, float32 1.8e19 to 3.7e19. */
static double default_scale(const char *name, sl_dtype dt)
{
    const int tiny = name[0] == 't';
    if (dt == SL_F64) return tiny ? 1e-200 : 1e200;
    if (dt == SL_F16) return tiny ? 1e-4 : 300.0;
    return tiny ? 1e-25 : 1e20;
}

static int fill_scaled(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                       const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n;
    const double scale = p->v[0] != 0 ? p->v[0] : default_scale(ds->name, dt), rel = p->v[1];
    const double top = scale * (1.0 + rel);
    if (!isfinite(sl_round_fmt(top, dt)))
        return sl_err_set(err, "dataset '%s': scale * (1 + rel) reaches %g, beyond %s's largest value %g",
                          ds->name, top, sl_dtype_name(dt), sl_fmt_max(dt));
    if (sl_round_fmt(scale * (1.0 - rel), dt) == 0.0)
        return sl_err_set(err, "dataset '%s': scale * (1 - rel) = %g rounds to 0 in %s", ds->name,
                          scale * (1.0 - rel), sl_dtype_name(dt));
    const uint64_t st = sl_name_stream(ds->name);
    SL_FILL_LOOP(dt, out, start, count,
                 (sl_rng_unit(seed, st + 1, i) < 0.5 ? -1.0 : 1.0) * scale *
                     (1.0 + rel * (2.0 * sl_rng_unit(seed, st, i) - 1.0)));
    return 0;
}

static int fill_sq_overflow(const sl_dataset *ds, sl_dtype dt, uint64_t seed, uint64_t n,
                            const sl_params *p, uint64_t start, uint64_t count, void *out, sl_err *err)
{
    (void)n;
    const double t = sqrt(sl_fmt_max(dt)), span = p->v[0];
    if (!isfinite(sl_round_fmt(t * span * (1.0 + 0x1p-7), dt)))
        return sl_err_set(err, "dataset '%s': span=%g reaches %g, beyond %s's largest value %g", ds->name,
                          span, t * span, sl_dtype_name(dt), sl_fmt_max(dt));
    const uint64_t st = sl_name_stream(ds->name);
    /* rounded up to the format's next value above t when t itself rounds below it */
    SL_FILL_LOOP(dt, out, start, count,
                 (sl_rng_unit(seed, st + 1, i) < 0.5 ? -1.0 : 1.0) *
                     (t * (1.0 + (span - 1.0) * sl_rng_unit(seed, st, i)) * (1.0 + 0x1p-7)));
    return 0;
}

#define NRM_TABLE_CHOICES "zero|2safmin|safmin|ulp|one|1/ulp|largest|safmax|inf|nan"
static const sl_param_desc nrm2_table_params[] = {
    {"x1", SL_PARAM_ENUM, 4, 0, NRM_TABLE_N - 1, "x(1): one of DB1NRM2's values", NRM_TABLE_CHOICES},
    {"scale", SL_PARAM_ENUM, 4, 0, NRM_TABLE_N - 1, "the scale of x(2:n): one of DB1NRM2's values",
     NRM_TABLE_CHOICES},
};
static const sl_param_desc huge_params[] = {
    {"scale", SL_PARAM_REAL, 0, 0, 1e300,
     "magnitude; 0: squares overflow the format (f32/bf16 1e20, f64 1e200, f16 300)", NULL},
    {"rel", SL_PARAM_REAL, 0.1, 0, 0.5, "relative spread: scale * (1 + rel (2u - 1))", NULL},
};
static const sl_param_desc tiny_params[] = {
    {"scale", SL_PARAM_REAL, 0, 0, 1e300,
     "magnitude; 0: squares underflow the format (f32/bf16 1e-25, f64 1e-200, f16 1e-4)", NULL},
    {"rel", SL_PARAM_REAL, 0.1, 0, 0.5, "relative spread: scale * (1 + rel (2u - 1))", NULL},
};
static const sl_param_desc sq_overflow_params[] = {
    {"span", SL_PARAM_REAL, 2, 1, 1e10,
     "values in [t, t span), t = sqrt(largest value) (float16: 256 to 512 at span 2)", NULL},
};

const sl_dataset sl_ds_nrm2_table = {"nrm2-table",
    "LAPACK dblat1's DB1NRM2: x(1) and the scale of x(2:n) over 0, 2 safmin, safmin, ulp, 1, 1/ulp, "
    "largest, safmax, Inf, NaN", nrm2_table_params, 2, fill_nrm2_table, SL_DS_OPT_IN};
const sl_dataset sl_ds_huge = {"huge", "values whose squares overflow the format, norm finite",
                               huge_params, 2, fill_scaled, SL_DS_OPT_IN};
const sl_dataset sl_ds_tiny = {"tiny", "values whose squares underflow the format, norm normal",
                               tiny_params, 2, fill_scaled, SL_DS_OPT_IN};
const sl_dataset sl_ds_sq_overflow = {"sq-overflow",
    "values just above sqrt(largest value) (float16 > 256): every square overflows",
    sq_overflow_params, 1, fill_sq_overflow, SL_DS_OPT_IN};

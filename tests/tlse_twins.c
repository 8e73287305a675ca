/* tlse_twins.c: every lse variant's CPU twin against the exact reference (reference/sl_lse.c):
 * within its bound (ops.c's lse bound) on logits of several spreads, shifted far negative and far
 * positive, with -Inf masks and a dominant logit, and on every dataset family, in every format it
 * takes, at n = 1 .. 2^16+3 and several launch shapes; the special values (NaN -> NaN, +Inf ->
 * +Inf, all -Inf and n = 0 -> -Inf, one value among -Inf masks -> that value, 0 and 2.5); naive overflows
 * where the shifted forms do not, and gives -Inf and +Inf on logits-low and logits-high in every
 * format; and the variants are the ones the registry lists for `lse` (exact first). */
#include <math.h>
#include <string.h>
#include "sl_lse.h"
#include "sl_measure.h"
#include "sl_ops.h"
#include "sl_datasets.h"
#include "sl_test.h"
#include "sl_test_half.h"
#include "sl_test_values.h"
#include "sl_twin.h"
#include "sumlab/half.h"

static const sl_dtype dts[4] = {SL_F32, SL_F64, SL_F16, SL_BF16};


static const sl_operation *op;
static double worst_ratio;

/* Every variant within its bound on x (finite reference); returns nothing. */
static void check_bounds(const void *x, uint64_t n, sl_dtype dt, const char *what)
{
    sl_reference ref;
    sl_err err = {0};
    CHECK(sl_reference_lse(&ref, x, n, dt, 1, &err) == 0, "%s: %s", what, err.msg);
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (strcmp(v->op, "lse") || !v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        const uint32_t shapes[3][2] = {{0, 0}, {64, 3}, {1024, 1}};
        for (int s = 0; s < 3; s++) {
            sl_launch cfg;
            const double r = sl_test_cpu_run(v, x, n, dt, shapes[s][0], shapes[s][1], &cfg);
            const double b = op->bound(v, &ref, n, dt, &cfg);
            const sl_errors e = sl_reference_errors(&ref, r, dt);
            if (!ref.finite) { /* -Inf (every value masked): the same value */
                CHECK(sl_test_same(r, ref.rounded), "%s %s dt %d: %a, expected %a", v->name, what, dt, r,
                      ref.rounded);
                continue;
            }
            if ((!strcmp(v->name, "naive") || !strcmp(v->name, "half-acc")) && isinf(b))
                continue; /* naive out of its range */
            CHECK(e.abs_err <= b, "%s %s dt %d n %llu shape %d: |%a - lse| = %g > bound %g (lse %a)",
                  v->name, what, dt, (unsigned long long)n, s, r, e.abs_err, b, ref.rounded);
            if (b > 0 && e.abs_err / b > worst_ratio) worst_ratio = e.abs_err / b;
        }
    }
    sl_reference_clear(&ref);
}

static void check_special(const void *x, uint64_t n, sl_dtype dt, double expect, const char *what)
{
    for (size_t i = 0; i < sl_variant_count(); i++) {
        const sl_variant *v = sl_variant_at(i);
        if (strcmp(v->op, "lse") || !v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
        sl_launch cfg;
        const double r = sl_test_cpu_run(v, x, n, dt, 0, 0, &cfg);
        CHECK(sl_test_same(r, expect), "%s %s dt %d: %a, expected %a", v->name, what, dt, r, expect);
    }
}

/* The special values inside the kernels' unrolled tiles (lse.h's sl_lse_add_tile): one thread
 * (block 32, grid 1), n = 4096, so every thread takes tiles of SL_LSE_UNROLL vectors; a NaN or an
 * infinity at several places of a tile among finite logits, and -Inf masks around one finite
 * value, for every variant. */
static void check_special_tiles(void *buf, sl_dtype dt)
{
    const uint64_t n = 4096;
    const size_t at[] = {0, 1, 5, 130, 131, 2049, 4095};
    for (size_t a = 0; a < sizeof at / sizeof at[0]; a++)
        for (int kind = 0; kind < 4; kind++) {
            for (uint64_t i = 0; i < n; i++)
                sl_test_put(buf, dt, i, kind == 3 ? -INFINITY : sl_test_gauss() * 3.0);
            const double sp = kind == 0 ? NAN : kind == 1 ? INFINITY : kind == 2 ? -INFINITY : 1.5;
            sl_test_put(buf, dt, at[a], sp);
            if (kind == 1 && a % 2) sl_test_put(buf, dt, (at[a] + 97) % n, NAN);
            const double expect = kind == 0 || (kind == 1 && a % 2) ? NAN : kind == 1 ? INFINITY
                                : kind == 3 ? 1.5 : 0.0;
            for (size_t i = 0; i < sl_variant_count(); i++) {
                const sl_variant *v = sl_variant_at(i);
                if (strcmp(v->op, "lse") || !v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                sl_launch cfg;
                const double r = sl_test_cpu_run(v, buf, n, dt, 32, 1, &cfg);
                if (kind == 2 && !strcmp(v->name, "half-acc")) continue; /* overflows float16 */
                if (kind == 2) /* a -Inf among logits: finite, as without it */
                    CHECK(isfinite(r), "%s tile -Inf at %zu dt %d: %a", v->name, at[a], dt, r);
                else
                    CHECK(sl_test_same(r, expect), "%s tile special %d at %zu dt %d: %a, expected %a",
                          v->name, kind, at[a], dt, r, expect);
            }
            if (kind == 2) check_bounds(buf, n, dt, "tile -Inf");
        }
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    op = sl_op_find("lse");
    CHECK(op != NULL, "the operation lse is registered");
    if (!op) return sl_test_done("tlse_twins");
    const char *want[] = {"exact", "naive", "two-pass", "online", "f64-acc", "compensated", "half-acc"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK(sl_variant_find_op("lse", want[i]) != NULL, "lse variant %s registered", want[i]);
    CHECK(sl_op_is_exact(sl_variant_find_op("lse", "exact")), "lse's exact row");

    static unsigned char buf[8 * 65539];
    const uint64_t sizes[] = {1, 2, 31, 33, 1000, 65539};
    const double sigmas[] = {0.1, 1.0, 10.0, 30.0};
    for (int f = 0; f < 4; f++) {
        const sl_dtype dt = dts[f];
        for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
            for (size_t b = 0; b < sizeof sigmas / sizeof sigmas[0]; b++) {
                const uint64_t n = sizes[a];
                if (n > 1000 && b % 2) continue;                /* keep the test short */
                const double sg = dt == SL_F16 ? sigmas[b] / 4.0 : sigmas[b];
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, sl_test_gauss() * sg);
                check_bounds(buf, n, dt, "logits");
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, sl_test_gauss() * sg - 200.0);
                check_bounds(buf, n, dt, "shifted -200");
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, sl_test_gauss() * sg + 200.0);
                check_bounds(buf, n, dt, "shifted +200");
                for (uint64_t i = 0; i < n; i++)
                    sl_test_put(buf, dt, i, sl_test_rand64() % 4 == 0 ? -INFINITY : sl_test_gauss() * sg);
                check_bounds(buf, n, dt, "masked");
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, sl_test_gauss() * sg);
                sl_test_put(buf, dt, n / 2, 12.0);
                check_bounds(buf, n, dt, "dominant");
                for (uint64_t i = 0; i < n; i++) sl_test_put(buf, dt, i, 0.3 * (double)i / (double)n);
                check_bounds(buf, n, dt, "ascending"); /* a rescale at every element */
            }
        /* special values */
        check_special(buf, 0, dt, -INFINITY, "n = 0");
        for (int i = 0; i < 40; i++) sl_test_put(buf, dt, (size_t)i, -INFINITY);
        check_special(buf, 40, dt, -INFINITY, "all -Inf");
        sl_test_put(buf, dt, 21, 0.0); /* accurate's float64 took each mask as exp(-708): 2^-1021.4 */
        check_special(buf, 40, dt, 0.0, "0 among -Inf");
        sl_test_put(buf, dt, 21, 2.5);
        check_special(buf, 40, dt, 2.5, "one value among -Inf");
        sl_test_put(buf, dt, 7, INFINITY);
        check_special(buf, 40, dt, INFINITY, "+Inf");
        sl_test_put(buf, dt, 30, NAN);
        check_special(buf, 40, dt, NAN, "NaN with +Inf");
        sl_test_put(buf, dt, 7, 1.0);
        check_special(buf, 40, dt, NAN, "NaN");
        check_special_tiles(buf, dt);
    }
    /* every dataset family of the registry (default parameters, 16-bit ones fitted), n = 1000 and
     * 4099: within the bounds, or the reference's special value */
    for (int f = 0; f < 4; f++)
        for (size_t di = 0; di < sl_dataset_count(); di++)
            for (int k = 0; k < 2; k++) {
                const sl_dataset *ds = sl_dataset_at(di);
                const sl_dtype dt = dts[f];
                const uint64_t n = k ? 4099 : 1000;
                if (sl_test_dataset(ds, dt, n, buf) == 0) check_bounds(buf, n, dt, ds->name);
            }
    /* logits-low / logits-high (shift -1000 / +1000) in every format: naive -Inf / +Inf, the
     * exact lse finite, every shifted variant finite (and within its bound: the registry loop) */
    for (int f = 0; f < 4; f++)
        for (int k = 0; k < 2; k++) {
            const sl_dataset *ds = sl_dataset_find(k ? "logits-high" : "logits-low");
            const sl_dtype dt = dts[f];
            if (!ds || sl_test_dataset(ds, dt, 4099, buf)) {
                CHECK(0, "%s generated in dt %d", k ? "logits-high" : "logits-low", dt);
                continue;
            }
            sl_reference ref;
            sl_err err = {0};
            CHECK(sl_reference_lse(&ref, buf, 4099, dt, 1, &err) == 0 && ref.finite, "%s", err.msg);
            sl_reference_clear(&ref);
            for (size_t i = 0; i < sl_variant_count(); i++) {
                const sl_variant *v = sl_variant_at(i);
                if (strcmp(v->op, "lse") || !v->cpu || !(v->dtypes & SL_DTYPE_MASK(dt))) continue;
                sl_launch cfg;
                const double r = sl_test_cpu_run(v, buf, 4099, dt, 0, 0, &cfg);
                const int unshifted = !strcmp(v->name, "naive") || !strcmp(v->name, "half-acc");
                CHECK(unshifted ? r == (k ? INFINITY : -INFINITY) : isfinite(r) != 0, "%s on %s dt %d: %a",
                      v->name, ds->name, dt, r);
            }
        }
    /* naive overflows where the shifted forms give the finite answer (float32: exp(100) = Inf) */
    {
        float x[1000];
        for (int i = 0; i < 1000; i++) x[i] = 100.0f + (float)(i % 7);
        sl_launch cfg;
        const double rn = sl_test_cpu_run(sl_variant_find_op("lse", "naive"), x, 1000, SL_F32, 0, 0, &cfg);
        const double ro = sl_test_cpu_run(sl_variant_find_op("lse", "online"), x, 1000, SL_F32, 0, 0, &cfg);
        CHECK(rn == INFINITY, "naive on logits near 100 (float32) overflows: %a", rn);
        CHECK(isfinite(ro) && fabs(ro - 110.0) < 2.0, "online on logits near 100: %a", ro);
        for (int i = 0; i < 1000; i++) x[i] = -120.0f;
        const double rn2 = sl_test_cpu_run(sl_variant_find_op("lse", "naive"), x, 1000, SL_F32, 0, 0, &cfg);
        CHECK(rn2 == -INFINITY, "naive on logits at -120 (float32) underflows: %a", rn2);
    }
    /* the twins' host threads (tasks of 4096 states) do not change a bit */
    {
        static float x[300001];
        for (int i = 0; i < 300001; i++) x[i] = (float)(sl_test_gauss() * 5.0);
        for (size_t i = 0; i < sl_variant_count(); i++) {
            const sl_variant *v = sl_variant_at(i);
            if (strcmp(v->op, "lse") || !v->cpu || !(v->dtypes & SL_DTYPE_MASK(SL_F32))) continue;
            sl_launch cfg;
            sl_twin_set_threads(1);
            const double r1 = sl_test_cpu_run(v, x, 300001, SL_F32, 0, 0, &cfg);
            const double r1b = sl_test_cpu_run(v, x, 300001, SL_F32, 32, 70, &cfg);
            sl_twin_set_threads(3);
            const double r3 = sl_test_cpu_run(v, x, 300001, SL_F32, 0, 0, &cfg);
            const double r3b = sl_test_cpu_run(v, x, 300001, SL_F32, 32, 70, &cfg);
            sl_twin_set_threads(1);
            CHECK(sl_test_same(r1, r3) && sl_test_same(r1b, r3b), "%s: 1 thread %a %a, 3 threads %a %a",
                  v->name, r1, r1b, r3, r3b);
        }
    }
    /* half-acc: float16 logits whose exact lse is finite (about 12.8) overflow its float16 sum
     * (n e^4.5 > 65504), as a float16 logsumexp does; online's float32 state does not */
    {
        static uint16_t h[4096];
        for (int i = 0; i < 4096; i++) h[i] = sl_half_from_double(sl_test_gauss() * 3.0, SL_F16);
        sl_launch cfg;
        const double rh = sl_test_cpu_run(sl_variant_find_op("lse", "half-acc"), h, 4096, SL_F16, 0, 0, &cfg);
        const double ro = sl_test_cpu_run(sl_variant_find_op("lse", "online"), h, 4096, SL_F16, 0, 0, &cfg);
        CHECK(rh == INFINITY, "half-acc on float16 logits overflows: %a", rh);
        CHECK(isfinite(ro) && ro > 10.0 && ro < 16.0, "online on float16 logits: %a", ro);
        for (int i = 0; i < 64; i++) h[i] = sl_half_from_double(0.25 * (i % 5), SL_F16);
        const double r64 = sl_test_cpu_run(sl_variant_find_op("lse", "half-acc"), h, 64, SL_F16, 0, 0, &cfg);
        sl_reference ref;
        sl_err err = {0};
        CHECK(sl_reference_lse(&ref, h, 64, SL_F16, 1, &err) == 0, "%s", err.msg);
        CHECK(fabs(r64 - ref.rounded) <= 0.02, "half-acc where nothing overflows: %a, exact %a", r64,
              ref.rounded);
        sl_reference_clear(&ref);
    }
    printf("worst error / bound: %.3g\n", worst_ratio);
    return sl_test_done("tlse_twins");
}

/* tlse_datasets.c: the log-sum-exp families (datasets/gen_lse.c): logits' mean and spread follow
 * shift and sigma, the dominant logit lies d above every other value, lse-masked masks its share
 * of -Inf (random: about share n; causal: exactly the last round(share n) slots), logits-dominant
 * has its dominant logit by default, logits-low and logits-high their shift of -1000 and +1000 (in
 * every format), slices equal the whole, the families opt-in, parameters beyond the format
 * refused. */
#include <math.h>
#include <stdlib.h>
#include "sl_datasets.h"
#include "sl_test.h"

static double *gen(const char *name, sl_dtype dt, uint64_t n, const char *const *kv, int nkv,
                   uint64_t start, uint64_t count, int *rc)
{
    const sl_dataset *ds = sl_dataset_find(name);
    sl_params p;
    sl_err err = {0};
    sl_params_defaults(ds, &p);
    for (int i = 0; i < nkv; i++) CHECK(sl_params_set(ds, &p, kv[i], &err) == 0, "%s: %s", kv[i], err.msg);
    void *raw = malloc((size_t)count * 8 + 8);
    double *out = malloc((size_t)count * 8 + 8);
    *rc = sl_dataset_generate(ds, dt, sl_test_seed(), n, &p, start, count, raw, &err);
    for (uint64_t i = 0; *rc == 0 && i < count; i++)
        out[i] = dt == SL_F64 ? ((double *)raw)[i] : (double)((float *)raw)[i];
    free(raw);
    return out;
}

int main(void)
{
    sl_test_rng = sl_test_seed();
    CHECK(sl_dataset_find("logits") && (sl_dataset_find("logits")->flags & SL_DS_OPT_IN), "logits opt-in");
    CHECK(sl_dataset_find("lse-masked") && (sl_dataset_find("lse-masked")->flags & SL_DS_OPT_IN),
          "lse-masked opt-in");
    const uint64_t n = 20000;
    int rc;
    {   /* logits: mean ~ shift, sd ~ sigma */
        const char *kv[] = {"sigma=7", "shift=-300"};
        double *x = gen("logits", SL_F64, n, kv, 2, 0, n, &rc);
        CHECK(rc == 0, "logits generated");
        double s = 0, s2 = 0;
        for (uint64_t i = 0; i < n; i++) s += x[i];
        for (uint64_t i = 0; i < n; i++) s2 += (x[i] - s / n) * (x[i] - s / n);
        CHECK(fabs(s / n + 300.0) < 0.3, "mean %g", s / n);
        CHECK(fabs(sqrt(s2 / n) - 7.0) < 0.3, "sd %g", sqrt(s2 / n));
        free(x);
    }
    {   /* dominant: one value, at least d above every other */
        const char *kv[] = {"sigma=2", "dominant=25"};
        double *x = gen("logits", SL_F32, n, kv, 2, 0, n, &rc);
        CHECK(rc == 0, "logits dominant generated");
        uint64_t top = 0;
        for (uint64_t i = 1; i < n; i++) if (x[i] > x[top]) top = i;
        double second = -INFINITY;
        for (uint64_t i = 0; i < n; i++) if (i != top && x[i] > second) second = x[i];
        CHECK(x[top] - second >= 25.0, "dominant %g, next %g", x[top], second);
        /* a slice holds the same values */
        double *y = gen("logits", SL_F32, n, kv, 2, 1000, 5000, &rc);
        int same = 1;
        for (uint64_t i = 0; i < 5000; i++) same &= y[i] == x[1000 + i];
        CHECK(same, "slice [1000, 6000) equals the whole's");
        free(x);
        free(y);
    }
    {   /* logits-dominant: the dominant logit on by default (d = 10), at least d above every other;
         * dominant=0 is refused (that is logits) */
        const sl_dataset *ds = sl_dataset_find("logits-dominant");
        CHECK(ds && (ds->flags & SL_DS_OPT_IN), "logits-dominant opt-in");
        sl_params p;
        sl_err err = {0};
        sl_params_defaults(ds, &p);
        CHECK(ds && sl_params_get(ds, &p, "dominant") == 10.0, "logits-dominant's default d is 10");
        double *x = gen("logits-dominant", SL_F64, n, NULL, 0, 0, n, &rc);
        CHECK(rc == 0, "logits-dominant generated");
        uint64_t top = 0;
        for (uint64_t i = 1; rc == 0 && i < n; i++) if (x[i] > x[top]) top = i;
        double second = -INFINITY;
        for (uint64_t i = 0; rc == 0 && i < n; i++) if (i != top && x[i] > second) second = x[i];
        CHECK(rc == 0 && x[top] >= 13.0 * 3.0 + 10.0 && x[top] - second >= 10.0, "dominant %g, next %g", x[top],
              second);
        free(x);
        CHECK(ds && sl_params_set(ds, &p, "dominant=0", &err) != 0, "logits-dominant takes dominant=0");
    }
    {   /* logits-low / logits-high: logits shifted by -1000 / +1000 by default (mean within 0.1
         * of it, every value within 13 sigma), opt-in, generated in every format (16-bit too) */
        const char *names[2] = {"logits-low", "logits-high"};
        for (int k = 0; k < 2; k++) {
            const sl_dataset *ds = sl_dataset_find(names[k]);
            const double shift = k ? 1000.0 : -1000.0;
            CHECK(ds && (ds->flags & SL_DS_OPT_IN), "%s registered, opt-in", names[k]);
            if (!ds) continue;
            sl_params p;
            sl_params_defaults(ds, &p);
            CHECK(sl_params_get(ds, &p, "shift") == shift, "%s's default shift", names[k]);
            for (int f = 0; f < 2; f++) {
                double *x = gen(names[k], f ? SL_F32 : SL_F64, n, NULL, 0, 0, n, &rc);
                double sum = 0.0;
                int inside = rc == 0;
                for (uint64_t i = 0; rc == 0 && i < n; i++) {
                    sum += x[i];
                    inside &= fabs(x[i] - shift) <= 13.0 * 3.0;
                }
                CHECK(inside && fabs(sum / (double)n - shift) < 0.1, "%s f%d: mean %g, every value "
                      "within 13 sigma of the shift: %d", names[k], f ? 32 : 64, sum / (double)n, inside);
                free(x);
            }
            static uint16_t h[4096];
            for (int f = 0; f < 2; f++) {
                sl_err err = {0};
                CHECK(sl_dataset_generate(ds, f ? SL_BF16 : SL_F16, sl_test_seed(), 4096, &p, 0, 4096,
                                          h, &err) == 0, "%s in 16 bits: %s", names[k], err.msg);
            }
        }
    }
    {   /* lse-masked random: about share n of -Inf, the rest finite */
        const char *kv[] = {"share=0.3"};
        double *x = gen("lse-masked", SL_F32, n, kv, 1, 0, n, &rc);
        uint64_t masked = 0, finite = 0;
        for (uint64_t i = 0; i < n; i++) { masked += x[i] == -INFINITY; finite += isfinite(x[i]) != 0; }
        CHECK(rc == 0 && masked + finite == n, "only -Inf and finite values");
        CHECK(fabs((double)masked / n - 0.3) < 0.02, "masked share %g", (double)masked / n);
        free(x);
    }
    {   /* causal: exactly the last round(share n) */
        const char *kv[] = {"share=0.25", "pattern=causal"};
        double *x = gen("lse-masked", SL_F64, 1001, kv, 2, 0, 1001, &rc);
        int ok = rc == 0;
        for (uint64_t i = 0; i < 1001; i++) ok &= (i >= 1001 - 250) == (x[i] == -INFINITY);
        CHECK(ok, "causal: the last 250 of 1001 masked, no other");
        free(x);
    }
    {   /* beyond the format: refused */
        const char *kv[] = {"shift=1e6"};
        double *x = gen("logits", SL_F16, 100, kv, 1, 0, 100, &rc);
        CHECK(rc != 0, "float16 logits at shift 1e6 refused");
        free(x);
        x = gen("lse-masked", SL_F16, 100, kv, 1, 0, 100, &rc);
        CHECK(rc != 0, "float16 lse-masked at shift 1e6 refused");
        free(x);
    }
    {   /* lse-masked in the 16-bit formats: its -Inf masks, every other value finite */
        const sl_dataset *ds = sl_dataset_find("lse-masked");
        static uint16_t h[4096];
        for (int f = 0; f < 2; f++) {
            const sl_dtype dt = f ? SL_BF16 : SL_F16;
            const uint16_t expo = f ? 0x7f80u : 0x7c00u, ninf = f ? 0xff80u : 0xfc00u;
            sl_err err = {0};
            rc = sl_dataset_generate(ds, dt, sl_test_seed(), 4096, NULL, 0, 4096, h, &err);
            CHECK(rc == 0, "%s lse-masked generated: %s", sl_dtype_name(dt), err.msg);
            uint64_t masked = 0, bad = 0;
            for (int i = 0; rc == 0 && i < 4096; i++) {
                masked += h[i] == ninf;
                bad += h[i] != ninf && (h[i] & expo) == expo;
            }
            CHECK(rc == 0 && !bad && masked > 1800 && masked < 2300, "%s: %llu masked of 4096, %llu others not finite",
                  sl_dtype_name(dt), (unsigned long long)masked, (unsigned long long)bad);
        }
    }
    return sl_test_done("tlse_datasets");
}

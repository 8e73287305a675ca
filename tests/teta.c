/* teta.c: the progress ETA's model (sl_eta_fit, progress.c) on synthetic step timings: exact
 * recovery of a fixed-plus-per-unit cost, the constraints (a, b >= 0), the one-size fallback,
 * and, on a full-preset-like sweep with noise, an ETA near the truth from the first sweep on
 * where a single rate is hours off. Also the phase line's format (phases.c). */
#include <math.h>
#include "sl_study.h"
#include "sl_test.h"

/* The accuracy-vs-n steps of the GPU full preset: 14 families x 2 dtypes, n = 2^10 .. 2^28 by
 * 4x, 3 repetitions: the work units sl_exp_work gives them, in walk order. */
#define NSIZES 10
#define NSTEPS (28 * NSIZES)
static int full_steps(double *w)
{
    int k = 0;
    for (int g = 0; g < 28; g++)
        for (int i = 0; i < NSIZES; i++) w[k++] = sl_exp_work((uint64_t)1024 << (2 * i), 3);
    return k;
}

/* A deterministic noise factor in [1 - amp, 1 + amp]. */
static double noise(double amp) { return 1 + amp * (2.0 * (double)(sl_test_rand64() >> 11) * 0x1p-53 - 1); }

int main(void)
{
    sl_test_rng = sl_test_seed();
    sl_eta_fit f;
    double a, b;

    /* nothing observed: unknown */
    memset(&f, 0, sizeof f);
    CHECK(sl_eta_left(&f, 10, 1e6) == -1, "ETA before any step: %g", sl_eta_left(&f, 10, 1e6));

    /* times exactly a + b w: a and b recovered, the ETA is the truth */
    const double A = 0.05, B = 3.7e-8;
    memset(&f, 0, sizeof f);
    const double ws[] = {4e5, 1.6e6, 6.4e6, 2.6e7};
    for (int i = 0; i < 4; i++) sl_eta_observe(&f, ws[i], A + B * ws[i]);
    sl_eta_coeffs(&f, &a, &b);
    CHECK(fabs(a - A) < 1e-9 && fabs(b - B) < 1e-15, "exact data: a %g b %g (want %g %g)", a, b, A, B);
    double truth = 7 * A + B * 5e9;
    CHECK(fabs(sl_eta_left(&f, 7, 5e9) - truth) < 1e-6 * truth, "exact ETA %g, truth %g",
          sl_eta_left(&f, 7, 5e9), truth);

    /* one size only: the plain rate (a = 0, b = time / work) */
    memset(&f, 0, sizeof f);
    for (int i = 0; i < 3; i++) sl_eta_observe(&f, 1e6, 2.0);
    sl_eta_coeffs(&f, &a, &b);
    CHECK(a == 0 && fabs(b - 2e-6) < 1e-18, "one size: a %g b %g", a, b);

    /* bigger steps faster (b would be < 0): a constant per step, no cost per unit */
    memset(&f, 0, sizeof f);
    sl_eta_observe(&f, 1e3, 3.0);
    sl_eta_observe(&f, 1e6, 1.0);
    sl_eta_coeffs(&f, &a, &b);
    CHECK(b == 0 && fabs(a - 2.0) < 1e-12, "falling times: a %g b %g", a, b);
    CHECK(fabs(sl_eta_left(&f, 5, 1e9) - 10.0) < 1e-9, "falling times: ETA %g", sl_eta_left(&f, 5, 1e9));

    /* a would be < 0 (small steps cheaper than the line through the big ones): through 0 */
    memset(&f, 0, sizeof f);
    sl_eta_observe(&f, 1e3, 0.0);
    sl_eta_observe(&f, 1e6, 10.0);
    sl_eta_observe(&f, 2e6, 30.0);
    sl_eta_coeffs(&f, &a, &b);
    CHECK(a == 0 && b > 0, "negative intercept: a %g b %g", a, b);
    CHECK(sl_eta_left(&f, 1, 0) == 0 && sl_eta_left(&f, -3, -1) == 0, "nothing left: 0 s");

    /* a full-preset-like sweep, each step a + b w with +-20 % noise: a = 0.1 s per step and
     * b such that a 2^28 step takes ~14 s (the H200's host-bound steps of issue 16) */
    const double A2 = 0.1, B2 = 14.0 / sl_exp_work((uint64_t)1 << 28, 3);
    static double w[NSTEPS], t[NSTEPS];
    const int n = full_steps(w);
    double total_t = 0, total_w = 0;
    for (int i = 0; i < n; i++) {
        t[i] = (A2 + B2 * w[i]) * noise(0.2);
        total_t += t[i];
        total_w += w[i];
    }
    memset(&f, 0, sizeof f);
    double done_t = 0, done_w = 0, worst_fit = 0, worst_rate_early = 0;
    for (int i = 0; i < n - 1; i++) {
        sl_eta_observe(&f, w[i], t[i]);
        done_t += t[i];
        done_w += w[i];
        const double left = total_t - done_t;
        const double eta = sl_eta_left(&f, n - 1 - i, total_w - done_w);
        const double rate = (total_w - done_w) * done_t / done_w;   /* a single rate */
        if (i >= NSIZES - 1 && i < n - 20) {   /* from the end of the first sweep on */
            double r = eta / left;
            if (fabs(log(r)) > fabs(log(1 + worst_fit))) worst_fit = r - 1;
        }
        if (i == 3) worst_rate_early = rate / left;
    }
    CHECK(fabs(worst_fit) < 0.15, "fitted ETA off by %.0f %% after the first sweep", 100 * worst_fit);

    /* the ETA shown mixes the fit into the plain rate by half-way: the fit's at the start, the
     * rate's from 50 % on, in between between the two; on the sweep above it stays near the
     * truth where the fit is (after the first sweep) and far from the rate's error early */
    CHECK(sl_eta_mix(10, 40, 0) == 10 && sl_eta_mix(10, 40, 0.5) == 40 && sl_eta_mix(10, 40, 0.9) == 40,
          "mix ends: %g %g %g", sl_eta_mix(10, 40, 0), sl_eta_mix(10, 40, 0.5), sl_eta_mix(10, 40, 0.9));
    CHECK(fabs(sl_eta_mix(10, 40, 0.25) - 25) < 1e-12, "mix at 25 %%: %g", sl_eta_mix(10, 40, 0.25));
    CHECK(sl_eta_mix(10, -1, 0.7) == 10 && sl_eta_mix(-1, 40, 0.1) == 40, "mix with one estimate missing");
    memset(&f, 0, sizeof f);
    done_t = done_w = 0;
    double worst_mix = 0, mix_early = 0;
    for (int i = 0; i < n - 1; i++) {
        sl_eta_observe(&f, w[i], t[i]);
        done_t += t[i];
        done_w += w[i];
        const double left = total_t - done_t;
        const double rate = (total_w - done_w) * done_t / done_w;
        const double mix = sl_eta_mix(sl_eta_left(&f, n - 1 - i, total_w - done_w), rate, done_w / total_w);
        if (i >= NSIZES - 1 && i < n - 20) {
            double r = mix / left;
            if (fabs(log(r)) > fabs(log(1 + worst_mix))) worst_mix = r - 1;
        }
        if (i == 3) mix_early = mix / left;
    }
    CHECK(fabs(worst_mix) < 0.15, "mixed ETA off by %.0f %% after the first sweep", 100 * worst_mix);
    CHECK(mix_early < 2, "mixed ETA after 4 small steps %.1fx the truth (the rate's error leaked in)", mix_early);
    CHECK(worst_rate_early > 10, "a single rate after 4 small steps is only %.1fx the truth "
          "(the case the fit is for)", worst_rate_early);

    /* the phase line */
    sl_phase_times ph = {1.5, 0.25, 3, 0.125, 0.5, 2, 4, 0.75, 6};
    char line[512];
    sl_phases_line(&ph, 16, line, sizeof line);
    CHECK(!strcmp(line, "seconds by phase (16 threads; phases overlap, so they add up to more than the total): "
                        "generate 1.50, reference 0.25, measure 3.00, "
                        "judge 0.12, write 0.50, wait 2.00, render 4.00, report 0.75, total 6.00"),
          "line: %s", line);
    sl_phases_line(&ph, 1, line, sizeof line);
    CHECK(!strncmp(line, "seconds by phase (1 thread; phases overlap", 42), "line: %s", line);
    return sl_test_done("teta");
}

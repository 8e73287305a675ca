/* launch.c: the "Launch configurations" section of report.md: which of the first text's tuning
 * claims held in this run, every figure computed from DIR/launch.csv (the launch-config rows):
 * 256 threads against the best block size per rung, the best grid, accumulators and items, vector
 * loads against scalar ones (vec4's scalar, 8- and 16-byte loads) and misaligned against aligned,
 * accumulators against one, and the error of every tree shape against its bound. Speed claims
 * need the GPU backend; the CPU backend reports the errors. Also writes DIR/launch_summary.md,
 * BENCHMARKS.md's launch-config table from the same figures. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "launch.h"

typedef struct {
    const sl_csv *t;
    int var, dt, n, be, sw, breq, greq, blk, grd, acc, off, tail, ms, gb, re, br, lw, it;
} lc_tab;

static const char *S(const lc_tab *L, size_t r, int c) { return sl_csv_get(L->t, r, c); }
static double N(const lc_tab *L, size_t r, int c) { return sl_csv_num(L->t, r, c); }

/* The largest n + tail of dtype dt (0: none). */
static double n_max(const lc_tab *L, const char *dt)
{
    double m = 0;
    for (size_t r = 0; r < L->t->nrows; r++)
        if (!strcmp(S(L, r, L->dt), dt) && N(L, r, L->n) + N(L, r, L->tail) > m) m = N(L, r, L->n) + N(L, r, L->tail);
    return m;
}

/* Whether row r is of variant v, dtype dt at size nm, sweep sw (NULL: any). */
static int is(const lc_tab *L, size_t r, const char *v, const char *dt, double nm, const char *sw)
{
    return (!v || !strcmp(S(L, r, L->var), v)) && !strcmp(S(L, r, L->dt), dt) &&
           N(L, r, L->n) + N(L, r, L->tail) == nm && (!sw || !strcmp(S(L, r, L->sw), sw));
}

/* The row of the variant's own launch at base offset off (n - 1 when tail): -1 when none. */
static long own_launch(const lc_tab *L, const char *v, const char *dt, double nm, double off, int tail)
{
    for (size_t r = 0; r < L->t->nrows; r++)
        if (is(L, r, v, dt, nm, "align") && N(L, r, L->off) == off && N(L, r, L->tail) == tail) return (long)r;
    /* the rungs without an alignment sweep (one tile per block): their block-256 point, which is
     * their own launch */
    for (size_t r = 0; off == 0 && !tail && r < L->t->nrows; r++)
        if (is(L, r, v, dt, nm, "block") && N(L, r, L->breq) == 256) return (long)r;
    return -1;
}

static const char *const vars[] = {"warp-shuffle", "grid-stride", "vec4", "multi-load",
                                   "packed", "block-reduce", "kahan", "multipass"};
#define NV (sizeof vars / sizeof vars[0])

static void speed_claims(FILE *f, const lc_tab *L, const char *dt, double nm)
{
    /* 1. block size: 256 against the best of 32 .. 1024, the variant's own grid and items */
    fprintf(f, "**Block size** (%s, n = %.0f; each rung at its own grid and items): \"256 threads is a "
               "reasonable start\" (registers per thread and theoretical occupancy from the occupancy "
               "API, where measured).\n\n| variant | best block | GB/s there | regs, occupancy there | "
               "GB/s at 256 | 256 vs best |\n|---|---:|---:|---|---:|---:|\n", dt, nm);
    double worst = -1;
    const char *worst_v = NULL;
    for (size_t k = 0; k < NV; k++) {
        double best = INFINITY, bgb = NAN, t256 = NAN, g256 = NAN, bb = 0, breg = NAN, bocc = NAN;
        for (size_t r = 0; r < L->t->nrows; r++) {
            if (!is(L, r, vars[k], dt, nm, "block")) continue;
            const double ms = N(L, r, L->ms);
            if (ms < best) {
                best = ms; bgb = N(L, r, L->gb); bb = N(L, r, L->blk);
                breg = N(L, r, sl_csv_col(L->t, "regs")); bocc = N(L, r, sl_csv_col(L->t, "occupancy"));
            }
            if (N(L, r, L->breq) == 256) { t256 = ms; g256 = N(L, r, L->gb); }
        }
        if (!isfinite(best) || isnan(t256)) continue;
        const double x = (t256 / best - 1) * 100;
        fprintf(f, "| %s | %.0f | %.1f | ", vars[k], bb, bgb);
        if (!isnan(breg) && !isnan(bocc)) fprintf(f, "%.0f, %.0f %% ", breg, bocc * 100);
        fprintf(f, "| %.1f | %+.1f %% |\n", g256, x);
        if (x > worst) { worst = x; worst_v = vars[k]; }
    }
    if (worst_v)
        fprintf(f, "\n256 threads is within %.1f %% of the best block size for every rung (the farthest: "
                   "`%s`): the claim %s.\n\n", worst, worst_v,
                worst <= 10 ? "holds (within 10 %)" : "**does not hold within 10 %**");
    /* 2. grid and 3. accumulators / items: the best cell against the variant's own launch */
    fputs("**Grid, accumulators, items** (best cell of each map against the variant's own launch, "
          "aligned input):\n\n| variant | map | best cell | GB/s there | own launch GB/s | gain |\n"
          "|---|---|---|---:|---:|---:|\n", f);
    static const char *const maps[] = {"grid", "accumulators", "items"};
    for (size_t k = 0; k < NV; k++) {
        const long own = own_launch(L, vars[k], dt, nm, 0, 0);
        for (size_t m = 0; m < 3; m++) {
            long b = -1;
            for (size_t r = 0; r < L->t->nrows; r++)
                if (is(L, r, vars[k], dt, nm, maps[m]) && (b < 0 || N(L, r, L->ms) < N(L, (size_t)b, L->ms))) b = (long)r;
            if (b < 0) continue;
            const size_t rb = (size_t)b;
            fprintf(f, "| %s | %s | block %s, grid %s, accumulators %s, items %s | %.1f | ", vars[k], maps[m],
                    S(L, rb, L->blk), S(L, rb, L->grd), S(L, rb, L->acc), sl_csv_get(L->t, rb, sl_csv_col(L->t, "items")),
                    N(L, rb, L->gb));
            if (own >= 0) fprintf(f, "%.1f | %+.1f %% |\n", N(L, (size_t)own, L->gb),
                                  (N(L, (size_t)own, L->ms) / N(L, rb, L->ms) - 1) * 100);
            else fputs("| |\n", f);
        }
    }
    /* 4. vector loads: 16-byte loaders against the scalar rungs of the same shape */
    static const char *const pairs[][2] = {{"vec4", "grid-stride"}, {"packed", "block-reduce"}};
    fputs("\n**Vector loads** (\"not always faster: compare the actual duration\"):", f);
    for (size_t p = 0; p < 2; p++) {
        const long a = own_launch(L, pairs[p][0], dt, nm, 0, 0), s = own_launch(L, pairs[p][1], dt, nm, 0, 0);
        if (a < 0 || s < 0) continue;
        const double y = (N(L, (size_t)s, L->ms) / N(L, (size_t)a, L->ms) - 1) * 100;
        fprintf(f, " `%s`'s 16-byte loads %s %.1f %% over `%s`'s scalar loads at n = %.0f (time ratio);",
                pairs[p][0], y >= 0 ? "gain" : "lose", fabs(y), pairs[p][1], nm);
    }
    fputs("\n\n**Misaligned input** (base offset 4, 8, 12 bytes; n - 1, not a multiple of the vector "
          "width), time against the aligned input (+: slower):\n\n| variant | offset 4 | offset 8 | offset 12 | n - 1 |\n"
          "|---|---:|---:|---:|---:|\n", f);
    double zmax = -INFINITY;
    const char *zv = NULL;
    for (size_t k = 0; k < NV; k++) {
        const long a = own_launch(L, vars[k], dt, nm, 0, 0);
        if (a < 0) continue;
        fprintf(f, "| %s |", vars[k]);
        for (int o = 4; o <= 16; o += 4) {
            const long m = o < 16 ? own_launch(L, vars[k], dt, nm, o, 0) : own_launch(L, vars[k], dt, nm, 0, 1);
            if (m < 0) { fputs(" |", f); continue; }
            const double z = (N(L, (size_t)m, L->ms) / N(L, (size_t)a, L->ms) - 1) * 100;
            fprintf(f, " %+.1f %% |", z);
            if (o < 16 && z > zmax && (!strcmp(vars[k], "vec4") || !strcmp(vars[k], "packed"))) { zmax = z; zv = vars[k]; }
        }
        fputc('\n', f);
    }
    if (zv) fprintf(f, "\nThe vector rungs (vec4, packed) lose at most %.1f %% on a misaligned base (`%s`)%s.\n\n",
                    zmax, zv, zmax <= 5 ? ": their scalar head and tail absorb the misalignment"
                                        : ": **misalignment costs them measurably**");
    else fputc('\n', f);
}

/* vec4's rows of the width sweep at load width w (bytes), offset off, n - 1 when tail: -1 if none. */
static long width_row(const lc_tab *L, const char *dt, double nm, double w, double off, int tail)
{
    for (size_t r = 0; r < L->t->nrows; r++)
        if (is(L, r, "vec4", dt, nm, "width") && N(L, r, L->lw) == w && N(L, r, L->off) == off &&
            N(L, r, L->tail) == tail)
            return (long)r;
    return -1;
}

/* The load widths of vec4's width sweep of dt at nm, ascending (at most 4). */
static int widths_of(const lc_tab *L, const char *dt, double nm, double *w)
{
    int k = 0;
    for (size_t r = 0; r < L->t->nrows; r++) {
        if (!is(L, r, "vec4", dt, nm, "width")) continue;
        const double x = N(L, r, L->lw);
        int have = 0;
        for (int j = 0; j < k; j++) have |= w[j] == x;
        if (!have && k < 4 && x > 0) w[k++] = x;
    }
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && w[j - 1] > w[j]; j--) { const double t = w[j]; w[j] = w[j - 1]; w[j - 1] = t; }
    return k;
}

/* Load width (vec4 at its own launch): scalar, 8- and 16-byte loads, aligned and misaligned,
 * with the error of each tree; speed columns on the GPU backend only. */
static void width_claims(FILE *f, const lc_tab *L, const char *dt, double nm, int gpu)
{
    double w[4];
    const int nw = widths_of(L, dt, nm, w);
    if (nw < 2) return;
    const long s0 = width_row(L, dt, nm, w[0], 0, 0);
    fprintf(f, "**Load width** (`vec4` at its own launch, %s, n = %.0f): scalar (%.0f-byte), 8-byte and "
               "16-byte loads; each split takes a scalar head up to its own alignment and a scalar tail.\n\n"
               "| bytes a load | %srelative error (aligned) | error / bound |\n|---:|%s---:|---:|\n",
            dt, nm, w[0], gpu ? "GB/s | vs scalar | offset 4 | offset 8 | offset 12 | n - 1 | " : "",
            gpu ? "---:|---:|---:|---:|---:|---:|" : "");
    double gain[4] = {NAN, NAN, NAN, NAN}, mis[4] = {NAN, NAN, NAN, NAN};
    for (int k = 0; k < nw; k++) {
        const long a = width_row(L, dt, nm, w[k], 0, 0);
        if (a < 0) continue;
        fprintf(f, "| %.0f | ", w[k]);
        if (gpu) {
            fprintf(f, "%.1f | ", N(L, (size_t)a, L->gb));
            if (s0 >= 0 && k > 0) {
                gain[k] = (N(L, (size_t)s0, L->ms) / N(L, (size_t)a, L->ms) - 1) * 100;
                fprintf(f, "%+.1f %% | ", gain[k]);
            } else {
                fputs("| ", f);
            }
            for (int o = 4; o <= 16; o += 4) {
                const long m = o < 16 ? width_row(L, dt, nm, w[k], o, 0) : width_row(L, dt, nm, w[k], 0, 1);
                if (m < 0) { fputs("| ", f); continue; }
                const double z = (N(L, (size_t)m, L->ms) / N(L, (size_t)a, L->ms) - 1) * 100;
                fprintf(f, "%+.1f %% | ", z);
                if (o < 16 && !(z <= mis[k])) mis[k] = z;
            }
        }
        fprintf(f, "%.3g | %.3g |\n", N(L, (size_t)a, L->re), N(L, (size_t)a, L->br));
    }
    fputc('\n', f);
    if (!gpu) return;
    for (int k = 1; k < nw; k++)
        if (!isnan(gain[k]))
            fprintf(f, "%.0f-byte loads %s %.1f %% over scalar loads at n = %.0f%s", w[k], gain[k] >= 0 ? "gain" : "lose",
                    fabs(gain[k]), nm, k + 1 < nw ? "; " : "");
    fputs(".", f);
    for (int k = 0; k < nw; k++)
        if (!isnan(mis[k]))
            fprintf(f, " %.0f-byte loads on a misaligned base: at most %+.1f %%%s", w[k], mis[k], k + 1 < nw ? ";" : ".");
    fputs(" The text's \"vector loads are not always faster\": ", f);
    int held = 0;
    for (int k = 1; k < nw; k++) held |= !isnan(gain[k]) && gain[k] < 0;
    for (int k = 1; k < nw; k++) held |= !isnan(mis[k]) && !isnan(gain[k]) && mis[k] > gain[k];
    fprintf(f, "%s.\n\n", held ? "**held here** (a wider load lost to the scalar one, or its misaligned time "
                                 "ate its gain)"
                               : "not seen here (every wider load gained, aligned or not)");
}

/* Accumulators (grid-stride; vec4 at 8 loads a step; kahan: sets of compensated lanes): 8 against 1
 * at block 256, speed and error. */
static void accumulator_claims(FILE *f, const lc_tab *L, const char *dt, double nm, int gpu)
{
    static const char *const av[] = {"grid-stride", "vec4", "kahan"};
    int head = 0;
    for (size_t k = 0; k < sizeof av / sizeof av[0]; k++) {
        long r1 = -1, r8 = -1;
        for (size_t r = 0; r < L->t->nrows; r++) {
            if (!is(L, r, av[k], dt, nm, "accumulators") || N(L, r, L->breq) != 256) continue;
            if (N(L, r, L->acc) == 1) r1 = (long)r;
            if (N(L, r, L->acc) == 8) r8 = (long)r;
        }
        if (r1 < 0 || r8 < 0) continue;
        if (!head)
            fprintf(f, "**Independent accumulators** (%s, n = %.0f, block 256; vec4 at 8 loads a step; kahan: sets of compensated lanes): more "
                       "accumulators shorten each chain (the bound's depth) and change the summation order.\n\n"
                       "| variant | %srelative error, 1 / 8 | error / bound, 1 / 8 |\n|---|%s---|---|\n",
                    dt, nm, gpu ? "GB/s, 1 / 8 accumulators | gain of 8 over 1 | " : "", gpu ? "---|---:|" : "");
        head = 1;
        const size_t a = (size_t)r1, b = (size_t)r8;
        fprintf(f, "| %s | ", av[k]);
        if (gpu)
            fprintf(f, "%.1f / %.1f | %+.1f %% | ", N(L, a, L->gb), N(L, b, L->gb),
                    (N(L, a, L->ms) / N(L, b, L->ms) - 1) * 100);
        fprintf(f, "%.3g / %.3g | %.3g / %.3g |\n", N(L, a, L->re), N(L, b, L->re), N(L, a, L->br), N(L, b, L->br));
    }
    if (head) fputc('\n', f);
}

static void error_claims(FILE *f, const lc_tab *L, const char *dt, double nm)
{
    fprintf(f, "**Error** (%s, n = %.0f): a launch configuration is a summation tree; every point's "
               "error against the exact sum beside the a-priori bound of its own tree.\n\n"
               "| variant | points | relative error, least .. most | at block 32 / 1024 | "
               "at 1 / 8 accumulators | largest error / bound |\n|---|---:|---|---|---|---:|\n", dt, nm);
    long over = 0, all = 0;
    for (size_t k = 0; k < NV; k++) {
        double lo = INFINITY, hi = -INFINITY, brmax = 0, e32 = NAN, e1024 = NAN, a1 = NAN, a8 = NAN;
        long np = 0;
        for (size_t r = 0; r < L->t->nrows; r++) {
            if (!is(L, r, vars[k], dt, nm, NULL)) continue;
            const double re = N(L, r, L->re), br = N(L, r, L->br);
            np++;
            if (re < lo) lo = re;
            if (re > hi) hi = re;
            if (br > brmax) brmax = br;
            over += !(br <= 1);
            if (!strcmp(S(L, r, L->sw), "block") && N(L, r, L->breq) == 32) e32 = re;
            if (!strcmp(S(L, r, L->sw), "block") && N(L, r, L->breq) == 1024) e1024 = re;
            if (!strcmp(S(L, r, L->sw), "accumulators") && N(L, r, L->breq) == 256 && N(L, r, L->acc) == 1) a1 = re;
            if (!strcmp(S(L, r, L->sw), "accumulators") && N(L, r, L->breq) == 256 && N(L, r, L->acc) == 8) a8 = re;
        }
        all += np;
        if (!np) continue;
        fprintf(f, "| %s | %ld | %.3g .. %.3g | ", vars[k], np, lo, hi);
        if (!isnan(e32) && !isnan(e1024)) fprintf(f, "%.3g / %.3g | ", e32, e1024); else fputs("| ", f);
        if (!isnan(a1) && !isnan(a8)) fprintf(f, "%.3g / %.3g | ", a1, a8); else fputs("| ", f);
        fprintf(f, "%.3g |\n", brmax);
    }
    fprintf(f, "\n%s (%ld points).\n\n", over ? "**Some errors exceed the bound of their tree**"
                                              : "Every point's error lies within the bound of its tree", all);
}

/* ---- launch_summary.md: BENCHMARKS.md's launch-config table ------------------------------------
 * Per dtype at its largest n: each variant's best point of every sweep (aligned input) against its
 * own launch, 256 threads against its best block; then vec4's load widths (each against scalar
 * loads, aligned, and its worst misaligned offset and n - 1 against its aligned time) and the
 * vector rungs' misaligned input. Composed in memory, written whole. */
static void summary_dtype(FILE *f, const lc_tab *L, const char *dt, double nm)
{
    fprintf(f, "\n**%s, n = %.0f** (GB/s: bytes read / median time)\n\n"
               "| variant | own launch GB/s | best point (sweep: block, grid, items, accumulators) | best GB/s | "
               "best vs own | block 256 vs best block |\n|---|---:|---|---:|---:|---:|\n", dt, nm);
    for (size_t k = 0; k < NV; k++) {
        const long own = own_launch(L, vars[k], dt, nm, 0, 0);
        long b = -1;
        double bblk = INFINITY, t256 = NAN;
        for (size_t r = 0; r < L->t->nrows; r++) {
            if (!is(L, r, vars[k], dt, nm, NULL) || N(L, r, L->off) != 0 || N(L, r, L->tail) != 0) continue;
            if (b < 0 || N(L, r, L->ms) < N(L, (size_t)b, L->ms)) b = (long)r;
            if (!strcmp(S(L, r, L->sw), "block")) {
                if (N(L, r, L->ms) < bblk) bblk = N(L, r, L->ms);
                if (N(L, r, L->breq) == 256) t256 = N(L, r, L->ms);
            }
        }
        if (b < 0) continue;
        const size_t rb = (size_t)b;
        fprintf(f, "| %s | ", vars[k]);
        if (own >= 0) fprintf(f, "%.1f", N(L, (size_t)own, L->gb));
        fprintf(f, " | %s: %s, %s, %s, %s", S(L, rb, L->sw), S(L, rb, L->blk), S(L, rb, L->grd), S(L, rb, L->it),
                S(L, rb, L->acc));
        if (N(L, rb, L->lw) > 0 && !strcmp(S(L, rb, L->sw), "width")) fprintf(f, ", %s-byte loads", S(L, rb, L->lw));
        fprintf(f, " | %.1f | ", N(L, rb, L->gb));
        if (own >= 0) fprintf(f, "%+.1f %%", (N(L, (size_t)own, L->ms) / N(L, rb, L->ms) - 1) * 100);
        fputs(" | ", f);
        if (isfinite(bblk) && !isnan(t256)) fprintf(f, "%+.1f %%", (t256 / bblk - 1) * 100);
        fputs(" |\n", f);
    }
    double w[4];
    const int nw = widths_of(L, dt, nm, w);
    const long s0 = nw ? width_row(L, dt, nm, w[0], 0, 0) : -1;
    if (nw)
        fputs("\n| vec4 loads | aligned GB/s | vs scalar loads | worst misaligned base vs aligned | n - 1 vs aligned |\n"
              "|---|---:|---:|---:|---:|\n", f);
    for (int k = 0; k < nw; k++) {
        const long a = width_row(L, dt, nm, w[k], 0, 0);
        if (a < 0) continue;
        const double ta = N(L, (size_t)a, L->ms);
        fprintf(f, "| %.0f-byte%s | %.1f | ", w[k], k == 0 ? " (scalar)" : "", N(L, (size_t)a, L->gb));
        if (k > 0 && s0 >= 0) fprintf(f, "%+.1f %%", (N(L, (size_t)s0, L->ms) / ta - 1) * 100);
        double worst = NAN, wo = 0;
        for (int o = 4; o < 16; o += 4) {
            const long m = width_row(L, dt, nm, w[k], o, 0);
            if (m < 0) continue;
            const double z = (N(L, (size_t)m, L->ms) / ta - 1) * 100;
            if (!(z <= worst)) { worst = z; wo = o; }
        }
        fputs(" | ", f);
        if (!isnan(worst)) fprintf(f, "%+.1f %% (offset %.0f)", worst, wo);
        const long t1 = width_row(L, dt, nm, w[k], 0, 1);
        fputs(" | ", f);
        if (t1 >= 0) fprintf(f, "%+.1f %%", (N(L, (size_t)t1, L->ms) / ta - 1) * 100);
        fputs(" |\n", f);
    }
}

static int write_summary(const char *dir, const lc_tab *L, int gpu, sl_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return sl_err_set(err, "launch_summary.md: out of memory");
    fputs("<!-- launch_summary.md: BENCHMARKS.md's launch-config table, generated from launch.csv by the "
          "report (`sumlab run --report-only -o DIR` regenerates it). -->\n"
          "### launch-config: best launch per rung, block 256, vector and misaligned loads\n\n", f);
    if (!gpu)
        fputs("CPU backend: the times below are the CPU twins' wall clock, not GPU speed.\n", f);
    static const char *const dts[] = {"f32", "bf16"};
    for (int d = 0; d < 2; d++) {
        const double nm = n_max(L, dts[d]);
        if (nm > 0) summary_dtype(f, L, dts[d], nm);
    }
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad || !buf) {
        free(buf);
        return sl_err_set(err, "launch_summary.md: composing failed");
    }
    char path[SL_DIR_MAX + 64];
    snprintf(path, sizeof path, "%s/launch_summary.md", dir);
    const int rc = sl_write_atomic(path, buf, len, err);
    free(buf);
    return rc;
}

void sl_report_launch(FILE *f, const sl_report_ctx *R)
{
    int any = 0;
    for (size_t r = 0; r < R->t->nrows && !any; r++) any = !strcmp(sl_csv_get(R->t, r, R->c.exp), "launch-config");
    if (!any) return;
    char path[SL_DIR_MAX + 64];
    snprintf(path, sizeof path, "%s/launch.csv", R->dir);
    sl_err e = {{0}};
    sl_csv t;
    if (sl_lc_write_csv(R->dir, &e) || sl_csv_read(path, &t, NULL, &e)) {
        fprintf(f, "## Launch configurations\n\nlaunch.csv could not be read: %s\n\n", e.msg);
        return;
    }
    lc_tab L = {&t, sl_csv_col(&t, "variant"), sl_csv_col(&t, "dtype"), sl_csv_col(&t, "n"),
                sl_csv_col(&t, "backend"), sl_csv_col(&t, "sweep"), sl_csv_col(&t, "block_req"),
                sl_csv_col(&t, "grid_req"), sl_csv_col(&t, "block"), sl_csv_col(&t, "grid"),
                sl_csv_col(&t, "accumulators"), sl_csv_col(&t, "offset"), sl_csv_col(&t, "tail"),
                sl_csv_col(&t, "time_ms"), sl_csv_col(&t, "gbps"), sl_csv_col(&t, "rel_err"),
                sl_csv_col(&t, "bound_ratio"), sl_csv_col(&t, "load_width"), sl_csv_col(&t, "items")};
    const int gpu = t.nrows > 0 && !strcmp(sl_csv_get(&t, 0, L.be), "gpu");
    fputs("## Launch configurations\n\nThe first text's tuning claims measured (`launch-config`, "
          "`uniform`, median of the repetitions; every figure below is computed from `launch.csv`): "
          "block size 32 .. 1024, grid from one block per SM to 64, items and independent "
          "accumulators per thread, base offset 0/4/8/12 bytes and n - 1, float32 and bfloat16.\n\n", f);
    if (!gpu)
        fputs("CPU backend: the times are the CPU twins' wall clock, not GPU speed, so no speed claim is "
              "judged here (run `sumlab run launch-config --backend gpu`); the errors are the kernels' "
              "(the twins give the same bits).\n\n", f);
    static const char *const dts[] = {"f32", "bf16"};
    for (int d = 0; d < 2; d++) {
        const double nm = n_max(&L, dts[d]);
        if (nm <= 0) continue;
        fprintf(f, "### %s\n\n", dts[d]);
        if (gpu) speed_claims(f, &L, dts[d], nm);
        width_claims(f, &L, dts[d], nm, gpu);
        accumulator_claims(f, &L, dts[d], nm, gpu);
        error_claims(f, &L, dts[d], nm);
    }
    if (write_summary(R->dir, &L, gpu, &e))
        fprintf(f, "launch_summary.md (BENCHMARKS.md's table) not written: %s\n\n", e.msg);
    else
        fputs("BENCHMARKS.md's launch-config table from these figures: `launch_summary.md`.\n\n", f);
    sl_csv_free(&t);
}

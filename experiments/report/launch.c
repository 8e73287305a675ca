/* launch.c: the "Launch configurations" section of report.md: which of the first text's tuning
 * claims held in this run, every figure computed from DIR/launch.csv (the launch-config rows):
 * 256 threads against the best block size per rung, the best grid, accumulators and items, vector
 * loads against scalar ones and misaligned against aligned, and the error of every tree shape
 * against its bound. Speed claims need the GPU backend; the CPU backend reports the errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "launch.h"

typedef struct {
    const sl_csv *t;
    int var, dt, n, be, sw, breq, greq, blk, grd, acc, off, tail, ms, gb, re, br;
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
                sl_csv_col(&t, "bound_ratio")};
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
        error_claims(f, &L, dts[d], nm);
    }
    sl_csv_free(&t);
}

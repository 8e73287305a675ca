/* ladder.c: the "Ladders" section of report.md: each source text's rungs as measured (time,
 * GB/s, fraction of the read ceiling, speedup over the text's first rung, ratio to CUB) beside
 * what the text publishes or predicts, for the two points of the ladder experiment, and where
 * the H200 differs from the text, with Nsight Compute's counters when DIR/ladder_ncu.csv is there. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ladder.h"
#include "charts.h"

static void cell(FILE *f, double v, const char *fmt)
{
    if (isnan(v)) fputs(" - |", f);
    else {
        fputc(' ', f);
        fprintf(f, fmt, v);
        fputs(" |", f);
    }
}

/* Counters per variant from ladder_ncu.csv (variant,dram_pct,bank_conflicts,barrier_stall_pct). */
typedef struct {
    sl_csv t;
    int ok, cv, cd, cb, cs;
} ncu_table;

static void ncu_open(ncu_table *nt, const char *dir)
{
    char path[1100];
    memset(nt, 0, sizeof *nt);
    if (snprintf(path, sizeof path, "%s/ladder_ncu.csv", dir) >= (int)sizeof path) return;
    FILE *probe = fopen(path, "r");
    if (!probe) return;
    fclose(probe);
    if (sl_csv_read(path, &nt->t, NULL, NULL)) return;
    nt->cv = sl_csv_col(&nt->t, "variant");
    nt->cd = sl_csv_col(&nt->t, "dram_pct");
    nt->cb = sl_csv_col(&nt->t, "bank_conflicts");
    nt->cs = sl_csv_col(&nt->t, "barrier_stall_pct");
    nt->ok = nt->cv >= 0;
}

static int ncu_row(const ncu_table *nt, const char *variant)
{
    for (size_t r = 0; nt->ok && r < nt->t.nrows; r++)
        if (!strcmp(sl_csv_get(&nt->t, r, nt->cv), variant)) return (int)r;
    return -1;
}

/* predicts_order: the text predicts a gain at every rung (text 1): say whether it holds. */
static void text_table(FILE *f, const sl_ladder_cell *c, size_t m, const sl_ladder_text *tx,
                       const ncu_table *nt, int with_ncu, int predicts_order)
{
    fprintf(f, "**%s** (%s)\n\n", tx->name, tx->source);
    fputs("| rung | variant | ms | GB/s | of read ceiling | speedup | published speedup | published bandwidth | vs CUB | twin |", f);
    if (with_ncu) fputs(" DRAM % | smem bank conflicts | barrier stall % |", f);
    fputs("\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|", f);
    if (with_ncu) fputs("---:|---:|---:|", f);
    fputc('\n', f);
    double prev = NAN;
    int monotone = 1, rows = 0;
    for (size_t i = 0; i < m; i++) {
        if (c[i].text != tx) continue;
        rows++;
        fprintf(f, "| %s | `%s` |", c[i].rung->rung, c[i].rung->variant);
        cell(f, c[i].ms, "%.4g");
        cell(f, c[i].gbps, "%.0f");
        cell(f, c[i].frac_read, "%.2f");
        cell(f, c[i].speedup, "%.2fx");
        cell(f, c[i].rung->published_speedup, "%.2fx");
        cell(f, c[i].rung->published_bw_pct, "%.2f %%");
        cell(f, c[i].ratio_cub, "%.3f");
        fprintf(f, " %s |", !strcmp(c[i].twin_match, "1") ? "equal" : !strcmp(c[i].twin_match, "0") ? "**DIFFERS**" : "-");
        if (with_ncu) {
            int r = ncu_row(nt, c[i].rung->variant);
            cell(f, r >= 0 ? sl_csv_num(&nt->t, (size_t)r, nt->cd) : NAN, "%.1f");
            cell(f, r >= 0 ? sl_csv_num(&nt->t, (size_t)r, nt->cb) : NAN, "%.0f");
            cell(f, r >= 0 ? sl_csv_num(&nt->t, (size_t)r, nt->cs) : NAN, "%.1f");
        }
        fputc('\n', f);
        if (!isnan(prev) && !isnan(c[i].ms) && c[i].ms > prev) monotone = 0;
        if (!isnan(c[i].ms)) prev = c[i].ms;
    }
    fputc('\n', f);
    /* where the text publishes figures: its spread first..last beside the measured one */
    const sl_ladder_cell *last = NULL;
    for (size_t i = 0; i < m; i++)
        if (c[i].text == tx && !isnan(c[i].rung->published_speedup) && !isnan(c[i].speedup)) last = &c[i];
    if (last && last != c)
        fprintf(f, "From %s to %s the text publishes %.2fx; measured here: %.2fx.\n\n", tx->rungs[0].rung,
                last->rung->rung, last->rung->published_speedup, last->speedup);
    if (rows && predicts_order)
        fprintf(f, "Text 1 predicts each rung faster than the one before: %s.\n\n",
                monotone ? "it holds here, rung for rung" : "**it does not hold at every step here**");
}

void sl_report_ladders(FILE *f, const sl_report_ctx *R)
{
    int any = 0;
    for (size_t r = 0; r < R->t->nrows && !any; r++) any = !strcmp(sl_csv_get(R->t, r, R->c.exp), "ladder");
    if (!any) return;
    fputs("## Ladders\n\nBoth source texts' optimisation ladders, rung for rung (float32, `uniform`, "
          "median of the repetitions; speedup over the text's first rung; \"of read ceiling\": the "
          "streaming-read kernel's time over the rung's; \"twin\": every GPU result equal to its CPU "
          "twin bit for bit).\n\n", f);
    ncu_table nt;
    ncu_open(&nt, R->dir);
    static const char *const configs[] = {"block256", "default"};
    size_t ntexts;
    const sl_ladder_text *tx = sl_ladder_texts(&ntexts);
    for (int k = 0; k < 2; k++) {
        sl_ladder_cell c[64];
        uint64_t n = 0;
        size_t m = sl_ladder_table(R->t, configs[k], c, 64, &n);
        if (!n) continue;
        fprintf(f, "### n = %llu, %s\n\n", (unsigned long long)n,
                k == 0 ? "256 threads per block (the scale the texts publish at)" : "each rung's own launch");
        for (size_t t = 0; t < ntexts; t++) text_table(f, c, m, &tx[t], &nt, k == 0 && nt.ok, t == 0);
    }
    if (nt.ok) {
        fputs("Counters (Nsight Compute, n = 2^25 block 256, `ladder_ncu.csv`): `dram__throughput` as % of "
              "peak, shared-memory bank conflicts (`l1tex__data_bank_conflicts_pipe_lsu_mem_shared`, loads + "
              "stores), and the share of issue slots stalled at a barrier.\n\n", f);
        sl_csv_free(&nt.t);
    }
    fputs("Text 2's published bandwidth column falls from v1 to v6 while its speedup column rises, so it "
          "cannot be a fraction of one fixed peak; the \"of read ceiling\" column here is the fraction of one measured peak (this run's "
          "streaming-read kernel on the same buffer).\n\n", f);
    sl_report_charts_at(f, R->dir, "ladder_", R->on_gpu);
}

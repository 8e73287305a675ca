/* exp_batch.c: the batch-invariance experiment: does a row's result depend on how many rows are
 * reduced with it? For each operation, variant and format, rows 0, 1, 15 and 1023 of X[:B] (one
 * [Bmax, N] input, its first B rows) are reduced row-wise (kernels/rows) for every B of the list
 * that holds the row; the number of distinct bit patterns of each row over those B is written to
 * DIR/batch_invariance.csv (one line per operation, variant, format, N and row), with the
 * throughput of the largest batch beside it, the median and largest error (ulps) of its rows
 * against each row's exact result, and the row's patterns over the batch sizes and two more
 * launch configurations together (extra_cfgs), and DIR/batch_invariance.md holds the table: which
 * methods are batch-invariant, at what cost. A two-input operation (dot) reduces X[:B] @ w: every
 * row of X with one vector w of N values (generated with the next seed), as a matrix-vector
 * product does. GPU: B over the full list up to 4096, N 4096 and
 * 32768, the variants with a row kernel of their own unless --variants names others; CPU (the
 * twins): B up to 256 (tiny: 32), N 256 and 4096 (tiny: 100 and 1000); --n gives other N. Opt-in
 * in the quick CPU preset: run when named, not in `all` (it adds nothing to results.csv). PyTorch's measurement of the same
 * (experiments/anchors/batch_torch.py -o DIR/batch_torch.csv, run before) joins both files when
 * DIR/batch_torch.csv is there: read as data, every field validated, the whole file left out
 * (with a note) when anything in it is not what that script writes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"
#include "rows/rows.h"
#include "sumlab/pool.h"

static const uint64_t batch_list[] = {1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 100, 128, 256, 512, 1024, 2048, 4096};
#define NBATCH (sizeof batch_list / sizeof batch_list[0])
static const uint64_t tracked_rows[] = {0, 1, 15, 1023};
#define NTRACKED (sizeof tracked_rows / sizeof tracked_rows[0])
static const sl_dtype batch_dtypes[] = {SL_F32, SL_BF16};
/* Launch configurations beside the default one (the device's SM count; the CPU twins:
 * SL_DEFAULT_SM_COUNT), tried on the batches of at most CFG_BMAX rows: the split row kernels
 * sized for 1 SM and for 4096, and with the latter blocks of 128 threads (the variants whose
 * block is part of their result keep theirs). */
static const struct { uint32_t sm_count, block; } extra_cfgs[] = {{1, 0}, {4096, 128}};
#define NEXTRA (sizeof extra_cfgs / sizeof extra_cfgs[0])
#define CFG_BMAX 100u
/* The most values a batch of bmax rows of N may hold (8 GiB of float32): an --n meant as whole
 * arrays' sizes (run all --n 2^28) would make rows of 2^28 values in batches of 4096. */
#define BATCH_MAX_VALUES ((uint64_t)1 << 31)

/* The sizes of this run: the largest B and the row lengths (--n's, else the preset's two; ns
 * holds SL_SWEEP_MAX). */
static void batch_sizes(const sl_run *run, uint64_t *bmax, uint64_t *ns, int *nn)
{
    uint64_t d[2];
    if (run->on_gpu && run->preset != SL_PRESET_TINY) {
        *bmax = 4096;
        d[0] = 4096;
        d[1] = 32768;
    } else if (run->preset == SL_PRESET_TINY) {
        *bmax = 32;
        d[0] = 100;
        d[1] = 1000;
    } else {
        *bmax = 256;
        d[0] = 256;
        d[1] = 4096;
    }
    *nn = sl_exp_ns(run, d, 2, ns, SL_SWEEP_MAX);
}

/* Runs on the GPU, any preset, and on the CPU in the tiny and full presets, and in the quick one
 * when named (`sumlab run batch-invariance`: `run all`'s quick CPU study leaves it out). */
static int batch_on(const sl_run *run)
{
    return run->on_gpu || run->preset != SL_PRESET_QUICK || run->named_alone;
}

static int variant_runs(const sl_run *run, const sl_variant *v, sl_dtype dt)
{
    if (sl_op_is_exact(v) || !(v->dtypes & SL_DTYPE_MASK(dt))) return 0;
    if (!(run->on_gpu ? (v->gpu != NULL || v->gpu2 != NULL) : (v->cpu != NULL || v->cpu2 != NULL))) return 0;
    if (run->sweep.nv) {   /* --variants: by name, in any operation */
        int on = 0;
        for (int i = 0; i < run->sweep.nv && !on; i++) on = !strcmp(run->sweep.v[i]->name, v->name);
        if (!on) return 0;
    } else if (run->on_gpu) {
        /* GPU without --variants: the variants with a row kernel of their own. The others run the
         * 1-D launcher on each row with a configuration resolved from n and the row's address
         * alone (never B), so their rows are batch-invariant by construction, while each B uploads
         * X[:B] anew (about 1.4 s a variant on an H200); --variants measures any of them. */
        sl_rows_entries e;
        sl_rows_entries_of(v, &e);
        if (!e.dedicated) return 0;
    }
    return 1;
}

/* The text of the CSV and of the markdown table, grown as lines arrive. */
typedef struct {
    char *s;
    size_t len, cap;
    int oom;
} text;

static void put(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(text *t, const char *fmt, ...)
{
    if (t->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        const size_t room = t->cap - t->len;
        const int w = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? room : 0, fmt, ap);
        va_end(ap);
        if (w < 0) { t->oom = 1; return; }
        if (t->s && (size_t)w < room) { t->len += (size_t)w; return; }
        const size_t cap = (t->cap + (size_t)w + 1) * 2;
        char *p = realloc(t->s, cap);
        if (!p) { t->oom = 1; return; }
        t->s = p;
        t->cap = cap;
    }
}

static int same_bits(double a, double b)
{
    if (isnan(a) && isnan(b)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The rows judged in parallel (sl_parallel_for): row r's error in ulps into u[r], or its
 * failure into bad[r] (the first message kept). */
typedef struct {
    const sl_operation *op;
    const sl_op_params *params;
    const char *x;
    const void *w;   /* a two-input operation's vector (every row's y), else NULL */
    uint64_t N;
    sl_dtype dt;
    const double *res;
    double *u;
    unsigned char *bad;
    sl_err *errs;   /* one per row that failed, at its index */
} judge_job;

static void judge_row(void *ctx, size_t r)
{
    judge_job *j = ctx;
    sl_reference ref;
    const void *const in[2] = {j->x + r * j->N * sl_dtype_size(j->dt), j->w};
    if (j->op->reference(&ref, in, j->N, j->dt, j->params, 1, &j->errs[r])) j->bad[r] = 1;
    else j->u[r] = sl_reference_errors(&ref, j->res[r], j->dt).ulps;
    sl_reference_clear(&ref);
    /* the constants MPFR caches for this thread (log, exp, sqrt of the references): freed here,
     * as the pool's threads end with the call and their caches would be lost */
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
}

/* Every row of a batch (res: its B results) judged against that row's exact result over the
 * run's threads: the median and the largest error in ulps over the rows (NaN when a row's error
 * is NaN). 0, or -1 (err). */
static int rows_ulps(sl_run *run, const sl_variant *v, const void *x, const void *w, uint64_t B, uint64_t N,
                     sl_dtype dt, const double *res, double *med, double *most, sl_err *err)
{
    const sl_operation *op = sl_op_of(v);
    double *u = malloc((size_t)B * sizeof(double));
    unsigned char *bad = calloc((size_t)B, 1);
    sl_err *errs = calloc((size_t)B, sizeof(sl_err));
    int rc = 0;
    if (!op || !u || !bad || !errs)
        rc = sl_err_set(err, "batch-invariance: %s", op ? "out of memory" : "no operation");
    const double t0 = sl_now_s();
    judge_job j = {op, &run->params, x, w, N, dt, res, u, bad, errs};
    if (!rc && sl_parallel_for((size_t)B, run->threads ? run->threads : 1u, judge_row, &j))
        rc = sl_err_set(err, "batch-invariance: a judging thread could not be joined");
    for (uint64_t r = 0; r < B && !rc; r++)
        if (bad[r]) {
            *err = errs[r];
            rc = -1;
        }
    run->phases.judge += sl_now_s() - t0;
    if (!rc) {
        qsort(u, (size_t)B, sizeof(double), sl_cmp_double);
        *med = B % 2 ? u[B / 2] : 0.5 * (u[B / 2 - 1] + u[B / 2]);
        *most = u[B - 1];
    }
    free(u);
    free(bad);
    free(errs);
    return rc;
}

/* r into the patterns seen[0 .. *n) when it is not among them. */
static void see(double *seen, int *n, double r)
{
    for (int j = 0; j < *n; j++)
        if (same_bits(seen[j], r)) return;
    seen[(*n)++] = r;
}

/* One variant on one input: the tracked rows' distinct patterns over the batch sizes (the
 * default launch configuration), and over the batch sizes and the extra launch configurations
 * together; every row of the largest batch judged. */
static int batch_variant(sl_run *run, const sl_variant *v, const void *x, const void *w, uint64_t bmax,
                         uint64_t N, sl_dtype dt, text *csv, text *md, sl_err *err)
{
    const void *y = v->gpu2 || v->cpu2 ? w : NULL;   /* X[:B] @ w for a two-input operation */
    double seen[NTRACKED][NBATCH], seen_all[NTRACKED][NBATCH * (1 + NEXTRA)];
    int nseen[NTRACKED] = {0}, batches[NTRACKED] = {0}, nall[NTRACKED] = {0}, configs = 1;
    double *res = malloc((size_t)bmax * sizeof(double));
    if (!res) return sl_err_set(err, "out of memory");
    double gbps = NAN, umed = NAN, umax = NAN;
    int failed = 0;
    uint64_t blast = 0;   /* the largest batch: res holds its rows after the loop */
    for (size_t bi = 0; bi < NBATCH && batch_list[bi] <= bmax; bi++) {
        const uint64_t B = batch_list[bi];
        blast = B;
        sl_launch req;
        memset(&req, 0, sizeof req);
        req.ddof = run->params.ddof;
        sl_err e = {{0}};
        double ms = NAN;
        const double t0 = sl_now_s();
        int rc = run->on_gpu ? sl_rows_gpu_host_xy(v, x, y, 0, B, N, dt, &req, 3, res, &ms, NULL, NULL, &e)
                             : sl_rows_cpu_xy(v, x, y, 0, B, N, dt, &req, res, &e);
        if (!run->on_gpu) ms = (sl_now_s() - t0) * 1e3;
        run->phases.measure += sl_now_s() - t0;
        if (rc) {
            sl_notes_add(&run->notes, "batch-invariance: %s/%s %s N=%llu B=%llu: %s", v->op, v->name,
                         sl_dtype_name(dt), (unsigned long long)N, (unsigned long long)B, e.msg);
            failed = 1;
            break;
        }
        /* the bytes read: X[:B] (and w once) */
        if (ms > 0) gbps = (double)(B * N + (y ? N : 0u)) * (double)sl_dtype_size(dt) / (ms * 1e6);
        for (size_t k = 0; k < NTRACKED; k++) {
            if (tracked_rows[k] >= B) continue;
            batches[k]++;
            see(seen[k], &nseen[k], res[tracked_rows[k]]);
            see(seen_all[k], &nall[k], res[tracked_rows[k]]);
        }
    }
    if (!failed && blast) {
        sl_err je = {{0}};
        if (rows_ulps(run, v, x, y, blast, N, dt, res, &umed, &umax, &je))
            sl_notes_add(&run->notes, "batch-invariance: %s/%s %s N=%llu: rows not judged: %s", v->op,
                         v->name, sl_dtype_name(dt), (unsigned long long)N, je.msg);
    }
    /* the extra launch configurations on the small batches (res reused: the judging is done) */
    for (size_t c = 0; c < NEXTRA && !failed; c++) {
        int ran = 0;
        for (size_t bi = 0; bi < NBATCH && batch_list[bi] <= bmax && batch_list[bi] <= CFG_BMAX; bi++) {
            const uint64_t B = batch_list[bi];
            sl_launch req;
            memset(&req, 0, sizeof req);
            req.ddof = run->params.ddof;
            req.sm_count = extra_cfgs[c].sm_count;
            req.block = extra_cfgs[c].block;
            sl_err e = {{0}};
            const double t0 = sl_now_s();
            int rc = run->on_gpu ? sl_rows_gpu_host_xy(v, x, y, 0, B, N, dt, &req, 1, res, NULL, NULL, NULL, &e)
                                 : sl_rows_cpu_xy(v, x, y, 0, B, N, dt, &req, res, &e);
            run->phases.measure += sl_now_s() - t0;
            if (rc) {
                sl_notes_add(&run->notes, "batch-invariance: %s/%s %s N=%llu B=%llu, sm_count %u block %u: %s",
                             v->op, v->name, sl_dtype_name(dt), (unsigned long long)N, (unsigned long long)B,
                             extra_cfgs[c].sm_count, extra_cfgs[c].block, e.msg);
                break;
            }
            ran = 1;
            for (size_t k = 0; k < NTRACKED; k++)
                if (tracked_rows[k] < B) see(seen_all[k], &nall[k], res[tracked_rows[k]]);
        }
        configs += ran;
    }
    free(res);
    if (failed) return 0;
    sl_rows_entries e;
    sl_rows_entries_of(v, &e);
    int worst = 0, worst_all = 0;
    for (size_t k = 0; k < NTRACKED; k++) {
        if (batches[k] < 2) continue;   /* a row in one batch size alone says nothing */
        if (nseen[k] > worst) worst = nseen[k];
        if (nall[k] > worst_all) worst_all = nall[k];
        put(csv, "%s,%s,%s,%s,%s,%llu,%llu,%d,%d,%s,%.6g,%s,%.6g,%.6g,%d,%d\n", v->op, v->name, v->family,
            sl_determinism_name(v->determinism), sl_dtype_name(dt), (unsigned long long)N,
            (unsigned long long)tracked_rows[k], batches[k], nseen[k], run->on_gpu ? "gpu" : "cpu",
            gbps, e.dedicated ? "rows" : "generic", umed, umax, configs, nall[k]);
    }
    put(md, "| %s | %s | %s | %llu | %s | %d | %.4g | %s | %.3g | %.3g | %d | %d |\n", v->op, v->name,
        sl_dtype_name(dt), (unsigned long long)N, worst <= 1 ? "yes" : "no", worst, gbps,
        e.dedicated ? "row kernel" : "1-D kernel per row", umed, umax, configs, worst_all);
    return 0;
}

/* ---- PyTorch's rows: DIR/batch_torch.csv (batch_torch.py's columns, which are ours) -------- */
static const char *const torch_cols[] = {"op", "variant", "family", "det_class", "dtype", "n", "row",
                                         "batches", "distinct", "backend", "gbps", "path"};
#define NTORCHCOL (sizeof torch_cols / sizeof torch_cols[0])

/* A PyTorch call's name as batch_torch.py writes it: 1 .. 40 of [A-Za-z0-9_.()]. */
static int torch_name(const char *s)
{
    size_t len = strlen(s);
    if (len < 1 || len > 40) return 0;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_' || s[i] == '.' || s[i] == '(' || s[i] == ')'))
            return 0;
    return 1;
}

/* Row r of t checked field by field; its values in the out parameters. 1 when valid, else 0
 * with *why naming the field. */
static int torch_row(const sl_csv *t, size_t r, const char **why, uint64_t *n, uint64_t *row,
                     uint64_t *batches, uint64_t *distinct, double *gbps)
{
    static const char *const ops[] = {"sum", "var", "lse", "norm2", "mean", "dot"};
    const char *op = t->cell[r][0];
    int known = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) known |= !strcmp(op, ops[i]);
    if (!known) return *why = "op", 0;
    if (!torch_name(t->cell[r][1])) return *why = "variant", 0;
    if (strcmp(t->cell[r][2], "pytorch")) return *why = "family", 0;
    if (t->cell[r][3][0]) return *why = "det_class", 0;
    if (strcmp(t->cell[r][4], "f32") && strcmp(t->cell[r][4], "bf16")) return *why = "dtype", 0;
    if (!sl_exp_decimal(t->cell[r][5], 12, n) || *n < 1 || *n > ((uint64_t)1 << 40)) return *why = "n", 0;
    if (!sl_exp_decimal(t->cell[r][6], 12, row) || *row >= 4096u) return *why = "row", 0;
    if (!sl_exp_decimal(t->cell[r][7], 12, batches) || *batches < 2 || *batches > NBATCH) return *why = "batches", 0;
    if (!sl_exp_decimal(t->cell[r][8], 12, distinct) || *distinct < 1 || *distinct > *batches) return *why = "distinct", 0;
    if (strcmp(t->cell[r][9], "gpu") && strcmp(t->cell[r][9], "cpu")) return *why = "backend", 0;
    const char *g = t->cell[r][10];
    char *end = NULL;
    *gbps = strtod(g, &end);
    if (!strcmp(g, "nan")) *gbps = NAN;
    else if (!g[0] || *end || !isfinite(*gbps) || *gbps < 0 || *gbps > 1e6) return *why = "gbps", 0;
    if (strcmp(t->cell[r][11], "torch")) return *why = "path", 0;
    return 1;
}

/* Appends DIR/batch_torch.csv's rows to csv and their table lines (the largest count over the
 * tracked rows of each op, call, format and N) to md, written from the parsed values. Absent: 0
 * lines. Not a regular file (a link is not followed), over 1 MiB, another header or any invalid
 * row: a note, and none of it. Returns the number of rows taken. */
static size_t torch_merge(sl_run *run, text *csv, text *md)
{
    sl_csv t;
    if (!sl_exp_read_joined(run, "batch-invariance", "batch_torch.csv", torch_cols, NTORCHCOL, &t)) return 0;
    const char *why = NULL;
    size_t bad = 0;
    uint64_t n, row, batches, distinct;
    double gbps;
    for (size_t r = 0; !why && r < t.nrows; r++)
        if (!torch_row(&t, r, &why, &n, &row, &batches, &distinct, &gbps)) bad = r + 1;
    if (why) {
        sl_notes_add(&run->notes, "batch-invariance: batch_torch.csv left out: row %zu, field %s is not "
                     "what batch_torch.py writes", bad, why);
        sl_csv_free(&t);
        return 0;
    }
    for (size_t r = 0; r < t.nrows; r++) {
        torch_row(&t, r, &why, &n, &row, &batches, &distinct, &gbps);
        put(csv, "%s,%s,pytorch,,%s,%llu,%llu,%llu,%llu,%s,%.6g,torch,,,,\n", t.cell[r][0], t.cell[r][1],
            t.cell[r][4], (unsigned long long)n, (unsigned long long)row, (unsigned long long)batches,
            (unsigned long long)distinct, t.cell[r][9], gbps);
        /* a table line per run of rows with the same op, call, format and N */
        uint64_t worst = distinct;
        size_t q = r;
        while (q + 1 < t.nrows && !strcmp(t.cell[q + 1][0], t.cell[r][0]) && !strcmp(t.cell[q + 1][1], t.cell[r][1]) &&
               !strcmp(t.cell[q + 1][4], t.cell[r][4]) && !strcmp(t.cell[q + 1][5], t.cell[r][5])) {
            uint64_t n2, row2, b2, d2;
            double g2;
            q++;
            torch_row(&t, q, &why, &n2, &row2, &b2, &d2, &g2);
            if (d2 > worst) worst = d2;
            put(csv, "%s,%s,pytorch,,%s,%llu,%llu,%llu,%llu,%s,%.6g,torch,,,,\n", t.cell[q][0], t.cell[q][1],
                t.cell[q][4], (unsigned long long)n2, (unsigned long long)row2, (unsigned long long)b2,
                (unsigned long long)d2, t.cell[q][9], g2);
        }
        put(md, "| %s | %s | %s | %llu | %s | %llu | %.4g | PyTorch | | | | |\n", t.cell[r][0], t.cell[r][1],
            t.cell[r][4], (unsigned long long)n, worst <= 1 ? "yes" : "no", (unsigned long long)worst, gbps);
        r = q;
    }
    const size_t taken = t.nrows;
    sl_csv_free(&t);
    return taken;
}

static int walk(sl_run *run, int exec, double *work, sl_err *err)
{
    if (!batch_on(run)) return 0;
    uint64_t bmax, ns[SL_SWEEP_MAX];
    int nn;
    batch_sizes(run, &bmax, ns, &nn);
    text csv = {0}, md = {0};
    if (exec) {
        put(&csv, "op,variant,family,det_class,dtype,n,row,batches,distinct,backend,gbps,path,"
                  "rows_ulps_median,rows_ulps_max,configs,distinct_configs\n");
        put(&md, "# Batch invariance\n\nDistinct bit patterns of rows 0, 1, 15 and 1023 of X[:B] "
                 "(the largest count over the rows) for B in {1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 100, "
                 "128, 256, 512, 1024, 2048, 4096} up to %llu, on the %s; GB/s of the largest batch, "
                 "and its rows' errors against each row's exact result (ulps, the median and the "
                 "largest over the rows). Batch-invariant: one pattern per row. Then the launch "
                 "configurations tried (the default; on the batches of at most 100 rows, the split "
                 "sized for 1 SM, and for 4096 SMs with blocks of 128 threads) and the patterns of a "
                 "row over every batch size and configuration.\n\n"
                 "| op | variant | dtype | N | batch-invariant | patterns | GB/s | path | ulps median | "
                 "ulps max | configs | patterns, every config |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            (unsigned long long)bmax, run->on_gpu ? "GPU" : "CPU twins");
    }
    const sl_dataset *ds = sl_dataset_find("uniform-sym");
    if (!ds) ds = sl_dataset_at(0);
    sl_params p;
    sl_params_defaults(ds, &p);
    int rc = 0, any_dtype = 0;
    for (size_t t = 0; t < sizeof batch_dtypes / sizeof batch_dtypes[0]; t++) any_dtype |= sl_exp_dtype_on(run, batch_dtypes[t]);
    if (exec && sl_exp_instances(run) > 1)
        sl_notes_add(&run->notes, "batch-invariance: one input per format and N (seed %llu); --seeds %d "
                     "does not apply to it", (unsigned long long)run->seed, sl_exp_instances(run));
    if (exec && !any_dtype)
        sl_notes_add(&run->notes, "batch-invariance: it measures float32 and bfloat16 rows, and --dtype "
                                  "selects neither: nothing measured");
    for (size_t t = 0; t < sizeof batch_dtypes / sizeof batch_dtypes[0] && !rc; t++) {
        const sl_dtype dt = batch_dtypes[t];
        if (!sl_exp_dtype_on(run, dt)) continue;
        for (int k = 0; k < nn && !rc; k++) {
            const uint64_t N = ns[k];
            if (N > BATCH_MAX_VALUES / bmax) {   /* --n's sizes are the whole array's elsewhere */
                if (exec)
                    sl_notes_add(&run->notes, "batch-invariance: N=%llu skipped: batches of up to %llu rows "
                                 "of it hold more than 2^31 values (--n gives its row lengths)",
                                 (unsigned long long)N, (unsigned long long)bmax);
                continue;
            }
            size_t nv = 0;
            for (size_t i = 0; i < sl_variant_count(); i++) nv += variant_runs(run, sl_variant_at(i), dt);
            const double w = sl_exp_work(bmax * N, 3) * (double)nv / (double)sl_variant_count();
            if (!exec) { *work += w; run->plan_steps += 1; continue; }
            if (sl_run_stopped(run)) break;
            char what[160];
            snprintf(what, sizeof what, "batch-invariance %s N=%llu (B up to %llu, %zu variants)",
                     sl_dtype_name(dt), (unsigned long long)N, (unsigned long long)bmax, nv);
            sl_progress_step(run->prog, what, w);
            sl_err ge = {{0}};
            void *x = sl_exp_generate(run, ds, &p, dt, bmax * N, &ge);
            /* the two-input operations' w: N values of the next seed (not a row of X) */
            void *vec = x ? sl_exp_generate_seed(run, ds, &p, dt, N, run->seed + 1u, &ge) : NULL;
            if (!x || !vec) {
                sl_notes_add(&run->notes, "batch-invariance: %s input not generated: %s", sl_dtype_name(dt), ge.msg);
                if (x) sl_hostbuf_put(run, x);
                sl_progress_done(run->prog);
                continue;
            }
            for (size_t i = 0; i < sl_variant_count() && !rc && !sl_run_stopped(run); i++) {
                const sl_variant *v = sl_variant_at(i);
                if (variant_runs(run, v, dt)) rc = batch_variant(run, v, x, vec, bmax, N, dt, &csv, &md, err);
            }
            sl_hostbuf_put(run, vec);
            sl_hostbuf_put(run, x);
            sl_progress_done(run->prog);
        }
    }
    if (exec && !rc) {
        if (torch_merge(run, &csv, &md))
            put(&md, "\nPath PyTorch: experiments/anchors/batch_torch.py's measurement (its own X, "
                     "batch sizes up to its --bmax), read from batch_torch.csv in this directory.\n");
        if (csv.oom || md.oom) rc = sl_err_set(err, "batch-invariance: out of memory");
        char path[SL_DIR_MAX + 64];
        if (!rc && !sl_path_join(path, sizeof path, run->dir, "batch_invariance.csv", err))
            rc = sl_write_atomic(path, csv.s, csv.len, err);
        else if (!rc) rc = -1;
        if (!rc && !sl_path_join(path, sizeof path, run->dir, "batch_invariance.md", err))
            rc = sl_write_atomic(path, md.s, md.len, err);
        else if (!rc) rc = -1;
    }
    free(csv.s);
    free(md.s);
    return rc ? -1 : 0;
}

double sl_exp_batch_plan(sl_run *run)
{
    double w = 0;
    walk(run, 0, &w, NULL);
    return w;
}
int sl_exp_batch(sl_run *run, sl_err *err) { return walk(run, 1, NULL, err); }

/* bench_rows.c: `sumlab bench --axis -1`: row-wise reductions of generated [B, N] inputs
 * (kernels/rows): per variant, the whole tensor's throughput (GPU: device events; its ratio to a
 * streaming read of the same bytes measured in the same process) and every row judged against
 * its own exact reference, summarised as the median and the largest error over rows. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sl_cli.h"
#include "sl_datasets.h"
#include "sl_format.h"
#include "sl_gpu.h"
#include "sl_measure.h"
#include "sl_provenance.h"
#include "sl_reference.h"
#include "sl_results.h"
#include "sl_variants.h"
#include "rows/rows.h"
#include "sumlab/pool.h"

#define ROWS_MAX_SHAPES 16
#define ROWS_MAX_VARIANTS 96
#define ROWS_CHUNK ((uint64_t)1 << 20)

static void rows_usage(FILE *f)
{
    fputs("usage: sumlab bench --axis -1 [--rows LIST] [--n LIST] [--op OP] [--variants LIST]\n"
          "                    [--dtype f32|f64|f16|bf16] [--reps R] [--backend gpu|cpu]\n"
          "                    [--dataset NAME] [--param K=V ...] [--seed S] [--ddof N]\n"
          "                    [--format csv|table] [--columns LIST]\n\n"
          "Row-wise reductions: for every B of --rows and N of --n, a [B, N] input generated from\n"
          "the dataset (B N values, C order) is reduced along its last axis by each variant (its\n"
          "row kernel, or its 1-D kernel on each row: kernels/rows). GPU (default): one warm-up\n"
          "and R timed runs of the whole tensor (device events), and a streaming read of the\n"
          "same bytes: ratio_read = read time / the variant's time; for the sum also\n"
          "cub::DeviceSegmentedReduce::Sum on the same rows: ratio_cub = its time / the\n"
          "variant's. CPU: the twins, timed once by wall clock. Every row is judged against\n"
          "its exact reference: rows_ulps_median and rows_ulps_max over rows; a row outside\n"
          "the variant's bound fails the check. A two-input --op (dot): 2 B N values, x's rows\n"
          "then y's ([B, N] each), row i of x with row i of y; the read covers both arrays.\n"
          "With --vector: B N + N values, x's rows then one row y paired with every row (X @ y,\n"
          "a matrix-vector product; on the GPU a row must span a multiple of 16 bytes); the\n"
          "read covers x (y is read again for every row, mostly from the cache).\n\n"
          "options:\n"
          "  --axis K       -1 (or 1): the last axis (the only one of a generated input)\n"
          "  --rows L       B values (default 4096,32768)\n"
          "  --n L          N values, the row length (default 32768,4096)\n"
          "  --pairs        pair --rows and --n element by element instead of every B with every N\n"
          "  --vector       a two-input --op (dot): one row of y with every row of x (X @ y)\n"
          "  (other options as `sumlab bench`)\n\n"
          "columns (default): op variant dtype rows n reps time_ms_median gbps ratio_read\n"
          "  read_ms_median ratio_cub cub_ms_median rows_ulps_median rows_ulps_max block grid\n"
          "  backend det_class check\n\n"
          "exit: 0; 1 when a row lies outside its variant's bound or a variant could not run\n"
          "(said on stderr, its line left out); 2 bad usage (no variant that runs on this\n"
          "backend and format)\n", f);
}

static const char *const rows_columns[] = {
    "op", "variant", "dtype", "rows", "n", "reps", "time_ms_median", "gbps", "ratio_read",
    "read_ms_median", "ratio_cub", "cub_ms_median", "rows_ulps_median", "rows_ulps_max", "block",
    "grid", "backend", "det_class",
    "check",
};

typedef struct {
    sl_bench_args arg;   /* the options every bench takes */
    const char *blist, *columns;
    int pairs, on_gpu, vector;
    const sl_operation *op;
    sl_op_params opp;
    uint64_t bs[ROWS_MAX_SHAPES], ns[ROWS_MAX_SHAPES];
    size_t nb, nn;
    const sl_dataset *ds;
    sl_params p;
    sl_colset cols;
} rows_opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int rows_getopt(int argc, char **argv, rows_opts *o)
{
    enum { O_AXIS = 256, O_ROWS, O_OP, O_DDOF, O_BACKEND, O_COLUMNS, O_PAIRS, O_VECTOR };
    static const struct option opts[] = {
        SL_BENCH_LONGOPTS,
        {"axis", required_argument, NULL, O_AXIS},
        {"rows", required_argument, NULL, O_ROWS},
        {"pairs", no_argument, NULL, O_PAIRS},
        {"vector", no_argument, NULL, O_VECTOR},
        {"op", required_argument, NULL, O_OP},
        {"ddof", required_argument, NULL, O_DDOF},
        {"backend", required_argument, NULL, O_BACKEND},
        {"columns", required_argument, NULL, O_COLUMNS},
        {NULL, 0, NULL, 0},
    };
    sl_err err = {{0}};
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, SL_BENCH_SHORTOPTS, opts, NULL)) != -1) {
        int rc;
        if (sl_bench_opt(c, optarg, &o->arg, "", &rc)) {
            if (rc >= 0) return rc;
            continue;
        }
        switch (c) {
        case O_AXIS:
            if (strcmp(optarg, "-1") && strcmp(optarg, "1")) {
                sl_cli_msg("bench", "--axis %s: a generated [B, N] input is reduced along its last "
                           "axis (-1 or 1)", optarg);
                return 2;
            }
            break;
        case O_ROWS: o->blist = optarg; break;
        case O_PAIRS: o->pairs = 1; break;
        case O_VECTOR: o->vector = 1; break;
        case O_OP:
            if (sl_op_parse(optarg, &o->op, &err)) {
                sl_cli_msg("bench", "--op: %s", err.msg);
                return 2;
            }
            break;
        case O_DDOF:
            if (sl_cli_ddof("bench", optarg, &o->opp)) return 2;
            break;
        case O_BACKEND:
            if (!strcmp(optarg, "cpu")) o->on_gpu = 0;
            else if (!strcmp(optarg, "gpu")) o->on_gpu = 1;
            else {
                sl_cli_msg("bench", "unknown --backend '%s' (gpu or cpu)", optarg);
                return 2;
            }
            break;
        case O_COLUMNS: o->columns = optarg; break;
        case 'h': rows_usage(stdout); return 0;
        default: return sl_cli_bad_option("bench", c, argv, optind, optopt, opts);
        }
    }
    if (sl_bench_no_operand(argc, argv, optind) >= 0) return 2;
    if (sl_parse_u64_list(o->blist, o->bs, ROWS_MAX_SHAPES, &o->nb, &err)) {
        sl_cli_msg("bench", "--rows: %s", err.msg);
        return 2;
    }
    if (sl_bench_input(&o->arg, o->ns, ROWS_MAX_SHAPES, &o->nn, &o->ds, &o->p) >= 0)
        return 2;
    for (size_t i = 0; i < o->nb; i++)
        if (o->bs[i] == 0) {
            sl_cli_msg("bench", "--rows: 0 rows cannot be reduced");
            return 2;
        }
    if (o->vector && o->op->inputs != 2) {
        sl_cli_msg("bench", "--vector: one row of y with every row of x takes a two-input --op (dot), not %s",
                   o->op->name);
        return 2;
    }
    if (o->pairs && o->nb != o->nn) {
        sl_cli_msg("bench", "--pairs: --rows and --n must name as many values (%zu and %zu)", o->nb, o->nn);
        return 2;
    }
    return -1;
}

/* One shape: the input, every variant's rows, the rows judged. Returns 0, 1 (failure), 2
 * (a check failed) or 3 (the dataset refused its parameters: bad usage); *ran_bad set when a
 * variant could not run (said; its row left out). */
static int rows_shape(const rows_opts *o, uint64_t B, uint64_t N, const sl_variant *const *vs,
                      size_t nv, sl_table *t, unsigned threads, int *ran_bad)
{
    sl_err err = {{0}};
    const size_t es = sl_dtype_size(o->arg.dt);
    const uint64_t total = B * N;
    if ((N && total / N != B) || total > UINT64_MAX / 2u) {
        sl_cli_msg("bench", "%llu x %llu values overflow", (unsigned long long)B, (unsigned long long)N);
        return 1;
    }
    /* dot: x's rows, then y's (B rows, or one with --vector: y_stride 0) */
    const uint64_t ny = o->op->inputs == 2 ? (o->vector ? N : total) : 0u, all = total + ny;
    const uint64_t ys = o->vector ? 0u : N;
    if (o->on_gpu && sl_gpu_check_fits(all, o->arg.dt, &err)) {
        sl_cli_msg("bench", "%s%s", err.msg, ny ? " (dot: x and y)" : "");
        return 1;
    }
    char *x = malloc((size_t)all * es);
    const char *y = ny && x ? x + total * es : NULL;
    double *res = malloc((size_t)(B * nv) * sizeof(double));
    double *tms = malloc(nv * sizeof(double)), *rms = malloc(nv * sizeof(double));
    double *ul = malloc((size_t)(B * nv) * sizeof(double));
    int *ok = calloc(nv, sizeof(int)), *bad = calloc(nv, sizeof(int));
    sl_launch *cfgs = calloc(nv, sizeof(sl_launch));   /* each variant's request, as it ran */
    int rc = 0;
    if (!x || !res || !tms || !rms || !ul || !ok || !bad || !cfgs) {
        sl_cli_msg("bench", "out of memory for %llu x %llu values", (unsigned long long)B, (unsigned long long)N);
        rc = 1;
        goto out;
    }
    for (uint64_t s0 = 0; s0 < all && rc == 0; s0 += ROWS_CHUNK) {
        const uint64_t cnt = all - s0 < ROWS_CHUNK ? all - s0 : ROWS_CHUNK;
        if (sl_dataset_generate(o->ds, o->arg.dt, o->arg.seed, all, &o->p, s0, cnt, x + s0 * es, &err)) {
            sl_cli_msg("bench", "%s", err.msg);
            rc = 3;
        }
    }
    for (size_t k = 0; k < nv && rc == 0; k++) {
        const sl_variant *v = vs[k];
        sl_launch req;
        memset(&req, 0, sizeof req);
        req.ddof = o->opp.ddof;
        tms[k] = rms[k] = NAN;
        if (o->on_gpu) {
            if (sl_rows_gpu_host_xy(v, x, y, ys, B, N, o->arg.dt, &req, (int)o->arg.reps, res + k * B, &tms[k],
                                    &rms[k], &cfgs[k], &err)) {
                sl_cli_msg("bench", "%s: %s", v->name, err.msg);
                *ran_bad = 1;
                continue;
            }
        } else {
            cfgs[k] = req;
            const double t0 = now_s();
            if (sl_rows_cpu_xy(v, x, y, ys, B, N, o->arg.dt, &req, res + k * B, &err)) {
                sl_cli_msg("bench", "%s: %s", v->name, err.msg);
                *ran_bad = 1;
                continue;
            }
            tms[k] = (now_s() - t0) * 1e3;
        }
        ok[k] = 1;
    }
    /* the anchor row's time: CUB's segmented sum on the same rows (the sum's rows, GPU) */
    double cub_ms = NAN;
    if (o->on_gpu && rc == 0 && !strcmp(o->op->name, "sum")) {
        sl_err ce = {{0}};
        if (sl_rows_cub_sum_ms(x, B, N, o->arg.dt, (int)o->arg.reps, &cub_ms, &ce))
            sl_cli_msg("bench", "cub segmented reduce: %s", ce.msg);
        else
            fprintf(stderr, "sumlab bench: %llu x %llu: cub::DeviceSegmentedReduce::Sum %.4g ms\n",
                    (unsigned long long)B, (unsigned long long)N, cub_ms);
    }
    /* every row's reference once, every variant's row judged against it */
    for (uint64_t r = 0; r < B && rc == 0; r++) {
        sl_reference ref;
        const void *const in[2] = {x + r * N * es, y ? y + r * ys * es : NULL};
        if (o->op->reference(&ref, in, N, o->arg.dt, &o->opp, threads, &err)) {
            sl_cli_msg("bench", "reference of row %llu: %s", (unsigned long long)r, err.msg);
            sl_reference_clear(&ref);
            rc = 1;
            break;
        }
        for (size_t k = 0; k < nv; k++) {
            if (!ok[k]) continue;
            const double v = res[k * B + r];
            ul[k * B + r] = sl_reference_errors(&ref, v, o->arg.dt).ulps;
            sl_launch rc_cfg;   /* row r's configuration, as it ran */
            sl_rows_cfg(vs[k], &cfgs[k], r, N, o->arg.dt, &rc_cfg);
            const double b = sl_variant_bound(vs[k], &ref, N, o->arg.dt, &rc_cfg);
            if (sl_bound_violated(&ref, fabs(v - ref.rounded_f64), b)) bad[k]++;
        }
        sl_reference_clear(&ref);
    }
    for (size_t k = 0; k < nv && rc != 1; k++) {
        if (!ok[k]) continue;
        const sl_variant *v = vs[k];
        qsort(ul + k * B, (size_t)B, sizeof(double), sl_cmp_double);
        sl_row row;
        sl_row_empty(&row, o->on_gpu ? "gpu" : "cpu", o->arg.dt, N);
        row.variant = v;
        row.have_run = row.have_cfg = 1;
        sl_rows_cfg(v, &cfgs[k], 0, N, o->arg.dt, &row.cfg);   /* row 0's, for the columns */
        row.reps = row.reps_asked = o->on_gpu ? (int)o->arg.reps : 1;
        row.time_ms_median = tms[k];
        row.gbps = tms[k] > 0 ? (double)all * (double)es / (tms[k] * 1e6) : NAN;   /* dot: x and y once */
        sl_record_extra xr;
        sl_record_extra_init(&xr);
        xr.rows = B;
        xr.rows_ulps_median = B % 2 ? ul[k * B + B / 2] : 0.5 * (ul[k * B + B / 2 - 1] + ul[k * B + B / 2]);
        xr.rows_ulps_max = ul[k * B + B - 1];
        xr.read_ms_median = rms[k];
        xr.ratio_read = tms[k] > 0 ? rms[k] / tms[k] : NAN;
        xr.cub_ms_median = cub_ms;
        xr.ratio_cub = tms[k] > 0 ? cub_ms / tms[k] : NAN;
        xr.check = bad[k] ? "FAILED" : "ok";
        if (bad[k])
            sl_cli_msg("bench", "%s: %d of %llu rows outside the bound", v->name, bad[k], (unsigned long long)B);
        sl_rowctx ctx = {.experiment = "bench", .op = o->op, .ds = o->ds, .dt = o->arg.dt, .n = N,
                         .config = "rows"};
        sl_rowctx_params(&ctx, o->ds, &o->p);
        sl_record rec = {.ctx = &ctx, .variant = v->name, .family = v->family,
                         .det_class = sl_determinism_name(v->determinism), .status = "ok",
                         .row = &row, .seed = o->arg.seed, .instances = 1, .x = &xr};
        if (sl_colset_row(t, &o->cols, &rec, 0, &err)) {
            sl_cli_msg("bench", "%s", err.msg);
            rc = 1;
        }
        if (bad[k] && !rc) rc = 2;
    }
out:
    free(x);
    free(res);
    free(tms);
    free(rms);
    free(ul);
    free(ok);
    free(bad);
    free(cfgs);
    return rc;
}

int sl_cmd_bench_rows(int argc, char **argv)
{
    rows_opts o;
    memset(&o, 0, sizeof o);
    o.op = sl_op_default();
    o.opp = sl_op_params_default();
    o.blist = "4096,32768";
    sl_bench_args_init(&o.arg, "32768,4096");
    o.on_gpu = 1;
    int code = rows_getopt(argc, argv, &o);
    if (code < 0) code = sl_cli_ddof_check("bench", &o.opp, o.op);
    if (code >= 0) return code;
    sl_err err = {{0}};
    if (o.columns ? sl_colset_parse(&o.cols, o.columns, &err)   /* before the device is looked for */
                  : sl_colset_names(&o.cols, rows_columns, sizeof rows_columns / sizeof rows_columns[0], &err)) {
        sl_cli_msg("bench", "--columns: %s", err.msg);
        return 2;
    }
    if (o.on_gpu) {
        sl_gpu_info info;
        if (sl_gpu_available(&info, &err) != 1) {
            sl_cli_msg("bench", "needs a GPU: %s (--backend cpu runs the twins)", err.msg);
            return 1;
        }
    }
    const sl_variant *picked[ROWS_MAX_VARIANTS], *vs[ROWS_MAX_VARIANTS];
    size_t np = 0, nv = 0;
    if (sl_op_variants(o.op, o.arg.vlist ? o.arg.vlist : "all", picked, ROWS_MAX_VARIANTS, &np, &err)) {
        sl_cli_msg("bench", "--variants: %s", err.msg);
        return 2;
    }
    for (size_t i = 0; i < np; i++) {
        const sl_variant *v = picked[i];
        const int runs = o.on_gpu ? sl_variant_has_gpu(v) : sl_variant_has_cpu(v);
        if (!runs || !(v->dtypes & SL_DTYPE_MASK(o.arg.dt))) {
            if (o.arg.vlist) sl_cli_msg("bench", "skipping %s: %s", v->name,
                                    runs ? "does not take this format" : "cannot run on this backend");
            continue;
        }
        vs[nv++] = v;
    }
    if (!nv) {
        sl_cli_msg("bench", "no variant of %s runs on the %s backend with %s input", o.op->name,
                   o.on_gpu ? "gpu" : "cpu", sl_dtype_name(o.arg.dt));
        return 2;
    }
    unsigned threads = 1;
    if (sl_threads_choose(NULL, &threads, &err)) threads = 1;
    sl_provenance prov;
    if (sl_cli_argv) sl_provenance_collect(&prov, sl_cli_argc, sl_cli_argv);
    else sl_provenance_collect(&prov, argc, argv);
    sl_provenance_write_comments(&prov, stdout);
    printf("# dataset: %s\n# seed: %llu\n# shape: [rows, n] reduced along the last axis%s\n", o.ds->name,
           (unsigned long long)o.arg.seed,
           o.op->inputs != 2 ? ""
           : o.vector        ? " (dot: rows n + n values of the dataset, x's rows then one row y with every row)"
                             : " (dot: 2 rows n values of the dataset, x's rows then y's)");
    sl_table *t = sl_colset_table(&o.cols);
    if (!t) {
        sl_cli_msg("bench", "out of memory");
        return 1;
    }
    int rc = 0, failed = 0, ran_bad = 0;
    if (o.arg.fmt == SL_OUT_CSV && sl_table_write_csv_header(t, stdout)) rc = 1;
    for (size_t i = 0; i < o.nb && rc == 0; i++)
        for (size_t j = 0; j < o.nn && rc == 0; j++) {
            if (o.pairs && i != j) continue;
            int r = rows_shape(&o, o.bs[i], o.ns[j], vs, nv, t, threads, &ran_bad);
            if (r == 2) failed = 1;
            else rc = r == 3 ? 2 : r;   /* the dataset refused: exit 2, as the other benches */
            if (o.arg.fmt == SL_OUT_CSV) {
                if (sl_table_write_csv_rows(t, stdout) && !rc) rc = 1;
                sl_table_clear_rows(t);
            }
        }
    if (o.arg.fmt == SL_OUT_TABLE && sl_table_write(t, o.arg.fmt, stdout) && !rc) rc = 1;
    sl_table_free(t);
    return rc ? rc : failed || ran_bad;
}

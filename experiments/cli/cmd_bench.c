/* cmd_bench.c: `sumlab bench` (`--backend cpu`: bench_cpu.c): GPU throughput of each variant for each n, on one buffer per n,
 * against CUB's DeviceReduce::Sum and the streaming-read ceiling measured in the same process.
 * CSV rows stream out as each n finishes, after `# key: value` provenance lines. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_cli.h"
#include "sl_datasets.h"
#include "sl_format.h"
#include "sl_gpu.h"
#include "sl_measure.h"
#include "sl_verdict.h"
#include "sl_provenance.h"
#include "sl_reference.h"
#include "sl_results.h"
#include "sl_variants.h"

#define BENCH_MAX_N 64
#define BENCH_MAX_VARIANTS 64
#define BENCH_CHUNK ((uint64_t)1 << 20)

static void bench_usage(FILE *f)
{
    fputs("usage: sumlab bench [--backend gpu] [--op OP] [--variants LIST] [--n LIST] [--dtype f32|f64|f16|bf16] [--reps R]\n"
          "                    [--dataset NAME] [--param K=V ...] [--seed S] [--no-flush]\n"
          "                    [--timing device|call] [--block B] [--grid G] [--items I]\n"
          "                    [--format csv|table]\n\n"
          "       sumlab bench --backend cpu ...   (the exact CPU reference: see its --help)\n\n"
          "GPU (the default backend). For each n: generates the input, uploads it once, then for each variant one\n"
          "warm-up run and R timed runs (device events; L2 flushed before each run unless\n"
          "--no-flush), each run paired with a run of CUB's DeviceReduce::Sum on the same\n"
          "buffer: ratio_cub = CUB median time / variant median time over those pairs. A\n"
          "streaming-read kernel is timed once per n: ratio_read = read time / variant time\n"
          "(1.0 = as fast as reading the input once).\n\n"
          "options:\n"
          "  --op OP        the operation timed (default sum; 'sumlab list ops')\n"
          "  --ddof N       var/std: divide by n - N (default 1)\n"
          "  --variants L   comma-separated names of its variants or 'all' (default: every one\n"
          "                 with a kernel)\n"
          "  --n L          sizes, e.g. 2^20,2^24,2^28 (the default)\n"
          "  --dtype D      f32 (default), f64, f16 or bf16\n"
          "  --reps R       timed runs per variant (default 10)\n"
          "  --dataset N    input dataset (default: uniform); --param K=V sets its parameters\n"
          "  --seed S       dataset seed (default 0)\n"
          "  --no-flush     keep L2 warm between runs\n"
          "  --timing T     device (default): launches are queued behind a spin kernel, the time\n"
          "                 is the device's execution; call: the device is idle at the start\n"
          "                 event, the time includes enqueuing each kernel (one isolated call)\n"
          "  --block B, --grid G, --items I\n"
          "                 launch request for every variant but cub (default: each variant's\n"
          "                 own); the resolved values are in the block/grid/items columns\n"
          "  --axis -1      row-wise: [B, N] inputs reduced along the last axis (see\n"
          "                 'sumlab bench --axis -1 --help')\n"
          "  --format F     csv (default) or table\n"
          "  --columns L    only these columns, in this order (any of the one column table:\n"
          "                 docs/cli.md)\n"
          "  -h, --help     this text\n\n"
          "columns (default): variant dtype n reps time_ms_median time_ms_min time_ms_max gbps\n"
          "  ratio_cub ratio_read distinct result_hex block grid items cub_ms_median\n"
          "  read_ms_median abs_err_max bound_abs check dataset\n"
          "Every result is also checked against the exact sum: a result outside its variant's\n"
          "a-priori bound (or a deterministic variant giving several results) fails the command,\n"
          "and its row's check column says FAILED (ok otherwise).\n", f);
}

static const char *const bench_columns[] = {
    "variant", "dtype", "n", "reps", "time_ms_median", "time_ms_min", "time_ms_max", "gbps",
    "ratio_cub", "ratio_read", "distinct", "result_hex", "block", "grid", "items",
    "cub_ms_median", "read_ms_median", "abs_err_max", "bound_abs", "check",
    "dataset",   /* last, so that the columns before it keep their positions */
};
#define BENCH_NCOLS (sizeof bench_columns / sizeof bench_columns[0])

/* One warm-up run of v and of cub, then reps pairs (a timed cub run, a timed v run): fills
 * v's results/times, cub's times and v's resolved cfg (from the request req). Pairing keeps
 * clock and thermal drift out of the ratio. */
static int timed(sl_gpu_ctx *ctx, const sl_variant *v, const sl_variant *cub,
                 const sl_launch *req, int reps, int flags, sl_launch *cfg, double *results,
                 double *times, double *cub_times, sl_err *err)
{
    sl_launch warm = *req, ccfg;
    double w;
    if (sl_gpu_ctx_run(ctx, v, &warm, 1, flags, &w, NULL, err)) return -1;
    memset(&ccfg, 0, sizeof ccfg);
    if (sl_gpu_ctx_run(ctx, cub, &ccfg, 1, flags, &w, NULL, err)) return -1;
    for (int r = 0; r < reps; r++) {
        memset(&ccfg, 0, sizeof ccfg);
        if (sl_gpu_ctx_run(ctx, cub, &ccfg, 1, flags, &w, cub_times + r, err)) return -1;
        *cfg = *req;
        if (sl_gpu_ctx_run(ctx, v, cfg, 1, flags, results + r, times + r, err)) return -1;
    }
    return 0;
}

/* The options of one bench, checked. */
typedef struct {
    sl_bench_args arg;         /* the options every bench takes */
    const sl_operation *op;    /* --op (default: the sum) */
    sl_colset cols;            /* the columns printed (--columns) */
    const char *columns;
    int flush, call_time;
    sl_launch req;
    uint64_t ns[BENCH_MAX_N];
    size_t nn;
    const sl_dataset *ds;
    sl_params p;
    sl_op_params opp;          /* --ddof */
} bench_opts;

/* The option loop. Returns -1 to go on, else the exit code (0 after --help). */
static int bench_getopt(int argc, char **argv, bench_opts *o)
{
    enum { O_NOFLUSH = 256, O_TIMING, O_ITEMS, O_BACKEND, O_OP, O_COLUMNS, O_DDOF };
    static const struct option opts[] = {
        SL_BENCH_LONGOPTS,
        {"columns", required_argument, NULL, O_COLUMNS},
        {"op", required_argument, NULL, O_OP},
        {"ddof", required_argument, NULL, O_DDOF},
        {"backend", required_argument, NULL, O_BACKEND},
        {"no-flush", no_argument, NULL, O_NOFLUSH},
        {"timing", required_argument, NULL, O_TIMING},
        {"block", required_argument, NULL, 'B'},
        {"grid", required_argument, NULL, 'G'},
        {"items", required_argument, NULL, O_ITEMS},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, SL_BENCH_SHORTOPTS "B:G:", opts, NULL)) != -1) {
        int rc;
        if (sl_bench_opt(c, optarg, &o->arg, "", &rc)) {
            if (rc >= 0) return rc;
            continue;
        }
        switch (c) {
        case O_COLUMNS: o->columns = optarg; break;
        case O_DDOF:
            if (sl_cli_ddof("bench", optarg, &o->opp)) return 2;
            break;
        case O_OP:
            {
                sl_err err = {{0}};
                if (sl_op_parse(optarg, &o->op, &err)) {
                    sl_cli_msg("bench", "--op: %s", err.msg);
                    return 2;
                }
            }
            break;
        case O_BACKEND: break; /* gpu: sl_cmd_bench checked it */
        case O_NOFLUSH: o->flush = 0; break;
        case O_TIMING:
            if (!strcmp(optarg, "device")) o->call_time = 0;
            else if (!strcmp(optarg, "call")) o->call_time = 1;
            else {
                sl_cli_msg("bench", "unknown --timing '%s' (device or call)", optarg);
                return 2;
            }
            break;
        case 'B':
            if (sl_cli_launch_opt("bench", "--block", optarg, &o->req.block)) return 2;
            break;
        case 'G':
            if (sl_cli_launch_opt("bench", "--grid", optarg, &o->req.grid)) return 2;
            break;
        case O_ITEMS:
            if (sl_cli_launch_opt("bench", "--items", optarg, &o->req.items)) return 2;
            break;
        case 'h': bench_usage(stdout); return 0;
        default: return sl_cli_bad_option("bench", c, argv, optind, optopt, opts);
        }
    }
    if (sl_bench_no_operand(argc, argv, optind) >= 0) return 2;
    return -1;
}

/* The sizes, the dataset and its parameters. Returns -1 to go on, else the exit code. */
static int bench_check(bench_opts *o)
{
    return sl_bench_input(&o->arg, o->ns, BENCH_MAX_N, &o->nn, &o->ds, &o->p);
}

/* The variants to time, in registry order: the picked ones (or all) with a GPU kernel that
 * take dt. Returns -1 to go on, else the exit code. */
static int bench_variants(const bench_opts *o, const sl_variant **order, size_t *nv)
{
    sl_err err = {{0}};
    const sl_variant *picked[BENCH_MAX_VARIANTS];
    size_t np = 0;
    if (o->arg.vlist && sl_op_variants(o->op, o->arg.vlist, picked, BENCH_MAX_VARIANTS, &np, &err)) {
        sl_cli_msg("bench", "--variants: %s", err.msg);
        return 2;
    }
    *nv = 0;
    for (size_t i = 0; i < sl_variant_count() && *nv < BENCH_MAX_VARIANTS; i++) {
        const sl_variant *v = sl_variant_at(i);
        if (sl_op_of(v) != o->op) continue;
        int want = !o->arg.vlist;
        for (size_t j = 0; j < np && !want; j++) want = picked[j] == v;
        if (!want) continue;
        if (!sl_variant_has_gpu(v)) {
            if (o->arg.vlist) sl_cli_msg("bench", "skipping %s: no GPU kernel", v->name);
            continue;
        }
        if (!(v->dtypes & SL_DTYPE_MASK(o->arg.dt))) {   /* said only when named in --variants */
            if (o->arg.vlist) sl_cli_msg("bench", "skipping %s: does not take %s input", v->name, sl_dtype_name(o->arg.dt));
            continue;
        }
        order[(*nv)++] = v;
    }
    return -1;
}

/* The `# key: value` lines before the CSV. */
static void bench_preamble(const bench_opts *o, int argc, char **argv)
{
    sl_provenance prov;
    if (sl_cli_argv) sl_provenance_collect(&prov, sl_cli_argc, sl_cli_argv);
    else sl_provenance_collect(&prov, argc, argv);
    sl_provenance_write_comments(&prov, stdout);
    printf("# dataset: %s\n# seed: %llu\n# l2_flush: %s\n# timing: %s\n", o->ds->name,
           (unsigned long long)o->arg.seed,
           o->flush ? "yes (a read of 2 x L2 bytes before each run)" : "no",
           o->call_time ? "call (device idle at the start event: enqueue cost included)"
                        : "device (launches queued behind a spin kernel)");
    if (o->req.block || o->req.grid || o->req.items)
        printf("# launch_request: block=%u grid=%u items=%u (0: the variant's default)\n",
               o->req.block, o->req.grid, o->req.items);
}

/* Scratch of R values each, and what every variant of one n shares. */
typedef struct {
    double *res, *tim, *ctim;
    const sl_variant *cub;
    int flags;
    uint64_t n;
    sl_gpu_ctx *ctx;
    const sl_reference *ref;
    double read_med;
} bench_state;

/* One variant at one n: timed against CUB, judged, one table row. Returns 0, 1 (a failed
 * run: rc 1) or 2 (a self-check failed: reported, the bench goes on). */
static int bench_variant(const bench_opts *o, bench_state *b, const sl_variant *v, sl_table *t)
{
    sl_err err = {{0}};
    const uint64_t n = b->n;
    const long reps = o->arg.reps;
    const sl_dtype dt = o->arg.dt;
    const size_t esz = sl_dtype_size(dt);
    int selfcheck = 0;
    sl_launch cfg, vreq = o->req;
    vreq.ddof = o->opp.ddof;
    if (v == b->cub) memset(&vreq, 0, sizeof vreq);
    if (timed(b->ctx, v, b->cub, &vreq, (int)reps, b->flags, &cfg, b->res, b->tim, b->ctim, &err)) {
        sl_cli_msg("bench", "%s failed: %s", v->name, err.msg);
        return 1;
    }
    double med, mn, mx, cub_med;
    sl_stats(b->ctim, (size_t)reps, &cub_med, &mn, &mx);
    sl_stats(b->tim, (size_t)reps, &med, &mn, &mx);
    /* the self-checks (sl_verdict.h) over every GPU run: spread, bound, correct rounding */
    sl_verdict_facts facts;
    sl_verdict vd;
    sl_verdict_facts_of_results(b->ref, v, n, dt, &cfg, b->res, (int)reps, 1, &facts);
    char where[48];
    snprintf(where, sizeof where, "n = %llu", (unsigned long long)n);
    facts.where = where;
    for (int k = 0; k < sl_verdict_decide(b->ref, &facts, &vd); k++) sl_cli_msg("bench", "%s", vd.msg[k]);
    selfcheck = vd.failed > 0;
    const uint64_t d = facts.distinct;
    const double worst = facts.worst_abs_err, bound = facts.bound;
    /* the row in the one column table's terms */
    sl_row row;
    sl_row_empty(&row, "gpu", dt, n);
    row.variant = v;
    row.have_run = row.have_cfg = row.judged = 1;
    row.cfg = cfg;
    row.reps = row.reps_asked = (int)reps;
    row.result = b->res[0];
    row.distinct = d;
    row.bound = bound;
    row.time_ms_median = med;
    row.time_ms_min = mn;
    row.time_ms_max = mx;
    row.gbps = med > 0 ? (double)n * (double)esz * (o->op->inputs == 2 ? 2.0 : 1.0) / (med * 1e6) : NAN;   /* dot: both arrays */
    sl_record_extra x;
    sl_record_extra_init(&x);
    x.ratio_cub = med > 0 ? cub_med / med : NAN;
    x.ratio_read = med > 0 ? b->read_med / med : NAN;
    x.cub_ms_median = cub_med;
    x.read_ms_median = b->read_med;
    x.abs_err_max = worst;
    x.check = selfcheck ? "FAILED" : "ok";   /* the row says what stderr says */
    sl_rowctx ctx = {.experiment = "bench", .op = o->op, .ds = o->ds, .dt = dt, .n = n, .config = "default"};
    sl_rowctx_params(&ctx, o->ds, &o->p);
    sl_record r = {.ctx = &ctx, .variant = v->name, .family = v->family,
                   .det_class = sl_determinism_name(v->determinism), .status = "ok", .row = &row,
                   .seed = o->arg.seed, .instances = 1, .ref = b->ref, .x = &x};
    if (sl_colset_row(t, &o->cols, &r, 0, &err)) {
        sl_cli_msg("bench", "%s", err.msg);
        return 1;
    }
    return selfcheck ? 2 : 0;
}

/* One n: the input generated and uploaded once, its reference, the read ceiling, then every
 * variant. Returns the exit code so far (0, 1, 2); *selfcheck set when a check failed. */
static int bench_n(const bench_opts *o, bench_state *b, const sl_variant *const *order, size_t nv,
                   sl_table *t, int *selfcheck)
{
    sl_err err = {{0}};
    const uint64_t n = b->n;
    const size_t esz = sl_dtype_size(o->arg.dt);
    int rc = 0;
    /* a request beyond the device's memory: one line naming the size, before any host memory
     * is taken (a lazily committed host buffer of that size could take the machine down) */
    const uint64_t nin = (uint64_t)(o->op->inputs == 2 ? 2 : 1);   /* dot: x then y, 2n values */
    if (sl_gpu_check_fits(n * nin, o->arg.dt, &err)) {
        sl_cli_msg("bench", "%s%s", err.msg, nin == 2 ? " (dot: x and y, 2n values)" : "");
        return 1;
    }
    void *x = malloc((size_t)(n * nin) * esz);
    if (!x) {
        sl_cli_msg("bench", "out of host memory for %llu %s values (%.2f GiB)", (unsigned long long)(n * nin),
                   sl_dtype_name(o->arg.dt), (double)(n * nin) * (double)esz / 1073741824.0);
        return 1;
    }
    for (uint64_t s0 = 0; s0 < n * nin && rc == 0; s0 += BENCH_CHUNK) {
        uint64_t cnt = n * nin - s0 < BENCH_CHUNK ? n * nin - s0 : BENCH_CHUNK;
        if (sl_dataset_generate(o->ds, o->arg.dt, o->arg.seed, n * nin, &o->p, s0, cnt, (char *)x + s0 * esz, &err)) {
            sl_cli_msg("bench", "%s", err.msg);
            rc = 2;
        }
    }
    sl_reference ref;
    int have_ref = 0;
    if (rc == 0) {
        const void *const in[2] = {x, nin == 2 ? (char *)x + n * esz : NULL};
        if (o->op->reference(&ref, in, n, o->arg.dt, &o->opp, 1, &err)) {
            sl_cli_msg("bench", "reference: %s", err.msg);
            rc = 1;
        }
        have_ref = 1;
    }
    b->ctx = NULL;
    b->ref = &ref;
    if (rc == 0 && (sl_gpu_ctx_create(&b->ctx, x, n, o->arg.dt, 0, &err) ||
                    (nin == 2 && sl_gpu_ctx_set_y(b->ctx, (char *)x + n * esz, &err)))) {
        sl_cli_msg("bench", "%s", err.msg);
        rc = 1;
    }
    b->read_med = NAN;
    if (rc == 0) {
        double w, mn, mx;
        if (sl_gpu_ctx_read_ceiling(b->ctx, 1, b->flags, &w, &err) ||
            sl_gpu_ctx_read_ceiling(b->ctx, (int)o->arg.reps, b->flags, b->tim, &err)) {
            sl_cli_msg("bench", "read ceiling: %s", err.msg);
            rc = 1;
        } else {
            sl_stats(b->tim, (size_t)o->arg.reps, &b->read_med, &mn, &mx);
        }
    }
    if (rc == 0)
        fprintf(stderr, "sumlab bench: n = %llu: read ceiling %.4g ms\n", (unsigned long long)n, b->read_med);
    for (size_t i = 0; i < nv && rc == 0; i++) {
        const sl_variant *v = order[i];
        if (v->max_n && n > v->max_n) {
            sl_cli_msg("bench", "skipping %s at n = %llu: accepts at most n = %llu", v->name,
                       (unsigned long long)n, (unsigned long long)v->max_n);
            continue;
        }
        int r = bench_variant(o, b, v, t);
        if (r == 1) rc = 1;
        if (r == 2) *selfcheck = 1;
    }
    if (b->ctx) sl_gpu_ctx_destroy(b->ctx);
    if (have_ref) sl_reference_clear(&ref);
    free(x);
    return rc;
}

int sl_cmd_bench(int argc, char **argv)
{
    const char *backend = NULL; /* --backend cpu: bench_cpu.c; gpu (the default): below */
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        /* as getopt_long reads it: --backend or an unambiguous prefix of it (--ba on) */
        const size_t len = strncmp(argv[i], "--", 2) ? 0 : strcspn(argv[i] + 2, "=");
        if (len < 2 || len > 7 || strncmp(argv[i] + 2, "backend", len)) continue;
        if (argv[i][2 + len] == '=') backend = argv[i] + 3 + len;
        else if (i + 1 < argc) backend = argv[++i];
    }
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)   /* rows: bench_rows.c */
        if (!strcmp(argv[i], "--axis") || !strncmp(argv[i], "--axis=", 7)) return sl_cmd_bench_rows(argc, argv);
    if (backend && !strcmp(backend, "cpu")) return sl_cmd_bench_cpu(argc, argv);
    if (backend && strcmp(backend, "gpu")) {
        sl_cli_msg("bench", "unknown --backend '%s' (gpu or cpu)", backend);
        return 2;
    }
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.op = sl_op_default();
    o.opp = sl_op_params_default();
    o.flush = 1;
    sl_bench_args_init(&o.arg, "2^20,2^24,2^28");
    int code = bench_getopt(argc, argv, &o);
    if (code < 0) code = sl_cli_ddof_check("bench", &o.opp, o.op);
    if (code < 0) code = bench_check(&o);
    const sl_variant *order[BENCH_MAX_VARIANTS];
    size_t nv = 0;
    if (code < 0) code = bench_variants(&o, order, &nv);
    if (code >= 0) return code;
    sl_err cerr = {{0}};   /* with the other options: before the device and the provenance lines */
    if (o.columns ? sl_colset_parse(&o.cols, o.columns, &cerr)
                  : sl_colset_names(&o.cols, bench_columns, BENCH_NCOLS, &cerr)) {
        sl_cli_msg("bench", "--columns: %s", cerr.msg);
        return 2;
    }

    sl_gpu_info info;
    sl_err why = {{0}};
    if (sl_gpu_available(&info, &why) != 1) {
        sl_cli_msg("bench", "needs a GPU: %s", why.msg[0] ? why.msg : "none found");
        return 1;
    }
    if (nv == 0) {   /* each named variant skipped above (no GPU kernel, or not of this dtype) */
        sl_cli_msg("bench", "no variant to time: none of --variants has a GPU kernel that takes %s input",
                   sl_dtype_name(o.arg.dt));
        return 2;
    }
    bench_state b;
    memset(&b, 0, sizeof b);
    b.cub = sl_variant_find("cub");
    if (!b.cub || !b.cub->gpu) {
        sl_cli_msg("bench", "the cub variant is missing from this build");
        return 1;
    }
    bench_preamble(&o, argc, argv);
    b.flags = (o.flush ? SL_GPU_FLUSH_L2 : 0) | (o.call_time ? SL_GPU_CALL_TIME : 0);
    sl_table *t = sl_colset_table(&o.cols);
    b.res = malloc((size_t)o.arg.reps * sizeof *b.res);
    b.tim = malloc((size_t)o.arg.reps * sizeof *b.tim);
    b.ctim = malloc((size_t)o.arg.reps * sizeof *b.ctim);
    int rc = 0, selfcheck = 0;
    if (!t || !b.res || !b.tim || !b.ctim) {
        sl_cli_msg("bench", "out of memory");
        sl_table_free(t);
        free(b.res);
        free(b.tim);
        free(b.ctim);
        return 1;
    }
    if (o.arg.fmt == SL_OUT_CSV && sl_table_write_csv_header(t, stdout)) rc = 1;
    for (size_t k = 0; k < o.nn && rc == 0; k++) {
        b.n = o.ns[k];
        rc = bench_n(&o, &b, order, nv, t, &selfcheck);
        if (o.arg.fmt == SL_OUT_CSV) {
            if (sl_table_write_csv_rows(t, stdout) && !rc) rc = 1;
            sl_table_clear_rows(t);
        }
    }
    if (o.arg.fmt == SL_OUT_TABLE && sl_table_write(t, o.arg.fmt, stdout) && !rc) rc = 1;
    sl_table_free(t);
    free(b.res);
    free(b.tim);
    free(b.ctim);
    return rc ? rc : selfcheck;
}

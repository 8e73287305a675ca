/* cmd_bench.c: `sumlab bench`: GPU throughput of each variant for each n, on one buffer per n,
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
#include "sl_provenance.h"
#include "sl_reference.h"
#include "sl_variants.h"

#define BENCH_MAX_N 64
#define BENCH_MAX_VARIANTS 64
#define BENCH_CHUNK ((uint64_t)1 << 20)

static void bench_usage(FILE *f)
{
    fputs("usage: sumlab bench [--variants LIST] [--n LIST] [--dtype f32|f64] [--reps R]\n"
          "                    [--dataset NAME] [--param K=V ...] [--seed S] [--no-flush]\n"
          "                    [--timing device|call] [--block B] [--grid G] [--items I]\n"
          "                    [--format csv|table]\n\n"
          "GPU only. For each n: generates the input, uploads it once, then for each variant one\n"
          "warm-up run and R timed runs (device events; L2 flushed before each run unless\n"
          "--no-flush), each run paired with a run of CUB's DeviceReduce::Sum on the same\n"
          "buffer: ratio_cub = CUB median time / variant median time over those pairs. A\n"
          "streaming-read kernel is timed once per n: ratio_read = read time / variant time\n"
          "(1.0 = as fast as reading the input once).\n\n"
          "options:\n"
          "  --variants L   comma-separated names or 'all' (default: every variant with a kernel)\n"
          "  --n L          sizes, e.g. 2^20,2^24,2^28 (the default)\n"
          "  --dtype D      f32 (default) or f64\n"
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
          "  --format F     csv (default) or table\n"
          "  -h, --help     this text\n\n"
          "columns: variant dtype n reps time_ms_median time_ms_min time_ms_max gbps ratio_cub\n"
          "  ratio_read distinct result_hex block grid items cub_ms_median read_ms_median abs_err bound\n"
          "Every result is also checked against the exact sum: a result outside its variant's\n"
          "a-priori bound (or a deterministic variant giving several results) fails the command.\n", f);
}

static const char *const bench_columns[] = {
    "variant", "dtype", "n", "reps", "time_ms_median", "time_ms_min", "time_ms_max", "gbps",
    "ratio_cub", "ratio_read", "distinct", "result_hex", "block", "grid", "items",
    "cub_ms_median", "read_ms_median", "abs_err", "bound",
};
#define BENCH_NCOLS ((int)(sizeof bench_columns / sizeof bench_columns[0]))

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

int sl_cmd_bench(int argc, char **argv)
{
    enum { O_NOFLUSH = 256, O_TIMING, O_ITEMS };
    static const struct option opts[] = {
        {"variants", required_argument, NULL, 'v'},
        {"n", required_argument, NULL, 'n'},
        {"dtype", required_argument, NULL, 'd'},
        {"reps", required_argument, NULL, 'r'},
        {"dataset", required_argument, NULL, 'D'},
        {"param", required_argument, NULL, 'p'},
        {"seed", required_argument, NULL, 's'},
        {"no-flush", no_argument, NULL, O_NOFLUSH},
        {"timing", required_argument, NULL, O_TIMING},
        {"block", required_argument, NULL, 'B'},
        {"grid", required_argument, NULL, 'G'},
        {"items", required_argument, NULL, O_ITEMS},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *vlist = NULL, *nlist = "2^20,2^24,2^28", *dsname = "uniform";
    const char *params[64];
    int nparams = 0, flush = 1, call_time = 0;
    sl_launch req;
    memset(&req, 0, sizeof req);
    long reps = 10;
    uint64_t seed = 0;
    sl_dtype dt = SL_F32;
    sl_out_format fmt = SL_OUT_CSV;
    sl_err err = {{0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":v:n:d:r:D:p:s:f:B:G:h", opts, NULL)) != -1) {
        switch (c) {
        case 'v': vlist = optarg; break;
        case 'n': nlist = optarg; break;
        case 'd':
            if (sl_dtype_parse(optarg, &dt)) {
                sl_cli_msg("bench", "unsupported --dtype '%s' (f32 or f64)", optarg);
                return 2;
            }
            break;
        case 'r':
            if (sl_parse_int(optarg, 1, 100000, &reps, &err)) {
                sl_cli_msg("bench", "--reps: %s (at least 1)", err.msg);
                return 2;
            }
            break;
        case 'D': dsname = optarg; break;
        case 'p':
            if (nparams == (int)(sizeof params / sizeof params[0])) {
                sl_cli_msg("bench", "too many --param options");
                return 2;
            }
            params[nparams++] = optarg;
            break;
        case 's':
            if (sl_parse_u64(optarg, &seed, &err)) {
                sl_cli_msg("bench", "--seed: %s", err.msg);
                return 2;
            }
            break;
        case O_NOFLUSH: flush = 0; break;
        case O_TIMING:
            if (!strcmp(optarg, "device")) call_time = 0;
            else if (!strcmp(optarg, "call")) call_time = 1;
            else {
                sl_cli_msg("bench", "unknown --timing '%s' (device or call)", optarg);
                return 2;
            }
            break;
        case 'B':
            if (sl_cli_launch_opt("bench", "--block", optarg, &req.block)) return 2;
            break;
        case 'G':
            if (sl_cli_launch_opt("bench", "--grid", optarg, &req.grid)) return 2;
            break;
        case O_ITEMS:
            if (sl_cli_launch_opt("bench", "--items", optarg, &req.items)) return 2;
            break;
        case 'f':
            if (sl_out_format_parse(optarg, &fmt) || fmt == SL_OUT_JSON) {
                sl_cli_msg("bench", "unknown --format '%s' (csv or table)", optarg);
                return 2;
            }
            break;
        case 'h': bench_usage(stdout); return 0;
        default: return sl_cli_bad_option("bench", c, argv, optind, optopt);
        }
    }
    if (optind < argc) {
        sl_cli_msg("bench", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    uint64_t ns[BENCH_MAX_N];
    size_t nn = 0;
    if (sl_parse_u64_list(nlist, ns, BENCH_MAX_N, &nn, &err)) {
        sl_cli_msg("bench", "--n: %s", err.msg);
        return 2;
    }
    for (size_t i = 0; i < nn; i++)
        if (ns[i] == 0 || ns[i] >= ((uint64_t)1 << 34)) {
            sl_cli_msg("bench", "--n: %llu is out of range [1, 2^34)", (unsigned long long)ns[i]);
            return 2;
        }
    const sl_dataset *ds = sl_dataset_find(dsname);
    if (!ds) {
        sl_cli_msg("bench", "unknown dataset '%s' (see 'sumlab list datasets')", dsname);
        return 2;
    }
    sl_params p;
    sl_params_defaults(ds, &p);
    for (int i = 0; i < nparams; i++)
        if (sl_params_set(ds, &p, params[i], &err)) {
            sl_cli_msg("bench", "--param %s: %s", params[i], err.msg);
            return 2;
        }
    const sl_variant *picked[BENCH_MAX_VARIANTS];
    size_t np = 0;
    if (vlist) {
        if (sl_variant_parse_list(vlist, picked, BENCH_MAX_VARIANTS, &np, &err)) {
            sl_cli_msg("bench", "--variants: %s", err.msg);
            return 2;
        }
    }
    const sl_variant *cub = sl_variant_find("cub");
    const sl_variant *order[BENCH_MAX_VARIANTS];
    size_t nv = 0;
    for (size_t i = 0; i < sl_variant_count() && nv < BENCH_MAX_VARIANTS; i++) {
        const sl_variant *v = sl_variant_at(i);
        int want = !vlist;
        for (size_t j = 0; j < np && !want; j++) want = picked[j] == v;
        if (!want) continue;
        if (!v->gpu) {
            if (vlist) sl_cli_msg("bench", "skipping %s: no GPU kernel", v->name);
            continue;
        }
        if (!(v->dtypes & SL_DTYPE_MASK(dt))) {
            sl_cli_msg("bench", "skipping %s: does not take %s input", v->name, sl_dtype_name(dt));
            continue;
        }
        order[nv++] = v;
    }

    sl_gpu_info info;
    sl_err why = {{0}};
    if (sl_gpu_available(&info, &why) != 1) {
        sl_cli_msg("bench", "needs a GPU: %s", why.msg[0] ? why.msg : "none found");
        return 1;
    }
    if (!cub || !cub->gpu) {
        sl_cli_msg("bench", "the cub variant is missing from this build");
        return 1;
    }

    sl_provenance prov;
    if (sl_cli_argv) sl_provenance_collect(&prov, sl_cli_argc, sl_cli_argv);
    else sl_provenance_collect(&prov, argc, argv);
    sl_provenance_write_comments(&prov, stdout);
    const int flags = (flush ? SL_GPU_FLUSH_L2 : 0) | (call_time ? SL_GPU_CALL_TIME : 0);
    printf("# dataset: %s\n# seed: %llu\n# l2_flush: %s\n# timing: %s\n", ds->name,
           (unsigned long long)seed,
           flush ? "yes (a read of 2 x L2 bytes before each run)" : "no",
           call_time ? "call (device idle at the start event: enqueue cost included)"
                     : "device (launches queued behind a spin kernel)");
    if (req.block || req.grid || req.items)
        printf("# launch_request: block=%u grid=%u items=%u (0: the variant's default)\n",
               req.block, req.grid, req.items);

    sl_table *t = sl_table_new(BENCH_NCOLS, bench_columns);
    double *res = malloc((size_t)reps * sizeof *res);
    double *tim = malloc((size_t)reps * sizeof *tim);
    double *ctim = malloc((size_t)reps * sizeof *ctim);
    if (!t || !res || !tim || !ctim) {
        sl_cli_msg("bench", "out of memory");
        sl_table_free(t);
        free(res);
        free(tim);
        free(ctim);
        return 1;
    }
    if (fmt == SL_OUT_CSV) sl_table_write_csv_header(t, stdout);

    int rc = 0, selfcheck = 0;
    size_t esz = sl_dtype_size(dt);
    for (size_t k = 0; k < nn && rc == 0; k++) {
        uint64_t n = ns[k];
        void *x = malloc((size_t)n * esz);
        if (!x) {
            sl_cli_msg("bench", "out of memory for n = %llu", (unsigned long long)n);
            rc = 1;
            break;
        }
        for (uint64_t s0 = 0; s0 < n && rc == 0; s0 += BENCH_CHUNK) {
            uint64_t cnt = n - s0 < BENCH_CHUNK ? n - s0 : BENCH_CHUNK;
            if (sl_dataset_generate(ds, dt, seed, n, &p, s0, cnt, (char *)x + s0 * esz, &err)) {
                sl_cli_msg("bench", "%s", err.msg);
                rc = 2;
            }
        }
        sl_reference ref;
        int have_ref = 0;
        if (rc == 0) {
            if (sl_reference_compute(&ref, x, n, dt, &err)) {
                sl_cli_msg("bench", "reference: %s", err.msg);
                rc = 1;
            }
            have_ref = 1;
        }
        sl_gpu_ctx *ctx = NULL;
        if (rc == 0 && sl_gpu_ctx_create(&ctx, x, n, dt, 0, &err)) {
            sl_cli_msg("bench", "%s", err.msg);
            rc = 1;
        }
        double read_med = NAN, cub_med = NAN, mn, mx;
        sl_launch cfg;
        if (rc == 0) {
            double w;
            if (sl_gpu_ctx_read_ceiling(ctx, 1, flags, &w, &err) ||
                sl_gpu_ctx_read_ceiling(ctx, (int)reps, flags, tim, &err)) {
                sl_cli_msg("bench", "read ceiling: %s", err.msg);
                rc = 1;
            } else {
                sl_stats(tim, (size_t)reps, &read_med, &mn, &mx);
            }
        }
        if (rc == 0)
            fprintf(stderr, "sumlab bench: n = %llu: read ceiling %.4g ms\n",
                    (unsigned long long)n, read_med);
        for (size_t i = 0; i < nv && rc == 0; i++) {
            const sl_variant *v = order[i];
            if (v->max_n && n > v->max_n) {
                sl_cli_msg("bench", "skipping %s at n = %llu: accepts at most n = %llu", v->name,
                           (unsigned long long)n, (unsigned long long)v->max_n);
                continue;
            }
            sl_launch vreq = req;
            if (v == cub) memset(&vreq, 0, sizeof vreq);
            if (timed(ctx, v, cub, &vreq, (int)reps, flags, &cfg, res, tim, ctim, &err)) {
                sl_cli_msg("bench", "%s failed: %s", v->name, err.msg);
                rc = 1;
                break;
            }
            double med;
            sl_stats(ctim, (size_t)reps, &cub_med, &mn, &mx);
            sl_stats(tim, (size_t)reps, &med, &mn, &mx);
            sl_judgement jd;
            sl_judge_results(&ref, v, n, dt, &cfg, res, (int)reps, &jd);
            const uint64_t d = jd.distinct;
            if (d > 1 && v->determinism != SL_DET_NONDETERMINISTIC) {
                sl_cli_msg("bench", "SELF-CHECK FAILED: %s is %s but gave %llu distinct results",
                           v->name, sl_determinism_name(v->determinism), (unsigned long long)d);
                selfcheck = 1;
            }
            /* judged: every run's result within the variant's a-priori bound */
            const double worst = jd.worst_abs_err, bound = jd.bound;
            if (ref.finite && !(worst <= bound) && !isnan(bound)) {
                char h[SL_FMT_LEN];
                sl_cli_msg("bench", "SELF-CHECK FAILED: %s at n = %llu: result %s has error %g above "
                           "its bound %g", v->name, (unsigned long long)n,
                           sl_fmt_hex(h, sizeof h, res[0]), worst, bound);
                selfcheck = 1;
            }
            char hex[SL_FMT_LEN];
            sl_table_row(t);
            sl_table_str(t, v->name);
            sl_table_str(t, sl_dtype_name(dt));
            sl_table_u64(t, n);
            sl_table_i64(t, reps);
            sl_table_num(t, med, 6);
            sl_table_num(t, mn, 6);
            sl_table_num(t, mx, 6);
            sl_table_num(t, med > 0 ? (double)n * (double)esz / (med * 1e6) : NAN, 6);
            sl_table_num(t, med > 0 ? cub_med / med : NAN, 4);
            sl_table_num(t, med > 0 ? read_med / med : NAN, 4);
            sl_table_u64(t, d);
            sl_table_str(t, sl_fmt_hex(hex, sizeof hex, res[0]));
            sl_table_u64(t, cfg.block);
            sl_table_u64(t, cfg.grid);
            sl_table_u64(t, cfg.items);
            sl_table_num(t, cub_med, 6);
            sl_table_num(t, read_med, 6);
            sl_table_num(t, worst, 17);
            sl_table_num(t, bound, 17);
        }
        if (fmt == SL_OUT_CSV) {
            sl_table_write_csv_rows(t, stdout);
            sl_table_clear_rows(t);
        }
        if (ctx) sl_gpu_ctx_destroy(ctx);
        if (have_ref) sl_reference_clear(&ref);
        free(x);
    }
    if (fmt == SL_OUT_TABLE) sl_table_write(t, fmt, stdout);
    sl_table_free(t);
    free(res);
    free(tim);
    free(ctim);
    return rc ? rc : selfcheck;
}

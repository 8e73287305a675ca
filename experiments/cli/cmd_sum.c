/* cmd_sum.c: `sumlab sum FILE`: sums one file with each chosen variant (GPU or CPU twin) and
 * judges every result against the exact sum. One row per variant, in registry order, plus
 * the `exact` row. A deterministic GPU result that differs from its twin fails the command. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_cli.h"
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_variants.h"

#define SUM_MAX_VARIANTS 64
#define TWIN_DEFAULT_MAX_N ((uint64_t)1 << 24)

static void sum_usage(FILE *f)
{
    fputs("usage: sumlab sum FILE [--variants LIST|all] [--backend auto|cpu|gpu] [--reps R]\n"
          "                  [--format table|csv|json] [--dtype f32|f64] [--offset 0|1]\n"
          "                  [--block B] [--grid G] [--items I] [--seed S]\n"
          "                  [--check-twin | --no-check-twin]\n\n"
          "Sums FILE (.npy '<f4'/'<f8', or raw little-endian values with --dtype) with each\n"
          "variant, R times, and judges each result against the exact sum. One row per\n"
          "variant in registry order; the `exact` row (correctly rounded exact sum) is always\n"
          "printed. Variants that cannot run here are skipped with one line on stderr.\n\n"
          "options:\n"
          "  --variants L      comma-separated names or 'all' (default: all)\n"
          "  --backend B       auto (default: GPU when present, else CPU twins), cpu or gpu\n"
          "  --reps R          repetitions per variant (default 3; GPU: after one warm-up)\n"
          "  --format F        table (default), csv or json\n"
          "  --dtype D         element type of a raw file (f32 or f64); checked against .npy\n"
          "  --offset K        0 (default) or 1: misalign the input by one element\n"
          "  --block B         threads per block (power of two, 32..1024; default: variant's)\n"
          "  --grid G          blocks (default: derived from n and the SM count)\n"
          "  --items I         variant-specific work per thread (default: variant's)\n"
          "  --seed S          commit-order seed of nondeterministic CPU twins (default 0)\n"
          "  --check-twin      on the GPU, also run each twin and compare bit for bit\n"
          "  --no-check-twin   don't (default: check when n <= 2^24)\n"
          "  -h, --help        this text\n\n"
          "columns: variant result_hex result abs_err rel_err ulps cond bound distinct backend\n"
          "  dtype n reps time_ms gbps determinism twin_match block grid items spread_ulps\n"
          "  time_ms_min time_ms_max\n\n"
          "exit status: 0 ok; 1 a runtime failure, or a self-check failed (a deterministic\n"
          "GPU variant differed from its twin or between repetitions); 2 bad usage or input.\n",
          f);
}

static const char *const sum_columns[] = {
    "variant", "result_hex", "result", "abs_err", "rel_err", "ulps", "cond", "bound", "distinct",
    "backend", "dtype", "n", "reps", "time_ms", "gbps", "determinism", "twin_match",
    "block", "grid", "items", "spread_ulps", "time_ms_min", "time_ms_max",
};
#define SUM_NCOLS ((int)(sizeof sum_columns / sizeof sum_columns[0]))

/* Times are absent (not NaN) for the reference row. */
static void num_or_null(sl_table *t, double v)
{
    if (isnan(v)) sl_table_null(t);
    else sl_table_num(t, v, 6);
}

static void add_row(sl_table *t, const sl_row *r, const sl_reference *ref, sl_dtype dt,
                    uint64_t n, int prec)
{
    char hex[SL_FMT_LEN], dec[SL_FMT_LEN];
    sl_table_row(t);
    sl_table_str(t, r->variant->name);
    sl_table_str(t, sl_fmt_hex(hex, sizeof hex, r->result));
    sl_table_str(t, sl_fmt_result(dec, sizeof dec, r->result, dt));
    sl_table_num(t, r->err.abs_err, prec);  /* csv/json: 17 digits, compared with bound */
    sl_table_num(t, r->err.rel_err, prec);
    sl_table_num(t, r->err.ulps, prec);
    sl_table_num(t, ref->cond, prec);
    sl_table_num(t, r->bound, prec);
    sl_table_u64(t, r->distinct);
    sl_table_str(t, r->backend);
    sl_table_str(t, sl_dtype_name(dt));
    sl_table_u64(t, n);
    sl_table_i64(t, r->reps);
    num_or_null(t, r->time_ms_median);
    num_or_null(t, r->gbps);
    sl_table_str(t, sl_determinism_name(r->variant->determinism));
    sl_table_bool(t, r->twin_checked ? r->twin_match : -1);
    int ref_row = !strcmp(r->backend, "reference");
    if (ref_row) {
        sl_table_null(t);
        sl_table_null(t);
        sl_table_null(t);
    } else {
        sl_table_u64(t, r->cfg.block);
        sl_table_u64(t, r->cfg.grid);
        sl_table_u64(t, r->cfg.items);
    }
    sl_table_num(t, r->spread_ulps, prec);
    num_or_null(t, r->time_ms_min);
    num_or_null(t, r->time_ms_max);
}

int sl_cmd_sum(int argc, char **argv)
{
    enum { O_CHECK = 256, O_NOCHECK, O_ITEMS };
    static const struct option opts[] = {
        {"variants", required_argument, NULL, 'v'},
        {"backend", required_argument, NULL, 'b'},
        {"reps", required_argument, NULL, 'r'},
        {"format", required_argument, NULL, 'f'},
        {"dtype", required_argument, NULL, 'd'},
        {"offset", required_argument, NULL, 'o'},
        {"block", required_argument, NULL, 'B'},
        {"grid", required_argument, NULL, 'G'},
        {"items", required_argument, NULL, O_ITEMS},
        {"seed", required_argument, NULL, 's'},
        {"check-twin", no_argument, NULL, O_CHECK},
        {"no-check-twin", no_argument, NULL, O_NOCHECK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *vlist = "all";
    sl_backend backend = SL_BACKEND_AUTO;
    long reps = 3;
    sl_out_format fmt = SL_OUT_TABLE;
    int have_dtype = 0, check_twin = -1;
    sl_dtype raw_dt = SL_F32;
    uint32_t offset = 0;
    sl_launch req;
    memset(&req, 0, sizeof req);
    sl_err err = {{0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":v:b:r:f:d:o:B:G:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'v': vlist = optarg; break;
        case 'b':
            if (sl_backend_parse(optarg, &backend)) {
                sl_cli_msg("sum", "unknown --backend '%s' (auto, cpu or gpu)", optarg);
                return 2;
            }
            break;
        case 'r':
            if (sl_parse_int(optarg, 1, 1000000, &reps, &err)) {
                sl_cli_msg("sum", "--reps: %s (at least 1)", err.msg);
                return 2;
            }
            break;
        case 'f':
            if (sl_out_format_parse(optarg, &fmt)) {
                sl_cli_msg("sum", "unknown --format '%s' (table, csv or json)", optarg);
                return 2;
            }
            break;
        case 'd':
            if (sl_dtype_parse(optarg, &raw_dt)) {
                sl_cli_msg("sum", "unsupported --dtype '%s' (f32 or f64)", optarg);
                return 2;
            }
            have_dtype = 1;
            break;
        case 'o':
            {
                long v;
                if (sl_parse_int(optarg, 0, 1, &v, &err)) {
                    sl_cli_msg("sum", "--offset: %s", err.msg);
                    return 2;
                }
                offset = (uint32_t)v;
            }
            break;
        case 'B':
            if (sl_cli_launch_opt("sum", "--block", optarg, &req.block)) return 2;
            break;
        case 'G':
            if (sl_cli_launch_opt("sum", "--grid", optarg, &req.grid)) return 2;
            break;
        case O_ITEMS:
            if (sl_cli_launch_opt("sum", "--items", optarg, &req.items)) return 2;
            break;
        case 's':
            if (sl_parse_u64(optarg, &req.order_seed, &err)) {
                sl_cli_msg("sum", "--seed: %s", err.msg);
                return 2;
            }
            break;
        case O_CHECK: check_twin = 1; break;
        case O_NOCHECK: check_twin = 0; break;
        case 'h': sum_usage(stdout); return 0;
        default: return sl_cli_bad_option("sum", c, argv, optind, optopt);
        }
    }
    if (optind >= argc) {
        sl_cli_msg("sum", "missing input FILE (.npy or raw; see 'sumlab sum --help')");
        return 2;
    }
    if (argc - optind > 1) {
        sl_cli_msg("sum", "unexpected argument '%s' (one FILE at a time)", argv[optind + 1]);
        return 2;
    }
    const char *path = argv[optind];

    /* variants: the user's list, put in registry order, `exact` always present */
    const sl_variant *picked[SUM_MAX_VARIANTS];
    size_t npicked = 0;
    if (sl_variant_parse_list(vlist, picked, SUM_MAX_VARIANTS, &npicked, &err)) {
        sl_cli_msg("sum", "--variants: %s", err.msg);
        return 2;
    }
    const sl_variant *order[SUM_MAX_VARIANTS];
    size_t nv = 0;
    for (size_t i = 0; i < sl_variant_count() && nv < SUM_MAX_VARIANTS; i++) {
        const sl_variant *v = sl_variant_at(i);
        int want = !strcmp(v->name, "exact");
        for (size_t j = 0; j < npicked && !want; j++) want = picked[j] == v;
        if (want) order[nv++] = v;
    }

    void *data = NULL;
    uint64_t n = 0;
    sl_dtype dt;
    if (sl_array_load(path, have_dtype, raw_dt, &data, &n, &dt, &err)) {
        sl_cli_msg("sum", "%s", err.msg);
        return 2;
    }
    if (have_dtype && dt != raw_dt) {
        sl_cli_msg("sum", "'%s' holds %s values but --dtype %s was given", path, sl_dtype_name(dt),
                   sl_dtype_name(raw_dt));
        free(data);
        return 2;
    }

    sl_session *s = NULL;
    char chosen[512];
    if (sl_session_open(&s, data, n, dt, backend, offset, chosen, sizeof chosen, &err)) {
        sl_cli_msg("sum", "%s", err.msg);
        free(data);
        return 1;
    }
    if (backend == SL_BACKEND_AUTO) sl_cli_msg("sum", "%s", chosen);
    int on_gpu = sl_session_on_gpu(s);
    if (check_twin < 0) check_twin = n <= TWIN_DEFAULT_MAX_N;
    if (on_gpu && !check_twin) sl_cli_msg("sum", "twin check off (n > 2^24 or --no-check-twin)");

    sl_table *t = sl_table_new(SUM_NCOLS, sum_columns);
    if (!t) {
        sl_cli_msg("sum", "out of memory");
        sl_session_close(s);
        free(data);
        return 1;
    }
    const sl_reference *ref = sl_session_reference(s);
    int prec = fmt == SL_OUT_TABLE ? 6 : 17;
    int failed = 0, selfcheck = 0;
    for (size_t i = 0; i < nv; i++) {
        const sl_variant *v = order[i];
        sl_row row;
        int rc = sl_measure(s, v, &req, (int)reps, check_twin, &row, &err);
        if (rc == 1) {
            sl_cli_msg("sum", "skipping %s: %s", v->name, err.msg);
            continue;
        }
        if (rc != 0) {
            sl_cli_msg("sum", "%s failed: %s", v->name, err.msg);
            failed = 1;
            continue;
        }
        if (row.twin_checked && !row.twin_match) {
            char h[SL_FMT_LEN];
            sl_cli_msg("sum", "SELF-CHECK FAILED: %s on the GPU gave %s, which differs from its "
                       "CPU twin bit for bit", v->name, sl_fmt_hex(h, sizeof h, row.result));
            selfcheck = 1;
        }
        if (!strcmp(row.backend, "gpu") && v->determinism != SL_DET_NONDETERMINISTIC &&
            row.distinct > 1) {
            sl_cli_msg("sum", "SELF-CHECK FAILED: %s is %s but gave %llu distinct results over %d "
                       "repetitions", v->name, sl_determinism_name(v->determinism),
                       (unsigned long long)row.distinct, row.reps);
            selfcheck = 1;
        }
        add_row(t, &row, ref, dt, n, prec);
        sl_row_free(&row);
    }
    int wrc = sl_table_write(t, fmt, stdout);
    sl_table_free(t);
    sl_session_close(s);
    free(data);
    if (wrc) {
        sl_cli_msg("sum", "error writing the output");
        return 1;
    }
    return (failed || selfcheck) ? 1 : 0;
}

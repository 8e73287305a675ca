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

/* ---- the output's column table: each column's name and cell in one line ------------------- */
typedef struct {
    const sl_row *r;
    const sl_reference *ref;
    sl_dtype dt;
    uint64_t n;
    int prec;                  /* 6 in tables, 17 in csv/json (compared with the bound) */
} sum_cell;

/* Times are absent (not NaN) for the reference row; so is its launch configuration. */
static void num_or_null(sl_table *t, double v)
{
    if (isnan(v)) sl_table_null(t);
    else sl_table_num(t, v, 6);
}
static int ref_row(const sum_cell *c) { return !strcmp(c->r->backend, "reference"); }
static void cfg_or_null(sl_table *t, const sum_cell *c, uint32_t v)
{
    if (ref_row(c)) sl_table_null(t);
    else sl_table_u64(t, v);
}

#define CELL(name, stmt) static void c_##name(sl_table *t, const sum_cell *c) { char b[SL_FMT_LEN]; (void)b; stmt; }
CELL(variant, sl_table_str(t, c->r->variant->name))
CELL(result_hex, sl_table_str(t, sl_fmt_hex(b, sizeof b, c->r->result)))
CELL(result, sl_table_str(t, sl_fmt_result(b, sizeof b, c->r->result, c->dt)))
CELL(abs_err, sl_table_num(t, c->r->err.abs_err, c->prec))
CELL(rel_err, sl_table_num(t, c->r->err.rel_err, c->prec))
CELL(ulps, sl_table_num(t, c->r->err.ulps, c->prec))
CELL(cond, sl_table_num(t, c->ref->cond, c->prec))
CELL(bound, sl_table_num(t, c->r->bound, c->prec))
CELL(distinct, sl_table_u64(t, c->r->distinct))
CELL(backend, sl_table_str(t, c->r->backend))
CELL(dtype, sl_table_str(t, sl_dtype_name(c->dt)))
CELL(n, sl_table_u64(t, c->n))
CELL(reps, sl_table_i64(t, c->r->reps))
CELL(time_ms, num_or_null(t, c->r->time_ms_median))
CELL(gbps, num_or_null(t, c->r->gbps))
CELL(determinism, sl_table_str(t, sl_determinism_name(c->r->variant->determinism)))
CELL(twin_match, sl_table_bool(t, c->r->twin_checked ? c->r->twin_match : -1))
CELL(block, cfg_or_null(t, c, c->r->cfg.block))
CELL(grid, cfg_or_null(t, c, c->r->cfg.grid))
CELL(items, cfg_or_null(t, c, c->r->cfg.items))
CELL(spread_ulps, sl_table_num(t, c->r->spread_ulps, c->prec))
CELL(time_ms_min, num_or_null(t, c->r->time_ms_min))
CELL(time_ms_max, num_or_null(t, c->r->time_ms_max))
#undef CELL

#define COL(name) {#name, c_##name}
static const struct {
    const char *name;
    void (*cell)(sl_table *t, const sum_cell *c);
} sum_cols[] = {
    COL(variant), COL(result_hex), COL(result), COL(abs_err), COL(rel_err), COL(ulps), COL(cond),
    COL(bound), COL(distinct), COL(backend), COL(dtype), COL(n), COL(reps), COL(time_ms), COL(gbps),
    COL(determinism), COL(twin_match), COL(block), COL(grid), COL(items), COL(spread_ulps),
    COL(time_ms_min), COL(time_ms_max),
};
#undef COL
#define SUM_NCOLS (sizeof sum_cols / sizeof sum_cols[0])

static sl_table *sum_table(void)
{
    const char *h[SUM_NCOLS];
    for (size_t i = 0; i < SUM_NCOLS; i++) h[i] = sum_cols[i].name;
    return sl_table_new((int)SUM_NCOLS, h);
}

static void add_row(sl_table *t, const sum_cell *c)
{
    sl_table_row(t);
    for (size_t i = 0; i < SUM_NCOLS; i++) sum_cols[i].cell(t, c);
}

/* The variants of list in registry order, `exact` always present. */
static int sum_variants(const char *list, const sl_variant **order, size_t *nv)
{
    sl_err err = {{0}};
    const sl_variant *picked[SUM_MAX_VARIANTS];
    size_t npicked = 0;
    if (sl_variant_parse_list(list, picked, SUM_MAX_VARIANTS, &npicked, &err)) {
        sl_cli_msg("sum", "--variants: %s", err.msg);
        return -1;
    }
    *nv = 0;
    for (size_t i = 0; i < sl_variant_count() && *nv < SUM_MAX_VARIANTS; i++) {
        const sl_variant *v = sl_variant_at(i);
        int want = !strcmp(v->name, "exact");
        for (size_t j = 0; j < npicked && !want; j++) want = picked[j] == v;
        if (want) order[(*nv)++] = v;
    }
    return 0;
}

/* Each variant measured (and judged) on the session into a row of t; the self-checks. Returns
 * 1 when a variant failed or a self-check failed, else 0. */
static int sum_measure(sl_session *s, const sl_variant *const *order, size_t nv, const sl_launch *req,
                       int reps, int check_twin, sl_table *t, int prec)
{
    sl_err err = {{0}};
    int failed = 0, selfcheck = 0;
    for (size_t i = 0; i < nv; i++) {
        const sl_variant *v = order[i];
        sl_row row;
        int rc = sl_measure(s, v, req, reps, check_twin, &row, &err);
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
        /* judged: every repetition within the variant's a-priori bound (as bench checks) */
        sl_judgement jd;
        sl_judge_results(sl_session_reference(s), v, row.n, row.dt, &row.cfg, row.results, row.reps, &jd);
        if (sl_bound_violated(sl_session_reference(s), jd.worst_abs_err, jd.bound)) {
            char h[SL_FMT_LEN];
            sl_cli_msg("sum", "SELF-CHECK FAILED: %s (%s): result %s has error %g above its bound %g",
                       v->name, row.backend, sl_fmt_hex(h, sizeof h, row.result), jd.worst_abs_err, jd.bound);
            selfcheck = 1;
        }
        sum_cell c = {&row, sl_session_reference(s), row.dt, row.n, prec};
        add_row(t, &c);
        sl_row_free(&row);
    }
    return failed || selfcheck;
}

/* The options of `sumlab sum`. */
typedef struct {
    const char *vlist;
    sl_backend backend;
    long reps;
    sl_out_format fmt;
    int have_dtype, check_twin;
    sl_dtype raw_dt;
    uint32_t offset;
    sl_launch req;
} sum_opts;

/* The option loop. Returns -1 to go on, else the exit code (0 after --help). */
static int sum_getopt(int argc, char **argv, sum_opts *o)
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
    sl_err err = {{0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":v:b:r:f:d:o:B:G:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'v': o->vlist = optarg; break;
        case 'b':
            if (sl_backend_parse(optarg, &o->backend)) {
                sl_cli_msg("sum", "unknown --backend '%s' (auto, cpu or gpu)", optarg);
                return 2;
            }
            break;
        case 'r':
            if (sl_parse_int(optarg, 1, 1000000, &o->reps, &err)) {
                sl_cli_msg("sum", "--reps: %s (at least 1)", err.msg);
                return 2;
            }
            break;
        case 'f':
            if (sl_out_format_parse(optarg, &o->fmt)) {
                sl_cli_msg("sum", "unknown --format '%s' (table, csv or json)", optarg);
                return 2;
            }
            break;
        case 'd':
            if (sl_dtype_parse(optarg, &o->raw_dt)) {
                sl_cli_msg("sum", "unsupported --dtype '%s' (f32 or f64)", optarg);
                return 2;
            }
            o->have_dtype = 1;
            break;
        case 'o':
            {
                long v;
                if (sl_parse_int(optarg, 0, 1, &v, &err)) {
                    sl_cli_msg("sum", "--offset: %s", err.msg);
                    return 2;
                }
                o->offset = (uint32_t)v;
            }
            break;
        case 'B':
            if (sl_cli_launch_opt("sum", "--block", optarg, &o->req.block)) return 2;
            break;
        case 'G':
            if (sl_cli_launch_opt("sum", "--grid", optarg, &o->req.grid)) return 2;
            break;
        case O_ITEMS:
            if (sl_cli_launch_opt("sum", "--items", optarg, &o->req.items)) return 2;
            break;
        case 's':
            if (sl_parse_u64(optarg, &o->req.order_seed, &err)) {
                sl_cli_msg("sum", "--seed: %s", err.msg);
                return 2;
            }
            break;
        case O_CHECK: o->check_twin = 1; break;
        case O_NOCHECK: o->check_twin = 0; break;
        case 'h': sum_usage(stdout); return 0;
        default: return sl_cli_bad_option("sum", c, argv, optind, optopt);
        }
    }
    return -1;
}

int sl_cmd_sum(int argc, char **argv)
{
    sum_opts o;
    memset(&o, 0, sizeof o);
    o.vlist = "all";
    o.backend = SL_BACKEND_AUTO;
    o.reps = 3;
    o.fmt = SL_OUT_TABLE;
    o.check_twin = -1;
    o.raw_dt = SL_F32;
    int code = sum_getopt(argc, argv, &o);
    if (code >= 0) return code;
    const char *vlist = o.vlist;
    const sl_backend backend = o.backend;
    const long reps = o.reps;
    const sl_out_format fmt = o.fmt;
    const int have_dtype = o.have_dtype;
    int check_twin = o.check_twin;
    const sl_dtype raw_dt = o.raw_dt;
    const uint32_t offset = o.offset;
    const sl_launch req = o.req;
    sl_err err = {{0}};
    if (optind >= argc) {
        sl_cli_msg("sum", "missing input FILE (.npy or raw; see 'sumlab sum --help')");
        return 2;
    }
    if (argc - optind > 1) {
        sl_cli_msg("sum", "unexpected argument '%s' (one FILE at a time)", argv[optind + 1]);
        return 2;
    }
    const char *path = argv[optind];

    const sl_variant *order[SUM_MAX_VARIANTS];
    size_t nv = 0;
    if (sum_variants(vlist, order, &nv)) return 2;

    void *data = NULL;
    uint64_t n = 0;
    sl_dtype dt;
    sl_array_info info;
    if (sl_array_load_ex(path, have_dtype, raw_dt, &data, &n, &dt, &info, &err)) {
        sl_cli_msg("sum", "%s", err.msg);
        return 2;
    }
    if (info.note[0]) sl_cli_msg("sum", "%s", info.note); /* N-D, Fortran order, .npz member */
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

    sl_table *t = sum_table();
    if (!t) {
        sl_cli_msg("sum", "out of memory");
        sl_session_close(s);
        free(data);
        return 1;
    }
    int bad = sum_measure(s, order, nv, &req, (int)reps, check_twin, t, fmt == SL_OUT_TABLE ? 6 : 17);
    int wrc = sl_table_write(t, fmt, stdout);
    sl_table_free(t);
    sl_session_close(s);
    free(data);
    if (wrc) return 1;   /* main() names the reason: "cannot write standard output: ..." */
    return bad ? 1 : 0;
}

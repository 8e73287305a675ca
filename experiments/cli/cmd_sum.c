/* cmd_sum.c: `sumlab reduce --op OP FILE` (and `sumlab sum FILE`, the same with the sum):
 * reduces one file with each chosen variant of the operation (GPU or CPU twin) and judges every
 * result against the operation's exact reference. One row per variant, in the order --variants
 * names them (registry order for `all`), plus the exact row, and the exact value S itself.
 * A failed self-check (sl_verdict.h) fails the command. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <time.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sl_cli.h"
#include "sl_datasets.h"
#include "sl_measure.h"
#include "sl_verdict.h"
#include "sl_mpi.h"
#include "sl_results.h"
#include "sumlab/pool.h"
#include "sl_variants.h"

#define SUM_MAX_VARIANTS 64

/* The command's name in messages: "reduce" or "sum" (one command per process). */
static const char *cmd = "sum";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#define TWIN_DEFAULT_MAX_N ((uint64_t)1 << 24)
/* --axis: input rows reduced between writes (CSV, JSON); lines of one aligned table */
#define ROWS_BATCH 256u
#define ROWS_PAGE 4096u

static void sum_usage(FILE *f)
{
    fputs("usage: sumlab reduce --op OP FILE [FILE2] [the options below]\n"
          "       sumlab sum FILE (the same as reduce --op sum FILE)\n"
          "       sumlab sum FILE [--variants LIST|all] [--backend auto|cpu|gpu] [--reps R]\n"
          "                  [--format table|csv|json] [--dtype f32|f64|f16|bf16] [--offset 0|1]\n"
          "                  [--block B] [--grid G] [--items I] [--seed S]\n"
          "                  [--check-twin | --no-check-twin] [--columns LIST] [--quiet]\n"
          "                  [--combine LIST|all] [--threads N]\n"
          "       mpirun -np K sumlab sum FILE ... (each rank sums one slice; see --combine)\n\n"
          "Sums FILE (.npy '<f4'/'<f8', or raw little-endian values with --dtype) with each\n"
          "variant, R times, and judges each result against the exact sum. One row per\n"
          "variant in the order --variants gives (registry order for 'all'); the `exact` row\n"
          "(correctly rounded exact sum) is always printed, and so is S itself, exactly (a\n"
          "block under the table; columns exact_sum_* in csv/json). With 'all', variants that\n"
          "cannot run here are skipped with one line on stderr; a variant named explicitly\n"
          "that cannot run here is an error (exit 2). --op lse, table format: under S the\n"
          "softmax denominator and each variant's error in the normalised outputs\n"
          "p_i = exp(x_i - result) (docs/lse.md).\n\n"
          "options:\n"
          "  --ddof N          var/std: divide by n - N (default 1, as torch.var; 0 as numpy.var)\n"
          "  --axis K          reduce along axis K of an N-D .npy (negative: from the end; -1 the\n"
          "                    last): one result row per reduced row, its index in the `row`\n"
          "                    column (a 1-D file takes 0 or -1: one row); rows are written as\n"
          "                    they finish (table format: in tables of up to 4096 lines); a\n"
          "                    two-input operation's FILE2 has FILE's shape (row i with row i)\n"
          "                    or is 1-D of the axis' length (one row with every row: X @ Y)\n"
          "  --op OP           the operation (default sum; 'sumlab list ops' lists them); FILE2\n"
          "                    is the second input of a two-input operation\n"
          "  --variants L      comma-separated names of the operation's variants (rows in this\n"
          "                    order) or 'all' (default)\n"
          "  --backend B       auto (default: GPU when present, else CPU twins), cpu or gpu\n"
          "  --reps R          repetitions per variant (default 3; GPU: after one warm-up)\n"
          "  --format F        table (default), csv or json\n"
          "  --dtype D         element type of a raw file (f32, f64, f16 or bf16); checked against .npy\n"
          "  --offset K        0 (default) or 1: misalign the input by one element\n"
          "  --block B         threads per block (power of two, 32..1024; default: variant's)\n"
          "  --grid G          blocks (default: derived from n and the SM count)\n"
          "  --items I         variant-specific work per thread (default: variant's)\n"
          "  --seed S          commit-order seed of nondeterministic CPU twins (default 0)\n"
          "  --check-twin      on the GPU, also run each twin and compare bit for bit\n"
          "  --no-check-twin   don't (default: check when n <= 2^24)\n"
          "  --columns L       only these columns, in this order (names below)\n"
          "  -q, --quiet       no notices on stderr (backend, skipped variants); errors stay\n"
          "  --combine L       under mpirun (or with this option): how the ranks' partial results\n"
          "                    combine: mpi-sum (MPI_Allreduce, MPI_SUM), ordered (rank order on\n"
          "                    rank 0), state (exact merge of superacc/exact states: the same bits\n"
          "                    for every K); comma-separated or all (default: all)\n"
          "  --threads N       host threads for the reference, the twins and judging (default\n"
          "                    $SUMLAB_THREADS or every core; the same output for every count)\n"
          "  -h, --help        this text\n\n"
          "columns (default, csv and json): variant result_hex result abs_err rel_err ulps cond\n"
          "  bound_abs distinct backend dtype n reps time_ms_median gbps det_class twin_match\n"
          "  block grid items spread_ulps time_ms_min time_ms_max ulps_f64 exact_sum_hex\n"
          "  exact_sum_dec exact_sum_bits; the table's default fits 120 columns: variant\n"
          "  result_hex ulps bound_abs distinct spread_ulps det_class time_ms_median (S is\n"
          "  printed under it; the table gives bound_abs 3 significant digits, csv and json\n"
          "  all 17); under MPI also ranks combine local_ms_max\n"
          "  combine_ms allreduce1_ms (the combine next to an MPI_Allreduce of one double).\n"
          "  --columns takes any column of results.csv too (the one column table: docs/cli.md).\n\n"
          "exit status: 0 ok; 1 a runtime failure, or a self-check failed (a deterministic\n"
          "GPU variant differed from its twin or between repetitions); 2 bad usage or input.\n",
          f);
}

/* ---- the output's columns: names from the one column table (sl_results.h) ---------------- */
/* The default columns; the table leaves the exact_sum_* ones out (S is printed under it) and
 * the ranks' ones appear under MPI only. */
static const char *const sum_default_cols[] = {
    "variant", "result_hex", "result", "abs_err", "rel_err", "ulps", "cond", "bound_abs", "distinct",
    "backend", "dtype", "n", "reps", "time_ms_median", "gbps", "det_class", "twin_match", "block",
    "grid", "items", "spread_ulps", "time_ms_min", "time_ms_max", "ulps_f64", "exact_sum_hex",
    "exact_sum_dec", "exact_sum_bits", "ranks", "combine", "local_ms_max", "combine_ms",
    "allreduce1_ms",
};
#define SUM_DEFAULT_NCOLS (sizeof sum_default_cols / sizeof sum_default_cols[0])
/* The table's default: the columns that fit 120 terminal columns for a typical call (float32,
 * the default variants); the rest stay in csv/json and --columns (a GPU twin mismatch is said
 * on stderr and fails the command, so twin_match need not take room here). */
static const char *const sum_table_cols[] = {
    "variant", "result_hex", "ulps", "bound_abs", "distinct", "spread_ulps", "det_class",
    "time_ms_median",
};
#define SUM_TABLE_NCOLS (sizeof sum_table_cols / sizeof sum_table_cols[0])

/* --columns LIST (NULL: the default set for fmt and mpi). -1 after one message on a bad name. */
static int sum_columns(const char *list, sl_out_format fmt, int mpi, int rows, sl_colset *cs)
{
    sl_err err = {{0}};
    if (list) {
        if (sl_colset_parse(cs, list, &err)) {
            sl_cli_msg(cmd, "--columns: %s (see 'sumlab %s --help')", err.msg, cmd);
            return -1;
        }
        return 0;
    }
    const char *names[SUM_DEFAULT_NCOLS + 1];
    size_t n = 0;
    if (rows) names[n++] = "row";            /* --axis: the row's index first */
    if (fmt == SL_OUT_TABLE)
        for (size_t i = 0; i < SUM_TABLE_NCOLS; i++) names[n++] = sum_table_cols[i];
    for (size_t i = 0; i < SUM_DEFAULT_NCOLS; i++) {
        const char *c = sum_default_cols[i];
        if (fmt == SL_OUT_TABLE && i < SUM_DEFAULT_NCOLS - 5) continue;   /* the table's: above */
        if (!mpi && i >= SUM_DEFAULT_NCOLS - 5) continue;
        names[n++] = c;
    }
    return sl_colset_names(cs, names, n, &err);
}

/* Whether the set shows the exact sum in columns (else the table prints it in a block). */
static int shows_exact_sum(const sl_colset *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        if (!strncmp(cs->col[i]->name, "exact_sum_", 10)) return 1;
    return 0;
}

/* One row of the output: the row's record in the one column table's terms. */
static int add_row(sl_table *t, const sl_colset *cs, const sl_operation *op, const sl_variant *v,
                   const sl_row *row, const sl_reference *ref, const sl_exact_text *S, int digits,
                   const sl_record_extra *x)
{
    sl_rowctx ctx = {.experiment = cmd, .op = op, .dt = row->dt, .n = row->n, .config = "default"};
    sl_record r = {.ctx = &ctx, .variant = v->name, .family = v->family,
                   .det_class = sl_determinism_name(v->determinism), .status = "ok", .row = row,
                   .instances = 1, .ref = ref, .S = S, .digits = digits, .x = x};
    sl_err err = {{0}};
    if (sl_colset_row(t, cs, &r, 0, &err)) {
        sl_cli_msg(cmd, "%s", err.msg);
        return -1;
    }
    return 0;
}

/* The variants of list in its order (registry order for `all`), `exact` last unless named;
 * *explicit_list: the list names its variants (an unrunnable one is then an error). */
static int sum_variants(const sl_operation *op, const char *list, const sl_variant **order, size_t *nv,
                        int *explicit_list)
{
    sl_err err = {{0}};
    const sl_variant *picked[SUM_MAX_VARIANTS];
    size_t npicked = 0;
    if (sl_op_variants(op, list, picked, SUM_MAX_VARIANTS, &npicked, &err)) {
        sl_cli_msg(cmd, "--variants: %s", err.msg);
        return -1;
    }
    *explicit_list = strcmp(list, "all") != 0;
    *nv = 0;
    int have_exact = 0;
    if (*explicit_list) {
        for (size_t j = 0; j < npicked && *nv < SUM_MAX_VARIANTS; j++) {
            size_t k = 0;
            while (k < *nv && order[k] != picked[j]) k++;
            if (k < *nv) continue;                 /* named twice: one row */
            have_exact |= sl_op_is_exact(picked[j]);
            order[(*nv)++] = picked[j];
        }
    } else {
        for (size_t i = 0; i < sl_variant_count() && *nv < SUM_MAX_VARIANTS; i++) {
            const sl_variant *v = sl_variant_at(i);
            int want = 0;
            for (size_t j = 0; j < npicked && !want; j++) want = picked[j] == v;
            if (want) { order[(*nv)++] = v; have_exact |= sl_op_is_exact(v); }
        }
    }
    const sl_variant *ex = sl_variant_find_op(op->name, op->exact_variant);
    if (!have_exact && ex && *nv < SUM_MAX_VARIANTS) order[(*nv)++] = ex;
    return 0;
}

/* Each variant measured (and judged) on the session into a row of t; the self-checks; res (NULL,
 * or nv slots) gets each row's first result, got whether the variant gave a row. Returns 1 when a
 * variant failed or a self-check failed, else 0. */
static int sum_measure(sl_session *s, const sl_variant *const *order, size_t nv, const sl_launch *req,
                       int reps, int check_twin, sl_table *t, const sl_colset *cs, int digits,
                       const sl_exact_text *S, int quiet, const sl_record_extra *x, double *res,
                       int *got)
{
    for (size_t i = 0; res && i < nv; i++) res[i] = NAN, got[i] = 0;
    int failed = 0, selfcheck = 0;
    sl_row rows[SUM_MAX_VARIANTS];
    int status[SUM_MAX_VARIANTS], nreps[SUM_MAX_VARIANTS] = {0};
    sl_err errs[SUM_MAX_VARIANTS];
    for (size_t i = 0; i < nv; i++) nreps[i] = reps;
    /* every variant at once: the GPU ones in turn, the twins spread over the threads */
    if (sl_measure_list(s, order, nv, req, nreps, check_twin, NULL, rows, status, errs)) failed = 1;
    for (size_t i = 0; i < nv; i++) {
        const sl_variant *v = order[i];
        sl_row row = rows[i];
        const sl_err err = errs[i];
        int rc = status[i];
        if (rc == 1) {
            if (!quiet) sl_cli_msg(cmd, "skipping %s: %s", v->name, err.msg);
            sl_row_free(&row);
            continue;
        }
        if (rc != 0) {
            sl_cli_msg(cmd, "%s failed: %s", v->name, err.msg);
            failed = 1;
            sl_row_free(&row);
            continue;
        }
        /* the self-checks (sl_verdict.h): twin, spread, bound, correct rounding */
        sl_verdict_facts facts;
        sl_verdict vd;
        sl_verdict_facts_of_row(sl_session_reference(s), v, &row, &facts);
        for (int k = 0; k < sl_verdict_decide(sl_session_reference(s), &facts, &vd); k++)
            sl_cli_msg(cmd, "%s", vd.msg[k]);
        selfcheck |= vd.failed > 0;
        /* on the CPU backend a nondeterministic variant's spread is its twin's model of the GPU's
         * commit order (each repetition draws one), not a GPU's: said once per such row */
        if (!quiet && !sl_session_on_gpu(s) && v->determinism == SL_DET_NONDETERMINISTIC && row.distinct > 1)
            sl_cli_msg(cmd, "%s: its %d distinct results are the CPU twin's model of the GPU commit order, "
                            "not a GPU's spread", v->name, (int)row.distinct);
        char note[448];
        if (row.capped) sl_cli_msg(cmd, "%s: %s", v->name, sl_row_capped_note(&row, note, sizeof note));
        if (add_row(t, cs, sl_session_op(s), v, &row, sl_session_reference(s), S, digits, x)) failed = 1;
        else if (res) res[i] = row.result, got[i] = 1;
        sl_row_free(&row);
    }
    return failed || selfcheck;
}

/* op lse, table format, under S: the softmax denominator and, per variant that gave a row, the
 * error its result causes in the normalised outputs (cli_lse.c). 0, or -1 (a message said why,
 * or a write error). */
static int lse_block(sl_session *s, const sl_variant *const *order, size_t nv, const double *res,
                     const int *got, const void *x)
{
    const sl_reference *ref = sl_session_reference(s);
    sl_err e = {{0}};
    int rc = sl_cli_lse_head(stdout, ref, x, &e);
    for (size_t i = 0; i < nv && !rc; i++)
        if (got[i]) rc = sl_cli_lse_line(stdout, ref, x, order[i]->name, res[i], &e);
    if (rc) sl_cli_msg(cmd, "%s", e.msg);
    fflush(stdout);
    return rc || ferror(stdout) ? -1 : 0;   /* a write error: main() names its reason */
}

/* The options of `sumlab sum`. */
typedef struct {
    const char *vlist, *columns;
    int quiet;
    sl_backend backend;
    long reps;
    sl_out_format fmt;
    int have_dtype, check_twin;
    sl_dtype raw_dt;
    uint32_t offset;
    sl_launch req;
    const char *combine;       /* --combine (NULL: all, and only under mpirun) */
    const sl_operation *op;    /* --op */
    int times;                 /* SUMLAB_TIMES set: the phases' seconds on stderr */
    const char *threads_s;
    sl_op_params params;       /* --ddof */
    int have_axis;             /* --axis K: reduce along axis K, one result row per row */
    long axis;
} sum_opts;

/* The option loop. Returns -1 to go on, else the exit code (0 after --help). */
static int sum_getopt(int argc, char **argv, sum_opts *o)
{
    enum { O_CHECK = 256, O_NOCHECK, O_ITEMS, O_COLUMNS, O_COMBINE, O_THREADS, O_OP, O_DDOF, O_AXIS };
    static const struct option opts[] = {
        {"op", required_argument, NULL, O_OP},
        {"ddof", required_argument, NULL, O_DDOF},
        {"axis", required_argument, NULL, O_AXIS},
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
        {"columns", required_argument, NULL, O_COLUMNS},
        {"quiet", no_argument, NULL, 'q'},
        {"combine", required_argument, NULL, O_COMBINE},
        {"threads", required_argument, NULL, O_THREADS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    sl_err err = {{0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":v:b:r:f:d:o:B:G:s:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'v': o->vlist = optarg; break;
        case 'b':
            if (sl_backend_parse(optarg, &o->backend)) {
                sl_cli_msg(cmd, "unknown --backend '%s' (auto, cpu or gpu)", optarg);
                return 2;
            }
            break;
        case 'r':
            if (sl_parse_int(optarg, 1, 1000000, &o->reps, &err)) {
                sl_cli_msg(cmd, "--reps: %s (at least 1)", err.msg);
                return 2;
            }
            break;
        case 'f':
            if (sl_out_format_parse(optarg, &o->fmt)) {
                sl_cli_msg(cmd, "unknown --format '%s' (table, csv or json)", optarg);
                return 2;
            }
            break;
        case 'd':
            if (sl_dtype_parse(optarg, &o->raw_dt)) {
                sl_cli_msg(cmd, "unsupported --dtype '%s' (f32, f64, f16 or bf16)", optarg);
                return 2;
            }
            o->have_dtype = 1;
            break;
        case 'o':
            {
                long v;
                if (sl_parse_int(optarg, 0, 1, &v, &err)) {
                    sl_cli_msg(cmd, "--offset: %s", err.msg);
                    return 2;
                }
                o->offset = (uint32_t)v;
            }
            break;
        case 'B':
            if (sl_cli_launch_opt(cmd, "--block", optarg, &o->req.block)) return 2;
            break;
        case 'G':
            if (sl_cli_launch_opt(cmd, "--grid", optarg, &o->req.grid)) return 2;
            break;
        case O_ITEMS:
            if (sl_cli_launch_opt(cmd, "--items", optarg, &o->req.items)) return 2;
            break;
        case 's':
            if (sl_parse_u64(optarg, &o->req.order_seed, &err)) {
                sl_cli_msg(cmd, "--seed: %s", err.msg);
                return 2;
            }
            break;
        case O_CHECK: o->check_twin = 1; break;
        case O_NOCHECK: o->check_twin = 0; break;
        case O_COLUMNS: o->columns = optarg; break;
        case 'q': o->quiet = 1; break;
        case O_COMBINE: o->combine = optarg; break;
        case O_THREADS: o->threads_s = optarg; break;
        case O_DDOF:
            if (sl_cli_ddof(cmd, optarg, &o->params)) return 2;
            break;
        case O_AXIS:
            if (sl_parse_int(optarg, -64, 63, &o->axis, &err)) {
                sl_cli_msg(cmd, "--axis: %s", err.msg);
                return 2;
            }
            o->have_axis = 1;
            break;
        case O_OP:
            if (sl_op_parse(optarg, &o->op, &err)) {
                sl_cli_msg(cmd, "--op: %s", err.msg);
                return 2;
            }
            break;
        case 'h': sum_usage(stdout); return 0;
        default: return sl_cli_bad_option(cmd, c, argv, optind, optopt, opts);
        }
    }
    return -1;
}

/* Under mpirun (or with --combine): every rank sums its slice, rank 0 writes (experiments/mpi/). */
static int sum_mpi(const char *path, const sum_opts *o, const sl_variant *const *order, size_t nv,
                   const sl_colset *cs)
{
    sl_err err = {{0}};
    unsigned mask = 0;
    if (sl_combine_parse_list(o->combine ? o->combine : "all", &mask, &err)) {
        sl_cli_msg(cmd, "--combine: %s", err.msg);
        return 2;
    }
    if (!sl_mpi_compiled()) {
        sl_cli_msg(cmd, "%s: %s", o->combine ? "--combine" : "started by mpirun", SL_MPI_MISSING);
        return 1;
    }
    sl_mpi_sum_opts mo = {path, o->have_dtype, o->raw_dt, o->backend, o->offset, (int)o->reps,
                          o->check_twin, mask, o->req, order, nv};
    sl_mpi_row *rows = NULL;
    size_t nrows = 0;
    sl_reference ref;
    int have_ref = 0, root = 1;
    char chosen[512] = "";
    int code = sl_mpi_sum_file(&mo, &rows, &nrows, &ref, &have_ref, &root, chosen, sizeof chosen, &err);
    if (root && code && err.msg[0]) sl_cli_msg(cmd, "%s", err.msg);
    if (root && o->backend == SL_BACKEND_AUTO && chosen[0]) sl_cli_msg(cmd, "rank 0: %s", chosen);
    if (root && have_ref && (code == 0 || code == 1)) {
        /* S: the exact sum of every rank's slice (the merged exact state, rank 0's reference) */
        sl_exact_text S = {0};
        const int have_S = !sl_reference_exact_text(&ref, &S);
        sl_table *t = have_S ? sl_colset_table(cs) : NULL;
        if (!t) {
            sl_cli_msg(cmd, "out of memory");
            code = 1;
        }
        for (size_t i = 0; t && i < nrows; i++) {
            sl_record_extra x;
            sl_record_extra_init(&x);
            x.ranks = rows[i].ranks;
            x.combine = sl_combine_name(rows[i].combine);
            x.local_ms_max = rows[i].local_ms_max;
            x.combine_ms = rows[i].combine_ms;
            x.allreduce1_ms = rows[i].allreduce1_ms;
            if (add_row(t, cs, o->op, rows[i].row.variant, &rows[i].row, &ref, &S,
                        o->fmt == SL_OUT_TABLE ? 6 : 0, &x)) code = 1;
        }
        int wrc = t ? sl_table_write(t, o->fmt, stdout) : 0;
        if (t && !wrc && o->fmt == SL_OUT_TABLE && !shows_exact_sum(cs)) wrc = sl_cli_exact_block(stdout, &S, o->op->name);
        if (wrc) {
            sl_cli_msg(cmd, "error writing the output");
            code = 1;
        }
        fflush(stdout);
        sl_table_free(t);
        if (have_S) sl_exact_text_free(&S);
    }
    if (have_ref) sl_reference_clear(&ref);
    sl_mpi_rows_free(rows, nrows);
    return sl_mpi_end(code);
}

/* The one input, reduced and printed: the session (reference, upload), the variants measured
 * and judged, the table and S. One cleanup path. Returns the exit code. */
static int reduce_file(const char *path, const char *path2, sum_opts *o, const sl_variant *const *order,
                       size_t nv, int explicit_list, const sl_colset *cs, unsigned threads)
{
    sl_err err = {{0}};
    void *data = NULL, *data2 = NULL;
    sl_session *s = NULL;
    sl_table *t = NULL;
    sl_exact_text S = {0};
    int have_S = 0, code = 0;
    uint64_t n = 0;
    sl_dtype dt;
    sl_array_info info;
    sl_io_set_threads(threads);
    const double t_read = now_s();
    if (sl_array_load_ex(path, o->have_dtype, o->raw_dt, &data, &n, &dt, &info, &err)) {
        sl_cli_msg(cmd, "%s", err.msg);
        code = 2;
        goto out;
    }
    if (info.note[0] && !o->quiet) sl_cli_msg(cmd, "%s", info.note); /* N-D, Fortran order, .npz member */
    if (o->have_dtype && dt != o->raw_dt) {
        sl_cli_msg(cmd, "'%s' holds %s values but --dtype %s was given", path, sl_dtype_name(dt),
                   sl_dtype_name(o->raw_dt));
        code = 2;
        goto out;
    }
    if (path2) {   /* a two-input operation's second file: the same length and format */
        uint64_t n2 = 0;
        sl_dtype dt2;
        sl_array_info info2;
        if (sl_array_load_ex(path2, o->have_dtype, o->raw_dt, &data2, &n2, &dt2, &info2, &err)) {
            sl_cli_msg(cmd, "%s", err.msg);
            code = 2;
            goto out;
        }
        if (dt2 != dt) {
            sl_cli_msg(cmd, "%s: '%s' holds %s values but '%s' holds %s values (the inputs of %s "
                       "must have one format)", o->op->name, path, sl_dtype_name(dt), path2,
                       sl_dtype_name(dt2), o->op->name);
            code = 2;
            goto out;
        }
        if (n2 != n) {
            sl_cli_msg(cmd, "%s: '%s' holds %llu values but '%s' holds %llu (the inputs of %s must "
                       "have one length)", o->op->name, path, (unsigned long long)n, path2,
                       (unsigned long long)n2, o->op->name);
            code = 2;
            goto out;
        }
        if (sl_cli_pairable(cmd, o->op->name, path, &info, path2, &info2)) {
            code = 2;
            goto out;
        }
    }
    const double t_open = now_s();
    char chosen[512];
    sl_session_opts so = {o->backend, o->offset, threads, NULL, 0, o->op, &o->params, data2};
    if (sl_session_open_opts(&s, data, n, dt, &so, chosen, sizeof chosen, &err)) {
        sl_cli_msg(cmd, "%s", err.msg);
        code = 1;
        goto out;
    }
    /* a variant named explicitly that cannot run here is a usage error, found before any run */
    if (explicit_list) {
        char why[1024] = "";
        size_t used = 0;
        for (size_t i = 0; i < nv; i++) {
            sl_err ce = {{0}};
            if (sl_session_can_run(s, order[i], &ce)) continue;
            int w = snprintf(why + used, sizeof why - used, "%s%s: %s", used ? "; " : "", order[i]->name, ce.msg);
            if (w > 0 && (size_t)w < sizeof why - used) used += (size_t)w;
        }
        if (used) {
            sl_cli_msg(cmd, "--variants: cannot run here (%s backend): %s",
                       sl_session_on_gpu(s) ? "gpu" : "cpu", why);
            code = 2;
            goto out;
        }
    }
    if (o->backend == SL_BACKEND_AUTO && !o->quiet) sl_cli_msg(cmd, "%s", chosen);
    const int on_gpu = sl_session_on_gpu(s);
    int check_twin = o->check_twin < 0 ? n <= TWIN_DEFAULT_MAX_N : o->check_twin;
    if (on_gpu && !check_twin && !o->quiet) sl_cli_msg(cmd, "twin check off (n > 2^24 or --no-check-twin)");
    t = sl_colset_table(cs);
    have_S = t && !sl_reference_exact_text(sl_session_reference(s), &S);
    if (!have_S) {
        sl_cli_msg(cmd, "out of memory");
        code = 1;
        goto out;
    }
    const double t_measure = now_s();
    double res[SUM_MAX_VARIANTS];
    int got[SUM_MAX_VARIANTS];
    int bad = sum_measure(s, order, nv, &o->req, (int)o->reps, check_twin, t, cs,
                          o->fmt == SL_OUT_TABLE ? 6 : 0, &S, o->quiet, NULL, res, got);
    const double t_end = now_s();
    if (o->times)
        sl_cli_msg(cmd, "times (%u threads): read %.3f s, reference%s %.3f s, variants "
                   "(runs, twins, judging) %.3f s", threads, t_open - t_read,
                   on_gpu ? " and upload" : "", t_measure - t_open, t_end - t_measure);
    int wrc = sl_table_write(t, o->fmt, stdout);
    if (!wrc && o->fmt == SL_OUT_TABLE && !shows_exact_sum(cs)) wrc = sl_cli_exact_block(stdout, &S, o->op->name);
    if (!wrc && o->fmt == SL_OUT_TABLE && !strcmp(o->op->name, "lse"))
        wrc = lse_block(s, order, nv, res, got, data);
    /* a write error: main() names the reason ("cannot write standard output: ...") */
    code = wrc || bad ? 1 : 0;
out:
    if (have_S) sl_exact_text_free(&S);
    sl_table_free(t);
    sl_session_close(s);
    free(data);
    free(data2);
    return code;
}

/* --axis: the file as rows along one axis (sl_array_rows: the axis moved to the last place on the
 * host when it is not), each row reduced and judged as a 1-D input of its own (its own session:
 * reference, upload), one output row per (row, variant) with the row's index. The exact value
 * of each row is in the exact/exact_sum_* columns (no block under the table). */
static int reduce_rows(const char *path, const char *path2, sum_opts *o, const sl_variant *const *order,
                       size_t nv, int explicit_list, const sl_colset *cs, unsigned threads)
{
    sl_err err = {{0}};
    sl_cli_rows R;
    sl_table *t = NULL;
    sl_table_parts parts;
    sl_table_parts_init(&parts, o->fmt);
    int code = 0, bad = 0, begun = 0;
    sl_io_set_threads(threads);
    if ((code = sl_cli_rows_load(cmd, o->op->name, path, path2, o->have_dtype, o->raw_dt, o->axis, &R))) goto out;
    const void *data = R.x, *data2 = R.y;
    const uint64_t rows = R.rows, N = R.n;
    const sl_dtype dt = R.dt;
    if (!o->quiet) {
        char shp[256];
        sl_cli_msg(cmd, "%s: shape %s reduced along axis %ld: %llu rows of %llu values%s", path,
                   sl_array_shape_text(&R.info, shp, sizeof shp), o->axis, (unsigned long long)rows,
                   (unsigned long long)N,
                   R.moved ? " (the axis is not the contiguous last one: moved there on the host, a copy)"
                         : "");
        if (path2 && R.shared)
            sl_cli_msg(cmd, "%s: one row of %llu values, paired with every row of '%s'", path2,
                       (unsigned long long)N, path);
        else if (path2)
            sl_cli_msg(cmd, "%s: the same shape, row i paired with row i of '%s'%s", path2, path,
                       R.moved_y ? " (its axis moved to the last place on the host, a copy)" : "");
    }
    t = sl_colset_table(cs);
    if (!t) {
        sl_cli_msg(cmd, "out of memory");
        code = 1;
        goto out;
    }
    /* Rows go out as they finish, ROWS_BATCH input rows at a time (memory: a batch's cells, not
     * every row's): CSV and JSON as one table in parts; the aligned table in tables of up to
     * ROWS_PAGE lines, each with its header (their widths need every line first). */
    const uint64_t batch = o->fmt == SL_OUT_TABLE ? (ROWS_PAGE / nv ? ROWS_PAGE / nv : 1) : ROWS_BATCH;   /* nv: exact's row too */
    const size_t es = sl_dtype_size(dt);
    for (uint64_t r = 0; r < rows; r++) {
        sl_session *s = NULL;
        char chosen[512];
        const void *xr = (const char *)data + r * N * es;
        const void *yr = data2 ? (const char *)data2 + (R.shared ? 0u : r * N * es) : NULL;
        sl_session_opts so = {o->backend, o->offset, threads, NULL, 0, o->op, &o->params, yr};
        if (sl_session_open_opts(&s, xr, N, dt, &so, chosen, sizeof chosen, &err)) {
            sl_cli_msg(cmd, "%s", err.msg);
            code = 1;
            goto out;
        }
        if (r == 0 && explicit_list) {   /* a variant named explicitly must run here: one line */
            char why[1024] = "";
            size_t used = 0;
            for (size_t i = 0; i < nv; i++) {
                sl_err ce = {{0}};
                if (sl_session_can_run(s, order[i], &ce)) continue;
                int w = snprintf(why + used, sizeof why - used, "%s%s: %s", used ? "; " : "", order[i]->name, ce.msg);
                if (w > 0 && (size_t)w < sizeof why - used) used += (size_t)w;
                code = 2;
            }
            if (code)
                sl_cli_msg(cmd, "--variants: cannot run here (%s backend): %s",
                           sl_session_on_gpu(s) ? "gpu" : "cpu", why);
        }
        if (r == 0 && !code && o->backend == SL_BACKEND_AUTO && !o->quiet) sl_cli_msg(cmd, "%s", chosen);
        if (code) {
            sl_session_close(s);
            goto out;
        }
        const int check_twin = o->check_twin < 0 ? N <= TWIN_DEFAULT_MAX_N : o->check_twin;
        sl_record_extra x;
        sl_record_extra_init(&x);
        x.row = (int64_t)r;
        sl_exact_text S = {0};
        if (sl_reference_exact_text(sl_session_reference(s), &S)) {
            sl_session_close(s);
            sl_cli_msg(cmd, "out of memory");
            code = 1;
            goto out;
        }
        /* skipped variants are said once, for row 0 */
        bad |= sum_measure(s, order, nv, &o->req, (int)o->reps, check_twin, t, cs,
                           o->fmt == SL_OUT_TABLE ? 6 : 0, &S, o->quiet || r > 0, &x, NULL, NULL);
        sl_exact_text_free(&S);
        sl_session_close(s);
        if ((r + 1) % batch && r + 1 < rows) continue;
        if (sl_cli_rows_flush(t, &parts, o->fmt, r, rows, batch, &begun)) {
            /* main() names the reason ("cannot write standard output: ...") */
            code = 1;
            goto out;
        }
    }
    if (rows == 0 && sl_table_write(t, o->fmt, stdout)) code = 1;   /* the header alone */
    else code = bad ? 1 : 0;
out:
    sl_table_parts_free(&parts);
    sl_table_free(t);
    sl_cli_rows_free(&R);
    return code;
}

/* `reduce` and `sum`: one body; name says which in messages. Parses, then reduce_file (or the
 * MPI path). */
static int reduce_main(const char *name, int argc, char **argv)
{
    cmd = name;
    sum_opts o;
    memset(&o, 0, sizeof o);
    o.op = sl_op_default();
    o.params = sl_op_params_default();
    o.vlist = "all";
    o.backend = SL_BACKEND_AUTO;
    o.reps = 3;
    o.fmt = SL_OUT_TABLE;
    o.check_twin = -1;
    o.raw_dt = SL_F32;
    const char *times = getenv("SUMLAB_TIMES");   /* the CLI reads the environment, not the body */
    o.times = times && *times && strcmp(times, "0");
    int code = sum_getopt(argc, argv, &o);
    if (code < 0) code = sl_cli_ddof_check(cmd, &o.params, o.op);
    if (code >= 0) return code;
    sl_err err = {{0}};
    if (optind >= argc) {
        sl_cli_msg(cmd, "missing input FILE (.npy or raw; see 'sumlab %s --help')", cmd);
        return 2;
    }
    if (argc - optind > o.op->inputs) {
        sl_cli_msg(cmd, "unexpected argument '%s' (%s reads %d file%s)", argv[optind + o.op->inputs],
                   o.op->name, o.op->inputs, o.op->inputs > 1 ? "s" : "");
        return 2;
    }
    if (argc - optind < o.op->inputs) {
        sl_cli_msg(cmd, "%s reads %d files: FILE2 is missing", o.op->name, o.op->inputs);
        return 2;
    }
    const char *path = argv[optind];
    unsigned threads = 1;
    if (sl_threads_choose(o.threads_s, &threads, &err)) {
        sl_cli_msg(cmd, "%s", err.msg);
        return 2;
    }
    const sl_variant *order[SUM_MAX_VARIANTS];
    size_t nv = 0;
    int explicit_list = 0;
    if (sum_variants(o.op, o.vlist, order, &nv, &explicit_list)) return 2;
    const int mpi = o.combine || sl_mpi_launched();
    sl_colset cs;
    if (sum_columns(o.columns, o.fmt, mpi, o.have_axis, &cs)) return 2;
    if (mpi && o.have_axis) {
        sl_cli_msg(cmd, "--axis is not supported across MPI ranks");
        return 2;
    }
    if (mpi && o.op->inputs != 1) {
        sl_cli_msg(cmd, "%s reads two files: no MPI path (run it in one process)", o.op->name);
        return 2;
    }
    /* the ranks' path combines sums (partials, states, limbs) and judges them against the exact
     * sum: another operation's result would be a sum under its name */
    if (mpi && strcmp(o.op->name, "sum")) {
        sl_cli_msg(cmd, "--op %s: the MPI path combines sums only (run %s in one process)", o.op->name, o.op->name);
        return 2;
    }
    const char *path2 = o.op->inputs == 2 ? argv[optind + 1] : NULL;
    if (mpi) return sum_mpi(path, &o, order, nv, &cs);
    if (o.have_axis) return reduce_rows(path, path2, &o, order, nv, explicit_list, &cs, threads);
    return reduce_file(path, path2, &o, order, nv, explicit_list, &cs, threads);
}

int sl_cmd_reduce(int argc, char **argv) { return reduce_main("reduce", argc, argv); }
int sl_cmd_sum(int argc, char **argv) { return reduce_main("sum", argc, argv); }

/* exp_ranks.c: `sumlab run ranks` under mpirun: for K = 1 .. P (sub-communicators of the first K
 * ranks), every variant x combine strategy x a few datasets generated in place (each rank its
 * slice): result bits, error against the exact sum, timing of the local sum and the combine next
 * to an MPI_Allreduce of one double. `--algorithm N` (experiments/ranks.sh passes each of Open
 * MPI's allreduce algorithms in its own mpirun) adds mpi-sum rows under that forced algorithm.
 * With NCCL and a GPU per rank (device: local rank modulo the visible devices) also nccl-sum
 * (plain ncclAllReduce of the partials) and nccl-limbs (the states' integer limbs) rows, under
 * the run's NCCL_ALGO (`--nccl`: those rows only, experiments/ranks.sh passes each algorithm), and
 * each row's aggregate throughput next to the sum over the ranks of each GPU's read ceiling
 * measured in the same run (K x the one-GPU ceiling).
 * Rank 0 appends rows to DIR/results.csv, then rewrites DIR/report.md and the chart. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "check.h"
#include "sl_datasets.h"
#include "sl_format.h"
#include "sl_mpi_impl.h"
#include "sl_report.h"
#include "sl_results.h"
#include "sl_state.h"
#include "sl_study.h"

#define CMD "run ranks"

static const char *const COLS[] = {
    "experiment", "dataset", "params", "dtype", "n", "variant", "config", "ranks", "combine",
    "algorithm", "backend", "status", "result_hex", "result", "exact_hex", "abs_err", "rel_err",
    "ulps", "distinct_reps", "rank_distinct", "local_ms_max", "local_ms_min", "combine_ms",
    "allreduce1_ms", "twin_match", "note", "op", "agg_gbps", "ceiling_gbps"};
#define NCOLS (sizeof COLS / sizeof COLS[0])

typedef struct {
    const char *dataset, *param;   /* param "k=v" or NULL */
    sl_dtype dt;
} ranks_input;
static const ranks_input INPUTS[] = {
    {"uniform", NULL, SL_F32},
    {"ill-conditioned", "cond=1e8", SL_F64},
    {"log-uniform", NULL, SL_F32},
    {"uniform-sym", NULL, SL_F16},   /* a 16-bit all-reduce: every combine's add rounded to float16 */
};
#define NINPUTS (sizeof INPUTS / sizeof INPUTS[0])

/* Plain decimal whole numbers (the CLI's parsers live above this library). */
static int parse_u64(const char *s, uint64_t *out, sl_err *err)
{
    char *end = NULL;
    errno = 0;
    if (!s || !*s || *s == '-') return sl_err_set(err, "'%s' is not a whole number", s ? s : "");
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return sl_err_set(err, "'%s' is not a whole number", s);
    *out = v;
    return 0;
}
static int parse_int(const char *s, long lo, long hi, long *out, sl_err *err)
{
    uint64_t v = 0;
    if (parse_u64(s, &v, err) || (long)v < lo || v > (uint64_t)hi)
        return sl_err_set(err, "'%s' is not a whole number in %ld..%ld", s, lo, hi);
    *out = (long)v;
    return 0;
}

static void usage(FILE *f)
{
    fputs("usage: mpirun -np P sumlab run ranks -o DIR [--preset tiny|quick|full] [--backend auto|cpu|gpu]\n"
          "                   [--seed S] [--reps R] [--algorithm N] [--nccl] [--n N | --per-rank N]\n"
          "                   [--quiet]\n\n"
          "For K = 1 .. P ranks, every variant x combine strategy (mpi-sum, ordered, state, limbs;\n"
          "with NCCL and GPUs also nccl-sum, nccl-limbs) x a few\n"
          "datasets: result bits, error against the exact sum, distinct results over K, the local sum's\n"
          "and the combine's time next to an MPI_Allreduce of one double. Rows are appended to\n"
          "DIR/results.csv; DIR/report.md and DIR/charts/ranks_*.png are rewritten.\n"
          "  --algorithm N   mpi-sum rows only, under Open MPI's allreduce algorithm N (coll_tuned:\n"
          "                  1 basic linear, 2 nonoverlapping, 3 recursive doubling, 4 ring,\n"
          "                  5 segmented ring, 6 rabenseifner), set before MPI_Init; one mpirun per\n"
          "                  algorithm: experiments/ranks.sh runs them all\n"
          "  --nccl          the NCCL rows only (nccl-sum, nccl-limbs) under the run's NCCL_ALGO\n"
          "                  (experiments/ranks.sh --nccl runs Ring and Tree); NCCL rows need a build\n"
          "                  with NCCL and a GPU per rank (device = local rank % visible devices)\n"
          "  --n N           N elements in all (a fixed total: each K splits it), instead of the preset's\n"
          "  --per-rank N    N elements per rank (the total grows with K: K x N)\n"
          "Columns agg_gbps (input bytes / (slowest local sum + combine)) and ceiling_gbps (the sum\n"
          "over the ranks of each GPU's streaming-read ceiling on its slice, same run; GPU only).\n", f);
}

typedef struct {
    const char *dir;
    sl_preset preset;
    int have_preset;
    sl_backend backend;
    uint64_t seed;
    long reps;
    int algorithm;             /* 0: the library's choice */
    int quiet;
    int nccl_only;             /* --nccl */
    uint64_t n_total, n_per_rank;   /* --n, --per-rank (0: the preset's n) */
} ranks_opts;

static int parse(int argc, char **argv, ranks_opts *o)
{
    static const struct option lo[] = {
        {"output", required_argument, NULL, 'o'}, {"preset", required_argument, NULL, 'p'},
        {"backend", required_argument, NULL, 'b'}, {"seed", required_argument, NULL, 's'},
        {"reps", required_argument, NULL, 'R'},    {"algorithm", required_argument, NULL, 'A'},
        {"quiet", no_argument, NULL, 'q'},         {"help", no_argument, NULL, 'h'},
        {"nccl", no_argument, NULL, 'N'},          {"n", required_argument, NULL, 'n'},
        {"per-rank", required_argument, NULL, 'P'},
        {NULL, 0, NULL, 0}};
    sl_err e = {{0}};
    long v = 0;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:qh", lo, NULL)) != -1) {
        switch (c) {
        case 'o': o->dir = optarg; break;
        case 'p':
            if (sl_preset_parse(optarg, &o->preset)) { fprintf(stderr, "sumlab %s: unknown preset '%s'\n", CMD, optarg); return 2; }
            o->have_preset = 1;
            break;
        case 'b':
            if (sl_backend_parse(optarg, &o->backend)) { fprintf(stderr, "sumlab %s: unknown backend '%s'\n", CMD, optarg); return 2; }
            break;
        case 's':
            if (parse_u64(optarg, &o->seed, &e)) { fprintf(stderr, "sumlab %s: --seed: %s\n", CMD, e.msg); return 2; }
            break;
        case 'R':
            if (parse_int(optarg, 1, 1000, &o->reps, &e)) { fprintf(stderr, "sumlab %s: --reps: %s\n", CMD, e.msg); return 2; }
            break;
        case 'A':
            if (parse_int(optarg, 0, 6, &v, &e)) { fprintf(stderr, "sumlab %s: --algorithm: %s (0..6)\n", CMD, e.msg); return 2; }
            o->algorithm = (int)v;
            break;
        case 'q': o->quiet = 1; break;
        case 'N': o->nccl_only = 1; break;
        case 'n':
        case 'P': {
            uint64_t u = 0;
            if (parse_u64(optarg, &u, &e) || u == 0 || u > ((uint64_t)1 << 40)) {
                fprintf(stderr, "sumlab %s: --%s: '%s' is not a count in 1..2^40\n", CMD, c == 'n' ? "n" : "per-rank", optarg);
                return 2;
            }
            if (c == 'n') o->n_total = u;
            else o->n_per_rank = u;
            break;
        }
        case 'h': usage(stdout); return 0;
        default: fprintf(stderr, "sumlab %s: bad option '%s' (see --help)\n", CMD, argv[optind - 1]); return 2;
        }
    }
    if (optind < argc && !strcmp(argv[optind], "ranks")) optind++;
    if (optind < argc) { fprintf(stderr, "sumlab %s: unexpected argument '%s'\n", CMD, argv[optind]); return 2; }
    if (!o->dir) { fprintf(stderr, "sumlab %s: -o DIR is needed (every mpirun pass appends to it)\n", CMD); return 2; }
    if (o->n_total && o->n_per_rank) { fprintf(stderr, "sumlab %s: --n and --per-rank exclude each other\n", CMD); return 2; }
    if (o->nccl_only && o->algorithm) { fprintf(stderr, "sumlab %s: --nccl and --algorithm exclude each other\n", CMD); return 2; }
    return -1;
}

/* ---- rank 0's files ----------------------------------------------------------------------- */
/* Row i's K (its ranks field): decimal digits 1 .. RANKS_MAX as rank 0 writes them, else 0. A
 * damaged file's 99999999999 is no K: atoi of it is undefined, and a K near INT_MAX would
 * overflow the report's loops over K. */
#define RANKS_MAX 65536
static int ranks_of(const sl_csv *t, size_t i, int ck)
{
    const char *s = sl_csv_get(t, i, ck);
    long v = 0;
    for (; *s >= '0' && *s <= '9' && v <= RANKS_MAX; s++) v = v * 10 + (*s - '0');
    return *s || v > RANKS_MAX ? 0 : (int)v;
}

static FILE *open_results(const char *dir, sl_keyset *keys, sl_err *err)
{
    char path[SL_DIR_MAX + 64];
    /* the directory's name as every run's (SL_DIR_MAX): a longer one cut its files' names, and
     * report.md then overwrote the rows */
    if (sl_check_dir_len(dir, err)) return NULL;
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') { *p = 0; mkdir(path, 0777); *p = '/'; }
    if (mkdir(path, 0777) && errno != EEXIST) { sl_err_set(err, "cannot create '%s': %s", dir, strerror(errno)); return NULL; }
    if (sl_path_join(path, sizeof path, dir, "results.csv", err)) return NULL;
    struct stat st;
    int exists = !stat(path, &st) && st.st_size > 0;
    if (exists) {
        sl_csv t;
        if (sl_csv_read(path, &t, NULL, err)) return NULL;
        if (t.ncols != (int)NCOLS || strcmp(t.header[7], "ranks")) {
            sl_csv_free(&t);
            sl_err_set(err, "'%s' is not a ranks results file", path);
            return NULL;
        }
        for (size_t r = 0; r < t.nrows; r++)
            if (!ranks_of(&t, r, 7)) {
                char v[24];
                snprintf(v, sizeof v, "%.20s", sl_csv_get(&t, r, 7));
                sl_csv_free(&t);
                sl_err_set(err, "'%s': data row %zu: ranks '%s' is not a rank count (1 to %d)", path, r + 1, v,
                           RANKS_MAX);
                return NULL;
            }
        char key[SL_KEY_LEN];
        for (size_t r = 0; r < t.nrows; r++)
            if (!sl_csv_key(&t, r, key, sizeof key)) sl_keyset_add(keys, key);
        sl_csv_free(&t);
    }
    FILE *f = fopen(path, "a");
    if (!f) { sl_err_set(err, "cannot open '%s': %s", path, strerror(errno)); return NULL; }
    if (!exists) {
        for (size_t i = 0; i < NCOLS; i++) fprintf(f, "%s%s", COLS[i], i + 1 < NCOLS ? "," : "\n");
        fflush(f);
    }
    return f;
}

static void fmt_num(char *b, size_t len, double v)
{
    if (isnan(v)) b[0] = 0;
    else snprintf(b, len, "%.17g", v);
}

static void write_row(FILE *f, const char *const key[SL_KEY_FIELDS], const sl_mpi_row *m, const char *alg,
                      const sl_reference *ref, const char *note, double ceiling_gbps)
{
    const sl_row *r = &m->row;
    char hex[SL_FMT_LEN], res[SL_FMT_LEN], ex[SL_FMT_LEN], a[64], b[64], c[64], d[64], e[64], g[64], h[64];
    char ag[64], cg[64];
    const double t_ms = m->local_ms_max + m->combine_ms;
    fmt_num(ag, sizeof ag, t_ms > 0 ? (double)r->n * (double)sl_dtype_size(r->dt) / (t_ms * 1e6) : NAN);
    fmt_num(cg, sizeof cg, ceiling_gbps);
    int ok = r->judged;
    fmt_num(a, sizeof a, r->err.abs_err);
    fmt_num(b, sizeof b, r->err.rel_err);
    fmt_num(c, sizeof c, r->err.ulps);
    fmt_num(d, sizeof d, m->local_ms_max);
    fmt_num(e, sizeof e, m->local_ms_min);
    fmt_num(g, sizeof g, m->combine_ms);
    fmt_num(h, sizeof h, m->allreduce1_ms);
    fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%llu,%llu,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
            key[1], key[2], key[3], key[4], key[5], key[6], key[7], m->ranks,
            sl_combine_name(m->combine), alg, r->backend, ok ? "ok" : "skipped",
            ok ? sl_fmt_hex(hex, sizeof hex, r->result) : "",
            ok ? sl_fmt_result(res, sizeof res, r->result, r->dt) : "",
            sl_fmt_hex(ex, sizeof ex, ref->rounded), ok ? a : "", ok ? b : "", ok ? c : "",
            (unsigned long long)(ok ? r->distinct : 0), (unsigned long long)m->rank_distinct,
            ok ? d : "", ok ? e : "", ok ? g : "", ok ? h : "",
            !r->twin_checked ? "" : r->twin_match ? "true" : "false", note ? note : "", key[0], ok ? ag : "", cg);
    fflush(f);
}

/* ---- one K, one input ---------------------------------------------------------------------- */
static int run_input(MPI_Comm sub, int K, const ranks_input *ri, const ranks_opts *o, uint64_t n,
                     int reps, FILE *f, sl_keyset *keys, int *rows, sl_err *err)
{
    sl_mpi_input in;
    memset(&in, 0, sizeof in);
    in.comm = sub;
    SL_MPI_CK(MPI_Comm_rank(sub, &in.rank));
    in.size = K;
    in.n = n;
    in.dt = ri->dt;
    sl_mpi_slice(n, K, in.rank, &in.lo, &in.len);
    const sl_dataset *ds = sl_dataset_find(ri->dataset);
    sl_params p;
    int rc = 0;
    void *x = NULL;
    if (!ds) rc = SL_FAIL1(err, "unknown dataset '%s'", ri->dataset);
    else {
        sl_params_defaults(ds, &p);
        if (ri->param && sl_params_set(ds, &p, ri->param, err)) rc = 1;
    }
    if (!rc && !(x = malloc(in.len ? in.len * sl_dtype_size(ri->dt) : 1))) rc = SL_FAIL1(err, "out of memory");
    if (!rc && sl_dataset_generate(ds, ri->dt, o->seed, n, &p, in.lo, in.len, x, err)) rc = 1;
    if ((rc = sl_mpi_agree(sub, rc, err))) { free(x); return rc; }
    in.x = x;
    char msg[512];
    if ((rc = sl_mpi_input_open(&in, o->backend, 0, msg, sizeof msg, err))) { free(x); return rc; }
    /* every rank on a GPU: the NCCL communicator (with NCCL), and each GPU's read ceiling on its
     * slice, summed over the ranks (K x the one-GPU ceiling, in the same run) */
    int gpu = sl_session_on_gpu(in.s), all_gpu = 0;
    SL_MPI_CK(MPI_Allreduce(&gpu, &all_gpu, 1, MPI_INT, MPI_MIN, sub));
    double ceiling = NAN;
    if (all_gpu) {
        sl_row cr;
        double mine = 0, sum = 0;
        int crc = sl_measure_read_ceiling(x, in.len, ri->dt, reps, &cr, err) ? 1 : 0;
        if (!crc) {
            mine = cr.gbps;
            sl_row_free(&cr);
        }
        if ((rc = sl_mpi_agree(sub, crc, err))) { sl_mpi_input_close(&in); free(x); return rc; }
        SL_MPI_CK(MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, sub));
        ceiling = sum;
        if (sl_nccl_compiled() && (rc = sl_nccl_open(sub, &in.nccl, err))) { sl_mpi_input_close(&in); free(x); return rc; }
    }
    sl_rowctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.ds = ds;
    sl_rowctx_params(&ctx, ds, &p);
    char nb[32];
    snprintf(nb, sizeof nb, "%llu", (unsigned long long)n);
    char alg[16], nalg[48];
    snprintf(alg, sizeof alg, o->algorithm ? "tuned:%d" : "default", o->algorithm);
    /* NCCL rows: NCCL_ALGO as set for this run ("default" when unset) */
    snprintf(nalg, sizeof nalg, strcmp(sl_nccl_algo(), "default") ? "nccl:%.40s" : "%.40s", sl_nccl_algo());
    sl_launch req;
    memset(&req, 0, sizeof req);
    req.order_seed = o->seed;
    for (size_t i = 0; i < sl_variant_count() && !rc; i++) {
        const sl_variant *v = sl_variant_at(i);
        if (sl_op_of(v) != sl_op_default()) continue;     /* the ranks experiment sums */
        for (int c = 0; c < SL_COMBINE_COUNT && !rc; c++) {
            if (o->algorithm && c != SL_COMBINE_MPI_SUM) continue;
            if (o->nccl_only && !sl_combine_is_nccl((sl_combine)c)) continue;
            if (sl_combine_is_nccl((sl_combine)c) && !in.nccl) continue;   /* no NCCL or no GPUs */
            if (sl_combine_is_state((sl_combine)c) && !sl_state_kind_find(v->name)) continue;
            const char *ca = sl_combine_is_nccl((sl_combine)c) ? nalg : alg;
            char config[96];
            snprintf(config, sizeof config, "K%d:%s:%s", K, sl_combine_name((sl_combine)c), ca);
            const char *key[SL_KEY_FIELDS] = {v->op, "ranks", ds->name, ctx.params, sl_dtype_name(ri->dt), nb, v->name, config};
            char kb[SL_KEY_LEN];
            int have = 0;
            if (in.rank == 0 && !sl_row_key(kb, sizeof kb, key)) have = sl_keyset_has(keys, kb);
            SL_MPI_CK(MPI_Bcast(&have, 1, MPI_INT, 0, sub));
            if (have) continue;
            sl_mpi_row m;
            sl_err e = {{0}};
            int mr = sl_mpi_measure(&in, v, (sl_combine)c, &req, reps, 1, &m, &e);
            if (mr > 1 || mr < 0) { *err = e; rc = mr == SL_MPI_FAILED ? 1 : mr; break; }
            if (in.rank == 0) {
                write_row(f, key, &m, ca, &in.ref, mr == 1 ? e.msg : NULL, ceiling);
                sl_keyset_add(keys, kb);
                (*rows)++;
            }
            if (mr == 0) sl_row_free(&m.row);
        }
    }
    sl_nccl_close(in.nccl);
    in.nccl = NULL;
    sl_mpi_input_close(&in);
    free(x);
    return rc;
}

/* ---- the report (rank 0; from results.csv alone) --------------------------------------------- */
static int same_group(const sl_csv *t, size_t a, size_t b, const int *cols, int ncols)
{
    for (int i = 0; i < ncols; i++)
        if (strcmp(sl_csv_get(t, a, cols[i]), sl_csv_get(t, b, cols[i]))) return 0;
    return 1;
}

/* Distinct values of column vcol among the rows of t that agree with row r on cols and pass
 * `keep` (1 = count). */
static int distinct_in(const sl_csv *t, size_t r, const int *cols, int ncols, int vcol,
                       int (*keep)(const sl_csv *, size_t, void *), void *ctx, int *nrows)
{
    int d = 0;
    *nrows = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        if (!same_group(t, r, i, cols, ncols) || !keep(t, i, ctx) || !*sl_csv_get(t, i, vcol)) continue;
        (*nrows)++;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            if (same_group(t, r, j, cols, ncols) && keep(t, j, ctx) &&
                !strcmp(sl_csv_get(t, i, vcol), sl_csv_get(t, j, vcol)))
                seen = 1;
        d += !seen;
    }
    return d;
}
static int keep_default(const sl_csv *t, size_t i, void *ctx)
{
    (void)ctx;
    return !strcmp(sl_csv_get(t, i, sl_csv_col(t, "algorithm")), "default");
}
static int keep_maxk(const sl_csv *t, size_t i, void *ctx)
{
    return !strcmp(sl_csv_get(t, i, sl_csv_col(t, "combine")), "mpi-sum") &&
           ranks_of(t, i, sl_csv_col(t, "ranks")) == *(int *)ctx;
}

static int write_report(const char *dir, int P, sl_notes *notes, sl_err *err)
{
    char path[SL_DIR_MAX + 64];
    if (sl_path_join(path, sizeof path, dir, "results.csv", err)) return -1;
    sl_csv t;
    if (sl_csv_read(path, &t, NULL, err)) return -1;
    static const char *const named[] = {"dataset", "dtype", "variant", "combine", "algorithm"};
    for (size_t c = 0; c < sizeof named / sizeof *named; c++) {
        const int col = sl_csv_col(&t, named[c]);
        for (size_t r = 0; col >= 0 && r < t.nrows; r++)
            if (!sl_check_name(sl_csv_get(&t, r, col), 64, NULL)) {   /* (as the run's report checks names) */
                sl_csv_free(&t);
                return sl_err_set(err, "'%s': data row %zu: field '%s' is not a name sumlab writes (letters, digits "
                                       "and . _ : = + -)", path, r + 1, named[c]);
            }
    }
    if (sl_path_join(path, sizeof path, dir, "report.md", err)) { sl_csv_free(&t); return -1; }
    FILE *f = fopen(path, "w");
    if (!f) { sl_csv_free(&t); return sl_err_set(err, "cannot write '%s': %s", path, strerror(errno)); }
    int cds = sl_csv_col(&t, "dataset"), cdt = sl_csv_col(&t, "dtype"), cv = sl_csv_col(&t, "variant");
    int ccomb = sl_csv_col(&t, "combine"), ck = sl_csv_col(&t, "ranks"), chex = sl_csv_col(&t, "result_hex");
    int culps = sl_csv_col(&t, "ulps"), calg = sl_csv_col(&t, "algorithm"), cn = sl_csv_col(&t, "n");
    int cst = sl_csv_col(&t, "status");
    int maxk = 0;
    for (size_t i = 0; i < t.nrows; i++) if (ranks_of(&t, i, ck) > maxk) maxk = ranks_of(&t, i, ck);
    fprintf(f, "# Sums across ranks (`ranks` experiment)\n\n"
               "Each of K ranks sums one contiguous slice (generated in place) with the variant (its GPU "
               "or CPU twin); the partial results combine by **mpi-sum** (MPI_Allreduce, MPI_SUM), "
               "**ordered** (gathered, added in rank order on rank 0) or **state** (the accumulator "
               "states of superacc, reproducible and exact merged exactly by a user-defined commutative "
               "MPI_Op). "
               "K = 1 .. %d (sub-communicators of MPI_COMM_WORLD, P = %d in the last pass).\n\n", maxk, P);
    /* 1: distinct results over K, and the error in ulps for each K */
    fputs("## Distinct results over K\n\nError in ulps of the exact sum for each K (library-chosen "
          "allreduce algorithm); `distinct` counts the distinct result bit patterns over K.\n\n", f);
    int gcols[4] = {cds, cdt, cv, ccomb};
    for (size_t i = 0; i < t.nrows; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            if (same_group(&t, i, j, gcols, 2)) first = 0;
        if (!first) continue;
        fprintf(f, "### %s, %s, n = %s\n\n| variant | combine | distinct over K |", sl_csv_get(&t, i, cds),
                sl_csv_get(&t, i, cdt), sl_csv_get(&t, i, cn));
        for (int k = 1; k <= maxk; k++) fprintf(f, " K=%d |", k);
        fputs("\n|---|---|---|", f);
        for (int k = 1; k <= maxk; k++) fputs("---|", f);
        fputc('\n', f);
        for (size_t a = 0; a < t.nrows; a++) {
            if (!same_group(&t, i, a, gcols, 2) || !keep_default(&t, a, NULL)) continue;
            int dup = 0;
            for (size_t b = 0; b < a && !dup; b++)
                if (same_group(&t, a, b, gcols, 4) && keep_default(&t, b, NULL)) dup = 1;
            if (dup) continue;
            int nr = 0, d = distinct_in(&t, a, gcols, 4, chex, keep_default, NULL, &nr);
            if (!nr) continue;   /* skipped everywhere */
            fprintf(f, "| %s | %s | %d%s |", sl_csv_get(&t, a, cv), sl_csv_get(&t, a, ccomb), d,
                    d == 1 ? " (bit-identical)" : "");
            for (int k = 1; k <= maxk; k++) {
                const char *u = "";
                for (size_t b = 0; b < t.nrows; b++)
                    if (same_group(&t, a, b, gcols, 4) && keep_default(&t, b, NULL) &&
                        ranks_of(&t, b, ck) == k && !strcmp(sl_csv_get(&t, b, cst), "ok"))
                        u = sl_csv_get(&t, b, culps);
                double uv = strtod(u, NULL);
                if (*u) fprintf(f, " %.3g |", uv);
                else fputs(" |", f);
            }
            fputc('\n', f);
        }
        fputc('\n', f);
    }
    /* 2: mpi-sum under each allreduce algorithm at K = maxk */
    fprintf(f, "## mpi-sum under each allreduce algorithm (K = %d)\n\n", maxk);
    int have_alg = 0;
    for (size_t i = 0; i < t.nrows; i++) if (strcmp(sl_csv_get(&t, i, calg), "default")) have_alg = 1;
    if (!have_alg) {
        fputs("No forced-algorithm rows: run `experiments/ranks.sh` (one mpirun per Open MPI "
              "`coll_tuned` allreduce algorithm).\n\n", f);
    } else {
        fputs("| dataset | dtype | variant | algorithms | distinct over algorithms |\n|---|---|---|---|---|\n", f);
        int acols[3] = {cds, cdt, cv};
        for (size_t a = 0; a < t.nrows; a++) {
            if (!keep_maxk(&t, a, &maxk) || strcmp(sl_csv_get(&t, a, cst), "ok")) continue;
            int dup = 0;
            for (size_t b = 0; b < a && !dup; b++)
                if (same_group(&t, a, b, acols, 3) && keep_maxk(&t, b, &maxk) && !strcmp(sl_csv_get(&t, b, cst), "ok")) dup = 1;
            if (dup) continue;
            int nr = 0, d = distinct_in(&t, a, acols, 3, chex, keep_maxk, &maxk, &nr);
            fprintf(f, "| %s | %s | %s | %d | %d |\n", sl_csv_get(&t, a, cds), sl_csv_get(&t, a, cdt),
                    sl_csv_get(&t, a, cv), nr, d);
        }
        fputc('\n', f);
    }
    /* NCCL: the rows under each NCCL_ALGO at K = maxk, and the aggregate throughput */
    int have_nccl = 0;
    for (size_t i = 0; i < t.nrows; i++) if (!strncmp(sl_csv_get(&t, i, ccomb), "nccl-", 5)) have_nccl = 1;
    if (have_nccl) {
        fprintf(f, "## NCCL combines under each NCCL_ALGO (K = %d)\n\n"
                   "nccl-sum: ncclAllReduce (ncclSum) of the partial results; nccl-limbs: the states' "
                   "integer limbs (ncclMax, ncclSum on int64). `distinct` over the algorithms run "
                   "(experiments/ranks.sh --nccl: one mpirun per NCCL_ALGO).\n\n"
                   "| dataset | dtype | variant | combine | algorithms | distinct |\n|---|---|---|---|---|---|\n", maxk);
        int ncols4[4] = {cds, cdt, cv, ccomb};
        for (size_t a = 0; a < t.nrows; a++) {
            if (strncmp(sl_csv_get(&t, a, ccomb), "nccl-", 5) || ranks_of(&t, a, ck) != maxk ||
                strcmp(sl_csv_get(&t, a, cst), "ok"))
                continue;
            int dup = 0;
            for (size_t b = 0; b < a && !dup; b++)
                if (same_group(&t, a, b, ncols4, 4) && ranks_of(&t, b, ck) == maxk &&
                    !strcmp(sl_csv_get(&t, b, cst), "ok"))
                    dup = 1;
            if (dup) continue;
            int nr = 0, d = 0;
            for (size_t b = 0; b < t.nrows; b++) {
                if (!same_group(&t, a, b, ncols4, 4) || ranks_of(&t, b, ck) != maxk ||
                    strcmp(sl_csv_get(&t, b, cst), "ok"))
                    continue;
                nr++;
                int seen = 0;
                for (size_t q = 0; q < b && !seen; q++)
                    if (same_group(&t, b, q, ncols4, 4) && ranks_of(&t, q, ck) == maxk &&
                        !strcmp(sl_csv_get(&t, q, cst), "ok") && !strcmp(sl_csv_get(&t, q, chex), sl_csv_get(&t, b, chex)))
                        seen = 1;
                d += !seen;
            }
            fprintf(f, "| %s | %s | %s | %s | %d | %d |\n", sl_csv_get(&t, a, cds), sl_csv_get(&t, a, cdt),
                    sl_csv_get(&t, a, cv), sl_csv_get(&t, a, ccomb), nr, d);
        }
        fputc('\n', f);
    }
    int cag = sl_csv_col(&t, "agg_gbps"), ccg = sl_csv_col(&t, "ceiling_gbps");
    int have_ceiling = 0;
    for (size_t i = 0; i < t.nrows; i++) if (*sl_csv_get(&t, i, ccg)) have_ceiling = 1;
    if (have_ceiling) {
        fputs("## Aggregate throughput against K x the one-GPU read ceiling\n\n"
              "agg: the whole input's bytes / (slowest rank's local sum + combine); ceiling: the sum "
              "over the ranks of each GPU's streaming-read ceiling on its slice (same run). "
              "vec4 and reproducible, library-chosen algorithms.\n\n"
              "| dataset | dtype | n | K | variant | combine | agg GB/s | ceiling GB/s | ratio |\n"
              "|---|---|---|---|---|---|---|---|---|\n", f);
        for (size_t i = 0; i < t.nrows; i++) {
            const char *v = sl_csv_get(&t, i, cv);
            if ((strcmp(v, "vec4") && strcmp(v, "reproducible")) || !keep_default(&t, i, NULL) ||
                strcmp(sl_csv_get(&t, i, cst), "ok") || !*sl_csv_get(&t, i, ccg) || !*sl_csv_get(&t, i, cag))
                continue;
            double ag = sl_csv_num(&t, i, cag), cg = sl_csv_num(&t, i, ccg);
            fprintf(f, "| %s | %s | %s | %s | %s | %s | %.4g | %.4g | %.3f |\n", sl_csv_get(&t, i, cds),
                    sl_csv_get(&t, i, cdt), sl_csv_get(&t, i, cn), sl_csv_get(&t, i, ck), v,
                    sl_csv_get(&t, i, ccomb), ag, cg, cg > 0 ? ag / cg : NAN);
        }
        fputc('\n', f);
    }
    /* 3: timing per K: medians over the variants' rows */
    fputs("## Timing (ms; medians over the rows of each K and strategy)\n\n"
          "local: the slowest rank's local sum (median over reps); combine: the combine step "
          "(slowest rank); allreduce(1 double): MPI_Allreduce of one double in the same run.\n\n"
          "| K | combine | rows | local max | combine | allreduce(1 double) | combine / allreduce |\n"
          "|---|---|---|---|---|---|---|\n", f);
    int cl = sl_csv_col(&t, "local_ms_max"), cc = sl_csv_col(&t, "combine_ms"), ca = sl_csv_col(&t, "allreduce1_ms");
    double *vl = malloc(t.nrows * sizeof *vl + 1), *vc = malloc(t.nrows * sizeof *vc + 1), *va = malloc(t.nrows * sizeof *va + 1);
    for (int k = 1; k <= maxk && vl && vc && va; k++)
        for (int c = 0; c < SL_COMBINE_COUNT; c++) {
            size_t m = 0;
            for (size_t i = 0; i < t.nrows; i++) {
                if (ranks_of(&t, i, ck) != k || strcmp(sl_csv_get(&t, i, ccomb), sl_combine_name((sl_combine)c)) ||
                    !keep_default(&t, i, NULL) || strcmp(sl_csv_get(&t, i, cst), "ok"))
                    continue;
                vl[m] = sl_csv_num(&t, i, cl);
                vc[m] = sl_csv_num(&t, i, cc);
                va[m] = sl_csv_num(&t, i, ca);
                m++;
            }
            if (!m) continue;
            double ml = sl_median(vl, m), mc = sl_median(vc, m), ma = sl_median(va, m);
            fprintf(f, "| %d | %s | %zu | %.4g | %.4g | %.4g | %.3g |\n", k, sl_combine_name((sl_combine)c), m, ml, mc, ma,
                    ma > 0 ? mc / ma : NAN);
        }
    free(vl);
    free(vc);
    free(va);
    fputs("\n## Chart\n\n", f);
    for (size_t i = 0; i < t.nrows; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++) if (same_group(&t, i, j, gcols, 2)) first = 0;
        if (!first) continue;
        char stem[256];
        snprintf(stem, sizeof stem, "ranks_%s__%s", sl_csv_get(&t, i, cds), sl_csv_get(&t, i, cdt));
        char cpath[SL_DIR_MAX + 300];
        const int w = snprintf(cpath, sizeof cpath, "%s/charts/%s.png", dir, stem);
        struct stat st;
        if (w > 0 && (size_t)w < sizeof cpath && !stat(cpath, &st))
            fprintf(f, "![%s](charts/%s.png)\n[PNG](charts/%s.png) | [SVG](charts/%s.svg)\n\n", stem, stem, stem, stem);
    }
    for (int i = 0; i < notes->n; i++) fprintf(f, "- %s\n", notes->line[i]);
    fclose(f);
    sl_csv_free(&t);
    return 0;
}

/* ---- the command ------------------------------------------------------------------------------ */
int sl_mpi_cmd_ranks(int argc, char **argv)
{
    ranks_opts o;
    memset(&o, 0, sizeof o);
    o.backend = SL_BACKEND_AUTO;
    o.seed = 20261129ull;
    const char *es = getenv("SUMLAB_SEED");
    sl_err err = {{0}};
    if (es && *es && parse_u64(es, &o.seed, &err)) { fprintf(stderr, "sumlab %s: SUMLAB_SEED: %s\n", CMD, err.msg); return 2; }
    int code = parse(argc, argv, &o);
    if (code >= 0) return code;
    if (o.algorithm) {   /* coll_tuned reads these at MPI_Init */
        char b[16];
        snprintf(b, sizeof b, "%d", o.algorithm);
        const char *have = getenv("OMPI_MCA_coll_tuned_allreduce_algorithm");
        if (have && *have && strcmp(have, b)) {
            fprintf(stderr, "sumlab %s: --algorithm %d but OMPI_MCA_coll_tuned_allreduce_algorithm=%s\n", CMD, o.algorithm, have);
            return 2;
        }
        setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 1);
        setenv("OMPI_MCA_coll_tuned_allreduce_algorithm", b, 1);
    }
    if (sl_mpi_start(&err)) { fprintf(stderr, "sumlab %s: %s\n", CMD, err.msg); return 1; }
    int rank, P;
    SL_MPI_CK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    SL_MPI_CK(MPI_Comm_size(MPI_COMM_WORLD, &P));
    if (!o.have_preset) o.preset = SL_PRESET_QUICK;
    const uint64_t n_preset = o.preset == SL_PRESET_TINY ? (1u << 12) : o.preset == SL_PRESET_QUICK ? (1u << 18) : (1u << 24);
    const uint64_t n = o.n_total ? o.n_total : o.n_per_rank ? o.n_per_rank : n_preset;   /* n at K = 1 */
    const int reps = o.reps > 0 ? (int)o.reps : o.preset == SL_PRESET_FULL ? 5 : 3;
    FILE *f = NULL;
    sl_keyset keys;
    memset(&keys, 0, sizeof keys);
    int rc = 0, rows = 0;
    if (rank == 0) {
        if (!(f = open_results(o.dir, &keys, &err))) rc = 1;
        if (!rc && !o.quiet)
            fprintf(stderr, "sumlab %s: P = %d ranks, n = %llu, %d reps, algorithm %s -> %s\n", CMD, P,
                    (unsigned long long)n, reps, o.algorithm ? "forced" : "default", o.dir);
        if (!rc && o.algorithm && !o.quiet)
            fprintf(stderr, "sumlab %s: OMPI_MCA_coll_tuned_allreduce_algorithm=%d\n", CMD, o.algorithm);
    }
    rc = sl_mpi_agree(MPI_COMM_WORLD, rc, &err);
    for (int K = 1; K <= P && !rc; K++) {
        MPI_Comm sub = MPI_COMM_NULL;
        SL_MPI_CK(MPI_Comm_split(MPI_COMM_WORLD, rank < K ? 0 : MPI_UNDEFINED, rank, &sub));
        int mine = 0;
        sl_err e = {{0}};
        if (sub != MPI_COMM_NULL) {
            SL_MPI_CK(MPI_Comm_set_errhandler(sub, MPI_ERRORS_RETURN));
            for (size_t i = 0; i < NINPUTS && !mine; i++) {
                if (rank == 0 && !o.quiet)
                    fprintf(stderr, "sumlab %s: K = %d: %s %s\n", CMD, K, INPUTS[i].dataset, sl_dtype_name(INPUTS[i].dt));
                mine = run_input(sub, K, &INPUTS[i], &o, o.n_per_rank ? o.n_per_rank * (uint64_t)K : n, reps, f,
                                 &keys, &rows, &e);
            }
            SL_MPI_CK(MPI_Comm_free(&sub));
        }
        if (rank == 0 && mine) err = e;
        int worst = mine;
        SL_MPI_CK(MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        rc = worst;
    }
    if (rank == 0) {
        if (f) fclose(f);
        if (rc) fprintf(stderr, "sumlab %s: %s\n", CMD, err.msg);
        sl_notes notes;
        memset(&notes, 0, sizeof notes);
        if (!rc) {
            sl_charts_render(o.dir, o.quiet, &notes);
            sl_err re = {{0}};
            if (write_report(o.dir, P, &notes, &re)) { fprintf(stderr, "sumlab %s: report: %s\n", CMD, re.msg); rc = 1; }
            else if (!o.quiet) fprintf(stderr, "sumlab %s: %d rows; report: %s/report.md\n", CMD, rows, o.dir);
        }
        sl_keyset_free(&keys);
    }
    return sl_mpi_end(rc);
}

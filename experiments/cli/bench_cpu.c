/* bench_cpu.c: `sumlab bench --backend cpu`: wall-clock time of the exact CPU reference (one
 * thread and all threads) against a plain double-accumulator loop and mpfr_sum, measured in the
 * same process on the same buffer; every exact row is checked against the reference bit for bit. */
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
#include "sumlab/half.h"
#include "sl_measure.h"
#include "sl_verdict.h"
#include "sumlab/pool.h"
#include "sl_provenance.h"
#include "sl_reference.h"

#define CPU_MAX_N 64
#define CPU_CHUNK ((uint64_t)1 << 20)
#define CPU_MPFR_REPS 3

static void cpu_usage(FILE *f)
{
    fputs("usage: sumlab bench --backend cpu [--variants LIST] [--n LIST] [--dtype f32|f64|f16|bf16]\n"
          "                    [--reps R] [--threads N] [--dataset NAME] [--param K=V ...]\n"
          "                    [--seed S] [--mpfr-n M] [--format csv|table]\n\n"
          "CPU only. For each n: generates the input once, then R rounds; in each round every\n"
          "variant is timed once by wall clock (CLOCK_MONOTONIC) on the same buffer, after one\n"
          "warm-up run each. Variants:\n"
          "  loop           plain loop, one double accumulator, in order (the baseline)\n"
          "  exact          the exact reference on one thread (sl_exact_add + correct rounding)\n"
          "  exact-threads  the same over --threads threads, pieces merged exactly\n"
          "ratio_loop = loop median time / the row's median time (above 1: faster than the loop);\n"
          "ratio_mpfr = mpfr_sum's time per element / the row's (median) time per element, with\n"
          "mpfr_sum timed (best of 3) on the first mpfr_n values of the same buffer (mpfr_sum into\n"
          "the format's precision; converting the values to mpfr_t is not timed).\n\n"
          "options:\n"
          "  --variants L   comma-separated, from loop,exact,exact-threads (default: all three;\n"
          "                 the loop row is always there)\n"
          "  --n L          sizes, e.g. 2^20,2^24 (default 2^20,2^24)\n"
          "  --dtype D      f32 (default), f64, f16 or bf16 (16-bit: the loop and mpfr_sum take the\n"
          "                 values widened exactly; the exact rows sl_exact_add_half)\n"
          "  --reps R       timed rounds (default 10)\n"
          "  --threads N    threads of exact-threads (default: $SUMLAB_THREADS or every core)\n"
          "  --dataset N    input dataset (default: uniform); --param K=V sets its parameters\n"
          "  --seed S       dataset seed (default 0)\n"
          "  --mpfr-n M     values mpfr_sum is timed on (default 2^16; at most n)\n"
          "  --format F     csv (default) or table\n"
          "  -h, --help     this text\n\n"
          "columns: variant dtype n reps threads time_ms_median time_ms_min ns_per_el ratio_loop\n"
          "  ratio_mpfr mpfr_n mpfr_ns_per_el result_hex equals_exact\n"
          "equals_exact: yes when the row's result is the exact sum correctly rounded to dtype, bit\n"
          "for bit. An exact row that is not fails the command (exit 1).\n", f);
}

static const char *const cpu_columns[] = {
    "variant", "dtype", "n", "reps", "threads", "time_ms_median", "time_ms_min", "ns_per_el",
    "ratio_loop", "ratio_mpfr", "mpfr_n", "mpfr_ns_per_el", "result_hex", "equals_exact",
};
#define CPU_NCOLS ((int)(sizeof cpu_columns / sizeof cpu_columns[0]))

enum { V_LOOP, V_EXACT, V_THREADS, V_COUNT };
static const char *const cpu_variant_names[V_COUNT] = {"loop", "exact", "exact-threads"};

typedef struct {
    sl_bench_args arg;   /* the options every bench takes */
    const char *threads_s;
    uint64_t mpfr_n;
    uint64_t ns[CPU_MAX_N];
    size_t nn;
    int want[V_COUNT];
    unsigned threads;
    const sl_dataset *ds;
    sl_params p;
} cpu_opts;

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The baseline: s += x[i] in order into one double (float32 and 16-bit input widened exactly),
 * rounded once to the input format. */
__attribute__((noinline)) static double plain_loop(const void *x, uint64_t n, sl_dtype dt)
{
    double s = 0.0;
    if (dt == SL_F64) {
        const double *d = x;
        for (uint64_t i = 0; i < n; i++) s += d[i];
        return s;
    }
    if (sl_dtype_is_half(dt)) {
        const uint16_t *h = x;
        for (uint64_t i = 0; i < n; i++) s += sl_half_to_double(h[i], dt);
        return sl_half_round(s, dt);
    }
    const float *f = x;
    for (uint64_t i = 0; i < n; i++) s += (double)f[i];
    return (double)(float)s;
}

/* One timed run of variant v: its result in *res; returns the seconds, or -1 (out of memory). */
static double run_variant(int v, const void *x, uint64_t n, sl_dtype dt, unsigned threads,
                          sl_exact *acc, double *res)
{
    double t0 = wall();
    if (v == V_LOOP) {
        *res = plain_loop(x, n, dt);
    } else {
        sl_exact_reset(acc);
        if (sl_dtype_is_half(dt)) {
            if (v == V_EXACT) sl_exact_add_half(acc, x, n, dt);
            else if (sl_exact_add_half_threads(acc, x, n, dt, threads)) return -1;
            *res = sl_exact_round_half(acc, dt);
        } else {
            if (v == V_EXACT) sl_exact_add(acc, x, n, dt);
            else if (sl_exact_add_threads(acc, x, n, dt, threads)) return -1;
            *res = sl_exact_round(acc, dt);
        }
    }
    return wall() - t0;
}

/* mpfr_sum over the first m values, best of CPU_MPFR_REPS, in seconds per element (-1: no memory). */
static double mpfr_per_el(const void *x, uint64_t m, sl_dtype dt)
{
    mpfr_t *v = malloc((size_t)m * sizeof *v);
    mpfr_ptr *pv = malloc((size_t)m * sizeof *pv);
    if (!v || !pv) {
        free(v);
        free(pv);
        return -1;
    }
    const int half = sl_dtype_is_half(dt);
    for (uint64_t i = 0; i < m; i++) {
        mpfr_init2(v[i], dt == SL_F64 ? 53 : 24);
        if (dt == SL_F64) mpfr_set_d(v[i], ((const double *)x)[i], MPFR_RNDN);
        else if (half) mpfr_set_d(v[i], sl_half_to_double(((const uint16_t *)x)[i], dt), MPFR_RNDN);
        else mpfr_set_flt(v[i], ((const float *)x)[i], MPFR_RNDN);
        pv[i] = v[i];
    }
    mpfr_t s;   /* into the format's precision */
    mpfr_init2(s, dt == SL_F64 ? 53 : half ? sl_half_prec(dt) : 24);
    double best = INFINITY;
    for (int r = 0; r < CPU_MPFR_REPS; r++) {
        double t0 = wall();
        mpfr_sum(s, pv, (unsigned long)m, MPFR_RNDN);
        double t = wall() - t0;
        if (t < best) best = t;
    }
    mpfr_clear(s);
    for (uint64_t i = 0; i < m; i++) mpfr_clear(v[i]);
    free(v);
    free(pv);
    return best / (double)m;
}

static int cpu_getopt(int argc, char **argv, cpu_opts *o)
{
    enum { O_BACKEND = 256, O_MPFR_N, O_THREADS };
    static const struct option opts[] = {
        SL_BENCH_LONGOPTS,
        {"backend", required_argument, NULL, O_BACKEND},
        {"threads", required_argument, NULL, O_THREADS},
        {"mpfr-n", required_argument, NULL, O_MPFR_N},
        {NULL, 0, NULL, 0},
    };
    sl_err err = {{0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, SL_BENCH_SHORTOPTS, opts, NULL)) != -1) {
        int rc;
        if (sl_bench_opt(c, optarg, &o->arg, " with --backend cpu", &rc)) {
            if (rc >= 0) return rc;
            continue;
        }
        switch (c) {
        case O_BACKEND: break; /* cpu: the caller checked it */
        case O_THREADS: o->threads_s = optarg; break;
        case O_MPFR_N:
            if (sl_parse_u64(optarg, &o->mpfr_n, &err) || o->mpfr_n == 0) {
                sl_cli_msg("bench", "--mpfr-n: %s", o->mpfr_n == 0 && !err.msg[0] ? "must be at least 1" : err.msg);
                return 2;
            }
            break;
        case 'h': cpu_usage(stdout); return 0;
        default: return sl_cli_bad_option("bench", c, argv, optind, optopt, opts);
        }
    }
    if (sl_bench_no_operand(argc, argv, optind) >= 0) return 2;
    return -1;
}

/* Sizes, variants, threads, dataset and parameters checked. -1 to go on, else the exit code. */
static int cpu_check(cpu_opts *o)
{
    sl_err err = {{0}};
    if (!o->arg.vlist) {
        for (int v = 0; v < V_COUNT; v++) o->want[v] = 1;
    } else {
        const char *s = o->arg.vlist;
        for (;;) {   /* every item, an empty one too ("", "exact,", "loop,,exact") */
            size_t len = strcspn(s, ",");
            int found = -1;
            for (int v = 0; v < V_COUNT; v++)
                if (strlen(cpu_variant_names[v]) == len && !strncmp(s, cpu_variant_names[v], len)) found = v;
            if (len == 0) {
                sl_cli_msg("bench", "--variants: malformed variant list '%s'", o->arg.vlist);
                return 2;
            }
            if (found < 0) {
                sl_cli_msg("bench", "--variants: unknown CPU variant '%.*s' (loop, exact, exact-threads)", (int)len, s);
                return 2;
            }
            o->want[found] = 1;
            s += len;
            if (*s != ',') break;
            s++;
        }
    }
    if (sl_threads_choose(o->threads_s, &o->threads, &err)) {
        sl_cli_msg("bench", "%s", err.msg);
        return 2;
    }
    return sl_bench_input(&o->arg, o->ns, CPU_MAX_N, &o->nn, &o->ds, &o->p);
}

/* One n: generate, reference, R rounds of every variant, mpfr_sum, rows. Returns 0, 1 (a
 * runtime failure or a wrong exact result), 2 (the dataset refused the parameters). */
static int cpu_n(const cpu_opts *o, uint64_t n, sl_table *t)
{
    sl_err err = {{0}};
    const sl_dtype dt = o->arg.dt;
    const size_t esz = sl_dtype_size(dt);
    const long reps = o->arg.reps;
    void *x = malloc((size_t)n * esz);
    double *tim = malloc((size_t)(V_COUNT * reps) * sizeof *tim);
    sl_exact *acc = sl_exact_new();
    int rc = 0;
    if (!x || !tim || !acc) {
        sl_cli_msg("bench", "out of host memory for n = %llu %s values", (unsigned long long)n, sl_dtype_name(dt));
        rc = 1;
    }
    for (uint64_t s0 = 0; s0 < n && rc == 0; s0 += CPU_CHUNK) {
        uint64_t cnt = n - s0 < CPU_CHUNK ? n - s0 : CPU_CHUNK;
        if (sl_dataset_generate(o->ds, dt, o->arg.seed, n, &o->p, s0, cnt, (char *)x + s0 * esz, &err)) {
            sl_cli_msg("bench", "%s", err.msg);
            rc = 2;
        }
    }
    sl_reference ref;
    int have_ref = 0;
    if (rc == 0) {
        have_ref = 1;
        if (sl_reference_compute(&ref, x, n, dt, &err)) {
            sl_cli_msg("bench", "reference: %s", err.msg);
            rc = 1;
        }
    }
    double res[V_COUNT] = {0}, r;
    int differs[V_COUNT] = {0};       /* a repetition gave another result than the warm-up */
    for (int v = 0; v < V_COUNT && rc == 0; v++) /* warm-up, and the result checked below */
        if (o->want[v] && run_variant(v, x, n, dt, o->threads, acc, &res[v]) < 0) rc = 1;
    for (long k = 0; k < reps && rc == 0; k++)
        for (int v = 0; v < V_COUNT && rc == 0; v++) {
            if (!o->want[v]) continue;
            double s = run_variant(v, x, n, dt, o->threads, acc, &r);
            if (s < 0) rc = 1;
            tim[v * reps + k] = s;
            differs[v] |= memcmp(&r, &res[v], sizeof r) && !(isnan(r) && isnan(res[v]));
        }
    uint64_t m = o->mpfr_n < n ? o->mpfr_n : n;
    double mpfr_el = rc == 0 ? mpfr_per_el(x, m, dt) : -1;
    if (rc == 0 && mpfr_el < 0) {
        sl_cli_msg("bench", "out of memory for mpfr_sum over %llu values", (unsigned long long)m);
        rc = 1;
    }
    double med[V_COUNT], mn[V_COUNT], mx;
    for (int v = 0; v < V_COUNT && rc == 0; v++)
        if (o->want[v]) sl_stats(tim + v * reps, (size_t)reps, &med[v], &mn[v], &mx);
        else med[v] = mn[v] = NAN;
    for (int v = 0; v < V_COUNT && rc == 0; v++) {
        if (!o->want[v]) continue;
        /* the self-checks (sl_verdict.h): one result per buffer; the exact ones correctly rounded */
        const int same = memcmp(&res[v], &ref.rounded, sizeof(double)) == 0 || (isnan(res[v]) && isnan(ref.rounded));
        sl_verdict_facts f = {.variant = cpu_variant_names[v], .where = "cpu",
                              .claim = v == V_LOOP ? SL_DET_RUN_TO_RUN : SL_DET_CORRECTLY_ROUNDED,
                              .repeated = 1, .distinct = differs[v] ? 2 : 1, .reps = (int)reps + 1,
                              .result = res[v], .worst_abs_err = NAN, .bound = NAN,
                              .nonfinite = !isfinite(res[v]), .all_rounded = same && !differs[v]};
        sl_verdict vd;
        for (int k = 0; k < sl_verdict_decide(&ref, &f, &vd); k++) sl_cli_msg("bench", "%s", vd.msg[k]);
        if (vd.failed) rc = 1;
        const double el = med[v] / (double)n;
        char hex[SL_FMT_LEN];
        sl_table_row(t);
        sl_table_str(t, cpu_variant_names[v]);
        sl_table_str(t, sl_dtype_name(dt));
        sl_table_u64(t, n);
        sl_table_i64(t, reps);
        sl_table_u64(t, v == V_THREADS ? o->threads : 1);
        sl_table_num(t, med[v] * 1e3, 6);
        sl_table_num(t, mn[v] * 1e3, 6);
        sl_table_num(t, el * 1e9, 4);
        sl_table_num(t, med[v] > 0 ? med[V_LOOP] / med[v] : NAN, 4);
        sl_table_num(t, el > 0 ? mpfr_el / el : NAN, 4);
        sl_table_u64(t, m);
        sl_table_num(t, mpfr_el * 1e9, 4);
        sl_table_str(t, sl_fmt_hex(hex, sizeof hex, res[v]));
        sl_table_str(t, same ? "yes" : "no");
    }
    if (have_ref) sl_reference_clear(&ref);
    sl_exact_free(acc);
    free(tim);
    free(x);
    return rc;
}

int sl_cmd_bench_cpu(int argc, char **argv)
{
    cpu_opts o;
    memset(&o, 0, sizeof o);
    o.mpfr_n = (uint64_t)1 << 16;
    sl_bench_args_init(&o.arg, "2^20,2^24");
    int code = cpu_getopt(argc, argv, &o);
    if (code < 0) code = cpu_check(&o);
    if (code >= 0) return code;
    o.want[V_LOOP] = 1; /* ratio_loop's baseline: always timed and printed */
    sl_provenance prov;
    if (sl_cli_argv) sl_provenance_collect(&prov, sl_cli_argc, sl_cli_argv);
    else sl_provenance_collect(&prov, argc, argv);
    sl_provenance_write_comments(&prov, stdout);
    printf("# backend: cpu\n# dataset: %s\n# seed: %llu\n# threads: %u (exact-threads)\n"
           "# timing: wall clock (CLOCK_MONOTONIC), median and min over the reps; mpfr_sum best of %d on "
           "the first mpfr_n values\n", o.ds->name, (unsigned long long)o.arg.seed, o.threads, CPU_MPFR_REPS);
    sl_table *t = sl_table_new(CPU_NCOLS, cpu_columns);
    if (!t) {
        sl_cli_msg("bench", "out of memory");
        return 1;
    }
    int rc = 0;
    if (o.arg.fmt == SL_OUT_CSV && sl_table_write_csv_header(t, stdout)) rc = 1;
    for (size_t k = 0; k < o.nn && rc == 0; k++) {
        rc = cpu_n(&o, o.ns[k], t);
        if (o.arg.fmt == SL_OUT_CSV) {
            if (sl_table_write_csv_rows(t, stdout) && !rc) rc = 1;
            sl_table_clear_rows(t);
        }
    }
    if (o.arg.fmt == SL_OUT_TABLE && sl_table_write(t, o.arg.fmt, stdout) && !rc) rc = 1;
    sl_table_free(t);
    return rc;
}

/* sl_cli.h: the `sumlab` subcommands. main.c dispatches argv[1] to one of these; each parses
 * its own options with getopt_long, prints data to stdout and messages to stderr, and returns
 * the process exit code (0 ok, 1 runtime failure, 2 bad usage or bad input). */
#ifndef SL_CLI_H
#define SL_CLI_H

#include <stdint.h>
#include "sl_datasets.h"
#include "sl_format.h"
#include "sl_ops.h"
#include "sl_reference.h"
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

int sl_cmd_list(int argc, char **argv);     /* sumlab list [variants|datasets] */
int sl_cmd_gen(int argc, char **argv);      /* sumlab gen NAME --n N --seed S ... -o FILE */
int sl_cmd_sum(int argc, char **argv);      /* sumlab sum FILE ... (reduce --op sum) */
int sl_cmd_reduce(int argc, char **argv);   /* sumlab reduce --op OP FILE [FILE2] ... */
int sl_cmd_judge(int argc, char **argv);    /* sumlab judge FILE --value V ... */
int sl_cmd_bench(int argc, char **argv);    /* sumlab bench ... */
int sl_cmd_bench_cpu(int argc, char **argv); /* sumlab bench --backend cpu ... (bench_cpu.c) */
int sl_cmd_bench_rows(int argc, char **argv); /* sumlab bench --axis -1 ... (bench_rows.c) */
/* The options every `bench` takes (cmd_bench.c, bench_cpu.c, bench_rows.c): --variants, --n,
 * --dtype, --reps, --dataset, --param, --seed, --format and --help. SL_BENCH_LONGOPTS opens each
 * one's getopt_long table, SL_BENCH_SHORTOPTS its optstring. */
typedef struct {
    const char *vlist, *nlist, *dsname;   /* --variants, --n, --dataset */
    const char *params[64];               /* --param K=V, in order */
    int nparams;
    long reps;                            /* --reps */
    uint64_t seed;                        /* --seed */
    sl_dtype dt;                          /* --dtype */
    sl_out_format fmt;                    /* --format */
} sl_bench_args;
#define SL_BENCH_LONGOPTS                                                                         \
    {"variants", required_argument, NULL, 'v'}, {"n", required_argument, NULL, 'n'},              \
    {"dtype", required_argument, NULL, 'd'}, {"reps", required_argument, NULL, 'r'},              \
    {"dataset", required_argument, NULL, 'D'}, {"param", required_argument, NULL, 'p'},           \
    {"seed", required_argument, NULL, 's'}, {"format", required_argument, NULL, 'f'},             \
    {"help", no_argument, NULL, 'h'}
#define SL_BENCH_SHORTOPTS ":v:n:d:r:D:p:s:f:h"
/* a's defaults: the sizes nlist, dataset uniform, 10 reps, f32, CSV; no variants, no --param. */
void sl_bench_args_init(sl_bench_args *a, const char *nlist);
/* One of those options (all but --help) into a: c is what getopt_long returned, arg its value;
 * dtype_note follows the --dtype in the message for a bad one ("" or " with --backend cpu").
 * Returns 1 when c is one of them (*rc: -1 to go on, or 2 after one message), 0 when not. */
int sl_bench_opt(int c, const char *arg, sl_bench_args *a, const char *dtype_note, int *rc);
/* "unexpected argument" for the first operand left after the options: -1 when none, else 2. */
int sl_bench_no_operand(int argc, char *const *argv, int optind_);
/* `bench`'s input: the sizes of --n (at most max, each in [1, 2^34)) and the dataset with its
 * --param settings. Returns -1 to go on, else 2 after one message. */
int sl_bench_input(const sl_bench_args *a, uint64_t *ns, size_t max, size_t *nn, const sl_dataset **ds,
                   sl_params *p);
int sl_cmd_run(int argc, char **argv);      /* sumlab run EXPERIMENT ... (experiments runner) */
int sl_cmd_compare(int argc, char **argv);  /* sumlab compare DIR_A DIR_B */

/* ---- strict parsers for options (return 0, or -1 with err naming the problem) ------------- */
/* Non-negative integer: 123, 0x1f, 2^28, 1e6 (exact), 3*2^20; no sign, no junk, no overflow. */
int sl_parse_u64(const char *s, uint64_t *out, sl_err *err);
/* A comma-separated list of sl_parse_u64 values (at most max). */
int sl_parse_u64_list(const char *s, uint64_t *out, size_t max, size_t *count, sl_err *err);
/* A decimal integer in [min, max]. */
int sl_parse_int(const char *s, long min, long max, long *out, sl_err *err);
/* --ddof N (var/std divide by n - N; 0 .. SL_DDOF_MAX) into p->ddof; 0, or 2 after saying why. */
int sl_cli_ddof(const char *cmd, const char *s, sl_op_params *p);
/* -1 to go on; 2 after saying why when --ddof was given for an operation (op, NULL: every one)
 * that has none. */
int sl_cli_ddof_check(const char *cmd, const sl_op_params *p, const sl_operation *op);

/* A two-input operation's files (dot): 0 when their values pair element by element in memory
 * order, as np.vdot pairs them (both in C order, each flattened; or both in Fortran order with one
 * shape); else one line for cmd and 2 (a C-order file beside a Fortran-order one with two or more
 * axes longer than 1: memory order would pair other elements). */
int sl_cli_pairable(const char *cmd, const char *op, const char *path, const sl_array_info *a,
                    const char *path2, const sl_array_info *b);
/* --axis K of `reduce` and `judge`: FILE as rows (the axis moved to the last place on the host
 * when it is not: moved), and a two-input operation's FILE2 (path2; NULL: none) in FILE's format,
 * either of FILE's shape (moved to rows of axis K on its own, moved_y set when that copied: row i
 * pairs with row i whatever the files' memory orders) or 1-D of the axis' length (shared: that
 * one row with every row of FILE, as FILE @ FILE2). */
typedef struct {
    void *x, *y;               /* x's rows, C order; y's rows or its one row (NULL: no FILE2) */
    sl_array_info info;        /* FILE's */
    sl_dtype dt;
    uint64_t rows, n;          /* rows of n values */
    int moved, moved_y, shared;
} sl_cli_rows;
/* 0, or 2 after one line for cmd (--dtype D given: have_dtype, raw_dt; checked against a .npy).
 * sl_cli_rows_free releases it either way. */
int sl_cli_rows_load(const char *cmd, const char *op, const char *path, const char *path2, int have_dtype,
                     sl_dtype raw_dt, long axis, sl_cli_rows *r);
void sl_cli_rows_free(sl_cli_rows *r);
/* Writes t's rows (the output rows of input rows up to r of `rows`, a batch of `batch`) and
 * clears them: CSV and JSON as one table in parts (*begun: the header written), the table format
 * as a table of its own after a blank line. 0, or nonzero on a write error. */
int sl_cli_rows_flush(sl_table *t, sl_table_parts *parts, sl_out_format fmt, uint64_t r, uint64_t rows,
                      uint64_t batch, int *begun);

/* --param K=V given again for a key already set: prev holds the earlier K=V words (nprev of
 * them). 0 when kv's key is new; else one line for cmd ("--param K is given twice") and 2: a
 * repeated key would let the last value win without a word (`run` checks its joined list with
 * sl_exp_user_params_check). */
int sl_cli_param_once(const char *cmd, const char *kv, const char *const *prev, int nprev);

/* The launch-request options of `sum` and `bench`: opt is "--block" (a power of two in
 * [32, 1024]), "--grid" ([1, 2^31-1]) or "--items" ([1, 2^20]); stores the value of s in *out.
 * Returns 0, or prints one line for cmd and returns -1. */
int sl_cli_launch_opt(const char *cmd, const char *opt, const char *s, uint32_t *out);

/* getopt_long diagnostics (opterr = 0, optstring starting with ':'): c is the '?' or ':'
 * getopt_long returned, lo the long options it was given; prints one line, "sumlab CMD: unknown
 * option '...'", "option '...' needs a value", "option '--x' takes no value" or "option '--b' is
 * ambiguous (--backend, --block)", and returns 2 (the usage exit code). */
struct option;
int sl_cli_bad_option(const char *cmd, int c, char *const *argv, int optind_, int optopt_,
                      const struct option *lo);

/* The whole command line ("sumlab sum x.npy ..."), set by main() before dispatching, for
 * provenance records; NULL/0 when a command is called directly (then use its own argv). */
extern int sl_cli_argc;
extern char **sl_cli_argv;

/* Operation op's exact value S under a table (`sum`, `reduce`, `judge`): its hex form with every
 * bit and its identifying decimal (sl_reference_exact_text); a value that is no binary number
 * (a quotient, root, logarithm) as its rounding, with the bits and the error bound said. 0, or
 * -1 on a write error. */
int sl_cli_exact_block(FILE *f, const sl_exact_text *S, const char *op);

/* op lse, table format, under S (cli_lse.c): sl_cli_lse_head says what S is for lse (exact, or
 * the reference's certified bits) and gives the softmax denominator sum exp(x_i - max) of x (ref:
 * its lse reference); then sl_cli_lse_line per result v: the error it causes in every
 * normalised output p_i = exp(x_i - v) (relative, the largest absolute, sum p_i - 1). A
 * non-finite lse has no normalised outputs: the head says so in one line, the lines print
 * nothing. 0, or -1 with err (x NULL with n > 0); a write error shows in ferror(f). */
int sl_cli_lse_head(FILE *f, const sl_reference *ref, const void *x, sl_err *err);
int sl_cli_lse_line(FILE *f, const sl_reference *ref, const void *x, const char *name, double v,
                    sl_err *err);

/* A C99 floating-point number (decimal, hex float 0x1.8p+3, inf, infinity, nan; optional
 * sign), the whole string and nothing else, read with strtod (round to nearest). 0 or -1. */
int sl_parse_double(const char *s, double *out, sl_err *err);

/* The reason (errno) of the first failed flush of stdout, 0 while none failed: main() reports
 * it when the command ends. */
extern int sl_cli_stdout_errno;

/* One "sumlab <cmd>: message" line on stderr (stdout flushed first). */
void sl_cli_msg(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif

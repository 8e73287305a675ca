/* main.c: the `sumlab` command: dispatches `sumlab <command> [options]` to the subcommands
 * of sl_cli.h. Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sl_cli.h"
#include "sl_format.h"
#include "sl_provenance.h"

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} command;

static const command commands[] = {
    {"list", sl_cmd_list, "list the summation variants and the dataset generators"},
    {"gen", sl_cmd_gen, "generate a dataset into a .npy or raw file"},
    {"reduce", sl_cmd_reduce, "reduce a file with every variant of an operation (--op), judged exactly"},
    {"sum", sl_cmd_sum, "sum a file with every variant, judged against the exact sum"},
    {"judge", sl_cmd_judge, "judge sums computed elsewhere (NumPy, fsum, ...) against the exact sum"},
    {"bench", sl_cmd_bench, "time the GPU variants against CUB and the read ceiling"},
    {"run", sl_cmd_run, "run an experiment of the study into a results directory"},
    {"compare", sl_cmd_compare, "compare two results directories"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fputs("usage: sumlab <command> [options]\n"
          "       sumlab --help | --version\n\n"
          "How wrong, how unrepeatable and how fast is each way of reducing an array on a GPU\n"
          "(sum, mean, var, std, max, min, dot, norm2, log-sum-exp; 'sumlab list ops')?\n\n"
          "commands:\n", f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'sumlab <command> --help' describes each command's options.\n"
          "Data goes to stdout, messages to stderr. Exit status: 0 ok, 1 runtime failure\n"
          "(including a failed GPU/twin self-check), 2 bad usage or bad input.\n", f);
}

/* Data written to stdout reached it: a failed flush (disk full, closed pipe) is a runtime
 * failure with its reason, never a silent short output. Returns the exit code. */
static int stdout_closed(const char *cmd, int code)
{
    errno = 0;
    int e = fflush(stdout) != 0 ? (errno ? errno : EIO) : 0;
    if (sl_out_errno) e = sl_out_errno;                /* an earlier flush failed first */
    else if (sl_cli_stdout_errno) e = sl_cli_stdout_errno;
    else if (!e && ferror(stdout)) e = EIO;
    if (e) {
        sl_cli_msg(cmd, "cannot write standard output: %s", strerror(e));
        return code ? code : 1;
    }
    return code;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return stdout_closed(NULL, 0);
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version")) {
        sl_print_version(stdout);
        return stdout_closed(NULL, 0);
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name)) {
            /* The subcommand sees argv[0] = its name and its own options after; the whole
             * command line stays available for provenance. */
            sl_cli_argc = argc;
            sl_cli_argv = argv;
            return stdout_closed(commands[i].name, commands[i].fn(argc - 1, argv + 1));
        }
    sl_cli_msg(NULL, "unknown command '%s' (commands: list, gen, sum, judge, bench, run, compare; "
                     "see 'sumlab --help')", cmd);
    return 2;
}

/* sl_cli.h: the `sumlab` subcommands. main.c dispatches argv[1] to one of these; each parses
 * its own options with getopt_long, prints data to stdout and messages to stderr, and returns
 * the process exit code (0 ok, 1 runtime failure, 2 bad usage or bad input). */
#ifndef SL_CLI_H
#define SL_CLI_H

#ifdef __cplusplus
extern "C" {
#endif

int sl_cmd_list(int argc, char **argv);     /* sumlab list [variants|datasets] */
int sl_cmd_gen(int argc, char **argv);      /* sumlab gen NAME --n N --seed S ... -o FILE */
int sl_cmd_sum(int argc, char **argv);      /* sumlab sum FILE ... */
int sl_cmd_bench(int argc, char **argv);    /* sumlab bench ... */
int sl_cmd_run(int argc, char **argv);      /* sumlab run EXPERIMENT ... (experiments runner) */
int sl_cmd_compare(int argc, char **argv);  /* sumlab compare DIR_A DIR_B */

#ifdef __cplusplus
}
#endif
#endif

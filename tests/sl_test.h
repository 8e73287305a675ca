/* sl_test.h: the tiny test harness every tests/t<unit>.c uses: a seed (SUMLAB_SEED overrides
 * the default, printed in every failure), CHECK macros that count failures, and the skip code. */
#ifndef SL_TEST_H
#define SL_TEST_H
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sumlab/rng.h"

#define SL_TEST_SKIP 77

/* The tests' random stream: sumlab/rng.h's SplitMix64, started from sl_test_seed() by the test. */
static uint64_t sl_test_rng;
static inline uint64_t sl_test_rand64(void) { return sl_splitmix64(&sl_test_rng); }

static uint64_t sl_test_seed_value;
static long sl_test_failures;
static long sl_test_checks;

static inline uint64_t sl_test_seed(void)
{
    static int init;
    if (!init) {
        const char *s = getenv("SUMLAB_SEED");
        sl_test_seed_value = (s && *s) ? strtoull(s, NULL, 0) : (uint64_t)SUMLAB_TEST_SEED;
        init = 1;
    }
    return sl_test_seed_value;
}

/* stdout line-buffered before main: each progress line goes out as it is printed, so a run cut off
 * by a time cap keeps what it said (failures go to stderr, unbuffered, in any case) */
__attribute__((constructor)) static void sl_test_line_buffered(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

#define CHECK(cond, ...)                                                                     \
    do {                                                                                     \
        sl_test_checks++;                                                                    \
        if (!(cond)) {                                                                       \
            sl_test_failures++;                                                              \
            fprintf(stderr, "FAIL %s:%d [seed %" PRIu64 "]: %s: ", __FILE__, __LINE__,       \
                    sl_test_seed(), #cond);                                                  \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fputc('\n', stderr);                                                             \
        }                                                                                    \
    } while (0)

/* Prints the summary line and returns the exit code. */
static inline int sl_test_done(const char *name)
{
    printf("%s: %ld checks, %ld failed (seed %" PRIu64 ", SUMLAB_SEED overrides)\n", name,
           sl_test_checks, sl_test_failures, sl_test_seed());
    return sl_test_failures ? 1 : 0;
}
#endif

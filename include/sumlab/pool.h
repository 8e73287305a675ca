/* sumlab/pool.h: host threads for every library and for `sumlab run`, `sum` and `gen`: how many
 * SUMLAB_THREADS, default every core) and a parallel for whose tasks each write their own
 * slot, so no result depends on how many threads ran them or in which order they finished. */
#ifndef SL_POOL_H
#define SL_POOL_H
#include <stddef.h>
#include "sumlab/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SL_THREADS_MAX 256u
/* Cores online (at least 1, at most SL_THREADS_MAX). */
unsigned sl_threads_online(void);
/* "N" (1 .. SL_THREADS_MAX) or "0" / "all" (every core). 0, or -1 with err. */
int sl_threads_parse(const char *s, unsigned *out, sl_err *err);
/* The thread count: opt (a --threads value) when non-NULL, else $SUMLAB_THREADS when set and
 * not empty, else every core. -1 with err naming the bad source. */
int sl_threads_choose(const char *opt, unsigned *out, sl_err *err);

/* fn(ctx, i) for every i in [0, count), on up to `threads` threads (the caller's one among
 * them); tasks are claimed in increasing i. A thread that cannot be started leaves its share
 * to the others. Returns 0, or -1 when a started thread could not be joined (then the caller
 * must not trust the slots). */
typedef void sl_task_fn(void *ctx, size_t i);
int sl_parallel_for(size_t count, unsigned threads, sl_task_fn *fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif

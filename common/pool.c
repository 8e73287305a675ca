/* pool.c: the thread count and the parallel for of sumlab/pool.h (pthreads; the task counter is a
 * C11 atomic, every other datum belongs to one task's slot). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sumlab/pool.h"

unsigned sl_threads_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    return n > (long)SL_THREADS_MAX ? SL_THREADS_MAX : (unsigned)n;
}

int sl_threads_parse(const char *s, unsigned *out, sl_err *err)
{
    if (!s || !*s) return sl_err_set(err, "empty thread count");
    if (!strcmp(s, "all") || !strcmp(s, "0")) {
        *out = sl_threads_online();
        return 0;
    }
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < 1 || v > (long)SL_THREADS_MAX)
        return sl_err_set(err, "'%s' is not a thread count (1 .. %u, or 0/all for every core)", s,
                          SL_THREADS_MAX);
    *out = (unsigned)v;
    return 0;
}

int sl_threads_choose(const char *opt, unsigned *out, sl_err *err)
{
    sl_err e = {{0}};
    if (opt) {
        if (sl_threads_parse(opt, out, &e)) return sl_err_set(err, "--threads: %s", e.msg);
        return 0;
    }
    const char *env = getenv("SUMLAB_THREADS");
    if (env && *env) {
        if (sl_threads_parse(env, out, &e)) return sl_err_set(err, "SUMLAB_THREADS: %s", e.msg);
        return 0;
    }
    *out = sl_threads_online();
    return 0;
}

typedef struct {
    atomic_size_t next;
    size_t count;
    sl_task_fn *fn;
    void *ctx;
} pool_job;

static void *worker(void *arg)
{
    pool_job *j = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->count) break;
        j->fn(j->ctx, i);
    }
    return NULL;
}

int sl_parallel_for(size_t count, unsigned threads, sl_task_fn *fn, void *ctx)
{
    if (threads > SL_THREADS_MAX) threads = SL_THREADS_MAX;
    if (threads > count) threads = (unsigned)count;
    if (threads <= 1) {
        for (size_t i = 0; i < count; i++) fn(ctx, i);
        return 0;
    }
    pool_job j;
    atomic_init(&j.next, 0);
    j.count = count;
    j.fn = fn;
    j.ctx = ctx;
    pthread_t tid[SL_THREADS_MAX];
    int started[SL_THREADS_MAX] = {0};
    for (unsigned t = 1; t < threads; t++) started[t] = pthread_create(&tid[t], NULL, worker, &j) == 0;
    worker(&j);
    int rc = 0;
    for (unsigned t = 1; t < threads; t++)
        if (started[t] && pthread_join(tid[t], NULL) != 0) rc = -1;
    return rc;
}

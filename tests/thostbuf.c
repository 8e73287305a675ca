/* thostbuf.c: the study's input-buffer cache (experiments/study/hostbuf.c): small requests are
 * plain allocations, large ones reuse a free cached buffer that holds them (the smallest),
 * capacities are powers of two, a full cache evicts its smallest free buffer, a request while
 * every slot is busy still gets memory (uncached, freed when put back), and the end frees all.
 * CPU backend (malloc); on the GPU backend the same slots hold page-locked memory. */
#include <stdlib.h>
#include <string.h>
#include "sl_study.h"
#include "sl_test.h"

#define MB ((size_t)1 << 20)

static int slot_of(const sl_run *run, const void *p)
{
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++)
        if (run->bufs[i].p && run->bufs[i].p == p) return i;
    return -1;
}

static int slots_used(const sl_run *run)
{
    int k = 0;
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++) k += run->bufs[i].p != NULL;
    return k;
}

int main(void)
{
    static sl_run run;
    memset(&run, 0, sizeof run);
    CHECK(pthread_mutex_init(&run.buf_mu, NULL) == 0, "mutex");

    void *small = sl_hostbuf_get(&run, 4096);
    CHECK(small && slot_of(&run, small) < 0 && slots_used(&run) == 0, "a small request is not cached");
    memset(small, 1, 4096);
    sl_hostbuf_put(&run, small);

    void *a = sl_hostbuf_get(&run, 100 * MB);
    const int sa = slot_of(&run, a);
    CHECK(a && sa >= 0 && run.bufs[sa].cap == 128 * MB && run.bufs[sa].busy, "100 MB: a cached 128 MB buffer");
    ((char *)a)[100 * MB - 1] = 7;
    sl_hostbuf_put(&run, a);
    CHECK(sa >= 0 && !run.bufs[sa].busy && run.bufs[sa].p == a, "put back: kept, free");

    void *b = sl_hostbuf_get(&run, 70 * MB);
    CHECK(b == a, "a request that fits reuses the free buffer");
    void *c = sl_hostbuf_get(&run, 70 * MB);
    CHECK(c && c != a && slot_of(&run, c) >= 0 && slots_used(&run) == 2, "the buffer busy: a second one");
    sl_hostbuf_put(&run, b);
    sl_hostbuf_put(&run, c);

    void *d = sl_hostbuf_get(&run, 200 * MB);
    CHECK(d && d != a && d != c && run.bufs[slot_of(&run, d)].cap == 256 * MB, "200 MB: a new 256 MB buffer");
    sl_hostbuf_put(&run, d);
    void *e = sl_hostbuf_get(&run, 64 * MB);
    CHECK(e == a || e == c, "64 MB takes a 128 MB buffer, not the 256 MB one");
    sl_hostbuf_put(&run, e);

    /* every slot busy: the next large request still gets (uncached) memory */
    void *held[SL_HOSTBUF_SLOTS];
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++) held[i] = sl_hostbuf_get(&run, 64 * MB);
    CHECK(slots_used(&run) == SL_HOSTBUF_SLOTS, "six slots in use: %d", slots_used(&run));
    void *extra = sl_hostbuf_get(&run, 64 * MB);
    CHECK(extra && slot_of(&run, extra) < 0, "all slots busy: an uncached buffer");
    memset(extra, 2, 4096);
    sl_hostbuf_put(&run, extra);                    /* freed, not cached */
    CHECK(slots_used(&run) == SL_HOSTBUF_SLOTS, "the uncached buffer left the slots alone");
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++) sl_hostbuf_put(&run, held[i]);

    /* full and free: a request larger than any evicts the smallest free buffer */
    size_t smallest = (size_t)-1;
    int n_smallest = 0;
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++)
        if (run.bufs[i].cap < smallest) smallest = run.bufs[i].cap;
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++) n_smallest += run.bufs[i].cap == smallest;
    void *big = sl_hostbuf_get(&run, 300 * MB);
    CHECK(big && slot_of(&run, big) >= 0 && run.bufs[slot_of(&run, big)].cap == 512 * MB &&
          slots_used(&run) == SL_HOSTBUF_SLOTS, "300 MB with the slots full: evicted one, 512 MB");
    int left_small = 0;
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++) left_small += run.bufs[i].cap == smallest;
    /* slots: 128, 128, 256 MB from above and three 64 MB ones from the busy round */
    CHECK(smallest == 64 * MB && n_smallest == 3 && left_small == 2,
          "the evicted buffer was a smallest one (%d of %d left)", left_small, n_smallest);
    sl_hostbuf_put(&run, big);
    sl_hostbuf_put(&run, NULL);                     /* nothing */

    sl_hostbuf_end(&run);
    CHECK(slots_used(&run) == 0, "end: every buffer freed");
    pthread_mutex_destroy(&run.buf_mu);
    return sl_test_done("thostbuf");
}

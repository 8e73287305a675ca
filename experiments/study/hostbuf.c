/* hostbuf.c: the study's input buffers. An input of SL_HOSTBUF_MIN bytes or more comes from a
 * cache of at most SL_HOSTBUF_SLOTS buffers that the steps reuse: on the GPU backend
 * page-locked (sl_gpu_host_alloc), so that its upload runs at the copy engines' speed instead
 * of through the driver's staging of pageable memory (the H200 full study spent 16-20 s of its
 * measuring thread uploading 110 GB), and on either backend without the page faults of a fresh
 * malloc of up to 2 GB at every large step. Smaller inputs, and any input while every slot is
 * in use, take malloc. A buffer's capacity is its first size rounded up to a power of two; a
 * request takes the smallest free buffer that holds it, else a new one (evicting the smallest
 * free buffer when the slots are full). The lock makes get and put safe from any thread. Memory:
 * the inputs in flight need three or four buffers at once; the six slots hold at most 12 GB
 * (six 2 GB buffers, float64 at 2^28), a full H200 study ends with about 5 GB in them. */
#include <stdlib.h>
#include "sl_gpu.h"
#include "sl_study.h"

#define SL_HOSTBUF_MIN ((size_t)64 << 20)

static size_t pow2_at_least(size_t b)
{
    size_t c = SL_HOSTBUF_MIN;
    while (c < b && c <= ((size_t)-1 >> 1)) c <<= 1;
    return c < b ? b : c;
}

static void slot_release(sl_hostbuf *s)
{
    if (s->pinned) sl_gpu_host_free(s->p);
    else free(s->p);
    s->p = NULL;
    s->cap = 0;
    s->pinned = 0;
    s->busy = 0;
}

/* A new buffer of cap bytes in slot s: page-locked on the GPU backend when the driver gives it. */
static int slot_fill(const sl_run *run, sl_hostbuf *s, size_t cap)
{
    s->pinned = 0;
    s->p = run->on_gpu ? sl_gpu_host_alloc(cap) : NULL;
    if (s->p) s->pinned = 1;
    else s->p = malloc(cap);
    if (!s->p) return -1;
    s->cap = cap;
    s->busy = 1;
    return 0;
}

void *sl_hostbuf_get(sl_run *run, size_t bytes)
{
    if (bytes < SL_HOSTBUF_MIN) return malloc(bytes ? bytes : 1);
    void *p = NULL;
    pthread_mutex_lock(&run->buf_mu);
    sl_hostbuf *best = NULL, *empty = NULL, *smallest_free = NULL;
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++) {
        sl_hostbuf *s = &run->bufs[i];
        if (!s->p) { if (!empty) empty = s; continue; }
        if (s->busy) continue;
        if (s->cap >= bytes && (!best || s->cap < best->cap)) best = s;
        if (!smallest_free || s->cap < smallest_free->cap) smallest_free = s;
    }
    if (best) {
        best->busy = 1;
        p = best->p;
    } else {
        sl_hostbuf *s = empty;
        if (!s && smallest_free) {
            slot_release(smallest_free);
            s = smallest_free;
        }
        if (s && slot_fill(run, s, pow2_at_least(bytes)) == 0) p = s->p;
    }
    pthread_mutex_unlock(&run->buf_mu);
    return p ? p : malloc(bytes);   /* every slot busy, or no memory for a rounded-up buffer */
}

void sl_hostbuf_put(sl_run *run, void *p)
{
    if (!p) return;
    pthread_mutex_lock(&run->buf_mu);
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++)
        if (run->bufs[i].p == p) {
            run->bufs[i].busy = 0;
            pthread_mutex_unlock(&run->buf_mu);
            return;
        }
    pthread_mutex_unlock(&run->buf_mu);
    free(p);
}

void sl_hostbuf_end(sl_run *run)
{
    pthread_mutex_lock(&run->buf_mu);
    for (int i = 0; i < SL_HOSTBUF_SLOTS; i++)
        if (run->bufs[i].p) slot_release(&run->bufs[i]);
    pthread_mutex_unlock(&run->buf_mu);
}

/* accuracy.c: descriptors, resolve(), depth() and CPU twins of the accuracy variants (serial,
 * pairwise, atomic-block, kahan, fp64-acc, multipass). Each twin repeats its kernel's adds
 * (accuracy.cu) in the same order for the same resolved sl_launch, so a GPU result equals its
 * twin's bits. Determinism: serial, pairwise, multipass config-independent; kahan, fp64-acc
 * run-to-run; atomic-block nondeterministic (the twin samples a commit order).
 *
 * Floating-point assumptions: IEEE binary32/binary64, round to nearest even, FLT_EVAL_METHOD 0
 * (x86-64 SSE2), -ffp-contract=off, no fast-math. Binary32 steps are done in float variables
 * (or with sl_tw_add), each rounding once, exactly as the GPU does. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sl_variant_impl.h"
#include "sl_twin.h"
#include "accuracy/accuracy.h"
#include "sumlab/pool.h"

/* ---- small helpers ---------------------------------------------------------------------- */
static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* ================================ serial ===================================================
 * Order: s = -0; s = s + x[i], i = 0..n-1 (so s = x[0] after the first add, exactly);
 * n = 0 gives +0. One block of SL_SERIAL_BLOCK threads, thread 0 adds, the rest stage data. */
static void serial_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)n; (void)dt;
    cfg->block = SL_SERIAL_BLOCK;
    cfg->grid = 1;
    cfg->items = SL_SERIAL_CHUNK;
}

static double serial_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)dt; (void)cfg;
    return n ? (double)(n - 1) : 0.0;
}

static int serial_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                      const sl_launch *cfg, double *result, sl_err *err)
{
    (void)v; (void)cfg; (void)err;
    if (dt == SL_F32) {
        const float *xf = (const float *)x;
        float s = -0.0f;
        for (uint64_t i = 0; i < n; i++) s = s + xf[i];
        *result = n ? (double)s : 0.0;
    } else if (sl_dtype_is_half(dt)) { /* float32 accumulator, one rounding at the end */
        float s = -0.0f;
        for (uint64_t i = 0; i < n; i++) s = s + (float)sl_tw_load(x, dt, i);
        *result = n ? sl_tw_out(s, dt) : 0.0;
    } else {
        const double *xd = (const double *)x;
        double s = -0.0;
        for (uint64_t i = 0; i < n; i++) s = s + xd[i];
        *result = n ? s : 0.0;
    }
    return 0;
}

/* ================================ pairwise (CPU only) =======================================
 * Balanced tree, split at the largest power of two strictly below n: sum(x, n) =
 * sum(x, p) + sum(x + p, n - p) with p = 2^floor(log2(n-1)); leaves are single elements
 * (no blocking). Computed iteratively with a binary-counter stack of <= 64 partial sums:
 * equal-size neighbours merge left + right; the remaining stack (sizes = binary digits of n,
 * largest first) is folded right to left: P_a + (P_b + (... + P_z)). Depth ceil(log2 n). */
static void pairwise_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)n; (void)dt;
    cfg->block = 1;
    cfg->grid = 1;
    cfg->items = 1;
}

static double pairwise_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v; (void)dt; (void)cfg;
    return (double)sl_tw_ceil_log2(n);
}

/* The tree over x[off, off + n) with the binary-counter stack (sizes: the binary digits of n,
 * largest first, folded right to left), in T; X loads element i. A power-of-two n gives the
 * perfect tree. Groups of 16 (a perfect subtree, as the stack builds it: ((x0+x1)+(x2+x3))+...)
 * go onto the stack at once. */
#define SL_PAIRWISE_FN(NAME, T, LOAD)                                                       \
    static T NAME(const void *x, sl_dtype dt, uint64_t off, uint64_t n)                     \
    {                                                                                       \
        (void)dt;                                                                           \
        T st[66];                                                                           \
        int top = 0;                                                                        \
        uint64_t i = 0;                                                                     \
        for (; i + 16 <= n; i += 16) {                                                      \
            T a[16];                                                                        \
            for (int k = 0; k < 16; k++) a[k] = LOAD(off + i + (uint64_t)k);               \
            for (int w = 1; w < 16; w *= 2)                                                 \
                for (int k = 0; k < 16; k += 2 * w) a[k] = a[k] + a[k + w];                \
            T v = a[0];                                                                     \
            for (uint64_t c = (i >> 4) + 1; (c & 1u) == 0; c >>= 1) v = st[--top] + v;    \
            st[top++] = v;                                                                  \
        }                                                                                   \
        for (; i < n; i++) {                                                                \
            T v = LOAD(off + i);                                                            \
            /* i+1 has as many trailing zero bits as merges are due */                      \
            for (uint64_t c = i + 1; (c & 1u) == 0; c >>= 1) v = st[--top] + v;            \
            st[top++] = v;                                                                  \
        }                                                                                   \
        T r = top ? st[top - 1] : (T)0;                                                     \
        for (int k = top - 2; k >= 0; k--) r = st[k] + r;                                   \
        return r;                                                                           \
    }
#define PW_LOAD_F32(i) (((const float *)x)[i])
#define PW_LOAD_F64(i) (((const double *)x)[i])
#define PW_LOAD_HALF(i) ((float)sl_tw_load(x, dt, i))
SL_PAIRWISE_FN(pw_f32, float, PW_LOAD_F32)
SL_PAIRWISE_FN(pw_f64, double, PW_LOAD_F64)
SL_PAIRWISE_FN(pw_half, float, PW_LOAD_HALF)

/* The tree over x[off, off + n) in dt's accumulator (float32 for 16-bit input), held in a
 * double (exact). */
static double pw_range(const void *x, sl_dtype dt, uint64_t off, uint64_t n)
{
    return dt == SL_F64 ? pw_f64(x, dt, off, n)
         : dt == SL_F32 ? (double)pw_f32(x, dt, off, n) : (double)pw_half(x, dt, off, n);
}

/* One add of the tree in dt's accumulator. */
static double pw_add(sl_dtype dt, double a, double b)
{
    return dt == SL_F64 ? a + b : (double)((float)a + (float)b);
}

/* On several threads: every binary digit 2^j of n >= PW_LEAF is a perfect tree, split into
 * perfect leaves of PW_LEAF elements summed in parallel and joined by the same perfect tree;
 * the digits below PW_LEAF (the last n mod PW_LEAF elements) are the serial code's own stack.
 * The fold is the serial one, so the result is the same bits for any thread count. */
#define PW_LEAF ((uint64_t)1 << 16)
typedef struct {
    const void *x;
    sl_dtype dt;
    double *leaf;             /* leaf sums */
} pw_job;

static void pw_leaf_task(void *ctx, size_t i)
{
    pw_job *j = ctx;
    j->leaf[i] = pw_range(j->x, j->dt, (uint64_t)i * PW_LEAF, PW_LEAF);
}

static int pairwise_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;
    const unsigned threads = sl_twin_threads();
    const uint64_t nleaf = n / PW_LEAF;
    double *leaf = threads > 1 && nleaf > 1 ? malloc((size_t)nleaf * sizeof *leaf) : NULL;
    if (!leaf) {               /* one thread (or no memory for the leaves): the serial tree */
        *result = sl_tw_out(pw_range(x, dt, 0, n), dt);
        return 0;
    }
    pw_job j = {x, dt, leaf};
    if (sl_parallel_for((size_t)nleaf, threads, pw_leaf_task, &j)) {
        free(leaf);
        return sl_err_set(err, "%s: a host thread could not be joined", v->name);
    }
    /* the digits >= PW_LEAF, largest first: digit 2^b covers nleaf's bit b - 16; each the
     * perfect tree over its cnt leaves */
    double dig[64];
    int nd = 0;
    uint64_t at = 0;
    for (int b = 63; b >= 0; b--) {
        const uint64_t cnt = (uint64_t)1 << b;
        if (!(nleaf & cnt)) continue;
        double *l = leaf + at;
        for (uint64_t w = 1; w < cnt; w *= 2)
            for (uint64_t k = 0; k + w < cnt; k += 2 * w) l[k] = pw_add(dt, l[k], l[k + w]);
        dig[nd++] = l[0];
        at += cnt;
    }
    const uint64_t rest = n - nleaf * PW_LEAF;
    int k = nd - 1;
    double r = rest ? pw_range(x, dt, nleaf * PW_LEAF, rest) : dig[k--];
    for (; k >= 0; k--) r = pw_add(dt, dig[k], r);
    free(leaf);
    *result = sl_tw_out(r, dt);
    return 0;
}

/* ================================ grid-stride engine =======================================
 * Shared by atomic-block (plain adds in the input format), fp64-acc (plain adds in double)
 * and kahan (Kahan lanes, compensated-pair tree); 16-bit input in float32 (fp64-acc: double).
 * Thread g of T = grid*block threads keeps A independent sets of one accumulator per vector
 * lane (W = 4 floats / 2 doubles / 8 float16 or bfloat16 values per 16-byte load; A = accs for
 * kahan, resolved to 2 on 16-bit input and 1 otherwise when 0; always 1 for atomic-block and
 * fp64-acc, which ignore accs):
 *   g < head: set 0, lane 0 takes x[g]  (head: elements before the first 16-byte boundary)
 *   step s = 0, 1, ..: vector j = g + s*T: set s mod A, lane k takes x[head + j*W + k]
 *                                                        (nv = (n-head)/W full vectors)
 *   g < tail: set 0, lane 0 takes x[head + nv*W + g]
 *   set value: W=4: (l0+l1)+(l2+l3); W=2: l0+l1; W=8: ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7))
 *   (+ is the variant's combine); thread value: the sets' values p_q folded pairwise,
 *   for w = A/2 .. 1: p_q = p_q + p_{q+w} (q < w), then p_0 (A = 1: the set value itself)
 * then the block tree (sl_block_sum shape), then the variant's device step. The variant is
 * v->impl: SL_ACC_ATOMIC_BLOCK, SL_ACC_KAHAN or SL_ACC_FP64_ACC. */
static void gs_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    /* kahan on 16-bit input: 2 sets of lanes unless asked otherwise (the launch-config sweep's
     * best point in bfloat16, BENCHMARKS.md: more loads in flight than one set's registers hold) */
    if (v->impl == SL_ACC_KAHAN && cfg->accs == 0 && sl_dtype_size(dt) == 2) cfg->accs = 2;
    sl_vec_grid_resolve(cfg, n, dt, SL_ACC_BLOCK, 1024u, SL_ACC_ITEMS, SL_ACC_THREADS_PER_SM, SL_ACC_MAX_GRID);
}

/* The engine's accumulator format: float64 for fp64-acc, else the input's (float32 for 16-bit). */
static sl_dtype gs_acc(const sl_variant *v, sl_dtype dt)
{
    return v->impl == SL_ACC_FP64_ACC ? SL_F64 : sl_dtype_acc(dt);
}

static double gs_depth_threads(uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    uint64_t T = (uint64_t)cfg->grid * cfg->block;
    uint64_t nv = n / sl_vec_width(dt);
    return (double)ceil_div(nv, T ? T : 1) + 2.0 + (double)sl_tw_ceil_log2(sl_vec_width(dt)) +
           sl_tw_depth_block_sum(cfg->block);
}

/* Thread g's lanes: a[q W + k] set q's lane k (A sets of W lanes), c[] their Kahan
 * compensations when comp (Kahan lanes), else plain adds in acc (c untouched). */
SL_TW_INLINE void gs_thread_lanes(int comp, uint32_t A, const void *x, uint64_t n, sl_dtype dt,
                                  sl_dtype acc, uint64_t g, uint64_t T, uint64_t head, uint64_t nv,
                                  double *a, double *c)
{
    const uint32_t W = sl_vec_width(dt);
    const uint64_t ts = head + nv * W;
#define GS_LANE_ADD(q_, xval)                                                                 \
    do {                                                                                      \
        double xv_ = (xval);                                                                  \
        if (comp) {                                                                           \
            if (acc == SL_F32) {                                                              \
                float S = (float)a[q_], C = (float)c[q_], X = (float)xv_;                     \
                float y = X - C;                                                              \
                float t = S + y;                                                              \
                c[q_] = (double)((t - S) - y);                                                \
                a[q_] = (double)t;                                                            \
            } else {                                                                          \
                double S = a[q_], C = c[q_];                                                  \
                double y = xv_ - C;                                                           \
                double t = S + y;                                                             \
                c[q_] = (t - S) - y;                                                          \
                a[q_] = t;                                                                    \
            }                                                                                 \
        } else {                                                                              \
            a[q_] = sl_tw_add(a[q_], xv_, acc);                                               \
        }                                                                                     \
    } while (0)
    for (int k = 0; k < 8; k++) a[k] = c[k] = 0.0; /* W <= 8; a fixed count: no memset call */
    for (uint32_t k = 8; k < A * W; k++) a[k] = c[k] = 0.0; /* the other sets: A W <= 64 */
    if (g < head) GS_LANE_ADD(0, sl_tw_load(x, dt, g));
    uint64_t s = 0;
    for (uint64_t j = g; j < nv; j += T, s++) {
        const uint32_t o = (uint32_t)(s & (A - 1)) * W; /* A a power of two */
        for (uint32_t k = 0; k < W; k++) GS_LANE_ADD(o + k, sl_tw_load(x, dt, head + j * W + k));
    }
    if (g < n - ts) GS_LANE_ADD(0, sl_tw_load(x, dt, ts + g));
#undef GS_LANE_ADD
}

/* One set's plain lanes l[0..W) combined by the set-value tree in acc. */
SL_TW_INLINE double gs_plain_set(const double *l, uint32_t W, sl_dtype acc)
{
    if (W == 8)
        return sl_tw_add(sl_tw_add(sl_tw_add(l[0], l[1], acc), sl_tw_add(l[2], l[3], acc), acc),
                         sl_tw_add(sl_tw_add(l[4], l[5], acc), sl_tw_add(l[6], l[7], acc), acc), acc);
    if (W == 4) return sl_tw_add(sl_tw_add(l[0], l[1], acc), sl_tw_add(l[2], l[3], acc), acc);
    return sl_tw_add(l[0], l[1], acc);
}

/* Per-thread values after the lane combine: vs[t] (plain/wide) or the pair vp[t] (kahan), in
 * the accumulator format acc; specialised per (dt, acc) by gs_thread_values below. A kahan
 * thread whose pair is not finite (an Inf or NaN among its values, or its running sum past the
 * format's range, where Kahan's compensation would turn Inf into NaN) gives (its plain sum, 0):
 * its values added again in one set of plain lanes, as gs_fix does on the GPU. */
SL_TW_INLINE int gs_thread_values_run(const sl_variant *v, const void *x, uint64_t n,
                                      sl_dtype dt, sl_dtype acc, const sl_launch *cfg,
                                      double *vs, sl_tw_pair *vp, sl_err *err)
{
    const sl_acc_kind kind = (sl_acc_kind)v->impl;
    const uint32_t W = sl_vec_width(dt);
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    const uint64_t head = sl_vec_head(n, dt, cfg->addr_mod);
    const uint64_t nv = (n - head) / W;

    /* A sets of W lanes (kahan's accs; the others one set); resolve leaves accs 0 for 1 */
    const uint32_t A = kind == SL_ACC_KAHAN && cfg->accs ? cfg->accs : 1;
    if (A != 1 && A != 2 && A != 4 && A != 8)
        return sl_err_set(err, "%s: accumulators %u not in {1, 2, 4, 8}", v->name, A);
    /* Thread by thread: thread g's lanes see their inputs in the order above (head, the vectors
     * j = g, g + T, ... of steps s = 0, 1, ... into set s mod A, tail). */
    for (uint64_t g = 0; g < T; g++) {
        double a[64], c[64];
        gs_thread_lanes(kind == SL_ACC_KAHAN, A, x, n, dt, acc, g, T, head, nv, a, c);
        if (kind == SL_ACC_KAHAN) {
            /* lane k of set r leaves as (s, -c); each set's lane tree, then the sets folded */
            sl_tw_pair ps[8];
            for (uint32_t r = 0; r < A; r++) {
                sl_tw_pair q[8];
                for (uint32_t k = 0; k < W; k++) q[k] = (sl_tw_pair){a[r * W + k], -c[r * W + k]};
                sl_tw_pair p = sl_tw_pair_add(q[0], q[1], acc);
                if (W >= 4) p = sl_tw_pair_add(p, sl_tw_pair_add(q[2], q[3], acc), acc);
                if (W == 8)
                    p = sl_tw_pair_add(p, sl_tw_pair_add(sl_tw_pair_add(q[4], q[5], acc),
                                                         sl_tw_pair_add(q[6], q[7], acc), acc), acc);
                ps[r] = p;
            }
            for (uint32_t w = A / 2; w >= 1; w /= 2)
                for (uint32_t r = 0; r < w; r++) ps[r] = sl_tw_pair_add(ps[r], ps[r + w], acc);
            if (!isfinite(ps[0].s)) {
                gs_thread_lanes(0, 1, x, n, dt, acc, g, T, head, nv, a, c);
                ps[0] = (sl_tw_pair){gs_plain_set(a, W, acc), 0.0};
            }
            vp[g] = ps[0];
        } else {
            vs[g] = gs_plain_set(a, W, acc);
        }
    }
    return 0;
}

static int gs_thread_values(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                            const sl_launch *cfg, double *vs, sl_tw_pair *vp, sl_err *err)
{
    int rc = -1;
#define GS_CALL(d, a, unused) rc = gs_thread_values_run(v, x, n, d, a, cfg, vs, vp, err)
    SL_TW_DISPATCH(dt, gs_acc(v, dt), GS_CALL, 0);
#undef GS_CALL
    return rc;
}

/* Block values: bs[b] (plain/wide) or bp[b] (kahan); the caller frees them. */
static int gs_block_values(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                           const sl_launch *cfg, double **bs, sl_tw_pair **bp, sl_err *err)
{
    const int pair = v->impl == SL_ACC_KAHAN;
    const uint64_t T = (uint64_t)cfg->grid * cfg->block;
    *bs = NULL;
    *bp = NULL;
    if (cfg->block == 0 || cfg->block % 32u || cfg->block > 1024u || cfg->grid == 0)
        return sl_err_set(err, "%s: unresolved launch configuration (block %u, grid %u)", v->name,
                          cfg->block, cfg->grid);
    double *vs = pair ? NULL : malloc(T * sizeof *vs);
    sl_tw_pair *vp = pair ? malloc(T * sizeof *vp) : NULL;
    if (pair) *bp = malloc(cfg->grid * sizeof **bp);
    else *bs = malloc(cfg->grid * sizeof **bs);
    int rc = (pair ? !vp || !*bp : !vs || !*bs) ? sl_err_set(err, "%s: out of memory", v->name)
                                               : gs_thread_values(v, x, n, dt, cfg, vs, vp, err);
    const sl_dtype acc = gs_acc(v, dt);
    for (uint32_t b = 0; rc == 0 && b < cfg->grid; b++) {
        const uint64_t o = (uint64_t)b * cfg->block;
        if (pair) (*bp)[b] = sl_tw_pair_block(vp + o, cfg->block, acc);
        else (*bs)[b] = sl_tw_block_sum(vs + o, cfg->block, acc);
    }
    free(vs);
    free(vp);
    if (rc) {
        free(*bs);
        free(*bp);
        *bs = NULL;
        *bp = NULL;
    }
    return rc;
}

/* ---- block values shared by atomic-block's repetitions ------------------------------------
 * atomic-block's block values do not depend on order_seed, and the measure layer runs a
 * variant's repetitions (one order_seed each) in parallel on the same input: they share one
 * computation. A slot is keyed by variant, input address, n, dtype and the launch
 * configuration (order_seed aside) and holds a private copy of the input, compared in full
 * before its values are used (the caller may refill the same buffer). A thread that finds its
 * key being computed waits for it. BV_SLOTS slots of inputs up to BV_MAX_BYTES each (larger
 * inputs are not cached); a new key takes an empty slot or the least recently used ready one.
 * Generic mode (sl_tw_set_generic) bypasses the cache. */
#define BV_SLOTS 4
#define BV_MAX_BYTES ((size_t)16 << 20)

typedef struct {
    int state;              /* BV_EMPTY, BV_BUSY (being computed) or BV_READY */
    uint64_t stamp;         /* last use, for the replacement */
    const sl_variant *v;
    const void *x;
    uint64_t n;
    sl_dtype dt;
    sl_launch cfg;          /* order_seed 0 */
    void *copy;             /* the input's bytes */
    double *bs;             /* cfg.grid block values */
} bv_slot;
enum { BV_EMPTY = 0, BV_BUSY, BV_READY };

static pthread_mutex_t bv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t bv_done = PTHREAD_COND_INITIALIZER;
static bv_slot bv_slots[BV_SLOTS];
static uint64_t bv_clock;

static void bv_clear(bv_slot *s)
{
    free(s->copy);
    free(s->bs);
    memset(s, 0, sizeof *s);
}

size_t sl_tw_cached_bytes(void)
{
    size_t sum = 0;
    pthread_mutex_lock(&bv_lock);
    for (int i = 0; i < BV_SLOTS; i++)
        if (bv_slots[i].state != BV_EMPTY)
            sum += (size_t)bv_slots[i].n * sl_dtype_size(bv_slots[i].dt) + (size_t)bv_slots[i].cfg.grid * sizeof(double);
    pthread_mutex_unlock(&bv_lock);
    return sum;
}

void sl_tw_release_caches(void)
{
    pthread_mutex_lock(&bv_lock);
    for (int i = 0; i < BV_SLOTS; i++)
        if (bv_slots[i].state == BV_READY) bv_clear(&bv_slots[i]);
    pthread_mutex_unlock(&bv_lock);
}

static int bv_same_key(const bv_slot *s, const sl_variant *v, const void *x, uint64_t n,
                       sl_dtype dt, const sl_launch *c)
{
    return s->state != BV_EMPTY && s->v == v && s->x == x && s->n == n && s->dt == dt &&
           s->cfg.block == c->block && s->cfg.grid == c->grid &&
           s->cfg.sm_count == c->sm_count && s->cfg.items == c->items &&
           s->cfg.addr_mod == c->addr_mod;
}

/* The block values of atomic-block (gs_block_values) into a malloc'ed *bs, shared between
 * callers with the same input and configuration. */
static int bv_get(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                  const sl_launch *cfg, double **bs, sl_err *err)
{
    sl_tw_pair *bp;
    const size_t bytes = (size_t)n * sl_dtype_size(dt), vbytes = (size_t)cfg->grid * sizeof **bs;
    if (sl_tw_generic() || bytes > BV_MAX_BYTES) return gs_block_values(v, x, n, dt, cfg, bs, &bp, err);
    bv_slot *mine = NULL;
    pthread_mutex_lock(&bv_lock);
    for (;;) {
        bv_slot *hit = NULL;
        for (int i = 0; i < BV_SLOTS && !hit; i++)
            if (bv_same_key(&bv_slots[i], v, x, n, dt, cfg)) hit = &bv_slots[i];
        if (hit && hit->state == BV_BUSY) {
            pthread_cond_wait(&bv_done, &bv_lock);
            continue;
        }
        if (hit && memcmp(hit->copy, x, bytes) == 0) {
            hit->stamp = ++bv_clock;
            *bs = malloc(vbytes ? vbytes : 1);
            if (*bs) memcpy(*bs, hit->bs, vbytes);
            pthread_mutex_unlock(&bv_lock);
            return *bs ? 0 : sl_err_set(err, "%s: out of memory", v->name);
        }
        if (hit) bv_clear(hit); /* same buffer, new contents */
        break;
    }
    for (int i = 0; i < BV_SLOTS; i++) { /* an empty slot, else the least recently used */
        bv_slot *s = &bv_slots[i];
        if (s->state == BV_BUSY) continue;
        if (!mine || s->state == BV_EMPTY || (mine->state != BV_EMPTY && s->stamp < mine->stamp))
            mine = s;
        if (mine->state == BV_EMPTY) break;
    }
    if (mine) {
        bv_clear(mine);
        mine->copy = malloc(bytes ? bytes : 1);
        if (mine->copy) {
            memcpy(mine->copy, x, bytes);
            mine->state = BV_BUSY;
            mine->v = v;
            mine->x = x;
            mine->n = n;
            mine->dt = dt;
            mine->cfg = *cfg;
            mine->cfg.order_seed = 0;
        } else {
            mine = NULL; /* no memory for the copy: compute without sharing */
        }
    }
    pthread_mutex_unlock(&bv_lock);
    const int rc = gs_block_values(v, x, n, dt, cfg, bs, &bp, err);
    if (!mine) return rc;
    pthread_mutex_lock(&bv_lock);
    mine->bs = rc ? NULL : malloc(vbytes ? vbytes : 1);
    if (mine->bs) {
        memcpy(mine->bs, *bs, vbytes);
        mine->state = BV_READY;
        mine->stamp = ++bv_clock;
    } else {
        bv_clear(mine);
    }
    pthread_cond_broadcast(&bv_done);
    pthread_mutex_unlock(&bv_lock);
    return rc;
}

/* ================================ atomic-block ==============================================
 * Block sums in the input format (engine above), then *result = +0 (memset) and one
 * atomicAdd per block: r = r + b_pi(0), r + b_pi(1), ... (float32: with FTZ, see below). The twin draws the commit order pi as
 * a Fisher-Yates shuffle of the blocks with j = sl_hash64(order_seed, i) % (i+1). */
static double atomic_block_depth(const sl_variant *v, uint64_t n, sl_dtype dt,
                                 const sl_launch *cfg)
{
    (void)v;
    return gs_depth_threads(n, dt, cfg) + (double)cfg->grid;
}

static int atomic_block_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                            const sl_launch *cfg, double *result, sl_err *err)
{
    double *bs;
    if (bv_get(v, x, n, dt, cfg, &bs, err)) return -1;
    const uint32_t G = cfg->grid;
    uint32_t *perm = sl_tw_shuffle(G, cfg->order_seed);
    if (!perm) {
        free(bs);
        return sl_err_set(err, "%s: out of memory", v->name);
    }
    double r = 0.0; /* the float32 atomicAdd flushes subnormals: see sl_tw_atomic_add */
    for (uint32_t i = 0; i < G; i++) r = sl_tw_atomic_add(r, bs[perm[i]], sl_dtype_acc(dt));
    *result = sl_tw_out(r, dt);
    free(perm);
    free(bs);
    return 0;
}

/* ================================ kahan =====================================================
 * Kahan lanes (y = x - c; t = s + y; c = (t - s) - y; s = t) leave as pairs (s, -c); pairs
 * combine by TwoSum with carried errors: s = s1+s2, bp = s-s1, err = (s1-(s-bp)) + (s2-bp),
 * e = err + (e1+e2); lanes -> sets (accs: A independent sets of lanes, folded pairwise; the
 * engine above) -> warp -> block -> last-block finish (thread t: a = (+0,+0); a = a (+) p[i] for
 * i = t, t+block, ...; block tree); result fl(s + e) in the input format. */
/* kahan and fp64-acc: the engine, block values, then the last-block finish. */
static double gs_finish_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v;
    return gs_depth_threads(n, dt, cfg) + sl_tw_depth_finish(cfg->grid, cfg->block);
}

/* kahan with A = accs sets (1 when 0): set 0 of the first thread takes ceil(steps / A) of its
 * ceil(nv / T) vectors (head and tail at most 2 more), then the lane tree and log2 A folds. */
static double kahan_depth(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)v;
    const uint64_t T = (uint64_t)cfg->grid * cfg->block, A = cfg->accs ? cfg->accs : 1;
    const uint64_t steps = ceil_div(n / sl_vec_width(dt), T ? T : 1);
    return (double)ceil_div(steps, A) + 2.0 + (double)sl_tw_ceil_log2(sl_vec_width(dt)) +
           (double)sl_tw_ceil_log2((uint32_t)A) + sl_tw_depth_block_sum(cfg->block) +
           sl_tw_depth_finish(cfg->grid, cfg->block);
}

static int kahan_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                     const sl_launch *cfg, double *result, sl_err *err)
{
    double *bs;
    sl_tw_pair *bp;
    if (gs_block_values(v, x, n, dt, cfg, &bs, &bp, err)) return -1;
    const sl_dtype acc = sl_dtype_acc(dt);
    const sl_tw_pair r = sl_tw_pair_finish(bp, cfg->grid, cfg->block, acc);
    /* fl(s + e); a non-finite s (an Inf or NaN met on the way) as it is: e is NaN beside it */
    const double f = !isfinite(r.s) ? r.s : acc == SL_F32 ? (double)((float)r.s + (float)r.e) : r.s + r.e;
    *result = sl_tw_out(f, dt);
    free(bp);
    return 0;
}

/* ================================ fp64-acc ==================================================
 * float32 input; the engine in double (each float converted exactly), block sums, the
 * sl_device_finish order in double (sl_tw_finish), then one rounding to float. */
static int fp64_acc_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                        const sl_launch *cfg, double *result, sl_err *err)
{
    if (dt == SL_F64) return sl_err_set(err, "%s: float32/float16/bfloat16 input only", v->name);
    double *bs;
    sl_tw_pair *bp;
    if (gs_block_values(v, x, n, dt, cfg, &bs, &bp, err)) return -1;
    double r = sl_tw_finish(bs, cfg->grid, cfg->block, SL_F64);
    *result = sl_tw_round(r, dt);   /* once, double -> the input format */
    free(bs);
    return 0;
}

/* ================================ multipass =================================================
 * Config-independent: tiles of SL_MP_TILE elements by index; tile reduced in a fixed order
 * by a fixed block of SL_MP_BLOCK threads (the block is part of the algorithm: resolve
 * forces it and items = tile size; only the grid is free and changes nothing). In a tile,
 * with W = 4 (float) / 2 (double) and J = TILE/(BLOCK*W): thread t, lane k:
 * a_k = e(t*W+k), then a_k += e((j*BLOCK+t)*W+k), j = 1..J-1 (missing elements: +0);
 * thread value (a0+a1)+(a2+a3) or a0+a1; then sl_block_sum. The partials (one per tile)
 * are reduced by the same tile rule, level after level, until one value remains. */
static void multipass_resolve(const sl_variant *v, sl_launch *cfg, uint64_t n, sl_dtype dt)
{
    (void)v; (void)dt;
    const uint64_t tiles = n ? ceil_div(n, SL_MP_TILE) : 1;
    cfg->block = SL_MP_BLOCK;
    cfg->items = SL_MP_TILE;
    if (cfg->grid == 0) {
        uint64_t maxg = (uint64_t)cfg->sm_count * SL_MP_BLOCKS_PER_SM;
        if (maxg == 0) maxg = 1;
        uint64_t per = ceil_div(tiles, maxg);          /* tiles per block, balanced */
        cfg->grid = (uint32_t)ceil_div(tiles, per);
    }
    if (cfg->grid > tiles) cfg->grid = (uint32_t)tiles;
}

static double multipass_depth(const sl_variant *v, uint64_t n, sl_dtype dt,
                              const sl_launch *cfg)
{
    (void)v; (void)cfg;
    /* 16-bit input: level 0 has W = 8 (3 + 3 adds per thread), the float32 levels W = 4 (7 + 2):
     * every level is counted as the longer one */
    const uint32_t W = sl_vec_width(sl_dtype_acc(dt));
    const double level = (double)(SL_MP_TILE / (SL_MP_BLOCK * W) - 1) + (double)sl_tw_ceil_log2(W) +
                         sl_tw_depth_block_sum(SL_MP_BLOCK);
    int levels = 1;
    for (uint64_t m = ceil_div(n, SL_MP_TILE); m > 1; m = ceil_div(m, SL_MP_TILE)) levels++;
    return n ? levels * level : 0.0;
}

/* One tile of an m-element array of format dt (its W lanes), added in format acc; specialised
 * per (dt, acc) by mp_tile below. */
SL_TW_INLINE double mp_tile_run(const void *x, uint64_t m, uint64_t tile, sl_dtype dt,
                                sl_dtype acc)
{
    const uint32_t W = sl_vec_width(dt), J = SL_MP_TILE / (SL_MP_BLOCK * W);
    const uint64_t base = tile * SL_MP_TILE;
    double tv[SL_MP_BLOCK];
    for (uint32_t t = 0; t < SL_MP_BLOCK; t++) {
        double a[8];
        for (uint32_t k = 0; k < W; k++) {
            uint64_t i = base + (uint64_t)t * W + k;
            a[k] = i < m ? sl_tw_load(x, dt, i) : 0.0;
        }
        for (uint32_t j = 1; j < J; j++)
            for (uint32_t k = 0; k < W; k++) {
                uint64_t i = base + ((uint64_t)j * SL_MP_BLOCK + t) * W + k;
                a[k] = sl_tw_add(a[k], i < m ? sl_tw_load(x, dt, i) : 0.0, acc);
            }
        if (W == 8)
            tv[t] = sl_tw_add(sl_tw_add(sl_tw_add(a[0], a[1], acc), sl_tw_add(a[2], a[3], acc), acc),
                              sl_tw_add(sl_tw_add(a[4], a[5], acc), sl_tw_add(a[6], a[7], acc), acc), acc);
        else
            tv[t] = W == 4 ? sl_tw_add(sl_tw_add(a[0], a[1], acc), sl_tw_add(a[2], a[3], acc), acc)
                           : sl_tw_add(a[0], a[1], acc);
    }
    return sl_tw_block_sum(tv, SL_MP_BLOCK, acc);
}

static double mp_tile(const void *x, sl_dtype dt, sl_dtype acc, uint64_t m, uint64_t tile)
{
    double r;
#define MP_CALL(d, a, unused) r = mp_tile_run(x, m, tile, d, a)
    SL_TW_DISPATCH(dt, acc, MP_CALL, 0);
#undef MP_CALL
    return r;
}

static int multipass_cpu(const sl_variant *v, const void *x, uint64_t n, sl_dtype dt,
                         const sl_launch *cfg, double *result, sl_err *err)
{
    (void)cfg;
    if (n == 0) {
        *result = 0.0;
        return 0;
    }
    uint64_t m = ceil_div(n, SL_MP_TILE);
    const sl_dtype acc = sl_dtype_acc(dt);   /* the partials' format */
    const size_t es = sl_dtype_size(acc);
    void *cur = malloc(m * es);
    if (!cur) return sl_err_set(err, "%s: out of memory", v->name);
    for (uint64_t t = 0; t < m; t++) {
        double v = mp_tile(x, dt, acc, n, t);
        if (acc == SL_F32) ((float *)cur)[t] = (float)v;
        else ((double *)cur)[t] = v;
    }
    while (m > 1) {
        uint64_t pn = ceil_div(m, SL_MP_TILE);
        void *nxt = malloc(pn * es);
        if (!nxt) {
            free(cur);
            return sl_err_set(err, "%s: out of memory", v->name);
        }
        for (uint64_t t = 0; t < pn; t++) {
            double v = mp_tile(cur, acc, acc, m, t);
            if (acc == SL_F32) ((float *)nxt)[t] = (float)v;
            else ((double *)nxt)[t] = v;
        }
        free(cur);
        cur = nxt;
        m = pn;
    }
    *result = sl_tw_out(sl_tw_load(cur, acc, 0), dt);
    free(cur);
    return 0;
}

#ifndef SUMLAB_HAVE_CUDA
/* Without CUDA there is no kernel to ask (accuracy.cu defines this otherwise). */
int sl_accuracy_kernel_attrs(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg,
                             int *regs, int *blocks_per_sm, double *occupancy, sl_err *err)
{
    (void)n; (void)dt; (void)cfg; (void)regs; (void)blocks_per_sm; (void)occupancy;
    return sl_err_set(err, "%s: no kernel attributes: sumlab was built without CUDA", v->name);
}
#endif

/* ================================ descriptors =============================================== */
/* Every member with a kernel: the family's one workspace() and gpu() (the member is .impl). */
#define ACC_GPU                                                                             \
    .workspace = SL_GPU_ENTRY(sl_accuracy_workspace), .gpu = SL_GPU_ENTRY(sl_accuracy_gpu)

const sl_variant sl_v_serial = {
    .name = "serial", .op = "sum", .family = "accuracy", .impl = SL_ACC_SERIAL,
    .determinism = SL_DET_CONFIG_INDEPENDENT,
    .description = "one thread in index order: recursive summation, the textbook baseline",
    .dtypes = SL_DTYPES_ALL, .max_n = (uint64_t)1 << 26, .bound = SL_BOUND_RECURSIVE,
    .resolve = serial_resolve, .depth = serial_depth, .cpu = serial_cpu, ACC_GPU,
};
const sl_variant sl_v_pairwise = {
    .name = "pairwise", .op = "sum", .family = "accuracy", .impl = SL_ACC_PAIRWISE,
    .determinism = SL_DET_CONFIG_INDEPENDENT,
    .description = "balanced binary tree over the inputs (CPU only)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,
    .resolve = pairwise_resolve, .depth = pairwise_depth, .cpu = pairwise_cpu,
};
const sl_variant sl_v_atomic_block = {
    .name = "atomic-block", .op = "sum", .family = "accuracy", .impl = SL_ACC_ATOMIC_BLOCK,
    .determinism = SL_DET_NONDETERMINISTIC, .ftz_atomics = 1,
    .description = "block tree, then one atomicAdd per block: block sums commit in the "
                   "hardware's order",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,
    .resolve = gs_resolve, .depth = atomic_block_depth, .cpu = atomic_block_cpu, ACC_GPU,
};
const sl_variant sl_v_kahan = {
    .name = "kahan", .op = "sum", .family = "accuracy", .impl = SL_ACC_KAHAN,
    .determinism = SL_DET_RUN_TO_RUN,
    .description = "compensated (Kahan) per thread, compensated (TwoSum) combination through "
                   "the tree; a thread whose sum is not finite gives its plain sum (an Inf input "
                   "stays Inf, not NaN)",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_COMPENSATED,
    .resolve = gs_resolve, .depth = kahan_depth, .cpu = kahan_cpu, ACC_GPU,
};
const sl_variant sl_v_fp64_acc = {
    .name = "fp64-acc", .op = "sum", .family = "accuracy", .impl = SL_ACC_FP64_ACC,
    .determinism = SL_DET_RUN_TO_RUN, .acc_wide = 1,
    .description = "float32 inputs, float64 accumulators everywhere, one rounding at the end",
    .dtypes = SL_DTYPE_MASK(SL_F32) | SL_DTYPES_HALF, .bound = SL_BOUND_RECURSIVE,
    .resolve = gs_resolve, .depth = gs_finish_depth, .cpu = fp64_acc_cpu, ACC_GPU,
};
const sl_variant sl_v_multipass = {
    .name = "multipass", .op = "sum", .family = "accuracy", .impl = SL_ACC_MULTIPASS,
    .determinism = SL_DET_CONFIG_INDEPENDENT,
    .description = "fixed-size tiles -> partials -> fixed tree over the partials: independent "
                   "of grid, block and SM count",
    .dtypes = SL_DTYPES_ALL, .bound = SL_BOUND_RECURSIVE,
    .resolve = multipass_resolve, .depth = multipass_depth, .cpu = multipass_cpu, ACC_GPU,
};

/* exact/pairsum.cuh: the kernel of the cheap certified first pass (exact/pairsum.h) of the
 * `correct` dot product (NIN = 2: the products x y) and norm2 (NIN = 1: the squares x x), one
 * launch, over an accumulator policy Ops: the Fast2Sum pair (sl_psum_ops_pair: dot, float64
 * norm2) or the plain float64 sum of exact squares (sl_psum_ops_sq: float32/16-bit norm2):
 *  1. per thread, the terms of its head element, its 16-byte vectors (U loads of each input in
 *     flight) and its tail element into one accumulator;
 *  2. warp shuffles (5 levels), warp 0 over the warps (5 levels); thread 0 stores the block's
 *     accumulator in the workspace and takes the ticket;
 *  3. the last block merges the G blocks' accumulators (thread t: blocks t, t + B, ...; then the
 *     same two tree levels); lanes 0 and 1 map the box's two ends to the result's format
 *     (Fin::end: dot, S rounded exactly; norm2, the root's candidate when its side's midpoint test
 *     holds) with h = sl_psum_chain (>= every term's steps); when they agree on a finite nonzero
 *     value that is the result, else the gate word opens for the caller's next pass (dot:
 *     exact/certified.cuh's sl_cert_kernel, which shuts it; norm2: the exact kernel, which shuts
 *     it). Every block allows a programmatic dependent launch behind it at its start
 *     (griddepcontrol.launch_dependents: norm2's exact kernel, which waits for this grid's end
 *     before it reads; no effect on an ordinary launch behind it).
 * Workspace: the header (zero before the first launch; the kernel leaves it so): [0, 4) the
 * ticket, [4, 8) the gate; one accumulator per block (written before read), from
 * SL_PSUM_WS_HEADER in sl_psum_ws_bytes's layout or where the caller places them.
 * Performance considerations: per element pair two widenings, a multiply, a Fast2Sum with its
 * compare and two adds (float64: one more fma and add); per square of a narrow value one widening
 * and one fma: under the read time on the H200. */
#ifndef SL_EXACT_PAIRSUM_CUH
#define SL_EXACT_PAIRSUM_CUH
#include "reduce/reduce.cuh"
#include "exact/pairsum.h"

#define SL_PSUM_WS_HEADER 16u
static inline size_t sl_psum_ws_bytes(uint64_t grid)
{
    return SL_PSUM_WS_HEADER + sizeof(sl_psum_acc) * (size_t)(grid ? grid : 1u);
}

/* The accumulator policies (A the per-thread state): the pair (dot; float64 norm2) and the plain
 * float64 sum of the squares of float32/16-bit values (norm2), exact/pairsum.h. */
struct sl_psum_ops_pair {
    typedef sl_psum_acc A;
    static __device__ __forceinline__ void init(A &a) { sl_psum_init(&a); }
    template <typename In> static __device__ __forceinline__ void term(A &a, In xi, In yi)
    {
        const double u = (double)sl_widen(xi), v = (double)sl_widen(yi), p = u * v;
        sl_psum_take(&a, p, sizeof(In) == 8 ? fma(u, v, -p) : 0.0);
    }
    static __device__ __forceinline__ void merge(A &a, const A &b) { sl_psum_merge(&a, &b); }
    static __device__ __forceinline__ A shfl(const A &a, int off)
    {
        A b;
        b.s = __shfl_down_sync(SL_FULL_MASK, a.s, off);
        b.c = __shfl_down_sync(SL_FULL_MASK, a.c, off);
        b.a = __shfl_down_sync(SL_FULL_MASK, a.a, off);
        return b;
    }
    static __device__ __forceinline__ A load_cg(const A *p)
    {
        A r;
        r.s = __ldcg(&p->s);
        r.c = __ldcg(&p->c);
        r.a = __ldcg(&p->a);
        return r;
    }
    static __device__ __forceinline__ int bound(const A &t, uint64_t n, uint64_t h, double *E)
    {
        return sl_psum_bound(&t, n, h, E);
    }
};
struct sl_psum_ops_sq {
    typedef double A;
    static __device__ __forceinline__ void init(A &a) { a = 0.0; }
    template <typename In> static __device__ __forceinline__ void term(A &a, In xi, In)
    {
        a = sl_psum_sq_take(a, (double)sl_widen(xi));
    }
    static __device__ __forceinline__ void merge(A &a, const A &b) { a = a + b; }
    static __device__ __forceinline__ A shfl(const A &a, int off) { return __shfl_down_sync(SL_FULL_MASK, a, off); }
    static __device__ __forceinline__ A load_cg(const A *p) { return __ldcg(p); }
    static __device__ __forceinline__ int bound(const A &t, uint64_t, uint64_t h, double *E)
    {
        return sl_psum_sq_bound(t, h, E);
    }
};

/* The block's accumulator (valid in thread 0). */
template <class Ops>
__device__ __forceinline__ typename Ops::A sl_psum_block(typename Ops::A a, typename Ops::A *s_w,
                                                         unsigned lane, unsigned warp, unsigned B)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) Ops::merge(a, Ops::shfl(a, off));
    if (lane == 0) s_w[warp] = a;
    sl_bar_any::sync();
    if (warp == 0) {
        if (lane < (B >> 5)) a = s_w[lane];
        else Ops::init(a);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) Ops::merge(a, Ops::shfl(a, off));
    }
    return a;
}

/* x, y: n elements (y = x for norm2), split as sl_layout.h (head, nv vectors); hdr: the ticket
 * and the gate (zero between launches), parts: one accumulator per block (sl_psum_ws_bytes's
 * layout: hdr = the workspace, parts = hdr + SL_PSUM_WS_HEADER bytes); blockDim a multiple of 32. Fin::end(&t, E, side) -> the end in the format, widened (t the
 * grid's Ops::A). */
template <typename In, int NIN, class Fin, class Ops = sl_psum_ops_pair>
__global__ void __launch_bounds__(1024)
sl_psum_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t n, uint64_t head,
               uint64_t nv, unsigned *hdr, unsigned char *parts, In *result)
{
    typedef typename sl_vec<In>::type V;
    typedef typename Ops::A A;
    constexpr int W = sl_vec<In>::W;
    constexpr int U = 4;
    __shared__ A s_w[32];
    __shared__ A s_t;
    asm volatile("griddepcontrol.launch_dependents;");
    unsigned *g_counter = hdr;
    unsigned *g_gate = hdr + 1;
    A *g_part = reinterpret_cast<A *>(parts);
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    const unsigned lane = tid & 31u, warp = tid >> 5;
    const uint64_t T = (uint64_t)G * B;
    const uint64_t g = (uint64_t)blockIdx.x * B + tid;
    A a;
    Ops::init(a);
    if (g < head) Ops::template term<In>(a, x[g], NIN == 2 ? y[g] : x[g]);
    const V *xv = reinterpret_cast<const V *>(x + head);
    const V *yv = reinterpret_cast<const V *>(y + head);
    uint64_t j = g;
    for (; j + (uint64_t)(U - 1) * T < nv; j += (uint64_t)U * T) {
        V vx[U], vy[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            vx[u] = sl_ldv(xv + j + (uint64_t)u * T);
            if (NIN == 2) vy[u] = sl_ldv(yv + j + (uint64_t)u * T);
            else vy[u] = vx[u];
        }
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < W; k++) Ops::template term<In>(a, sl_vec_lane(vx[u], k), sl_vec_lane(vy[u], k));
    }
    for (; j < nv; j += T) {
        const V vx = sl_ldv(xv + j), vy = NIN == 2 ? sl_ldv(yv + j) : vx;
#pragma unroll
        for (int k = 0; k < W; k++) Ops::template term<In>(a, sl_vec_lane(vx, k), sl_vec_lane(vy, k));
    }
    const uint64_t ts = head + nv * W;
    if (g < n - ts) Ops::template term<In>(a, x[ts + g], NIN == 2 ? y[ts + g] : x[ts + g]);
    a = sl_psum_block<Ops>(a, s_w, lane, warp, B);
    if (tid == 0) g_part[blockIdx.x] = a;
    /* thread 0 published and fences before its ticket */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    Ops::init(a);
    for (unsigned b = tid; b < G; b += B) Ops::merge(a, Ops::load_cg(g_part + b));
    sl_bar_any::sync();                              /* s_w is read again below */
    a = sl_psum_block<Ops>(a, s_w, lane, warp, B);
    if (tid == 0) s_t = a;
    sl_bar_any::sync();
    if (tid < 2u) {                                  /* lane 0: the least end, lane 1: the largest */
        const uint64_t h = sl_psum_chain(nv, (uint64_t)W, T, G, B);
        double E = 0.0, e = 0.0;
        const int ok = Ops::bound(s_t, n, h, &E);
        if (ok) e = Fin::end(&s_t, E, tid ? 1 : -1);
        const double other = __shfl_sync(0x3u, e, 1);
        if (tid == 0) {
            double r;
            if (ok && sl_psum_decide(e, other, &r)) *result = Fin::template out<In>(r);
            else *g_gate = 1u;                       /* the caller's next pass runs */
            *g_counter = 0u;
        }
    }
}
#endif

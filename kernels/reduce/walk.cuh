/* reduce/walk.cuh: thread scope: one thread's share of x[0, n) split as sl_layout.h's head,
 * whole 16-byte vectors and tail, walked in a fixed order: the thread's vectors t, t + T, ...
 * with U loads in flight before their values are used, then its leftover vectors one at a time,
 * and its edge values (head and tail) one by one, before or after the vectors. t and T are a
 * grid's thread index and thread count (a 1-D kernel: sl_split_of), or a row's lane and lane
 * count (a warp or a block per row: sl_row_split, the row's own split at its address).
 * The twins mirror the order the walk gives each thread (values into a state in that order). */
#ifndef SL_REDUCE_WALK_CUH
#define SL_REDUCE_WALK_CUH
#include <stdint.h>
#include "reduce/vec.cuh"

/* A thread's view of the split: n values, head values before the first 16-byte boundary, nv
 * whole vectors from x + head, the tail from tail0 = head + nv W; nedge = head + tail values in
 * all, edge e (0 <= e < nedge) at e < head ? e : tail0 + (e - head). */
struct sl_split {
    uint64_t n, head, nv, tail0, nedge;
};
/* From a 1-D kernel's arguments (sl_layout.h's sl_vec_split on the host). */
template <typename X>
__device__ __forceinline__ sl_split sl_split_of(uint64_t n, uint64_t head, uint64_t nv)
{
    sl_split s;
    s.n = n;
    s.head = head;
    s.nv = nv;
    s.tail0 = head + nv * sl_vec<X>::W;
    s.nedge = head + (n - s.tail0);
    return s;
}
/* From a row's address (the head clipped to n). */
template <typename X>
__device__ __forceinline__ sl_split sl_row_split(const X *row, uint64_t n)
{
    uint64_t head = ((16u - ((uintptr_t)row & 15u)) & 15u) / sizeof(X);
    if (head > n) head = n;
    return sl_split_of<X>(n, head, (n - head) / sl_vec<X>::W);
}

/* Where the edge values go in the walk. SL_EDGES_ONE_FIRST: at most one a thread (the caller
 * knows nedge <= T: fewer than 2W values and T >= 2W), taken without a loop. */
enum { SL_EDGES_LAST = 0, SL_EDGES_FIRST = 1, SL_EDGES_ONE_FIRST = 2 };

/* The thread's edges e = t, t + T, ... < nedge through fi(index of edge e). */
template <int E, typename FI>
__device__ __forceinline__ void sl_walk_edge_index(const sl_split &s, uint64_t t, uint64_t T, FI fi)
{
    if (E == SL_EDGES_ONE_FIRST) {
        if (t < s.nedge) fi(t < s.head ? t : s.tail0 + (t - s.head));
    } else {
        for (uint64_t e = t; e < s.nedge; e += T) fi(e < s.head ? e : s.tail0 + (e - s.head));
    }
}
/* The thread's edge values through fe(value). */
template <int E, typename X, typename FE>
__device__ __forceinline__ void sl_walk_edges(const X *x, const sl_split &s, uint64_t t, uint64_t T, FE fe)
{
    sl_walk_edge_index<E>(s, t, T, [&](uint64_t i) { fe(x[i]); });
}

/* The walk of thread t of T over x split as s: fu(v) with v[0..U) the vectors j, j + T, ...,
 * j + (U - 1) T of one step (j = t, t + UT, ...), all loaded (sl_ldv) before fu sees any; f1(v)
 * for each leftover vector (none for U = 1); fe(value) for each edge value, first or last (E).
 * The order of the calls is the order a twin mirrors. Edges last: their bounds are computed
 * after the loops (not held in registers across them). P = 1: each step's U loads are issued
 * before fu takes the step before it (2U vectors in registers), so that a warp's loads stay in
 * flight while it computes; the same calls in the same order. */
template <int U, int E, int P = 0, typename X, typename FU, typename F1, typename FE>
__device__ __forceinline__ void sl_walk(const X *x, const sl_split &s, uint64_t t, uint64_t T, FU fu,
                                        F1 f1, FE fe)
{
    typedef typename sl_vec<X>::type V;
    if (E != SL_EDGES_LAST) sl_walk_edges<E>(x, s, t, T, fe);
    const V *xv = reinterpret_cast<const V *>(x + s.head);
    uint64_t j = t;
    if constexpr (P != 0) {   /* not instantiated for P = 0: that walk's code as before */
        if (j + (uint64_t)(U - 1) * T < s.nv) {
            V v[U];
#pragma unroll
            for (int u = 0; u < U; u++) v[u] = sl_ldv(xv + j + (uint64_t)u * T);
            for (j += (uint64_t)U * T; j + (uint64_t)(U - 1) * T < s.nv; j += (uint64_t)U * T) {
                V w[U];
#pragma unroll
                for (int u = 0; u < U; u++) w[u] = sl_ldv(xv + j + (uint64_t)u * T);
                fu(v);
#pragma unroll
                for (int u = 0; u < U; u++) v[u] = w[u];
            }
            fu(v);
        }
    }
    for (; j + (uint64_t)(U - 1) * T < s.nv; j += (uint64_t)U * T) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = sl_ldv(xv + j + (uint64_t)u * T);
        fu(v);
    }
    if (U > 1)   /* U = 1: the loop above took every vector */
        for (; j < s.nv; j += T) f1(sl_ldv(xv + j));
    if (E == SL_EDGES_LAST) sl_walk_edges<E>(x, sl_split_of<X>(s.n, s.head, s.nv), t, T, fe);
}

/* sl_walk value by value: f(value, k) for every value of the thread's share in the walk's order,
 * k its lane in its vector (edge values: k = 0); a step's values after all its U loads, vector
 * by vector, lane by lane (P: sl_walk's). f widens (sl_widen, sl_widen_lane_f64). */
template <int U, int E, int P = 0, typename X, typename F>
__device__ __forceinline__ void sl_walk_values(const X *x, const sl_split &s, uint64_t t, uint64_t T, F f)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W };
    sl_walk<U, E, P>(
        x, s, t, T,
        [&](const V *v) {
#pragma unroll
            for (int u = 0; u < U; u++)
#pragma unroll
                for (int k = 0; k < W; k++) f(sl_vec_lane(v[u], k), k);
        },
        [&](const V &v) {
#pragma unroll
            for (int k = 0; k < W; k++) f(sl_vec_lane(v, k), k);
        },
        [&](X e) { f(e, 0); });
}

/* sl_walk with each step's U W values in groups of G widened to float64, fg(d) with d[0..G) (the
 * values vector by vector, lane by lane), and every other value (leftover vectors, edges E) one
 * by one through f1(value). */
template <int U, int G, int E, typename X, typename FG, typename F1>
__device__ __forceinline__ void sl_walk_groups_f64(const X *x, const sl_split &s, uint64_t t, uint64_t T, FG fg,
                                                   F1 f1)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W };
    static_assert((U * W) % G == 0, "sl_walk_groups_f64: whole groups a step");
    sl_walk<U, E>(
        x, s, t, T,
        [&](const V *v) {
#pragma unroll
            for (int g = 0; g < U * W / G; g++) {
                double d[G];
                sl_vec_group_f64<X, G>(v, g, d);
                fg(d);
            }
        },
        [&](const V &v) {
#pragma unroll
            for (int k = 0; k < W; k++) f1(sl_vec_lane(v, k));
        },
        f1);
}

/* Two arrays x and y of one split (the same address modulo 16 bytes, so one split serves both),
 * walked as sl_walk_groups_f64 walks one: each step's U vectors of x and of y (2U loads in flight)
 * in groups of G widened to float64, fg(dx, dy) with the pairs at the same indices, and every
 * other pair (leftover vectors, edges E) one by one through f1(xi, yi). */
template <int U, int G, int E, typename X, typename FG, typename F1>
__device__ __forceinline__ void sl_walk2_groups_f64(const X *x, const X *y, const sl_split &s, uint64_t t,
                                                    uint64_t T, FG fg, F1 f1)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W };
    static_assert((U * W) % G == 0, "sl_walk2_groups_f64: whole groups a step");
    auto edges = [&]() { sl_walk_edge_index<E>(s, t, T, [&](uint64_t i) { f1(x[i], y[i]); }); };
    if (E != SL_EDGES_LAST) edges();
    const V *xv = reinterpret_cast<const V *>(x + s.head), *yv = reinterpret_cast<const V *>(y + s.head);
    uint64_t j = t;
    for (; j + (uint64_t)(U - 1) * T < s.nv; j += (uint64_t)U * T) {
        V a[U], b[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            a[u] = sl_ldv(xv + j + (uint64_t)u * T);
            b[u] = sl_ldv(yv + j + (uint64_t)u * T);
        }
#pragma unroll
        for (int g = 0; g < U * W / G; g++) {
            double dx[G], dy[G];
            sl_vec_group_f64<X, G>(a, g, dx);
            sl_vec_group_f64<X, G>(b, g, dy);
            fg(dx, dy);
        }
    }
    for (; j < s.nv; j += T) {
        const V a = sl_ldv(xv + j), b = sl_ldv(yv + j);
#pragma unroll
        for (int k = 0; k < W; k++) f1(sl_vec_lane(a, k), sl_vec_lane(b, k));
    }
    if (E == SL_EDGES_LAST) edges();
}

#endif

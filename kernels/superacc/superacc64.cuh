/* superacc64.cuh: the float64 expansion of `superacc`'s exact step (superacc.cu's step 1b): a
 * thread's TwoSum expansion a + b + c, its leftovers spilled exactly into the block limbs, and
 * sacc_block_sum, a block's share of an array summed exactly into its limbs. Included by
 * superacc64.cu (the 1-D exact kernel, relocatable device code) and rows/rows.cu (the exact
 * kernel on the float64 rows superacc's certified row pass lists). */
#ifndef SL_SUPERACC64_CUH
#define SL_SUPERACC64_CUH
#include "superacc/superacc.cuh"

/* Inputs the expansion takes: float64 below 2^950 (n < 2^40 of them stay below 2^990: no add
 * can overflow). */
__device__ __forceinline__ bool sacc_ordinary(double d) { return fabs(d) < 0x1p950; }
__device__ __forceinline__ unsigned sacc_hiword(double d) { return (unsigned)__double2hiint(d); }

/* The rare path: NaN/Inf return flags; a huge finite float64 goes straight to the limbs. */
SL_NOINLINE_SHARED unsigned sacc_rare(double v, int scale, unsigned long long *s_acc)
{
    if (isnan(v)) return SL_SACC_NAN;
    if (isinf(v)) return v > 0 ? SL_SACC_PINF : SL_SACC_NINF;
    sl_sacc_spill(v, scale, s_acc);
    return 0u;
}

/* The per-thread state (registers: nothing takes its address): expansion a + b + c, flags,
 * AND of the inputs' sign words. */
struct sacc_thread {
    double a, b, c;
    unsigned flags, sg;
};

/* TwoSum chain: (a, e) = TwoSum(a, v); (b, e) = TwoSum(b, e); (c, e) = TwoSum(c, e).
 * Returns the leftover e (a + b + c + e == old a + b + c + v, exactly). */
__device__ __forceinline__ double sacc_fpe(sacc_thread &t, const double v)
{
    double s = t.a + v, bb = s - t.a;
    double e = (t.a - (s - bb)) + (v - bb);
    t.a = s;
    s = t.b + e; bb = s - t.b;
    e = (t.b - (s - bb)) + (e - bb);
    t.b = s;
    s = t.c + e; bb = s - t.c;
    e = (t.c - (s - bb)) + (e - bb);
    t.c = s;
    return e;
}

/* One element, any value (edges, partial tiles, groups holding a rare value). */
template <typename T>
__device__ __forceinline__ void sacc_take(T x, sacc_thread &t, unsigned long long *s_acc)
{
    t.sg &= sacc_hiword(x);
    if (!sacc_ordinary(x)) {
        t.flags |= sacc_rare((double)x, sacc_fmt<T>::SCALE, s_acc);
        return;
    }
    const double e = sacc_fpe(t, (double)x);
    if (e != 0.0) sl_sacc_spill(e, sacc_fmt<T>::SCALE, s_acc);
}

/* K elements as one branch-free group when all are ordinary: the K expansion steps are
 * straight-line code the compiler interleaves; the leftovers are tested once at the end. */
template <typename T, int K>
__device__ __forceinline__ void sacc_take_group(const T *x, sacc_thread &t,
                                                unsigned long long *s_acc)
{
    bool ok = true;
#pragma unroll
    for (int k = 0; k < K; k++) ok = ok & sacc_ordinary(x[k]);
    if (!ok) {
#pragma unroll
        for (int k = 0; k < K; k++) sacc_take(x[k], t, s_acc);
        return;
    }
    double e[K];
    bool spill = false;
#pragma unroll
    for (int k = 0; k < K; k++) {
        t.sg &= sacc_hiword(x[k]);
        e[k] = sacc_fpe(t, (double)x[k]);
        spill = spill | (e[k] != 0.0);
    }
    if (spill) {
#pragma unroll
        for (int k = 0; k < K; k++)
            if (e[k] != 0.0) sl_sacc_spill(e[k], sacc_fmt<T>::SCALE, s_acc);
    }
}

template <int K>
__device__ __forceinline__ void sacc_unpack(const double2 *r, double (&x)[K])
{
#pragma unroll
    for (int k = 0; k < K / 2; k++) { x[2 * k] = r[k].x; x[2 * k + 1] = r[k].y; }
}
__device__ __forceinline__ void sacc_take_vec(double2 v, sacc_thread &t, unsigned long long *s)
{
    sacc_take(v.x, t, s); sacc_take(v.y, t, s);
}

/* ---- float64: expansion (step 1b) --------------------------------------------------------- */
/* Part `part` of `parts` (a block's share) of x[0..n) (head elements before the first 16-byte
 * boundary) into the calling block's limbs s_acc, zeroed by the caller, and its flags into
 * *s_flags: thread tid of B takes edge values tid + part B, .. and the whole tiles part,
 * part + parts, .., each value into its TwoSum expansion (leftovers spilled exactly), the limbs
 * normalised every SACC_BLOCK_ELEMS_PER_NORM values a block; then the expansion into the limbs
 * and the limbs normalised. Block-collective: every thread calls it (its barriers are reached by
 * all of them: the tile loop's trip count and `since` depend on part, parts, B and n only; the
 * edge loop and the spill/rare branches hold none); on return s_acc holds the part's exact sum. */
__device__ __forceinline__ void sacc_block_sum(const double *__restrict__ x, uint64_t n, uint64_t head,
                                               uint64_t part, uint64_t parts, unsigned tid, unsigned B,
                                               unsigned long long *s_acc, unsigned *s_flags)
{
    typedef double T;
    typedef sacc_fmt<T> F;
    typedef typename F::V V;
    sacc_thread t = {0.0, 0.0, 0.0, 0u, 0xffffffffu};
    const uint64_t nv = (n - head) / F::VW;          /* whole vectors after the head */
    const uint64_t tail0 = head + nv * F::VW, nedge = head + (n - tail0);
    for (uint64_t i = part * B + tid; i < nedge; i += parts * B)
        sacc_take(x[i < head ? i : tail0 + (i - head)], t, s_acc);

    const V *xv = reinterpret_cast<const V *>(x + head);
    const uint64_t per_tile = (uint64_t)B * F::U;
    const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
    /* tiles between normalisations: at most 2^29 elements reach a limb in that time */
    uint64_t every = SACC_BLOCK_ELEMS_PER_NORM / (per_tile * F::VW);
    if (every == 0) every = 1;
    uint64_t since = 0;
    for (uint64_t tile = part; tile < ntiles; tile += parts) {
        const uint64_t base = tile * per_tile + tid;
        if ((tile + 1) * per_tile <= nv) {
            V r[F::U];
#pragma unroll
            for (int u = 0; u < F::U; u++) r[u] = __ldcs(xv + base + (uint64_t)u * B);
            T xs[F::U * F::VW];
            sacc_unpack(r, xs);
#pragma unroll
            for (int g = 0; g < F::U * F::VW; g += F::GROUP)
                sacc_take_group<T, F::GROUP>(xs + g, t, s_acc);
        } else {
            for (int u = 0; u < F::U; u++)
                if (base + (uint64_t)u * B < nv) sacc_take_vec(__ldcs(xv + base + (uint64_t)u * B), t, s_acc);
        }
        if (++since == every) {                      /* uniform across the block */
            since = 0;
            sacc_barrier();
            if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), F::L);
            sacc_barrier();
        }
    }

    /* the thread's expansion into the block limbs, exactly */
    sl_sacc_spill(t.a, F::SCALE, s_acc);
    sl_sacc_spill(t.b, F::SCALE, s_acc);
    sl_sacc_spill(t.c, F::SCALE, s_acc);
    if (!(t.sg >> 31)) t.flags |= SL_SACC_ANYPOS;
    if (t.flags) atomicOr(s_flags, t.flags);
    sacc_barrier();
    if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), F::L);
    sacc_barrier();
}

#endif

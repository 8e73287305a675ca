/* exact/certified.cuh: the certified binned sum of exact products (NIN = 2) or squares (NIN = 1),
 * the step of the `correct` dot product (dot/dot.cu) behind its cheap first pass; the exact kernel
 * of the variant runs behind it and does the work only when the certificate cannot decide.
 *
 * Floating-point assumptions: IEEE binary64 multiplies rounded to nearest even, no contraction
 * (--fmad=false) except the explicit fma() of float64's TwoProduct (the only FMA); float32 and
 * 16-bit values widen exactly to float64, and their products (and squares) are exact in float64
 * (at most 48 significant bits, exponents within [-298, 256]).
 *
 * Algorithm (sl_cert_kernel<In, NIN, Fin>, one launch; the float64 path of `superacc`,
 * exact/binned_kernel.cuh's rs_kernel<double, CERT>, with a producer of pieces instead of loads):
 *  1. Per thread, the pieces of its elements go into a 4-fold float64 binned accumulator
 *     (sl_rsum_thr_f64k4): NIN = 2: x_i y_i, NIN = 1: x_i x_i; float32/16-bit: the product itself
 *     (exact); float64: TwoProduct p = x y, e = fma(x, y, -p) (e = p when p is zero, so a zero
 *     product is one zero piece twice, the exact kernels' sign of a zero sum unchanged: they put
 *     only p then). Tiles of U 16-byte vectors of each input (all loads issued first); each group
 *     of 8 pieces takes one capacity check, the warp raises its lanes' indices together when one
 *     lane's group needs it (one __reduce_max_sync), then 8 straight-line deposits.
 *  2. Thread states merged through the warp and the block (sl_rsum_warp_merge<4>), the block's folds
 *     added into the global per-position integer bins (rs_kernel's workspace layout).
 *  3. The last block: the final state; lanes 0 and 1 each round one end of the interval
 *     [V - B, V + B] that holds the exact sum S (B: one unit of the lowest fold per piece,
 *     sl_rsum_state_certify_f64's bound; float64 products keep it at position 0 too, where
 *     TwoProduct's error below 2^-1074 is lost: sl_cert_end_mode) through Fin::end, which maps an end to the final value
 *     (dot: S rounded); when the two ends' bit patterns
 *     agree, the value is finite and nonzero, and no NaN/Inf was met, it is the correctly rounded
 *     result (every map is monotone in S) and is written; otherwise (a NaN, an Inf or an
 *     overflowed product, a zero or infinite result, a sum too close to a rounding boundary) the
 *     fallback word *fb is set to 1 and *result is left alone: the exact kernel, enqueued behind
 *     this one by the host, reads the word and runs only then (it returns at once when it is
 *     zero, and its last block clears it). The exact kernels keep every special-value semantics.
 * Performance considerations: one or two deposits per element (7 adds and 3 ORs each) against 8
 * or 16 bytes read, the ratio of superacc's float64 path (0.98x CUB's sum); the idle exact launch
 * behind it costs one empty launch (a few microseconds). Blocks are whole warps, at most 512
 * threads (launch bounds 512: 128 registers, the tile's pieces and loads stay in registers). */
#ifndef SL_EXACT_CERTIFIED_CUH
#define SL_EXACT_CERTIFIED_CUH
#include "exact/binned_kernel.cuh"

#define SL_CERT_BLOCK 512u
/* the kernel's workspace: rs_kernel's layout for float64 (header, 53 positions' hi/lo bins) */
static inline size_t sl_cert_workspace_bytes(void) { return rs_workspace_bytes(SL_F64); }

/* Vector shape per input format: VW elements a 16-byte vector, U vectors of each input a tile. */
template <typename In> struct sl_cert_fmt;
template <> struct sl_cert_fmt<float> { typedef float4 V; enum { VW = 4, U = 4 }; };
template <> struct sl_cert_fmt<double> { typedef double2 V; enum { VW = 2, U = 4 }; };
template <> struct sl_cert_fmt<__half> { typedef sl_v16<__half> V; enum { VW = 8, U = 2 }; };
template <> struct sl_cert_fmt<__nv_bfloat16> { typedef sl_v16<__nv_bfloat16> V; enum { VW = 8, U = 2 }; };

/* The pieces of one element pair (a, b widened exactly): PC of them. */
template <typename In> struct sl_cert_pc { enum { PC = 1 }; };
template <> struct sl_cert_pc<double> { enum { PC = 2 }; };
template <typename In>
__device__ __forceinline__ void sl_cert_pieces(double a, double b, double *p)
{
    p[0] = a * b;
    if (sl_cert_pc<In>::PC == 2) p[1] = p[0] != 0.0 ? fma(a, b, -p[0]) : p[0];
}

/* One end of the interval rounded with rto (0: to nearest even, 1: to odd) in float64: the
 * certify end of exact/binned.h (K = 4, float64 layout) with a rounding mode. lost: the pieces
 * may miss up to 2^-1075 of each element's exact value (float64 TwoProduct below 2^-968: its
 * error rounded to the subnormal grid), so the bound B stays n units of the lowest fold even at
 * position 0 (2^-1074 a piece, two pieces an element: at least the loss), where nothing else is
 * dropped; above it each deposit drops at most a unit less 2^-1074 (a multiple of 2^-1074 below
 * the unit), which leaves room for the loss. */
SL_NOINLINE_SHARED double sl_cert_end_mode(const sl_rsum_state *st, uint64_t n, int side, int rto,
                                           int lost)
{
    return sl_rsum_state_certify_end_f64_mode(st, n, side, rto, lost);
}

/* NIN = 2: x y; NIN = 1: x x (y unused). fb: the fallback word; gate: NULL, or the
 * word a cheaper first pass sets when it cannot decide (this pass runs only then). grid any,
 * block a multiple of 32 up to SL_CERT_BLOCK. Barriers: as rs_kernel (every thread reaches each
 * one). */
template <typename In, int NIN, class Fin>
__global__ void __launch_bounds__(SL_CERT_BLOCK)
sl_cert_kernel(const In *__restrict__ x, const In *__restrict__ y, uint64_t n, uint64_t head,
               unsigned char *work, unsigned *fb, In *result, unsigned *gate = nullptr)
{
    /* behind a cheaper pass (gate non-null): nothing to do unless it opened the gate (every
     * block reads it before its ticket; the last block shuts it after every ticket) */
    if (gate && *(volatile unsigned *)gate == 0u) return;
    typedef sl_cert_fmt<In> F;
    typedef typename F::V V;
    enum { NPOS = 53, K = 4, PC = sl_cert_pc<In>::PC, G = SL_RSUM_GROUP };
    __shared__ sl_rsum_state s_warp[32];
    __shared__ unsigned long long s_bins[2 * NPOS];
    __shared__ int s_top;
    __shared__ unsigned s_fl;
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    int *g_top = reinterpret_cast<int *>(g_counter + 2);
    unsigned long long *g_hi = reinterpret_cast<unsigned long long *>(work + RS_WS_HEADER);
    unsigned long long *g_lo = g_hi + NPOS;
    const unsigned tid = threadIdx.x, B = blockDim.x, Gd = gridDim.x;
    const In *ys = NIN == 2 ? y : x;

    sl_rsum_thr_f64k4 a;
    rs_init(a);
    const uint64_t nv = (n - head) / F::VW;
    sl_for_edges<F::VW>(n, head, nv, [&](uint64_t i) {
        double p[PC];
        sl_cert_pieces<In>((double)sl_widen(x[i]), (double)sl_widen(ys[i]), p);
#pragma unroll
        for (int k = 0; k < PC; k++) rs_take1(a, p[k]);
    });

    const V *xv = reinterpret_cast<const V *>(x + head);
    const V *yv = reinterpret_cast<const V *>(ys + head);
    enum { U = F::U, E = U * F::VW, NP = E * PC, EG = G / PC };   /* EG elements a group */
    const uint64_t per_tile = (uint64_t)B * U;
    const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += Gd) {
        const uint64_t base = tile * per_tile + tid;
        if ((tile + 1) * per_tile <= nv) {
            V rx[U], ry[U];
#pragma unroll
            for (int u = 0; u < U; u++) {
                rx[u] = sl_ldv(xv + base + (uint64_t)u * B);
                if (NIN == 2) ry[u] = sl_ldv(yv + base + (uint64_t)u * B);
            }
#pragma unroll
            for (int g = 0; g < NP / G; g++) {          /* one group of 8 pieces at a time */
                double ps[G];
#pragma unroll
                for (int e = 0; e < EG; e++) {
                    const int el = g * EG + e, u = el / F::VW, k = el % F::VW;
                    const double xa = (double)sl_widen(sl_vec_lane(rx[u], k));
                    const double yb = NIN == 2 ? (double)sl_widen(sl_vec_lane(ry[u], k)) : xa;
                    sl_cert_pieces<In>(xa, yb, ps + e * PC);
                }
                const unsigned mx = rs_group_max(ps);
                if (__any_sync(SL_FULL_MASK, mx >= a.cap)) rs_raise(a, __reduce_max_sync(SL_FULL_MASK, mx));
                rs_take_group_mx(a, ps, mx);
            }
        } else {
            for (int u = 0; u < U; u++)
                if (base + (uint64_t)u * B < nv) {
                    const V vx = sl_ldv(xv + base + (uint64_t)u * B);
                    const V vy = NIN == 2 ? sl_ldv(yv + base + (uint64_t)u * B) : vx;
#pragma unroll
                    for (int k = 0; k < F::VW; k++) {
                        double p[PC];
                        sl_cert_pieces<In>((double)sl_widen(sl_vec_lane(vx, k)),
                                           (double)sl_widen(sl_vec_lane(vy, k)), p);
#pragma unroll
                        for (int j = 0; j < PC; j++) rs_take1(a, p[j]);
                    }
                }
        }
    }

    sl_rsum_state st;
    rs_to_state(a, st);
    sl_rsum_block_merge<K>(st, s_warp);
    if (tid == 0) {
        sl_rsum_state_add_bins<K>(st, g_top, g_hi, g_lo);
        if (st.flags) atomicOr(g_flags, st.flags);
    }
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    for (unsigned i = tid; i < 2u * NPOS; i += B) s_bins[i] = atomicExch(&g_hi[i], 0ull);
    if (tid == 0) {
        s_top = atomicExch(g_top, 0);
        s_fl = atomicExch(g_flags, 0u);
    }
    sl_bar_any::sync();
    if (tid < 2u) {                                  /* lane 0: V - B, lane 1: V + B */
        sl_rsum_state fin;
        fin.top = s_top;
        fin.flags = s_fl;
#pragma unroll
        for (int k = 0; k < SL_RSUM_KMAX; k++) {
            fin.hi[k] = (int64_t)s_bins[fin.top - k];
            fin.lo[k] = (int64_t)s_bins[NPOS + fin.top - k];
        }
        sl_rsum_state_norm_k(&fin, K);
        const double e = Fin::end(&fin, n * (uint64_t)PC, tid ? 1 : -1);
        const double other = __shfl_sync(0x3u, e, 1);
        if (tid == 0) {
            double r;
            const bool special = (fin.flags & (SL_SACC_NAN | SL_SACC_PINF | SL_SACC_NINF)) != 0u;
            if (!special && sl_rsum_certify_agree(e, other, &r) && r != 0.0 && isfinite(r))
                *result = Fin::template out<In>(r);
            else
                *fb = 1u;
            if (gate) *gate = 0u;
            *g_counter = 0u;
        }
    }
}

/* The dot product's final map: S rounded once to In (float64: to nearest even; narrower: to odd
 * in float64, then to nearest even in In, as the exact kernel rounds), widened back exactly. */
struct sl_cert_fin_dot_f64 {
    static __device__ __forceinline__ double end(const sl_rsum_state *st, uint64_t np, int side)
    {
        return sl_cert_end_mode(st, np, side, 0, 1);   /* TwoProduct pieces: tails may be lost */
    }
    template <typename In> static __device__ __forceinline__ In out(double r) { return (In)r; }
};
template <typename In> __device__ __forceinline__ In sl_cert_narrow(double d);
template <> __device__ __forceinline__ float sl_cert_narrow<float>(double d) { return __double2float_rn(d); }
template <> __device__ __forceinline__ __half sl_cert_narrow<__half>(double d) { return __double2half(d); }
template <> __device__ __forceinline__ __nv_bfloat16 sl_cert_narrow<__nv_bfloat16>(double d) { return __double2bfloat16(d); }
template <> __device__ __forceinline__ double sl_cert_narrow<double>(double d) { return d; }
template <typename N> struct sl_cert_fin_dot_narrow {
    static __device__ __forceinline__ double end(const sl_rsum_state *st, uint64_t np, int side)
    {
        return (double)sl_widen(sl_cert_narrow<N>(sl_cert_end_mode(st, np, side, 1, 0)));   /* exact products */
    }
    template <typename In> static __device__ __forceinline__ In out(double r) { return sl_cert_narrow<In>(r); }
};
#endif

/* exact/binned_kernel.cuh: the binned-sum kernel rs_kernel<X, P>: the `reproducible` variant
 * (reproducible.cu, P = rs_plain: 3-fold binned summation, exact/binned.h, one launch,
 * determinism class order-independent: the result is a function of the multiset of inputs, not
 * of their order, the grid, the block or the SM count; twin reproducible.c) and the first step
 * of `superacc` on float64 (superacc.cu: 4 folds and a certified rounding).
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds rounded to nearest even with
 * subnormals (-ftz=false), no contraction (--fmad=false; the only multiply is by a power of two,
 * in the scaled domain), no reassociation (nvcc never reassociates); two's-complement integers.
 *
 * Algorithm (one pass, one launch):
 *  1. Per thread, in registers: the accumulator sl_rsum_thr (3 float folds of the input's
 *     format, carries, index). Tiles of 4 16-byte vectors per thread (16 floats, 8 doubles,
 *     32 float16/bfloat16 values; 16-bit input takes 2 vectors below 2^23 values: UO, chosen by
 *     reproducible.c's resolve), grid-stride. Each group of 8 inputs is checked once against
 *     the thread's capacity (the largest |x|, sl_rsum_hmax: NaN/Inf fail it too; float32 by 7
 *     NaN-propagating FMNMX with |x| as operand modifier, float64 by the integer max of the
 *     high words); when it passes,
 *     the 8 deposits are branch-free straight-line code (7 adds and 3 ORs each; float16/bfloat16
 *     input, 4 adds and 1 OR when every value of the warp's sub-tile reaches fold 1's unit:
 *     rs_take_sub's 2-fold path, the same folds bit for bit); otherwise
 *     each input takes sl_rsum_take1 (raises the index: per-thread index adaptation, the
 *     max-exponent problem solved without a second pass; special values). Before its groups, a
 *     warp raises every lane's index to what the warp's largest input of the tile needs (one
 *     __reduce_max_sync), so the raises happen together instead of one diverged lane at a time.
 *     Renormalisation every 2^(P-W-2) inputs (512 floats, 2048 doubles), integer ops only.
 *  2. Each thread's folds become an integer state (sl_rsum_to_state); a warp raises its states
 *     to the warp's largest index (__reduce_max_sync) and adds the integers with shuffles (exact,
 *     any order); warp states meet in shared memory and warp 0 merges them the same way.
 *  3. Thread 0 adds the block's three folds into global per-position integer bins (positions
 *     0..52 / 0..21: a fold of position j is the same bin for every index, so blocks with
 *     different indices add into one array) with integer atomics, atomicMax the index, atomicOr
 *     the flags, and takes the last-block ticket (reduce/grid.cuh). The last block takes the bins
 *     of the three top positions below the final index (lower positions are what raising the
 *     index drops), leaves the workspace zero, and rounds once: float32 folds (float32 and
 *     16-bit input) as one 128-bit integer in registers (sl_rsum_state_round_f32), float64
 *     folds as one 192-bit integer (sl_rsum_state_round_f64); the generic limbs form
 *     (sl_rsum_state_round), out of line, only when measuring (the build option
 *     SUMLAB_RSUM_MODE=1): it costs local memory and one dependent chain while the GPU waits.
 * Performance considerations: the deposits cost 7 adds per element on the input format's pipe
 * (FP32: 128 lanes/SM/clock; FP64: 64) plus ~4 integer ops, below the memory time of large
 * inputs, so the kernel should stream at the read ceiling; the 16-byte loads are issued before
 * any deposit of the tile. Why per-thread index adaptation rather than a max pass: a second pass
 * costs a full read; ReproBLAS's and CUB's per-element renormalisation is avoided by counting
 * inputs. Tried and measured slower (BENCHMARKS.md): an L2 bulk prefetch of the tile a round
 * ahead, tiles copied a round ahead into shared memory by cp.async, the last round of tiles
 * spread over the grid. Data in the scaled domain (|x| >= 2^1005 f64, 2^110 f32) takes the fast path
 * with one multiply per input; data that raises the index often takes the scalar path: slower,
 * still exact to the same bound. */
#ifndef SL_EXACT_BINNED_KERNEL_CUH
#define SL_EXACT_BINNED_KERNEL_CUH
#include "reduce/reduce.cuh"
#include "exact/binned.h"
#include "exact/binned_merge.cuh"

#define RS_WS_HEADER 16u   /* [0,4): ticket counter; [4,8): flags; [8,12): index; [16,...): bins */

/* rs_kernel's workspace for format dt: the header and the per-position integer bins (hi, lo). */
static inline size_t rs_workspace_bytes(sl_dtype dt)
{
    return RS_WS_HEADER + 2u * sizeof(uint64_t) * (size_t)sl_rsum_npos(dt);
}
/* The measuring build SUMLAB_RSUM_PARTS's instead: reduce/grid.cuh's layout, the ticket and the
 * grid blocks' states (the bins are not used there). */
static inline size_t rs_workspace_parts_bytes(uint32_t grid)
{
    return sl_ws_bytes(grid ? grid : 1u, sizeof(sl_rsum_state));
}

/* Per format (and CERT: superacc's float64 path, 4 folds): accumulator, vector, folds. */
/* X: the input format; T: the folds' format (float32 for float16/bfloat16 input, widened).
 * VW elements a vector, U 16-byte vectors a thread loads per tile (all issued before any
 * deposit; rs_kernel's UO overrides it), taken in sub-tiles of SV vectors (unpack, maxima, one
 * warp vote, deposits): 16-bit input loads 4 vectors on large inputs (64 bytes, as float32
 * does; 2 left the loads too few in flight for the deposits' issue time), 2 on small ones (more
 * threads with work), and widens 16 values at a time (32 at once spilled registers). */
template <typename X, bool CERT> struct rs_fmt;
template <> struct rs_fmt<float, false> {
    typedef float T;
    typedef sl_rsum_thr_f32 A;
    typedef sl_vec<float>::type V;
    enum { VW = 4, U = 4, SV = 4, G = SL_RSUM_GROUP, NPOS = 22, K = SL_RSUM_K };
};
template <typename H> struct rs_fmt_half {
    typedef float T;
    typedef sl_rsum_thr_f32 A;
    typedef typename sl_vec<H>::type V;
    enum { VW = 8, U = 4, SV = 2, G = SL_RSUM_GROUP, NPOS = 22, K = SL_RSUM_K };
};
template <> struct rs_fmt<__half, false> : rs_fmt_half<__half> {};
template <> struct rs_fmt<__nv_bfloat16, false> : rs_fmt_half<__nv_bfloat16> {};
template <> struct rs_fmt<double, false> {
    typedef double T;
    typedef sl_rsum_thr_f64 A;
    typedef sl_vec<double>::type V;
    enum { VW = 2, U = 4, SV = 4, G = SL_RSUM_GROUP, NPOS = 53, K = SL_RSUM_K };
};
template <> struct rs_fmt<double, true> {
    typedef double T;
    typedef sl_rsum_thr_f64k4 A;
    typedef sl_vec<double>::type V;
    enum { VW = 2, U = 4, SV = 4, G = SL_RSUM_GROUP, NPOS = 53, K = 4 };
};

/* The header's two families of functions under one name each. */
__device__ __forceinline__ void rs_init(sl_rsum_thr_f32 &a) { sl_rsum_init_f32(&a); }
__device__ __forceinline__ void rs_init(sl_rsum_thr_f64 &a) { sl_rsum_init_f64(&a); }
__device__ __forceinline__ void rs_take1(sl_rsum_thr_f32 &a, float x) { sl_rsum_take1_f32(&a, x); }
__device__ __forceinline__ void rs_take1(sl_rsum_thr_f64 &a, double x) { sl_rsum_take1_f64(&a, x); }
__device__ __forceinline__ void rs_raise(sl_rsum_thr_f32 &a, unsigned h) { sl_rsum_raise_f32(&a, h); }
__device__ __forceinline__ void rs_raise(sl_rsum_thr_f64 &a, unsigned h) { sl_rsum_raise_f64(&a, h); }
__device__ __forceinline__ unsigned rs_group_max(const float *x) { return sl_rsum_group_max_f32(x); }
__device__ __forceinline__ unsigned rs_group_max(const double *x) { return sl_rsum_group_max_f64(x); }
__device__ __forceinline__ void rs_take_group_mx(sl_rsum_thr_f32 &a, const float *x, unsigned mx) { sl_rsum_take_group_mx_f32(&a, x, mx); }
__device__ __forceinline__ void rs_take_group_mx(sl_rsum_thr_f64 &a, const double *x, unsigned mx) { sl_rsum_take_group_mx_f64(&a, x, mx); }
__device__ __forceinline__ void rs_to_state(const sl_rsum_thr_f32 &a, sl_rsum_state &s) { sl_rsum_to_state_f32(&a, &s); }
__device__ __forceinline__ void rs_to_state(const sl_rsum_thr_f64 &a, sl_rsum_state &s) { sl_rsum_to_state_f64(&a, &s); }
__device__ __forceinline__ void rs_init(sl_rsum_thr_f64k4 &a) { sl_rsum_init_f64k4(&a); }
__device__ __forceinline__ void rs_take1(sl_rsum_thr_f64k4 &a, double x) { sl_rsum_take1_f64k4(&a, x); }
__device__ __forceinline__ void rs_raise(sl_rsum_thr_f64k4 &a, unsigned h) { sl_rsum_raise_f64k4(&a, h); }
__device__ __forceinline__ void rs_take_group_mx(sl_rsum_thr_f64k4 &a, const double *x, unsigned mx) { sl_rsum_take_group_mx_f64k4(&a, x, mx); }
__device__ __forceinline__ void rs_to_state(const sl_rsum_thr_f64k4 &a, sl_rsum_state &s) { sl_rsum_to_state_f64k4(&a, &s); }

/* SL_RSUM_GROUP inputs: their max, then one capacity check and straight-line deposits
 * (exact/binned.h). */

__device__ __forceinline__ void rs_unpack(const float4 *r, float (&x)[16])
{
#pragma unroll
    for (int u = 0; u < 4; u++) {
        x[4 * u] = r[u].x; x[4 * u + 1] = r[u].y; x[4 * u + 2] = r[u].z; x[4 * u + 3] = r[u].w;
    }
}
__device__ __forceinline__ void rs_unpack(const double2 *r, double (&x)[8])
{
#pragma unroll
    for (int u = 0; u < 4; u++) { x[2 * u] = r[u].x; x[2 * u + 1] = r[u].y; }
}
template <typename A>
__device__ __forceinline__ void rs_take_vec(A &a, float4 v)
{
    rs_take1(a, v.x); rs_take1(a, v.y); rs_take1(a, v.z); rs_take1(a, v.w);
}
template <typename A>
__device__ __forceinline__ void rs_take_vec(A &a, double2 v) { rs_take1(a, v.x); rs_take1(a, v.y); }
template <typename A, typename H>
__device__ __forceinline__ void rs_take_vec(A &a, sl_v16<H> v)
{
#pragma unroll
    for (int k = 0; k < 8; k++) rs_take1(a, sl_widen(sl_vec_lane(v, k)));
}
template <typename H, int N>
__device__ __forceinline__ void rs_unpack(const sl_v16<H> *r, float (&x)[N])
{
#pragma unroll
    for (int u = 0; u < N / 8; u++)
#pragma unroll
        for (int k = 0; k < 8; k++) x[8 * u + k] = sl_widen(sl_vec_lane(r[u], k));
}

/* The largest of v over aligned groups of GW lanes (GW a power of two up to 32; every lane of
 * the warp calls it): the warp's for GW = 32, else each group's own, by xor shuffles that stay
 * inside the group. */
template <int GW>
__device__ __forceinline__ unsigned rs_lanes_max(unsigned v)
{
    static_assert(GW >= 1 && GW <= 32 && (GW & (GW - 1)) == 0, "GW: a power of two up to 32");
    if constexpr (GW == 32) {
        v = __reduce_max_sync(SL_FULL_MASK, v);
    } else {
#pragma unroll
        for (int off = GW / 2; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(SL_FULL_MASK, v, off));
    }
    return v;
}

/* SE values of a whole tile (SV of its vectors, r[0..SV)): widened, each group's largest |x|, one
 * capacity check per group; when a lane's group exceeds its capacity, the warp raises every
 * lane's index to what the largest input of its GW lanes needs (the branch is warp-uniform:
 * otherwise a lane meeting a new maximum sends its group one by one while the other 31 wait,
 * slow on full-range data; GW lanes: the lanes of one sum, 32 for the 1-D kernel, fewer where a
 * warp holds several rows, whose indices must not follow one another's values); then the
 * groups' deposits. Every lane of the warp calls it. rs_kernel's and the row kernels'
 * (rows/rows.cu) sub-tile. */
template <int SE, typename T, int GW = 32, typename A, typename V>
__device__ __forceinline__ void rs_take_sub(A &a, const V *r)
{
    T xs[SE];
    rs_unpack(r, xs);
    unsigned mx[SE / SL_RSUM_GROUP], lm = 0u;
#pragma unroll
    for (int g = 0; g < SE / SL_RSUM_GROUP; g++) {
        mx[g] = rs_group_max(xs + g * SL_RSUM_GROUP);
        lm = max(lm, mx[g]);
    }
    if (__any_sync(SL_FULL_MASK, lm >= a.cap)) rs_raise(a, rs_lanes_max<GW>(lm));
#pragma unroll
    for (int g = 0; g < SE / SL_RSUM_GROUP; g++) rs_take_group_mx(a, xs + g * SL_RSUM_GROUP, mx[g]);
}

/* The 16-bit formats' constants for rs_take_sub: significand bits and exponent bias; the largest
 * |x|'s 16-bit pattern widened to the float32 bits that sl_rsum_raise and the capacity take (NaN
 * and Inf stay above every capacity). */
template <typename H> struct rs_h16;
template <> struct rs_h16<__nv_bfloat16> {
    enum { PH = 8, BH = 127 };
    static __device__ __forceinline__ unsigned wide(unsigned h) { return h << 16; }
};
template <> struct rs_h16<__half> {
    enum { PH = 11, BH = 15 };
    static __device__ __forceinline__ unsigned wide(unsigned h)
    {
        return __float_as_uint(__half2float(__ushort_as_half((unsigned short)h)));
    }
};
/* The 8 values of a 16-bit vector widened (bfloat16 by the bits: one operation a value). */
__device__ __forceinline__ void rs_widen8(const sl_v16<__nv_bfloat16> &v, float *x)
{
    const unsigned w[4] = {v.u.x, v.u.y, v.u.z, v.u.w};
#pragma unroll
    for (int k = 0; k < 4; k++) {
        x[2 * k] = __uint_as_float(w[k] << 16);
        x[2 * k + 1] = __uint_as_float(w[k] & 0xffff0000u);
    }
}
__device__ __forceinline__ void rs_widen8(const sl_v16<__half> &v, float *x)
{
#pragma unroll
    for (int k = 0; k < 8; k++) x[k] = sl_widen(sl_vec_lane(v, k));
}

/* rs_take_sub on float16/bfloat16 vectors (float32 folds): the largest |x| and the smallest
 * nonzero |x| of the sub-tile from the bits, two values an operation (sl_rsum_h16_scan4). After
 * the warp's raise, when every lane's values are below its capacity, its index is unscaled and
 * none is nonzero below sl_rsum_two_fold_emin16 (sl_rsum_two_fold16), the whole warp deposits
 * into 2 folds (sl_rsum_deposit2_f32: the same folds, bit for bit, as the K-fold deposit);
 * otherwise each group of 8 takes the K-fold group path with the sub-tile's largest |x| (a group
 * whose own largest is below the capacity deposits the same either way; NaN/Inf send it value by
 * value, as its own would). */
template <int SE, typename T, int GW = 32, typename A, typename H>
__device__ __forceinline__ void rs_take_sub(A &a, const sl_v16<H> *r)
{
    enum { NV = SE / 8 };
    typedef rs_h16<H> C;
    uint32_t mxw = 0u, mnw = 0x7fff7fffu;
#pragma unroll
    for (int v = 0; v < NV; v++) {
        const uint32_t w[4] = {r[v].u.x, r[v].u.y, r[v].u.z, r[v].u.w};
        sl_rsum_h16_scan4(w, &mxw, &mnw);
    }
    const unsigned lm = C::wide(sl_rsum_h16_absmax(mxw));
    if (__any_sync(SL_FULL_MASK, lm >= a.cap)) rs_raise(a, rs_lanes_max<GW>(lm));
    const bool two = lm < a.cap && sl_rsum_two_fold16(sl_rsum_h16_absmin_nz(mnw), a.top, C::PH, C::BH);
    T xs[SE];
#pragma unroll
    for (int v = 0; v < NV; v++) rs_widen8(r[v], xs + 8 * v);
    if (__all_sync(SL_FULL_MASK, two)) {
        sl_rsum_group_begin_f32(&a, xs, SE, lm);
#pragma unroll
        for (int k = 0; k < SE; k++) sl_rsum_deposit2_f32(&a, xs[k]);
        a.cnt += SE;
    } else {
#pragma unroll
        for (int g = 0; g < SE / SL_RSUM_GROUP; g++) rs_take_group_mx(a, xs + g * SL_RSUM_GROUP, lm);
    }
}

/* The once-per-launch rounding, kept out of the kernel body (registers, its local limbs).
 * SL_NOINLINE_SHARED: several .cu files of the library include this header (reproducible, rows,
 * lse, superacc64). */
SL_NOINLINE_SHARED double rs_round_dev(const sl_rsum_state *st, sl_dtype dt, int rto)
{
    return sl_rsum_state_round_mode_k(st, dt, SL_RSUM_K, rto);
}

/* One end of the certified rounding (CERT: the float64 state of 4 folds), out of line like the
 * rounding: in registers (sl_rsum_state_certify_end_f64), or, generic (measuring), over limbs. */
SL_NOINLINE_SHARED double rs_certify_end_dev(const sl_rsum_state *st, uint64_t n, int side,
                                             unsigned generic)
{
    if (!generic) return sl_rsum_state_certify_end_f64(st, n, side);
    return n == 0 ? 0.0 : sl_rsum_state_certify_end_limbs(st, n, side, 0, 0);   /* the empty sum is +0 */
}

/* The rounded sum of the grid's state fin (`reproducible`): float16/bfloat16 input: to odd in
 * float32, then to nearest even in the 16-bit format; float32 and float64 folds: in registers
 * (sl_rsum_state_round_f32 / _f64), unless mode & 1 (measuring: the generic rounding over limbs,
 * the same result). */
template <typename X, typename T>
__device__ __forceinline__ X rs_round_out(const sl_rsum_state &fin, unsigned mode)
{
    const sl_dtype dt = sizeof(T) == 8 ? SL_F64 : SL_F32;
    const double r = mode & 1u        ? rs_round_dev(&fin, dt, sizeof(X) == 2)
                     : sizeof(T) == 4 ? sl_rsum_state_round_f32(&fin, sizeof(X) == 2)
                                      : sl_rsum_state_round_f64(&fin, 0);
    return sl_out<X>((T)r);                          /* exact for float32/64: r holds a T */
}

/* SUMLAB_RSUM_PARTS (a CMake option, kernels/README.md), for measuring, the same results: 1 ends
 * `reproducible`'s launch by exact/binned_merge.cuh's sl_rsum_grid_finish (each block's state at
 * its own slot of the workspace, the last block merges them over its threads) instead of integer
 * atomics into the shared global bins; 0, the default: the bins. */
#ifndef SUMLAB_RSUM_PARTS
#define SUMLAB_RSUM_PARTS 0
#endif

/* The kernel's policy P: P::CERT and, when the certificate cannot decide, P::fail (called by
 * thread 0 of the last block). rs_plain: `reproducible`. */
struct rs_plain {
    enum { CERT = 0 };
    template <typename X>
    static __device__ __forceinline__ void fail(const X *, uint64_t, uint64_t, unsigned char *, X *,
                                                unsigned, unsigned) {}
};

/* Every barrier is sl_bar_any (non-.aligned: the data-dependent scalar paths leave convergence
 * to the compiler, as in superacc.cu). Barriers: every thread reaches each one (the loops before
 * them have per-thread trip counts but hold none; the ticket's return is block-uniform). */
/* P = rs_plain: the `reproducible` variant (the binned sum rounded once). P::CERT: the
 * `superacc` float64 path's first step (superacc.cu): the same accumulation with 4 folds, then
 * certified rounding (sl_rsum_state_certify): the last block writes the correctly rounded sum,
 * or, when the binned value cannot decide it, leaves *result alone and calls
 * P::fail(x, n, head, aux, result, aux_block, mode), which has the exact kernel sum the input.
 * mode: CERT: the build option SUMLAB_SACC_F64_MODE (superacc64.cu), 16: both ends on lane 0, 32: the
 * ends rounded over limbs (the generic form) instead of in registers; plain:
 * the build option SUMLAB_RSUM_MODE (reproducible.cu), 1: float32 folds rounded by the generic limbs form. */
template <typename X, typename P, int UO = 0>
__global__ void __launch_bounds__(1024)
rs_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work, X *result,
          unsigned char *aux, unsigned aux_block, unsigned mode)
{
    enum { CERT = P::CERT };
    typedef rs_fmt<X, CERT> F;
    typedef typename F::T T;
    typedef typename F::V V;
    typedef typename F::A A;
    __shared__ sl_rsum_state s_warp[32];
    __shared__ unsigned long long s_bins[2 * F::NPOS];
    __shared__ int s_top;
    __shared__ unsigned s_fl;
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    int *g_top = reinterpret_cast<int *>(g_counter + 2);
    unsigned long long *g_hi = reinterpret_cast<unsigned long long *>(work + RS_WS_HEADER);
    unsigned long long *g_lo = g_hi + F::NPOS;
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;

    A a;
    rs_init(a);
    const uint64_t nv = (n - head) / F::VW;          /* whole vectors after the head */
    sl_for_edges<F::VW>(n, head, nv, [&](uint64_t i) { rs_take1(a, sl_widen(x[i])); });

    const V *xv = reinterpret_cast<const V *>(x + head);
    enum { U = UO ? UO : F::U, SV = F::SV < U ? F::SV : U, S = U / SV, SE = SV * F::VW };
    const uint64_t per_tile = (uint64_t)B * U;
    const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += G) {
        const uint64_t base = tile * per_tile + tid;
        if ((tile + 1) * per_tile <= nv) {
            V r[U];
#pragma unroll
            for (int u = 0; u < U; u++) r[u] = sl_ldv(xv + base + (uint64_t)u * B);
#pragma unroll
            for (int sub = 0; sub < S; sub++) rs_take_sub<SE, T>(a, r + sub * SV);
        } else {
            for (int u = 0; u < U; u++)
                if (base + (uint64_t)u * B < nv) rs_take_vec(a, sl_ldv(xv + base + (uint64_t)u * B));
        }
    }

    /* block merge: warps, then warp 0 over the warp states */
    sl_rsum_state st;
    rs_to_state(a, st);
    if constexpr (SUMLAB_RSUM_PARTS && !CERT) {      /* measuring: the blocks' states, merged */
        sl_rsum_grid_finish<F::K>(st, s_warp, work, [&](const sl_rsum_state &fin) {
            *result = rs_round_out<X, T>(fin, mode);
        });
        return;
    }
    sl_rsum_block_merge<F::K>(st, s_warp);
    if (tid == 0) {                                  /* the block's folds into the global bins */
        sl_rsum_state_add_bins<F::K>(st, g_top, g_hi, g_lo);
        if (st.flags) atomicOr(g_flags, st.flags);
    }
    /* thread 0 published and fences before its ticket */
    if (!sl_ticket_last<sl_bar_any, true>(g_counter)) return;
    for (unsigned i = tid; i < 2u * F::NPOS; i += B) s_bins[i] = atomicExch(&g_hi[i], 0ull);
    if (tid == 0) {
        s_top = atomicExch(g_top, 0);
        s_fl = atomicExch(g_flags, 0u);
    }
    sl_bar_any::sync();
    /* CERT: lanes 0 and 1 of warp 0 round the two ends of the interval at once */
    if (tid < (CERT && !(mode & 16u) ? 2u : 1u)) {
        sl_rsum_state fin;
        fin.top = s_top;
        fin.flags = s_fl;
#pragma unroll
        for (int k = 0; k < SL_RSUM_KMAX; k++) {     /* positions below top - K + 1: dropped */
            fin.hi[k] = k < F::K ? (int64_t)s_bins[fin.top - k] : 0;
            fin.lo[k] = k < F::K ? (int64_t)s_bins[F::NPOS + fin.top - k] : 0;
        }
        sl_rsum_state_norm_k(&fin, F::K);
        if (CERT && (mode & 16u)) {                  /* measuring: both ends on one lane */
            double r;
            if (sl_rsum_certify_agree(rs_certify_end_dev(&fin, n, -1, mode & 32u),
                                      rs_certify_end_dev(&fin, n, 1, mode & 32u), &r)) *result = (X)r;
            else P::fail(x, n, head, aux, result, aux_block, mode);
        } else if (CERT) {
            const double e = rs_certify_end_dev(&fin, n, tid ? 1 : -1, mode & 32u);
            const double other = __shfl_sync(0x3u, e, 1);
            double r;
            if (tid == 0) {
                if (sl_rsum_certify_agree(e, other, &r)) *result = (X)r;
                else P::fail(x, n, head, aux, result, aux_block, mode);
            }
        } else {
            *result = rs_round_out<X, T>(fin, mode);
        }
        if (tid == 0) *g_counter = 0u;
    }
}
#endif

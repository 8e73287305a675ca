/* norm.cu: GPU kernels and the one C-callable entry of the norm2 variants (naive, f64-acc, half-acc,
 * scaled, correct, reproducible). The algorithms and their order of operations are described in norm.c, whose
 * CPU twins repeat every operation below in the same order; determinism: run-to-run (naive,
 * f64-acc, half-acc, scaled: a fixed tree for a fixed grid and block), correctly-rounded (correct),
 * order-independent (reproducible).
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds, multiplies, divisions and square roots
 * rounded to nearest even (--fmad=false -ftz=false -prec-div=true -prec-sqrt=true: no contraction
 * of x*x into the add, correctly rounded x/y and sqrt); float16/bfloat16 input widened exactly;
 * half-acc's 16-bit operations done in float32 and rounded once to the 16-bit format.
 *
 * Steps of nrm_kernel (one launch): 1. grid-stride read, 16-byte vectors, 4 in flight: thread g keeps
 * per vector lane its sum of squares (naive) or Blue's three sums (scaled) and an Inf flag; lanes
 * combined in norm.c's fixed tree; 2. block tree of the sums (sl_block_reduce, componentwise), the
 * flag by __syncthreads_or; 3. last-block finish: every block publishes its sums (and ORs its flag
 * into the workspace), the last to take the ticket reduces them in sl_grid_finish's order, takes the
 * root (or Blue's combine) and rounds once to the input format.
 * correct, step 0 (exact/pairsum.cuh's sl_psum_kernel on the squares): float32/16-bit, a plain
 * float64 sum (each square exact, one fma per value; relative box h 2^-52); float64, the Fast2Sum
 * pair of the TwoProduct squares (box O(h^2 u^2)); the last block tests the candidate root against
 * its two midpoints exactly (exact/pairsum.h): both hold, that is the norm; else the gate opens.
 * Step 1, nrm_exact_kernel, enqueued behind step 0 as its programmatic dependent launch
 * (SUMLAB_NORM_CORRECT_PDL, below): step 0's blocks allow it at their start, so its blocks are
 * scheduled while step 0 runs and wait (griddepcontrol.wait: step 0 complete, its writes visible)
 * before they read anything; it sums exactly when the gate is open, else returns at once.
 * nrm_exact_kernel (correct, one launch): every square exact (norm.h: M^2 in 24-bit digits) added by
 * shared-memory 64-bit integer atomics into the block's digits (any order: integers); the block's
 * digits published, the last block sums them digit by digit and thread 0 rounds
 * (sl_nrm_round_sqrt, the twin's own code) and shuts the gate.
 * nrm_repro_kernel (reproducible on float32/16-bit, one launch): the squares into per-thread
 * float64 binned accumulators (exact/binned.h), states merged exactly through the block and across
 * blocks; float64, two launches: nrm_repro_max_kernel (the exact max |x|), then nrm_repro64_kernel
 * (the scaled TwoProduct pieces of each square into the same accumulators, merged alike).
 * Performance considerations: nrm_kernel is memory-bound at large n (a multiply and an add per
 * element, scaled three of each); correct's step 0 spends one widening and one fma per narrow
 * value (float64: a TwoProduct and a Fast2Sum) and decides ordinary data alone; behind it the
 * idle exact launch costs a launch that returns at once, partly hidden by the dependent launch;
 * nrm_exact_kernel makes 3 (float32, 16-bit) or 6 (float64) shared atomics per element, for the
 * data step 0 leaves (specials, zeros, norms past the largest value, float64 squares out of
 * range: BENCHMARKS.md); reproducible's float64 form reads x twice (the max pass, then the
 * pieces) and makes two binned deposits per element. */
#include <stdint.h>
#include "reduce/reduce.cuh"
#include "reduce/acc.cuh"
#include "norm/norm.h"
#include "exact/binned.h"
#include "exact/binned_merge.cuh"
#include "exact/pairsum.cuh"

/* SUMLAB_NORM_CORRECT_PDL (kernels/README.md; the CMake option SUMLAB_NORM_CORRECT_NO_PDL sets it
 * to 0, for measuring): 1 launches correct's exact kernel as a programmatic dependent launch of
 * the first pass (Hopper); 0, an ordinary launch behind it. Either way the exact kernel executes
 * griddepcontrol.wait before its first memory access (without a programmatic dependency it
 * returns at once), so the two forms read and write the same bytes in the same order. */
#ifndef SUMLAB_NORM_CORRECT_PDL
#define SUMLAB_NORM_CORRECT_PDL 1
#endif

/* correct: the workspace layout is norm.h's (SL_NRM_WS_FLAG, SL_NRM_WS_PSUM, sl_nrm_ws_parts) */
static_assert(SL_NRM_WS_PSUM + 8u <= SL_WS_HEADER && SL_NRM_WS_FLAG + 4u <= SL_NRM_WS_PSUM,
              "the flag, ticket and gate words lie in the header");

namespace {

template <typename In> __device__ __forceinline__ In nrm_out(float a);
template <typename In> __device__ __forceinline__ In nrm_out(double a);
template <> __device__ __forceinline__ float nrm_out<float>(float a) { return a; }
template <> __device__ __forceinline__ float nrm_out<float>(double a) { return __double2float_rn(a); }
template <> __device__ __forceinline__ double nrm_out<double>(double a) { return a; }
template <> __device__ __forceinline__ __half nrm_out<__half>(float a) { return __float2half_rn(a); }
template <> __device__ __forceinline__ __half nrm_out<__half>(double a) { return __double2half(a); }
template <> __device__ __forceinline__ __nv_bfloat16 nrm_out<__nv_bfloat16>(float a) { return __float2bfloat16_rn(a); }
template <> __device__ __forceinline__ __nv_bfloat16 nrm_out<__nv_bfloat16>(double a) { return __double2bfloat16(a); }

template <typename Acc> __device__ __forceinline__ Acc nrm_widen(float x) { return (Acc)x; }
template <typename Acc> __device__ __forceinline__ Acc nrm_widen(double x) { return (Acc)x; }
template <typename Acc> __device__ __forceinline__ Acc nrm_widen(__half x) { return (Acc)__half2float(x); }
template <typename Acc> __device__ __forceinline__ Acc nrm_widen(__nv_bfloat16 x) { return (Acc)__bfloat162float(x); }

/* NC sums (1: naive; 3: scaled's big, med, small) and their componentwise add */
template <typename T, int NC> struct nrm_st { T c[NC]; };
template <typename T, int NC, class R> struct nrm_op {
    typedef nrm_st<T, NC> A;
    static __device__ __forceinline__ A zero()
    {
        A r;
#pragma unroll
        for (int i = 0; i < NC; i++) r.c[i] = T(0);
        return r;
    }
    static __device__ __forceinline__ A add(A a, A b)
    {
        A r;
#pragma unroll
        for (int i = 0; i < NC; i++) r.c[i] = R::r(a.c[i] + b.c[i]);
        return r;
    }
    static __device__ __forceinline__ A shfl(A v, int off)
    {
        A r;
#pragma unroll
        for (int i = 0; i < NC; i++) r.c[i] = __shfl_down_sync(SL_FULL_MASK, v.c[i], off);
        return r;
    }
    static __device__ __forceinline__ void store(A *p, A v) { *p = v; }
    static __device__ __forceinline__ A load_cg(const A *p)
    {
        A r;
#pragma unroll
        for (int i = 0; i < NC; i++) r.c[i] = __ldcg(&p->c[i]);
        return r;
    }
};

__device__ __forceinline__ float nrm_sqrt(float a) { return sqrtf(a); }
__device__ __forceinline__ double nrm_sqrt(double a) { return sqrt(a); }
__device__ __forceinline__ void nrm_scaled_add(float *b, float *m, float *s, float ax) { sl_nrm_scaled_add_f(b, m, s, ax); }
__device__ __forceinline__ void nrm_scaled_add(double *b, double *m, double *s, double ax) { sl_nrm_scaled_add_d(b, m, s, ax); }
__device__ __forceinline__ float nrm_scaled_final(float b, float m, float s) { return sl_nrm_scaled_final_f(b, m, s); }
__device__ __forceinline__ double nrm_scaled_final(double b, double m, double s) { return sl_nrm_scaled_final_d(b, m, s); }

template <typename In, typename Acc, class R, int NC>
__global__ void __launch_bounds__(1024)
nrm_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work, In *result)
{
    typedef nrm_op<Acc, NC, R> Op;
    typedef typename Op::A A;
    typedef typename sl_vec<In>::type V;
    constexpr int W = sl_vec<In>::W;
    constexpr int U = 4;
    __shared__ A s_warp[32];
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    A l[W];
#pragma unroll
    for (int k = 0; k < W; k++) l[k] = Op::zero();
    unsigned inf = 0u;
#define NRM_TAKE(k_, xin)                                                                     \
    do {                                                                                      \
        const Acc v_ = nrm_widen<Acc>(xin);                                                   \
        const Acc a_ = fabs(v_);                                                              \
        inf |= a_ == (Acc)INFINITY;                                                           \
        if (NC == 1) l[k_].c[0] = R::r(l[k_].c[0] + R::r(v_ * v_));                           \
        else nrm_scaled_add(&l[k_].c[0], &l[k_].c[1 % NC], &l[k_].c[2 % NC], a_);             \
    } while (0)
    if (g < head) NRM_TAKE(0, x[g]);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    uint64_t j = g;
    for (; j + (U - 1) * T < nv; j += U * T) {
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = xv[j + u * T];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < W; k++) NRM_TAKE(k, sl_vec_lane(v[u], k));
    }
    for (; j < nv; j += T) {
        V v = xv[j];
#pragma unroll
        for (int k = 0; k < W; k++) NRM_TAKE(k, sl_vec_lane(v, k));
    }
    const uint64_t ts = head + nv * W;
    if (g < n - ts) NRM_TAKE(0, x[ts + g]);
#undef NRM_TAKE
    A tv;
    if (W == 8)
        tv = Op::add(Op::add(Op::add(l[0], l[1 % W]), Op::add(l[2 % W], l[3 % W])),
                     Op::add(Op::add(l[4 % W], l[5 % W]), Op::add(l[6 % W], l[7 % W])));
    else if (W == 4)
        tv = Op::add(Op::add(l[0], l[1 % W]), Op::add(l[2 % W], l[3 % W]));
    else
        tv = Op::add(l[0], l[1 % W]);
    tv = sl_block_reduce<Op>(tv, s_warp);
    const unsigned binf = __syncthreads_or(inf);
    unsigned *gflag = reinterpret_cast<unsigned *>(static_cast<unsigned char *>(work) + SL_NRM_WS_FLAG);
    A tot;
    if (threadIdx.x == 0 && binf) atomicOr(gflag, 1u);   /* before the ticket */
    if (!sl_grid_reduce<Op>(tv, sl_ws_partials<A>(work), sl_ws_counter(work), &tot)) return;
    if (threadIdx.x != 0) return;
    const unsigned anyinf = atomicExch(gflag, 0u);
    Acc r;
    if (anyinf) r = (Acc)INFINITY;
    else if (NC == 1) r = nrm_sqrt(tot.c[0]);
    else r = nrm_scaled_final(tot.c[0], tot.c[1 % NC], tot.c[2 % NC]);
    *result = nrm_out<In>(r);
}

/* ---- correct ------------------------------------------------------------------------------- */
template <typename In> struct nrm_exact_fmt { enum { L = SL_NRM_LIMBS_F32, UNIT = SL_NRM_UNIT_F32, NCH = 3 }; };
template <> struct nrm_exact_fmt<double> { enum { L = SL_NRM_LIMBS_F64, UNIT = SL_NRM_UNIT_F64, NCH = 6 }; };

__device__ __forceinline__ uint64_t nrm_split(double x, int *pos, unsigned *fl)
{
    return sl_nrm_split_f64((uint64_t)__double_as_longlong(x), pos, fl);
}
__device__ __forceinline__ uint64_t nrm_split(float x, int *pos, unsigned *fl)
{
    return sl_nrm_split_f32(__float_as_uint(x), pos, fl);
}

template <typename In>
__device__ __forceinline__ void nrm_exact_take(unsigned long long *s_limb, In xin, unsigned *fl)
{
    typedef nrm_exact_fmt<In> F;
    int pos = 0;
    const uint64_t M = nrm_split(sl_widen(xin), &pos, fl);
    if (!M) return;
    uint64_t c[6];
    const int i0 = sl_nrm_square_chunks(M, pos, F::NCH, c);
#pragma unroll
    for (int k = 0; k < F::NCH; k++)
        if (c[k]) atomicAdd(&s_limb[i0 + k], (unsigned long long)c[k]);
}

template <typename In>
__global__ void __launch_bounds__(1024)
nrm_exact_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work,
                 size_t parts_off, In *result, int dt, unsigned *g_fb)
{
    typedef nrm_exact_fmt<In> F;
    /* step 0 complete and its writes visible before anything is read (SUMLAB_NORM_CORRECT_PDL) */
    asm volatile("griddepcontrol.wait;" ::: "memory");
    /* step 0 decided unless its gate g_fb is open (every block reads the word before its ticket;
     * the last block shuts it after every ticket) */
    if (*(volatile unsigned *)g_fb == 0u) return;
    typedef typename sl_vec<In>::type V;
    constexpr int W = sl_vec<In>::W;
    __shared__ unsigned long long s_limb[F::L];
    for (unsigned i = threadIdx.x; i < (unsigned)F::L; i += blockDim.x) s_limb[i] = 0ull;
    __syncthreads();
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned fl = 0u;
    if (g < head) nrm_exact_take(s_limb, x[g], &fl);
    const V *__restrict__ xv = reinterpret_cast<const V *>(x + head);
    for (uint64_t j = g; j < nv; j += T) {
        V v = xv[j];
#pragma unroll
        for (int k = 0; k < W; k++) nrm_exact_take(s_limb, sl_vec_lane(v, k), &fl);
    }
    const uint64_t ts = head + nv * W;
    if (g < n - ts) nrm_exact_take(s_limb, x[ts + g], &fl);
    const unsigned bnan = __syncthreads_or(fl & SL_NRM_FL_NAN), binf = __syncthreads_or(fl & SL_NRM_FL_INF);
    unsigned *gflag = reinterpret_cast<unsigned *>(static_cast<unsigned char *>(work) + SL_NRM_WS_FLAG);
    unsigned long long *parts = reinterpret_cast<unsigned long long *>(static_cast<unsigned char *>(work) + parts_off);
    for (unsigned i = threadIdx.x; i < (unsigned)F::L; i += blockDim.x)
        parts[(uint64_t)blockIdx.x * F::L + i] = s_limb[i];
    if (threadIdx.x == 0 && (bnan || binf))
        atomicOr(gflag, (bnan ? SL_NRM_FL_NAN : 0u) | (binf ? SL_NRM_FL_INF : 0u));
    sl_ticket_fence();                              /* every publishing thread, then the barrier */
    __syncthreads();
    if (!sl_ticket_last<sl_bar_aligned, false>(sl_ws_counter(work))) return;
    const unsigned G = gridDim.x;
    for (unsigned i = threadIdx.x; i < (unsigned)F::L; i += blockDim.x) {
        unsigned long long s = 0ull;
        for (unsigned b = 0; b < G; b++) s += __ldcg(&parts[(uint64_t)b * F::L + i]);
        s_limb[i] = s;
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    uint64_t d[F::L];
    for (int i = 0; i < F::L; i++) d[i] = (uint64_t)s_limb[i];
    const unsigned flags = atomicExch(gflag, 0u);
    *g_fb = 0u;
    *sl_ws_counter(work) = 0u;
    const double r = sl_nrm_round_sqrt(d, F::L, F::UNIT, (sl_dtype)dt, flags);
    *result = nrm_out<In>(r);                        /* exact: r is a value of dt */
}

/* ---- correct row-wise (rows/rows.h's dedicated entry), float32 and 16-bit ---------------------
 * nrmrow_kernel: a block of NRMR_BLOCK threads a row (grid stride over rows), or, for rows of at
 * most NRMR_WARP_ROW_MAX values, a warp a row: each thread's plain float64 sum of its squares
 * (sl_psum_sq_take: exact squares, one rounding an add) over its edge values and 16-byte vectors
 * (reduce/walk.cuh, four loads in flight) and whether it met an Inf; the warp's (and the block's)
 * sums by shuffle adds; thread 0 decides (norm.h's sl_nrm_row_decide, chain sl_nrm_row_chain):
 * the row's norm, else the row's index into the workspace's list. nrmrowx_kernel, behind it: a
 * block per listed row adds every square exactly into shared 24-bit digits (nrm_exact_take, the
 * 1-D exact kernel's step) and thread 0 rounds them (sl_nrm_round_sqrt, the twin's code); the
 * last block to take its ticket empties the list. A row's result is the correctly rounded norm
 * whichever kernel writes it: a function of the row's values alone (not B, the launch or the
 * GPU), so the twin is the 1-D twin on each row. */
#define NRMR_BLOCK 256u
#define NRMR_WARP_ROW_MAX 8192u

/* Thread t of T over row[0, n): its squares' sum and Inf flag. */
template <typename X>
__device__ __forceinline__ double nrmr_row_sum(const X *__restrict__ row, uint64_t n, unsigned t, unsigned T,
                                               unsigned *inf)
{
    double s = 0.0;
    sl_walk_values<4, SL_EDGES_FIRST>(row, sl_row_split(row, n), t, T, [&](X v, int) {
        const double u = nrm_widen<double>(v);
        *inf |= fabs(u) == (double)INFINITY;
        s = sl_psum_sq_take(s, u);
    });
    return s;
}

__device__ __forceinline__ void nrmr_warp_sum(double &s, unsigned &inf)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s = s + __shfl_down_sync(SL_FULL_MASK, s, off);
    inf = __reduce_or_sync(SL_FULL_MASK, inf);
}

/* Lane 0's decision on row r: its norm into out[r], else r into the list. */
template <typename X>
__device__ __forceinline__ void nrmr_decide(double s, unsigned inf, uint64_t n, unsigned T, sl_dtype dt,
                                            uint64_t r, unsigned *g_count, unsigned *g_list, X *out)
{
    double res;
    if (sl_nrm_row_decide(s, sl_nrm_row_chain(n, T), inf != 0u, dt, &res)) out[r] = nrm_out<X>(res);
    else g_list[atomicAdd(g_count, 1u)] = (unsigned)r;
}

template <typename X>
__global__ void __launch_bounds__(NRMR_BLOCK)
nrmrow_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, sl_dtype dt, unsigned char *work, X *out)
{
    __shared__ double s_w[NRMR_BLOCK / 32u];
    __shared__ unsigned s_inf[NRMR_BLOCK / 32u];
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    unsigned *g_list = reinterpret_cast<unsigned *>(work + SL_NRM_ROWS_WS_HEADER);
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        unsigned inf = 0u;
        double s = nrmr_row_sum<X>(x + r * n, n, tid, NRMR_BLOCK, &inf);
        nrmr_warp_sum(s, inf);
        if (lane == 0) {
            s_w[warp] = s;
            s_inf[warp] = inf;
        }
        __syncthreads();
        if (warp == 0) {
            s = lane < NRMR_BLOCK / 32u ? s_w[lane] : 0.0;
            inf = lane < NRMR_BLOCK / 32u ? s_inf[lane] : 0u;
            nrmr_warp_sum(s, inf);
            if (lane == 0) nrmr_decide<X>(s, inf, n, NRMR_BLOCK, dt, r, g_count, g_list, out);
        }
        __syncthreads();                             /* s_w is reused by the next row */
    }
}

template <typename X>
__global__ void __launch_bounds__(NRMR_BLOCK)
nrmroww_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, sl_dtype dt, unsigned char *work, X *out)
{
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    unsigned *g_list = reinterpret_cast<unsigned *>(work + SL_NRM_ROWS_WS_HEADER);
    const unsigned lane = threadIdx.x & 31u, WPB = NRMR_BLOCK / 32u;
    const uint64_t wstride = (uint64_t)gridDim.x * WPB;
    for (uint64_t r = (uint64_t)blockIdx.x * WPB + (threadIdx.x >> 5); r < rows; r += wstride) {
        unsigned inf = 0u;
        double s = nrmr_row_sum<X>(x + r * n, n, lane, 32u, &inf);
        nrmr_warp_sum(s, inf);
        if (lane == 0) nrmr_decide<X>(s, inf, n, 32u, dt, r, g_count, g_list, out);
    }
}

template <typename X>
__global__ void __launch_bounds__(NRMR_BLOCK)
nrmrowx_kernel(const X *__restrict__ x, uint64_t n, sl_dtype dt, unsigned char *work, X *out)
{
    typedef nrm_exact_fmt<X> F;
    __shared__ unsigned long long s_limb[F::L];
    __shared__ unsigned s_fl;
    unsigned *g_count = reinterpret_cast<unsigned *>(work);
    const unsigned *g_list = reinterpret_cast<const unsigned *>(work + SL_NRM_ROWS_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x;
    sl_rows_listed(g_count, g_count + 1, g_list, [&](uint64_t r) {
        const X *row = x + r * n;
        for (unsigned i = tid; i < (unsigned)F::L; i += B) s_limb[i] = 0ull;
        if (tid == 0) s_fl = 0u;
        sl_bar_any::sync();
        unsigned fl = 0u;
        sl_walk_values<4, SL_EDGES_FIRST>(row, sl_row_split(row, n), tid, B,
                                          [&](X v, int) { nrm_exact_take(s_limb, v, &fl); });
        if (fl) atomicOr(&s_fl, fl);
        sl_bar_any::sync();
        if (tid == 0) {
            uint64_t d[F::L];
            for (int i = 0; i < F::L; i++) d[i] = (uint64_t)s_limb[i];
            out[r] = nrm_out<X>(sl_nrm_round_sqrt(d, F::L, F::UNIT, dt, s_fl));
        }
        sl_bar_any::sync();                             /* s_limb is cleared for the next row */
    });
}

template <typename X>
static int nrm_rows_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, sl_dtype dt,
                           void *d_work, void *d_out, cudaStream_t st, sl_err *err)
{
    unsigned grid;
    unsigned char *w = (unsigned char *)d_work;
    if (n <= NRMR_WARP_ROW_MAX) {
        grid = sl_rows_grid(rows, NRMR_BLOCK / 32u);
        nrmroww_kernel<X><<<grid, NRMR_BLOCK, 0, st>>>((const X *)d_x, rows, n, dt, w, (X *)d_out);
        SL_CUDA_CHECK_LAUNCH("nrmroww_kernel", v->name, err);
    } else {
        grid = sl_rows_grid(rows, 1u);
        nrmrow_kernel<X><<<grid, NRMR_BLOCK, 0, st>>>((const X *)d_x, rows, n, dt, w, (X *)d_out);
        SL_CUDA_CHECK_LAUNCH("nrmrow_kernel", v->name, err);
    }
    const unsigned gx = grid < 1024u ? grid : 1024u;
    nrmrowx_kernel<X><<<gx, NRMR_BLOCK, 0, st>>>((const X *)d_x, n, dt, w, (X *)d_out);
    SL_CUDA_CHECK_LAUNCH_LISTED("nrmrowx_kernel", v->name, err, w, st);
    return 0;
}

/* ---- reproducible ----------------------------------------------------------------------------
 * float32, 16-bit input (nrm_repro_kernel): each thread its values' squares (exact in float64)
 * into a float64 binned accumulator (exact/binned.h, the state of `reproducible`); float64
 * (nrm_repro_max_kernel, then nrm_repro64_kernel): the first launch finds the exact max |x| (the
 * largest bit pattern, an integer max), the second each x's scaled TwoProduct pieces (s = 2^-e
 * from that max; the twin's norm.h's sl_nrm_repro_take_f64) into the same accumulator. Whole
 * 16-byte vectors, U a step, go in groups of SL_RSUM_GROUP through exact/binned.h's
 * sl_rsum_take_products_f64 (one capacity check a group, -0 where a tail is left out), edge values
 * and leftover vectors one by one. Then (nrm_repro_end) the thread's state; the block's states merged
 * (exact/binned_merge.cuh: shuffles, then warp 0), the block's state published, the last block merges
 * them (thread t: states t, t + B, ..., then the block) and thread 0 rounds to float64, takes the
 * root (float64: times 2^e) and rounds once to the input format. The state is a function of the
 * multiset of pieces: the same bits for every grid, block and order (the twin takes the values in
 * index order in one accumulator). Blocks of at most SL_NRM_REPRO_BLOCK threads (the launch bound). */
template <typename In>
__device__ __forceinline__ void nrm_repro_end(const sl_rsum_thr_f64 *acc, sl_rsum_state *s_w, void *work,
                                              In *result, double up)
{
    sl_rsum_state st;
    sl_rsum_to_state_f64(acc, &st);
    sl_rsum_grid_finish<SL_RSUM_K>(st, s_w, work, [&](const sl_rsum_state &t) {
        *result = nrm_out<In>(sl_nrm_repro_final(&t, up));
    });
}

/* Thread t of T's share of x split as sp: its values' squares into acc, whole steps of U 16-byte
 * vectors in groups of SL_RSUM_GROUP (sl_rsum_take_products_f64), its edge values first and its
 * leftover vectors one by one (float32, 16-bit input). */
template <typename In>
__device__ __forceinline__ void nrm_repro_walk(const In *x, const sl_split &sp, uint64_t t, uint64_t T,
                                               sl_rsum_thr_f64 &acc)
{
    enum { U = sl_vec<In>::W >= 8 ? 2 : 4 };
    sl_walk_groups_f64<U, SL_RSUM_GROUP, SL_EDGES_FIRST>(
        x, sp, t, T, [&](const double *a) { sl_rsum_take_products_f64(&acc, a, a, 0); },
        [&](In xin) {
            const double a_ = (double)sl_widen(xin);
            sl_rsum_take1_f64(&acc, a_ * a_);
        });
}

template <typename In>
__global__ void __launch_bounds__(SL_NRM_REPRO_BLOCK)
nrm_repro_kernel(const In *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work, In *result)
{
    __shared__ sl_rsum_state s_w[32];
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    sl_rsum_thr_f64 acc;
    sl_rsum_init_f64(&acc);
    nrm_repro_walk<In>(x, sl_split_of<In>(n, head, nv), g, T, acc);
    nrm_repro_end<In>(&acc, s_w, work, result, 1.0);
}

/* Row-wise (float32, 16-bit; rows/rows.h's dedicated entry): a block of SL_NRM_REPRO_BLOCK
 * threads a row (grid stride over rows), nrm_repro_walk over the row's own split, the threads'
 * states merged through the block, thread 0 finishes as the 1-D kernel's last block does; rows of
 * at most SL_ROWS_RS_WARP_ROW_MAX values: a warp a row (nrm_repro_rows_warp_kernel, no barrier),
 * the lanes' states merged by shuffles. The state is a function of the row's values alone: the
 * 1-D result on that row whatever B, the launch or the GPU; twin: the 1-D twin on each row. No
 * workspace. */
template <typename In>
__global__ void __launch_bounds__(SL_NRM_REPRO_BLOCK)
nrm_repro_rows_kernel(const In *__restrict__ x, uint64_t rows, uint64_t n, In *out)
{
    __shared__ sl_rsum_state s_w[32];
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const In *row = x + r * n;
        sl_rsum_thr_f64 acc;
        sl_rsum_init_f64(&acc);
        nrm_repro_walk<In>(row, sl_row_split(row, n), threadIdx.x, blockDim.x, acc);
        sl_rsum_state st;
        sl_rsum_to_state_f64(&acc, &st);
        sl_rsum_block_merge<SL_RSUM_K>(st, s_w);
        if (threadIdx.x == 0) out[r] = nrm_out<In>(sl_nrm_repro_final(&st, 1.0));
        sl_bar_any::sync();                          /* s_w is reused by the next row */
    }
}

template <typename In>
__global__ void __launch_bounds__(SL_NRM_REPRO_BLOCK)
nrm_repro_rows_warp_kernel(const In *__restrict__ x, uint64_t rows, uint64_t n, In *out)
{
    const unsigned lane = threadIdx.x & 31u, WPB = SL_NRM_REPRO_BLOCK / 32u;
    for (uint64_t r = (uint64_t)blockIdx.x * WPB + (threadIdx.x >> 5); r < rows; r += (uint64_t)gridDim.x * WPB) {
        const In *row = x + r * n;
        sl_rsum_thr_f64 acc;
        sl_rsum_init_f64(&acc);
        nrm_repro_walk<In>(row, sl_row_split(row, n), lane, 32u, acc);
        sl_rsum_state st;
        sl_rsum_to_state_f64(&acc, &st);
        sl_rsum_warp_merge<SL_RSUM_K>(st);
        if (lane == 0) out[r] = nrm_out<In>(sl_nrm_repro_final(&st, 1.0));
    }
}

/* The row kernel for rows of n values: a warp a row up to SL_ROWS_RS_WARP_ROW_MAX, else a block. */
template <typename In>
static void nrm_repro_rows_launch(const void *d_x, uint64_t rows, uint64_t n, void *d_out, cudaStream_t st)
{
    if (n <= SL_ROWS_RS_WARP_ROW_MAX) {
        nrm_repro_rows_warp_kernel<In><<<sl_rows_grid(rows, SL_NRM_REPRO_BLOCK / 32u), SL_NRM_REPRO_BLOCK, 0,
                                         st>>>((const In *)d_x, rows, n, (In *)d_out);
    } else {
        nrm_repro_rows_kernel<In><<<sl_rows_grid(rows, 1u), SL_NRM_REPRO_BLOCK, 0, st>>>(
            (const In *)d_x, rows, n, (In *)d_out);
    }
}

/* float64, first launch: the largest |x| bit pattern (NaN as 0) into the header at SL_NRM_WS_MAX
 * (sl_grid_finish's last block; the ticket left zero) */
struct nrm_umax_op {
    typedef unsigned long long A;
    static __device__ __forceinline__ A zero() { return 0ull; }
    static __device__ __forceinline__ A add(A a, A b) { return a > b ? a : b; }
    static __device__ __forceinline__ A shfl(A v, int off) { return __shfl_down_sync(SL_FULL_MASK, v, off); }
    static __device__ __forceinline__ void store(A *p, A v) { *p = v; }
    static __device__ __forceinline__ A load_cg(const A *p) { return __ldcg(p); }
};
struct nrm_umax_fin {
    typedef unsigned long long Out;
    static __device__ __forceinline__ Out final(unsigned long long a) { return a; }
};
__device__ __forceinline__ unsigned long long *nrm_ws_max(void *work)
{
    return reinterpret_cast<unsigned long long *>(static_cast<unsigned char *>(work) + SL_NRM_WS_MAX);
}

__global__ void __launch_bounds__(SL_NRM_REPRO_BLOCK)
nrm_repro_max_kernel(const double *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work)
{
    __shared__ unsigned long long s_warp[32];
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long m = 0ull;
    sl_walk_values<4, SL_EDGES_LAST>(x, sl_split_of<double>(n, head, nv), g, T, [&](double v, int) {
        const unsigned long long a = sl_nrm_absbits_f64((uint64_t)__double_as_longlong(v));
        m = a > m ? a : m;
    });
    m = sl_block_reduce<nrm_umax_op>(m, s_warp);
    sl_grid_finish<nrm_umax_op, nrm_umax_fin>(m, sl_ws_partials<unsigned long long>(work), sl_ws_counter(work),
                                              nrm_ws_max(work));
}

/* float64, second launch: the scaled TwoProduct pieces (s = 2^-e from the first launch's max) */
__global__ void __launch_bounds__(SL_NRM_REPRO_BLOCK)
nrm_repro64_kernel(const double *__restrict__ x, uint64_t n, uint64_t head, uint64_t nv, void *work,
                   double *result)
{
    __shared__ sl_rsum_state s_w[32];
    const uint64_t T = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int e = sl_nrm_repro_exp(__ldcg(nrm_ws_max(work)));
    const double s = sl_pow2_f64(-e);
    sl_rsum_thr_f64 acc;
    sl_rsum_init_f64(&acc);
    sl_walk_groups_f64<4, SL_RSUM_GROUP, SL_EDGES_LAST>(
        x, sl_split_of<double>(n, head, nv), g, T,
        [&](double *a) {
#pragma unroll
            for (int k = 0; k < SL_RSUM_GROUP; k++) a[k] *= s;
            sl_rsum_take_products_f64(&acc, a, a, 1);
        },
        [&](double v) { sl_nrm_repro_take_f64(&acc, v, s); });
    nrm_repro_end<double>(&acc, s_w, work, result, sl_pow2_f64(e));
}

} // namespace

/* ---- launcher -------------------------------------------------------------------------------- */
struct nrm_args {
    const sl_launch *cfg;
    const void *x;
    uint64_t n, head, nv;
    void *work, *result;
    cudaStream_t s;
};

template <typename In, typename Acc, class R>
static int nrm_launch(const sl_variant *v, const nrm_args &a, sl_err *err)
{
    const sl_launch *c = a.cfg;
    if (v->impl == SL_NRM_SCALED)
        nrm_kernel<In, Acc, R, 3><<<c->grid, c->block, 0, a.s>>>((const In *)a.x, a.n, a.head, a.nv,
                                                                  a.work, (In *)a.result);
    else
        nrm_kernel<In, Acc, R, 1><<<c->grid, c->block, 0, a.s>>>((const In *)a.x, a.n, a.head, a.nv,
                                                                  a.work, (In *)a.result);
    SL_CUDA_CHECK_LAUNCH("nrm_kernel", v->name, err);
    return 0;
}

/* correct's step 0 (every format): exact/pairsum.cuh's kernel on the squares (float32/16-bit: the
 * plain float64 sum; float64: the pair), the root certified by the midpoint test on both sides of
 * the candidate (exact/pairsum.h's sl_psum_root_end, lane 0 the lower side, lane 1 the upper):
 * two equal ends are the correctly rounded norm. Its ticket and gate lie in the header
 * (SL_NRM_WS_PSUM), its per-block accumulators after the exact kernel's digits. */
template <typename In> struct nrm_psum_dt { enum { v = SL_F32 }; };
template <> struct nrm_psum_dt<double> { enum { v = SL_F64 }; };
template <> struct nrm_psum_dt<__half> { enum { v = SL_F16 }; };
template <> struct nrm_psum_dt<__nv_bfloat16> { enum { v = SL_BF16 }; };
template <typename In> struct nrm_psum_ops { typedef sl_psum_ops_sq type; };
template <> struct nrm_psum_ops<double> { typedef sl_psum_ops_pair type; };
template <typename In> struct nrm_psum_fin {
    static __device__ __forceinline__ double end(const sl_psum_acc *t, double E, int side)
    {
        return sl_psum_root_end(t->s, t->c, E, side, nrm_psum_dt<In>::v);
    }
    static __device__ __forceinline__ double end(const double *t, double E, int side)
    {
        return sl_psum_root_end(*t, 0.0, E, side, nrm_psum_dt<In>::v);
    }
    template <typename O> static __device__ __forceinline__ O out(double r) { return nrm_out<O>(r); }
};
static inline size_t nrm_psum_offset(uint64_t grid, sl_dtype dt)
{
    return (sl_nrm_ws_correct(grid, dt) + 15u) & ~(size_t)15u;
}

/* correct's two launches: the cheap pass (every format), then the exact kernel behind its gate
 * (a programmatic dependent launch when SUMLAB_NORM_CORRECT_PDL). */
template <typename In>
static int nrm_launch_exact(const sl_variant *v, const nrm_args &a, sl_dtype dt, sl_err *err)
{
    const sl_launch *c = a.cfg;
    unsigned char *w = (unsigned char *)a.work;
    unsigned *hdr = reinterpret_cast<unsigned *>(w + SL_NRM_WS_PSUM), *gate = hdr + 1;
    sl_psum_kernel<In, 1, nrm_psum_fin<In>, typename nrm_psum_ops<In>::type><<<c->grid, c->block, 0, a.s>>>(
        (const In *)a.x, (const In *)a.x, a.n, a.head, a.nv, hdr, w + nrm_psum_offset(c->grid, dt),
        (In *)a.result);
    SL_CUDA_CHECK_LAUNCH("sl_psum_kernel (norm2)", v->name, err);
    /* returns at once unless the first pass opened the gate */
    const size_t parts = sl_nrm_ws_parts(c->grid, dt);
    if (SUMLAB_NORM_CORRECT_PDL) {
        SL_CUDA_CHECK(sl_launch_dependent(nrm_exact_kernel<In>, dim3(c->grid), dim3(c->block), a.s, (const In *)a.x,
                                          a.n, a.head, a.nv, a.work, parts, (In *)a.result, (int)dt, gate),
                      v->name, err);
    } else {
        nrm_exact_kernel<In><<<c->grid, c->block, 0, a.s>>>((const In *)a.x, a.n, a.head, a.nv, a.work, parts,
                                                            (In *)a.result, (int)dt, gate);
    }
    SL_CUDA_CHECK_LAUNCH("nrm_exact_kernel", v->name, err);
    return 0;
}

template <typename In>
static int nrm_launch_repro(const sl_variant *v, const nrm_args &a, sl_err *err)
{
    const sl_launch *c = a.cfg;
    if (c->block > SL_NRM_REPRO_BLOCK || (c->block & (c->block - 1u)))
        return sl_err_set(err, "%s: block %u: a power of two up to %u", v->name, c->block, SL_NRM_REPRO_BLOCK);
    nrm_repro_kernel<In><<<c->grid, c->block, 0, a.s>>>((const In *)a.x, a.n, a.head, a.nv, a.work,
                                                        (In *)a.result);
    SL_CUDA_CHECK_LAUNCH("nrm_repro_kernel", v->name, err);
    return 0;
}

/* float64: the max pass, then the pieces (the same stream: the second reads the first's max) */
static int nrm_launch_repro64(const sl_variant *v, const nrm_args &a, sl_err *err)
{
    const sl_launch *c = a.cfg;
    if (c->block > SL_NRM_REPRO_BLOCK || (c->block & (c->block - 1u)))
        return sl_err_set(err, "%s: block %u: a power of two up to %u", v->name, c->block, SL_NRM_REPRO_BLOCK);
    if (a.n >= SL_RSUM_MAX_N / 2)
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^39)", v->name, (unsigned long long)a.n);
    nrm_repro_max_kernel<<<c->grid, c->block, 0, a.s>>>((const double *)a.x, a.n, a.head, a.nv, a.work);
    SL_CUDA_CHECK_LAUNCH("nrm_repro_max_kernel", v->name, err);
    nrm_repro64_kernel<<<c->grid, c->block, 0, a.s>>>((const double *)a.x, a.n, a.head, a.nv, a.work,
                                                      (double *)a.result);
    SL_CUDA_CHECK_LAUNCH("nrm_repro64_kernel", v->name, err);
    return 0;
}

extern "C" size_t sl_norm_workspace(const sl_variant *v, uint64_t n, sl_dtype dt, const sl_launch *cfg)
{
    (void)n;
    if (v->impl == SL_NRM_REPRO) return sl_ws_bytes(cfg->grid, sizeof(sl_rsum_state));
    if (v->impl == SL_NRM_CORRECT)       /* the cheap pass's accumulators after the exact kernel's */
        return nrm_psum_offset(cfg->grid, dt) + sizeof(sl_psum_acc) * (size_t)cfg->grid;
    const size_t acc = sl_variant_acc(v, dt) == SL_F64 ? sizeof(double) : sizeof(float);
    return sl_ws_bytes(cfg->grid, (v->impl == SL_NRM_SCALED ? 3u : 1u) * acc);
}

extern "C" int sl_norm_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                                sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                                void *d_results, void *stream, sl_err *err)
{
    const cudaStream_t st = (cudaStream_t)stream;
    if (v->impl != SL_NRM_CORRECT && v->impl != SL_NRM_REPRO) return sl_err_set(err, "%s: no row kernel", v->name);
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (rows == 0) return 0;
    if (v->impl == SL_NRM_REPRO) {
        /* float64 (its max pass) and rows too few to fill the GPU a block each: the 1-D launcher
         * on each row (rows.c's workspace alike); else a block a row */
        if (dt == SL_F64 || sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u))
            return sl_rows_each_1d(v, d_x, rows, n, dt, cfg, d_work, work_bytes, d_results, stream, err);
        if (n >= SL_RSUM_MAX_N)
            return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name, (unsigned long long)n);
        if (n && sl_check_aligned(v, d_x, dt, err)) return -1;
        if (dt == SL_F16) nrm_repro_rows_launch<__half>(d_x, rows, n, d_results, st);
        else if (dt == SL_BF16) nrm_repro_rows_launch<__nv_bfloat16>(d_x, rows, n, d_results, st);
        else nrm_repro_rows_launch<float>(d_x, rows, n, d_results, st);
        SL_CUDA_CHECK_LAUNCH("nrm_repro_rows_kernel (warp or block a row)", v->name, err);
        return 0;
    }
    /* the 1-D launcher on each row, resolved at its address: float64, rows beyond the row
     * kernels' digits, and rows too few to fill the GPU a block each (rows.c's workspace alike) */
    if (dt == SL_F64 || n >= SL_NRM_ROWS_MAX_N || sl_rows_few_long(rows, n, cfg ? cfg->sm_count : 0u))
        return sl_rows_each_1d(v, d_x, rows, n, dt, cfg, d_work, work_bytes, d_results, stream, err);
    if (rows > 0xffffffffull)
        return sl_err_set(err, "%s: %llu rows are too many (< 2^32)", v->name, (unsigned long long)rows);
    if (sl_check_workspace(v, d_work, work_bytes, SL_NRM_ROWS_WS_BYTES(rows), err) ||
        (n && sl_check_aligned(v, d_x, dt, err)))
        return -1;
    return dt == SL_F16    ? nrm_rows_launch<__half>(v, d_x, rows, n, dt, d_work, d_results, st, err)
           : dt == SL_BF16 ? nrm_rows_launch<__nv_bfloat16>(v, d_x, rows, n, dt, d_work, d_results, st, err)
                           : nrm_rows_launch<float>(v, d_x, rows, n, dt, d_work, d_results, st, err);
}

extern "C" int sl_norm_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                           const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                           void *stream, sl_err *err)
{
    nrm_args a = {cfg, d_x, n, 0, 0, d_work, d_result, (cudaStream_t)stream};
    if (!(v->dtypes & SL_DTYPE_MASK(dt)))
        return sl_err_set(err, "%s: does not take %s input", v->name, sl_dtype_name(dt));
    if (n >= ((uint64_t)1 << 40))
        return sl_err_set(err, "%s: n = %llu is too large (n < 2^40)", v->name, (unsigned long long)n);
    if (sl_check_aligned(v, d_x, dt, err) || sl_check_addr_mod(v, d_x, cfg, err) ||
        sl_check_shape(v, cfg, 32u, err) ||
        sl_check_workspace(v, d_work, work_bytes, sl_norm_workspace(v, n, dt, cfg), err))
        return -1;
    sl_vec_split(n, dt, cfg->addr_mod, &a.head, &a.nv);
    if (v->impl == SL_NRM_CORRECT) {
        switch (dt) {
        case SL_F64: return nrm_launch_exact<double>(v, a, dt, err);
        case SL_F32: return nrm_launch_exact<float>(v, a, dt, err);
        case SL_F16: return nrm_launch_exact<__half>(v, a, dt, err);
        case SL_BF16: return nrm_launch_exact<__nv_bfloat16>(v, a, dt, err);
        }
        return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
    }
    if (v->impl == SL_NRM_REPRO) {
        switch (dt) {
        case SL_F64: return nrm_launch_repro64(v, a, err);
        case SL_F32: return nrm_launch_repro<float>(v, a, err);
        case SL_F16: return nrm_launch_repro<__half>(v, a, err);
        case SL_BF16: return nrm_launch_repro<__nv_bfloat16>(v, a, err);
        }
        return sl_err_set(err, "%s: unknown dtype %d", v->name, (int)dt);
    }
    if (v->impl != SL_NRM_NAIVE && v->impl != SL_NRM_SCALED)
        return sl_err_set(err, "%s: no kernel", v->name);
    const sl_dtype acc = sl_variant_acc(v, dt);
    return sl_acc_dispatch(dt, acc, v->name, err, [&](auto in, auto ac, auto rn) {
        return nrm_launch<SL_TAG_T(in), SL_TAG_T(ac), SL_TAG_T(rn)>(v, a, err);
    });
}

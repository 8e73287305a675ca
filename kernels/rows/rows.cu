/* rows/rows.cu: row-wise reductions on the GPU (rows.h): the generic path (the 1-D launcher on
 * each row's pointer), the `block-row` kernel (twin: rows.c), the `reproducible` row kernel
 * (a block per row over exact/binned.h's state; twin: sl_rsum_sum on each row) and the
 * `superacc` row kernels (a certified float64 pass, a warp or a block a row, whose undecided rows
 * are summed exactly behind it; or one or several blocks per row over superacc_f32.cu's exponent
 * bins: the row's exact sum rounded once either way; twin: the superacc twin on each row) and the
 * `lse` `reproducible` row kernels (a warp or a block per row: one read for the maxima and the
 * binned sum of the one-pass terms, a second for the shifted terms only where the row's maximum
 * falls outside the one-pass window; kernels/lse's host-and-device exp; twin: lse.c's
 * reproducible twin on each row).
 *
 * Floating-point assumptions: as rows.c and exact/binned_kernel.cuh (IEEE adds rounded to
 * nearest even, --fmad=false, -ftz=false).
 * Performance considerations: one block per row, rows spread by a grid-stride loop over blocks;
 * for [B, N] inputs of a few thousand rows every SM holds several rows, and each row streams
 * with 16-byte loads (block-row) or scalar coalesced loads (reproducible: the deposits cost
 * more than the load width). Numbers: BENCHMARKS.md (`sumlab bench --axis`). */
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "exact/binned_kernel.cuh"
#include "reduce/launch.cuh"
#include "rows/rows.h"
#include "rows/rows_cert.h"
#include "superacc/one_launch.cuh"   /* with exact/bins.cuh: lse reproducible rows' exact sum too */
#include "superacc/superacc64.cuh"   /* the float64 expansion: superacc's float64 listed rows */
#include "lse/lse.h"
#include "lse/lse_fold.cuh"   /* lse reproducible rows: 16-bit terms in register folds */
#include "sl_gpu.h"
#include "sumlab/half.h"

#define ROWS_WARPS (SL_ROWS_BLOCK / 32u)

/* ---- block-row (the order and tree are described in rows.c, beside the twin) -------------- */
template <typename X> struct br_acc { typedef float T; };
template <> struct br_acc<double> { typedef double T; };

/* Work unit w = r P + p: part p of row r (P = sl_rows_br_parts(n): 1 below 2^18 values). P > 1:
 * each part's value goes to its slot (a double, after the rows' 4-byte tickets rounded up to 16
 * bytes) and the row's last part to take its ticket adds the P values left to right (the order
 * is fixed, whichever block arrives last) and leaves the ticket zero. */
template <typename X>
__global__ void __launch_bounds__(SL_ROWS_BLOCK)
br_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, unsigned P, unsigned char *work, X *out)
{
    typedef typename br_acc<X>::T T;
    enum { W = 16 / sizeof(X) };
    __shared__ T s_warp[ROWS_WARPS];
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    unsigned *tickets = reinterpret_cast<unsigned *>(work);
    double *slots = reinterpret_cast<double *>(work + (rows * 4u + 15u) / 16u * 16u);
    for (uint64_t w = blockIdx.x; w < rows * P; w += gridDim.x) {
        const uint64_t r = w / P;
        const unsigned part = (unsigned)(w - r * P);
        const uint64_t off = (uint64_t)part * SL_ROWS_BR_PART;
        const uint64_t len = P == 1u ? n : (n - off < SL_ROWS_BR_PART ? n - off : SL_ROWS_BR_PART);
        const uint64_t ng = len / W;
        const X *row = x + r * n + off;   /* SL_ROWS_BR_PART values: a multiple of 16 bytes */
        const bool aligned = ((uintptr_t)row & 15u) == 0;
        T a = T(0);
        for (uint64_t g = tid; g < ng; g += SL_ROWS_BLOCK) {
            X v[W];
            if (aligned) {
                const uint4 q = __ldg(reinterpret_cast<const uint4 *>(row) + g);
                memcpy(v, &q, 16);
            } else {
#pragma unroll
                for (int j = 0; j < W; j++) v[j] = row[g * W + j];
            }
#pragma unroll
            for (int j = 0; j < W; j++) a = a + (T)sl_widen(v[j]);
        }
        if (ng * W + tid < len) a = a + (T)sl_widen(row[ng * W + tid]);
#pragma unroll
        for (unsigned o = 16; o > 0; o >>= 1) a = a + __shfl_down_sync(SL_FULL_MASK, a, o);
        if (lane == 0) s_warp[warp] = a;
        __syncthreads();
        if (warp == 0) {
            a = lane < ROWS_WARPS ? s_warp[lane] : T(0);
#pragma unroll
            for (unsigned o = ROWS_WARPS / 2u; o > 0; o >>= 1)
                a = a + __shfl_down_sync(SL_FULL_MASK, a, o);
            if (lane == 0 && P == 1u) {
                out[r] = sl_out<X>(a);
            } else if (lane == 0) {
                slots[w] = (double)a;                /* exact: a holds a T */
                sl_ticket_fence();                  /* the value before the ticket */
                if (atomicAdd(&tickets[r], 1u) == P - 1u) {
                    sl_ticket_fence();
                    T s = (T)__ldcg(&slots[r * P]);
                    for (unsigned p = 1; p < P; p++) s = s + (T)__ldcg(&slots[r * P + p]);
                    out[r] = sl_out<X>(s);
                    atomicExch(&tickets[r], 0u);
                }
            }
        }
        __syncthreads();
    }
}

template <typename X>
static int br_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, void *d_work,
                     size_t work_bytes, void *d_out, cudaStream_t st, sl_err *err)
{
    const unsigned P = sl_rows_br_parts(n);
    const uint64_t need = (rows * 4u + 15u) / 16u * 16u + rows * P * 8u;
    if (P > 1u && (!d_work || work_bytes < need))
        return sl_err_set(err, "%s: split rows need %llu bytes of workspace, have %llu", v->name,
                          (unsigned long long)need, (unsigned long long)work_bytes);
    br_kernel<X><<<sl_rows_grid(rows * P, 1u), SL_ROWS_BLOCK, 0, st>>>((const X *)d_x, rows, n, P,
                                                                (unsigned char *)d_work, (X *)d_out);
    SL_CUDA_CHECK_LAUNCH("br_kernel", v->name, err);
    return 0;
}

extern "C" int sl_block_row_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                                     sl_dtype dt, const sl_launch *cfg, void *d_work,
                                     size_t work_bytes, void *d_results, void *stream, sl_err *err)
{
    (void)cfg;
    cudaStream_t st = (cudaStream_t)stream;
    if (rows == 0) return 0;
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    return dt == SL_F64    ? br_launch<double>(v, d_x, rows, n, d_work, work_bytes, d_results, st, err)
           : dt == SL_F16  ? br_launch<__half>(v, d_x, rows, n, d_work, work_bytes, d_results, st, err)
           : dt == SL_BF16 ? br_launch<__nv_bfloat16>(v, d_x, rows, n, d_work, work_bytes, d_results, st, err)
                           : br_launch<float>(v, d_x, rows, n, d_work, work_bytes, d_results, st, err);
}

extern "C" int sl_block_row_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                                const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_result,
                                void *stream, sl_err *err)
{
    return sl_block_row_rows_gpu(v, d_x, 1, n, dt, cfg, d_work, work_bytes, d_result, stream, err);
}

/* ---- reproducible: a warp or a block per row over the binned state (exact/binned.h) ---------
 * Each of a row's TPR threads takes the row's edge values (before its first 16-byte boundary,
 * after its last whole vector) one by one and its 16-byte vectors in tiles of U per thread with
 * the 1-D kernel's group fast path (one capacity check per 8 values, the warp raising its index
 * together); its folds become an integer state, the warp's states merge exactly
 * (sl_rsum_warp_merge), then (a block per row) warp 0 merges the warps' states, and lane 0 rounds the
 * row's state once (as rs_kernel's last block rounds the grid's). The result is the binned sum
 * of the row's multiset of values: the 1-D kernel's and the twin's, whatever B, the split or the
 * launch. Chosen by sl_rows_rs_lanes (sl_layout.h): 8 or 16 lanes a row (4 or 2 rows a warp,
 * each group raising, merging and rounding its own row) or a warp a row up to
 * SL_ROWS_RS_WARP_ROW_MAX values (or SL_ROWS_RS_WARP_ROW_MANY when the rows are many), where a
 * block's merge would cost more than its values; a block per row above, or S blocks per row
 * (sl_rows_split: long rows, or few rows against the SMs) whose states the row's last block
 * merges (exact, commutative and associative: the same state for any S) before rounding. */
#define RS_WARP_ROW_MAX SL_ROWS_RS_WARP_ROW_MAX

/* Thread t of a row's TPR threads adds its share of part `part` of S of the row into a: the
 * edges (part 0) and the tiles part, part + S, ... CERT: superacc's float64 rows (4 folds). */
template <typename X, unsigned TPR, bool CERT, typename A>
__device__ __forceinline__ void rs_row_take(A &a, const X *row, uint64_t n, unsigned t, unsigned part,
                                            unsigned S)
{
    typedef rs_fmt<X, CERT> F;
    typedef typename F::T T;
    typedef typename F::V V;
    uint64_t head = ((16u - ((uintptr_t)row & 15u)) & 15u) / sizeof(X);
    if (head > n) head = n;
    const uint64_t nv = (n - head) / F::VW, tail0 = head + nv * F::VW;
    if (part == 0) {
        for (uint64_t i = t; i < head; i += TPR) rs_take1(a, (T)sl_widen(row[i]));
        for (uint64_t i = tail0 + t; i < n; i += TPR) rs_take1(a, (T)sl_widen(row[i]));
    }
    const V *xv = reinterpret_cast<const V *>(row + head);
    /* the tile's U vectors loaded first, then taken in sub-tiles of SV vectors as rs_kernel does
     * (16-bit input: 16 values widened at a time; all 32 at once held 80 registers a thread) */
    enum { SV = F::SV < F::U ? F::SV : F::U, NS = F::U / SV, SE = SV * F::VW };
    const uint64_t per_tile = (uint64_t)TPR * F::U;
    const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
    for (uint64_t tile = part; tile < ntiles; tile += S) {
        const uint64_t base = tile * per_tile + t;
        if ((tile + 1) * per_tile <= nv) {           /* uniform over the row's threads */
            V r4[F::U];
#pragma unroll
            for (int u = 0; u < F::U; u++) r4[u] = sl_ldv(xv + base + (uint64_t)u * TPR);
#pragma unroll
            for (int sub = 0; sub < NS; sub++) rs_take_sub<SE, T, (TPR < 32u ? (int)TPR : 32)>(a, r4 + sub * SV);
        } else {
            for (int u = 0; u < F::U; u++)
                if (base + (uint64_t)u * TPR < nv) rs_take_vec(a, sl_ldv(xv + base + (uint64_t)u * TPR));
        }
    }
}

/* The row's merged, normalised state rounded once to X. */
template <typename X>
__device__ __forceinline__ X rs_row_round(const sl_rsum_state &st)
{
    typedef typename rs_fmt<X, false>::T T;
    const double v = sizeof(T) == 4 ? sl_rsum_state_round_f32(&st, sizeof(X) == 2) : sl_rsum_state_round_f64(&st, 0);
    return sl_out<X>((T)v);
}

/* superacc rows: the certified pass's list in the row kernels' workspace (rows.h): [0, 4) its
 * length, [4, 8) the exact kernel's ticket, [8, 12) the count of rows the exact kernel has summed
 * (not reset), then the listed rows' indices (4 bytes each) from SAC_WS_HEADER: at most 16 + 4
 * rows <= rows SL_ROWS_SACC_WS bytes. The split kernel's row 0 never uses bytes [8, 16). */
#define SAC_WS_HEADER 16u
/* SUMLAB_ROWS_SACC_PDL (kernels/README.md; the CMake option SUMLAB_ROWS_SACC_NO_PDL sets it to
 * 0, for measuring): 1 launches the exact kernel on the listed rows as a programmatic dependent
 * launch of the certified pass (Hopper): each pass block allows it at its start, so its blocks
 * are scheduled during the pass's last wave and wait (griddepcontrol.wait: the pass complete and
 * its writes visible) instead of starting after a launch gap; 0, an ordinary launch behind it. */
#ifndef SUMLAB_ROWS_SACC_PDL
#define SUMLAB_ROWS_SACC_PDL 1
#endif
/* A listed pass's start (every thread of the block): once the pass before it is complete, the
 * list's length (its block reads it into *s_cnt). A block with no listed row (blockIdx.x at or
 * past the length) then returns before any ticket, uniformly. */
__device__ __forceinline__ unsigned sac_list_length(const unsigned *l_count, unsigned *s_cnt)
{
    if (SUMLAB_ROWS_SACC_PDL) asm volatile("griddepcontrol.wait;" ::: "memory");
    if (threadIdx.x == 0) *s_cnt = __ldcg(l_count);
    sl_bar_any::sync();
    return *s_cnt;
}
/* A listed pass's end (thread 0 of each block that had a row, after its rows): the
 * P = min(length, G) such blocks take a ticket, and the last adds the length to the count of rows
 * summed exactly and empties the list (every taker read the length before). */
__device__ __forceinline__ void sac_list_done(unsigned *l_count, unsigned rows)
{
    const unsigned P = rows < gridDim.x ? rows : gridDim.x;
    if (atomicAdd(l_count + 1, 1u) == P - 1u) {
        atomicAdd(l_count + 2, rows);
        atomicExch(l_count, 0u);
        atomicExch(l_count + 1, 0u);
    }
}

/* superacc's float64 rows (CERT): the row's merged 4-fold state st, held by lane 0 of the calling
 * warp (which calls this whole), certified as superacc's 1-D float64 path certifies an array's
 * (exact/binned.h's sl_rsum_state_certify_f64: the state is a function of the row's values
 * alone): lanes 0 and 1 round the interval's two ends at once; when they agree, lane 0 writes
 * the row's correctly rounded sum, else it lists row r for sacc_rows_listed_kernel (the list's
 * layout: SAC_WS_HEADER, above). */
__device__ __forceinline__ void rs_cert_row(sl_rsum_state st, uint64_t n, uint64_t r, unsigned char *list,
                                            double *out)
{
    const unsigned lane = threadIdx.x & 31u;
    st.top = __shfl_sync(SL_FULL_MASK, st.top, 0);
    st.flags = __shfl_sync(SL_FULL_MASK, st.flags, 0);
#pragma unroll
    for (int k = 0; k < 4; k++) {
        st.hi[k] = __shfl_sync(SL_FULL_MASK, (long long)st.hi[k], 0);
        st.lo[k] = __shfl_sync(SL_FULL_MASK, (long long)st.lo[k], 0);
    }
    double e = 0.0;
    if (lane < 2u) e = rs_certify_end_dev(&st, n, lane ? 1 : -1, 0u);
    const double other = __shfl_sync(SL_FULL_MASK, e, 1);
    double c;
    if (lane == 0) {
        if (sl_rsum_certify_agree(e, other, &c)) {
            out[r] = c;
        } else {
            unsigned *count = reinterpret_cast<unsigned *>(list);
            reinterpret_cast<unsigned *>(list + SAC_WS_HEADER)[atomicAdd(count, 1u)] = (unsigned)r;
        }
    }
}

/* A block per row, or S blocks per row (work unit w = r S + p: part p of row r): each part's
 * merged state goes to its slot in the workspace (after the rows' 4-byte tickets, rounded up to
 * 16 bytes), and the row's last part to take its ticket merges the S states (exact, any order)
 * and rounds, leaving the ticket zero. CERT (superacc's float64 rows, S = 1, fewer than 2^32
 * rows): 4 folds, warp 0 certifies the row's state (rs_cert_row; list: the undecided rows), and
 * each block allows the listed rows' exact kernel, launched as its programmatic dependent, to be
 * scheduled from its start. */
template <typename X, bool CERT>
__global__ void __launch_bounds__(SL_ROWS_BLOCK)
rs_rows_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, unsigned S, unsigned char *work,
               X *out, unsigned char *list)
{
    typedef rs_fmt<X, CERT> F;
    typedef typename F::A A;
    __shared__ sl_rsum_state s_warp[ROWS_WARPS];
    const unsigned tid = threadIdx.x;
    if (CERT && SUMLAB_ROWS_SACC_PDL) asm volatile("griddepcontrol.launch_dependents;");
    unsigned *tickets = reinterpret_cast<unsigned *>(work);
    sl_rsum_state *slots = CERT ? nullptr : reinterpret_cast<sl_rsum_state *>(work + (rows * 4u + 15u) / 16u * 16u);
    for (uint64_t w = blockIdx.x; w < rows * S; w += gridDim.x) {
        const uint64_t r = w / S;
        const unsigned part = (unsigned)(w - r * S);
        A a;
        rs_init(a);
        rs_row_take<X, SL_ROWS_BLOCK, CERT>(a, x + r * n, n, tid, part, S);
        sl_rsum_state st;
        rs_to_state(a, st);
        sl_rsum_block_merge<F::K>(st, s_warp);
        if (CERT) {
            if (tid < 32u) rs_cert_row(st, n, r, list, reinterpret_cast<double *>(out));
        } else if (tid == 0 && S == 1u) {
            out[r] = rs_row_round<X>(st);
        } else if (tid == 0) {
            slots[w] = st;
            sl_ticket_fence();                      /* the state before the ticket */
            if (atomicAdd(&tickets[r], 1u) == S - 1u) {
                sl_ticket_fence();
                sl_rsum_state m, o;
                sl_rsum_state_zero_k(&m, F::K);
                for (unsigned p = 0; p < S; p++) {
                    sl_rsum_state_load_cg(&o, &slots[r * S + p]);   /* other blocks wrote the slots */
                    sl_rsum_state_merge_k(&m, &o, F::K);
                }
                out[r] = rs_row_round<X>(m);
                atomicExch(&tickets[r], 0u);
            }
        }
        sl_bar_any::sync();
    }
}

/* A warp per row, ROWS_WARPS rows per block (no barrier: each warp on its own rows), or (G < 32,
 * not CERT) a group of G lanes per row, 32 / G rows a warp: more values a lane for the same
 * merge and one rounding for the warp's rows at once (lanes 0, G, ...). Every lane of a warp
 * runs the same loop trips and collectives: its groups' rows have the same head
 * (sl_rows_rs_lanes asks n values of a multiple of 16 bytes), and a group past the last row
 * takes the last row again and writes nothing. CERT: as rs_rows_kernel's. */
template <typename X, bool CERT, unsigned G = 32u>
__global__ void __launch_bounds__(SL_ROWS_BLOCK)
rs_rows_warp_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, X *out, unsigned char *list)
{
    typedef rs_fmt<X, CERT> F;
    typedef typename F::A A;
    static_assert(G == 32u || !CERT, "the certified rows: a warp a row");
    enum { RPW = 32u / G };
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const unsigned t = lane % G, g = lane / G;
    if (CERT && SUMLAB_ROWS_SACC_PDL) asm volatile("griddepcontrol.launch_dependents;");
    for (uint64_t r0 = ((uint64_t)blockIdx.x * ROWS_WARPS + warp) * RPW; r0 < rows;
         r0 += (uint64_t)gridDim.x * ROWS_WARPS * RPW) {
        const uint64_t r = r0 + g < rows ? r0 + g : rows - 1u;
        A a;
        rs_init(a);
        rs_row_take<X, G, CERT>(a, x + r * n, n, t, 0u, 1u);
        sl_rsum_state st;
        rs_to_state(a, st);
        sl_rsum_lanes_merge<F::K, (int)G>(st);
        if (CERT) rs_cert_row(st, n, r, list, reinterpret_cast<double *>(out));
        else if (t == 0 && r0 + g < rows) out[r] = rs_row_round<X>(st);
    }
}

template <typename X>
static int rs_rows_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                          const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_out,
                          cudaStream_t st, sl_err *err)
{
    const unsigned lanes = sl_rows_rs_lanes(rows, n, sizeof(X), cfg ? cfg->sm_count : 0u);
    if (lanes) {
        const unsigned per = ROWS_WARPS * (32u / lanes);   /* rows a block */
        const unsigned grid = sl_rows_grid(rows, per);
        const auto kernel = lanes == 8u    ? rs_rows_warp_kernel<X, false, 8u>
                            : lanes == 16u ? rs_rows_warp_kernel<X, false, 16u>
                                           : rs_rows_warp_kernel<X, false>;
        kernel<<<grid, SL_ROWS_BLOCK, 0, st>>>((const X *)d_x, rows, n, (X *)d_out, nullptr);
        SL_CUDA_CHECK_LAUNCH("rs_rows_warp_kernel", v->name, err);
    } else {
        const unsigned S = sl_rows_split(rows, n, cfg ? cfg->sm_count : 0u, SL_ROWS_RS_SPLIT_MAX);
        const uint64_t need = (rows * 4u + 15u) / 16u * 16u + rows * S * (uint64_t)sizeof(sl_rsum_state);
        if (S > 1u && (!d_work || work_bytes < need))
            return sl_err_set(err, "%s: the row kernel needs %llu bytes of workspace, has %llu", v->name,
                              (unsigned long long)need, (unsigned long long)work_bytes);
        rs_rows_kernel<X, false><<<sl_rows_grid(rows * S, 1u), SL_ROWS_BLOCK, 0, st>>>(
            (const X *)d_x, rows, n, S, (unsigned char *)d_work, (X *)d_out, nullptr);
        SL_CUDA_CHECK_LAUNCH("rs_rows_kernel", v->name, err);
    }
    return 0;
}

extern "C" int sl_reproducible_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows,
                                        uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                                        size_t work_bytes, void *d_results, void *stream, sl_err *err)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (n >= SL_RSUM_MAX_N) return sl_err_set(err, "%s: n = %llu is too large", v->name, (unsigned long long)n);
    if (rows == 0) return 0;
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    return dt == SL_F64    ? rs_rows_launch<double>(v, d_x, rows, n, cfg, d_work, work_bytes, d_results, st, err)
           : dt == SL_F16  ? rs_rows_launch<__half>(v, d_x, rows, n, cfg, d_work, work_bytes, d_results, st, err)
           : dt == SL_BF16 ? rs_rows_launch<__nv_bfloat16>(v, d_x, rows, n, cfg, d_work, work_bytes, d_results, st, err)
                           : rs_rows_launch<float>(v, d_x, rows, n, cfg, d_work, work_bytes, d_results, st, err);
}

/* ---- superacc: the exponent bins of superacc_f32.cu, one block or S blocks per row ----------
 * float32, float16 and bfloat16 (widened to float32, exactly): every value of a row goes,
 * converted exactly to double, into one of its thread's 16 shared double bins chosen by its
 * biased float32 exponent E >> 4 (bin j: integer multiples of 2^(max(16j,1) - 150), exact for
 * 2^14 values); the block drains the bins into its integer limbs (exact/limbs.h) every
 * SA_FLUSH values per thread and at the row's end (sa_drain). S = 1: thread 0 rounds the
 * block's limbs once (sl_sacc_round_f32_regs: to nearest even for float32; to odd in float32
 * and then to nearest even in the 16-bit format). S > 1 (long rows, or few rows against the
 * SMs: sl_rows_split): block part p of the row takes the row's tiles p, p + S, ...; its normalised
 * limbs go into the row's limbs in the workspace by integer atomics, and the last of the S
 * blocks (a per-row ticket) rounds them and leaves the row's workspace zero. Every step is
 * exact up to the one rounding, so row i's bits are its exact sum rounded once: a function of
 * row i alone, whatever B, S, the grid, the alignment or the GPU; the twin is the superacc twin
 * on the row (superacc.c). float64 rows take the certified binned pass and the exact kernel over
 * superacc64.cuh's expansion (sa_rows_launch_f64, below) or the 1-D launcher on each row.
 * When the rows fill the GPU (S = 1, fewer than 2^32 rows) the certified pass below decides
 * most rows at the read rate, and this kernel (LIST = true) sums only the rows it lists. */
#define SA_BLOCK 256u
#define SA_NBIN 16
#define SA_FLUSH 8192u   /* values per thread between drains (a bin's capacity: 2^14) */
#define SA_U 4           /* 16-byte vectors per thread per tile */
#define SA_ROW_WS SL_ROWS_SACC_WS
static_assert(SL_ROWS_SACC_WS == 16u + 8u * SL_SACC_LIMBS_F32, "rows.h: a row's superacc workspace");

/* One value into its thread's bin (my = &s_bin[tid], bins SA_BLOCK apart); sg: the AND of the
 * values' float32 bit patterns (its sign bit: every value negative): exact/bins.cuh's
 * sacc_bin_take for blocks of SA_BLOCK threads. */
template <typename X>
__device__ __forceinline__ void sa_take(X h, double *my, unsigned &sg)
{
    sacc_bin_take(h, my, SA_BLOCK, sg);
}

/* Block-collective: every thread's bins into the block limbs, the bins zeroed; returns the
 * thread's flags (a non-finite bin). exact/bins.cuh's sacc_bins_drain for blocks of SA_BLOCK
 * threads by a shared-memory tree (the same bins and units: sacc_bin_units). */
static __device__ __noinline__ unsigned sa_drain(double *s_bin, unsigned long long *s_acc)
{
    const unsigned tid = threadIdx.x;
    long long *ib = reinterpret_cast<long long *>(s_bin);
    unsigned flags = 0;
    for (int j = 0; j < SA_NBIN; j++) {
        ib[j * SA_BLOCK + tid] = sacc_bin_units(s_bin[j * SA_BLOCK + tid], j, &flags);
    }
    for (unsigned half = SA_BLOCK / 2u; half > 0; half >>= 1) {
        sacc_barrier();
        if (tid < half)
            for (int j = 0; j < SA_NBIN; j++) ib[j * SA_BLOCK + tid] += ib[j * SA_BLOCK + tid + half];
    }
    sacc_barrier();
    const long long total = tid < SA_NBIN ? ib[tid * SA_BLOCK] : 0;
    sacc_barrier();                                 /* column 0 read before it is zeroed */
    for (int j = 0; j < SA_NBIN; j++) s_bin[j * SA_BLOCK + tid] = 0.0;
    if (tid < SA_NBIN) sacc_spill_i64(total, tid ? 16 * (int)tid - 1 : 0, s_acc);
    return flags;
}

/* Work unit w = r S + p: part p of row r. Barriers: every sacc_barrier is reached by all the
 * block's threads (the trip counts depend on blockIdx, gridDim, rows, n, S and the row's
 * alignment only). LIST: the rows are the certified pass's list (S = 1; rows, the list's length,
 * read from the workspace, SAC_WS_HEADER's layout): block b sums the listed rows b, b + G, ...
 * and zeroes their entries; the P = min(length, G) blocks that had one take a ticket after
 * (each read the length first), and the last adds the length to the count of rows summed here
 * and empties the list. */
template <typename X, bool LIST>
__global__ void __launch_bounds__(SA_BLOCK)
sa_rows_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, unsigned S, unsigned char *work,
               X *out)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W, L = SL_SACC_LIMBS_F32 };
    __shared__ double s_bin[SA_NBIN * SA_BLOCK];
    __shared__ unsigned long long s_acc[L];
    __shared__ unsigned s_flags;
    __shared__ unsigned s_cnt;
    const unsigned tid = threadIdx.x;
    unsigned *l_count = reinterpret_cast<unsigned *>(work);
    unsigned *l_list = reinterpret_cast<unsigned *>(work + SAC_WS_HEADER);
    if (LIST) {
        rows = sac_list_length(l_count, &s_cnt);
        S = 1u;
        if (blockIdx.x >= rows) return;              /* no listed row: no ticket (uniform) */
    }
    double *my = s_bin + tid;
    for (int j = 0; j < SA_NBIN; j++) my[j * SA_BLOCK] = 0.0;
    const uint64_t per_tile = (uint64_t)SA_BLOCK * SA_U;           /* vectors */
    uint64_t every = SACC_BLOCK_ELEMS_PER_NORM / (per_tile * W);
    if (every == 0) every = 1;
    const unsigned flush_every = SA_FLUSH / (SA_U * W);
    for (uint64_t w = blockIdx.x; w < rows * S; w += gridDim.x) {
        const uint64_t r = LIST ? (uint64_t)__ldcg(&l_list[w]) : w / S;
        const unsigned part = LIST ? 0u : (unsigned)(w - r * S);
        const X *row = x + r * n;
        sacc_block_init(s_acc, L, &s_flags);
        sacc_barrier();
        unsigned flags = 0u, sg = 0xffffffffu;
        uint64_t head = ((16u - ((uintptr_t)row & 15u)) & 15u) / sizeof(X);
        if (head > n) head = n;
        const uint64_t nv = (n - head) / W, tail0 = head + nv * W;
        if (part == 0) {                             /* the edges, one by one */
            for (uint64_t i = tid; i < head; i += SA_BLOCK) sa_take(row[i], my, sg);
            for (uint64_t i = tail0 + tid; i < n; i += SA_BLOCK) sa_take(row[i], my, sg);
        }
        const V *xv = reinterpret_cast<const V *>(row + head);
        const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
        uint64_t since = 0;
        unsigned since_flush = 0;
        for (uint64_t tile = part; tile < ntiles; tile += S) {
            const uint64_t base = tile * per_tile + tid;
            if ((tile + 1) * per_tile <= nv) {
                V v[SA_U];
#pragma unroll
                for (int u = 0; u < SA_U; u++) v[u] = sacc_ld(xv + base + (uint64_t)u * SA_BLOCK);
#pragma unroll
                for (int u = 0; u < SA_U; u++)
#pragma unroll
                    for (int k = 0; k < W; k++) sa_take(sl_vec_lane(v[u], k), my, sg);
            } else {
                for (int u = 0; u < SA_U; u++)
                    if (base + (uint64_t)u * SA_BLOCK < nv) {
                        const V v = sacc_ld(xv + base + (uint64_t)u * SA_BLOCK);
                        for (int k = 0; k < W; k++) sa_take(sl_vec_lane(v, k), my, sg);
                    }
            }
            if (++since_flush == flush_every) {      /* <= SA_FLUSH + edges values per bin */
                since_flush = 0;
                flags |= sa_drain(s_bin, s_acc);
            }
            if (++since == every) {                  /* uniform across the block */
                since = 0;
                sacc_barrier();
                if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), L);
                sacc_barrier();
            }
        }
        flags |= sa_drain(s_bin, s_acc);
        if (!(sg >> 31)) flags |= SL_SACC_ANYPOS;
        if (flags) atomicOr(&s_flags, flags);
        sacc_barrier();
        if (tid == 0) {
            int64_t l[L];
#pragma unroll
            for (int i = 0; i < L; i++) l[i] = (int64_t)s_acc[i];
            if (S == 1) {
                out[r] = sl_out<X>((float)sl_sacc_round_f32_regs(l, s_flags, sizeof(X) == 2));
                if (LIST) l_list[w] = 0u;            /* every thread read it before the barriers */
            } else {
                unsigned *g = reinterpret_cast<unsigned *>(work + r * SA_ROW_WS);
                unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + r * SA_ROW_WS + 16u);
                /* normalised limbs < 2^32 (top limb signed): S <= 1024 parts cannot overflow */
                sl_sacc_normalise(l, L);
#pragma unroll
                for (int i = 0; i < L; i++)
                    if (l[i]) atomicAdd(&g_acc[i], (unsigned long long)l[i]);
                if (s_flags) atomicOr(g + 1, s_flags);
                sl_ticket_fence();                  /* the limbs before the ticket */
                if (atomicAdd(g, 1u) == S - 1u) {    /* the row's last part rounds */
                    sl_ticket_fence();
                    int64_t m[L];
#pragma unroll
                    for (int i = 0; i < L; i++) m[i] = (int64_t)atomicExch(&g_acc[i], 0ull);
                    const unsigned fl = atomicExch(g + 1, 0u);
                    out[r] = sl_out<X>((float)sl_sacc_round_f32_regs(m, fl, sizeof(X) == 2));
                    atomicExch(g, 0u);
                }
            }
        }
        sacc_barrier();                              /* s_acc and s_flags reused */
    }
    if (LIST && tid == 0) sac_list_done(l_count, (unsigned)rows);
}

/* ---- superacc rows, the certified pass (rows/rows_cert.h) -----------------------------------
 * When the rows fill the GPU (sl_rows_split gives S = 1; fewer than 2^32 rows): sac_rows_kernel
 * sums each row's values, widened exactly to float64, into s and their magnitudes into a, with
 * T threads a row: a warp for n <= SAC_WARP_ROW_MAX (SA_BLOCK / 32 rows a block, no barrier: the
 * per-row cost of a block's reduction would weigh on short rows), a block of SA_BLOCK above.
 * Each thread takes at most one edge value, then its 16-byte vectors t, t + T, ... with SAC_U
 * loads in flight (reduce/walk.cuh), each value widened by reduce/vec.cuh's sl_widen_lane_f64
 * (float32 from the bits by integer operations, the 16-bit formats alternately by the bits and
 * by the conversions); warp shuffles, then (a block a row) warp 0 over the warps' sums; lane 0 tests the box
 * (sl_rcs_decide, h = sl_rcs_chain(nv, T, W)): decided, the row's result, the correctly rounded
 * sum; else the row goes into the workspace's list, which sa_rows_kernel<X, true> sums exactly
 * behind it (a block a listed row) and empties. Either way a row's bits are its exact sum
 * rounded once: a function of the row alone. */
#define SAC_WARP_ROW_MAX SL_ROWS_SACC_WARP_ROW_MAX
static_assert(SA_BLOCK == SL_ROWS_SACC_BLOCK, "rows.h: the certified pass's block");
#define SAC_U 4

__device__ __forceinline__ void sac_take(double &s, double &a, double v)
{
    s = s + v;
    a = a + fabs(v);
}

/* Thread t of the row's T threads: its values' sums (s, a); returns the row's vector count nv.
 * Its edge value (at most one: fewer than 2W <= T), then its vectors, SAC_U loads in flight. */
template <typename X, unsigned T>
__device__ __forceinline__ uint64_t sac_row_sums(const X *row, uint64_t n, unsigned t, double &s, double &a)
{
    const sl_split sp = sl_row_split(row, n);
    s = 0.0;
    a = 0.0;
    sl_walk_values<SAC_U, SL_EDGES_ONE_FIRST>(row, sp, t, T,
                                              [&](X v, int k) { sac_take(s, a, sl_widen_lane_f64(v, k)); });
    return sp.nv;
}

/* Lanes [0, 2 off) of the warp: lane l's sums plus lane l + off's, off = off, off / 2, .., 1. */
__device__ __forceinline__ void sac_shfl(double &s, double &a, unsigned first)
{
#pragma unroll
    for (unsigned off = first; off > 0; off >>= 1) {
        s = s + __shfl_down_sync(SL_FULL_MASK, s, off);
        a = a + __shfl_down_sync(SL_FULL_MASK, a, off);
    }
}

/* The row's decision (lane 0): its result, or its index into the list. */
template <typename X>
__device__ __forceinline__ void sac_finish(double s, double a, uint64_t h, sl_dtype dt, uint64_t r,
                                           unsigned char *work, X *out)
{
    double c;
    if (sl_rcs_decide(s, a, h, dt, &c)) {
        out[r] = sl_out<X>((float)c);                /* c is a value of X: exact */
    } else {
        unsigned *count = reinterpret_cast<unsigned *>(work);
        reinterpret_cast<unsigned *>(work + SAC_WS_HEADER)[atomicAdd(count, 1u)] = (unsigned)r;
    }
}

/* T = 32: row r = (block, warp) in a grid stride of SA_BLOCK / 32 rows a block; T = SA_BLOCK:
 * a block a row (grid stride), the warps' sums through shared memory (two sets by the row's
 * parity: one barrier a row; warp 0 reads set p before the next row's barrier, and set p is
 * written again only after it). */
template <typename X, unsigned T>
__global__ void __launch_bounds__(SA_BLOCK)
sac_rows_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, sl_dtype dt, unsigned char *work,
                X *out)
{
    enum { W = sl_vec<X>::W, WARPS = SA_BLOCK / 32u };
    __shared__ double s_s[2][WARPS], s_a[2][WARPS];
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    if (SUMLAB_ROWS_SACC_PDL) asm volatile("griddepcontrol.launch_dependents;");
    if (T == 32u) {
        for (uint64_t r = (uint64_t)blockIdx.x * WARPS + warp; r < rows; r += (uint64_t)gridDim.x * WARPS) {
            double s, a;
            const uint64_t nv = sac_row_sums<X, T>(x + r * n, n, lane, s, a);
            sac_shfl(s, a, 16u);
            if (lane == 0) sac_finish<X>(s, a, sl_rcs_chain(nv, T, W), dt, r, work, out);
        }
    } else {
        unsigned p = 0;
        for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x, p ^= 1u) {
            double s, a;
            const uint64_t nv = sac_row_sums<X, T>(x + r * n, n, tid, s, a);
            sac_shfl(s, a, 16u);
            if (lane == 0) {
                s_s[p][warp] = s;
                s_a[p][warp] = a;
            }
            __syncthreads();
            if (warp == 0) {
                s = lane < WARPS ? s_s[p][lane] : 0.0;
                a = lane < WARPS ? s_a[p][lane] : 0.0;
                sac_shfl(s, a, WARPS / 2u);
                if (lane == 0) sac_finish<X>(s, a, sl_rcs_chain(nv, T, W), dt, r, work, out);
            }
        }
    }
}

/* S > 1 (or 2^32 rows and more): the split kernel on every row (S = 1 there: a block a row).
 * Else (sl_rows_sacc_certified) the certified pass, then the exact kernel on its list (a block
 * per listed row, at most 4 blocks per SM: the list is short or empty on most data, and an empty
 * one costs each block a load). */
template <typename X>
static int sa_rows_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, sl_dtype dt,
                          const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_out,
                          cudaStream_t st, sl_err *err)
{
    const uint32_t sms = cfg && cfg->sm_count ? cfg->sm_count : SL_DEFAULT_SM_COUNT;
    if (!d_work || work_bytes < rows * (uint64_t)SA_ROW_WS)
        return sl_err_set(err, "%s: the row kernels need %llu bytes of workspace, have %llu", v->name,
                          (unsigned long long)(rows * (uint64_t)SA_ROW_WS), (unsigned long long)work_bytes);
    unsigned char *work = (unsigned char *)d_work;
    if (!sl_rows_sacc_certified(rows, n, sms)) {
        const unsigned S = sl_rows_split(rows, n, sms, SL_ROWS_SACC_SPLIT_MAX);
        sa_rows_kernel<X, false><<<sl_rows_grid(rows * S, 1u), SA_BLOCK, 0, st>>>((const X *)d_x, rows, n, S, work,
                                                                          (X *)d_out);
        SL_CUDA_CHECK_LAUNCH("sa_rows_kernel", v->name, err);
        return 0;
    }
    if (n <= SAC_WARP_ROW_MAX) {
        const uint64_t per = SA_BLOCK / 32u;
        sac_rows_kernel<X, 32u><<<sl_rows_grid(rows, per), SA_BLOCK, 0, st>>>(
            (const X *)d_x, rows, n, dt, work, (X *)d_out);
    } else {
        sac_rows_kernel<X, SA_BLOCK><<<sl_rows_grid(rows, 1u), SA_BLOCK, 0, st>>>((const X *)d_x, rows, n, dt,
                                                                           work, (X *)d_out);
    }
    SL_CUDA_CHECK_LAUNCH("sac_rows_kernel", v->name, err);
    const uint64_t gx = rows < 4u * (uint64_t)sms ? rows : 4u * (uint64_t)sms;
    if (SUMLAB_ROWS_SACC_PDL) {
        const cudaError_t e = sl_launch_dependent(sa_rows_kernel<X, true>, dim3((unsigned)gx), dim3(SA_BLOCK),
                                                  st, (const X *)d_x, (uint64_t)0, n, 1u, work, (X *)d_out);
        if (e != cudaSuccess)
            return sl_listed_launch_failed(e, "sa_rows_kernel (listed rows)", v->name, work, st, err,
                                           __FILE__, __LINE__);
    } else {
        sa_rows_kernel<X, true><<<(unsigned)gx, SA_BLOCK, 0, st>>>((const X *)d_x, 0, n, 1u, work, (X *)d_out);
    }
    SL_CUDA_CHECK_LAUNCH_LISTED("sa_rows_kernel (listed rows)", v->name, err, work, st);
    return 0;
}

/* ---- float64 rows: the exact sums of the rows superacc's certified row pass lists -------------
 * (rs_rows_kernel<double, true>, above.) The list in work (SAC_WS_HEADER's layout): [0, 4) its
 * length, [4, 8) this kernel's ticket, [8, 12) the count of rows summed here (never reset), the
 * rows' indices from byte 16. Block b sums the listed rows
 * b, b + G, .. (a block a row: sacc_block_sum over the whole row, then thread 0 rounds its limbs
 * once) and zeroes their entries; the P = min(length, G) blocks that had a row take a ticket
 * after (each read the length first), and the last adds the length to the count and empties the
 * list. Launched as a programmatic dependent launch of the certified pass (SUMLAB_ROWS_SACC_PDL),
 * it waits for the pass (griddepcontrol.wait) before reading the list; superacc64.cuh's
 * expansion, here in a whole-program module (compute-sanitizer's racecheck and synccheck do not
 * take superacc64.cu's, which uses the device runtime). */
#define SACC_ROWS_BLOCK 256u
__global__ void __launch_bounds__(SACC_ROWS_BLOCK)
sacc_rows_listed_kernel(const double *__restrict__ x, uint64_t n, unsigned char *work, double *out)
{
    typedef sacc_fmt<double> F;
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags, s_cnt;
    unsigned *l_count = reinterpret_cast<unsigned *>(work);
    unsigned *l_list = reinterpret_cast<unsigned *>(work + SAC_WS_HEADER);
    const unsigned tid = threadIdx.x;
    const unsigned rows = sac_list_length(l_count, &s_cnt);
    if (blockIdx.x >= rows) return;                  /* no listed row: no ticket (uniform) */
    for (unsigned w = blockIdx.x; w < rows; w += gridDim.x) {
        const uint64_t r = __ldcg(&l_list[w]);
        const double *row = x + r * n;
        for (unsigned i = tid; i < (unsigned)F::L; i += SACC_ROWS_BLOCK) s_acc[i] = 0;
        if (tid == 0) s_flags = 0;
        sacc_barrier();
        sacc_block_sum(row, n, sl_row_split(row, n).head, 0, 1, tid, SACC_ROWS_BLOCK, s_acc, &s_flags);
        if (tid == 0) {
            out[r] = sacc_round_dev(s_acc, F::L, SL_F64, s_flags);
            l_list[w] = 0u;                          /* every thread read it before the barriers */
        }
        sacc_barrier();                              /* s_acc and s_flags reused */
    }
    if (tid == 0) sac_list_done(l_count, rows);
}

/* float64: when the rows fill the GPU (sl_rows_sacc_certified), the certified pass (a warp or a
 * block a row by n, as `reproducible`'s rows: rs_rows_warp_kernel / rs_rows_kernel with 4 folds),
 * then sacc_rows_listed_kernel on the rows it lists (a block per listed row, at most 4 blocks per
 * SM), as a programmatic dependent launch; else the 1-D launcher on each row, resolved at its
 * address, on the workspace after the list's SL_ROWS_SACC_F64_LIST bytes (rows.h). */
static int sa_rows_launch_f64(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                              const sl_launch *cfg, void *d_work, size_t work_bytes, void *d_out,
                              cudaStream_t st, sl_err *err)
{
    const uint32_t sms = cfg && cfg->sm_count ? cfg->sm_count : SL_DEFAULT_SM_COUNT;
    const uint64_t lb = SL_ROWS_SACC_F64_LIST(rows);
    if (!d_work || work_bytes < lb)
        return sl_err_set(err, "%s: the row kernels need %llu bytes of workspace, have %llu", v->name,
                          (unsigned long long)lb, (unsigned long long)work_bytes);
    unsigned char *work = (unsigned char *)d_work;
    if (!sl_rows_sacc_certified(rows, n, sms))
        return sl_rows_each_1d(v, d_x, rows, n, SL_F64, cfg, work + lb, work_bytes - lb, d_out, st, err);
    if (sl_check_aligned(v, d_x, SL_F64, err)) return -1;
    if (n <= RS_WARP_ROW_MAX) {
        rs_rows_warp_kernel<double, true><<<sl_rows_grid(rows, ROWS_WARPS), SL_ROWS_BLOCK, 0, st>>>(
            (const double *)d_x, rows, n, (double *)d_out, work);
    } else {
        rs_rows_kernel<double, true><<<sl_rows_grid(rows, 1u), SL_ROWS_BLOCK, 0, st>>>(
            (const double *)d_x, rows, n, 1u, nullptr, (double *)d_out, work);
    }
    SL_CUDA_CHECK_LAUNCH("rs_rows_kernel<double, certified>", v->name, err);
    const uint64_t gx = rows < 4u * (uint64_t)sms ? rows : 4u * (uint64_t)sms;
    if (SUMLAB_ROWS_SACC_PDL) {
        const cudaError_t e = sl_launch_dependent(sacc_rows_listed_kernel, dim3((unsigned)gx), dim3(SACC_ROWS_BLOCK),
                                                  st, (const double *)d_x, n, work, (double *)d_out);
        if (e != cudaSuccess)
            return sl_listed_launch_failed(e, "sacc_rows_listed_kernel", v->name, work, st, err, __FILE__,
                                           __LINE__);
    } else {
        sacc_rows_listed_kernel<<<(unsigned)gx, SACC_ROWS_BLOCK, 0, st>>>((const double *)d_x, n, work,
                                                                        (double *)d_out);
    }
    SL_CUDA_CHECK_LAUNCH_LISTED("sacc_rows_listed_kernel", v->name, err, work, st);
    return 0;
}

extern "C" int sl_superacc_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n,
                                    sl_dtype dt, const sl_launch *cfg, void *d_work, size_t work_bytes,
                                    void *d_results, void *stream, sl_err *err)
{
    cudaStream_t st = (cudaStream_t)stream;
    const size_t es = sl_dtype_size(dt);
    if (n >= SL_SACC_MAX_N) return sl_err_set(err, "%s: n = %llu is too large", v->name, (unsigned long long)n);
    if (rows == 0) return 0;
    if (dt == SL_F64) return sa_rows_launch_f64(v, d_x, rows, n, cfg, d_work, work_bytes, d_results, st, err);
    if (n == 0) {                                    /* the empty sum is +0 */
        SL_CUDA_CHECK(cudaMemsetAsync(d_results, 0, rows * es, st), v->name, err);
        return 0;
    }
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    return dt == SL_F16    ? sa_rows_launch<__half>(v, d_x, rows, n, dt, cfg, d_work, work_bytes, d_results, st, err)
           : dt == SL_BF16 ? sa_rows_launch<__nv_bfloat16>(v, d_x, rows, n, dt, cfg, d_work, work_bytes, d_results, st, err)
                           : sa_rows_launch<float>(v, d_x, rows, n, dt, cfg, d_work, work_bytes, d_results, st, err);
}

/* ---- lse reproducible: a block or a warp per row -------------------------------------------
 * lse.c's reproducible twin's value for the row, which depends on the row's multiset of values
 * alone (not B, not the alignment, not the launch). The terms and the result are the 1-D
 * variant's: for float32 and 16-bit rows whose maximum Mn (NaN if any value is) falls in lse.h's
 * one-pass window, the unshifted float32 terms sl_lse_rep1_termx(x) summed exactly (each lane's
 * exponent bins, exact/bins.cuh, drained into the row's limbs) and log(S), S the exact sum
 * rounded once to float64; otherwise exp(x - M) with M the exact maximum, NaN ignored
 * (sl_lse_rep_term_f/_d: lse_math.h's exp in float32 for float32 and 16-bit rows, float64 for
 * float64) and M + log(S), S the terms' binned float64 sum (exact/binned.h) rounded once; the
 * result rounded to the input format.
 * Float32 and 16-bit rows: one read takes the row's maxima (M and Mn) and the one-pass terms
 * together; only a row whose Mn falls outside the window is read again for the shifted terms.
 * Float64 rows: a read for M, a read for the terms. Each read: thread t of the row's T threads
 * takes its steps of SL_RSUM_GROUP values (the 16-byte vectors t, t + T, ...: reduce/walk.cuh;
 * one capacity check a step), then its leftover vectors and edge values one by one
 * (lse_row_walk). A row of at
 * most LSE_ROWS_WARP_N float32/16-bit values takes a warp (lse_rows_warp_kernel: no barrier),
 * a longer or float64 row a block (lse_rows_kernel: the maxima and the states merged through
 * shared memory). The exact sum and the binned sum are functions of the terms' multiset, so both
 * kernels give the twin's bits whatever the split of the values between threads. */
template <typename X> struct lse_row_acc { typedef float T; };
template <> struct lse_row_acc<double> { typedef double T; };
/* 1 for float32 and 16-bit rows (the one-pass form exists) */
template <typename X> struct lse_row_one { enum { v = 1 }; };
template <> struct lse_row_one<double> { enum { v = 0 }; };
__device__ __forceinline__ double lse_row_term(float x, float M) { return sl_lse_rep_term_f(x, M); }
__device__ __forceinline__ double lse_row_term(double x, double M) { return sl_lse_rep_term_d(x, M); }
__device__ __forceinline__ float lse_row_maxnan(float a, float b) { return sl_lse_maxnan_f(a, b); }
__device__ __forceinline__ double lse_row_maxnan(double a, double b) { return sl_lse_maxnan_d(a, b); }
__device__ __forceinline__ float lse_row_out(double r, float *) { return __double2float_rn(r); }
__device__ __forceinline__ double lse_row_out(double r, double *) { return r; }
__device__ __forceinline__ __half lse_row_out(double r, __half *) { return __float2half_rn(__double2float_rn(r)); }
__device__ __forceinline__ __nv_bfloat16 lse_row_out(double r, __nv_bfloat16 *)
{
    return __float2bfloat16_rn(__double2float_rn(r));
}

/* Float32 and 16-bit rows of at most LSE_ROWS_WARP_N values: a warp per row. */
#define LSE_ROWS_WARP_N 8192u

/* One walk of the row by lane `lane` of `lanes` (reduce/walk.cuh: steps of UV vectors, lane,
 * lane + lanes, ...: SL_RSUM_GROUP values, then the leftover vectors and the edge values one by
 * one): every value widened to T (lse_row_acc) through f, whose result goes into the binned
 * accumulator a (a step's values through the group path: one capacity check). */
template <typename X, typename F>
__device__ __forceinline__ void lse_row_walk(const X *__restrict__ row, uint64_t n, unsigned lane,
                                             unsigned lanes, sl_rsum_thr_f64 &a, F f)
{
    typedef typename lse_row_acc<X>::T T;
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W, G = SL_RSUM_GROUP, UV = G / W };
    sl_walk<UV, SL_EDGES_LAST>(
        row, sl_row_split(row, n), lane, lanes,
        [&](const V *v) {
            double t[G];
#pragma unroll
            for (int u = 0; u < UV; u++)
#pragma unroll
                for (int k = 0; k < W; k++) t[u * W + k] = f((T)sl_widen(sl_vec_lane(v[u], k)));
            sl_rsum_take_group_f64(&a, t);
        },
        [&](const V &v) {
#pragma unroll
            for (int k = 0; k < W; k++) sl_rsum_take1_f64(&a, f((T)sl_widen(sl_vec_lane(v, k))));
        },
        [&](X e) { sl_rsum_take1_f64(&a, f((T)sl_widen(e))); });
}

/* Read 1 of a float32/16-bit row by lane `lane` of `lanes` (a warp, or the block's threads): m
 * (NaN ignored) and mn (NaN if any value is) of the values, their one-pass terms into the lane's
 * exponent bins my (stride B) or, 16-bit vectors of values in [-16, 16] (float32 ones too under
 * SUMLAB_LSE_REP1_FOLDS_F32), its register folds (lse_fold.cuh), drained (warp-collective) into
 * the limbs s_acc after each segment of lanes * SACC_BIN_FLUSH values, so that a bin or the
 * folds take at most SACC_BIN_FLUSH + 1 terms between drains. Every lane of the warp calls it
 * with the same row: the segment count is uniform. */
template <typename X>
__device__ __forceinline__ void lse_row_exact(const X *__restrict__ row, uint64_t n, unsigned lane,
                                              unsigned lanes, double *my, unsigned B,
                                              unsigned long long *s_acc, float &m, float &mn)
{
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W,
           FOLD = SL_LSE_REP1_FOLDS && sizeof(X) == 2 || SUMLAB_LSE_REP1_FOLDS_F32 && sizeof(X) == 4 };
    const uint64_t seg = (uint64_t)lanes * SACC_BIN_FLUSH;
    unsigned sg = 0xffffffffu;
    double f1 = SL_LSE_REP1_FOLD_C, f2 = 0.0;    /* 16-bit rows' register folds (lse_fold.cuh) */
    for (uint64_t s0 = 0; s0 < n; s0 += seg) {
        const X *p = row + s0;
        const uint64_t len = n - s0 < seg ? n - s0 : seg;
        const auto one = [&](X e) {
            const float v = (float)sl_widen(e);
            m = SL_LSE_MAX(m, v);
            mn = sl_lse_maxnan_f(mn, v);
            sacc_bin_take(sl_lse_rep1_termx(v, sizeof(X) == 2), my, B, sg);
        };
        if constexpr (FOLD) {   /* a vector's terms into the folds or the bins */
            const auto vec = [&](const V &r) {
                float v[W];
#pragma unroll
                for (int k = 0; k < W; k++) {
                    v[k] = (float)sl_widen(sl_vec_lane(r, k));
                    m = SL_LSE_MAX(m, v[k]);
                    mn = sl_lse_maxnan_f(mn, v[k]);
                }
                bool in = true;
#pragma unroll
                for (int k = 0; k < W; k++) in = in && sl_lse_rep1_fold_in(v[k]);
                lse_fold_or_bins<W, sizeof(X) == 2>(v, in, f1, f2, my, B, sg);
            };
            sl_walk<2, SL_EDGES_LAST>(p, sl_row_split(p, len), lane, lanes,
                                      [&](const V *r) { vec(r[0]); vec(r[1]); }, vec, one);
            lse_fold_drain(f1, f2, SL_FULL_MASK, s_acc);
        } else {
            sl_walk_values<2, SL_EDGES_LAST>(p, sl_row_split(p, len), lane, lanes, [&](X e, int) { one(e); });
        }
        (void)sacc_bins_drain(my, B, SL_FULL_MASK, s_acc);
    }
}

/* The row's limbs s_acc (f32's layout) taken, left zero, and rounded once to float64. */
__device__ __forceinline__ double lse_row_exact_sum(unsigned long long *s_acc)
{
    int64_t l[SL_SACC_LIMBS_F32];
#pragma unroll
    for (int i = 0; i < SL_SACC_LIMBS_F32; i++) {
        l[i] = (int64_t)s_acc[i];
        s_acc[i] = 0ull;
    }
    return sl_sacc_round_f32_as_f64_regs(l, SL_SACC_ANYPOS);
}

/* A block per row (grid stride over rows). Barriers: every thread of the block reaches each one
 * (`one` is read by all from shared memory after the maxima's barrier). */
template <typename X>
__global__ void __launch_bounds__(SL_ROWS_BLOCK)
lse_rows_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, X *out)
{
    typedef typename lse_row_acc<X>::T T;
    enum { ONE = lse_row_one<X>::v };
    __shared__ sl_rsum_state s_warp[ROWS_WARPS];
    __shared__ T s_max[ROWS_WARPS], s_maxn[ROWS_WARPS];
    /* float32 and 16-bit rows: each thread's exponent bins and the row's limbs */
    __shared__ double s_bin[ONE ? SACC_NBIN * SL_ROWS_BLOCK : 1];
    __shared__ unsigned long long s_acc[SL_SACC_LIMBS_F32];
    const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    if constexpr (ONE) {
        for (int j = 0; j < SACC_NBIN; j++) s_bin[j * SL_ROWS_BLOCK + tid] = 0.0;
        if (tid < SL_SACC_LIMBS_F32) s_acc[tid] = 0ull;
    }
    for (uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const X *row = x + r * n;
        /* read 1: the maxima (m: NaN ignored; mn: NaN if any value is) and, for float32 and
         * 16-bit rows, the one-pass terms' exact sum */
        T m = -(T)INFINITY, mn = -(T)INFINITY;
        sl_rsum_thr_f64 a;
        sl_rsum_init_f64(&a);
        if constexpr (ONE) {
            sl_bar_any::sync();                      /* s_acc zero: initialised, or left so by the last row */
            lse_row_exact<X>(row, n, tid, SL_ROWS_BLOCK, s_bin + tid, SL_ROWS_BLOCK, s_acc, m, mn);
        } else {
            sl_walk_values<4, SL_EDGES_LAST>(row, sl_row_split(row, n), tid, SL_ROWS_BLOCK,
                                             [&](X v, int) { m = SL_LSE_MAX(m, (T)sl_widen(v)); });
        }
#pragma unroll
        for (unsigned o = 16; o > 0; o >>= 1) {
            const T b = __shfl_xor_sync(SL_FULL_MASK, m, o);
            m = SL_LSE_MAX(m, b);
            if (ONE) mn = lse_row_maxnan(mn, __shfl_xor_sync(SL_FULL_MASK, mn, o));
        }
        if (lane == 0) {
            s_max[warp] = m;
            s_maxn[warp] = mn;
        }
        sl_bar_any::sync();
        T M = s_max[0], Mn = s_maxn[0];
#pragma unroll
        for (unsigned k = 1; k < ROWS_WARPS; k++) {
            M = SL_LSE_MAX(M, s_max[k]);
            if (ONE) Mn = lse_row_maxnan(Mn, s_maxn[k]);
        }
        const int one = ONE && sl_lse_rep1_ok((double)Mn);
        if (one) {   /* every drain's atomics came before the maxima's barrier */
            if (tid == 0) out[r] = lse_row_out(sl_lm_log(lse_row_exact_sum(s_acc)), (X *)0);
            continue;                                /* the next row's first barrier orders s_acc */
        }
        if (ONE && tid == 0) (void)lse_row_exact_sum(s_acc);   /* left zero for the next row */
        /* read 2: the shifted terms against the exact maximum */
        lse_row_walk<X>(row, n, tid, SL_ROWS_BLOCK, a, [&](T v) { return lse_row_term(v, M); });
        sl_rsum_state st;
        sl_rsum_to_state_f64(&a, &st);
        sl_rsum_block_merge<SL_RSUM_K>(st, s_warp);
        if (tid == 0) {
            const double S = sl_rsum_state_round_f64(&st, 0);
            out[r] = lse_row_out(one ? sl_lm_log(S) : sl_lse_rep_final((double)M, S), (X *)0);
        }
        sl_bar_any::sync();                          /* s_max and s_warp reused */
    }
}

/* A warp per row, ROWS_WARPS rows a block (grid stride over the warps). */
template <typename X>
__global__ void __launch_bounds__(SL_ROWS_BLOCK)
lse_rows_warp_kernel(const X *__restrict__ x, uint64_t rows, uint64_t n, X *out)
{
    /* each lane's exponent bins; each warp's limbs */
    __shared__ double s_bin[SACC_NBIN * SL_ROWS_BLOCK];
    __shared__ unsigned long long s_acc[ROWS_WARPS][SL_SACC_LIMBS_F32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (int j = 0; j < SACC_NBIN; j++) s_bin[j * SL_ROWS_BLOCK + threadIdx.x] = 0.0;
    if (lane < SL_SACC_LIMBS_F32) s_acc[warp][lane] = 0ull;
    __syncwarp();
    const uint64_t w0 = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const uint64_t nw = ((uint64_t)gridDim.x * blockDim.x) >> 5;
    for (uint64_t r = w0; r < rows; r += nw) {   /* warp-uniform */
        const X *row = x + r * n;
        float m = -INFINITY, mn = -INFINITY;
        lse_row_exact<X>(row, n, lane, 32u, s_bin + threadIdx.x, SL_ROWS_BLOCK, s_acc[warp], m, mn);
#pragma unroll
        for (unsigned o = 16; o > 0; o >>= 1) {
            const float b = __shfl_xor_sync(SL_FULL_MASK, m, o);
            m = SL_LSE_MAX(m, b);
            mn = sl_lse_maxnan_f(mn, __shfl_xor_sync(SL_FULL_MASK, mn, o));
        }
        __syncwarp();                                /* the drains' atomics before lane 0 reads */
        double S = 0.0;
        if (lane == 0) S = lse_row_exact_sum(s_acc[warp]);   /* left zero for the next row */
        const int one = sl_lse_rep1_ok((double)mn);
        if (!one) {   /* the shifted terms against the exact maximum (NaN ignored) */
            sl_rsum_thr_f64 a;
            sl_rsum_init_f64(&a);
            const float M = m;
            lse_row_walk<X>(row, n, lane, 32u, a, [&](float v) { return sl_lse_rep_term_f(v, M); });
            sl_rsum_state st;
            sl_rsum_to_state_f64(&a, &st);
            sl_rsum_warp_merge<SL_RSUM_K>(st);
            S = sl_rsum_state_round_f64(&st, 0);
        }
        if (lane == 0) out[r] = lse_row_out(one ? sl_lm_log(S) : sl_lse_rep_final((double)m, S), (X *)0);
        __syncwarp();
    }
}

/* 1 when the warp kernel took the rows (float32/16-bit rows up to LSE_ROWS_WARP_N values) */
template <typename X>
static int lse_rows_warp_launch(const X *x, uint64_t rows, uint64_t n, X *out, cudaStream_t st)
{
    if (n > LSE_ROWS_WARP_N) return 0;
    lse_rows_warp_kernel<X><<<sl_rows_grid(rows, ROWS_WARPS), SL_ROWS_BLOCK, 0, st>>>(x, rows, n, out);
    return 1;
}
template <>
int lse_rows_warp_launch<double>(const double *, uint64_t, uint64_t, double *, cudaStream_t)
{
    return 0;
}

template <typename X>
static int lse_rows_launch(const sl_variant *v, const void *d_x, uint64_t rows, uint64_t n, void *d_out,
                           cudaStream_t st, sl_err *err)
{
    if (lse_rows_warp_launch<X>((const X *)d_x, rows, n, (X *)d_out, st)) {
        SL_CUDA_CHECK_LAUNCH("lse_rows_warp_kernel", v->name, err);
        return 0;
    }
    lse_rows_kernel<X><<<sl_rows_grid(rows, 1u), SL_ROWS_BLOCK, 0, st>>>((const X *)d_x, rows, n, (X *)d_out);
    SL_CUDA_CHECK_LAUNCH("lse_rows_kernel", v->name, err);
    return 0;
}

extern "C" int sl_lse_reproducible_rows_gpu(const sl_variant *v, const void *d_x, uint64_t rows,
                                            uint64_t n, sl_dtype dt, const sl_launch *cfg, void *d_work,
                                            size_t work_bytes, void *d_results, void *stream, sl_err *err)
{
    (void)cfg; (void)d_work; (void)work_bytes;
    cudaStream_t st = (cudaStream_t)stream;
    if (n >= SL_RSUM_MAX_N) return sl_err_set(err, "%s: n = %llu is too large", v->name, (unsigned long long)n);
    if (rows == 0) return 0;
    if (sl_check_aligned(v, d_x, dt, err)) return -1;
    return dt == SL_F64    ? lse_rows_launch<double>(v, d_x, rows, n, d_results, st, err)
           : dt == SL_F16  ? lse_rows_launch<__half>(v, d_x, rows, n, d_results, st, err)
           : dt == SL_BF16 ? lse_rows_launch<__nv_bfloat16>(v, d_x, rows, n, d_results, st, err)
                           : lse_rows_launch<float>(v, d_x, rows, n, d_results, st, err);
}

/* ---- the generic path and the host entry ---------------------------------------------------- */
extern "C" int sl_rows_gpu_xy(const sl_variant *v, const void *d_x, const void *d_y, uint64_t y_stride,
                              uint64_t rows, uint64_t n, sl_dtype dt, const sl_launch *req, void *d_work,
                              size_t work_bytes, void *d_results, void *stream, sl_err *err)
{
    if (sl_rows_inputs_check(v, d_y, y_stride, rows, n, err)) return -1;
    sl_rows_entries e;
    sl_rows_entries_of(v, &e);
    sl_launch c = req ? *req : sl_launch{};
    c.addr_mod = (uint32_t)((uintptr_t)d_x & 255u);
    if (v->gpu2) {
        if (!e.gpu2)
            return sl_rows_each_1d_xy(v, d_x, d_y, y_stride, rows, n, dt, req, d_work, work_bytes, d_results,
                                      stream, err);
        sl_variant_resolve(v, &c, n, dt);
        return e.gpu2(v, d_x, d_y, y_stride, rows, n, dt, &c, d_work, work_bytes, d_results, stream, err);
    }
    if (e.gpu) {
        sl_variant_resolve(v, &c, n, dt);
        return e.gpu(v, d_x, rows, n, dt, &c, d_work, work_bytes, d_results, stream, err);
    }
    if (!v->gpu) return sl_err_set(err, "variant '%s' has no GPU kernel", v->name);
    return sl_rows_each_1d(v, d_x, rows, n, dt, req, d_work, work_bytes, d_results, stream, err);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define R_CHECK(call) SL_CUDA_CHECK(call, v->name, err)

/* The body of sl_rows_gpu_host with every resource in *res (freed by the caller). */
typedef struct {
    void *d_x, *d_y, *d_work, *d_out, *h_out;
    cudaStream_t st;
    cudaEvent_t e0, e1;
    int have_st, have_e0, have_e1;
    double *times;
} rows_res;

static void rows_res_free(rows_res *res)
{
    if (res->have_e1) sl_cuda_teardown(cudaEventDestroy(res->e1));
    if (res->have_e0) sl_cuda_teardown(cudaEventDestroy(res->e0));
    if (res->have_st) sl_cuda_teardown(cudaStreamDestroy(res->st));
    sl_cuda_teardown(cudaFree(res->d_out));
    sl_cuda_teardown(cudaFree(res->d_work));
    sl_cuda_teardown(cudaFree(res->d_y));
    sl_cuda_teardown(cudaFree(res->d_x));
    free(res->h_out);
    free(res->times);
}

/* sacc_exact (may be NULL): the workspace's count of rows the superacc exact kernel summed after
 * the certified pass (SAC_WS_HEADER's layout), over every run. */
static int rows_host_body(rows_res *res, const sl_variant *v, const void *x, const void *y, uint64_t y_stride,
                          uint64_t rows, uint64_t n, sl_dtype dt, const sl_launch *req, int reps,
                          double *results, double *time_ms_median, sl_launch *cfg_out, uint64_t *sacc_exact,
                          sl_err *err)
{
    const size_t es = sl_dtype_size(dt);
    const size_t bytes = (size_t)(rows * n) * es;
    int dev = 0, sms = 0;
    R_CHECK(cudaGetDevice(&dev));
    R_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    sl_launch cfg = req ? *req : sl_launch{};
    if (!cfg.sm_count) cfg.sm_count = (uint32_t)sms;
    cfg.addr_mod = 0;                                   /* cudaMalloc: 256-byte aligned */
    /* The upload and the workspace's zeroing go on the kernels' stream, and the host waits for
     * them: a non-blocking stream does not wait for the legacy default stream, so a cudaMemset
     * there (or the tail of a pageable cudaMemcpy's DMA) could still be running when the first
     * launch starts, and the split rows' tickets and limbs would start from a freed buffer's
     * bytes or be zeroed under the running kernel. */
    R_CHECK(cudaStreamCreateWithFlags(&res->st, cudaStreamNonBlocking));
    res->have_st = 1;
    R_CHECK(cudaMalloc(&res->d_x, bytes ? bytes : 16));
    if (bytes) R_CHECK(cudaMemcpyAsync(res->d_x, x, bytes, cudaMemcpyHostToDevice, res->st));
    if (y) {   /* a two-input operation's second array (rows, or one row): 256-byte aligned as x */
        const size_t ybytes = y_stride ? bytes : (size_t)n * es;
        R_CHECK(cudaMalloc(&res->d_y, ybytes ? ybytes : 16));
        if (ybytes) R_CHECK(cudaMemcpyAsync(res->d_y, y, ybytes, cudaMemcpyHostToDevice, res->st));
    }
    const size_t wb = sl_rows_workspace(v, rows, n, dt, &cfg);
    if (wb) {
        R_CHECK(cudaMalloc(&res->d_work, wb));
        R_CHECK(cudaMemsetAsync(res->d_work, 0, wb, res->st));
    }
    R_CHECK(cudaMalloc(&res->d_out, rows ? rows * es : 16));
    R_CHECK(cudaStreamSynchronize(res->st));
    R_CHECK(cudaEventCreate(&res->e0));
    res->have_e0 = 1;
    R_CHECK(cudaEventCreate(&res->e1));
    res->have_e1 = 1;
    res->times = (double *)calloc((size_t)(reps > 0 ? reps : 1), sizeof(double));
    res->h_out = malloc(rows ? rows * es : 16);
    if (!res->times || !res->h_out) return sl_err_set(err, "%s: out of memory", v->name);
    if (sl_rows_gpu_xy(v, res->d_x, res->d_y, y_stride, rows, n, dt, &cfg, res->d_work, wb, res->d_out, res->st,
                       err))
        return -1;
    R_CHECK(cudaStreamSynchronize(res->st));             /* warm-up */
    for (int r = 0; r < reps; r++) {
        R_CHECK(cudaEventRecord(res->e0, res->st));
        if (sl_rows_gpu_xy(v, res->d_x, res->d_y, y_stride, rows, n, dt, &cfg, res->d_work, wb, res->d_out,
                           res->st, err))
            return -1;
        R_CHECK(cudaEventRecord(res->e1, res->st));
        R_CHECK(cudaStreamSynchronize(res->st));
        float ms = 0.0f;
        R_CHECK(cudaEventElapsedTime(&ms, res->e0, res->e1));
        res->times[r] = (double)ms;
    }
    R_CHECK(cudaMemcpy(res->h_out, res->d_out, rows * es, cudaMemcpyDeviceToHost));
    if (sacc_exact) {
        unsigned cnt = 0;
        if (wb >= SAC_WS_HEADER)
            R_CHECK(cudaMemcpy(&cnt, (const char *)res->d_work + 8, sizeof cnt, cudaMemcpyDeviceToHost));
        *sacc_exact = cnt;
    }
    for (uint64_t i = 0; i < rows; i++) {
        if (dt == SL_F64) results[i] = ((const double *)res->h_out)[i];
        else if (dt == SL_F32) results[i] = (double)((const float *)res->h_out)[i];
        else results[i] = sl_half_to_double(((const uint16_t *)res->h_out)[i], dt);
    }
    if (time_ms_median) {
        qsort(res->times, (size_t)reps, sizeof(double), cmp_double);
        *time_ms_median = reps > 0 ? (reps % 2 ? res->times[reps / 2]
                                               : 0.5 * (res->times[reps / 2 - 1] + res->times[reps / 2]))
                                   : NAN;
    }
    if (cfg_out) *cfg_out = cfg;
    return 0;
}

extern "C" int sl_rows_gpu_host_xy(const sl_variant *v, const void *x, const void *y, uint64_t y_stride,
                                   uint64_t rows, uint64_t n, sl_dtype dt, const sl_launch *req, int reps,
                                   double *results, double *time_ms_median, double *read_ms_median,
                                   sl_launch *cfg_out, sl_err *err)
{
    sl_gpu_info info;
    sl_err why = {{0}};
    if (sl_rows_inputs_check(v, y, y_stride, rows, n, err)) return -1;
    if (!sl_gpu_available(&info, &why)) return sl_err_set(err, "%s", why.msg);
    if (sl_gpu_check_fits(rows * n + (y ? (y_stride ? rows * n : n) : 0u), dt, err)) return -1;
    rows_res res;
    memset(&res, 0, sizeof res);
    int rc = rows_host_body(&res, v, x, y, y_stride, rows, n, dt, req, reps, results, time_ms_median, cfg_out,
                            NULL, err);
    rows_res_free(&res);
    if (rc == 0 && read_ms_median) {
        /* the harness's streaming read of the same bytes, in the same process */
        sl_gpu_ctx *ctx = NULL;
        const int R = reps > 0 ? reps : 1;
        double *t = (double *)calloc((size_t)R, sizeof(double));
        if (!t) return sl_err_set(err, "%s: out of memory", v->name);
        rc = sl_gpu_ctx_create(&ctx, x, rows * n, dt, 0, err);
        if (rc == 0 && y && y_stride) rc = sl_gpu_ctx_set_y(ctx, y, err);   /* the ceiling reads both arrays */
        if (rc == 0) rc = sl_gpu_ctx_read_ceiling(ctx, R, 0, t, err);
        if (rc == 0) {
            qsort(t, (size_t)R, sizeof(double), cmp_double);
            *read_ms_median = R % 2 ? t[R / 2] : 0.5 * (t[R / 2 - 1] + t[R / 2]);
        }
        sl_gpu_ctx_destroy(ctx);
        free(t);
    }
    return rc;
}

extern "C" int sl_rows_sacc_gpu_paths(const void *x, uint64_t rows, uint64_t n, sl_dtype dt,
                                      const sl_launch *req, int runs, double *results,
                                      uint64_t *exact_rows, sl_err *err)
{
    const sl_variant *v = sl_variant_find_op("sum", "superacc");
    if (!v) return sl_err_set(err, "superacc: not in the registry");
    sl_gpu_info info;
    sl_err why = {{0}};
    if (!sl_gpu_available(&info, &why)) return sl_err_set(err, "%s", why.msg);
    if (sl_gpu_check_fits(rows * n, dt, err)) return -1;
    rows_res res;
    memset(&res, 0, sizeof res);
    int rc = rows_host_body(&res, v, x, NULL, 0, rows, n, dt, req, runs > 1 ? runs - 1 : 0, results, NULL, NULL,
                            exact_rows, err);
    rows_res_free(&res);
    return rc;
}

/* ---- the anchor: cub::DeviceSegmentedReduce::Sum over the same rows ------------------------ */
/* Segment i = [i n, (i + 1) n): begin offsets 0, n, 2n, ... on the device (end = begin + 1).
 * CUB's accumulator follows its output type (the input's format). */
template <typename X>
static cudaError_t seg_sum(void *work, size_t &bytes, const void *x, void *out, uint64_t rows,
                           const int64_t *offs, cudaStream_t st)
{
    return cub::DeviceSegmentedReduce::Sum(work, bytes, (const X *)x, (X *)out, (int64_t)rows, offs, offs + 1, st);
}

static cudaError_t seg_call(sl_dtype dt, void *work, size_t &bytes, const void *x, void *out, uint64_t rows,
                            const int64_t *offs, cudaStream_t st)
{
    return dt == SL_F64    ? seg_sum<double>(work, bytes, x, out, rows, offs, st)
           : dt == SL_F16  ? seg_sum<__half>(work, bytes, x, out, rows, offs, st)
           : dt == SL_BF16 ? seg_sum<__nv_bfloat16>(work, bytes, x, out, rows, offs, st)
                           : seg_sum<float>(work, bytes, x, out, rows, offs, st);
}

extern "C" int sl_rows_cub_sum_ms(const void *x, uint64_t rows, uint64_t n, sl_dtype dt, int reps,
                                  double *ms_median, sl_err *err)
{
    const char *vn = "cub-segmented";
    const size_t es = sl_dtype_size(dt), bytes_x = (size_t)(rows * n) * es;
    void *d_x = NULL, *d_out = NULL, *d_work = NULL;
    int64_t *d_off = NULL, *h_off = NULL;
    cudaStream_t st = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    double *t = NULL;
    int rc = -1;
    size_t wb = 0;
    cudaError_t ce;
#define SEG_CK(call)                                                                             \
    do {                                                                                         \
        ce = (call);                                                                             \
        if (ce != cudaSuccess) {                                                                 \
            sl_err_set(err, "%s: CUDA call '%s' failed: %s at %s:%d", vn, #call,                 \
                       cudaGetErrorString(ce), __FILE__, __LINE__);                              \
            goto out;                                                                            \
        }                                                                                        \
    } while (0)
    if (reps < 1) reps = 1;
    h_off = (int64_t *)malloc((size_t)(rows + 1) * sizeof(int64_t));
    t = (double *)calloc((size_t)reps, sizeof(double));
    if (!h_off || !t) {
        sl_err_set(err, "%s: out of memory", vn);
        goto out;
    }
    for (uint64_t i = 0; i <= rows; i++) h_off[i] = (int64_t)(i * n);
    SEG_CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    SEG_CK(cudaEventCreate(&e0));
    SEG_CK(cudaEventCreate(&e1));
    SEG_CK(cudaMalloc(&d_x, bytes_x ? bytes_x : 16));
    /* on st, waited for: st does not wait for the legacy default stream (rows_host_body) */
    if (bytes_x) SEG_CK(cudaMemcpyAsync(d_x, x, bytes_x, cudaMemcpyHostToDevice, st));
    SEG_CK(cudaMalloc(&d_out, rows ? rows * es : 16));
    SEG_CK(cudaMalloc(&d_off, (size_t)(rows + 1) * sizeof(int64_t)));
    SEG_CK(cudaMemcpyAsync(d_off, h_off, (size_t)(rows + 1) * sizeof(int64_t), cudaMemcpyHostToDevice, st));
    SEG_CK(cudaStreamSynchronize(st));
    SEG_CK(seg_call(dt, NULL, wb, d_x, d_out, rows, d_off, st));
    SEG_CK(cudaMalloc(&d_work, wb ? wb : 16));
    SEG_CK(seg_call(dt, d_work, wb, d_x, d_out, rows, d_off, st));   /* warm-up */
    SEG_CK(cudaStreamSynchronize(st));
    for (int r = 0; r < reps; r++) {
        SEG_CK(cudaEventRecord(e0, st));
        SEG_CK(seg_call(dt, d_work, wb, d_x, d_out, rows, d_off, st));
        SEG_CK(cudaEventRecord(e1, st));
        SEG_CK(cudaStreamSynchronize(st));
        float ms = 0.0f;
        SEG_CK(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = (double)ms;
    }
    qsort(t, (size_t)reps, sizeof(double), cmp_double);
    *ms_median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    rc = 0;
out:
#undef SEG_CK
    if (e1) sl_cuda_teardown(cudaEventDestroy(e1));
    if (e0) sl_cuda_teardown(cudaEventDestroy(e0));
    if (st) sl_cuda_teardown(cudaStreamDestroy(st));
    sl_cuda_teardown(cudaFree(d_work));
    sl_cuda_teardown(cudaFree(d_off));
    sl_cuda_teardown(cudaFree(d_out));
    sl_cuda_teardown(cudaFree(d_x));
    free(h_off);
    free(t);
    return rc;
}

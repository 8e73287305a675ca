/* superacc64.cu: `superacc` on float64 (step 1b of the algorithm at the top of superacc.cu): the
 * certified binned sum (rs_kernel<double, sacc_cert>, exact/binned_kernel.cuh) and, only when its
 * certificate cannot decide the rounding, the exact kernel (sacc_kernel: a TwoSum expansion per
 * thread, the block superaccumulator, one rounding), tail-launched from the device by the
 * binned kernel's last block. Device-side launches need relocatable device code and the device
 * runtime: this file is the library sumlab_superacc64 (kernels/CMakeLists.txt), compiled with
 * -rdc and device-linked on its own; the other kernels stay whole-program compiled (under -rdc,
 * ptxas gave the 512-thread float32/16-bit bins kernels 36 bytes of spills they do not have
 * otherwise). Twin: superacc.c. */
#include <stdio.h>
#include "superacc/superacc.cuh"
#include "exact/binned_kernel.cuh"

/* Inputs the expansion takes: float64 below 2^950 (n < 2^40 of them stay below 2^990: no add
 * can overflow). */
__device__ __forceinline__ bool sacc_ordinary(double d) { return fabs(d) < 0x1p950; }
__device__ __forceinline__ unsigned sacc_hiword(double d) { return (unsigned)__double2hiint(d); }

/* The rare path: NaN/Inf return flags; a huge finite float64 goes straight to the limbs. */
SL_NOINLINE unsigned sacc_rare(double v, int scale, unsigned long long *s_acc)
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

/* x: n float64 elements; head as above. Any grid and block (block <= 1024). Barriers: every
 * barrier is reached by all threads of the block (sacc_block_sum's; the ticket's `return` reads
 * shared memory after a barrier: block-uniform, and no thread exits before the last barrier).
 * Every barrier is sacc_barrier (non-.aligned), the ticket's included
 * (sl_ticket_last<sl_bar_any, ...>). */
template <int MAXB>
__global__ void __launch_bounds__(MAXB)
sacc_kernel(const double *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work,
            double *result)
{
    typedef sacc_fmt<double> F;
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags;
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    /* the certified binned sum ran first (and tail-launched this grid, or, measuring, the host
     * launched it behind): nothing to do unless it could not decide (the flag is read by every
     * block before the last one resets it: the reset follows every ticket) */
    if (*(volatile unsigned *)(g_counter + 2) == 0u) return;
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SACC_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x;

    for (unsigned i = tid; i < (unsigned)F::L; i += B) s_acc[i] = 0;
    if (tid == 0) s_flags = 0;
    sacc_barrier();
    sacc_block_sum(x, n, head, blockIdx.x, gridDim.x, tid, B, s_acc, &s_flags);
    /* normalised limbs < 2^32 (top limb signed): G < 2^31 blocks cannot overflow a limb */
    for (unsigned i = tid; i < (unsigned)F::L; i += B)
        if (s_acc[i]) atomicAdd(&g_acc[i], s_acc[i]);
    if (tid == 0 && s_flags) atomicOr(g_flags, s_flags);
    __threadfence();                                 /* limbs visible before the ticket */
    sacc_barrier();
    /* every thread published and fenced: thread 0 takes the ticket without another fence */
    if (!sl_ticket_last<sl_bar_any, false>(g_counter)) return;
    for (unsigned i = tid; i < (unsigned)F::L; i += B) s_acc[i] = atomicExch(&g_acc[i], 0ull);
    sacc_barrier();
    if (tid == 0) {
        const unsigned flags = atomicExch(g_flags, 0u);
        const double r = sacc_round_dev(s_acc, F::L, SL_F64, flags);
        *result = r;                                 /* exact: r holds a double */
        g_counter[2] = 0u;                           /* the fallback flag, for the next launch */
        *g_counter = 0u;
    }
}

/* ---- float64 rows: the exact sums of the rows superacc's certified row pass lists -------------
 * (rows.cu's rs_rows_kernel<double, true>.) The list in work (rows.h's SL_ROWS_SACC_WS layout,
 * rows.cu's SAC_WS_HEADER): [0, 4) its length, [4, 8) this kernel's ticket, [8, 12) the count of
 * rows summed here (never reset), the rows' indices from byte 16. Block b sums the listed rows
 * b, b + G, .. (a block a row: sacc_block_sum over the whole row, then thread 0 rounds its limbs
 * once) and zeroes their entries; the P = min(length, G) blocks that had a row take a ticket
 * after (each read the length first), and the last adds the length to the count and empties the
 * list. Launched as a programmatic dependent launch of the certified pass (or behind it): it
 * waits for the pass (griddepcontrol.wait, a no-op otherwise) before reading the list. */
#define SACC_ROWS_BLOCK 256u
__global__ void __launch_bounds__(SACC_ROWS_BLOCK)
sacc_rows_listed_kernel(const double *__restrict__ x, uint64_t n, unsigned char *work, double *out)
{
    typedef sacc_fmt<double> F;
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags, s_cnt;
    unsigned *l_count = reinterpret_cast<unsigned *>(work);
    unsigned *l_list = reinterpret_cast<unsigned *>(work + 16u);
    const unsigned tid = threadIdx.x;
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (tid == 0) s_cnt = __ldcg(l_count);
    sacc_barrier();
    const unsigned rows = s_cnt;
    if (blockIdx.x >= rows) return;                  /* no listed row: no ticket (uniform) */
    for (unsigned w = blockIdx.x; w < rows; w += gridDim.x) {
        const uint64_t r = __ldcg(&l_list[w]);
        const double *row = x + r * n;
        for (unsigned i = tid; i < (unsigned)F::L; i += SACC_ROWS_BLOCK) s_acc[i] = 0;
        if (tid == 0) s_flags = 0;
        sacc_barrier();
        uint64_t head = ((16u - ((uintptr_t)row & 15u)) & 15u) / sizeof(double);
        if (head > n) head = n;
        sacc_block_sum(row, n, head, 0, 1, tid, SACC_ROWS_BLOCK, s_acc, &s_flags);
        if (tid == 0) {
            out[r] = sacc_round_dev(s_acc, F::L, SL_F64, s_flags);
            l_list[w] = 0u;                          /* every thread read it before the barriers */
        }
        sacc_barrier();                              /* s_acc and s_flags reused */
    }
    if (tid == 0) {
        const unsigned P = rows < gridDim.x ? rows : gridDim.x;
        if (atomicAdd(l_count + 1, 1u) == P - 1u) {  /* every taker read the length before */
            atomicAdd(l_count + 2, rows);
            atomicExch(l_count, 0u);
            atomicExch(l_count + 1, 0u);
        }
    }
}

cudaError_t sl_sacc_f64_rows_listed(const double *d_x, uint64_t n, unsigned grid, unsigned char *d_work,
                                    double *d_out, int dependent, cudaStream_t st)
{
    if (dependent)
        return sl_launch_dependent(sacc_rows_listed_kernel, dim3(grid), dim3(SACC_ROWS_BLOCK), st, d_x, n,
                                   d_work, d_out);
    sacc_rows_listed_kernel<<<grid, SACC_ROWS_BLOCK, 0, st>>>(d_x, n, d_work, d_out);
    return cudaGetLastError();
}

/* The certified binned sum's fallback (rs_kernel's P::fail, thread 0 of its last block, when
 * the certificate cannot decide): sets the fallback flag and tail-launches the exact kernel on
 * the same grid (cudaStreamTailLaunch: it starts once the binned grid has finished, its writes
 * visible). When the certificate decides, nothing is launched: no second kernel's cost on the
 * common path (an ordinary second launch that returns at once still costs its launch time).
 * mode & 8 (measuring, SUMLAB_SACC_F64_MODE): the host launches the exact kernel behind every
 * call instead. A failed
 * device-side launch stops the kernel with a message (the host's next check fails): the result
 * is never left looking valid. */
SL_NOINLINE void sacc_tail(const double *x, uint64_t n, uint64_t head, unsigned char *w,
                           double *result, unsigned block, unsigned mode)
{
    *(volatile unsigned *)(w + 8) = 1u;
    if (mode & 8u) return;
    if (block <= 512) sacc_kernel<512><<<gridDim.x, block, 0, cudaStreamTailLaunch>>>(x, n, head, w, result);
    else sacc_kernel<1024><<<gridDim.x, block, 0, cudaStreamTailLaunch>>>(x, n, head, w, result);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        printf("sumlab: superacc (float64): the device-side launch of the exact kernel failed: "
               "%s (%s); no result\n", cudaGetErrorName(e), cudaGetErrorString(e));
        __trap();
    }
}
struct sacc_cert {
    enum { CERT = 1 };
    static __device__ __forceinline__ void fail(const double *x, uint64_t n, uint64_t head,
                                                unsigned char *w, double *result, unsigned block,
                                                unsigned mode)
    {
        sacc_tail(x, n, head, w, result, block, mode);
    }
};

size_t sl_sacc_f64_workspace(void)
{
    return SACC_WS_HEADER + sizeof(int64_t) * (size_t)SL_SACC_LIMBS_F64 + rs_workspace_bytes(SL_F64);
}

/* SUMLAB_SACC_F64_MODE (a CMake option, kernels/README.md), for measuring, the same results:
 * bit 8 has the host launch the exact kernel behind every call (returning at once when the
 * certificate decides) instead of the device's tail launch only when needed; bit 16 rounds the
 * certificate's two ends on one lane instead of two. 0, the default: neither. */
#ifndef SUMLAB_SACC_F64_MODE
#define SUMLAB_SACC_F64_MODE 0
#endif

const char *sl_sacc_f64_enqueue(const sl_variant *v, const sl_launch *cfg, const double *xd,
                                uint64_t n, uint64_t head, unsigned char *w, double *rd,
                                cudaStream_t st, sl_err *err)
{
    /* step 1: the certified binned sum (blocks of whole warps), which tail-launches step 2,
     * the exact kernel, only when it cannot decide (sacc_tail) */
    const unsigned mode = SUMLAB_SACC_F64_MODE;
    const unsigned rb = (cfg->block + 31u) / 32u * 32u;
    rs_kernel<double, sacc_cert><<<cfg->grid, rb, 0, st>>>(
        xd, n, head, w + SACC_WS_HEADER + sizeof(int64_t) * SL_SACC_LIMBS_F64, rd, w,
        cfg->block, (unsigned)mode);
    if (!(mode & 8)) return "rs_kernel<double, certified>";
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        sl_err_set(err, "%s: launch of rs_kernel<double, certified> failed: %s (%s)", v->name,
                   cudaGetErrorName(e), cudaGetErrorString(e));
        return NULL;
    }
    const int small = cfg->block <= 512;
    if (small) sacc_kernel<512><<<cfg->grid, cfg->block, 0, st>>>(xd, n, head, w, rd);
    else sacc_kernel<1024><<<cfg->grid, cfg->block, 0, st>>>(xd, n, head, w, rd);
    return small ? "sacc_kernel<512>" : "sacc_kernel<1024>";
}

/* superacc.cu: the `superacc` kernel: correctly rounded, order-independent sum (determinism
 * class correctly-rounded). float32: every input reaches an exact integer superaccumulator
 * (layout and rounding in exact/limbs.h) through exponent bins; float64: a certified binned sum,
 * with the exact superaccumulator as fallback when it cannot decide the rounding. The result is
 * the exact sum rounded once, so it does not depend on the order of the inputs, the grid, the
 * block or the SM count. Twin: superacc.c (the exact superaccumulator).
 *
 * Floating-point assumptions: IEEE binary64 adds rounded to nearest even with subnormals
 * (-ftz=false), no contraction (--fmad=false; the only multiplies are by powers of two), no reassociation
 * (nvcc never reassociates); two's-complement 64-bit integers.
 *
 * Algorithm (float32: one launch; float64: one, and a second, steps 2-3, only when needed):
 *  1a. float32, per thread: exponent bins. Every input x goes, converted exactly to double,
 *     into one of 16 per-thread double accumulators ("bins") in shared memory, chosen by its
 *     biased exponent E >> 4. Bin j holds integer multiples of 2^(max(16j,1) - 150) (the ulp of
 *     its smallest exponent) and each input is below 2^39 of those units, so 2^14 inputs sum
 *     exactly in a double; a thread empties its bins into the block superaccumulator every
 *     SACC_BIN_FLUSH (8192) inputs and at the end. Cost per input: 3 integer ops, one exact
 *     float-to-double conversion, one shared load, add and store: the same on every input
 *     (narrow, full-range, subnormal, ill-conditioned). Inf and NaN (E = 255) land in bin 15,
 *     whose double add then follows IEEE's rules for them (+Inf with -Inf gives NaN): a
 *     non-finite bin at a flush becomes a flag, with no test on the per-input path. bfloat16
 *     took this path on its inputs widened to float32 (0.70x CUB on an H200); it now takes 1d
 *     (the float32 bins stay behind SUMLAB_SACC_BF16=bins).
 *  1d. bfloat16, per thread: integer bins. 32 int32 bins in shared memory by E >> 3 (E the
 *     biased exponent), bin j in units of 2^(8j - 134): a value is below 2^15 units, so 2^16
 *     inputs sum exactly; one FFMA per value gives its integer (sacc_b_k), one shared atomic
 *     add (no result) puts it in its bin, a warp empties its bins into the block limbs every
 *     SACC_B_FLUSH inputs. Inf and NaN are found by a product that turns non-finite, and a
 *     rescan of the thread's inputs then sets the flags.
 *  1c. float16, per thread: register sums. A finite float16 is an integer multiple of 2^-24
 *     below 2^16, so 2^13 of them add exactly in a double: two double registers per thread, no
 *     bins, emptied into the block superaccumulator every SACC_H_FLUSH inputs, a warp at a time
 *     (sacc_h_flush_warp). Each value's double is built from its 16 bits with integer operations
 *     (sacc_h_take8i; zero, subnormal, Inf and NaN lanes take the conversion instructions). On an
 *     H200 at 2^28: 0.97x CUB (commit 840e0f1), against 0.74x with a float-to-double conversion
 *     per value and the thread-by-thread flush (SUMLAB_SACC_F16=conv) and 0.55x with the bins.
 *  1b. float64. First the certified binned sum (exact/binned_kernel.cuh, rs_kernel with sacc_cert):
 *     the `reproducible` accumulation with 4 folds instead of 3 (4-fold binned accumulation,
 *     per-thread index adaptation, exact integer merge), whose last block bounds what the folds
 *     dropped (under one unit of the lowest fold per input) and rounds both ends of that
 *     interval: when they agree, that is the correctly rounded sum (sl_rsum_state_certify_k) and
 *     nothing else is launched; when they do not (exact cancellation far above the survivors,
 *     ties on coarse grids), it sets the fallback flag and tail-launches the exact kernel (CUDA
 *     dynamic parallelism: cudaStreamTailLaunch runs it after the binned grid; this file is
 *     compiled as relocatable device code for it), which sums exactly: each input v with
 *     |v| < 2^950 goes into a 3-term floating-point expansion a + b + c through a chain of three
 *     TwoSums (error-free), a non-zero leftover into the block's superaccumulator, NaN, Inf and
 *     float64 >= 2^950 take a rare path (flags; huge values straight into the
 *     superaccumulator). Steps 2-3 below are the exact kernel's and the float32 kernel's.
 *  2. Each thread adds its bins (float32) or a, b, c (float64) exactly into the block
 *     superaccumulator (int64 limbs of 32-bit chunks, shared-memory 64-bit atomicAdd; carries
 *     deferred, normalised every 2^29 block elements and at the end). The block then adds its
 *     normalised limbs (lower limbs in [0, 2^32)) into the global limbs with integer
 *     atomicAdd; flags are ORed.
 *  3. The last block (arrival ticket) takes the global limbs (atomicExch leaves them zero for
 *     the next launch), rounds once (sl_sacc_round) and resets the ticket counter.
 * Performance considerations: the float32 bins cost ~8 issued instructions per input, no
 * data-dependent branch; bins live at s_bin[j * blockDim + tid] (stride blockDim: a warp's 32
 * doubles fall in distinct bank pairs whatever bins its lanes pick, so no bank conflicts), 128
 * bytes of shared memory per thread (dynamic shared memory, opted in above 48 KB per block).
 * The previous float32 path (the float64 expansion on converted inputs) was bound by the FP64
 * pipe (~19 adds per input: 0.51-0.54x CUB on an H200) and spilled nearly every input of
 * full-range data into contended shared-memory atomics (0.03x). The same expansion as the whole
 * float64 path ran 0.92x (uniform) and 0.04x (full range); the certified binned sum costs ~10
 * float64 adds per input, like `reproducible`. The exact launch: two instantiations by maximum
 * block size (512, 1024) keep its loop state out of local memory (one instantiation for every
 * block size spilled the tile loop's counters: 0.67x CUB instead of 0.92x). */
#include <stdlib.h>
#include <string.h>
#include "superacc/superacc.cuh"

/* The kernels' common end. Every thread of every block calls it once with its flags and the
 * AND of its inputs' sign words, after its last add into s_acc: the block's limbs go into the
 * global limbs, and the last block to arrive rounds them into *result. */
template <typename X>
__device__ __noinline__ void sacc_block_finish(unsigned flags, unsigned sg,
                                                  unsigned long long *s_acc, unsigned *s_flags,
                                                  unsigned char *work, X *result)
{
    const int L = sacc_fmt<float>::L;
    unsigned *g_counter = reinterpret_cast<unsigned *>(work);
    unsigned *g_flags = g_counter + 1;
    unsigned long long *g_acc = reinterpret_cast<unsigned long long *>(work + SACC_WS_HEADER);
    const unsigned tid = threadIdx.x, B = blockDim.x;
    if (!(sg >> 31)) flags |= SL_SACC_ANYPOS;
    if (flags) atomicOr(s_flags, flags);
    sacc_barrier();
    if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), L);
    sacc_barrier();
    /* normalised limbs < 2^32 (top limb signed): G < 2^31 blocks cannot overflow a limb */
    for (unsigned i = tid; i < (unsigned)L; i += B)
        if (s_acc[i]) atomicAdd(&g_acc[i], s_acc[i]);
    if (tid == 0 && *s_flags) atomicOr(g_flags, *s_flags);
    __threadfence();                                 /* limbs visible before the ticket */
    sacc_barrier();
    /* every thread published and fenced: thread 0 takes the ticket without another fence */
    if (!sl_ticket_last<sl_bar_any, false>(g_counter)) return;
    for (unsigned i = tid; i < (unsigned)L; i += B) s_acc[i] = atomicExch(&g_acc[i], 0ull);
    sacc_barrier();
    if (tid == 0) {
        const unsigned fl = atomicExch(g_flags, 0u);
        /* float32: to nearest even; 16-bit output: to odd in float32, then to nearest even in
         * the 16-bit format (sl_sacc_round_mode: correct rounding) */
        const int half = sizeof(X) == 2;
        const double r = sacc_round_dev(s_acc, L, SL_F32, fl, half);
        *result = sl_out<X>((float)r);               /* exact for float32: r holds a float */
        *g_counter = 0u;
    }
}

/* Zeroes the block limbs and flags (before the first barrier). */
__device__ __forceinline__ void sacc_block_init(unsigned long long *s_acc, int L, unsigned *s_flags)
{
    for (unsigned i = threadIdx.x; i < (unsigned)L; i += blockDim.x) s_acc[i] = 0;
    if (threadIdx.x == 0) *s_flags = 0;
}

/* The one-launch kernels' 16-byte loads: streaming (evict-first) for float4, the read-only
 * no-allocate load for 8 16-bit values. */
__device__ __forceinline__ float4 sacc_ld(const float4 *p) { return __ldcs(p); }
template <typename H> __device__ __forceinline__ sl_v16<H> sacc_ld(const sl_v16<H> *p) { return sl_ldv(p); }

/* The tile loop of the one-launch kernels (float32 bins, float16 register sums, bfloat16 integer
 * bins): tile t (U 16-byte vectors per thread, W elements each) goes to block t mod gridDim; a
 * whole tile loads its U vectors first and hands them to st.take(v, true), a partial one hands
 * over those that exist (st.take(v, false)); after every flush_every tiles st.flush() (at the
 * same point in every thread of the block), and after every 2^29 of the block's elements the
 * block normalises its limbs. Barriers: the trip count and both schedules depend on blockIdx,
 * gridDim, blockDim and n only. */
template <int U, int W, typename V, class S>
__device__ __forceinline__ void sacc_tiles(const V *__restrict__ xv, uint64_t nv, unsigned flush_every,
                                           S &st, unsigned long long *s_acc)
{
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    const uint64_t per_tile = (uint64_t)B * U;
    const uint64_t ntiles = (nv + per_tile - 1) / per_tile;
    uint64_t every = SACC_BLOCK_ELEMS_PER_NORM / (per_tile * W);
    if (every == 0) every = 1;
    uint64_t since = 0;
    unsigned since_flush = 0;
    for (uint64_t tile = blockIdx.x; tile < ntiles; tile += G) {
        const uint64_t base = tile * per_tile + tid;
        if ((tile + 1) * per_tile <= nv) {
            V r[U];
#pragma unroll
            for (int u = 0; u < U; u++) r[u] = sacc_ld(xv + base + (uint64_t)u * B);
#pragma unroll
            for (int u = 0; u < U; u++) st.take(r[u], true);
        } else {
            for (int u = 0; u < U; u++)
                if (base + (uint64_t)u * B < nv) st.take(sacc_ld(xv + base + (uint64_t)u * B), false);
        }
        if (++since_flush == flush_every) {
            since_flush = 0;
            st.flush();
        }
        if (++since == every) {                      /* uniform across the block */
            since = 0;
            sacc_barrier();
            if (tid == 0) sl_sacc_normalise(reinterpret_cast<int64_t *>(s_acc), sacc_fmt<float>::L);
            sacc_barrier();
        }
    }
}

/* ---- float32: exponent bins (step 1a) ---------------------------------------------------- */
#define SACC_NBIN 16
#define SACC_BIN_FLUSH 8192u     /* inputs per thread between bin flushes (capacity: 2^14) */
#define SACC_BIN_U 4             /* float4 loads per thread per tile: 16 inputs */
#define SACC_BINS_PER_SM 3       /* resident 512-thread blocks per SM the bins kernel is built
                                  * for (superacc.c's grid): without it the 16-bit instantiations
                                  * took 55 registers, two blocks fitted and the third wave ran
                                  * alone (0.55x CUB instead of 0.71x on an H200) */

/* One input into its bin: my = &s_bin[tid], bins blockDim apart. A float16/bfloat16 input is
 * widened to float32 first (exact). */
template <typename X>
__device__ __forceinline__ void sacc_bin_take(X h, double *my, unsigned B, unsigned &sg)
{
    const float x = sl_widen(h);
    const unsigned u = __float_as_uint(x);
    sg &= u;
    my[((u >> 27) & 15u) * B] += (double)x;          /* bin E >> 4; exact (see step 1a) */
}

/* Adds the signed integer w times 2^pos (pos >= 0, in units of limb 0) exactly into the shared
 * limbs: three 32-bit chunks at most (|w| < 2^63, pos & 31 <= 31). */
__device__ __forceinline__ void sacc_spill_i64(long long w, int pos, unsigned long long *s_acc)
{
    if (w == 0) return;
    const bool neg = w < 0;
    const unsigned long long m = neg ? 0ull - (unsigned long long)w : (unsigned long long)w;
    const int idx = pos >> 5, lo = pos & 31;
    const unsigned long long rest = m >> (32 - lo);
    const unsigned long long c[3] = {(m << lo) & 0xffffffffull, rest & 0xffffffffull, rest >> 32};
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (c[k]) atomicAdd(&s_acc[idx + k], neg ? 0ull - c[k] : c[k]);
}

/* Block-collective (every thread of the block calls it, at a block-uniform point): empties every
 * thread's bins into the block limbs and zeroes them. Each thread turns its bins into integers in
 * place (bin j in units of 2^(max(16j,1) - 150), its smallest ulp; |bin| < 2^53, so the
 * conversion is exact) and records the flags of a non-finite bin (+-Inf, NaN: only bin 15 can
 * hold one); a tree over the threads adds the integers per bin (at most 1024 values below 2^53:
 * no overflow); thread j < 16 adds bin j's total into the limbs (bit position max(16j,1) - 1 of
 * M). 16 x 3 shared atomics per block instead of per thread: a per-thread spill of every bin
 * made full-range data 2x slower through atomics contending for the same dozen limbs.
 * Returns the thread's flags. */
__device__ __noinline__ unsigned sacc_bins_drain(double *s_bin, unsigned long long *s_acc)
{
    const unsigned tid = threadIdx.x, B = blockDim.x;
    long long *ib = reinterpret_cast<long long *>(s_bin);
    unsigned flags = 0;
    for (int j = 0; j < SACC_NBIN; j++) {
        const double v = s_bin[j * B + tid];
        long long k = 0;
        if (isnan(v)) flags |= SL_SACC_NAN;
        else if (isinf(v)) flags |= v > 0 ? SL_SACC_PINF : SL_SACC_NINF;
        else {
            const int e = 150 - (j ? 16 * j : 1);                    /* 1 / unit = 2^e */
            k = (long long)(v * __longlong_as_double((long long)(1023 + e) << 52));
        }
        ib[j * B + tid] = k;
    }
    unsigned half = 1;
    while (half < B) half <<= 1;
    for (half >>= 1; half > 0; half >>= 1) {        /* block-uniform trip count */
        sacc_barrier();
        if (tid < half && tid + half < B)
            for (int j = 0; j < SACC_NBIN; j++) ib[j * B + tid] += ib[j * B + tid + half];
    }
    sacc_barrier();
    const long long total = tid < SACC_NBIN ? ib[tid * B] : 0;
    sacc_barrier();                                 /* column 0 read before it is zeroed */
    for (int j = 0; j < SACC_NBIN; j++) s_bin[j * B + tid] = 0.0;
    if (tid < SACC_NBIN) sacc_spill_i64(total, tid ? 16 * (int)tid - 1 : 0, s_acc);
    return flags;
}

/* The bins kernel's state for sacc_tiles: each vector's lanes into their bins; the flush drains. */
template <typename X> struct sacc_bins_st {
    double *my, *s_bin;
    unsigned long long *s_acc;
    unsigned B, flags, sg;
    __device__ __forceinline__ void take(const typename sl_vec<X>::type &r, bool)
    {
#pragma unroll
        for (int k = 0; k < sl_vec<X>::W; k++) sacc_bin_take(sl_vec_lane(r, k), my, B, sg);
    }
    __device__ __forceinline__ void flush() { flags |= sacc_bins_drain(s_bin, s_acc); }
};

/* x: n float32 (or float16/bfloat16: X) elements; head: elements before the first 16-byte boundary (done one by one, as
 * is the tail after the last whole vector). Any grid, any block <= 1024; dynamic shared
 * memory: SACC_NBIN * blockDim doubles. Barriers: every sacc_barrier is reached by all threads
 * of the block (the tile loop's trip count, the drain and normalisation schedules and the
 * drain's tree depend on blockIdx, gridDim, blockDim and n only). */
template <typename X, int MAXB>
__global__ void __launch_bounds__(MAXB, MAXB <= 512 ? SACC_BINS_PER_SM : 1)
sacc_bins_kernel(const X *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work,
                 X *result)
{
    typedef sacc_fmt<float> F;
    typedef typename sl_vec<X>::type V;
    enum { W = sl_vec<X>::W, EPT = SACC_BIN_U * W };  /* elements per vector, per tile */
    extern __shared__ double s_bin[];
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags;
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    double *my = s_bin + tid;
    for (int j = 0; j < SACC_NBIN; j++) my[j * B] = 0.0;
    sacc_block_init(s_acc, F::L, &s_flags);
    sacc_barrier();

    unsigned flags = 0u, sg = 0xffffffffu;
    const uint64_t nv = (n - head) / W;              /* whole vectors after the head */
    const uint64_t tail0 = head + nv * W;
    const uint64_t nedge = head + (n - tail0);       /* < 16: at most one per thread */
    for (uint64_t i = (uint64_t)blockIdx.x * B + tid; i < nedge; i += (uint64_t)G * B)
        sacc_bin_take(x[i < head ? i : tail0 + (i - head)], my, B, sg);

    sacc_bins_st<X> st = {my, s_bin, s_acc, B, flags, sg};
    /* <= 8192 + 1 inputs per bin between drains */
    sacc_tiles<SACC_BIN_U, W>(reinterpret_cast<const V *>(x + head), nv, SACC_BIN_FLUSH / EPT, st, s_acc);
    flags = st.flags;
    sg = st.sg;
    flags |= sacc_bins_drain(s_bin, s_acc);
    sacc_block_finish<X>(flags, sg, s_acc, &s_flags, work, result);
}

/* ---- float16: register sums (step 1c) ---------------------------------------------------- */
#define SACC_H_FLUSH 8192u       /* inputs per thread between register flushes (capacity: 2^13) */
#define SACC_H_U 4               /* 16-byte loads per thread per tile: 32 inputs */

/* Eight float16 values into the thread's two register sums (lanes 0-3 into a, 4-7 into b: two
 * dependency chains), their sign words ANDed into sg. Exact: see sacc_h_kernel. */
__device__ __forceinline__ void sacc_h_take8(const sl_h8 &v, double &a, double &b, unsigned &sg)
{
    sg &= v.u.x & v.u.y & v.u.z & v.u.w;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        const double d = (double)__half2float(sl_vec_lane(v, k));
        if (k < 4) a += d;
        else b += d;
    }
}

/* The same eight values without a conversion instruction (the per-value float-to-double
 * conversions bound sacc_h_take8: ncu on an H200 showed half the stalls waiting on them). For a
 * word w of two float16 values whose exponent fields are in 1..30 the high word of each value's
 * double is built with integer operations (exponent + 1008 at bits 20-30, the 10 fraction bits
 * at 10-19, the sign at 31; the low word 0): the same double __half2float and the widening give.
 * An exponent field of 0 (zero, subnormal) or 31 (Inf, NaN) in any lane of the 16 bytes takes
 * sacc_h_take8 for all eight. Lanes 0-3 go into a, 4-7 into b, as there. */
__device__ __forceinline__ void sacc_h_take8i(const sl_h8 &v, double &a, double &b, unsigned &sg)
{
    const unsigned w[4] = {v.u.x, v.u.y, v.u.z, v.u.w};
    unsigned odd = 0u;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const unsigned m = w[k] & 0x7fff7fffu;
        odd |= ~(m + 0x7c007c00u) | (m + 0x04000400u);   /* bit 15/31: exponent field 0 or 31 */
    }
    if (odd & 0x80008000u) {
        sacc_h_take8(v, a, b, sg);
        return;
    }
    sg &= w[0] & w[1] & w[2] & w[3];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const unsigned lo = ((w[k] & 0x7fffu) << 10) + 0x3F000000u + ((w[k] & 0x8000u) << 16);
        const unsigned hi = ((w[k] >> 6) & 0x01fffc00u) + 0x3F000000u + (w[k] & 0x80000000u);
        const double d0 = __hiloint2double((int)lo, 0), d1 = __hiloint2double((int)hi, 0);
        if (k < 2) { a += d0; a += d1; }
        else { b += d0; b += d1; }
    }
}

/* A register sum into the block limbs, or its flags when it is not finite (IEEE's rules made it
 * +Inf, -Inf or NaN: +Inf with -Inf gives NaN, like the exact sum); the register is zeroed. */
__device__ __forceinline__ unsigned sacc_h_flush(double &r, unsigned long long *s_acc)
{
    unsigned f = 0u;
    if (isnan(r)) f = SL_SACC_NAN;
    else if (isinf(r)) f = r > 0 ? SL_SACC_PINF : SL_SACC_NINF;
    else sacc_spill(r, SL_SACC_SCALE_F32, s_acc);
    r = 0.0;
    return f;
}

/* Both register sums of every lane of a full warp into the block limbs through lane 0 alone
 * (the per-thread flush's shared atomics, all on the same few limbs, bounded the kernel at 2^24:
 * 0.24x CUB). Each register r (a multiple of 2^-24, |r| < 2^29) splits exactly into
 * h = (r + 1.5 * 2^41) - 1.5 * 2^41, a multiple of 2^-11, and r - h, a multiple of 2^-24 of at
 * most 2^-12; the warp's 64 high parts (below 2^35 in all: 46 bits) and 64 low parts (below 2^-5:
 * 19 bits) then add exactly in any order, so the shuffle sums are the exact sums. A warp that is
 * not full (blockDim not a multiple of 32) or holds a non-finite register (an Inf or NaN input,
 * IEEE's rules applied) flushes thread by thread. Called by every thread of the block at the
 * same point (block-uniform control flow). */
__device__ __forceinline__ unsigned sacc_h_flush_warp(double &a, double &b, unsigned long long *s_acc)
{
    const bool fin = isfinite(a) && isfinite(b);
    if ((blockDim.x & 31u) || !__all_sync(0xffffffffu, fin))
        return sacc_h_flush(a, s_acc) | sacc_h_flush(b, s_acc);
    const double C = 0x1.8p41;
    const double ha = (a + C) - C, hb = (b + C) - C;
    double hi = ha + hb, lo = (a - ha) + (b - hb);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        hi += __shfl_xor_sync(0xffffffffu, hi, o);
        lo += __shfl_xor_sync(0xffffffffu, lo, o);
    }
    a = 0.0;
    b = 0.0;
    if ((threadIdx.x & 31u) == 0u) {
        if (hi != 0.0) sacc_spill(hi, SL_SACC_SCALE_F32, s_acc);
        if (lo != 0.0) sacc_spill(lo, SL_SACC_SCALE_F32, s_acc);
    }
    return 0u;
}

/* The float16 kernel's state for sacc_tiles: whole tiles through the integer-built doubles
 * (INTB), partial ones and INTB = false through the conversions; the flush empties a and b. */
template <bool INTB> struct sacc_h_st {
    double a, b;
    unsigned long long *s_acc;
    unsigned flags, sg;
    __device__ __forceinline__ void take(const sl_h8 &r, bool full)
    {
        if (INTB && full) sacc_h_take8i(r, a, b, sg);
        else sacc_h_take8(r, a, b, sg);
    }
    __device__ __forceinline__ void flush()
    {
        if (INTB) flags |= sacc_h_flush_warp(a, b, s_acc);
        else flags |= sacc_h_flush(a, s_acc) | sacc_h_flush(b, s_acc);
    }
};

/* x: n float16 elements; head as for the bins kernel. Every finite float16 is an integer
 * multiple of 2^-24 below 2^16 (under 2^40 such units), so up to 2^13 of them add exactly in a
 * double: no bins, no shared memory on the per-input path. Each thread keeps two register sums,
 * each taking at most SACC_H_FLUSH / 2 + 1 inputs between flushes into the block limbs (a
 * per-thread spill: three shared atomics per 8192 inputs). Barriers: only the block-uniform
 * normalisation schedule and sacc_block_finish's (as in the bins kernel). */
template <bool INTB, int MAXB>
__global__ void __launch_bounds__(MAXB, MAXB <= 512 ? SACC_BINS_PER_SM : 1)
sacc_h_kernel(const __half *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work,
              __half *result)
{
    typedef sacc_fmt<float> F;
    enum { W = 8, EPT = SACC_H_U * W };
    __shared__ unsigned long long s_acc[F::L];
    __shared__ unsigned s_flags;
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    sacc_block_init(s_acc, F::L, &s_flags);
    sacc_barrier();

    double a = 0.0, b = 0.0;
    unsigned flags = 0u, sg = 0xffffffffu;
    const uint64_t nv = (n - head) / W;
    const uint64_t tail0 = head + nv * W;
    const uint64_t nedge = head + (n - tail0);       /* < 16: at most one per thread */
    for (uint64_t i = (uint64_t)blockIdx.x * B + tid; i < nedge; i += (uint64_t)G * B) {
        const __half h = x[i < head ? i : tail0 + (i - head)];
        sg &= (unsigned)__half_as_ushort(h) << 16 | 0xffffu;
        a += (double)__half2float(h);
    }

    sacc_h_st<INTB> st = {a, b, s_acc, flags, sg};
    /* <= 4096 + 1 inputs per register between flushes */
    sacc_tiles<SACC_H_U, W>(reinterpret_cast<const sl_h8 *>(x + head), nv, SACC_H_FLUSH / EPT, st, s_acc);
    a = st.a;
    b = st.b;
    flags = st.flags;
    sg = st.sg;
    if (INTB) flags |= sacc_h_flush_warp(a, b, s_acc);
    else flags |= sacc_h_flush(a, s_acc) | sacc_h_flush(b, s_acc);
    /* bit 31 of sg & sg << 16: every input's sign bit (both halves of every word) */
    sacc_block_finish<__half>(flags, sg & (sg << 16), s_acc, &s_flags, work, result);
}

/* ---- bfloat16: integer bins (step 1d) ---------------------------------------------------- */
#define SACC_B_NBIN 32
#define SACC_B_FLUSH 16384u      /* inputs per thread between bin flushes (capacity: 2^16) */
#define SACC_B_U 4               /* 16-byte loads per thread per tile: 32 inputs */
#define SACC_B_LANES 256u        /* threads per bin row: bin j of thread t at
                                  * s_bb[(t >> 8) * 8192 + j * 256 + (t & 255)], so bin j lies
                                  * j * 1024 bytes above the thread's bin 0 */
/* One bfloat16 value into its bin: u its float32 bits (low half zero), off the byte offset of
 * its bin (j * 1024, j = E >> 3 for the biased exponent E), sc = SL_SACC_B16_SC (a kernel
 * argument: see sacc_b_kernel). The value's integer k in its bin's units comes from
 * sl_sacc_b16_f (superacc/superacc.h: the exactness argument, checked on every bfloat16 pattern in
 * tests/tsuperacc.c); an Inf or NaN input (E = 255, bin 31) makes f non-finite and its bits
 * garbage; f also goes into the product sp, which then turns non-finite (every finite f lies in
 * (2^15, 2^16): sp stays finite for n < 2^40), and the thread rescans its inputs for the flags
 * (sacc_b_rescan): the garbage never reaches a result, since the rounding returns NaN or Inf on
 * those flags. */
__device__ __forceinline__ float sacc_b_k(unsigned u, unsigned my, unsigned off, unsigned sc)
{
    const float f = sl_sacc_b16_f(u, sc);
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(my + off),
                 "r"(__float_as_uint(f) - SL_SACC_B16_MAGIC_BITS) : "memory");
    return f;
}

/* The two values of a word w (low half first); sp takes the product of their f. */
__device__ __forceinline__ void sacc_b_take2(unsigned w, unsigned my, unsigned sc, float &sp,
                                             unsigned &sg)
{
    sg &= w;
    const float flo = sacc_b_k(w << 16, my, w & 0x7C00u, sc);
    const float fhi = sacc_b_k(w & 0xffff0000u, my, (w >> 16) & 0x7C00u, sc);
    sp = __fmaf_rn(flo, fhi, sp);
}

/* Warp-collective (every thread of the block at the same point): each warp adds its lanes'
 * bins into the block limbs (one sum per bin through lane 0: the bin's high and low 16 bits
 * reduced separately, exactly, below 2^21 each) and zeroes them. mask: the warp's threads. */
__device__ __noinline__ void sacc_b_flush(unsigned my, unsigned mask, unsigned long long *s_acc)
{
    const bool lead = (threadIdx.x & 31u) == 0u;
    for (int j = 0; j < SACC_B_NBIN; j++) {
        const unsigned a = my + (unsigned)j * 1024u;
        int v;
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(0u) : "memory");
        const int hi = __reduce_add_sync(mask, v >> 16);                /* |.| < 2^20 */
        const unsigned lo = __reduce_add_sync(mask, (unsigned)v & 0xffffu); /* < 2^21 */
        if (lead) sacc_spill_i64((long long)hi * 65536 + (long long)lo, 8 * j + 15, s_acc);
    }
}

/* The flag of one bfloat16 pattern h: NaN, +Inf or -Inf (exponent field 255), else 0. */
__device__ __forceinline__ unsigned sacc_b_flag(unsigned h)
{
    if ((h & 0x7f80u) != 0x7f80u) return 0u;
    return (h & 0x7fu) ? SL_SACC_NAN : (h >> 15) ? SL_SACC_NINF : SL_SACC_PINF;
}

/* The flags of this thread's inputs (only when sp turned non-finite): the same elements the
 * kernel gave it (the edges, then its vectors tile by tile as sacc_tiles deals them), read
 * again. */
__device__ __noinline__ unsigned sacc_b_rescan(const unsigned short *x, uint64_t n, uint64_t head,
                                               uint64_t nv)
{
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    unsigned flags = 0u;
    const uint64_t tail0 = head + nv * 8, nedge = head + (n - tail0);
    for (uint64_t i = (uint64_t)blockIdx.x * B + tid; i < nedge; i += (uint64_t)G * B)
        flags |= sacc_b_flag(x[i < head ? i : tail0 + (i - head)]);
    const uint64_t per_tile = (uint64_t)B * SACC_B_U;
    for (uint64_t tile = blockIdx.x; tile * per_tile < nv; tile += G)
        for (int u = 0; u < SACC_B_U; u++) {
            const uint64_t v = tile * per_tile + tid + (uint64_t)u * B;
            if (v >= nv) continue;
            for (int k = 0; k < 8; k++) flags |= sacc_b_flag(x[head + v * 8 + (uint64_t)k]);
        }
    return flags;
}

/* The bfloat16 kernel's state for sacc_tiles: each word's two values into their bins; the
 * flush empties the warp's bins into the block limbs. */
struct sacc_b_st {
    unsigned my, sc, mask;
    unsigned long long *s_acc;
    float sp;
    unsigned sg;
    __device__ __forceinline__ void take(const sl_b8 &r, bool)
    {
        sacc_b_take2(r.u.x, my, sc, sp, sg);
        sacc_b_take2(r.u.y, my, sc, sp, sg);
        sacc_b_take2(r.u.z, my, sc, sp, sg);
        sacc_b_take2(r.u.w, my, sc, sp, sg);
    }
    __device__ __forceinline__ void flush() { sacc_b_flush(my, mask, s_acc); }
};

/* x: n bfloat16 elements; head as for the bins kernel. Dynamic shared memory: 32 KB per 256
 * threads (SACC_B_LANES) of the block, then the block limbs and flags. Per input: ~5 integer
 * ops, one FFMA and one 4-byte shared atomic add (the float32 bins move 16 bytes per input
 * through shared memory: on an H200 they ran 0.70x CUB, at the shared-memory bandwidth).
 * The add is red.shared.add (no result, no dependency between a thread's inputs): on an H200 at
 * 2^28 0.935x CUB on uniform-sym data against 0.824x with a shared load, add and store; wide
 * data (log-uniform over 2^-120..2^120) runs slower with both, 0.828x and 0.742x, as if the
 * shared-memory path paid for the spread of a warp's 32 addresses over the bins' rows. sc: the
 * constant SL_SACC_B16_SC (a kernel argument, so that the compiler keeps it in a register and
 * fuses the scale's AND and XOR into one LOP3).
 * Barriers: only the normalisation schedule's and sacc_block_finish's, both block-uniform; the
 * flushes are warp-collective at block-uniform points. */
template <int MAXB>
__global__ void __launch_bounds__(MAXB, MAXB <= 512 ? SACC_BINS_PER_SM : 1)
sacc_b_kernel(const __nv_bfloat16 *__restrict__ x, uint64_t n, uint64_t head, unsigned char *work,
              __nv_bfloat16 *result, unsigned sc)
{
    typedef sacc_fmt<float> F;
    enum { W = 8 };
    extern __shared__ unsigned s_bb[];
    const unsigned tid = threadIdx.x, B = blockDim.x, G = gridDim.x;
    const unsigned rows = (B + SACC_B_LANES - 1u) / SACC_B_LANES;
    unsigned long long *s_acc = reinterpret_cast<unsigned long long *>(s_bb + rows * (SACC_B_NBIN * SACC_B_LANES));
    unsigned *s_flags = reinterpret_cast<unsigned *>(s_acc + F::L);
    const unsigned my = (unsigned)__cvta_generic_to_shared(
        s_bb + (tid >> 8) * (SACC_B_NBIN * SACC_B_LANES) + (tid & (SACC_B_LANES - 1u)));
    for (int j = 0; j < SACC_B_NBIN; j++)
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(my + (unsigned)j * 1024u), "r"(0u) : "memory");
    sacc_block_init(s_acc, F::L, s_flags);
    const unsigned wbase = tid & ~31u;
    const unsigned mask = B - wbase >= 32u ? 0xffffffffu : (1u << (B - wbase)) - 1u;
    sacc_barrier();

    float sp = 0.0f;
    unsigned sg = 0xffffffffu;
    const unsigned short *xs = reinterpret_cast<const unsigned short *>(x);
    const uint64_t nv = (n - head) / W;
    const uint64_t tail0 = head + nv * W;
    const uint64_t nedge = head + (n - tail0);       /* < 16: at most one per thread */
    for (uint64_t i = (uint64_t)blockIdx.x * B + tid; i < nedge; i += (uint64_t)G * B) {
        const unsigned u = (unsigned)xs[i < head ? i : tail0 + (i - head)] << 16;
        sg &= u | 0xffffu;
        const float f = sacc_b_k(u, my, (u >> 16) & 0x7C00u, sc);
        sp = __fmaf_rn(f, f, sp);
    }
    sacc_b_st st = {my, sc, mask, s_acc, sp, sg};
    /* <= 16384 + 1 inputs per bin between flushes */
    sacc_tiles<SACC_B_U, W>(reinterpret_cast<const sl_b8 *>(x + head), nv, SACC_B_FLUSH / (SACC_B_U * W), st, s_acc);
    sp = st.sp;
    sg = st.sg;
    sacc_b_flush(my, mask, s_acc);
    const unsigned flags = isfinite(sp) ? 0u : sacc_b_rescan(xs, n, head, nv);
    /* bit 31 of sg & sg << 16: every input's sign bit (both halves of every word) */
    sacc_block_finish<__nv_bfloat16>(flags, sg & (sg << 16), s_acc, s_flags, work, result);
}

/* ---- launcher: checks, the empty sum, then the one float/double branch ---------------------- */
extern "C" size_t sl_superacc_workspace(const sl_variant *v, uint64_t n, sl_dtype dt,
                                        const sl_launch *cfg)
{
    (void)v; (void)n; (void)cfg;
    const size_t exact = SACC_WS_HEADER + sizeof(int64_t) * (size_t)sl_sacc_limbs(dt);
    return dt == SL_F64 ? exact + sl_reproducible_workspace(NULL, n, dt, NULL) : exact;
}

/* Enqueues the bins kernel for input format X and blocks up to MAXB (opting into its dynamic
 * shared memory above 48 KB once per instantiation); returns its name, or NULL with err. */
template <typename X, int MAXB>
static const char *sacc_bins_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                     uint64_t n, uint64_t head, void *d_work, void *d_result,
                                     cudaStream_t st, sl_err *err)
{
    const size_t smem = sizeof(double) * SACC_NBIN * (size_t)cfg->block;
    static size_t opted = 48u * 1024u;               /* the default limit needs no opt-in */
    if (smem > opted) {
        cudaError_t e = cudaFuncSetAttribute(sacc_bins_kernel<X, MAXB>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)(sizeof(double) * SACC_NBIN * MAXB));
        if (e != cudaSuccess) {
            sl_err_set(err, "%s: CUDA call 'cudaFuncSetAttribute(sacc_bins_kernel, "
                       "MaxDynamicSharedMemorySize)' failed: %s (%s)", v->name,
                       cudaGetErrorName(e), cudaGetErrorString(e));
            return NULL;
        }
        opted = sizeof(double) * SACC_NBIN * MAXB;
    }
    sacc_bins_kernel<X, MAXB><<<cfg->grid, cfg->block, smem, st>>>((const X *)d_x, n, head,
                                                                  (unsigned char *)d_work, (X *)d_result);
    return sizeof(X) == 2 ? "sacc_bins_kernel<16-bit>" : "sacc_bins_kernel<float>";
}

/* The bins kernel's instantiation for cfg->block: up to 512 threads the one built for
 * SACC_BINS_PER_SM blocks per SM (registers capped), else the one for 1024. */
template <typename X>
static const char *sacc_bins_launch(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                    uint64_t n, uint64_t head, void *d_work, void *d_result,
                                    cudaStream_t st, sl_err *err)
{
    if (cfg->block <= 512)
        return sacc_bins_enqueue<X, 512>(v, cfg, d_x, n, head, d_work, d_result, st, err);
    return sacc_bins_enqueue<X, 1024>(v, cfg, d_x, n, head, d_work, d_result, st, err);
}

/* Enqueues the bfloat16 integer-bins kernel for blocks up to MAXB (32 KB of dynamic shared
 * memory per 256 threads, opted into above 48 KB once per instantiation). */
template <int MAXB>
static const char *sacc_b_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                  uint64_t n, uint64_t head, void *d_work, void *d_result,
                                  cudaStream_t st, sl_err *err)
{
    const size_t row = sizeof(unsigned) * SACC_B_NBIN * SACC_B_LANES;
    const size_t tail = sizeof(unsigned long long) * SL_SACC_LIMBS_F32 + 16u;
    const size_t smem = row * ((cfg->block + SACC_B_LANES - 1u) / SACC_B_LANES) + tail;
    static size_t opted = 48u * 1024u;
    if (smem > opted) {
        const size_t most = row * ((MAXB + SACC_B_LANES - 1u) / SACC_B_LANES) + tail;
        cudaError_t e = cudaFuncSetAttribute(sacc_b_kernel<MAXB>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most);
        if (e != cudaSuccess) {
            sl_err_set(err, "%s: CUDA call 'cudaFuncSetAttribute(sacc_b_kernel, "
                       "MaxDynamicSharedMemorySize)' failed: %s (%s)", v->name,
                       cudaGetErrorName(e), cudaGetErrorString(e));
            return NULL;
        }
        opted = most;
    }
    sacc_b_kernel<MAXB><<<cfg->grid, cfg->block, smem, st>>>((const __nv_bfloat16 *)d_x, n, head,
                                                            (unsigned char *)d_work,
                                                            (__nv_bfloat16 *)d_result, SL_SACC_B16_SC);
    return "sacc_b_kernel";
}

/* Enqueues the kernel for dt; returns its name for the launch check, or NULL with err when the
 * dynamic shared memory of the float32 bins cannot be opted into. */
static const char *sacc_launch(const sl_variant *v, const sl_launch *cfg, sl_dtype dt,
                               const void *d_x, uint64_t n, uint64_t head, void *d_work,
                               void *d_result, cudaStream_t st, sl_err *err)
{
    if (dt == SL_F64) {
        return sl_sacc_f64_enqueue(v, cfg, (const double *)d_x, n, head, (unsigned char *)d_work,
                                   (double *)d_result, st, err);
    }
    if (dt == SL_F16) {
        static int intb = -1;                        /* SUMLAB_SACC_F16=conv: the conversions */
        if (intb < 0) {
            const char *e = getenv("SUMLAB_SACC_F16");
            intb = !(e && !strcmp(e, "conv"));
        }
        const __half *hx = (const __half *)d_x;
        unsigned char *w = (unsigned char *)d_work;
        __half *hr = (__half *)d_result;
        if (intb && cfg->block <= 512) sacc_h_kernel<true, 512><<<cfg->grid, cfg->block, 0, st>>>(hx, n, head, w, hr);
        else if (intb) sacc_h_kernel<true, 1024><<<cfg->grid, cfg->block, 0, st>>>(hx, n, head, w, hr);
        else if (cfg->block <= 512) sacc_h_kernel<false, 512><<<cfg->grid, cfg->block, 0, st>>>(hx, n, head, w, hr);
        else sacc_h_kernel<false, 1024><<<cfg->grid, cfg->block, 0, st>>>(hx, n, head, w, hr);
        return intb ? "sacc_h_kernel<int>" : "sacc_h_kernel";
    }
    if (dt == SL_BF16) {
        static int ibins = -1;                       /* SUMLAB_SACC_BF16=bins: the float32 bins */
        if (ibins < 0) {
            const char *e = getenv("SUMLAB_SACC_BF16");
            ibins = !(e && !strcmp(e, "bins"));
        }
        if (!ibins) return sacc_bins_launch<__nv_bfloat16>(v, cfg, d_x, n, head, d_work, d_result, st, err);
        if (cfg->block <= 512) return sacc_b_enqueue<512>(v, cfg, d_x, n, head, d_work, d_result, st, err);
        return sacc_b_enqueue<1024>(v, cfg, d_x, n, head, d_work, d_result, st, err);
    }
    return sacc_bins_launch<float>(v, cfg, d_x, n, head, d_work, d_result, st, err);
}

extern "C" int sl_superacc_gpu(const sl_variant *v, const void *d_x, uint64_t n, sl_dtype dt,
                               const sl_launch *cfg, void *d_work, size_t work_bytes,
                               void *d_result, void *stream, sl_err *err)
{
    cudaStream_t st = (cudaStream_t)stream;
    uint64_t head = 0;
    const int go = sl_launch_prologue(v, d_x, n, dt, cfg, 1u, SL_SACC_MAX_N, d_work, work_bytes,
                                      sl_superacc_workspace(v, n, dt, cfg), d_result, st, &head, err);
    if (go <= 0) return go;
    const char *what = sacc_launch(v, cfg, dt, d_x, n, head, d_work, d_result, st, err);
    if (!what) return -1;
    SL_CUDA_CHECK_LAUNCH(what, v->name, err);
    return 0;
}

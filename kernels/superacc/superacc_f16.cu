/* superacc_f16.cu: `superacc` on float16: the register-sums kernel sacc_h_kernel, one launch,
 * the exact sum rounded once to float16 (determinism class correctly-rounded; twin superacc.c).
 * Assumptions: IEEE binary16 input, binary64 adds rounded to nearest even without FTZ; the
 * layout of exact/limbs.h; rounding to odd in float32 then to nearest even in float16 is correct
 * rounding (exact/limbs.h).
 * Steps (superacc.cu's 1c, 2, 3): each thread adds its values, as doubles built from their bits,
 * into two registers (exact for 2^13 inputs each); every SACC_H_FLUSH inputs and at the end a
 * warp empties its registers into the block limbs through lane 0 (sacc_h_flush_warp); the
 * block's limbs go into the global limbs and the last block rounds (sacc_block_finish). */
#include "superacc/one_launch.cuh"

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
 * conversions bound sacc_h_take8: a profile showed half the stalls waiting on them): each word
 * w of two float16 values whose exponent fields are in 1..30 gives its two doubles' high words
 * by integer operations (sl_sacc_h16x2_hi, superacc.h: the same doubles as __half2float and the
 * widening). An exponent field of 0 (zero, subnormal) or 31 (Inf, NaN) in any lane of the 16
 * bytes takes sacc_h_take8 for all eight. Lanes 0-3 go into a, 4-7 into b, as there. */
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
        unsigned lo, hi;
        sl_sacc_h16x2_hi(w[k], &lo, &hi);
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
    else sl_sacc_spill(r, SL_SACC_SCALE_F32, s_acc);
    r = 0.0;
    return f;
}

/* Both register sums of every lane of a full warp into the block limbs through lane 0 alone
 * (the per-thread flush's shared atomics, all on the same few limbs, bounded the kernel at
 * 2^24). Each register r (a multiple of 2^-24, |r| < 2^29) splits exactly into
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
        if (hi != 0.0) sl_sacc_spill(hi, SL_SACC_SCALE_F32, s_acc);
        if (lo != 0.0) sl_sacc_spill(lo, SL_SACC_SCALE_F32, s_acc);
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
    const unsigned B = blockDim.x;                   /* read before the barrier (sl_for_edges) */
    sacc_block_init(s_acc, F::L, &s_flags);
    sacc_barrier();

    double a = 0.0, b = 0.0;
    unsigned flags = 0u, sg = 0xffffffffu;
    const uint64_t nv = (n - head) / W;
    /* the edges; the capture list in this order keeps the PTX of the hand-written loop */
    sl_for_edges<W>(n, head, nv, B, [&sg, &a, x](uint64_t i) {
        const __half h = x[i];
        sg &= (unsigned)__half_as_ushort(h) << 16 | 0xffffu;
        a += (double)__half2float(h);
    });

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

/* SUMLAB_SACC_F16_CONV (a CMake option, kernels/README.md): 1 builds the float16 kernel that
 * converts every value with a conversion instruction and flushes thread by thread (the earlier
 * kernel, kept for measuring; the same results); 0 (the default) the integer-built doubles. */
#ifndef SUMLAB_SACC_F16_CONV
#define SUMLAB_SACC_F16_CONV 0
#endif

const char *sl_sacc_f16_enqueue(const sl_variant *v, const sl_launch *cfg, const void *d_x,
                                uint64_t n, uint64_t head, void *d_work, void *d_result,
                                cudaStream_t st, sl_err *err)
{
    (void)v; (void)err;
    enum { INTB = !SUMLAB_SACC_F16_CONV };
    const __half *hx = (const __half *)d_x;
    unsigned char *w = (unsigned char *)d_work;
    __half *hr = (__half *)d_result;
    if (cfg->block <= 512) sacc_h_kernel<INTB, 512><<<cfg->grid, cfg->block, 0, st>>>(hx, n, head, w, hr);
    else sacc_h_kernel<INTB, 1024><<<cfg->grid, cfg->block, 0, st>>>(hx, n, head, w, hr);
    return INTB ? "sacc_h_kernel<int>" : "sacc_h_kernel";
}

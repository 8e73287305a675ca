/* reduce/vec.cuh: thread scope: the element conversions (input format X to accumulator T, and
 * the one final rounding back), the 16-byte vector of an element type (float4 / double2 / 8
 * float16 or bfloat16 values), its lanes, its streaming read-only load and its in-order add;
 * the same for narrower loads (2, 4, 8 bytes: sl_load_of).
 * The split of x into head, vectors and tail is sl_layout.h's (shared with the twins). */
#ifndef SL_REDUCE_VEC_CUH
#define SL_REDUCE_VEC_CUH
#include <stdint.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

/* ---- conversions. Widening (float16/bfloat16 -> float32, float32 -> float64) is exact;
 * sl_acc_of<T>(x) is x in the accumulator format T (the identity when X = T: half-acc).
 * sl_out<X>(a) rounds an accumulator once to the output format, to nearest even. */
__device__ __forceinline__ float sl_widen(float x) { return x; }
__device__ __forceinline__ double sl_widen(double x) { return x; }
__device__ __forceinline__ float sl_widen(__half x) { return __half2float(x); }
__device__ __forceinline__ float sl_widen(__nv_bfloat16 x) { return __bfloat162float(x); }
template <typename T, typename X> struct sl_cvt {
    static __device__ __forceinline__ T to(X x) { return (T)sl_widen(x); }
};
template <typename X> struct sl_cvt<X, X> {
    static __device__ __forceinline__ X to(X x) { return x; }
};
template <> struct sl_cvt<__half, float> {
    static __device__ __forceinline__ __half to(float a) { return __float2half_rn(a); }
};
template <> struct sl_cvt<__nv_bfloat16, float> {
    static __device__ __forceinline__ __nv_bfloat16 to(float a) { return __float2bfloat16_rn(a); }
};
template <> struct sl_cvt<float, double> {
    static __device__ __forceinline__ float to(double a) { return __double2float_rn(a); }
};
template <typename T, typename X> __device__ __forceinline__ T sl_acc_of(X x) { return sl_cvt<T, X>::to(x); }
template <typename X, typename T> __device__ __forceinline__ X sl_out(T a) { return sl_cvt<X, T>::to(a); }

/* Exact widening to float64 from the bits with integer operations for normal values (the
 * exponent rebiased, the significand moved into place; float16/bfloat16: the low word zero);
 * zero, subnormal, Inf and NaN take the conversion instructions. The same double as (double)x
 * either way (the twins' conversion). Float64 sums at the read rate saturate the conversion
 * unit with one F2F a value; the integer route moves that work to the ALU (about 6 operations a
 * value), and 16-bit input, twice the values a byte, splits its values between the two. */
__device__ __forceinline__ double sl_f2d_exact(float f)
{
    const unsigned u = __float_as_uint(f);
    const unsigned ex = (u >> 23) & 0xffu;
    if (ex - 1u >= 254u) return (double)f;
    const unsigned hi = (u & 0x80000000u) | (((u & 0x7fffffffu) >> 3) + (896u << 20));
    return __hiloint2double((int)hi, (int)(u << 29));
}
__device__ __forceinline__ double sl_h2d_bits(__half x)
{
    const unsigned h = __half_as_ushort(x), ex = (h >> 10) & 0x1fu;
    if (ex - 1u >= 30u) return (double)__half2float(x);
    const unsigned hi = ((h & 0x8000u) << 16) | (((h & 0x7fffu) << 10) + ((1023u - 15u) << 20));
    return __hiloint2double((int)hi, 0);
}
__device__ __forceinline__ double sl_h2d_bits(__nv_bfloat16 x)
{
    const unsigned h = __bfloat16_as_ushort(x), ex = (h >> 7) & 0xffu;
    if (ex - 1u >= 254u) return (double)__bfloat162float(x);
    const unsigned hi = ((h & 0x8000u) << 16) | (((h & 0x7fffu) << 13) + ((1023u - 127u) << 20));
    return __hiloint2double((int)hi, 0);
}

/* Lane k of a vector widened exactly to float64 (the same double as (double)x), its route
 * chosen to share the work between the pipes: float32 by the bits (sl_f2d_exact); float16 and
 * bfloat16 the odd lanes by the bits (sl_h2d_bits) and the even ones by the conversions (16-bit
 * -> float -> double): either route alone saturates its pipe (the conversion unit, or the
 * integer ALU at about 6 operations a value) below the read rate of 16-bit input; shared,
 * neither does. */
__device__ __forceinline__ double sl_widen_lane_f64(float x, int) { return sl_f2d_exact(x); }
template <typename H> __device__ __forceinline__ double sl_widen_lane_f64(H x, int k)
{
    return (k & 1) ? sl_h2d_bits(x) : (double)sl_widen(x);
}

/* 16 bytes of 8 float16 / bfloat16 values (H), element 0 in the low half of .x. */
template <typename H> struct sl_v16 { uint4 u; };
typedef sl_v16<__half> sl_h8;
typedef sl_v16<__nv_bfloat16> sl_b8;
__device__ __forceinline__ void sl_from_bits(unsigned short b, __half &h) { h = __ushort_as_half(b); }
__device__ __forceinline__ void sl_from_bits(unsigned short b, __nv_bfloat16 &h) { h = __ushort_as_bfloat16(b); }

template <typename T> struct sl_vec;
template <> struct sl_vec<float> { typedef float4 type; enum { W = 4 }; };
template <> struct sl_vec<double> { typedef double2 type; enum { W = 2 }; };
template <> struct sl_vec<__half> { typedef sl_h8 type; enum { W = 8 }; };
template <> struct sl_vec<__nv_bfloat16> { typedef sl_b8 type; enum { W = 8 }; };

/* Lane k (0..7) of a 16-bit vector. */
__device__ __forceinline__ unsigned short sl_lane16(const uint4 &u, int k)
{
    const unsigned w = k < 2 ? u.x : k < 4 ? u.y : k < 6 ? u.z : u.w;
    return (unsigned short)((k & 1) ? w >> 16 : w & 0xffffu);
}
template <typename H> __device__ __forceinline__ H sl_vec_lane(const sl_v16<H> &v, int k)
{
    H h;
    sl_from_bits(sl_lane16(v.u, k), h);
    return h;
}

/* Lane k of a vector (k a compile-time constant after unrolling). */
__device__ __forceinline__ float sl_vec_lane(const float4 &v, int k)
{
    return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}
__device__ __forceinline__ double sl_vec_lane(const double2 &v, int k) { return k == 0 ? v.x : v.y; }

/* Values g G .. g G + G - 1 of the vectors v[] (vector by vector, lane by lane) widened exactly
 * to float64 into d[0..G) (g a compile-time constant after unrolling). */
template <typename X, int G>
__device__ __forceinline__ void sl_vec_group_f64(const typename sl_vec<X>::type *v, int g, double *d)
{
    enum { W = sl_vec<X>::W };
#pragma unroll
    for (int k = 0; k < G; k++) d[k] = (double)sl_widen(sl_vec_lane(v[(g * G + k) / W], (g * G + k) % W));
}

/* Read-only streaming load that does not allocate in L1 (ld.global.nc.L1::no_allocate). */
__device__ __forceinline__ float4 sl_ldv(const float4 *p)
{
    float4 r;
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(p));
    return r;
}
__device__ __forceinline__ double2 sl_ldv(const double2 *p)
{
    double2 r;
    asm volatile("ld.global.nc.L1::no_allocate.v2.f64 {%0,%1}, [%2];"
                 : "=d"(r.x), "=d"(r.y) : "l"(p));
    return r;
}

__device__ __forceinline__ uint4 sl_ldv_u4(const uint4 *p)
{
    uint4 r;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
    return r;
}
template <typename H> __device__ __forceinline__ sl_v16<H> sl_ldv(const sl_v16<H> *p)
{
    sl_v16<H> r;
    r.u = sl_ldv_u4(reinterpret_cast<const uint4 *>(p));
    return r;
}

/* The split's scalars outside the whole vectors (sl_layout.h: the head [0, head), and the tail
 * after the nv vectors of W elements), dealt grid-stride over every thread of the grid (fewer
 * than 16: at most one per thread): f(i) for each index i. */
template <int W, typename F>
__device__ __forceinline__ void sl_for_edges(uint64_t n, uint64_t head, uint64_t nv, unsigned B, F f)
{
    const uint64_t tail0 = head + nv * W;
    const uint64_t nedge = head + (n - tail0);
    for (uint64_t i = (uint64_t)blockIdx.x * B + threadIdx.x; i < nedge; i += (uint64_t)gridDim.x * B)
        f(i < head ? i : tail0 + (i - head));
}
/* B: blockDim.x. A kernel that read it before a barrier passes that value: the compiler does not
 * move a special-register read across a barrier, so a second read costs registers elsewhere. */
template <int W, typename F>
__device__ __forceinline__ void sl_for_edges(uint64_t n, uint64_t head, uint64_t nv, F f)
{
    sl_for_edges<W>(n, head, nv, blockDim.x, f);
}

/* An L2 load (never a stale L1 line) of a value or a vector, 16-bit vectors included. */
template <typename V> __device__ __forceinline__ V sl_ldcg(const V *p) { return __ldcg(p); }
template <typename H> __device__ __forceinline__ sl_v16<H> sl_ldcg(const sl_v16<H> *p)
{
    sl_v16<H> r;
    r.u = __ldcg(reinterpret_cast<const uint4 *>(p));
    return r;
}

/* The lanes in order into one accumulator of format T, each converted by sl_acc_of. */
template <typename T, typename H>
__device__ __forceinline__ void sl_vadd(T &a, const sl_v16<H> v)
{
#pragma unroll
    for (int k = 0; k < 8; k++) a = a + sl_acc_of<T>(sl_vec_lane(v, k));
}

/* a = a + v.x, then + v.y (+ v.z, + v.w): the lanes in order into one accumulator. */
__device__ __forceinline__ void sl_vadd(float &a, const float4 v)
{
    a = a + v.x; a = a + v.y; a = a + v.z; a = a + v.w;
}
__device__ __forceinline__ void sl_vadd(double &a, const double2 v)
{
    a = a + v.x; a = a + v.y;
}

/* ---- loads narrower than 16 bytes (vec4's load-width sweep): VB = 2, 4 or 8 bytes of X as raw
 * words, loaded with the same streaming read-only load; lane k of them as X; their in-order add.
 * sl_load_of<X, VB> picks the 16-byte vector above for VB = 16, these otherwise, so a kernel is
 * written once for every width. */
template <int VB> struct sl_nv { unsigned w[VB / 4]; };   /* VB = 4, 8 */
template <> struct sl_nv<2> { unsigned short h; };
__device__ __forceinline__ sl_nv<2> sl_ldn(const sl_nv<2> *p)
{
    sl_nv<2> r;
    asm volatile("ld.global.nc.L1::no_allocate.u16 %0, [%1];" : "=h"(r.h) : "l"(p));
    return r;
}
__device__ __forceinline__ sl_nv<4> sl_ldn(const sl_nv<4> *p)
{
    sl_nv<4> r;
    asm volatile("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(r.w[0]) : "l"(p));
    return r;
}
__device__ __forceinline__ sl_nv<8> sl_ldn(const sl_nv<8> *p)
{
    sl_nv<8> r;
    asm volatile("ld.global.nc.L1::no_allocate.v2.u32 {%0,%1}, [%2];" : "=r"(r.w[0]), "=r"(r.w[1]) : "l"(p));
    return r;
}
/* Lane k of VB raw bytes read as X (element 0 at the lowest address, little-endian). */
template <typename X> struct sl_nv_lane;
template <> struct sl_nv_lane<float> {
    template <int VB> static __device__ __forceinline__ float get(const sl_nv<VB> &v, int k) { return __uint_as_float(v.w[k]); }
};
template <> struct sl_nv_lane<double> {
    static __device__ __forceinline__ double get(const sl_nv<8> &v, int) { return __hiloint2double((int)v.w[1], (int)v.w[0]); }
};
template <typename H> struct sl_nv_lane16 {
    static __device__ __forceinline__ H get(const sl_nv<2> &v, int) { H h; sl_from_bits(v.h, h); return h; }
    template <int VB> static __device__ __forceinline__ H get(const sl_nv<VB> &v, int k)
    {
        H h;
        sl_from_bits((unsigned short)((k & 1) ? v.w[k >> 1] >> 16 : v.w[k >> 1] & 0xffffu), h);
        return h;
    }
};
template <> struct sl_nv_lane<__half> : sl_nv_lane16<__half> {};
template <> struct sl_nv_lane<__nv_bfloat16> : sl_nv_lane16<__nv_bfloat16> {};

template <typename X, int VB> struct sl_load_of {
    typedef sl_nv<VB> V;
    static_assert(sizeof(V) == VB && VB >= (int)sizeof(X), "load width");
    static __device__ __forceinline__ V ld(const V *p) { return sl_ldn(p); }
    template <typename T> static __device__ __forceinline__ void add(T &a, const V &v)
    {
#pragma unroll
        for (int k = 0; k < VB / (int)sizeof(X); k++) a = a + sl_acc_of<T>(sl_nv_lane<X>::get(v, k));
    }
};
template <typename X> struct sl_load_of<X, 16> {
    typedef typename sl_vec<X>::type V;
    static __device__ __forceinline__ V ld(const V *p) { return sl_ldv(p); }
    template <typename T> static __device__ __forceinline__ void add(T &a, const V &v) { sl_vadd(a, v); }
};

#endif

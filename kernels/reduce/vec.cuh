/* reduce/vec.cuh: thread scope: the 16-byte vector of an element type (float4 / double2), its
 * lanes, its streaming read-only load and its in-order add. The split of x into head, vectors
 * and tail is sl_layout.h's (shared with the twins). */
#ifndef SL_REDUCE_VEC_CUH
#define SL_REDUCE_VEC_CUH
#include <cuda_runtime.h>

template <typename T> struct sl_vec;
template <> struct sl_vec<float> { typedef float4 type; enum { W = 4 }; };
template <> struct sl_vec<double> { typedef double2 type; enum { W = 2 }; };

/* Lane k of a vector (k a compile-time constant after unrolling). */
__device__ __forceinline__ float sl_vec_lane(const float4 &v, int k)
{
    return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}
__device__ __forceinline__ double sl_vec_lane(const double2 &v, int k) { return k == 0 ? v.x : v.y; }

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

/* a = a + v.x, then + v.y (+ v.z, + v.w): the lanes in order into one accumulator. */
__device__ __forceinline__ void sl_vadd(float &a, const float4 v)
{
    a = a + v.x; a = a + v.y; a = a + v.z; a = a + v.w;
}
__device__ __forceinline__ void sl_vadd(double &a, const double2 v)
{
    a = a + v.x; a = a + v.y;
}

#endif

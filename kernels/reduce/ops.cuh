/* reduce/ops.cuh: thread scope: the combine operations the warp, block and grid reductions are
 * generic over: a plain add (sl_op_plain) and a compensated pair (sl_op_pair). CPU mirrors in
 * sl_twin.h: sl_tw_add and sl_tw_pair_add.
 * Floating-point assumptions: IEEE adds rounded to nearest even, no FTZ, no contraction
 * (--fmad=false -ftz=false); nvcc never reassociates. Each add() is a fixed sequence of adds.
 *
 * An operation Op provides: A (the value combined), zero() (the padding value, +0 or (+0,+0)),
 * add(a, b), shfl(v, off) (__shfl_down_sync of a whole value), load_cg(p) (an L2 load, never a
 * stale L1 line: for partials written by other blocks) and store(p, v). */
#ifndef SL_REDUCE_OPS_CUH
#define SL_REDUCE_OPS_CUH
#include <cuda_runtime.h>

#define SL_FULL_MASK 0xffffffffu

/* An out-of-line device function: external linkage in whole-program compilation (as ptxas has
 * always compiled the kernels), internal under -rdc (superacc64.cu), where ptxas must otherwise
 * compile a callee with its own register count, above what a launch-bounded caller may use. */
#ifdef __CUDACC_RDC__
#define SL_NOINLINE static __device__ __noinline__
#else
#define SL_NOINLINE __device__ __noinline__
#endif
/* The same, defined in a header that several whole-program .cu files of one library include
 * (superacc/superacc.cuh): `inline` lets the linker merge the host-side copies. */
#define SL_NOINLINE_SHARED inline SL_NOINLINE

/* a + b. */
template <typename T> struct sl_op_plain {
    typedef T A;
    static __device__ __forceinline__ A zero() { return T(0); }
    static __device__ __forceinline__ A add(A a, A b) { return a + b; }
    static __device__ __forceinline__ A shfl(A v, int off)
    {
        return __shfl_down_sync(SL_FULL_MASK, v, off);
    }
    static __device__ __forceinline__ void store(A *p, A v) { *p = v; }
    static __device__ __forceinline__ A load_cg(const A *p) { return __ldcg(p); }
};

/* Compensated pairs (s, e) with s + e ~ value: (s1,e1) + (s2,e2): s = s1+s2, bp = s-s1,
 * err = (s1-(s-bp)) + (s2-bp) (TwoSum, exact), e = err + (e1 + e2). */
template <typename T> struct sl_pair { T s, e; };

template <typename T> struct sl_op_pair {
    typedef sl_pair<T> A;
    static __device__ __forceinline__ A zero() { A r; r.s = T(0); r.e = T(0); return r; }
    static __device__ __forceinline__ A add(A a, A b)
    {
        A r;
        T s = a.s + b.s;
        T bp = s - a.s;
        T err = (a.s - (s - bp)) + (b.s - bp);
        T ee = a.e + b.e;
        r.s = s;
        r.e = err + ee;
        return r;
    }
    static __device__ __forceinline__ A shfl(A v, int off)
    {
        A r;
        r.s = __shfl_down_sync(SL_FULL_MASK, v.s, off);
        r.e = __shfl_down_sync(SL_FULL_MASK, v.e, off);
        return r;
    }
    static __device__ __forceinline__ void store(A *p, A v) { p->s = v.s; p->e = v.e; }
    static __device__ __forceinline__ A load_cg(const A *p)
    {
        A r;
        r.s = __ldcg(&p->s);
        r.e = __ldcg(&p->e);
        return r;
    }
};

#endif

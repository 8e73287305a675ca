/* reduce/acc.cuh: the accumulator policies the plain kernels (moments.cu, dot.cu, norm.cu) are
 * generic over, and the host-side dispatch of a launch by input format and accumulator format.
 * Rounding policies: every accumulator operation's result passes through R::r; sl_rnd_none
 * keeps it, sl_rnd_f16 / sl_rnd_bf16 (half-acc: float32 values that are float16 / bfloat16
 * values) round each result once to the 16-bit format. */
#ifndef SL_REDUCE_ACC_CUH
#define SL_REDUCE_ACC_CUH
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "sumlab/types.h"

struct sl_rnd_none {
    template <typename T> static __device__ __forceinline__ T r(T a) { return a; }
};
struct sl_rnd_f16 {
    static __device__ __forceinline__ float r(float a) { return __half2float(__float2half_rn(a)); }
};
struct sl_rnd_bf16 {
    static __device__ __forceinline__ float r(float a) { return __bfloat162float(__float2bfloat16_rn(a)); }
};

/* A type as a value, for sl_acc_dispatch's generic lambdas: SL_TAG_T(t) names it back. */
template <typename T> struct sl_tag { typedef T type; };
#define SL_TAG_T(t) typename decltype(t)::type

/* launch(sl_tag<In>, sl_tag<Acc>, sl_tag<R>) for input format dt and accumulator format acc
 * (sl_variant_acc's): float64 in double; float32 in float or double; float16 / bfloat16 in
 * double (acc float64), in float rounded to the input's format after every operation (acc the
 * input's own format: half-acc), else in float. Its value, or -1 with err set for an unknown
 * dtype (name: the variant's, for the message). */
template <typename L>
static int sl_acc_dispatch(sl_dtype dt, sl_dtype acc, const char *name, sl_err *err, L launch)
{
    switch (dt) {
    case SL_F64: return launch(sl_tag<double>(), sl_tag<double>(), sl_tag<sl_rnd_none>());
    case SL_F32:
        return acc == SL_F64 ? launch(sl_tag<float>(), sl_tag<double>(), sl_tag<sl_rnd_none>())
                             : launch(sl_tag<float>(), sl_tag<float>(), sl_tag<sl_rnd_none>());
    case SL_F16:
        return acc == SL_F64   ? launch(sl_tag<__half>(), sl_tag<double>(), sl_tag<sl_rnd_none>())
               : acc == SL_F16 ? launch(sl_tag<__half>(), sl_tag<float>(), sl_tag<sl_rnd_f16>())
                               : launch(sl_tag<__half>(), sl_tag<float>(), sl_tag<sl_rnd_none>());
    case SL_BF16:
        return acc == SL_F64    ? launch(sl_tag<__nv_bfloat16>(), sl_tag<double>(), sl_tag<sl_rnd_none>())
               : acc == SL_BF16 ? launch(sl_tag<__nv_bfloat16>(), sl_tag<float>(), sl_tag<sl_rnd_bf16>())
                                : launch(sl_tag<__nv_bfloat16>(), sl_tag<float>(), sl_tag<sl_rnd_none>());
    }
    return sl_err_set(err, "%s: unknown dtype %d", name, (int)dt);
}

#endif

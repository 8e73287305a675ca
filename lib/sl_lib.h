/* sl_lib.h: what the files of libsumlab share (not installed): the state's layout, argument
 * checks common to the host and device calls, and the status/err helpers. */
#ifndef SL_LIB_H
#define SL_LIB_H
#include "sumlab/sumlab.h"
#include "sl_lib_state.h"
#include "sl_ops.h"
#include "sl_variants.h"

#if defined(__GNUC__)
#define SL_LIB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SL_LIB_PRINTF(a, b)
#endif

/* Fills err (when not NULL) and returns st. */
sumlab_status sl_lib_fail(sumlab_status st, sl_err *err, const char *fmt, ...) SL_LIB_PRINTF(3, 4);

/* The checks every reduce call makes (sumlab.h's argument rules): *opp and *vp on success. */
sumlab_status sl_lib_check_call(const char *op, const char *variant, const void *x, const void *y,
                                uint64_t n, sl_dtype dt, const sl_operation **opp,
                                const sl_variant **vp, sl_err *err);
/* The launch configuration of a request (sm_count 0 stays 0 here: the caller fills it). */
/* The launch request and the operation's parameters (NULL: the defaults) as an sl_launch. */
void sl_lib_launch(const sumlab_launch *launch, const sl_op_params *params, sl_launch *cfg);
/* params checked into out (NULL: the defaults). */
sumlab_status sl_lib_params(const sumlab_params *p, sl_op_params *out, sl_err *err);
/* The launch request's limits, as the CLI's --block/--grid/--items take them: block a power of
 * two in [32, 1024], grid below 2^31, items at most 2^20 (0: the variant's default). */
sumlab_status sl_lib_launch_check(const sumlab_launch *launch, sl_err *err);
/* Adds n host values of the state's dtype to s. */
sumlab_status sl_lib_state_add_host(sumlab_state *s, const void *x, uint64_t n, sl_err *err);

#define SL_LIB_MAX_N ((uint64_t)1 << 40)   /* n < 2^40: what every variant and state is sized for */

#ifdef SUMLAB_HAVE_CUDA
/* Every CUDA call checked: on failure fill err with the call, file and line, and return
 * SUMLAB_ECUDA (after `cleanup`, a statement run first). Needs cuda_runtime_api.h. */
#define LIB_CK(call, cleanup)                                                                    \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            cleanup;                                                                             \
            return sl_lib_fail(SUMLAB_ECUDA, err, "CUDA error %s (%s) at %s:%d: %s",             \
                               cudaGetErrorName(e_), cudaGetErrorString(e_), __FILE__, __LINE__, \
                               #call);                                                           \
        }                                                                                        \
    } while (0)
/* p must be device or managed memory of `device` (device.c); what names it in the message. */
sumlab_status sl_lib_device_ptr(const void *p, int device, const char *what, sl_err *err);
#endif

#endif

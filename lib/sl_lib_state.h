/* sl_lib_state.h: the layout of a sumlab_state (not installed), shared by libsumlab and
 * libsumlab_mpi: a framed state of experiments/mpi/sl_state.h (header + canonical payload). */
#ifndef SL_LIB_STATE_H
#define SL_LIB_STATE_H
#include "sumlab/sumlab.h"
#include "sl_state.h"

struct sumlab_state {
    const sl_state_kind *kind;
    sl_dtype dt;
    size_t bytes;              /* sl_state_blob_bytes(kind, dt) */
    unsigned char *blob;
};

#endif

/* reduce/reduce.cuh: the device building blocks every family's .cu includes, split by scope as in
 * CUB (one header each under reduce/): ops.cuh, vec.cuh and walk.cuh (thread: combine operations,
 * 16-byte loads, a thread's walk over its vectors and edge values), warp.cuh, block.cuh (and its barriers), grid.cuh (arrival ticket, single-launch
 * finish), launch.cuh (host side: CUDA checks, launch and workspace checks). CPU mirrors:
 * sl_twin.h.
 *
 * Floating-point assumptions: IEEE binary32/binary64 adds (binary16/bfloat16 for half-acc)
 * rounded to nearest even, no flush
 * to zero (-ftz=false), no contraction (--fmad=false); nvcc never reassociates adds. Every
 * helper performs a fixed sequence of adds, documented next to it and mirrored in sl_twin.c.
 * Requirements: blockDim.x a multiple of 32, at most 1024 (resolve() guarantees it). */
#ifndef SL_REDUCE_CUH
#define SL_REDUCE_CUH
#include "reduce/ops.cuh"
#include "reduce/vec.cuh"
#include "reduce/walk.cuh"
#include "reduce/warp.cuh"
#include "reduce/block.cuh"
#include "reduce/grid.cuh"
#include "reduce/launch.cuh"
#include "sl_variant_impl.h"
#endif

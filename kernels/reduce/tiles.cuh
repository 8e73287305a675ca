/* reduce/tiles.cuh: one thread's tiles of 16-byte vectors: nv vectors from xv taken in tiles of
 * U vectors per thread (a tile: T U vectors, thread t's are base, base + T, ..., base + (U - 1) T,
 * base = tile T U + t), the tiles part, part + S, ... (a grid: part = blockIdx, S = gridDim; a
 * row split over S blocks: the row's part). A whole tile loads its U vectors (ld) before fu sees
 * any (U loads in flight); the last, partial tile hands each of the thread's vectors that exists
 * to f1 (a bounds check per vector); fs() runs after every tile (a drain, a capacity or
 * normalisation step: at the same tile in every thread of the block). The trip count depends on
 * nv, T, part and S only (uniform over the threads that share them: barriers in fs are safe).
 * The order of the calls is the order a twin mirrors. reduce/walk.cuh's sl_walk is the strided
 * form (a thread's vectors t, t + T, ...). */
#ifndef SL_REDUCE_TILES_CUH
#define SL_REDUCE_TILES_CUH
#include <stdint.h>

/* The tiling of nv vectors over T threads, U vectors a thread: T U vectors a tile, ntiles tiles
 * (the last one partial when T U does not divide nv). */
struct sl_tiling {
    uint64_t nv, per_tile, ntiles;
    unsigned T;
};
template <int U>
__device__ __forceinline__ sl_tiling sl_tiling_of(uint64_t nv, unsigned T)
{
    sl_tiling tl;
    tl.nv = nv;
    tl.T = T;
    tl.per_tile = (uint64_t)T * U;
    tl.ntiles = (nv + tl.per_tile - 1) / tl.per_tile;
    return tl;
}

/* Thread t's tiles part, part + S, ... of tl over xv: fu(r) with r[0..U) a whole tile's vectors,
 * f1(v) for each of the partial tile's, fs() after every tile. */
template <int U, typename V, typename LD, typename FU, typename F1, typename FS>
__device__ __forceinline__ void sl_tiles(const V *__restrict__ xv, const sl_tiling &tl, unsigned t, unsigned part,
                                         unsigned S, LD ld, FU fu, F1 f1, FS fs)
{
    const uint64_t nv = tl.nv, per_tile = tl.per_tile;
    const unsigned T = tl.T;
    for (uint64_t tile = part; tile < tl.ntiles; tile += S) {
        const uint64_t base = tile * per_tile + t;
        if ((tile + 1) * per_tile <= nv) {           /* uniform over the tile's threads */
            V r[U];
#pragma unroll
            for (int u = 0; u < U; u++) r[u] = ld(xv + base + (uint64_t)u * T);
            fu(r);
        } else {
            for (int u = 0; u < U; u++)
                if (base + (uint64_t)u * T < nv) f1(ld(xv + base + (uint64_t)u * T));
        }
        fs();
    }
}

#endif

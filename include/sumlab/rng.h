/* sumlab/rng.h: the one counter-based random source of sumlab (libraries and tests alike), built on
 * SplitMix64's output function. Value i of a stream depends only on its key and i, so every
 * machine and every n give the same values. Header-only (public C API). */
#ifndef SL_RNG_H
#define SL_RNG_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SL_GOLDEN 0x9E3779B97F4A7C15ull   /* SplitMix64's increment (2^64 / golden ratio) */

/* SplitMix64's output function (a bijection of 64-bit words). */
static inline uint64_t sl_mix64(uint64_t z)
{
    z ^= z >> 30;
    z *= 0xBF58476D1CE4E5B9ull;
    z ^= z >> 27;
    z *= 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z;
}

/* Value `counter` of the stream keyed `key`: SplitMix64's (counter+1)-th output from state key. */
static inline uint64_t sl_hash64(uint64_t key, uint64_t counter)
{
    return sl_mix64(key + (counter + 1u) * SL_GOLDEN);
}

/* Sequential form: advances *state and returns the next SplitMix64 output. */
static inline uint64_t sl_splitmix64(uint64_t *state)
{
    *state += SL_GOLDEN;
    return sl_mix64(*state);
}

/* A uniform double in [0, 1) from the top 53 bits of u (exact). */
static inline double sl_unit53(uint64_t u) { return (double)(u >> 11) * 0x1p-53; }

#ifdef __cplusplus
}
#endif
#endif

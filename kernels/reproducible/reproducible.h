/* reproducible/reproducible.h: the `reproducible` family's state API over the binned sum
 * (exact/binned.h): the twin's accumulation into a state (also what a multi-rank run merges)
 * and the sum of an array. Defined in reproducible.c. Internal to kernels/. */
#ifndef SL_REPRODUCIBLE_H
#define SL_REPRODUCIBLE_H
#include "exact/binned.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds x[0..n) (any order of calls, any split) into st. Returns 0, or -1 for n >= 2^40. */
int sl_rsum_add(sl_rsum_state *st, const void *x, uint64_t n, sl_dtype dt);
/* The sum of an array: sl_rsum_add into an empty state, sl_rsum_state_round (the twin). */
double sl_rsum_sum(const void *x, uint64_t n, sl_dtype dt);

#ifdef __cplusplus
}
#endif
#endif

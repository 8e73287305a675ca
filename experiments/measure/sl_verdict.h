/* sl_verdict.h: the one self-check verdict of a measured result, decided once here and called by
 * `sum`, `bench` (GPU and CPU), the MPI sum and the report: a GPU result that differs from its CPU
 * twin bit for bit; several distinct results from a variant documented as deterministic; a result
 * outside its variant's a-priori bound (a non-finite one against a finite exact result and a
 * finite bound is named as such); a correctly rounded variant whose result is not the exact
 * result rounded once. Each failure comes with its one-line message. */
#ifndef SL_VERDICT_H
#define SL_VERDICT_H
#include "sl_measure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What was measured of one variant on one input: the facts the verdict decides on. */
typedef struct {
    const char *variant;       /* its name, for the message */
    const char *where;         /* "gpu", "cpu", "rank 2"... (NULL: not said) */
    sl_determinism claim;      /* the documented class */
    int repeated;              /* 1 when the runs counted in distinct must agree if the variant is
                                  deterministic (GPU repetitions; not the CPU twins of
                                  nondeterministic variants, which draw a new order each run) */
    uint64_t distinct;         /* distinct bit patterns over reps results */
    int reps;
    int twin_checked, twin_match;
    double result;             /* the first result */
    double worst_abs_err;      /* the largest |result - S| over the runs (NaN-aware) */
    double bound;              /* a-priori absolute bound (NaN: none) */
    int nonfinite;             /* 1 when some result is Inf or NaN */
    int all_rounded;           /* 1 when every result equals S rounded once (bits; NaN as NaN) */
} sl_verdict_facts;

/* The failed checks: a count and their messages joined by "; ". */
#define SL_VERDICT_MAX 4
typedef struct {
    int failed;                              /* how many checks failed (0: ok) */
    char msg[SL_VERDICT_MAX][SL_ERRLEN / 2]; /* one line each: "SELF-CHECK FAILED: ..." */
} sl_verdict;

/* Decides f against ref (the input's exact reference). Returns out->failed. */
int sl_verdict_decide(const sl_reference *ref, const sl_verdict_facts *f, sl_verdict *out);
/* The facts of a measured, judged row of v (sl_measure): the GPU's repetitions count as
 * repeated, a CPU twin's only when v is deterministic. */
void sl_verdict_facts_of_row(const sl_reference *ref, const sl_variant *v, const sl_row *row,
                             sl_verdict_facts *f);
/* The facts of R results r[0..reps) of v at the resolved cfg (bench, which keeps no row). */
void sl_verdict_facts_of_results(const sl_reference *ref, const sl_variant *v, uint64_t n,
                                 sl_dtype dt, const sl_launch *cfg, const double *r, int reps,
                                 int repeated, sl_verdict_facts *f);

#ifdef __cplusplus
}
#endif
#endif

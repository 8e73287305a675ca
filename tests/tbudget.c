/* tbudget.c: sl_budget_reps, the repetition count a device-time budget leaves to a GPU row
 * (experiments/measure/measure.c): the arithmetic behind every capped row of a GPU study, checked
 * where no GPU is needed. */
#include "sl_measure.h"
#include "sl_test.h"

static void expect(double budget, double first, int reps, int min_reps, int want)
{
    const int got = sl_budget_reps(budget, first, reps, min_reps);
    sl_test_checks++;
    if (got != want) {
        sl_test_failures++;
        fprintf(stderr, "FAIL: sl_budget_reps(%g ms, first %g ms, %d reps, min %d) = %d, want %d\n",
                budget, first, reps, min_reps, got, want);
    }
}

int main(void)
{
    /* no budget: every repetition */
    expect(0, 470, 10, 1, 10);
    expect(0, 0.1, 100, 3, 100);
    /* the sweeps: atomic-thread at 2^24 (~30 ms) gets 5 of 10 in 150 ms, at 2^28 (~470 ms) one */
    expect(150, 30, 10, 1, 5);
    expect(150, 470, 10, 1, 1);
    /* a deterministic variant: 50 ms; serial at 2^26 (~340 ms) once, a fast kernel all 3 */
    expect(50, 340, 3, 1, 1);
    expect(50, 0.25, 3, 1, 3);
    /* the determinism experiment: at least 3 even when one run fills the budget */
    expect(300, 340, 100, 3, 3);
    expect(500, 30, 100, 3, 16);
    /* never more than asked, never fewer than one, a floor above reps capped at reps */
    expect(1e9, 1e-6, 7, 1, 7);
    expect(150, 30, 2, 3, 2);
    expect(150, 1e9, 5, 0, 1);
    /* an unmeasurable first run (0 ms) leaves every repetition */
    expect(150, 0, 9, 1, 9);
    printf("tbudget: %ld checks, %ld failed\n", sl_test_checks, sl_test_failures);
    return sl_test_failures ? 1 : 0;
}

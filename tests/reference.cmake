# tests/reference.cmake: tests of reference/ (superaccumulator vs mpfr_sum bit for bit, edge
# cases, metrics) and of the reference on every dataset family of the registry.
sl_add_test(NAME treference SOURCES treference.c LABELS cpu TIMEOUT 120 LIBS sumlab_reference sumlab_mpfr)
sl_add_test(NAME tref_datasets SOURCES tref_datasets.c LABELS cpu TIMEOUT 120
            LIBS sumlab_reference sumlab_datasets sumlab_mpfr)
# the exact sum printed exactly, and values computed elsewhere judged against it
sl_add_test(NAME tjudge SOURCES tjudge.c LABELS cpu TIMEOUT 60)
# the fast path (long pieces) against mpfr_sum and against the bins path, edge cases
sl_add_test(NAME tref_fast SOURCES tref_fast.c LABELS cpu TIMEOUT 120
            LIBS sumlab_reference sumlab_datasets sumlab_mpfr)

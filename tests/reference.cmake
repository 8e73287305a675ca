# tests/reference.cmake: tests of reference/ (superaccumulator vs mpfr_sum bit for bit, edge
# cases, metrics) and of the reference on every dataset family of the registry.
sl_add_test(NAME treference SOURCES treference.c LABELS cpu TIMEOUT 120 LIBS sumlab_reference sumlab_mpfr)
sl_add_test(NAME tref_datasets SOURCES tref_datasets.c LABELS cpu TIMEOUT 120
            LIBS sumlab_reference sumlab_datasets sumlab_mpfr)
# the exact sum printed exactly, and values computed elsewhere judged against it
sl_add_test(NAME tjudge SOURCES tjudge.c LABELS cpu TIMEOUT 60)
# float16/bfloat16: conversions over every pattern vs MPFR and the NumPy/ml_dtypes fixtures,
# their .npy/raw files, the exact sum rounded to them vs mpfr_sum, edge cases, metrics
sl_add_test(NAME thalf SOURCES thalf.c LABELS cpu TIMEOUT 120
            LIBS sumlab_reference sumlab_datasets sumlab_mpfr)
# the fast path (long pieces) against mpfr_sum and against the bins path, edge cases
sl_add_test(NAME tref_fast SOURCES tref_fast.c LABELS cpu TIMEOUT 120
            LIBS sumlab_reference sumlab_datasets sumlab_mpfr)
# the float64 window path and the wide runs' bins loops: every path (window AVX2/portable,
# bins fast AVX2/SSE2, bins) saves one state, equal to mpfr_sum's; spans, edges, specials
sl_add_test(NAME tref_window SOURCES tref_window.c LABELS cpu TIMEOUT 300
            LIBS sumlab_reference sumlab_mpfr)
sl_add_test(NAME tops SOURCES tops.c LABELS cpu TIMEOUT 60)

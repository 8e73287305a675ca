# tests/moments.cmake: mean, var, std, max, min: their exact references against GMP rationals
# (every format, random and edge data, every dataset family, ties, specials, ddof, threads), their
# bounds, the CLI.
sl_add_test(NAME tmoments_ref SOURCES tmoments_ref.c LABELS cpu TIMEOUT 300
            LIBS sumlab_reference sumlab_datasets sumlab_mpfr)
# the bounds: hand-computed formulas, a correct variance inside, sequential models of every
# algorithm inside their bound on every data family
sl_add_test(NAME tmoments_bound SOURCES tmoments_bound.c LABELS cpu TIMEOUT 300)
# `sumlab reduce --op var FILE --ddof 1 --variants exact`: result_hex against Python's fractions
add_test(NAME tmoments_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_cli.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tmoments_cli PROPERTIES LABELS cpu TIMEOUT 120)
# the studies of the moments (tiny preset): var/std sweep offset-normal's kappa to each format's
# reach, accuracy-vs-n runs the moment families, overflow/underflow rows in the report's tables,
# mean by ill-conditioned's cond, max's zero-fill a bound violation on all-negative data
add_test(NAME tmoments_study COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_study.py $<TARGET_FILE:sumlab>)
set_tests_properties(tmoments_study PROPERTIES LABELS cpu TIMEOUT 120)

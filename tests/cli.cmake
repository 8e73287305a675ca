# tests/cli.cmake: the `sumlab` command end to end (CPU backend, SUMLAB_NO_GPU=1).
add_test(NAME tcli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tcli.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tcli PROPERTIES LABELS cpu TIMEOUT 120)
# `sumlab bench --backend cpu`: columns, valid results (exact rows against Python's exact rationals)
add_test(NAME tbench_cpu COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tbench_cpu.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tbench_cpu PROPERTIES LABELS cpu TIMEOUT 300)
# peak RSS bounded as --reps grows (`sum --backend cpu`, `run determinism`) and as `judge --values` lines do
add_test(NAME tmemory COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tmemory.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tmemory PROPERTIES LABELS cpu TIMEOUT 300)
# judge --values in batches: one table whatever the batches (alignment, order, pipes, refusals)
add_test(NAME tjudge_values COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tjudge_values.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tjudge_values PROPERTIES LABELS cpu TIMEOUT 120)

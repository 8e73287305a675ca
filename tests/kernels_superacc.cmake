# tests/kernels_superacc.cmake: the `superacc` variant (exact superaccumulator, rounded once).
# tsuperacc: the CPU twin against mpfr_sum and sl_exact_round, order independence, and a CPU
# model of the kernel's arithmetic. tsuperacc_gpu: GPU == twin across launch configurations.
sl_add_test(NAME tsuperacc SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tsuperacc.c LABELS cpu TIMEOUT 60)
target_link_libraries(tsuperacc PRIVATE sumlab_kernels sumlab_reference sumlab_mpfr)
sl_add_test(NAME tsuperacc_gpu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tsuperacc_gpu.c LABELS gpu TIMEOUT 300)
target_link_libraries(tsuperacc_gpu PRIVATE sumlab_kernels)

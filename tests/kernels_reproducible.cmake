# tests/kernels_reproducible.cmake: the `reproducible` variant (3-fold binned summation).
# treproducible: the twin's bits under permutations, launch configurations (a CPU model of the
# kernel's decomposition) and splits merged through the state; the binned bound on every dataset
# family; special values. GPU == twin is tgpu_twins' job, permutations on the GPU tgpu_determinism's.
sl_add_test(NAME treproducible SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/treproducible.c LABELS cpu TIMEOUT 120)
target_link_libraries(treproducible PRIVATE sumlab_kernels sumlab_reference sumlab_mpfr)

# kernels_ladder.cmake: tests of the optimisation ladder (atomic-thread .. vec4) CPU twins.
# The GPU-vs-twin bit-exact tests over the whole registry live with the accuracy variants.
sl_add_test(NAME tladder SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tladder.c LABELS cpu TIMEOUT 60)

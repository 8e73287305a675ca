# tests/threads.cmake: the host thread count changes no row, column or byte (run, sum, gen).
find_program(SL_BASH bash REQUIRED)
add_test(NAME tthreads COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tthreads.sh
         $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
set_tests_properties(tthreads PROPERTIES LABELS "cpu" TIMEOUT 600)
# the same on the GPU backend for the accuracy sweeps (pipelined inputs, warm-up once per variant)
add_test(NAME tgpu_threads COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_threads.sh
         $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
set_tests_properties(tgpu_threads PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77 TIMEOUT 300)

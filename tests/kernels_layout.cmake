# tests/kernels_layout.cmake: kernels/'s layout rules (path-qualified includes, families above
# reduce/ and exact/ only, no getenv outside the harness): tests/tkernels_layout.sh.
find_program(SL_BASH bash REQUIRED)
add_test(NAME tkernels_layout COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tkernels_layout.sh
         ${PROJECT_SOURCE_DIR})
set_tests_properties(tkernels_layout PROPERTIES LABELS "cpu" TIMEOUT 60)

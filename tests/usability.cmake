# tests/usability.cmake: issue 12's CLI and report details end to end (tusability.sh).
find_program(SL_BASH bash REQUIRED)
add_test(NAME tusability COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tusability.sh
         $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
set_tests_properties(tusability PROPERTIES LABELS "cpu" TIMEOUT 300)

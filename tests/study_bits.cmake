# tests/study_bits.cmake: the quick CPU study's bit patterns, key for key, against the stored file.
find_program(SL_BASH bash REQUIRED)
add_test(NAME tstudy_bits COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tstudy_bits.sh
         $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
set_tests_properties(tstudy_bits PROPERTIES LABELS "cpu" TIMEOUT 600)

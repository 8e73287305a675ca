# tests/docs.cmake: the documents and the committed measurements: links that resolve, the --help
# blocks of docs/cli.md equal to the binary's text, the measured-data policy
# (experiments/measured/README.md), gzipped results read as plain ones, and the device pass
# script's deadline (tests/gpu_session.sh SESSION_SECONDS).
find_program(SL_BASH bash REQUIRED)
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  set(Python3_EXECUTABLE python3)
endif()
add_test(NAME tdoc_links COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tdoc_links.py ${PROJECT_SOURCE_DIR})
add_test(NAME tmeasured_size COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tmeasured_size.sh ${PROJECT_SOURCE_DIR})
add_test(NAME tmeasured_gz COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tmeasured_gz.sh $<TARGET_FILE:sumlab>)
# every `sumlab ... --help` block of docs/cli.md is the binary's text
add_test(NAME tdoc_help COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tdoc_help.py ${PROJECT_SOURCE_DIR}
         $<TARGET_FILE:sumlab>)
set_tests_properties(tdoc_links tmeasured_size tdoc_help PROPERTIES LABELS "cpu" TIMEOUT 60)
set_tests_properties(tmeasured_gz PROPERTIES LABELS "cpu" TIMEOUT 300)
# tests/gpu_session.sh's SESSION_SECONDS deadline, on stub programs (no GPU needed)
add_test(NAME tgpu_session_deadline COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_session_deadline.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(tgpu_session_deadline PROPERTIES LABELS "cpu" TIMEOUT 120)

# tests/html.cmake: report.html rendered by headless Chromium (charts drawn, tables filled and
# sortable, strings escaped; a missing chart or an empty table caught).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME thtml COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/thtml.py
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(thtml PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 400)
endif()

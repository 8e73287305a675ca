# tests/html.cmake: report.html rendered by headless Chromium (charts drawn, tables filled and
# sortable, strings escaped; a missing chart or an empty table caught). Label `browser`, not
# `cpu`: tests/sanitize_cpu.sh leaves it out (its C side, html.c, runs under the sanitizers in
# every test that writes a report); the plain suite runs it.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME thtml COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/thtml.py
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(thtml PROPERTIES LABELS "browser" SKIP_RETURN_CODE 77 TIMEOUT 400)
endif()

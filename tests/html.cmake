# tests/html.cmake: report.html rendered by headless Chromium (charts drawn, inline or linked
# past the page's SVG budget, from a copy of the run directory; the page under 3 MB; tables
# filled and sortable, strings escaped; a missing chart or an empty table caught). Label `browser`, not
# `cpu`: tests/sanitize_cpu.sh leaves it out (its C side, html.c, runs under the sanitizers in
# every test that writes a report); the plain suite runs it.
# thtml_hostile: issue 29's payloads planted in a note and in charts/*.svg; the page holds none
# as live markup (parsed; loaded in Chromium where installed). report.html needs cmark-gfm: a
# build without it (SUMLAB_HAVE_CMARK off) writes report.md only and has neither test.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND AND SUMLAB_HAVE_CMARK)
  add_test(NAME thtml COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/thtml.py
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(thtml PROPERTIES LABELS "browser" SKIP_RETURN_CODE 77 TIMEOUT 400)
  add_test(NAME thtml_hostile COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/thtml_hostile.py
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(thtml_hostile PROPERTIES LABELS "browser" TIMEOUT 300)
endif()

# report.html's SVG allow-list: gnuplot's output passes, every active payload does not.
sl_add_test(NAME thtml_svg SOURCES thtml_svg.c LABELS cpu LIBS sumlab_report TIMEOUT 30)

# treport_md: report/table.c's Markdown escaping of data (text and GFM table cells): the exact
# output; sl_report_fit's explicit cut (on a UTF-8 boundary, marked); and where cmark-gfm is built in, hostile and random cells read back by it as typed, the
# row keeping its cells.
sl_add_test(NAME treport_md SOURCES treport_md.c LABELS cpu LIBS sumlab_report TIMEOUT 30)
if(SUMLAB_HAVE_CMARK)
  target_include_directories(treport_md PRIVATE ${CMARK_GFM_INCLUDE_DIR} ${CMARK_GFM_EXT_INCLUDE_DIR})
  target_link_libraries(treport_md PRIVATE ${CMARK_GFM_EXT_LIBRARY} ${CMARK_GFM_LIBRARY})
  target_compile_definitions(treport_md PRIVATE SUMLAB_HAVE_CMARK=1)
endif()

# treport_long: the longest note (4096 bytes of UTF-8) and names (64 bytes) a checked results.csv
# may hold reach the determinism verdicts whole, in report.md and (with cmark-gfm) report.html.
if(Python3_Interpreter_FOUND)
  add_test(NAME treport_long COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/treport_long.py
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(treport_long PROPERTIES LABELS "cpu" TIMEOUT 300)
endif()

# tlatex / tlatex_compile (issue 36): the report's tables as LaTeX (booktabs) in DIR/tables/:
# escaping of data strings, the frame, the files; they compile with pdflatex where it is
# installed (skip code 77 otherwise).
sl_add_test(NAME tlatex SOURCES tlatex.c LABELS cpu LIBS sumlab_report TIMEOUT 30)
find_program(SL_BASH_TEX bash)
if(SL_BASH_TEX)
  add_test(NAME tlatex_compile COMMAND ${SL_BASH_TEX} ${CMAKE_CURRENT_SOURCE_DIR}/tlatex_compile.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tlatex_compile PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()

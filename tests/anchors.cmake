# tests/anchors.cmake: experiments/anchors/anchors.py on the quick study and on tiny var and lse
# studies (NumPy, ml_dtypes and, where installed, PyTorch and SciPy results judged by sumlab.judge;
# bootstrap.sh installs NumPy and ml_dtypes); skips (77) where NumPy is not installed.
find_program(SL_BASH bash)
if(SL_BASH)
  add_test(NAME tanchors COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tanchors.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tanchors PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
# experiments/anchors/study_anchors.py (issue 36): repeated framework sums of a study's anchor inputs
# judged by `sumlab judge` (several values under one name); absent frameworks reported, not errors
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME tstudy_anchors COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tstudy_anchors.py
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tstudy_anchors PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

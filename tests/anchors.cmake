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
# experiments/anchors/throughput_torch.py and throughput-vs-n's join of its file (the PyTorch
# call's series): usage and run.conf checks, 77 without PyTorch or CUDA, a stand-in torch's file
# joined into results, report and chart data, malformed files left out with a note (CPU backend)
if(SL_BASH)
  add_test(NAME tthroughput_torch COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tthroughput_torch.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tthroughput_torch PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()

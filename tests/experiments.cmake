# tests/experiments.cmake: `sumlab run` / `sumlab compare` end to end on the CPU backend
# (tiny preset): rows, report, charts, resume after an interruption, compare, bad input.
find_program(SL_BASH bash)
if(SL_BASH)
  add_test(NAME texperiments COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/texperiments.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(texperiments PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 300
                       ENVIRONMENT "SUMLAB_NO_GPU=1")
endif()
# treliability: issue 15's findings end to end (lock, start-over, long paths, repairs, signals,
# grid clamp, overflow-edge bounds, write failures, compare, size grammar).
add_test(NAME treliability COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/treliability.sh
         $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
set_tests_properties(treliability PROPERTIES LABELS "cpu" TIMEOUT 300)
if(SL_BASH)
  add_test(NAME tladder_report COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tladder_report.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tladder_report PROPERTIES LABELS "cpu" TIMEOUT 300)
endif()
# trender: plots/render.sh's parallel pool renders the same files and notes as a serial run.
if(SL_BASH)
  add_test(NAME trender COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/trender.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(trender PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
sl_add_test(NAME tbudget SOURCES tbudget.c LABELS cpu TIMEOUT 30)   # the GPU rows' repetition budget, without a GPU
# thostile: a results directory is data (issue 29): planted payloads in results.csv,
# distribution.csv and run.conf run nothing and write nothing outside the run; compare's CSV
# neutralises formulas and its JSON refuses invalid UTF-8; a render under a file size limit or
# killed leaves no partial chart and no scratch folder.
if(SL_BASH)
  add_test(NAME thostile COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/thostile.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(thostile PROPERTIES LABELS "cpu" TIMEOUT 300)
endif()
# tformat_escape: the table writers: CSV formula neutralising (numbers kept), JSON refusing invalid UTF-8.
sl_add_test(NAME tformat_escape SOURCES tformat_escape.c LABELS cpu TIMEOUT 30 LIBS sumlab_results)
# tverdicts: the determinism verdicts come from what was measured (a documented class is a claim).
if(SL_BASH)
  add_test(NAME tverdicts COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tverdicts.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tverdicts PROPERTIES LABELS "cpu" TIMEOUT 120)
endif()
# tselfcheck: the one self-check verdict in results.csv's `check` column and in the report.
add_test(NAME tselfcheck COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tselfcheck.sh $<TARGET_FILE:sumlab>)
set_tests_properties(tselfcheck PROPERTIES LABELS "cpu" TIMEOUT 120)
# tcharts (issue 36, the study as a paper needs it): statistics over instances (median and
# min-max band in the charts, median [min-max] per n in the report, the full preset's 5
# instances per accuracy point).
if(SL_BASH)
  add_test(NAME tcharts COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tcharts.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tcharts PROPERTIES LABELS "cpu" TIMEOUT 300 ENVIRONMENT "SUMLAB_NO_GPU=1")
endif()
# ttargets: experiments/targets.py (the issues' performance targets: plan, judgement of bench CSV
# files, run on a stub sumlab), no GPU needed
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME ttargets COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ttargets.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(ttargets PROPERTIES LABELS "cpu" TIMEOUT 120)
  # tncu_why: experiments/ncu_why.sh/.py (Nsight Compute's counters summed up) on a stub ncu
  add_test(NAME tncu_why COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tncu_why.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(tncu_why PROPERTIES LABELS "cpu" TIMEOUT 60)
  # tsass_compare: experiments/sass_compare.py (two trees' SASS function by function) on made-up
  # listings, and sass_same.sh's refusals; no GPU, no cuobjdump needed
  add_test(NAME tsass_compare COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tsass_compare.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(tsass_compare PROPERTIES LABELS "cpu" TIMEOUT 60)
endif()

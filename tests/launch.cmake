# tests/launch.cmake: the launch-config experiment (issue 38).
#   tlaunch      (cpu) every swept point's twin within the bound of its tree; requests honoured;
#                invalid requests refused with a clear message; labels; opt-in
#   tgpu_launch  (gpu) kernel == twin bit for bit at every swept point (77 without a GPU)
#   tlaunch_run  (cpu) `sumlab run launch-config` on the CPU backend: rows and launch.csv's columns
sl_add_test(NAME tlaunch SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlaunch.c LABELS cpu TIMEOUT 300 LIBS sumlab_study)
sl_add_test(NAME tgpu_launch SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_launch.c LABELS gpu TIMEOUT 600 LIBS sumlab_study)
find_program(SL_BASH bash)
if(SL_BASH)
  add_test(NAME tlaunch_run COMMAND ${SL_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/tlaunch_run.sh
           $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
  set_tests_properties(tlaunch_run PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77 TIMEOUT 300
                       ENVIRONMENT "SUMLAB_NO_GPU=1;SUMLAB_NO_CHARTS=1")
endif()

# tests/fuzz.cmake: the fuzz targets of tests/fuzz/ (one per reader and parser). Always: a
# replay test per target (tfuzz_<t>: its seed corpus and regression inputs run once, label
# cpu). With -DSUMLAB_FUZZ=ON and clang: the libFuzzer binaries fuzz_<t> that tests/fuzz.sh
# runs as a bounded campaign (the libraries then need -fsanitize=...,fuzzer-no-link).
option(SUMLAB_FUZZ "Build the libFuzzer targets (clang)" OFF)
set(SL_FUZZ_TARGETS npy npz raw parse resume report)
set(SL_FUZZ_LIBS_npy sumlab_datasets)
set(SL_FUZZ_LIBS_npz sumlab_datasets)
set(SL_FUZZ_LIBS_raw sumlab_datasets)
set(SL_FUZZ_LIBS_parse sumlab_cli)
set(SL_FUZZ_LIBS_resume sumlab_results)
set(SL_FUZZ_LIBS_report sumlab_report)   # run --report-only: check.c, report.md, report.html
foreach(t ${SL_FUZZ_TARGETS})
  set(dirs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${t})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/regress/${t})
    list(APPEND dirs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/regress/${t})
  endif()
  sl_add_test(NAME tfuzz_${t} SOURCES fuzz/replay.c fuzz/fuzz_${t}.c LABELS cpu TIMEOUT 300
              LIBS ${SL_FUZZ_LIBS_${t}} ARGS ${dirs})
  target_include_directories(tfuzz_${t} PRIVATE ${PROJECT_SOURCE_DIR}/datasets)
  target_compile_definitions(tfuzz_${t} PRIVATE _XOPEN_SOURCE=700)
  if(SUMLAB_FUZZ)
    add_executable(fuzz_${t} fuzz/fuzz_${t}.c)
    target_link_libraries(fuzz_${t} PRIVATE ${SL_FUZZ_LIBS_${t}})
    target_include_directories(fuzz_${t} PRIVATE ${PROJECT_SOURCE_DIR}/datasets)
    target_compile_definitions(fuzz_${t} PRIVATE _XOPEN_SOURCE=700 SUMLAB_TEST_SEED=${SUMLAB_TEST_SEED})
    target_compile_options(fuzz_${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer,address,undefined)
  endif()
endforeach()

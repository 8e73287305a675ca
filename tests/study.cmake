# tests/study.cmake: units of study/ on their own (the progress ETA's model on synthetic
# timings, the phase line, the input buffers) and the run's life through `sumlab run`.
sl_add_test(NAME teta SOURCES teta.c LABELS cpu TIMEOUT 30 LIBS sumlab_study)
# thostbuf: the study's input-buffer cache (reuse, capacities, eviction, busy slots, end)
sl_add_test(NAME thostbuf SOURCES thostbuf.c LABELS cpu TIMEOUT 30 LIBS sumlab_study)
# trunlife: the run's life at its edges (study/run.c through `sumlab run`): nothing measured is
# a failure, run directory names that cannot be one are usage errors, --resume takes run.conf's
# experiment
add_test(NAME trunlife COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/trunlife.sh $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
set_tests_properties(trunlife PROPERTIES LABELS cpu TIMEOUT 120)
# tstudy_run: sl_study_run as a library (no CLI, report hooks planted): statuses, resume without
# the experiment, nothing measured, directory checks, the sweep parser
sl_add_test(NAME tstudy_run SOURCES tstudy_run.c LABELS cpu TIMEOUT 60 LIBS sumlab_study)
# tfiles: `run --files A.npy,B.npy` (study/files.c): rows of the user's arrays with their exact
# reference, the sweeps skipping them, refused names and files, dot's pairs, resume with a changed file
add_test(NAME tfiles COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tfiles.sh $<TARGET_FILE:sumlab> ${PROJECT_SOURCE_DIR})
set_tests_properties(tfiles PROPERTIES LABELS cpu TIMEOUT 180)

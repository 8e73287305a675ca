# tests/study.cmake: units of study/ on their own: the progress ETA's model on synthetic
# timings and the phase line.
sl_add_test(NAME teta SOURCES teta.c LABELS cpu TIMEOUT 30 LIBS sumlab_study)

# tests/study.cmake: units of study/ on their own: the progress ETA's model on synthetic
# timings and the phase line.
sl_add_test(NAME teta SOURCES teta.c LABELS cpu TIMEOUT 30 LIBS sumlab_study)
# thostbuf: the study's input-buffer cache (reuse, capacities, eviction, busy slots, end)
sl_add_test(NAME thostbuf SOURCES thostbuf.c LABELS cpu TIMEOUT 30 LIBS sumlab_study)

# tests/aggregates.cmake: a row's repetitions folded as they arrive (sl_rep_agg, stats.c):
# exact figures below the caps, flagged and bounded past them, measured rows in chunks equal to
# their results judged whole.
sl_add_test(NAME tagg SOURCES tagg.c LABELS cpu TIMEOUT 120)

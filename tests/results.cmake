# tests/results.cmake: the results files: column table -> CSV writer -> reader round trip, the
# row key, run.conf and meta.json (cJSON) round trips. Links the results library, not the CLI.
sl_add_test(NAME tresults SOURCES tresults.c LABELS cpu TIMEOUT 60 LIBS sumlab_results)

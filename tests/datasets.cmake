# tests/datasets.cmake: tests of datasets/ (generators, registry, parameters; .npy/raw files).
sl_add_test(NAME tdatasets SOURCES tdatasets.c LABELS cpu TIMEOUT 120 LIBS sumlab_datasets sumlab_mpfr)
sl_add_test(NAME tio SOURCES tio.c LABELS cpu TIMEOUT 60 LIBS sumlab_datasets)

# tests/datasets.cmake: tests of datasets/ (generators, registry, parameters; .npy/.npz/raw files).
sl_add_test(NAME tdatasets SOURCES tdatasets.c LABELS cpu TIMEOUT 120 LIBS sumlab_datasets sumlab_mpfr)
find_package(ZLIB REQUIRED)
sl_add_test(NAME tio SOURCES tio.c LABELS cpu TIMEOUT 60 LIBS sumlab_datasets ZLIB::ZLIB) # crc32 for the zips it builds
sl_add_test(NAME tdatasets_moments SOURCES tdatasets_moments.c LABELS cpu TIMEOUT 120 LIBS sumlab_datasets sumlab_mpfr)

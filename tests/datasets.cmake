# tests/datasets.cmake: tests of datasets/ (generators, registry, parameters; .npy/.npz/raw files).
sl_add_test(NAME tdatasets SOURCES tdatasets.c LABELS cpu TIMEOUT 120)
target_link_libraries(tdatasets PRIVATE sumlab_datasets sumlab_mpfr)
sl_add_test(NAME tio SOURCES tio.c LABELS cpu TIMEOUT 60)
find_package(ZLIB REQUIRED)
target_link_libraries(tio PRIVATE sumlab_datasets ZLIB::ZLIB) # crc32 for the zips it builds

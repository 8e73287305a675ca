# tests/lib.cmake: libsumlab, the public C API (lib/). tlib (cpu): the host side against the layers
# it wraps. tlib_gpu (gpu): sumlab_reduce_device against sumlab_reduce_host bit for bit.
# tlib_mpi (mpi): sumlab_mpi_allreduce_state for K = 1..4 ranks. tlib_consumer (cpu): the
# installed tree (cmake --install) used by tests/consumer/ through find_package and pkg-config.
sl_add_test(NAME tlib SOURCES tlib.c LABELS cpu TIMEOUT 120 LIBS sumlab_lib sumlab_state sumlab_measure)

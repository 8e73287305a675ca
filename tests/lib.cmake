# tests/lib.cmake: libsumlab, the public C API (lib/). tlib (cpu): the host side against the layers
# it wraps. tlib_cli (cpu): the host results equal `sumlab sum --backend cpu`'s rows bit for bit.
# tlib_gpu (gpu): sumlab_reduce_device against sumlab_reduce_host bit for bit.
# tlib_mpi (mpi): sumlab_mpi_allreduce_state and _limbs for K = 1..8 ranks. tlib_consumer (cpu): the
# installed tree (cmake --install) used by tests/consumer/ through find_package and pkg-config.
sl_add_test(NAME tlib SOURCES tlib.c LABELS cpu TIMEOUT 120 LIBS sumlab_lib sumlab_state sumlab_measure)
if(SUMLAB_HAVE_CUDA)
  sl_add_test(NAME tlib_gpu SOURCES tlib_gpu.c LABELS gpu TIMEOUT 600 LIBS sumlab_lib CUDA::cudart)
endif()
if(SUMLAB_HAVE_MPI)
  add_executable(tlib_mpi tlib_mpi.c)
  target_link_libraries(tlib_mpi PRIVATE sumlab_mpi_lib)
  target_include_directories(tlib_mpi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(tlib_mpi PRIVATE SUMLAB_TEST_SEED=${SUMLAB_TEST_SEED})
endif()
add_test(NAME tlib_mpi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tlib_mpi.sh
         $<$<BOOL:${SUMLAB_HAVE_MPI}>:$<TARGET_FILE:tlib_mpi>>$<$<NOT:$<BOOL:${SUMLAB_HAVE_MPI}>>:none>
         "${SUMLAB_HAVE_MPI}" "${SUMLAB_MPIEXEC}")
set_tests_properties(tlib_mpi PROPERTIES LABELS "mpi;cpu" SKIP_RETURN_CODE 77 TIMEOUT 300)
add_test(NAME tlib_consumer COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tlib_consumer.sh ${PROJECT_BINARY_DIR}
         ${PROJECT_SOURCE_DIR} ${CMAKE_COMMAND} ${CMAKE_C_COMPILER} "${SUMLAB_HAVE_MPI}"
         "${CMAKE_C_FLAGS}" "${CMAKE_EXE_LINKER_FLAGS}")
# the NCCL library (built where CUDA and NCCL were found) installs sumlab_nccl.h beside the rest
set(sl_nccl_lib OFF)
if(TARGET sumlab_nccl_lib)
  set(sl_nccl_lib ON)
endif()
set_tests_properties(tlib_consumer PROPERTIES LABELS cpu TIMEOUT 300
                     ENVIRONMENT "SUMLAB_TEST_NCCL_LIB=${sl_nccl_lib}")
add_executable(tlib_cli_prog tlib_cli.c)
target_link_libraries(tlib_cli_prog PRIVATE sumlab_lib)
target_include_directories(tlib_cli_prog PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(tlib_cli_prog PRIVATE SUMLAB_TEST_SEED=${SUMLAB_TEST_SEED})
add_test(NAME tlib_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tlib_cli.sh $<TARGET_FILE:sumlab>
         $<TARGET_FILE:tlib_cli_prog>)
set_tests_properties(tlib_cli PROPERTIES LABELS cpu TIMEOUT 300)

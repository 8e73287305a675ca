# tests/nccl.cmake: the NCCL allreduce of states (lib/nccl.c), only where CUDA and NCCL were found
# (experiments/mpi/nccl.cmake). tnccl (gpu): every visible GPU one rank (K = 1 on one GPU), the
# allreduced bytes equal one state over everything; tnccl_tree: the same under NCCL_ALGO=Tree and
# tnccl_ring under NCCL_ALGO=Ring (the bits must not move). 77 without a GPU.
if(TARGET sumlab_nccl_lib)
  sl_add_test(NAME tnccl SOURCES tnccl.c LABELS gpu TIMEOUT 300 LIBS sumlab_nccl_lib CUDA::cudart pthread)
  foreach(algo Tree Ring)
    string(TOLOWER ${algo} a)
    add_test(NAME tnccl_${a} COMMAND tnccl)
    set_tests_properties(tnccl_${a} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300
                         ENVIRONMENT "NCCL_ALGO=${algo};NCCL_NVLS_ENABLE=0")
  endforeach()
  set_tests_properties(tnccl PROPERTIES ENVIRONMENT "NCCL_NVLS_ENABLE=0")
endif()

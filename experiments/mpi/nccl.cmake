# nccl.cmake: finds NCCL (nccl.h and libnccl) for the NCCL parts (libsumlab_nccl, the ranks
# experiment's NCCL rows, tnccl), with CUDA only. Looked for under NCCL_ROOT / NCCL_HOME, the CUDA
# toolkit and Python's nvidia-nccl-cu* wheel (site-packages/nvidia/nccl, what pip installs with
# PyTorch). Not found: the NCCL parts are skipped with a message, never failing the build.
# Result: SUMLAB_HAVE_NCCL and, when ON, the INTERFACE target sumlab_nccl_dep.
option(SUMLAB_ENABLE_NCCL "Build the NCCL parts when CUDA and NCCL are found" ON)
set(SUMLAB_HAVE_NCCL OFF)
if(SUMLAB_ENABLE_NCCL AND SUMLAB_HAVE_CUDA)
  set(sl_nccl_hints $ENV{NCCL_ROOT} $ENV{NCCL_HOME} ${CUDAToolkit_LIBRARY_ROOT})
  if(Python_EXECUTABLE)
    set(sl_py ${Python_EXECUTABLE})
  else()
    find_program(sl_py NAMES python3 python)
  endif()
  if(sl_py)
    execute_process(COMMAND ${sl_py} -c
                    "import nvidia, os; print(';'.join(os.path.join(p, 'nccl') for p in nvidia.__path__))"
                    OUTPUT_VARIABLE sl_nccl_py OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                    RESULT_VARIABLE sl_nccl_rc)
    if(sl_nccl_rc EQUAL 0)
      list(APPEND sl_nccl_hints ${sl_nccl_py})
    endif()
  endif()
  find_path(SUMLAB_NCCL_INCLUDE_DIR nccl.h HINTS ${sl_nccl_hints} ${CUDAToolkit_INCLUDE_DIRS}
            PATH_SUFFIXES include)
  find_library(SUMLAB_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${sl_nccl_hints} ${CUDAToolkit_LIBRARY_DIR}
               PATH_SUFFIXES lib lib64)
  if(SUMLAB_NCCL_INCLUDE_DIR AND SUMLAB_NCCL_LIBRARY)
    set(SUMLAB_HAVE_NCCL ON)
    if(NOT TARGET sumlab_nccl_dep)
      add_library(sumlab_nccl_dep INTERFACE)
      target_include_directories(sumlab_nccl_dep INTERFACE ${SUMLAB_NCCL_INCLUDE_DIR})
      target_link_libraries(sumlab_nccl_dep INTERFACE ${SUMLAB_NCCL_LIBRARY} CUDA::cudart)
    endif()
    message(STATUS "sumlab: NCCL ${SUMLAB_NCCL_LIBRARY} (${SUMLAB_NCCL_INCLUDE_DIR}/nccl.h): NCCL allreduce enabled")
  else()
    message(STATUS "sumlab: no NCCL found (nccl.h, libnccl; NCCL_ROOT or the nvidia-nccl-cu* wheel): "
                   "the NCCL allreduce, its test and the ranks experiment's NCCL rows are skipped")
  endif()
elseif(SUMLAB_ENABLE_NCCL)
  message(STATUS "sumlab: no CUDA: the NCCL allreduce is skipped")
endif()

# tests/python.cmake: the Python package's pytest suite (tests/python/) against the extension
# staged in <build>/python (built when SUMLAB_PYTHON=ON) and the CLI of the same build; the GPU
# tests in it skip without PyTorch/CuPy and a GPU.
if(SUMLAB_PYTHON)
  add_test(NAME tpython
           COMMAND ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/python)
  set_tests_properties(tpython PROPERTIES LABELS cpu TIMEOUT 300
    ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python;SUMLAB_CLI=$<TARGET_FILE:sumlab>;SUMLAB_TEST_SEED=${SUMLAB_TEST_SEED}")
endif()
# tpip_install: `pip install .` (scikit-build-core over this CMake, CPU only, no build isolation)
# into a fresh folder; the installed package sums as the CLI does.
if(SUMLAB_PYTHON)
  add_test(NAME tpip_install COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tpip_install.sh ${PROJECT_SOURCE_DIR}
           $<TARGET_FILE:sumlab>)
  set_tests_properties(tpip_install PROPERTIES LABELS cpu TIMEOUT 900)
endif()
# tdist_files (cpu): sumlab.allreduce across K = 1..4 real processes (spawned), each with its own
# split of float32/float64/bfloat16 inputs, over an mpi4py-like communicator (allgather through
# files): every rank's merged state has the one-process bytes. tdist_torch (cpu): the same over
# torch.distributed (gloo; CUDA tensors too where a GPU is present), skipped (77) without
# PyTorch; tests/gpu_session.sh runs it on the GPU machine. Both also through the integer limbs.
# tdist_nccl (gpu): torch.distributed's NCCL backend, one GPU per rank (K = 1 on one GPU), the
# limbs all_reduced on CUDA tensors; 77 without a GPU or PyTorch.
if(SUMLAB_PYTHON)
  foreach(_b files torch nccl)
    set(_backend ${_b})
    set(_label cpu)
    if(_b STREQUAL "torch")
      set(_backend gloo)
    elseif(_b STREQUAL "nccl")
      set(_label gpu)
    endif()
    add_test(NAME tdist_${_b} COMMAND ${Python_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/python/dist_torch.py
             --backend ${_backend} --n 30011)
    set_tests_properties(tdist_${_b} PROPERTIES LABELS ${_label} TIMEOUT 600 SKIP_RETURN_CODE 77
      ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python;SUMLAB_TEST_SEED=${SUMLAB_TEST_SEED}")
  endforeach()
endif()

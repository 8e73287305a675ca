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

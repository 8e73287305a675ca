# tests/mpi.cmake: sums across ranks (experiments/mpi/). tstate (no MPI): the mergeable states
# split, merged in any order, equal the whole input's. tmpi (label mpi): mpirun --oversubscribe
# -np 1..4 on the CPU backend; skipped (77) only when the build has no MPI.
sl_add_test(NAME tstate SOURCES tstate.c LABELS cpu TIMEOUT 120 LIBS sumlab_state sumlab_measure)
add_test(NAME tmpi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tmpi.sh $<TARGET_FILE:sumlab>
         "${SUMLAB_HAVE_MPI}" "${SUMLAB_MPIEXEC}")
set_tests_properties(tmpi PROPERTIES LABELS "mpi;cpu" SKIP_RETURN_CODE 77 TIMEOUT 300)

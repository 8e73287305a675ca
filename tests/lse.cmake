# lse.cmake: the log-sum-exp operation (issue 33).
#   tlse_math  (cpu) the variants' exp/log (kernels/lse/lse_math.h) against MPFR: <= 2 ulps (online's
#              tile exp: on [-86.5, 0], every 61st float too)
sl_add_test(NAME tlse_math SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlse_math.c LABELS cpu TIMEOUT 120)
#   tlse_ref   (cpu) the reference against plain MPFR at 200 and 400 bits, every format, random and
#              edge data; fast path == MPFR-only path; cond
sl_add_test(NAME tlse_ref SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlse_ref.c LABELS cpu TIMEOUT 300)
#   tlse_twins (cpu) every lse twin within its bound against the reference (every format, logits,
#              shifted, masked, dominant, ascending; three launch shapes) and the special values
sl_add_test(NAME tlse_twins SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlse_twins.c LABELS cpu TIMEOUT 300)
#   tlse_cli   (cpu) sumlab reduce --op lse FILE --variants exact --format csv: result_hex is
#              log(sum exp(x)) from mpmath at 400 bits rounded once (logits, lse-masked files)
add_test(NAME tlse_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tlse_cli.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tlse_cli PROPERTIES LABELS cpu SKIP_RETURN_CODE 77 TIMEOUT 300)
#   tlse_datasets (cpu) logits and lse-masked: spread, shift, dominant, mask shares, causal rows
sl_add_test(NAME tlse_datasets SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlse_datasets.c LABELS cpu TIMEOUT 60)
#   tlse_acc   (cpu) accurate within 1 ulp (float32, 16-bit; float64 within its bound, worst ulps
#              printed) and reproducible within its bound on every dataset family and logits of
#              every spread; reproducible's bits under reversal, sorting, shuffles, launch shapes
#              and host-thread splits; their special values
sl_add_test(NAME tlse_acc SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlse_acc.c LABELS cpu TIMEOUT 300)
#   tlse_study (cpu) `sumlab run all --op lse --preset tiny`: accuracy-vs-cond over the preset's sigmas
#              (sweep column, table and chart name sigma), accuracy-vs-n on lse's families, the
#              report's table of non-finite results where the exact value is finite against counts
#              taken from results.csv (and its one line when there are none)
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  set(Python3_EXECUTABLE python3)
endif()
add_test(NAME tlse_study COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tlse_study.py $<TARGET_FILE:sumlab>)
set_tests_properties(tlse_study PROPERTIES LABELS cpu TIMEOUT 120)
#   tlse_fold  (cpu) reproducible lse's register folds: exact against a 128-bit sum of their terms
#              on the worst sequences the bounds allow; their term equals the bins' over [-16, 16]
sl_add_test(NAME tlse_fold SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlse_fold.c LABELS cpu TIMEOUT 120)

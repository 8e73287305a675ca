# tests/rows.cmake: row-wise reductions (kernels/rows, --axis).
# trows: row i of [B, N] == the 1-D twin of row i for every variant with a twin (B 1 .. 257,
# ragged N), batch invariance of the order-independent and fixed-tree twins, sl_array_rows.
sl_add_test(NAME trows SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/trows.c LABELS cpu TIMEOUT 300)
# trows_cert: superacc's certified row pass (rows/rows_cert.h) on the CPU: its rounding, and the row
# kernel's model and the host form on tie, cancellation, zero, special and ordinary rows: every
# decided row == the exact sum rounded once; the rows that must go to the exact kernel do
sl_add_test(NAME trows_cert SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/trows_cert.c LABELS cpu TIMEOUT 120)
# trows_gpu: the same row at several positions of batches of several sizes on the GPU: one bit
# pattern for the order-independent variants and block-row, GPU rows == twins (77 without a GPU)
sl_add_test(NAME trows_gpu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/trows_gpu.c LABELS gpu TIMEOUT 300)
# trows_cli: `reduce/sum --axis`: the row column, row i == `sum` of row i alone, errors
add_test(NAME trows_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/trows_cli.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(trows_cli PROPERTIES LABELS cpu TIMEOUT 300)
# trows_batch: the batch-invariance experiment (tiny preset, CPU): its CSV and table
add_test(NAME trows_batch COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/trows_batch.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(trows_batch PROPERTIES LABELS cpu TIMEOUT 300)
# tlib_rows: libsumlab's sumlab_reduce_rows_host_ex == sumlab_reduce_host_ex on each row
sl_add_test(NAME tlib_rows SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlib_rows.c LABELS cpu TIMEOUT 120 LIBS sumlab_lib)

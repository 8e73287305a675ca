# tests/dot.cmake: the two-input operation dot: its exact reference against MPFR (every format,
# every product window, IEEE specials), its twins against the reference within their bounds
# (correct == the reference's bits), and the CLI (values, mismatch errors).
sl_add_test(NAME tdot_ref SOURCES tdot_ref.c LABELS cpu TIMEOUT 300
            LIBS sumlab_reference sumlab_mpfr)
sl_add_test(NAME tdot_twins SOURCES tdot_twins.c LABELS cpu TIMEOUT 300)
# `sumlab reduce --op dot X Y --variants exact,correct`: result_hex against Python's fractions; the
# mismatch errors (length, format, missing or extra file); the study's cond sweep and pair families
add_test(NAME tdot_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tdot_cli.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tdot_cli PROPERTIES LABELS cpu TIMEOUT 120)
# the GPU side (label gpu, 77 without a GPU): the cuBLAS anchor within its bound, correct == the
# reference; the kernels against their twins bit for bit: tgpu_twins (SUMLAB_TEST_OPS=dot)
sl_add_test(NAME tdot_gpu SOURCES tdot_gpu.c LABELS gpu TIMEOUT 300)
# correct's certified first step (exact/certified.cuh) and its exact fallback against the twin on
# adversarial pairs (dot-cond to 1e40, dot-overflow, exact cancellation, specials); prints how
# many arrays took each path and requires both
sl_add_test(NAME tdot_cert_gpu SOURCES tdot_cert_gpu.c LABELS gpu TIMEOUT 300)
# the certified step's arithmetic on the host (tcert_common.h): a certified value is the twin's
sl_add_test(NAME tdot_cert_cpu SOURCES tdot_cert_cpu.c LABELS cpu TIMEOUT 300)
# correct's cheap first pass (dot_fast.h) on the host: a certified value is the MPFR reference's;
# random data certifies in every format; cancellations, zeros and specials never; pushed
# accumulators and exact ties exercise the box's bound
sl_add_test(NAME tdot_fast SOURCES tdot_fast.c LABELS cpu TIMEOUT 300
            LIBS sumlab_measure sumlab_mpfr sumlab_datasets)
# the dot and norm2 reproducible kernels' group path (exact/binned.h's sl_rsum_take_products_f64)
# against the twins' value-by-value steps: the same rounded sums, flags and sign
sl_add_test(NAME tbinned_products SOURCES tbinned_products.c LABELS cpu TIMEOUT 120)

# moments_exact.cmake: the `correct` (correctly rounded) mean, var and std (kernels/moments_exact).
#   tmoments_exact (cpu) every twin's bits equal the exact reference's rounded value: every
#                        dataset family, every format, ddof 0 and 1, n = 0 .. 2^16+3, edge data
#                        (zero variance, huge mean, subnormal, overflow, ties, float64 square
#                        ranges, NaN/Inf), random short arrays; where mx_cert.h's certificate
#                        holds (float32, 16-bit), its value is the reference's too.
#   tmoments_exact_gpu (gpu) the kernels against the reference: every family and format, ddof 0
#                        and 1, launch shapes, offsets, large means, forced fallbacks (counted).
#                        GPU == twin: tgpu_twins.
#   tmoments_exact_fast (cpu) mx_fast.h's cheap certified var/std pass: where it certifies, the
#                        reference's bits (uniform, normal, N(1e6,1), huge means, constants,
#                        log-uniform, subnormal, cancellation, a shift/scale fuzz; f32, bf16, f16,
#                        ddof 0 and 1); it certifies >= 95% of the easy families; sums pushed
#                        to 0.99 of the bound certify only the reference's value; the kernel's
#                        reduction shape at 2^20 + 5 certifies N(1e6,1) and N(0,1).
sl_add_test(NAME tmoments_exact SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_exact.c LABELS cpu
            TIMEOUT 300 LIBS sumlab_measure sumlab_mpfr sumlab_datasets)
sl_add_test(NAME tmoments_exact_gpu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_exact_gpu.c LABELS gpu
            TIMEOUT 300 LIBS sumlab_measure sumlab_mpfr sumlab_datasets)
target_link_libraries(tmoments_exact_gpu PRIVATE sumlab_kernels)
sl_add_test(NAME tmoments_exact_fast SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_exact_fast.c LABELS cpu
            TIMEOUT 300 LIBS sumlab_measure sumlab_mpfr sumlab_datasets)
# `sumlab reduce --op var FILE --ddof 1 --variants exact,correct --format csv`: equal result_hex
add_test(NAME tmoments_exact_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_exact_cli.sh
         $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tmoments_exact_cli PROPERTIES LABELS cpu TIMEOUT 120)
#   tmoments_exact_fast64 (cpu) mx_fast64.h's cheap certified float64 var/std pass: where it
#                        certifies, the reference's bits (the families above, 1e100 and 1e-150
#                        means, a shift/scale fuzz over the float64 range, ddof 0 and 1); >= 95% of
#                        the easy families certify; pairs pushed to 0.99 of the bound certify only
#                        the reference's value, exact ties never, a third of the box fails; the
#                        kernel's reduction shape at 2^20 + 5 certifies N(1e6,1) and N(0,1).
sl_add_test(NAME tmoments_exact_fast64 SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_exact_fast64.c LABELS cpu
            TIMEOUT 300 LIBS sumlab_measure sumlab_mpfr sumlab_datasets)

# tests/norm.cmake: the Euclidean norm `norm2` (issue 32): its exact reference, its variants' twins,
# bounds and the CLI.
#   tnorm_ref (cpu) the reference against plain MPFR: every format, random data, the range ends,
#             the issue's cases (2^20 x 1e20 and 1e-25 in float32, float16 > 256), specials
sl_add_test(NAME tnorm_ref SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tnorm_ref.c LABELS cpu TIMEOUT 300
            LIBS sumlab_reference sumlab_mpfr)
#   tnorm_twins (cpu) every norm2 twin against the reference: within its bound on every family
#             (random, squares overflowing/underflowing, subnormals, the norm near the top, DB1NRM2's
#             table), finite where the norm is (scaled, reproducible, correct), correct bit for bit,
#             specials, permutations, splits, three launch shapes; naive's +Inf and 0 on the issue's rows;
#             reproducible on float64 within 2 ulps, its scaled TwoProduct pieces' states under splits
sl_add_test(NAME tnorm_twins SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tnorm_twins.c LABELS cpu TIMEOUT 300)
#   tnorm_cli (cpu) sumlab reduce --op norm2 FILE --variants exact,correct --format csv: result_hex
#             equals sqrt(sum x^2) from Python's integers rounded once (random, 2^20 x 1e20 / 1e-25
#             float32, float16 > 256, float64 1e+-200, an exact tie; reproducible within 2 ulps of
#             it); Inf beside NaN -> inf; the study's accuracy-vs-n on the norm families and its
#             table of non-finite results; the float64 study's reproducible rows finite and checked
add_test(NAME tnorm_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tnorm_cli.sh $<TARGET_FILE:sumlab> ${SUMLAB_TEST_SEED})
set_tests_properties(tnorm_cli PROPERTIES LABELS cpu TIMEOUT 300)
#   tnorm_gpu (gpu) the cuBLAS anchor within 16 ulps and finite on 2^20 x 1e20 / 1e-25 (float32) and
#             1e+-200 (float64), correct's kernel equal to the reference there, reproducible's
#             within 2 ulps and the same for another launch shape; 77 without a GPU
sl_add_test(NAME tnorm_gpu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tnorm_gpu.c LABELS gpu TIMEOUT 300)
# correct's two passes (the first pass in every format, the exact fallback behind it) against the
# twin on nrm2-table, huge, tiny, sq-overflow, uniform, normal, zeros and specials; prints per
# format how many arrays each pass decides (the first pass's twin)
sl_add_test(NAME tnorm_cert_gpu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tnorm_cert_gpu.c LABELS gpu TIMEOUT 300)
#   tnorm_ws (cpu) correct's workspace layout: the bytes a launch needs zero (tickets, flags, the
#             first pass's gate) lie out of every grid's per-block digits and inside the smallest
#             workspace; the GPU harness's workspace reuse modelled through tgpu_determinism's
#             launch requests
sl_add_test(NAME tnorm_ws SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tnorm_ws.c LABELS cpu TIMEOUT 60)
# correct's cheap first pass (exact/pairsum.h) as its twin runs it for five launch shapes, every
# format: a certified norm is the MPFR reference's (uniform, normal, the norm families, subnormal,
# all equal, n = 1, float64 1e-200 beside ordinary values, fuzz); uniform/normal certify (counted);
# zeros, NaN, Inf, norms past the largest value, float64 1e+-200 and exact ties never certify
sl_add_test(NAME tnorm_fast SOURCES tnorm_fast.c LABELS cpu TIMEOUT 300
            LIBS sumlab_measure sumlab_mpfr sumlab_datasets)

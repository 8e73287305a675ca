# kernels_accuracy.cmake: the accuracy variants (serial, pairwise, atomic-block, kahan, fp64-acc,
# multipass) and the registry-wide GPU oracle checks.
#   ttwin_bounds      (cpu) every twin within its a-priori bound on every dataset family
#   tgpu_twins        (gpu) GPU == twin bit for bit (deterministic), within bound (atomics)
#   tgpu_determinism  (gpu) one result in 50 runs; config-independent across launch configs
#   tgpu_sanitize     (gpu) compute-sanitizer memcheck/racecheck/synccheck over tgpu_twins (quick)
sl_add_test(NAME ttwin_bounds SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ttwin_bounds.c LABELS cpu TIMEOUT 120)
sl_add_test(NAME tgpu_twins SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_twins.c LABELS gpu TIMEOUT 600)
sl_add_test(NAME tgpu_determinism SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_determinism.c LABELS gpu TIMEOUT 300)
add_test(NAME tgpu_sanitize COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sanitize.sh $<TARGET_FILE:tgpu_twins>)
set_tests_properties(tgpu_sanitize PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 1200)
# tguards (cpu): issue 15's guards: grids resolved against n, bounds at the overflow edge.
sl_add_test(NAME tguards SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tguards.c LABELS cpu TIMEOUT 60)
# tgpu_huge (gpu): n = 2^32+5 float32 through vec4, multipass, kahan, superacc == twin / exact.
# tgpu_limits (gpu): an input beyond device memory is one line naming its size; a kernel
# failure names the variant.
sl_add_test(NAME tgpu_huge SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_huge.c LABELS gpu TIMEOUT 900)
sl_add_test(NAME tgpu_limits SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_limits.c LABELS gpu TIMEOUT 120)
sl_add_test(NAME tgpu_prefix SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tgpu_prefix.c LABELS gpu TIMEOUT 300)   # the warm-up on a prefix
# ttwin_fast (cpu): the twins' fast paths (loop-free 16-bit conversions, per-format inner loops,
# atomic-block's shared block values) equal the straightforward paths bit for bit.
sl_add_test(NAME ttwin_fast SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ttwin_fast.c LABELS cpu TIMEOUT 300)

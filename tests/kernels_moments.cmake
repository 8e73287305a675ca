# kernels_moments.cmake: the moment variants (kernels/moments: mean, var, std).
#   tmoments_twins (cpu) every twin against exact moments (MPFR) in every format, ddof 0 and 1,
#                        n = 0 .. 2^16+3: within a generous a-priori error, NaN semantics exactly,
#                        small cases bit for bit. GPU == twin: tgpu_twins (ddof 0 and 1).
sl_add_test(NAME tmoments_twins SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tmoments_twins.c LABELS cpu
            TIMEOUT 300 LIBS sumlab_measure sumlab_mpfr)

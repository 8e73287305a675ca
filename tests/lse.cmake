# lse.cmake: the log-sum-exp operation (issue 33).
#   tlse_math  (cpu) the variants' exp/log (kernels/lse/lse_math.h) against MPFR: <= 2 ulps
sl_add_test(NAME tlse_math SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tlse_math.c LABELS cpu TIMEOUT 120)

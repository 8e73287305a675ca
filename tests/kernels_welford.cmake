# kernels_welford.cmake: the Welford (kernels/welford) and max/min/fused (kernels/extrema) variants.
#   twelford_twins (cpu) each twin against the exact mean/var/std/max/min (reference/sl_moments.c):
#                  every format, ddof 0 and 1, n = 0 .. 2^16 + 3, random and edge data (NaN, Inf,
#                  -0); max/min bit for bit, the statistics within their algorithms' estimates and
#                  their variants' bounds, also on every dataset family of the registry
sl_add_test(NAME twelford_twins SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/twelford_twins.c LABELS cpu TIMEOUT 300)

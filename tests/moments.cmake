# tests/moments.cmake: mean, var, std, max, min: their exact references against GMP rationals
# (every format, random and edge data, ties, specials, ddof, threads), their bounds, the CLI.
sl_add_test(NAME tmoments_ref SOURCES tmoments_ref.c LABELS cpu TIMEOUT 300
            LIBS sumlab_reference sumlab_mpfr)

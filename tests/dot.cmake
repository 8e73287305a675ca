# tests/dot.cmake: the two-input operation dot: its exact reference against MPFR (every format,
# every product window, IEEE specials), its twins against the reference within their bounds
# (correct == the reference's bits), and the CLI (values, mismatch errors).
sl_add_test(NAME tdot_ref SOURCES tdot_ref.c LABELS cpu TIMEOUT 300
            LIBS sumlab_reference sumlab_mpfr)
sl_add_test(NAME tdot_twins SOURCES tdot_twins.c LABELS cpu TIMEOUT 300)

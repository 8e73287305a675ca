#!/usr/bin/env bash
# dot's reproducible row kernel (a warp a row up to 8,192 values, a block a row above, the 1-D
# launcher on each pair for a few long rows) on one NVIDIA H100 80GB HBM3 at commit b90d284, in the
# call that ran ../h100-b90d284-study after it. trows_gpu's dot parts first (SUMLAB_TEST_ROWS=dot:
# every dot variant's rows against the twins, and the row kernel on ragged N, B to 257, paired and
# x @ y): trows_gpu_dot.txt. Then `sumlab bench --axis -1 --op dot` on [B, N] pairs of the uniform
# dataset, reproducible beside naive (the 1-D launcher on each pair of rows): dot_rows_*.csv
# (ratio_read: the read ceiling of both arrays over the variant's time).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=b90d284a42868267d9ec808137d226b2f40a5c5a
SESSION_SECONDS=530 STUDY_SECONDS=230 ANCHORS_SECONDS=40 bash tests/gpu_session.sh build,dotrows,study
# what the dotrows stage runs:
#   SUMLAB_TEST_ROWS=dot build-gpu/tests/trows_gpu
#   for d in f32 bf16 f64: sumlab bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs \
#     --dtype $d --op dot --variants reproducible,naive

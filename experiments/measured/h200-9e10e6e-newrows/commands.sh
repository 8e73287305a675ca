#!/usr/bin/env bash
# The commands behind this directory: one NVIDIA H200 (CUDA 13.0), commit 9e10e6e built by
# tests/gpu_session.sh's build stage. The first GPU run of the kernels written without a GPU in
# bd41023, fdcc8a9, 554a6b2, ebb551c and 9e10e6e (reproducible mean/var/std 1-D and rows,
# reproducible dot and norm2 in groups of eight, reproducible norm2's row kernel): their tests
# against the twins and the exact references (tests_summary.txt, rc.txt: every one rc=0, 0 failed),
# then the row benchmarks (mean/var/norm2 *_f32/bf16.csv) and the 1-D ones (var1d_*, norm2_1d_*,
# dot_1d_*); the exact command lines are in the newrows stage of tests/gpu_session.sh.
set -euo pipefail
export SUMLAB_GIT_SHA=9e10e6ecd62878a616e4335321f03c6070c9c42c
bash tests/gpu_session.sh build,newrows

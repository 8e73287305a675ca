#!/usr/bin/env bash
# The commands behind this directory: one NVIDIA H200 (CUDA 13.0), commit 9ec71c4 built by
# tests/gpu_session.sh's build stage; the max16 stage: tgpu_twins quick on max, min and var
# (fused) in bfloat16, float16 and float32, and trows_gpu (every row kernel against the 1-D twins,
# max/min's split rows included), each rc=0 (rc.txt: the test binaries exit non-zero on any failed
# check; their logs did not come back: the session's device time ran out at 228 s, during the
# last benchmark, so rows_max_bf16.csv holds its first shape only), then the benchmarks below.
set -euo pipefail
export SUMLAB_GIT_SHA=9ec71c4b0625f4a02fac60d1e9e5a10c63882c80
bash tests/gpu_session.sh build,max16
# which ran, after the tests:
#   sumlab bench --reps 10 --op max --n 2^24,2^28 --dtype bf16|f16 --dataset normal --variants block-reduce,fmax
#   sumlab bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --op max --variants block-reduce,fmax

#!/usr/bin/env bash
# One NVIDIA H100 80GB HBM3 (CUDA 13.0; the session's last 295 s of device time, a fresh machine),
# the tree at 969c831: the default build (A) against SUMLAB_EX_PIPELINE=ON (B), bfloat16 var
# `fused` (the fused statistics) on `normal`. The A/B's 60 s cap ended it after three of its four
# runs (A, B, A): bf16_1_A.csv, bf16_1_B.csv, bf16_2_A.csv; every row's check column ok. The CSVs'
# git_sha reads 4f8208c (evaluated on the device, whose .git names that older commit); the tree was
# 969c831. No gpu test ran on the switch build in this call.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr
B=$OUT/fx; mkdir -p $B
for s in def:OFF pipe:ON; do
  n=${s%%:*}; o=${s#*:}
  ( cmake -S . -B build-$n -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH \
      -DSUMLAB_GIT_SHA=$(git rev-parse HEAD) -DSUMLAB_EX_PIPELINE=$o && cmake --build build-$n -j8 --target sumlab ) > $B/build_$n.log 2>&1 &
done; wait
BENCH_AB_DTYPES="bf16 f32" BENCH_AB_RATIO=ratio_read timeout 60 bash experiments/bench_ab.sh build-def/experiments/sumlab \
  build-pipe/experiments/sumlab $B/ab 2 -- --op var --n 2^24,2^28 --reps 10 --dataset normal --variants fused

#!/usr/bin/env bash
# Reproducible lse's register folds (16-bit input), measured on one NVIDIA H100 80GB HBM3 (env.txt;
# CUDA 13.0; every device call of the session was given an H100, one ask for an H200 got none).
# Two calls, each on a fresh machine, each building the tree twice: build-gpu (the default) and
# build-old, the same tree with every one-pass term into the exponent bins (the form before the
# folds; since f40fbc4 the CMake option SUMLAB_LSE_REP1_BINS=ON builds it, then the compile
# definition SUMLAB_LSE_REP1_FOLDS=0). The CSVs' git_sha column reads 5d29081 (dirty): the device
# copy's .git; the trees were the commits named below.
set -u
P=$PWD/.deps/usr
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$P)
cmake -S . -B build-gpu "${cfg[@]}" && cmake --build build-gpu -j16 --target sumlab tgpu_twins trows_gpu
cmake -S . -B build-old "${cfg[@]}" -DSUMLAB_LSE_REP1_BINS=ON && cmake --build build-old -j16 --target sumlab
# the lse twins of every format (both calls: 0 failed; summary_*.txt) and trows_gpu (call 2)
for d in f32 f16 bf16 f64; do
  SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=lse build-gpu/tests/tgpu_twins
done
build-gpu/tests/trows_gpu
# call 1, tree 7bd1917 (folds for float32 too): ab_rep1.log (A = bins only, B = folds, 2 rounds)
BENCH_AB_DTYPES="bf16 f16 f32" BENCH_AB_RATIO=ratio_read bash experiments/bench_ab.sh \
  build-old/experiments/sumlab build-gpu/experiments/sumlab ab_rep1 2 -- --op lse --n 2^20,2^24,2^28 \
  --reps 20 --dataset logits --variants reproducible,online
# call 2, tree 268d265 (float32 back to the bins; rows with folds): ab_rows.log; then the 1-D run
# below, stopped by its 120 s cap before float16's second B (ab_rep1_268d265.csv: its rows). Its
# 1-D 16-bit kernels were scheduled differently from 7bd1917's (the helper's own range loop);
# f40fbc4 restored 7bd1917's SASS for them and kept 268d265's for the rows (cuobjdump, sm_90).
BENCH_AB_DTYPES="bf16 f16 f32" BENCH_AB_RATIO=ratio_read bash experiments/bench_ab.sh \
  build-old/experiments/sumlab build-gpu/experiments/sumlab ab_rows 2 -- --axis -1 --rows 4096,32768 \
  --n 32768,4096 --pairs --op lse --reps 20 --variants reproducible
BENCH_AB_DTYPES="bf16 f16" BENCH_AB_RATIO=ratio_read bash experiments/bench_ab.sh \
  build-old/experiments/sumlab build-gpu/experiments/sumlab ab_rep1 2 -- --op lse --n 2^24,2^28 \
  --reps 20 --dataset logits --variants reproducible

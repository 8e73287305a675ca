#!/usr/bin/env bash
# Two back-to-back calls on one NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0; the calls were
# given an H100) at 90419b8 (kernels as at d13caf7, verified by h100-73fe55a-checks). Call 1: the
# build of the CLI and every benchmark below; only its dot files came back (the machine returns a
# few files a call), so call 2, on the same warm machine and build, ran the others again and
# returned them in one archive. Every row `check` ok: each row's result judged against its exact
# value (rows_ulps_max <= 0.5 for the correctly rounded and reproducible rows).
set -u
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PWD/.deps/usr \
  -DSUMLAB_GIT_SHA=90419b8
cmake --build build-gpu -j16 --target sumlab
S=build-gpu/experiments/sumlab
for d in f32 bf16; do
  $S bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --op mean --variants correct,reproducible > rows_mean_$d.csv
  $S bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --op var --variants correct,reproducible > rows_var_$d.csv
  $S bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --variants reproducible,superacc,block-row > rows_sum_$d.csv
  $S bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --op lse --variants reproducible > rows_lse_$d.csv
done
for d in f32 f64 bf16; do
  $S bench --reps 10 --op var --n 2^28 --dtype $d --dataset normal --variants reproducible,correct,cub > var1d_$d.csv
  $S bench --reps 10 --op dot --n 2^28 --dtype $d --dataset dot-random --variants reproducible,correct,cublas > dot1d_$d.csv
  $S bench --reps 10 --op norm2 --n 2^28 --dtype $d --dataset normal --variants reproducible,correct,cublas > norm1d_$d.csv
done

#!/usr/bin/env bash
# The 16-bit binned kernels' 2-fold path (94254fd..1b038c5) at commit c6a6091, first run on a GPU:
# one NVIDIA H100 80GB HBM3 (env.txt; the session's only device call that started, with 400 s of
# device time left, so a short one). call.sh is the script it ran (BENCH_END=250): a build of
# sumlab, tgpu_twins, trows_gpu and tgpu_determinism (76 s), those tests, then the benches below.
#
# What came back: bf16_uniform.csv, bf16_normal.csv and env.txt as files; f16_wide.csv and
# rows_bf16.csv copied from the call's printed output (the device returns a limited number of
# files; the test logs and the other bench files were among those left out, and the tests'
# summary lines fell outside the printed tail). So the tests' outcome at this commit is NOT
# known: the next GPU session must run tgpu_twins (bf16, f16: its two-fold-boundary data) and
# trows_gpu. What the benches themselves check passed in every row: one result per variant over
# the repetitions (distinct 1), each within its bound of the exact sum (check ok), the row sums
# within 0.5 ulps of their exact values.
#
# Superseded by ../h100-ea2831e-twofold16 (the same benchmarks and more, with the gpu tests); its
# CSV files were given up for the folder's size limit: `git show
# 1bb7c57:experiments/measured/h100-c6a6091-twofold/FILE.csv`.
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=c6a6091a948d3352f3b89075f2422bc92b4e068b
S=build-gpu/experiments/sumlab
$S bench --n 2^20,2^24,2^28 --dtype bf16 --variants reproducible,cub,cub-f32acc --reps 20 --dataset uniform   # bf16_uniform.csv
$S bench --n 2^20,2^24,2^28 --dtype bf16 --variants reproducible,cub,cub-f32acc --reps 20 --dataset normal    # bf16_normal.csv
$S bench --n 2^20,2^24,2^28 --dtype f16 --variants reproducible,cub,cub-f32acc --reps 20 \
  --dataset log-uniform --param emin=-1100 --param emax=2 --param subnormals=1                               # f16_wide.csv
$S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --reps 10 --variants reproducible    # rows_bf16.csv

#!/usr/bin/env bash
# The commands behind this directory: one H200 (CUDA 13.0, PyTorch 2.11), commit 8d16828 built by
# tests/gpu_session.sh's build stage. `correct` var/std: float32/16-bit with the cheap certified
# pass reading 16-byte vectors (mx_fast.h), float64 with its TwoSum form (mx_fast64.h). Each bench
# row is paired run by run with CUB's sum of the same bytes (ratio_cub) and a streaming read
# (ratio_read); bench_moments_py.csv puts the package beside torch.var/torch.std in one process.
set -euo pipefail
S=sumlab
$S bench --op var --n 2^28 --dtype f32 --reps 10 --variants correct,cub --dataset normal --param mean=1e6 > var_f32_mean1e6.csv
$S bench --op var --n 2^28 --dtype f64 --reps 10 --variants correct,cub --dataset normal --param mean=1e6 > var_f64_mean1e6.csv
for d in f32 f64 bf16; do
  $S bench --op var --n 2^24,2^28 --dtype $d --reps 10 --variants correct,cub --dataset normal > var_$d.csv
done
$S bench --op std --n 2^28 --dtype f64 --reps 10 --variants correct,cub --dataset normal > std_f64.csv
PYTHONPATH=build-gpu/python python3 experiments/bench_moments.py --n 2^28 --reps 20 \
  --dtypes float32,float64,bfloat16,float16 --ops var:correct,std:correct > bench_moments_py.csv

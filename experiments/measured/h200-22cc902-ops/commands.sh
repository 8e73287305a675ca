#!/usr/bin/env bash
# The commands behind this directory: one H200 (CUDA 13.0, PyTorch 2.11), commit 22cc902 built by
# tests/gpu_session.sh's build stage. checks.txt: the last lines of each GPU check (rc.txt: all 0).
# Each bench row is paired run by run with CUB's sum of the same bytes (ratio_cub) and a streaming
# read (ratio_read; dot: of both arrays); bench_moments_py.csv puts the package beside torch.var,
# torch.dot and torch.linalg.vector_norm ("torch.norm2") in one process.
set -u
S=build-gpu/experiments/sumlab; T=build-gpu/tests
$T/tmoments_exact_gpu; $T/tdot_cert_gpu; $T/tdot_gpu; $T/tnorm_cert_gpu; $T/tnorm_gpu; $T/trows_gpu
for d in f32 f64 bf16 f16; do SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=var,std,dot,norm2 $T/tgpu_twins; done
$S bench --op var --n 2^24,2^28 --dtype f64 --reps 10 --variants correct,cub --dataset normal > var_f64.csv
$S bench --op var --n 2^28 --dtype f64 --reps 10 --variants correct,cub --dataset normal --param mean=1e6 > var_f64_mean1e6.csv
for d in f32 f64 bf16; do $S bench --op dot --n 2^28 --dtype $d --reps 10 --variants correct,cublas --dataset dot-random > dot_$d.csv; done
for d in f32 bf16; do $S bench --op norm2 --n 2^28 --dtype $d --reps 10 --variants correct,cublas --dataset normal > norm2_$d.csv; done
for d in f32 bf16; do
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 --op var --variants correct > rows_var_$d.csv
done
PYTHONPATH=build-gpu/python python3 experiments/bench_moments.py --n 2^28 --reps 20 --dtypes float32,float64,bfloat16 \
  --ops var:correct,dot:correct,norm2:correct > bench_moments_py.csv

#!/usr/bin/env bash
# The commands behind this directory: one H200 (env.txt), CUDA 13.0, PyTorch 2.11, commit 8bae67b
# built by tests/gpu_session.sh's build stage, then its targets stage in two calls:
#   SESSION_SECONDS=555 TARGETS_ONLY=35 bash tests/gpu_session.sh build,targets
#   SESSION_SECONDS=555 TARGETS_ONLY=31,32,33,34 bash tests/gpu_session.sh targets,occupancy
# (experiments/targets.py run: the commands below, each CSV judged against its issue's threshold:
# targets.md, targets.csv; targets.log: each command's exit status and seconds). Every bench row is
# paired run by run with CUB's sum of the same bytes (ratio_cub) and a streaming read of the same
# bytes (ratio_read), and checked against the exact value (the check column).
set -euo pipefail
S=sumlab
$S bench --n 2^20,2^24,2^28 --dtype f32 --reps 20 --variants reproducible,superacc,cub,kahan,fp64-acc --dataset uniform > sum_f32_uniform.csv
$S bench --n 2^20,2^24,2^28 --dtype f32 --reps 20 --variants reproducible,superacc,cub --dataset normal > sum_f32_normal.csv
$S bench --n 2^20,2^24,2^28 --dtype f32 --reps 20 --variants reproducible,superacc,cub --dataset ill-conditioned --param cond=1e16 > sum_f32_ill.csv
$S bench --n 2^20,2^24,2^28 --dtype f32 --reps 20 --variants reproducible,superacc,cub --dataset subnormal > sum_f32_subnormal.csv
$S bench --n 2^20,2^24,2^28 --dtype f32 --reps 20 --variants reproducible,superacc,cub --dataset log-uniform --param emin=-1100 --param emax=116 --param subnormals=1 > sum_f32_wide.csv
$S bench --n 2^20,2^24,2^28 --dtype f64 --reps 20 --variants reproducible,superacc,cub,kahan --dataset uniform > sum_f64_uniform.csv
$S bench --n 2^20,2^24,2^28 --dtype f64 --reps 20 --variants reproducible,superacc,cub --dataset normal > sum_f64_normal.csv
$S bench --n 2^20,2^24,2^28 --dtype f64 --reps 20 --variants reproducible,superacc,cub --dataset ill-conditioned --param cond=1e16 > sum_f64_ill.csv
$S bench --n 2^20,2^24,2^28 --dtype f64 --reps 20 --variants reproducible,superacc,cub --dataset subnormal > sum_f64_subnormal.csv
$S bench --n 2^20,2^24,2^28 --dtype f64 --reps 20 --variants reproducible,superacc,cub --dataset log-uniform --param emin=-1100 --param emax=1013 --param subnormals=1 > sum_f64_wide.csv
$S bench --n 2^20,2^24,2^28 --dtype f16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc,kahan,fp64-acc --dataset uniform > sum_f16_uniform.csv
$S bench --n 2^20,2^24,2^28 --dtype f16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset normal > sum_f16_normal.csv
$S bench --n 2^20,2^24,2^28 --dtype f16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset ill-conditioned --param cond=1e3 > sum_f16_ill.csv
$S bench --n 2^20,2^24,2^28 --dtype f16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset subnormal > sum_f16_subnormal.csv
$S bench --n 2^20,2^24,2^28 --dtype f16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset log-uniform --param emin=-1100 --param emax=2 --param subnormals=1 > sum_f16_wide.csv
$S bench --n 2^20,2^24,2^28 --dtype bf16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc,kahan,fp64-acc --dataset uniform > sum_bf16_uniform.csv
$S bench --n 2^20,2^24,2^28 --dtype bf16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset normal > sum_bf16_normal.csv
$S bench --n 2^20,2^24,2^28 --dtype bf16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset ill-conditioned --param cond=1e16 > sum_bf16_ill.csv
$S bench --n 2^20,2^24,2^28 --dtype bf16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset subnormal > sum_bf16_subnormal.csv
$S bench --n 2^20,2^24,2^28 --dtype bf16 --reps 20 --variants reproducible,superacc,cub,cub-f32acc --dataset log-uniform --param emin=-1100 --param emax=116 --param subnormals=1 > sum_bf16_wide.csv
$S bench --n 2^30 --dtype f32 --reps 10 --variants reproducible,superacc,cub,kahan,fp64-acc --dataset uniform > sum_f32_4gib.csv
$S bench --n 2^29 --dtype f64 --reps 10 --variants reproducible,superacc,cub,kahan --dataset uniform > sum_f64_4gib.csv
$S bench --op var --n 2^28 --dtype f32 --reps 10 --dataset normal --variants fused,correct > var_f32.csv
$S bench --op var --n 2^28 --dtype f64 --reps 10 --dataset normal --variants fused,correct > var_f64.csv
$S bench --op var --n 2^28 --dtype bf16 --reps 10 --dataset normal --variants fused,correct > var_bf16.csv
PYTHONPATH=build-gpu/python python3 experiments/bench_moments.py --n 2^28 --reps 10 --dtypes float32,float64,bfloat16,float16 --ops var:correct,var:welford,var:two-pass > torch_var.csv
$S bench --op dot --n 2^28 --dtype f32 --reps 10 --dataset dot-random --variants correct,cublas > dot_f32.csv
$S bench --op norm2 --n 2^28 --dtype f32 --reps 10 --dataset normal --variants correct,cublas > norm2_f32.csv
$S bench --op dot --n 2^28 --dtype f64 --reps 10 --dataset dot-random --variants correct,cublas > dot_f64.csv
$S bench --op norm2 --n 2^28 --dtype f64 --reps 10 --dataset normal --variants correct,cublas > norm2_f64.csv
$S bench --op norm2 --n 2^28 --dtype bf16 --reps 10 --dataset normal --variants correct,cublas > norm2_bf16.csv
PYTHONPATH=build-gpu/python python3 experiments/bench_moments.py --n 2^28 --reps 10 --dtypes float32,float64,bfloat16 --ops dot:correct,norm2:correct > torch_dotnorm.csv
$S bench --op lse --n 2^28 --dtype f32 --reps 10 --dataset logits --variants online,accurate,reproducible > lse_f32.csv
$S bench --op lse --n 2^28 --dtype bf16 --reps 10 --dataset logits --variants online,accurate,reproducible > lse_bf16.csv
$S bench --op sum --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f32 --reps 10 --variants reproducible > rows_sum_f32.csv
$S bench --op var --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f32 --reps 10 --variants correct > rows_var_f32.csv
$S bench --op lse --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f32 --reps 10 --variants reproducible --dataset logits > rows_lse_f32.csv
$S bench --op sum --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --reps 10 --variants reproducible > rows_sum_bf16.csv
$S bench --op var --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --reps 10 --variants correct > rows_var_bf16.csv
$S bench --op lse --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --reps 10 --variants reproducible --dataset logits > rows_lse_bf16.csv

#!/usr/bin/env bash
# The commands behind this directory: one H200 (env.txt), CUDA 13.0, PyTorch 2.11, commit 2b2c4b2
# built by tests/gpu_session.sh's build stage; this is its `ops` stage (and the `nccl` stage for
# nccl/). Every bench row is paired run by run with CUB's sum of the same bytes (ratio_cub) and a
# streaming read of the same bytes (ratio_read: for dot, of both arrays).
set -euo pipefail
S=sumlab
for d in f32 f64 bf16; do
  $S bench --op dot --n 2^24,2^28 --dtype $d --reps 10 --dataset dot-random > dot_$d.csv
  $S bench --op norm2 --n 2^24,2^28 --dtype $d --reps 10 --dataset normal > norm2_$d.csv
  $S bench --op var --n 2^24,2^28 --dtype $d --reps 10 --dataset normal > var_$d.csv
  $S bench --op lse --n 2^24,2^28 --dtype $d --reps 10 --dataset logits > lse_$d.csv
done
$S bench --op dot --n 2^28 --dtype f32 --reps 10 --variants correct,cublas --dataset dot-random --block 512 > dot_f32_b512.csv
$S bench --op dot --n 2^24 --dtype f64 --reps 5 --variants correct,cublas --dataset dot-cond --param cond=1e30 > dot_f64_cond.csv
$S bench --op var --n 2^28 --dtype f32 --reps 10 --variants correct,welford,cub --dataset normal --param mean=1e6 --param sd=1 > var_f32_mean1e6.csv
$S bench --op var --n 2^28 --dtype f32 --reps 5 --variants correct,cub --dataset constant > var_f32_constant.csv
for d in f32 bf16; do
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 \
    --variants reproducible,superacc,block-row,vec4 > rows_$d.csv
done
# the package beside torch in one process (ratio_torch_op: torch's time / ours)
PYTHONPATH=build-gpu/python python3 experiments/bench_moments.py --n 2^28 --reps 10 > bench_moments_py.csv
PYTHONPATH=build-gpu/python python3 experiments/anchors/batch_torch.py -o batch_torch.csv
# the launch-config sweep (launch_DTYPE/: launch_summary.md, report.md; its launch.csv.gz and
# results.csv.gz gave way under the 8 MiB limit: git show 8bae67b:experiments/measured/h200-2b2c4b2-ops/launch_f32/results.csv.gz)
for d in f32 bf16; do
  SUMLAB_NO_CHARTS=1 $S run launch-config --backend gpu --threads 16 --dtype $d -o launch_$d
done
# nccl/: the ranks experiment with one rank on the one GPU, NCCL rows under NCCL's default, Ring, Tree
export NCCL_NVLS_ENABLE=0
mpirun --allow-run-as-root -np 1 -x NCCL_NVLS_ENABLE $S run ranks -o nccl --backend gpu --preset quick
for a in Ring Tree; do
  NCCL_ALGO=$a mpirun --allow-run-as-root -np 1 -x NCCL_ALGO -x NCCL_NVLS_ENABLE $S run ranks -o nccl --backend gpu --preset quick --nccl -q
done

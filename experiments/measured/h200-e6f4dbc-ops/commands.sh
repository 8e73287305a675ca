#!/usr/bin/env bash
# The commands behind this directory (one H200, CUDA 13.0, PyTorch 2.11; commit e6f4dbc built by
# tests/gpu_session.sh's build stage). Every bench row is paired run by run with CUB's sum of the
# same bytes (ratio_cub) and a streaming read of the same bytes (ratio_read: for dot, of both arrays).
# At e6f4dbc dot's `correct` ran the naive kernel on the GPU (its descriptor lacked its member,
# fixed in fa7ec7c): its rows here are the naive kernel's, and bench's self-check marks them FAILED.
set -euo pipefail
S=sumlab
for d in f32 f64 bf16; do
  $S bench --op dot --n 2^28 --dtype $d --reps 10 --dataset dot-random > bench_dot_$d.csv
  $S bench --op norm2 --n 2^28 --dtype $d --reps 10 --dataset normal > bench_norm2_$d.csv
  $S bench --op var --n 2^28 --dtype $d --reps 10 --dataset normal > bench_var_$d.csv
done
for d in f32 bf16; do
  $S bench --op lse --n 2^28 --dtype $d --reps 10 --dataset logits > bench_lse_$d.csv
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 \
    --variants reproducible,superacc,block-row,vec4 > bench_rows_$d.csv
done
# the package beside torch.var/torch.mean in one process (ratio_torch_op: torch's time / ours)
PYTHONPATH=build-gpu/python python3 experiments/bench_moments.py --n 2^28 --reps 10 \
  --dtypes float32,float64,bfloat16 --ops var:correct,var:reproducible,var:welford,var:two-pass,mean:correct \
  > bench_moments_py.csv
# torch's row reductions: distinct bits of rows 0, 1, 15, 1023 of X[:B] over 17 batch sizes
python3 experiments/anchors/batch_torch.py -o batch_torch.csv

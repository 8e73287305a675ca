#!/usr/bin/env bash
# The commands behind this directory (H200, commit e588a64): tests/gpu_session.sh's lse stage:
# every GPU variant of lse on logits (sigma 3) at 2^24 and 2^28, paired run by run with CUB's sum
# of the same bytes (ratio_cub) and the streaming-read ceiling (ratio_read).
set -euo pipefail
for d in f32 bf16 f16 f64; do
  sumlab bench --op lse --n 2^24,2^28 --dtype "$d" --reps 10 --dataset logits > "bench_lse_$d.csv"
done

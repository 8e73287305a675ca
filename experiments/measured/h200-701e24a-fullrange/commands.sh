#!/usr/bin/env bash
# The commands behind this directory (H200, commit 701e24a): tests/gpu_session.sh's fullrange
# stage: the order-independent sums on log-uniform with subnormals whose exact sum is finite at
# 2^28 (emax per format).
set -euo pipefail
for d in f32:116 f64:1013 bf16:116 f16:2; do
  dt=${d%%:*} emax=${d##*:}
  v=reproducible,superacc,cub
  [ "$dt" = f16 ] || [ "$dt" = bf16 ] && v=vec4,half-acc,superacc,reproducible,cub,cub-f32acc
  sumlab bench --n 2^24,2^28 --dtype "$dt" --reps 20 --variants "$v" --dataset log-uniform \
    --param emin=-1100 --param emax="$emax" --param subnormals=1 > "full_$dt.csv"
done

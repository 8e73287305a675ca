#!/usr/bin/env bash
# The commands behind this directory: one H200 (../h200-8bae67b-targets/env.txt), CUDA 13.0, commit
# 8bae67b, tests/gpu_session.sh's occupancy stage (SESSION_SECONDS=555 TARGETS_ONLY=31,32,33,34
# bash tests/gpu_session.sh targets,occupancy): the issue-bound bfloat16 kernels at 2^28 at their
# own launch (own) and at K = 4, 6, 8 blocks of 256 an SM (132 SMs); each CSV's block/grid columns
# hold the launch each variant resolved, its check column the judgement against the exact value.
set -euo pipefail
S=sumlab
for k in own 4 6 8; do
  req=(); [ "$k" = own ] || req=(--block 256 --grid $(( k * 132 )))
  $S bench --reps 10 --op lse --n 2^28 --dtype bf16 --dataset logits --variants online,reproducible "${req[@]}" > lse_bf16_$k.csv
  $S bench --reps 10 --op var --n 2^28 --dtype bf16 --dataset normal --variants fused,welford "${req[@]}" > var_bf16_$k.csv
  $S bench --reps 10 --n 2^28 --dtype bf16 --variants fp64-acc,reproducible "${req[@]}" > sum_bf16_$k.csv
  $S bench --reps 10 --n 2^28 --dtype bf16 --variants reproducible --dataset log-uniform \
    --param emin=-1100 --param emax=116 --param subnormals=1 "${req[@]}" > sum_bf16_wide_$k.csv
done

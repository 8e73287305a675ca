#!/usr/bin/env bash
# The commands behind this directory: one H200 (CUDA 13.0), the tree of commit 70e612d built by
# tests/gpu_session.sh's build stage (meta.json's git_sha field reads 3456c96: the SHA was taken
# from the device copy's .git, which lagged the tree; kernels/ differ between the two only in
# moments_exact/, which this run does not use). kahan's launch-config sweep, one process per
# format, with its sets of independent compensated lanes (sl_launch.accs 1, 2, 4, 8).
set -euo pipefail
S=sumlab
for d in f32 bf16; do
  SUMLAB_NO_CHARTS=1 $S run launch-config --backend gpu --variants kahan --dtype $d --n 2^24,2^28 --threads 16 -q -o launch_$d
done

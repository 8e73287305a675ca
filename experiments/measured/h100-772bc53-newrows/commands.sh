#!/usr/bin/env bash
# The commands behind this directory: one NVIDIA H100 80GB HBM3 (CUDA 13.0; the session's H200 did
# not start), commit 772bc53 built by tests/gpu_session.sh's build stage. The first GPU run of the
# kernels written without a GPU (062458e, ede1f41, 503a6c6, 1e0094b, df5d75b, 1d9b37c, 25bc741,
# 772bc53): their tests against the twins and the exact references (tests_summary.txt, rc.txt: every
# one rc=0, 0 failed), then the row benchmarks and the float64 lse benchmark. H100 read ceilings
# differ from the H200's (3.05 against 4.4 TB/s): compare ratios only within this folder.
set -euo pipefail
export SUMLAB_GIT_SHA=772bc533169d31c281a727d0f23d73648c5f2a63
bash tests/gpu_session.sh build,newrows        # tests + *_f32/bf16.csv + lse_f64.csv (see the stage)
for d in bf16 f32 f16; do
  build-gpu/experiments/sumlab bench --op lse --n 2^28 --dtype $d --reps 5 --dataset logits \
    --variants reproducible,online,accurate --columns variant,dtype,time_ms_median,ratio_read,ratio_cub
done                                           # lse_2p28.csv (bf16 also two-pass)

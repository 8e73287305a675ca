#!/usr/bin/env bash
# The full study on one NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04, PyTorch 2.11; 16 host
# threads) at commit b90d284 (dot's reproducible row kernel; the batch-invariance experiment takes
# X[:B] @ w for dot, beside torch.matmul). Asked for an H200, given an H100. One call built the
# tree (82 s), ran the dotrows stage (../../../BENCHMARKS.md: trows_gpu's dot parts, 3,114 checks,
# and the dot row benchmarks), then throughput_torch.py (torch.sum: throughput_torch.csv),
# batch_torch.py (96 rows: torch.sum, var, logsumexp, vector_norm, x.pow(2).mean and
# torch.matmul(X[:B], w); joined into batch_invariance.csv.gz, the file itself not kept), the study
# under its cap: all 89,018 rows measured and written in 143.8 s (study.log.gz: "seconds by phase
# ... total 143.77"), 149 s with its start; study_anchors.py (14 inputs at n = 2^24, 8 anchors, 20
# repetitions: anchors/, 112 rows, no framework absent; the values-*.csv it judged are not kept).
# Against ../h100-565e2a1-study (its data: git show b90d284:PATH), row for row, same seed:
# 89,018 keys in both; every exact value, status, check and twin match is the same; results differ
# in 4,420 rows, all of nondeterministic variants. batch_invariance gains dot's reproducible rows
# (X[:B] @ w: one pattern a row, f32 and bf16, N 4096 and 32768) and torch.matmul's.
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=b90d284a42868267d9ec808137d226b2f40a5c5a
SESSION_SECONDS=530 STUDY_SECONDS=230 ANCHORS_SECONDS=40 bash tests/gpu_session.sh build,dotrows,study
# what the study stage runs:
#   python3 experiments/anchors/throughput_torch.py results/gpu-study
#   python3 experiments/anchors/batch_torch.py -o results/gpu-study/batch_torch.csv
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
#   python3 experiments/anchors/study_anchors.py results/gpu-study --sumlab sumlab --reps 20
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the same commit (same rows, same numbers):
#   sumlab run all --report-only -q -o DIR     (DIR: a copy of the run directory)

#!/usr/bin/env bash
# The full study on one NVIDIA H200 (CUDA 13.0, PyTorch 2.11, CuPy, JAX; 16 host threads) at commit
# 8a69719, in the second of two calls (the first: the GPU checks and benchmarks of that commit,
# ../h200-8a69719-ops/commands.sh). throughput_torch.py first (58 rows of torch.sum:
# throughput_torch.csv), then the study under a 230 s cap: it measured and wrote all 89,018 rows in
# 148.7 s (study.log.gz: "seconds by phase ... total 148.73"; study_jobs.csv.gz: the job log), 162 s
# with its start; then study_anchors.py on the study's float32 inputs (14 inputs at n = 2^24, 8
# anchors, 20 repetitions each: anchors/anchors.csv and anchors.md, 112 rows; no framework absent;
# the per-repetition values-*.csv it judged are not kept). The batch-invariance part
# (batch_invariance.md) now holds max/min's and mean correct's row kernels beside the sums', var/std
# correct and lse reproducible.
# Its report.md, results.csv.gz, distribution.csv.gz, study.log.gz and study_jobs.csv.gz gave way to
# the next full study (../h100-73fe55a-study) under the folder's size limit: they are in the history,
# `git show 73fe55a:experiments/measured/h200-8a69719-study/report.md` (and the same for the others).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=8a69719
bash tests/gpu_session.sh build
STUDY_SECONDS=230 ANCHORS_SECONDS=60 bash tests/gpu_session.sh study
# what it runs:
#   python3 experiments/anchors/throughput_torch.py results/gpu-study
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
#   python3 experiments/anchors/study_anchors.py results/gpu-study --sumlab sumlab --reps 20
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the commit after it (same rows, same numbers):
#   sumlab run --report-only -q -o DIR     (DIR: a copy of this directory, results and
#                                           distribution uncompressed)

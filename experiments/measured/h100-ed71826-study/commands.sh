#!/usr/bin/env bash
# The full study on one NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04, PyTorch 2.11, CuPy,
# JAX; 16 host threads) at commit ed71826 (lse's 16-bit exponential in online's and reproducible's
# terms): the device call was given an H100, as every call of the session. Its call followed the
# one that built the tree and ran the lse16 stage (../h100-ed71826-lse16), on the same warm machine
# and build: throughput_torch.py (58 rows of torch.sum: throughput_torch.csv), the study under a
# 230 s cap: all 89,018 rows measured and written in 139.4 s (study.log.gz: "seconds by phase ...
# total 139.42"; its job log study_jobs.csv.gz), 145 s with its start; study_anchors.py on the
# study's float32 inputs (14 inputs at n = 2^24, 8 anchors, 20 repetitions each:
# anchors/anchors.csv and anchors.md, 112 rows, no framework absent; the per-repetition values-*.csv
# it judged are not kept).
# The device's copy of the repository has a .git that names an older commit (3e1d55a) beside the
# working tree it is given; SUMLAB_GIT_SHA was computed there with `git rev-parse HEAD` and so
# named 3e1d55a in meta.json. The tree was the committed ed71826 (clean): meta.json's git_sha was
# set to it before the report was written. Pass the commit as a literal, as below.
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=ed718269ff07c5eaeb02827e93d891f44e839cc9
bash tests/gpu_session.sh build,lse16
STUDY_SECONDS=230 ANCHORS_SECONDS=60 bash tests/gpu_session.sh study
# what it runs:
#   python3 experiments/anchors/throughput_torch.py results/gpu-study
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
#   python3 experiments/anchors/study_anchors.py results/gpu-study --sumlab sumlab --reps 20
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the same commit (same rows, same numbers):
#   sumlab run all --report-only -q -o DIR     (DIR: a copy of the run directory)
# Its report and data (report.md, results.csv.gz, distribution.csv.gz, study.log.gz,
# study_jobs.csv.gz) gave way to the next full study (../h100-7ca2328-study) under the folder's
# size limit: they are in the history, e.g.
#   git show 7ca2328:experiments/measured/h100-ed71826-study/report.md
# Its batch_invariance.csv and anchors/anchors.csv (their .md tables stay) gave way to the study at
# 565e2a1 under the same limit: git show d7c2a54:experiments/measured/h100-ed71826-study/batch_invariance.csv

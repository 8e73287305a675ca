#!/usr/bin/env bash
# The full study on one NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04, PyTorch 2.11, CuPy,
# JAX; 16 host threads) at commit 73fe55a: the device call was given an H100, not the H200 of the
# study before it (h200-8a69719-study, whose report and data are in the history:
# `git show 73fe55a:experiments/measured/h200-8a69719-study/report.md`). One call: the build, Nsight
# Compute on the correct mean's exact row kernel (../h100-73fe55a-checks/ncu_mxrowx.txt), then
# throughput_torch.py (58 rows of torch.sum: throughput_torch.csv), the study under a 230 s cap: all
# 89,018 rows measured and written in 152.7 s (study.log.gz: "seconds by phase ... total 152.69"; its
# job log study_jobs.csv.gz), 162 s with its start; study_anchors.py on the study's float32 inputs
# (14 inputs at n = 2^24, 8 anchors, 20 repetitions each: anchors/anchors.csv and anchors.md, 112
# rows, no framework absent; the per-repetition values-*.csv it judged are not kept); after it
# trows_gpu (58,927 checks, 0 failed) and the fused variance's benchmarks (../h100-73fe55a-checks).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=73fe55abf1218f4694121a79f8a7c18865731250
bash tests/gpu_session.sh build
STUDY_SECONDS=230 ANCHORS_SECONDS=60 bash tests/gpu_session.sh study
# what it runs:
#   python3 experiments/anchors/throughput_torch.py results/gpu-study
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
#   python3 experiments/anchors/study_anchors.py results/gpu-study --sumlab sumlab --reps 20
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the same commit (same rows, same numbers):
#   sumlab run all --report-only -q -o DIR     (DIR: a copy of the run directory)
# Its report and data (report.md, results.csv.gz, distribution.csv.gz, study.log.gz,
# study_jobs.csv.gz) gave way to the next full study (../h100-ed71826-study) under the folder's
# size limit: they are in the history, e.g.
#   git show ed71826:experiments/measured/h100-73fe55a-study/report.md
# Its CSV files (anchors/anchors.csv, batch_invariance.csv, ladder.csv, throughput_torch.csv) gave
# way to the study after next (../h100-7ca2328-study) under the same limit; the tables of anchors
# and batch invariance (.md) stay:
#   git show 7ca2328:experiments/measured/h100-73fe55a-study/batch_invariance.csv
# Its tables (anchors/anchors.md, batch_invariance.md) gave way to lse's study at 45bc233
# (../h100-45bc233-study-lse) under the same limit:
#   git show 45bc233:experiments/measured/h100-73fe55a-study/batch_invariance.md

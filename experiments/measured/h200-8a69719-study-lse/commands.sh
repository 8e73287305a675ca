#!/usr/bin/env bash
# The lse study on one NVIDIA H200 (CUDA 13.0, PyTorch 2.11; 16 host threads) at commit 8a69719
# (reproducible lse's one pass summing its float32 terms exactly), in the same call as the full
# study (../h200-8a69719-study/commands.sh): throughput_torch.py first (58 rows of
# torch.logsumexp: throughput_torch.csv), then the study: 15,317 rows in 102.5 s (study.log.gz:
# "seconds by phase ... total 102.52"; study_jobs.csv.gz: the job log), torch.logsumexp's rows
# joined into throughput-vs-n.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=8a69719
bash tests/gpu_session.sh build
PYTHONPATH=build-gpu/python python3 experiments/anchors/throughput_torch.py results/gpu-lse --op lse
SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 build-gpu/experiments/sumlab run all --op lse \
  --backend gpu --preset full --threads 16 -o results/gpu-lse
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the commit after it (same rows, same numbers):
#   sumlab run --report-only -q -o DIR     (DIR: a copy of this directory, results.csv uncompressed)
# Its report and data (report.md, results.csv.gz, distribution.csv.gz, study.log.gz,
# study_jobs.csv.gz) gave way to the next lse study (../h100-ed71826-study-lse) under the folder's
# size limit: they are in the history, e.g.
#   git show ed71826:experiments/measured/h200-8a69719-study-lse/report.md

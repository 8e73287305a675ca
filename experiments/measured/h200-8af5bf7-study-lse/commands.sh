#!/usr/bin/env bash
# The lse study on one NVIDIA H200 (CUDA 13.0, PyTorch 2.11; 16 host threads) at commit 8af5bf7,
# in the same call as its GPU checks (commands and logs: ../h200-8af5bf7-ops/commands.sh):
# throughput_torch.py first (58 rows of torch.logsumexp, throughput_torch.csv here), then the
# study: 11,537 rows in 68.0 s (study.log.gz: "seconds by phase ... total 68.02";
# study_jobs.csv.gz: the job log, given up for the folder's size limit: `git show
# 1bb7c57:experiments/measured/h200-8af5bf7-study-lse/study_jobs.csv.gz`), torch.logsumexp's rows
# joined into throughput-vs-n.
# Given up for the folder's size limit when the later lse study (../h100-ed71826-study-lse/)
# superseded it: batch_invariance.csv, throughput_torch.csv, distribution.csv.gz and study.log.gz
# (`git show cb1a754164879639e11920872d7f2502cd388bde:experiments/measured/h200-8af5bf7-study-lse/FILE`).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=8af5bf7033b087cc7edfbe32ad1aabd82bbb0b8b
bash tests/gpu_session.sh build
PYTHONPATH=build-gpu/python python3 experiments/anchors/throughput_torch.py results/gpu-lse --op lse
SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 build-gpu/experiments/sumlab run all --op lse \
  --backend gpu --preset full --threads 16 -o results/gpu-lse
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the commit after it (same rows, same numbers):
#   sumlab run --report-only -q -o DIR     (DIR: a copy of this directory, results.csv uncompressed)

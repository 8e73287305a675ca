#!/usr/bin/env bash
# The lse study on one NVIDIA H100 80GB HBM3 (CUDA 13.0, PyTorch 2.11; 16 host threads) at commit
# ed71826 (online's and reproducible's terms on 16-bit input through lse_math.h's sl_lm_expf16), in
# the call after the full study's (../h100-ed71826-study/commands.sh), same warm machine and build:
# throughput_torch.py first (58 rows of torch.logsumexp: throughput_torch.csv), then the study:
# 15,317 rows in 52.0 s (study.log.gz: "seconds by phase ... total 52.04"; study_jobs.csv.gz: the
# job log), torch.logsumexp's rows joined into throughput-vs-n. Given up for the folder's size
# limit (for ../h100-ea2e503-switches/): batch_invariance.csv (batch_invariance.md stays) and
# study_jobs.csv.gz (`git show 1aed47f985a12036989dd17ce551e66cfbb16ef1:experiments/measured/h100-ed71826-study-lse/FILE`).
# Then, for the next lse study (../h100-45bc233-study-lse, whose 15,317 rows have the same result
# bits and statuses), its report.md, results.csv.gz, distribution.csv.gz, throughput_torch.csv
# and batch_invariance.md:
# `git show 45bc233:experiments/measured/h100-ed71826-study-lse/FILE`. meta.json's git_sha read 3e1d55a
# (the device copy's .git names that older commit; the build reused was configured in the call
# before with SUMLAB_GIT_SHA=$(git rev-parse HEAD) evaluated there) and was corrected to ed71826,
# the committed, clean tree the build was made from.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=ed718269ff07c5eaeb02827e93d891f44e839cc9
bash tests/gpu_session.sh build
PYTHONPATH=build-gpu/python python3 experiments/anchors/throughput_torch.py results/gpu-lse --op lse
SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 build-gpu/experiments/sumlab run all --op lse \
  --backend gpu --preset full --threads 16 -o results/gpu-lse
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the same commit (same rows, same numbers):
#   sumlab run all --op lse --report-only -q -o DIR     (DIR: a copy of this directory)

#!/usr/bin/env bash
# The lse study on one NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04, PyTorch 2.11; 16 host
# threads) at commit 45bc233 (16-bit accurate's first pass through sl_lm_expf16 and pipelined;
# reproducible's 16-bit terms in register folds), the session's fourth device call, on a fresh
# machine (every call of the session was given an H100): the build (91 s, sumlab only), then
# throughput_torch.py (58 rows of torch.logsumexp: throughput_torch.csv), then the study: 15,317
# rows in 69.5 s (study.log.gz: "seconds by phase ... total 69.48"), torch.logsumexp's rows joined
# into throughput-vs-n. Against ../h100-ed71826-study-lse (the same seed and 15,317 keys), every
# row's result bits, exact value and status are the same; the times differ (16-bit accurate at
# 2^28 2.52e3 -> 2.9e3 GB/s, reproducible 2.1e3 -> 2.4e3 in report.md's headline).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=45bc233fde62fb121e19f270e6f29de09f3d63c3
SUMLAB_BUILD_TARGETS=sumlab bash tests/gpu_session.sh build
python3 experiments/anchors/throughput_torch.py results/gpu-lse --op lse
SUMLAB_NO_CHARTS=1 build-gpu/experiments/sumlab run all --op lse --backend gpu --preset full \
  --threads 16 -o results/gpu-lse
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the same commit (same rows, same numbers):
#   sumlab run all --op lse --report-only -q -o DIR     (DIR: a copy of this directory)

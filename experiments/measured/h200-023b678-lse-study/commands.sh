#!/usr/bin/env bash
# The lse study on one NVIDIA H200 (CUDA 13.0, PyTorch 2.11; 16 host threads) at commit 023b678,
# in the same call as its GPU checks (trows_gpu: 25,012 checks, 0 failed; tgpu_twins
# SUMLAB_TEST_OPS=lse quick: f32 17,430, bf16 19,830 checks, 0 failed): 11,479 rows in 51.9 s
# (study.log.gz: "seconds by phase ... total 51.86"; study_jobs.csv.gz: the job log).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=023b678be42badf3d997eb578ad0f85f27fda2f5
bash tests/gpu_session.sh build
SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 build-gpu/experiments/sumlab run all --op lse \
  --backend gpu --preset full --threads 16 -o results/gpu-lse
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the commit after it (the ladder line names why lse has none; same rows, same numbers):
#   sumlab run --report-only -q -o DIR     (DIR: a copy of this directory, results.csv uncompressed)

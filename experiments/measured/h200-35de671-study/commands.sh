#!/usr/bin/env bash
# One H200 call at 35de671 (CUDA 13.0, PyTorch 2.11, CuPy, JAX; 16 host threads): the build, the
# lse benchmarks and GPU twin checks of that commit, then the full study under a 200 s cap: it
# measured and wrote all 88,960 rows in 141.9 s (study.log.gz: "seconds by phase ... total
# 141.95"), then study_anchors.py on the study's float32 inputs (14 inputs at n = 2^24, 8 anchors,
# 20 repetitions each: anchors/anchors.csv and anchors.md, 112 rows; no framework absent; the
# per-repetition values-*.csv it judged are not kept: anchors.csv holds their distinct count,
# range and largest error). anchors/ gave way under the 8 MiB limit (later studies' anchors
# supersede it): git show 8bae67b:experiments/measured/h200-35de671-study/anchors/anchors.md
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=${SHA:?}
bash tests/gpu_session.sh build
STUDY_SECONDS=200 ANCHORS_SECONDS=60 bash tests/gpu_session.sh study
# what it runs:
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
#   python3 experiments/anchors/study_anchors.py results/gpu-study --sumlab sumlab --reps 20
# report.md here was then written from these files on a CPU machine with the renderer of the
# commit that last changed it (same rows, same numbers):
#   sumlab run --report-only -q -o DIR     (DIR: a copy of this directory, results and
#                                           distribution uncompressed)

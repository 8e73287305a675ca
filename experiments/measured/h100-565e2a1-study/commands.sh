#!/usr/bin/env bash
# The full study on one NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04, PyTorch 2.11, CuPy,
# JAX; 16 host threads) at commit 565e2a1 (kahan's plain-sum fallback where its compensated pair is
# not finite, e35c8ce/b6359e3; the 16-bit reproducible sums' 2-fold path, issue 35; 565e2a1 itself
# adds two build-time knobs that are off here, the default kernels' SASS unchanged). The session's
# one device machine: asked for an H200, given an H100 after nine tries that got none. The call
# built the tree (102 s), ran throughput_torch.py (58 rows of torch.sum: throughput_torch.csv), the
# study under a 230 s cap: all 89,018 rows measured and written in 151.0 s (study.log.gz: "seconds
# by phase ... total 150.96"), 159 s with its start; study_anchors.py on the study's float32 inputs
# (14 inputs at n = 2^24, 8 anchors, 20 repetitions each: anchors/anchors.csv and anchors.md, 112
# rows, no framework absent; the per-repetition values-*.csv it judged are not kept). The job log
# (study_jobs.csv) is not kept, for the folder's size limit.
# The tree's gpu tests (the same call, after the study) and the 16-bit benchmarks and sanitizer runs
# (the calls after it, on the same warm machine): ../h100-565e2a1-checks.
# Against ../h100-7ca2328-study (its data at d7c2a54), row for row, same seed: 89,002 keys in both;
# every exact value, status, check and twin match is the same. The other 16 keys are the exact
# reference's rows of determinism's launch configurations (block128/512/1024, grid37; f32 and f64;
# ill-conditioned and uniform-sym), which now record no block or grid (0): the same values. Results
# differ in 4,397 rows of nondeterministic variants, and in two others, both kahan's: the
# log-uniform family of 240 binades (emin=-120, emax=120, n = 2^20, f32 and bf16), whose exact sum
# is -inf, gave NaN before the fallback and gives -inf now (0 ulps).
# Its report and data (report.md, results.csv.gz, distribution.csv.gz, study.log.gz,
# batch_invariance.csv, anchors/anchors.csv, throughput_torch.csv; the .md tables stay) gave way to
# the next full study (../h100-b90d284-study) under the folder's size limit: they are in the
# history, e.g. git show b90d284:experiments/measured/h100-565e2a1-study/report.md
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=565e2a14ce1e6c771dc0d1cfce5fc48c2d420113
STUDY_SECONDS=230 ANCHORS_SECONDS=60 bash tests/gpu_session.sh build,study
# what it runs:
#   python3 experiments/anchors/throughput_torch.py results/gpu-study
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
#   python3 experiments/anchors/study_anchors.py results/gpu-study --sumlab sumlab --reps 20
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the same commit (same rows, same numbers):
#   sumlab run all --report-only -q -o DIR     (DIR: a copy of the run directory)

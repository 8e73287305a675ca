#!/usr/bin/env bash
# The full study on one NVIDIA H100 80GB HBM3 (CUDA 13.0, driver 580.159.04, PyTorch 2.11, CuPy,
# JAX; 16 host threads) at commit 7ca2328 (the float64 certificate's ends rounded in registers;
# superacc/mean/var float64 kernels since ed71826): the session's third device call, on a fresh
# machine (every call of the session was given an H100). It built the tree (86 s), then ran
# throughput_torch.py (throughput_torch.csv), the study under a 230 s cap: all 89,018 rows
# measured and written in 143.7 s (study.log.gz: "seconds by phase ... total 143.72"; its job log
# study_jobs.csv.gz), 150 s with its start; study_anchors.py on the study's float32 inputs
# (anchors/anchors.csv and anchors.md; the per-repetition values-*.csv it judged are not kept).
# The tree's gpu tests and sanitizer runs at the same commit: ../h100-7ca2328-checks.
# Against ../h100-ed71826-study, row for row (same seed, same 89,018 keys): every exact value,
# status and check is the same; results differ only in rows of nondeterministic variants (4,351).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=7ca23282c4844ffc294769123802655622647cb6
STUDY_SECONDS=230 ANCHORS_SECONDS=60 bash tests/gpu_session.sh build,study
# what it runs:
#   python3 experiments/anchors/throughput_torch.py results/gpu-study
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
#   python3 experiments/anchors/study_anchors.py results/gpu-study --sumlab sumlab --reps 20
# report.md here was then written from these files on a CPU machine (gnuplot) with the renderer of
# the same commit (same rows, same numbers):
#   sumlab run all --report-only -q -o DIR     (DIR: a copy of the run directory)
# Its report and data (report.md, results.csv.gz, distribution.csv.gz, study.log.gz,
# study_jobs.csv.gz, batch_invariance.csv, anchors/anchors.csv; the .md tables stay), then its
# ladder.csv and throughput_torch.csv (in the history from f1b9314 back), gave way to
# the next full study (../h100-565e2a1-study) under the folder's
# size limit: they are in the history, e.g.
#   git show d7c2a54:experiments/measured/h100-7ca2328-study/report.md
# Its tables (anchors/anchors.md, batch_invariance.md) gave way to lse's study at 45bc233
# (../h100-45bc233-study-lse) under the same limit:
#   git show 45bc233:experiments/measured/h100-7ca2328-study/batch_invariance.md

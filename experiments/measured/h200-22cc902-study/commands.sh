#!/usr/bin/env bash
# One H200 call at 22cc902 (CUDA 13.0, 16 host threads): build, the GPU checks of the new code (all
# passed: tmoments_exact_gpu, tdot_cert_gpu, tdot_gpu, tnorm_cert_gpu, tnorm_gpu, trows_gpu,
# tgpu_twins var/std/dot/norm2 quick in every format; ../h200-22cc902-ops), the benchmarks of
# ../h200-22cc902-ops, then the full study under a 208 s cap: it measured and wrote all 88,960 rows
# in 140.9 s (study.log.gz: "seconds by phase ... total 140.94") and wrote report.md itself. The
# anchors script was given 1 s (no device time was left for it): anchors/ is empty.
# meta.json's git_sha was passed in by hand and first read 22cc902e0b2c...; it is corrected here to
# the commit's full hash (the tree was the commit, with only the uncommitted call script beside it).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=${SHA:?}
bash tests/gpu_session.sh build
STUDY_SECONDS=208 ANCHORS_SECONDS=1 bash tests/gpu_session.sh study
# what it runs:
#   SUMLAB_JOB_LOG=study_jobs.csv SUMLAB_NO_CHARTS=1 sumlab run all --backend gpu --preset full --threads 16 -o results/gpu-study
# report.md here was then rewritten from these files on a CPU machine with the renderer of the
# next commits (each chart beside the table it illustrates; later a Bound tightness table per
# format beside its chart; same rows, same numbers):
#   sumlab run --report-only -q -o DIR     (DIR: a copy of this directory)

#!/usr/bin/env bash
# The commands behind this directory: one NVIDIA H100 80GB HBM3 (CUDA 13.0; the session's call
# was answered by an H100, not the H200), commit f49b726 built by tests/gpu_session.sh's build
# stage. The first GPU run of f49b726: binned states merged by shuffles (exact/binned_merge.cuh)
# in reproducible mean/var/std, dot and norm2, a warp a row for their rows of at most 8,192
# values, reproducible dot's 16-byte loads, fused's 16-bit path (fma squares, packed keys), and
# correct mean/var's bits route for 16-bit values (reverted after this run: rows_var_correct_bf16
# slower). Tests against the twins and the exact references first (tests_summary.txt, rc.txt:
# every one rc=0, 0 failed), then the benchmarks; the exact command lines are the merges stage of
# tests/gpu_session.sh. H100 read ceilings differ from the H200's: compare ratios within this
# folder (ratio_read, ratio_cub are measured in the same process).
set -euo pipefail
export SUMLAB_GIT_SHA=f49b7268d940b22303aa67b93fe15d528beee084
bash tests/gpu_session.sh build,merges

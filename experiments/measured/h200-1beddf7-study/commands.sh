#!/usr/bin/env bash
# The full study on one NVIDIA H200 (CUDA 13.0, 16 host threads) at commit 1beddf7, charts
# drawn afterwards on a machine with gnuplot from the committed CSV (--report-only).
# On the GPU machine, in the repository root (MPFR/GMP/cJSON/zlib unpacked into .deps by
# ../shared/scripts/local-prefix.sh, CCCL 3.5's headers in .deps/cccl by experiments/fetch_cccl.sh):
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=1beddf7
bash tests/gpu_session.sh build                       # build-gpu/
SUMLAB_NO_CHARTS=1 build-gpu/experiments/sumlab run all --backend gpu --preset full --threads 16 \
  -o results/h200-study                               # 22,154 rows in 151.5 s (study.log.gz)
# Here (gnuplot, cmark-gfm): charts, report.md and report.html from the CSV
sumlab run all --report-only -o experiments/measured/h200-1beddf7-study
# This study's results.csv.gz and distribution.csv.gz left the tree when later studies needed the
# room (experiments/measured stays under 8 MiB); they are in the history:
#   git show 6d8e6d3:experiments/measured/h200-1beddf7-study/results.csv.gz > results.csv.gz
#   git show 6d8e6d3:experiments/measured/h200-1beddf7-study/distribution.csv.gz > distribution.csv.gz
# report.md keeps every table; h200-35de671-study measures the sum in every format again.

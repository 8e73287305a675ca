#!/usr/bin/env bash
# The measuring switch SUMLAB_RSUM_PARTS (kernels/README.md) against the default build, on one
# NVIDIA H100 80GB HBM3 (CUDA 13.0; the device call asked for an H200 and got an H100) at commit
# c3822c6 (the switch and reproducible.cu as at 4bd661b). tests/gpu_session.sh's parts stage: the
# measuring build (sumlab, tgpu_twins), the sum twins on it in every format (quick sizes:
# twins.txt, every check passed: the same bits as the default build's), then
# experiments/bench_ab.sh, A = the default build, B = the measuring one, alternated, 2 rounds,
# `sumlab bench --n 2^20,2^22,2^24,2^28 --reps 20 --variants reproducible,cub` per format:
# ab.csv, the median ratio to CUB of each side (its per-run CSVs were not brought back).
# Result: the last block merging every block's state is slower than the global bins at every
# size: reproducible at 2^20 0.62-0.69x CUB against 0.86-0.90x, at 2^22-2^24 0.60-0.93x against
# 0.83-1.02x; the default stays.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=c3822c66da2fdf31378e763d872b9b6262a47c9d
cmake -S . -B build-new -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH \
  -DSUMLAB_GIT_SHA=$SUMLAB_GIT_SHA && cmake --build build-new -j16 --target sumlab
SUMLAB_BUILD_DIR=$PWD/build-new PARTS_BUILD_DIR=$PWD/build-parts SESSION_SECONDS=393 \
  bash tests/gpu_session.sh parts

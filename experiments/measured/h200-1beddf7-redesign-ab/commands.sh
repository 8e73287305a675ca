#!/usr/bin/env bash
# Issue 28's proof of speed: the tree before the redesign (0ce9214, built in build-old) and after
# it (1beddf7, build-gpu) timed alternately on one H200, A B A B, two rounds per dtype, in one
# session; ab_table.csv: the median ratio to CUB per (dtype, n, variant) of each, and B / A.
# Input: bench's default dataset (uniform; its float16 sum of 2^28 values overflows: a timing).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr
cmake -S OLD_TREE -B build-old -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH \
      -DSUMLAB_CCCL_INCLUDE=$PWD/.deps/cccl/include -DBUILD_TESTING=OFF && cmake --build build-old -j6
bash tests/gpu_session.sh build
bash experiments/bench_ab.sh build-old/experiments/sumlab build-gpu/experiments/sumlab OUT 2 -- \
  --n 2^24,2^28 --reps 20 --variants vec4,kahan,fp64-acc,superacc,reproducible,cub,half-acc,cub-f32acc

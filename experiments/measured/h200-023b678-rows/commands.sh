#!/usr/bin/env bash
# Row lse on one NVIDIA H200 (CUDA 13.0) at commit 023b678: float32/16-bit rows of at most 8,192
# values take a warp a row in one read (lse_rows_warp_kernel), longer rows a block a row reading
# twice. In the same call: trows_gpu (trows_gpu.log: 25,012 checks, 0 failed; 285 lse rows in the
# one-pass window and 795 shifted, each equal to its twin).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=023b678be42badf3d997eb578ad0f85f27fda2f5
bash tests/gpu_session.sh build
build-gpu/tests/trows_gpu > trows_gpu.log
for d in f32 bf16; do
  build-gpu/experiments/sumlab bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d \
    --reps 10 --op lse --variants reproducible > rows_lse_$d.csv
done

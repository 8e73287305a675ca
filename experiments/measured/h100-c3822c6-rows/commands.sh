#!/usr/bin/env bash
# The reproducible sum's rows with several rows a warp (c3822c6: 8 or 16 lanes a row, and a warp
# a row up to 32,768 values when the rows are many, in every format) against 4bd661b (a warp a
# row up to 8,192 values, a block a row above), on one NVIDIA H100 80GB HBM3 (CUDA 13.0) in one
# call: both built (sumlab only), then three rounds alternating the builds, each
#   sumlab bench --op sum --axis -1 --rows 4096,32768,4096,16384 --n 32768,4096,4096,1024 \
#     --pairs --dtype DT --reps 10 --variants reproducible        (DT: f32, bf16, f64)
# ab.txt: the median ratio to the read ceiling (same process) of each build and the change (the
# per-run CSVs were not brought back). bfloat16 gained 2-36 %, float32 and float64 lost 2-9 % at
# 4,096 and 32,768 values (a warp's loads spread over four rows), float32 at 1,024 values gained
# 5 %: bc41083 keeps the grouped rows for 16-bit input and for float32/float64 rows of at most
# 1,024 values (sl_rows_rs_lanes).
# (4bd661b's tree unpacked with `git archive 4bd661b` into .abbase/, carried to the machine)
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=c3822c66da2fdf31378e763d872b9b6262a47c9d
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH")
cmake -S .abbase -B build-base "${cfg[@]}" -DSUMLAB_GIT_SHA=4bd661bd43d4012c931c145f35580960c53f69f1 &&
  cmake --build build-base -j16 --target sumlab
cmake -S . -B build-new "${cfg[@]}" "-DSUMLAB_GIT_SHA=$SUMLAB_GIT_SHA" && cmake --build build-new -j16 --target sumlab
for r in 1 2 3; do for side in base new; do for dt in f32 bf16 f64; do
  build-$side/experiments/sumlab bench --op sum --axis -1 --rows 4096,32768,4096,16384 \
    --n 32768,4096,4096,1024 --pairs --dtype $dt --reps 10 --variants reproducible > rows_${dt}_${r}_$side.csv
done; done; done

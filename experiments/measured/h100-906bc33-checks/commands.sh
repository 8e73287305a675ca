#!/usr/bin/env bash
# One NVIDIA H100 80GB HBM3 (env.txt) at commit 906bc33: the kernels changed without a GPU in the
# session before (b611110: reproducible row sums in rs_kernel's sub-tiles; df90378: rs_take_sub;
# 6d39d4e: sl_walk_edge_index; f9f6fae: sl_rsum_take_product1_f64; d9340b2: sl_rows_grid) and
# online lse's 16-bit exponential (906bc33). tests/: the test stage's logs (rc.txt: 35 of 36 ended
# with 0; sanitize_ops_f32 reached the stage's 420 s cap inside racecheck, after memcheck had passed
# with 0 errors over 54,933 checks: since then the stage runs the three tools side by side).
# bench/: the next call on the same warm machine and build: online lse (the 16-bit exponential of
# 906bc33, reproducible's terms still float32) and the row sums of every format. The CSVs' git_sha
# line read 3e1d55a (the device copy's .git: SUMLAB_GIT_SHA was computed there) and was corrected to
# 906bc33, the committed, clean tree that was built.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=906bc3344377056d96e03d12045087368196ffff
bash tests/gpu_session.sh build,test
S=build-gpu/experiments/sumlab
for d in bf16 f16 f32; do
  $S bench --reps 10 --op lse --n 2^20,2^24,2^28 --dtype $d --dataset logits --variants online,accurate,reproducible > bench/lse_$d.csv
done
for d in bf16 f16 f32 f64; do
  $S bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --variants reproducible,superacc,block-row > bench/rows_sum_$d.csv
done

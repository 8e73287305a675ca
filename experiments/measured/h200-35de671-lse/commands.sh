#!/usr/bin/env bash
# lse on the H200 (CUDA 13.0), logits (sigma 3), 10 runs each paired with CUB's sum and a
# streaming read of the same bytes (ratio_cub, ratio_read).
# bench_lse_{f32,bf16,f16}.csv: at 35de671 (the launch shapes below made the defaults):
for d in f32 bf16 f16; do
  sumlab bench --op lse --n 2^20,2^24,2^28 --dtype $d --reps 10 --dataset logits \
    --variants online,accurate,reproducible,two-pass > bench_lse_$d.csv
done
# launch_sweep_422a5cd.csv: at 422a5cd (the same kernels, blocks of 256 and grids of 4 blocks an
# SM by default then), accurate and reproducible over block:grid shapes:
for d in f32 bf16; do
  for bg in 256:0 256:792 128:1584 512:396 128:1056 512:264; do   # grid 0: no --grid (the default)
    g=(); [ ${bg#*:} != 0 ] && g=(--grid ${bg#*:})
    sumlab bench --op lse --n 2^24,2^28 --dtype $d --reps 10 --dataset logits \
      --variants accurate,reproducible --block ${bg%:*} "${g[@]}"
  done
done
# GPU == twin, bit for bit (35de671): SUMLAB_TEST_QUICK=1 SUMLAB_TEST_OPS=lse tgpu_twins, f32
# 16,849 checks and bf16 18,707 checks, 0 failed; at ac6c796 the full runs: f32 21,083, f64
# 18,183, f16 23,123, bf16 23,355 checks, 0 failed, and compute-sanitizer memcheck on f32: 0 errors.
# rows_lse_{f32,bf16}.csv: at 196f756 (the row kernel on the one-pass terms), whole-tensor time:
for d in f32 bf16; do
  sumlab bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 \
    --op lse --variants reproducible > rows_lse_$d.csv
done
# and trows_gpu at 196f756: 24,875 checks, 0 failed (every row kernel, lse's included, against
# the 1-D twin of each row, batches of 1 to 257 rows).

#!/usr/bin/env bash
# Two H200 calls at 8a69719 (CUDA 13.0, PyTorch 2.11; 16 host threads), back to back on one machine.
# Call 1: the build, the benchmarks below (the GPU idle otherwise), then tests/gpu_session.sh's test
# stage (every GPU test at once), stopped at 560 s of the call: gpu_tests.txt lists each test's exit
# status and last line (0 failed in every log; trows_gpu and tgpu_determinism reached their time caps
# beside the others without a line, and eleven tgpu_twins runs had not finished every family).
# Call 2: the full study (../h200-8a69719-study), the lse study (../h200-8a69719-study-lse), the row
# and small-n benchmarks and Nsight Compute on the trusted sums (ncu_*.txt).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=8a69719
bash tests/gpu_session.sh build
S=build-gpu/experiments/sumlab
# call 1
for d in f32 bf16; do
  $S bench --op lse --n 2^20,2^24,2^28 --dtype $d --reps 10 --dataset logits --variants reproducible,online,accurate > lse_$d.csv
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 --op lse --variants reproducible > rows_lse_$d.csv
done
$S bench --op dot --n 2^24,2^28 --dtype f64 --reps 10 --variants correct,cublas --dataset dot-random > dot_f64.csv
$S bench --op norm2 --n 2^24,2^28 --dtype f64 --reps 10 --variants reproducible,scaled,correct,cublas --dataset normal > norm2_f64.csv
for d in f32 bf16; do
  $S bench --axis -1 --rows 4096,32768,64 --n 32768,4096,1048576 --pairs --dtype $d --reps 10 --op max --variants block-reduce,fmax > rows_max_$d.csv
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 --op mean --variants correct > rows_mean_$d.csv
done
$S bench --n 2^20,2^24,2^28 --dtype bf16 --reps 20 --variants superacc,reproducible,cub > sum_bf16.csv
OUT=gs bash tests/gpu_session.sh test      # gpu_tests.txt
# call 2 (after the two studies)
for d in f32 bf16; do
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 --variants reproducible,superacc,block-row > rows_sum_$d.csv
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 --op var --variants correct > rows_var_$d.csv
done
for d in f32 bf16 f16; do $S bench --n 2^20,2^24 --dtype $d --reps 20 --variants reproducible,superacc,cub > small_$d.csv; done
NCU="ncu --section SpeedOfLight --section WarpStateStats --section InstructionStats --section Occupancy --section LaunchStats"
nc() { local name=$1; shift; $NCU --kernel-name regex:'rs_kernel|sacc|binned|sl_cert' --launch-skip 3 --launch-count 2 $S bench --reps 3 "$@" > ncu_$name.txt 2>&1; }
nc repro_f32_2e20 --n 2^20 --dtype f32 --variants reproducible
nc sacc_f32_2e20 --n 2^20 --dtype f32 --variants superacc
nc sacc_f32_2e24 --n 2^24 --dtype f32 --variants superacc
nc repro_bf16_2e28 --n 2^28 --dtype bf16 --variants reproducible
nc sacc_bf16_2e24 --n 2^24 --dtype bf16 --variants superacc
nc repro_f32_2e24 --n 2^24 --dtype f32 --variants reproducible
# call 3 at 78d340f (the kernels of 8a69719; trows_gpu samples max/min's batch sizes): trows_gpu
# alone (gpu_tests.txt, last lines: 39,853 checks, 0 failed), and mean correct's row kernels under
# Nsight Compute (ncu_mean_rows.txt: mxrow_kernel 136-138 us at 81-82 % of DRAM, then
# mxrowx_kernel 2.48-2.50 ms with 0.85 % of the SMs' cycles active: one block, one listed row)
ncu --section SpeedOfLight --kernel-name regex:'mxrow' --launch-count 8 $S bench --axis -1 --rows 4096,32768 \
  --n 32768,4096 --pairs --dtype f32 --op mean --variants correct --reps 1 > ncu_mean_rows.txt
build-gpu/tests/trows_gpu

#!/usr/bin/env bash
# Two H200 calls (CUDA 13.0), each building its tree with tests/gpu_session.sh's build stage:
#  7c4e59f (the float32 superacc drain made warp-collective; fp64-acc on 16-bit input widened by the
#    bits alone): sacc_f32_7c4e59f.csv, sacc_f64_7c4e59f.csv and the Nsight Compute reports
#    ncu_7c4e59f_*.txt (kahan with one set of lanes, fp64-acc by the bits, superacc at 2^20);
#  b0f2207 (empty bins skipped, lane j adds bin j; fp64-acc odd lanes by the bits, even lanes by
#    the conversions; kahan 2 sets on 16-bit input): sacc.csv, acc16.csv.
# GPU tests at both commits: tgpu_twins sum f32/f16/bf16 (quick), tsuperacc_gpu, tgpu_launch (quick): 0 failed.
set -u
S=build-gpu/experiments/sumlab
W="--dataset log-uniform --param emin=-1100 --param emax=116 --param subnormals=1"
# b0f2207
for f in "--dataset uniform" "$W"; do
  $S bench --n 2^20,2^24 --dtype f32 --variants superacc,cub --reps 20 $f >> sacc.csv
  $S bench --n 2^20,2^24,2^28 --dtype bf16 --variants superacc,cub,cub-f32acc --reps 20 $f >> sacc.csv
done
for dt in bf16 f16; do
  $S bench --n 2^24,2^28 --dtype $dt --variants fp64-acc,kahan,cub --reps 20 --dataset uniform >> acc16.csv
done
# 7c4e59f
for f in "--dataset uniform" "$W"; do
  $S bench --n 2^20,2^24,2^28 --dtype f32 --variants superacc,reproducible,cub --reps 20 $f >> sacc_f32_7c4e59f.csv
done
$S bench --n 2^20,2^24 --dtype f64 --variants superacc,reproducible,cub --reps 20 --dataset uniform >> sacc_f64_7c4e59f.csv
NCU="ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section Occupancy"
$NCU --kernel-name regex:gs_ --launch-skip 2 --launch-count 1 $S bench --n 2^28 --dtype f16 --variants kahan --reps 3 > ncu_7c4e59f_kahan_f16_1set.txt
$NCU --kernel-name regex:gs_ --launch-skip 2 --launch-count 1 $S bench --n 2^28 --dtype bf16 --variants kahan --reps 3 > ncu_7c4e59f_kahan_bf16_1set.txt
$NCU --kernel-name regex:gs_ --launch-skip 2 --launch-count 1 $S bench --n 2^28 --dtype f16 --variants fp64-acc --reps 3 > ncu_7c4e59f_fp64acc_f16_bits.txt
$NCU --kernel-name regex:sacc --launch-skip 2 --launch-count 1 $S bench --n 2^20 --dtype f32 --variants superacc --reps 3 > ncu_7c4e59f_sacc_f32_2e20.txt
$NCU --kernel-name regex:rs_kernel --launch-skip 2 --launch-count 1 $S bench --n 2^20 --dtype f64 --variants superacc --reps 3 > ncu_7c4e59f_sacc_f64_2e20.txt

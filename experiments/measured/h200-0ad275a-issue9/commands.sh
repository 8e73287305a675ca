#!/usr/bin/env bash
# What produced this folder (one H200, CUDA 13.0, CCCL 3.3 headers from .deps, built by
# `tests/gpu_session.sh build`). bf5a067/: first pass; 0ad275a/: second pass. FAM(f) is
#   uniform: --dataset uniform
#   full:    --dataset log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1
#   ill:     --dataset ill-conditioned --param cond=1e16
#   sub:     --dataset subnormal
S=build-gpu/experiments/sumlab
# gpu tests of the changed kernels (both passes), in parallel
build-gpu/tests/tsuperacc_gpu; SUMLAB_TEST_DTYPE=f64 build-gpu/tests/tgpu_twins
SUMLAB_TEST_DTYPE=f32 build-gpu/tests/tgpu_twins; build-gpu/tests/tgpu_determinism   # (f32: bf5a067 only)
# bf5a067: superacc float64's fixed cost, by measuring mode (SUMLAB_SACC_F64_MODE: 0 both ends of the
# certified rounding on two lanes, 16 on one lane, 4 no certification, 1 no fallback launch)
for m in 0 16 4 1; do SUMLAB_SACC_F64_MODE=$m $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,reproducible,cub; done
for g in 528 512; do $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,cub --block 256 --grid $g; done
for c in 256x512 512x264 128x1024; do $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub --block ${c%x*} --grid ${c#*x}; done
for f in uniform full ill sub; do
  $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,reproducible,cub FAM($f)
  $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,superacc,cub FAM($f)
done
ncu --kernel-name regex:"rs_kernel|sacc_kernel|DeviceReduceKernel|DeviceReduceSingleTile" --launch-skip 2 --launch-count 8 \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
    $S bench --reps 1 --dtype f32 --n 2^26 --variants reproducible,cub
ncu --kernel-name regex:"rs_kernel|sacc_kernel" --metrics gpu__time_duration.sum $S bench --reps 2 --dtype f64 --n 2^24 --variants superacc,reproducible
# 0ad275a: the fallback kernel as a programmatic dependent (default) against an ordinary launch (mode 8)
SUMLAB_SACC_F64_MODE=8 $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,cub --dataset uniform
for f in uniform full ill sub; do $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,cub FAM($f); done
for f in uniform full ill sub; do $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub --block 512 --grid 264 FAM($f); done
$S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub --dataset uniform
for f in full uniform; do $S bench --backend cpu --dtype f64 --n 2^24 --reps 10 --threads 1 FAM($f); done

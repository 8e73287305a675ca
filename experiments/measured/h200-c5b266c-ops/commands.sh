#!/usr/bin/env bash
# One H200 call (CUDA 13.0, PyTorch 2.11) at c5b266c (norm2's new first pass merged; fused's
# packed 16-bit maximum and welford's shared-reciprocal division, both reverted after this run at
# a0b6545 since they gained nothing: var.csv, var_sweep.csv and the ncu_fused/ncu_welford reports
# are their measurement), built by tests/gpu_session.sh's build stage. checks.txt: the GPU checks.
set -u
S=build-gpu/experiments/sumlab; T=build-gpu/tests
$T/tnorm_cert_gpu; $T/tnorm_gpu; $T/tdot_cert_gpu; $T/tdot_gpu; $T/tgpu_determinism
for d in f32 f64 bf16 f16; do SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=norm2,dot,mean,var,std,max $T/tgpu_twins; done
for dt in f32 f64 bf16; do $S bench --op norm2 --n 2^28 --dtype $dt --reps 10 --variants correct,cublas --dataset normal >> norm2.csv; done
$S bench --op dot --n 2^28 --dtype f32 --reps 10 --variants correct,cublas --dataset dot-random > dot.csv
for g in 264 792 1056; do for b in 256 512; do
  $S bench --op dot --n 2^28 --dtype f32 --reps 10 --variants correct,cublas --dataset dot-random --block $b --grid $g >> dot_sweep.csv
done; done
for dt in bf16 f16 f32; do $S bench --op var --n 2^28 --dtype $dt --reps 10 --variants fused,welford,welford-ln,textbook --dataset normal >> var.csv; done
for g in 264 1056; do $S bench --op var --n 2^28 --dtype bf16 --reps 10 --variants welford,fused --dataset normal --block 256 --grid $g >> var_sweep.csv; done
PYTHONPATH=build-gpu/python python3 experiments/bench_moments.py --n 2^28 --reps 20 --dtypes float32,float64,bfloat16,float16 \
  --ops norm2:correct,var:welford,var:fused,var:welford-ln,dot:correct > bench_moments_py.csv
NCU="ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section Occupancy"
$NCU --kernel-name regex:mxd_kernel --launch-skip 2 --launch-count 1 $S bench --op var --n 2^28 --dtype f64 --variants correct --reps 3 --dataset normal > ncu_var_f64.txt
$NCU --kernel-name regex:ex_kernel --launch-skip 2 --launch-count 1 $S bench --op var --n 2^28 --dtype bf16 --variants fused --reps 3 --dataset normal > ncu_fused_bf16.txt
$NCU --kernel-name regex:wf_kernel --launch-skip 2 --launch-count 1 $S bench --op var --n 2^28 --dtype bf16 --variants welford --reps 3 --dataset normal > ncu_welford_bf16.txt
$NCU --kernel-name regex:psum --launch-skip 2 --launch-count 1 $S bench --op norm2 --n 2^28 --dtype f32 --variants correct --reps 3 --dataset normal > ncu_norm2_f32.txt

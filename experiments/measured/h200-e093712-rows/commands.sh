#!/usr/bin/env bash
# One H200 call (CUDA 13.0, PyTorch 2.11) at e093712, built by tests/gpu_session.sh's build stage:
# superacc's certified row pass and correct var's warp-per-row kernel. checks.txt: the GPU checks
# (trows_gpu with its per-path row counts, tgpu_twins sum/mean/var quick in f32/bf16/f16: 0 failed).
# prof.txt: host time per call and event time of the package beside PyTorch (prof_calls.py).
set -u
S=build-gpu/experiments/sumlab; T=build-gpu/tests
$T/trows_gpu
for d in f32 bf16 f16; do SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum,mean,var $T/tgpu_twins; done
for d in f32 bf16; do
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 --variants superacc,reproducible >> rows_sum.csv
  $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --reps 10 --op var --variants correct >> rows_var.csv
done
PYTHONPATH=build-gpu/python python3 prof_calls.py > prof.txt

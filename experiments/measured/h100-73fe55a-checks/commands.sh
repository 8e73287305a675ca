#!/usr/bin/env bash
# Two calls on NVIDIA H100 80GB HBM3 machines (CUDA 13.0, driver 580.159.04; the calls were given
# H100s), the session of 2026-12-05 evening.
# Call 1 at d13caf7 (the four review commits b9cefdf..d13caf7, not run on a GPU before): the build
# and every GPU test at once (gpu_tests_d13caf7.txt: rc and last line of each).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=d13caf7c71c26643574bda3b1cd2250eccbc3400
bash tests/gpu_session.sh build,test
# Call 2 at 73fe55a: the build; Nsight Compute on the correct mean's row kernels (ncu_mxrowx.txt);
# the full study (../h100-73fe55a-study); trows_gpu alone (trows_gpu.log); the fused variance
# beside Welford's LayerNorm form and CUB's variance (fused_*.csv).
export SUMLAB_GIT_SHA=73fe55abf1218f4694121a79f8a7c18865731250
bash tests/gpu_session.sh build
S=build-gpu/experiments/sumlab
ncu --section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats \
  -k regex:mxrowx --launch-count 1 $S bench --axis -1 --rows 4096 --n 32768 --dtype f32 --reps 1 \
  --op mean --variants correct > ncu_mxrowx.txt
STUDY_SECONDS=230 ANCHORS_SECONDS=60 bash tests/gpu_session.sh study
build-gpu/tests/trows_gpu > trows_gpu.log
for d in bf16 f32; do
  $S bench --op var --n 2^28 --dtype $d --reps 10 --dataset normal --variants fused,welford-ln,cub > fused_$d.csv
done

#!/usr/bin/env bash
# 16-bit lse accurate (its first pass's terms through sl_lm_expf16; the pipelined walk), measured on
# one NVIDIA H100 80GB HBM3 (env.txt; CUDA 13.0, driver 580.159.04; every device call of the session
# was given an H100, the first two asked as H200s). Three calls, the first two on one machine, the
# third on a fresh one. The CSVs' git_sha column names the trees below (SUMLAB_GIT_SHA passed as a
# literal). The test processes' last lines: tests.txt. Tables: ab_*.log (bench_ab.sh, 2 rounds
# alternated, median read ratio; B_over_A above 1 is B faster).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr
# call 1, tree f1b9314 (accurate's terms through sl_lm_expf16; the folds' drain through
# sacc_warp_sum_i64): the build and the full test stage (33 of 33 passed); beside the tests,
# build-old from 0ee4391's tree (git archive, sumlab only); then ab_0ee4391_f1b9314.log (A = 0ee4391)
SUMLAB_GIT_SHA=f1b9314cd09ec28d751c5ccf79bee16c78c1e054 SESSION_SECONDS=420 bash tests/gpu_session.sh build,test
BENCH_AB_DTYPES="bf16 f16" BENCH_AB_RATIO=ratio_read bash experiments/bench_ab.sh \
  build-old/experiments/sumlab build-gpu/experiments/sumlab ab 2 -- --op lse --n 2^24,2^28 \
  --reps 20 --dataset logits --variants accurate,reproducible
# call 2, same tree and machine: the switches stage, its build with SUMLAB_TICKET_ACQ_REL,
# SUMLAB_LSE_PIPELINE (the pipelined walk, then a switch) and SUMLAB_LSE_REP1_BINS ON; its tests,
# then ab_switches.log (A = the default, B = the switch build: accurate's B is the pipelined walk,
# reproducible's B the bins)
SUMLAB_GIT_SHA=f1b9314cd09ec28d751c5ccf79bee16c78c1e054 SUMLAB_BUILD_TARGETS=sumlab SESSION_SECONDS=470 \
  SWITCHES_AB=ab_lse16 bash tests/gpu_session.sh switches
# call 3, tree 087e670 (the pipelined walk the default; SUMLAB_LSE_ACCF_FLAT=ON the flat walk):
# the lse/norm2/dot twins of every format (quick), tgpu_launch (quick), trows_gpu, tlib_gpu, all 0
# failed; then ab_accf.log (A = the default, B = SUMLAB_LSE_ACCF_FLAT=ON alone)
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH
     -DSUMLAB_GIT_SHA=087e6709f3d028476832bec0b9c36ab27cb1d09c)
cmake -S . -B build-gpu "${cfg[@]}" && cmake --build build-gpu -j16 --target sumlab tgpu_twins tgpu_launch trows_gpu tlib_gpu
cmake -S . -B build-flat "${cfg[@]}" -DSUMLAB_LSE_ACCF_FLAT=ON && cmake --build build-flat -j8 --target sumlab
for d in f32 f64 f16 bf16; do
  SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=lse,norm2,dot build-gpu/tests/tgpu_twins
done
SUMLAB_TEST_QUICK=1 build-gpu/tests/tgpu_launch; build-gpu/tests/trows_gpu; build-gpu/tests/tlib_gpu
BENCH_AB_DTYPES="bf16 f16" BENCH_AB_RATIO=ratio_read bash experiments/bench_ab.sh \
  build-gpu/experiments/sumlab build-flat/experiments/sumlab ab 2 -- --op lse --n 2^20,2^24,2^28 \
  --reps 20 --dataset logits --variants accurate

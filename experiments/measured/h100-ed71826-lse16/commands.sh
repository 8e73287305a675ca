#!/usr/bin/env bash
# lse on 16-bit input through lse_math.h's 16-bit exponential (sl_lm_expf16: online's terms since
# 906bc33, reproducible's one-pass terms, 1-D and row-wise, since ed71826) on one NVIDIA H100 80GB
# HBM3 (env.txt) at commit ed71826: the build, the benchmarks (the GPU to themselves), then
# trows_gpu (58,927 checks, 0 failed) and the lse twins (quick: 19,173 f32, 16,533 f64, 21,747 f16,
# 21,813 bf16 checks, 0 failed) side by side. The CSVs' git_sha line read 3e1d55a (the device
# copy's .git, through SUMLAB_GIT_SHA=$(git rev-parse HEAD) evaluated there) and was corrected to
# ed71826, the committed, clean tree that was built. Then, on the same warm machine after the
# studies, Nsight Compute on the bfloat16 2^28 kernels (ncu_lse_bf16_*.txt).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=ed718269ff07c5eaeb02827e93d891f44e839cc9
bash tests/gpu_session.sh build,lse16
# what lse16 runs (sumlab = build-gpu/experiments/sumlab; each bench capped at 120 s):
#   for d in bf16 f16 f32; do
#     sumlab bench --reps 10 --op lse --n 2^20,2^24,2^28 --dtype $d --dataset logits --variants online,accurate,reproducible
#     sumlab bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype $d --op lse --dataset logits --variants reproducible
#   done
#   build-gpu/tests/trows_gpu; SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=D SUMLAB_TEST_OPS=lse build-gpu/tests/tgpu_twins (D: bf16 f16 f32 f64)
for v in online reproducible; do
  ncu --kernel-name regex:'lse_(kernel|rep1)' --launch-count 2 \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__registers_per_thread \
    build-gpu/experiments/sumlab bench --op lse --n 2^28 --dtype bf16 --dataset logits --variants $v --reps 1 > ncu_lse_bf16_$v.txt
done
# Last, a fresh call (the same tree plus tests/sanitize.sh's SUMLAB_SANITIZE_TOOLS): the lse kernels
# of both 16-bit formats under compute-sanitizer, the three tools side by side (sanitize/: 5,973
# checks each, memcheck and synccheck 0 errors, racecheck 0 hazards):
bash tests/gpu_session.sh build
for d in bf16 f16; do for tool in memcheck racecheck synccheck; do
  SUMLAB_SANITIZE_TOOLS=$tool SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=lse bash tests/sanitize.sh build-gpu/tests/tgpu_twins > sanitize/san_${d}_$tool.log 2>&1 &
done; done; wait

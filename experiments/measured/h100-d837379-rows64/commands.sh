#!/usr/bin/env bash
# Float64 row kernels on one NVIDIA H100 80GB HBM3 (env.txt; the session's calls were given no
# H200) at commit d837379: superacc's certified 4-fold binned pass per row with the exact kernel on
# the rows it lists (c4c36fe), var/std `correct`'s mx_fast64.h pass per row with mxrowx_kernel
# behind it (d837379).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=d837379
bash tests/gpu_session.sh build,rows64
# what rows64 runs (S = build-gpu/experiments/sumlab; rows_*.csv here):
#   $S bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f64 --variants superacc,reproducible,block-row
#   $S bench --reps 10 --axis -1 --rows 65536 --n 1024 --dtype f64 --variants superacc,reproducible,block-row
#   $S bench --reps 10 --op var --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f64 --variants correct,reproducible,welford
#   build-gpu/tests/trows_gpu: 59,210 checks, 0 failed; its float64 certified rows in trows_gpu_f64.txt
#   (the rows the exact kernel summed are the ones sl_rsum_certify_f64 leaves undecided)
# (the stage's compute-sanitizer runs on `sumlab reduce --axis` went through the 1-D launcher on
# each row, not the row kernels: replaced by the bench runs below)
# Then the test stage on the same warm machine (tests.txt): 24 of 38 processes ended with 0 and
# 0 failed checks in every log; the other 14 (the sum and moments twins, trows_gpu, the five
# compute-sanitizer runs) reached their caps side by side with the sanitizers, and the nine
# non-sanitizer ones were run again alone, all passing:
bash tests/gpu_session.sh test
T=build-gpu/tests
for d in f32 f64 f16 bf16; do
  SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum $T/tgpu_twins &
  SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=mean,var,std,max,min $T/tgpu_twins &
done
$T/trows_gpu & wait
# compute-sanitizer on the float64 row kernels (sanitize.txt): the certified sum rows on
# ill-conditioned rows (cond 1e200: the exact kernel takes most of them), the var rows on data with
# 100 NaNs (their rows go to the exact kernel). memcheck: 0 errors throughout; racecheck and
# synccheck: 0 hazards / 0 errors on the var kernels, and they refuse the sum rows' exact kernel,
# which lived in superacc64.cu's device-runtime module at d837379 (moved to rows.cu at 5c1f7b9 for
# that reason; not run on a GPU since).
S=build-gpu/experiments/sumlab
for tool in memcheck racecheck synccheck; do for n in 4097 9001; do
  compute-sanitizer --tool $tool --error-exitcode 9 $S bench --axis -1 --rows 600 --n $n --dtype f64 --variants superacc --reps 1 --dataset ill-conditioned --param cond=1e200 &
  compute-sanitizer --tool $tool --error-exitcode 9 $S bench --op var --axis -1 --rows 600 --n $n --dtype f64 --variants correct --reps 1 --dataset special --param count=100 &
done; done; wait

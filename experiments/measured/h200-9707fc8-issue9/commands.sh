#!/usr/bin/env bash
# What produced this folder: six device passes on H200s (CUDA 13.0, CCCL 3.3 headers from .deps),
# each built by `CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=<commit> tests/gpu_session.sh build`
# (passes 2 and 3 on one machine, each other pass on a freshly started one). FAM(f) is
#   uniform: --dataset uniform
#   full:    --dataset log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1
#   ill:     --dataset ill-conditioned --param cond=1e16
#   sub:     --dataset subnormal
S=build-gpu/experiments/sumlab
# 704924a/: the L2 bulk prefetch distance (SUMLAB_RSUM_PREFETCH, rounds of tiles; removed since) and
# the float32 group maximum: float FMNMX (build-gpu) against the integer maximum (build-int,
# configured with -DCMAKE_CUDA_FLAGS=-DSL_RSUM_HMAX_INT, a switch removed since); then gpu tests
for f in uniform full; do
  for pf in 0 1 2 3; do SUMLAB_RSUM_PREFETCH=$pf $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub FAM($f); done   # f32_${f}_pf$pf.csv
  for pf in 0 1; do SUMLAB_RSUM_PREFETCH=$pf build-int/experiments/sumlab bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub FAM($f); done  # f32int_${f}_pf$pf.csv
  for pf in 0 1 2; do SUMLAB_RSUM_PREFETCH=$pf $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants reproducible,superacc,cub FAM($f); done  # f64_${f}_pf$pf.csv
done
build-gpu/tests/tsuperacc_gpu; for d in f32 f64 bf16; do SUMLAB_TEST_DTYPE=$d build-gpu/tests/tgpu_twins; done; build-gpu/tests/tgpu_determinism   # t_*.log, rc.txt
# 24ba778/: tiles through a two-stage cp.async shared-memory pipeline (SUMLAB_RSUM_PIPE=1) against
# register loads (0) in one binary; then gpu tests (t_*.log, rc.txt)
for f in uniform full ill sub; do for p in 1 0; do SUMLAB_RSUM_PIPE=$p $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,superacc,cub FAM($f); done; done
for f in uniform full; do for p in 1 0; do SUMLAB_RSUM_PIPE=$p $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants reproducible,superacc,cub FAM($f); done; done
for p in 1 0; do SUMLAB_RSUM_PIPE=$p $S bench --reps 20 --dtype bf16 --n 2^24,2^28 --variants reproducible,cub --dataset uniform; done
# 8150eb7/: the same with the whole carveout as shared memory; Nsight Compute's occupancy of the
# pipelined kernel (ncu.txt: 2 blocks a SM, register-limited, as without the pipeline)
for p in 1 0; do
  SUMLAB_RSUM_PIPE=$p $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub FAM(uniform)
  SUMLAB_RSUM_PIPE=$p $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub FAM(full)
  SUMLAB_RSUM_PIPE=$p $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants reproducible,superacc,cub FAM(uniform)
done
SUMLAB_RSUM_PIPE=1 ncu --kernel-name regex:rs_kernel --launch-count 1 --section Occupancy --section LaunchStats $S bench --reps 1 --dtype f32 --n 2^24 --variants reproducible --dataset uniform
# f2440d3/ (the kernel kept: c614a6c's with the float32 FMNMX group maximum): the whole gpu stage
# (tests/, summary.txt), the benchmark, then the full study (../h200-f2440d3-study)
bash tests/gpu_session.sh build,test
for f in uniform full ill sub; do
  $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,superacc,cub FAM($f)   # b32_$f.csv
  $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,reproducible,cub FAM($f)   # b64_$f.csv
done
SUMLAB_JOB_LOG=jobs.csv SUMLAB_NO_CHARTS=1 $S run all --backend gpu --preset full --threads 16 -o study
# 9f22f46/ (kernels as f2440d3): tests/sanitize.sh (memcheck, racecheck and synccheck, quick) on the
# float64 and float32 twins, in parallel; racecheck and synccheck skip superacc/f64 (dynamic parallelism)
for d in f64 f32; do SUMLAB_TEST_DTYPE=$d bash tests/sanitize.sh build-gpu/tests/tgpu_twins; done   # san_$d.log, rc.txt
# 9707fc8/ (float32 folds rounded once in registers, sl_rsum_state_round_f32): quick gpu tests in
# parallel (t_*.log, rc.txt), the new rounding (mode 0) against the generic one (SUMLAB_RSUM_MODE=1)
# in one binary, the other families, then the full study (../h200-9707fc8-study)
build-gpu/tests/tsuperacc_gpu; for d in f32 bf16 f16; do SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d build-gpu/tests/tgpu_twins; done; build-gpu/tests/tgpu_determinism
for m in 0 1; do SUMLAB_RSUM_MODE=$m $S bench --reps 20 --dtype f32 --n 2^10,2^24,2^28 --variants reproducible,cub FAM(uniform); done   # b32_uniform_m$m.csv
for f in full ill sub; do $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub FAM($f); done                       # b32_$f.csv
SUMLAB_JOB_LOG=jobs.csv SUMLAB_NO_CHARTS=1 $S run all --backend gpu --preset full --threads 16 -o study

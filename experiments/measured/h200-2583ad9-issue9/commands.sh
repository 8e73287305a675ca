#!/usr/bin/env bash
# What produced this folder: one device pass on an H200 (CUDA 13.0, CCCL 3.3 headers from .deps)
# at 2583ad9 (the float64 folds of `reproducible` rounded in registers; 9dde9ba's kernel, the
# commit after it only narrows a test), run as .devbin/gpu5.sh:
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=2583ad9 STUDY_SECONDS=250
bash tests/gpu_session.sh build                                                   # summary.txt, env.txt
S=build-gpu/experiments/sumlab
FULL="--dataset log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1"
# SUMLAB_RSUM_MODE=1: the generic limbs rounding (before), 0: the register forms (now); one binary
for r in 1 2; do for m in 0 1; do
  SUMLAB_RSUM_MODE=$m $S bench --reps 20 --dtype f64 --n 2^10,2^14,2^18,2^20,2^22,2^24,2^26,2^28 --variants reproducible,cub   # b64_uniform_m${m}_r$r.csv
done; done
for m in 0 1; do
  SUMLAB_RSUM_MODE=$m $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants reproducible,cub $FULL                              # b64_full_m$m.csv
  SUMLAB_RSUM_MODE=$m $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants reproducible,cub --dataset ill-conditioned --param cond=1e16   # b64_ill_m$m.csv
  SUMLAB_RSUM_MODE=$m $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants reproducible,cub --dataset subnormal                 # b64_sub_m$m.csv
done
SUMLAB_RSUM_MODE=0 $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub                                        # b32_uniform.csv
bash tests/gpu_session.sh test                                                    # tests/ (11 gpu tests, rc.txt)
SUMLAB_JOB_LOG=jobs.csv bash tests/gpu_session.sh study                           # ../h200-2583ad9-study (charts rendered here: --report-only)

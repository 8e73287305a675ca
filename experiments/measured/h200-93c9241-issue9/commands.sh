#!/usr/bin/env bash
# What produced this folder (three fresh H200s, CUDA 13.0, CCCL 3.3 headers from .deps, each built
# by `CMAKE_PREFIX_PATH=$PWD/.deps/usr tests/gpu_session.sh build`). 1953a3c/, 3df129f/, 93c9241/:
# one pass each. FAM(f) is
#   uniform: --dataset uniform
#   full:    --dataset log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1
#   ill:     --dataset ill-conditioned --param cond=1e16
#   sub:     --dataset subnormal
#   canc:    --dataset cancellation          (float64 superacc's certificate cannot decide: the fallback)
S=build-gpu/experiments/sumlab
# 1953a3c: gpu tests of the changed kernels, in parallel (t_*.log, rc.txt)
build-gpu/tests/tsuperacc_gpu; SUMLAB_TEST_DTYPE=f64 build-gpu/tests/tgpu_twins
SUMLAB_TEST_DTYPE=f32 build-gpu/tests/tgpu_twins; build-gpu/tests/tgpu_determinism
for f in uniform full ill sub; do
  $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,reproducible,cub FAM($f)   # b64_$f.csv
  $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,superacc,cub FAM($f)   # b32_$f.csv
done
for f in uniform full ill sub; do for d in f64 f32; do
  $S bench --backend cpu --dtype $d --n 2^24 --reps 10 --threads 16 FAM($f)                   # cpu_${d}_$f.csv
done; done
# 3df129f: the gpu stage (tests/), then the float64 twins under the sanitizer (san64.log)
bash tests/gpu_session.sh test
SUMLAB_TEST_DTYPE=f64 bash tests/sanitize.sh build-gpu/tests/tgpu_twins
for f in uniform full ill sub canc; do $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,reproducible,cub FAM($f); done
for f in uniform canc; do SUMLAB_SACC_F64_MODE=8 $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,cub FAM($f); done  # b64m8_$f.csv
for f in uniform full; do $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants superacc,reproducible,cub FAM($f); done
# 93c9241: racecheck with the host-launched fallback (race64_m8.log: still the tool's dynamic-parallelism
# warning: the binned kernel holds a device-side launch), the full study (../h200-93c9241-study), benches
SUMLAB_SACC_F64_MODE=8 SUMLAB_TEST_QUICK=2 SUMLAB_TEST_DTYPE=f64 compute-sanitizer --tool racecheck build-gpu/tests/tgpu_twins
SUMLAB_JOB_LOG=jobs.csv SUMLAB_NO_CHARTS=1 $S run all --backend gpu --preset full --threads 16 -o h200-93c9241-study
for f in uniform full ill sub; do $S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,reproducible,cub FAM($f); done
$S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants superacc,reproducible,cub --dataset uniform
# ecb9cad (reverted in 48779fd): gpu tests in parallel, then the last round spread (mode 0) against
# whole tiles to the end (mode 32), then the full study (not committed)
build-gpu/tests/tsuperacc_gpu; for d in f32 f64 bf16; do SUMLAB_TEST_DTYPE=$d build-gpu/tests/tgpu_twins; done; build-gpu/tests/tgpu_determinism
for f in uniform full; do for m in 0 32; do
  SUMLAB_RSUM_MODE=$m $S bench --reps 20 --dtype f32 --n 2^24,2^28 --variants reproducible,cub FAM($f)   # b32_${f}_m$m.csv
done; done
$S bench --reps 20 --dtype f64 --n 2^24,2^28 --variants superacc,reproducible,cub --dataset uniform        # b64_uniform.csv

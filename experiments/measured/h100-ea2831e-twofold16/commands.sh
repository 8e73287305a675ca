#!/usr/bin/env bash
# The gpu tests and the 16-bit reproducible benchmarks at commit ea2831e on one NVIDIA H100 80GB
# HBM3 (env.txt), the session's only device call that started (asked for an H200, given an H100,
# after eight tries that got no machine). call.sh is the script it ran: 408 s.
#
# Tests (tests/gpu_session.sh build,test; tests.txt, rc.txt): 33 of 33 processes passed. Among
# them: tgpu_twins sum in every format (bf16 88,701 checks and f16 87,290 with the 2-fold path's
# boundary data, against 86,691 / 85,883 at 7ca2328 before it; kahan's plain-sum fallback of
# e35c8ce on the special and overflow families), the dot/lse/norm2 twins (dot kahan and dot2 on
# Inf products), trows_gpu (59,210: the reproducible row kernels' 2-fold path), tgpu_determinism,
# the library, NCCL under its three algorithms, and the Python package (279 passed, 1 skipped).
#
# Benchmarks (one file per format and family, DT_FAMILY.csv.gz: `zcat` reads them): every row passed
# its own check (one result over the repetitions; within its bound of the exact sum).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=ea2831ed3f91647774ec5173ec5a3722010812c9
bash tests/gpu_session.sh build,test
S=build-gpu/experiments/sumlab
for dt in bf16 f16; do                       # DT_FAMILY.csv.gz
  ill=1e16 wide=116; [ $dt = f16 ] && { ill=1e3; wide=2; }
  V="--n 2^20,2^24,2^28 --dtype $dt --variants reproducible,superacc,cub,cub-f32acc --reps 20"
  $S bench $V --dataset uniform                                                                # uniform
  $S bench $V --dataset normal                                                                 # normal
  $S bench $V --dataset subnormal                                                              # subnormal
  $S bench $V --dataset ill-conditioned --param cond=$ill                                      # ill
  $S bench $V --dataset log-uniform --param emin=-1100 --param emax=$wide --param subnormals=1  # wide
done
$S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --reps 10 --variants reproducible,block-row  # rows_bf16.csv.gz
# The ten DT_FAMILY.csv.gz files gave way under the folder's size limit to the same commands at
# 565e2a1 on the same kind of machine (../h100-565e2a1-checks/twofold16/, within 3 % of these
# ratios): they are in the history, e.g.
#   git show d7c2a54:experiments/measured/h100-ea2831e-twofold16/bf16_uniform.csv.gz | zcat

#!/usr/bin/env bash
# The float64 certificate's ends rounded in registers (e82f234: exact/binned.h's
# sl_rsum_state_certify_end_f64, one signed 256-bit integer instead of 12 limbs in local memory):
# superacc float64 1-D and rows, dot/norm2 correct's certified pass. One NVIDIA H200 (env.txt) at
# commit bf31248, one call of 163 s (the session's device time was nearly spent on starts that
# found no machine): the benchmarks, then four GPU tests side by side.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=bf31248410079f5289dfd17da8e77610044ebec3
export SUMLAB_BUILD_TARGETS="sumlab tsuperacc_gpu trows_gpu tdot_cert_gpu tnorm_cert_gpu"
bash tests/gpu_session.sh build
S=build-gpu/experiments/sumlab T=build-gpu/tests
for ds in uniform log-uniform; do          # sum_f64_<ds>.csv
  $S bench --reps 20 --n 2^20,2^24 --dtype f64 --variants superacc,reproducible --dataset $ds
done
# rows_f64.csv
$S bench --reps 10 --axis -1 --rows 4096,65536 --n 32768,1024 --pairs --dtype f64 --variants superacc,reproducible
# rc.txt and the logs: tsuperacc_gpu 2,882 checks, tdot_cert_gpu 1,725 and tnorm_cert_gpu 4,577,
# 0 failed; trows_gpu reached its 70 s cap (it prints at its end: no result; run again, alone, for
# 75 s: the cap again, no output). Not measured here: racecheck/synccheck on the listed float64
# rows' exact kernel, the gpu test stage, the study.
for t in tsuperacc_gpu trows_gpu tdot_cert_gpu tnorm_cert_gpu; do timeout 70 $T/$t & done; wait

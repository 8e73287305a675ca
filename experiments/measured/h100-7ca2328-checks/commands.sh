#!/usr/bin/env bash
# The gpu tests and the sanitizer runs at commit 7ca2328 on one NVIDIA H100 80GB HBM3 (env.txt;
# every device call of the session was given an H100), and a probe of superacc float64 at 2^20.
# The study of the same commit: ../h100-7ca2328-study.
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=7ca23282c4844ffc294769123802655622647cb6
# Call 1 (384 s): the build with the Python package, the gpu test stage: 33 of 33 processes passed
# (rc.txt; each one's last line in tests.txt: the twins of every operation and format, the rows
# (trows_gpu 59,210 checks, which had reached its cap at bf31248), the certified dot/norm2 and
# moments, the library, NCCL under its three algorithms, the Python package: 209 passed, 1 skipped
# (test_inputs.py's CPU-only path, skipped in a CUDA build where test_gpu.py runs the real one)).
bash tests/gpu_session.sh build,test
# Call 2, warm machine: the probe (sacc64_*.txt; ncu_sum_f64_2e20_*.txt.gz), then the sanitizer
# stage under a 430 s cap: 16 of its 17 runs passed (sanitize_rc.txt: memcheck, racecheck and
# synccheck on the float64 row kernels, the 16-bit sums, the other operations' float32 kernels);
# the 17th, racecheck on those float32 kernels, was cut off by the cap with 0 failed so far.
S=build-gpu/experiments/sumlab
for t in device call; do        # sacc64_t_device.txt, sacc64_t_call.txt
  $S bench --n 2^20,2^22 --dtype f64 --variants superacc,reproducible,cub --reps 50 --timing $t --format table
done
# sacc64_t_sacc_256.txt, sacc64_t_rep_512.txt: each with the other's launch shape
$S bench --n 2^20 --dtype f64 --variants superacc --block 256 --grid 512 --reps 50 --format table
$S bench --n 2^20 --dtype f64 --variants reproducible --block 512 --grid 256 --reps 50 --format table
for v in superacc reproducible cub; do    # ncu_sum_f64_2e20_$v.txt.gz
  ncu --kernel-name regex:'rs_kernel|Reduce|sacc' --launch-skip 3 --launch-count 3 \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
    $S bench --n 2^20 --dtype f64 --variants $v --reps 2
done
timeout 430 bash tests/gpu_session.sh sanitize
# Call 3 (after the study, same machine): L2 kept warm between runs against the default flush,
# 2^20 float64, median of 50 (us): superacc 15.79 / 12.29, reproducible 11.30 / 10.14, CUB 10.43 / 7.81
for f in "" --no-flush; do
  $S bench --n 2^20 --dtype f64 --variants superacc,reproducible,cub --reps 50 $f --columns variant,n,time_ms_median,ratio_cub --format table
done

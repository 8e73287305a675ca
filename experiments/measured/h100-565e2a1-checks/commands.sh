#!/usr/bin/env bash
# The gpu tests, the 16-bit reproducible benchmarks, an A/B of fp64-acc's loads and compute-sanitizer
# on the 16-bit sums at commit 565e2a1 on one NVIDIA H100 80GB HBM3 (env.txt): the session's one
# device machine (asked for an H200; given an H100 after nine tries that got none), three calls.
#
# Call 1, after the full study (../h100-565e2a1-study): tests/gpu_session.sh test under the 278 s
# the call had left. tests.txt (each process's last line) and tests_rc.txt: 32 processes ended, all
# with 0 failed; trows_gpu was still running at the cap (its 33 lines, every one a row family equal
# to its twin, none failed). Among them tgpu_twins sum in every format (bf16 88,701 checks, f16
# 87,290, f32 83,259, f64 79,827): kahan's plain-sum fallback moved out of line (b6359e3) on the
# special and overflow families; the dot/lse/norm2 twins (dot kahan and dot2 on Inf products).
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=565e2a14ce1e6c771dc0d1cfce5fc48c2d420113
bash tests/gpu_session.sh test
#
# Call 2 (144 s): twofold16/DT_FAMILY.csv.gz (stdout; .err its stderr), the twofold16 stage's
# benchmarks without the rows; every row passed its own check.
S=build-gpu/experiments/sumlab   # as run (stdout and stderr into one file, split here into .csv.gz and .err)
for d in bf16 f16; do w=116; i=1e16; [ $d = f16 ] && { w=2; i=1e3; }
  for f in uniform normal subnormal ill wide; do
    case $f in ill) o="--dataset ill-conditioned --param cond=$i";;
      wide) o="--dataset log-uniform --param emin=-1100 --param emax=$w --param subnormals=1";; *) o="--dataset $f";; esac
    timeout 40 $S bench --n 2^20,2^24,2^28 --dtype $d --reps 20 --variants reproducible,superacc,cub,cub-f32acc $o > tf/${d}_$f.csv 2>&1
  done
done
# Beside it, a second build (build-b) with -DCMAKE_CUDA_FLAGS=-DSL_ACC16_F64_PIPE=1 (565e2a1's
# knob: fp64-acc on 16-bit input loads the next step's vectors before this step's adds), then
# ab/table.txt (median ratio to CUB over 2 rounds, A = default, B = the knob; ab/*.csv.gz):
BENCH_AB_DTYPES="bf16 f16 f32" bash experiments/bench_ab.sh build-gpu/experiments/sumlab build-b/experiments/sumlab ab 2 -- \
  --n 2^24,2^28 --reps 20 --variants fp64-acc,kahan,cub-f32acc
# B: +0.5-0.8 % at 2^28, -4 to -5 % at 2^24 on 16-bit input: the knob was taken out again.
#
# Call 3 (190 s): compute-sanitizer on the 16-bit sum twins, a process per tool and format, under a
# 190 s cap, and memcheck on the reproducible row kernels (sanitize/rc.txt, summary.txt): 5 ended
# with 0 errors (memcheck f16, synccheck f16 and bf16, rows bf16 and f16); memcheck bf16 and
# racecheck bf16 and f16 reached the cap with no error reported up to their last family.
for d in f16 bf16; do
  for tool in memcheck racecheck synccheck; do
    SUMLAB_SANITIZE_TOOLS=$tool SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum timeout 190 bash tests/sanitize.sh build-gpu/tests/tgpu_twins &
  done
  compute-sanitizer --tool memcheck --error-exitcode 9 $S bench --axis -1 --rows 600 --n 4097 --dtype $d \
    --variants reproducible --reps 1 --dataset log-uniform &
done
wait

#!/usr/bin/env bash
# One NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0, 16 cores; asked for as any one GPU, no
# H200 was given), three calls on one warm machine at commit ea2e503 (the default kernels of
# 4f8208c; the switches as they were there). The summary files here:
#   tests.txt                 call 1's gpu tests (33 of 33 processes passed, trows_gpu's lanes_rows
#                             included) and call 2's tests of the switches build
#   ab_small.log, ab_lse.log, ab_f16_wide.log
#                             call 2: the default build (A) against the build with all four switches
#                             ON (B), 2 rounds alternated, ratio to CUB; their runs' CSV:
#                             ab_switches_runs.tar.gz
#   ab_ticket.log, ab_prefetch.log
#                             call 3: SUMLAB_TICKET_ACQ_REL alone and SUMLAB_WS_PREFETCH alone (B)
#                             against the default (A)
#   why/why.md, why/why.csv   call 3: Nsight Compute (experiments/ncu_why.sh, 12 cases; ncu's raw
#                             pages: why/ncu_raw.tar.gz; the summary made here by ncu_why.py of the
#                             commit after, which reads those pages; float64 superacc matched no
#                             kernel at ea2e503's regex and is not in it)
# SUMLAB_GIT_SHA in call 1 was evaluated on the device, whose .git names 4f8208c: call 1's
# provenance records say 4f8208c; the tree was ea2e503.
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=ea2e50304911e93bd14b1594dabb185028cba702
# call 1 (383 s)
SESSION_SECONDS=560 bash tests/gpu_session.sh build,test
# call 2 (303 s)
SWITCHES_AB="ab_small ab_f16_wide ab_lse" SESSION_SECONDS=545 bash tests/gpu_session.sh switches
# call 3 (201 s): one switch a build, then the profiles
B=$OUT/sep; mkdir -p $B
for s in tk:SUMLAB_TICKET_ACQ_REL pf:SUMLAB_WS_PREFETCH; do
  n=${s%%:*}; o=${s#*:}
  ( cmake -S . -B build-$n -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH \
      -DSUMLAB_GIT_SHA=$SUMLAB_GIT_SHA -D$o=ON && cmake --build build-$n -j8 --target sumlab ) > $B/build_$n.log 2>&1 &
done; wait
for n in tk pf; do
  BENCH_AB_DTYPES="f32 f64" BENCH_AB_RATIO=ratio_cub bash experiments/bench_ab.sh build-gpu/experiments/sumlab \
    build-$n/experiments/sumlab $B/ab_$n 2 -- --n 2^20,2^24 --reps 20 --variants vec4,reproducible,superacc,cub > $B/ab_$n.log
done
NCU_WHY_CASES="sum_f32_2e20_cub sum_f32_2e20_reproducible sum_f32_2e20_superacc sum_f64_2e20_reproducible
  sum_f64_2e20_superacc sum_bf16_2e28_reproducible sum_bf16_2e28_reproducible_wide lse_bf16_2e28_online
  var_bf16_2e28_fused var_rows_bf16_32768x4096_correct sum_f32_2e24_superacc var_bf16_2e28_welford" \
  SESSION_SECONDS=330 bash tests/gpu_session.sh why
# here, on the returned raw pages (each case's N from ncu_why.sh's list):
#   python3 experiments/ncu_why.py --dir DIR lse_bf16_2e28_online=268435456 ... var_rows_bf16_32768x4096_correct=134217728

#!/usr/bin/env bash
# One NVIDIA H100 80GB HBM3 (CUDA 13.0, 16 cores; asked for as any one GPU), two calls on fresh
# machines. SUMLAB_GIT_SHA given literally, so the provenance records name the tree.
#   tests.txt       call 1's tests of the switches build (a22ef09: SUMLAB_TICKET_ACQ_REL,
#                   SUMLAB_ROWS_MX_LANES and SUMLAB_EX_PIPELINE ON; every one passed) and call 2's
#                   33 gpu test processes of the default build at 2a3da3c (33 of 33 passed)
#   ab_fused.log, ab_var_rows.log
#                   call 1: the default build (A) against the switches build (B), 2 rounds
#                   alternated, by the ratio to the read (experiments/bench_ab.sh)
#   fused_*.csv, varrows.txt
#                   call 2: the fused statistics (1-D) and bfloat16/float16 `correct` var rows of
#                   2a3da3c, where those two switches' forms are the default
export CMAKE_PREFIX_PATH=$PWD/.deps/usr
# call 1 (560 s), the tree at a22ef09
SUMLAB_GIT_SHA=a22ef0991d6b2872482125b530b91bc59c9b8860 \
SUMLAB_BUILD_TARGETS="sumlab tgpu_twins tsuperacc_gpu trows_gpu" SESSION_SECONDS=570 \
  SWITCHES_AB="ab_fused ab_var_rows" bash tests/gpu_session.sh build,switches
# (at a22ef09 the switches stage ran, besides ab_small and ab_lse, which SWITCHES_AB left out:
#   ab ab_fused 200 "bf16 f16 f32" ratio_read --op var --n 2^24,2^28 --reps 20 --dataset normal --variants fused
#   ab ab_var_rows 300 bf16 ratio_read --op var --axis -1 --rows 4096,32768,16384 --n 32768,4096,1024 --pairs \
#     --reps 10 --variants correct)
# call 2 (396 s), the tree at 2a3da3c
export SUMLAB_GIT_SHA=2a3da3ceda291df4a69416f6dbe309cb5d501ce9
SESSION_SECONDS=470 bash tests/gpu_session.sh build,test
S=build-gpu/experiments/sumlab; P=$OUT/post; mkdir -p $P
for d in bf16 f16 f32; do
  timeout 60 $S bench --reps 20 --dtype $d --op var --n 2^24,2^28 --dataset normal --variants fused > $P/fused_$d.csv 2>$P/fused_$d.err
done
for d in bf16 f16; do
  timeout 60 $S bench --reps 10 --dtype $d --op var --axis -1 --rows 4096,32768,16384,65536 --n 32768,4096,1024,2048 \
    --pairs --variants correct > $P/varrows_$d.csv 2>$P/varrows_$d.err
done

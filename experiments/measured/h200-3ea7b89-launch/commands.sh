#!/usr/bin/env bash
# The commands behind this directory: one H200 (env.txt), CUDA 13.0, commit 3ea7b89 (its kernels
# are 8bae67b's) built by `SUMLAB_BUILD_TARGETS=sumlab bash tests/gpu_session.sh build`: the
# launch requests (--block B, --grid K x 132 SMs) of the variants whose issue targets were missed
# by a few percent, each at its own launch (own) and at other shapes; every CSV's block/grid
# columns hold the launch each variant resolved, its check column the judgement against the
# exact value, ratio_cub its time against CUB's sum of the same bytes, paired run by run.
# log.txt: each command's exit status and the seconds since the start.
set -uo pipefail
S=sumlab
rb() { local name=$1; shift; $S bench --reps 10 "$@" > "$name.csv" 2> "$name.err"; }
for c in own 128 256 512 1024; do        # the small sizes of issue 35's sums
  req=(); [ "$c" != own ] && req=(--block "$c")
  rb "small_f32_$c" --n 2^20,2^22,2^24 --dtype f32 --variants reproducible,superacc "${req[@]}"
  rb "small_f64_$c" --n 2^20,2^22,2^24 --dtype f64 --variants reproducible,superacc "${req[@]}"
done
for c in own 256x4 256x8 512x4 1024x2; do
  req=(); if [ "$c" != own ]; then b=${c%x*}; k=${c#*x}; req=(--block "$b" --grid $(( k * 132 ))); fi
  rb "dot_f32_$c" --op dot --n 2^28 --dtype f32 --dataset dot-random --variants correct "${req[@]}"
  rb "var_f64_$c" --op var --n 2^28 --dtype f64 --dataset normal --variants correct "${req[@]}"
  rb "fused_f32_$c" --op var --n 2^28 --dtype f32 --dataset normal --variants fused "${req[@]}"
  rb "norm2_f64_$c" --op norm2 --n 2^28 --dtype f64 --dataset normal --variants correct "${req[@]}"
done
for it in 16 32; do                       # 16-bit reproducible: 2 or 4 vectors a thread a tile
  rb "f16_items$it" --n 2^24,2^28 --dtype f16 --variants reproducible --items $it
done

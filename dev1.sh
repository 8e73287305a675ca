#!/usr/bin/env bash
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C $OUT -czf $OUT/r.tar.gz r 2>/dev/null' EXIT
if [ -f build-gpu/build.ninja ]; then ninja -C build-gpu > $R/build.log 2>&1 || exit 1; else OUT=$OUT/gs bash tests/gpu_session.sh build || exit 1; fi
echo built
T=build-gpu/tests; S=build-gpu/experiments/sumlab
for d in f32 bf16 f16; do
  timeout 60 $S bench --op lse --n 2^20,2^24,2^28 --dtype $d --reps 10 --dataset logits --variants online,accurate,reproducible,two-pass > $R/bench_lse_$d.csv 2> $R/bench_lse_$d.err; echo "bench $d rc=$?" >> $R/rc.txt
done
timeout 90 ncu --section SpeedOfLight --section InstructionStats --section WarpStateStats --section Occupancy --kernel-name regex:"lse_accf|lse_rep1" --launch-skip 2 --launch-count 2 $S bench --op lse --n 2^28 --dtype f32 --reps 2 --dataset logits --variants accurate,reproducible > $R/ncu_f32.txt 2>&1
echo "ncu rc=$?" >> $R/rc.txt

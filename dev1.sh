#!/usr/bin/env bash
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C $OUT -czf $OUT/r.tar.gz r 2>/dev/null' EXIT
if [ -f build-gpu/build.ninja ]; then ninja -C build-gpu > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }; else OUT=$OUT/gs bash tests/gpu_session.sh build || exit 1; fi
echo built
T=build-gpu/tests; S=build-gpu/experiments/sumlab
for d in f32 bf16; do
  for bg in 256:0 256:792 128:1584 512:396 128:1056 512:264; do
    b=${bg%:*}; g=${bg#*:}; ga=(); [ $g != 0 ] && ga=(--grid $g)
    timeout 40 $S bench --op lse --n 2^24,2^28 --dtype $d --reps 10 --dataset logits --variants accurate,reproducible --block $b "${ga[@]}" > $R/sweep_${d}_${b}_${g}.csv 2>&1
  done
done
echo swept
for d in f32 f16 bf16; do
  SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=lse timeout 200 $T/tgpu_twins > $R/twins_lse_$d.log 2>&1; echo "twins $d rc=$?" >> $R/rc.txt &
done
wait

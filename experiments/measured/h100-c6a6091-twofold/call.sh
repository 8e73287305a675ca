#!/usr/bin/env bash
# device call (short budget): the targets the 2-fold path touches, their GPU tests, the bench
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=$(cat .sha)
t0=$(date +%s)
export SUMLAB_BUILD_TARGETS="sumlab tgpu_twins trows_gpu tgpu_determinism"
bash tests/gpu_session.sh build > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
cp $OUT/session/env.txt $OUT/ 2>/dev/null; echo "built $(( $(date +%s) - t0 ))s"
T=build-gpu/tests; S=build-gpu/experiments/sumlab; L=$OUT/tests; mkdir -p $L $OUT/raw
t() { local name=$1 cap=$2; shift 2; timeout $cap "$@" > $L/$name.log 2>&1; echo "$name rc=$?: $(tail -1 $L/$name.log)"; }
for d in bf16 f16; do SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum t twins_$d 150 $T/tgpu_twins & done
t rows_gpu 150 $T/trows_gpu &
SUMLAB_TEST_QUICK=1 t determinism 120 $T/tgpu_determinism &
wait; echo "tests $(( $(date +%s) - t0 ))s"
for job in bf16:uniform f16:uniform rows bf16:normal bf16:wide f16:wide bf16:sub; do
  [ $(( $(date +%s) - t0 )) -gt ${BENCH_END:-380} ] && break
  if [ $job = rows ]; then
    timeout 40 $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --reps 10 --variants reproducible > $OUT/raw/rows_bf16.csv 2> $OUT/raw/rows_bf16.err
    echo "rows rc=$? $(( $(date +%s) - t0 ))s"; continue
  fi
  dt=${job%%:*}; f=${job#*:}
  case $f in uniform) o="--dataset uniform";; normal) o="--dataset normal";; sub) o="--dataset subnormal";;
    wide) [ $dt = f16 ] && e=2 || e=116; o="--dataset log-uniform --param emin=-1100 --param emax=$e --param subnormals=1";; esac
  timeout 30 $S bench --n 2^20,2^24,2^28 --dtype $dt --variants reproducible,cub,cub-f32acc --reps 20 $o > $OUT/raw/${dt}_$f.csv 2> $OUT/raw/${dt}_$f.err
  echo "$dt $f rc=$? $(( $(date +%s) - t0 ))s"
done
for c in $OUT/raw/*.csv; do awk -F, -v f=$(basename $c .csv) 'NR==1{for(i=1;i<=NF;i++)h[$i]=i; next} /^#/{next} {printf "%-12s %-14s n=%-10s t=%s ratio_cub=%s ratio_read=%s %s\n", f, $h["variant"], $h["n"], $h["time_ms_median"], $h["ratio_cub"], $h["ratio_read"], $h["check"]}' $c; done
echo "total $(( $(date +%s) - t0 ))s"

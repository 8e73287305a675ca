#!/usr/bin/env bash
# the device call: build + the gpu test stage (tests/gpu_session.sh build,test), then the 16-bit
# reproducible benchmarks (five families a format) and the bfloat16 row sums while time is left
set -u
t0=$(date +%s)
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=$(cat .sha)
nvidia-smi -L
timeout 450 bash tests/gpu_session.sh build,test
echo "build+test done at $(( $(date +%s) - t0 ))s"
cat $OUT/summary.txt
for f in $OUT/session/tests/*.log; do echo "$(basename $f .log): $(tail -1 $f | cut -c1-150)"; done
summ() { awk -F, -v f=$(basename $1 .csv) 'NR==1{for(i=1;i<=NF;i++)h[$i]=i; next} /^#/{next} {printf "%-14s %-12s n=%-10s t=%s rc=%s rr=%s %s\n", f, $h["variant"], $h["n"], $h["time_ms_median"], $h["ratio_cub"], $h["ratio_read"], $h["check"]}' $1; }
S=build-gpu/experiments/sumlab; B=$OUT/tf; mkdir -p $B
for job in bf16:uniform bf16:normal f16:uniform bf16:ill bf16:wide bf16:subnormal f16:normal rows f16:wide f16:ill f16:subnormal; do
  [ $(( $(date +%s) - t0 )) -gt ${END:-555} ] && { echo "stop at $job"; break; }
  if [ $job = rows ]; then
    timeout 30 $S bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --reps 10 --variants reproducible,block-row > $B/rows_bf16.csv 2> $B/rows_bf16.err
    echo "rows rc=$? $(( $(date +%s) - t0 ))s"; summ $B/rows_bf16.csv; continue
  fi
  dt=${job%%:*}; f=${job#*:}
  case $f in uniform|normal|subnormal) o="--dataset $f";;
    ill) [ $dt = f16 ] && c=1e3 || c=1e16; o="--dataset ill-conditioned --param cond=$c";;
    wide) [ $dt = f16 ] && e=2 || e=116; o="--dataset log-uniform --param emin=-1100 --param emax=$e --param subnormals=1";; esac
  timeout 30 $S bench --n 2^20,2^24,2^28 --dtype $dt --variants reproducible,superacc,cub,cub-f32acc --reps 20 $o > $B/${dt}_$f.csv 2> $B/${dt}_$f.err
  echo "$dt $f rc=$? $(( $(date +%s) - t0 ))s"; summ $B/${dt}_$f.csv
  tar -C $OUT -czf $OUT/tf.tar.gz tf
done
tar -C $OUT -czf $OUT/tf.tar.gz tf && rm -rf $B
echo "total $(( $(date +%s) - t0 ))s"

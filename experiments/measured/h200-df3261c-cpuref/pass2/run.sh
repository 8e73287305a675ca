#!/bin/bash
# device pass 2: the exact CPU reference on the H200 host's CPU, c17eb3c (head) against 52038f8 (new), one thread, alternated
export LD_LIBRARY_PATH=$PWD/.devbin/lib
D=.devbin; O=${OUT:-/tmp}
(which perf && perf stat -e cycles,instructions true) > $O/perf.txt 2>&1
FR="log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1"
for r in 1 2 3; do for dt in f64 f32; do for ds in "$FR" "uniform" "ill-conditioned --param cond=1e16" "subnormal"; do for b in head new; do
  echo "== $r $b $dt $ds"; $D/sumlab-$b bench --backend cpu --dtype $dt --n 2^24 --reps 21 --threads 1 --variants loop,exact --dataset $ds | grep -v "^#"
done; done; done; done > $O/bench1.csv 2>&1
for dt in f64 f32; do for ds in "$FR" "uniform" "ill-conditioned --param cond=1e16" "subnormal"; do
  echo "== new $dt $ds"; $D/sumlab-new bench --backend cpu --dtype $dt --n 2^24 --reps 21 --threads 16 --variants loop,exact-threads --dataset $ds | grep -v "^#"
done; done > $O/bench16.csv 2>&1
for n in 262144 16777216; do $D/mb2 f64 log-uniform $n 15 emin=-1100 emax=1100 subnormals=1; done > $O/mb2.txt 2>&1
cat $O/mb2.txt $O/perf.txt

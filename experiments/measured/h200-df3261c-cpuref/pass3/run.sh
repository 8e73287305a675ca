#!/bin/bash
# device pass 3: c17eb3c (head) against 9db0ae5 (new: float64 carry-counted integer bins), one thread, alternated
export LD_LIBRARY_PATH=$PWD/.devbin/lib
D=.devbin; O=${OUT:-/tmp}
FR="log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1"
for r in 1 2 3 4 5; do for dt in f64 f32; do for b in head new; do
  echo "== $r $b $dt full"; $D/sumlab-$b bench --backend cpu --dtype $dt --n 2^24 --reps 21 --threads 1 --variants loop,exact --dataset $FR | grep -v "^#"
done; done; done > $O/bench_full.csv 2>&1
for r in 1 2; do for dt in f64 f32; do for ds in "uniform" "ill-conditioned --param cond=1e16" "subnormal"; do for b in head new; do
  echo "== $r $b $dt $ds"; $D/sumlab-$b bench --backend cpu --dtype $dt --n 2^24 --reps 21 --threads 1 --variants loop,exact --dataset $ds | grep -v "^#"
done; done; done; done > $O/bench_other.csv 2>&1
for pf in 4096 8192 16384; do for n in 262144 16777216; do PF=$pf $D/mb2 f64 log-uniform $n 15 emin=-1100 emax=1100 subnormals=1; done; done > $O/mb2.txt 2>&1
cat $O/mb2.txt

#!/bin/bash
# device pass 4: c17eb3c (head) against the new reference (carry-counted float64 integer bins, L1 prefetch on Intel), alternated
export LD_LIBRARY_PATH=$PWD/.devbin/lib
D=.devbin; O=${OUT:-/tmp}
lscpu > $O/lscpu.txt
FR="log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1"
for r in 1 2 3 4 5; do for dt in f64 f32; do for b in head new; do
  echo "== $r $b $dt full"; $D/sumlab-$b bench --backend cpu --dtype $dt --n 2^24 --reps 21 --threads 1 --variants loop,exact --dataset $FR | grep -v "^#"
done; done; done > $O/bench_full.csv 2>&1
for r in 1 2 3; do for dt in f64 f32; do for ds in "uniform" "ill-conditioned --param cond=1e16" "subnormal"; do for b in head new; do
  echo "== $r $b $dt $ds"; $D/sumlab-$b bench --backend cpu --dtype $dt --n 2^24 --reps 21 --threads 1 --variants loop,exact --dataset $ds | grep -v "^#"
done; done; done; done > $O/bench_other.csv 2>&1
for dt in f64 f32; do for ds in "$FR" "uniform" "ill-conditioned --param cond=1e16" "subnormal"; do
  echo "== 1 new $dt $ds"; $D/sumlab-new bench --backend cpu --dtype $dt --n 2^24 --reps 21 --threads 16 --variants loop,exact-threads --dataset $ds | grep -v "^#"
done; done > $O/bench16.csv 2>&1
$D/sumlab-new bench --backend cpu --dtype f64 --n 2^24 --reps 21 --threads 1 --variants loop,exact --dataset $FR --format table > $O/table_f64_full.txt 2>&1
tail -3 $O/table_f64_full.txt

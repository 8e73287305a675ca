#!/bin/bash
# device pass 1: the exact CPU reference on the H200 host's CPU, HEAD vs the float32 integer bins
export LD_LIBRARY_PATH=$PWD/.devbin/lib
D=.devbin; O=${OUT:-/tmp}
lscpu | head -25 > $O/lscpu.txt; nproc >> $O/lscpu.txt
FR="log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1"
for r in 1 2; do for dt in f64 f32; do for ds in "$FR" "uniform" "ill-conditioned --param cond=1e16" "subnormal"; do for b in head new; do
  echo "== $b $dt $ds"; $D/sumlab-$b bench --backend cpu --dtype $dt --n 2^24 --reps 10 --threads 16 --variants loop,exact,exact-threads --dataset $ds | grep -v "^#"
done; done; done; done > $O/bench.csv 2>&1
for pf in 4096 8192 16384; do for n in 262144 16777216; do PF=$pf $D/mb2 f64 log-uniform $n 9 emin=-1100 emax=1100 subnormals=1; done; done > $O/mb2.txt 2>&1
for n in 262144 16777216; do $D/mb2 f32 log-uniform $n 9 emin=-1100 emax=1100 subnormals=1; HOT=2 $D/mb2 f32 log-uniform $n 9 emin=-1100 emax=1100 subnormals=1; done >> $O/mb2.txt 2>&1
for ds in uniform "ill-conditioned cond=1e16" subnormal; do $D/mb2 f64 $ds 16777216 9; done >> $O/mb2.txt 2>&1
cat $O/mb2.txt; grep -A3 "^== " $O/bench.csv | grep -v "^variant" | head -80

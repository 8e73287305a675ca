#!/usr/bin/env bash
# tthreads.sh: the host thread count changes no result. `sumlab run all` (tiny preset, CPU
# backend), stopped by SUMLAB_MAX_ROWS and resumed, the determinism permutations at 2^17,
# `sumlab sum` with every variant (2^22: threaded read, reference and max|x|) and
# `sumlab gen` give, with --threads 1, 2 and 5 (and SUMLAB_THREADS), the same rows in the same
# order with the same value in every column but the timings, and the same bytes.
#   usage: tthreads.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tthreads.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
t=$(mktemp -d "${TMPDIR:-/tmp}/tthreads.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_GPU=1 SUMLAB_NO_CHARTS=1
unset SUMLAB_THREADS SUMLAB_MAX_ROWS
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
cmp_run() { python3 "$src/tests/tthreads.py" run "$1" "$2" && ok || bad "run: $1 vs $2"; }

for n in 1 2 5; do
  "$bin" run all --preset tiny --backend cpu -q --threads $n -o "$t/r$n" 2> "$t/err$n" \
    || { bad "run --threads $n: $(head -c 600 "$t/err$n")"; continue; }
done
cmp_run "$t/r1" "$t/r2"
cmp_run "$t/r1" "$t/r5"
SUMLAB_THREADS=3 "$bin" run all --preset tiny --backend cpu -q -o "$t/renv" 2> "$t/errenv" \
  || bad "run with SUMLAB_THREADS=3: $(head -c 600 "$t/errenv")"
cmp_run "$t/r1" "$t/renv"

# an interrupted run (the pipeline holds an input in flight when the limit is reached) writes
# exactly the rows a single thread writes, and --resume completes it alike
for n in 1 5; do
  SUMLAB_MAX_ROWS=137 "$bin" run all --preset tiny --backend cpu -q --threads $n -o "$t/m$n" 2> /dev/null
  [ $? -eq 3 ] || bad "SUMLAB_MAX_ROWS run --threads $n did not exit 3"
done
cmp_run "$t/m1" "$t/m5"
for n in 1 5; do
  "$bin" run all -q --threads $n -o "$t/m$n" --resume 2> /dev/null || bad "resume --threads $n"
done
cmp_run "$t/m1" "$t/m5"
cmp_run "$t/r1" "$t/m5"

# determinism at n = 2^17: perm:sorted is sorted in pieces on the threads and merged; the
# special family (NaN, Inf, -0) checks that the order is unique for every thread count
for n in 1 5; do
  "$bin" run determinism --preset tiny --backend cpu -q --threads $n --n 2^17 \
    --datasets special,uniform-sym --dtype f32 -o "$t/d$n" 2> /dev/null || bad "determinism 2^17 --threads $n"
done
cmp_run "$t/d1" "$t/d5"

# sum (every variant) and gen
for n in 1 2 5; do
  "$bin" gen ill-conditioned --n 300007 --seed 7 --threads $n -o "$t/g$n.npy" 2> /dev/null || bad "gen --threads $n"
done
cmp -s "$t/g1.npy" "$t/g2.npy" && ok || bad "gen: --threads 1 and 2 differ"
cmp -s "$t/g1.npy" "$t/g5.npy" && ok || bad "gen: --threads 1 and 5 differ"
"$bin" gen uniform-sym --n 2^22 --dtype f64 --seed 3 --threads 1 -o "$t/big1.npy" 2> /dev/null
"$bin" gen uniform-sym --n 2^22 --dtype f64 --seed 3 --threads 5 -o "$t/big5.npy" 2> /dev/null
cmp -s "$t/big1.npy" "$t/big5.npy" && ok || bad "gen 2^22 f64: --threads 1 and 5 differ"
for n in 1 2 5; do
  "$bin" sum "$t/g1.npy" --backend cpu --reps 4 --seed 11 --format csv --threads $n > "$t/s$n.csv" 2> /dev/null \
    || bad "sum --threads $n"
  "$bin" sum "$t/big1.npy" --backend cpu --variants exact,superacc,kahan,atomic-block,reproducible --reps 2 \
    --format csv --threads $n > "$t/b$n.csv" 2> /dev/null || bad "sum 2^22 --threads $n"
done
for n in 2 5; do
  python3 "$src/tests/tthreads.py" sum "$t/s1.csv" "$t/s$n.csv" && ok || bad "sum: --threads 1 and $n differ"
  python3 "$src/tests/tthreads.py" sum "$t/b1.csv" "$t/b$n.csv" && ok || bad "sum 2^22 (parallel read): --threads 1 and $n differ"
done
"$bin" run all --preset tiny --backend cpu -q --threads 0x -o "$t/bad" 2> /dev/null
[ $? -eq 2 ] && ok || bad "--threads 0x is not bad usage"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

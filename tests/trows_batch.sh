#!/usr/bin/env bash
# trows_batch.sh: `sumlab run batch-invariance --preset tiny` on the CPU backend: the CSV's
# columns, a line per (operation, variant, format, N, tracked row) for every variant with a
# twin, distinct in 1 .. batches, the order-independent variants and block-row with one pattern
# per row, the markdown table; and the quick CPU preset leaves it out (results.csv untouched).
#   usage: bash tests/trows_batch.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: trows_batch.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trows_batch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SUMLAB_NO_GPU=1
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }

"$sumlab" run batch-invariance --preset tiny --seed "$seed" -q -o "$tmp/r" > /dev/null 2> "$tmp/err"
check "run batch-invariance exits 0" test $? -eq 0
csv="$tmp/r/batch_invariance.csv"
check "the CSV exists" test -s "$csv"
check "the CSV header" test "$(head -1 "$csv")" = "op,variant,family,det_class,dtype,n,row,batches,distinct,backend,gbps,path"
check "the CSV is well formed" awk -F, 'NR > 1 && (NF != 12 || $9 < 1 || $9 > $8 || $8 < 2 || $10 != "cpu" || !($11 > 0)) { bad = 1 } END { exit bad || NR < 2 }' "$csv"
for op_v in sum,reproducible sum,block-row sum,serial var,two-pass lse,online max,block-reduce; do
  check "$op_v has lines for f32 and bf16" test "$(grep -c "^$op_v,.*,\(f32\|bf16\)," "$csv")" -ge 4
done
check "order-independent variants and block-row: one pattern per row" \
  awk -F, 'NR > 1 && ($4 == "order-independent" || $4 == "correctly-rounded" || $2 == "block-row") && $9 != 1 { bad = 1 } END { exit bad }' "$csv"
check "block-row takes its row kernel" grep -q '^sum,block-row,.*,rows$' "$csv"
check "the markdown table" grep -q '^| sum | reproducible | f32 | 100 | yes | 1 |' "$tmp/r/batch_invariance.md"
# the quick CPU preset: opt-in, nothing written
"$sumlab" run batch-invariance --preset quick -q -o "$tmp/q" > /dev/null 2>&1
check "quick CPU preset: exits 0" test $? -eq 0
check "quick CPU preset: no batch_invariance.csv" test ! -e "$tmp/q/batch_invariance.csv"

echo "trows_batch: $checks checks, $fails failed (seed $seed)"
test "$fails" -eq 0

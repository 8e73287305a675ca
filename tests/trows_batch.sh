#!/usr/bin/env bash
# trows_batch.sh: `sumlab run batch-invariance --preset tiny` on the CPU backend: the CSV's
# columns, a line per (operation, variant, format, N, tracked row) for every variant with a
# twin, distinct in 1 .. batches, the order-independent variants and block-row with one pattern
# per row, the largest batch's rows judged (median and largest ulps), the launch configurations
# (one pattern for those variants over all three, several for a run-to-run one), the markdown
# table; PyTorch's rows (DIR/batch_torch.csv) merged when valid and left out whole when not
# (markup, links, counts, numbers, a link to a file elsewhere); batch_torch.py's own file over a
# stand-in torch, joined; the charts (a bar per method, one chart per format and N, beside the
# report's table; none from a planted or linked CSV); and the quick CPU preset leaves it out
# (results.csv untouched).
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
check "the CSV header" test "$(head -1 "$csv")" = "op,variant,family,det_class,dtype,n,row,batches,distinct,backend,gbps,path,rows_ulps_median,rows_ulps_max,configs,distinct_configs"
check "the CSV is well formed" awk -F, 'NR > 1 && (NF != 16 || $15 != 3 || $16 < $9 || $9 < 1 || $9 > $8 || $8 < 2 || $10 != "cpu" || !($11 > 0) || !($13 >= 0) || !($14 >= $13)) { bad = 1 } END { exit bad || NR < 2 }' "$csv"
# every row of the largest batch judged: the correctly rounded variants within half an ulp, the
# recursive ladder's vec4 above it somewhere (its rows are not correctly rounded)
check "superacc's rows: at most half an ulp" awk -F, '$1 == "sum" && $2 == "superacc" { k++; if ($14 > 0.5) bad = 1 } END { exit bad || !k }' "$csv"
check "var correct's rows: at most half an ulp" awk -F, '$1 == "var" && $2 == "correct" { k++; if ($14 > 0.5) bad = 1 } END { exit bad || !k }' "$csv"
check "vec4's rows: some error above half an ulp" awk -F, '$1 == "sum" && $2 == "vec4" && $14 > 0.5 { k++ } END { exit !k }' "$csv"
check "the table's error columns" grep -qE '^\| sum \| superacc \| f32 \| 100 \| yes \| 1 \| [0-9.e+-]+ \| row kernel \| [0-9.e+-]+ \| [0-9.e+-]+ \| 3 \| 1 \|$' "$tmp/r/batch_invariance.md"
for op_v in sum,reproducible sum,block-row sum,serial var,two-pass lse,online max,block-reduce; do
  check "$op_v has lines for f32 and bf16" test "$(grep -c "^$op_v,.*,\(f32\|bf16\)," "$csv")" -ge 4
done
check "order-independent variants and block-row: one pattern per row" \
  awk -F, 'NR > 1 && ($4 == "order-independent" || $4 == "correctly-rounded" || $2 == "block-row") && $9 != 1 { bad = 1 } END { exit bad }' "$csv"
check "block-row takes its row kernel" grep -q '^sum,block-row,.*,rows,[^,]*,[^,]*,[^,]*,[^,]*$' "$csv"
# launch configurations: the order-independent variants and block-row keep one pattern over every
# configuration; a run-to-run variant's twin changes with the block and the SM count (vec4, N 1000)
check "order-independent variants and block-row: one pattern over every configuration" \
  awk -F, 'NR > 1 && ($4 == "order-independent" || $4 == "correctly-rounded" || $2 == "block-row") && $16 != 1 { bad = 1 } END { exit bad }' "$csv"
check "vec4: another pattern under another launch configuration" \
  awk -F, '$1 == "sum" && $2 == "vec4" && $6 == 1000 && $16 > 1 { k++ } END { exit !k }' "$csv"
check "the markdown table" grep -q '^| sum | reproducible | f32 | 100 | yes | 1 |' "$tmp/r/batch_invariance.md"
# PyTorch's rows (batch_torch.py -o DIR/batch_torch.csv): merged into both files when valid
hdr="op,variant,family,det_class,dtype,n,row,batches,distinct,backend,gbps,path"
mkdir "$tmp/t"
printf '%s\n%s\n%s\n%s\n' "$hdr" "sum,torch.sum,pytorch,,f32,4096,0,17,4,gpu,2118.5,torch" \
  "sum,torch.sum,pytorch,,f32,4096,1,16,2,gpu,2118.5,torch" \
  "mean,x.pow(2).mean,pytorch,,bf16,32768,0,17,1,gpu,1500,torch" > "$tmp/t/batch_torch.csv"
"$sumlab" run batch-invariance --preset tiny --seed "$seed" -q -o "$tmp/t" > /dev/null 2>&1
check "with batch_torch.csv: exits 0" test $? -eq 0
check "torch rows in the CSV" test "$(grep -c ',pytorch,,.*,torch,,,,$' "$tmp/t/batch_invariance.csv")" -eq 3
check "torch.sum in the table: the largest count of its rows" \
  grep -qF '| sum | torch.sum | f32 | 4096 | no | 4 | 2118 | PyTorch |' "$tmp/t/batch_invariance.md"
check "x.pow(2).mean in the table" grep -qF '| mean | x.pow(2).mean | bf16 | 32768 | yes | 1 | 1500 | PyTorch |' "$tmp/t/batch_invariance.md"
check "sumlab's own rows still there" grep -q '^| sum | reproducible | f32 | 100 | yes | 1 |' "$tmp/t/batch_invariance.md"
check "the report holds the torch rows" grep -qF '| sum | torch.sum |' "$tmp/t/report.md"
# not what batch_torch.py writes: the whole file left out
bad_row() {   # NAME LINE
  mkdir "$tmp/$1"
  printf '%s\n%s\n%s\n' "$hdr" "sum,torch.sum,pytorch,,f32,4096,0,17,4,gpu,2118.5,torch" "$2" > "$tmp/$1/batch_torch.csv"
  "$sumlab" run batch-invariance --preset tiny --seed "$seed" -q -o "$tmp/$1" > /dev/null 2>&1
  check "$1: exits 0" test $? -eq 0
  check "$1: no torch rows" test "$(grep -c 'pytorch' "$tmp/$1/batch_invariance.csv")" -eq 0
  check "$1: no torch table line" test "$(grep -c 'PyTorch' "$tmp/$1/batch_invariance.md")" -eq 0
}
bad_row markup 'sum,<script>,pytorch,,f32,4096,1,16,2,gpu,1,torch'
bad_row link 'sum,torch.sum](x),pytorch,,f32,4096,1,16,2,gpu,1,torch'
bad_row count 'sum,torch.sum,pytorch,,f32,4096,1,16,17,gpu,1,torch'
bad_row number 'sum,torch.sum,pytorch,,f32,4096,1,16,2,gpu,1e999,torch'
bad_row op 'rm -rf,torch.sum,pytorch,,f32,4096,1,16,2,gpu,1,torch'
mkdir "$tmp/lnk"
printf '%s\n%s\n' "$hdr" "sum,torch.sum,pytorch,,f32,4096,0,17,4,gpu,2118.5,torch" > "$tmp/outside.csv"
ln -s "$tmp/outside.csv" "$tmp/lnk/batch_torch.csv"
"$sumlab" run batch-invariance --preset tiny --seed "$seed" -q -o "$tmp/lnk" > /dev/null 2>&1
check "a link: not followed" test "$(grep -c 'pytorch' "$tmp/lnk/batch_invariance.csv")" -eq 0
# batch_torch.py itself, over a NumPy stand-in for PyTorch (tests/data/fake_torch_rows: its
# torch.sum splits rows by the batch's size, the other calls do not; torch.matmul of X[:B] and w
# too): its file joins the run
if python3 -c 'import numpy' 2> /dev/null; then
  mkdir "$tmp/ft"
  PYTHONPATH="$(dirname "$0")/data/fake_torch_rows" python3 "$(dirname "$0")/../experiments/anchors/batch_torch.py" \
    -o "$tmp/ft/batch_torch.csv" --n 64,128 --bmax 64 --device cpu --reps 1 2> /dev/null
  check "batch_torch.py (stand-in torch) exits 0" test $? -eq 0
  check "batch_torch.py: 6 calls x 2 formats x 2 N x rows 0, 1, 15" test "$(tail -n +2 "$tmp/ft/batch_torch.csv" | wc -l)" -eq 72
  check "batch_torch.py: row 0 of X[:B] over the 10 batch sizes up to 64" \
    grep -q '^var,torch.var,pytorch,,f32,64,0,10,1,cpu,' "$tmp/ft/batch_torch.csv"
  "$sumlab" run batch-invariance --preset tiny --seed "$seed" -q -o "$tmp/ft" > /dev/null 2>&1
  check "batch_torch.py's file joins: 72 rows" test "$(grep -c ',pytorch,' "$tmp/ft/batch_invariance.csv")" -eq 72
  check "a batch-dependent sum: not batch-invariant" grep -qE '^\| sum \| torch.sum \| f32 \| 64 \| no \| [2-9] \|' "$tmp/ft/batch_invariance.md"
  check "x.pow(2).mean row-wise: batch-invariant here" grep -qE '^\| mean \| x.pow\(2\).mean \| f32 \| 64 \| yes \| 1 \|' "$tmp/ft/batch_invariance.md"
  check "torch.matmul (X[:B] @ w): its rows joined" grep -qE '^\| dot \| torch.matmul \| bf16 \| 128 \| yes \| 1 \|' "$tmp/ft/batch_invariance.md"
fi
# the chart (gnuplot): a chart per format and N beside the report's table, PyTorch's calls in the
# panels of their N; a planted CSV whose names are not the experiment's, or a link, draws nothing
if command -v gnuplot > /dev/null 2>&1; then
  for p in f32_100 f32_1000 bf16_100 bf16_1000; do
    check "chart $p" test -s "$tmp/r/charts/batch_invariance_$p.png" -a -s "$tmp/r/charts/batch_invariance_$p.svg"
    check "chart $p in the report" grep -qF "(charts/batch_invariance_$p.png)" "$tmp/r/report.md"
  done
  check "a bar per method: reproducible's label" grep -q 'sum reproducible' "$tmp/r/charts/batch_invariance_f32_100.svg"
  check "torch.sum in the f32 4096 chart" grep -q 'sum torch.sum' "$tmp/t/charts/batch_invariance_f32_4096.svg"
  check "not batch-invariant: a red bar" grep -Eq 'rgb\( *214, +39, +40\)' "$tmp/t/charts/batch_invariance_f32_4096.svg"
  mkdir "$tmp/h"
  head -1 "$tmp/r/results.csv" > "$tmp/h/results.csv"
  printf '%s\n%s\n' "$hdr" "sum,a'; system('touch $tmp/pwned'); b,pytorch,,f32,64,0,17,4,gpu,1,torch" > "$tmp/h/batch_invariance.csv"
  bash "$(dirname "$0")/../plots/render.sh" -q "$tmp/h" 2> /dev/null
  check "planted names: no chart" test ! -e "$tmp/h/charts/batch_invariance_f32_64.png"
  check "planted names: nothing run" test ! -e "$tmp/pwned"
  check "planted names: a note" grep -q "batch_invariance.csv is not the table" "$tmp/h/charts/notes.txt"
  rm "$tmp/h/batch_invariance.csv"
  printf '%s\n%s\n' "$hdr" "sum,torch.sum,pytorch,,f32,64,0,17,4,gpu,1,torch" > "$tmp/outside2.csv"
  ln -s "$tmp/outside2.csv" "$tmp/h/batch_invariance.csv"
  bash "$(dirname "$0")/../plots/render.sh" -q "$tmp/h" 2> /dev/null
  check "a linked CSV: no chart" test ! -e "$tmp/h/charts/batch_invariance_f32_64.png"
fi
# a --dtype list without float32 and bfloat16: nothing to measure, and the report says so
"$sumlab" run batch-invariance --preset tiny --dtype f64 -q -o "$tmp/f64" > /dev/null 2>&1
check "--dtype f64: exits 0" test $? -eq 0
check "--dtype f64: the report says nothing was measured" grep -q 'selects neither: nothing measured' "$tmp/f64/report.md"
# --n gives the row lengths N, as it gives every experiment its sizes (it was ignored: the lines
# were the preset's N 100 and 1000 whatever --n said)
"$sumlab" run batch-invariance --preset tiny --n 64,300 --variants serial --dtype f32 --seed "$seed" -q -o "$tmp/n" > /dev/null 2>&1
check "--n 64,300: exits 0" test $? -eq 0
check "--n 64,300: lines of N 64 and 300 alone" test "$(tail -n +2 "$tmp/n/batch_invariance.csv" | cut -d, -f6 | sort -u | tr '\n' ' ')" = "300 64 "
# an --n meant as whole arrays' sizes: a row length whose largest batch (32 rows in tiny) would
# pass 2^31 values is skipped with a note, the others measured (2^28 x 32 rows: 32 GiB asked for)
"$sumlab" run batch-invariance --preset tiny --n 64,2^28 --variants serial --dtype f32 --seed "$seed" -q -o "$tmp/big" > /dev/null 2>&1
check "--n 64,2^28: exits 0" test $? -eq 0
check "--n 64,2^28: lines of N 64 alone" test "$(tail -n +2 "$tmp/big/batch_invariance.csv" | cut -d, -f6 | sort -u | tr '\n' ' ')" = "64 "
check "--n 64,2^28: a note says N=268435456 was skipped" grep -q "batch-invariance: N=268435456 skipped" "$tmp/big/run_notes.txt"
# one input per format and N: --seeds 2 is said not to apply (it was dropped without a word)
"$sumlab" run batch-invariance --preset tiny --n 64 --variants serial --dtype f32 --seeds 2 --seed "$seed" -q -o "$tmp/s" > /dev/null 2>&1
check "--seeds 2: exits 0" test $? -eq 0
check "--seeds 2: a note says it does not apply" grep -q "batch-invariance: one input per format and N (seed $seed); --seeds 2 does not apply" "$tmp/s/run_notes.txt"
# the quick CPU preset: opt-in, run when named (the report's hint `sumlab run batch-invariance`
# measured nothing: 'nothing to measure under this run's settings (preset quick)'); `all` leaves
# it out
SUMLAB_NO_CHARTS=1 "$sumlab" run batch-invariance --preset quick --variants serial --dtype f32 -q -o "$tmp/q" > /dev/null 2>&1
check "quick CPU preset, named: exits 0" test $? -eq 0
check "quick CPU preset, named: batch_invariance.csv (B up to 256, N 256 and 4096)" \
  test "$(tail -n +2 "$tmp/q/batch_invariance.csv" 2>/dev/null | cut -d, -f6 | sort -un | tr '\n' ' ')" = "256 4096 "
SUMLAB_NO_CHARTS=1 "$sumlab" run all --preset quick --backend cpu --variants serial --dtype f32 --n 1000 -q -o "$tmp/qa" > /dev/null 2>&1
check "quick CPU preset, all: exits 0" test $? -eq 0
check "quick CPU preset, all: no batch_invariance.csv" test ! -e "$tmp/qa/batch_invariance.csv"
check "quick CPU preset, all: the report says how to run it" grep -q 'skipped: opt-in on the quick CPU preset; `sumlab run batch-invariance`' "$tmp/qa/report.md"

echo "trows_batch: $checks checks, $fails failed (seed $seed)"
test "$fails" -eq 0

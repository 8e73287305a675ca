#!/usr/bin/env bash
# tthroughput_torch.sh: throughput-vs-n's PyTorch series on the CPU backend (its own GPU rows need a
# GPU; the file's rows join on either backend). experiments/anchors/throughput_torch.py: bad usage
# and run.conf exit 2, no PyTorch or no CUDA device 77 with nothing written; with a stand-in torch
# (tests/data/fake_torch) its file for tiny lse, var (ddof 0) and dot studies joins results.csv,
# the report's throughput table and the chart's data. A planted throughput_torch.csv that is not
# what the script writes (a quote in the name, a negative or NaN time, an unknown format, a column
# missing, another operation, another ddof, inconsistent GB/s, a link) is left out whole with a
# note, and the run still succeeds.
#   usage: bash tests/tthroughput_torch.sh PATH/TO/sumlab SOURCE_DIR
set -u
sumlab=${1:?usage: tthroughput_torch.sh PATH/TO/sumlab SOURCE_DIR}
src=${2:?usage: tthroughput_torch.sh PATH/TO/sumlab SOURCE_DIR}
py=$src/experiments/anchors/throughput_torch.py
command -v python3 > /dev/null || { echo "tthroughput_torch: no python3: skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tthroughput_torch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SUMLAB_NO_GPU=1
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }
hdr="op,variant,dataset,dtype,n,ddof,seed,reps,time_ms_median,time_ms_min,time_ms_max,gbps,torch"
run() { SUMLAB_NO_CHARTS=${NO_CHARTS:-1} "$sumlab" run throughput-vs-n --preset tiny -q "$@" > /dev/null 2> "$tmp/run.err"; }

# ---- the script: usage and run.conf (checked before PyTorch is looked for) ------------------
pyrc() { local want=$1 what=$2; shift 2; python3 "$py" "$@" > /dev/null 2> "$tmp/py.err"; local rc=$?
         check "$what: exit $want (got $rc: $(head -c 200 "$tmp/py.err"))" test "$rc" -eq "$want"; }
pyrc 2 "no RUN_DIR"
pyrc 2 "unknown --op" "$tmp/u1" --op nope
pyrc 2 "bad --n" "$tmp/u1" --n 0,2^10
pyrc 2 "bad --dtype" "$tmp/u1" --dtype f8
pyrc 2 "bad --reps" "$tmp/u1" --reps 0
: > "$tmp/afile"
pyrc 2 "RUN_DIR a file" "$tmp/afile"
"$sumlab" run determinism --preset tiny -q -o "$tmp/det" > /dev/null 2>&1
pyrc 2 "a run without throughput-vs-n" "$tmp/det"
check "... says why" grep -q "no throughput-vs-n" "$tmp/py.err"
mkdir "$tmp/c"
run --op var --ddof 0 -o "$tmp/c"
check "a tiny var study (ddof 0) exits 0" test $? -eq 0
pyrc 2 "--ddof disagreeing with run.conf" "$tmp/c" --ddof 1
check "... names run.conf" grep -q "disagrees with .*run.conf" "$tmp/py.err"
cp -r "$tmp/c" "$tmp/c2"; echo "evil=1" >> "$tmp/c2/run.conf"
pyrc 2 "run.conf with an unknown field" "$tmp/c2"
cp -r "$tmp/c" "$tmp/c3"; sed -i 's/^op=var$/op=sum;rm/' "$tmp/c3/run.conf"
pyrc 2 "run.conf with a bad op" "$tmp/c3"
# no PyTorch (or no CUDA device): 77, nothing written
if ! python3 -c 'import torch' > /dev/null 2>&1; then
  pyrc 77 "no PyTorch" "$tmp/c"
  check "... says so" grep -q "PyTorch is not installed" "$tmp/py.err"
  check "... writes nothing" test ! -e "$tmp/c/throughput_torch.csv"
elif ! python3 -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' > /dev/null 2>&1; then
  pyrc 77 "no CUDA device" "$tmp/c"
  check "... writes nothing" test ! -e "$tmp/c/throughput_torch.csv"
fi

# ---- the script's file (a stand-in torch) joins the study ----------------------------------
fake() { PYTHONPATH="$src/tests/data/fake_torch" python3 "$py" "$@" > /dev/null 2> "$tmp/py.err"; }
fake "$tmp/c" --reps 3
check "var: the script exits 0 ($(head -c 200 "$tmp/py.err"))" test $? -eq 0
f=$tmp/c/throughput_torch.csv
check "var: its header" test "$(head -1 "$f")" = "$hdr"
check "var: a row per format and tiny size (4 x 3), ddof 0, 3 reps" \
  test "$(grep -c '^var,torch\.var,normal,\(f32\|f64\|f16\|bf16\),\(4096\|16384\|65536\),0,20261129,3,' "$f")" -eq 12
run --resume -o "$tmp/c"
check "var: the resumed run exits 0" test $? -eq 0
check "var: 12 torch.var rows in results.csv, GPU, ok" \
  test "$(grep -c '^throughput-vs-n,normal,[^,]*,[a-z0-9]*,[0-9]*,torch\.var,default,n,[0-9]*,pytorch,,gpu,.*,ok,' "$tmp/c/results.csv")" -eq 12
check "var: no note of a file left out" bash -c "! grep -q 'throughput_torch.csv left out' '$tmp/c/report.md'"
check "var: the report's throughput table" grep -q '^| torch\.var | [0-9.e+]* | - | - |$' "$tmp/c/report.md"
check "var: the report says what the row is" grep -q '^torch\.var: the operation.s PyTorch call on CUDA tensors' "$tmp/c/report.md"
check "var: not in the headline" bash -c "! sed -n '/^## Headline/,/^## Throughput/p' '$tmp/c/report.md' | grep -q torch"
check "var: no note of other sizes" bash -c "! grep -q 'throughput_torch.csv holds' '$tmp/c/report.md'"
run --resume -o "$tmp/c"
check "var: a second resume adds no row" test "$(grep -c 'torch\.var' "$tmp/c/results.csv")" -eq 12
# the script's sizes are the experiment's in every preset (full: float16 and bfloat16 every other size)
for preset in quick:24 full:58; do
  p=${preset%:*}
  SUMLAB_NO_CHARTS=1 "$sumlab" run throughput-vs-n --preset "$p" -q -o "$tmp/$p" > /dev/null 2>&1
  fake "$tmp/$p" --reps 1
  check "$p: the script exits 0" test $? -eq 0
  SUMLAB_NO_CHARTS=1 "$sumlab" run --resume -q -o "$tmp/$p" > /dev/null 2>&1
  check "$p: the resumed run exits 0" test $? -eq 0
  check "$p: ${preset#*:} torch.sum rows" test "$(grep -c ',torch\.sum,default,' "$tmp/$p/results.csv")" -eq "${preset#*:}"
  check "$p: every size the experiment's" bash -c "! grep -q 'throughput_torch.csv holds' '$tmp/$p/report.md'"
done

for op in lse dot; do
  fake "$tmp/$op" --op "$op" --preset tiny --dtype f32,bf16
  check "$op: the script exits 0 without run.conf (creates RUN_DIR)" test $? -eq 0
  NO_CHARTS=0 run --op "$op" --dtype f32,bf16 -o "$tmp/$op"
  check "$op: the study exits 0" test $? -eq 0
done
check "lse: logits rows of torch.logsumexp" \
  test "$(grep -c '^throughput-vs-n,logits,[^,]*,\(f32\|bf16\),[0-9]*,torch\.logsumexp,' "$tmp/lse/results.csv")" -eq 6
# dot reads two arrays: GB/s = 2 n size / median time, as the file and the study write it
check "dot: GB/s counts both arrays" awk -F, 'NR > 1 && ($1 != "dot" || $3 != "normal" ||
  ($12 - 2 * $5 * ($4 == "f32" ? 4 : 2) / ($9 * 1e6)) ^ 2 > (1e-6 * $12) ^ 2) { bad = 1 } END { exit bad || NR != 7 }' "$tmp/dot/throughput_torch.csv"
check "dot: 6 torch.dot rows" test "$(grep -c ',torch\.dot,default,' "$tmp/dot/results.csv")" -eq 6
if command -v gnuplot > /dev/null; then
  check "lse: the throughput chart draws torch.logsumexp" grep -q 'torch\.logsumexp' "$tmp/lse/charts/throughput_vs_n_f32.svg"
  check "lse: the chart names its families" grep -q 'f32 input (logits)' "$tmp/lse/charts/throughput_vs_n_f32.svg"
  # the chart's data as render.sh prepares it (checked copy, anchors panel; render.sh needs gnuplot)
  SUMLAB_RENDER_KEEP=1 TMPDIR=$tmp/scratch bash -c "mkdir -p '$tmp/scratch' && bash '$src/plots/render.sh' -q '$tmp/lse'" > /dev/null 2>&1
  check "lse: render.sh's series file of f32 holds torch.logsumexp" \
    bash -c "grep -qx 'torch\.logsumexp' '$tmp'/scratch/sumlab-render.*/tp/f32.d/series || grep -q 'torch\.logsumexp' '$tmp'/scratch/sumlab-render.*/tp/f32.d/series"
  check "lse: torch.logsumexp in the anchors panel" grep -qx 'torch\.logsumexp anchors' "$tmp"/scratch/sumlab-render.*/fam
  check "lse: its data points" test "$(wc -l < "$(echo "$tmp"/scratch/sumlab-render.*/tp/f32.d/torch.logsumexp.dat)")" -eq 3
else
  echo "tthroughput_torch: no gnuplot: the chart checks did not run (the join's checks did)"
fi

# ---- a planted file that is not what the script writes: left out whole ----------------------
good="sum,torch.sum,normal,f32,4096,,1,5,0.01,0.009,0.012,1.6384,2.5.1"
bad_file() {   # NAME LINE...
  local d=$tmp/bad_$1; shift
  mkdir "$d"
  { echo "$hdr"; echo "$good"; printf '%s\n' "$@"; } > "$d/throughput_torch.csv"
  run -o "$d"
  check "$(basename "$d"): the run exits 0" test $? -eq 0
  check "$(basename "$d"): no torch row" test "$(grep -c 'torch' "$d/results.csv")" -eq 0
  check "$(basename "$d"): a note says it was left out" grep -q 'throughput_torch.csv left out' "$d/report.md"
}
bad_file quote 'sum,"torch.sum""",normal,f32,16384,,1,5,0.01,0.009,0.012,6.5536,2.5.1'
bad_file markup 'sum,<b>torch.sum,normal,f32,16384,,1,5,0.01,0.009,0.012,6.5536,2.5.1'
bad_file negative 'sum,torch.sum,normal,f32,16384,,1,5,-0.01,-0.02,0.012,6.5536,2.5.1'
bad_file nan 'sum,torch.sum,normal,f32,16384,,1,5,nan,0.009,0.012,6.5536,2.5.1'
bad_file dtype 'sum,torch.sum,normal,f8,16384,,1,5,0.01,0.009,0.012,6.5536,2.5.1'
bad_file columns 'sum,torch.sum,normal,f32,16384,,1,5,0.01,0.009,0.012,6.5536'
bad_file op 'lse,torch.logsumexp,logits,f32,16384,,1,5,0.01,0.009,0.012,6.5536,2.5.1'
bad_file ddof 'sum,torch.sum,normal,f32,16384,1,1,5,0.01,0.009,0.012,6.5536,2.5.1'
bad_file gbps 'sum,torch.sum,normal,f32,16384,,1,5,0.01,0.009,0.012,9.5,2.5.1'
bad_file twice 'sum,torch.sum,normal,f32,4096,,1,5,0.01,0.009,0.012,1.6384,2.5.1'
bad_file version 'sum,torch.sum,normal,f32,16384,,1,5,0.01,0.009,0.012,6.5536,2.5.1 $(id)'
check "the note names the row and field" \
  grep -q 'throughput_torch.csv left out: row 2, field time_ms_median' "$tmp/bad_negative/report.md"
mkdir "$tmp/bad_header" && { echo "${hdr/gbps/GBps}"; echo "$good"; } > "$tmp/bad_header/throughput_torch.csv"
run -o "$tmp/bad_header"
check "another header: left out" grep -q 'throughput_torch.csv left out: the header' "$tmp/bad_header/report.md"
mkdir "$tmp/lnk" && { echo "$hdr"; echo "$good"; } > "$tmp/outside.csv" && ln -s "$tmp/outside.csv" "$tmp/lnk/throughput_torch.csv"
run -o "$tmp/lnk"
check "a link: not followed" test "$(grep -c 'torch' "$tmp/lnk/results.csv")" -eq 0
mkdir "$tmp/ok" && { echo "$hdr"; echo "$good"; } > "$tmp/ok/throughput_torch.csv"
run -o "$tmp/ok"
check "the good row alone joins" test "$(grep -c ',torch\.sum,default,' "$tmp/ok/results.csv")" -eq 1
check "... with a note: one of the run's 3 sizes of f32" \
  grep -q 'throughput_torch.csv holds 1 sizes of f32, 1 of them among this run.s 3' "$tmp/ok/report.md"

echo "tthroughput_torch: $checks checks, $fails failed"
test "$fails" -eq 0

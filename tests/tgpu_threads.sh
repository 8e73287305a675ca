#!/usr/bin/env bash
# tgpu_threads.sh: on the GPU backend the host thread count changes no result. The accuracy
# sweeps (tiny preset) run with --threads 1 (one input at a time, every variant warmed up per
# input) and --threads 6 (pipelined: a variant warmed up once per process, the device handed to
# the next input before the twin checks) give the same rows in the same order, every column but
# the timings, the repetition counts a device-time budget sets, and the rows of nondeterministic
# variants (tthreads.py --gpu); every twin-checked row matches its twin. Exits 77 without a GPU.
#   usage: bash tests/tgpu_threads.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tgpu_threads.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
t=$(mktemp -d "${TMPDIR:-/tmp}/tgpu_threads.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_CHARTS=1
unset SUMLAB_THREADS SUMLAB_MAX_ROWS SUMLAB_NO_GPU
pass=0 fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

for e in accuracy-vs-n accuracy-vs-cond; do
  for n in 1 6; do
    "$bin" run "$e" --preset tiny --backend gpu -q --threads $n --seeds 2 -o "$t/$e-$n" 2> "$t/err" ; rc=$?
    if [ $rc -ne 0 ] && grep -qi 'no GPU\|needs a GPU' "$t/err"; then
      echo "tgpu_threads: no GPU, skipped"; exit 77
    fi
    [ $rc -eq 0 ] || { bad "run $e --threads $n exited $rc: $(head -c 600 "$t/err")"; continue; }
    # every GPU row checked against its twin matches it
    if python3 - "$t/$e-$n/results.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
gpu = [r for r in rows if r["backend"] == "gpu"]
checked = [r for r in gpu if r["twin_checked"] == "1"]
bad = [r for r in checked if r["twin_match"] != "1"]
for r in bad[:5]:
    print(f"  {r['variant']} {r['dataset']} {r['dtype']} n={r['n']}: GPU result differs from its twin")
sys.exit(0 if gpu and checked and not bad else 1)
PY
    then pass=$((pass + 1)); else bad "$e --threads $n: twin checks (or no GPU rows)"; fi
  done
  python3 "$src/tests/tthreads.py" run "$t/$e-1" "$t/$e-6" --gpu && pass=$((pass + 1)) \
    || bad "$e: --threads 1 and --threads 6 differ"
done
echo "tgpu_threads: $((pass + fail)) checks, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# tanchors.sh: experiments/anchors/anchors.py end to end: a small sweep (two instances), its
# inputs summed by numpy.sum and math.fsum (torch left out), judged by `sumlab judge`, written to
# anchors.csv and shown in report.md; and the --files mode on a hand-computed case.
# Exits 77 (skip) only when NumPy is not installed.
#   usage: tanchors.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tanchors.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
if ! python3 -c 'import numpy' 2>/dev/null; then
  echo "tanchors: NumPy is not installed: skipped" >&2
  exit 77
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/tanchors.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_GPU=1 SUMLAB_NO_CHARTS=1
fails=0 checks=0
check() { local d=$1; shift; checks=$((checks + 1)); "$@" || { fails=$((fails + 1)); echo "FAIL: $d" >&2; }; }

"$bin" run accuracy-vs-cond --preset tiny --backend cpu --seeds 2 --variants serial,pairwise -o "$t/r" -q
check "sweep run exits 0" test $? -eq 0
python3 "$src/experiments/anchors/anchors.py" "$t/r" --sumlab "$bin" --no-torch 2> "$t/a.err"
last=$?; check "anchors.py exits 0 ($(head -c 300 "$t/a.err"))" test $last -eq 0
check "anchors.csv written" test -s "$t/r/anchors.csv"
check "anchors.csv: every input, every anchor, both instances, judged" python3 - "$t/r" <<'PY'
import csv, sys
d = sys.argv[1]
res = [r for r in csv.DictReader(open(d + "/results.csv")) if r["status"] == "ok" and r["variant"] == "exact"]
rows = list(csv.DictReader(open(d + "/anchors.csv")))
inputs = {(r["dataset"], r["params"], r["dtype"], r["n"], r["instance"]) for r in res}
assert {r["instance"] for r in rows} == {"0", "1"}, "two instances"
for key in inputs:
    got = sorted(r["anchor"] for r in rows if (r["dataset"], r["params"], r["dtype"], r["n"], r["instance"]) == key)
    want = sorted(["numpy.sum", "math.fsum"] + (["numpy.sum(f64)"] if key[2] == "f32" else []))
    assert got == want, (key, got)
seed = {r["instance"]: r["seed"] for r in res}
for r in rows:
    assert r["seed"] == seed[r["instance"]], r            # the instance's own seed
    # the regenerated input is the study's: its exact sum rounds to the study's exact row
    ex = [e for e in res if (e["params"], e["dtype"], e["instance"]) == (r["params"], r["dtype"], r["instance"])][0]
    s = float.fromhex(r["exact_sum_hex"])
    import struct
    if r["dtype"] == "f32":
        s = struct.unpack("f", struct.pack("f", s))[0]
    assert s == float.fromhex(ex["exact_hex"]), (r, ex["exact_hex"])
    if r["anchor"] == "math.fsum":                       # correctly rounded in float64
        assert float(r["ulps_f64"]) <= 0.5, r
PY
check "report shows the anchors table" grep -q '^## Anchors' "$t/r/report.md"
check "report: math.fsum row beside sumlab's variants" bash -c "grep -q '^| math.fsum | python ' '$t/r/report.md' && grep -q '^| serial | sumlab |' '$t/r/report.md'"

# --files: {1, 2^-60, -1}: numpy.sum gives 0 (2^52 ulps off), math.fsum gives S = 2^-60
python3 -c "import numpy as np; np.save('$t/j.npy', np.array([1.0, 2.0**-60, -1.0]))"
python3 "$src/experiments/anchors/anchors.py" --files "$t/j.npy" -o "$t/j.csv" --sumlab "$bin" --no-torch 2>/dev/null
check "--files exits 0" test $? -eq 0
check "--files: numpy.sum and math.fsum judged by hand" python3 - "$t/j.csv" <<'PY'
import csv, sys
rows = {r["anchor"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["numpy.sum"]["result_hex"] == "0x0p+0" and float(rows["numpy.sum"]["ulps"]) == 2 ** 52, rows
assert rows["math.fsum"]["result_hex"] == "0x1p-60" and float(rows["math.fsum"]["ulps"]) == 0, rows
assert rows["math.fsum"]["exact_sum_hex"] == "0x1p-60", rows
PY
echo "tanchors: $checks checks, $fails failed"
[ $fails -eq 0 ]

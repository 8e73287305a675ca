#!/usr/bin/env bash
# tanchors.sh: experiments/anchors/anchors.py end to end on the quick study (two instances, all
# four formats; the inputs of accuracy-vs-cond and accuracy-vs-range): every input summed by
# numpy.sum, numpy.sum(f64), math.fsum and, where PyTorch is installed, torch.sum; judged by the
# Python package (sumlab.judge; the --files run with a sumlab command that refuses `judge`);
# written to anchors.csv (one field per column: no comma in a name) and shown in report.md; no
# input skipped as "regenerated input differs"; and the --files mode on hand-computed float64,
# float16 and bfloat16 arrays; tiny var (ddof 0) and lse studies: each row's operation judged with
# its anchors (numpy.var/var(f64), numpy's shifted lse; torch.var/var_mean/logsumexp where
# installed) against its exact result, and --files --op var/max/lse on hand-computed values. Exits 77 (skip) only when NumPy is not installed (bootstrap.sh
# installs it, and ml_dtypes, as root) or the build has no Python package (SUMLAB_PYTHON=OFF:
# the sanitizer build). Without ml_dtypes the bfloat16 inputs must be skipped with a message;
# without PyTorch the torch anchors are not tested, and the output says so.
#   usage: tanchors.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tanchors.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
if ! python3 -c 'import numpy' 2>/dev/null; then
  echo "tanchors: NumPy is not installed: skipped" >&2
  exit 77
fi
# the package anchors.py imports: the one built beside the binary (<build>/python)
pkg=$(cd "$(dirname "$bin")/.." && pwd)/python
if ! PYTHONPATH="$pkg${PYTHONPATH:+:$PYTHONPATH}" python3 -c 'import sumlab' 2>/dev/null; then
  echo "tanchors: the Python package sumlab is not built beside $bin (SUMLAB_PYTHON=OFF): skipped" >&2
  exit 77
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/tanchors.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_GPU=1 SUMLAB_NO_CHARTS=1
fails=0 checks=0
check() { local d=$1; shift; checks=$((checks + 1)); "$@" || { fails=$((fails + 1)); echo "FAIL: $d" >&2; }; }
have_ml=0; python3 -c 'import ml_dtypes' 2>/dev/null && have_ml=1
have_torch=0; python3 -c 'import torch' 2>/dev/null && have_torch=1
[ $have_ml = 1 ] || echo "tanchors: ml_dtypes is not installed: bfloat16 inputs must be skipped with a message" >&2
[ $have_torch = 1 ] || echo "tanchors: PyTorch is not installed: the torch anchors are not tested" >&2

exps=accuracy-vs-cond,accuracy-vs-range   # the quick preset's inputs of these: n = 2^16, four formats
"$bin" run all --preset quick --backend cpu --seeds 2 --variants serial,pairwise -o "$t/r" -q
check "quick study exits 0" test $? -eq 0
python3 "$src/experiments/anchors/anchors.py" "$t/r" --sumlab "$bin" --experiments "$exps" 2> "$t/a.err"
last=$?; check "anchors.py exits 0 ($(head -c 300 "$t/a.err"))" test $last -eq 0
check "anchors.csv written" test -s "$t/r/anchors.csv"
check "no input skipped as regenerated input differs ($(grep -m1 skipped "$t/a.err"))" \
  bash -c "! grep -q 'regenerated input differs' '$t/a.err'"
check "anchors.csv: every input, every anchor, both instances, four formats, judged" \
  python3 - "$t/r" "$t/a.err" "$have_ml" "$have_torch" <<'PY'
import csv, fractions, math, sys
d, errf, have_ml, have_torch = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4] == "1"
err = open(errf).read()
FMT = {"f64": (53, -1022, 1023), "f32": (24, -126, 127), "f16": (11, -14, 15), "bf16": (8, -126, 127)}

def exact(text):
    t = text.lower(); neg = t.startswith("-"); t = t.lstrip("+-")
    m, _, e = t[2:].partition("p"); w, _, f = m.partition(".")
    v = fractions.Fraction(int(w + f, 16), 16 ** len(f)) * fractions.Fraction(2) ** int(e)
    return -v if neg else v

def rounded(v, dt):   # v rounded once to dt (nearest, ties to even), the test's own rounding
    if v == 0: return 0.0
    p, emin, emax = FMT[dt]
    a = abs(v); e = 0
    while fractions.Fraction(2) ** e > a: e -= 1
    while fractions.Fraction(2) ** (e + 1) <= a: e += 1
    q = max(e, emin) - (p - 1)
    m = a / fractions.Fraction(2) ** q
    r = math.floor(m)
    if m - r > fractions.Fraction(1, 2) or (m - r == fractions.Fraction(1, 2) and r % 2): r += 1
    o = r * fractions.Fraction(2) ** q
    x = math.inf if o >= fractions.Fraction(2) ** (emax + 1) else float(o)
    return -x if v < 0 else x

res = [r for r in csv.DictReader(l for l in open(d + "/results.csv") if not l.startswith("#"))
       if r["status"] == "ok" and r["variant"] == "exact" and r["experiment"] in ("accuracy-vs-cond", "accuracy-vs-range")]
lines = open(d + "/anchors.csv").read().splitlines()
ncol = lines[0].count(",")
assert all(l.count(",") == ncol for l in lines), "a field holds a comma"
rows = list(csv.DictReader(lines))
key = lambda r: (r["experiment"], r["dataset"], r["params"], r["dtype"], r["n"], r["instance"])
inputs = {key(r): r for r in res}
assert {r["instance"] for r in rows} == {"0", "1"}, "two instances"
fmts = {k[3] for k in inputs if have_ml or k[3] != "bf16"}
assert fmts == {"f32", "f64", "f16", "bf16"} - (set() if have_ml else {"bf16"}), fmts
assert {r["dtype"] for r in rows} == fmts, {r["dtype"] for r in rows}
if not have_ml:
    assert "bfloat16 inputs skipped" in err and "ml_dtypes" in err, err[-500:]
by = {}
for r in rows:
    by.setdefault(key(r), []).append(r)
for k, e in inputs.items():
    if k[3] == "bf16" and not have_ml:
        assert k not in by, k
        continue
    label = "{} {} {} n={} instance {}".format(k[1], k[2] or "-", k[3], k[4], k[5])
    want = {"numpy.sum"} | ({"numpy.sum(f64)"} if k[3] != "f64" else set())
    if "math.fsum gave no result for " + label + ":" not in err:
        want.add("math.fsum")
    if have_torch:
        want |= {"torch.sum(cpu)"} | ({"torch.sum(cpu;f64)"} if k[3] != "f64" else set())
    got = {r["anchor"] for r in by.get(k, [])}
    assert want <= got, (k, sorted(got), sorted(want))
    for r in by[k]:
        assert r["seed"] == e["seed"], r                       # the instance's own seed
        S = exact(r["exact_sum_hex"]) if "x" in r["exact_sum_hex"] else None
        if S is not None:                                      # the study's input: S rounds to its exact row
            assert rounded(S, k[3]) == float.fromhex(e["exact_hex"]), (r, e["exact_hex"])
        v = float.fromhex(r["result_hex"]) if "x" in r["result_hex"] else float(r["result_hex"])
        assert not math.isfinite(v) or rounded(fractions.Fraction(v), k[3]) == v, ("not a value of the format", r)
        if r["anchor"] == "math.fsum" and S is not None and math.isfinite(rounded(S, k[3])):
            assert float(r["ulps"]) <= 0.5 + 1e-6, r           # correctly rounded in float64, then once to the format
print("tanchors: %d inputs, %d rows, formats %s" % (len(inputs), len(rows), sorted(fmts)), file=sys.stderr)
PY
check "report shows the anchors table" grep -q '^## Anchors' "$t/r/report.md"
check "report: math.fsum row beside sumlab's variants" bash -c "grep -q '^| math.fsum | python ' '$t/r/report.md' && grep -q '^| serial | sumlab |' '$t/r/report.md'"

# --files: {1, 2^-60, -1} in float64: numpy.sum gives 0 (2^52 ulps off), math.fsum gives S = 2^-60;
# float16 {1, 2^-11, 2^-11} and bfloat16 {1, 2^-8, 2^-8}: S = 1 + 2^-10 and 1 + 2^-7, math.fsum exact
python3 - "$t" "$have_ml" <<'PY'
import sys
import numpy as np
t, have_ml = sys.argv[1], sys.argv[2] == "1"
np.save(t + "/j.npy", np.array([1.0, 2.0 ** -60, -1.0]))
np.save(t + "/h.npy", np.array([1.0, 2.0 ** -11, 2.0 ** -11], dtype=np.float16))
if have_ml:
    import ml_dtypes
    np.save(t + "/b.npy", np.array([1.0, 2.0 ** -8, 2.0 ** -8], dtype=ml_dtypes.bfloat16))
else:   # the bytes np.save writes for ml_dtypes.bfloat16: '<V2'
    np.save(t + "/b.npy", np.array([0x3f80, 0x3b80, 0x3b80], dtype=np.uint16).view("V2"))
PY
files=("$t/j.npy" "$t/h.npy"); [ $have_ml = 1 ] && files+=("$t/b.npy")
# a sumlab command that refuses `judge`, the package beside it: the judging is the package's
mkdir -p "$t/wrap/experiments"
ln -s "$pkg" "$t/wrap/python"
printf '#!/bin/sh
[ "$1" = judge ] && { echo "tanchors: sumlab judge called" >&2; exit 3; }
exec "%s" "$@"
' "$bin" \
  > "$t/wrap/experiments/sumlab"
chmod +x "$t/wrap/experiments/sumlab"
python3 "$src/experiments/anchors/anchors.py" --files "${files[@]}" -o "$t/j.csv" --sumlab "$t/wrap/experiments/sumlab" 2> "$t/f.err"
last=$?; check "--files exits 0 ($(head -c 300 "$t/f.err"))" test $last -eq 0
check "--files: numpy.sum and math.fsum judged by hand, 16-bit files read" python3 - "$t/j.csv" "$have_ml" <<'PY'
import csv, sys
rows = {(r["dataset"].rsplit("/", 1)[1], r["anchor"]): r for r in csv.DictReader(open(sys.argv[1]))}
j = lambda a: rows[("j.npy", a)]
assert j("numpy.sum")["result_hex"] == "0x0p+0" and float(j("numpy.sum")["ulps"]) == 2 ** 52, rows
assert j("math.fsum")["result_hex"] == "0x1p-60" and float(j("math.fsum")["ulps"]) == 0, rows
assert j("math.fsum")["exact_sum_hex"] == "0x1p-60", rows
h = rows[("h.npy", "math.fsum")]
assert h["dtype"] == "f16" and h["exact_sum_hex"] == "0x1.004p+0" and h["result_hex"] == "0x1.004p+0" and float(h["ulps"]) == 0, h
assert ("h.npy", "numpy.sum") in rows and ("h.npy", "numpy.sum(f64)") in rows, rows.keys()
if sys.argv[2] == "1":
    b = rows[("b.npy", "math.fsum")]
    assert b["dtype"] == "bf16" and b["exact_sum_hex"] == "0x1.02p+0" and b["result_hex"] == "0x1.02p+0" and float(b["ulps"]) == 0, b
PY
# without ml_dtypes, a bfloat16 file is refused with a message naming ml_dtypes (not a traceback)
python3 -c "
import runpy, sys
sys.modules['ml_dtypes'] = None   # import ml_dtypes fails
sys.argv = ['anchors.py', '--files', '$t/b.npy', '-o', '$t/nb.csv', '--sumlab', '$bin', '--no-torch']
runpy.run_path('$src/experiments/anchors/anchors.py', run_name='__main__')" 2> "$t/nb.err"
last=$?
check "bfloat16 --files without ml_dtypes: exit 1 with one message (got $last: $(head -c 300 "$t/nb.err"))" \
  bash -c "[ $last -eq 1 ] && grep -q 'ml_dtypes' '$t/nb.err' && ! grep -q Traceback '$t/nb.err'"
# other operations: a tiny study of var (ddof 0, as numpy.var), one of lse, norm2 and dot (the
# study's pairs regenerated: x then y); anchors.py takes each row's op and run.conf's ddof:
# numpy.var/std(ddof), numpy.mean-free rows, numpy's shifted lse, numpy.linalg.norm, numpy.dot
# (and torch.var/var_mean/logsumexp/linalg.vector_norm/dot, scipy's logsumexp and BLAS where
# installed), judged against the operation's exact result (exact_sum_hex rounds to the study's
# exact row), op and ddof columns
for op in var lse norm2 dot; do
  dv=1; dd=(); [ $op = var ] && dv=0 && dd=(--ddof 0)   # the others have no ddof (run.conf: 1)
  few=(); case $op in norm2|dot) few=(--n 1024) ;; esac   # (their families, at one size)
  "$bin" run accuracy-vs-n --preset tiny --backend cpu --op $op "${dd[@]}" --variants exact "${few[@]}" -o "$t/$op" -q
  check "tiny $op study exits 0" test $? -eq 0
  python3 "$src/experiments/anchors/anchors.py" "$t/$op" --sumlab "$bin" --experiments accuracy-vs-n --no-report 2> "$t/$op.err"
  last=$?; check "anchors.py on $op exits 0 ($(head -c 300 "$t/$op.err"))" test $last -eq 0
  check "anchors.csv of $op: every input, the op's anchors, judged against its exact result" \
    python3 - "$t/$op" $op $dv "$have_ml" "$have_torch" <<'PY'
import csv, fractions, math, sys
d, op, dd, have_ml, have_torch = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5] == "1"
FMT = {"f64": (53, -1022, 1023), "f32": (24, -126, 127), "f16": (11, -14, 15), "bf16": (8, -126, 127)}
def exact(text):
    t = text.lower(); neg = t.startswith("-"); t = t.lstrip("+-")
    m, _, e = t[2:].partition("p"); w, _, f = m.partition(".")
    v = fractions.Fraction(int(w + f, 16), 16 ** len(f)) * fractions.Fraction(2) ** int(e)
    return -v if neg else v
def rounded(v, dt):
    if v == 0: return 0.0
    p, emin, emax = FMT[dt]
    a = abs(v); e = 0
    while fractions.Fraction(2) ** e > a: e -= 1
    while fractions.Fraction(2) ** (e + 1) <= a: e += 1
    q = max(e, emin) - (p - 1)
    m = a / fractions.Fraction(2) ** q
    r = math.floor(m)
    if m - r > fractions.Fraction(1, 2) or (m - r == fractions.Fraction(1, 2) and r % 2): r += 1
    o = r * fractions.Fraction(2) ** q
    x = math.inf if o >= fractions.Fraction(2) ** (emax + 1) else float(o)
    return -x if v < 0 else x
res = [r for r in csv.DictReader(l for l in open(d + "/results.csv") if not l.startswith("#"))
       if r["status"] == "ok" and r["variant"] == "exact"]
assert res and all(r["op"] == op for r in res), "the study's rows are op " + op
rows = list(csv.DictReader(open(d + "/anchors.csv")))
key = lambda r: (r["experiment"], r["dataset"], r["params"], r["dtype"], r["n"], r["instance"])
inputs = {key(r): r for r in res if have_ml or r["dtype"] != "bf16"}
by = {}
for r in rows:
    assert r["op"] == op and r["ddof"] == dd, r
    by.setdefault(key(r), []).append(r)
for k, e in inputs.items():
    np_name = {"var": "numpy.var", "lse": "numpy shifted lse", "norm2": "numpy.linalg.norm", "dot": "numpy.dot"}[op]
    want = {np_name}
    if op in ("var", "norm2", "dot") and k[3] != "f64": want.add(np_name + "(f64)")
    if have_torch: want |= {"var": {"torch.var(cpu)", "torch.var_mean(cpu)"}, "lse": {"torch.logsumexp(cpu)"},
                            "norm2": {"torch.linalg.vector_norm(cpu)"}, "dot": {"torch.dot(cpu)"}}[op]
    got = {r["anchor"] for r in by.get(k, [])}
    assert want <= got, (k, sorted(got), sorted(want))
    for r in by[k]:
        if "x" in r["exact_sum_hex"]:
            assert rounded(exact(r["exact_sum_hex"]), k[3]) == float.fromhex(e["exact_hex"]), (r, e["exact_hex"])
        if r["anchor"] == "numpy.var(f64)" and "x" in r["exact_sum_hex"] and k[3] == "f32":
            assert float(r["ulps"]) <= 1.0, r              # two-pass in float64, rounded to float32
print("tanchors: %s: %d inputs, %d rows" % (op, len(inputs), len(rows)), file=sys.stderr)
PY
done
# --files --op: hand-computed values: var(ddof 0) of {1, 2, 3, 4} = 1.25 and std = sqrt(1.25),
# max of {-3, -1} = -1, lse of {0, 0} = log 2 (numpy's shifted form: 0 + log(2), correctly rounded),
# norm2 of {3, 4} = 5
python3 - "$t" <<'PY'
import sys
import numpy as np
np.save(sys.argv[1] + "/v.npy", np.array([1.0, 2.0, 3.0, 4.0]))
np.save(sys.argv[1] + "/m.npy", np.array([-3.0, -1.0]))
np.save(sys.argv[1] + "/l.npy", np.array([0.0, 0.0]))
np.save(sys.argv[1] + "/dx.npy", np.array([3.0, 4.0]))   # norm2 5; dot with dy 2.5
np.save(sys.argv[1] + "/dy.npy", np.array([0.5, 0.25]))
np.save(sys.argv[1] + "/d3.npy", np.ones(3))
PY
for spec in "var 0 v.npy numpy.var 0x1.4p+0" "max 1 m.npy numpy.max -0x1p+0" "lse 1 l.npy numpy_shifted_lse 0x1.62e42fefa39efp-1" \
            "norm2 1 dx.npy numpy.linalg.norm 0x1.4p+2"; do
  read -r op dd f an want <<< "$spec"
  an=${an//_/ }
  python3 "$src/experiments/anchors/anchors.py" --files "$t/$f" -o "$t/f_$op.csv" --sumlab "$bin" --no-torch --op $op --ddof $dd 2> "$t/f.err"
  last=$?; check "--files --op $op exits 0 ($(head -c 300 "$t/f.err"))" test $last -eq 0
  check "--files --op $op: $an = $want, exact, 0 ulps" python3 - "$t/f_$op.csv" "$an" "$want" "$op" <<'PY'
import csv, sys
rows = {r["anchor"]: r for r in csv.DictReader(open(sys.argv[1]))}
r = rows[sys.argv[2]]
assert r["result_hex"] == sys.argv[3] and r["exact_sum_hex"].startswith(sys.argv[3].split("p")[0].rstrip("0")), r
assert float(r["ulps"]) <= 0.5 and r["op"] == sys.argv[4], r
PY
done
# --files --op dot takes X,Y pairs: {3, 4} . {0.5, 0.25} = 2.5; an odd count or a length mismatch
# is one message and exit 1
python3 "$src/experiments/anchors/anchors.py" --files "$t/dx.npy" "$t/dy.npy" -o "$t/f_dot.csv" --sumlab "$bin" --no-torch --op dot 2> "$t/f.err"
last=$?; check "--files --op dot exits 0 ($(head -c 300 "$t/f.err"))" test $last -eq 0
check "--files --op dot: numpy.dot = 2.5, exact, 0 ulps, dataset X+Y" python3 -c "
import csv, sys
r = {r['anchor']: r for r in csv.DictReader(open('$t/f_dot.csv'))}['numpy.dot']
sys.exit(not (r['result_hex'] == '0x1.4p+1' and r['exact_sum_hex'] == '0x1.4p+1' and float(r['ulps']) == 0
              and r['dataset'].endswith('dx.npy+$t/dy.npy') and r['op'] == 'dot'))"
for bad in "$t/dx.npy" "$t/dx.npy $t/d3.npy"; do
  python3 "$src/experiments/anchors/anchors.py" --files $bad -o "$t/f_bad.csv" --sumlab "$bin" --no-torch --op dot 2> "$t/f.err"
  last=$?
  check "--files --op dot $bad: exit 1, one message (got $last: $(head -c 300 "$t/f.err"))" \
    bash -c "[ $last -eq 1 ] && [ \$(wc -l < '$t/f.err') -eq 1 ] && ! grep -q Traceback '$t/f.err'"
done
# SciPy's BLAS nrm2 (where installed) stays finite on 2^16 values of 1e20 in float32, where
# numpy.linalg.norm's float32 sum of squares may overflow
if python3 -c 'import scipy.linalg.blas' 2>/dev/null; then
  python3 -c "import numpy as np; np.save('$t/big.npy', np.full(1 << 16, 1e20, np.float32))"
  python3 "$src/experiments/anchors/anchors.py" --files "$t/big.npy" -o "$t/f_big.csv" --sumlab "$bin" --no-torch --op norm2 2> "$t/f.err"
  last=$?; check "--files --op norm2 big exits 0 ($(head -c 300 "$t/f.err"))" test $last -eq 0
  check "--files --op norm2: scipy.linalg.blas.snrm2 finite within 16 ulps of the exact norm" python3 -c "
import csv, sys
r = {r['anchor']: r for r in csv.DictReader(open('$t/f_big.csv'))}['scipy.linalg.blas.snrm2']
sys.exit(not (r['result_hex'] not in ('inf', 'nan') and float(r['ulps']) <= 16))"
else
  echo "tanchors: SciPy is not installed: the BLAS anchors are not tested" >&2
fi
echo "tanchors: $checks checks, $fails failed$([ $have_torch = 1 ] || echo ' (torch anchors not tested: PyTorch not installed)')"
[ $fails -eq 0 ]

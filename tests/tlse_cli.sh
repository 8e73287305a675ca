#!/usr/bin/env bash
# tlse_cli.sh: `sumlab reduce --op lse FILE --variants exact,accurate,reproducible --format csv`
# end to end (CPU backend): the exact row's result_hex against log(sum exp(x)) computed by mpmath
# at 400 bits and rounded once to the format (Python's exact rationals), the accurate row within
# 1 ulp of it (float32, 16-bit; float64: within 4 ulps) and the reproducible row present, on files
# from `sumlab gen logits` / `lse-masked` in float32, float64, float16 and bfloat16; -Inf for an
# all-masked file; `list ops` names lse; the softmax figures under the table of `judge --op lse`
# and of `reduce --op lse` (every variant's, against mpmath).
#   usage: bash tests/tlse_cli.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tlse_cli.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tlse_cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SUMLAB_NO_GPU=1
python3 -c 'import numpy, mpmath' 2>/dev/null || { echo "tlse_cli: skipped: needs numpy and mpmath"; exit 77; }
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }

check "list ops lists lse" bash -c "'$sumlab' list ops --format csv 2>/dev/null | grep -q '^lse,1,'"
cases=("logits f32 5000 sigma=10" "logits f64 3001 sigma=30" "logits f16 777 sigma=2"
       "logits f32 1000 shift=-500" "logits bf16 4000 dominant=20"
       "lse-masked f32 2048 share=0.75" "lse-masked f64 99 pattern=causal" "lse-masked f32 64 share=1")
i=0
for c in "${cases[@]}"; do
  read -r ds dt n param <<< "$c"
  i=$((i + 1))
  f="$tmp/x$i.npy"
  "$sumlab" gen "$ds" --n "$n" --dtype "$dt" --seed "$seed" --param "$param" -o "$f" 2> "$tmp/gen.err"
  check "gen $c" test $? -eq 0
  "$sumlab" reduce --op lse "$f" --variants exact,accurate,reproducible --format csv > "$tmp/r$i.csv" 2> "$tmp/r.err"
  check "reduce --op lse $c exits 0" test $? -eq 0
  python3 - "$f" "$tmp/r$i.csv" "$dt" <<'PY' || fail "lse $c: result_hex is not the correctly rounded value"
import csv, sys
from fractions import Fraction
import numpy as np, mpmath
f, res, dt = sys.argv[1:4]
x = np.load(f)
if dt == "bf16" or x.dtype.kind == "V" or x.dtype.itemsize == 2 and dt == "bf16":
    x = (x.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
p, emin = {"f32": (24, -126), "f64": (53, -1022), "f16": (11, -14), "bf16": (8, -126)}[dt]
mpmath.mp.prec = 400
vals = [float(v) for v in np.asarray(x, dtype=np.float64).ravel() if v != -np.inf]
if not vals:
    want = float("-inf")
else:
    m = max(vals)
    s = mpmath.fsum(mpmath.exp(mpmath.mpf(v) - m) for v in vals)
    l = mpmath.log(s) + m
    sign, man, ex, _ = l._mpf_
    q = (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(ex)
    a, sg = abs(q), (-1 if q < 0 else 1)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a: e -= 1
    while Fraction(2) ** (e + 1) <= a: e += 1
    qe = max(e - p + 1, emin - p + 1)
    want = sg * float(round(a / Fraction(2) ** qe) * Fraction(2) ** qe)
rows = [r for r in csv.DictReader(open(res)) if r["variant"] == "exact"]
h = rows[0]["result_hex"]
got = float(h) if h in ("inf", "-inf", "nan") else float.fromhex(h)
if got != want:
    print(f"{f}: result_hex {h} = {got!r}, expected {want!r} ({want.hex()})", file=sys.stderr)
    sys.exit(1)
def val(name):
    rs = [r for r in csv.DictReader(open(res)) if r["variant"] == name]
    if len(rs) != 1:
        print(f"{f}: {len(rs)} rows of {name}", file=sys.stderr)
        sys.exit(1)
    h = rs[0]["result_hex"]
    return float(h) if h in ("inf", "-inf", "nan") else float.fromhex(h)
a, _ = val("accurate"), val("reproducible")
if want in (float("inf"), float("-inf")):
    ok = a == want
else:
    e = max(abs(want), 2.0 ** emin)
    k = 0
    while 2.0 ** (k + 1) <= e: k += 1
    while 2.0 ** k > e: k -= 1
    ulp = 2.0 ** (k - p + 1)
    ok = abs(a - want) <= (4 if dt == "f64" else 1) * ulp
if not ok:
    print(f"{f}: accurate {a!r} is more than the allowed ulps from {want!r}", file=sys.stderr)
    sys.exit(1)
PY
  checks=$((checks + 1))
done
# the judge's softmax figures for op lse (table format): {0, 0} in float64: denominator 2, a value
# 0.1 above log 2 makes every p_i exp(-0.1) times too small (relative error 0.0952, largest 0.0476)
python3 -c "import numpy as np; np.save('$tmp/s.npy', np.array([0.0, 0.0]))"
"$sumlab" judge "$tmp/s.npy" --op lse --value 0.7931471805599453 > "$tmp/s.txt" 2> "$tmp/s.err"
check "judge --op lse exits 0" test $? -eq 0
check "judge --op lse: the softmax denominator 2" grep -q '^softmax denominator sum exp(x_i - max) = 2.00000000000000 (15 significant digits' "$tmp/s.txt"
check "judge --op lse: every p_i off by 0.0952, largest 0.0476" \
  grep -q 'every p_i off by 0.0952 (relative), largest |p_i - exact p_i| = 0.0476, sum p_i - 1 = -0.0952' "$tmp/s.txt"
"$sumlab" judge "$tmp/s.npy" --op sum --value 0 > "$tmp/s0.txt" 2>&1
check "judge --op sum prints no softmax lines" bash -c "! grep -q softmax '$tmp/s0.txt'"
# reduce --op lse (table format): S's certified bits, the softmax denominator to its certain
# digits, and one line per variant row whose figures are |expm1(L - result)|, exp(max - L) times
# it and expm1(L - result) (L: mpmath at 400 bits; result: the row's result_hex of a csv run)
"$sumlab" gen logits --n 3000 --dtype f16 --seed "$seed" --param sigma=2 --param shift=-20 -o "$tmp/h.npy" 2> /dev/null
"$sumlab" reduce --op lse "$tmp/h.npy" --variants all -q > "$tmp/h.txt" 2> "$tmp/h.err"
check "reduce --op lse (table) exits 0" test $? -eq 0
"$sumlab" reduce --op lse "$tmp/h.npy" --variants all -q --format csv > "$tmp/h.csv" 2> "$tmp/h.err"
check "reduce --op lse (csv) exits 0" test $? -eq 0
python3 - "$tmp/h.npy" "$tmp/h.txt" "$tmp/h.csv" <<'PY' || fail "reduce --op lse: the softmax block"
import csv, math, re, sys
import numpy as np, mpmath
f, txt, res = sys.argv[1:4]
mpmath.mp.prec = 400
x = np.load(f).astype(np.float64)
m = max(x)
L = mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(v) - m) for v in x)) + m
out = open(txt).read()
bad = []
g = re.search(r"correctly rounded to a precision of (\d+) bits", out)
if not g or int(g.group(1)) < 11:
    bad.append("no line on S's certified precision")
g = re.search(r"^softmax denominator sum exp\(x_i - max\) = (\S+) \((\d+) significant digits", out, re.M)
if not g:
    bad.append("no softmax denominator")
else:
    d, nd = float(g.group(1)), int(g.group(2))
    want = float(mpmath.exp(L - m))
    if nd < 10 or abs(d - want) > 10.0 ** (1 - nd) * want:
        bad.append(f"denominator {g.group(1)} ({nd} digits), exact {want!r}")
lines = dict(re.findall(r"^  (\S+): (every p_i off by .*)$", out, re.M))
rows = list(csv.DictReader(open(res)))
if len(rows) < 8 or set(lines) != {r["variant"] for r in rows}:
    bad.append(f"variants {sorted(lines)} against the rows {sorted(r['variant'] for r in rows)}")
for r in rows:
    h = r["result_hex"]
    v = float(h) if h in ("inf", "-inf", "nan") else float.fromhex(h)
    want = (abs(mpmath.expm1(L - v)), mpmath.exp(m - L) * abs(mpmath.expm1(L - v)), mpmath.expm1(L - v))
    g = re.match(r"every p_i off by (\S+) \(relative\), largest \|p_i - exact p_i\| = (\S+), sum p_i - 1 = (\S+)$",
                 lines.get(r["variant"], ""))
    if not g:
        bad.append(f"{r['variant']}: no line")
        continue
    for got, w in zip(g.groups(), want):
        w = float(w)
        if abs(float(got) - w) > 5e-3 * abs(w) + 1e-300:
            bad.append(f"{r['variant']}: {got} against {w!r}")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
checks=$((checks + 1))
# non-finite lse: one line, no figures; one value among -Inf masks: S exact
python3 -c "import numpy as np; np.save('$tmp/m.npy', np.full(5, -np.inf, np.float32)); np.save('$tmp/q.npy', np.array([1.0, np.nan], np.float32)); np.save('$tmp/o.npy', np.array([-np.inf, 2.5, -np.inf]))"
"$sumlab" reduce --op lse "$tmp/m.npy" -q > "$tmp/m.txt" 2>&1
check "reduce --op lse, all -Inf: one line, no figures" bash -c "grep -q '^softmax: no normalised outputs: the exact lse is -Inf' '$tmp/m.txt' && ! grep -qi 'nan\|p_i off' '$tmp/m.txt'"
"$sumlab" judge "$tmp/q.npy" --op lse --value nan > "$tmp/q.txt" 2>&1
check "judge --op lse, a NaN input: one line, no figures" bash -c "grep -q '^softmax: no normalised outputs: the exact lse is NaN' '$tmp/q.txt' && ! grep -q 'p_i off' '$tmp/q.txt'"
"$sumlab" reduce --op lse "$tmp/o.npy" --variants exact -q > "$tmp/o.txt" 2>&1
check "reduce --op lse, one value among -Inf: S exact, denominator 1" bash -c "grep -q 'S is exact' '$tmp/o.txt' && ! grep -q irrational '$tmp/o.txt' && grep -q '^softmax denominator sum exp(x_i - max) = 1.00000000000000 ' '$tmp/o.txt'"
echo "tlse_cli: $checks checks, $fails failed (seed $seed)"
[ "$fails" -eq 0 ]

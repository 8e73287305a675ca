#!/usr/bin/env bash
# tnorm_cli.sh: `sumlab reduce --op norm2 FILE --variants exact,correct --format csv` end to end (CPU
# backend): both rows' result_hex equal sqrt(sum x^2) computed here with Python integers (exact
# squares as Fractions, math.isqrt) and rounded once (nearest, ties to even) to the format, on
# random data, the issue's 2^20 x 1e20 and 1e-25 float32 rows, float16 values > 256 and float64
# values near 1e+-200 (reproducible within 2 ulps of it); Inf beside NaN gives inf; `list ops` lists norm2; the study's accuracy-vs-n
# sweeps the norm families and its report names the variants that return +Inf or 0 there.
#   usage: bash tests/tnorm_cli.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tnorm_cli.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
check_init tnorm_cli tmp
export SUMLAB_NO_GPU=1

python3 - "$tmp" "$seed" <<'PY'
import math, random, struct, sys
from fractions import Fraction
tmp, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
# (struct code, precision, emin, largest finite value)
fmts = {"f32": ("<f", 24, -126, (2 - 2.0**-23) * 2.0**127), "f64": ("<d", 53, -1022, (2 - 2.0**-52) * 2.0**1023),
        "f16": ("<e", 11, -14, 65504.0)}

def root_rounded(s2, p, emin, vmax):
    """sqrt(s2) (a Fraction >= 0) rounded once to p bits, ties to even, subnormals, Inf past vmax"""
    if s2 == 0:
        return 0.0
    # s2 = N / 2^(2k) with N an integer: every square here is a multiple of 2^-2148
    k = 1100
    N = s2 * Fraction(2) ** (2 * k)
    assert N.denominator == 1
    N = N.numerator
    r = math.isqrt(N)                         # sqrt(s2) = (r + f) 2^-k
    e = r.bit_length() - 1 - k                # the leading bit's exponent
    qe = max(e - p + 1, emin - p + 1)         # quantum 2^qe
    # scale so the quantum is 1 with 2 guard bits: isqrt of N 2^(2(-qe-k+2))... exact integer work
    sh = 2 * (-qe - k + 2)
    M = N << sh if sh >= 0 else N >> (-sh)
    lost = sh < 0 and (N & ((1 << (-sh)) - 1)) != 0
    t = math.isqrt(M)
    sticky = lost or t * t != M
    q, guard, rest = t >> 2, (t >> 1) & 1, (t & 1) or sticky
    if guard and (rest or q & 1):             # nearest, ties to even
        q += 1
    v = math.ldexp(q, qe) if q.bit_length() + qe < 1100 else math.inf
    return math.inf if v > vmax else v

cases = []
def add(name, dt, xs, times=1):
    """the file holds xs repeated `times` times"""
    code, p, emin, vmax = fmts[dt]
    xs = [struct.unpack(code, struct.pack(code, x))[0] for x in xs]
    open(f"{tmp}/{name}.{dt}", "wb").write(b"".join(struct.pack(code, x) for x in xs) * times)
    s2 = times * sum(Fraction(x) * Fraction(x) for x in xs)
    cases.append(f"{name} {dt} {root_rounded(s2, p, emin, vmax).hex()}")

for dt in ("f32", "f64", "f16"):
    add("random", dt, [rng.gauss(0, 1) * (100 if dt != "f16" else 1) for _ in range(1000)])
add("huge", "f32", [1e20], 1 << 20)
add("tiny", "f32", [1e-25], 1 << 20)
add("sq-overflow", "f16", [257.0 + rng.randrange(200) for _ in range(300)])
add("pm200", "f64", [rng.choice((1e200, 1e-200)) * (1 + rng.random()) for _ in range(1000)])
add("ties", "f32", [2.0**24, 2.0**12, 2.0**12, 1.0])   # sqrt = 2^24 + 1, a midpoint: to even
open(f"{tmp}/want", "w").write("\n".join(cases) + "\n")
open(f"{tmp}/special.f32", "wb").write(struct.pack("<3f", float("nan"), 1.0, float("-inf")))
PY
while read -r name dt want; do
  "$sumlab" reduce --op norm2 "$tmp/$name.$dt" --dtype "$dt" --variants exact,correct,reproducible --format csv \
    > "$tmp/out.csv" 2> "$tmp/err"
  check "$name $dt: the command succeeds ($(tail -n 1 "$tmp/err"))" test $? -eq 0
  for v in exact correct reproducible; do
    got=$(python3 -c "import csv,sys; r=[x for x in csv.DictReader(open(sys.argv[1])) if x['variant']==sys.argv[2]]; print(r[0]['result_hex'] if len(r)==1 else 'rows:%d'%len(r))" "$tmp/out.csv" "$v")
    if [ "$v" = reproducible ]; then   # within 2 ulps of the format (float64: scaled TwoProduct pieces)
      check "$name $dt $v: result_hex $got, want $want within 2 ulps" python3 -c "
import math, sys
p, emin = {'f32': (24, -126), 'f64': (53, -1022), 'f16': (11, -14)}['$dt']
g, w = float.fromhex('$got'), float.fromhex('$want')
ulp = math.ldexp(1.0, max(math.frexp(w)[1] - 1, emin) - p + 1)
sys.exit(not (math.isfinite(g) and abs(g - w) <= 2 * ulp))"
    else
      check "$name $dt $v: result_hex $got, want $want" python3 -c "import sys; sys.exit(float.fromhex('$got') != float.fromhex('$want'))"
    fi
  done
done < "$tmp/want"
"$sumlab" reduce --op norm2 "$tmp/special.f32" --dtype f32 --variants all --format csv > "$tmp/sp.csv" 2>/dev/null
check "Inf beside NaN: every row inf" python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$tmp/sp.csv')))
sys.exit(not rows or any(r['result_hex'] != 'inf' for r in rows))"
"$sumlab" list ops --format csv > "$tmp/ops.csv" 2>/dev/null
check "list ops lists norm2" grep -q "^norm2,1," "$tmp/ops.csv"
# the study of norm2 (accuracy-vs-n sweeps the norm families, opt-in elsewhere): naive returns +Inf
# on huge and sq-overflow and 0 on tiny (float32) where the exact norm is finite and non-zero, scaled,
# reproducible and correct never do, and report.md's table of non-finite results names naive on huge;
# the report says why accuracy-vs-cond has no rows and why naive has no finite bound there
"$sumlab" run all --op norm2 --preset tiny --dtype f32 -o "$tmp/study" -q > /dev/null 2> "$tmp/err"
check "run all --op norm2: exit status 0 ($(tail -n 1 "$tmp/err"))" test $? -eq 0
check "report.md: accuracy-vs-cond skipped, norm2 having no condition number to sweep" \
  grep -q 'accuracy-vs-cond (skipped: the operation has no condition number to sweep)' "$tmp/study/report.md"
check "report.md: naive's +inf bounds are said to be the squares' range, not only k u >= 1" \
  grep -q "(variant \`naive\`) where the variant's bound model gives +inf: squares or partial sums" "$tmp/study/report.md"
check "the norm2 study: naive fails on huge, sq-overflow and tiny, the safe variants never" python3 - "$tmp/study/results.csv" <<'PY'
import csv, math, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")) if r["status"] == "ok"]
bad = {}
for r in rows:
    e = float.fromhex(r["exact_hex"]) if r["exact_hex"] not in ("inf", "nan") else math.inf
    if not (math.isfinite(e) and e != 0):
        continue
    v = r["result_hex"]
    if v == "inf" or v == "nan" or float.fromhex(v) == 0:
        bad.setdefault(r["variant"], set()).add(r["dataset"])
fams = {r["dataset"] for r in rows}
ok = {"huge", "tiny", "sq-overflow"} <= fams and bad.get("naive", set()) >= {"huge", "tiny", "sq-overflow"}
ok = ok and not ({"scaled", "reproducible", "correct", "exact"} & set(bad))
if not ok:
    print("families %s, failures %s" % (sorted(fams), bad), file=sys.stderr)
sys.exit(not ok)
PY
check "report.md: the overflow/underflow table: naive +Inf on huge and 0 on tiny, the safe variants ok" python3 - "$tmp/study/report.md" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("## Overflow and underflow", 1)[1].split("\n## ", 1)[0].splitlines()
rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in lines if l.startswith("|")]
head = rows[0]
body = {(r[0], r[1]): dict(zip(head, r)) for r in rows[2:]}
h, t = body[("`huge`", "f32")], body[("`tiny`", "f32")]
ok = h["naive"].startswith("**+Inf") and t["naive"].startswith("**0 ") and "exact" not in head
ok = ok and all(h[v] == "ok" and t[v] == "ok" for v in ("scaled", "reproducible", "correct"))
if not ok:
    print(rows, file=sys.stderr)
sys.exit(not ok)
PY
# float64: the same study; reproducible (the max pass, then scaled TwoProduct pieces) has rows on
# every norm family, never returns +Inf, NaN or 0 where the norm is finite and non-zero, and every
# row passed the run's self-check (within its bound)
"$sumlab" run all --op norm2 --preset tiny --dtype f64 -o "$tmp/study64" -q > /dev/null 2> "$tmp/err"
check "run all --op norm2 --dtype f64: exit status 0 ($(tail -n 1 "$tmp/err"))" test $? -eq 0
check "the float64 norm2 study: reproducible on huge, tiny, sq-overflow, subnormal, finite, self-checked" python3 - "$tmp/study64/results.csv" <<'PY'
import csv, math, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))
        if r["status"] == "ok" and r["variant"] == "reproducible" and r["dtype"] == "f64"]
fams = {r["dataset"] for r in rows}
bad = [r for r in rows if r["exact_hex"] not in ("inf", "nan") and float.fromhex(r["exact_hex"]) != 0
       and (r["result_hex"] in ("inf", "nan") or float.fromhex(r["result_hex"]) == 0)]
unchecked = [r for r in rows if r["check"] != "ok"]   # twin, bound: the run's verdict per row
ok = {"huge", "tiny", "sq-overflow", "subnormal"} <= fams and not bad and not unchecked
if not ok:
    print("families %s, failures %s, checks %s" % (sorted(fams), bad[:3], unchecked[:3]), file=sys.stderr)
sys.exit(not ok)
PY
check "report.md: the non-finite table names naive on huge" grep -q '^| naive | norm2 | f32 | [0-9]* | 0 | 0 | [0-9]* | .*`huge`' "$tmp/study/report.md"
echo "tnorm_cli: $checks checks, $fails failed (seed $seed)"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# tdot_cli.sh: `sumlab reduce --op dot X Y` end to end (CPU backend): the exact and correct rows'
# result_hex against Python's exact rationals rounded once (float32, float64; ill-conditioned and
# random pairs; float64 products of 2^1200 cancelling, below 2^-968, and both among ordinary
# ones), `judge --op dot X Y`, and one clear message with exit status 2 for each mismatch (length,
# format, a missing second file, a third file, a C-order file against a Fortran-order one); the study's cond sweep (targets 1 .. 1e40, realised near them) and
# accuracy-vs-n's pair families.
#   usage: bash tests/tdot_cli.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tdot_cli.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
check_init tdot_cli tmp
export SUMLAB_NO_GPU=1

python3 - "$tmp" "$seed" "$check_dir" <<'PY'
import random, struct, sys
from fractions import Fraction
tmp, seed = sys.argv[1], int(sys.argv[2])
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[3])
from exact_round import rnd
rng = random.Random(seed)

fmts = {"f32": ("<f", 24, -126), "f64": ("<d", 53, -1022)}
for name, (code, p, emin) in fmts.items():
    for kind in ("random", "ill"):
        xs, ys = [], []
        for i in range(999):
            a, b = rng.uniform(-1, 1), rng.uniform(-1, 1)
            if kind == "ill" and i % 3 == 0:
                a *= 2.0 ** 30
            if kind == "ill" and i % 3 == 1:   # cancels the previous large product, nearly
                a, b = -xs[-1] * (1 + 2.0 ** -20), ys[-1]
            xs.append(struct.unpack(code, struct.pack(code, a))[0])
            ys.append(struct.unpack(code, struct.pack(code, b))[0])
        open(f"{tmp}/x.{kind}.{name}", "wb").write(b"".join(struct.pack(code, v) for v in xs))
        open(f"{tmp}/y.{kind}.{name}", "wb").write(b"".join(struct.pack(code, v) for v in ys))
        s = sum(Fraction(a) * Fraction(b) for a, b in zip(xs, ys))
        open(f"{tmp}/want.{kind}.{name}", "w").write(rnd(s, p, emin).hex() + "\n")
    open(f"{tmp}/short.{name}", "wb").write(struct.pack(code, 1.0) * 998)

# float64 products outside [2^-968, 2^1000): huge (2^1200 products cancelling to 1, pairs of
# products up to 2^1060 cancelling but for an ulp), tiny (two products of 0.3 2^-1074, products
# of 2^-1085 .. 2^-1050 whose TwoProduct tails fall below 2^-1074: a subnormal dot), and both
# with ordinary ones
import math
def huge(xs, ys):
    xs += [2.0 ** 600, -2.0 ** 600, 1.0]; ys += [2.0 ** 600, 2.0 ** 600, 1.0]
    for i in range(300):
        a = rng.uniform(-1, 1) * 2.0 ** rng.randint(470, 530)
        b = rng.uniform(-1, 1) * 2.0 ** rng.randint(480, 530)
        xs += [a, -math.nextafter(a, 0.0)]; ys += [b, b]
def tiny(xs, ys):
    xs += [0.6 * 2.0 ** -537] * 2; ys += [0.5 * 2.0 ** -537] * 2
    for i in range(300):
        xs.append(rng.uniform(-1, 1) * 2.0 ** rng.randint(-545, -527))
        ys.append(rng.uniform(-1, 1) * 2.0 ** rng.randint(-540, -523))
def mixed(xs, ys):
    huge(xs, ys); tiny(xs, ys)
    for i in range(300):
        xs.append(rng.uniform(-1, 1)); ys.append(rng.uniform(-1, 1) * 2.0 ** -1000)
for kind, make in (("huge", huge), ("tiny", tiny), ("mixed", mixed)):
    xs, ys = [], []
    make(xs, ys)
    open(f"{tmp}/x.{kind}.f64", "wb").write(b"".join(struct.pack("<d", v) for v in xs))
    open(f"{tmp}/y.{kind}.f64", "wb").write(b"".join(struct.pack("<d", v) for v in ys))
    s = sum(Fraction(a) * Fraction(b) for a, b in zip(xs, ys))
    open(f"{tmp}/want.{kind}.f64", "w").write(rnd(s, 53, -1022).hex() + "\n")
PY
for dt in f32 f64; do
  kinds="random ill"
  [ "$dt" = f64 ] && kinds="$kinds huge tiny mixed"
  for kind in $kinds; do
    want=$(cat "$tmp/want.$kind.$dt")
    out=$("$sumlab" reduce --op dot "$tmp/x.$kind.$dt" "$tmp/y.$kind.$dt" --dtype "$dt" \
            --variants exact,correct --format csv 2>/dev/null)
    for v in exact correct; do
      got=$(printf '%s\n' "$out" | python3 -c "import csv,sys; r=[r for r in csv.DictReader(sys.stdin) if r['variant']=='$v']; print(r[0]['result_hex'] if len(r)==1 else 'rows:%d'%len(r))")
      check "$dt $kind $v: result_hex $got, want $want" python3 -c "import sys; sys.exit(float.fromhex('$got') != float.fromhex('$want'))"
    done
  done
done
# the rows are the sum's with op = dot
ops=$("$sumlab" reduce --op dot "$tmp/x.random.f32" "$tmp/y.random.f32" --dtype f32 --variants correct,dot2 \
        --format csv --columns op,variant 2>/dev/null | tail -n +2 | cut -d, -f1 | sort -u)
check "reduce --op dot rows: op column '$ops', want dot" test "$ops" = dot
# judge --op dot X Y: the correctly rounded dot is within half an ulp of the exact one
want=$(cat "$tmp/want.ill.f64")
got=$("$sumlab" judge --op dot "$tmp/x.ill.f64" "$tmp/y.ill.f64" --dtype f64 --value "$want" --format csv 2>/dev/null |
      python3 -c "import csv,sys; r=list(csv.DictReader(sys.stdin)); print(r[0]['ulps'] if len(r)==1 else 'rows:%d'%len(r))")
check "judge --op dot: the correctly rounded value is $got ulps off" python3 -c "import sys; sys.exit(not float('$got') <= 0.5)"
err=$("$sumlab" judge --op dot "$tmp/x.ill.f64" --dtype f64 --value 1 2>&1 >/dev/null); rc=$?
check "judge --op dot with one file: exit $rc, '$err'" test "$rc" = 2 -a -n "$(grep 'FILE2 is missing' <<<"$err")"
# mismatches: each one clear line on stderr and exit status 2
expect_err() {   # what, pattern, args...
  local what=$1 pat=$2; shift 2
  local err rc
  err=$("$sumlab" reduce --op dot "$@" 2>&1 >/dev/null); rc=$?
  check "$what: exit status $rc, want 2" test "$rc" = 2
  check "$what: message '$err' lacks '$pat'" grep -q -- "$pat" <<<"$err"
  check "$what: one line ('$err')" test "$(printf '%s\n' "$err" | wc -l)" = 1
}
expect_err "length mismatch" "one length" "$tmp/x.random.f32" "$tmp/short.f32" --dtype f32 -q
python3 -c "
import numpy as np, sys
np.save('$tmp/a32.npy', np.ones(5, np.float32)); np.save('$tmp/a64.npy', np.ones(5, np.float64))" 2>/dev/null ||
python3 - "$tmp" <<'PY'
import struct, sys
t = sys.argv[1]
def npy(path, descr, vals, code):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(vals))
    hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + b"".join(struct.pack(code, v) for v in vals))
npy(t + "/a32.npy", "<f4", [1.0] * 5, "<f"); npy(t + "/a64.npy", "<f8", [1.0] * 5, "<d")
PY
expect_err "format mismatch" "one format" "$tmp/a32.npy" "$tmp/a64.npy" -q
expect_err "missing second file" "FILE2 is missing" "$tmp/a32.npy" -q
expect_err "second file does not exist" "nonexistent.npy" "$tmp/a32.npy" "$tmp/nonexistent.npy" -q
expect_err "a third file" "unexpected argument" "$tmp/a32.npy" "$tmp/a32.npy" "$tmp/a32.npy" -q
# N-D inputs pair their values by logical index (as np.vdot, each flattened in C order): a
# C-order and a Fortran-order file of the same (3, 4) array are refused (memory order would pair
# x[i, j] with y[j', i']: 440 for 506); two Fortran files of one shape pair element by element,
# and C-order files of any shapes in C order (bug20261206: m.npy . f.npy printed 440, exit 0)
python3 - "$tmp" <<'PY'
import struct, sys
t = sys.argv[1]
def npy(path, shape, fortran, vals):
    hdr = "{'descr': '<f4', 'fortran_order': %s, 'shape': (%s), }" % (fortran, ", ".join(map(str, shape)))
    hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + b"".join(struct.pack("<f", v) for v in vals))
c = list(range(12))                                      # arange(12).reshape(3, 4), C order
f = [c[i * 4 + j] for j in range(4) for i in range(3)]   # the same array in Fortran order
npy(t + "/m34.npy", (3, 4), False, c); npy(t + "/f34.npy", (3, 4), True, f)
npy(t + "/m43.npy", (4, 3), False, c)
PY
expect_err "C order against Fortran order" "Fortran-order" "$tmp/m34.npy" "$tmp/f34.npy" -q
expect_err "Fortran order against C order" "Fortran-order" "$tmp/f34.npy" "$tmp/m34.npy" -q
# judge --op dot pairs its files alike (it judged 440 exact for m34 . f34)
for pair in "m34 f34" "f34 m34"; do
  set -- $pair
  err=$("$sumlab" judge --op dot "$tmp/$1.npy" "$tmp/$2.npy" --value 440 -q 2>&1 >/dev/null); rc=$?
  check "judge --op dot $1 . $2: exit 2 with one line naming Fortran order (rc $rc: $err)" \
    test "$rc" -eq 2 -a "$(printf '%s\n' "$err" | wc -l)" -eq 1 -a -n "$(printf '%s' "$err" | grep Fortran-order)"
done
got=$("$sumlab" judge --op dot "$tmp/f34.npy" "$tmp/f34.npy" --value 506 --format csv 2>/dev/null | tail -n 1)
check "judge --op dot f34 . f34: 506 is exact ($got)" grep -q ',0,' <<< "$got"
for pair in "m34 m34" "f34 f34" "m34 m43"; do
  set -- $pair
  got=$("$sumlab" reduce --op dot "$tmp/$1.npy" "$tmp/$2.npy" --variants exact --format csv --columns result_hex -q 2>&1 | tail -n 1)
  check "dot $1 . $2: 506 = 0x1.fap+8, got '$got'" test "$got" = 0x1.fap+8
done
# gen --y-output: a pair family's x and y as two files (n values each, values [0, n) and [n, 2n) of
# the dataset's 2n: the one-file form's halves, byte for byte), which reduce --op dot reads; a
# one-array family, or one file for both, refused with one line and exit status 2
"$sumlab" gen dot-cond --n 1000 --param cond=1e8 --seed 3 -o "$tmp/gx.npy" --y-output "$tmp/gy.npy" 2> "$tmp/err"
check "gen --y-output: exit status 0 ($(tail -n 1 "$tmp/err"))" test $? -eq 0
"$sumlab" gen dot-cond --n 2000 --param cond=1e8 --seed 3 -o "$tmp/gxy.npy" 2> /dev/null
check "gen --y-output: x and y are the halves of the one-file pair" python3 -c "
import sys
h = lambda p: open(p, 'rb').read()[128:]   # (the .npy header of a 1-D float32 array: 128 bytes)
a, x, y = h('$tmp/gxy.npy'), h('$tmp/gx.npy'), h('$tmp/gy.npy')
sys.exit(not (len(x) == len(y) == 4000 and a == x + y))"
"$sumlab" reduce --op dot "$tmp/gx.npy" "$tmp/gy.npy" --variants exact,correct --format csv --columns variant,cond -q \
  > "$tmp/g.csv" 2>&1
check "reduce --op dot of gen's pair: the realised condition number near 1e8 ($(tail -n 1 "$tmp/g.csv"))" \
  python3 -c "import csv, sys; r = list(csv.DictReader(open('$tmp/g.csv'))); sys.exit(not (len(r) == 2 and 1e6 < float(r[0]['cond']) < 1e10))"
# bug20261206: an odd --n in one file: x is its first n/2 values, y the next n/2, the last value
# in no pair (the message said y was the last n - n/2: one value longer than x)
"$sumlab" gen dot-cond --n 2001 --param cond=1e8 --seed 3 -o "$tmp/godd.npy" 2> "$tmp/err"
check "gen dot-cond --n 2001: x then y of 1000 each, one value in no pair ($(tail -n 1 "$tmp/err"))" \
  grep -q "x (the first 1000 values), then y (the next 1000) and one value in no pair" "$tmp/err"
check "gen dot-cond --n 2001: its first 2000 values are --n 1000 --y-output's x and y" python3 -c "
import sys
h = lambda p: open(p, 'rb').read()[128:]
sys.exit(not h('$tmp/godd.npy')[:8000] == h('$tmp/gx.npy') + h('$tmp/gy.npy'))"
# each file's format from its own name: y.f32 raw (no header) beside x.npy
"$sumlab" gen dot-cond --n 1000 --param cond=1e8 --seed 3 -o "$tmp/gx3.npy" --y-output "$tmp/gy3.f32" 2> /dev/null
check "gen --y-output y.f32: raw, y's 4000 bytes alone" python3 -c "
import sys
sys.exit(not open('$tmp/gy3.f32', 'rb').read() == open('$tmp/gy.npy', 'rb').read()[128:])"
# bug20261206: y failing after x was written (here y.npy.part is a folder: y cannot be written)
# replaced x.npy and left the old y.npy beside it, a pair of two seeds, with exit status 1; now
# nothing is renamed until both are written: x.npy and y.npy stay the earlier pair, no .part left
cp "$tmp/gx.npy" "$tmp/gx4.npy"; cp "$tmp/gy.npy" "$tmp/gy4.npy"; mkdir "$tmp/gy4.npy.part"
err=$("$sumlab" gen dot-cond --n 1000 --param cond=1e8 --seed 4 -o "$tmp/gx4.npy" --y-output "$tmp/gy4.npy" 2>&1); rc=$?
check "gen --y-output, y not writable: exit 1, one line ('$err')" \
  test "$rc" = 1 -a "$(printf '%s\n' "$err" | wc -l)" = 1 -a -n "$(grep -- "cannot write" <<<"$err")"
check "gen --y-output, y not writable: x.npy is still the earlier pair's x" cmp -s "$tmp/gx4.npy" "$tmp/gx.npy"
check "gen --y-output, y not writable: y.npy untouched, no x.npy.part left" \
  test -d "$tmp/gy4.npy.part" -a ! -e "$tmp/gx4.npy.part" -a "$(cmp "$tmp/gy4.npy" "$tmp/gy.npy" && echo same)" = same
# bug20261206: one file named as the other's FILE.part: -o y.npy.part --y-output y.npy wrote x, then
# y's y.npy.part over it (x lost, exit 0); refused with one line, exit 2, nothing written
for pair in "gp.npy:gp.npy.part" "gp.npy.part:gp.npy"; do
  err=$("$sumlab" gen dot-random --n 10 -o "$tmp/${pair%%:*}" --y-output "$tmp/${pair#*:}" 2>&1); rc=$?
  check "gen -o ${pair%%:*} --y-output ${pair#*:}: exit 2, one line, nothing written ('$err')" \
    test "$rc" = 2 -a "$(printf '%s\n' "$err" | wc -l)" = 1 -a ! -e "$tmp/gp.npy" -a ! -e "$tmp/gp.npy.part"
done
for bad in "normal:one array" "dot-random:other than"; do
  ds=${bad%%:*} pat=${bad#*:}
  y="$tmp/gy2.npy"; [ "$ds" = dot-random ] && y="$tmp/gx2.npy"
  err=$("$sumlab" gen "$ds" --n 10 -o "$tmp/gx2.npy" --y-output "$y" 2>&1); rc=$?
  check "gen $ds --y-output: exit $rc, one line with '$pat' ('$err')" \
    test "$rc" = 2 -a "$(printf '%s\n' "$err" | wc -l)" = 1 -a -n "$(grep -- "$pat" <<<"$err")"
done
# the study: accuracy-vs-cond sweeps dot-cond from 1 (realised: 2, every product >= 0) to 1e40 in
# float64; accuracy-vs-n sweeps the pair families dot-random and dot-overflow
"$sumlab" run accuracy-vs-cond --op dot --preset tiny --dtype f64 -o "$tmp/cond" -q > /dev/null 2> "$tmp/err"
check "run accuracy-vs-cond --op dot: exit status 0 ($(tail -n 1 "$tmp/err"))" test $? -eq 0
check "the dot cond sweep: targets 1 .. 1e40, the realised condition number near each" python3 - "$tmp/cond/results.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))
        if r["status"] == "ok" and r["variant"] == "exact"]
got = {float(r["sweep_value"]): float(r["cond"]) for r in rows}
ok = min(got) == 1 and max(got) == 1e40 and got[1] < 2.001 and all(t / 100 < c < t * 100 for t, c in got.items() if t > 1)
if not ok:
    print("targets and realised condition numbers: %s" % got, file=sys.stderr)
sys.exit(not ok)
PY
if command -v gnuplot > /dev/null && [ -z "${SUMLAB_NO_CHARTS:-}" ]; then   # the chart's x axis: dot's cond
  check "error_vs_cond_f64: the x axis is 2 sum|x y| / |sum x y|" grep -q 'condition number  2 sum|x y| / |sum x y|' \
    "$tmp/cond/charts/error_vs_cond_f64.svg"
fi
"$sumlab" run accuracy-vs-n --op dot --preset tiny --dtype f32 -o "$tmp/accn" -q > /dev/null 2> "$tmp/err"
check "run accuracy-vs-n --op dot: exit status 0 ($(tail -n 1 "$tmp/err"))" test $? -eq 0
check "the dot study's accuracy-vs-n sweeps dot-random and dot-overflow" python3 -c "
import csv, sys
ds = {r['dataset'] for r in csv.DictReader(l for l in open('$tmp/accn/results.csv') if not l.startswith('#'))}
sys.exit(not {'dot-random', 'dot-overflow'} <= ds)"
check "report.md: the overflow/underflow table: dot-overflow f32, naive NaN, correct ok" python3 - "$tmp/accn/report.md" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("## Overflow and underflow", 1)[1].split("\n## ", 1)[0].splitlines()
rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in lines if l.startswith("|")]
head = rows[0]
r = {(x[0], x[1]): dict(zip(head, x)) for x in rows[2:]}[("`dot-overflow`", "f32")]
sys.exit(not (r["naive"].startswith("**NaN") and r["correct"] == "ok"))
PY
check "report.md: subnormal pairs' exact dot rounds to 0, said so (not 'an exact sum S of 0')" \
  grep -q "have an exact dot S that is 0 or rounds to 0 in the format" "$tmp/accn/report.md"
echo "tdot_cli: $checks checks, $fails failed (seed $seed, SUMLAB_SEED overrides)"
test "$fails" = 0

#!/usr/bin/env bash
# tmoments_cli.sh: `sumlab reduce --op mean|var|std|max|min` end to end (CPU backend): the exact row's
# result_hex against Python's exact rationals (fractions) rounded once to the format, ddof, NaN
# for n - ddof <= 0, an exact square root, `list ops`, and a sum variant refused for var.
#   usage: bash tests/tmoments_cli.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tmoments_cli.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
check_init tmoments_cli tmp
export SUMLAB_NO_GPU=1

# the data: float32 with a large mean and a small spread, float64 likewise (raw files), and
# the expected results: each moment as a Fraction rounded once (nearest, ties to even)
python3 - "$tmp" "$seed" "$check_dir" <<'PY'
import random, struct, sys
from fractions import Fraction
tmp, seed = sys.argv[1], int(sys.argv[2])
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[3])
from exact_round import rnd
rng = random.Random(seed)

fmts = {"f32": ("<f", 24, -126, 1e4), "f64": ("<d", 53, -1022, 1e8)}
for name, (code, p, emin, mu) in fmts.items():
    xs = [struct.unpack(code, struct.pack(code, mu + rng.gauss(0, 1)))[0] for _ in range(1000)]
    open(f"{tmp}/x.{name}", "wb").write(b"".join(struct.pack(code, x) for x in xs))
    fx = [Fraction(x) for x in xs]
    n, s1, s2 = len(fx), sum(fx), sum(f * f for f in fx)
    with open(f"{tmp}/want.{name}", "w") as w:
        w.write(f"mean - {rnd(s1 / n, p, emin).hex()}\n")
        for d in (0, 1):
            w.write(f"var {d} {rnd((n * s2 - s1 * s1) / (n * (n - d)), p, emin).hex()}\n")
        w.write(f"max - {max(xs).hex()}\nmin - {min(xs).hex()}\n")
PY
for dt in f32 f64; do
  while read -r op ddof want; do
    dd=(); [ "$ddof" != - ] && dd=(--ddof "$ddof")   # mean, max, min have none
    got=$("$sumlab" reduce --op "$op" "$tmp/x.$dt" --dtype "$dt" "${dd[@]}" --variants exact --format csv 2>/dev/null |
          python3 -c "import csv,sys; r=list(csv.DictReader(sys.stdin)); print(r[0]['result_hex'] if len(r)==1 else 'rows:%d'%len(r))")
    check "$dt $op ddof $ddof: result_hex $got, want $want" python3 -c "import sys; sys.exit(float.fromhex('$got') != float.fromhex('$want'))"
  done < "$tmp/want.$dt"
done
# --ddof for an operation without one: one message, exit 2 (reduce, judge, run), not ignored
for op in mean max min; do
  "$sumlab" reduce --op "$op" "$tmp/x.f32" --dtype f32 --ddof 0 > "$tmp/dd.out" 2> "$tmp/dd.err"
  check "reduce --op $op --ddof 0: exit 2" test $? -eq 2
  check "reduce --op $op --ddof 0: says $op has no ddof" grep -q "^sumlab reduce: --ddof: $op has no ddof" "$tmp/dd.err"
  check "reduce --op $op --ddof 0: nothing on stdout" test ! -s "$tmp/dd.out"
done
"$sumlab" judge --op mean "$tmp/x.f32" --dtype f32 --value 1 --ddof 1 > /dev/null 2>&1
check "judge --op mean --ddof 1: exit 2" test $? -eq 2
"$sumlab" run accuracy-vs-n --op max --ddof 0 -o "$tmp/run_dd" > /dev/null 2>&1
check "run --op max --ddof 0: exit 2" test $? -eq 2
check "run --op max --ddof 0: no results written" test ! -e "$tmp/run_dd/results.csv"
# std of an exact square (var = 4 -> 2), and var of n = 1 with ddof 1: NaN
python3 -c "import struct; open('$tmp/sq.f32','wb').write(struct.pack('<3f', 0, 2, 4)); open('$tmp/one.f32','wb').write(struct.pack('<f', 3))"
hex_of() { "$sumlab" reduce --op "$1" "$2" --dtype f32 --ddof "$3" --variants exact --format csv 2>/dev/null | tail -n 1 | cut -d, -f2; }
check "std of {0,2,4} is 2" test "$(hex_of std "$tmp/sq.f32" 1)" = 0x1p+1
check "var of {0,2,4} is 4" test "$(hex_of var "$tmp/sq.f32" 1)" = 0x1p+2
check "var of one value, ddof 1: nan" test "$(hex_of var "$tmp/one.f32" 1)" = nan
check "var of one value, ddof 0: 0" test "$(hex_of var "$tmp/one.f32" 0)" = 0x0p+0
# the table names the exact value by its operation (not "exact sum S")
check "var table: 'exact var S = 0x1p+2'" bash -c "'$sumlab' reduce --op var '$tmp/sq.f32' --dtype f32 --variants exact 2>/dev/null | grep -qx 'exact var S = 0x1p+2'"
check "std table: 'exact std S = 0x1p+1'" bash -c "'$sumlab' reduce --op std '$tmp/sq.f32' --dtype f32 --variants exact 2>/dev/null | grep -qx 'exact std S = 0x1p+1'"
# the exact row is the only variant of var here: 'all' gives it; a sum variant is refused
check "var --variants all runs" bash -c "'$sumlab' reduce --op var '$tmp/sq.f32' --dtype f32 --variants all --format csv 2>/dev/null | grep -q '^exact,0x1p+2,'"
"$sumlab" reduce --op var "$tmp/sq.f32" --dtype f32 --variants kahan > /dev/null 2> "$tmp/err"
check "a sum variant for var is refused" test $? -ne 0
check "the refusal names the operation" grep -q "computes sum, not var" "$tmp/err"
# list ops: the five
"$sumlab" list ops --format csv > "$tmp/ops.csv" 2>/dev/null
for op in mean var std max min; do check "list ops lists $op" grep -q "^$op,1," "$tmp/ops.csv"; done
echo "tmoments_cli: $checks checks, $fails failed (seed $seed)"
[ "$fails" -eq 0 ]

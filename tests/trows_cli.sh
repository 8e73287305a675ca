#!/usr/bin/env bash
# trows_cli.sh: `sumlab reduce/sum --axis` end to end on the CPU backend: one output row per
# (row, variant) with the row's index in the `row` column; row i's bits equal `sum` of a 1-D
# file holding row i alone (every sum variant, and every one-input operation through reduce
# --op); a Fortran-order file gives the rows of the C-order [B, N] array, a 3-D file along its
# middle axis the rows of the array with that axis moved last; a bad --axis (out of range, 1-d
# with axis 1, a zero-length axis), a two-input operation and a bench where no named variant
# runs are one message and exit 2.
#   usage: bash tests/trows_cli.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: trows_cli.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trows_cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SUMLAB_NO_GPU=1
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }

# .npy files written by hand (no NumPy needed): mk.py OUT SHAPE ORDER SEED [ROW OUT1]
cat > "$tmp/mk.py" <<'PY'
import random, struct, sys
out, shape, order, seed = sys.argv[1], tuple(int(s) for s in sys.argv[2].split('x') if s), sys.argv[3], int(sys.argv[4])
rng = random.Random(seed)
count = 1
for d in shape: count *= d
vals = [rng.randint(-2**20, 2**20) * 2.0 ** rng.randint(-30, 0) for _ in range(count)]   # C order
def header(shape, fortran):
    sh = '(' + ', '.join(str(d) for d in shape) + (',)' if len(shape) == 1 else ')')
    h = "{'descr': '<f4', 'fortran_order': %s, 'shape': %s, }" % ('True' if fortran else 'False', sh)
    h += ' ' * (63 - (10 + len(h)) % 64) + '\n'
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode()
def save(path, shape, fortran, v):
    with open(path, 'wb') as f:
        f.write(header(shape, fortran) + struct.pack('<%df' % len(v), *v))
if order == 'F':       # memory order of a 2-D array in Fortran order: column by column
    B, N = shape
    save(out, shape, True, [vals[i * N + j] for j in range(N) for i in range(B)])
else:
    save(out, shape, False, vals)
if len(sys.argv) > 5:  # also row r (of the 2-D array in C order) alone
    r, N = int(sys.argv[5]), shape[-1]
    save(sys.argv[6], (N,), False, vals[r * N:(r + 1) * N])
PY
B=5 N=333
for r in 0 2 4; do
  python3 "$tmp/mk.py" "$tmp/m.npy" ${B}x${N} C "$seed" $r "$tmp/row$r.npy"
done
python3 "$tmp/mk.py" "$tmp/mf.npy" ${B}x${N} F "$seed"

"$sumlab" sum "$tmp/m.npy" --axis -1 --format csv --columns row,variant,result_hex -q > "$tmp/rows.csv"
check "sum --axis exits 0" test $? -eq 0
"$sumlab" sum "$tmp/row0.npy" --format csv --columns variant -q > "$tmp/names.csv"
nsum=$(($(wc -l < "$tmp/names.csv") - 1))
check "the sum runs several variants" test "$nsum" -ge 10
check "one row per (row, variant)" test "$(tail -n +2 "$tmp/rows.csv" | wc -l)" -eq $((B * nsum))
check "row column holds 0 .. B-1" test "$(tail -n +2 "$tmp/rows.csv" | cut -d, -f1 | sort -un | tr '\n' ' ')" = "0 1 2 3 4 "
for r in 0 2 4; do
  "$sumlab" sum "$tmp/row$r.npy" --format csv --columns variant,result_hex -q > "$tmp/one$r.csv"
  awk -F, -v r=$r 'NR > 1 && $1 == r { print $2 "," $3 }' "$tmp/rows.csv" > "$tmp/got$r.csv"
  check "row $r equals the 1-D sum of row $r, every variant" diff <(tail -n +2 "$tmp/one$r.csv") "$tmp/got$r.csv"
done
# var along the rows (reduce --op): row 2 == the 1-D var of row 2
"$sumlab" reduce --op var "$tmp/m.npy" --axis 1 --format csv --columns row,variant,result_hex -q > "$tmp/var.csv"
"$sumlab" reduce --op var "$tmp/row2.npy" --format csv --columns variant,result_hex -q > "$tmp/var1.csv"
check "var row 2 equals the 1-D var" diff <(tail -n +2 "$tmp/var1.csv") <(awk -F, 'NR > 1 && $1 == 2 { print $2 "," $3 }' "$tmp/var.csv")
# every one-input operation row-wise: row 2 == the 1-D reduction of row 2, every variant
for op in mean std norm2 lse max min; do
  "$sumlab" reduce --op $op "$tmp/m.npy" --axis -1 --format csv --columns row,variant,result_hex -q > "$tmp/op.csv" 2> /dev/null
  "$sumlab" reduce --op $op "$tmp/row2.npy" --format csv --columns variant,result_hex -q > "$tmp/op1.csv" 2> /dev/null
  check "$op: one row per (row, variant)" test "$(tail -n +2 "$tmp/op.csv" | wc -l)" -eq $((B * ($(wc -l < "$tmp/op1.csv") - 1)))
  check "$op row 2 equals the 1-D $op" diff <(tail -n +2 "$tmp/op1.csv") <(awk -F, 'NR > 1 && $1 == 2 { print $2 "," $3 }' "$tmp/op.csv")
done
# a 3-D file along its middle axis: the rows of the array with that axis moved last (by hand)
cat > "$tmp/mk3.py" <<'PY'
import random, struct, sys
out, moved, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(seed)
A, B, C = 2, 9, 4
v = [rng.randint(-2**20, 2**20) * 2.0 ** rng.randint(-30, 0) for _ in range(A * B * C)]
def save(path, shape, vals):
    h = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % ', '.join(str(d) for d in shape)
    h += ' ' * (63 - (10 + len(h)) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<%df' % len(vals), *vals))
save(out, (A, B, C), v)
save(moved, (A * C, B), [v[(a * B + b) * C + c] for a in range(A) for c in range(C) for b in range(B)])
PY
python3 "$tmp/mk3.py" "$tmp/a3.npy" "$tmp/a3m.npy" "$seed"
"$sumlab" sum "$tmp/a3.npy" --axis 1 --format csv --columns row,variant,result_hex --variants serial,reproducible,block-row > "$tmp/a3.csv" 2> "$tmp/a3.err"
check "3-d along axis 1 exits 0" test $? -eq 0
check "3-d along axis 1: shape and rows said" grep -q "shape (2, 9, 4) reduced along axis 1: 8 rows of 9 values" "$tmp/a3.err"
"$sumlab" sum "$tmp/a3m.npy" --axis -1 --format csv --columns row,variant,result_hex --variants serial,reproducible,block-row -q > "$tmp/a3m.csv"
check "3-d along axis 1: the rows of the moved array" diff "$tmp/a3.csv" "$tmp/a3m.csv"
"$sumlab" sum "$tmp/a3.npy" --axis -2 --format csv --columns row,variant,result_hex --variants serial,reproducible,block-row -q > "$tmp/a3n.csv"
check "3-d along axis -2: the same as axis 1" diff "$tmp/a3.csv" "$tmp/a3n.csv"
# dot along the rows of two files of one shape: row r == the 1-D dot of row r of each, every
# variant with a twin; the second file in Fortran order gives the same rows (moved on its own)
for r in 0 2 4; do
  python3 "$tmp/mk.py" "$tmp/m2.npy" ${B}x${N} C $((seed + 1)) $r "$tmp/yrow$r.npy"
done
python3 "$tmp/mk.py" "$tmp/m2f.npy" ${B}x${N} F $((seed + 1))
"$sumlab" reduce --op dot "$tmp/m.npy" "$tmp/m2.npy" --axis -1 --format csv --columns row,variant,result_hex -q > "$tmp/dot.csv" 2> "$tmp/dot.err"
check "dot --axis exits 0" test $? -eq 0
for r in 0 2 4; do
  "$sumlab" reduce --op dot "$tmp/row$r.npy" "$tmp/yrow$r.npy" --format csv --columns variant,result_hex -q > "$tmp/dot1.csv" 2> /dev/null
  check "dot: one row per (row, variant)" test "$(tail -n +2 "$tmp/dot.csv" | wc -l)" -eq $((B * ($(wc -l < "$tmp/dot1.csv") - 1)))
  check "dot row $r equals the 1-D dot of row $r" diff <(tail -n +2 "$tmp/dot1.csv") <(awk -F, -v r=$r 'NR > 1 && $1 == r { print $2 "," $3 }' "$tmp/dot.csv")
done
check "dot --axis: more than the exact row" test "$(grep -c ',correct,' "$tmp/dot.csv")" -eq "$B"
"$sumlab" reduce --op dot "$tmp/m.npy" "$tmp/m2f.npy" --axis -1 --format csv --columns row,variant,result_hex > "$tmp/dotf.csv" 2> "$tmp/dotf.err"
check "dot, second file in Fortran order: the move is said" grep -q "its axis moved to the last place" "$tmp/dotf.err"
check "dot, second file in Fortran order: the same rows" diff "$tmp/dot.csv" "$tmp/dotf.csv"
# one row of y (a 1-D FILE2 of the axis' length) with every row of x: row r == the 1-D dot of
# row r of x with that one row
"$sumlab" reduce --op dot "$tmp/m.npy" "$tmp/yrow2.npy" --axis -1 --format csv --columns row,variant,result_hex > "$tmp/mv.csv" 2> "$tmp/mv.err"
check "x @ y --axis exits 0" test $? -eq 0
check "x @ y: said" grep -q "one row of $N values, paired with every row" "$tmp/mv.err"
for r in 0 4; do
  "$sumlab" reduce --op dot "$tmp/row$r.npy" "$tmp/yrow2.npy" --format csv --columns variant,result_hex -q > "$tmp/mv1.csv" 2> /dev/null
  check "x @ y row $r equals the 1-D dot" diff <(tail -n +2 "$tmp/mv1.csv") <(awk -F, -v r=$r 'NR > 1 && $1 == r { print $2 "," $3 }' "$tmp/mv.csv")
done
python3 "$tmp/mk.py" "$tmp/y7.npy" 7 C "$seed"
# Fortran order: the same rows, and the move is said on stderr
"$sumlab" sum "$tmp/mf.npy" --axis -1 --format csv --columns row,variant,result_hex --variants serial,reproducible > "$tmp/f.csv" 2> "$tmp/f.err"
check "fortran order: the move is said" grep -q "moved there on the host" "$tmp/f.err"
check "fortran order: the same rows as C order" diff <(grep -E ',(serial|reproducible|exact),' "$tmp/rows.csv") <(tail -n +2 "$tmp/f.csv")
# table format carries the row column first
"$sumlab" sum "$tmp/m.npy" --axis -1 --variants serial -q > "$tmp/t.txt"
check "table: row column" grep -q '^row ' "$tmp/t.txt"

# bench --axis -1 on the CPU backend: one line per variant and shape, rows judged, checks ok
"$sumlab" bench --axis -1 --backend cpu --rows 3,17 --n 100 --variants serial,reproducible,block-row \
  --columns variant,rows,n,rows_ulps_median,rows_ulps_max,check > "$tmp/b.csv" 2> "$tmp/b.err"
check "bench --axis exits 0" test $? -eq 0
check "bench --axis: 6 lines, ok, rows errors" awk -F, '
  /^#/ { next } $1 == "variant" { next }
  { k++; if ($6 != "ok" || !($5 >= $4) || $4 < 0 || ($1 == "reproducible" && $5 > 1)) bad = 1
    if (!(($2 == 3 || $2 == 17) && $3 == 100)) bad = 1 }
  END { exit bad || k != 6 }' "$tmp/b.csv"

# list variants: each variant's row-wise path and what its descriptor says can change a row's bits
"$sumlab" list variants --format csv > "$tmp/list.csv"
check "list: rows and row_bits columns" grep -q '^name,.*,rows,row_bits$' "$tmp/list.csv"
check "list: reproducible's row kernel, not B" grep -q '^reproducible,sum,.*,row kernel,"the row.s values alone .*not B' "$tmp/list.csv"
check "list: atomics change a row's bits run to run" grep -q '^atomic-thread,sum,.*,1-D per row,the order of its atomics' "$tmp/list.csv"
check "list: run-to-run variants name the launch configuration" grep -q '^vec4,sum,.*,1-D per row,.*launch configuration' "$tmp/list.csv"
check "list: dot's reproducible rows (a row kernel in a CUDA build), the pair's products alone" \
  grep -Eq '^reproducible,dot,.*,(row kernel|1-D per row),"the row.s products alone \(order-independent: not B' "$tmp/list.csv"
check "list: dot's correct rows by the 1-D kernel on each pair" grep -q '^correct,dot,.*,1-D per row,"*the row.s values alone' "$tmp/list.csv"
check "list: dot's naive rows by the 1-D kernel on each pair" grep -q '^naive,dot,.*,1-D per row,' "$tmp/list.csv"

# --- errors: one line on stderr, exit 2, nothing on stdout ------------------------------------
bad() {   # bad DESCRIPTION PATTERN ARGS...
  local what=$1 pat=$2; shift 2
  "$sumlab" "$@" > "$tmp/bad.out" 2> "$tmp/bad.err"
  local rc=$?
  check "$what: exit 2" test $rc -eq 2
  check "$what: one line" test "$(wc -l < "$tmp/bad.err")" -eq 1
  check "$what: says why" grep -q "$pat" "$tmp/bad.err"
  check "$what: no output" test ! -s "$tmp/bad.out"
}
bad "axis 2 of a 2-d file" "out of range" sum "$tmp/m.npy" --axis 2
bad "axis -3 of a 2-d file" "out of range" sum "$tmp/m.npy" --axis -3
bad "axis 1 of a 1-d file" "out of range" sum "$tmp/row0.npy" --axis 1
bad "axis not a number" "axis" sum "$tmp/m.npy" --axis x
python3 "$tmp/mk.py" "$tmp/z.npy" 3x0 C "$seed"
bad "zero-length axis" "length 0" sum "$tmp/z.npy" --axis -1
bad "bench --axis 0" "last" bench --axis 0 --backend cpu --rows 2 --n 8
bad "bench --rows 0" "0 rows" bench --axis -1 --backend cpu --rows 0 --n 8
bad "no rows" "no rows" sum "$tmp/z.npy" --axis 0
bad "axis 3 of a 3-d file" "out of range" sum "$tmp/a3.npy" --axis 3
# bench --axis --op dot: x's rows then y's from the dataset's 2 B N values, every row judged
"$sumlab" bench --axis -1 --backend cpu --op dot --rows 3 --n 40 --variants correct,naive --format csv \
  --columns variant,rows,n,rows_ulps_max,check > "$tmp/bdot.csv" 2> /dev/null
check "bench --axis --op dot exits 0" test $? -eq 0
check "bench --axis --op dot: a line a variant" test "$(grep -c ',3,40,' "$tmp/bdot.csv")" -eq 2
check "bench --axis --op dot: correct within half an ulp" awk -F, '$1 == "correct" { ok = $4 <= 0.5 } END { exit !ok }' "$tmp/bdot.csv"
# --vector: one row of y with every row of x (X @ y), each row judged against its own exact x_r . y
"$sumlab" bench --axis -1 --backend cpu --op dot --vector --rows 5 --n 33 --dtype bf16 --variants correct,reproducible \
  --format csv --columns variant,rows,n,rows_ulps_max,check > "$tmp/bvec.csv" 2> /dev/null
check "bench --axis --op dot --vector exits 0" test $? -eq 0
check "bench --vector: correct and reproducible within half an ulp of each row's x_r . y" \
  awk -F, '$2 == 5 && $3 == 33 && $5 == "ok" && $4 <= 0.5 { k++ } END { exit k != 2 }' "$tmp/bvec.csv"
bad "bench --vector without a two-input --op" "two-input --op" bench --axis -1 --backend cpu --vector --rows 2 --n 8
bad "reduce --axis --op dot, shapes differ" "shapes must be equal" reduce --op dot "$tmp/m.npy" "$tmp/a3.npy" --axis -1
bad "reduce --axis --op dot, one file" "FILE2 is missing" reduce --op dot "$tmp/m.npy" --axis -1
bad "reduce --axis --op dot, a 1-D second file of another length" "1-D of the axis' length $N" reduce --op dot "$tmp/m.npy" "$tmp/y7.npy" --axis -1
# named variants that cannot run here: one line naming each, as without --axis (it was a line each)
bad "axis, two named variants that cannot run" "half-acc: .*; cub: " sum "$tmp/m.npy" --axis -1 --variants half-acc,cub,serial -q
# bench --axis with named variants none of which runs here: said, exit 2, no rows
"$sumlab" bench --axis -1 --backend cpu --rows 2 --n 8 --variants cub > "$tmp/none.out" 2> "$tmp/none.err"
check "bench --axis, nothing runs: exit 2" test $? -eq 2
check "bench --axis, nothing runs: says so" grep -q "no variant of sum runs on the cpu backend" "$tmp/none.err"
check "bench --axis, nothing runs: no rows" test "$(grep -vc '^#' "$tmp/none.out")" -eq 0
# bench --axis where the dataset refuses its parameters at generation (count=10 special values
# in a [1, 5] input): bad usage as in the other benches, exit 2, said once, no row of any shape
"$sumlab" bench --axis -1 --backend cpu --dataset special --param count=10 --rows 1 --n 5,100 \
  --variants serial > "$tmp/ds.out" 2> "$tmp/ds.err"
check "bench --axis, dataset refuses: exit 2" test $? -eq 2
check "bench --axis, dataset refuses: said once" test "$(grep -c 'count=10 exceeds n=5' "$tmp/ds.err")" -eq 1
check "bench --axis, dataset refuses: no rows" test "$(grep -v '^#' "$tmp/ds.out" | grep -vc '^op,')" -eq 0

# gen --shape: a C-order N-D .npy of the same values as --n of their product (the bytes after the
# header equal), read back with its shape by --axis; a pair's two files each take it; errors
"$sumlab" gen normal --shape 4,50 --seed 7 -o "$tmp/g2.npy" 2> "$tmp/g2.err"
check "gen --shape exits 0" test $? -eq 0
check "gen --shape: said" grep -q "shape (4, 50)" "$tmp/g2.err"
"$sumlab" gen normal --n 200 --seed 7 -o "$tmp/g1.npy" 2> /dev/null
check "gen --shape: the values of --n 200" cmp <(tail -c 800 "$tmp/g2.npy") <(tail -c 800 "$tmp/g1.npy")
check "gen --shape: a 64-byte aligned header" test $(( $(stat -c %s "$tmp/g2.npy") - 800 )) -eq 128
"$sumlab" sum "$tmp/g2.npy" --axis -1 --variants serial --format csv --columns row,result_hex > "$tmp/g2.csv" 2> "$tmp/g2r.err"
check "gen --shape: read as 4 rows of 50" grep -q "shape (4, 50) reduced along axis -1: 4 rows of 50 values" "$tmp/g2r.err"
"$sumlab" gen dot-random --shape 3,2,20 -o "$tmp/gx.npy" --y-output "$tmp/gy.npy" 2> /dev/null
"$sumlab" reduce --op dot "$tmp/gx.npy" "$tmp/gy.npy" --axis 1 --variants correct --format csv --columns row > "$tmp/gxy.csv" 2> "$tmp/gxy.err"
check "gen --shape --y-output: both files 3-d, 60 rows of 2" grep -q "shape (3, 2, 20) reduced along axis 1: 60 rows of 2 values" "$tmp/gxy.err"
check "gen --shape --y-output: y the same shape" grep -q "gy.npy: the same shape" "$tmp/gxy.err"
bad "gen --shape and --n disagree" "holds 25 values but --n is 24" gen normal --shape 5,5 --n 24 -o "$tmp/g3.npy"
bad "gen --shape of a raw file" "a raw file has no shape" gen normal --shape 5,5 -o "$tmp/g3.raw"
bad "gen --shape of 17 axes" "too many values" gen normal --shape 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 -o "$tmp/g3.npy"
bad "gen --shape past 2^40 values" "more than 2.40-1 values" gen normal --shape 2^20,2^20,2 -o "$tmp/g3.npy"
check "gen refused: no file left" test ! -e "$tmp/g3.npy"

# judge --axis: one value a row from --row-values (float64 row sums of m.npy, rounded once to
# float32) judged against each row's exact sum: row r as judge of row r alone with that value
cat > "$tmp/rowsums.py" <<'PY'
import struct, sys
src, out, B, N = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = open(src, 'rb').read()
hl = struct.unpack('<H', b[8:10])[0]
v = struct.unpack('<%df' % (B * N), b[10 + hl:10 + hl + 4 * B * N])
sums = [sum(v[r * N:(r + 1) * N]) for r in range(B)]
h = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }" % B
h += ' ' * (63 - (10 + len(h)) % 64) + '\n'
open(out, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<%dd' % B, *sums))
print(' '.join(repr(x) for x in sums))
PY
sums=($(python3 "$tmp/rowsums.py" "$tmp/m.npy" "$tmp/rv.npy" $B $N))
"$sumlab" judge "$tmp/m.npy" --axis -1 --row-values "$tmp/rv.npy" --bound-of serial --format csv \
  --columns row,result_hex,ulps,cond,bound_ratio,value_as > "$tmp/jr.csv" 2> "$tmp/jr.err"
check "judge --axis exits 0" test $? -eq 0
check "judge --axis: one line a row" test "$(tail -n +2 "$tmp/jr.csv" | wc -l)" -eq $B
check "judge --axis: said" grep -q "$B rows of $N values along axis -1" "$tmp/jr.err"
check "judge --axis: float64 values rounded to float32" grep -q ',float32 nearest of a float64 value$' "$tmp/jr.csv"
for r in 0 2 4; do
  "$sumlab" judge "$tmp/row$r.npy" --value "${sums[$r]}" --bound-of serial --format csv \
    --columns result_hex,ulps,cond,bound_ratio -q > "$tmp/j1.csv"
  check "judge --axis row $r equals the 1-D judge of row $r" diff <(tail -n +2 "$tmp/j1.csv") \
    <(awk -F, -v r=$r 'NR > 1 && $1 == r { print $2 "," $3 "," $4 "," $5 }' "$tmp/jr.csv")
done
python3 "$tmp/rowsums.py" "$tmp/m.npy" "$tmp/rv4.npy" 4 $N > /dev/null
"$sumlab" judge "$tmp/m.npy" --axis -1 --row-values "$tmp/rv.npy" -q > /dev/full 2> "$tmp/jfull.err"
check "judge --axis > /dev/full exits 1" test $? -eq 1
check "judge --axis > /dev/full: one line, the reason" test "$(grep -c . "$tmp/jfull.err")" -eq 1 -a \
  "$(grep -c 'cannot write standard output' "$tmp/jfull.err")" -eq 1
bad "judge --axis, a value too few" "has 5 rows" judge "$tmp/m.npy" --axis -1 --row-values "$tmp/rv4.npy"
bad "judge --axis without --row-values" "needs --row-values" judge "$tmp/m.npy" --axis -1
bad "judge --row-values without --axis" "needs --axis" judge "$tmp/m.npy" --row-values "$tmp/rv.npy"
bad "judge --axis with --value" "not --value" judge "$tmp/m.npy" --axis -1 --row-values "$tmp/rv.npy" --value 1

echo "trows_cli: $checks checks, $fails failed (seed $seed)"
test "$fails" -eq 0

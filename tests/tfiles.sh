#!/usr/bin/env bash
# tfiles.sh: `sumlab run --files A.npy,B.npy` (study/files.c): the user's arrays as the inputs of
# determinism and tradeoff (rows for each file with the exact reference `sumlab sum` gives), the
# sweeps skipping them (a note; exit 2 when nothing is left), bad names, an odd pair count, files
# that are not .npy and 2-D arrays refused with one line, and --resume refusing a changed file.
#   usage: tfiles.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tfiles.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
[ -x "$bin" ] || { echo "tfiles: $bin is not an executable" >&2; exit 1; }
export SUMLAB_PLOTS_DIR=$src/plots SUMLAB_NO_GPU=1 SUMLAB_NO_CHARTS=1
unset SUMLAB_MAX_ROWS SUMLAB_SEED
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
check_init tfiles t
small=(--preset tiny --backend cpu --variants serial,kahan)
col() { # results.csv column NAME of the rows matching dataset DS, variant V: col DIR NAME DS V
  awk -F, -v name="$2" -v ds="$3" -v v="$4" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["dataset"] == ds && $c["variant"] == v { print $c[name] }' "$1/results.csv" | sort -u
}

"$bin" gen uniform --n 1000 --dtype f32 --seed 3 -o "$t/ua.npy" > /dev/null 2>&1
"$bin" gen normal --n 777 --dtype f64 --seed 4 -o "$t/nb.npy" > /dev/null 2>&1
check "the inputs were written" test -s "$t/ua.npy" -a -s "$t/nb.npy"

# ---- 1. rows for both files, judged against the exact reference ---------------------------
"$bin" run tradeoff "${small[@]}" --files "$t/ua.npy,$t/nb.npy" -o "$t/to" -q 2> "$t/to.err"; rc=$?
check "tradeoff --files exits 0 (got $rc: $(head -c 300 "$t/to.err"))" test $rc -eq 0
for f in ua nb; do
  for v in serial kahan exact; do
    check "tradeoff: a row of file:$f for $v" test -n "$(col "$t/to" status "file:$f" $v)"
  done
  # `sumlab sum FILE`: the exact reference rounded to the file's dtype (its `exact` row) and serial's result
  "$bin" sum "$t/$f.npy" --backend cpu --variants serial --columns variant,result_hex --format csv 2> /dev/null |
    awk -F, '$1 == "exact" { print $2 > "'"$t/$f.ref"'" } $1 == "serial" { print $2 > "'"$t/$f.ser"'" }'
  check "sum gives file $f's exact reference" test "$(grep -c '^0x' "$t/$f.ref")" -eq 1
  check "tradeoff: file:$f's rows carry that exact reference ($(col "$t/to" exact_hex "file:$f" serial) vs $(cat "$t/$f.ref"))" \
    test "$(col "$t/to" exact_hex "file:$f" serial)" = "$(cat "$t/$f.ref")"
  check "tradeoff: file:$f's exact row's result is the reference" \
    test "$(col "$t/to" result_hex "file:$f" exact)" = "$(cat "$t/$f.ref")"
  check "tradeoff: file:$f's serial result is sum's" \
    test "$(col "$t/to" result_hex "file:$f" serial)" = "$(cat "$t/$f.ser")"
done
check "tradeoff: file:ua's rows are float32 at n = 1000" test "$(col "$t/to" dtype file:ua serial)/$(col "$t/to" n file:ua serial)" = "f32/1000"
check "tradeoff: file:nb's rows are float64 at n = 777" test "$(col "$t/to" dtype file:nb serial)/$(col "$t/to" n file:nb serial)" = "f64/777"
check "tradeoff: no generated dataset besides the files" \
  test -z "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["dataset"] !~ /^file:/' "$t/to/results.csv")"
check "run.conf keeps the labels and hashes, no path" \
  bash -c "grep -qE '^files=file:ua:[0-9a-f]{16},file:nb:[0-9a-f]{16}\$' '$t/to/run.conf' && ! grep -qF '$t' '$t/to/run.conf'"

"$bin" run determinism "${small[@]}" --files "$t/ua.npy,$t/nb.npy" -o "$t/det" -q 2> "$t/det.err"; rc=$?
check "determinism --files exits 0 (got $rc: $(head -c 300 "$t/det.err"))" test $rc -eq 0
for f in ua nb; do
  check "determinism: file:$f has its permutation rows" \
    grep -q "^determinism,file:$f,.*,perm:sorted," "$t/det/results.csv"
  check "determinism: file:$f's rows carry its exact reference" \
    test "$(col "$t/det" exact_hex "file:$f" serial)" = "$(cat "$t/$f.ref")"
done

# ---- 2. a sweep skips the files ------------------------------------------------------------
"$bin" run accuracy-vs-n "${small[@]}" --files "$t/ua.npy" -o "$t/sw" 2> "$t/sw.err"; rc=$?
check "accuracy-vs-n --files: nothing to run, exit 2 (got $rc)" test $rc -eq 2
check "...with the note on stderr" grep -q "accuracy-vs-n skips the --files inputs: it sweeps its own sizes" "$t/sw.err"
check "...and the reason it ends" grep -q "cannot run on the --files inputs.*no rows" "$t/sw.err"

# ---- 3. refused inputs: one line, exit 2, no run directory ----------------------------------
bad() { # description command...
  local d=$1; shift
  "$@" > /dev/null 2> "$t/bad.err"
  local rc=$?
  check "$d: exit 2 (got $rc)" test $rc -eq 2
  check "$d: one line on stderr ($(head -c 300 "$t/bad.err"))" test "$(grep -c . "$t/bad.err")" -eq 1
  check "$d: no run directory" test ! -e "$t/badrun"
}
cp "$t/ua.npy" "$t/bad name;x.npy"
bad "a file name outside the safe set" "$bin" run tradeoff "${small[@]}" --files "$t/bad name;x.npy" -o "$t/badrun"
check "...saying what a name may hold" grep -q "letters, digits" "$t/bad.err"
bad "dot with an odd count" "$bin" run tradeoff "${small[@]}" --op dot --files "$t/ua.npy" -o "$t/badrun"
check "...saying the files are X,Y pairs" grep -q "X,Y pairs in order; 1 files is an odd count" "$t/bad.err"
printf 'PK\003\004 not a numpy file' > "$t/model.pt"
bad "a .pt file" "$bin" run tradeoff "${small[@]}" --files "$t/model.pt" -o "$t/badrun"
check "...called not a NumPy .npy file" grep -q "is not a NumPy .npy file" "$t/bad.err"
python3 - "$t/m2.npy" <<'PY'
import struct, sys
d = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
h = d + " " * ((-(10 + len(d) + 1)) % 64) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + struct.pack("<6f", *range(6)))
PY
bad "a 2-D array" "$bin" run tradeoff "${small[@]}" --files "$t/m2.npy" -o "$t/badrun"
check "...pointing at sum --axis" grep -q "2-D array (2, 3); .run. takes 1-D arrays.*--axis" "$t/bad.err"
cp "$t/ua.npy" "$t/ub.npy"
bad "two files of one name" "$bin" run tradeoff "${small[@]}" --files "$t/ua.npy,$t/ua.npy" -o "$t/badrun"
bad "--files with --n" "$bin" run tradeoff "${small[@]}" --files "$t/ua.npy" --n 16 -o "$t/badrun"

# ---- 4. dot: X,Y pairs -----------------------------------------------------------------------
"$bin" run tradeoff --preset tiny --backend cpu --op dot --files "$t/ua.npy,$t/ub.npy" -o "$t/dot" -q 2> "$t/dot.err"; rc=$?
check "dot --files X,Y exits 0 (got $rc: $(head -c 300 "$t/dot.err"))" test $rc -eq 0
check "dot: rows of the pair file:ua+ub" grep -q "^tradeoff,file:ua+ub,.*,ok," "$t/dot/results.csv"

# ---- 5. --resume: the same files again, unchanged -------------------------------------------
SUMLAB_MAX_ROWS=2 "$bin" run tradeoff "${small[@]}" --files "$t/ua.npy,$t/nb.npy" -o "$t/res" -q; rc=$?
check "a run stopped by the row limit (got $rc)" test $rc -eq 3
"$bin" run -o "$t/res" --resume -q 2> "$t/res.err"; rc=$?
check "--resume without --files is refused (got $rc)" test $rc -eq 2
check "...asking for the same files" grep -q "was started with --files; resume it with the same files" "$t/res.err"
cp "$t/ua.npy" "$t/ua.keep"
"$bin" gen uniform --n 1000 --dtype f32 --seed 99 -o "$t/ua.npy" > /dev/null 2>&1
"$bin" run -o "$t/res" --resume --files "$t/ua.npy,$t/nb.npy" -q 2> "$t/res.err"; rc=$?
check "--resume with a changed file is refused (got $rc)" test $rc -eq 2
check "...with one line saying a file changed ($(head -c 300 "$t/res.err"))" \
  bash -c "test \$(grep -c . '$t/res.err') -eq 1 && grep -q 'a file changed' '$t/res.err'"
cp "$t/ua.keep" "$t/ua.npy"
"$bin" run -o "$t/res" --resume --files "$t/ua.npy,$t/nb.npy" -q 2> "$t/res.err"; rc=$?
check "--resume with the same files finishes (got $rc: $(head -c 300 "$t/res.err"))" test $rc -eq 0
check "...with the rows of the uninterrupted run" \
  diff <(tail -n +2 "$t/res/results.csv" | cut -d, -f1-8 | sort) <(tail -n +2 "$t/to/results.csv" | cut -d, -f1-8 | sort)

echo "tfiles: $((checks - fails))/$checks checks passed"
[ $fails -eq 0 ]

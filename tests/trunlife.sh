#!/usr/bin/env bash
# trunlife.sh: the life of `sumlab run` (study/run.c) at its edges: a run in which nothing could
# be measured (every row skipped) fails with one line; run directory names that cannot be one
# (empty, control characters, a name over 255 bytes, a file on the path) are refused with one
# line and create nothing; --resume without the experiment continues the one run.conf names.
#   usage: trunlife.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: trunlife.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
[ -x "$bin" ] || { echo "trunlife: $bin is not an executable" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")   # the names below are tried from another cwd
export SUMLAB_PLOTS_DIR=$src/plots SUMLAB_NO_GPU=1 SUMLAB_NO_CHARTS=1
unset SUMLAB_MAX_ROWS SUMLAB_SEED
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
check_init trunlife t
rows() { tail -n +2 "$1/results.csv" | grep -c . ; }
keys() { tail -n +2 "$1/results.csv" | cut -d, -f1-7 | sort; }
small=(--preset tiny --backend cpu --variants serial,kahan --dtype f32)

# ---- 1. nothing measured: every row skipped (an input that cannot be allocated) -------------
# 2^50 float32 values (4 PiB) exceed any address space, so the allocation fails everywhere
# (under AddressSanitizer too, told to return NULL as malloc does).
big() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" "$bin" "$@"; }
big run accuracy-vs-n "${small[@]}" --n 2^50 -o "$t/big" -q 2> "$t/big.err"; rc=$?
check "a run whose every row is skipped exits 1 (got $rc)" test $rc -eq 1
# (AddressSanitizer's own warnings about the refused allocation aside)
grep -v '^==[0-9]*==WARNING: AddressSanitizer failed to allocate' "$t/big.err" > "$t/big.lines"
check "...with one line on stderr ($(head -c 300 "$t/big.lines"))" test "$(grep -c . "$t/big.lines")" -eq 1
check "...saying nothing was measured and why" grep -q "nothing was measured: all [0-9]* rows were skipped (input not generated: out of memory" "$t/big.err"
check "...its rows are all there, all skipped" bash -c "test \$(tail -n +2 '$t/big/results.csv' | grep -c .) -gt 0 && ! tail -n +2 '$t/big/results.csv' | grep -v ',skipped,' | grep -q ."
check "...and its report says so" grep -q "nothing was measured" "$t/big/report.md"
big run -o "$t/big" --resume -q 2> "$t/bigr.err"; rc=$?
check "its resume (nothing left to do, nothing measured) exits 1 too (got $rc)" test $rc -eq 1
# a run that measures some rows and skips others is a success
big run accuracy-vs-n "${small[@]}" --n 16,2^50 -o "$t/some" -q 2> "$t/some.err"; rc=$?
check "a run with measured and skipped rows exits 0 (got $rc: $(head -c 300 "$t/some.err"))" test $rc -eq 0
check "...and has skipped rows" grep -q ',skipped,' "$t/some/results.csv"
# a run with no row at all because its sweep cannot run on the chosen datasets (the family is
# not named): exit 2 with one line saying so (issue 36), the note in its report
"$bin" run accuracy-vs-cond "${small[@]}" --datasets uniform -o "$t/none" -q 2> "$t/none.err"; rc=$?
check "a run with no rows (its sweep's family not named) exits 2 (got $rc)" test $rc -eq 2

# ---- 2. run directory names ----------------------------------------------------------------
bad() { # description expected-rc command...
  local d=$1 want=$2; shift 2
  (cd "$t/cwd" && "$@") > /dev/null 2> "$t/bad.err"
  local rc=$?
  check "$d: exit $want (got $rc)" test $rc -eq "$want"
  check "$d: one line on stderr ($(head -c 300 "$t/bad.err"))" test "$(grep -c . "$t/bad.err")" -eq 1
  check "$d: a short line (no raw path of hundreds of bytes)" test "$(wc -c < "$t/bad.err")" -lt 240
}
mkdir -p "$t/cwd"
long=$(printf 'a%.0s' $(seq 1 300))
bad "-o ''" 2 "$bin" run accuracy-vs-n "${small[@]}" -o ''
bad "--report-only -o ''" 2 "$bin" run --report-only -o ''
bad "-o with a 300-byte name" 2 "$bin" run accuracy-vs-n "${small[@]}" -o "$long"
bad "-o with a 300-byte name inside the path" 2 "$bin" run accuracy-vs-n "${small[@]}" -o "x/$long/y"
bad "-o with a newline" 2 "$bin" run accuracy-vs-n "${small[@]}" -o $'two\nlines'
bad "-o with a tab" 2 "$bin" run accuracy-vs-n "${small[@]}" -o $'tab\there'
touch "$t/cwd/afile"
bad "-o under a file" 2 "$bin" run accuracy-vs-n "${small[@]}" -o afile/sub
check "...naming the file that is in the way" grep -q "'afile' exists and is not a directory" "$t/bad.err"
bad "--resume without -o" 2 "$bin" run --resume
# the environment the command reads for the run (the study library reads none)
bad "SUMLAB_REP_BUDGET_MS=abc" 2 env SUMLAB_REP_BUDGET_MS=abc "$bin" run accuracy-vs-n "${small[@]}" -o budget
bad "SUMLAB_REP_BUDGET_MS=-5" 2 env SUMLAB_REP_BUDGET_MS=-5 "$bin" run accuracy-vs-n "${small[@]}" -o budget
bad "SUMLAB_SEED=xyz" 2 env SUMLAB_SEED=xyz "$bin" run accuracy-vs-n "${small[@]}" -o seed
check "the refused names created nothing" test "$(ls -A "$t/cwd")" = afile
# names that are odd but legal: spaces, quotes, '$', a leading '-', a ';' and '$(...)'
for name in "q'uo te\$x" "-lead" 'sp ace;$(touch PWNED)' 'a"b' 'back\slash'; do
  (cd "$t/cwd" && "$bin" run accuracy-vs-n "${small[@]}" --n 16 -o "./$name" -q) 2> "$t/odd.err"; rc=$?
  check "-o './$name' runs (got $rc: $(head -c 300 "$t/odd.err"))" test $rc -eq 0 -a -s "$t/cwd/$name/report.md"
  check "-o './$name': nothing on stderr" test ! -s "$t/odd.err"
done
check "no name reached a shell" test ! -e "$t/cwd/PWNED" -a ! -e PWNED

# ---- 3. --resume without the experiment: run.conf names it --------------------------------
"$bin" run accuracy-vs-cond "${small[@]}" -o "$t/u" -q; rc=$?
check "uninterrupted run exits 0 (got $rc)" test $rc -eq 0
SUMLAB_MAX_ROWS=5 "$bin" run accuracy-vs-cond "${small[@]}" -o "$t/r" -q; rc=$?
check "partial run stops at the limit (got $rc)" test $rc -eq 3
"$bin" run -o "$t/r" --resume -q 2> "$t/r.err"; rc=$?
check "--resume without the experiment exits 0 (got $rc: $(head -c 300 "$t/r.err"))" test $rc -eq 0
check "...and finishes the run ($(rows "$t/r") rows vs $(rows "$t/u"))" test "$(rows "$t/r")" -eq "$(rows "$t/u")"
check "...with the same keys" diff <(keys "$t/r") <(keys "$t/u")
check "run.conf still names the experiment" grep -q '^experiment=accuracy-vs-cond$' "$t/r/run.conf"
"$bin" run determinism -o "$t/r" --resume -q 2> "$t/r2.err"; rc=$?
check "--resume naming another experiment is refused (got $rc)" test $rc -eq 2
check "...saying which one the directory holds" grep -q "holds a run of 'accuracy-vs-cond', not 'determinism'" "$t/r2.err"

# SUMLAB_SEED reaches the run through the command's options: kept in run.conf, checked on resume
SUMLAB_SEED=7 "$bin" run accuracy-vs-cond "${small[@]}" -o "$t/s7" -q; rc=$?
check "SUMLAB_SEED=7 run exits 0 (got $rc)" test $rc -eq 0
check "...and run.conf keeps seed 7" grep -q '^seed=7$' "$t/s7/run.conf"
SUMLAB_SEED=8 "$bin" run -o "$t/s7" --resume -q 2> "$t/s8.err"; rc=$?
check "a resume under another SUMLAB_SEED is refused (got $rc)" test $rc -eq 2

echo "trunlife: $checks checks, $fails failed"
[ $fails -eq 0 ]

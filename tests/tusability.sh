#!/usr/bin/env bash
# tusability.sh: issue 12's CLI and report details as a new user meets them: `run --report-only
# -o DIR` needs no experiment name and writes report.html; the "no GPU" notice says "no GPU"
# once (none with --backend cpu or -q); the report's tables follow `run --variants` order;
# chart titles of the sweeps name n and the instances per point.
#   usage: tusability.sh PATH/TO/sumlab SOURCE_DIR     exit 0 ok, 1 a check failed
set -uo pipefail
bin=$1 src=$2
export SUMLAB_PLOTS_DIR=$src/plots SUMLAB_NO_GPU=1
t=$(mktemp -d "${TMPDIR:-/tmp}/tusability.XXXXXX"); trap 'rm -rf "$t"' EXIT
fails=0 checks=0
check() { # description command...
  local d=$1; shift
  checks=$((checks + 1))
  "$@" || { fails=$((fails + 1)); echo "tusability: FAIL: $d" >&2; }
}

# ---- a run with a chosen variant order (kahan before pairwise before atomic-thread) ----------
"$bin" run accuracy-vs-cond --preset tiny --backend cpu --variants kahan,pairwise,atomic-thread --seeds 2 \
  -o "$t/r" -q 2> "$t/r.err"
check "run exits 0 ($(head -c 300 "$t/r.err"))" test -s "$t/r/report.md"
# the headline table of f32: its variant column, in --variants order, exact last
order=$(awk '/^### f32 input/{f=1;next} f&&/^\| [a-z]/{print $2} f&&/^$/&&n++{exit}' "$t/r/report.md" | grep -v '^variant$' | tr '\n' ' ')
check "headline rows in --variants order (got: $order)" test "$order" = "kahan pairwise atomic-thread exact "
order=$(awk '/^### accuracy-vs-cond, f32/{f=1;next} f&&/^\| [a-z]/{print $2} f&&/^### /{exit}' "$t/r/report.md" | grep -v '^variant$' | tr '\n' ' ')
check "sweep table rows in --variants order (got: $order)" test "$order" = "kahan pairwise atomic-thread exact "
if command -v gnuplot > /dev/null 2>&1; then
  check "cond chart title names n and the instances" grep -q 'accuracy-vs-cond: ill-conditioned, f32, n = 2</tspan>.*10</tspan>.*, 2 instances per point' "$t/r/charts/error_vs_cond_f32.svg"
fi

# ---- --report-only without the experiment's name: DIR's run.conf names it ------------------
rm -f "$t/r/report.md" "$t/r/report.html"
"$bin" run --report-only -o "$t/r" 2> "$t/ro.err"
rc=$?
check "run --report-only -o DIR exits 0 (got $rc: $(head -c 300 "$t/ro.err"))" test $rc -eq 0
check "--report-only rewrote report.md and report.html" test -s "$t/r/report.md" -a -s "$t/r/report.html"
check "--report-only names both reports" grep -q "report: $t/r/report.md, $t/r/report.html" "$t/ro.err"
"$bin" run --report-only -o "$t/r" nosuch 2> "$t/ro2.err"
check "--report-only with an unknown experiment is still bad usage" test $? -eq 2

# ---- the backend notice: "no GPU" said once, nothing with --backend cpu or -q ----------------
"$bin" gen uniform --n 1000 -o "$t/u.npy" 2> /dev/null
"$bin" sum "$t/u.npy" --variants kahan > /dev/null 2> "$t/auto.err"
check "auto: one notice line ($(cat "$t/auto.err"))" test "$(grep -c . "$t/auto.err")" -eq 1
check "auto: 'no GPU' said once in it ($(cat "$t/auto.err"))" test "$(grep -o 'no GPU' "$t/auto.err" | wc -l)" -eq 1
"$bin" sum "$t/u.npy" --variants kahan --backend cpu > /dev/null 2> "$t/cpu.err"
check "--backend cpu: no notice ($(cat "$t/cpu.err"))" test ! -s "$t/cpu.err"
"$bin" sum "$t/u.npy" --variants kahan -q > /dev/null 2> "$t/q.err"
check "-q: no notice ($(cat "$t/q.err"))" test ! -s "$t/q.err"

echo "$((checks - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# tselfcheck.sh: the one self-check verdict reaches results.csv and the report: every measured row
# of a run carries `check` (ok here, where every variant holds its claims), the report counts them,
# and a row whose verdict is FAILED is listed by the report (planted in a copy of the results).
#   usage: tselfcheck.sh PATH/TO/sumlab
set -u
bin=${1:?usage: tselfcheck.sh PATH/TO/sumlab}
t=$(mktemp -d "${TMPDIR:-/tmp}/tselfcheck.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_GPU=1 SUMLAB_NO_CHARTS=1
fails=0 checks=0
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || { fails=$((fails + 1)); echo "FAIL: $what" >&2; }; }
"$bin" run accuracy-vs-cond --preset tiny --backend cpu -o "$t/r" -q 2> "$t/err"
check "the run exits 0 ($(head -c 300 "$t/err"))" test $? -eq 0
python3 - "$t/r/results.csv" > "$t/counts" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = [r for r in rows if r["status"] == "ok"]
print(len(ok), sum(r["check"] == "ok" for r in ok), sum(r["check"] != "" for r in rows if r["status"] != "ok"))
PY
read -r nok nchk nskipchk < "$t/counts"
check "every measured row has check=ok ($nchk of $nok)" test "$nok" -gt 0 -a "$nchk" = "$nok"
check "no skipped row carries a verdict ($nskipchk)" test "$nskipchk" = 0
check "the report counts the checked rows" grep -q "^$nok measured rows were checked .*: 0 failed\.$" "$t/r/report.md"
check "what to use: nothing to avoid before a failure" bash -c "! grep -q '^- Avoid here' '$t/r/report.md'"
# a planted failure: the report lists it
python3 - "$t/r/results.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
h = rows[0]; i = h.index("check"); v = h.index("variant"); s = h.index("status")
for r in rows[1:]:
    if r[s] == "ok" and r[v] == "kahan":
        r[i] = "FAILED"; break
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
PY
"$bin" run --report-only -o "$t/r" -q 2> "$t/err2"
check "--report-only over a planted FAILED exits 0 ($(head -c 300 "$t/err2"))" test $? -eq 0
check "the report says one failed" grep -q "checked .*: 1 failed" "$t/r/report.md"
check "the report lists the failed row's variant" grep -q "^- accuracy-vs-cond .* kahan (" "$t/r/report.md"
# the report's "what to use": superacc (correctly rounded) is the most accurate in float32 here;
# the planted failure puts kahan among the variants to avoid, and before it, nothing was
check "what to use: a section per format" bash -c "grep -q '^## What to use, per format' '$t/r/report.md' && grep -q '^### f32' '$t/r/report.md'"
check "what to use: superacc is the most accurate in f32" grep -qE '^- Most accurate: `superacc` \(worst (0|0\.[0-9]+|0\.5) ulps\)' "$t/r/report.md"
check "what to use: the planted failure is to avoid" grep -q '^- Avoid here: `kahan` (a result outside its a-priori bound' "$t/r/report.md"
echo "tselfcheck: $checks checks, $fails failed"
[ "$fails" = 0 ]

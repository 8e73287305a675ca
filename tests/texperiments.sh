#!/usr/bin/env bash
# texperiments.sh: `sumlab run` and `sumlab compare` end to end on the CPU backend (tiny
# preset): rows, report, charts, determinism verdict per variant, resume after an interruption
# (row limit, truncated last line, SIGINT) without duplicates, compare, and bad input.
#   usage: texperiments.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: texperiments.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
[ -x "$bin" ] || { echo "texperiments: $bin is not an executable" >&2; exit 1; }
export SUMLAB_PLOTS_DIR=$src/plots
t=$(mktemp -d "${TMPDIR:-/tmp}/texperiments.XXXXXX")
trap 'rm -rf "$t"' EXIT
fails=0
checks=0
ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
check() { # description command...
  local d=$1; shift
  if "$@"; then ok; else fail "$d"; fi
}
rows() { tail -n +2 "$1/results.csv" | grep -c . ; }
keys() { tail -n +2 "$1/results.csv" | cut -d, -f1-7 | sort; }
bits() { tail -n +2 "$1/results.csv" | awk -F, '{print $1","$2","$3","$4","$5","$6","$7","$19","$21}' | sort; }

# ---- 1. every experiment end to end (charts rendered when gnuplot is here) ------------------
"$bin" run all --preset tiny --backend cpu -o "$t/all" -q 2> "$t/all.err"
rc=$?
check "run all exits 0 (got $rc: $(head -c 400 "$t/all.err"))" test $rc -eq 0
for f in results.csv distribution.csv meta.json report.md run.conf; do
  check "run all wrote $f" test -s "$t/all/$f"
done
n_all=$(rows "$t/all")
# progress on a stderr that is no terminal: a line per experiment and per 10 % of the work, not a
# line per step (the quick preset has some 500 steps)
SUMLAB_NO_CHARTS=1 "$bin" run all --preset quick --backend cpu -o "$t/prog" 2> "$t/prog.err" > /dev/null
np=$(grep -c '^sumlab run: \[' "$t/prog.err")
check "progress lines on a pipe: at most one per experiment and per 10 % ($np)" test "$np" -ge 5 -a "$np" -le 20
check "run all wrote rows ($n_all)" test "$n_all" -gt 100
check "results.csv has unit-named columns" grep -q '^experiment,dataset,params,dtype,n,variant,config,.*time_ms_median.*gbps' "$t/all/results.csv"
for e in accuracy-vs-n accuracy-vs-cond accuracy-vs-range determinism tradeoff; do
  check "rows of $e" grep -q "^$e," "$t/all/results.csv"
done
check "no throughput-vs-n rows on the CPU (GPU only)" bash -c "! grep -q '^throughput-vs-n,' '$t/all/results.csv'"
# tradeoff on the CPU: the twins' wall clock (backend cpu, a GB/s), cub (no twin) skipped
col() { awk -F, -v want="$1" 'NR==1{for(i=1;i<=NF;i++)if($i==want)print i; exit}' "$t/all/results.csv"; }
cb=$(col backend); cs=$(col status); cg=$(col gbps)
check "tradeoff rows: ok rows are CPU-twin timings with a GB/s" awk -F, -v b="$cb" -v s="$cs" -v g="$cg" '
  $1=="tradeoff" && $s=="ok" && $6!="exact" { n++; if ($b!="cpu" || $g=="" || $g+0<=0) bad++ }
  END { exit !(n>0 && !bad) }' "$t/all/results.csv"
check "tradeoff: cub has no twin and is skipped, never ok" awk -F, -v s="$cs" '
  $1=="tradeoff" && $6=="cub" { n++; if ($s!="skipped") bad++ } END { exit !(n>0 && !bad) }' "$t/all/results.csv"
check "no duplicate keys in run all" test -z "$(keys "$t/all" | uniq -d)"
check "meta.json has provenance" grep -q '"git_sha"' "$t/all/meta.json"
check "meta.json has the seed and backend" grep -qE '"backend":[[:space:]]*"cpu"' "$t/all/meta.json"
if command -v python3 >/dev/null 2>&1; then
  check "meta.json is valid JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$t/all/meta.json"
  # the run's profile: every phase in seconds (>= 0), the thread count, measuring took time,
  # no phase longer than the run's wall clock plus rendering and report (phases overlap only
  # in the pipeline's two threads, so none exceeds twice the run)
  check "meta.json has the phase timing" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["timing"]
keys = ["generate", "reference", "measure", "judge", "write", "wait", "render", "report", "total"]
assert all(isinstance(t[k], (int, float)) and t[k] >= 0 for k in keys), t
assert isinstance(t["threads"], int) and t["threads"] >= 1, t
assert t["measure"] > 0 and t["total"] > 0 and t["generate"] > 0 and t["reference"] > 0, t
wall = t["total"] + t["render"] + t["report"]
assert all(t[k] <= 2 * wall + 0.5 for k in keys), t
' "$t/all/meta.json"
fi
# CPU backend: a deterministic twin runs once (reps 1, its note says why); a nondeterministic
# one runs every repetition asked (determinism's default configuration: tiny preset R = 5)
cr=$(col reps); cn=$(col note); cc=$(col config); cd=$(col det_class)
check "determinism: deterministic twins run once with a note, nondeterministic ones every rep" awk -F, \
  -v r="$cr" -v s="$cs" -v c="$cc" -v d="$cd" -v nt="$cn" '
  $1=="determinism" && $s=="ok" && $c=="default" && $6!="exact" {
    if ($d=="nondeterministic") { nd++; if ($r!=5) bad++ }
    else { dt++; if ($r!=1 || $nt !~ /deterministic twin run once \(not 5 times\)/) bad++ } }
  END { exit !(nd>0 && dt>0 && !bad) }' "$t/all/results.csv"
"$bin" run accuracy-vs-cond --preset tiny --backend cpu -o "$t/phases" --threads 2 2> "$t/phases.err" > /dev/null
check "run prints the seconds by phase with the thread count" \
  grep -qE '^sumlab run: seconds by phase \(2 threads; phases overlap, so they add up to more than the total\): generate [0-9.]+, reference [0-9.]+, measure [0-9.]+, judge [0-9.]+, write [0-9.]+, wait [0-9.]+, render [0-9.]+, report [0-9.]+, total [0-9.]+$' "$t/phases.err"
check "report has a headline" grep -q '^## Headline' "$t/all/report.md"
check "report says throughput-vs-n is skipped on the CPU" grep -q 'throughput-vs-n skipped' "$t/all/report.md"
check "report labels the tradeoff's CPU wall clock" grep -q 'CPU twins: wall-clock throughput of the twin, not of a GPU' "$t/all/report.md"
check "report has the tradeoff table" grep -qE '^\| f(32|64) \| serial \| [0-9.e+-]+ \| [0-9.e+-]+ \|$' "$t/all/report.md"
# headline: ulps only where the exact sum is non-zero; S = 0 rows (cancellation) counted apart
check "headline has the S = 0 columns" grep -qF '| S = 0: rows | S = 0: max \|err\| / sum\|x\| |' "$t/all/report.md"
check "headline max ulps are not those of a zero sum (< 1e40)" awk -F'|' '
  /^### f(32|64) input/ { in_t = 1; next } /^## Determinism/ { in_t = 0 }
  in_t && /^\| [a-z]/ && $2 !~ /variant/ { split($5, w, " "); if (w[1] != "-" && w[1] + 0 >= 1e40) bad++; n++ }
  END { exit !(n > 0 && !bad) }' "$t/all/report.md"
check "headline counts the exact-zero rows" grep -qE '^f32: [0-9]+ rows \(family `cancellation`\) have an exact sum S of 0' "$t/all/report.md"
# bounds: +inf bounds (overflow family: sum|x| beyond the accumulator) are explained, never violations
check "tiny preset has +inf bounds to explain" awk -F, -v c="$(col bound_abs)" '
  $1 ~ /^accuracy-/ && $c == "inf" { f = 1 } END { exit !f }' "$t/all/results.csv"
check "+inf bounds are explained under the table" grep -qE '^f32: .*No finite a-priori bound \(bound = \+inf\) for [0-9]+ rows, not counted as violations' "$t/all/report.md"
check "no bound violation in the CPU twins' headline rows" bash -c "! grep -q '^|.*VIOLATED' '$t/all/report.md'"
check "distribution.csv has counts" test "$(tail -n +2 "$t/all/distribution.csv" | grep -c .)" -gt 0

# determinism verdict for every variant that has determinism rows
variants=$(awk -F, 'NR>1 && $1=="determinism" {print $6}' "$t/all/results.csv" | sort -u)
check "determinism rows exist" test -n "$variants"
for v in $variants; do
  line=$(grep -E "^\| $v \| [a-z-]+ \| \*\*(PASS|PASS\*|FAIL|n/a)\*\*" "$t/all/report.md" | head -n1)
  if [ -z "$line" ]; then fail "no determinism verdict for $v in report.md"; continue; fi
  ran=$(awk -F, -v v="$v" 'NR>1 && $1=="determinism" && $6==v && $19=="ok"' "$t/all/results.csv" | head -n1)
  if [ -n "$ran" ]; then
    check "verdict of $v is PASS or FAIL (it ran)" grep -qE '\*\*(PASS|FAIL)' <<< "$line"
  else
    check "verdict of $v is n/a (it could not run on the CPU)" grep -q 'n/a' <<< "$line"
  fi
done
# a run-to-run class claims 1 distinct result: the twins are pure functions, so every
# deterministic variant must PASS on the CPU backend
check "no FAIL for deterministic twins on the CPU" test -z "$(grep -E '^\| [a-z0-9-]+ \| (run-to-run|config-independent|correctly-rounded) \| \*\*FAIL' "$t/all/report.md")"

# charts
if command -v gnuplot >/dev/null 2>&1; then
  for kind in error_vs_n error_vs_cond error_vs_range distribution; do   # (tradeoff: GPU only, below)
    check "chart kind $kind rendered" compgen -G "$t/all/charts/${kind}_*.png" > /dev/null
  done
  for png in "$t"/all/charts/*.png; do
    svg=${png%.png}.svg
    check "$png non-empty" test -s "$png"
    check "$svg exists and non-empty" test -s "$svg"
    check "$png is a PNG" test "$(head -c 4 "$png" | tail -c 3)" = "PNG"
    check "report links $(basename "$png")" grep -qF "charts/$(basename "$png")" "$t/all/report.md"
  done
  check "skipped chart kinds are noted (throughput_vs_n: GPU only)" grep -q 'throughput_vs_n' "$t/all/charts/notes.txt"
  check "CPU backend: no tradeoff chart of twin speeds, and a note says why" \
    bash -c "! ls '$t/all/charts' | grep -q '^tradeoff' && grep -q '^tradeoff: CPU backend: no chart' '$t/all/charts/notes.txt'"
  check "CPU backend: distribution titles say they model the GPU's commit order" \
    bash -c "grep -l 'CPU model of GPU commit order' '$t/all/charts'/distribution_*.svg | grep -q ."
  check "render.sh alone re-renders from the CSV" bash "$src/plots/render.sh" -q "$t/all"
else
  echo "texperiments: gnuplot is not installed here: chart checks skipped" >&2
  check "report says charts were not rendered" grep -q 'gnuplot' "$t/all/report.md"
fi

SUMLAB_NO_CHARTS=1 "$bin" run all -o "$t/all" --report-only -q
check "--report-only rewrites the report" test $? -eq 0 -a -s "$t/all/report.md"

# ---- 2. resume: row limit + truncated last line, then SIGINT ---------------------------------
export SUMLAB_NO_CHARTS=1
"$bin" run accuracy-vs-n --preset tiny --backend cpu -o "$t/u" -q
check "uninterrupted accuracy-vs-n exits 0" test $? -eq 0
n_u=$(rows "$t/u")
SUMLAB_MAX_ROWS=37 "$bin" run accuracy-vs-n --preset tiny --backend cpu -o "$t/r" -q
rc=$?
check "row limit stops with exit 3 (got $rc)" test $rc -eq 3
check "row limit wrote 37 rows (got $(rows "$t/r"))" test "$(rows "$t/r")" -eq 37
check "an incomplete run's report says so" grep -q 'incomplete' "$t/r/report.md"
printf 'accuracy-vs-n,uniform,,f32,4096,serial,defa' >> "$t/r/results.csv"   # a write cut short
"$bin" run accuracy-vs-n --preset tiny --backend cpu -o "$t/r" -q 2> "$t/refuse.err"
check "an existing run is refused without --resume" test $? -eq 2
check "the refusal is one line" test "$(grep -c . "$t/refuse.err")" -eq 1
SUMLAB_MAX_ROWS=100 "$bin" run accuracy-vs-n -o "$t/r" --resume -q
check "second partial resume stops at the limit" test $? -eq 3
"$bin" run accuracy-vs-n -o "$t/r" --resume -q
check "final resume exits 0" test $? -eq 0
check "resumed row count equals the uninterrupted run ($(rows "$t/r") vs $n_u)" test "$(rows "$t/r")" -eq "$n_u"
check "no duplicate keys after resume" test -z "$(keys "$t/r" | uniq -d)"
check "same keys as the uninterrupted run" diff <(keys "$t/u") <(keys "$t/r")
check "same result bits as the uninterrupted run" diff <(bits "$t/u") <(bits "$t/r")
check "no truncated line left" bash -c "! grep -q ',defa$' '$t/r/results.csv'"

# SIGINT in the middle of a (larger) run, then resume
"$bin" run determinism --preset quick --backend cpu -o "$t/s" -q &
pid=$!
for _ in $(seq 1 200); do
  [ -f "$t/s/results.csv" ] && [ "$(wc -l < "$t/s/results.csv")" -gt 30 ] && break
  sleep 0.05
done
kill -INT $pid 2> /dev/null
wait $pid
rc=$?
if [ $rc -eq 130 ]; then
  ok
  n_part=$(rows "$t/s")
  "$bin" run determinism -o "$t/s" --resume -q
  check "resume after SIGINT exits 0" test $? -eq 0
  "$bin" run determinism --preset quick --backend cpu -o "$t/s2" -q
  check "resumed determinism run has all rows ($n_part before, $(rows "$t/s") vs $(rows "$t/s2"))" test "$(rows "$t/s")" -eq "$(rows "$t/s2")"
  check "no duplicate keys after SIGINT + resume" test -z "$(keys "$t/s" | uniq -d)"
  check "same result bits after SIGINT + resume" diff <(bits "$t/s") <(bits "$t/s2")
  check "distribution.csv has no rows of unfinished keys" test "$(tail -n +2 "$t/s/distribution.csv" | cut -d, -f1-7 | sort -u | wc -l)" -le "$(rows "$t/s")"
elif [ $rc -eq 0 ]; then
  echo "texperiments: the determinism run finished before SIGINT arrived: SIGINT check skipped" >&2
else
  fail "SIGINT: expected exit 130, got $rc"
fi

# ---- 3. compare -------------------------------------------------------------------------
"$bin" compare "$t/u" "$t/r" > "$t/cmp.out" 2> "$t/cmp.err"
check "compare exits 0" test $? -eq 0
check "compare prints a table with variants" grep -q '^variant' "$t/cmp.out"
check "compare lists serial" grep -q '^serial ' "$t/cmp.out"
check "identical runs: no bits differ" test -z "$(awk 'NR>2 && $7 != 0' "$t/cmp.out")"
"$bin" run accuracy-vs-n --preset tiny --backend cpu --seed 7 -o "$t/seed7" -q
"$bin" compare --format csv "$t/u" "$t/seed7" > "$t/cmp2.out" 2>/dev/null
check "compare of other seeds finds differing bits" awk -F, 'NR>1 && $7 > 0 {f=1} END{exit !f}' "$t/cmp2.out"

# compare treats S = 0 and overflow rows as the report does (tiny accuracy-vs-n has both)
cs0=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)if($i=="S0_rows")print i}' "$t/cmp2.out")
check "compare has S0_rows/nonfinite columns" test -n "$cs0"
check "compare: finite ulps_max for every variant (S = 0 and non-finite rows apart)" awk -F, -v c="$cs0" '
  NR>1 { n++; if ($5 == "inf" || $6 == "inf") bad++; if ($c > 0) s0++ } END { exit !(n > 0 && !bad && s0 > 0) }' "$t/cmp2.out"

# ---- 3b. sweeps the user chooses -----------------------------------------------------------
check "default run: every row is instance 0 of 1" awk -F, '
  NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { if ($c["instance"] != "0" || $c["instances"] != "1") bad++ } END { exit bad }' "$t/u/results.csv"
check "results.csv decimals carry 17 significant digits" awk -F, '
  NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { v = $c["abs_err"]; sub(/^-/, "", v); sub(/e.*/, "", v); gsub(/\./, "", v); sub(/^0+/, "", v); if (length(v) >= 15) f = 1 }
  END { exit !f }' "$t/u/results.csv"
"$bin" run accuracy-vs-cond --preset tiny --backend cpu --seeds 3 --n 1024,2048 --variants serial,kahan,pairwise \
  --dtype f32 --baseline serial -o "$t/sw" -q 2> "$t/sw.err"
last=$?; check "sweep run exits 0 ($(head -c 300 "$t/sw.err"))" test $last -eq 0
# 2 n x 4 cond decades x 3 instances x (3 variants + exact)
check "sweep rows: 2 n x 4 cond x 3 instances x 4 variants ($(rows "$t/sw"))" test "$(rows "$t/sw")" -eq 96
check "sweep: only f32, the chosen n and variants" awk -F, '
  NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { if ($c["dtype"] != "f32" || ($c["n"] != 1024 && $c["n"] != 2048) || $c["variant"] !~ /^(serial|kahan|pairwise|exact)$/) bad++
    seen[$c["instance"]]++; if ($c["seed"] != 20261129 + $c["instance"] || $c["instances"] != 3) bad++ }
  END { exit !(!bad && length(seen) == 3) }' "$t/sw/results.csv"
check "sweep: no duplicate keys (instance in the key)" test -z "$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{print $1,$2,$3,$4,$5,$6,$7,$c["instance"]}' "$t/sw/results.csv" | sort | uniq -d)"
check "run.conf keeps the sweep" bash -c "grep -qx 'seeds=3' '$t/sw/run.conf' && grep -qx 'n=1024,2048' '$t/sw/run.conf' && grep -qx 'baseline=serial' '$t/sw/run.conf'"
check "report names n and the instances" grep -q '^### accuracy-vs-cond, f32, n = 2048, 3 instances per point' "$t/sw/report.md"
check "report header says the instances" grep -q '\*\*3 instances per point\*\*' "$t/sw/report.md"
check "sweep table has the baseline and ratios" bash -c "grep -q '^| serial (baseline) |' '$t/sw/report.md' && grep -qE '^\| kahan \| .*\(x[0-9.e+-]+\)' '$t/sw/report.md'"
check "sweep table cells give the range over instances" grep -qE '^\| kahan \| [0-9.e+-]+ \[[0-9.e+-]+-[0-9.e+-]+\]' "$t/sw/report.md"
"$bin" run accuracy-vs-cond -o "$t/sw" --resume -q
check "sweep resume adds nothing" test "$(rows "$t/sw")" -eq 96
"$bin" run accuracy-vs-cond --preset tiny --backend cpu --variants serial,kahan,pairwise --dtype f32 --n 1024 -o "$t/sw1" -q
check "instance 0 keeps the key and bits of a run without --seeds" bash -c "diff <(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[\$i]=i;next} \$5==1024 && \$c[\"instance\"]==0 {print \$1,\$2,\$3,\$4,\$5,\$6,\$7,\$21}' '$t/sw/results.csv' | sort) <(tail -n +2 '$t/sw1/results.csv' | cut -d, -f1-7,21 | tr , ' ' | sort)"
"$bin" run accuracy-vs-cond --preset tiny --backend cpu --datasets uniform -o "$t/swd" -q 2> "$t/swd.err"
swd_rc=$?
check "--datasets without the sweep's family: exit 2 ($swd_rc), one warning line naming the family" \
  bash -c "[ $swd_rc = 2 ] && [ \$(grep -c . '$t/swd.err') = 1 ] && grep -q \"sweeps the family 'ill-conditioned'\" '$t/swd.err'"
check "--datasets without the sweep's family: a note, no rows" bash -c "grep -q 'accuracy-vs-cond skipped: --datasets does not name' '$t/swd/report.md' && test \$(tail -n +2 '$t/swd/results.csv' | grep -c .) -eq 0"
# --param reaches launch-config's input (it was dropped: rows of normal mean=0;sd=1 beside
# run.conf's params=mean=1000): the rows' params and exact sums are those of the asked mean
"$bin" run launch-config --preset tiny --backend cpu --datasets normal --param mean=1000 --variants vec4 \
  --dtype f32 -o "$t/lcp" -q 2> "$t/lcp.err"
check "launch-config --param: exit 0 ($(head -c 300 "$t/lcp.err"))" test $? -eq 0
check "launch-config --param: every row of normal mean=1000 with an exact sum near 1000 n" awk -F, '
  NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { n++; if ($c["params"] != "mean=1000;sd=1" || $c["exact"] / $c["n"] < 999 || $c["exact"] / $c["n"] > 1001) bad++ }
  END { exit !(n > 0 && !bad) }' "$t/lcp/results.csv"
# launch-config measures one input per point: under --seeds 2 its rows said instances 2 (only
# instance 0 was measured); now 1, and a note says --seeds does not apply
"$bin" run launch-config --preset tiny --backend cpu --variants vec4 --dtype f32 --seeds 2 -o "$t/lcs" -q 2> "$t/lcs.err"
check "launch-config --seeds 2: exit 0 ($(head -c 300 "$t/lcs.err"))" test $? -eq 0
check "launch-config --seeds 2: every row instance 0 of 1, seed S" awk -F, '
  NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { n++; if ($c["instance"] != "0" || $c["instances"] != "1" || $c["seed"] != "20261129") bad++ }
  END { exit !(n > 0 && !bad) }' "$t/lcs/results.csv"
check "launch-config --seeds 2: a note says --seeds does not apply" grep -q "launch-config: one input per point (instance 0, seed 20261129); --seeds 2 does not apply" "$t/lcs/run_notes.txt"
check "launch-config --seeds 2: the report's header says 1 instance per point (it said 2)" \
  grep -q '\*\*1 instance per point (--seeds 2 does not apply: see the notes)\*\*' "$t/lcs/report.md"
# launch-config sweeps sum variants: under --op mean it measured nothing without a word (exit 0,
# no row, no note); now its notes say why
"$bin" run launch-config --preset tiny --backend cpu --op mean -o "$t/lcm" -q 2> "$t/lcm.err"
check "launch-config --op mean: exit 0 ($(head -c 300 "$t/lcm.err"))" test $? -eq 0
check "launch-config --op mean: no row, and a note naming the operation" bash -c "
  test \$(tail -n +2 '$t/lcm/results.csv' | grep -c .) -eq 0 &&
  grep -q 'launch-config skipped: it sweeps the sum.s rungs and variants .*(--op mean) has none of them' '$t/lcm/run_notes.txt'"
SUMLAB_MAX_ROWS=1 "$bin" run accuracy-vs-n --preset full --backend cpu --dtype f32 --variants serial -o "$t/full" 2> "$t/full.err"
check "preset full on the CPU says which sizes it keeps and why" grep -q 'preset full on the CPU backend keeps accuracy-vs-n at n = 2^10 .. 2^22' "$t/full.err"
check "... and its report says so too" grep -q 'preset full on the CPU backend keeps' "$t/full/report.md"
check "report: determinism per input, twin model marked on the CPU" bash -c "grep -q '^### Determinism per input' '$t/all/report.md' && grep -q '(model) |' '$t/all/report.md' && grep -q 'CPU twin.s model of the GPU' '$t/all/report.md'"
check "report header: ladder skipped as GPU only on the CPU, not 'not reached'" bash -c "grep -q 'ladder (skipped: GPU only, the CPU backend has no GPU timings)' '$t/all/report.md' && ! grep -q 'not reached' '$t/all/report.md'"
check "report: zero / non-finite results section" grep -q '^## Results exactly 0 or non-finite against a non-zero exact sum' "$t/all/report.md"
check "report: Findings from the rows (results 0 against a non-zero exact result, each with its row)" bash -c "
  awk '/^## Findings/{f=1} /^## /&&!/Findings/{f=0} f' '$t/all/report.md' > '$t/findings.md' &&
  grep -q '^- \*\*Results exactly 0 where the exact result is not\*\*' '$t/findings.md' &&
  grep -qE 'result .0x0p\+0., exact .-?0x1' '$t/findings.md' && grep -q 'What to use' '$t/findings.md'"
check "tables/*.tex: the headline, sweep and per-n tables as LaTeX (booktabs)" bash -c "
  grep -q '^\\\\toprule' '$t/all/tables/headline_f32-input.tex' && ls '$t/all/tables' | grep -q '^sweeps_accuracy-vs-cond-f32' &&
  ls '$t/all/tables' | grep -q '^accuracy_accuracy-vs-n-uniform-f32.tex'"

# ---- 4. bad input: one clear line on stderr, non-zero exit ----------------------------------
bad() { # description expected-rc command...
  local d=$1 want=$2; shift 2
  "$@" > /dev/null 2> "$t/bad.err"
  local rc=$?
  check "$d: exit $want (got $rc)" test $rc -eq "$want"
  check "$d: one line on stderr ($(head -c 200 "$t/bad.err"))" test "$(grep -c . "$t/bad.err")" -eq 1
}
bad "unknown experiment" 2 "$bin" run no-such-experiment -o "$t/x1"
bad "bad preset" 2 "$bin" run accuracy-vs-n --preset huge -o "$t/x2"
bad "bad backend" 2 "$bin" run accuracy-vs-n --backend tpu -o "$t/x3"
bad "resume of a missing dir" 2 "$bin" run accuracy-vs-n -o "$t/missing" --resume
bad "--n 0" 2 "$bin" run accuracy-vs-n --n 0 -o "$t/x4"
bad "--n junk" 2 "$bin" run accuracy-vs-n --n 1024,12x -o "$t/x4"
bad "--n empty item" 2 "$bin" run accuracy-vs-n --n 1024, -o "$t/x4"
bad "--n twice" 2 "$bin" run accuracy-vs-n --n 1024,1024 -o "$t/x4"
bad "--datasets unknown" 2 "$bin" run accuracy-vs-n --datasets uniform,nope -o "$t/x4"
bad "--variants unknown" 2 "$bin" run accuracy-vs-n --variants serial,nope -o "$t/x4"
bad "--dtype f128" 2 "$bin" run accuracy-vs-n --dtype f128 -o "$t/x4"
bad "--seeds 0" 2 "$bin" run accuracy-vs-n --seeds 0 -o "$t/x4"
bad "--seeds junk" 2 "$bin" run accuracy-vs-n --seeds 3x -o "$t/x4"
bad "--baseline unknown" 2 "$bin" run accuracy-vs-n --baseline nope -o "$t/x4"
check "bad sweep options leave no directory" test ! -e "$t/x4"
bad "resume with other --seeds" 2 "$bin" run accuracy-vs-cond -o "$t/sw" --resume --seeds 2
bad "resume with other --n" 2 "$bin" run accuracy-vs-cond -o "$t/sw" --resume --n 1024
bad "compare a missing dir" 2 "$bin" compare "$t/missing" "$t/u"
mkdir -p "$t/junk" && echo "a,b,c" > "$t/junk/results.csv"
bad "compare a malformed dir" 2 "$bin" compare "$t/u" "$t/junk"
mkdir -p "$t/empty"
bad "compare a dir without results" 2 "$bin" compare "$t/empty" "$t/u"
bad "render.sh on a non-run dir" 2 bash "$src/plots/render.sh" "$t/empty"

echo "texperiments: $checks checks, $fails failed"
[ $fails -eq 0 ]

#!/usr/bin/env bash
# treliability.sh: issue 15's hostile-user findings, one block per numbered problem, each
# asserting the fixed behaviour end to end on the CPU backend: the run directory lock (a second
# run or resume refused, naming the holder), duplicate keys refused, a run killed before its
# first row started over, no silent truncation of long paths, distribution.csv repaired, the
# grid clamp of the twins (time and memory), gen's .part removed on signals, the renderer dying
# with its run, bounds at the overflow edge, write failures with their reason and no litter,
# compare of different experiments and the size grammar.
#   usage: treliability.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: treliability.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
[ -x "$bin" ] || { echo "treliability: $bin is not an executable" >&2; exit 1; }
export SUMLAB_NO_GPU=1 SUMLAB_NO_CHARTS=1
unset SUMLAB_MAX_ROWS SUMLAB_PLOTS_DIR
t=$(mktemp -d "${TMPDIR:-/tmp}/treliability.XXXXXX")
bgpids=()
cleanup() { for p in "${bgpids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$t"; }
trap cleanup EXIT
fails=0 checks=0
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
check() { local d=$1; shift; checks=$((checks + 1)); if "$@"; then :; else fails=$((fails + 1)); echo "FAIL: $d" >&2; fi; }
rows() { tail -n +2 "$1/results.csv" | grep -c . ; }
dupkeys() { tail -n +2 "$1/results.csv" | cut -d, -f1-7 | sort | uniq -d | wc -l; }
wait_for() { # file [tenths]: waits until file exists
  local i=0; while [ ! -e "$1" ] && [ $i -lt "${2:-300}" ]; do sleep 0.1; i=$((i + 1)); done; [ -e "$1" ]; }
alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
one_line() { test "$(grep -c . "$1")" -eq 1; }

# A fake chart renderer: records its pid, then waits (the run holds its directory meanwhile).
fake=$t/fakeplots
mkdir -p "$fake"
cat > "$fake/render.sh" <<'EOF'
#!/usr/bin/env bash
dir=${!#}
echo $$ > "$dir/renderer.pid"
exec sleep "${FAKE_RENDER_SECS:-30}"
EOF

# ---- 1. one run per directory: the lock; duplicate keys refused on resume -------------------
d=$t/locked
SUMLAB_NO_CHARTS=0 SUMLAB_PLOTS_DIR=$fake "$bin" run determinism --preset tiny -o "$d" -q 2> "$t/a.err" &
apid=$!; bgpids+=("$apid")
if wait_for "$d/renderer.pid"; then
  "$bin" run determinism --preset tiny -o "$d" -q 2> "$t/b.err"; rc=$?
  check "a second run on a locked directory exits 2 (got $rc)" test $rc -eq 2
  check "the refusal names the holder: $(cat "$t/b.err")" grep -q "in use by another sumlab run (pid $apid," "$t/b.err"
  check "the refusal is one line" one_line "$t/b.err"
  "$bin" run determinism -o "$d" --resume -q 2> "$t/c.err"; rc=$?
  check "a resume of a locked directory exits 2 (got $rc)" test $rc -eq 2
  check "the resume refusal names the holder" grep -q "pid $apid" "$t/c.err"
  # 6. the run killed while rendering: its renderer dies with it
  rpid=$(cat "$d/renderer.pid")
  kill -9 "$apid"; wait "$apid" 2>/dev/null
  i=0; while alive "$rpid" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  check "the chart renderer of a killed run is gone" bash -c "! kill -0 $rpid 2>/dev/null || grep -q '^State:.*Z' /proc/$rpid/status"
  "$bin" run determinism -o "$d" --resume -q 2> "$t/d.err"; rc=$?
  check "after the holder died, resume works (got $rc: $(head -c 300 "$t/d.err"))" test $rc -eq 0
  check "no duplicated keys after resume" test "$(dupkeys "$d")" -eq 0
else
  fail "the run never reached its renderer: $(head -c 300 "$t/a.err")"
fi
# two fresh runs started together: one runs, the other is refused; no interleaved rows
d=$t/twin
SUMLAB_NO_CHARTS=0 SUMLAB_PLOTS_DIR=$fake FAKE_RENDER_SECS=1 "$bin" run determinism --preset tiny -o "$d" -q 2> "$t/p.err" & p1=$!
SUMLAB_NO_CHARTS=0 SUMLAB_PLOTS_DIR=$fake FAKE_RENDER_SECS=1 "$bin" run determinism --preset tiny -o "$d" -q 2> "$t/q.err" & p2=$!
bgpids+=("$p1" "$p2")
wait "$p1"; r1=$?; wait "$p2"; r2=$?
check "two fresh runs together: one exits 0, the other 2 (got $r1, $r2)" test "$((r1 + r2))" -eq 2 -a "$((r1 * r2))" -eq 0
check "two fresh runs together: no duplicated keys" test "$(dupkeys "$d")" -eq 0
check "two fresh runs together: the refused one said why" bash -c "cat '$t/p.err' '$t/q.err' | grep -q -e 'in use by another sumlab run' -e 'already holds a run'"
# a results.csv written by two runs: resume refuses it
cp -r "$d" "$t/dup"
sed -n 2,4p "$t/dup/results.csv" >> "$t/dup/results.csv"
"$bin" run determinism -o "$t/dup" --resume -q 2> "$t/dup.err"; rc=$?
check "resume of a file with duplicated keys exits 2 (got $rc)" test $rc -eq 2
check "the refusal counts the duplicates: $(cat "$t/dup.err")" grep -q "holds 3 duplicated rows" "$t/dup.err"

# ---- 2. killed in the first milliseconds: files created whole; no row yet: start over --------
d=$t/early
"$bin" run determinism --preset tiny -o "$d" -q 2>/dev/null
check "a finished run leaves no .tmp file" bash -c "! ls '$d' | grep -q '\.tmp$'"
: > "$d/run.conf"; : > "$d/results.csv"; : > "$d/distribution.csv"
"$bin" run determinism -o "$d" --resume -q 2> "$t/e1.err"; rc=$?
check "resume of an empty run.conf exits 2 (got $rc)" test $rc -eq 2
check "it says to start over: $(cat "$t/e1.err")" grep -q "no row was measured there; start the run over" "$t/e1.err"
"$bin" run determinism --preset tiny -o "$d" 2> "$t/e2.err"; rc=$?
check "a new run on a directory without rows exits 0 (got $rc: $(head -c 300 "$t/e2.err"))" test $rc -eq 0
check "it says it started over" grep -q "holds no measured row: starting it over" "$t/e2.err"
check "the run started over has its rows" test "$(rows "$d")" -gt 100
check "...and a run.conf" grep -q '^experiment=determinism$' "$d/run.conf"
# a header-less results.csv (killed while writing it) with a good run.conf: resume starts fresh
head -c 20 "$d/results.csv" > "$d/r.tmp" && mv "$d/r.tmp" "$d/results.csv"
"$bin" run determinism -o "$d" --resume -q 2> "$t/e3.err"; rc=$?
check "resume with a header-less results.csv exits 0 (got $rc: $(head -c 300 "$t/e3.err"))" test $rc -eq 0
check "...and measures every row again" test "$(rows "$d")" -gt 100

# ---- 3. no silent truncation of a long -o -------------------------------------------------------
long=$t/$(printf 'a%.0s' $(seq 1 200))/$(printf 'b%.0s' $(seq 1 200))/$(printf 'c%.0s' $(seq 1 200))/$(printf 'd%.0s' $(seq 1 200))/$(printf 'e%.0s' $(seq 1 200))
"$bin" run determinism --preset tiny -o "$long" -q 2> "$t/l.err"; rc=$?
check "-o of ${#long} bytes exits 2 (got $rc)" test $rc -eq 2
check "...saying it is too long: $(head -c 200 "$t/l.err")" grep -q "longer than the 900 this sumlab handles" "$t/l.err"
check "...one line" one_line "$t/l.err"
check "...and nothing was written anywhere" test ! -e "$t/$(printf 'a%.0s' $(seq 1 200))"
ok_long=$t/$(printf 'a%.0s' $(seq 1 200))/$(printf 'b%.0s' $(seq 1 200))/$(printf 'c%.0s' $(seq 1 200))/$(printf 'd%.0s' $(seq 1 200))
if [ ${#ok_long} -le 900 ]; then
  "$bin" run determinism --preset tiny -o "$ok_long" -q 2> "$t/l2.err"; rc=$?
  check "-o of ${#ok_long} bytes works (got $rc: $(head -c 200 "$t/l2.err"))" test $rc -eq 0
  check "...into that very directory" test -s "$ok_long/results.csv" -a -s "$ok_long/report.md"
fi
msgdir=$t/$(printf 'm%.0s' $(seq 1 250))/$(printf 'n%.0s' $(seq 1 250))/$(printf 'o%.0s' $(seq 1 250))
SUMLAB_MAX_ROWS=3 "$bin" run determinism --preset tiny -o "$msgdir" 2> "$t/l3.err"
check "the resume hint quotes the whole directory" grep -qF -- "-o $msgdir --resume" "$t/l3.err"
check "the report's note quotes the whole directory" grep -qF -- "-o $msgdir --resume" "$msgdir/report.md"

# ---- 4. a damaged distribution.csv is repaired, and named ------------------------------------
SUMLAB_MAX_ROWS=40 "$bin" run determinism --preset tiny -o "$t/dist" -q 2>/dev/null
cp -r "$t/dist" "$t/dist2"
sed -i '3s/,/;/g' "$t/dist/distribution.csv"
"$bin" run determinism -o "$t/dist" --resume 2> "$t/ds.err"; rc=$?
check "resume with a damaged distribution.csv exits 0 (got $rc: $(grep -v '^sumlab run: \(determinism\|[0-9]\)' "$t/ds.err" | head -c 300))" test $rc -eq 0
check "it names distribution.csv and what it dropped" grep -q "dropped 1 damaged line of $t/dist/distribution.csv" "$t/ds.err"
check "the repaired distribution.csv has its header's field count on every line" awk -F, 'NR == 1 {nf = NF} NF != nf {bad=1} END {exit bad}' "$t/dist/distribution.csv"
check "no duplicated keys after the repair" test "$(dupkeys "$t/dist")" -eq 0
: > "$t/dist2/distribution.csv"
"$bin" run determinism -o "$t/dist2" --resume -q 2> "$t/ds2.err"; rc=$?
check "resume with an empty distribution.csv exits 0 (got $rc: $(head -c 300 "$t/ds2.err"))" test $rc -eq 0
check "...and it gets its header back" grep -q '^experiment,dataset,params,dtype,n,variant,config,' "$t/dist2/distribution.csv"

# ---- 5. a huge --grid on a 4-value file: O(n) time and memory --------------------------------
python3 -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<4f',1,2,3,4))" "$t/four.f32"
python3 - "$bin" "$t/four.f32" "$t/grid.csv" <<'EOF' 2> "$t/grid.err"
import resource, subprocess, sys, time
t0 = time.time()
with open(sys.argv[3], "w") as out:
    rc = subprocess.call([sys.argv[1], "sum", sys.argv[2], "--dtype", "f32", "--grid", "2^20",
                          "--variants", "atomic-block,kahan,fp64-acc,superacc,multipass,grid-stride,vec4",
                          "--format", "csv"], stdout=out, stderr=subprocess.DEVNULL)
secs = time.time() - t0
mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"rc={rc} secs={secs:.2f} maxrss_mb={mb:.0f}", file=sys.stderr)
sys.exit(0 if rc == 0 and secs < 10 and mb < 600 else 1)
EOF
last=$?; check "sum --grid 2^20 on 4 values is fast and small ($(cat "$t/grid.err"))" test $last -eq 0
check "...every grid resolved to 1 block" awk -F, 'NR>1 && $1 != "exact" && $19 != 1 {bad=1} END {exit bad}' "$t/grid.csv"
check "...and every result is 10" awk -F, 'NR>1 && $2 != "0x1.4p+3" {bad=1} END {exit bad}' "$t/grid.csv"

# ---- 6. gen stopped by a signal leaves no FILE.part ----------------------------------------
for sig in INT TERM HUP; do
  rm -f "$t/big.npy" "$t/big.npy.part"
  "$bin" gen uniform --n 2^28 -o "$t/big.npy" 2>/dev/null & g=$!; bgpids+=("$g")
  wait_for "$t/big.npy.part" 100
  kill -s $sig "$g"; wait "$g"; rc=$?
  code=$((128 + $(kill -l $sig)))
  check "gen stopped by SIG$sig exits $code (got $rc)" test $rc -eq $code
  check "gen stopped by SIG$sig leaves no big.npy.part" test ! -e "$t/big.npy.part"
  check "gen stopped by SIG$sig leaves no big.npy" test ! -e "$t/big.npy"
done

# ---- 7. bounds at the overflow edge; 9. an exact sum that overflows ---------------------------
python3 -c "
import struct,sys
open(sys.argv[1],'wb').write(struct.pack('<3f', float.fromhex('0x1.fffffep+127'), 2.0**103, -float.fromhex('0x1p-149')))
open(sys.argv[2],'wb').write(struct.pack('<2d', 1e308, 1e308))" "$t/edge.f32" "$t/ovf.f64"
"$bin" sum "$t/edge.f32" --dtype f32 --variants fp64-acc,kahan,serial,superacc --format csv > "$t/edge.csv" 2>/dev/null; rc=$?
check "sum at the float32 overflow edge exits 0 (got $rc)" test $rc -eq 0
check "fp64-acc there gives inf with bound inf" grep -q '^fp64-acc,inf,inf,inf,inf,inf,[^,]*,inf,' "$t/edge.csv"
check "every non-finite result there has bound inf" awk -F, 'NR>1 && $2 == "inf" && $8 != "inf" {bad=1} END {exit bad}' "$t/edge.csv"
check "superacc there is FLT_MAX, the correctly rounded sum" grep -q '^superacc,0x1.fffffep+127,' "$t/edge.csv"
"$bin" sum "$t/ovf.f64" --dtype f64 --format csv > "$t/ovf.csv" 2>/dev/null; rc=$?
check "sum of [1e308, 1e308] exits 0 (got $rc)" test $rc -eq 0
check "[1e308, 1e308]: bound inf on every row with a bound model" awk -F, 'NR>1 && $8 != "inf" {bad=1} END {exit bad}' "$t/ovf.csv"
check "[1e308, 1e308]: cond empty on every row (as docs/cli.md says)" awk -F, 'NR>1 && $7 != "" {bad=1} END {exit bad}' "$t/ovf.csv"
check "docs/cli.md documents bound inf for an overflowing exact sum" grep -q 'overflows the format.*`inf`\|`inf`.*overflows the format' "$src/docs/cli.md"

# ---- 10. write failures: the file, the reason, no litter ---------------------------------
"$bin" list > /dev/full 2> "$t/full.err"; rc=$?
check "list > /dev/full exits 1 (got $rc)" test $rc -eq 1
check "...with the reason: $(cat "$t/full.err")" grep -q "cannot write standard output: No space left on device" "$t/full.err"
"$bin" sum "$t/four.f32" --dtype f32 --format csv > /dev/full 2> "$t/full2.err"; rc=$?
check "sum > /dev/full exits 1 (got $rc)" test $rc -eq 1
check "...with the reason" grep -q "cannot write standard output: No space left on device" "$t/full2.err"
"$bin" judge "$t/four.f32" --dtype f32 --value 1 > /dev/full 2> "$t/full3.err"; rc=$?
check "judge > /dev/full exits 1 (got $rc)" test $rc -eq 1
check "...in one line, the reason: $(cat "$t/full3.err")" test "$(grep -c . "$t/full3.err")" -eq 1 -a \
  "$(grep -c "cannot write standard output: No space left on device" "$t/full3.err")" -eq 1
"$bin" run determinism --preset tiny -o "$t/rep" -q 2>/dev/null
rm -f "$t/rep/report.md"
(trap '' XFSZ; ulimit -f 4; exec "$bin" run determinism -o "$t/rep" --report-only -q) 2> "$t/rep.err"; rc=$?
check "a report that cannot be written exits 1 (got $rc)" test $rc -eq 1
check "...naming the file and the reason: $(cat "$t/rep.err")" grep -q "cannot write $t/rep/report.md.tmp: File too large" "$t/rep.err"
check "...and leaving no report.md.tmp" test ! -e "$t/rep/report.md.tmp"
(trap '' XFSZ; ulimit -f 16; exec "$bin" run accuracy-vs-n --preset tiny -q -o "$t/fsrun") 2> "$t/fsrun.err"; rc=$?
check "a run whose results.csv cannot be written exits 1 (got $rc)" test $rc -eq 1
check "...and says why under -q too: $(head -1 "$t/fsrun.err")" \
  grep -q "error: cannot write $t/fsrun/results.csv: File too large" "$t/fsrun.err"
(trap '' XFSZ; ulimit -f 64; exec "$bin" gen uniform --n 2^20 -o "$t/fs.npy") 2> "$t/gen.err"; rc=$?
check "gen beyond the file size limit exits 1 (got $rc)" test $rc -eq 1
check "...with the reason" grep -q "File too large" "$t/gen.err"
check "...and no fs.npy.part" test ! -e "$t/fs.npy.part"

# ---- 11. compare of different experiments is bad input; the size grammar ------------------
"$bin" run accuracy-vs-cond --preset tiny -o "$t/cond" -q 2>/dev/null
"$bin" compare "$t/rep" "$t/cond" > /dev/null 2> "$t/cmp.err"; rc=$?
check "compare of runs of different experiments exits 2 (got $rc)" test $rc -eq 2
check "...saying which experiments: $(tail -1 "$t/cmp.err")" grep -q "a run of 'determinism' and .* a run of 'accuracy-vs-cond'" "$t/cmp.err"
"$bin" gen uniform --n 2^10-1 -o "$t/m1.f32" 2>/dev/null; rc=$?
check "--n 2^10-1 is accepted (got $rc)" test $rc -eq 0 -a "$(stat -c %s "$t/m1.f32" 2>/dev/null)" = 4092
"$bin" gen uniform --n 2^40 -o "$t/m2.f32" 2> "$t/m2.err"; rc=$?
check "--n 2^40 exits 2 naming the limit as the grammar spells it" grep -q "at most 2^40-1" "$t/m2.err"
"$bin" gen uniform --n 2^3-9 -o "$t/m3.f32" 2> "$t/m3.err"; rc=$?
check "--n 2^3-9 is negative (exit 2)" test $rc -eq 2
check "...and says so" grep -q "is negative" "$t/m3.err"

echo "treliability: $checks checks, $fails failed"
[ "$fails" -eq 0 ]

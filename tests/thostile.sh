#!/usr/bin/env bash
# thostile.sh: a results directory is data (issue 29): payloads planted in every field of
# results.csv and run.conf that reaches the report or plots/render.sh run nothing and write
# nothing outside the run (one line naming the file, line and field; non-zero exit); compare's
# CSV neutralises formulas and its JSON refuses invalid UTF-8; a render that cannot write (file
# size limit) or is killed leaves no partial chart and no scratch folder.
#   usage: thostile.sh PATH/TO/sumlab SOURCE_DIR
set -uo pipefail
bin=${1:?usage: thostile.sh PATH/TO/sumlab SOURCE_DIR}
src=${2:?usage: thostile.sh PATH/TO/sumlab SOURCE_DIR}
export SUMLAB_PLOTS_DIR=$src/plots SUMLAB_NO_GPU=1
t=$(mktemp -d "${TMPDIR:-/tmp}/thostile.XXXXXX")
trap 'rm -rf "$t"' EXIT
fails=0 checks=0
ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
check() { local d=$1; shift; if "$@"; then ok; else fail "$d"; fi; }
have_gnuplot=0; command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

SUMLAB_NO_CHARTS=1 "$bin" run accuracy-vs-n --preset tiny --backend cpu --dtype f32 -o "$t/u" -q ||
  { echo "thostile: the tiny run failed" >&2; exit 1; }
hdr=$(head -1 "$t/u/results.csv")
colno() { awk -F, -v want="$1" '{for (i = 1; i <= NF; i++) if ($i == want) print i; exit}' <<< "$hdr"; }

# plant DIR FIELD VALUE: a copy of the tiny run with VALUE in FIELD of data line 2 (file line 3)
plant() {
  local d=$1 c
  c=$(colno "$2")
  rm -rf "$d"; mkdir -p "$d"; cp "$t/u/results.csv" "$t/u/run.conf" "$t/u/meta.json" "$d/"
  awk -F, -v OFS=, -v c="$c" -v v="$3" 'NR == 3 { $c = v } { print }' "$t/u/results.csv" > "$d/results.csv"
}

# ---- 1. shell, path and awk/gnuplot injection through results.csv ---------------------------
inj="x';touch $t/PWNED;'"
for field in experiment dataset dtype variant config params status family det_class backend sweep n ulps rel_err exact_hex; do
  plant "$t/p" "$field" "$inj"
  SUMLAB_THREADS=1 "$bin" run --report-only -o "$t/p" -q > /dev/null 2> "$t/p.err"; rc=$?
  check "$field: --report-only exits non-zero (got $rc)" test $rc -ne 0
  check "$field: the message names the file, line and field ($(head -c 300 "$t/p.err"))" \
    grep -q "results.csv:3: field '$field'" "$t/p.err"
  check "$field: --report-only ran nothing" test ! -e "$t/PWNED"
  if [ $have_gnuplot = 1 ]; then
    bash "$src/plots/render.sh" -q "$t/p" 2> "$t/r.err"; rc=$?
    case $field in
      experiment|dataset|dtype|variant|config|status|family|det_class|backend|n|ulps|rel_err|exact_hex)
        check "$field: render.sh exits 2 (got $rc)" test $rc -eq 2
        check "$field: render.sh names the file, line and field ($(head -c 300 "$t/r.err"))" \
          grep -q "results.csv:3: field '$field'" "$t/r.err" ;;
    esac
    check "$field: render.sh ran nothing" test ! -e "$t/PWNED"
  fi
  rm -f "$t/PWNED"
done
# a path out of the scratch folder (its data files would land in $t/esc__f32.d)
mkdir -p "$t/s"
plant "$t/p" dataset "../../../esc"
TMPDIR=$t/s "$bin" run --report-only -o "$t/p" -q > /dev/null 2> "$t/p.err"
check "a dataset '../../../esc' is refused" grep -q "field 'dataset'" "$t/p.err"
if [ $have_gnuplot = 1 ]; then
  TMPDIR=$t/s bash "$src/plots/render.sh" -q "$t/p" 2> /dev/null
  check "render.sh wrote nothing outside its scratch folder and the run" test ! -e "$t/esc__f32.d"
fi
check "no scratch folder left" test -z "$(ls "$t/s")"
# a name with a quote in distribution.csv reaches render.sh only checked
plant "$t/p" dataset uniform
printf 'experiment,dataset,params,dtype,n,variant,config,backend,value,value_hex,count,ulps_signed,instance\n' > "$t/p/distribution.csv"
printf "determinism,uniform,,f32,1024,x'y,default,cpu,1,0x1p+0,1,0,0\n" >> "$t/p/distribution.csv"
"$bin" run --report-only -o "$t/p" -q > /dev/null 2> "$t/p.err"
check "distribution.csv: a variant with a quote is refused ($(head -c 200 "$t/p.err"))" grep -q "distribution.csv:2: field 'variant'" "$t/p.err"
# an op that is no operation of the registry: refused with one message (its rows were reported as
# the sum's, exit 0; beside two operations' rows they were left out of every section)
plant "$t/p" op prod
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/p" -q > /dev/null 2> "$t/p.err"; rc=$?
check "op 'prod': --report-only exits non-zero (got $rc)" test $rc -ne 0
check "op 'prod': one line naming the file, line and field ($(head -c 300 "$t/p.err"))" \
  bash -c "grep -q \"results.csv:3: field 'op': 'prod' is no operation\" '$t/p.err' && test \$(wc -l < '$t/p.err') -eq 1"
# a value's bits in another spelling than sumlab's (the report reads these columns as text): refused
# with one message (a result_hex of Inf passed the check and was counted as a finite error; a
# 0x0.0p+0 was no zero)
for fv in result_hex=Inf result_hex=INF exact_hex=NAN min_hex=Infinity result_hex=1.5 result_hex=0x0.0p+0 max_hex=0X1P+0; do
  plant "$t/p" "${fv%%=*}" "${fv#*=}"
  SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/p" -q > /dev/null 2> "$t/p.err"; rc=$?
  check "$fv: --report-only exits non-zero (got $rc)" test $rc -ne 0
  check "$fv: one line naming the file, line and field ($(head -c 300 "$t/p.err"))" \
    bash -c "grep -qF \"results.csv:3: field '${fv%%=*}': '${fv#*=}' is not a value's bits as sumlab writes them\" '$t/p.err' && test \$(wc -l < '$t/p.err') -eq 1"
done
# numbers that are not finite in other spellings than inf and nan (the checks admit them): no
# chart fails on them (a bound ratio of 1e999 became tightness.gp's hi=inf, a rel_err of INF
# error_vs_n.gp's ymax=inf, a unit roundoff of NAN its u=nan: "undefined variable: inf")
if [ $have_gnuplot = 1 ]; then
  for fv in bound_ratio=1e999 rel_err=INF unit_roundoff=NAN; do
    plant "$t/p" "${fv%%=*}" "${fv#*=}"
    # (the unit roundoff of a chart is its last row's: planted in uniform's last row)
    [ "${fv%%=*}" != unit_roundoff ] || awk -F, -v OFS=, -v c="$(colno unit_roundoff)" -v d="$(colno dataset)" \
      '{ l[NR] = $0; if ($d == "uniform") last = NR } END { for (i = 1; i <= NR; i++) { $0 = l[i]; if (i == last) $c = "NAN"; print } }' \
      "$t/u/results.csv" > "$t/p/results.csv"
    bash "$src/plots/render.sh" -q "$t/p" 2> "$t/r.err"; rc=$?
    check "$fv: render.sh exits 0 (got $rc: $(head -c 200 "$t/r.err"))" test $rc -eq 0
    check "$fv: no chart failed ($(grep -m1 'gnuplot failed' "$t/p/charts/notes.txt" 2>/dev/null | head -c 300))" \
      bash -c "! grep -q 'gnuplot failed' '$t/p/charts/notes.txt' 2>/dev/null"
  done
fi
# a GB/s ratio to CUB that overflows (CUB 1e-300 GB/s, a variant 1e10 at n = 2^22) is no ratio, said
# in a note (its inf became throughput_vs_n.gp's rhi=inf: "undefined variable: inf", no chart)
if [ $have_gnuplot = 1 ]; then
  mkdir -p "$t/tp" && cp "$t/u/run.conf" "$t/tp/"
  python3 - "$t/u/results.csv" "$t/tp/results.csv" <<'PY'
import csv, sys
r = list(csv.reader(open(sys.argv[1]))); c = {k: i for i, k in enumerate(r[0])}
out = [r[0]]
for n in ("1048576", "4194304"):
    for v, g in (("cub", "1e-300" if n == "4194304" else "1000"), ("kahan", "1e10" if n == "4194304" else "900")):
        y = list(r[1]); y[c["experiment"]] = "throughput-vs-n"; y[c["n"]] = n; y[c["variant"]] = v
        y[c["backend"]] = "gpu"; y[c["gbps"]] = g; y[c["family"]] = "anchor" if v == "cub" else "accuracy"
        out.append(y)
csv.writer(open(sys.argv[2], "w"), lineterminator="\n").writerows(out)
PY
  bash "$src/plots/render.sh" -q "$t/tp" 2> "$t/r.err"; rc=$?
  check "an infinite ratio to CUB: render.sh exits 0 (got $rc: $(head -c 200 "$t/r.err"))" test $rc -eq 0
  check "an infinite ratio to CUB: the chart drawn ($(grep -m1 'gnuplot failed' "$t/tp/charts/notes.txt" 2>/dev/null | head -c 300))" \
    bash -c "test -s '$t/tp/charts/throughput_vs_n_f32.svg' && ! grep -q 'gnuplot failed' '$t/tp/charts/notes.txt'"
  check "an infinite ratio to CUB: a note says which is not drawn" \
    grep -q '^throughput_vs_n_f32: no ratio to CUB drawn for kahan at n = 4194304' "$t/tp/charts/notes.txt"
fi
# run.conf
plant "$t/p" dataset uniform
sed -i "s/^preset=.*/preset=x';touch $(printf '%s' "$t" | sed 's/[\/&]/\\&/g')\/PWNED;'/" "$t/p/run.conf"
"$bin" run --report-only -o "$t/p" -q > /dev/null 2> "$t/p.err"; rc=$?
check "run.conf: a hostile preset exits non-zero ($rc: $(head -c 200 "$t/p.err"))" test $rc -ne 0
check "run.conf: nothing ran" test ! -e "$t/PWNED"
# the clean copy still reports (the checks refuse nothing the run itself wrote)
plant "$t/p" dataset uniform
"$bin" run --report-only -o "$t/p" -q 2> "$t/p.err"
check "the tiny run's own files report ($(head -c 200 "$t/p.err"))" test -s "$t/p/report.md"

# ---- 2. compare: formulas in CSV, invalid UTF-8 in JSON -------------------------------------
for v in '=HYPERLINK("http://x.example")' '@SUM(A1)' '+1+cmd' '-2+3' $'\tx'; do
  for d in a b; do plant "$t/c$d" variant serial; sed -i "s/,serial,/,$(printf '%s' "$v" | sed 's/[\/&]/\\&/g'),/" "$t/c$d/results.csv"; done
  "$bin" compare --format csv "$t/ca" "$t/cb" > "$t/cmp.csv" 2> /dev/null
  check "compare csv: '$v' comes out as the field '$v (and no field starts with the formula)" python3 -c '
import csv, sys
v = sys.argv[2]
fields = [f for row in csv.reader(open(sys.argv[1], newline="")) for f in row]
sys.exit(not ("\x27" + v in fields and v not in fields))' "$t/cmp.csv" "$v"
done
for d in a b; do plant "$t/c$d" variant serial; sed -i $'s/,serial,/,\xff\xfe,/' "$t/c$d/results.csv"; done
"$bin" compare --format json "$t/ca" "$t/cb" > "$t/cmp.json" 2> "$t/cmp.err"; rc=$?
check "compare json: invalid UTF-8 exits non-zero (got $rc)" test $rc -ne 0
check "compare json: the message names the field ($(head -c 200 "$t/cmp.err"))" grep -q "field 'variant': not valid UTF-8" "$t/cmp.err"
check "compare json: nothing half-written on stdout" test ! -s "$t/cmp.json"
"$bin" compare --format json "$t/u" "$t/u" > "$t/ok.json" 2> /dev/null
check "compare json of a clean run is JSON" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$t/ok.json"
# terminal control sequences in a name (ESC, and CSI as UTF-8 C1) are shown escaped in the table,
# never sent (they reached stdout as they were); the same rows compared: one key a row
for d in a b; do plant "$t/c$d" variant serial; sed -i $'s/,serial,/,evil\x1b[31mRED\xc2\x9b2J,/' "$t/c$d/results.csv"; done
"$bin" compare "$t/ca" "$t/cb" > "$t/cmp.txt" 2> "$t/cmp.err"; rc=$?
check "compare table with control characters in a name: exit 0 (got $rc)" test $rc -eq 0
check "compare table: no ESC or C1 byte on stdout" python3 -c '
import sys; b = open(sys.argv[1], "rb").read(); sys.exit(b"\x1b" in b or b"\xc2\x9b" in b)' "$t/cmp.txt"
check "compare table: the name shown escaped" grep -qF 'evil\x1b[31mRED\u009b2J' "$t/cmp.txt"
check "compare table: every row matched" grep -q ', 0 only in A, 0 only in B' "$t/cmp.err"
# a key longer than compare holds: bad input (exit 2, the file and row), not "out of memory"
plant "$t/ca" params "$(head -c 1100 /dev/zero | tr '\0' a)"; plant "$t/cb" dataset uniform
"$bin" compare "$t/ca" "$t/cb" > /dev/null 2> "$t/cmp.err"; rc=$?
check "compare with a 1,100-byte params field: exit 2 (got $rc)" test $rc -eq 2
check "compare: the message names the file and row ($(head -c 200 "$t/cmp.err"))" grep -q 'ca/results.csv: data row 2 has a key longer than' "$t/cmp.err"

# ---- 3. a render that cannot write or is killed leaves nothing partial ----------------------
if [ $have_gnuplot = 1 ]; then
  mkdir -p "$t/df/run" "$t/df/tmp"
  cp "$t/u/run.conf" "$t/df/run/"
  # (three families: the scratch copy of the rows fits the limit, each chart, some 30 KB, does not)
  awk -F, 'NR == 1 || ($1 == "accuracy-vs-n" && $6 ~ /^(serial|kahan|pairwise|exact)$/ && $2 ~ /^(uniform|normal|ill-conditioned)$/)' \
    "$t/u/results.csv" > "$t/df/run/results.csv"
  ( ulimit -f 20; TMPDIR=$t/df/tmp bash "$src/plots/render.sh" -q "$t/df/run" ) 2> "$t/df.err"; rc=$?
  check "file size limit: render.sh exits 4 (got $rc: $(head -c 300 "$t/df.err"))" test $rc -eq 4
  check "file size limit: one clear message" bash -c "grep -q 'cannot write .*disk full or file size limit' '$t/df.err' && ! grep -q 'write error' '$t/df.err'"
  check "file size limit: no partial image" test -z "$(find "$t/df/run/charts" -name '.part-*' 2>/dev/null)"
  for f in "$t"/df/run/charts/*.svg; do
    [ -e "$f" ] || continue
    check "file size limit: $(basename "$f") is complete" grep -q '</svg>' "$f"
  done
  check "file size limit: no scratch folder left" test -z "$(ls "$t/df/tmp")"
  # killed part-way (TERM while the charts of the whole tiny run draw)
  mkdir -p "$t/k/tmp"; cp "$t/u/results.csv" "$t/u/run.conf" "$t/k/"
  TMPDIR=$t/k/tmp SUMLAB_THREADS=2 bash "$src/plots/render.sh" -q "$t/k" 2> /dev/null & pid=$!
  for _ in $(seq 50); do [ -n "$(ls "$t/k/tmp")" ] && break; sleep 0.1; done
  sleep 0.5; kill -TERM "$pid"; wait "$pid"; rc=$?
  check "killed: render.sh exits 143 or finished first (got $rc)" bash -c "[ $rc -eq 143 ] || [ $rc -eq 0 ]"
  check "killed: no scratch folder left" test -z "$(ls "$t/k/tmp")"
  check "killed: no partial image" test -z "$(find "$t/k/charts" -name '.part-*' 2>/dev/null)"
fi

# ---- batch_invariance.md: the report takes the experiment's own table, never a planted file -----
mkdir -p "$t/bi"; cp "$t/u/results.csv" "$t/u/run.conf" "$t/u/meta.json" "$t/bi/"
printf '%s\n' 'secret-line-outside' > "$t/outside.md"
ln -s "$t/outside.md" "$t/bi/batch_invariance.md"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/bi" -q 2> /dev/null
check "batch_invariance.md as a link: not followed into the report" bash -c "! grep -q secret-line-outside '$t/bi/report.md'"
rm "$t/bi/batch_invariance.md"
printf '%s\n' '# Batch invariance' '| op | <script>alert(1)</script> | [x](javascript:alert(1)) |' > "$t/bi/batch_invariance.md"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/bi" -q 2> /dev/null
check "batch_invariance.md with markup: left out of the report" bash -c "! grep -q 'script\|javascript' '$t/bi/report.md' && ! grep -q '^## Batch invariance' '$t/bi/report.md'"
printf '%s\n' '# Batch invariance' '| op | variant |' '|---|---|' '| sum | reproducible |' > "$t/bi/batch_invariance.md"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/bi" -q 2> /dev/null
check "batch_invariance.md of the generator's form: a section of the report" bash -c "grep -q '^## Batch invariance' '$t/bi/report.md' && grep -q '| sum | reproducible |' '$t/bi/report.md'"

# ---- anchors/anchors.csv (study_anchors.py): names and numbers only, never a planted file ---------
mkdir -p "$t/an/anchors"; cp "$t/u/results.csv" "$t/u/run.conf" "$t/u/meta.json" "$t/an/"
hdr='dataset,params,dtype,n,seed,anchor,reps,distinct,min_hex,max_hex,spread_ulps,ulps_max,cond,exact_sum_hex'
printf '%s\n' "$hdr" 'normal,"mean=0,sigma=1",f32,1024,7,torch.sum(cuda;det=off),20,3,0x1p+0,0x1.000002p+0,2,1.5,12.5,0x1p+0' > "$t/an/anchors/anchors.csv"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/an" -q 2> /dev/null
check "anchors.csv of the script's form: a section of the report" bash -c "grep -q '^## Repeatability of the frameworks' '$t/an/report.md' && grep -qF '| torch.sum(cuda;det=off) | 1 | 20 | **1** | 3 | 2 | 1.5 | 1.5 | normal (mean=0,sigma=1) |' '$t/an/report.md' && grep -qF '| normal | 12.5 | 1.5 (**3**, 2) |' '$t/an/report.md'"
printf '%s\n' "$hdr" 'normal,,f32,1024,7,<img src=x onerror=alert(1)>,20,3,0x1p+0,0x1p+0,0,0,1,0x1p+0' > "$t/an/anchors/anchors.csv"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/an" -q 2> /dev/null
check "anchors.csv with markup: left out of the report" bash -c "! grep -q 'onerror' '$t/an/report.md' && grep -q 'anchors.csv. was left out' '$t/an/report.md'"
rm -r "$t/an/anchors"; mkdir -p "$t/outside-anchors"
printf '%s\n' "$hdr" 'secret-dataset,,f32,1024,7,numpy.sum,20,1,0x1p+0,0x1p+0,0,0,1,0x1p+0' > "$t/outside-anchors/anchors.csv"
ln -s "$t/outside-anchors" "$t/an/anchors"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/an" -q 2> /dev/null
check "anchors folder as a link: not followed into the report" bash -c "! grep -q secret-dataset '$t/an/report.md'"

# ---- anchors.csv (anchors.py), read by no check: its names are escaped in their table cells ------
mkdir -p "$t/ap"; cp "$t/u/results.csv" "$t/u/run.conf" "$t/u/meta.json" "$t/ap/"
printf '%s\n' 'experiment,dataset,params,dtype,n,instance,seed,anchor,library,result_hex,exact_sum_hex,ulps' \
  "accuracy-vs-n,uniform,,f32,1024,0,7,a|b <script>alert(1)</script> [x](javascript:alert(1)),lib"$'\r'"x \`c|d\`,0x1p+0,0x1p+0,0.5" \
  > "$t/ap/anchors.csv"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/ap" -q 2> /dev/null
check "anchors.csv's names with markup, '|' and CR: escaped, the row on one line with its 6 cells" \
  grep -qxF '| a\|b \<script\>alert(1)\</script\> \[x\](javascript:alert(1)) | lib x `c\|d` | 1 | 0.5 | 0.5 | 0 |' "$t/ap/report.md"

# more than 64 anchors of one format: each has its row (the 65th and later were left out without a word)
{ printf '%s\n' 'experiment,dataset,params,dtype,n,instance,seed,anchor,library,result_hex,exact_sum_hex,ulps'
  for k in $(seq 0 69); do printf 'accuracy-vs-n,uniform,,f32,1024,0,7,anchor%d,lib,0x1p+0,0x1p+0,0.5\n' "$k"; done; } > "$t/ap/anchors.csv"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/ap" -q 2> /dev/null
check "70 anchors of f32: a row each ($(grep -c '^| anchor[0-9]* |' "$t/ap/report.md") rows)" \
  bash -c "test \$(grep -c '^| anchor[0-9]* | lib | 1 | 0.5 | 0.5 | 0 |$' '$t/ap/report.md') -eq 70 && grep -q '^| anchor69 |' '$t/ap/report.md'"

echo "thostile: $checks checks, $fails failed"
[ $fails -eq 0 ]

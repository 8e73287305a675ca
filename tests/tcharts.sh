#!/usr/bin/env bash
# tcharts.sh: the study as a paper needs it (issue 36), end to end on the CPU backend: points of
# several instances drawn as a median with a min-max band and tabled as median [min-max] per n;
# the full preset's accuracy sweeps run at least 5 instances per point; from the SVGs: colours
# by variant name equal across runs, the key outside the plot areas, markers for exact-zero and
# non-finite results, no anchors panel holding only `exact` (tcharts_svg.py); bound tightness
# (an ECDF of |error| / bound per variant, a planted violation counted; its table in the report: rows,
# exact results, median, 90th percentile, max, violations), the probabilistic bound
# in accuracy-vs-n, accuracy-vs-cond's errors past 1 drawn at 1.
#   usage: tcharts.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tcharts.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
[ -x "$bin" ] || { echo "tcharts: $bin is not an executable" >&2; exit 1; }
export SUMLAB_PLOTS_DIR=$src/plots
t=$(mktemp -d "${TMPDIR:-/tmp}/tcharts.XXXXXX")
trap 'rm -rf "$t"' EXIT
fails=0 checks=0
check() { # description command...
  local d=$1; shift
  checks=$((checks + 1))
  "$@" || { fails=$((fails + 1)); echo "FAIL: $d" >&2; }
}
# awk over results.csv by column name: col NAME
inst_of() { # dir experiment -> the distinct `instances` values of its rows
  awk -F, -v e="$2" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1==e{print $c["instances"]}' "$1/results.csv" | sort -u | tr '\n' ' '
}
have_gp=0; command -v gnuplot >/dev/null 2>&1 && have_gp=1

# ---- statistics over instances ------------------------------------------------------------
"$bin" run accuracy-vs-n --preset tiny --backend cpu --seeds 3 --datasets uniform --dtype f32 \
  --variants serial,kahan,pairwise -o "$t/r3" -q 2> "$t/r3.err"
check "run --seeds 3 exits 0 ($(head -c 300 "$t/r3.err"))" test -s "$t/r3/results.csv"
check "report: a table by n per family and dtype, with the instances" \
  grep -q '^### accuracy-vs-n, uniform, f32, 3 instances per point' "$t/r3/report.md"
check "report: the n table's columns are the sizes (2^10, 2^12)" grep -q '^| variant | 2^10 | 2^12 |$' "$t/r3/report.md"
check "report: n table cells are median [min-max] over the instances" \
  grep -qE '^\| serial \| [0-9.e+-]+ \[[0-9.e+-]+-[0-9.e+-]+\] \| [0-9.e+-]+ \[[0-9.e+-]+-[0-9.e+-]+\] \|$' "$t/r3/report.md"
# the median of serial at n = 1024 is the middle of its three instances' ulps
want=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1=="accuracy-vs-n" && $c["variant"]=="serial" && $c["n"]==1024 {print $c["ulps"]}' \
  "$t/r3/results.csv" | sort -g | sed -n 2p)
got=$(awk -F'|' '/^### accuracy-vs-n, uniform, f32/{f=1} f && /^\| serial \|/{split($3, a, " "); print a[1]; exit}' "$t/r3/report.md")
check "report: serial's n = 2^10 cell is its median instance ($got vs $want)" \
  awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.006 * b) }'
"$bin" run accuracy-vs-n --preset tiny --backend cpu --datasets uniform --dtype f32 \
  --variants serial,kahan,pairwise -o "$t/r1" -q 2> "$t/r1.err"
check "report: one instance, cells without a range" bash -c "grep -q '^### accuracy-vs-n, uniform, f32, 1 instance per point' '$t/r1/report.md' && ! grep -qE '^\| serial \| .*\[' '$t/r1/report.md'"
if [ "$have_gp" = 1 ]; then
  svg=$t/r3/charts/error_vs_n_uniform__f32.svg
  check "chart of 3 instances drawn" test -s "$svg"
  check "chart title says median and band" grep -q '3 instances per point (median, min-max band)' "$svg"
  # a band: a translucent polygon per series line (kahan, pairwise, serial; two drawn as one line share one)
  check "chart: a min-max band per series line" python3 "$src/tests/tcharts_svg.py" bandcount "$svg"
  # one line per series: as many points on a series' path as there are sizes (not 3 per n)
  np=$(awk '/<title>serial<\/title>/{f=1} f && /<path/{print; exit}' "$svg" | grep -o 'L[0-9.]*,' | wc -l)
  check "chart: serial's median line has one vertex per n, not one per instance ($np)" test "$np" -eq 2
  check "chart of 1 instance: no band" bash -c "! grep -q 'fill-opacity' '$t/r1/charts/error_vs_n_uniform__f32.svg'"
  # a point where some instances are exact and others not: the band spans the nonzero errors, the
  # exact instances are markers at the bottom edge (no band down to the edge)
  "$bin" run accuracy-vs-n --preset tiny --backend cpu --seeds 5 --datasets cancellation --dtype f32 \
    -o "$t/c5" -q 2> /dev/null
  mixed=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1=="accuracy-vs-n" && $c["status"]=="ok" && $c["abs_err"]!="" {
      k=$c["variant"] SUBSEP $c["n"]; if ($c["abs_err"]+0 == 0) z[k]=1; else p[k]=1 }
    END { for (k in z) if (k in p) m++; print m+0 }' "$t/c5/results.csv")
  check "cancellation, 5 instances: some point mixes exact and inexact instances ($mixed)" test "$mixed" -gt 0
  check "no min-max band reaches the bottom edge" python3 "$src/tests/tcharts_svg.py" bands "$t/c5/charts/error_vs_n_cancellation__f32.svg"
  check "exact instances of a mixed point: markers at the bottom edge" \
    python3 "$src/tests/tcharts_svg.py" markers zero "$t/c5/charts/error_vs_n_cancellation__f32.svg"
fi

# ---- figures: colours by name, key below the plots, markers, no anchors panel of `exact` ---
if [ "$have_gp" = 1 ]; then
  svgpy=$src/tests/tcharts_svg.py
  "$bin" run accuracy-vs-n --preset tiny --backend cpu --datasets uniform,cancellation,overflow --dtype f32 -o "$t/all" -q 2> /dev/null
  "$bin" run accuracy-vs-n --preset tiny --backend cpu --datasets uniform --dtype f32 --variants vec4,kahan,serial,atomic-thread \
    -o "$t/some" -q 2> /dev/null
  check "colour and point type by variant name, equal in two runs with other variant lists" \
    python3 "$svgpy" colours "$t/all/charts/error_vs_n_uniform__f32.svg" "$t/some/charts/error_vs_n_uniform__f32.svg"
  check "no key entry inside or above a plot area" python3 "$svgpy" legend "$t"/all/charts/error_vs_*.svg "$t"/r3/charts/error_vs_*.svg
  check "y tick labels only left of the first panel (shared y range)" \
    python3 "$svgpy" yticks "$t"/all/charts/error_vs_*.svg
  check "key entries at most 8 pt (long bound labels stay within their panel's key)" \
    python3 "$svgpy" keyfont "$t"/all/charts/error_vs_*.svg
  check "exact-zero results: markers at the bottom edge, with a key entry" \
    python3 "$svgpy" markers zero "$t/all/charts/error_vs_n_cancellation__f32.svg"
  check "non-finite results: markers at the top edge, with a key entry" \
    python3 "$svgpy" markers nf "$t/all/charts/error_vs_n_overflow__f32.svg"
  check "no floor line drawn as a series" bash -c "! grep -q 'floor .*error 0 drawn here' '$t/all/charts/error_vs_n_cancellation__f32.svg'"
  check "CPU backend: no anchors panel holding only exact (and a note says so)" \
    bash -c "! grep -q '>anchors (' '$t/all/charts/error_vs_n_uniform__f32.svg' && grep -q 'holds only exact' '$t/all/charts/notes.txt'"
fi

# ---- charts in the order of the tables (datasets in registry order, not by name) ------------
if [ "$have_gp" = 1 ]; then
  tabs=$(sed -n 's/^### accuracy-vs-n, \([^,]*\), f32, .*/\1/p' "$t/all/report.md" | tr '\n' ' ')
  figs=$(sed -n 's/^!\[error_vs_n_\(.*\)__f32\].*/\1/p' "$t/all/report.md" | tr '\n' ' ')
  check "report: error_vs_n charts in the order of the tables (tables: $tabs; charts: $figs)" \
    bash -c "[ -n '$figs' ] && [ '$figs' = \"\$(for d in $tabs; do [ ! -e '$t/all/charts/error_vs_n_'\$d'__f32.png' ] || printf '%s ' \$d; done)\" ]"
fi

# ---- each chart beside the table it illustrates (issue 36: charts in the order of the tables) --
if [ "$have_gp" = 1 ]; then
  # every error_vs_n chart of the run, under its own table's heading (### accuracy-vs-n, DS, DT, ...)
  beside=$(awk '/^### / { h = $0 }
    /^!\[error_vs_n_/ { s = $0; sub(/^!\[error_vs_n_/, "", s); sub(/\].*/, "", s); split(s, a, "__"); n++
      if (index(h, "### accuracy-vs-n, " a[1] ", " a[2] ",") == 1) ok++; else print "misplaced: " s " under " h }
    END { if (!n) print "no error_vs_n chart in report.md"; else if (ok != n) print ok + 0 " of " n " beside their table" }' "$t/all/report.md")
  check "report: each error_vs_n chart right under its table (${beside:-all})" test -z "$beside"
  nch=$(ls "$t/all/charts/"error_vs_n_*.png 2> /dev/null | wc -l)
  check "report: each error_vs_n chart shown once ($nch PNGs)" \
    test "$(grep -c '^!\[error_vs_n_' "$t/all/report.md")" = "$nch"
fi

# ---- bound tightness: ECDF of |error| / bound per variant; the probabilistic bound; clipping ---
if [ "$have_gp" = 1 ]; then
  tsvg=$t/all/charts/tightness_f32.svg
  check "tightness chart drawn" test -s "$tsvg"
  # its variants: those with a finite positive bound in the accuracy rows, colours as in the error chart
  want=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1 ~ /^accuracy-/ && $c["status"]=="ok" && $c["bound_ratio"] !~ /^$|inf|nan/ && $c["bound_abs"] !~ /^$|inf|nan/ && $c["bound_abs"]+0 > 0 {print $c["variant"]}' \
    "$t/all/results.csv" | sort -u | tr '\n' ' ')
  got=$(grep -o '<title>[^<]*</title>' "$tsvg" | sed 's/<[^>]*>//g' | grep -v '^gnuplot_plot\|^Gnuplot' | sort -u | tr '\n' ' ')
  check "tightness: one ECDF per variant with a bound ($got vs $want)" test -n "$want" -a "$got" = "$want"
  # its table in the report: per variant rows, exact results, median, 90th percentile, max, over the
  # bound, from the same rows (serial's recomputed here), the chart under it, a LaTeX copy
  want=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1 ~ /^accuracy-/ && $c["status"]=="ok" && $c["variant"]=="serial" && $c["dtype"]=="f32" &&
      $c["bound_ratio"] !~ /^$|inf|nan/ && $c["bound_abs"] !~ /^$|inf|nan/ && $c["bound_abs"]+0 > 0 && $c["exact_hex"] !~ /^$|inf|nan/ {
      print $c["bound_ratio"]+0 }' "$t/all/results.csv" | sort -g | awk '{ v[++n] = $1; z += ($1 == 0); o += ($1 > 1) }
      END { m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; k = int(0.9 * n); if (k < 0.9 * n) k++
            printf "%d %d %.3g %.3g %.3g %d\n", n, z, m, v[k], v[n], o }')
  got=$(awk -F'|' '/^### sum, f32, \|error\| \/ bound/{f=1} f && /^\| serial \|/{ printf "%d %d %.3g %.3g %.3g %d\n", $3, $4, $5, $6, $7, $8; exit }' "$t/all/report.md")
  check "report: tightness table, serial's row from its rows (got '$got', want '$want')" test -n "$want" -a "$got" = "$want"
  beside=$(awk '/^### / { h = $0 } /^!\[tightness_f32\]/ { print h }' "$t/all/report.md")
  check "report: the tightness chart under its table ($beside)" test "$beside" = "### sum, f32, |error| / bound"
  check "report: the tightness table as LaTeX" grep -q 'serial' "$t/all/tables/bound_sum-f32-error-bound.tex"
  check "tightness: colours by variant name, as in the error chart" \
    python3 "$svgpy" colours-only "$tsvg" "$t/all/charts/error_vs_n_uniform__f32.svg"
  # a planted violation: one serial row at 5x its bound, one accuracy-vs-cond row 1e5 off
  mkdir -p "$t/viol"
  awk -F, -v OFS=, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;print;next}
    !done && $1=="accuracy-vs-n" && $c["variant"]=="serial" && $c["dataset"]=="uniform" && $c["bound_rel"]+0 > 0 {
      $c["bound_ratio"]=5; $c["rel_err"]=5*$c["bound_rel"]; done=1 } {print}' "$t/all/results.csv" > "$t/viol/results.csv"
  bash "$src/plots/render.sh" -q "$t/viol"
  check "tightness: a variant over its bound is counted in its key entry" grep -q '<title>serial (1 over)</title>' "$t/viol/charts/tightness_f32.svg"
  check "tightness: and its title counts the rows over the bound" grep -q '1 over the bound)' "$t/viol/charts/tightness_f32.svg"
  check "tightness: no variant over the bound in the real run" bash -c "! grep -q ' over)</title>' '$tsvg'"
  check "accuracy-vs-n: the probabilistic bound beside the worst-case ones" \
    grep -q '<title>probabilistic bound √n·u·cond</title>' "$t/all/charts/error_vs_n_uniform__f32.svg"
  "$bin" run accuracy-vs-cond --preset tiny --backend cpu --dtype f32 --variants serial,kahan -o "$t/cond" -q 2> /dev/null
  csvg=$t/cond/charts/error_vs_cond_f32.svg
  check "accuracy-vs-cond: errors past 1 drawn at 1 (a line at 1, the y label says so)" \
    bash -c "grep -q 'relative error 1 (larger errors drawn at 1)' '$csvg' && grep -q 'clipped at 1' '$csvg'"
  nbig=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1=="accuracy-vs-cond" && $c["status"]=="ok" && $c["exact_hex"] !~ /^-?0x0p\+0$/ && $c["rel_err"] !~ /inf|nan/ && $c["rel_err"]+0 > 1' "$t/cond/results.csv" | wc -l)
  check "accuracy-vs-cond: the title counts the errors drawn at 1 ($nbig rows > 1)" \
    bash -c "[ $nbig = 0 ] && ! grep -q 'drawn at 1)  *(' '$csvg' || grep -q '($nbig errors > 1 drawn at 1)' '$csvg'"
  check "accuracy-vs-cond: no probabilistic bound line (it is for accuracy-vs-n)" bash -c "! grep -q 'probabilistic bound' '$csvg'"
  # several instances: a point per target cond (x the median of the instances' measured cond),
  # median line and band, not one vertex per instance joined in x order (a zigzag)
  "$bin" run accuracy-vs-cond --preset tiny --backend cpu --dtype f32 --seeds 3 --variants serial,kahan -o "$t/cond3" -q 2> /dev/null
  ntg=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1=="accuracy-vs-cond" && $c["variant"]=="serial" {print $c["sweep_value"]}' "$t/cond3/results.csv" | sort -u | wc -l)
  check "accuracy-vs-cond, 3 instances: serial's median line has one vertex per target cond ($ntg), x increasing" \
    python3 "$svgpy" monotone serial "$ntg" "$t/cond3/charts/error_vs_cond_f32.svg"
  check "accuracy-vs-cond, 3 instances: min-max bands" grep -q "fill-opacity = '0.18" "$t/cond3/charts/error_vs_cond_f32.svg"
  # the report: the cond chart under its dtype's table of the sweeps section
  beside=$(awk '/^## / { sec = $0 } /^### / { h = $0 } /^!\[error_vs_cond_f32\]/ { print sec " / " h }' "$t/cond/report.md")
  check "report: error_vs_cond_f32 under the accuracy-vs-cond f32 table ($beside)" \
    bash -c "grep -q '^## Sweeps.* / ### accuracy-vs-cond, f32, ' <<< '$beside'"
fi

# ---- throughput: a ratio-to-CUB panel for n >= 2^20 (the committed full study's rows) -------
# (experiments/measured/MACHINE-COMMIT-study: the one whose data is kept)
study=$(dirname "$(ls "$src"/experiments/measured/*-study/results.csv.gz 2>/dev/null | tail -1)")
if [ "$have_gp" = 1 ] && [ -f "$study/results.csv.gz" ]; then
  mkdir -p "$t/tp"
  gzip -dc "$study/results.csv.gz" | awk -F, 'NR == 1 || $1 == "throughput-vs-n"' > "$t/tp/results.csv"
  bash "$src/plots/render.sh" -q "$t/tp"
  svg=$t/tp/charts/throughput_vs_n_f32.svg
  check "throughput chart has the ratio-to-CUB panel" grep -q "GB/s / CUB's at the same n" "$svg"
  # ratios far off CUB (atomic-thread, serial ...): triangles at the panel's edge, ranges in the key
  awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["dtype"]=="f32" && $c["backend"]=="gpu" && $c["status"]=="ok" && $c["n"]+0 >= 1048576 {
      g[$c["variant"], $c["n"]] = $c["gbps"]; if (!($c["variant"] in seen)) { seen[$c["variant"]] = 1; vs[++nv] = $c["variant"] } ns[$c["n"]] = 1 }
    END { for (i = 1; i <= nv; i++) for (n in ns) { v = vs[i]; if (v == "cub" || v == "read-ceiling" || !((v, n) in g) || !(("cub", n) in g)) continue
      print v, n, g[v, n] / g["cub", n] } }' "$t/tp/results.csv" > "$t/tp/f32.rat"
  check "throughput: ratios below 0.5 drawn as triangles at the ratio panel's edge, none over another, ranges in the key" \
    python3 "$svgpy" offscale "$svg" "$t/tp/f32.rat"
  # every GPU variant and anchor of the study: no two share a colour (cub-gpu-to-gpu, not in the
  # fixed table, hashed onto smem-sequential's green and point type)
  check "throughput: distinct colours for all the study's variants, equal in the f32 and f64 charts" \
    python3 "$svgpy" colours "$svg" "$t/tp/charts/throughput_vs_n_f64.svg"
  check "throughput: the title names the input family (uniform)" grep -Eq 'f32 input \(uniform[;)]' "$svg"
  # a framework's series timed on its own input (throughput_torch.py: normal) is named apart
  if awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["family"]=="pytorch"{f=1} END{exit !f}' "$t/tp/results.csv"; then
    check "throughput: torch.sum's input named apart in the title, not as a family of the variants" \
      bash -c "grep -q 'f32 input (uniform; torch.sum on normal)' '$svg'"
  fi
  # the same rows as an lse study's on logits (the chart reads rows, not the registry): its title
  # names logits, its read ceiling drawn
  mkdir -p "$t/tpl"
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    { $c["dataset"] = "logits"; $c["params"] = "sigma=3;shift=0;dominant=0"; $c["op"] = "lse"; print }' \
    "$t/tp/results.csv" > "$t/tpl/results.csv"
  bash "$src/plots/render.sh" -q "$t/tpl"
  check "throughput of lse's logits rows: the chart names logits and draws the read ceiling" \
    bash -c "grep -Eq 'f32 input \\(logits[;)]' '$t/tpl/charts/throughput_vs_n_f32.svg' && grep -q 'read ceiling' '$t/tpl/charts/throughput_vs_n_f32.svg'"
fi

# ---- equal series: one band (the full study's bf16 rows: the float-accumulating variants agree) --
# (a committed study of several instances per accuracy point: bands are drawn only then)
mstudy=
for d in "$src"/experiments/measured/*-study; do
  [ -f "$d/results.csv.gz" ] || continue
  k=$(gzip -dc "$d/results.csv.gz" | awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1=="accuracy-vs-n" && ("instances" in c) {print $c["instances"]+0; exit}')
  [ "${k:-0}" -gt 1 ] && mstudy=$d
done
if [ "$have_gp" = 1 ] && [ -n "$mstudy" ]; then
  mkdir -p "$t/eq"
  gzip -dc "$mstudy/results.csv.gz" | awk -F, 'NR == 1 || ($1 == "accuracy-vs-n" && (($2 == "alternating" && $4 == "bf16") || ($2 == "uniform" && $4 == "f64") || ($2 == "normal" && $4 == "f16")))' > "$t/eq/results.csv"
  bash "$src/plots/render.sh" -q "$t/eq"
  check "bands of series with equal data drawn once (not stacked opaque)" \
    python3 "$svgpy" bands-distinct "$t/eq/charts/error_vs_n_alternating__bf16.svg"
  # normal f16: the float-accumulating variants have equal medians but not equal ranges: one band
  # for them, in the colour of the line on top, over all their ranges
  check "series drawn as one line share one band, in the colour of the line seen" \
    python3 "$svgpy" bands-distinct "$t/eq/charts/error_vs_n_normal__f16.svg"
  # and one key entry for them, in the colour of the line seen, naming the others (not 13 entries)
  check "series drawn as one line: one key entry naming them (normal f16)" \
    python3 "$svgpy" keymerge "$t/eq/charts/error_vs_n_normal__f16.svg"
  check "series drawn as one line: one key entry naming them (alternating bf16)" \
    python3 "$svgpy" keymerge "$t/eq/charts/error_vs_n_alternating__bf16.svg"
  # uniform f64: 10 distinct bands in the ladder panel, their opacities shared (10 x 0.18 hid the lines)
  check "a panel of many bands: their opacities add up to about half at most" \
    python3 "$svgpy" bands-distinct "$t/eq/charts/error_vs_n_uniform__f64.svg"
fi

# ---- tradeoff: points drawn over each other numbered, the key naming each cluster (the H200
# study's f32 rows: kahan, fp64-acc, superacc and reproducible at one spot) ---------------------
if [ "$have_gp" = 1 ] && [ -n "$mstudy" ]; then
  mkdir -p "$t/to"
  gzip -dc "$mstudy/results.csv.gz" | awk -F, 'NR == 1 || $1 == "tradeoff"' > "$t/to/results.csv"
  bash "$src/plots/render.sh" -q "$t/to"
  tsv=$t/to/charts/tradeoff_f32.svg
  ncl=$(grep -c '<title>([0-9]*) [a-z]' "$tsv")
  check "tradeoff: clusters of points drawn over each other named in the key ($ncl)" \
    bash -c "[ $ncl -ge 1 ] && grep -q '<title>drawn over each other</title>' '$tsv' && grep -q '<title>([0-9]) [^<]*superacc[^<]*reproducible' '$tsv'"
  check "tradeoff: each cluster numbered beside its points" \
    test "$(grep -c '<tspan[^>]*>([0-9]*)</tspan>' "$tsv")" = "$ncl"
fi

# ---- gaps and single points (the H200 study's f16 rows: sorted-inc has no finite exact sum at
# 2^14, log-uniform has finite errors at 2^14 only) -----------------------------------------
if [ "$have_gp" = 1 ] && [ -n "$mstudy" ]; then
  mkdir -p "$t/gap"
  gzip -dc "$mstudy/results.csv.gz" | awk -F, 'NR == 1 || ($1 == "accuracy-vs-n" && ($2 == "sorted-inc" || $2 == "log-uniform") && $4 == "f16")' > "$t/gap/results.csv"
  bash "$src/plots/render.sh" -q "$t/gap"
  gsvg=$t/gap/charts/error_vs_n_sorted-inc__f16.svg
  # no series has a point at 2^14 (no instance's exact sum is finite there): a series drawn on both
  # sides is its key sample and two pieces (2^10-2^12, 2^16-2^18), not one line across the gap;
  # the most moves of any series' path (joined, every one would have 2)
  nm=$(awk '/<title>/ { t = $0; sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t)
                        f = (t !~ /^(bound:|gnuplot_|Gnuplot)/); next }
            f && /<path stroke/ { k = gsub(/M/, "M"); if (k > m) m = k; f = 0 }
            END { print m + 0 }' "$gsvg")
  check "a series is not joined across a size of the sweep it has no point at ($nm moves)" test "$nm" -ge 3
  nb=$(awk '/<title>/ { t = $0; sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t); f = (t ~ /^bound:/); next }
            f && /<path stroke/ { k = gsub(/M/, "M"); if (k > m) m = k; f = 0 }
            END { print m + 0 }' "$gsvg")
  check "a bound line is not joined across that size either ($nb moves)" test "$nb" -ge 3
  check "a chart of one size with finite errors: not drawn, a note says so" \
    bash -c "[ ! -e '$t/gap/charts/error_vs_n_log-uniform__f16.svg' ] && grep -q 'log-uniform__f16: finite errors at one n only' '$t/gap/charts/notes.txt'"
fi

# ---- markers and bounds: the H200 study's cancellation and overflow rows (16-bit: variants whose
# results are all Inf, all exact or both at one n; bounds of +inf where k u >= 1) -------------
if [ "$have_gp" = 1 ] && [ -n "$mstudy" ]; then
  mkdir -p "$t/mk"
  gzip -dc "$mstudy/results.csv.gz" | awk -F, 'NR == 1 || ($1 == "accuracy-vs-n" && ($2 == "cancellation" || $2 == "overflow" || $2 == "absorption"))' > "$t/mk/results.csv"
  bash "$src/plots/render.sh" -q "$t/mk"
  # series merged into one key entry are those drawn alike, markers included: the marker seen
  # at a spot is never of a series merged away (cancellation f16 merged exact's zeros with
  # cub's Inf results as 'exact = cub', the crosses in cub's colour named by no entry)
  check "error charts: every exact-zero or non-finite marker seen is of a series with a key entry" \
    python3 "$src/tests/tcharts_svg.py" marktop "$t/mk/charts/"error_vs_n_*.svg
  # a variant with a finite error and a bound of +inf at some n: its bound's key entry (where it
  # names it first) says where (∞), none is silent; the variants from the rows themselves
  inf=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["status"]=="ok" && $c["rel_err"] !~ /inf|nan/ && $c["exact_hex"] !~ /inf|nan/ && $c["exact_hex"] !~ /^-?0x0p[+]0$/ && $c["bound_rel"] ~ /^[+]?inf/ {print $2 "__" $4, $c["variant"]}' "$t/mk/results.csv" | sort -u)
  ninf=0; nsilent=0
  while read -r g v; do
    f=$t/mk/charts/error_vs_n_$g.svg; [ -s "$f" ] || continue
    e=$(grep -o "<title>bound: $v[ <][^<]*" "$f" | head -1) || :
    [ -n "$e" ] || continue
    ninf=$((ninf + 1)); case $e in *∞*) ;; *) nsilent=$((nsilent + 1)); echo "tcharts: $g: '${e#<title>}' says nothing of its +inf bounds" >&2 ;; esac
  done <<< "$inf"
  check "error charts: a bound of +inf named in its key entry ($ninf entries, $nsilent silent)" test "$ninf" -gt 0 -a "$nsilent" = 0
fi

# ---- distribution charts: x tick labels apart (1e15-ulp offsets of ill-conditioned float64) -----
if [ "$have_gp" = 1 ] && [ -n "$mstudy" ] && [ -f "$mstudy/distribution.csv.gz" ]; then
  mkdir -p "$t/dist"
  gzip -dc "$mstudy/results.csv.gz" | awk -F, 'NR == 1 || $1 == "determinism"' > "$t/dist/results.csv"
  cp "$mstudy/distribution.csv.gz" "$t/dist/"
  bash "$src/plots/render.sh" -q "$t/dist"
  check "distribution charts drawn ($(ls "$t/dist/charts/"distribution_*.svg 2> /dev/null | wc -l))" \
    test -s "$t/dist/charts/distribution_ill-conditioned__f64.svg"
  check "distribution charts: no colliding x tick labels" python3 "$svgpy" xticks "$t/dist/charts/"distribution_*.svg
fi

# ---- --figures paper: PDF beside PNG/SVG, a one-panel chart 3.5 inches wide; --variants ------
bad_rc=0; "$bin" run accuracy-vs-n --preset tiny --backend cpu --figures poster -o "$t/bad" -q 2> "$t/bad.err" || bad_rc=$?
check "--figures poster: exit 2, one line ($(head -c 200 "$t/bad.err"))" bash -c "[ $bad_rc = 2 ] && [ \$(grep -c . '$t/bad.err') = 1 ]"
if [ "$have_gp" = 1 ] && gnuplot -e 'set terminal pdfcairo' > /dev/null 2>&1; then
  "$bin" run accuracy-vs-n --preset tiny --backend cpu --datasets uniform --dtype f32 --variants kahan,pairwise \
    --figures paper -o "$t/paper" -q 2> /dev/null
  pdf=$t/paper/charts/error_vs_n_uniform__f32.pdf
  check "paper: a PDF beside the PNG and SVG" bash -c "head -c 5 '$pdf' | grep -q '%PDF-' && tail -c 32 '$pdf' | grep -q '%%EOF' && test -s '${pdf%.pdf}.png'"
  # one panel (accuracy: kahan, pairwise; the anchors panel of exact alone is not drawn): 3.5 in = 252 pt
  w=$(grep -a -o 'MediaBox \[ 0 0 [0-9.]*' "$pdf" | head -1 | awk '{print $NF}')
  check "paper: a one-panel chart is a 3.5-inch column wide ($w pt)" awk -v w="$w" 'BEGIN { exit !(w >= 250 && w <= 254) }'
  check "paper: report links the PDF" grep -qF '[PDF](charts/error_vs_n_uniform__f32.pdf)' "$t/paper/report.md"
  "$bin" run --report-only --figures paper --variants kahan -o "$t/paper" -q 2> /dev/null
  check "paper, --report-only --variants kahan: pairwise no longer drawn" \
    bash -c "grep -q '<title>kahan</title>' '${pdf%.pdf}.svg' && ! grep -q '<title>pairwise</title>' '${pdf%.pdf}.svg' && test -s '$pdf'"
  "$bin" run --report-only -o "$t/paper" -q 2> /dev/null
  check "screen figures again: no PDF left" test ! -e "$pdf"
fi

# ---- report.html: gnuplot's repeated group attributes shared as CSS classes -----------------
if [ "$have_gp" = 1 ] && [ -s "$t/all/report.html" ]; then
  check "report.html: group styles shared (.sgN classes), none repeated inline" \
    bash -c "grep -q '<style>.sg0{' '$t/all/report.html' && grep -q '<g class=\"sg' '$t/all/report.html' && ! grep -q '<g fill=\"none\" color=' '$t/all/report.html'"
  check "report.html: smaller than its SVGs together" \
    bash -c "[ \$(wc -c < '$t/all/report.html') -lt \$(cat '$t'/all/charts/*.svg | wc -c) ]"
fi

# ---- the anchors (study_anchors.py's anchors/anchors.csv; tests/data/study_anchors.csv: the
# committed study's inputs, eight frameworks, made-up figures): tables per framework and per
# input, and the chart of errors and distinct results ---------------------------------------
if [ -s "$t/all/results.csv" ]; then
  mkdir -p "$t/all/anchors"; cp "$src/tests/data/study_anchors.csv" "$t/all/anchors/anchors.csv"
  "$bin" run --report-only -o "$t/all" -q 2> /dev/null
  af=$src/tests/data/study_anchors.csv
  sec=$(awk '/^## Repeatability of the frameworks/{f=1; next} /^## /{f=0} f' "$t/all/report.md")
  nfw=$(awk -F, 'NR>1{print $6}' "$af" | sort -u | wc -l); nin=$(awk -F, 'NR>1{print $1}' "$af" | sort -u | wc -l)
  check "anchors: a row per framework ($nfw)" test "$(grep -c '^| [a-z.]*sum[^|]* | [0-9]* | 20 |' <<< "$sec")" = "$nfw"
  # jax.numpy.sum(f32;x64=off): inputs whose repetitions gave more than one result, and the most
  want=$(awk -F, 'NR>1 && $6=="jax.numpy.sum(f32;x64=off)" { if ($8 > 1) k++; if ($8 > m) m = $8 } END { printf "**%d** | %d", k, m }' "$af")
  check "anchors: jax x64=off's inputs with more than one result and most distinct ($want)" \
    grep -qF "| jax.numpy.sum(f32;x64=off) | $nin | 20 | $want |" <<< "$sec"
  check "anchors: a row per input ($nin), a column per framework" \
    test "$(awk '/^### Per input/{f=1} f && /^\| [a-z]/ && !/^\| input/' <<< "$sec" | wc -l)" = "$nin" -a \
         "$(grep '^| input |' <<< "$sec" | grep -o 'sum' | wc -l)" = "$nfw"
  check "anchors: a cell with distinct results and spread (the fixture's uniform, jax x64=off)" \
    grep -qE '^\| uniform \| 1 \|( [0-9.e+-]+ \|){6} [0-9.e+-]+ \(\*\*[2-9]\*\*, [0-9.e+-]+\) \|' <<< "$sec"
  check "anchors: the tables as LaTeX" test -s "$t/all/tables/repeatability_per-framework-over-the-inputs.tex"
  # an input whose exact sum is 0 (the fixture's cancellation): an error not in ulps (an ulp of 0
  # is the smallest subnormal), its cells the largest absolute result, out of the error columns
  zin=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["exact_sum_hex"] ~ /^-?0x0p[+]0$/ && $c["ulps_max"] + 0 > 0 {print $1}' "$af" | sort -u | head -1)
  if [ -n "$zin" ]; then
    nz=$(awk -F, -v d="$zin" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $1 == d && $c["ulps_max"] + 0 > 0' "$af" | wc -l)
    check "anchors: $zin (exact sum 0) cells say S = 0, not ulps ($nz frameworks)" \
      test "$(grep "^| $zin |" <<< "$sec" | grep -o '(S = 0)' | wc -l)" = "$nz"
    zmax=$(grep -c "^| [a-z.]*sum.* | $zin[ |]" <<< "$sec")
    check "anchors: no framework's largest error is at $zin ($zmax)" test "$zmax" = 0
  fi
  if [ "$have_gp" = 1 ]; then
    asvg=$t/all/charts/anchors_f32.svg
    got=$(grep -o '<title>[^<]*sum[^<]*</title>' "$asvg" | sort -u | wc -l)
    check "anchors chart: a key entry per framework ($got of $nfw)" test "$got" = "$nfw"
    check "anchors chart: the distinct-results panel" grep -q 'distinct results of 20' "$asvg"
    check "anchors chart: in the Repeatability section" grep -q '^!\[anchors_f32\]' <<< "$sec"
    if [ -n "$zin" ]; then
      check "anchors chart: the exact-sum-0 input marked off the ulps scale (key entry, 'exact 0' under it)" \
        bash -c "grep -q '<title>non-zero result, exact value 0 (not in ulps)' '$asvg' && grep -q '>$zin (exact 0)<' '$asvg'"
    fi
    # a file that is not the script's table: no anchors chart, a note, every other chart drawn
    nbefore=$(ls "$t/all/charts/"*.svg | wc -l)
    printf '%s\n' "$(head -1 "$af")" 'normal,,f32,1024,7,<b>x</b>,20,3,0x1p+0,0x1p+0,0,0,1,0x1p+0' > "$t/all/anchors/anchors.csv"
    bash "$src/plots/render.sh" -q "$t/all"
    check "anchors chart: a planted anchors.csv drawn nowhere, the other charts drawn" \
      bash -c "[ ! -e '$asvg' ] && [ \$(ls '$t/all/charts/'*.svg | wc -l) = $((nbefore - 1)) ] && grep -q 'not the table study_anchors.py writes' '$t/all/charts/notes.txt' && ! grep -q '<b>' '$t/all/charts/notes.txt'"
  fi
  rm -r "$t/all/anchors"
fi

# ---- run --param K=V: dataset parameters for every dataset that has K, kept for --resume -----
"$bin" run accuracy-vs-n --preset tiny --backend cpu --datasets normal --dtype f32 --variants serial \
  --param mean=1000 -o "$t/pm" -q 2> "$t/pm.err"
check "--param mean=1000: every row's params say so ($(head -c 200 "$t/pm.err"))" \
  bash -c "test \$(tail -n +2 '$t/pm/results.csv' | grep -c .) -gt 0 && ! tail -n +2 '$t/pm/results.csv' | cut -d, -f3 | grep -qv '^mean=1000;'"
check "--param kept in run.conf" grep -qx 'params=mean=1000' "$t/pm/run.conf"
rc=0; "$bin" run accuracy-vs-n -o "$t/pm" --resume --param mean=5 -q 2> /dev/null || rc=$?
check "--resume with another --param: exit 2 ($rc)" test "$rc" = 2
rc=0; "$bin" run accuracy-vs-n --preset tiny --backend cpu --datasets normal --param nope=1 -o "$t/pm2" -q 2> "$t/pm2.err" || rc=$?
check "--param nope=1: exit 2, one line naming the valid parameters, no directory" \
  bash -c "[ $rc = 2 ] && [ \$(grep -c . '$t/pm2.err') = 1 ] && grep -q 'valid: mean, sd' '$t/pm2.err' && [ ! -e '$t/pm2' ]"

# ---- the full preset: >= 5 instances per accuracy point -----------------------------------
"$bin" run accuracy-vs-n --preset full --backend cpu --n 1024 --datasets uniform --dtype f32 --variants serial \
  -o "$t/full" -q 2> /dev/null
check "full preset: accuracy-vs-n rows say 5 instances ($(inst_of "$t/full" accuracy-vs-n))" test "$(inst_of "$t/full" accuracy-vs-n)" = "5 "
check "full preset: 5 instances x (serial, exact) rows" test "$(tail -n +2 "$t/full/results.csv" | grep -c .)" -eq 10
check "full preset: report header says 5 per accuracy point" grep -q '\*\*5 instances per accuracy point, 1 per other point\*\*' "$t/full/report.md"
"$bin" run accuracy-vs-n --preset full --backend cpu --n 1024 --datasets uniform --dtype f32 --variants serial \
  --seeds 7 -o "$t/full7" -q 2> /dev/null
check "full preset: --seeds 7 raises it ($(inst_of "$t/full7" accuracy-vs-n))" test "$(inst_of "$t/full7" accuracy-vs-n)" = "7 "
"$bin" run determinism --preset full --backend cpu --n 1024 --datasets uniform --dtype f32 --variants serial \
  -o "$t/fulld" -q 2> /dev/null
check "full preset: determinism keeps 1 instance ($(inst_of "$t/fulld" determinism))" test "$(inst_of "$t/fulld" determinism)" = "1 "

echo "tcharts: $checks checks, $fails failed"
[ "$fails" = 0 ]

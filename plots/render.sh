#!/usr/bin/env bash
# render.sh: renders every chart of a sumlab run directory from its CSV files alone
# (results.csv, distribution.csv) into DIR/charts/ as PNG (pngcairo, else png) and SVG, one
# gnuplot script per chart kind. awk prefilters the CSV (by column name) into per-series data
# files. A chart kind without data is skipped with a line in DIR/charts/notes.txt.
#   usage: plots/render.sh [-q|-v] DIR        exit: 0 ok, 2 bad usage/DIR, 3 no gnuplot
set -euo pipefail

quiet=0
usage() { echo "usage: $(basename "$0") [-q|-v] RUN_DIR   (renders RUN_DIR/charts/*.png and *.svg from RUN_DIR/results.csv)"; }
while [ $# -gt 0 ]; do
  case $1 in
    -q) quiet=1; shift ;;
    -v) quiet=0; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "render.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { usage >&2; exit 2; }
dir=${1%/}
res=$dir/results.csv
dist=$dir/distribution.csv
[ -d "$dir" ] || { echo "render.sh: '$dir' is not a directory" >&2; exit 2; }
[ -r "$res" ] || { echo "render.sh: $res not found or unreadable" >&2; exit 2; }
IFS= read -r header < "$res" || :   # (a header without a newline is still read)
case $header in
  experiment,dataset,params,dtype,n,variant,config*) ;;
  *) echo "render.sh: $res is not a sumlab results file" >&2; exit 2 ;;
esac
command -v gnuplot >/dev/null 2>&1 ||
  { echo "render.sh: gnuplot not found (apt-get install gnuplot-nox): charts not rendered" >&2; exit 3; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
charts=$dir/charts
mkdir -p "$charts"
rm -f "$charts"/*.png "$charts"/*.svg "$charts"/notes.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sumlab-render.XXXXXX")
trap '[ -n "${SUMLAB_RENDER_KEEP:-}" ] || rm -rf "$tmp"' EXIT
pngterm=png
if gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then pngterm=pngcairo; fi

say() { [ "$quiet" = 1 ] || echo "render.sh: $*" >&2; }
# Charts are rendered in parallel (one gnuplot per core: SUMLAB_THREADS, else nproc). gp only
# queues a job; note and gp share one sequence number so that notes.txt keeps the order of a
# serial run (a gnuplot failure is noted where its gp call was). run_jobs, at the end, runs
# the queue with a bounded pool and writes notes.txt and the `made` count in that order.
seq=0
mkdir -p "$tmp/jobs" "$tmp/notes"
note() { seq=$((seq + 1)); printf '%s\n' "$*" > "$tmp/notes/$(printf %06d "$seq")"; }
made=0
gp() { # script out-stem gnuplot-assignments...
  local script=$1 stem=$2; shift 2
  seq=$((seq + 1))
  local j=$tmp/jobs/$(printf %06d "$seq")
  printf '%s\n' "$script" > "$j.script"; printf '%s\n' "$stem" > "$j.stem"
  printf '%s' "dir='$here'; pngterm='$pngterm'; out='$charts/$stem'; $*" > "$j.assign"
}
run_one() { # job-path
  local j=$1
  gnuplot -e "$(cat "$j.assign")" "$here/$(cat "$j.script")" > /dev/null 2> "$j.err"
  echo $? > "$j.rc"
}
run_jobs() {
  local threads=${SUMLAB_THREADS:-}
  case $threads in ''|*[!0-9]*|0) threads=$(nproc 2>/dev/null || echo 1) ;; esac
  local j running=0
  for j in "$tmp"/jobs/*.script; do
    [ -e "$j" ] || continue
    j=${j%.script}
    if [ "$threads" -le 1 ]; then run_one "$j"; continue; fi
    run_one "$j" &
    running=$((running + 1))
    if [ "$running" -ge "$threads" ]; then wait -n || :; running=$((running - 1)); fi
  done
  wait || :
  local k stem line
  for k in $( { ls "$tmp/notes"; ls "$tmp/jobs" | sed -n 's/\.script$//p'; } | sort -u); do
    if [ -e "$tmp/notes/$k" ]; then
      line=$(cat "$tmp/notes/$k")
    else
      j=$tmp/jobs/$k; stem=$(cat "$j.stem"); line=""
      if [ "$(cat "$j.rc" 2>/dev/null || echo 1)" != 0 ]; then
        line="$stem: gnuplot failed: $(tr '\n' ' ' < "$j.err" | cut -c1-300)"
      elif [ -s "$charts/$stem.png" ] && [ -s "$charts/$stem.svg" ]; then
        made=$((made + 1)); say "$charts/$stem.png"
      else
        line="$stem: gnuplot wrote no image"
      fi
    fi
    [ -n "$line" ] || continue
    printf '%s\n' "$line" >> "$charts/notes.txt"; say "$line"
  done
}

# Registry order of the variants (first appearance in results.csv) = their colour index.
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} !seen[$c["variant"]]++ {print $c["variant"]}' "$res" > "$tmp/vars"
declare -A cidx=()
while IFS= read -r v; do cidx[$v]=${#cidx[@]}; done < "$tmp/vars"
colour() { echo "${cidx[$1]:-0}"; }
# Panels (small multiples): a variant's panel by its results.csv family: the ladder's rungs,
# the accuracy-oriented variants (reproducible among them), the anchors (CUB, the exact
# reference, the read ceiling). Every chart draws the panels in this order.
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} !seen[$c["variant"]]++ {
  f = $c["family"]; p = (f == "ladder") ? "ladder" : (f == "accuracy" || f == "reproducible") ? "accuracy" : "anchors"
  print $c["variant"], p }' "$res" > "$tmp/fam"
# Instances per experiment (the `instances` column, when there is one) and the sizes of each
# experiment and dtype: named in chart titles.
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} ("instances" in c) && $c["instances"]+0 > m[$c["experiment"]] { m[$c["experiment"]] = $c["instances"]+0 }
  END { for (e in m) print e, m[e] }' "$res" > "$tmp/inst"
inst_note() { awk -v e="$1" '$1==e{printf ", %d instance%s per point", $2, $2 == 1 ? "" : "s"}' "$tmp/inst"; }
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["status"] == "ok" && !seen[$c["experiment"], $c["dtype"], $c["n"]]++ {
  print $c["experiment"], $c["dtype"], $c["n"] }' "$res" | sort -k1,1 -k2,2 -k3,3n > "$tmp/sizes"
n_note() { # experiment dtype: ", n = 2^{24}" (sizes as 2^K where they are powers of two)
  awk -v e="$1" -v d="$2" '$1 == e && $2 == d { k = 0; m = $3 + 0; while (m > 1 && m % 2 == 0) { m /= 2; k++ }
    s = s (s == "" ? "" : ", ") (m == 1 && k > 0 ? "2^{" k "}" : $3) }
    END { if (s != "") printf ", n = %s", s }' "$tmp/sizes"; }

# Splits one chart's series (DIR/VARIANT.dat, and DIR/VARIANT.bnd when bounds) into the panels
# and prints the gnuplot assignments: np; per panel p: tP (title), sP (series), cP (colour
# indices), bP/bcP (bound files written as DIR/bound_P_K.dat and their colours); ymin, ymax
# (fitted to the drawn data and u; bounds beyond are clipped at the edge and their key entry
# says so). A panel whose every error is 0 (drawn at `floor`) is not drawn: its variants go to
# DIR/empty (one line per panel) for a note.
panels() { # dir floor u bounds(0|1)
  awk -v dir="$1" -v floor="$2" -v u="$3" -v wantb="$4" -v fam="$tmp/fam" '
    BEGIN { while ((getline l < fam) > 0) { split(l, a, " "); pan[a[1]] = a[2] }
            np = split("ladder accuracy anchors", pname, " "); lo = ""; hi = "" }
    { v = $0; ci = NR - 1; f = dir "/" v ".dat"; nz = 0; n = 0
      while ((getline l < f) > 0) { split(l, a, " "); y = a[2] + 0; n++
        if (y != floor + 0) nz = 1
        if (lo == "" || y < lo) lo = y; if (hi == "" || y > hi) hi = y }
      close(f); if (!n) next
      p = pan[v]; if (p == "") p = "anchors"
      if (v == "cub" || v == "read-ceiling") { ref[p] = 1 }
      S[p] = S[p] " " v; C[p] = C[p] " " ci; cnt[p]++; if (nz) any[p] = 1
      if (wantb) { sig = ""; bf = dir "/" v ".bnd"; k = 0
        while ((getline l < bf) > 0) { split(l, a, " "); sig = sig sprintf("%s:%.2g;", a[1], a[2]); bl[v, ++k] = l }
        close(bf); nb[v] = k
        if (k) { if (!((p, sig) in grp)) { grp[p, sig] = ++ng[p]; gfirst[p, ng[p]] = v; gci[p, ng[p]] = ci }
                 gi = grp[p, sig]; gn[p, gi]++; if (gn[p, gi] <= 2) glab[p, gi] = glab[p, gi] (gn[p, gi] > 1 ? ", " : "") v } } }
    END {
      if (u + 0 > 0) { if (lo == "" || u < lo) lo = u; if (hi == "" || u > hi) hi = u }
      ymin = lo / 4; ymax = hi * 40; k = 0
      for (q = 1; q <= np; q++) { p = pname[q]; if (!cnt[p]) continue
        if (wantb && !any[p]) { print p ":" S[p] > (dir "/empty"); continue }
        k++; printf "t%d=\"%s (%d)\"; s%d=\"%s\"; c%d=\"%s\"; ", k, p, cnt[p], k, substr(S[p], 2), k, substr(C[p], 2)
        bs = ""; bc = ""
        for (gi = 1; gi <= ng[p]; gi++) { v = gfirst[p, gi]; bfn = dir "/bound_" k "_" gi ".dat"; bmax = ""
          for (r = 1; r <= nb[v]; r++) { split(bl[v, r], a, " "); if (bmax == "" || a[2] + 0 > bmax) bmax = a[2] + 0 }
          lab = "bound: " glab[p, gi]; if (gn[p, gi] > 2) lab = lab " +" (gn[p, gi] - 2)
          if (bmax > ymax) lab = lab sprintf(" (clipped: up to %.0e)", bmax)
          print "\"" lab "\" 0" > bfn
          for (r = 1; r <= nb[v]; r++) print bl[v, r] > bfn
          close(bfn); bs = bs " bound_" k "_" gi; bc = bc " " gci[p, gi] }
        printf "b%d=\"%s\"; bc%d=\"%s\"; ", k, substr(bs, 2), k, substr(bc, 2) }
      printf "np=%d; ymin=%.6g; ymax=%.6g", k, ymin, ymax }
  ' "$tmp/vars"
}

# Sorts DIR/PREFIX@VARIANT.dat into OUT/VARIANT.dat for every variant present; sets
# $series and $colors (space-separated, registry order).
collect() { # src-dir prefix out-dir ext
  local src=$1 prefix=$2 out=$3 ext=${4:-dat} v
  series=""; colors=""
  mkdir -p "$out"
  while IFS= read -r v; do
    [ -f "$src/$prefix@$v.$ext" ] || continue
    sort -g -k1,1 "$src/$prefix@$v.$ext" > "$out/$v.dat"
    [ ! -f "$src/$prefix@$v.bnd" ] || sort -g -k1,1 "$src/$prefix@$v.bnd" > "$out/$v.bnd"
    series="$series $v"; colors="$colors $(colour "$v")"
  done < "$tmp/vars"
  series=${series# }; colors=${colors# }
}

# ---- error charts: accuracy-vs-n (per dataset and dtype), -cond and -range (per dtype) ------
# y = relative error |result - S| / |S|; where the exact sum S is 0, |result - S| / sum|x|
# (rel_err is infinite there). Errors of 0 go to a floor (u/256, or below the smallest nonzero
# error of the chart), drawn as a line and named in the key.
extract_error() { # experiment x-column by-dataset out-dir
  mkdir -p "$4"
  awk -F, -v expt="$1" -v xsrc="$2" -v bydata="$3" -v out="$4" '
    function bad(s) { return s == "" || s ~ /inf|nan/ }
    NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
    $c["experiment"] != expt { next }
    {
      g = bydata ? $c["dataset"] "__" $c["dtype"] : $c["dtype"]
      if (!(g in seen)) { seen[g]=1; order[++ng]=g; ds[g]=$c["dataset"]; dt[g]=$c["dtype"] }
      if ($c["status"] != "ok") next
      v = $c["variant"]; x = $c[xsrc]; u[g] = $c["unit_roundoff"]
      if (bad(x)) { nonfin[g]++; next }
      zeroS = ($c["exact_hex"] ~ /^-?0x0p\+0$/)
      if (zeroS) { num = $c["abs_err"]; den = $c["abssum"]; nz[g]++ } else { num = $c["rel_err"]; den = 1; nr[g]++ }
      if (bad(num) || bad(den) || den+0 == 0) { nonfin[g]++; next }
      y = num / den
      if (y == 0) { y = "ZERO"; zero[g]++ } else if (!(g in minpos) || y < minpos[g]) minpos[g] = y
      f = out "/" g "@" v ".dat"; print x, y >> f; close(f)
      bnum = zeroS ? $c["bound_abs"] : $c["bound_rel"]
      if (!bad(bnum) && bnum+0 > 0) { f = out "/" g "@" v ".bnd"; print x, bnum / den >> f; close(f) }
    }
    END { for (k=1;k<=ng;k++) { g=order[k]; fl = u[g] / 256; if ((g in minpos) && minpos[g] / 4 < fl) fl = minpos[g] / 4
      print g, ds[g], dt[g], u[g]+0, zero[g]+0, nonfin[g]+0, nz[g]+0, nr[g]+0, fl > (out "/meta") } }
  ' "$res"
}

render_error() { # experiment x-column by-dataset script chart-prefix x-what
  local exp=$1 xcol=$2 byds=$3 script=$4 prefix=$5 src=$tmp/$5
  extract_error "$exp" "$xcol" "$byds" "$src"
  if [ ! -s "$src/meta" ]; then note "$prefix: no $exp rows in this run: skipped"; return 0; fi
  local g ds dt u nzero nonfin nzs nrel out stem ttl ylab floor f
  while read -r g ds dt u nzero nonfin nzs nrel floor; do
    out=$src/$g.d
    collect "$src" "$g" "$out"
    for f in "$out"/*.dat; do [ -e "$f" ] && sed -i "s/ZERO/$floor/" "$f"; done
    stem=${prefix}_$g
    [ "$byds" = 1 ] || stem=${prefix}_$dt
    if [ -z "$series" ]; then
      note "$stem: no finite errors to draw ($nonfin non-finite results, e.g. Inf/NaN inputs or overflow): skipped"
      continue
    fi
    pv=$(panels "$out" "$floor" "$u" 1)
    case $pv in *"np=0;"*)
      note "$stem: every error is 0 (exact) for all $(wc -w < <(cut -d: -f2 "$out/empty")) variants: no chart"; continue ;; esac
    if [ -s "$out/empty" ]; then
      while IFS= read -r line; do
        note "$stem: ${line%%:*} panel not drawn: every error is 0 (exact) for${line#*:}"
      done < "$out/empty"
    fi
    if [ "$nzs" -gt 0 ] && [ "$nrel" -eq 0 ]; then ylab="|result - S| / sum|x|   (exact sum S = 0)"
    elif [ "$nzs" -gt 0 ]; then ylab="relative error |result - S| / |S|   (|result - S| / sum|x| where S = 0)"
    else ylab="relative error |result - S| / |S|"; fi
    ttl="$exp: $ds, $dt"
    [ "$byds" = 1 ] || ttl="$ttl$(n_note "$exp" "$dt")"
    ttl="$ttl$(inst_note "$exp")"
    [ "$nonfin" -gt 0 ] && ttl="$ttl  ($nonfin non-finite results not drawn)"
    gp "$script" "$stem" "datadir='$out'; $pv; u=$u; floor=$floor; haszero=$([ "$nzero" -gt 0 ] && echo 1 || echo 0); ttl='$ttl'; ylab='$ylab'"
  done < "$src/meta"
}

render_error accuracy-vs-n n 1 error_vs_n.gp error_vs_n
render_error accuracy-vs-cond cond 0 error_vs_cond.gp error_vs_cond
render_error accuracy-vs-range sweep_value 0 error_vs_range.gp error_vs_range

# ---- throughput vs n (GPU rows only) ------------------------------------------------------
src=$tmp/tp; mkdir -p "$src"
awk -F, -v out="$src" '
  NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
  $c["experiment"] != "throughput-vs-n" || $c["status"] != "ok" || $c["backend"] != "gpu" { next }
  $c["gbps"] == "" || $c["gbps"] ~ /inf|nan/ { next }
  { g = $c["dtype"]; if (!(g in seen)) { seen[g]=1; print g > (out "/groups") }
    f = out "/" g "@" $c["variant"] ".dat"; print $c["n"], $c["gbps"] >> f; close(f) }
' "$res"
if [ ! -s "$src/groups" ]; then
  note "throughput_vs_n: no GPU throughput rows (CPU backend, or throughput-vs-n not run): skipped"
else
  while read -r dt; do
    collect "$src" "$dt" "$src/$dt.d"
    pv=$(panels "$src/$dt.d" 0 0 0)
    gp throughput_vs_n.gp "throughput_vs_n_$dt" "datadir='$src/$dt.d'; series='$series'; $pv; ttl='throughput-vs-n: $dt input (uniform), median of the timed repetitions$(inst_note throughput-vs-n)'"
  done < "$src/groups"
fi

# ---- tradeoff: per variant, median ulps and median GB/s over the tradeoff datasets ----------
# GPU rows when the run has any (a GPU run: CPU-only variants such as pairwise are left out);
# otherwise the CPU backend's rows, whose GB/s is the wall clock of the CPU twin, labelled so.
# Rows whose exact sum is 0 have no meaningful ulps (ulps of the smallest subnormal): left out.
src=$tmp/to; mkdir -p "$src/gpu" "$src/cpu"
awk -F, -v out="$src" '
  NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
  $c["experiment"] != "tradeoff" || $c["status"] != "ok" { next }
  $c["backend"] != "gpu" && $c["backend"] != "cpu" { next }
  $c["gbps"] == "" || $c["gbps"] ~ /inf|nan/ || $c["ulps"] == "" || $c["ulps"] ~ /inf|nan/ { next }
  $c["exact_hex"] ~ /^-?0x0p\+0$/ { next }
  { b = $c["backend"]; g = $c["dtype"]; if (!((b, g) in seen)) { seen[b, g]=1; print g > (out "/groups." b) }
    f = out "/" b "/" g "@" $c["variant"] ".dat"; print $c["ulps"], $c["gbps"] >> f; close(f) }
' "$res"
if [ -s "$src/groups.gpu" ]; then
  to_be=gpu; to_sub="GPU: GB/s = input bytes / median time of the timed repetitions on the device"
  to_xlab="median throughput (GB/s)"
elif [ -s "$src/groups.cpu" ]; then
  to_be=cpu; to_sub="CPU twins: wall-clock throughput of the twin on one CPU core, not of a GPU"
  to_xlab="median throughput of the CPU twin (GB/s, wall clock on one CPU core; not a GPU)"
else
  to_be=""
fi
if [ -z "$to_be" ]; then
  note "tradeoff: no tradeoff rows in this run (tradeoff not run, or not reached): skipped"
else
  med() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2 }'; }
  while read -r dt; do
    : > "$src/$dt.points"
    hz=0; colors=""; names=""; fams=""
    while IFS= read -r v; do
      f=$src/$to_be/$dt@$v.dat
      [ -f "$f" ] || continue
      mu=$(cut -d' ' -f1 "$f" | med); mg=$(cut -d' ' -f2 "$f" | med)
      if awk -v m="$mu" 'BEGIN{exit !(m+0 == 0)}'; then mu=0.0009765625; hz=1; fi
      echo "$mg $mu $v $(colour "$v")" >> "$src/$dt.points"
      colors="$colors $(colour "$v")"; names="$names $v"
      fams="$fams $(awk -v v="$v" '$1 == v { print $2; exit }' "$tmp/fam")"
    done < "$tmp/vars"
    n=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["experiment"]=="tradeoff"{print $c["n"]; exit}' "$res")
    gp tradeoff.gp "tradeoff_$dt" "data='$src/$dt.points'; colors='${colors# }'; names='${names# }'; fams='${fams# }'; floor=0.0009765625; haszero=$hz; xlab='$to_xlab'; ttl='tradeoff: $dt input, n = $n, one point per variant (medians over the tradeoff datasets)'; ttl2='$to_sub'"
  done < "$src/groups.$to_be"
fi

# ---- distribution of results (determinism repetitions) ------------------------------------
src=$tmp/di; mkdir -p "$src"
if [ -r "$dist" ]; then
  awk -F, -v out="$src" '
    FNR==1 { for (i=1;i<=NF;i++) c[$i]=i; file++; next }
    file == 1 { if ($c["experiment"] == "determinism") cls[$c["variant"]] = $c["det_class"]; next }
    $c["experiment"] != "determinism" || $c["config"] != "default" { next }
    {
      k = $c["dataset"] "__" $c["dtype"] SUBSEP $c["variant"]; nd[k]++
      line[k] = line[k] $c["ulps_signed"] " " $c["count"] "\n"
      if ($c["ulps_signed"] ~ /inf|nan/ || $c["ulps_signed"] == "") bad[k] = 1
    }
    END {
      for (k in nd) {
        split(k, p, SUBSEP)
        if (bad[k] || (cls[p[2]] != "nondeterministic" && nd[k] < 2)) continue
        f = out "/" p[1] "@" p[2] ".dat"; printf "%s", line[k] > f; close(f)
        if (!(p[1] in seen)) { seen[p[1]] = 1; print p[1] > (out "/groups") }
      }
    }
  ' "$res" "$dist"
fi
if [ ! -s "$src/groups" ]; then
  note "distribution: no determinism repetitions of nondeterministic variants in this run: skipped"
else
  sort -o "$src/groups" "$src/groups"
  while read -r g; do
    collect "$src" "$g" "$src/$g.d"
    ds=${g%__*}; dt=${g##*__}
    gp distribution.gp "distribution_$g" "datadir='$src/$g.d'; series='$series'; colors='$colors'; ttl='determinism: distinct results over the repetitions, $ds, $dt$(n_note determinism "$dt")$(inst_note determinism)'"
  done < "$src/groups"
fi

# ---- ladder: each text's rungs, speedup over its first rung, measured beside published ------
if [ -r "$dir/ladder.csv" ]; then
  src=$tmp/la; mkdir -p "$src"
  awk -F, -v out="$src" '
    NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
    $c["config"] != "block256" { next }
    {
      t = $c["text"]; gsub(/ /, "", t); f = out "/" t ".dat"
      lab = $c["rung"] "\\n" $c["variant"]
      pub = $c["published_speedup"] == "" ? "?" : $c["published_speedup"]
      printf "\"%s\" %s %s\n", lab, $c["speedup"], pub >> f
      n[t] = $c["n"]
    }
    END { for (t in n) print t, n[t] > (out "/texts") }
  ' "$dir/ladder.csv"
  if [ -s "$src/texts" ]; then
    while read -r t n; do
      gp ladder.gp "ladder_$t" "data='$src/$t.dat'; ttl='ladder of ${t/text/text }: speedup per rung over its first, float32 n = $n, 256 threads per block'"
    done < "$src/texts"
  else
    note "ladder: ladder.csv has no block-256 rows: skipped"
  fi
fi

# ---- ranks (sums across MPI ranks): plots/ranks.sh -----------------------------------------
[ -r "$here/ranks.sh" ] && . "$here/ranks.sh"

run_jobs
say "$made charts in $charts/"

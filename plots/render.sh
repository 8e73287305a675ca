#!/usr/bin/env bash
# render.sh: renders every chart of a sumlab run directory from its CSV files alone
# (results.csv, distribution.csv) into DIR/charts/ as PNG (pngcairo, else png) and SVG, one
# gnuplot script per chart kind. awk prefilters the CSV (by column name) into per-series data
# files. A chart kind without data is skipped with a line in DIR/charts/notes.txt; the charts
# made are listed in DIR/charts/order.txt in the order of the report's tables.
# The CSV files are data: every field the charts use is checked first (names: letters, digits
# and . _ : = + -, at most 64 characters; numbers: decimal or C99 hex), and the checked copy in
# the scratch folder is what the extractors read; no value reaches a shell, a path outside the
# scratch folder and DIR/charts, or gnuplot's program text unchecked. Charts are drawn under
# temporary names and renamed when complete; on any exit (error, disk full, INT, TERM) partial
# images and the scratch folder are removed.
# SUMLAB_FIGURES=paper (`sumlab run --figures paper`): each chart also as DIR/charts/STEM.pdf
# (gnuplot's pdfcairo, 3.5 inches per panel, fonts scaled for a journal column; without pdfcairo
# one message and PNG/SVG only). SUMLAB_FIGURE_VARIANTS=LIST: the charts draw only these
# variants (comma-separated names; CUB and the read ceiling stay as the throughput charts'
# reference lines).
#   usage: plots/render.sh [-q|-v] DIR
#   exit: 0 ok, 2 bad usage/DIR or a malformed CSV field, 3 no gnuplot, 4 charts not written
#   (disk full, file size limit), 130/143 interrupted
set -euo pipefail
# A write past a file size limit (ulimit -f) fails with EFBIG, here and in gnuplot, instead of
# killing the process: the failure is then detected and reported like a full disk.
trap '' XFSZ

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
# Committed measurements keep FILE.csv.gz: read in FILE.csv's place when it is absent.
zres=; zdist=
[ -e "$res" ] || [ ! -r "$res.gz" ] || zres=$res.gz
[ -e "$dist" ] || [ ! -r "$dist.gz" ] || zdist=$dist.gz
[ -d "$dir" ] || { echo "render.sh: '$dir' is not a directory" >&2; exit 2; }
[ -r "$res" ] || [ -n "$zres" ] || { echo "render.sh: $res not found or unreadable" >&2; exit 2; }
if [ -n "$zres" ]; then IFS= read -r header < <(gzip -dc -- "$zres" 2>/dev/null) || :
else IFS= read -r header < "$res" || :; fi   # (a header without a newline is still read)
case $header in
  experiment,dataset,params,dtype,n,variant,config*) ;;
  *) echo "render.sh: $res is not a sumlab results file" >&2; exit 2 ;;
esac
command -v gnuplot >/dev/null 2>&1 ||
  { echo "render.sh: gnuplot not found (apt-get install gnuplot-nox): charts not rendered" >&2; exit 3; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
charts=$dir/charts
# Paths reach gnuplot's program text inside '...': refuse the few characters that would end it.
for p in "$here" "$charts"; do
  case $p in *[\'\\$'\n'$'\r']*)
    echo "render.sh: '$p': a path with a quote, backslash or line break cannot be handed to gnuplot" >&2; exit 2 ;;
  esac
done
# Scratch: a few thousand small data files, on a memory file system where there is one
# (creating them on a disk file system cost more than the rest of the data preparation).
scratch=${TMPDIR:-}
if [ -z "$scratch" ]; then scratch=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && scratch=/dev/shm; fi
tmp=""
# On every exit: stop the gnuplot processes still running, remove the partial images (drawn as
# .part-STEM.*, renamed when complete) and the scratch folder.
said=0   # 1 once this script has said why it stops
cleanup() {
  local rc=$? p
  trap - EXIT INT TERM
  if [ "$rc" != 0 ] && [ "$rc" != 130 ] && [ "$rc" != 143 ] && [ "$said" = 0 ]; then
    echo "render.sh: stopped (exit $rc) before the charts were complete: cannot write the scratch folder or $charts (disk full or file size limit?); partial files removed" >&2
    rc=4
  fi
  # each job frozen first (a stopped subshell starts no new child), its children ended, then it;
  # the children (gnuplot) are the jobs' to wait for, not this shell's: their exit is awaited here
  # (at most 5 s), so that none opens or writes a partial image after the removal below
  local kids="" alive c
  for p in $(jobs -p); do
    kill -STOP "$p" 2>/dev/null || :
    kids="$kids $(pgrep -P "$p" 2>/dev/null | tr '\n' ' ' || :)"
    pkill -TERM -P "$p" 2>/dev/null || :
    kill -TERM "$p" 2>/dev/null || :
    kill -CONT "$p" 2>/dev/null || :
  done
  wait 2>/dev/null || :
  local i
  for ((i = 0; i < 50; i++)); do
    alive=""
    for c in $kids; do kill -0 "$c" 2>/dev/null && alive="$alive $c"; done
    [ -n "$alive" ] || break
    kids=$alive; sleep 0.1
  done
  rm -f "$charts"/.part-* 2>/dev/null || :
  if [ -n "$tmp" ] && [ -z "${SUMLAB_RENDER_KEEP:-}" ]; then rm -rf "$tmp"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tmp=$(mktemp -d "$scratch/sumlab-render.XXXXXX") ||
  { echo "render.sh: cannot create a scratch folder in $scratch" >&2; exit 4; }
case $tmp in *[\'\\$'\n'$'\r']*)
  echo "render.sh: scratch folder '$tmp': a path with a quote, backslash or line break cannot be handed to gnuplot" >&2; exit 2 ;;
esac
# Writes that fail (disk full, file size limit) end here with one message (exit 4).
write_fail() { # what
  said=1
  echo "render.sh: cannot write $1 (disk full or file size limit?): charts not rendered; partial files removed" >&2
  exit 4
}

# The charts of an earlier render go first: data refused below leaves no stale chart behind.
{ mkdir -p "$charts" && rm -f "$charts"/*.png "$charts"/*.svg "$charts"/*.pdf "$charts"/notes.txt "$charts"/order.txt "$charts"/.part-*; } 2>/dev/null ||
  write_fail "$charts"
for z in "$zres" "$zdist"; do   # inflated whole; a damaged or truncated .gz stops here
  [ -n "$z" ] || continue
  f=$tmp/gz-$(basename "${z%.gz}")   # not the checked copy's name: check_csv writes that
  gzip -dc -- "$z" > "$f" || { echo "render.sh: $z: damaged or truncated gzip file" >&2; said=1; exit 2; }
  case $f in */gz-results.csv) res=$f ;; *) dist=$f ;; esac
done

# ---- the CSV files as data: every field the charts use is checked, then copied ---------------
# check_csv SRC DST NAMES OPTNAMES NUMS INTS TEXTS: reads SRC (RFC 4180: quoted fields, "" for a
# quote), checks every row's field count and the named columns (NAMES: required names;
# OPTNAMES: names or empty; NUMS: numbers or empty; INTS: unsigned integers, required; TEXTS:
# names that may hold spaces; LABELS, optional: framework names as study_anchors.py writes them,
# letters, digits, spaces and . _ : = + ; ( ) , / -, at most 120), and writes DST: the same rows with plain comma-separated fields
# (a comma or quote inside an unchecked field, e.g. a note, becomes ';' or '), which the
# extractors split with -F, without shifting columns; a number that is not finite (Inf, NAN,
# infinity, 1e999) as the one spelling the extractors test for, inf, -inf or nan, so that none is
# taken for a finite value and printed into gnuplot's program text as "inf". A bad field: one
# line naming the file, line and field; exit 2 (with csv_soft=1: check_csv returns 1, the caller
# says so).
check_csv() {
  local msg rc=0
  msg=$(awk -v src="$1" -v dst="$2" -v names="$3" -v onames="$4" -v nums="$5" -v ints="$6" -v texts="$7" -v labels="${8:-}" '
    function fail(what) { printf "render.sh: %s:%d: %s\n", src, FNR, what; bad = 1; exit 3 }
    function show(s,   t) { t = s; gsub(/[^ -~]/, "?", t); if (length(t) > 48) t = substr(t, 1, 45) "..."; return "\047" t "\047" }
    # a checked number as the extractors read it: a non-finite one as inf, -inf or nan
    function canon(v,   l, x) { l = tolower(v)
      if (l ~ /^[-+]?inf(inity)?$/) return (l ~ /^-/) ? "-inf" : "inf"
      if (l ~ /^[-+]?nan$/) return "nan"
      x = v + 0; if (x != x) return "nan"
      if (x != 0 && x == 2 * x) return (x < 0) ? "-inf" : "inf"
      return v }
    function csvsplit(line, f,   n, i, ch, q, v, L) {
      if (index(line, "\"") == 0) return split(line, f, ",")
      n = 0; v = ""; q = 0; L = length(line)
      for (i = 1; i <= L; i++) { ch = substr(line, i, 1)
        if (q) { if (ch == "\"") { if (substr(line, i + 1, 1) == "\"") { v = v "\""; i++ } else q = 0 } else v = v ch }
        else if (ch == "\"") q = 1
        else if (ch == ",") { f[++n] = v; v = "" }
        else v = v ch }
      if (q) fail("a quoted field is not closed")
      f[++n] = v; return n }
    BEGIN { kinds["name"] = names; kinds["oname"] = onames; kinds["num"] = nums; kinds["int"] = ints; kinds["text"] = texts; kinds["label"] = labels
      NUM = "^[-+]?(([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?|0[xX]([0-9a-fA-F]+[.]?[0-9a-fA-F]*|[.][0-9a-fA-F]+)[pP][-+]?[0-9]+|[iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])$" }
    { sub(/\r$/, "") }
    /^#/ || $0 == "" { next }
    !nh { nh = csvsplit($0, H)
      for (i = 1; i <= nh; i++) { if (H[i] !~ /^[a-z0-9_]+$/) fail("column " (i) ": " show(H[i]) " is not a column name"); col[H[i]] = i }
      for (k in kinds) { m = split(kinds[k], L, " "); for (j = 1; j <= m; j++) if (L[j] in col) { nck++; ck[nck] = col[L[j]]; ckind[nck] = k; if (k == "num") isnum[col[L[j]]] = 1 } }
      line = H[1]; for (i = 2; i <= nh; i++) line = line "," H[i]; print line > dst; next }
    { n = csvsplit($0, F)
      if (n != nh) fail(n " fields where the header has " nh)
      for (j = 1; j <= nck; j++) { i = ck[j]; v = F[i]; k = ckind[j]
        if (k == "num") { if (v != "" && v !~ NUM) fail("field \047" H[i] "\047: " show(v) " is not a number") }
        else if (k == "int") { if (v !~ /^[0-9]+$/ || length(v) > 20) fail("field \047" H[i] "\047: " show(v) " is not an unsigned integer") }
        else if (k == "oname" && v == "") {}
        else if (k == "label") { if (length(v) > 120 || v !~ /^[A-Za-z0-9][A-Za-z0-9._:=+;(),\/ -]*$/)
          fail("field \047" H[i] "\047: " show(v) " is not a framework name (a letter or digit, then letters, digits, spaces and . _ : = + ; ( ) , / -; at most 120 characters)") }
        else if (length(v) > 64 || v !~ (k == "text" ? "^[A-Za-z0-9][A-Za-z0-9._:=+ -]*$" : "^[A-Za-z0-9][A-Za-z0-9._:=+-]*$"))
          fail("field \047" H[i] "\047: " show(v) " is not a valid name (a letter or digit, then letters, digits and . _ : = + -" (k == "text" ? " or spaces" : "") "; at most 64 characters)") }
      line = ""
      for (i = 1; i <= n; i++) { v = F[i]; if ((i in isnum) && v != "") v = canon(v)
        gsub(/,/, ";", v); gsub(/"/, "\047", v); gsub(/[\001-\037]/, " ", v); line = line (i > 1 ? "," : "") v }
      print line > dst
    }
    END { if (bad) exit 3; if (close(dst) < 0) exit 4 }' "$1" 2>/dev/null) || rc=$?
  case $rc in
    0) ;;
    3) if [ "${csv_soft:-0}" = 1 ]; then return 1; fi
       said=1; printf '%s\n' "$msg" >&2; exit 2 ;;
    *) write_fail "the scratch folder $tmp" ;;
  esac
}
num_cols="cond sweep_value unit_roundoff abs_err abssum rel_err bound_abs bound_rel bound_ratio gbps ulps exact_hex ranks ulps_signed count speedup published_speedup instances"
check_csv "$res" "$tmp/results.csv" "experiment dataset dtype variant" \
  "config family det_class backend status sweep combine algorithm op" "$num_cols" "n" ""
res=$tmp/results.csv
if [ -r "$dist" ]; then
  check_csv "$dist" "$tmp/distribution.csv" "experiment dataset dtype variant" "config backend" "$num_cols" "n" ""
  dist=$tmp/distribution.csv
fi
ladder=""
if [ -r "$dir/ladder.csv" ]; then
  check_csv "$dir/ladder.csv" "$tmp/ladder.csv" "config variant" "rung" "$num_cols" "n" "text"
  ladder=$tmp/ladder.csv
fi
# launch-config (launch.csv, written with the report from results.csv's launch-config rows)
launch=""
if [ -r "$dir/launch.csv" ]; then
  check_csv "$dir/launch.csv" "$tmp/launch.csv" "variant dtype sweep backend" "twin_match" \
    "$num_cols time_ms ratio_cub ratio_read bound_ratio regs blocks_per_sm occupancy" \
    "n block_req grid_req block grid items accumulators load_width offset tail" ""
  launch=$tmp/launch.csv
fi

# The pngcairo probe runs beside the data preparation; gp_setup, before the first chart, reads
# its result: pngterm (pngcairo, else png).
paper=0
case ${SUMLAB_FIGURES:-} in
  paper) paper=1 ;;
  ''|screen) ;;
  *) echo "render.sh: SUMLAB_FIGURES='${SUMLAB_FIGURES//[^A-Za-z0-9._-]/?}' is not 'paper' or 'screen'" >&2; said=1; exit 2 ;;
esac
(
  term=png
  gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1 && term=pngcairo
  pdf=0
  [ "$paper" = 0 ] || ! gnuplot -e 'set terminal pdfcairo' >/dev/null 2>&1 || pdf=1
  printf '%s %s\n' "$term" "$pdf" > "$tmp/gp_setup"
) &
setup_pid=$!
pngterm=png
pdfok=0
gp_setup() {
  [ -n "$setup_pid" ] || return 0
  wait "$setup_pid" || :; setup_pid=""
  read -r pngterm pdfok < "$tmp/gp_setup" || :
  if [ "$paper" = 1 ] && [ "$pdfok" != 1 ]; then
    echo "render.sh: --figures paper: this gnuplot has no pdfcairo terminal (install a gnuplot built with cairo, e.g. apt-get install gnuplot-nox): PNG and SVG only, no PDF" >&2
    note "paper figures: no PDF (this gnuplot has no pdfcairo terminal); PNG and SVG only"
    paper=0
  fi
}

say() { [ "$quiet" = 1 ] || echo "render.sh: $*" >&2; }
# Charts are rendered in parallel (SUMLAB_THREADS gnuplot processes at a time, else nproc). gp
# only queues a job; note and gp share one sequence number so that notes.txt keeps the order of
# a serial run (a gnuplot failure is noted where its gp call was). run_jobs, at the end, runs
# the queue and writes notes.txt and the `made` count in that order.
# Jobs and notes live in arrays indexed by that sequence (no process per call): NOTE[k],
# JOB_SCRIPT[k], JOB_STEM[k], JOB_ARGS[k], JOB_COST[k] (the chart's pixel count, for the
# order); a job's exit status and stderr go to tmp/jobs/k.rc and k.err.
seq=0
mkdir -p "$tmp/jobs"
declare -a NOTE=() JOB_SCRIPT=() JOB_STEM=() JOB_ARGS=() JOB_COST=()
note() { seq=$((seq + 1)); NOTE[seq]="$*"; }
made=0
gp() { # script out-stem gnuplot-assignments...
  seq=$((seq + 1))
  JOB_SCRIPT[seq]=$1; JOB_STEM[seq]=$2; shift 2
  JOB_ARGS[seq]="dir='$here'; out='$charts/.part-${JOB_STEM[seq]}'; $*"
  # the image size that the script will choose (common.gp's panelw for the panelled kinds)
  local np=1 w h
  [[ $* =~ (^|[ ;])np=([0-9]+) ]] && np=${BASH_REMATCH[2]}
  case ${JOB_SCRIPT[seq]} in
    error_vs_*) local kr=20; [[ $* =~ (^|[ ;])kr=([0-9]+) ]] && kr=${BASH_REMATCH[2]}
                w=$((110 + 560 * np)); h=$((530 + 15 * kr)) ;;
    throughput_vs_n.gp) local kr=20; [[ $* =~ (^|[ ;])kr=([0-9]+) ]] && kr=${BASH_REMATCH[2]}
                        w=$((110 + 560 * np)); h=$((700 + 15 * kr)) ;;
    distribution.gp) local -a sw=($series); np=${#sw[@]}; w=$((110 + 560 * np)); h=560 ;;
    tightness.gp) w=1100; h=760 ;;
    anchors.gp) w=1300; h=820 ;;
    tradeoff.gp) w=1280; h=760 ;;
    ranks.gp) w=1500; h=620 ;;
    batch_invariance.gp) local nbar=20; [[ $* =~ (^|[ ;])nb=([0-9]+) ]] && nbar=${BASH_REMATCH[2]}
                         w=$((nbar * 24 > 800 ? 300 + nbar * 24 : 1100)); h=680 ;;
    *) w=1100; h=620 ;;
  esac
  JOB_COST[seq]=$((w * h / 1000))
}
# Several charts per gnuplot process (a process start and the cairo/pango set-up cost about as
# much as drawing a chart's SVG). Each chart starts from `reset session` (no variable, function
# or setting of the previous chart) and from the svg terminal's state of a fresh process: the
# svg driver keeps the last line width (it becomes the next file's pen widths) and the colour
# mode of the last stroke (the first group's stroke) across plots and files, so a throw-away
# plot to /dev/null draws with width 1 and an empty multiplot page resets the colour mode.
# The SVG and PNG bytes are then those of one process per chart, in any order.
# A chart's markers on stderr delimit its messages; a gnuplot error ends the process, so the
# charts after the failed one are run again in a new one.
run_batch() { # batch-number sequence-numbers...
  local b=$tmp/jobs/b$1 failed rc k
  shift
  while [ $# -gt 0 ]; do
    for k in "$@"; do
      printf '%s\n' "reset session" \
        "set terminal svg; set output '/dev/null'; plot 0 notitle; set multiplot; unset multiplot; set output" \
        "print '@@sumlab-render begin $k'" "pngterm='$pngterm'; paper=$paper; ${JOB_ARGS[k]}" "load '$here/${JOB_SCRIPT[k]}'" \
        "print '@@sumlab-render end $k'"
    done > "$b.gp"
    rc=0; gnuplot "$b.gp" > /dev/null 2> "$b.err" || rc=$?
    # each chart's messages to k.err, 0 to k.rc when it got to its end; prints the chart that
    # was running when gnuplot stopped (none when it stopped before the first)
    failed=$(awk -v dir="$tmp/jobs" '
      $1 == "@@sumlab-render" && $2 == "begin" { if (k != "") close(dir "/" k ".err"); k = $3; printf "" > (dir "/" k ".err"); next }
      $1 == "@@sumlab-render" && $2 == "end" { print 0 > (dir "/" $3 ".rc"); close(dir "/" $3 ".rc"); k = ""; next }
      k != "" { print > (dir "/" k ".err") }
      END { if (k != "") print k }' "$b.err")
    [ "$rc" != 0 ] || break
    if [ -z "$failed" ]; then failed=$1; cp "$b.err" "$tmp/jobs/$failed.err"; fi
    echo "$rc" > "$tmp/jobs/$failed.rc"
    while [ $# -gt 0 ] && [ "$1" != "$failed" ]; do shift; done
    [ $# -eq 0 ] || shift
  done
}
threads=${SUMLAB_THREADS:-}
case $threads in ''|*[!0-9]*|0) threads=$(nproc 2>/dev/null || echo 1) ;; esac
declare -a LAUNCHED=()
nb=0; launched_cost=0
# pool_run 0 (while the data of later kinds is prepared: starts batches of the charts queued so
# far while a process slot is free) or 1 (at the end: runs every queued chart, waits for all).
# Largest charts first; batches of decreasing size (a share of the work left, so the last ones
# are small and the processes end together), at least a quarter of a process's share (a new
# process costs a start). With one thread, one batch at the end.
pool_run() { # final(0|1)
  local k left=0 floor target cost running
  local -a order batch run
  [ "$threads" -gt 1 ] || [ "$1" = 1 ] || return 0
  gp_setup
  order=($(for k in "${!JOB_SCRIPT[@]}"; do [ -n "${LAUNCHED[k]:-}" ] || echo "${JOB_COST[k]} $k"; done | sort -k1,1nr -k2,2n | cut -d' ' -f2))
  for k in "${order[@]}"; do left=$((left + JOB_COST[k])); LAUNCHED[k]=1; done
  if [ "$threads" -le 1 ]; then [ ${#order[@]} -eq 0 ] || run_batch 1 "${order[@]}"; return 0; fi
  floor=$(((left + launched_cost) / (4 * threads)))
  while [ ${#order[@]} -gt 0 ]; do
    jobs -rp > "$tmp/jobs/running"; mapfile -t run < "$tmp/jobs/running"; running=${#run[@]}
    if [ "$running" -ge "$threads" ]; then
      if [ "$1" = 1 ]; then wait -n || :; continue; fi
      for k in "${order[@]}"; do unset 'LAUNCHED[k]'; done
      break
    fi
    target=$((left / (2 * threads)))
    [ "$target" -ge "$floor" ] || target=$floor
    batch=(); cost=0
    while [ ${#order[@]} -gt 0 ] && { [ ${#batch[@]} -eq 0 ] || [ "$cost" -lt "$target" ]; }; do
      batch+=("${order[0]}"); cost=$((cost + JOB_COST[order[0]])); order=("${order[@]:1}")
    done
    left=$((left - cost)); launched_cost=$((launched_cost + cost)); nb=$((nb + 1))
    run_batch "$nb" "${batch[@]}" &
  done
  [ "$1" = 0 ] || wait || :
}
# complete PNG (ends with its IEND chunk) and SVG (ends with </svg>)
complete_png() { [ -s "$1" ] && [ "$(tail -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ]; }
complete_svg() { [ -s "$1" ] && tail -c 64 "$1" | grep -q '</svg>'; }
complete_pdf() { [ -s "$1" ] && tail -c 32 "$1" | grep -q '%%EOF'; }
run_jobs() {
  local k stem line rc part incomplete=0
  pool_run 1
  : > "$tmp/notes.txt"; : > "$tmp/order.txt"
  for ((k = 1; k <= seq; k++)); do
    if [ -n "${NOTE[k]+set}" ]; then
      line=${NOTE[k]}
    elif [ -n "${JOB_SCRIPT[k]+set}" ]; then
      stem=${JOB_STEM[k]}; line=""; rc=1; part=$charts/.part-$stem
      [ ! -r "$tmp/jobs/$k.rc" ] || IFS= read -r rc < "$tmp/jobs/$k.rc" || :
      if [ "$rc" != 0 ]; then
        line="$stem: gnuplot failed: $(tr '\n' ' ' < "$tmp/jobs/$k.err" | cut -c1-300)"
      elif complete_png "$part.png" && complete_svg "$part.svg" && { [ "$paper" = 0 ] || complete_pdf "$part.pdf"; }; then
        if { mv -f "$part.png" "$charts/$stem.png" && mv -f "$part.svg" "$charts/$stem.svg" &&
             { [ "$paper" = 0 ] || mv -f "$part.pdf" "$charts/$stem.pdf"; }; } 2>/dev/null; then
          made=$((made + 1)); say "$charts/$stem.png"; printf '%s\n' "$stem" >> "$tmp/order.txt"
        else
          incomplete=$((incomplete + 1))
        fi
      elif [ -e "$part.png" ] || [ -e "$part.svg" ]; then
        incomplete=$((incomplete + 1))   # a write failed part-way (disk full, file size limit)
      else
        line="$stem: gnuplot wrote no image"
      fi
      rm -f "$part.png" "$part.svg" "$part.pdf"
    else
      continue
    fi
    [ -n "$line" ] || continue
    printf '%s\n' "$line" >> "$tmp/notes.txt"; say "$line"
  done
  if [ "$incomplete" -gt 0 ]; then
    write_fail "$charts ($incomplete charts incomplete)"
  fi
  if [ -s "$tmp/notes.txt" ]; then
    { cp "$tmp/notes.txt" "$charts/.part-notes.txt" && mv -f "$charts/.part-notes.txt" "$charts/notes.txt"; } 2>/dev/null ||
      write_fail "$charts/notes.txt"
  fi
  # the charts in the order they were queued (each kind's groups in results.csv's order, the
  # order of the report's tables): the report lists them so
  if [ -s "$tmp/order.txt" ]; then
    { cp "$tmp/order.txt" "$charts/.part-order.txt" && mv -f "$charts/.part-order.txt" "$charts/order.txt"; } 2>/dev/null ||
      write_fail "$charts/order.txt"
  fi
}

# One pass over results.csv for what every chart kind looks up:
# vars: the registry order of the variants (first appearance in results.csv) = their colour
# index. fam: each variant's panel (small multiples) by its results.csv family: the ladder's
# rungs, every other family of kernels (accuracy, reproducible, the operations' families, rows), the anchors (CUB, cuBLAS, the exact
# reference, the read ceiling, the operation's PyTorch call: family pytorch, throughput-vs-n's torch.* rows); every chart
# draws the panels in this order. inst: instances per
# experiment (the `instances` column, when there is one). sizes: the sizes of each experiment
# and dtype. The last two are named in chart titles.
awk -F, -v tmp="$tmp" 'BEGIN { printf "" > (tmp "/vars"); printf "" > (tmp "/fam"); printf "" > (tmp "/inst"); printf "" > (tmp "/sizes.u") }
  NR==1 { for (i=1;i<=NF;i++) c[$i]=i; hasi = ("instances" in c); next }
  { v = $c["variant"]; e = $c["experiment"] }
  !(v in seen) { seen[v] = 1; print v > (tmp "/vars")
    f = $c["family"]; p = (f == "ladder") ? "ladder" : (f == "anchor" || f == "pytorch" || f == "reference" || f == "") ? "anchors" : "accuracy"
    print v, p > (tmp "/fam") }
  hasi && $c["instances"]+0 > m[e] { m[e] = $c["instances"]+0 }
  $c["status"] == "ok" && !((e, $c["dtype"], $c["n"]) in sz) { sz[e, $c["dtype"], $c["n"]] = 1; print e, $c["dtype"], $c["n"] > (tmp "/sizes.u") }
  END { for (e in m) print e, m[e] > (tmp "/inst") }' "$res"
sort -k1,1 -k2,2 -k3,3n "$tmp/sizes.u" > "$tmp/sizes"
# SUMLAB_FIGURE_VARIANTS: only these variants (and the throughput charts' reference lines)
if [ -n "${SUMLAB_FIGURE_VARIANTS:-}" ]; then
  case ${SUMLAB_FIGURE_VARIANTS} in *[!A-Za-z0-9._:=+,-]*)
    echo "render.sh: SUMLAB_FIGURE_VARIANTS: not a comma-separated list of variant names" >&2; said=1; exit 2 ;;
  esac
  awk -v keep=",${SUMLAB_FIGURE_VARIANTS},cub,read-ceiling," 'index(keep, "," $0 ",")' "$tmp/vars" > "$tmp/vars.k"
  mv "$tmp/vars.k" "$tmp/vars"
fi
declare -A cidx=() FAM=() INST_NOTE=() N_NOTE=() INST=()
# A variant's colour and point type are a function of its name alone, the same in every chart
# of every run (whatever --variants chose): the index of the fixed table below (the sum's
# variants in registry order, then the other operations' names on slots their operation's own
# variants leave free, so no two variants of one operation share one), else a hash of the name
# (djb2 mod the palette's first 28 colours; cub-gpu-to-gpu hashed onto smem-sequential's
# colour and point type, so CUB's determinism tiers have slots of their own past the registry's;
# the operations' PyTorch calls, one per operation, share the last slot, 29, no variant's).
# The index picks common.gp's colour and point type.
known_colours="atomic-thread:0 smem-interleaved:1 smem-sequential:2 two-load:3 warp-shuffle:4 grid-stride:5
vec4:6 half-acc:7 smem-strided:8 warp-unrolled:9 full-unroll:10 multi-load:11 packed:12 block-reduce:13 serial:14
pairwise:15 atomic-block:16 kahan:17 fp64-acc:18 multipass:19 superacc:20 reproducible:21 cub:22 cub-f32acc:23
exact:24 read-ceiling:25 naive:0 f64-acc:18 welford:17 welford-ln:16 welford-f64:19 fused:12 textbook:14 shifted:1
two-pass:3 corrected:20 textbook-f64:5 two-pass-f64:6 online:11 compensated:17 zero-fill:0 fmax:2 fmin:2
block-row:26 correct:13 scaled:9 dot2:4 cublas:23 accurate:8 cub-gpu-to-gpu:27 cub-not-guaranteed:28
torch.sum:29 torch.mean:29 torch.var:29 torch.std:29 torch.amax:29 torch.amin:29 torch.logsumexp:29
torch.linalg.vector_norm:29 torch.dot:29"
awk -v known="$known_colours" '
  BEGIN { n = split(known, k, /[ \n]+/); for (i = 1; i <= n; i++) if (split(k[i], a, ":") == 2) idx[a[1]] = a[2]
    for (i = 0; i < 256; i++) ord[sprintf("%c", i)] = i }
  { v = $0; if (v in idx) { print v, idx[v]; next }
    h = 5381; L = length(v); for (i = 1; i <= L; i++) h = (h * 33 + ord[substr(v, i, 1)]) % 2147483647
    print v, h % 28 }' "$tmp/vars" > "$tmp/colours"
while read -r v ci; do cidx[$v]=$ci; done < "$tmp/colours"
while read -r v p; do FAM[$v]=$p; done < "$tmp/fam"
colour() { echo "${cidx[$1]:-0}"; }
# The colour indices of the variants in $series, as a space-separated list (no subshells).
series_colours() { local v; colors=""; for v in $series; do colors="$colors ${cidx[$v]:-0}"; done; colors=${colors# }; }
# Title notes: INST_NOTE[experiment] ", 4 instances per point"; N_NOTE[experiment dtype]
# ", n = 2^{24}" (sizes as 2^K where they are powers of two); empty where there is none.
while IFS=$'\t' read -r kind key text; do
  if [ "$kind" = I ]; then INST_NOTE[$key]=$text; INST[$key]=${text//[!0-9]/}; else N_NOTE[$key]=$text; fi
done < <(awk -v inst="$tmp/inst" '
  BEGIN { while ((getline l < inst) > 0) { split(l, a, " "); printf "I\t%s\t, %d instance%s per point\n", a[1], a[2], a[2] == 1 ? "" : "s" } }
  { g = $1 " " $2; if (!(g in s)) order[++ng] = g; k = 0; m = $3 + 0; while (m > 1 && m % 2 == 0) { m /= 2; k++ }
    s[g] = s[g] (s[g] == "" ? "" : ", ") (m == 1 && k > 0 ? "2^{" k "}" : $3) }
  END { for (i = 1; i <= ng; i++) printf "N\t%s\t, n = %s\n", order[i], s[order[i]] }' "$tmp/sizes")
# awk functions shared by the extractors: put(f, key, line) buffers a line of data file f;
# put_flush(zs) writes every buffered file once, its lines sorted as `sort -g -k1,1` sorts
# them (numeric key, ties by the whole line), every "ZERO" of a line replaced by zs[f]
# when zs has an entry for f. One pass over results.csv, no process per series.
awk_put='
function put(f, key, line,   i, m) { if (!(f in fid)) { fid[f] = ++npf; pf[npf] = f }
  i = fid[f]; m = ++pn[i]; pk[i, m] = key + 0; pl[i, m] = line }
function put_flush(zs,   i, j, k, f, m, tk, tl, l, z, hz) {
  for (i = 1; i <= npf; i++) { f = pf[i]; m = pn[i]; hz = (f in zs); if (hz) z = zs[f]
    for (j = 2; j <= m; j++) { tk = pk[i, j]; tl = pl[i, j]; k = j - 1
      while (k >= 1 && (pk[i, k] > tk || (pk[i, k] == tk && pl[i, k] > tl))) { pk[i, k + 1] = pk[i, k]; pl[i, k + 1] = pl[i, k]; k-- }
      pk[i, k + 1] = tk; pl[i, k + 1] = tl }
    for (j = 1; j <= m; j++) { l = pl[i, j]; if (hz) gsub("ZERO", z, l); print l > f }
    close(f) } }
function mkdirs(list,   n, i, d, f) { n = split(list, d, "\n"); f = ENVIRON["SL_DIRLIST"]
  for (i = 1; i <= n; i++) if (d[i] != "") print d[i] > f
  close(f); if (n) system("xargs -d \"\\n\" mkdir -p -- < \"$SL_DIRLIST\"") }
'
# Splits a chart's series (DIR/VARIANT.dat, and DIR/VARIANT.bnd when bounds) into the panels
# and prints the gnuplot assignments: np; per panel p: tP (title), sP (series), cP (colour
# indices), nbP (per series 1, or 0 where its data repeats an earlier series of the panel: no band), bP/bcP (bound files written as DIR/bound_P_K.dat and their colours); ymin, ymax
# (fitted to the drawn data and u; bounds beyond are clipped at the edge and their key entry
# says so); kr (kr1), the rows of the tallest panel's key in two columns (in one). A panel without one finite
# non-zero error (every error 0 or non-finite) is not drawn: its variants go to DIR/empty (one
# line per panel) for a note.
# panels_all does it for every chart of a kind in one process: input lines "DIR<tab>XS<tab>u<tab>X"
# (XS: the sweep's sizes, comma-separated, where a series and a bound are not to be joined across a
# missing one; or -; X: the x column, n or cond, for the x named in a bound's key entry), output
# lines "DIR<tab>assignments".
panels_all() { # bounds(0|1)
  awk -F'\t' -v wantb="$1" -v fam="$tmp/fam" -v vars="$tmp/vars" -v cols="$tmp/colours" '
    BEGIN { while ((getline l < fam) > 0) { split(l, a, " "); pan[a[1]] = a[2] }
            while ((getline l < cols) > 0) { split(l, a, " "); cix[a[1]] = a[2] }
            while ((getline l < vars) > 0) vo[++nvo] = l
            np = split("ladder accuracy anchors", pname, " ") }
    # a size of the sweep (the second field: its list, or "-") that lies strictly between x0 and x1
    function gap(x0, x1,   k) { for (k = 1; k <= nxs; k++) if (xs[k] + 0 > x0 + 0 && xs[k] + 0 < x1 + 0) return 1; return 0 }
    # the infinite bounds at the end of series v'"'"'s bound (after its last finite one)
    function ntail(v,   r, a, t) { t = 0; for (r = nb[v]; r >= 1; r--) { split(bl[v, r], a, " "); if (a[2] != "Inf") break; t++ } return t }
    # an x as the chart writes it (the fourth field: n, cond or another column)
    function xfmt(x,   k, m) { if (xk == "cond") return sprintf("%.0e", x)
      if (xk == "n") { m = x + 0; k = 0; while (m > 1 && m % 2 == 0) { m /= 2; k++ } if (m == 1 && k > 0) return "2^{" k "}" }
      return sprintf("%g", x) }
    # series v of the chart rewritten: an empty line (gnuplot ends the line and the band there)
    # where the sweep has a size the series has no point at
    function writeser(f, v,   j, b, px) { px = ""
      for (j = 1; j <= nLL[v]; j++) { split(LL[v, j], b, " "); if (px != "" && gap(px, b[1])) print "" > f; print LL[v, j] > f; px = b[1] }
      close(f) }
    { dir = $1; u = $3; xk = $4; lo = ""; hi = ""; xlo = ""; xhi = ""; nxs = ($2 == "-") ? 0 : split($2, xs, ",")
      split("", S); split("", C); split("", cnt); split("", any); split("", ng); split("", grp)
      split("", gfirst); split("", gci); split("", gn); split("", glab); split("", nb); split("", bl)
      split("", seen); split("", NBa); split("", sidx); split("", GL); split("", gmem); split("", glast); split("", LL); split("", nLL)
      for (vi = 1; vi <= nvo; vi++) { v = vo[vi]; ci = cix[v] + 0; f = dir "/" v ".dat"; nz = 0; n = 0; body = ""
        hasgap = 0
        # (body: what is drawn of the series, its line and its markers of exact and non-finite
        # results: series equal in it are one line and one key entry)
        while ((getline l < f) > 0) { m = split(l, a, " "); n++; body = body a[1] " " a[2] " " (a[5] + 0 > 0) " " (a[6] + 0 > 0) "\n"; LL[v, n] = l
          if (n > 1 && nxs && gap(px, a[1])) hasgap = 1; px = a[1]
          if (a[1] + 0 > 0) { if (xlo == "" || a[1] + 0 < xlo) xlo = a[1] + 0; if (xhi == "" || a[1] + 0 > xhi) xhi = a[1] + 0 }
          for (j = 2; j <= 4 && j <= m; j++) { if (a[j] == "NaN" || a[j] + 0 <= 0) continue
            y = a[j] + 0; nz = 1; if (lo == "" || y < lo) lo = y; if (hi == "" || y > hi) hi = y } }
        close(f); nLL[v] = n; if (!n) continue
        if (hasgap) writeser(f, v)
        p = pan[v]; if (p == "") p = "anchors"
        S[p] = S[p] " " v; C[p] = C[p] " " ci; cnt[p]++; if (nz) any[p] = 1; sidx[p, v] = cnt[p]
        # series drawn as the same line (equal medians; the 16-bit formats: every variant
        # accumulating in float gives the same results) share one band: a dozen translucent bands
        # stacked were opaque and hid the panel. The last of them keeps it (its line is drawn over
        # the others, so the band has the colour of the line one sees), spanning all their ranges.
        if ((p, body) in seen) { NBa[p, seen[p, body]] = 0; gmem[p, body] = gmem[p, body] " " v }
        else { GL[++ngl] = p SUBSEP body; gmem[p, body] = v }
        NBa[p, cnt[p]] = 1; seen[p, body] = cnt[p]; glast[p, body] = v
        if (wantb) { sig = ""; bf = dir "/" v ".bnd"; k = 0
          while ((getline l < bf) > 0) { split(l, a, " "); sig = sig a[1] ":" (a[2] == "Inf" ? a[2] : sprintf("%.2g", a[2])) ";"; bl[v, ++k] = l }
          close(bf); nb[v] = k
          if (k) { if (!((p, sig) in grp)) { grp[p, sig] = ++ng[p]; gfirst[p, ng[p]] = v; gci[p, ng[p]] = ci }
                   gi = grp[p, sig]; gn[p, gi]++; if (gn[p, gi] == 1) glab[p, gi] = v } } }
      # the probabilistic bound is not joined across a size of the sweep either
      pbf = dir "/_prob.bnd"; npb = 0
      if (wantb && nxs) { while ((getline l < pbf) > 0) PB[++npb] = l; close(pbf) }
      if (npb) { px = ""
        for (r = 1; r <= npb; r++) { split(PB[r], a, " "); if (px != "" && gap(px, a[1])) print "" > pbf; print PB[r] > pbf; px = a[1] }
        close(pbf) }
      # the kept series of a group of equal lines: its band (columns 3, 4) over the whole group,
      # and one key entry for the group (KL: per panel and series, the entry, or "-" for none):
      # the line seen is the last one, so the entry shows its colour and names it first; "all N"
      # when the group is the whole panel, else the names joined by "=" where they fit in a
      # column of the key (40 characters), else the last name and how many others
      split("", KL); split("", kdrop)
      for (gq = 1; gq <= ngl; gq++) { gk = GL[gq]; nm = split(gmem[gk], mem, " "); if (nm < 2) continue
        split(gk, gkp, SUBSEP); pp = gkp[1]; v = glast[gk]
        lab = v; for (r = 1; r < nm; r++) lab = lab " = " mem[r]
        if (nm == cnt[pp] && nm > 2) lab = v " = all " nm " (equal results)"
        else if (length(lab) > 40) lab = v " +" (nm - 1) " equal"
        for (r = 1; r < nm; r++) KL[pp, sidx[pp, mem[r]]] = "-"
        KL[pp, sidx[pp, v]] = lab; kdrop[pp] += nm - 1
        f = dir "/" v ".dat"
        for (j = 1; j <= nLL[v]; j++) { m = split(LL[v, j], a, " "); mn = a[3]; mx = a[4]
          for (r = 1; r < nm; r++) { split(LL[mem[r], j], b, " ")
            if (b[3] != "NaN" && (mn == "NaN" || b[3] + 0 < mn + 0)) mn = b[3]
            if (b[4] != "NaN" && (mx == "NaN" || b[4] + 0 > mx + 0)) mx = b[4] }
          a[3] = mn; a[4] = mx; l = a[1]; for (r = 2; r <= m; r++) l = l " " a[r]
          LL[v, j] = l }
        writeser(f, v) }
      ngl = 0
      if (u + 0 > 0) { if (lo == "" || u < lo) lo = u; if (hi == "" || u > hi) hi = u }
      ymin = lo / 4; ymax = hi * 40; k = 0; kr = 1; kr1 = 1; printf "%s\t", dir
      for (q = 1; q <= np; q++) { p = pname[q]; if (!cnt[p]) continue
        if (wantb && !any[p]) { print p ":" S[p] > (dir "/empty"); continue }
        # a panel of the reference alone (the CPU backend has no anchor but `exact`): nothing to compare
        if (wantb && S[p] == " exact") { print p > (dir "/exactonly"); continue }
        nbs = ""; kls = ""; m = split(substr(S[p], 2), sv, " ")
        for (q2 = 1; q2 <= cnt[p]; q2++) { nbs = nbs (q2 > 1 ? " " : "") NBa[p, q2]
          kls = kls (q2 > 1 ? " " : "") "\047" ((p, q2) in KL ? KL[p, q2] : sv[q2]) "\047" }
        k++; printf "t%d=\"%s (%d)\"; s%d=\"%s\"; c%d=\"%s\"; nb%d=\"%s\"; k%d=\"%s\"; ", k, p, cnt[p], k, substr(S[p], 2), k, substr(C[p], 2), k, nbs, k, kls
        bs = ""; bc = ""
        for (gi = 1; gi <= ng[p]; gi++) { v = gfirst[p, gi]; bfn = dir "/bound_" k "_" gi ".dat"; bmax = ""; ninf = 0; xinf = ""
          for (r = 1; r <= nb[v]; r++) { split(bl[v, r], a, " ")
            if (a[2] == "Inf") { if (!ninf++) xinf = xfmt(a[1]); tail = 1; continue }
            tail = 0; if (bmax == "" || a[2] + 0 > bmax) bmax = a[2] + 0 }
          lab = "bound: " glab[p, gi]; if (gn[p, gi] > 1) lab = lab " +" (gn[p, gi] - 1)
          # where no finite bound holds (k u >= 1, a partial sum that may overflow) the line
          # stops, and the key says where: from the first such x on, at K points, or at all
          winf = !ninf ? "" : tail && nb[v] - ninf > 0 && ninf == ntail(v) ? "∞ from " xinf : "∞ at " ninf " points"
          if (ninf == nb[v]) lab = lab " (all ∞)"
          else if (bmax > ymax) lab = lab sprintf(" (to %.0e", bmax) (ninf ? "; " winf : "") ")"
          else if (ninf) lab = lab " (" winf ")"
          print "\"" lab "\" 0" > bfn
          px = ""
          for (r = 1; r <= nb[v]; r++) { split(bl[v, r], a, " ")
            if (px != "" && gap(px, a[1])) print "" > bfn
            px = a[1]
            # (no finite bound anywhere: points far above the range, so that the key entry is drawn)
            print a[1], (a[2] != "Inf" ? a[2] : ninf == nb[v] ? ymax * 1e6 : "NaN") > bfn }
          close(bfn); bs = bs " bound_" k "_" gi; bc = bc " " gci[p, gi] }
        printf "b%d=\"%s\"; bc%d=\"%s\"; ", k, substr(bs, 2), k, substr(bc, 2)
        # the entries of the key: the series of the panel (equal ones merged) and bound lines; the last panel
        # also holds u, and at most 4 of the probabilistic bound, the line at 1, u cond, error 0 and
        # non-finite (added below)
        e = cnt[p] - kdrop[p] + ng[p]; elast = e; if (int((e + 1) / 2) > kr) kr = int((e + 1) / 2); if (e > kr1) kr1 = e }
      e = elast + 5; if (int((e + 1) / 2) > kr) kr = int((e + 1) / 2); if (e > kr1) kr1 = e
      close(dir "/empty"); close(dir "/exactonly")
      printf "np=%d; ymin=%.6g; ymax=%.6g; kr=%d; kr1=%d; xmin=%.6g; xmax=%.6g\n", k, ymin, ymax, kr, kr1, xlo, xhi }'
}

# $series (the variants of data dir D that have a D/VARIANT.dat, registry order, as the
# extractor wrote them to D/series) and $colors (their colour indices).
read_series() { # data-dir
  series=""; [ ! -s "$1/series" ] || IFS= read -r series < "$1/series"
  series_colours
}

# ---- error charts: accuracy-vs-n (per dataset and dtype), -cond and -range (per dtype) ------
# y = relative error |result - S| / |S|; where the exact sum S is 0, |result - S| / sum|x|
# (rel_err is infinite there). Errors of 0 go to a floor (u/256, or below the smallest nonzero
# error of the chart), drawn as a line and named in the key.
extract_error() { # experiment x-column by-dataset out-dir
  mkdir -p "$4"
  SL_DIRLIST=$4/dirs awk -F, -v expt="$1" -v xsrc="$2" -v bydata="$3" -v out="$4" -v vars="$tmp/vars" "$awk_put"'
    function bad(s) { return s == "" || s ~ /inf|nan/ }
    BEGIN { while ((getline l < vars) > 0) vo[++nvo] = l
            clip = (expt == "accuracy-vs-cond"); prob = (expt == "accuracy-vs-n") }
    NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
    index($0, expt ",") != 1 { next }   # (the first column: no field split for other rows)
    $c["experiment"] != expt { next }
    {
      g = bydata ? $c["dataset"] "__" $c["dtype"] : $c["dtype"]
      if (!(g in seen)) { seen[g]=1; order[++ng]=g; ds[g]=$c["dataset"]; dt[g]=$c["dtype"] }
      if ($c["status"] != "ok") next
      v = $c["variant"]; x = $c[xsrc]; if (!bad($c["unit_roundoff"])) u[g] = $c["unit_roundoff"]   # (u=inf: no program text)
      # accuracy-vs-cond of an operation that sweeps another parameter of its family (the sweep
      # column names it; lse: the logits'"'"' sigma): x is that parameter'"'"'s value
      psw = clip && ("sweep" in c) && $c["sweep"] != "" && $c["sweep"] != "cond"
      if (psw) { x = $c["sweep_value"]; xn[g] = $c["sweep"] }
      if (bad(x)) { nonfin[g]++; next }
      # accuracy-vs-cond: a point per target condition number (sweep_value), its x the median
      # of its instances measured cond (each instance has its own; keyed by the measured value
      # the instances of neighbouring targets interleaved and the line zigzagged between them)
      if (clip && !psw && ("sweep_value" in c) && !bad($c["sweep_value"])) {
        sv = $c["sweep_value"] + 0
        if (!((g, sv, $c["instance"]) in cseen)) { cseen[g, sv, $c["instance"]] = 1; cv[g, sv, ++cn[g, sv]] = x + 0 }
        x = sv; xmapped = 1 }
      # an exact sum that overflows the format (Inf = Inf has error 0): not an exact result
      if (bad($c["exact_hex"])) { nonfin[g]++; next }
      zeroS = ($c["exact_hex"] ~ /^-?0x0p\+0$/)
      if (zeroS) { num = $c["abs_err"]; den = $c["abssum"]; nz[g]++ } else { num = $c["rel_err"]; den = 1; nr[g]++ }
      d = out "/" g ".d/"; f = d v ".dat"; has[g, v] = 1; xpt(g, x)
      # a non-finite result against a finite exact sum: a marker at the top edge
      if (bad(num) || bad(den) || den+0 == 0) { nfres[g]++; agg(f, x, "NF"); next }
      y = num / den
      if (y == 0) zero[g]++
      # accuracy-vs-cond: a relative error past 1 (no correct digit) is drawn at 1
      if (clip && y > 1) { y = 1; nclip[g]++ }
      agg(f, x, y)
      bnum = zeroS ? $c["bound_abs"] : $c["bound_rel"]
      if (!bad(bnum) && bnum+0 > 0) agg(d v ".bnd", x, bnum / den)
      # a bound of +inf: no finite bound holds there (k u >= 1, a partial sum that may overflow);
      # counted as such (the key says where), never drawn as a value
      else if (bnum ~ /^[+]?[iI][nN][fF]/) agg(d v ".bnd", x, "NF")
      # beside the worst-case bounds, the probabilistic one (Higham & Mary 2019, lambda = 1):
      # sqrt(n) u cond (sqrt(n) u where S = 0, the error being relative to sum|x| there), for
      # every row with a finite error, whatever the variant'"'"'s own bound; a bound of a sum, so
      # not drawn for lse (its cond is Blanchard, Higham and Higham'"'"'s, of another error model)
      cd = zeroS ? 1 : $c["cond"]
      if (prob && !bad(cd) && cd + 0 > 0 && !(("op" in c) && $c["op"] == "lse"))
        agg(d "_prob.bnd", x, sqrt($c["n"] + 0) * $c["unit_roundoff"] * cd)
    }
    # Each series file holds a line per x of its chart: "x median min max zero nonfinite" over
    # the point instances (run --seeds K, the full preset) with a finite error; median, min and
    # max NaN where there is none, the median NaN where it is 0 (an exact result); min the least
    # nonzero error (a band down to the edge of the log axis for one exact instance hid the others);
    # zero = 1 where some instance is exact: a marker at the bottom edge; nonfinite: the
    # instances with a non-finite result (a marker at the top edge). NaN breaks the line: no line
    # is drawn across a missing point.
    function xpt(g, x) { if (!((g, x) in isx)) { isx[g, x] = 1; xs[g, ++nx[g]] = x } }
    function agg(f, x, y,   k) { k = f SUBSEP x; if (!(k in an)) { ak[++nak] = k; af[nak] = f; ax[nak] = x; ag[nak] = g; an[k] = 0 }
      if (y == "NF") nfk[k]++; else av[k, ++an[k]] = y + 0 }
    # the x of a target cond: the median of its instances measured cond
    function xof(g, x,   a, m, j, t, q) { if (!xmapped || !((g, x) in cn)) return x
      if ((g, x) in xmed) return xmed[g, x]
      m = cn[g, x]; split("", a); for (j = 1; j <= m; j++) a[j] = cv[g, x, j]
      for (j = 2; j <= m; j++) { t = a[j]; q = j - 1; while (q >= 1 && a[q] > t) { a[q + 1] = a[q]; q-- } a[q + 1] = t }
      xmed[g, x] = sprintf("%.17g", (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2); return xmed[g, x] }
    function agg_flush(   i, j, m, k, t, q, a, med, g, v, f, x, z, X) {
      for (i = 1; i <= nak; i++) { k = ak[i]; m = an[k]; split("", a); X = xof(ag[i], ax[i])
        for (j = 1; j <= m; j++) a[j] = av[k, j]
        for (j = 2; j <= m; j++) { t = a[j]; q = j - 1; while (q >= 1 && a[q] > t) { a[q + 1] = a[q]; q-- } a[q + 1] = t }
        med = !m ? "NaN" : (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        # a bound: the median over the instances, an infinite one the largest ("Inf" where the
        # median is infinite)
        if (af[i] ~ /[.]bnd$/) { t = m + nfk[k]; if (!t) continue
          j = (t % 2) ? (t + 1) / 2 : t / 2 + 1
          put(af[i], X, X " " (j > m ? "Inf" : (t % 2) ? a[j] : (a[t / 2] + a[j]) / 2)); continue }
        for (z = 1; z <= m && a[z] == 0; z++) ;
        put(af[i], X, X " " (m && med == 0 ? "NaN" : med) " " (z <= m ? a[z] : "NaN") " " (z <= m ? a[m] : "NaN") " " \
            (z > 1 ? 1 : 0) " " (nfk[k] + 0)) }
      # the sizes a series lacks (not run, skipped): NaN lines, so its line breaks there
      for (q = 1; q <= ng; q++) { g = order[q]
        for (i = 1; i <= nvo; i++) { v = vo[i]; if (!((g, v) in has)) continue; f = out "/" g ".d/" v ".dat"
          for (j = 1; j <= nx[g]; j++) { x = xs[g, j]; if (!((f SUBSEP x) in an)) { X = xof(g, x); put(f, X, X " NaN NaN NaN 0 0") } } } } }
    END { agg_flush(); dirs = ""
      for (k=1;k<=ng;k++) { g=order[k]; dirs = dirs "\n" out "/" g ".d"
        print g, ds[g], dt[g], u[g]+0, zero[g]+0, nonfin[g]+0, nz[g]+0, nr[g]+0, nfres[g]+0, nclip[g]+0, \
              ((g in xn) ? xn[g] : "-") > (out "/meta") }
      mkdirs(dirs)
      put_flush(none)
      for (k=1;k<=ng;k++) { g=order[k]; sl = ""
        for (i=1;i<=nvo;i++) if ((g, vo[i]) in has) sl = sl (sl == "" ? "" : " ") vo[i]
        print sl > (out "/" g ".d/series"); close(out "/" g ".d/series") } }
  ' "$res"
}

# bound tightness: per operation and dtype, every variant's |error| / a-priori bound (the
# bound_ratio column) over all accuracy rows with a finite positive bound, one value per line in
# DIR/OP__DTYPE.d/VARIANT.dat (the chart draws their ECDF), DIR/OP__DTYPE.d/labels each variant's
# count over its bound; groups: "g op dtype u rows over zeros min-nonzero max".
extract_ti() {
  local src=$tmp/ti; mkdir -p "$src"
  SL_DIRLIST=$src/dirs awk -F, -v out="$src" -v vars="$tmp/vars" "$awk_put"'
    function bad(s) { return s == "" || s ~ /inf|nan/ }
    BEGIN { while ((getline l < vars) > 0) { vo[++nvo] = l; keep[l] = 1 } }
    NR==1 { for (i=1;i<=NF;i++) c[$i]=i; if (!("bound_ratio" in c) || !("bound_abs" in c)) exit; ok = 1; next }
    index($0, "accuracy-") != 1 { next }
    $c["status"] != "ok" || !($c["variant"] in keep) { next }
    { r = $c["bound_ratio"]; b = $c["bound_abs"]
      if (bad(r) || bad(b) || b + 0 <= 0 || bad($c["exact_hex"])) next
      op = ("op" in c) && $c["op"] != "" ? $c["op"] : "sum"; g = op "__" $c["dtype"]; v = $c["variant"]
      if (!(g in seen)) { seen[g] = 1; order[++ng] = g; gop[g] = op; gdt[g] = $c["dtype"]; u[g] = $c["unit_roundoff"] + 0 }
      has[g, v] = 1; nrow[g]++; if (r + 0 > 1) { over[g]++; vover[g, v]++ }
      if (r + 0 > 0 && (!((g) in lo) || r + 0 < lo[g])) lo[g] = r + 0
      if (!((g) in hi) || r + 0 > hi[g]) hi[g] = r + 0
      if (r + 0 == 0) nzero[g]++
      put(out "/" g ".d/" v ".dat", r, r + 0) }
    END { if (!ok) exit; dirs = ""
      for (k = 1; k <= ng; k++) dirs = dirs "\n" out "/" order[k] ".d"
      mkdirs(dirs); put_flush(none)
      for (k = 1; k <= ng; k++) { g = order[k]; sl = ""; lab = ""
        for (i = 1; i <= nvo; i++) if ((g, vo[i]) in has) { sl = sl (sl == "" ? "" : " ") vo[i]
          lab = lab (lab == "" ? "" : " ") (vover[g, vo[i]] + 0) }
        print sl > (out "/" g ".d/series"); close(out "/" g ".d/series")
        print lab > (out "/" g ".d/labels"); close(out "/" g ".d/labels")
        printf "%s %s %s %.6g %d %d %d %.6g %.6g\n", g, gop[g], gdt[g], u[g], nrow[g], over[g], nzero[g], \
               ((g in lo) ? lo[g] : 1e-3), (hi[g] > 0 ? hi[g] : 1) > (out "/groups") } }
  ' "$res"
}

render_error() { # experiment x-column by-dataset script chart-prefix x-what
  local exp=$1 xcol=$2 byds=$3 script=$4 prefix=$5 src=$tmp/$5
  if [ ! -s "$src/meta" ]; then note "$prefix: no $exp rows in this run: skipped"; return 0; fi
  local g ds dt u nzero nonfin nzs nrel nfres nclip xn xv out stem ttl ylab floor f d pv nexact=0
  local -A PV=() XS=()
  # accuracy-vs-n: the sizes the sweep ran per dtype (a series without a point at one of them is
  # not joined across it)
  if [ "$xcol" = n ]; then
    while read -r e d pv; do [ "$e" != "$exp" ] || XS[$e $d]=${XS[$e $d]:+${XS[$e $d]},}$pv; done < "$tmp/sizes"
  fi
  while IFS=$'\t' read -r d pv; do PV[$d]=$pv; done < <(
    while read -r g ds dt u nzero nonfin nzs nrel nfres nclip xn; do
      printf '%s\t%s\t%s\t%s\n' "$src/$g.d" "${XS[$exp $dt]:--}" "$u" "$([ "$xn" = - ] && echo "$xcol" || echo sweep_value)"
    done < "$src/meta" | panels_all 1)
  while read -r g ds dt u nzero nonfin nzs nrel nfres nclip xn; do
    out=$src/$g.d
    read_series "$out"
    stem=${prefix}_$g
    [ "$byds" = 1 ] || stem=${prefix}_$dt
    if [ -z "$series" ]; then
      note "$stem: no finite errors to draw ($nonfin non-finite results, e.g. Inf/NaN inputs or overflow): skipped"
      continue
    fi
    pv=${PV[$out]}
    case $pv in *"np=0;"*)
      note "$stem: every error is 0 (exact) or non-finite for all $(wc -w < <(cut -d: -f2 "$out/empty")) variants: no chart (the report's tables give them)"; continue ;; esac
    if [ -s "$out/empty" ]; then
      while IFS= read -r line; do
        note "$stem: ${line%%:*} panel not drawn: every error is 0 (exact) or non-finite for${line#*:}"
      done < "$out/empty"
    fi
    [ ! -s "$out/exactonly" ] || nexact=$((nexact + 1))
    # one x with a finite error (accuracy-vs-n of a 16-bit format whose larger sums overflow): a
    # line chart of one point per variant says nothing the table does not
    if [[ $pv =~ xmin=([^;]*)\;\ xmax=([^;]*) ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]; then
      note "$stem: finite errors at one $xcol only (${BASH_REMATCH[1]}; $nonfin rows with a non-finite exact result or parameter): no chart (the report's table gives them)"
      continue
    fi
    if [ "$nzs" -gt 0 ] && [ "$nrel" -eq 0 ]; then ylab="|result - S| / sum|x|   (exact sum S = 0)"
    elif [ "$nzs" -gt 0 ]; then ylab="relative error |result - S| / |S|   (|result - S| / sum|x| where S = 0)"
    else ylab="relative error |result - S| / |S|"; fi
    ttl="$exp: $ds, $dt"
    [ "$byds" = 1 ] || ttl="$ttl${N_NOTE[$exp $dt]:-}"
    ttl="$ttl${INST_NOTE[$exp]:-}"
    band=0; [ "${INST[$exp]:-1}" -le 1 ] || { band=1; ttl="$ttl (median, min-max band)"; }
    [ "$nonfin" -gt 0 ] && ttl="$ttl  ($nonfin rows with a non-finite exact result or parameter not drawn)"
    # (accuracy-vs-cond: relative errors past 1 were drawn at 1 by extract_error; said where any was)
    clip=0; [ "$nclip" = 0 ] || { clip=1; ylab="$ylab, clipped at 1"; ttl="$ttl  ($nclip errors > 1 drawn at 1)"; }
    prob=0; [ ! -s "$out/_prob.bnd" ] || prob=1
    # another swept parameter than cond (xn: the sweep column, checked as a name, and the family,
    # a registry name): its name on the x axis, no u * cond guide
    xv=""; [ "$xn" = - ] || xv="; xlab='$xn  (the parameter of the $ds family that the sweep varies)'; guide=0"
    # dot's condition number is Ogita, Rump and Oishi's
    [ "$xn" != - ] || [ "$ds" != dot-cond ] || xv="; xlab='condition number  2 sum|x y| / |sum x y|'"
    gp "$script" "$stem" "datadir='$out'; $pv; u=$u; haszero=$((nzero > 0)); hasnf=$((nfres > 0)); band=$band; clip=$clip; prob=$prob; ttl='$ttl'; ylab='$ylab'$xv"
  done < "$src/meta"
  [ "$nexact" = 0 ] || note "$prefix: the anchors panel of $nexact charts not drawn: it holds only exact (the reference rounded once; the CPU backend has no other anchor)"
}

# Extractors of the other kinds (used below, after the error charts) ------------------------
# throughput vs n: per dtype, every GPU variant's GB/s by n.
extract_tp() {
  local src=$tmp/tp; mkdir -p "$src"
  SL_DIRLIST=$src/dirs awk -F, -v out="$src" -v vars="$tmp/vars" -v fam="$tmp/fam" "$awk_put"'
    BEGIN { while ((getline l < vars) > 0) vo[++nvo] = l
            while ((getline l < fam) > 0) { split(l, a, " "); pan[a[1]] = a[2] } }
    NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
    index($0, "throughput-vs-n,") != 1 { next }
    $c["experiment"] != "throughput-vs-n" || $c["status"] != "ok" || $c["backend"] != "gpu" { next }
    $c["gbps"] == "" || $c["gbps"] ~ /inf|nan/ { next }
    { g = $c["dtype"]; if (!(g in seen)) { seen[g]=1; order[++ng]=g }
      # the input families of the group (the title names them: uniform, lse'"'"'s logits, --datasets'"'"');
      # a framework'"'"'s series (family pytorch: throughput_torch.py'"'"'s rows, timed on its own input)
      # named apart when its input is not one of them, as "torch.sum on normal"
      if ($c["family"] == "pytorch") {
        if (!((g, "fw", $c["variant"], $c["dataset"]) in dseen)) { dseen[g, "fw", $c["variant"], $c["dataset"]] = 1
          nfw[g]++; fwv[g, nfw[g]] = $c["variant"]; fwd[g, nfw[g]] = $c["dataset"] }
      } else if (!((g, $c["dataset"]) in dseen)) { dseen[g, $c["dataset"]] = 1; dss[g] = dss[g] (dss[g] == "" ? "" : ",") $c["dataset"] }
      put(out "/" g ".d/" $c["variant"] ".dat", $c["n"], $c["n"] " " $c["gbps"]); has[g, $c["variant"]] = 1
      if ($c["n"] + 0 >= 1048576) { rk[++nr] = g SUBSEP $c["variant"] SUBSEP $c["n"]; gb[g, $c["variant"], $c["n"]] = $c["gbps"] + 0 } }
    # the ratio panel: GB/s over CUB'"'"'s at the same n, n >= 2^20 (where a 2 % gap matters and the
    # log scale hides it): VARIANT.rat lines "n ratio x row", the range in DTYPE.d/ratio ("lo hi";
    # none without CUB rows; then the rows of markers below and above the scale: "lo hi lrows hrows";
    # a ratio that overflows, over a CUB GB/s too small (a subnormal), is none: its variants and n in
    # DTYPE.d/noratio, for a note, and no inf reaches the program text of gnuplot).
    # x and row place the marker of a ratio off the panel'"'"'s scale (below
    # 0.5 or above 1.5): the variants off scale at one n, side and panel are a cluster of up to 4
    # markers a row (registry order), 0.17 of a binary decade apart around n (left of n at the
    # last n, so none falls off the axis), rows stacked from the edge inwards. The read ceiling is
    # a reference line, no marker: past the scale it runs off the edge of the panel.
    END { dirs = ""; for (k=1;k<=ng;k++) { g = order[k]; dirs = dirs "\n" out "/" g ".d"; fws = ""
        for (i = 1; i <= nfw[g]; i++) {
          if ((g, fwd[g, i]) in dseen) continue
          if (dss[g] == "") { dseen[g, fwd[g, i]] = 1; dss[g] = fwd[g, i]; continue }   # a framework'"'"'s rows alone (no GPU rows)
          fws = fws (fws == "" ? "" : ", ") fwv[g, i] " on " fwd[g, i] }
        print g, dss[g] (fws == "" ? "" : "; " fws) > (out "/groups") }
      for (i = 1; i <= nr; i++) { split(rk[i], q, SUBSEP); g = q[1]; v = q[2]; n = q[3]
        if (v == "cub" || !((g, "cub", n) in gb) || gb[g, "cub", n] <= 0) continue
        r = gb[g, v, n] / gb[g, "cub", n]
        if (r > 1.7976931348623157e308) { nor[g] = nor[g] (nor[g] == "" ? "" : ", ") v " at n = " n; continue }
        R[i] = r; if (!(g in nmax) || n + 0 > nmax[g]) nmax[g] = n + 0
        if ((r < 0.5 || r > 1.5) && v != "read-ceiling") { K = g SUBSEP pan[v] SUBSEP n SUBSEP (r < 0.5); offv[K, v] = 1; offn[K]++ }
        if (!(g in rlo) || r < rlo[g]) rlo[g] = r; if (!(g in rhi) || r > rhi[g]) rhi[g] = r }
      for (i = 1; i <= nr; i++) { if (!(i in R)) continue; split(rk[i], q, SUBSEP); g = q[1]; v = q[2]; n = q[3]; r = R[i]
        x = n; row = 0
        if ((r < 0.5 || r > 1.5) && v != "read-ceiling") { K = g SUBSEP pan[v] SUBSEP n SUBSEP (r < 0.5); slot = 0
          for (j = 1; j <= nvo && vo[j] != v; j++) if ((K, vo[j]) in offv) slot++
          row = int(slot / 4); col = slot % 4; m = offn[K] - 4 * row; if (m > 4) m = 4
          if (r < 0.5) { if (row + 1 > lrows[g]) lrows[g] = row + 1 } else if (row + 1 > hrows[g]) hrows[g] = row + 1
          x = n * 2 ^ (((n + 0 == nmax[g]) ? col - (m - 1) : col - (m - 1) / 2) * 0.17) }
        put(out "/" g ".d/" v ".rat", n, n " " r " " sprintf("%.6g", x) " " row) }
      mkdirs(dirs); put_flush(none)
      for (g in rlo) { print rlo[g], rhi[g], lrows[g] + 0, hrows[g] + 0 > (out "/" g ".d/ratio"); close(out "/" g ".d/ratio") }
      for (g in nor) { print nor[g] > (out "/" g ".d/noratio"); close(out "/" g ".d/noratio") }
      # the ratios off the panel scale (below 0.5 or above 1.5, throughput_vs_n.gp clamps its
      # axis there): per variant its range, for its key entry (the panel marks the points at
      # the edge), DTYPE.d/offscale one line of words "variant=RANGE"
      for (i = 1; i <= nr; i++) { split(rk[i], q, SUBSEP); g = q[1]; v = q[2]; n = q[3]
        if (v == "cub" || v == "read-ceiling" || !((g, "cub", n) in gb) || gb[g, "cub", n] <= 0) continue
        r = gb[g, v, n] / gb[g, "cub", n]; if ((r >= 0.5 && r <= 1.5) || r > 1.7976931348623157e308) continue
        if (!((g, v) in olo)) { oord[g] = oord[g] " " v; olo[g, v] = r; ohi[g, v] = r }
        if (r < olo[g, v]) olo[g, v] = r; if (r > ohi[g, v]) ohi[g, v] = r }
      for (k = 1; k <= ng; k++) { g = order[k]; if (!(g in oord)) continue; m = split(oord[g], ov, " "); l = ""
        for (j = 1; j <= m; j++) { v = ov[j]
          rr = sprintf("%.2g", olo[g, v]) (ohi[g, v] > olo[g, v] ? "-" sprintf("%.2g", ohi[g, v]) : "")
          l = l (l == "" ? "" : " ") v "=" (ohi[g, v] < 0.5 ? "▼" : olo[g, v] > 1.5 ? "▲" : "▼▲") rr "x" }
        print l > (out "/" g ".d/offscale"); close(out "/" g ".d/offscale") }
      for (k=1;k<=ng;k++) { g=order[k]; sl = ""
        for (i=1;i<=nvo;i++) if ((g, vo[i]) in has) sl = sl (sl == "" ? "" : " ") vo[i]
        print sl > (out "/" g ".d/series"); close(out "/" g ".d/series") } }
  ' "$res"
}
# tradeoff: per backend and dtype, every variant's median ulps and median GB/s.
extract_to() {
  local src=$tmp/to; mkdir -p "$src"
  # per backend and dtype: every variant's median ulps and median GB/s (sorted numerically; the
  # middle value, or the mean of the two middle ones) as "GBPS ULPS VARIANT COLOUR" lines in
  # DTYPE.points.BACKEND (registry order; a median ulps of 0 drawn at the floor 2^-10, said by
  # hz=1) and "hz colours names" in DTYPE.info.BACKEND; the tradeoff's n in n.
  awk -F, -v out="$src" -v vars="$tmp/vars" -v colsf="$tmp/colours" '
    function med(k, m,   i, j, t, a) {
      for (i = 1; i <= m; i++) a[i] = V[k, i]
      for (i = 2; i <= m; i++) { t = a[i]; j = i - 1; while (j >= 1 && a[j] + 0 > t + 0) { a[j + 1] = a[j]; j-- } a[j + 1] = t }
      return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    BEGIN { while ((getline l < vars) > 0) vo[++nvo] = l
            while ((getline l < colsf) > 0) { split(l, a, " "); cix[a[1]] = a[2] } }
    NR==1 { for (i=1;i<=NF;i++) c[$i]=i; next }
    index($0, "tradeoff,") != 1 { next }
    $c["experiment"] == "tradeoff" && tn == "" { tn = $c["n"] }
    $c["experiment"] != "tradeoff" || $c["status"] != "ok" { next }
    $c["backend"] != "gpu" && $c["backend"] != "cpu" { next }
    $c["gbps"] == "" || $c["gbps"] ~ /inf|nan/ || $c["ulps"] == "" || $c["ulps"] ~ /inf|nan/ { next }
    $c["exact_hex"] ~ /^-?0x0p\+0$/ { next }
    { b = $c["backend"]; g = $c["dtype"]; if (!((b, g) in seen)) { seen[b, g]=1; print g > (out "/groups." b) }
      k = b SUBSEP g SUBSEP $c["variant"]; m = ++cnt[k]; V[k "u", m] = $c["ulps"]; V[k "g", m] = $c["gbps"] }
    END { print tn > (out "/n")
      for (bg in seen) { split(bg, q, SUBSEP); b = q[1]; g = q[2]; hz = 0; cols = ""; names = ""
        pf = out "/" g ".points." b; printf "" > pf
        for (i = 1; i <= nvo; i++) { v = vo[i]; k = b SUBSEP g SUBSEP v; if (!(k in cnt)) continue
          mu = med(k "u", cnt[k]); mg = med(k "g", cnt[k])
          if (mu + 0 == 0) { mu = "0.0009765625"; hz = 1 }
          print mg " " mu " " v " " cix[v] > pf
          cols = cols " " cix[v]; names = names " " v }
        close(pf); print hz "\t" substr(cols, 2) "\t" substr(names, 2) > (out "/" g ".info." b); close(out "/" g ".info." b) } }
  ' "$res"
}
# distribution: per dataset and dtype, every variant's distinct results of the determinism
# repetitions.
extract_di() {
  local src=$tmp/di; mkdir -p "$src"
  if [ -r "$dist" ]; then
    SL_DIRLIST=$src/dirs awk -F, -v out="$src" -v vars="$tmp/vars" "$awk_put"'
      BEGIN { while ((getline l < vars) > 0) vo[++nvo] = l }
      FNR==1 { for (i=1;i<=NF;i++) c[$i]=i; file++; next }
      file == 1 && index($0, "determinism,") != 1 { next }
      file == 1 { if ($c["experiment"] == "determinism") cls[$c["variant"]] = $c["det_class"]; next }
      $c["experiment"] != "determinism" || $c["config"] != "default" { next }
      {
        k = $c["dataset"] "__" $c["dtype"] SUBSEP $c["variant"]; nd[k]++
        if ($c["backend"] == "cpu") oncpu[k] = 1
        key[k, nd[k]] = $c["ulps_signed"]; line[k, nd[k]] = $c["ulps_signed"] " " $c["count"]
        if ($c["ulps_signed"] ~ /inf|nan/ || $c["ulps_signed"] == "") bad[k] = 1
      }
      END { dirs = ""
        for (k in nd) {
          split(k, p, SUBSEP)
          if (bad[k] || (cls[p[2]] != "nondeterministic" && nd[k] < 2)) continue
          for (i = 1; i <= nd[k]; i++) put(out "/" p[1] ".d/" p[2] ".dat", key[k, i], line[k, i])
          has[p[1], p[2]] = 1
          # a drawn series from a CPU twin (the CPU backend): the titles say it is a model
          if ((k in oncpu) && !cpu) { cpu = 1; printf "" > (out "/cpu"); close(out "/cpu") }
          if (!(p[1] in seen)) { seen[p[1]] = 1; print p[1] > (out "/groups"); dirs = dirs "\n" out "/" p[1] ".d" }
        }
        mkdirs(dirs); put_flush(none)
        for (g in seen) { sl = ""
          for (i=1;i<=nvo;i++) if ((g, vo[i]) in has) sl = sl (sl == "" ? "" : " ") vo[i]
          print sl > (out "/" g ".d/series"); close(out "/" g ".d/series") }
      }
    ' "$res" "$dist"
  fi
}

# The other kinds' data are extracted beside error_vs_n's (the largest: the pool starts on its
# charts while the rest are prepared).
( extract_error accuracy-vs-cond cond 0 "$tmp/error_vs_cond"
  extract_error accuracy-vs-range sweep_value 0 "$tmp/error_vs_range"
  extract_ti; extract_tp; extract_to; extract_di ) &
side_pid=$!
extract_error accuracy-vs-n n 1 "$tmp/error_vs_n"
render_error accuracy-vs-n n 1 error_vs_n.gp error_vs_n
wait "$side_pid"
pool_run 0
render_error accuracy-vs-cond cond 0 error_vs_cond.gp error_vs_cond
render_error accuracy-vs-range sweep_value 0 error_vs_range.gp error_vs_range

# ---- bound tightness: ECDF of |error| / bound per variant, per operation and dtype -----------
src=$tmp/ti
if [ ! -s "$src/groups" ]; then
  note "tightness: no accuracy rows with a finite a-priori bound in this run: skipped"
else
  while read -r g op dt u nrow nover nzero lo hi; do
    read_series "$src/$g.d"
    IFS= read -r labels < "$src/$g.d/labels" || :
    stem=tightness_$g; [ "$op" != sum ] || stem=tightness_$dt
    ttl="bound tightness: $op, $dt, |error| / a-priori bound over the accuracy rows ($nrow rows"
    if [ "$nover" -gt 0 ]; then ttl="$ttl, $nover over the bound)"; else ttl="$ttl, none over the bound)"; fi
    gp tightness.gp "$stem" "datadir='$src/$g.d'; series='$series'; over='$labels'; colors='$colors'; lo=$lo; hi=$hi; haszero=$((nzero > 0)); ttl='$ttl'"
  done < "$src/groups"
fi
pool_run 0

# ---- throughput vs n (GPU rows only) ------------------------------------------------------
src=$tmp/tp
if [ ! -s "$src/groups" ]; then
  note "throughput_vs_n: no GPU throughput rows (CPU backend, or throughput-vs-n not run): skipped"
else
  while read -r dt dss; do
    read_series "$src/$dt.d"
    pv=$(printf '%s\t-\t0\t-\n' "$src/$dt.d" | panels_all 0 | cut -f2-)
    rat="hasrat=0; rlo=1; rhi=1; lrows=0; hrows=0"
    if [ -s "$src/$dt.d/ratio" ]; then
      read -r rlo rhi lrows hrows < "$src/$dt.d/ratio"
      case $lrows in ''|*[!0-9]*) lrows=0 ;; esac   # row counts: digits only into gnuplot's -e
      case $hrows in ''|*[!0-9]*) hrows=0 ;; esac
      rat="hasrat=1; rlo=$rlo; rhi=$rhi; lrows=$lrows; hrows=$hrows"
    fi
    if [ -s "$src/$dt.d/noratio" ]; then
      IFS= read -r nor < "$src/$dt.d/noratio"
      note "throughput_vs_n_$dt: no ratio to CUB drawn for $nor: CUB's GB/s there is too small for a finite ratio"
    fi
    offs=""; [ ! -s "$src/$dt.d/offscale" ] || IFS= read -r offs < "$src/$dt.d/offscale"
    rat="$rat; offs='$offs'"
    gp throughput_vs_n.gp "throughput_vs_n_$dt" "datadir='$src/$dt.d'; series='$series'; $pv; $rat; ttl='throughput-vs-n: $dt input ($dss)${INST_NOTE[throughput-vs-n]:-}'"
  done < "$src/groups"
fi

# ---- tradeoff: per variant, median ulps and median GB/s over the tradeoff datasets ----------
# GPU rows only (a GPU run: CPU-only variants such as pairwise are left out); a CPU backend's
# run gets a note instead.
# Rows whose exact sum is 0 have no meaningful ulps (ulps of the smallest subnormal): left out.
src=$tmp/to
if [ -s "$src/groups.gpu" ]; then
  to_be=gpu; to_sub="GPU: GB/s = input bytes / median time of the timed repetitions on the device"
  to_xlab="median throughput (GB/s)"
else
  to_be=""
fi
# On the CPU backend the speeds would be the CPU twins' wall clock, which says nothing about a
# GPU: no chart (the report's tradeoff table gives the errors and says what its GB/s are).
if [ -z "$to_be" ] && [ -s "$src/groups.cpu" ]; then
  note "tradeoff: CPU backend: no chart (its speeds would be the CPU twins' wall clock, not a GPU's; the report's table gives the errors)"
elif [ -z "$to_be" ]; then
  note "tradeoff: no tradeoff rows in this run (tradeoff not run, or not reached): skipped"
else
  IFS= read -r n < "$src/n" || :
  while read -r dt; do
    IFS=$'\t' read -r hz colors names < "$src/$dt.info.$to_be"
    mv "$src/$dt.points.$to_be" "$src/$dt.points"
    # the key lists the variants family by family (first appearance order), each family once
    # (a variant registered after the anchors, block-row, opened a second "accuracy" group)
    read -ra nv <<< "$names"; read -ra cv <<< "$colors"; order=""; names=""; colors=""; fams=""
    for v in "${nv[@]}"; do f=${FAM[$v]:-}; [[ " $order " == *" $f "* ]] || order="$order $f"; done
    for f in $order; do
      for i in "${!nv[@]}"; do [ "${FAM[${nv[$i]}]:-}" = "$f" ] || continue
        names="$names${nv[$i]} "; colors="$colors${cv[$i]} "; fams="$fams$f "; done
    done
    for i in "${!nv[@]}"; do [ -n "${FAM[${nv[$i]}]:-}" ] || { names="$names${nv[$i]} "; colors="$colors${cv[$i]} "; }; done
    names=${names% }; colors=${colors% }
    # the points file in the same order (the chart takes row i for entry i)
    awk -v order="$names" 'BEGIN { n = split(order, o, " ") } { row[$3] = $0 }
      END { for (i = 1; i <= n; i++) print row[o[i]] }' "$src/$dt.points" > "$src/$dt.points.o"
    mv "$src/$dt.points.o" "$src/$dt.points"
    # points drawn over each other (within 0.04 of a decade on both axes, about the size of a
    # marker): each such cluster numbered beside its rightmost point, the number and the
    # cluster's variants in the key (names beside the points ran into each other)
    awk 'function lg(v) { return log(v > 0 ? v : 1e-300) / log(10) }
      { n++; x[n] = lg($1); y[n] = lg($2); gx[n] = $1; gy[n] = $2; nm[n] = $3; c[n] = n }
      END { do { ch = 0
              for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (c[i] != c[j] && (x[i] - x[j])^2 < 0.0016 && (y[i] - y[j])^2 < 0.0016) { a = c[i] < c[j] ? c[i] : c[j]; c[i] = a; c[j] = a; ch = 1 }
            } while (ch)
            for (i = 1; i <= n; i++) { k = c[i]; cnt[k]++; lab[k] = lab[k] (lab[k] == "" ? "" : ", ") nm[i]
              if (!(k in mx) || gx[i] > mx[k]) mx[k] = gx[i]; sy[k] += y[i] }
            for (i = 1; i <= n; i++) { k = c[i]; if (cnt[k] < 2 || (k in num)) continue; num[k] = ++m
              printf "%s %.6g \"(%d)\"\n", mx[k], 10 ^ (sy[k] / cnt[k]), m > out
              printf "%s\047(%d) %s\047", (m > 1 ? " " : ""), m, lab[k] } }' out="$src/$dt.labels" \
      "$src/$dt.points" > "$src/$dt.clusters" || write_fail "the scratch folder $tmp"
    clusters=""; [ ! -s "$src/$dt.clusters" ] || IFS= read -r clusters < "$src/$dt.clusters" || :   # (one line, no newline)
    gp tradeoff.gp "tradeoff_$dt" "labels='$src/$dt.labels'; clusters=\"$clusters\"; data='$src/$dt.points'; colors='$colors'; names='$names'; fams='${fams% }'; floor=0.0009765625; haszero=$hz; xlab='$to_xlab'; ttl='tradeoff: $dt input, n = $n, one point per variant (medians over the tradeoff datasets)'; ttl2='$to_sub'"
  done < "$src/groups.$to_be"
fi

# ---- distribution of results (determinism repetitions) ------------------------------------
src=$tmp/di
if [ ! -s "$src/groups" ]; then
  note "distribution: no determinism repetitions of nondeterministic variants in this run: skipped"
else
  sort -o "$src/groups" "$src/groups"
  while read -r g; do
    read_series "$src/$g.d"
    ds=${g%__*}; dt=${g##*__}
    cpum=""; [ ! -e "$src/cpu" ] || cpum=" (CPU model of GPU commit order)"
    gp distribution.gp "distribution_$g" "datadir='$src/$g.d'; series='$series'; colors='$colors'; ttl='determinism: distinct results over the repetitions$cpum, $ds, $dt${N_NOTE[determinism $dt]:-}${INST_NOTE[determinism]:-}'"
  done < "$src/groups"
fi

# ---- ladder: each text's rungs, speedup over its first rung, measured beside published ------
if [ -n "$ladder" ]; then
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
  ' "$ladder"
  if [ -s "$src/texts" ]; then
    while read -r t n; do
      # each source text cited by its title (in English: the PNG fonts may lack CJK glyphs; the
      # report gives the original titles)
      case $t in
        text1) cite="Lesson 21: from an inefficient reduction kernel to a high-performance reduction" ;;
        text2) cite="PyTorch and OneFlow in depth: vectorised memory access and warp primitives in reduce operators" ;;
        *) cite="" ;;
      esac
      # a text without published figures: one bar per rung (no empty second bar, no key entry)
      pub=$(awk '$NF != "?" { k = 1 } END { print k + 0 }' "$src/$t.dat")
      gp ladder.gp "ladder_$t" "data='$src/$t.dat'; pub=$pub; cite='$cite'; ttl='ladder of ${t/text/text }: speedup per rung over its first, float32 n = $n, 256 threads per block'"
    done < "$src/texts"
  else
    note "ladder: ladder.csv has no block-256 rows: skipped"
  fi
fi

# ---- launch-config: throughput maps with the best cell, error vs block size and accumulators,
# aligned vs misaligned loads (plots/launch_config.gp), at each dtype's largest n -------------
if [ -n "$launch" ]; then
  src=$tmp/lc; mkdir -p "$src"
  awk -F, -v out="$src" '
    function lg(v,   k) { k = 0; while (v > 1) { v = v / 2; k++ } return k }
    NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
      d = $c["dtype"]; if ($c["n"] + $c["tail"] > nmax[d]) nmax[d] = $c["n"] + $c["tail"]
      if ($c["sweep"] == "grid" && $c["block_req"] > 0) { k = $c["variant"] "__" d
        if (!(k in gmin) || $c["grid_req"] < gmin[k]) gmin[k] = $c["grid_req"] }
      next }
    FNR == 1 { next }
    { d = $c["dtype"]; v = $c["variant"]; sw = $c["sweep"]; g = $c["gbps"] }
    $c["n"] + $c["tail"] != nmax[d] { next }
    { be[d] = $c["backend"] }
    function cell(f, x, y, val, xl, yl) {
      if (val == "") return
      printf "%d %d %s %s %s\n", x, y, val, xl, yl >> (out "/" f ".dat")
      if (!(f in best) || val + 0 > best[f]) { best[f] = val + 0; bx[f] = x; by[f] = y }
      maps[f] = 1 }
    sw == "grid" && $c["block_req"] > 0 { k = v "__" d
      cell("map_grid_" k, lg($c["block_req"]) - 6, lg($c["grid_req"] / gmin[k]), g, $c["block_req"], ($c["grid_req"] / gmin[k]) "x") }
    sw == "accumulators" { cell("map_accumulators_" v "__" d, lg($c["block_req"]) - 7, lg($c["accumulators"]), g, $c["block_req"], $c["accumulators"]) }
    sw == "items" && v == "multi-load" { cell("map_items_" v "__" d, lg($c["block_req"]) - 7, lg($c["items"]), g, $c["block_req"], $c["items"]) }
    sw == "items" && v == "vec4" { cell("map_itemsacc_" v "__" d, lg($c["items"]), lg($c["accumulators"]), g, $c["items"], $c["accumulators"]) }
    function line(f, x, y) { if (y == "" || y + 0 <= 0) y = "?"; printf "%s %s\n", x, y >> (out "/" f "." v ".dat"); ser[f] = ser[f] (index(" " ser[f] " ", " " v " ") ? "" : " " v) }
    sw == "block" { line("errblock__" d, $c["block"], $c["rel_err"]); line("gbpsblock__" d, $c["block"], g) }
    sw == "accumulators" && $c["block_req"] == 256 { line("erracc__" d, $c["accumulators"], $c["rel_err"]); line("gbpsacc__" d, $c["accumulators"], g) }
    sw == "align" { k = v "__" d; al[d] = 1; row[k] = 1; vd[k] = v; dd[k] = d
      if ($c["tail"] == 1) bt[k] = g; else bo[k, $c["offset"]] = g }
    sw == "width" { w = $c["load_width"] + 0; k = v "-" w "B__" d; al[d] = 1; row[k] = 1; vd[k] = v "-" w "B"; dd[k] = d
      if ($c["tail"] == 1) bt[k] = g; else bo[k, $c["offset"]] = g }
    END {
      for (f in maps) { printf "%d %d\n", bx[f], by[f] > (out "/" f ".best"); print f > (out "/maps") }
      for (f in ser) { sub(/^ /, "", ser[f]); print f, ser[f] > (out "/lines") }
      for (k in row) { d = dd[k]
        printf "%s %s %s %s %s %s\n", vd[k], (bo[k,0] == "" ? "?" : bo[k,0]), (bo[k,4] == "" ? "?" : bo[k,4]),
          (bo[k,8] == "" ? "?" : bo[k,8]), (bo[k,12] == "" ? "?" : bo[k,12]), (bt[k] == "" ? "?" : bt[k]) >> (out "/bars_" d ".dat") }
      for (d in al) print d > (out "/bars")
      for (d in nmax) print d, nmax[d], be[d] > (out "/sizes")
    }' "$launch" "$launch" || write_fail "the scratch folder $tmp"
  declare -A LC_N=() LC_BE=()
  if [ -s "$src/sizes" ]; then while read -r d n b; do LC_N[$d]=$n; LC_BE[$d]=$b; done < "$src/sizes"; fi
  lc_what() { [ "${LC_BE[$1]:-}" = gpu ] && echo "GPU" || echo "CPU twins: wall clock, not GPU speed"; }
  lc_be() { [ "${LC_BE[$1]:-}" = gpu ] && echo "GPU" || echo "CPU twin"; }
  if [ -s "$src/maps" ]; then
    while read -r f; do
      k=${f#map_}; sw=${k%%_*}; k=${k#*_}; v=${k%__*}; d=${k##*__}
      xl="block size (threads)"
      case $sw in
        grid) yl="grid (blocks, multiple of the smallest: one block per SM)"; what="block x grid" ;;
        accumulators) yl="independent accumulators per thread"; what="block x accumulators" ;;
        itemsacc) xl="16-byte loads a step per thread (items)"; yl="independent accumulators per thread"; what="items x accumulators" ;;
        *) yl="items per thread"; what="block x items" ;;
      esac
      gp launch_config.gp "launch_$f" "kind='map'; data='$src/$f.dat'; best='$src/$f.best'; xl='$xl'; yl='$yl'; ttl='launch-config: $v $what, GB/s, $d n = ${LC_N[$d]:-?} ($(lc_what "$d"))'"
    done < <(sort "$src/maps")
  fi
  if [ -s "$src/lines" ]; then
    while read -r f series; do
      d=${f##*__}; k=${f%__*}
      case $k in
        errblock) xl="block size (threads)"; yl="relative error |result - S| / |S|"; logy=1; what="error vs block size" ;;
        gbpsblock) xl="block size (threads)"; yl="GB/s"; logy=0; what="throughput vs block size" ;;
        erracc) xl="independent accumulators per thread (block 256)"; yl="relative error |result - S| / |S|"; logy=1; what="error vs accumulators" ;;
        *) xl="independent accumulators per thread (block 256)"; yl="GB/s"; logy=0; what="throughput vs accumulators" ;;
      esac
      case $k in err*) how="$(lc_be "$d") results, the same bits as the kernels" ;; *) how=$(lc_what "$d") ;; esac
      gp launch_config.gp "launch_${k}__$d" "kind='lines'; prefix='$src/$f.'; series='$series'; xl='$xl'; yl='$yl'; logy=$logy; ttl='launch-config: $what, $d n = ${LC_N[$d]:-?} ($how)'"
    done < <(sort "$src/lines")
  fi
  if [ -s "$src/bars" ]; then
    while read -r d; do
      sort -o "$src/bars_$d.dat" "$src/bars_$d.dat" || write_fail "the scratch folder $tmp"
      gp launch_config.gp "launch_align__$d" "kind='bars'; data='$src/bars_$d.dat'; ttl='launch-config: aligned vs misaligned input (vec4-WB: W-byte loads), $d n = ${LC_N[$d]:-?} ($(lc_what "$d"))'"
    done < <(sort "$src/bars")
  fi
  [ -s "$src/maps" ] || [ -s "$src/lines" ] || note "launch-config: launch.csv has no rows at a size to chart: skipped"
fi

# ---- anchors: the frameworks' sums of the study's inputs (DIR/anchors/anchors.csv) ----------
# study_anchors.py's table: per input (x, in the order of the file) and framework, the largest
# error in ulps over the repetitions (upper panel) and the number of distinct results (lower);
# a framework's points side by side around its input. Read only from a folder and a file that
# are not links (as the report does); the framework names reach gnuplot as column headers of
# the data files, never as program text; the dataset names (check_csv's names: letters, digits
# and . _ : = + -, no quote) reach it inside single-quoted xtics labels (anchors.gp's eval).
an=$dir/anchors/anchors.csv
if [ -d "$dir/anchors" ] && [ ! -L "$dir/anchors" ] && [ -f "$an" ] && [ ! -L "$an" ]; then
  src=$tmp/an; mkdir -p "$src"
  # (a file that is not study_anchors.py's table: a note and no anchors chart, the others drawn)
  if ! csv_soft=1 check_csv "$an" "$tmp/anchors.csv" "dataset" "" "ulps_max spread_ulps cond exact_sum_hex" "reps distinct" "" "anchor"; then
    note "anchors: anchors/anchors.csv is not the table study_anchors.py writes (a field other than its names and numbers): no chart"
  else
  awk -F, -v out="$src" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { ds = $c["dataset"]; key = ds SUBSEP $c["params"] SUBSEP $c["n"]
      if (!(key in inp)) { inp[key] = ++ni; lab[ni] = ds; nds[ds]++; if (nds[ds] > 1) lab[ni] = ds "#" nds[ds] }
      a = $c["anchor"]; if (!(a in fw)) { fw[a] = ++nf; fname[nf] = a }
      k = ++np; pi[k] = inp[key]; pf[k] = fw[a]; pu[k] = $c["ulps_max"]; pd[k] = $c["distinct"] + 0
      # an exact sum of 0: an ulp of it is the smallest subnormal, so any other result reads as
      # ~1e46 ulps; such an error is not on the ulps scale (a mark at the top edge, the input
      # named as exact 0 under its column, the report gives |result|) and leaves the range alone
      if (("exact_sum_hex" in c) && $c["exact_sum_hex"] ~ /^[-+]?0[xX]0(\.0*)?[pP][-+]?0+$/ && pu[k] !~ /inf|nan/ && pu[k] + 0 > 0) { pu[k] = "S0"; zs[inp[key]] = 1 }
      u = pu[k] + 0; if (pu[k] !~ /inf|nan|S0/ && u > 0) { if (lo == "" || u < lo) lo = u; if (hi == "" || u > hi) hi = u }
      if (pd[k] > dmax) dmax = pd[k]; if ($c["reps"] + 0 > rmax) rmax = $c["reps"] + 0 }
    END { if (!np) exit
      # colour and point type by framework name (common.gp indices): a colour per framework family,
      # det=off an open and det=on a filled symbol of one shape (x64=off filled, on open), any
      # other name hashed
      split("numpy.sum:7:11 torch.sum(cpu;det=off):3:3 torch.sum(cpu;det=on):3:4 torch.sum(cuda;det=off):1:5 torch.sum(cuda;det=on):1:6 cupy.sum:2:12 jax.numpy.sum(f32;x64=off):4:8 jax.numpy.sum(f32;x64=on):4:7", K, " ")
      for (j in K) { split(K[j], q, ":"); kc[q[1]] = q[2]; kp[q[1]] = q[3] }
      for (f = 1; f <= nf; f++) { ff = out "/fw_" f ".dat"; print "\"" fname[f] "\" 0 0" > ff }
      w = nf > 1 ? 0.7 / nf : 0
      for (k = 1; k <= np; k++) { f = pf[k]; x = pi[k] + (f - (nf + 1) / 2) * w
        y = pu[k]; if (y == "S0") y = -2; else if (y ~ /inf|nan/) y = -1; else if (y + 0 <= 0) y = 0
        print x, y, pd[k] > (out "/fw_" f ".dat") }
      for (f = 1; f <= nf; f++) close(out "/fw_" f ".dat")
      cl = ""; pl = ""
      for (f = 1; f <= nf; f++) { a = fname[f]
        if (a in kc) { ci = kc[a]; pt = kp[a] } else { h = 0; for (i = 1; i <= length(a); i++) h = (h * 33 + index("abcdefghijklmnopqrstuvwxyz0123456789", substr(a, i, 1))) % 9973; ci = h % 28; pt = h % 13 }
        cl = cl (f > 1 ? " " : "") ci; pl = pl (f > 1 ? " " : "") pt }
      xt = ""; nz = 0; for (i = 1; i <= ni; i++) { xt = xt (i > 1 ? ", " : "") "\047" lab[i] (i in zs ? " (exact 0)" : "") "\047 " i; nz += (i in zs) }
      printf "nf=%d; ni=%d; cl=\"%s\"; pl=\"%s\"; lo=%.6g; hi=%.6g; dmax=%d; rmax=%d; xt=\"%s\"; hasz=%d\n", nf, ni, cl, pl, (lo == "" ? 0.1 : lo), (hi == "" ? 1 : hi), dmax, rmax, xt, (nz > 0) > (out "/args") }
  ' "$tmp/anchors.csv" || write_fail "the scratch folder $tmp"
  if [ -s "$src/args" ]; then
    IFS= read -r aargs < "$src/args"
    gp anchors.gp "anchors_f32" "datadir='$src'; $aargs; ttl='frameworks on the study float32 inputs, each sum repeated: largest error and distinct results'"
  else
    note "anchors: anchors/anchors.csv has no rows: no chart"
  fi
  fi
fi

# ---- batch invariance: DIR/batch_invariance.csv (the experiment's; PyTorch's rows joined) ---
# One chart per format and row length: a bar per method (operation and variant, or PyTorch's
# call), its height the GB/s of the largest batch, green when every tracked row kept one bit
# pattern over the batch sizes and red otherwise, the largest count of patterns above it. Read
# only from a regular file (no link followed); the names reach gnuplot as quoted strings of the
# data files (check_csv: no quote in them), never as program text.
bi=$dir/batch_invariance.csv
# a committed study keeps it as batch_invariance.csv.gz (experiments/measured/README.md): inflated
# in its place when the plain file is absent (a link is not followed; a damaged .gz stops here)
if [ ! -e "$bi" ] && [ ! -L "$bi" ] && [ -f "$bi.gz" ] && [ ! -L "$bi.gz" ]; then
  gzip -dc -- "$bi.gz" > "$tmp/gz-batch_invariance.csv" ||
    { echo "render.sh: $bi.gz: damaged or truncated gzip file" >&2; said=1; exit 2; }
  bi=$tmp/gz-batch_invariance.csv
fi
if [ -f "$bi" ] && [ ! -L "$bi" ]; then
  src=$tmp/bi; mkdir -p "$src"
  if ! csv_soft=1 check_csv "$bi" "$tmp/batch_invariance.csv" "op family dtype backend path" "det_class" \
       "gbps rows_ulps_median rows_ulps_max configs distinct_configs" \
       "n row batches distinct" "" "variant"; then
    note "batch_invariance: batch_invariance.csv is not the table the experiment writes (a field other than its names and numbers): no chart"
  else
  awk -F, -v out="$src" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { p = $c["dtype"] "_" $c["n"]; if (!(p in np)) { np[p] = 0; pl[++npl] = p; pb[p] = $c["backend"] }
      k = p SUBSEP $c["op"] SUBSEP $c["variant"] SUBSEP $c["path"]
      if (!(k in idx)) { idx[k] = ++np[p]; lab[k] = $c["op"] " " $c["variant"]; g[k] = $c["gbps"]; d[k] = 0; kk[p, np[p]] = k }
      if ($c["distinct"] + 0 > d[k]) d[k] = $c["distinct"] + 0 }
    END { for (j = 1; j <= npl; j++) { p = pl[j]; f = out "/" p ".dat"
        for (i = 1; i <= np[p]; i++) { k = kk[p, i]; y = g[k]
          if (y !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/ || y + 0 <= 0) y = "?"
          printf "%d %s %d \"%s\"\n", i, y, d[k], lab[k] > f }
        close(f); print p, np[p], pb[p] > (out "/panels") } }
  ' "$tmp/batch_invariance.csv" || write_fail "the scratch folder $tmp"
  if [ -s "$src/panels" ]; then
    # (names of their own: nb, dt, n and p are the pool's and other kinds' variables)
    while read -r bi_p bi_nb bi_be; do
      bi_ylab="GB/s of the largest batch (log scale)"
      [ "$bi_be" = gpu ] || bi_ylab="GB/s of the largest batch (CPU twins, wall clock; log scale)"
      gp batch_invariance.gp "batch_invariance_$bi_p" "data='$src/$bi_p.dat'; nb=$bi_nb; ylab='$bi_ylab'; ttl='batch invariance, ${bi_p%%_*} rows of ${bi_p#*_} values: distinct bit patterns of a row of X[:B] over the batch sizes B'"
    done < "$src/panels"
  else
    note "batch_invariance: batch_invariance.csv has no rows: no chart"
  fi
  fi
fi

# ---- ranks (sums across MPI ranks): plots/ranks.sh -----------------------------------------
[ -r "$here/ranks.sh" ] && . "$here/ranks.sh"

run_jobs
say "$made charts in $charts/"

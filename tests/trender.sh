#!/usr/bin/env bash
# trender.sh: plots/render.sh renders the same set of files (and the same notes.txt) with one
# gnuplot at a time (SUMLAB_THREADS=1) as with a pool of four; on the committed H200 study's CSVs
# (gzipped, as committed: render.sh reads FILE.csv.gz where FILE.csv is absent).
# Every chart's PNG and SVG bytes are the same too: the serial run draws all charts in one
# gnuplot process, the pool in other groups and orders, so a setting or terminal state that one
# chart leaves to the next shows here.
# usage: trender.sh SRC_DIR      exit 0 ok, 1 mismatch, 77 no gnuplot
set -euo pipefail
src=$1
command -v gnuplot >/dev/null 2>&1 || { echo "trender: gnuplot not installed: skipped" >&2; exit 77; }
# the committed full study (experiments/measured/<machine>-<commit>-study; one keeps its data; a
# study of one other operation is <machine>-<commit>-study-<op>)
study=$(dirname "$(ls "$src"/experiments/measured/*-study/results.csv.gz 2>/dev/null | tail -1)")
[ -f "$study/results.csv.gz" ] || { echo "trender: no committed study (experiments/measured/*-study/results.csv.gz)" >&2; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/trender.XXXXXX"); trap 'rm -rf "$t"' EXIT
for k in 1 4; do
  mkdir -p "$t/r$k"; cp "$study"/results.csv.gz "$study"/distribution.csv.gz "$study"/ladder.csv "$t/r$k/"
  SUMLAB_THREADS=$k bash "$src/plots/render.sh" -q "$t/r$k"
done
fail=0
diff <(cd "$t/r1/charts" && ls) <(cd "$t/r4/charts" && ls) || { echo "trender: FAIL: file sets differ" >&2; fail=1; }
cmp "$t/r1/charts/notes.txt" "$t/r4/charts/notes.txt" || { echo "trender: FAIL: notes.txt differ" >&2; fail=1; }
n=$(ls "$t/r1/charts"/*.png | wc -l)
[ "$n" -gt 30 ] || { echo "trender: FAIL: only $n PNGs" >&2; fail=1; }
for f in "$t"/r4/charts/*.png "$t"/r4/charts/*.svg; do
  [ -s "$f" ] || { echo "trender: FAIL: $f empty" >&2; fail=1; }
  cmp -s "$f" "$t/r1/charts/${f##*/}" || { echo "trender: FAIL: ${f##*/} differs between the serial and the parallel run" >&2; fail=1; }
done
[ "$fail" = 0 ] && echo "trender: ok ($n PNGs, serial = parallel)"
exit "$fail"

#!/usr/bin/env bash
# tmeasured_gz.sh: a run directory that keeps results.csv.gz and distribution.csv.gz (as
# experiments/measured/ does) reports as the plain one: `sumlab run all --report-only` over a
# gzipped copy of a tiny CPU study writes the same report.md and the same charts; a truncated
# or damaged .gz is an error (exit 1, the file named), never a report over fewer rows; the
# plain file wins where both exist.
#   usage: tmeasured_gz.sh PATH/TO/sumlab
set -uo pipefail
bin=${1:?usage: tmeasured_gz.sh PATH/TO/sumlab}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
t=$(mktemp -d "${TMPDIR:-/tmp}/tmeasured_gz.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_GPU=1
unset SUMLAB_NO_CHARTS
fails=0 passes=0
ok() { passes=$((passes + 1)); }
ko() { echo "FAIL: $*"; fails=$((fails + 1)); }

if ! SUMLAB_NO_CHARTS=1 "$bin" run all --preset tiny --backend cpu -o "$t/run" -q 2> "$t/err"; then
  echo "tmeasured_gz: the tiny CPU study failed:"; head -c 2000 "$t/err"; echo "0 passed, 1 failed"; exit 1
fi
[ -s "$t/run/distribution.csv" ] || ko "the tiny study wrote no distribution.csv (nothing to test there)"
rm -f "$t/run/report.md" "$t/run/report.html" "$t/run/.sumlab.lock"
# Each report is written under the same name (run/), in its own parent: report.md names DIR.
mkdir -p "$t/plain" "$t/gz"
cp -r "$t/run" "$t/plain/run"
cp -r "$t/run" "$t/gz/run"
gzip -9 -n "$t/gz/run/results.csv" "$t/gz/run/distribution.csv"
[ ! -e "$t/gz/run/results.csv" ] && [ -s "$t/gz/run/results.csv.gz" ] || ko "gzip left no results.csv.gz"
cp "$t/gz/run/results.csv.gz" "$t/gz/run/distribution.csv.gz" "$t/"

report() {  # report DIR_PARENT: --report-only on DIR_PARENT/run; exit code, stderr in DIR_PARENT/err
  (cd "$1" && "$bin" run all --report-only -o run -q 2> err)
}
report "$t/plain" || ko "--report-only over the plain run failed: $(head -c 600 "$t/plain/err")"
report "$t/gz" || ko "--report-only over the gzipped run failed: $(head -c 600 "$t/gz/err")"
if cmp -s "$t/plain/run/report.md" "$t/gz/run/report.md"; then ok
else ko "report.md differs between the plain and the gzipped run:"; diff "$t/plain/run/report.md" "$t/gz/run/report.md" | head -20; fi
grep -q '^| ' "$t/gz/run/report.md" && ok || ko "the gzipped run's report.md holds no table"
if command -v gnuplot >/dev/null 2>&1; then
  a=$(cd "$t/plain/run/charts" 2>/dev/null && ls | sort | paste -sd' ')
  b=$(cd "$t/gz/run/charts" 2>/dev/null && ls | sort | paste -sd' ')
  [ -n "$a" ] && [ "$a" = "$b" ] && ok || ko "the charts differ: plain [$a] gzipped [$b]"
  # SVG text is the same bytes when the data are (PNG too, but its encoder is not ours)
  for f in "$t"/plain/run/charts/*.svg "$t"/plain/run/charts/notes.txt; do
    [ -e "$f" ] || continue
    cmp -s "$f" "$t/gz/run/charts/${f##*/}" || ko "charts/${f##*/} differs between the plain and the gzipped run"
  done
  grep -q 'distribution_' <<< "$b" && ok || ko "no distribution chart from distribution.csv.gz"
fi

# A truncated stream: an error naming the file, and report.md left as it was.
expect_fail() {  # expect_fail WHAT PATTERN
  cp "$t/gz/run/report.md" "$t/before.md"
  if report "$t/gz"; then ko "$1: --report-only exited 0"
  else
    grep -q "$2" "$t/gz/err" && ok || ko "$1: stderr lacks '$2': $(head -c 600 "$t/gz/err")"
  fi
  cmp -s "$t/before.md" "$t/gz/run/report.md" && ok || ko "$1: report.md was rewritten"
}
sz=$(stat -c %s "$t/results.csv.gz")
head -c $((sz - 9)) "$t/results.csv.gz" > "$t/gz/run/results.csv.gz"          # the trailer cut
expect_fail "results.csv.gz without its last 9 bytes" "results.csv.gz: damaged or truncated gzip stream"
head -c $((sz / 2)) "$t/results.csv.gz" > "$t/gz/run/results.csv.gz"          # half the rows
expect_fail "half of results.csv.gz" "results.csv.gz: damaged or truncated gzip stream"
# A flipped byte: its bits inverted, at the middle or, where that change still inflates to the
# same rows (an unused bit of a Huffman header, the padding of the last byte), at the next byte
# that gzip -t refuses.
flip() {  # flip POS: results.csv.gz with the byte at POS inverted
  local b
  cp "$t/results.csv.gz" "$t/gz/run/results.csv.gz"
  b=$(od -An -tu1 -j "$1" -N1 "$t/results.csv.gz" | tr -d ' ')
  printf "\\$(printf '%03o' $((b ^ 255)))" |
    dd of="$t/gz/run/results.csv.gz" bs=1 seek="$1" conv=notrunc status=none
}
pos=$((sz / 2))
flip "$pos"
while gzip -t "$t/gz/run/results.csv.gz" 2> /dev/null && [ "$pos" -lt $((sz - 9)) ]; do
  pos=$((pos + 1)); flip "$pos"
done
gzip -t "$t/gz/run/results.csv.gz" 2> /dev/null && ko "no flipped byte past the middle damages results.csv.gz"
expect_fail "a damaged byte in results.csv.gz" "results.csv.gz: damaged or truncated gzip stream"
echo "experiment,dataset" > "$t/gz/run/results.csv.gz"                         # not gzip
expect_fail "a results.csv.gz that is not gzip" "results.csv.gz: not a gzip file"
cp "$t/results.csv.gz" "$t/gz/run/results.csv.gz"
sz=$(stat -c %s "$t/distribution.csv.gz")
head -c $((sz / 2)) "$t/distribution.csv.gz" > "$t/gz/run/distribution.csv.gz"
# only the charts read distribution.csv: render.sh refuses it, draws nothing from half a file,
# and the report says the renderer failed (as for any renderer failure)
report "$t/gz"
grep -q "distribution.csv.gz: damaged or truncated gzip file" "$t/gz/err" && ok ||
  ko "half of distribution.csv.gz: stderr lacks the damaged file: $(head -c 600 "$t/gz/err")"
ls "$t/gz/run/charts" 2>/dev/null | grep -q distribution_ && ko "half of distribution.csv.gz: a distribution chart was drawn" || ok
grep -q "render.sh failed" "$t/gz/run/report.md" && ok || ko "half of distribution.csv.gz: report.md does not say the charts failed"
cp "$t/distribution.csv.gz" "$t/gz/run/distribution.csv.gz"

# The plain file wins: a results.csv beside a different results.csv.gz is what is read.
cp "$t/plain/run/report.md" "$t/plain.md"
printf 'not,a,sumlab,file\n' | gzip > "$t/plain/run/results.csv.gz"
report "$t/plain" || ko "--report-only with results.csv beside a foreign results.csv.gz failed: $(head -c 600 "$t/plain/err")"
cmp -s "$t/plain.md" "$t/plain/run/report.md" && ok || ko "results.csv.gz was read although results.csv exists"
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

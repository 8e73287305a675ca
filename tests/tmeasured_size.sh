#!/usr/bin/env bash
# tmeasured_size.sh: experiments/measured/ keeps data, not what is made from it
# (experiments/measured/README.md): its tracked files stay under 8 MiB, and no chart (PNG, SVG),
# report.html, lock file, uncompressed results.csv / distribution.csv, or other file over 32 KB
# left uncompressed is tracked. The checker first proves it fails on a tree that breaks each rule.
#   usage: tmeasured_size.sh [SOURCE_DIR]      (git ls-files in a checkout, else du -sb / find)
set -uo pipefail
src=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
limit=$((8 * 1024 * 1024))
fails=0 passes=0

# The files of ROOT/experiments/measured, NUL-separated, relative to ROOT: the tracked ones in
# a git checkout, else every file there.
list_files() {
  local root=$1
  if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
     [ -n "$(git -C "$root" ls-files -- experiments/measured | head -n 1)" ]; then
    git -C "$root" ls-files -z -- experiments/measured
  else
    (cd "$root" && find experiments/measured -type f -print0)
  fi
}

# check ROOT: prints one line per broken rule; returns the number of broken rules.
check() {
  local root=$1 bad=0 total f sz base
  [ -d "$root/experiments/measured" ] || { echo "no $root/experiments/measured"; return 1; }
  if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    total=$(cd "$root" && list_files "$root" | xargs -0 -r du -cb 2>/dev/null | tail -n 1 | cut -f1)
  else
    total=$(du -sb "$root/experiments/measured" | cut -f1)
  fi
  total=${total:-0}
  if [ "$total" -gt "$limit" ]; then
    echo "experiments/measured holds $total bytes, over the limit of $limit (8 MiB)"; bad=$((bad + 1))
  fi
  while IFS= read -r -d '' f; do
    [ -e "$root/$f" ] || continue             # tracked but deleted in the work tree
    base=${f##*/}
    case $f in */charts/*) echo "$f: charts are not committed (made again from the data)"; bad=$((bad + 1)); continue ;; esac
    case $base in
      *.png|*.svg|report.html|.sumlab.lock|results.csv|distribution.csv)
        echo "$f: not committed (made again from the data; results.csv and distribution.csv as .gz)"
        bad=$((bad + 1)); continue ;;
      *.gz|report.md|meta.json) continue ;;
    esac
    sz=$(stat -c %s "$root/$f")
    if [ "$sz" -gt 32768 ]; then echo "$f: $sz bytes uncompressed (over 32 KB: gzip -9 -n it)"; bad=$((bad + 1)); fi
  done < <(list_files "$root")
  return "$bad"
}

ok() { passes=$((passes + 1)); }
ko() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The checker fails on trees that break each rule (no git there: the du/find fallback).
t=$(mktemp -d "${TMPDIR:-/tmp}/tmeasured.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/ok/experiments/measured/m" && echo "a,b" > "$t/ok/experiments/measured/m/small.csv"
out=$(check "$t/ok") && ok || ko "a small plain tree is refused: $out"
for planted in charts/notes.txt charts/x.png charts/x.svg report.html .sumlab.lock results.csv distribution.csv big.log huge.bin; do
  rm -rf "$t/bad" && cp -r "$t/ok" "$t/bad"
  p=$t/bad/experiments/measured/m/$planted
  mkdir -p "$(dirname "$p")"
  case $planted in
    big.log) head -c 40000 /dev/zero > "$p" ;;
    huge.bin) head -c $((limit + 1)) /dev/zero > "$p.gz" ;;
    *) echo x > "$p" ;;
  esac
  if out=$(check "$t/bad"); then ko "a tree with $planted passes"; else ok; fi
done

# The repository's own tree.
if out=$(check "$src"); then ok
else ko "experiments/measured breaks its policy (experiments/measured/README.md):"; echo "$out"; fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

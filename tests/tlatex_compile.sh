#!/usr/bin/env bash
# tlatex_compile.sh: a run's tables/*.tex (booktabs) compile with pdflatex: every table of the
# tiny study's report in one document. Exit 77 (skipped) when pdflatex or booktabs is missing.
#   usage: tlatex_compile.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tlatex_compile.sh PATH/TO/sumlab [SOURCE_DIR]}
command -v pdflatex > /dev/null 2>&1 || { echo "tlatex_compile: pdflatex is not installed: skipped" >&2; exit 77; }
kpsewhich booktabs.sty > /dev/null 2>&1 || { echo "tlatex_compile: booktabs.sty is not installed: skipped" >&2; exit 77; }
t=$(mktemp -d "${TMPDIR:-/tmp}/tlatex.XXXXXX"); trap 'rm -rf "$t"' EXIT
SUMLAB_NO_CHARTS=1 "$bin" run all --preset tiny --backend cpu -o "$t/run" -q || { echo "tlatex_compile: FAIL: run" >&2; exit 1; }
n=$(ls "$t/run/tables"/*.tex 2>/dev/null | wc -l)
[ "$n" -gt 5 ] || { echo "tlatex_compile: FAIL: $n tables" >&2; exit 1; }
{ printf '%s\n' '\documentclass{article}' '\usepackage[landscape,margin=1cm,paperwidth=200cm,paperheight=100cm]{geometry}' \
    '\usepackage{booktabs}' '\begin{document}'
  for f in "$t/run/tables"/*.tex; do printf '\\input{%s}\n\\clearpage\n' "$f"; done
  printf '%s\n' '\end{document}'; } > "$t/all.tex"
(cd "$t" && pdflatex -interaction=nonstopmode -halt-on-error all.tex > pdflatex.log 2>&1) ||
  { echo "tlatex_compile: FAIL: pdflatex:" >&2; grep -A3 '^!' "$t/pdflatex.log" | head -20 >&2; exit 1; }
echo "tlatex_compile: ok ($n tables compiled)"

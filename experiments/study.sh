#!/usr/bin/env bash
# study.sh: the README's main command. Installs what is missing and builds (bootstrap.sh), then
# runs the whole study, `sumlab run all`, into results/<timestamp>: the full preset on a GPU
# (n up to 2^28, 100 repetitions), the quick preset on the CPU twins when there is no GPU (a few
# minutes on 2 cores). Ends by printing where report.md and the charts are.
#   usage: experiments/study.sh [extra `sumlab run` options, e.g. --preset quick, --seed 7,
#                                or -o results/DIR --resume to continue an interrupted study]
#   env:   SUMLAB_RESULTS (results root, default <repo>/results), and bootstrap.sh's variables
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bootstrap.sh
source "$root/experiments/bootstrap.sh"
bin=$SUMLAB_BUILD_DIR/experiments/sumlab
[ -x "$bin" ] || { echo "study.sh: $bin was not built" >&2; exit 1; }

out=${SUMLAB_RESULTS:-$root/results}/$(date +%Y%m%d-%H%M%S)
for a in "$@"; do                       # an explicit -o DIR (e.g. with --resume) wins
  if [ "${prev:-}" = "-o" ] || [ "${prev:-}" = "--output" ]; then out=$a; fi
  case $a in --output=*) out=${a#--output=} ;; esac
  prev=$a
done
echo "study.sh: sumlab run all -> $out" >&2
set +e
"$bin" run all -o "$out" "$@"
rc=$?
set -e
if [ -f "$out/report.md" ]; then
  echo "report: $out/report.md"
  if compgen -G "$out/charts/*.png" > /dev/null; then
    echo "charts: $out/charts/ ($(ls "$out"/charts/*.png | wc -l) PNG + SVG)"
  else
    echo "charts: none rendered (see the notes in the report; plots/render.sh $out renders them where gnuplot is)"
  fi
fi
if [ $rc -ne 0 ]; then
  echo "study.sh: sumlab run exited $rc; continue with: experiments/study.sh -o $out --resume" >&2
fi
exit $rc

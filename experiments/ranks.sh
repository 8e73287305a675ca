#!/usr/bin/env bash
# ranks.sh: the whole `ranks` experiment: one mpirun with the library's allreduce choice, then
# one mpirun per Open MPI coll_tuned allreduce algorithm (forced through the dynamic rules, which
# are read at MPI_Init: hence a separate mpirun each), all appending to one DIR; the last pass
# rewrites DIR/report.md and the chart.
#   usage: experiments/ranks.sh -np P -o DIR [sumlab run ranks options ...]
#   env: SUMLAB_BUILD_DIR (default build), MPIRUN (default mpirun), MPIRUN_ARGS (extra, e.g.
#        "--oversubscribe --allow-run-as-root"), SUMLAB_ALGORITHMS (default "1 2 3 4 5 6")
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
S=${SUMLAB_BUILD_DIR:-$root/build}/experiments/sumlab
np=""; args=()
while [ $# -gt 0 ]; do
  case $1 in
    -np|-n) np=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -n "$np" ] || { echo "usage: experiments/ranks.sh -np P -o DIR [run ranks options]" >&2; exit 2; }
mpirun=${MPIRUN:-mpirun}
# shellcheck disable=SC2206
extra=(${MPIRUN_ARGS:-})
echo "ranks.sh: default allreduce, P = $np" >&2
"$mpirun" "${extra[@]}" -np "$np" "$S" run ranks "${args[@]}"
for a in ${SUMLAB_ALGORITHMS:-1 2 3 4 5 6}; do
  echo "ranks.sh: forced allreduce algorithm $a" >&2
  OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=$a \
    "$mpirun" "${extra[@]}" -x OMPI_MCA_coll_tuned_use_dynamic_rules -x OMPI_MCA_coll_tuned_allreduce_algorithm \
    -np "$np" "$S" run ranks "${args[@]}" --algorithm "$a" -q
done

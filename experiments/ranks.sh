#!/usr/bin/env bash
# ranks.sh: the whole `ranks` experiment: one mpirun with the library's allreduce choice, then
# one mpirun per Open MPI coll_tuned allreduce algorithm (forced through the dynamic rules, which
# are read at MPI_Init: hence a separate mpirun each), all appending to one DIR; the last pass
# rewrites DIR/report.md and the chart. With --nccl (a build with NCCL, one GPU per rank: device =
# local rank % visible devices), then one mpirun per NCCL_ALGO (the NCCL rows only: nccl-sum, the
# plain ncclAllReduce of the partials, and nccl-limbs, the states' integer limbs), NVLink
# multicast off (NCCL_NVLS_ENABLE=0).
#   usage: experiments/ranks.sh -np P -o DIR [--nccl] [sumlab run ranks options ...]
#   e.g. on an 8-GPU machine, 2^30 float32 values per rank:
#        experiments/ranks.sh -np 8 -o DIR --nccl --backend gpu --per-rank 1073741824
#   env: SUMLAB_BUILD_DIR (default build), MPIRUN (default mpirun), MPIRUN_ARGS (extra, e.g.
#        "--oversubscribe --allow-run-as-root"), SUMLAB_ALGORITHMS (default "1 2 3 4 5 6"),
#        SUMLAB_NCCL_ALGOS (default "Ring Tree")
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
S=${SUMLAB_BUILD_DIR:-$root/build}/experiments/sumlab
np=""; args=(); nccl=0
while [ $# -gt 0 ]; do
  case $1 in
    -np|-n) np=$2; shift 2 ;;
    --nccl) nccl=1; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -n "$np" ] || { echo "usage: experiments/ranks.sh -np P -o DIR [run ranks options]" >&2; exit 2; }
mpirun=${MPIRUN:-mpirun}
# shellcheck disable=SC2206
extra=(${MPIRUN_ARGS:-})
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
echo "ranks.sh: default allreduce, P = $np" >&2
"$mpirun" "${extra[@]}" -x NCCL_NVLS_ENABLE -np "$np" "$S" run ranks "${args[@]}"
for a in ${SUMLAB_ALGORITHMS:-1 2 3 4 5 6}; do
  echo "ranks.sh: forced allreduce algorithm $a" >&2
  OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=$a \
    "$mpirun" "${extra[@]}" -x OMPI_MCA_coll_tuned_use_dynamic_rules -x OMPI_MCA_coll_tuned_allreduce_algorithm \
    -np "$np" "$S" run ranks "${args[@]}" --algorithm "$a" -q
done
if [ "$nccl" = 1 ]; then
  for a in ${SUMLAB_NCCL_ALGOS:-Ring Tree}; do
    echo "ranks.sh: NCCL_ALGO=$a" >&2
    NCCL_ALGO=$a "$mpirun" "${extra[@]}" -x NCCL_ALGO -x NCCL_NVLS_ENABLE -np "$np" "$S" run ranks "${args[@]}" --nccl -q
  done
fi

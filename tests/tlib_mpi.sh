#!/usr/bin/env bash
# tlib_mpi.sh: tlib_mpi under mpirun -np K for K = 1..8: each K passes its own checks (merged
# bytes equal one state over the whole input) and prints the same results and byte digests.
# usage: tlib_mpi.sh TLIB_MPI HAVE_MPI MPIEXEC     exit 77 when the build has no MPI
set -euo pipefail
prog=$1; have=$2; mpiexec=${3:-mpirun}
case $have in ON|1|TRUE|true) ;; *) echo "tlib_mpi: built without MPI: skipped"; exit 77 ;; esac
[ -x "$mpiexec" ] || mpiexec=$(command -v mpirun || true)
[ -n "$mpiexec" ] || { echo "tlib_mpi: FAIL: built with MPI but no mpirun"; exit 1; }
run=("$mpiexec" --oversubscribe)
[ "$(id -u)" = 0 ] && run+=(--allow-run-as-root)
export OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sumlab-tlib-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
for K in 1 2 3 4 5 6 7 8; do
  if ! timeout 120 "${run[@]}" -np "$K" "$prog" > "$tmp/k$K.txt"; then
    echo "tlib_mpi: FAIL: K=$K exited non-zero"; fail=1; continue
  fi
  [ "$(wc -l < "$tmp/k$K.txt")" -eq 24 ] || { echo "tlib_mpi: FAIL: K=$K printed $(wc -l < "$tmp/k$K.txt") lines, not 24"; fail=1; }
  if [ "$K" -gt 1 ] && ! cmp -s "$tmp/k1.txt" "$tmp/k$K.txt"; then
    echo "tlib_mpi: FAIL: K=$K differs from K=1:"; diff "$tmp/k1.txt" "$tmp/k$K.txt" || true; fail=1
  fi
done
cat "$tmp/k1.txt"
[ "$fail" = 0 ] && echo "tlib_mpi: K = 1..8 give identical bits (merge op and integer limbs)"
exit "$fail"

#!/usr/bin/env bash
# tbench_gpu.sh: `sumlab bench` on the GPU: its default CSV names the input family of every row
# in a last column `dataset` (the columns before it keep their positions), the self-check passes
# for the order-independent variants on two families. Exits 77 (skip) without a GPU.
#   usage: bash tests/tbench_gpu.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tbench_gpu.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tbench_gpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }

# the value of column $2 (by header name) in every data row of CSV $1, one a line
col() { awk -F, -v c="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } { print $k }' "$1"; }

for spec in "uniform f32" "normal bf16" "ill-conditioned f16 cond=1e3"; do
  set -- $spec
  ds=$1 dt=$2; shift 2
  params=(); for p in "$@"; do params+=(--param "$p"); done
  "$sumlab" bench --n 4096,70000 --variants reproducible,superacc --reps 2 --dtype "$dt" \
    --dataset "$ds" "${params[@]}" --seed "$seed" > "$tmp/b.csv" 2> "$tmp/b.err"
  rc=$?
  if [ $rc -ne 0 ] && grep -q 'needs a GPU' "$tmp/b.err"; then
    echo "tbench_gpu: no GPU, skipped"; exit 77
  fi
  check "bench $spec exits 0 ($(cat "$tmp/b.err"))" test $rc -eq 0
  header=$(grep -v '^#' "$tmp/b.csv" | head -1)
  check "bench $spec: dataset is the last column ($header)" test "${header##*,}" = dataset
  check "bench $spec: variant, dtype, n first ($header)" test "${header%%,reps,*}" = "variant,dtype,n"
  check "bench $spec: 4 rows" test "$(col "$tmp/b.csv" dataset | wc -l)" -eq 4
  check "bench $spec: every row names $ds" test -z "$(col "$tmp/b.csv" dataset | grep -vx "$ds")"
  check "bench $spec: every row checks ok" test -z "$(col "$tmp/b.csv" check | grep -vx ok)"
done
"$sumlab" bench --n 4096 --variants vec4 --reps 1 --dataset subnormal --columns dataset,variant \
  > "$tmp/c.csv" 2> "$tmp/c.err"
check "bench --columns dataset,variant ($(cat "$tmp/c.err"))" \
  test "$(grep -v '^#' "$tmp/c.csv" | tr -d '\r')" = "$(printf 'dataset,variant\nsubnormal,vec4')"
# every named variant skipped (no GPU kernel; not of the dtype): bad usage, exit 2 and no rows
# (it printed the preamble and the read ceiling's rows alone, exit 0); dot's memory check counts
# both of its inputs
for args in "--variants exact" "--variants half-acc --dtype f32"; do
  "$sumlab" bench --n 4096 --reps 1 $args > "$tmp/none.csv" 2> "$tmp/none.err"
  rc=$?
  check "bench $args: exit 2 (rc $rc: $(cat "$tmp/none.err"))" test $rc -eq 2
  check "bench $args: says no variant is left" grep -q 'no variant to time' "$tmp/none.err"
  check "bench $args: nothing on stdout" test ! -s "$tmp/none.csv"
done
echo "tbench_gpu: $checks checks, $fails failed (seed $seed, SUMLAB_SEED overrides)"
[ $fails -eq 0 ]

#!/usr/bin/env bash
# tlib_cli.sh: libsumlab's host results equal the CLI's rows bit for bit (tlib_cli) on generated
# raw inputs: four dtypes, dataset families of the quick study, n not a multiple of any width.
# usage: tlib_cli.sh SUMLAB TLIB_CLI
set -euo pipefail
S=$1; T=$2
export SUMLAB_NO_GPU=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sumlab-tlib-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
for spec in "uniform f32" "log-uniform f64" "ill-conditioned f32 --param cond=1e8" "uniform-sym f16" \
            "log-uniform bf16"; do
  set -- $spec
  ds=$1; dt=$2; shift 2
  f=$tmp/$ds-$dt.raw
  "$S" gen "$ds" --n 20011 --dtype "$dt" --seed 5 "$@" -o "$f" 2>/dev/null
  "$S" sum "$f" --dtype "$dt" --variants all --backend cpu --format csv > "$tmp/rows.csv" 2>/dev/null
  "$T" "$f" "$dt" "$tmp/rows.csv" || fail=1
done
exit "$fail"

#!/usr/bin/env bash
# bench_ab.sh: two builds of sumlab timed alternately on one GPU (A B A B ...), so that a change's
# effect on the ratio to CUB is told apart from the machine's drift: for each dtype and round,
# `sumlab bench` of each build writes DIR/<dtype>_<round>_<A|B>.csv; then a table of the median
# ratio_cub per (dtype, rows, n, variant) over the rounds, A beside B (rows empty for 1-D runs;
# BENCH_AB_RATIO names another column, e.g. ratio_read for row-wise runs, which have no CUB ratio).
#   usage: bench_ab.sh A_SUMLAB B_SUMLAB OUT_DIR [ROUNDS] [-- BENCH_ARGS...]
#   default bench args: --n 2^24,2^28 --reps 20 --variants vec4,kahan,fp64-acc,superacc,reproducible,cub
set -uo pipefail
[ $# -ge 3 ] || { sed -n 2,8p "$0" >&2; exit 2; }
a=$1 b=$2 out=$3; shift 3
rounds=2
if [ $# -gt 0 ] && [ "$1" != -- ]; then rounds=$1; shift; fi
[ "${1:-}" = -- ] && shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--n 2^24,2^28 --reps 20 --variants vec4,kahan,fp64-acc,superacc,reproducible,cub)
for x in "$a" "$b"; do [ -x "$x" ] || { echo "bench_ab: '$x' is not an executable" >&2; exit 2; }; done
case $rounds in ''|*[!0-9]*) echo "bench_ab: ROUNDS must be a number" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 1
for dt in ${BENCH_AB_DTYPES:-f32 f64 f16 bf16}; do
  for ((r = 1; r <= rounds; r++)); do
    for side in A B; do
      bin=$a; [ $side = B ] && bin=$b
      v=("${args[@]}")
      # 16-bit input: the variants that take it (the rest are skipped by bench, said on stderr)
      "$bin" bench --dtype "$dt" "${v[@]}" > "$out/${dt}_${r}_${side}.csv" 2> "$out/${dt}_${r}_${side}.err" ||
        echo "bench_ab: $side $dt round $r: exit $? (see $out/${dt}_${r}_${side}.err)" >&2
    done
  done
done
python3 - "$out" "${BENCH_AB_RATIO:-ratio_cub}" <<'PY'
import csv, glob, os, statistics, sys
out, col = sys.argv[1], sys.argv[2]
ratios = {}
for path in sorted(glob.glob(os.path.join(out, "*_*_[AB].csv"))):
    side = path[-5]
    with open(path, newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            try:
                key = (r["dtype"], int(r.get("rows") or 0), int(r["n"]), r["variant"])
                ratios.setdefault(key, {}).setdefault(side, []).append(float(r[col]))
            except (KeyError, ValueError):
                pass
print(f"dtype,rows,n,variant,{col}_A,{col}_B,B_over_A,rounds")
for k in sorted(ratios):
    a, b = ratios[k].get("A", []), ratios[k].get("B", [])
    ma = statistics.median(a) if a else float("nan")
    mb = statistics.median(b) if b else float("nan")
    print(f"{k[0]},{k[1] or ''},{k[2]},{k[3]},{ma:.4f},{mb:.4f},{mb / ma if ma else float('nan'):.4f},{min(len(a), len(b))}")
PY

#!/usr/bin/env bash
# The commands behind this directory (H200, commit 701e24a): tests/gpu_session.sh's moments
# stage with MOMENT_N=2^28 MOMENT_OPS="mean var std max":
#   sumlab bench --op OP --n 2^28 --dtype DT --reps 10 --dataset normal   (OP in mean var std max,
#                                                   DT in f32 f64 bf16 f16) > bench_OP_DT.csv
#   python3 experiments/bench_moments.py --n 2^24,2^28 --reps 10 > bench_moments_py.csv
# ratio_cub: CUB DeviceReduce::Sum's time on the same bytes / the variant's; ratio_read: the
# streaming-read ceiling's time / the variant's (both paired in the same process).
set -euo pipefail
for d in f32 f64 bf16 f16; do
  for op in mean var std max; do
    sumlab bench --op "$op" --n 2^28 --dtype "$d" --reps 10 --dataset normal > "bench_${op}_$d.csv"
  done
done
python3 experiments/bench_moments.py --n 2^24,2^28 --reps 10 > bench_moments_py.csv

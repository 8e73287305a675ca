#!/usr/bin/env bash
# ladder_ncu.sh: Nsight Compute's counters for every rung of both source texts' ladders (float32
# uniform, n = 2^25, 256 threads per block: the ladder experiment's first point), written as
# RUN_DIR/ladder_ncu.csv for the report's ladder tables: DRAM throughput (% of peak),
# shared-memory bank conflicts (loads + stores) and the share of issue slots stalled at a barrier.
# Profiles one launch of each rung's kernel on the whole input (`k_*`, its third launch: the
# first two are the warm-up on a 2^20 prefix; the harness's flush and spin kernels are not
# matched). Then `sumlab run EXPERIMENT -o RUN_DIR --report-only` (the run's own experiment) puts them in report.md.
#   usage: experiments/ladder_ncu.sh PATH/TO/sumlab RUN_DIR      (needs a GPU and ncu)
set -euo pipefail
bin=${1:?usage: ladder_ncu.sh PATH/TO/sumlab RUN_DIR}
dir=${2:?usage: ladder_ncu.sh PATH/TO/sumlab RUN_DIR}
command -v ncu >/dev/null 2>&1 || { echo "ladder_ncu.sh: ncu (Nsight Compute) not found" >&2; exit 1; }
[ -d "$dir" ] || { echo "ladder_ncu.sh: '$dir' is not a directory" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ladder_ncu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$bin" gen uniform --n 2^25 --dtype f32 -o "$tmp/u.npy"
metrics=dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__warp_issue_stalled_barrier_per_warp_active.pct
rungs="atomic-thread smem-interleaved smem-strided smem-sequential two-load warp-shuffle warp-unrolled full-unroll multi-load grid-stride vec4 packed block-reduce"
for v in $rungs; do
  # the third launch of the rung's kernel: a GPU run of more than 2^20 values is warmed up by
  # two runs on its first 2^20 (experiments/measure/measure.c), the third is the whole input's
  if ! ncu --csv --kernel-id ::regex:'^k_':3 -c 1 --metrics "$metrics" "$bin" sum "$tmp/u.npy" --backend gpu \
       --variants "$v" --reps 1 --block 256 --no-check-twin --format csv > "$tmp/$v.csv" 2> "$tmp/$v.err"; then
    echo "ladder_ncu.sh: ncu failed on $v: $(head -c 300 "$tmp/$v.err")" >&2; exit 1
  fi
done
python3 - "$tmp" "$dir/ladder_ncu.csv" $rungs <<'PY'
import csv, io, sys
tmp, out, rungs = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = []
for v in rungs:
    text = open(f"{tmp}/{v}.csv").read()
    start = text.find('"ID"')
    if start < 0:
        sys.exit(f"ladder_ncu.sh: no ncu table for {v}")
    m = {}
    for r in csv.DictReader(io.StringIO(text[start:])):
        m[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    need = ["dram__throughput.avg.pct_of_peak_sustained_elapsed"]
    if any(k not in m for k in need):
        sys.exit(f"ladder_ncu.sh: {v}: metrics missing from ncu's output: {sorted(m)}")
    bank = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0) + \
           m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0)
    rows.append((v, m[need[0]], bank, m.get("smsp__warp_issue_stalled_barrier_per_warp_active.pct", float("nan"))))
with open(out + ".tmp", "w") as f:
    f.write("variant,dram_pct,bank_conflicts,barrier_stall_pct\n")
    for r in rows:
        f.write("%s,%.2f,%.0f,%.2f\n" % r)
import os
os.replace(out + ".tmp", out)
print(f"ladder_ncu.sh: {len(rows)} rungs -> {out}")
PY

#!/usr/bin/env bash
# ncu_why.sh: Nsight Compute's counters for the kernels that miss issue 35's and 34's targets
# (BENCHMARKS.md's "What the H200 leaves each miss"), all of one build: per launch its time, DRAM
# throughput, thread instructions a value, issue slots busy, achieved occupancy, registers, the
# FP64 pipe's share and the three largest stall reasons. One `sumlab bench --reps 2` per case under
# ncu (clocks left as they are, caches flushed before each profiled launch, as bench flushes L2),
# profiling the first LAUNCHES kernels the case's regex matches (the warm-up run's, on the same
# input as the timed runs; a variant of fewer kernels gives a timed run's too); RUN_DIR/ncu_<case>.csv is ncu's
# raw page, RUN_DIR/why.csv and why.md the summary (experiments/ncu_why.py).
#   usage: experiments/ncu_why.sh PATH/TO/sumlab RUN_DIR [CASE...]   (needs a GPU and ncu; CASE: a
#          name below, default all)
#   env:   NCU_WHY_SECONDS (stop starting cases after this many seconds; default 400)
set -uo pipefail
bin=${1:?usage: ncu_why.sh PATH/TO/sumlab RUN_DIR [CASE...]}
dir=${2:?usage: ncu_why.sh PATH/TO/sumlab RUN_DIR [CASE...]}
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v ncu >/dev/null 2>&1 || { echo "ncu_why.sh: ncu (Nsight Compute) not found" >&2; exit 1; }
[ -x "$bin" ] || { echo "ncu_why.sh: '$bin' is not an executable" >&2; exit 2; }
mkdir -p "$dir" || exit 2
budget=${NCU_WHY_SECONDS:-400}
case $budget in ''|*[!0-9]*|?????????*) echo "ncu_why.sh: NCU_WHY_SECONDS must be a number of seconds" >&2; exit 2;; esac
# The metrics, each kept only when this ncu and GPU know its base name (ncu --query-metrics): an
# unknown name would fail the whole profile.
# (ncu_why.py's USED and the stalls: what the summary reads)
want=(gpu__time_duration.sum dram__throughput.avg.pct_of_peak_sustained_elapsed
      smsp__thread_inst_executed.sum smsp__inst_executed.sum
      smsp__issue_active.avg.pct_of_peak_sustained_active sm__warps_active.avg.pct_of_peak_sustained_active
      launch__registers_per_thread launch__grid_size launch__block_size
      sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active)
for s in long_scoreboard short_scoreboard wait math_pipe_throttle barrier membar lg_throttle mio_throttle \
         not_selected selected dispatch_stall no_instruction drain branch_resolving tex_throttle imc_miss sleeping; do
  want+=("smsp__warp_issue_stalled_${s}_per_warp_active.pct")
done
known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
metrics=()
for m in "${want[@]}"; do
  # (launch__* are launch attributes, which --query-metrics does not list)
  if [ -z "$known" ] || [[ $m == launch__* ]] || grep -qxF "${m%%.*}" <<< "$known"; then metrics+=("$m"); else echo "ncu_why.sh: this ncu has no $m" >&2; fi
done
mlist=$(IFS=,; echo "${metrics[*]}")
# NAME|N (values a launch reads: rows x n for row cases)|KERNEL_REGEX|LAUNCHES (a run's kernels, at
# most)|BENCH ARGS
cases=(
  "sum_f32_2e20_cub|1048576|Reduce|2|--n 2^20 --variants cub"
  "sum_f32_2e20_vec4|1048576|k_vec4|1|--n 2^20 --variants vec4"
  "sum_f32_2e20_reproducible|1048576|rs_kernel|1|--n 2^20 --variants reproducible"
  "sum_f32_2e20_superacc|1048576|sacc|1|--n 2^20 --variants superacc"
  "sum_f64_2e20_reproducible|1048576|rs_kernel|1|--n 2^20 --dtype f64 --variants reproducible"
  "sum_f64_2e20_superacc|1048576|rs_kernel|1|--n 2^20 --dtype f64 --variants superacc"
  "sum_f32_2e24_cub|16777216|Reduce|2|--n 2^24 --variants cub"
  "sum_f32_2e24_superacc|16777216|sacc|1|--n 2^24 --variants superacc"
  "sum_bf16_2e28_reproducible|268435456|rs_kernel|1|--n 2^28 --dtype bf16 --variants reproducible"
  "sum_bf16_2e28_reproducible_wide|268435456|rs_kernel|1|--n 2^28 --dtype bf16 --variants reproducible --dataset log-uniform --param emin=-1100 --param emax=116 --param subnormals=1"
  "sum_f16_2e28_reproducible|268435456|rs_kernel|1|--n 2^28 --dtype f16 --variants reproducible"
  "sum_f16_2e24_superacc_wide|16777216|sacc|1|--n 2^24 --dtype f16 --variants superacc --dataset log-uniform --param emin=-1100 --param emax=2 --param subnormals=1"
  "lse_bf16_2e28_online|268435456|lse_|1|--op lse --n 2^28 --dtype bf16 --dataset logits --variants online"
  "lse_f32_2e28_reproducible|268435456|lse_|2|--op lse --n 2^28 --dataset logits --variants reproducible"
  "var_bf16_2e28_welford|268435456|wf_kernel|1|--op var --n 2^28 --dtype bf16 --dataset normal --variants welford"
  "var_bf16_2e28_fused|268435456|ex|1|--op var --n 2^28 --dtype bf16 --dataset normal --variants fused"
  "var_f64_2e28_correct|268435456|mx|2|--op var --n 2^28 --dtype f64 --dataset normal --variants correct"
  "var_rows_bf16_32768x4096_correct|134217728|mx|2|--op var --axis -1 --rows 32768 --n 4096 --dtype bf16 --variants correct"
)
for w in "$@"; do   # a name that is no case: said, before any profile
  known_case=0; for c in "${cases[@]}"; do [ "${c%%|*}" = "$w" ] && known_case=1; done
  [ "$known_case" = 1 ] || { echo "ncu_why.sh: '$w' is not a case (the names: the list in this script)" >&2; exit 2; }
done
t0=$(date +%s)
done_cases=()
for c in "${cases[@]}"; do
  IFS='|' read -r name n re count args <<< "$c"
  if [ $# -gt 0 ]; then
    pick=0; for w in "$@"; do [ "$w" = "$name" ] && pick=1; done
    [ "$pick" = 1 ] || continue
  fi
  if [ $(( $(date +%s) - t0 )) -ge "$budget" ]; then echo "ncu_why.sh: $name not run: NCU_WHY_SECONDS reached" >&2; continue; fi
  read -ra a <<< "$args"
  if ncu --csv --page raw --print-units base --clock-control none --cache-control all \
       --kernel-name "regex:$re" --launch-count "$count" --metrics "$mlist" \
       "$bin" bench --reps 2 "${a[@]}" > "$dir/ncu_$name.csv" 2> "$dir/ncu_$name.err"; then
    done_cases+=("$name=$n")
  else
    echo "ncu_why.sh: ncu failed on $name (its stderr: $dir/ncu_$name.err)" >&2
  fi
done
[ ${#done_cases[@]} -gt 0 ] || { echo "ncu_why.sh: no case was profiled" >&2; exit 1; }
python3 "$here/ncu_why.py" --dir "$dir" "${done_cases[@]}"

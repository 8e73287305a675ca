#!/usr/bin/env bash
# gpu_session.sh: one full pass on a GPU machine: build, the gpu-labelled tests (sanitizer
# included), the benchmark sweeps (f32, f64) and the default study; logs, CSV and a tarball of
# the study go to ${OUT:-gpu-out}. Each stage is time-capped so the pass fits one session.
#   usage: bash tests/gpu_session.sh [STAGES]   STAGES: comma list of build,test,bench,study
#   env: CMAKE_PREFIX_PATH (MPFR/GMP prefix), SUMLAB_GIT_SHA, STUDY_SECONDS (default 240)
set -uo pipefail
stages=",${1:-build,test,bench,study},"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
build=${SUMLAB_BUILD_DIR:-$root/build-gpu}
sumlab=$build/experiments/sumlab
cd "$root"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
if [[ $stages == *,build,* ]]; then
  { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
    nvcc --version | tail -2; } > "$out/env.txt" 2>&1
  gen=(); command -v ninja >/dev/null && [ ! -f "$build/CMakeCache.txt" ] && gen=(-G Ninja)
  args=(-DCMAKE_BUILD_TYPE=Release)
  [ -n "${CMAKE_PREFIX_PATH:-}" ] && args+=("-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH")
  [ -n "${SUMLAB_GIT_SHA:-}" ] && args+=("-DSUMLAB_GIT_SHA=$SUMLAB_GIT_SHA")
  if ! { cmake -S . -B "$build" "${gen[@]}" "${args[@]}" && cmake --build "$build" -j "$(nproc)"; } > "$out/build.log" 2>&1; then
    tail -40 "$out/build.log"; echo "gpu_session: build failed" >&2; exit 1
  fi
  stamp "built"
fi
if [[ $stages == *,test,* ]]; then
  (cd "$build" && timeout 240 ctest --output-on-failure -L gpu) > "$out/ctest_gpu.log" 2>&1
  stamp "gpu tests rc=$?"; grep -E "tests passed|Failed|FAIL|Passed|\*\*\*" "$out/ctest_gpu.log" | head -30
fi
if [[ $stages == *,bench,* ]]; then
  timeout 150 "$sumlab" bench --n "2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28" --dtype f32 --reps 20 \
    > "$out/bench_f32.csv" 2> "$out/bench_f32.err"
  stamp "bench f32 rc=$?"
  timeout 60 "$sumlab" bench --n "2^30" --dtype f32 --reps 10 \
    --variants vec4,grid-stride,kahan,fp64-acc,multipass,superacc,atomic-block,cub \
    > "$out/bench_f32_2e30.csv" 2> "$out/bench_f32_2e30.err"
  stamp "bench f32 2^30 rc=$?"
  timeout 100 "$sumlab" bench --n "2^10,2^14,2^18,2^22,2^24,2^26,2^28" --dtype f64 --reps 20 \
    > "$out/bench_f64.csv" 2> "$out/bench_f64.err"
  stamp "bench f64 rc=$?"
fi
if [[ $stages == *,study,* ]]; then
  dir=$root/results/gpu-study
  extra=(); [ -f "$dir/run.conf" ] && extra=(--resume)
  timeout -s TERM "${STUDY_SECONDS:-240}" "$sumlab" run all --backend gpu --preset full -o "$dir" "${extra[@]}" \
    > "$out/study.log" 2>&1
  stamp "study rc=$? (124/143: time cap reached; rerun with the study stage to resume)"
  tail -5 "$out/study.log"
  tar -C "$root/results" -czf "$out/gpu-study.tar.gz" gpu-study
fi

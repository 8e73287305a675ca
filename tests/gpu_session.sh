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
  fast=vec4,grid-stride,kahan,fp64-acc,multipass,superacc,atomic-block,cub
  every=2^10,2^11,2^12,2^13,2^14,2^15,2^16,2^17,2^18,2^19,2^20,2^21,2^22,2^23,2^24
  b() { local name=$1 cap=$2; shift 2
        timeout "$cap" "$sumlab" bench "$@" > "$out/$name.csv" 2> "$out/$name.err"
        stamp "bench $name rc=$?"; }
  # device time (default): every variant at even powers, the fast ones at every power and 2^30
  b bench_f32 150 --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28 --dtype f32 --reps 20
  b bench_f32_every 60 --n "$every",2^25,2^26,2^27,2^28 --dtype f32 --reps 20 --variants "$fast"
  b bench_f32_2e30 60 --n 2^29,2^30 --dtype f32 --reps 10 --variants "$fast"
  b bench_f64 100 --n 2^10,2^14,2^18,2^22,2^24,2^26,2^28 --dtype f64 --reps 20
  b bench_f64_every 60 --n "$every",2^25,2^26,2^27,2^28,2^29 --dtype f64 --reps 20 --variants "$fast"
  # call time: the latency of one isolated call (launch cost included), small and mid n
  b bench_f32_call 60 --n "$every" --dtype f32 --reps 20 --variants "$fast" --timing call
  b bench_f64_call 60 --n "$every" --dtype f64 --reps 20 --variants "$fast" --timing call
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

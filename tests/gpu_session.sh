#!/usr/bin/env bash
# gpu_session.sh: one full pass on a GPU machine: build, the whole ctest suite (gpu tests
# included), the sanitizer script, and the benchmark sweep; logs and CSV go to ${OUT:-gpu-out}.
#   usage: bash tests/gpu_session.sh [quick|full]      (env CMAKE_PREFIX_PATH for MPFR/GMP)
set -uo pipefail
mode=${1:-full}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
build=${SUMLAB_BUILD_DIR:-$root/build-gpu}
cd "$root"
{
  date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  nvcc --version | tail -2
} > "$out/env.txt" 2>&1
gen=(); command -v ninja >/dev/null && [ ! -f "$build/CMakeCache.txt" ] && gen=(-G Ninja)
args=(-DCMAKE_BUILD_TYPE=Release)
[ -n "${CMAKE_PREFIX_PATH:-}" ] && args+=("-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH")
[ -n "${SUMLAB_GIT_SHA:-}" ] && args+=("-DSUMLAB_GIT_SHA=$SUMLAB_GIT_SHA")
if ! { cmake -S . -B "$build" "${gen[@]}" "${args[@]}" && cmake --build "$build" -j "$(nproc)"; } > "$out/build.log" 2>&1; then
  tail -40 "$out/build.log"; echo "gpu_session: build failed" >&2; exit 1
fi
sumlab=$build/experiments/sumlab
(cd "$build" && timeout 420 ctest --output-on-failure -j 4 -LE gpu) > "$out/ctest_cpu.log" 2>&1
echo "cpu tests rc=$?"; tail -5 "$out/ctest_cpu.log"
(cd "$build" && timeout 420 ctest --output-on-failure -L gpu) > "$out/ctest_gpu.log" 2>&1
echo "gpu tests rc=$?"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest_gpu.log" | tail -20
ns="2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28"
[ "$mode" = full ] && ns="$ns,2^30"
timeout 300 "$sumlab" bench --n "$ns" --dtype f32 --reps 30 > "$out/bench_f32.csv" 2> "$out/bench_f32.err"
echo "bench f32 rc=$?"
timeout 200 "$sumlab" bench --n "2^10,2^14,2^18,2^22,2^24,2^26,2^28" --dtype f64 --reps 30 > "$out/bench_f64.csv" 2> "$out/bench_f64.err"
echo "bench f64 rc=$?"

#!/usr/bin/env bash
# fuzz.sh: a bounded libFuzzer campaign (clang, ASan + UBSan) over every fuzz target of
# tests/fuzz/ (the .npy, .npz and raw readers, the option parsers, the --resume parser, what
# --report-only reads), starting from the committed seed corpus tests/fuzz/corpus/<target> and
# the regression inputs
# tests/fuzz/regress/<target>. A crash, a sanitizer report, a timeout or a wrong acceptance
# (the targets abort on one) fails the script and leaves the input in $FUZZ_OUT/<target>/.
# No clang: it fails (experiments/bootstrap.sh installs clang and libclang-rt-dev). CI step.
#   usage: bash tests/fuzz.sh [BUILD_DIR]   (default build-fuzz)
#   env: FUZZ_SECS (seconds per target, default 55), FUZZ_TARGETS (default: all six),
#        FUZZ_OUT (findings and logs, default BUILD_DIR/fuzz-out), JOBS (builds, and campaigns run
#        side by side; default nproc)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-fuzz}
secs=${FUZZ_SECS:-55}
targets=${FUZZ_TARGETS:-npy npz raw parse resume report}
out=${FUZZ_OUT:-$build/fuzz-out}
jobs=${JOBS:-$(nproc)}
cc=$(command -v clang || true)
if [ -z "$cc" ]; then
  echo "fuzz.sh: clang not found (apt-get install clang libclang-rt-dev; experiments/bootstrap.sh does)" >&2
  exit 1
fi
gen=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined"
cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSUMLAB_ENABLE_CUDA=OFF -DSUMLAB_FUZZ=ON "-DCMAKE_C_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" >&2
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" --target $(printf 'fuzz_%s ' $targets) >&2
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
mkdir -p "$out"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/slfuzz-scratch.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export SL_FUZZ_TMP=$scratch
# one target's campaign: its log, its exit status in $out/<target>/rc
campaign() {
  local t=$1 work=$out/$1/corpus
  mkdir -p "$work"
  local seeds=("$root/tests/fuzz/corpus/$t")
  [ -d "$root/tests/fuzz/regress/$t" ] && seeds+=("$root/tests/fuzz/regress/$t")
  set +e
  (cd "$out/$t" && "$build/tests/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
     -max_len=65536 -print_final_stats=1 -artifact_prefix="$out/$t/" "$work" "${seeds[@]}") > "$out/$t/log.txt" 2>&1
  echo $? > "$out/$t/rc"
}
# JOBS campaigns at a time (each its own process and scratch directory), then their reports in order
running=0
for t in $targets; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  rm -f "$out/$t/rc"
  campaign "$t" &
  running=$((running + 1))
done
wait
failed=0 total=0
for t in $targets; do
  log=$out/$t/log.txt
  rc=$(cat "$out/$t/rc" 2>/dev/null || echo missing)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -1)
  total=$((total + ${execs:-0}))
  if [ "$rc" != 0 ]; then
    failed=1
    echo "fuzz.sh: fuzz_$t FAILED (exit $rc); input and log in $out/$t/:" >&2
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written|deadly signal' "$log" 2>/dev/null | head -8 >&2
  else
    echo "fuzz.sh: fuzz_$t: ${execs:-?} executions in ${secs} s, corpus $(ls "$out/$t/corpus" | wc -l) inputs, no finding" >&2
  fi
done
echo "fuzz.sh: $total executions over: $targets" >&2
exit $failed

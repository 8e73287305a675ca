#!/usr/bin/env bash
# sanitize_cpu.sh: the whole cpu-labelled ctest suite under AddressSanitizer + UBSan (the
# `debug` preset of CMakePresets.json: Debug, no CUDA, same binary dir; here with -O1, which
# keeps the suite within CI's time on 2 cores, and UBSan made fatal), halting on the first
# report. CI step.
#   usage: bash tests/sanitize_cpu.sh [BUILD_DIR]     (default build-debug; env: JOBS)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-debug}
jobs=${JOBS:-$(nproc)}
gen=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Debug -DSUMLAB_ENABLE_CUDA=OFF \
  "-DCMAKE_C_FLAGS=-O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" >&2
cmake --build "$build" -j "$jobs" >&2
# halt on error; a leak is an error too; abort so a report can never pass as a skip code
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
cd "$build"
ctest -L cpu -LE mpi --output-on-failure -j "$jobs" --timeout 900
# The MPI tests with leak detection off: Open MPI's components leak at MPI_Finalize and are
# unloaded by then (unsymbolisable frames in libmpi's own allocations); every memory error is
# still caught, and sumlab's own code is leak-checked by every other test above.
ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0} ctest -L mpi --output-on-failure -j "$jobs" --timeout 900

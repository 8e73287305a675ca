#!/usr/bin/env bash
# sanitize.sh: compute-sanitizer memcheck, racecheck and synccheck over the GPU oracle tests at a
# reduced size (SUMLAB_TEST_QUICK=2: small n, every fourth dataset family). Exits 77 (skip) without a GPU or without compute-sanitizer.
#   usage: bash tests/sanitize.sh BUILD_DIR|PATH_TO_tgpu_twins
#   env: SUMLAB_SANITIZE_TOOLS: the tools to run, a space-separated subset of "memcheck racecheck
#        synccheck" (default all three, in that order), so that a caller may run them side by side
set -uo pipefail
tools=${SUMLAB_SANITIZE_TOOLS:-memcheck racecheck synccheck}
for tool in $tools; do
  case $tool in memcheck|racecheck|synccheck) ;; *) echo "sanitize: unknown tool '$tool' in SUMLAB_SANITIZE_TOOLS (memcheck, racecheck, synccheck)" >&2; exit 2;; esac
done
[ -n "${tools// /}" ] || { echo "sanitize: SUMLAB_SANITIZE_TOOLS names no tool" >&2; exit 2; }
arg=${1:?usage: sanitize.sh BUILD_DIR|PATH_TO_tgpu_twins}
twins=$arg
[ -f "$twins" ] || twins=$arg/tests/tgpu_twins
[ -x "$twins" ] || { echo "sanitize: $twins not built" >&2; exit 1; }
[ "${SUMLAB_NO_GPU:-0}" != "0" ] && { echo "sanitize: skipped (SUMLAB_NO_GPU)"; exit 77; }
cs=$(command -v compute-sanitizer || true)
[ -z "$cs" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && cs=/usr/local/cuda/bin/compute-sanitizer
[ -z "$cs" ] && { echo "sanitize: skipped (no compute-sanitizer)"; exit 77; }
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "sanitize: skipped (no GPU)"; exit 77; }
export SUMLAB_TEST_QUICK=2
rc=0
for tool in $tools; do
  extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  # racecheck and synccheck do not support CUDA dynamic parallelism, and report that as an error
  # when superacc's float64 kernel (which can tail-launch its exact fallback) runs: they skip it;
  # memcheck runs it
  skip=; [ "$tool" != memcheck ] && skip=superacc/f64
  echo "== compute-sanitizer --tool $tool${skip:+ (SUMLAB_TEST_SKIP=$skip)}" >&2
  SUMLAB_TEST_SKIP=$skip "$cs" --tool "$tool" --error-exitcode 3 "${extra[@]}" "$twins"
  r=$?
  if [ $r -eq 77 ]; then echo "sanitize: skipped (tgpu_twins found no GPU)"; exit 77; fi
  if [ $r -ne 0 ]; then echo "sanitize: $tool failed (rc $r)" >&2; rc=1; fi
done
exit $rc

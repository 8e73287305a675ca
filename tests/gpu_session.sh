#!/usr/bin/env bash
# gpu_session.sh: one full pass on a GPU machine: build, the gpu-labelled tests (in parallel:
# tgpu_twins one process per format, the Python package's tests and sumlab.allreduce over
# torch.distributed), compute-sanitizer on the kernels, the benchmark sweeps (f32, f64, f16, bf16) and the full study (16 threads, charts left to --report-only elsewhere;
# PyTorch's torch.sum timed before it for throughput-vs-n's framework series).
# Everything it writes lands in ${OUT:-gpu-out}/session.tar.gz (logs, CSV, the study without
# charts) beside summary.txt, so that a machine which returns few files returns all of it.
# Each stage is time-capped so the pass fits one session.
#   usage: bash tests/gpu_session.sh [STAGES]   STAGES: comma list of build,test,sanitize,bench,study,ops
#          (also full, targets, why, occupancy, parts, switches, twofold16, rowsub, rows64, cert64, lse16, moments, lse, dotnorm, fullrange, newrows, merges, max16, dotrows: run when named)
#   env: CMAKE_PREFIX_PATH (MPFR/GMP prefix), SUMLAB_BUILD_TARGETS (build only these targets, no
#        Python package), SUMLAB_GIT_SHA (the tree's commit, for a copy whose
#        .git names another: the provenance records read it at run time), STUDY_SECONDS (300),
#        SESSION_SECONDS (the whole pass's deadline from its start: each test, sanitizer and bench
#        step's cap is cut to the time left, so that a step stopped by it still writes its exit
#        status, 124, and the stage its summary line; a call's own limit would kill them unrecorded);
#        a stage's own: STUDY_OP, STUDY_DIR (study), TARGETS_ONLY, TARGETS_BASELINE (targets),
#        SWITCHES_AB (switches), NCU_WHY_CASES (why), SMS (occupancy): at each stage below
set -uo pipefail
stages=",${1:-build,test,sanitize,bench,study},"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-$root/gpu-out}
work=$out/session
mkdir -p "$work"
build=${SUMLAB_BUILD_DIR:-$root/build-gpu}
sumlab=$build/experiments/sumlab
T=$build/tests
[ -n "${SUMLAB_GIT_SHA:-}" ] && export SUMLAB_GIT_SHA
cd "$root"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$out/summary.txt"; }
# capped CAP: CAP, or the seconds left before SESSION_SECONDS when fewer (at least 1)
capped() {
  local c=$1 left
  case ${SESSION_SECONDS:-} in ''|*[!0-9]*|??????????*) echo "$c"; return;; esac   # a number of 1-9 digits
  left=$(( 10#$SESSION_SECONDS - ($(date +%s) - t0) ))
  [ "$left" -lt 1 ] && left=1
  [ "$left" -lt "$c" ] && c=$left
  echo "$c"
}
pack() { tar -C "$out" -czf "$out/session.tar.gz" session; }
# the named stages' test and benchmark steps, into the stage's folder $B: nt NAME CAP CMD...
# (NAME.log), rb NAME ARGS... (sumlab bench --reps 10 ARGS, at most 120 s: NAME.csv, NAME.err)
nt() { local name=$1 cap=$2; shift 2; timeout "$(capped "$cap")" "$@" > "$B/$name.log" 2>&1; stamp "$name rc=$?"; }
# the test and sanitize stages' processes, into the stage's folder $L: t NAME CAP CMD... (NAME.log;
# its exit status a line of rc.txt)
t() { local name=$1 cap=$2; shift 2; timeout "$(capped "$cap")" "$@" > "$L/$name.log" 2>&1; echo "$name rc=$?" >> "$L/rc.txt"; }
rb() { local name=$1; shift
       timeout "$(capped 120)" "$sumlab" bench --reps 10 "$@" > "$B/$name.csv" 2> "$B/$name.err"
       stamp "bench $name rc=$?"; }
trap pack EXIT
# configure_args DIR: into cfg, what every build of this pass is configured with (Release, the
# MPFR/GMP prefix, the tree's commit; Ninja for a folder not configured yet)
configure_args() {
  cfg=(); command -v ninja >/dev/null && [ ! -f "$1/CMakeCache.txt" ] && cfg=(-G Ninja)
  cfg+=(-DCMAKE_BUILD_TYPE=Release)
  [ -n "${CMAKE_PREFIX_PATH:-}" ] && cfg+=("-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH")
  [ -n "${SUMLAB_GIT_SHA:-}" ] && cfg+=("-DSUMLAB_GIT_SHA=$SUMLAB_GIT_SHA")
}
# measuring_build NAME DIR "TARGETS" CMAKE_ARGS...: a measuring build beside the default one
# (kernels/README.md's switches) configured in DIR with CMAKE_ARGS and built for TARGETS, its log
# in $B/build.log; stamps "NAME: built in DIR" or that it failed; returns the build's status
measuring_build() {
  local name=$1 dir=$2 tg=(--target) t; for t in $3; do tg+=("$t"); done; shift 3
  configure_args "$dir"
  if { cmake -S . -B "$dir" "${cfg[@]}" "$@" && cmake --build "$dir" -j "$(nproc)" "${tg[@]}"; } > "$B/build.log" 2>&1; then
    stamp "$name: built in $dir"
  else
    stamp "$name: the measuring build failed (its log: $name/build.log)"; return 1
  fi
}
# A copy whose .git names another commit than its tree (the device machine's): SUMLAB_GIT_SHA
# computed there by `git rev-parse HEAD` would name that commit in every provenance record. Said at
# the head of summary.txt when the tree differs from HEAD and SUMLAB_GIT_SHA is unset or names HEAD.
if head=$(git -C "$root" rev-parse HEAD 2>/dev/null) &&
   [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | head -1)" ] &&
   { [ -z "${SUMLAB_GIT_SHA:-}" ] || [[ $head == "$SUMLAB_GIT_SHA"* ]]; }; then
  said="is unset"; [ -n "${SUMLAB_GIT_SHA:-}" ] && said="names it"
  stamp "warning: the tree differs from .git's HEAD ($head) and SUMLAB_GIT_SHA $said: the provenance records will name a commit that is not this tree; pass the tree's commit as a literal"
fi
if [[ $stages == *,build,* ]]; then
  { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
    nvcc --version | tail -2; nproc; } > "$work/env.txt" 2>&1
  configure_args "$build"
  args=("${cfg[@]}")
  # the Python package too, where its build needs import (the GPU machine has nanobind)
  # (SUMLAB_BUILD_TARGETS: only those targets, without the Python package: a call that runs a
  # few tests and benchmarks)
  [ -z "${SUMLAB_BUILD_TARGETS:-}" ] && python3 -c 'import nanobind, numpy, pytest' >/dev/null 2>&1 &&
    args+=(-DSUMLAB_PYTHON=ON "-DPython_EXECUTABLE=$(command -v python3)")
  targets=(); for tg in ${SUMLAB_BUILD_TARGETS:-}; do targets+=(--target "$tg"); done
  if ! { cmake -S . -B "$build" "${args[@]}" && cmake --build "$build" -j "$(nproc)" "${targets[@]}"; } > "$work/build.log" 2>&1; then
    tail -40 "$work/build.log"; echo "gpu_session: build failed" >&2; exit 1
  fi
  stamp "built"
fi
if [[ $stages == *,test,* ]]; then
  L=$work/tests; mkdir -p "$L"
  # the other operations' twins and the determinism test at their quick sizes (small n, 10 runs):
  # at full size they outlast a call beside the rest (the full stage runs them so)
  for d in f32 f64 f16 bf16; do
    SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum t "twins_$d" 420 "$T/tgpu_twins" &
    SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=mean,var,std,max,min t "twins_moments_$d" 420 "$T/tgpu_twins" &
    SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=lse,norm2,dot t "twins_ops_$d" 420 "$T/tgpu_twins" &
  done
  { t sacc 200 "$T/tsuperacc_gpu"; t prefix 120 "$T/tgpu_prefix"; t limits 60 "$T/tgpu_limits"; } &
  SUMLAB_TEST_QUICK=1 t determinism 300 "$T/tgpu_determinism" &
  t lib_gpu 300 "$T/tlib_gpu" &
  # the Python package on CUDA tensors (PyTorch, CuPy, JAX where installed): its GPU tests
  [ -d "$build/python/sumlab" ] && t python 300 env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" \
    SUMLAB_CLI="$sumlab" python3 -m pytest -q -p no:cacheprovider tests/python &
  # sumlab.allreduce over torch.distributed (gloo, K = 1..4 processes, CPU and CUDA tensors on
  # device 0): every rank's merged state equals the one-process state bit for bit
  [ -d "$build/python/sumlab" ] && t dist_torch 300 env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" \
    python3 tests/python/dist_torch.py --backend gloo &
  t huge 300 "$T/tgpu_huge" &
  t gpu_threads 300 bash tests/tgpu_threads.sh "$sumlab" &
  # the operations' own GPU tests: cuBLAS anchors, row kernels, launch configurations, bench
  { t norm_gpu 200 "$T/tnorm_gpu"; t dot_gpu 200 "$T/tdot_gpu"; } &
  t rows_gpu 420 "$T/trows_gpu" &
  # the certified first steps of the correctly rounded dot/norm2/moments (their counts of
  # certified and fallback runs in the logs) and the NCCL state allreduce (K = 1 per GPU, under
  # NCCL's default, Tree and Ring algorithms; torch.distributed's NCCL backend in one process)
  { t dot_cert_gpu 200 "$T/tdot_cert_gpu"; t norm_cert_gpu 200 "$T/tnorm_cert_gpu"; } &
  [ -x "$T/tmoments_exact_gpu" ] && t moments_exact_gpu 300 "$T/tmoments_exact_gpu" &
  if [ -x "$T/tnccl" ]; then
    { export NCCL_NVLS_ENABLE=0; t nccl 120 "$T/tnccl"; NCCL_ALGO=Tree t nccl_tree 120 "$T/tnccl"
      NCCL_ALGO=Ring t nccl_ring 120 "$T/tnccl"
      [ -d "$build/python/sumlab" ] && t dist_nccl 200 env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" \
        python3 tests/python/dist_torch.py --backend nccl --n 30011; } &
  fi
  SUMLAB_TEST_QUICK=1 t launch_gpu 360 "$T/tgpu_launch" &
  t bench_gpu 200 ctest --test-dir "$build" -R '^tbench_gpu$' --output-on-failure &
  wait
  stamp "gpu tests: $(grep -c 'rc=0' "$L/rc.txt") of $(wc -l < "$L/rc.txt") passed"
  grep -v 'rc=0' "$L/rc.txt" | tee -a "$out/summary.txt"
  grep -h "FAIL" "$L"/*.log | head -20 | tee -a "$out/summary.txt"
fi
if [[ $stages == *,sanitize,* ]]; then
  # compute-sanitizer, a stage of its own: beside the test stage's processes its runs starved them
  # past their caps (the H100 at d837379). The 16-bit sum kernels, the other operations' f32
  # kernels one process per tool (the three in a row outlast the cap), and the float64 row kernels
  # (superacc's certified rows on ill-conditioned rows, most of them summed by the exact kernel;
  # var `correct` on rows with NaNs, which go to the exact kernel)
  L=$work/sanitize; mkdir -p "$L"
  for d in f16 bf16; do
    SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum t "sanitize_$d" 480 bash tests/sanitize.sh "$T/tgpu_twins" &
  done
  for tool in memcheck racecheck synccheck; do
    SUMLAB_SANITIZE_TOOLS=$tool SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=f32 SUMLAB_TEST_OPS=mean,var,std,max,min,lse \
      t "sanitize_ops_f32_$tool" 480 bash tests/sanitize.sh "$T/tgpu_twins" &
    for n in 4097 9001; do
      t "rows64_sum_${tool}_$n" 200 compute-sanitizer --tool "$tool" --error-exitcode 9 "$sumlab" bench --axis -1 \
        --rows 600 --n "$n" --dtype f64 --variants superacc --reps 1 --dataset ill-conditioned --param cond=1e200 &
      t "rows64_var_${tool}_$n" 200 compute-sanitizer --tool "$tool" --error-exitcode 9 "$sumlab" bench --op var \
        --axis -1 --rows 600 --n "$n" --dtype f64 --variants correct --reps 1 --dataset special --param count=100 &
    done
  done
  wait
  stamp "sanitizer runs: $(grep -c 'rc=0' "$L/rc.txt") of $(wc -l < "$L/rc.txt") passed"
  grep -v 'rc=0' "$L/rc.txt" | tee -a "$out/summary.txt"
fi
if [[ $stages == *,bench,* ]]; then
  B=$work/bench; mkdir -p "$B"
  fast=vec4,grid-stride,kahan,fp64-acc,multipass,superacc,reproducible,atomic-block,cub
  every=2^10,2^11,2^12,2^13,2^14,2^15,2^16,2^17,2^18,2^19,2^20,2^21,2^22,2^23,2^24
  b() { local name=$1 cap=$2; shift 2
        timeout "$(capped "$cap")" "$sumlab" bench "$@" > "$B/$name.csv" 2> "$B/$name.err"
        stamp "bench $name rc=$?"; }
  # device time (default): every variant at even powers, the fast ones at every power and 2^30
  b bench_f32 150 --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28 --dtype f32 --reps 20
  b bench_f32_every 60 --n "$every",2^25,2^26,2^27,2^28 --dtype f32 --reps 20 --variants "$fast"
  b bench_f32_2e30 60 --n 2^29,2^30 --dtype f32 --reps 10 --variants "$fast"
  b bench_f64 100 --n 2^10,2^14,2^18,2^22,2^24,2^26,2^28 --dtype f64 --reps 20
  b bench_f64_every 60 --n "$every",2^25,2^26,2^27,2^28,2^29 --dtype f64 --reps 20 --variants "$fast"
  for d in f16 bf16; do
    b "bench_$d" 60 --n 2^20,2^24,2^28 --dtype "$d" --reps 10 --variants vec4,half-acc,superacc,reproducible,cub,cub-f32acc
  done
  # call time: the latency of one isolated call (launch cost included), small and mid n
  b bench_f32_call 60 --n "$every" --dtype f32 --reps 20 --variants "$fast" --timing call
  b bench_f64_call 60 --n "$every" --dtype f64 --reps 20 --variants "$fast" --timing call
fi
if [[ $stages == *,ops,* ]]; then
  # dot and norm2 beside cuBLAS, the correctly rounded and reproducible moments beside CUB and
  # torch, lse, row-wise reductions (4096 x 32768 and 32768 x 4096) and the launch-config sweep
  B=$work/ops; mkdir -p "$B"
  ob() { local name=$1 cap=$2; shift 2
         timeout "$(capped "$cap")" "$sumlab" bench "$@" > "$B/$name.csv" 2> "$B/$name.err"
         stamp "bench $name rc=$?"; }
  for d in f32 f64 bf16; do
    ob "dot_$d" 60 --op dot --n 2^24,2^28 --dtype "$d" --reps 10 --dataset dot-random
    ob "norm2_$d" 60 --op norm2 --n 2^24,2^28 --dtype "$d" --reps 10 --dataset normal
    ob "var_$d" 60 --op var --n 2^24,2^28 --dtype "$d" --reps 10 --dataset normal
    ob "lse_$d" 60 --op lse --n 2^24,2^28 --dtype "$d" --reps 10 --dataset logits
  done
  # the certified correctly rounded rows: a block of 512, the fallback's cost (float64 dot at cond
  # 1e30; a constant array's variance), large means that must certify
  ob dot_f32_b512 40 --op dot --n 2^28 --dtype f32 --reps 10 --variants correct,cublas --dataset dot-random --block 512
  ob dot_f64_cond 40 --op dot --n 2^24 --dtype f64 --reps 5 --variants correct,cublas --dataset dot-cond --param cond=1e30
  ob var_f32_mean1e6 40 --op var --n 2^28 --dtype f32 --reps 10 --variants correct,welford,cub --dataset normal \
    --param mean=1e6 --param sd=1
  ob var_f32_constant 40 --op var --n 2^28 --dtype f32 --reps 5 --variants correct,cub --dataset constant
  for d in f32 bf16; do
    ob "rows_$d" 90 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --reps 10 \
      --variants reproducible,superacc,block-row,vec4
  done
  if [ -d "$build/python/sumlab" ]; then
    timeout "$(capped 200)" env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 experiments/bench_moments.py \
      --n 2^28 --reps 10 > "$B/bench_moments_py.csv" 2> "$B/bench_moments_py.err"
    stamp "bench_moments.py rc=$?"
    timeout "$(capped 200)" env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 experiments/anchors/batch_torch.py \
      -o "$B/batch_torch.csv" > "$B/batch_torch.log" 2> "$B/batch_torch.err"
    stamp "batch_torch.py rc=$?"
  fi
  # the batch-invariance experiment (its table, CSV and chart), PyTorch's rows joined when measured
  mkdir -p "$B/batch"; [ ! -s "$B/batch_torch.csv" ] || cp "$B/batch_torch.csv" "$B/batch/"
  timeout "$(capped 300)" "$sumlab" run batch-invariance --backend gpu --threads "$(nproc)" -o "$B/batch" -q \
    > "$B/batch.log" 2>&1
  stamp "batch-invariance rc=$?"
  for d in f32 bf16; do
    SUMLAB_NO_CHARTS=1 timeout "$(capped 200)" "$sumlab" run launch-config --backend gpu --threads "$(nproc)" --dtype "$d" \
      -o "$B/launch_$d" > "$B/launch_$d.log" 2>&1
    stamp "launch-config $d rc=$?"
  done
fi
if [[ $stages == *,nccl,* ]]; then
  # the ranks experiment with NCCL rows, one rank on one GPU (K = 1), under Ring and Tree
  B=$work/nccl; mkdir -p "$B"
  export NCCL_NVLS_ENABLE=0
  timeout "$(capped 200)" mpirun --allow-run-as-root -np 1 -x NCCL_NVLS_ENABLE "$sumlab" run ranks -o "$B/ranks1" \
    --backend gpu --preset quick > "$B/ranks1.log" 2>&1
  stamp "ranks K=1 rc=$?"
  for a in Ring Tree; do
    NCCL_ALGO=$a timeout "$(capped 100)" mpirun --allow-run-as-root -np 1 -x NCCL_ALGO -x NCCL_NVLS_ENABLE "$sumlab" run ranks \
      -o "$B/ranks1" --backend gpu --preset quick --nccl -q > "$B/ranks1_$a.log" 2>&1
    stamp "ranks K=1 NCCL_ALGO=$a rc=$?"
  done
fi
if [[ $stages == *,full,* ]]; then
  # the test stage's quick runs at full size, all at once under one cap (FULL_SECONDS, 480): the
  # other operations' twins (every family at every n) and the determinism test (50 runs, n =
  # 2^24 + 1); each log ends in its counts, or in its last "done ... failed so far" line when the
  # cap stopped it
  L=$work/full; mkdir -p "$L"
  for d in f32 f64 f16 bf16; do
    SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=mean,var,std,max,min timeout "$(capped "${FULL_SECONDS:-480}")" "$T/tgpu_twins" \
      > "$L/twins_moments_$d.log" 2>&1 &
    SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=lse,norm2,dot timeout "$(capped "${FULL_SECONDS:-480}")" "$T/tgpu_twins" \
      > "$L/twins_ops_$d.log" 2>&1 &
  done
  timeout "$(capped "${FULL_SECONDS:-480}")" "$T/tgpu_determinism" > "$L/determinism.log" 2>&1 &
  wait
  for f in "$L"/*.log; do stamp "full $(basename "$f" .log): $(tail -1 "$f")"; done
fi
if [[ $stages == *,quicktwins,* ]]; then
  # the twins of the operations named by QUICK_OPS on small n (SUMLAB_TEST_QUICK=1), every format
  L=$work/quicktwins; mkdir -p "$L"
  for d in f32 f64 f16 bf16; do
    SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=${QUICK_OPS:-var,std} timeout "$(capped 300)" "$T/tgpu_twins" \
      > "$L/twins_$d.log" 2>&1 &
  done
  wait
  stamp "quick twins (${QUICK_OPS:-var,std}): $(grep -h 'checks,' "$L"/*.log | tr '\n' ' ')"
fi
if [[ $stages == *,newrows,* ]]; then
  # the kernels written without a GPU (today: reproducible mean/var/std, 1-D and row-wise, and
  # reproducible norm2 (1-D and its new row kernel) and dot, taking their values in groups of
  # eight through the binned sum's fast path): their tests against the twins first, then their
  # benchmarks (4096 x 32768, 32768 x 4096; 1-D at 2^24 and 2^28)
  B=$work/newrows; mkdir -p "$B"
  nt trows_gpu 360 "$T/trows_gpu" &
  for d in f64 f32 bf16 f16; do
    nt "moments_twins_$d" 300 env SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=mean,var,std,norm2,dot "$T/tgpu_twins" &
  done
  nt tmoments_exact_gpu 300 "$T/tmoments_exact_gpu" &
  wait
  for d in f32 bf16; do
    for op in mean var norm2; do
      rb "${op}_$d" --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --op $op --variants correct,reproducible
    done
  done
  for d in f32 f64 bf16; do
    rb "var1d_$d" --op var --n 2^24,2^28 --dtype "$d" --dataset normal --variants reproducible,correct,welford
    rb "norm2_1d_$d" --op norm2 --n 2^24,2^28 --dtype "$d" --dataset normal --variants reproducible,correct
    rb "dot_1d_$d" --op dot --n 2^24,2^28 --dtype "$d" --dataset dot-random --variants reproducible,correct
  done
fi
if [[ $stages == *,merges,* ]]; then
  # the binned states merged by shuffles (exact/binned_merge.cuh) in reproducible mean/var/std,
  # dot and norm2 (1-D: the last block's merge spread over its threads; rows of at most 8,192
  # values: a warp a row), dot's 16-byte loads, and fused's 16-bit path (fma squares, packed
  # keys): their tests against the twins, then their benchmarks
  B=$work/merges; mkdir -p "$B"
  nt trows_gpu 360 "$T/trows_gpu" &
  for d in f64 f32 bf16 f16; do
    nt "twins_$d" 300 env SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=mean,var,std,max,norm2,dot "$T/tgpu_twins" &
  done
  nt tmoments_exact_gpu 300 "$T/tmoments_exact_gpu" &
  wait
  for x in tdot_gpu tnorm_gpu; do [ -x "$T/$x" ] && nt "$x" 200 "$T/$x"; done
  for d in f32 bf16; do
    for op in mean var norm2; do
      rb "rows_${op}_$d" --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --op $op --variants reproducible
    done
  done
  for d in f32 f64 bf16; do
    rb "var1d_$d" --op var --n 2^24,2^28 --dtype "$d" --dataset normal --variants reproducible
    rb "norm2_1d_$d" --op norm2 --n 2^24,2^28 --dtype "$d" --dataset normal --variants reproducible
    rb "dot_1d_$d" --op dot --n 2^24,2^28 --dtype "$d" --dataset dot-random --variants reproducible
  done
  for d in bf16 f32; do   # correct mean/var: 16-bit values widened half by the bits
    rb "rows_var_correct_$d" --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --op var --variants correct
  done
  rb var1d_correct_bf16 --op var --n 2^24,2^28 --dtype bf16 --dataset normal --variants correct,cub
  for d in bf16 f16 f32; do
    rb "fused_$d" --op var --n 2^24,2^28 --dtype "$d" --dataset normal --variants fused,welford-ln,cub
  done
fi
if [[ $stages == *,max16,* ]]; then
  # max/min on 16-bit input by packed 16-bit keys (block-reduce, zero-fill; 1-D, rows and split
  # rows): the twins, then the benchmarks beside float32's and CUB's sum of the same bytes
  B=$work/max16; mkdir -p "$B"
  nt trows_gpu 360 "$T/trows_gpu" &
  for d in bf16 f16 f32; do   # var: fused (its 16-bit path and the shared 1-D walk)
    nt "twins_$d" 300 env SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=max,min,var "$T/tgpu_twins" &
  done
  wait
  for d in bf16 f16; do
    rb "max1d_$d" --op max --n 2^24,2^28 --dtype "$d" --dataset normal --variants block-reduce,fmax
  done
  rb rows_max_bf16 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype bf16 --op max --variants block-reduce,fmax
fi
if [[ $stages == *,occupancy,* ]]; then
  # the SM-bound 16-bit kernels at 2^28 (bfloat16; the sum's reproducible on uniform and on the
  # full-range family too) under more threads an SM: each variant's own launch, then blocks of
  # 256 at 4, 6 and 8 blocks an SM (1024, 1536 and 2048 threads; SMS, 132 on an H100 or H200; the
  # CSV's block/grid columns hold what each variant resolved): whether more warps hide the loads'
  # latency, before a kernel is changed for it (BENCHMARKS.md's estimate: bfloat16 online lse
  # issues at about 68 % of the SMs' rate on the H200). A launch changes no twin match (the twins
  # follow the resolved launch); the rows' check columns say so.
  B=$work/occupancy; mkdir -p "$B"
  sms=${SMS:-132}
  case $sms in ''|*[!0-9]*) sms=132;; esac
  for k in own 4 6 8; do
    req=(); [ "$k" = own ] || req=(--block 256 --grid $(( k * sms )))
    rb "lse_bf16_$k" --op lse --n 2^28 --dtype bf16 --dataset logits --variants online,reproducible "${req[@]}"
    rb "var_bf16_$k" --op var --n 2^28 --dtype bf16 --dataset normal --variants fused,welford "${req[@]}"
    rb "sum_bf16_$k" --n 2^28 --dtype bf16 --variants fp64-acc,reproducible "${req[@]}"
    rb "sum_bf16_wide_$k" --n 2^28 --dtype bf16 --variants reproducible --dataset log-uniform \
      --param emin=-1100 --param emax=116 --param subnormals=1 "${req[@]}"
  done
fi
if [[ $stages == *,rowsub,* ]]; then
  # reproducible row sums taking their tiles in rs_kernel's sub-tiles (16-bit input: 16 values
  # widened at a time, 64 registers instead of 80): trows_gpu (every row against the 1-D twin),
  # then the row benchmarks in every format beside block-row and CUB's segmented sum
  B=$work/rowsub; mkdir -p "$B"
  nt trows_gpu 360 "$T/trows_gpu"
  for d in bf16 f16 f32 f64; do
    rb "rows_sum_$d" --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --variants reproducible,superacc,block-row
  done
fi
if [[ $stages == *,rows64,* ]]; then
  # float64 row kernels: superacc's certified pass (each row's 4-fold binned state, rows.cu) and
  # the exact kernel on the rows it lists (rows.cu); var/std `correct`'s cheap pass
  # (mx_fast64.h's pairs per row) and mxrowx_kernel behind it: the row benchmarks (the GPU to
  # themselves), then trows_gpu (the sanitize stage runs compute-sanitizer on these kernels)
  B=$work/rows64; mkdir -p "$B"
  rb rows_sum_f64 --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f64 --variants superacc,reproducible,block-row
  rb rows_sum_f64_short --axis -1 --rows 65536 --n 1024 --dtype f64 --variants superacc,reproducible,block-row
  rb rows_var_f64 --op var --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f64 --variants correct,reproducible,welford
  nt trows_gpu 360 "$T/trows_gpu"
fi
if [[ $stages == *,cert64,* ]]; then
  # the float64 certificate's ends in registers (exact/binned.h's sl_rsum_state_certify_end_f64):
  # superacc float64 1-D and rows, var/std correct float64 rows, dot/norm2 correct's certified
  # pass: the benchmarks first (the GPU to themselves), then the tests of these kernels side by side
  B=$work/cert64; mkdir -p "$B"
  for ds in uniform log-uniform ill-conditioned; do
    rb "sum_f64_$ds" --n 2^20,2^24,2^28 --dtype f64 --dataset "$ds" --variants superacc,reproducible
  done
  rb rows_sum_f64 --axis -1 --rows 4096,32768,65536 --n 32768,4096,1024 --pairs --dtype f64 --variants superacc,reproducible
  rb rows_var_f64 --op var --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype f64 --variants correct,welford
  L=$B
  t sacc 240 "$T/tsuperacc_gpu" &
  t rows_gpu 300 "$T/trows_gpu" &
  t moments_exact_gpu 300 "$T/tmoments_exact_gpu" &
  { t dot_cert_gpu 150 "$T/tdot_cert_gpu"; t norm_cert_gpu 150 "$T/tnorm_cert_gpu"; } &
  SUMLAB_TEST_DTYPE=f64 SUMLAB_TEST_OPS=sum t twins_f64 300 "$T/tgpu_twins" &
  SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=f64 SUMLAB_TEST_OPS=mean,var,std,norm2,dot t twins_ops_f64 300 "$T/tgpu_twins" &
  t lib_gpu 300 "$T/tlib_gpu" &
  for tool in racecheck synccheck; do
    t "rows64_sum_$tool" 200 compute-sanitizer --tool "$tool" --error-exitcode 9 "$sumlab" bench --axis -1 \
      --rows 600 --n 4097 --dtype f64 --variants superacc --reps 1 --dataset ill-conditioned --param cond=1e200 &
  done
  wait
  stamp "cert64 tests: $(grep -c 'rc=0' "$L/rc.txt") of $(wc -l < "$L/rc.txt") passed"
  grep -v 'rc=0' "$L/rc.txt" | tee -a "$out/summary.txt"
  grep -h "checks, .* failed" "$L"/*.log | tee -a "$out/summary.txt"
fi
if [[ $stages == *,lse16,* ]]; then
  # lse on 16-bit input with its 16-bit exponential (lse_math.h's sl_lm_expf16: online's terms and
  # reproducible's one-pass terms, 1-D and row-wise) and packed maxima: the benchmarks first (the
  # GPU to themselves), beside the float32 rows and CUB's sum of the same bytes; then trows_gpu
  # (every row against the 1-D twin) and the lse twins of every format (quick), side by side
  B=$work/lse16; mkdir -p "$B"
  for d in bf16 f16 f32; do
    rb "lse_$d" --op lse --n 2^20,2^24,2^28 --dtype "$d" --dataset logits --variants online,accurate,reproducible
    rb "rows_lse_$d" --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --op lse --dataset logits --variants reproducible
  done
  nt trows_gpu 300 "$T/trows_gpu" &
  for d in bf16 f16 f32 f64; do
    nt "twins_$d" 300 env SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=lse "$T/tgpu_twins" &
  done
  wait
fi
if [[ $stages == *,moments,* ]]; then
  # mean/var/std/max: every GPU variant paired run by run with CUB's sum of the same bytes
  # (ratio_cub) and the read ceiling (ratio_read); then the package beside torch in one process
  B=$work/moments; mkdir -p "$B"
  for d in f32 f64 bf16 f16; do
    for op in ${MOMENT_OPS:-mean var std max lse}; do
      timeout "$(capped 120)" "$sumlab" bench --op "$op" --n "${MOMENT_N:-2^24,2^28}" --dtype "$d" --reps 10 --dataset normal \
        > "$B/bench_${op}_$d.csv" 2> "$B/bench_${op}_$d.err"
      stamp "bench --op $op $d rc=$?"
    done
  done
  if [ -d "$build/python/sumlab" ]; then
    timeout "$(capped 300)" env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 experiments/bench_moments.py \
      --n 2^24,2^28 --reps 10 > "$B/bench_moments_py.csv" 2> "$B/bench_moments_py.err"
    stamp "bench_moments.py rc=$?"
  fi
fi
if [[ $stages == *,lse,* ]]; then
  # lse: every GPU variant on logits (sigma 3) at 2^24 and 2^28, paired run by run with CUB's sum
  # of the same bytes (ratio_cub) and the read ceiling (ratio_read); targets: online >= 0.90 of
  # the read ceiling in f32 and bf16
  B=$work/lse; mkdir -p "$B"
  for d in f32 bf16 f16 f64; do
    timeout "$(capped 120)" "$sumlab" bench --op lse --n 2^24,2^28 --dtype "$d" --reps 10 --dataset logits \
      > "$B/bench_lse_$d.csv" 2> "$B/bench_lse_$d.err"
    stamp "bench --op lse $d rc=$?"
  done
fi
if [[ $stages == *,dotnorm,* ]]; then
  # dot and norm2's study (issue 32), a run directory each: torch.dot / torch.linalg.vector_norm
  # timed first (throughput-vs-n's framework series beside cuBLAS and the two-array read ceiling),
  # then the full study (error vs the dot's condition number to 1e40; the norm families whose
  # squares overflow or underflow), then anchors.py (NumPy, SciPy's BLAS, PyTorch on the CPU and
  # CUDA judged on the study's inputs up to 2^22: the report's anchors beside the variants)
  for op in dot norm2; do
    dir=$root/results/gpu-study-$op
    extra=(); [ -f "$dir/run.conf" ] && extra=(--resume)
    if [ ! -f "$dir/throughput_torch.csv" ]; then
      timeout "$(capped 200)" env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 experiments/anchors/throughput_torch.py \
        "$dir" --op "$op" > "$work/throughput_torch_$op.log" 2>&1
      stamp "throughput_torch.py --op $op rc=$?"
    fi
    s0=$(date +%s)
    SUMLAB_NO_CHARTS=1 timeout -s TERM "$(capped "${STUDY_SECONDS:-300}")" "$sumlab" run all --op "$op" --backend gpu --preset full \
      --threads "$(nproc)" -o "$dir" "${extra[@]}" > "$work/study_$op.log" 2>&1
    stamp "study --op $op rc=$? in $(( $(date +%s) - s0 )) s (124/143: time cap reached; rerun the dotnorm stage to resume)"
    timeout "$(capped "${ANCHORS_SECONDS:-240}")" env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 \
      experiments/anchors/anchors.py "$dir" --sumlab "$sumlab" --max-n 4194304 --no-report > "$work/anchors_$op.log" 2>&1
    stamp "anchors.py $op rc=$?"
    tar -C "$root/results" -czf "$work/gpu-study-$op.tar.gz" "gpu-study-$op"
  done
fi
if [[ $stages == *,fullrange,* ]]; then
  # the order-independent sums on a full-range family whose exact sum is finite at 2^28
  # (log-uniform with subnormals, emax per format: float32/bfloat16 116, float64 1013, float16 2)
  B=$work/fullrange; mkdir -p "$B"
  for d in f32:116 f64:1013 bf16:116 f16:2; do
    dt=${d%%:*} emax=${d##*:}
    v=reproducible,superacc,cub
    [ "$dt" = f16 ] || [ "$dt" = bf16 ] && v=vec4,half-acc,superacc,reproducible,cub,cub-f32acc
    timeout "$(capped 120)" "$sumlab" bench --n 2^24,2^28 --dtype "$dt" --reps 20 --variants "$v" --dataset log-uniform \
      --param emin=-1100 --param emax="$emax" --param subnormals=1 > "$B/full_$dt.csv" 2> "$B/full_$dt.err"
    stamp "bench full-range $dt rc=$?"
  done
fi
if [[ $stages == *,twofold16,* ]]; then
  # 16-bit reproducible sums through the 2-fold path (exact/binned.h's sl_rsum_two_fold16): the
  # benchmarks first (the GPU to themselves), five families a format beside CUB's 16-bit and
  # float32-accumulating sums, and the bfloat16 row sums; then compute-sanitizer on the 16-bit
  # sum twins, each tool its own process, and memcheck on the reproducible row kernels
  B=$work/twofold16; mkdir -p "$B"
  for d in bf16 f16; do
    wide=116; ill=1e16; [ "$d" = f16 ] && { wide=2; ill=1e3; }
    for fam in uniform normal subnormal ill wide; do
      case $fam in
        ill) o=(--dataset ill-conditioned --param "cond=$ill");;
        wide) o=(--dataset log-uniform --param emin=-1100 --param "emax=$wide" --param subnormals=1);;
        *) o=(--dataset "$fam");;
      esac
      timeout "$(capped 60)" "$sumlab" bench --n 2^20,2^24,2^28 --dtype "$d" --reps 20 \
        --variants reproducible,superacc,cub,cub-f32acc "${o[@]}" > "$B/${d}_$fam.csv" 2> "$B/${d}_$fam.err"
      stamp "bench $d $fam rc=$?"
    done
  done
  for d in bf16 f16; do
    timeout "$(capped 60)" "$sumlab" bench --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --reps 10 \
      --variants reproducible,block-row > "$B/rows_$d.csv" 2> "$B/rows_$d.err"
    stamp "bench rows $d rc=$?"
  done
  L=$B
  for d in f16 bf16; do
    for tool in memcheck racecheck synccheck; do
      SUMLAB_SANITIZE_TOOLS=$tool SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum t "sanitize_${d}_$tool" 300 \
        bash tests/sanitize.sh "$T/tgpu_twins" &
    done
    t "rows_memcheck_$d" 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$sumlab" bench --axis -1 \
      --rows 600 --n 4097 --dtype "$d" --variants reproducible --reps 1 --dataset log-uniform &
  done
  wait
  stamp "twofold16 sanitizer runs: $(grep -c 'rc=0' "$L/rc.txt") of $(wc -l < "$L/rc.txt") passed"
  grep -v 'rc=0' "$L/rc.txt" | tee -a "$out/summary.txt"
fi
if [[ $stages == *,parts,* ]]; then
  # the measuring build SUMLAB_RSUM_PARTS (kernels/README.md) beside the default one:
  # `reproducible` ended by the blocks' states merged in the last block instead of every block's
  # atomics into one set of global bins, the suspect of its fixed cost at small n (BENCHMARKS.md,
  # issue 35). Built in PARTS_BUILD_DIR (default: the build folder's name + -parts; sumlab and
  # tgpu_twins only), the sum twins on it in every format (quick: the same bits as the twins, as
  # the default build's), then the two builds alternated (experiments/bench_ab.sh, 2 rounds) on
  # `reproducible` at 2^20 .. 2^28: $work/parts/ab/
  B=$work/parts; mkdir -p "$B"
  pb=${PARTS_BUILD_DIR:-$build-parts}
  if measuring_build parts "$pb" "sumlab tgpu_twins" -DSUMLAB_RSUM_PARTS=ON; then
    for d in f32 f64 f16 bf16; do
      nt "twins_$d" 300 env SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum "$pb/tests/tgpu_twins" &
    done
    wait
    nt ab 300 env BENCH_AB_DTYPES="f32 f64 bf16 f16" bash experiments/bench_ab.sh "$sumlab" \
      "$pb/experiments/sumlab" "$B/ab" 2 -- --n 2^20,2^22,2^24,2^28 --reps 20 --variants reproducible,cub
  fi
fi
if [[ $stages == *,switches,* ]]; then
  # the measuring switches not yet made default (kernels/README.md), built together in
  # SWITCHES_BUILD_DIR (default: the build folder's name + -switches): SUMLAB_TICKET_ACQ_REL (the
  # one-launch kernels' ticket fenced by fence.acq_rel.gpu), SUMLAB_LSE_ACCF_TILE (16-bit lse
  # accurate's first pass summing each tile's terms in float32: in ab_lse16 accurate's B against A
  # is its gain) and SUMLAB_LSE_REP1_BINS (the form before the default's register folds: 16-bit
  # reproducible lse's terms all into the exponent bins; in ab_lse16 and ab_lse_rows
  # reproducible's B below A is the folds' gain) and SUMLAB_LSE_REP1_FOLDS_F32 (float32 reproducible
  # lse's terms into the same folds: in ab_lse and ab_lse_rows float32 reproducible's B against A
  # is its gain).
  # SUMLAB_LSE_ACCF_FLAT, the form before the pipelined walk, is not in it (both change accurate's
  # first pass).
  # First their correctness on that build (tsuperacc_gpu, trows_gpu, the quick twins of every
  # format and operation), then the two builds alternated (experiments/bench_ab.sh, 2 rounds): the
  # small sizes every ticketed kernel pays its fixed cost at (float32 and float64 sums, float32
  # lse, which is timed at 2^28 too), 16-bit lse accurate and reproducible at 2^20, 2^24 and 2^28 (by the read ratio; online, which
  # no switch changes, beside them) and reproducible lse rows (16-bit and float32); about 9 minutes in all:
  # $work/switches/ab_*/ and ab_*.log
  B=$work/switches; mkdir -p "$B"
  sb=${SWITCHES_BUILD_DIR:-$build-switches}
  if measuring_build switches "$sb" "sumlab tgpu_twins tsuperacc_gpu trows_gpu" \
       -DSUMLAB_TICKET_ACQ_REL=ON -DSUMLAB_LSE_ACCF_TILE=ON -DSUMLAB_LSE_REP1_BINS=ON \
       -DSUMLAB_LSE_REP1_FOLDS_F32=ON; then
    nt sacc 300 "$sb/tests/tsuperacc_gpu" &
    nt rows 420 "$sb/tests/trows_gpu" &
    for d in f32 f64 f16 bf16; do
      nt "twins_$d" 420 env SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=$d "$sb/tests/tgpu_twins" &
    done
    wait
    # ab NAME CAP DTYPES COLUMN BENCH_ARGS...: the default build and this one alternated (2 rounds),
    # the table by COLUMN in NAME.log
    # (SWITCHES_AB: the names of the runs to make, space-separated; default all four)
    ab() { local name=$1 cap=$2 dts=$3 col=$4; shift 4
           case " ${SWITCHES_AB:-$name} " in *" $name "*) ;; *) return 0;; esac
           nt "$name" "$cap" env BENCH_AB_DTYPES="$dts" BENCH_AB_RATIO="$col" bash experiments/bench_ab.sh \
             "$sumlab" "$sb/experiments/sumlab" "$B/$name" 2 -- "$@"; }
    ab ab_small 300 "f32 f64" ratio_cub --n 2^20,2^24 --reps 20 --variants vec4,reproducible,superacc,cub
    ab ab_lse 240 f32 ratio_cub --op lse --n 2^20,2^24,2^28 --reps 20 --dataset logits --variants online,reproducible
    ab ab_lse16 270 "bf16 f16" ratio_read --op lse --n 2^20,2^24,2^28 --reps 20 --dataset logits \
      --variants accurate,online,reproducible
    ab ab_lse_rows 200 "bf16 f16 f32" ratio_read --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --op lse \
      --reps 20 --variants reproducible
  fi
fi
if [[ $stages == *,why,* ]]; then
  # Nsight Compute on the kernels that miss issue 34's and 35's targets (experiments/ncu_why.sh:
  # time, DRAM, instructions a value, issue slots, occupancy, stalls; 18 cases, about 4-6 min):
  # $work/why/why.md; NCU_WHY_CASES (space-separated case names) profiles some of them
  B=$work/why; mkdir -p "$B"
  read -ra why_cases <<< "${NCU_WHY_CASES:-}"
  wcap=$(capped 480)
  timeout "$wcap" env NCU_WHY_SECONDS=$(( wcap > 90 ? wcap - 60 : 1 )) bash experiments/ncu_why.sh "$sumlab" "$B" \
    "${why_cases[@]}" > "$B/why.log" 2>&1
  stamp "why (Nsight Compute) rc=$?: $(grep -c '^| [^ ]* | `' "$B/why.md" 2>/dev/null || echo 0) launches in why/why.md"
fi
if [[ $stages == *,targets,* ]]; then
  # the open issues' performance targets (experiments/targets.py: 38 bench commands, 4 GiB inputs
  # among them, and two bench_moments.py runs against PyTorch; about 7-9 min on one GPU), each
  # judged against its threshold: $work/targets/targets.md; TARGETS_ONLY (issue numbers,
  # comma-separated) runs some of them; TARGETS_BASELINE (the folder of an earlier run, e.g.
  # experiments/measured/h200-8bae67b-targets) compares the two: $work/targets/compare.md
  B=$work/targets; mkdir -p "$B"
  only=(); [ -n "${TARGETS_ONLY:-}" ] && only=(--only "$TARGETS_ONLY")
  pyp=(); [ -d "$build/python/sumlab" ] && pyp=(--pythonpath "$build/python")
  tcap=$(capped 900)
  timeout "$tcap" python3 experiments/targets.py run --sumlab "$sumlab" --out "$B" "${only[@]}" "${pyp[@]}" \
    --seconds "$(( tcap > 60 ? tcap - 60 : 1 ))" > "$B/targets.md" 2> "$B/targets.log"
  stamp "targets rc=$?: $(grep -h 'issue [0-9]*:' "$B/targets.log" | tr '\n' ' ')"
  if [ -n "${TARGETS_BASELINE:-}" ]; then
    if [ -d "$TARGETS_BASELINE" ]; then
      python3 experiments/targets.py compare "$TARGETS_BASELINE" "$B" "${only[@]}" > "$B/compare.md" 2> "$B/compare.log"
      stamp "targets against the baseline rc=$?: $(grep -h 'issue [0-9]*:' "$B/compare.log" | tr '\n' ' ')"
    else
      stamp "targets: TARGETS_BASELINE is not a folder, no comparison"
    fi
  fi
fi
if [[ $stages == *,dotrows,* ]]; then
  # dot's row kernels (reproducible: a warp or a block a row, rows/rows.h's two-input entry; correct
  # by the 1-D launcher on each pair in the default build): their tests against the twins first
  # (trows_gpu's dot parts: SUMLAB_TEST_ROWS=dot), then the rows of 4096 x 32768 and 32768 x 4096
  # pairs against the read ceiling of both arrays (and as X @ w: --vector), beside naive (the 1-D
  # launcher on each pair), float32, bfloat16 and float64; then the build with
  # SUMLAB_DOT_CORRECT_ROWS (correct's row
  # kernel, its exact pass on the rows its first pass lists: kernels/README.md), the same test and
  # correct's rows benchmarked there: $work/dotrows/
  B=$work/dotrows; mkdir -p "$B"
  nt trows_gpu_dot 180 env SUMLAB_TEST_ROWS=dot "$T/trows_gpu"
  for d in f32 bf16 f64; do
    rb "dot_rows_$d" --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --op dot \
      --variants reproducible,correct,naive
    # X @ w: one row of y with every row (--vector), the read of x alone
    rb "dot_vec_$d" --axis -1 --rows 4096,32768 --n 32768,4096 --pairs --dtype "$d" --op dot --vector \
      --variants reproducible,naive
  done
  dc=${build}-dotcorrect
  if measuring_build dotcorrect "$dc" "sumlab trows_gpu" -DSUMLAB_DOT_CORRECT_ROWS=ON; then
    nt trows_gpu_dot_correct 180 env SUMLAB_TEST_ROWS=dot "$dc/tests/trows_gpu"
    for d in f32 bf16 f64; do
      timeout "$(capped 120)" "$dc/experiments/sumlab" bench --reps 10 --axis -1 --rows 4096,32768 --n 32768,4096 \
        --pairs --dtype "$d" --op dot --variants correct,reproducible > "$B/dot_rows_correct_$d.csv" 2> "$B/dot_rows_correct_$d.err"
      stamp "bench dot_rows_correct_$d (SUMLAB_DOT_CORRECT_ROWS) rc=$?"
    done
  fi
fi
if [[ $stages == *,study,* ]]; then
  # STUDY_OP: the operation whose study runs (sum, the default, or any of `sumlab list ops`:
  # `run all --op OP`, torch's call for it, into results/gpu-study-OP); STUDY_DIR: another folder
  op=${STUDY_OP:-sum}
  if ! [[ $op =~ ^[a-z][a-z0-9]{0,15}$ ]]; then
    stamp "study: STUDY_OP is no operation name (lower-case letters and digits): not run"
    op=
  fi
fi
if [[ $stages == *,study,* && -n $op ]]; then
  opargs=(); [ "$op" != sum ] && opargs=(--op "$op")
  dir=${STUDY_DIR:-$root/results/gpu-study${opargs:+-$op}}
  extra=(); [ -f "$dir/run.conf" ] && extra=(--resume)
  # the operation's PyTorch call (torch.sum) at throughput-vs-n's sizes and formats, timed as the
  # study times its GPU rows, before the study so that throughput-vs-n joins it (RUN/throughput_torch.csv:
  # the torch.sum series of the throughput charts and tables); settings from RUN/run.conf on a resume,
  # else the study's defaults (sum, full preset); kept when there from an earlier pass; 77: no PyTorch/CUDA
  if [ ! -f "$dir/throughput_torch.csv" ]; then
    timeout "$(capped 200)" env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 experiments/anchors/throughput_torch.py \
      "$dir" "${opargs[@]}" > "$work/throughput_torch.log" 2>&1
    stamp "throughput_torch.py rc=$?"
  fi
  # the sum's study: PyTorch's rows of the batch-invariance experiment (batch_torch.py: torch.sum,
  # var, logsumexp, vector_norm, x.pow(2).mean and torch.matmul(X[:B], w)), joined by the study
  if [ "$op" = sum ] && [ ! -f "$dir/batch_torch.csv" ]; then
    mkdir -p "$dir"
    timeout "$(capped 150)" env PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" python3 experiments/anchors/batch_torch.py \
      -o "$dir/batch_torch.csv" > "$work/batch_torch.log" 2>&1
    stamp "batch_torch.py rc=$?"
  fi
  s0=$(date +%s)
  # where the measuring time goes, one line per input (step.c's job log: upload, GPU runs, checks)
  SUMLAB_JOB_LOG=$work/study_jobs.csv SUMLAB_NO_CHARTS=1 timeout -s TERM "$(capped "${STUDY_SECONDS:-300}")" "$sumlab" run all --backend gpu --preset full \
    --threads "$(nproc)" "${opargs[@]}" -o "$dir" "${extra[@]}" > "$work/study.log" 2>&1
  stamp "study rc=$? in $(( $(date +%s) - s0 )) s (124/143: time cap reached; rerun with the study stage to resume)"
  grep "seconds by phase\|rows written" "$work/study.log" | tee -a "$out/summary.txt"
  # what users run instead, repeated (torch CPU/CUDA with deterministic algorithms off and on,
  # CuPy, JAX with and without x64, NumPy): RUN/anchors/anchors.csv for the report (the sum's)
  if [ "$op" = sum ]; then
    timeout "$(capped "${ANCHORS_SECONDS:-240}")" python3 experiments/anchors/study_anchors.py "$dir" --sumlab "$sumlab" \
      --reps 20 > "$work/study_anchors.log" 2>&1
    stamp "study_anchors.py rc=$?"
  fi
  tar -C "$(dirname "$dir")" -czf "$work/$(basename "$dir").tar.gz" "$(basename "$dir")"
fi

#!/usr/bin/env bash
# tgpu_session_deadline.sh: tests/gpu_session.sh under SESSION_SECONDS (no GPU needed). Every test
# process of its test stage is a stub that sleeps past the deadline, in a build folder made for it;
# each one must be stopped by its cap cut to the time left, write its exit status (124) to rc.txt,
# and the stage must end in its summary line, within a few seconds of the deadline, where a call's
# own limit would have killed them unrecorded. Without the deadline a stub that ends at once passes.
# The targets stage on a stub sumlab writes its judgement, hands bench_moments.py the package and
# compares with TARGETS_BASELINE;
# the occupancy stage asks for the launches it names; the parts stage builds and runs what it says.
#   usage: tgpu_session_deadline.sh [SOURCE_DIR]
set -uo pipefail
src=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
w=$(mktemp -d "${TMPDIR:-/tmp}/tgpu_session.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
fails=0 passes=0
check() { local what=$1; shift
          if "$@"; then passes=$((passes + 1)); else echo "FAIL: $what" >&2; fails=$((fails + 1)); fi; }

# a build folder whose programs are stubs: SLEEP seconds, then exit 0 (the gpu tests' binaries,
# sumlab, and ctest's test folder for the bench_gpu step)
stub_build() {
  local b=$1 sleep=$2 t
  mkdir -p "$b/tests" "$b/experiments"
  for t in tgpu_twins tsuperacc_gpu tgpu_prefix tgpu_limits tgpu_determinism tlib_gpu tgpu_huge tnorm_gpu \
           tdot_gpu trows_gpu tdot_cert_gpu tnorm_cert_gpu tmoments_exact_gpu tgpu_launch; do
    printf '#!/bin/sh\nexec sleep %s\n' "$sleep" > "$b/tests/$t"
    chmod +x "$b/tests/$t"
  done
  printf '#!/bin/sh\nexec sleep %s\n' "$sleep" > "$b/experiments/sumlab"
  chmod +x "$b/experiments/sumlab"
}

# 1. stubs sleeping 60 s under a 3 s deadline
stub_build "$w/slow" 60
s0=$(date +%s)
OUT=$w/out1 SUMLAB_BUILD_DIR=$w/slow SESSION_SECONDS=3 SUMLAB_GIT_SHA=0000000 \
  timeout 40 bash "$src/tests/gpu_session.sh" test > "$w/log1" 2>&1
rc=$?
took=$(( $(date +%s) - s0 ))
rcf=$w/out1/session/tests/rc.txt
check "the deadlined pass ends by itself (exit $rc)" test "$rc" -ne 124
check "the deadlined pass ends within 20 s of a 3 s deadline (took $took s)" test "$took" -le 20
# the stubbed processes: 12 twins (3 a format), 13 other test binaries, tgpu_threads.sh on the stub sumlab
procs='(twins_[a-z0-9_]+|sacc|prefix|limits|determinism|lib_gpu|huge|norm_gpu|dot_gpu|rows_gpu|dot_cert_gpu|norm_cert_gpu|moments_exact_gpu|launch_gpu'
nstub=$(grep -c -E "^$procs|gpu_threads) rc=" "$rcf" 2>/dev/null)
check "every stubbed process wrote its status to rc.txt (26 expected, found ${nstub:-0})" test "${nstub:-0}" -eq 26
n124=$(grep -c -E "^$procs|gpu_threads) rc=124\$" "$rcf" 2>/dev/null)
check "each sleeping process was stopped by its cut cap (rc=124: 26 expected, found ${n124:-0})" test "${n124:-0}" -eq 26
check "the stage's summary line is written (gpu tests: N of M passed)" \
  grep -q "gpu tests: [0-9]* of [0-9]* passed" "$w/out1/summary.txt"
check "the session's tarball is packed" test -s "$w/out1/session.tar.gz"

# 2. the same stubs ending at once, a deadline far off: each process passes
stub_build "$w/fast" 0
OUT=$w/out2 SUMLAB_BUILD_DIR=$w/fast SESSION_SECONDS=600 SUMLAB_GIT_SHA=0000000 \
  timeout 60 bash "$src/tests/gpu_session.sh" test > "$w/log2" 2>&1
n0=$(grep -c -E "^$procs) rc=0\$" "$w/out2/session/tests/rc.txt" 2>/dev/null)
check "without the deadline's cut the stubs pass (rc=0: 25 expected, found ${n0:-0})" test "${n0:-0}" -eq 25

# 3. a deadline that is no number is ignored (the steps' own caps): the fast stubs pass as well
OUT=$w/out3 SUMLAB_BUILD_DIR=$w/fast SESSION_SECONDS=soon SUMLAB_GIT_SHA=0000000 \
  timeout 60 bash "$src/tests/gpu_session.sh" test > "$w/log3" 2>&1
n3=$(grep -c -E "^$procs) rc=0\$" "$w/out3/session/tests/rc.txt" 2>/dev/null)
check "SESSION_SECONDS=soon leaves the steps' own caps (rc=0: 25 expected, found ${n3:-0})" test "${n3:-0}" -eq 25

# 4. a deadline with a leading zero is the decimal number (bash would read 03 as octal, 09 as an error)
OUT=$w/out4 SUMLAB_BUILD_DIR=$w/slow SESSION_SECONDS=03 SUMLAB_GIT_SHA=0000000 \
  timeout 40 bash "$src/tests/gpu_session.sh" test > "$w/log4" 2>&1
n4=$(grep -c -E "^$procs|gpu_threads) rc=124\$" "$w/out4/session/tests/rc.txt" 2>/dev/null)
check "SESSION_SECONDS=03 is a 3 s deadline (rc=124: 26 expected, found ${n4:-0})" test "${n4:-0}" -eq 26

# 5. the targets stage on a stub sumlab (one fused row of float32 whatever it is asked) and a
# package folder: the judgement is written, bench_moments.py is handed the folder and, without
# PyTorch or a GPU, fails alone (its targets no data), and the stage's line names the counts
mkdir -p "$w/tg/experiments" "$w/tg/python/sumlab"
{ printf '#!/bin/sh\necho "# gpu_name: NVIDIA H200"\n'
  printf 'echo "variant,dtype,n,reps,time_ms_median,time_ms_min,time_ms_max,gbps,ratio_cub,ratio_read,distinct,result_hex,block,grid,items,cub_ms_median,read_ms_median,abs_err_max,bound_abs,check,dataset"\n'
  printf 'echo "fused,f32,268435456,10,0.25,0,0,0,0.99,0.98,1,0x1p+0,256,1,4,0,0,0,1,ok,normal"\n'; } > "$w/tg/experiments/sumlab"
chmod +x "$w/tg/experiments/sumlab"
# (TARGETS_BASELINE: an earlier run whose fused float32 row read 0.95 of the read: compared)
mkdir -p "$w/base5"
{ echo "# gpu_name: NVIDIA H200"
  echo "variant,dtype,n,reps,time_ms_median,time_ms_min,time_ms_max,gbps,ratio_cub,ratio_read,distinct,result_hex,block,grid,items,cub_ms_median,read_ms_median,abs_err_max,bound_abs,check,dataset"
  echo "fused,f32,268435456,10,0.25,0,0,0,0.96,0.95,1,0x1p+0,256,1,4,0,0,0,1,ok,normal"; } > "$w/base5/var_f32.csv"
OUT=$w/out5 SUMLAB_BUILD_DIR=$w/tg SESSION_SECONDS=100 TARGETS_ONLY=31 SUMLAB_GIT_SHA=0000000 \
  TARGETS_BASELINE=$w/base5 timeout 90 bash "$src/tests/gpu_session.sh" targets > "$w/log5" 2>&1
tgt=$w/out5/session/targets
check "targets: the judgement's table is written" grep -q '^| 31 | fused >= 0.97x the read | f32 | normal | 2^28 | 0.980 | \*\*met\*\* |$' "$tgt/targets.md"
check "targets: bench_moments.py ran with the package folder and its targets have no data" \
  grep -q '^| 31 | var correct >= 1.0x torch.var | bf16 | normal | 2^28 | - | no data |$' "$tgt/targets.md"
check "targets: bench_moments.py's command is logged with the package folder" \
  grep -q "^PYTHONPATH=$w/tg/python .*bench_moments.py --n 2^28" "$tgt/commands.txt"
check "targets: the stage's line names the counts" grep -q 'targets rc=0: targets.py: issue 31: 1 met' "$w/out5/summary.txt"
check "targets: compared with TARGETS_BASELINE, the fused row newly met" \
  grep -q '^| 31 | fused >= 0.97x the read | f32 | normal | 2^28 | 0.950 | 0.980 | +3.2 % | \*\*newly met\*\* |$' "$tgt/compare.md"
check "targets: the comparison's line names the counts" grep -q 'targets against the baseline rc=0: targets.py: issue 31: 1 newly met' "$w/out5/summary.txt"
OUT=$w/out5b SUMLAB_BUILD_DIR=$w/tg SESSION_SECONDS=100 TARGETS_ONLY=31 SUMLAB_GIT_SHA=0000000 \
  TARGETS_BASELINE=$w/none timeout 90 bash "$src/tests/gpu_session.sh" targets > "$w/log5b" 2>&1
check "targets: a TARGETS_BASELINE that is no folder is said, the judgement still written" \
  sh -c "grep -q 'TARGETS_BASELINE is not a folder' '$w/out5b/summary.txt' && test -s '$w/out5b/session/targets/targets.md' && test ! -e '$w/out5b/session/targets/compare.md'"

# 6. the occupancy stage on a stub sumlab that echoes its arguments: each variant's own launch and
# blocks of 256 at 4, 6 and 8 blocks on each of SMS SMs (132 when SMS is no number)
mkdir -p "$w/oc/experiments"
printf '#!/bin/sh\necho "$@"\n' > "$w/oc/experiments/sumlab"
chmod +x "$w/oc/experiments/sumlab"
OUT=$w/out6 SUMLAB_BUILD_DIR=$w/oc SMS='1;x' SUMLAB_GIT_SHA=0000000 \
  timeout 60 bash "$src/tests/gpu_session.sh" occupancy > "$w/log6" 2>&1
oc=$w/out6/session/occupancy
check "occupancy: 16 benchmarks (found $(ls "$oc" 2>/dev/null | grep -c '\.csv$'))" test "$(ls "$oc" 2>/dev/null | grep -c '\.csv$')" -eq 16
check "occupancy: the variants' own launch asks for none" bash -c "! grep -q -- --grid '$oc/lse_bf16_own.csv'"
check "occupancy: 6 blocks of 256 on 132 SMs (SMS no number)" grep -q -- '--op lse .*--block 256 --grid 792$' "$oc/lse_bf16_6.csv"
check "occupancy: 8 blocks on 132 SMs for the sum" grep -q -- '--variants fp64-acc,reproducible --block 256 --grid 1056$' "$oc/sum_bf16_8.csv"

# 7. the parts stage with a cmake on PATH that records its arguments and, asked to build, makes
# stub programs (a sumlab and a tgpu_twins that log how they were called): the measuring build is
# configured with SUMLAB_RSUM_PARTS=ON and only its sumlab and tgpu_twins built, the sum twins run
# on it in four formats, and both builds are timed by bench_ab.sh on reproducible; a build that
# fails is said and nothing runs on it
mkdir -p "$w/fake" "$w/pa/experiments"
cat > "$w/fake/cmake" <<'STUB'
#!/bin/sh
echo "cmake $*" >> "$PARTS_LOG"
[ "$1" = --build ] || exit 0
[ -n "${FAIL_BUILD:-}" ] && exit 1
mkdir -p "$2/experiments" "$2/tests"
printf '#!/bin/sh\necho "parts-sumlab $*" >> "$PARTS_LOG"\n' > "$2/experiments/sumlab"
printf '#!/bin/sh\necho "twins $SUMLAB_TEST_DTYPE $SUMLAB_TEST_OPS $SUMLAB_TEST_QUICK" >> "$PARTS_LOG"\n' > "$2/tests/tgpu_twins"
chmod +x "$2/experiments/sumlab" "$2/tests/tgpu_twins"
STUB
chmod +x "$w/fake/cmake"
printf '#!/bin/sh\necho "default-sumlab $*" >> "$PARTS_LOG"\n' > "$w/pa/experiments/sumlab"
chmod +x "$w/pa/experiments/sumlab"
PATH=$w/fake:$PATH PARTS_LOG=$w/parts.log OUT=$w/out7 SUMLAB_BUILD_DIR=$w/pa PARTS_BUILD_DIR=$w/pa-parts \
  SUMLAB_GIT_SHA=0000000 timeout 90 bash "$src/tests/gpu_session.sh" parts > "$w/log7" 2>&1
check "parts: configured with SUMLAB_RSUM_PARTS=ON in PARTS_BUILD_DIR" \
  grep -q -- "^cmake -S \. -B $w/pa-parts .*-DSUMLAB_RSUM_PARTS=ON" "$w/parts.log"
check "parts: only sumlab and tgpu_twins built" grep -q -- "^cmake --build $w/pa-parts .*--target sumlab tgpu_twins$" "$w/parts.log"
check "parts: the sum twins on the measuring build, quick, in four formats (found $(grep -c '^twins .* sum 1$' "$w/parts.log"))" \
  test "$(grep -c '^twins .* sum 1$' "$w/parts.log")" -eq 4
check "parts: both builds timed on reproducible at 2^20 .. 2^28 (found $(grep -c -- '--n 2^20,2^22,2^24,2^28 --reps 20 --variants reproducible,cub$' "$w/parts.log"))" \
  test "$(grep -c -- '--n 2^20,2^22,2^24,2^28 --reps 20 --variants reproducible,cub$' "$w/parts.log")" -eq 16
check "parts: A is the default build, B the measuring one" \
  sh -c "grep -q '^default-sumlab bench --dtype f32 ' '$w/parts.log' && grep -q '^parts-sumlab bench --dtype f32 ' '$w/parts.log'"
check "parts: the stage's lines" sh -c "grep -q 'parts: built in' '$w/out7/summary.txt' && grep -q 'ab rc=' '$w/out7/summary.txt'"
rm -rf "$w/pa-parts"
: > "$w/parts2.log"
PATH=$w/fake:$PATH PARTS_LOG=$w/parts2.log FAIL_BUILD=1 OUT=$w/out7b SUMLAB_BUILD_DIR=$w/pa PARTS_BUILD_DIR=$w/pa-parts \
  SUMLAB_GIT_SHA=0000000 timeout 60 bash "$src/tests/gpu_session.sh" parts > "$w/log7b" 2>&1
check "parts: a failed build is said and nothing runs on it" \
  sh -c "grep -q 'the measuring build failed' '$w/out7b/summary.txt' && ! grep -q -e '^twins' -e 'sumlab bench' '$w/parts2.log'"

# 8. the switches stage with the same stub cmake (its build also makes tsuperacc_gpu and trows_gpu
# stubs): the measuring build configured with the three switches ON, the correctness tests run on
# it, and both builds timed by bench_ab.sh, the var rows by their read ratio
cat > "$w/fake/cmake" <<'STUB'
#!/bin/sh
echo "cmake $*" >> "$PARTS_LOG"
[ "$1" = --build ] || exit 0
mkdir -p "$2/experiments" "$2/tests"
printf '#!/bin/sh\necho "sw-sumlab $*" >> "$PARTS_LOG"\n' > "$2/experiments/sumlab"
printf '#!/bin/sh\necho "twins $SUMLAB_TEST_DTYPE $SUMLAB_TEST_QUICK" >> "$PARTS_LOG"\n' > "$2/tests/tgpu_twins"
printf '#!/bin/sh\necho "test $0" >> "$PARTS_LOG"\n' > "$2/tests/tsuperacc_gpu"
cp "$2/tests/tsuperacc_gpu" "$2/tests/trows_gpu"
chmod +x "$2/experiments/sumlab" "$2/tests/"*
STUB
chmod +x "$w/fake/cmake"
: > "$w/sw.log"
PATH=$w/fake:$PATH PARTS_LOG=$w/sw.log OUT=$w/out8 SUMLAB_BUILD_DIR=$w/pa SWITCHES_BUILD_DIR=$w/pa-sw \
  SUMLAB_GIT_SHA=0000000 timeout 120 bash "$src/tests/gpu_session.sh" switches > "$w/log8" 2>&1
check "switches: configured with SUMLAB_TICKET_ACQ_REL, SUMLAB_LSE_ACCF_TILE, SUMLAB_LSE_REP1_BINS and SUMLAB_LSE_REP1_FOLDS_F32 ON in SWITCHES_BUILD_DIR" \
  grep -q -- "^cmake -S \. -B $w/pa-sw .*-DSUMLAB_TICKET_ACQ_REL=ON -DSUMLAB_LSE_ACCF_TILE=ON -DSUMLAB_LSE_REP1_BINS=ON -DSUMLAB_LSE_REP1_FOLDS_F32=ON" "$w/sw.log"
l16='--op lse --n 2^20,2^24,2^28 --reps 20 --dataset logits --variants accurate,online,reproducible'
check "switches: 16-bit lse at 2^20, 2^24 and 2^28 timed by both builds in two formats, 2 rounds (found $(grep -c -- "$l16" "$w/sw.log"))" \
  test "$(grep -c -- "$l16" "$w/sw.log")" -eq 8
l32='--op lse --n 2^20,2^24,2^28 --reps 20 --dataset logits --variants online,reproducible'
check "switches: float32 lse at 2^20, 2^24 and 2^28 timed by both builds, 2 rounds (found $(grep -c -- "$l32" "$w/sw.log"))" \
  test "$(grep -c -- "$l32" "$w/sw.log")" -eq 4
check "switches: tsuperacc_gpu and trows_gpu on the measuring build" \
  sh -c "grep -q '^test $w/pa-sw/tests/tsuperacc_gpu' '$w/sw.log' && grep -q '^test $w/pa-sw/tests/trows_gpu' '$w/sw.log'"
check "switches: the quick twins in four formats (found $(grep -c '^twins .* 1$' "$w/sw.log"))" \
  test "$(grep -c '^twins .* 1$' "$w/sw.log")" -eq 4
check "switches: no run of a switch made default (the fused statistics, var rows)" \
  sh -c "! grep -q -- '--variants fused' '$w/sw.log' && ! grep -q -- '--op var' '$w/sw.log'"
check "switches: lse rows (bf16, f16, f32) timed by both builds, 2 rounds (found $(grep -c -- '--axis -1 --rows 4096,32768 --n 32768,4096 --pairs --op lse' "$w/sw.log"))" \
  test "$(grep -c -- '--axis -1 --rows 4096,32768 --n 32768,4096 --pairs --op lse' "$w/sw.log")" -eq 12
check "switches: float32/float64 sums at 2^20 and 2^24 timed by both builds, 2 rounds (found $(grep -c -- '--n 2^20,2^24 --reps 20 --variants vec4,reproducible,superacc,cub' "$w/sw.log"))" \
  test "$(grep -c -- '--n 2^20,2^24 --reps 20 --variants vec4,reproducible,superacc,cub' "$w/sw.log")" -eq 8
: > "$w/sw2.log"
PATH=$w/fake:$PATH PARTS_LOG=$w/sw2.log OUT=$w/out8b SUMLAB_BUILD_DIR=$w/pa SWITCHES_BUILD_DIR=$w/pa-sw \
  SWITCHES_AB="ab_lse" SUMLAB_GIT_SHA=0000000 timeout 120 bash "$src/tests/gpu_session.sh" switches > "$w/log8b" 2>&1
check "switches: SWITCHES_AB makes only the runs it names" \
  sh -c "grep -q -- '--op lse' '$w/sw2.log' && ! grep -q -- '--variants vec4,reproducible' '$w/sw2.log' && ! grep -q -- '--axis -1' '$w/sw2.log'"
check "switches: the lse table by ratio_cub" grep -q '^dtype,rows,n,variant,ratio_cub_A' "$w/out8/session/switches/ab_lse.log"

# 9. bench_ab.sh's table from its runs' CSV: 1-D rows by ratio_cub, row-wise ones (keyed by rows
# too) by the column BENCH_AB_RATIO names; medians over the rounds
mkdir -p "$w/ab9"
cat > "$w/ab9/a" <<'STUB'
#!/bin/sh
echo "# a comment line"
echo "variant,dtype,n,ratio_cub,rows,ratio_read"
echo "superacc,f16,1024,0.5,,0.4"
echo "correct,f16,4096,,32768,0.6"
echo "correct,f16,4096,,16,0.2"
STUB
sed 's/0\.5,,0\.4/1.0,,0.8/; s/,32768,0\.6/,32768,0.9/' "$w/ab9/a" > "$w/ab9/b"
chmod +x "$w/ab9/a" "$w/ab9/b"
BENCH_AB_DTYPES=f16 bash "$src/experiments/bench_ab.sh" "$w/ab9/a" "$w/ab9/b" "$w/ab9/o" 2 > "$w/ab9/cub.txt" 2>&1
BENCH_AB_DTYPES=f16 BENCH_AB_RATIO=ratio_read bash "$src/experiments/bench_ab.sh" "$w/ab9/a" "$w/ab9/b" "$w/ab9/o2" 2 > "$w/ab9/read.txt" 2>&1
check "bench_ab: 1-D row by ratio_cub, B twice A" grep -qx 'f16,,1024,superacc,0.5000,1.0000,2.0000,2' "$w/ab9/cub.txt"
check "bench_ab: the row-wise runs keyed by rows, by ratio_read" \
  sh -c "grep -qx 'f16,32768,4096,correct,0.6000,0.9000,1.5000,2' '$w/ab9/read.txt' && grep -qx 'f16,16,4096,correct,0.2000,0.2000,1.0000,2' '$w/ab9/read.txt'"

# 10. the study stage for another operation (STUDY_OP, STUDY_DIR): sumlab (a stub that logs its
# arguments) runs `run all ... --op lse` into STUDY_DIR, the sum's anchors are not run, the folder is
# packed; a STUDY_OP that is no name is refused before anything runs
mkdir -p "$w/st/experiments"
printf '#!/bin/sh\necho "$*" >> "%s"\nmkdir -p "%s"\n' "$w/st.log" "$w/st-lse" > "$w/st/experiments/sumlab"
chmod +x "$w/st/experiments/sumlab"
STUDY_OP=lse STUDY_DIR=$w/st-lse OUT=$w/out10 SUMLAB_BUILD_DIR=$w/st SUMLAB_GIT_SHA=0000000 SESSION_SECONDS=60 \
  timeout 90 bash "$src/tests/gpu_session.sh" study > "$w/log10" 2>&1
check "study: STUDY_OP=lse runs sumlab run all --op lse into STUDY_DIR" \
  grep -q -- "^run all --backend gpu --preset full --threads [0-9]* --op lse -o $w/st-lse\$" "$w/st.log"
check "study: the sum's framework anchors are not run for lse" test ! -e "$w/out10/session/study_anchors.log"
check "study: STUDY_DIR packed as its own name" test -s "$w/out10/session/st-lse.tar.gz"
: > "$w/st.log"
STUDY_OP='lse;touch x' OUT=$w/out11 SUMLAB_BUILD_DIR=$w/st SUMLAB_GIT_SHA=0000000 \
  timeout 60 bash "$src/tests/gpu_session.sh" study > "$w/log11" 2>&1
check "study: a STUDY_OP that is no name is refused, nothing run" \
  sh -c "grep -q 'STUDY_OP is no operation name' '$w/out11/summary.txt' && test ! -s '$w/st.log'"

[ "$fails" -eq 0 ] || { echo "--- pass 1 log:" >&2; cat "$w/log1" "$rcf" >&2; }
echo "tgpu_session_deadline: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# one H200 call at 0cc3d79 (run as SHA=0cc3d79 STUDY=150 bash commands.sh): build, the new code's
# GPU checks (all passed: tmoments_exact_gpu, tgpu_twins var/std quick, tgpu_launch quick 3,072
# points, tdot/tnorm_cert_gpu, tgpu_threads), then the full study under a 150 s cap. The study
# measured and wrote all 88,960 rows (study_jobs.csv.gz: its last input ended 147.4 s after the
# first began) and was stopped by the cap while writing its report; report.md and ladder.csv were
# then written from these files by `sumlab run --report-only` on a CPU machine (same commit).
set -u
export CMAKE_PREFIX_PATH=$PWD/.deps/usr SUMLAB_GIT_SHA=${SHA:?}
bash tests/gpu_session.sh build
build=build-gpu; T=$build/tests; S=$build/experiments/sumlab; W=$OUT/session/after; mkdir -p $W
t() { local n=$1 c=$2; shift 2; timeout $c "$@" > $W/$n.log 2>&1; echo "$n rc=$?" >> $W/rc.txt; }
t mx_exact 60 $T/tmoments_exact_gpu &
{ SUMLAB_TEST_QUICK=1 SUMLAB_TEST_OPS=var,std SUMLAB_TEST_DTYPE=f32 t twins_var 60 $T/tgpu_twins; } &
{ SUMLAB_TEST_QUICK=1 t launch 60 $T/tgpu_launch; } &
{ t dot_cert 30 $T/tdot_cert_gpu; t norm_cert 30 $T/tnorm_cert_gpu; } &
t gpu_threads 60 bash tests/tgpu_threads.sh $S &
wait
timeout 20 $S bench --op var --n 2^28 --dtype f32 --reps 10 --variants correct,cub --dataset normal --param mean=1e6 > $W/bench_var_f32_1e6.csv 2>&1
cat $W/rc.txt; cat $W/bench_var_f32_1e6.csv | cut -c1-200 | tail -4
STUDY_SECONDS=${STUDY:-140} ANCHORS_SECONDS=1 bash tests/gpu_session.sh study
tar -C $OUT -czf $OUT/all.tgz session summary.txt

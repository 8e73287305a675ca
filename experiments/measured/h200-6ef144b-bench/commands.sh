#!/usr/bin/env bash
# issue 35's measurement: build, then sumlab bench on five families in four formats (each row
# paired run by run with CUB in the same process), 2^30 float32 / 2^29 float64, then the GPU tests
set -u
export CMAKE_PREFIX_PATH=$PWD/../.deps/usr SUMLAB_GIT_SHA=$(cat .sha)
t0=$(date +%s)
bash tests/gpu_session.sh build > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
cp $OUT/session/env.txt $OUT/env.txt 2>/dev/null
echo "built $(( $(date +%s) - t0 ))s"
S=build-gpu/experiments/sumlab
mkdir -p $OUT/raw
fam() { # family dtype -> bench options
  case $1 in
    uniform) echo "--dataset uniform";;
    normal) echo "--dataset normal";;
    ill) [ $2 = f16 ] && echo "--dataset ill-conditioned --param cond=1e3" || echo "--dataset ill-conditioned --param cond=1e16";;
    sub) echo "--dataset subnormal";;
    wide) case $2 in f64) e=1013;; f16) e=2;; *) e=116;; esac
          echo "--dataset log-uniform --param emin=-1100 --param emax=$e --param subnormals=1";;
  esac
}
for dt in f32 f64 bf16 f16; do
  for f in uniform normal ill sub wide; do
    V=reproducible,superacc,cub
    case $dt in bf16|f16) V=$V,cub-f32acc;; esac
    if [ $f = uniform ]; then V=$V,vec4,kahan; [ $dt != f64 ] && V=$V,fp64-acc; fi
    $S bench --n 2^20,2^24,2^28 --dtype $dt --variants $V --reps 20 $(fam $f $dt) > $OUT/raw/${dt}_$f.csv 2> $OUT/raw/${dt}_$f.err
    echo "$dt $f rc=$? $(( $(date +%s) - t0 ))s"
  done
done
$S bench --n 2^30 --dtype f32 --variants reproducible,superacc,cub,kahan,fp64-acc --reps 20 > $OUT/raw/f32_uniform_2e30.csv 2> $OUT/raw/f32_uniform_2e30.err; echo "f32 2^30 rc=$?"
$S bench --n 2^29 --dtype f64 --variants reproducible,superacc,cub,kahan --reps 20 > $OUT/raw/f64_uniform_2e29.csv 2> $OUT/raw/f64_uniform_2e29.err; echo "f64 2^29 rc=$? $(( $(date +%s) - t0 ))s"
{ grep -h -m1 '^variant,' $OUT/raw/f32_uniform.csv; for c in $OUT/raw/*.csv; do grep -v '^#' $c | grep -v '^variant,'; done; } > $OUT/bench.csv
awk -F, 'NR>1{printf "%-12s %-5s %-16s n=%-10s r=%-7s %s\n",$1,$2,$21,$3,$9,$20}' $OUT/bench.csv
T=build-gpu/tests
L=$OUT/tests; mkdir -p $L
t() { local name=$1; shift; timeout 170 "$@" > $L/$name.log 2>&1; echo "$name rc=$?: $(tail -1 $L/$name.log)"; }
for d in f32 f16 bf16; do SUMLAB_TEST_DTYPE=$d SUMLAB_TEST_OPS=sum t twins_$d $T/tgpu_twins & done
SUMLAB_TEST_QUICK=1 SUMLAB_TEST_DTYPE=f64 SUMLAB_TEST_OPS=sum t twins_f64_quick $T/tgpu_twins &
t tsuperacc_gpu $T/tsuperacc_gpu &
SUMLAB_TEST_QUICK=1 t tgpu_determinism_quick $T/tgpu_determinism &
t tbench_gpu bash tests/tbench_gpu.sh $S &
wait
echo "total $(( $(date +%s) - t0 ))s"

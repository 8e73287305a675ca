#!/usr/bin/env bash
# sacc_probe.sh: the superacc/reproducible benchmark probe on a GPU machine (build, the superacc
# gpu test, bench on the four families, f32 and f64, a few launch shapes); everything
# in $OUT/probe.tar.gz. usage: bash tests/sacc_probe.sh [DTYPES] [FAMILIES] [VARIANTS]
set -uo pipefail
out=${OUT:-gpu-out}; mkdir -p "$out"; w=$(mktemp -d)
export CMAKE_PREFIX_PATH=$PWD/.deps/usr
OUT=$w bash tests/gpu_session.sh build || { tail -30 "$w/build.log"; exit 1; }
s=build-gpu/experiments/sumlab
(cd build-gpu && timeout 200 ctest --output-on-failure -R "tsuperacc_gpu|treproducible") > "$w/ctest_sacc.log" 2>&1; echo "ctest rc=$?"; grep -E "tests passed|FAIL|Failed|!=" "$w/ctest_sacc.log" | head -20
C=$(dirname "$(command -v nvcc)")
for o in $(find build-gpu -name 'superacc*.cu.o'); do b=$(basename "$o" .cu.o)   # one object per format
  "$C/cuobjdump" -sass "$o" > "$w/$b.sass" 2>&1; "$C/cuobjdump" -res-usage "$o" > "$w/$b.res" 2>&1; done
fam() { case $1 in uniform) echo "--dataset uniform";; full) echo "--dataset log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1";;
        ill) echo "--dataset ill-conditioned --param cond=1e16";; sub) echo "--dataset subnormal";; esac; }
for dt in ${1:-f32 f64}; do for f in ${2:-uniform full ill sub}; do
  timeout 60 $s bench --n 2^24,2^28 --dtype $dt --reps 10 --variants ${3:-superacc,reproducible,cub} $(fam $f) > "$w/b_${dt}_$f.csv" 2> "$w/b_${dt}_$f.err"
  echo "$dt $f rc=$?"; awk -F, '!/^#/ && $1!="variant"{printf "  %-16s n=%-10s ms=%s ratio_cub=%s\n",$1,$3,$5,$9}' "$w/b_${dt}_$f.csv"
done; done
for cfg in ${CFGS:-}; do b=${cfg%x*}; g=${cfg#*x}
  timeout 40 $s bench --n 2^28 --dtype f32 --reps 10 --variants superacc,cub --block $b --grid $g > "$w/cfg_$cfg.csv" 2>&1
  echo "cfg block $b grid $g:"; awk -F, '!/^#/ && $1!="variant" && NF>5{printf "  %-16s ms=%s ratio_cub=%s\n",$1,$5,$9}' "$w/cfg_$cfg.csv"
done
tar -C "$w" -czf "$out/probe.tar.gz" .

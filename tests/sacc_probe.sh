#!/usr/bin/env bash
# sacc_probe.sh: the superacc/reproducible benchmark probe on a GPU machine (build, the superacc
# gpu test, bench on the four families, f32 and f64, a few launch shapes); output in $OUT.
set -uo pipefail
out=${OUT:-gpu-out}; mkdir -p "$out"
export CMAKE_PREFIX_PATH=$PWD/.deps/usr
bash tests/gpu_session.sh build || { cat "$out/build.log" | tail -30; exit 1; }
s=build-gpu/experiments/sumlab
(cd build-gpu && timeout 200 ctest --output-on-failure -R "tsuperacc_gpu|treproducible") > "$out/ctest_sacc.log" 2>&1; echo "ctest rc=$?"; tail -5 "$out/ctest_sacc.log"
fam() { case $1 in uniform) echo "--dataset uniform";; full) echo "--dataset log-uniform --param emin=-1100 --param emax=1100 --param subnormals=1";;
        ill) echo "--dataset ill-conditioned --param cond=1e16";; sub) echo "--dataset subnormal";; esac; }
for dt in f32 f64; do for f in uniform full ill sub; do
  timeout 60 $s bench --n 2^24,2^28 --dtype $dt --reps 10 --variants superacc,reproducible,cub-gpu-to-gpu,cub $(fam $f) > "$out/b_${dt}_$f.csv" 2> "$out/b_${dt}_$f.err"
  echo "$dt $f rc=$?"; awk -F, '!/^#/ && $1!="variant"{printf "  %-16s n=%-10s ms=%s ratio_cub=%s\n",$1,$3,$5,$9}' "$out/b_${dt}_$f.csv"
done; done
for cfg in "256 528" "512 396" "256 1056" "1024 132"; do set -- $cfg
  timeout 40 $s bench --n 2^28 --dtype f32 --reps 10 --variants superacc,cub --block $1 --grid $2 > "$out/cfg_$1_$2.csv" 2>&1
  echo "cfg block $1 grid $2:"; awk -F, '!/^#/ && $1!="variant"{printf "  %-16s ms=%s ratio_cub=%s\n",$1,$5,$9}' "$out/cfg_$1_$2.csv"
done

#!/usr/bin/env bash
# tmemory.sh: memory stays bounded as repetitions and inputs grow: the peak RSS of `sum --backend
# cpu` and of `run determinism` at many repetitions, and of `judge --values` on 10^6 lines, may
# exceed that of the same command at fewer repetitions (lines) by at most a fixed amount (a growth
# bound, so it holds under ASan's shadow memory too; ASan's quarantine and caches fill within
# the first 10,000 repetitions or 100,000 lines, so the bounded commands compare with those).
# Each bound sits well above run-to-run noise and well below the growth it guards against: a
# CUDA build maps cuBLAS and NCCL (about 220 MiB of peak RSS before main), and how many of those
# file-backed pages a run touches varies by up to about 9 MiB between two runs of one command.
#   usage: bash tests/tmemory.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tmemory.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tmemory.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SUMLAB_NO_GPU=1
# a small ASan quarantine: freed scratch would otherwise stay resident and count as growth
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}quarantine_size_mb=8"
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }

# Peak RSS (KiB) of one command and its children (gnuplot for `run`), stdout to $tmp/out and
# stderr to $tmp/out.err; prints "RC KIB".
peak() {
  python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "wb"), stderr=open(sys.argv[1] + ".err", "wb"))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$tmp/out" "$@"
}
# growth LABEL BOUND_KIB SMALL_CMD... -- LARGE_CMD...: the large run's peak RSS exceeds the
# small one's by at most BOUND_KIB; both exit 0.
growth() {
  local label=$1 bound=$2; shift 2
  local small=() large=()
  while [ "$1" != "--" ]; do small+=("$1"); shift; done
  shift; large=("$@")
  checks=$((checks + 1))
  local rs ks rl kl
  read -r rs ks < <(peak "${small[@]}")
  read -r rl kl < <(peak "${large[@]}")
  if [ "$rs" != 0 ] || [ "$rl" != 0 ]; then fail "$label: exit $rs / $rl"; cat "$tmp/out.err" >&2; return; fi
  echo "$label: peak RSS $ks KiB at few, $kl KiB at many (growth bound $bound KiB)"
  [ $((kl - ks)) -le "$bound" ] || fail "$label: peak RSS grew by $((kl - ks)) KiB (bound $bound KiB)"
}

"$sumlab" gen uniform --n 1000 --seed "$seed" -o "$tmp/one.npy" 2> "$tmp/gen.err" || { cat "$tmp/gen.err" >&2; exit 1; }

# Before the CPU tasks were O(variants): ~2 KiB per repetition per variant (8 GB of growth here);
# before the rows folded their repetitions: 16 bytes per repetition per variant (53 MiB here).
growth "sum --reps 200000" 24576 \
  "$sumlab" sum "$tmp/one.npy" --backend cpu --reps 10000 --format csv -- \
  "$sumlab" sum "$tmp/one.npy" --backend cpu --reps 200000 --format csv
rows=$(grep -c ',200000,' "$tmp/out")
[ "$rows" -gt 0 ] || fail "sum --reps 200000: no row with reps 200000"
checks=$((checks + 1))

# judge --values streams its lines: before, every line was held (0.8 GiB of growth here).
awk 'BEGIN { print "name,value"; for (i = 0; i < 1000000; i++) printf "v%d,%.9g\n", i, 400 + (i % 997) * 0.25 }' \
  > "$tmp/v1m.csv"
head -n 100001 "$tmp/v1m.csv" > "$tmp/v100k.csv"
growth "judge --values (10^6 lines)" 65536 \
  "$sumlab" judge "$tmp/one.npy" --values "$tmp/v100k.csv" --format csv -- \
  "$sumlab" judge "$tmp/one.npy" --values "$tmp/v1m.csv" --format csv
lines=$(wc -l < "$tmp/out")
[ "$lines" -eq 1000001 ] || fail "judge --values (10^6 lines): $lines lines of output, not a header and 10^6 rows"
checks=$((checks + 1))

# reduce --axis writes its rows as they finish: before, every row's cells were held until the end
# (about 1.2 KiB per result row: 120 MiB of growth here for 50,000 rows of one value, two result
# rows each), in each format
python3 - "$tmp" <<'PY'
import struct, sys
for name, rows in (("r5k", 5000), ("r50k", 50000)):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, 1), }" % rows
    hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
    with open("%s/%s.npy" % (sys.argv[1], name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
        f.write(b"".join(struct.pack("<f", 1.0 + (i % 97) / 8.0) for i in range(rows)))
PY
for fmt in csv json table; do
  growth "reduce --axis -1 (50,000 rows, $fmt)" 24576 \
    "$sumlab" reduce "$tmp/r5k.npy" --axis -1 --backend cpu --variants serial --reps 1 -q --format "$fmt" -- \
    "$sumlab" reduce "$tmp/r50k.npy" --axis -1 --backend cpu --variants serial --reps 1 -q --format "$fmt"
  checks=$((checks + 1))
  case $fmt in
    csv) got=$(grep -c '^49999,exact,' "$tmp/out") ;;
    json) got=$(grep -c '"row": 49999, "variant": "exact"' "$tmp/out") ;;
    table) got=$(grep -cE '^ *49999 +exact ' "$tmp/out") ;;
  esac
  [ "$got" = 1 ] || fail "reduce --axis -1 ($fmt): the last row's exact line $got times, not once"
done
checks=$((checks + 1))
[ "$(grep -c '^row ' "$tmp/out")" = 25 ] ||
  fail "reduce --axis -1 (table): $(grep -c '^row ' "$tmp/out") headers, not one a table of 4,096 lines (25)"

# Before: 0.8 GB of growth here.
growth "run determinism --reps 200000" 131072 \
  "$sumlab" run determinism --preset tiny --backend cpu --n 16 --seed "$seed" --reps 1000 -o "$tmp/d1" -- \
  "$sumlab" run determinism --preset tiny --backend cpu --n 16 --seed "$seed" --reps 200000 -o "$tmp/d2"
checks=$((checks + 1))
grep -q ',200000,ok,' "$tmp/d2/results.csv" || fail "run determinism --reps 200000: no ok row with reps 200000"

echo "tmemory: $checks checks, $fails failed"
[ "$fails" -eq 0 ]

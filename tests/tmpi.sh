#!/usr/bin/env bash
# tmpi.sh: `mpirun -np K sumlab sum` and `sumlab run ranks` for K = 1..4 on the CPU backend:
#  - state-combined superacc and exact: bitwise equal for every K and to the single process;
#  - the exact row (state) equal to the single-process reference;
#  - ordered equal to its twin: each slice's twin result (a raw slice file summed alone), added
#    in rank order (float64, in Python: binary64 adds);
#  - a rank that cannot read its input: one message, non-zero exit, no hang;
#  - ranks that read different files (another length; the same length, other values; values
#    changed only in slices that other ranks sum): one line, exit 1, no row printed;
#  - run ranks (tiny) writes its rows, report and (with gnuplot) the chart.
# usage: tmpi.sh SUMLAB HAVE_MPI MPIEXEC     exit 77 when the build has no MPI
set -euo pipefail
S=$1; have=$2; mpiexec=${3:-mpirun}
case $have in ON|1|TRUE|true) ;; *) echo "tmpi: built without MPI: skipped"; exit 77 ;; esac
[ -x "$mpiexec" ] || mpiexec=$(command -v mpirun || true)
[ -n "$mpiexec" ] || { echo "tmpi: FAIL: built with MPI but no mpirun"; exit 1; }
run=("$mpiexec" --oversubscribe)
[ "$(id -u)" = 0 ] && run+=(--allow-run-as-root)
export SUMLAB_NO_GPU=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sumlab-tmpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "tmpi: FAIL: $*"; fail=1; }
col() { # csv-file variant combine column -> value
  awk -F, -v v="$2" -v c="$3" -v k="$4" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["variant"]==v && (c=="" || $h["combine"]==c){print $h[k]; exit}' "$1"
}

# a copy of the ranks run's results.csv with field COLUMN of its first row set to VALUE, in DIR,
# then the ranks run appending to it (stderr to ERR): rc its exit status
ranks_planted() { # DIR COLUMN VALUE ERR
  mkdir -p "$1"
  awk -F, -v OFS=, -v c="$2" -v v="$3" 'NR==2{$c=v} {print}' "$tmp/rk/results.csv" > "$1/results.csv"
  set +e
  timeout 60 "${run[@]}" -np 1 "$S" run ranks -o "$1" --preset tiny --backend cpu -q 2> "$4"
  rc=$?
  set -e
}

for spec in "ill-conditioned f64 --param cond=1e10" "log-uniform f32" "uniform f64" "uniform-sym f16" \
            "log-uniform bf16"; do
  set -- $spec
  ds=$1; dt=$2; shift 2
  f=$tmp/$ds-$dt.npy
  "$S" gen "$ds" --n 100003 --dtype "$dt" --seed 11 "$@" -o "$f" 2>/dev/null
  "$S" sum "$f" --backend cpu --variants superacc,serial,reproducible --format csv > "$tmp/one.csv" 2>/dev/null
  one_repro=$(col "$tmp/one.csv" reproducible "" result_hex)
  one_sacc=$(col "$tmp/one.csv" superacc "" result_hex)
  one_exact=$(col "$tmp/one.csv" exact "" result_hex)
  [ "$one_sacc" = "$one_exact" ] || bad "$ds $dt: single-process superacc $one_sacc != exact $one_exact"
  for K in 1 2 3 4; do
    out=$tmp/k$K.csv
    if ! timeout 120 "${run[@]}" -np "$K" "$S" sum "$f" --backend cpu --variants superacc,serial,pairwise,reproducible \
         --format csv > "$out" 2> "$tmp/err"; then
      bad "$ds $dt K=$K: mpirun sum failed: $(head -c 400 "$tmp/err")"; continue
    fi
    for v in superacc exact; do
      got=$(col "$out" "$v" state result_hex)
      [ "$got" = "$one_exact" ] || bad "$ds $dt K=$K: $v state $got != single-process exact $one_exact"
    done
    # every combined row within its bound (mpi-sum / ordered: the slices' bound plus K - 1 roundings)
    python3 - "$out" <<'PY' || bad "$ds $dt K=$K: a combined row outside its bound"
import csv, sys
bad = [r for r in csv.DictReader(open(sys.argv[1]))
       if r["bound_abs"] not in ("", "nan", "inf") and float(r["abs_err"]) > float(r["bound_abs"])]
for r in bad:
    print("outside its bound:", r["variant"], r["combine"], r["abs_err"], ">", r["bound_abs"], file=sys.stderr)
sys.exit(1 if bad else 0)
PY
    got=$(col "$out" reproducible state result_hex)   # the binned state: the same bits for every K
    [ -n "$one_repro" ] && [ "$got" = "$one_repro" ] ||
      bad "$ds $dt K=$K: reproducible state $got != single-process reproducible $one_repro"
    [ "$(col "$out" exact state ranks)" = "$K" ] || bad "$ds $dt K=$K: ranks column"
    # S, the exact sum of every slice, in every row as in the single process (it was empty)
    one_S=$(col "$tmp/one.csv" exact "" exact_sum_hex)
    for c in state ordered mpi-sum; do
      got=$(col "$out" superacc "$c" exact_sum_hex)
      [ -n "$one_S" ] && [ "$got" = "$one_S" ] || bad "$ds $dt K=$K: superacc $c exact_sum_hex '$got' != '$one_S'"
    done
    [ "$(col "$out" exact state abs_err)" = "$(col "$tmp/one.csv" exact "" abs_err)" ] ||
      bad "$ds $dt K=$K: exact state row's error differs from the single-process reference row's"
    if [ "$dt" = f64 ] || [ "$dt" = f16 ]; then   # ordered == the slices' twins added in rank order
      for v in serial pairwise; do
        got=$(col "$out" "$v" ordered result_hex)
        want=$(python3 - "$f" "$K" "$S" "$v" "$tmp" "$dt" <<'PY'
import struct, subprocess, sys
path, K, S, v, tmp, dt = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
es = 8 if dt == 'f64' else 2
add = (lambda a, b: a + b) if dt == 'f64' else \
      (lambda a, b: struct.unpack('<e', struct.pack('<e', a + b))[0])   # rounded once to float16
b = open(path, 'rb').read()
hl = b[8] | b[9] << 8
data = b[10 + hl:]
n = len(data) // es
acc = None
for r in range(K):
    lo = r * (n // K) + min(r, n % K); ln = n // K + (r < n % K)
    sl = tmp + '/slice.raw'
    open(sl, 'wb').write(data[lo * es:(lo + ln) * es])
    o = subprocess.run([S, 'sum', sl, '--dtype', dt, '--backend', 'cpu', '--variants', v, '--format', 'csv'],
                       capture_output=True, text=True, check=True).stdout.splitlines()
    h = o[0].split(','); row = [l.split(',') for l in o[1:] if l.split(',')[0] == v][0]
    x = float.fromhex(row[h.index('result_hex')])
    acc = x if acc is None else add(acc, x)
print(acc.hex().replace('0x1.0000000000000p', '0x1p') if False else acc.hex())
PY
)
        # sumlab prints %a (shortest hex); compare as values
        python3 -c "import sys; sys.exit(0 if float.fromhex('$got') == float.fromhex('$want') else 1)" ||
          bad "$ds $dt K=$K: $v ordered $got != its twins added in rank order $want"
      done
    fi
  done
done

# the table's S block under mpirun, as in one process
f=$tmp/uniform-f64.npy
"$S" sum "$f" --backend cpu --variants serial > "$tmp/one.txt" 2>/dev/null
timeout 120 "${run[@]}" -np 2 "$S" sum "$f" --backend cpu --variants serial > "$tmp/k2.txt" 2>/dev/null ||
  bad "mpirun sum (table) failed"
want=$(grep '^exact sum S = ' "$tmp/one.txt")
[ -n "$want" ] && [ "$(grep '^exact sum S = ' "$tmp/k2.txt")" = "$want" ] ||
  bad "mpirun sum (table): no S block, or another S than one process's ($want)"

# a rank that cannot read: one message naming the rank, non-zero exit, no hang
set +e
timeout 60 "${run[@]}" -np 3 "$S" sum "$tmp/missing.npy" --backend cpu > "$tmp/o" 2> "$tmp/e"
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || bad "unreadable input: exit $rc (expected a non-zero exit, no hang)"
[ "$(grep -c '^sumlab sum: rank' "$tmp/e")" = 1 ] || bad "unreadable input: expected one message, got: $(cat "$tmp/e")"
[ ! -s "$tmp/o" ] || bad "unreadable input: something was printed on stdout"

# ranks that read different inputs (MPMD: `-np 2 sumlab sum A : -np 2 sumlab sum B`): one line
# naming the difference, exit 1, nothing on stdout
"$S" gen uniform --n 100003 --dtype f32 --seed 11 -o "$tmp/A.npy" 2>/dev/null
"$S" gen uniform --n 100000 --dtype f32 --seed 11 -o "$tmp/short.npy" 2>/dev/null   # A less 3 values
"$S" gen uniform --n 100003 --dtype f32 --seed 12 -o "$tmp/other.npy" 2>/dev/null   # A's length
python3 - "$tmp/A.npy" "$tmp/mixed.npy" <<'PY'
# A with one value changed in the slices of ranks 1 and 3 of 4 (ranks 2 and 3 read it: the
# slices summed, 0-1 from A and 2-3 from this file, make neither file)
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
off = 10 + (b[8] | b[9] << 8)
for i in (30000, 90000):
    b[off + 4 * i] ^= 1
open(sys.argv[2], 'wb').write(b)
PY
for spec in "3 short.npy different length" "2 other.npy different values" "2 mixed.npy different values"; do
  set -- $spec
  what=${spec#* * }
  set +e
  timeout 60 "${run[@]}" -np "$1" "$S" sum "$tmp/A.npy" --backend cpu --variants serial --format csv : \
    -np $((4 - $1)) "$S" sum "$tmp/$2" --backend cpu --variants serial --format csv > "$tmp/o" 2> "$tmp/e"
  rc=$?
  set -e
  [ "$rc" = 1 ] || bad "ranks reading A and $2: exit $rc, expected 1"
  [ "$(grep -c '^sumlab sum: the ranks read different inputs' "$tmp/e")" = 1 ] ||
    bad "ranks reading A and $2: expected one 'the ranks read different inputs' line, got: $(head -c 600 "$tmp/e")"
  grep -q "($what" "$tmp/e" || bad "ranks reading A and $2: the line does not say '$what'"
  [ ! -s "$tmp/o" ] || bad "ranks reading A and $2: rows printed: $(head -c 300 "$tmp/o")"
done
timeout 60 "${run[@]}" -np 2 "$S" sum "$tmp/A.npy" --backend cpu --variants serial --format csv : \
  -np 2 "$S" sum "$tmp/A.npy" --backend cpu --variants serial --format csv > "$tmp/o" 2> "$tmp/e" ||
  bad "ranks reading the same file (MPMD): failed: $(head -c 300 "$tmp/e")"

# the ranks experiment (tiny), then one forced-algorithm pass
if timeout 200 "${run[@]}" -np 3 "$S" run ranks -o "$tmp/rk" --preset tiny --backend cpu -q 2> "$tmp/e" &&
   OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=3 \
   timeout 200 "${run[@]}" -np 3 "$S" run ranks -o "$tmp/rk" --preset tiny --backend cpu --algorithm 3 -q 2>> "$tmp/e"; then
  r=$tmp/rk/results.csv
  [ "$(awk -F, 'NR>1 && $7 ~ /:state:default$/ && $6 == "superacc" {print $13}' "$r" | sort -u | wc -l)" = 4 ] ||
    bad "ranks: superacc state rows should hold one result per input (4: three datasets and a float16 one), over every K"
  awk -F, 'NR>1 && $4 == "f16" {n++} END{exit !(n > 0)}' "$r" || bad "ranks: no float16 rows"
  awk -F, 'NR>1 && $9 == "state" && $13 != $15 {bad=1} END{exit bad}' "$r" || bad "ranks: a state row differs from the exact sum"
  grep -q 'tuned:3' "$r" || bad "ranks: no forced-algorithm rows"
  # the integer-limb combine (MPI_MAX on the index, MPI_SUM on int64 limbs): every state variant's
  # row at every K, with the bits of its state row
  [ "$(awk -F, 'NR>1 && $9 == "limbs" && $12 == "ok"' "$r" | wc -l)" = "$(awk -F, 'NR>1 && $9 == "state" && $12 == "ok"' "$r" | wc -l)" ] &&
    [ "$(awk -F, 'NR>1 && $9 == "limbs"' "$r" | wc -l)" -gt 0 ] || bad "ranks: limbs rows missing"
  awk -F, 'NR>1 && ($9 == "state" || $9 == "limbs") {k=$2 FS $4 FS $6 FS $8; if (k in h && h[k] != $13) bad=1; h[k]=$13} END{exit bad}' "$r" ||
    bad "ranks: a limbs row differs from its state row"
  grep -q '## Distinct results over K' "$tmp/rk/report.md" || bad "ranks: report.md lacks its table"
  # a damaged results.csv to append to: a K past any rank count (atoi's undefined behaviour, and a
  # report looping to K = 2^31 - 1) is refused with one message before anything runs
  ranks_planted "$tmp/rkbad" 8 99999999999 "$tmp/e"
  [ "$rc" = 1 ] && grep -q "data row 1: ranks '99999999999' is not a rank count" "$tmp/e" ||
    bad "ranks: a results.csv with ranks 99999999999: exit $rc, expected 1 and one message: $(head -c 400 "$tmp/e")"
  [ ! -e "$tmp/rkbad/report.md" ] || bad "ranks: a report written from a results.csv with ranks 99999999999"
  if command -v gnuplot >/dev/null 2>&1; then
    ls "$tmp/rk/charts/"ranks_*.png >/dev/null 2>&1 || bad "ranks: no chart"
  fi
else
  bad "run ranks failed: $(head -c 600 "$tmp/e")"
fi
# another operation under mpirun: refused on every rank (the ranks combine sums: norm2's row was
# the sum under norm2's name, exit 0)
"$S" gen uniform --n 1000 --seed 3 -o "$tmp/u1k.npy" 2> /dev/null
set +e
timeout 60 "${run[@]}" -np 2 "$S" sum --op norm2 --variants exact,reproducible "$tmp/u1k.npy" > "$tmp/op.out" 2> "$tmp/op.err"
rc=$?
set -e
[ "$rc" != 0 ] && grep -q "the MPI path combines sums only" "$tmp/op.err" && [ ! -s "$tmp/op.out" ] ||
  bad "mpirun sum --op norm2: exit $rc, expected non-zero, one message and no rows: $(head -c 300 "$tmp/op.err")"
# ranks started with other variants: refused on every rank (serial's and pairwise's partials were
# combined under serial's name, exit 0)
set +e
timeout 60 "${run[@]}" -np 1 "$S" sum --variants serial --combine mpi-sum "$tmp/u1k.npy" : \
  -np 1 "$S" sum --variants pairwise --combine mpi-sum "$tmp/u1k.npy" > "$tmp/mm.out" 2> "$tmp/mm.err"
rc=$?
set -e
[ "$rc" != 0 ] && grep -q "rank 1 was started with other options than rank 0" "$tmp/mm.err" && [ ! -s "$tmp/mm.out" ] ||
  bad "ranks with other variants: exit $rc, expected non-zero, one message, no rows: $(head -c 300 "$tmp/mm.err")"
# the ranks experiment in a directory whose name is longer than a run's: refused (its files' names
# were cut, and report.md overwrote the rows)
longdir=$tmp/$(head -c 1000 /dev/zero | tr '\0' d)
set +e
timeout 60 "${run[@]}" -np 1 "$S" run ranks -o "$longdir" --preset tiny --backend cpu -q 2> "$tmp/ld.err"
rc=$?
set -e
[ "$rc" = 1 ] && grep -q "directory name" "$tmp/ld.err" ||
  bad "ranks in a 1,000-byte directory name: exit $rc, expected 1 and a message: $(head -c 200 "$tmp/ld.err")"
# a ranks results.csv whose dataset field holds markup: the report refuses it (it went into
# report.md and a chart's path as it was)
if [ -s "$tmp/rk/results.csv" ]; then
  ranks_planted "$tmp/rkmk" 2 "x<img src=q>" "$tmp/mk.err"
  [ "$rc" = 1 ] && grep -q "is not a name sumlab writes" "$tmp/mk.err" && ! grep -qs "img" "$tmp/rkmk/report.md" ||
    bad "ranks with markup in a dataset field: exit $rc: $(head -c 300 "$tmp/mk.err")"
fi
[ "$fail" = 0 ] && echo "tmpi: ok (K = 1..4, state and limbs bit-identical, ordered = twins in rank order)"
exit $fail

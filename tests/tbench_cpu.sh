#!/usr/bin/env bash
# tbench_cpu.sh: `sumlab bench --backend cpu` end to end: its columns, one row per variant and
# n, valid results (the exact rows equal the correctly rounded exact sum, recomputed here in
# Python with exact rationals from the same values), and its bad-input paths. No timings judged.
#   usage: bash tests/tbench_cpu.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tbench_cpu.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tbench_cpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }
check() { checks=$((checks + 1)); local what=$1; shift; "$@" || fail "$what"; }

# (dataset, dtype, params): the issue's families, both dtypes, and specials
runs=("uniform f32" "uniform f64" "log-uniform f32 emin=-1100 emax=1100 subnormals=1"
      "log-uniform f64 emin=-1100 emax=1100 subnormals=1" "ill-conditioned f32 cond=1e16"
      "ill-conditioned f64 cond=1e16" "subnormal f32" "subnormal f64" "special f64 kind=nan"
      "special f32 kind=posneg-inf" "cancellation f64" "uniform-sym f16"
      "log-uniform f16 emin=-30 emax=20 subnormals=1" "subnormal bf16" "log-uniform bf16"
      "special f16 kind=posneg-inf")
k=0
for spec in "${runs[@]}"; do
  set -- $spec
  ds=$1 dt=$2; shift 2
  params=(); for p in "$@"; do params+=(--param "$p"); done
  k=$((k + 1))
  "$sumlab" bench --backend cpu --dataset "$ds" --dtype "$dt" "${params[@]}" --seed "$seed" \
    --n 3000,70000 --reps 2 --threads 2 --mpfr-n 1000 > "$tmp/b$k.csv" 2> "$tmp/b$k.err"
  rc=$?   # (read before the message's $(cat ...), which would set $? to its own status)
  check "bench cpu $spec exits 0 ($(cat "$tmp/b$k.err"))" test $rc -eq 0
  for n in 3000 70000; do
    "$sumlab" gen "$ds" --dtype "$dt" "${params[@]}" --seed "$seed" --n $n --format raw \
      -o "$tmp/g$k-$n.raw" 2> /dev/null
    check "gen $spec n=$n" test $? -eq 0
  done
  python3 - "$tmp/b$k.csv" "$dt" "$tmp/g$k-3000.raw" "$tmp/g$k-70000.raw" > "$tmp/py.err" 2>&1 <<'PY'
import csv, math, struct, sys
from fractions import Fraction
path, dt, raws = sys.argv[1], sys.argv[2], sys.argv[3:]
cols = ("variant dtype n reps threads time_ms_median time_ms_min ns_per_el ratio_loop ratio_mpfr "
        "mpfr_n mpfr_ns_per_el result_hex equals_exact").split()
lines = [l for l in open(path) if not l.startswith("#")]
rows = list(csv.DictReader(lines))
assert lines[0].strip().split(",") == cols, "columns: " + lines[0]
assert [r["variant"] for r in rows] == ["loop", "exact", "exact-threads"] * 2, "rows"
def rnd(q, p, emin, emax):  # q correctly rounded to p bits, subnormals from 2^emin, inf above
    if q == 0: return 0.0
    s, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a: e -= 1
    ulp = Fraction(2) ** max(e - p + 1, emin)
    m, r = divmod(a / ulp, 1)
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and m % 2): m += 1
    v = m * ulp
    return s * math.inf if v >= Fraction(2) ** emax else s * float(v)
for n, raw in zip((3000, 70000), raws):
    data = open(raw, "rb").read()
    fmt, sz = {"f64": ("d", 8), "f32": ("f", 4), "f16": ("e", 2), "bf16": ("H", 2)}[dt]
    xs = struct.unpack("<%d%s" % (len(data) // sz, fmt), data)
    if dt == "bf16":  # the top half of a float32 pattern
        xs = struct.unpack("<%df" % len(xs), struct.pack("<%dI" % len(xs), *(h << 16 for h in xs)))
    assert len(xs) == n
    if any(math.isnan(x) for x in xs) or (math.inf in xs and -math.inf in xs): want = math.nan
    elif math.inf in xs or -math.inf in xs: want = math.inf if math.inf in xs else -math.inf
    else:
        q = sum(Fraction(x) for x in xs)
        want = rnd(q, *{"f64": (53, -1074, 1024), "f32": (24, -149, 128), "f16": (11, -24, 16),
                        "bf16": (8, -133, 128)}[dt])
        if q == 0 and all(math.copysign(1, x) < 0 for x in xs): want = -0.0
    for r in (r for r in rows if int(r["n"]) == n):
        v = r["variant"]
        assert r["dtype"] == dt and int(r["reps"]) == 2, r
        assert int(r["threads"]) == (2 if v == "exact-threads" else 1), r
        assert int(r["mpfr_n"]) == min(1000, n), r
        t, tmin, el = float(r["time_ms_median"]), float(r["time_ms_min"]), float(r["ns_per_el"])
        assert 0 < tmin <= t and el > 0 and abs(el - t * 1e6 / n) <= 1e-3 * el + 1e-4, r
        assert float(r["ratio_loop"]) > 0 and float(r["ratio_mpfr"]) > 0 and float(r["mpfr_ns_per_el"]) > 0, r
        if v == "loop": assert float(r["ratio_loop"]) == 1.0, r
        got = float.fromhex(r["result_hex"])
        same = (math.isnan(got) and math.isnan(want)) or (got == want and math.copysign(1, got) == math.copysign(1, want))
        assert (r["equals_exact"] == "yes") == same, (r, want)
        if v != "loop": assert same, ("exact row is not the exact sum", r, want.hex())
PY
  rc=$?
  check "bench cpu $spec: $(cat "$tmp/py.err")" test $rc -eq 0
done


bad() {   # bad DESCRIPTION ARGS...: rc 2, nothing on stdout, one line on stderr
  local what=$1; shift
  timeout 30 "$sumlab" "$@" > "$tmp/bad.out" 2> "$tmp/bad.err"
  local rc=$?
  checks=$((checks + 1))
  if [ $rc -ne 2 ] || [ -s "$tmp/bad.out" ] || [ "$(wc -l < "$tmp/bad.err")" -ne 1 ]; then
    fail "$what: rc=$rc, stdout $(wc -c < "$tmp/bad.out") bytes, stderr: $(cat "$tmp/bad.err")"
  fi
}
bad "unknown backend" bench --backend tpu --n 10
bad "unknown cpu variant" bench --backend cpu --variants exact,vec4 --n 10
bad "empty cpu variant list" bench --backend cpu --variants "" --n 10
bad "cpu variant list ending in a comma" bench --backend cpu --variants exact, --n 10
bad "mpfr-n 0" bench --backend cpu --mpfr-n 0 --n 10
bad "threads junk" bench --backend cpu --threads many --n 10
check "threads junk: the option named once ($(cat "$tmp/bad.err"))" \
  grep -qx "sumlab bench: --threads: 'many' is not a thread count .*" "$tmp/bad.err"
bad "reps 0" bench --backend cpu --reps 0 --n 10
bad "n 0" bench --backend cpu --n 0
bad "unknown dataset" bench --backend cpu --dataset nope --n 10
bad "gpu option on the cpu backend" bench --backend cpu --block 64 --n 10
# --backend abbreviated as getopt_long takes it (--ba .. --backend): the backend it names (an
# abbreviation went to the GPU bench, which took its value as checked and ignored it)
bad "abbreviated --backend, unknown value" bench --ba=tpu --n 10
"$sumlab" bench --backe cpu --variants exact --n 5000 --reps 1 > "$tmp/ab.csv" 2> "$tmp/ab.err"
check "--backe cpu runs the cpu bench ($(cat "$tmp/ab.err"))" grep -q '^# backend: cpu' "$tmp/ab.csv"
check "--backe cpu: an exact row" grep -q '^exact,f32,5000,' "$tmp/ab.csv"
# --columns is checked with the other options, before the device is looked for and before any
# provenance line is written (it was checked after both: exit 1 'needs a GPU' without one)
bad "bench --columns unknown" bench --n 10 --columns nope
bad "bench --columns twice" bench --n 10 --columns variant,variant
bad "bench --axis --columns unknown" bench --axis -1 --rows 2 --n 10 --columns nope
"$sumlab" bench --backend cpu --help > "$tmp/help" 2>&1
check "bench --backend cpu --help" grep -q 'ratio_mpfr' "$tmp/help"
"$sumlab" bench --backend=cpu --variants exact --n 5000 --reps 1 --format table > "$tmp/t.txt" 2>&1
check "--backend=cpu, table format, loop row always there" grep -q '^loop ' "$tmp/t.txt"
check "--variants exact: no exact-threads row" bash -c "! grep -q '^exact-threads ' '$tmp/t.txt'"

echo "tbench_cpu: $checks checks, $fails failed (seed $seed, SUMLAB_SEED overrides)"
[ $fails -eq 0 ]

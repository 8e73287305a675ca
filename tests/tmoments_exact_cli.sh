#!/usr/bin/env bash
# tmoments_exact_cli.sh: `sumlab reduce --op mean|var|std FILE --ddof D --variants exact,correct
# --format csv` (CPU backend): the `correct` row's result_hex equals the exact row's in every
# format, ddof 0 and 1, on data with a large mean and a small spread, a tie and n = 1.
#   usage: bash tests/tmoments_exact_cli.sh PATH/TO/sumlab [SEED]
set -u
sumlab=${1:?usage: tmoments_exact_cli.sh PATH/TO/sumlab}
seed=${SUMLAB_SEED:-${2:-20261129}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tmoments_exact_cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SUMLAB_NO_GPU=1
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL [seed $seed]: $*" >&2; }

python3 - "$tmp" "$seed" <<'PY'
import random, struct, sys
tmp, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
def bf16(x):   # float32 bits, rounded to nearest even at 16 bits
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.pack("<H", ((u + 0x7fff + ((u >> 16) & 1)) >> 16) & 0xffff)
packs = {"f32": lambda x: struct.pack("<f", x), "f64": lambda x: struct.pack("<d", x),
         "f16": lambda x: struct.pack("<e", x), "bf16": bf16}
mus = {"f32": 1e4, "f64": 1e8, "f16": 100.0, "bf16": 1000.0}
for dt, pk in packs.items():
    xs = [mus[dt] + rng.gauss(0, 1) for _ in range(1000)]
    open(f"{tmp}/big.{dt}", "wb").write(b"".join(pk(x) for x in xs))
    open(f"{tmp}/tie.{dt}", "wb").write(pk(0.0) + pk(-3.0) + pk(5.0))
    open(f"{tmp}/one.{dt}", "wb").write(pk(3.0))
PY
for dt in f32 f64 f16 bf16; do
  for data in big tie one; do
    for op in mean var std; do
      for ddof in 0 1; do
        [ "$op" = mean ] && [ "$ddof" = 1 ] && continue   # the mean has no ddof: once, without it
        dd=(--ddof "$ddof"); [ "$op" = mean ] && dd=()
        out=$("$sumlab" reduce --op "$op" "$tmp/$data.$dt" --dtype "$dt" "${dd[@]}" \
              --variants exact,correct --format csv 2>"$tmp/err")
        checks=$((checks + 1))
        res=$(printf '%s\n' "$out" | python3 -c "
import csv, sys
rows = {r['variant']: r['result_hex'] for r in csv.DictReader(sys.stdin)}
e, c = rows.get('exact'), rows.get('correct')
print('ok' if e is not None and e == c else 'exact %s correct %s' % (e, c))")
        [ "$res" = ok ] || fail "$op $data.$dt ddof $ddof: $res ($(head -c 300 "$tmp/err"))"
      done
    done
  done
done
echo "tmoments_exact_cli: $checks checks, $fails failed (seed $seed)"
[ "$fails" = 0 ]

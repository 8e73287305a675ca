#!/usr/bin/env bash
# tstudy_bits.sh: the quick study on the CPU backend gives, key for key, the bit patterns stored
# in tests/data/study_quick_cpu_bits.csv.gz (status, result, exact, min, max, distinct of every
# row). A change of structure must leave every one of them as it was; a change that means to
# alter results regenerates the file with `tbits.py extract` and says why in its commit.
#   usage: tstudy_bits.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tstudy_bits.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
t=$(mktemp -d "${TMPDIR:-/tmp}/tstudy_bits.XXXXXX")
trap 'rm -rf "$t"' EXIT
export SUMLAB_NO_GPU=1 SUMLAB_PLOTS_DIR=/nonexistent
if ! "$bin" run all --preset quick --backend cpu -o "$t/q" -q 2> "$t/err"; then
  echo "tstudy_bits: sumlab run all --preset quick --backend cpu failed:" >&2
  head -c 2000 "$t/err" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
# the variants this build registers (CUB's tiers only with CCCL 3.3's headers, a GPU build)
built=$("$bin" list variants --format csv | tail -n +2 | cut -d, -f1 | paste -sd, -)
[ -n "$built" ] || { echo "tstudy_bits: sumlab list variants printed no variant"; echo "0 passed, 1 failed"; exit 1; }
python3 "$src/tests/tbits.py" compare "$t/q" "$src/tests/data/study_quick_cpu_bits.csv.gz" --built "$built"

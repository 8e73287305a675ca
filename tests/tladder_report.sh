#!/usr/bin/env bash
# tladder_report.sh: the ladder experiment's report section, ladder.csv and chart from ladder rows
# as a GPU run writes them (the rows are made here: the experiment itself needs a GPU). Checks the
# speedups, the fractions of the read ceiling, the published figures beside them, text 1's
# predicted order (holds / does not hold), and the chart of each text.
#   usage: tladder_report.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tladder_report.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
export SUMLAB_PLOTS_DIR=$src/plots SUMLAB_NO_GPU=1
t=$(mktemp -d "${TMPDIR:-/tmp}/tladder_report.XXXXXX")
trap 'rm -rf "$t"' EXIT
fails=0; checks=0
check() { local d=$1; shift; checks=$((checks + 1)); if "$@"; then :; else fails=$((fails + 1)); echo "FAIL: $d" >&2; fi; }

SUMLAB_NO_CHARTS=1 "$bin" run accuracy-vs-n --preset tiny --backend cpu -o "$t/r" -q 2> "$t/err" ||
  { echo "tladder_report: the tiny run failed: $(head -c 400 "$t/err")"; echo "0 passed, 1 failed"; exit 1; }
# ladder rows: rung k of text 1 takes 64/2^k ms except V4, which is made slower than V3 (order broken
# at one step only in the default config); text 2's rung k takes 10/(k+1) ms; CUB 0.5, ceiling 0.25.
python3 - "$t/r/results.csv" <<'PY' || { echo "0 passed, 1 failed"; exit 1; }
import csv, sys
path = sys.argv[1]
rows = list(csv.DictReader(open(path)))
hdr = list(rows[0].keys())
t1 = ["atomic-thread", "smem-interleaved", "smem-sequential", "two-load", "warp-shuffle", "grid-stride", "vec4"]
t2 = ["smem-interleaved", "smem-strided", "smem-sequential", "two-load", "warp-unrolled", "full-unroll",
      "multi-load", "packed", "block-reduce"]
ms = {}
for cfg, n in (("block256", 1 << 25), ("default", 1 << 28)):
    for k, v in enumerate(t1):
        ms[(cfg, v)] = 64.0 / 2 ** k
    if cfg == "default":
        ms[(cfg, "warp-shuffle")] = 64.0 / 2 ** 2   # slower than two-load (V3): V4 breaks the order
    for k, v in enumerate(t2):
        if v not in t1: ms[(cfg, v)] = 10.0 / (k + 1)
    ms[(cfg, "cub")] = 0.5
    ms[(cfg, "read-ceiling")] = 0.25
out = open(path, "a", newline="")
w = csv.DictWriter(out, fieldnames=hdr, lineterminator="\n")
for (cfg, v), m in ms.items():
    r = dict(rows[0])
    n = (1 << 25) if cfg == "block256" else (1 << 28)
    r.update(experiment="ladder", dataset="uniform", params="", dtype="f32", n=str(n), variant=v, config=cfg,
             status="ok", time_ms_median=repr(m), gbps=repr(n * 4 / m / 1e6), backend="gpu",
             twin_match="" if v in ("cub", "read-ceiling") else "1", note="")
    w.writerow(r)
PY
SUMLAB_NO_CHARTS= "$bin" run accuracy-vs-n -o "$t/r" --report-only -q 2> "$t/err2"
last=$?; check "--report-only with ladder rows exits 0 ($(head -c 300 "$t/err2"))" test $last -eq 0
rep=$t/r/report.md
check "report has the Ladders section" grep -q '^## Ladders' "$rep"
check "both points reported" bash -c "grep -q '^### n = 33554432, 256 threads per block' '$rep' && grep -q '^### n = 268435456, each rung' '$rep'"
# text 1 at block256: V6 = 64/64 = 1 ms against V0 64 ms: 64.00x; of read ceiling 0.25/1 = 0.25
check "text 1 V6 speedup 64.00x, 0.25 of the read ceiling" grep -q '^| V6 | `vec4` | 1 | [0-9]* | 0.25 | 64.00x |' "$rep"
# text 2 v6 = 10/7 ms against v0 (= text 1's V1: 32 ms): 22.40x, published 4.81x and 33.83 %
check "text 2 v6 measured beside published" grep -q '^| v6 | `multi-load` | 1.429 | [0-9]* | 0.17 | 22.40x | 4.81x | 33.83 % |' "$rep"
check "text 1's order holds at block 256" grep -q 'Text 1 predicts each rung faster than the one before: it holds here' "$rep"
check "text 1's order broken in the default config" grep -q 'it does not hold at every step here' "$rep"
check "ladder.csv written with both configs" bash -c "grep -c '^block256,' '$t/r/ladder.csv' | grep -qx 16 && grep -c '^default,' '$t/r/ladder.csv' | grep -qx 16"
check "ladder.csv: text 2 v1 speedup and published" grep -q '^block256,33554432,text 2,v1,smem-strided,5,.*,6.4000,1.56,90.72,1$' "$t/r/ladder.csv"
if command -v gnuplot > /dev/null 2>&1; then
  for tx in text1 text2; do check "chart ladder_$tx rendered" test -s "$t/r/charts/ladder_$tx.png"; done
  check "the report lists the ladder charts" grep -q 'ladder_text2.png' "$rep"
  check "a text without published figures: one bar per rung, no 'published' key entry (text 1); text 2 keeps it" \
    bash -c "! grep -q 'published by the text' '$t/r/charts/ladder_text1.svg' && grep -q 'published by the text' '$t/r/charts/ladder_text2.svg'"
  check "ladder charts cite their text by title" bash -c "grep -q 'Lesson 21: from an inefficient reduction kernel' '$t/r/charts/ladder_text1.svg' && grep -q 'PyTorch and OneFlow in depth' '$t/r/charts/ladder_text2.svg'"
fi
check "the report cites both texts by their titles" bash -c "grep -q '^\*\*text 1\*\* (\"第二十一课：从低效 Reduction Kernel 到高性能归约\"' '$rep' && grep -q '^\*\*text 2\*\* (\"PyTorch与OneFlow深度解析Reduce算子优化的向量化访存与Warp原语实战\"' '$rep'"
echo "$((checks - fails)) passed, $fails failed"
[ $fails -eq 0 ]

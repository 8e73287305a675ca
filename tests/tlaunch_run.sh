#!/usr/bin/env bash
# tlaunch_run.sh: `sumlab run launch-config` end to end on the CPU backend (tiny preset): every
# swept variant's rows, launch.csv with the configuration columns (block, grid, items,
# accumulators, load width (vec4's scalar, 8- and 16-byte loads), offset, n - 1 points) and the error columns filled, every error
# within its bound; `run all` does not plan it (opt-in).
#   usage: tlaunch_run.sh PATH/TO/sumlab [SOURCE_DIR]
set -uo pipefail
bin=${1:?usage: tlaunch_run.sh PATH/TO/sumlab [SOURCE_DIR]}
src=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
export SUMLAB_PLOTS_DIR=$src/plots
t=$(mktemp -d "${TMPDIR:-/tmp}/tlaunch_run.XXXXXX")
trap 'rm -rf "$t"' EXIT
command -v python3 >/dev/null || { echo "tlaunch_run: python3 missing" >&2; exit 77; }
"$bin" run launch-config --preset tiny --backend cpu -o "$t/lc" -q 2> "$t/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: run launch-config exit $rc: $(head -c 600 "$t/err")" >&2; exit 1; }
python3 - "$t/lc" <<'PY'
import csv, sys
d = sys.argv[1]
fails = []
def check(cond, msg):
    if not cond: fails.append(msg)
res = [r for r in csv.DictReader(open(d + "/results.csv")) if r["experiment"] == "launch-config"]
lc = list(csv.DictReader(open(d + "/launch.csv")))
want = ["variant", "dtype", "n", "backend", "sweep", "block_req", "grid_req", "block", "grid", "items",
        "accumulators", "load_width", "offset", "tail", "time_ms", "gbps", "ratio_cub", "ratio_read",
        "abs_err", "rel_err", "ulps", "bound_abs", "bound_ratio", "twin_match", "regs", "blocks_per_sm", "occupancy"]
check(lc and list(lc[0].keys()) == want, "launch.csv columns: %s" % (list(lc[0].keys()) if lc else None))
check(len(res) > 500 and len(lc) == len(res), "rows: %d results, %d launch.csv" % (len(res), len(lc)))
check(all(r["status"] == "ok" for r in res), "a row not ok: %s" % [r["note"] for r in res if r["status"] != "ok"][:3])
vs = {r["variant"] for r in lc}
for v in ["warp-shuffle", "grid-stride", "vec4", "multi-load", "packed", "block-reduce", "kahan", "multipass"]:
    check(v in vs, "no rows of %s" % v)
check({r["dtype"] for r in lc} == {"f32", "bf16"}, "dtypes %s" % {r["dtype"] for r in lc})
check({r["sweep"] for r in lc} == {"block", "grid", "items", "accumulators", "align", "width"}, "sweeps %s" % {r["sweep"] for r in lc})
check({r["offset"] for r in lc} == {"0", "4", "8", "12"}, "offsets %s" % {r["offset"] for r in lc})
check({r["block"] for r in lc if r["sweep"] == "block"} >= {"32", "64", "128", "256", "512", "1024"}, "blocks")
check({r["accumulators"] for r in lc if r["variant"] == "vec4"} == {"1", "2", "4", "8"}, "vec4 accumulators")
for v in ["grid-stride", "kahan"]:
    check({(r["block_req"], r["accumulators"]) for r in lc if r["variant"] == v and r["sweep"] == "accumulators"} ==
          {(str(b), str(a)) for b in (128, 256, 512, 1024) for a in (1, 2, 4, 8)}, "%s accumulators x block" % v)
check({(r["items"], r["accumulators"]) for r in lc if r["variant"] == "vec4" and r["sweep"] == "items"} ==
      {(str(i), str(a)) for i in (1, 2, 4, 8) for a in (1, 2, 4, 8) if a <= i}, "vec4 items x accumulators")
# every width at every offset and n - 1
check(len({(r["dtype"], r["load_width"], r["offset"], r["tail"]) for r in lc if r["sweep"] == "width"}) == 2 * 3 * 4 * 2,
      "vec4 width x alignment points")
check({r["load_width"] for r in lc if r["variant"] == "vec4" and r["sweep"] != "width"} == {"16"} and
      {(r["dtype"], r["load_width"]) for r in lc if r["variant"] == "vec4" and r["sweep"] == "width"} ==
      {("f32", "4"), ("f32", "8"), ("f32", "16"), ("bf16", "2"), ("bf16", "8"), ("bf16", "16")} and
      {r["load_width"] for r in lc if r["variant"] == "grid-stride" and r["dtype"] == "bf16"} == {"2"}, "load widths")
ns = {(r["dtype"], r["n"], r["tail"]) for r in lc}
check(any(t == "1" for _, _, t in ns) and all(int(n) % 2 == 1 for _, n, t in ns if t == "1"), "n - 1 points %s" % ns)
for r in lc:
    ok = r["abs_err"] != "" and r["bound_abs"] != "" and float(r["bound_ratio"]) <= 1.0
    check(ok, "%s %s %s b%s g%s i%s o%s: error %s bound %s" % (r["variant"], r["dtype"], r["sweep"], r["block"],
          r["grid"], r["items"], r["offset"], r["abs_err"], r["bound_abs"]))
    if not ok: break
# the request is the row's configuration: a requested block is the resolved one
check(all(r["block"] == r["block_req"] for r in lc if r["block_req"] != "0"), "a block request not honoured")
for m in fails[:20]: print("FAIL:", m, file=sys.stderr)
print("tlaunch_run: %d rows, %d failures" % (len(lc), len(fails)))
sys.exit(1 if fails else 0)
PY
rc=$?
# The report's claims are computed from the data: with the rows relabelled as GPU rows (the
# speed claims are judged on the GPU backend only), "256 threads is within X %" must be the
# figure computed here from launch.csv, and the CPU run's report must judge no speed claim.
grep -q "no speed claim is judged here" "$t/lc/report.md" || { echo "FAIL: the CPU report does not say it judges no speed claim" >&2; rc=1; }
grep -q "256 threads is within" "$t/lc/report.md" && { echo "FAIL: the CPU report judges a speed claim" >&2; rc=1; }
# the accumulator table has a row per variant with accumulators (kahan's sets of lanes included)
for v in grid-stride vec4 kahan; do
  grep -q "^| $v | [0-9.e+-]* / [0-9.e+-]* | " "$t/lc/report.md" || { echo "FAIL: no $v row in the accumulator table" >&2; rc=1; }
done
cp -r "$t/lc" "$t/g"
python3 - "$t/g/results.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
b = rows[0].index("backend")
for r in rows[1:]:
    r[b] = "gpu" if r[b] == "cpu" else r[b]
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
# the kernels' resource use (written beside the rows on a GPU) joins launch.csv by the row's key
key=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["experiment"] == "launch-config" && $c["variant"] == "vec4" { print $c["variant"] "," $c["dtype"] "," $c["n"] "," $c["config"]; exit }' "$t/g/results.csv")
printf 'variant,dtype,n,config,regs,blocks_per_sm,occupancy\n%s,32,2,0.5000\n' "$key" > "$t/g/launch_attrs.csv"
SUMLAB_NO_CHARTS=1 "$bin" run --report-only -o "$t/g" -q 2> "$t/g.err" || { echo "FAIL: report-only: $(head -c 400 "$t/g.err")" >&2; rc=1; }
na=$(awk -F, 'NR > 1 && $25 != "" { k++ } END { print k + 0 }' "$t/g/launch.csv")
grep -q "^${key%%,*},.*,32,2,0.5000$" "$t/g/launch.csv" && [ "$na" = 1 ] ||
  { echo "FAIL: launch_attrs.csv not joined into launch.csv once ($na rows with regs)" >&2; rc=1; }
python3 - "$t/g" <<'PY' || rc=1
import csv, re, sys
d = sys.argv[1]
lc = list(csv.DictReader(open(d + "/launch.csv")))
rep = open(d + "/report.md").read()
fails = 0
for dt in ("f32", "bf16"):
    nm = max(int(r["n"]) + int(r["tail"]) for r in lc if r["dtype"] == dt)
    worst, wv = -1, None
    for v in ["warp-shuffle", "grid-stride", "vec4", "multi-load", "packed", "block-reduce", "kahan", "multipass"]:
        pts = [r for r in lc if r["variant"] == v and r["dtype"] == dt and r["sweep"] == "block" and int(r["n"]) == nm]
        t256 = [float(r["time_ms"]) for r in pts if r["block_req"] == "256"]
        if not pts or not t256: continue
        x = (t256[0] / min(float(r["time_ms"]) for r in pts) - 1) * 100
        if x > worst: worst, wv = x, v
    sec = rep[rep.index("### " + dt, rep.index("## Launch configurations")):]
    m = re.search(r"256 threads is within ([0-9.]+) % of the best block size for every rung \(the farthest: `([^`]+)`\)", sec)
    if not m or abs(float(m.group(1)) - worst) > 0.051 or m.group(2) != wv:
        print("FAIL: %s: report says %s, launch.csv gives %.1f %% (%s)" % (dt, m.groups() if m else None, worst, wv), file=sys.stderr)
        fails += 1
    # vec4's load widths: "W-byte loads gain x % over scalar loads" from the aligned width points
    wr = {(int(r["load_width"]), int(r["offset"]), int(r["tail"])): float(r["time_ms"]) for r in lc
          if r["variant"] == "vec4" and r["dtype"] == dt and r["sweep"] == "width" and int(r["n"]) + int(r["tail"]) == nm}
    ws = sorted({w for w, _, _ in wr})
    for w in ws[1:]:
        g = (wr[(ws[0], 0, 0)] / wr[(w, 0, 0)] - 1) * 100
        m = re.search(r"%d-byte loads (gain|lose) ([0-9.]+) %% over scalar loads" % w, sec)
        if not m or abs((1 if m.group(1) == "gain" else -1) * float(m.group(2)) - g) > 0.051:
            print("FAIL: %s: %d-byte loads: report says %s, launch.csv gives %+.1f %%" % (dt, w, m.groups() if m else None, g), file=sys.stderr)
            fails += 1
    # launch_summary.md: each variant's best aligned point against its own launch, as computed here
    summ = open(d + "/launch_summary.md").read()
    ssec = summ[summ.index("**%s, n = %d**" % (dt, nm)):]
    for v in ["grid-stride", "vec4", "kahan"]:
        pts = [r for r in lc if r["variant"] == v and r["dtype"] == dt and int(r["n"]) + int(r["tail"]) == nm
               and r["offset"] == "0" and r["tail"] == "0"]
        own = [r for r in pts if r["sweep"] == "align"]
        best = min(pts, key=lambda r: float(r["time_ms"]))
        g = (float(own[0]["time_ms"]) / float(best["time_ms"]) - 1) * 100
        m = re.search(r"\| %s \| [0-9.]+ \| %s: [^|]* \| [0-9.]+ \| ([-+][0-9.]+) %%" % (re.escape(v), best["sweep"]), ssec)
        if not m or abs(float(m.group(1)) - g) > 0.051:
            print("FAIL: %s %s: summary says %s, launch.csv gives %+.1f %% (%s)" % (dt, v, m.groups() if m else None, g, best["sweep"]), file=sys.stderr)
            fails += 1
sys.exit(1 if fails else 0)
PY

# the opt-in experiment is never part of `all`
"$bin" run --help > "$t/help" 2>&1
grep -q "launch-config" "$t/help" || { echo "FAIL: run --help does not list launch-config" >&2; rc=1; }
grep -q "launch-config" "$t/lc/report.md" || { echo "FAIL: report.md does not name launch-config" >&2; rc=1; }
exit $rc

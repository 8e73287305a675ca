#!/usr/bin/env python3
"""tlse_study.py: the study of lse on the CPU backend (`sumlab run all --op lse --preset tiny`):
accuracy-vs-cond sweeps the logits' sigma over the tiny preset's values (the first and last of
lse's list, 0.1 and 30; quick: every other one and the last), its rows' `sweep` column and the
report's table and chart name sigma; accuracy-vs-n runs lse's own families (logits,
logits-dominant, lse-masked, logits-low, logits-high, constant, uniform, normal) unless --datasets
names others; the report's table of non-finite results where the exact value is finite lists, per
variant and format, the counts of +Inf, -Inf and NaN computed here from results.csv (naive
overflows float32 at sigma 30, underflows on logits-low and overflows on logits-high in every
format the preset runs), and says in one line when there are none; the headline's note on rows
without a finite bound gives lse's reasons, and its `max bound ratio` takes every row with a finite
bound (lse-masked's too).
  usage: tlse_study.py PATH/TO/sumlab"""
import os
import re
import shutil
import sys
import tempfile

from study_check import check, done, run_study, section

sumlab = sys.argv[1]


def run(out, *args):
    return run_study(sumlab, out, "lse", *args)


def nonfinite(hexv):
    """+Inf, -Inf, NaN as 0, 1, 2; None for a finite value."""
    h = hexv.lower()
    if "nan" in h:
        return 2
    if "inf" in h:
        return 1 if h.startswith("-") else 0
    return None


TITLE = "Non-finite results where the exact value is finite"
tmp = tempfile.mkdtemp(prefix="tlse_study.")
try:
    # ---- the tiny study ------------------------------------------------------------------------
    d = os.path.join(tmp, "all")
    rows = run(d, "all", "--preset", "tiny")
    with open(os.path.join(d, "report.md")) as f:
        md = f.read()
    cond = [r for r in rows if r["experiment"] == "accuracy-vs-cond"]
    check(f"accuracy-vs-cond rows there ({len(cond)})", len(cond) > 0)
    check("accuracy-vs-cond: every row of logits, sweep = sigma, op lse",
          all(r["dataset"] == "logits" and r["sweep"] == "sigma" and r["op"] == "lse" for r in cond))
    sig = sorted({float(r["sweep_value"]) for r in cond})
    check(f"tiny: sigma 0.1 and 30 ({sig})", sig == [0.1, 30.0])
    check("each row's params carry its sigma",
          all(re.search(r"(^|;)sigma=([^;]*)", r["params"]) and
              float(re.search(r"(^|;)sigma=([^;]*)", r["params"]).group(2)) == float(r["sweep_value"]) for r in cond))
    fams = {r["dataset"] for r in rows if r["experiment"] == "accuracy-vs-n"}
    check(f"accuracy-vs-n: lse's families ({sorted(fams)})",
          fams == {"logits", "logits-dominant", "lse-masked", "logits-low", "logits-high", "constant",
                   "uniform", "normal"})
    dfams = {r["dataset"] for r in rows if r["experiment"] == "determinism"}
    check(f"determinism: lse's inputs ({sorted(dfams)})", dfams == {"logits", "lse-masked"})
    check("report: the sweep section and its table by sigma",
          "## Sweeps: error by sigma and by dynamic range" in md and
          re.search(r"^\| variant \| sigma 0\.1 \| sigma 30 \|$", md, re.M) is not None)

    # the non-finite table, computed here from results.csv
    want, finite = {}, {}
    for r in rows:
        if not r["experiment"].startswith("accuracy-vs-") or r["status"] != "ok":
            continue
        if r["exact_hex"] == "" or nonfinite(r["exact_hex"]) is not None:
            continue
        key = (r["op"], r["variant"], r["dtype"])
        finite[key] = finite.get(key, 0) + 1
        k = nonfinite(r["result_hex"])
        if k is None:
            continue
        e = want.setdefault(key, [[0, 0, 0], {}])
        e[0][k] += 1
        e[1][r["dataset"]] = e[1].get(r["dataset"], 0) + 1
    check(f"naive overflows float32 logits at sigma 30: +Inf rows ({want.get(('lse', 'naive', 'f32'))})",
          any(r["variant"] == "naive" and r["dtype"] == "f32" and r["sweep_value"] == "30" and
              nonfinite(r["result_hex"]) == 0 and nonfinite(r["exact_hex"]) is None for r in cond))
    dts = {r["dtype"] for r in rows if r["experiment"] == "accuracy-vs-n"}
    check(f"tiny: float32 and float64 ({sorted(dts)})", {"f32", "f64"} <= dts)
    for dt in sorted(dts):
        for fam, k, what in (("logits-low", 1, "-Inf"), ("logits-high", 0, "+Inf")):
            check(f"naive gives {what} on {fam} in {dt} where the exact lse is finite",
                  any(r["experiment"] == "accuracy-vs-n" and r["variant"] == "naive" and r["dtype"] == dt and
                      r["dataset"] == fam and nonfinite(r["result_hex"]) == k and nonfinite(r["exact_hex"]) is None
                      for r in rows))
    # the headline: lse's rows without a finite bound said with lse's reasons (not the sum's), and
    # every row with a finite bound (lse-masked's too, whose sum|x| is +Inf) in `max bound ratio`
    head = section(md, "Headline")
    notes = [l for l in head if "No finite a-priori bound" in l]
    check(f"headline: a note on lse rows without a finite bound ({notes})",
          len(notes) > 0 and all("lse rows" in l and "sum|x| exceeds" not in l and "k u >= 1" not in l
                                 for l in notes))
    dt_now, hb = None, {}
    for line in head:
        m = re.match(r"^### (\S+) input$", line)
        if m:
            dt_now = m.group(1)
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if dt_now and len(cells) == 11 and cells[0] not in ("variant", "---"):
            hb[(cells[0], dt_now)] = cells[7].split(" ")[0]
    for (v, dt), cell in sorted(hb.items()):
        brs = [float(r["bound_ratio"]) for r in rows if r["variant"] == v and r["dtype"] == dt and
               r["experiment"].startswith("accuracy-") and r["status"] == "ok" and
               r["bound_abs"] not in ("", "inf", "nan") and r["bound_ratio"] not in ("", "nan")]
        wb = max(brs) if brs else None
        ok = cell == "-" if wb is None else cell != "-" and abs(float(cell) - wb) <= 5e-3 * wb + 1e-300
        check(f"headline {v} {dt}: max bound ratio {cell}, rows with a finite bound give {wb}", ok)
    check("headline: lse-masked rows have finite bounds there",
          any(r["dataset"] == "lse-masked" and r["bound_abs"] not in ("", "inf", "nan") for r in rows))
    sec = section(md, TITLE)
    got = {}
    for line in sec:
        m = re.match(r"^\| (\S+) \| (\S+) \| (\S+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (.*) \|$", line)
        if m:
            dsl = dict((a, int(b)) for a, b in re.findall(r"`([^`]+)` \((\d+)\)", m.group(8)))
            got[(m.group(2), m.group(1), m.group(3))] = [[int(m.group(i)) for i in (4, 5, 6)], dsl, int(m.group(7))]
    check(f"report: the section '{TITLE}' is there", len(sec) > 0)
    check(f"the table lists naive ({sorted(got)})", any(k[1] == "naive" for k in got))
    exp = {k: [v[0], v[1], finite[k]] for k, v in want.items()}
    check(f"the table's rows equal the counts from results.csv:\n  report {got}\n  csv    {exp}", got == exp)
    total = sum(sum(v[0]) for v in want.values())
    check(f"the section's sentence counts {total} rows", any(l.startswith(f"{total} rows of the accuracy sweeps")
                                                             for l in sec))
    html = os.path.join(d, "report.html")
    if os.path.exists(html):
        with open(html) as f:
            page = f.read()
        check("report.html: the section in the page and its nav", page.count(TITLE) >= 2)
    # the sum's probabilistic bound (Higham & Mary) is no bound of lse: not in its error-vs-n charts
    svg = os.path.join(d, "charts", "error_vs_n_logits__f32.svg")
    if os.path.exists(svg):
        with open(svg) as f:
            check("error_vs_n_logits__f32.svg: no probabilistic bound of a sum", "probabilistic" not in f.read())
    # the chart's x axis is sigma (where gnuplot drew it)
    svg = os.path.join(d, "charts", "error_vs_cond_f32.svg")
    if os.path.exists(svg):
        with open(svg) as f:
            check("error_vs_cond_f32.svg: x axis named sigma", "sigma  (the parameter of the logits family" in f.read())

    # ---- no non-finite result: one line says so ----------------------------------------------
    d = os.path.join(tmp, "none")
    rows = run(d, "accuracy-vs-cond", "--preset", "tiny", "--variants", "exact,reproducible")
    with open(os.path.join(d, "report.md")) as f:
        sec = [l for l in section(f.read(), TITLE) if l.strip()]
    check(f"no non-finite result: one line ({sec})", len(sec) == 1 and sec[0].startswith("None:"))

    # ---- quick: every other sigma and the last; --datasets replaces lse's families -----------
    d = os.path.join(tmp, "quick")
    rows = run(d, "accuracy-vs-cond", "--preset", "quick", "--variants", "exact", "--dtype", "f32")
    sig = sorted({float(r["sweep_value"]) for r in rows})
    check(f"quick: sigma 0.1, 1, 10, 30 ({sig})", sig == [0.1, 1.0, 10.0, 30.0])
    d = os.path.join(tmp, "ds")
    rows = run(d, "accuracy-vs-n", "--preset", "tiny", "--variants", "exact", "--datasets", "cauchy,logits")
    fams = {r["dataset"] for r in rows}
    check(f"--datasets cauchy,logits: those two ({sorted(fams)})", fams == {"cauchy", "logits"})
finally:
    shutil.rmtree(tmp, ignore_errors=True)

sys.exit(done())

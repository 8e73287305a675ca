#!/usr/bin/env python3
"""tstudy_anchors.py: experiments/anchors/study_anchors.py on a tiny CPU study (float32
accuracy-vs-n): every dataset's input at the run's largest size, regenerated and summed by numpy.sum
(one distinct value, spread 0) and by a stand-in framework whose repetitions differ (numpy.sum of
fixed permutations: its distinct count, min, max and spread in ulps checked against the values it
returned and math.fsum's exact sum); a framework that raises Absent (and PyTorch, CuPy, JAX where
not installed) listed as absent in anchors.md with exit 0; a failing one listed as failed, no row.
  usage: tstudy_anchors.py PATH/TO/sumlab SOURCE_DIR"""
import csv
import math
import os
import subprocess
import sys
import tempfile

sumlab, src = sys.argv[1], sys.argv[2]
try:
    import numpy as np
except ImportError:
    print("tstudy_anchors: NumPy is not installed: skipped", file=sys.stderr)
    sys.exit(77)
sys.path.insert(0, os.path.join(src, "experiments", "anchors"))
import study_anchors as sa  # noqa: E402
from study_check import check, done  # noqa: E402

REPS = 7
SHUF = []   # the stand-in's values and math.fsum's sum, per input in the order the script takes them


def shuffled(x, reps):
    rng = np.random.default_rng(12345)
    with np.errstate(all="ignore"):
        out = [float(np.sum(x[rng.permutation(x.size)])) for _ in range(reps)]
    SHUF.append((out, math.fsum(float(v) for v in x)))
    return out


def gone(x, reps):
    raise sa.Absent("not installed here")


def broken(x, reps):
    raise ValueError("refuses the input")


with tempfile.TemporaryDirectory() as t:
    run = os.path.join(t, "run")
    env = dict(os.environ, SUMLAB_NO_GPU="1", SUMLAB_NO_CHARTS="1")
    p = subprocess.run([sumlab, "run", "accuracy-vs-n", "--preset", "tiny", "--backend", "cpu", "--dtype", "f32",
                        "--variants", "serial", "--seed", "7", "-q", "-o", run], env=env, capture_output=True, text=True)
    check(f"tiny study runs ({p.stderr[-300:]})", p.returncode == 0)
    fw = dict(sa.FRAMEWORKS)
    fw.update({"shuffled": shuffled, "gone.sum": gone, "broken.sum": broken})
    rc = sa.main([run, "--sumlab", sumlab, "--reps", str(REPS)], frameworks=fw)
    check(f"study_anchors exits 0 with absent frameworks (got {rc})", rc == 0)
    out = os.path.join(run, "anchors")
    with open(os.path.join(out, "anchors.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    md = open(os.path.join(out, "anchors.md")).read()
    inputs, n = sa.anchor_inputs(run, 0, 1 << 24)
    check(f"inputs found in the run ({len(inputs)}, n = {n})", len(inputs) >= 2 and n > 0)
    by = {(r["dataset"], r["params"], r["anchor"]): r for r in rows}
    for ds, params, _, _ in inputs:
        r = by.get((ds, params, "numpy.sum"))
        check(f"{ds}: a numpy.sum row", r is not None)
        if r and r["min_hex"] not in ("", "nan", "-nan") and r["spread_ulps"] != "":
            check(f"{ds}: numpy.sum repeated {REPS}x: 1 distinct, spread 0 ({r})",
                  r["reps"] == str(REPS) and r["distinct"] == "1" and float(r["spread_ulps"]) == 0
                  and float.fromhex(r["min_hex"]) == float.fromhex(r["max_hex"]))
        check(f"{ds}: no row for the absent and failing frameworks",
              not any((ds, params, a) in by for a in ("gone.sum", "broken.sum")))
    check(f"shuffled ran on every input ({len(SHUF)})", len(SHUF) == len(inputs))
    spread_seen = 0
    for k, (ds, params, rn, seed) in enumerate(inputs):
        r = by.get((ds, params, "shuffled"))
        check(f"{ds}: a shuffled row", r is not None)
        if not r or k >= len(SHUF):
            continue
        vals, exact = SHUF[k]
        if any(v != v or math.isinf(v) for v in vals) or math.isinf(exact):
            continue
        ulp = float(np.spacing(np.abs(np.float32(exact))))
        want = (max(vals) - min(vals)) / ulp
        check(f"{ds}: distinct {r['distinct']} = {len(set(vals))}", int(r["distinct"]) == len(set(vals)))
        check(f"{ds}: min/max = the values' ({r['min_hex']} {r['max_hex']})",
              float.fromhex(r["min_hex"]) == min(vals) and float.fromhex(r["max_hex"]) == max(vals))
        check(f"{ds}: spread_ulps {r['spread_ulps']} = {want}", abs(float(r["spread_ulps"]) - want) <= 1e-9 * max(1, want))
        worst = max(abs(v - exact) for v in vals) / ulp
        check(f"{ds}: ulps_max {r['ulps_max']} ~ {worst}", abs(float(r["ulps_max"]) - worst) <= 1e-5 * max(1, worst) + 1e-6)
        spread_seen += len(set(vals)) > 1
    check(f"the stand-in's repetitions differ on some input ({spread_seen})", spread_seen >= 1)
    check("anchors.md lists gone.sum as absent", "Absent:" in md and "gone.sum (not installed here)" in md)
    check("anchors.md lists broken.sum as failed", "broken.sum (ValueError: refuses the input)" in md)
    for mod, names in (("torch", ("torch.sum(cpu;det=off)", "torch.sum(cuda;det=on)")), ("cupy", ("cupy.sum",)),
                       ("jax", ("jax.numpy.sum(f32;x64=off)", "jax.numpy.sum(f32;x64=on)"))):
        try:
            __import__(mod)
            present = True
        except ImportError:
            present = False
        for nm in names:
            if not present:
                check(f"{nm}: absent when {mod} is not installed", nm in md.split("Absent:", 1)[-1]
                      and not any(r["anchor"] == nm for r in rows))
    check("values files hold every repetition under one name",
          sum(1 for l in open(os.path.join(out, "values-0.csv")) if l.startswith("shuffled,")) == REPS)
    rc = sa.main([run, "--sumlab", sumlab, "--frameworks", "nope"], frameworks=fw)
    check(f"unknown framework: exit 2 (got {rc})", rc == 2)
    empty = os.path.join(t, "empty")
    os.makedirs(empty)
    with open(os.path.join(empty, "results.csv"), "w") as f:
        f.write("experiment,dataset,params,dtype,n,seed,status,config,instance,op\n")
    rc = sa.main([empty, "--sumlab", sumlab], frameworks=fw)
    check(f"a run without accuracy-vs-n float32 rows: exit 2 (got {rc})", rc == 2)

sys.exit(done())

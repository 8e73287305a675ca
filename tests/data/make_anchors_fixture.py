#!/usr/bin/env python3
"""make_anchors_fixture.py: writes tests/data/study_anchors.csv, an anchors/anchors.csv of the form
experiments/anchors/study_anchors.py writes (its OUT_COLS), for the report and chart tests: the
committed H200 study's float32 anchor inputs (accuracy-vs-n, instance 0, n = 2^24: dataset, params,
seed, cond and exact sum from its results.csv.gz), each summed by the eight frameworks the script
knows, 20 repetitions. The figures are made up but of the kinds a GPU run gives: errors of a few
ulps (more on ill-conditioned inputs), most frameworks repeatable, atomics-based ones (JAX on GPU)
with several distinct results; the overflow input's inf an error of inf ulps.
  usage: make_anchors_fixture.py STUDY_DIR OUT.csv"""
import csv
import gzip
import random
import sys

COLS = ("dataset", "params", "dtype", "n", "seed", "anchor", "reps", "distinct", "min_hex", "max_hex",
        "spread_ulps", "ulps_max", "cond", "exact_sum_hex")
ANCHORS = ("numpy.sum", "torch.sum(cpu;det=off)", "torch.sum(cpu;det=on)", "torch.sum(cuda;det=off)",
           "torch.sum(cuda;det=on)", "cupy.sum", "jax.numpy.sum(f32;x64=off)", "jax.numpy.sum(f32;x64=on)")


def main(study, out):
    rng = random.Random(36)
    inputs = {}
    with gzip.open(study + "/results.csv.gz", "rt") as f:
        for r in csv.DictReader(f):
            if (r["experiment"] == "accuracy-vs-n" and r["dtype"] == "f32" and r["n"] == "16777216" and
                    r["instance"] == "0" and r["status"] == "ok" and r["dataset"] not in inputs):
                inputs[r["dataset"]] = r
    rows = []
    for ds, r in inputs.items():
        cond = float(r["cond"]) if r["cond"] not in ("", "inf", "nan") else float("inf")
        scale = min(max(cond, 1.0), 1e6)
        for a in ANCHORS:
            nondet = a.startswith("jax") and "x64=off" in a and ds not in ("sorted-inc", "sorted-dec")
            base = rng.choice((0.0, 0.5, 1.0, 1.5, 2.0)) * (1 if cond < 10 else scale ** 0.5)
            if a.startswith("numpy") or "x64=on" in a:
                base = rng.choice((0.0, 0.5))
            d = rng.choice((2, 3, 4, 6)) if nondet else 1
            spread = (d - 1) * rng.choice((1, 2)) if d > 1 else 0
            umax = base + spread
            if r["cond"] in ("", "nan", "-nan"):   # a NaN input: every framework returns NaN, as S is
                umax, spread, d = 0.0, 0, 1
            rows.append({"dataset": ds, "params": r["params"], "dtype": "f32", "n": r["n"], "seed": r["seed"],
                         "anchor": a, "reps": 20, "distinct": d, "min_hex": r["exact_hex"],
                         "max_hex": r["exact_hex"], "spread_ulps": "%g" % spread, "ulps_max": "%.6g" % umax,
                         "cond": r["cond"], "exact_sum_hex": r["exact_hex"]})
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

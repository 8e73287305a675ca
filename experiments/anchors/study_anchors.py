#!/usr/bin/env python3
"""study_anchors.py: what users run instead of sumlab, on a study's anchor inputs, each repeated to
measure its repeatability: the sums of torch.sum (CPU and CUDA, torch.use_deterministic_algorithms
off and on), cupy.sum, jax.numpy.sum (float32 with jax_enable_x64 off and on) and numpy.sum, judged
by `sumlab judge` (several values under one name: their distinct count and spread).

  study_anchors.py RUN_DIR [--sumlab BIN] [--reps R] [--n N] [--max-n N] [--frameworks LIST]

The anchor inputs: the float32 inputs of RUN_DIR's accuracy-vs-n rows (status ok, default config,
instance 0), one per dataset (and parameters), at size N (default: the largest size of the run
not above --max-n, 2^24), regenerated bit for bit with `sumlab gen` (dataset, params, n, seed of
the row). Each framework sums each input R times (default 20); the values go to
RUN_DIR/anchors/values-<k>.csv as `name,value` lines (the value as an exact hex float), which
`sumlab judge INPUT --values FILE --format csv` judges. Written into RUN_DIR/anchors/:
  anchors.csv  dataset,params,dtype,n,seed,anchor,reps,distinct,min_hex,max_hex,spread_ulps,
               ulps_max,cond,exact_sum_hex (one row per input and anchor; ulps_max: the largest
               |ulps| over the repetitions)
  anchors.md   the same as a markdown table, and the frameworks found absent
A framework that is not installed (or has no GPU) is reported as absent, not an error; a call
that raises is reported with its message and gives no row. Exit: 0 done (even with absent
frameworks), 1 a failure (sumlab gen or judge failed), 2 bad usage or no anchor input in RUN_DIR.
Needs NumPy; PyTorch, CuPy and JAX are each optional."""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("study_anchors.py: NumPy is not installed (pip install numpy)", file=sys.stderr)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # anchor_common.py, beside this file
from anchor_common import find_sumlab  # noqa: E402

EXPERIMENT = "accuracy-vs-n"
OUT_COLS = ("dataset", "params", "dtype", "n", "seed", "anchor", "reps", "distinct", "min_hex",
            "max_hex", "spread_ulps", "ulps_max", "cond", "exact_sum_hex")
JUDGE_COLS = "variant,ulps,distinct,min_hex,max_hex,spread_ulps,cond,exact_sum_hex"


class Absent(Exception):
    """The framework (or its device) is not there: reported, not an error."""


# ---- the frameworks: each a function (x: a float32 NumPy array, reps) -> reps Python floats ----
# (the float32 result of each call, as a double: exactly the value the framework returned)

def numpy_sum(x, reps):
    with np.errstate(all="ignore"):   # an overflowing input's inf is a result, not a warning
        return [float(np.sum(x)) for _ in range(reps)]


def _torch():
    try:
        import torch
    except ImportError:
        raise Absent("PyTorch is not installed")
    return torch


def _torch_sum(x, reps, device, deterministic):
    torch = _torch()
    if device == "cuda" and not torch.cuda.is_available():
        raise Absent("PyTorch has no CUDA device")
    before = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(deterministic)
    try:
        t = torch.from_numpy(x).to(device)
        out = []
        for _ in range(reps):
            out.append(float(torch.sum(t).item()))
        return out
    finally:
        torch.use_deterministic_algorithms(before)


def cupy_sum(x, reps):
    try:
        import cupy
    except ImportError:
        raise Absent("CuPy is not installed")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise Absent("CuPy has no CUDA device")
    except cupy.cuda.runtime.CUDARuntimeError as e:
        raise Absent(f"CuPy has no CUDA device ({e})")
    d = cupy.asarray(x)
    return [float(cupy.sum(d).get()) for _ in range(reps)]


def _jax_sum(x, reps, x64):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        raise Absent("JAX is not installed")
    before = bool(getattr(jax.config, "jax_enable_x64", False))
    jax.config.update("jax_enable_x64", x64)
    try:
        d = jnp.asarray(x, dtype=jnp.float32)   # float32 input either way, on JAX's default device
        return [float(jnp.sum(d).block_until_ready()) for _ in range(reps)]
    finally:
        jax.config.update("jax_enable_x64", before)


# name (no comma: a `name,value` field) -> function
FRAMEWORKS = {
    "numpy.sum": numpy_sum,
    "torch.sum(cpu;det=off)": lambda x, r: _torch_sum(x, r, "cpu", False),
    "torch.sum(cpu;det=on)": lambda x, r: _torch_sum(x, r, "cpu", True),
    "torch.sum(cuda;det=off)": lambda x, r: _torch_sum(x, r, "cuda", False),
    "torch.sum(cuda;det=on)": lambda x, r: _torch_sum(x, r, "cuda", True),
    "cupy.sum": cupy_sum,
    "jax.numpy.sum(f32;x64=off)": lambda x, r: _jax_sum(x, r, False),
    "jax.numpy.sum(f32;x64=on)": lambda x, r: _jax_sum(x, r, True),
}


# ---- the run's anchor inputs ------------------------------------------------------------------

def anchor_inputs(run_dir, n_given, max_n):
    """[(dataset, params, n, seed)] of RUN_DIR's float32 accuracy-vs-n rows at one size."""
    rows = []
    with open(os.path.join(run_dir, "results.csv"), newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if (r.get("experiment") != EXPERIMENT or r.get("status") != "ok" or r.get("dtype") != "f32"
                    or r.get("config") != "default" or (r.get("instance") or "0") != "0"
                    or (r.get("op") or "sum") != "sum"):
                continue
            rows.append((r["dataset"], r["params"], int(r["n"]), r["seed"]))
    if n_given:
        n = n_given
    else:
        sizes = sorted({r[2] for r in rows if r[2] <= max_n})
        if not sizes:
            return [], 0
        n = sizes[-1]
    seen, out = set(), []
    for ds, params, rn, seed in rows:
        if rn == n and (ds, params) not in seen:
            seen.add((ds, params))
            out.append((ds, params, rn, seed))
    return out, n


def gen(sumlab, ds, params, n, seed, path):
    cmd = [sumlab, "gen", ds, "--n", str(n), "--dtype", "f32", "--seed", seed, "-o", path]
    for kv in filter(None, params.split(";")):
        cmd += ["--param", kv]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"sumlab gen {ds}: {p.stderr.strip()}")


def judge(sumlab, npy, values_csv):
    """`sumlab judge` of the values file: {name: (rows of that name)}."""
    p = subprocess.run([sumlab, "judge", npy, "--values", values_csv, "--format", "csv", "-q",
                        "--columns", JUDGE_COLS], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"sumlab judge: {p.stderr.strip()}")
    by_name = {}
    for r in csv.DictReader(p.stdout.splitlines()):
        by_name.setdefault(r["variant"], []).append(r)
    return by_name


def summarise(key, name, rows):
    """One anchors.csv row from judge's rows of one name (their group figures are the same)."""
    ulps = [abs(float(r["ulps"])) for r in rows if r["ulps"] not in ("", "nan", "-nan")]
    r0 = rows[0]
    ds, params, n, seed = key
    return {"dataset": ds, "params": params, "dtype": "f32", "n": n, "seed": seed, "anchor": name,
            "reps": len(rows), "distinct": r0["distinct"], "min_hex": r0["min_hex"],
            "max_hex": r0["max_hex"], "spread_ulps": r0["spread_ulps"],
            "ulps_max": ("%.6g" % max(ulps)) if ulps else "nan", "cond": r0["cond"],
            "exact_sum_hex": r0["exact_sum_hex"]}


def md_cell(s):
    return str(s).replace("|", "\\|")


def write_outputs(out_dir, rows, absent, failed, n):
    os.makedirs(out_dir, exist_ok=True)
    tmp = os.path.join(out_dir, "anchors.csv.part")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=OUT_COLS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, os.path.join(out_dir, "anchors.csv"))
    lines = [f"# Anchors: what users run instead (float32, n = {n})", "",
             "Each anchor summed each input `reps` times; `distinct` counts the different results, "
             "`spread_ulps` is max - min in ulps of the exact sum rounded to float32, `ulps_max` the "
             "largest error (judged by `sumlab judge`).", "",
             "| dataset | params | anchor | reps | distinct | spread_ulps | ulps_max | min_hex | max_hex |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| " + " | ".join(md_cell(r[c]) for c in ("dataset", "params", "anchor", "reps", "distinct",
                                                               "spread_ulps", "ulps_max", "min_hex",
                                                               "max_hex")) + " |")
    if absent:
        lines += ["", "Absent: " + "; ".join(f"{md_cell(k)} ({md_cell(v)})" for k, v in absent.items()) + "."]
    if failed:
        lines += ["", "Failed: " + "; ".join(f"{md_cell(k)} ({md_cell(v)})" for k, v in failed.items()) + "."]
    tmp = os.path.join(out_dir, "anchors.md.part")
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, os.path.join(out_dir, "anchors.md"))


def main(argv=None, frameworks=None):
    ap = argparse.ArgumentParser(description="repeated framework sums of a study's anchor inputs, judged")
    ap.add_argument("run_dir")
    ap.add_argument("--sumlab")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--n", type=int, default=0, help="the inputs' size (default: the largest <= --max-n)")
    ap.add_argument("--max-n", type=int, default=1 << 24)
    ap.add_argument("--frameworks", help="comma-separated names (default: all); see FRAMEWORKS")
    a = ap.parse_args(argv)
    fw = dict(frameworks if frameworks is not None else FRAMEWORKS)
    if a.frameworks:
        names = a.frameworks.split(",")
        bad = [k for k in names if k not in fw]
        if bad:
            print(f"study_anchors.py: unknown framework {bad[0]!r} (known: {', '.join(fw)})", file=sys.stderr)
            return 2
        fw = {k: fw[k] for k in names}
    if a.reps < 1:
        print("study_anchors.py: --reps must be at least 1", file=sys.stderr)
        return 2
    sumlab = find_sumlab(a.sumlab, "study_anchors.py")
    try:
        inputs, n = anchor_inputs(a.run_dir, a.n, a.max_n)
    except OSError as e:
        print(f"study_anchors.py: {e}", file=sys.stderr)
        return 2
    if not inputs:
        print(f"study_anchors.py: {a.run_dir}: no ok float32 {EXPERIMENT} row to take inputs from", file=sys.stderr)
        return 2
    out_dir = os.path.join(a.run_dir, "anchors")
    os.makedirs(out_dir, exist_ok=True)
    rows, absent, failed = [], {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for k, key in enumerate(inputs):
            ds, params, rn, seed = key
            npy = os.path.join(tmp, f"input-{k}.npy")
            try:
                gen(sumlab, ds, params, rn, seed, npy)
            except RuntimeError as e:
                print(f"study_anchors.py: {e}", file=sys.stderr)
                return 1
            x = np.load(npy)
            values = []
            for name, fn in fw.items():
                if name in absent:
                    continue
                try:
                    vals = fn(x, a.reps)
                except Absent as e:
                    absent[name] = str(e)
                    print(f"study_anchors.py: {name}: absent: {e}", file=sys.stderr)
                    continue
                except Exception as e:   # a library's refusal: said, no row
                    failed[name] = f"{type(e).__name__}: {e}"
                    print(f"study_anchors.py: {name} on {ds}: {type(e).__name__}: {e}", file=sys.stderr)
                    continue
                values += [(name, float(v).hex()) for v in vals]
            if not values:
                continue
            vpath = os.path.join(out_dir, f"values-{k}.csv")
            with open(vpath, "w") as f:
                f.write(f"# {ds} {params} n={rn} seed={seed} float32\nname,value\n")
                f.writelines(f"{nm},{v}\n" for nm, v in values)
            try:
                by_name = judge(sumlab, npy, vpath)
            except RuntimeError as e:
                print(f"study_anchors.py: {e}", file=sys.stderr)
                return 1
            for name in fw:
                if name in by_name:
                    rows.append(summarise(key, name, by_name[name]))
    write_outputs(out_dir, rows, absent, failed, n)
    print(f"study_anchors.py: {len(rows)} rows ({len(inputs)} inputs, n = {n}) in {out_dir}/anchors.csv and "
          f"anchors.md; absent: {', '.join(absent) or 'none'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
